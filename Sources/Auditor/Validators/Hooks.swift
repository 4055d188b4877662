/// A Swift validator on one attribute of an entity: Core Data's `validate<Key>:error:`.
///
/// The engine reads the attribute through a ``RecordView`` (typed when it parses) and passes
/// it to ``validator``; each violation becomes a finding of rule ``id``, its message named
/// after the attribute (`phones[2] must match...`). Missing values are skipped (as by YAML
/// constraints) unless ``includesMissing``.
///
/// Runs in parallel on chunks: the validator must be pure (see ``Validator``).
public struct AttributeValidator: Sendable {
    /// The rule id in reports; unique among the entity's rules, YAML ones included.
    public var id: String
    public var attribute: String
    public var validator: any Validator
    public var severity: Severity
    /// When set, every violation gets this code; otherwise each keeps its own. The rule's
    /// code in reports is this, or 1550 (NSManagedObjectValidationError).
    public var code: Int?
    /// Whether a missing value (`.null`) is validated too (`RequiredValidator` needs it).
    public var includesMissing: Bool
    /// The changes the hook validates (`[.insert]`, `[.update]`, `[.delete]`, as `on:` in the
    /// rules file); nil: every record of the current snapshot.
    public var on: RecordEvents?

    public init(id: String, attribute: String, severity: Severity = .error, code: Int? = nil,
                includesMissing: Bool = false, on: RecordEvents? = nil, _ validator: any Validator) {
        self.id = id
        self.attribute = attribute
        self.validator = validator
        self.severity = severity
        self.code = code
        self.includesMissing = includesMissing
        self.on = on
    }

    /// The rule's code in reports.
    public var ruleCode: Int { code ?? ValidationCode.generic }

    /// Validates the attribute of one record.
    /// - Returns: The violations, named after the attribute.
    public func validate(_ record: RecordView) -> [Violation] {
        let value = record[attribute]
        if value.isNull, !includesMissing { return [] }
        return validator.validate(value).map {
            var v = $0.named(attribute)
            if let code { v.code = code }
            return v
        }
    }
}

/// A Swift rule over a whole record: Core Data's `validateForInsert`/`validateForUpdate`,
/// the hook for "12 is a valid age and true a valid licence flag, but together they are invalid".
///
/// ```swift
/// RecordValidator(id: "person.licence_age", attributes: ["age", "has_licence"], code: 1550,
///                 message: "{name} is {age} and too young to hold a driving licence.") { r in
///     guard r.boolean("has_licence") == true, let age = r.integer("age") else { return true }
///     return age >= 16
/// }
/// ```
///
/// Runs in parallel on chunks: the closure must be `@Sendable` and pure (capture constants
/// only; no shared state, no I/O), and read only the ``attributes`` it declares.
public struct RecordValidator: Sendable {
    /// The rule id in reports; unique among the entity's rules, YAML ones included.
    public var id: String
    /// The rule's code in reports; violations built by the ``init(id:attributes:code:severity:on:message:summary:test:)``
    /// form carry it.
    public var code: Int
    public var severity: Severity
    /// The attributes the rule reads: checked against the input before the run, and shown
    /// with their values in findings (`age=14, has_licence=true`).
    public var attributes: [String]
    /// What the rule requires, for reports (`age >= 16 when has_licence`).
    public var summary: String
    /// The changes the hook validates, as `on:` in the rules file: `[.insert]` is Core Data's
    /// `validateForInsert`, `[.update]` its `validateForUpdate` (the view's
    /// ``RecordView/previous`` is then the record as it was), `[.delete]` its
    /// `validateForDelete` (the view is the deleted record, read from the previous snapshot).
    /// nil: every record of the current snapshot.
    public var on: RecordEvents?
    private let body: @Sendable (RecordView) -> [Violation]

    /// A record rule whose closure returns the violations itself.
    public init(id: String, attributes: [String], code: Int = ValidationCode.generic, severity: Severity = .error,
                on: RecordEvents? = nil, summary: String? = nil, _ body: @escaping @Sendable (RecordView) -> [Violation]) {
        self.id = id
        self.attributes = attributes
        self.code = code
        self.severity = severity
        self.on = on
        self.summary = summary ?? id
        self.body = body
    }

    /// A record rule whose closure says whether the record is valid; a failure is one
    /// violation (kind `record`) rendered from `message`, whose placeholders are the
    /// attributes the rule reads (`{age}`, typed values in canonical form, `null` when
    /// missing) and `{rule}`, `{code}`, `{values}` (`age=14, has_licence=true`); in an update
    /// hook also `{previous.age}`, the value before the update.
    public init(id: String, attributes: [String], code: Int = ValidationCode.generic, severity: Severity = .error,
                on: RecordEvents? = nil, message: MessageTemplate, summary: String? = nil,
                test: @escaping @Sendable (RecordView) -> Bool) {
        self.init(id: id, attributes: attributes, code: code, severity: severity, on: on, summary: summary) { record in
            guard !test(record) else { return [] }
            var params = ["rule": id, "code": String(code), "values": record.describe(attributes)]
            for a in attributes { params[a] = record[a].description }
            if let previous = record.previous {
                for a in attributes { params["previous." + a] = previous[a].description }
            }
            return [Violation(kind: "record", code: code, template: message, parameters: params).named("record")]
        }
    }

    /// Validates one record.
    public func validate(_ record: RecordView) -> [Violation] { body(record) }
}

/// The changes between two snapshots a hook validates: Core Data's `validateForInsert`,
/// `validateForUpdate` and `validateForDelete`, the `on: [insert, update, delete]` of the rules
/// file. Without a previous snapshot every record is inserted (a first snapshot is all new).
public struct RecordEvents: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    // The bits of the engine's lifecycle classes (inserted 1, updated 2, deleted 4), so that
    // a hook's events are its scope as they are (LifecycleTests check they agree).
    /// A record whose key the previous snapshot does not have.
    public static let insert = RecordEvents(rawValue: 1)
    /// A record in both snapshots with at least one attribute changed.
    public static let update = RecordEvents(rawValue: 2)
    /// A record of the previous snapshot whose key the current one does not have.
    public static let delete = RecordEvents(rawValue: 4)

    /// The event of a record of a lifecycle class (nil for unchanged and unclassified ones).
    init?(class raw: UInt8) {
        guard raw != 0, RecordEvents.all.rawValue & raw == raw else { return nil }
        self.init(rawValue: raw)
    }

    static let all: RecordEvents = [.insert, .update, .delete]
}

extension RecordEvents: CustomStringConvertible {
    /// `insert, update`, as `on:` writes it.
    public var description: String {
        [(RecordEvents.insert, "insert"), (.update, "update"), (.delete, "delete")].filter { contains($0.0) }.map(\.1)
            .joined(separator: ", ")
    }
}
