/* bundle.c - a bundle kernel's timeline from the pass files found
 * with the bundle. */
#include "timeline/internal.h"
#include "tkdump/tk_bundle_passes.h"

size_t tk_timeline_parts_of_kernel(tk_bundle *bundle, const tk_kernel *kernel,
                                   tk_timeline_part **parts, tk_diags *diags)
{
    size_t n = tk_bundle_pass_file_count(bundle, diags), k = 0;
    *parts = NULL;
    for (size_t i = 0; i < n; i++) {
        ptrdiff_t seq = tk_bundle_kernel_pass_seq(bundle, kernel, i);
        if (seq < 0)
            continue;
        if (!*parts)
            *parts = g_new(tk_timeline_part, n);
        (*parts)[k++] = (tk_timeline_part){tk_bundle_pass_file(bundle, i), (size_t)seq};
    }
    return k;
}

tk_timeline *tk_timeline_of_kernel(tk_bundle *bundle, const tk_kernel *kernel,
                                   const tk_timeline_opts *opts,
                                   tk_diags *diags)
{
    tk_timeline_part *parts;
    size_t n = tk_timeline_parts_of_kernel(bundle, kernel, &parts, diags);
    tk_timeline *tl = n ? tk_timeline_build(parts, n, kernel, opts, diags) : NULL;
    g_free(parts);
    return tl;
}
