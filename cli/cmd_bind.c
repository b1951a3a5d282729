/* cmd_bind.c - `tkview bind PATH --source FILE:LINE | --ir STAGE:LINE`. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

#include "tkdump/tk_file_query.h"

#define TEXT_COLUMNS 160 /* a terminal line; JSON always has the whole text */

typedef struct {
    tk_cli_common common;
    char *source;
    char *ir;
    char *kernel;
    char *stage;
    gboolean exact;
} bind_args;

/* Splits "A:N" at the last colon.  Returns FALSE when N is not a line number. */
static gboolean split_line_spec(const char *spec, char **head, uint32_t *line)
{
    const char *colon = strrchr(spec, ':');
    if (!colon || colon == spec || !colon[1])
        return FALSE;
    char *end;
    unsigned long long v = strtoull(colon + 1, &end, 10);
    if (*end || v == 0 || v > UINT32_MAX || colon[1] == '-' || colon[1] == '+')
        return FALSE;
    *head = g_strndup(spec, (gsize)(colon - spec));
    *line = (uint32_t)v;
    return TRUE;
}

static void put_line_text(const tk_stage *st, uint32_t line)
{
    size_t len;
    const char *s = tk_stage_line(st, line, &len);
    while (len && (*s == ' ' || *s == '\t')) {
        s++;
        len--;
    }
    if (len > TEXT_COLUMNS) {
        tk_cli_put_text(stdout, s, TEXT_COLUMNS);
        fputs("...", stdout);
    } else {
        tk_cli_put_text(stdout, s, len);
    }
}

static void put_stacks_text(const tk_bind *ix, const tk_loctab *tab,
                            tk_stage_kind k, uint32_t line)
{
    const tk_stack_id *ids;
    size_t n = tk_bind_line_stacks(ix, k, line, &ids);
    for (size_t i = 0; i < n; i++) {
        char *s = tk_cli_stack_string(tab, ids[i]);
        fputs(i ? " | " : "", stdout);
        tk_cli_put_text(stdout, s, strlen(s));
        g_free(s);
    }
    if (n && tk_bind_stack_inferred(ix, k, line))
        printf("  (callers from %s)",
               tk_stage_kind_label(tk_bind_inferred_from(ix, k)));
}

static void json_line(JsonBuilder *j, const tk_bind *ix, const tk_loctab *tab,
                      const tk_stage *st, tk_stage_kind k, uint32_t line)
{
    size_t len;
    const char *text = tk_stage_line(st, line, &len);
    json_builder_begin_object(j);
    json_builder_set_member_name(j, "line");
    json_builder_add_int_value(j, line);
    json_builder_set_member_name(j, "text");
    tk_cli_json_string(j, text, len);
    json_builder_set_member_name(j, "stacks");
    json_builder_begin_array(j);
    const tk_stack_id *ids;
    size_t n = tk_bind_line_stacks(ix, k, line, &ids);
    for (size_t i = 0; i < n; i++)
        tk_cli_json_stack(j, tab, ids[i]);
    json_builder_end_array(j);
    json_builder_set_member_name(j, "stacks_inferred");
    json_builder_add_boolean_value(j, tk_bind_stack_inferred(ix, k, line));
    json_builder_end_object(j);
}

static void json_kernel_id(JsonBuilder *j, const tk_kernel *k)
{
    json_builder_set_member_name(j, "name");
    tk_cli_json_string(j, tk_kernel_name(k), strlen(tk_kernel_name(k)));
    json_builder_set_member_name(j, "hash");
    tk_cli_json_string(j, tk_kernel_hash(k), strlen(tk_kernel_hash(k)));
}

/* ---- --source FILE:LINE ---------------------------------------------- */

static int bind_source(tk_bundle *b, const bind_args *a, tk_stage_kind only)
{
    char *file;
    uint32_t line;
    if (!split_line_spec(a->source, &file, &line)) {
        tk_cli_error("--source wants FILE:LINE (e.g. vector_add.py:16), got \"%s\"",
                     a->source);
        return TK_EXIT_USAGE;
    }
    tk_loctab *tab = tk_bundle_loctab(b);
    /* FILE as the library matches it (tk_file_query.h). */
    tk_file_query *q = tk_file_query_new(b, file);
    tk_file_id *files = NULL;
    size_t n_files = tk_file_query_find(q, NULL, 0, &files);
    tk_file_query_free(q);
    int rc = TK_EXIT_OK;
    if (n_files == 0) {
        tk_cli_error("no location in %s names a file \"%s\" (tkview info lists "
                     "the files referenced)", tk_bundle_path(b), file);
        rc = TK_EXIT_NOTHING;
        goto out;
    }
    if (n_files > 1) {
        tk_cli_error("\"%s\" names %zu files; give more of the path:", file, n_files);
        for (size_t i = 0; i < n_files; i++)
            fprintf(stderr, "  %s\n", tk_loctab_file_path(tab, files[i]));
        rc = TK_EXIT_USAGE;
        goto out;
    }
    tk_file_id fid = files[0];
    const char *fpath = tk_loctab_file_path(tab, fid);
    tk_match match = a->exact ? TK_MATCH_EXACT : TK_MATCH_CALLED;

    const tk_kernel *one = NULL;
    if (a->kernel && !(one = tk_cli_pick_kernel(b, a->kernel))) {
        rc = TK_EXIT_USAGE;
        goto out;
    }
    JsonBuilder *j = NULL;
    if (a->common.json) {
        j = json_builder_new();
        json_builder_begin_object(j);
        json_builder_set_member_name(j, "query");
        json_builder_begin_object(j);
        json_builder_set_member_name(j, "file");
        tk_cli_json_string(j, fpath, strlen(fpath));
        json_builder_set_member_name(j, "line");
        json_builder_add_int_value(j, line);
        json_builder_set_member_name(j, "match");
        json_builder_add_string_value(j, a->exact ? "exact" : "called");
        json_builder_end_object(j);
        json_builder_set_member_name(j, "kernels");
        json_builder_begin_array(j);
    }
    size_t total = 0;
    for (size_t i = 0; i < tk_bundle_kernel_count(b); i++) {
        const tk_kernel *k = tk_bundle_kernel(b, i);
        if (one && k != one)
            continue;
        tk_bind *ix = tk_bind_new(k, tab);
        size_t kernel_total = 0;
        for (tk_stage_kind s = 0; s < TK_STAGE_COUNT; s++) {
            const uint32_t *lines;
            if (only == TK_STAGE_UNKNOWN || only == s)
                kernel_total += tk_bind_source_to_stage(ix, fid, line, match, s, &lines);
        }
        /* Without --kernel, kernels that never mention the line stay quiet. */
        if (kernel_total == 0 && !one) {
            tk_bind_free(ix);
            continue;
        }
        total += kernel_total;
        if (j) {
            json_builder_begin_object(j);
            json_kernel_id(j, k);
            json_builder_set_member_name(j, "stages");
            json_builder_begin_object(j);
        } else {
            printf("%s %.12s: %s:%u (%s)\n", tk_kernel_name(k), tk_kernel_hash(k),
                   fpath, line, a->exact ? "this line only" : "this line and what it called");
        }
        for (tk_stage_kind s = 0; s < TK_STAGE_COUNT; s++) {
            if (!tk_cli_stage_listed(k, s, only))
                continue;
            const tk_stage *st = tk_kernel_stage(k, s);
            const uint32_t *lines;
            size_t n = tk_bind_source_to_stage(ix, fid, line, match, s, &lines);
            if (j) {
                json_builder_set_member_name(j, tk_stage_kind_name(s));
                if (!st) {
                    json_builder_add_null_value(j);
                    continue;
                }
                json_builder_begin_array(j);
                for (size_t l = 0; l < n; l++)
                    json_line(j, ix, tab, st, s, lines[l]);
                json_builder_end_array(j);
                continue;
            }
            if (!st) {
                printf("  %s: (stage not found)\n", tk_stage_kind_name(s));
                continue;
            }
            printf("  %s: %zu line%s\n", tk_stage_kind_name(s), n, n == 1 ? "" : "s");
            for (size_t l = 0; l < n; l++) {
                printf("    %6u  ", lines[l]);
                put_line_text(st, lines[l]);
                fputs("\n            ", stdout);
                put_stacks_text(ix, tab, s, lines[l]);
                putchar('\n');
            }
        }
        if (j) {
            json_builder_end_object(j);
            json_builder_end_object(j);
        }
        tk_bind_free(ix);
    }
    if (j) {
        json_builder_end_array(j);
        json_builder_end_object(j);
        tk_cli_json_print(j);
        g_object_unref(j);
    } else if (total == 0) {
        printf("no IR line is bound to %s:%u\n", fpath, line);
    }
    rc = total ? TK_EXIT_OK : TK_EXIT_NOTHING;
out:
    g_free(files);
    g_free(file);
    return rc;
}

/* ---- --ir STAGE:LINE -------------------------------------------------- */

static int bind_ir(tk_bundle *b, const bind_args *a, tk_stage_kind only)
{
    char *stage_name;
    uint32_t line;
    if (!split_line_spec(a->ir, &stage_name, &line)) {
        tk_cli_error("--ir wants STAGE:LINE (e.g. ttgir:33), got \"%s\"", a->ir);
        return TK_EXIT_USAGE;
    }
    tk_stage_kind from = tk_stage_kind_parse(stage_name);
    g_free(stage_name);
    if (from == TK_STAGE_UNKNOWN) {
        tk_cli_error("--ir: unknown stage in \"%s\" (%s)", a->ir, tk_cli_stage_names());
        return TK_EXIT_USAGE;
    }
    const tk_kernel *k = tk_cli_pick_kernel(b, a->kernel);
    if (!k)
        return TK_EXIT_USAGE;
    const tk_stage *st = tk_kernel_stage(k, from);
    if (!st) {
        tk_cli_error("kernel %s has no %s stage", tk_kernel_name(k), tk_stage_kind_name(from));
        return TK_EXIT_NOTHING;
    }
    if (line > tk_stage_line_count(st)) {
        tk_cli_error("%s has %u lines; line %u is past its end", tk_stage_path(st),
                     tk_stage_line_count(st), line);
        return TK_EXIT_USAGE;
    }
    tk_loctab *tab = tk_bundle_loctab(b);
    tk_bind *ix = tk_bind_new(k, tab);
    const tk_stack_id *ids;
    size_t n_stacks = tk_bind_line_stacks(ix, from, line, &ids);
    size_t total = n_stacks;
    JsonBuilder *j = NULL;
    if (a->common.json) {
        j = json_builder_new();
        json_builder_begin_object(j);
        json_builder_set_member_name(j, "kernel");
        json_builder_begin_object(j);
        json_kernel_id(j, k);
        json_builder_end_object(j);
        json_builder_set_member_name(j, "stage");
        json_builder_add_string_value(j, tk_stage_kind_name(from));
        json_builder_set_member_name(j, "query");
        json_line(j, ix, tab, st, from, line);
        json_builder_set_member_name(j, "stages");
        json_builder_begin_object(j);
    } else {
        printf("%s %.12s  %s:%u  ", tk_kernel_name(k), tk_kernel_hash(k),
               tk_stage_kind_name(from), line);
        put_line_text(st, line);
        printf("\n  stack: ");
        if (n_stacks)
            put_stacks_text(ix, tab, from, line);
        else
            fputs("(no location)", stdout);
        putchar('\n');
    }
    for (tk_stage_kind to = 0; to < TK_STAGE_COUNT; to++) {
        if (to == from || !tk_cli_stage_listed(k, to, only))
            continue;
        const tk_stage *ts = tk_kernel_stage(k, to);
        uint32_t *lines = NULL;
        size_t n = tk_bind_stage_to_stage(ix, from, line, to, &lines);
        total += n;
        if (j) {
            json_builder_set_member_name(j, tk_stage_kind_name(to));
            if (!ts) {
                json_builder_add_null_value(j);
            } else {
                json_builder_begin_array(j);
                for (size_t l = 0; l < n; l++)
                    json_line(j, ix, tab, ts, to, lines[l]);
                json_builder_end_array(j);
            }
        } else if (!ts) {
            printf("  %s: (stage not found)\n", tk_stage_kind_name(to));
        } else {
            printf("  %s: %zu line%s\n", tk_stage_kind_name(to), n, n == 1 ? "" : "s");
            for (size_t l = 0; l < n; l++) {
                printf("    %6u  ", lines[l]);
                put_line_text(ts, lines[l]);
                putchar('\n');
            }
        }
        free(lines);
    }
    if (j) {
        json_builder_end_object(j);
        json_builder_end_object(j);
        tk_cli_json_print(j);
        g_object_unref(j);
    }
    tk_bind_free(ix);
    return total ? TK_EXIT_OK : TK_EXIT_NOTHING;
}

int tk_cmd_bind(int argc, char **argv)
{
    bind_args a = {0};
    GOptionEntry entries[] = {
        {"source", 's', 0, G_OPTION_ARG_STRING, &a.source,
         "Source line to bind: FILE:LINE, FILE matched by path suffix", "FILE:LINE"},
        {"ir", 'i', 0, G_OPTION_ARG_STRING, &a.ir,
         "IR line to bind: STAGE:LINE (STAGE as for --stage)", "STAGE:LINE"},
        {"kernel", 'k', 0, G_OPTION_ARG_STRING, &a.kernel,
         "Kernel: name, hash prefix, name:hash or index", "K"},
        {"stage", 0, 0, G_OPTION_ARG_STRING, &a.stage,
         "Only this stage in the answer", "S"},
        {"exact", 0, 0, G_OPTION_ARG_NONE, &a.exact,
         "Only IR whose innermost frame is the line (default: also what it called)",
         NULL},
        G_OPTION_ENTRY_NULL,
    };
    GOptionContext *ctx = g_option_context_new(
        "PATH (--source FILE:LINE | --ir STAGE:LINE) - what a line became, or where IR came from");
    g_option_context_add_main_entries(ctx, entries, NULL);
    tk_cli_add_common(ctx, &a.common);
    GError *err = NULL;
    int rc;
    tk_stage_kind only = TK_STAGE_UNKNOWN;
    if (!g_option_context_parse(ctx, &argc, &argv, &err) || argc != 2 ||
        !a.source == !a.ir) {
        tk_cli_error("%s", err ? err->message
                               : "usage: tkview bind PATH (--source FILE:LINE | "
                                 "--ir STAGE:LINE) [--kernel K] [--stage S] [--json]");
        g_clear_error(&err);
        rc = TK_EXIT_USAGE;
        goto out;
    }
    if (a.stage && (only = tk_stage_kind_parse(a.stage)) == TK_STAGE_UNKNOWN) {
        tk_cli_error("--stage %s: not a stage (%s)", a.stage, tk_cli_stage_names());
        rc = TK_EXIT_USAGE;
        goto out;
    }
    tk_bundle *b = tk_cli_load(argv[1], &a.common);
    if (!b) {
        rc = TK_EXIT_INPUT;
        goto out;
    }
    rc = a.source ? bind_source(b, &a, only) : bind_ir(b, &a, only);
    tk_bundle_free(b);
out:
    g_free(a.source);
    g_free(a.ir);
    g_free(a.kernel);
    g_free(a.stage);
    g_strfreev(a.common.source_dirs);
    g_option_context_free(ctx);
    return rc;
}
