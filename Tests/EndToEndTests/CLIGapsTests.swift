import Foundation
import Testing

/// Small things a new user trips over: a mistyped command, `-v` against `-vv`, a dumb
/// terminal, the `-j` help, the man page.
@Suite("CLI gaps")
struct CLIGapsTests {
    @Test("a mistyped subcommand gets a suggestion (exit 64)",
          arguments: [("rn", "did you mean 'run'?"), ("chek", "did you mean 'check'?"), ("histroy", "did you mean 'history'?"),
                      ("rules/people.yml", "run 'auditor run rules/people.yml'"),
                      ("xyzzy", "the commands are run, check, profile, history, import, help")])
    func mistypedSubcommand(word: String, hint: String) throws {
        let run = try assertExecute([word, "rules/people.yml"], exitCode: 64,
                                    stderrContains: ["unknown command '\(word)'", hint, "auditor --help"])
        #expect(run.stdout.isEmpty)
    }

    @Test("real subcommands and options are not taken for typos")
    func knownWords() throws {
        try assertExecute(["check", "rules/people.yml"], exitCode: 0)
        try assertExecute(["help", "run"], exitCode: 0)
        try assertExecute(["--version"], exitCode: 0)
    }

    @Test("-v adds detail to the report; -vv also traces the run on stderr")
    func verbosity() throws {
        let plain = try assertExecute(["run", "rules/people.yml", "--jobs", "2"], exitCode: 1)
        let v = try assertExecute(["run", "rules/people.yml", "--jobs", "2", "-v"], exitCode: 1)
        let vv = try assertExecute(["run", "rules/people.yml", "--jobs", "2", "-vv"], exitCode: 1)
        #expect(v.stdout.count > plain.stdout.count, "-v shows passing rules")
        #expect(!v.stderrText.contains("auditor: trace:"), "\(v)")
        // -vv changes no report, only stderr (the text report's times differ from run to run).
        let untimed = { (text: String) in text.split(separator: "\n").filter { !$0.contains(" s") }.joined(separator: "\n") }
        #expect(untimed(vv.stdoutText) == untimed(v.stdoutText), "\(v)\n\(vv)")
        let trace = vv.stderrLines.filter { $0.hasPrefix("auditor: trace: ") }
        #expect(trace.contains { $0.hasPrefix("auditor: trace: rules file rules/people.yml: ") && $0.contains(" rules") }, "\(vv)")
        #expect(trace.contains { $0.contains("threads 2 (--jobs), chunk size ") }, "\(vv)")
        #expect(trace.contains { $0.hasPrefix("auditor: trace: input people [csv] ") && $0.contains(" records") }, "\(vv)")
        #expect(trace.contains { $0.hasPrefix("auditor: trace: colour off: the stream is not a terminal") }, "\(vv)")
        #expect(trace.contains { $0.hasPrefix("auditor: trace: text report, ") && $0.hasSuffix(" to stdout") }, "\(vv)")
        let help = try assertExecute(["run", "--help"], exitCode: 0).stdoutText
        #expect(help.contains("-vv"), "the help says what -vv adds")
    }

    @Test("TERM=dumb: progress without cursor or line-clearing codes",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func dumbTerminal() throws {
        let run = try ProgressTests.onTerminal(ProgressTests.arguments([]), environment: ["TERM": "dumb"])
        #expect(run.status == 1, "\(run.screen)")
        #expect(run.screen.contains("people: "), "\(run.screen)")
        #expect(run.screen.contains(" records, "), "\(run.screen)")
        #expect(!run.screen.contains("\u{1B}"), "escape codes on a dumb terminal: \(run.screen.debugDescription)")
        // Lines end in newlines (script(1) turns them into CR LF); no bare carriage return redraws.
        #expect(!run.screen.replacingOccurrences(of: "\r\n", with: "\n").contains("\r"), "\(run.screen.debugDescription)")
        #expect(run.screen.utf8.last == UInt8(ascii: "\n"), "\(run.screen.debugDescription)")
    }

    @Test("-j's help shows its default once", arguments: [["run", "--help"], ["help", "run"]])
    func jobsDefaultOnce(_ arguments: [String]) throws {
        let help = try assertExecute(arguments, exitCode: 0).stdoutText
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex { $0.contains("-j, --jobs") }, "\(help)")
        var block = [lines[start]]
        for line in lines[(start + 1)...] {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("-") || line.isEmpty { break }
            block.append(line)
        }
        let text = block.joined(separator: " ")
        #expect(text.components(separatedBy: "default").count - 1 == 1, "\(text)")
        #expect(text.contains("the number of cores"), "\(text)")
    }

    @Test("the -j default still is the number of cores")
    func jobsDefault() throws {
        let vv = try assertExecute(["run", "rules/people.yml", "-vv"], exitCode: 1)
        let cores = ProcessInfo.processInfo.activeProcessorCount
        #expect(vv.stderrText.contains("threads \(cores) (the number of cores)"), "\(vv)")
    }
}
