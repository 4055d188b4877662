/* The safety side of the XML reader: the process-wide setup (a refusing external-entity
 * loader), exact element lines past 65535, and how libxml2's errors become a clean cut.
 * With AXMLReader.c and AXMLRecords.c, the only code of the project that includes libxml2
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
/* The reader whose batch runs on this thread (the loader and the node hook find it here). */
_Thread_local AXMLReader *axml_current;
/* Whatever node hook this thread had before our batch (called after ours). */
static _Thread_local xmlRegisterNodeFunc axml_previous_hook;


/* Marks the elements open in the parser at an error (the context's node and its ancestors).
 * In an entity's check context the chain is a throw-away pseudo root; libxml2 then reports
 * the failure again on the document's context, whose chain is the real one. */
static void mark_open_elements(xmlParserCtxtPtr ctxt) {
    if (ctxt == NULL) return;
    for (xmlNodePtr n = ctxt->node; n != NULL; n = n->parent) {
        if (n->type != XML_ELEMENT_NODE) break;
        n->psvi = (void *)((intptr_t)n->psvi | AXML_OPEN_AT_ERROR);
    }
}

/* The document's line and column at an error. Errors in an entity's replacement text carry
 * the entity's own positions (no file name); the reader's parser then stands just after the
 * reference in the document. */
static void error_position(AXMLReader *r, xmlParserCtxtPtr ctxt, const char *file, int64_t *line, int *column) {
    if (ctxt != NULL && ctxt->inputNr > 1 && ctxt->inputTab[0] != NULL && ctxt->inputTab[0]->filename != NULL) {
        *line = ctxt->inputTab[0]->line;
        *column = ctxt->inputTab[0]->col;
    } else if (file == NULL || (ctxt != NULL && ctxt->input != NULL && ctxt->input->filename == NULL)) {
        *line = xmlTextReaderGetParserLineNumber(r->reader);
        *column = xmlTextReaderGetParserColumnNumber(r->reader);
    }
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
    if (r != NULL && r->reader != NULL) {
        r->refused += 1;
        int64_t line = 0;
        int column = 0;
        error_position(r, ctxt, NULL, &line, &column);
        axml_note_error(r, AXML_ERROR_REFUSED_LOAD, line, column,
                        "the document asks to load the external resource '%s'", url ? url : "(unnamed)");
        r->error_pending = 1;
        mark_open_elements(ctxt);
    }
    return NULL;
}

static void axml_init(void) {
    xmlInitParser();
    xmlSetExternalEntityLoader(refusing_loader);
    /* Turns on libxml2's node-creation callbacks (a process-wide flag that only
     * xmlRegisterNodeDefault sets) without changing any hook: the swap puts the main thread's
     * hook back at once. Our hook is set per thread, around our reads (see axml_read). */
    xmlRegisterNodeDefault(xmlRegisterNodeDefault(NULL));
}

/* Called by libxml2 for every node it creates while our batch runs on this thread (the hook
 * is per-thread in libxml2 and installed only around our reads). It stores the parser's
 * line in the node's `psvi` field, unused for elements and entity references without
 * schema validation: in 2.9.14 `xmlNode.line` is 16 bits, and xmlGetLineNo's
 * XML_PARSE_BIG_LINES fallback for elements past line 65535 guesses from neighbouring text
 * nodes: measured one line late for two thirds of the records of a multi-line file, and
 * stuck at 65535 for some one-line records whose children were not parsed yet. At creation
 * the parser stands at
 * the end of the start tag, where libxml2 takes `node->line` from, so lines below 65535
 * agree with xmlGetLineNo (CONVENTIONS.md rule 6 asks for it; this is the measured better).
 * Not the parser line seen from the reader loop, which runs ahead by up to a chunk. */
static void node_hook(xmlNodePtr node) {
    AXMLReader *r = axml_current;
    if (r != NULL && r->reader != NULL &&
        (node->type == XML_ELEMENT_NODE || node->type == XML_ENTITY_REF_NODE)) {
        intptr_t line = xmlTextReaderGetParserLineNumber(r->reader);
        node->psvi = (void *)((line << AXML_FLAG_BITS) | (r->error_pending ? AXML_AFTER_ERROR : 0));
        if (r->root == NULL && node->type == XML_ELEMENT_NODE) r->root = node;
    }
    if (axml_previous_hook != NULL) axml_previous_hook(node);
}

int64_t axml_node_line(xmlNodePtr node) {
    intptr_t stored = (intptr_t)node->psvi >> AXML_FLAG_BITS;
    if (stored > 0) return (int64_t)stored;
    long line = xmlGetLineNo(node);
    return line > 0 ? (int64_t)line : 0;
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

/* libxml2's structured error handler for this reader: keeps the first error of level ERROR
 * or FATAL (warnings are ignored) and marks the cut (see AXML_OPEN_AT_ERROR). The batch loop
 * goes on delivering the nodes parsed before the error. */
void axml_on_libxml_error(void *arg, xmlErrorPtr e) {
    AXMLReader *r = arg;
    if (e == NULL || e->level < XML_ERR_ERROR) return;
    xmlParserCtxtPtr ctxt = NULL;
    if (e->ctxt != NULL && (e->domain == XML_FROM_PARSER || e->domain == XML_FROM_NAMESPACE ||
                            e->domain == XML_FROM_IO || e->domain == XML_FROM_DTD)) {
        ctxt = e->ctxt;
    }
    r->error_pending = 1;
    mark_open_elements(ctxt);
    if (r->error.kind != AXML_ERROR_NONE) return;
    int64_t line = e->line;
    int column = e->int2;
    error_position(r, ctxt, e->file, &line, &column);
    char message[sizeof r->error.message];
    snprintf(message, sizeof message, "%s", e->message ? e->message : "unknown libxml2 error");
    size_t n = strlen(message);
    while (n > 0 && (message[n - 1] == '\n' || message[n - 1] == ' ' || message[n - 1] == '\r')) {
        message[--n] = 0;
    }
    axml_note_error(r, AXML_ERROR_PARSE, line, column, "%s", message);
    r->error.libxml_code = e->code;
}

void axml_setup(void) { pthread_once(&axml_once, axml_init); }

/* Installs node_hook for this thread, around a batch. libxml2 keeps the hook per thread
 * (xmlRegisterNodeDefault would set the main thread's one, whatever thread calls it). */
void axml_install_hook(xmlRegisterNodeFunc *saved_hook, xmlRegisterNodeFunc *saved_previous) {
    xmlRegisterNodeFunc *slot = __xmlRegisterNodeDefaultValue();
    *saved_hook = *slot;
    *saved_previous = axml_previous_hook;
    axml_previous_hook = *slot == node_hook ? NULL : *slot;
    *slot = node_hook;
}

void axml_remove_hook(xmlRegisterNodeFunc saved_hook, xmlRegisterNodeFunc saved_previous) {
    *__xmlRegisterNodeDefaultValue() = saved_hook;
    axml_previous_hook = saved_previous;
}
