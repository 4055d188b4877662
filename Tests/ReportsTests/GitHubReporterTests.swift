import Auditor
import Foundation
@testable import AuditorReports
import Testing

@Suite("GitHub reporter")
struct GitHubReporterTests {
    /// A report with 30 violated error rules and 30 warning rules, 2 samples each.
    static let many: AuditReport = {
        var report = Fixture.failing.report
        report.rules = (0..<60).map { i in
            let severity: Severity = i < 30 ? .error : .warning
            let samples = (0..<2).map { j in
                Finding(ruleID: "r\(i)", code: 1, severity: severity, entity: "Person", attribute: "a",
                        location: RecordLocation(path: "people.csv", line: 10 + j, record: 9 + j), key: "id=\(j)",
                        value: "v", message: "m\(i).\(j)")
            }
            return RuleOutcome(id: "r\(i)", entity: "Person", source: "people", attribute: "a", kind: "pattern",
                               severity: severity, code: 1, summary: "s", evaluated: 10, violations: 2, samples: samples)
        }
        return report
    }()

    @Test("at most 10 error and 10 warning annotations, one per rule first")
    func limits() {
        let lines = GitHubReporter().render(Self.many).split(separator: "\n")
        let errors = lines.filter { $0.hasPrefix("::error ") }
        let warnings = lines.filter { $0.hasPrefix("::warning ") }
        #expect(errors.count == 10 && warnings.count == 10)
        #expect(errors.map { $0.split(separator: "::").last.map(String.init) ?? "" } == (0..<10).map { "m\($0).0 [id=0]" })
        #expect(lines.last?.hasPrefix("auditor: 20 annotations for 120 violations") == true)
    }

    @Test("toolkit escaping: data cannot start a line or add properties")
    func escaping() {
        for fixture in [Fixture.hostile, Fixture.xss] {
            let text = GitHubReporter().render(fixture.report)
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) where !line.isEmpty {
                #expect(line.hasPrefix("::error ") || line.hasPrefix("::warning ") || line.hasPrefix("::notice ")
                        || line.hasPrefix("auditor: "), "\(fixture.name): forged line \(line)")
                #expect(!line.contains("\r"))
                if line.hasPrefix("::") {
                    // Exactly one `::` separates properties from the message; properties have no raw `:` or `,` from data.
                    let parts = line.dropFirst(2).components(separatedBy: "::")
                    #expect(parts.count >= 2)
                    let properties = parts[0].split(separator: " ", maxSplits: 1).last.map(String.init) ?? ""
                    for property in properties.split(separator: ",") {
                        #expect(["file", "line", "title"].contains(property.split(separator: "=").first.map(String.init) ?? ""),
                                "\(fixture.name): property \(property)")
                    }
                }
            }
        }
        #expect(GitHubText.data("50% a\r\nb") == "50%25 a%0D%0Ab")
        #expect(GitHubText.property("a:b,c%\n") == "a%3Ab%2Cc%25%0A")
        #expect(GitHubText.data("\u{1B}[31m") == "\\u{1B}[31m")
    }

    @Test("annotation paths are relative to the base directory")
    func relativePaths() {
        var report = Fixture.tolerated.report
        for i in report.rules.indices {
            for j in report.rules[i].samples.indices { report.rules[i].samples[j].location.path = "/repo/data/people.csv" }
        }
        let text = GitHubReporter(baseDirectory: "/repo").render(report)
        #expect(text.contains("::warning file=data/people.csv,line=19,"))
        #expect(text.contains("::notice file=data/people.csv,line=12,"), "tolerated rules are notices")
    }

    @Test("job summary: verdict and why, escaped tables, at most the limit")
    func summary() {
        let md = GitHubReporter().summaryMarkdown(Fixture.tolerated.report)
        #expect(md.hasPrefix("## ✅ auditor: PASSED (exit 0)\n\n- 2 rules tolerated within their thresholds\n"))
        let xss = GitHubReporter().summaryMarkdown(Fixture.xss.report)
        #expect(!xss.contains("<script") && !xss.contains("<img") && !xss.contains("<meta"))
        for line in xss.split(separator: "\n") where line.hasPrefix("| ") {
            // Every row of a table has as many unescaped cell separators as its header.
            let cells = line.replacingOccurrences(of: "\\|", with: "").filter { $0 == "|" }.count
            #expect([5, 7, 8].contains(cells), "\(line)")
        }
        let big = GitHubReporter().summaryMarkdown(Self.many, limit: 8_000)
        #expect(big.utf8.count <= 8_000)
        #expect(big.contains("Some sample tables were left out"))
        #expect(GitHubReporter().summaryMarkdown(Self.many, limit: 300).utf8.count <= 300)
        #expect(GitHubText.markdown("a|b*c_[x](javascript:y)<b>") == "a\\|b\\*c\\_\\[x\\]\\(javascript\\:y\\)&lt;b&gt;")
    }
}

@Suite("GitHub reporter: baseline")
struct GitHubBaselineTests {
    @Test("annotations say new or existing; under --fail-on-new existing findings are notices, new ones come first")
    func annotations() {
        let lines = GitHubReporter().render(Fixture.baseline.report).split(separator: "\n").map(String.init)
        let annotations = lines.filter { $0.hasPrefix("::") }
        #expect(annotations.first == "::error file=people.csv,line=301,title=person.name.length (error 1670%2C new)::"
                + "Name must be 3 to 32 characters; got 'Jo'. [id=300] (new: not in the baseline)")
        #expect(annotations.filter { $0.hasPrefix("::error ") }.count == 2, "only the new findings are errors")
        #expect(annotations.filter { $0.contains("existing)::") }.allSatisfy { $0.hasPrefix("::notice ") })
        #expect(annotations.contains { $0.hasPrefix("::notice file=people.csv,line=58,title=csv.row.ragged@people (error 2101%2C existing)::") })

        var ungated = Fixture.baseline.report
        ungated.failOnNew = false
        let plain = GitHubReporter().render(ungated).split(separator: "\n")
        #expect(plain.contains { $0.hasPrefix("::error file=people.csv,line=58,title=csv.row.ragged@people (error 2101%2C existing)::")
                                  && $0.hasSuffix("(existing: in the baseline)") })
    }

    @Test("the job summary has the baseline totals, new/existing/resolved columns and trends")
    func summary() {
        let md = GitHubReporter().summaryMarkdown(Fixture.baseline.report)
        #expect(md.contains("Baseline out/baseline.json: 5 new, 18 existing, 6 resolved findings; --fail-on-new"))
        #expect(md.contains("| Status | Rule | Severity | Violations | New | Existing | Resolved | Trend | Rate |"))
        #expect(md.contains("| **failed** | person.name.length | error | 12 of 500 | **5** | 7 | 1 | ▅▄▅▅▅▅▄█ 5 → 12 **jumped** |"))
        #expect(md.contains("| existing only | csv.row.ragged@people |"))
        #expect(!GitHubReporter().summaryMarkdown(Fixture.failing.report).contains("Baseline"))
    }
}
