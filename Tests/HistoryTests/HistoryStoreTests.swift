import Auditor
import CSQLite
import Foundation
import TestSupport
import AuditorHistory
import Testing

/// The history database: creation, three (and more) recorded runs read back, baselines from
/// the last run, refusals of files that are not histories, and locking.
@Suite struct HistoryStoreTests {
    /// A report with one input and two rules; `fingerprints` per rule when given.
    static func report(at seconds: Double, short: Int, pattern: Int, complete: Bool = true,
                       fingerprints: [String: [UInt64]]? = nil) -> AuditReport {
        let input = InputSummary(source: "people", path: "data/people.csv", format: "csv", bytes: 1234, records: 10,
                                 complete: complete, error: complete ? nil : "data/people.csv:7: unterminated quote",
                                 errorStatus: complete ? nil : .dataError, seconds: 0.01)
        func rule(_ id: String, _ violations: Int) -> RuleOutcome {
            RuleOutcome(id: id, entity: "P", source: "people", attribute: "name", kind: "minLength", severity: .error,
                        code: 1670, summary: "name has at least 3 characters", evaluated: 10, violations: violations,
                        samples: [])
        }
        var r = AuditReport(toolVersion: "0.1.0", rulesFile: "rules/people.yml",
                            startedAt: Date(timeIntervalSince1970: seconds), durationSeconds: 0.25, failOn: .error,
                            maxSamples: 20, inputs: [input], rules: [rule("P.name.minLength", short), rule("P.name.pattern", pattern)],
                            entities: [], records: [])
        r.fingerprints = fingerprints.map(FingerprintSet.init(byRule:))
        return r
    }

    static let day: Double = 1_795_140_000        // 2026-11-20T02:00:00Z

    @Test func threeRunsRecordedAndReadBack() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("audits.sqlite")
        let store = try HistoryStore(path: path)
        #expect(try store.runCount() == 0)
        #expect(try store.lastFingerprints() == nil)

        let r1 = Self.report(at: Self.day, short: 2, pattern: 0, fingerprints: ["P.name.minLength": [30, 10]])
        var r2 = Self.report(at: Self.day + 86400, short: 3, pattern: 1,
                             fingerprints: ["P.name.minLength": [10, 20, 40], "P.name.pattern": [7]])
        r2.applyBaseline(FingerprintSet(byRule: ["P.name.minLength": [10, 30]]), source: "history run 1 (2026-11-20T02:00:00Z)")
        r2.rules[0].trend = RuleTrend.evaluate(previous: [2], current: 3)
        let r3 = Self.report(at: Self.day + 2 * 86400, short: 9, pattern: 1, fingerprints: [:])
        #expect(try store.record(report: r1, rulesSHA256: "aa", inputHashes: ["data/people.csv": "h1"]) == 1)
        #expect(try store.record(report: r2, rulesSHA256: "aa", inputHashes: ["data/people.csv": "h2"]) == 2)
        #expect(try store.record(report: r3, rulesSHA256: nil, inputHashes: [:]) == 3)

        // A second store (another process, tomorrow) reads what the first wrote.
        let reader = try HistoryStore(path: path, access: .readOnly)
        #expect(try reader.runCount() == 3)
        let runs = try reader.runs(last: 10)
        #expect(runs.map(\.id) == [1, 2, 3])
        #expect(runs.map(\.startedAt) == ["2026-11-20T02:00:00Z", "2026-11-21T02:00:00Z", "2026-11-22T02:00:00Z"])
        #expect(runs.map(\.outcome) == ["failed", "failed", "failed"])
        #expect(runs.map(\.exitStatus) == [1, 1, 1])
        #expect(runs.map(\.rulesSHA256) == ["aa", "aa", nil])
        #expect(runs[1].baselineSource == "history run 1 (2026-11-20T02:00:00Z)")
        #expect(runs[0].inputs == [HistoryInput(source: "people", path: "data/people.csv", format: "csv", bytes: 1234,
                                                sha256: "h1", records: 10, complete: true)])
        #expect(runs.map { $0.inputs.first?.sha256 } == ["h1", "h2", nil])
        #expect(try reader.runs(last: 2).map(\.id) == [2, 3])

        #expect(try reader.recentCounts(rule: "P.name.minLength", last: 7) == [2, 3, 9])
        #expect(try reader.recentCounts(rule: "P.name.minLength", last: 2) == [3, 9])
        #expect(try reader.recentCounts(last: 7) == [HistoryRuleKey(id: "P.name.minLength", source: "people"): [2, 3, 9],
                                                     HistoryRuleKey(id: "P.name.pattern", source: "people"): [0, 1, 1]])

        let trends = try reader.trends(last: 10)
        #expect(trends.map(\.id) == ["P.name.minLength", "P.name.pattern"])
        let short = try #require(trends.first)
        #expect(short.counts == [2, 3, 9] && short.points.map(\.run) == [1, 2, 3])
        #expect(short.points[0].baseline == nil)
        #expect(short.points[1].baseline == RuleBaseline(new: 2, existing: 1, resolved: 1))
        #expect(short.points[1].median == 2 && short.points[1].jumped == false)
        #expect(short.severity == "error" && short.code == 1670 && short.entity == "P")

        // Run 3 kept no fingerprint list (none found) but did collect: it is the baseline.
        let last = try #require(try reader.lastFingerprints())
        #expect(last.runID == 3 && last.startedAt == "2026-11-22T02:00:00Z" && last.fingerprints.count == 0)
        #expect(throws: AuditError.self) { try reader.record(report: r1, rulesSHA256: nil, inputHashes: [:]) }
    }

    @Test func fingerprintsRoundTripAndOnlyTheLastRunsKeepThem() throws {
        let dir = try TemporaryDirectory()
        let store = try HistoryStore(path: dir.path("h.sqlite"))
        let big = (0 ..< 5000).map { UInt64($0) &* 0x9E37_79B9_7F4A_7C15 }
        for n in 0 ..< 5 {
            let r = Self.report(at: Self.day + Double(n) * 86400, short: n, pattern: 0,
                                fingerprints: ["P.name.minLength": big + [UInt64(n)], "P.name.pattern": [UInt64.max, 0]])
            try store.record(report: r, rulesSHA256: nil, inputHashes: [:])
        }
        let last = try #require(try store.lastFingerprints())
        #expect(last.runID == 5)
        #expect(last.fingerprints == FingerprintSet(byRule: ["P.name.minLength": big + [4], "P.name.pattern": [0, UInt64.max]]))
        let db = try TestDatabase(dir.path("h.sqlite"))
        #expect(try db.scalar("SELECT group_concat(id) FROM runs WHERE has_fingerprints = 1") == "3,4,5")
        #expect(try db.scalar("SELECT group_concat(DISTINCT run) FROM fingerprints") == "3,4,5")
        #expect(try db.scalar("SELECT length(data) FROM fingerprints WHERE run = 5 AND rule_id = 'P.name.pattern'") == "16")
        #expect(try db.scalar("SELECT hex(data) FROM fingerprints WHERE run = 5 AND rule_id = 'P.name.pattern'")
                == "0000000000000000FFFFFFFFFFFFFFFF")
    }

    /// Run 1 as an auditor before qualified structural ids recorded it (bare `csv.row.ragged`
    /// in two sources), runs 2 and 3 with `csv.row.ragged@<source>`: each source's counts
    /// continue under its qualified id.
    @Test func structuralRulesAreKeptApartBySourceAcrossTheIDChange() throws {
        let dir = try TemporaryDirectory()
        let store = try HistoryStore(path: dir.path("h.sqlite"))
        for (n, ragged) in [(6, 0), (7, 1), (8, 2)].enumerated() {
            var r = Self.report(at: Self.day + Double(n), short: 0, pattern: 0)
            for (source, count) in [("people", ragged.0), ("departments", ragged.1)] {
                let id = n == 0 ? "csv.row.ragged" : StructuralRuleID.qualified("csv.row.ragged", source: source)
                r.rules.append(RuleOutcome(id: id, entity: nil, source: source, attribute: nil,
                                           kind: "structure", severity: .error, code: 1, summary: "rows have every field",
                                           evaluated: 10, violations: count, samples: []))
            }
            try store.record(report: r, rulesSHA256: nil, inputHashes: [:])
        }
        #expect(try store.recentCounts(rule: "csv.row.ragged", source: "people", last: 7) == [6, 7, 8])
        #expect(try store.recentCounts(rule: "csv.row.ragged@people", last: 7) == [6, 7, 8])
        #expect(try store.recentCounts(rule: "csv.row.ragged@departments", last: 7) == [0, 1, 2])
        let recent = try store.recentCounts(last: 7)
        #expect(recent[HistoryRuleKey(id: "csv.row.ragged@departments", source: "departments")] == [0, 1, 2])
        #expect(recent[HistoryRuleKey(id: "csv.row.ragged", source: "departments")] == nil)
        let ragged = try store.overview(last: 5, rule: "csv.row.ragged").rules
        #expect(ragged.map(\.id) == ["csv.row.ragged@people", "csv.row.ragged@departments"])
        #expect(ragged.map(\.counts) == [[6, 7, 8], [0, 1, 2]])
        let one = try store.overview(last: 5, rule: "csv.row.ragged@departments").rules
        #expect(one.map(\.source) == ["departments"] && one.map(\.counts) == [[0, 1, 2]])
        #expect(throws: AuditError.self) { try store.overview(last: 5, rule: "csv.row.raged") }
    }

    @Test func incompleteRunsStayOutOfTrendsAndBaselines() throws {
        let dir = try TemporaryDirectory()
        let store = try HistoryStore(path: dir.path("h.sqlite"))
        try store.record(report: Self.report(at: Self.day, short: 4, pattern: 0, fingerprints: ["P.name.minLength": [1]]),
                         rulesSHA256: nil, inputHashes: [:])
        try store.record(report: Self.report(at: Self.day + 1, short: 1, pattern: 0, complete: false,
                                             fingerprints: ["P.name.minLength": [2]]),
                         rulesSHA256: nil, inputHashes: [:])
        #expect(try store.recentCounts(rule: "P.name.minLength", last: 7) == [4])
        #expect(try store.lastFingerprints()?.runID == 1)
        let runs = try store.runs(last: 5)
        #expect(runs.map(\.outcome) == ["failed", "incomplete"] && runs.map(\.exitStatus) == [1, 65])
        #expect(try store.trends(last: 5).first?.counts == [4, 1])       // shown as recorded
    }

    @Test func schemaIsVersionedAndIdentified() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("h.sqlite")
        _ = try HistoryStore(path: path)
        let db = try TestDatabase(path)
        #expect(try db.scalar("PRAGMA user_version") == "1")
        #expect(try db.scalar("PRAGMA application_id") == String(0x4155_4454))
        #expect(try db.scalar("SELECT group_concat(name) FROM (SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name)")
                == "fingerprints,inputs,rule_counts,runs")
        // Opening again neither recreates nor changes anything.
        let before = try FileSnapshot(path: path)
        _ = try HistoryStore(path: path)
        _ = try HistoryStore(path: path, access: .readOnly)
        #expect(try FileSnapshot(path: path) == before)
    }

    func expectRefusal(_ path: String, _ access: HistoryStore.Access, _ code: AuditError.Code, _ words: String,
                       sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            _ = try HistoryStore(path: path, access: access)
            Issue.record("\(path) was accepted", sourceLocation: sourceLocation)
        } catch {
            #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
            #expect(error.location == path, sourceLocation: sourceLocation)
            #expect(error.description.contains(words), "\(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func filesThatAreNotHistoriesAreRefusedAndLeftAlone() throws {
        let dir = try TemporaryDirectory()
        // Missing: reading says so (66); writing creates it, but not in a missing folder.
        expectRefusal(dir.path("none.sqlite"), .readOnly, .missingInput, "no history here")
        expectRefusal(dir.path("no/such/folder/h.sqlite"), .readWrite, .cannotCreateOutput, "folder")
        expectRefusal(dir.url.path, .readWrite, .cannotCreateOutput, "directory")

        // Not SQLite at all.
        let text = dir.path("people.csv")
        try Data("id,name\n1,Al\n".utf8).write(to: URL(fileURLWithPath: text))
        expectRefusal(text, .readWrite, .cannotCreateOutput, "not an SQLite database")
        expectRefusal(text, .readOnly, .malformedInput, "not an SQLite database")

        // Someone else's database: never written to.
        let foreign = dir.path("app.sqlite")
        try TestDatabase(foreign).exec("CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO people VALUES (1, 'Al');")
        let before = try dir.snapshot()
        expectRefusal(foreign, .readWrite, .cannotCreateOutput, "not an auditor history")
        expectRefusal(foreign, .readOnly, .malformedInput, "not an auditor history")
        #expect(try dir.snapshot() == before)

        // An empty file is an empty database: writing makes it a history, reading refuses.
        let empty = dir.path("empty.sqlite")
        #expect(FileManager.default.createFile(atPath: empty, contents: nil))
        expectRefusal(empty, .readOnly, .malformedInput, "holds no history")
        _ = try HistoryStore(path: empty)
        #expect(try HistoryStore(path: empty, access: .readOnly).runCount() == 0)

        // A symbolic link to a history.
        let history = dir.path("h.sqlite")
        _ = try HistoryStore(path: history)
        try FileManager.default.createSymbolicLink(atPath: dir.path("link.sqlite"), withDestinationPath: history)
        expectRefusal(dir.path("link.sqlite"), .readWrite, .cannotCreateOutput, "symbolic link")
    }

    @Test func newerVersionsAndExtraObjectsAreRefused() throws {
        let dir = try TemporaryDirectory()
        let newer = dir.path("newer.sqlite")
        _ = try HistoryStore(path: newer)
        try TestDatabase(newer).exec("PRAGMA user_version = 2")
        expectRefusal(newer, .readWrite, .cannotCreateOutput, "schema version 2, written by a newer auditor")
        expectRefusal(newer, .readOnly, .malformedInput, "reads versions up to 1")

        // A trigger would run someone's SQL on every insert: refused before anything is written.
        let trapped = dir.path("trigger.sqlite")
        _ = try HistoryStore(path: trapped)
        try TestDatabase(trapped).exec("""
            CREATE TABLE loot (x); CREATE TRIGGER steal AFTER INSERT ON runs BEGIN INSERT INTO loot VALUES (new.rules_path); END;
            """)
        expectRefusal(trapped, .readWrite, .cannotCreateOutput, "auditor did not create")
        let dropped = dir.path("dropped.sqlite")
        _ = try HistoryStore(path: dropped)
        try TestDatabase(dropped).exec("DROP TABLE fingerprints")
        expectRefusal(dropped, .readWrite, .cannotCreateOutput, "lacks its table 'fingerprints'")
    }

    @Test func aLockedHistoryWaitsThenRecordsOrFailsAsTransient() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("h.sqlite")
        let store = try HistoryStore(path: path, busyTimeout: 5_000)
        let other = try TestDatabase(path)           // another nightly job, mid-transaction
        try other.exec("BEGIN IMMEDIATE")
        let released = DispatchSemaphore(value: 0)
        // The connection is used by the timer's thread only until `released` is signalled.
        nonisolated(unsafe) let writer = other
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) {
            try? writer.exec("COMMIT")
            released.signal()
        }
        #expect(try store.record(report: Self.report(at: Self.day, short: 1, pattern: 0), rulesSHA256: nil, inputHashes: [:]) == 1)
        released.wait()

        let impatient = try HistoryStore(path: path, busyTimeout: 100)
        try other.exec("BEGIN IMMEDIATE")
        defer { try? other.exec("ROLLBACK") }
        do {
            try impatient.record(report: Self.report(at: Self.day, short: 1, pattern: 0), rulesSHA256: nil, inputHashes: [:])
            Issue.record("recorded through a held lock")
        } catch {
            #expect(error.code == .transient && error.description.contains("retry"), "\(error)")
        }
    }
}

extension HistoryStore {
    /// The tests record whole reports; the store keeps their ``RunRecord``.
    @discardableResult
    func record(report: AuditReport, rulesSHA256: String?, inputHashes: [String: String]) throws(AuditError) -> Int {
        try record(RunRecord(report: report, rulesSHA256: rulesSHA256, inputHashes: inputHashes))
    }
}
