import Auditor
@testable import AuditorReports
import Testing

/// Every fixture rendered as plain text, coloured text and JSON, compared with its golden file.
@Suite("Golden reports")
struct GoldenTests {
    @Test("text, colour off", arguments: Fixture.all)
    func plainText(_ fixture: Fixture) {
        Golden.check(TextReporter(color: false).render(fixture.report), named: "\(fixture.name).txt")
    }

    @Test("text, colour on", arguments: Fixture.all)
    func coloredText(_ fixture: Fixture) {
        Golden.check(TextReporter(color: true).render(fixture.report), named: "\(fixture.name).color.txt")
    }

    @Test("text, verbose", arguments: [Fixture.failing, Fixture.hostile, Fixture.tolerated, Fixture.baseline])
    func verboseText(_ fixture: Fixture) {
        Golden.check(TextReporter(verbose: true).render(fixture.report), named: "\(fixture.name).verbose.txt")
    }

    @Test("text, Unicode trends")
    func unicodeText() {
        Golden.check(TextReporter(unicode: true).render(Fixture.baseline.report), named: "baseline.unicode.txt")
    }

    @Test("json", arguments: Fixture.all)
    func json(_ fixture: Fixture) {
        Golden.check(JSONReporter().render(fixture.report), named: "\(fixture.name).json")
    }

    @Test("html", arguments: Fixture.all)
    func html(_ fixture: Fixture) {
        Golden.check(HTMLReporter().render(fixture.report), named: "\(fixture.name).html")
    }

    @Test("junit", arguments: Fixture.all)
    func junit(_ fixture: Fixture) {
        Golden.check(JUnitReporter().render(fixture.report), named: "\(fixture.name).junit.xml")
    }

    @Test("sarif", arguments: Fixture.all)
    func sarif(_ fixture: Fixture) {
        Golden.check(SARIFReporter().render(fixture.report), named: "\(fixture.name).sarif")
    }

    @Test("github annotations and job summary", arguments: Fixture.all)
    func github(_ fixture: Fixture) {
        Golden.check(GitHubReporter().render(fixture.report), named: "\(fixture.name).github.txt")
        Golden.check(GitHubReporter().summaryMarkdown(fixture.report), named: "\(fixture.name).github.md")
    }

    @Test("failures-out lines", arguments: Fixture.all)
    func failures(_ fixture: Fixture) {
        Golden.check(fixture.report.records.map(FailuresJSONL.line).joined(), named: "\(fixture.name).failures.jsonl")
        Golden.check(FailuresCSV.header + fixture.report.records.map { FailuresCSV.rows($0, formulaEscape: true) }.joined(),
                     named: "\(fixture.name).failures.csv")
    }

    @Test("rendering is deterministic")
    func deterministic() {
        for fixture in Fixture.all {
            #expect(TextReporter(color: true, verbose: true).render(fixture.report)
                    == TextReporter(color: true, verbose: true).render(fixture.report))
            #expect(JSONReporter().render(fixture.report) == JSONReporter().render(fixture.report))
            for reporter in [HTMLReporter(), JUnitReporter(), SARIFReporter(), GitHubReporter()] as [any Reporter] {
                #expect(reporter.render(fixture.report) == reporter.render(fixture.report), "\(reporter.format)")
            }
        }
    }
}
