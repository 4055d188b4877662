/* Exact element lines. libxml2 2.9 keeps an element's line in 16 bits (`xmlNode.line`),
 * and xmlGetLineNo's XML_PARSE_BIG_LINES fallback for elements past line 65535 guesses from
 * neighbouring text nodes: measured one line late for two thirds of the records of a
 * multi-line file, and stuck at 65535 for some one-line records whose children were not
 * parsed yet. So the line is taken when libxml2 creates the element, from the parser itself
 * (at the end of the start tag, where libxml2 takes `node->line` from: below 65535 both
 * agree), and kept in the element's `psvi` field, unused without schema validation, with
 * the two error flags of axml_internal.h. Not the parser line seen from the reader loop,
 * which runs ahead by up to a chunk (CONVENTIONS.md rule 6 asks for xmlGetLineNo; this is
 * the measured better).
 *
 * Two ways to be told of new elements:
 * - fast: wrap the SAX2 startElementNs and reference callbacks of this reader's parser
 *   context. xmlreader.h gives no access to that context, so it is read from the reader's
 *   structure, whose head has been the same from libxml2 2.7 to 2.11; only for a runtime in
 *   that range, and only when the pointer found passes four checks.
 * - portable: libxml2's per-thread node-creation hook (xmlRegisterNodeDefault). Correct for
 *   any version, but once on, libxml2 looks the hook up in thread-local state for every
 *   node it creates or frees, process-wide: about +45% CPU on the benchmark file. */
#include "axml_internal.h"

#include <pthread.h>
#include <stdlib.h>

/* The head of `struct _xmlTextReader` in libxml2 2.7...2.11 (xmlreader.c). */
struct axml_reader_head {
    int mode;
    xmlDocPtr doc;
    int validate;
    int allocs;
    int state;
    xmlParserCtxtPtr ctxt;
};

static inline void stamp(AXMLReader *r, xmlNodePtr node, intptr_t line) {
    node->psvi = (void *)((line << AXML_FLAG_BITS) | (r->error_pending ? AXML_AFTER_ERROR : 0));
    if (r->root == NULL && node->type == XML_ELEMENT_NODE) r->root = node;
}

/* ---- fast: SAX wrappers ---- */

/* The callbacks we wrap are libxml2's own (the reader's startElementNs, SAX2's reference),
 * the same for every reader of the process; kept here too for a call that would come
 * without a current reader (none does: parsing only runs inside axml_read). */
static startElementNsSAX2Func wrapped_start_element_ns;
static referenceSAXFunc wrapped_reference;

static void sax_start_element_ns(void *ctx, const xmlChar *localname, const xmlChar *prefix,
                                 const xmlChar *URI, int nb_namespaces, const xmlChar **namespaces,
                                 int nb_attributes, int nb_defaulted, const xmlChar **attributes) {
    xmlParserCtxtPtr ctxt = ctx;
    AXMLReader *r = axml_current;
    xmlNodePtr before = ctxt->node;
    if (r == NULL || r->parser != ctxt) {
        startElementNsSAX2Func original = __atomic_load_n(&wrapped_start_element_ns, __ATOMIC_RELAXED);
        if (original != NULL) {
            original(ctx, localname, prefix, URI, nb_namespaces, namespaces, nb_attributes, nb_defaulted,
                     attributes);
        }
        return;
    }
    r->sax_start_element_ns(ctx, localname, prefix, URI, nb_namespaces, namespaces, nb_attributes,
                            nb_defaulted, attributes);
    xmlNodePtr node = ctxt->node;
    if (node != NULL && node != before && node->type == XML_ELEMENT_NODE) {
        stamp(r, node, ctxt->input != NULL ? ctxt->input->line : 0);
    }
}

static void sax_reference(void *ctx, const xmlChar *name) {
    xmlParserCtxtPtr ctxt = ctx;
    AXMLReader *r = axml_current;
    if (r == NULL || r->parser != ctxt) {
        referenceSAXFunc original = __atomic_load_n(&wrapped_reference, __ATOMIC_RELAXED);
        if (original != NULL) original(ctx, name);
        return;
    }
    xmlNodePtr parent = ctxt->node;
    xmlNodePtr before = parent != NULL ? parent->last : NULL;
    r->sax_reference(ctx, name);
    xmlNodePtr node = parent != NULL ? parent->last : NULL;
    if (node != NULL && node != before && node->type == XML_ENTITY_REF_NODE) {
        stamp(r, node, ctxt->input != NULL ? ctxt->input->line : 0);
    }
}

/* This reader's parser context, or NULL when it cannot be found safely. */
static xmlParserCtxtPtr find_parser_context(AXMLReader *r) {
    int version = axml_runtime_version();
    if (version < 20700 || version >= 21200) return NULL;
    xmlParserCtxtPtr ctxt = ((struct axml_reader_head *)(void *)r->reader)->ctxt;
    if (ctxt == NULL || ((uintptr_t)ctxt % sizeof(void *)) != 0) return NULL;
    if (ctxt->_private != (void *)r->reader) return NULL;
    if (ctxt->sax == NULL || ctxt->sax->initialized != XML_SAX2_MAGIC || ctxt->sax->startElementNs == NULL) {
        return NULL;
    }
    const xmlChar *probe = xmlTextReaderConstString(r->reader, BAD_CAST "axml-probe");
    if (probe == NULL || ctxt->dict == NULL || xmlDictOwns(ctxt->dict, probe) != 1) return NULL;
    return ctxt;
}

/* ---- portable: the node-creation hook ---- */

/* Whatever node hook this thread had before our batch (called after ours). */
static _Thread_local xmlRegisterNodeFunc axml_previous_hook;
static pthread_once_t axml_callbacks_once = PTHREAD_ONCE_INIT;

static void enable_node_callbacks(void) {
    /* Turns on libxml2's node-creation callbacks (a process-wide flag that only
     * xmlRegisterNodeDefault sets) without changing any hook: the swap puts the main thread's
     * hook back at once. */
    xmlRegisterNodeDefault(xmlRegisterNodeDefault(NULL));
}

static void node_hook(xmlNodePtr node) {
    AXMLReader *r = axml_current;
    if (r != NULL && r->reader != NULL && r->parser == NULL &&
        (node->type == XML_ELEMENT_NODE || node->type == XML_ENTITY_REF_NODE)) {
        stamp(r, node, xmlTextReaderGetParserLineNumber(r->reader));
    }
    if (axml_previous_hook != NULL) axml_previous_hook(node);
}

/* ---- interface ---- */

void axml_track_lines(AXMLReader *r, int portable) {
    xmlParserCtxtPtr ctxt = portable ? NULL : find_parser_context(r);
    if (ctxt != NULL) {
        r->parser = ctxt;
        r->sax_start_element_ns = ctxt->sax->startElementNs;
        r->sax_reference = ctxt->sax->reference;
        __atomic_store_n(&wrapped_start_element_ns, ctxt->sax->startElementNs, __ATOMIC_RELAXED);
        __atomic_store_n(&wrapped_reference, ctxt->sax->reference, __ATOMIC_RELAXED);
        ctxt->sax->startElementNs = sax_start_element_ns;
        if (ctxt->sax->reference != NULL) ctxt->sax->reference = sax_reference;
    } else {
        r->parser = NULL;
        pthread_once(&axml_callbacks_once, enable_node_callbacks);
    }
}

int axml_uses_node_hook(const AXMLReader *r) { return r->parser == NULL; }

void axml_lines_begin(AXMLReader *r, AXMLLineState *state) {
    if (r->parser != NULL) return;
    /* libxml2 keeps the hook per thread (xmlRegisterNodeDefault would set the main thread's
     * one, whatever thread calls it) */
    xmlRegisterNodeFunc *slot = __xmlRegisterNodeDefaultValue();
    state->hook = *slot;
    state->previous = axml_previous_hook;
    axml_previous_hook = *slot == node_hook ? NULL : *slot;
    *slot = node_hook;
}

void axml_lines_end(AXMLReader *r, const AXMLLineState *state) {
    if (r->parser != NULL) return;
    *__xmlRegisterNodeDefaultValue() = state->hook;
    axml_previous_hook = state->previous;
}

int64_t axml_node_line(xmlNodePtr node) {
    intptr_t stored = (intptr_t)node->psvi >> AXML_FLAG_BITS;
    if (stored > 0) return (int64_t)stored;
    long line = xmlGetLineNo(node);
    return line > 0 ? (int64_t)line : 0;
}
