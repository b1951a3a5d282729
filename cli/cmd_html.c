/* cmd_html.c - `tkview --html OUTDIR PATH` (also `tkview html OUTDIR
 * PATH`): the static, offline report of PATH (html/html.h). */
#include "cli.h"
#include "html.h"
#include "tkdump/tk_bundle_load.h"

int cmd_html(int argc, char **argv)
{
    cli_common common = {0};
    char *notes = NULL;
    char **compare = NULL;
    gboolean force = FALSE, no_passes = FALSE, stats = FALSE;
    GOptionEntry entries[] = {
        {"notes", 0, 0, G_OPTION_ARG_FILENAME, &notes,
         "A Markdown note to show on the report's first page (no raw HTML)", "FILE.md"},
        {"force", 0, 0, G_OPTION_ARG_NONE, &force,
         "Replace OUTDIR even if it is a non-empty folder that is not a report", NULL},
        {"no-passes", 0, 0, G_OPTION_ARG_NONE, &no_passes,
         "Leave the pass timeline out", NULL},
        {"compare", 0, 0, G_OPTION_ARG_STRING_ARRAY, &compare,
         "Also write a page comparing kernel K with K2 (of PATH_B when given; "
         "repeatable)", "K:K2"},
        {"stats", 0, 0, G_OPTION_ARG_NONE, &stats,
         "Print seconds, files and bytes written", NULL},
        G_OPTION_ENTRY_NULL,
    };
    GOptionContext *ctx = cli_options(
        "OUTDIR PATH [PATH_B] - write a static HTML report of PATH into the folder "
        "OUTDIR (PATH_B: the other side of --compare)",
        NULL, entries, &common);
    GError *err = NULL;
    int rc = CLI_EXIT_OK;
    tk_bundle *b = NULL, *other = NULL;
    if (!g_option_context_parse(ctx, &argc, &argv, &err) || argc < 3 || argc > 4 ||
        (argc == 4 && !compare)) {
        rc = cli_usage(&err, "usage: tkview --html OUTDIR PATH [PATH_B --compare K:K2] "
                             "[--compare K:K2] [--notes FILE.md] [--force]");
        goto done;
    }
    if (!(b = cli_load(argv[2], &common)) ||
        (argc == 4 && !(other = cli_load(argv[3], &common)))) {
        rc = CLI_EXIT_INPUT;
        goto done;
    }
    html_options opts = {.notes_path = notes, .force = force, .no_passes = no_passes,
                            .compare = (const char *const *)compare, .other = other};
    html_stats st = {0};
    tk_diags *diags = tk_diags_new();
    int written = html_write(b, argv[1], &opts, &st, diags);
    cli_print_diags(diags, common.quiet);
    tk_diags_free(diags);
    if (written != 0) {
        cli_error("%s: report not written", argv[1]);
        rc = CLI_EXIT_USAGE;
    } else {
        if (!common.quiet)
            cli_fprintf(stderr, "tkview: wrote %s/index.html (%zu kernel%s)\n", argv[1],
                    st.kernels, st.kernels == 1 ? "" : "s");
        if (stats)
            cli_printf("seconds %.3f\nfiles %u\nbytes %llu\n", st.seconds, st.files,
                   (unsigned long long)st.bytes);
    }
done:
    tk_bundle_free(other);
    tk_bundle_free(b);
    g_free(notes);
    g_strfreev(compare);
    g_strfreev(common.source_dirs);
    g_option_context_free(ctx);
    return rc;
}
