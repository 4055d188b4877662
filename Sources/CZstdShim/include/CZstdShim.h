#ifndef AUDITOR_CZSTDSHIM_H
#define AUDITOR_CZSTDSHIM_H
/*
 * zstd decompression through libzstd.so.1, loaded at run time.
 *
 * Debian's runtime package libzstd1 is on every machine (apt uses it), but its headers and
 * its link name (libzstd-dev) are not, so the build must not need them: this header declares
 * our own names over the stable public ABI of zstd >= 1.3 (ZSTD_inBuffer / ZSTD_outBuffer,
 * the streaming and one-shot decompressors), and azstd.c resolves them with dlopen/dlsym
 * the first time they are needed. When the library cannot be loaded, azstd_available() is 0
 * and azstd_load_error() says why; every other function must then not be called.
 */
#include <stddef.h>

typedef struct { const void *src; size_t size; size_t pos; } AZstdInBuffer;
typedef struct { void *dst; size_t size; size_t pos; } AZstdOutBuffer;
typedef struct AZstdDCtx AZstdDCtx;

/* 1 when libzstd.so.1 is loaded with every function below (thread-safe, loads once). */
int azstd_available(void);
/* Why it is not: a static string. */
const char *azstd_load_error(void);

size_t azstd_dstream_in_size(void);
AZstdDCtx *azstd_create_dctx(void);
void azstd_free_dctx(AZstdDCtx *context);
size_t azstd_decompress_stream(AZstdDCtx *context, AZstdOutBuffer *output, AZstdInBuffer *input);
size_t azstd_decompress(void *dst, size_t capacity, const void *src, size_t size);
unsigned azstd_is_error(size_t code);
const char *azstd_error_name(size_t code);

#endif
