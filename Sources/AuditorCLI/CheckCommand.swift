import ArgumentParser
import Auditor
import Foundation
import AuditorReaders
import AuditorReports

/// `auditor check RULES [--data]`: validates a rules file without reading data, and with
/// `--data` compares the declared attributes with each source's real fields.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate a rules file without reading any data (exit 0 if valid, 78 if not).",
        discussion: """
            Errors (contradictions, unknown keys, bad patterns...) exit 78; warnings (a rule that \
            always holds, a reference to a key not declared unique, a source no entity reads) are \
            printed and exit 0. With --data, each source's header or schema is compared with the \
            declared attributes without auditing: a declared attribute the source lacks exits 65.
            """)

    @Argument(help: "The rules file (YAML).", completion: .file(extensions: ["yml", "yaml"]))
    var rules: String

    @Flag(name: .shortAndLong, help: "Print nothing when the file is valid.")
    var quiet = false

    @Flag(help: "Also open every source and compare its fields with the declared attributes (no audit).")
    var data = false

    func run() throws {
        let status = CLI.guarded {
            let check = try RulesCheck(rules, registry: StandardReaders.registry,
                                       structuralRules: StandardReaders.structuralRules, data: data,
                                       hooks: AuditorTool.validators)
            let lines = (check.errors + check.warnings).map { TerminalText.escaped($0.description) + "\n" }
            StandardStream.write(lines.joined(), to: STDERR_FILENO)
            if !check.errors.isEmpty { return .dataError }
            if !quiet { print("\(rules): \(check.summary)") }
            return .passed
        }
        throw ExitCode(status.rawValue)
    }
}
