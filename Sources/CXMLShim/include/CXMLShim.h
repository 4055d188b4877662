#ifndef AUDITOR_CXMLSHIM_H
#define AUDITOR_CXMLSHIM_H
/* The only door to libxml2. Swift sees opaque handles and plain C types, never libxml2's
 * headers (they clash with Foundation's ICU module on a clean build, see STYLE.md).
 *
 * A streaming record extractor over libxml2's push parser with SAX2 callbacks (no tree is
 * built): the per-event work runs in C and hands Swift one batch of records per call (cells,
 * row by row, pointing into one byte arena), so a chunk costs one Swift-to-C crossing.
 *
 * Safety (CONVENTIONS.md rule 6): the reader parses with XML_PARSE_NONET | XML_PARSE_BIG_LINES
 * and nothing else (no NOENT, DTDLOAD, DTDATTR, DTDVALID, XINCLUDE, HUGE); the file is read
 * through our own descriptor (no transparent gzip); a refusing external-entity loader is
 * installed once per process; a reference to a DTD entity, a refused load, or any libxml2
 * error of level ERROR or FATAL stops the batch with an error. */

#include <stddef.h>
#include <stdint.h>

typedef struct AXMLReader AXMLReader;

/* Field kinds. */
enum {
    AXML_KIND_TEXT = 0, /* the string-value of the first match (or an attribute value) */
    AXML_KIND_LIST = 1, /* one text item per match */
    AXML_KIND_MAP = 2   /* child element local name -> text, of the first match */
};

/* Cell tags in a batch. */
enum {
    AXML_CELL_MISSING = 0,
    AXML_CELL_TEXT = 1, /* offset/length into the batch's bytes */
    AXML_CELL_LIST = 2, /* offset = index of the first item, length = item count */
    AXML_CELL_MAP = 3,  /* idem; items carry keys */
    AXML_CELL_NULL = 4  /* an element with xsi:nil="true" (an explicit null, not an absent element) */
};

/* One value. `repeats` counts further matches of a TEXT field that were ignored (saturates
 * at 255); Swift turns it into an `xml.field.repeated` record issue. */
typedef struct {
    int64_t offset;
    int32_t length;
    uint8_t tag;
    uint8_t repeats;
    uint8_t reserved[2];
} AXMLCell;

/* One list item or map entry; items of one composite are chained through `next` (-1 ends). */
typedef struct {
    int64_t key_offset; /* map entries: the key's bytes (a local name); lists: -1 */
    int64_t offset;     /* the item's text */
    int32_t key_length;
    int32_t length;
    int32_t next;
    int32_t is_nil;     /* 1: the item's element has xsi:nil="true" (an explicit null) */
} AXMLItem;

/* Batch status. */
enum {
    AXML_STATUS_MORE = 0,  /* the batch is full; call again */
    AXML_STATUS_END = 1,   /* the document ended well; the batch may still hold records */
    AXML_STATUS_ERROR = 2  /* see axml_error; the batch holds the records completed before it */
};

/* Error kinds (axml_error). */
enum {
    AXML_ERROR_NONE = 0,
    AXML_ERROR_PARSE = 1,        /* libxml2 reported an error (not well-formed, bad encoding...) */
    AXML_ERROR_ENTITY = 2,       /* an entity reference node (DTD entity) in the document */
    AXML_ERROR_REFUSED_LOAD = 3, /* libxml2 tried to load an external resource; refused */
    AXML_ERROR_IO = 4,           /* read(2) failed; `errno_value` says why */
    AXML_ERROR_MEMORY = 5        /* allocation failed */
};

typedef struct {
    int32_t count;            /* records in the batch */
    int32_t status;           /* AXML_STATUS_* */
    int32_t field_count;
    int32_t capacity;         /* the records asked for (count <= capacity) */
    const AXMLCell *cells;    /* cells[record * field_count + field] */
    const int64_t *lines;     /* per record: line of its start tag (1-based) */
    const uint8_t *bytes;
    int64_t byte_count;
    const AXMLItem *items;
    int32_t item_count;
} AXMLBatch;

typedef struct {
    int32_t kind;         /* AXML_ERROR_* */
    int32_t errno_value;  /* AXML_ERROR_IO */
    int64_t line;         /* 1-based; 0 when unknown */
    int32_t column;       /* 1-based; 0 when unknown */
    int32_t libxml_code;  /* xmlParserErrors code for AXML_ERROR_PARSE */
    char message[512];    /* UTF-8, no trailing newline */
} AXMLError;

/* Opens `path` for reading (a regular file or a FIFO, never a directory) and creates the
 * reader. Returns NULL and sets *error_number (an errno value) when the file cannot be opened.
 * `total_bytes` receives the size of a regular file, or -1. Not thread-safe per handle: one
 * handle is used from one thread at a time. */
AXMLReader *axml_open(const char *path, int *error_number, int64_t *total_bytes);
/* Reads up to `len` bytes into `buffer`: returns the count, 0 at the end, -1 on an error
 * (which the caller keeps: the reader then stops with an AXML_ERROR_IO error). */
typedef int (*axml_read_fn)(void *context, char *buffer, int len);
/* Creates the reader over a stream the caller reads (a decompressed file, standard input):
 * `read` is called with `context` until it returns 0 or -1; it is never closed by the reader.
 * `name` is the document's name for libxml2's messages. Returns NULL and sets *error_number
 * when the reader cannot be created (ENOMEM, or the stream's error: EIO). */
AXMLReader *axml_open_stream(const char *name, axml_read_fn read, void *context, int *error_number);
void axml_free(AXMLReader *reader);

/* Configuration, before the first axml_read. Names are copied (and interned). `ns` is a
 * namespace URI or NULL for "any namespace" (a name without a prefix). Return 0, or -1 when
 * out of memory. */
int axml_set_record_anywhere(AXMLReader *reader, const char *ns, const char *local);
int axml_add_record_step(AXMLReader *reader, const char *ns, const char *local);
/* Adds a field; returns its index (fields are numbered in call order) or -1. */
int axml_add_field(AXMLReader *reader, int kind);
/* Appends an element step (relative to the record element) to a field's path. */
int axml_add_field_step(AXMLReader *reader, int field, const char *ns, const char *local);
/* Ends a field's path with an attribute of the last element (or of the record itself). */
int axml_set_field_attribute(AXMLReader *reader, int field, const char *ns, const char *local);
/* The default mapping of a field named `name`: the record's child element `name`, else the
 * record's attribute `name` (the child wins when both are present). */
int axml_set_field_default(AXMLReader *reader, int field, const char *name);

/* Reads up to `max_records` records (at least 1). The batch is valid until the next call
 * or axml_free. Never NULL. */
const AXMLBatch *axml_read(AXMLReader *reader, int32_t max_records);

const AXMLError *axml_error(const AXMLReader *reader);
/* Bytes handed to the parser so far. */
int64_t axml_bytes_read(const AXMLReader *reader);
/* External loads this reader's parser attempted (all refused). */
int64_t axml_refused_loads(const AXMLReader *reader);

/* External loads refused in this process so far (every reader, and any other libxml2 user:
 * the loader is process-global). */
int64_t axml_refused_loads_total(void);
/* Installs the refusing loader (idempotent, thread-safe; axml_open calls it) and asks it to
 * load `url`, as libxml2 would. Returns 1 when it refused (always), for tests. */
int axml_probe_external_loader(const char *url);

/* The file as fstat(2) saw it when axml_open opened it (regular = 0 for a FIFO or device),
 * so that the caller can tell whether it changed while it was read. */
typedef struct {
    uint64_t device;
    uint64_t inode;
    int64_t size;
    int64_t modified_seconds;
    int64_t modified_nanoseconds;
    int32_t regular;
    int32_t reserved;
} AXMLFileStat;
const AXMLFileStat *axml_file_stat(const AXMLReader *reader);

/* What the document looked like, to explain a record path that matched nothing and to list
 * the "columns" of the records. Valid after any axml_read; complete once it returned END. */
typedef struct {
    int64_t records;           /* record elements begun so far */
    int32_t parent_matched;    /* absolute record path: an element matched every step but the last */
    int32_t parent_has_children; /* ...and such an element has a child element (not a record) */
    int32_t root_has_children; /* the root element has at least one child element */
    int32_t reserved;
    int32_t path_count;        /* element paths seen before the first record (axml_seen_path) */
    int32_t child_name_count;  /* distinct local names of the record elements' child elements */
    int32_t attribute_name_count; /* distinct local names of the record elements' attributes */
    int32_t names_truncated;   /* more distinct names than AXML_MAX_NAMES existed */
} AXMLShape;
enum { AXML_MAX_SEEN_PATHS = 64, AXML_MAX_NAMES = 1024 };
const AXMLShape *axml_shape(const AXMLReader *reader);
/* "/people/person": the i-th distinct element path (local names) in document order, among the
 * elements met before the first record; NULL when out of range. */
const char *axml_seen_path(const AXMLReader *reader, int32_t i);
/* The i-th distinct child element / attribute local name of the record elements, in the order
 * first met; NULL when out of range. */
const char *axml_child_name(const AXMLReader *reader, int32_t i);
const char *axml_attribute_name(const AXMLReader *reader, int32_t i);

/* The libxml2 version this binary runs against, e.g. 20914. */
int axml_runtime_version(void);

#endif
