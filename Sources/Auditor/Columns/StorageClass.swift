/// Declared types against storage classes, for sources whose values have one (SQLite).
///
/// In such a source a declared `integer` accepts only the INTEGER storage class, `decimal`
/// INTEGER or REAL, `boolean` INTEGER 0 or 1: TEXT that spells a number (`'5'`) is a type
/// violation, as `typeof()` would show. `date` and `datetime` are TEXT (as the text formats'),
/// and `string` accepts every storage class (a number as its text).
///
/// Elsewhere a number is never a boolean: JSON, Parquet, PostgreSQL and Spark have booleans of
/// their own, so `retries: 1` is a number there, as `auditor profile` classifies it.
enum StorageClass {
    /// Marks as invalid the rows that ``TypedParse/classify(_:_:_:_:_:_:_:)`` accepted but that
    /// are not of the type in the chunk's format: with storage classes, TEXT (or BLOB) cells
    /// for a numeric or boolean type; without them, numbers for a boolean.
    /// - Complexity: O(rows); nothing for string, date and date-time attributes.
    @inline(__always)
    static func restrict(_ type: ValueType, _ column: [Cell], _ state: inout [UInt8], storageClasses: Bool) {
        switch type {
        case .integer, .decimal, .boolean:
            guard storageClasses || type == .boolean else { return }
            let valid = TypedParse.Classified.valid
            for r in 0 ..< min(column.count, state.count) where state[r] == valid {
                let tag = column[r].tag
                if storageClasses ? tag == .text || tag == .blob : tag == .integer { state[r] = TypedParse.Classified.invalid }
            }
        case .string, .date, .datetime:
            return
        }
    }

    /// A value read as a declared type (``Value/converted(to:)``), except that in a chunk with
    /// storage classes TEXT is never read as an integer, decimal or boolean, and in one without
    /// them a number is never a boolean (what ``restrict(_:_:_:storageClasses:)`` does for the
    /// engine's checks), so Swift validators see what the rules see.
    /// - Returns: The typed value, or nil when the value is not of the type.
    static func converted(_ value: Value, to type: ValueType, storageClasses: Bool) -> Value? {
        if storageClasses, case .string = value, type == .integer || type == .decimal || type == .boolean { return nil }
        if !storageClasses, case .integer = value, type == .boolean { return nil }
        return value.converted(to: type)
    }
}
