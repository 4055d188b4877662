import Foundation

/// Translated message templates (`rules/messages/<locale>.yml`), keyed by rule id or by
/// constraint kind.
///
/// Lookup order for a rule's message: the catalog's entry for the rule id, then the rules
/// file's own message, then the catalog's entry for the constraint kind (`min.date` before
/// `min`), then the built-in English default.
///
/// File shape:
/// ```yaml
/// locale: fr
/// constraints:            # by constraint kind; `<kind>.date` for dates and date-times
///   required: "{field} est obligatoire mais absent."
/// rules:                  # by rule id (also a reader's structural rules: csv.row.ragged)
///   person.name.length: "Le nom doit compter de {minLength} à {maxLength} lettres."
/// names:                  # display names of entities and attributes
///   Person: Personne
///   has_licence: permis de conduire
/// report:                 # the text and Markdown reports' own words (ReportPhrases)
///   head.noFindings: aucun constat
/// ```
public struct MessageCatalog: Sendable, Equatable {
    public var locale: String
    public var byRule: [String: String]
    public var byKind: [String: String]
    /// Where each entry is written in the catalog file (`rules/<id>`, `constraints/<kind>`), so
    /// that a mistake found while compiling the rules points at the catalog, not the rules file.
    public var marks: [String: ConfigMark] = [:]
    /// Display names of entities and attributes (`Person` → `Personne`, `has_licence` →
    /// `permis de conduire`, or qualified `Person.has_licence`), as Core Data's
    /// `localizationDictionary` gives them: messages use them for `{field}`, `{entity}`,
    /// `{target}`, `{child}`, `{parent}` and `{attributes}`.
    public var names: [String: String] = [:]
    /// Rule summaries by kind (the report's "salary is at least 0"), with the same kinds and
    /// placeholders as the messages; English summaries are built in.
    public var summaries: [String: String] = [:]
    /// The reports' own words by phrase key (`ReportPhrases`): verdicts, counts, section
    /// titles; English is built in. Render them through ``ReportWording``.
    public var report: [String: String] = [:]

    public init(locale: String = "en", byRule: [String: String] = [:], byKind: [String: String] = [:]) {
        self.locale = locale
        self.byRule = byRule
        self.byKind = byKind
    }

    /// The built-in English messages (no overrides).
    public static let english = MessageCatalog()

    /// The template for a constraint kind on a value type, if the catalog has one.
    public func kindMessage(_ kind: String, _ type: ValueType) -> String? {
        kindEntry(kind, type)?.text
    }

    /// The catalog's summary of a rule of a kind, rendered with the rule's parameters; `nil`
    /// when the catalog has none (the built-in English summary is used).
    public func summary(_ kind: String, _ type: ValueType? = nil, _ parameters: (String) -> String?) -> String? {
        let text = (type == .date || type == .datetime ? summaries["\(kind).date"] : nil) ?? summaries[kind]
        guard let text, let template = try? MessageTemplate(text, language: locale) else { return nil }
        return template.render(parameters)
    }

    /// The display name of an entity (its own name when the catalog has none).
    public func displayName(entity: String) -> String { names[entity] ?? entity }

    /// The display name of an attribute: `Entity.attribute` first, then `attribute`.
    public func displayName(attribute: String, of entity: String) -> String {
        names["\(entity).\(attribute)"] ?? names[attribute] ?? attribute
    }

    /// Diagnostics for display names that name no entity or attribute of the rules (located
    /// in the catalog).
    /// - Parameter entities: Each entity's name and attribute names.
    public func unknownNameDiagnostics(entities: [(name: String, attributes: [String])]) -> [Diagnostic] {
        var known = Set(entities.map(\.name))
        for e in entities {
            known.formUnion(e.attributes)
            known.formUnion(e.attributes.map { "\(e.name).\($0)" })
        }
        return names.keys.sorted().compactMap { key in
            guard !known.contains(key), let mark = marks["names/\(key)"] else { return nil }
            var m = "the catalog names '\(key)', which is no entity or attribute of the rules file"
            if let s = Suggest.closest(to: key, in: known.sorted()) { m += "; did you mean '\(s)'?" }
            return Diagnostic(mark: mark, message: m)
        }
    }

    /// The catalog's template for a rule id, with where it is written.
    public func ruleEntry(_ id: String) -> (text: String, mark: ConfigMark?)? {
        byRule[id].map { ($0, marks["rules/\(id)"]) }
    }

    /// The catalog's template for a message kind (`min`, `fk`, `rowCount`, …), with where it is
    /// written; `<kind>.date` comes first for date and date-time attributes.
    public func kindEntry(_ kind: String, _ type: ValueType? = nil) -> (text: String, mark: ConfigMark?)? {
        if type == .date || type == .datetime, let m = byKind["\(kind).date"] { return (m, marks["constraints/\(kind).date"]) }
        return byKind[kind].map { ($0, marks["constraints/\(kind)"]) }
    }

    /// Diagnostics for the catalog's rule ids that name no rule: neither one of the compiled
    /// rules nor a reader's structural rule. Located in the catalog file.
    /// - Parameter known: Every rule id that exists (bare structural ids included).
    public func unknownRuleDiagnostics(known: Set<String>) -> [Diagnostic] {
        byRule.keys.sorted().compactMap { id in
            let bare = id.split(separator: "@").first.map(String.init) ?? id
            guard !known.contains(id), !known.contains(bare), let mark = marks["rules/\(id)"] else { return nil }
            var m = "the catalog translates '\(id)', which is not a rule of the rules file nor a reader's structural rule"
            if let s = Suggest.closest(to: id, in: known.sorted()) { m += "; did you mean '\(s)'?" }
            m += "; to translate every rule of a kind, write the kind under constraints: (min, fk, rowCount, …)"
            return Diagnostic(mark: mark, message: m)
        }
    }

    /// Diagnostics for the catalog's translations of readers' structural rules that name a
    /// placeholder the rule does not fill (`{feilds}` for `csv.row.ragged`). Located in the catalog.
    /// - Parameter rules: The structural rules of every reader that may run.
    public func structuralDiagnostics(_ rules: [StructuralRule]) -> [Diagnostic] {
        var d = [Diagnostic]()
        for rule in rules {
            guard let (text, mark) = ruleEntry(rule.id), let mark,
                  let own = try? MessageTemplate(rule.message), let template = try? MessageTemplate(text, language: locale) else { continue }
            let known = Set(own.placeholders).union(RuleCompiler.commonPlaceholders)
            for p in Set(template.placeholders).sorted() where !known.contains(p) {
                var m = "unknown placeholder '{\(p)}' in the '\(rule.id)' message"
                if let s = Suggest.closest(to: p, in: known.sorted()) { m += "; did you mean '{\(s)}'?" }
                d.append(Diagnostic(mark: mark, message: m))
            }
        }
        return d
    }

    /// Parses a catalog file: every key is a known kind, every template parses and names only
    /// placeholders its kind has. Rule ids are checked against the rules later
    /// (``unknownRuleDiagnostics(known:)``).
    /// - Throws: ``AuditError`` `.invalidRules` with diagnostics located in the catalog file,
    ///   `.missingInput` when unreadable.
    /// - Parameters:
    ///   - path: The catalog file (`messages.fr.yml`).
    ///   - structuralRules: The readers' structural rules, whose summaries `summaries:`
    ///   may translate by id (`csv.row.ragged: "chaque enregistrement a autant de champs que l'en-tête"`).
    public static func load(path: String, structuralRules: [StructuralRule] = []) throws -> MessageCatalog {
        try InputFile.requireRegular(path, what: "the message catalog")
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw AuditError(.missingInput, "cannot read the message catalog", location: path)
        }
        var d = [Diagnostic]()
        let root: ConfigNode
        do { root = try YAMLLoader.load(text, file: path) } catch { throw AuditError.invalidRules([error]) }
        var catalog = MessageCatalog(locale: ((path as NSString).lastPathComponent as NSString).deletingPathExtension)
        do {
            let map = try root.mapping("a message catalog")
            d += map.unknownKeys(allowed: ["locale", "constraints", "rules", "names", "summaries", "report"], context: "a message catalog")
            if let n = map["names"] {
                for (k, v) in try n.mapping("names").pairs {
                    let key = try k.string("a name")
                    let name = try v.string("a display name")
                    if name.isEmpty { d.append(v.error("the display name of '\(key)' is empty")); continue }
                    catalog.names[key] = name
                    catalog.marks["names/\(key)"] = k.mark
                }
            }
            if let l = map["locale"] { catalog.locale = try l.string("locale") }
            let kinds = BuiltInMessages.kinds
            for (section, keyPath) in [("constraints", \MessageCatalog.byKind), ("rules", \MessageCatalog.byRule),
                                       ("summaries", \MessageCatalog.summaries), ("report", \MessageCatalog.report)] {
                guard let node = map[section] else { continue }
                for (k, v) in try node.mapping(section).pairs {
                    let key = try k.string("a key")
                    var allowed: Set<String>?
                    if section == "report" {
                        allowed = ReportPhrases.placeholders(of: key)
                        if allowed == nil {
                            var m = "unknown report phrase '\(key)'"
                            if let s = Suggest.closest(to: key, in: ReportPhrases.keys) { m += "; did you mean '\(s)'?" }
                            m += "; rules/messages/en.yml lists every phrase under report:"
                            d.append(k.error(m))
                            continue
                        }
                    } else if section == "summaries", structuralRules.contains(where: { $0.id == key }) {
                        allowed = RuleCompiler.commonPlaceholders
                    } else if section != "rules" {
                        allowed = BuiltInMessages.placeholders(of: key)
                        if allowed == nil {
                            var m = "unknown message kind '\(key)'"
                            if let s = Suggest.closest(to: key, in: kinds) { m += "; did you mean '\(s)'?" }
                            m += "; known kinds: \(kinds.joined(separator: ", "))"
                            if section == "summaries" { m += ", and the readers' structural rule ids" }
                            d.append(k.error(m))
                            continue
                        }
                    }
                    let text = try v.string("a message")
                    do {
                        let template = try MessageTemplate(text, language: catalog.locale)
                        for p in Set(template.placeholders).sorted() where allowed.map({ !$0.contains(p) }) ?? false
                            && !(key == "record") {
                            var m = "unknown placeholder '{\(p)}' in the '\(key)' "
                                + (section == "summaries" ? "summary" : section == "report" ? "report phrase" : "message")
                            if let s = Suggest.closest(to: p, in: allowed?.sorted() ?? []) { m += "; did you mean '{\(s)}'?" }
                            d.append(v.error(m))
                        }
                    } catch {
                        d.append(v.error(error.message))
                    }
                    catalog[keyPath: keyPath][key] = text
                    catalog.marks["\(section)/\(key)"] = v.mark
                }
            }
        } catch {
            d.append(error)
        }
        if !d.isEmpty { throw AuditError.invalidRules(d) }
        return catalog
    }
}
