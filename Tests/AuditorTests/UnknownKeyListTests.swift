import Auditor
import Testing

/// An unknown key that resembles no known one lists the keys allowed there, each once.
@Suite struct UnknownKeyListTests {
    @Test func attributeKeysAreListedOnce() throws {
        let text = """
            version: 1
            sources: { t: { path: t.csv } }
            entities:
              E:
                attributes:
                  when: { type: date, format: "MM/dd/yyyy" }
            """
        do {
            _ = try RulesFileParser(formats: ["csv"]).parse(text, path: "rules.yml")
            Issue.record("the unknown key was accepted")
        } catch let error as AuditError {
            let message = try #require(error.diagnostics.first?.message)
            #expect(message.hasPrefix("unknown key 'format' in attribute 'when' (expected one of: type, "), "\(message)")
            let listed = message.split(separator: "(expected one of: ").last?.dropLast().components(separatedBy: ", ") ?? []
            #expect(listed.count > 20 && listed.count == Set(listed).count, "\(listed)")
        }
    }
}
