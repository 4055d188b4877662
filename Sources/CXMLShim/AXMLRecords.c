/* The per-node work of the XML reader: matching records and field paths, collecting texts,
 * lists and maps into the batch, and the tree walker that finishes a batch after an error. */
#include "axml_internal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------------------------- */
/* The per-node work */

static inline int step_matches(const Step *s, const xmlChar *name, const xmlNs *ns) {
    if (name != s->local) return 0;
    if (s->ns == NULL) return 1;
    return ns != NULL && ns->href != NULL && xmlStrEqual(ns->href, s->ns);
}

static int arena_reserve(AXMLReader *r, int64_t extra) {
    if (axml_grow((void **)&r->arena, 1, &r->arena_cap, r->arena_len + extra)) {
        axml_set_error(r, AXML_ERROR_MEMORY, 0, 0, "out of memory while reading the XML document");
        return -1;
    }
    return 0;
}

/* Appends text to a capture, moving the capture's bytes to the end of the arena first when
 * another value was written after them (nested captures, attributes). */
static int capture_append(AXMLReader *r, Capture *c, const uint8_t *text, int64_t n) {
    if (c->len + n > INT32_MAX) {
        axml_set_error(r, AXML_ERROR_PARSE, 0, 0, "a value is longer than 2 GiB");
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
    return &r->cells[(size_t)field * (size_t)r->batch.capacity + (size_t)r->batch.count];
}

/* Writes an attribute's value at the end of the arena. Returns 1 when found, 0 when the
 * element has no such attribute, -1 on error. */
static int attribute_value(AXMLReader *r, xmlNodePtr node, const Step *s, int64_t *off, int32_t *len) {
    for (xmlAttrPtr a = node->properties; a != NULL; a = a->next) {
        if (!step_matches(s, a->name, a->ns)) continue;
        int64_t start = r->arena_len;
        for (xmlNodePtr t = a->children; t != NULL; t = t->next) {
            if (t->type == XML_TEXT_NODE && t->content != NULL) {
                int64_t n = (int64_t)strlen((const char *)t->content);
                if (arena_reserve(r, n)) return -1;
                memcpy(r->arena + r->arena_len, t->content, (size_t)n);
                r->arena_len += n;
            } else if (t->type == XML_ENTITY_REF_NODE) {
                axml_set_error(r, AXML_ERROR_ENTITY, axml_node_line(node), 0,
                               "the attribute '%s' refers to the entity '&%s;' declared in a DTD",
                               (const char *)a->name, (const char *)t->name);
                return -1;
            }
        }
        if (r->arena_len - start > INT32_MAX) {
            axml_set_error(r, AXML_ERROR_PARSE, axml_node_line(node), 0, "a value is longer than 2 GiB");
            return -1;
        }
        *off = start;
        *len = (int32_t)(r->arena_len - start);
        return 1;
    }
    return 0;
}

static int push_capture(AXMLReader *r, int role, int field, int depth, int32_t item) {
    if (axml_grow_int((void **)&r->captures, sizeof(Capture), &r->capcaptures, r->ncaptures + 1)) {
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
    item->reserved = 0;
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

/* An element (or the record element itself) completes the path of `field`. */
static int field_hit(AXMLReader *r, int field, xmlNodePtr node, int depth) {
    Field *f = &r->fields[field];
    AXMLCell *cell = cell_at(r, field);
    if (f->has_attr) {
        int64_t off;
        int32_t len;
        if (f->kind == AXML_KIND_TEXT && cell->tag != AXML_CELL_MISSING) {
            /* a later element of the path also has the attribute: count it, keep the first */
            int found = 0;
            for (xmlAttrPtr a = node->properties; a != NULL && !found; a = a->next) {
                found = step_matches(&f->attr, a->name, a->ns);
            }
            if (found && cell->repeats < 255) cell->repeats += 1;
            return 0;
        }
        int found = attribute_value(r, node, &f->attr, &off, &len);
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
        cell->tag = AXML_CELL_TEXT; /* empty until the element ends */
        cell->offset = r->arena_len;
        cell->length = 0;
        return push_capture(r, CAP_CELL, field, depth, -1);
    case AXML_KIND_LIST: {
        int32_t item = new_item(r, field, AXML_CELL_LIST, -1, 0);
        if (item < 0) return -1;
        return push_capture(r, CAP_ITEM, field, depth, item);
    }
    case AXML_KIND_MAP:
        if (cell->tag != AXML_CELL_MISSING) {
            if (cell->repeats < 255) cell->repeats += 1;
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

static int begin_record(AXMLReader *r, xmlNodePtr node, int depth) {
    int32_t row = r->batch.count;
    for (int f = 0; f < r->nfields; f++) {
        AXMLCell *cell = &r->cells[(size_t)f * (size_t)r->batch.capacity + (size_t)row];
        memset(cell, 0, sizeof *cell);
        r->from_fallback[f] = 0;
        r->field_match[f] = 1;
    }
    r->lines[row] = axml_node_line(node);
    r->in_record = 1;
    r->record_depth = depth;
    r->ncaptures = 0;
    for (int f = 0; f < r->nfields; f++) {
        Field *field = &r->fields[f];
        if (field->has_fallback) {
            int64_t off;
            int32_t len;
            int found = attribute_value(r, node, &field->fallback, &off, &len);
            if (found < 0) return -1;
            if (found) {
                AXMLCell *cell = cell_at(r, f);
                cell->tag = AXML_CELL_TEXT;
                cell->offset = off;
                cell->length = len;
                r->from_fallback[f] = 1;
            }
        }
        if (field->nsteps == 0 && field_hit(r, f, node, depth)) return -1;
    }
    return 0;
}

static void end_record(AXMLReader *r) {
    close_captures_at(r, r->record_depth);
    r->in_record = 0;
    r->batch.count += 1;
}

static int element_start(AXMLReader *r, xmlNodePtr node, int depth) {
    if (!r->in_record) {
        if (r->record_anywhere) {
            return step_matches(&r->record_steps[0], node->name, node->ns) ? 1 : 0;
        }
        if (depth >= r->nrecord_steps) return 0;
        int ok = step_matches(&r->record_steps[depth], node->name, node->ns) &&
                 (depth == 0 || r->record_prefix[depth - 1]);
        r->record_prefix[depth] = (uint8_t)ok;
        return ok && depth == r->nrecord_steps - 1;
    }
    int rd = depth - r->record_depth;
    /* a child of a map being collected starts an entry keyed by its local name */
    for (int i = 0; i < r->ncaptures; i++) {
        Capture *c = &r->captures[i];
        if (c->role != CAP_MAP || c->depth != depth - 1) continue;
        int64_t key_len = (int64_t)strlen((const char *)node->name);
        if (arena_reserve(r, key_len)) return -1;
        int64_t key_off = r->arena_len;
        memcpy(r->arena + key_off, node->name, (size_t)key_len);
        r->arena_len += key_len;
        int field = c->field;
        int32_t item = new_item(r, field, AXML_CELL_MAP, key_off, (int32_t)key_len);
        if (item < 0 || push_capture(r, CAP_ITEM, field, depth, item)) return -1;
        c = &r->captures[i]; /* push_capture may have moved the array */
    }
    if (rd > r->max_steps) return 0;
    const int nf = r->nfields;
    const uint8_t *parent = r->field_match + (size_t)(rd - 1) * (size_t)nf;
    uint8_t *here = r->field_match + (size_t)rd * (size_t)nf;
    for (int f = 0; f < nf; f++) {
        const Field *field = &r->fields[f];
        int ok = field->nsteps >= rd && parent[f] &&
                 step_matches(&field->steps[rd - 1], node->name, node->ns);
        here[f] = (uint8_t)ok;
        if (ok && field->nsteps == rd && field_hit(r, f, node, depth)) return -1;
    }
    return 0;
}

static int text_node(AXMLReader *r, const xmlChar *content) {
    if (content == NULL) return 0;
    int64_t n = (int64_t)strlen((const char *)content);
    if (n == 0) return 0;
    for (int i = 0; i < r->ncaptures; i++) {
        Capture *c = &r->captures[i];
        if (c->role == CAP_MAP) continue;
        if (capture_append(r, c, content, n)) return -1;
    }
    return 0;
}

/* The per-node work, shared by the reader loop and the tree walker. */
int axml_deliver(AXMLReader *r, xmlNodePtr node, int event, int depth) {
    if (r->error_pending && (node->type == XML_ELEMENT_NODE || node->type == XML_ENTITY_REF_NODE) &&
        (axml_node_flags(node) & AXML_AFTER_ERROR)) {
        return 1; /* the cut: everything before it was delivered */
    }
    switch (node->type) {
    case XML_ELEMENT_NODE:
        if (event == AXML_EV_END) {
            if (!r->in_record) return 0;
            if (depth != r->record_depth) {
                close_captures_at(r, depth);
            } else if (axml_node_flags(node) & AXML_OPEN_AT_ERROR) {
                return 1; /* its end tag was never parsed: an incomplete record */
            } else {
                end_record(r);
            }
            return 0;
        } else {
            int starts = element_start(r, node, depth);
            if (starts < 0) return 1;
            if (starts > 0) {
                if (begin_record(r, node, depth)) return 1;
                if (event == AXML_EV_EMPTY) {
                    if (axml_node_flags(node) & AXML_OPEN_AT_ERROR) return 1;
                    end_record(r);
                }
            } else if (event == AXML_EV_EMPTY && r->in_record) {
                close_captures_at(r, depth);
            }
            return 0;
        }
    case XML_TEXT_NODE:
    case XML_CDATA_SECTION_NODE:
        if (r->ncaptures > 0 && text_node(r, node->content)) return 1;
        return 0;
    case XML_ENTITY_REF_NODE:
        axml_set_error(r, AXML_ERROR_ENTITY, axml_node_line(node), 0,
                       "the document refers to the entity '&%s;' declared in a DTD", (const char *)node->name);
        return 1;
    default:
        return 0;
    }
}

/* After a fatal error xmlTextReaderRead returns -1 at once, although the parser may have
 * built (in the same input chunk) nodes the reader has not delivered yet: every complete
 * record among them is still owed to the caller. The walker goes on from the last node
 * delivered through the tree libxml2 built, in document order, with the same events, up to
 * the cut (an element left open by the error, or a node created after it). Nothing is
 * parsed any more, so nothing is freed under it. */
void axml_walk_begin(AXMLReader *r) {
    r->walking = 1;
    if (r->last_node != NULL) {
        r->walk_node = r->last_node;
        r->walk_descends = r->last_descends;
        r->walk_depth = r->last_depth;
    } else {
        /* nothing was delivered, so nothing was freed: start at the document of the root
         * element (not xmlTextReaderCurrentDoc, which would hand the document over to us) */
        r->walk_node = r->root != NULL ? (xmlNodePtr)r->root->doc : NULL;
        r->walk_descends = 1;
        r->walk_depth = -1;
    }
}

/* One event of the walk. Returns 1 after an event, 0 at the end of the tree. */
int axml_walk_step(AXMLReader *r, xmlNodePtr *node, int *event, int *depth) {
    xmlNodePtr cur = r->walk_node;
    if (cur == NULL) return 0;
    xmlNodePtr next = NULL;
    if (r->walk_descends) {
        if (cur->children != NULL && cur->type != XML_ENTITY_REF_NODE) {
            next = cur->children;
            r->walk_depth += 1;
        } else {
            /* an element without content: its end comes next */
            r->walk_descends = 0;
            *node = cur;
            *event = AXML_EV_END;
            *depth = r->walk_depth;
            return 1;
        }
    } else if (cur->next != NULL) {
        next = cur->next;
    } else {
        xmlNodePtr parent = cur->parent;
        if (parent == NULL || parent->type != XML_ELEMENT_NODE) {
            r->walk_node = NULL;
            return 0;
        }
        r->walk_node = parent;
        r->walk_depth -= 1;
        *node = parent;
        *event = AXML_EV_END;
        *depth = r->walk_depth;
        return 1;
    }
    r->walk_node = next;
    r->walk_descends = next->type == XML_ELEMENT_NODE;
    *node = next;
    *event = next->type == XML_ELEMENT_NODE ? AXML_EV_START : AXML_EV_OTHER;
    *depth = r->walk_depth;
    return 1;
}

