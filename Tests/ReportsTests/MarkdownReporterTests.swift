import Auditor
import Foundation
@testable import AuditorReports
import Testing

@Suite("Markdown reporter")
struct MarkdownReporterTests {
    /// `rules` violated rules of `samples` samples each, with long messages so budgets bite.
    static func report(rules: Int, samples: Int) -> AuditReport {
        var report = Fixture.failing.report
        report.rules = (0..<rules).map { i in
            let found = (0..<samples).map { j in
                Finding(ruleID: "rule\(i)", code: 1, severity: .error, entity: "Person", attribute: "a",
                        location: RecordLocation(path: "people.csv", line: 10 + j, record: 9 + j), key: "id=\(j)",
                        value: "value \(j) | with a pipe", message: "Rule \(i) failed for record \(j); " + String(repeating: "x", count: 40))
            }
            return RuleOutcome(id: "rule\(i)", entity: "Person", source: "people", attribute: "a", kind: "pattern",
                               severity: .error, code: 1, summary: "a must look right", evaluated: 1000,
                               violations: samples * 3, samples: found)
        }
        return report
    }

    @Test("golden, every fixture", arguments: Fixture.all)
    func golden(_ fixture: Fixture) {
        Golden.check(MarkdownReporter().render(fixture.report), named: "\(fixture.name).md")
    }

    @Test("golden, cut to 2,600 bytes with '… and N more'")
    func goldenCut() {
        let text = MarkdownReporter(maxBytes: 2_600).render(Fixture.failing.report)
        #expect(text.utf8.count <= 2_600)
        #expect(text.contains("… and "))
        Golden.check(text, named: "failing.cut.md")
    }

    @Test("the GitHub job summary is the Markdown report within 1 MiB", arguments: Fixture.all)
    func gitHubSummary(_ fixture: Fixture) {
        #expect(GitHubReporter().summaryMarkdown(fixture.report) == MarkdownReporter(maxBytes: 1 << 20).render(fixture.report))
    }

    /// Every budget from tiny to roomy, on reports of many rules and samples: never over the
    /// budget, and what is shown plus every "… and N more" adds up to exactly what there is.
    @Test("within --max-bytes, and the '… and N more' counts are exact",
          arguments: [(3, 2), (40, 5), (300, 20)])
    func budgets(rules: Int, samples: Int) throws {
        let report = Self.report(rules: rules, samples: samples)
        let full = MarkdownReporter(maxBytes: Int.max / 2).render(report)
        #expect(!full.contains("… and"), "nothing is cut without a budget")
        for limit in [256, 400, 700, 1_000, 2_000, 4_096, 10_000, 30_000, 65_536, 200_000] {
            let text = MarkdownReporter(maxBytes: limit).render(report)
            #expect(text.utf8.count <= limit, "limit \(limit): \(text.utf8.count) bytes")
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if text.utf8.count < full.utf8.count {
                #expect(text.contains("… and "), "limit \(limit): cut without saying so")
            } else {
                #expect(text == full)
            }
            // Rules: rows shown + "… and N more violated rules" == rules, when the table is there.
            if text.contains("### Rules with violations") {
                let rows = lines.filter { $0.hasPrefix("| **failed** | rule") }.count
                let more = Self.number(in: text, after: "… and ", before: " more violated rule") ?? 0
                #expect(rows + more == rules, "limit \(limit): \(rows) rows + \(more) more")
            }
            // Samples: per rule, rows shown + "… and N more samples" == samples kept.
            var shown = 0
            for part in text.components(separatedBy: "<details>").dropFirst() {
                let block = part.components(separatedBy: "</details>")[0]
                let rows = block.split(separator: "\n").filter { $0.hasPrefix("| people.csv") }.count
                let more = Self.number(in: block, after: "… and ", before: " more sample") ?? 0
                #expect(rows >= 1 && rows + more == samples, "limit \(limit): \(rows) + \(more)")
                shown += 1
            }
            if let left = Self.number(in: text, after: "… and ", before: " more rule") {
                #expect(shown + left == rules, "limit \(limit): \(shown) sample tables + \(left) more")
            } else if text.contains("### Samples") {
                #expect(shown == rules)
            }
        }
    }

    /// The integer between `after` and `before` (grouping commas allowed), if any.
    static func number(in text: String, after: String, before: String) -> Int? {
        guard let end = text.range(of: before) else { return nil }
        guard let start = text[..<end.lowerBound].range(of: after, options: .backwards) else { return nil }
        return Int(text[start.upperBound..<end.lowerBound].replacingOccurrences(of: ",", with: ""))
    }
}
