import Foundation
import Auditor
import Reports

extension RunCommand {
    /// What this run must never write: every source (as `--source` replaces it), every
    /// `--previous` snapshot and the rules file, each with its SQLite sidecars. The run adds
    /// the history database (which only SQLite writes) before checking its outputs.
    func protectedFiles(plan: AuditPlan, sourcePaths: [String: String], previousPaths: [String: String]) -> ProtectedFiles {
        var protected = ProtectedFiles()
        for source in plan.sources {
            protected.add(sourcePaths[source.name] ?? source.resolvedPath, role: "the input of source '\(source.name)'")
        }
        for (name, path) in previousPaths.sorted(by: { $0.key < $1.key }) {
            protected.add(path, role: "the previous snapshot of source '\(name)'")
        }
        protected.add(rules, role: "the rules file")
        return protected
    }

    /// Every file output of the run: (option, path, what it is), for checks before the audit.
    var outputPaths: [(String, String, String)] {
        var list: [(String, String, String)] = []
        if let output { list.append(("--output", output, "the report")) }
        for r in reports {
            if let parsed = ReportRequest.parse(r) { list.append(("--report", parsed.path, "the report")) }
        }
        if let failuresOut { list.append(("--failures-out", failuresOut, "the failures file")) }
        return list
    }

    /// Refuses, before the audit, an output that reaches an input or its sidecars (exit 64).
    /// Other problems (a missing folder: 73) are reported when that output is written, after
    /// the audit, so that one bad path does not stop the other reports.
    /// Two outputs that reach the same file (`-o r.json --report json:./r.json`, a link, a hard
    /// link) are refused too: one would silently replace the other.
    func checkOutputs(_ protected: ProtectedFiles) throws {
        var earlier = ProtectedFiles()
        for (option, path, what) in outputPaths {
            do {
                try OutputFile.check(path, what: what, option: option, protecting: protected)
            } catch {
                if error.code == .usage { throw error }
            }
            guard Self.isFileOutput(path) else { continue }
            if let other = earlier.entry(reachedBy: path) {
                throw AuditError(.usage, "\(option) '\(path)' is the same file as \(other.role); give each report a file of its own",
                                 location: path)
            }
            earlier.add(path, role: "\(option) '\(path)'", sidecars: false)
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
