import ArgumentParser
import Auditor
import Reports

/// `--baseline FILE` and `--fail-on-new`: this run's findings against an earlier run's.
///
/// The typical CI gate compares with the report it is about to replace:
/// `auditor run rules.yml --baseline report.json --fail-on-new --format json --output report.json`.
/// That works because the baseline is loaded before the audit starts and the report is written
/// (atomically) only after it ends; the baseline file itself is never written.
extension RunCommand {
    /// A baseline ready to compare with: its fingerprints and the name reports give it.
    struct LoadedBaseline {
        var fingerprints: FingerprintSet
        /// `--baseline`'s path as given (reports show it; the JSON report's `baseline.source`).
        var source: String
    }

    /// Whether this run has an explicit baseline (the history's last run is the other source,
    /// known once the rules file is read).
    var hasBaselineSource: Bool {
        baseline != nil
    }

    /// Usage errors (exit 64): `--fail-on-new` without a baseline, an empty `--baseline`.
    func validateBaseline() throws {
        if let baseline, baseline.isEmpty {
            throw ValidationError("--baseline needs a file: a JSON report of an earlier run")
        }
        if failOnNew, !hasBaselineSource, history == nil, noHistory {
            throw ValidationError("--fail-on-new needs a baseline to tell new findings from existing ones: add "
                                  + "--baseline FILE, a JSON report of an earlier run (--format json --output FILE)")
        }
    }

    /// Whether the audit fingerprints every finding: when a JSON report is written (so that it
    /// can be a later run's baseline) or a baseline is compared with.
    var collectsFingerprints: Bool {
        let formats = [format] + reports.compactMap { ReportRequest.parse($0)?.format }
        return formats.contains("json") || hasBaselineSource
    }

    /// Reads the baseline. Called before the audit, so before any report is written.
    /// - Throws: ``AuditError`` from ``BaselineFile/load(path:)`` (66 missing, 65 unusable).
    func loadBaseline() throws -> LoadedBaseline? {
        guard let baseline else { return nil }
        return LoadedBaseline(fingerprints: try BaselineFile.load(path: baseline), source: baseline)
    }

    /// Classifies the report's findings against the baseline and applies `--fail-on-new`.
    func apply(_ loaded: LoadedBaseline?, to report: inout AuditReport) {
        guard let loaded else { return }
        report.applyBaseline(loaded.fingerprints, source: loaded.source)
        report.failOnNew = failOnNew
    }
}
