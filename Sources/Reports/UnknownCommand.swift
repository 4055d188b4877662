import Auditor
import Foundation

/// `auditor rn`: the first word names no subcommand. The parser would only say "unexpected
/// argument"; this says which command was likely meant.
package enum UnknownCommand {
    /// The error for a first word that is neither an option nor a subcommand, or `nil`.
    ///
    /// - Parameters:
    ///   - arguments: The command line without the program name.
    ///   - names: The subcommands' names, `help` included.
    /// - Returns: `auditor: error: unknown command 'rn'; did you mean 'run'? …` and a line
    ///   pointing at `--help`; a rules file given without `run` is told to add `run`.
    package static func message(for arguments: [String], names: [String]) -> String? {
        guard let word = arguments.first, !word.hasPrefix("-"), !names.contains(word) else { return nil }
        var m = "auditor: error: unknown command '\(TerminalText.escaped(word))'"
        if word.hasSuffix(".yml") || word.hasSuffix(".yaml") {
            m += "; to audit with this rules file, run 'auditor run \(TerminalText.escaped(word))'"
        } else if let close = Suggest.closest(to: word, in: names) {
            m += "; did you mean '\(close)'?"
        } else {
            m += "; the commands are \(names.joined(separator: ", "))"
        }
        return m + "\nSee 'auditor --help'.\n"
    }

    /// Exits with the usage status (64) and the ``message(for:names:)`` when the first
    /// argument is a mistyped subcommand; returns otherwise.
    package static func exitIfUnknown(_ arguments: [String], names: [String]) {
        guard let message = message(for: arguments, names: names + ["help"]) else { return }
        StandardStream.write(message, to: STDERR_FILENO)
        exit(ExitStatus.usage.rawValue)
    }
}
