#ifndef AUDITOR_CSQLITE_SHIM_H
#define AUDITOR_CSQLITE_SHIM_H
#include <sqlite3.h>
#include <string.h>

/*
 * Small C helpers for what Swift cannot call directly.
 *
 * - sqlite3_db_config is variadic: Swift cannot import it.
 * - The authorizer is a C callback; keeping it in C avoids a Swift closure on the hot
 *   prepare path and keeps the allow-list next to the SQLite action codes it names.
 */

/// Sets an integer database option (SQLITE_DBCONFIG_DEFENSIVE, ..._TRUSTED_SCHEMA, ...).
/// Returns the SQLite result code; `*applied` receives the value now in force.
static inline int auditor_sqlite3_db_config_int(sqlite3 *db, int op, int value, int *applied) {
    return sqlite3_db_config(db, op, value, applied);
}

/// What the read-only authorizer refused first (for the error message).
typedef struct AuditorSQLiteDenial {
    int action;          /* the SQLITE_* action code, 0 while nothing was refused */
    char detail[160];    /* the object it concerned (table, pragma, function, file) */
} AuditorSQLiteDenial;

/// Allows what a plain SELECT needs and nothing else: reading tables and columns
/// (SQLITE_READ), the SELECT itself, function calls and recursive common table expressions.
/// Refuses everything else (writes, DDL, PRAGMA, ATTACH, transactions...), and the two
/// functions that reach outside the database even when enabled: load_extension and
/// fts3_tokenizer.
static inline int auditor_sqlite3_read_only_authorizer(void *context, int action, const char *a,
                                                       const char *b, const char *c, const char *d) {
    (void)c;
    (void)d;
    switch (action) {
    case SQLITE_SELECT:
    case SQLITE_READ:
    case SQLITE_RECURSIVE:
        return SQLITE_OK;
    case SQLITE_FUNCTION:
        if (b != 0 && sqlite3_stricmp(b, "load_extension") != 0 && sqlite3_stricmp(b, "fts3_tokenizer") != 0) {
            return SQLITE_OK;
        }
        break;
    default:
        break;
    }
    AuditorSQLiteDenial *denial = (AuditorSQLiteDenial *)context;
    if (denial != 0 && denial->action == 0) {
        const char *what = (action == SQLITE_FUNCTION) ? b : (a != 0 ? a : b);
        denial->action = action;
        denial->detail[0] = 0;
        if (what != 0) {
            strncpy(denial->detail, what, sizeof(denial->detail) - 1);
            denial->detail[sizeof(denial->detail) - 1] = 0;
        }
    }
    return SQLITE_DENY;
}

/// Installs ``auditor_sqlite3_read_only_authorizer``; `denial` must outlive every prepare.
static inline int auditor_sqlite3_set_read_only_authorizer(sqlite3 *db, AuditorSQLiteDenial *denial) {
    return sqlite3_set_authorizer(db, auditor_sqlite3_read_only_authorizer, denial);
}

#endif
