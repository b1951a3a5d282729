/* life_ranges.c - where a kernel's register life ranges lie: the text of
 * `nvdisasm --print-life-ranges --life-range-mode count -c NAME.cubin`,
 * kept as NAME.sass_lr beside NAME.cubin (capture, Triton's dump folder
 * after compiler/examples/raw_capture.sh, a bundle).
 *
 * One rule for the reader (cost/) and the bundle writer, which copies the
 * file beside the bundle's cubin so that the rule finds it there again.
 * A raw capture folder holds a kernel's files twice (Triton's dump folder
 * and its cache) and the scan may keep the cubin of one and the SASS of
 * the other, so the file is looked for beside the cubin first, then beside
 * the SASS stage file.
 */
#include "load/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tkdump/tk_input_file.h"

/* DIR/STEM.sass_lr for the file PATH (".../NAME.cubin" or
 * ".../NAME.sass_gi"), when it is a regular file; else NULL. */
static char *beside(const char *path)
{
    if (!path)
        return NULL;
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(path, '.');
    if (!dot || (slash && dot < slash))
        return NULL;
    char *lr = g_strdup_printf("%.*s.sass_lr", (int)(dot - path), path);
    if (g_file_test(lr, G_FILE_TEST_IS_REGULAR))
        return lr;
    g_free(lr);
    return NULL;
}

char *bundle_meta_life_ranges_path(const tk_kernel *k)
{
    char *p = beside(k->cubin_path);
    if (!p)
        p = beside(k->files[TK_STAGE_SASS].path);
    if (!p && k->life_ranges_path &&
        g_file_test(k->life_ranges_path, G_FILE_TEST_IS_REGULAR))
        p = g_strdup(k->life_ranges_path);
    return p;
}

/* ---- made afterwards by a front end (tk_bundle.h) ------------------------ */

static tk_kernel *kernel_at(const tk_bundle *b, size_t i)
{
    return b && i < b->kernels->len ? g_ptr_array_index(b->kernels, i) : NULL;
}

int tk_bundle_kernel_lacks_life_ranges(const tk_bundle *b, size_t i)
{
    const tk_kernel *k = kernel_at(b, i);
    if (!k || !k->cubin_path || !k->files[TK_STAGE_SASS].path)
        return 0;
    char *p = bundle_meta_life_ranges_path(k);
    g_free(p);
    return p == NULL;
}

const char *tk_bundle_kernel_cubin(const tk_bundle *b, size_t i)
{
    const tk_kernel *k = kernel_at(b, i);
    return k ? k->cubin_path : NULL;
}

char *tk_bundle_kernel_life_ranges_name(const tk_bundle *b, size_t i,
                                        tk_diags *diags)
{
    const tk_kernel *k = kernel_at(b, i);
    if (!k || !k->cubin_path)
        return NULL;
    size_t len;
    char *err = NULL;
    char *data = tk_input_file_read(k->cubin_path, TK_INPUT_FILE_CUBIN, &len,
                                    &err);
    if (!data) {
        tk_diags_add(diags, TK_DIAG_WARNING, k->cubin_path, 0, "%s",
                     err ? err : "cannot read the cubin");
        g_free(err);
        return NULL;
    }
    char *sum = g_compute_checksum_for_data(G_CHECKSUM_SHA256,
                                            (const guchar *)data, len);
    g_free(data);
    char *name = malloc(strlen(sum) + sizeof ".sass_lr");
    if (name)
        sprintf(name, "%s.sass_lr", sum);
    g_free(sum);
    return name;
}

void tk_bundle_kernel_set_life_ranges(tk_bundle *b, size_t i, const char *path)
{
    tk_kernel *k = kernel_at(b, i);
    if (!k)
        return;
    g_free(k->life_ranges_path);
    k->life_ranges_path = g_strdup(path);
}

size_t tk_bundle_life_ranges_args(const char *cubin, const char **argv, size_t max)
{
    static const char *const fixed[] = {"--print-life-ranges",
                                        "--life-range-mode", "count", "-c"};
    if (!argv || max < 6)
        return 0;
    for (size_t i = 0; i < 4; i++)
        argv[i] = fixed[i];
    argv[4] = cubin;
    argv[5] = NULL;
    return 5;
}
