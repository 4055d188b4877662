import Testing
@testable import Auditor

/// The fast parsers against the byte-by-byte ones they replaced (``LegacyByteParsers``): the
/// same accepted texts and the same values (bit for bit for decimals). Dates and date-times
/// on every calendar day of years chosen for their leap rules, on every time and offset
/// boundary, and on hundreds of thousands of mutated and random strings; integers, decimals
/// and scalar counts on random texts around the lengths where the fast paths end.
@Suite("ByteParsers cross-check")
struct ByteParsersCrossCheckTests {
    static func parse<R>(_ bytes: [UInt8], _ f: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        // An exact-size copy, so a parser reading past the end is caught by the address sanitizer.
        let p = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
        defer { p.deallocate() }
        _ = p.initialize(from: bytes)
        return f(UnsafeBufferPointer(p))
    }

    /// The first disagreement on `bytes`, or nil.
    static func disagreement(_ bytes: [UInt8]) -> String? {
        let d = (parse(bytes, ByteParsers.date), parse(bytes, LegacyByteParsers.date))
        if d.0 != d.1 { return "date('\(String(decoding: bytes, as: UTF8.self))'): \(String(describing: d.0)) != \(String(describing: d.1))" }
        let t = (parse(bytes, ByteParsers.datetime), parse(bytes, LegacyByteParsers.datetime))
        if t.0 != t.1 { return "datetime('\(String(decoding: bytes, as: UTF8.self))'): \(String(describing: t.0)) != \(String(describing: t.1))" }
        return nil
    }

    static func pad(_ v: Int, _ w: Int) -> String { String(repeating: "0", count: max(0, w - String(v).count)) + String(v) }

    @Test func everyMonthAndDayOfYearsWithEachLeapRule() {
        var valid = 0
        let years = [0, 1, 3, 4, 7, 99, 100, 104, 200, 300, 399, 400, 401, 999, 1000, 1004, 1582, 1600, 1700, 1800, 1899,
                     1900, 1904, 1969, 1970, 1999, 2000, 2023, 2024, 2100, 2400, 9996, 9999]
        for year in years {
            for month in 0 ... 99 {
                for day in 0 ... 99 {
                    let s = "\(Self.pad(year, 4))-\(Self.pad(month, 2))-\(Self.pad(day, 2))"
                    if Self.parse(Array(s.utf8), ByteParsers.date) != nil { valid += 1 }
                    for form in [s, s + "T00:00:00Z", s + "T23:59:59+23:59", s + "T12:00:00-00:30", s + "T01:02:03.5Z"] {
                        if let problem = Self.disagreement(Array(form.utf8)) {
                            Issue.record("\(problem)")
                            return
                        }
                    }
                }
            }
        }
        let leapYears = years.filter { CalendarMath.isLeap($0) }.count
        #expect(valid == years.count * 365 + leapYears)
    }

    @Test func february29OnlyInLeapYears() {
        for year in 0 ... 9999 {
            let s = "\(Self.pad(year, 4))-02-29"
            let leap = CalendarMath.isLeap(year)
            #expect((Self.parse(Array(s.utf8), ByteParsers.date) != nil) == leap, "\(s)")
            if let problem = Self.disagreement(Array(s.utf8)) ?? Self.disagreement(Array((s + "T23:59:59-01:00").utf8)) {
                Issue.record("\(problem)")
                return
            }
        }
    }

    @Test func everyTimeAndOffsetBoundary() {
        let values = [0, 1, 9, 10, 23, 24, 29, 30, 59, 60, 61, 99]
        for h in values {
            for m in values {
                for s in [0, 59, 60, 99] {
                    let time = "1969-12-31T\(Self.pad(h, 2)):\(Self.pad(m, 2)):\(Self.pad(s, 2))"
                    var forms = [time + "Z", time + ".999Z", time + "+\(Self.pad(h, 2)):\(Self.pad(m, 2))"]
                    forms.append(time + "-\(Self.pad(m, 2)):\(Self.pad(h, 2))")
                    for form in forms {
                        if let problem = Self.disagreement(Array(form.utf8)) {
                            Issue.record("\(problem)")
                            return
                        }
                    }
                }
            }
        }
        // Values, not just acceptance.
        #expect(Self.parse(Array("1970-01-01T00:00:00Z".utf8), ByteParsers.datetime) == 0)
        #expect(Self.parse(Array("1970-01-01T01:00:00+01:00".utf8), ByteParsers.datetime) == 0)
        #expect(Self.parse(Array("1969-12-31T23:30:00-00:30".utf8), ByteParsers.datetime) == 0)
        #expect(Self.parse(Array("0000-03-01".utf8), ByteParsers.date) == Int32(CalendarMath.daysFromCivil(year: 0, month: 3, day: 1)))
        #expect(Self.parse(Array("9999-12-31T23:59:59Z".utf8), ByteParsers.datetime) == 253_402_300_799)
    }

    @Test func mutatedAndRandomStrings() {
        var random = SplitMix64(state: 8)
        // Separators, digits, signs, and bytes that carry when 6 is added to them (0xFA-0xFF).
        let alphabet: [UInt8] = Array("0123456789-:TZ.+ /x".utf8) + [0x00, 0x2F, 0x3A, 0x40, 0x7F, 0x80, 0xC3, 0xF9, 0xFA, 0xFF]
        let seeds = ["2021-03-04T12:34:56Z", "2024-02-29T23:59:59Z", "1969-12-31T00:00:00Z", "2021-03-04T12:34:56.789Z",
                     "2021-03-04T12:34:56+02:00", "2021-03-04T12:34:56-11:30", "2021-03-04", "0000-01-01T00:00:00Z",
                     "0999-02-28", "0400-02-29T00:00:00+23:59", "2021-03-04T12:34:56.7890Z", "2021-03-04T12:34:56.1+01:00"]
        var accepted = 0
        for round in 0 ..< 300_000 {
            var bytes: [UInt8]
            if round % 10 == 9 {
                // Fully random, of the lengths the fixed-width paths look at and around them.
                bytes = (0 ..< Int.random(in: 0 ... 27, using: &random)).map { _ in alphabet[Int.random(in: 0 ..< alphabet.count, using: &random)] }
            } else {
                bytes = Array(seeds[Int.random(in: 0 ..< seeds.count, using: &random)].utf8)
                for _ in 0 ..< Int.random(in: 0 ... 3, using: &random) {
                    guard !bytes.isEmpty else { break }
                    let i = Int.random(in: 0 ..< bytes.count, using: &random)
                    let b = alphabet[Int.random(in: 0 ..< alphabet.count, using: &random)]
                    switch Int.random(in: 0 ..< 4, using: &random) {
                    case 0: bytes.remove(at: i)
                    case 1: bytes.insert(b, at: i)
                    default: bytes[i] = b
                    }
                }
            }
            if Self.parse(bytes, LegacyByteParsers.datetime) != nil || Self.parse(bytes, LegacyByteParsers.date) != nil { accepted += 1 }
            if let problem = Self.disagreement(bytes) {
                Issue.record("\(problem)")
                return
            }
        }
        // Both sides of the line were exercised.
        #expect(accepted > 30_000 && accepted < 270_000, "\(accepted) accepted")
    }

    @Test func integersAndDecimalsAroundTheShortPathLengths() {
        var random = SplitMix64(state: 19)
        let alphabet = Array("0000123456789-.+e x".utf8) + [0x2F, 0x3A, 0xC3]
        let seeds = ["0", "-0", "7", "-12", "54020.37", "-0.50", "0.00", "999999999999999999", "9223372036854775807",
                     "-9223372036854775808", "18446744073709551616", "1234567890123456789.5", "0.0000000000000000001",
                     "12345678901234567.89", "1.", ".5", "-", "", "00000000000000000001", "9999999999999999999"]
        func agree(_ bytes: [UInt8]) -> String? {
            let i = (Self.parse(bytes, ByteParsers.integer), Self.parse(bytes, LegacyByteParsers.integer))
            if i.0 != i.1 { return "integer('\(String(decoding: bytes, as: UTF8.self))'): \(i.0) != \(i.1)" }
            let d = (Self.parse(bytes, ByteParsers.decimal), Self.parse(bytes, LegacyByteParsers.decimal))
            if d.0.valid != d.1.valid || d.0.value.bitPattern != d.1.value.bitPattern {
                return "decimal('\(String(decoding: bytes, as: UTF8.self))'): \(d.0) != \(d.1)"
            }
            return nil
        }
        var accepted = 0
        for round in 0 ..< 200_000 {
            var bytes: [UInt8]
            if round % 4 == 0 {
                // Digit strings of every length 0-25, with an optional sign and point.
                let length = Int.random(in: 0 ... 25, using: &random)
                bytes = (0 ..< length).map { _ in UInt8(ascii: "0") + UInt8.random(in: 0 ... 9, using: &random) }
                if length > 1, Bool.random(using: &random) { bytes[Int.random(in: 1 ..< length, using: &random)] = UInt8(ascii: ".") }
                if Bool.random(using: &random) { bytes.insert(UInt8(ascii: "-"), at: 0) }
            } else {
                bytes = Array(seeds[Int.random(in: 0 ..< seeds.count, using: &random)].utf8)
                for _ in 0 ..< Int.random(in: 0 ... 2, using: &random) {
                    let b = alphabet[Int.random(in: 0 ..< alphabet.count, using: &random)]
                    let i = Int.random(in: 0 ... bytes.count, using: &random)
                    switch Int.random(in: 0 ..< 3, using: &random) {
                    case 0: if i < bytes.count { bytes.remove(at: i) }
                    case 1: bytes.insert(b, at: i)
                    default: if i < bytes.count { bytes[i] = b }
                    }
                }
            }
            if Self.parse(bytes, LegacyByteParsers.decimal).valid { accepted += 1 }
            if let problem = agree(bytes) {
                Issue.record("\(problem)")
                return
            }
        }
        #expect(accepted > 50_000 && accepted < 190_000, "\(accepted) accepted")
    }

    @Test func scalarCountsOfEveryLengthAndAlignment() {
        var random = SplitMix64(state: 23)
        let pieces: [[UInt8]] = [[0x61], [0x7F], [0xC3, 0xA9], [0xE2, 0x82, 0xAC], [0xF0, 0x9F, 0x99, 0x82], [0x80], [0xBF], [0xFF], [0x40], [0x00]]
        for _ in 0 ..< 50_000 {
            var bytes = [UInt8]()
            let target = Int.random(in: 0 ... 40, using: &random)
            while bytes.count < target { bytes += pieces[Int.random(in: 0 ..< pieces.count, using: &random)] }
            // Every suffix, so that the text starts at every alignment of the words.
            let offset = Int.random(in: 0 ... min(7, bytes.count), using: &random)
            let text = Array(bytes[offset...])
            let (a, b) = (Self.parse(text, ByteParsers.scalarCount), Self.parse(text, LegacyByteParsers.scalarCount))
            guard a == b else {
                Issue.record("scalarCount(\(text)): \(a) != \(b)")
                return
            }
        }
        #expect(Self.parse(Array("Zoë Ångström-Łukasz 🙂".utf8), ByteParsers.scalarCount) == "Zoë Ångström-Łukasz 🙂".unicodeScalars.count)
    }
}
