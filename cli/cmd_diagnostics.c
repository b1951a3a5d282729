/* cmd_diagnostics.c - `tkview diagnostics PATH`: what the compiler said
 * (MLIR remarks, warnings and errors, ptxas's log, front-end errors) per
 * kernel, each on its source line, IR line and pass (tk_diag.h). */
#include "cli.h"

#include <string.h>

#include "tkdump/tk_diag.h"

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

static void json_str_or_null(JsonBuilder *j, const char *name, const char *s)
{
    json_builder_set_member_name(j, name);
    if (s)
        tk_cli_json_string(j, s, strlen(s));
    else
        json_builder_add_null_value(j);
}

static void json_uint_or_null(JsonBuilder *j, const char *name, uint64_t v)
{
    json_builder_set_member_name(j, name);
    if (v)
        json_builder_add_int_value(j, (gint64)v);
    else
        json_builder_add_null_value(j);
}

static void json_entry(JsonBuilder *j, const tk_diag_entry *e)
{
    const tk_diag_frame *f = e->n_stack ? &e->stack[0] : NULL;
    json_builder_begin_object(j);
    json_str_or_null(j, "origin", tk_diag_origin_name(e->origin));
    json_str_or_null(j, "severity", tk_diag_level_name(e->level));
    json_str_or_null(j, "code", e->code);
    json_str_or_null(j, "message", e->message);
    json_builder_set_member_name(j, "notes");
    json_builder_begin_array(j);
    for (size_t i = 0; i < e->n_notes; i++)
        tk_cli_json_string(j, e->notes[i], strlen(e->notes[i]));
    json_builder_end_array(j);
    json_str_or_null(j, "file", f ? f->file : NULL);
    json_uint_or_null(j, "line", f ? f->line : 0);
    json_uint_or_null(j, "column", f ? f->column : 0);
    json_builder_set_member_name(j, "stack");
    json_builder_begin_array(j);
    for (size_t i = 0; i < e->n_stack; i++) {
        json_builder_begin_object(j);
        json_str_or_null(j, "file", e->stack[i].file);
        json_uint_or_null(j, "line", e->stack[i].line);
        json_uint_or_null(j, "column", e->stack[i].column);
        json_builder_end_object(j);
    }
    json_builder_end_array(j);
    json_str_or_null(j, "stage", e->has_stage ? tk_stage_kind_name(e->stage) : NULL);
    json_uint_or_null(j, "ir_line", e->ir_line);
    json_str_or_null(j, "pass", e->pass);
    json_builder_end_object(j);
}

/* "base.py:28:27" of a frame (path cut to its base name). */
static void put_frame(const tk_diag_frame *f)
{
    char *base = g_path_get_basename(f->file);
    if (f->column)
        tk_cli_printf("%s:%u:%u", base, f->line, f->column);
    else
        tk_cli_printf("%s:%u", base, f->line);
    g_free(base);
}

static void text_entry(const tk_diag_entry *e)
{
    tk_cli_printf("  %s %s%s%s ", tk_diag_level_name(e->level),
                  tk_diag_origin_name(e->origin), e->code ? " " : "",
                  e->code ? e->code : "");
    if (e->n_stack)
        put_frame(&e->stack[0]);
    else
        tk_cli_printf("(no source line)");
    if (e->has_stage && e->ir_line)
        tk_cli_printf(" [%s:%u]", tk_stage_kind_name(e->stage), e->ir_line);
    if (e->count > 1)
        tk_cli_printf(" (printed %u times)", e->count);
    tk_cli_printf("\n    %s\n", e->message);
    for (size_t i = 1; i < e->n_stack; i++) {
        tk_cli_printf("    called from ");
        put_frame(&e->stack[i]);
        tk_cli_printf("\n");
    }
    for (size_t i = 0; i < e->n_notes; i++)
        tk_cli_printf("    note: %s\n", e->notes[i]);
    if (e->pass)
        tk_cli_printf("    pass: %s%s\n", e->pass,
                      e->pass_from && !strcmp(e->pass_from, "table")
                          ? " (the pass that emits this message)" : "");
    const tk_diag_known *k = tk_diag_entry_explain(e);
    if (k)
        tk_cli_printf("    what it means: %s\n    what to try: %s\n", k->meaning,
                      k->try_this);
}

static void text_summary(const tk_diag_ptxas_summary *s)
{
    if (!s->present)
        return;
    tk_cli_printf("  ptxas: %" G_GINT64_FORMAT " registers, %" G_GINT64_FORMAT
                  " barriers, %" G_GINT64_FORMAT " bytes stack frame, %"
                  G_GINT64_FORMAT " bytes spill stores, %" G_GINT64_FORMAT
                  " bytes spill loads",
                  s->registers, s->barriers, s->stack_frame, s->spill_stores,
                  s->spill_loads);
    for (int i = 0; i < 4; i++)
        if (s->cmem[i] >= 0)
            tk_cli_printf(", %" G_GINT64_FORMAT " bytes cmem[%d]", s->cmem[i], i);
    tk_cli_printf("\n");
}

int tk_cmd_diagnostics(int argc, char **argv)
{
    tk_cli_common common = {0};
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
    tk_cli_add_common(ctx, &common);
    GError *err = NULL;
    int rc = TK_EXIT_OK;
    tk_bundle *b = NULL;
    tk_diag_set *set = NULL;
    tk_diags *diags = tk_diags_new();
    if (!g_option_context_parse(ctx, &argc, &argv, &err) || argc != 2) {
        tk_cli_error("%s", err ? err->message
                               : "usage: tkview diagnostics PATH [--kernel K] [--json]");
        g_clear_error(&err);
        rc = TK_EXIT_USAGE;
        goto out;
    }
    const char *path = argv[1];
    char *out_txt = g_build_filename(path, "stdout.txt", NULL);
    char *err_txt = g_build_filename(path, "stderr.txt", NULL);
    gboolean streams = g_file_test(out_txt, G_FILE_TEST_IS_REGULAR) ||
                       g_file_test(err_txt, G_FILE_TEST_IS_REGULAR);
    g_free(out_txt);
    g_free(err_txt);
    tk_load_options opts = {
        (const char *const *)common.source_dirs,
        common.source_dirs ? g_strv_length(common.source_dirs) : 0,
    };
    /* A compile that failed in Triton's front end left no IR: the folder
     * has no kernel, yet its streams say what failed. */
    b = tk_bundle_load(path, &opts, diags);
    if (!b && !streams) {
        tk_cli_print_diags(diags, common.quiet);
        tk_cli_error("%s: nothing could be loaded", path);
        rc = TK_EXIT_INPUT;
        goto out;
    }
    if (b)
        tk_cli_print_diags(diags, common.quiet);
    tk_diags_free(diags);
    diags = tk_diags_new();
    if (!streams && !common.quiet)
        tk_cli_error("%s: no stdout.txt or stderr.txt beside the capture: no "
                     "compiler messages to read", path);
    set = tk_diag_set_load(g_file_test(path, G_FILE_TEST_IS_DIR) ? path : ".",
                           b, diags);

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
            json_str_or_null(j, "name", k ? k->name : NULL);
            json_str_or_null(j, "hash", k ? k->hash : NULL);
            json_builder_set_member_name(j, "failed");
            json_builder_add_boolean_value(j, k && k->failed);
            json_builder_set_member_name(j, "diagnostics");
            json_builder_begin_array(j);
        } else {
            tk_cli_printf("%s %.12s%s\n", k ? (k->name ? k->name : "(unknown kernel)")
                                            : "(kernel unknown)",
                          k && k->hash ? k->hash : "", k && k->failed
                              ? "  FAILED to compile" : "");
            if (k)
                text_summary(&k->ptxas);
        }
        size_t n = 0;
        for (size_t i = 0; i < tk_diag_set_count(set); i++) {
            const tk_diag_entry *e = tk_diag_set_entry(set, i);
            if (e->kernel != want)
                continue;
            n++;
            if (j)
                json_entry(j, e);
            else
                text_entry(e);
        }
        if (j) {
            json_builder_end_array(j);
            json_builder_end_object(j);
        } else if (!n) {
            tk_cli_printf("  no compiler messages\n");
        }
    }
    if (j) {
        json_builder_end_array(j);
        json_builder_end_object(j);
        tk_cli_json_print(j);
        g_object_unref(j);
    }
    if (kernel && !shown) {
        tk_cli_error("--kernel %s: no such kernel", kernel);
        rc = TK_EXIT_USAGE;
    } else if (!tk_diag_set_count(set)) {
        rc = TK_EXIT_NOTHING;
    }
    tk_cli_print_diags(diags, common.quiet);
out:
    tk_diag_set_free(set);
    tk_bundle_free(b);
    tk_diags_free(diags);
    g_option_context_free(ctx);
    g_free(kernel);
    g_strfreev(common.source_dirs);
    return rc;
}
