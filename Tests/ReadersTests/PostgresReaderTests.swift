import Auditor
import AuditorReaders
import Foundation
import Testing

@Suite("PostgreSQL reader (a throwaway server)", .enabled(if: PostgresServer.available, PostgresServer.skipReason))
struct PostgresReaderTests {
    static func server() throws -> PostgresServer { try PostgresServer.shared.get() }

    static func request(_ url: String, table: String? = nil, query: String? = nil, locate: String? = nil,
                        fields: [String] = [], sourceName: String = "t") -> ReaderRequest {
        var options: any ReaderOptions = DefaultReaderOptions()
        if let table { options = PostgresOptions(source: .table(table)) }
        if let query { options = PostgresOptions(source: .query(query)) }
        if let locate, var o = options as? PostgresOptions {
            o.locator = PostgresOptions.Locator(container: nil, column: locate)
            options = o
        }
        return ReaderRequest(sourceName: sourceName, path: url, displayPath: SourceURL.redacted(url), options: options, fields: fields)
    }

    static let typesSetup = """
        CREATE TABLE typed (
          id bigint PRIMARY KEY, i2 smallint, i4 integer, i8 bigint, f8 double precision, f4 real,
          n numeric, n0 numeric(12,0), b boolean, d date, ts timestamp(6), tz timestamptz,
          t text, v varchar(20), c char(3), by bytea, j jsonb, arr integer[], u uuid);
        INSERT INTO typed VALUES
          (1, -32768, 2147483647, 9007199254740993, 0.1, 1.5, 1234567890123456789012345678901234567.891,
           42, true, '1990-05-17', '2024-01-02 03:04:05.123456', '2024-01-02 03:04:05.5+02',
           'héllo wörld ✓', '', 'ab', '\\x00ff0a5c'::bytea, '{"a": [1, 2]}', '{1,2,3}',
           'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'),
          (2, NULL, NULL, -9223372036854775808, 'NaN', '-Infinity', 'NaN', -7, false, 'infinity', '2024-01-02 03:04:05',
           '1999-12-31 23:59:59+00', E'tab\\there\\nnewline\\\\back\\rcr', NULL, NULL, '', 'null', '{}', NULL);
        """

    @Test func typesMapToCellsByTheirCatalogType() throws {
        let server = try Self.server()
        let db = try server.makeDatabase("types", setup: Self.typesSetup)
        let reader = try PostgresReader(request: Self.request(server.url(database: db), table: "typed"))
        #expect(reader.schema.fields == ["id", "i2", "i4", "i8", "f8", "f4", "n", "n0", "b", "d", "ts", "tz",
                                         "t", "v", "c", "by", "j", "arr", "u"])
        #expect(reader.locationStyle == .key(container: "\(db).public.typed", name: "id"))
        let records = try ReaderConformance.readAll(reader, chunkSize: 4096)
        let row1 = try #require(records.first)
        #expect(row1.location == 1)
        #expect(row1.values == ["1", "-32768", "2147483647", "9007199254740993", "0.1", "1.5",
                                "1234567890123456789012345678901234567.891", "42", "true", "1990-05-17",
                                "2024-01-02T03:04:05.123456Z", "2024-01-02T01:04:05.5Z", "héllo wörld ✓", "", "ab ",
                                row1.values[15], "{\"a\": [1, 2]}", "{1,2,3}", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"])
        let row2 = try #require(records.last)
        #expect(row2.values == ["2", nil, nil, "-9223372036854775808", "NaN", "-Infinity", "NaN", "-7", "false",
                                "infinity", "2024-01-02T03:04:05Z", "1999-12-31T23:59:59Z",
                                "tab\there\nnewline\\back\rcr", nil, nil, row2.values[15], "null", "{}", nil])
    }

    @Test func cellTagsFollowTheTypes() throws {
        let server = try Self.server()
        let db = try server.makeDatabase("tags", setup: Self.typesSetup)
        let reader = try PostgresReader(request: Self.request(server.url(database: db), table: "typed",
                                                              fields: ["i8", "f8", "n", "b", "t", "v", "by"]))
        let chunk = try #require(try reader.nextChunk(maxRecords: 10))
        try reader.finish()
        #expect(chunk.columns[0].map(\.tag) == [.integer, .integer])
        #expect(chunk.columns[0][0].integerValue == 9_007_199_254_740_993, "int8 beyond 2^53 stays exact")
        #expect(chunk.columns[1].map(\.tag) == [.real, .text], "NaN is text, which no numeric type accepts")
        #expect(chunk.columns[2].map(\.tag) == [.text, .text], "numeric keeps its exact text")
        #expect(chunk.columns[3].map(\.tag) == [.text, .text])
        #expect(chunk.columns[4][1].length > 0)
        #expect(chunk.columns[5].map(\.tag) == [.text, .missing], "an empty string is not NULL")
        #expect(chunk.columns[5][0].length == 0)
        #expect(chunk.columns[6].map(\.tag) == [.blob, .blob])
        let blob = chunk.columns[6][0]
        #expect(Array(chunk.bytes[Int(blob.payload) ..< Int(blob.payload) + Int(blob.length)]) == [0x00, 0xFF, 0x0A, 0x5C])
        #expect(chunk.columns[6][1].length == 0)
        #expect(!chunk.storageClasses, "text columns are judged like CSV text")
    }

    @Test func conformanceOnATableWithAnIntegerKey() throws {
        let server = try Self.server()
        let db = try server.makeDatabase("conf", setup: """
            CREATE TABLE people (id integer PRIMARY KEY, name text, score numeric(6,2));
            INSERT INTO people SELECT g, 'name ' || g, g * 1.25 FROM generate_series(1, 20) g;
            """)
        let expected = (1 ... 20).map { g in
            DecodedRecord(location: Int64(g), values: ["name \(g)", String(format: "%.2f", Double(g) * 1.25)])
        }
        try ReaderConformance.check(expected: expected) {
            try PostgresReader(request: Self.request(server.url(database: db), table: "people", fields: ["name", "score"]))
        }
    }

    @Test func aQueryIsReadWithOrdinalsOrItsLocateColumn() throws {
        let server = try Self.server()
        let db = try server.makeDatabase("query", setup: "CREATE TABLE p (k int, v text); INSERT INTO p VALUES (10, 'a'), (20, 'b')")
        let url = server.url(database: db)
        let records = try ReaderConformance.check {
            try PostgresReader(request: Self.request(url, query: "SELECT v, k FROM p ORDER BY k"))
        }
        #expect(records == [rec(1, "a", "10"), rec(2, "b", "20")])
        let located = try PostgresReader(request: Self.request(url, query: "SELECT v, k FROM p ORDER BY k", locate: "k"))
        #expect(located.locationStyle == .key(container: "\(db).query", name: "k"))
        #expect(try ReaderConformance.readAll(located, chunkSize: 1).map(\.location) == [10, 20])
    }

    @Test func requestedFieldsThatAreNotColumnsAreLeftOutAndCaseIsForgiven() throws {
        let server = try Self.server()
        let db = try server.makeDatabase("fields", setup: "CREATE TABLE p (\"Name\" text, age int); INSERT INTO p VALUES ('x', 3)")
        let reader = try PostgresReader(request: Self.request(server.url(database: db), table: "P", fields: ["name", "nope", "age"]))
        #expect(reader.schema.fields == ["name", "age"])
        #expect(reader.availableFields == ["Name", "age"])
        #expect(try ReaderConformance.readAll(reader, chunkSize: 10) == [rec(1, "x", "3")])
    }

    @Test func anUnknownTableIsADataErrorWithADidYouMean() throws {
        let server = try Self.server()
        let db = try server.makeDatabase("unknown", setup: "CREATE TABLE people (id int)")
        let error = try #require(throws: AuditError.self) {
            try PostgresReader(request: Self.request(server.url(database: db), table: "peple"))
        }
        #expect(error.code == .malformedInput)
        #expect(error.message.contains("did you mean 'people'?"), "\(error)")
    }

    // MARK: - Read-only

    @Test func writesAreRefusedAndTheTableIsUnchanged() throws {
        let server = try Self.server()
        let db = try server.makeDatabase("writes", setup: "CREATE TABLE people (id int); INSERT INTO people VALUES (1), (2), (3); CREATE SEQUENCE s")
        let url = server.url(database: db)
        let attempts = [
            "WITH gone AS (DELETE FROM people RETURNING id) SELECT * FROM gone",
            "WITH x AS (INSERT INTO people VALUES (4) RETURNING id) SELECT id FROM x",
            "SELECT * FROM people FOR UPDATE",
            "SELECT nextval('s')",
        ]
        for sql in attempts {
            let error = try #require(throws: AuditError.self, "\(sql)") {
                let reader = try PostgresReader(request: Self.request(url, query: sql))
                while try reader.nextChunk(maxRecords: 100) != nil {}
            }
            #expect(error.code == .invalidRules, "\(sql): \(error)")
        }
        for sql in ["DELETE FROM people", "SELECT 1; DELETE FROM people", "SELECT 1) TO PROGRAM 'true' --",
                    "UPDATE people SET id = 0", "COPY people TO '/tmp/x'"] {
            #expect(PostgresQueryCheck.problem(sql) != nil, "\(sql)")
            let error = try #require(throws: AuditError.self, "\(sql)") {
                try PostgresReader(request: Self.request(url, query: sql))
            }
            #expect(error.code == .invalidRules, "\(sql): \(error)")
        }
        #expect(try server.psql("SELECT string_agg(id::text, ',' ORDER BY id) FROM people", database: db)
            .trimmingCharacters(in: .whitespacesAndNewlines) == "1,2,3")
        #expect(try server.psql("SELECT last_value FROM s", database: db).trimmingCharacters(in: .whitespacesAndNewlines) == "1")
    }

    @Test func theQueryCheckReadsStringsAndComments() {
        #expect(PostgresQueryCheck.problem("SELECT ';' AS semi, \"a;b\" FROM t -- ; comment\n") == nil)
        #expect(PostgresQueryCheck.problem("/* DELETE; */ with x as (select 1) select * from x;") == nil)
        #expect(PostgresQueryCheck.problem("SELECT $$;)$$") == nil)
        #expect(PostgresQueryCheck.problem("VALUES (1), (2)") == nil)
        #expect(PostgresQueryCheck.problem("TABLE people") == nil)
        #expect(PostgresQueryCheck.problem("SELECT 1;;SELECT 2") != nil)
        #expect(PostgresQueryCheck.problem("SELECT (1") != nil)
        #expect(PostgresQueryCheck.problem("SELECT 'open") != nil)
        #expect(PostgresQueryCheck.problem("  ") != nil)
    }

    // MARK: - Connections

    @Test func aWrongPortFailsFastWithExit66() throws {
        _ = try Self.server()
        let port = PostgresServer.freePort()
        let start = ContinuousClock.now
        let error = try #require(throws: AuditError.self) {
            try PostgresReader(request: Self.request("postgresql://postgres@127.0.0.1:\(port)/postgres", table: "x"))
        }
        #expect(error.code == .missingInput)
        #expect(error.message.contains("127.0.0.1:\(port)/postgres"), "\(error)")
        #expect(ContinuousClock.now - start < .seconds(5))
    }

    @Test func aWrongPasswordIsExit66AndNeverShown() throws {
        let server = try Self.server()
        let user = "pw\(UUID().uuidString.prefix(6).lowercased())"
        try server.psql("CREATE ROLE \(user) LOGIN PASSWORD 'right-horse-battery'")
        // libpq reads PGPASSWORD from the environment; this test process is shared, so use a
        // passfile instead of changing PGPASSWORD for everyone.
        let passfile = FileManager.default.temporaryDirectory.appendingPathComponent("pgpass-\(user)")
        try "127.0.0.1:\(server.port):*:\(user):wrong-secret-42\n".write(to: passfile, atomically: true, encoding: .utf8)
        chmod(passfile.path, 0o600)
        defer { try? FileManager.default.removeItem(at: passfile) }
        let url = server.tcpURL(database: "postgres", user: user) + "?passfile=\(passfile.path)"
        let error = try #require(throws: AuditError.self) {
            try PostgresReader(request: Self.request(url, table: "x"))
        }
        #expect(error.code == .missingInput)
        #expect(error.message.contains("credentials"), "\(error)")
        #expect(!error.description.contains("wrong-secret-42"))
        // The right password, from the same kind of file, connects.
        try "127.0.0.1:\(server.port):*:\(user):right-horse-battery\n".write(to: passfile, atomically: true, encoding: .utf8)
        chmod(passfile.path, 0o600)      // libpq ignores a password file others can read
        let other = try #require(throws: AuditError.self) {
            try PostgresReader(request: Self.request(url, table: "x"))
        }
        #expect(other.code == .malformedInput, "connected, then found no table x: \(other)")
    }

    @Test func aPasswordInTheURLIsRefused() throws {
        for url in ["postgresql://u:secret@127.0.0.1/db", "postgresql:///db?password=secret"] {
            let error = try #require(throws: AuditError.self) {
                try PostgresReader(request: Self.request(url, table: "x"))
            }
            #expect(error.code == .invalidRules)
            #expect(!error.description.contains("secret"), "\(error)")
        }
    }

    @Test func aMissingDatabaseIsExit66() throws {
        let server = try Self.server()
        let error = try #require(throws: AuditError.self) {
            try PostgresReader(request: Self.request(server.url(database: "no_such_db"), table: "x"))
        }
        #expect(error.code == .missingInput)
        #expect(error.message.contains("no such database"), "\(error)")
    }

    @Test func aConnectionLostMidReadIsTransient() throws {
        let server = try Self.server()
        let db = try server.makeDatabase("lost", setup: "CREATE TABLE big AS SELECT g AS id, repeat('x', 200) AS pad FROM generate_series(1, 200000) g")
        let reader = try PostgresReader(request: Self.request(server.url(database: db) + "&application_name=lostread", table: "big"))
        #expect(try reader.nextChunk(maxRecords: 10)?.count == 10)
        try server.psql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'lostread'")
        let error = try #require(throws: AuditError.self) {
            while try reader.nextChunk(maxRecords: 4096) != nil {}
        }
        #expect(error.code == .transient, "\(error)")
    }

    @Test func aServerKilledMidReadIsTransient() throws {
        let server = try PostgresServer.start(stopAtExit: false).get()
        var stopped = false
        defer { if !stopped { server.stop() } }
        let db = try server.makeDatabase("killed", setup: "CREATE TABLE big AS SELECT g AS id, repeat('x', 200) AS pad FROM generate_series(1, 200000) g")
        let reader = try PostgresReader(request: Self.request(server.url(database: db), table: "big"))
        #expect(try reader.nextChunk(maxRecords: 10)?.count == 10)
        server.stop()          // pg_ctl -m immediate: every backend exits at once
        stopped = true
        let error = try #require(throws: AuditError.self) {
            while try reader.nextChunk(maxRecords: 4096) != nil {}
        }
        #expect(error.code == .transient, "\(error)")
        #expect(error.message.contains("was lost"), "\(error)")
    }

    // MARK: - URLs

    @Test func urlsSelectTheReaderAndLoseTheirPasswords() {
        let registry = StandardReaders.registry
        #expect(registry.factory(forPath: "postgresql://h/db")?.format == "postgres")
        #expect(registry.factory(forPath: "POSTGRES://h/db")?.format == "postgres")
        #expect(registry.factory(forPath: "people.csv")?.format == "csv")
        #expect(registry.factory(forPath: "mysql://h/db") == nil)
        #expect(SourceURL.redacted("postgresql://u:pw@h:5/db?sslmode=require&password=x") == "postgresql://u:***@h:5/db?sslmode=require&password=***")
        #expect(SourceURL.redacted("postgresql://u@h/db") == "postgresql://u@h/db")
        #expect(SourceURL.redacted("sc://h:15002/;user_id=ana;token=s3cret") == "sc://h:15002/;user_id=ana;token=***")
        #expect(SourceURL.redacted("sc://h:15002") == "sc://h:15002")
        #expect(SourceURL.hasPassword("postgresql://u:pw@h/db"))
        #expect(!SourceURL.hasPassword("postgresql://u@h/db?host=/tmp"))
        #expect(!SourceURL.isURL("/data/people.csv"))
    }
}
