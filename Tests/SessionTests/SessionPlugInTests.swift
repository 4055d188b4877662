import Auditor
import Foundation
import AuditorReaders
import AuditorReports
import Testing

/// What else a request carries into the audit: Swift hooks, the failures file, the locale.
@Suite("AuditSession plug-ins")
struct SessionPlugInTests {
    @Test("Swift hooks in the request run in the audit like YAML rules")
    func hooks() throws {
        let folder = try Folder()
        defer { folder.remove() }
        try folder.write("rules.yml", Session.rules(data: "people.csv"))
        try folder.write("people.csv", Session.night1)
        var request = Session.request(folder)
        request.hooks.add(RecordValidator(id: "P.adult", attributes: ["age"], message: "{age} is too young") { r in
            (r.integer("age") ?? 99) >= 35
        }, to: "P")
        let outcome = try AuditSession(request).run()
        let rule = try #require(outcome.report.rules.first { $0.id == "P.adult" })
        #expect(rule.violations == 1)      // 30; 'x' is no integer, 40 and 41 pass
        #expect(outcome.reasons().last?.message.hasSuffix("P.adult") == true)
    }

    @Test("The finding sink is made after the checks, receives every failing record, and is handed back")
    func failuresFile() throws {
        let folder = try Folder()
        defer { folder.remove() }
        try folder.write("rules.yml", Session.rules(data: "people.csv"))
        try folder.write("people.csv", Session.night1)
        var request = Session.request(folder)
        var protectedSeen: ProtectedFiles?
        request.findingSink = { protected in
            protectedSeen = protected
            return try FailuresFile(path: folder.path("failures.jsonl"), protecting: protected)
        }
        let outcome = try AuditSession(request).run()
        let sink = try #require(outcome.findingSink as? FailuresFile)
        #expect(sink.records == 4)
        let lines = String(decoding: try folder.read("failures.jsonl"), as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 4)
        #expect(protectedSeen?.entry(reachedBy: folder.path("people.csv"))?.role == "the input of source 'people'")
        #expect(protectedSeen?.entry(reachedBy: folder.path("rules.yml"))?.role == "the rules file")

        // A sink that would write an input is refused before the audit, and nothing is written.
        request.findingSink = { try FailuresFile(path: folder.path("people.csv"), protecting: $0) }
        #expect(throws: AuditError.self) { try AuditSession(request).run() }
        #expect(try folder.read("people.csv") == Data(Session.night1.utf8))
    }

    @Test("The locale is looked up beside the rules file; an unknown one is a usage error naming what exists")
    func locale() throws {
        let folder = try Folder()
        defer { folder.remove() }
        try folder.write("rules.yml", Session.rules(data: "people.csv"))
        try folder.write("people.csv", Session.night1)
        var request = Session.request(folder)
        request.locale = "en"
        #expect(try AuditSession(request).run().exitStatus == .ruleFailures)
        request.locale = "fr"
        let error = #expect(throws: AuditError.self) { try AuditSession(request).run() }
        #expect(error?.code == .usage)
        #expect(error?.message.hasPrefix("no message catalog for locale 'fr'") == true)
    }
}
