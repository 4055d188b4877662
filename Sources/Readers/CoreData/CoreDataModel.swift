/// A Core Data managed object model as Xcode's model editor saves it (the `contents` XML of a
/// `.xcdatamodel` folder): what `auditor import coredata` turns into a rules file.
///
/// Only what the import needs is kept; everything else the file says is either ignored on
/// purpose (layout, code generation) or listed in ``notes`` by the importer, never dropped in
/// silence.
package struct CoreDataModel: Sendable {
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
        /// The entity's name (`Person`).
        public var name: String
        /// `parentEntity`: the entity it inherits from (and whose table it shares).
        public var parent: String?
        /// `isAbstract="YES"`: no row may be of this entity itself.
        public var isAbstract: Bool
        /// Its own attributes, in file order (inherited ones stay on the parent).
        public var attributes: [Attribute]
        /// Its own relationships, in file order.
        public var relationships: [Relationship]
        /// Each uniqueness constraint's property names (composite ones have several).
        public var uniquenessConstraints: [[String]]
        /// Its fetched properties, each as its request (named after the property).
        public var fetchedProperties: [FetchRequest]
        /// The line of `<entity>` in the model file.
        public var line: Int
    }

    /// One `<attribute>`.
    public struct Attribute: Sendable {
        /// The attribute's name.
        public var name: String
        /// `attributeType`: `Integer 16`, `String`, `Date`...
        public var type: String
        /// `optional="YES"`; otherwise the value is mandatory (1570).
        public var isOptional: Bool
        /// `transient="YES"`: not stored.
        public var isTransient: Bool
        /// `derived="YES"`: computed by Core Data on save.
        public var isDerived: Bool
        /// `minValueString`/`maxValueString`: a bound for numbers, a length for strings and data.
        public var minValue: String?
        public var maxValue: String?
        /// `minDateTimeInterval`/`maxDateTimeInterval`: seconds since 2001-01-01T00:00:00Z.
        public var minDate: String?
        public var maxDate: String?
        /// `regularExpressionString`.
        public var pattern: String?
        /// The line of `<attribute>` in the model file.
        public var line: Int
    }

    /// One `<relationship>`.
    public struct Relationship: Sendable {
        /// The relationship's name.
        public var name: String
        /// `destinationEntity`.
        public var destination: String
        /// `inverseName`: the destination's relationship back.
        public var inverse: String?
        /// `toMany="YES"`.
        public var isToMany: Bool
        /// `optional="YES"`.
        public var isOptional: Bool
        /// `ordered="YES"` (an ordered to-many).
        public var isOrdered: Bool
        /// `transient="YES"`: not stored.
        public var isTransient: Bool
        /// `minCount`/`maxCount` of a to-many.
        public var minCount: Int?
        public var maxCount: Int?
        /// `deletionRule`: `Nullify` (the default), `Cascade`, `Deny` or `No Action`.
        public var deletionRule: String
        /// The line of `<relationship>` in the model file.
        public var line: Int
    }

    /// A fetch request or a fetched property's request: an entity and a predicate.
    public struct FetchRequest: Sendable {
        /// The request's name (a fetched property's name for a fetched property).
        public var name: String
        /// The entity it fetches.
        public var entity: String
        /// `predicateString`, the NSPredicate format string.
        public var predicate: String?
        /// The line of `<fetchRequest>` in the model file.
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
