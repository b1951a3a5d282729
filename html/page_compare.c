/* page_compare.c - a comparison's page (the frame compare.js fills in
 * from data/cNNN/compare.js), and the index's section on autotune groups:
 * one row per configuration with its metadata and links to compare it with
 * the others. */
#include <string.h>

#include "page.h"
#include "report.h"
#include "tkdump/tk_config.h"

int html_report_compare_write(html_report *r, const html_report_compare *rc)
{
    GPtrArray *scripts = g_ptr_array_new_with_free_func(g_free);
    for (size_t i = 0; html_report_compare_scripts[i]; i++)
        g_ptr_array_add(scripts, g_strconcat("assets/", html_report_compare_scripts[i], NULL));
    g_ptr_array_add(scripts, g_strdup_printf("data/%s/compare.js", rc->id));
    g_ptr_array_add(scripts, NULL);
    char *title = g_strdup_printf("%s %.8s vs %.8s - tkview", tk_kernel_name(rc->kernel[0]),
                                  tk_kernel_hash(rc->kernel[0]), tk_kernel_hash(rc->kernel[1]));
    xmlNodePtr body;
    xmlDocPtr doc = html_page_app_new(title, (const char *const *)scripts->pdata, &body);
    g_free(title);
    g_ptr_array_free(scripts, TRUE);
    html_attr(body, "class", "compare");
    html_attr(body, "data-compare", rc->id);

    xmlNodePtr top = html_el(body, "header", "top", NULL);
    xmlNodePtr back = html_el(top, "a", "back", "\xe2\x86\x90 all kernels");
    html_attr(back, "href", "index.html");
    xmlNodePtr h1 = html_el(top, "h1", NULL, NULL);
    for (int s = 0; s < 2; s++) {
        if (s)
            html_text(h1, " vs ");
        char *who = g_strdup_printf("%s: %s %.8s", s ? "B" : "A", tk_kernel_name(rc->kernel[s]),
                                    tk_kernel_hash(rc->kernel[s]));
        xmlNodePtr k = rc->index[s] >= 0 ? html_el(h1, "a", "side", who)
                                         : html_el(h1, "span", "side", who);
        if (rc->index[s] >= 0)
            html_attr(k, "href", g_array_index(r->kernels, html_report_kernel, rc->index[s]).page);
        html_attr(k, "title", tk_bundle_path(rc->bundle[s]));
        g_free(who);
    }
    xmlNodePtr first = html_el(top, "p", "first", NULL);
    html_attr(first, "id", "first");

    xmlNodePtr main = html_el(body, "main", "compare-view", NULL);
    html_attr(main, "id", "compare-view");
    xmlNodePtr left = html_el(main, "section", "cv-left", NULL);
    xmlNodePtr rows = html_el(left, "div", "cv-rows", NULL);
    html_attr(rows, "id", "cv-rows");
    html_attr(rows, "tabindex", "0");
    xmlNodePtr facts = html_el(left, "div", "cv-facts", NULL);
    html_attr(facts, "id", "cv-facts");
    xmlNodePtr right = html_el(main, "section", "cv-diff pv-diff", NULL);
    xmlNodePtr bar = html_el(right, "div", "bar", NULL);
    html_attr(bar, "id", "cv-bar");
    xmlNodePtr d = html_el(right, "div", "pv-rows", NULL);
    html_attr(d, "id", "cv-diff");
    html_el(body, "noscript", NULL, "This report needs JavaScript (its own, from the report folder).");
    int rc_ = html_page_save(doc, r->out, rc->page, r->diags);
    xmlFreeDoc(doc);
    return rc_;
}

/* ---- on the index ------------------------------------------------------------ */

static void cell(xmlNodePtr tr, const tk_config *c, const char *name, const char *unit)
{
    const tk_config_item *it = tk_config_find(c, name);
    if (!it) {
        html_el(tr, "td", "num unknown", "?");
        return;
    }
    char *text = g_strconcat(it->value, unit ? unit : "", NULL);
    html_el(tr, "td", "num", text);
    g_free(text);
}

/* The comparison of kernels X and Y (either order), or NULL. */
static const html_report_compare *pair_of(const html_report *r, int x, int y)
{
    for (guint i = 0; i < r->compares->len; i++) {
        const html_report_compare *c = &g_array_index(r->compares, html_report_compare, i);
        if ((c->index[0] == x && c->index[1] == y) || (c->index[0] == y && c->index[1] == x))
            return c;
    }
    return NULL;
}

static void group_table(html_report *r, xmlNodePtr sec, const GArray *group)
{
    const tk_kernel *k0 = g_array_index(r->kernels, html_report_kernel,
                                        g_array_index(group, int, 0)).kernel;
    char *title = g_strdup_printf("%s: %u configurations", tk_kernel_name(k0), group->len);
    html_el(sec, "h3", NULL, title);
    g_free(title);
    xmlNodePtr table = html_el(sec, "table", "kernels group", NULL);
    xmlNodePtr tr = html_el(html_el(table, "thead", NULL, NULL), "tr", NULL, NULL);
    const char *heads[] = {"hash", "warps", "stages", "CTAs", "shared", "registers",
                           "spills", "tiles", "compare with\xe2\x80\xa6"};
    for (size_t i = 0; i < G_N_ELEMENTS(heads); i++)
        html_el(tr, "th", NULL, heads[i]);
    xmlNodePtr tbody = html_el(table, "tbody", NULL, NULL);
    for (guint g = 0; g < group->len; g++) {
        int x = g_array_index(group, int, g);
        const html_report_kernel *rk = &g_array_index(r->kernels, html_report_kernel, x);
        tk_config *c = tk_config_read(r->bundle, rk->kernel, NULL);
        tr = html_el(tbody, "tr", NULL, NULL);
        char hash[17];
        g_strlcpy(hash, tk_kernel_hash(rk->kernel), sizeof hash);
        xmlNodePtr a = html_el(html_el(tr, "td", "hash", NULL), "a", NULL, hash);
        html_attr(a, "href", rk->page);
        html_attr(a, "title", tk_kernel_hash(rk->kernel));
        cell(tr, c, "num_warps", NULL);
        cell(tr, c, "num_stages", NULL);
        cell(tr, c, "num_ctas", NULL);
        cell(tr, c, "shared_bytes", " B");
        cell(tr, c, "registers", NULL);
        cell(tr, c, "spill_bytes", " B");
        GString *tiles = g_string_new(NULL);
        for (size_t i = 0; i < tk_config_count(c); i++) {
            const tk_config_item *it = tk_config_get(c, i);
            if (it->origin == TK_CONFIG_TILE || it->origin == TK_CONFIG_CONSTANT)
                g_string_append_printf(tiles, "%s%s=%s", tiles->len ? " " : "", it->name,
                                       it->value);
        }
        xmlNodePtr td = html_el(tr, "td", "tiles", tiles->len ? tiles->str : "?");
        html_attr(td, "title", "constexpr sizes read off the kernel's tl.arange calls, "
                             "and the constants its metadata records");
        g_string_free(tiles, TRUE);
        tk_config_free(c);
        xmlNodePtr links = html_el(tr, "td", "pick", NULL);
        for (guint h = 0; h < group->len; h++) {
            int y = g_array_index(group, int, h);
            const html_report_compare *pc = y != x ? pair_of(r, x, y) : NULL;
            if (!pc)
                continue;
            char label[24];
            g_snprintf(label, sizeof label, "%.8s",
                       tk_kernel_hash(g_array_index(r->kernels, html_report_kernel, y).kernel));
            xmlNodePtr l = html_el(links, "a", NULL, label);
            html_attr(l, "href", pc->page);
            char *tip = pc->first_row >= 0
                            ? g_strdup_printf("first divergence: %s (row %d)", pc->first_pass,
                                              pc->first_row)
                            : g_strdup("no divergence found");
            html_attr(l, "title", tip);
            g_free(tip);
        }
    }
}

void html_report_index_compares(html_report *r, xmlNodePtr body)
{
    if (r->compares->len == 0)
        return;
    xmlNodePtr sec = html_el(body, "section", "compares", NULL);
    html_attr(sec, "id", "compares");
    html_el(sec, "h2", NULL, "Compare compilations");
    html_el(sec, "p", "dim",
          "Where two compilations of a kernel part ways, pass by pass: the first pass "
          "whose output differs, the aligned pipelines, the IR of both at any pass.");
    if (r->has_configs) {
        /* every compile of a kernel in one table (page_configs.c) */
        xmlNodePtr p = html_el(sec, "p", NULL, NULL);
        xmlNodePtr a = html_el(p, "a", NULL, "Every compile side by side");
        html_attr(a, "href", "configs.html");
        html_attr(a, "id", "configs-link");
        html_text(p, ": a row per configuration with the autotuner's time, the winner, "
                     "where each parts from it, and SASS per source line.");
    }
    /* autotune groups: kernels of one name */
    guint n = r->kernels->len;
    gboolean *seen = g_new0(gboolean, n ? n : 1);
    for (guint i = 0; i < n; i++) {
        if (seen[i])
            continue;
        const char *name = tk_kernel_name(g_array_index(r->kernels, html_report_kernel, i).kernel);
        GArray *group = g_array_new(FALSE, FALSE, sizeof(int));
        for (guint j = i; j < n; j++)
            if (strcmp(tk_kernel_name(g_array_index(r->kernels, html_report_kernel, j).kernel),
                       name) == 0) {
                int v = (int)j;
                g_array_append_val(group, v);
                seen[j] = TRUE;
            }
        if (group->len > 1)
            group_table(r, sec, group);
        g_array_free(group, TRUE);
    }
    g_free(seen);
    /* the others (--compare, across bundles) as a list */
    xmlNodePtr ul = NULL;
    for (guint i = 0; i < r->compares->len; i++) {
        const html_report_compare *c = &g_array_index(r->compares, html_report_compare, i);
        if (c->index[0] >= 0 && c->index[1] >= 0 &&
            strcmp(tk_kernel_name(c->kernel[0]), tk_kernel_name(c->kernel[1])) == 0)
            continue; /* in its group's table */
        if (!ul)
            ul = html_el(sec, "ul", "pairs", NULL);
        char *text = g_strdup_printf("%s %.8s vs %s %.8s%s%s", tk_kernel_name(c->kernel[0]),
                                     tk_kernel_hash(c->kernel[0]), tk_kernel_name(c->kernel[1]),
                                     tk_kernel_hash(c->kernel[1]),
                                     c->first_row >= 0 ? ": first divergence " : "",
                                     c->first_row >= 0 ? c->first_pass : "");
        xmlNodePtr a = html_el(html_el(ul, "li", NULL, NULL), "a", NULL, text);
        html_attr(a, "href", c->page);
        g_free(text);
    }
}
