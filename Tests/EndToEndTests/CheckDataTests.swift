import Foundation
import TestSupport
import Testing

/// `auditor check --data`: the declared attributes against each source's real fields, without
/// auditing. A declared attribute the input lacks is located at the attribute and exits 65
/// (as `run` would); undeclared fields are a warning at the source; a missing input exits 66.
@Suite("check --data")
struct CheckDataTests {
    enum Format: String, CaseIterable, Sendable { case csv, sqlite, xml }

    /// Writes `people` with fields id, name, email in `format`; returns the source block.
    static func writeSource(_ format: Format, in tmp: Scratch) throws -> String {
        switch format {
        case .csv:
            try tmp.write("people.csv", "id,name,email\n1,Ann,ann@example.com\n")
            return "    path: people.csv\n"
        case .sqlite:
            let db = tmp.path("people.db")
            let sqlite = try ChildProcess.run(["/usr/bin/sqlite3", db,
                "create table people(id integer, name text, email text); insert into people values (1, 'Ann', 'ann@example.com');"])
            try #require(sqlite.status == 0, "\(sqlite)")
            return "    path: people.db\n    sqlite: { table: people }\n"
        case .xml:
            try tmp.write("people.xml", "<people><person id=\"1\"><name>Ann</name><email>ann@example.com</email></person></people>\n")
            return "    path: people.xml\n    xml: { record: person }\n"
        }
    }

    @Test("A misspelt attribute: 65 at its rules-file line; undeclared fields: a warning", arguments: Format.allCases)
    func misspelt(_ format: Format) throws {
        let tmp = try Scratch("check-data")
        defer { tmp.remove() }
        let source = try Self.writeSource(format, in: tmp)
        let yaml = "version: 1\nsources:\n  people:\n" + source
            + "entities:\n  P:\n    source: people\n    attributes:\n      id: integer\n      emial: string\n"
        try tmp.write("rules.yml", yaml)
        // Without --data the file is valid: no data is read.
        try assertExecute(["check", "rules.yml"], in: tmp.url, exitCode: 0)
        let run = try assertExecute(["check", "rules.yml", "--data"], in: tmp.url, exitCode: 65)
        let at = try #require(position(of: "emial", in: yaml))
        #expect(run.stderrLines.contains { $0.hasPrefix("rules.yml:\(at.line):\(at.column): attribute 'emial' of 'P' is not a field of people.") && $0.hasSuffix("; did you mean 'email'? (its fields: id, name, email)") },
                "\(run)")
        #expect(run.stderrLines.contains { $0.hasPrefix("rules.yml:3:3: warning: ") && $0.hasSuffix("does not declare, so no rule checks them: name, email") },
                "\(run)")
        #expect(run.stdout.isEmpty, "no audit report\n\(run)")
    }

    @Test("Every attribute present: exit 0", arguments: Format.allCases)
    func matching(_ format: Format) throws {
        let tmp = try Scratch("check-data-ok")
        defer { tmp.remove() }
        let source = try Self.writeSource(format, in: tmp)
        let yaml = "version: 1\nsources:\n  people:\n" + source
            + "entities:\n  P:\n    source: people\n    attributes:\n      id: integer\n      name: string\n      email: string\n"
        try tmp.write("rules.yml", yaml)
        let run = try assertExecute(["check", "rules.yml", "--data"], in: tmp.url, exitCode: 0)
        #expect(run.stderrText.isEmpty, "\(run)")
    }

    @Test("A missing input: 66")
    func missingInput() throws {
        let tmp = try Scratch("check-data-missing")
        defer { tmp.remove() }
        try tmp.write("rules.yml", "version: 1\nsources:\n  people:\n    path: gone.csv\nentities:\n  P:\n    source: people\n    attributes:\n      id: integer\n")
        try assertExecute(["check", "rules.yml"], in: tmp.url, exitCode: 0)
        try assertExecute(["check", "rules.yml", "--data"], in: tmp.url, exitCode: 66)
    }
}
