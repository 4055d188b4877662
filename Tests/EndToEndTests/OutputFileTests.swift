import Foundation
import Testing

/// `--output FILE` is written atomically: temp file in the same folder, then rename(2).
@Suite("Report files")
struct OutputFileTests {
    @Test("--output: a reader polling the file only ever sees the old content or the complete report; no temp file left")
    func outputIsAtomic() throws {
        let tmp = try Scratch("atomic")
        defer { tmp.remove() }
        try FileManager.default.createDirectory(atPath: tmp.path("out"), withIntermediateDirectories: false)
        let target = tmp.path("out/report.json")
        let old = Data("previous report\n".utf8)
        try tmp.write("out/report.json", bytes: old)

        // Run in the background and poll the target until the run ends.
        let box = ExecutionBox()
        let done = DispatchSemaphore(value: 0)
        let arguments = ["run", "rules/people.yml", "--format", "json", "--output", target]
        Thread.detachNewThread {
            box.set(Result { try Auditor.run(arguments) })
            done.signal()
        }
        var torn = [Data]()
        while done.wait(timeout: .now() + .microseconds(200)) == .timedOut {
            guard let seen = FileManager.default.contents(atPath: target) else {
                torn.append(Data("<missing>".utf8))  // rename(2) never leaves the name missing
                continue
            }
            if seen == old { continue }
            if (try? JSONSerialization.jsonObject(with: seen)) == nil { torn.append(seen) }
        }
        let run = try #require(box.get()).get()
        #expect(run.status == 1, "\(run)")
        #expect(torn.isEmpty, "saw \(torn.count) incomplete states of the report, e.g. \(torn.first.map { String(decoding: $0.prefix(200), as: UTF8.self) } ?? "")")

        let report = try ReportJSON(contentsOf: URL(fileURLWithPath: target))
        #expect(report.summary["outcome"] as? String == "failed")
        #expect(run.stdout.isEmpty, "the report went to stdout as well\n\(run)")
        #expect(try tmp.listing("out") == ["report.json"])  // the macro shows what was left

        // The file holds the same report as stdout would (timings aside).
        let stdout = try assertExecute(["run", "rules/people.yml", "--format", "json"], exitCode: 1)
        let file = try Data(contentsOf: URL(fileURLWithPath: target))
        #expect(try withoutTimings(file).text == withoutTimings(stdout.stdout).text)
    }

    @Test("--output naming a directory: 73, nothing left behind")
    func outputOntoDirectory() throws {
        let tmp = try Scratch("output-dir")
        defer { tmp.remove() }
        try FileManager.default.createDirectory(atPath: tmp.path("out/report.json"), withIntermediateDirectories: true)
        try assertExecute(["run", "rules/people.yml", "--format", "json", "--output", tmp.path("out/report.json")],
                          exitCode: 73, stderrContains: ["report.json"])
        #expect(try tmp.listing("out") == ["report.json"])
        #expect(try tmp.listing("out/report.json") == [])
    }

    @Test("--output with the text format writes the text report and leaves stdout empty")
    func textToFile() throws {
        let tmp = try Scratch("output-text")
        defer { tmp.remove() }
        let run = try assertExecute(["run", "rules/people.yml", "--output", tmp.path("report.txt")], exitCode: 1)
        #expect(run.stdout.isEmpty)
        let text = try String(contentsOf: URL(fileURLWithPath: tmp.path("report.txt")), encoding: .utf8)
        #expect(text.contains("Result: FAILED"))
        #expect(!text.utf8.contains(0x1B), "colour codes in a report file")
        #expect(try tmp.listing() == ["report.txt"])
    }

    @Test("standard output or error that cannot be written (a full disk): 74 and why, or the exit status alone; no crash")
    func standardOutputFull() throws {
        let auditor = try #require(Auditor.executable).path
        let run = try Auditor.run(["-c", "exec \"$0\" run rules/people.yml --format json > /dev/full", auditor],
                                  program: URL(fileURLWithPath: "/bin/sh"))
        #expect(run.status == 74, "\(run.stderrText)")
        #expect(run.stderrText.contains("cannot write the report to standard output (No space left on device)"), "\(run.stderrText)")
        // Standard error full too: the error is lost, its exit status is not (Foundation trapped, 132).
        let silent = try Auditor.run(["-c", "exec \"$0\" run no-such-rules.yml 2>/dev/full", auditor],
                                     program: URL(fileURLWithPath: "/bin/sh"))
        #expect(silent.status == 66, "\(silent.stderrText)")
    }
}

/// Hands an execution from a background thread to the test (guarded by a lock).
final class ExecutionBox: @unchecked Sendable {
    // @unchecked: `value` is only touched while holding `lock`.
    private let lock = NSLock()
    private var value: Result<Execution, any Error>?
    func set(_ v: Result<Execution, any Error>) { lock.lock(); value = v; lock.unlock() }
    func get() -> Result<Execution, any Error>? { lock.lock(); defer { lock.unlock() }; return value }
}
