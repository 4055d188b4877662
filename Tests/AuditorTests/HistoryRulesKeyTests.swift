import Auditor
import Testing

/// `history:` in the rules file, and the timestamp form the history stores.
@Suite struct HistoryRulesKeyTests {
    func rules(_ history: String) -> String {
        """
        version: 1
        history: \(history)
        sources: { t: { path: t.csv } }
        entities:
          E:
            attributes: { id: integer }
        """
    }

    func parse(_ text: String, path: String = "rules/people.yml") throws -> RulesSpec {
        try RulesFileParser(formats: ["csv"]).parse(text, path: path)
    }

    @Test func pathIsRelativeToTheRulesFileAndReachesThePlan() throws {
        #expect(try parse(rules("audits.sqlite")).history == "rules/audits.sqlite")
        #expect(try parse(rules("../history/audits.sqlite")).history == "history/audits.sqlite")
        #expect(try parse(rules("/var/lib/auditor/audits.sqlite")).history == "/var/lib/auditor/audits.sqlite")
        #expect(try parse(rules("audits.sqlite"), path: "people.yml").history == "audits.sqlite")
        #expect(try parse(rules("\"true\"")).history == "rules/true")      // quoted: a file name
        let plan = try RuleCompiler.compile(try parse(rules("audits.sqlite")))
        #expect(plan.historyPath == "rules/audits.sqlite")
        let none = try RuleCompiler.compile(try parse(rules("x").replacingOccurrences(of: "history: x\n", with: "")))
        #expect(none.historyPath == nil)
    }

    @Test(arguments: [
        ("[a.sqlite]", "history must be the path of the history database, not a list"),
        ("{ path: a.sqlite }", "history must be the path of the history database, not a mapping"),
        ("", "history needs a file name"),
        ("~", "history needs a file name"),
        ("true", "history must be the path of the history database, not 'true'"),
    ])
    func notAPathIsALocatedError(_ value: String, _ message: String) throws {
        do {
            _ = try parse(rules(value))
            Issue.record("'\(value)' was accepted")
        } catch let e as AuditError {
            let d = try #require(e.diagnostics.first)
            #expect(e.diagnostics.count == 1)
            #expect(d.message.hasPrefix(message), "\(d.message)")
            #expect(d.mark.file == "rules/people.yml" && d.mark.line == 2)
        }
    }

    @Test func isoDateTime() {
        #expect(CalendarMath.isoDateTime(seconds: 0) == "1970-01-01T00:00:00Z")
        #expect(CalendarMath.isoDateTime(seconds: 1_795_140_000) == "2026-11-20T02:00:00Z")
        #expect(CalendarMath.isoDateTime(seconds: -1) == "1969-12-31T23:59:59Z")
        #expect(CalendarMath.isoDateTime(seconds: 951_782_400 + 86399) == "2000-02-29T23:59:59Z")
    }
}
