#if Spark
import Auditor
import SparkConnect

/// Reads a table of Spark's catalog, or files that Spark reads (`files:`), through a Spark
/// Connect server (`sc://host:15002`).
///
/// - Path: a Spark Connect URL (`sc://host:port/;token=…`); `--source NAME=sc://…` replaces it
///   and keeps the `spark:` block.
/// - Schema: the requested fields that are columns (exact name, else ignoring case).
/// - Values: by the column's Spark type, as PostgreSQL's (``SparkColumnKind``); NULL → `.missing`.
/// - Order and locations: ``SparkReadPlan`` (by `locate:`, else by every column read).
/// - Pushdown (``PushdownReader``): Spark counts every row, the passing ones and the counted
///   conditions in one aggregate query, and a second query sends only the rows that may fail,
///   numbered as in the full order. An entity whose keys others reference is first read with
///   only its key columns (``readOnly(_:)``), then pushed down.
/// - Memory: each query's rows are collected before the first chunk (the client is not a
///   cursor yet): a streaming read holds the whole table, a pushed-down one only the rows
///   that may fail.
package final class SparkReader: RecordReader {
    public let schema: Schema
    public let availableFields: [String]
    public let locationStyle: LocationStyle

    private var session: SparkSession
    private let plan: SparkReadPlan
    private let displayPath: String
    /// The rows of the read, and the next one to hand out; nil until the first chunk.
    private var rows: [[SparkValue]]?
    private var next = 0
    private var produced = 0
    private var bytes: Int64 = 0
    private var pushdownDialect: SparkDialect?
    /// `passes` and the counted conditions of a pushed-down read; its counts once run.
    private var restriction: (passes: String, conditions: [String])?
    private var counts: [Int]?
    /// The fields a read of the key columns keeps (``readOnly(_:)``); nil: every field.
    private var narrowed: Set<String>?

    public var bytesRead: Int64 { bytes }

    /// Connects, sets the session up, resolves the table or files and plans the read.
    /// - Throws: ``AuditError`` (see ``SparkErrors``).
    public init(request: ReaderRequest) throws(AuditError) {
        let options = try request.options(as: SparkOptions.self) ?? SparkOptions(source: .table(request.sourceName))
        let displayPath = SourceURL.redacted(request.displayPath)
        var session = try SparkSession(url: request.path, displayPath: displayPath, timeoutSeconds: options.timeoutSeconds)
        plan = try SparkReadPlan.make(options, sourceName: request.sourceName, fields: request.fields, session: &session,
                                      displayPath: displayPath)
        self.session = session
        self.displayPath = displayPath
        schema = Schema(fields: plan.fields)
        availableFields = plan.available
        locationStyle = plan.locationStyle
    }

    /// The statements this reader sent to Spark (session settings, schema, reads).
    package var statements: Int { session.statements }

    /// Reads up to `maxRecords` rows.
    /// - Complexity: O(values of the rows).
    public func nextChunk(maxRecords: Int) throws -> RecordChunk? {
        if rows == nil { try start() }
        guard let rows, next < rows.count else { return nil }
        let pushed = restriction != nil
        let offset = pushed ? 1 : 0            // a pushed-down read's first column is the ordinal
        let end = min(rows.count, next + max(1, maxRecords))
        var builder = RecordChunkBuilder(columnCount: schema.fields.count, firstRecord: produced, capacity: end - next)
        if pushed { builder.unsafeChunk.ordinals = [] }
        for r in next ..< end {
            let row = rows[r]
            let ordinal: Int64
            if pushed, case .int(let n) = row[0] { ordinal = n } else { ordinal = Int64(produced + r - next + 1) }
            var location = ordinal
            if let k = plan.keyIndex {
                if case .int(let key) = row[offset + k] { location = key }
                if case .string(let text) = row[offset + k], let key = Int64(text) { location = key }
            }
            builder.beginRecord(location: location)
            if pushed { builder.unsafeChunk.ordinals?.append(Int(ordinal)) }
            for c in 0 ..< schema.fields.count {
                Self.set(row[offset + plan.leading + c], kind: plan.kinds[plan.leading + c], column: c, in: &builder)
            }
        }
        bytes += Int64(builder.chunk.bytes.count)
        produced += end - next
        next = end
        return builder.build()
    }

    /// Runs the read's queries (a pushed-down read counts first).
    private func start() throws(AuditError) {
        let stage = SparkErrors.Stage.read(what: plan.what)
        let columns = plan.select.enumerated().map { i, column in
            guard let narrowed, i >= plan.leading, i != plan.keyIndex, !narrowed.contains(plan.fields[i - plan.leading]) else { return column }
            return "NULL"
        }.joined(separator: ", ")
        guard let (passes, conditions) = restriction else {
            rows = try session.run("SELECT \(columns) FROM \(plan.relation) ORDER BY \(plan.order)", stage: stage).rows
            return
        }
        let flagged = "(SELECT *, coalesce(\(passes), FALSE) AS auditor_pass FROM \(plan.relation)) AS auditor_t"
        let tallies = ["count(*)", "count_if(auditor_pass)"] + conditions.map { "count_if(auditor_pass AND coalesce(\($0), FALSE))" }
        let result = try session.run("SELECT \(tallies.joined(separator: ", ")) FROM \(flagged)", stage: stage)
        var got = [Int]()
        for value in result.rows.first ?? [] {
            guard case .int(let n) = value else { break }
            got.append(Int(n))
        }
        guard got.count == tallies.count else {
            throw AuditError(.internal, "Spark answered the pushed-down counts with \(result.rows.first?.description ?? "no row")",
                             location: displayPath)
        }
        counts = got
        rows = try session.run("SELECT auditor_ordinal, \(columns) FROM (SELECT *, coalesce(\(passes), FALSE) AS auditor_pass, "
                                   + "row_number() OVER (ORDER BY \(plan.order)) AS auditor_ordinal FROM \(plan.relation)) AS auditor_t "
                                   + "WHERE NOT auditor_pass ORDER BY auditor_ordinal", stage: stage).rows
    }

    /// One value as a cell of column `c` of the current record.
    static func set(_ value: SparkValue, kind: SparkColumnKind, column c: Int, in builder: inout RecordChunkBuilder) {
        switch value {
        case .null: break
        case .int(let i): builder.set(c, .integer(i))
        case .double(let d):
            if d.isFinite { builder.set(c, .real(d)) } else { builder.setText(c, d.isNaN ? "NaN" : d < 0 ? "-Infinity" : "Infinity") }
        case .bool(let b): builder.setText(c, b ? "true" : "false")
        case .string(let s), .decimal(let s): builder.setText(c, s)
        case .binary(let bytes):
            let text = builder.appendTextCell(bytes)
            builder.set(c, Cell(tag: .blob, payload: text.payload, length: text.length))
        case .date(let days): builder.setText(c, CalendarMath.isoDate(days: Int(days)))
        case .timestamp(let micros, _):
            // `YYYY-MM-DDTHH:MM:SS[.ffffff]Z`, trailing zeros of the fraction dropped (as PostgreSQL's).
            let seconds = micros >= 0 ? micros / 1_000_000 : -((-micros + 999_999) / 1_000_000)
            let fraction = micros - seconds * 1_000_000
            var text = CalendarMath.isoDateTime(seconds: seconds)
            if fraction != 0 {
                var digits = String(fraction)
                digits = String(repeating: "0", count: 6 - digits.count) + digits
                while digits.hasSuffix("0") { digits.removeLast() }
                text.insert(contentsOf: "." + digits, at: text.index(before: text.endIndex))
            }
            builder.setText(c, text)
        }
    }

    /// Nothing to release: every call closed its connection; temporary views end with the session.
    public func finish() throws {}
}

// MARK: - Pushdown

extension SparkReader: PushdownReader {
    public var pushdownUnavailable: String? { nil }

    public var dialect: any SQLDialect {
        if let pushdownDialect { return pushdownDialect }
        let made = SparkDialect(columns: plan.mapping)
        pushdownDialect = made
        return made
    }

    /// Records the condition; the queries run with the first chunk (``start()``).
    public func restrict(passing passes: String, counting conditions: [String]) throws {
        guard rows == nil else { return }
        restriction = (passes, conditions)
    }

    /// The same read in the same order, with NULL for every column but `fields` and the one
    /// that locates rows: a pass that builds only the key sets others reference, before this
    /// entity's rules are pushed down.
    public func readOnly(_ fields: Set<String>) throws -> Bool {
        guard rows == nil, restriction == nil else { return false }
        narrowed = fields
        return true
    }

    public func passingCounts() throws -> [Int] {
        guard let counts, let rows, next == rows.count else {
            throw AuditError(.internal, "the pushed-down read did not end", location: displayPath)
        }
        return counts
    }
}
#endif
