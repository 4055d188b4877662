/// A typed column that an expression node computes for every row of a chunk at once.
///
/// Nulls are sentinels inside the one value array, so every kernel is a single tight loop
/// over one or two arrays: `NaN` for numbers, `Int32.min` for dates, `Int64.min` for
/// date-times, length `-1` for strings, `2` (unknown) for booleans.
protocol ExpressionColumn: Sendable {
    /// The expression type this column holds.
    static var expressionType: ExpressionType { get }
    /// The number of rows.
    var count: Int { get }
    /// `count` nulls.
    static func nulls(_ count: Int) -> Self
    /// Row 0 repeated `count` times (how constants are broadcast).
    func repeated(_ count: Int) -> Self
    /// Per row 1 where the row holds a value, 0 where it is null; with `nonEmpty`, an empty
    /// string also counts as absent (`present`).
    func presence(nonEmpty: Bool) -> [UInt8]
    /// Per row: `pick` 1 takes `a`, 0 takes `b`, 2 gives null.
    static func select(_ pick: [UInt8], _ a: Self, _ b: Self) -> Self
    /// Compares row by row: 1 true, 0 false, 2 unknown (a null on either side).
    static func compare(_ op: ComparisonOperator, _ a: Self, _ b: Self) -> BoolColumn
    /// The text of row `r`, `nil` for null (tests, constant values in messages).
    func text(_ r: Int) -> String?
    /// A node of this column type in its ``TypedNode`` case (see `TypedNode.swift`).
    static func typed(_ node: any ExpressionNode<Self>) -> TypedNode
    /// The node of a ``TypedNode`` if it has this column type.
    static func untyped(_ t: TypedNode) -> (any ExpressionNode<Self>)?
}

/// Three-valued booleans: 0 false, 1 true, 2 unknown. The raw values of ``ExpressionOutcome``.
struct BoolColumn: ExpressionColumn {
    static let unknown: UInt8 = 2
    var values: [UInt8]

    static var expressionType: ExpressionType { .boolean }
    var count: Int { values.count }
    static func nulls(_ count: Int) -> Self { Self(values: [UInt8](repeating: unknown, count: count)) }
    func repeated(_ count: Int) -> Self { Self(values: [UInt8](repeating: values[0], count: count)) }
    func presence(nonEmpty: Bool) -> [UInt8] { Rows.map(values) { $0 == Self.unknown ? 0 : 1 } }
    static func select(_ pick: [UInt8], _ a: Self, _ b: Self) -> Self {
        Self(values: Rows.select(pick, a.values, b.values, null: unknown))
    }
    static func compare(_ op: ComparisonOperator, _ a: Self, _ b: Self) -> BoolColumn {
        Rows.compare(op, a.values, b.values) { $0 == unknown }
    }
    func text(_ r: Int) -> String? { values[r] == Self.unknown ? nil : values[r] == 1 ? "true" : "false" }
}

/// Numbers as doubles (integers are exact up to 2^53); `NaN` is null.
struct NumberColumn: ExpressionColumn {
    var values: [Double]

    static var expressionType: ExpressionType { .number }
    var count: Int { values.count }
    static func nulls(_ count: Int) -> Self { Self(values: [Double](repeating: .nan, count: count)) }
    func repeated(_ count: Int) -> Self { Self(values: [Double](repeating: values[0], count: count)) }
    func presence(nonEmpty: Bool) -> [UInt8] { Rows.map(values) { $0.isNaN ? 0 : 1 } }
    static func select(_ pick: [UInt8], _ a: Self, _ b: Self) -> Self {
        Self(values: Rows.select(pick, a.values, b.values, null: .nan))
    }
    static func compare(_ op: ComparisonOperator, _ a: Self, _ b: Self) -> BoolColumn {
        Rows.compare(op, a.values, b.values) { $0.isNaN }
    }
    func text(_ r: Int) -> String? { values[r].isNaN ? nil : ValueText.canonical(values[r]) }
}

/// Dates as days since 1970-01-01; `Int32.min` is null.
struct DateColumn: ExpressionColumn {
    static let null = Int32.min
    var values: [Int32]

    static var expressionType: ExpressionType { .date }
    var count: Int { values.count }
    static func nulls(_ count: Int) -> Self { Self(values: [Int32](repeating: null, count: count)) }
    func repeated(_ count: Int) -> Self { Self(values: [Int32](repeating: values[0], count: count)) }
    func presence(nonEmpty: Bool) -> [UInt8] { Rows.map(values) { $0 == Self.null ? 0 : 1 } }
    static func select(_ pick: [UInt8], _ a: Self, _ b: Self) -> Self {
        Self(values: Rows.select(pick, a.values, b.values, null: null))
    }
    static func compare(_ op: ComparisonOperator, _ a: Self, _ b: Self) -> BoolColumn {
        Rows.compare(op, a.values, b.values) { $0 == null }
    }
    func text(_ r: Int) -> String? { values[r] == Self.null ? nil : CalendarMath.isoDate(days: Int(values[r])) }
}

/// Date-times as seconds since 1970-01-01T00:00:00Z; `Int64.min` is null.
struct DatetimeColumn: ExpressionColumn {
    static let null = Int64.min
    var values: [Int64]

    static var expressionType: ExpressionType { .datetime }
    var count: Int { values.count }
    static func nulls(_ count: Int) -> Self { Self(values: [Int64](repeating: null, count: count)) }
    func repeated(_ count: Int) -> Self { Self(values: [Int64](repeating: values[0], count: count)) }
    func presence(nonEmpty: Bool) -> [UInt8] { Rows.map(values) { $0 == Self.null ? 0 : 1 } }
    static func select(_ pick: [UInt8], _ a: Self, _ b: Self) -> Self {
        Self(values: Rows.select(pick, a.values, b.values, null: null))
    }
    static func compare(_ op: ComparisonOperator, _ a: Self, _ b: Self) -> BoolColumn {
        Rows.compare(op, a.values, b.values) { $0 == null }
    }
    func text(_ r: Int) -> String? {
        let s = values[r]
        guard s != Self.null else { return nil }
        let days = s >= 0 ? s / 86400 : (s - 86399) / 86400
        let t = Int(s - days * 86400)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return CalendarMath.isoDate(days: Int(days)) + "T\(two(t / 3600)):\(two(t / 60 % 60)):\(two(t % 60))Z"
    }
}

/// Text as UTF-8 slices of one byte buffer: the chunk's own bytes for attributes (no copy),
/// a fresh buffer for computed strings. Length `-1` is null.
struct StringColumn: ExpressionColumn {
    var storage: [UInt8]
    var starts: [Int]
    var lengths: [Int32]

    static var expressionType: ExpressionType { .string }
    var count: Int { lengths.count }
    static func nulls(_ count: Int) -> Self {
        Self(storage: [], starts: [Int](repeating: 0, count: count), lengths: [Int32](repeating: -1, count: count))
    }
    func repeated(_ count: Int) -> Self {
        Self(storage: storage, starts: [Int](repeating: starts[0], count: count),
             lengths: [Int32](repeating: lengths[0], count: count))
    }
    func presence(nonEmpty: Bool) -> [UInt8] {
        let least: Int32 = nonEmpty ? 1 : 0
        return Rows.map(lengths) { $0 >= least ? 1 : 0 }
    }
    static func select(_ pick: [UInt8], _ a: Self, _ b: Self) -> Self {
        var out = StringColumnBuilder(capacity: pick.count)
        a.withSlices { sa in
            b.withSlices { sb in
                for r in 0 ..< pick.count {
                    switch pick[r] {
                    case 1: out.append(sa(r))
                    case 0: out.append(sb(r))
                    default: out.append(nil)
                    }
                }
            }
        }
        return out.column
    }
    static func compare(_ op: ComparisonOperator, _ a: Self, _ b: Self) -> BoolColumn {
        var out = [UInt8](repeating: BoolColumn.unknown, count: a.count)
        a.withSlices { sa in
            b.withSlices { sb in
                for r in 0 ..< out.count {
                    guard let x = sa(r), let y = sb(r) else { continue }
                    let c = Bytes.compare(x, y)
                    let result: Bool
                    switch op {
                    case .equal: result = c == 0
                    case .notEqual: result = c != 0
                    case .less: result = c < 0
                    case .lessEqual: result = c <= 0
                    case .greater: result = c > 0
                    case .greaterEqual: result = c >= 0
                    }
                    out[r] = result ? 1 : 0
                }
            }
        }
        return BoolColumn(values: out)
    }
    func text(_ r: Int) -> String? {
        guard lengths[r] >= 0 else { return nil }
        return String(decoding: storage[starts[r] ..< starts[r] + Int(lengths[r])], as: UTF8.self)
    }

    /// Calls `body` with an accessor that returns row `r`'s bytes, or `nil` for null.
    /// The accessor is only valid inside `body`.
    @inline(__always)
    func withSlices<R>(_ body: ((Int) -> UnsafeBufferPointer<UInt8>?) -> R) -> R {
        storage.withUnsafeBufferPointer { buffer in
            starts.withUnsafeBufferPointer { s in
                lengths.withUnsafeBufferPointer { l in
                    body { r in
                        l[r] < 0 ? nil : UnsafeBufferPointer(rebasing: buffer[s[r] ..< s[r] + Int(l[r])])
                    }
                }
            }
        }
    }
}

/// Builds a ``StringColumn`` with fresh storage, row by row.
struct StringColumnBuilder {
    private(set) var column: StringColumn

    init(capacity: Int) {
        column = StringColumn(storage: [], starts: [], lengths: [])
        column.starts.reserveCapacity(capacity)
        column.lengths.reserveCapacity(capacity)
    }

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>?) {
        column.starts.append(column.storage.count)
        guard let bytes else {
            column.lengths.append(-1)
            return
        }
        column.storage.append(contentsOf: bytes)
        column.lengths.append(Int32(truncatingIfNeeded: bytes.count))
    }

    mutating func append<C: Collection>(contentsOf bytes: C) where C.Element == UInt8 {
        let start = column.storage.count
        column.storage.append(contentsOf: bytes)
        column.starts.append(start)
        column.lengths.append(Int32(truncatingIfNeeded: column.storage.count - start))
    }

    /// Appends row bytes made of several parts (concatenation).
    mutating func append(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) {
        let start = column.storage.count
        column.storage.append(contentsOf: a)
        column.storage.append(contentsOf: b)
        column.starts.append(start)
        column.lengths.append(Int32(truncatingIfNeeded: column.storage.count - start))
    }
}

/// Row-wise loops over whole columns, written once and specialised per element type.
enum Rows {
    @inline(__always)
    static func map<A, R>(_ a: [A], _ f: (A) -> R) -> [R] {
        [R](unsafeUninitializedCapacity: a.count) { out, count in
            a.withUnsafeBufferPointer { pa in
                for i in 0 ..< pa.count { out.initializeElement(at: i, to: f(pa[i])) }
            }
            count = a.count
        }
    }

    @inline(__always)
    static func zip<A, B, R>(_ a: [A], _ b: [B], _ f: (A, B) -> R) -> [R] {
        let n = min(a.count, b.count)
        return [R](unsafeUninitializedCapacity: n) { out, count in
            a.withUnsafeBufferPointer { pa in
                b.withUnsafeBufferPointer { pb in
                    for i in 0 ..< n { out.initializeElement(at: i, to: f(pa[i], pb[i])) }
                }
            }
            count = n
        }
    }

    @inline(__always)
    static func select<T>(_ pick: [UInt8], _ a: [T], _ b: [T], null: T) -> [T] {
        let n = pick.count
        return [T](unsafeUninitializedCapacity: n) { out, count in
            for i in 0 ..< n { out.initializeElement(at: i, to: pick[i] == 1 ? a[i] : pick[i] == 0 ? b[i] : null) }
            count = n
        }
    }

    @inline(__always)
    static func compare<T: Comparable>(_ op: ComparisonOperator, _ a: [T], _ b: [T],
                                       _ isNull: (T) -> Bool) -> BoolColumn {
        @inline(__always) func run(_ test: (T, T) -> Bool) -> [UInt8] {
            zip(a, b) { x, y in isNull(x) || isNull(y) ? BoolColumn.unknown : test(x, y) ? 1 : 0 }
        }
        switch op {
        case .equal: return BoolColumn(values: run(==))
        case .notEqual: return BoolColumn(values: run(!=))
        case .less: return BoolColumn(values: run(<))
        case .lessEqual: return BoolColumn(values: run(<=))
        case .greater: return BoolColumn(values: run(>))
        case .greaterEqual: return BoolColumn(values: run(>=))
        }
    }
}

/// Byte-slice helpers for string kernels.
enum Bytes {
    /// Lexicographic byte order (= Unicode scalar order for UTF-8): negative, 0 or positive.
    @inline(__always)
    static func compare(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Int {
        let n = min(x.count, y.count)
        for i in 0 ..< n where x[i] != y[i] { return Int(x[i]) - Int(y[i]) }
        return x.count - y.count
    }

    @inline(__always)
    static func equal(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Bool {
        x.count == y.count && compare(x, y) == 0
    }
}
