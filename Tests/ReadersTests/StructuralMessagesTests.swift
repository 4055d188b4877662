import Auditor
import Foundation
import AuditorReaders
import Testing

/// `rules/messages/*.yml` against the readers' own structural rules.
@Suite("Structural messages in the catalogs")
struct StructuralMessagesTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("rules/messages")

    @Test("en.yml has every reader's structural message exactly; fr.yml translates each with its placeholders")
    func everyStructuralRule() throws {
        let rules = StandardReaders.structuralRules
        let en = try MessageCatalog.load(path: Self.folder.appendingPathComponent("en.yml").path, structuralRules: rules)
        let fr = try MessageCatalog.load(path: Self.folder.appendingPathComponent("fr.yml").path, structuralRules: rules)
        #expect(Set(rules.map(\.id)).isSuperset(of: ["csv.row.ragged", "csv.encoding", "xml.field.repeated"]))
        #expect(Set(en.byRule.keys) == Set(rules.map(\.id)))
        for rule in rules {
            #expect(en.byRule[rule.id] == rule.message, "\(rule.id)")
            let french = try #require(fr.byRule[rule.id], "\(rule.id) has no fr entry")
            #expect(french != rule.message)
            #expect(Set(try MessageTemplate(french).placeholders) == Set(try MessageTemplate(rule.message).placeholders), "\(rule.id)")
            #expect(fr.summaries[rule.id] != nil, "\(rule.id) has no French summary")
        }
        #expect(en.structuralDiagnostics(rules).isEmpty && fr.structuralDiagnostics(rules).isEmpty)
    }
}
