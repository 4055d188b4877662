import Auditor
import CSQLite
import Foundation
import TestSupport
import AuditorReaders
import Testing

/// The SQLite reader never changes the database, refuses anything but reading in a
/// rules-file query, does not run side-effecting schema code, and classifies broken,
/// missing, locked and changing inputs (CONVENTIONS.md rule 7).
@Suite struct SQLiteSafetyTests {
    static func makePeople(_ dir: TemporaryDirectory, rows: Int = 50, name: String = "app.sqlite") throws -> String {
        let path = dir.path(name)
        let db = try TestDatabase(path)
        try db.exec("""
            CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT, age INTEGER);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(rows))
            INSERT INTO people SELECT i, 'person ' || i, 20 + i % 50 FROM n;
            """)
        return path
    }

    /// A WAL database with committed rows that are only in the -wal file (a writer keeps its
    /// connection open and never checkpoints): every row is read, and not one byte or mtime
    /// of the database, the -wal or the -shm changes, and no file appears.
    @Test func aLiveWALDatabaseIsReadCompletelyAndLeftUntouched() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("app.sqlite")
        let writer = try TestDatabase(path)
        try writer.exec("PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0;")
        try writer.exec("CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT)")
        try writer.exec("""
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000)
            INSERT INTO people SELECT i, 'p' || i FROM n;
            """)
        try writer.exec("INSERT INTO people VALUES (5001, 'last, committed only in the WAL')")
        #expect(try writer.scalar("PRAGMA journal_mode") == "wal")
        let walSize = try #require(try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int)
        #expect(walSize > 0, "the rows live in the -wal file")
        let before = try dir.snapshot()
        #expect(Set(before.keys) == ["app.sqlite", "app.sqlite-wal", "app.sqlite-shm"])

        let records = try ReaderConformance.check {
            try SQLiteReader(request: .sqlite(path, table: "people"))
        }
        #expect(records.count == 5001)
        #expect(records.last == DecodedRecord(location: 5001, values: ["5001", "last, committed only in the WAL"]))
        let viaQuery = try ReaderConformance.readAll(
            try SQLiteReader(request: .sqlite(path, query: "SELECT count(*) AS n FROM people")), chunkSize: 1)
        #expect(viaQuery.first?.values == ["5001"])

        let after = try dir.snapshot()
        #expect(Set(after.keys) == Set(before.keys), "no file created or removed")
        for (name, snapshot) in before {
            #expect(after[name] == snapshot, "\(name) changed")
        }
        withExtendedLifetime(writer) {}
    }

    /// VACUUM INTO (which even a read-only connection may run), ATTACH, writes, PRAGMAs and
    /// DDL in a `query:` are refused before anything runs: no file is created, none changes.
    @Test(arguments: [
        "VACUUM INTO '{dir}/copy.sqlite'",
        "ATTACH DATABASE '{dir}/other.sqlite' AS other",
        "INSERT INTO people (name) VALUES ('x')",
        "UPDATE people SET age = 0",
        "DELETE FROM people",
        "PRAGMA writable_schema=1",
        "PRAGMA table_info(people)",
        "CREATE TABLE stolen AS SELECT * FROM people",
        "CREATE TEMP TABLE t (a)",
        "DROP TABLE people",
        "BEGIN IMMEDIATE",
        "SELECT 1; DELETE FROM people",
        "SELECT load_extension('{dir}/evil.so')",
        "EXPLAIN SELECT * FROM people",
        "REINDEX",
        "ANALYZE",
    ])
    func writingQueriesAreRefused(_ template: String) throws {
        let dir = try TemporaryDirectory()
        let path = try Self.makePeople(dir)
        let sql = template.replacingOccurrences(of: "{dir}", with: dir.url.path)
        let before = try dir.snapshot()
        let error = try #require(throws: AuditError.self) {
            let reader = try SQLiteReader(request: .sqlite(path, query: sql))
            while try reader.nextChunk(maxRecords: 10) != nil {}
            try reader.finish()
        }
        #expect(error.code == .invalidRules, "\(error)")
        #expect(error.location == "rules.yml:3:7")
        #expect(try dir.snapshot() == before, "nothing created or changed on disk")
        #expect(!FileManager.default.fileExists(atPath: dir.path("copy.sqlite")))
        #expect(!FileManager.default.fileExists(atPath: dir.path("other.sqlite")))
    }

    @Test func refusalsSayWhatTheQueryTriedToDo() throws {
        let dir = try TemporaryDirectory()
        let path = try Self.makePeople(dir)
        func message(_ sql: String) throws -> String {
            try #require(throws: AuditError.self) { try SQLiteReader(request: .sqlite(path, query: sql)) }.message
        }
        #expect(try message("DELETE FROM people").contains("it would write to 'people'"))
        #expect(try message("ATTACH 'x.db' AS x").contains("it would attach"))
        #expect(try message("PRAGMA writable_schema=1").contains("it would run PRAGMA writable_schema"))
        #expect(try message("VACUUM INTO 'x.db'").contains("not a read-only SELECT"))
        #expect(try message("SELECT 1; SELECT 2").contains("more than one statement"))
    }

    /// A view calling a function that is not marked SQLITE_INNOCUOUS is not run.
    ///
    /// SQLite 3.40's own library has no side-effecting SQL function a view could use:
    /// `load_extension()` is SQLITE_DIRECTONLY (refused in views whatever the settings), and
    /// `writefile()`/`readfile()` exist only in the sqlite3 shell. The danger TRUSTED_SCHEMA=0
    /// guards against is an application-defined function registered without SQLITE_INNOCUOUS
    /// (one that writes files, sends mail...) being reached from a view or trigger planted in a
    /// database file. So the test registers such a function, `side_effect()`, which counts its
    /// calls, on an ordinary connection and on the reader's (through the test hook), and shows
    /// that the ordinary connection runs it through the view while the reader refuses.
    @Test func aViewCallingASideEffectingFunctionIsNotRun() throws {
        let dir = try TemporaryDirectory()
        let path = try Self.makePeople(dir, rows: 5)
        let counter = CallCounter()
        let control = try TestDatabase(path)
        counter.register(on: control.handle)
        try control.exec("CREATE VIEW tainted AS SELECT id, side_effect() AS effect FROM people")
        #expect(try control.scalar("SELECT count(effect) FROM tainted") == "5")
        #expect(counter.calls == 5, "an ordinary (trusting) connection runs the function through the view")
        counter.calls = 0

        for request in [ReaderRequest.sqlite(path, table: "tainted"),
                        .sqlite(path, query: "SELECT * FROM tainted"),
                        .sqlite(path, query: "SELECT id FROM people WHERE id IN (SELECT id FROM tainted)")] {
            let error = try #require(throws: AuditError.self) {
                let reader = try SQLiteReader(request: request, connectionHook: { counter.register(on: $0) })
                while try reader.nextChunk(maxRecords: 10) != nil {}
            }
            #expect(error.code == .malformedInput, "\(error)")
            #expect(error.message.contains("does not trust"), "\(error)")
            #expect(error.cause?.contains("unsafe use of side_effect()") == true, "\(error)")
        }
        #expect(counter.calls == 0, "the reader never ran side_effect()")
    }

    /// Without any test hook: a view over `sqlite_stmt` (a virtual table not marked innocuous:
    /// it lists the connection's statements) works on a trusting connection and is refused
    /// by the reader, which proves TRUSTED_SCHEMA=0 is in force as shipped.
    @Test func aViewOverANonInnocuousVirtualTableIsRefused() throws {
        let dir = try TemporaryDirectory()
        let path = try Self.makePeople(dir, rows: 5)
        let control = try TestDatabase(path)
        try control.exec("CREATE VIEW statements AS SELECT sql FROM sqlite_stmt")
        #expect(try control.scalar("SELECT count(*) >= 1 FROM statements") == "1")
        let error = try #require(throws: AuditError.self) {
            try SQLiteReader(request: .sqlite(path, table: "statements"))
        }
        #expect(error.code == .malformedInput)
        #expect(error.cause?.contains("unsafe use of virtual table") == true, "\(error)")
    }

    // MARK: - Broken, missing, locked, changing inputs

    @Test func aFileThatIsNotADatabaseIsMalformed() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("people.sqlite")
        try Data(String(repeating: "id,name\n1,Ann\n", count: 100).utf8).write(to: URL(fileURLWithPath: path))
        for request in [ReaderRequest.sqlite(path, table: "people", display: "people.sqlite"),
                        .sqlite(path, query: "SELECT 1", display: "people.sqlite")] {
            let error = try #require(throws: AuditError.self) { try SQLiteReader(request: request) }
            #expect(error.code == .malformedInput)
            #expect(error.code.exitStatus == .dataError)
            #expect(error.message.hasPrefix("'people.sqlite' is not an SQLite database"))
        }
    }

    @Test func anEmptyFileIsMalformed() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("empty.sqlite")
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        let error = try #require(throws: AuditError.self) { try SQLiteReader(request: .sqlite(path, table: "t")) }
        #expect(error.code == .malformedInput)
    }

    /// Cut inside the header page and cut halfway through the data: both are malformed input
    /// (exit 65), whether it shows at open or after some records.
    @Test(arguments: [1000, 50_000])
    func aTruncatedDatabaseIsMalformed(keepBytes: Int) throws {
        let dir = try TemporaryDirectory()
        let path = try Self.makePeople(dir, rows: 5000)
        let full = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(full.count > 2 * keepBytes)
        try full.prefix(keepBytes).write(to: URL(fileURLWithPath: path))
        var read = 0
        let error = try #require(throws: AuditError.self) {
            let reader = try SQLiteReader(request: .sqlite(path, table: "people"))
            while let chunk = try reader.nextChunk(maxRecords: 100) { read += chunk.count }
            try reader.finish()
        }
        #expect(error.code == .malformedInput, "\(error)")
        #expect(read < 5000)
    }

    @Test func aMissingFileIsMissingInput() throws {
        let dir = try TemporaryDirectory()
        let error = try #require(throws: AuditError.self) {
            try SQLiteReader(request: .sqlite(dir.path("nope.sqlite"), table: "people", display: "nope.sqlite"))
        }
        #expect(error.code == .missingInput)
        #expect(error.code.exitStatus == .noInput)
        #expect(error.message == "'nope.sqlite' does not exist; check the path")
        let inMissingFolder = try #require(throws: AuditError.self) {
            try SQLiteReader(request: .sqlite(dir.path("no/such/folder/x.sqlite"), table: "people"))
        }
        #expect(inMissingFolder.code == .missingInput)
        let directory = try #require(throws: AuditError.self) {
            try SQLiteReader(request: .sqlite(dir.url.path, table: "people"))
        }
        #expect(directory.code == .missingInput)
    }

    @Test func aSymlinkIsRefused() throws {
        let dir = try TemporaryDirectory()
        let path = try Self.makePeople(dir)
        try FileManager.default.createSymbolicLink(atPath: dir.path("link.sqlite"), withDestinationPath: path)
        let error = try #require(throws: AuditError.self) {
            try SQLiteReader(request: .sqlite(dir.path("link.sqlite"), table: "people"))
        }
        #expect(error.code == .missingInput)
        #expect(error.message.contains("symbolic link"))
    }

    /// The URI is built from the path with `?`, `#`, `%` and spaces percent-encoded, so they
    /// can neither inject URI parameters (`?immutable=0&mode=rw`) nor cut the path short.
    @Test func pathsWithURISyntaxAreOpenedLiterally() throws {
        let dir = try TemporaryDirectory()
        let folder = dir.path("we?ird #dir%41 ü")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/app.sqlite?mode=rw&immutable=0#x"
        try TestDatabase(path).exec("CREATE TABLE t (a); INSERT INTO t VALUES (1), (2);")
        let before = try dir.snapshot()
        let records = try ReaderConformance.check { try SQLiteReader(request: .sqlite(path, table: "t")) }
        #expect(records.map(\.values) == [["1"], ["2"]])
        #expect(try dir.snapshot() == before)
    }

    /// A rollback-journal database whose writer holds its lock: the reader (mode=ro, since a
    /// -journal exists) waits for the busy timeout, then reports a transient failure (exit 75).
    @Test func aLockedDatabaseIsTransient() throws {
        let dir = try TemporaryDirectory()
        let path = try Self.makePeople(dir)
        let writer = try TestDatabase(path)
        try writer.exec("PRAGMA journal_mode=DELETE; BEGIN EXCLUSIVE; UPDATE people SET age = age + 1;")
        #expect(FileManager.default.fileExists(atPath: path + "-journal"))
        let error = try #require(throws: AuditError.self) {
            try SQLiteReader(request: .sqlite(path, table: "people"),
                             connectionHook: { sqlite3_busy_timeout($0, 50) })
        }
        #expect(error.code == .transient, "\(error)")
        #expect(error.code.exitStatus == .temporaryFailure)
        #expect(error.message.contains("locked"))
        try writer.exec("ROLLBACK")
    }

    /// The database changes between two reads: `finish()` reports it (exit 75).
    @Test func aChangeDuringTheAuditIsTransient() throws {
        let dir = try TemporaryDirectory()
        let path = try Self.makePeople(dir, rows: 100)
        let reader = try SQLiteReader(request: .sqlite(path, table: "people", display: "app.sqlite"))
        #expect(try reader.nextChunk(maxRecords: 10)?.count == 10)
        try TestDatabase(path).exec("UPDATE people SET age = 99 WHERE id = 100")
        while try reader.nextChunk(maxRecords: 10) != nil {}
        let error = try #require(throws: AuditError.self) { try reader.finish() }
        #expect(error.code == .transient)
        #expect(error.code.exitStatus == .temporaryFailure)
        #expect(error.message == "the database changed during the audit; run again")
        #expect(error.location == "app.sqlite")
    }

    /// A sidecar appearing is a change too (a writer started while we read).
    @Test func aSidecarAppearingIsAChange() throws {
        let dir = try TemporaryDirectory()
        let path = try Self.makePeople(dir, rows: 10)
        let reader = try SQLiteReader(request: .sqlite(path, table: "people"))
        while try reader.nextChunk(maxRecords: 4) != nil {}
        #expect(FileManager.default.createFile(atPath: path + "-journal", contents: Data()))
        let error = try #require(throws: AuditError.self) { try reader.finish() }
        #expect(error.code == .transient)
        #expect(error.cause?.contains("-journal") == true)
    }

    @Test func anUnchangedDatabaseFinishesQuietly() throws {
        let dir = try TemporaryDirectory()
        let path = try Self.makePeople(dir, rows: 10)
        let before = try dir.snapshot()
        let reader = try SQLiteReader(request: .sqlite(path, table: "people"))
        while try reader.nextChunk(maxRecords: 3) != nil {}
        try reader.finish()
        #expect(try dir.snapshot() == before)
    }
}

/// Counts the calls of `side_effect()`, an SQL function registered without SQLITE_INNOCUOUS.
final class CallCounter {
    var calls = 0

    func register(on db: OpaquePointer) {
        let rc = sqlite3_create_function_v2(
            db, "side_effect", 0, SQLITE_UTF8, Unmanaged.passUnretained(self).toOpaque(),
            { context, _, _ in
                if let box = sqlite3_user_data(context) {
                    Unmanaged<CallCounter>.fromOpaque(box).takeUnretainedValue().calls += 1
                }
                sqlite3_result_int(context, 1)
            }, nil, nil, nil)
        #expect(rc == SQLITE_OK)
    }
}

extension SQLiteSafetyTests {
    /// The file is cut short while it is being read: the read fails, and because the file
    /// changed, the failure is reported as the change (exit 75), not as corruption.
    @Test func aFailureCausedByAConcurrentChangeIsTransient() throws {
        let dir = try TemporaryDirectory()
        let path = try Self.makePeople(dir, rows: 20000)
        let reader = try SQLiteReader(request: .sqlite(path, table: "people"))
        var read = try #require(try reader.nextChunk(maxRecords: 100)).count
        #expect(truncate(path, 8192) == 0)
        let error = try #require(throws: AuditError.self) {
            while let chunk = try reader.nextChunk(maxRecords: 100) { read += chunk.count }
        }
        #expect(error.code == .transient, "\(error)")
        #expect(error.message == "the database changed during the audit; run again")
        #expect(read < 20000)
    }
}

extension SQLiteSafetyTests {
    /// A page overwritten with garbage halfway through the table: the records before it are
    /// delivered (in whole chunks, ending with the partial one), then the read fails as
    /// malformed input, and keeps failing rather than restarting.
    @Test func aCorruptPageMidwayFailsAfterTheRecordsBeforeIt() throws {
        let dir = try TemporaryDirectory()
        let path = try Self.makePeople(dir, rows: 5000)
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        let pageSize = 4096
        let size = try handle.seekToEnd()
        let middlePage = UInt64(size) / UInt64(pageSize) / 2
        try handle.seek(toOffset: middlePage * UInt64(pageSize))
        try handle.write(contentsOf: Data(repeating: 0xA5, count: pageSize))
        try handle.close()

        let reader = try SQLiteReader(request: .sqlite(path, table: "people"))
        var read = 0
        var lastRowid: Int64 = 0
        let error = try #require(throws: AuditError.self) {
            while let chunk = try reader.nextChunk(maxRecords: 64) {
                read += chunk.count
                lastRowid = chunk.locations.last ?? lastRowid
            }
        }
        #expect(error.code == .malformedInput, "\(error)")
        #expect(read > 0 && read < 5000, "\(read) records before the damage")
        #expect(lastRowid == Int64(read), "records before the damage are intact and in order")
        #expect(throws: AuditError.self, "a failed reader does not start over") {
            _ = try reader.nextChunk(maxRecords: 64)
        }
    }
}

extension SQLiteSafetyTests {
    /// The hardening is in force on the connection before its first statement.
    @Test func theConnectionIsHardenedBeforeTheFirstStatement() throws {
        let dir = try TemporaryDirectory()
        let path = try Self.makePeople(dir, rows: 3)
        var settings = [String: Int32]()
        let options: [(String, Int32)] = [
            ("defensive", SQLITE_DBCONFIG_DEFENSIVE), ("trusted_schema", SQLITE_DBCONFIG_TRUSTED_SCHEMA),
            ("dqs_dml", SQLITE_DBCONFIG_DQS_DML), ("dqs_ddl", SQLITE_DBCONFIG_DQS_DDL),
            ("load_extension", SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION),
            ("fts3_tokenizer", SQLITE_DBCONFIG_ENABLE_FTS3_TOKENIZER),
            ("no_ckpt_on_close", SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE),
        ]
        _ = try SQLiteReader(request: .sqlite(path, table: "people"), connectionHook: { db in
            for (name, option) in options {
                var value: Int32 = -1
                // A negative value reads the setting without changing it.
                #expect(auditor_sqlite3_db_config_int(db, option, -1, &value) == SQLITE_OK)
                settings[name] = value
            }
            settings["attached"] = sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, -1)
            settings["readonly"] = sqlite3_db_readonly(db, "main")
        })
        #expect(settings == ["defensive": 1, "trusted_schema": 0, "dqs_dml": 0, "dqs_ddl": 0, "load_extension": 0,
                             "fts3_tokenizer": 0, "no_ckpt_on_close": 1, "attached": 0, "readonly": 1])
    }

    /// A view over an innocuous table-valued function (json_each) reads fine as a `table:`;
    /// in a `query:`, virtual tables are refused by the authorizer (declaring one looks like a
    /// schema write to it), with a message that says so.
    @Test func tableValuedFunctionsInViewsAndQueries() throws {
        let dir = try TemporaryDirectory()
        let path = try Self.makePeople(dir, rows: 2)
        try TestDatabase(path).exec("CREATE VIEW tags AS SELECT people.id, value AS tag FROM people, json_each('[\"a\",\"b\"]')")
        let records = try ReaderConformance.check { try SQLiteReader(request: .sqlite(path, table: "tags")) }
        #expect(records.map(\.values) == [["1", "a"], ["1", "b"], ["2", "a"], ["2", "b"]])
        let error = try #require(throws: AuditError.self) {
            try SQLiteReader(request: .sqlite(path, query: "SELECT value FROM json_each('[1]')"))
        }
        #expect(error.code == .invalidRules)
        #expect(error.message.contains("virtual tables such as json_each are not available"), "\(error)")
    }

    /// A relative path is resolved against the current directory.
    @Test func relativePathsAreResolved() throws {
        let dir = try TemporaryDirectory()
        let path = try Self.makePeople(dir, rows: 3)
        let cwd = FileManager.default.currentDirectoryPath
        let relative = String(repeating: "../", count: cwd.split(separator: "/").count) + path.dropFirst()
        let reader = try SQLiteReader(request: .sqlite(relative, table: "people", display: "app.sqlite"))
        #expect(try ReaderConformance.readAll(reader, chunkSize: 2).count == 3)
    }
}

extension SQLiteSafetyTests {
    /// A hot journal (a writer died mid-transaction) needs a rollback, which is a write: the
    /// reader refuses with a message that says how to recover, and touches nothing. The hot
    /// pair is made by copying a database and its journal while a writer is mid-transaction.
    @Test func aHotJournalIsRefusedWithARecoveryHint() throws {
        let dir = try TemporaryDirectory()
        let live = try Self.makePeople(dir, rows: 3000, name: "live.sqlite")
        let writer = try TestDatabase(live)
        try writer.exec("PRAGMA journal_mode=DELETE; PRAGMA cache_size=1; BEGIN; UPDATE people SET name = name || '!';")
        let path = dir.path("crashed.sqlite")
        try FileManager.default.copyItem(atPath: live, toPath: path)
        try FileManager.default.copyItem(atPath: live + "-journal", toPath: path + "-journal")
        try writer.exec("ROLLBACK")
        let before = try dir.snapshot()
        let error = try #require(throws: AuditError.self) {
            try SQLiteReader(request: .sqlite(path, table: "people", display: "crashed.sqlite"))
        }
        #expect(error.code == .malformedInput, "\(error)")
        #expect(error.message.contains("hot journal"), "\(error)")
        #expect(try dir.snapshot() == before)
    }
}
