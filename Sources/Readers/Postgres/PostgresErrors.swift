import Auditor

/// Turns libpq and server failures into ``AuditError``s that name `host:port/db` (never a
/// password) and say what to do.
///
/// Exit statuses: the server cannot be reached or refuses us (wrong host, port, password,
/// missing database, no privilege) → 66; the server went away or gave up mid-read (connection
/// lost, SQLSTATE class 08, 57P01–57P03 shutdown, 57014 timeout, 40001/40P01, class 53) → 75;
/// a refused or broken rules-file query → 78; anything else about the data → 65.
enum PostgresErrors {
    /// Where a failure happened, which decides who is to blame.
    enum Stage {
        /// Connecting and setting up the session.
        case open
        /// Our own SQL (catalog look-ups, the table's SELECT): an error is the database's.
        case schema(what: String)
        /// SQL from the rules file: an error is the rules file's.
        case query(mark: ConfigMark?)
        /// Streaming rows.
        case read(what: String)
    }

    /// A connection that could not be made (`PQconnectdbParams` failed).
    static func connectError(_ message: String, target: String, displayPath: String) -> AuditError {
        let lower = message.lowercased()
        let cause = "libpq: \(message.replacingAll("\n", with: " "))"
        if lower.contains("the database system is starting up") || lower.contains("the database system is shutting down")
            || lower.contains("in recovery mode") || lower.contains("too many clients") || lower.contains("too many connections") {
            return AuditError(.transient, "the PostgreSQL server at \(target) is not accepting connections right now; "
                                  + "run again later", location: displayPath, cause: cause)
        }
        let advice: String
        if lower.contains("password authentication failed") || lower.contains("no password supplied")
            || lower.contains("authentication failed") {
            advice = "the server refused the credentials; check the user in the URL and the password in PGPASSWORD, "
                + "~/.pgpass or the PGSERVICE entry"
        } else if lower.contains("does not exist") && lower.contains("database") {
            advice = "the server has no such database; check the database name in the URL"
        } else if lower.contains("timeout expired") {
            advice = "the server did not answer within the connect timeout; check the host and port, or raise "
                + "connect_timeout in the URL"
        } else if lower.contains("could not translate host name") {
            advice = "the host name does not resolve; check the host in the URL"
        } else if lower.contains("connection refused") || lower.contains("no such file or directory") {
            advice = "nothing listens there; check the host and port (or the socket folder) in the URL, and that "
                + "the server is running"
        } else if lower.contains("no pg_hba.conf entry") && lower.contains("no encryption") {
            advice = "the server's pg_hba.conf does not admit this user, database and address without encryption; "
                + "set sslmode=require (or verify-full) in the URL"
        } else if lower.contains("no pg_hba.conf entry") {
            advice = "the server's pg_hba.conf does not admit this user, database and address"
        } else if lower.contains("ssl") {
            advice = "the TLS negotiation failed; check sslmode and the certificates (sslrootcert) in the URL"
        } else {
            advice = "check the connection URL"
        }
        return AuditError(.missingInput, "cannot connect to PostgreSQL at \(target): \(advice)", location: displayPath,
                          cause: cause)
    }

    /// The ``AuditError`` for a failure after the connection was made.
    static func auditError(_ failure: PostgresFailure, stage: Stage, displayPath: String, target: String) -> AuditError {
        let state = failure.sqlState ?? ""
        let cause = "PostgreSQL: \(failure.message.replacingAll("\n", with: " "))\(state.isEmpty ? "" : " (SQLSTATE \(state))")"
        if failure.connectionLost || state.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(state) {
            return AuditError(.transient, "the connection to PostgreSQL at \(target) was lost; the audit is incomplete, "
                                  + "run again", location: displayPath, cause: cause)
        }
        if state == "57014" {
            return AuditError(.transient, "PostgreSQL at \(target) cancelled the read (statement timeout or an "
                                  + "administrator); raise 'timeout:' in the source's postgres block, or run again",
                              location: displayPath, cause: cause)
        }
        if state == "40001" || state == "40P01" || state.hasPrefix("53") || state == "55P03" {
            return AuditError(.transient, "PostgreSQL at \(target) could not finish the read now; run again",
                              location: displayPath, cause: cause)
        }
        if state == "42501" {
            return AuditError(.missingInput, "the user may not read this in PostgreSQL at \(target): \(failure.message); "
                                  + "GRANT SELECT to the auditing user", location: displayPath, cause: cause)
        }
        switch stage {
        case .query(let mark):
            let location = mark?.description ?? displayPath
            if state == "25006" || state == "0A000" {
                return AuditError(.invalidRules, "the postgres query is refused: a rules-file query may only read "
                                      + "(\(failure.message)); write a single SELECT", location: location, cause: cause)
            }
            return AuditError(.invalidRules, "the postgres query cannot be prepared: \(failure.message)",
                              location: location, cause: state.isEmpty ? nil : "SQLSTATE \(state)")
        case .schema(let what), .read(let what):
            return AuditError(.malformedInput, "cannot read \(what) of PostgreSQL at \(target): \(failure.message)",
                              location: displayPath, cause: cause)
        case .open:
            return AuditError(.missingInput, "cannot prepare the session with PostgreSQL at \(target): \(failure.message)",
                              location: displayPath, cause: cause)
        }
    }
}
