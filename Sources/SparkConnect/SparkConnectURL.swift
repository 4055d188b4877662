#if Spark
/// A Spark Connect connection string: `sc://host[:port][/;key=value;key=value...]`, as Spark
/// documents it (apache/spark: connector/connect/docs/client-connection-string.md).
///
/// - `token`: sent as `authorization: Bearer <token>` on every call (Spark's
///   `spark.connect.authenticate.token`).
/// - `user_id`: the user in every request's `UserContext` (default: `$USER`, else `auditor`).
/// - `user_agent`: the request's `client_type` (default `auditor`).
/// - `session_id`: the server-side session to use, a UUID (default: a new random one).
/// - `use_ssl`: only `false` is accepted; TLS is not implemented yet, and `true` is refused
///   rather than silently ignored.
/// - any other key: sent as a gRPC metadata header with that name, as Spark's own clients do.
///
/// Spark says a token "enables SSL". Because TLS is not implemented, a token is accepted only
/// for a loopback host (Spark's own local-mode tests do the same), where it never crosses a
/// network in clear text; for any other host it is refused with a message that says why.
public struct SparkConnectURL: Sendable, Equatable, CustomStringConvertible {
    public static let defaultPort = 15002

    public var host: String
    public var port: Int
    public var token: String?
    public var userID: String?
    public var userAgent: String?
    public var sessionID: String?
    /// Parameters that are not Spark's own, sent as gRPC metadata, in URL order.
    public var headers: [(String, String)] { extraHeaders.map { ($0.name, $0.value) } }

    private var extraHeaders: [Header]
    private struct Header: Sendable, Equatable { var name: String, value: String }

    /// Parses a connection string.
    /// - Throws: ``SparkConnectError`` with code `.invalidURL` saying what is wrong with it, or
    ///   `.unsupported` for `use_ssl=true` and for a token sent to a host that is not loopback.
    public init(parsing text: String) throws {
        func invalid(_ why: String) -> SparkConnectError {
            SparkConnectError(.invalidURL, "invalid Spark Connect URL '\(text)': \(why)")
        }
        guard text.hasPrefix("sc://") else {
            throw invalid("it must start with 'sc://', as in 'sc://127.0.0.1:15002'")
        }
        var rest = Substring(text.dropFirst(5))
        var parameterText: Substring = ""
        if let slash = rest.firstIndex(of: "/") {
            let path = rest[rest.index(after: slash)...]
            rest = rest[..<slash]
            if !path.isEmpty {
                guard path.first == ";" else {
                    throw invalid("a path ('/\(path)') is not allowed; parameters follow '/;', as in 'sc://host:15002/;user_id=me'")
                }
                parameterText = path.dropFirst()
            }
        }
        guard !rest.isEmpty else { throw invalid("the host is missing") }
        // Host: a name, an IPv4 address, or an IPv6 address in brackets.
        var hostPart = rest, portPart: Substring?
        if rest.first == "[" {
            guard let close = rest.firstIndex(of: "]") else { throw invalid("an IPv6 address lacks its ']'") }
            hostPart = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.first == ":" else { throw invalid("unexpected '\(after)' after the IPv6 address") }
                portPart = after.dropFirst()
            }
        } else if let colon = rest.lastIndex(of: ":") {
            hostPart = rest[..<colon]
            portPart = rest[rest.index(after: colon)...]
        }
        guard !hostPart.isEmpty,
              hostPart.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-._:".contains($0)) }) else {
            throw invalid("'\(hostPart)' is not a host name or IP address")
        }
        host = String(hostPart)
        if let portPart {
            guard let p = Int(portPart), (1...65535).contains(p) else {
                throw invalid("the port '\(portPart)' is not a number from 1 to 65535")
            }
            port = p
        } else {
            port = Self.defaultPort
        }
        extraHeaders = []
        var useSSL = false
        for item in parameterText.split(separator: ";", omittingEmptySubsequences: true) {
            guard let eq = item.firstIndex(of: "="), eq != item.startIndex else {
                throw invalid("the parameter '\(item)' is not of the form key=value")
            }
            let key = String(item[..<eq]), value = String(item[item.index(after: eq)...])
            switch key {
            case "token": token = value
            case "user_id": userID = value
            case "user_agent": userAgent = value
            case "session_id":
                guard Self.isUUID(value) else {
                    throw invalid("session_id '\(value)' is not a UUID such as '550e8400-e29b-41d4-a716-446655440000'")
                }
                sessionID = value.lowercased()
            case "use_ssl":
                switch value.lowercased() {
                case "true": useSSL = true
                case "false": useSSL = false
                default: throw invalid("use_ssl must be 'true' or 'false', not '\(value)'")
                }
            default:
                let name = key.lowercased()
                guard name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }),
                      !name.hasPrefix("grpc-"), !name.hasPrefix(":"), name != "authorization",
                      !value.contains(where: { $0.isNewline }) else {
                    throw invalid("the parameter '\(key)' cannot be sent as a gRPC header")
                }
                extraHeaders.append(Header(name: name, value: value))
            }
        }
        if useSSL {
            throw SparkConnectError(.unsupported, "use_ssl=true in '\(text)' asks for TLS, which this Spark Connect client does not support yet; connect to a plaintext endpoint (use_ssl=false), for example through a TLS-terminating proxy on this machine")
        }
        if token != nil, !isLoopback {
            throw SparkConnectError(.unsupported, "a token for '\(host)' would be sent in clear text: Spark requires TLS with a token, which this client does not support yet; use a loopback address, or a TLS-terminating proxy on this machine")
        }
    }

    /// Whether the host is this machine (where a plaintext token is acceptable).
    public var isLoopback: Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    /// The URL with its token masked, for messages.
    public var description: String {
        var s = "sc://\(host.contains(":") ? "[\(host)]" : host):\(port)"
        var parameters: [String] = []
        if token != nil { parameters.append("token=***") }
        if let userID { parameters.append("user_id=\(userID)") }
        if let userAgent { parameters.append("user_agent=\(userAgent)") }
        if let sessionID { parameters.append("session_id=\(sessionID)") }
        parameters += extraHeaders.map { "\($0.name)=\($0.value)" }
        if !parameters.isEmpty { s += "/;" + parameters.joined(separator: ";") }
        return s
    }

    static func isUUID(_ s: String) -> Bool {
        let parts = s.split(separator: "-", omittingEmptySubsequences: false)
        return parts.map(\.count) == [8, 4, 4, 4, 12] && parts.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }
}
#endif
