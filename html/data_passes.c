/* data_passes.c - a kernel's pass timeline for pass mode (tk_timeline.h).
 *
 * data/ID/passes.js      the timeline: one entry per pass (level, name,
 *                        effect, +/- counts, its chain), the chains, level
 *                        summaries, for each source line the passes whose
 *                        changed lines carry it in their inline stacks, and
 *                        how the diffs are grouped and cut ("diffs"), which
 *                        the browser follows for the diffs it composes
 * data/ID/pc-C.js        chain C of passes of one IR (MLIR, LLVM IR,
 *                        machine code): its first text and what each pass
 *                        changed, from which the browser makes the diff of
 *                        one pass or of any two passes of the chain
 *                        (pass_chain.h, data_chain.c)
 * data/ID/pd-L.js        the diffs of the changed passes of the level that
 *                        starts at pass L outside a chain (loop passes,
 *                        passes after a dump that could not be compared),
 *                        one file per level, loaded when one of them is
 *                        shown: {"p": {"N": diff}}, each diff its change
 *                        groups (3 lines of context), each row the two
 *                        sides' line numbers and original text
 * data/ID/pl-L.js        the diff over a whole level that no chain holds
 *                        (its first pass's input to its last pass's output)
 * Only changed lines and their context (or a chain's first text) are
 * stored, never a copy of a dump per pass: the report grows with what the
 * passes changed.  The diffs, counts and stacks are the library's, handed
 * out while the timeline is built (tk_timeline_build_steps()): each pass is
 * read, normalized and diffed once, and nothing here compares IR.
 */
#include <string.h>

#include "pass_chain.h"
#include "report.h"
#include "tkdump/tk_passes.h"
#include "tkdump/tk_timeline.h"

/* Equal lines shown around each change: tk_diff_group()'s CONTEXT. */
#define CONTEXT 3
/* A pass that rewrites a whole module (the translation to LLVM, instruction
 * selection) changes every line; past this many rows a diff is cut, with
 * the count of rows left out.  Both are written into passes.js: the
 * browser groups and cuts the diffs it composes with them. */
#define MAX_ROWS 6000

typedef struct {
    const tk_ir_diff *d;
    jw *w;
    uint32_t rows;
    uint32_t cut;
    gboolean in_group;
    /* source lines the changed lines carry: "file:line" -> 1 */
    GHashTable *touched;
    tk_loctab *tab;
} diff_writer;

static void side_text(diff_writer *dw, int side, uint32_t k)
{
    size_t len;
    uint32_t line = 0;
    const char *s = tk_ir_diff_kept_line(dw->d, side, k, &len, &line);
    jw_int(dw->w, line);
    jw_strn(dw->w, s ? s : "", s ? len : 0);
}

static void touch(diff_writer *dw, int side, uint32_t k)
{
    if (!dw->touched)
        return;
    size_t len;
    uint32_t line = 0;
    if (!tk_ir_diff_kept_line(dw->d, side, k, &len, &line) || !line)
        return;
    const tk_stack_id *ids;
    size_t n = tk_ir_diff_line_stacks(dw->d, side, line, &ids);
    for (size_t i = 0; i < n; i++) {
        size_t nf;
        const tk_frame *fr = tk_loctab_stack_frames(dw->tab, ids[i], &nf);
        for (size_t j = 0; j < nf; j++) {
            guint64 key = ((guint64)fr[j].file << 32) | fr[j].line;
            g_hash_table_add(dw->touched, g_memdup2(&key, sizeof key));
        }
    }
}

/* One row: [kind, aLine, aText, bLine, bText] with kind "e" (context),
 * "d" (only in A), "i" (only in B), "r" (A's line became B's); a context
 * row whose two texts are the same bytes leaves bText out. */
static void row(diff_writer *dw, char kind, int64_t ka, int64_t kb)
{
    if (dw->rows >= MAX_ROWS) {
        dw->cut++;
        return;
    }
    dw->rows++;
    jw_arr(dw->w);
    char k[2] = {kind, 0};
    jw_str(dw->w, k);
    if (kind == 'e') {
        size_t la, lb;
        uint32_t na = 0, nb = 0;
        const char *a = tk_ir_diff_kept_line(dw->d, TK_IR_A, (uint32_t)ka, &la, &na);
        const char *b = tk_ir_diff_kept_line(dw->d, TK_IR_B, (uint32_t)kb, &lb, &nb);
        jw_int(dw->w, na);
        jw_strn(dw->w, a ? a : "", a ? la : 0);
        jw_int(dw->w, nb);
        if (!a || !b || la != lb || memcmp(a, b, la) != 0)
            jw_strn(dw->w, b ? b : "", b ? lb : 0);
        jw_arr_end(dw->w);
        return;
    }
    if (ka >= 0)
        side_text(dw, TK_IR_A, (uint32_t)ka);
    else {
        jw_int(dw->w, 0);
        jw_null(dw->w);
    }
    if (kb >= 0)
        side_text(dw, TK_IR_B, (uint32_t)kb);
    else {
        jw_int(dw->w, 0);
        jw_null(dw->w);
    }
    jw_arr_end(dw->w);
}

static int group_hunk(const tk_hunk *h, void *user)
{
    diff_writer *dw = user;
    if (h->tag == TK_HUNK_GROUP) {
        if (dw->in_group)
            jw_arr_end(dw->w);
        jw_arr(dw->w);
        dw->in_group = TRUE;
        return 0;
    }
    uint32_t na = h->a1 - h->a0, nb = h->b1 - h->b0;
    switch (h->tag) {
    case TK_HUNK_EQUAL:
        for (uint32_t i = 0; i < na; i++)
            row(dw, 'e', h->a0 + i, h->b0 + i);
        break;
    case TK_HUNK_DELETE:
        for (uint32_t i = 0; i < na; i++) {
            row(dw, 'd', h->a0 + i, -1);
            touch(dw, TK_IR_A, h->a0 + i);
        }
        break;
    case TK_HUNK_INSERT:
        for (uint32_t i = 0; i < nb; i++) {
            row(dw, 'i', -1, h->b0 + i);
            touch(dw, TK_IR_B, h->b0 + i);
        }
        break;
    case TK_HUNK_REPLACE:
        for (uint32_t i = 0; i < MAX(na, nb); i++) {
            row(dw, i < na && i < nb ? 'r' : i < na ? 'd' : 'i',
                i < na ? (int64_t)(h->a0 + i) : -1, i < nb ? (int64_t)(h->b0 + i) : -1);
            if (i < na)
                touch(dw, TK_IR_A, h->a0 + i);
            if (i < nb)
                touch(dw, TK_IR_B, h->b0 + i);
        }
        break;
    default:
        break;
    }
    return 0;
}

/* TOUCHED collects the source lines of D's changed lines. */
static void touch_changed(tk_loctab *tab, tk_ir_diff *d, GHashTable *touched)
{
    tk_ir_diff_bind(d, tab, NULL);
    diff_writer dw = {.d = d, .touched = touched, .tab = tab};
    size_t nh;
    const tk_hunk *h = tk_ir_diff_hunks(d, &nh);
    for (size_t i = 0; i < nh; i++) {
        if (h[i].tag == TK_HUNK_EQUAL)
            continue;
        for (uint32_t k = h[i].a0; k < h[i].a1; k++)
            touch(&dw, TK_IR_A, k);
        for (uint32_t k = h[i].b0; k < h[i].b1; k++)
            touch(&dw, TK_IR_B, k);
    }
}

void tk_report_diff_json(tk_loctab *tab, tk_ir_diff *d, GHashTable *touched, jw *w)
{
    if (touched)
        tk_ir_diff_bind(d, tab, NULL);
    jw_obj(w);
    jw_key(w, "a");
    jw_str(w, tk_ir_diff_name(d, TK_IR_A));
    jw_key(w, "b");
    jw_str(w, tk_ir_diff_name(d, TK_IR_B));
    tk_diff_stats st = tk_ir_diff_stats(d);
    jw_key(w, "added");
    jw_int(w, st.added);
    jw_key(w, "removed");
    jw_int(w, st.removed);
    jw_key(w, "groups");
    jw_arr(w);
    diff_writer dw = {.d = d, .w = w, .touched = touched, .tab = tab};
    size_t nh;
    const tk_hunk *h = tk_ir_diff_hunks(d, &nh);
    tk_diff_group(h, nh, CONTEXT, group_hunk, &dw);
    if (dw.in_group)
        jw_arr_end(w);
    jw_arr_end(w);
    jw_key(w, "cut");
    jw_int(w, dw.cut);
    jw_obj_end(w);
}

static int put_data(tk_report *r, tk_report_kernel *rk, const char *what,
                    const GString *g)
{
    char rel[64], key[64];
    g_snprintf(rel, sizeof rel, "data/%s/%s.js", rk->id, what);
    g_snprintf(key, sizeof key, "%s/%s", rk->id, what);
    return tk_report_put_z(r, rel, key, g);
}

static void write_entry(jw *w, const tk_timeline *tl, const tk_timeline_entry *e,
                        ptrdiff_t chain)
{
    jw_obj(w);
    jw_key(w, "level");
    jw_str(w, tk_pass_level_name(e->level));
    jw_key(w, "pass");
    jw_str(w, e->pass);
    jw_key(w, "arg");
    jw_str(w, e->arg);
    jw_key(w, "scope");
    jw_str(w, e->scope_name);
    jw_key(w, "effect");
    jw_str(w, tk_effect_name(e->effect));
    if (e->effect == TK_EFFECT_UNKNOWN) {
        jw_key(w, "why");
        jw_str(w, tk_unknown_why_name(e->why));
    }
    jw_key(w, "added");
    jw_int(w, e->added);
    jw_key(w, "removed");
    jw_int(w, e->removed);
    jw_key(w, "sub");
    jw_int(w, (int64_t)e->n_substeps);
    if (e->scope_kind == TK_PASS_SCOPE_LOOP) {
        jw_key(w, "loop");
        jw_int(w, 1);
    }
    if (chain >= 0) {
        jw_key(w, "ch");
        jw_int(w, chain);
    }
    char *b = tk_timeline_side_describe(tl, &e->before);
    char *a = tk_timeline_side_describe(tl, &e->after);
    jw_key(w, "before");
    jw_str(w, b);
    jw_key(w, "after");
    jw_str(w, a);
    g_free(b);
    g_free(a);
    jw_obj_end(w);
}

static guint u64_hash(gconstpointer p)
{
    guint64 v = *(const guint64 *)p;
    return (guint)(v ^ (v >> 29) ^ (v >> 41));
}

static gboolean u64_equal(gconstpointer a, gconstpointer b)
{
    return *(const guint64 *)a == *(const guint64 *)b;
}

/* What the timeline build's steps go to. */
typedef struct {
    tk_report *r;
    tk_report_kernel *rk;
    tk_loctab *tab;      /* this kernel's own: where changed lines are bound */
    tk_pass_chains *chains;
    GHashTable *touched; /* scratch: one pass's source lines */
    GHashTable *by_line; /* source line -> passes that touched it */
    int rc, changed;
    /* the level the last pass was of, and its first pass */
    tk_pass_level level;
    size_t level_from;
    /* that level's diffs outside a chain, {"p": {"N": diff, ...}} */
    GString *group;
    jw gw;
    gboolean group_open;
    GArray *groups; /* size_t: first pass of each level with a pd file */
} pass_sink;

/* Writes the diffs of the level that ended as data/ID/pd-FROM.js. */
static void flush_group(pass_sink *k)
{
    if (!k->group_open)
        return;
    k->group_open = FALSE;
    jw_obj_end(&k->gw);
    jw_obj_end(&k->gw);
    char what[32];
    g_snprintf(what, sizeof what, "pd-%zu", k->level_from);
    int rc = put_data(k->r, k->rk, what, k->group);
    if (rc && !k->rc)
        k->rc = rc;
    g_array_append_val(k->groups, k->level_from);
}

static void group_diff(pass_sink *k, size_t pass, tk_ir_diff *d)
{
    if (!k->group_open) {
        k->group_open = TRUE;
        g_string_truncate(k->group, 0);
        jw_init(&k->gw, k->group);
        jw_obj(&k->gw);
        jw_key(&k->gw, "p");
        jw_obj(&k->gw);
    }
    char key[24];
    g_snprintf(key, sizeof key, "%zu", pass);
    jw_key(&k->gw, key);
    tk_report_diff_json(k->tab, d, k->touched, &k->gw);
}

static int on_step(const tk_timeline *tl, const tk_timeline_step *st, void *user)
{
    (void)tl;
    pass_sink *k = user;
    if (st->substep != TK_TL_NONE)
        return 0; /* sub-steps are listed, not shown */
    if (st->pass == 0 || st->entry->level != k->level) {
        flush_group(k);
        k->level = st->entry->level;
        k->level_from = st->pass;
    }
    gboolean chained = tk_pass_chains_step(k->chains, st);
    if (st->entry->effect != TK_EFFECT_CHANGED || !st->diff)
        return k->rc;
    k->changed++;
    g_hash_table_remove_all(k->touched);
    if (chained)
        touch_changed(k->tab, st->diff, k->touched);
    else
        group_diff(k, st->pass, st->diff);
    GHashTableIter it;
    gpointer key;
    g_hash_table_iter_init(&it, k->touched);
    while (g_hash_table_iter_next(&it, &key, NULL)) {
        GArray *a = g_hash_table_lookup(k->by_line, key);
        if (!a) {
            a = g_array_new(FALSE, FALSE, sizeof(uint32_t));
            g_hash_table_insert(k->by_line, g_memdup2(key, sizeof(guint64)), a);
        }
        uint32_t pi = (uint32_t)st->pass;
        g_array_append_val(a, pi);
    }
    return k->rc;
}

static gboolean has_group(const pass_sink *k, size_t from)
{
    for (guint g = 0; g < k->groups->len; g++)
        if (g_array_index(k->groups, size_t, g) == from)
            return TRUE;
    return FALSE;
}

/* The level summary of passes I..J: where its diffs outside a chain are;
 * composed in the browser over the chain its passes are in, else (LLVM IR,
 * machine code) a diff from the first pass's input to the last pass's
 * output. */
static int write_level(tk_report *r, tk_report_kernel *rk, const tk_timeline *tl,
                       const pass_sink *k, size_t i, size_t j, jw *w)
{
    const tk_pass_chains *chains = k->chains;
    tk_pass_level lv = tk_timeline_get(tl, i)->level;
    jw_obj(w);
    jw_key(w, "level");
    jw_str(w, tk_pass_level_name(lv));
    /* which IR its texts are: the page colours them by it */
    jw_key(w, "dialect");
    jw_str(w, tk_ir_dialect_name(tk_pass_level_dialect(lv)));
    jw_key(w, "from");
    jw_int(w, (int64_t)i);
    jw_key(w, "to");
    jw_int(w, (int64_t)j);
    if (has_group(k, i)) {
        char what[32];
        g_snprintf(what, sizeof what, "pd-%zu", i);
        jw_key(w, "pd");
        jw_str(w, what);
    }
    int rc = 0;
    ptrdiff_t ch = -1;
    size_t x = i, y = i;
    for (size_t p = i; p <= j; p++) {
        ptrdiff_t c = tk_pass_chains_of(chains, p);
        if (c < 0)
            continue;
        if (ch < 0) {
            ch = c;
            x = p;
        }
        if (c == ch)
            y = p;
    }
    if (ch >= 0) {
        jw_key(w, "chain");
        jw_int(w, ch);
        jw_key(w, "cfrom");
        jw_int(w, (int64_t)x);
        jw_key(w, "cto");
        jw_int(w, (int64_t)y);
    } else if (j > i && tk_pass_level_dialect(lv) != TK_IR_MLIR) {
        tk_diags *quiet = tk_diags_new(); /* an unknown end is not news */
        tk_ir_diff *d = tk_timeline_diff(tl, i, j, NULL, quiet);
        tk_diags_free(quiet);
        if (d) {
            char what[32];
            g_snprintf(what, sizeof what, "pl-%zu", i);
            GString *g = g_string_new(NULL);
            jw dw;
            jw_init(&dw, g);
            tk_report_diff_json(NULL, d, NULL, &dw);
            rc = put_data(r, rk, what, g);
            g_string_free(g, TRUE);
            tk_ir_diff_free(d);
            jw_key(w, "diff");
            jw_str(w, what);
        }
    }
    jw_obj_end(w);
    return rc;
}

/* The global id of file F of TAB (a kernel's own table) in the bundle's
 * table, which the report's file list and stacks use. */
static tk_file_id global_file(tk_report *r, const tk_loctab *tab, tk_file_id f)
{
    const char *path = tk_loctab_file_path(tab, f);
    g_mutex_lock(&r->lock);
    tk_file_id g = tk_loctab_file(tk_bundle_loctab(r->bundle), path, strlen(path));
    g_mutex_unlock(&r->lock);
    return g;
}

/* Kernel RK's pass data from its N_PARTS PARTS (taken), its changed lines
 * bound in TAB,
 * problems to DIAGS.  No bundle call but the location table's (under
 * R->lock): the pass indexes are only read (pread), the kernel's stages
 * too, so two kernels can be done at the same time (tk_bundle.h). */
static int kernel_passes(tk_report *r, tk_report_kernel *rk, tk_timeline_part *parts,
                         size_t n_parts, tk_loctab *tab, tk_diags *diags)
{
    rk->n_passes = rk->n_changed = -1;
    if (n_parts == 0) {
        g_free(parts);
        return 0;
    }
    pass_sink k = {
        .r = r,
        .rk = rk,
        .tab = tab,
        .chains = tk_pass_chains_new(r, rk),
        .touched = g_hash_table_new_full(u64_hash, u64_equal, g_free, NULL),
        .by_line = g_hash_table_new_full(u64_hash, u64_equal, g_free,
                                         (GDestroyNotify)g_array_unref),
        .group = g_string_new(NULL),
        .groups = g_array_new(FALSE, FALSE, sizeof(size_t)),
    };
    /* Whole modules for LLVM IR and machine code, so that their passes
     * chain as MLIR passes do (any two of a level can be composed). */
    tk_timeline_opts opts = {.flags = TK_TIMELINE_WHOLE_UNITS};
    tk_timeline *tl = tk_timeline_build_steps(parts, n_parts, rk->kernel, &opts, on_step, &k,
                                              diags);
    g_free(parts);
    flush_group(&k);
    int rc = k.rc;
    int rc2 = tk_pass_chains_finish(k.chains);
    if (!rc)
        rc = rc2;
    g_string_free(k.group, TRUE);
    if (!tl) {
        tk_pass_chains_free(k.chains);
        g_hash_table_destroy(k.touched);
        g_hash_table_destroy(k.by_line);
        g_array_free(k.groups, TRUE);
        return rc;
    }
    size_t n = tk_timeline_count(tl);
    GString *g = g_string_new(NULL);
    jw w;
    jw_init(&w, g);
    jw_obj(&w);
    jw_key(&w, "diffs");
    jw_obj(&w);
    jw_key(&w, "context");
    jw_int(&w, CONTEXT);
    jw_key(&w, "maxRows");
    jw_int(&w, MAX_ROWS);
    jw_obj_end(&w);
    jw_key(&w, "chains");
    jw_arr(&w);
    for (size_t c = 0; c < tk_pass_chains_count(k.chains); c++) {
        size_t from, to;
        tk_pass_chains_range(k.chains, c, &from, &to);
        jw_arr(&w);
        jw_int(&w, (int64_t)from);
        jw_int(&w, (int64_t)to);
        jw_arr_end(&w);
    }
    jw_arr_end(&w);
    jw_key(&w, "levels");
    jw_arr(&w);
    for (size_t i = 0; i < n && rc == 0;) {
        size_t j = i;
        tk_pass_level lv = tk_timeline_get(tl, i)->level;
        while (j + 1 < n && tk_timeline_get(tl, j + 1)->level == lv)
            j++;
        rc = write_level(r, rk, tl, &k, i, j, &w);
        i = j + 1;
    }
    jw_arr_end(&w);
    jw_key(&w, "passes");
    jw_arr(&w);
    for (size_t i = 0; i < n; i++)
        write_entry(&w, tl, tk_timeline_get(tl, i), tk_pass_chains_of(k.chains, i));
    jw_arr_end(&w);
    jw_key(&w, "touch");
    jw_arr(&w);
    GHashTableIter it;
    gpointer key, val;
    g_hash_table_iter_init(&it, k.by_line);
    while (g_hash_table_iter_next(&it, &key, &val)) {
        guint64 kk = *(guint64 *)key;
        GArray *a = val;
        jw_arr(&w);
        jw_int(&w, global_file(r, tab, (tk_file_id)(kk >> 32)));
        jw_int(&w, (int64_t)(kk & 0xffffffffu));
        jw_lines(&w, (const uint32_t *)a->data, a->len);
        jw_arr_end(&w);
    }
    jw_arr_end(&w);
    jw_obj_end(&w);
    if (rc == 0) {
        char rel[64], k2[64];
        g_snprintf(rel, sizeof rel, "data/%s/passes.js", rk->id);
        g_snprintf(k2, sizeof k2, "%s/passes", rk->id);
        rc = tk_report_put_z(r, rel, k2, g);
    }
    g_string_free(g, TRUE);
    g_hash_table_destroy(k.touched);
    g_hash_table_destroy(k.by_line);
    tk_pass_chains_free(k.chains);
    g_array_free(k.groups, TRUE);
    rk->n_passes = (int)n;
    rk->n_changed = k.changed;
    tk_timeline_free(tl);
    return rc;
}

/* Kernels taken in turn by two threads. */
typedef struct {
    tk_report *r;
    gint next;
    tk_timeline_part **parts; /* per kernel, taken by kernel_passes() */
    size_t *n_parts;
    tk_diags **diags; /* per kernel */
    int *rc;          /* per kernel */
} passes_work;

static gpointer passes_worker(gpointer data)
{
    passes_work *pw = data;
    for (;;) {
        gint i = g_atomic_int_add(&pw->next, 1);
        if (i < 0 || (guint)i >= pw->r->kernels->len)
            return NULL;
        tk_report_kernel *rk = &g_array_index(pw->r->kernels, tk_report_kernel, i);
        tk_loctab *tab = tk_loctab_new();
        pw->rc[i] = kernel_passes(pw->r, rk, pw->parts[i], pw->n_parts[i], tab, pw->diags[i]);
        tk_loctab_free(tab);
    }
}

int tk_report_passes_all(tk_report *r)
{
    /* The bundle is asked here, on one thread (indexing the pass files on
     * the first call); the threads only read the indexes it made. */
    guint n = r->kernels->len;
    passes_work pw = {r, 0, g_new0(tk_timeline_part *, n + 1), g_new0(size_t, n + 1),
                      g_new0(tk_diags *, n + 1), g_new0(int, n + 1)};
    for (guint i = 0; i < n; i++) {
        pw.n_parts[i] = tk_timeline_parts_of_kernel(
            r->bundle, g_array_index(r->kernels, tk_report_kernel, i).kernel, &pw.parts[i],
            r->diags);
        pw.diags[i] = tk_diags_new();
    }
    GThread *t = NULL;
    if (n > 1 && g_get_num_processors() > 1)
        t = g_thread_try_new("tkview-passes", passes_worker, &pw, NULL);
    passes_worker(&pw);
    if (t)
        g_thread_join(t);
    int rc = 0;
    for (guint i = 0; i < n; i++) {
        /* the diagnostics in kernel order, whichever thread made them */
        for (size_t j = 0; j < tk_diags_count(pw.diags[i]); j++) {
            const tk_diag *d = tk_diags_get(pw.diags[i], j);
            tk_diags_add(r->diags, d->severity, d->file, d->line, "%s", d->message);
        }
        tk_diags_free(pw.diags[i]);
        if (!rc)
            rc = pw.rc[i];
    }
    g_free(pw.parts);
    g_free(pw.n_parts);
    g_free(pw.diags);
    g_free(pw.rc);
    return rc;
}
