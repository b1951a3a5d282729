/* data_compare.c - comparisons of two compilations (tk_compare.h): which
 * pairs the report compares, and each pair's data.
 *
 * Pairs: every two kernels of one name in the bundle (an autotune group;
 * a group of more than GROUP_ALL_PAIRS configurations is compared with its
 * first one only: n (n - 1) / 2 timelines pairs would not be worth it), and
 * each --compare K:K2.  The pairs are chosen before the pass data is made,
 * which keeps the timelines of the kernels in them: a pair's comparison
 * borrows them (tk_compare_build_from()) instead of building them again.
 *
 * data/cNNN/compare.js   the pair: both kernels, the first divergence, the
 *                        aligned rows (each with the diff of the two sides'
 *                        IR after it, as a diff number), the configurations
 *                        side by side, final stages, SASS per source line
 * data/cNNN/sK.js        final stage K (tk_stage_kind) of the two diffed
 *                        whole, where they differ (html_report_diff_json)
 * data/cNNN/dK.js        diff K: the two sides' IR at one point, as change
 *                        groups with 3 lines of context (html_report_diff_json)
 * Rows whose IR is the same on both sides need no diff; a row whose passes
 * changed nothing shares the diff of the row before (the same two texts).
 * The diffs of one pair stop at DIFF_BUDGET bytes of JSON: the rows after
 * that say their diff was left out (tkview compare and the viewer show
 * it).  Every answer is the library's: nothing here compares IR.
 */
#include <string.h>

#include "data_compare_ahead.h"
#include "report.h"
#include "tkdump/tk_compare.h"

#define GROUP_ALL_PAIRS 4
#define DIFF_BUDGET ((gsize)24 << 20)
/* The pass texts kept for the comparisons' row diffs, at most (bytes of
 * line records, tk_timeline_texts_new()): an autotune group's kernels are
 * each a side of several pairs, so each text is read once, not once per
 * pair, while the texts of a pair's rows fit. */
#define COMPARE_TEXTS_BYTES ((size_t)48 << 20)

/* ---- which pairs ------------------------------------------------------------ */

static int index_of(const html_report *r, const tk_kernel *k)
{
    for (guint i = 0; i < r->kernels->len; i++)
        if (g_array_index(r->kernels, html_report_kernel, i).kernel == k)
            return (int)i;
    return -1;
}

/* A page name "cNNN-NAME-HASHA-HASHB.html", from letters, digits, '_'. */
static void page_name(html_report_compare *rc)
{
    GString *s = g_string_new(rc->id);
    g_string_append_c(s, '-');
    size_t n = 0;
    for (const char *p = tk_kernel_name(rc->kernel[0]); *p && n < 48; p++, n++)
        g_string_append_c(s, g_ascii_isalnum(*p) || *p == '_' ? *p : '_');
    for (int k = 0; k < 2; k++) {
        g_string_append_c(s, '-');
        n = 0;
        for (const char *p = tk_kernel_hash(rc->kernel[k]); *p && n < 8; p++, n++)
            g_string_append_c(s, g_ascii_isalnum(*p) ? *p : '_');
    }
    g_string_append(s, ".html");
    g_strlcpy(rc->page, s->str, sizeof rc->page);
    g_string_free(s, TRUE);
}

static void add_pair(html_report *r, tk_bundle *ba, const tk_kernel *ka, tk_bundle *bb,
                     const tk_kernel *kb)
{
    for (guint i = 0; i < r->compares->len; i++) {
        const html_report_compare *c = &g_array_index(r->compares, html_report_compare, i);
        if (c->kernel[0] == ka && c->kernel[1] == kb)
            return;
    }
    html_report_compare rc = {0};
    g_snprintf(rc.id, sizeof rc.id, "c%03u", r->compares->len + 1);
    rc.bundle[0] = ba;
    rc.bundle[1] = bb;
    rc.kernel[0] = ka;
    rc.kernel[1] = kb;
    rc.index[0] = index_of(r, ka);
    rc.index[1] = bb == r->bundle ? index_of(r, kb) : -1;
    rc.first_row = -1;
    page_name(&rc);
    g_array_append_val(r->compares, rc);
}

/* Why SPEC names no pair: no ':' at all, or the side that names no
 * kernel (at the first ':'), with how many kernels that side has and
 * where to see them ("no kernel 1: PATH has 1 kernel, index 0 ..."). */
static void explicit_pair_refused(html_report *r, tk_bundle *other, const char *spec)
{
    const char *c = strchr(spec, ':');
    if (!c) {
        tk_diags_add(r->diags, TK_DIAG_ERROR, "--compare", 0,
                     "%s: wants K:K2, two kernels (name, hash prefix, name:hash or "
                     "index; tkview info lists them)", spec);
        return;
    }
    char *left = g_strndup(spec, (gsize)(c - spec));
    gboolean left_ok = tk_bundle_find_kernel(r->bundle, left, NULL) != NULL;
    const char *name = left_ok ? c + 1 : left;
    tk_bundle *b = left_ok ? other : r->bundle;
    size_t n = tk_bundle_kernel_count(b);
    char *range = n == 1 ? g_strdup("index 0") : g_strdup_printf("indices 0-%zu", n ? n - 1 : 0);
    tk_diags_add(r->diags, TK_DIAG_ERROR, "--compare", 0,
                 "%s: no kernel \"%s\" in %s: it has %zu kernel%s (%s; "
                 "tkview info %s lists them by name and hash)%s",
                 spec, name, tk_bundle_path(b), n, n == 1 ? "" : "s", range,
                 tk_bundle_path(b),
                 n == 1 && b == other && other == r->bundle
                     ? "; to compare two compiles, give the other bundle as PATH_B"
                     : "");
    g_free(range);
    g_free(left);
}

/* "K:K2": K names a kernel of the bundle, K2 one of OTHER.  A kernel spec
 * may itself be "name:hash", so each ':' is tried; exactly one split must
 * name one kernel on each side. */
static int explicit_pair(html_report *r, const char *spec)
{
    tk_bundle *other = r->opts->other ? r->opts->other : r->bundle;
    const tk_kernel *found[2] = {NULL, NULL};
    int splits = 0;
    for (const char *c = strchr(spec, ':'); c; c = strchr(c + 1, ':')) {
        char *left = g_strndup(spec, (gsize)(c - spec));
        const tk_kernel *a = tk_bundle_find_kernel(r->bundle, left, NULL);
        const tk_kernel *b = tk_bundle_find_kernel(other, c + 1, NULL);
        g_free(left);
        if (a && b) {
            found[0] = a;
            found[1] = b;
            splits++;
        }
    }
    if (splits > 1) {
        tk_diags_add(r->diags, TK_DIAG_ERROR, "--compare", 0,
                     "%s: names kernels in more than one way; give hash "
                     "prefixes or indices (tkview info lists them)", spec);
        return -1;
    }
    if (splits == 0) {
        explicit_pair_refused(r, other, spec);
        return -1;
    }
    add_pair(r, r->bundle, found[0], other, found[1]);
    return 0;
}

static void group_pairs(html_report *r)
{
    guint n = r->kernels->len;
    gboolean *seen = g_new0(gboolean, n ? n : 1);
    for (guint i = 0; i < n; i++) {
        if (seen[i])
            continue;
        const tk_kernel *ki = g_array_index(r->kernels, html_report_kernel, i).kernel;
        GArray *group = g_array_new(FALSE, FALSE, sizeof(guint));
        for (guint j = i; j < n; j++) {
            const tk_kernel *kj = g_array_index(r->kernels, html_report_kernel, j).kernel;
            if (strcmp(tk_kernel_name(ki), tk_kernel_name(kj)) == 0) {
                g_array_append_val(group, j);
                seen[j] = TRUE;
            }
        }
        for (guint a = 0; a < group->len; a++)
            for (guint b = a + 1; b < group->len; b++) {
                if (group->len > GROUP_ALL_PAIRS && a > 0)
                    break;
                add_pair(r, r->bundle,
                         g_array_index(r->kernels, html_report_kernel,
                                       g_array_index(group, guint, a)).kernel,
                         r->bundle,
                         g_array_index(r->kernels, html_report_kernel,
                                       g_array_index(group, guint, b)).kernel);
            }
        g_array_free(group, TRUE);
    }
    g_free(seen);
}

/* ---- one pair's data -------------------------------------------------------- */

typedef struct {
    html_report *r;
    const html_report_compare *rc;
    tk_compare *cmp;
    int64_t last;      /* the diff of the row before, -1 none */
    guint n_diffs;
    gsize spent;
    gboolean over;     /* DIFF_BUDGET reached */
    html_compare_ahead *ahead; /* the row diffs made ahead, NULL: none */
    tk_timeline_texts *texts;  /* the report's (html_report_compares()) */
} pair_writer;

static void write_side(jw *w, const html_report *r, const html_report_compare *rc,
                       const tk_compare *cmp, int s)
{
    const tk_kernel *k = rc->kernel[s];
    const tk_timeline *tl = tk_compare_timeline(cmp, s);
    jw_obj(w);
    jw_key(w, "kernel");
    jw_str(w, tk_kernel_name(k));
    jw_key(w, "hash");
    jw_str(w, tk_kernel_hash(k));
    jw_key(w, "input");
    jw_str(w, tk_bundle_path(rc->bundle[s]));
    jw_key(w, "page");
    if (rc->index[s] >= 0)
        jw_str(w, g_array_index(r->kernels, html_report_kernel, rc->index[s]).page);
    else
        jw_null(w);
    jw_key(w, "passes");
    jw_int(w, tl ? (int64_t)tk_timeline_count(tl) : -1);
    jw_obj_end(w);
}

static void write_config(jw *w, tk_compare *cmp)
{
    const tk_config *c[2] = {tk_compare_config(cmp, 0), tk_compare_config(cmp, 1)};
    jw_arr(w);
    for (int s = 0; s < 2; s++)
        for (size_t i = 0; i < tk_config_count(c[s]); i++) {
            const tk_config_item *it = tk_config_get(c[s], i);
            const tk_config_item *o = tk_config_find(c[!s], it->name);
            if (s == 1 && o)
                continue;
            const tk_config_item *a = s ? o : it, *b = s ? it : o;
            jw_obj(w);
            jw_key(w, "name");
            jw_str(w, it->name);
            jw_key(w, "origin");
            jw_str(w, tk_config_origin_name(it->origin));
            jw_key(w, "a");
            jw_str(w, a ? a->value : NULL);
            jw_key(w, "b");
            jw_str(w, b ? b->value : NULL);
            jw_obj_end(w);
        }
    jw_arr_end(w);
}

static void write_entry(jw *w, const tk_compare *cmp, const tk_compare_row *row, int s)
{
    if (row->pass[s] == TK_COMPARE_NONE) {
        jw_null(w);
        return;
    }
    const tk_timeline_entry *e = tk_timeline_get(tk_compare_timeline(cmp, s), row->pass[s]);
    jw_obj(w);
    jw_key(w, "i");
    jw_int(w, (int64_t)row->pass[s]);
    jw_key(w, "effect");
    jw_str(w, tk_effect_name(e->effect));
    jw_key(w, "added");
    jw_int(w, e->added);
    jw_key(w, "removed");
    jw_int(w, e->removed);
    jw_obj_end(w);
}

/* The diff of the two sides' IR at row I (WHICH), written once per pair of
 * texts; its number, or -1 with the reason in *WHY (left out past the
 * budget, or no text on a side). */
static int64_t row_diff(pair_writer *pw, size_t i, tk_timeline_point which, const char **why)
{
    const tk_compare_row *row = tk_compare_row_get(pw->cmp, i);
    if (which == TK_TL_OUTPUT && i > 0 && pw->last >= 0 && html_compare_row_unchanged(pw->cmp, row))
        return pw->last; /* the same two texts as the row before */
    if (pw->over) {
        *why = "left out: the report stores at most 24 MiB of diffs per comparison "
               "(tkview compare and the viewer show it)";
        return -1;
    }
    GString *g = pw->ahead ? html_compare_ahead_take(pw->ahead, i, which)
                           : html_compare_row_json(pw->cmp, pw->texts, i, which);
    if (!g) {
        *why = "no text to compare here on one side";
        return -1;
    }
    int64_t n = pw->n_diffs++;
    char rel[64], dkey[64];
    g_snprintf(rel, sizeof rel, "data/%s/d%" G_GINT64_FORMAT ".js", pw->rc->id, (gint64)n);
    g_snprintf(dkey, sizeof dkey, "%s/d%" G_GINT64_FORMAT, pw->rc->id, (gint64)n);
    pw->spent += g->len;
    if (pw->spent > DIFF_BUDGET) {
        pw->over = TRUE;
        html_compare_ahead_free(pw->ahead); /* what it made after this is left out */
        pw->ahead = NULL;
    }
    html_report_put_z(pw->r, rel, dkey, g); /* taken */
    return n;
}

static void write_diff_ref(pair_writer *pw, jw *w, const char *member, size_t i,
                           tk_timeline_point which, tk_compare_verdict v)
{
    jw_key(w, member);
    int64_t n = -1;
    if (v == TK_COMPARE_SAME) {
        jw_str(w, "same");
    } else {
        const char *why = NULL;
        n = row_diff(pw, i, which, &why);
        if (n >= 0)
            jw_int(w, n);
        else
            jw_str(w, why);
    }
    if (which == TK_TL_OUTPUT)
        pw->last = n;
}

static void write_rows(pair_writer *pw, jw *w)
{
    tk_compare *cmp = pw->cmp;
    jw_arr(w);
    for (size_t i = 0; i < tk_compare_row_count(cmp); i++) {
        const tk_compare_row *row = tk_compare_row_get(cmp, i);
        jw_obj(w);
        jw_key(w, "align");
        jw_str(w, tk_compare_align_name(row->align));
        jw_key(w, "pass");
        jw_str(w, row->name);
        jw_key(w, "arg");
        jw_str(w, row->arg);
        jw_key(w, "level");
        jw_str(w, tk_pass_level_name(row->level));
        jw_key(w, "input");
        jw_str(w, tk_compare_verdict_name(row->input));
        jw_key(w, "output");
        jw_str(w, tk_compare_verdict_name(row->output));
        jw_key(w, "effect");
        jw_str(w, tk_compare_verdict_name(row->effect));
        jw_key(w, "a");
        write_entry(w, cmp, row, 0);
        jw_key(w, "b");
        write_entry(w, cmp, row, 1);
        /* "d": the diff of the IR after the row (a number), "same", or why
         * there is none; the first row also has "din", the IR before it. */
        write_diff_ref(pw, w, "d", i, TK_TL_OUTPUT, row->output);
        if (i == 0)
            write_diff_ref(pw, w, "din", i, TK_TL_INPUT, row->input);
        jw_obj_end(w);
    }
    jw_arr_end(w);
}

/* Final stage KIND of both sides diffed whole (tk_ir_diff_stages(): PTX
 * and SASS registers renamed by first use, as `tkview diff` shows it) as
 * data/cNNN/sK.js; 0, or -1 when it was not written. */
static int stage_diff(pair_writer *pw, tk_stage_kind kind)
{
    const tk_stage *a = tk_kernel_stage(pw->rc->kernel[0], kind);
    const tk_stage *b = tk_kernel_stage(pw->rc->kernel[1], kind);
    tk_ir_diff *diff = a && b ? tk_ir_diff_stages(a, b, NULL) : NULL;
    if (!diff)
        return -1;
    GString *g = g_string_new(NULL);
    jw w;
    jw_init(&w, g);
    html_report_diff_json(NULL, diff, NULL, &w);
    tk_ir_diff_free(diff);
    char rel[64], key[64];
    g_snprintf(rel, sizeof rel, "data/%s/s%d.js", pw->rc->id, (int)kind);
    g_snprintf(key, sizeof key, "%s/s%d", pw->rc->id, (int)kind);
    return html_report_put_z(pw->r, rel, key, g) ? -1 : 0; /* taken */
}

/* "diff": K of data/cNNN/sK.js where the stage differs on two sides. */
static void write_stages(pair_writer *pw, jw *w, const tk_compare *cmp)
{
    jw_arr(w);
    for (int k = 0; k < TK_STAGE_COUNT; k++) {
        const tk_compare_stage *st = tk_compare_final_stage(cmp, (tk_stage_kind)k);
        if (!st->have[0] && !st->have[1])
            continue;
        jw_obj(w);
        jw_key(w, "stage");
        jw_str(w, tk_stage_kind_label((tk_stage_kind)k));
        jw_key(w, "a");
        jw_bool(w, st->have[0]);
        jw_key(w, "b");
        jw_bool(w, st->have[1]);
        jw_key(w, "verdict");
        jw_str(w, tk_compare_verdict_name(st->verdict));
        jw_key(w, "added");
        jw_int(w, st->stats.added);
        jw_key(w, "removed");
        jw_int(w, st->stats.removed);
        jw_key(w, "kind");
        jw_str(w, tk_stage_kind_name((tk_stage_kind)k));
        if (st->verdict == TK_COMPARE_DIFFERENT && stage_diff(pw, (tk_stage_kind)k) == 0) {
            jw_key(w, "diff");
            jw_int(w, k);
        }
        jw_obj_end(w);
    }
    jw_arr_end(w);
}

static void write_lines(jw *w, tk_compare *cmp)
{
    size_t n;
    const tk_compare_line *l = tk_compare_lines(cmp, &n);
    /* [file, line, sass A, sass B, with what it called A, B] */
    jw_arr(w);
    for (size_t i = 0; i < n; i++) {
        jw_arr(w);
        jw_str(w, l[i].file);
        jw_int(w, l[i].line);
        jw_int(w, l[i].sass[0]);
        jw_int(w, l[i].sass[1]);
        jw_int(w, l[i].sass_called[0]);
        jw_int(w, l[i].sass_called[1]);
        jw_arr_end(w);
    }
    jw_arr_end(w);
}

/* One pair's data and page.  Its row diffs are made by several threads
 * at once (data_compare_ahead.h), which only read the pair's comparison,
 * the bundles, their pass indexes and stages (all made before); what may
 * report to r->diags (making its folder, writing a file whole, its page)
 * holds r->lock. */
static int write_pair(html_report *r, html_report_compare *rc, tk_timeline_texts *texts)
{
    char dir[32];
    g_snprintf(dir, sizeof dir, "data/%s", rc->id);
    g_mutex_lock(&r->lock);
    int made = html_outdir_mkdir(r->out, dir, r->diags);
    g_mutex_unlock(&r->lock);
    if (made)
        return -1;
    tk_compare_opts opts = {0};
    if (r->opts->no_passes)
        opts.flags |= TK_COMPARE_NO_PASSES;
    tk_diags *notes = tk_diags_new();
    /* The timelines the pass data kept (read only here, lent to every
     * pair of the kernel at once); a kernel of the other bundle has none. */
    const tk_timeline *tl[2] = {NULL, NULL};
    const tk_compare_digests *dig[2] = {NULL, NULL};
    for (int s = 0; s < 2; s++)
        if (rc->index[s] >= 0) {
            const html_report_kernel *rk =
                &g_array_index(r->kernels, html_report_kernel, rc->index[s]);
            tl[s] = rk->tl;
            dig[s] = rk->dig;
        }
    tk_compare *cmp = tk_compare_build_from(rc->bundle[0], rc->kernel[0], tl[0], dig[0],
                                            rc->bundle[1], rc->kernel[1], tl[1], dig[1], &opts,
                                            notes);
    tk_diags_free(notes); /* "no pass dumps" is said on the page */
    size_t unknown;
    size_t first = tk_compare_first_divergence(cmp, &unknown);
    if (first != TK_COMPARE_NONE) {
        rc->first_row = (int)first;
        g_strlcpy(rc->first_pass, tk_compare_row_get(cmp, first)->name, sizeof rc->first_pass);
    }
    /* the row diffs, made on the other cores while the final stages are */
    pair_writer pw = {r, rc, cmp, -1, 0, 0, FALSE, html_compare_ahead_start(cmp, texts), texts};
    GString *g = g_string_new(NULL);
    jw w;
    jw_init(&w, g);
    jw_obj(&w);
    jw_key(&w, "a");
    write_side(&w, r, rc, cmp, 0);
    jw_key(&w, "b");
    write_side(&w, r, rc, cmp, 1);
    jw_key(&w, "first");
    if (first == TK_COMPARE_NONE)
        jw_null(&w);
    else
        jw_int(&w, (int64_t)first);
    jw_key(&w, "unknown_before");
    jw_int(&w, (int64_t)unknown);
    jw_key(&w, "passes_compared");
    jw_bool(&w, tk_compare_timeline(cmp, 0) && tk_compare_timeline(cmp, 1));
    jw_key(&w, "config");
    write_config(&w, cmp);
    jw_key(&w, "stages");
    write_stages(&pw, &w, cmp);
    jw_key(&w, "rows");
    write_rows(&pw, &w);
    jw_key(&w, "lines");
    write_lines(&w, cmp);
    jw_obj_end(&w);
    char rel[64], key[64];
    g_snprintf(rel, sizeof rel, "data/%s/compare.js", rc->id);
    g_snprintf(key, sizeof key, "%s/compare", rc->id);
    html_compare_ahead_free(pw.ahead);
    tk_compare_free(cmp);
    g_mutex_lock(&r->lock);
    int ret = html_report_put(r, rel, key, g);
    if (!ret)
        ret = html_report_compare_write(r, rc);
    g_mutex_unlock(&r->lock);
    g_string_free(g, TRUE);
    return ret;
}

int html_report_compare_pairs(html_report *r)
{
    for (size_t i = 0; r->opts->compare && r->opts->compare[i]; i++)
        if (explicit_pair(r, r->opts->compare[i]))
            return -1;
    group_pairs(r);
    for (guint i = 0; i < r->compares->len; i++) {
        const html_report_compare *rc = &g_array_index(r->compares, html_report_compare, i);
        for (int s = 0; s < 2; s++)
            if (rc->index[s] >= 0)
                g_array_index(r->kernels, html_report_kernel, rc->index[s]).in_pair = TRUE;
    }
    return 0;
}

/* Whether a pair from FIRST on has kernel K of the report. */
static gboolean in_pair_from(const html_report *r, guint first, guint k)
{
    for (guint j = first; j < r->compares->len; j++) {
        const html_report_compare *c = &g_array_index(r->compares, html_report_compare, j);
        if (c->index[0] == (int)k || c->index[1] == (int)k)
            return TRUE;
    }
    return FALSE;
}

/* Before pair I: the texts a kernel's timeline (the pass data's) reads
 * are kept while a pair after I has it; those of a kernel no pair from I
 * on has go. */
static void keep_texts(html_report *r, tk_timeline_texts *texts, guint i)
{
    for (guint k = 0; k < r->kernels->len; k++) {
        const html_report_kernel *rk = &g_array_index(r->kernels, html_report_kernel, k);
        if (!rk->tl)
            continue;
        if (in_pair_from(r, i + 1, k))
            tk_timeline_texts_keep(texts, rk->tl, 1);
        else if (!in_pair_from(r, i, k))
            tk_timeline_texts_keep(texts, rk->tl, 0);
    }
}

int html_report_compares(html_report *r)
{
    /* One pair at a time, each on every core (data_compare_ahead.h): a
     * pair's rows are more even work than pairs are (autotuned_matmul's
     * three pairs on two cores left one alone).  Their timelines are the
     * pass data's (html_report_compare_pairs() had them kept). */
    tk_timeline_texts *texts = tk_timeline_texts_new(COMPARE_TEXTS_BYTES);
    int ret = 0;
    for (guint i = 0; i < r->compares->len && !ret; i++) {
        html_report_compare *rc = &g_array_index(r->compares, html_report_compare, i);
        keep_texts(r, texts, i);
        ret = write_pair(r, rc, texts);
    }
    tk_timeline_texts_free(texts);
    return ret;
}
