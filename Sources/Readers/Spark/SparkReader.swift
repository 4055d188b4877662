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
/// - Pushdown (``PushdownReader``): one query evaluates `passes` on every row and sends only
///   the rows that may fail, numbered as in the full order, with the counts of every row, the
///   passing ones and the counted conditions. The numbering runs in parallel: per range of
///   the key the order starts with (from `percentile_approx`, a first query), each range
///   sends its size and tallies with its last row, and a row's ordinal is its number in its
///   range plus the sizes of the ranges before it (``numbered(_:tallies:at:)``). An order that
///   starts with no integer is one range. When the verdict needs no window, it is decided
///   before the rows are spread by range, and a passing row with a key no other row has
///   crosses that exchange without its other columns (`narrowQuery`).
///   An entity whose keys others reference is first read
///   with only its key columns (``readOnly(_:)``), then pushed down. A read that Spark
///   estimates under `readWholeBelow:` is not pushed down (``pushdownUnavailable``).
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
    /// A pushed-down read's counts, and its rows that may fail (indexes into `rows`) in order
    /// with their ordinals (``numbered(_:tallies:at:)``).
    private var pushed: (counts: [Int], rows: [Int], ordinals: [Int64])?
    private var produced = 0
    private var bytes: Int64 = 0
    private var pushdownDialect: SparkDialect?
    /// `passes` and the counted conditions of a pushed-down read.
    private var restriction: (passes: String, conditions: [String])?
    /// The fields a read of the key columns keeps (``readOnly(_:)``); nil: every field.
    private var narrowed: Set<String>?
    /// With ``narrowed``: per column of the plan's `select`, its place in the rows read (nil:
    /// not read, a missing value), so that the other columns take no memory.
    private var places: [Int?]?
    /// `readWholeBelow:` of the `spark:` block.
    private let readWholeBelow: Int
    /// ``readWhole``'s answer, once asked.
    private var sized: String??

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
        readWholeBelow = options.readWholeBelow
        schema = Schema(fields: plan.fields)
        availableFields = plan.available
        locationStyle = plan.locationStyle
    }

    /// The statements this reader sent to Spark (session settings, schema, reads).
    package var statements: Int { session.statements }

    /// Reads up to `maxRecords` rows.
    /// - Complexity: O(values of the rows).
    public func nextChunk(maxRecords: Int) throws -> RecordChunk? {
        if rows == nil {
            do throws(AuditError) { try start() } catch { throw plan.malformedProbe?.explain(error, session: &session) ?? error }
        }
        guard let rows else { return nil }
        let count = pushed?.rows.count ?? rows.count
        guard next < count else { return nil }
        // A pushed-down read's rows start with its range, number, verdict and tallies.
        let offset = pushed == nil ? 0 : Self.prefix
        let end = min(count, next + max(1, maxRecords))
        var builder = RecordChunkBuilder(columnCount: schema.fields.count, firstRecord: produced, capacity: end - next)
        if pushed != nil { builder.unsafeChunk.ordinals = [] }
        for r in next ..< end {
            let row = rows[pushed?.rows[r] ?? r]
            func value(_ i: Int) -> SparkValue {
                guard let place = places.map({ $0[i] }) ?? i else { return .null }
                return row[offset + place]
            }
            let ordinal = pushed?.ordinals[r] ?? Int64(produced + r - next + 1)
            var location = ordinal
            if let k = plan.keyIndex {
                if case .int(let key) = value(k) { location = key }
                if case .string(let text) = value(k), let key = Int64(text) { location = key }
            }
            builder.beginRecord(location: location)
            if pushed != nil { builder.unsafeChunk.ordinals?.append(Int(ordinal)) }
            for c in 0 ..< schema.fields.count {
                Self.set(value(plan.leading + c), kind: plan.kinds[plan.leading + c], column: c, in: &builder)
            }
        }
        bytes += Int64(builder.chunk.bytes.count)
        produced += end - next
        next = end
        return builder.build()
    }

    /// Runs the read's queries.
    private func start() throws(AuditError) {
        let stage = SparkErrors.Stage.read(what: plan.what)
        var selected = plan.select
        if let narrowed {
            // Only the locating column and `narrowed`'s: a column of NULLs would still take a value per row.
            let kept = plan.select.indices.map { i in i < plan.leading || i == plan.keyIndex || narrowed.contains(plan.fields[i - plan.leading]) }
            selected = zip(plan.select, kept).filter(\.1).map(\.0)
            var place = [Int?](), read = 0
            for keep in kept {
                place.append(keep ? read : nil)
                if keep { read += 1 }
            }
            places = place
            if selected.isEmpty { selected = ["NULL"] }
        }
        let columns = selected.joined(separator: ", ")
        guard let (passes, conditions) = restriction else {
            // A small table read whole instead of pushed down (``readWhole``) is sorted in one
            // task: one Spark job, not three (the sample of a range partitioning, its exchange, the sort).
            let hint = (sized ?? nil) == nil ? "" : "/*+ COALESCE(1) */ "
            rows = try session.run("SELECT \(hint)\(columns) FROM \(plan.relation) ORDER BY \(plan.order)", stage: stage).rows
            return
        }
        var tallies = Tallies(conditions: conditions.map { "coalesce(\($0), FALSE)" })
        let got: [[SparkValue]]
        if let numbering = plan.numbering, let dialect = pushdownDialect, let key = dialect.bucketKey {
            // Without windows in the verdict, the numbered key's duplicates come with the ranges.
            let narrow = narrowed == nil && !dialect.windows
            let (cuts, duplicates, rows) = try ranges(of: numbering, duplicatesOf: narrow ? key : nil, stage: stage)
            tallies.rows = rows
            if narrow, let duplicates {
                let ranged = "(\(Self.ranged(valuedRelation, numbering: numbering, cuts: cuts))) AS auditor_b"
                let dup = duplicates.isEmpty ? "FALSE" : "coalesce(\(dialect.isOneOf(key, duplicates)), FALSE)"
                got = try session.run(narrowQuery(ranged: ranged, duplicated: dup, key: key, passes: passes, tallies: tallies, columns: selected),
                                      stage: stage).rows
            } else {
                // Spread by range first when every window of `passes` is partitioned by it too: one
                // exchange then serves them all. The typed values are computed after it.
                let ranged = Self.ranged(plan.readRelation, numbering: numbering, cuts: cuts)
                var spread = dialect.withValues("(\(ranged)\(dialect.windowsOutsideBuckets ? "" : " DISTRIBUTE BY auditor_bucket")) AS auditor_b")
                if dialect.readsDuplicates {
                    spread = "(SELECT *, (sum(CASE WHEN \(key) IS NOT NULL THEN 1 ELSE 0 END) OVER (PARTITION BY auditor_bucket, \(key)) > 1) "
                        + "AS \(SparkDialect.duplicateColumn) FROM \(spread)) AS auditor_d"
                }
                got = try session.run(Self.evaluating(Self.verdict(passes, of: spread), tallies: tallies.columns, order: plan.order,
                                                      columns: columns), stage: stage).rows
            }
        } else {
            let one = "(SELECT *, 0 AS auditor_bucket FROM \(valuedRelation)) AS auditor_b"
            got = try session.run(Self.evaluating(Self.verdict(passes, of: one), tallies: tallies.columns, order: plan.order, columns: columns),
                                  stage: stage).rows
        }
        var numbered = try Self.numbered(got, tallies: tallies.columns.count, at: displayPath)
        // The ranges, the repeated keys and the bits of a packed count all came from the first query.
        if let counted = tallies.rows, numbered.counts[0] != counted {
            throw AuditError(.transient, "the table changed during the audit: Spark counted \(counted) rows in the first query and "
                                 + "\(numbered.counts[0]) in the second; run again", location: displayPath)
        }
        numbered.counts = tallies.counts(numbered.counts)
        pushed = numbered
        rows = got
    }

    /// A pushed-down read's counts: every row, the passing rows, and among those the rows where
    /// each of `conditions` is true. With `rows` (what the first query counted), the conditions'
    /// counts are packed in fields of bits enough for it, as many to a `BIGINT` sum as fit in
    /// 63 bits: fewer sums for the window to keep (at 10M rows, 7 instead of 13 took a fifth off
    /// the stage after the exchange). No count exceeds the rows, so no field overflows into the
    /// next, within a range or summed over all of them.
    struct Tallies {
        /// Each is true where a passing row counts (never NULL).
        var conditions: [String]
        var rows: Int?
        private var width: Int? { rows.map { Swift.max(1, Int.bitWidth - $0.leadingZeroBitCount) } }
        private var perSum: Int { width.map { Swift.max(1, 63 / $0) } ?? 1 }

        /// The aggregates, in the order of ``counts(_:)``'s sums.
        var columns: [String] {
            let both = ["count(*)", "count_if(auditor_pass)"]
            guard let width else { return both + conditions.map { "count_if(auditor_pass AND \($0))" } }
            return both + stride(from: 0, to: conditions.count, by: perSum).map { first in
                let terms = conditions[first ..< Swift.min(first + perSum, conditions.count)].enumerated()
                    .map { "CASE WHEN \($1) THEN \(Int64(1) << (width * $0))L ELSE 0L END" }.joined(separator: " + ")
                return "sum(CASE WHEN auditor_pass THEN \(terms) ELSE 0L END)"
            }
        }

        /// The counts from the sums of ``columns``: every row, the passing ones, then each condition's.
        func counts(_ sums: [Int]) -> [Int] {
            guard let width else { return sums }
            let mask = (1 << width) - 1
            return Array(sums.prefix(2)) + conditions.indices.map { (sums[2 + $0 / perSum] >> (width * ($0 % perSum))) & mask }
        }
    }

    /// The query of a pushed-down read: each row's verdict, its number within its range and
    /// its range's size and tallies; out come the rows that may fail, and the last row of
    /// each range. `source`: the rows with their range (`auditor_bucket`) and verdict (`auditor_pass`).
    ///
    /// Every window has the same partitioning and order, so one sort serves them all, and the
    /// tallies are running counts: the range's own on its last row, the one row after which
    /// `lead` finds none. (Counts over the whole range took another window operator, which
    /// held each range whole and cost about as much again as the numbering.)
    static func evaluating(_ source: String, tallies: [String], order: String, columns: String) -> String {
        let window = "PARTITION BY auditor_bucket ORDER BY \(order)"
        let running = tallies.enumerated()
            .map { "\($1) OVER (\(window) ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS auditor_c\($0)" }.joined(separator: ", ")
        // The tallies as one text column, on the range's last row only: the rows that may
        // fail carry one NULL for them.
        let tally = "CASE WHEN auditor_last THEN array_join(CAST(array(\((0 ..< tallies.count).map { "auditor_c\($0)" }.joined(separator: ", "))) "
            + "AS ARRAY<STRING>), ',') END"
        return "SELECT auditor_bucket, auditor_rn, auditor_pass, \(tally), \(columns) FROM (SELECT *, "
            + "row_number() OVER (\(window)) AS auditor_rn, (lead(1) OVER (\(window))) IS NULL AS auditor_last, \(running) "
            + "FROM \(source)) AS auditor_t WHERE NOT auditor_pass OR auditor_last"
    }

    /// The columns read with the typed values that the pushed-down conditions read (``SparkDialect/withValues(_:)``).
    private var valuedRelation: String { pushdownDialect?.withValues(plan.readRelation) ?? plan.readRelation }

    /// `source` with each row's verdict, `auditor_pass`.
    static func verdict(_ passes: String, of source: String) -> String {
        "(SELECT *, coalesce(\(passes), FALSE) AS auditor_pass FROM \(source)) AS auditor_f"
    }

    /// The pushed-down query when the verdict needs no window (``SparkDialect/windows``): it is
    /// decided in the scan, and only the rows that may fail cross the exchange with their
    /// columns. A passing row whose numbered key is valid and no other row's (`key` not NULL,
    /// `duplicated` false) crosses it with its range, verdict, counted conditions (bits of
    /// `auditor_m…`) and numbered column only: its place in the order is decided by those, as
    /// no other row ties with it on them, so the numbering is the same.
    private func narrowQuery(ranged: String, duplicated: String, key: String, passes: String, tallies: Tallies,
                             columns: [String]) -> String {
        let bits = 62
        let conditions = tallies.conditions
        let masks = stride(from: 0, to: conditions.count, by: bits).map { first in
            conditions[first ..< min(first + bits, conditions.count)].enumerated()
                .map { "(CASE WHEN \($1) THEN \(Int64(1) << $0)L ELSE 0L END)" }.joined(separator: " + ")
        }
        // After the exchange, the conditions are their bits.
        var counted = tallies
        counted.conditions = conditions.indices.map { "(auditor_m\($0 / bits) & \(Int64(1) << ($0 % bits))L) <> 0" }
        let maskColumns = masks.indices.map { "auditor_m\($0)" }
        let numbered = plan.numberedColumn ?? key
        let carried = columns.filter { $0 != numbered }
        var exchanged = ["auditor_bucket", "auditor_pass", numbered]
            + masks.enumerated().map { "CASE WHEN auditor_pass THEN \($1) END AS auditor_m\($0)" }
        var unpacked = ["auditor_bucket", "auditor_pass", numbered] + maskColumns
        if !carried.isEmpty {
            exchanged.append("CASE WHEN auditor_pass AND \(key) IS NOT NULL AND NOT \(SparkDialect.duplicateColumn) THEN NULL ELSE named_struct("
                             + carried.enumerated().map { "'f\($0)', \($1)" }.joined(separator: ", ") + ") END AS auditor_p")
            unpacked += carried.enumerated().map { "auditor_p.f\($0) AS \($1)" }
        }
        let evaluated = Self.verdict(passes, of: "(SELECT *, \(duplicated) AS \(SparkDialect.duplicateColumn) FROM \(ranged)) AS auditor_d")
        let source = "(SELECT \(unpacked.joined(separator: ", ")) FROM (SELECT \(exchanged.joined(separator: ", ")) FROM \(evaluated) "
            + "DISTRIBUTE BY auditor_bucket) AS auditor_x) AS auditor_u"
        return Self.evaluating(source, tallies: counted.columns, order: plan.order, columns: columns.joined(separator: ", "))
    }

    /// The cuts of the numbering key's ranges (about equal in rows, from a sample of its
    /// values), so that the ranges are numbered in parallel, and the rows; with `key`
    /// (``SparkDialect/bucketKey``), also its valid values that more than one row has, ascending
    /// (nil: more than the dialect's key set takes).
    private func ranges(of numbering: String, duplicatesOf key: String?, stage: SparkErrors.Stage) throws(AuditError)
        -> (cuts: [Int64], duplicates: [Int64]?, rows: Int) {
        let quantiles = (1 ..< Self.ranges).map { String(Double($0) / Double(Self.ranges)) }.joined(separator: ", ")
        // The cuts need only be about even: the percentiles of one key in 16, chosen by its hash
        // so that any spread of keys is sampled evenly, take this query from 14.4-15.0 s to
        // 13.2-13.3 s at 10M rows (local mode). With few keys, fewer of them are cuts: fewer ranges.
        let percentiles = "array_join(CAST(percentile_approx(auditor_n, array(\(quantiles)), 1000) "
            + "FILTER (WHERE xxhash64(auditor_n) & 15 = 0) AS ARRAY<STRING>), ',')"
        let sql: String
        if let key {
            let repeated = "auditor_c > 1 AND auditor_k IS NOT NULL"
            // Spread by the groups before grouping: nearly every key is a group of its own, so
            // the partial aggregate that Spark would otherwise run before the exchange reduces
            // nothing and spills (10M rows in Parquet: 8 s for the query against 14 s).
            sql = "SELECT \(percentiles), CASE WHEN count_if(\(repeated)) <= \(dialect.maxKeySet) THEN array_join(CAST(collect_list(auditor_k) "
                + "FILTER (WHERE \(repeated)) AS ARRAY<STRING>), ',') END, sum(auditor_c) FROM (SELECT auditor_n, auditor_k, count(*) AS auditor_c "
                + "FROM (SELECT \(numbering) AS auditor_n, \(key) AS auditor_k FROM \(valuedRelation) "
                + "DISTRIBUTE BY auditor_n, auditor_k) AS auditor_x "
                + "GROUP BY 1, 2) AS auditor_g"
        } else {
            sql = "SELECT \(percentiles), count(*) FROM (SELECT \(numbering) AS auditor_n FROM \(plan.readRelation)) AS auditor_g"
        }
        let row = try session.run(sql, stage: stage).rows.first
        // sum() of no groups is NULL.
        let rows: Int
        switch row?.last {
        case .int(let n)?: rows = Int(n)
        case .null?: rows = 0
        default: throw AuditError(.internal, "Spark answered the first query of a pushed-down read with \(row ?? [])", location: displayPath)
        }
        func numbers(_ value: SparkValue?) -> [Int64]? {
            guard case .string(let text)? = value else { return nil }
            return Array(Set(text.split(separator: ",").compactMap { Int64($0) })).sorted()
        }
        let cuts = (numbers(row?.first) ?? []).filter { $0 != .min }
        guard key != nil, let row, row.count > 2 else { return (cuts, nil, rows) }
        if case .null = row[1] { return (cuts, nil, rows) }
        return (cuts, numbers(row[1]) ?? [], rows)
    }

    /// How many ranges a pushed-down read numbers its rows in (fewer when the key has fewer values).
    static let ranges = 64

    /// `SELECT *, … AS auditor_bucket FROM …` over `relation`, with each row's range: 0 where
    /// `numbering` (a BIGINT, also `auditor_n`) is NULL, else 1 + the number of `cuts`
    /// (ascending, distinct) below it. A binary search over the cuts as an array, one step per
    /// subquery (6 for 64 ranges), each step reading the one before twice so that Spark keeps
    /// them apart: a tree of CASEs, with a comparison per cut, made the scan's generated code
    /// too long to be compiled whole (``SparkDialect/values``).
    static func ranged(_ relation: String, numbering: String, cuts: [Int64]) -> String {
        var steps = 0
        while (1 << steps) - 1 < cuts.count { steps += 1 }
        let padded = cuts + [Int64](repeating: .max, count: (1 << steps) - 1 - cuts.count)
        let array = "array(\(padded.map { "\($0)L" }.joined(separator: ", ")))"
        var source = "(SELECT *, \(numbering) AS auditor_n FROM \(relation)) AS auditor_r"
        var below = "0"
        for s in 0 ..< steps {
            let step = 1 << (steps - 1 - s)
            source = "(SELECT *, \(below) + CASE WHEN auditor_n > element_at(\(array), \(below) + \(step)) THEN \(step) ELSE 0 END "
                + "AS auditor_s\(s) FROM \(source)) AS auditor_s\(s)"
            below = "auditor_s\(s)"
        }
        return "SELECT *, CASE WHEN auditor_n IS NULL THEN 0 ELSE 1 + \(below) END AS auditor_bucket FROM \(source)"
    }

    /// The columns before the read's in a pushed-down row: range, number in it, verdict, tallies.
    static let prefix = 4

    /// The pushed-down counts, and the rows that may fail in order with their ordinals: a row's
    /// ordinal is its number within its range plus the sizes of the ranges before it.
    /// `rows`: range, number in it, verdict, the range's `tallies` on its last row only (text,
    /// comma-separated; the first is its size), then the columns read.
    static func numbered(_ rows: [[SparkValue]], tallies: Int, at displayPath: String) throws(AuditError)
        -> (counts: [Int], rows: [Int], ordinals: [Int64]) {
        func fail(_ what: String) -> AuditError {
            AuditError(.internal, "Spark answered the pushed-down read with \(what)", location: displayPath)
        }
        var sizes = [Int64: Int64]()
        var counts = [Int](repeating: 0, count: tallies)
        for row in rows {
            guard row.count > prefix, case .int(let range) = row[0], case .int(let n) = row[1] else { throw fail("the row \(row.prefix(prefix))") }
            guard case .string(let text) = row[3] else { continue }
            let values = text.split(separator: ",").compactMap { Int($0) }
            guard values.count == tallies, values[0] == n, sizes[range] == nil else {
                throw fail("the tallies \(text) on row \(n) of range \(range)")
            }
            sizes[range] = Int64(values[0])
            for t in 0 ..< tallies { counts[t] += values[t] }
        }
        var offsets = [Int64: Int64]()
        var before: Int64 = 0
        for range in sizes.keys.sorted() {
            offsets[range] = before
            before += sizes[range]!
        }
        var failing = [(ordinal: Int64, row: Int)]()
        for (i, row) in rows.enumerated() where row[2] == .bool(false) {
            guard case .int(let range) = row[0], case .int(let n) = row[1], let offset = offsets[range], n >= 1, n <= sizes[range]! else {
                throw fail("a row outside its ranges: \(row.prefix(prefix))")
            }
            failing.append((offset + n, i))
        }
        // counts[0]: every row; counts[1]: the passing ones.
        guard counts.count >= 2, counts[0] - counts[1] == failing.count else {
            throw fail("\(failing.count) rows that may fail of the \(counts) it counted")
        }
        failing.sort { $0.ordinal < $1.ordinal }
        return (counts, failing.map(\.row), failing.map(\.ordinal))
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
    public var pushdownUnavailable: String? {
        if let clash = plan.clashingColumn {
            return "the column \(clash) has a name that the pushed-down queries give their own columns (auditor_…)"
        }
        return readWhole
    }

    /// Why a pushed-down audit reads this table whole instead: Spark estimates the read under
    /// `readWholeBelow:`, where one query that brings every row costs less than the jobs of a
    /// pushed-down audit (its two queries, and first a read of the keys others reference).
    /// Asked once; without an estimate, the rules are pushed down.
    private var readWhole: String? {
        if let sized { return sized }
        var reason: String?
        if readWholeBelow > 0, let answer = try? session.run(plan.estimating, stage: .resolve(what: plan.what), command: true),
           case .string(let text)? = answer.rows.first?.first,
           let estimate = SparkReadPlan.estimatedBytes(explained: text), estimate.bytes < Double(readWholeBelow) {
            reason = "Spark estimates the read at \(estimate.shown), under readWholeBelow: (\(sizeText(readWholeBelow))); "
                + "one query brings every row, which costs less than pushing the rules down"
        }
        sized = .some(reason)
        return reason
    }

    public var dialect: any SQLDialect {
        if let pushdownDialect { return pushdownDialect }
        let made = SparkDialect(columns: plan.mapping, bucketColumn: plan.numberedColumn,
                                bucketKind: plan.numberedColumn == nil ? nil : plan.kinds[plan.keyIndex ?? 0])
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
        guard let pushed, next == pushed.rows.count else {
            throw AuditError(.internal, "the pushed-down read did not end", location: displayPath)
        }
        return pushed.counts
    }
}
#endif
