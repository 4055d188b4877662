import Auditor
import Foundation
@_spi(Testing) import AuditorReaders
import Testing

/// Reading speed on a real generated file. Opt-in: runs only with
/// `AUDITOR_BENCH_CSV=/path/people.csv`, in a release build:
///
///     python3 shared/bench/gen.py --rows 1000000 --seed 7 --out /tmp/csvbench --formats csv
///     AUDITOR_BENCH_CSV=/tmp/csvbench/people.csv swift test -c release --filter CSVBenchmark
///
/// Prints MB/s for each of a few passes; checks the record and `csv.row.ragged` counts
/// against the `expected.json` beside the file when there is one. `AUDITOR_BENCH_THREADS=N`
/// reads with `parallelism: N` (default 1); it also prints the process's CPU seconds, since
/// wall time on a shared machine says little about how the work scales.
@Suite struct CSVBenchmarkTests {
    @Test func readWholeFile() throws {
        guard let path = ProcessInfo.processInfo.environment["AUDITOR_BENCH_CSV"] else { return }
        let passes = Int(ProcessInfo.processInfo.environment["AUDITOR_BENCH_PASSES"] ?? "") ?? 5
        let threads = Int(ProcessInfo.processInfo.environment["AUDITOR_BENCH_THREADS"] ?? "") ?? 1
        let cpuBefore = cpuSeconds()
        var seconds = [Double]()
        var records = 0
        var ragged = 0
        var bytes: Int64 = 0
        for _ in 0 ..< passes {
            let clock = ContinuousClock()
            let start = clock.now
            let reader = try CSVReader(path: path, parallelism: threads)
            records = 0
            ragged = 0
            while let chunk = try reader.nextChunk(maxRecords: 8192) {
                records += chunk.count
                ragged += chunk.issues.count { $0.ruleID == "csv.row.ragged" }
            }
            try reader.finish()
            let elapsed = clock.now - start
            seconds.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
            bytes = reader.bytesRead
        }
        seconds.sort()
        let megabytes = Double(bytes) / 1e6
        let rates = seconds.map { String(format: "%.0f", megabytes / $0) }
        let cpu = cpuSeconds() - cpuBefore
        print("""
            CSVBenchmark: \(path): \(bytes) bytes, \(records) records, \(ragged) ragged, \(threads) thread(s)
            CSVBenchmark: CPU \(String(format: "%.2f", cpu)) s for \(passes) passes, \
            wall \(String(format: "%.2f", seconds.reduce(0, +))) s
            CSVBenchmark: MB/s best \(rates.first ?? "-"), median \(rates[rates.count / 2]) \
            (passes, fastest first: \(rates.joined(separator: " ")))
            CSVBenchmark: peak RSS \(peakResidentKiB() / 1024) MiB (whole test process)
            """)

        let expectedURL = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("expected.json")
        if let data = try? Data(contentsOf: expectedURL),
           let json = try JSONSerialization.jsonObject(with: data) as? [String: Any] {
            let counts = (json["counts_by_format"] as? [String: Any])?["csv"] as? [String: Int]
            #expect(records == (json["tables"] as? [String: Int])?["people"])
            #expect(ragged == counts?["csv.row.ragged"])
        }
    }

    /// User plus system CPU seconds of the whole process so far.
    private func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    /// `VmHWM` from `/proc/self/status`, in KiB (0 where unavailable).
    private func peakResidentKiB() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        }
        return 0
    }
}
