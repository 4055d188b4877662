import Auditor

/// The core's ``RunHistory`` in an SQLite file (``HistoryStore``): what `auditor run --history`
/// and the rules file's `history:` use. A library user passes
/// `SQLiteRunHistory.factory` as ``AuditRequest/historyFactory`` to get the same history.
///
/// The file is opened (created when missing, upgraded when older) on first use, after the
/// audit, so that an audit whose history is locked or damaged still produces its report.
///
/// Not `Sendable`: one session uses it from one thread.
public final class SQLiteRunHistory: RunHistory {
    public let path: String
    private let busyTimeout: Int32
    private var store: HistoryStore?

    /// A history at `path`, opened on first use.
    /// - Parameters:
    ///   - path: The database file (created when missing).
    ///   - busyTimeout: Milliseconds to wait for another process's lock (15 s by default: two
    ///     nightly jobs on one history wait for each other instead of failing).
    public init(path: String, busyTimeout: Int32 = 15_000) {
        self.path = path
        self.busyTimeout = busyTimeout
    }

    /// Makes the history of a path: the value of ``AuditRequest/historyFactory``.
    public static var factory: (String) -> any RunHistory { { SQLiteRunHistory(path: $0) } }

    private func opened() throws(AuditError) -> HistoryStore {
        if let store { return store }
        let s = try HistoryStore(path: path, access: .readWrite, busyTimeout: busyTimeout)
        store = s
        return s
    }

    public func recentCounts(last: Int) throws(AuditError) -> [HistoryRuleKey: [Int]] {
        try opened().recentCounts(last: last)
    }

    public func lastRun() throws(AuditError) -> RecordedRun? {
        try opened().lastFingerprints().map { RecordedRun(id: $0.runID, startedAt: $0.startedAt, fingerprints: $0.fingerprints) }
    }

    public func record(_ run: RunRecord) throws(AuditError) -> Int {
        try opened().record(run)
    }
}
