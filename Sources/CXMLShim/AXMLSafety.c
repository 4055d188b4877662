/* The safety side of the XML reader: the process-wide setup (a refusing external-entity
 * loader) and how libxml2's errors become a clean cut.
 * With the other AXML*.c files, the only code of the project that includes libxml2
 * (see include/CXMLShim.h and STYLE.md). */
#include "axml_internal.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_once_t axml_once = PTHREAD_ONCE_INIT;
static atomic_llong axml_refused_total;
/* The reader whose batch runs on this thread (the loader and the SAX callbacks find it here). */
_Thread_local AXMLReader *axml_current;


/* The document's line and column at an error. Errors in an entity's replacement text carry
 * the entity's own positions (no file name); the reader's parser then stands just after the
 * reference in the document. */
static void error_position(AXMLReader *r, xmlParserCtxtPtr ctxt, const char *file, int64_t *line, int *column) {
    if (ctxt != NULL && ctxt->inputNr > 1 && ctxt->inputTab[0] != NULL && ctxt->inputTab[0]->filename != NULL) {
        *line = ctxt->inputTab[0]->line;
        *column = ctxt->inputTab[0]->col;
    } else if (file == NULL || (ctxt != NULL && ctxt->input != NULL && ctxt->input->filename == NULL)) {
        *line = axml_current_line(r);
        *column = axml_current_column(r);
    }
}

int64_t axml_current_line(const AXMLReader *r) {
    return r->ctxt != NULL && r->ctxt->input != NULL ? (int64_t)r->ctxt->input->line : 0;
}

int axml_current_column(const AXMLReader *r) {
    return r->ctxt != NULL && r->ctxt->input != NULL ? r->ctxt->input->col : 0;
}

/* libxml2 calls this for every external resource a document asks for (DTDs, external
 * entities, XIncludes). With our parse options it is never reached for a plain document; it
 * is the second lock on the door. It is process-global (xmlSetExternalEntityLoader has no
 * per-parser form in 2.9), so every libxml2 user in this process is refused as well: auditor
 * has no other. */
static xmlParserInputPtr refusing_loader(const char *url, const char *id, xmlParserCtxtPtr ctxt) {
    (void)id;
    atomic_fetch_add(&axml_refused_total, 1);
    AXMLReader *r = axml_current;
    if (r != NULL && r->ctxt != NULL) {
        r->refused += 1;
        int64_t line = 0;
        int column = 0;
        error_position(r, ctxt, NULL, &line, &column);
        axml_note_error(r, AXML_ERROR_REFUSED_LOAD, line, column,
                        "the document asks to load the external resource '%s'", url ? url : "(unnamed)");
        r->stopped = 1;
    }
    return NULL;
}

static void axml_init(void) {
    xmlInitParser();
    xmlSetExternalEntityLoader(refusing_loader);
}

int axml_probe_external_loader(const char *url) {
    axml_setup();
    xmlParserInputPtr input = xmlLoadExternalEntity(url, NULL, NULL);
    if (input != NULL) {
        xmlFreeInputStream(input);
        return 0;
    }
    return 1;
}

int64_t axml_refused_loads_total(void) { return (int64_t)atomic_load(&axml_refused_total); }

int axml_runtime_version(void) {
    return xmlParserVersion ? atoi(xmlParserVersion) : LIBXML_VERSION;
}

/* ---------------------------------------------------------------------------------------- */
/* Errors */

static void axml_vset_error(AXMLReader *r, int kind, int64_t line, int column, const char *fmt, va_list args) {
    memset(&r->error, 0, sizeof r->error);
    r->error.kind = kind;
    r->error.line = line;
    r->error.column = column;
    vsnprintf(r->error.message, sizeof r->error.message, fmt, args);
}

/* An error the parser found ahead of the delivered nodes: the first one is reported, unless
 * the loop stops earlier in the document for its own reason (set_error). */
void axml_note_error(AXMLReader *r, int kind, int64_t line, int column, const char *fmt, ...) {
    if (r->error.kind != AXML_ERROR_NONE) return;
    va_list args;
    va_start(args, fmt);
    axml_vset_error(r, kind, line, column, fmt, args);
    va_end(args);
}

/* An error at the node being delivered: it stops the batch here, so it replaces a parser
 * error noted further on in the document. */
void axml_set_error(AXMLReader *r, int kind, int64_t line, int column, const char *fmt, ...) {
    if (r->delivery_error) return;
    r->delivery_error = 1;
    va_list args;
    va_start(args, fmt);
    axml_vset_error(r, kind, line, column, fmt, args);
    va_end(args);
}

/* libxml2's message as one line: "indicate encoding !\nBytes: …" has a line break inside. */
static void one_line(char *out, size_t size, const char *message) {
    snprintf(out, size, "%s", message);
    size_t n = strlen(out);
    while (n > 0 && (out[n - 1] == '\n' || out[n - 1] == ' ' || out[n - 1] == '\r')) out[--n] = 0;
    for (size_t i = 0; i < n; i++) {
        if (out[i] == '\n' || out[i] == '\r') out[i] = ' ';
    }
}

/* libxml2's structured error handler for this reader: keeps the first error of level ERROR
 * or FATAL (warnings are ignored) and makes the cut: every SAX event after it is ignored, so
 * the records that ended before it are in the batch and the one in progress is dropped. */
static void keep_error(AXMLReader *r, xmlErrorPtr e) {
    if (e == NULL || e->level < XML_ERR_ERROR) return;
    xmlParserCtxtPtr ctxt = NULL;
    if (e->ctxt != NULL && (e->domain == XML_FROM_PARSER || e->domain == XML_FROM_NAMESPACE ||
                            e->domain == XML_FROM_IO || e->domain == XML_FROM_DTD)) {
        ctxt = e->ctxt;
    }
    r->stopped = 1;
    if (r->error.kind != AXML_ERROR_NONE) return;
    int64_t line = e->line;
    int column = e->int2;
    error_position(r, ctxt, e->file, &line, &column);
    char message[sizeof r->error.message];
    one_line(message, sizeof message, e->message ? e->message : "unknown libxml2 error");
    axml_note_error(r, AXML_ERROR_PARSE, line, column, "%s", message);
    r->error.libxml_code = e->code;
}

void axml_setup(void) { pthread_once(&axml_once, axml_init); }

/* Errors raised without a parser context (libxml2 2.9's encoding conversion: "input conversion
 * failed…", "I/O error : encoder error") go to the thread's structured handler, and a few to
 * its generic handler ("xmlParseChunk: encoder error"); by default both print on stderr. While
 * a reader parses, they are its own and none is printed: the first is kept, and the parser goes
 * on with what was converted before the bad bytes, so the cut falls where they are (feed()). */
void axml_on_error(void *ctx, xmlErrorPtr e) {
    (void)ctx;
    AXMLReader *r = axml_current;
    if (r == NULL || e == NULL) return;
    if (e->ctxt != NULL || e->level < XML_ERR_ERROR) {
        keep_error(r, e);
    } else if (r->contextless[0] == 0) {
        one_line(r->contextless, sizeof r->contextless, e->message ? e->message : "unknown libxml2 error");
        r->contextless_code = e->code;
    }
}

static void on_generic_error(void *arg, const char *format, ...) {
    (void)arg;
    AXMLReader *r = axml_current;
    if (r == NULL || format == NULL || r->contextless[0] != 0) return;
    char message[sizeof r->contextless];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof message, format, args);
    va_end(args);
    one_line(r->contextless, sizeof r->contextless, message);
}

void axml_enter(AXMLReader *r, AXMLThreadState *saved) {
    saved->reader = axml_current;
    saved->structured = xmlStructuredError;
    saved->structured_context = xmlStructuredErrorContext;
    saved->generic = xmlGenericError;
    saved->generic_context = xmlGenericErrorContext;
    axml_current = r;
    xmlSetStructuredErrorFunc(NULL, axml_on_error);
    xmlSetGenericErrorFunc(NULL, on_generic_error);
}

void axml_leave(const AXMLThreadState *saved) {
    xmlSetGenericErrorFunc(saved->generic_context, saved->generic);
    xmlSetStructuredErrorFunc(saved->structured_context, saved->structured);
    axml_current = saved->reader;
}
