/* cmd_diagnostics.c - `tkview diagnostics PATH`: what the compiler said
 * (MLIR remarks, warnings and errors, ptxas's log, front-end errors) per
 * kernel, each on its source line, IR line and pass (tk_diag.h). */
#include "cli.h"

#include <string.h>

#include "tkdump/tk_bundle_load.h"
#include "tkdump/tk_diag.h"
#include "tkdump/tk_diag_pass.h"

/* Whether kernel entry K is the one SPEC names: its name, a prefix of its
 * hash, or NAME:HASHPREFIX. */
static gboolean kernel_named(const tk_diag_kernel *k, const char *spec)
{
    if (!spec)
        return TRUE;
    const char *colon = strchr(spec, ':');
    if (colon)
        return k->name && strlen(k->name) == (size_t)(colon - spec) &&
               !strncmp(k->name, spec, (size_t)(colon - spec)) && k->hash &&
               g_str_has_prefix(k->hash, colon + 1);
    return (k->name && !strcmp(k->name, spec)) ||
           (k->hash && g_str_has_prefix(k->hash, spec));
}

/* Whether B has a kernel named NAME. */
static gboolean named_in(const tk_bundle *b, const char *name)
{
    for (size_t i = 0; b && i < tk_bundle_kernel_count(b); i++)
        if (!strcmp(tk_kernel_name(tk_bundle_kernel(b, i)), name))
            return TRUE;
    return FALSE;
}

/* The pass timeline of kernel entry K (index KI), planned only (no dump
 * read), when one of its messages names a pass; else NULL. */
static tk_timeline *pass_timeline(const tk_diag_set *set, size_t ki,
                                  tk_bundle *b, const tk_diag_kernel *k,
                                  tk_diags *diags)
{
    if (!b || !k->kernel)
        return NULL;
    gboolean any = FALSE;
    for (size_t i = 0; i < tk_diag_set_count(set) && !any; i++) {
        const tk_diag_entry *e = tk_diag_set_entry(set, i);
        any = e->kernel == ki && e->pass;
    }
    tk_timeline_opts o = {.flags = TK_TIMELINE_NO_MEASURE};
    return any ? tk_timeline_of_kernel(b, k->kernel, &o, diags) : NULL;
}

int cmd_diagnostics(int argc, char **argv)
{
    cli_common common = {0};
    char *kernel = NULL;
    GOptionEntry entries[] = {
        {"kernel", 'k', 0, G_OPTION_ARG_STRING, &kernel,
         "Only this kernel: name, hash prefix or name:hash", "K"},
        G_OPTION_ENTRY_NULL,
    };
    GOptionContext *ctx = g_option_context_new(
        "PATH - what the compiler said about each kernel (MLIR remarks, "
        "warnings and errors, ptxas's log, front-end errors), each on its "
        "source line, IR line and pass; read from stdout.txt and stderr.txt "
        "beside the capture");
    g_option_context_add_main_entries(ctx, entries, NULL);
    cli_add_common(ctx, &common);
    GError *err = NULL;
    int rc = CLI_EXIT_OK;
    tk_bundle *b = NULL;
    tk_diag_set *set = NULL;
    tk_diags *diags = tk_diags_new();
    if (!g_option_context_parse(ctx, &argc, &argv, &err) || argc != 2) {
        cli_error("%s", err ? err->message
                               : "usage: tkview diagnostics PATH [--kernel K] [--json]");
        g_clear_error(&err);
        rc = CLI_EXIT_USAGE;
        goto out;
    }
    const char *path = argv[1];
    tk_load_options opts = {
        (const char *const *)common.source_dirs,
        common.source_dirs ? g_strv_length(common.source_dirs) : 0,
    };
    /* A compile that failed in Triton's front end left no IR: the folder
     * has no kernel, yet its streams say what failed. */
    b = tk_bundle_load(path, &opts, diags);
    /* A folder: its stdout.txt and stderr.txt; a file: a saved stream. */
    tk_diags *sd = tk_diags_new();
    set = g_file_test(path, G_FILE_TEST_EXISTS) ? tk_diag_set_load(path, b, sd)
                                                : tk_diag_set_new();
    gboolean streams = tk_diag_set_stream_count(set) > 0;
    if (!b && !streams) {
        cli_print_diags(diags, common.quiet);
        cli_error("%s: nothing could be loaded", path);
        tk_diags_free(sd);
        rc = CLI_EXIT_INPUT;
        goto out;
    }
    if (b)
        cli_print_diags(diags, common.quiet);
    tk_diags_free(diags);
    diags = sd;
    if (!streams && !common.quiet)
        cli_error("%s: no stdout.txt or stderr.txt beside the capture (nor "
                     "in its capture/ folder): no compiler messages to read",
                     path);

    size_t nk = tk_diag_set_kernel_count(set), shown = 0;
    gboolean unattributed = FALSE;
    for (size_t i = 0; i < tk_diag_set_count(set); i++)
        if (tk_diag_set_entry(set, i)->kernel == SIZE_MAX)
            unattributed = TRUE;
    JsonBuilder *j = NULL;
    if (common.json) {
        j = json_builder_new();
        json_builder_begin_object(j);
        json_builder_set_member_name(j, "kernels");
        json_builder_begin_array(j);
    }
    for (size_t ki = 0; ki <= nk; ki++) {
        const tk_diag_kernel *k = ki < nk ? tk_diag_set_kernel(set, ki) : NULL;
        size_t want = ki < nk ? ki : SIZE_MAX;
        if (!k && (!unattributed || kernel))
            continue;
        if (k && !kernel_named(k, kernel))
            continue;
        shown++;
        if (j) {
            json_builder_begin_object(j);
            cli_json_str_or_null(j, "name", k ? k->name : NULL);
            cli_json_str_or_null(j, "hash", k ? k->hash : NULL);
            json_builder_set_member_name(j, "failed");
            json_builder_add_boolean_value(j, k && k->failed);
            json_builder_set_member_name(j, "diagnostics");
            json_builder_begin_array(j);
        } else {
            cli_printf("%s %.12s%s%s\n", k ? (k->name ? k->name : "(unknown kernel)")
                                              : "(kernel unknown)",
                          k && k->hash ? k->hash : "",
                          k && !k->kernel && k->name
                              ? (named_in(b, k->name)
                                     ? "(which compile of this name: unknown)"
                                     : "(no kernel folder: it never got IR)")
                              : "",
                          k && k->failed ? "  FAILED to compile" : "");
            if (k)
                cli_diag_summary_text(&k->ptxas);
        }
        tk_timeline *tl = k ? pass_timeline(set, want, b, k, diags) : NULL;
        size_t n = 0;
        for (size_t i = 0; i < tk_diag_set_count(set); i++) {
            const tk_diag_entry *e = tk_diag_set_entry(set, i);
            if (e->kernel != want)
                continue;
            n++;
            if (j)
                cli_diag_entry_json(j, e, tl);
            else
                cli_diag_entry_text(e, tl);
        }
        tk_timeline_free(tl);
        if (j) {
            json_builder_end_array(j);
            json_builder_end_object(j);
        } else if (!n) {
            cli_printf("  no compiler messages\n");
        }
    }
    if (j) {
        json_builder_end_array(j);
        json_builder_end_object(j);
        cli_json_print(j);
        g_object_unref(j);
    }
    if (kernel && !shown) {
        cli_error("--kernel %s: no such kernel", kernel);
        rc = CLI_EXIT_USAGE;
    } else if (!tk_diag_set_count(set)) {
        rc = CLI_EXIT_NOTHING;
    }
    cli_print_diags(diags, common.quiet);
out:
    tk_diag_set_free(set);
    tk_bundle_free(b);
    tk_diags_free(diags);
    g_option_context_free(ctx);
    g_free(kernel);
    g_strfreev(common.source_dirs);
    return rc;
}
