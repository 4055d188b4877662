import Auditor
import AuditorHistory
import Foundation
import AuditorReaders
import AuditorReports
import Testing

/// ``AuditSession`` without the binary: what `auditor run` does, as a library call.
@Suite("AuditSession")
struct AuditSessionTests {
    @Test("A plain run: counts per rule, exit 1 with its reason, nothing recorded, no notes")
    func plainRun() throws {
        let folder = try Folder()
        defer { folder.remove() }
        try folder.write("rules.yml", Session.rules(data: "people.csv"))
        try folder.write("people.csv", Session.night1)
        let outcome = try AuditSession(Session.request(folder)).run()
        let v = Session.violations(outcome)
        #expect(v["P.name.minLength"] == 2)
        #expect(v["P.age.type"] == 1)
        #expect(v["P.city.maxLength"] == 1)
        #expect(outcome.report.totalRecords == 4)
        #expect(outcome.exitStatus == .ruleFailures)
        #expect(outcome.reasons() == [AuditOutcome.Reason(status: .ruleFailures,
                                                         message: "2 rules failed at the failing severity: P.name.minLength, P.age.type")])
        #expect(outcome.report.historyRun == nil && outcome.report.baseline == nil && outcome.report.fingerprints == nil)
        #expect(outcome.notes.isEmpty && outcome.historyError == nil)
    }

    @Test("--source replaces a source's path; --previous and --source check names, with a suggestion")
    func overrides() throws {
        let folder = try Folder()
        defer { folder.remove() }
        try folder.write("rules.yml", Session.rules(data: "people.csv"))
        try folder.write("people.csv", Session.night1)
        try folder.write("tonight.csv", Session.clean)
        var request = Session.request(folder)
        request.sources = [.init(name: "people", path: folder.path("tonight.csv"))]
        let outcome = try AuditSession(request).run()
        #expect(outcome.report.inputs.map(\.path) == [folder.path("tonight.csv")])
        #expect(outcome.report.totalRecords == 3)
        #expect(outcome.exitStatus == .passed)
        #expect(outcome.reasons().isEmpty)

        request.sources = [.init(name: "peple", path: folder.path("tonight.csv"))]
        let error = #expect(throws: AuditError.self) { try AuditSession(request).run() }
        #expect(error?.code == .usage)
        #expect(error?.message == "--source names an unknown source 'peple'; did you mean 'people'?")
        request.sources = []
        request.previous = [.init(name: "nobody", path: folder.path("people.csv"))]
        let previous = #expect(throws: AuditError.self) { try AuditSession(request).run() }
        #expect(previous?.message == "--previous names an unknown source 'nobody' (sources: people, other)")
    }

    @Test("A compiled plan runs like its rules file")
    func planRequest() throws {
        let folder = try Folder()
        defer { folder.remove() }
        try folder.write("rules.yml", Session.rules(data: "people.csv"))
        try folder.write("people.csv", Session.night1)
        let plan = try AuditSession.loadPlan(folder.path("rules.yml"), registry: StandardReaders.registry,
                                             structuralRules: StandardReaders.structuralRules)
        var request = Session.request(folder)
        let fromFile = try AuditSession(request).run()
        request.rules = .plan(plan)
        let fromPlan = try AuditSession(request).run()
        #expect(Session.violations(fromPlan) == Session.violations(fromFile))
        #expect(fromPlan.report.rules.map(\.samples) == fromFile.report.rules.map(\.samples))
    }

    @Test("Baseline from a JSON report: new, existing and resolved; the baseline may be the report it replaces")
    func baselineFromReport() throws {
        let folder = try Folder()
        defer { folder.remove() }
        try folder.write("rules.yml", Session.rules(data: "people.csv"))
        try folder.write("people.csv", Session.night1)
        var request = Session.request(folder)
        request.collectFingerprints = true
        let first = try AuditSession(request).run()
        try folder.write("report.json", JSONReporter().render(first.report))

        try folder.write("people.csv", Session.night2)
        request.baseline = JSONReportBaseline(path: folder.path("report.json"))
        request.outputs = [.init(option: "--output", path: folder.path("report.json"), what: "the report")]
        let second = try AuditSession(request).run()
        let info = try #require(second.report.baseline)
        #expect(info.source == folder.path("report.json"))
        // Short names: 3 existing, 5 new, 1 resolved; the bad age resolved; the long city existing.
        #expect((info.newFindings, info.existingFindings, info.resolvedFindings) == (1, 2, 2))
        let short = try #require(second.report.rules.first { $0.id == "P.name.minLength" })
        #expect(short.baseline == RuleBaseline(new: 1, existing: 1, resolved: 1))
        #expect(second.report.rules.first { $0.id == "P.age.type" }?.baseline == RuleBaseline(new: 0, existing: 0, resolved: 1))

        // A missing baseline stops the run before any data is read (66).
        request.baseline = JSONReportBaseline(path: folder.path("nothing.json"))
        let missing = #expect(throws: AuditError.self) { try AuditSession(request).run() }
        #expect(missing?.code.exitStatus == .noInput)
    }

    @Test("--fail-on and --fail-on-new: which rules fail the run, and a gate without a baseline is a usage error")
    func failOnPrecedence() throws {
        let folder = try Folder()
        defer { folder.remove() }
        try folder.write("rules.yml", Session.rules(data: "people.csv"))
        try folder.write("people.csv", Session.clean)
        var request = Session.request(folder)
        #expect(try AuditSession(request).run().exitStatus == .passed)       // only a warning
        request.failOn = .warning
        let warning = try AuditSession(request).run()
        #expect(warning.exitStatus == .ruleFailures)
        #expect(warning.reasons().map(\.message) == ["1 rule failed at the failing severity: P.city.maxLength"])
        request.failOn = .never
        try folder.write("people.csv", Session.night1)
        #expect(try AuditSession(request).run().exitStatus == .passed)

        request.failOn = .error
        request.failOnNew = true
        let gate = #expect(throws: AuditError.self) { try AuditSession(request).run() }
        #expect(gate?.code == .usage)
        #expect(gate?.message.hasPrefix("--fail-on-new needs a baseline") == true)

        // Against a baseline of the same data nothing is new: passed. New data with a new short name fails.
        var collect = Session.request(folder)
        collect.collectFingerprints = true
        let same = try AuditSession(collect).run().report.fingerprints
        request.baseline = MemoryBaseline(set: try #require(same))
        let unchanged = try AuditSession(request).run()
        #expect(unchanged.exitStatus == .passed)
        #expect(unchanged.report.failOnNew && unchanged.report.baseline?.source == "memory")
        try folder.write("people.csv", Session.night2)
        let changed = try AuditSession(request).run()
        #expect(changed.exitStatus == .ruleFailures)
        #expect(changed.reasons().map(\.message) == ["1 rule with new findings failed at the failing severity: P.name.minLength"])
    }

    @Test("History: runs recorded, trends, the last run as baseline, notes; the file is the same the CLI writes")
    func historyRecorded() throws {
        let folder = try Folder()
        defer { folder.remove() }
        try folder.write("rules.yml", Session.rules(data: "people.csv", history: "audits.sqlite"))
        var request = Session.request(folder)
        var outcomes = [AuditOutcome]()
        for data in [Session.night1, Session.night2, Session.night2] {
            try folder.write("people.csv", data)
            outcomes.append(try AuditSession(request).run())
        }
        #expect(outcomes.map(\.report.historyRun) == [1, 2, 3])
        #expect(outcomes.map { $0.historyError == nil } == [true, true, true])
        // The rules file's `history:` resolves against its folder.
        #expect(outcomes[0].notes == ["auditor: recorded run 1 in \(folder.path("audits.sqlite"))"])
        #expect(outcomes[1].notes.first?.hasSuffix("), 1 new, 2 resolved") == true)
        #expect(outcomes[2].notes.first?.hasSuffix("), 0 new, 0 resolved") == true)
        #expect(outcomes[2].report.rules.first { $0.id == "P.name.minLength" }?.trend?.counts == [2, 2, 2])
        #expect(outcomes[2].details.count == 1)
        let store = try HistoryStore(path: folder.path("audits.sqlite"), access: .readOnly)
        #expect(try store.runCount() == 3)
        let runs = try store.runs(last: 3)
        #expect(runs.map(\.records) == [4, 5, 5])
        #expect(runs.map { $0.inputs.first?.sha256 } == [Session.night1, Session.night2, Session.night2].map { Digest.sha256Hex($0) })

        // --no-history and --history PATH override the rules file.
        request.history = .none
        #expect(try AuditSession(request).run().report.historyRun == nil)
        request.history = .path(folder.path("other.sqlite"))
        #expect(try AuditSession(request).run().report.historyRun == 1)
        #expect(try HistoryStore(path: folder.path("audits.sqlite"), access: .readOnly).runCount() == 3)
    }

    @Test("The history plug-in is called in order; a failing history is reported after input errors, before rule failures")
    func historyPlugIn() throws {
        let folder = try Folder()
        defer { folder.remove() }
        try folder.write("rules.yml", Session.rules(data: "people.csv", history: "h.db"))
        try folder.write("people.csv", Session.night1)
        let memory = MemoryHistory(path: "h.db")
        var request = Session.request(folder)
        request.historyFactory = { _ in memory }
        let first = try AuditSession(request).run()
        #expect(memory.calls == ["recentCounts(7)", "lastRun", "record"])
        #expect(first.report.historyRun == 1)
        #expect(memory.runs.first?.rules.map(\.violations) == first.report.rules.map(\.violations))
        #expect(memory.runs.first?.fingerprints == first.report.fingerprints)

        memory.failure = AuditError(.transient, "locked", location: "h.db")
        let locked = try AuditSession(request).run()
        #expect(locked.historyError?.code == .transient)
        #expect(locked.report.historyRun == nil)
        #expect(locked.exitStatus == .temporaryFailure)
        #expect(locked.reasons().map(\.status) == [.temporaryFailure, .ruleFailures])
        // A report that could not be written decides before the history.
        let write = AuditError(.cannotCreateOutput, "cannot create the report", location: "out/r.json")
        #expect(locked.exitStatus(writeErrors: [write]) == .cannotCreate)

        // An input that cannot be read decides before the history.
        try FileManager.default.removeItem(atPath: folder.path("people.csv"))
        let missing = try AuditSession(request).run()
        #expect(missing.reasons().map(\.status).prefix(2) == [.noInput, .temporaryFailure])
        #expect(missing.exitStatus == .noInput)

        // Without a plug-in, a rules file that names a history is a usage error, before any data is read.
        request.historyFactory = nil
        let none = #expect(throws: AuditError.self) { try AuditSession(request).run() }
        #expect(none?.code == .usage)
    }

    @Test("Outputs and the history never reach an input, the rules file or each other (64, before any data is read)")
    func protectedFiles() throws {
        let folder = try Folder()
        defer { folder.remove() }
        try folder.write("rules.yml", Session.rules(data: "people.csv"))
        try folder.write("people.csv", Session.night1)
        var request = Session.request(folder)
        request.history = .path(folder.path("people.csv"))
        let history = #expect(throws: AuditError.self) { try AuditSession(request).run() }
        #expect(history?.message.hasPrefix("the history '\(folder.path("people.csv"))' is also an input of this audit") == true)

        request.history = .none
        request.outputs = [.init(option: "--output", path: folder.path("rules.yml"), what: "the report")]
        let rules = #expect(throws: AuditError.self) { try AuditSession(request).run() }
        #expect(rules?.code == .usage)

        request.outputs = [.init(option: "--output", path: folder.path("r.json"), what: "the report"),
                           .init(option: "--report", path: folder.url.path + "/./r.json", what: "the report")]
        let twice = #expect(throws: AuditError.self) { try AuditSession(request).run() }
        #expect(twice?.message == "--report '\(folder.url.path)/./r.json' is the same file as --output '\(folder.path("r.json"))'; give each report a file of its own")
        #expect(try Data(contentsOf: folder.url.appendingPathComponent("people.csv")) == Data(Session.night1.utf8))
    }
}
