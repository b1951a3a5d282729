/* bundle.c - placeholder until the loader lands. */
#include "tkdump/tk_bundle.h"

#include <glib.h>

tk_bundle *tk_bundle_load(const char *path, const tk_load_options *opts,
                          tk_diags *diags)
{
    (void)opts;
    tk_diags_add(diags, TK_DIAG_ERROR, path, 0, "loading not implemented yet");
    return NULL;
}
void tk_bundle_free(tk_bundle *bundle) { (void)bundle; }
