/* timeline_bundle.c - a bundle kernel's timeline from the pass files found
 * with the bundle. */
#include "timeline_internal.h"

tk_timeline *tk_timeline_of_kernel(tk_bundle *bundle, const tk_kernel *kernel,
                                   const tk_timeline_opts *opts,
                                   tk_diags *diags)
{
    size_t n = tk_bundle_pass_file_count(bundle, diags);
    GArray *parts = g_array_new(FALSE, FALSE, sizeof(tk_timeline_part));
    for (size_t i = 0; i < n; i++) {
        ptrdiff_t seq = tk_bundle_kernel_pass_seq(bundle, kernel, i);
        if (seq < 0)
            continue;
        tk_timeline_part p = {tk_bundle_pass_file(bundle, i), (size_t)seq};
        g_array_append_val(parts, p);
    }
    tk_timeline *tl = NULL;
    if (parts->len)
        tl = tk_timeline_build((const tk_timeline_part *)parts->data, parts->len,
                               kernel, opts, diags);
    g_array_free(parts, TRUE);
    return tl;
}
