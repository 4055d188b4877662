/// The facts of one column, accumulated chunk by chunk in one pass with bounded memory:
/// presence, the share of values of each type (classified exactly as the audit classifies
/// them), ranges, lengths, distinct values (exact up to a bound, then a HyperLogLog estimate),
/// the most frequent values, format classes, and whether the column is still a key.
package struct ColumnProfiler: Sendable {
    /// Exact distinct counting stops at this many values (then HyperLogLog estimates).
    public static let exactDistinctLimit = 10_000
    /// Key tracking stops at this many values (the column is then "unique so far").
    public static let keyLimit = 5_000_000

    public let name: String
    var facts = ColumnFacts()
    /// Counts by value-text hash while exact, and each value's text (first seen).
    var counts = HashCount64()
    var texts: [UInt64: String] = [:]
    var hll = HyperLogLog()
    /// Values per format class, by ``FormatClass/index``.
    var classCounts = [Int](repeating: 0, count: FormatClass.allCases.count)
    /// Hashes of the typed key values while every value so far was present and distinct.
    var keys: HashSet64? = HashSet64()

    public init(name: String) { self.name = name }

    /// Adds one column of a chunk.
    /// - Parameters:
    ///   - column: The chunk's cells of this column.
    ///   - excluded: Rows a structural issue excludes (ragged CSV rows), as the audit does.
    /// - Returns: Per row, the value as a date or date-time, as an integer and as a boolean
    ///   (for dependencies between columns).
    mutating func add(_ column: [Cell], _ chunk: RecordChunk, excluded: [Bool]) -> RowValues {
        let n = column.count
        var instants = [Instant](repeating: Instant(), count: n)
        var integers = [Double](repeating: .nan, count: n)
        var booleans = [UInt8](repeating: 0, count: n)
        var state = [UInt8](repeating: 0, count: n)
        var numbers = [Double](repeating: 0, count: n)
        var ints = [Int64](repeating: 0, count: n)
        // Integer and decimal values, for typed key hashes.
        var intValid = [Bool](repeating: false, count: n)
        var decValid = [Bool](repeating: false, count: n)
        var decNumbers = [Double](repeating: 0, count: n)
        chunk.bytes.withUnsafeBufferPointer { bytes in
            // Which types a value of this chunk can have at all, from its first byte: a number,
            // date or date-time starts with a digit or '-', a boolean with 't' or 'f'; typed
            // cells (SQLite) may be anything. Skipping the others is exact and saves the scans.
            var maybeNumeric = false, maybeBoolean = false, maybeDate = false
            for r in 0 ..< n where !excluded[r] {
                let cell = column[r]
                switch cell.tag {
                case .missing: continue
                case .text where cell.length > 0:
                    let b = bytes[Int(cell.payload)]
                    if (b >= 0x30 && b <= 0x39) || b == 0x2D { maybeNumeric = true }
                    if b == 0x74 || b == 0x66 { maybeBoolean = true }
                    // YYYY-MM-DD…: a '-' fifth
                    if cell.length >= 10 && bytes[Int(cell.payload) + 4] == 0x2D { maybeDate = true }
                case .text: continue
                default:
                    maybeNumeric = true
                    maybeBoolean = true
                    maybeDate = true
                }
                if maybeNumeric && maybeBoolean && maybeDate { break }
            }
            for type in ValueType.allCases where type != .string {
                let possible = type == .boolean ? maybeBoolean : (type == .date || type == .datetime) ? maybeDate : maybeNumeric
                if !possible {
                    if facts.types[type] == nil { facts.types[type] = TypeFacts() }
                    continue
                }
                TypedParse.classify(type, column, bytes, excluded, &state, &numbers, &ints)
                StorageClass.restrict(type, column, &state, storageClasses: chunk.storageClasses)
                var t = facts.types[type] ?? TypeFacts()
                for r in 0 ..< n where state[r] == TypedParse.Classified.valid {
                    t.valid += 1
                    let v = numbers[r]
                    if type == .boolean {
                        let cell = column[r]
                        booleans[r] = cell.tag == .integer ? (cell.integerValue == 1 ? 1 : 2)
                            : (cell.length > 0 && bytes[Int(cell.payload)] == 0x74 ? 1 : 2)
                    }
                    if type != .boolean { t.extend(type, v, column[r], ints[r], chunk, bytes) }
                    t.count += 1
                    if type == .integer { intValid[r] = true; integers[r] = v }
                    if type == .decimal { decValid[r] = true; decNumbers[r] = v }
                    if type == .date { instants[r] = Instant(kind: 1, seconds: Int64(v) * 86400) }
                    if type == .datetime, instants[r].kind == 0 { instants[r] = Instant(kind: 2, seconds: Int64(v), fraction: ints[r] != 0) }
                }
                facts.types[type] = t
            }
            for r in 0 ..< n {
                if excluded[r] { continue }
                facts.records += 1
                let cell = column[r]
                if cell.tag == .missing {
                    facts.missing += 1
                    keys = nil
                    continue
                }
                facts.present += 1
                if cell.tag == .list || cell.tag == .map {
                    // A list or map: counted by its items or keys, never a key, no text shape.
                    addComposite(cell, chunk)
                    keys = nil
                    continue
                }
                var h: UInt64
                var length = 0
                var scan = ShapeScan()
                if cell.tag == .text || cell.tag == .blob {
                    let p = TypedParse.text(cell, bytes)
                    scan = ShapeScan(p)
                    h = scan.hash
                    length = scan.scalars
                } else {
                    let s = chunk.string(cell) ?? ""
                    scan = ShapeScan(Array(s.utf8))
                    h = scan.hash
                    length = scan.scalars
                }
                if scan.blank { facts.blank += 1 }
                facts.minLength = min(facts.minLength ?? length, length)
                facts.maxLength = max(facts.maxLength ?? length, length)
                var bits = scan.classBits
                while bits != 0 {
                    classCounts[bits.trailingZeroBitCount] += 1
                    bits &= bits - 1
                }
                countDistinct(h, chunk.string(cell) ?? "")
                if keys != nil {
                    let k = intValid[r] ? Hashing.tagged(1, UInt64(bitPattern: ints[r]))
                        : decValid[r] ? Hashing.tagged(2, (decNumbers[r] == 0 ? 0 : decNumbers[r]).bitPattern) : h
                    if keys!.count >= Self.keyLimit {       // non-nil: checked above
                        facts.keyUnverified = true
                    } else if !keys!.insert(k) {
                        keys = nil
                    }
                }
            }
        }
        return RowValues(instants: instants, integers: integers, booleans: booleans)
    }

    /// The largest number of distinct map keys counted per column (then ``ColumnFacts/mapKeysOverflow``).
    static let mapKeyLimit = 100

    /// Counts a list's items or a map's entries and keys, and its text for the distinct values.
    private mutating func addComposite(_ cell: Cell, _ chunk: RecordChunk) {
        let items: Int
        switch Int(cell.payload) < chunk.composites.count && cell.payload >= 0 ? chunk.composites[Int(cell.payload)] : nil {
        case .list(let cells)?:
            facts.lists += 1
            items = cells.count
        case .map(let entries)?:
            facts.maps += 1
            items = entries.count
            // A key once per map, however often the object repeats it: a set for a large map, a
            // look back for a small one (no allocation per record).
            if entries.count > 16 {
                for key in Set(entries.map(\.key)) { countMapKey(key) }
            } else {
                for (i, entry) in entries.enumerated() where !entries[..<i].contains(where: { $0.key == entry.key }) {
                    countMapKey(entry.key)
                }
            }
        case nil:
            return
        }
        facts.minItems = min(facts.minItems ?? items, items)
        facts.maxItems = max(facts.maxItems ?? items, items)
        let text = chunk.string(cell) ?? ""
        // Tagged: a list is never the same value as a text that reads like it.
        countDistinct(Hashing.tagged(4, Hashing.bytes(Array(text.utf8))), text)
    }

    /// Counts a present value by its hash: in the estimate, and exactly (with its text, made
    /// only for a value not seen before) up to ``exactDistinctLimit`` values; past that bound
    /// exact counting stops, and the top values are those counted before it.
    @inline(__always)
    private mutating func countDistinct(_ h: UInt64, _ text: @autoclosure () -> String) {
        hll.add(h)
        guard !facts.distinctOverflow, !counts.increment(h) else { return }
        if counts.count < Self.exactDistinctLimit {
            counts.insert(h)
            texts[h] = text()
        } else {
            facts.distinctOverflow = true
        }
    }

    /// Counts one more map with `key`, while fewer than ``mapKeyLimit`` keys are counted.
    private mutating func countMapKey(_ key: String) {
        if let n = facts.mapKeys[key] {
            facts.mapKeys[key] = n + 1
        } else if facts.mapKeys.count < Self.mapKeyLimit {
            facts.mapKeys[key] = 1
        } else {
            facts.mapKeysOverflow = true
        }
    }

    /// The finished profile of the column.
    func finish(topCount: Int = 10) -> ColumnProfile {
        var facts = facts
        for (i, c) in FormatClass.allCases.enumerated() where classCounts[i] > 0 { facts.classes[c] = classCounts[i] }
        let exact = !facts.distinctOverflow
        let counts = self.counts.entries
        let top = counts.sorted { $0.value != $1.value ? $0.value > $1.value : (texts[$0.key] ?? "") < (texts[$1.key] ?? "") }
            .prefix(topCount).map { ProfileValueCount(value: texts[$0.key] ?? "", count: $0.value) }
        let values = exact ? counts.map { ProfileValueCount(value: texts[$0.key] ?? "", count: $0.value) }
            .sorted { $0.value < $1.value } : nil
        return ColumnProfile(name: name, facts: facts,
                             distinct: exact ? counts.count : hll.estimate(), distinctIsEstimate: !exact,
                             top: Array(top), topIsApproximate: !exact, values: values,
                             isKey: keys != nil && facts.missing == 0 && facts.present > 0 && !facts.keyUnverified,
                             keyHashes: keys)
    }
}

/// Counts per type of one column.
package struct TypeFacts: Sendable {
    /// Present values of this type (classified exactly as the audit does).
    public var valid = 0
    public var count = 0
    /// Smallest and largest value (numbers; dates as days; date-times as seconds, floored),
    /// with text; NaN where the double is not exact (``TypedParse/comparableDouble(_:)``).
    public var min = 0.0, max = 0.0
    public var minText = "", maxText = ""
    /// The exact smallest and largest values, made from their text when a double cannot decide.
    var minExact: ExactValue?, maxExact: ExactValue?
    /// Values below zero.
    public var negative = 0

    /// Takes one valid value into the range: by its double where that decides, else exactly,
    /// as the audit compares a value with a bound (integers and decimals past 15 digits, a
    /// date-time's fraction within its second).
    /// - Parameter flag: the row's `ints` entry (for a date-time: whether it has a fraction).
    mutating func extend(_ type: ValueType, _ v: Double, _ cell: Cell, _ flag: Int64,
                         _ chunk: RecordChunk, _ bytes: UnsafeBufferPointer<UInt8>) {
        var exact: ExactValue??        // made once, when a comparison needs it
        func exactValue() -> ExactValue? {
            if exact == nil { exact = .some(ChunkEvaluator.exactValue(type, cell, bytes)) }
            return exact ?? nil
        }
        // -1, 0 or 1 against a bound: the doubles decide when both are exact and differ, or
        // are equal and say the whole value (no fraction, no REAL against a text).
        func compare(_ bound: Double, _ boundExact: inout ExactValue?, _ boundText: String) -> Int {
            if !v.isNaN, !bound.isNaN {
                if v != bound { return v < bound ? -1 : 1 }
                let tie = type == .datetime ? flag == 0 && !boundText.utf8.contains(UInt8(ascii: "."))
                    : cell.tag != .real
                if tie { return 0 }
            }
            if boundExact == nil { boundExact = Self.exact(type, boundText) }
            guard let a = exactValue(), let b = boundExact else { return 0 }
            return ExactValue.compare(a, b)
        }
        if count == 0 || compare(min, &minExact, minText) < 0 {
            min = v
            minText = chunk.string(cell) ?? ""
            minExact = nil
        }
        if count == 0 || compare(max, &maxExact, maxText) > 0 {
            max = v
            maxText = chunk.string(cell) ?? ""
            maxExact = nil
        }
        if v.isNaN {
            if case .number(let d)? = exactValue(), d.negative { negative += 1 }
        } else if v < 0 {
            negative += 1
        }
    }

    /// The exact value of a bound's text.
    private static func exact(_ type: ValueType, _ text: String) -> ExactValue? {
        var utf8 = Array(text.utf8)
        return utf8.withUnsafeMutableBufferPointer { p in
            let t = UnsafeBufferPointer(p)
            return type == .datetime ? ExactInstant(text: t).map { .instant($0) } : ExactDecimal(text: t).map { .number($0) }
        }
    }
}

/// The raw counts of one column.
package struct ColumnFacts: Sendable {
    /// Records read (ragged CSV rows excluded).
    public var records = 0
    public var missing = 0
    public var present = 0
    /// Present values made only of spaces and tabs (or empty).
    public var blank = 0
    public var types: [ValueType: TypeFacts] = [:]
    public var minLength: Int?
    public var maxLength: Int?
    public var classes: [FormatClass: Int] = [:]
    public var distinctOverflow = false
    public var keyUnverified = false
    /// Present values that are lists and maps (JSON Lines arrays and objects, Parquet `LIST` and `MAP` values).
    public var lists = 0
    public var maps = 0
    /// The fewest and most items of a list or entries of a map.
    public var minItems: Int?
    public var maxItems: Int?
    /// Per key, the maps that have it (up to ``ColumnProfiler/mapKeyLimit`` keys).
    public var mapKeys: [String: Int] = [:]
    /// More keys than ``ColumnProfiler/mapKeyLimit`` occurred.
    public var mapKeysOverflow = false
}

/// A value and how often it occurs.
package struct ProfileValueCount: Sendable, Equatable {
    public var value: String
    public var count: Int
}

/// Format classes a value can belong to.
package enum FormatClass: String, Sendable, CaseIterable, Comparable {
    case digits = "digits only"
    case letters = "letters and spaces"
    case email = "e-mail-like"
    case uuid = "UUID"
    case isoDate = "date YYYY-MM-DD"
    case isoDatetime = "date-time YYYY-MM-DDTHH:MM:SS"
    case slashDate = "date NN/NN/NNNN"
    case dotDate = "date NN.NN.NNNN"
    case upperCode = "upper-case code"

    public static func < (a: FormatClass, b: FormatClass) -> Bool { a.rawValue < b.rawValue }

    /// The position in ``allCases``.
    var index: Int {
        switch self {
        case .digits: return 0
        case .letters: return 1
        case .email: return 2
        case .uuid: return 3
        case .isoDate: return 4
        case .isoDatetime: return 5
        case .slashDate: return 6
        case .dotDate: return 7
        case .upperCode: return 8
        }
    }

    /// A pattern (the `pattern:` syntax) that every value of the class matches, for the rules.
    public var pattern: String? {
        switch self {
        case .digits: return "[0-9]+"
        case .letters: return "[A-Za-zÀ-ÖØ-öø-ÿ ]+"
        case .email: return "[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\\.[A-Za-z]{2,}"
        case .uuid: return "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
        case .upperCode: return "[A-Z0-9]+"
        case .isoDate, .isoDatetime, .slashDate, .dotDate: return nil
        }
    }
}

/// Per-row values of one column of a chunk, for dependencies between columns.
struct RowValues: Sendable {
    var instants: [Instant] = []
    /// The integer value (as a double), NaN when the value is not an integer.
    var integers: [Double] = []
    /// 1 true, 2 false, 0 neither.
    var booleans: [UInt8] = []
}
