import Auditor
import Testing

@Suite struct ValidatorValueTests {
    @Test(arguments: [
        ("12", ValueType.integer, Value.integer(12)),
        ("-7", .integer, .integer(-7)),
        ("12.5", .decimal, .decimal(12.5)),
        ("12", .decimal, .decimal(12)),
        ("true", .boolean, .boolean(true)),
        ("false", .boolean, .boolean(false)),
        ("2020-02-29", .date, .date(days: 18321)),
        ("1970-01-01T00:01:00Z", .datetime, .datetime(seconds: 60)),
        ("1970-01-01T01:00:00+01:00", .datetime, .datetime(seconds: 0)),
        (" 12", .string, .string(" 12")),
    ])
    func parsesStrictly(text: String, type: ValueType, expected: Value) {
        #expect(Value.parse(text, as: type) == expected)
    }

    @Test(arguments: [
        ("12.0", ValueType.integer), ("+1", .integer), (" 12", .integer), ("", .integer),
        ("1e3", .decimal), ("12,5", .decimal), (".5", .decimal),
        ("True", .boolean), ("1", .boolean), ("yes", .boolean),
        ("2019-02-29", .date), ("2020-1-01", .date), ("2020-01-01T00:00:00Z", .date),
        ("2020-01-01T24:00:00Z", .datetime), ("2020-01-01 00:00:00Z", .datetime), ("2020-01-01T00:00:00", .datetime),
    ])
    func rejectsWhatIsNotOfTheType(text: String, type: ValueType) {
        #expect(Value.parse(text, as: type) == nil)
    }

    @Test func convertsWithTheEnginesRules() {
        #expect(Value.integer(3).converted(to: .decimal) == .decimal(3))
        #expect(Value.integer(1).converted(to: .boolean) == .boolean(true))
        #expect(Value.integer(2).converted(to: .boolean) == nil)
        #expect(Value.decimal(3).converted(to: .integer) == nil)
        #expect(Value.decimal(2.5).converted(to: .string) == .string("2.5"))
        #expect(Value.date(days: 0).converted(to: .string) == .string("1970-01-01"))
        #expect(Value.string("x").converted(to: .string) == .string("x"))
        #expect(Value.null.converted(to: .string) == nil)
        #expect(Value.list(["a"]).converted(to: .string) == nil)
        #expect(Value.date(days: 3).converted(to: .datetime) == nil)
    }

    @Test func describesValuesForMessages() {
        #expect(Value.decimal(12).description == "12")
        #expect(Value.decimal(-0.25).description == "-0.25")
        #expect(Value.boolean(false).description == "false")
        #expect(Value.null.description == "null")
        #expect(Value.date(days: 18321).description == "2020-02-29")
        #expect(Value.datetime(seconds: 86399).description == "1970-01-01T23:59:59Z")
        #expect(Value.datetime(seconds: -1).description == "1969-12-31T23:59:59Z")
        #expect(Value.list(["a", 2, .null]).description == "[a, 2, null]")
        #expect(Value.map(["city": "Oslo", "zip": ["1", "2"]]).description == "{city: Oslo, zip: [1, 2]}")
    }

    @Test func emptyIsNotNull() {
        #expect(Value.string("").isEmpty)
        #expect(Value.list([]).isEmpty)
        #expect(Value.map([:]).isEmpty)
        #expect(!Value.null.isEmpty)
        #expect(Value.null.isNull)
        #expect(!Value.string("").isNull)
    }

    @Test func mapsKeepTheirOrderAndRepeatedKeys() {
        let m = ValueMap([("b", .integer(1)), ("a", .integer(2)), ("b", .integer(3))])
        #expect(m.keys == ["b", "a", "b"])
        #expect(m["b"] == .integer(1))
        #expect(m["c"] == nil)
        #expect(Value.map(m) != .map(ValueMap([("a", .integer(2)), ("b", .integer(1)), ("b", .integer(3))])))
    }

    @Test func sameItemComparesNumbersNumerically() {
        #expect(Value.integer(1).isSameItem(as: .decimal(1)))
        #expect(!Value.integer(1).isSameItem(as: .string("1")))
        #expect(Value.list([1, 2]).isSameItem(as: .list([.decimal(1), .decimal(2)])))
        #expect(!Value.integer(Int64.max).isSameItem(as: .integer(Int64.max - 1)))
        #expect(Value.integer(1) != Value.decimal(1))
    }

    @Test func readsChunkCells() throws {
        var b = RecordChunkBuilder(columnCount: 6, firstRecord: 0)
        b.beginRecord(location: 2)
        b.setText(0, "14")
        b.set(1, .integer(42))
        b.set(2, .real(2.5))
        let items = [b.appendTextCell(Array("a".utf8)), Cell.missing, Cell.integer(7)]
        b.setComposite(3, .list(items))
        let city = b.appendTextCell(Array("Oslo".utf8))
        b.setComposite(5, .list([b.appendTextCell(Array("x".utf8))]))
        let inner = Cell(tag: .list, payload: 1)    // the list set on column 5 just above
        b.setComposite(4, .map([Composite.MapEntry(key: "city", value: city),
                                Composite.MapEntry(key: "tags", value: inner)]))
        let chunk = b.build()
        let row = chunk.columns.map { Value(cell: $0[0], in: chunk) }
        #expect(row[0] == .string("14"))
        #expect(row[1] == .integer(42))
        #expect(row[2] == .decimal(2.5))
        #expect(row[3] == .list([.string("a"), .null, .integer(7)]))
        #expect(row[4] == .map(ValueMap([("city", .string("Oslo")), ("tags", .list(["x"]))])))
        #expect(row[5] == .list(["x"]))
        #expect(row[4].description == chunk.string(chunk.columns[4][0]))
    }

    @Test func readsMissingBlobsAndBrokenCells() {
        var b = RecordChunkBuilder(columnCount: 3, firstRecord: 0)
        b.beginRecord(location: 1)
        let blob = b.appendTextCell([0x68, 0x69])
        b.set(1, Cell(tag: .blob, payload: blob.payload, length: blob.length))
        b.set(2, Cell(tag: .list, payload: 99))
        let chunk = b.build()
        #expect(Value(cell: chunk.columns[0][0], in: chunk) == .null)
        #expect(Value(cell: chunk.columns[1][0], in: chunk) == .string("hi"))
        #expect(Value(cell: chunk.columns[2][0], in: chunk) == .null)
        #expect(Value(cell: .text(offset: 100, length: 3), in: chunk) == .null)
    }
}
