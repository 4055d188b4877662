#if Spark
/// One value of a result row, as Spark sent it in Arrow.
///
/// Integers of every width become ``int(_:)``, floats of both widths ``double(_:)`` (a widening
/// that is exact). Decimals stay exact text, dates and timestamps stay numbers since the epoch:
/// nothing is rounded or shifted into a local time zone.
public enum SparkValue: Sendable, Hashable, CustomStringConvertible {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case binary([UInt8])
    /// The exact decimal text: `-12.340` for the unscaled value -12340 at scale 3 (as Python's
    /// `str(Decimal("-12.340"))` and Spark's `CAST(... AS STRING)` write it).
    case decimal(String)
    /// Days since 1970-01-01.
    case date(days: Int32)
    /// Microseconds since 1970-01-01T00:00:00Z; `timeZone` is Spark's session time zone for a
    /// `TIMESTAMP` column, nil for `TIMESTAMP_NTZ`. The number does not depend on the zone.
    case timestamp(microseconds: Int64, timeZone: String?)

    /// `YYYY-MM-DD` for a date, `YYYY-MM-DD HH:MM:SS[.ffffff]` in UTC for a timestamp (the wall
    /// time itself for `TIMESTAMP_NTZ`), the plain value otherwise, `NULL` for null.
    public var description: String {
        switch self {
        case .null: return "NULL"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .double(let d): return String(d)
        case .string(let s): return s
        case .binary(let b): return "0x" + b.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
        case .decimal(let text): return text
        case .date(let days): return CivilDate(daysSinceEpoch: Int64(days)).description
        case .timestamp(let micros, _):
            let (days, rest) = micros.floorDivided(by: 86_400_000_000)
            let seconds = rest / 1_000_000, fraction = rest % 1_000_000
            var s = CivilDate(daysSinceEpoch: days).description + " "
                + [seconds / 3600, seconds / 60 % 60, seconds % 60].map { String($0).leftPadded(to: 2) }
                    .joined(separator: ":")
            if fraction != 0 { s += "." + String(fraction).leftPadded(to: 6) }
            return s
        }
    }
}

/// A proleptic Gregorian date (the calendar Spark 3+ and Python's `datetime` use).
struct CivilDate: Equatable, CustomStringConvertible {
    var year: Int64, month: Int64, day: Int64

    /// Howard Hinnant's `civil_from_days` (chrono-compatible low-level date algorithms).
    init(daysSinceEpoch: Int64) {
        let z = daysSinceEpoch + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        day = doy - (153 * mp + 2) / 5 + 1
        month = mp < 10 ? mp + 3 : mp - 9
        year = yoe + era * 400 + (month <= 2 ? 1 : 0)
    }

    var description: String {
        let y = year < 0 ? "-" + String(-year).leftPadded(to: 4) : String(year).leftPadded(to: 4)
        return "\(y)-\(String(month).leftPadded(to: 2))-\(String(day).leftPadded(to: 2))"
    }
}

extension Int64 {
    /// Quotient rounded toward minus infinity, and the non-negative remainder.
    func floorDivided(by d: Int64) -> (Int64, Int64) {
        let q = self / d, r = self % d
        return r < 0 ? (q - 1, r + d) : (q, r)
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
#endif
