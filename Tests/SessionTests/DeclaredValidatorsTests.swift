import Auditor
import AuditorReaders
import Foundation
import Testing

/// A rules file names the Swift validators it needs (`validators:` on an entity): the auditor
/// that runs it must carry them, or nothing is read (78); an auditor binary that carries a
/// team's validators (``AuditRequest/runsOnlyNamedValidators``) runs for each file only
/// those it names. Through the real CSV, JSON Lines and XML readers.
@Suite struct DeclaredValidatorsTests {
    static func rules(format: String, validators: String = "validators: [person.licence_age]") -> String {
        """
        version: 1
        sources:
          people: { path: people.\(format)\(format == "xml" ? ", xml: { record: person }" : "") }
        entities:
          Person:
            key: [id]
            \(validators)
            attributes:
              id: { type: integer, required: true }
              age: integer
              has_licence: boolean
        """
    }

    /// Ages 12 to 30 with a licence from 14: rows with age 14 and 15 hold one too young.
    static let rows = (0..<19).map { (id: $0 + 1, age: 12 + $0, licence: 12 + $0 >= 14) }

    static func write(_ folder: Folder, format: String) throws {
        var text = format == "csv" ? "id,age,has_licence\n" : ""
        for r in rows {
            switch format {
            case "csv": text += "\(r.id),\(r.age),\(r.licence)\n"
            case "xml": text += "<person><id>\(r.id)</id><age>\(r.age)</age><has_licence>\(r.licence)</has_licence></person>\n"
            default: text += "{\"id\": \(r.id), \"age\": \(r.age), \"has_licence\": \(r.licence)}\n"
            }
        }
        try folder.write("people.\(format)", format == "xml" ? "<people>\n\(text)</people>\n" : text)
    }

    static var hooks: ValidationHooks {
        var hooks = ValidationHooks()
        hooks.add(RecordValidator(id: "person.licence_age", attributes: ["age", "has_licence"],
                                  message: "{age} is too young to hold a driving licence.") { r in
            guard r.boolean("has_licence") == true, let age = r.integer("age") else { return true }
            return age >= 16
        }, to: "Person")
        hooks.add(AttributeValidator(id: "person.age.even", attribute: "age",
                                     BlockValidator { ($0.description.last.flatMap(\.wholeNumberValue) ?? 0) % 2 == 0 }),
                  to: "Person")
        return hooks
    }

    static func run(_ folder: Folder, format: String, rules: String, hooks: ValidationHooks = hooks,
                    onlyNamed: Bool) throws -> AuditReport {
        try folder.write("rules.yml", rules)
        try write(folder, format: format)
        var request = AuditRequest(rules: .file(folder.path("rules.yml")), registry: StandardReaders.registry)
        request.hooks = hooks
        request.runsOnlyNamedValidators = onlyNamed
        return try AuditSession(request).run().report
    }

    @Test(arguments: ["csv", "jsonl", "xml"])
    func aBinaryRunsTheValidatorsTheFileNames(format: String) throws {
        let folder = try Folder()
        defer { folder.remove() }
        let report = try Self.run(folder, format: format, rules: Self.rules(format: format), onlyNamed: true)
        let licence = try #require(report.rules.first { $0.id == "person.licence_age" })
        #expect(licence.violations == 2)
        #expect(licence.samples.map(\.message) == ["14 is too young to hold a driving licence.",
                                                   "15 is too young to hold a driving licence."])
        // Carried but not named: not run.
        #expect(!report.rules.contains { $0.id == "person.age.even" })

        // A library user's registration runs every hook, named or not.
        let all = try Self.run(folder, format: format, rules: Self.rules(format: format), onlyNamed: false)
        #expect(all.rules.first { $0.id == "person.age.even" }?.violations == 9)
        #expect(all.rules.first { $0.id == "person.licence_age" }?.violations == 2)
    }

    @Test func aFileThatNamesNoValidatorRunsNoneInABinary() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let report = try Self.run(folder, format: "csv", rules: Self.rules(format: "csv", validators: ""), onlyNamed: true)
        #expect(!report.rules.contains { $0.id.hasPrefix("person.") })
        #expect(report.rules.contains { $0.id == "Person.age.type" })
    }

    @Test func aValidatorTheAuditorLacksStopsTheRunBeforeReading() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let rules = Self.rules(format: "csv", validators: "validators: [person.licence_age, person.licence.age]")
        for (hooks, expected) in [
            (ValidationHooks(), ["rules.yml:7:18: entity 'Person' names the Swift validator 'person.licence_age', which this auditor does not carry (it carries none for 'Person')",
                                 "rules.yml:7:38: entity 'Person' names the Swift validator 'person.licence.age'"]),
            (Self.hooks, ["rules.yml:7:38: entity 'Person' names the Swift validator 'person.licence.age', which this auditor does not carry (it carries 'person.age.even', 'person.licence_age'); did you mean 'person.licence_age'?"]),
        ] {
            let error = try #require(throws: AuditError.self) {
                try Self.run(folder, format: "csv", rules: rules, hooks: hooks, onlyNamed: true)
            }
            #expect(error.code == .invalidRules)
            #expect(error.code.exitStatus.rawValue == 78)
            let lines = error.diagnostics.map { $0.description.replacingOccurrences(of: folder.url.path + "/", with: "") }
            #expect(lines.count == expected.count, "\(lines)")
            for (line, start) in zip(lines, expected) { #expect(line.hasPrefix(start), "\(line)") }
            // A library user's registration is held to the same promise.
            #expect(throws: AuditError.self) { try Self.run(folder, format: "csv", rules: rules, hooks: hooks, onlyNamed: false) }
        }
        // Registered on another entity: said so.
        var elsewhere = ValidationHooks()
        elsewhere.add(Self.hooks["Person"].recordValidators[0], to: "Employee")
        let error = try #require(throws: AuditError.self) {
            try Self.run(folder, format: "csv", rules: Self.rules(format: "csv"), hooks: elsewhere, onlyNamed: true)
        }
        #expect(error.diagnostics.first?.message.hasSuffix("it is registered on entity 'Employee'") == true, "\(error)")
    }

    @Test func checkNamesTheMissingValidatorsToo() throws {
        let folder = try Folder()
        defer { folder.remove() }
        try folder.write("rules.yml", Self.rules(format: "csv"))
        try Self.write(folder, format: "csv")
        let check = { (hooks: ValidationHooks) in
            try RulesCheck(folder.path("rules.yml"), registry: StandardReaders.registry, structuralRules: [], data: false, hooks: hooks)
        }
        let error = try #require(throws: AuditError.self) { try check(ValidationHooks()) }
        #expect(error.code == .invalidRules)
        #expect(try check(Self.hooks).errors.isEmpty)
    }

    @Test(arguments: [
        ("validators: ./MyValidators", "'./MyValidators' looks like a path"),
        ("validators: [a.b, a.b]", "validator 'a.b' is listed twice"),
        ("validators: [{ id: a }]", "lists validator ids (strings)"),
        ("validators: [\"\"]", "lists validator ids (strings)"),
    ])
    func theListIsChecked(line: String, message: String) throws {
        let folder = try Folder()
        defer { folder.remove() }
        let error = try #require(throws: AuditError.self) {
            try Self.run(folder, format: "csv", rules: Self.rules(format: "csv", validators: line), onlyNamed: true)
        }
        #expect(error.code == .invalidRules)
        #expect(error.diagnostics.contains { $0.message.contains(message) && $0.mark.line == 7 }, "\(error.diagnostics)")
    }
}
