import Foundation
import Testing

/// `auditor run rules/people.yml` from the package root, the README's first command.
@Suite("Bundled example")
struct BundledExampleTests {
    static let expectedJSON = Auditor.packageRoot.appendingPathComponent("examples/people/expected.json")

    @Test("JSON report: exit 1 and the counts of examples/people/expected.json")
    func jsonCountsMatchExpected() throws {
        let run = try assertExecute(["run", "rules/people.yml", "--format", "json"], exitCode: 1)
        let report = try ReportJSON(run.stdout)
        let expected = try expectedCounts(Self.expectedJSON, format: "csv")
        try expectCounts(report, equal: expected, requiring: Set(expected.keys).subtracting(deferredRuleIDs))

        // Issue 2: every element of the flat rules array has at least these keys.
        for rule in report.rules {
            for key in ["id", "entity", "severity", "code", "violations"] {
                #expect(rule.keys.contains(key), "rule \(rule["id"] ?? "?") lacks '\(key)'")
            }
        }
        #expect(report.summary["outcome"] as? String == "failed")
        let people = report.inputs.first { $0["source"] as? String == "people" }
        #expect(integer(people?["records"]) == 500)
        #expect(integer(report.summary["records"]) == 525)      // 500 people and 25 departments
        #expect(report.inputs.map { $0["source"] as? String } == ["people", "departments"])
        #expect(report.inputs.allSatisfy { $0["complete"] as? Bool == true })
    }

    @Test("JSON samples point at the physical CSV line that holds the value")
    func sampleLinesAreRightInTheFile() throws {
        let run = try assertExecute(["run", "rules/people.yml", "--format", "json"], exitCode: 1)
        let report = try ReportJSON(run.stdout)
        // Physical lines: split on LF bytes (the file has CRLF record ends and LF inside quoted notes).
        let fileLines = lines(of: try Data(contentsOf: Auditor.packageRoot.appendingPathComponent("examples/people/people.csv")))
        var checked = 0
        for id in ["person.name.pattern", "person.email.pattern", "person.birthday.type"] {
            for sample in report.rules(withID: id).flatMap({ $0["samples"] as? [[String: Any]] ?? [] }) {
                let location = try #require(sample["location"] as? [String: Any])
                let line = try #require(integer((location["locator"] as? [String: Any])?["line"]))
                let value = try #require(sample["value"] as? String)
                #expect(line >= 2 && line <= fileLines.count && fileLines[line - 1].contains(value),
                        "\(id): '\(value)' is not on line \(line) of people.csv")
                checked += 1
            }
        }
        #expect(checked >= 5, "too few samples to check (\(checked))")
    }

    @Test("Text report: entity header, compiler-style sample lines, Result: FAILED")
    func textReport() throws {
        let text = try assertExecute(["run", "rules/people.yml", "--color", "never"], exitCode: 1)
        let json = try ReportJSON(assertExecute(["run", "rules/people.yml", "--format", "json"], exitCode: 1).stdout)
        let lines = text.stdoutLines

        #expect(lines.contains { $0.hasPrefix("Person (examples/people/people.csv)") },
                "no entity header for Person\n\(text)")

        // `path:line: severity: rule: message`, indented under its rule.
        let sampleLine = #"^\s+examples/people/people\.csv:[0-9]+: (error|warning|info): [A-Za-z0-9_.@]+: \S.*$"#
        let samples = lines.filter { $0.range(of: sampleLine, options: .regularExpression) != nil }
        #expect(samples.count >= 20, "only \(samples.count) sample lines\n\(text)")

        // Every violated rule shows its samples, and each JSON sample appears verbatim as a text line
        // (the values here hold no character the text report has to escape).
        for rule in json.rules where (integer(rule["violations"]) ?? 0) > 0 {
            let id = try #require(rule["id"] as? String)
            #expect(samples.contains { $0.contains(": \(id): ") }, "no sample line for \(id)")
            for sample in (rule["samples"] as? [[String: Any]] ?? []).prefix(3) {
                let location = try #require((sample["location"] as? [String: Any])?["text"] as? String)
                let severity = try #require(sample["severity"] as? String)
                let message = try #require(sample["message"] as? String)
                let expected = "\(location): \(severity): \(id): \(message)"
                #expect(samples.contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix(expected) },
                        "missing text line: \(expected)")
            }
        }

        let last = lines.last { !$0.isEmpty } ?? ""
        #expect(last.hasPrefix("Result: FAILED"), "last line: \(last)")
        #expect(!text.stdout.contains(0x1B), "ESC in stdout despite --color never")
    }

    @Test("--fail-on never turns the failing example into exit 0, the report unchanged")
    func failOnNever() throws {
        let run = try assertExecute(["run", "rules/people.yml", "--format", "json", "--fail-on", "never"], exitCode: 0)
        let report = try ReportJSON(run.stdout)
        #expect(try report.violationsByRule()["person.id.unique"] == 2)
    }
}
