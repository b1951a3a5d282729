/* tkv_cost_text.c - what each line costs, in words. */
#include "document/tkv_cost_text.h"

#include <math.h>
#include <string.h>

void tkv_cost_short(double v, char buf[16])
{
    double a = fabs(v);
    if (a < 1000)
        g_snprintf(buf, 16, "%.4g", v);
    else if (a < 1e6)
        g_snprintf(buf, 16, a < 1e5 ? "%.1fk" : "%.0fk", v / 1e3);
    else
        g_snprintf(buf, 16, a < 1e8 ? "%.1fM" : "%.0fM", v / 1e6);
    /* "11.0k" -> "11k", as cost.js writes it */
    char *dot = strstr(buf, ".0");
    if (dot && (dot[2] == 'k' || dot[2] == 'M'))
        memmove(dot, dot + 2, strlen(dot + 2) + 1);
}

static void share(GString *s, const tk_cost *c, size_t m, double v)
{
    double t = tk_cost_total(c)[m];
    if (t > 0)
        g_string_append_printf(s, " (%.1f%% of %.15g)", 100.0 * v / t, t);
}

/* The SASS classes and stall reasons of V, one line each. */
static void breakdown(GString *s, const tk_cost *c, const double *v)
{
    GString *cls = g_string_new(NULL);
    for (int i = 0; i < TK_SASS_CLASS_COUNT; i++)
        if (v[1 + i] > 0)
            g_string_append_printf(cls, "%s%s %.15g", cls->len ? ", " : "",
                                   tk_sass_class_name((tk_sass_class)i), v[1 + i]);
    if (cls->len)
        g_string_append_printf(s, "\nSASS: %s", cls->str);
    g_string_free(cls, TRUE);
    size_t first, n = tk_cost_stall_metrics(c, &first);
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += v[first + i];
    if (sum <= 0)
        return;
    gboolean *used = g_new0(gboolean, n);
    g_string_append(s, "\nstalls:");
    for (int k = 0; k < 8; k++) {
        size_t best = n;
        for (size_t i = 0; i < n; i++)
            if (!used[i] && v[first + i] > 0 && (best == n || v[first + i] > v[first + best]))
                best = i;
        if (best == n)
            break;
        used[best] = TRUE;
        g_string_append_printf(s, "%s %s %.15g (%.0f%%)", k ? "," : "",
                               tk_cost_metric_name(c, first + best) + strlen("stall_"),
                               v[first + best], 100.0 * v[first + best] / sum);
    }
    g_free(used);
}

char *tkv_cost_source_tip(const tk_cost *c, size_t m, const tk_cost_line *l, gboolean exact)
{
    GString *s = g_string_new(NULL);
    g_string_append_printf(s, "%s: exact %.15g", tk_cost_metric_name(c, m), l->exact[m]);
    share(s, c, m, l->exact[m]);
    g_string_append_printf(s, "\ninclusive %.15g (with what it called)", l->inclusive[m]);
    if (l->shared[m] > 0)
        g_string_append_printf(s, "\nshared %.15g by %u call sites: code of a helper inlined at "
                                  "each, which the SASS does not tell apart",
                               l->shared[m], l->shared_sites);
    /* The library's sentences, as bind, hot and the report show them. */
    const tk_cost_disagreement *d;
    size_t nd = tk_cost_line_disagreements(c, l->file, l->line, &d);
    for (size_t i = 0; i < nd; i++)
        g_string_append_printf(s, "\nstages disagree: %s", d[i].text);
    breakdown(s, c, exact ? l->exact : l->inclusive);
    return g_string_free(s, FALSE);
}

/* V as the report's tooltips and `tkview bind --ir` write it: whole, or
 * to two decimals (a share: 0.55). */
static void put_num(GString *s, double v)
{
    char buf[48];
    g_snprintf(buf, sizeof buf, "%.2f", v);
    char *e = buf + strlen(buf);
    while (e > buf && e[-1] == '0')
        *--e = 0;
    if (e > buf && e[-1] == '.')
        *--e = 0;
    g_string_append(s, strcmp(buf, "-0") == 0 ? "0" : buf);
}

char *tkv_cost_ir_tip(TkvDocument *doc, const tk_cost *c, size_t m, tk_stage_kind stage,
                      guint line)
{
    const double *own = tk_cost_ir_line_own(c, stage, line);
    const double *bound = tk_cost_ir_line(c, stage, line);
    if (!own && !bound)
        return NULL;
    gboolean sass = stage == TK_STAGE_SASS;
    GString *s = g_string_new(NULL);
    g_string_append_printf(s, "%s: this %s %s: ", tk_cost_metric_name(c, m),
                           tk_stage_kind_label(stage), sass ? "instruction" : "line");
    put_num(s, own ? own[m] : 0);
    if (!sass) {
        g_string_append(s, " (its share of the ");
        put_num(s, bound ? bound[m] : 0);
        g_string_append(s, " bound to it)");
    }
    const tk_cost_line *src = tk_cost_ir_line_source(c, stage, line);
    if (src) {
        char *base = g_path_get_basename(tkv_document_get_file_path(doc, src->file));
        g_string_append_printf(s, "; source line %s:%u total: ", base, src->line);
        put_num(s, src->exact[m]);
        g_free(base);
    }
    breakdown(s, c, own ? own : bound);
    return g_string_free(s, FALSE);
}
