import ArgumentParser
import Auditor
import Foundation
import Readers

/// `auditor check RULES`: validates a rules file without reading data.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate a rules file without reading any data (exit 0 if valid, 78 if not).")

    @Argument(help: "The rules file (YAML).", completion: .file(extensions: ["yml", "yaml"]))
    var rules: String

    @Flag(name: .shortAndLong, help: "Print nothing when the file is valid.")
    var quiet = false

    func run() throws {
        let status = CLI.guarded {
            let plan = try CLI.loadPlan(rules)
            let ruleCount = plan.entities.reduce(0) { $0 + $1.rules.count }
            if !quiet {
                print("\(rules): ok: \(plan.sources.count) source(s), \(plan.entities.count) entit\(plan.entities.count == 1 ? "y" : "ies"), \(ruleCount) rule(s)")
            }
            return .passed
        }
        throw ExitCode(status.rawValue)
    }
}
