/* cmd_hot.c - `tkview hot PATH`: the source lines that cost most, by a
 * metric of the cost tables (tk_cost.h): SASS instructions without a
 * profile, warp stall samples with one; each with its IR line counts per
 * stage and, with samples, its main stall reasons. */
#include "cli.h"
#include "tkdump/tk_input_file.h"

#include <stdlib.h>
#include <string.h>

static const char summary[] =
    "Lists the source lines of each kernel by what their code costs: the\n"
    "SASS instructions it became (by class: global, shared, tensor, tma,\n"
    "barrier, convert, alu, control, other) or, when the bundle holds a\n"
    "profile (tkview profile import, tkview capture --profile), what was\n"
    "measured (samples, inst_executed, stall_*).  \"exact\" counts the code\n"
    "whose innermost frame is the line; \"inclusive\" also the code of the\n"
    "helpers it called; \"shared\" the code of a helper inlined at several\n"
    "call sites that the binding cannot give to one of them.  Lines are\n"
    "sorted by exact value (--inclusive: by inclusive value).  The counts\n"
    "after the line are its IR lines in each stage (exact, or with what it\n"
    "called under --inclusive).  See docs/cost.md.";

typedef struct {
    const tk_cost_line *line;
    double key;
} ranked;

static int cmp_ranked(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? 1 : -1;
    if (x->line->file != y->line->file)
        return x->line->file < y->line->file ? -1 : 1;
    return (x->line->line > y->line->line) - (x->line->line < y->line->line);
}

/* The source text of FILE, split into lines, cached in CACHE (file + 1 ->
 * GPtrArray of lines, or an empty one when it cannot be read; why goes to
 * NOTES, as the report says it: a file outside a bundle is never read). */
static GPtrArray *source_lines(tk_bundle *b, GHashTable *cache, tk_file_id f,
                               tk_diags *notes)
{
    GPtrArray *a = g_hash_table_lookup(cache, GUINT_TO_POINTER(f + 1));
    if (a)
        return a;
    a = g_ptr_array_new_with_free_func(g_free);
    const char *path = tk_bundle_resolve_source(b, f, notes);
    /* A regular file of at most 16 MiB, opened without blocking
     * (tk_input_file.h), as the report and the viewer read sources. */
    char *text = path ? tk_input_file_read(path, TK_INPUT_FILE_SOURCE, NULL, NULL)
                      : NULL;
    if (text) {
        char **lines = g_strsplit(text, "\n", -1);
        for (char **l = lines; *l; l++)
            g_ptr_array_add(a, g_strdup(g_strstrip(*l)));
        g_strfreev(lines);
    }
    g_free(text);
    g_hash_table_insert(cache, GUINT_TO_POINTER(f + 1), a);
    return a;
}

/* The IR instructions per stage of a source line: exact or with what it
 * called (a .loc or //## line is never counted). */
static uint32_t stage_count(const tk_bind *ix, const tk_kernel *k,
                            tk_stage_kind s, const tk_cost_line *l,
                            gboolean called)
{
    const uint32_t *lines;
    size_t n = tk_bind_source_to_stage(ix, l->file, l->line,
                                       called ? TK_MATCH_CALLED : TK_MATCH_EXACT,
                                       s, &lines);
    return (uint32_t)tk_stage_count_instructions(tk_kernel_stage(k, s), lines, n);
}

/* The stall reasons of V (exact values of a line), largest first, as
 * "long_sb 40%, wait 21%": the first N. */
static char *stall_text(const tk_cost *c, const double *v, size_t n)
{
    size_t first, ns = tk_cost_stall_metrics(c, &first);
    double sum = 0;
    for (size_t i = 0; i < ns; i++)
        sum += v[first + i];
    if (ns == 0 || sum <= 0)
        return NULL;
    GString *s = g_string_new(NULL);
    gboolean *used = g_new0(gboolean, ns);
    for (size_t k = 0; k < n; k++) {
        size_t best = ns;
        for (size_t i = 0; i < ns; i++)
            if (!used[i] && v[first + i] > 0 &&
                (best == ns || v[first + i] > v[first + best]))
                best = i;
        if (best == ns)
            break;
        used[best] = TRUE;
        const char *name = tk_cost_metric_name(c, first + best) + strlen("stall_");
        g_string_append_printf(s, "%s%s %.0f%%", s->len ? ", " : "", name,
                               100.0 * v[first + best] / sum);
    }
    g_free(used);
    return g_string_free(s, FALSE);
}

static void json_values(JsonBuilder *j, const char *member, const tk_cost *c,
                        const double *v, size_t from, size_t to)
{
    json_builder_set_member_name(j, member);
    json_builder_begin_object(j);
    for (size_t m = from; m < to; m++) {
        json_builder_set_member_name(j, tk_cost_metric_name(c, m));
        tk_cli_json_number(j, v[m]);
    }
    json_builder_end_object(j);
}

static void hot_kernel(tk_bundle *b, const tk_kernel *k, const char *metric,
                       int top, gboolean inclusive, JsonBuilder *j,
                       gboolean quiet, GHashTable *src, tk_diags *notes,
                       int *rc)
{
    tk_loctab *tab = tk_bundle_loctab(b);
    tk_bind *ix = tk_bind_new(k, tab);
    tk_profile *p = NULL;
    tk_cost *c = tk_cli_cost(k, ix, tab, quiet, &p);
    size_t m = tk_cost_default_metric(c);
    if (metric) {
        int f = tk_cost_metric_find(c, metric);
        if (f < 0) {
            GString *names = g_string_new(NULL);
            for (size_t i = 0; i < tk_cost_metric_count(c); i++)
                g_string_append_printf(names, "%s%s", i ? ", " : "",
                                       tk_cost_metric_name(c, i));
            const char *why = tk_cost_metric_missing(c, metric);
            tk_cli_error("--metric %s: kernel %s has no such metric (it has: "
                         "%s)%s%s",
                         metric, tk_kernel_name(k), names->str,
                         why ? ": " : "", why ? why : "");
            g_string_free(names, TRUE);
            *rc = TK_EXIT_USAGE;
            goto done;
        }
        m = (size_t)f;
    }
    const tk_cost_line *lines;
    size_t n = tk_cost_source_lines(c, &lines);
    ranked *r = g_new(ranked, n ? n : 1);
    size_t nr = 0;
    for (size_t i = 0; i < n; i++) {
        double key = inclusive ? lines[i].inclusive[m] : lines[i].exact[m];
        if (key > 0 || (inclusive && lines[i].shared[m] > 0))
            r[nr++] = (ranked){&lines[i], key};
    }
    qsort(r, nr, sizeof *r, cmp_ranked);
    size_t shown = top > 0 && (size_t)top < nr ? (size_t)top : nr;
    const double *total = tk_cost_total(c);
    const double *noloc = tk_cost_no_location(c);
    const char *mname = tk_cost_metric_name(c, m);
    if (j) {
        json_builder_begin_object(j);
        json_builder_set_member_name(j, "name");
        tk_cli_json_string(j, tk_kernel_name(k), strlen(tk_kernel_name(k)));
        json_builder_set_member_name(j, "hash");
        tk_cli_json_string(j, tk_kernel_hash(k), strlen(tk_kernel_hash(k)));
        json_builder_set_member_name(j, "metric");
        json_builder_add_string_value(j, mname);
        json_builder_set_member_name(j, "label");
        tk_cli_json_string(j, tk_cost_metric_label(c, m),
                           strlen(tk_cost_metric_label(c, m)));
        json_builder_set_member_name(j, "sort");
        json_builder_add_string_value(j, inclusive ? "inclusive" : "exact");
        json_builder_set_member_name(j, "profile");
        if (p) {
            json_builder_begin_object(j);
            json_builder_set_member_name(j, "tool");
            tk_cli_json_string(j, tk_profile_tool(p), strlen(tk_profile_tool(p)));
            json_builder_set_member_name(j, "instructions");
            json_builder_add_int_value(j, (gint64)tk_profile_row_count(p));
            json_builder_end_object(j);
        } else {
            json_builder_add_null_value(j);
        }
        json_values(j, "total", c, total, 0, tk_cost_metric_count(c));
        json_values(j, "no_location", c, noloc, 0, tk_cost_metric_count(c));
        json_builder_set_member_name(j, "unsplit_instructions");
        json_builder_add_int_value(j, tk_cost_unsplit_instructions(c));
        json_builder_set_member_name(j, "source_lines");
        json_builder_add_int_value(j, (gint64)nr);
        json_builder_set_member_name(j, "lines");
        json_builder_begin_array(j);
    } else {
        tk_cli_put_text(stdout, tk_kernel_name(k), strlen(tk_kernel_name(k)));
        printf(" %.12s: ", tk_kernel_hash(k));
        tk_cli_put_number(stdout, total[m]);
        gboolean measured = tk_cost_metric_kind(c, m) == TK_METRIC_MEASURED;
        printf(" %s (%s%s%s)", mname, tk_cost_metric_label(c, m),
               measured ? ", measured by " : "",
               measured ? tk_profile_tool(p) : "");
        if (noloc[m] > 0) {
            fputs(", no location: ", stdout);
            tk_cli_put_number(stdout, noloc[m]);
        }
        putchar('\n');
        if (tk_cost_unsplit_instructions(c))
            printf("  %u SASS instructions of helpers inlined at several call "
                   "sites could not be given to one (counted as shared)\n",
                   tk_cost_unsplit_instructions(c));
        if (shown) {
            printf("  %10s %6s %10s %10s  %-28s", "exact", "%", "inclusive",
                   "shared", "line");
            for (tk_stage_kind s = 0; s < TK_STAGE_COUNT; s++)
                if (tk_kernel_stage_expected(k, s))
                    printf(" %5s", tk_stage_kind_name(s));
            printf("  %s\n", "code");
        }
    }
    for (size_t i = 0; i < shown; i++) {
        const tk_cost_line *l = r[i].line;
        const char *path = tk_loctab_file_path(tab, l->file);
        GPtrArray *text = source_lines(b, src, l->file, notes);
        const char *code = l->line - 1 < text->len ? text->pdata[l->line - 1] : "";
        char *stalls = tk_cost_metric_kind(c, m) == TK_METRIC_MEASURED
                           ? stall_text(c, inclusive ? l->inclusive : l->exact, 3)
                           : NULL;
        if (j) {
            json_builder_begin_object(j);
            json_builder_set_member_name(j, "file");
            tk_cli_json_string(j, path, strlen(path));
            json_builder_set_member_name(j, "line");
            json_builder_add_int_value(j, l->line);
            json_builder_set_member_name(j, "exact");
            tk_cli_json_number(j, l->exact[m]);
            json_builder_set_member_name(j, "inclusive");
            tk_cli_json_number(j, l->inclusive[m]);
            json_builder_set_member_name(j, "shared");
            tk_cli_json_number(j, l->shared[m]);
            json_builder_set_member_name(j, "shared_sites");
            json_builder_add_int_value(j, l->shared_sites);
            json_builder_set_member_name(j, "stages");
            json_builder_begin_object(j);
            for (tk_stage_kind s = 0; s < TK_STAGE_COUNT; s++) {
                if (!tk_kernel_stage(k, s))
                    continue;
                json_builder_set_member_name(j, tk_stage_kind_name(s));
                json_builder_begin_object(j);
                json_builder_set_member_name(j, "exact");
                json_builder_add_int_value(j, stage_count(ix, k, s, l, FALSE));
                json_builder_set_member_name(j, "called");
                json_builder_add_int_value(j, stage_count(ix, k, s, l, TRUE));
                json_builder_end_object(j);
            }
            json_builder_end_object(j);
            json_values(j, "classes", c, l->exact, 1, 1 + TK_SASS_CLASS_COUNT);
            size_t first, ns = tk_cost_stall_metrics(c, &first);
            json_values(j, "stalls", c, l->exact, first, first + ns);
            json_builder_set_member_name(j, "code");
            tk_cli_json_string(j, code, strlen(code));
            json_builder_end_object(j);
        } else {
            printf("  %10.0f %5.1f%% %10.0f ", l->exact[m],
                   total[m] > 0 ? 100.0 * (inclusive ? l->inclusive[m] : l->exact[m]) / total[m]
                                : 0.0,
                   l->inclusive[m]);
            if (l->shared[m] > 0)
                printf("%10.0f  ", l->shared[m]);
            else
                printf("%10s  ", "");
            const char *base = strrchr(path, '/');
            char *where = g_strdup_printf("%s:%u", base ? base + 1 : path, l->line);
            int w = (int)strlen(where);
            tk_cli_put_text(stdout, where, strlen(where));
            printf("%*s", w < 28 ? 28 - w : 0, "");
            for (tk_stage_kind s = 0; s < TK_STAGE_COUNT; s++) {
                if (!tk_kernel_stage_expected(k, s))
                    continue;
                if (tk_kernel_stage(k, s))
                    printf(" %5u", stage_count(ix, k, s, l, inclusive));
                else
                    printf(" %5s", "-");
            }
            fputs("  ", stdout);
            tk_cli_put_text(stdout, code, strlen(code) > 60 ? 60 : strlen(code));
            putchar('\n');
            if (stalls)
                printf("  %10s %6s stalls: %s\n", "", "", stalls);
            g_free(where);
        }
        g_free(stalls);
    }
    if (j) {
        json_builder_end_array(j);
        json_builder_end_object(j);
    } else if (nr > shown) {
        printf("  (%zu more lines: --top 0 lists all)\n", nr - shown);
    }
    g_free(r);
done:
    tk_cost_free(c);
    tk_profile_free(p);
    tk_bind_free(ix);
}

int tk_cmd_hot(int argc, char **argv)
{
    tk_cli_common common = {0};
    char *kernel = NULL, *metric = NULL;
    int top = 20;
    gboolean inclusive = FALSE;
    GOptionEntry entries[] = {
        {"kernel", 'k', 0, G_OPTION_ARG_STRING, &kernel,
         "Only this kernel: name, hash prefix, name:hash or index", "K"},
        {"metric", 'm', 0, G_OPTION_ARG_STRING, &metric,
         "Rank by this metric (default: samples with a profile, else "
         "instructions)", "M"},
        {"top", 'n', 0, G_OPTION_ARG_INT, &top,
         "Show the first N lines (0: all; default 20)", "N"},
        {"inclusive", 0, 0, G_OPTION_ARG_NONE, &inclusive,
         "Rank by inclusive value (the line and the helpers it called)", NULL},
        G_OPTION_ENTRY_NULL,
    };
    GOptionContext *ctx = g_option_context_new(
        "PATH - the source lines whose code costs most");
    g_option_context_set_summary(ctx, summary);
    g_option_context_add_main_entries(ctx, entries, NULL);
    tk_cli_add_common(ctx, &common);
    GError *err = NULL;
    int rc = TK_EXIT_OK;
    tk_bundle *b = NULL;
    JsonBuilder *j = NULL;
    GHashTable *src = NULL;
    tk_diags *notes = tk_diags_new();
    if (!g_option_context_parse(ctx, &argc, &argv, &err) || argc != 2 || top < 0) {
        tk_cli_error("%s", err ? err->message
                               : "usage: tkview hot PATH [--kernel K] "
                                 "[--metric M] [--top N] [--inclusive] [--json]");
        g_clear_error(&err);
        rc = TK_EXIT_USAGE;
        goto out;
    }
    if (!(b = tk_cli_load(argv[1], &common))) {
        rc = TK_EXIT_INPUT;
        goto out;
    }
    const tk_kernel *one = NULL;
    if (kernel && !(one = tk_cli_pick_kernel(b, kernel))) {
        rc = TK_EXIT_USAGE;
        goto out;
    }
    src = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL,
                                (GDestroyNotify)g_ptr_array_unref);
    if (common.json) {
        j = json_builder_new();
        json_builder_begin_object(j);
        json_builder_set_member_name(j, "kernels");
        json_builder_begin_array(j);
    }
    size_t with_sass = 0;
    for (size_t i = 0; i < tk_bundle_kernel_count(b) && rc == TK_EXIT_OK; i++) {
        const tk_kernel *k = tk_bundle_kernel(b, i);
        if ((one && k != one) || !tk_kernel_stage(k, TK_STAGE_SASS))
            continue;
        if (!j && with_sass)
            putchar('\n');
        with_sass++;
        hot_kernel(b, k, metric, top, inclusive, j, common.quiet, src, notes,
                   &rc);
    }
    tk_cli_print_diags(notes, common.quiet);
    if (j) {
        json_builder_end_array(j);
        json_builder_end_object(j);
        if (rc == TK_EXIT_OK)
            tk_cli_json_print(j);
    }
    if (rc == TK_EXIT_OK && with_sass == 0) {
        tk_cli_error("%s: no kernel has SASS: cost is counted on SASS "
                     "instructions (capture where nvdisasm is found)",
                     argv[1]);
        rc = TK_EXIT_NOTHING;
    }
out:
    if (j)
        g_object_unref(j);
    if (src)
        g_hash_table_destroy(src);
    tk_diags_free(notes);
    tk_bundle_free(b);
    g_free(kernel);
    g_free(metric);
    g_strfreev(common.source_dirs);
    g_option_context_free(ctx);
    return rc;
}
