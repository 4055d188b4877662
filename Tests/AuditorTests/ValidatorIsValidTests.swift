import Auditor
import Testing

/// `isValid` answers without building messages; it must agree with `validate` everywhere.
@Suite struct ValidatorIsValidTests {
    static let values: [Value] = [
        .null, "", " ", "a", "ab", "abc", "12", "12.5", "-1", "0", "abcdef", "n/a", "x", "true", "2020-02-29",
        .integer(0), .integer(1), .integer(-3), .integer(12), .decimal(1), .decimal(2.5), .decimal(.nan),
        .boolean(true), .date(days: 3), .datetime(seconds: 9),
        [], ["a"], ["a", "a"], [1, .decimal(1)], ["12", "ab", .null], [["x"], ["y", "x"]],
        .map([:]), .map(["city": "Oslo"]), .map(["city": "O", "zip": "12345"]), .map(["zip": "x", "other": 1]),
        .map(["city": .null]),
    ]

    static func validators() throws -> [(String, any Validator)] {
        var out: [(String, any Validator)] = [
            ("type integer", TypeValidator(.integer)), ("type string", TypeValidator(.string)),
            ("type boolean", TypeValidator(.boolean)), ("type date", TypeValidator(.date)),
            ("required", RequiredValidator()), ("required allowsEmpty", RequiredValidator(allowsEmpty: true)),
            ("null", NullValidator()), ("notNull", NotNull()),
            ("number", NumberValidator(min: 0, max: 12, integral: true)),
            ("number exclusive enum", NumberValidator(exclusiveMin: -1, exclusiveMax: 3, enum: [0, 1, 2.5])),
            ("string", StringValidator(minLength: 1, maxLength: 3, pattern: try Pattern("[a-z0-9]+"), enum: ["a", "ab", "12"])),
            ("nullable", NumberValidator(min: 0).allowingNull()),
            ("typed", TypedValidator(.integer, then: NumberValidator(max: 5))),
            ("allOf", AllOf([TypeValidator(.string), StringValidator(maxLength: 2)])),
            ("anyOf", AnyOf([NumberValidator(min: 1), StringValidator(enum: ["n/a", "x"])])),
            ("oneOf", OneOf([TypeValidator(.integer), TypeValidator(.decimal), NullValidator()])),
            ("not", Not(StringValidator(enum: ["x", "a"]))),
            ("collection", CollectionValidator(minCount: 1, maxCount: 2, each: TypeValidator(.string), uniqueItems: true)),
            ("nested collection", CollectionValidator(each: CollectionValidator(each: Not(StringValidator(enum: ["x"]))))),
            ("keyed", KeyedCollectionValidator(keys: ["zip": StringValidator(pattern: try Pattern("[0-9]{5}"))],
                                               requiredKeys: ["city"], allowedKeys: ["city", "zip"])),
            ("keyed open", KeyedCollectionValidator(keys: ["city": NotNull()])),
            ("block bool", BlockValidator(test: { $0.isEmpty })),
            ("block list", BlockValidator { $0.isNull ? [Violation(kind: "b", code: 1, message: "null")] : [] }),
        ]
        var d = [Diagnostic]()
        for yaml in ["anyOf: [ { pattern: \"[0-9]+\" }, { enum: [a, x] } ]",
                     "{ minCount: 1, each: { type: string, maxLength: 2 }, uniqueItems: true }",
                     "{ requiredKeys: [city], keys: { zip: { not: { enum: [x] } } } }",
                     "oneOf: [ integer, { type: decimal, max: 2 } ]"] {
            let node = try YAMLLoader.load(yaml, file: "t.yml")
            out.append((yaml, try #require(ConstraintTreeCompiler().compile(node, into: &d))))
        }
        #expect(d.isEmpty)
        return out
    }

    @Test func isValidAgreesWithValidate() throws {
        var checked = 0
        for (name, v) in try Self.validators() {
            for value in Self.values {
                #expect(v.isValid(value) == v.validate(value).isEmpty, "\(name) on \(value)")
                checked += 1
            }
        }
        #expect(checked > 900)
    }
}
