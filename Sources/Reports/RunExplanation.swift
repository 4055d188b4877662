import Auditor

/// Why a run passed, failed or is incomplete, in plain words, for the reports that people
/// read first (HTML banner, GitHub job summary): the verdict, the exit status and the reasons.
///
/// `PASSED (exit 0): 2 rules tolerated within their thresholds; 1 warning rule violated,
/// below --fail-on error`. Under `--fail-on-new`, rules violated at a failing severity whose
/// findings are all in the baseline are a reason of their own.
struct RunExplanation {
    let report: AuditReport
    /// The words of the reasons (the Markdown report's catalog; English elsewhere).
    var w: ReportWording = .english

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
        case .passed: return w("verdict.passedCaps")
        case .failed: return w("verdict.failed")
        case .incomplete: return w("verdict.incomplete")
        }
    }

    /// The severities that fail the run, in words.
    var failingSeverities: String {
        switch report.failOn {
        case .error: return w("severities.error")
        case .warning: return w("severities.warning")
        case .never: return w("severities.never")
        }
    }

    /// The reasons, most important first; never empty.
    var reasons: [String] {
        var out: [String] = []
        let incomplete = report.inputs.filter { !$0.complete }
        if !incomplete.isEmpty {
            let paths = incomplete.map { "'\($0.path)'" }.joined(separator: ", ")
            out.append(w("reason.incomplete", ["paths": paths]))
        }
        if !failing.isEmpty {
            out.append(w("result.failed", ["count": n(failing.count), "new": report.gatesOnNew ? "yes" : "no",
                                           "severities": failingSeverities,
                                           "failOn": "(--fail-on \(report.failOn.rawValue)\(report.gatesOnNew ? ", --fail-on-new" : ""))"]))
        }
        let existingOnly = report.existingOnlyRules.count
        if existingOnly > 0 {
            out.append(w("result.existingOnlyPassed", ["count": n(existingOnly), "severities": failingSeverities]) + " (--fail-on-new)")
        }
        if !tolerated.isEmpty {
            out.append(w("result.tolerated", ["count": n(tolerated.count)]))
        }
        let below = belowFailOn
        if !below.isEmpty {
            if report.failOn == .never {
                out.append(w("reason.violatedNever", ["count": n(below.count)]))
            } else {
                let bySeverity = Severity.allCases.reversed().compactMap { severity -> String? in
                    let count = below.filter { $0.severity == severity }.count
                    return count == 0 ? nil : "\(n(count)) \(severity.rawValue)"
                }
                let joined = bySeverity.dropFirst().reduce(bySeverity.first ?? "") { w("list.and", ["items": $0, "last": $1]) }
                out.append(w("reason.belowFailOn", ["severities": joined, "count": n(below.count), "failOn": report.failOn.rawValue]))
            }
        }
        if out.isEmpty { out.append(w("result.noRuleViolated")) }
        // A rule that evaluated no record did not pass: say so, and name empty inputs.
        if let unevaluated = unevaluatedSummary {
            let empty = NotEvaluatedText.emptyEntities(report).map { w("result.noRecords", ["path": $0.path]) }
            out.append(unevaluated + (empty.isEmpty ? "" : ": " + empty.joined(separator: ", ")))
        }
        return out
    }

    /// `2,000` with the wording's group mark.
    func n(_ value: Int) -> String { w.number(NumberText.grouped(value)) }

    /// ``NotEvaluatedText/summary(_:)`` in the wording's words.
    var unevaluatedSummary: String? {
        let count = NotEvaluatedText.rules(report).count
        guard count > 0 else { return nil }
        if count == report.rules.count { return w("result.allUnevaluated", ["count": n(count)]) }
        return w("head.unevaluated", ["count": n(count)])
    }

    /// `FAILED (exit 1): reason; reason`.
    var sentence: String {
        "\(verdict) (exit \(report.exitStatus.rawValue)): " + reasons.joined(separator: "; ")
    }
}
