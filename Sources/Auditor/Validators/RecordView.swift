/// Where each attribute of an entity is in a chunk, and its declared type: built once per
/// bound reader (names resolve to columns at bind time, never per record).
public struct RecordLayout: Sendable {
    public struct Field: Sendable, Equatable {
        /// The column in the chunk.
        public var column: Int
        /// The declared type; values are read as it when they parse (see ``RecordView``).
        public var type: ValueType?

        public init(column: Int, type: ValueType? = nil) {
            self.column = column
            self.type = type
        }
    }

    public let fields: [String: Field]

    /// - Parameters:
    ///   - columns: Attribute name → column index.
    ///   - types: Attribute name → declared type (attributes not listed are read as they are).
    public init(columns: [String: Int], types: [String: ValueType] = [:]) {
        var fields = [String: Field]()
        for (name, column) in columns { fields[name] = Field(column: column, type: types[name]) }
        self.fields = fields
    }

    /// A layout of every field of a reader's schema (the first column wins for a repeated name).
    public init(schema: Schema, types: [String: ValueType] = [:]) {
        var columns = [String: Int]()
        for (i, name) in schema.fields.enumerated() where columns[name] == nil { columns[name] = i }
        self.init(columns: columns, types: types)
    }

    /// The attribute names, sorted.
    public var names: [String] { fields.keys.sorted() }
}

/// One record of a chunk, read by attribute name: what a record hook
/// (``RecordValidator``, Core Data's `validateForInsert`) sees.
///
/// `view["age"]` is the attribute's value read as its declared type when it parses
/// (`.integer(14)` for the text `14` of an integer attribute), and the value as stored
/// otherwise (`.string("14a")`), so that a hook can tell a wrong value from a missing one
/// (`.null`) and skip both with `guard case .integer(let age) = view["age"]`. An attribute
/// not in the layout reads as `.null`; declare what a hook reads in its `attributes` so the
/// engine checks the names before the run.
///
/// A view holds the chunk (a copy-on-write value): building one per record costs a few
/// reference counts, no copy. In an audit, typed reads come from the engine's one
/// classification of the column for the chunk: a hook does not parse the attribute again.
public struct RecordView: Sendable {
    public let chunk: RecordChunk
    /// The record's index within the chunk.
    public let row: Int
    public let layout: RecordLayout
    /// Typed columns the engine already classified, by chunk column (empty outside an audit).
    let typed: [Int: any TypedValues]
    /// How the record changed since the previous snapshot: `.insert`, `.update` or `.delete`
    /// (a hook scoped with `on:` sees only its events); nil for an unchanged record, and when
    /// the audit does not compare snapshots.
    public let event: RecordEvents?
    private let committed: CommittedRecord?

    /// - Parameters:
    ///   - chunk: The chunk that holds the record.
    ///   - row: The record's index within the chunk.
    ///   - layout: Where each attribute is in the chunk.
    ///   - previous: The record as it was in the previous snapshot, for an update (what
    ///     ``previous`` returns).
    ///   - event: How the record changed (see ``event``).
    public init(chunk: RecordChunk, row: Int, layout: RecordLayout, previous: RecordView? = nil,
                event: RecordEvents? = nil) {
        self.init(chunk: chunk, row: row, layout: layout, typed: [:],
                  committed: previous.map { CommittedRecord(view: $0, changed: nil) }, event: event)
    }

    init(chunk: RecordChunk, row: Int, layout: RecordLayout, typed: [Int: any TypedValues],
         committed: CommittedRecord? = nil, event: RecordEvents? = nil) {
        self.chunk = chunk
        self.row = row
        self.layout = layout
        self.typed = typed
        self.committed = committed
        self.event = event
    }

    /// The record as it was in the previous snapshot, when this one is an update: Core Data's
    /// `committedValuesForKeys`. `previous?["salary"]` reads as `self["salary"]` does. An
    /// audit keeps the previous values of the attributes that update hooks declare (their
    /// `attributes`, an attribute hook's `attribute`): any other reads as `.null`. nil for an
    /// inserted, unchanged or deleted record (a delete hook's view is the deleted record).
    public var previous: RecordView? { committed?.view }

    /// True when the attribute's value differs from the previous snapshot's (compared as the
    /// snapshots are: by stored text, so `7.0` and `7` differ); false without a previous record.
    public func changed(_ name: String) -> Bool {
        guard let committed else { return false }
        if let changed = committed.changed { return changed.contains(name) }
        return committed.view.raw(name) != raw(name)
    }

    /// The record's ordinal within its source (0-based).
    public var record: Int { chunk.ordinal(row) - 1 }

    /// Where the record starts in its source (a line, a rowid), as the reader reports it. In a
    /// source of several files, the file's index is in the bits above bit 48 (`FileLocation` in the core),
    /// and ``record`` counts across the files.
    public var location: Int64 { row < chunk.locations.count ? chunk.locations[row] : 0 }

    /// The attribute's value, typed when its declared type parses it (see the type's docs).
    public subscript(_ name: String) -> Value {
        guard let field = layout.fields[name], let type = field.type else { return raw(name) }
        switch lookup(field, as: type) {
        case .typed(let v): return v
        case .notOfType: return raw(name)
        case .unknown:
            let value = raw(name)
            return StorageClass.converted(value, to: type, storageClasses: chunk.storageClasses) ?? value
        }
    }

    /// What the engine's classification of the field's column says about this row, read as `type`.
    private func lookup(_ field: RecordLayout.Field, as type: ValueType) -> TypedLookup {
        guard !typed.isEmpty, let column = typed[field.column] else { return .unknown }
        return column.lookup(row, as: type, in: chunk)
    }

    /// The attribute's value as stored (text stays `.string`), `.null` when missing or unknown.
    public func raw(_ name: String) -> Value {
        guard let field = layout.fields[name], field.column >= 0, field.column < chunk.columns.count,
              row < chunk.columns[field.column].count else { return .null }
        return Value(cell: chunk.columns[field.column][row], in: chunk)
    }

    /// Whether the attribute is missing: absent or an explicit null (``raw(_:)`` is `.null`).
    public func isMissing(_ name: String) -> Bool { cell(name)?.isMissing ?? true }

    /// Whether the attribute is an explicit null (JSON `null`, `xsi:nil="true"`, a CSV
    /// `explicitNullValues` text), not merely absent: TWTValidation's null as opposed to nil.
    public func isExplicitNull(_ name: String) -> Bool { cell(name)?.isNull ?? false }

    /// The attribute's cell, or `nil` for a name the layout does not know.
    private func cell(_ name: String) -> Cell? {
        guard let field = layout.fields[name], field.column >= 0, field.column < chunk.columns.count,
              row < chunk.columns[field.column].count else { return nil }
        return chunk.columns[field.column][row]
    }

    /// The attribute read as `type`, or `nil` when missing or not of the type (in a chunk with
    /// storage classes, SQLite TEXT is not an integer, decimal or boolean: README "Types").
    public func value(_ name: String, as type: ValueType) -> Value? {
        if let field = layout.fields[name] {
            switch lookup(field, as: type) {
            case .typed(let v): return v
            case .notOfType: return nil
            case .unknown: break
            }
        }
        return StorageClass.converted(raw(name), to: type, storageClasses: chunk.storageClasses)
    }

    /// The attribute as an integer, or `nil`.
    public func integer(_ name: String) -> Int64? {
        if case .integer(let v)? = value(name, as: .integer) { return v }
        return nil
    }

    /// The attribute as a number (integer or decimal), or `nil`.
    public func decimal(_ name: String) -> Double? {
        if case .decimal(let v)? = value(name, as: .decimal) { return v }
        return nil
    }

    /// The attribute as a boolean, or `nil`.
    public func boolean(_ name: String) -> Bool? {
        if case .boolean(let v)? = value(name, as: .boolean) { return v }
        return nil
    }

    /// The attribute as a date (days since 1970-01-01), or `nil`.
    public func date(_ name: String) -> Int? {
        if case .date(let v)? = value(name, as: .date) { return v }
        return nil
    }

    /// The attribute as text (typed values in canonical form), or `nil` when missing.
    public func string(_ name: String) -> String? {
        if case .string(let v)? = value(name, as: .string) { return v }
        return nil
    }

    /// `age=14, has_licence=true` for the named attributes, missing ones as `null`: what a
    /// finding of a record rule shows so that it is readable without a lookup.
    public func describe(_ names: [String]) -> String {
        names.map { "\($0)=\(self[$0])" }.joined(separator: ", ")
    }
}

/// The previous snapshot's copy of an updated record, and which attributes changed (nil:
/// compare the values).
final class CommittedRecord: Sendable {
    let view: RecordView
    let changed: Set<String>?

    init(view: RecordView, changed: Set<String>?) {
        self.view = view
        self.changed = changed
    }
}

/// The outcome of reading one row of a classified column as a type (``TypedValues``).
enum TypedLookup {
    /// The row holds a value of the type: this one.
    case typed(Value)
    /// The row is missing, or its value is not of the type.
    case notOfType
    /// The column cannot tell (another type, a row it did not classify): parse the value.
    case unknown
}

/// A column whose rows were already classified and parsed as a declared type (the engine's
/// typed column of a chunk): what ``RecordView`` reads typed values from instead of parsing.
protocol TypedValues: Sendable {
    /// Row `row` read as `type`, exactly as ``Value/converted(to:)`` (with the storage-class
    /// rule of ``StorageClass/converted(_:to:storageClasses:)``) would read the stored value.
    func lookup(_ row: Int, as type: ValueType, in chunk: RecordChunk) -> TypedLookup
}
