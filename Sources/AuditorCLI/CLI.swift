import ArgumentParser
import Auditor
import Foundation
import AuditorReaders
import AuditorReports

/// Shared wiring of the subcommands.
enum CLI {
    /// Runs a body, printing any error on stderr and mapping it to its exit status.
    static func guarded(_ body: () throws -> ExitStatus) -> ExitStatus {
        do {
            return try body()
        } catch let e as AuditError {
            printError(e)
            return e.code.exitStatus
        } catch {
            StandardStream.write("auditor: internal error: \(error)\n", to: STDERR_FILENO)
            return .software
        }
    }

    static func printWarning(_ e: AuditError) {
        StandardStream.write(TerminalText.escaped("auditor: warning: " + e.description) + "\n", to: STDERR_FILENO)
    }

    static func printError(_ e: AuditError) {
        // One line per diagnostic, each escaped on its own (data can never forge a line).
        let lines = e.diagnostics.isEmpty ? ["auditor: error: " + e.description] : e.diagnostics.map(\.description)
        StandardStream.write(lines.map { TerminalText.escaped($0) + "\n" }.joined(), to: STDERR_FILENO)
    }
}
