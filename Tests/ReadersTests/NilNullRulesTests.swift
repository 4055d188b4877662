import Auditor
import Foundation
@_spi(Testing) import AuditorReaders
import Testing

/// Issue 22, nil vs null: the readers keep an explicit null (JSON `null`, `xsi:nil="true"`, a
/// CSV `explicitNullValues` text) apart from an absent value, and `allowsNull: false` /
/// `allowsMissing: false` each forbid one of them, through the real readers and engine.
/// `required` keeps forbidding both, and an empty text is neither.
@Suite struct NilNullRulesTests {
    enum Format: String, CaseIterable { case csv, xml, jsonl }

    /// Four records, ids 1...4: `v` is text, an explicit null, absent, and empty.
    static func data(_ format: Format) -> String {
        switch format {
        case .csv:
            return "id,v\n1,x\n2,NULL\n3,\n4,\"\"\n"
        case .xml:
            return """
                <?xml version="1.0"?>
                <rows xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
                  <row><id>1</id><v>x</v></row>
                  <row><id>2</id><v xsi:nil="true"/></row>
                  <row><id>3</id></row>
                  <row><id>4</id><v></v></row>
                </rows>

                """
        case .jsonl:
            return """
                {"id": 1, "v": "x"}
                {"id": 2, "v": null}
                {"id": 3}
                {"id": 4, "v": ""}

                """
        }
    }

    static func rules(_ format: Format, attribute: String) -> String {
        let options: String
        switch format {
        case .csv: options = "\n    csv: { explicitNullValues: [NULL] }"
        case .xml: options = "\n    xml: { record: row }"
        case .jsonl: options = ""
        }
        return """
            version: 1
            sources:
              s:
                path: data.\(format.rawValue)\(options)
            entities:
              E:
                source: s
                key: [id]
                attributes:
                  id: integer
                  v: \(attribute)

            """
    }

    /// Runs the rules over the data; returns the report.
    static func run(_ format: Format, attribute: String, data: String? = nil, jobs: Int = 1,
                    chunkSize: Int = 2) throws -> AuditReport {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("auditor-nilnull-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try (data ?? Self.data(format)).write(to: dir.appendingPathComponent("data.\(format.rawValue)"),
                                              atomically: true, encoding: .utf8)
        let registry = StandardReaders.registry
        let path = dir.appendingPathComponent("rules.yml").path
        let spec = try RulesFileParser(formats: registry.formats).parse(rules(format, attribute: attribute), path: path)
        let plan = try RuleCompiler.compile(spec)
        return try AuditEngine(registry: registry, options: AuditOptions(jobs: jobs, chunkSize: chunkSize)).run(plan).report
    }

    /// The keys of a rule's sampled findings, and its codes.
    static func findings(_ report: AuditReport, _ id: String) -> (keys: [String], codes: [Int], violations: Int) {
        let rule = report.rules.first { $0.id == id }
        return (rule?.samples.compactMap(\.key) ?? [], rule?.codes ?? [], rule?.violations ?? -1)
    }

    @Test("allowsNull: false finds the explicit null only (2008); allowsMissing: false the absent value only (2009); required both",
          arguments: Format.allCases, [1, 2])
    func eachRuleFindsItsKindOfMissing(format: Format, jobs: Int) throws {
        let report = try Self.run(format, attribute: "{ allowsNull: false, allowsMissing: false, required: true }", jobs: jobs)
        let null = Self.findings(report, "E.v.allowsNull")
        #expect(null.violations == 1 && null.keys == ["id=2"] && null.codes == [2008], "\(format): \(null)")
        let absent = Self.findings(report, "E.v.allowsMissing")
        #expect(absent.violations == 1 && absent.keys == ["id=3"] && absent.codes == [2009], "\(format): \(absent)")
        let required = Self.findings(report, "E.v.required")
        #expect(required.violations == 2 && required.keys == ["id=2", "id=3"] && required.codes == [1570], "\(format): \(required)")
        // The empty text (record 4) is a third state: present, so none of the three finds it.
        let messages = report.rules.flatMap(\.samples).map(\.message)
        #expect(messages.contains("v must not be null."), "\(messages)")
        #expect(messages.contains("v must be present (it may be null); it is missing."), "\(messages)")
    }

    @Test("allowsNull: true and allowsMissing: true declare no rule; a non-boolean is a located error")
    func trueDeclaresNothing() throws {
        let report = try Self.run(.jsonl, attribute: "{ allowsNull: true, allowsMissing: true, maxLength: 5 }")
        #expect(!report.rules.contains { $0.id.hasSuffix(".allowsNull") || $0.id.hasSuffix(".allowsMissing") })
        #expect(throws: AuditError.self) {
            _ = try RulesFileParser(formats: StandardReaders.registry.formats)
                .parse(Self.rules(.jsonl, attribute: "{ allowsNull: maybe }"), path: "rules.yml")
        }
    }

    @Test("Other rules treat an explicit null as missing: no type, minLength or pattern finding on it", arguments: Format.allCases)
    func otherRulesSkipNulls(format: Format) throws {
        let report = try Self.run(format, attribute: "{ type: integer, minLength: 3, pattern: \"[0-9]+\" }")
        // 'x' (record 1) and the empty text (record 4, present) are not integers; the explicit
        // null (2) and the absent value (3) are missing, which only presence rules report.
        let type = Self.findings(report, "E.v.type")
        #expect(type.keys == ["id=1", "id=4"], "\(format): \(type)")
        #expect(report.rules.allSatisfy { $0.samples.allSatisfy { $0.key != "id=2" && $0.key != "id=3" } })
    }

    @Test("Rule id, long form with its own id and message, and the catalog kinds know both")
    func longFormAndCatalog() throws {
        let report = try Self.run(.xml, attribute: "{ allowsNull: { value: false, id: v.notNil, message: \"{field} is nil\" } }")
        let rule = try #require(report.rules.first { $0.id == "v.notNil" })
        #expect(rule.violations == 1)
        #expect(rule.samples.first?.message == "v is nil")
        #expect(BuiltInMessages.kinds.contains("allowsNull") && BuiltInMessages.kinds.contains("allowsMissing"))
    }

    @Test("CSV: explicitNullValues texts become Cell.null, nullValues texts Cell.missing, a quoted one stays text")
    func csvCells() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("auditor-csvnull-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("d.csv").path
        try "v\nNULL\n\\N\n\nNA\n\"NULL\"\nx\n".write(toFile: path, atomically: true, encoding: .utf8)
        var options = CSVOptions(nullValues: ["", "NA"])
        options.explicitNullValues = ["NULL", "\\N"]
        let reader = try CSVReader(path: path, options: options)
        let chunk = try #require(try reader.nextChunk(maxRecords: 100))
        let cells = chunk.columns[0]
        #expect(cells.map(\.isNull) == [true, true, false, false, false, false])
        #expect(cells.map(\.isMissing) == [true, true, true, true, false, false])
        #expect(chunk.string(cells[4]) == "NULL")
    }

    @Test("CSV: an empty explicitNullValues text needs nullValues without it; a text in both lists is an error")
    func csvOptionConflicts() throws {
        func decode(_ yaml: String) throws -> [Diagnostic] {
            CSVOptions.decode(try YAMLLoader.load(yaml, file: "rules.yml")).1
        }
        let both = try decode("{ nullValues: [\"\", NA], explicitNullValues: [NA] }")
        #expect(both.count == 1 && both.first?.message.contains("'NA' is in both nullValues") == true, "\(both)")
        let emptyDefault = try decode("{ explicitNullValues: [\"\"] }")
        #expect(emptyDefault.first?.message.contains("nullValues: []") == true, "\(emptyDefault)")
        #expect(try decode("{ nullValues: [], explicitNullValues: [\"\"] }").isEmpty)
        let report = try Self.run(.csv, attribute: "{ allowsNull: false, allowsMissing: false }",
                                  data: "id,v\n1,x\n2,\n3,\"\"\n")
        // With the default options the unquoted empty field is absent, not null.
        #expect(Self.findings(report, "E.v.allowsNull").violations == 0)
        #expect(Self.findings(report, "E.v.allowsMissing").keys == ["id=2"])
    }

    @Test("XML: xsi:nil=\"true\" (any prefix, or \"1\") is Cell.null, also on a list item and a map entry; xsi:nil=\"false\" is text")
    func xmlCells() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("auditor-xmlnil-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("d.xml").path
        try """
            <rows xmlns:i="http://www.w3.org/2001/XMLSchema-instance">
              <row><v i:nil="true"/><l><x>a</x><x i:nil="1"/></l><m><k i:nil=" true "/><j>b</j></m></row>
              <row><v i:nil="false">t</v><l/><m i:nil="true"/></row>
              <row><v nil="true">u</v></row>
            </rows>
            """.write(toFile: path, atomically: true, encoding: .utf8)
        let yaml = try YAMLLoader.load("{ record: row, fields: { l: { path: l/x, as: list }, m: { path: m, as: map } } }",
                                       file: "rules.yml")
        let options = try #require(XMLReaderOptions.decode(yaml).options)
        let reader = try XMLReader(path: path, fields: ["v", "l", "m"], options: options)
        let chunk = try #require(try reader.nextChunk(maxRecords: 100))
        #expect(chunk.columns[0].map(\.isNull) == [true, false, false])
        #expect(chunk.string(chunk.columns[0][1]) == "t" && chunk.string(chunk.columns[0][2]) == "u")
        guard case .list(let items) = chunk.composites[Int(chunk.columns[1][0].payload)] else {
            Issue.record("l is not a list")
            return
        }
        #expect(items.map(\.isNull) == [false, true])
        guard case .map(let entries) = chunk.composites[Int(chunk.columns[2][0].payload)] else {
            Issue.record("m is not a map")
            return
        }
        #expect(entries.map(\.key) == ["k", "j"] && entries.map(\.value.isNull) == [true, false])
        #expect(chunk.columns[2][1].isNull)
        #expect(chunk.columns[2][2] == .missing)
    }

    @Test("JSON Lines: null inside a list or map is Cell.null too")
    func jsonlNested() throws {
        let report = try Self.run(.jsonl, attribute: "{ allowsNull: false }",
                                  data: "{\"id\": 1, \"v\": [null]}\n{\"id\": 2, \"v\": null}\n")
        #expect(Self.findings(report, "E.v.allowsNull").keys == ["id=2"])
    }
}
