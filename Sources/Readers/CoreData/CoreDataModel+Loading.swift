import Auditor
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

extension CoreDataModel {
    /// Loads a model from a `.xcdatamodeld` bundle (its current version, named by
    /// `.xccurrentversion`, else the only version) or a single `.xcdatamodel` folder.
    /// - Parameter path: The bundle or folder (or a `contents` file directly).
    /// - Returns: The parsed model.
    /// - Throws: ``AuditError`` `.missingInput` when the path or the version does not exist,
    ///   `.malformedInput` when the XML cannot be parsed or is not a Core Data model.
    public static func load(path: String) throws(AuditError) -> CoreDataModel {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw AuditError(.missingInput, "the model '\(path)' does not exist; give the .xcdatamodeld bundle "
                             + "or a .xcdatamodel folder of your Xcode project", location: path)
        }
        var folder = path
        if !isDirectory.boolValue {
            folder = (path as NSString).deletingLastPathComponent
        } else if path.hasSuffix(".xcdatamodeld") || path.hasSuffix(".xcdatamodeld/") {
            folder = try currentVersion(of: path)
        }
        let contents = (folder as NSString).appendingPathComponent("contents")
        guard let data = fm.contents(atPath: contents) else {
            throw AuditError(.missingInput, "'\(contents)' does not exist or cannot be read; a .xcdatamodel "
                             + "folder holds its model in a file named 'contents'", location: path)
        }
        let delegate = ModelParserDelegate()
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        parser.delegate = delegate
        let ok = parser.parse()
        guard ok, delegate.error == nil, delegate.sawModel else {
            let line = delegate.error?.line ?? parser.lineNumber
            let reason = delegate.error?.text ?? parser.parserError.map { "\($0.localizedDescription)" } ?? "no <model> root element"
            throw AuditError(.malformedInput, "\(contents):\(line): not a Core Data model file (\(reason)); "
                             + "open the model in Xcode and save it again", location: contents)
        }
        return CoreDataModel(path: contents, versionName: (folder as NSString).lastPathComponent,
                             versionIdentifier: delegate.versionIdentifier, entities: delegate.entities,
                             fetchRequests: delegate.fetchRequests, unknown: delegate.unknown)
    }

    /// The current version folder of a `.xcdatamodeld` bundle.
    static func currentVersion(of bundle: String) throws(AuditError) -> String {
        let fm = FileManager.default
        let versions = ((try? fm.contentsOfDirectory(atPath: bundle)) ?? [])
            .filter { $0.hasSuffix(".xcdatamodel") }.sorted()
        let marker = (bundle as NSString).appendingPathComponent(".xccurrentversion")
        if let data = fm.contents(atPath: marker) {
            let plist = try? PropertyListSerialization.propertyList(from: data, format: nil)
            guard let name = (plist as? [String: Any])?["_XCCurrentVersionName"] as? String else {
                throw AuditError(.malformedInput, "\(marker): no _XCCurrentVersionName; pick the current "
                                 + "version in Xcode (Editor > Model Version) or give a .xcdatamodel folder",
                                 location: marker)
            }
            guard versions.contains(name) else {
                throw AuditError(.missingInput, "\(marker) names the version '\(name)', which the bundle lacks; "
                                 + "its versions: \(versions.joined(separator: ", "))", location: marker)
            }
            return (bundle as NSString).appendingPathComponent(name)
        }
        guard versions.count == 1, let only = versions.first else {
            throw AuditError(.missingInput, "\(bundle) has \(versions.count) versions and no .xccurrentversion; "
                             + "give one .xcdatamodel folder (\(versions.joined(separator: ", ")))", location: bundle)
        }
        return (bundle as NSString).appendingPathComponent(only)
    }
}

/// Reads the `contents` XML. Not `Sendable`: used by one parser on one thread.
private final class ModelParserDelegate: NSObject, XMLParserDelegate {
    var sawModel = false
    var versionIdentifier: String?
    var entities: [CoreDataModel.Entity] = []
    var fetchRequests: [CoreDataModel.FetchRequest] = []
    var unknown: [CoreDataModel.Located] = []
    private var stack: [String] = []
    private var constraint: [String]?
    private var fetchedProperty: String?
    /// The first parse error and its line.
    var error: CoreDataModel.Located?

    /// Elements understood, or deliberately ignored (layout and editor state).
    private static let ignored: Set<String> = ["elements", "element", "userInfo", "entry", "configuration",
                                               "memberEntity", "compoundIndexes", "compoundIndex", "index",
                                               "fetchIndex", "fetchIndexElement", "attributeMapping"]

    /// The XML attributes each element may carry that the import reads.
    private static let knownAttributes: [String: Set<String>] = [
        "model": ["userDefinedModelVersionIdentifier"],
        "entity": ["name", "parentEntity", "isAbstract"],
        "attribute": ["name", "attributeType", "optional", "transient", "derived", "derivationExpression",
                      "minValueString", "maxValueString", "minDateTimeInterval", "maxDateTimeInterval",
                      "regularExpressionString", "valueTransformerName", "customClassName"],
        "relationship": ["name", "destinationEntity", "inverseName", "inverseEntity", "toMany", "optional",
                         "ordered", "transient", "minCount", "maxCount", "deletionRule"],
        "fetchRequest": ["name", "entity", "predicateString"],
        "fetchedProperty": ["name", "optional"],
    ]

    /// XML attributes that change nothing about what is stored or valid: editor state, code
    /// generation, Spotlight, CloudKit, migration hints, default values.
    private static let harmless: Set<String> = [
        "type", "documentVersion", "lastSavedToolsVersion", "systemVersion", "minimumToolsVersion", "sourceLanguage",
        "representedClassName", "syncable", "codeGenerationType", "elementID", "renamingIdentifier", "versionHashModifier",
        "usesScalarValueType", "defaultValueString", "defaultDateTimeInterval", "spotlightIndexingEnabled",
        "storedInTruthFile", "indexed", "allowsExternalBinaryDataStorage", "allowsCloudEncryption",
        "preserveValueOnDeletionInPersistentHistory", "isOrdered", "fetchLimit", "fetchBatchSize",
        "resultType", "returnObjectsAsFaults", "includesPendingChanges", "includeSubentities",
        "returnDistinctResults", "includesPropertyValues", "includesSubentities", "uniquenessConstraintsVersion",
        "userDefinedModelVersionIdentifier", "optional", "deletionRule",
    ]

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
                qualifiedName: String?, attributes a: [String: String] = [:]) {
        let line = parser.lineNumber
        let parent = stack.last
        stack.append(name)
        func yes(_ key: String) -> Bool { a[key] == "YES" }
        if let known = Self.knownAttributes[name] {
            for key in a.keys.sorted() where !known.contains(key) && !Self.harmless.contains(key) {
                unknown.append(.init(line: line, text: "the XML attribute '\(key)=\"\(a[key] ?? "")\"' of <\(name)\(a["name"].map { " name=\"\($0)\"" } ?? "")>"))
            }
        }
        switch (parent, name) {
        case (nil, "model"):
            sawModel = true
            versionIdentifier = a["userDefinedModelVersionIdentifier"].flatMap { $0.isEmpty ? nil : $0 }
        case ("model", "entity"):
            entities.append(.init(name: a["name"] ?? "", parent: a["parentEntity"], isAbstract: yes("isAbstract"),
                                  attributes: [], relationships: [], uniquenessConstraints: [],
                                  fetchedProperties: [], line: line))
        case ("entity", "attribute"):
            guard !entities.isEmpty else { return }
            entities[entities.count - 1].attributes.append(.init(
                name: a["name"] ?? "", type: a["attributeType"] ?? "Undefined",
                isOptional: yes("optional"), isTransient: yes("transient"), isDerived: yes("derived"),
                minValue: a["minValueString"], maxValue: a["maxValueString"],
                minDate: a["minDateTimeInterval"], maxDate: a["maxDateTimeInterval"],
                pattern: a["regularExpressionString"], line: line))
        case ("entity", "relationship"):
            guard !entities.isEmpty else { return }
            entities[entities.count - 1].relationships.append(.init(
                name: a["name"] ?? "", destination: a["destinationEntity"] ?? "", inverse: a["inverseName"],
                isToMany: yes("toMany"), isOptional: yes("optional"), isOrdered: yes("ordered"),
                isTransient: yes("transient"),
                minCount: a["minCount"].flatMap { Int($0) }, maxCount: a["maxCount"].flatMap { Int($0) },
                deletionRule: a["deletionRule"] ?? "Nullify", line: line))
        case ("entity", "fetchedProperty"):
            fetchedProperty = a["name"]
        case ("entity", "uniquenessConstraints"), ("uniquenessConstraints", "uniquenessConstraint"):
            if name == "uniquenessConstraint" { constraint = [] }
        case ("uniquenessConstraint", "constraint"):
            constraint?.append(a["value"] ?? "")
        case ("fetchedProperty", "fetchRequest"):
            guard !entities.isEmpty else { return }
            let owner = entities[entities.count - 1]
            entities[entities.count - 1].fetchedProperties.append(.init(
                name: fetchedProperty ?? a["name"] ?? "", entity: a["entity"] ?? owner.name, predicate: a["predicateString"], line: line))
        case ("model", "fetchRequest"):
            fetchRequests.append(.init(name: a["name"] ?? "", entity: a["entity"] ?? "",
                                       predicate: a["predicateString"], line: line))
        default:
            if !Self.ignored.contains(name) && !stack.dropLast().contains(where: Self.ignored.contains) {
                unknown.append(.init(line: line, text: "<\(name)> inside <\(parent ?? "")>"))
            }
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        if error == nil {
            error = .init(line: parser.lineNumber, text: "the XML is not well-formed: \((parseError as NSError).code)")
        }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        stack.removeLast()
        if name == "uniquenessConstraint", let parts = constraint, !entities.isEmpty {
            entities[entities.count - 1].uniquenessConstraints.append(parts)
            constraint = nil
        }
    }
}
