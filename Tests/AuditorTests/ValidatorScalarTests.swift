import Auditor
import Testing

@Suite struct ValidatorScalarTests {
    @Test func typeParsesTextStrictly() {
        let integer = TypeValidator(.integer)
        #expect(integer.validate("12").isEmpty)
        #expect(integer.validate(.integer(12)).isEmpty)
        let bad = integer.validate("12.0")
        #expect(bad.map(\.description) == ["[2001 type] value must be an integer; got '12.0'."])
        #expect(bad.first?.parameters["type"] == "integer")
        #expect(TypeValidator(.date).validate("2021-02-29").first?.code == 1650)
        #expect(TypeValidator(.date).validate("2020-02-29").isEmpty)
        #expect(TypeValidator(.boolean).validate(.integer(0)).isEmpty)
        #expect(TypeValidator(.string).validate(.integer(5)).isEmpty)
        #expect(TypeValidator(.string).validate(.list([])).count == 1)
        #expect(TypeValidator(.decimal).validate(.null).map(\.message) == ["value must be a decimal number; got 'null'."])
    }

    @Test func requiredTellsNullFromEmpty() {
        let required = RequiredValidator()
        #expect(required.validate(.null).map(\.message) == ["value is required but missing."])
        #expect(required.validate("").map(\.message) == ["value is required but empty."])
        #expect(required.validate(.list([])).map(\.code) == [1570])
        #expect(required.validate(" ").isEmpty)
        let lenient = RequiredValidator(allowsEmpty: true)
        #expect(lenient.validate("").isEmpty)
        #expect(lenient.validate(.map([:])).isEmpty)
        #expect(lenient.validate(.null).count == 1)
    }

    @Test func nullAndNotNull() {
        #expect(NullValidator().validate(.null).isEmpty)
        #expect(NullValidator().validate("").map(\.description) == ["[2004 null] value must be null; got ''."])
        #expect(NotNull().validate("").isEmpty)
        #expect(NotNull().validate(.null).map(\.description) == ["[1570 notNull] value must not be null."])
        #expect(NumberValidator(min: 0).validate(.null).map(\.kind) == ["type"])
        #expect(NumberValidator(min: 0).allowingNull().validate(.null).isEmpty)
        #expect(NumberValidator(min: 0).allowingNull().validate(-1).map(\.kind) == ["min"])
    }

    @Test func numberBounds() {
        let v = NumberValidator(min: 0, max: 10)
        for ok: Value in [0, 10, "5", "0.5", .decimal(9.99)] { #expect(v.validate(ok).isEmpty, "\(ok)") }
        #expect(v.validate(-1).map(\.description) == ["[1620 min] value must be at least 0; got -1."])
        #expect(v.validate("10.5").map(\.description) == ["[1610 max] value must be at most 10; got 10.5."])
        let exclusive = NumberValidator(exclusiveMin: 0, exclusiveMax: 1.5)
        #expect(exclusive.validate(0).map(\.kind) == ["exclusiveMin"])
        #expect(exclusive.validate(1.5).map(\.message) == ["value must be less than 1.5; got 1.5."])
        #expect(exclusive.validate(1).isEmpty)
    }

    @Test func numberIntegralEnumAndType() {
        #expect(NumberValidator(integral: true).validate(12.0).isEmpty)
        #expect(NumberValidator(integral: true).validate("12.25").map(\.description)
            == ["[2003 integral] value must be a whole number; got 12.25."])
        let allowed = NumberValidator(enum: [1, 2.5])
        #expect(allowed.validate("1.0").isEmpty)
        #expect(allowed.validate(.integer(1)).isEmpty)
        #expect(allowed.validate(2).map(\.message) == ["value must be one of 1, 2.5; got '2'."])
        #expect(NumberValidator(min: 0).validate("abc").map(\.description) == ["[2001 type] value must be a number; got 'abc'."])
        #expect(NumberValidator(min: 0).validate(.decimal(.nan)).map(\.kind) == ["type"])
    }

    @Test func numberReportsEveryFailingCheck() {
        let v = NumberValidator(min: 0, exclusiveMin: 0, integral: true, enum: [1, 2])
        let found = v.validate(-0.5)
        #expect(found.map(\.kind) == ["min", "exclusiveMin", "integral", "enum"])
        #expect(found.map(\.code) == [1620, 1620, 2003, 2002])
    }

    @Test func stringChecks() throws {
        let v = StringValidator(minLength: 2, maxLength: 4, pattern: try Pattern("[a-zé]+"), enum: ["ab", "abc", "zoé"])
        #expect(v.validate("ab").isEmpty)
        #expect(v.validate("zoé").isEmpty)
        #expect(v.validate("a").map(\.description) == [
            "[1670 minLength] value must have at least 2 characters; 'a' has 1.",
            "[2002 enum] value must be one of ab, abc, zoé; got 'a'.",
        ])
        #expect(v.validate("abcde").map(\.kind) == ["maxLength", "enum"])
        #expect(v.validate("AB").map(\.message) == ["value must match the pattern [a-zé]+; got 'AB'.",
                                                    "value must be one of ab, abc, zoé; got 'AB'."])
        #expect(StringValidator(maxLength: 2).validate(.integer(123)).map(\.kind) == ["maxLength"])
        #expect(StringValidator(maxLength: 2).validate(.list(["a"])).map(\.message) == ["value must be text; got '[a]'."])
    }

    @Test func oneValueFailingThreeConstraintsGivesThreeViolations() throws {
        let v = StringValidator(minLength: 5, pattern: try Pattern("[0-9]+"), enum: ["123456"])
        let found = v.validate("ab")
        #expect(found.count == 3)
        #expect(found.map(\.kind) == ["minLength", "pattern", "enum"])
        #expect(found.map(\.code) == [1670, 1680, 2002])
    }

    @Test func lengthCountsUnicodeScalars() {
        let v = StringValidator(minLength: 3, maxLength: 3)
        #expect(v.validate("zoé").isEmpty)                          // é as one scalar
        #expect(v.validate("zoe\u{301}").map(\.kind) == ["maxLength"])  // e + combining accent: 4 scalars
        #expect(v.validate("👍🏽!").map(\.kind) == [])                // 2 scalars + 1
        #expect(v.validate("zoe\u{301}").first?.parameters["length"] == "4")
    }

    @Test func customMessagesAndCodes() {
        let v = StringValidator(minLength: 3, maxLength: 8, message: "Name must be {minLength} to {maxLength} letters; got '{value}' ({length}).", code: 4242)
        #expect(v.validate("Al").map(\.description) == ["[4242 minLength] Name must be 3 to 8 letters; got 'Al' (2)."])
        let n = NumberValidator(min: 18, message: "{field} of {value} is under {min} {unknown}")
        #expect(n.validate(12).first?.message == "value of 12 is under 18 {unknown}")
        #expect(n.validate(12).first?.named("age").message == "age of 12 is under 18 {unknown}")
        let literal: MessageTemplate = "unclosed {brace"
        #expect(TypeValidator(.integer, message: literal).validate("x").first?.message == "unclosed {brace")
    }

    @Test func violationsMoveWithTheirPath() {
        let v = NumberValidator(max: 3).validate(5)[0]
        let moved = v.nested(under: ".b").nested(under: "[1]")
        #expect(moved.path == "[1].b")
        #expect(moved.location == "value[1].b")
        #expect(moved.message == "value[1].b must be at most 3; got 5.")
        #expect(moved.named("items").message == "items[1].b must be at most 3; got 5.")
        let fixed = Violation(kind: "custom", code: 1, message: "as is").nested(under: "[0]")
        #expect(fixed.message == "as is")
        #expect(fixed.path == "[0]")
    }
}
