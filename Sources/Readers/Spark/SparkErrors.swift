#if Spark
import Auditor
import SparkConnect

/// Turns ``SparkConnectError``s into ``AuditError``s that name the server and say what to do.
///
/// Exit statuses (as for PostgreSQL): no server at the address, refused credentials → 66; no
/// answer within the timeout, or a failure while running → 75 (transient: run again); a table
/// or files that do not exist → 65 (the data is not there), or 66 for a missing path of
/// `files:`; a record Spark cannot parse, or a file it cannot read → 65; a malformed URL or an
/// unsupported option → 78; Spark rejecting SQL that the auditor generated → 70 (a bug), with
/// Spark's error class.
enum SparkErrors {
    enum Stage {
        /// Setting up the session.
        case open
        /// Finding the table or files the rules name (`what`: "table 'people'").
        case resolve(what: String)
        /// The auditor's own SQL over a resolved relation.
        case read(what: String)
    }

    /// What a read of csv or json files that stopped at a record says to do; ``MalformedProbe``
    /// names the records before it.
    static let malformedHint = "; a CSV row with too few or too many fields, or a JSON line that is no object, stops the read "
        + "(mode FAILFAST, so that Spark repairs none in silence): the auditor's own csv and jsonl readers report each such record, "
        + "or options: { mode: PERMISSIVE } lets Spark repair them"

    static func auditError(_ error: SparkConnectError, stage: Stage, target: String, displayPath: String,
                           sql: String? = nil) -> AuditError {
        var cause = error.cause ?? ""
        if let errorClass = error.errorClass { cause = "Spark error class \(errorClass)" + (cause.isEmpty ? "" : "; \(cause)") }
        let because = cause.isEmpty ? nil : cause
        switch error.code {
        case .invalidURL, .unsupported:
            return AuditError(.invalidRules, "cannot use the Spark Connect URL '\(displayPath)': \(error.message)", location: displayPath,
                              cause: because)
        case .unreachable:
            return AuditError(.missingInput, "cannot reach the Spark Connect server at \(target): nothing answers there; check the "
                                  + "host and port in the URL (--source NAME=sc://HOST:PORT) and that the server is running",
                              location: displayPath, cause: because)
        case .unauthenticated:
            return AuditError(.missingInput, "the Spark Connect server at \(target) refused the credentials; check the token in the URL "
                                  + "(sc://host:port/;token=...)", location: displayPath, cause: because)
        case .timedOut:
            return AuditError(.transient, "the Spark Connect server at \(target) did not answer in time; raise 'timeout:' in the "
                                  + "source's spark block, or run again", location: displayPath, cause: because)
        case .server where ["FAILED_READ_FILE", "MALFORMED_RECORD_IN_PARSING"].contains { error.errorClass?.hasPrefix($0) == true }:
            // The data: a record that Spark cannot parse (`mode: FAILFAST`, set for csv and json
            // files, SparkReadPlan.readerDefaults), or a file it cannot read.
            var what = "the data"
            switch stage {
            case .read(let named), .resolve(let named): what = named
            case .open: break
            }
            let hint = !what.hasPrefix("csv ") && !what.hasPrefix("json ") ? "" : malformedHint
            return AuditError(.malformedInput, "Spark at \(target) cannot read \(what): \(error.message)\(hint)", location: displayPath,
                              cause: because)
        case .server where error.errorClass != nil:
            // A classified failure at run time (ARITHMETIC_OVERFLOW, CAST_INVALID_INPUT under ANSI
            // mode): the same SQL fails again on the same data, so it is no transient failure.
            return AuditError(.internal, "Spark at \(target) failed while running SQL that the auditor generated (a bug; "
                                  + "AUDITOR_DEBUG_SQL=1 prints the SQL): \(error.message)", location: displayPath, cause: because)
        case .server, .protocolViolation:
            return AuditError(.transient, "Spark at \(target) failed while running the audit's query: \(error.message); run again",
                              location: displayPath, cause: because)
        case .analysis:
            let missing = ["TABLE_OR_VIEW_NOT_FOUND", "SCHEMA_NOT_FOUND", "PATH_NOT_FOUND"]
            if case .resolve(let what) = stage, let errorClass = error.errorClass, missing.contains(errorClass) {
                return AuditError(errorClass == "PATH_NOT_FOUND" ? .missingInput : .malformedInput,
                                  "Spark at \(target) has no \(what); check the source's spark block (table: or files:), or "
                                      + "list the tables with SHOW TABLES", location: displayPath, cause: because)
            }
            if case .resolve(let what) = stage {
                return AuditError(.malformedInput, "Spark at \(target) cannot read \(what): \(error.message)", location: displayPath,
                                  cause: because)
            }
            // SQL the auditor wrote was refused: a bug, whatever the data.
            var message = "Spark at \(target) rejected SQL that the auditor generated (a bug; please report it with the SQL, "
                + "which AUDITOR_DEBUG_SQL=1 prints): \(error.message)"
            if let sql, sql.count < 400 { message += " -- SQL: \(sql)" }
            return AuditError(.internal, message, location: displayPath, cause: because)
        }
    }
}
#endif
