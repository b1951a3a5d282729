/* cmd_history.c - `tkview history PATH --source FILE:LINE`: the passes that
 * added or removed IR bound to a source line, in pipeline order. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

#include "tkdump/tk_bundle_load.h"
#include "tkdump/tk_file_query.h"
#include "tkdump/tk_timeline.h"

typedef struct {
    cli_common common;
    char *source;
    char *kernel;
    gboolean exact;
    gboolean verbose;
} history_args;

/* Notes from reading the pass dumps (LLVM's function-only dumps whose
 * metadata is not printed, ...) repeat for every kernel and every run:
 * they are held and summed up in one line unless --verbose.  Warnings and
 * errors are always printed as they come. */
typedef struct {
    size_t n;
    char *first; /* "FILE:LINE: MESSAGE" of the first note held */
} held_notes;

static void print_diags_holding_notes(const tk_diags *diags, const history_args *a,
                                      held_notes *held)
{
    if (a->verbose) {
        cli_print_diags(diags, a->common.quiet);
        return;
    }
    tk_diags *rest = tk_diags_new();
    for (size_t i = 0; i < tk_diags_count(diags); i++) {
        const tk_diag *d = tk_diags_get(diags, i);
        if (d->severity != TK_DIAG_NOTE) {
            tk_diags_add(rest, d->severity, d->file, d->line, "%s", d->message);
            continue;
        }
        if (!held->n++)
            held->first = g_strdup_printf("%s:%llu: %s", d->file,
                                          (unsigned long long)d->line, d->message);
    }
    cli_print_diags(rest, a->common.quiet);
    tk_diags_free(rest);
}

static const char *part_path(const tk_timeline *tl, size_t part)
{
    const tk_timeline_part *p = tk_timeline_get_part(tl, part);
    return p ? tk_passes_path(p->passes) : "";
}

static void json_kernel_history(JsonBuilder *j, const tk_timeline *tl,
                                const tk_kernel *k, const tk_history *h)
{
    json_builder_begin_object(j);
    json_builder_set_member_name(j, "name");
    cli_json_string(j, tk_kernel_name(k), strlen(tk_kernel_name(k)));
    json_builder_set_member_name(j, "hash");
    cli_json_string(j, tk_kernel_hash(k), strlen(tk_kernel_hash(k)));
    json_builder_set_member_name(j, "passes");
    json_builder_begin_array(j);
    for (size_t i = 0; i < tk_history_count(h); i++) {
        const tk_history_step *s = tk_history_get(h, i);
        const tk_timeline_entry *e = s->substep == TK_TL_NONE
                                         ? tk_timeline_get(tl, s->pass)
                                         : tk_timeline_substep(tl, s->pass, s->substep);
        json_builder_begin_object(j);
        json_builder_set_member_name(j, "index");
        json_builder_add_int_value(j, (gint64)s->pass);
        json_builder_set_member_name(j, "substep");
        if (s->substep == TK_TL_NONE)
            json_builder_add_null_value(j);
        else
            json_builder_add_int_value(j, (gint64)s->substep);
        json_builder_set_member_name(j, "level");
        json_builder_add_string_value(j, tk_pass_level_name(e->level));
        json_builder_set_member_name(j, "pass");
        cli_json_string(j, e->pass, strlen(e->pass));
        json_builder_set_member_name(j, "arg");
        cli_json_string(j, e->arg, strlen(e->arg));
        json_builder_set_member_name(j, "file");
        cli_json_string(j, part_path(tl, e->part), strlen(part_path(tl, e->part)));
        json_builder_set_member_name(j, "line");
        json_builder_add_int_value(j, (gint64)e->header_line);
        json_builder_set_member_name(j, "removed");
        json_builder_add_int_value(j, s->removed);
        json_builder_set_member_name(j, "added");
        json_builder_add_int_value(j, s->added);
        json_builder_end_object(j);
    }
    json_builder_end_array(j);
    json_builder_set_member_name(j, "changed_passes_read");
    json_builder_add_int_value(j, (gint64)tk_history_entries_read(h));
    json_builder_set_member_name(j, "changed_passes_without_locations");
    json_builder_add_int_value(j, (gint64)tk_history_entries_unlocated(h));
    json_builder_end_object(j);
}

static void put_kernel_history(const tk_timeline *tl, const tk_kernel *k,
                               const tk_history *h, const char *what)
{
    cli_printf("%s %.12s: ", tk_kernel_name(k), tk_kernel_hash(k));
    cli_put_text(stdout, what, strlen(what));
    cli_printf(": %zu pass%s changed its IR\n", tk_history_count(h),
           tk_history_count(h) == 1 ? "" : "es");
    if (tk_history_count(h))
        cli_printf("%7s  %-12s  %-13s  %s\n", "#", "level", "effect", "pass");
    for (size_t i = 0; i < tk_history_count(h); i++) {
        const tk_history_step *s = tk_history_get(h, i);
        const tk_timeline_entry *e = s->substep == TK_TL_NONE
                                         ? tk_timeline_get(tl, s->pass)
                                         : tk_timeline_substep(tl, s->pass, s->substep);
        char index[32];
        if (s->substep == TK_TL_NONE)
            g_snprintf(index, sizeof index, "%zu", s->pass);
        else
            g_snprintf(index, sizeof index, "%zu.%zu", s->pass, s->substep);
        /* "+added -removed" as `tkview passes` writes a pass's effect (here:
         * the lines bound to the source line) */
        char effect[48];
        g_snprintf(effect, sizeof effect, "+%u -%u", s->added, s->removed);
        cli_printf("%7s  %-12s  %-13s  ", index, tk_pass_level_name(e->level), effect);
        GString *name = g_string_new(e->pass);
        if (e->arg[0] && strcmp(e->arg, e->pass) != 0)
            g_string_append_printf(name, " (%s)", e->arg);
        cli_put_text(stdout, name->str, name->len);
        g_string_free(name, TRUE);
        const char *path = part_path(tl, e->part);
        const char *base = strrchr(path, '/');
        cli_printf("  %s:%llu\n", base ? base + 1 : path, (unsigned long long)e->header_line);
    }
}

/* The JSON answer's opening: the query, then the kernels' array. */
static JsonBuilder *history_json_begin(const char *shown, uint32_t line,
                                       gboolean exact)
{
    JsonBuilder *j = json_builder_new();
    json_builder_begin_object(j);
    json_builder_set_member_name(j, "query");
    json_builder_begin_object(j);
    json_builder_set_member_name(j, "file");
    cli_json_string(j, shown, strlen(shown));
    json_builder_set_member_name(j, "line");
    json_builder_add_int_value(j, line);
    json_builder_set_member_name(j, "match");
    json_builder_add_string_value(j, exact ? "exact" : "called");
    json_builder_end_object(j);
    json_builder_set_member_name(j, "kernels");
    json_builder_begin_array(j);
    return j;
}

/* The notes held back from reading the pass dumps, as one line on stderr
 * whatever the number of kernels. */
static void print_held_notes(const held_notes *held)
{
    if (!held->n)
        return;
    GString *msg = g_string_new(NULL);
    if (held->n == 1)
        g_string_append(msg, held->first);
    else
        g_string_append_printf(msg, "%zu notes from reading the pass dumps (the first: "
                                    "%s); --verbose prints them",
                               held->n, held->first);
    /* the file names and messages come from the dumps: escaped */
    fputs("tkview: note: ", stderr);
    cli_put_text(stderr, msg->str, msg->len);
    fputc('\n', stderr);
    g_string_free(msg, TRUE);
}

int cmd_history(int argc, char **argv)
{
    history_args a = {0};
    GOptionEntry entries[] = {
        {"source", 's', 0, G_OPTION_ARG_STRING, &a.source,
         "Source line: FILE:LINE, FILE matched by path suffix", "FILE:LINE"},
        CLI_KERNEL_OPTION(&a.kernel, "Kernel", " (default: every kernel)"),
        {"exact", 0, 0, G_OPTION_ARG_NONE, &a.exact,
         "Only IR whose innermost frame is the line (default: also what it called)",
         NULL},
        {"verbose", 'v', 0, G_OPTION_ARG_NONE, &a.verbose,
         "Print every note from reading the pass dumps (default: how many)", NULL},
        G_OPTION_ENTRY_NULL,
    };
    GOptionContext *ctx = cli_options(
        "PATH --source FILE:LINE - the passes that changed a source line's IR",
        NULL, entries, &a.common);
    GError *err = NULL;
    int rc = CLI_EXIT_USAGE;
    char *file = NULL;
    uint32_t line = 0;
    if (!g_option_context_parse(ctx, &argc, &argv, &err) || argc != 2 || !a.source) {
        cli_usage(&err, "usage: tkview history PATH --source FILE:LINE "
                        "[--kernel K] [--exact] [--json]");
        goto out;
    }
    if (!cli_split_line_spec(a.source, &file, &line)) {
        cli_error("--source wants FILE:LINE (e.g. vector_add.py:16), got \"%s\"",
                     a.source);
        goto out;
    }
    tk_bundle *b = NULL;
    const tk_kernel *one = NULL;
    if ((rc = cli_open(argv[1], &a.common, a.kernel, FALSE, &b, &one)) != CLI_EXIT_OK)
        goto out;
    /* FILE as the library matches it (tk_file_query.h), the
     * same as tkview bind. */
    tk_file_query *q = tk_file_query_new(b, file);
    tk_loctab *tab = tk_bundle_loctab(b);
    /* The files the final stages name already: the name must pick one. */
    tk_file_id *named = NULL;
    size_t n_named = tk_file_query_find(q, NULL, 0, &named);
    if (n_named > 1) {
        cli_error("\"%s\" names %zu files; give more of the path:", file, n_named);
        for (size_t i = 0; i < n_named; i++)
            cli_fprintf(stderr, "  %s\n", tk_loctab_file_path(tab, named[i]));
        g_free(named);
        tk_file_query_free(q);
        tk_bundle_free(b);
        rc = CLI_EXIT_USAGE;
        goto out;
    }
    const char *shown = n_named ? tk_loctab_file_path(tab, named[0]) : file;
    char *what = g_strdup_printf("%s:%u (%s)", shown, line,
                                 a.exact ? "this line only" : "this line and what it called");
    JsonBuilder *j = a.common.json ? history_json_begin(shown, line, a.exact) : NULL;
    gboolean named_any = n_named > 0;
    g_free(named);
    size_t steps = 0, timelines = 0;
    /* Changed passes read and those without locations, over the kernels
     * shown: one note at the end, not one per kernel (a torch.compile
     * capture shows a dozen kernels). */
    size_t read = 0, unlocated = 0;
    held_notes held = {0};
    for (size_t i = 0; i < tk_bundle_kernel_count(b); i++) {
        const tk_kernel *k = tk_bundle_kernel(b, i);
        if (one && k != one)
            continue;
        tk_diags *diags = tk_diags_new();
        tk_timeline *tl = tk_timeline_of_kernel(b, k, NULL, diags);
        tk_history *h = tl ? tk_timeline_history(tl, tab, tk_file_query_accepts, q, line,
                                                 a.exact ? TK_MATCH_EXACT : TK_MATCH_CALLED,
                                                 NULL, diags)
                           : NULL;
        print_diags_holding_notes(diags, &a, &held);
        tk_diags_free(diags);
        if (tl)
            timelines++;
        if (h && !named_any) {
            /* No final stage named the file (a kernel from pass dumps
             * alone): the dumps' locations, interned by the history, may;
             * one match is shown by its path, as for stage files. */
            tk_file_id *hit = NULL;
            if (tk_file_query_find(q, NULL, 0, &hit) == 1) {
                g_free(what);
                what = g_strdup_printf("%s:%u (%s)", tk_loctab_file_path(tab, hit[0]), line,
                                       a.exact ? "this line only"
                                               : "this line and what it called");
                named_any = TRUE;
            }
            g_free(hit);
        }
        /* Without --kernel, kernels whose passes never touched the line
         * stay quiet. */
        if (h && (one || tk_history_count(h))) {
            steps += tk_history_count(h);
            read += tk_history_entries_read(h);
            unlocated += tk_history_entries_unlocated(h);
            if (j)
                json_kernel_history(j, tl, k, h);
            else
                put_kernel_history(tl, k, h, what);
        }
        tk_history_free(h);
        tk_timeline_free(tl);
    }
    if (j) {
        json_builder_end_array(j);
        json_builder_end_object(j);
        cli_json_print(j);
        g_object_unref(j);
    } else if (!timelines) {
        cli_error("no pass dumps were found with %s", argv[1]);
    } else if (!steps && !one) {
        cli_printf("no pass changed IR bound to %s\n", what);
    }
    if (!j && unlocated)
        cli_printf("(%zu of %zu changed passes carry no locations (machine code, Triton's "
               "internal dumps): whether they touched the line is unknown)\n",
               unlocated, read);
    if (!a.common.quiet)
        print_held_notes(&held);
    g_free(held.first);
    rc = steps ? CLI_EXIT_OK : CLI_EXIT_NOTHING;
    g_free(what);
    tk_file_query_free(q);
    tk_bundle_free(b);
out:
    g_free(file);
    g_free(a.source);
    g_free(a.kernel);
    g_strfreev(a.common.source_dirs);
    g_option_context_free(ctx);
    return rc;
}
