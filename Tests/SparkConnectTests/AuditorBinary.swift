#if Spark
import Foundation
import TestSupport
import Testing

/// Runs the `auditor` binary that `swift build --traits Spark` built (`$AUDITOR_BINARY`, else
/// `.build/debug/auditor`), as a ``ChildProcess``.
enum AuditorBinary {
    struct Run: CustomStringConvertible {
        var status: Int32
        var stdout: Data
        var stderr: String
        var description: String { "exit \(status)\n--- stderr ---\n\(stderr)\n--- stdout ---\n\(String(decoding: stdout.prefix(3000), as: UTF8.self))" }
    }

    static var path: String {
        ProcessInfo.processInfo.environment["AUDITOR_BINARY"]
            ?? SparkTestServer.repository.appendingPathComponent(".build/debug/auditor").path
    }

    static func run(_ arguments: [String], in directory: String = SparkTestServer.repository.path,
                    environment extra: [String: String] = [:]) throws -> Run {
        let run = try ChildProcess.run([path] + arguments, directory: URL(fileURLWithPath: directory),
                                       environment: ProcessInfo.processInfo.environment.merging(extra) { $1 }, timeout: 1800)
        return Run(status: run.status, stdout: run.stdout, stderr: run.stderrText)
    }

    /// Runs `body` on a thread of its own: blocking work (the binary, the synchronous reader)
    /// must not hold one of the cooperative pool's few threads.
    static func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                do { continuation.resume(returning: try body()) } catch { continuation.resume(throwing: error) }
            }
        }
    }

    /// The JSON report of a run.
    static func json(_ run: Run) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any], "\(run)")
    }

    /// A report without what may differ between two runs of the same audit: timings and the
    /// notes that say where the rules ran.
    static func comparable(_ value: Any) -> Any {
        if let object = value as? [String: Any] {
            var out = [String: Any]()
            for (k, v) in object where !["durationSeconds", "startedAt", "seconds", "ranIn", "pushdownRefused"].contains(k) {
                out[k] = comparable(v)
            }
            return out
        }
        if let array = value as? [Any] { return array.map(comparable) }
        return value
    }

    /// Runs `arguments` streaming and with `--pushdown`; expects equal JSON reports and returns both.
    static func sameReport(_ arguments: [String], in directory: String = SparkTestServer.repository.path,
                           sourceLocation: SourceLocation = #_sourceLocation) async throws -> (streamed: [String: Any], pushed: [String: Any]) {
        let (streamed, pushed) = try await offPool {
            (try run(arguments + ["--format", "json"], in: directory), try run(arguments + ["--format", "json", "--pushdown"], in: directory))
        }
        #expect(streamed.status == pushed.status, "\(streamed)\n\(pushed)", sourceLocation: sourceLocation)
        let a = try json(streamed), b = try json(pushed)
        let left = try JSONSerialization.data(withJSONObject: comparable(a), options: [.sortedKeys])
        let right = try JSONSerialization.data(withJSONObject: comparable(b), options: [.sortedKeys])
        if left != right {
            let ra = (a["rules"] as? [[String: Any]]) ?? [], rb = (b["rules"] as? [[String: Any]]) ?? []
            let first = zip(ra, rb).first { x, y in
                (try? JSONSerialization.data(withJSONObject: comparable(x), options: [.sortedKeys]))
                    != (try? JSONSerialization.data(withJSONObject: comparable(y), options: [.sortedKeys]))
            }
            Issue.record("reports differ; first differing rule: \(first.map { "\($0.0)\n---\n\($0.1)" } ?? "none (inputs or entities)")",
                         sourceLocation: sourceLocation)
        }
        return (a, b)
    }

    static func input(_ report: [String: Any], source: String) -> [String: Any]? {
        (report["inputs"] as? [[String: Any]])?.first { $0["source"] as? String == source }
    }

    /// Violations per rule id.
    static func violations(_ report: [String: Any]) -> [String: Int] {
        var out = [String: Int]()
        for rule in report["rules"] as? [[String: Any]] ?? [] {
            if let id = rule["id"] as? String { out[id] = (rule["violations"] as? NSNumber)?.intValue ?? (rule["violations"] as? Int) }
        }
        return out
    }
}
#endif
