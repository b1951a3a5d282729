/* cmd_html.c - `tkview --html OUTDIR PATH` (also `tkview html OUTDIR
 * PATH`): the static, offline report of PATH (html/html.h), written by the
 * report module, loaded here and nowhere else: libxml2 and cmark (and ICU
 * and libstdc++ behind libxml2) would otherwise be linked at every start
 * of every command (cli/README.md, "The report module"). */
#include "cli.h"
#include "html.h"
#include "tkdump/tk_bundle_load.h"

#include <gmodule.h>
#include <string.h>

#include "tkview-config.h"

/* Opens PATH as the report module of this program's version: its
 * html_write(), or NULL with *WHY (g_free). */
static html_write_fn module_open(const char *path, char **why)
{
    GModule *m = g_module_open(path, G_MODULE_BIND_LAZY | G_MODULE_BIND_LOCAL);
    if (!m) {
        *why = g_strdup(g_module_error());
        return NULL;
    }
    html_write_fn write = NULL;
    html_module_version_fn version = NULL;
    if (!g_module_symbol(m, HTML_WRITE_SYMBOL, (gpointer *)&write) ||
        !g_module_symbol(m, HTML_VERSION_SYMBOL, (gpointer *)&version) || !write ||
        !version) {
        *why = g_strdup_printf("%s: not tkview's report module", path);
    } else if (strcmp(version(), TKVIEW_VERSION) != 0) {
        *why = g_strdup_printf("%s: the report module of tkview %s, not %s", path,
                               version(), TKVIEW_VERSION);
    }
    if (*why) {
        g_module_close(m);
        return NULL;
    }
    /* stays loaded until the program exits */
    return write;
}

/* The report module: $TKVIEW_HTML_MODULE, else the one installed with this
 * program (its path relative to the program's folder), else the build
 * tree's beside it.  Never one found elsewhere: a copy of another build
 * could be of other code with the same version.  NULL with the reason
 * printed. */
static html_write_fn module_load(void)
{
    GPtrArray *tried = g_ptr_array_new_with_free_func(g_free);
    const char *env = g_getenv("TKVIEW_HTML_MODULE");
    if (env && *env) {
        g_ptr_array_add(tried, g_strdup(env));
    } else {
        char *exe = g_file_read_link("/proc/self/exe", NULL);
        char *dir = exe ? g_path_get_dirname(exe) : NULL;
        if (g_path_is_absolute(TKVIEW_HTML_MODULE_INSTALLED))
            g_ptr_array_add(tried, g_build_filename(TKVIEW_HTML_MODULE_INSTALLED,
                                                    HTML_MODULE_NAME, NULL));
        else if (dir)
            g_ptr_array_add(tried, g_build_filename(dir, TKVIEW_HTML_MODULE_INSTALLED,
                                                    HTML_MODULE_NAME, NULL));
        if (dir)
            g_ptr_array_add(tried, g_build_filename(dir, TKVIEW_HTML_MODULE_BUILD,
                                                    HTML_MODULE_NAME, NULL));
        g_free(dir);
        g_free(exe);
    }
    html_write_fn fn = NULL;
    char *why = NULL;
    for (guint i = 0; i < tried->len && !fn && !why; i++)
        if (g_file_test(tried->pdata[i], G_FILE_TEST_EXISTS))
            fn = module_open(tried->pdata[i], &why);
    if (!fn && !why) {
        GString *where = g_string_new(NULL);
        for (guint i = 0; i < tried->len; i++)
            g_string_append_printf(where, "%s%s", i ? ", " : "", (char *)tried->pdata[i]);
        why = g_strdup_printf("the report module %s was not found (looked at %s; "
                              "TKVIEW_HTML_MODULE may name it)",
                              HTML_MODULE_NAME, where->str);
        g_string_free(where, TRUE);
    }
    if (why)
        cli_error("%s", why);
    g_free(why);
    g_ptr_array_unref(tried);
    return fn;
}

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
    html_write_fn write = module_load();
    if (!write) {
        rc = CLI_EXIT_USAGE;
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
    int written = write(b, argv[1], &opts, &st, diags);
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
