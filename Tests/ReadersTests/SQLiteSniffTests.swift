import Auditor
import Foundation
import TestSupport
@_spi(Testing) import AuditorReaders
import Testing

/// The table `auditor profile` reads an SQLite database by when none is named
/// (``SQLiteReader/sniffOptions(path:displayPath:)``): the one named like the file, else its
/// only table. End to end: `ProfileInputTests`.
@Suite struct SQLiteSniffTests {
    @Test("The only table when none is named like the file; nothing when one is, or when there are several")
    func table() throws {
        let dir = try TemporaryDirectory()
        let one = dir.path("export.sqlite")
        try TestDatabase(one).exec("CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT);")
        #expect(SQLiteReader.sniffOptions(path: one, displayPath: "export.sqlite") == ["table": "items"])
        let view = dir.path("v.db")
        try TestDatabase(view).exec("CREATE VIEW only_view AS SELECT 1 AS x;")
        #expect(SQLiteReader.sniffOptions(path: view, displayPath: "v.db") == ["table": "only_view"])
        let named = dir.path("people.sqlite")
        try TestDatabase(named).exec("CREATE TABLE People (id); CREATE TABLE departments (id);")
        #expect(SQLiteReader.sniffOptions(path: named, displayPath: "people.sqlite") == [:], "the default, in any case, reads it")
        let two = dir.path("two.sqlite")
        try TestDatabase(two).exec("CREATE TABLE a (x); CREATE TABLE b (y);")
        #expect(SQLiteReader.sniffOptions(path: two, displayPath: "two.sqlite") == [:])
        let empty = dir.path("empty.sqlite")
        try TestDatabase(empty).exec("CREATE TABLE t (x); DROP TABLE t;")
        #expect(SQLiteReader.sniffOptions(path: empty, displayPath: "empty.sqlite") == [:])
    }

    @Test("A file that is no database, or no file: nothing (opening it then says why)")
    func unreadable() throws {
        let dir = try TemporaryDirectory()
        let text = dir.path("not.sqlite")
        try Data("hello, I am not a database\n".utf8).write(to: URL(fileURLWithPath: text))
        #expect(SQLiteReader.sniffOptions(path: text, displayPath: "not.sqlite") == [:])
        #expect(SQLiteReader.sniffOptions(path: dir.path("none.sqlite"), displayPath: "none.sqlite") == [:])
        #expect(!FileManager.default.fileExists(atPath: dir.path("none.sqlite")), "the sniff creates no file")
    }
}
