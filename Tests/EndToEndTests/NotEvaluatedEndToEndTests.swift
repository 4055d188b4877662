import Foundation
import Testing

/// Through the binary: an input with a header and no record evaluates no rule. The run
/// exits 0 (nothing failed), but no report calls those rules passed.
@Suite("Not evaluated, end to end")
struct NotEvaluatedEndToEndTests {
    @Test("an empty CSV: exit 0, every rule not evaluated, a warning, JUnit skipped with the true reason")
    func emptyInput() throws {
        let tmp = try Scratch("not-evaluated")
        defer { tmp.remove() }
        try tmp.write("rules.yml", Fixture.rules(path: "data.csv"))
        try tmp.write("data.csv", "id,name,age\n")
        let run = try assertExecute(["run", "rules.yml", "--color", "never", "--report", "junit:r.xml", "--report", "json:r.json"],
                                    in: tmp.url, exitCode: 0)
        #expect(run.stdoutLines.contains { $0.hasPrefix("P (data.csv): 0 records, no findings, ") && $0.hasSuffix(" rules not evaluated") },
                "\(run)")
        #expect(run.stdoutLines.contains { $0.hasPrefix("  warning: data.csv has no records, so the ") }, "\(run)")
        #expect(!run.stdoutText.contains("rules passed"), "\(run)")
        #expect(run.stdoutLines.last { !$0.isEmpty }?.hasPrefix("Result: passed (exit 0): no rule violated; none of the ") == true,
                "\(run)")

        let junit = try String(contentsOfFile: tmp.path("r.xml"), encoding: .utf8)
        #expect(!junit.contains("could not be read"), "\(junit)")
        #expect(junit.contains("<skipped message=\"not evaluated: data.csv has no records\">"), "\(junit)")

        let json = try ReportJSON(contentsOf: tmp.url.appendingPathComponent("r.json"))
        #expect(!json.rules.isEmpty && json.rules.allSatisfy { $0["status"] as? String == "not-evaluated" })
    }

    @Test("a record rule whose condition matches no record is not evaluated, the others pass")
    func conditionMatchesNone() throws {
        let tmp = try Scratch("not-evaluated-when")
        defer { tmp.remove() }
        try tmp.write("rules.yml", Fixture.rules(path: "data.csv") + """
                rules:
                  - id: P.old
                    when: age > 200
                    assert: age < 300

            """)
        try tmp.write("data.csv", "id,name,age\n1,Ann,30\n2,Bob,40\n")
        let run = try assertExecute(["run", "rules.yml", "--color", "never"], in: tmp.url, exitCode: 0)
        #expect(run.stdoutLines.contains { $0.hasPrefix("  not evaluated  1 rule: P.old (data.csv was read, but no record was checked") },
                "\(run)")
        #expect(run.stdoutLines.last { !$0.isEmpty } == "Result: passed (exit 0): no rule violated; 1 rule not evaluated", "\(run)")
    }
}
