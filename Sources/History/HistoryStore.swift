import Auditor
import CSQLite
import SQLiteSupport
import Foundation

/// An audit history: one SQLite file that records every run (when, the rules file's hash, the
/// inputs with their size and hash, each rule's counts, and the findings' fingerprints), so a
/// nightly job can show trends, flag jumps and use the last run as its baseline. Embedded, no
/// server; see ``HistorySchema`` for the tables.
///
/// It lives in its own module (`AuditorHistory`), which implements the core's ``RunHistory``
/// (``SQLiteRunHistory``); its libsqlite3 plumbing (connection, statement, error mapping) is
/// the internal `SQLiteSupport` target it shares with the SQLite reader. The values it reads
/// and writes (``RunRecord``, ``HistoryRun``, ``RuleHistory``, ``FingerprintSet``) are the
/// core's, so `Reports` renders a history without importing this module.
///
/// Safety: the file is opened by its path without following a symbolic link; the connection
/// gets `SQLITE_DBCONFIG_DEFENSIVE`, no trusted schema, no ATTACH and a busy timeout
/// (``busyTimeoutMilliseconds``: two nightly jobs on one history wait for each other instead of
/// failing); a file that holds anything but our tables (a trigger, a view) is refused before
/// anything is written; each run is recorded in one `BEGIN IMMEDIATE` transaction.
///
/// Not `Sendable`: one store is used from one thread.
package final class HistoryStore {
    /// Whether the store may create and write the file.
    public enum Access: Sendable {
        /// Create the file when missing, upgrade an older schema, record runs.
        case readWrite
        /// Read an existing history only (`auditor history`).
        case readOnly
    }

    /// How long a store waits for another process's lock before giving up with a transient
    /// error (exit 75). A run's write transaction lasts milliseconds; an `auditor history`
    /// reader holds its lock only while reading.
    public static let busyTimeoutMilliseconds: Int32 = 15_000

    /// The file as the user named it (messages use it).
    public let path: String
    public let access: Access
    /// The busy timeout of this store's connection.
    public let busyTimeout: Int32
    let connection: SQLiteConnection

    /// Opens a history, creating it (``Access/readWrite``) when the file does not exist.
    /// - Parameters:
    ///   - path: The database file; relative paths resolve against the current directory.
    ///   - access: ``Access/readWrite`` to record runs, ``Access/readOnly`` to read them.
    ///   - busyTimeout: Milliseconds to wait for another process's lock.
    /// - Throws: ``AuditError``: `.missingInput` when reading a history that does not exist;
    ///   a file that is not a history, or one from a newer auditor, is `.cannotCreateOutput`
    ///   for writing and `.malformedInput` for reading; a lock held beyond the busy timeout is
    ///   `.transient`; an operating-system failure is `.io`.
    public init(path: String, access: Access = .readWrite,
                busyTimeout: Int32 = HistoryStore.busyTimeoutMilliseconds) throws(AuditError) {
        self.path = path
        self.access = access
        self.busyTimeout = busyTimeout
        try Self.checkFile(path, access: access)
        var flags = SQLITE_OPEN_NOFOLLOW | SQLITE_OPEN_EXRESCODE | SQLITE_OPEN_NOMUTEX
        flags |= access == .readWrite ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY
        do {
            // A plain file name (no SQLITE_OPEN_URI): '?' and '#' in the path are not syntax.
            connection = try SQLiteConnection(uri: path, flags: flags)
            try connection.configure(SQLITE_DBCONFIG_DEFENSIVE, 1)
            try connection.configure(SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0)
            try connection.configure(SQLITE_DBCONFIG_DQS_DML, 0)
            try connection.configure(SQLITE_DBCONFIG_DQS_DDL, 0)
        } catch {
            throw Self.error(error, path: path, access: access, timeout: busyTimeout, doing: "cannot open the history")
        }
        sqlite3_limit(connection.handle, SQLITE_LIMIT_ATTACHED, 0)
        sqlite3_busy_timeout(connection.handle, busyTimeout)
        try prepareSchema()
    }

    // MARK: - Schema

    /// What the file says it is.
    struct State {
        var version: Int32
        var applicationID: Int32
        /// Schema objects by name (type), SQLite's internal ones aside.
        var objects: [String: String]

        var isEmpty: Bool { version == 0 && applicationID == 0 && objects.isEmpty }
    }

    func readState() throws(SQLiteFailure) -> State {
        func pragma(_ name: String) throws(SQLiteFailure) -> Int32 {
            let rows = try connection.textRows("PRAGMA \(name)")
            return rows.first.flatMap { $0.first ?? nil }.flatMap { Int32($0) } ?? 0
        }
        let version = try pragma("user_version")
        let app = try pragma("application_id")
        var objects = [String: String]()
        for row in try connection.textRows("SELECT type, name FROM sqlite_schema WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'") {
            objects[row.count > 1 ? row[1] ?? "" : ""] = row.first ?? ""
        }
        return State(version: version, applicationID: app, objects: objects)
    }

    /// Creates or upgrades the schema (when writing), then checks that the file is a history
    /// this auditor can use.
    private func prepareSchema() throws(AuditError) {
        var state: State
        do {
            state = try readState()
            if access == .readWrite, state.isEmpty || (state.applicationID == HistorySchema.applicationID
                                                       && state.version < HistorySchema.version) {
                try transaction { () throws(SQLiteFailure) in
                    // Again under the write lock: another job may have created it meanwhile.
                    state = try readState()
                    if state.isEmpty {
                        try exec(HistorySchema.create)
                    } else if state.applicationID == HistorySchema.applicationID, state.version >= 1 {
                        var v = state.version + 1
                        while v <= HistorySchema.version {
                            if let sql = HistorySchema.migrations[v] { try exec(sql) }
                            v += 1
                        }
                    } else {
                        return
                    }
                    try exec("PRAGMA application_id = \(HistorySchema.applicationID); PRAGMA user_version = \(HistorySchema.version)")
                    state = try readState()
                }
            }
        } catch {
            throw Self.error(error, path: path, access: access, timeout: busyTimeout, doing: "cannot open the history")
        }
        try check(state)
    }

    private func check(_ state: State) throws(AuditError) {
        let fix = access == .readWrite
            ? "give --history (or 'history:' in the rules file) a new file name, or the path of an existing history"
            : "give the path of a history written by 'auditor run RULES --history PATH'"
        if state.isEmpty {
            throw refusal("this file holds no history yet (an empty database); \(fix)")
        }
        guard state.applicationID == HistorySchema.applicationID else {
            throw refusal("this SQLite database is not an auditor history (it has tables of its own); "
                          + "auditor never writes to it: \(fix)")
        }
        if state.version > HistorySchema.version {
            throw refusal("this history has schema version \(state.version), written by a newer auditor; this "
                          + "auditor reads versions up to \(HistorySchema.version): use the newer auditor, or start "
                          + "a new history file")
        }
        if state.version < HistorySchema.version {
            throw refusal("this history has the older schema version \(state.version); record one run with "
                          + "'auditor run RULES --history PATH' to upgrade it, then read it again")
        }
        for (name, type) in state.objects.sorted(by: { $0.key < $1.key }) where HistorySchema.objects[name] != type {
            throw refusal("this history has a \(type) '\(name)' that auditor did not create; auditor does not use a "
                          + "history with extra triggers, views or tables: remove it, or start a new history file")
        }
        for (name, type) in HistorySchema.objects.sorted(by: { $0.key < $1.key }) where state.objects[name] == nil {
            throw refusal("this history lacks its \(type) '\(name)' (the file was changed by hand); start a new history file")
        }
    }

    /// An error about the file itself (not a history, wrong version): not writable as a
    /// history (73) when writing, unreadable data (65) when reading.
    private func refusal(_ message: String) -> AuditError {
        AuditError(access == .readWrite ? .cannotCreateOutput : .malformedInput, message, location: path)
    }

    // MARK: - Helpers

    /// Runs SQL text of one or more statements.
    func exec(_ sql: String) throws(SQLiteFailure) {
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(connection.handle, sql, nil, nil, &message)
        guard rc == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(rc))
            sqlite3_free(message)
            throw SQLiteFailure(code: sqlite3_extended_errcode(connection.handle), message: text)
        }
    }

    /// Runs `body` in a `BEGIN IMMEDIATE` transaction (the write lock is taken first, so the
    /// busy timeout covers it and no deadlock can arise on upgrade); rolls back on any error.
    func transaction<T>(_ body: () throws(SQLiteFailure) -> T) throws(SQLiteFailure) -> T {
        try exec("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try exec("COMMIT")
            return result
        } catch {
            try? exec("ROLLBACK")
            throw error
        }
    }

    /// Checks the file before SQLite opens it, for messages SQLite cannot give.
    private static func checkFile(_ path: String, access: Access) throws(AuditError) {
        let writing = access == .readWrite
        var info = stat()
        guard lstat(path, &info) == 0 else {
            guard errno == ENOENT else {
                throw AuditError(writing ? .cannotCreateOutput : .missingInput, "cannot open the history",
                                 location: path, cause: String(cString: strerror(errno)))
            }
            if !writing {
                throw AuditError(.missingInput, "no history here: the file does not exist; record runs with "
                                    + "'auditor run RULES --history PATH' first", location: path)
            }
            let folder = (path as NSString).deletingLastPathComponent
            var isDirectory: ObjCBool = false
            if !folder.isEmpty, !(FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) && isDirectory.boolValue) {
                throw AuditError(.cannotCreateOutput, "cannot create the history: the folder '\(folder)' does not exist",
                                 location: path)
            }
            return
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            return
        case S_IFLNK:
            throw AuditError(writing ? .cannotCreateOutput : .missingInput,
                             "the history is a symbolic link; auditor opens a history only by its real path: give the link's target",
                             location: path)
        case S_IFDIR:
            throw AuditError(writing ? .cannotCreateOutput : .missingInput,
                             "this is a directory; give the path of a history file, e.g. audits.sqlite", location: path)
        default:
            throw AuditError(writing ? .cannotCreateOutput : .missingInput,
                             "this is not a regular file; give the path of a history file", location: path)
        }
    }

    /// Maps an SQLite failure to an ``AuditError`` with what to do about it.
    static func error(_ failure: SQLiteFailure, path: String, access: Access, timeout: Int32,
                      doing: String) -> AuditError {
        let writing = access == .readWrite
        switch failure.primaryCode {
        case SQLITE_BUSY, SQLITE_LOCKED:
            let wait = timeout >= 1000 ? "\(timeout / 1000) s" : "\(timeout) ms"
            return AuditError(.transient, "\(doing): another process kept it locked for more than \(wait) "
                                + "(another audit recording its run?); retry later", location: path, cause: failure.message)
        case SQLITE_NOTADB:
            return AuditError(writing ? .cannotCreateOutput : .malformedInput,
                              "\(doing): this file is not an SQLite database, so not an auditor history; "
                                + (writing ? "give --history a new file name, or the path of an existing history"
                                   : "give the path of a history written by 'auditor run RULES --history PATH'"),
                              location: path, cause: failure.message)
        case SQLITE_CORRUPT:
            return AuditError(writing ? .cannotCreateOutput : .malformedInput,
                              "\(doing): the history file is damaged; keep it for inspection and start a new one",
                              location: path, cause: failure.message)
        case SQLITE_READONLY, SQLITE_PERM, SQLITE_CANTOPEN, SQLITE_AUTH:
            return AuditError(writing ? .cannotCreateOutput : .missingInput,
                              "\(doing): " + (writing ? "the file or its folder is not writable by this user (SQLite also "
                                                + "needs to create a journal file beside it)" : "the file cannot be opened"),
                              location: path, cause: failure.message)
        case SQLITE_IOERR, SQLITE_FULL:
            return AuditError(.io, "\(doing): input/output error (disk full or failing?)", location: path,
                              cause: failure.message)
        default:
            return AuditError(writing ? .cannotCreateOutput : .malformedInput, doing, location: path,
                              cause: failure.message)
        }
    }
}
