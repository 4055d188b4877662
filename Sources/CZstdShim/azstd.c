#include "CZstdShim.h"

#include <dlfcn.h>
#include <pthread.h>

/* The functions of libzstd that we call, by their real names and signatures. */
typedef size_t (*in_size_fn)(void);
typedef void *(*create_fn)(void);
typedef size_t (*free_fn)(void *);
typedef size_t (*stream_fn)(void *, AZstdOutBuffer *, AZstdInBuffer *);
typedef size_t (*oneshot_fn)(void *, size_t, const void *, size_t);
typedef unsigned (*is_error_fn)(size_t);
typedef const char *(*error_name_fn)(size_t);

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *load_error = "libzstd was not loaded";
static int loaded;
static in_size_fn in_size;
static create_fn create_dctx;
static free_fn free_dctx;
static stream_fn decompress_stream;
static oneshot_fn decompress;
static is_error_fn is_error;
static error_name_fn error_name;

static void load(void) {
    void *library = dlopen("libzstd.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        load_error = "cannot load libzstd.so.1; install Debian's libzstd1 (apt-get install libzstd1) to read zstd data";
        return;
    }
    in_size = (in_size_fn)dlsym(library, "ZSTD_DStreamInSize");
    create_dctx = (create_fn)dlsym(library, "ZSTD_createDCtx");
    free_dctx = (free_fn)dlsym(library, "ZSTD_freeDCtx");
    decompress_stream = (stream_fn)dlsym(library, "ZSTD_decompressStream");
    decompress = (oneshot_fn)dlsym(library, "ZSTD_decompress");
    is_error = (is_error_fn)dlsym(library, "ZSTD_isError");
    error_name = (error_name_fn)dlsym(library, "ZSTD_getErrorName");
    if (!in_size || !create_dctx || !free_dctx || !decompress_stream || !decompress || !is_error || !error_name) {
        load_error = "libzstd.so.1 lacks a function auditor needs (zstd 1.3 or later is required)";
        return;           /* the library stays loaded; nothing else is called */
    }
    loaded = 1;
}

int azstd_available(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *azstd_load_error(void) {
    pthread_once(&once, load);
    return loaded ? "" : load_error;
}

size_t azstd_dstream_in_size(void) { return in_size(); }
AZstdDCtx *azstd_create_dctx(void) { return (AZstdDCtx *)create_dctx(); }
void azstd_free_dctx(AZstdDCtx *context) { (void)free_dctx(context); }
size_t azstd_decompress_stream(AZstdDCtx *context, AZstdOutBuffer *output, AZstdInBuffer *input) {
    return decompress_stream(context, output, input);
}
size_t azstd_decompress(void *dst, size_t capacity, const void *src, size_t size) {
    return decompress(dst, capacity, src, size);
}
unsigned azstd_is_error(size_t code) { return is_error(code); }
const char *azstd_error_name(size_t code) { return error_name(code); }
