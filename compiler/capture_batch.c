/* capture_batch.c - the LD_PRELOAD a Triton program gets under capture:
 * libtkview-stderr-batch.so (stderr_batch.c), which batches its writes to
 * stderr.  LLVM's print-after-all writes every token of its dumps with a
 * write() of its own; batched, the knobs cost several times less
 * (docs/capture.md has the figures).
 */
#include "capture.h"

#include <string.h>

#include "tkview-config.h"

char *cap_stderr_batch_preload(void)
{
    /* TKVIEW_STDERR_BATCH: another copy (the build tree's, for the tests),
     * or empty for none */
    const char *lib = g_getenv("TKVIEW_STDERR_BATCH");
    if (!lib)
        lib = TKVIEW_STDERR_BATCH;
    if (!*lib || !g_file_test(lib, G_FILE_TEST_IS_REGULAR))
        return NULL;
    /* the user's own preloads still load, after it */
    const char *old = g_getenv("LD_PRELOAD");
    return old && *old ? g_strconcat(lib, ":", old, NULL) : g_strdup(lib);
}
