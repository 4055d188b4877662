import Auditor
import CSQLite
import SQLiteSupport

/// SQLite's pieces of a pushed-down audit (see ``SQLDialect``). Patterns run through
/// `auditor_match(k, value)`, a function of this connection that calls the very automaton the
/// streaming engine uses, so they are exact by construction; everything else is plain SQL.
///
/// Validity follows the storage classes (README): an `integer` is an INTEGER, a `decimal`
/// an INTEGER or REAL, a `boolean` an INTEGER 0 or 1. A string is "surely valid" as TEXT
/// without NUL bytes (other values are read out and checked in the process). Dates and
/// date-times go through `auditor_day(kind, value)`, which calls the streaming engine's own
/// parsers (`julianday` and `substr` cost seconds per million values, and are lenient).
final class SQLiteDialect: SQLDialect {
    let engine = "sqlite"
    /// Field name → quoted column.
    let columns: [String: String]
    /// `"main"."table"`.
    let table: String
    /// The patterns `auditor_match` knows, by index.
    private(set) var patterns: [Pattern] = []

    init(columns: [String: String], table: String) {
        self.columns = columns
        self.table = table
    }

    func column(_ field: String) -> String? { columns[field] }

    func valid(_ field: String, as type: ValueType) -> String? {
        guard let c = columns[field] else { return nil }
        switch type {
        case .string: return "(typeof(\(c)) = 'text' AND instr(CAST(\(c) AS BLOB), x'00') = 0)"
        case .integer: return "typeof(\(c)) = 'integer'"
        case .decimal: return "typeof(\(c)) IN ('integer', 'real')"
        case .boolean: return "(typeof(\(c)) = 'integer' AND \(c) IN (0, 1))"
        case .date, .datetime:
            return "auditor_day(\(type == .date ? 0 : 1), \(c)) IS NOT NULL"
        }
    }

    func characters(_ field: String) -> String { "length(\(columns[field] ?? "NULL"))" }

    func matches(_ field: String, _ pattern: Pattern) -> String? {
        guard let c = columns[field] else { return nil }
        let k = patterns.firstIndex { $0.source == pattern.source } ?? { patterns.append(pattern); return patterns.count - 1 }()
        return "auditor_match(\(k), \(c))"
    }

    func literal(_ text: String) -> String {
        if text.utf8.contains(0) {
            return "CAST(x'" + text.utf8.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined() + "' AS TEXT)"
        }
        return "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    func bytes(_ field: String) -> String { "(\(columns[field] ?? "NULL") COLLATE BINARY)" }

    func isTrue(_ field: String) -> String { "\(columns[field] ?? "NULL") = 1" }

    /// The day number (days since 1970-01-01) of a date, or of a date-time's UTC date.
    func dateText(_ field: String, _ type: ValueType) -> String? {
        guard let c = columns[field], type == .date || type == .datetime else { return nil }
        return "auditor_day(\(type == .date ? 0 : 1), \(c))"
    }

    func dateConstant(_ days: Int) -> String { String(days) }

    func year(_ dateText: String) -> String { "auditor_civil(0, \(dateText))" }

    func monthDay(_ dateText: String) -> String { "auditor_civil(1, \(dateText))" }

    func number(_ field: String, _ type: ValueType) -> String? { columns[field] }

    /// A REAL is its own exact value; an INTEGER beyond 2^53 is not.
    func exactNumber(_ field: String, _ type: ValueType) -> String? {
        columns[field].map { "(typeof(\($0)) <> 'integer' OR \($0) BETWEEN -9007199254740992 AND 9007199254740992)" }
    }

    func duplicated(_ fields: [(name: String, type: ValueType)], valid: [String]) -> String? {
        let cs = fields.compactMap { columns[$0.name] }
        guard cs.count == fields.count, !cs.isEmpty else { return nil }
        let list = cs.joined(separator: ", ")
        let tuple = cs.count == 1 ? list : "(\(list))"
        return "(\(tuple) IN (SELECT \(list) FROM \(table) WHERE \(valid.joined(separator: " AND ")) GROUP BY \(list) HAVING count(*) > 1))"
    }

    /// Key sets that `auditor_key` knows, by index (each ascending).
    private(set) var keySets: [[Int64]] = []

    /// No SQL text per key: `auditor_key(k, value)` looks the value up in key set `k`, held
    /// by this connection (a binary search of 8 bytes per key).
    var maxKeySet: Int { 100_000_000 }

    func isOneOf(_ number: String, _ keys: [Int64]) -> String {
        let k = keySets.firstIndex(of: keys) ?? { keySets.append(keys); return keySets.count - 1 }()
        return "auditor_key(\(k), \(number)) = 1"
    }

    /// Registers on the connection `auditor_match(k, value)`: true (1) when the text value
    /// fully matches pattern `k`, NULL for a value that is not text; and `auditor_key(k,
    /// value)`: true (1) when the INTEGER value is in key set `k`, NULL for another value.
    func register(on db: OpaquePointer) -> Int32 {
        let keys = Unmanaged.passRetained(KeyBox(keySets))
        let rc = sqlite3_create_function_v2(
            db, "auditor_key", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_DIRECTONLY, keys.toOpaque(),
            { context, _, arguments in
                guard let context, let arguments, let raw = sqlite3_user_data(context) else { return }
                let box = Unmanaged<KeyBox>.fromOpaque(raw).takeUnretainedValue()
                let k = Int(sqlite3_value_int64(arguments[0]))
                guard let value = arguments[1], sqlite3_value_type(value) == SQLITE_INTEGER, box.sets.indices.contains(k) else {
                    sqlite3_result_null(context)
                    return
                }
                sqlite3_result_int(context, box.contains(k, sqlite3_value_int64(value)) ? 1 : 0)
            }, nil, nil,
            { raw in if let raw { Unmanaged<KeyBox>.fromOpaque(raw).release() } })
        guard rc == SQLITE_OK else { return rc }
        let box = Unmanaged.passRetained(PatternBox(patterns))
        return sqlite3_create_function_v2(
            db, "auditor_match", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_DIRECTONLY, box.toOpaque(),
            { context, _, arguments in
                guard let context, let arguments, let raw = sqlite3_user_data(context) else { return }
                let box = Unmanaged<PatternBox>.fromOpaque(raw).takeUnretainedValue()
                let k = Int(sqlite3_value_int64(arguments[0]))
                guard let value = arguments[1], sqlite3_value_type(value) == SQLITE_TEXT, box.matchers.indices.contains(k) else {
                    sqlite3_result_null(context)
                    return
                }
                let text = sqlite3_value_text(value)
                let length = Int(sqlite3_value_bytes(value))
                let matched = box.matchers[k](UnsafeBufferPointer(start: text, count: text == nil ? 0 : length))
                sqlite3_result_int(context, matched ? 1 : 0)
            }, nil, nil,
            { raw in if let raw { Unmanaged<PatternBox>.fromOpaque(raw).release() } })
    }

    /// Registers `auditor_day(kind, value)` (kind 0: a date's day number, 1: a date-time's UTC
    /// day; NULL when the text is not one) and `auditor_civil(part, day)` (0: the year, 1:
    /// month × 100 + day).
    static func registerCalendar(on db: OpaquePointer) -> Int32 {
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_DIRECTONLY
        let rc = sqlite3_create_function_v2(db, "auditor_day", 2, flags, nil, { context, _, arguments in
            guard let context, let arguments, let value = arguments[1], sqlite3_value_type(value) == SQLITE_TEXT else {
                sqlite3_result_null(context)
                return
            }
            let kind = sqlite3_value_int64(arguments[0])
            let text = UnsafeBufferPointer(start: sqlite3_value_text(value), count: Int(sqlite3_value_bytes(value)))
            if kind == 0, let d = ByteParsers.date(text) {
                sqlite3_result_int64(context, Int64(d))
            } else if kind == 1, let t = ByteParsers.instant(text) {
                sqlite3_result_int64(context, t.seconds >= 0 ? t.seconds / 86400 : (t.seconds - 86399) / 86400)
            } else {
                sqlite3_result_null(context)
            }
        }, nil, nil, nil)
        guard rc == SQLITE_OK else { return rc }
        return sqlite3_create_function_v2(db, "auditor_civil", 2, flags, nil, { context, _, arguments in
            guard let context, let arguments, let value = arguments[1], sqlite3_value_type(value) == SQLITE_INTEGER else {
                sqlite3_result_null(context)
                return
            }
            let c = CalendarMath.civil(fromDays: Int(sqlite3_value_int64(value)))
            sqlite3_result_int64(context, sqlite3_value_int64(arguments[0]) == 0 ? Int64(c.year) : Int64(c.month * 100 + c.day))
        }, nil, nil, nil)
    }

    /// Each pattern's `matches` as a closure that holds the pattern: calling
    /// `patterns[k].matches` copied the whole `Pattern` struct on every call (its outlined
    /// copy and destroy were 3 % of a pushed-down audit's instructions).
    final class KeyBox {
        let sets: [[Int64]]
        init(_ sets: [[Int64]]) { self.sets = sets }

        func contains(_ k: Int, _ key: Int64) -> Bool {
            sets[k].withUnsafeBufferPointer { keys in
                var low = 0, high = keys.count
                while low < high {
                    let mid = (low + high) / 2
                    if keys[mid] < key { low = mid + 1 } else { high = mid }
                }
                return low < keys.count && keys[low] == key
            }
        }
    }

    final class PatternBox {
        let matchers: [(UnsafeBufferPointer<UInt8>) -> Bool]
        init(_ patterns: [Pattern]) { matchers = patterns.map { pattern in { pattern.matches($0) } } }
    }
}
