import Foundation

extension Profiler {
    /// Opens one input file through the registry and profiles it: what `auditor profile` does
    /// for each `[NAME=]PATH[#SELECTOR]` argument.
    ///
    /// The fields are the CSV header as read, every column of an SQLite table, and for XML the
    /// fields of the first 1000 records (a field that appears only later is reported, not
    /// profiled); one that repeats within one of those records is read as a list
    /// (the factory's `columnReadings`).
    /// - Parameters:
    ///   - path: The input; its extension names the format.
    ///   - name: The source name the profile and the rules draft use.
    ///   - selector: The SQLite table or the XML record element (`#TABLE`, `#RECORD`).
    ///   - table: The SQLite table when there is no selector (default: the file name without extension).
    ///   - record: The XML record element when there is no selector (required for XML).
    ///   - format: The format to read it as (`--source-format`); nil: its extension tells.
    ///   - registry: The readers.
    ///   - jobs: Threads.
    /// - Throws: ``AuditError`` `.usage` for an unknown format or extension, or an XML input
    ///   without its record element; the reader's errors.
    public static func profile(path: String, name: String, selector: String?, table: String?, record: String?,
                               format: String? = nil, registry: ReaderRegistry, jobs: Int) throws -> SourceProfile {
        if path == AuditEngine.standardInput {
            throw AuditError(.usage, "auditor profile cannot read standard input ('-'): it may read an input twice (its "
                                 + "fields, then its values); save the data to a file and profile that")
        }
        let known = registry.formats.joined(separator: ", ")
        guard let factory = format.map(registry.factory(format:)) ?? registry.factory(forPath: path) else {
            if let format { throw AuditError(.usage, "--source-format: unknown format '\(format)' (known formats: \(known))") }
            throw AuditError(.usage, "cannot tell the format of '\(path)' from its extension; name it with --source-format "
                                 + "\(name)=FORMAT (known formats: \(known))")
        }
        var options = [String: String]()
        switch factory.format {
        case "sqlite":
            // Else the table named like the file, or the database's only table (the text and JSON say which).
            options["table"] = selector ?? table ?? factory.sniff?(path, SourceURL.redacted(path))["table"]
                ?? URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        case "postgres", "spark": options["table"] = selector ?? table ?? name   // postgresql://host/db#TABLE, sc://host:port#TABLE
        case "xml":
            // Else the element that repeats first in the file (the text and JSON say which).
            guard let record = selector ?? record ?? factory.sniff?(path, SourceURL.redacted(path))["record"] else {
                throw AuditError(.usage, "no element repeats in the XML file '\(path)', so name its record element: "
                                     + "'\(path)#ELEMENT' or --record ELEMENT")
            }
            options["record"] = record
        default: options = factory.sniff?(path, SourceURL.redacted(path)) ?? [:]
        }
        // Columns read otherwise than the defaults do: numbers and dates written otherwise (a CSV's
        // decimalComma:, dateFormat:), fields declared `as: list` (an XML child element that repeats).
        var readings = ColumnReadings()
        func decoded() throws -> any ReaderOptions {
            var yaml = options.sorted { $0.key < $1.key }.map { "\($0.key): \(Evidence.quoted($0.value))" }.joined(separator: "\n")
            for line in readings.yaml { yaml += (yaml.isEmpty ? "" : "\n") + line }
            if !readings.lists.isEmpty {
                yaml += "\nfields:\n" + readings.lists.map { "  \(Evidence.quoted($0)): { path: \(Evidence.quoted($0)), as: list }\n" }.joined()
            }
            do {
                return try factory.decodeOptions(yaml.isEmpty ? nil : try YAMLLoader.load(yaml, file: "<\(factory.format) options>"))
            } catch let error as AuditError where error.code == .invalidRules {
                // The options came from the command line (#SELECTOR, --table, --record), not a rules file,
                // which is where XML namespaces are declared.
                var message = "'\(SourceURL.redacted(path))': " + error.diagnostics.map(\.message).joined(separator: "; ")
                if let record = options["record"], message.contains("namespace prefix") {
                    let local = record.split(separator: "/", omittingEmptySubsequences: false).map { $0.split(separator: ":").last ?? $0 }
                    message += ". A profile declares no namespaces: name the element without its prefix, '\(local.joined(separator: "/"))', "
                        + "which matches it in any namespace"
                }
                throw AuditError(.usage, message)
            }
        }
        var node = try decoded()
        var fields = [String]()
        if factory.format != "csv" {
            let probe = try factory.open(ReaderRequest(sourceName: name, path: path, displayPath: SourceURL.redacted(path), options: node,
                                                       fields: [], missingFieldsAllowed: true))
            if factory.format == "xml" { _ = try probe.nextChunk(maxRecords: 1000) }
            fields = probe.availableFields
        }
        // The first records, with the fields found, tell the columns to read otherwise: numbers with a decimal
        // comma (12,50), dates in another order (31.12.2024), fields that repeat (each value profiled, not the first).
        if let read = factory.columnReadings, factory.format == "csv" || !fields.isEmpty {
            let probe = try factory.open(ReaderRequest(sourceName: name, path: path, displayPath: SourceURL.redacted(path), options: node,
                                                       fields: fields, missingFieldsAllowed: true))
            if let chunk = try probe.nextChunk(maxRecords: 1000) { readings = read(chunk, probe.schema.fields) }
            if !readings.isEmpty, let options = try? decoded() { node = options } else { readings = ColumnReadings() }
        }
        let reader = try factory.open(ReaderRequest(sourceName: name, path: path, displayPath: SourceURL.redacted(path), options: node,
                                                    fields: fields, parallelism: jobs, missingFieldsAllowed: true))
        var profiled = try profile(reader, name: name, path: SourceURL.redacted(path), format: factory.format, options: options, jobs: jobs)
        profiled.readings = readings
        for i in profiled.columns.indices {
            let name = profiled.columns[i].name
            if let format = readings.dateFormats[name] { profiled.columns[i].readAs = format.contains(":") ? .datetime : .date }
            if readings.decimalComma.contains(name) || readings.thousandsComma.contains(name) { profiled.columns[i].readAs = .decimal }
        }
        return profiled
    }

    /// Profiles `auditor profile`'s arguments, each `[NAME=]PATH[#SELECTOR]` (``split(_:)``).
    /// - Parameter formats: `--source-format`'s `NAME=FORMAT` arguments: the format of a source by its name.
    /// - Throws: ``AuditError`` `.usage` when two sources get one name, or a format is not
    ///   `NAME=FORMAT` or names no source; what
    ///   ``profile(path:name:selector:table:record:format:registry:jobs:)`` throws.
    package static func profile(arguments: [String], table: String?, record: String?, formats: [String] = [],
                                registry: ReaderRegistry, jobs: Int) throws -> ProfileReport {
        var formatOf = [String: String]()
        for argument in formats {
            guard let pair = AuditRequest.SourcePath(argument: argument), !pair.adds else {
                throw AuditError(.usage, "--source-format takes NAME=FORMAT, e.g. --source-format export=csv; got '\(argument)'")
            }
            formatOf[pair.name] = pair.path
        }
        let given = arguments.map(split)
        if let stray = formatOf.keys.sorted().first(where: { name in !given.contains { $0.name == name } }) {
            throw AuditError(.usage, "--source-format names '\(stray)', which is no source of this profile; its sources are "
                                 + "\(given.map { "'\($0.name)'" }.joined(separator: ", ")) (NAME=PATH names one)")
        }
        var sources = [(name: String, path: String, selector: String?, format: String?)]()
        var named = [Bool]()
        for (argument, (name, path, selector)) in zip(arguments, given) {
            let format = formatOf[name]
            // A database given no table, with several and none named like the file: each of its tables, named after it.
            if selector == nil, table == nil, let factory = format.map(registry.factory(format:)) ?? registry.factory(forPath: path),
               let tables = factory.profiledTables?(path, SourceURL.redacted(path)), !tables.isEmpty {
                sources += tables.map { ($0, path, $0, format) }
                named += tables.map { _ in true }
                continue
            }
            sources.append((name, path, selector, format))
            named.append(argument.hasPrefix(name + "="))
        }
        // PATH#A PATH#B: the sources named after their file are named after their table or record element instead.
        let shared = Dictionary(sources.map { ($0.name, 1) }, uniquingKeysWith: +)
        for i in sources.indices where !named[i] && shared[sources[i].name, default: 0] > 1 {
            if let selector = sources[i].selector, let last = selector.split(separator: "/").last { sources[i].name = String(last) }
        }
        var names = Set<String>()
        for source in sources where !names.insert(source.name).inserted {
            throw AuditError(.usage, "two sources are named '\(source.name)'; name them: NAME=PATH")
        }
        return ProfileReport(sources: try sources.map { source in
            try profile(path: source.path, name: source.name, selector: source.selector, table: table, record: record,
                        format: source.format, registry: registry, jobs: jobs)
        })
    }

    /// What the outputs of a profile must never reach: every profiled input (with its
    /// SQLite sidecars), however the path gets there.
    package static func protectedFiles(arguments: [String]) -> ProtectedFiles {
        var protected = ProtectedFiles()
        for argument in arguments { protected.add(split(argument).path, role: "a profiled source") }
        return protected
    }

    /// `NAME=PATH#SELECTOR`, `PATH#SELECTOR`, `NAME=PATH` or `PATH` (named after the file,
    /// without extension).
    package static func split(_ argument: String) -> (name: String, path: String, selector: String?) {
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
}
