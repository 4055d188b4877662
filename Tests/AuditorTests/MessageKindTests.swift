@testable import Auditor
import Testing

/// Built-in messages of the rules that are not attribute constraints, through a catalog.
@Suite("Messages by kind")
struct MessageKindTests {
    static let yaml = """
        version: 1
        sources: { t: { path: t.mem } }
        entities:
          E:
            source: t
            rowCount: { min: 3 }
            freshness: { attribute: created_at, maxAge: 1d }
            attributes: { created_at: datetime }
        """

    static func messages(_ catalog: MessageCatalog) throws -> [String: String] {
        let registry = ReaderRegistry([InMemoryReader.factory(tables: ["t": (["created_at"], [[nil]])])])
        let spec = try RulesFileParser(formats: registry.formats, locale: catalog.locale).parse(yaml, path: "rules.yml")
        let plan = try RuleCompiler.compile(spec, catalog: catalog)
        let r = try AuditEngine(registry: registry, options: AuditOptions(asOf: 86400 * 365)).run(plan)
        return Dictionary(r.report.rules.compactMap { rule in rule.samples.first.map { (rule.id, $0.message) } }) { a, _ in a }
    }

    @Test("no value for freshness, and one record for rowCount, read as sentences in English and French")
    func freshnessAndRowCount() throws {
        let en = try Self.messages(.english)
        #expect(en["E.freshness"] == "No created_at has a value, so none is within 1d before 1971-01-01T00:00:00Z.")
        #expect(en["E.rowCount"] == "E has 1 record; expected at least 3.")
        var fr = MessageCatalog(locale: "fr")
        fr.byKind["freshness"] = "{newest, select, missing {Aucun {field}} other {{newest}}}"
        fr.byKind["rowCount"] = "{entity} compte {count, plural, one {# enregistrement} other {# enregistrements}}"
        fr.names = ["E": "Entité"]
        let french = try Self.messages(fr)
        #expect(french["E.freshness"] == "Aucun created_at")
        #expect(french["E.rowCount"] == "Entité compte 1 enregistrement")
    }
}
