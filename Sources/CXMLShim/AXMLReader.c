/* The XML reader's handle: opening the file, configuration, and the batch loop over
 * libxml2's streaming xmlTextReader (one call per chunk). */
#include "axml_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const AXMLError *axml_error(const AXMLReader *r) { return &r->error; }
int64_t axml_bytes_read(const AXMLReader *r) { return r->bytes_read; }
int64_t axml_refused_loads(const AXMLReader *r) { return r->refused; }

void axml_use_portable_lines(AXMLReader *r) {
    if (r->parser != NULL) {
        r->parser->sax->startElementNs = r->sax_start_element_ns;
        r->parser->sax->reference = r->sax_reference;
    }
    axml_track_lines(r, 1);
}

/* ---------------------------------------------------------------------------------------- */
/* Input: our own descriptor, so libxml2 never opens a path itself (no transparent gzip). */

static int io_read(void *ctx, char *buffer, int len) {
    AXMLReader *r = ctx;
    if (r->stream_read != NULL) {
        int got = r->stream_read(r->stream_context, buffer, len);
        if (got < 0) {
            r->io_errno = EIO;
            return -1;
        }
        r->bytes_read += got;
        return got;
    }
    if (r->fd < 0) return -1;
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

static int io_close(void *ctx) {
    AXMLReader *r = ctx;
    if (r->fd >= 0) close(r->fd);
    r->fd = -1;
    return 0;
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
    /* xmlReaderForIO reads the first bytes (encoding detection) and, when it fails, closes
     * the input through io_close. */
    AXMLReader *saved = axml_current;
    axml_current = NULL;
    r->reader = xmlReaderForIO(io_read, io_close, r, path, NULL, AXML_PARSE_OPTIONS);
    axml_current = saved;
    if (r->reader == NULL) {
        *error_number = r->io_errno ? r->io_errno : ENOMEM;
        if (r->fd >= 0) close(r->fd);
        free(r);
        return NULL;
    }
    xmlTextReaderSetStructuredErrorHandler(r->reader, axml_on_libxml_error, r);
    axml_track_lines(r, 0);
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
    AXMLReader *saved = axml_current;
    axml_current = NULL;
    r->reader = xmlReaderForIO(io_read, io_close, r, name, NULL, AXML_PARSE_OPTIONS);
    axml_current = saved;
    if (r->reader == NULL) {
        *error_number = r->io_errno ? r->io_errno : ENOMEM;
        free(r);
        return NULL;
    }
    xmlTextReaderSetStructuredErrorHandler(r->reader, axml_on_libxml_error, r);
    axml_track_lines(r, 0);
    return r;
}

static void free_step(Step *s) {
    xmlFree(s->ns);
    s->ns = NULL;
}

void axml_free(AXMLReader *r) {
    if (r == NULL) return;
    if (r->reader != NULL) xmlFreeTextReader(r->reader); /* closes the descriptor */
    if (r->fd >= 0) close(r->fd);
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
    s->local = xmlTextReaderConstString(r->reader, BAD_CAST local);
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

static int prepare_batch(AXMLReader *r, int32_t max_records) {
    int32_t cap = max_records < 1 ? 1 : (max_records > AXML_MAX_BATCH ? AXML_MAX_BATCH : max_records);
    size_t nf = r->nfields > 0 ? (size_t)r->nfields : 1;
    if ((size_t)cap * nf > AXML_MAX_CELLS) cap = (int32_t)(AXML_MAX_CELLS / nf > 0 ? AXML_MAX_CELLS / nf : 1);
    size_t ncells = nf * (size_t)cap;
    if (ncells > r->capcells) {
        AXMLCell *p = realloc(r->cells, ncells * sizeof(AXMLCell));
        if (p == NULL) return -1;
        r->cells = p;
        r->capcells = ncells;
    }
    if ((size_t)cap > r->caplines) {
        int64_t *p = realloc(r->lines, (size_t)cap * sizeof(int64_t));
        if (p == NULL) return -1;
        r->lines = p;
        r->caplines = (size_t)cap;
    }
    r->batch.count = 0;
    r->batch.capacity = cap;
    r->batch.field_count = r->nfields;
    r->arena_len = 0;
    r->nitems = 0;
    return 0;
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

const AXMLBatch *axml_read(AXMLReader *r, int32_t max_records) {
    if (r->finished) {
        r->batch.count = 0;
        r->arena_len = 0;
        r->nitems = 0;
        return seal(r, r->finished);
    }
    if ((!r->configured && finish_configuration(r)) || prepare_batch(r, max_records)) {
        r->batch.count = 0;
        axml_set_error(r, AXML_ERROR_MEMORY, 0, 0, "out of memory while reading the XML document");
        return seal(r, AXML_STATUS_ERROR);
    }

    AXMLReader *saved = axml_current;
    axml_current = r;
    AXMLLineState lines;
    axml_lines_begin(r, &lines);

    int status = AXML_STATUS_MORE;
    xmlTextReaderPtr reader = r->reader;
    while (!r->walking) {
        int ret = xmlTextReaderRead(reader);
        if (ret <= 0) {
            if (r->io_errno != 0) {
                axml_set_error(r, AXML_ERROR_IO, xmlTextReaderGetParserLineNumber(reader), 0,
                               "cannot read the file: %s", strerror(r->io_errno));
                r->error.errno_value = r->io_errno;
                status = AXML_STATUS_ERROR;
            } else if (ret < 0 && r->error_pending) {
                axml_walk_begin(r); /* deliver what was parsed before the error */
            } else {
                if (ret < 0) {
                    axml_note_error(r, AXML_ERROR_PARSE, xmlTextReaderGetParserLineNumber(reader),
                                    xmlTextReaderGetParserColumnNumber(reader), "the XML parser stopped");
                }
                status = r->error.kind != AXML_ERROR_NONE ? AXML_STATUS_ERROR : AXML_STATUS_END;
            }
            break;
        }
        xmlNodePtr node = xmlTextReaderCurrentNode(reader);
        if (node == NULL) continue;
        int event = AXML_EV_OTHER;
        int depth = 0;
        if (node->type == XML_ELEMENT_NODE) {
            /* Start or end, and depth, from our own stack of open elements: two calls fewer
             * per element than xmlTextReaderNodeType and xmlTextReaderDepth. An element on
             * the stack is open, so alive: its pointer cannot be reused meanwhile. */
            if (r->nopen > 0 && r->open[r->nopen - 1] == node) {
                event = AXML_EV_END;
                depth = --r->nopen;
            } else {
                depth = r->nopen;
                if (xmlTextReaderIsEmptyElement(reader) == 1) {
                    event = AXML_EV_EMPTY;
                } else {
                    event = AXML_EV_START;
                    if (r->nopen == r->capopen &&
                        axml_grow_int((void **)&r->open, sizeof *r->open, &r->capopen, r->nopen + 1)) {
                        axml_set_error(r, AXML_ERROR_MEMORY, 0, 0, "out of memory while reading the XML document");
                        status = AXML_STATUS_ERROR;
                        break;
                    }
                    r->open[r->nopen++] = node;
                }
            }
#ifdef DEBUG
            if (depth != xmlTextReaderDepth(reader) ||
                (event == AXML_EV_END) != (xmlTextReaderNodeType(reader) == XML_READER_TYPE_END_ELEMENT)) {
                axml_set_error(r, AXML_ERROR_MEMORY, 0, 0, "internal error: element stack out of step");
                status = AXML_STATUS_ERROR;
                break;
            }
#endif
        }
        r->last_node = node;
        r->last_descends = event == AXML_EV_START;
        r->last_depth = depth;
        if ((node->type == XML_TEXT_NODE || node->type == XML_CDATA_SECTION_NODE) && r->ncaptures == 0) {
            continue; /* text outside any value: nothing to do */
        }
        if (axml_deliver(r, node, event, depth) != 0) {
            status = AXML_STATUS_ERROR;
            break;
        }
        if (!r->in_record && r->batch.count == r->batch.capacity) break;
    }
    if (r->walking && status == AXML_STATUS_MORE) {
        xmlNodePtr node;
        int event, depth;
        for (;;) {
            if (!axml_walk_step(r, &node, &event, &depth) || axml_deliver(r, node, event, depth) != 0) {
                status = AXML_STATUS_ERROR;
                break;
            }
            if (!r->in_record && r->batch.count == r->batch.capacity) break;
        }
    }
    if (status == AXML_STATUS_ERROR) r->in_record = 0; /* the record in progress is dropped */

    axml_lines_end(r, &lines);
    axml_current = saved;
    return seal(r, status);
}
