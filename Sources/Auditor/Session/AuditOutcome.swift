/// What ``AuditSession/run()`` returns: the enriched report, the exit status and its reasons,
/// and the notes a front end may show.
public struct AuditOutcome: Sendable {
    /// Why the run exits as it does, most decisive first.
    public struct Reason: Sendable, Equatable {
        public var status: ExitStatus
        public var message: String

        public init(status: ExitStatus, message: String) {
            self.status = status
            self.message = message
        }
    }

    /// The report with its baseline, trends and history run applied.
    public var report: AuditReport
    /// The compiled plan that was audited.
    public var plan: AuditPlan
    /// The messages the plan was compiled with (the `--locale` catalog): reporters take
    /// their own words from it too.
    public var catalog = MessageCatalog.english
    /// Inputs that could not be read (fully), in entity order.
    public var inputErrors: [AuditError]
    /// What the caller must never write: the inputs, previous snapshots, rules file (each with
    /// its SQLite sidecars) and the history (pass it to every report write).
    public var protected = ProtectedFiles()
    /// The sink of every failing record (``AuditRequest/findingSink``), finished.
    public var findingSink: (any FindingSink)?
    /// Why the run could not be recorded in the history (the report is complete without it).
    public var historyError: AuditError?
    /// What a front end tells the user on stderr unless quiet (`recorded run 3 in h.sqlite...`).
    public var notes: [String] = []
    /// Timing details a front end shows when verbose.
    public var details: [String] = []

    /// The exit status of the audit alone (before any report is written).
    public var exitStatus: ExitStatus { exitStatus(writeErrors: []) }

    /// The exit status once the caller has written its reports, by precedence: a report that
    /// could not be written (73, 74), then an input that could not be read (65, 66, 74, 75),
    /// then a history that could not be recorded, then rule failures (1), else 0.
    /// - Parameter writeErrors: The errors of the caller's report writes, in order.
    public func exitStatus(writeErrors: [AuditError]) -> ExitStatus {
        reasons(writeErrors: writeErrors).first?.status ?? .passed
    }

    /// Every reason the run does not pass, most decisive first (empty when it passes).
    /// - Parameter writeErrors: The errors of the caller's report writes, in order.
    public func reasons(writeErrors: [AuditError] = []) -> [Reason] {
        var out = writeErrors.map { Reason(status: $0.code.exitStatus, message: $0.description) }
        for input in report.inputs {
            if let status = input.errorStatus { out.append(Reason(status: status, message: input.error ?? "input '\(input.path)' incomplete")) }
        }
        if let historyError { out.append(Reason(status: historyError.code.exitStatus, message: historyError.description)) }
        let failing = report.failingRules
        if !failing.isEmpty {
            let what = report.failOnNew && report.baseline != nil ? "with new findings " : ""
            out.append(Reason(status: .ruleFailures,
                              message: "\(Plural.count(failing.count, "rule")) \(what)failed at the failing severity: "
                                + failing.map(\.id).joined(separator: ", ")))
        }
        return out
    }
}
