import Auditor

/// PostgreSQL's pieces of a pushed-down audit (see ``SQLDialect``), by each column's type
/// (``PostgresColumnKind``), as the reader turns COPY text into cells:
///
/// - Typed columns are valid where they are not NULL (and finite: no `NaN`, no infinite or BC
///   dates), and compare as themselves: an `int8` is an exact integer, a `numeric` an exact
///   decimal, a `date` a date.
/// - Text columns are "surely valid" only in forms that the streaming engine's parsers
///   accept (`-?[0-9]{1,17}` for an integer, `YYYY-MM-DD` of a real date, …), checked with
///   regular expressions under `COLLATE "C"`, and cast only inside `CASE` once valid. Other
///   text is read out and checked in the process.
/// - Patterns become `~ '^(?:…)$'` only when they use a subset of the syntax whose meaning
///   is the same in PostgreSQL's regular expressions (literals, bracket classes, groups,
///   alternation, quantifiers, our ASCII classes written out); for any other pattern the
///   auditor finds the failing values first, in a read of that column alone.
final class PostgresDialect: SQLDialect {
    let engine = "postgresql"
    /// Field → (quoted column, kind).
    let columns: [String: (column: String, kind: PostgresColumnKind)]
    /// `"schema"."table"`.
    let table: String
    /// `LEFT JOIN (duplicate keys) AS auditor_dN ON …` clauses that ``duplicated(_:valid:)``
    /// made: a hash join, where `IN (SELECT … GROUP BY … HAVING …)` becomes a subplan run
    /// once per row whenever the planner expects the groups not to fit in `work_mem`.
    private(set) var joins: [String] = []
    /// The condition each join was made for, by its keys and their conditions: asked again
    /// (a lowering tried before it is used), the same join serves.
    private var joined: [String: String] = [:]
    /// Typed values of text columns, computed once per row in the relation the queries read
    /// (``relation``): `CASE WHEN <valid form> THEN <cast> END AS auditor_v…`, NULL where the
    /// text is not surely valid. Conditions then test and compare these instead of parsing
    /// the text again for every use.
    private(set) var derived: [(name: String, expression: String)] = []
    private var derivedNames: [String: String] = [:]

    /// The table with the derived typed values, as the FROM of a query (`AS auditor_t`);
    /// `OFFSET 0` keeps the planner from pulling the subquery up, which would copy each
    /// derived expression into every place that reads it.
    func relation(numbered: Bool, only names: Set<String>? = nil) -> String {
        let extra = derived.filter { names?.contains($0.name) ?? true }.map { ", \($0.expression) AS \($0.name)" }.joined()
        let number = positioned ? "ctid" : "row_number() OVER ()"
        return "(SELECT \(numbered ? "\(number) AS auditor_ordinal, " : "")*\(extra) FROM \(table) OFFSET 0) AS auditor_t"
    }

    /// The derived typed value of a text field read as `type`, made on first use.
    private func typedText(_ field: String, _ type: ValueType) -> String? {
        guard let (col, kind) = columns[field], kind == .text else { return nil }
        if let name = derivedNames["\(field)\u{0}\(type)"] { return name }
        let name = "auditor_v\(derived.count)"
        let expression: String
        switch type {
        case .integer: expression = "CASE WHEN \(c(col)) ~ '^-?[0-9]{1,17}$' THEN \(col)::bigint END"
        case .decimal: expression = "CASE WHEN \(c(col)) ~ '^-?[0-9]{1,15}([.][0-9]{1,15})?$' THEN \(col)::numeric END"
        case .boolean: expression = "CASE WHEN \(c(col)) IN ('true', 'false') THEN \(c(col)) = 'true' END"
        case .date:
            expression = "CASE WHEN \(c(col)) ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' AND \(Self.realDate(col)) THEN \(col)::date END"
        case .datetime:
            expression = "CASE WHEN \(c(col)) ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]Z$' AND "
                + "\(Self.realDate(col)) THEN substr(\(col), 1, 10)::date END"
        case .string: return nil
        }
        derived.append((name, expression))
        derivedNames["\(field)\u{0}\(type)"] = name
        return name
    }

    /// What ``relation(numbered:only:)`` numbers rows with: `ctid` (their position, from which
    /// ``PostgresPositions`` makes the ordinals, so that the scan may run in parallel), or
    /// `row_number() OVER ()` over a serial scan.
    let positioned: Bool

    init(columns: [String: (column: String, kind: PostgresColumnKind)], table: String, positioned: Bool = false) {
        self.columns = columns
        self.table = table
        self.positioned = positioned
    }

    func column(_ field: String) -> String? { columns[field]?.column }

    /// `c` under the C collation (byte order, byte equality).
    private func c(_ column: String) -> String { "(\(column) COLLATE \"C\")" }

    func valid(_ field: String, as type: ValueType) -> String? {
        guard let (col, kind) = columns[field] else { return nil }
        switch (kind, type) {
        case (.integer, .integer), (.integer, .decimal), (.boolean, .boolean): return "(\(col) IS NOT NULL)"
        case (.numeric, .decimal), (.real, .decimal):
            return "(\(col) IS NOT NULL AND \(col) NOT IN ('NaN', 'Infinity', '-Infinity'))"
        case (.date, .date): return "(\(col) IS NOT NULL AND \(col) BETWEEN '0001-01-01' AND '9999-12-31')"
        case (.timestamp, .datetime), (.timestamptz, .datetime):
            return "(\(col) IS NOT NULL AND \(col) >= '0001-01-01' AND \(col) < '10000-01-01')"
        case (.text, .string): return "(\(col) IS NOT NULL)"
        case (.text, _): return typedText(field, type).map { "(\($0) IS NOT NULL)" }
        default: return nil
        }
    }

    /// True where the text's first 10 characters (`YYYY-MM-DD`, digits checked) are a real
    /// date of years 0001–9999 (PostgreSQL has no year 0; such a value is read out).
    static func realDate(_ col: String) -> String {
        let y = "substr(\(col), 1, 4)::int", m = "substr(\(col), 6, 2)::int", d = "substr(\(col), 9, 2)::int"
        let leap = "(\(y) % 4 = 0 AND (\(y) % 100 <> 0 OR \(y) % 400 = 0))"
        return "(CASE WHEN \(y) >= 1 AND \(m) BETWEEN 1 AND 12 AND \(d) >= 1 THEN \(d) <= CASE WHEN \(m) = 2 THEN "
            + "CASE WHEN \(leap) THEN 29 ELSE 28 END WHEN \(m) IN (4, 6, 9, 11) THEN 30 ELSE 31 END ELSE FALSE END)"
    }

    func number(_ field: String, _ type: ValueType) -> String? {
        guard let (col, kind) = columns[field], let v = valid(field, as: type) else { return nil }
        switch kind {
        case .integer, .numeric, .real: return col
        case .text: _ = v; return typedText(field, type)
        default: return nil
        }
    }

    func exactNumber(_ field: String, _ type: ValueType) -> String? {
        guard let (_, kind) = columns[field], let n = number(field, type) else { return nil }
        if kind == .real { return "TRUE" }        // a double is its own exact value
        let m = "(\(n))::numeric"
        if type == .integer { return "(\(m) BETWEEN -9007199254740992 AND 9007199254740992)" }
        // At most 15 significant digits (numeric text has no exponent), from 1e-6 to 1e15.
        return "(\(m) = 0 OR (\(m) > -1e15 AND \(m) < 1e15 AND (\(m) >= 0.000001 OR \(m) <= -0.000001) "
            + "AND length(trim(both '0' from replace(abs(\(m))::text, '.', ''))) <= 15))"
    }

    func exactDecimal(_ field: String, _ type: ValueType) -> String? {
        guard let (_, kind) = columns[field], kind != .real, let n = number(field, type) else { return nil }
        return "(\(n))::numeric"
    }

    func exactDecimal(_ literal: ExactDecimal) -> String? {
        // A constant with an exponent is a numeric in PostgreSQL: `25e-1` is 2.5 exactly.
        literal.digits.isEmpty ? "(0::numeric)"
            : "(\(literal.negative ? "-" : "")\(String(decoding: literal.digits, as: UTF8.self))e\(literal.exponent - literal.digits.count))"
    }

    func characters(_ field: String) -> String { "char_length(\(columns[field]?.column ?? "NULL"))" }

    func matches(_ field: String, _ pattern: Pattern) -> String? {
        guard let (col, kind) = columns[field], kind == .text, let regex = Self.regex(pattern.source) else { return nil }
        return "(\(c(col)) ~ \(literal("^(?:" + regex + ")$")))"
    }

    /// The pattern as PostgreSQL's advanced regular expression, when it keeps to a subset
    /// whose meaning is the same in both (full match, no flags): literal characters,
    /// escaped punctuation, bracket classes of literals and ranges, `( )`, `|`, `* + ?`,
    /// `{m}`, `{m,}`, `{m,n}`. Our ASCII classes `\d \w \s` (and `\D \W \S` outside a bracket
    /// class) and `.` (any scalar but a line feed) are written out as the bracket classes they
    /// mean, since the engines' own `\d`, `\w`, `.` read them otherwise. Nil otherwise.
    static func regex(_ source: String) -> String? {
        let scalars = Array(source.unicodeScalars)
        var out = String.UnicodeScalarView()
        var i = 0
        var quantified = false          // the last token was a quantifier
        func isASCIIAlnum(_ s: Unicode.Scalar) -> Bool {
            (0x30 ... 0x39).contains(s.value) || (0x41 ... 0x5A).contains(s.value) || (0x61 ... 0x7A).contains(s.value)
        }
        while i < scalars.count {
            let s = scalars[i]
            i += 1
            switch s {
            case "\\":
                if i < scalars.count, let members = classMembers[scalars[i]] {
                    out.append(contentsOf: "[\(members)]".unicodeScalars)
                    i += 1
                    quantified = false
                    continue
                }
                // Else only escaped ASCII punctuation: \b, \p{…} and the like differ between engines.
                guard i < scalars.count, scalars[i].value < 0x80, scalars[i].value >= 0x21, !isASCIIAlnum(scalars[i]) else { return nil }
                out.append("\\")
                out.append(scalars[i])
                i += 1
                quantified = false
            case "[":
                out.append("[")
                if i < scalars.count, scalars[i] == "^" { out.append("^"); i += 1 }
                if i < scalars.count, scalars[i] == "]" { out.append("]"); i += 1 }
                var closed = false
                while i < scalars.count {
                    let t = scalars[i]
                    i += 1
                    if t == "]" { closed = true; out.append("]"); break }
                    if t == "[" || t.value < 0x20 { return nil }          // [: :], [= =], controls
                    if t == "\\" {
                        // `\d \w \s` join the class as their members, where no range touches them.
                        if i < scalars.count, "dws".unicodeScalars.contains(scalars[i]), let members = classMembers[scalars[i]],
                           scalars[i - 2] != "-", i + 1 >= scalars.count || scalars[i + 1] != "-" {
                            out.append(contentsOf: members.unicodeScalars)
                            i += 1
                            continue
                        }
                        guard i < scalars.count, scalars[i].value < 0x80, !isASCIIAlnum(scalars[i]) else { return nil }
                        out.append("\\")
                        out.append(scalars[i])
                        i += 1
                        continue
                    }
                    out.append(t)
                }
                guard closed else { return nil }
                quantified = false
            case "*", "+", "?":
                // A lazy `*?` means the same for a full match; stacked quantifiers do not parse alike.
                if quantified && !(s == "?" && out.last != "?") { return nil }
                out.append(s)
                quantified = true
            case "{":
                var j = i, digits = 0, comma = false
                while j < scalars.count, scalars[j] != "}" {
                    if scalars[j] == "," { if comma { return nil }; comma = true } else if (0x30 ... 0x39).contains(scalars[j].value) { digits += 1 } else { return nil }
                    j += 1
                }
                guard j < scalars.count, digits > 0, digits <= 3, !quantified, i > 1 || false else { return nil }
                out.append(contentsOf: scalars[(i - 1) ... j])
                i = j + 1
                quantified = true
            case "(":
                if i < scalars.count, scalars[i] == "?" { return nil }    // flags, look-around, named groups
                out.append("(")
                quantified = false
            case ")", "|":
                out.append(s)
                quantified = false
            case ".":
                out.append(contentsOf: "[^\\n]".unicodeScalars)
                quantified = false
            case "^", "$", "}", "]":
                return nil
            default:
                guard s.value >= 0x20, s.value != 0x7F else { return nil }
                out.append(s)
                quantified = false
            }
        }
        return String(out)
    }

    /// The members of our ASCII classes, as both engines read them in a bracket class (`\x0B`:
    /// Java's `\v` is a class of its own); `\D \W \S` negated, for use outside a class only.
    private static let classMembers: [Unicode.Scalar: String] = {
        let members: [Unicode.Scalar: String] = ["d": "0-9", "w": "A-Za-z0-9_", "s": "\\t\\n\\x0B\\f\\r "]
        var all = members
        for (k, v) in members { all[Unicode.Scalar(k.value - 0x20)!] = "^" + v }
        return all
    }()

    func literal(_ text: String) -> String {
        if text.utf8.contains(0) { return "NULL" }      // no PostgreSQL text holds NUL
        return "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    func bytes(_ field: String) -> String { c(columns[field]?.column ?? "NULL") }

    func isTrue(_ field: String) -> String {
        guard let (col, kind) = columns[field] else { return "FALSE" }
        return kind == .boolean ? "(\(col) IS TRUE)" : "(\(typedText(field, .boolean) ?? "FALSE") IS TRUE)"
    }

    func dateText(_ field: String, _ type: ValueType) -> String? {
        guard let (col, kind) = columns[field], let v = valid(field, as: type) else { return nil }
        switch (kind, type) {
        case (.date, .date), (.timestamp, .datetime), (.timestamptz, .datetime): return "(\(col))::date"
        case (.text, .date), (.text, .datetime): _ = v; return typedText(field, type)
        default: return nil
        }
    }

    func dateConstant(_ days: Int) -> String { "(DATE '1970-01-01' + \(days))" }

    // date_part (a double, exact for these small integers): extract's numeric costs 10 s
    // per million rows in a rule like the benchmark's age check.
    func year(_ dateText: String) -> String { "date_part('year', \(dateText))::int" }

    func monthDay(_ dateText: String) -> String { "(date_part('month', \(dateText)) * 100 + date_part('day', \(dateText)))::int" }

    /// One `bigint[]` literal: the planner hashes `= ANY` of a constant array (PostgreSQL 14
    /// and later), so each row costs one lookup, and the statement holds one string instead
    /// of an expression per key.
    var maxKeySet: Int { 20_000_000 }

    func isOneOf(_ number: String, _ keys: [Int64]) -> String {
        "\(number) = ANY('{\(keys.map(String.init).joined(separator: ","))}'::bigint[])"
    }

    func duplicated(_ fields: [(name: String, type: ValueType)], valid: [String]) -> String? {
        var keys = [String]()
        for field in fields {
            guard let (col, kind) = columns[field.name] else { return nil }
            switch (kind, field.type) {
            case (.text, .string): keys.append(c(col))
            case (.text, .integer), (.text, .decimal): guard let n = number(field.name, field.type) else { return nil }; keys.append(n)
            case (.text, .date), (.text, .datetime): return nil
            default: keys.append(col)
            }
        }
        guard !keys.isEmpty else { return nil }
        let signature = (keys + valid).joined(separator: "\u{0}")
        if let condition = joined[signature] { return condition }
        let n = joins.count
        let names = keys.indices.map { "auditor_k\(n)_\($0)" }
        let select = zip(keys, names).map { "\($0) AS \($1)" }.joined(separator: ", ")
        let group = keys.joined(separator: ", ")
        let on = zip(keys, names).map { "auditor_d\(n).\($1) = \($0)" }.joined(separator: " AND ")
        joins.append("LEFT JOIN (SELECT \(select) FROM \(relation(numbered: false, only: Set(keys.filter { $0.hasPrefix("auditor_v") }))) WHERE \(valid.joined(separator: " AND ")) GROUP BY \(group) "
                     + "HAVING count(*) > 1) AS auditor_d\(n) ON \(on)")
        joined[signature] = "(auditor_d\(n).\(names[0]) IS NOT NULL)"
        return joined[signature]
    }
}
