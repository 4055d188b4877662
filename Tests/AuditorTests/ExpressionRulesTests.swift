import Testing
@_spi(Testing) @testable import Auditor

private typealias F = ExpressionFixture

/// The two inter-property rules of `../shared/bench/rules.md`, written in the expression
/// language, against an independent reading of their definitions.
@Suite("Expression rules of the benchmark")
struct ExpressionRulesTests {
    /// A rule as the engine will run it: violated when `when` is true (or absent) and `assert`
    /// is false; skipped when either part skips.
    enum Verdict: Equatable { case pass, violated, skipped }

    static func verdicts(when: String?, assert: String, _ rows: [[String: TestCell]], storageClasses: Bool = false) throws -> [Verdict] {
        let a = try F.outcomes(assert, rows, storageClasses: storageClasses)
        let w = try when.map { try F.outcomes($0, rows, storageClasses: storageClasses) } ?? a.map { _ in .true }
        return zip(w, a).map { w, a in
            if w == .skipped || a == .skipped { return .skipped }
            return w == .true && a == .false ? .violated : .pass
        }
    }

    // MARK: Reference (rules.md, written without the expression language)

    static func integer(_ s: String?) -> Int? {
        guard let s, !s.isEmpty else { return nil }
        let digits = s.hasPrefix("-") ? s.dropFirst() : Substring(s)
        guard !digits.isEmpty, digits.allSatisfy({ $0 >= "0" && $0 <= "9" }) else { return nil }
        return Int(s)
    }

    /// `(year, month, day)` of a valid `YYYY-MM-DD`.
    static func date(_ s: Substring) -> (Int, Int, Int)? {
        let p = s.split(separator: "-", omittingEmptySubsequences: false)
        guard s.count == 10, p.count == 3, p[0].count == 4, p[1].count == 2, p[2].count == 2,
              let y = Int(p[0]), let m = Int(p[1]), let d = Int(p[2]), (1 ... 12).contains(m) else { return nil }
        let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]
        return (1 ... days).contains(d) ? (y, m, d) : nil
    }

    /// The UTC date of a valid `YYYY-MM-DDTHH:MM:SSZ`.
    static func datetimeDate(_ s: String) -> (Int, Int, Int)? {
        let c = Array(s)
        guard c.count == 20, c[10] == "T", c[13] == ":", c[16] == ":", c[19] == "Z",
              let h = Int(String(c[11 ... 12])), let mi = Int(String(c[14 ... 15])), let se = Int(String(c[17 ... 18])),
              h <= 23, mi <= 59, se <= 59 else { return nil }
        return date(Substring(String(c[0 ..< 10])))
    }

    static func referenceLicence(_ row: [String: String]) -> Verdict {
        guard let l = row["has_licence"], l == "true" || l == "false", let age = integer(row["age"]) else { return .skipped }
        return l == "true" && age < 16 ? .violated : .pass
    }

    static func referenceConsistent(_ row: [String: String]) -> Verdict {
        guard let b = row["birthday"].flatMap({ date(Substring($0)) }), let r = row["created_at"].flatMap(datetimeDate),
              let a = integer(row["age"]) else { return .skipped }
        let years = r.0 - b.0 - ((r.1, r.2) < (b.1, b.2) ? 1 : 0)
        return a != years ? .violated : .pass
    }

    static let licence = (when: "has_licence", assert: "age >= 16")
    static let consistent = "age == yearsBetween(birthday, date(created_at))"

    // MARK: Tests

    static let handBuilt: [[String: String]] = [
        ["has_licence": "true", "age": "34", "birthday": "1990-05-14", "created_at": "2024-06-01T10:00:00Z"],   // clean
        ["has_licence": "true", "age": "15", "birthday": "2008-07-01", "created_at": "2024-03-04T12:34:56Z"],   // licence_under16
        ["has_licence": "true", "age": "16", "birthday": "2008-03-04", "created_at": "2024-03-04T00:00:00Z"],   // exactly 16 on the day
        ["has_licence": "true", "age": "15", "birthday": "2008-03-05", "created_at": "2024-03-04T23:59:59Z"],   // one day short: 15
        ["has_licence": "false", "age": "12", "birthday": "2011-06-01", "created_at": "2024-03-04T12:00:00Z"],  // no licence
        ["has_licence": "yes", "age": "12", "birthday": "2011-06-01", "created_at": "2024-03-04T12:00:00Z"],    // licence_badtype
        ["has_licence": "true", "age": "34y", "birthday": "1990-05-14", "created_at": "2024-06-01T10:00:00Z"],  // age_badtype
        ["has_licence": "true", "birthday": "1990-05-14", "created_at": "2024-06-01T10:00:00Z"],                // age missing
        ["has_licence": "false", "age": "35", "birthday": "1990-05-14", "created_at": "2024-06-01T10:00:00Z"],  // age_inconsistent +1
        ["has_licence": "false", "age": "29", "birthday": "1990-05-14", "created_at": "2024-06-01T10:00:00Z"],  // −5
        ["has_licence": "false", "age": "20", "birthday": "2000-02-29", "created_at": "2021-02-28T12:00:00Z"],  // Feb 29: not yet 21
        ["has_licence": "false", "age": "21", "birthday": "2000-02-29", "created_at": "2021-03-01T00:00:00Z"],  // Feb 29: 21 on Mar 1
        ["has_licence": "false", "age": "21", "birthday": "2000-02-29", "created_at": "2021-02-28T23:59:59Z"],  // claims 21 a day early
        ["has_licence": "false", "age": "24", "birthday": "2000-02-29", "created_at": "2024-02-29T00:00:00Z"],  // leap year: on the day
        ["has_licence": "false", "age": "30", "birthday": "1990-05-14", "created_at": "2020-05-14T08:00:00Z"],  // birthday on the day
        ["has_licence": "false", "age": "29", "birthday": "1990-05-15", "created_at": "2020-05-14T08:00:00Z"],  // one day after
        ["has_licence": "false", "age": "34", "birthday": "14/05/1990", "created_at": "2024-06-01T10:00:00Z"],  // birthday_malformed
        ["has_licence": "false", "age": "34", "birthday": "1990-02-30", "created_at": "2024-06-01T10:00:00Z"],
        ["has_licence": "false", "age": "34", "birthday": "1990-05-14", "created_at": "2024-06-01 10:00:00"],   // created_malformed
        ["has_licence": "false", "age": "3", "birthday": "2021-02-28", "created_at": "2024-02-29T25:00:00Z"],
        ["has_licence": "false", "age": "34", "birthday": "1990-05-14", "created_at": "2021-02-29T10:00:00Z"],
        ["has_licence": "false", "age": "34", "birthday": "1990-05-14"],                                         // created missing
    ]

    static func cells(_ rows: [[String: String]]) -> [[String: TestCell]] {
        rows.map { $0.mapValues { TestCell.text($0) } }
    }

    @Test func handBuiltRowsMatchRulesMD() throws {
        let rows = Self.handBuilt
        let licence = try Self.verdicts(when: Self.licence.when, assert: Self.licence.assert, Self.cells(rows))
        let consistent = try Self.verdicts(when: nil, assert: Self.consistent, Self.cells(rows))
        #expect(licence == rows.map(Self.referenceLicence))
        #expect(consistent == rows.map(Self.referenceConsistent))
        // Pinned, so that a wrong reference cannot hide a wrong evaluator.
        #expect(licence.filter { $0 == .violated }.count == 2)
        #expect(licence.filter { $0 == .skipped }.count == 3)
        #expect(consistent.map { $0 == .violated } == [false, false, false, false, false, false, false, false,
                                                         true, true, false, false, true, false, false, false,
                                                         false, false, false, false, false, false])
        #expect(consistent.filter { $0 == .skipped }.count == 8)
    }

    /// SQLite stores booleans as INTEGER 0/1 and ages as INTEGER, with TEXT for values that do
    /// not fit (`'34y'`, and `'true'`: TEXT is no boolean there).
    @Test func sqliteTypedCells() throws {
        let rows: [[String: TestCell]] = [
            ["has_licence": .integer(1), "age": .integer(15), "birthday": "2008-07-01", "created_at": "2024-03-04T12:34:56Z"],
            ["has_licence": .integer(1), "age": .integer(16), "birthday": "2008-03-04", "created_at": "2024-03-04T00:00:00Z"],
            ["has_licence": .integer(0), "age": .integer(12), "birthday": "2011-06-01", "created_at": "2024-03-04T12:00:00Z"],
            ["has_licence": .integer(1), "age": "34y", "birthday": "1990-05-14", "created_at": "2024-06-01T10:00:00Z"],
            ["has_licence": .text("true"), "age": .integer(35), "birthday": "1990-05-14", "created_at": "2024-06-01T10:00:00Z"],
            ["has_licence": .integer(2), "age": .real(34), "birthday": "1990-05-14", "created_at": "2024-06-01T10:00:00Z"],
        ]
        #expect(try Self.verdicts(when: Self.licence.when, assert: Self.licence.assert, rows, storageClasses: true)
            == [.violated, .pass, .pass, .skipped, .skipped, .skipped])
        #expect(try Self.verdicts(when: nil, assert: Self.consistent, rows, storageClasses: true)
            == [.pass, .pass, .pass, .skipped, .violated, .skipped])
    }

    /// Random valid rows (with leap days over-represented) against the reference formula.
    @Test func randomRowsMatchTheReferenceFormula() throws {
        var random = SplitMix64(state: 7)
        var rows = [[String: String]]()
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        for _ in 0 ..< 20_000 {
            let by = Int.random(in: 1900 ... 2020, using: &random)
            var bm = Int.random(in: 1 ... 12, using: &random)
            var bd = Int.random(in: 1 ... CalendarMath.daysInMonth(year: by, month: bm), using: &random)
            if Int.random(in: 0 ..< 10, using: &random) == 0, CalendarMath.isLeap(by) { (bm, bd) = (2, 29) }
            let ry = Int.random(in: by ... 2030, using: &random)
            var rm = Int.random(in: 1 ... 12, using: &random)
            var rd = Int.random(in: 1 ... CalendarMath.daysInMonth(year: ry, month: rm), using: &random)
            if Int.random(in: 0 ..< 5, using: &random) == 0 { (rm, rd) = [(2, 28), (3, 1), (2, CalendarMath.daysInMonth(year: ry, month: 2))][Int.random(in: 0 ..< 3, using: &random)] }
            let years = ry - by - ((rm, rd) < (bm, bd) ? 1 : 0)
            let age = years + [0, 0, 0, 1, -1, 2, -5][Int.random(in: 0 ..< 7, using: &random)]
            rows.append(["has_licence": Bool.random(using: &random) ? "true" : "false", "age": String(age),
                         "birthday": "\(by)-\(two(bm))-\(two(bd))",
                         "created_at": "\(ry)-\(two(rm))-\(two(rd))T\(two(Int.random(in: 0 ... 23, using: &random))):00:00Z"])
        }
        let licence = try Self.verdicts(when: Self.licence.when, assert: Self.licence.assert, Self.cells(rows))
        let consistent = try Self.verdicts(when: nil, assert: Self.consistent, Self.cells(rows))
        #expect(licence == rows.map(Self.referenceLicence))
        #expect(consistent == rows.map(Self.referenceConsistent))
        #expect(consistent.contains(.violated) && consistent.contains(.pass) && licence.contains(.violated))
    }
}
