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
    func checkOutputs(_ protected: ProtectedFiles) throws {
        for entry in outputPaths {
            do {
                try OutputFile.check(entry.1, what: entry.2, option: entry.0, protecting: protected)
            } catch {
                if error.code == .usage { throw error }
            }
        }
    }
}
