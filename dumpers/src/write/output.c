/* output.c - an output folder checked against what a loaded bundle reads
 * (tk_bundle_check_output()): never write where you read. */
#include "bundle/internal.h"
#include "tkdump/tk_bundle_write.h"
#include "tkdump/tk_staged_dir.h"

/* Adds the error for OUTDIR lying as REL against INPUT and returns -1; 0
 * when they are apart, or when OUTDIR is inside INPUT and INSIDE_OK. */
static int refuse(const char *outdir, const char *input, int rel,
                  gboolean inside_ok, tk_diags *diags)
{
    switch (rel) {
    case TK_STAGED_DIR_SAME:
        tk_diags_add(diags, TK_DIAG_ERROR, outdir, 0,
                     "refusing to write here: it is the input %s itself; "
                     "give another output folder",
                     input);
        return -1;
    case TK_STAGED_DIR_INSIDE:
        if (inside_ok)
            return 0;
        tk_diags_add(diags, TK_DIAG_ERROR, outdir, 0,
                     "refusing to write here: it is inside the input %s, "
                     "which would then hold what was written; give an "
                     "output folder outside it",
                     input);
        return -1;
    case TK_STAGED_DIR_CONTAINS:
        tk_diags_add(diags, TK_DIAG_ERROR, outdir, 0,
                     "refusing to write here: it contains the input %s, "
                     "which replacing it would delete; give an output "
                     "folder that does not hold the input",
                     input);
        return -1;
    default:
        return 0;
    }
}

int tk_bundle_check_output(const tk_bundle *b, const char *outdir,
                           tk_diags *diags)
{
    if (!b || !outdir || !*outdir)
        return 0;
    /* What was loaded, and the bundle folder it belongs to. */
    if (refuse(outdir, b->path, tk_staged_dir_overlap(outdir, b->path), FALSE,
               diags) != 0)
        return -1;
    if (b->confine &&
        refuse(outdir, b->confine, tk_staged_dir_overlap(outdir, b->confine),
               FALSE, diags) != 0)
        return -1;
    /* A --source-dir folder is read, not loaded: an output beside its files
     * changes nothing read, but one that is it or holds it would replace
     * it. */
    for (char **d = b->source_dirs; d && *d; d++)
        if (refuse(outdir, *d, tk_staged_dir_overlap(outdir, *d), TRUE,
                   diags) != 0)
            return -1;
    return 0;
}
