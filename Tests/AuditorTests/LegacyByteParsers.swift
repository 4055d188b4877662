import Auditor

/// The byte-by-byte date and date-time parsers as they were before the fixed-width word paths
/// (commit bdae7ae, `ByteParsers.date/datetime`), kept verbatim as the specification that
/// ``ByteParsersCrossCheckTests`` holds the fast parsers to.
enum LegacyByteParsers {
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
