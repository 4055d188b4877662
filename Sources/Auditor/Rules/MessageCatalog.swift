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
/// ```
public struct MessageCatalog: Sendable, Equatable {
    public var locale: String
    public var byRule: [String: String]
    public var byKind: [String: String]

    public init(locale: String = "en", byRule: [String: String] = [:], byKind: [String: String] = [:]) {
        self.locale = locale
        self.byRule = byRule
        self.byKind = byKind
    }

    /// The built-in English messages (no overrides).
    public static let english = MessageCatalog()

    /// The template for a constraint kind on a value type, if the catalog has one.
    public func kindMessage(_ kind: String, _ type: ValueType) -> String? {
        if type == .date || type == .datetime, let m = byKind["\(kind).date"] { return m }
        return byKind[kind]
    }

    /// Parses a catalog file.
    /// - Throws: ``AuditError`` `.invalidRules` with located diagnostics, `.missingInput` when unreadable.
    public static func load(path: String) throws -> MessageCatalog {
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
            d += map.unknownKeys(allowed: ["locale", "constraints", "rules"], context: "a message catalog")
            if let l = map["locale"] { catalog.locale = try l.string("locale") }
            let kinds = ConstraintKind.allCases.map(\.rawValue)
            for (section, keyPath) in [("constraints", \MessageCatalog.byKind), ("rules", \MessageCatalog.byRule)] {
                guard let node = map[section] else { continue }
                for (k, v) in try node.mapping(section).pairs {
                    let key = try k.string("a key")
                    if section == "constraints" {
                        let base = key.hasSuffix(".date") ? String(key.dropLast(5)) : key
                        if !kinds.contains(base) {
                            var m = "unknown constraint kind '\(key)'"
                            if let s = Suggest.closest(to: base, in: kinds) { m += "; did you mean '\(s)'?" }
                            d.append(k.error(m))
                            continue
                        }
                    }
                    let text = try v.string("a message")
                    do { _ = try MessageTemplate(text) } catch { d.append(v.error(error.message)) }
                    catalog[keyPath: keyPath][key] = text
                }
            }
        } catch {
            d.append(error)
        }
        if !d.isEmpty { throw AuditError.invalidRules(d) }
        return catalog
    }
}
