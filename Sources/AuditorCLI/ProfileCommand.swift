import ArgumentParser
import Auditor
import Foundation
import AuditorReaders
import AuditorReports

/// `auditor profile SOURCE... [--rules-out FILE] [--format text|json|html]`: profiles inputs
/// in one streaming pass each and drafts rules from what it finds (the work is in the core's
/// ``Profiler``; this command parses arguments, opens readers and renders).
struct ProfileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile",
        abstract: "Profile data files and suggest rules (types, required, keys, enums, patterns, references).",
        discussion: """
            A SOURCE is PATH or NAME=PATH, optionally followed by #TABLE (SQLite) or #RECORD (XML): people.sqlite#people, people.xml#person. \
            The format follows the extension (.csv, .tsv, .jsonl, .ndjson, .xml, .sqlite, .sqlite3, .db, .parquet). \
            A SQLite source without #TABLE reads --table (default: the file name without extension, else its only table, else each table as a source of its name); \
            an XML source without #RECORD reads --record, else the first element that repeats. A CSV file is read with the delimiter its first records use (, ; TAB or |), and the rules say it. \
            A file whose extension tells no format (export.txt) needs --source-format export=csv.
            """)

    @Argument(help: "The inputs: PATH or NAME=PATH.") var sources: [String]
    @Option(help: "Write the suggested rules to this file (atomically).") var rulesOut: String?
    @Option(help: "text, json or html.") var format: String = "text"
    @Option(name: [.short, .long], help: ArgumentHelp("Write the profile to FILE ('-' is stdout) instead of stdout.", valueName: "FILE"))
    var output: String?
    @Option(help: "The SQLite table to profile.") var table: String?
    @Option(help: "The XML element that is one record (e.g. person or /people/person).") var record: String?
    @Option(name: .customLong("source-format"), help: ArgumentHelp("Read a source as this format (csv, xml, sqlite...): for a path whose "
        + "extension does not tell it.", valueName: "NAME=FORMAT")) var sourceFormats: [String] = []
    @Option(name: [.short, .long], help: ArgumentHelp("Threads (default: the number of cores).", valueName: "N")) var jobs: Int?

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
    }

    func run() throws {
        let status = CLI.guarded {
            guard let render = ProfileRenderer.renderer(format: format) else {
                throw AuditError(.usage, "unknown --format '\(format)'; use text, json or html")
            }
            let protected = Profiler.protectedFiles(arguments: sources)
            try OutputFile.check([rulesOut.map { ($0, "the rules draft", "--rules-out") }, output.map { ($0, "the profile", "--output") }]
                .compactMap { $0 }, protecting: protected)
            let report = try Profiler.profile(arguments: sources, table: table, record: record, formats: sourceFormats,
                                              registry: StandardReaders.registry, jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount)
            if let rulesOut {
                let folder = URL(fileURLWithPath: rulesOut).deletingLastPathComponent().path
                try OutputFile.write(RulesDraft.yaml(report, folder: folder), to: rulesOut, what: "the rules draft",
                                     option: "--rules-out", protecting: protected)
            }
            if let output, output != "-" {
                try OutputFile.write(render(report), to: output, what: "the profile", option: "--output", protecting: protected)
            } else {
                print(render(report), terminator: "")
            }
            return .passed
        }
        throw ExitCode(status.rawValue)
    }
}
