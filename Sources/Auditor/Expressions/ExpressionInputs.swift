/// Loads the attribute columns an expression reads from a chunk into typed columns.
///
/// Classification is ``ChunkEvaluator/classify(_:_:_:_:_:_:_:)``, the same pass property
/// rules use, so "missing", "type-invalid" and the parsed values mean exactly what they mean
/// for `required` and `type` checks.
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
        let n = column.count
        var state = [UInt8](repeating: 0, count: n)
        var numbers = [Double](repeating: 0, count: n)
        var ints = [Int64](repeating: 0, count: n)
        ChunkEvaluator.classify(type, column, bytes, skip, &state, &numbers, &ints)
        let valid = ChunkEvaluator.Classified.valid
        let missing = ChunkEvaluator.Classified.missing
        for r in 0 ..< n where state[r] != valid && (state[r] != missing || !missingIsNull) {
            skipped[r] = true
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

    /// Text cells point into the chunk's bytes (shared, not copied); the rare typed cell in a
    /// string attribute (an SQLite INTEGER in a TEXT column) gets its canonical text appended.
    private static func strings(_ column: [Cell], _ state: [UInt8], _ chunk: RecordChunk) -> StringColumn {
        let n = column.count
        var result = StringColumn(storage: chunk.bytes, starts: [Int](repeating: 0, count: n),
                                  lengths: [Int32](repeating: -1, count: n))
        for r in 0 ..< n where state[r] == ChunkEvaluator.Classified.valid {
            let cell = column[r]
            switch cell.tag {
            case .text, .blob:
                result.starts[r] = Int(cell.payload)
                result.lengths[r] = cell.length
            default:
                let text = Array((chunk.string(cell) ?? "").utf8)
                result.starts[r] = result.storage.count
                result.storage += text
                result.lengths[r] = Int32(truncatingIfNeeded: text.count)
            }
        }
        return result
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
