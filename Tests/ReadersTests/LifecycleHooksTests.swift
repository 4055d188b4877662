import Auditor
import AuditorReaders
import Foundation
import Testing

/// Swift hooks scoped with `on:` (Core Data's validateForInsert / validateForUpdate /
/// validateForDelete), through the real CSV and JSON Lines readers and the engine: which
/// records each hook sees, an update hook's previous record (committedValuesForKeys), and a
/// delete hook's view of the deleted record.
@Suite struct LifecycleHooksTests {
    static let rules = """
        version: 1
        sources:
          people: { path: people.FORMAT }
        entities:
          Person:
            source: people
            key: [id]
            attributes:
              id: { type: integer, required: true }
              name: string
              salary: decimal
              status: string
        """

    typealias Row = (id: Int, name: String, salary: String, status: String)

    static let previous: [Row] = [
        (1, "Ann", "1000", "active"), (2, "Bob", "2000", "active"), (3, "Cy", "3000", "left"),
        (4, "Dee", "4000", "active"), (5, "Eve", "5000", "active"), (6, "Fay", "6000", "active"),
    ]
    static let current: [Row] = [
        (1, "Ann", "1000", "active"),            // unchanged
        (2, "Bob", "3500", "active"),            // raise of 75 %
        (4, "Deirdre", "4000", "active"),        // renamed
        (5, "Eve", "5100", "active"),            // small raise
        (7, "gus", "700", "active"),             // inserted, lower-case name
        (8, "Hal", "800", "active"),             // inserted
    ]
    // 3 (left) and 6 (active) are deleted.

    static func write(_ rows: [Row], format: String, to url: URL) throws {
        var text = format == "csv" ? "id,name,salary,status\n" : ""
        for r in rows {
            switch format {
            case "csv": text += "\(r.id),\(r.name),\(r.salary),\(r.status)\n"
            case "xml": text += "<person><id>\(r.id)</id><name>\(r.name)</name><salary>\(r.salary)</salary><status>\(r.status)</status></person>\n"
            default: text += "{\"id\": \(r.id), \"name\": \"\(r.name)\", \"salary\": \(r.salary), \"status\": \"\(r.status)\"}\n"
            }
        }
        if format == "xml" { text = "<people>\n" + text + "</people>\n" }
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    /// The hooks: one per event, one that reports what every view holds, one unscoped.
    static func hooks() -> ValidationHooks {
        var hooks = ValidationHooks()
        hooks.add(RecordValidator(id: "person.raise.cap", attributes: ["name", "salary"], on: [.update],
                                  message: "{name}'s salary rose from {previous.salary} to {salary}, over 50 %.") { r in
            guard let now = r.decimal("salary"), let before = r.previous?.decimal("salary") else { return true }
            return now <= before * 1.5
        }, to: "Person")
        hooks.add(RecordValidator(id: "person.insert.capital", attributes: ["name"], on: [.insert],
                                  message: "{name} must start with a capital letter.") { r in
            r.string("name")?.first?.isUppercase ?? true
        }, to: "Person")
        hooks.add(RecordValidator(id: "person.delete.left", attributes: ["name", "status"], on: [.delete],
                                  message: "{name} was deleted while {status}.") { r in
            r.string("status") == "left"
        }, to: "Person")
        hooks.add(AttributeValidator(id: "person.name.update", attribute: "name", on: [.update],
                                     StringValidator(maxLength: 5)), to: "Person")
        // Every event, reporting what the view holds (every record it sees is a finding).
        hooks.add(RecordValidator(id: "person.seen", attributes: ["name", "salary"], on: [.insert, .update, .delete]) { r in
            let changed = ["name", "salary", "status"].filter { r.changed($0) }.joined(separator: "+")
            let before = r.previous.map { "\($0["name"])/\($0["salary"])" } ?? "-"
            let text = "\(r.event.map { "\($0)" } ?? "none") \(r["name"]) before=\(before) changed=\(changed)"
            return [Violation(kind: "record", code: 1550, message: text)]
        }, to: "Person")
        // An update hook that declares no attribute still knows what changed.
        hooks.add(RecordValidator(id: "person.changed", attributes: [], on: [.update]) { r in
            r.changed("salary") ? [Violation(kind: "record", code: 1550, message: "salary changed")] : []
        }, to: "Person")
        hooks.add(RecordValidator(id: "person.any", attributes: ["name"]) { r in
            [Violation(kind: "record", code: 1550, message: "\(r["name"])")]
        }, to: "Person")
        return hooks
    }

    static func audit(format: String, previous: Bool = true, jobs: Int = 1, chunk: Int = 4096) throws -> AuditReport {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("auditor-hooks-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try write(Self.previous, format: format, to: dir.appendingPathComponent("before.\(format)"))
        try write(Self.current, format: format, to: dir.appendingPathComponent("people.\(format)"))
        let registry = StandardReaders.registry
        let plan = try RuleCompiler.compile(try RulesFileParser(formats: registry.formats)
            .parse(rules.replacingOccurrences(of: "people: { path: people.FORMAT }",
                                              with: format == "xml" ? "people: { path: people.xml, xml: { record: person } }"
                                                                    : "people: { path: people.\(format) }"),
                   path: dir.appendingPathComponent("rules.yml").path))
        var options = AuditOptions(jobs: jobs, chunkSize: chunk, maxSamples: 100)
        if previous { options.previousPaths = ["people": dir.appendingPathComponent("before.\(format)").path] }
        options.hooks = hooks()
        return try AuditEngine(registry: registry, options: options).run(plan).report
    }

    static func messages(_ r: AuditReport, _ id: String) throws -> [String] {
        try #require(r.rules.first { $0.id == id }).samples.map(\.message)
    }

    @Test(arguments: ["csv", "jsonl", "xml"], [(1, 1), (2, 2), (2, 4096)])
    func eachHookSeesItsEvents(format: String, run: (jobs: Int, chunk: Int)) throws {
        let r = try Self.audit(format: format, jobs: run.jobs, chunk: run.chunk)
        // The expected views, from the rows above: updates carry the previous copy and what changed.
        let before = Dictionary(uniqueKeysWithValues: Self.previous.map { ($0.id, $0) })
        let now = Dictionary(uniqueKeysWithValues: Self.current.map { ($0.id, $0) })
        func decimal(_ s: String) -> String { "\(Value.decimal(Double(s) ?? .nan))" }
        var seen = [String]()
        for c in Self.current {
            guard let p = before[c.id] else {
                seen.append("insert \(c.name) before=- changed=")
                continue
            }
            let changed = [("name", p.name != c.name), ("salary", p.salary != c.salary), ("status", p.status != c.status)]
                .filter(\.1).map(\.0)
            if changed.isEmpty { continue }
            seen.append("update \(c.name) before=\(p.name)/\(decimal(p.salary)) changed=\(changed.joined(separator: "+"))")
        }
        let deleted = Self.previous.filter { now[$0.id] == nil }
        seen += deleted.map { "delete \($0.name) before=- changed=" }
        #expect(try Self.messages(r, "person.seen") == seen)
        #expect(try Self.messages(r, "person.raise.cap") == ["Bob's salary rose from 2000 to 3500, over 50 %."])
        #expect(try Self.messages(r, "person.insert.capital") == ["gus must start with a capital letter."])
        #expect(try Self.messages(r, "person.delete.left") == ["Fay was deleted while active."])
        let salaryChanged = Self.current.filter { c in before[c.id].map { $0.salary != c.salary } ?? false }.map { "id=\($0.id)" }
        #expect(try #require(r.rules.first { $0.id == "person.changed" }).samples.compactMap(\.key) == salaryChanged)
        #expect(try Self.messages(r, "person.name.update").count == 1)     // Deirdre, updated; not Hal or gus
        #expect(try #require(r.rules.first { $0.id == "person.name.update" }).samples.first?.key == "id=4")
        // Unscoped: every record of the current snapshot, none of the deleted ones.
        #expect(try Self.messages(r, "person.any") == Self.current.map(\.name))
        // A delete hook's finding points into the previous snapshot.
        let deletion = try #require(r.rules.first { $0.id == "person.delete.left" }?.samples.first)
        #expect(deletion.location.path.hasSuffix("before.\(format)"))
        #expect(deletion.key == "id=6")
    }

    @Test(arguments: ["csv", "jsonl", "xml"])
    func withoutAPreviousSnapshotEveryRecordIsAnInsert(format: String) throws {
        let r = try Self.audit(format: format, previous: false)
        #expect(try Self.messages(r, "person.seen") == Self.current.map { "insert \($0.name) before=- changed=" })
        #expect(try Self.messages(r, "person.insert.capital") == ["gus must start with a capital letter."])
        #expect(try Self.messages(r, "person.raise.cap").isEmpty)
        #expect(try Self.messages(r, "person.delete.left").isEmpty)
        #expect(try Self.messages(r, "person.any").count == Self.current.count)
    }

    /// A library user's own test of an update hook: a view built with its previous record.
    @Test func aViewCarriesItsPreviousRecord() throws {
        func chunk(_ salary: String) -> RecordChunk {
            var b = RecordChunkBuilder(columnCount: 2, firstRecord: 0)
            b.beginRecord(location: 2)
            b.setText(0, "Bob")
            b.setText(1, salary)
            return b.build()
        }
        let layout = RecordLayout(columns: ["name": 0, "salary": 1], types: ["salary": .decimal])
        let before = RecordView(chunk: chunk("2000"), row: 0, layout: layout)
        let view = RecordView(chunk: chunk("3500.00"), row: 0, layout: layout, previous: before, event: .update)
        #expect(view.previous?.decimal("salary") == 2000)
        #expect(view.changed("salary") && !view.changed("name"))
        #expect(view.event == .update && before.event == nil && before.previous == nil)
        let hook = Self.hooks()["Person"].recordValidators[0]
        #expect(hook.validate(view).map(\.message) == ["Bob's salary rose from 2000 to 3500, over 50 %."])
        #expect(hook.on == [.update])
    }
}

/// The lifecycle hooks example of docs/validators.md is the code ``LifecycleHooksTests`` runs.
@Suite struct LifecycleHooksDocsTests {
    @Test func validatorsDocExampleIsTheTestedCode() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let docs = try String(contentsOf: root.appendingPathComponent("docs/validators.md"), encoding: .utf8)
        let section = try #require(docs.range(of: "### Insert, update and delete hooks"))
        let start = try #require(docs.range(of: "```swift\n", range: section.upperBound ..< docs.endIndex))
        let end = try #require(docs.range(of: "```", range: start.upperBound ..< docs.endIndex))
        let example = docs[start.upperBound ..< end.lowerBound].split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let tested = Set(try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        #expect(example.count >= 8)
        for line in example { #expect(tested.contains(line), "docs/validators.md: '\(line)' is not in the tested hooks") }
    }
}

@Suite struct RecordEventsTests {
    /// A hook's `on:` scopes it exactly as the rules file's `on:` (the same class bits).
    @Test func eventsAreTheRulesFileScopes() throws {
        let yaml = """
            version: 1
            sources:
              people: { path: people.csv }
            entities:
              Person:
                source: people
                key: [id]
                attributes: { id: integer }
                rules:
                  - { id: a, on: [insert], assert: id > 0 }
                  - { id: b, on: [update], assert: id > 0 }
                  - { id: c, on: [delete], assert: id > 0 }
            """
        let plan = try RuleCompiler.compile(try RulesFileParser(formats: StandardReaders.registry.formats).parse(yaml, path: "r.yml"))
        let scopes = plan.entities[0].checks.compactMap(\.scope).map(\.rawValue)
        #expect(scopes == [RecordEvents.insert, .update, .delete].map(\.rawValue))
        #expect(RecordEvents([.insert, .delete]).description == "insert, delete")
    }
}
