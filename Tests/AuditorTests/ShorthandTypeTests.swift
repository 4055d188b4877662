import Auditor
import Testing

/// Issue 13 §1: `age: integer` compiles to exactly what `age: { type: integer }` does.
@Suite struct ShorthandTypeTests {
    static func plan(_ attribute: String) throws -> EntityPlan {
        let yaml = """
            version: 1
            sources: { t: { path: t.mem } }
            entities:
              E:
                attributes:
                  v: \(attribute)
            """
        let spec = try RulesFileParser(formats: ["memory"]).parse(yaml, path: "rules.yml")
        return try #require(try RuleCompiler.compile(spec).entities.first)
    }

    @Test("Shorthand and long form declare the same rules", arguments: ValueType.allCases)
    func sameRules(type: ValueType) throws {
        let short = try Self.plan(type.rawValue)
        let long = try Self.plan("{ type: \(type.rawValue) }")
        func shape(_ p: EntityPlan) -> [String] {
            p.rules.map { "\($0.id) \($0.kinds) \($0.code) \($0.severity) \($0.summaries)" }
        }
        #expect(shape(short) == shape(long))
        #expect(short.checks.map(\.kind) == long.checks.map(\.kind))
        #expect(short.attributes.map(\.type) == [type])
        // Every type but string is checked (text is always text).
        #expect(short.rules.map(\.id) == (type == .string ? [] : ["E.v.type"]))
    }

    @Test("A shorthand integer column: 'abc' is one type finding; other constraints skip it")
    func abcIsOneTypeFinding() throws {
        let yaml = """
            version: 1
            sources: { t: { path: t.mem } }
            entities:
              E:
                key: [id]
                attributes: { id: integer, age: integer }
                rules:
                  - { id: e.adult, assert: age >= 18 }
            """
        let r = try audit(yaml, fields: ["id", "age"], rows: [["1", "30"], ["2", "abc"], ["3", "17"]])
        #expect(r.counts == ["E.id.type": 0, "E.age.type": 1, "e.adult": 1])
        #expect(r.report.rules.first { $0.id == "E.age.type" }?.samples.first?.value == "abc")
    }
}

/// A rule's summary counts characters in the singular for one.
@Suite struct LengthSummaryTests {
    @Test("minLength 1 and maxLength 1 read '1 character'; 2 reads '2 characters'")
    func singular() throws {
        #expect(try ShorthandTypeTests.plan("{ minLength: 1, maxLength: 2 }").rules.flatMap(\.summaries)
                == ["v has at least 1 character", "v has at most 2 characters"])
        #expect(try ShorthandTypeTests.plan("{ maxLength: 1 }").rules.flatMap(\.summaries) == ["v has at most 1 character"])
        #expect(StringValidator(minLength: 1, maxLength: 1).summary == "have at least 1 character and have at most 1 character")
    }
}
