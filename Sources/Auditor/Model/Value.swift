/// A self-contained typed value for validators and hooks: what one cell of a chunk (or any
/// value a library user has) means, without the chunk's byte buffer.
///
/// Text sources produce `.string`; the typed cases come from typed sources (SQLite), from
/// ``converted(to:)`` / ``parse(_:as:)``, or from code. Lists and maps nest.
///
/// Equality is structural: `.integer(1)` and `.decimal(1)` are different values (use
/// ``isSameItem(as:)`` for the numeric comparison `uniqueItems` uses), and map entries
/// compare in order.
public enum Value: Sendable, Hashable {
    /// No value: a missing cell, SQL NULL, an absent element.
    case null
    case string(String)
    case integer(Int64)
    case decimal(Double)
    case boolean(Bool)
    /// A calendar date as days since 1970-01-01 (proleptic Gregorian).
    case date(days: Int)
    /// An instant as seconds since 1970-01-01T00:00:00Z.
    case datetime(seconds: Int64)
    /// A list (repeated XML elements, a split CSV field).
    case list([Value])
    /// An ordered map (an XML element with children).
    case map(ValueMap)

    /// Whether this is ``null``.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// Whether this is an empty string, an empty list or an empty map (`.null` is not empty:
    /// it is absent). ``RequiredValidator`` uses the distinction.
    public var isEmpty: Bool {
        switch self {
        case .string(let s): return s.isEmpty
        case .list(let items): return items.isEmpty
        case .map(let map): return map.isEmpty
        default: return false
        }
    }

    /// A short name of the value's kind for messages: `text`, `an integer`, `a list`...
    public var kindName: String {
        switch self {
        case .null: return "null"
        case .string: return "text"
        case .integer: return "an integer"
        case .decimal: return "a decimal number"
        case .boolean: return "a boolean"
        case .date: return "a date"
        case .datetime: return "a date-time"
        case .list: return "a list"
        case .map: return "a map"
        }
    }

    /// Whether two values are the same item for `uniqueItems`: structural equality, except
    /// that an integer and a decimal with the same numeric value are the same (as in JSON
    /// Schema). Text is never equal to a number: `"1"` and `1` are different items.
    public func isSameItem(as other: Value) -> Bool {
        itemKey == other.itemKey
    }

    /// The hashable form used by ``isSameItem(as:)``: integers that a Double represents
    /// exactly become decimals, recursively.
    var itemKey: Value {
        switch self {
        case .integer(let i):
            let d = Double(i)
            // Only exact conversions, so two distinct large integers never collide.
            if d.magnitude < 9.007_199_254_740_992e15, Int64(exactly: d) == i { return .decimal(d) }
            return self
        case .list(let items): return .list(items.map(\.itemKey))
        case .map(let m): return .map(ValueMap(m.entries.map { ($0.key, $0.value.itemKey) }))
        default: return self
        }
    }
}

/// The entries of a map value in their source order. Keys may repeat (XML allows repeated
/// children); the subscript returns the first entry with a key.
public struct ValueMap: Sendable, Hashable, ExpressibleByDictionaryLiteral {
    public struct Entry: Sendable, Hashable {
        public var key: String
        public var value: Value

        public init(key: String, value: Value) {
            self.key = key
            self.value = value
        }
    }

    public var entries: [Entry]

    public init(_ entries: [Entry]) {
        self.entries = entries
    }

    public init(_ pairs: [(String, Value)]) {
        entries = pairs.map { Entry(key: $0.0, value: $0.1) }
    }

    public init(dictionaryLiteral elements: (String, Value)...) {
        self.init(elements)
    }

    public var isEmpty: Bool { entries.isEmpty }
    public var count: Int { entries.count }
    /// The keys in order (repeated keys repeat).
    public var keys: [String] { entries.map(\.key) }

    /// The value of the first entry with `key`, or `nil` when the key is absent.
    /// - Complexity: O(n); maps are small.
    public subscript(_ key: String) -> Value? {
        entries.first { $0.key == key }?.value
    }
}

extension Value: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .decimal(value) }
    public init(booleanLiteral value: Bool) { self = .boolean(value) }
    public init(arrayLiteral elements: Value...) { self = .list(elements) }
}

extension Value: CustomStringConvertible {
    /// The value as messages show it: text as is (templates add the quotes), numbers in
    /// canonical form (`12`, `12.5`), dates as `YYYY-MM-DD`, date-times as
    /// `YYYY-MM-DDTHH:MM:SSZ`, `null`, lists as `[a, b]` and maps as `{k: v}` (the format of
    /// ``RecordChunk/string(_:)``).
    public var description: String {
        switch self {
        case .null: return "null"
        case .string(let s): return s
        case .integer(let i): return String(i)
        case .decimal(let d): return ValueText.canonical(d)
        case .boolean(let b): return b ? "true" : "false"
        case .date(let days): return CalendarMath.isoDate(days: days)
        case .datetime(let seconds): return Self.isoDateTime(seconds)
        case .list(let items): return "[" + items.map(\.description).joined(separator: ", ") + "]"
        case .map(let m): return "{" + m.entries.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
        }
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` of seconds since the epoch.
    static func isoDateTime(_ seconds: Int64) -> String {
        let (days, rest) = seconds.quotientAndRemainder(dividingBy: 86400)
        let (d, s) = rest < 0 ? (days - 1, rest + 86400) : (days, rest)
        func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : String(v) }
        return CalendarMath.isoDate(days: Int(d)) + "T\(two(s / 3600)):\(two(s / 60 % 60)):\(two(s % 60))Z"
    }
}
