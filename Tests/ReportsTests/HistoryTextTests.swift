import Auditor
import Foundation
@testable import AuditorReports
import Testing

/// `auditor history`'s renderers on hand-made histories: sparklines, columns, the source of a
/// repeated structural rule id, and hostile text from an edited database.
@Suite("History text and JSON")
struct HistoryTextTests {
    static func run(_ id: Int, outcome: String = "failed", new: Int? = nil) -> HistoryRun {
        var r = HistoryRun(id: id, startedAt: "2026-11-2\(id)T02:00:00Z", durationSeconds: 1.5, toolVersion: "0.1.0",
                           rulesFile: "rules.yml", rulesSHA256: "ab", outcome: outcome, exitStatus: 1, failOn: "error",
                           records: 100 * id, baselineSource: new == nil ? nil : "history run \(id - 1) (x)", inputs: [])
        r.violations = 10 * id
        r.newFindings = new
        r.resolvedFindings = new.map { _ in 0 }
        return r
    }

    static func rule(_ id: String, source: String = "people", _ counts: [Int], median: Double? = nil,
                     jumped: Bool = false, new: Int? = nil) -> RuleHistory {
        var points = counts.enumerated().map { RuleHistoryPoint(run: $0.offset + 1, evaluated: 100, violations: $0.element,
                                                                 skipped: 0, status: "violated") }
        points[points.count - 1].median = median
        points[points.count - 1].jumped = jumped
        points[points.count - 1].baseline = new.map { RuleBaseline(new: $0, existing: 0, resolved: 0) }
        return RuleHistory(id: id, source: source, entity: "P", severity: "error", code: 1670, points: points)
    }

    @Test func sparklines() {
        #expect(Sparkline.render([]) == "")
        #expect(Sparkline.render([0, 0, 0]) == "▁▁▁")
        #expect(Sparkline.render([0, 1, 2, 3, 4, 5, 6, 7]) == "▁▃▄▅▅▆▇█")   // zero alone is the lowest bar
        #expect(Sparkline.render([100, 101, 102]) == "███")           // from zero, not from the minimum
        #expect(Sparkline.render([1, 1000]) == "▂█")                   // a sliver never reads as none
        #expect(Sparkline.render([0, 1, 2, 3, 4, 5, 6, 7], ascii: true) == "_-~==+*#")
        #expect(Sparkline.render([-5, 5]) == "▁█")
    }

    @Test func columnsMediansAndRepeatedIDs() {
        let history = HistoryOverview(path: "audits.sqlite", totalRuns: 3, runs: [Self.run(2, new: 4), Self.run(3, outcome: "incomplete")],
                                      rules: [Self.rule("P.name.minLength", [4, 9], median: 2.5, jumped: true, new: 5),
                                              Self.rule("csv.row.ragged", [0, 1]),
                                              Self.rule("csv.row.ragged", source: "departments", [0, 0], median: 0)])
        #expect(HistoryText().render(history).split(separator: "\n", omittingEmptySubsequences: false) == [
            "History of audits.sqlite: last 2 of 3 runs, oldest first",
            "",
            "RULE                          TREND  COUNTS  MEDIAN  LATEST  NEW",
            "P.name.minLength              ▅█     4 9     2.5     9       5    JUMPED",
            "csv.row.ragged (people)       ▁█     0 1     -       1       -",
            "csv.row.ragged (departments)  ▁▁     0 0     0       0       -",
            "",
            "RUN  STARTED               OUTCOME     RECORDS  VIOLATIONS  NEW  RESOLVED",
            "2    2026-11-22T02:00:00Z  failed      200      20          4    0",
            "3    2026-11-23T02:00:00Z  incomplete  300      30          -    -",
            "",
            "MEDIAN: of up to 7 complete runs before the latest. JUMPED: the latest run is at least 50% and 5 violations "
                + "above it (needs 3 earlier runs). NEW: findings not in the run's baseline.",
            "",
        ])
        #expect(HistoryText().render(HistoryOverview(path: "h.sqlite", totalRuns: 0, runs: [], rules: []))
                == "History of h.sqlite: no runs recorded yet\n")
    }

    @Test func hostileTextFromAnEditedDatabaseIsEscaped() throws {
        var run = Self.run(1)
        run.outcome = "passed\n::error::forged"
        run.startedAt = "\u{1B}[2J2026"
        let history = HistoryOverview(path: "a\rb.sqlite", totalRuns: 1, runs: [run],
                                      rules: [Self.rule("x\u{1B}[31m\nResult: PASSED", [1])])
        let text = HistoryText().render(history)
        #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0 == "\r" })
        #expect(!text.split(separator: "\n").contains { $0.hasPrefix("::error") || $0.hasPrefix("Result:") })
        #expect(text.contains("x\\u{1B}[31m\\nResult: PASSED") && text.contains("passed\\n::error::forged"))

        let json = HistoryJSON().render(history)
        #expect(!json.unicodeScalars.contains { $0.value == 0x1B || $0 == "\r" })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let rules = try #require(object["rules"] as? [[String: Any]])
        #expect(rules.first?["id"] as? String == "x\u{1B}[31m\nResult: PASSED")      // lossless
        #expect(rules.first?["source"] as? String == "people")
        #expect((object["runs"] as? [[String: Any]])?.first?["outcome"] as? String == "passed\n::error::forged")
    }
}
