/* dumps.c - a dump's body read as line records for the walker (text.c),
 * from whichever text or raw slot already holds it. */
#include <string.h>
#include "timeline/internal.h"

typedef struct {
    GArray *out;
    tk_normalize_builder *nb;
    GString *text; /* the body as read, when its index is a stored one */
    int cut;       /* a line of it was given cut: TEXT is not the body */
} collect_ctx;

static int collect_line(void *user, const tl_line *rec, const char *text)
{
    collect_ctx *c = user;
    g_array_append_val(c->out, *rec);
    if (c->text && (rec->flags & TL_LF_CUT))
        c->cut = 1;
    else if (c->text) {
        g_string_append_len(c->text, text, (gssize)rec->len);
        g_string_append_c(c->text, '\n');
    }
    if (c->nb)
        tk_normalize_builder_add(c->nb, text,
                                 (rec->flags & TL_LF_CUT) ? TL_LINE_MAX : rec->len);
    return 0;
}

/* The records of the body of dump DUMP of PART into OUT (replacing what it
 * held), each line also given to NB when not NULL. */
int tl_walker_read_dump(tl_walker *w, size_t part, size_t dump, GArray *out,
                           tk_normalize_builder *nb)
{
    const tk_pass_dump *d = tl_dump(w->tl, part, dump);
    g_array_set_size(out, 0);
    if (!d || part >= TL_SRC_STAGE)
        return -1;
    /* A bundle's stored index is checked against each body as it is first
     * read (tk_passes.h); one that does not match is replaced by the index
     * of the text, and the dump read again from that. */
    const tk_passes *p = part < w->srcs.n_parts ? w->srcs.parts[part].passes : NULL;
    int stored = p && tk_passes_is_stored(p);
    collect_ctx c = {out, nb, stored ? g_string_sized_new((gsize)d->body_len + 1) : NULL, 0};
    uint64_t blen = d->body_len;
    int rc = tl_stream_range(&w->srcs, (uint16_t)part, d->body_offset, d->body_len,
                             &w->stream_buf, &w->stream_cap, collect_line, &c, w->diags) == 0
                 ? 0
                 : -1;
    if (stored && rc == 0) {
        if (c.text->len > blen)
            g_string_truncate(c.text, (gsize)blen);
        int ok = !c.cut && c.text->len == blen
                     ? tk_passes_check_body(p, dump, c.text->str, c.text->len, w->diags)
                     : tk_passes_check_dump(p, dump, w->diags);
        if (ok == 0)
            rc = tl_walker_read_dump(w, part, dump, out, nb);
        else if (ok < 0)
            rc = -1;
    }
    if (c.text)
        g_string_free(c.text, TRUE);
    return rc;
}

int tl_same_side(const tk_timeline_side *x, const tk_timeline_side *y)
{
    if (x->kind != y->kind || x->n_pieces != y->n_pieces)
        return 0;
    switch (x->kind) {
    case TK_SIDE_NONE:
        return 1;
    case TK_SIDE_FINAL:
        return x->final == y->final;
    case TK_SIDE_STATE:
    case TK_SIDE_DUMP:
        if (x->part != y->part || x->dump != y->dump)
            return 0;
        break;
    default:
        break;
    }
    for (size_t i = 0; i < x->n_pieces; i++)
        if (x->pieces[i].part != y->pieces[i].part ||
            x->pieces[i].dump != y->pieces[i].dump ||
            strcmp(x->pieces[i].function, y->pieces[i].function) != 0)
            return 0;
    return 1;
}

/* The records of a dump's body, from whichever text or slot already holds
 * them, else read into raw slot SLOT (the other slot when SLOT holds
 * KEEP).  Never the lines of side AVOID. */
const GArray *tl_walker_raw_lines(tl_walker *w, int slot, int avoid, const GArray *keep,
                               size_t part, size_t dump)
{
    tk_timeline_side want = {0};
    want.kind = TK_SIDE_DUMP;
    want.part = part;
    want.dump = dump;
    for (int s = 0; s < 2; s++) {
        tl_text *t = &w->side[s];
        if (s != avoid && t->valid && t->cacheable && tl_same_side(&t->key, &want))
            return t->lines;
    }
    for (int r = 0; r < 2; r++)
        if (w->raw[r].valid && w->raw[r].part == part && w->raw[r].dump == dump)
            return w->raw[r].lines;
    if (w->raw[slot].lines == keep)
        slot = !slot;
    tl_raw *r = &w->raw[slot];
    r->valid = 0;
    if (tl_walker_read_dump(w, part, dump, r->lines, NULL) != 0)
        return NULL;
    r->valid = 1;
    r->part = part;
    r->dump = dump;
    return r->lines;
}
