import Auditor

/// Why a run passed, failed or is incomplete, in plain words, for the reports that people
/// read first (HTML banner, GitHub job summary): the verdict, the exit status and the reasons.
///
/// `PASSED (exit 0): 2 rules tolerated within their thresholds; 1 warning rule violated,
/// below --fail-on error`. Under `--fail-on-new`, rules violated at a failing severity whose
/// findings are all in the baseline are a reason of their own.
struct RunExplanation {
    let report: AuditReport

    /// Rules with `status == .violated` whose severity fails the run.
    var failing: [RuleOutcome] { report.failingRules }
    /// Rules within their threshold.
    var tolerated: [RuleOutcome] { report.toleratedRules }
    /// Rules beyond their threshold whose severity is below `--fail-on`.
    var belowFailOn: [RuleOutcome] {
        report.rules.filter { $0.status == .violated && !report.failOn.fails($0.severity) }
    }

    /// `PASSED`, `FAILED`, `INCOMPLETE`.
    var verdict: String {
        switch report.outcome {
        case .passed: return "PASSED"
        case .failed: return "FAILED"
        case .incomplete: return "INCOMPLETE"
        }
    }

    /// The severities that fail the run, in words.
    var failingSeverities: String {
        switch report.failOn {
        case .error: return "at severity error"
        case .warning: return "at severity warning or error"
        case .never: return "(none fails with --fail-on never)"
        }
    }

    /// The reasons, most important first; never empty.
    var reasons: [String] {
        var out: [String] = []
        let incomplete = report.inputs.filter { !$0.complete }
        if !incomplete.isEmpty {
            let paths = incomplete.map { "'\($0.path)'" }.joined(separator: ", ")
            out.append("\(paths) not read completely, so the audit cannot pass")
        }
        if !failing.isEmpty {
            out.append("\(Plural.count(failing.count, "rule")) \(report.gatesOnNew ? "with new findings " : "")violated "
                       + "\(failingSeverities) (--fail-on \(report.failOn.rawValue)\(report.gatesOnNew ? ", --fail-on-new" : ""))")
        }
        let existingOnly = report.existingOnlyRules.count
        if existingOnly > 0 {
            out.append(BaselineText.existingOnly(existingOnly, failingSeverities))
        }
        if !tolerated.isEmpty {
            out.append(Plural.count(tolerated.count, "rule") + " tolerated within "
                       + (tolerated.count == 1 ? "its threshold" : "their thresholds"))
        }
        let below = belowFailOn
        if !below.isEmpty {
            if report.failOn == .never {
                out.append("\(Plural.count(below.count, "rule")) violated, none fails with --fail-on never")
            } else {
                let bySeverity = Severity.allCases.reversed().compactMap { severity -> String? in
                    let n = below.filter { $0.severity == severity }.count
                    return n == 0 ? nil : "\(NumberText.grouped(n)) \(severity.rawValue)"
                }
                out.append("\(bySeverity.joined(separator: " and ")) \(Plural.noun(below.count, "rule")) violated, "
                           + "below --fail-on \(report.failOn.rawValue)")
            }
        }
        if out.isEmpty { out.append("no rule violated") }
        // A rule that evaluated no record did not pass: say so, and name empty inputs.
        if let unevaluated = NotEvaluatedText.summary(report) {
            let empty = NotEvaluatedText.emptyEntities(report).map { "\($0.path) has no records" }
            out.append(unevaluated + (empty.isEmpty ? "" : ": " + empty.joined(separator: ", ")))
        }
        return out
    }

    /// `FAILED (exit 1): reason; reason`.
    var sentence: String {
        "\(verdict) (exit \(report.exitStatus.rawValue)): " + reasons.joined(separator: "; ")
    }
}
