import Auditor
import Foundation
@testable import AuditorReports
import Testing

@Suite("SARIF reporter")
struct SARIFReporterTests {
    static func parse(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    static func results(_ text: String) throws -> [[String: Any]] {
        let runs = try #require(try parse(text)["runs"] as? [[String: Any]])
        #expect(runs.count == 1)
        return try #require(runs.first?["results"] as? [[String: Any]])
    }

    static let schemaURL = Bundle.module.resourceURL!.appendingPathComponent("Golden/schemas/sarif-schema-2.1.0.json")

    static let validateScript = """
        import json, sys, jsonschema
        schema = json.load(open(sys.argv[1], encoding="utf-8"))
        cls = jsonschema.validators.validator_for(schema)
        cls.check_schema(schema)
        validator = cls(schema, format_checker=cls.FORMAT_CHECKER)
        errors = 0
        for path in sys.argv[2:]:
            for error in validator.iter_errors(json.load(open(path, encoding="utf-8"))):
                errors += 1
                where = "/".join(str(p) for p in error.absolute_path) or "(root)"
                print(f"{path}: {where}: {error.message[:300]}")
        print(f"validated {len(sys.argv) - 2} documents with {cls.__name__}, {errors} errors")
        sys.exit(1 if errors else 0)
        """

    static func documents() -> [(String, String)] {
        Fixture.all.flatMap { f in
            [(f.name, SARIFReporter().render(f.report)),
             ("\(f.name) capped", SARIFReporter(baseDirectory: "/work", maxResultsPerRuleAndFile: 1).render(f.report))]
        }
    }

    @Test("valid against the official OASIS SARIF 2.1.0 schema (vendored)",
          .enabled(if: Python.hasJSONSchema, "python3 with the jsonschema module is not installed: SARIF schema validation skipped (pip install jsonschema)"))
    func validatesAgainstSchema() throws {
        let folder = try ExternalTool.temporaryFolder("auditor-sarif")
        defer { try? FileManager.default.removeItem(at: folder) }
        var paths: [String] = []
        for (index, (_, text)) in Self.documents().enumerated() {
            let url = folder.appendingPathComponent("log-\(index).sarif")
            try Data(text.utf8).write(to: url)
            paths.append(url.path)
        }
        let result = Python.run(["-c", Self.validateScript, Self.schemaURL.path] + paths)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("validated \(paths.count) documents with Draft4Validator, 0 errors"), "\(result.output)")
    }

    @Test("the schema check is live: a result without message fails",
          .enabled(if: Python.hasJSONSchema, "python3 with the jsonschema module is not installed: skipped"))
    func schemaRejects() throws {
        var doc = try Self.parse(SARIFReporter().render(Fixture.failing.report))
        var runs = try #require(doc["runs"] as? [[String: Any]])
        var results = try #require(runs[0]["results"] as? [[String: Any]])
        results[0]["message"] = nil
        results[1]["level"] = "fatal"
        runs[0]["results"] = results
        doc["runs"] = runs
        let folder = try ExternalTool.temporaryFolder("auditor-sarif")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("broken.sarif")
        try JSONSerialization.data(withJSONObject: doc).write(to: url)
        let result = Python.run(["-c", Self.validateScript, Self.schemaURL.path, url.path])
        #expect(result.status == 1 && result.output.contains("'message' is a required property"), "\(result.output)")
        #expect(result.output.contains("'fatal' is not one of"), "\(result.output)")
    }

    @Test("every result: ruleId, level, message, a physical location with startLine ≥ 1, a fingerprint")
    func resultShape() throws {
        for (name, text) in Self.documents() {
            var fingerprints = Set<String>()
            for result in try Self.results(text) {
                #expect(result["ruleId"] is String, "\(name)")
                #expect(["none", "note", "warning", "error"].contains(result["level"] as? String ?? ""), "\(name)")
                #expect(((result["message"] as? [String: Any])?["text"] as? String)?.isEmpty == false)
                let location = try #require((result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])
                let uri = try #require((location["artifactLocation"] as? [String: Any])?["uri"] as? String)
                #expect(!uri.isEmpty && !uri.hasPrefix("./") && !uri.contains(" "), "\(name): \(uri)")
                #expect(((location["region"] as? [String: Any])?["startLine"] as? Int ?? 0) >= 1)
                let fingerprint = try #require((result["partialFingerprints"] as? [String: Any])?["primaryLocationLineHash"] as? String)
                #expect(fingerprint.range(of: "^[0-9a-f]{16}:[0-9]+$", options: .regularExpression) != nil)
                #expect(fingerprints.insert(fingerprint).inserted, "\(name): duplicate fingerprint \(fingerprint)")
            }
        }
    }

    @Test("fingerprints follow rule + file + record key, not the line")
    func stableFingerprints() throws {
        var moved = Fixture.failing.report
        for i in moved.rules.indices {
            for j in moved.rules[i].samples.indices {
                if case .line(let line) = moved.rules[i].samples[j].location.locator {
                    moved.rules[i].samples[j].location.locator = .line(line + 100)
                }
            }
        }
        func prints(_ r: AuditReport) throws -> [String] {
            try Self.results(SARIFReporter().render(r)).map {
                ($0["partialFingerprints"] as? [String: String])?["primaryLocationLineHash"] ?? ""
            }
        }
        #expect(try prints(moved) == prints(Fixture.failing.report))
        var rekeyed = Fixture.failing.report
        rekeyed.rules[3].samples[0].key = "id=999"
        #expect(try prints(rekeyed) != prints(Fixture.failing.report))
    }

    @Test("beyond the cap, one aggregated result per rule and file with the count")
    func aggregation() throws {
        let report = Fixture.failing.report
        let results = try Self.results(SARIFReporter(maxResultsPerRuleAndFile: 2).render(report))
        for rule in report.rules where rule.violations > 0 {
            let mine = results.filter { $0["ruleId"] as? String == rule.id }
            let listed = min(2, rule.samples.count)
            let aggregated = mine.filter { ($0["properties"] as? [String: Any])?["aggregated"] != nil }
            #expect(mine.count == listed + (rule.violations > listed ? 1 : 0), "\(rule.id)")
            if rule.violations > listed {
                #expect((aggregated.first?["properties"] as? [String: Any])?["aggregated"] as? Int == rule.violations - listed)
            }
        }
    }

    @Test("SQLite rows: startLine 1, table and rowid in the message and a logical location")
    func sqliteRows() throws {
        let results = try Self.results(SARIFReporter().render(Fixture.failing.report))
        let row = try #require(results.first { (($0["message"] as? [String: Any])?["text"] as? String ?? "").contains("rowid 17") })
        let location = try #require((row["locations"] as? [[String: Any]])?.first)
        #expect(((location["physicalLocation"] as? [String: Any])?["region"] as? [String: Any])?["startLine"] as? Int == 1)
        #expect((location["logicalLocations"] as? [[String: Any]])?.first?["fullyQualifiedName"] as? String == "orders/rowid=17")
    }

    @Test("paths are made relative to the base directory and URI-encoded", arguments: [
        ("people.csv", nil as String?, "people.csv"),
        ("./data/people.csv", nil, "data/people.csv"),
        ("/work/repo/data/my file.csv", "/work/repo", "data/my%20file.csv"),
        ("/elsewhere/x.csv", "/work/repo", "file:///elsewhere/x.csv"),
        ("../shared/a:b#c?.csv", nil, "../shared/a%3Ab%23c%3F.csv"),
        ("données/é.csv", nil, "donn%C3%A9es/%C3%A9.csv"),
    ])
    func paths(_ path: String, _ base: String?, _ expected: String) {
        #expect(ReportPath.uri(ReportPath.relative(path, to: base)) == expected)
    }
}

@Suite("SARIF reporter: baseline")
struct SARIFBaselineTests {
    @Test("baselineState per result, our fingerprint in partialFingerprints, aggregates by their counts")
    func baselineState() throws {
        let report = Fixture.baseline.report
        let results = try SARIFReporterTests.results(SARIFReporter().render(report))
        let listed = results.filter { ($0["properties"] as? [String: Any])?["aggregated"] == nil }
        let samples = report.rules.flatMap(\.samples)
        #expect(listed.map { $0["baselineState"] as? String } == samples.map { $0.isNew == true ? "new" : "unchanged" })
        #expect(listed.map { ($0["partialFingerprints"] as? [String: String])?[SARIFReporter.fingerprintKey] }
                == samples.map { $0.fingerprint.map(Fingerprint.hex) })
        let aggregated = results.filter { ($0["properties"] as? [String: Any])?["aggregated"] != nil }
        // person.name.length: 9 not listed, 3 of them new (5 new in all, 2 listed).
        let name = try #require(aggregated.first { $0["ruleId"] as? String == "person.name.length" })
        #expect(name["baselineState"] as? String == "updated")
        #expect((name["properties"] as? [String: Int]) == ["aggregated": 9, "violations": 12, "new": 3, "existing": 6])
        let email = try #require(aggregated.first { $0["ruleId"] as? String == "person.email.pattern" })
        #expect(email["baselineState"] as? String == "unchanged")

        let run = try #require((try SARIFReporterTests.parse(SARIFReporter().render(report))["runs"] as? [[String: Any]])?.first)
        let properties = try #require(run["properties"] as? [String: Any])
        #expect(properties["failOnNew"] as? Bool == true && properties["historyRun"] as? Int == 12)
        #expect((properties["baseline"] as? [String: Any])?["new"] as? Int == 5)
    }

    @Test("without a baseline: no baselineState, and no fingerprint key without fingerprints")
    func plain() throws {
        for result in try SARIFReporterTests.results(SARIFReporter().render(Fixture.failing.report)) {
            #expect(result["baselineState"] == nil)
            #expect((result["partialFingerprints"] as? [String: String])?.keys.sorted() == ["primaryLocationLineHash"])
        }
    }
}
