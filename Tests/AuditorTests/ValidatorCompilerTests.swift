import Auditor
import Testing

/// Compiles a YAML constraint tree; `type` is the attribute's.
func compileTree(_ yaml: String, type: ValueType? = nil, context: String = "constraints") throws
    -> (validator: (any Validator)?, diagnostics: [String]) {
    let node = try YAMLLoader.load(yaml, file: "rules.yml")
    var d = [Diagnostic]()
    let v = ConstraintTreeCompiler().compile(node, type: type, context: context, into: &d)
    return (v, d.map(\.description))
}

@Suite struct ValidatorCompilerTests {
    @Test func anyOfPatternOrEnum() throws {
        let v = try #require(try compileTree(#"anyOf: [ { pattern: "[0-9]{5}" }, { enum: [a, b] } ]"#).validator)
        #expect(v.validate("01234").isEmpty && v.validate("b").isEmpty)
        #expect(v.validate("c").first?.message == "value must satisfy at least one alternative: "
            + "1) value must match the pattern [0-9]{5}; got 'c'. 2) value must be one of a, b; got 'c'.")
    }

    @Test func listConstraints() throws {
        let v = try #require(try compileTree("{ minCount: 1, each: { type: string, maxLength: 3 }, uniqueItems: true }").validator)
        #expect(v.validate(["ab", "cd"]).isEmpty)
        #expect(v.validate([]).map(\.kind) == ["minCount"])
        #expect(v.validate(["abcd", .null, "abcd"]).map { "\($0.path) \($0.kind)" }
            == ["[0] maxLength", "[1] type", "[2] maxLength", "[2] uniqueItems"])
        let short = try #require(try compileTree("each: string").validator)
        #expect(short.validate([1, "a"]).isEmpty)
        #expect(short.validate([.list([])]).map(\.path) == ["[0]"])
    }

    @Test func mapConstraints() throws {
        let v = try #require(try compileTree(#"{ requiredKeys: [city], allowedKeys: [city, zip], keys: { zip: { pattern: "[0-9]{5}" } } }"#).validator)
        #expect(v.validate(.map(["city": "Oslo", "zip": "01234"])).isEmpty)
        #expect(v.validate(.map(["zip": "1", "x": "y"])).map { "\($0.path) \($0.kind)" }
            == [".city requiredKeys", ".zip pattern", ".x allowedKeys"])
    }

    @Test func notAndNesting() throws {
        let v = try #require(try compileTree("not: { enum: [x] }").validator)
        #expect(v.validate("y").isEmpty)
        #expect(v.validate("x").map(\.message) == ["value must not be one of x; got 'x'."])
        let nested = try #require(try compileTree("""
            each:
              oneOf:
                - { type: integer, min: 0 }
                - keys: { id: { type: integer } }
                  requiredKeys: [id]
            """).validator)
        #expect(nested.validate([5, .map(["id": "7"])]).isEmpty)
        let found = nested.validate([-1, .map(["id": "x"])])
        #expect(found.map(\.path) == ["[0]", "[1]"])
        #expect(found[0].causes.map { "\($0.path) \($0.kind)" } == ["[0] min", "[0] type"])
        #expect(found[1].causes.map { "\($0.path) \($0.kind)" } == ["[1] type", "[1].id type"])
    }

    @Test func typeGuardsTheOtherChecksAndNumericEnums() throws {
        let v = try #require(try compileTree("{ type: integer, min: 0, enum: [1, 2, 10] }").validator)
        #expect(v.validate("abc").map(\.kind) == ["type"])
        #expect(v.validate("-1").map(\.kind) == ["min", "enum"])
        #expect(v.validate("10").isEmpty)
        let inherited = try #require(try compileTree("anyOf: [ { enum: [1, 2] }, { min: 100 } ]", type: .decimal).validator)
        #expect(inherited.validate("2.0").isEmpty)
        #expect(inherited.validate("150").isEmpty)
        #expect(inherited.validate("3").count == 1)
    }

    @Test func attributeKeysAreCompiledTogether() throws {
        let node = try YAMLLoader.load("""
            type: string
            required: true
            minCount: 1
            each: { pattern: "[0-9]+" }
            """, file: "rules.yml")
        var d = [Diagnostic]()
        let map = try node.mapping("attribute")
        let v = try #require(ConstraintTreeCompiler().compile(attribute: "phones", type: .string, mapping: map, into: &d))
        #expect(d.isEmpty)
        #expect(v.validate(["1", "a"]).map { $0.named("phones").message } == ["phones[1] must match the pattern [0-9]+; got 'a'."])
        let plain = try YAMLLoader.load("{ type: string, required: true }", file: "rules.yml").mapping("attribute")
        #expect(ConstraintTreeCompiler().compile(attribute: "name", type: .string, mapping: plain, into: &d) == nil)
        let one = try YAMLLoader.load("3", file: "rules.yml")
        let max = try #require(ConstraintTreeCompiler().compile(key: "maxCount", value: one, into: &d))
        #expect(max.validate([1, 2, 3, 4]).map(\.description) == ["[1590 maxCount] value must have 3 or fewer items; got 4."])
        #expect(d.isEmpty)
    }

    @Test(arguments: [
        ("anyof: [ { pattern: x } ]", "rules.yml:1:1: unknown key 'anyof' in constraints; did you mean 'anyOf'?"),
        ("each: { maxLenght: 3 }", "rules.yml:1:9: unknown key 'maxLenght' in 'each'; did you mean 'maxLength'?"),
        ("anyOf: { pattern: x }", "rules.yml:1:8: anyOf must be a list, not a mapping"),
        ("anyOf: []", "rules.yml:1:8: anyOf must list at least one alternative"),
        ("minCount: many", "rules.yml:1:11: minCount must be an integer; got 'many'"),
        ("maxLength: -1", "rules.yml:1:12: maxLength must not be negative; got -1"),
        ("uniqueItems: maybe", "rules.yml:1:14: uniqueItems must be true or false; got 'maybe'"),
        ("each: [a]", "rules.yml:1:7: 'each' must be a mapping, not a list"),
        ("each: strng", "rules.yml:1:7: 'each' must be a mapping of constraints or a type name; got 'strng'; did you mean 'string'?"),
        ("type: strin", "rules.yml:1:7: unknown type 'strin'; did you mean 'string'?"),
        ("keys: [zip]", "rules.yml:1:7: keys must be a mapping, not a list"),
        ("requiredKeys: city", "rules.yml:1:15: requiredKeys must be a list, not a scalar"),
        ("pattern: \"[a-\"", "rules.yml:1:11: invalid pattern: unterminated character class '[a-'; add the missing ']'"),
        ("min: ten", "rules.yml:1:6: min must be a number like 0 or -12.5; got 'ten'"),
        ("enum: [1, x]", "rules.yml:1:11: enum value 'x' is not an integer"),
        ("{ minCount: 3, maxCount: 1 }", "rules.yml:1:26: maxCount 1 is less than minCount 3; no list satisfies both"),
        ("{ requiredKeys: [city], allowedKeys: [zip] }", "rules.yml:1:18: key 'city' is not in allowedKeys, so no map can have it; add it to allowedKeys"),
        ("not: { anyOf: [ { max: x } ] }", "rules.yml:1:24: max must be a number like 0 or -12.5; got 'x'"),
        ("anyOf: [ { minLength: 1, min: 0 } ]", "rules.yml:1:31: 'min' applies to numbers, but these constraints check string values; use minLength/maxLength for text"),
    ])
    func diagnosticsAreLocated(yaml: String, expected: String) throws {
        let type: ValueType? = yaml.hasPrefix("enum") ? .integer : yaml.contains("minLength: 1, min") ? .string : nil
        let (v, d) = try compileTree(yaml, type: type)
        #expect(d == [expected])
        #expect(v == nil)
    }

    @Test func everyMistakeIsReportedAtOnce() throws {
        let (_, d) = try compileTree("""
            each:
              maxLenght: 3
              pattern: "("
            keys:
              zip: { minCount: -1 }
            """)
        #expect(d.count == 3)
        #expect(d.first == "rules.yml:2:3: unknown key 'maxLenght' in 'each'; did you mean 'maxLength'?")
        #expect(d.last == "rules.yml:5:20: minCount must not be negative; got -1")
    }
}
