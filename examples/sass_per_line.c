/* sass_per_line.c - how many SASS instructions each source line of a kernel
 * became.
 *
 * Built against the installed library (package libtkdump-dev):
 *     cc -std=c17 -o sass_per_line sass_per_line.c $(pkg-config --cflags --libs tkdump)
 *     ./sass_per_line sample_dumps/vector_add_sum
 */
#include <stdio.h>
#include <string.h>

#include "tkdump/tk_bind.h"
#include "tkdump/tk_bundle.h"
#include "tkdump/tk_bundle_load.h"

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: %s PATH [KERNEL]\n", argv[0]);
        return 2;
    }
    /* The library never prints: what it could not read comes back here. */
    tk_diags *diags = tk_diags_new();
    tk_bundle *b = tk_bundle_load(argv[1], NULL, diags);
    for (size_t i = 0; i < tk_diags_count(diags); i++) {
        const tk_diag *d = tk_diags_get(diags, i);
        fprintf(stderr, "%s:%llu: %s: %s\n", d->file,
                (unsigned long long)d->line,
                tk_diag_severity_name(d->severity), d->message);
    }
    tk_diags_free(diags);
    if (!b)
        return 3;

    /* KERNEL as tkview takes it: a name, a hash prefix, name:hash, an index. */
    const tk_kernel *k = argc == 3 ? tk_bundle_find_kernel(b, argv[2], NULL)
                       : tk_bundle_kernel_count(b) ? tk_bundle_kernel(b, 0) : NULL;
    if (!k) {
        fprintf(stderr, "%s: no kernel %s\n", argv[1], argc == 3 ? argv[2] : "");
        tk_bundle_free(b);
        return 1;
    }

    /* Every source line the SASS refers to, sorted by file then line:
     * "exact" counts the instructions whose innermost frame is the line,
     * "called" those with the line anywhere in their inline stack (the
     * code of the helpers it called, such as tl.sum).  Directives and
     * comments that carry a location are not counted. */
    tk_loctab *tab = tk_bundle_loctab(b);
    tk_bind *bind = tk_bind_new(k, tab);
    const tk_source_ref *refs;
    size_t n = tk_bind_source_refs(bind, TK_STAGE_SASS, &refs);
    printf("%s: SASS instructions per source line (exact, called)\n",
           tk_kernel_name(k));
    for (size_t i = 0; i < n; i++) {
        const char *path = tk_loctab_file_path(tab, refs[i].file);
        const char *base = strrchr(path, '/');
        printf("%s:%u %u %u\n", base ? base + 1 : path, refs[i].line,
               refs[i].n_exact, refs[i].n_called);
    }

    tk_bind_free(bind);
    tk_bundle_free(b); /* its kernels, stages and location table */
    return n ? 0 : 1;
}
