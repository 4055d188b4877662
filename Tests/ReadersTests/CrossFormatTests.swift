import Auditor
import Foundation
import TestSupport
import AuditorReaders
import Testing

/// References across formats: people in a CSV file, departments in a SQLite table.
@Suite struct CrossFormatTests {
    @Test func csvRecordsReferenceASQLiteTable() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("auditor-xformat-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try "id,dept\n1,10\n2,20\n3,30\n4,\n".write(to: dir.appendingPathComponent("people.csv"), atomically: true, encoding: .utf8)
        let db = dir.appendingPathComponent("org.sqlite").path
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") else {
            Issue.record("sqlite3 CLI missing: cannot build the fixture database")
            return
        }
        let sqlite = try ChildProcess.run(["/usr/bin/sqlite3", db,
            "CREATE TABLE departments (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO departments VALUES (10, 'Sales'), (20, 'Legal');"])
        try #require(sqlite.status == 0, "\(sqlite)")
        let yaml = """
            version: 1
            sources:
              people: { path: people.csv }
              departments: { path: org.sqlite }
            entities:
              Person:
                source: people
                key: [id]
                attributes: { id: integer, dept: integer }
                relationships:
                  department: { attribute: dept, references: Department.id }
              Department:
                source: departments
                attributes: { id: integer, name: string }
                relationships:
                  staff: { from: Person.department, maxCount: 0, severity: warning }
            """
        let rulesPath = dir.appendingPathComponent("rules.yml").path
        let registry = StandardReaders.registry
        let plan = try RuleCompiler.compile(try RulesFileParser(formats: registry.formats).parse(yaml, path: rulesPath))
        let result = try AuditEngine(registry: registry).run(plan)
        let fk = try #require(result.report.rules.first { $0.id == "Person.dept.fk" })
        #expect(fk.violations == 1)
        #expect(fk.samples.first?.location.line == 4)
        #expect(fk.samples.first?.value == "30")
        let staff = try #require(result.report.rules.first { $0.id == "Department.staff.maxCount" })
        #expect(staff.violations == 2)
        #expect(staff.samples.map { $0.location.description } == ["\(db):departments:rowid=10", "\(db):departments:rowid=20"])
        #expect(result.report.inputs.map(\.format) == ["csv", "sqlite"])
    }
}
