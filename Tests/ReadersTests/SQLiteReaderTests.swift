import Auditor
import CSQLite
import Foundation
import TestSupport
import AuditorReaders
import Testing

/// The SQLite reader: conformance on tables, queries and WITHOUT ROWID tables, schema
/// resolution, options, and the generated people.sqlite.
@Suite struct SQLiteReaderTests {
    /// A table holding every storage class, NULLs, unicode, an embedded NUL, extreme integers,
    /// a TEXT in an INTEGER column and sparse rowids.
    static func makeMixed(_ dir: TemporaryDirectory) throws -> String {
        let path = dir.path("mixed.sqlite")
        let db = try TestDatabase(path)
        try db.exec("""
            CREATE TABLE mixed (id INTEGER PRIMARY KEY, i INTEGER, r REAL, s TEXT, b BLOB, n);
            INSERT INTO mixed VALUES (3, 42, 1.5, 'plain', x'414243', NULL);
            INSERT INTO mixed VALUES (10, -9223372036854775808, 2.0, 'Jürgen Müller 😀 ü', x'', 7);
            INSERT INTO mixed VALUES (1043, 9223372036854775807, -0.25, '', NULL, 'x');
            INSERT INTO mixed VALUES (1044, '34y', NULL, NULL, x'00FF', 3.25);
            INSERT INTO mixed VALUES (2000, NULL, 1e300, 'comma, "quote"' || char(10) || 'newline', NULL, x'7A');
            """)
        try db.exec(sql: "INSERT INTO mixed VALUES (2001, 0, 0.0, ?1, NULL, NULL)", text: "a\u{0}b")
        return path
    }

    static let mixedRecords: [DecodedRecord] = [
        DecodedRecord(location: 3, values: ["3", "42", "1.5", "plain", "ABC", nil]),
        DecodedRecord(location: 10, values: ["10", "-9223372036854775808", "2", "Jürgen Müller 😀 ü", "", "7"]),
        DecodedRecord(location: 1043, values: ["1043", "9223372036854775807", "-0.25", "", nil, "x"]),
        DecodedRecord(location: 1044, values: ["1044", "34y", nil, nil, "\u{0}\u{FFFD}", "3.25"]),
        DecodedRecord(location: 2000, values: ["2000", nil, "1e+300", "comma, \"quote\"\nnewline", nil, "z"]),
        DecodedRecord(location: 2001, values: ["2001", "0", "0", "a\u{0}b", nil, nil]),
    ]

    @Test func conformanceOnATable() throws {
        let dir = try TemporaryDirectory()
        let path = try Self.makeMixed(dir)
        var style: LocationStyle?
        try ReaderConformance.check(expected: Self.mixedRecords) {
            let reader = try SQLiteReader(request: .sqlite(path, table: "mixed"))
            style = reader.locationStyle
            #expect(reader.schema.fields == ["id", "i", "r", "s", "b", "n"])
            return reader
        }
        #expect(style == .rowid(table: "mixed"))
    }

    @Test func storageClassesBecomeTheirCellTags() throws {
        let dir = try TemporaryDirectory()
        let path = try Self.makeMixed(dir)
        let reader = try SQLiteReader(request: .sqlite(path, table: "mixed", fields: ["i", "r", "s", "b", "n"]))
        let chunk = try #require(try reader.nextChunk(maxRecords: 4096))
        try reader.finish()
        #expect(chunk.columns[0].map(\.tag) == [.integer, .integer, .integer, .text, .missing, .integer])
        #expect(chunk.columns[1].map(\.tag) == [.real, .real, .real, .missing, .real, .real])
        #expect(chunk.columns[2].map(\.tag) == [.text, .text, .text, .missing, .text, .text])
        #expect(chunk.columns[3].map(\.tag) == [.blob, .blob, .missing, .blob, .missing, .missing])
        #expect(chunk.columns[4].map(\.tag) == [.missing, .integer, .text, .real, .blob, .missing])
        #expect(chunk.columns[0][1].integerValue == Int64.min)
        #expect(chunk.columns[1][4].realValue == 1e300)
        #expect(chunk.columns[2][5].length == 3, "an embedded NUL is kept: sqlite3_column_bytes, not strlen")
    }

    @Test func conformanceOnAQuery() throws {
        let dir = try TemporaryDirectory()
        let path = try Self.makeMixed(dir)
        let expected = Self.mixedRecords.enumerated().map { index, record in
            DecodedRecord(location: Int64(index + 1), values: [record.values[3], record.values[1], record.values[0]])
        }
        try ReaderConformance.check(expected: expected) {
            let reader = try SQLiteReader(request: .sqlite(path, query: "SELECT s, i, id AS key FROM mixed ORDER BY id"))
            #expect(reader.schema.fields == ["s", "i", "key"])
            #expect(reader.locationStyle == .ordinal)
            return reader
        }
    }

    @Test func recursiveCommonTableExpressionsAreAllowed() throws {
        let dir = try TemporaryDirectory()
        let path = try Self.makeMixed(dir)
        let sql = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 10) SELECT x FROM c"
        let records = try ReaderConformance.check {
            try SQLiteReader(request: .sqlite(path, query: sql))
        }
        #expect(records.map { $0.values[0] } == (1 ... 10).map { String($0) })
    }

    @Test func withoutRowidTablesUseOrdinals() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("w.sqlite")
        let db = try TestDatabase(path)
        try db.exec("""
            CREATE TABLE w (code TEXT PRIMARY KEY, v) WITHOUT ROWID;
            INSERT INTO w VALUES ('c', 3), ('a', 1.5), ('b', NULL), ('ä', 'ü');
            """)
        let expected = [["a", "1.5"], ["b", nil], ["c", "3"], ["ä", "ü"]].enumerated().map {
            DecodedRecord(location: Int64($0.offset + 1), values: $0.element)
        }
        try ReaderConformance.check(expected: expected) {
            let reader = try SQLiteReader(request: .sqlite(path, table: "w"))
            #expect(reader.locationStyle == .ordinal)
            return reader
        }
    }

    @Test func viewsAreReadWithOrdinals() throws {
        let dir = try TemporaryDirectory()
        let path = try Self.makeMixed(dir)
        try TestDatabase(path).exec("CREATE VIEW big AS SELECT id, i FROM mixed WHERE id > 1000")
        let reader = try SQLiteReader(request: .sqlite(path, table: "big"))
        #expect(reader.locationStyle == .ordinal)
        let records = try ReaderConformance.readAll(reader, chunkSize: 2)
        #expect(records.map(\.location) == [1, 2, 3, 4])
        #expect(records.map { $0.values[0] } == ["1043", "1044", "2000", "2001"])
    }

    /// Requested fields come in request order, matched like SQLite matches names; one that is
    /// not a column is left out (the engine reports it), never turned into a constant.
    @Test func requestedFieldsThatAreNotColumnsAreLeftOut() throws {
        let dir = try TemporaryDirectory()
        let path = try Self.makeMixed(dir)
        let reader = try SQLiteReader(request: .sqlite(path, table: "mixed", fields: ["s", "agee", "id", "I", "s"]))
        #expect(reader.schema.fields == ["s", "id", "I"])
        let records = try ReaderConformance.readAll(reader, chunkSize: 7)
        #expect(records.count == 6)
        #expect(records.allSatisfy { !$0.values.contains("agee") })
        #expect(records[0].values == ["plain", "3", "42"])
    }

    /// With double-quoted string literals off, a typo in a query's column is an error, not the
    /// string 'agee' on every row.
    @Test func aTypoInAQueryIsAnErrorNotAStringLiteral() throws {
        let dir = try TemporaryDirectory()
        let path = try Self.makeMixed(dir)
        let error = try #require(throws: AuditError.self) {
            try SQLiteReader(request: .sqlite(path, query: "SELECT \"agee\" FROM mixed"))
        }
        #expect(error.code == .invalidRules)
        #expect(error.message.contains("no such column: agee"))
        #expect(error.location == "rules.yml:3:7")
    }

    @Test func aColumnNamedRowidDoesNotHideTheRowid() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("r.sqlite")
        try TestDatabase(path).exec("""
            CREATE TABLE "we""ird" (rowid TEXT, "co""l" INTEGER);
            INSERT INTO "we""ird"(_rowid_, rowid, "co""l") VALUES (7, 'seven', 1), (9, 'nine', 2);
            """)
        let reader = try SQLiteReader(request: .sqlite(path, table: "we\"ird"))
        #expect(reader.locationStyle == .rowid(table: "we\"ird"))
        #expect(reader.schema.fields == ["rowid", "co\"l"])
        let records = try ReaderConformance.readAll(reader, chunkSize: 4096)
        #expect(records == [DecodedRecord(location: 7, values: ["seven", "1"]),
                            DecodedRecord(location: 9, values: ["nine", "2"])])
    }

    /// A database without the table is a data problem (exit 65), located at the database; the
    /// message names the rules file's line, the database's tables and the closest one.
    @Test func anUnknownTableIsADataErrorThatSuggestsTheClosestName() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("app.sqlite")
        try TestDatabase(path).exec("CREATE TABLE people (id); CREATE TABLE departments (id);")
        let error = try #require(throws: AuditError.self) {
            try SQLiteReader(request: .sqlite(path, table: "peple", display: "app.sqlite"))
        }
        #expect(error.code == .malformedInput)
        #expect(error.message == "the database has no table or view 'peple' (rules: rules.yml:3:7); did you mean "
                    + "'people'? Its tables and views: 'departments', 'people'. Check that this is the right "
                    + "database, or correct the source's table in the rules file")
        #expect(error.location == "app.sqlite")
        #expect(error.code.exitStatus == .dataError)
    }

    @Test func anUnknownTableInADatabaseWithoutTablesSaysSo() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("empty.sqlite")
        try TestDatabase(path).exec("PRAGMA user_version = 1;")
        let error = try #require(throws: AuditError.self) {
            try SQLiteReader(request: .sqlite(path, table: "people", display: "empty.sqlite"))
        }
        #expect(error.code == .malformedInput)
        #expect(error.message.hasPrefix("the database has no table or view 'people' (rules: rules.yml:3:7). It has no tables."),
                "\(error)")
    }

    @Test func withoutAnSQLiteBlockTheTableIsNamedLikeTheSource() throws {
        let dir = try TemporaryDirectory()
        let path = try Self.makeMixed(dir)
        let request = ReaderRequest(sourceName: "mixed", path: path, displayPath: "mixed.sqlite",
                                    fields: ["s"])
        let reader = try SQLiteReader(request: request)
        #expect(reader.options.source == .table("mixed"))
        #expect(try ReaderConformance.readAll(reader, chunkSize: 4096).count == 6)
    }

    @Test func optionsAreCheckedWithLocatedDiagnostics() {
        func node(_ pairs: [(String, String)]) -> ConfigNode {
            .testMapping(pairs.enumerated().map { index, pair in (key: .testScalar(pair.0, line: 2 + index, column: 5),
                                                               value: .testScalar(pair.1, line: 2 + index, column: 12)) })
        }
        #expect(SQLiteOptions.diagnostics(for: node([("table", "people")])).isEmpty)
        #expect(SQLiteOptions.diagnostics(for: node([("query", "SELECT 1")])).isEmpty)
        let both = SQLiteOptions.diagnostics(for: node([("table", "people"), ("query", "SELECT 1")]))
        #expect(both.map(\.description) == ["rules.yml:3:5: 'table:' and 'query:' cannot be used together; keep one of them"])
        let typo = SQLiteOptions.diagnostics(for: node([("tables", "people")]))
        #expect(typo.map(\.message) == [
            "unknown key 'tables' in the sqlite block; did you mean 'table'?",
            "the sqlite block needs 'table:' (a table or view to audit) or 'query:' (a read-only SELECT)",
        ])
        #expect(SQLiteOptions.diagnostics(for: .testScalar("people", line: 1, column: 1)).map(\.message)
            == ["the sqlite block must be a mapping, not a scalar"])
        #expect(SQLiteOptions.diagnostics(for: node([("query", " ; ")])).map(\.message)
            == ["'query:' must be a SELECT statement"])
    }

    @Test func theFactoryClaimsSQLiteExtensions() {
        let registry = ReaderRegistry([SQLiteReader.factory])
        #expect(SQLiteReader.factory.format == "sqlite")
        for path in ["app.sqlite", "app.SQLITE3", "x/app.db"] {
            #expect(registry.factory(forPath: path)?.format == "sqlite", "\(path)")
        }
        #expect(registry.factory(forPath: "app.csv") == nil)
    }

    /// The generator's people.sqlite: every record, NULLs where the generator put them, and
    /// type faults (`age = '34y'`) as `.text` cells in INTEGER columns, in the numbers
    /// `expected.json` gives for SQLite.
    @Test(.enabled(if: GeneratedPeople.generatorPath != nil, "needs ../shared/bench/gen.py and python3"))
    func generatedPeopleDatabase() throws {
        let dir = try TemporaryDirectory()
        let (path, expected) = try GeneratedPeople.make(rows: 3000, in: dir)
        let columns = ["id", "name", "email", "birthday", "has_licence", "age", "salary", "country", "dept_id",
                       "created_at", "notes"]
        let reader = try SQLiteReader(request: .sqlite(path, table: "people", fields: columns))
        #expect(reader.schema.fields == columns)
        var rows = 0
        var nulls = [Int](repeating: 0, count: columns.count)
        var notInteger = [String: Int]()
        var ageTexts = [String]()
        var lastLocation: Int64 = 0
        while let chunk = try reader.nextChunk(maxRecords: 1000) {
            rows += chunk.count
            for row in 0 ..< chunk.count {
                #expect(chunk.locations[row] > lastLocation)
                lastLocation = chunk.locations[row]
                for c in columns.indices where chunk.columns[c][row].tag == .missing { nulls[c] += 1 }
                for name in ["id", "age", "dept_id"] {
                    let cell = chunk.columns[columns.firstIndex(of: name)!][row]
                    if cell.tag != .integer, cell.tag != .missing { notInteger[name, default: 0] += 1 }
                }
                let age = chunk.columns[5][row]
                if age.tag == .text, ageTexts.count < 3, let text = chunk.string(age) { ageTexts.append(text) }
                let licence = chunk.columns[4][row]
                if licence.tag != .missing, !(licence.tag == .integer && (0 ... 1).contains(licence.integerValue)) {
                    notInteger["has_licence", default: 0] += 1
                }
                let salary = chunk.columns[6][row]
                if salary.tag == .text || salary.tag == .blob { notInteger["salary", default: 0] += 1 }
            }
        }
        try reader.finish()
        #expect(rows == 3000)
        #expect(!ageTexts.isEmpty && ageTexts.allSatisfy { Int($0) == nil }, "\(ageTexts)")
        for (c, name) in columns.enumerated() {
            if let count = expected["person.\(name).required"] {
                #expect(nulls[c] == count, "NULLs in \(name)")
            }
        }
        for name in ["id", "age", "dept_id", "has_licence", "salary"] {
            #expect(notInteger[name, default: 0] == expected["person.\(name).type"], "type faults in \(name)")
        }
        #expect(expected["person.age.type", default: 0] > 0, "the fixture has TEXT ages to check")
    }
}

// MARK: - Test support (shared by the SQLite test files)

extension ReaderRequest {
    /// A request for an SQLite source whose `sqlite:` block (at rules.yml:2:3) holds `table:`
    /// or `query:` (its value at rules.yml:3:7).
    static func sqlite(_ path: String, table: String? = nil, query: String? = nil, fields: [String] = [],
                       display: String? = nil) -> ReaderRequest {
        var pairs = [(key: ConfigNode, value: ConfigNode)]()
        if let table { pairs.append((.testScalar("table", line: 3, column: 3), .testScalar(table, line: 3, column: 7))) }
        if let query { pairs.append((.testScalar("query", line: 3, column: 3), .testScalar(query, line: 3, column: 7))) }
        let block = ConfigNode(.mapping(pairs), mark: ConfigMark(file: "rules.yml", line: 2, column: 3))
        let options: any ReaderOptions
        do {
            options = try SQLiteReader.factory.decodeOptions(block)
        } catch {
            Issue.record("the sqlite block does not decode: \(error)")
            options = DefaultReaderOptions()
        }
        return ReaderRequest(sourceName: "people", path: path, displayPath: display ?? path, options: options,
                             fields: fields)
    }
}

extension ConfigNode {
    static func testScalar(_ text: String, line: Int, column: Int) -> ConfigNode {
        ConfigNode(.scalar(text, quoted: false), mark: ConfigMark(file: "rules.yml", line: line, column: column))
    }

    static func testMapping(_ pairs: [(key: ConfigNode, value: ConfigNode)]) -> ConfigNode {
        ConfigNode(.mapping(pairs), mark: ConfigMark(file: "rules.yml", line: 1, column: 1))
    }
}

/// people.sqlite from the shared benchmark generator (`../shared/bench/gen.py`).
enum GeneratedPeople {
    static let generatorPath: String? = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let gen = root.deletingLastPathComponent().appendingPathComponent("shared/bench/gen.py").path
        guard FileManager.default.fileExists(atPath: gen), FileManager.default.fileExists(atPath: "/usr/bin/python3")
        else { return nil }
        return gen
    }()

    /// Generates `rows` people with a high fault rate (so every fault kind occurs) and
    /// returns the database path and `counts_by_format.sqlite`.
    static func make(rows: Int, in dir: TemporaryDirectory) throws -> (String, [String: Int]) {
        let gen = try #require(generatorPath)
        let run = try ChildProcess.run(["/usr/bin/python3", gen, "--rows", String(rows), "--seed", "42", "--fault-rate", "0.2",
                                        "--out", dir.url.path, "--formats", "sqlite"])
        #expect(run.status == 0, "\(run)")
        let json = try Data(contentsOf: dir.url.appendingPathComponent("expected.json"))
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        let byFormat = try #require(object["counts_by_format"] as? [String: Any])
        let counts = try #require(byFormat["sqlite"] as? [String: Int])
        return (dir.path("people.sqlite"), counts)
    }
}
