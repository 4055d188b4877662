@testable import Auditor
import Testing

/// `{n, plural, …}` and `{x, select, …}` in message templates.
@Suite("Message template plurals")
struct MessageTemplatePluralTests {
    static func render(_ source: String, _ language: String, _ params: [String: String]) throws -> String {
        try MessageTemplate(source, language: language).render { params[$0] }
    }

    static let fields = "Record has {n, plural, one {# field} other {# fields}}."

    @Test("English: one only for exactly 1", arguments: [("0", "0 fields"), ("1", "1 field"), ("2", "2 fields"),
                                                          ("1.5", "1.5 fields"), ("1.0", "1.0 fields"), ("11", "11 fields"), ("21", "21 fields")])
    func english(_ n: String, _ expected: String) throws {
        #expect(try Self.render(Self.fields, "en", ["n": n]) == "Record has \(expected).")
    }

    @Test("French: one for 0 and 1 (and 1.5)", arguments: [("0", "0 champ"), ("1", "1 champ"), ("1.5", "1.5 champ"),
                                                             ("2", "2 champs"), ("10", "10 champs")])
    func french(_ n: String, _ expected: String) throws {
        let t = "{n, plural, one {# champ} other {# champs}}"
        #expect(try Self.render(t, "fr", ["n": n]) == expected)
        #expect(try Self.render(t, "fr-CA", ["n": n]) == expected)
    }

    @Test("exact branches come first; branches hold placeholders; select picks by word")
    func exactAndSelect() throws {
        let t = "{n, plural, =0 {no {what}} one {one {what}} other {# {what}s}}"
        #expect(try Self.render(t, "en", ["n": "0", "what": "row"]) == "no row")
        #expect(try Self.render(t, "en", ["n": "1", "what": "row"]) == "one row")
        #expect(try Self.render(t, "en", ["n": "3", "what": "row"]) == "3 rows")
        let s = "{r, select, missing {no '{c}'} other {extra '{c}'}}"
        #expect(try Self.render(s, "en", ["r": "missing", "c": "a"]) == "no 'a'")
        #expect(try Self.render(s, "en", ["r": "unexpected", "c": "a"]) == "extra 'a'")
        #expect(try MessageTemplate(t, language: "en").placeholders.sorted() == ["n", "what", "what", "what"])
        // Literal braces still work, and `#` outside a plural is text.
        #expect(try Self.render("{{x}} #{n}", "en", ["n": "2"]) == "{x} #2")
    }

    @Test("malformed plurals are refused with a message", arguments: [
        "{n, plural, one {a}}", "{n, plural, one {a} other {b}", "{n, plural, few {a} othr {b}}", "{n, plural, one a other {b}}",
        "{n, plural, one {a} other {b", "{n, ordinal, one {a} other {b}}",
    ])
    func malformed(_ source: String) {
        #expect(throws: MessageTemplate.TemplateError.self) { try MessageTemplate(source, language: "en") }
    }
}
