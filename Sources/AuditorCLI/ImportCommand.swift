import ArgumentParser
import Auditor
import Foundation
import AuditorReaders
import AuditorReports

/// `auditor import`: writes a rules file from another tool's schema.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Write a rules file from another tool's model.",
        subcommands: [ImportCoreDataCommand.self])
}

/// `auditor import coredata MODEL [--store STORE] [-o RULES]`.
struct ImportCoreDataCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coredata",
        abstract: "Turn a Core Data model (.xcdatamodeld or .xcdatamodel) into a rules file that audits its SQLite store.",
        discussion: """
            Exit status: 0 written; 65 the model or store is malformed, or they disagree (the rules \
            are still written and every disagreement is printed); 66 missing model or store; \
            73 the output cannot be written or already exists (use --force); 75 the store is locked.
            """)

    @Argument(help: "The model: a .xcdatamodeld bundle (its current version) or one .xcdatamodel folder.")
    var model: String

    @Option(help: ArgumentHelp("The Core Data SQLite store the rules audit (read-only).", valueName: "STORE"))
    var store: String?

    @Option(name: [.short, .long], help: ArgumentHelp("Write the rules to FILE instead of stdout.", valueName: "FILE"))
    var output: String?

    @Flag(help: "Replace FILE when it exists.")
    var force = false

    @Flag(name: .shortAndLong, help: "Do not print what was not imported.")
    var quiet = false

    func run() throws {
        let status = CLI.guarded {
            let imported = try CoreDataImport(model: model, store: store, rulesPath: output)
            if let output {
                for path in [output] + imported.catalogs.map(\.path) where !force && FileManager.default.fileExists(atPath: path) {
                    throw AuditError(.cannotCreateOutput, "'\(path)' already exists; pass --force to replace it, or choose another -o FILE",
                                     location: path)
                }
                var protected = ProtectedFiles()       // OutputFile refuses the model's files, the store and its sidecars
                for input in imported.inputs { protected.add(input, role: "a file of the Core Data model", sidecars: false) }
                if let store { protected.add(store, role: "the store") }
                try OutputFile.write(imported.rules, to: output, what: "the rules file", option: "-o", protecting: protected)
                for (path, text) in imported.catalogs {
                    try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                    try OutputFile.write(text, to: path, what: "a message catalog", option: "-o", protecting: protected)
                }
                let locales = imported.catalogs.map { (($0.path as NSString).lastPathComponent as NSString).deletingPathExtension }
                if let invalid = CoreDataImport.invalidRules(written: output, locales: locales) {
                    CLI.printError(invalid)
                    throw AuditError(.internal, "the rules written from the model are invalid (a bug: please report it with the model)",
                                     location: output)
                }
            } else {
                print(imported.rules, terminator: "")
            }
            let lines = imported.messages(store: store, quiet: quiet).map { TerminalText.escaped($0) + "\n" }
            StandardStream.write(lines.joined(), to: STDERR_FILENO)
            return imported.problems.isEmpty ? .passed : .dataError
        }
        throw ExitCode(status.rawValue)
    }
}
