import Auditor
import CSQLite
import SQLiteSupport
import Foundation

extension HistoryStore {
    /// Records one run: the run, its inputs, every rule's counts (with its baseline columns and
    /// trend when the report has them) and, for a complete run that collected them, its
    /// fingerprints. All in one transaction: a run is recorded whole or not at all.
    ///
    /// Fingerprints of older runs beyond ``HistorySchema/fingerprintRunsKept`` are dropped in
    /// the same transaction.
    /// - Parameters:
    ///   - run: What to keep of the audited run (``RunRecord/init(report:rulesSHA256:inputHashes:)``,
    ///     after any baseline and trends were applied to the report).
    /// - Returns: The new run's number.
    /// - Throws: ``AuditError``: `.transient` when another process holds the lock beyond the
    ///   busy timeout, `.io` on a disk error, `.cannotCreateOutput` otherwise.
    @discardableResult
    public func record(_ report: RunRecord) throws(AuditError) -> Int {
        guard access == .readWrite else {
            throw AuditError(.internal, "the history was opened for reading only", location: path)
        }
        do {
            return try transaction { () throws(SQLiteFailure) -> Int in
                let keepFingerprints = report.fingerprints != nil
                let run = try SQLiteStatement(connection: connection, sql: """
                    INSERT INTO runs (started_at, duration_seconds, tool_version, rules_path, rules_sha256, outcome,
                                      exit_status, fail_on, fail_on_new, total_records, baseline_source, has_fingerprints)
                    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)
                    """)
                try run.bind(1, report.startedAt)
                try run.bind(2, report.durationSeconds)
                try run.bind(3, report.toolVersion)
                try run.bind(4, report.rulesFile)
                try run.bind(5, report.rulesSHA256)
                try run.bind(6, report.outcome.rawValue)
                try run.bind(7, Int(report.exitStatus.rawValue))
                try run.bind(8, report.failOn.rawValue)
                try run.bind(9, report.failOnNew ? 1 : 0)
                try run.bind(10, report.totalRecords)
                try run.bind(11, report.baselineSource)
                try run.bind(12, keepFingerprints ? 1 : 0)
                try run.run()
                let id = Int(sqlite3_last_insert_rowid(connection.handle))

                let input = try SQLiteStatement(connection: connection, sql: """
                    INSERT INTO inputs (run, position, source, path, format, bytes, sha256, records, complete)
                    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
                    """)
                for (position, i) in report.inputs.enumerated() {
                    try input.bind(1, id)
                    try input.bind(2, position)
                    try input.bind(3, i.source)
                    try input.bind(4, i.path)
                    try input.bind(5, i.format)
                    try input.bind(6, i.bytes)
                    try input.bind(7, i.sha256)
                    try input.bind(8, i.records)
                    try input.bind(9, i.complete ? 1 : 0)
                    try input.run()
                }

                let rule = try SQLiteStatement(connection: connection, sql: """
                    INSERT INTO rule_counts (run, position, rule_id, source, entity, severity, code, evaluated, violations,
                                             skipped, status, new_findings, existing_findings, resolved_findings, median,
                                             jumped)
                    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)
                    """)
                for (position, r) in report.rules.enumerated() {
                    try rule.bind(1, id)
                    try rule.bind(2, position)
                    try rule.bind(3, r.id)
                    try rule.bind(4, r.source)
                    try rule.bind(5, r.entity)
                    try rule.bind(6, r.severity.rawValue)
                    try rule.bind(7, r.code)
                    try rule.bind(8, r.evaluated)
                    try rule.bind(9, r.violations)
                    try rule.bind(10, r.skipped)
                    try rule.bind(11, r.status.rawValue)
                    try rule.bind(12, r.baseline?.new)
                    try rule.bind(13, r.baseline?.existing)
                    try rule.bind(14, r.baseline?.resolved)
                    try rule.bind(15, r.trend?.median)
                    try rule.bind(16, r.trend?.jumped == true ? 1 : 0)
                    try rule.run()
                }

                if keepFingerprints, let set = report.fingerprints {
                    let fp = try SQLiteStatement(connection: connection, sql: """
                        INSERT INTO fingerprints (run, rule_id, count, data) VALUES (?1, ?2, ?3, ?4)
                        """)
                    for (ruleID, list) in set.byRule.sorted(by: { $0.key < $1.key }) where !list.isEmpty {
                        try fp.bind(1, id)
                        try fp.bind(2, ruleID)
                        try fp.bind(3, list.count)
                        try fp.bind(4, blob: Self.encode(list))
                        try fp.run()
                    }
                }
                try exec("""
                    UPDATE runs SET has_fingerprints = 0 WHERE has_fingerprints = 1 AND id NOT IN
                        (SELECT id FROM runs WHERE has_fingerprints = 1 ORDER BY id DESC LIMIT \(HistorySchema.fingerprintRunsKept));
                    DELETE FROM fingerprints WHERE run NOT IN (SELECT id FROM runs WHERE has_fingerprints = 1);
                    """)
                return id
            }
        } catch {
            throw Self.error(error, path: path, access: access, timeout: busyTimeout, doing: "cannot record the run in the history")
        }
    }

    /// Sorted fingerprints as consecutive little-endian UInt64s.
    static func encode(_ list: [UInt64]) -> [UInt8] {
        var bytes = [UInt8]()
        bytes.reserveCapacity(list.count * 8)
        for var v in list {
            for _ in 0 ..< 8 {
                bytes.append(UInt8(truncatingIfNeeded: v))
                v >>= 8
            }
        }
        return bytes
    }

    /// The inverse of ``encode(_:)``; nil when the length is not a multiple of 8.
    static func decode(_ bytes: [UInt8]) -> [UInt64]? {
        guard bytes.count % 8 == 0 else { return nil }
        return bytes.withUnsafeBytes { raw in
            (0 ..< bytes.count / 8).map { UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 8, as: UInt64.self)) }
        }
    }
}
