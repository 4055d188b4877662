/* The per-event work of the XML reader (called from the SAX2 callbacks of AXMLReader.c):
 * matching records and field paths, collecting texts, lists and maps into the batch. */
#include "axml_internal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------------------------- */
/* The per-node work */

static inline int step_matches(const Step *s, const xmlChar *name, const xmlChar *uri) {
    if (name != s->local) return 0;
    if (s->ns == NULL) return 1;
    return uri != NULL && xmlStrEqual(uri, s->ns);
}

static inline uint32_t index_slot(const NameIndex *index, const xmlChar *name) {
    uint64_t h = (uint64_t)(uintptr_t)name * 0x9E3779B97F4A7C15ull;
    return (uint32_t)(h >> 40) & index->mask;
}

static int index_build(NameIndex *index, int count, const xmlChar *const *keys, const int *fields) {
    index->mask = 0;
    index->keys = NULL;
    index->fields = NULL;
    if (count == 0) return 0;
    uint32_t slots = 4;
    while (slots < (uint32_t)count * 2) slots *= 2;
    index->keys = calloc(slots, sizeof *index->keys);
    index->fields = calloc(slots, sizeof *index->fields);
    if (index->keys == NULL || index->fields == NULL) return -1;
    index->mask = slots - 1;
    for (int i = 0; i < count; i++) { /* in field order along each probe run */
        uint32_t h = index_slot(index, keys[i]);
        while (index->keys[h] != NULL) h = (h + 1) & index->mask;
        index->keys[h] = keys[i];
        index->fields[h] = fields[i];
    }
    return 0;
}

static void index_free(NameIndex *index) {
    free(index->keys);
    free(index->fields);
    index->keys = NULL;
    index->fields = NULL;
}

int axml_build_indexes(AXMLReader *r) {
    int nf = r->nfields;
    const xmlChar **keys = calloc((size_t)(nf > 0 ? nf : 1), sizeof *keys);
    int *fields = calloc((size_t)(nf > 0 ? nf : 1), sizeof *fields);
    r->level_index = calloc((size_t)r->max_steps + 1, sizeof *r->level_index);
    r->level_flags = calloc((size_t)r->max_steps + 1, 1);
    r->zero_fields = calloc((size_t)(nf > 0 ? nf : 1), sizeof *r->zero_fields);
    int failed = keys == NULL || fields == NULL || r->level_index == NULL || r->level_flags == NULL ||
                 r->zero_fields == NULL;
    for (int rd = 1; !failed && rd <= r->max_steps; rd++) {
        int n = 0;
        for (int f = 0; f < nf; f++) {
            if (r->fields[f].nsteps > rd) r->level_flags[rd] = 1;
            if (r->fields[f].nsteps < rd) continue;
            keys[n] = r->fields[f].steps[rd - 1].local;
            fields[n++] = f;
        }
        failed = index_build(&r->level_index[rd], n, keys, fields);
    }
    if (!failed) {
        int n = 0;
        for (int f = 0; f < nf; f++) {
            if (r->fields[f].nsteps == 0) r->zero_fields[r->nzero++] = f;
            if (!r->fields[f].has_fallback) continue;
            keys[n] = r->fields[f].fallback.local;
            fields[n++] = f;
        }
        failed = index_build(&r->fallback_index, n, keys, fields);
    }
    free(keys);
    free(fields);
    return failed ? -1 : 0;
}

void axml_free_indexes(AXMLReader *r) {
    if (r->level_index != NULL) {
        for (int rd = 0; rd <= r->max_steps; rd++) index_free(&r->level_index[rd]);
    }
    free(r->level_index);
    free(r->level_flags);
    free(r->zero_fields);
    index_free(&r->fallback_index);
    r->level_index = NULL;
    r->level_flags = NULL;
    r->zero_fields = NULL;
}

static inline int arena_reserve(AXMLReader *r, int64_t extra) {
    if (r->arena_len + extra > r->arena_cap && axml_grow((void **)&r->arena, 1, &r->arena_cap, r->arena_len + extra)) {
        axml_set_error(r, AXML_ERROR_MEMORY, 0, 0, "out of memory while reading the XML document");
        return -1;
    }
    return 0;
}

/* Appends text to a capture, moving the capture's bytes to the end of the arena first when
 * another value was written after them (nested captures, attributes). */
static int capture_append(AXMLReader *r, Capture *c, const uint8_t *text, int64_t n) {
    if (c->len + n > XML_MAX_TEXT_LENGTH) {
        /* libxml2's own limit on a text node without XML_PARSE_HUGE, kept for our values */
        axml_set_error(r, AXML_ERROR_PARSE, axml_current_line(r), 0,
                       "a value is longer than %d bytes (libxml2's limit)", XML_MAX_TEXT_LENGTH);
        return -1;
    }
    if (c->off + c->len != r->arena_len) {
        if (arena_reserve(r, c->len + n)) return -1;
        memcpy(r->arena + r->arena_len, r->arena + c->off, (size_t)c->len);
        c->off = r->arena_len;
        r->arena_len += c->len;
    } else if (arena_reserve(r, n)) {
        return -1;
    }
    memcpy(r->arena + r->arena_len, text, (size_t)n);
    r->arena_len += n;
    c->len += n;
    return 0;
}

static inline AXMLCell *cell_at(AXMLReader *r, int field) {
    return &r->cells[(size_t)r->batch.count * (size_t)r->nfields + (size_t)field];
}

/* Writes an attribute's value at the end of the arena. libxml2 hands it over normalized, with
 * character references replaced, except that, entities being kept (no XML_PARSE_NOENT), an
 * `&` is written `&#38;` and a reference to a DTD entity stays `&name;`. Returns 1 when
 * found, 0 when the element has no such attribute, -1 on error. */
static int attribute_value(AXMLReader *r, const AXMLElement *el, const Step *s, int64_t *off, int32_t *len) {
    for (int i = 0; i < el->nattrs; i++) {
        const xmlChar **a = el->attrs + 5 * i;
        if (!step_matches(s, a[0], a[2])) continue;
        const xmlChar *v = a[3], *end = a[4];
        int64_t n = (int64_t)(end - v);
        if (n > INT32_MAX) {
            axml_set_error(r, AXML_ERROR_PARSE, el->line, 0, "a value is longer than 2 GiB");
            return -1;
        }
        if (arena_reserve(r, n)) return -1;
        uint8_t *out = r->arena + r->arena_len;
        int64_t k = 0;
        const xmlChar *amp = n > 0 ? memchr(v, '&', (size_t)n) : NULL;
        if (amp == NULL) {
            if (n > 0) memcpy(out, v, (size_t)n);
            k = n;
        } else {
            while (v < end) {
                if (*v != '&') {
                    out[k++] = *v++;
                } else if (end - v >= 5 && memcmp(v, "&#38;", 5) == 0) {
                    out[k++] = '&';
                    v += 5;
                } else {
                    const xmlChar *semi = memchr(v, ';', (size_t)(end - v));
                    int name_len = (int)((semi != NULL ? semi : end) - v - 1);
                    axml_set_error(r, AXML_ERROR_ENTITY, el->line, 0,
                                   "the attribute '%s' refers to the entity '&%.*s;' declared in a DTD",
                                   (const char *)a[0], name_len, (const char *)v + 1);
                    return -1;
                }
            }
        }
        *off = r->arena_len;
        *len = (int32_t)k;
        r->arena_len += k;
        return 1;
    }
    return 0;
}

static int push_capture(AXMLReader *r, int role, int field, int depth, int32_t item) {
    if (r->ncaptures == r->capcaptures &&
        axml_grow_int((void **)&r->captures, sizeof(Capture), &r->capcaptures, r->ncaptures + 1)) {
        axml_set_error(r, AXML_ERROR_MEMORY, 0, 0, "out of memory while reading the XML document");
        return -1;
    }
    Capture *c = &r->captures[r->ncaptures++];
    c->role = role;
    c->field = field;
    c->depth = depth;
    c->item = item;
    c->off = r->arena_len;
    c->len = 0;
    return 0;
}

/* Appends an item to the composite of `field` in the current record. */
static int32_t new_item(AXMLReader *r, int field, uint8_t tag, int64_t key_off, int32_t key_len) {
    int64_t cap = r->capitems;
    if (axml_grow((void **)&r->items, sizeof(AXMLItem), &cap, (int64_t)r->nitems + 1) || r->nitems == INT32_MAX) {
        axml_set_error(r, AXML_ERROR_MEMORY, 0, 0, "out of memory while reading the XML document");
        return -1;
    }
    r->capitems = (int32_t)(cap > INT32_MAX ? INT32_MAX : cap);
    int32_t index = r->nitems++;
    AXMLItem *item = &r->items[index];
    item->key_offset = key_off;
    item->key_length = key_len;
    item->offset = r->arena_len;
    item->length = 0;
    item->next = -1;
    item->is_nil = 0;
    AXMLCell *cell = cell_at(r, field);
    if (cell->tag == AXML_CELL_MISSING) {
        cell->tag = tag;
        cell->offset = index;
        cell->length = 0;
    } else if (cell->length > 0) {
        r->items[r->last_item[field]].next = index;
    } else {
        cell->offset = index;
    }
    cell->length += 1;
    r->last_item[field] = index;
    return index;
}

/* Whether an element carries xsi:nil="true" (or "1", XML Schema's other true), the explicit
 * null of XML Schema instances: the attribute `nil` in the namespace
 * http://www.w3.org/2001/XMLSchema-instance, whatever its prefix. */
static int is_xsi_nil(const AXMLElement *el) {
    static const char xsi[] = "http://www.w3.org/2001/XMLSchema-instance";
    for (int i = 0; i < el->nattrs; i++) {
        const xmlChar **a = el->attrs + 5 * i;
        if (a[2] == NULL || strcmp((const char *)a[0], "nil") != 0 || strcmp((const char *)a[2], xsi) != 0) continue;
        const xmlChar *v = a[3], *end = a[4];
        while (v < end && (*v == ' ' || *v == '\t' || *v == '\n' || *v == '\r')) v++;
        while (end > v && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\n' || end[-1] == '\r')) end--;
        size_t n = (size_t)(end - v);
        return (n == 4 && memcmp(v, "true", 4) == 0) || (n == 1 && v[0] == '1');
    }
    return 0;
}

/* An element (or the record element itself) completes the path of `field`. */
static int field_hit(AXMLReader *r, int field, const AXMLElement *el, int depth) {
    Field *f = &r->fields[field];
    AXMLCell *cell = cell_at(r, field);
    if (f->has_attr) {
        int64_t off;
        int32_t len;
        if (f->kind == AXML_KIND_TEXT && cell->tag != AXML_CELL_MISSING) {
            /* a later element of the path also has the attribute: count it, keep the first */
            int found = 0;
            for (int i = 0; i < el->nattrs && !found; i++) {
                found = step_matches(&f->attr, el->attrs[5 * i], el->attrs[5 * i + 2]);
            }
            if (found && cell->repeats < 255) cell->repeats += 1;
            return 0;
        }
        int found = attribute_value(r, el, &f->attr, &off, &len);
        if (found <= 0) return found;
        if (f->kind == AXML_KIND_LIST) {
            int32_t item = new_item(r, field, AXML_CELL_LIST, -1, 0);
            if (item < 0) return -1;
            r->items[item].offset = off;
            r->items[item].length = len;
        } else {
            cell->tag = AXML_CELL_TEXT;
            cell->offset = off;
            cell->length = len;
        }
        return 0;
    }
    switch (f->kind) {
    case AXML_KIND_TEXT:
        if (cell->tag != AXML_CELL_MISSING && !r->from_fallback[field]) {
            if (cell->repeats < 255) cell->repeats += 1;
            return 0;
        }
        r->from_fallback[field] = 0;
        if (el->nattrs > 0 && is_xsi_nil(el)) {
            cell->tag = AXML_CELL_NULL; /* an explicit null: its content (if any) is not read */
            cell->offset = 0;
            cell->length = 0;
            return 0;
        }
        cell->tag = AXML_CELL_TEXT; /* empty until the element ends */
        cell->offset = r->arena_len;
        cell->length = 0;
        return push_capture(r, CAP_CELL, field, depth, -1);
    case AXML_KIND_LIST: {
        int32_t item = new_item(r, field, AXML_CELL_LIST, -1, 0);
        if (item < 0) return -1;
        if (el->nattrs > 0 && is_xsi_nil(el)) r->items[item].is_nil = 1;
        return push_capture(r, CAP_ITEM, field, depth, item);
    }
    case AXML_KIND_MAP:
        if (cell->tag != AXML_CELL_MISSING) {
            if (cell->repeats < 255) cell->repeats += 1;
            return 0;
        }
        if (el->nattrs > 0 && is_xsi_nil(el)) {
            cell->tag = AXML_CELL_NULL;
            cell->offset = 0;
            cell->length = 0;
            return 0;
        }
        cell->tag = AXML_CELL_MAP;
        cell->offset = 0;
        cell->length = 0;
        return push_capture(r, CAP_MAP, field, depth, -1);
    default:
        return 0;
    }
}

static void close_capture(AXMLReader *r, Capture *c) {
    switch (c->role) {
    case CAP_CELL: {
        AXMLCell *cell = cell_at(r, c->field);
        cell->offset = c->off;
        cell->length = (int32_t)c->len;
        break;
    }
    case CAP_ITEM:
        r->items[c->item].offset = c->off;
        r->items[c->item].length = (int32_t)c->len;
        break;
    default:
        break;
    }
}

static void close_captures_at(AXMLReader *r, int depth) {
    while (r->ncaptures > 0 && r->captures[r->ncaptures - 1].depth >= depth) {
        close_capture(r, &r->captures[r->ncaptures - 1]);
        r->ncaptures -= 1;
    }
}

static int begin_record(AXMLReader *r, const AXMLElement *el, int depth) {
    int32_t row = r->batch.count;
    size_t nf = (size_t)r->nfields;
    if (axml_ensure_rows(r, (size_t)row + 1)) {
        axml_set_error(r, AXML_ERROR_MEMORY, 0, 0, "out of memory while reading the XML document");
        return -1;
    }
    memset(&r->cells[(size_t)row * nf], 0, nf * sizeof(AXMLCell));
    memset(r->from_fallback, 0, nf);
    memset(r->field_match, 1, nf);
    r->lines[row] = el->line;
    r->row_arena[row] = r->arena_len;
    r->row_items[row] = r->nitems;
    axml_shape_record(r, el);
    r->in_record = 1;
    r->record_depth = depth;
    r->ncaptures = 0;
    /* default mappings: the record's attributes, until a child element of the name wins */
    if (r->fallback_index.keys != NULL) {
        for (int i = 0; i < el->nattrs; i++) {
            const xmlChar *name = el->attrs[5 * i];
            const NameIndex *index = &r->fallback_index;
            for (uint32_t h = index_slot(index, name); index->keys[h] != NULL; h = (h + 1) & index->mask) {
                if (index->keys[h] != name) continue;
                int f = index->fields[h];
                AXMLCell *cell = cell_at(r, f);
                if (cell->tag != AXML_CELL_MISSING) continue;
                int64_t off;
                int32_t len;
                if (attribute_value(r, el, &r->fields[f].fallback, &off, &len) < 0) return -1;
                cell->tag = AXML_CELL_TEXT;
                cell->offset = off;
                cell->length = len;
                r->from_fallback[f] = 1;
            }
        }
    }
    for (int i = 0; i < r->nzero; i++) {
        if (field_hit(r, r->zero_fields[i], el, depth)) return -1;
    }
    return 0;
}

static void end_record(AXMLReader *r) {
    close_captures_at(r, r->record_depth);
    r->in_record = 0;
    r->batch.count += 1;
}

/* Returns 1 when the element starts a record, 0 when not, -1 on error. */
static int element_start(AXMLReader *r, const AXMLElement *el, int depth) {
    if (!r->in_record) {
        int starts = 0;
        if (r->record_anywhere) {
            starts = step_matches(&r->record_steps[0], el->name, el->uri) ? 1 : 0;
        } else if (depth < r->nrecord_steps) {
            int ok = step_matches(&r->record_steps[depth], el->name, el->uri) &&
                     (depth == 0 || r->record_prefix[depth - 1]);
            r->record_prefix[depth] = (uint8_t)ok;
            starts = ok && depth == r->nrecord_steps - 1;
        }
        axml_shape_element(r, depth);
        return starts;
    }
    int rd = depth - r->record_depth;
    if (rd < 1) return 0;
    if (rd == 1) axml_shape_record_child(r, el->name);
    /* a child of a map being collected starts an entry keyed by its local name */
    for (int i = 0; i < r->ncaptures; i++) {
        Capture *c = &r->captures[i];
        if (c->role != CAP_MAP || c->depth != depth - 1) continue;
        int64_t key_len = (int64_t)strlen((const char *)el->name);
        if (arena_reserve(r, key_len)) return -1;
        int64_t key_off = r->arena_len;
        memcpy(r->arena + key_off, el->name, (size_t)key_len);
        r->arena_len += key_len;
        int field = c->field;
        int32_t item = new_item(r, field, AXML_CELL_MAP, key_off, (int32_t)key_len);
        if (item < 0) return -1;
        if (el->nattrs > 0 && is_xsi_nil(el)) r->items[item].is_nil = 1;
        if (push_capture(r, CAP_ITEM, field, depth, item)) return -1;
        c = &r->captures[i]; /* push_capture may have moved the array */
    }
    if (rd > r->max_steps) return 0;
    const size_t nf = (size_t)r->nfields;
    const uint8_t *parent = r->field_match + (size_t)(rd - 1) * nf;
    uint8_t *here = r->field_match + (size_t)rd * nf;
    const int keep = r->level_flags[rd];
    if (keep) memset(here, 0, nf);
    const NameIndex *index = &r->level_index[rd];
    if (index->keys == NULL) return 0;
    for (uint32_t h = index_slot(index, el->name); index->keys[h] != NULL; h = (h + 1) & index->mask) {
        if (index->keys[h] != el->name) continue;
        int f = index->fields[h];
        const Field *field = &r->fields[f];
        if (!parent[f] || !step_matches(&field->steps[rd - 1], el->name, el->uri)) continue;
        if (keep) here[f] = 1;
        if (field->nsteps == rd && field_hit(r, f, el, depth)) return -1;
    }
    return 0;
}

int axml_element_start(AXMLReader *r, const AXMLElement *el, int depth) {
    int starts = element_start(r, el, depth);
    if (starts < 0) return 1;
    if (starts > 0 && begin_record(r, el, depth)) return 1;
    return 0;
}

void axml_element_end(AXMLReader *r, int depth) {
    if (!r->in_record) return;
    if (depth != r->record_depth) {
        close_captures_at(r, depth);
    } else {
        end_record(r);
    }
}

int axml_text(AXMLReader *r, const xmlChar *text, int len) {
    if (len <= 0) return 0;
    for (int i = 0; i < r->ncaptures; i++) {
        Capture *c = &r->captures[i];
        if (c->role == CAP_MAP) continue;
        if (capture_append(r, c, text, len)) return 1;
    }
    return 0;
}
