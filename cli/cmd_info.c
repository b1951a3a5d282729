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
        if (pf->cost)
            tk_cost_free(pf->cost[i]);
        if (pf->ix)
            tk_bind_free(pf->ix[i]);
        tk_profile_free(pf->profile[i]);
        tk_diags_free(pf->diags[i]);
    }
    g_free(pf->cost);
    g_free(pf->ix);
    g_free(pf->profile);
    g_free(pf->diags);
}

/* While the pass dumps are indexed on other threads (the most of info's
 * time on a capture with them: inflating and scanning every dump), this
 * one makes what the printers need next: each kernel's binding index,
 * then, once the profiles are read, its cost.  It stops making them when
 * the index is done, so that no more is held at once than that saves
 * time for. */
static void prepare_while_indexing(cmd_info_profiles *pf, tk_bundle *b)
{
    tk_loctab *tab = tk_bundle_loctab(b);
    pf->ix = g_new0(tk_bind *, pf->n + 1);
    pf->cost = g_new0(tk_cost *, pf->n + 1);
    size_t made = 0;
    for (; made < pf->n && tk_bundle_pass_files_indexing(b); made++)
        pf->ix[made] = tk_bind_new(tk_bundle_kernel(b, made), tab);
    profiles_join(pf);
    for (size_t i = 0; i < made && tk_bundle_pass_files_indexing(b); i++) {
        const tk_kernel *k = tk_bundle_kernel(b, i);
        if (tk_kernel_stage(k, TK_STAGE_SASS))
            pf->cost[i] = tk_cost_new(pf->ix[i], k, tab, pf->profile[i]);
    }
}

tk_bind *cmd_info_bind(const cmd_info_profiles *pf, size_t i, const tk_kernel *k,
                       tk_loctab *tab)
{
    tk_bind *ix = pf->ix && i < pf->n ? pf->ix[i] : NULL;
    if (!ix)
        return tk_bind_new(k, tab);
    pf->ix[i] = NULL;
    return ix;
}

tk_cost *cmd_info_cost(const cmd_info_profiles *pf, size_t i, const tk_kernel *k,
                       const tk_bind *ix, const tk_loctab *tab, gboolean quiet)
{
    tk_cost *c = pf->cost && i < pf->n ? pf->cost[i] : NULL;
    if (!c)
        return cli_cost_with(k, ix, tab, quiet, pf->profile[i], pf->diags[i]);
    /* made ahead on the same IX (cmd_info_bind() handed it over) */
    cli_print_diags(pf->diags[i], quiet);
    pf->cost[i] = NULL;
    return c;
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
    /* The pass dumps are indexed on workers from here on. */
    int ahead = b && tk_bundle_pass_files_start(b);
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
    if (ahead)
        prepare_while_indexing(&pf, b);
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
