import Foundation
import TestSupport
import Testing

/// A reader's structural rules (`csv.row.ragged`, `csv.encoding`) belong to their source:
/// two CSV sources have two ragged-row rules, each reported under its own entity in every
/// format, and baselines written before the ids were qualified still match.
@Suite("Structural rules by source")
struct StructuralRuleSourceTests {
    /// Two CSV sources: `first` is clean, `second` has one ragged row (line 3, id 2).
    static let rules = """
        version: 1
        sources:
          first:  { path: a.csv, csv: { header: true } }
          second: { path: b.csv, csv: { header: true } }
        entities:
          A:
            source: first
            key: [id]
            attributes: { id: { type: integer }, name: { type: string } }
          B:
            source: second
            key: [id]
            attributes: { id: { type: integer }, name: { type: string } }

        """
    static let clean = "id,name\n1,Ann\n2,Bob\n3,Cyd\n"
    static let ragged = "id,name\n1,Ann\n2,Bob,extra\n3,Cyd\n"

    static func scratch(_ label: String) throws -> Scratch {
        let tmp = try Scratch(label)
        try tmp.write("rules.yml", rules)
        try tmp.write("a.csv", clean)
        try tmp.write("b.csv", ragged)
        return tmp
    }

    static func read(_ tmp: Scratch, _ name: String) throws -> String {
        try String(contentsOfFile: tmp.path(name), encoding: .utf8)
    }

    @Test("a clean first CSV and a ragged second one: the failing rule is under the second source in every format")
    func raggedSecondSource() throws {
        let tmp = try Self.scratch("structural-two-csv")
        defer { tmp.remove() }
        let run = try assertExecute(["run", "rules.yml", "--color", "never", "--report", "json:r.json", "--report", "html:r.html",
                                     "--report", "junit:r.xml", "--report", "sarif:r.sarif", "--report", "github:r.github"],
                                    in: tmp.url, exitCode: 1)

        // Text: the violated rule is listed, under B, with its source in its id.
        let lines = run.stdoutLines
        let bTitle = try #require(lines.firstIndex { $0.hasPrefix("B (b.csv)") }, "\(run)")
        let aTitle = try #require(lines.firstIndex { $0.hasPrefix("A (a.csv)") }, "\(run)")
        let violated = try #require(lines.firstIndex { $0.contains("error    csv.row.ragged@second") }, "\(run)")
        #expect(aTitle < bTitle && violated > bTitle, "\(run)")
        #expect(lines[aTitle].contains("no findings"), "\(run)")
        #expect(lines.contains { $0.contains("b.csv:3: error: csv.row.ragged@second:") }, "\(run)")
        #expect(!lines.contains { $0.contains("csv.row.ragged@first") && $0.contains("error ") }, "\(run)")

        // JSON: every rule id once; each entity lists its own source's structural rules.
        let json = try ReportJSON(contentsOf: tmp.url.appendingPathComponent("r.json"))
        let ids = json.rules.compactMap { $0["id"] as? String }
        #expect(ids.count == Set(ids).count, "rule ids repeat: \(ids)")
        let entities = try #require(json.root["entities"] as? [[String: Any]])
        let listed = Dictionary(uniqueKeysWithValues: entities.map { ($0["name"] as? String ?? "?", $0["rules"] as? [String] ?? []) })
        #expect(listed["A"]?.filter { $0.hasPrefix("csv.") } == ["csv.row.ragged@first", "csv.encoding@first"])
        #expect(listed["B"]?.filter { $0.hasPrefix("csv.") } == ["csv.row.ragged@second", "csv.encoding@second"])
        for entity in entities {
            for id in entity["rules"] as? [String] ?? [] {
                #expect(json.rules(withID: id).count == 1, "entity \(entity["name"] ?? "?") lists '\(id)', which names \(json.rules(withID: id).count) rules")
            }
        }
        let raggedRule = try #require(json.rules(withID: "csv.row.ragged@second").first)
        #expect(integer(raggedRule["violations"]) == 1 && raggedRule["source"] as? String == "second")
        #expect(raggedRule["entity"] is NSNull)
        #expect(integer(json.rules(withID: "csv.row.ragged@first").first?["violations"]) == 0)

        // HTML: B's table has the violated rule (the page escapes nothing in these ids).
        let html = try Self.read(tmp, "r.html")
        #expect(html.contains("csv.row.ragged@second"))

        // JUnit: one test case per rule, the failure on the second source's rule only.
        let junit = try Self.read(tmp, "r.xml")
        #expect(junit.contains("name=\"csv.row.ragged@first "), "\(junit)")
        let failure = try #require(junit.range(of: "<failure "), "\(junit)")
        let caseStart = try #require(junit.range(of: "<testcase ", options: .backwards, range: junit.startIndex ..< failure.lowerBound))
        #expect(junit[caseStart.lowerBound ..< failure.lowerBound].contains("name=\"csv.row.ragged@second "), "\(junit)")
        #expect(junit.components(separatedBy: "<failure ").count == 2, "\(junit)")

        // SARIF: distinct rule descriptors, the one result under the second source's rule.
        let sarif = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: tmp.url.appendingPathComponent("r.sarif"))) as? [String: Any])
        let sarifRun = try #require((sarif["runs"] as? [[String: Any]])?.first)
        let driver = try #require((sarifRun["tool"] as? [String: Any])?["driver"] as? [String: Any])
        let descriptors = (driver["rules"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        #expect(descriptors.count == Set(descriptors).count, "\(descriptors)")
        let results = sarifRun["results"] as? [[String: Any]] ?? []
        #expect(results.compactMap { $0["ruleId"] as? String } == ["csv.row.ragged@second"])

        // GitHub: the annotation names the second source's rule.
        let github = try Self.read(tmp, "r.github")
        #expect(github.contains("title=csv.row.ragged@second (error 2101"), "\(github)")
    }

    @Test("the bundled example: people.csv's ragged rows are Person's, not Department's")
    func bundledExample() throws {
        let run = try assertExecute(["run", "rules/people.yml", "--format", "json"], exitCode: 1)
        let json = try ReportJSON(run.stdout)
        let entities = try #require(json.root["entities"] as? [[String: Any]])
        let department = try #require(entities.first { $0["name"] as? String == "Department" })
        let person = try #require(entities.first { $0["name"] as? String == "Person" })
        #expect((department["rules"] as? [String])?.contains("csv.row.ragged@departments") == true)
        #expect((department["rules"] as? [String])?.contains("csv.row.ragged@people") == false)
        #expect((person["rules"] as? [String])?.contains("csv.row.ragged@people") == true)
        #expect(integer(department["violations"]) == 0)
        #expect(integer(json.rules(withID: "csv.row.ragged@people").first?["violations"]) == 6)

        let text = try assertExecute(["run", "rules/people.yml", "--color", "never"], exitCode: 1)
        #expect(text.stdoutLines.contains { $0.hasPrefix("Department (") && $0.contains("no findings") }, "\(text)")
    }

    @Test("a message catalog keys a structural message by id@source (that source) or by the bare id (every source)")
    func catalogMessages() throws {
        let tmp = try Self.scratch("structural-catalog")
        defer { tmp.remove() }
        try tmp.write("a.csv", Self.ragged)
        try tmp.write("messages/xx.yml", """
            locale: xx
            rules:
              csv.row.ragged: "ragged anywhere: {fields} fields"
              csv.row.ragged@second: "ragged in second: {fields} fields"

            """)
        let run = try assertExecute(["run", "rules.yml", "--locale", "xx", "--color", "never"], in: tmp.url, exitCode: 1)
        #expect(run.stdoutLines.contains("    a.csv:3: error: csv.row.ragged@first: ragged anywhere: 3 fields [id=2]"), "\(run)")
        #expect(run.stdoutLines.contains("    b.csv:3: error: csv.row.ragged@second: ragged in second: 3 fields [id=2]"), "\(run)")
    }

    /// The fingerprint an auditor wrote before structural ids were qualified, computed by an
    /// independent Python implementation of the documented algorithm (FNV-1a 64 over the
    /// bare rule id, the entity and the key, each followed by 0x1F, then the occurrence).
    static func legacyFingerprint(ruleID: String, entity: String, key: String, occurrence: Int = 0) throws -> String {
        let script = """
            import sys
            P, M = 0x100000001B3, (1 << 64) - 1
            h = 0xCBF29CE484222325
            def mix(s):
                global h
                for b in s.encode():
                    h = ((h ^ b) * P) & M
                h = ((h ^ 0x1F) * P) & M
            rule, entity, key, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
            for part in (rule, entity, "k", key):
                mix(part)
            for _ in range(8):
                h = ((h ^ (n & 0xFF)) * P) & M
                n >>= 8
            print("%016x" % h)
            """
        let run = try ChildProcess.run(["python3", "-c", script, ruleID, entity, key, String(occurrence)])
        try #require(run.status == 0, "python3 failed: \(run)")
        return run.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("a baseline written before the ids were qualified still matches the structural findings")
    func legacyBaselineStillMatches() throws {
        let tmp = try Self.scratch("structural-legacy-baseline")
        defer { tmp.remove() }
        // Today's run, for its report layout: then its structural fingerprints are replaced by
        // those an older auditor computed (bare id), as an independent oracle computes them.
        try assertExecute(["run", "rules.yml", "--format", "json", "--output", "today.json"], in: tmp.url, exitCode: 1)
        let today = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: tmp.url.appendingPathComponent("today.json"))) as? [String: Any])
        let prints = try #require(today["fingerprints"] as? [String: [String]])
        let old = try Self.legacyFingerprint(ruleID: "csv.row.ragged", entity: "B", key: "id=2")
        #expect(prints["csv.row.ragged@second"] == [old], "today's fingerprint differs from the one older auditors wrote")
        var legacy = today
        legacy["fingerprints"] = ["csv.row.ragged@second": [old]]
        try JSONSerialization.data(withJSONObject: legacy).write(to: tmp.url.appendingPathComponent("old.json"))

        try assertExecute(["run", "rules.yml", "--baseline", "old.json", "--fail-on-new", "--format", "json", "--output", "r.json"],
                          in: tmp.url, exitCode: 0)
        let json = try ReportJSON(contentsOf: tmp.url.appendingPathComponent("r.json"))
        let baseline = try #require(json.rules(withID: "csv.row.ragged@second").first?["baseline"] as? [String: Any])
        #expect(integer(baseline["existing"]) == 1 && integer(baseline["new"]) == 0)
        #expect((json.root["baseline"] as? [String: Any])?["missingRules"] as? [String] == [])
    }
}
