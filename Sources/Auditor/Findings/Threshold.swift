/// How many violations of a rule are tolerated before it fails (Great Expectations' `mostly`).
/// Both limits must hold when both are set.
public struct Threshold: Sendable, Equatable {
    public var maxFailures: Int?
    /// A fraction of the evaluated records, 0...1.
    public var maxFailureRate: Double?

    public init(maxFailures: Int? = nil, maxFailureRate: Double? = nil) {
        self.maxFailures = maxFailures
        self.maxFailureRate = maxFailureRate
    }

    /// True when no limit is set (every violation fails).
    public var isEmpty: Bool { maxFailures == nil && maxFailureRate == nil }

    /// This threshold, with unset limits taken from `fallback`.
    public func over(_ fallback: Threshold) -> Threshold {
        Threshold(maxFailures: maxFailures ?? fallback.maxFailures, maxFailureRate: maxFailureRate ?? fallback.maxFailureRate)
    }

    /// Whether `violations` out of `evaluated` records are within the limits.
    public func tolerates(violations: Int, evaluated: Int) -> Bool {
        guard !isEmpty, violations > 0 else { return violations == 0 }
        if let m = maxFailures, violations > m { return false }
        if let r = maxFailureRate, evaluated > 0, Double(violations) / Double(evaluated) > r { return false }
        return true
    }

    /// `at most 10 failures and 1% of records`, for reports.
    public var description: String {
        var parts = [String]()
        if let m = maxFailures { parts.append("at most \(m) failure\(m == 1 ? "" : "s")") }
        if let r = maxFailureRate { parts.append("at most \(ValueText.canonical(r * 100))% of records") }
        return parts.joined(separator: " and ")
    }
}

/// A rule's verdict.
public enum RuleStatus: String, Sendable, CaseIterable {
    /// No violation.
    case passed
    /// Violations within the rule's threshold: reported, but they do not fail the run.
    case tolerated
    /// Violations beyond the threshold: they fail the run when the severity is at or above `--fail-on`.
    case violated
    /// No record was evaluated (the input could not be read).
    case notEvaluated = "not-evaluated"
}
