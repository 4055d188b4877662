import Auditor
import CSQLite
import SQLiteSupport

/// Turns SQLite failures into ``AuditError``s with messages that say what to do.
///
/// Errors are classified from the first prepare or step (CONVENTIONS.md rule 7): opening is
/// lazy, so "not a database" and "corrupt" only show when SQLite first reads the file.
enum SQLiteErrors {
    /// Where a failure happened, which decides who is to blame for an `SQLITE_ERROR`.
    enum Stage {
        /// Opening or configuring the connection.
        case open
        /// Our own SQL (schema look-ups, the table's SELECT): an error is the database's.
        case schema(what: String)
        /// Preparing SQL from the rules file: an error is the rules file's.
        case query(mark: ConfigMark?)
        /// Stepping through records.
        case read(what: String)
    }

    /// The ``AuditError`` for a failure.
    static func auditError(_ failure: SQLiteFailure, stage: Stage, file: SQLiteDatabaseFile,
                           denial: (action: Int32, detail: String)? = nil) -> AuditError {
        let path = file.displayPath
        let cause = "SQLite: \(failure.message) (code \(failure.code))"
        // A refusal by our authorizer explains the failure whatever code SQLite chose for it
        // (a refused CREATE TABLE comes back as SQLITE_SCHEMA, a refused json_each as SQLITE_ERROR).
        if case .query(let mark) = stage, let denial {
            return AuditError(.invalidRules, "the sqlite query is refused: a rules-file query may only read, "
                                  + "and it would \(describe(denial)); write a single SELECT",
                              location: mark?.description ?? path, cause: cause)
        }
        if failure.message.hasPrefix("unsafe use of") {
            let subject: String
            switch stage {
            case .schema(let what), .read(let what): subject = "cannot read \(what) of '\(path)'"
            case .query, .open: subject = "cannot run the sqlite query on '\(path)'"
            }
            return AuditError(.malformedInput, subject + ": a view or trigger calls a function or virtual table "
                                  + "that may have side effects, and the auditor does not trust the database's "
                                  + "schema; read the underlying tables instead", location: path, cause: cause)
        }
        switch failure.primaryCode {
        case SQLITE_NOTADB:
            return AuditError(.malformedInput, "'\(path)' is not an SQLite database; check the path, "
                                  + "or set the source's format", location: path, cause: cause)
        case SQLITE_CORRUPT:
            return AuditError(.malformedInput, "'\(path)' is corrupt or truncated; run "
                                  + "sqlite3 '\(path)' 'PRAGMA integrity_check' to see the damage, "
                                  + "and restore it from a backup", location: path, cause: cause)
        case SQLITE_CANTOPEN:
            return AuditError(.missingInput, "cannot open the SQLite database '\(path)'; check that it exists, "
                                  + "is readable, and is not reached through a symbolic link",
                              location: path, cause: cause)
        case SQLITE_BUSY, SQLITE_LOCKED:
            return AuditError(.transient, "'\(path)' is locked by another connection; run again when the "
                                  + "writer is done", location: path, cause: cause)
        case SQLITE_SCHEMA:
            return AuditError(.transient, "the schema of '\(path)' changed during the audit; run again",
                              location: path, cause: cause)
        case SQLITE_READONLY:
            if failure.code == SQLITE_READONLY | (3 << 8) { // SQLITE_READONLY_ROLLBACK
                return AuditError(.malformedInput, "'\(path)' has a hot journal left by an interrupted write; "
                                      + "open it once with write access (sqlite3 '\(path)' 'PRAGMA quick_check') "
                                      + "to roll it back, or audit a copy", location: path, cause: cause)
            }
            return AuditError(.io, "cannot read '\(path)' without writing to it; audit a copy of the database "
                                  + "and its -wal file", location: path, cause: cause)
        case SQLITE_IOERR:
            if failure.code == SQLITE_IOERR | (2 << 8) { // SQLITE_IOERR_SHORT_READ
                return AuditError(.malformedInput, "'\(path)' is truncated; restore it from a backup",
                                  location: path, cause: cause)
            }
            return AuditError(.io, "an I/O error occurred while reading '\(path)'; check the disk and run again",
                              location: path, cause: cause)
        case SQLITE_NOMEM:
            return AuditError(.io, "out of memory while reading '\(path)'", location: path, cause: cause)
        default:
            break
        }
        switch stage {
        case .query(let mark):
            let location = mark?.description ?? path
            return AuditError(.invalidRules, "the sqlite query cannot be prepared: \(failure.message)",
                              location: location, cause: "SQLite code \(failure.code)")
        case .schema(let what), .read(let what):
            if let denial {
                return AuditError(.malformedInput, "cannot read \(what) of '\(path)': it would "
                                      + "\(describe(denial)), and the auditor only reads", location: path, cause: cause)
            }
            return AuditError(.malformedInput, "cannot read \(what) of '\(path)': \(failure.message)",
                              location: path, cause: cause)
        case .open:
            return AuditError(.io, "cannot open the SQLite database '\(path)': \(failure.message)",
                              location: path, cause: cause)
        }
    }

    /// "write to 'people'", "attach '/tmp/x'", "run PRAGMA writable_schema"...
    static func describe(_ denial: (action: Int32, detail: String)) -> String {
        let name = denial.detail.isEmpty ? "" : " '\(denial.detail)'"
        switch denial.action {
        case SQLITE_INSERT, SQLITE_UPDATE, SQLITE_DELETE:
            if denial.detail == "sqlite_master" || denial.detail == "sqlite_temp_master" {
                return "change the schema (virtual tables such as json_each are not available in a query)"
            }
            return "write to\(name)"
        case SQLITE_CREATE_INDEX, SQLITE_CREATE_TABLE, SQLITE_CREATE_TEMP_INDEX, SQLITE_CREATE_TEMP_TABLE,
             SQLITE_CREATE_TEMP_TRIGGER, SQLITE_CREATE_TEMP_VIEW, SQLITE_CREATE_TRIGGER, SQLITE_CREATE_VIEW,
             SQLITE_CREATE_VTABLE:
            return "create\(name)"
        case SQLITE_DROP_INDEX, SQLITE_DROP_TABLE, SQLITE_DROP_TEMP_INDEX, SQLITE_DROP_TEMP_TABLE,
             SQLITE_DROP_TEMP_TRIGGER, SQLITE_DROP_TEMP_VIEW, SQLITE_DROP_TRIGGER, SQLITE_DROP_VIEW,
             SQLITE_DROP_VTABLE:
            return "drop\(name)"
        case SQLITE_ALTER_TABLE: return "alter a table"
        case SQLITE_ATTACH: return "attach\(name)"
        case SQLITE_DETACH: return "detach\(name)"
        case SQLITE_PRAGMA: return "run PRAGMA\(denial.detail.isEmpty ? "" : " " + denial.detail)"
        case SQLITE_TRANSACTION, SQLITE_SAVEPOINT: return "control a transaction"
        case SQLITE_ANALYZE: return "run ANALYZE"
        case SQLITE_REINDEX: return "run REINDEX"
        case SQLITE_FUNCTION: return "call\(name)"
        default: return "perform a non-read action (SQLite action \(denial.action))\(name)"
        }
    }
}
