/// How serious a rule's violations are. Ordered: `info < warning < error`.
public enum Severity: String, Sendable, CaseIterable, Comparable {
    case info
    case warning
    case error

    private var rank: Int {
        switch self {
        case .info: return 0
        case .warning: return 1
        case .error: return 2
        }
    }

    public static func < (a: Severity, b: Severity) -> Bool { a.rank < b.rank }
}

/// The least severity that fails the run (`--fail-on`).
public enum FailThreshold: String, Sendable, CaseIterable {
    case error
    case warning
    case never

    /// Whether a violated rule of this severity fails the run.
    public func fails(_ severity: Severity) -> Bool {
        switch self {
        case .error: return severity >= .error
        case .warning: return severity >= .warning
        case .never: return false
        }
    }
}
