#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The checks a session makes before reading any data: source names, and what the run must
/// never write.
extension AuditSession {
    /// `NAME=PATH` overrides (`--source`, `--previous`) by source name.
    /// - Throws: ``AuditError`` `.usage` for a name the rules file does not declare.
    static func namedPaths(_ list: [AuditRequest.SourcePath], flag: String, plan: AuditPlan) throws -> [String: String] {
        var paths = [String: String]()
        for s in list {
            try requireSource(s.name, flag: flag, plan: plan)
            if s.adds {
                throw AuditError(.usage, "\(flag) \(s.name)+=\(s.path): \(flag) takes one file per source; give \(flag) \(s.name)=PATH once")
            }
            if let earlier = paths[s.name] {
                throw AuditError(.usage, "\(flag) names source '\(s.name)' twice ('\(earlier)' and '\(s.path)'); give it once")
            }
            paths[s.name] = s.path
        }
        return paths
    }

    /// Applies `--source-format NAME=FORMAT` to the plan's sources.
    /// - Throws: ``AuditError`` `.usage` for a name the rules file does not declare or a format
    ///   no reader is registered for.
    static func applyFormats(_ list: [AuditRequest.SourcePath], to plan: inout AuditPlan, registry: ReaderRegistry) throws {
        for (name, format) in try namedPaths(list, flag: "--source-format", plan: plan).sorted(by: { $0.key < $1.key }) {
            guard registry.factory(format: format) != nil else {
                var m = "--source-format \(name)=\(format) names an unknown format '\(format)'"
                if let c = Suggest.closest(to: format, in: registry.formats) { m += "; did you mean '\(c)'?" }
                throw AuditError(.usage, m + " (formats: \(registry.formats.joined(separator: ", ")))")
            }
            for i in plan.sources.indices where plan.sources[i].name == name { plan.sources[i].format = format }
        }
    }

    /// - Throws: ``AuditError`` `.usage` for a name the rules file does not declare.
    static func requireSource(_ name: String, flag: String, plan: AuditPlan) throws {
        guard plan.source(named: name) == nil else { return }
        let known = plan.sources.map(\.name)
        var m = "\(flag) names an unknown source '\(name)'"
        if let c = Suggest.closest(to: name, in: known) { m += "; did you mean '\(c)'?" } else { m += " (sources: \(known.joined(separator: ", ")))" }
        throw AuditError(.usage, m)
    }

    /// `--source` values by source name: its files, globs and folders. `NAME=PATH` replaces the
    /// rules file's `path:`, `NAME+=PATH` adds to the files named so far (an earlier `NAME=PATH`'s,
    /// else the rules file's).
    /// - Throws: ``AuditError`` `.usage` for an unknown source, or a source given twice with `=`
    ///   (a later one silently replacing an earlier one would audit only part of the data).
    static func sourceFiles(_ list: [AuditRequest.SourcePath], plan: AuditPlan) throws -> [String: [String]] {
        try replacedFiles(list) { name in
            try requireSource(name, flag: "--source", plan: plan)
            return plan.source(named: name)?.entries ?? []
        }
    }

    /// ``sourceFiles(_:plan:)`` with each source's files in the rules file given by `entries`,
    /// which may throw for a name (each is asked in the list's order, before its path applies).
    static func replacedFiles(_ list: [AuditRequest.SourcePath], entries: (String) throws -> [String]) throws -> [String: [String]] {
        var files = [String: [String]]()
        for s in list {
            let declared = try entries(s.name)
            if s.adds {
                files[s.name, default: declared].append(s.path)
            } else if let earlier = files[s.name] {
                throw AuditError(.usage, "--source names source '\(s.name)' twice ('\(earlier.joined(separator: ", "))' and '\(s.path)'); "
                                     + "to read several files as the source, write --source \(s.name)+=PATH for each further one, "
                                     + "or give a quoted glob or a folder once")
            } else {
                files[s.name] = [s.path]
            }
        }
        return files
    }

    /// What this run must never write: every source (as `--source` replaces it), every
    /// `--previous` snapshot and the rules file, each with its SQLite sidecars. The run adds
    /// the history database (which only SQLite writes) before checking its outputs.
    func protectedFiles(plan: AuditPlan, sourceFiles: [String: [String]], previousPaths: [String: String]) -> ProtectedFiles {
        var protected = ProtectedFiles()
        // `-` is standard input, not a file (`-o -` writes to standard output).
        for source in plan.sources {
            for path in Self.files(of: source, sourceFiles, registry: request.registry) where path != AuditEngine.standardInput {
                protected.add(path, role: "the input of source '\(source.name)'")
            }
        }
        for (name, path) in previousPaths.sorted(by: { $0.key < $1.key }) where path != AuditEngine.standardInput {
            protected.add(path, role: "the previous snapshot of source '\(name)'")
        }
        protected.add(plan.rulesPath, role: "the rules file")
        return protected
    }

    /// A source's files (globs and folders expanded; one that gives none is left to the audit to report).
    static func files(of source: SourceSpec, _ sourceFiles: [String: [String]], registry: ReaderRegistry) -> [String] {
        let entries = sourceFiles[source.name] ?? source.entries
        let extensions = source.format.flatMap { registry.factory(format: $0)?.extensions } ?? registry.factories.flatMap(\.extensions)
        return entries.flatMap { entry in (try? InputSet.expand([entry], extensions: extensions)) ?? [entry] }
    }

    /// Refuses, before the audit, an output that reaches an input or its sidecars (exit 64).
    /// Other problems the output check finds (a missing folder: 73) are left for when that
    /// output is written, after the audit, so that one bad path does not stop the other reports.
    /// Two outputs that reach the same file (`-o r.json --report json:./r.json`, a link, a hard
    /// link) are refused too: one would silently replace the other.
    func checkOutputs(_ protected: ProtectedFiles) throws {
        var earlier = ProtectedFiles()
        for output in request.outputs {
            do {
                try request.outputCheck?(output, protected)
            } catch let e as AuditError {
                if e.code == .usage { throw e }
            }
            guard Self.isFileOutput(output.path) else { continue }
            if let other = earlier.entry(reachedBy: output.path) {
                throw AuditError(.usage, "\(output.option) '\(output.path)' is the same file as \(other.role); give each report a file of its own",
                                 location: output.path)
            }
            earlier.add(output.path, role: "\(output.option) '\(output.path)'", sidecars: false)
        }
    }

    /// A path that names a regular file, or one not created yet: not standard output, a device
    /// or a FIFO, which several outputs may share.
    static func isFileOutput(_ path: String) -> Bool {
        guard path != "-" else { return false }
        var info = stat()
        return stat(path, &info) != 0 || info.st_mode & S_IFMT == S_IFREG
    }
}
