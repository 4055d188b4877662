import Auditor
import Foundation
@testable import AuditorReports
import Testing

/// `rules/messages/*.yml`, the catalogs that ship with auditor.
@Suite("Message catalogs")
struct MessageCatalogTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("rules/messages")

    /// The readers' structural rule ids (Readers is not a dependency of this target; ReadersTests
    /// checks the catalogs against the readers themselves).
    static let structural = ["csv.row.ragged", "csv.encoding", "csv.decimal.point", "xml.field.repeated", "xml.decimal.point",
                             "jsonl.line.malformed", "jsonl.encoding", "jsonl.key.duplicate"]
        .map { StructuralRule(id: $0, code: 0, summary: "", message: "") }

    static func load(_ locale: String) throws -> MessageCatalog {
        try MessageCatalog.load(path: folder.appendingPathComponent("\(locale).yml").path, structuralRules: structural)
    }

    /// Every key a complete catalog has: each constraint kind, `<kind>.date` where dates differ.
    static func kindKeys() -> [(key: String, kind: ConstraintKind, type: ValueType)] {
        ConstraintKind.allCases.flatMap { kind -> [(key: String, kind: ConstraintKind, type: ValueType)] in
            var keys = [(key: kind.rawValue, kind: kind, type: ValueType.string)]
            if kind.defaultMessage(for: .date) != kind.defaultMessage(for: .integer) {
                keys = [(kind.rawValue, kind, .integer), ("\(kind.rawValue).date", kind, .date)]
            }
            return keys
        }
    }

    @Test("en.yml is identical to every built-in template")
    func englishMatchesBuiltIn() throws {
        let en = try Self.load("en")
        #expect(en.locale == "en")
        for (key, kind, type) in Self.kindKeys() {
            #expect(en.byKind[key] == kind.defaultMessage(for: type), "\(key)")
            for t in ValueType.allCases {
                #expect(en.kindMessage(kind.rawValue, t) == kind.defaultMessage(for: t), "\(kind.rawValue) on \(t)")
            }
        }
        // The other rules' kinds (references, counts, delete rules, table and record rules).
        for (key, english) in BuiltInMessages.templates {
            #expect(en.byKind[key] == english, "\(key)")
        }
        // Nothing more, nothing less: a kind without an en entry fails here (the readers'
        // structural messages are checked against the readers in ReadersTests).
        #expect(Set(en.byKind.keys) == Set(Self.kindKeys().map(\.key)).union(BuiltInMessages.templates.keys))
        #expect(Set(en.byKind.keys) == Set(BuiltInMessages.kinds))
    }

    @Test("fr.yml is complete: the same keys and placeholders as en.yml, translated")
    func frenchIsComplete() throws {
        let en = try Self.load("en"), fr = try Self.load("fr")
        #expect(fr.locale == "fr")
        #expect(Set(fr.byKind.keys) == Set(en.byKind.keys))
        #expect(Set(fr.byRule.keys) == Set(en.byRule.keys))
        for (key, english) in en.byKind.merging(en.byRule, uniquingKeysWith: { a, _ in a }) {
            let french = try #require(fr.byKind[key] ?? fr.byRule[key], "\(key)")
            // The same parameters; `{type}` may replace `{typeName}`, whose text is English.
            let fp = Set(try MessageTemplate(french).placeholders), ep = Set(try MessageTemplate(english).placeholders)
            // `{firstKind} {firstLine}` may replace `{first}` ("line 23"), whose word is English.
            let spelledFirst: Set<String> = ep.contains("first") ? ["firstKind", "firstLine"] : []
            #expect(fp.isSubset(of: ep.union(["type"]).union(spelledFirst)), "\(key)")
            #expect(ep.subtracting(["typeName"]).subtracting(fp.isSuperset(of: spelledFirst) ? ["first"] : []).isSubset(of: fp), "\(key)")
            #expect(french != english, "\(key) is not translated")
        }
    }

    @Test("fr.yml translates the summary of every kind of rule (a record rule's is its description)")
    func frenchSummaries() throws {
        let fr = try Self.load("fr")
        #expect(Set(fr.summaries.keys) == Set(BuiltInMessages.kinds).subtracting(["record"]).union(Self.structural.map(\.id)))
        #expect(fr.summary("min", .integer) { ["field": "salaire", "min": "0"][$0] } == "salaire vaut au moins 0")
        #expect(fr.summary("minLength", .string) { ["field": "nom", "minLength": "1"][$0] } == "nom compte au moins 1 caractère")
        #expect(MessageCatalog.english.summary("min", .integer) { _ in "x" } == nil)
    }

    @Test("every shipped catalog loads")
    func allLoad() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { $0.hasSuffix(".yml") }
        #expect(Set(names).isSuperset(of: ["en.yml", "fr.yml"]))
        for name in names {
            _ = try MessageCatalog.load(path: Self.folder.appendingPathComponent(name).path, structuralRules: Self.structural)
        }
    }
}
