import Foundation
import Testing

@Suite("Help and version")
struct HelpAndVersionTests {
    @Test("--version prints the version that reports carry")
    func version() throws {
        let run = try assertExecute(["--version"], exitCode: 0)
        let version = run.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(version.range(of: #"^[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.-]+)?$"#, options: .regularExpression) != nil,
                "not a version: '\(version)'")
        let report = try ReportJSON(assertExecute(["run", "rules/people.yml", "--format", "json"], exitCode: 1).stdout)
        #expect((report.root["tool"] as? [String: Any])?["version"] as? String == version)
    }

    @Test("--help lists the subcommands and every exit status")
    func help() throws {
        let run = try assertExecute(["--help"], exitCode: 0)
        let text = run.stdoutText
        #expect(text.lowercased().contains("exit"), "\(run)")
        for code in ["0", "1", "64", "65", "66", "70", "73", "74", "75", "78"] {
            #expect(text.range(of: #"(^|\D)\#(code)\s+[A-Za-z]"#, options: .regularExpression) != nil,
                    "exit status \(code) is not explained\n\(text)")
        }
        for subcommand in ["run", "check", "history"] {
            #expect(text.range(of: #"(?m)^\s+\#(subcommand)\s"#, options: .regularExpression) != nil, "no '\(subcommand)'")
        }
    }

    @Test("run --help lists every option", arguments: [["run", "--help"], ["help", "run"]])
    func runHelp(_ arguments: [String]) throws {
        let run = try assertExecute(arguments, exitCode: 0)
        for option in ["<rules>", "--source", "--format", "--output", "--jobs", "--max-samples",
                       "--fail-on", "--color", "--quiet", "--verbose"] {
            #expect(run.stdoutText.contains(option), "'\(option)' missing\n\(run)")
        }
        for format in ["text", "json"] { #expect(run.stdoutText.contains(format)) }
    }

    @Test("check --help says it reads no data")
    func checkHelp() throws {
        let run = try assertExecute(["check", "--help"], exitCode: 0)
        #expect(run.stdoutText.contains("<rules>"))
        #expect(run.stdoutText.lowercased().contains("without reading"), "\(run)")
    }
}
