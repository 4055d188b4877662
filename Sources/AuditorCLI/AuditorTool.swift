import Auditor
import AuditorReports

/// The `auditor` command line, for the stock executable and for one that carries a team's
/// Swift validators (`examples/validators`: `team-auditor`).
public enum AuditorTool {
    /// The validators the running executable carries; `run` and `check` read them.
    @TaskLocal static var validators = ValidationHooks()

    /// Runs the command that the process's arguments name (a mistyped one gets a suggestion,
    /// exit 64); the process exits with the command's status.
    /// - Parameter validators: Swift validators by entity. A rules file runs those that its
    ///   entities name in `validators: [id, ...]`, and stops (78) when one it names is missing.
    public static func main(validators: ValidationHooks = ValidationHooks()) {
        UnknownCommand.exitIfUnknown(Array(CommandLine.arguments.dropFirst()),
                                     names: AuditorCommand.configuration.subcommands.map { $0._commandName })
        $validators.withValue(validators) { AuditorCommand.main() }
    }
}
