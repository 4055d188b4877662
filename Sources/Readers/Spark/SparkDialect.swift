#if Spark
import Auditor

/// How a Spark result column becomes cells (chosen once from its Arrow type), and what the
/// dialect may assume of it. The same strictness as PostgreSQL's column kinds: a typed column
/// gives typed cells (a `BIGINT` is `.integer`, so it fails `type: date`), a `STRING` column is
/// judged as the same text in a CSV would be.
enum SparkColumnKind: Equatable {
    /// TINYINT, SMALLINT, INT, BIGINT: `.integer`.
    case integer
    /// FLOAT, DOUBLE: `.real`; NaN and infinities become text, which no numeric type accepts.
    case real
    /// DECIMAL(p, s): its exact text, judged like a CSV decimal.
    case decimal
    /// BOOLEAN: `true` / `false` text.
    case boolean
    /// DATE: `YYYY-MM-DD` text.
    case date
    /// TIMESTAMP, TIMESTAMP_NTZ: `YYYY-MM-DDTHH:MM:SS[.ffffff]Z` text (UTC; NTZ: its wall time).
    case timestamp
    /// BINARY: `.blob`.
    case binary
    /// STRING and anything else: text.
    case text
}

/// Spark SQL's pieces of a pushed-down audit (see ``SQLDialect``), by each column's kind, in
/// a session with `spark.sql.ansi.enabled=true` and UTC (``SparkSession/settings``).
///
/// - Typed columns are valid where they are not NULL (and finite; dates of years 0001–9999)
///   and compare as themselves.
/// - STRING columns are "surely valid" only in forms that the streaming engine's parsers
///   accept, checked with `rlike` (Java regular expressions, anchored with `^` and `\z`: `$`
///   would also match before a final line break), and cast with `try_cast` only once valid.
///   `' 5'`, `'+5'`, `'1e3'`, 18 digits and more, `'2023-02-29'` and year 0000 are never valid
///   here (some are valid for the streaming engine, which then checks those rows itself).
/// - Patterns become `rlike '^(?:…)\z'` only for the subset of our syntax that means the same
///   in Java's regular expressions (``javaRegex(_:)``); any other pattern leaves the entity to
///   the streaming engine.
/// - Lengths: `char_length` counts Unicode code points in Spark (UTF8String.numChars), the
///   same as the streaming engine's scalar count (checked on the server with an emoji and a
///   combining mark: SparkServerDialectTests).
final class SparkDialect: SQLDialect {
    let engine = "spark"
    /// Field → (quoted column, kind).
    let columns: [String: (column: String, kind: SparkColumnKind)]
    /// The column whose ranges number a pushed-down read's rows (``SparkReadPlan/numberedColumn``):
    /// a window over a key that includes it is partitioned by the range (`auditor_bucket`)
    /// first, so that one exchange serves it and the numbering (``SparkReader``).
    let bucketColumn: String?
    /// The kind of ``bucketColumn``.
    let bucketKind: SparkColumnKind?
    /// Whether a window this dialect wrote is partitioned by something else than the range.
    private(set) var windowsOutsideBuckets = false
    /// Whether this dialect wrote a window at all (``duplicated(_:valid:)``): the verdict then
    /// needs the rows spread by key first.
    private(set) var windows = false
    /// Whether a condition this dialect wrote reads ``duplicateColumn``.
    private(set) var readsDuplicates = false
    /// A column that the reader defines before the rules: true where ``bucketKey`` is valid and
    /// another row has the same (a unique rule on the numbered column alone).
    static let duplicateColumn = "auditor_dup"

    init(columns: [String: (column: String, kind: SparkColumnKind)], bucketColumn: String? = nil,
         bucketKind: SparkColumnKind? = nil) {
        self.columns = columns
        self.bucketColumn = bucketColumn
        self.bucketKind = bucketKind
    }

    func column(_ field: String) -> String? { columns[field]?.column }

    /// The numbered column as a valid integer, NULL where it is not one: the key whose
    /// duplicates a pushed-down read finds first (``SparkReader``).
    var bucketKey: String? {
        guard let bucketColumn else { return nil }
        switch bucketKind {
        case .integer?: return bucketColumn
        case .text?: return typedText(bucketColumn, .integer)
        default: return nil
        }
    }

    /// The regular expressions of the text forms that the streaming engine surely accepts
    /// (ByteParsers: `-?[0-9]+`, `-?[0-9]+(\.[0-9]+)?`, `YYYY-MM-DD`, `…THH:MM:SSZ`), kept
    /// short enough that a `BIGINT` or `DECIMAL(30, 15)` holds every value exactly.
    static let integerForm = #"^-?[0-9]{1,17}\z"#
    static let decimalForm = #"^-?[0-9]{1,15}([.][0-9]{1,15})?\z"#
    static let dateForm = #"^[0-9]{4}-[0-9]{2}-[0-9]{2}\z"#
    static let datetimeForm = #"^[0-9]{4}-[0-9]{2}-[0-9]{2}T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]Z\z"#

    /// The typed value of a STRING field read as `type`, NULL where the text is not surely valid:
    /// the name of a column that ``withValues(_:)`` defines.
    private func typedText(_ col: String, _ type: ValueType) -> String? {
        func rlike(_ form: String) -> String { "\(col) rlike \(literal(form))" }
        // A real date of years 0001–9999: the form, then try_cast (NULL for 2023-02-29).
        let date = "CASE WHEN \(rlike(Self.dateForm)) AND substr(\(col), 1, 4) <> '0000' THEN try_cast(\(col) AS DATE) END"
        let value: String
        switch type {
        case .integer: value = "CASE WHEN \(rlike(Self.integerForm)) THEN try_cast(\(col) AS BIGINT) END"
        case .decimal: value = "CASE WHEN \(rlike(Self.decimalForm)) THEN try_cast(\(col) AS DECIMAL(30, 15)) END"
        case .boolean: value = "CASE WHEN \(col) IN ('true', 'false') THEN \(col) = 'true' END"
        case .date: value = date
        case .datetime:
            value = "CASE WHEN \(rlike(Self.datetimeForm)) AND substr(\(col), 1, 4) <> '0000' THEN try_cast(substr(\(col), 1, 10) AS DATE) END"
        case .string: return nil
        }
        if let name = valueNames[value] { return name }
        let name = "auditor_v\(values.count)"
        values.append((name, value))
        valueNames[value] = name
        return name
    }

    /// The typed values of STRING columns that this dialect's conditions read, in the order it
    /// named them: each is computed once per row (``withValues(_:)``), not in every rule that
    /// reads it. That also keeps the code that Spark generates for the scan short enough to be
    /// compiled whole (whole-stage code generation stops at a method of 8000 bytes, the
    /// JVM's limit for compiling one).
    private(set) var values: [(name: String, expression: String)] = []
    private var valueNames: [String: String] = [:]

    /// `relation` (a FROM item) with the columns of ``values`` added; a query that reads this
    /// dialect's conditions, its ``bucketKey`` included, reads them from it.
    func withValues(_ relation: String) -> String {
        guard !values.isEmpty else { return relation }
        return "(SELECT *, \(values.map { "\($0.expression) AS \($0.name)" }.joined(separator: ", ")) FROM \(relation)) AS auditor_v"
    }

    func valid(_ field: String, as type: ValueType) -> String? {
        guard let (col, kind) = columns[field] else { return nil }
        switch (kind, type) {
        case (.integer, .integer), (.integer, .decimal), (.decimal, .decimal), (.boolean, .boolean):
            return "(\(col) IS NOT NULL)"
        case (.real, .decimal):
            return "(\(col) IS NOT NULL AND NOT isnan(\(col)) AND abs(\(col)) < double('Infinity'))"
        case (.date, .date): return "(\(col) IS NOT NULL AND \(col) BETWEEN DATE'0001-01-01' AND DATE'9999-12-31')"
        case (.timestamp, .datetime):
            return "(\(col) IS NOT NULL AND to_date(\(col)) BETWEEN DATE'0001-01-01' AND DATE'9999-12-31')"
        case (.text, .string): return "(\(col) IS NOT NULL AND instr(\(col), chr(0)) = 0)"
        case (.text, _): return typedText(col, type).map { "(\($0) IS NOT NULL)" }
        default: return nil
        }
    }

    func number(_ field: String, _ type: ValueType) -> String? {
        guard let (col, kind) = columns[field], valid(field, as: type) != nil else { return nil }
        switch kind {
        case .integer, .decimal, .real: return col
        case .text: return typedText(col, type)
        default: return nil
        }
    }

    func exactNumber(_ field: String, _ type: ValueType) -> String? {
        guard let (_, kind) = columns[field], let n = number(field, type) else { return nil }
        if kind == .real { return "TRUE" }        // a double is its own exact value
        if type == .integer || kind == .integer { return "(\(n) BETWEEN -9007199254740992 AND 9007199254740992)" }
        // At most 15 significant digits, from 1e-6 to 1e15 (where a DECIMAL's text has no exponent).
        return "(\(n) = 0 OR (\(n) > -1e15 AND \(n) < 1e15 AND (\(n) >= 0.000001 OR \(n) <= -0.000001) "
            + "AND length(trim(BOTH '0' FROM replace(CAST(abs(\(n)) AS STRING), '.', ''))) <= 15))"
    }

    func characters(_ field: String) -> String { "char_length(\(columns[field]?.column ?? "NULL"))" }

    func matches(_ field: String, _ pattern: Pattern) -> String? {
        guard let (col, kind) = columns[field], kind == .text, let regex = Self.javaRegex(pattern.source) else { return nil }
        return "(\(binary(col)) rlike \(literal("^(?:" + regex + ")\\z")))"
    }

    /// The pattern as a Java regular expression, when it keeps to the subset whose meaning is
    /// the same in both (PostgreSQL's subset, ``PostgresDialect/regex(_:)``: literals, escaped
    /// punctuation, bracket classes of literals and ranges, groups, alternation, quantifiers),
    /// minus what Java reads otherwise inside a class: `&&` (intersection), a `]` first in a
    /// class (Java: an error or a literal, by version). Nil otherwise.
    static func javaRegex(_ source: String) -> String? {
        guard !source.contains("&&"), !source.contains("[]"), !source.contains("[^]"),
              let regex = PostgresDialect.regex(source) else { return nil }
        return regex
    }

    /// A Spark SQL string literal: backslashes and quotes escaped (Spark reads `\` escapes in
    /// literals unless `spark.sql.parser.escapedStringLiterals` is set, which the session never does).
    func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }

    /// A STRING column under the UTF8_BINARY collation (byte equality and order): Spark 4's
    /// columns may carry another (`STRING COLLATE UTF8_LCASE`), under which `=` and `IN` would
    /// call `'us'` equal to `'US'`.
    private func binary(_ col: String) -> String { "(\(col) COLLATE UTF8_BINARY)" }

    func bytes(_ field: String) -> String {
        guard let (col, kind) = columns[field] else { return "NULL" }
        return kind == .text ? binary(col) : col
    }

    func isTrue(_ field: String) -> String {
        guard let (col, kind) = columns[field] else { return "FALSE" }
        return kind == .boolean ? "(\(col) <=> TRUE)" : "(\(typedText(col, .boolean) ?? "NULL") <=> TRUE)"
    }

    func dateText(_ field: String, _ type: ValueType) -> String? {
        guard let (col, kind) = columns[field], valid(field, as: type) != nil else { return nil }
        switch (kind, type) {
        case (.date, .date): return col
        case (.timestamp, .datetime): return "to_date(\(col))"
        case (.text, .date), (.text, .datetime): return typedText(col, type)
        default: return nil
        }
    }

    func dateConstant(_ days: Int) -> String { "DATE'\(CalendarMath.isoDate(days: days))'" }

    func year(_ dateText: String) -> String { "year(\(dateText))" }

    func monthDay(_ dateText: String) -> String { "(month(\(dateText)) * 100 + day(\(dateText)))" }

    /// A window over the key: the rows of the same key in which every key field is valid.
    /// Keys: STRING as itself (bytes), integers as BIGINT; others (dates as text) are nil.
    func duplicated(_ fields: [(name: String, type: ValueType)], valid: [String]) -> String? {
        var keys = [String]()
        for field in fields {
            guard let (col, kind) = columns[field.name] else { return nil }
            switch (kind, field.type) {
            case (.text, .string): keys.append(binary(col))
            case (.integer, .integer), (.integer, .decimal), (.decimal, .decimal): keys.append(col)
            case (.text, .integer): guard let n = number(field.name, .integer) else { return nil }; keys.append(n)
            default: return nil
            }
        }
        guard !keys.isEmpty, !valid.isEmpty else { return nil }
        // The numbered column alone, as a valid integer: its duplicates are read first.
        if keys.count == 1, let bucketKey, keys[0] == bucketKey, valid.count == 1, valid[0] == "(\(bucketKey) IS NOT NULL)" {
            readsDuplicates = true
            return Self.duplicateColumn
        }
        windows = true
        // Equal keys are equal in the numbered column, so they never fall in different ranges.
        if let bucketColumn, fields.contains(where: { columns[$0.name]?.column == bucketColumn }) {
            keys.insert("auditor_bucket", at: 0)
        } else {
            windowsOutsideBuckets = true
        }
        return "(sum(CASE WHEN \(valid.joined(separator: " AND ")) THEN 1 ELSE 0 END) OVER (PARTITION BY \(keys.joined(separator: ", "))) > 1)"
    }
}
#endif
