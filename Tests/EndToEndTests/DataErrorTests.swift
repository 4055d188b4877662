import Foundation
import TestSupport
import Testing

/// Data problems are data exit codes (issue 13 §4): an input that lacks a declared column, a
/// database without the table, exits 65 at the input (never 78, which blames the rules file),
/// names what is missing, what was found and a did-you-mean, and the other entities are still
/// audited. `auditor check` still catches, from the rules alone, what the rules declare.
@Suite("Data errors are exit 65")
struct DataErrorTests {
    /// `rules/people.yml` with Person's source at `people` (a path relative to the scratch
    /// folder) and Department's at the bundled departments.csv.
    static func rules(people: String, format: String = "csv") throws -> String {
        let text = try String(contentsOf: Auditor.packageRoot.appendingPathComponent("rules/people.yml"), encoding: .utf8)
        let departments = Auditor.packageRoot.appendingPathComponent("examples/people/departments.csv").path
        return text.replacingOccurrences(of: "path: ../examples/people/people.csv", with: "path: \(people)")
            .replacingOccurrences(of: "path: ../examples/people/departments.csv", with: "path: \(departments)")
    }

    /// Runs sqlite3 on a database (the CLI is the reference that builds the test inputs).
    static func sqlite3(_ database: String, _ sql: String) throws {
        let run = try ChildProcess.run(["sqlite3", database, sql])
        #expect(run.status == 0, "sqlite3 \(sql): \(run)")
    }

    /// The JSON report's rules of one entity.
    static func rules(of entity: String, _ report: ReportJSON) -> [[String: Any]] {
        report.rules.filter { $0["entity"] as? String == entity }
    }

    /// Exit 65, the message on stderr, Person's rules "not evaluated", Department's evaluated.
    func expectDataError(_ run: Execution, message: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(run.status == 65, "\(run)", sourceLocation: sourceLocation)
        #expect(run.stderrText.contains(message), "stderr lacks: \(message)\n\(run)", sourceLocation: sourceLocation)
        #expect(!run.stderrText.contains(": the rules file"), "\(run)", sourceLocation: sourceLocation)
        let report = try ReportJSON(run.stdout)
        #expect(report.summary["outcome"] as? String == "incomplete", sourceLocation: sourceLocation)
        let person = Self.rules(of: "Person", report)
        #expect(!person.isEmpty && person.allSatisfy { $0["status"] as? String == "not-evaluated" },
                "\(person.map { $0["status"] ?? "" })", sourceLocation: sourceLocation)
        let department = Self.rules(of: "Department", report)
        #expect(!department.isEmpty && department.allSatisfy { integer($0["evaluated"]) == 25 },
                "the other entity is still audited: \(department)", sourceLocation: sourceLocation)
    }

    @Test("CSV without a declared column: 65 at people.csv:1:1 with the header's columns and a did-you-mean")
    func csvMissingColumn() throws {
        let tmp = try Scratch("csv-missing-column")
        defer { tmp.remove() }
        let original = try String(contentsOf: Auditor.packageRoot.appendingPathComponent("examples/people/people.csv"), encoding: .utf8)
        var lines = original.components(separatedBy: "\n")
        lines[0] = lines[0].replacingOccurrences(of: ",age,", with: ",agee,")
        try tmp.write("people.csv", lines.joined(separator: "\n"))
        try tmp.write("rules.yml", try Self.rules(people: "people.csv"))
        let run = try Auditor.run(["run", "rules.yml", "--format", "json"], in: tmp.url)
        try expectDataError(run, message: "people.csv:1:1: the header of people.csv lacks the column 'age' that 'Person' declares at rules.yml:")
        #expect(run.stderrText.contains("; did you mean 'agee'? Its columns: 'id', 'name', 'email', 'birthday', 'has_licence', 'agee',"), "\(run)")
        #expect(run.stderrText.contains("Export the data with this column, or correct the attribute name in the rules file\n"), "\(run)")
    }

    @Test("SQLite database without the table: 65 at the database with its tables and a did-you-mean")
    func sqliteMissingTable() throws {
        let tmp = try Scratch("sqlite-missing-table")
        defer { tmp.remove() }
        try tmp.copy(fromPackage: "examples/people/people.sqlite")
        try Self.sqlite3(tmp.path("people.sqlite"), "ALTER TABLE people RENAME TO peoples")
        try tmp.write("rules.yml", try Self.rules(people: "people.sqlite"))
        let run = try Auditor.run(["run", "rules.yml", "--format", "json"], in: tmp.url)
        try expectDataError(run, message: "people.sqlite: the database has no table or view 'people' (rules: rules.yml:")
        #expect(run.stderrText.contains("did you mean 'peoples'? Its tables and views: 'departments', 'peoples'."), "\(run)")
    }

    @Test("SQLite table without a declared column: 65 at database:table with its columns and a did-you-mean")
    func sqliteMissingColumn() throws {
        let tmp = try Scratch("sqlite-missing-column")
        defer { tmp.remove() }
        try tmp.copy(fromPackage: "examples/people/people.sqlite")
        try Self.sqlite3(tmp.path("people.sqlite"), "ALTER TABLE people RENAME COLUMN salary TO salaire")
        try tmp.write("rules.yml", try Self.rules(people: "people.sqlite"))
        let run = try Auditor.run(["run", "rules.yml", "--format", "json"], in: tmp.url)
        try expectDataError(run, message: "people.sqlite:people: table 'people' of people.sqlite lacks the column 'salary' that 'Person' declares at rules.yml:")
        #expect(run.stderrText.contains("did you mean 'salaire'? Its columns: 'id', 'name', 'email', 'birthday', 'has_licence', 'age', 'salaire',"),
                "\(run)")
    }

    @Test("A previous snapshot without a declared column: 65 at the snapshot, records unclassified, the audit goes on")
    func previousSnapshotMissingColumn() throws {
        let tmp = try Scratch("previous-missing-column")
        defer { tmp.remove() }
        for day in ["2026-11-20", "2026-11-21"] {
            for file in ["docs.csv", "folders.csv"] { try tmp.copy(fromPackage: "examples/snapshots/\(day)/\(file)", as: "\(day)/\(file)") }
        }
        try tmp.copy(fromPackage: "examples/snapshots/rules.yml")
        let old = try String(contentsOf: tmp.url.appendingPathComponent("2026-11-20/docs.csv"), encoding: .utf8)
        try tmp.write("2026-11-20/docs.csv", old.replacingOccurrences(of: "id,folder,title,status,author", with: "id,folder,title,state,author"))
        let run = try Auditor.run(["run", "rules.yml", "--format", "json", "--previous", "docs=2026-11-20/docs.csv",
                                   "--previous", "folders=2026-11-20/folders.csv"], in: tmp.url)
        #expect(run.status == 65, "\(run)")
        #expect(run.stderrText.contains("2026-11-20/docs.csv:1:1: the header of 2026-11-20/docs.csv lacks the column 'status' that 'Doc' declares at rules.yml:"), "\(run)")
        #expect(run.stderrText.contains(". Its columns: 'id', 'folder', 'title', 'state', 'author'."), "\(run)")
        let report = try ReportJSON(run.stdout)
        let title = try #require(report.rules(withID: "Doc.status.enum").first)
        #expect(integer(title["evaluated"]) ?? 0 > 0, "today's docs are still audited: \(title)")
    }

    @Test("The same entity on a good input passes through: only the input that lacks the column is 65")
    func otherEntitiesOnTheSameRunAreAudited() throws {
        let tmp = try Scratch("csv-missing-other")
        defer { tmp.remove() }
        // Department's input lacks 'name'; Person (with its references) is still read and judged.
        try tmp.write("departments.csv", "id,title\n1,Sales\n")
        let text = try String(contentsOf: Auditor.packageRoot.appendingPathComponent("rules/people.yml"), encoding: .utf8)
        let people = Auditor.packageRoot.appendingPathComponent("examples/people/people.csv").path
        try tmp.write("rules.yml", text.replacingOccurrences(of: "path: ../examples/people/people.csv", with: "path: \(people)")
            .replacingOccurrences(of: "path: ../examples/people/departments.csv", with: "path: departments.csv"))
        let run = try Auditor.run(["run", "rules.yml", "--format", "json"], in: tmp.url)
        #expect(run.status == 65, "\(run)")
        #expect(run.stderrText.contains("departments.csv:1:1: the header of departments.csv lacks the column 'name' that 'Department' declares at rules.yml:"), "\(run)")
        let report = try ReportJSON(run.stdout)
        let pattern = try #require(report.rules(withID: "person.name.pattern").first)
        #expect(integer(pattern["violations"]) == 3, "Person is audited: \(pattern)")
        let fk = try #require(report.rules(withID: "person.dept_id.fk").first)
        #expect(integer(fk["evaluated"]) == 0, "the reference into the unread entity is not evaluated: \(fk)")
    }
}
