import Foundation
import TestSupport
import Testing

/// Temporary files of atomic writes (issue 13 §6): exclusive, unpredictable, and cleaned up
/// after a killed run.
@Suite("Output temporary files")
struct OutputTemporaryFileTests {
    /// Runs `script` with `/bin/sh -c` in `directory`; `$AUDITOR` is the binary.
    static func shell(_ script: String, in directory: URL) throws -> Int32 {
        var env = ProcessInfo.processInfo.environment
        env["AUDITOR"] = try #require(Auditor.executable).path
        return try ChildProcess.run(["/bin/sh", "-c", script], directory: directory, environment: env).status
    }

    @Test("Symlinks planted at the names the old code used (.NAME.<pid>.tmp) are not followed: the victim is unchanged")
    func plantedAtOldNames() throws {
        let tmp = try OutputSafetyTests.scratch("tmp-plant")
        defer { tmp.remove() }
        try tmp.write("victim.txt", "precious\n")
        // `exec` keeps the shell's pid, so $$ is the pid the auditor runs with.
        let status = try Self.shell("""
            for n in failures.csv report.json report.xml; do ln -s victim.txt ".$n.$$.tmp"; done
            exec "$AUDITOR" run rules.yml --format json -o report.json --report junit:report.xml --failures-out failures.csv
            """, in: tmp.url)
        #expect(status == 1)
        #expect(try String(contentsOf: URL(fileURLWithPath: tmp.path("victim.txt")), encoding: .utf8) == "precious\n")
        for name in ["failures.csv", "report.json", "report.xml"] {
            #expect(OutputSafetyTests.kind(tmp.path(name)) == S_IFREG, "\(name)")
        }
        _ = try ReportJSON(contentsOf: URL(fileURLWithPath: tmp.path("report.json")))
    }

    @Test("A run killed with SIGKILL while writing --failures-out leaves a temporary file; the next run removes it")
    func killedRunIsCleanedUp() throws {
        let tmp = try Scratch("tmp-kill")
        defer { tmp.remove() }
        // Enough failing rows that the audit lasts well beyond the moment the file appears.
        var csv = "id,name,age\n"
        csv.reserveCapacity(4_000_000)
        for i in 1 ... 200_000 { csv += "\(i),B,\(i % 90)\n" }
        try tmp.write("people.csv", csv)
        try tmp.write("rules.yml", Fixture.rules(path: "people.csv"))
        try FileManager.default.createDirectory(atPath: tmp.path("out"), withIntermediateDirectories: false)
        let process = try ChildProcess([try #require(Auditor.executable).path, "run", "rules.yml", "--failures-out", "out/failures.jsonl",
                                        "--jobs", "1", "-q"], directory: tmp.url)
        let deadline = Date().addingTimeInterval(60)
        var leftovers = [String]()
        while Date() < deadline, process.isRunning {
            leftovers = try tmp.listing("out").filter { $0.hasPrefix(".failures.jsonl.auditor-") && $0.hasSuffix(".tmp") }
            if !leftovers.isEmpty { break }
            usleep(2000)
        }
        process.send(SIGKILL)       // only the child started here, by its pid
        let killed = try process.wait(timeout: 30)
        try #require(!leftovers.isEmpty, "the run ended before its temporary file was seen")
        #expect(killed.signal == SIGKILL)
        #expect(try tmp.listing("out") == leftovers, "the killed run left its temporary file")

        try assertExecute(["run", "rules.yml", "--failures-out", "out/failures.jsonl", "-q"], in: tmp.url, exitCode: 1)
        #expect(try tmp.listing("out") == ["failures.jsonl"])
    }
}
