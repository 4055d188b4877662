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

/// A list's and a relationship's counts read in the singular for one.
@Suite struct CountSummaryTests {
    @Test("minCount 1 reads '1 item', maxCount 3 '3 items'")
    func items() {
        #expect(CollectionValidator(minCount: 1, maxCount: 3).summary == "have at least 1 item and have at most 3 items")
        #expect(CollectionValidator(maxCount: 1).summary == "have at most 1 item")
    }

    @Test("A relationship's minCount 1 reads '1 Person record references', maxCount 2 '2 … records reference'")
    func relationship() throws {
        let yaml = """
            version: 1
            sources: { t: { path: t.mem } }
            entities:
              Department:
                key: [id]
                attributes: { id: integer }
                relationships:
                  members: { from: Person.dept, minCount: 1, maxCount: 2 }
              Person:
                attributes: { id: integer, dept: integer }
                relationships:
                  dept: { attribute: dept, references: Department.id }
            """
        let spec = try RulesFileParser(formats: ["memory"]).parse(yaml, path: "rules.yml")
        let summaries = try RuleCompiler.compile(spec).entities.flatMap { $0.rules.flatMap(\.summaries) }
        #expect(summaries.contains("at least 1 Person record references each Department"))
        #expect(summaries.contains("at most 2 Person records reference each Department"))
    }
}
