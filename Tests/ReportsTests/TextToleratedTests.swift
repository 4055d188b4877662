import Auditor
import Foundation
@testable import AuditorReports
import Testing

/// Thresholds in the text report: tolerated rules and why the run passed or failed.
@Suite("Text reporter: thresholds")
struct TextToleratedTests {
    static func lines(_ report: AuditReport, verbose: Bool = false) -> [String] {
        TextReporter(verbose: verbose).render(report).split(separator: "\n").map(String.init)
    }

    @Test("tolerated rules say so, with their threshold, after the violated ones")
    func toleratedRows() {
        let lines = Self.lines(Fixture.tolerated.report)
        #expect(lines[0] == "auditor 0.1.0: rules/people.yml: passed, 4 of 6 rules violated (none at severity error, 2 tolerated), "
                + "6 of 500 records with findings")
        let rows = lines.filter { $0.hasPrefix("  ") && !$0.hasPrefix("    ") }
        #expect(rows[0].hasPrefix("  warning    person.age.range"))
        #expect(rows[1].hasPrefix("  info       person.notes.maxLength"))
        #expect(rows[2].hasPrefix("  tolerated  person.name.length") && rows[2].hasSuffix("[error, within threshold: at most 1% of records]"))
        #expect(rows[3].hasPrefix("  tolerated  person.email.pattern")
                && rows[3].hasSuffix("[warning, within threshold: at most 5 failures and at most 2% of records, 3 records not evaluated]"))
        #expect(lines.last == "Result: passed (exit 0): 2 rules tolerated within their thresholds; 2 rules violated, none at severity error (--fail-on error)")
    }

    @Test("verbose rows say where each rule is defined")
    func definedAt() {
        #expect(Self.lines(Fixture.tolerated.report, verbose: true).contains { $0.contains("person.age.range") && $0.hasSuffix("[defined at rules/people.yml:33:9]") })
    }

    @Test("a rule beyond its threshold fails the run and says which threshold it exceeded")
    func exceeded() {
        var report = Fixture.tolerated.report
        report.rules[2].violations = 9   // person.name.length: 9 of 500 > 1%
        let lines = Self.lines(report)
        #expect(lines.contains { $0.hasPrefix("  error      person.name.length") && $0.hasSuffix("[threshold exceeded: at most 1% of records]") })
        #expect(lines.last == "Result: FAILED (exit 1): 1 rule violated at severity error (--fail-on error); 1 rule tolerated within its threshold")
    }

    @Test("only tolerated violations: the result says so alone")
    func onlyTolerated() {
        var report = Fixture.tolerated.report
        report.rules.removeAll { $0.status == .violated }
        #expect(Self.lines(report).last == "Result: passed (exit 0): 2 rules tolerated within their thresholds")
    }

    @Test("an incomplete input gives its exit status")
    func incompleteExit() {
        #expect(Self.lines(Fixture.xss.report).last?.hasPrefix("Result: INCOMPLETE (exit 65): ") == true)
    }

    @Test("the schema file and the writer agree on the version")
    func schemaVersion() throws {
        let schema = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: SchemaTests.schemaURL)) as? [String: Any])
        let version = ((schema["properties"] as? [String: Any])?["schemaVersion"] as? [String: Any])?["const"] as? String
        #expect(version == JSONReporter.schemaVersion)
        #expect(schema["$id"] as? String == "urn:auditor:schema:report:\(JSONReporter.schemaVersion)")
    }
}
