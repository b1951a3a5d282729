/* cmd_info.c - `tkview info PATH`: kernels, stages, metadata, counts, and
 * the pass dump files with how many dumps each kernel has in them.  This
 * file loads PATH and reads the profiles; cmd_info_text.c and
 * cmd_info_json.c print. */
#include "cmd_info.h"
#include "tkdump/tk_bundle_load.h"
#include "tkdump/tk_bundle_passes.h"

static gpointer profiles_read(gpointer data)
{
    cmd_info_profiles *pf = data;
    for (size_t i = 0; i < pf->n; i++) {
        const tk_kernel *k = tk_bundle_kernel(pf->b, i);
        if (tk_kernel_stage(k, TK_STAGE_SASS))
            pf->profile[i] = tk_profile_load(k, pf->diags[i]);
    }
    return NULL;
}

static void profiles_start(cmd_info_profiles *pf, tk_bundle *b)
{
    pf->b = b;
    pf->n = tk_bundle_kernel_count(b);
    pf->profile = g_new0(tk_profile *, pf->n + 1);
    pf->diags = g_new0(tk_diags *, pf->n + 1);
    gboolean any = FALSE;
    for (size_t i = 0; i < pf->n; i++) {
        pf->diags[i] = tk_diags_new();
        any = any || tk_kernel_profile_path(tk_bundle_kernel(b, i));
    }
    pf->thread = any && g_get_num_processors() > 1
                     ? g_thread_try_new("tkview-profiles", profiles_read, pf, NULL)
                     : NULL;
    if (!pf->thread)
        profiles_read(pf);
}

static void profiles_join(cmd_info_profiles *pf)
{
    if (pf->thread)
        g_thread_join(pf->thread);
    pf->thread = NULL;
}

static void profiles_free(cmd_info_profiles *pf)
{
    for (size_t i = 0; i < pf->n; i++) {
        tk_profile_free(pf->profile[i]);
        tk_diags_free(pf->diags[i]);
    }
    g_free(pf->profile);
    g_free(pf->diags);
}

int cmd_info(int argc, char **argv)
{
    cli_common common = {0};
    GOptionContext *ctx = g_option_context_new("PATH - list kernels, stages, metadata and binding counts");
    cli_add_common(ctx, &common);
    GError *err = NULL;
    int rc = CLI_EXIT_OK;
    if (!g_option_context_parse(ctx, &argc, &argv, &err) || argc != 2) {
        cli_error("%s", err ? err->message : "usage: tkview info PATH [--json]");
        g_clear_error(&err);
        rc = CLI_EXIT_USAGE;
        goto out;
    }
    /* The compiler's messages beside the capture: counts per kernel, and
     * compiles that failed before any IR (shown even when nothing loads).
     * Their streams (a raw folder's stderr may be hundreds of MB) are read
     * on a worker while the bundle loads and its passes are indexed. */
    cli_diag_reading *dr = cli_diag_start(argv[1]);
    tk_bundle *b = cli_load(argv[1], &common);
    if (b)
        cli_life_ranges(b, common.quiet);
    if (!b) {
        tk_diag_set *ds = cli_diag_finish(dr, NULL);
        if (ds && !common.json)
            cli_diag_failed_text(ds);
        tk_diag_set_free(ds);
        rc = CLI_EXIT_INPUT;
        goto out;
    }
    /* The profiles are read on a worker meanwhile. */
    cmd_info_profiles pf = {0};
    profiles_start(&pf, b);
    /* Indexing the pass dumps reports what it found wrong in them. */
    tk_diags *pd = tk_diags_new();
    tk_bundle_pass_file_count(b, pd);
    profiles_join(&pf);
    tk_diag_set *ds = cli_diag_finish(dr, b);
    cli_print_diags(pd, common.quiet);
    tk_diags_free(pd);
    if (common.json)
        cmd_info_json(b, common.quiet, ds, &pf);
    else
        cmd_info_text(b, common.quiet, ds, &pf);
    tk_diag_set_free(ds);
    profiles_free(&pf);
    tk_bundle_free(b);
out:
    g_strfreev(common.source_dirs);
    g_option_context_free(ctx);
    return rc;
}
