import CSQLite
import Foundation
#if canImport(Glibc)
import Glibc
#endif

// Fixtures for the tests of the SQLite reader and the history store: a scratch directory, file
// snapshots that tell whether an input was touched, and a read-write SQLite connection.

/// A fresh directory under the system temporary directory, removed when released.
public final class TemporaryDirectory {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("auditor-sqlite-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    public func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    /// Every file under the directory (recursively) with its bytes and modification time.
    public func snapshot() throws -> [String: FileSnapshot] {
        var result = [String: FileSnapshot]()
        guard let files = FileManager.default.subpaths(atPath: url.path) else { throw POSIXError(.ENOENT) }
        for name in files {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path(name), isDirectory: &isDirectory), !isDirectory.boolValue {
                result[name] = try FileSnapshot(path: path(name))
            }
        }
        return result
    }
}

/// A file's bytes, size and modification time (nanoseconds), for before/after comparisons.
public struct FileSnapshot: Equatable {
    public var bytes: Data
    public var modified: Int
    public var inode: UInt64

    public init(path: String) throws {
        bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        var info = stat()
        guard lstat(path, &info) == 0 else { throw POSIXError(.ENOENT) }
        modified = Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec)
        inode = UInt64(info.st_ino)
    }
}

public struct TestSQLiteError: Error, CustomStringConvertible {
    public var description: String
}

/// A read-write connection for building fixtures (and for playing the concurrent writer).
public final class TestDatabase {
    public let handle: OpaquePointer

    public init(_ path: String) throws {
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
        guard rc == SQLITE_OK, let db else {
            sqlite3_close(db)
            throw TestSQLiteError(description: "cannot open \(path): \(rc)")
        }
        handle = db
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    public func exec(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &message)
        if rc != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? "code \(rc)"
            sqlite3_free(message)
            throw TestSQLiteError(description: text)
        }
    }

    /// Runs one statement with a text parameter bound as ?1 (byte-exact, embedded NULs kept).
    public func exec(sql: String, text: String) throws {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
            throw TestSQLiteError(description: String(cString: sqlite3_errmsg(handle)))
        }
        defer { sqlite3_finalize(statement) }
        let bytes = Array(text.utf8)
        sqlite3_bind_text(statement, 1, bytes, Int32(bytes.count), unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        guard sqlite3_step(statement) == SQLITE_DONE else {
            throw TestSQLiteError(description: String(cString: sqlite3_errmsg(handle)))
        }
    }

    /// The first column of the first row, as text.
    public func scalar(_ sql: String) throws -> String? {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
            throw TestSQLiteError(description: String(cString: sqlite3_errmsg(handle)))
        }
        defer { sqlite3_finalize(statement) }
        let rc = sqlite3_step(statement)
        guard rc == SQLITE_ROW || rc == SQLITE_DONE else {
            throw TestSQLiteError(description: String(cString: sqlite3_errmsg(handle)))
        }
        return rc == SQLITE_ROW ? sqlite3_column_text(statement, 0).map { String(cString: $0) } : nil
    }
}
