import Auditor
import Dispatch
import Testing

/// People as a reader would deliver them: text cells, plus a list column of phones.
func peopleChunk(firstRecord: Int = 0) -> RecordChunk {
    let rows: [(String?, String?, String?, [String])] = [
        ("Anna", "34", "true", ["+47 123"]),
        ("Tim", "14", "true", ["555", "call me"]),
        ("Zoe", "12", "false", []),
        ("Kim", "x", "true", ["1", "1"]),
        (nil, nil, nil, ["2"]),
    ]
    var b = RecordChunkBuilder(columnCount: 4, firstRecord: firstRecord)
    for (i, r) in rows.enumerated() {
        b.beginRecord(location: Int64(i + 2))
        if let name = r.0 { b.setText(0, name) }
        if let age = r.1 { b.setText(1, age) }
        if let licence = r.2 { b.setText(2, licence) }
        let phones = r.3.map { b.appendTextCell(Array($0.utf8)) }
        b.setComposite(3, .list(phones))
    }
    return b.build()
}

let peopleLayout = RecordLayout(columns: ["name": 0, "age": 1, "has_licence": 2, "phones": 3],
                                types: ["age": .integer, "has_licence": .boolean])

let licenceAge = RecordValidator(id: "person.licence_age", attributes: ["name", "age", "has_licence"],
                                 message: "{name} is {age} and too young to hold a driving licence.") { r in
    guard r.boolean("has_licence") == true, let age = r.integer("age") else { return true }
    return age >= 16
}

func peopleHooks() throws -> ValidationHooks {
    var hooks = ValidationHooks()
    hooks.add(AttributeValidator(id: "person.phones.format", attribute: "phones",
                                 CollectionValidator(each: StringValidator(pattern: try Pattern("\\+?[0-9 ]+")),
                                                     uniqueItems: true)),
              to: "Person")
    hooks.add(AttributeValidator(id: "person.name.required", attribute: "name", includesMissing: true, RequiredValidator()),
              to: "Person")
    hooks.add(licenceAge, to: "Person")
    return hooks
}

@Suite struct ValidatorHooksTests {
    @Test func recordViewReadsTypedValuesByName() {
        let chunk = peopleChunk(firstRecord: 10)
        let tim = RecordView(chunk: chunk, row: 1, layout: peopleLayout)
        #expect(tim["age"] == .integer(14))
        #expect(tim.raw("age") == .string("14"))
        #expect(tim["has_licence"] == .boolean(true))
        #expect(tim["name"] == .string("Tim"))
        #expect(tim["phones"] == .list(["555", "call me"]))
        #expect(tim["nope"] == .null)
        #expect(tim.record == 11)
        #expect(tim.location == 3)
        #expect(tim.describe(["age", "has_licence"]) == "age=14, has_licence=true")
        let kim = RecordView(chunk: chunk, row: 3, layout: peopleLayout)
        #expect(kim["age"] == .string("x"))        // not an integer: the stored value
        #expect(kim.integer("age") == nil)
        let nobody = RecordView(chunk: chunk, row: 4, layout: peopleLayout)
        #expect(nobody["age"] == .null)
        #expect(nobody.string("name") == nil)
        #expect(RecordView(chunk: chunk, row: 0, layout: RecordLayout(schema: Schema(fields: ["name", "age"]))).decimal("age") == 34)
    }

    @Test func recordValidatorRendersAttributesIntoItsMessage() {
        let chunk = peopleChunk()
        let tim = licenceAge.validate(RecordView(chunk: chunk, row: 1, layout: peopleLayout))
        #expect(tim.map(\.description) == ["[1550 record] Tim is 14 and too young to hold a driving licence."])
        #expect(tim.first?.parameters["values"] == "name=Tim, age=14, has_licence=true")
        #expect(licenceAge.validate(RecordView(chunk: chunk, row: 2, layout: peopleLayout)).isEmpty)  // no licence
        #expect(licenceAge.validate(RecordView(chunk: chunk, row: 3, layout: peopleLayout)).isEmpty)  // age not a number
    }

    @Test func attributeValidatorNamesViolationsAfterTheAttribute() throws {
        let hooks = try peopleHooks()
        let phones = try #require(hooks["Person"].attributeValidators.first)
        let tim = phones.validate(RecordView(chunk: peopleChunk(), row: 1, layout: peopleLayout))
        #expect(tim.map(\.message) == ["phones[1] must match the pattern \\+?[0-9 ]+; got 'call me'."])
        let name = hooks["Person"].attributeValidators[1]
        #expect(name.validate(RecordView(chunk: peopleChunk(), row: 4, layout: peopleLayout)).map(\.message)
            == ["name is required but missing."])
        var skipping = name
        skipping.includesMissing = false
        #expect(skipping.validate(RecordView(chunk: peopleChunk(), row: 4, layout: peopleLayout)).isEmpty)
        var recoded = phones
        recoded.code = 4000
        #expect(recoded.validate(RecordView(chunk: peopleChunk(), row: 1, layout: peopleLayout)).map(\.code) == [4000])
        #expect(recoded.ruleCode == 4000 && name.ruleCode == 1550)
    }

    @Test func entityHooksEvaluateAChunkInRowThenRuleOrder() throws {
        let hooks = try peopleHooks()["Person"]
        #expect(hooks.ruleIDs == ["person.phones.format", "person.name.required", "person.licence_age"])
        #expect(hooks.attributesRead == ["phones", "name", "age", "has_licence"])
        let found = hooks.evaluate(peopleChunk(), layout: peopleLayout)
        #expect(found.map { "\($0.row):\($0.rule) \($0.violation.message)" } == [
            "1:0 phones[1] must match the pattern \\+?[0-9 ]+; got 'call me'.",
            "1:2 Tim is 14 and too young to hold a driving licence.",
            "3:0 phones[1] must be unique in the list; '1' already appears at [0].",
            "4:1 name is required but missing.",
        ])
        let excluded = [false, true, false, false, false]
        #expect(hooks.evaluate(peopleChunk(), layout: peopleLayout, excluded: excluded).map(\.row) == [3, 4])
        #expect(ValidationHooks()["Person"].evaluate(peopleChunk(), layout: peopleLayout).isEmpty)
    }

    @Test func registrationProblemsAreReported() throws {
        var hooks = try peopleHooks()
        hooks.add(RecordValidator(id: "person.licence_age", attributes: ["agee"]) { _ in [] }, to: "Person")
        #expect(hooks.problems(entity: "Person", attributes: ["name", "age", "has_licence", "phones"],
                               ruleIDs: ["person.name.required"]) == [
            "hook id 'person.name.required' of 'Person' is already used by another rule; ids must be unique",
            "hook id 'person.licence_age' of 'Person' is already used by another rule; ids must be unique",
            "hook 'person.licence_age' reads 'agee', which is not an attribute of 'Person'; did you mean 'age'?",
        ])
        #expect(hooks.problems(entity: "Other", attributes: []).isEmpty)
        #expect(!hooks.isEmpty && ValidationHooks().isEmpty)
    }

    @Test func validatorsGiveIdenticalResultsFromManyThreads() throws {
        let tree = try YAMLLoader.load("""
            minCount: 1
            each:
              anyOf: [ { pattern: "[0-9]{3}" }, { enum: [n/a] }, { type: integer, min: 0, max: 9 } ]
            uniqueItems: true
            """, file: "t.yml")
        var d = [Diagnostic]()
        let validator = try #require(ConstraintTreeCompiler().compile(tree, into: &d))
        let values: [Value] = (0 ..< 200).map { i in
            .list((0 ..< (i % 7)).map { j in Value.string(j % 3 == 0 ? "12\(j % 10)" : j % 3 == 1 ? "n/a" : "x\(i)") })
        }
        let expected = values.map { validator.validate($0) }
        let hooks = try peopleHooks()["Person"]
        let chunk = peopleChunk()
        let expectedHooks = hooks.evaluate(chunk, layout: peopleLayout)
        let results = Results(count: 32)
        DispatchQueue.concurrentPerform(iterations: 32) { k in
            let mine = values.map { validator.validate($0) }
            results.set(k, mine == expected && hooks.evaluate(chunk, layout: peopleLayout) == expectedHooks)
        }
        #expect(results.all)
        #expect(expected.contains { !$0.isEmpty })
    }
}

/// One slot per iteration. `@unchecked Sendable`: every access holds `lock`.
final class Results: @unchecked Sendable {
    private let lock = SerialLock()
    private var slots: [Bool]

    init(count: Int) { slots = Array(repeating: false, count: count) }

    func set(_ i: Int, _ ok: Bool) { lock.sync { slots[i] = ok } }
    var all: Bool { lock.sync { slots.allSatisfy { $0 } } }
}

/// A serial queue used as a lock (keeps the test free of Foundation).
struct SerialLock: Sendable {
    private let queue = DispatchQueue(label: "validator.tests.results")
    func sync<T>(_ body: () -> T) -> T { queue.sync(execute: body) }
}
