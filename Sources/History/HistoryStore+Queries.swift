import Auditor
import CSQLite
import SQLiteSupport

extension HistoryStore {
    /// The number of recorded runs.
    public func runCount() throws(AuditError) -> Int {
        try reading { () throws(SQLiteFailure) -> Int in
            let s = try SQLiteStatement(connection: connection, sql: "SELECT count(*) FROM runs")
            return try s.step() ? s.int(0) : 0
        }
    }

    /// The last `last` runs with their inputs, oldest first.
    public func runs(last: Int) throws(AuditError) -> [HistoryRun] {
        try reading { () throws(SQLiteFailure) -> [HistoryRun] in
            let s = try SQLiteStatement(connection: connection, sql: """
                SELECT id, started_at, duration_seconds, tool_version, rules_path, rules_sha256, outcome, exit_status,
                       fail_on, total_records, baseline_source,
                       (SELECT total(violations) FROM rule_counts WHERE run = runs.id),
                       (SELECT sum(new_findings) FROM rule_counts WHERE run = runs.id),
                       (SELECT sum(resolved_findings) FROM rule_counts WHERE run = runs.id)
                FROM runs ORDER BY id DESC LIMIT ?1
                """)
            try s.bind(1, max(0, last))
            var runs = [HistoryRun]()
            while try s.step() {
                var run = HistoryRun(id: s.int(0), startedAt: s.text(1), durationSeconds: s.double(2),
                                     toolVersion: s.text(3), rulesFile: s.text(4), rulesSHA256: s.optionalText(5),
                                     outcome: s.text(6), exitStatus: s.int(7), failOn: s.text(8), records: s.int(9),
                                     baselineSource: s.optionalText(10), inputs: [])
                run.violations = s.int(11)
                if run.baselineSource != nil {
                    run.newFindings = s.optionalInt(12)
                    run.resolvedFindings = s.optionalInt(13)
                }
                runs.append(run)
            }
            runs.reverse()
            guard let first = runs.first?.id else { return runs }
            let i = try SQLiteStatement(connection: connection, sql: """
                SELECT run, source, path, format, bytes, sha256, records, complete
                FROM inputs WHERE run >= ?1 ORDER BY run, position
                """)
            try i.bind(1, first)
            var byRun = [Int: [HistoryInput]]()
            while try i.step() {
                byRun[i.int(0), default: []].append(
                    HistoryInput(source: i.text(1), path: i.text(2), format: i.text(3), bytes: i.optionalInt(4).map(Int64.init),
                                 sha256: i.optionalText(5), records: i.int(6), complete: i.int(7) != 0))
            }
            for k in runs.indices { runs[k].inputs = byRun[runs[k].id] ?? [] }
            return runs
        }
    }

    /// Each rule's violations over the last `last` *complete* runs, oldest first: what the
    /// jump test compares a new run with. An incomplete run (an input not read to its end)
    /// counted only what it read, so it is left out. A rule has no entry for runs that did not
    /// have it.
    public func recentCounts(last: Int) throws(AuditError) -> [HistoryRuleKey: [Int]] {
        try reading { () throws(SQLiteFailure) -> [HistoryRuleKey: [Int]] in
            let s = try SQLiteStatement(connection: connection, sql: """
                SELECT c.rule_id, c.source, c.violations, c.entity FROM rule_counts c
                JOIN (SELECT id FROM runs WHERE outcome <> 'incomplete' ORDER BY id DESC LIMIT ?1) r ON c.run = r.id
                ORDER BY c.run, c.position
                """)
            try s.bind(1, max(0, last))
            var counts = [HistoryRuleKey: [Int]]()
            while try s.step() {
                counts[Self.ruleKey(id: s.text(0), source: s.text(1), entity: s.optionalText(3)), default: []].append(s.int(2))
            }
            return counts
        }
    }

    /// One rule's violations over the last `last` complete runs, oldest first (see
    /// ``recentCounts(last:)``).
    /// - Parameter source: The rule's source; needed only for a reader's structural rule given
    ///   by its bare id (`csv.row.ragged`, as histories before qualified ids recorded it).
    public func recentCounts(rule: String, source: String? = nil, last: Int) throws(AuditError) -> [Int] {
        try reading { () throws(SQLiteFailure) -> [Int] in
            // A structural rule matches its qualified id and the bare id older runs recorded.
            let s = try SQLiteStatement(connection: connection, sql: """
                SELECT c.violations FROM rule_counts c
                JOIN (SELECT id FROM runs WHERE outcome <> 'incomplete' ORDER BY id DESC LIMIT ?2) r ON c.run = r.id
                WHERE (c.rule_id = ?1 OR (c.entity IS NULL AND (c.rule_id || '@' || c.source = ?1
                                                             OR c.rule_id = ?1 || '@' || c.source)))
                      AND (?3 IS NULL OR c.source = ?3) ORDER BY c.run, c.position
                """)
            try s.bind(1, rule)
            try s.bind(2, max(0, last))
            try s.bind(3, source)
            var counts = [Int]()
            while try s.step() { counts.append(s.int(0)) }
            return counts
        }
    }

    /// Every rule over the last `last` runs (incomplete ones included, as recorded), in the
    /// report order of the newest run that has each rule.
    public func trends(last: Int) throws(AuditError) -> [RuleHistory] {
        try reading { () throws(SQLiteFailure) -> [RuleHistory] in
            let s = try SQLiteStatement(connection: connection, sql: """
                SELECT c.run, c.position, c.rule_id, c.source, c.entity, c.severity, c.code, c.evaluated, c.violations,
                       c.skipped, c.status, c.new_findings, c.existing_findings, c.resolved_findings, c.median, c.jumped
                FROM rule_counts c JOIN (SELECT id FROM runs ORDER BY id DESC LIMIT ?1) r ON c.run = r.id
                ORDER BY c.run, c.position
                """)
            try s.bind(1, max(0, last))
            var rules = [HistoryRuleKey: RuleHistory]()
            var order = [HistoryRuleKey: (run: Int, position: Int)]()
            while try s.step() {
                let key = Self.ruleKey(id: s.text(2), source: s.text(3), entity: s.optionalText(4))
                var baseline: RuleBaseline?
                if let new = s.optionalInt(11), let existing = s.optionalInt(12), let resolved = s.optionalInt(13) {
                    baseline = RuleBaseline(new: new, existing: existing, resolved: resolved)
                }
                let point = RuleHistoryPoint(run: s.int(0), evaluated: s.int(7), violations: s.int(8), skipped: s.int(9),
                                             status: s.text(10), baseline: baseline, median: s.optionalDouble(14),
                                             jumped: s.int(15) != 0)
                // The newest run's entity, severity and code win (a rule can change severity).
                var rule = rules[key]
                    ?? RuleHistory(id: key.id, source: key.source, entity: nil, severity: "", code: 0, points: [])
                rule.entity = s.optionalText(4)
                rule.severity = s.text(5)
                rule.code = s.int(6)
                rule.points.append(point)
                rules[key] = rule
                order[key] = (s.int(0), s.int(1))
            }
            // Newest run first, then report position: rules the latest run dropped come last.
            return rules.values.sorted { a, b in
                let x = order[a.key] ?? (0, 0), y = order[b.key] ?? (0, 0)
                if x.run != y.run { return x.run > y.run }
                if x.position != y.position { return x.position < y.position }
                return (a.id, a.source) < (b.id, b.source)
            }
        }
    }

    /// What `auditor history` shows: the last `last` runs and the rules over them, optionally
    /// one rule only.
    /// - Throws: ``AuditError`` `.usage` when `rule` is not in those runs (with a suggestion).
    public func overview(last: Int, rule: String? = nil) throws(AuditError) -> HistoryOverview {
        var rules = try trends(last: last)
        if let rule {
            // A structural rule may be named by its bare id: `csv.row.ragged` shows every source's.
            rules = rules.filter { $0.id == rule || ($0.entity == nil && StructuralRuleID.readerID($0.id, source: $0.source) == rule) }
            if rules.isEmpty {
                let known = try trends(last: last).map(\.id)
                var m = "no rule '\(rule)' in the last \(last == 1 ? "run" : "\(last) runs") of the history"
                if let c = Suggest.closest(to: rule, in: known) { m += "; did you mean '\(c)'?" }
                throw AuditError(.usage, m, location: path)
            }
        }
        return HistoryOverview(path: path, totalRuns: try runCount(), runs: try runs(last: last), rules: rules)
    }

    /// A recorded rule's key as this auditor names it: a structural rule recorded by its bare
    /// id (histories written before ids were qualified) gets its `@source`
    /// (``StructuralRuleID/migrated(_:source:entity:)``), so its counts continue.
    static func ruleKey(id: String, source: String, entity: String?) -> HistoryRuleKey {
        HistoryRuleKey(id: StructuralRuleID.migrated(id, source: source, entity: entity), source: source)
    }

    /// The fingerprints of the latest complete run that kept them: the baseline of the next run.
    /// - Returns: The run's number, when it started (ISO 8601 UTC) and its fingerprints by rule;
    ///   nil when no run has any.
    /// - Throws: ``AuditError`` when a stored list is damaged (its length is not 8 × count).
    public func lastFingerprints() throws(AuditError) -> (runID: Int, startedAt: String, fingerprints: FingerprintSet)? {
        let found: (Int, String, [String: [UInt64]])?? = try reading { () throws(SQLiteFailure) -> (Int, String, [String: [UInt64]])?? in
            let r = try SQLiteStatement(connection: connection, sql: """
                SELECT id, started_at FROM runs WHERE has_fingerprints = 1 AND outcome <> 'incomplete'
                ORDER BY id DESC LIMIT 1
                """)
            guard try r.step() else { return nil }
            let id = r.int(0)
            let startedAt = r.text(1)
            let f = try SQLiteStatement(connection: connection, sql: "SELECT rule_id, count, data FROM fingerprints WHERE run = ?1")
            try f.bind(1, id)
            var byRule = [String: [UInt64]]()
            while try f.step() {
                guard let list = Self.decode(f.blob(2)), list.count == f.int(1) else { return .some(nil) }
                byRule[f.text(0)] = list
            }
            return (id, startedAt, byRule)
        }
        switch found {
        case .none: return nil
        case .some(.none):
            throw AuditError(access == .readWrite ? .cannotCreateOutput : .malformedInput,
                             "the fingerprints of the latest run are damaged (a list's length does not match its count); "
                                + "start a new history file, or give an explicit baseline", location: path)
        case .some(.some(let (id, startedAt, byRule))):
            return (id, startedAt, FingerprintSet(byRule: byRule))
        }
    }

    /// Runs a group of reads in one read transaction (a consistent snapshot even while
    /// another process records a run) and maps failures.
    func reading<T>(_ body: () throws(SQLiteFailure) -> T) throws(AuditError) -> T {
        do {
            let autocommit = sqlite3_get_autocommit(connection.handle) != 0
            if autocommit { try exec("BEGIN") }
            defer { if autocommit { try? exec("COMMIT") } }
            return try body()
        } catch {
            throw Self.error(error, path: path, access: access, timeout: busyTimeout, doing: "cannot read the history")
        }
    }
}
