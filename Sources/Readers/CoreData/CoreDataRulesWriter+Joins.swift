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

    /// What an attribute type reads as in expressions (nil: not usable in a predicate).
    static func kind(of type: String) -> CoreDataPredicate.Kind? {
        switch type {
        case "Integer 16", "Integer 32", "Integer 64", "Decimal", "Double", "Float": return .number
        case "String", "URI", "UUID": return .string
        case "Boolean": return .boolean
        case "Date": return .datetime
        default: return nil
        }
    }

    /// The record rules of the fetch requests of `entity` (and its fetched properties): each
    /// translated predicate becomes an `info` rule that counts the records it does not match;
    /// one outside the translated subset is a note.
    mutating func fetchRules(_ entity: CoreDataModel.Entity, kinds: [String: CoreDataPredicate.Kind?]) -> String {
        let translator = CoreDataPredicate(attributes: kinds.compactMapValues { $0 })
        var rules = ""
        let requests = model.fetchRequests.filter { $0.entity == entity.name }.map { ($0, "fetch request") }
            + entity.fetchedProperties.map { ($0, "fetched property") }
        for (request, what) in requests {
            let label = "\(what) '\(request.name)' of '\(entity.name)' (line \(request.line))"
            guard let predicate = request.predicate, !predicate.isEmpty else {
                notes.append("\(label): no predicate")
                continue
            }
            do throws(CoreDataPredicate.Unsupported) {
                let expression = try translator.translate(predicate)
                let id = Self.prefix(entity.name) + ".fetch." + request.name.filter { $0.isLetter || $0.isNumber || $0 == "_" }
                rules += "      - id: \(yaml(id))\n        severity: info\n        assert: \(yaml(expression))\n"
                    + "        message: \(yaml("not matched by the \(what) '\(request.name)' (\(predicate))"))\n"
            } catch {
                notes.append("\(label): \(predicate) (not translated: \(error.description))")
            }
        }
        return rules.isEmpty ? "" : "    rules:\n" + rules
    }

    /// Notes about the model as a whole: fetch requests, fetched properties, localizations,
    /// elements the importer does not know.
    mutating func collectModelNotes() {
        let known = Set(model.entities.map(\.name))
        for request in model.fetchRequests where !known.contains(request.entity) {
            notes.append("fetch request '\(request.name)' (line \(request.line)): its entity '\(request.entity)' is not in the model")
        }
        for item in model.unknown {
            notes.append("\(item.text) (line \(item.line)): not understood")
        }
    }

    /// The model's `.strings` files: in its version folder, and in `*.lproj` folders beside the
    /// version folder, the bundle, or the bundle's folder (where an Xcode project keeps them).
    static func localizations(of model: CoreDataModel) -> [String] {
        let fm = FileManager.default
        let version = (model.path as NSString).deletingLastPathComponent
        let bundle = (version as NSString).deletingLastPathComponent
        var found = [String]()
        for folder in [version, bundle, (bundle as NSString).deletingLastPathComponent] {
            let names = (try? fm.contentsOfDirectory(atPath: folder)) ?? []
            for name in names.sorted() {
                let path = (folder as NSString).appendingPathComponent(name)
                if name.hasSuffix(".strings") && folder == version { found.append(path) }
                if name.hasSuffix(".lproj") {
                    for inner in ((try? fm.contentsOfDirectory(atPath: path)) ?? []).sorted() where inner.hasSuffix("Model.strings") {
                        found.append((path as NSString).appendingPathComponent(inner))
                    }
                }
            }
        }
        return Array(Set(found)).sorted()
    }
}
