import Foundation

/// Opening an entity's input: one file, or the files of a source of several (``MultiFileReader``).
extension AuditEngine {
    /// An opened input.
    struct OpenedInput {
        var reader: any RecordReader
        var factory: ReaderFactory
        /// How findings about the whole input name it: the file, or a multi-file source's entries.
        var display: String
        /// The first (or only) file.
        var path: String
        /// The files of a source of several; nil for one file.
        var files: SourceFiles?
    }

    /// A source's entries (files, globs, folders): `--source` values, else the rules file's `path:`.
    func entries(_ source: SourceSpec) -> [String] {
        options.sourceFiles[source.name] ?? options.sourcePaths[source.name].map { [$0] } ?? source.entries
    }

    /// The file extensions a source's folders and globs select: its format's, else every format's.
    func extensions(_ source: SourceSpec) -> [String] {
        source.format.flatMap { registry.factory(format: $0)?.extensions } ?? registry.factories.flatMap(\.extensions)
    }

    /// How messages name an entity's input before it is opened (the entries joined).
    func inputLabel(_ plan: AuditPlan, _ ei: Int, path override: String?) -> String {
        if let override { return SourceURL.redacted(override) }
        let entity = plan.entities[ei]
        return plan.source(named: entity.source).map { entries($0).map(SourceURL.redacted).joined(separator: ", ") } ?? entity.source
    }

    /// Opens an entity's input.
    /// - Parameter override: Read this one file instead of the source's (a previous snapshot).
    /// - Throws: ``AuditError`` `.missingInput` for a glob or folder that gives no file or a
    ///   first file that cannot be opened, `.invalidRules` when the format cannot be told, the
    ///   reader's errors.
    func open(_ plan: AuditPlan, _ ei: Int, path override: String? = nil) throws -> OpenedInput {
        let entity = plan.entities[ei]
        guard let source = plan.source(named: entity.source) else {
            throw AuditError(.internal, "entity '\(entity.name)' has no source '\(entity.source)'")
        }
        let given = override.map { [$0] } ?? entries(source)
        // A previous snapshot is one file (a folder or pattern there is refused as not a file).
        let paths = try override.map { [$0] } ?? InputSet.expand(given, extensions: extensions(source))
        guard let path = paths.first else {
            throw AuditError(.missingInput, "source '\(source.name)' names no file", location: source.pathMark.description)
        }
        guard paths.count <= FileLocation.maxFiles else {
            throw AuditError(.usage, "source '\(source.name)' has \(paths.count) files; at most \(FileLocation.maxFiles) are read as one source")
        }
        if path != Self.standardInput, !SourceURL.isURL(path) {
            try InputFile.requireRegular(path)  // a FIFO or device: 66 before its format is asked for
        }
        let factory = try factory(for: source, path: path)
        // The block decoded with the plan; a source without one for this format gets the
        // reader's defaults (or the reader says what the block must name).
        let decoded = try plan.readerOptions?[source.name, factory.format] ?? factory.decodeOptions(nil)
        let jobs = options.jobs
        let openFile = { (path: String) throws -> any RecordReader in
            // A connection URL is not a file; it is shown without its password (if any).
            if path == Self.standardInput {
                try standardInputClaim.claim(for: source.name)     // `-`: the one way to read a pipe, once
            } else if !SourceURL.isURL(path) {
                try InputFile.requireRegular(path)  // a FIFO, device or directory: 66, never a hang
            }
            let request = ReaderRequest(sourceName: source.name, path: path, displayPath: SourceURL.redacted(path),
                                        options: decoded, fields: entity.fields, parallelism: jobs,
                                        missingFieldsAllowed: entity.toleratesMissingColumns)
            return try factory.open(request)
        }
        guard paths.count > 1 else {
            return OpenedInput(reader: try openFile(path), factory: factory, display: SourceURL.redacted(path), path: path)
        }
        let files = SourceFiles(paths: paths, label: given.joined(separator: ", "))
        // The first file that opens is the one the others' fields are checked against; the
        // ones before it are reported and left out, like any file that cannot be opened.
        for (i, candidate) in paths.enumerated() {
            let reader: any RecordReader
            do {
                reader = try openFile(candidate)
            } catch let e as AuditError where e.code != .invalidRules && i + 1 < paths.count {
                files.setError(i, e)
                continue
            }
            let multi = MultiFileReader.make(first: reader, firstIndex: i, files: files, sizes: paths.map(Self.fileSize),
                                             openFile: openFile)
            return OpenedInput(reader: multi, factory: factory, display: files.label, path: candidate, files: files)
        }
        throw AuditError(.internal, "source '\(source.name)': no file was opened")
    }

    func factory(for source: SourceSpec, path: String) throws -> ReaderFactory {
        if let format = source.format, let f = registry.factory(format: format) { return f }
        if let f = registry.factory(forPath: path) { return f }
        let hint = "add 'format: \(registry.formats.first ?? "csv")' to the source (known formats: \(registry.formats.joined(separator: ", ")))"
        if path == Self.standardInput {
            throw AuditError(.usage, "standard input has no extension to tell the format of source '\(source.name)': add "
                                 + "--source-format \(source.name)=\(registry.formats.first ?? "csv") (formats: \(registry.formats.joined(separator: ", ")))")
        }
        throw AuditError.invalidRules([Diagnostic(mark: source.pathMark,
                                                  message: "cannot tell the format of '\(SourceURL.redacted(path))' from its extension; \(hint)")])
    }

    /// One input summary per file of a multi-file source, from the pass's summary.
    /// - Parameter stoppedAt: The file whose error ended the pass (the files after it were not read).
    static func fileSummaries(_ files: SourceFiles, _ summary: InputSummary,
                              stoppedAt: Int?) -> (summaries: [InputSummary], errors: [AuditError]) {
        var summaries = [InputSummary]()
        var errors = [AuditError]()
        for (i, path) in files.paths.enumerated() {
            var s = summary
            s.path = path
            s.bytes = fileSize(path)
            s.records = files.recordCount(i)
            s.seconds = i == 0 ? summary.seconds : 0
            s.complete = true
            s.error = nil
            s.errorStatus = nil
            if let e = files.error(i) {
                s.complete = false
                s.error = e.description
                s.errorStatus = e.code.exitStatus
                errors.append(e)
            } else if let stop = stoppedAt, i == stop {
                s.complete = false          // the pass's error: reported once, by the pass
                s.error = summary.error
                s.errorStatus = summary.errorStatus
            } else if let stop = stoppedAt, i > stop {
                s.complete = false
                s.error = "not read: reading stopped at the error in \(files.path(stop))"
            }
            summaries.append(s)
        }
        return (summaries, errors)
    }
}
