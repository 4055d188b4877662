import Auditor
@testable import Reports
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

    @Test("text, verbose", arguments: [Fixture.failing, Fixture.hostile])
    func verboseText(_ fixture: Fixture) {
        Golden.check(TextReporter(verbose: true).render(fixture.report), named: "\(fixture.name).verbose.txt")
    }

    @Test("json", arguments: Fixture.all)
    func json(_ fixture: Fixture) {
        Golden.check(JSONReporter().render(fixture.report), named: "\(fixture.name).json")
    }

    @Test("rendering is deterministic")
    func deterministic() {
        for fixture in Fixture.all {
            #expect(TextReporter(color: true, verbose: true).render(fixture.report)
                    == TextReporter(color: true, verbose: true).render(fixture.report))
            #expect(JSONReporter().render(fixture.report) == JSONReporter().render(fixture.report))
        }
    }
}
