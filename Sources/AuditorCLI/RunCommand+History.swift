import Auditor
import Dispatch
import Foundation
import AuditorHistory
import Reports

extension RunCommand {
    /// The history this run records into: `--history PATH`, else the rules file's `history:`;
    /// none with `--no-history`.
    func historyPath(for plan: AuditPlan) -> String? {
        noHistory ? nil : history ?? plan.historyPath
    }

    /// Whether the user gave an explicit baseline. Then the history's last run is *not* applied
    /// as the baseline: the explicit one must already be applied to the report when
    /// ``HistorySession/finish(_:rulesPath:explicitBaseline:quiet:verbose:)`` runs, and the
    /// history records its new/existing/resolved columns as they are.
    var hasExplicitBaseline: Bool { baseline != nil }
}

/// One run's use of the history: started before the audit (checks, input hashing on a
/// background thread), finished after it (trends, baseline, recording) and before the reports
/// are rendered, so they show the trends and the run number.
struct HistorySession {
    let path: String
    let hashing: InputHashing

    /// Checks that the history is not one of the files the run reads or writes, and starts
    /// hashing the inputs.
    /// - Parameters:
    ///   - path: The history database.
    ///   - plan: The compiled rules (their sources are the inputs).
    ///   - sourcePaths: `--source` replacements.
    ///   - protected: The run's inputs, previous snapshots and rules file, with their sidecars.
    ///   - outputs: Every file the run writes (`--output`, `--report`, `--failures-out`).
    /// - Throws: ``AuditError`` `.usage` when the history is an input or an output of the run.
    static func start(path: String, plan: AuditPlan, sourcePaths: [String: String], protected: ProtectedFiles,
                      outputs: [String]) throws -> HistorySession {
        var inputs = [String]()
        for entity in plan.entities {
            guard let source = plan.source(named: entity.source) else { continue }
            let p = sourcePaths[source.name] ?? source.resolvedPath
            if !inputs.contains(p) { inputs.append(p) }
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
        return HistorySession(path: path, hashing: InputHashing(paths: inputs))
    }

    /// Sets every rule's trend from the history, applies the last run's fingerprints as the
    /// baseline (unless `explicitBaseline`), records the run and sets ``AuditReport/historyRun``.
    /// - Returns: The error that kept the run from being recorded, or nil. The report is usable
    ///   either way (without trends or run number if the history could not be read).
    func finish(_ report: inout AuditReport, rulesPath: String, explicitBaseline: Bool,
                quiet: Bool, verbose: Bool) -> AuditError? {
        let hashes = hashing.wait()
        let clock = ContinuousClock.now
        do {
            let store = try HistoryStore(path: path)
            let previous = try store.recentCounts(last: RuleTrend.window)
            for i in report.rules.indices {
                let key = HistoryRuleKey(id: report.rules[i].id, source: report.rules[i].source)
                report.rules[i].trend = RuleTrend.evaluate(previous: previous[key] ?? [], current: report.rules[i].violations)
            }
            if !explicitBaseline, report.fingerprints != nil, let last = try store.lastFingerprints() {
                report.applyBaseline(last.fingerprints, source: "history run \(last.runID) (\(last.startedAt))")
            }
            let rulesSHA256 = try? SHA256.hexEncoded(SHA256.file(atPath: rulesPath))
            let id = try store.record(RunRecord(report: report, rulesSHA256: rulesSHA256, inputHashes: hashes.byPath))
            report.historyRun = id
            if !quiet {
                var note = "auditor: recorded run \(id) in \(path)"
                if let b = report.baseline, !explicitBaseline { note += "; baseline: \(b.source), \(b.newFindings) new, \(b.resolvedFindings) resolved" }
                let jumped = report.rules.filter { $0.trend?.jumped == true }.map(\.id)
                if !jumped.isEmpty { note += "; jumped: \(jumped.joined(separator: ", "))" }
                FileHandle.standardError.write(Data((TerminalText.escaped(note) + "\n").utf8))
            }
        } catch {
            return error        // every call above throws AuditError only
        }
        if verbose {
            let mb = Double(hashes.bytes) / 1e6
            let line = String(format: "auditor: history: hashed %d input(s), %.1f MB in %.2f s (%.0f MB/s) beside the %.2f s audit, "
                                + "waited %.2f s for it; trends, baseline and recording took %.2f s\n",
                              hashes.byPath.count, mb, hashes.seconds, hashes.seconds > 0 ? mb / hashes.seconds : 0,
                              report.durationSeconds, hashes.waited, InputHashing.seconds(ContinuousClock.now - clock))
            FileHandle.standardError.write(Data(line.utf8))
        }
        return nil
    }
}

/// Hashes input files (SHA-256) on a background thread while the audit runs, so recording
/// them in the history adds little to a run: at ~280 MB/s a 130 MB export hashes in ~0.45 s,
/// about a third of its audit, which the audit's own reading hides (both read the file
/// through the page cache).
///
/// A file that cannot be hashed (missing, unreadable) simply has no hash: the audit reports
/// the input error itself. An SQLite input is hashed as its main file only (not `-wal`).
final class InputHashing: @unchecked Sendable {
    // @unchecked: `result` is written once by the background task before `group` leaves, and
    // read only after `group.wait()`; the group's enter/leave/wait order every access.
    private let group = DispatchGroup()
    private var result = Hashes()

    struct Hashes: Sendable {
        var byPath: [String: String] = [:]
        var bytes: Int64 = 0
        var seconds: Double = 0
        /// How long ``InputHashing/wait()`` blocked (hashing outlasted the audit by this much).
        var waited: Double = 0
    }

    init(paths: [String]) {
        group.enter()
        DispatchQueue.global(qos: .utility).async { [self] in
            var hashes = Hashes()
            let clock = ContinuousClock.now
            for p in paths {
                guard let digest = try? SHA256.file(atPath: p) else { continue }
                hashes.byPath[p] = SHA256.hexEncoded(digest)
                hashes.bytes += (try? FileManager.default.attributesOfItem(atPath: p)[.size] as? NSNumber)?.int64Value ?? 0
            }
            hashes.seconds = Self.seconds(ContinuousClock.now - clock)
            result = hashes
            group.leave()
        }
    }

    /// Waits for the hashes.
    func wait() -> Hashes {
        let before = ContinuousClock.now
        group.wait()
        var r = result
        r.waited = Self.seconds(ContinuousClock.now - before)
        return r
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }
}

/// Whether two paths name the same file: the same device and inode when both exist, else the
/// same absolute, standardized path.
enum SameFile {
    static func check(_ a: String, _ b: String) -> Bool {
        var sa = stat(), sb = stat()
        if stat(a, &sa) == 0, stat(b, &sb) == 0 { return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino }
        return absolute(a) == absolute(b)
    }

    private static func absolute(_ p: String) -> String {
        let full = p.hasPrefix("/") ? p : FileManager.default.currentDirectoryPath + "/" + p
        return URL(fileURLWithPath: full).standardizedFileURL.path
    }
}
