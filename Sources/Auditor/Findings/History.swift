// What a history database holds about past audits, as values: the store (in `Readers`, which
// owns SQLite) produces them and the `auditor history` renderers (in `Reports`) print them, so
// neither imports the other.
//
// Text fields (outcome, severity, status) are kept as recorded: the database is a file anyone
// can edit, and an unknown word should be shown, not make the history unreadable.

/// One recorded run.
package struct HistoryRun: Sendable, Equatable {
    /// The run's number in its history (1, 2, 3...).
    public var id: Int
    /// ISO 8601 UTC, seconds precision: `2026-11-20T02:00:00Z`.
    public var startedAt: String
    public var durationSeconds: Double
    public var toolVersion: String
    /// The rules file as given on the command line, and the SHA-256 of its bytes.
    public var rulesFile: String
    public var rulesSHA256: String?
    /// `passed`, `failed` or `incomplete` (``AuditReport/Outcome``).
    public var outcome: String
    /// The report's exit status (``AuditReport/exitStatus``) when it was recorded.
    public var exitStatus: Int
    public var failOn: String
    /// Records read over all inputs.
    public var records: Int
    /// Where the run's baseline came from, when one was applied.
    public var baselineSource: String?
    public var inputs: [HistoryInput]
    /// Violations over all the run's rules.
    public var violations = 0
    /// New and resolved findings over all rules, when a baseline was applied.
    public var newFindings: Int?
    public var resolvedFindings: Int?

    public init(id: Int, startedAt: String, durationSeconds: Double, toolVersion: String, rulesFile: String,
                rulesSHA256: String?, outcome: String, exitStatus: Int, failOn: String, records: Int,
                baselineSource: String?, inputs: [HistoryInput]) {
        self.id = id
        self.startedAt = startedAt
        self.durationSeconds = durationSeconds
        self.toolVersion = toolVersion
        self.rulesFile = rulesFile
        self.rulesSHA256 = rulesSHA256
        self.outcome = outcome
        self.exitStatus = exitStatus
        self.failOn = failOn
        self.records = records
        self.baselineSource = baselineSource
        self.inputs = inputs
    }
}

/// One input of a recorded run.
public struct HistoryInput: Sendable, Equatable {
    public var source: String
    public var path: String
    public var format: String
    public var bytes: Int64?
    /// SHA-256 (hex) of the file's bytes (nil when it could not be hashed, e.g. a missing input).
    public var sha256: String?
    public var records: Int
    public var complete: Bool

    public init(source: String, path: String, format: String, bytes: Int64?, sha256: String?, records: Int,
                complete: Bool) {
        self.source = source
        self.path = path
        self.format = format
        self.bytes = bytes
        self.sha256 = sha256
        self.records = records
        self.complete = complete
    }
}

/// One rule in one recorded run.
package struct RuleHistoryPoint: Sendable, Equatable {
    public var run: Int
    public var evaluated: Int
    public var violations: Int
    public var skipped: Int
    /// ``RuleStatus`` as recorded.
    public var status: String
    /// New, existing and resolved findings, when the run applied a baseline.
    public var baseline: RuleBaseline?
    /// The median of the earlier runs the run's jump test looked at (nil for a first run).
    public var median: Double?
    /// Whether the run flagged the rule as jumped (``RuleTrend/jumped``).
    public var jumped: Bool

    public init(run: Int, evaluated: Int, violations: Int, skipped: Int, status: String,
                baseline: RuleBaseline? = nil, median: Double? = nil, jumped: Bool = false) {
        self.run = run
        self.evaluated = evaluated
        self.violations = violations
        self.skipped = skipped
        self.status = status
        self.baseline = baseline
        self.median = median
        self.jumped = jumped
    }
}

/// Which rule a history count belongs to. A rule id alone is not enough: a reader's
/// structural rules (`csv.row.ragged`) have the same id in every source of that format.
public struct HistoryRuleKey: Sendable, Hashable {
    public var id: String
    public var source: String

    public init(id: String, source: String) {
        self.id = id
        self.source = source
    }
}

/// One rule over the runs of a history, oldest first.
package struct RuleHistory: Sendable, Equatable {
    public var id: String
    /// The source the rule's records come from.
    public var source: String
    public var entity: String?
    public var severity: String
    public var code: Int
    /// Only the runs that recorded this rule (a rule added later has fewer points).
    public var points: [RuleHistoryPoint]

    public init(id: String, source: String, entity: String?, severity: String, code: Int, points: [RuleHistoryPoint]) {
        self.id = id
        self.source = source
        self.entity = entity
        self.severity = severity
        self.code = code
        self.points = points
    }

    public var key: HistoryRuleKey { HistoryRuleKey(id: id, source: source) }

    /// Violations per run, oldest first.
    public var counts: [Int] { points.map(\.violations) }
    /// The latest recorded count.
    public var latest: Int? { points.last?.violations }
    /// The median the latest run's jump test used (over up to ``RuleTrend/window`` earlier runs).
    public var median: Double? { points.last?.median }
    /// Whether the latest run flagged a jump.
    public var jumped: Bool { points.last?.jumped ?? false }
}

/// What `auditor history` shows: the last runs and every rule over them.
package struct HistoryOverview: Sendable, Equatable {
    /// The database as the user named it.
    public var path: String
    /// Runs in the whole database.
    public var totalRuns: Int
    /// The runs shown, oldest first.
    public var runs: [HistoryRun]
    /// Rules in the latest shown run's report order, then rules only earlier runs had (by id).
    public var rules: [RuleHistory]

    public init(path: String, totalRuns: Int, runs: [HistoryRun], rules: [RuleHistory]) {
        self.path = path
        self.totalRuns = totalRuns
        self.runs = runs
        self.rules = rules
    }
}
