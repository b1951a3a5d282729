/* assets.c - the report's CSS and JS, compiled into the program as a
 * GResource (assets/assets.gresource.xml), written to OUTDIR/assets/.
 *
 * The JS is one classic script per module (assets/tk.js says why and how
 * they find each other), in this order: tk.js (the registry) first, the
 * modules after it in any order, since a module is made only when first
 * used.  A kernel page loads them as one script, assets/report.js, the
 * modules joined in that order: each script a page lists is a request and
 * a task of its own, and 19 of them held the page's first view back (a
 * third of its CPU to ready, more of its wall time on a busy machine:
 * bench/README.md, issue 25).  The module files are written too: the
 * comparison pages list theirs, and they are the modules as written. */
#include <gio/gio.h>

#include "report.h"
#include "html_resources.h"

const char *const html_report_scripts[] = {
    "tk.js",      "data.js",     "dom.js",    "syntax.js", "codeview.js", "kernel.js",
    "layouts.js", "info.js",     "cost.js",   "diag.js",   "regs.js",   "panes.js",  "find.js",     "chain.js",
    "diffview.js", "passchart.js", "passnotes.js", "passes.js", "links.js", "app.js", NULL,
};

const char *const html_report_compare_scripts[] = {
    "tk.js", "data.js", "dom.js", "syntax.js", "compare.js", NULL,
};

/* The asset NAME compiled into the program; NULL (said in R's diags) when
 * it is not there.  Caller unrefs. */
static GBytes *asset(html_report *r, GResource *res, const char *name)
{
    char *path = g_strdup_printf("/org/tkview/html/%s", name);
    GBytes *b = g_resource_lookup_data(res, path, G_RESOURCE_LOOKUP_FLAGS_NONE, NULL);
    g_free(path);
    if (!b)
        tk_diags_add(r->diags, TK_DIAG_ERROR, name, 0, "asset missing from the program");
    return b;
}

static int write_asset(html_report *r, GResource *res, const char *name)
{
    GBytes *b = asset(r, res, name);
    if (!b)
        return -1;
    char rel[64];
    g_snprintf(rel, sizeof rel, "assets/%s", name);
    gsize len;
    const void *data = g_bytes_get_data(b, &len);
    int rc = html_outdir_write(r->out, rel, data, len, r->diags);
    g_bytes_unref(b);
    g_atomic_int_inc(&r->files);
    return rc;
}

/* assets/report.js: html_report_scripts joined, in their order. */
static int write_bundle(html_report *r, GResource *res)
{
    GString *all = g_string_new(NULL);
    int rc = 0;
    for (size_t i = 0; rc == 0 && html_report_scripts[i]; i++) {
        GBytes *b = asset(r, res, html_report_scripts[i]);
        if (!b) {
            rc = -1;
            break;
        }
        gsize len;
        const char *data = g_bytes_get_data(b, &len);
        g_string_append_len(all, data, (gssize)len);
        if (len && data[len - 1] != '\n')
            g_string_append_c(all, '\n');
        g_bytes_unref(b);
    }
    if (rc == 0) {
        rc = html_outdir_write(r->out, "assets/" HTML_REPORT_BUNDLE, all->str, all->len, r->diags);
        g_atomic_int_inc(&r->files);
    }
    g_string_free(all, TRUE);
    return rc;
}

int html_report_assets(html_report *r)
{
    GResource *res = html_get_resource();
    int rc = write_asset(r, res, "report.css");
    for (size_t i = 0; rc == 0 && html_report_scripts[i]; i++)
        rc = write_asset(r, res, html_report_scripts[i]);
    if (rc == 0)
        rc = write_bundle(r, res);
    /* compare.js: the comparison pages' own module; the others are shared */
    if (rc == 0)
        rc = write_asset(r, res, "compare.js");
    return rc;
}
