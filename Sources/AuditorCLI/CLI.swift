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
            FileHandle.standardError.write(Data("auditor: internal error: \(error)\n".utf8))
            return .software
        }
    }

    static func printWarning(_ e: AuditError) {
        FileHandle.standardError.write(Data((TerminalText.escaped("auditor: warning: " + e.description) + "\n").utf8))
    }

    static func printError(_ e: AuditError) {
        // One line per diagnostic, each escaped on its own (data can never forge a line).
        let lines = e.diagnostics.isEmpty ? ["auditor: error: " + e.description] : e.diagnostics.map(\.description)
        FileHandle.standardError.write(Data(lines.map { TerminalText.escaped($0) + "\n" }.joined().utf8))
    }
}
