import Foundation
import TestSupport
import Testing

/// `sqlite: { query: ..., locate: Person[Z_PK] }` locates findings by a key column of the query
/// in the model's terms (issue 18: `Shop.sqlite:Person[Z_PK=42]`, not an ordinal), as the Core
/// Data import writes it; mistakes in it are located rules-file errors (78).
@Suite("SQLite locate:") struct SQLiteLocateTests {
    static func database(_ scratch: Scratch) throws -> String {
        let path = scratch.path("app.sqlite")
        let python = try #require(GeneratedData.python3)
        let run = try ChildProcess.run([python.path, "-c", """
            import sqlite3, sys
            c = sqlite3.connect(sys.argv[1])
            c.execute("CREATE TABLE ZPERSON (Z_PK INTEGER PRIMARY KEY, ZNAME TEXT, ZAGE INTEGER)")
            c.executemany("INSERT INTO ZPERSON VALUES (?, ?, ?)", [(7, 'Ann', 30), (42, 'Bob', -1), (99, 'Cy', 200)])
            c.commit()
            """, path])
        try #require(run.status == 0, "\(run)")
        return path
    }

    static func rules(_ locate: String, source: String = "query: \"SELECT Z_PK, ZNAME AS name, ZAGE AS age FROM ZPERSON ORDER BY ZNAME\"") -> String {
        """
        version: 1
        sources:
          people:
            path: app.sqlite
            sqlite:
              \(source)
              \(locate)
        entities:
          Person:
            key: [Z_PK]
            attributes:
              Z_PK: integer
              name: string
              age: { type: integer, min: 0, max: 150 }
        """
    }

    @Test func findingsAreLocatedByTheKeyInTheModelsTerms() throws {
        let scratch = try Scratch("locate"); defer { scratch.remove() }
        _ = try Self.database(scratch)
        _ = try scratch.write("rules.yml", Self.rules("locate: Person[Z_PK]"))
        let run = try Auditor.run(["run", "rules.yml", "--format", "json", "-o", "report.json"], in: scratch.url)
        #expect(run.status == 1, "\(run)")
        let text = try Auditor.run(["run", "rules.yml"], in: scratch.url)
        #expect(text.stdoutText.contains("app.sqlite:Person[Z_PK=42]: error: Person.age.min"), "\(text.stdoutText)")
        #expect(text.stdoutText.contains("app.sqlite:Person[Z_PK=99]: error: Person.age.max"), "\(text.stdoutText)")
        let json = try String(contentsOfFile: scratch.path("report.json"), encoding: .utf8)
        let compact = json.filter { !$0.isWhitespace }
        #expect(compact.contains("\"locator\":{\"kind\":\"key\",\"container\":\"Person\",\"key\":\"Z_PK\",\"value\":42}"), "\(json.prefix(2000))")
    }

    @Test func mistakesAreLocatedRulesErrors() throws {
        let scratch = try Scratch("locate-bad"); defer { scratch.remove() }
        _ = try Self.database(scratch)
        for (locate, source, expected) in [
            ("locate: Person[ZID]", nil, "names the column 'ZID', which the query does not return"),
            ("locate: Person", nil, "'locate:' reads NAME[COLUMN]"),
            ("locate: Person[Z_PK]", "table: ZPERSON", "'locate:' goes with 'query:'"),
        ] as [(String, String?, String)] {
            _ = try scratch.write("rules.yml", source.map { Self.rules(locate, source: $0) } ?? Self.rules(locate))
            let run = try Auditor.run(["run", "rules.yml"], in: scratch.url)
            #expect(run.status == 78, "\(locate): \(run)")
            #expect(run.stderrText.contains(expected), "\(locate): \(run.stderrText)")
        }
    }
}
