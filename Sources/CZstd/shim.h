#ifndef AUDITOR_CZSTD_SHIM_H
#define AUDITOR_CZSTD_SHIM_H
#include <zstd.h>
#endif
