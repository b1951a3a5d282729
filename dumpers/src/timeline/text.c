/* text.c - assembling the texts a timeline compares, two at a time, as
 * line records (lines.h): whole dump bodies, functions cut out of dumps,
 * module dumps with functions replaced by later versions, final stages.
 *
 * A text is never in memory: a dump body is streamed from its file once,
 * a bounded buffer at a time, giving each line's record and its
 * normalized hash; a text put together from several dumps is put
 * together from their records, then its lines are read back once to
 * normalize it.  A 2 GB dump costs a few words per line.
 *
 * Two texts (before and after) are kept from pass to pass and swapped
 * rather than read again: the text after pass k is the text before pass
 * k + 1, so it is read and normalized once.  Two raw slots hold the
 * records of dumps that functions are cut from, only while a text is
 * assembled from several dumps.
 */
#include <string.h>

#include "timeline/internal.h"

static void text_reset(tl_text *t)
{
    tk_normalize_free(t->norm);
    t->norm = NULL;
    if (t->map_done)
        read_linemap_clear(&t->map);
    memset(&t->map, 0, sizeof t->map);
    t->map_done = 0;
    t->valid = 0;
    t->cacheable = 0;
    t->serial = 0;
    t->digest = 0;
    t->stage = NULL;
    if (t->lines)
        g_array_set_size(t->lines, 0);
}

static GArray *new_lines(void)
{
    return g_array_new(FALSE, FALSE, sizeof(tl_line));
}

void tl_walker_init(tl_walker *w, const tk_timeline *tl, tk_diags *diags)
{
    memset(w, 0, sizeof *w);
    w->tl = tl;
    w->diags = diags;
    w->srcs.parts = tl->parts;
    w->srcs.n_parts = tl->n_parts;
    w->srcs.res = tl_resident_new();
    for (int s = 0; s < 2; s++) {
        w->side[s].lines = new_lines();
        w->raw[s].lines = new_lines();
    }
    w->meta.lines = new_lines();
}

void tl_walker_clear(tl_walker *w)
{
    for (int s = 0; s < 2; s++) {
        text_reset(&w->side[s]);
        g_array_unref(w->side[s].lines);
        g_array_unref(w->raw[s].lines);
    }
    g_array_unref(w->meta.lines);
    tl_reader_clear(&w->reader);
    g_free(w->stream_buf);
    tl_resident_free(w->srcs.res);
    memset(w, 0, sizeof *w);
}

tl_srcs tl_walker_srcs(const tl_walker *w, int s)
{
    tl_srcs x = w->srcs;
    x.stage = w->side[s].stage;
    return x;
}


static const tk_timeline_piece *piece_named(const tk_timeline_side *side,
                                            const char *name, size_t len)
{
    for (size_t i = 0; i < side->n_pieces; i++)
        if (strlen(side->pieces[i].function) == len &&
            memcmp(side->pieces[i].function, name, len) == 0)
            return &side->pieces[i];
    return NULL;
}

static int text_state(tl_walker *w, int s, const tk_timeline_side *side,
                      tk_ir_dialect dialect)
{
    tl_text *t = &w->side[s];
    const GArray *base = tl_walker_raw_lines(w, 0, s, NULL, side->part, side->dump);
    if (!base)
        return -1;
    g_array_set_size(t->lines, 0);
    for (guint i = 0; i < base->len;) {
        const tl_line *l = &g_array_index(base, tl_line, i);
        const char *nm;
        size_t nl;
        const tk_timeline_piece *pc;
        if (tl_opened_name(w, &w->srcs, dialect, l, &nm, &nl) &&
            (pc = piece_named(side, nm, nl)) != NULL) {
            /* Another slot than the base's, which is still being read. */
            const GArray *src = tl_walker_raw_lines(w, 1, s, base, pc->part, pc->dump);
            if (!src)
                return -1;
            tl_append_function(w, &w->srcs, dialect, src, pc->function, t->lines);
            i = tl_function_end(dialect, base, i);
        } else {
            g_array_append_val(t->lines, *l);
            i++;
        }
    }
    return 0;
}

static int text_final(tl_walker *w, int s, const tk_timeline_side *side)
{
    tl_text *t = &w->side[s];
    const tk_kernel *k = w->tl->kernel;
    const tk_stage *st = k ? tk_kernel_stage(k, side->final) : NULL;
    g_array_set_size(t->lines, 0);
    if (!st) {
        tk_diags_add(w->diags, TK_DIAG_ERROR, w->tl->kernel_name, 0,
                     "the kernel has no %s stage", tk_stage_kind_name(side->final));
        return -1;
    }
    t->stage = st;
    tl_lines_of_stage(t->lines, st);
    return 0;
}

/* Assembles SIDE into text S: its records, and for a whole dump its
 * normalization too when NB is not NULL (the dump is streamed once). */
static int assemble(tl_walker *w, int s, const tk_timeline_side *side,
                    tk_ir_dialect dialect, tk_normalize_builder *nb)
{
    tl_text *t = &w->side[s];
    text_reset(t);
    int rc = 0;
    switch (side->kind) {
    case TK_SIDE_DUMP: {
        const tl_text *o = &w->side[!s];
        if (o->valid && o->cacheable && tl_same_side(&o->key, side) && !nb) {
            g_array_set_size(t->lines, 0);
            g_array_append_vals(t->lines, o->lines->data, o->lines->len);
        } else {
            rc = tl_walker_read_dump(w, side->part, side->dump, t->lines, nb);
        }
        break;
    }
    case TK_SIDE_FUNCTIONS:
        rc = tl_text_functions(w, s, side, dialect);
        break;
    case TK_SIDE_STATE:
        rc = text_state(w, s, side, dialect);
        break;
    case TK_SIDE_FINAL:
        rc = text_final(w, s, side);
        break;
    default:
        rc = -1;
        break;
    }
    if (rc != 0)
        return -1;
    t->key = *side;
    t->dialect = dialect;
    return 0;
}

static void made(tl_walker *w, tl_text *t)
{
    t->valid = 1;
    t->cacheable = 1;
    t->serial = ++w->next_serial;
    t->digest = 0;
}

/* Normalizes the text assembled in S by reading its lines back; it is then
 * valid. */
static int normalize(tl_walker *w, int s)
{
    tl_text *t = &w->side[s];
    tl_srcs src = tl_walker_srcs(w, s);
    t->norm = tl_normalize_lines(t->lines, &src, &w->reader, t->dialect, w->tl->kernel_name,
                                 w->diags);
    if (!t->norm)
        return -1;
    made(w, t);
    return 0;
}

/* Assembles and normalizes SIDE into S: a whole dump in one streaming read. */
static int materialize(tl_walker *w, int s, const tk_timeline_side *side,
                       tk_ir_dialect dialect)
{
    if (side->kind != TK_SIDE_DUMP) {
        if (assemble(w, s, side, dialect, NULL) != 0)
            return -1;
        return normalize(w, s);
    }
    tk_normalize_builder *nb = tk_normalize_builder_new(dialect, TK_NORMALIZE_HASHES_ONLY);
    if (assemble(w, s, side, dialect, nb) != 0) {
        tk_normalize_builder_free(nb);
        return -1;
    }
    tl_text *t = &w->side[s];
    t->norm = tk_normalize_builder_finish(nb);
    if (!t->norm) {
        tk_diags_add(w->diags, TK_DIAG_ERROR, w->tl->kernel_name, 0,
                     "a text of %u lines is too large to compare", t->lines->len);
        return -1;
    }
    made(w, t);
    return 0;
}

/* Makes side B hold side A's text and normalization under the key AFTER
 * (the two texts are the same), leaving A empty. */
static void alias_to_after(tl_walker *w, const tk_timeline_side *after)
{
    tl_text tmp = w->side[0];
    w->side[0] = w->side[1];
    w->side[1] = tmp;
    w->side[1].key = *after;
    text_reset(&w->side[0]);
}

/* The dump a side's text is all of: a whole dump, or the one function of a
 * dump that shows only that function; NULL otherwise. */
static const tk_pass_dump *whole_text_of(const tk_timeline *tl,
                                         const tk_timeline_side *x)
{
    if (x->kind == TK_SIDE_DUMP)
        return tl_dump(tl, x->part, x->dump);
    if (x->kind != TK_SIDE_FUNCTIONS || x->n_pieces != 1)
        return NULL;
    const tk_pass_dump *d = tl_dump(tl, x->pieces[0].part, x->pieces[0].dump);
    if (!d || d->n_functions != 1 || d->scope_kind == TK_PASS_SCOPE_MODULE ||
        d->when == TK_PASS_AT_START)
        return NULL;
    return d;
}

/* Whether two sides have the same text by the index's digests (equal
 * digests and lengths: the same lines, blank lines aside, which
 * normalization drops anyway), so that nothing needs reading. */
static int same_digests(const tk_pass_dump *a, const tk_pass_dump *b)
{
    return a && b && a->body_len == b->body_len && a->digest.exact == b->digest.exact &&
           a->digest.noloc == b->digest.noloc;
}

/* Two texts put together from dumps (a module with functions replaced, or
 * several functions) are the same when they are put together the same way
 * from dumps that are the same by their digests, piece by piece. */
static int same_pieces_text(const tk_timeline *tl, const tk_timeline_side *x,
                            const tk_timeline_side *y)
{
    if (x->n_pieces != y->n_pieces || x->n_pieces == 0)
        return 0;
    if (x->kind == TK_SIDE_STATE &&
        !(x->part == y->part && x->dump == y->dump) &&
        !same_digests(tl_dump(tl, x->part, x->dump), tl_dump(tl, y->part, y->dump)))
        return 0;
    for (size_t i = 0; i < x->n_pieces; i++) {
        const tk_timeline_piece *a = &x->pieces[i], *b = &y->pieces[i];
        if (strcmp(a->function, b->function) != 0)
            return 0;
        if (!(a->part == b->part && a->dump == b->dump) &&
            !same_digests(tl_dump(tl, a->part, a->dump), tl_dump(tl, b->part, b->dump)))
            return 0;
    }
    return 1;
}

static int same_dump_text(const tk_timeline *tl, const tk_timeline_side *x,
                          const tk_timeline_side *y)
{
    if (x->kind != y->kind)
        return 0;
    if (same_digests(whole_text_of(tl, x), whole_text_of(tl, y)))
        return 1;
    /* Whole units (TK_TIMELINE_WHOLE_UNITS): most passes leave them as
     * they are. */
    return (x->kind == TK_SIDE_STATE || x->kind == TK_SIDE_FUNCTIONS) &&
           (tl->flags & TK_TIMELINE_WHOLE_UNITS) && same_pieces_text(tl, x, y);
}

static int holds(const tl_text *t, const tk_timeline_side *side,
                 tk_ir_dialect dialect)
{
    return t->valid && t->cacheable && t->dialect == dialect &&
           tl_same_side(&t->key, side);
}

/* Function names of a FUNCTIONS side that the other side should be cut to. */
static int has_name(const tk_timeline_side *side, const char *name)
{
    for (size_t i = 0; i < side->n_pieces; i++)
        if (strcmp(side->pieces[i].function, name) == 0)
            return 1;
    return 0;
}

/* Keeps only the functions NAMES of side S's text (in NAMES' order, those
 * of them present), and normalizes it again. */
static int restrict_to(tl_walker *w, int s, const tk_timeline_side *names,
                       const tk_timeline_side *also)
{
    tl_text *t = &w->side[s];
    tl_srcs src = tl_walker_srcs(w, s);
    GArray *kept = new_lines();
    for (size_t i = 0; i < names->n_pieces; i++)
        if (!also || has_name(also, names->pieces[i].function))
            tl_append_function(w, &src, t->dialect, t->lines, names->pieces[i].function, kept);
    g_array_unref(t->lines);
    t->lines = kept;
    tk_normalize_free(t->norm);
    if (t->map_done)
        read_linemap_clear(&t->map);
    memset(&t->map, 0, sizeof t->map);
    t->map_done = 0;
    t->norm = tl_normalize_lines(t->lines, &src, &w->reader, t->dialect,
                                 w->tl->kernel_name, w->diags);
    t->cacheable = 0;
    t->serial = ++w->next_serial;
    t->digest = 0;
    return t->norm ? 0 : -1;
}

static int same_names(const tk_timeline_side *x, const tk_timeline_side *y)
{
    if (x->n_pieces != y->n_pieces)
        return 0;
    for (size_t i = 0; i < x->n_pieces; i++)
        if (strcmp(x->pieces[i].function, y->pieces[i].function) != 0)
            return 0;
    return 1;
}

int tl_walker_load(tl_walker *w, const tk_timeline_side *before,
                   const tk_timeline_side *after, tk_ir_dialect dialect)
{
    if (!holds(&w->side[0], before, dialect)) {
        if (holds(&w->side[1], before, dialect)) {
            tl_text tmp = w->side[0];
            w->side[0] = w->side[1];
            w->side[1] = tmp;
        } else if (materialize(w, 0, before, dialect) != 0) {
            return -1;
        }
    }
    int fa = before->kind == TK_SIDE_FUNCTIONS, fb = after->kind == TK_SIDE_FUNCTIONS;
    if (!holds(&w->side[1], after, dialect)) {
        /* A pass that changed nothing (most of them): its after text is
         * its before text; reuse that normalization instead of making a
         * second one.  Whole dumps are known equal from the index. */
        int plain = (before->kind == TK_SIDE_DUMP && after->kind == TK_SIDE_DUMP) ||
                    (fa && fb && same_names(before, after)) ||
                    (before->kind == TK_SIDE_STATE && after->kind == TK_SIDE_STATE &&
                     same_names(before, after));
        if (w->reuse_equal && plain && same_dump_text(w->tl, before, after)) {
            alias_to_after(w, after);
            return 1;
        }
        /* Whole units: a module dump and the module with a function
         * replaced are often the same bytes too.  Two whole dumps whose
         * digests differ are not: the after dump is streamed and
         * normalized at once. */
        int units = (w->tl->flags & TK_TIMELINE_WHOLE_UNITS) &&
                    (before->kind == TK_SIDE_DUMP || before->kind == TK_SIDE_STATE) &&
                    (after->kind == TK_SIDE_DUMP || after->kind == TK_SIDE_STATE);
        int compare = w->reuse_equal && (plain || units) &&
                      !(before->kind == TK_SIDE_DUMP && after->kind == TK_SIDE_DUMP);
        if (!compare) {
            if (materialize(w, 1, after, dialect) != 0)
                return -1;
        } else {
            if (assemble(w, 1, after, dialect, NULL) != 0)
                return -1;
            if (tl_lines_same(w->side[0].lines, w->side[1].lines)) {
                alias_to_after(w, after);
                return 1;
            }
            if (normalize(w, 1) != 0)
                return -1;
        }
    }
    int rc = 0;
    if (fa && !fb) {
        rc = restrict_to(w, 1, before, NULL);
    } else if (fb && !fa) {
        rc = restrict_to(w, 0, after, NULL);
    } else if (fa && fb && !same_names(before, after)) {
        rc = restrict_to(w, 0, before, after);
        if (rc == 0)
            rc = restrict_to(w, 1, after, before);
    }
    if (rc != 0 || !w->side[0].norm || !w->side[1].norm)
        return -1;
    return 0;
}

int tl_walker_load_one(tl_walker *w, const tk_timeline_side *side,
                       tk_ir_dialect dialect)
{
    if (holds(&w->side[1], side, dialect))
        return 0;
    if (holds(&w->side[0], side, dialect)) {
        tl_text tmp = w->side[0];
        w->side[0] = w->side[1];
        w->side[1] = tmp;
        return 0;
    }
    return materialize(w, 1, side, dialect);
}

uint64_t tl_walker_digest(tl_walker *w, int s)
{
    tl_text *t = &w->side[s];
    if (!t->norm)
        return 0;
    if (!t->digest)
        t->digest = tk_normalize_digest(t->norm);
    return t->digest;
}

/* Whether a text has a line starting with '#' (an attribute alias or a
 * #loc). */
static int has_alias_lines(const GArray *lines)
{
    for (guint i = 0; i < lines->len; i++)
        if (g_array_index(lines, tl_line, i).flags & TL_LF_HASH)
            return 1;
    return 0;
}

int tl_walker_alias_styles_differ(const tl_walker *w)
{
    return has_alias_lines(w->side[0].lines) != has_alias_lines(w->side[1].lines);
}

int tl_walker_expand_aliases(tl_walker *w)
{
    for (int s = 0; s < 2; s++) {
        tl_text *t = &w->side[s];
        tl_srcs src = tl_walker_srcs(w, s);
        tk_normalize *n = tl_normalize_lines_flags(t->lines, &src, &w->reader, t->dialect,
                                                   w->tl->kernel_name, w->diags,
                                                   TK_NORMALIZE_EXPAND_ALIASES);
        if (!n)
            return -1;
        tk_normalize_free(t->norm);
        t->norm = n;
        t->digest = 0;
        /* Not the normalization the next entry expects of this text. */
        t->valid = 0;
    }
    return 0;
}

void tl_walker_steal(tl_walker *w, int s, GArray **lines, tk_normalize **norm)
{
    tl_text *t = &w->side[s];
    *lines = t->lines;
    *norm = t->norm;
    t->norm = NULL;
    t->lines = new_lines();
    text_reset(t);
}

/* The debug metadata lines ("!..." at column 0) of module dump PART/DUMP,
 * kept in W->meta. */
static const GArray *meta_lines(tl_walker *w, size_t part, size_t dump)
{
    tl_raw *m = &w->meta;
    if (!(m->valid && m->part == part && m->dump == dump)) {
        m->valid = 0;
        if (tl_walker_read_dump(w, part, dump, m->lines, NULL) != 0)
            return NULL;
        guint out = 0;
        for (guint i = 0; i < m->lines->len; i++) {
            tl_line l = g_array_index(m->lines, tl_line, i);
            if (l.flags & TL_LF_META)
                g_array_index(m->lines, tl_line, out++) = l;
        }
        g_array_set_size(m->lines, out);
        m->valid = 1;
        m->part = part;
        m->dump = dump;
    }
    return m->lines;
}

/* The metadata side S is bound with, borrowed from W->meta; NULL for none. */
static const GArray *meta_of(tl_walker *w, int s)
{
    const tl_text *t = &w->side[s];
    const tk_timeline_side *k = &t->key;
    size_t part = TK_TL_NONE, dump = TK_TL_NONE;
    if (t->dialect != TK_IR_LLVM)
        return NULL;
    if (k->kind == TK_SIDE_FUNCTIONS) {
        part = k->meta_part;
        dump = k->meta_dump;
    } else if (!t->cacheable &&
               (k->kind == TK_SIDE_DUMP || k->kind == TK_SIDE_STATE)) {
        /* A module cut down to some functions: its own metadata. */
        part = k->part;
        dump = k->dump;
    }
    if (part == TK_TL_NONE)
        return NULL;
    return meta_lines(w, part, dump);
}

GArray *tl_walker_meta_for(tl_walker *w, int s)
{
    const GArray *m = meta_of(w, s);
    if (!m)
        return NULL;
    GArray *copy = new_lines();
    g_array_append_vals(copy, m->data, m->len);
    return copy;
}

/* Passes a stage reader's diagnostics on, at the lines of the dump file
 * when the text is one dump's body. */
static void forward_diags(tl_walker *w, const tk_timeline_side *key,
                          const tk_diags *from)
{
    const tk_pass_dump *d = key->kind == TK_SIDE_DUMP
                                ? tl_dump(w->tl, key->part, key->dump)
                                : NULL;
    for (size_t i = 0; i < tk_diags_count(from); i++) {
        const tk_diag *g = tk_diags_get(from, i);
        if (d && g->line)
            tk_diags_add(w->diags, g->severity,
                         tk_passes_path(w->tl->parts[key->part].passes),
                         d->header_line + g->line, "%s", g->message);
        else
            tk_diags_add(w->diags, g->severity, g->file, g->line, "%s", g->message);
    }
}

const read_linemap *tl_walker_bind(tl_walker *w, int s, tk_stage_kind kind,
                                   tk_loctab *tab)
{
    tl_text *t = &w->side[s];
    if (t->map_done)
        return &t->map;
    if (kind == TK_STAGE_UNKNOWN || !t->valid)
        return NULL;
    char *name = tk_timeline_side_describe(w->tl, &t->key);
    tk_diags *local = tk_diags_new();
    const GArray *meta = meta_of(w, s);
    tl_srcs src = tl_walker_srcs(w, s);
    tl_feed f;
    tl_feed_init(&f, t->lines, meta, &src, &w->reader, name, local);
    tl_read_locations(kind, &f, tab, &t->map, local);
    t->map_done = 1;
    forward_diags(w, &t->key, local);
    tk_diags_free(local);
    g_free(name);
    return &t->map;
}
