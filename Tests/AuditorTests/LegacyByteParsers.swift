import Auditor

/// The byte-by-byte parsers as they were before the fixed-width word paths and short-text
/// loops (commit bdae7ae, `ByteParsers.date/datetime/integer/decimal/scalarCount`), kept
/// verbatim as the specification that ``ByteParsersCrossCheckTests`` holds the fast ones to.
enum LegacyByteParsers {
    static func integer(_ p: UnsafeBufferPointer<UInt8>) -> (valid: Bool, value: Int64) {
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
    static func decimal(_ p: UnsafeBufferPointer<UInt8>) -> (valid: Bool, value: Double) {
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

    static func pow10(_ e: Int) -> Double {
        var r = 1.0
        var k = e
        while k >= 22 {
            r *= 1e22
            k -= 22
        }
        return r * powersOfTen[k]
    }

    static let powersOfTen: [Double] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
                                        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21]

    static func scalarCount(_ p: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 0
        for b in p where b & 0xC0 != 0x80 { count += 1 }
        return count
    }

    static func date(_ p: UnsafeBufferPointer<UInt8>) -> Int32? {
        guard p.count == 10 else { return nil }
        return dateAt(p, 0)
    }

    static func dateAt(_ p: UnsafeBufferPointer<UInt8>, _ o: Int) -> Int32? {
        guard p[o + 4] == 0x2D, p[o + 7] == 0x2D,
              let y = digits(p, o, 4), let m = digits(p, o + 5, 2), let d = digits(p, o + 8, 2),
              m >= 1, m <= 12, d >= 1, d <= CalendarMath.daysInMonth(year: y, month: m)
        else { return nil }
        return Int32(CalendarMath.daysFromCivil(year: y, month: m, day: d))
    }

    static func datetime(_ p: UnsafeBufferPointer<UInt8>) -> Int64? {
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

    static func digits(_ p: UnsafeBufferPointer<UInt8>, _ o: Int, _ count: Int) -> Int? {
        var v = 0
        for k in o ..< o + count {
            let d = p[k] &- 48
            if d > 9 { return nil }
            v = v * 10 + Int(d)
        }
        return v
    }
}
