import Foundation
import TestSupport
import Testing

/// The README's "Nightly audit" commands, run as written (so the README stays true): the cron
/// line without its five time fields and with `\%` un-escaped, three nights in a row, then the
/// `auditor history` lines, on a copy of the bundled example. `cd /srv/exports` becomes the
/// copy's folder and the built `auditor` comes first on `PATH`.
@Suite("README nightly audit")
struct ReadmeNightlyTests {
    /// The command lines of the first fenced block under `## Nightly audit`.
    static func commands() throws -> [String] {
        let readme = try String(contentsOf: Auditor.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let heading = try #require(lines.firstIndex(of: "## Nightly audit"), "README has no '## Nightly audit' section")
        let open = try #require(lines[heading...].firstIndex { $0.hasPrefix("```") }, "no fenced block under the heading")
        let close = try #require(lines[(open + 1)...].firstIndex { $0.hasPrefix("```") }, "the fenced block is not closed")
        #expect(!lines[heading + 1 ..< open].contains { $0.hasPrefix("#") }, "the block must belong to the section")
        return lines[(open + 1) ..< close].map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    /// A crontab line as a shell command: no time fields, `\%` → `%` (cron's own escape).
    static func cronCommand(_ line: String) -> String? {
        guard let r = line.range(of: #"^([0-9*/,-]+\s+){5}"#, options: .regularExpression) else { return nil }
        return String(line[r.upperBound...]).replacingOccurrences(of: "\\%", with: "%")
    }

    @Test("The cron line three nights in a row, then the history commands")
    func readmeCommands() throws {
        let commands = try Self.commands()
        let cron = commands.compactMap(Self.cronCommand)
        let others = commands.filter { Self.cronCommand($0) == nil }
        #expect(cron.count == 1 && others.count >= 1, "\(commands)")
        #expect(cron.first?.contains("--history audits.sqlite") == true)
        #expect(others.allSatisfy { $0.hasPrefix("auditor history ") }, "\(others)")

        let scratch = try Scratch("readme-nightly")
        defer { scratch.remove() }
        try scratch.copy(fromPackage: "rules")
        try scratch.copy(fromPackage: "examples/people", as: "examples/people")
        let binDir = try #require(Auditor.executable).deletingLastPathComponent().path
        let path = binDir + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")

        for night in 1 ... 3 {
            for line in cron {
                let command = line.replacingOccurrences(of: "cd /srv/exports", with: "cd '\(scratch.url.path)'")
                let run = try shell(command, in: scratch.url, path: path)
                // The bundled example violates rules at severity error: exit 1. The text report goes
                // to stdout (cron mails it); -q keeps stderr quiet.
                #expect(run.status == 1 && run.stderr.isEmpty, "night \(night): \(command)\nexit \(run.status)\n\(run.stderr)")
                #expect(run.stdout.contains("Result: FAILED (exit 1)"), "night \(night): \(run.stdout.suffix(500))")
            }
        }
        let reports = try scratch.listing("reports")
        #expect(reports.count == 1 && reports[0].range(of: #"^\d{4}-\d{2}-\d{2}\.html$"#, options: .regularExpression) != nil,
                "\(reports)")
        #expect(try sqlite(scratch.path("audits.sqlite"), "SELECT count(*) FROM runs") == ["3"])
        #expect(try sqlite(scratch.path("audits.sqlite"),
                           "SELECT count(*) FROM runs WHERE baseline_source LIKE 'history run %'") == ["2"])

        for line in others {
            let run = try shell(line, in: scratch.url, path: path)
            #expect(run.status == 0 && run.stderr.isEmpty, "\(line)\nexit \(run.status)\n\(run.stderr)")
            #expect(run.stdout.hasPrefix("History of audits.sqlite: "), "\(line)\n\(run.stdout)")
            let rule = line.range(of: #"--rule (\S+)"#, options: .regularExpression).map { String(line[$0].dropFirst(7)) }
            if let rule {
                #expect(run.stdout.split(separator: "\n").contains { $0.hasPrefix(rule + " ") }, "\(run.stdout)")
            }
        }
    }
}

/// Runs a command line with `/bin/sh -c` (as cron does) in `directory` with `PATH`.
func shell(_ command: String, in directory: URL, path: String) throws -> (status: Int32, stdout: String, stderr: String) {
    var env = ProcessInfo.processInfo.environment
    env["PATH"] = path
    for key in ["NO_COLOR", "FORCE_COLOR", "CLICOLOR_FORCE", "GITHUB_ACTIONS", "GITHUB_STEP_SUMMARY"] { env[key] = nil }
    let run = try ChildProcess.run(["/bin/sh", "-c", command], directory: directory, environment: env)
    return (run.status, run.stdoutText, run.stderrText)
}
