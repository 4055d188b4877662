/// A batch of records in columnar layout: one `[Cell]` per column, text as UTF-8 bytes.
///
/// Readers build chunks with ``RecordChunkBuilder``; the engine evaluates chunks in parallel,
/// so a chunk is an immutable `Sendable` value that owns all its bytes.
public struct RecordChunk: Sendable {
    /// The 0-based ordinal of this chunk's first record within its source.
    public var firstRecord: Int
    /// The number of records.
    public var count: Int
    /// All text and blob bytes of the chunk; `.text` cells point into it.
    public var bytes: [UInt8]
    /// Column-major cells: `columns[c][r]` is field `c` of record `r`.
    public var columns: [[Cell]]
    /// Per record: where it starts in the source (a line number for CSV and XML, a rowid for
    /// SQLite), interpreted with the reader's ``LocationStyle``.
    public var locations: [Int64]
    /// Lists and maps referenced by `.list` and `.map` cells.
    public var composites: [Composite]
    /// Structural problems the reader found in records of this chunk (ragged CSV rows...).
    public var issues: [RecordIssue]
    /// Whether cells carry their source's storage class (SQLite): a declared integer, decimal
    /// or boolean then accepts only INTEGER (or REAL) cells, never TEXT that spells a number.
    /// False for text formats (CSV, XML), whose values are all text.
    public var storageClasses = false
    /// Per record, its 1-based ordinal in the source, when the records are not consecutive (a
    /// pushed-down read skips the records that passed in the database); nil otherwise.
    public var ordinals: [Int]? = nil

    /// The 1-based ordinal of record `row` in its source.
    @inline(__always)
    public func ordinal(_ row: Int) -> Int { ordinals?[row] ?? firstRecord + row + 1 }

    public init(firstRecord: Int, count: Int, bytes: [UInt8], columns: [[Cell]],
                locations: [Int64], composites: [Composite] = [], issues: [RecordIssue] = []) {
        self.firstRecord = firstRecord
        self.count = count
        self.bytes = bytes
        self.columns = columns
        self.locations = locations
        self.composites = composites
        self.issues = issues
    }

    /// The UTF-8 text of a `.text` cell (or the canonical text of an integer or real), for
    /// findings and reports. Not for hot paths.
    public func string(_ cell: Cell) -> String? {
        switch cell.tag {
        case .missing: return nil
        case .text, .blob:
            let start = Int(cell.payload)
            return String(decoding: bytes[start ..< start + Int(cell.length)], as: UTF8.self)
        case .integer: return String(cell.integerValue)
        case .real: return ValueText.canonical(cell.realValue)
        case .list, .map:
            guard cell.payload >= 0, Int(cell.payload) < composites.count else { return nil }
            switch composites[Int(cell.payload)] {
            case .list(let items):
                return "[" + items.map { string($0) ?? "null" }.joined(separator: ", ") + "]"
            case .map(let entries):
                return "{" + entries.map { "\($0.key): \(string($0.value) ?? "null")" }
                    .joined(separator: ", ") + "}"
            }
        }
    }
}

/// A structural problem in one record, found by the reader (not by a rule): a ragged CSV
/// row, bytes that are not UTF-8. It becomes a finding of the reader's ``StructuralRule``.
public struct RecordIssue: Sendable, Equatable {
    /// The record's index within its chunk.
    public var row: Int
    /// The ``StructuralRule/id`` this issue belongs to.
    public var ruleID: String
    /// The offending value, if there is one to show.
    public var value: String?
    /// Parameters substituted into the rule's message template (`{fields}`, `{expected}`...).
    public var parameters: [String: String]
    /// When true, the record is not evaluated by any other rule (its fields cannot be trusted).
    public var excludesRecord: Bool

    public init(row: Int, ruleID: String, value: String? = nil,
                parameters: [String: String] = [:], excludesRecord: Bool = true) {
        self.row = row
        self.ruleID = ruleID
        self.value = value
        self.parameters = parameters
        self.excludesRecord = excludesRecord
    }
}

/// Appends records to a chunk under construction.
///
/// Call ``beginRecord(location:)`` once per record, then set the fields that are present;
/// fields not set stay `.missing`.
public struct RecordChunkBuilder {
    public private(set) var chunk: RecordChunk
    public let columnCount: Int

    /// - Parameters:
    ///   - columnCount: The number of fields in the reader's schema.
    ///   - firstRecord: The ordinal of the first record this chunk will hold.
    ///   - capacity: The expected number of records (a hint).
    public init(columnCount: Int, firstRecord: Int, capacity: Int = 0) {
        self.columnCount = columnCount
        var columns = [[Cell]]()
        columns.reserveCapacity(columnCount)
        for _ in 0 ..< columnCount {
            var column = [Cell]()
            column.reserveCapacity(capacity)
            columns.append(column)
        }
        var locations = [Int64]()
        locations.reserveCapacity(capacity)
        chunk = RecordChunk(firstRecord: firstRecord, count: 0, bytes: [], columns: columns,
                            locations: locations)
    }

    /// The number of records begun so far.
    @inlinable public var count: Int { chunk.count }

    /// Starts a new record whose fields are all missing.
    public mutating func beginRecord(location: Int64) {
        for c in 0 ..< columnCount { chunk.columns[c].append(.missing) }
        chunk.locations.append(location)
        chunk.count += 1
    }

    /// Sets a field of the current record to UTF-8 text (copied into the chunk).
    public mutating func setText<C: Collection>(_ column: Int, _ utf8: C) where C.Element == UInt8 {
        let offset = chunk.bytes.count
        chunk.bytes.append(contentsOf: utf8)
        chunk.columns[column][chunk.count - 1] = .text(offset: offset, length: chunk.bytes.count - offset)
    }

    /// Sets a field of the current record to a string.
    public mutating func setText(_ column: Int, _ string: String) {
        setText(column, string.utf8)
    }

    /// Sets a field of the current record to a ready-made cell (integer, real, missing).
    public mutating func set(_ column: Int, _ cell: Cell) {
        chunk.columns[column][chunk.count - 1] = cell
    }

    /// Appends bytes to the chunk's buffer and returns a `.text` cell for them, without
    /// assigning it (for list and map elements).
    public mutating func appendTextCell<C: Collection>(_ utf8: C) -> Cell where C.Element == UInt8 {
        let offset = chunk.bytes.count
        chunk.bytes.append(contentsOf: utf8)
        return .text(offset: offset, length: chunk.bytes.count - offset)
    }

    /// Sets a field of the current record to a list or map.
    public mutating func setComposite(_ column: Int, _ composite: Composite) {
        let tag: ValueTag
        switch composite {
        case .list: tag = .list
        case .map: tag = .map
        }
        chunk.composites.append(composite)
        chunk.columns[column][chunk.count - 1] = Cell(tag: tag, payload: Int64(chunk.composites.count - 1))
    }

    /// Records a structural problem of the current record.
    public mutating func addIssue(ruleID: String, value: String? = nil,
                                  parameters: [String: String] = [:], excludesRecord: Bool = true) {
        chunk.issues.append(RecordIssue(row: chunk.count - 1, ruleID: ruleID, value: value,
                                        parameters: parameters, excludesRecord: excludesRecord))
    }

    /// Direct access for readers that fill the buffers themselves (hot paths).
    public var unsafeChunk: RecordChunk {
        _read { yield chunk }
        _modify { yield &chunk }
    }

    /// Finishes the chunk.
    public func build() -> RecordChunk { chunk }
}
