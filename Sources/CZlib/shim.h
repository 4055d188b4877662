#ifndef AUDITOR_CZLIB_SHIM_H
#define AUDITOR_CZLIB_SHIM_H
#include <zlib.h>
#endif
