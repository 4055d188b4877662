/// What a baseline comparison found: every finding of this run is *new* or *existing*
/// (its fingerprint was in the baseline), and baseline findings absent now are *resolved*.
public struct BaselineInfo: Sendable, Equatable {
    /// Where the baseline came from: a report path, or `history run 12 (2026-11-20T02:00:00Z)`.
    public var source: String
    public var newFindings: Int
    public var existingFindings: Int
    public var resolvedFindings: Int
    /// Rules the baseline has findings for that this run does not have at all (removed or renamed).
    public var missingRules: [String]

    public init(source: String, newFindings: Int = 0, existingFindings: Int = 0, resolvedFindings: Int = 0,
                missingRules: [String] = []) {
        self.source = source
        self.newFindings = newFindings
        self.existingFindings = existingFindings
        self.resolvedFindings = resolvedFindings
        self.missingRules = missingRules
    }
}

/// One rule's share of a baseline comparison.
public struct RuleBaseline: Sendable, Equatable {
    public var new: Int
    public var existing: Int
    public var resolved: Int

    public init(new: Int, existing: Int, resolved: Int) {
        self.new = new
        self.existing = existing
        self.resolved = resolved
    }
}

extension AuditReport {
    /// Classifies this run's findings against a baseline's fingerprints: sets
    /// ``RuleOutcome/baseline`` on every rule, ``Finding/isNew`` on every sample and grouped
    /// record finding, and ``baseline``.
    /// - Precondition: ``fingerprints`` is set (the audit ran with `collectFingerprints`).
    public mutating func applyBaseline(_ previous: FingerprintSet, source: String) {
        let current = fingerprints ?? FingerprintSet()
        var info = BaselineInfo(source: source)
        for i in rules.indices {
            let id = rules[i].fingerprintKey
            let now = current.byRule[id] ?? []
            let new = now.filter { !previous.contains($0, rule: id) }.count
            let resolved = (previous.byRule[id] ?? []).filter { !current.contains($0, rule: id) }.count
            rules[i].baseline = RuleBaseline(new: new, existing: now.count - new, resolved: resolved)
            info.newFindings += new
            info.existingFindings += now.count - new
            info.resolvedFindings += resolved
            for s in rules[i].samples.indices {
                if let fp = rules[i].samples[s].fingerprint { rules[i].samples[s].isNew = !previous.contains(fp, rule: id) }
            }
        }
        let ids = Set(rules.map(\.fingerprintKey))
        info.missingRules = previous.byRule.keys.filter { !ids.contains($0) && !(previous.byRule[$0] ?? []).isEmpty }.sorted()
        // A grouped finding's rule key is its rule id (a structural rule's is `id@source`).
        for g in records.indices {
            for f in records[g].findings.indices {
                let finding = records[g].findings[f]
                if let fp = finding.fingerprint { records[g].findings[f].isNew = !previous.contains(fp, rule: finding.ruleID) }
            }
        }
        baseline = info
    }
}

/// A rule's violation counts over the last runs of a history, and whether this run jumped.
public struct RuleTrend: Sendable, Equatable {
    /// Violations per run, oldest first; the last is this run.
    public var counts: [Int]
    /// The median of the previous runs' counts (nil without previous runs).
    public var median: Double?
    /// This run's count is well above the recent median (see ``evaluate(previous:current:)``).
    public var jumped: Bool

    public init(counts: [Int], median: Double?, jumped: Bool) {
        self.counts = counts
        self.median = median
        self.jumped = jumped
    }

    /// Runs of history the jump test looks at, and the least it needs.
    public static let window = 7
    public static let minimumRuns = 3

    /// The trend of `current` after `previous` (oldest first). A rule *jumped* when at least
    /// ``minimumRuns`` previous runs exist and its count exceeds the median of the last
    /// ``window`` of them by at least 50% and by at least 5 violations.
    public static func evaluate(previous: [Int], current: Int) -> RuleTrend {
        let recent = Array(previous.suffix(window))
        guard !recent.isEmpty else { return RuleTrend(counts: [current], median: nil, jumped: false) }
        let sorted = recent.sorted()
        let m = sorted.count % 2 == 1 ? Double(sorted[sorted.count / 2])
            : Double(sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        let excess = Double(current) - m
        let jumped = recent.count >= minimumRuns && excess >= 5 && excess >= 0.5 * m
        return RuleTrend(counts: previous + [current], median: m, jumped: jumped)
    }
}
