import Testing
@_spi(Testing) @testable import Auditor

private typealias F = ExpressionFixture

/// rules.md: a rule skips a record in which one of its inputs is missing or type-invalid,
/// except that the null-aware functions see a missing value as a null.
@Suite("Expression skip and null semantics")
struct ExpressionNullTests {
    @Test func missingAndInvalidInputsSkipTheRow() throws {
        let rows: [[String: TestCell]] = [
            ["age": "16"], ["age": "15"], [:], ["age": "34y"], ["age": "16.0"], ["age": ""],
            ["age": .integer(15)], ["age": .integer(16)], ["age": .real(16)],
        ]
        // An empty text field is a value (empty CSV fields arrive as missing cells from the reader).
        #expect(try F.outcomes("age >= 16", rows) == [.true, .false, .skipped, .skipped, .skipped, .skipped, .false, .true, .skipped])
    }

    @Test(arguments: [
        // (type, cells, outcomes of 'isNull(x)'): valid, invalid (skipped), missing (a null, so true)
        ("salary", [TestCell.text("1.5"), .text("1,000"), .integer(3), .real(2.5), .text("-0.5")], [ExpressionOutcome.false, .skipped, .false, .false, .false]),
        // A number is a boolean only with storage classes (SQLite): below.
        ("has_licence", [.text("true"), .text("TRUE"), .integer(1), .integer(0), .integer(2), .real(1), .text("yes")], [.false, .skipped, .skipped, .skipped, .skipped, .skipped, .skipped]),
        ("birthday", [.text("2024-02-29"), .text("2023-02-29"), .text("1990-5-4"), .integer(20240229)], [.false, .skipped, .skipped, .skipped]),
        ("created_at", [.text("2021-03-04T12:34:56Z"), .text("2021-03-04 12:34:56"), .text("2021-03-04T25:00:00Z"), .real(1.0)], [.false, .skipped, .skipped, .skipped]),
        ("name", [.text("x"), .text(""), .integer(7), .real(1.5)], [.false, .false, .false, .false]),
    ])
    func typeValidityFollowsTheDeclaredType(_ attribute: String, _ cells: [TestCell], _ expected: [ExpressionOutcome]) throws {
        let rows = cells.map { [attribute: $0] } + [[:]]
        #expect(try F.outcomes("isNull(\(attribute))", rows) == expected + [.true])
    }

    @Test func booleansFromTextAndSQLiteIntegers() throws {
        let rows: [[String: TestCell]] = [["has_licence": "true"], ["has_licence": "false"], ["has_licence": .integer(1)],
                                          ["has_licence": .integer(0)], ["has_licence": "1"]]
        #expect(try F.outcomes("has_licence", rows, storageClasses: true) == [.skipped, .skipped, .true, .false, .skipped])
        #expect(try F.outcomes("not has_licence", rows, storageClasses: true) == [.skipped, .skipped, .false, .true, .skipped])
        #expect(try F.outcomes("has_licence == true", rows, storageClasses: true) == [.skipped, .skipped, .true, .false, .skipped])
        // Without storage classes (JSON, Parquet, PostgreSQL), text is a boolean and a number is not.
        #expect(try F.outcomes("has_licence", rows) == [.true, .false, .skipped, .skipped, .skipped])
        #expect(try F.outcomes("not has_licence", rows) == [.false, .true, .skipped, .skipped, .skipped])
    }

    @Test func nullAwareFunctionsSeeMissingAsNull() throws {
        let rows: [[String: TestCell]] = [["nick": "Al", "name": "Alan"], ["name": "Bea"], ["nick": "", "name": "Cy"], ["nick": "  "]]
        #expect(try F.outcomes("isNull(nick)", rows) == [.false, .true, .false, .false])
        #expect(try F.outcomes("present(nick)", rows) == [.true, .false, .false, .true])
        #expect(try F.outcomes("present(trim(nick))", rows) == [.true, .false, .false, .false])   // anywhere inside
        #expect(try F.outcomes("isEmpty(nick)", rows) == [.false, .true, .true, .false])
        #expect(try F.outcomes("coalesce(nick, name) != ''", rows) == [.true, .true, .false, .true])
        #expect(try F.outcomes("isNull(nick) or nick != ''", rows) == [.true, .skipped, .false, .true])   // also read outside
        #expect(try F.outcomes("present(nick) or present(name)", rows) == [.true, .true, .true, .true])
        #expect(try F.outcomes("len(coalesce(nick, name, 'none')) > 2", rows + [[:]]) == [.false, .true, .false, .false, .true])
    }

    @Test func typeInvalidInputsSkipEvenInsideNullAwareFunctions() throws {
        let rows: [[String: TestCell]] = [["age": "34"], ["age": "34y"], [:]]
        #expect(try F.outcomes("isNull(age)", rows) == [.false, .skipped, .true])
        #expect(try F.outcomes("coalesce(age, 0) >= 0", rows) == [.true, .skipped, .true])
    }

    @Test func reportsWhichInputsAreNullAware() throws {
        let e = try F.compile("isNull(nick) or age > 3 and coalesce(nick, name) == name", expecting: .boolean)
        #expect(e.inputs == ["nick", "age", "name"])
        #expect(e.missingIsNull == [true, false, false])
    }

    @Test func callerSkipsRowsAndInputsAreListedInFirstUseOrder() throws {
        let rows: [[String: TestCell]] = [["age": "16"], ["age": "15"], ["age": "x"]]
        #expect(try F.outcomes("age >= 16", rows, skip: [true, false, false]) == [.skipped, .false, .skipped])
        #expect(try F.outcomes("true", rows, skip: [false, true, false]) == [.true, .skipped, .true])
        let e = try F.compile("yearsBetween(birthday, date(created_at)) == age and birthday < today()", expecting: .boolean)
        #expect(e.inputs == ["birthday", "created_at", "age"])
        #expect(e.resultType == .boolean)
        #expect(e.evaluate(F.chunk([]), columns: F.columns(e), skip: []).isEmpty)
    }

    @Test func inputValuesRenderEachInputForFindings() throws {
        let e = try F.compile("has_licence and age < 16 and salary >= 0", expecting: .boolean)
        #expect(e.inputs == ["has_licence", "age", "salary"])
        let c = F.chunk([["age": "14", "has_licence": "true", "salary": "12.50"],
                         ["age": .integer(15), "has_licence": "true", "salary": .real(0.25)],
                         ["has_licence": "yes"]])
        let cols = F.columns(e)
        let first = e.inputValues(c, columns: cols, row: 0)
        #expect(first.map(\.name) == ["has_licence", "age", "salary"])
        #expect(first.map(\.value) == ["true", "14", "12.50"])
        #expect(e.inputValues(c, columns: cols, row: 1).map(\.value) == ["true", "15", "0.25"])
        #expect(e.inputValues(c, columns: cols, row: 2).map(\.value) == ["yes", nil, nil])
        #expect(e.evaluate(c, columns: cols, skip: [false, false, false]) == [.true, .true, .skipped])
    }

    @Test func stringAttributesReadTypedCellsAsText() throws {
        let rows: [[String: TestCell]] = [["name": .integer(42)], ["name": .real(0.5)], ["name": "42"]]
        #expect(try F.outcomes("name == '42'", rows) == [.true, .false, .true])
        #expect(try F.values("name + '!'", rows) == ["42!", "0.5!", "42!"])
    }

    @Test func evaluatesAcrossManyRowsWithoutMixingThem() throws {
        var rows = [[String: TestCell]]()
        for i in 0 ..< 2 * CompiledExpression.batchSize + 300 {   // several batches
            switch i % 4 {
            case 0: rows.append(["age": .text(String(i % 30)), "has_licence": "true"])
            case 1: rows.append(["age": .integer(Int64(i % 30)), "has_licence": "false"])
            case 2: rows.append(["has_licence": "true"])
            default: rows.append(["age": .text(String(i % 30)), "has_licence": "maybe"])
            }
        }
        let got = try F.outcomes("not has_licence or age >= 16", rows)
        for (i, o) in got.enumerated() {
            let expected: ExpressionOutcome
            switch i % 4 {
            case 0: expected = i % 30 >= 16 ? .true : .false
            case 1: expected = .true
            default: expected = .skipped
            }
            if o != expected {
                Issue.record("row \(i): \(o) != \(expected)")
                break
            }
        }
    }
}
