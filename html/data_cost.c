/* data_cost.c - a kernel's cost tables (tk_cost.h) as the report's data:
 * data/ID/cost.js, loaded by assets/cost.js for the heat gutter and the
 * hot lines panel.
 *
 *   {"metrics": [[name, label, "static"|"measured"], ...],
 *    "def": default metric, "stall": [first, count],
 *    "total": V, "noloc": V, "unsplit": n, "tool": "ncu" | null,
 *    "src": [[file, line, exact V, inclusive V, shared V, sites], ...],
 *    "disagree": [[file, line, text], ...]  (the PTX and the SASS line
 *                 table disagree: tk_cost_line_disagreements()),
 *    "stages": {"ttgir": {"line": [group + 1 or 0, per line],
 *                          "groups": [V, ...],  (bound: tk_cost_ir_line())
 *                          "own": [share + 1 or 0, per line],
 *                          "owns": [V, ...],    (tk_cost_ir_line_own())
 *                          "src": [row of "src" + 1 or 0, per line]},
 *               ...},  (SASS lines have no "own": their own is "line")
 *    "regs": the register pressure (data_regs.c)}
 *
 * V is one number per metric, in the metrics' order, its trailing zeros
 * left out (most lines have no tensor, TMA or stall values).  An IR line
 * points at the vector of its distinct set of SASS lines: the browser only
 * looks numbers up.  Written compressed, like the bindings.
 */
#include <string.h>

#include "report.h"
#include "tkdump/tk_cost.h"
#include "tkdump/tk_profile.h"

static void write_number(jw *w, double v)
{
    if (v == (double)(int64_t)v)
        jw_int(w, (int64_t)v);
    else {
        char buf[32];
        g_ascii_formatd(buf, sizeof buf, "%.6g", v);
        GString *g = g_string_new(buf);
        jw_raw(w, g);
        g_string_free(g, TRUE);
    }
}

static void write_vec(jw *w, const double *v, size_t n)
{
    while (n && v[n - 1] == 0)
        n--;
    jw_arr(w);
    for (size_t i = 0; i < n; i++)
        write_number(w, v[i]);
    jw_arr_end(w);
}

typedef const double *(*line_values)(const tk_cost *, tk_stage_kind, uint32_t);

/* KEY: line -> vector index of STAGE by GET, and KEYS: the vectors,
 * deduplicated by their pointer (the cost hands out one per distinct set
 * of SASS lines, and per distinct share). */
static void write_lines(jw *w, const tk_cost *c, tk_stage_kind kind,
                        uint32_t n_lines, size_t nm, line_values get,
                        const char *key, const char *keys)
{
    GHashTable *idx = g_hash_table_new(g_direct_hash, g_direct_equal);
    GPtrArray *order = g_ptr_array_new();
    jw_key(w, key);
    jw_arr(w);
    for (uint32_t l = 1; l <= n_lines; l++) {
        const double *v = get(c, kind, l);
        if (!v) {
            jw_int(w, 0);
            continue;
        }
        gpointer g = g_hash_table_lookup(idx, v);
        if (!g) {
            g_ptr_array_add(order, (gpointer)v);
            g = GUINT_TO_POINTER(order->len);
            g_hash_table_insert(idx, (gpointer)v, g);
        }
        jw_int(w, GPOINTER_TO_UINT(g));
    }
    jw_arr_end(w);
    jw_key(w, keys);
    jw_arr(w);
    for (guint i = 0; i < order->len; i++)
        write_vec(w, order->pdata[i], nm);
    jw_arr_end(w);
    g_ptr_array_free(order, TRUE);
    g_hash_table_destroy(idx);
}

/* A stage's lines: what is bound to each ("line", "groups"), each line's
 * own share ("own", "owns": the heat of an IR pane) and the source line
 * it is code of ("src": its row in the data's "src" + 1, 0 none), all
 * tk_cost.h's. */
static void write_stage(jw *w, const tk_cost *c, tk_stage_kind kind,
                        uint32_t n_lines, size_t nm)
{
    jw_obj(w);
    write_lines(w, c, kind, n_lines, nm, tk_cost_ir_line, "line", "groups");
    if (kind != TK_STAGE_SASS)
        write_lines(w, c, kind, n_lines, nm, tk_cost_ir_line_own, "own",
                    "owns");
    const tk_cost_line *rows;
    tk_cost_source_lines(c, &rows);
    jw_key(w, "src");
    jw_arr(w);
    for (uint32_t l = 1; l <= n_lines; l++) {
        const tk_cost_line *src =
            tk_cost_ir_line(c, kind, l) ? tk_cost_ir_line_source(c, kind, l) : NULL;
        jw_int(w, src ? (int64_t)(src - rows) + 1 : 0);
    }
    jw_arr_end(w);
    jw_obj_end(w);
}

int html_report_cost_data(html_report *r, html_report_kernel *rk, const tk_bind *ix)
{
    const tk_kernel *k = rk->kernel;
    if (!tk_kernel_stage(k, TK_STAGE_SASS))
        return 0;
    tk_loctab *tab = tk_bundle_loctab(r->bundle);
    tk_profile *p = tk_profile_load(k, r->diags);
    tk_cost *c = tk_cost_new(ix, k, tab, p);
    size_t nm = tk_cost_metric_count(c);
    GString *g = g_string_new(NULL);
    jw w;
    jw_init(&w, g);
    jw_obj(&w);
    jw_key(&w, "metrics");
    jw_arr(&w);
    for (size_t m = 0; m < nm; m++) {
        jw_arr(&w);
        jw_str(&w, tk_cost_metric_name(c, m));
        jw_str(&w, tk_cost_metric_label(c, m));
        jw_str(&w, tk_cost_metric_kind(c, m) == TK_METRIC_MEASURED ? "measured"
                                                                   : "static");
        jw_arr_end(&w);
    }
    jw_arr_end(&w);
    jw_key(&w, "def");
    jw_int(&w, (int64_t)tk_cost_default_metric(c));
    size_t first, ns = tk_cost_stall_metrics(c, &first);
    jw_key(&w, "stall");
    jw_arr(&w);
    jw_int(&w, (int64_t)first);
    jw_int(&w, (int64_t)ns);
    jw_arr_end(&w);
    /* The SASS class metrics (1 .. TK_SASS_CLASS_COUNT, tk_cost.h): the
     * tooltip's "SASS:" breakdown, which the spill and live register
     * metrics after them are not. */
    jw_key(&w, "classes");
    jw_arr(&w);
    jw_int(&w, 1);
    jw_int(&w, TK_SASS_CLASS_COUNT);
    jw_arr_end(&w);
    /* The metrics whose values are maxima (live registers), not sums. */
    jw_key(&w, "peak");
    jw_arr(&w);
    for (size_t m = 0; m < nm; m++)
        if (tk_cost_metric_is_peak(c, m))
            jw_int(&w, (int64_t)m);
    jw_arr_end(&w);
    jw_key(&w, "total");
    write_vec(&w, tk_cost_total(c), nm);
    jw_key(&w, "noloc");
    write_vec(&w, tk_cost_no_location(c), nm);
    jw_key(&w, "unsplit");
    jw_int(&w, tk_cost_unsplit_instructions(c));
    jw_key(&w, "tool");
    jw_str(&w, p ? tk_profile_tool(p) : NULL);
    jw_key(&w, "src");
    jw_arr(&w);
    const tk_cost_line *lines;
    size_t n = tk_cost_source_lines(c, &lines);
    for (size_t i = 0; i < n; i++) {
        jw_arr(&w);
        jw_int(&w, lines[i].file);
        jw_int(&w, lines[i].line);
        write_vec(&w, lines[i].exact, nm);
        write_vec(&w, lines[i].inclusive, nm);
        write_vec(&w, lines[i].shared, nm);
        jw_int(&w, lines[i].shared_sites);
        jw_arr_end(&w);
    }
    jw_arr_end(&w);
    jw_key(&w, "disagree");
    jw_arr(&w);
    const tk_cost_disagreement *dis;
    size_t nd = tk_cost_disagreements(c, &dis);
    for (size_t i = 0; i < nd; i++) {
        jw_arr(&w);
        jw_int(&w, dis[i].file);
        jw_int(&w, dis[i].line);
        jw_str(&w, dis[i].text);
        jw_arr_end(&w);
    }
    jw_arr_end(&w);
    jw_key(&w, "stages");
    jw_obj(&w);
    for (int t = 0; t < TK_STAGE_COUNT; t++) {
        const tk_stage *st = tk_kernel_stage(k, (tk_stage_kind)t);
        if (!st)
            continue;
        jw_key(&w, tk_stage_kind_name((tk_stage_kind)t));
        write_stage(&w, c, (tk_stage_kind)t, tk_stage_line_count(st), nm);
    }
    jw_obj_end(&w);
    html_report_regs_data(&w, c, k, ix, tab);
    jw_obj_end(&w);
    char rel[64], key[64];
    g_snprintf(rel, sizeof rel, "data/%s/cost.js", rk->id);
    g_snprintf(key, sizeof key, "%s/cost", rk->id);
    int rc = html_report_put_z(r, rel, key, g); /* taken */
    tk_cost_free(c);
    tk_profile_free(p);
    if (rc == 0)
        rk->cost = TRUE;
    return rc;
}
