/* assets.c - the report's CSS and JS, compiled into the program as a
 * GResource (assets/assets.gresource.xml), written to OUTDIR/assets/.
 *
 * The JS is one classic script per module (assets/tk.js says why and how
 * they find each other); a kernel page lists them all, in this order:
 * tk.js (the registry) first, the modules after it in any order, since a
 * module is made only when first used. */
#include <gio/gio.h>

#include "report.h"
#include "html_resources.h"

const char *const html_report_scripts[] = {
    "tk.js",      "data.js",     "dom.js",    "syntax.js", "codeview.js", "kernel.js",
    "layouts.js", "info.js",     "cost.js",   "diag.js",   "regs.js",   "panes.js",  "find.js",     "chain.js",
    "diffview.js", "passchart.js", "passes.js", "links.js", "app.js", NULL,
};

const char *const html_report_compare_scripts[] = {
    "tk.js", "data.js", "dom.js", "syntax.js", "compare.js", NULL,
};

static int write_asset(html_report *r, GResource *res, const char *name)
{
    char *path = g_strdup_printf("/org/tkview/html/%s", name);
    GBytes *b = g_resource_lookup_data(res, path, G_RESOURCE_LOOKUP_FLAGS_NONE, NULL);
    g_free(path);
    if (!b) {
        tk_diags_add(r->diags, TK_DIAG_ERROR, name, 0, "asset missing from the program");
        return -1;
    }
    char rel[64];
    g_snprintf(rel, sizeof rel, "assets/%s", name);
    gsize len;
    const void *data = g_bytes_get_data(b, &len);
    int rc = html_outdir_write(r->out, rel, data, len, r->diags);
    g_bytes_unref(b);
    g_atomic_int_inc(&r->files);
    return rc;
}

int html_report_assets(html_report *r)
{
    GResource *res = html_get_resource();
    int rc = write_asset(r, res, "report.css");
    for (size_t i = 0; rc == 0 && html_report_scripts[i]; i++)
        rc = write_asset(r, res, html_report_scripts[i]);
    /* compare.js: the comparison pages' own module; the others are shared */
    if (rc == 0)
        rc = write_asset(r, res, "compare.js");
    return rc;
}
