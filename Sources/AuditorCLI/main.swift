import Auditor
import Foundation

// A mistyped subcommand gets a suggestion before the parser sees it (exit 64, EX_USAGE).
if let message = UnknownCommand.message(for: Array(CommandLine.arguments.dropFirst())) {
    FileHandle.standardError.write(Data(message.utf8))
    exit(ExitStatus.usage.rawValue)
}
AuditorCommand.main()
