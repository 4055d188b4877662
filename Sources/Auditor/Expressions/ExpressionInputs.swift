/// Turns the classified attribute columns an expression reads into typed expression columns.
///
/// "Missing", "type-invalid" and the parsed values mean exactly what they mean for `required`
/// and `type` checks: the input is the attribute's classification by
/// ``TypedParse/classify(_:_:_:_:_:_:_:)``, the pass property rules use. The engine
/// hands over the column it classified once for the chunk (``ChunkColumns``); ``load`` classifies
/// for callers that evaluate an expression on its own.
enum ExpressionInputs {
    /// Classifies one input column and loads it (see ``column(_:state:numbers:ints:cells:rows:chunk:bytes:skip:missingIsNull:skipped:)``).
    /// - Complexity: O(rows); parses each value once.
    static func load(_ type: ValueType, column: [Cell], chunk: RecordChunk, bytes: UnsafeBufferPointer<UInt8>,
                     skip: [Bool], missingIsNull: Bool, skipped: inout [Bool]) -> any ExpressionColumn {
        let n = column.count
        var state = [UInt8](repeating: 0, count: n)
        var numbers = [Double](repeating: 0, count: n)
        var ints = [Int64](repeating: 0, count: n)
        TypedParse.classify(type, column, bytes, skip, &state, &numbers, &ints)
        StorageClass.restrict(type, column, &state, storageClasses: chunk.storageClasses)
        return self.column(type, state: state, numbers: numbers, ints: ints, cells: column, rows: 0 ..< n,
                           chunk: chunk, bytes: bytes, skip: skip, missingIsNull: missingIsNull, skipped: &skipped)
    }

    /// Loads rows `rows` of one classified input column and marks the rows the expression
    /// must skip because of it. Parses nothing again, except the exact value of a number
    /// with more significant digits than the classification's double keeps (rare).
    /// - Parameters:
    ///   - type: The attribute's declared type.
    ///   - state, numbers, ints, cells: The attribute's classification for the whole chunk.
    ///   - rows: The batch: row `rows.lowerBound + i` of the chunk is row `i` of the result.
    ///   - skip: Per batch row: rows not to evaluate (whatever their classification).
    ///   - missingIsNull: True when the expression reads this attribute only inside
    ///     null-aware functions: a missing value is then a null instead of a skip.
    ///   - skipped: Per batch row, set to true when this input is type-invalid, or missing and
    ///     `missingIsNull` is false, or the row is in `skip`.
    /// - Returns: The typed column (null in every row that is not valid).
    /// - Complexity: O(rows).
    static func column(_ type: ValueType, state: [UInt8], numbers: [Double], ints: [Int64], cells: [Cell],
                       rows: Range<Int>, chunk: RecordChunk, bytes: UnsafeBufferPointer<UInt8>,
                       skip: [Bool], missingIsNull: Bool, skipped: inout [Bool]) -> any ExpressionColumn {
        let n = rows.count
        let base = rows.lowerBound
        // One pass per column over buffers (no per-store uniqueness checks): a row to skip, or
        // whose input is not valid, is null (and skipped unless a missing value is a null).
        @inline(__always)
        func load<T>(null: T, _ value: (Int) -> T?) -> [T] {
            [T](unsafeUninitializedCapacity: n) { out, count in
                state.withUnsafeBufferPointer { state in
                    skip.withUnsafeBufferPointer { skip in
                        skipped.withUnsafeMutableBufferPointer { skipped in
                            for i in 0 ..< n {
                                let s = i < skip.count && skip[i] ? TypedParse.Classified.skip : state[base + i]
                                if s == TypedParse.Classified.valid, let v = value(base + i) {
                                    out[i] = v
                                    continue
                                }
                                out[i] = null
                                if s != TypedParse.Classified.missing || !missingIsNull, i < skipped.count {
                                    skipped[i] = true
                                }
                            }
                        }
                    }
                }
                count = n
            }
        }
        switch type {
        case .integer, .decimal:
            return numbers.withUnsafeBufferPointer { numbers in
                NumberColumn(values: load(null: .nan) { r in
                    let v = numbers[r]
                    if !v.isNaN { return v }
                    // A valid number a double does not hold exactly (NaN from classify): its
                    // exact value, if a double holds it after all, else the record is skipped.
                    let cell = cells[r]
                    switch cell.tag {
                    case .integer: return exactDouble(cell.integerValue)
                    case .text: return type == .integer ? exactDouble(ints[r])
                        : ExactDecimal(text: TypedParse.text(cell, bytes))?.shortDouble
                    default: return nil
                    }
                })
            }
        case .date:
            return numbers.withUnsafeBufferPointer { numbers in
                DateColumn(values: load(null: DateColumn.null) { Int32(truncatingIfNeeded: Int64(numbers[$0])) })
            }
        case .datetime:
            return numbers.withUnsafeBufferPointer { numbers in
                DatetimeColumn(values: load(null: DatetimeColumn.null) { Int64(numbers[$0]) })
            }
        case .boolean:
            return cells.withUnsafeBufferPointer { cells in
                BoolColumn(values: load(null: BoolColumn.unknown) { r in
                    let cell = cells[r]
                    // classify accepted it: text is exactly "true"/"false", an integer is 0 or 1.
                    return cell.tag == .text ? (bytes[Int(cell.payload)] == UInt8(ascii: "t") ? 1 : 0)
                                             : (cell.integerValue == 1 ? 1 : 0)
                })
            }
        case .string:
            var valid = [UInt8](repeating: TypedParse.Classified.skip, count: n)
            _ = load(null: false) { r in
                valid[r - base] = TypedParse.Classified.valid
                return true
            }
            return strings(rows.count == cells.count ? cells : Array(cells[rows]), valid, chunk)
        }
    }

    /// Text cells point into the chunk's bytes (shared, not copied). When a typed cell occurs
    /// in a string attribute (an SQLite INTEGER in a TEXT column), the rows' texts are copied
    /// into fresh storage instead, the typed cells as their canonical text.
    private static func strings(_ column: [Cell], _ state: [UInt8], _ chunk: RecordChunk) -> StringColumn {
        let n = column.count
        let valid = TypedParse.Classified.valid
        let shared = (0 ..< n).allSatisfy { state[$0] != valid || column[$0].tag == .text || column[$0].tag == .blob }
        if shared {
            var result = StringColumn(storage: chunk.bytes, starts: [Int](repeating: 0, count: n),
                                      lengths: [Int32](repeating: -1, count: n))
            for r in 0 ..< n where state[r] == valid {
                result.starts[r] = Int(column[r].payload)
                result.lengths[r] = column[r].length
            }
            return result
        }
        var out = StringColumnBuilder(capacity: n)
        for r in 0 ..< n {
            if state[r] == valid {
                out.append(contentsOf: (chunk.string(column[r]) ?? "").utf8)
            } else {
                out.append(nil)
            }
        }
        return out.column
    }

    /// An integer as an expression number: exact up to 2^53, nil (the record is skipped)
    /// beyond, where a double would round it.
    @inline(__always)
    static func exactDouble(_ value: Int64) -> Double? {
        value.magnitude <= 1 << 53 && value != Int64.max && value != -Int64.max ? Double(value) : nil
    }

    /// A decimal text as an expression number: its correctly rounded double when it has at
    /// most 15 significant digits (so comparisons between such numbers are exact); nil
    /// otherwise (invalid, or more digits than a double holds: the record is skipped).
    @inline(__always)
    static func exactDouble(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        let p = ByteParsers.comparableDecimal(text)
        guard p.valid else { return nil }
        return p.value.isNaN ? ExactDecimal(text: text)?.shortDouble : p.value
    }

    /// The column type an attribute of a declared type loads as.
    static func expressionType(of type: ValueType) -> ExpressionType {
        switch type {
        case .string: return .string
        case .integer, .decimal: return .number
        case .boolean: return .boolean
        case .date: return .date
        case .datetime: return .datetime
        }
    }
}
