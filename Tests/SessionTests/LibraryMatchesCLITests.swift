import Auditor
import AuditorHistory
import Foundation
import TestSupport
import AuditorReaders
import AuditorReports
import Testing

/// A library user gets exactly the audit the CLI user gets: the same request through
/// ``AuditSession`` and through the built `auditor` binary give the same JSON report (the
/// times aside), the same exit status and the same history.
@Suite("Library matches CLI")
struct LibraryMatchesCLITests {
    /// The binary `swift build` built (`$AUDITOR_BINARY`, else beside the test bundle, else
    /// `.build/debug/auditor`).
    static let binary: URL? = {
        if let path = ProcessInfo.processInfo.environment["AUDITOR_BINARY"], !path.isEmpty { return URL(fileURLWithPath: path) }
        var starts = [Bundle.main.bundleURL]
        if let exe = Bundle.main.executableURL { starts.append(exe.deletingLastPathComponent()) }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let candidates = starts.flatMap { [$0, $0.deletingLastPathComponent()] }.map { $0.appendingPathComponent("auditor") }
            + [root.appendingPathComponent(".build/debug/auditor")]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    /// Runs the binary in `folder`; returns its exit status.
    static func cli(_ arguments: [String], in folder: Folder) throws -> Int32 {
        guard let program = Self.binary else {
            Issue.record("build the auditor binary first (swift build)")
            return -1
        }
        return try ChildProcess.run([program.path] + arguments, directory: folder.url).status
    }

    /// The JSON report without what varies between two runs (start time, durations) and the
    /// members named in `ignoring`.
    static func stable(_ data: Data, ignoring: Set<String> = []) throws -> NSDictionary {
        let varying = ignoring.union(["startedAt", "durationSeconds", "seconds"])
        func strip(_ value: Any) -> Any {
            if let d = value as? [String: Any] {
                var out = [String: Any]()
                for (k, v) in d where !varying.contains(k) { out[k] = strip(v) }
                return out
            }
            if let a = value as? [Any] { return a.map(strip) }
            return value
        }
        return try #require(strip(try JSONSerialization.jsonObject(with: data)) as? NSDictionary)
    }

    /// Random people data: short names, bad ages, long cities, missing ids, duplicates.
    static func data(seed: UInt64, rows: Int) -> String {
        var state = seed
        func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(n))
        }
        var text = "id,name,age,city\n"
        for _ in 0 ..< rows {
            let id = next(10) == 0 ? "" : String(next(rows * 2))
            let name = String(repeating: "a", count: next(6))
            let age = next(8) == 0 ? "x\(next(9))" : String(next(90))
            let city = String(repeating: "c", count: next(7))
            text += "\(id),\(name),\(age),\(city)\n"
        }
        return text
    }

    @Test("Same JSON report, exit status and history as `auditor run`, over generated data, with baseline, history and fail-on options",
          arguments: [(UInt64(1), FailThreshold.error, false), (2, .warning, false), (3, .error, true), (4, .never, true)])
    func sameAudit(seed: UInt64, failOn: FailThreshold, failOnNew: Bool) throws {
        let folder = try Folder()
        defer { folder.remove() }
        try folder.write("rules.yml", Session.rules(data: "people.csv"))
        try folder.write("people.csv", Self.data(seed: seed, rows: 300))
        // A baseline both will compare with: an earlier run's JSON report.
        #expect(try Self.cli(["run", "rules.yml", "--format", "json", "-o", "base.json"], in: folder) != 64)
        try folder.write("people.csv", Self.data(seed: seed + 100, rows: 300))

        // Absolute paths: the test process shares its working directory with parallel tests.
        var arguments = ["run", folder.path("rules.yml"), "--format", "json", "-o", "cli.json", "--baseline", folder.path("base.json"),
                         "--history", "cli.sqlite", "--fail-on", failOn.rawValue, "--as-of", "2026-01-01", "--jobs", "2"]
        if failOnNew { arguments.append("--fail-on-new") }
        let status = try Self.cli(arguments, in: folder)

        // The same request through the library.
        var request = AuditRequest(rules: .file(folder.path("rules.yml")), registry: StandardReaders.registry)
        request.structuralRules = StandardReaders.structuralRules
        request.jobs = 2
        request.failOn = failOn
        request.failOnNew = failOnNew
        request.asOf = 1_767_225_600          // 2026-01-01
        request.baseline = JSONReportBaseline(path: folder.path("base.json"))
        request.history = .path(folder.path("lib.sqlite"))
        request.historyFactory = SQLiteRunHistory.factory
        request.collectFingerprints = true
        request.toolVersion = "0.1.0"
        let outcome = try AuditSession(request).run()

        #expect(outcome.exitStatus.rawValue == status)
        let library = try Self.stable(Data(JSONReporter().render(outcome.report).utf8))
        let cli = try Self.stable(try folder.read("cli.json"))
        #expect(library == cli)
        let a = try HistoryStore(path: folder.path("cli.sqlite"), access: .readOnly).trends(last: 5)
        let b = try HistoryStore(path: folder.path("lib.sqlite"), access: .readOnly).trends(last: 5)
        #expect(a == b)
    }
}
