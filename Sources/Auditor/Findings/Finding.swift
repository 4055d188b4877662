/// Where a record is, in terms any source has: the input's path, a locator inside it, and the
/// record's ordinal.
///
/// The locator says how the source itself finds the record: a line (CSV), an element and its
/// line (XML), or a container and a key (an SQLite table and its rowid, a Core Data entity and
/// its `Z_PK`). There is none for a source without lines or keys (an SQL query), nor for a
/// finding about the whole input.
public struct RecordLocation: Sendable, Equatable, Hashable {
    /// The input path as the user wrote it (`people.csv`, `../data/app.sqlite`).
    public var path: String
    /// Where the record is inside the input, in the source's own terms; nil when the source
    /// has no lines or keys (then ``record`` locates it) or for the whole input.
    public var locator: RecordLocator?
    /// The 1-based record ordinal within the input; 0 for a finding about the whole input
    /// (a table rule).
    public var record: Int

    /// Creates a location.
    /// - Parameters:
    ///   - path: The input path as the user wrote it.
    ///   - locator: Where the record is inside the input, if the source can say.
    ///   - record: The 1-based record ordinal; 0 for the whole input.
    public init(path: String, locator: RecordLocator? = nil, record: Int) {
        self.path = path
        self.locator = locator
        self.record = record
    }

    /// A record at a 1-based line of a text file (`people.csv:1043`).
    public init(path: String, line: Int, record: Int) {
        self.init(path: path, locator: .line(line), record: record)
    }

    /// The location of a record that a reader numbered `value` in its ``LocationStyle``.
    /// - Parameters:
    ///   - path: The input path as the user wrote it.
    ///   - style: The reader's ``RecordReader/locationStyle``.
    ///   - value: The record's number from ``RecordChunk/locations``.
    ///   - record: The 1-based record ordinal.
    public init(path: String, style: LocationStyle, value: Int64, record: Int) {
        switch style {
        case .line: self.init(path: path, locator: .line(Int(value)), record: record)
        case .element(let element): self.init(path: path, locator: .element(path: element, line: Int(value)), record: record)
        case .rowid(let table): self.init(path: path, locator: .key(container: table, name: "rowid", value: value), record: record)
        case .key(let container, let name): self.init(path: path, locator: .key(container: container, name: name, value: value),
                                                      record: record)
        case .ordinal: self.init(path: path, record: record)
        case .rowGroup:
            self.init(path: path, locator: .key(container: "rowgroup \(value >> 40)", name: "row", value: value & (1 << 40 - 1)),
                      record: record)
        }
    }

    /// The 1-based line where the record starts, for a source with lines (CSV, XML); nil otherwise.
    public var line: Int? {
        switch locator {
        case .line(let line), .element(_, let line): return line
        case .key, nil: return nil
        }
    }

    /// Compiler-style: `people.csv:1043`, `people.xml:12`, `app.sqlite:people:rowid=1043`,
    /// `Shop.sqlite:Person[Z_PK=42]`, `query.sqlite:#17`; just the path for the whole input.
    public var description: String {
        switch locator {
        case .line(let line), .element(_, let line): return "\(path):\(line)"
        case .key(let container, let name, let value):
            if name == "row" { return "\(path):\(container):row \(value)" }   // Parquet: `rowgroup G:row N`
            return name == "rowid" ? "\(path):\(container):rowid=\(value)" : "\(path):\(container)[\(name)=\(value)]"
        case nil: return record == 0 ? path : "\(path):#\(record)"
        }
    }
}

/// How a source locates one record, in its own terms: the source-neutral part of a
/// ``RecordLocation``.
public enum RecordLocator: Sendable, Hashable {
    /// The 1-based line where the record starts in a text file (CSV).
    case line(Int)
    /// A record element: the `record:` path that selects it (`/people/person`) and the 1-based
    /// line of its start tag (XML).
    case element(path: String, line: Int)
    /// A record in a container by an integer key: an SQLite table and its rowid
    /// (`name` is `rowid`), or a Core Data entity and its primary key (`Person`, `Z_PK`).
    case key(container: String, name: String, value: Int64)
}

/// One violation of one rule by one record: the unit every report is made of.
public struct Finding: Sendable, Equatable {
    public var ruleID: String
    public var code: Int
    public var severity: Severity
    public var entity: String?
    /// The attribute the rule checks, if it checks one.
    public var attribute: String?
    public var location: RecordLocation
    /// The record's key (`id=1043`), if the entity declares one and the record has it.
    public var key: String?
    /// The offending value (masked when the attribute is sensitive), `nil` when missing.
    public var value: String?
    /// The rule's message with its parameters substituted.
    public var message: String
    /// The stable identity of this finding (see `Fingerprint`), when the audit collected them.
    public var fingerprint: UInt64?
    /// Against a baseline: true when the baseline did not have this finding.
    public var isNew: Bool?

    public init(ruleID: String, code: Int, severity: Severity, entity: String?, attribute: String?,
                location: RecordLocation, key: String?, value: String?, message: String) {
        self.ruleID = ruleID
        self.code = code
        self.severity = severity
        self.entity = entity
        self.attribute = attribute
        self.location = location
        self.key = key
        self.value = value
        self.message = message
    }
}
