import Auditor
import Foundation
@testable import AuditorReports
import Testing

/// Every kind of source-neutral location (issue 14) in every output that shows more than its
/// text: JSON (schema 2.0 `locator`), failures files, SARIF and GitHub annotations.
@Suite("Locations in outputs")
struct LocationOutputTests {
    static let locations: [(RecordLocation, String)] = [
        (RecordLocation(path: "people.csv", line: 7, record: 6), "people.csv:7"),
        (RecordLocation(path: "people.xml", locator: .element(path: "/people/person", line: 12), record: 3), "people.xml:12"),
        (RecordLocation(path: "app.sqlite", locator: .key(container: "people", name: "rowid", value: 1043), record: 9),
         "app.sqlite:people:rowid=1043"),
        (RecordLocation(path: "Shop.sqlite", locator: .key(container: "Person", name: "Z_PK", value: 42), record: 1),
         "Shop.sqlite:Person[Z_PK=42]"),
        (RecordLocation(path: "q.sqlite", record: 17), "q.sqlite:#17"),
    ]

    static let report: AuditReport = {
        let findings = locations.map { location, _ in
            Finding(ruleID: "person.name.length", code: 1670, severity: .error, entity: "Person", attribute: "name",
                    location: location, key: nil, value: "Al", message: "Name is too short; got 'Al'.")
        }
        let rule = RuleOutcome(id: "person.name.length", entity: "Person", source: "people", attribute: "name",
                               kind: "minLength", severity: .error, code: 1670, summary: "name has 3 characters or more",
                               evaluated: 100, violations: findings.count, samples: findings)
        let input = InputSummary(source: "people", path: "people.csv", format: "csv", bytes: 10, records: 100,
                                 complete: true, error: nil, seconds: 0.1)
        return AuditReport(toolVersion: "0.1.0", rulesFile: "rules.yml", startedAt: Fixture.startedAt, durationSeconds: 1,
                           failOn: .error, maxSamples: 20, inputs: [input], rules: [rule],
                           entities: [EntityOutcome(name: "Person", source: "people", records: 100,
                                                    violatingRecords: findings.count, violations: findings.count,
                                                    ruleIDs: [rule.id])],
                           records: findings.map { RecordFindings(entity: "Person", location: $0.location, key: nil, findings: [$0]) })
    }()

    @Test("JSON: a locator object per kind, no table or rowid on a CSV finding, text unchanged")
    func json() throws {
        let text = JSONReporter().render(Self.report)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let samples = try #require((document["rules"] as? [[String: Any]])?.first?["samples"] as? [[String: Any]])
        let locations = samples.compactMap { $0["location"] as? [String: Any] }
        #expect(locations.map { $0["text"] as? String } == Self.locations.map(\.1))
        #expect(locations.allSatisfy { Set($0.keys) == ["path", "locator", "record", "text"] })
        let locators = locations.map { $0["locator"] as? [String: Any] }
        #expect(locators[0] as NSDictionary? == ["kind": "line", "line": 7])
        #expect(locators[1] as NSDictionary? == ["kind": "element", "element": "/people/person", "line": 12])
        #expect(locators[2] as NSDictionary? == ["kind": "key", "container": "people", "key": "rowid", "value": 1043])
        #expect(locators[3] as NSDictionary? == ["kind": "key", "container": "Person", "key": "Z_PK", "value": 42])
        #expect(locations[4]["locator"] is NSNull)
        #expect(!text.contains("\"rowid\":") && !text.contains("\"table\":"))

        let validator = try SchemaValidator(schemaData: Data(contentsOf: SchemaTests.schemaURL))
        #expect(validator.errors(in: document).isEmpty, "\(validator.errors(in: document))")
    }

    @Test("JSON: every locator kind is valid against the schema (Python jsonschema), and a wrong one is not",
          .enabled(if: Python.hasJSONSchema, "python3 with the jsonschema module is not installed: skipped"))
    func jsonPython() throws {
        let folder = try ExternalTool.temporaryFolder("auditor-locations")
        defer { try? FileManager.default.removeItem(at: folder) }
        let good = folder.appendingPathComponent("good.json")
        try Data(JSONReporter().render(Self.report).utf8).write(to: good)
        let valid = Python.run(["-c", Python.validateScript, SchemaTests.schemaURL.path, good.path])
        #expect(valid.status == 0, "\(valid.output)")
        // A 1.x location (line, table, rowid) and a locator of one kind with another's members.
        let bad = folder.appendingPathComponent("bad.json")
        let text = JSONReporter().render(Self.report)
            .replacingOccurrences(of: "\"kind\": \"element\"", with: "\"kind\": \"line\"")
            .replacingOccurrences(of: "\"locator\": null", with: "\"line\": null, \"table\": null, \"rowid\": null")
        try Data(text.utf8).write(to: bad)
        let invalid = Python.run(["-c", Python.validateScript, SchemaTests.schemaURL.path, bad.path])
        #expect(invalid.status == 1, "\(invalid.output)")
        #expect(invalid.output.contains("'locator' is a required property"), "\(invalid.output)")
        #expect(invalid.output.contains("locator"), "\(invalid.output)")
    }

    @Test("failures CSV keeps its columns: line for CSV and XML, table and rowid for keyed records")
    func failuresCSV() throws {
        let (folder, text) = try FailuresFileTests.write(Self.report.records, to: "f.csv")
        defer { try? FileManager.default.removeItem(at: folder) }
        let rows = FailuresFileTests.parseCSV(text)
        #expect(rows.first?[1 ... 5] == ["path", "line", "table", "rowid", "record"])
        #expect(rows.dropFirst().map { Array($0[1 ... 5]) } == [
            ["people.csv", "7", "", "", "6"],
            ["people.xml", "12", "", "", "3"],
            ["app.sqlite", "", "people", "1043", "9"],
            ["Shop.sqlite", "", "Person", "42", "1"],
            ["q.sqlite", "", "", "", "17"],
        ])
    }

    @Test("SARIF and GitHub: keyed records named in the message and the logical location, lines for the rest")
    func ci() throws {
        let results = try SARIFReporterTests.results(SARIFReporter().render(Self.report))
        let texts = results.compactMap { ($0["message"] as? [String: Any])?["text"] as? String }
        #expect(texts.contains("Name is too short; got 'Al'. (table people, rowid 1043)"))
        #expect(texts.contains("Name is too short; got 'Al'. (Person Z_PK=42)"))
        let logical = results.compactMap { result -> String? in
            let location = (result["locations"] as? [[String: Any]])?.first
            return ((location?["logicalLocations"] as? [[String: Any]])?.first?["fullyQualifiedName"]) as? String
        }
        #expect(logical.sorted() == ["Person/Z_PK=42", "people/rowid=1043"])
        let lines = results.compactMap { result -> Int? in
            let physical = ((result["locations"] as? [[String: Any]])?.first?["physicalLocation"]) as? [String: Any]
            return (physical?["region"] as? [String: Any])?["startLine"] as? Int
        }
        #expect(lines.sorted() == [1, 1, 1, 7, 12])

        let github = GitHubReporter().render(Self.report)
        #expect(github.contains("(table people, rowid 1043)"))
        #expect(github.contains("(Person Z_PK=42)"))
        #expect(github.contains("file=people.xml,line=12"))
    }
}
