/// Where a run's baseline comes from: the findings of an earlier run that this run's findings
/// are classified against (new, existing, resolved), for `--baseline` and `--fail-on-new`.
/// `Reports`' `JSONReportBaseline` reads a JSON report; a library user may keep fingerprints
/// anywhere.
///
/// What an implementation must guarantee: ``fingerprints()`` only reads (``AuditSession``
/// calls it before the audit, so the baseline may be the very file the run's report replaces),
/// and a failure throws an ``AuditError`` whose code is the exit status it implies (66 missing,
/// 65 unusable, 74 I/O).
public protocol BaselineSource {
    /// The name reports give the baseline (the JSON report's `baseline.source`), e.g. the path.
    var name: String { get }

    /// Every fingerprint of the earlier run, by rule id.
    /// - Throws: ``AuditError`` when the baseline cannot be read or is not usable.
    func fingerprints() throws -> FingerprintSet
}
