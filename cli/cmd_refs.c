/* cmd_refs.c - `tkview refs PATH`: the source lines each stage has code for. */
#include "cli.h"
#include "tkdump/tk_bundle_load.h"

#include <string.h>

int cmd_refs(int argc, char **argv)
{
    cli_common common = {0};
    char *kernel = NULL, *stage = NULL;
    GOptionEntry entries[] = {
        CLI_KERNEL_OPTION(&kernel, "Only this kernel", ""),
        {"stage", 0, 0, G_OPTION_ARG_STRING, &stage, "Only this stage", "S"},
        G_OPTION_ENTRY_NULL,
    };
    GOptionContext *ctx = cli_options(
        "PATH - the source lines each stage of each kernel refers to, with how "
        "many IR lines each has (innermost frame / any frame)",
        NULL, entries, &common);
    GError *err = NULL;
    int rc = CLI_EXIT_OK;
    tk_stage_kind only = TK_STAGE_UNKNOWN;
    tk_bundle *b = NULL;
    JsonBuilder *j = NULL;
    if (!g_option_context_parse(ctx, &argc, &argv, &err) || argc != 2) {
        rc = cli_usage(&err, "usage: tkview refs PATH [--kernel K] [--stage S] [--json]");
        goto out;
    }
    if (stage && (only = tk_stage_kind_parse(stage)) == TK_STAGE_UNKNOWN) {
        cli_error("--stage %s: not a stage (%s)", stage, cli_stage_names());
        rc = CLI_EXIT_USAGE;
        goto out;
    }
    const tk_kernel *one = NULL;
    if ((rc = cli_open(argv[1], &common, kernel, FALSE, &b, &one)) != CLI_EXIT_OK)
        goto out;
    tk_loctab *tab = tk_bundle_loctab(b);
    if (common.json) {
        j = json_builder_new();
        json_builder_begin_array(j);
    }
    for (size_t i = 0; i < tk_bundle_kernel_count(b); i++) {
        const tk_kernel *k = tk_bundle_kernel(b, i);
        if (one && k != one)
            continue;
        tk_bind *ix = tk_bind_new(k, tab);
        if (j) {
            json_builder_begin_object(j);
            json_builder_set_member_name(j, "name");
            cli_json_string(j, tk_kernel_name(k), strlen(tk_kernel_name(k)));
            json_builder_set_member_name(j, "hash");
            cli_json_string(j, tk_kernel_hash(k), strlen(tk_kernel_hash(k)));
            json_builder_set_member_name(j, "stages");
            json_builder_begin_object(j);
        } else {
            cli_printf("%s %.12s\n", tk_kernel_name(k), tk_kernel_hash(k));
        }
        for (tk_stage_kind s = 0; s < TK_STAGE_COUNT; s++) {
            if ((only != TK_STAGE_UNKNOWN && only != s) || !tk_kernel_stage(k, s))
                continue;
            const tk_source_ref *refs;
            size_t n = tk_bind_source_refs(ix, s, &refs);
            if (j) {
                json_builder_set_member_name(j, tk_stage_kind_name(s));
                json_builder_begin_array(j);
            } else {
                cli_printf("  %s: %zu source lines\n", tk_stage_kind_name(s), n);
                /* what the two numbers are: IR lines whose innermost
                 * frame is the line, and whose stack passes through it */
                if (n)
                    cli_printf("    %6s %6s  %s\n", "exact", "called", "source line");
            }
            for (size_t r = 0; r < n; r++) {
                const char *path = tk_loctab_file_path(tab, refs[r].file);
                if (j) {
                    json_builder_begin_object(j);
                    json_builder_set_member_name(j, "file");
                    cli_json_string(j, path, strlen(path));
                    json_builder_set_member_name(j, "line");
                    json_builder_add_int_value(j, refs[r].line);
                    json_builder_set_member_name(j, "exact");
                    json_builder_add_int_value(j, refs[r].n_exact);
                    json_builder_set_member_name(j, "called");
                    json_builder_add_int_value(j, refs[r].n_called);
                    json_builder_end_object(j);
                } else {
                    cli_printf("    %6u %6u  ", refs[r].n_exact, refs[r].n_called);
                    cli_put_text(stdout, path, strlen(path));
                    cli_printf(":%u\n", refs[r].line);
                }
            }
            if (j)
                json_builder_end_array(j);
        }
        if (j) {
            json_builder_end_object(j);
            json_builder_end_object(j);
        }
        tk_bind_free(ix);
    }
    if (j) {
        json_builder_end_array(j);
        cli_json_print(j);
    }
out:
    if (j)
        g_object_unref(j);
    tk_bundle_free(b);
    g_free(kernel);
    g_free(stage);
    g_strfreev(common.source_dirs);
    g_option_context_free(ctx);
    return rc;
}
