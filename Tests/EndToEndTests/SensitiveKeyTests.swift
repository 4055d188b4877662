import Foundation
import Testing

/// With a `sensitive: true` key, findings show the key masked, but their fingerprints hash the
/// real key: `--baseline` and `--fail-on-new` tell records apart, and the key value appears
/// in no report, failures file or history.
@Suite("Sensitive keys")
struct SensitiveKeyTests {
    static let rules = """
        version: 1
        sources:
          people: { path: data.csv, csv: { header: true } }
        entities:
          P:
            source: people
            key: [id]
            attributes:
              id: { type: string, required: true, sensitive: true }
              name: { type: string, minLength: 3 }

        """
    /// The keys: distinctive, so that a search for them cannot hit a line number or a size.
    static let keys = ["KQ7X91ZP", "KM3Z28WB", "KT5V64JD"]
    /// Day 1: the first and the third names are too short.
    static let day1 = "id,name\n\(keys[0]),Al\n\(keys[1]),Bob\n\(keys[2]),Cy\n"
    /// Day 2, re-sorted: the first still short (existing), the third fixed (resolved), the
    /// second now short (new).
    static let day2 = "id,name\n\(keys[2]),Cyd\n\(keys[1]),Bo\n\(keys[0]),Al\n"

    @Test("new, existing and resolved are told apart by the real key, which no output shows")
    func baselineWithSensitiveKey() throws {
        let tmp = try Scratch("sensitive-key")
        defer { tmp.remove() }
        try tmp.write("rules.yml", Self.rules)
        try tmp.write("data.csv", Self.day1)
        try assertExecute(["run", "rules.yml", "--format", "json", "--output", "day1.json"], in: tmp.url, exitCode: 1)

        try tmp.write("data.csv", Self.day2)
        let outputs = ["r.json", "r.html", "r.xml", "r.sarif", "r.github", "f.csv", "f.jsonl", "h.sqlite"]
        let run = try assertExecute(["run", "rules.yml", "--baseline", "day1.json", "--fail-on-new", "--color", "never", "-v",
                                     "--report", "json:r.json", "--report", "html:r.html", "--report", "junit:r.xml",
                                     "--report", "sarif:r.sarif", "--report", "github:r.github",
                                     "--failures-out", "f.csv", "--history", "h.sqlite"],
                                    in: tmp.url, exitCode: 1)
        let json = try ReportJSON(contentsOf: tmp.url.appendingPathComponent("r.json"))
        let rule = try #require(json.rules(withID: "P.name.minLength").first)
        let counts = try #require(rule["baseline"] as? [String: Any])
        #expect(integer(counts["new"]) == 1 && integer(counts["existing"]) == 1 && integer(counts["resolved"]) == 1,
                "\(counts)")
        let samples = try #require(rule["samples"] as? [[String: Any]])
        #expect(samples.map { "\($0["value"] as? String ?? "?") \($0["new"] as? Bool == true ? "new" : "existing")" }
                == ["Bo new", "Al existing"])
        #expect(samples.allSatisfy { $0["key"] as? String == "id=••••" })
        #expect(run.stdoutLines.contains { $0.contains("Baseline day1.json: 1 new, 1 existing, 1 resolved findings") }, "\(run)")

        // The JSONL failures file as well (the CSV one is written above).
        try assertExecute(["run", "rules.yml", "--baseline", "day1.json", "-q", "--failures-out", "f.jsonl"], in: tmp.url, exitCode: 1)
        var texts = ["stdout": run.stdout, "stderr": run.stderr]
        for name in outputs { texts[name] = try Data(contentsOf: tmp.url.appendingPathComponent(name)) }
        for (name, data) in texts {
            for key in Self.keys {
                #expect(data.range(of: Data(key.utf8)) == nil, "\(name) shows the sensitive key \(key)")
            }
        }
        #expect(texts["f.csv"].map { String(decoding: $0, as: UTF8.self).contains("id=••••") } == true)
    }

    @Test("a cardinality finding (found after the pass) also hashes the real key")
    func cardinalityWithSensitiveKey() throws {
        let tmp = try Scratch("sensitive-key-cardinality")
        defer { tmp.remove() }
        try tmp.write("rules.yml", """
            version: 1
            sources:
              depts:  { path: d.csv, csv: { header: true } }
              people: { path: p.csv, csv: { header: true } }
            entities:
              D:
                source: depts
                key: [code]
                attributes: { code: { type: string, required: true, sensitive: true } }
                relationships:
                  members: { from: P.dept, minCount: 1 }
              P:
                source: people
                key: [id]
                attributes: { id: { type: integer }, dept: { type: string } }
                relationships:
                  dept: { attribute: dept, references: D.code }

            """)
        // Day 1: DB and DC have no member. Day 2: DC still none (existing), DD none (new), DB
        // has one (resolved).
        try tmp.write("d.csv", "code\nDAQ71X\nDBW28Z\nDCE93K\n")
        try tmp.write("p.csv", "id,dept\n1,DAQ71X\n")
        try assertExecute(["run", "rules.yml", "--format", "json", "--output", "day1.json"], in: tmp.url, exitCode: 1)
        try tmp.write("d.csv", "code\nDCE93K\nDDR46M\nDBW28Z\nDAQ71X\n")
        try tmp.write("p.csv", "id,dept\n1,DAQ71X\n2,DBW28Z\n")
        let run = try assertExecute(["run", "rules.yml", "--baseline", "day1.json", "--format", "json", "--output", "r.json"],
                                    in: tmp.url, exitCode: 1)
        let json = try ReportJSON(contentsOf: tmp.url.appendingPathComponent("r.json"))
        let rule = try #require(json.rules.first { ($0["id"] as? String)?.hasSuffix(".members.minCount") == true }, "\(json.rules)")
        let counts = try #require(rule["baseline"] as? [String: Any])
        #expect(integer(counts["new"]) == 1 && integer(counts["existing"]) == 1 && integer(counts["resolved"]) == 1, "\(counts)")
        let report = try Data(contentsOf: tmp.url.appendingPathComponent("r.json"))
        for key in ["DAQ71X", "DBW28Z", "DCE93K", "DDR46M"] {
            #expect(report.range(of: Data(key.utf8)) == nil && !run.stderrText.contains(key), "the report shows \(key)")
        }
    }

    @Test("a deny finding on a deleted parent (from the previous snapshot) also hashes the real key")
    func denyWithSensitiveKey() throws {
        let tmp = try Scratch("sensitive-key-deny")
        defer { tmp.remove() }
        try tmp.write("rules.yml", """
            version: 1
            sources:
              docs:    { path: docs.csv, csv: { header: true } }
              folders: { path: folders.csv, csv: { header: true } }
            entities:
              Doc:
                source: docs
                key: [id]
                attributes: { id: integer, folder: { type: string, sensitive: true } }   # the parent key, so sensitive too
                relationships:
                  folder: { attribute: folder, references: Folder.code }
              Folder:
                source: folders
                key: [code]
                attributes: { code: { type: string, sensitive: true } }
                relationships:
                  docs: { from: Doc.folder, deleteRule: deny }

            """)
        func day(previous: [String], folders: [String], docs: [String]) throws {
            try tmp.write("old/folders.csv", "code\n" + previous.map { $0 + "\n" }.joined())
            try tmp.write("old/docs.csv", "id,folder\n")
            try tmp.write("folders.csv", "code\n" + folders.map { $0 + "\n" }.joined())
            try tmp.write("docs.csv", "id,folder\n" + docs.enumerated().map { "\($0.offset + 1),\($0.element)\n" }.joined())
        }
        let previous = ["--previous", "docs=old/docs.csv", "--previous", "folders=old/folders.csv"]
        // Day 1: FB and FC are deleted and still referenced. Day 2: FC again (existing), FD
        // (new); FB is back (resolved).
        try day(previous: ["FAX19Q", "FBY28W", "FCZ37E"], folders: ["FAX19Q"], docs: ["FBY28W", "FCZ37E"])
        try assertExecute(["run", "rules.yml", "--format", "json", "--output", "day1.json"] + previous, in: tmp.url, exitCode: 1)
        try day(previous: ["FCZ37E", "FAX19Q", "FBY28W", "FDV46R"], folders: ["FBY28W", "FAX19Q"], docs: ["FDV46R", "FCZ37E"])
        let run = try assertExecute(["run", "rules.yml", "--baseline", "day1.json", "--format", "json", "--output", "r.json"] + previous,
                                    in: tmp.url, exitCode: 1)
        let json = try ReportJSON(contentsOf: tmp.url.appendingPathComponent("r.json"))
        let rule = try #require(json.rules(withID: "Folder.docs.deleteRule").first, "\(json.rules.map { $0["id"] ?? "?" })")
        #expect(integer(rule["violations"]) == 2)
        let counts = try #require(rule["baseline"] as? [String: Any])
        #expect(integer(counts["new"]) == 1 && integer(counts["existing"]) == 1 && integer(counts["resolved"]) == 1, "\(counts)")
        let report = try Data(contentsOf: tmp.url.appendingPathComponent("r.json"))
        for key in ["FAX19Q", "FBY28W", "FCZ37E", "FDV46R"] {
            #expect(report.range(of: Data(key.utf8)) == nil && !run.stderrText.contains(key), "the report shows \(key)")
        }
    }

    @Test("two runs of the same data: every finding existing, none new")
    func sameDataIsExisting() throws {
        let tmp = try Scratch("sensitive-key-same")
        defer { tmp.remove() }
        try tmp.write("rules.yml", Self.rules)
        try tmp.write("data.csv", Self.day1)
        try assertExecute(["run", "rules.yml", "--format", "json", "--output", "day1.json"], in: tmp.url, exitCode: 1)
        // Re-sorted, unchanged: the masked keys are all alike, the real ones are not.
        try tmp.write("data.csv", "id,name\n\(Self.keys[2]),Cy\n\(Self.keys[1]),Bob\n\(Self.keys[0]),Al\n")
        try assertExecute(["run", "rules.yml", "--baseline", "day1.json", "--fail-on-new", "--format", "json", "--output", "r.json"],
                          in: tmp.url, exitCode: 0)
        let json = try ReportJSON(contentsOf: tmp.url.appendingPathComponent("r.json"))
        let counts = try #require(json.rules(withID: "P.name.minLength").first?["baseline"] as? [String: Any])
        #expect(integer(counts["new"]) == 0 && integer(counts["existing"]) == 2 && integer(counts["resolved"]) == 0)
    }
}
