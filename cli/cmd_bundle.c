/* cmd_bundle.c - `tkview bundle PATH -o OUTDIR`: write what PATH holds as a
 * self-contained tkview bundle (stages, metadata, cubins, the source files
 * its locations name, each kernel's pass dumps) that opens the same on
 * another machine. */
#include "cli.h"
#include "tkdump/tk_bundle_load.h"
#include "tkdump/tk_bundle_passes.h"
#include "tkdump/tk_bundle_write.h"

int cmd_bundle(int argc, char **argv)
{
    cli_common common = {0};
    char *out = NULL;
    GOptionEntry entries[] = {
        {"output", 'o', 0, G_OPTION_ARG_FILENAME, &out,
         "The bundle folder to create (must not exist, or be empty)", "OUTDIR"},
        G_OPTION_ENTRY_NULL,
    };
    GOptionContext *ctx = cli_options(
        "PATH -o OUTDIR - write a self-contained tkview bundle of PATH",
        NULL, entries, &common);
    GError *err = NULL;
    int rc = CLI_EXIT_OK;
    tk_bundle *b = NULL;
    if (!g_option_context_parse(ctx, &argc, &argv, &err) || argc != 2 || !out) {
        cli_error("%s", err ? err->message : "usage: tkview bundle PATH -o OUTDIR");
        g_clear_error(&err);
        rc = CLI_EXIT_USAGE;
        goto done;
    }
    if (!(b = cli_load(argv[1], &common))) {
        rc = CLI_EXIT_INPUT;
        goto done;
    }
    tk_diags *diags = tk_diags_new();
    int saved = tk_bundle_save(b, out, diags);
    cli_print_diags(diags, common.quiet);
    tk_diags_free(diags);
    if (saved != 0) {
        cli_error("%s: bundle not written", out);
        rc = CLI_EXIT_INPUT;
    } else if (!common.quiet) {
        /* Each kernel's slice of each pass dump file that has its dumps
         * (indexed by the save: no new diagnostics here). */
        size_t slices = 0;
        for (size_t k = 0; k < tk_bundle_kernel_count(b); k++)
            for (size_t f = 0; f < tk_bundle_pass_file_count(b, NULL); f++)
                slices += tk_bundle_kernel_pass_seq(b, tk_bundle_kernel(b, k), f) >= 0;
        cli_fprintf(stderr, "tkview: wrote %s (%zu kernel%s, %zu pass dump slice%s)\n", out,
                tk_bundle_kernel_count(b), tk_bundle_kernel_count(b) == 1 ? "" : "s",
                slices, slices == 1 ? "" : "s");
    }
done:
    tk_bundle_free(b);
    g_free(out);
    g_strfreev(common.source_dirs);
    g_option_context_free(ctx);
    return rc;
}
