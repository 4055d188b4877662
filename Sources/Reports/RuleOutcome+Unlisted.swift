import Auditor

/// What a report says of a rule's violations that are not listed as findings, in one place
/// for every format.
extension RuleOutcome {
    /// The violations that Swift reviewers suppressed or merged, by hook id, in id order.
    var hookSuppressions: [(hook: String, count: Int)] {
        suppressedByHook.sorted { $0.key < $1.key }.map { (hook: $0.key, count: $0.value) }
    }

    /// The violations that are neither listed nor accounted for by a root-cause finding or a
    /// reviewer: the "… N more" that a larger `--max-samples` would list.
    var unlisted: Int {
        violations - samples.count - suppressed - suppressedByHook.values.reduce(0, +)
    }
}
