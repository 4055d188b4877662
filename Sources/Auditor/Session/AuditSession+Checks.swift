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
            guard plan.source(named: s.name) != nil else {
                let known = plan.sources.map(\.name)
                var m = "\(flag) names an unknown source '\(s.name)'"
                if let c = Suggest.closest(to: s.name, in: known) { m += "; did you mean '\(c)'?" } else { m += " (sources: \(known.joined(separator: ", ")))" }
                throw AuditError(.usage, m)
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

    /// What this run must never write: every source (as `--source` replaces it), every
    /// `--previous` snapshot and the rules file, each with its SQLite sidecars. The run adds
    /// the history database (which only SQLite writes) before checking its outputs.
    func protectedFiles(plan: AuditPlan, sourcePaths: [String: String], previousPaths: [String: String]) -> ProtectedFiles {
        var protected = ProtectedFiles()
        // `-` is standard input, not a file (`-o -` writes to standard output).
        for source in plan.sources where (sourcePaths[source.name] ?? source.resolvedPath) != AuditEngine.standardInput {
            protected.add(sourcePaths[source.name] ?? source.resolvedPath, role: "the input of source '\(source.name)'")
        }
        for (name, path) in previousPaths.sorted(by: { $0.key < $1.key }) where path != AuditEngine.standardInput {
            protected.add(path, role: "the previous snapshot of source '\(name)'")
        }
        protected.add(plan.rulesPath, role: "the rules file")
        return protected
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
