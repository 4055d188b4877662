/// Strict parsers for the typed text forms of `../shared/bench/rules.md`, working on UTF-8
/// bytes without allocating (measured on this machine: a byte date parser runs 6–8 M/s,
/// Foundation's ISO-8601 styles 0.03–1.1 M/s).
public enum ByteParsers {
    /// Parses `-?[0-9]+`.
    /// - Returns: `(true, value)` for a valid integer; `value` saturates to ±`Int64.max`
    ///   when the digits overflow (the text is still a valid integer). `(false, 0)` otherwise.
    /// - Complexity: O(n).
    @inlinable
    public static func integer(_ p: UnsafeBufferPointer<UInt8>) -> (valid: Bool, value: Int64) {
        var i = 0
        let n = p.count
        var negative = false
        if n > 0, p[0] == UInt8(ascii: "-") {
            negative = true
            i = 1
        }
        if i == n { return (false, 0) }
        var value: Int64 = 0
        var overflow = false
        while i < n {
            let d = p[i] &- 48
            if d > 9 { return (false, 0) }
            if !overflow {
                let (m, o1) = value.multipliedReportingOverflow(by: 10)
                let (a, o2) = m.addingReportingOverflow(Int64(d))
                if o1 || o2 { overflow = true } else { value = a }
            }
            i += 1
        }
        if overflow { return (true, negative ? -Int64.max : Int64.max) }
        return (true, negative ? -value : value)
    }

    /// Parses `-?[0-9]+(\.[0-9]+)?` (no exponent, no thousands separators, no `+`).
    /// - Returns: `(true, value)` with the correctly rounded double for up to 15 significant
    ///   digits (Clinger's fast path), a close approximation beyond; `(false, 0)` otherwise.
    /// - Complexity: O(n).
    @inlinable
    public static func decimal(_ p: UnsafeBufferPointer<UInt8>) -> (valid: Bool, value: Double) {
        let n = p.count
        var i = 0
        var negative = false
        if n > 0, p[0] == UInt8(ascii: "-") {
            negative = true
            i = 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var intDigits = 0
        var dropped = 0           // integer digits beyond 19 (value scaled by 10^dropped)
        while i < n, p[i] &- 48 <= 9 {
            if digits < 19 {
                mantissa = mantissa &* 10 &+ UInt64(p[i] &- 48)
                if mantissa != 0 { digits += 1 }
            } else {
                dropped += 1
            }
            intDigits += 1
            i += 1
        }
        if intDigits == 0 { return (false, 0) }
        var fraction = 0
        if i < n {
            guard p[i] == UInt8(ascii: ".") else { return (false, 0) }
            i += 1
            let start = i
            while i < n, p[i] &- 48 <= 9 {
                if digits < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(p[i] &- 48)
                    if mantissa != 0 { digits += 1 }
                    fraction += 1
                }
                i += 1
            }
            if i == start || i != n { return (false, 0) }
        }
        var value = Double(mantissa)
        let exponent = dropped - fraction
        if exponent < 0 {
            value /= pow10(-exponent)
        } else if exponent > 0 {
            value *= pow10(exponent)
        }
        return (true, negative ? -value : value)
    }

    @usableFromInline
    static func pow10(_ e: Int) -> Double {
        var r = 1.0
        var k = e
        while k >= 22 {
            r *= 1e22
            k -= 22
        }
        return r * powersOfTen[k]
    }

    @usableFromInline
    static let powersOfTen: [Double] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
                                        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21]

    /// Parses exactly `true` or `false`.
    @inlinable
    public static func boolean(_ p: UnsafeBufferPointer<UInt8>) -> Bool? {
        if p.count == 4, p[0] == 0x74, p[1] == 0x72, p[2] == 0x75, p[3] == 0x65 { return true }
        if p.count == 5, p[0] == 0x66, p[1] == 0x61, p[2] == 0x6C, p[3] == 0x73, p[4] == 0x65 { return false }
        return nil
    }

    /// Parses `YYYY-MM-DD` as a real calendar date (proleptic Gregorian).
    /// - Returns: Days since 1970-01-01, or `nil`.
    @inlinable
    public static func date(_ p: UnsafeBufferPointer<UInt8>) -> Int32? {
        guard p.count == 10 else { return nil }
        return dateAt(p, 0)
    }

    @inlinable
    static func dateAt(_ p: UnsafeBufferPointer<UInt8>, _ o: Int) -> Int32? {
        guard p[o + 4] == 0x2D, p[o + 7] == 0x2D,
              let y = digits(p, o, 4), let m = digits(p, o + 5, 2), let d = digits(p, o + 8, 2),
              m >= 1, m <= 12, d >= 1, d <= CalendarMath.daysInMonth(year: y, month: m)
        else { return nil }
        return Int32(CalendarMath.daysFromCivil(year: y, month: m, day: d))
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS` with optional fractional seconds (`.123`), then `Z` or an
    /// offset `±HH:MM`; a real date, hour ≤ 23, minute and second ≤ 59.
    /// - Returns: Seconds since 1970-01-01T00:00:00Z (fraction truncated), or `nil`.
    @inlinable
    public static func datetime(_ p: UnsafeBufferPointer<UInt8>) -> Int64? {
        let n = p.count
        guard n >= 20, p[10] == UInt8(ascii: "T"), p[13] == 0x3A, p[16] == 0x3A,
              let days = dateAt(p, 0),
              let hh = digits(p, 11, 2), let mm = digits(p, 14, 2), let ss = digits(p, 17, 2),
              hh <= 23, mm <= 59, ss <= 59
        else { return nil }
        var i = 19
        if p[i] == UInt8(ascii: ".") {
            i += 1
            let start = i
            while i < n, p[i] &- 48 <= 9 { i += 1 }
            if i == start { return nil }
        }
        guard i < n else { return nil }
        var offset = 0
        if p[i] == UInt8(ascii: "Z") {
            i += 1
        } else if p[i] == UInt8(ascii: "+") || p[i] == UInt8(ascii: "-") {
            guard n - i == 6, p[i + 3] == 0x3A, let oh = digits(p, i + 1, 2), let om = digits(p, i + 4, 2),
                  oh <= 23, om <= 59 else { return nil }
            offset = (oh * 3600 + om * 60) * (p[i] == UInt8(ascii: "+") ? 1 : -1)
            i += 6
        } else {
            return nil
        }
        guard i == n else { return nil }
        return Int64(days) * 86400 + Int64(hh * 3600 + mm * 60 + ss) - Int64(offset)
    }

    @inlinable @inline(__always)
    static func digits(_ p: UnsafeBufferPointer<UInt8>, _ o: Int, _ count: Int) -> Int? {
        var v = 0
        for k in o ..< o + count {
            let d = p[k] &- 48
            if d > 9 { return nil }
            v = v * 10 + Int(d)
        }
        return v
    }

    /// The number of Unicode scalars in valid UTF-8 (counts non-continuation bytes).
    @inlinable
    public static func scalarCount(_ p: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 0
        for b in p where b & 0xC0 != 0x80 { count += 1 }
        return count
    }
}

/// Civil-calendar arithmetic (Howard Hinnant's algorithms), used by parsers and functions.
public enum CalendarMath {
    @inlinable
    public static func isLeap(_ y: Int) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }

    @inlinable
    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date.
    @inlinable
    public static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    /// The date of a day number (days since 1970-01-01).
    @inlinable
    public static func civil(fromDays z0: Int) -> (year: Int, month: Int, day: Int) {
        let z = z0 + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (m <= 2 ? y + 1 : y, m, d)
    }

    /// `YYYY-MM-DD` of a day number.
    public static func isoDate(days: Int) -> String {
        let (y, m, d) = civil(fromDays: days)
        func pad(_ v: Int, _ w: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, w - s.count)) + s
        }
        return "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))"
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` (UTC) of seconds since 1970: what `--as-of` and datetime values
    /// read, and how the history records when a run started.
    public static func isoDateTime(seconds: Int64) -> String {
        let days = seconds >= 0 ? seconds / 86400 : -((-seconds + 86399) / 86400)
        let rest = Int(seconds - days * 86400)
        func pad(_ v: Int) -> String { v < 10 ? "0\(v)" : String(v) }
        return isoDate(days: Int(days)) + "T\(pad(rest / 3600)):\(pad(rest / 60 % 60)):\(pad(rest % 60))Z"
    }
}
