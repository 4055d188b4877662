/* What a document looked like, for the Swift side's explanations: whether the record path
 * matched anything (and which element paths exist when it did not), and which child elements
 * and attributes the records have (the "columns" of an XML source). Cheap on the common path:
 * element paths are collected only before the first record, names through a pointer hash. */
#include "axml_internal.h"

#include <stdlib.h>
#include <string.h>

const AXMLFileStat *axml_file_stat(const AXMLReader *r) { return &r->file_stat; }
const AXMLShape *axml_shape(const AXMLReader *r) { return &r->shape; }

const char *axml_seen_path(const AXMLReader *r, int32_t i) {
    return i >= 0 && i < r->shape.path_count ? r->seen_paths[i] : NULL;
}

const char *axml_child_name(const AXMLReader *r, int32_t i) {
    return i >= 0 && i < r->child_names.count ? (const char *)r->child_names.order[i] : NULL;
}

const char *axml_attribute_name(const AXMLReader *r, int32_t i) {
    return i >= 0 && i < r->attribute_names.count ? (const char *)r->attribute_names.order[i] : NULL;
}

static inline uint32_t name_slot(const NameSet *set, const xmlChar *name) {
    uint64_t h = (uint64_t)(uintptr_t)name * 0x9E3779B97F4A7C15ull;
    return (uint32_t)(h >> 40) & set->mask;
}

/* Adds an interned name unless present. Out of memory or past AXML_MAX_NAMES: the name is
 * left out and the set marked truncated (the names only feed messages and `columns:`). */
static void nameset_add(NameSet *set, const xmlChar *name) {
    if (name == NULL) return;
    if (set->mask != 0) {
        for (uint32_t h = name_slot(set, name); set->slots[h] != NULL; h = (h + 1) & set->mask) {
            if (set->slots[h] == name) return;
        }
    }
    if (set->count >= AXML_MAX_NAMES) {
        set->truncated = 1;
        return;
    }
    if ((uint32_t)(set->count + 1) * 2 > set->mask + 1) { /* keep the load under one half */
        uint32_t slots = set->mask == 0 ? 16 : (set->mask + 1) * 2;
        const xmlChar **grown = calloc(slots, sizeof *grown);
        if (grown == NULL) {
            set->truncated = 1;
            return;
        }
        NameSet rebuilt = *set;
        rebuilt.slots = grown;
        rebuilt.mask = slots - 1;
        for (int i = 0; i < set->count; i++) {
            uint32_t h = name_slot(&rebuilt, set->order[i]);
            while (grown[h] != NULL) h = (h + 1) & rebuilt.mask;
            grown[h] = set->order[i];
        }
        free(set->slots);
        set->slots = grown;
        set->mask = rebuilt.mask;
    }
    if (set->count == set->cap && axml_grow_int((void **)&set->order, sizeof *set->order, &set->cap, set->count + 1)) {
        set->truncated = 1;
        return;
    }
    uint32_t h = name_slot(set, name);
    while (set->slots[h] != NULL) h = (h + 1) & set->mask;
    set->slots[h] = name;
    set->order[set->count++] = name;
}

static void nameset_free(NameSet *set) {
    free(set->order);
    free(set->slots);
    memset(set, 0, sizeof *set);
}

/* Records the path of an element met outside any record, until the first record. */
void axml_shape_element(AXMLReader *r, int depth) {
    if (depth == 1) r->shape.root_has_children = 1;
    if (r->record_anywhere == 0 && r->nrecord_steps >= 2 && depth == r->nrecord_steps - 2 &&
        r->record_prefix[depth]) {
        r->shape.parent_matched = 1;
    }
    if (r->record_anywhere == 0 && r->nrecord_steps >= 2 && depth == r->nrecord_steps - 1 &&
        r->record_prefix[depth - 1]) {
        r->shape.parent_has_children = 1; /* a child of a parent element, yet no record */
    }
    if (!r->collecting_paths) return;
    /* The path is the stack of open elements' names (the element itself at `depth`). A hash
     * of the interned name pointers finds a known path without building its text. */
    uint64_t hash = 0xcbf29ce484222325ull;
    size_t length = 0;
    for (int i = 0; i <= depth && i < r->nopen; i++) {
        hash = (hash ^ (uint64_t)(uintptr_t)r->open[i]) * 0x100000001b3ull;
        length += 1 + strlen((const char *)r->open[i]);
    }
    for (int i = 0; i < r->shape.path_count; i++) {
        if (r->seen_hashes[i] == hash) return;
    }
    int cap = r->shape.path_count;
    char **paths = realloc(r->seen_paths, (size_t)(cap + 1) * sizeof *paths);
    if (paths == NULL) {
        r->collecting_paths = 0;
        return;
    }
    r->seen_paths = paths;
    uint64_t *hashes = realloc(r->seen_hashes, (size_t)(cap + 1) * sizeof *hashes);
    char *text = malloc(length + 1);
    if (hashes == NULL || text == NULL) {
        if (hashes != NULL) r->seen_hashes = hashes;
        free(text);
        r->collecting_paths = 0;
        return;
    }
    r->seen_hashes = hashes;
    size_t at = 0;
    for (int i = 0; i <= depth && i < r->nopen; i++) {
        size_t len = strlen((const char *)r->open[i]);
        text[at++] = '/';
        memcpy(text + at, r->open[i], len);
        at += len;
    }
    text[at] = '\0';
    r->seen_paths[cap] = text;
    r->seen_hashes[cap] = hash;
    r->shape.path_count = cap + 1;
    if (r->shape.path_count >= AXML_MAX_SEEN_PATHS) r->collecting_paths = 0;
}

void axml_shape_record(AXMLReader *r, const AXMLElement *el) {
    r->shape.records += 1;
    r->collecting_paths = 0;
    for (int i = 0; i < el->nattrs; i++) nameset_add(&r->attribute_names, el->attrs[5 * i]);
    r->shape.attribute_name_count = r->attribute_names.count;
    r->shape.names_truncated = r->child_names.truncated || r->attribute_names.truncated;
}

void axml_shape_record_child(AXMLReader *r, const xmlChar *name) {
    nameset_add(&r->child_names, name);
    r->shape.child_name_count = r->child_names.count;
    r->shape.names_truncated = r->child_names.truncated || r->attribute_names.truncated;
}

void axml_shape_free(AXMLReader *r) {
    for (int i = 0; i < r->shape.path_count; i++) free(r->seen_paths[i]);
    free(r->seen_paths);
    free(r->seen_hashes);
    r->seen_paths = NULL;
    r->seen_hashes = NULL;
    r->shape.path_count = 0;
    nameset_free(&r->child_names);
    nameset_free(&r->attribute_names);
}
