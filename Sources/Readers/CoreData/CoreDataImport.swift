import Auditor
import Foundation

/// `auditor import coredata`: a rules file from a Core Data model, with the model's
/// disagreements with its SQLite store when one is given.
package struct CoreDataImport {
    /// The rules file's text.
    public var rules: String
    /// What the model has that the rules do not check (printed as notes).
    public var notes: [String]
    /// Where the model and the store disagree (the rules follow the model).
    public var problems: [String]
    /// The model version's name, for messages.
    public var versionName: String
    /// The model's localizations as message catalogs (`messages/de.yml` beside the rules
    /// file, so that `--locale de` finds them): display names and translated error strings.
    /// Empty without a rules path (nowhere to put them; a note says so).
    public var catalogs: [(path: String, text: String)] = []
    /// The files the import read: the version's `contents`, the bundle's `.xccurrentversion`
    /// and the localizations. No output may replace them.
    public var inputs: [String]

    /// Reads the model (and the store) and writes the rules.
    /// - Parameters:
    ///   - model: A `.xcdatamodeld` bundle (its current version) or one `.xcdatamodel` folder.
    ///   - store: The Core Data SQLite store the rules audit, read only.
    ///   - rulesPath: Where the rules file goes (the store's path is written relative to its
    ///     folder); nil for standard output.
    /// - Throws: ``AuditError`` from the model and the store (65 malformed, 66 missing, 75 locked).
    public init(model: String, store: String?, rulesPath: String?) throws {
        let loaded = try CoreDataModel.load(path: model)
        versionName = loaded.versionName
        let marker = (model as NSString).appendingPathComponent(".xccurrentversion")
        let localizations = CoreDataRulesWriter.localizations(of: loaded)
        inputs = [loaded.path] + (FileManager.default.fileExists(atPath: marker) ? [marker] : []) + localizations
        problems = []
        var layout = CoreDataStoreLayout(model: loaded)
        if let store {
            let info = try CoreDataStore.read(path: store)
            layout = CoreDataStoreLayout(model: loaded, primaryKeys: info.numbers, storeTables: Set(info.tables.keys))
            problems = info.disagreements(with: layout)
            if let mine = loaded.versionIdentifier, !info.versionIdentifiers.isEmpty,
               !info.versionIdentifiers.contains(mine) {
                problems.append("the store was written with the model version identifier\(info.versionIdentifiers.count == 1 ? "" : "s") "
                                + info.versionIdentifiers.map { "'\($0)'" }.joined(separator: ", ")
                                + ", the model '\(loaded.versionName)' is '\(mine)'; import the version the app used")
            }
        }
        var writer = CoreDataRulesWriter(layout: layout, storePath: Self.storePathForRules(model: model, store: store, rulesPath: rulesPath))
        rules = writer.render()
        notes = writer.notes
        try localize(localizations, rulesPath: rulesPath)
    }

    /// Fills ``catalogs`` from the model's `<lang>.lproj/<Model>Model.strings` files.
    private mutating func localize(_ files: [String], rulesPath: String?) throws {
        guard !files.isEmpty else { return }
        guard let rulesPath else {
            notes += files.map { "localization '\($0)': written as a message catalog only with -o RULES (beside the rules file)" }
            return
        }
        let registry = StandardReaders.registry
        let spec = try RulesFileParser(formats: registry.formats, environment: [:]).parse(rules, path: rulesPath)
        let plan = try RuleCompiler.compile(spec)
        let entities = Dictionary(plan.entities.map { ($0.name, Set($0.attributes.map(\.name))) }) { a, _ in a }
        var messages = [String: String]()
        for entity in plan.entities {
            for check in entity.checks { messages[entity.rules[check.slot].id] = check.message.source }
        }
        let folder = (rulesPath as NSString).deletingLastPathComponent
        for file in files {
            let lproj = ((file as NSString).deletingLastPathComponent as NSString).lastPathComponent
            guard lproj.hasSuffix(".lproj") else {
                notes.append("localization '\(file)': not in a <language>.lproj folder, so its language is unknown")
                continue
            }
            let locale = String(lproj.dropLast(".lproj".count))
            let data = try Data(contentsOf: URL(fileURLWithPath: file))
            let strings = try CoreDataStrings(data: data, path: file)
            let (text, unused) = strings.catalog(locale: locale, source: "\(lproj)/\((file as NSString).lastPathComponent)",
                                                 entities: entities, messages: messages)
            notes += unused.map { "localization '\(file)': \($0)" }
            catalogs.append(((folder as NSString).appendingPathComponent("messages/\(locale).yml"), text))
        }
    }

    /// The store's path as the rules file names it: relative to the rules file's folder when
    /// the store is below it, else absolute; `<Model>.sqlite` beside the rules without a store.
    static func storePathForRules(model: String, store: String?, rulesPath: String?) -> String {
        guard let store else {
            let base = (model as NSString).lastPathComponent
            return (base as NSString).deletingPathExtension + ".sqlite"
        }
        let absolute = URL(fileURLWithPath: store).standardizedFileURL.path
        let folder = URL(fileURLWithPath: rulesPath ?? "rules.yml").standardizedFileURL.deletingLastPathComponent().path
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        return absolute.hasPrefix(prefix) ? String(absolute.dropFirst(prefix.count)) : absolute
    }

    /// What to print on stderr: a note per thing not imported (unless quiet), an error per
    /// disagreement between the model and the store, and the closing advice when there is one.
    package func messages(store: String?, quiet: Bool) -> [String] {
        var lines = quiet ? [] : notes.map { "auditor: note: \(versionName): not imported: \($0)" }
        lines += problems.map { "auditor: error: \(store ?? ""): \($0)" }
        if !problems.isEmpty {
            lines.append("auditor: the model and the store disagree in \(Plural.count(problems.count, "place")); "
                         + "the rules follow the model: import the model version the app used for this store")
        }
        return lines
    }

    /// The mistakes of a rules file written by an import, or nil when it is valid (it must be:
    /// anything else is a bug of the import).
    package static func invalidRules(written path: String, locales: [String] = []) -> AuditError? {
        do {
            _ = try AuditSession.loadSpecAndPlan(path, registry: StandardReaders.registry,
                                                 structuralRules: StandardReaders.structuralRules)
            for locale in locales {      // each catalog written beside it, with the rules
                let catalog = try MessageLocale.catalog(for: locale, rulesPath: path, structuralRules: StandardReaders.structuralRules)
                _ = try AuditSession.loadSpecAndPlan(path, registry: StandardReaders.registry,
                                                     structuralRules: StandardReaders.structuralRules, catalog: catalog)
            }
            return nil
        } catch let e as AuditError {
            return e
        } catch {
            return AuditError(.internal, "\(error)", location: path)
        }
    }
}
