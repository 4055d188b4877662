/// Root cause first: a column none of whose values has the declared type (the wrong column
/// mapped, a shifted export, a type declared wrong) is one finding that says so, not one
/// finding per record.
///
/// The counts stay exact: the type rule keeps every violation in ``RuleOutcome/violations``
/// (so it fails as before, and thresholds judge the real rate), its samples become the one
/// root-cause finding, and ``RuleOutcome/suppressed`` counts the findings it stands for that
/// are not listed. The record groups of the report drop those dependent findings too.
/// `--failures-out` (a per-record export) and fingerprints still cover every record.
enum RootCause {
    /// The fewest present values for a failing column to be judged as a whole: below it each
    /// value is its own finding.
    static let minimumValues = 10

    /// Counts the values of the declared type (for the attribute's type check, if it has one).
    /// - Complexity: O(rows).
    @inline(__always)
    static func countValid(_ attribute: AttributePlan, _ entity: BoundEntity, _ state: [UInt8],
                           into counts: inout [Int: Int]) {
        for ci in attribute.checks {
            guard case .type = entity.plan.checks[ci].test else { continue }
            var n = 0
            for s in state where s == TypedParse.Classified.valid { n += 1 }
            counts[ci, default: 0] += n
            return
        }
    }

    /// Collapses the type rules of columns that failed as a whole into their root cause.
    /// - Parameters:
    ///   - outcomes: The entity's rule outcomes, in slot order (``EntityAccumulator/outcomes()``).
    ///   - records: The report's record groups of this entity.
    ///   - acc: The entity's accumulator.
    static func collapseFailedColumns(_ outcomes: inout [RuleOutcome], records: inout [RecordFindings],
                                      _ acc: EntityAccumulator) {
        let plan = acc.entity.plan
        for (ci, check) in plan.checks.enumerated() {
            guard case .type = check.test, let a = check.attribute, check.slot < outcomes.count,
                  acc.typeValid[ci] == 0 else { continue }
            // Only a rule that is this type check alone (an id shared with other constraints
            // mixes other violations in).
            guard !plan.checks.enumerated().contains(where: { $0.offset != ci && $0.element.slot == check.slot }) else { continue }
            var outcome = outcomes[check.slot]
            // No value had the type (typeValid is 0), so every present value is a violation.
            guard outcome.violations >= minimumValues, let first = outcome.samples.first else { continue }
            let attribute = plan.attributes[a]
            var root = first
            let example = first.value.map { " (the first, here: '\($0)')" } ?? ""
            root.message = "every one of the \(outcome.violations) values of '\(attribute.name)' in "
                + "\(acc.entity.displayPath) fails its type \(attribute.type.rawValue)\(example): the column "
                + "likely holds other data (a wrong column mapping, shifted columns, a type declared wrong). "
                + "Check the export, or the attribute's type in the rules file; "
                + "\(outcome.violations - 1) findings of this rule are suppressed"
            outcome.samples = [root]
            outcome.suppressed = outcome.violations - 1
            outcomes[check.slot] = outcome
            for g in records.indices {
                records[g].findings.removeAll { $0.ruleID == outcome.id && $0.location != root.location }
                if let i = records[g].findings.firstIndex(where: { $0.ruleID == outcome.id }) {
                    records[g].findings[i] = root
                }
            }
            records.removeAll { $0.findings.isEmpty }
        }
    }
}
