import Foundation

extension CoreDataRulesWriter {
    /// The rules entity of a many-to-many join table: `Party_tags`.
    static func joinEntityName(_ join: CoreDataStoreLayout.JoinTable) -> String {
        "\(join.ownerEntity)_\(join.relationship)"
    }

    /// The join entity's two attributes, named after the entities whose `Z_PK` they hold
    /// (`party`, `tag`; `person`, `person2` for a relationship of an entity with itself).
    static func joinAttributeNames(_ join: CoreDataStoreLayout.JoinTable) -> (owner: String, destination: String) {
        let owner = prefix(join.ownerEntity), destination = prefix(join.destinationEntity)
        return (owner, owner == destination ? destination + "2" : destination)
    }

    /// The source and entity of a join table: each row a pair of keys, each key a reference to
    /// a row of its entity (133000 when it points nowhere).
    func joinRules(_ join: CoreDataStoreLayout.JoinTable) -> (String, String) {
        let name = Self.joinEntityName(join)
        let names = Self.joinAttributeNames(join)
        let query = "SELECT " + column("\"\(join.ownerColumn)\"", as: names.owner) + ", "
            + column("\"\(join.destinationColumn)\"", as: names.destination) + " FROM \"\(join.table)\""
        let source = "  \(yamlKey(name)):\n    path: \(yaml(storePath))\n    sqlite:\n      query: \(yaml(query))\n"
        var body = "  \(yamlKey(name)):\n    # the join table of \(join.ownerEntity).\(join.relationship) <<->> \(join.destinationEntity).\(join.inverse)\n"
        body += "    source: \(yamlKey(name))\n    key: [\(yamlKey(names.owner)), \(yamlKey(names.destination))]\n"
        body += "    idPrefix: \(yaml(Self.prefix(name)))\n    attributes:\n"
        body += "      \(yamlKey(names.owner)): { type: integer, required: true }\n"
        body += "      \(yamlKey(names.destination)): { type: integer, required: true }\n"
        body += "    relationships:\n"
        for (attribute, entity) in [(names.owner, join.ownerEntity), (names.destination, join.destinationEntity)] {
            body += "      \(yamlKey(attribute)): { attribute: \(yamlKey(attribute)), references: \(entity).Z_PK, "
                + "code: \(Self.referentialIntegrityCode), message: "
                + yaml("\(join.table) links to \(entity) Z_PK={value}, which the store does not have") + " }\n"
        }
        return (source, body)
    }

    /// Notes about the model as a whole: fetch requests, fetched properties, localizations,
    /// elements the importer does not know.
    mutating func collectModelNotes() {
        for request in model.fetchRequests {
            notes.append("fetch request '\(request.name)' of '\(request.entity)' (line \(request.line))"
                         + (request.predicate.map { ": \($0)" } ?? "")
                         + " (a fetch request selects objects; it is not a constraint)")
        }
        for entity in model.entities {
            for property in entity.fetchedProperties {
                notes.append("fetched property '\(entity.name).\(property.name)' (line \(property.line))"
                             + (property.predicate.map { ": \($0)" } ?? "") + " (computed on fetch, not stored)")
            }
        }
        for item in model.unknown {
            notes.append("\(item.text) (line \(item.line)): not understood")
        }
        let folder = (model.path as NSString).deletingLastPathComponent
        let strings = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasSuffix(".strings") }.sorted()
        for file in strings {
            notes.append("localization '\(file)': its entity and property names and error strings are not turned "
                         + "into a message catalog yet")
        }
    }
}
