/// Reading values from chunk cells and text.
extension Value {
    /// The value of one cell of a chunk.
    ///
    /// `.missing` is `.null`; text stays `.string` (use ``converted(to:)`` to read it as a
    /// declared type); SQLite's typed cells become `.integer` and `.decimal`; a blob becomes
    /// `.string` of its bytes decoded as UTF-8 (as ``RecordChunk/string(_:)`` shows it); lists
    /// and maps are read recursively.
    /// - Parameters:
    ///   - cell: A cell of `chunk` (a column entry or an element of one of its composites).
    ///   - chunk: The chunk that owns the cell's bytes and composites.
    /// - Complexity: O(size of the value); allocates. For hooks and compound constraints,
    ///   not for the per-column hot loops of the engine.
    public init(cell: Cell, in chunk: RecordChunk) {
        self.init(cell: cell, in: chunk, depth: 0)
    }

    private init(cell: Cell, in chunk: RecordChunk, depth: Int) {
        switch cell.tag {
        case .missing:
            self = .null
        case .text, .blob:
            let start = Int(cell.payload)
            let end = start + Int(cell.length)
            // A cell that points outside the buffer is a reader bug; read it as null rather than trap.
            guard start >= 0, cell.length >= 0, end <= chunk.bytes.count else {
                self = .null
                return
            }
            self = .string(String(decoding: chunk.bytes[start ..< end], as: UTF8.self))
        case .integer:
            self = .integer(cell.integerValue)
        case .real:
            self = .decimal(cell.realValue)
        case .list, .map:
            // Composites cannot contain themselves through the builder's API, but a
            // hand-built chunk could; the depth limit keeps a cycle from recursing forever.
            guard cell.payload >= 0, Int(cell.payload) < chunk.composites.count, depth < 64 else {
                self = .null
                return
            }
            switch chunk.composites[Int(cell.payload)] {
            case .list(let items):
                self = .list(items.map { Value(cell: $0, in: chunk, depth: depth + 1) })
            case .map(let entries):
                self = .map(ValueMap(entries.map {
                    ValueMap.Entry(key: $0.key, value: Value(cell: $0.value, in: chunk, depth: depth + 1))
                }))
            }
        }
    }

    /// Parses text strictly as a declared type, with the parsers the engine uses
    /// (`ByteParsers`): `-?[0-9]+` for integers, `-?[0-9]+(\.[0-9]+)?` for decimals,
    /// exactly `true`/`false`, real calendar dates `YYYY-MM-DD`, and date-times
    /// `YYYY-MM-DDTHH:MM:SS[.fff](Z|±HH:MM)`.
    /// - Parameters:
    ///   - text: The text to parse.
    ///   - type: The declared type; `.string` always succeeds.
    /// - Returns: The typed value, or `nil` when the text is not of the type.
    public static func parse(_ text: String, as type: ValueType) -> Value? {
        if type == .string { return .string(text) }
        var text = text
        return text.withUTF8 { parse(utf8: $0, as: type) }
    }

    /// Parses UTF-8 text strictly as a declared type (see ``parse(_:as:)``).
    public static func parse(utf8 p: UnsafeBufferPointer<UInt8>, as type: ValueType) -> Value? {
        switch type {
        case .string:
            return .string(String(decoding: p, as: UTF8.self))
        case .integer:
            let r = ByteParsers.integer(p)
            return r.valid ? .integer(r.value) : nil
        case .decimal:
            let r = ByteParsers.decimal(p)
            return r.valid ? .decimal(r.value) : nil
        case .boolean:
            return ByteParsers.boolean(p).map { .boolean($0) }
        case .date:
            return ByteParsers.date(p).map { .date(days: Int($0)) }
        case .datetime:
            return ByteParsers.datetime(p).map { .datetime(seconds: $0) }
        }
    }

    /// This value read as a declared type, with the engine's rules (`ChunkEvaluator`):
    ///
    /// | type | accepts |
    /// | --- | --- |
    /// | string | any scalar; typed scalars as their canonical text (`12`, `2020-01-31`) |
    /// | integer | `.integer`; `.string` parsed strictly |
    /// | decimal | `.decimal`; `.integer` (as a Double); `.string` parsed strictly |
    /// | boolean | `.boolean`; `.integer` 0 or 1 (SQLite's booleans); `.string` `true`/`false` |
    /// | date | `.date`; `.string` parsed strictly |
    /// | datetime | `.datetime`; `.string` parsed strictly |
    ///
    /// `.null`, lists and maps are not of any scalar type.
    /// - Returns: The value in the type's own case (`.string` for `.string`), or `nil`.
    public func converted(to type: ValueType) -> Value? {
        switch (self, type) {
        case (.null, _), (.list, _), (.map, _):
            return nil
        case (.string, .string):
            return self
        case (_, .string):
            return .string(description)
        case (.string(let s), _):
            return Value.parse(s, as: type)
        case (.integer, .integer), (.decimal, .decimal), (.boolean, .boolean), (.date, .date),
             (.datetime, .datetime):
            return self
        case (.integer(let i), .decimal):
            return .decimal(Double(i))
        case (.integer(let i), .boolean):
            return i == 0 || i == 1 ? .boolean(i == 1) : nil
        default:
            return nil
        }
    }

    /// The numeric value of `.integer`, `.decimal` or numeric text, or `nil`.
    public var number: Double? {
        switch self {
        case .integer(let i): return Double(i)
        case .decimal(let d): return d
        case .string:
            if case .decimal(let d)? = converted(to: .decimal) { return d }
            return nil
        default: return nil
        }
    }
}
