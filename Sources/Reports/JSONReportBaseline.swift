import Auditor

/// The core's ``BaselineSource`` for a JSON report written by auditor (`--baseline FILE`): its
/// fingerprints, read by ``BaselineFile/load(path:)``.
public struct JSONReportBaseline: BaselineSource {
    /// The report as the user named it; reports show it as the baseline's source.
    public var path: String

    public init(path: String) {
        self.path = path
    }

    public var name: String { path }

    /// - Throws: ``AuditError`` from ``BaselineFile/load(path:)`` (66 missing, 65 unusable, 74 I/O).
    public func fingerprints() throws -> FingerprintSet {
        try BaselineFile.load(path: path)
    }
}
