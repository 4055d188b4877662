/// The storage class of one value in a ``RecordChunk``.
///
/// Text formats (CSV, XML) produce `.text`; typed sources (SQLite) also produce `.integer`
/// and `.real`. Rules interpret a cell according to the attribute's declared type, so the
/// same rule set audits every format.
public enum ValueTag: UInt8, Sendable {
    /// No value: an empty CSV field (or a configured null value), an absent XML element, SQL NULL,
    /// and also an explicit null (JSON `null`, `xsi:nil="true"`, a CSV `explicitNullValues`
    /// token), which carries the payload 1 (``Cell/null``) so that every rule that treats a
    /// missing value as missing treats both alike; `allowsNull`/`allowsMissing` tell them apart.
    case missing = 0
    /// UTF-8 text stored in the chunk's byte buffer.
    case text
    /// A 64-bit integer (SQLite INTEGER storage class).
    case integer
    /// A double (SQLite REAL storage class).
    case real
    /// A list of cells (repeated XML elements, a split CSV field); see ``RecordChunk/composites``.
    case list
    /// A map of named cells (an XML element with children); see ``RecordChunk/composites``.
    case map
    /// A binary blob stored in the chunk's byte buffer (SQLite BLOB storage class).
    case blob
}

/// One value in a columnar chunk: 16 bytes, no allocation.
///
/// - `.text`, `.blob`: `payload` is the byte offset into ``RecordChunk/bytes``, `length` the byte count.
/// - `.integer`: `payload` is the value.
/// - `.real`: `payload` is the `Double` bit pattern.
/// - `.list`, `.map`: `payload` is an index into ``RecordChunk/composites``.
/// - `.missing`: both zero when the value is absent; `payload` 1 when it is an explicit null
///   (``Cell/null``).
public struct Cell: Sendable, Equatable {
    public var payload: Int64
    public var length: Int32
    public var tag: ValueTag

    @inlinable public init(tag: ValueTag, payload: Int64 = 0, length: Int32 = 0) {
        self.tag = tag
        self.payload = payload
        self.length = length
    }

    /// The missing value: absent (no CSV value under `nullValues`, no XML element, no JSON
    /// key, SQL NULL).
    public static let missing = Cell(tag: .missing)

    /// An explicit null (JSON `null`, `xsi:nil="true"`, a CSV `explicitNullValues` token): a
    /// `.missing` cell with the payload 1, so that everything that checks the tag (every rule
    /// but `allowsNull`/`allowsMissing`) treats it as missing, at no cost on the fast path.
    public static let null = Cell(tag: .missing, payload: 1)

    @inlinable public static func text(offset: Int, length: Int) -> Cell {
        Cell(tag: .text, payload: Int64(offset), length: Int32(truncatingIfNeeded: length))
    }

    @inlinable public static func integer(_ value: Int64) -> Cell {
        Cell(tag: .integer, payload: value)
    }

    @inlinable public static func real(_ value: Double) -> Cell {
        Cell(tag: .real, payload: Int64(bitPattern: value.bitPattern))
    }

    /// Whether the value is missing: absent or an explicit null.
    @inlinable public var isMissing: Bool { tag == .missing }
    /// Whether the value is an explicit null (``Cell/null``), not merely absent.
    @inlinable public var isNull: Bool { tag == .missing && payload == 1 }
    @inlinable public var integerValue: Int64 { payload }
    @inlinable public var realValue: Double { Double(bitPattern: UInt64(bitPattern: payload)) }
}

/// A list or map value referenced by a `.list` or `.map` cell.
public enum Composite: Sendable, Equatable {
    case list([Cell])
    case map([MapEntry])

    public struct MapEntry: Sendable, Equatable {
        public var key: String
        public var value: Cell
        public init(key: String, value: Cell) {
            self.key = key
            self.value = value
        }
    }
}
