import Auditor
import Foundation
import AuditorReaders
import Testing

/// Opt-in throughput measurement of the SQLite reader (does nothing unless
/// `AUDITOR_BENCH_SQLITE` names a database):
///
///     python3 ../shared/bench/gen.py --rows 1000000 --seed 7 --out /tmp/sqlbench --formats sqlite
///     AUDITOR_BENCH_SQLITE=/tmp/sqlbench/people.sqlite swift test -c release --filter SQLiteBenchmark
///     time sqlite3 /tmp/sqlbench/people.sqlite 'select * from people' > /dev/null
@Suite struct SQLiteBenchmarkTests {
    @Test func readAllPeople() throws {
        guard let path = ProcessInfo.processInfo.environment["AUDITOR_BENCH_SQLITE"], !path.isEmpty else { return }
        let columns = ["id", "name", "email", "birthday", "has_licence", "age", "salary", "country", "dept_id",
                       "created_at", "notes"]
        var best = Double.infinity
        var rows = 0
        for _ in 0 ..< 3 {
            let start = ContinuousClock.now
            let reader = try SQLiteReader(request: ReaderRequest(
                sourceName: "people", path: path, displayPath: path, fields: columns))
            #expect(reader.schema.fields == columns)
            rows = 0
            var textBytes = 0
            while let chunk = try reader.nextChunk(maxRecords: 8192) {
                rows += chunk.count
                textBytes += chunk.bytes.count
            }
            try reader.finish()
            let elapsed = start.duration(to: .now)
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            best = min(best, seconds)
            print("SQLiteBenchmark: \(rows) rows, \(textBytes) text bytes in \(String(format: "%.3f", seconds)) s")
        }
        print("SQLiteBenchmark: best \(String(format: "%.3f", best)) s, \(String(format: "%.2f", Double(rows) / best / 1e6)) M rows/s, peak RSS \(peakRSSMiB()) MiB")
        #expect(rows > 0)
    }

    /// VmHWM from /proc/self/status, in MiB (the whole test process).
    func peakRSSMiB() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return -1 }
        let kib = Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
        return kib / 1024
    }
}
