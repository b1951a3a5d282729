/* assets.c - the report's CSS and JS, compiled into the program as a
 * GResource (assets/assets.gresource.xml), written to OUTDIR/assets/. */
#include <gio/gio.h>

#include "report.h"
#include "tk_html_resources.h"

static const char *const assets[] = {
    "report.css", "report.js",
};

int tk_report_assets(tk_report *r)
{
    GResource *res = tk_html_get_resource();
    for (size_t i = 0; i < G_N_ELEMENTS(assets); i++) {
        char *path = g_strdup_printf("/org/tkview/html/%s", assets[i]);
        GBytes *b = g_resource_lookup_data(res, path, G_RESOURCE_LOOKUP_FLAGS_NONE, NULL);
        g_free(path);
        if (!b) {
            tk_diags_add(r->diags, TK_DIAG_ERROR, assets[i], 0,
                         "asset missing from the program");
            return -1;
        }
        char rel[64];
        g_snprintf(rel, sizeof rel, "assets/%s", assets[i]);
        gsize len;
        const void *data = g_bytes_get_data(b, &len);
        int rc = tk_outdir_write(r->out, rel, data, len, r->diags);
        g_bytes_unref(b);
        g_atomic_int_inc(&r->files);
        if (rc)
            return rc;
    }
    return 0;
}
