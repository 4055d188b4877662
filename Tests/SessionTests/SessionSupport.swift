import Auditor
import AuditorHistory
import Foundation
import AuditorReaders
import AuditorReports

/// A fresh temporary folder for one test, removed by ``remove()``.
final class Folder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("auditor-session-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: url) }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: url.appendingPathComponent(name))
    }

    func read(_ name: String) throws -> Data { try Data(contentsOf: url.appendingPathComponent(name)) }
}

enum Session {
    /// People with short names (`P.name.minLength`, error) and ages that are not integers
    /// (`P.age.type`, error), and a warning-only rule on `city` (`P.city.maxLength`).
    static func rules(data: String, history: String? = nil) -> String {
        (history.map { "history: \($0)\n" } ?? "") + """
            version: 1
            sources:
              people:
                path: \(data)
                csv: { delimiter: ",", header: true }
              other:
                path: other.csv
            entities:
              P:
                source: people
                key: [id]
                attributes:
                  id: { type: integer, required: true }
                  name: { type: string, minLength: 3 }
                  age: { type: integer }
                  city: { type: string, maxLength: { value: 4, severity: warning } }

            """
    }

    /// Short names at ids 1 and 3, a bad age at 2, a long city at 4.
    static let night1 = "id,name,age,city\n1,Al,30,Rome\n2,Bob,x,Oslo\n3,Cy,40,Bern\n4,Dana,41,Lisbon\n"
    /// 1 fixed, 3 still short, 5 new; the age fixed.
    static let night2 = "id,name,age,city\n1,Alan,30,Rome\n2,Bob,31,Oslo\n3,Cy,40,Bern\n4,Dana,41,Lisbon\n5,Ed,52,Nice\n"
    /// Nothing fails at error severity; the long city (a warning) is left.
    static let clean = "id,name,age,city\n1,Alan,30,Rome\n2,Bob,31,Oslo\n4,Dana,41,Lisbon\n"

    /// A request as `auditor run` builds it for `rules.yml` in `folder` (plug-ins included).
    static func request(_ folder: Folder, rules: String = "rules.yml") -> AuditRequest {
        var r = AuditRequest(rules: .file(folder.path(rules)), registry: StandardReaders.registry)
        r.structuralRules = StandardReaders.structuralRules
        r.historyFactory = SQLiteRunHistory.factory
        r.jobs = 2
        r.asOf = 1_790_000_000
        r.outputCheck = { try OutputFile.check($0.path, what: $0.what, option: $0.option, protecting: $1) }
        return r
    }

    static func violations(_ outcome: AuditOutcome) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: outcome.report.rules.map { ($0.id, $0.violations) })
    }
}

/// A baseline held in memory: the plug-in point a library user implements.
struct MemoryBaseline: BaselineSource {
    var name = "memory"
    var set: FingerprintSet
    func fingerprints() throws -> FingerprintSet { set }
}

/// A history held in memory that logs its calls and can fail on demand.
final class MemoryHistory: RunHistory {
    let path: String
    var runs: [RunRecord] = []
    var calls: [String] = []
    var failure: AuditError?

    init(path: String) { self.path = path }

    func recentCounts(last: Int) throws(AuditError) -> [HistoryRuleKey: [Int]] {
        calls.append("recentCounts(\(last))")
        if let failure { throw failure }
        var out = [HistoryRuleKey: [Int]]()
        for run in runs.suffix(last) where run.outcome != .incomplete {
            for rule in run.rules { out[HistoryRuleKey(id: rule.id, source: rule.source), default: []].append(rule.violations) }
        }
        return out
    }

    func lastRun() throws(AuditError) -> RecordedRun? {
        calls.append("lastRun")
        guard let i = runs.lastIndex(where: { $0.fingerprints != nil }), let f = runs[i].fingerprints else { return nil }
        return RecordedRun(id: i + 1, startedAt: runs[i].startedAt, fingerprints: f)
    }

    func record(_ run: RunRecord) throws(AuditError) -> Int {
        calls.append("record")
        runs.append(run)
        return runs.count
    }
}
