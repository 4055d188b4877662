#if Spark
import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2Posix
import GRPCProtobuf

/// The rows of a query, as Spark sent them.
public struct SparkResult: Sendable {
    /// The result's columns (from the first Arrow batch's schema).
    public var columns: [ArrowField]
    /// Every row, in the order Spark sent them.
    public var rows: [[SparkValue]]
    /// How many Arrow record batches the rows came in.
    public var batchCount: Int
    /// The server's id for this execution (its logs and UI name it).
    public var operationID: String
}

/// A minimal Spark Connect client: runs Spark SQL on a Spark Connect server and collects the
/// rows, over gRPC (HTTP/2 plaintext, grpc-swift-2 with its NIO transport).
///
/// Every call opens its own connection and closes it when done; calls of one client share a
/// server-side session (one `session_id`), so temporary views and `SET` settings made by one
/// call are seen by the next.
public struct SparkConnectClient: Sendable {
    public let url: SparkConnectURL
    /// The server-side session: the URL's `session_id`, else a random UUID.
    public let sessionID: String
    /// The longest a call may take, connecting included; then it fails with `.timedOut`.
    public var timeout: Duration
    /// The largest response message accepted (Spark sends Arrow batches of up to
    /// `spark.connect.grpc.arrow.maxBatchSize`, 4 MiB by default).
    public var maxResponseBytes = 128 << 20

    /// - Parameters:
    ///   - url: where the server is, and who calls it.
    ///   - timeout: the longest one call may take.
    public init(url: SparkConnectURL, timeout: Duration = .seconds(600)) {
        self.url = url
        self.sessionID = url.sessionID ?? UUID().uuidString.lowercased()
        self.timeout = timeout
    }

    /// - Throws: ``SparkConnectError`` when the connection string is invalid or unsupported.
    public init(_ connectionString: String, timeout: Duration = .seconds(600)) throws {
        self.init(url: try SparkConnectURL(parsing: connectionString), timeout: timeout)
    }

    var userID: String {
        url.userID ?? ProcessInfo.processInfo.environment["USER"].flatMap { $0.isEmpty ? nil : $0 } ?? "auditor"
    }

    /// Runs one Spark SQL statement and collects its rows.
    /// - Parameter query: the statement; a command (`CREATE TABLE`, `SET`) runs too, and
    ///   returns the rows Spark gives for it.
    /// - Returns: the columns and every row.
    /// - Throws: ``SparkConnectError``: `.unreachable`, `.timedOut`, `.unauthenticated`,
    ///   `.analysis` (a missing table, a syntax error), `.server`, `.unsupported` (a column type
    ///   this client cannot decode) or `.protocolViolation`.
    public func sql(_ query: String) async throws -> SparkResult {
        var plan = Spark_Connect_Plan()
        plan.root.sql.query = query
        return try await execute(plan).result
    }

    /// Runs one Spark SQL command (`SET`, `EXPLAIN`, `CREATE VIEW`, `DROP TABLE`): the server runs
    /// it as it arrives and sends its rows with the answer, with no Spark job (``sql(_:)`` sends a
    /// relation, whose rows a job of one task collects). A query sent here runs as ``sql(_:)`` runs it.
    /// - Throws: as ``sql(_:)``.
    public func command(_ statement: String) async throws -> SparkResult {
        var plan = Spark_Connect_Plan()
        plan.command.sqlCommand.input.sql.query = statement
        let answer = try await execute(plan)
        guard let relation = answer.relation else { return answer.result }
        // Not a command: the server sent back the relation to run.
        var again = Spark_Connect_Plan()
        again.root = relation
        return try await execute(again).result
    }

    /// Runs a plan; a command's answer may be a relation still to run.
    private func execute(_ plan: Spark_Connect_Plan) async throws -> (result: SparkResult, relation: Spark_Connect_Relation?) {
        var request = Spark_Connect_ExecutePlanRequest()
        request.sessionID = sessionID
        request.userContext.userID = userID
        request.clientType = url.userAgent ?? "auditor"
        request.plan = plan
        let client = self
        do {
            return try await withTransport { grpc in
                let service = Spark_Connect_SparkConnectService.Client(wrapping: grpc)
                do {
                    return try await service.executePlan(request, metadata: client.metadata, options: client.callOptions) {
                        try await client.collect($0)
                    }
                } catch let error as RPCError {
                    throw await client.translate(error, using: service)
                }
            }
        } catch let error as SparkConnectError {
            throw error
        } catch let error as RPCError {
            throw translateTransport(error)
        } catch {
            throw SparkConnectError(.server, "the Spark Connect call to \(url) failed", cause: String(describing: error))
        }
    }

    // MARK: - gRPC plumbing

    private func withTransport<R: Sendable>(
        _ body: (GRPCClient<HTTP2ClientTransport.Posix>) async throws -> R
    ) async throws -> R {
        let target: any ResolvableTarget
        if url.host.contains(":") {
            target = ResolvableTargets.IPv6.ipv6(address: url.host, port: url.port)
        } else if url.host.allSatisfy({ $0.isNumber || $0 == "." }) {
            target = ResolvableTargets.IPv4.ipv4(address: url.host, port: url.port)
        } else {
            target = ResolvableTargets.DNS.dns(host: url.host, port: url.port)
        }
        let transport = try HTTP2ClientTransport.Posix(
            target: target, transportSecurity: .plaintext,
            config: .defaults { config in
                // One refused connection fails the call (waitForReady is off); no long backoff.
                config.backoff = .init(initial: .milliseconds(200), max: .seconds(2), multiplier: 1.6, jitter: 0.2)
            })
        return try await withGRPCClient(transport: transport) { try await body($0) }
    }

    var metadata: Metadata {
        var m = Metadata()
        if let token = url.token { m.addString("Bearer \(token)", forKey: "authorization") }
        for (name, value) in url.headers { m.addString(value, forKey: name) }
        return m
    }

    var callOptions: CallOptions {
        var options = CallOptions.defaults
        options.timeout = timeout
        options.waitForReady = false  // fail at once when the server refuses the connection
        options.maxResponseMessageBytes = maxResponseBytes
        return options
    }

    /// Reads the response stream until it ends: Arrow batches, or a command's rows (or the
    /// relation to run, when the command was a query).
    private func collect(_ response: StreamingClientResponse<Spark_Connect_ExecutePlanResponse>) async throws
        -> (result: SparkResult, relation: Spark_Connect_Relation?) {
        var reader = ArrowStreamReader()
        var operationID = ""
        var relation: Spark_Connect_Relation?
        func read(_ data: Data) throws {
            do {
                try reader.read(stream: [UInt8](data))
            } catch let error as ArrowError {
                if case .unsupported(let what) = error {
                    throw SparkConnectError(.unsupported, "the result of the query cannot be read: \(what)")
                }
                throw SparkConnectError(.protocolViolation, "the server sent Arrow data that cannot be read",
                                        cause: error.description)
            }
        }
        for try await message in response.messages {
            if operationID.isEmpty { operationID = message.operationID }
            if case .sqlCommandResult(let command) = message.responseType {
                if case .localRelation(let local)? = command.relation.relType {
                    if local.hasData { try read(local.data) }
                } else if command.hasRelation {
                    relation = command.relation
                }
                continue
            }
            guard case .arrowBatch(let batch) = message.responseType else { continue }
            let before = reader.rows.count
            try read(batch.data)
            guard Int64(reader.rows.count - before) == batch.rowCount else {
                throw SparkConnectError(.protocolViolation,
                                        "an Arrow batch announced \(batch.rowCount) rows but holds \(reader.rows.count - before)")
            }
        }
        return (SparkResult(columns: reader.fields ?? [], rows: reader.rows, batchCount: reader.batchCount,
                            operationID: operationID), relation)
    }
}
#endif
