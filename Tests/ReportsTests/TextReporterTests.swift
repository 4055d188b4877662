import Auditor
import Foundation
@testable import AuditorReports
import Testing

@Suite("Text reporter")
struct TextReporterTests {
    /// `text` without the SGR sequences the reporter emits.
    static func strippingColor(_ text: String) -> String {
        text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    }

    static func lines(_ text: String) -> [Substring] { text.split(separator: "\n", omittingEmptySubsequences: false) }

    @Test("colour adds only SGR sequences; without colour there is no escape byte", arguments: Fixture.all)
    func colorIsOnlyDecoration(_ fixture: Fixture) {
        for verbose in [false, true] {
            let plain = TextReporter(color: false, verbose: verbose).render(fixture.report)
            let colored = TextReporter(color: true, verbose: verbose).render(fixture.report)
            #expect(!plain.unicodeScalars.contains("\u{1B}"))
            #expect(colored.contains("\u{1B}["))
            #expect(Self.strippingColor(colored) == plain)
        }
    }

    @Test("data cannot forge lines or terminal escapes", arguments: [false, true])
    func hostileDataIsEscaped(_ color: Bool) {
        let text = Self.strippingColor(TextReporter(color: color, verbose: true).render(Fixture.hostile.report))
        let controls = text.unicodeScalars.filter { $0 != "\n" && TerminalText.needsEscape($0) }
        #expect(controls.isEmpty, "raw controls: \(controls.map { String($0.value, radix: 16) })")
        for line in Self.lines(text) {
            #expect(!line.drop { $0 == " " }.hasPrefix("::"), "forged workflow command: \(line)")
            #expect(!line.hasPrefix("Result: passed"), "forged verdict: \(line)")
        }
        #expect(text.contains(#"got 'x\n::error file=app.swift,line=1::forged annotation'"#))
        #expect(text.contains(#"\u{1B}[2J\u{1B}[1;32mpassed\u{1B}[0m"#))
        #expect(text.contains(#"invoice\u{202E}fdp.exe\u{FEFF}"#))
        #expect(text.contains("👩‍👩‍👧 🦄 café 𝄞"))
        #expect(text.contains("value '••••'"))
    }

    @Test("every violated rule is listed with its exact count and rate")
    func everyViolatedRule() {
        let text = TextReporter().render(Fixture.failing.report)
        for rule in Fixture.failing.report.violatedRules {
            let row = Self.lines(text).first { $0.contains(" \(rule.id) ") && $0.contains(" of ") }
            #expect(row?.contains("\(NumberText.grouped(rule.violations)) of "
                                  + "\(NumberText.grouped(rule.evaluated)) records") == true, "\(rule.id)")
        }
        #expect(text.contains("14 of 2,000 records (0.70%)"))
        #expect(text.contains("... 11 more (3 of 14 shown; raise --max-samples to see more)"))
        #expect(text.contains("passed   4 rules: person.id.required, person.id.unique, person.age.range, "
                              + "person.birthdate.type"))
    }

    @Test("an incomplete input is loud and never passes")
    func incompleteIsLoud() throws {
        var report = Fixture.passing.report
        report.inputs[0].complete = false
        report.inputs[0].records = 1200
        let text = TextReporter().render(report)
        let lines = Self.lines(text)
        #expect(lines[0].contains(": INCOMPLETE, 1 of 1 input not read completely"))
        #expect(lines[1] == "people.csv: error: INCOMPLETE: reading stopped after 1,200 records, findings cover "
                + "only those: the reader gave no reason")
        let result = try #require(lines.last { !$0.isEmpty })
        #expect(result.hasPrefix("Result: INCOMPLETE: people.csv not read completely, so this audit cannot pass"))
        #expect(!lines[0].contains("passed") && !result.contains("passed"))
        #expect(text.contains("INCOMPLETE: the reader gave no reason"))
    }

    @Test("passing run: short summary")
    func passingIsShort() {
        let text = TextReporter().render(Fixture.passing.report)
        #expect(Self.lines(text).count <= 8)
        #expect(text.hasPrefix("auditor 0.1.0: rules/people.yml: passed, 6 rules, 2,000 records, no findings\n"))
        #expect(text.hasSuffix("Result: passed (exit 0): no rule violated\n"))
    }

    @Test("result line for each threshold", arguments: [
        (FailThreshold.error, Severity.warning, "Result: passed (exit 0): 1 rule violated, none at severity error (--fail-on error)"),
        (.warning, .warning, "Result: FAILED (exit 1): 1 rule violated at severity warning or error (--fail-on warning)"),
        (.error, .error, "Result: FAILED (exit 1): 1 rule violated at severity error (--fail-on error)"),
        (.never, .error, "Result: passed (exit 0): 1 rule violated, none fail with --fail-on never"),
        (.warning, .info, "Result: passed (exit 0): 1 rule violated, none at severity warning or error (--fail-on warning)"),
    ])
    func resultLine(_ failOn: FailThreshold, _ severity: Severity, _ expected: String) {
        var report = Fixture.passing.report
        report.failOn = failOn
        report.rules[3].severity = severity
        report.rules[3].violations = 2
        #expect(Self.lines(TextReporter().render(report)).last { !$0.isEmpty }.map(String.init) == expected)
    }

    @Test("rules that no entity lists are still reported, under their source")
    func orphanRules() {
        var report = Fixture.failing.report
        report.entities[0].ruleIDs.removeFirst()  // csv.row.ragged@people
        let text = TextReporter().render(report)
        #expect(text.contains("source people (people.csv): 2,000 records, 1 violation\n  error    csv.row.ragged@people"))
    }

    @Test("terminal escaping", arguments: [
        ("plain text", "plain text"),
        ("a\nb\rc\td", #"a\nb\rc\td"#),
        ("\u{0}\u{7}\u{1B}[31m\u{7F}", #"\u{0}\u{7}\u{1B}[31m\u{7F}"#),
        ("\u{85}\u{9B}", #"\u{85}\u{9B}"#),
        ("x\u{2028}y\u{2029}", #"x\u{2028}y\u{2029}"#),
        ("\u{202E}\u{2066}\u{200F}\u{FEFF}", #"\u{202E}\u{2066}\u{200F}\u{FEFF}"#),
        ("C:\\data \"q\" 'q' 🦄 é", "C:\\data \"q\" 'q' 🦄 é"),
    ])
    func escaping(_ input: String, _ expected: String) {
        #expect(TerminalText.escaped(input) == expected)
    }

    @Test("numbers", arguments: [(0, "0"), (999, "999"), (1000, "1,000"), (2_000_000, "2,000,000"), (-1234567, "-1,234,567")])
    func grouping(_ value: Int, _ expected: String) {
        #expect(NumberText.grouped(value) == expected)
    }

    @Test("rates", arguments: [
        (0, 0, "0.00%"), (0, 10, "0.00%"), (14, 2000, "0.70%"), (1, 3, "33.33%"), (2, 3, "66.67%"),
        (1, 1_000_000, "<0.01%"), (999_999, 1_000_000, ">99.99%"), (5, 5, "100.00%"),
    ])
    func rates(_ count: Int, _ total: Int, _ expected: String) {
        #expect(NumberText.percent(count, of: total) == expected)
    }

    @Test("sizes", arguments: [(Int64(0), "0 bytes"), (1, "1 byte"), (1023, "1023 bytes"), (1024, "1.0 KiB"),
                               (1_258_291, "1.2 MiB"), (5_368_709_120, "5.0 GiB")])
    func sizes(_ bytes: Int64, _ expected: String) {
        #expect(NumberText.bytes(bytes) == expected)
    }

    @Test("timestamps", arguments: [
        (0.0, "1970-01-01T00:00:00.000Z"), (1_795_140_000.0, "2026-11-20T02:00:00.000Z"),
        (1_709_164_800.25, "2024-02-29T00:00:00.250Z"), (-1.0, "1969-12-31T23:59:59.000Z"),
        (951_782_400.0, "2000-02-29T00:00:00.000Z"), (4_102_444_799.999, "2099-12-31T23:59:59.999Z"),
    ])
    func timestamps(_ seconds: Double, _ expected: String) {
        #expect(NumberText.iso8601(Date(timeIntervalSince1970: seconds)) == expected)
    }
}
