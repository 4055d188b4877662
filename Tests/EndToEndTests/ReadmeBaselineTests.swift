import Foundation
import Testing

/// README.md's "CI gate with a baseline" block, run exactly as written, so the README stays true.
@Suite("README: CI gate with a baseline")
struct ReadmeBaselineTests {
    static let heading = "### CI gate with a baseline"

    /// The `auditor` command lines of the first fenced block under ``heading``, each split into
    /// arguments (the block uses no quoting, which this check enforces).
    static func commands() throws -> [[String]] {
        let text = try String(contentsOf: Auditor.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex(of: heading), "README.md has no '\(heading)' section")
        let open = try #require(lines[start...].firstIndex { $0.hasPrefix("```") }, "no fenced block under the heading")
        let close = try #require(lines[(open + 1)...].firstIndex { $0.hasPrefix("```") }, "the fenced block is not closed")
        var commands: [[String]] = []
        for line in lines[(open + 1) ..< close] {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            #expect(!trimmed.contains { "'\"\\|&;$`<>".contains($0) },
                    "a README command this test cannot run as plain arguments: \(trimmed)")
            let words = trimmed.split(separator: " ").map(String.init)
            #expect(words.first == "auditor", "not an auditor command: \(trimmed)")
            commands.append(Array(words.dropFirst()))
        }
        return commands
    }

    @Test("adoption run, gate, ratchet; then a new bad record fails the same gate command")
    func readmeCommands() throws {
        let commands = try Self.commands()
        try #require(commands.count == 3, "the README block changed: \(commands)")
        let tmp = try Scratch("readme-baseline")
        defer { tmp.remove() }
        // The README runs from the repository root: the rules and the example data they name.
        try tmp.copy(fromPackage: "rules/people.yml", as: "rules/people.yml")
        try tmp.copy(fromPackage: "examples/people/people.csv", as: "examples/people/people.csv")
        try tmp.copy(fromPackage: "examples/people/departments.csv", as: "examples/people/departments.csv")

        // 1. The example data has errors: exit 1, and the baseline is written.
        try assertExecute(commands[0], in: tmp.url, exitCode: 1)
        let baseline = try ReportJSON(contentsOf: tmp.url.appendingPathComponent("baseline.json"))
        #expect((baseline.root["fingerprints"] as? [String: [String]])?.isEmpty == false)
        // 2. The gate on the same data: nothing new, exit 0 although rules are violated.
        let gate = try assertExecute(commands[1], in: tmp.url, exitCode: 0)
        #expect(gate.stdoutLines.contains { $0.hasPrefix("Baseline baseline.json: 0 new, ") }, "\(gate)")
        #expect(gate.stdoutLines.last { !$0.isEmpty }?.hasPrefix("Result: passed (exit 0): no new findings") == true, "\(gate)")
        // 3. The ratchet: passes and replaces the baseline with this run's report.
        try assertExecute(commands[2], in: tmp.url, exitCode: 0)
        let ratcheted = try ReportJSON(contentsOf: tmp.url.appendingPathComponent("baseline.json"))
        #expect((ratcheted.root["baseline"] as? [String: Any])?["source"] as? String == "baseline.json")
        #expect(try tmp.listing() == ["baseline.json", "examples", "rules"])

        // A new record with a too-short name: the gate fails on it, and only on it.
        let csv = tmp.url.appendingPathComponent("examples/people/people.csv")
        let handle = try FileHandle(forWritingTo: csv)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("9001,X,x@example.org,1990-01-01,false,36,1000.00,US,9,2026-06-01T00:00:00Z,\r\n".utf8))
        try handle.close()
        let failed = try assertExecute(commands[1], in: tmp.url, exitCode: 1)
        #expect(failed.stdoutLines.contains { $0.hasPrefix("Baseline baseline.json: 1 new, ") }, "\(failed)")
        #expect(failed.stdoutLines.contains { $0.contains("person.name.length") && $0.hasSuffix("[id=9001, new]") }, "\(failed)")
    }
}
