import CSQLite

/// A failed SQLite call: the extended result code (connections are opened with
/// `SQLITE_OPEN_EXRESCODE`) and the database's own message.
package struct SQLiteFailure: Error {
    package var code: Int32
    package var message: String

    /// The primary result code (`SQLITE_CORRUPT` for `SQLITE_CORRUPT_VTAB`...).
    package var primaryCode: Int32 { code & 0xFF }

    package init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }

    package init(code: Int32, db: OpaquePointer?) {
        self.code = code
        if let db, let text = sqlite3_errmsg(db) {
            message = String(cString: text)
        } else {
            message = String(cString: sqlite3_errstr(code))
        }
    }
}

/// The SQLite plumbing shared by the SQLite reader and the run history (`package` access:
/// neither is public API).
///
/// Owns one `sqlite3*` connection and closes it in `deinit` (GRDB's pattern: a final class
/// per C handle, groue/GRDB.swift@7.10.0 `GRDB/Core/Database.swift`).
///
/// Not `Sendable`: it is used by one reader, from one thread at a time, which is why the
/// connection is opened with `SQLITE_OPEN_NOMUTEX`.
package final class SQLiteConnection {
    package let handle: OpaquePointer
    /// What the read-only authorizer refused first; owned here because SQLite keeps the
    /// pointer for as long as the authorizer is installed.
    package let denial: UnsafeMutablePointer<AuditorSQLiteDenial>

    /// Opens a connection.
    /// - Parameters:
    ///   - uri: A `file:` URI (the flags must include `SQLITE_OPEN_URI`).
    ///   - flags: `sqlite3_open_v2` flags.
    /// - Throws: ``SQLiteFailure`` with the open's result code.
    package init(uri: String, flags: Int32) throws(SQLiteFailure) {
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(uri, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let failure = SQLiteFailure(code: rc, db: db)
            sqlite3_close_v2(db)
            throw failure
        }
        handle = db
        denial = .allocate(capacity: 1)
        denial.initialize(to: AuditorSQLiteDenial())
    }

    deinit {
        // close_v2: if a statement were still alive, SQLite would close when it is finalized.
        // Statements keep their connection alive, so none is left by the time we get here.
        sqlite3_close_v2(handle)
        denial.deinitialize(count: 1)
        denial.deallocate()
    }

    /// The last error of this connection.
    package func failure(_ code: Int32) -> SQLiteFailure {
        SQLiteFailure(code: code, db: handle)
    }

    /// Sets an integer `sqlite3_db_config` option and checks that it is in force.
    package func configure(_ option: Int32, _ value: Int32) throws(SQLiteFailure) {
        var applied: Int32 = -1
        let rc = auditor_sqlite3_db_config_int(handle, option, value, &applied)
        guard rc == SQLITE_OK, applied == value else {
            throw SQLiteFailure(code: rc == SQLITE_OK ? SQLITE_MISUSE : rc,
                                message: "sqlite3_db_config(\(option), \(value)) did not take effect")
        }
    }

    /// Installs the allow-list authorizer (SELECT, READ, FUNCTION, RECURSIVE) from `shim.h`.
    package func installReadOnlyAuthorizer() throws(SQLiteFailure) {
        let rc = auditor_sqlite3_set_read_only_authorizer(handle, denial)
        guard rc == SQLITE_OK else { throw failure(rc) }
    }

    /// Forgets the last refusal (call before each prepare whose refusal you want to explain).
    package func clearDenial() {
        denial.pointee.action = 0
    }

    /// The action the authorizer refused since ``clearDenial()``, and its object.
    package var lastDenial: (action: Int32, detail: String)? {
        let action = denial.pointee.action
        guard action != 0 else { return nil }
        let detail = withUnsafeBytes(of: denial.pointee.detail) { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            let end = bytes.firstIndex(of: 0) ?? bytes.count
            return String(decoding: bytes[..<end], as: UTF8.self)
        }
        return (action, detail)
    }

    /// Runs an internal statement that returns text rows, binding `parameters` as text.
    /// For our own small schema queries only (never for records).
    package func textRows(_ sql: String, _ parameters: [String] = []) throws(SQLiteFailure) -> [[String?]] {
        let statement = try SQLiteStatement(connection: self, sql: sql)
        for (i, p) in parameters.enumerated() {
            let rc = sqlite3_bind_text(statement.handle, Int32(i + 1), p, -1, sqliteTransient)
            guard rc == SQLITE_OK else { throw failure(rc) }
        }
        var rows = [[String?]]()
        let width = sqlite3_column_count(statement.handle)
        while try statement.step() {
            rows.append((0 ..< width).map { c in
                sqlite3_column_text(statement.handle, c).map { String(cString: $0) }
            })
        }
        return rows
    }
}

/// `SQLITE_TRANSIENT` is a macro Swift cannot import (CONVENTIONS.md, build facts).
package let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// Owns one prepared `sqlite3_stmt*` and finalizes it in `deinit`; keeps its connection alive.
package final class SQLiteStatement {
    package let handle: OpaquePointer
    package let connection: SQLiteConnection
    /// True when the SQL text holds more than this one statement.
    package let hasTrailingStatement: Bool

    /// Prepares the first statement of `sql`.
    /// - Throws: ``SQLiteFailure`` from `sqlite3_prepare_v2` (an empty SQL text is `SQLITE_MISUSE`).
    package init(connection: SQLiteConnection, sql: String) throws(SQLiteFailure) {
        let db = connection.handle
        var utf8 = Array(sql.utf8)
        utf8.append(0)
        var prepared: OpaquePointer?
        var trailing = false
        let rc = utf8.withUnsafeBufferPointer { buffer -> Int32 in
            buffer.withMemoryRebound(to: CChar.self) { text -> Int32 in
                guard let base = text.baseAddress else { return SQLITE_MISUSE }
                var tail: UnsafePointer<CChar>?
                let rc = sqlite3_prepare_v2(db, base, Int32(text.count), &prepared, &tail)
                if rc == SQLITE_OK, let tail, tail.pointee != 0 {
                    // Whatever follows must be only spaces, comments and semicolons: preparing
                    // it yields no statement. Preparing runs nothing (and the authorizer, if
                    // installed, refuses at this stage what it refuses).
                    var next: OpaquePointer?
                    let rc2 = sqlite3_prepare_v2(db, tail, -1, &next, nil)
                    trailing = rc2 != SQLITE_OK || next != nil
                    sqlite3_finalize(next)
                }
                return rc
            }
        }
        guard rc == SQLITE_OK else {
            sqlite3_finalize(prepared)
            throw connection.failure(rc)
        }
        guard let prepared else {
            throw SQLiteFailure(code: SQLITE_MISUSE, message: "the SQL text holds no statement")
        }
        handle = prepared
        self.connection = connection
        hasTrailingStatement = trailing
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Steps once: `true` for a row, `false` when done; anything else throws with the
    /// database's own message (GRDB's step loop).
    package func step() throws(SQLiteFailure) -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code: throw connection.failure(code)
        }
    }
}
