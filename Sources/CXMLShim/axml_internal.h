/* Private to CXMLShim: the reader's state, shared by its .c files. Includes libxml2, so it
 * must never be reachable from the public header (see include/CXMLShim.h). */
#ifndef AUDITOR_AXML_INTERNAL_H
#define AUDITOR_AXML_INTERNAL_H

#include "CXMLShim.h"

#include <libxml/xmlversion.h>
#include <libxml/globals.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

#include <stdint.h>

/* XML_PARSE_NONET and XML_PARSE_BIG_LINES only (CONVENTIONS.md rule 6). Never HUGE (it lifts
 * libxml2's entity-amplification, depth and text-size limits), DTDLOAD / DTDATTR / DTDVALID
 * (fetch and apply DTDs), XINCLUDE, NOENT (substitutes entities, the XXE door). */
#define AXML_PARSE_OPTIONS (XML_PARSE_NONET | XML_PARSE_BIG_LINES)

/* A batch never holds more records than this, nor more cells than AXML_MAX_CELLS (64 MiB of
 * cells, for schemas with many fields), whatever the caller asks: a chunk may hold fewer
 * records than asked for (see RecordReader). */
#define AXML_MAX_BATCH 65536
#define AXML_MAX_CELLS (1 << 22)

/* Bytes handed to the parser per xmlParseChunk call. A batch ends after the piece in which
 * it filled up: the records completed beyond it are carried to the next batch. */
#define AXML_PIECE (64 * 1024)

typedef struct {
    const xmlChar *local; /* interned in the reader's dictionary: compared by pointer */
    xmlChar *ns;          /* namespace URI (owned), or NULL for any namespace */
} Step;

typedef struct {
    int kind;
    int nsteps, capsteps;
    Step *steps;         /* element steps below the record element */
    int has_attr;
    Step attr;           /* a final attribute step */
    int has_fallback;
    Step fallback;       /* default mapping: the record's attribute of the same name */
} Field;

/* Interned name -> fields, an open-addressing table probed by pointer: the per-element
 * matching costs a lookup, not a pass over every field. */
typedef struct {
    uint32_t mask;         /* slots - 1 (slots: a power of two) */
    const xmlChar **keys;  /* NULL: an empty slot */
    int *fields;
} NameIndex;

/* Distinct interned names in the order first met (at most AXML_MAX_NAMES), with a
 * pointer-probed hash set beside them. */
typedef struct {
    const xmlChar **order;
    int count, cap;
    uint32_t mask;          /* slots - 1; 0 before the first insertion */
    const xmlChar **slots;
    int truncated;
} NameSet;

enum { CAP_CELL = 0, CAP_ITEM = 1, CAP_MAP = 2 };

/* A value being collected: the text of an element (and its descendants) until it ends. */
typedef struct {
    int role;       /* CAP_CELL: text of cell `field`; CAP_ITEM: text of item `item`; CAP_MAP */
    int field;
    int depth;      /* absolute depth of the element; the capture ends with it */
    int32_t item;
    int64_t off;    /* the bytes so far: arena[off ..< off + len] */
    int64_t len;
} Capture;

struct AXMLReader {
    xmlParserCtxtPtr ctxt;    /* libxml2's push parser, driven with our SAX2 callbacks */
    uint8_t *piece;           /* AXML_PIECE bytes: the input buffer */
    int fd;
    axml_read_fn stream_read;  /* axml_open_stream: the caller's reader, else NULL */
    void *stream_context;
    int io_errno;
    int64_t bytes_read;
    int64_t refused;

    /* configuration */
    int record_anywhere;
    int nrecord_steps, caprecord_steps;
    Step *record_steps;
    int nfields, capfields;
    Field *fields;
    int max_steps;
    NameIndex *level_index;   /* [rd] for rd in 1...max_steps: fields by their step rd's name */
    uint8_t *level_flags;     /* [rd]: some field has a step below rd (keep field_match[rd]) */
    NameIndex fallback_index; /* default-mapped fields by their attribute name */
    int *zero_fields;         /* fields read from the record element itself (`@id`, `.`) */
    int nzero;

    /* parse state (persists across batches) */
    int configured;
    int in_record;
    int record_depth;
    uint8_t *record_prefix;   /* record_prefix[d]: the ancestors at depth 0...d match the path */
    int caprecord_prefix;
    uint8_t *field_match;     /* (max_steps + 1) x nfields: field path prefix matched at depth */
    uint8_t *from_fallback;   /* per field of the current record: value came from the fallback */
    int32_t *last_item;       /* per field of the current record: last item of its composite */
    Capture *captures;
    int ncaptures, capcaptures;
    const xmlChar **open;     /* local names of the elements started and not ended, outermost first */
    int nopen, capopen;
    int stopped;              /* an error: every later SAX event is ignored, nothing more is parsed */
    int parse_over;           /* the parser is done (end of input, or stopped) */
    int finished;             /* 0, or the final status once every record was handed out */
    int delivery_error;       /* our own per-event work failed (entity, memory...) */
    /* An error libxml2 raised outside the parser (encoding conversion): the parser still
     * parses what was converted before it, then stops; this is then its message. */
    char contextless[sizeof(((AXMLError *)0)->message)];
    int contextless_code;
    /* records carried to the next batch (completed after the batch filled up) */
    int32_t carry_from;       /* their first row */
    int32_t carry_complete;   /* complete records */
    int carry_open;           /* 1: the record in progress comes too */

    /* the document's shape (AXMLShape.c) */
    AXMLFileStat file_stat;
    AXMLShape shape;
    char **seen_paths;        /* shape.path_count strings */
    uint64_t *seen_hashes;
    int collecting_paths;     /* until the first record or AXML_MAX_SEEN_PATHS paths */
    NameSet child_names;
    NameSet attribute_names;

    /* the batch */
    AXMLBatch batch;
    AXMLCell *cells;
    int64_t *lines;
    int64_t *row_arena;       /* per row: arena length when its record began */
    int32_t *row_items;       /* per row: item count when its record began */
    size_t caprows;           /* rows allocated in cells (row-major), lines, row_arena, row_items */
    uint8_t *arena;
    int64_t arena_len, arena_cap;
    AXMLItem *items;
    int32_t nitems, capitems;

    AXMLError error;
};

/* AXMLSafety.c: process-wide setup, the per-thread current reader, errors. */
extern _Thread_local AXMLReader *axml_current;
void axml_setup(void);

/* What a parse replaces on its thread while it runs (axml_enter), put back by axml_leave: the
 * current reader and libxml2's thread-local error handlers. */
typedef struct {
    AXMLReader *reader;
    xmlStructuredErrorFunc structured;
    void *structured_context;
    xmlGenericErrorFunc generic;
    void *generic_context;
} AXMLThreadState;
void axml_enter(AXMLReader *r, AXMLThreadState *saved);
void axml_leave(const AXMLThreadState *saved);
void axml_on_error(void *ctx, xmlErrorPtr e); /* libxml2's structured handler, for the thread's current reader */
void axml_set_error(AXMLReader *r, int kind, int64_t line, int column, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
void axml_note_error(AXMLReader *r, int kind, int64_t line, int column, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
int64_t axml_current_line(const AXMLReader *r);
int axml_current_column(const AXMLReader *r);

/* An element as the SAX2 start callback sees it. */
typedef struct {
    const xmlChar *name;   /* local name, interned in the parser's dictionary */
    const xmlChar *uri;    /* namespace URI, or NULL */
    const xmlChar **attrs; /* nattrs x (local name, prefix, URI, value, value end) */
    int nattrs;
    int64_t line;          /* the parser's line at the end of the start tag */
} AXMLElement;

/* AXMLRecords.c: the per-event work. Each returns 0 to go on, 1 to stop with an error. */
int axml_build_indexes(AXMLReader *r);
void axml_free_indexes(AXMLReader *r);
int axml_element_start(AXMLReader *r, const AXMLElement *el, int depth);
void axml_element_end(AXMLReader *r, int depth);
int axml_text(AXMLReader *r, const xmlChar *text, int len);

/* AXMLShape.c: what the document looked like. */
void axml_shape_element(AXMLReader *r, int depth);
void axml_shape_record(AXMLReader *r, const AXMLElement *el);
void axml_shape_record_child(AXMLReader *r, const xmlChar *name);
void axml_shape_free(AXMLReader *r);

/* AXMLReader.c */
int axml_grow(void **buffer, size_t element, int64_t *capacity, int64_t needed);
int axml_grow_int(void **buffer, size_t element, int *capacity, int needed);
int axml_ensure_rows(AXMLReader *r, size_t rows);

#endif
