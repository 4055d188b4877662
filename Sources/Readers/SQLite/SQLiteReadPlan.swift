import Auditor
import CSQLite
import SQLiteSupport

/// What an ``SQLiteReader`` will read: the hardened connection's prepared SELECT, the
/// schema and how records are located.
struct SQLiteReadPlan {
    var statement: SQLiteStatement
    var fields: [String]
    var locationStyle: LocationStyle
    /// True when result column 0 is the rowid.
    var rowidFirst: Bool
    /// The field whose integer value locates a record (`locate:`), when there is one.
    var keyField: Int? = nil
    /// "table 'people'" or "the query", for messages.
    var what: String
    /// Every readable column of the table (or the query's columns), for `columns:` rules.
    var available: [String] = []
    /// For a table with a rowid: what pushdown needs to read it again with a condition.
    var pushdown: PushdownTable? = nil

    struct PushdownTable {
        /// `"main"."t"`.
        var from: String
        /// Field → quoted column.
        var columns: [String: String]
        /// The records' select list (the rowid first).
        var select: String
        /// The rowid's name in it.
        var rowid: String
    }

    /// `sqlite3_open_v2` flags (CONVENTIONS.md rule 7), plus `NOMUTEX`: a reader is used from
    /// one thread at a time, so the connection needs no mutex around each column call.
    static let openFlags = SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOFOLLOW | SQLITE_OPEN_EXRESCODE
        | SQLITE_OPEN_NOMUTEX

    /// Milliseconds to wait for a writer's lock (only `mode=ro` takes locks) before `SQLITE_BUSY`.
    static let busyTimeoutMilliseconds: Int32 = 5000

    /// Opens and hardens a connection (CONVENTIONS.md rule 7). Nothing is read yet: errors
    /// about the file's content come from the first prepare.
    static func open(_ file: SQLiteDatabaseFile, mode: SQLiteDatabaseFile.OpenMode) throws(AuditError)
        -> SQLiteConnection {
        do throws(SQLiteFailure) {
            let connection = try SQLiteConnection(uri: file.uri(mode), flags: openFlags)
            try connection.configure(SQLITE_DBCONFIG_DEFENSIVE, 1)
            try connection.configure(SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0)
            try connection.configure(SQLITE_DBCONFIG_DQS_DML, 0)
            try connection.configure(SQLITE_DBCONFIG_DQS_DDL, 0)
            try connection.configure(SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0)
            // Debian builds SQLite with SQLITE_ENABLE_FTS3_TOKENIZER, which turns the
            // pointer-taking two-argument fts3_tokenizer() on by default.
            try connection.configure(SQLITE_DBCONFIG_ENABLE_FTS3_TOKENIZER, 0)
            // A read-only connection never checkpoints, but say so: closing must not write.
            try connection.configure(SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1)
            sqlite3_limit(connection.handle, SQLITE_LIMIT_ATTACHED, 0)
            guard sqlite3_limit(connection.handle, SQLITE_LIMIT_ATTACHED, -1) == 0 else {
                throw SQLiteFailure(code: SQLITE_MISUSE, message: "could not forbid attached databases")
            }
            let rc = sqlite3_busy_timeout(connection.handle, busyTimeoutMilliseconds)
            guard rc == SQLITE_OK else { throw connection.failure(rc) }
            if mode == .readOnlyWAL {
                // Before anything is read: the WAL is then indexed in private memory rather than
                // in the shared -shm file (see OpenMode.readOnlyWAL). Reads nothing itself.
                let result = try connection.textRows("PRAGMA locking_mode=EXCLUSIVE")
                guard result.first?.first == "exclusive" else {
                    throw SQLiteFailure(code: SQLITE_MISUSE, message: "could not enter exclusive locking mode")
                }
            }
            return connection
        } catch {
            throw SQLiteErrors.auditError(error, stage: .open, file: file)
        }
    }

    // MARK: - table:

    /// Plans `SELECT rowid, "a", "b" FROM "main"."t"` for the requested fields that exist.
    static func table(_ requested: String, mark: ConfigMark?, fields: [String], connection: SQLiteConnection,
                      file: SQLiteDatabaseFile) throws(AuditError) -> SQLiteReadPlan {
        var what = "table '\(requested)'"
        // The first prepare: "not a database", "corrupt" and the like surface here.
        let tables: [[String?]]
        do {
            tables = try connection.textRows("SELECT name, type, wr FROM pragma_table_list WHERE schema = 'main'")
        } catch {
            throw SQLiteErrors.auditError(error, stage: .schema(what: "the tables"), file: file)
        }
        let names = tables.compactMap { $0[0] }
        guard let row = tables.first(where: { $0[0] == requested })
            ?? tables.first(where: { $0[0].map { sameName($0, requested) } ?? false }),
            let name = row[0]
        else {
            throw unknownTable(requested, names: names, mark: mark, file: file)
        }
        what = "\(row[1] == "view" ? "view" : "table") '\(name)'"

        let columns: [[String?]]
        do {
            columns = try connection.textRows("SELECT name, hidden FROM pragma_table_xinfo(?1, 'main')", [name])
        } catch {
            throw SQLiteErrors.auditError(error, stage: .schema(what: what), file: file)
        }
        // hidden: 0 ordinary, 1 hidden virtual-table column, 2/3 generated (readable) columns.
        let readable = columns.filter { $0[1] != "1" }.compactMap { $0[0] }
        var chosen = [(field: String, column: String)]()
        if fields.isEmpty {
            chosen = readable.map { ($0, $0) }
        } else {
            for field in fields where !chosen.contains(where: { $0.field == field }) {
                // A requested field that is not a column is left out: the engine reports it
                // against the rules file with a did-you-mean. It never reaches SQL, so it can
                // never become a constant (and DQS is off anyway).
                if let column = readable.first(where: { $0 == field }) ?? readable.first(where: { sameName($0, field) }) {
                    chosen.append((field, column))
                }
            }
        }

        // The rowid: only ordinary tables have one for sure. Pick an alias no column shadows.
        let allColumns = columns.compactMap { $0[0] }
        var rowidAlias: String?
        if row[1] == "table", row[2] == "0" {
            rowidAlias = ["rowid", "_rowid_", "oid"].first { alias in !allColumns.contains { sameName($0, alias) } }
        }
        var selectList = chosen.map { quoted($0.column) }
        if let rowidAlias { selectList.insert(rowidAlias, at: 0) }
        if selectList.isEmpty { selectList = ["NULL"] }
        let from = "\"main\".\(quoted(name))"
        // In rowid order, which a pushed-down read keeps (an index that covers the columns
        // would otherwise be free to change the order).
        let sql = "SELECT \(selectList.joined(separator: ", ")) FROM \(from)" + (rowidAlias.map { " ORDER BY \($0)" } ?? "")

        let statement: SQLiteStatement
        do {
            try connection.installReadOnlyAuthorizer()
            connection.clearDenial()
            statement = try SQLiteStatement(connection: connection, sql: sql)
        } catch {
            throw SQLiteErrors.auditError(error, stage: .schema(what: what), file: file, denial: connection.lastDenial)
        }
        var plan = SQLiteReadPlan(statement: statement, fields: chosen.map(\.field),
                                  locationStyle: rowidAlias != nil ? .rowid(table: name) : .ordinal,
                                  rowidFirst: rowidAlias != nil, what: what, available: readable)
        if rowidAlias != nil {
            plan.pushdown = PushdownTable(from: from, columns: Dictionary(chosen.map { ($0.field, quoted($0.column)) }) { a, _ in a },
                                          select: selectList.joined(separator: ", "), rowid: rowidAlias ?? "rowid")
        }
        return plan
    }

    /// A database without the table the rules read is a data problem (exit 65): the rules
    /// file may be right and the database the wrong one, or an old export.
    static func unknownTable(_ requested: String, names: [String], mark: ConfigMark?,
                             file: SQLiteDatabaseFile) -> AuditError {
        let userTables = names.filter { !$0.lowercased().hasPrefix("sqlite_") }
        var message = "the database has no table or view '\(requested)'"
        // A mark in `<sqlite options>`: the table came from the command line (`auditor profile`), not a rules file.
        let fromRules = mark.map { !$0.file.hasPrefix("<") } ?? true
        if let mark, fromRules { message += " (rules: \(mark))" }
        if let suggestion = Suggest.closest(to: requested, in: userTables) {
            message += "; did you mean '\(suggestion)'?"
        } else {
            message += "."
        }
        if userTables.isEmpty {
            message += " It has no tables"
        } else {
            let shown = userTables.sorted().prefix(20).map { "'\($0)'" }.joined(separator: ", ")
            message += " Its tables and views: \(shown)\(userTables.count > 20 ? ", ..." : "")"
        }
        message += fromRules ? ". Check that this is the right database, or correct the source's table in the rules file"
            : ". Check that this is the right database, or name one of its tables"
        return AuditError(.malformedInput, message, location: file.displayPath)
    }

    // MARK: - query:

    /// Prepares a rules-file query under the read-only authorizer and checks that it is one
    /// read-only statement that returns columns.
    static func query(_ sql: String, mark: ConfigMark?, locator: SQLiteOptions.Locator? = nil,
                      connection: SQLiteConnection, file: SQLiteDatabaseFile) throws(AuditError) -> SQLiteReadPlan {
        let location = mark?.description
        // Our own first prepare reads the schema, so that a file that is not a database (or is
        // corrupt) says so even when the query reads no table (`SELECT 1`).
        do {
            _ = try connection.textRows("SELECT count(*) FROM sqlite_schema")
        } catch {
            throw SQLiteErrors.auditError(error, stage: .schema(what: "the schema"), file: file)
        }
        let statement: SQLiteStatement
        do {
            try connection.installReadOnlyAuthorizer()
            connection.clearDenial()
            statement = try SQLiteStatement(connection: connection, sql: sql)
        } catch {
            throw SQLiteErrors.auditError(error, stage: .query(mark: mark), file: file, denial: connection.lastDenial)
        }
        let handle = statement.handle
        // VACUUM INTO prepares without asking the authorizer (its ATTACH runs at step time),
        // so these checks run before any step: nothing the query could do has happened yet.
        if statement.hasTrailingStatement {
            throw AuditError(.invalidRules, "the sqlite query holds more than one statement; write a single SELECT",
                             location: location)
        }
        if sqlite3_stmt_isexplain(handle) != 0 {
            throw AuditError(.invalidRules, "the sqlite query is an EXPLAIN; write the SELECT itself",
                             location: location)
        }
        let width = sqlite3_column_count(handle)
        guard sqlite3_stmt_readonly(handle) != 0, width > 0 else {
            throw AuditError(.invalidRules, "the sqlite query is refused: it is not a read-only SELECT (it would "
                                 + "change a database or write a file); write a single SELECT", location: location)
        }
        var fields = [String]()
        for c in 0 ..< width {
            let name = sqlite3_column_name(handle, c).map { String(cString: $0) } ?? "column\(c + 1)"
            if fields.contains(name) {
                throw AuditError(.invalidRules, "the sqlite query returns two columns named '\(name)'; give them "
                                     + "distinct names with AS", location: location)
            }
            fields.append(name)
        }
        var plan = SQLiteReadPlan(statement: statement, fields: fields, locationStyle: .ordinal, rowidFirst: false,
                                  what: "the query", available: fields)
        if let locator {
            guard let column = fields.firstIndex(of: locator.column) else {
                throw AuditError(.invalidRules, "'locate: \(locator.container)[\(locator.column)]' names the column '\(locator.column)', "
                                     + "which the query does not return (it returns \(fields.joined(separator: ", ")))", location: location)
            }
            plan.keyField = column
            plan.locationStyle = .key(container: locator.container, name: locator.column)
        }
        return plan
    }

    // MARK: - Names

    /// An SQL identifier: `"` + name with `"` doubled + `"`.
    static func quoted(_ identifier: String) -> String {
        var result = "\""
        for character in identifier {
            if character == "\"" { result.append("\"") }
            result.append(character)
        }
        result.append("\"")
        return result
    }

    /// SQLite's identifier comparison: equal ignoring ASCII case.
    static func sameName(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && zip(a.utf8, b.utf8).allSatisfy { asciiLower($0) == asciiLower($1) }
    }

    private static func asciiLower(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }
}
