import Testing
@_spi(Testing) @testable import Auditor

/// How inputs are loaded: the text-only path against the classification of property rules,
/// and the date parsers against their byte-by-byte specification.
@Suite("Expression input loading")
struct ExpressionInputTests {
    static func parse<R>(_ s: String, _ f: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        var bytes = Array(s.utf8)
        return bytes.withUnsafeMutableBufferPointer { f(UnsafeBufferPointer($0)) }
    }

    static func agree(_ s: String) -> Bool {
        parse(s, LegacyByteParsers.date) == parse(s, ByteParsers.date)
            && parse(s, LegacyByteParsers.datetime) == parse(s, ByteParsers.datetime)
    }

    @Test func everyMonthAndDayOfSignificantYearsAgreesWithByteParsers() {
        func pad(_ v: Int, _ w: Int) -> String { String(repeating: "0", count: max(0, w - String(v).count)) + String(v) }
        var valid = 0
        for year in [0, 1, 3, 4, 99, 100, 200, 400, 1582, 1900, 1970, 1999, 2000, 2023, 2024, 2100, 9999] {
            for month in 0 ... 99 {
                for day in 0 ... 99 {
                    let s = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
                    if Self.parse(s, ByteParsers.date) != nil { valid += 1 }
                    guard Self.agree(s), Self.agree(s + "T00:00:00Z") else {
                        Issue.record("disagree on '\(s)'")
                        return
                    }
                }
            }
        }
        #expect(valid == 17 * 365 + 5)   // the leap years among them: 0, 4, 400, 2000, 2024
    }

    @Test func timesAndMalformedShapesAgreeWithByteParsers() {
        var random = SplitMix64(state: 99)
        let alphabet = Array("0123456789-:TZ .+/x")
        let seeds = ["2021-03-04T12:34:56Z", "2024-02-29T23:59:59Z", "1969-12-31T00:00:00Z", "2021-03-04T12:34:56.789Z",
                     "2021-03-04T12:34:56+02:00", "2021-03-04T12:34:56-11:30", "2021-03-04", "0000-01-01T00:00:00Z"]
        for hour in 0 ... 25 {
            for minute in [0, 9, 10, 59, 60, 99] {
                #expect(Self.agree("2021-03-04T\(hour < 10 ? "0" : "")\(hour):\(minute < 10 ? "0" : "")\(minute):\(minute < 10 ? "0" : "")\(minute)Z"))
            }
        }
        for _ in 0 ..< 100_000 {
            var chars = Array(seeds[Int.random(in: 0 ..< seeds.count, using: &random)])
            for _ in 0 ..< Int.random(in: 1 ... 3, using: &random) {
                let i = Int.random(in: 0 ..< chars.count, using: &random)
                switch Int.random(in: 0 ..< 4, using: &random) {
                case 0: chars.remove(at: i)
                case 1: chars.insert(alphabet[Int.random(in: 0 ..< alphabet.count, using: &random)], at: i)
                default: chars[i] = alphabet[Int.random(in: 0 ..< alphabet.count, using: &random)]
                }
                if chars.isEmpty { break }
            }
            let s = String(chars)
            guard Self.agree(s) else {
                Issue.record("disagree on '\(s)'")
                return
            }
        }
    }

    @Test func civilAgreesWithCalendarMath() {
        for days in stride(from: -1_000_000, through: 3_700_000, by: 1) where days % 7 == 0 || days % 997 < 40 {
            let a = TemporalMath.civil(Int32(days))
            let b = CalendarMath.civil(fromDays: days)
            guard a == b else {
                Issue.record("civil(\(days)): \(a) != \(b)")
                return
            }
        }
        for days in [Int32.min + 1, -500_000_000, -12_699_422, -12_699_423, 1_000_000_000, Int32.max] {
            #expect(TemporalMath.civil(days) == CalendarMath.civil(fromDays: Int(days)))
        }
        for (y, m, d) in [(0, 1, 1), (0, 2, 29), (1970, 1, 1), (2000, 2, 29), (9999, 12, 31), (2024, 3, 1)] {
            #expect(CalendarMath.daysFromCivil(nonNegativeYear: UInt32(y), month: UInt32(m), day: UInt32(d)) == CalendarMath.daysFromCivil(year: y, month: m, day: d))
        }
    }

    @Test func skipsFallBackToClassificationForTypedCells() throws {
        // A date column holding an SQLite INTEGER is not all text: classification decides (type-invalid).
        let rows: [[String: TestCell]] = [["birthday": "2024-02-29"], ["birthday": .integer(20240229)], [:], ["birthday": "2023-02-29"]]
        #expect(try ExpressionFixture.outcomes("birthday < today()", rows) == [.true, .skipped, .skipped, .skipped])
        #expect(try ExpressionFixture.outcomes("isNull(birthday)", rows) == [.false, .skipped, .true, .skipped])
        #expect(try ExpressionFixture.outcomes("isNull(birthday)", [["birthday": "2024-02-29"], [:], ["birthday": "x"]]) == [.false, .true, .skipped])
        #expect(try ExpressionFixture.outcomes("isNull(created_at)", [["created_at": "2024-02-29T00:00:00Z"], [:], ["created_at": "x"],
                                                                        ["created_at": "2024-02-29T00:00:00.5+01:00"]]) == [.false, .true, .skipped, .false])
    }

    /// A column of text and missing cells takes the one-pass path; the same rows with one
    /// SQLite INTEGER cell appended go through `classify`. Every row shared must agree.
    @Test(arguments: [
        ("age", ["34", "-0", "007", "34y", "", "-", "1.0", " 1", "99999999999999999999"]),
        ("salary", ["1.50", "-0.5", "0.00", "1.", ".5", "1e3", "52,340.00", "1234567890123456789.5", "-"]),
        ("has_licence", ["true", "false", "TRUE", "True", "yes", "1", "", "true "]),
        ("birthday", ["2024-02-29", "2023-02-29", "1990-5-4", "0000-01-01", "9999-12-31", "2024-13-01", "14/05/1990", "2024-02-29x"]),
        ("created_at", ["2021-03-04T12:34:56Z", "2021-03-04T24:00:00Z", "2021-03-04 12:34:56", "2021-03-04T12:34:56.5Z",
                        "2021-03-04T12:34:56+01:00", "2021-02-29T00:00:00Z", "2021-03-04T12:60:00Z", "1614861296"]),
    ] as [(String, [String])])
    func textOnlyPathAgreesWithClassification(_ attribute: String, _ texts: [String]) throws {
        var random = SplitMix64(state: 5)
        var rows: [[String: TestCell]] = texts.map { [attribute: .text($0)] } + [[:]]
        let alphabet = Array("0123456789-:.TZ ty")
        for _ in 0 ..< 2000 {
            var chars = Array(texts[Int.random(in: 0 ..< texts.count, using: &random)])
            if !chars.isEmpty { chars[Int.random(in: 0 ..< chars.count, using: &random)] = alphabet[Int.random(in: 0 ..< alphabet.count, using: &random)] }
            rows.append([attribute: .text(String(chars))])
        }
        for source in ["isNull(\(attribute))", "\(attribute) == \(attribute)"] {
            let e = try ExpressionFixture.compile(source, expecting: .boolean)
            let text = ExpressionFixture.chunk(rows)
            let typed = ExpressionFixture.chunk(rows + [[attribute: .integer(1)]])
            let a = e.evaluate(text, columns: ExpressionFixture.columns(e), skip: [Bool](repeating: false, count: rows.count))
            let b = e.evaluate(typed, columns: ExpressionFixture.columns(e), skip: [Bool](repeating: false, count: rows.count + 1))
            #expect(a == Array(b.prefix(rows.count)), "\(source)")
            #expect(a.contains(.skipped) && a.contains { $0 != .skipped })
        }
        let v = try ExpressionFixture.compile("coalesce(\(attribute), null)")
        let fast = v.values(ExpressionFixture.chunk(rows), columns: ExpressionFixture.columns(v), skip: [Bool](repeating: false, count: rows.count))
        let slow = v.values(ExpressionFixture.chunk(rows + [[attribute: .integer(1)]]), columns: ExpressionFixture.columns(v),
                            skip: [Bool](repeating: false, count: rows.count + 1))
        #expect(fast == Array(slow.prefix(rows.count)))
    }
}
