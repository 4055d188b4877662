/// A real failure: something the audit could not do (as opposed to bad data, which is a
/// finding). Shaped like swift-nio's `FileSystemError`: a code, a message saying what went
/// wrong and what to do, where it happened, and the underlying cause.
public struct AuditError: Error, Sendable, CustomStringConvertible {
    public enum Code: Sendable, Equatable {
        /// Bad command-line usage.
        case usage
        /// The rules file is invalid.
        case invalidRules
        /// An input exists but its content cannot be read as the declared format.
        case malformedInput
        /// An input does not exist or cannot be opened.
        case missingInput
        /// Reading or writing failed at the operating-system level.
        case io
        /// A report or output file cannot be created.
        case cannotCreateOutput
        /// A transient condition (locked database, input changed during the audit).
        case transient
        /// A bug in auditor.
        case `internal`

        /// The process exit status for this code.
        public var exitStatus: ExitStatus {
            switch self {
            case .usage: return .usage
            case .invalidRules: return .configError
            case .malformedInput: return .dataError
            case .missingInput: return .noInput
            case .io: return .ioError
            case .cannotCreateOutput: return .cannotCreate
            case .transient: return .temporaryFailure
            case .internal: return .software
            }
        }
    }

    public var code: Code
    /// What went wrong and, where likely, how to fix it. Sentence case, no location prefix.
    public var message: String
    /// Where: `file:line:column`, `file:line`, `app.sqlite:people:rowid=3`. May be nil.
    public var location: String?
    /// The underlying cause (an errno text, a library message).
    public var cause: String?
    /// Further located problems (a rules file usually has several); printed one per line.
    public var diagnostics: [Diagnostic]

    public init(_ code: Code, _ message: String, location: String? = nil, cause: String? = nil,
                diagnostics: [Diagnostic] = []) {
        self.code = code
        self.message = message
        self.location = location
        self.cause = cause
        self.diagnostics = diagnostics
    }

    /// An invalid-rules error made of located diagnostics.
    public static func invalidRules(_ diagnostics: [Diagnostic]) -> AuditError {
        let n = diagnostics.count
        return AuditError(.invalidRules, n == 1 ? "the rules file has 1 error" : "the rules file has \(n) errors",
                          diagnostics: diagnostics)
    }

    /// The text printed on stderr: one `location: message` line per problem.
    public var description: String {
        if !diagnostics.isEmpty {
            return diagnostics.map(\.description).joined(separator: "\n")
        }
        var s = location.map { "\($0): " } ?? ""
        s += message
        if let cause { s += " (\(cause))" }
        return s
    }
}
