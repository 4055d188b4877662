import Foundation
import TestSupport
import Testing

/// The shell completion scripts that `auditor --generate-completion-script SHELL` writes
/// complete option values and files. Bash is driven for real: the script is sourced and its
/// completion function called the way bash calls it (`COMP_WORDS`, `COMP_CWORD`), and the
/// candidates it leaves in `COMPREPLY` are compared (custom completions call the built binary).
@Suite("Shell completions")
struct CompletionTests {
    /// What bash offers for the last word of `words` (the words after `auditor`).
    static func bash(_ words: [String], in directory: URL = Auditor.packageRoot) throws -> [String] {
        let executable = try #require(Auditor.executable)
        let script = try assertExecute(["--generate-completion-script", "bash"], exitCode: 0).stdoutText
        let scratch = try Scratch("completion")
        defer { scratch.remove() }
        let all = [executable.path] + words
        let quoted = all.map(ProgressTests.quoted).joined(separator: " ")
        let driver = """
            source \(ProgressTests.quoted(try scratch.write("auditor.bash", script).path))
            COMP_WORDS=(\(quoted))
            COMP_CWORD=\(all.count - 1)
            COMP_LINE="${COMP_WORDS[*]}"
            COMP_POINT=${#COMP_LINE}
            COMPREPLY=()
            _auditor auditor \(ProgressTests.quoted(all[all.count - 1])) \(ProgressTests.quoted(all[all.count - 2]))
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let run = try ChildProcess.run(["/bin/bash", "--norc", "--noprofile", "-c", driver], directory: directory)
        #expect(run.status == 0, "\(run)")
        return run.stdoutText.split(separator: "\n").map(String.init).sorted()
    }

    static let rules = ["run", "rules/people.yml"]

    @Test("values: --format, --fail-on, --color, --csv-formula-escape, history --format")
    func values() throws {
        #expect(try Self.bash(Self.rules + ["--format", ""]) == ["github", "html", "json", "junit", "markdown", "sarif", "text"])
        #expect(try Self.bash(Self.rules + ["--fail-on", ""]) == ["error", "never", "warning"])
        #expect(try Self.bash(Self.rules + ["--fail-on", "w"]) == ["warning"])
        #expect(try Self.bash(Self.rules + ["--color", ""]) == ["always", "auto", "never"])
        #expect(try Self.bash(Self.rules + ["--csv-formula-escape", ""]) == ["off", "on"])
        #expect(try Self.bash(["history", "h.sqlite", "--format", ""]) == ["json", "text"])
    }

    @Test("--locale offers en and the catalogs beside the rules file")
    func locales() throws {
        let catalogs = try FileManager.default.contentsOfDirectory(atPath: Auditor.packageRoot.appendingPathComponent("rules/messages").path)
            .filter { $0.hasSuffix(".yml") }.map { String($0.dropLast(4)) }
        #expect(!catalogs.isEmpty)
        #expect(try Self.bash(Self.rules + ["--locale", ""]) == Set(catalogs + ["en"]).sorted())
    }

    @Test("--report offers FORMAT: and then the files after the colon")
    func reportRequests() throws {
        #expect(try Self.bash(Self.rules + ["--report", "js"]) == ["json:"])
        #expect(try Self.bash(Self.rules + ["--report", "html:Sour"]) == ["html:Sources/"])
        #expect(try Self.bash(Self.rules + ["--report", "junit:rules/p"]) == ["junit:rules/people.yml"])
    }

    @Test("files: the rules file (.yml, .yaml and folders), -o, --failures-out")
    func files() throws {
        let scratch = try Scratch("completion-files")
        defer { scratch.remove() }
        try scratch.write("a.yml", "")
        try scratch.write("b.yaml", "")
        try scratch.write("c.csv", "")
        try scratch.write("d.jsonl", "")
        try scratch.write("sub/x.txt", "")
        #expect(try Self.bash(["run", ""], in: scratch.url) == ["a.yml", "b.yaml", "sub"])
        #expect(try Self.bash(["check", ""], in: scratch.url) == ["a.yml", "b.yaml", "sub"])
        #expect(try Self.bash(["run", "a.yml", "-o", ""], in: scratch.url) == ["a.yml", "b.yaml", "c.csv", "d.jsonl", "sub"])
        #expect(try Self.bash(["run", "a.yml", "--failures-out", ""], in: scratch.url) == ["c.csv", "d.jsonl", "sub"])
    }

    @Test("subcommands", arguments: [[""], ["r"]])
    func subcommands(_ words: [String]) throws {
        let offered = try Self.bash(words)
        #expect(offered.contains("run"))
        if words == [""] { #expect(Set(["check", "history"]).isSubset(of: offered)) }
    }

    @Test("zsh and fish scripts carry the same value lists", arguments: ["zsh", "fish"])
    func otherShells(_ shell: String) throws {
        let script = try assertExecute(["--generate-completion-script", shell], exitCode: 0).stdoutText
        for value in ["markdown", "warning", "always", "junit"] {
            #expect(script.contains(value), "\(shell): no '\(value)'")
        }
        #expect(script.contains("yml"), "\(shell): the rules file is not completed as a .yml file")
    }
}
