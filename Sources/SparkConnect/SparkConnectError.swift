#if Spark
/// Why a Spark Connect call failed. Shaped like the auditor's `AuditError` (and swift-nio's
/// `FileSystemError`): a code to act on, a message that says what went wrong and what to do,
/// and what Spark itself said.
public struct SparkConnectError: Error, Sendable, CustomStringConvertible {
    public enum Code: Sendable, Equatable {
        /// The connection string is malformed.
        case invalidURL
        /// Something this client does not do yet (TLS, an Arrow type it cannot decode).
        case unsupported
        /// No server answers at that address (connection refused, host unknown or unreachable).
        case unreachable
        /// The call took longer than its timeout (a server that accepts but does not answer).
        case timedOut
        /// The server refused the credentials (a missing or wrong token).
        case unauthenticated
        /// Spark rejected the query before running it: a missing table or column, a syntax
        /// error, a type mismatch (Spark's `AnalysisException` and `ParseException`).
        case analysis
        /// The query failed while running, or the server failed otherwise.
        case server
        /// The server's answer could not be read (malformed protobuf or Arrow data).
        case protocolViolation
    }

    public var code: Code
    /// What went wrong and, where likely, how to fix it.
    public var message: String
    /// Spark's error class, such as `TABLE_OR_VIEW_NOT_FOUND`, when the server sent one.
    public var errorClass: String?
    /// The SQLSTATE, such as `42P01`, when the server sent one.
    public var sqlState: String?
    /// The underlying cause (the gRPC status and message, an Arrow decoding error).
    public var cause: String?

    public init(_ code: Code, _ message: String, errorClass: String? = nil, sqlState: String? = nil,
                cause: String? = nil) {
        self.code = code
        self.message = message
        self.errorClass = errorClass
        self.sqlState = sqlState
        self.cause = cause
    }

    public var description: String {
        var s = message
        if let cause { s += " (\(cause))" }
        return s
    }
}
#endif
