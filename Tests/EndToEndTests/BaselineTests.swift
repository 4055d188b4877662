import Foundation
import Testing

/// `--baseline` and `--fail-on-new` through the real binary: three consecutive CI runs on a
/// small CSV, and the baseline's errors.
@Suite("Baseline gate")
struct BaselineTests {
    /// Run 1: ids 1 and 3 have names shorter than 3 characters.
    static let day1 = "id,name,age\n1,Al,30\n2,Bob,40\n3,Cy,50\n4,Dee,20\n"
    /// Run 2: id 1 fixed (resolved), id 3 still short but on another line (existing), id 5 new.
    static let day2 = "id,name,age\n3,Cy,50\n2,Bob,40\n1,Alan,30\n4,Dee,20\n5,Ed,33\n"
    /// Run 3: the same records as run 2 in another order: nothing new, two violations remain.
    static let day3 = "id,name,age\n5,Ed,33\n4,Dee,20\n3,Cy,50\n2,Bob,40\n1,Alan,30\n"

    /// `baseline` of the JSON report at `path`, and one rule's.
    static func counts(_ path: String, rule: String = "P.name.minLength") throws -> (run: [String: Int], rule: [String: Int]) {
        let report = try ReportJSON(contentsOf: URL(fileURLWithPath: path))
        let total = try #require(report.root["baseline"] as? [String: Any], "no baseline in \(path)")
        let ruleCounts = try #require(report.rules(withID: rule).first?["baseline"] as? [String: Any])
        func ints(_ o: [String: Any]) -> [String: Int] {
            o.reduce(into: [:]) { if let n = integer($1.value) { $0[$1.key] = n } }
        }
        return (ints(total), ints(ruleCounts))
    }

    @Test("three runs: write the baseline, fail on a new finding, pass with only existing ones")
    func threeRuns() throws {
        let tmp = try Scratch("baseline-runs")
        defer { tmp.remove() }
        try tmp.write("rules.yml", Fixture.rules(path: "data.csv"))

        // Run 1: adoption on dirty data; the JSON report is tomorrow's baseline.
        try tmp.write("data.csv", Self.day1)
        try assertExecute(["run", "rules.yml", "--format", "json", "--output", "report.json"], in: tmp.url, exitCode: 1)
        let first = try ReportJSON(contentsOf: URL(fileURLWithPath: tmp.path("report.json")))
        let prints = try #require(first.root["fingerprints"] as? [String: [String]])
        #expect(prints["P.name.minLength"]?.count == 2)
        #expect(first.root["baseline"] is NSNull)

        // Run 2: one new finding fails the gate; the text report gives the exact counts.
        try tmp.write("data.csv", Self.day2)
        let run2 = try assertExecute(["run", "rules.yml", "--baseline", "report.json", "--fail-on-new", "--color", "never",
                                      "--report", "json:report.json"], in: tmp.url, exitCode: 1)
        let second = try Self.counts(tmp.path("report.json"))
        #expect(second.run == ["new": 1, "existing": 1, "resolved": 1])
        #expect(second.rule == ["new": 1, "existing": 1, "resolved": 1])
        let report2 = try ReportJSON(contentsOf: URL(fileURLWithPath: tmp.path("report.json")))
        #expect((report2.root["baseline"] as? [String: Any])?["source"] as? String == "report.json")
        #expect(report2.summary["failOnNew"] as? Bool == true)
        let samples = try #require(report2.rules(withID: "P.name.minLength").first?["samples"] as? [[String: Any]])
        #expect(samples.map { "\($0["key"] as? String ?? "?") \($0["new"] as? Bool == true ? "new" : "existing")" }
                == ["id=3 existing", "id=5 new"])
        #expect(run2.stdoutLines.contains("Baseline report.json: 1 new, 1 existing, 1 resolved findings; "
                                          + "--fail-on-new: only rules with new findings fail the run"), "\(run2)")
        #expect(run2.stdoutLines.contains("    baseline: 1 new, 1 existing, 1 resolved"), "\(run2)")
        #expect(run2.stdoutLines.contains { $0.hasPrefix("    data.csv:6: error: P.name.minLength:") && $0.hasSuffix("[id=5, new]") },
                "\(run2)")
        #expect(run2.stdoutLines.contains { $0.hasPrefix("    data.csv:2: error: P.name.minLength:") && $0.hasSuffix("[id=3]") },
                "\(run2)")
        #expect(run2.stdoutLines.contains("Result: FAILED (exit 1): 1 rule with new findings violated at severity error "
                                          + "(--fail-on error, --fail-on-new)"), "\(run2)")

        // Run 3: nothing new, violations remain: --fail-on-new passes, and the report it writes
        // over its own baseline (read first, then replaced) says so.
        try tmp.write("data.csv", Self.day3)
        try assertExecute(["run", "rules.yml", "--baseline", "report.json", "--fail-on-new",
                           "--format", "json", "--output", "report.json"], in: tmp.url, exitCode: 0)
        let third = try Self.counts(tmp.path("report.json"))
        #expect(third.run == ["new": 0, "existing": 2, "resolved": 0])
        let report3 = try ReportJSON(contentsOf: URL(fileURLWithPath: tmp.path("report.json")))
        #expect(report3.summary["outcome"] as? String == "passed" && integer(report3.summary["violations"]) == 2)
        #expect(try tmp.listing() == ["data.csv", "report.json", "rules.yml"], "no temporary file left")

        // The same data in text: passes under --fail-on-new and says why; fails without it.
        let gated = try assertExecute(["run", "rules.yml", "--baseline", "report.json", "--fail-on-new", "--color", "never"],
                                      in: tmp.url, exitCode: 0)
        #expect(gated.stdoutLines.contains("Result: passed (exit 0): no new findings at severity error (--fail-on error, "
                                           + "--fail-on-new); 1 rule violated at severity error has only findings of the baseline"),
                "\(gated)")
        let ungated = try assertExecute(["run", "rules.yml", "--baseline", "report.json", "--color", "never"], in: tmp.url,
                                        exitCode: 1)
        #expect(ungated.stdoutLines.contains("Baseline report.json: 0 new, 2 existing, 0 resolved findings"), "\(ungated)")
        #expect(ungated.stdoutLines.last { !$0.isEmpty } == "Result: FAILED (exit 1): 1 rule violated at severity error (--fail-on error)")
        try assertExecute(["run", "rules.yml"], in: tmp.url, exitCode: 1)
    }

    @Test("fingerprints are written whenever a JSON report is, and only then collected")
    func fingerprintsWithJSON() throws {
        let tmp = try Scratch("baseline-json")
        defer { tmp.remove() }
        try tmp.write("rules.yml", Fixture.rules(path: "data.csv"))
        try tmp.write("data.csv", Self.day1)
        let stdout = try assertExecute(["run", "rules.yml", "--format", "json"], in: tmp.url, exitCode: 1)
        #expect(try ReportJSON(stdout.stdout).root["fingerprints"] is [String: Any])
        try assertExecute(["run", "rules.yml", "--format", "html", "--report", "json:extra.json"], in: tmp.url, exitCode: 1)
        let extra = try ReportJSON(contentsOf: URL(fileURLWithPath: tmp.path("extra.json")))
        #expect((extra.root["fingerprints"] as? [String: [String]])?["P.name.minLength"]?.count == 2)
    }

    @Test("--fail-on-new without a baseline: 64, saying what it needs")
    func failOnNewNeedsBaseline() throws {
        try assertExecute(["run", "rules/people.yml", "--fail-on-new"], exitCode: 64,
                          stderrContains: ["--fail-on-new needs a baseline", "--baseline FILE"])
    }

    @Test("a missing baseline: 66 naming it, before any report is written")
    func missingBaseline() throws {
        let tmp = try Scratch("baseline-missing")
        defer { tmp.remove() }
        try tmp.write("rules.yml", Fixture.rules(path: "data.csv"))
        try tmp.write("data.csv", Self.day1)
        try assertExecute(["run", "rules.yml", "--baseline", "nowhere.json", "--fail-on-new", "--format", "json",
                           "--output", "report.json"], in: tmp.url, exitCode: 66,
                          stderrMatches: [#"^auditor: error: nowhere\.json: the baseline report does not exist"#])
        #expect(try tmp.listing() == ["data.csv", "rules.yml"])
    }

    @Test("a baseline that is not an auditor JSON report: 65 naming it and saying what --baseline takes", arguments: [
        ("notes.txt", "name,age\nAl,3\n", "is not a JSON document"),
        ("other.json", #"{"hello": "world"}"#, "is JSON but not an auditor report"),
        ("results.sarif", #"{"version": "2.1.0", "runs": []}"#, "is JSON but not an auditor report"),
    ])
    func unusableBaseline(_ name: String, _ content: String, _ expected: String) throws {
        let tmp = try Scratch("baseline-unusable")
        defer { tmp.remove() }
        try tmp.write("rules.yml", Fixture.rules(path: "data.csv"))
        try tmp.write("data.csv", Self.day1)
        try tmp.write(name, content)
        let run = try assertExecute(["run", "rules.yml", "--baseline", name], in: tmp.url, exitCode: 65,
                                    stderrContains: [name, expected, "--baseline takes"])
        #expect(run.stdout.isEmpty, "no report after a baseline error\n\(run)")
    }

    @Test("a report written before fingerprints (schema 1.1): 65, naming the version and how to write a baseline")
    func oldReport() throws {
        let tmp = try Scratch("baseline-old")
        defer { tmp.remove() }
        try tmp.write("rules.yml", Fixture.rules(path: "data.csv"))
        try tmp.write("data.csv", Self.day1)
        let run = try assertExecute(["run", "rules.yml", "--format", "json"], in: tmp.url, exitCode: 1)
        var document = try ReportJSON(run.stdout).root
        document["schemaVersion"] = "1.1"
        document["fingerprints"] = nil
        try tmp.write("old.json", bytes: try JSONSerialization.data(withJSONObject: document))
        try assertExecute(["run", "rules.yml", "--baseline", "old.json"], in: tmp.url, exitCode: 65,
                          stderrContains: ["old.json", "no fingerprints", "schema 1.1", "1.2", "--format json --output FILE"])
    }
}
