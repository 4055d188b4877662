/// Loads the attribute columns an expression reads from a chunk into typed columns.
///
/// "Missing", "type-invalid" and the parsed values mean exactly what they mean for `required`
/// and `type` checks: columns with typed cells (SQLite INTEGER, REAL, BLOB) and string
/// columns go through ``ChunkEvaluator/classify(_:_:_:_:_:_:_:)``, the pass property rules
/// use; columns of text and missing cells take a one-pass path with the same parsers.
enum ExpressionInputs {
    /// Loads one input column and marks the rows the expression must skip because of it.
    /// - Parameters:
    ///   - type: The attribute's declared type.
    ///   - column: The chunk column of the attribute.
    ///   - missingIsNull: True when the expression reads this attribute only inside
    ///     null-aware functions: a missing value is then a null instead of a skip.
    ///   - skipped: Per row, set to true when this input is type-invalid, or missing and
    ///     `missingIsNull` is false, or the row is excluded by `skip`.
    /// - Returns: The typed column (null in every row that is not valid).
    /// - Complexity: O(rows); parses each value once.
    static func load(_ type: ValueType, column: [Cell], chunk: RecordChunk, bytes: UnsafeBufferPointer<UInt8>,
                     skip: [Bool], missingIsNull: Bool, skipped: inout [Bool]) -> any ExpressionColumn {
        if !chunk.storageClasses,
           let fast = textOnly(type, column, bytes, skip: skip, missingIsNull: missingIsNull, skipped: &skipped) {
            return fast
        }
        let n = column.count
        var state = [UInt8](repeating: 0, count: n)
        var numbers = [Double](repeating: 0, count: n)
        var ints = [Int64](repeating: 0, count: n)
        ChunkEvaluator.classify(type, column, bytes, skip, &state, &numbers, &ints)
        if chunk.storageClasses { StorageClass.restrict(type, column, &state) }
        let valid = ChunkEvaluator.Classified.valid
        let missing = ChunkEvaluator.Classified.missing
        for r in 0 ..< n where state[r] != valid && (state[r] != missing || !missingIsNull) {
            skipped[r] = true
        }
        if type == .integer || type == .decimal {
            // A valid number a double does not hold exactly (NaN from classify): its exact
            // value, if a double holds it after all, else the record is skipped.
            for r in 0 ..< n where state[r] == valid && numbers[r].isNaN {
                let cell = column[r]
                let exact: Double?
                switch cell.tag {
                case .integer: exact = exactDouble(cell.integerValue)
                case .text: exact = type == .integer ? exactDouble(ints[r]) : exactDouble(ChunkEvaluator.text(cell, bytes))
                default: exact = nil
                }
                if let exact { numbers[r] = exact } else { skipped[r] = true }
            }
        }
        switch type {
        case .integer, .decimal:
            return NumberColumn(values: Rows.zip(state, numbers) { s, v in s == valid ? v : .nan })
        case .date:
            return DateColumn(values: Rows.zip(state, numbers) { s, v in s == valid ? Int32(truncatingIfNeeded: Int64(v)) : DateColumn.null })
        case .datetime:
            return DatetimeColumn(values: Rows.zip(state, numbers) { s, v in s == valid ? Int64(v) : DatetimeColumn.null })
        case .boolean:
            var values = [UInt8](repeating: BoolColumn.unknown, count: n)
            for r in 0 ..< n where state[r] == valid {
                let cell = column[r]
                // classify accepted it: text is exactly "true"/"false", an integer is 0 or 1.
                values[r] = cell.tag == .text ? (bytes[Int(cell.payload)] == UInt8(ascii: "t") ? 1 : 0)
                                              : (cell.integerValue == 1 ? 1 : 0)
            }
            return BoolColumn(values: values)
        case .string:
            return strings(column, state, chunk)
        }
    }

    /// A column holding only text and missing cells (CSV, XML, SQLite TEXT), in one pass with
    /// the parsers `classify` applies to text (``ByteParsers``; dates and date-times take most
    /// of an inter-property rule's time). `nil` for string columns
    /// and when another storage class occurs; the caller then classifies as usual (rows already
    /// marked in `skipped` are rows that classification marks too, so stopping half-way is
    /// harmless).
    private static func textOnly(_ type: ValueType, _ column: [Cell], _ bytes: UnsafeBufferPointer<UInt8>, skip: [Bool],
                                 missingIsNull: Bool, skipped: inout [Bool]) -> (any ExpressionColumn)? {
        let n = column.count
        guard skip.count == n, skipped.count == n else { return nil }
        switch type {
        case .string:
            return nil
        case .integer, .decimal:
            var values = [Double](repeating: .nan, count: n)
            let ok = type == .integer
                ? parse(column, bytes, skip, missingIsNull, &skipped, &values) { t in
                    let p = ByteParsers.integer(t)
                    return p.valid ? exactDouble(p.value) : nil
                }
                : parse(column, bytes, skip, missingIsNull, &skipped, &values) { exactDouble($0) }
            return ok ? NumberColumn(values: values) : nil
        case .boolean:
            var values = [UInt8](repeating: BoolColumn.unknown, count: n)
            let ok = parse(column, bytes, skip, missingIsNull, &skipped, &values) { t in
                ByteParsers.boolean(t).map { $0 ? 1 : 0 }
            }
            return ok ? BoolColumn(values: values) : nil
        case .date:
            var values = [Int32](repeating: DateColumn.null, count: n)
            let ok = parse(column, bytes, skip, missingIsNull, &skipped, &values) { ByteParsers.date($0) }
            return ok ? DateColumn(values: values) : nil
        case .datetime:
            var values = [Int64](repeating: DatetimeColumn.null, count: n)
            let ok = parse(column, bytes, skip, missingIsNull, &skipped, &values) { ByteParsers.datetime($0) }
            return ok ? DatetimeColumn(values: values) : nil
        }
    }

    /// One pass over a column of text and missing cells: parsed values, skips for excluded
    /// rows, unparsable text and (unless `missingIsNull`) missing cells. False when a cell of
    /// another storage class occurs. All counts are equal (checked by the caller).
    @inline(__always)
    private static func parse<T>(_ column: [Cell], _ bytes: UnsafeBufferPointer<UInt8>, _ skip: [Bool], _ missingIsNull: Bool,
                                 _ skipped: inout [Bool], _ values: inout [T],
                                 _ parser: (UnsafeBufferPointer<UInt8>) -> T?) -> Bool {
        column.withUnsafeBufferPointer { cells in
            skip.withUnsafeBufferPointer { skip in
                skipped.withUnsafeMutableBufferPointer { skipped in
                    values.withUnsafeMutableBufferPointer { values in
                        for r in 0 ..< cells.count {
                            let cell = cells[r]
                            if skip[r] {
                                skipped[r] = true
                            } else if cell.tag == .text {
                                let text = UnsafeBufferPointer(rebasing: bytes[Int(cell.payload) ..< Int(cell.payload) + Int(cell.length)])
                                if let v = parser(text) { values[r] = v } else { skipped[r] = true }
                            } else if cell.tag == .missing {
                                if !missingIsNull { skipped[r] = true }
                            } else {
                                return false
                            }
                        }
                        return true
                    }
                }
            }
        }
    }

    /// Text cells point into the chunk's bytes (shared, not copied). When a typed cell occurs
    /// in a string attribute (an SQLite INTEGER in a TEXT column), the rows' texts are copied
    /// into fresh storage instead, the typed cells as their canonical text.
    private static func strings(_ column: [Cell], _ state: [UInt8], _ chunk: RecordChunk) -> StringColumn {
        let n = column.count
        let valid = ChunkEvaluator.Classified.valid
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
