import Auditor
import CLibPQ
#if canImport(Glibc)
import Glibc
#endif

/// A failure reported by libpq or the server: its SQLSTATE (nil for client-side failures),
/// the primary message, and whether the connection is gone.
struct PostgresFailure: Error, Sendable {
    var sqlState: String?
    var message: String
    var connectionLost: Bool
}

/// One libpq connection, opened read-only: the owner of the `PGconn` handle (closed in
/// `deinit`), shared by the streaming reader and, later, SQL pushdown.
///
/// Opening it sets up the session the auditor relies on: UTF-8, `DateStyle 'ISO, YMD'`,
/// `IntervalStyle postgres`, `extra_float_digits 3`, `TimeZone 'UTC'`, and
/// `default_transaction_read_only`; ``beginReadOnly(timeoutSeconds:)`` then starts a
/// `REPEATABLE READ READ ONLY` transaction (one snapshot for the catalog look-ups and every
/// row) with a `statement_timeout`.
final class PostgresConnection {
    let handle: OpaquePointer
    /// `host:port/db` as libpq resolved it, never with a password (for messages).
    let target: String
    /// The database name, the first part of `db.schema.table` locations.
    let database: String
    /// The user name (for messages).
    let user: String

    /// Seconds libpq waits for the server when the URL sets no `connect_timeout`.
    static let defaultConnectTimeout = 10

    /// Connects and prepares the session.
    /// - Parameters:
    ///   - url: A libpq connection URL or keyword string (`postgresql://user@host/db?sslmode=require`).
    ///   - displayPath: The URL as messages show it (without a password).
    /// - Throws: ``AuditError``: `.invalidRules` for a URL that holds a password or does not
    ///   parse, `.missingInput` when the server cannot be reached or refuses the connection
    ///   (host, port, password, database), `.transient` when it is starting or shutting down.
    init(url: String, displayPath: String) throws(AuditError) {
        try Self.checkURL(url, displayPath: displayPath)
        // connect_timeout comes before dbname, so that the URL's own value (expanded from
        // dbname) overrides it; client_encoding after it, so that the rows are UTF-8 whatever
        // the URL says.
        let pairs: [(String, String)] = [
            ("connect_timeout", String(Self.defaultConnectTimeout)),
            ("dbname", url),
            ("fallback_application_name", "auditor"),
            ("client_encoding", "UTF8"),
        ]
        let connection = Self.connect(pairs)
        guard let connection else {
            throw AuditError(.io, "cannot connect to PostgreSQL: out of memory", location: displayPath)
        }
        let target = Self.describeTarget(connection)
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = Self.scrub(Self.text(PQerrorMessage(connection)))
            PQfinish(connection)
            throw PostgresErrors.connectError(message, target: target, displayPath: displayPath)
        }
        handle = connection
        self.target = target
        database = PQdb(connection).map { String(cString: $0) } ?? ""
        user = PQuser(connection).map { String(cString: $0) } ?? ""
        do throws(PostgresFailure) {
            try execute("SET DateStyle = 'ISO, YMD'; SET IntervalStyle = 'postgres'; SET extra_float_digits = 3; "
                            + "SET TimeZone = 'UTC'; SET client_encoding = 'UTF8'; SET default_transaction_read_only = on")
        } catch {
            throw PostgresErrors.auditError(error, stage: .open, displayPath: displayPath, target: target)
        }
    }

    deinit {
        PQfinish(handle)
    }

    private static func connect(_ pairs: [(String, String)]) -> OpaquePointer? {
        // strdup'ed C strings for PQconnectdbParams's NULL-terminated arrays.
        let keys = pairs.map { strdup($0.0) }
        let values = pairs.map { strdup($0.1) }
        defer {
            keys.forEach { free($0) }
            values.forEach { free($0) }
        }
        var keyArray: [UnsafePointer<CChar>?] = keys.map { $0.map { UnsafePointer($0) } }
        var valueArray: [UnsafePointer<CChar>?] = values.map { $0.map { UnsafePointer($0) } }
        keyArray.append(nil)
        valueArray.append(nil)
        return PQconnectdbParams(keyArray, valueArray, 1)
    }

    /// Refuses a URL that carries a password (or does not parse), before anything connects.
    static func checkURL(_ url: String, displayPath: String) throws(AuditError) {
        var errorMessage: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(url, &errorMessage) else {
            let detail = errorMessage.map { String(cString: $0) } ?? "it does not parse"
            if let errorMessage { PQfreemem(errorMessage) }
            // libpq's parse errors quote the offending part; never echo it if it could be a password.
            let shown = SourceURL.hasPassword(url) ? "it does not parse" : detail.trimmingTrailingNewlines
            throw AuditError(.invalidRules, "'\(displayPath)' is not a PostgreSQL connection URL: \(shown); write "
                                 + "postgresql://USER@HOST:PORT/DATABASE", location: displayPath)
        }
        defer { PQconninfoFree(options) }
        var option = options
        while let keyword = option.pointee.keyword {
            if String(cString: keyword) == "password", let value = option.pointee.val, value.pointee != 0 {
                throw AuditError(.invalidRules, "the connection URL '\(displayPath)' holds a password; auditor never "
                                     + "takes one from the rules or the command line: set PGPASSWORD, or use "
                                     + "~/.pgpass or a service in ~/.pg_service.conf (PGSERVICE)", location: displayPath)
            }
            option = option.advanced(by: 1)
        }
    }

    /// `host:port/db` (a socket folder shows as the host, as libpq reports it).
    static func describeTarget(_ connection: OpaquePointer) -> String {
        let host = PQhost(connection).map { String(cString: $0) } ?? ""
        let port = PQport(connection).map { String(cString: $0) } ?? ""
        let db = PQdb(connection).map { String(cString: $0) } ?? ""
        return "\(host.isEmpty ? "localhost" : host)\(port.isEmpty ? "" : ":" + port)/\(db)"
    }

    /// A C string from libpq as Swift text ("" for NULL).
    static func text(_ pointer: UnsafePointer<CChar>?) -> String {
        pointer.map { String(cString: $0) } ?? ""
    }

    /// Removes the value of `PGPASSWORD` from a message, should a server or library ever echo
    /// it (libpq does not; this is the belt to that pair of braces).
    static func scrub(_ message: String) -> String {
        var text = message.trimmingTrailingNewlines
        if let secret = getenv("PGPASSWORD").map({ String(cString: $0) }), secret.count >= 3 {
            text = text.replacingAll(secret, with: "***")
        }
        return text
    }

    // MARK: - Statements

    /// Runs our own SQL (simple query protocol) and returns its rows as text.
    /// - Throws: ``PostgresFailure``.
    @discardableResult
    func execute(_ sql: String, _ parameters: [String] = []) throws(PostgresFailure) -> [[String?]] {
        let result: OpaquePointer?
        if parameters.isEmpty {
            result = PQexec(handle, sql)
        } else {
            let copies = parameters.map { strdup($0) }
            defer { copies.forEach { free($0) } }
            let values: [UnsafePointer<CChar>?] = copies.map { $0.map { UnsafePointer($0) } }
            result = PQexecParams(handle, sql, Int32(parameters.count), nil, values, nil, nil, 0)
        }
        defer { PQclear(result) }
        try check(result, expecting: [PGRES_COMMAND_OK, PGRES_TUPLES_OK])
        guard let result, PQresultStatus(result) == PGRES_TUPLES_OK else { return [] }
        var rows = [[String?]]()
        for r in 0 ..< PQntuples(result) {
            var row = [String?]()
            for c in 0 ..< PQnfields(result) {
                row.append(PQgetisnull(result, r, c) != 0 ? nil : String(cString: PQgetvalue(result, r, c)))
            }
            rows.append(row)
        }
        return rows
    }

    /// Prepares `sql` as the unnamed statement and returns its result columns: names and type OIDs.
    /// - Throws: ``PostgresFailure`` (the server's error for bad SQL).
    func describe(_ sql: String) throws(PostgresFailure) -> [(name: String, type: UInt32)] {
        let prepared = PQprepare(handle, "", sql, 0, nil)
        defer { PQclear(prepared) }
        try check(prepared, expecting: [PGRES_COMMAND_OK])
        let described = PQdescribePrepared(handle, "")
        defer { PQclear(described) }
        try check(described, expecting: [PGRES_COMMAND_OK])
        guard let described else { return [] }
        return (0 ..< PQnfields(described)).map { c in
            (Self.text(PQfname(described, c)), UInt32(PQftype(described, c)))
        }
    }

    /// Starts `COPY (select) TO STDOUT` in text format; rows then come from ``nextCopyRow()``.
    func startCopy(_ select: String) throws(PostgresFailure) {
        let result = PQexec(handle, "COPY (\(select)) TO STDOUT")
        defer { PQclear(result) }
        try check(result, expecting: [PGRES_COPY_OUT])
    }

    /// The next COPY row (its bytes, ending in a newline) handed to `body`, or false at the end.
    /// - Throws: ``PostgresFailure`` when the copy fails or the server goes away.
    func nextCopyRow(_ body: (UnsafeBufferPointer<UInt8>) -> Void) throws(PostgresFailure) -> Bool {
        var buffer: UnsafeMutablePointer<CChar>?
        let length = PQgetCopyData(handle, &buffer, 0)
        if length > 0, let buffer {
            defer { PQfreemem(buffer) }
            buffer.withMemoryRebound(to: UInt8.self, capacity: Int(length)) { body(UnsafeBufferPointer(start: $0, count: Int(length))) }
            return true
        }
        if length == -2 { throw failure(nil) }
        // -1: the copy is over; its final result says whether it completed.
        var lastFailure: PostgresFailure?
        while let result = PQgetResult(handle) {
            if PQresultStatus(result) != PGRES_COMMAND_OK, lastFailure == nil { lastFailure = failure(result) }
            PQclear(result)
        }
        if let lastFailure { throw lastFailure }
        if PQstatus(handle) != CONNECTION_OK { throw failure(nil) }
        return false
    }

    /// Throws the failure a result carries unless its status is one of `expecting`.
    private func check(_ result: OpaquePointer?, expecting: [ExecStatusType]) throws(PostgresFailure) {
        guard let result, expecting.contains(PQresultStatus(result)) else { throw failure(result) }
    }

    /// The failure of a result (or of the connection when the result is nil).
    func failure(_ result: OpaquePointer?) -> PostgresFailure {
        let lost = PQstatus(handle) != CONNECTION_OK
        guard let result else {
            return PostgresFailure(sqlState: nil, message: Self.scrub(Self.text(PQerrorMessage(handle))), connectionLost: lost)
        }
        let state = PQresultErrorField(result, auditor_pq_diag_sqlstate()).map { String(cString: $0) }
        var message = Self.text(PQresultErrorField(result, auditor_pq_diag_message_primary()))
        if message.isEmpty { message = Self.text(PQresultErrorMessage(result)) }
        if message.isEmpty { message = Self.text(PQerrorMessage(handle)) }
        return PostgresFailure(sqlState: state, message: Self.scrub(message), connectionLost: lost)
    }

    // MARK: - Transactions

    /// Starts the read-only transaction every read happens in.
    func beginReadOnly(timeoutSeconds: Int) throws(PostgresFailure) {
        try execute("BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY; "
                        + "SET LOCAL statement_timeout = '\(max(0, timeoutSeconds))s'")
    }

    /// Ends the transaction (nothing was written: a rollback and a commit are the same).
    func end() {
        PQclear(PQexec(handle, "ROLLBACK"))
    }

    /// Quotes an identifier: `"` + name with `"` doubled + `"`.
    static func quoted(_ identifier: String) -> String {
        "\"" + identifier.replacingAll("\"", with: "\"\"") + "\""
    }
}

extension String {
    var trimmingTrailingNewlines: String {
        var s = self
        while let last = s.last, last == "\n" || last == "\r" || last == " " { s.removeLast() }
        return s
    }

    /// Every occurrence of `target` replaced (without Foundation).
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = ""
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
