/// Where Core Data's SQLite store keeps a model's entities (NSSQLiteStoreType's layout, as
/// `examples/coredata/generate.py` documents it): one table `Z<ROOT>` per inheritance root,
/// `Z_PK`/`Z_ENT`/`Z_OPT`, a column `Z<NAME>` per stored attribute and to-one relationship,
/// and a join table `Z_<n><RELATIONSHIP>` per many-to-many relationship.
package struct CoreDataStoreLayout: Sendable {
    /// The model laid out.
    public var model: CoreDataModel
    /// Entity numbers (`Z_ENT`): the store's `Z_PRIMARYKEY` when a store was read, else the
    /// order of the entity names (what Core Data assigns to a new store).
    public var numbers: [String: Int]

    /// The store's table names, when a store was read: a many-to-many whose join table the
    /// store names from the other side is read from that table.
    public var storeTables: Set<String>?

    /// Lays out `model`, numbering entities from `primaryKeys` (name to `Z_ENT`) when given.
    /// - Parameters:
    ///   - model: The model.
    ///   - primaryKeys: The store's `Z_PRIMARYKEY` (entity name to `Z_ENT`).
    ///   - storeTables: The store's tables.
    public init(model: CoreDataModel, primaryKeys: [String: Int]? = nil, storeTables: Set<String>? = nil) {
        self.model = model
        self.storeTables = storeTables
        if let primaryKeys {
            numbers = primaryKeys
        } else {
            var numbers = [String: Int]()
            for (i, name) in model.entities.map(\.name).sorted().enumerated() { numbers[name] = i + 1 }
            self.numbers = numbers
        }
    }

    /// `Z` + the upper-cased name: a table of a root entity, a column of a property.
    public static func storeName(_ name: String) -> String { "Z" + name.uppercased() }

    /// The table holding `entity`'s rows (its root's).
    public func table(of entity: CoreDataModel.Entity) -> String {
        Self.storeName(model.root(of: entity).name)
    }

    /// The `Z_ENT` values of `entity` and its subentities, and of the concrete ones among them.
    public func entityNumbers(of entity: CoreDataModel.Entity) -> (all: [Int], concrete: [Int]) {
        let family = model.descendants(of: entity)
        let all = family.compactMap { numbers[$0.name] }.sorted()
        let concrete = family.filter { !$0.isAbstract }.compactMap { numbers[$0.name] }.sorted()
        return (all, concrete)
    }

    /// A many-to-many relationship's join table and its two columns, named from the side whose
    /// entity then relationship name sorts first.
    public struct JoinTable: Sendable, Equatable {
        /// `Z_4TAGS`.
        public var table: String
        /// The column holding the owning side's `Z_PK` (`Z_4PARTIES`) and its entity.
        public var ownerColumn: String
        public var ownerEntity: String
        /// The column holding the destination's `Z_PK` (`Z_5TAGS`) and its entity.
        public var destinationColumn: String
        public var destinationEntity: String
        /// The owning side's relationship (`tags`) and its inverse (`parties`).
        public var relationship: String
        public var inverse: String
    }

    /// The join table of `relationship` of `entity` when it is many-to-many, else nil.
    public func joinTable(_ relationship: CoreDataModel.Relationship, of entity: CoreDataModel.Entity) -> JoinTable? {
        guard relationship.isToMany, let inverseName = relationship.inverse,
              let destination = model.entity(relationship.destination),
              let inverse = destination.relationships.first(where: { $0.name == inverseName }),
              inverse.isToMany else { return nil }
        let mine = (entity.name, relationship.name), theirs = (destination.name, inverse.name)
        let sides = [(entity.name, relationship.name, inverse.name, destination.name),
                     (destination.name, inverse.name, relationship.name, entity.name)]
        let ordered = mine <= theirs ? sides : sides.reversed()
        let candidates = ordered.compactMap { side -> JoinTable? in
            let (ownerEntity, owning, other, otherEntity) = side
            guard let n = numbers[ownerEntity], let m = numbers[otherEntity] else { return nil }
            return JoinTable(table: "Z_\(n)\(owning.uppercased())",
                             ownerColumn: "Z_\(n)\(other.uppercased())", ownerEntity: ownerEntity,
                             destinationColumn: "Z_\(m)\(owning.uppercased())", destinationEntity: otherEntity,
                             relationship: owning, inverse: other)
        }
        // The first side's name, unless the store has only the other side's table.
        if let tables = storeTables, let first = candidates.first, !tables.contains(first.table),
           let second = candidates.dropFirst().first, tables.contains(second.table) {
            return second
        }
        return candidates.first
    }

    /// Every join table of the model, once each.
    public var joinTables: [JoinTable] {
        var seen = Set<String>(), result = [JoinTable]()
        for entity in model.entities {
            for relationship in entity.relationships where !relationship.isTransient {
                if let join = joinTable(relationship, of: entity), seen.insert(join.table).inserted {
                    result.append(join)
                }
            }
        }
        return result
    }

    /// The stored attributes (not transient) of `entity` itself, not inherited.
    public static func storedAttributes(_ entity: CoreDataModel.Entity) -> [CoreDataModel.Attribute] {
        entity.attributes.filter { !$0.isTransient }
    }

    /// The to-one relationships of `entity` that have a foreign-key column.
    public static func foreignKeys(_ entity: CoreDataModel.Entity) -> [CoreDataModel.Relationship] {
        entity.relationships.filter { !$0.isToMany && !$0.isTransient }
    }

    /// The columns Core Data gives the table of the hierarchy rooted at `root`.
    public func expectedColumns(root: CoreDataModel.Entity) -> [(column: String, owner: String, property: String)] {
        var result: [(String, String, String)] = []
        for entity in model.descendants(of: root) {
            for attribute in Self.storedAttributes(entity) {
                result.append((Self.storeName(attribute.name), entity.name, attribute.name))
            }
            for relationship in Self.foreignKeys(entity) {
                result.append((Self.storeName(relationship.name), entity.name, relationship.name))
            }
        }
        return result
    }
}
