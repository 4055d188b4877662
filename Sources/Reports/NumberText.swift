import Foundation

/// Locale-independent number and date text shared by the reporters.
///
/// Reports must be byte-identical on every machine, so nothing here consults the user's locale
/// or time zone: thousands are separated by `,`, the decimal mark is `.`, and times are UTC.
enum NumberText {
    /// An integer with `,` every three digits: `2,000`, `-1,234,567`.
    static func grouped<I: BinaryInteger>(_ value: I) -> String {
        let digits = String(value.magnitude)
        var out = value < 0 ? "-" : ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return out
    }

    /// A rate as a percentage with two decimals: `0.70%`, `100.00%`.
    ///
    /// A non-zero count never shows as `0.00%` and a partial one never as `100.00%`: they
    /// become `<0.01%` and `>99.99%`, so a reader never mistakes "a few" for "none".
    /// - Parameters:
    ///   - count: The violating records.
    ///   - total: The records evaluated; `0` gives `0.00%`.
    static func percent(_ count: Int, of total: Int) -> String {
        guard total > 0, count > 0 else { return "0.00%" }
        let hundredths = (Double(count) / Double(total) * 10_000).rounded()
        if hundredths < 1 { return "<0.01%" }
        if hundredths >= 10_000, count < total { return ">99.99%" }
        let whole = Int(hundredths) / 100
        let fraction = Int(hundredths) % 100
        return "\(whole).\(fraction < 10 ? "0" : "")\(fraction)%"
    }

    /// A size in binary units with one decimal: `512 bytes`, `1.2 MiB`.
    static func bytes(_ count: Int64) -> String {
        if count < 1024 { return count == 1 ? "1 byte" : "\(count) bytes" }
        let units = ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB"]
        var value = Double(count) / 1024
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return fixed(value, fractionDigits: 1) + " " + units[unit]
    }

    /// A duration for people: `0.41 s`, `12.30 s`.
    static func seconds(_ value: Double) -> String {
        fixed(value, fractionDigits: 2) + " s"
    }

    /// `value` with exactly `fractionDigits` decimals, never in exponent notation.
    static func fixed(_ value: Double, fractionDigits: Int) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
        // String(format:) without a locale argument uses the POSIX locale: `.` decimal mark.
        return String(format: "%.\(fractionDigits)f", value)
    }

    /// A JSON decimal: at least 6 significant fraction digits, trailing zeros removed, at least
    /// one fraction digit kept so a consumer sees a decimal, never exponent notation:
    /// `0.0`, `0.7`, `0.333333`, `0.000000333333`, `12.5`.
    ///
    /// Small non-zero values keep 6 significant digits (up to 17 fraction digits) so a
    /// rate such as 1 in 3 million never reads as `0.0`.
    /// - Returns: `nil` for NaN and infinities, which JSON cannot represent.
    static func jsonDecimal(_ value: Double) -> String? {
        guard value.isFinite else { return nil }
        var digits = 6
        let magnitude = abs(value)
        if magnitude > 0, magnitude < 0.1 {
            let leadingZeros = Int((-log10(magnitude)).rounded(.down))
            digits = min(17, max(6, leadingZeros + 6))
        }
        var text = fixed(value, fractionDigits: digits)
        while text.hasSuffix("0"), !text.hasSuffix(".0") { text.removeLast() }
        if text == "-0.0" { text = "0.0" }
        return text
    }

    /// An RFC 3339 / ISO 8601 UTC timestamp with milliseconds: `2026-11-20T02:00:00.000Z`.
    ///
    /// Computed with integer calendar arithmetic (Howard Hinnant's `civil_from_days`), so it
    /// depends on neither locale nor time zone nor Foundation's formatters.
    static func iso8601(_ date: Date) -> String {
        let totalMillis = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let (days, millisOfDay) = floorDivide(totalMillis, 86_400_000)
        let (year, month, day) = civil(fromDays: days)
        let hour = millisOfDay / 3_600_000
        let minute = millisOfDay / 60_000 % 60
        let second = millisOfDay / 1000 % 60
        let millis = millisOfDay % 1000
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T"
            + "\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2)).\(pad(millis, 3))Z"
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
        let quotient = a / b - ((a % b != 0 && (a < 0) != (b < 0)) ? 1 : 0)
        return (quotient, a - quotient * b)
    }

    /// Year, month, day of the proleptic Gregorian calendar for days since 1970-01-01.
    private static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value.magnitude)
        let padding = String(repeating: "0", count: max(0, width - digits.count))
        return (value < 0 ? "-" : "") + padding + digits
    }
}
