/* yml_compose.c - see yml_compose.h.  Nodes are numbered and linked as
 * libyaml's own loader does (a collection joins its parent when it starts,
 * an anchor names its node from there on, so `&a [*a]` is a cycle that the
 * visit budget of yml.c stops); only the limits differ. */
#include "experiment/yml_compose.h"

#include "base/util.h"

#include <search.h>
#include <stdlib.h>
#include <string.h>

typedef struct anchor {
    char *name;
    int node;
    int line; /* 1-based, of its first definition */
} anchor;

typedef struct frame {
    int node; /* the collection being filled */
    int key;  /* a mapping's key waiting for its value; 0: none */
} frame;

typedef struct composer {
    yaml_document_t *doc;
    diags *d;
    void *anchors; /* tsearch tree of anchor, by name */
    frame stack[YML_MAX_DEPTH];
    int depth;
} composer;

static int by_name(const void *a, const void *b)
{
    return strcmp(((const anchor *)a)->name, ((const anchor *)b)->name);
}

static void free_anchor(void *a)
{
    free(((anchor *)a)->name);
    free(a);
}

static int at_line(const yaml_event_t *ev)
{
    return (int)ev->start_mark.line + 1;
}

static int at_col(const yaml_event_t *ev)
{
    return (int)ev->start_mark.column + 1;
}

/* yaml_document_add_* fail only when memory runs out */
static int no_memory(composer *c, const yaml_event_t *ev)
{
    diag_add(c->d, at_line(ev), at_col(ev), "out of memory while reading the YAML document");
    return -2;
}

/* Node `id` joins the collection being filled (a mapping takes a key, then
 * its value); the first node is the root. */
static int attach(composer *c, int id)
{
    if (!c->depth)
        return 1;
    frame *f = &c->stack[c->depth - 1];
    if (yaml_document_get_node(c->doc, f->node)->type == YAML_SEQUENCE_NODE)
        return yaml_document_append_sequence_item(c->doc, f->node, id);
    if (!f->key) {
        f->key = id;
        return 1;
    }
    int k = f->key;
    f->key = 0;
    return yaml_document_append_mapping_pair(c->doc, f->node, k, id);
}

static int define_anchor(composer *c, const yaml_char_t *name, int id, const yaml_event_t *ev)
{
    if (!name)
        return 0;
    anchor *a = xmalloc(sizeof *a);
    *a = (anchor){xstrdup((const char *)name), id, at_line(ev)};
    anchor **slot = tsearch(a, &c->anchors, by_name);
    if (!slot) {
        free_anchor(a);
        return no_memory(c, ev);
    }
    if (*slot != a) {
        diag_add(c->d, at_line(ev), at_col(ev), "YAML anchor '&%s' is defined twice (first at line %d)",
                 (const char *)name, (*slot)->line);
        free_anchor(a);
        return -2;
    }
    return 0;
}

/* A tag of "!" (non-specific) or none gets the default, as libyaml's loader gives. */
static const yaml_char_t *tag_of(const yaml_char_t *tag)
{
    return tag && strcmp((const char *)tag, "!") ? tag : NULL;
}

/* One event: 1 to go on, 0 at the document's end, -2 with a diagnostic. */
static int step(composer *c, const yaml_event_t *ev)
{
    int id = 0, collection = 0;
    const yaml_char_t *name = NULL;
    switch (ev->type) {
    case YAML_DOCUMENT_END_EVENT:
        c->doc->end_implicit = ev->data.document_end.implicit;
        c->doc->end_mark = ev->end_mark;
        return 0;
    case YAML_ALIAS_EVENT: {
        anchor key = {.name = (char *)ev->data.alias.anchor};
        anchor **a = tfind(&key, &c->anchors, by_name);
        if (!a) {
            diag_add(c->d, at_line(ev), at_col(ev),
                     "YAML alias '*%s' names no anchor defined before it", key.name);
            return -2;
        }
        return attach(c, (*a)->node) ? 1 : no_memory(c, ev);
    }
    case YAML_SCALAR_EVENT:
        id = yaml_document_add_scalar(c->doc, tag_of(ev->data.scalar.tag), ev->data.scalar.value,
                                      (int)ev->data.scalar.length, ev->data.scalar.style);
        name = ev->data.scalar.anchor;
        break;
    case YAML_SEQUENCE_START_EVENT:
    case YAML_MAPPING_START_EVENT:
        if (c->depth == YML_MAX_DEPTH) {
            diag_add(c->d, at_line(ev), at_col(ev),
                     "YAML lists and mappings nested more than %d deep", YML_MAX_DEPTH);
            return -2;
        }
        collection = 1;
        if (ev->type == YAML_SEQUENCE_START_EVENT) {
            id = yaml_document_add_sequence(c->doc, tag_of(ev->data.sequence_start.tag),
                                            ev->data.sequence_start.style);
            name = ev->data.sequence_start.anchor;
        } else {
            id = yaml_document_add_mapping(c->doc, tag_of(ev->data.mapping_start.tag),
                                           ev->data.mapping_start.style);
            name = ev->data.mapping_start.anchor;
        }
        break;
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT:
        c->depth--;
        yaml_document_get_node(c->doc, c->stack[c->depth].node)->end_mark = ev->end_mark;
        return 1;
    default:
        return 1;
    }
    if (!id)
        return no_memory(c, ev);
    if (id > YML_MAX_NODES) {
        diag_add(c->d, at_line(ev), at_col(ev),
                 "more than %d YAML values (lists, mappings and scalars) in the file", YML_MAX_NODES);
        return -2;
    }
    yaml_node_t *n = yaml_document_get_node(c->doc, id);
    n->start_mark = ev->start_mark;
    n->end_mark = ev->end_mark;
    if (define_anchor(c, name, id, ev) < 0)
        return -2;
    if (!attach(c, id))
        return no_memory(c, ev);
    if (collection)
        c->stack[c->depth++] = (frame){id, 0};
    return 1;
}

int yml_compose(yaml_parser_t *p, yaml_document_t *doc, diags *d)
{
    memset(doc, 0, sizeof *doc);
    yaml_event_t ev;
    if (!p->stream_start_produced) {
        if (!yaml_parser_parse(p, &ev))
            return -1;
        yaml_event_delete(&ev);
    }
    if (p->stream_end_produced)
        return 0;
    if (!yaml_parser_parse(p, &ev))
        return -1;
    if (ev.type != YAML_DOCUMENT_START_EVENT) { /* the stream's end */
        yaml_event_delete(&ev);
        return 0;
    }
    composer c = {.doc = doc, .d = d};
    int rc;
    if (!yaml_document_initialize(doc, NULL, NULL, NULL, ev.data.document_start.implicit, 1)) {
        rc = no_memory(&c, &ev);
        yaml_event_delete(&ev);
        memset(doc, 0, sizeof *doc);
        return rc;
    }
    doc->start_mark = ev.start_mark;
    yaml_event_delete(&ev);
    for (;;) {
        if (!yaml_parser_parse(p, &ev)) {
            rc = -1;
            break;
        }
        int r = step(&c, &ev);
        yaml_event_delete(&ev);
        if (r <= 0) {
            rc = r == 0 ? 1 : r;
            break;
        }
    }
    tdestroy(c.anchors, free_anchor);
    if (rc < 0) {
        yaml_document_delete(doc);
        memset(doc, 0, sizeof *doc);
    }
    return rc;
}
