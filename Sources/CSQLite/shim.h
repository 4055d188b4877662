#ifndef AUDITOR_CSQLITE_SHIM_H
#define AUDITOR_CSQLITE_SHIM_H
#include <sqlite3.h>
#endif
