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

#include <string.h>

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
    return p;
}
