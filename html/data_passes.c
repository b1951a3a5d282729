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
 * data/ID/pb-N.js        the diff of pass N, which is over the budget for
 *                        one pass (pass_budget.h): cut, in a file of its own
 * data/ID/pl-L.js        the diff over a whole level that no chain holds
 *                        (its first pass's input to its last pass's output)
 * data/ID/pa-N.js        the IR after pass N, which has nothing comparable
 *                        before it, when no chain starts from it
 *                        (data_passes_after.c)
 * Only changed lines and their context (or a chain's first text) are
 * stored, never a copy of a dump per pass, and of each pass at most its
 * budget (pass_budget.h): the report grows with what the passes changed,
 * up to what a page can show.  The diffs, counts and stacks are the library's, handed
 * out while the timeline is built (tk_timeline_build_steps()): each pass is
 * read, normalized and diffed once, and nothing here compares IR.  A diff's
 * rows are written by data_diff.c; the kernels are shared between two
 * threads by data_passes_plan.c.
 */
#include <stdlib.h>
#include <string.h>

#include "data_diff.h"
#include "data_passes.h"
#include "pass_budget.h"
#include "pass_chain.h"
#include "report.h"
#include "tkdump/tk_compare.h"
#include "tkdump/tk_passes.h"
#include "tkdump/tk_timeline.h"

/* What passes.js says of a pass's stored diff beyond its entry. */
typedef struct {
    uint64_t cut; /* lines of its stored diff left out */
    gboolean big; /* kept out of chains by the budget (pass_budget.h) */
    gboolean own; /* its diff is a file of its own, pb-N.js */
    guint32 subs; /* bit J: sub-step J's diff stored, ps-N-J.js */
} pass_note;

/* Writes G (taken) as data/ID/WHAT.js. */
static int put_data(html_report *r, html_report_kernel *rk, const char *what, GString *g)
{
    char rel[64], key[64];
    g_snprintf(rel, sizeof rel, "data/%s/%s.js", rk->id, what);
    g_snprintf(key, sizeof key, "%s/%s", rk->id, what);
    return html_report_put_z(r, rel, key, g);
}

static void write_entry(jw *w, const tk_timeline *tl, size_t i, ptrdiff_t chain,
                        const pass_note *note, const html_pass_afters *afters)
{
    const tk_timeline_entry *e = tk_timeline_get(tl, i);
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
        jw_key(w, "sentence"); /* the library's words, as every front end says them */
        jw_str(w, tk_unknown_why_sentence(e->why));
    }
    html_pass_afters_json(afters, i, w);
    if (tk_timeline_entry_note(e)) {
        jw_key(w, "note"); /* the library's words, as the CLI prints them */
        jw_str(w, tk_timeline_entry_note(e));
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
    if (note && note->cut) {
        jw_key(w, "cut");
        jw_int(w, note->cut);
    }
    if (note && note->big) {
        jw_key(w, "big");
        jw_int(w, 1);
    }
    if (note && note->own) {
        jw_key(w, "pb");
        jw_int(w, 1);
    }
    if (e->n_substeps) {
        /* its sub-steps, numbered J as `tkview passes` numbers them N.J;
         * "ps": 1 when the diff is stored (ps-N-J.js) */
        jw_key(w, "subs");
        jw_arr(w);
        for (size_t j = 0; j < e->n_substeps; j++) {
            const tk_timeline_entry *s = tk_timeline_substep(tl, i, j);
            if (!s)
                continue;
            jw_obj(w);
            jw_key(w, "pass");
            jw_str(w, s->pass);
            jw_key(w, "arg");
            jw_str(w, s->arg);
            jw_key(w, "effect");
            jw_str(w, tk_effect_name(s->effect));
            if (s->effect == TK_EFFECT_UNKNOWN) {
                jw_key(w, "why");
                jw_str(w, tk_unknown_why_name(s->why));
                jw_key(w, "sentence");
                jw_str(w, tk_unknown_why_sentence(s->why));
            }
            if (tk_timeline_entry_note(s)) {
                jw_key(w, "note"); /* the library's words, as the CLI prints them */
                jw_str(w, tk_timeline_entry_note(s));
            }
            jw_key(w, "added");
            jw_int(w, s->added);
            jw_key(w, "removed");
            jw_int(w, s->removed);
            char *sb = tk_timeline_side_describe(tl, &s->before);
            char *sa = tk_timeline_side_describe(tl, &s->after);
            jw_key(w, "before");
            jw_str(w, sb);
            jw_key(w, "after");
            jw_str(w, sa);
            g_free(sb);
            g_free(sa);
            if (note && j < 32 && (note->subs & (1u << j))) {
                jw_key(w, "ps");
                jw_int(w, 1);
            }
            jw_obj_end(w);
        }
        jw_arr_end(w);
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
    html_report *r;
    html_report_kernel *rk;
    tk_loctab *tab;      /* this kernel's own: where changed lines are bound */
    html_report_locs *locs; /* what stored diffs' lines name (data_locs.h) */
    html_report_lays *lays; /* the layouts of their lines (data_layouts.h) */
    html_pass_chains *chains;
    html_pass_afters *afters; /* where the IR after unknown passes is */
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
    GArray *notes;  /* pass_note per pass, as far as any was noted */
} pass_sink;

static pass_note *note_of(pass_sink *k, size_t pass)
{
    if (pass >= k->notes->len)
        g_array_set_size(k->notes, (guint)pass + 1);
    return &g_array_index(k->notes, pass_note, pass);
}

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
    int rc = put_data(k->r, k->rk, what, k->group); /* taken */
    k->group = g_string_new(NULL);
    if (rc && !k->rc)
        k->rc = rc;
    g_array_append_val(k->groups, k->level_from);
}

/* Pass PASS's diff D, within the budget, into its level's pd file. */
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
    html_diff_json(k->tab, k->locs, k->lays, d, k->touched, &k->gw);
}

/* The diff of a pass over the budget (its diff, or its text for a chain),
 * cut, as data/ID/pb-PASS.js: up to the budget's megabytes each, such
 * diffs are loaded one at a time. */
static void own_diff(pass_sink *k, size_t pass, tk_ir_diff *d)
{
    GString *g = g_string_new(NULL);
    jw w;
    jw_init(&w, g);
    uint64_t cut = html_diff_json(k->tab, k->locs, k->lays, d, k->touched, &w);
    char what[32];
    g_snprintf(what, sizeof what, "pb-%zu", pass);
    int rc = put_data(k->r, k->rk, what, g);
    if (rc && !k->rc)
        k->rc = rc;
    pass_note *note = note_of(k, pass);
    note->cut = cut;
    note->own = TRUE;
}

static int on_step(const tk_timeline *tl, const tk_timeline_step *st, void *user)
{
    pass_sink *k = user;
    tk_compare_digests_step(k->rk->dig, st); /* NULL: not in a pair */
    if (st->substep != TK_TL_NONE) {
        /* A sub-step (SoftwarePipeliner's LowerLoops, ExpandLoops): its
         * diff in a file of its own, as `tkview diff --pass N.J` shows it;
         * no chain (its texts are Triton's own dumps, not the pass's). */
        if (st->entry->effect == TK_EFFECT_CHANGED && st->diff && st->substep < 32) {
            GString *g = g_string_new(NULL);
            jw w;
            jw_init(&w, g);
            html_diff_json(k->tab, k->locs, k->lays, st->diff, NULL, &w);
            char what[48];
            g_snprintf(what, sizeof what, "ps-%zu-%zu", st->pass, st->substep);
            int rc = put_data(k->r, k->rk, what, g);
            if (rc && !k->rc)
                k->rc = rc;
            note_of(k, st->pass)->subs |= 1u << st->substep;
        }
        return k->rc;
    }
    /* A level's stored diffs are grouped as its passes are listed: a run
     * of passes of the level, a converting pass on its own
     * (tk_timeline_starts_level()). */
    if (tk_timeline_starts_level(tl, st->pass) || st->entry->level != k->level) {
        flush_group(k);
        k->level = st->entry->level;
        k->level_from = st->pass;
    }
    /* Where each line of the texts comes from in the source, for the
     * chain's lines and the stored diffs (data_locs.h): read once per
     * text by the timeline's walker. */
    if (st->diff)
        tk_ir_diff_bind(st->diff, k->tab, NULL);
    html_pass_afters_step(k->afters, st);
    html_pass_chain_verdict v = html_pass_chains_step(k->chains, st);
    if (v == HTML_CHAIN_OVER_BUDGET)
        note_of(k, st->pass)->big = TRUE;
    if (st->entry->effect != TK_EFFECT_CHANGED || !st->diff)
        return k->rc;
    k->changed++;
    g_hash_table_remove_all(k->touched);
    if (v == HTML_CHAIN_IN)
        html_diff_touch_changed(k->tab, st->diff, k->touched);
    else if (v == HTML_CHAIN_OVER_BUDGET || html_diff_over_budget(st->diff))
        own_diff(k, st->pass, st->diff);
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
static int write_level(html_report *r, html_report_kernel *rk, const tk_timeline *tl,
                       const pass_sink *k, size_t i, size_t j, jw *w)
{
    const html_pass_chains *chains = k->chains;
    tk_pass_level lv = tk_timeline_get(tl, i)->level;
    jw_obj(w);
    jw_key(w, "level");
    jw_str(w, tk_pass_level_name(lv));
    /* which IR its texts are: the page colours them by it */
    jw_key(w, "dialect");
    jw_str(w, tk_ir_dialect_name(tk_pass_level_dialect(lv)));
    /* a converting pass, a step of its own: the level it leaves */
    tk_pass_level into = tk_timeline_level_after(tl, j);
    if (into != lv) {
        jw_key(w, "into");
        jw_str(w, tk_pass_level_name(into));
    }
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
        ptrdiff_t c = html_pass_chains_of(chains, p);
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
            html_diff_json(k->tab, k->locs, k->lays, d, NULL, &dw);
            rc = put_data(r, rk, what, g);
            tk_ir_diff_free(d);
            jw_key(w, "diff");
            jw_str(w, what);
        }
    }
    jw_obj_end(w);
    return rc;
}

/* The commands that show all of a pass's diff: `tkview diff PATH --kernel
 * K` (less its `--pass N`) into *SEE, the desktop viewer `tkview PATH` into
 * *VIEW; PATH as the report was made from (quoted for a shell when it must
 * be), K the kernel's name and hash prefix when they need no quoting, else
 * its index.  Caller frees both. */
static void see_commands(html_report *r, const html_report_kernel *rk, char **see, char **view)
{
    const tk_kernel *kern = rk->kernel;
    const char *name = tk_kernel_name(kern), *hash = tk_kernel_hash(kern);
    gboolean plain = name[0] != 0;
    for (const char *p = name; *p; p++)
        plain &= g_ascii_isalnum(*p) || *p == '_' || *p == '.' || *p == '-';
    char *kspec = plain && hash && hash[0] ? g_strdup_printf("%s:%.12s", name, hash)
                                           : g_strdup_printf("%u", (unsigned)(atoi(rk->id + 1) - 1));
    const char *path = tk_bundle_path(r->bundle);
    gboolean quote = FALSE;
    for (const char *p = path; *p; p++)
        quote |= !(g_ascii_isalnum(*p) || strchr("/._-+,:@%", *p));
    char *q = quote ? g_shell_quote(path) : g_strdup(path);
    *see = g_strdup_printf("tkview diff %s --kernel %s", q, kspec);
    *view = g_strdup_printf("tkview %s", q);
    g_free(q);
    g_free(kspec);
}

/* Kernel RK's pass data from its N_PARTS PARTS (taken), its changed lines
 * bound in TAB,
 * problems to DIAGS.  No bundle call but the location table's (under
 * R->lock): the pass indexes are only read (pread), the kernel's stages
 * too, so two kernels can be done at the same time (tk_bundle.h). */
int html_kernel_passes(html_report *r, html_report_kernel *rk, tk_timeline_part *parts,
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
        .locs = html_report_locs_new(r, tab),
        .lays = html_report_lays_new(),
        .chains = html_pass_chains_new(r, rk, tab),
        .afters = html_pass_afters_new(),
        .touched = g_hash_table_new_full(u64_hash, u64_equal, g_free, NULL),
        .by_line = g_hash_table_new_full(u64_hash, u64_equal, g_free,
                                         (GDestroyNotify)g_array_unref),
        .group = g_string_new(NULL),
        .groups = g_array_new(FALSE, FALSE, sizeof(size_t)),
        .notes = g_array_new(FALSE, TRUE, sizeof(pass_note)),
    };
    /* Whole modules for LLVM IR and machine code, so that their passes
     * chain as MLIR passes do (any two of a level can be composed). */
    tk_timeline_opts opts = {.flags = TK_TIMELINE_WHOLE_UNITS};
    /* A kernel in a comparison: the digests it needs, as the timeline goes
     * by (built as tk_compare_build() builds it: whole units, histogram). */
    if (rk->in_pair)
        rk->dig = tk_compare_digests_new();
    tk_timeline *tl = tk_timeline_build_steps(parts, n_parts, rk->kernel, &opts, on_step, &k,
                                              diags);
    g_free(parts);
    flush_group(&k);
    int rc = k.rc;
    int rc2 = html_pass_chains_finish(k.chains);
    if (!rc)
        rc = rc2;
    g_string_free(k.group, TRUE);
    if (!tl) {
        html_report_locs_free(k.locs);
        html_report_lays_free(k.lays);
        html_pass_chains_free(k.chains);
        html_pass_afters_free(k.afters);
        g_hash_table_destroy(k.touched);
        g_hash_table_destroy(k.by_line);
        g_array_free(k.groups, TRUE);
        g_array_free(k.notes, TRUE);
        return rc;
    }
    size_t n = tk_timeline_count(tl);
    if (!rc)
        rc = html_pass_afters_place(k.afters, r, rk, tl, k.chains, tab);
    GString *g = g_string_new(NULL);
    jw w;
    jw_init(&w, g);
    jw_obj(&w);
    jw_key(&w, "diffs");
    jw_obj(&w);
    jw_key(&w, "context");
    jw_int(&w, HTML_DIFF_CONTEXT);
    jw_key(&w, "maxLines");
    jw_int(&w, HTML_PASS_BUDGET_LINES);
    jw_key(&w, "maxBytes");
    jw_int(&w, (int64_t)HTML_PASS_BUDGET_BYTES);
    char *see, *view;
    see_commands(r, rk, &see, &view);
    jw_key(&w, "see");
    jw_str(&w, see);
    jw_key(&w, "view");
    jw_str(&w, view);
    g_free(see);
    g_free(view);
    jw_obj_end(&w);
    jw_key(&w, "chains");
    jw_arr(&w);
    for (size_t c = 0; c < html_pass_chains_count(k.chains); c++) {
        size_t from, to;
        html_pass_chains_range(k.chains, c, &from, &to);
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
        while (j + 1 < n && !tk_timeline_starts_level(tl, j + 1))
            j++;
        rc = write_level(r, rk, tl, &k, i, j, &w);
        i = j + 1;
    }
    jw_arr_end(&w);
    jw_key(&w, "passes");
    jw_arr(&w);
    for (size_t i = 0; i < n; i++)
        write_entry(&w, tl, i, html_pass_chains_of(k.chains, i),
                    i < k.notes->len ? &g_array_index(k.notes, pass_note, i) : NULL, k.afters);
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
        jw_int(&w, html_report_global_file(r, tab, (tk_file_id)(kk >> 32)));
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
        rc = html_report_put_z(r, rel, k2, g); /* taken */
    } else
        g_string_free(g, TRUE);
    g_hash_table_destroy(k.touched);
    g_hash_table_destroy(k.by_line);
    html_report_locs_free(k.locs);
    html_report_lays_free(k.lays);
    html_pass_chains_free(k.chains);
    html_pass_afters_free(k.afters);
    g_array_free(k.groups, TRUE);
    g_array_free(k.notes, TRUE);
    rk->n_passes = (int)n;
    rk->n_changed = k.changed;
    html_report_diag_steps(r, rk, tl);
    if (rk->in_pair)
        rk->tl = tl; /* the comparisons' (freed with the report) */
    else
        tk_timeline_free(tl);
    return rc;
}
