import Testing
import Auditor

/// Findings carry source-neutral locations (issue 14): a path, a locator in the source's own
/// terms (a line, an element and its line, a container and a key) and the record ordinal.
@Suite struct RecordLocationTests {
    @Test("text rendering per locator: CSV and SQLite as before, XML by line, Core Data by entity and Z_PK")
    func rendering() {
        #expect(RecordLocation(path: "people.csv", line: 1043, record: 1042).description == "people.csv:1043")
        #expect(RecordLocation(path: "people.xml", locator: .element(path: "/people/person", line: 12), record: 3)
            .description == "people.xml:12")
        #expect(RecordLocation(path: "app.sqlite", locator: .key(container: "people", name: "rowid", value: 1043), record: 7)
            .description == "app.sqlite:people:rowid=1043")
        #expect(RecordLocation(path: "Shop.sqlite", locator: .key(container: "Person", name: "Z_PK", value: 42), record: 1)
            .description == "Shop.sqlite:Person[Z_PK=42]")
        #expect(RecordLocation(path: "q.sqlite", record: 17).description == "q.sqlite:#17")
        #expect(RecordLocation(path: "people.csv", record: 0).description == "people.csv")
    }

    @Test("a reader's location style and number become the locator", arguments: [
        (LocationStyle.line, RecordLocator?.some(.line(9))),
        (.element(path: "/people/person"), .element(path: "/people/person", line: 9)),
        (.rowid(table: "people"), .key(container: "people", name: "rowid", value: 9)),
        (.key(container: "Person", name: "Z_PK"), .key(container: "Person", name: "Z_PK", value: 9)),
        (.ordinal, nil),
    ])
    func fromStyle(_ style: LocationStyle, _ expected: RecordLocator?) {
        let location = RecordLocation(path: "in", style: style, value: 9, record: 4)
        #expect(location.locator == expected)
        #expect(location.record == 4)
        switch style {
        case .line, .element: #expect(location.line == 9)
        default: #expect(location.line == nil)
        }
    }

    /// An in-memory source whose records are located by an integer key, as a Core Data store
    /// locates objects by `Z_PK`: the engine's findings say `Person[Z_PK=…]`, with the key value
    /// the reader gave for each record, and a CSV-like source's findings carry only a line.
    @Test("the engine locates findings with the reader's style", arguments: [
        (LocationStyle.key(container: "Person", name: "Z_PK"), ["t.mem:Person[Z_PK=41]", "t.mem:Person[Z_PK=43]"]),
        (.element(path: "person"), ["t.mem:41", "t.mem:43"]),
        (.line, ["t.mem:41", "t.mem:43"]),
        (.ordinal, ["t.mem:#1", "t.mem:#3"]),
    ])
    func engine(_ style: LocationStyle, _ expected: [String]) throws {
        let registry = ReaderRegistry([ReaderFactory(format: "memory", extensions: ["mem"]) { _ in
            KeyedReader(style: style, rows: [(41, "x"), (42, "okay"), (43, "y")])
        }])
        let yaml = """
            version: 1
            sources:
              t: { path: t.mem, format: memory }
            entities:
              Person:
                source: t
                attributes:
                  name: { type: string, minLength: 2 }
            """
        let plan = try RuleCompiler.compile(try RulesFileParser(formats: registry.formats).parse(yaml, path: "rules.yml"))
        let result = try AuditEngine(registry: registry, options: AuditOptions(jobs: 2, chunkSize: 1)).run(plan)
        let rule = try #require(result.report.rules.first { $0.violations > 0 })
        #expect(rule.samples.map(\.location.description) == expected)
        #expect(result.report.records.map(\.location.description) == expected)
        if case .key = style {
            #expect(rule.samples.allSatisfy { $0.location.line == nil })
        } else if style == .ordinal {
            #expect(rule.samples.allSatisfy { $0.location.locator == nil })
        } else {
            #expect(rule.samples.map(\.location.line) == [41, 43])
        }
    }
}

/// Serves `(location number, name)` rows with a given location style.
private final class KeyedReader: RecordReader {
    let schema = Schema(fields: ["name"])
    let locationStyle: LocationStyle
    let rows: [(Int64, String)]
    var position = 0

    init(style: LocationStyle, rows: [(Int64, String)]) {
        locationStyle = style
        self.rows = rows
    }

    func nextChunk(maxRecords: Int) throws -> RecordChunk? {
        guard position < rows.count else { return nil }
        var builder = RecordChunkBuilder(columnCount: 1, firstRecord: position)
        while position < rows.count, builder.count < maxRecords {
            builder.beginRecord(location: rows[position].0)
            builder.setText(0, rows[position].1)
            position += 1
        }
        return builder.build()
    }
}
