import Auditor
import Foundation

/// `-vv`: the lines of a run's trace on stderr, one `auditor: trace:` line per step, so a user
/// can see how the run was set up and where its time went. `-v` only adds detail to the
/// reports themselves.
package enum RunTrace {
    /// Trace lines ready for stderr: each escaped (data never forges a line) and prefixed.
    public static func text(_ lines: [String]) -> String {
        lines.map { "auditor: trace: " + TerminalText.escaped($0) + "\n" }.joined()
    }

    /// The plan and the settings, before any data is read.
    /// - Parameters:
    ///   - plan: The compiled rules.
    ///   - rulesFile: The rules file as given.
    ///   - threads: Evaluation threads; `threadsGiven` whether `--jobs` set them.
    public static func setup(_ plan: AuditPlan, rulesFile: String, threads: Int, threadsGiven: Bool, chunkSize: Int,
                             maxSamples: Int, failOn: String) -> [String] {
        let rules = plan.entities.reduce(0) { $0 + $1.rules.count }
        return ["rules file \(rulesFile): \(Plural.count(plan.sources.count, "source")), "
                    + "\(Plural.count(plan.entities.count, "entity", "entities")), \(Plural.count(rules, "rule"))",
                "threads \(threads) (\(threadsGiven ? "--jobs" : "the number of cores")), chunk size \(chunkSize) records, "
                    + "max samples \(maxSamples), fail on \(failOn)"]
    }

    /// Each input's records, bytes and time, and the run's outcome.
    public static func inputs(_ report: AuditReport) -> [String] {
        var lines = report.inputs.map { input -> String in
            var line = "input \(input.source)\(input.isPrevious ? " (previous)" : "") [\(input.format)] \(input.path): \(Plural.count(input.records, "record"))"
            if let bytes = input.bytes { line += String(format: ", %.1f MB", Double(bytes) / 1e6) }
            line += String(format: " in %.3f s", input.seconds)
            if let error = input.error { line += "; incomplete: \(error)" }
            return line
        }
        lines.append(String(format: "audit took %.3f s; ", report.durationSeconds)
                     + "\(Plural.count(report.violatedRules.count, "rule")) violated, \(report.failingRules.count) at the failing severity")
        return lines
    }
}
