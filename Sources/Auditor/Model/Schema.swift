/// The fields a reader produces, in column order.
public struct Schema: Sendable, Equatable {
    /// Field names as the source spells them (CSV header, XML field names, SQLite columns).
    public var fields: [String]

    public init(fields: [String]) {
        self.fields = fields
    }

    /// The column index of a field, or `nil`.
    /// - Complexity: O(n); resolve names once at compile time, never per record.
    public func index(of name: String) -> Int? {
        fields.firstIndex(of: name)
    }
}

/// How the per-record location numbers of a source are to be read.
public enum LocationStyle: Sendable, Equatable {
    /// A 1-based physical line of a text file (CSV, XML).
    case line
    /// A 1-based line of an XML file: the start tag of an element that the `record:` path
    /// `path` (`/people/person`) selects.
    case element(path: String)
    /// A row identifier within a table (SQLite rowid or integer primary key).
    case rowid(table: String)
    /// An integer key named `name` within `container`: a Core Data entity and its `Z_PK`
    /// (`Person[Z_PK=42]`).
    case key(container: String, name: String)
    /// A 1-based record ordinal (sources without lines or rowids).
    case ordinal
    /// A row of a Parquet file: the number packs the row group (from 0) in its bits 40 and up
    /// and the row within the group (from 0) in its low 40 bits (`people.parquet:rowgroup 2:row 17`).
    case rowGroup
}
