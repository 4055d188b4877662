/// The options every rule can carry in long form: its id, message, severity, code and tolerance.
package struct RuleOptions: Sendable {
    public var id: String?
    public var message: String?
    public var messageMark: ConfigMark?
    public var severity: Severity?
    public var code: Int?
    public var threshold = Threshold()
    /// `on: [insert, update]`: the lifecycle changes the rule applies to (all current records
    /// when absent). Only constraints and record rules take it.
    public var on: LifecycleScope?
    /// `description:`: what the rule is for, shown with the rule in every report.
    public var description: String?
    /// `hint:`: how to fix a violation (Core Data's recovery suggestion), shown after each
    /// finding's message and kept apart from it in JSON.
    public var hint: String?

    public init() {}
}

/// Which records of a snapshot a rule applies to, compared with the previous snapshot
/// (`--previous`): Core Data's validateForInsert / validateForUpdate / validateForDelete.
package struct LifecycleScope: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// In this snapshot, not in the previous one (every record when there is no previous snapshot).
    public static let inserted = LifecycleScope(rawValue: 1)
    /// In both, with at least one attribute changed.
    public static let updated = LifecycleScope(rawValue: 2)
    /// In the previous snapshot only (rules see the record as it was).
    public static let deleted = LifecycleScope(rawValue: 4)
    /// In both, unchanged.
    public static let unchanged = LifecycleScope(rawValue: 8)
    /// A record of this snapshot that could not be classified (the previous snapshot could
    /// not be read to its end).
    public static let unclassified = LifecycleScope(rawValue: 16)
    /// What a rule without `on:` applies to: every record of this snapshot.
    public static let current: LifecycleScope = [.inserted, .updated, .unchanged, .unclassified]

    /// The words of `on:`.
    public static let words: [(String, LifecycleScope)] = [("insert", .inserted), ("update", .updated), ("delete", .deleted)]

    /// `insert, update`.
    public var description: String {
        Self.words.filter { contains($0.1) }.map(\.0).joined(separator: ", ")
    }
}

/// What a parent's deletion requires of the records that referenced it
/// (Core Data's relationship delete rules), checked between two snapshots.
package enum DeleteRule: String, Sendable, CaseIterable {
    /// A deleted parent must not be referenced any more (Core Data 1600).
    case deny
    /// Children of a deleted parent must have their reference cleared.
    case nullify
    /// Children of a deleted parent must have been deleted with it.
    case cascade
}

/// A rule over a whole record: `when:` makes it conditional, `assert:` must hold.
package struct RecordRuleSpec: Sendable {
    public var mark: ConfigMark
    public var when: (text: String, node: ConfigNode)?
    public var assert: (text: String, node: ConfigNode)
    public var description: String?
    public var options: RuleOptions
}

/// `unique: [a, b]` on an entity: a composite key (nulls excluded, as in SQL).
package struct UniqueKeySpec: Sendable {
    public var attributes: [String]
    public var mark: ConfigMark
    public var options: RuleOptions
}

/// A relationship of an entity: a reference to another entity's key (`references:`), or the
/// inverse side counting the records that reference this one (`from:` with min/max counts).
package struct RelationshipSpec: Sendable {
    public var name: String
    public var mark: ConfigMark
    /// The referencing attributes (`attribute: dept_id` or `attributes: [a, b]`).
    public var attributes: [String]
    /// `references: Department.id` / `Department.(a, b)`: the target entity and its attributes.
    public var references: (entity: String, attributes: [String], mark: ConfigMark)?
    /// `from: Person.department`: the entity and relationship whose references are counted.
    public var from: (entity: String, relationship: String, mark: ConfigMark)?
    public var minCount: (value: Int, options: RuleOptions)?
    public var maxCount: (value: Int, options: RuleOptions)?
    /// Options of the reference rule.
    public var options: RuleOptions
    /// `deleteRule: deny` on a `from:` relationship, with its own rule options.
    public var deleteRule: (rule: DeleteRule, mark: ConfigMark, options: RuleOptions)?
}

/// Rules on a whole table: its size, its columns and how recent its data is.
package struct TableRulesSpec: Sendable {
    public var rowCount: (min: Int?, max: Int?, mark: ConfigMark, options: RuleOptions)?
    public var columns: (required: [String], allowExtra: Bool, mark: ConfigMark, options: RuleOptions)?
    /// `freshness: { attribute: created_at, maxAge: 36h }`: the newest value must be at most
    /// `maxAge` seconds before the audit's reference time (`--as-of`).
    public var freshness: (attribute: String, maxAge: Int64, maxAgeText: String, mark: ConfigMark, options: RuleOptions)?

    public init() {}
}

/// Parses durations like `36h`, `2d`, `90m`, `1w`, `45s`, `1d12h`.
package enum DurationText {
    public static func seconds(_ text: String) -> Int64? {
        var total: Int64 = 0
        var number: Int64 = 0
        var haveDigits = false
        var any = false
        for c in text {
            if let d = c.wholeNumberValue, c.isASCII {
                number = number * 10 + Int64(d)
                haveDigits = true
                if number > 1_000_000_000 { return nil }
                continue
            }
            guard haveDigits else { return nil }
            let unit: Int64
            switch c {
            case "s": unit = 1
            case "m": unit = 60
            case "h": unit = 3600
            case "d": unit = 86400
            case "w": unit = 604800
            default: return nil
            }
            total += number * unit
            number = 0
            haveDigits = false
            any = true
        }
        return any && !haveDigits ? total : nil
    }
}
