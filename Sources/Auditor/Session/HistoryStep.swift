import Foundation

/// One run's use of the history: started before the audit (checks, input hashing on a
/// background thread), finished after it (trends, baseline, recording), so the reports show
/// the trends and the run number.
struct HistoryStep {
    let history: any RunHistory
    let hashing: InputHashing

    /// Checks that the history is not one of the files the run reads or writes, and starts
    /// hashing the inputs.
    /// - Parameters:
    ///   - path: The history database.
    ///   - factory: Opens the history (``AuditRequest/historyFactory``).
    ///   - plan: The compiled rules (their sources are the inputs).
    ///   - sourceFiles: `--source` replacements (files, globs, folders).
    ///   - registry: The readers (a folder's files are those of the source's format).
    ///   - protected: The run's inputs, previous snapshots and rules file, with their sidecars.
    ///   - outputs: Every file the run writes (`--output`, `--report`, `--failures-out`).
    /// - Throws: ``AuditError`` `.usage` when the history is an input or an output of the run,
    ///   or when there is no factory to open it with.
    static func start(path: String, factory: ((String) -> any RunHistory)?, plan: AuditPlan,
                      sourceFiles: [String: [String]], registry: ReaderRegistry, protected: ProtectedFiles,
                      outputs: [String]) throws -> HistoryStep {
        var inputs = [String]()
        for entity in plan.entities {
            guard let source = plan.source(named: entity.source) else { continue }
            // Standard input cannot be read again to hash it: the history records no hash for it.
            for p in AuditSession.files(of: source, sourceFiles, registry: registry)
            where !inputs.contains(p) && p != AuditEngine.standardInput { inputs.append(p) }
        }
        // Never write to an audited input (nor let a report overwrite the history).
        for other in inputs where SameFile.check(path, other) {
            throw AuditError(.usage, "the history '\(path)' is also an input of this audit ('\(other)'); auditor never "
                                + "writes to its inputs: give the history its own file, e.g. --history audits.sqlite")
        }
        if let hit = protected.entry(reachedBy: path) {
            throw AuditError(.usage, "the history '\(path)' is \(hit.role) ('\(hit.path)'); auditor never writes to what "
                                + "it reads: give the history its own file, e.g. --history audits.sqlite")
        }
        for other in outputs where SameFile.check(path, other) {
            throw AuditError(.usage, "the history '\(path)' is also written as a report or failures file; give them different paths")
        }
        guard let factory else {
            throw AuditError(.usage, "this audit names the history '\(path)' but the session has no history plug-in: set "
                                + "AuditRequest.historyFactory (AuditorHistory's SQLiteRunHistory.factory), or .none as its history")
        }
        return HistoryStep(history: factory(path), hashing: InputHashing(paths: inputs))
    }

    /// Sets every rule's trend from the history, applies the last run's fingerprints as the
    /// baseline (unless `explicitBaseline`), records the run and sets ``AuditReport/historyRun``.
    /// Sets ``AuditOutcome/historyError`` when the run could not be recorded: the report is
    /// usable either way (without trends or run number if the history could not be read).
    func finish(_ outcome: inout AuditOutcome, rulesPath: String, explicitBaseline: Bool) {
        let hashes = hashing.wait()
        let clock = ContinuousClock.now
        do {
            let previous = try history.recentCounts(last: RuleTrend.window)
            for i in outcome.report.rules.indices {
                let rule = outcome.report.rules[i]
                outcome.report.rules[i].trend = RuleTrend.evaluate(previous: previous[HistoryRuleKey(id: rule.id, source: rule.source)] ?? [],
                                                                   current: rule.violations)
            }
            if !explicitBaseline, outcome.report.fingerprints != nil, let last = try history.lastRun() {
                outcome.report.applyBaseline(last.fingerprints, source: "history run \(last.id) (\(last.startedAt))")
            }
            let rulesSHA256 = try? Digest.sha256Hex(fileAtPath: rulesPath)
            let id = try history.record(RunRecord(report: outcome.report, rulesSHA256: rulesSHA256, inputHashes: hashes.byPath))
            outcome.report.historyRun = id
            var note = "auditor: recorded run \(id) in \(history.path)"
            if let b = outcome.report.baseline, !explicitBaseline {
                note += "; baseline: \(b.source), \(b.newFindings) new, \(b.resolvedFindings) resolved"
            }
            let jumped = outcome.report.rules.filter { $0.trend?.jumped == true }.map(\.id)
            if !jumped.isEmpty { note += "; jumped: \(jumped.joined(separator: ", "))" }
            outcome.notes.append(note)
        } catch {
            outcome.historyError = error
            return
        }
        let mb = Double(hashes.bytes) / 1e6
        let inputs = Plural.count(hashes.byPath.count, "input")
        outcome.details.append("auditor: history: hashed \(inputs), " + String(format: "%.1f MB in %.2f s (%.0f MB/s) beside the %.2f s audit, "
                                        + "waited %.2f s for it; trends, baseline and recording took %.2f s",
                                      mb, hashes.seconds, hashes.seconds > 0 ? mb / hashes.seconds : 0,
                                      outcome.report.durationSeconds, hashes.waited, InputHashing.seconds(ContinuousClock.now - clock)))
    }
}
