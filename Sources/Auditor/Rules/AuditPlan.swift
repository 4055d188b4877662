/// The compiled, immutable form of a rules file: every name checked, every constant parsed,
/// every message template parsed. Bound to a reader's schema with `EntityPlan.bind(schema:structural:)`.
public struct AuditPlan: Sendable {
    public var rulesPath: String
    package var sources: [SourceSpec]
    package var entities: [EntityPlan]
    /// The messages the plan was compiled with (structural rules of readers use it too).
    public var catalog: MessageCatalog = .english
    /// The history database the rules file names (`history:`), relative to the current
    /// directory; `--history` overrides it.
    public var historyPath: String?
    /// The sources' option blocks, decoded once by the readers' factories
    /// (`ReaderRegistry.decodeOptions(_:)`); readers are made with these. Nil until decoded:
    /// ``AuditEngine/run(_:)`` then decodes them itself, once.
    package var readerOptions: SourceOptions?

    package func source(named name: String) -> SourceSpec? {
        sources.first { $0.name == name }
    }

    /// Keeps the sources' decoded option blocks and drops the raw ones, so that readers are
    /// made from the typed options only (nothing decodes a block again).
    /// - Parameter options: What `ReaderRegistry.decodeOptions(_:)` made of the sources.
    package mutating func adopt(_ options: SourceOptions) {
        readerOptions = options
        for i in sources.indices { sources[i].options = [:] }
    }
}

/// One rule id of an entity: the unit that is counted (a record counts at most once per id).
package struct RuleInfo: Sendable, Equatable {
    public var id: String
    public var entity: String?
    public var source: String
    public var attribute: String?
    /// The constraint kinds behind this id (`minLength`, `maxLength`).
    public var kinds: [String]
    public var severity: Severity
    public var code: Int
    /// What the rule requires, one phrase per constraint.
    public var summaries: [String]
    /// How many violations are tolerated.
    public var threshold = Threshold()
    /// Where the rule is declared in the rules file.
    public var definedAt: ConfigMark?
    /// `description:` of the rule (or of its attribute), shown with the rule.
    public var description: String? = nil
    /// `hint:`: how to fix a violation, shown after each finding's message.
    public var hint: String? = nil
}

/// One entity's compiled rules.
package struct EntityPlan: Sendable {
    public var name: String
    public var source: String
    public var key: [String]
    /// Rule ids in report order (structural rules are added when bound to a reader).
    public var rules: [RuleInfo]
    public var attributes: [AttributePlan]
    /// Every compiled check; `AttributePlan.checks` index into it.
    public var checks: [Check]
    /// Uniqueness and reference rules, evaluated per record.
    public var keyRules: [KeyRule] = []
    /// Keys other entities reference: their key sets are built while this entity is read.
    public var providedKeys: [KeyShape] = []
    /// Counts of referencing records per record of this entity.
    public var cardinality: [CardinalityRule] = []
    public var tableRules: [TableRule] = []
    /// Delete rules of this entity's `from:` relationships (deny checks live here).
    public var deleteRules: [DeleteRuleCheck] = []
    /// Per reference key rule of this (child) entity: the nullify/cascade check, if any.
    public var childDeleteChecks: [Int: (check: Int, rule: DeleteRule, parent: String)] = [:]
    /// True when a check needs the previous snapshot (`on:`, immutable, transitions, delete rules).
    public var usesLifecycle: Bool {
        checks.contains { $0.scope != nil } || !deleteRules.isEmpty || !childDeleteChecks.isEmpty
    }
    /// True when `columns:` rules watch this entity's schema: a declared attribute that the
    /// input lacks is then read as missing (and reported by that rule), not a rules error.
    public var toleratesMissingColumns = false
    /// The Swift validators the rules file names for this entity (`validators:`).
    public var validators: [DeclaredValidator] = []

    /// The attribute names the reader must provide, in declaration order.
    public var fields: [String] { attributes.map(\.name) }
}

/// One attribute's compiled checks.
package struct AttributePlan: Sendable {
    public var name: String
    public var mark: ConfigMark
    public var type: ValueType
    public var sensitive: Bool
    /// The separator that makes the text a list (`split:`), for validator checks.
    public var split: String?
    /// With `split`, the separator of each item's key and value (`keySeparator:`): a map.
    public var keySeparator: String? = nil
    /// Indexes into ``EntityPlan/checks``: `required` and `type` first when present.
    public var checks: [Int]
}

/// A compiled constraint.
package struct Check: Sendable {
    public enum Test: Sendable {
        case required
        /// `allowsNull: false`: the value is not an explicit null (``Cell/null``).
        case notNull
        /// `allowsMissing: false`: the value is not absent (an explicit null passes).
        case notAbsent
        case type
        case minLength(Int)
        case maxLength(Int)
        case pattern(Pattern)
        /// Allowed values as UTF-8 bytes (text comparison), in declaration order.
        case enumText([[UInt8]])
        /// Allowed values as numbers (integer and decimal attributes), compared exactly.
        case enumNumber(NumberSet)
        /// A bound on the attribute's ordered value (numbers, dates as days, date-times with
        /// their fraction), compared exactly; `inclusive` false for `exclusiveMin`/`exclusiveMax`.
        case lowerBound(OrderedBound, inclusive: Bool)
        case upperBound(OrderedBound, inclusive: Bool)
        case integral
        case unique
        /// A problem flagged by the reader (`csv.row.ragged`).
        case structural(String)
        /// Evaluated through ``EntityPlan/keyRules``, ``EntityPlan/cardinality`` or
        /// ``EntityPlan/tableRules`` (this check carries the rule's slot and message).
        case keyed
        /// A compound, list or map constraint, checked on the value as a ``Value``.
        case validator(any Validator)
        /// A Swift hook registered on the entity (index into its ``EntityHooks/ruleIDs``).
        case hook(Int)
        /// A rule over the whole record (interproperty): `assert` must hold where `when` holds.
        case record(when: CompiledExpression?, assert: CompiledExpression)
        /// The value must not change between snapshots (checked on updated records).
        case immutable
        /// A changed value must follow an allowed transition (checked on updated records).
        case transitions(Transitions)
    }

    public var kind: String
    public var test: Test
    /// Index into ``EntityPlan/rules``.
    public var slot: Int
    /// Index into ``EntityPlan/attributes``, nil for structural checks.
    public var attribute: Int?
    public var message: MessageTemplate
    /// The constraint's parameters for messages (`minLength` → `3`).
    public var parameters: [String: String]
    /// The records it applies to (`on:`); nil for every record of the current snapshot.
    public var scope: LifecycleScope? = nil
    /// The code of this constraint, which its findings carry (`minLength` 1670 and `maxLength`
    /// 1660 under one rule id); nil: the rule's ``RuleInfo/code`` (structural checks, hooks).
    public var code: Int? = nil
}

/// Allowed changes of a status-like value: `draft -> published`; `*` matches any value.
package struct Transitions: Sendable, Equatable {
    /// (from, to) as UTF-8 bytes; nil is the wildcard.
    public var allowed: [(from: [UInt8]?, to: [UInt8]?)]

    public init(allowed: [(from: [UInt8]?, to: [UInt8]?)]) {
        self.allowed = allowed
    }

    public func allows(from old: [UInt8], to new: [UInt8]) -> Bool {
        old == new || allowed.contains { ($0.from == nil || $0.from! == old) && ($0.to == nil || $0.to! == new) }
    }

    public static func == (a: Transitions, b: Transitions) -> Bool {
        a.allowed.count == b.allowed.count && zip(a.allowed, b.allowed).allSatisfy { $0.from == $1.from && $0.to == $1.to }
    }
}

/// A relationship delete rule compiled onto the parent and the child (see ``DeleteRule``).
package struct DeleteRuleCheck: Sendable {
    public var rule: DeleteRule
    /// The referencing entity and its reference key rule.
    public var childEntity: Int
    public var childKeyRule: Int
    /// The check on the parent (deny: one finding per deleted parent still referenced), or
    /// on the child (nullify, cascade: one finding per child that still references one).
    public var check: Int
    public var relationship: String
}
