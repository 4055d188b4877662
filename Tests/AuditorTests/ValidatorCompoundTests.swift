import Auditor
import Testing

@Suite struct ValidatorCompoundTests {
    let zip = StringValidator(pattern: try! Pattern("[0-9]{5}"))    // a literal pattern that compiles
    let unknown = StringValidator(enum: ["n/a", "unknown"])

    @Test func allOfCollectsEveryViolation() {
        let v = AllOf([TypeValidator(.integer), NumberValidator(min: 0), NumberValidator(max: -5)])
        #expect(v.validate(3).map(\.kind) == ["max"])
        #expect(v.validate("x").map(\.kind) == ["type", "type", "type"])
        #expect(AllOf([]).validate(.null).isEmpty)
    }

    @Test func anyOfPassesWhenOnePasses() {
        let v = AnyOf([zip, unknown])
        #expect(v.validate("12345").isEmpty)
        #expect(v.validate("n/a").isEmpty)
        let found = v.validate("abc")
        #expect(found.count == 1)
        #expect(found[0].code == 2010)
        #expect(found[0].message == "value must satisfy at least one alternative: "
            + "1) value must match the pattern [0-9]{5}; got 'abc'. 2) value must be one of n/a, unknown; got 'abc'.")
        #expect(found[0].causes.map(\.kind) == ["pattern", "enum"])
        #expect(found[0].causes.map { $0.parameters["alternative"] } == ["1", "2"])
    }

    @Test func anyOfGroupsSeveralViolationsOfOneAlternative() {
        let v = AnyOf([StringValidator(minLength: 5, maxLength: 1), NumberValidator(min: 0)])
        let m = v.validate("abc").first?.message
        #expect(m == "value must satisfy at least one alternative: 1) value must have at least 5 characters; 'abc' has 3. "
            + "value must have at most 1 character; got 3. 2) value must be a number; got 'abc'.")
    }

    @Test func oneOfNeedsExactlyOne() {
        let v = OneOf([TypeValidator(.integer), StringValidator(pattern: try! Pattern("[0-9]+")), NumberValidator(max: 100)])
        #expect(v.validate("abc").map(\.code) == [2011])
        #expect(v.validate("abc").first?.causes.count == 3)
        #expect(v.validate("1000").map(\.message) == ["value must satisfy exactly one alternative but satisfies alternatives 1 and 2; got '1000'."])
        #expect(v.validate("50").first?.parameters["matched"] == "1, 2 and 3")
        #expect(v.validate("-1.5").isEmpty)
    }

    @Test func notInvertsAndQuotesTheSummary() {
        let v = Not(StringValidator(enum: ["x", "y"]))
        #expect(v.validate("z").isEmpty)
        #expect(v.validate("x").map(\.description) == ["[2012 not] value must not be one of x, y; got 'x'."])
        #expect(Not(NumberValidator(min: 1, integral: true)).validate(3).first?.message
            == "value must not be at least 1 and be a whole number; got '3'.")
    }

    @Test func collectionCountsAndElements() {
        let v = CollectionValidator(minCount: 1, maxCount: 3, each: AllOf([TypeValidator(.string), StringValidator(maxLength: 3)]),
                                    uniqueItems: true)
        #expect(v.validate(["a", "b"]).isEmpty)
        #expect(v.validate([]).map(\.description) == ["[1580 minCount] value must have 1 or more items; got 0."])
        let found = v.validate(["abcd", "a", .null, "a", "b"])
        // AllOf reports each validator: both say that null is not text.
        #expect(found.map(\.kind) == ["maxCount", "maxLength", "type", "type", "uniqueItems"])
        #expect(found.map(\.path) == ["", "[0]", "[2]", "[2]", "[3]"])
        #expect(found[1].message == "value[0] must have at most 3 characters; got 4.")
        #expect(found[4].message == "value[3] must be unique in the list; 'a' already appears at [1].")
        #expect(found[4].code == 2005)
        // TypedValidator reports the type once and skips the rest.
        let typed = CollectionValidator(each: TypedValidator(.string, then: StringValidator(maxLength: 3)))
        #expect(typed.validate(["abcd", .null]).map(\.kind) == ["maxLength", "type"])
        #expect(v.validate("a;b").map(\.message) == ["value must be a list; got 'a;b'."])
    }

    @Test func uniqueItemsComparesNumbersNumerically() {
        let v = CollectionValidator(uniqueItems: true)
        #expect(v.validate([1, .decimal(1)]).map(\.path) == ["[1]"])
        #expect(v.validate(["1", 1]).isEmpty)
        #expect(v.validate([1, 2, 1, 1]).map(\.path) == ["[2]", "[3]"])
    }

    @Test func keyedCollectionKeysRequiredAndAllowed() throws {
        let v = KeyedCollectionValidator(keys: ["zip": zip, "city": StringValidator(minLength: 2)],
                                         requiredKeys: ["city", "zip"], allowedKeys: ["city", "zip"])
        #expect(v.validate(.map(["city": "Oslo", "zip": "01234"])).isEmpty)
        let found = v.validate(.map(["zip": "1", "street": "Main", "city": "O", "street": "Side"]))
        // In the map's order; a repeated unknown key is reported once.
        #expect(found.map(\.kind) == ["pattern", "allowedKeys", "minLength"])
        #expect(found.map(\.path) == [".zip", ".street", ".city"])
        #expect(found[1].message == "value.street is not an allowed key; allowed keys: city, zip.")
        #expect(found[1].code == 2006)
        let missing = v.validate(.map(["zip": "12345"]))
        #expect(missing.map(\.description) == ["[1570 requiredKeys] value.city is required but missing."])
        #expect(missing[0].named("address").message == "address.city is required but missing.")
        #expect(v.validate(.list([])).map(\.message) == ["value must be a map; got '[]'."])
        #expect(KeyedCollectionValidator(keys: ["zip": zip]).validate(.map([:])).isEmpty)
        #expect(KeyedCollectionValidator(keys: ["zip": zip]).validate(.map(["zip": .null])).map(\.kind) == ["type"])
    }

    @Test func nestedValidatorsComposeWithPaths() throws {
        let phone = AllOf([TypeValidator(.string), StringValidator(pattern: try Pattern("\\+?[0-9 ]+"))])
        let person = KeyedCollectionValidator(keys: [
            "phones": CollectionValidator(minCount: 1, each: phone),
            "address": KeyedCollectionValidator(keys: ["zip": AnyOf([zip, unknown])], requiredKeys: ["zip"]),
            "tags": CollectionValidator(each: CollectionValidator(each: Not(StringValidator(enum: ["x"])))),
        ])
        let value = Value.map(["phones": ["+47 123", "call me"],
                               "address": .map(["zip": "abc"]),
                               "tags": [["a"], ["b", "x"]]])
        let found = person.validate(value)
        #expect(found.map(\.path) == [".phones[1]", ".address.zip", ".tags[1][1]"])
        #expect(found[0].message == "value.phones[1] must match the pattern \\+?[0-9 ]+; got 'call me'.")
        #expect(found[1].message == "value.address.zip must satisfy at least one alternative: "
            + "1) value.address.zip must match the pattern [0-9]{5}; got 'abc'. 2) value.address.zip must be one of n/a, unknown; got 'abc'.")
        #expect(found[1].causes.map(\.path) == [".address.zip", ".address.zip"])
        #expect(found[2].named("person").message == "person.tags[1][1] must not be one of x; got 'x'.")
    }

    @Test func blockValidators() {
        let even = BlockValidator(kind: "even", message: "{field} must be even; got {value}.") { value in
            if case .integer(let i)? = value.converted(to: .integer) { return i % 2 == 0 }
            return false
        }
        #expect(even.validate("4").isEmpty)
        #expect(even.validate(3).map(\.description) == ["[1550 even] value must be even; got 3."])
        #expect(CollectionValidator(each: even).validate([2, 5]).map(\.message) == ["value[1] must be even; got 5."])
        let custom = BlockValidator(summary: "start with x") { value in
            value.description.hasPrefix("x") ? [] : [
                Violation(kind: "prefix", code: 7, message: "no x"),
                Violation(kind: "prefix", code: 8, template: "{field} has no x", path: ".first"),
            ]
        }
        #expect(custom.validate("xy").isEmpty)
        #expect(custom.validate("y").map(\.message) == ["no x", "value.first has no x"])
        #expect(Not(custom).validate("xa").first?.message == "value must not start with x; got 'xa'.")
        #expect(BlockValidator(test: { $0.isNull }).validate(1).map(\.message) == ["value is invalid; got '1'."])
    }
}
