import Auditor
import Foundation
import Testing

/// Mistakes in a message catalog are errors located in the catalog file, not the rules file.
@Suite("Message catalog errors")
struct MessageCatalogErrorTests {
    /// Loads `text` as `<folder>/messages/fr.yml` and returns the diagnostics' descriptions.
    static func diagnostics(_ text: String) throws -> [String] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-\(UUID().uuidString.prefix(8))/messages")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let path = folder.appendingPathComponent("fr.yml").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        do {
            _ = try MessageCatalog.load(path: path)
            return []
        } catch let e as AuditError {
            #expect(e.code == .invalidRules)
            return e.diagnostics.map { $0.description.replacingOccurrences(of: folder.path + "/", with: "messages/") }
        }
    }

    @Test("every kind of rule can be translated by kind")
    func everyKindLoads() throws {
        var text = "locale: fr\nconstraints:\n"
        for kind in BuiltInMessages.kinds { text += "  \(kind): \"{rule}\"\n" }
        #expect(try Self.diagnostics(text) == [])
        for kind in ["fk", "fk.composite", "relationship.minCount", "deleteRule.deny", "rowCount", "columns", "freshness",
                     "record", "immutable", "transitions", "unique.composite"] {
            #expect(BuiltInMessages.kinds.contains(kind), "\(kind)")
        }
    }

    @Test("an unknown kind is located at its key, with a suggestion")
    func unknownKind() throws {
        let d = try Self.diagnostics("locale: fr\nconstraints:\n  required: \"{field} manque.\"\n  rowcount: \"{count}\"\n")
        #expect(d.count == 1)
        #expect(d.first?.hasPrefix("messages/fr.yml:4:3: unknown message kind 'rowcount'; did you mean 'rowCount'?") == true, "\(d)")
    }

    @Test("a misspelled or foreign placeholder is located at the message")
    func unknownPlaceholder() throws {
        let d = try Self.diagnostics("""
            locale: fr
            constraints:
              min: "{fieldd} doit valoir au moins {min}."
              rowCount: "{entity} a {count} lignes ({target})."
            """)
        #expect(d == ["messages/fr.yml:3:8: unknown placeholder '{fieldd}' in the 'min' message; did you mean '{field}'?",
                      "messages/fr.yml:4:13: unknown placeholder '{target}' in the 'rowCount' message"], "\(d)")
    }

    @Test("a malformed plural is located at the message")
    func malformedPlural() throws {
        let d = try Self.diagnostics("""
            locale: fr
            constraints:
              rowCount: "{count, plural, one {# ligne}}"
              columns: "{reason, choose, a {x} other {y}}"
            """)
        #expect(d.count == 2)
        #expect(d.first?.hasPrefix("messages/fr.yml:3:13: '{count, plural, …' has no 'other' branch") == true, "\(d)")
        #expect(d.last?.hasPrefix("messages/fr.yml:4:12: '{reason, choose' is not a plural or select") == true, "\(d)")
    }

    @Test("a catalog rule id that names no rule is located in the catalog")
    func unknownRuleID() throws {
        var catalog = MessageCatalog(locale: "fr", byRule: ["person.age.mn": "x", "person.age.min": "y", "csv.row.ragged@people": "z"])
        catalog.marks = ["rules/person.age.mn": ConfigMark(file: "messages/fr.yml", line: 3, column: 18),
                         "rules/person.age.min": ConfigMark(file: "messages/fr.yml", line: 4, column: 19),
                         "rules/csv.row.ragged@people": ConfigMark(file: "messages/fr.yml", line: 5, column: 26)]
        let d = catalog.unknownRuleDiagnostics(known: ["person.age.min", "csv.row.ragged"]).map(\.description)
        #expect(d.count == 1)
        #expect(d.first?.hasPrefix("messages/fr.yml:3:18: the catalog translates 'person.age.mn', which is not a rule") == true, "\(d)")
        #expect(d.first?.contains("did you mean 'person.age.min'?") == true, "\(d)")
    }

    @Test("a structural message with a placeholder its rule lacks is located in the catalog")
    func structuralPlaceholder() throws {
        var catalog = MessageCatalog(locale: "fr", byRule: ["csv.row.ragged": "{feilds} champs"])
        catalog.marks = ["rules/csv.row.ragged": ConfigMark(file: "messages/fr.yml", line: 7, column: 19)]
        let rule = StructuralRule(id: "csv.row.ragged", code: 2101, summary: "s", message: "Record has {fields} fields; the header has {expected}.")
        #expect(catalog.structuralDiagnostics([rule]).map(\.description)
            == ["messages/fr.yml:7:19: unknown placeholder '{feilds}' in the 'csv.row.ragged' message; did you mean '{fields}'?"])
    }
}
