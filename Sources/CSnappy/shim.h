#ifndef AUDITOR_CSNAPPY_SHIM_H
#define AUDITOR_CSNAPPY_SHIM_H
#include <snappy-c.h>
#endif
