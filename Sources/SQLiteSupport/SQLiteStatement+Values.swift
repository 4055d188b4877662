import CSQLite

/// Binding and column access for small internal statements (the history store's) (the record readers use
/// their typed column paths instead). Indexes are SQLite's: parameters from 1, columns from 0.
extension SQLiteStatement {
    /// Binds an integer, or NULL.
    package func bind(_ index: Int32, _ value: Int64?) throws(SQLiteFailure) {
        let rc = value.map { sqlite3_bind_int64(handle, index, $0) } ?? sqlite3_bind_null(handle, index)
        guard rc == SQLITE_OK else { throw connection.failure(rc) }
    }

    package func bind(_ index: Int32, _ value: Int?) throws(SQLiteFailure) {
        try bind(index, value.map(Int64.init))
    }

    /// Binds a real, or NULL.
    package func bind(_ index: Int32, _ value: Double?) throws(SQLiteFailure) {
        let rc = value.map { sqlite3_bind_double(handle, index, $0) } ?? sqlite3_bind_null(handle, index)
        guard rc == SQLITE_OK else { throw connection.failure(rc) }
    }

    /// Binds UTF-8 text (copied by SQLite), or NULL.
    package func bind(_ index: Int32, _ value: String?) throws(SQLiteFailure) {
        let rc: Int32
        if let value {
            let bytes = Array(value.utf8)
            rc = sqlite3_bind_text(handle, index, bytes, Int32(bytes.count), sqliteTransient)
        } else {
            rc = sqlite3_bind_null(handle, index)
        }
        guard rc == SQLITE_OK else { throw connection.failure(rc) }
    }

    /// Binds a BLOB (copied by SQLite); an empty one is a zero-length BLOB, not NULL.
    package func bind(_ index: Int32, blob: [UInt8]) throws(SQLiteFailure) {
        let rc = blob.isEmpty ? sqlite3_bind_zeroblob(handle, index, 0)
            : blob.withUnsafeBytes { sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), sqliteTransient) }
        guard rc == SQLITE_OK else { throw connection.failure(rc) }
    }

    /// Steps a statement that returns no row (INSERT, UPDATE, DELETE), then resets it and
    /// clears its bindings for the next use.
    package func run() throws(SQLiteFailure) {
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        while try step() {}
    }

    package func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    package func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }

    package func optionalInt(_ column: Int32) -> Int? { isNull(column) ? nil : int(column) }

    package func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

    package func optionalDouble(_ column: Int32) -> Double? { isNull(column) ? nil : double(column) }

    /// The column as text (UTF-8; invalid bytes repaired), "" for NULL.
    package func text(_ column: Int32) -> String { optionalText(column) ?? "" }

    package func optionalText(_ column: Int32) -> String? {
        guard let p = sqlite3_column_text(handle, column) else { return nil }
        let n = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
    }

    /// The column's bytes (a BLOB, or text's UTF-8), empty for NULL.
    package func blob(_ column: Int32) -> [UInt8] {
        guard let p = sqlite3_column_blob(handle, column) else { return [] }
        let n = Int(sqlite3_column_bytes(handle, column))
        return Array(UnsafeRawBufferPointer(start: p, count: n))
    }
}
