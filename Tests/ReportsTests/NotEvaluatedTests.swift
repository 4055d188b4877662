import Auditor
import Foundation
@testable import AuditorReports
import Testing

/// A rule that evaluated no record is "not evaluated" in every format, never "passed", and an
/// entity whose input is empty says so (``Fixture/unevaluated``: Person's foreign key and
/// both rules of the empty Department were not evaluated).
@Suite("Not evaluated in every format")
struct NotEvaluatedTests {
    static let report = Fixture.unevaluated.report

    @Test("text: counted apart from passed rules, with the reason, and a warning for the empty input")
    func text() {
        let lines = TextReporter().render(Self.report).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "auditor 0.1.0: rules/people.yml: passed, 4 rules (3 not evaluated), 2,000 records, no findings")
        #expect(lines.contains("Person (people.csv): 2,000 records, no findings, 1 rule passed, 1 not evaluated"))
        #expect(lines.contains("Department (departments.csv): 0 records, no findings, 2 rules not evaluated"))
        #expect(lines.contains("  warning: departments.csv has no records, so the 2 rules of Department were not evaluated; "
                               + "to make an empty input fail, give Department a rowCount: { min: 1 } rule"))
        #expect(lines.contains { $0.hasPrefix("  not evaluated  1 rule: person.dept_id.fk (people.csv was read, but no record was checked") })
        #expect(lines.last { !$0.isEmpty } == "Result: passed (exit 0): no rule violated; 3 rules not evaluated: departments.csv has no records")
        #expect(!lines.contains { $0.contains("2 rules passed") || $0.contains("4 rules passed") })

        let verbose = TextReporter(verbose: true).render(Self.report)
        #expect(verbose.contains("  not evaluated  person.dept_id.fk"))
        #expect(!verbose.contains("passed         person.dept_id.fk") && !verbose.contains("passed   person.dept_id.fk"))
    }

    @Test("JSON: every such rule has status not-evaluated")
    func json() throws {
        let data = Data(JSONReporter().render(Self.report).utf8)
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let rules = try #require(root["rules"] as? [[String: Any]])
        let status = Dictionary(uniqueKeysWithValues: rules.map { ($0["id"] as? String ?? "?", $0["status"] as? String ?? "?") })
        #expect(status == ["person.id.required": "passed", "person.dept_id.fk": "not-evaluated",
                           "csv.row.ragged@departments": "not-evaluated", "department.id.required": "not-evaluated"])
    }

    @Test("HTML: a badge, the reason, a summary card and the empty-input warning")
    func html() {
        let page = HTMLReporter().render(Self.report)
        #expect(page.contains("<div class=\"soft\"><dt>Not evaluated</dt><dd>3</dd></div>"))
        #expect(page.contains("<tr class=\"row-not-evaluated\""))
        #expect(page.contains("(not evaluated: departments.csv has no records)"))
        #expect(page.contains("Warning: departments.csv has no records, so the 2 rules of Department were not evaluated"))
        #expect(page.contains("<li>3 rules not evaluated: departments.csv has no records</li>"))
    }

    @Test("JUnit: <skipped> with the true reason, never 'could not be read' for an input that was read")
    func junit() {
        let xml = JUnitReporter().render(Self.report)
        #expect(!xml.contains("could not be read"), "\(xml)")
        #expect(xml.contains("<skipped message=\"not evaluated: departments.csv has no records\">"))
        #expect(xml.contains("<skipped message=\"not evaluated: people.csv was read, but no record was checked"))
        #expect(xml.contains("tests=\"4\" failures=\"0\" errors=\"0\" skipped=\"3\""))

        // An input that stopped before its first record: then it could not be read.
        var broken = Self.report
        broken.inputs[1].complete = false
        broken.inputs[1].errorStatus = .dataError
        broken.inputs[1].error = "departments.csv:1:1: bad bytes"
        #expect(JUnitReporter().render(broken).contains("<skipped message=\"not evaluated: no record of departments.csv could be read (exit 65)\">"))
    }

    @Test("SARIF: a warning notification per rule that did not run, tied to the rule")
    func sarif() throws {
        let data = Data(SARIFReporter().render(Self.report).utf8)
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let run = try #require((root["runs"] as? [[String: Any]])?.first)
        let invocation = try #require((run["invocations"] as? [[String: Any]])?.first)
        let notes = invocation["toolExecutionNotifications"] as? [[String: Any]] ?? []
        #expect(notes.compactMap { ($0["associatedRule"] as? [String: Any])?["id"] as? String }
                == ["person.dept_id.fk", "csv.row.ragged@departments", "department.id.required"])
        #expect(notes.allSatisfy { $0["level"] as? String == "warning" })
        #expect((notes.first?["message"] as? [String: Any])?["text"] as? String
                == "person.dept_id.fk was not evaluated, so it did not pass: people.csv was read, but no record was checked"
                   + ": its condition matched none, its records were excluded by structural findings, or the data it compares with was unavailable")
        #expect((run["results"] as? [Any])?.isEmpty == true)
    }

    @Test("GitHub: a warning annotation for the empty input, the verdict and a table of the rules")
    func github() {
        let text = GitHubReporter().render(Self.report)
        #expect(text.contains("::warning file=departments.csv,title=auditor%3A Department not evaluated::departments.csv has no records"))
        #expect(text.contains("auditor: PASSED (exit 0): no rule violated; 3 rules not evaluated: departments.csv has no records"))
        let md = GitHubReporter().summaryMarkdown(Self.report)
        #expect(md.contains("### Rules not evaluated"))
        #expect(md.contains("| department.id.required | departments.csv has no records |"))
    }

    @Test("every rule not evaluated: the verdict says none was")
    func nothingEvaluated() {
        var report = Self.report
        report.rules[0].evaluated = 0
        let text = TextReporter().render(report)
        #expect(text.contains("Result: passed (exit 0): no rule violated; none of the 4 rules was evaluated: departments.csv has no records"))
    }
}
