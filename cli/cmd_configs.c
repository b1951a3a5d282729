/* cmd_configs.c - `tkview configs PATH`: every compile of a kernel side by
 * side, one table per kernel name with two or more compiles: what sets each
 * apart (tk_config_apart), warps, stages, registers, spills, shared memory,
 * SASS instructions by class, the time the autotuner measured (when the
 * capture kept it: tk_bundle_autotune_timings()), the winner, and
 * each row's first divergence from the winner, and with --json the source
 * line x compile matrix: all of it the library's (tk_configs.h). */
#include "cli.h"
#include "tkdump/tk_bundle_load.h"
#include "tkdump/tk_configs.h"

#include <string.h>

static const char summary[] =
    "One table per kernel compiled more than once (autotune configurations,\n"
    "repeated compiles): a row per compile with what sets it apart from the\n"
    "others, num_warps, num_stages, registers, spills, shared memory, its\n"
    "SASS instructions by class, the time the autotuner measured for it\n"
    "(median ms, from autotune_timings.json in PATH when there is one), the\n"
    "winner (*: the fastest measured; an extern kernel such as aten's mm\n"
    "when Inductor measured it faster than every compile, then no row is\n"
    "starred), and the first pass where it parts from the winner (from the\n"
    "fastest compile when an extern kernel won).  See docs/cli-json.md.";

static void put_num(int64_t v)
{
    if (v < 0)
        printf(" %8s", "-");
    else
        printf(" %8lld", (long long)v);
}

static void json_group(JsonBuilder *j, const tk_configs_group *g)
{
    json_builder_begin_object(j);
    json_builder_set_member_name(j, "kernel");
    json_builder_add_string_value(j, g->name);
    /* an extern kernel (aten's mm) that beat every compile */
    json_builder_set_member_name(j, "extern_winner");
    if (g->extern_winner) {
        json_builder_begin_object(j);
        json_builder_set_member_name(j, "name");
        json_builder_add_string_value(j, g->extern_winner);
        json_builder_set_member_name(j, "ms");
        json_builder_add_double_value(j, g->extern_ms);
        json_builder_end_object(j);
    } else {
        json_builder_add_null_value(j);
    }
    json_builder_set_member_name(j, "configs");
    json_builder_begin_array(j);
    for (size_t r = 0; r < g->n_rows; r++) {
        const tk_configs_row *x = &g->rows[r];
        const tk_kernel_meta *m = tk_kernel_metadata(x->kernel);
        json_builder_begin_object(j);
        json_builder_set_member_name(j, "index");
        json_builder_add_int_value(j, (gint64)x->index);
        json_builder_set_member_name(j, "hash");
        json_builder_add_string_value(j, tk_kernel_hash(x->kernel));
        json_builder_set_member_name(j, "apart");
        json_builder_add_string_value(j, x->apart);
        cli_json_int_or_null(j, "num_warps", m->num_warps);
        cli_json_int_or_null(j, "num_stages", m->num_stages);
        cli_json_int_or_null(j, "registers", m->registers);
        cli_json_int_or_null(j, "spill_bytes", m->spill_bytes);
        cli_json_int_or_null(j, "shared_bytes", m->shared_bytes);
        json_builder_set_member_name(j, "sass");
        if (!x->has_sass) {
            json_builder_add_null_value(j);
        } else {
            json_builder_begin_object(j);
            json_builder_set_member_name(j, "instructions");
            json_builder_add_int_value(j, (gint64)x->sass[0]);
            for (int s = 0; s < TK_SASS_CLASS_COUNT; s++) {
                json_builder_set_member_name(j, tk_sass_class_name((tk_sass_class)s));
                json_builder_add_int_value(j, (gint64)x->sass[1 + s]);
            }
            json_builder_end_object(j);
        }
        json_builder_set_member_name(j, "ms");
        if (x->has_ms)
            json_builder_add_double_value(j, x->ms);
        else
            json_builder_add_null_value(j);
        json_builder_set_member_name(j, "winner");
        json_builder_add_boolean_value(j, x->winner);
        json_builder_set_member_name(j, "first_divergence");
        if (x->diverge)
            json_builder_add_string_value(j, x->diverge);
        else
            json_builder_add_null_value(j);
        json_builder_end_object(j);
    }
    json_builder_end_array(j);
    /* the source line x compile matrix: SASS instructions per row */
    json_builder_set_member_name(j, "lines");
    json_builder_begin_array(j);
    for (size_t i = 0; i < g->n_lines; i++) {
        json_builder_begin_object(j);
        json_builder_set_member_name(j, "file");
        json_builder_add_string_value(j, g->lines[i].path);
        json_builder_set_member_name(j, "line");
        json_builder_add_int_value(j, g->lines[i].line);
        json_builder_set_member_name(j, "sass");
        json_builder_begin_array(j);
        for (size_t r = 0; r < g->n_rows; r++)
            json_builder_add_int_value(j, g->lines[i].sass[r]);
        json_builder_end_array(j);
        json_builder_end_object(j);
    }
    json_builder_end_array(j);
    json_builder_end_object(j);
}

static void text_group(const tk_configs_group *g, size_t gi)
{
    printf("%s%s: %zu compiles%s\n", gi ? "\n" : "", g->name, g->n_rows,
           g->winner < 0 ? " (no timings: autotune_timings.json not found or "
                           "matching none)"
                         : "");
    if (g->extern_winner) {
        printf("  winner: the extern kernel ");
        cli_put_text(stdout, g->extern_winner, strlen(g->extern_winner));
        printf(", %.4f ms, faster than every compile here (the fastest: %.4f ms); "
               "rows part from the fastest compile\n",
               g->extern_ms, g->rows[g->winner].ms);
    }
    printf("    %5s %8s %8s %8s %8s %8s %8s %10s  %s\n", "index", "warps", "stages", "regs",
           "spills", "shared", "sass", "ms",
           g->extern_winner ? "apart / classes / first divergence from the fastest compile"
                            : "apart / classes / first divergence from the winner");
    for (size_t r = 0; r < g->n_rows; r++) {
        const tk_configs_row *x = &g->rows[r];
        const tk_kernel_meta *m = tk_kernel_metadata(x->kernel);
        printf("  %s %5zu", x->winner ? "*" : " ", x->index);
        put_num(m->num_warps);
        put_num(m->num_stages);
        put_num(m->registers);
        put_num(m->spill_bytes);
        put_num(m->shared_bytes);
        put_num(x->has_sass ? (int64_t)x->sass[0] : -1);
        if (x->has_ms)
            printf(" %10.4f", x->ms);
        else
            printf(" %10s", "-");
        printf("  ");
        cli_put_text(stdout, x->apart, strlen(x->apart));
        putchar('\n');
        if (x->has_sass) {
            printf("%*s", 66, "");
            for (int s = 0; s < TK_SASS_CLASS_COUNT; s++)
                if (x->sass[1 + s] > 0)
                    printf(" %s %.0f", tk_sass_class_name((tk_sass_class)s), x->sass[1 + s]);
            putchar('\n');
        }
        if (x->diverge && !x->winner && (ptrdiff_t)r != g->winner)
            printf("%*s parts from the %s at: %s\n", 66, "",
                   g->extern_winner ? "fastest compile" : "winner", x->diverge);
    }
}

int cmd_configs(int argc, char **argv)
{
    cli_common common = {0};
    char *kernel = NULL;
    GOptionEntry entries[] = {
        CLI_KERNEL_OPTION(&kernel, "Only the compiles of this kernel",
                          " (any one compile names them all)"),
        G_OPTION_ENTRY_NULL,
    };
    GOptionContext *ctx = cli_options(
        "PATH - every compile of a kernel side by side",
        summary, entries, &common);
    GError *err = NULL;
    int rc = CLI_EXIT_OK;
    tk_bundle *b = NULL;
    JsonBuilder *j = NULL;
    if (!g_option_context_parse(ctx, &argc, &argv, &err) || argc != 2) {
        rc = cli_usage(&err, "usage: tkview configs PATH [--kernel K] [--json]");
        goto out;
    }
    const tk_kernel *one = NULL;
    if ((rc = cli_open(argv[1], &common, kernel, FALSE, &b, &one)) != CLI_EXIT_OK)
        goto out;
    const char *only = one ? tk_kernel_name(one) : NULL;
    char *timings = tk_bundle_autotune_timings(b);
    tk_diags *diags = tk_diags_new();
    tk_configs *cf = tk_configs_build(b, only, timings, diags);
    g_free(timings);
    cli_print_diags(diags, common.quiet);
    tk_diags_free(diags);
    size_t groups = tk_configs_group_count(cf);
    if (common.json) {
        j = json_builder_new();
        json_builder_begin_object(j);
        json_builder_set_member_name(j, "groups");
        json_builder_begin_array(j);
    }
    for (size_t gi = 0; gi < groups; gi++) {
        const tk_configs_group *g = tk_configs_group_get(cf, gi);
        if (j)
            json_group(j, g);
        else
            text_group(g, gi);
    }
    tk_configs_free(cf);
    if (j) {
        json_builder_end_array(j);
        json_builder_end_object(j);
        cli_json_print(j);
    } else if (groups == 0) {
        printf("no kernel was compiled more than once\n");
    }
    if (groups == 0)
        rc = CLI_EXIT_NOTHING;
out:
    if (j)
        g_object_unref(j);
    tk_bundle_free(b);
    g_free(kernel);
    g_option_context_free(ctx);
    return rc;
}
