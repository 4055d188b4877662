import ArgumentParser
import Auditor
import Foundation
import Readers
import Reports

/// `auditor profile SOURCE... [--rules-out FILE] [--format text|json|html]`: profiles inputs
/// in one streaming pass each and drafts rules from what it finds (the work is in the core's
/// ``Profiler``; this command parses arguments, opens readers and renders).
struct ProfileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile",
        abstract: "Profile data files and suggest rules (types, required, keys, enums, patterns, references).",
        discussion: """
            A SOURCE is PATH or NAME=PATH, optionally followed by #TABLE (SQLite) or #RECORD (XML): \
            people.sqlite#people, people.xml#person. The format follows the extension (.csv, .tsv, \
            .xml, .sqlite, .sqlite3, .db). A SQLite source without #TABLE reads --table (default: the \
            file name without extension); an XML source without #RECORD needs --record.
            """)

    @Argument(help: "The inputs: PATH or NAME=PATH.")
    var sources: [String]

    @Option(help: "Write the suggested rules to this file (atomically).")
    var rulesOut: String?

    @Option(help: "text, json or html.")
    var format: String = "text"

    @Option(help: "Write the profile to this file instead of standard output.")
    var output: String?

    @Option(help: "The SQLite table to profile.")
    var table: String?

    @Option(help: "The XML element that is one record (e.g. person or /people/person).")
    var record: String?

    @Option(help: "Threads (default: all cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    func run() throws {
        let status = CLI.guarded {
            guard ["text", "json", "html"].contains(format) else {
                throw AuditError(.usage, "unknown --format '\(format)'; use text, json or html")
            }
            // Outputs never reach a profiled input (or its SQLite sidecars), however the path gets there.
            var protected = ProtectedFiles()
            for argument in sources { protected.add(Self.split(argument).path, role: "a profiled source") }
            if let rulesOut { try OutputFile.check(rulesOut, what: "the rules draft", option: "--rules-out", protecting: protected) }
            if let output { try OutputFile.check(output, what: "the profile", option: "--output", protecting: protected) }
            var profiles = [SourceProfile]()
            var names = Set<String>()
            for argument in sources {
                let (name, path, selector) = Self.split(argument)
                guard names.insert(name).inserted else {
                    throw AuditError(.usage, "two sources are named '\(name)'; name them: NAME=PATH")
                }
                profiles.append(try profile(name: name, path: path, selector: selector))
            }
            let report = ProfileReport(sources: profiles)
            if let rulesOut {
                let folder = URL(fileURLWithPath: rulesOut).deletingLastPathComponent().path
                try OutputFile.write(RulesDraft.yaml(report, folder: folder), to: rulesOut, what: "the rules draft",
                                     option: "--rules-out", protecting: protected)
            }
            let text: String
            switch format {
            case "json": text = ProfileRenderer.json(report)
            case "html": text = ProfileRenderer.html(report)
            default: text = ProfileRenderer.text(report)
            }
            if let output, output != "-" {
                try OutputFile.write(text, to: output, what: "the profile", option: "--output", protecting: protected)
            } else {
                print(text, terminator: "")
            }
            return .passed
        }
        throw ExitCode(status.rawValue)
    }

    /// `NAME=PATH#SELECTOR`, `PATH#SELECTOR`, `NAME=PATH` or `PATH` (named after the file,
    /// without extension).
    static func split(_ argument: String) -> (name: String, path: String, selector: String?) {
        var rest = Substring(argument)
        var selector: String?
        if let hash = rest.lastIndex(of: "#"), !rest[rest.index(after: hash)...].contains("/") || rest[rest.index(after: hash)...].hasPrefix("/") {
            selector = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        if let eq = rest.firstIndex(of: "="), !rest[..<eq].contains("/") {
            return (String(rest[..<eq]), String(rest[rest.index(after: eq)...]), selector)
        }
        let base = URL(fileURLWithPath: String(rest)).deletingPathExtension().lastPathComponent
        return (base.isEmpty ? "source" : base, String(rest), selector)
    }

    private func profile(name: String, path: String, selector: String?) throws -> SourceProfile {
        let registry = StandardReaders.registry
        guard let factory = registry.factory(forPath: path) else {
            throw AuditError(.usage, "cannot tell the format of '\(path)' from its extension (known formats: \(registry.formats.joined(separator: ", ")))")
        }
        var options = [String: String]()
        switch factory.format {
        case "sqlite": options["table"] = selector ?? table ?? URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        case "xml":
            guard let record = selector ?? record else { throw AuditError(.usage, "profiling the XML file '\(path)' needs its record element: '\(path)#ELEMENT' or --record ELEMENT") }
            options["record"] = record
        default: break
        }
        let yaml = options.sorted { $0.key < $1.key }.map { "\($0.key): \(Evidence.quoted($0.value))" }.joined(separator: "\n")
        let readerOptions = try factory.decodeOptions(options.isEmpty ? nil : try YAMLLoader.load(yaml, file: "<\(factory.format) options>"))
        // The fields: the CSV header as read; every column of a table; for XML, the fields of
        // the records read first (a field that appears only later is reported, not profiled).
        var fields = [String]()
        if factory.format != "csv" {
            let probe = try factory.open(ReaderRequest(sourceName: name, path: path, displayPath: path, options: readerOptions,
                                                       fields: [], missingFieldsAllowed: true))
            if factory.format == "xml" { _ = try probe.nextChunk(maxRecords: 1000) }
            fields = probe.availableFields
        }
        let reader = try factory.open(ReaderRequest(sourceName: name, path: path, displayPath: path, options: readerOptions,
                                                    fields: fields, parallelism: jobs, missingFieldsAllowed: true))
        return try Profiler.profile(reader, name: name, path: path, format: factory.format, options: options, jobs: jobs)
    }
}
