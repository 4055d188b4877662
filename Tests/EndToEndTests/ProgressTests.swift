import Foundation
import TestSupport
import Testing

/// Progress goes to stderr only when stderr is a terminal, and `-q` silences it. The terminal
/// is a real pseudo-terminal from `script(1)` (util-linux, in every Debian); the first line is
/// asked for at once (`AUDITOR_PROGRESS_AFTER=0`) so that a short run (the bundled example)
/// shows it.
@Suite("Progress on a terminal")
struct ProgressTests {
    /// Everything the terminal showed while `auditor arguments` ran under `script`.
    static func onTerminal(_ arguments: [String], environment extra: [String: String] = [:]) throws -> (status: Int32, screen: String) {
        let executable = try #require(Auditor.executable)
        let command = ([executable.path] + arguments).map(Self.quoted).joined(separator: " ")
        var environment = ProcessInfo.processInfo.environment
        environment["AUDITOR_PROGRESS_AFTER"] = "0"
        environment.merge(extra) { _, new in new }
        let run = try ChildProcess.run(["/usr/bin/script", "-qfec", command, "/dev/null"], directory: Auditor.packageRoot,
                                       environment: environment, mergeErrors: true)
        return (run.status, run.stdoutText)
    }

    static func quoted(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    static func arguments(_ extra: [String]) -> [String] {
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("progress-\(UUID().uuidString).json")
        return ["run", "rules/people.yml", "--format", "json", "--output", report.path] + extra
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")), arguments: ["1", "2"])
    func aTerminalShowsRecordsRateAndTimeLeft(jobs: String) throws {
        let run = try Self.onTerminal(Self.arguments(["--jobs", jobs]))
        #expect(run.status == 1, "\(run.screen)")
        #expect(run.screen.contains("people: "), "\(run.screen)")
        #expect(run.screen.contains(" records, "), "\(run.screen)")
        #expect(run.screen.contains("%, ETA "), "\(run.screen)")
        // The line is redrawn in place and cleared at the end: nothing scrolls.
        #expect(!run.screen.contains("\n"), "\(run.screen)")
        #expect(run.screen.hasSuffix("\r\u{1B}[2K"), "\(run.screen.suffix(80))")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func quietShowsNothingOnATerminal() throws {
        let run = try Self.onTerminal(Self.arguments(["-q"]))
        #expect(run.status == 1)
        #expect(run.screen.isEmpty, "\(run.screen)")
    }

    @Test func nothingWhenStderrIsNotATerminal() throws {
        let run = try Auditor.run(Self.arguments([]), environment: ["AUDITOR_PROGRESS_AFTER": "0"])
        #expect(run.status == 1)
        #expect(run.stderr.isEmpty, "\(run)")
    }
}
