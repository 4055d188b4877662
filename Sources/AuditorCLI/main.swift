import Auditor
import Foundation
import AuditorReports

// A mistyped subcommand gets a suggestion before the parser sees it (exit 64, EX_USAGE).
let commands = AuditorCommand.configuration.subcommands.map { $0._commandName } + ["help"]
if let message = UnknownCommand.message(for: Array(CommandLine.arguments.dropFirst()), names: commands) {
    FileHandle.standardError.write(Data(message.utf8))
    exit(ExitStatus.usage.rawValue)
}
AuditorCommand.main()
