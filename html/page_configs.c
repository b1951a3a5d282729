/* page_configs.c - configs.html: every compile of a kernel side by side,
 * the table `tkview configs` prints (tk_configs.h: a row per compile, the
 * winner marked, each row's first divergence from the winner) and the
 * source line x compile matrix of SASS instructions, cells that differ
 * from the winner's (or the first compile's, without timings) marked.
 * A static page: every number is the library's, written here as text. */
#include <string.h>

#include "page.h"
#include "report.h"
#include "tkdump/tk_configs.h"

static void num(xmlNodePtr tr, int64_t v, const char *cls)
{
    char buf[32];
    if (v < 0)
        g_strlcpy(buf, "-", sizeof buf);
    else
        g_snprintf(buf, sizeof buf, "%" G_GINT64_FORMAT, (gint64)v);
    html_el(tr, "td", cls ? cls : "num", buf);
}

/* The kernel page of kernel KI of the bundle. */
static const char *page_of(const html_report *r, size_t ki)
{
    return ki < r->kernels->len ? g_array_index(r->kernels, html_report_kernel, ki).page
                                : NULL;
}

static void hash_cell(const html_report *r, xmlNodePtr tr, const tk_configs_row *x)
{
    char hash[9];
    g_strlcpy(hash, tk_kernel_hash(x->kernel), sizeof hash);
    xmlNodePtr td = html_el(tr, "td", "hash", NULL);
    xmlNodePtr a = html_el(td, "a", NULL, hash);
    html_attr(a, "href", page_of(r, x->index));
    html_attr(a, "title", tk_kernel_hash(x->kernel));
}

static void rows_table(const html_report *r, xmlNodePtr sec, const tk_configs_group *g)
{
    xmlNodePtr table = html_el(sec, "table", "kernels configs", NULL);
    xmlNodePtr tr = html_el(html_el(table, "thead", NULL, NULL), "tr", NULL, NULL);
    const char *heads[] = {"", "hash", "sets it apart", "warps", "stages", "registers",
                           "spills", "shared", "SASS", "by class", "ms",
                           g->extern_winner ? "first divergence from the fastest compile"
                                            : "first divergence from the winner"};
    for (size_t i = 0; i < G_N_ELEMENTS(heads); i++)
        html_el(tr, "th", NULL, heads[i]);
    xmlNodePtr tbody = html_el(table, "tbody", NULL, NULL);
    for (size_t i = 0; i < g->n_rows; i++) {
        const tk_configs_row *x = &g->rows[i];
        const tk_kernel_meta *m = tk_kernel_metadata(x->kernel);
        tr = html_el(tbody, "tr", x->winner ? "winner" : NULL, NULL);
        xmlNodePtr w = html_el(tr, "td", "win", x->winner ? "\xe2\x98\x85" : "");
        if (x->winner)
            html_attr(w, "title", "the winner: the fastest the autotuner measured");
        hash_cell(r, tr, x);
        html_el(tr, "td", "apart", x->apart[0] ? x->apart : "-");
        num(tr, m->num_warps, NULL);
        num(tr, m->num_stages, NULL);
        num(tr, m->registers, NULL);
        num(tr, m->spill_bytes, NULL);
        num(tr, m->shared_bytes, NULL);
        num(tr, x->has_sass ? (int64_t)x->sass[0] : -1, NULL);
        GString *cls = g_string_new(NULL);
        for (int s = 0; x->has_sass && s < TK_SASS_CLASS_COUNT; s++)
            if (x->sass[1 + s] > 0)
                g_string_append_printf(cls, "%s%s %.0f", cls->len ? ", " : "",
                                       tk_sass_class_name((tk_sass_class)s), x->sass[1 + s]);
        html_el(tr, "td", "classes", cls->str);
        g_string_free(cls, TRUE);
        char ms[32] = "-";
        if (x->has_ms)
            g_snprintf(ms, sizeof ms, "%.4f", x->ms);
        html_el(tr, "td", "num", ms);
        html_el(tr, "td", "diverge", x->diverge ? x->diverge : "-");
    }
}

/* Whether line L's count in column C differs from the reference column
 * REF's: compiles without SASS (a raw capture keeps SASS for the last
 * compile of a name only) differ from nothing. */
static gboolean differs(const tk_configs_group *g, const tk_configs_line *l, size_t c,
                        size_t ref)
{
    return g->rows[c].has_sass && g->rows[ref].has_sass && l->sass[c] != l->sass[ref];
}

/* The matrix: a row per source line, a column per compile; a cell that
 * differs from the reference column (the winner, else the first compile
 * with SASS) is marked. */
static void matrix(const html_report *r, xmlNodePtr sec, const tk_configs_group *g)
{
    if (!g->n_lines)
        return;
    size_t ref = g->winner >= 0 ? (size_t)g->winner : 0;
    for (size_t c = 0; g->winner < 0 && c < g->n_rows && !g->rows[ref].has_sass; c++)
        ref = c;
    size_t differ = 0;
    for (size_t i = 0; i < g->n_lines; i++)
        for (size_t c = 0; c < g->n_rows; c++)
            if (differs(g, &g->lines[i], c, ref)) {
                differ++;
                break;
            }
    char *note = g_strdup_printf(
        "SASS instructions per source line (innermost frame) and compile: %zu lines, %zu "
        "where the compiles differ (marked against the %s).",
        g->n_lines, differ,
        g->extern_winner ? "fastest compile" : g->winner >= 0 ? "winner" : "first compile with SASS");
    html_el(sec, "p", "dim", note);
    g_free(note);
    xmlNodePtr table = html_el(sec, "table", "kernels matrix", NULL);
    xmlNodePtr tr = html_el(html_el(table, "thead", NULL, NULL), "tr", NULL, NULL);
    html_el(tr, "th", NULL, "line");
    for (size_t c = 0; c < g->n_rows; c++)
        hash_cell(r, tr, &g->rows[c]);
    xmlNodePtr tbody = html_el(table, "tbody", NULL, NULL);
    for (size_t i = 0; i < g->n_lines; i++) {
        const tk_configs_line *l = &g->lines[i];
        gboolean any = FALSE;
        for (size_t c = 0; c < g->n_rows; c++)
            any |= differs(g, l, c, ref);
        tr = html_el(tbody, "tr", any ? "differs" : NULL, NULL);
        char *base = g_path_get_basename(l->path);
        char *where = g_strdup_printf("%s:%u", base, l->line);
        xmlNodePtr td = html_el(tr, "td", "where", where);
        html_attr(td, "title", l->path);
        g_free(where);
        g_free(base);
        for (size_t c = 0; c < g->n_rows; c++)
            num(tr, g->rows[c].has_sass ? (int64_t)l->sass[c] : -1,
                differs(g, l, c, ref) ? "num differs" : "num");
    }
}

int html_report_configs(html_report *r)
{
    char *timings = tk_bundle_autotune_timings(r->bundle);
    tk_configs *cf = tk_configs_build(r->bundle, NULL, timings, r->diags);
    g_free(timings);
    size_t n = tk_configs_group_count(cf);
    int rc = 0;
    if (n) {
        xmlNodePtr body;
        xmlDocPtr doc = html_page_new("configurations - tkview", NULL, &body);
        html_attr(body, "class", "configs");
        xmlNodePtr top = html_el(body, "header", "top", NULL);
        xmlNodePtr back = html_el(top, "a", "back", "\xe2\x86\x90 all kernels");
        html_attr(back, "href", "index.html");
        html_el(top, "h1", NULL, "Every compile side by side");
        for (size_t i = 0; i < n; i++) {
            const tk_configs_group *g = tk_configs_group_get(cf, i);
            xmlNodePtr sec = html_el(body, "section", "configs", NULL);
            html_attr(sec, "data-kernel", g->name);
            char *h = g_strdup_printf("%s: %zu compiles%s", g->name, g->n_rows,
                                      g->winner < 0 ? " (no autotuner timings)" : "");
            html_el(sec, "h2", NULL, h);
            g_free(h);
            if (g->extern_winner) {
                /* aten's mm beat every Triton compile: no row is starred */
                char *w = g_strdup_printf(
                    "Winner: the extern kernel %s, %.4f ms, faster than every compile "
                    "here (the fastest: %.4f ms).",
                    g->extern_winner, g->extern_ms, g->rows[g->winner].ms);
                html_el(sec, "p", "extern-winner", w);
                g_free(w);
            }
            rows_table(r, sec, g);
            matrix(r, sec, g);
        }
        rc = html_page_save(doc, r->out, "configs.html", r->diags);
        xmlFreeDoc(doc);
        r->has_configs = rc == 0;
    }
    tk_configs_free(cf);
    return rc;
}
