/// A Core Data managed object model as Xcode's model editor saves it (the `contents` XML of a
/// `.xcdatamodel` folder): what `auditor import coredata` turns into a rules file.
///
/// Only what the import needs is kept; everything else the file says is either ignored on
/// purpose (layout, code generation) or listed in ``notes`` by the importer, never dropped in
/// silence.
public struct CoreDataModel: Sendable {
    /// The model file that was read (`…/Shop 2.xcdatamodel/contents`), for messages.
    public var path: String
    /// The version folder's name (`Shop 2.xcdatamodel`).
    public var versionName: String
    /// `userDefinedModelVersionIdentifier` (Xcode's "Core Data Model Identifier"), if set.
    public var versionIdentifier: String?
    /// The entities in file order.
    public var entities: [Entity]
    /// Model-level fetch requests (`<fetchRequest>` outside entities).
    public var fetchRequests: [FetchRequest]
    /// Elements and attributes of the file the importer does not understand, with their lines.
    public var unknown: [Located]

    /// A note tied to a line of the model file.
    public struct Located: Sendable, Equatable {
        /// 1-based line in the model file.
        public var line: Int
        /// What was found.
        public var text: String
    }

    /// One `<entity>`.
    public struct Entity: Sendable {
        public var name: String
        public var parent: String?
        public var isAbstract: Bool
        public var attributes: [Attribute]
        public var relationships: [Relationship]
        /// Each uniqueness constraint's property names (composite ones have several).
        public var uniquenessConstraints: [[String]]
        public var fetchedProperties: [FetchRequest]
        public var line: Int
    }

    /// One `<attribute>`.
    public struct Attribute: Sendable {
        public var name: String
        /// `attributeType`: `Integer 16`, `String`, `Date`...
        public var type: String
        public var isOptional: Bool
        public var isTransient: Bool
        public var isDerived: Bool
        public var minValue: String?
        public var maxValue: String?
        public var minDate: String?
        public var maxDate: String?
        public var pattern: String?
        public var line: Int
    }

    /// One `<relationship>`.
    public struct Relationship: Sendable {
        public var name: String
        public var destination: String
        public var inverse: String?
        public var isToMany: Bool
        public var isOptional: Bool
        public var isOrdered: Bool
        public var isTransient: Bool
        public var minCount: Int?
        public var maxCount: Int?
        /// `Nullify`, `Cascade`, `Deny`, `No Action` (Xcode omits `Nullify`? no: it writes it).
        public var deletionRule: String
        public var line: Int
    }

    /// A fetch request or a fetched property's request: an entity and a predicate.
    public struct FetchRequest: Sendable {
        public var name: String
        public var entity: String
        public var predicate: String?
        public var line: Int
    }

    /// The entity named `name`.
    public func entity(_ name: String) -> Entity? { entities.first { $0.name == name } }

    /// The root of `entity`'s inheritance chain (the entity whose table it shares).
    public func root(of entity: Entity) -> Entity {
        var current = entity
        var seen: Set<String> = [entity.name]
        while let parent = current.parent, let next = self.entity(parent), seen.insert(next.name).inserted {
            current = next
        }
        return current
    }

    /// `entity` and every entity below it, depth first.
    public func descendants(of entity: Entity) -> [Entity] {
        var result = [entity]
        for child in entities where child.parent == entity.name && child.name != entity.name {
            result += descendants(of: child)
        }
        return result
    }
}
