import Foundation

/// A place that remembers audit runs: each rule's recent counts (for trends and jump tests),
/// the last run's fingerprints (the baseline of `--fail-on-new` without `--baseline`) and the
/// runs themselves. ``AuditSession`` enriches every report through it when the request names
/// a history; `AuditorHistory`'s `SQLiteRunHistory` keeps it in an SQLite file.
///
/// What an implementation must guarantee: each method is called from the session's thread,
/// in the order ``recentCounts(last:)``, ``lastRun()``, ``record(_:)``, once per run; a failure
/// throws an ``AuditError`` whose code is the exit status it implies (73 the history cannot be
/// written, 75 it is locked, 74 I/O) and leaves the history as it was (a run is recorded whole
/// or not at all). It never writes any file but its own ``path`` (and that file's journal).
public protocol RunHistory: AnyObject {
    /// The history's file as the user named it: the session refuses a history that is an input
    /// or an output of the run, and names it in notes.
    var path: String { get }

    /// Each rule's violations over the last `last` complete runs, oldest first.
    /// - Throws: ``AuditError`` when the history cannot be opened or read.
    func recentCounts(last: Int) throws(AuditError) -> [HistoryRuleKey: [Int]]

    /// The last run that kept its fingerprints, or nil when there is none.
    /// - Throws: ``AuditError`` when the history cannot be read.
    func lastRun() throws(AuditError) -> RecordedRun?

    /// Records one run.
    /// - Parameter run: What the history keeps of the run.
    /// - Returns: The new run's number.
    /// - Throws: ``AuditError`` when the run could not be recorded (nothing was written).
    func record(_ run: RunRecord) throws(AuditError) -> Int
}

/// A run a ``RunHistory`` recorded, as a baseline: its number, when it started, its fingerprints.
public struct RecordedRun: Sendable, Equatable {
    public var id: Int
    /// ISO 8601 UTC, whole seconds.
    public var startedAt: String
    public var fingerprints: FingerprintSet

    public init(id: Int, startedAt: String, fingerprints: FingerprintSet) {
        self.id = id
        self.startedAt = startedAt
        self.fingerprints = fingerprints
    }
}

/// What a history keeps of one run: the counts, not the samples, records or messages of the
/// report (``init(report:rulesSHA256:inputHashes:)`` takes them from an ``AuditReport``).
public struct RunRecord: Sendable, Equatable {
    /// One input's size and hash (the history's own record of an input).
    public typealias Input = HistoryInput

    /// One rule's counts, with its baseline columns and trend when the run had them.
    public struct Rule: Sendable, Equatable {
        public var id: String
        public var source: String
        public var entity: String?
        public var severity: Severity
        public var code: Int
        public var evaluated: Int
        public var violations: Int
        public var skipped: Int
        public var status: RuleStatus
        public var baseline: RuleBaseline?
        public var trend: RuleTrend?
    }

    /// When the run started, ISO 8601 UTC, whole seconds.
    public var startedAt: String
    public var durationSeconds: Double
    public var toolVersion: String
    public var rulesFile: String
    /// SHA-256 (hex) of the rules file's bytes, when it could be read.
    public var rulesSHA256: String?
    public var outcome: AuditReport.Outcome
    public var exitStatus: ExitStatus
    public var failOn: FailThreshold
    public var failOnNew: Bool
    public var totalRecords: Int
    public var baselineSource: String?
    public var inputs: [Input]
    public var rules: [Rule]
    /// The findings' fingerprints: kept only for a complete run that collected them.
    public var fingerprints: FingerprintSet?

    /// The record of an audited report (after its baseline and trends were applied).
    /// - Parameters:
    ///   - report: The run's report.
    ///   - rulesSHA256: The rules file's SHA-256 (hex).
    ///   - inputHashes: Each input file's SHA-256 (hex) by ``InputSummary/path``.
    public init(report: AuditReport, rulesSHA256: String?, inputHashes: [String: String]) {
        startedAt = Self.timestamp(report.startedAt)
        durationSeconds = report.durationSeconds
        toolVersion = report.toolVersion
        rulesFile = report.rulesFile
        self.rulesSHA256 = rulesSHA256
        outcome = report.outcome
        exitStatus = report.exitStatus
        failOn = report.failOn
        failOnNew = report.failOnNew
        totalRecords = report.totalRecords
        baselineSource = report.baseline?.source
        inputs = report.inputs.map {
            Input(source: $0.source, path: $0.path, format: $0.format, bytes: $0.bytes, sha256: inputHashes[$0.path],
                  records: $0.records, complete: $0.complete)
        }
        rules = report.rules.map {
            Rule(id: $0.id, source: $0.source, entity: $0.entity, severity: $0.severity, code: $0.code,
                 evaluated: $0.evaluated, violations: $0.violations, skipped: $0.skipped, status: $0.status,
                 baseline: $0.baseline, trend: $0.trend)
        }
        fingerprints = report.complete ? report.fingerprints : nil
    }

    /// A run's start as a history stores it: ISO 8601 UTC, whole seconds.
    public static func timestamp(_ date: Date) -> String {
        CalendarMath.isoDateTime(seconds: Int64(date.timeIntervalSince1970.rounded(.down)))
    }
}
