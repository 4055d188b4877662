#if Spark
import Foundation
import GRPCCore
import GRPCProtobuf

extension SparkConnectClient {
    /// What Spark put in a failed call's `google.rpc.Status`: its `ErrorInfo` has the exception
    /// classes (a JSON list), `errorClass`, `sqlState` and an `errorId` whose full text
    /// `FetchErrorDetails` returns (the status message itself may be cut short).
    struct ServerErrorInfo {
        var classes: [String] = []
        var errorClass: String?
        var sqlState: String?
        var errorID: String?

        init(_ error: RPCError) {
            guard let status = try? error.unpackGoogleRPCStatus() else { return }
            for detail in status.details {
                guard let info = detail.errorInfo else { continue }
                let m = info.metadata
                if let json = m["classes"]?.data(using: .utf8),
                   let list = try? JSONDecoder().decode([String].self, from: json) {
                    classes = list
                }
                if classes.isEmpty, !info.reason.isEmpty { classes = [info.reason] }
                errorClass = m["errorClass"].flatMap { $0.isEmpty ? nil : $0 }
                sqlState = m["sqlState"].flatMap { $0.isEmpty ? nil : $0 }
                errorID = m["errorId"].flatMap { $0.isEmpty ? nil : $0 }
            }
        }

        /// Spark refused the query itself (analysis or parsing), as opposed to failing to run it.
        var isAnalysis: Bool {
            classes.contains { $0.hasSuffix(".AnalysisException") || $0.hasSuffix(".ParseException") }
                || sqlState?.hasPrefix("42") == true
        }
    }

    /// Turns a failed call into a ``SparkConnectError``, asking the server for the error's full
    /// message when it gave an error id (best effort, within a short timeout).
    func translate<Transport: ClientTransport>(
        _ error: RPCError, using service: Spark_Connect_SparkConnectService.Client<Transport>
    ) async -> SparkConnectError {
        switch error.code {
        case .unavailable, .deadlineExceeded, .unauthenticated, .cancelled:
            return translateTransport(error)
        default:
            break
        }
        let info = ServerErrorInfo(error)
        var message = error.message
        var errorClass = info.errorClass, sqlState = info.sqlState
        if let errorID = info.errorID {
            var request = Spark_Connect_FetchErrorDetailsRequest()
            request.sessionID = sessionID
            request.userContext.userID = userID
            request.errorID = errorID
            request.clientType = url.userAgent ?? "auditor"
            var options = callOptions
            options.timeout = .seconds(10)
            if let details = try? await service.fetchErrorDetails(request, metadata: metadata, options: options),
               details.hasRootErrorIdx, Int(details.rootErrorIdx) < details.errors.count, details.rootErrorIdx >= 0 {
                let root = details.errors[Int(details.rootErrorIdx)]
                if !root.message.isEmpty { message = root.message }
                if root.hasSparkThrowable {
                    if root.sparkThrowable.hasErrorClass { errorClass = root.sparkThrowable.errorClass }
                    if root.sparkThrowable.hasSqlState { sqlState = root.sparkThrowable.sqlState }
                }
            }
        }
        if info.isAnalysis || sqlState?.hasPrefix("42") == true {
            return SparkConnectError(.analysis, "Spark rejected the query: \(message)", errorClass: errorClass,
                                     sqlState: sqlState, cause: "gRPC status \(error.code)")
        }
        return SparkConnectError(.server, "the query failed on the Spark Connect server at \(url): \(message)",
                                 errorClass: errorClass, sqlState: sqlState, cause: "gRPC status \(error.code)")
    }

    /// Errors of the connection itself, which need no server round trip to explain.
    func translateTransport(_ error: RPCError) -> SparkConnectError {
        let cause = Self.describe(error)
        switch error.code {
        case .unavailable:
            return SparkConnectError(.unreachable, "cannot reach the Spark Connect server at \(url); check that it is running and listening on port \(url.port) (start one with scripts/spark-connect.sh)", cause: cause)
        case .deadlineExceeded:
            return SparkConnectError(.timedOut, "the Spark Connect server at \(url) did not answer within \(timeout); check that the address is a Spark Connect server (not another service) and that it is not overloaded", cause: cause)
        case .unauthenticated:
            return SparkConnectError(.unauthenticated, "the Spark Connect server at \(url) refused the credentials; pass its token as ';token=...' in the URL", cause: cause)
        default:
            return SparkConnectError(.server, "the Spark Connect call to \(url) failed: \(error.message)", cause: cause)
        }
    }

    /// The gRPC status, message and the chain of underlying causes, on one line.
    static func describe(_ error: RPCError) -> String {
        var parts = ["gRPC status \(error.code)"]
        if !error.message.isEmpty { parts.append(error.message) }
        var cause = error.cause
        var depth = 0
        while let c = cause, depth < 4 {
            if let rpc = c as? RPCError {
                parts.append(rpc.message)
                cause = rpc.cause
            } else if let runtime = c as? RuntimeError {
                parts.append(runtime.message)
                cause = runtime.cause
            } else {
                parts.append(String(describing: c))
                cause = nil
            }
            depth += 1
        }
        return parts.joined(separator: ": ")
    }
}
#endif
