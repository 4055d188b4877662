/// Strict parsers for the typed text forms of `../shared/bench/rules.md`, working on UTF-8
/// bytes without allocating (measured on this machine: a byte date parser runs 6–8 M/s,
/// Foundation's ISO-8601 styles 0.03–1.1 M/s).
package enum ByteParsers {
    /// Parses `-?[0-9]+`.
    /// - Returns: `(true, value)` for a valid integer; `value` saturates to ±`Int64.max`
    ///   when the digits overflow (the text is still a valid integer). `(false, 0)` otherwise.
    /// - Complexity: O(n).
    @inlinable @inline(__always)
    public static func integer(_ p: UnsafeBufferPointer<UInt8>) -> (valid: Bool, value: Int64) {
        let n = p.count
        // Up to 18 bytes hold at most 18 digits, which cannot overflow: no overflow checks.
        if n <= 18, n > 0, let q = p.baseAddress {
            let negative = q[0] == UInt8(ascii: "-")
            var i = negative ? 1 : 0
            if i == n { return (false, 0) }
            var value: Int64 = 0
            while i < n {
                let d = q[i] &- 48
                if d > 9 { return (false, 0) }
                value = value &* 10 &+ Int64(d)
                i &+= 1
            }
            return (true, negative ? -value : value)
        }
        return integerGeneral(p)
    }

    /// ``integer(_:)`` for every length, with overflow detection (the specification).
    @usableFromInline @inline(never)
    static func integerGeneral(_ p: UnsafeBufferPointer<UInt8>) -> (valid: Bool, value: Int64) {
        let n = p.count
        var i = 0
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
    @inlinable @inline(__always)
    public static func decimal(_ p: UnsafeBufferPointer<UInt8>) -> (valid: Bool, value: Double) {
        let n = p.count
        if n <= 19, let q = p.baseAddress { return shortDecimal(q, n) }
        return decimalGeneral(p)
    }

    /// ``decimal(_:)`` for comparisons that must be exact: the correctly rounded double of a
    /// text of at most 19 bytes whose digits, read as one integer, stay below 10^15 (so at
    /// most 15 significant digits: no two such texts of different values share a double),
    /// NaN for every other valid text (compare those with ``ExactDecimal``).
    /// - Returns: `(true, value or NaN)` for a valid decimal, `(false, 0)` otherwise.
    /// - Complexity: O(n).
    @inlinable @inline(__always)
    public static func comparableDecimal(_ p: UnsafeBufferPointer<UInt8>) -> (valid: Bool, value: Double) {
        let n = p.count
        guard n <= 19, let q = p.baseAddress else { return (decimalGeneral(p).valid, .nan) }
        guard let (negative, mantissa, fraction) = shortDecimalDigits(q, n) else { return (false, 0) }
        // At most 19 digits: no wrap-around. Below 10^15 the mantissa is an exact double and
        // 10^fraction (fraction ≤ 17) too, so the one division rounds correctly.
        if mantissa >= 1_000_000_000_000_000 { return (true, .nan) }
        var value = Double(mantissa)
        if fraction > 0 { value /= powersOfTen[fraction] }
        return (true, negative ? -value : value)
    }

    /// ``decimal(_:)`` for every length, counting significant digits (the specification).
    @usableFromInline @inline(never)
    static func decimalGeneral(_ p: UnsafeBufferPointer<UInt8>) -> (valid: Bool, value: Double) {
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

    /// The digits of a decimal of at most 19 bytes (`-?[0-9]+(\.[0-9]+)?`): its sign, every
    /// digit accumulated into one integer (at most 19 digits: no wrap-around below 2^64), and the
    /// number of fraction digits; nil when the text is not such a decimal.
    @inlinable @inline(__always)
    static func shortDecimalDigits(_ q: UnsafePointer<UInt8>, _ n: Int) -> (negative: Bool, mantissa: UInt64, fraction: Int)? {
        let negative = n > 0 && q[0] == UInt8(ascii: "-")
        var i = negative ? 1 : 0
        let integerStart = i
        var mantissa: UInt64 = 0
        while i < n {
            let d = q[i] &- 48
            if d > 9 { break }
            mantissa = mantissa &* 10 &+ UInt64(d)
            i &+= 1
        }
        if i == integerStart { return nil }
        var fraction = 0
        if i < n {
            guard q[i] == UInt8(ascii: ".") else { return nil }
            i &+= 1
            let start = i
            while i < n {
                let d = q[i] &- 48
                if d > 9 { return nil }
                mantissa = mantissa &* 10 &+ UInt64(d)
                i &+= 1
            }
            if i == start { return nil }
            fraction = n &- start
        }
        return (negative, mantissa, fraction)
    }

    /// ``decimal(_:)`` for at most 19 bytes: at most 19 digits, so every digit is significant
    /// and accumulated (none dropped, no wrap-around below 2^64), and the general path's digit
    /// counting is not needed. Same value, same rounding.
    @inlinable @inline(__always)
    static func shortDecimal(_ q: UnsafePointer<UInt8>, _ n: Int) -> (valid: Bool, value: Double) {
        guard let (negative, mantissa, fraction) = shortDecimalDigits(q, n) else { return (false, 0) }
        var value = Double(mantissa)
        if fraction > 0 { value /= pow10(fraction) }
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

    /// Parses `YYYY-MM-DD` as a real calendar date (proleptic Gregorian), years 0000–9999.
    /// - Returns: Days since 1970-01-01, or `nil`.
    /// - Complexity: O(1): one unaligned 8-byte load checked as a word, no loop.
    @inlinable
    public static func date(_ p: UnsafeBufferPointer<UInt8>) -> Int32? {
        guard p.count == 10, let q = p.baseAddress else { return nil }
        return date(at: q)
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS` with optional fractional seconds (`.123`), then `Z` or an
    /// offset `±HH:MM`; a real date, hour ≤ 23, minute and second ≤ 59, offset hours ≤ 23 and
    /// minutes ≤ 59.
    /// - Returns: Seconds since 1970-01-01T00:00:00Z (fraction truncated: ``datetimeParts(_:)``
    ///   keeps it, and bounds and uniqueness use it), or `nil`.
    /// - Complexity: O(1) for the fixed-width forms `…SSZ` (20 bytes) and `…SS±hh:mm`
    ///   (25 bytes), parsed as words; O(n) with a fraction (``datetimeGeneral(_:)``).
    @inlinable
    public static func datetime(_ p: UnsafeBufferPointer<UInt8>) -> Int64? {
        let n = p.count
        guard let q = p.baseAddress, n == 20 || n == 25, q[10] == UInt8(ascii: "T") else {
            return datetimeGeneral(p)
        }
        // Byte 19 decides the shape; anything else (a fraction '.', junk) takes the general path,
        // which is the specification for every form.
        let offset: Int64
        if n == 20 {
            guard q[19] == UInt8(ascii: "Z") else { return datetimeGeneral(p) }
            offset = 0
        } else {
            let sign = q[19]
            guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return datetimeGeneral(p) }
            let h0 = q[20] &- 48, h1 = q[21] &- 48, m0 = q[23] &- 48, m1 = q[24] &- 48
            guard h0 <= 9, h1 <= 9, m0 <= 9, m1 <= 9, q[22] == 0x3A else { return nil }
            let oh = Int64(h0) * 10 + Int64(h1), om = Int64(m0) * 10 + Int64(m1)
            guard oh <= 23, om <= 59 else { return nil }
            offset = sign == UInt8(ascii: "+") ? oh * 3600 + om * 60 : -(oh * 3600 + om * 60)
        }
        // "HH:MM:SS" as one little-endian word: digits in bytes 0, 1, 3, 4, 6, 7, ':' in 2 and 5.
        let w = UnsafeRawPointer(q + 11).loadUnaligned(as: UInt64.self).littleEndian
        guard w & 0x0000_FF00_00FF_0000 == 0x0000_3A00_003A_0000, digitWord(w, mask: 0xFFFF_00FF_FF00_FFFF),
              let days = date(at: q) else { return nil }
        let pairs = twoDigitPairs(w)
        let hour = pairs & 0xFF, minute = pairs >> 24 & 0xFF, second = pairs >> 48 & 0xFF
        guard hour <= 23, minute <= 59, second <= 59 else { return nil }
        let time = Int64(truncatingIfNeeded: hour &* 3600 &+ minute &* 60 &+ second)
        return Int64(days) &* 86400 &+ time &- offset
    }

    /// ``datetime(_:)``, and whether a non-zero fraction of a second follows the whole
    /// seconds (``datetimeParts(_:)`` then gives its digits).
    /// - Complexity: O(1) for the fixed-width forms without a fraction, O(n) otherwise.
    @inlinable
    public static func instant(_ p: UnsafeBufferPointer<UInt8>) -> (seconds: Int64, hasFraction: Bool)? {
        let n = p.count
        if n == 20 || n == 25, p[19] != UInt8(ascii: ".") { return datetime(p).map { ($0, false) } }
        guard let parts = datetimeParts(p) else { return nil }
        return (parts.seconds, p[parts.fraction].contains { $0 != UInt8(ascii: "0") })
    }

    /// `YYYY-MM-DD` at `q` (10 readable bytes) as a real calendar date.
    @inlinable @inline(__always)
    static func date(at q: UnsafePointer<UInt8>) -> Int32? {
        // "YYYY-MM-" as one little-endian word: digits in bytes 0-3, 5, 6; '-' in 4 and 7.
        let w = UnsafeRawPointer(q).loadUnaligned(as: UInt64.self).littleEndian
        let d0 = q[8] &- 48, d1 = q[9] &- 48
        guard w & 0xFF00_00FF_0000_0000 == 0x2D00_002D_0000_0000, digitWord(w, mask: 0x00FF_FF00_FFFF_FFFF),
              d0 <= 9, d1 <= 9 else { return nil }
        let pairs = twoDigitPairs(w)
        let year = UInt32(truncatingIfNeeded: pairs & 0xFF) &* 100 &+ UInt32(truncatingIfNeeded: pairs >> 16 & 0xFF)
        let month = UInt32(truncatingIfNeeded: pairs >> 40 & 0xFF)
        let day = UInt32(d0) &* 10 &+ UInt32(d1)
        guard month &- 1 < 12, day &- 1 < 31 else { return nil }
        // Month lengths without a table: bit m of 5546 is set for the 31-day months
        // 1, 3, 5, 7, 8, 10, 12; February has 28 days and the leap day.
        if day > 28 {
            let length: UInt32
            if month == 2 {
                // A century year is a leap year when 400 divides it, i.e. when 16 does.
                let leap = year % 100 == 0 ? year & 15 == 0 : year & 3 == 0
                length = leap ? 29 : 28
            } else {
                length = 30 &+ ((5546 >> month) & 1)
            }
            guard day <= length else { return nil }
        }
        return Int32(truncatingIfNeeded: CalendarMath.daysFromCivil(nonNegativeYear: year, month: month, day: day))
    }

    /// The two-digit numbers of a word whose digit bytes were checked: byte k of the result is
    /// `10 × digit(k) + digit(k + 1)` (bytes that pair a digit with a separator are garbage).
    @inlinable @inline(__always)
    static func twoDigitPairs(_ w: UInt64) -> UInt64 {
        let v = w & 0x0F0F_0F0F_0F0F_0F0F   // every byte ≤ 15: no byte of 10v + (v >> 8) carries
        return v &* 10 &+ (v >> 8)
    }

    /// Whether every byte of `w` selected by `mask` is an ASCII digit: its high nibble is 3,
    /// and it stays below 0x40 when 6 is added. A byte outside `mask` can carry into its
    /// neighbour only when it is ≥ 0xFA, i.e. not the separator every caller checks as well, so
    /// a wrong answer here never turns a rejected text into an accepted one.
    @inlinable @inline(__always)
    static func digitWord(_ w: UInt64, mask: UInt64) -> Bool {
        let high = 0xF0F0_F0F0_F0F0_F0F0 & mask
        let three = 0x3030_3030_3030_3030 & mask
        return w & high == three && (w &+ 0x0606_0606_0606_0606) & high == three
    }

    /// ``datetime(_:)`` for every length, byte by byte: the specification of the accepted
    /// forms, used for fractions and for whatever the fixed-width paths do not recognise.
    @usableFromInline
    static func datetimeGeneral(_ p: UnsafeBufferPointer<UInt8>) -> Int64? {
        datetimeParts(p)?.seconds
    }

    /// Parses a date-time like ``datetime(_:)`` and keeps its fraction of a second.
    /// - Returns: The whole seconds since 1970-01-01T00:00:00Z (the fraction, always positive,
    ///   comes on top: `1969-12-31T23:59:59.5Z` is −1 and `.5`) and the indexes of the
    ///   fraction's digits in `p` (empty without a fraction), or `nil`.
    /// - Complexity: O(n).
    public static func datetimeParts(_ p: UnsafeBufferPointer<UInt8>) -> (seconds: Int64, fraction: Range<Int>)? {
        let n = p.count
        guard n >= 20, p[10] == UInt8(ascii: "T"), p[13] == 0x3A, p[16] == 0x3A,
              let days = dateAt(p, 0),
              let hh = digits(p, 11, 2), let mm = digits(p, 14, 2), let ss = digits(p, 17, 2),
              hh <= 23, mm <= 59, ss <= 59
        else { return nil }
        var i = 19
        var fraction = 19 ..< 19
        if p[i] == UInt8(ascii: ".") {
            i += 1
            let start = i
            while i < n, p[i] &- 48 <= 9 { i += 1 }
            if i == start { return nil }
            fraction = start ..< i
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
        return (Int64(days) * 86400 + Int64(hh * 3600 + mm * 60 + ss) - Int64(offset), fraction)
    }

    @inlinable
    static func dateAt(_ p: UnsafeBufferPointer<UInt8>, _ o: Int) -> Int32? {
        guard p[o + 4] == 0x2D, p[o + 7] == 0x2D,
              let y = digits(p, o, 4), let m = digits(p, o + 5, 2), let d = digits(p, o + 8, 2),
              m >= 1, m <= 12, d >= 1, d <= CalendarMath.daysInMonth(year: y, month: m)
        else { return nil }
        return Int32(CalendarMath.daysFromCivil(year: y, month: m, day: d))
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
    /// - Complexity: O(n/8): eight bytes per step; a text of 8 bytes or more ends with one
    ///   overlapping word, shifted past the bytes already counted.
    @inlinable
    public static func scalarCount(_ p: UnsafeBufferPointer<UInt8>) -> Int {
        let n = p.count
        guard let q = p.baseAddress else { return 0 }
        if n < 8 {
            var count = 0
            for k in 0 ..< n where q[k] & 0xC0 != 0x80 { count &+= 1 }
            return count
        }
        var continuations = 0
        var i = 0
        while i &+ 8 <= n {
            continuations &+= continuationBytes(UnsafeRawPointer(q + i).loadUnaligned(as: UInt64.self).littleEndian)
            i &+= 8
        }
        if i < n {
            let counted = 8 &- (n &- i)   // low bytes of the last word that were counted above
            let word = UnsafeRawPointer(q + n - 8).loadUnaligned(as: UInt64.self).littleEndian
            continuations &+= continuationBytes(word >> UInt64(counted &* 8))
        }
        return n &- continuations
    }

    /// The bytes of `w` of the form `10xxxxxx` (bit 7 set, bit 6 clear).
    @inlinable @inline(__always)
    static func continuationBytes(_ w: UInt64) -> Int {
        let flags = (w & ~(w << 1) & 0x8080_8080_8080_8080) >> 7   // 0 or 1 per byte
        return Int(truncatingIfNeeded: (flags &* 0x0101_0101_0101_0101) >> 56)
    }
}

/// Civil-calendar arithmetic (Howard Hinnant's algorithms), used by parsers and functions.
package enum CalendarMath {
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

    /// ``daysFromCivil(year:month:day:)`` for a year 0…9999, month 1…12 and day 1…31, in
    /// unsigned 32-bit arithmetic shifted by one 400-year era so nothing is negative (the
    /// divisions become multiplications, and nothing can overflow).
    @inlinable @inline(__always)
    public static func daysFromCivil(nonNegativeYear year: UInt32, month: UInt32, day: UInt32) -> Int {
        let y = year &+ 400 &- (month <= 2 ? 1 : 0)
        let era = y / 400
        let yoe = y &- era &* 400
        let mp = month > 2 ? month &- 3 : month &+ 9
        let doy = (153 &* mp &+ 2) / 5 &+ day &- 1
        let doe = yoe &* 365 &+ yoe / 4 &- yoe / 100 &+ doy
        return Int(era &* 146097 &+ doe) - 719468 - 146097
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
