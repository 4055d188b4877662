#if Spark
import Auditor
import Dispatch
import SparkConnect

/// A ``SparkConnectClient`` for the synchronous reader: each statement runs as a task and the
/// calling thread waits for it.
///
/// The audit engine reads on plain threads (the main thread, the pipeline's producer), never
/// on Swift's cooperative pool, so waiting here holds no thread the task needs. Code that
/// audits from an `async` context must do it off the cooperative pool (a `Thread`), as the
/// engine does for every reader.
struct SparkSession {
    let client: SparkConnectClient
    /// `host:port`, for messages.
    let target: String
    let displayPath: String
    /// How many statements this session sent (a query is a Spark job or more); the docs cite it.
    private(set) var statements = 0

    /// Opens the session: the connection is made by the first statement, which sets the
    /// session's SQL semantics (see ``settings``).
    /// - Throws: ``AuditError`` (see ``SparkErrors``).
    init(url: String, displayPath: String, timeoutSeconds: Int) throws(AuditError) {
        do {
            client = try SparkConnectClient(url, timeout: .seconds(timeoutSeconds))
        } catch let error as SparkConnectError {
            throw SparkErrors.auditError(error, stage: .open, target: url, displayPath: displayPath)
        } catch {
            throw AuditError(.invalidRules, "'\(displayPath)' is not a Spark Connect URL (sc://host:port)", location: displayPath,
                             cause: String(describing: error))
        }
        target = "\(client.url.host):\(client.url.port)"
        self.displayPath = displayPath
        for setting in Self.settings { _ = try run(setting, stage: .open, command: true) }
    }

    /// The session's SQL semantics, set before anything else (never left to the server's
    /// defaults, which a cluster's administrator may change):
    ///
    /// - ANSI mode on: an overflow or an invalid cast that slipped past the dialect's checks
    ///   fails the query (an internal error, exit 70) instead of becoming a silent NULL or a
    ///   wrapped-around number that could call a failing record passing. The dialect never
    ///   casts text it has not validated, and uses `try_cast` (NULL, never an error) even
    ///   there, since Spark's optimizer may evaluate a cast before the guard that protects it.
    /// - The session time zone is UTC: a timestamp's date is its UTC date, as the streaming
    ///   engine takes it.
    /// - Whole-stage code generation gives up on a stage whose generated method is longer
    ///   than the JVM compiles (8,000 bytes of bytecode; Spark's default waits for 65,535):
    ///   a pushed-down scan that evaluates every rule is such a stage, and the JVM then
    ///   interprets it for every row, twice as slow as Spark's per-operator code.
    static let settings = ["SET spark.sql.ansi.enabled=true", "SET spark.sql.session.timeZone=UTC",
                           "SET spark.sql.codegen.hugeMethodLimit=8000"]

    /// Runs one statement and waits for its rows.
    /// - Parameter command: Run it as a command (`SET`, `EXPLAIN`, `CREATE VIEW`), whose rows
    ///   come back without a Spark job (``SparkConnectClient/command(_:)``).
    /// - Throws: ``AuditError`` for the stage (see ``SparkErrors``).
    mutating func run(_ sql: String, stage: SparkErrors.Stage, command: Bool = false) throws(AuditError) -> SparkResult {
        statements += 1
        PushdownLowering.trace(sql)
        let box = ResultBox()
        let semaphore = DispatchSemaphore(value: 0)
        let client = client
        Task.detached {
            do {
                box.result = .success(try await command ? client.command(sql) : client.sql(sql))
            } catch {
                box.result = .failure(error)
            }
            semaphore.signal()
        }
        semaphore.wait()
        switch box.result {
        case .success(let result)?: return result
        case .failure(let error as SparkConnectError)?:
            throw SparkErrors.auditError(error, stage: stage, target: target, displayPath: displayPath, sql: sql)
        case .failure(let error)?:
            throw AuditError(.internal, "the Spark Connect call failed: \(error)", location: displayPath)
        case nil:
            throw AuditError(.internal, "the Spark Connect call ended without a result", location: displayPath)
        }
    }
}

/// The result of one call, handed from the task to the waiting thread.
// @unchecked Sendable: `result` is written once by the task before it signals the semaphore,
// and read by the waiting thread only after the wait returns (the semaphore orders the two).
private final class ResultBox: @unchecked Sendable {
    var result: Result<SparkResult, any Error>?
}
#endif
