#ifndef AUDITOR_CLIBPQ_SHIM_H
#define AUDITOR_CLIBPQ_SHIM_H
/*
 * libpq, PostgreSQL's reference client (Debian's libpq-dev; libpq 15 on Debian 12: no
 * chunked-rows mode, so rows stream with COPY ... TO STDOUT).
 */
#include <libpq-fe.h>

/* libpq's diagnostic field codes are macros on a char literal ('C'): Swift imports them as
 * Int32 already, but keep their names here in one place for readability. */
static inline int auditor_pq_diag_sqlstate(void) { return PG_DIAG_SQLSTATE; }
static inline int auditor_pq_diag_message_primary(void) { return PG_DIAG_MESSAGE_PRIMARY; }
static inline int auditor_pq_diag_message_hint(void) { return PG_DIAG_MESSAGE_HINT; }
#endif
