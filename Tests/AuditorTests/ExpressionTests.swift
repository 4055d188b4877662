import Testing
@_spi(Testing) @testable import Auditor

/// A cell value for test rows: text (CSV, XML) or an SQLite storage class.
enum TestCell: ExpressibleByStringLiteral {
    case text(String)
    case integer(Int64)
    case real(Double)

    init(stringLiteral value: String) { self = .text(value) }
}

/// The attributes every expression test may read, with their declared types.
enum ExpressionFixture {
    static let attributes: [ExpressionAttribute] = [
        .init(name: "name", type: .string), .init(name: "age", type: .integer), .init(name: "salary", type: .decimal),
        .init(name: "has_licence", type: .boolean), .init(name: "birthday", type: .date),
        .init(name: "created_at", type: .datetime), .init(name: "nick", type: .string),
        .init(name: "score", type: .decimal), .init(name: "first name", type: .string),
        .init(name: "start", type: .date), .init(name: "end", type: .date),
    ]
    static var fields: [String] { attributes.map(\.name) }
    /// 2024-03-15T12:00:00Z, the `--as-of` instant of the tests.
    static let now = Int64(CalendarMath.daysFromCivil(year: 2024, month: 3, day: 15)) * 86400 + 12 * 3600
    static let mark = ConfigMark(file: "rules.yml", line: 14, column: 17)

    /// A chunk with one column per fixture attribute; absent keys are missing cells.
    static func chunk(_ rows: [[String: TestCell]], storageClasses: Bool = false) -> RecordChunk {
        var b = RecordChunkBuilder(columnCount: fields.count, firstRecord: 0)
        for (i, row) in rows.enumerated() {
            b.beginRecord(location: Int64(i + 2))
            for (key, value) in row {
                guard let c = fields.firstIndex(of: key) else {
                    Issue.record("no fixture attribute '\(key)'")
                    continue
                }
                switch value {
                case .text(let s): b.setText(c, s)
                case .integer(let v): b.set(c, .integer(v))
                case .real(let v): b.set(c, .real(v))
                }
            }
        }
        var built = b.build()
        built.storageClasses = storageClasses
        return built
    }

    static func compile(_ source: String, expecting: ExpressionType? = nil) throws -> CompiledExpression {
        try ExpressionCompiler.compile(source, mark: mark, attributes: attributes, now: now, expecting: expecting)
    }

    static func columns(_ e: CompiledExpression) -> [Int] {
        e.inputs.map { name in fields.firstIndex(of: name) ?? -1 }
    }

    /// The outcome of a boolean expression for each row.
    static func outcomes(_ source: String, _ rows: [[String: TestCell]] = [[:]], skip: [Bool]? = nil,
                         storageClasses: Bool = false) throws -> [ExpressionOutcome] {
        let e = try compile(source, expecting: .boolean)
        let c = chunk(rows, storageClasses: storageClasses)
        return e.evaluate(c, columns: columns(e), skip: skip ?? [Bool](repeating: false, count: rows.count))
    }

    static func outcome(_ source: String, _ row: [String: TestCell] = [:]) throws -> ExpressionOutcome {
        try outcomes(source, [row])[0]
    }

    /// The value of any expression for each row, as text (`nil` for null or skipped).
    static func values(_ source: String, _ rows: [[String: TestCell]]) throws -> [String?] {
        let e = try compile(source)
        let c = chunk(rows)
        return e.values(c, columns: columns(e), skip: [Bool](repeating: false, count: rows.count))
    }

    static func value(_ source: String, _ row: [String: TestCell] = [:]) throws -> String? {
        try values(source, [row])[0]
    }

    /// The diagnostic a source compiles to, or `nil` if it compiles.
    static func error(_ source: String, expecting: ExpressionType? = .boolean) -> String? {
        do {
            _ = try ExpressionCompiler.compile(source, mark: mark, attributes: attributes, now: now, expecting: expecting)
            return nil
        } catch {
            return error.description
        }
    }
}

private typealias F = ExpressionFixture

@Suite("Expression operators")
struct ExpressionTests {
    @Test(arguments: [
        ("1 + 2 * 3", "7"), ("(1 + 2) * 3", "9"), ("10 - 4 - 3", "3"), ("100 / 10 / 5", "2"),
        ("7 % 4", "3"), ("-7 % 4", "-3"), ("2 * -3", "-6"), ("- (2 + 3)", "-5"), ("--2", "2"),
        ("1.5 + .25", "1.75"), ("1e3", "1000"), ("7 / 2", "3.5"), ("1 / 0", nil), ("5 % 0", nil),
        ("null + 1", nil), ("-null", nil), ("'ab' + 'cd'", "abcd"), ("'a' + null", nil),
        ("'a\\'b' + \"\\\"\" + 'é\\u{1F600}\\n'", "a'b\"é😀\n"), ("r'\\d+'", "\\d+"),
        ("1 + 2 == 3", "true"), ("1 + 2 * 3 == 7 and not 1 > 2", "true"),
        ("not true or true", "true"), ("not (true or true)", "false"),
        ("true or false and false", "true"), ("(true or false) and false", "false"),
        ("1 < 2 == true", nil),
    ] as [(String, String?)])
    func arithmeticAndPrecedence(_ source: String, _ expected: String?) throws {
        if source == "1 < 2 == true" {
            #expect(F.error(source, expecting: nil)?.contains("comparisons cannot be chained") == true)
            return
        }
        #expect(try F.value(source) == expected)
    }

    @Test(arguments: [
        ("2 == 2", "true"), ("2 != 2", "false"), ("2 < 3", "true"), ("3 <= 3", "true"), ("3 > 3", "false"), ("3 >= 3", "true"),
        ("'b' > 'a'", "true"), ("'abc' < 'abd'", "true"), ("'ab' < 'abc'", "true"), ("'Z' < 'a'", "true"),
        ("'é' > 'z'", "true"), ("'x' == 'x'", "true"), ("'x' != 'X'", "true"),
        ("true == true", "true"), ("true != false", "true"),
        ("date('2024-01-31') < date('2024-02-01')", "true"), ("today() == date('2024-03-15')", "true"),
        ("now() > datetime('2024-03-15T11:59:59Z')", "true"), ("now() == datetime('2024-03-15T13:00:00+01:00')", "true"),
    ] as [(String, String)])
    func comparisons(_ source: String, _ expected: String) throws {
        #expect(try F.value(source) == expected)
    }

    @Test func integersAndDecimalsCompareAsNumbers() throws {
        let rows: [[String: TestCell]] = [["age": "34", "salary": "34.0"], ["age": "34", "salary": "34.5"],
                                          ["age": .integer(34), "salary": .real(34)], ["age": .integer(3), "salary": .integer(3)]]
        #expect(try F.outcomes("age == salary", rows) == [.true, .false, .true, .true])
        #expect(try F.outcomes("age < salary", rows) == [.false, .true, .false, .false])
    }

    /// Kleene's three-valued logic, as SQL: `null` is unknown.
    @Test(arguments: [
        ("true and null", ExpressionOutcome.unknown), ("false and null", .false), ("null and false", .false),
        ("true or null", .true), ("null or true", .true), ("false or null", .unknown), ("not null", .unknown),
        ("null", .unknown), ("null and null", .unknown), ("null or null", .unknown),
        ("true and true", .true), ("true and false", .false), ("false or false", .false),
    ])
    func threeValuedLogic(_ source: String, _ expected: ExpressionOutcome) throws {
        #expect(try F.outcome(source) == expected)
    }

    @Test func nullComparisonsAreUnknownPerRow() throws {
        let rows: [[String: TestCell]] = [["score": "1"], ["score": "5"], [:]]
        #expect(try F.outcomes("coalesce(score, null) > 2", rows) == [.false, .true, .unknown])
        #expect(try F.outcomes("coalesce(score, null) > 2 or true", rows) == [.true, .true, .true])
        #expect(try F.outcomes("coalesce(score, null) > 2 and false", rows) == [.false, .false, .false])
        #expect(try F.outcomes("not coalesce(score, null) > 2", rows) == [.true, .false, .unknown])
    }

    @Test func inLists() throws {
        #expect(try F.value("2 in [1, 2, 3]") == "true")
        #expect(try F.value("4 in [1, 2, 3]") == "false")
        #expect(try F.value("4 not in [1, 2, 3]") == "true")
        #expect(try F.value("4 in [1, null]") == nil)        // SQL: no match and a null in the list
        #expect(try F.value("1 in [1, null]") == "true")
        #expect(try F.value("4 not in [1, null]") == nil)
        #expect(try F.value("'US' in ('US', 'GB',)") == "true")
        #expect(try F.value("2 in [1 + 1]") == "true")
        let rows: [[String: TestCell]] = [["name": "US", "age": "12"], ["name": "us", "age": "40"], ["name": "GB", "age": "9"]]
        #expect(try F.outcomes("name in ['US', 'GB', 'DE']", rows) == [.true, .false, .true])
        #expect(try F.outcomes("name not in ['US', 'GB', 'DE']", rows) == [.false, .true, .false])
        #expect(try F.outcomes("age in [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12]", rows) == [.true, .false, .true])
        #expect(try F.outcomes("age in [age, 1]", rows) == [.true, .true, .true])   // not constant: x == a or x == b
        #expect(try F.outcomes("lower(name) in [name]", rows) == [.false, .true, .false])
        #expect(try F.outcomes("has_licence in [true]", [["has_licence": "true"], ["has_licence": "false"]]) == [.true, .false])
        #expect(try F.outcomes("birthday in [date('2000-01-01'), null]", [["birthday": "2000-01-01"], ["birthday": "2000-01-02"]]) == [.true, .unknown])
    }

    @Test func between() throws {
        let rows: [[String: TestCell]] = [["age": "15"], ["age": "16"], ["age": "18"], ["age": "19"]]
        #expect(try F.outcomes("age between 16 and 18", rows) == [.false, .true, .true, .false])
        #expect(try F.outcomes("age not between 16 and 18", rows) == [.true, .false, .false, .true])
        #expect(try F.outcomes("age between 16 and 18 and age != 17", rows) == [.false, .true, .true, .false])
        #expect(try F.value("'b' between 'a' and 'c'") == "true")
        #expect(try F.outcomes("age between coalesce(score, null) and 18", [["age": "17"], ["age": "19"]]) == [.unknown, .false])
        #expect(F.error("2 between null and 3")?.hasSuffix("comparing with null is always unknown; use isNull(x) or present(x)") == true)
    }

    @Test func constantsAreFoldedAtCompileTime() throws {
        let e = try F.compile("1 + 2 > 2 and date('2024-01-01') < today()", expecting: .boolean)
        guard case .boolean(let node) = e.root else {
            Issue.record("not boolean")
            return
        }
        #expect(node is ConstantNode<BoolColumn>)
        #expect(e.inputs.isEmpty)
    }

    @Test func backquotedNamesAndRawStrings() throws {
        #expect(try F.value("`first name` + '!'", ["first name": "Ann"]) == "Ann!")
        #expect(try F.value("matches(name, r'\\w+ \\w+')", ["name": "Ann Lee"]) == "true")
        #expect(try F.value("matches(name, '\\\\w+')", ["name": "Ann"]) == "true")
    }

    @Test func multiLineSourcesAndComparisonsOfColumns() throws {
        let rows: [[String: TestCell]] = [["start": "2024-01-01", "end": "2024-01-02"], ["start": "2024-01-02", "end": "2024-01-02"],
                                          ["start": "2024-01-03", "end": "2024-01-02"]]
        #expect(try F.outcomes("start\n  <= end", rows) == [.true, .true, .false])
        #expect(try F.outcomes("start < end", rows) == [.true, .false, .false])
        #expect(try F.outcomes("start == end or start > end", rows) == [.false, .true, .true])
    }
}
