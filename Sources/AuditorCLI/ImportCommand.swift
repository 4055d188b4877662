import ArgumentParser
import Auditor
import Foundation
import Readers
import Reports

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
            let (text, problems) = (imported.rules, imported.problems)
            if let output {
                try refuseToReplace(output)
                var protected = ProtectedFiles()
                protected.add(model, role: "the Core Data model", sidecars: false)
                if let store { protected.add(store, role: "the store") }
                try OutputFile.write(text, to: output, what: "the rules file", option: "-o", protecting: protected)
                // The file we wrote must be a valid rules file: anything else is our bug.
                do {
                    _ = try CLI.loadSpecAndPlan(output)
                } catch let e as AuditError {
                    CLI.printError(e)
                    throw AuditError(.internal, "the rules written from the model are invalid (a bug: please report it "
                                     + "with the model)", location: output)
                }
            } else {
                print(text, terminator: "")
            }
            if !quiet {
                for note in imported.notes {
                    FileHandle.standardError.write(Data(TerminalText.escaped("auditor: note: \(imported.versionName): not imported: \(note)").utf8 + [10]))
                }
            }
            for problem in problems {
                FileHandle.standardError.write(Data(TerminalText.escaped("auditor: error: \(store ?? ""): \(problem)").utf8 + [10]))
            }
            if !problems.isEmpty {
                FileHandle.standardError.write(Data(("auditor: the model and the store disagree in \(problems.count) place(s); "
                    + "the rules follow the model: import the model version the app used for this store\n").utf8))
                return .dataError
            }
            return .passed
        }
        throw ExitCode(status.rawValue)
    }

    /// An existing rules file is replaced only with `--force`; inputs (the model, the store and
    /// its sidecars, however reached) are refused by ``OutputFile`` itself.
    func refuseToReplace(_ output: String) throws {
        if !force && FileManager.default.fileExists(atPath: output) {
            throw AuditError(.cannotCreateOutput, "'\(output)' already exists; pass --force to replace it, or choose another -o FILE",
                             location: output)
        }
    }
}
