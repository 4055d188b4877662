/// A key made of attributes of an entity, and how its values are compared.
package struct KeyShape: Sendable, Equatable, Hashable {
    /// Attribute indexes in the entity.
    public var attributes: [Int]
    public var types: [ValueType]

    /// One integer attribute: stored as `Int64` in a ``KeyTable``.
    public var isSingleInteger: Bool { attributes.count == 1 && types[0] == .integer }
}

/// A rule over keys of records: uniqueness (single or composite) or a reference to another
/// entity's key.
package struct KeyRule: Sendable {
    public enum Kind: Sendable {
        case unique
        /// A reference to `providedKey` of entity `entity` (indexes in the plan).
        case reference(entity: Int, providedKey: Int, relationship: String)
    }

    public var kind: Kind
    public var shape: KeyShape
    /// Index into ``EntityPlan/checks`` (its slot, message and parameters).
    public var check: Int
}

/// Counts, on a parent entity, the records of another entity that reference each parent
/// record (Core Data's to-many minimum/maximum counts).
package struct CardinalityRule: Sendable {
    /// The referencing entity and its reference key rule.
    public var childEntity: Int
    public var childKeyRule: Int
    /// The parent's provided key the child references.
    public var providedKey: Int
    public var min: Int?
    public var max: Int?
    /// Indexes into ``EntityPlan/checks`` for the min and max rules.
    public var minCheck: Int?
    public var maxCheck: Int?
    public var relationship: String
}

/// A rule on a whole table.
package struct TableRule: Sendable {
    public enum Kind: Sendable {
        case rowCount(min: Int?, max: Int?)
        case columns(required: [String], allowExtra: Bool)
        /// The newest valid value of `attribute` must be at most `maxAge` seconds old.
        case freshness(attribute: Int, maxAge: Int64)
    }

    public var kind: Kind
    public var check: Int
}
