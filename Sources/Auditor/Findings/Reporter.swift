/// Turns an ``AuditReport`` into the bytes of one output format.
///
/// What an implementation must guarantee: the output is a pure function of the report and
/// the reporter's own options (no clock, no environment), so golden files are stable; every
/// data value from the input is escaped for the output format.
public protocol Reporter: Sendable {
    /// The `--format` name.
    var format: String { get }
    /// Renders the whole report.
    func render(_ report: AuditReport) -> String
}
