/* The XML reader's handle: opening the file, configuration, and the batch loop that feeds
 * libxml2's push parser a piece at a time. The parser builds no tree: its SAX2 callbacks
 * (below) hand each element, text and reference to the per-event work of AXMLRecords.c.
 * That is about half the instructions of libxml2's own xmlTextReader on the same file. */
#include "axml_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/SAX2.h>

const AXMLError *axml_error(const AXMLReader *r) { return &r->error; }
int64_t axml_bytes_read(const AXMLReader *r) { return r->bytes_read; }
int64_t axml_refused_loads(const AXMLReader *r) { return r->refused; }

/* ---------------------------------------------------------------------------------------- */
/* Input: our own descriptor, so libxml2 never opens a path itself (no transparent gzip). */

static int io_read(AXMLReader *r, uint8_t *buffer, int len) {
    if (r->stream_read != NULL) {
        int got = r->stream_read(r->stream_context, (char *)buffer, len);
        if (got < 0) {
            r->io_errno = EIO;
            return -1;
        }
        r->bytes_read += got;
        return got;
    }
    if (r->fd < 0) return 0;
    ssize_t n;
    do {
        n = read(r->fd, buffer, (size_t)len);
    } while (n < 0 && errno == EINTR);
    if (n < 0) {
        r->io_errno = errno;
        return -1;
    }
    r->bytes_read += n;
    return (int)n;
}

/* ---------------------------------------------------------------------------------------- */
/* The SAX2 callbacks. Each one finds its reader as the thread's current one (the parser only
 * runs inside axml_read) and ignores events of any other context: libxml2 parses an entity's
 * replacement text in a context of its own, with the same callbacks, to check it. */

static inline AXMLReader *active(void *ctx) {
    AXMLReader *r = axml_current;
    return r != NULL && (void *)r->ctxt == ctx && !r->stopped ? r : NULL;
}

static void on_start(void *ctx, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri,
                     int nb_namespaces, const xmlChar **namespaces, int nb_attributes, int nb_defaulted,
                     const xmlChar **attributes) {
    (void)prefix;
    (void)nb_namespaces;
    (void)namespaces;
    AXMLReader *r = active(ctx);
    if (r == NULL) return;
    if (r->nopen == r->capopen && axml_grow_int((void **)&r->open, sizeof *r->open, &r->capopen, r->nopen + 1)) {
        axml_set_error(r, AXML_ERROR_MEMORY, 0, 0, "out of memory while reading the XML document");
        r->stopped = 1;
        return;
    }
    int depth = r->nopen;
    r->open[r->nopen++] = localname;
    /* Attributes defaulted from the DTD's ATTLIST are not the document's (libxml2's own tree
       leaves them out too, without XML_PARSE_DTDATTR); they come last. */
    AXMLElement el = {localname, uri, attributes, nb_attributes - nb_defaulted, axml_current_line(r)};
    if (axml_element_start(r, &el, depth)) r->stopped = 1;
}

static void on_end(void *ctx, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri) {
    (void)localname;
    (void)prefix;
    (void)uri;
    AXMLReader *r = active(ctx);
    if (r == NULL || r->nopen == 0) return;
    axml_element_end(r, --r->nopen);
}

static void on_text(void *ctx, const xmlChar *text, int len) {
    AXMLReader *r = active(ctx);
    if (r == NULL || r->ncaptures == 0) return;
    if (axml_text(r, text, len)) r->stopped = 1;
}

/* A reference to an entity that libxml2 cannot resolve but lets pass (the document has an
 * external subset, which is never loaded): refused too (predefined entities and character
 * references arrive as text). */
static void on_reference(void *ctx, const xmlChar *name) {
    AXMLReader *r = active(ctx);
    if (r == NULL) return;
    axml_set_error(r, AXML_ERROR_ENTITY, axml_current_line(r), 0,
                   "the document refers to the entity '&%s;' declared in a DTD", (const char *)name);
    r->stopped = 1;
}

/* An entity declared in the DTD is refused where the document first uses it, before libxml2
 * checks or expands its replacement text (once per use, in its SAX mode: a quadratic blowup),
 * and the parser is halted. */
static xmlEntityPtr on_get_entity(void *ctx, const xmlChar *name) {
    xmlParserCtxtPtr ctxt = ctx;
    xmlEntityPtr entity = xmlSAX2GetEntity(ctx, name);
    if (entity == NULL || ctxt->inSubset != 0 || entity->etype == XML_INTERNAL_PREDEFINED_ENTITY) return entity;
    AXMLReader *r = active(ctx);
    if (r != NULL) {
        const char *where = ctxt->instate == XML_PARSER_START_TAG ? "an attribute" : "the document";
        axml_set_error(r, AXML_ERROR_ENTITY, axml_current_line(r), 0,
                       "%s refers to the entity '&%s;' declared in a DTD", where, (const char *)name);
        r->stopped = 1;
        /* Halted here, libxml2 returns at once: without it, it would look the entity up again
           itself (xmlSAX2GetEntity, while the document is still well-formed) and go on with
           the rest of the piece, raising an error per later reference. */
        xmlStopParser(ctxt);
    }
    return NULL;
}

/* libxml2's SAX2 handlers for the document and its DTD (so that an entity declared there is
 * known, and reported as such when used), ours for the content. */
static void make_handler(xmlSAXHandler *sax) {
    memset(sax, 0, sizeof *sax);
    sax->initialized = XML_SAX2_MAGIC;
    sax->startDocument = xmlSAX2StartDocument;
    sax->internalSubset = xmlSAX2InternalSubset;
    sax->entityDecl = xmlSAX2EntityDecl;
    sax->getEntity = on_get_entity;
    sax->getParameterEntity = xmlSAX2GetParameterEntity;
    sax->resolveEntity = xmlSAX2ResolveEntity;
    sax->startElementNs = on_start;
    sax->endElementNs = on_end;
    sax->characters = on_text;
    sax->ignorableWhitespace = on_text;
    sax->cdataBlock = on_text;
    sax->reference = on_reference;
    sax->serror = axml_on_error;
}

/* ---------------------------------------------------------------------------------------- */
/* Opening */

/* The parser context, created with the first bytes of the input (encoding detection). */
static AXMLReader *start_parser(AXMLReader *r, const char *name, int *error_number) {
    r->piece = malloc(AXML_PIECE);
    if (r->piece == NULL) {
        *error_number = ENOMEM;
        return NULL;
    }
    int have = 0;
    while (have < 4) {
        int n = io_read(r, r->piece + have, 4 - have);
        if (n < 0) {
            *error_number = r->io_errno ? r->io_errno : EIO;
            return NULL;
        }
        if (n == 0) break;
        have += n;
    }
    xmlSAXHandler sax;
    make_handler(&sax);
    AXMLThreadState saved;
    axml_enter(r, &saved);
    r->ctxt = xmlCreatePushParserCtxt(&sax, NULL, (const char *)r->piece, have, name);
    axml_leave(&saved);
    if (r->ctxt == NULL) {
        *error_number = ENOMEM;
        return NULL;
    }
    xmlCtxtUseOptions(r->ctxt, AXML_PARSE_OPTIONS);
    r->ctxt->_private = r;
    return r;
}

static void close_input(AXMLReader *r) {
    if (r->fd >= 0) close(r->fd);
    r->fd = -1;
}

AXMLReader *axml_open(const char *path, int *error_number, int64_t *total_bytes) {
    axml_setup();
    *total_bytes = -1;
    int fd;
    do {
        /* O_NONBLOCK: a file swapped for a FIFO after the engine's regular-file check must
           not block the open; blocking reads are restored after fstat. */
        fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0) {
        *error_number = errno;
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        *error_number = errno;
        close(fd);
        return NULL;
    }
    if (S_ISDIR(st.st_mode)) {
        *error_number = EISDIR;
        close(fd);
        return NULL;
    }
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0) (void)fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    if (S_ISREG(st.st_mode)) *total_bytes = (int64_t)st.st_size;

    AXMLReader *r = calloc(1, sizeof *r);
    if (r == NULL) {
        *error_number = ENOMEM;
        close(fd);
        return NULL;
    }
    r->fd = fd;
    r->file_stat.device = (uint64_t)st.st_dev;
    r->file_stat.inode = (uint64_t)st.st_ino;
    r->file_stat.size = (int64_t)st.st_size;
    r->file_stat.modified_seconds = (int64_t)st.st_mtim.tv_sec;
    r->file_stat.modified_nanoseconds = (int64_t)st.st_mtim.tv_nsec;
    r->file_stat.regular = S_ISREG(st.st_mode) ? 1 : 0;
    r->collecting_paths = 1;
    if (start_parser(r, path, error_number) == NULL) {
        axml_free(r);
        return NULL;
    }
    return r;
}

AXMLReader *axml_open_stream(const char *name, axml_read_fn read, void *context, int *error_number) {
    axml_setup();
    AXMLReader *r = calloc(1, sizeof *r);
    if (r == NULL) {
        *error_number = ENOMEM;
        return NULL;
    }
    r->fd = -1;
    r->stream_read = read;
    r->stream_context = context;
    r->collecting_paths = 1;
    if (start_parser(r, name, error_number) == NULL) {
        axml_free(r);
        return NULL;
    }
    return r;
}

static void free_step(Step *s) {
    xmlFree(s->ns);
    s->ns = NULL;
}

void axml_free(AXMLReader *r) {
    if (r == NULL) return;
    if (r->ctxt != NULL) {
        if (r->ctxt->myDoc != NULL) xmlFreeDoc(r->ctxt->myDoc); /* the DTD's declarations */
        r->ctxt->myDoc = NULL;
        xmlFreeParserCtxt(r->ctxt);
    }
    close_input(r);
    for (int i = 0; i < r->nrecord_steps; i++) free_step(&r->record_steps[i]);
    for (int f = 0; f < r->nfields; f++) {
        Field *field = &r->fields[f];
        for (int i = 0; i < field->nsteps; i++) free_step(&field->steps[i]);
        free(field->steps);
        if (field->has_attr) free_step(&field->attr);
        if (field->has_fallback) free_step(&field->fallback);
    }
    axml_free_indexes(r);
    axml_shape_free(r);
    free(r->piece);
    free(r->record_steps);
    free(r->fields);
    free(r->record_prefix);
    free(r->field_match);
    free(r->from_fallback);
    free(r->last_item);
    free(r->captures);
    free(r->open);
    free(r->cells);
    free(r->lines);
    free(r->row_arena);
    free(r->row_items);
    free(r->arena);
    free(r->items);
    free(r);
}

/* ---------------------------------------------------------------------------------------- */
/* Configuration */

int axml_grow(void **buffer, size_t element, int64_t *capacity, int64_t needed) {
    if (needed <= *capacity) return 0;
    int64_t cap = *capacity > 0 ? *capacity : 16;
    while (cap < needed) cap *= 2;
    void *p = realloc(*buffer, (size_t)cap * element);
    if (p == NULL) return -1;
    *buffer = p;
    *capacity = cap;
    return 0;
}

int axml_grow_int(void **buffer, size_t element, int *capacity, int needed) {
    int64_t cap = *capacity;
    int rc = axml_grow(buffer, element, &cap, needed);
    if (rc == 0) *capacity = (int)cap;
    return rc;
}

static int make_step(AXMLReader *r, Step *s, const char *ns, const char *local) {
    s->local = xmlDictLookup(r->ctxt->dict, BAD_CAST local, -1);
    s->ns = NULL;
    if (s->local == NULL) return -1;
    if (ns != NULL) {
        s->ns = xmlStrdup(BAD_CAST ns);
        if (s->ns == NULL) return -1;
    }
    return 0;
}

int axml_set_record_anywhere(AXMLReader *r, const char *ns, const char *local) {
    r->record_anywhere = 1;
    return axml_add_record_step(r, ns, local);
}

int axml_add_record_step(AXMLReader *r, const char *ns, const char *local) {
    if (axml_grow_int((void **)&r->record_steps, sizeof(Step), &r->caprecord_steps, r->nrecord_steps + 1)) return -1;
    if (make_step(r, &r->record_steps[r->nrecord_steps], ns, local)) return -1;
    r->nrecord_steps += 1;
    if (axml_grow_int((void **)&r->record_prefix, 1, &r->caprecord_prefix, r->nrecord_steps)) return -1;
    return 0;
}

int axml_add_field(AXMLReader *r, int kind) {
    if (axml_grow_int((void **)&r->fields, sizeof(Field), &r->capfields, r->nfields + 1)) return -1;
    Field *f = &r->fields[r->nfields];
    memset(f, 0, sizeof *f);
    f->kind = kind;
    return r->nfields++;
}

int axml_add_field_step(AXMLReader *r, int field, const char *ns, const char *local) {
    if (field < 0 || field >= r->nfields) return -1;
    Field *f = &r->fields[field];
    if (axml_grow_int((void **)&f->steps, sizeof(Step), &f->capsteps, f->nsteps + 1)) return -1;
    if (make_step(r, &f->steps[f->nsteps], ns, local)) return -1;
    f->nsteps += 1;
    return 0;
}

int axml_set_field_attribute(AXMLReader *r, int field, const char *ns, const char *local) {
    if (field < 0 || field >= r->nfields) return -1;
    Field *f = &r->fields[field];
    if (f->has_attr) free_step(&f->attr);
    if (make_step(r, &f->attr, ns, local)) return -1;
    f->has_attr = 1;
    return 0;
}

int axml_set_field_default(AXMLReader *r, int field, const char *name) {
    if (axml_add_field_step(r, field, NULL, name)) return -1;
    Field *f = &r->fields[field];
    if (make_step(r, &f->fallback, NULL, name)) return -1;
    f->has_fallback = 1;
    return 0;
}

/* Allocates the per-record state once the configuration is complete. */
static int finish_configuration(AXMLReader *r) {
    r->configured = 1;
    int max_steps = 0;
    for (int f = 0; f < r->nfields; f++) {
        if (r->fields[f].nsteps > max_steps) max_steps = r->fields[f].nsteps;
    }
    r->max_steps = max_steps;
    size_t nf = r->nfields > 0 ? (size_t)r->nfields : 1;
    r->field_match = calloc((size_t)(max_steps + 1) * nf, 1);
    r->from_fallback = calloc(nf, 1);
    r->last_item = calloc(nf, sizeof(int32_t));
    if (r->field_match == NULL || r->from_fallback == NULL || r->last_item == NULL || axml_build_indexes(r)) {
        axml_set_error(r, AXML_ERROR_MEMORY, 0, 0, "out of memory while reading the XML document");
        return -1;
    }
    if (r->nrecord_steps == 0) {
        axml_set_error(r, AXML_ERROR_MEMORY, 0, 0, "no record element was configured");
        return -1;
    }
    return 0;
}

int axml_ensure_rows(AXMLReader *r, size_t rows) {
    if (rows <= r->caprows) return 0;
    size_t cap = r->caprows > 0 ? r->caprows : 64;
    while (cap < rows) cap *= 2;
    size_t nf = r->nfields > 0 ? (size_t)r->nfields : 1;
    AXMLCell *cells = realloc(r->cells, cap * nf * sizeof(AXMLCell));
    if (cells == NULL) return -1;
    r->cells = cells;
    int64_t *lines = realloc(r->lines, cap * sizeof(int64_t));
    if (lines == NULL) return -1;
    r->lines = lines;
    int64_t *row_arena = realloc(r->row_arena, cap * sizeof(int64_t));
    if (row_arena == NULL) return -1;
    r->row_arena = row_arena;
    int32_t *row_items = realloc(r->row_items, cap * sizeof(int32_t));
    if (row_items == NULL) return -1;
    r->row_items = row_items;
    r->caprows = cap;
    return 0;
}

/* Moves the records carried from the last batch (and the one in progress, if carried) to
 * the front: their rows, bytes and items, with every offset and index into them rebased. */
static void take_carried(AXMLReader *r) {
    size_t nf = r->nfields > 0 ? (size_t)r->nfields : 1;
    int32_t rows = r->carry_complete + (r->carry_open ? 1 : 0);
    if (rows == 0) {
        r->arena_len = 0;
        r->nitems = 0;
        return;
    }
    int32_t from = r->carry_from;
    int64_t shift = r->row_arena[from];
    int32_t ishift = r->row_items[from];
    memmove(r->arena, r->arena + shift, (size_t)(r->arena_len - shift));
    r->arena_len -= shift;
    memmove(r->items, r->items + ishift, (size_t)(r->nitems - ishift) * sizeof(AXMLItem));
    r->nitems -= ishift;
    for (int32_t i = 0; i < r->nitems; i++) {
        AXMLItem *item = &r->items[i];
        item->offset -= shift;
        if (item->key_offset >= 0) item->key_offset -= shift;
        if (item->next >= 0) item->next -= ishift;
    }
    memmove(r->cells, r->cells + (size_t)from * nf, (size_t)rows * nf * sizeof(AXMLCell));
    memmove(r->lines, r->lines + from, (size_t)rows * sizeof(int64_t));
    memmove(r->row_arena, r->row_arena + from, (size_t)rows * sizeof(int64_t));
    memmove(r->row_items, r->row_items + from, (size_t)rows * sizeof(int32_t));
    for (int32_t row = 0; row < rows; row++) {
        r->row_arena[row] -= shift;
        r->row_items[row] -= ishift;
        for (size_t f = 0; f < (size_t)r->nfields; f++) {
            AXMLCell *cell = &r->cells[(size_t)row * nf + f];
            if (cell->tag == AXML_CELL_TEXT) {
                cell->offset -= shift;
            } else if ((cell->tag == AXML_CELL_LIST || cell->tag == AXML_CELL_MAP) && cell->length > 0) {
                cell->offset -= ishift;
            }
        }
    }
    if (r->carry_open) {
        for (int i = 0; i < r->ncaptures; i++) {
            r->captures[i].off -= shift;
            if (r->captures[i].item >= 0) r->captures[i].item -= ishift;
        }
        for (int f = 0; f < r->nfields; f++) {
            if (r->last_item[f] >= ishift) r->last_item[f] -= ishift;
        }
    }
    r->batch.count = r->carry_complete;
    r->carry_complete = 0;
    r->carry_open = 0;
}

static void prepare_batch(AXMLReader *r, int32_t max_records) {
    int32_t cap = max_records < 1 ? 1 : (max_records > AXML_MAX_BATCH ? AXML_MAX_BATCH : max_records);
    size_t nf = r->nfields > 0 ? (size_t)r->nfields : 1;
    if ((size_t)cap * nf > AXML_MAX_CELLS) cap = (int32_t)(AXML_MAX_CELLS / nf > 0 ? AXML_MAX_CELLS / nf : 1);
    r->batch.count = 0;
    r->batch.capacity = cap;
    r->batch.field_count = r->nfields;
    take_carried(r);
}

static const AXMLBatch *seal(AXMLReader *r, int status) {
    r->batch.status = status;
    r->batch.cells = r->cells;
    r->batch.lines = r->lines;
    r->batch.bytes = r->arena;
    r->batch.byte_count = r->arena_len;
    r->batch.items = r->items;
    r->batch.item_count = r->nitems;
    if (status != AXML_STATUS_MORE) r->finished = status;
    return &r->batch;
}

/* Hands the parser the next piece of input (none: the end of the input). */
static void feed(AXMLReader *r) {
    int n = io_read(r, r->piece, AXML_PIECE);
    if (n < 0) {
        axml_set_error(r, AXML_ERROR_IO, axml_current_line(r), 0, "cannot read the file: %s", strerror(r->io_errno));
        r->error.errno_value = r->io_errno;
        r->stopped = 1;
    } else {
        int rc = xmlParseChunk(r->ctxt, (const char *)r->piece, n, n == 0);
        if ((rc != 0 || r->contextless[0]) && r->error.kind == AXML_ERROR_NONE) {
            axml_note_error(r, AXML_ERROR_PARSE, axml_current_line(r), axml_current_column(r), "%s",
                            r->contextless[0] ? r->contextless : "the XML parser stopped");
            if (r->contextless[0]) r->error.libxml_code = r->contextless_code;
            r->stopped = 1;
        }
        if (n > 0 && !r->stopped) return;
    }
    r->parse_over = 1;
    close_input(r);
}

/* How the document ended, once the parser is done. */
static int final_status(const AXMLReader *r) {
    return r->stopped || r->error.kind != AXML_ERROR_NONE ? AXML_STATUS_ERROR : AXML_STATUS_END;
}

const AXMLBatch *axml_read(AXMLReader *r, int32_t max_records) {
    if (r->finished) {
        r->batch.count = 0;
        r->arena_len = 0;
        r->nitems = 0;
        return seal(r, r->finished);
    }
    if (!r->configured && finish_configuration(r)) {
        r->batch.count = 0;
        axml_set_error(r, AXML_ERROR_MEMORY, 0, 0, "out of memory while reading the XML document");
        return seal(r, AXML_STATUS_ERROR);
    }
    prepare_batch(r, max_records);
    AXMLThreadState saved;
    axml_enter(r, &saved);
    while (!r->parse_over && r->batch.count < r->batch.capacity) feed(r);
    axml_leave(&saved);
    if (r->parse_over && final_status(r) == AXML_STATUS_ERROR) r->in_record = 0; /* incomplete: dropped */

    int32_t cap = r->batch.capacity;
    if (r->batch.count > cap || (r->batch.count == cap && r->in_record)) {
        r->carry_from = cap;
        r->carry_complete = r->batch.count - cap;
        r->carry_open = r->in_record;
        r->batch.count = cap;
        return seal(r, AXML_STATUS_MORE);
    }
    return seal(r, r->parse_over ? final_status(r) : AXML_STATUS_MORE);
}
