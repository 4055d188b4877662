/// Every exit status of `auditor`, in one place (CONVENTIONS.md rule 4; sysexits.h values).
public enum ExitStatus: Int32, Sendable, CaseIterable {
    /// No rule at the failing severity was violated.
    case passed = 0
    /// Rule failures at or above `--fail-on`.
    case ruleFailures = 1
    /// Bad command line (EX_USAGE).
    case usage = 64
    /// Input data unreadable or malformed (EX_DATAERR).
    case dataError = 65
    /// Input missing or cannot be opened (EX_NOINPUT).
    case noInput = 66
    /// Internal error: a bug (EX_SOFTWARE).
    case software = 70
    /// Cannot create a report file (EX_CANTCREAT).
    case cannotCreate = 73
    /// Input/output error while reading or writing (EX_IOERR).
    case ioError = 74
    /// Transient: database locked, source changed during the audit; safe to retry (EX_TEMPFAIL).
    case temporaryFailure = 75
    /// The rules file is invalid (EX_CONFIG).
    case configError = 78
}
