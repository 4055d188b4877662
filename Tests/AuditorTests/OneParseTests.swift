import Foundation
@testable import Auditor
import Testing

/// Issue 14, "one typed parse per attribute per chunk": property rules, keys, record-rule
/// expressions, YAML validators and Swift hooks all read one classification per attribute.
@Suite struct OneParseTests {
    static let yaml = """
        version: 1
        sources: { t: { path: t.mem } }
        entities:
          Person:
            source: t
            key: [id]
            attributes:
              id:          { type: integer, required: true, unique: true }
              age:
                type: integer
                min: 0
                anyOf: [ { max: 120 }, { enum: [999] } ]
              has_licence: { type: boolean }
              birthday:    { type: date }
              created_at:  { type: datetime }
              salary:      { type: decimal, min: 0 }
            rules:
              - id: person.licence_age
                when: has_licence
                assert: age >= 16 and salary >= 0
              - id: person.age.consistent
                assert: age == yearsBetween(birthday, date(created_at))
        """
    static let fields = ["id", "age", "has_licence", "birthday", "created_at", "salary"]
    static let rows: [[String?]] = [
        ["1", "34", "true", "1990-05-17", "2024-06-01T10:00:00Z", "1000.5"],
        ["2", "14", "true", "2010-01-01", "2024-06-01T10:00:00.250Z", "0"],   // too young to drive; age consistent
        ["3", "130", "false", "1894-01-01", "2024-06-01T10:00:00+02:00", "-1"], // anyOf fails; salary < 0
        ["3", "x", nil, nil, "junk", "12345678901234567.5"],                   // duplicate id, age not an integer
        ["5", nil, "false", "1990-02-30", nil, nil],                           // missing age, invalid date
        ["6", "-2", "true", "2000-01-01", "2024-01-01T00:00:00Z", "7"],        // below min
    ]

    /// The entity bound to an in-memory schema, with an attribute hook and a record hook that
    /// both read `age`.
    static func bound(hookCalls: HookCounter = HookCounter()) throws -> BoundEntity {
        let registry = ReaderRegistry([InMemoryReader.factory(fields: fields, rows: rows)])
        let plan = try RuleCompiler.compile(try RulesFileParser(formats: registry.formats).parse(yaml, path: "rules.yml"))
        var hooks = ValidationHooks()
        hooks.add(AttributeValidator(id: "person.age.hook", attribute: "age", NumberValidator(max: 100)), to: "Person")
        hooks.add(RecordValidator(id: "person.age.typed", attributes: ["age", "has_licence"],
                                  message: "age {age} is not read as an integer") { view in
            hookCalls.record(view["age"])
            guard case .integer = view["age"] else { return view["age"] == .null || view["age"] == .string("x") }
            return view.boolean("has_licence") != nil || view["has_licence"] == .null
        }, to: "Person")
        let entity = try #require(plan.entities.first)
        return try BoundEntity(plan: entity, schema: Schema(fields: fields), structural: [], locationStyle: .line,
                               displayPath: "t.mem", hooks: hooks["Person"])
    }

    static func chunk() throws -> RecordChunk {
        let reader = InMemoryReader(fields: fields, rows: rows)
        return try #require(try reader.nextChunk(maxRecords: 100))
    }

    @Test func everyConsumerReadsOneClassificationPerAttribute() throws {
        let counter = HookCounter()
        let entity = try Self.bound(hookCalls: counter)
        let evaluation = ChunkEvaluator.evaluate(entity, try Self.chunk())
        // Every attribute is read by a property rule, and `age` also by both record rules, a
        // YAML validator (anyOf), an attribute hook and a record hook; `id` by the unique key.
        #expect(evaluation.parses == [1, 1, 1, 1, 1, 1])
        // The consumers saw the right values.
        let ids = Dictionary(grouping: evaluation.hits, by: \.check).mapValues { $0.map(\.row) }
        func rows(_ rule: String) -> [Int32] {
            let checks = entity.plan.checks.indices.filter { entity.plan.rules[entity.plan.checks[$0].slot].id == rule }
            return checks.flatMap { ids[Int32($0)] ?? [] }.sorted()
        }
        #expect(rows("Person.age.min") == [5])
        #expect(rows("Person.age.anyOf") == [2])
        #expect(rows("Person.age.type") == [3])
        #expect(rows("Person.salary.min") == [2])
        #expect(rows("person.licence_age") == [1, 5])
        #expect(rows("person.age.consistent") == [5])
        #expect(rows("person.age.hook") == [2, 3])      // 130 > 100; "x" is not a number
        #expect(rows("person.age.typed") == [])
        #expect(counter.values == [.integer(34), .integer(14), .integer(130), .string("x"), .null, .integer(-2)])
    }

    @Test func lifecycleKeysShareTheClassificationToo() throws {
        let entity = try Self.bound()
        let chunk = try Self.chunk()
        var context = PassContext()
        context.lifecycle = LifecycleContext(mode: .first, entity: entity, changedOnly: false)
        let evaluation = ChunkEvaluator.evaluate(entity, chunk, context)
        #expect(evaluation.parses == [1, 1, 1, 1, 1, 1])
        // The keys-only pre-pass classifies the key attribute alone.
        var keysOnly = PassContext()
        keysOnly.keysOnly = true
        #expect(ChunkEvaluator.evaluate(entity, chunk, keysOnly).parses == [1, 0, 0, 0, 0, 0])
    }

    /// Hooks read typed values from the engine's column, not from the text: a column whose
    /// parsed values disagree with its text (an injected classification) shows through.
    @Test func recordViewReadsTheInjectedClassification() {
        var b = RecordChunkBuilder(columnCount: 1, firstRecord: 0)
        b.beginRecord(location: 2)
        b.setText(0, "14")
        let chunk = b.build()
        let layout = RecordLayout(columns: ["age": 0], types: ["age": .integer])
        let injected = TypedColumn(type: .integer, state: [TypedParse.Classified.valid], numbers: [99], ints: [99],
                                   cells: chunk.columns[0])
        let view = RecordView(chunk: chunk, row: 0, layout: layout, typed: [0: injected])
        #expect(view["age"] == .integer(99))
        #expect(view.integer("age") == 99)
        #expect(view.raw("age") == .string("14"))
        #expect(RecordView(chunk: chunk, row: 0, layout: layout)["age"] == .integer(14))
    }
}

/// What a record hook saw, in row order (hooks run on one thread per chunk; the lock keeps
/// the counter `Sendable`).
final class HookCounter: @unchecked Sendable {     // every access holds `lock`
    private let lock = NSLock()
    private var seen = [Value]()

    func record(_ value: Value) {
        lock.lock()
        defer { lock.unlock() }
        seen.append(value)
    }

    var values: [Value] {
        lock.lock()
        defer { lock.unlock() }
        return seen
    }
}

/// The typed reads a hook gets from the engine's classification are the reads it got by
/// parsing the stored value (``Value/converted(to:)``), on generated cells of every shape.
@Suite struct RecordViewClassificationDifferentialTests {
    static let seeds = ["34", "-0", "007", "-12", "999999999999999", "1000000000000000", "9007199254740993",
                        "99999999999999999999", "1.50", "-0.5", "0.1", "12345678901234567.5", "1.", ".5", "1e3",
                        "true", "false", "TRUE", "yes", "2024-02-29", "2023-02-29", "1969-12-31", "0000-01-01",
                        "2021-03-04T12:34:56Z", "2021-03-04T12:34:56.5Z", "1969-12-31T23:59:59.999-01:30",
                        "2021-03-04T12:34:56+01:00", "2021-03-04T24:00:00Z", "", " 1", "x"]

    static func cells(storageClasses: Bool, seed: UInt64) -> RecordChunk {
        var random = SplitMix64(state: seed)
        let alphabet = Array("0123456789-:.TZ+ tf")
        var b = RecordChunkBuilder(columnCount: 1, firstRecord: 0)
        for i in 0 ..< 3000 {
            b.beginRecord(location: Int64(i + 2))
            switch Int.random(in: 0 ..< 10, using: &random) {
            case 0: break                                                   // missing
            case 1 where storageClasses: b.set(0, .integer(Int64.random(in: -3 ... 3, using: &random) * (i % 3 == 0 ? 1 : 1 << 52)))
            case 2 where storageClasses: b.set(0, .real([0.5, -2, 1e300, -0.0, 3, 1e16][Int.random(in: 0 ..< 6, using: &random)]))
            default:
                var chars = Array(seeds[Int.random(in: 0 ..< seeds.count, using: &random)])
                if !chars.isEmpty, Bool.random(using: &random) {
                    chars[Int.random(in: 0 ..< chars.count, using: &random)] = alphabet[Int.random(in: 0 ..< alphabet.count, using: &random)]
                }
                b.setText(0, String(chars))
            }
        }
        var chunk = b.build()
        chunk.storageClasses = storageClasses
        return chunk
    }

    @Test(arguments: [false, true])
    func typedReadsEqualParsedReads(storageClasses: Bool) {
        let chunk = Self.cells(storageClasses: storageClasses, seed: storageClasses ? 11 : 7)
        let types: [ValueType] = [.string, .integer, .decimal, .boolean, .date, .datetime]
        let n = chunk.count
        let none = [Bool](repeating: false, count: n)
        for type in types {
            var state = [UInt8](repeating: 0, count: n)
            var numbers = [Double](repeating: 0, count: n)
            var ints = [Int64](repeating: 0, count: n)
            chunk.bytes.withUnsafeBufferPointer { TypedParse.classify(type, chunk.columns[0], $0, none, &state, &numbers, &ints) }
            StorageClass.restrict(type, chunk.columns[0], &state, storageClasses: storageClasses)
            let column = TypedColumn(type: type, state: state, numbers: numbers, ints: ints, cells: chunk.columns[0])
            let layout = RecordLayout(columns: ["v": 0], types: ["v": type])
            var typedRows = 0
            for r in 0 ..< n {
                let typed = RecordView(chunk: chunk, row: r, layout: layout, typed: [0: column])
                let parsed = RecordView(chunk: chunk, row: r, layout: layout)
                if case .typed = column.lookup(r, as: type, in: chunk) { typedRows += 1 }
                #expect(typed["v"] == parsed["v"], "row \(r) as \(type): \(parsed.raw("v"))")
                for other in types {
                    #expect(typed.value("v", as: other) == parsed.value("v", as: other), "row \(r) as \(other)")
                }
            }
            // The comparison is not vacuous: many rows of a scalar type are served typed.
            if type != .string { #expect(typedRows > 40, "\(type)") }
        }
    }
}
