/// Where a record is: file and line, or database table and rowid.
public struct RecordLocation: Sendable, Equatable, Hashable {
    /// The input path as the user wrote it (`people.csv`, `../data/app.sqlite`).
    public var path: String
    /// The 1-based line where the record starts (CSV, XML).
    public var line: Int?
    /// The table (SQLite).
    public var table: String?
    /// The rowid or integer primary key (SQLite).
    public var rowid: Int64?
    /// The 1-based record ordinal within the input; 0 for a finding about the whole input
    /// (a table rule).
    public var record: Int

    public init(path: String, line: Int? = nil, table: String? = nil, rowid: Int64? = nil, record: Int) {
        self.path = path
        self.line = line
        self.table = table
        self.rowid = rowid
        self.record = record
    }

    /// Compiler-style: `people.csv:1043`, `app.sqlite:people:rowid=1043`, `feed.json:#17`;
    /// just the path for the whole input.
    public var description: String {
        if let line { return "\(path):\(line)" }
        if let table, let rowid { return "\(path):\(table):rowid=\(rowid)" }
        return record == 0 ? path : "\(path):#\(record)"
    }
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
