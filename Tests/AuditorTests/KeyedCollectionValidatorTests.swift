import Auditor
import Testing

/// Issue 22, keyed collections (TWTValidation's keyed-collection validator): counts of a map's
/// entries, validators on every key name, on every value, and on the values of the keys a
/// pattern matches (`pairs`), compiled from YAML and as a Swift API.
@Suite struct KeyedCollectionValidatorTests {
    let contacts: Value = .map(["tel_home": "+47 22 00 00 00", "tel_work": "call me", "Mail": "a@b.c"])

    @Test("minCount and maxCount count a map's entries (1580, 1590), with their own wording")
    func countsOnMaps() throws {
        let v = try #require(try compileTree("{ minCount: 4, maxCount: 5 }").validator)
        let found = v.validate(contacts)
        #expect(found.map { "\($0.kind) \($0.code)" } == ["minCount 1580"])
        #expect(found.first?.message == "value must have 4 or more entries; got 3.")
        let most = try #require(try compileTree("maxCount: 2").validator)
        #expect(most.validate(contacts).map(\.message) == ["value must have 2 or fewer entries; got 3."])
        #expect(most.validate(.map([:])).isEmpty && most.isValid(.map(["a": "1"])) && !most.isValid(contacts))
        // A list keeps counting items; a map under each or uniqueItems is still not a list.
        #expect(most.validate(["a", "b", "c"]).map(\.message) == ["value must have 2 or fewer items; got 3."])
        let each = try #require(try compileTree("{ maxCount: 9, each: string }").validator)
        #expect(each.validate(contacts).map(\.kind) == ["type"])
    }

    @Test("eachKey checks every key's name, at [key 'name']; eachValue every value, at .key")
    func eachKeyAndEachValue() throws {
        let v = try #require(try compileTree(#"{ eachKey: { pattern: "[a-z_]+", maxLength: 8 }, eachValue: { minLength: 6 } }"#).validator)
        let found = v.validate(contacts)
        #expect(found.map { "\($0.path) \($0.kind) \($0.code)" }
            == ["[key 'Mail'] pattern 1680", ".Mail minLength 1670"])
        #expect(found.first?.message == "value[key 'Mail'] must match the pattern [a-z_]+; got 'Mail'.")
        #expect(!v.isValid(contacts))
        #expect(v.isValid(.map(["tel": "123456"])))
    }

    @Test("pairs: the values of the keys a pattern matches (a full match) pass the pair's constraints")
    func pairs() throws {
        let v = try #require(try compileTree(#"""
            pairs:
              - { keyPattern: "tel_.*", value: { pattern: "\\+?[0-9 ]+" } }
              - { keyPattern: "[Mm]ail", value: { pattern: ".+@.+" } }
            """#).validator)
        let found = v.validate(contacts)
        #expect(found.map { "\($0.path) \($0.kind)" } == [".tel_work pattern"])
        #expect(found.first?.message == "value.tel_work must match the pattern \\+?[0-9 ]+; got 'call me'.")
        #expect(v.validate(.map(["Mail": "nope", "other": "x"])).map(\.path) == [".Mail"])
        #expect(v.isValid(.map(["xtel_1": "abc"])), "keyPattern is a full match")
        #expect(v.validate("text").map(\.kind) == ["type"])
        #expect(v.summary.contains("have the values of keys matching tel_.*"))
    }

    @Test("pairs mistakes are located diagnostics", arguments: [
        ("pairs: []", "pairs must list at least one"),
        ("pairs: [ { keyPattern: \"a\" } ]", "needs 'keyPattern'"),
        ("pairs: [ { keyPattern: \"(\", value: string } ]", "invalid keyPattern"),
        ("pairs: [ { keyPattern: a, value: string, extra: 1 } ]", "extra"),
        ("pairs: { keyPattern: a }", "must be a list"),
    ])
    func pairsMistakes(yaml: String, expected: String) throws {
        let (v, d) = try compileTree(yaml)
        #expect(v == nil)
        #expect(d.contains { $0.contains(expected) && $0.hasPrefix("rules.yml:1:") }, "\(d)")
    }

    @Test("The Swift API: KeyedCollectionValidator(eachKey:eachValue:pairs:)")
    func swiftAPI() throws {
        let v = KeyedCollectionValidator(eachKey: StringValidator(maxLength: 4),
                                         pairs: [.init(keyPattern: try Pattern("tel_.*"), value: StringValidator(pattern: try Pattern("[0-9 +]+")))])
        #expect(v.validate(contacts).map(\.path) == ["[key 'tel_home']", "[key 'tel_work']", ".tel_work"])
    }
}
