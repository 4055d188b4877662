/// A rules file as written: sources and entities with their constraints, every part
/// remembering where it was written. Produced by ``RulesFileParser``, consumed by
/// ``RuleCompiler``.
public struct RulesSpec: Sendable {
    /// The rules file path as given (diagnostics use it).
    public var path: String
    public var version: Int
    package var sources: [SourceSpec]
    package var entities: [EntitySpec]
    /// `history:` resolved against the rules file's folder (relative to the current directory),
    /// when the file names a history database.
    public var history: String?
    public var historyMark: ConfigMark?
}

/// One input: a path and its format options.
package struct SourceSpec: Sendable {
    public var name: String
    public var mark: ConfigMark
    /// The path as written in the rules file.
    public var path: String
    /// The path relative to the current directory (resolved against the rules file's folder);
    /// the first entry when `path:` is a list.
    public var resolvedPath: String
    public var pathMark: ConfigMark
    /// An explicit `format:`; otherwise the path's extension decides.
    public var format: String?
    public var formatMark: ConfigMark?
    /// Option blocks by format name (`csv: {...}`, `xml: {...}`).
    public var options: [String: ConfigNode]
    /// Every entry of `path:` (a file, a glob or a folder), resolved like ``resolvedPath``; a
    /// source of several files when there are several or one is a glob or folder (``InputSet``).
    public var resolvedPaths: [String] = []
    /// `pushdown: true`: run the rules inside the source's database when its reader can.
    public var pushdown = false

    /// ``resolvedPaths``, or ``resolvedPath`` alone.
    public var entries: [String] { resolvedPaths.isEmpty ? [resolvedPath] : resolvedPaths }
}

/// One entity: a source's records and the rules on them.
package struct EntitySpec: Sendable {
    public var name: String
    public var mark: ConfigMark
    public var source: String
    public var sourceMark: ConfigMark
    /// Attributes that identify a record in findings (`id=1043`).
    public var key: [String]
    public var keyMark: ConfigMark?
    /// The prefix of default rule ids (`idPrefix.attribute.constraint`); the entity name by default.
    public var idPrefix: String
    /// The default severity of the entity's rules.
    public var severity: Severity
    /// The default tolerance of the entity's rules.
    public var threshold: Threshold
    public var attributes: [AttributeSpec]
    /// Composite unique keys.
    public var uniqueKeys: [UniqueKeySpec] = []
    public var relationships: [RelationshipSpec] = []
    /// Rules over whole records (interproperty rules).
    public var recordRules: [RecordRuleSpec] = []
    public var tableRules = TableRulesSpec()
    /// `validators:`: the ids of the Swift validators (``ValidationHooks``) this entity needs.
    public var validators: [DeclaredValidator] = []
}

/// A Swift validator that a rules file names (`validators: [person.licence_age]`): the
/// auditor running the file must carry it, or the run stops before reading (78).
package struct DeclaredValidator: Sendable {
    public var id: String
    public var mark: ConfigMark
}

/// One attribute and its constraints.
package struct AttributeSpec: Sendable {
    public var name: String
    public var mark: ConfigMark
    public var type: ValueType
    /// Values are masked in every report.
    public var sensitive: Bool
    /// `split: ";"`: the text is a list of items separated by this string (for list constraints).
    public var split: String?
    /// The attribute's default message template and severity for its constraints.
    public var message: String?
    public var severity: Severity?
    /// The default tolerance of the attribute's constraints (over the entity's).
    public var threshold: Threshold
    /// In the order written; `required` and `type` come first.
    public var constraints: [ConstraintSpec]
    /// `on:` at the attribute: the default scope of its constraints.
    public var on: LifecycleScope?
    /// `description:` and `hint:` at the attribute: the default of each of its rules.
    public var description: String? = nil
    public var hint: String? = nil
    /// `keySeparator: "="` with `split:`: each item is `key=value`, so the text is a map (for
    /// map constraints): `tel=+47 22;mail=a@b.c`.
    public var keySeparator: String? = nil
}


/// One constraint on an attribute as written: `minLength: 3` or
/// `minLength: { value: 3, id: person.name.length, message: "...", severity: warning, code: 1670 }`.
package struct ConstraintSpec: Sendable {
    public var kind: ConstraintKind
    public var mark: ConfigMark
    /// The constraint's value node (a number, a pattern, a list for `enum`...).
    public var value: ConfigNode
    public var id: String?
    public var message: String?
    public var messageMark: ConfigMark?
    public var severity: Severity?
    public var code: Int?
    public var threshold = Threshold()
    public var on: LifecycleScope?
    /// `description:` and `hint:` of this constraint (see ``RuleOptions``).
    public var description: String?
    public var hint: String?
}
