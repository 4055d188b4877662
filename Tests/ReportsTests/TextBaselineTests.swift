import Auditor
import Foundation
@testable import AuditorReports
import Testing

/// Baselines and trends in the text report, the sparkline and the charset decision.
@Suite("Text reporter: baseline and trends")
struct TextBaselineTests {
    static func lines(_ report: AuditReport, unicode: Bool = false) -> [String] {
        TextReporter(unicode: unicode).render(report).split(separator: "\n").map(String.init)
    }

    /// The baseline fixture compared with its own fingerprints: every finding existing.
    static var nothingNew: AuditReport {
        var report = Fixture.baseline.report
        report.applyBaseline(report.fingerprints ?? FingerprintSet(), source: "same.json")
        return report
    }

    @Test("failing under --fail-on-new: the verdict names the rules with new findings and the rest")
    func failingVerdict() {
        let lines = Self.lines(Fixture.baseline.report)
        #expect(lines[1] == "Baseline out/baseline.json: 5 new, 18 existing, 6 resolved findings; "
                + "--fail-on-new: only rules with new findings fail the run")
        #expect(lines.contains("    baseline: 5 new, 7 existing, 1 resolved"))
        #expect(lines.last == "Result: FAILED (exit 1): 1 rule with new findings violated at severity error "
                + "(--fail-on error, --fail-on-new); 1 more rule violated at severity error has only findings of the baseline")
    }

    @Test("passing under --fail-on-new although error rules are violated, and failing without it")
    func passingVerdict() {
        var report = Self.nothingNew
        #expect(report.exitStatus == .passed)
        let lines = Self.lines(report)
        #expect(lines[0].contains("passed, 3 of 5 rules violated (none with new findings at severity error)"), "\(lines[0])")
        #expect(lines[1].hasPrefix("Baseline same.json: 0 new, 23 existing, 0 resolved findings; --fail-on-new"))
        #expect(lines.last == "Result: passed (exit 0): no new findings at severity error (--fail-on error, --fail-on-new); "
                + "2 rules violated at severity error have only findings of the baseline")
        #expect(!lines.contains { $0.contains("[") && $0.contains("new]") }, "no finding is marked new")

        report.failOnNew = false
        let plain = Self.lines(report)
        #expect(plain[1] == "Baseline same.json: 0 new, 23 existing, 0 resolved findings")
        #expect(plain.last == "Result: FAILED (exit 1): 2 rules violated at severity error (--fail-on error)")
    }

    @Test("trends: ASCII unless Unicode is allowed; a jump is flagged with its median")
    func trends() {
        let ascii = Self.lines(Fixture.baseline.report)
        #expect(ascii.filter { $0.hasPrefix("    trend: ") }.count == 3, "one per violated rule, none for passing ones")
        #expect(ascii.contains("    trend: =~====~# 5 -> 12 over 8 runs, recent median 5; JUMPED"), "\(ascii)")
        #expect(ascii.contains("History run 12: 1 rule jumped well above its recent median: "
                               + "person.name.length (12 violations, recent median 5)"))
        #expect(TextReporter().render(Fixture.baseline.report).unicodeScalars.allSatisfy { $0.isASCII })
        let unicode = Self.lines(Fixture.baseline.report, unicode: true)
        #expect(unicode.contains("    trend: ▅▄▅▅▅▅▄█ 5 → 12 over 8 runs, recent median 5; JUMPED"), "\(unicode)")
    }

    @Test("a hostile baseline source and missing rule are escaped like any data")
    func hostileSource() {
        var report = Fixture.baseline.report
        report.baseline?.source = "evil\n::error::forged\u{1B}[2J"
        report.baseline?.missingRules = ["gone\r\nResult: passed"]
        let text = TextReporter().render(report)
        #expect(text.contains(#"Baseline evil\n::error::forged\u{1B}[2J: 5 new"#))
        #expect(text.contains(#"not in this run: gone\r\nResult: passed (its"#))
        #expect(!text.contains("\u{1B}") && !text.contains("\r"))
    }

    @Test("sparkline levels: zero is the lowest, any count above zero is above it, the largest is the top",
          arguments: [
              ([0, 0, 0], [0, 0, 0]), ([2, 2], [7, 7]), ([0, 1, 100], [0, 1, 7]), ([1, 2, 3, 4], [3, 4, 6, 7]),
              ([], []),
          ])
    func levels(_ counts: [Int], _ expected: [Int]) {
        #expect(Sparkline.levels(counts) == expected)
    }

    @Test("only the last 20 runs are drawn")
    func maxRuns() {
        #expect(Sparkline.text(Array(0 ..< 30), unicode: true).count == Sparkline.maxRuns)
    }

    @Test("Unicode follows the locale: LC_ALL, then LC_CTYPE, then LANG; UTF-8 only", arguments: [
        ([:], false), (["LANG": "en_US.UTF-8"], true), (["LANG": "C.utf8"], true), (["LANG": "de_DE.ISO-8859-1"], false),
        (["LC_ALL": "C", "LANG": "en_US.UTF-8"], false), (["LC_ALL": "", "LC_CTYPE": "fr_FR.UTF-8", "LANG": "C"], true),
        (["LC_CTYPE": "POSIX", "LANG": "en_US.UTF-8"], false),
    ])
    func charset(_ environment: [String: String], _ expected: Bool) {
        #expect(TextCharset.allowsUnicode(environment: environment) == expected)
    }
}
