#if Spark
import Auditor
import SparkConnect

/// What a ``SparkReader`` reads: the relation (a catalog table, or a temporary view over the
/// `files:`), the columns the rules need, their kinds, and the order that numbers the rows.
///
/// Spark has no physical row order, so the reader imposes one: by the `locate:` column when
/// the block names one (findings then say `table[id=7]`; a STRING key in numeric order, and
/// a row whose key is not an integer is located by its ordinal), else by every column read, in
/// schema order (findings say the 1-based ordinal in that order). Rows equal in every column
/// read are interchangeable, so samples, locations and ordinals are the same on every run and
/// in both reads (streaming, pushed down), and equal to a file's when its rows are in that order.
struct SparkReadPlan {
    /// The relation as FROM names it: `` `db`.`people` `` or the temporary view.
    var relation: String
    /// The relation with only the columns read, as the pushed-down queries read it: they add
    /// columns of their own (`auditor_…`) to `SELECT *`, which the table's other columns
    /// must not meet.
    var readRelation: String { "(SELECT \(select.joined(separator: ", ")) FROM \(relation)) AS auditor_t" }
    /// A column read whose name a pushed-down query also gives a column of its own, if any.
    var clashingColumn: String? {
        select.first { $0.lowercased().hasPrefix("`auditor_") }
    }
    /// For messages: "table 'people'", "the parquet files 's3a://…'".
    var what: String
    /// The requested fields that are columns, in request order.
    var fields: [String]
    /// The columns the read selects: the key column first when it is not a field, then `fields`'.
    var select: [String]
    var kinds: [SparkColumnKind]
    /// Selected columns before the first field (the key column when it is not requested).
    var leading = 0
    /// The index in `select` of the column that locates rows.
    var keyIndex: Int?
    var locationStyle: LocationStyle = .ordinal
    /// The ORDER BY that numbers the rows.
    var order: String
    /// The BIGINT that `order` starts with (the `locate:` key as a number, or a first column of
    /// integers), NULLs first; nil when it starts with anything else. A pushed-down read numbers
    /// its rows per range of it, in parallel (``SparkReader``); without it, in one partition.
    var numbering: String?
    /// The column `numbering` is computed from: a range never splits rows equal in it.
    var numberedColumn: String?
    var available: [String]
    /// Field → (quoted column, kind), for the dialect.
    var mapping: [String: (column: String, kind: SparkColumnKind)]
    /// For csv and json `files:` read in `FAILFAST` mode: what finds the first records that
    /// Spark cannot parse, once a read has stopped at one.
    var malformedProbe: MalformedProbe?

    /// `` `a`.`b` `` of `a.b`: each dot-separated part quoted, backticks doubled.
    static func quoted(_ name: String) -> String {
        name.split(separator: ".", omittingEmptySubsequences: false)
            .map { "`" + $0.replacingOccurrences(of: "`", with: "``") + "`" }.joined(separator: ".")
    }

    static func kind(_ type: ArrowType) -> SparkColumnKind {
        switch type {
        case .int: return .integer
        case .float: return .real
        case .decimal: return .decimal
        case .bool: return .boolean
        case .date: return .date
        case .timestamp: return .timestamp
        case .binary, .largeBinary: return .binary
        case .null, .utf8, .largeUTF8: return .text
        }
    }

    /// What `files:` passes to Spark unless `options:` name one of the options in `unless`
    /// (lowercased), so that Spark reads a file as the auditor's own reader does: CSV with a
    /// header, quotes doubled inside quoted fields and fields that span lines (RFC 4180; Spark's
    /// defaults are no header, `\"` and one line per record); JSON values as the text the file
    /// wrote, as CSV's are (inferred, a decimal or an integer past 2^53 is a rounded DOUBLE).
    /// Both stop at a record that Spark cannot parse (`FAILFAST`, ``SparkErrors``): by default
    /// Spark fills a short CSV row with NULLs, drops a long row's extra fields and reads a
    /// JSON line that is no object as NULLs, and the audit then passed.
    static let readerDefaults: [String: [(option: String, value: String, unless: Set<String>)]] = [
        "csv": [("header", "true", ["header"]), ("escape", "\"", ["escape"]), ("multiLine", "true", ["multiline"]),
                ("mode", "FAILFAST", ["mode"])],
        "json": [("primitivesAsString", "true", ["primitivesasstring", "prefersdecimal"]), ("mode", "FAILFAST", ["mode"])],
    ]

    /// Resolves the source and plans the read.
    /// - Throws: ``AuditError``: no such table or files (65/66), a `locate:` that is not an
    ///   integer column (78), the server's failures.
    static func make(_ options: SparkOptions, sourceName: String, fields requested: [String],
                     session: inout SparkSession, displayPath: String) throws(AuditError) -> SparkReadPlan {
        let relation: String
        let what: String
        var probe: MalformedProbe?
        var statements = [String]()
        switch options.source {
        case .table(let name):
            relation = quoted(name)
            what = "table or view '\(name)'"
        case .files(let path, let format, let pairs):
            what = "\(format) files '\(path)'"
            let view = "auditor_" + String(sourceName.unicodeScalars.filter { $0.properties.isAlphabetic && $0.isASCII || ("0" ... "9").contains($0) }
                .map(Character.init)) + "_\(UInt32.random(in: 0 ... UInt32.max))"
            relation = quoted(view)
            var pairs = pairs
            let named = Set(pairs.keys.map { $0.lowercased() })   // Spark's option names ignore case
            for (option, value, unless) in readerDefaults[format] ?? [] where named.isDisjoint(with: unless) { pairs[option] = value }
            let settings = [("path", path)] + pairs.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
            if pairs.contains(where: { $0.key.lowercased() == "mode" && $0.value.uppercased() == "FAILFAST" }) {
                probe = MalformedProbe(view: quoted(view + "_malformed"), format: format, what: what,
                                       options: settings.filter { !["mode", "columnnameofcorruptrecord"].contains($0.0.lowercased()) }
                                           + [("mode", "PERMISSIVE"), ("columnNameOfCorruptRecord", MalformedProbe.column)])
            }
            statements.append("CREATE OR REPLACE TEMPORARY VIEW \(relation) USING \(format) OPTIONS (\(Self.options(settings)))")
        }
        let described: [ArrowField]
        do throws(AuditError) {
            // A JSON view infers its schema when created: a record it cannot parse stops it already.
            for statement in statements { _ = try session.run(statement, stage: .resolve(what: what), command: true) }
            described = try session.run("SELECT * FROM \(relation) LIMIT 0", stage: .resolve(what: what)).columns
        } catch {
            throw probe?.explain(error, session: &session) ?? error
        }
        let readable = described.map(\.name)
        var chosen = [Int]()
        var fields = [String]()
        let wanted = requested.isEmpty ? readable : requested
        for field in wanted where !fields.contains(field) {
            // A field that is not a column is left out: the engine reports it against the rules file.
            if let i = readable.firstIndex(of: field) ?? readable.firstIndex(where: { $0.lowercased() == field.lowercased() }) {
                chosen.append(i)
                fields.append(field)
            }
        }
        var select = chosen
        var leading = 0
        var keyIndex: Int?
        var style = LocationStyle.ordinal
        if let locate = options.locate {
            // An integer column, or a STRING one that holds integers (a CSV read without inferSchema).
            guard let k = readable.firstIndex(of: locate), [.integer, .text].contains(kind(described[k].type)) else {
                throw AuditError(.invalidRules, "'locate: \(locate)' must name an integer or string column of \(what); its columns: "
                                     + readable.joined(separator: ", "), location: options.mark?.description ?? displayPath)
            }
            if let at = chosen.firstIndex(of: k) {
                keyIndex = at
            } else {
                select.insert(k, at: 0)
                leading = 1
                keyIndex = 0
            }
            style = .key(container: options.source.container, name: readable[k])
        }
        let columns = select.map { quoted(readable[$0]) }
        var mapping = [String: (column: String, kind: SparkColumnKind)]()
        for (i, field) in fields.enumerated() {
            mapping[field] = (columns[leading + i], kind(described[select[leading + i]].type))
        }
        // The key first, then every column read: a deterministic order even if the key repeats.
        var ordered = columns
        if let k = keyIndex {
            ordered = columns.enumerated().filter { $0.offset != k }.map(\.element)
            ordered.insert(columns[k], at: 0)
            // A STRING key in numeric order (then as text, for what is not a number).
            if kind(described[select[k]].type) == .text { ordered.insert("try_cast(\(columns[k]) AS BIGINT)", at: 0) }
        }
        let order = ordered.isEmpty ? "1" : ordered.map { "\($0) ASC NULLS FIRST" }.joined(separator: ", ")
        // The first column of the order, when it is (or orders as) a BIGINT.
        var numbering: String?
        var numberedColumn: String?
        if let first = keyIndex ?? (columns.isEmpty ? nil : 0) {
            switch kind(described[select[first]].type) {
            case .integer: numbering = columns[first]
            case .text where keyIndex != nil: numbering = "try_cast(\(columns[first]) AS BIGINT)"
            default: break
            }
            if numbering != nil { numberedColumn = columns[first] }
        }
        probe?.columns = readable
        return SparkReadPlan(relation: relation, what: what, fields: fields, select: columns.isEmpty ? ["NULL"] : columns,
                             kinds: (columns.isEmpty ? [SparkColumnKind.text] : select.map { kind(described[$0].type) }),
                             leading: columns.isEmpty ? 1 : leading, keyIndex: keyIndex, locationStyle: style, order: order,
                             numbering: numbering, numberedColumn: numberedColumn, available: readable, mapping: mapping,
                             malformedProbe: probe)
    }

    /// `'name' 'value', …` of a data source's OPTIONS.
    static func options(_ pairs: [(String, String)]) -> String {
        let dialect = SparkDialect(columns: [:])
        return pairs.map { "\(dialect.literal($0.0)) \(dialect.literal($0.1))" }.joined(separator: ", ")
    }

    /// The statement whose answer holds Spark's estimate of the read's size (``estimatedBytes(explained:)``):
    /// planning only, no job.
    var estimating: String { "EXPLAIN COST SELECT \(select.joined(separator: ", ")) FROM \(relation)" }

    /// Spark's estimate of a read's size, from `EXPLAIN COST`: the `sizeInBytes` of the optimized
    /// logical plan's top node (`Project [id#1], Statistics(sizeInBytes=2.1 MiB)`), the estimate
    /// by which Spark decides to broadcast a join; in bytes, and as Spark wrote it. nil when that
    /// line holds no size written as Spark writes one (`397.0 B`, `9.8 MiB`, `8.0 EiB`, `1.23E+30 B`).
    static func estimatedBytes(explained text: String) -> (bytes: Double, shown: String)? {
        guard let header = text.range(of: "== Optimized Logical Plan ==\n") else { return nil }
        let top = text[header.upperBound...].prefix { $0 != "\n" }
        guard let at = top.range(of: "Statistics(sizeInBytes=") else { return nil }
        let shown = top[at.upperBound...].prefix { $0 != "," && $0 != ")" }
        let parts = shown.split(separator: " ", omittingEmptySubsequences: false)
        let shifts = ["B": 0, "KiB": 10, "MiB": 20, "GiB": 30, "TiB": 40, "PiB": 50, "EiB": 60]
        guard parts.count == 2, parts[0].allSatisfy({ $0.isASCII && ($0.isNumber || ".E+-".contains($0)) }),
              let number = Double(parts[0]), number.isFinite, number >= 0, let shift = shifts[String(parts[1])] else { return nil }
        return (number * Double(1 << shift), String(shown))
    }
}

extension SparkOptions.Source {
    /// What locations name: the table, or the files.
    var container: String {
        switch self {
        case .table(let name): return name
        case .files(let path, _, _): return path
        }
    }
}
#endif
