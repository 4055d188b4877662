import Auditor

/// Streams the records of a PostgreSQL table, view or read-only query with
/// `COPY (SELECT …) TO STDOUT`, without ever changing the database.
///
/// - Path: a libpq connection URL (`postgresql://user@host:5432/db?sslmode=verify-full`, or
///   `postgresql:///db?host=/socket/dir&port=5433`); TLS, service files and every
///   authentication method are libpq's. A password in the URL is refused (exit 78): it comes
///   from `PGPASSWORD`, `~/.pgpass` or `PGSERVICE`. `connect_timeout` is 10 s unless the URL
///   sets it.
/// - Schema: for `table:`, the requested fields that are columns (exact name, else ignoring
///   case), in request order; for `query:`, the query's result columns.
/// - Values: by the column's type (``PostgresColumnKind``); NULL → `.missing`. The chunk has
///   no storage-class restriction: typed columns give typed cells, text columns are judged
///   like CSV text.
/// - Locations: `.key(container: "db.schema.table", name: "id")` by `locate:` or a one-column
///   integer primary key; else the 1-based record ordinal.
/// - Safety: `default_transaction_read_only`, then one `REPEATABLE READ READ ONLY`
///   transaction (one snapshot: no change detection needed) with a `statement_timeout`; a
///   rules-file query is checked to be one SELECT and runs inside that transaction, which
///   refuses any write (a data-modifying `WITH`) with exit 78.
/// - Memory: one COPY row at a time from libpq, so constant whatever the table's size; a
///   pushed-down read of a heap table keeps 4 bytes per block of the table, and the rows
///   that may fail until its COPY ends, up to 8 MiB in memory and the rest in sorted runs in a
///   temporary file (``PostgresPositions``).
package final class PostgresReader: RecordReader {
    public let schema: Schema
    public let availableFields: [String]
    public let locationStyle: LocationStyle
    public let options: PostgresOptions

    private var connection: PostgresConnection?
    private let displayPath: String
    private let target: String
    private let what: String
    private var decoder: PostgresCopyDecoder
    private var produced = 0
    private var failure: AuditError?
    private var bytes: Int64 = 0
    /// The SELECT the COPY streams; started by the first ``nextChunk(maxRecords:)`` (pushdown
    /// may replace it first). Nil once started.
    private var pendingSelect: String?
    private let plan: PostgresReadPlan
    private var pushdownDialect: PostgresDialect?
    /// A pushed-down read's tally of the rows that passed in the database.
    private var passing: (rows: Int, passed: Int, counts: [Int])?
    /// A pushed-down read with positions: the rows seen, and those to read as records (in
    /// their order once `copied`, the COPY having ended).
    private var positions: PostgresPositions?
    private var copied = false

    public var bytesRead: Int64 { bytes }

    /// The factory for ``ReaderRegistry`` (format `postgres`; URL schemes `postgresql`, `postgres`).
    public static let factory: ReaderFactory = {
        var factory = ReaderFactory(
            format: "postgres", extensions: [],
            decodeOptions: { node throws(AuditError) in
                guard let node, !node.isNull else { return DefaultReaderOptions() }
                return try PostgresOptions.decode(node, sourceName: "")
            },
            open: { request in try PostgresReader(request: request) })
        factory.schemes = ["postgresql", "postgres"]
        factory.readsKeyColumnsAlone = true
        return factory
    }()

    /// Connects, opens the read-only transaction, plans the read and starts the COPY.
    /// - Throws: ``AuditError``: `.invalidRules` (bad block, password in the URL, refused
    ///   query), `.missingInput` (cannot connect, no privilege), `.malformedInput` (no such
    ///   table), `.transient` (the server is going away).
    public init(request: ReaderRequest) throws(AuditError) {
        let options = try request.options(as: PostgresOptions.self) ?? PostgresOptions(source: .table(request.sourceName))
        let displayPath = SourceURL.redacted(request.displayPath)
        let connection = try PostgresConnection(url: request.path, displayPath: displayPath)
        let target = connection.target
        do throws(PostgresFailure) {
            try connection.beginReadOnly(timeoutSeconds: options.timeoutSeconds)
        } catch {
            throw PostgresErrors.auditError(error, stage: .open, displayPath: displayPath, target: target)
        }
        let plan: PostgresReadPlan
        switch options.source {
        case .table(let name):
            plan = try PostgresReadPlan.table(name, options: options, fields: request.fields, connection: connection,
                                              displayPath: displayPath)
        case .query(let sql):
            plan = try PostgresReadPlan.query(sql, options: options, connection: connection, displayPath: displayPath)
        }
        self.options = options
        self.plan = plan
        pendingSelect = plan.select
        self.connection = connection
        self.displayPath = displayPath
        self.target = target
        what = plan.what
        schema = Schema(fields: plan.fields)
        availableFields = plan.available
        locationStyle = plan.locationStyle
        decoder = PostgresCopyDecoder(kinds: plan.kinds, keyField: plan.keyField, leading: plan.leading)
    }

    /// Reads up to `maxRecords` rows.
    /// - Complexity: O(bytes of the rows): one pass over each COPY row.
    public func nextChunk(maxRecords: Int) throws -> RecordChunk? {
        if let failure { throw failure }
        if copied { return try nextPositioned(maxRecords: maxRecords) }
        guard let connection else { return nil }
        if let select = pendingSelect {
            pendingSelect = nil
            do throws(PostgresFailure) {
                if positions != nil {
                    // Rows come with their positions: any plan will do, parallel workers too.
                    try connection.execute("SET LOCAL max_parallel_workers_per_gather TO DEFAULT")
                } else {
                    // One plan, no parallel workers: records come in the table's order, the same
                    // whether or not a pushed-down condition skips some.
                    try connection.execute("SET LOCAL max_parallel_workers_per_gather = 0; SET LOCAL synchronize_seqscans = off")
                }
                try connection.startCopy(select)
                if positions != nil { try readPositioned(connection) }
            } catch {
                return try stop(PostgresErrors.auditError(error, stage: readStage, displayPath: displayPath, target: target),
                                RecordChunkBuilder(columnCount: schema.fields.count, firstRecord: produced))
            }
            if let failure { throw failure }
            if copied { return try nextPositioned(maxRecords: maxRecords) }
        }
        let limit = max(1, maxRecords)
        var builder = RecordChunkBuilder(columnCount: schema.fields.count, firstRecord: produced, capacity: min(limit, 1 << 16))
        if decoder.ordinalField != nil { builder.unsafeChunk.ordinals = [] }
        var malformed = false
        var ended = false
        do throws(PostgresFailure) {
            while builder.count < limit {
                let ordinal = Int64(produced + builder.count) + 1
                let more = try connection.nextCopyRow { row in
                    bytes += Int64(row.count)
                    if countIfPassed(row) { return }
                    if !decoder.append(row, ordinal: ordinal, to: &builder.unsafeChunk) { malformed = true }
                }
                if !more {
                    ended = true
                    break
                }
                if malformed { break }
            }
        } catch {
            var error = PostgresErrors.auditError(error, stage: readStage, displayPath: displayPath, target: target)
            // A failure mid-read after the first row is the server's, not the query's text.
            if error.code == .invalidRules, produced + builder.count > 0, case .query = options.source {
                error = AuditError(.malformedInput, error.message, location: error.location, cause: error.cause)
            }
            return try stop(error, builder)
        }
        if malformed {
            return try stop(AuditError(.malformedInput, "PostgreSQL at \(target) sent a COPY row with the wrong number of "
                                       + "fields for \(what) (record \(produced + builder.count))", location: displayPath),
                        builder)
        }
        if ended { finishTransaction() }
        produced += builder.count
        guard builder.count > 0 else { return nil }
        return builder.build()
    }

    /// What a failure of the read is reported against: the rules' query, or the table.
    private var readStage: PostgresErrors.Stage {
        if case .query = options.source { return .query(mark: options.mark) }
        return .read(what: what)
    }

    /// Reads the whole COPY of a pushed-down read with positions, counting the rows that
    /// passed and keeping the others; sets ``copied`` (or ``failure``).
    private func readPositioned(_ connection: PostgresConnection) throws(PostgresFailure) {
        var wrong: String?
        var spillFailure: AuditError?
        while try connection.nextCopyRow({ row in
            bytes += Int64(row.count)
            guard wrong == nil, spillFailure == nil else { return }
            guard let position = PostgresPositions.position(of: row), let rank = positions?.note(position) else {
                wrong = String(decoding: row.prefix(24), as: UTF8.self)
                return
            }
            if !countIfPassed(row) {
                do throws(AuditError) { try positions?.keep(row, at: position, rank: rank) } catch { spillFailure = error }
            }
        }) {}
        finishTransaction()
        copied = true
        if let positions { PushdownLowering.trace("-- \(positions.rows) positions; the kept rows spilled in \(positions.spilledRuns) runs") }
        if let spillFailure {
            failure = spillFailure
        } else if let wrong {
            failure = AuditError(.internal, "PostgreSQL sent a pushed-down row at a position outside its block, twice, or "
                                 + "before a row of the same block that it had sent already, so the records cannot be "
                                 + "numbered as a serial scan would: \(wrong); audit this table without pushdown",
                                 location: displayPath)
        } else if let positions, positions.rows != passing?.rows {
            failure = AuditError(.internal, "PostgreSQL sent \(positions.rows) positions for \(passing?.rows ?? 0) rows",
                                 location: displayPath)
        }
    }

    /// The next chunk of the rows kept by ``readPositioned(_:)``, in their order.
    private func nextPositioned(maxRecords: Int) throws(AuditError) -> RecordChunk? {
        let limit = max(1, maxRecords)
        var builder = RecordChunkBuilder(columnCount: schema.fields.count, firstRecord: produced, capacity: min(limit, 1 << 16))
        builder.unsafeChunk.ordinals = []
        while builder.count < limit {
            let read: (ok: Bool, ordinal: Int64)?
            do throws(AuditError) {
                read = try positions?.next { ordinal, row in
                    builder.unsafeChunk.ordinals?.append(Int(ordinal))
                    return (decoder.append(row, ordinal: ordinal, to: &builder.unsafeChunk), ordinal)
                }
            } catch {
                return try stop(AuditError(error.code, error.message, location: displayPath, cause: error.cause), builder)
            }
            guard let read else {
                positions = nil         // every kept row is read: the counts and buffers go
                break
            }
            guard read.ok else {
                return try stop(AuditError(.malformedInput, "PostgreSQL at \(target) sent a COPY row with the wrong number of "
                                           + "fields for \(what) (record \(read.ordinal))", location: displayPath), builder)
            }
        }
        produced += builder.count
        guard builder.count > 0 else { return nil }
        return builder.build()
    }

    /// Keeps the rows read before an error (returned first), then throws it on every call.
    private func stop(_ error: AuditError, _ builder: RecordChunkBuilder) throws(AuditError) -> RecordChunk {
        failure = error
        connection = nil
        produced += builder.count
        guard builder.count > 0 else { throw error }
        return builder.build()
    }

    /// Ends the transaction and closes the connection.
    private func finishTransaction() {
        connection?.end()
        connection = nil
    }

    /// Closes the connection (the read-only snapshot needs no change check).
    public func finish() throws {
        finishTransaction()
    }
}

// MARK: - Pushdown

extension PostgresReader: PushdownReader {
    public var pushdownUnavailable: String? {
        plan.pushdown == nil ? "a query: source is read as it is (pushdown needs a table:)" : nil
    }

    public var dialect: any SQLDialect {
        if let pushdownDialect { return pushdownDialect }
        let made = PostgresDialect(columns: plan.pushdown?.columns ?? [:], table: plan.pushdown?.from ?? "NULL", positioned: plan.heap != nil)
        pushdownDialect = made
        return made
    }

    /// One scan for both: the COPY carries every row's ordinal (or position), whether it passes
    /// and a bit per counted condition; a passing row sends nothing else (its columns are NULL)
    /// and is only counted here, the others are read as records. The engine evaluates `passes` once.
    ///
    /// A heap table's rows carry their `ctid`, so the scan may run in parallel and in any order:
    /// the rows to read are kept and sorted by position (``PostgresPositions``). Any other
    /// relation is numbered by `row_number()` over a serial scan, and sorted back after a join
    /// of duplicate keys, which may reorder rows.
    public func restrict(passing passes: String, counting conditions: [String]) throws {
        guard let table = plan.pushdown, pendingSelect != nil, let connection else { return }
        guard conditions.count <= 62 else {
            throw PushdownLowering.Refusal(reason: "it would count more than 62 conditions in one scan")
        }
        let positioned = pushdownDialect?.positioned ?? false
        if positioned {
            let sizes: [String?]
            do throws(PostgresFailure) {
                sizes = try connection.execute("SELECT current_setting('block_size'), pg_catalog.pg_relation_size($1::oid)",
                                               [plan.heap ?? "0"]).first ?? []
            } catch {
                throw PostgresErrors.auditError(error, stage: .read(what: what), displayPath: displayPath, target: target)
            }
            let blockSize = sizes.first.flatMap { $0.flatMap { Int($0) } } ?? 8192
            let bytes = sizes.dropFirst().first.flatMap { $0.flatMap { Int($0) } } ?? 0
            positions = PostgresPositions(blockSize: blockSize, blocks: bytes / max(1, blockSize))
        }
        let joins = pushdownDialect?.joins.joined(separator: " ") ?? ""
        let flags = conditions.isEmpty ? "0" : conditions.enumerated()
            .map { "(CASE WHEN \($0.element) THEN \(Int64(1) << $0.offset) ELSE 0 END)" }.joined(separator: " + ")
        let columns = (table.select.isEmpty ? ["NULL"] : table.select).map { "CASE WHEN auditor_pass THEN NULL ELSE \($0) END" }
        pendingSelect = "SELECT auditor_ordinal, auditor_pass, auditor_flags, \(columns.joined(separator: ", ")) FROM "
            + "(SELECT auditor_t.*, (\(passes)) IS TRUE AS auditor_pass, (\(flags))::bigint AS auditor_flags "
            + "FROM \(pushdownDialect?.relation(numbered: true) ?? table.from) \(joins) OFFSET 0) AS s"
            + (joins.isEmpty || positioned ? "" : " ORDER BY auditor_ordinal")
        PushdownLowering.trace(pendingSelect!)
        decoder = PostgresCopyDecoder(kinds: [positioned ? .text : .integer, .text, .integer] + plan.kinds,
                                      keyField: plan.keyField.map { $0 + 3 }, leading: plan.leading + 3,
                                      ordinalField: positioned ? nil : 0)
        passing = (0, 0, Array(repeating: 0, count: conditions.count))
    }

    /// The same scan, with NULL for every column but `fields` and the key that locates rows.
    public func readOnly(_ fields: Set<String>) throws -> Bool {
        guard let table = plan.pushdown, pendingSelect != nil, passing == nil, !plan.fields.isEmpty else { return false }
        var columns = Array(table.select.prefix(plan.leading))
        for (i, field) in plan.fields.enumerated() {
            columns.append(fields.contains(field) || plan.keyField == plan.leading + i ? table.select[plan.leading + i] : "NULL")
        }
        pendingSelect = "SELECT \(columns.joined(separator: ", ")) FROM \(table.from)"
        PushdownLowering.trace(pendingSelect!)
        return true
    }

    public func passingCounts() throws -> [Int] {
        guard let passing, connection == nil, failure == nil else {
            throw AuditError(.internal, "the pushed-down read did not end", location: displayPath)
        }
        return [passing.rows, passing.passed] + passing.counts
    }

    /// Counts a COPY row of a pushed-down read that passed (`t` in its second field), from
    /// its third field's bits; false for a row to read as a record.
    fileprivate func countIfPassed(_ row: UnsafeBufferPointer<UInt8>) -> Bool {
        guard passing != nil else { return false }
        passing!.rows += 1          // in place: a copy of the tally would copy its counts per row
        var i = 0
        while i < row.count, row[i] != 0x09 { i += 1 }
        guard i + 2 < row.count, row[i + 1] == UInt8(ascii: "t"), row[i + 2] == 0x09 else { return false }
        passing!.passed += 1
        var j = i + 3
        var bits: UInt64 = 0
        while j < row.count, row[j] >= 0x30, row[j] <= 0x39 { bits = bits &* 10 &+ UInt64(row[j] - 0x30); j += 1 }
        while bits != 0 {
            let k = bits.trailingZeroBitCount
            if k < passing!.counts.count { passing!.counts[k] += 1 }
            bits &= bits - 1
        }
        return true
    }
}
