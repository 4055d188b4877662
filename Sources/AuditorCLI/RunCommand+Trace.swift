import Auditor
import Foundation
import Reports

/// `-vv`: a trace of the run on stderr, one `auditor: trace:` line per step, so a user can see
/// how the run was set up and where its time and its reports went. `-v` only adds detail to
/// the reports themselves.
extension RunCommand {
    /// Whether `-vv` (or more) was given.
    var traces: Bool { verbose >= 2 }

    /// Writes trace lines on stderr when `-vv` was given, each escaped (data never forges a line).
    func trace(_ lines: [String]) {
        guard traces, !lines.isEmpty else { return }
        FileHandle.standardError.write(Data(lines.map { "auditor: trace: " + TerminalText.escaped($0) + "\n" }.joined().utf8))
    }

    /// The plan and the settings, before any data is read.
    func traceSetup(_ plan: AuditPlan) {
        let rules = plan.entities.reduce(0) { $0 + $1.rules.count }
        trace(["rules file \(self.rules): \(plan.sources.count) source(s), \(plan.entities.count) entit\(plan.entities.count == 1 ? "y" : "ies"), \(rules) rule(s)",
               "threads \(threads) (\(jobs == nil ? "the number of cores" : "--jobs")), chunk size \(chunkSize) records, "
                   + "max samples \(maxSamples), fail on \(failOn)"])
    }

    /// Each input's records, bytes and time, and the run's outcome.
    func traceInputs(_ report: AuditReport) {
        var lines = report.inputs.map { input -> String in
            var line = "input \(input.source)\(input.isPrevious ? " (previous)" : "") [\(input.format)] \(input.path): \(input.records) record(s)"
            if let bytes = input.bytes { line += String(format: ", %.1f MB", Double(bytes) / 1e6) }
            line += String(format: " in %.3f s", input.seconds)
            if let error = input.error { line += "; incomplete: \(error)" }
            return line
        }
        lines.append(String(format: "audit took %.3f s; %d rule(s) violated, %d at the failing severity",
                            report.durationSeconds, report.violatedRules.count, report.failingRules.count))
        trace(lines)
    }
}
