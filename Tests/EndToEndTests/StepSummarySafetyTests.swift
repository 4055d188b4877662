import Foundation
import Testing

/// `$GITHUB_STEP_SUMMARY` is an output like any other (issue 13 §3): it is appended to, so it
/// cannot be replaced atomically, but it is never an audited input, and a FIFO that no process
/// reads is a warning, not a hang.
@Suite("Job summary safety")
struct StepSummarySafetyTests {
    @Test("A job summary that is an input (path or symlink) is refused with a warning; the input is unchanged",
          arguments: ["people.csv", "link.csv", "rules.yml"])
    func summaryIsAnInput(_ name: String) throws {
        let tmp = try OutputSafetyTests.scratch("summary-input")
        defer { tmp.remove() }
        try FileManager.default.createSymbolicLink(atPath: tmp.path("link.csv"), withDestinationPath: "people.csv")
        let before = try InputSafetyTests.Snapshot(tmp.url)
        let run = try Auditor.run(["run", "rules.yml", "--format", "github", "-q"], in: tmp.url,
                                  environment: ["GITHUB_STEP_SUMMARY": tmp.path(name)])
        #expect(run.status == 1, "\(run)")
        #expect(run.stderrText.contains("auditor never writes to what it reads"), "\(run)")
        #expect(try InputSafetyTests.Snapshot(tmp.url) == before)
    }

    @Test("A job summary FIFO that no process reads is a warning at once, not a hang")
    func summaryFIFO() throws {
        let tmp = try OutputSafetyTests.scratch("summary-fifo")
        defer { tmp.remove() }
        try #require(mkfifo(tmp.path("summary"), 0o600) == 0)
        let run = try Auditor.run(["run", "rules.yml", "--format", "github", "-q"], in: tmp.url,
                                  environment: ["GITHUB_STEP_SUMMARY": tmp.path("summary")], timeout: 30)
        #expect(run.status == 1, "\(run)")
        #expect(run.stderrText.contains("job summary"), "\(run)")
    }

    @Test("A regular job summary file is appended to, keeping what earlier steps wrote")
    func summaryAppends() throws {
        let tmp = try OutputSafetyTests.scratch("summary-append")
        defer { tmp.remove() }
        try tmp.write("summary.md", "# earlier step\n")
        let run = try Auditor.run(["run", "rules.yml", "--format", "github", "-q"], in: tmp.url,
                                  environment: ["GITHUB_STEP_SUMMARY": tmp.path("summary.md")])
        #expect(run.status == 1, "\(run)")
        let text = try String(contentsOfFile: tmp.path("summary.md"), encoding: .utf8)
        #expect(text.hasPrefix("# earlier step\n") && text.count > "# earlier step\n".count)
    }
}

/// Two outputs of one run never reach the same file: one would silently replace the other.
@Suite("Outputs of one run")
struct DistinctOutputsTests {
    @Test("Two outputs reaching one file (same path, './', a symlink) are refused with 64 before the audit",
          arguments: [
              ["-o", "r.json", "--report", "json:./r.json"],
              ["--report", "json:r.json", "--report", "html:link.json"],
              ["--failures-out", "r.csv", "-o", "r.csv"],
              // A link to a file not written yet: the second output would replace the first.
              ["-o", "new.json", "--report", "html:dangling.json"],
          ])
    func sameFile(_ options: [String]) throws {
        let tmp = try OutputSafetyTests.scratch("same-output")
        defer { tmp.remove() }
        try tmp.write("r.json", "an earlier report\n")
        try FileManager.default.createSymbolicLink(atPath: tmp.path("link.json"), withDestinationPath: "r.json")
        try FileManager.default.createSymbolicLink(atPath: tmp.path("dangling.json"), withDestinationPath: "new.json")
        let run = try Auditor.run(["run", "rules.yml", "-q"] + options, in: tmp.url)
        #expect(run.status == 64, "\(run)")
        #expect(run.stderrText.contains("is the same file as"), "\(run)")
        #expect(try String(contentsOfFile: tmp.path("r.json"), encoding: .utf8) == "an earlier report\n")
        #expect(!FileManager.default.fileExists(atPath: tmp.path("r.csv")))
        #expect(!FileManager.default.fileExists(atPath: tmp.path("new.json")))
    }

    @Test("profile: --rules-out and --output reaching one file (same path, './', a link) are refused with 64, nothing written",
          arguments: [["--rules-out", "r.yml", "-o", "./r.yml"], ["--rules-out", "new.yml", "-o", "dangling.yml"],
                      ["-o", "r.yml", "--rules-out", "link.yml"]])
    func profileSameFile(_ options: [String]) throws {
        let tmp = try Scratch("profile-same-output")
        defer { tmp.remove() }
        try tmp.write("p.csv", "id,name\n1,a\n2,b\n")
        try tmp.write("r.yml", "an earlier draft\n")
        try FileManager.default.createSymbolicLink(atPath: tmp.path("link.yml"), withDestinationPath: "r.yml")
        try FileManager.default.createSymbolicLink(atPath: tmp.path("dangling.yml"), withDestinationPath: "new.yml")
        try assertExecute(["profile", "p.csv"] + options, in: tmp.url, exitCode: 64, stderrContains: ["is the same file as"])
        #expect(try String(contentsOfFile: tmp.path("r.yml"), encoding: .utf8) == "an earlier draft\n")
        #expect(!FileManager.default.fileExists(atPath: tmp.path("new.yml")))
        try assertExecute(["profile", "p.csv", "--rules-out", "a.yml", "-o", "b.txt"], in: tmp.url, exitCode: 0)
        #expect(FileManager.default.fileExists(atPath: tmp.path("a.yml")) && FileManager.default.fileExists(atPath: tmp.path("b.txt")))
    }

    @Test("Distinct files, and standard output twice, are fine")
    func distinct() throws {
        let tmp = try OutputSafetyTests.scratch("distinct-output")
        defer { tmp.remove() }
        let run = try Auditor.run(["run", "rules.yml", "-q", "-o", "a.json", "--report", "html:b.html", "--report", "json:-",
                                   "--format", "json"], in: tmp.url)
        #expect(run.status == 1, "\(run)")
        #expect(FileManager.default.fileExists(atPath: tmp.path("a.json")) && FileManager.default.fileExists(atPath: tmp.path("b.html")))
    }
}
