/* dumps.c - a dump's body read as line records for the walker (text.c),
 * from whichever text or raw slot already holds it. */
#include <string.h>
#include "timeline/internal.h"

typedef struct {
    GArray *out;
    tk_normalize_builder *nb;
} collect_ctx;

static int collect_line(void *user, const tl_line *rec, const char *text)
{
    collect_ctx *c = user;
    g_array_append_val(c->out, *rec);
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
    collect_ctx c = {out, nb};
    return tl_stream_range(&w->srcs, (uint16_t)part, d->body_offset, d->body_len,
                           &w->stream_buf, &w->stream_cap, collect_line, &c, w->diags) == 0
               ? 0
               : -1;
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
