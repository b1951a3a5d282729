/* cmd_hot.c - `tkview hot PATH`: the source lines that cost most, by a
 * metric of the cost tables (tk_cost.h): SASS instructions without a
 * profile, warp stall samples with one; each with its IR line counts per
 * stage and, with samples, its main stall reasons. */
#include "cli.h"
#include "tkdump/tk_bundle_load.h"
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
        cli_json_number(j, v[m]);
    }
    json_builder_end_object(j);
}

/* One kernel's answer to `tkview hot`: its cost, the metric ranked by and
 * the source lines ranked.  Made by hot_compute(), printed by hot_text()
 * or hot_json(), freed by hot_clear(). */
typedef struct {
    const tk_kernel *kernel;
    tk_bind *ix;
    tk_profile *profile; /* NULL without a measured profile */
    tk_cost *cost;
    size_t metric;       /* ranked by */
    gboolean inclusive;
    ranked *rank;        /* lines with a cost, most first */
    size_t n_rank;
    size_t shown;        /* the first SHOWN of them are printed (--top) */
} hot_result;

static void hot_clear(hot_result *h)
{
    g_free(h->rank);
    tk_cost_free(h->cost);
    tk_profile_free(h->profile);
    tk_bind_free(h->ix);
}

/* Computes K's cost per source line, ranked by METRIC (NULL: the default
 * one).  Returns CLI_EXIT_USAGE (printed) when K has no such metric. */
static int hot_compute(hot_result *h, tk_bundle *b, const tk_kernel *k,
                       const char *metric, int top, gboolean inclusive,
                       gboolean quiet)
{
    memset(h, 0, sizeof *h);
    tk_loctab *tab = tk_bundle_loctab(b);
    h->kernel = k;
    h->inclusive = inclusive;
    h->ix = tk_bind_new(k, tab);
    h->cost = cli_cost(k, h->ix, tab, quiet, &h->profile);
    tk_cost *c = h->cost;
    h->metric = tk_cost_default_metric(c);
    if (metric) {
        int f = tk_cost_metric_find(c, metric);
        if (f < 0) {
            GString *names = g_string_new(NULL);
            for (size_t i = 0; i < tk_cost_metric_count(c); i++)
                g_string_append_printf(names, "%s%s", i ? ", " : "",
                                       tk_cost_metric_name(c, i));
            const char *why = tk_cost_metric_missing(c, metric);
            cli_error("--metric %s: kernel %s has no such metric (it has: "
                      "%s)%s%s",
                      metric, tk_kernel_name(k), names->str,
                      why ? ": " : "", why ? why : "");
            g_string_free(names, TRUE);
            return CLI_EXIT_USAGE;
        }
        h->metric = (size_t)f;
    }
    size_t m = h->metric;
    const tk_cost_line *lines;
    size_t n = tk_cost_source_lines(c, &lines);
    h->rank = g_new(ranked, n ? n : 1);
    for (size_t i = 0; i < n; i++) {
        double key = inclusive ? lines[i].inclusive[m] : lines[i].exact[m];
        if (key > 0 || (inclusive && lines[i].shared[m] > 0))
            h->rank[h->n_rank++] = (ranked){&lines[i], key};
    }
    qsort(h->rank, h->n_rank, sizeof *h->rank, cmp_ranked);
    h->shown = top > 0 && (size_t)top < h->n_rank ? (size_t)top : h->n_rank;
    return CLI_EXIT_OK;
}

static void hot_json_line(JsonBuilder *j, const hot_result *h,
                          const tk_cost_line *l, const char *path,
                          const char *code)
{
    const tk_kernel *k = h->kernel;
    const tk_cost *c = h->cost;
    size_t m = h->metric;
    json_builder_begin_object(j);
    json_builder_set_member_name(j, "file");
    cli_json_string(j, path, strlen(path));
    json_builder_set_member_name(j, "line");
    json_builder_add_int_value(j, l->line);
    json_builder_set_member_name(j, "exact");
    cli_json_number(j, l->exact[m]);
    json_builder_set_member_name(j, "inclusive");
    cli_json_number(j, l->inclusive[m]);
    json_builder_set_member_name(j, "shared");
    cli_json_number(j, l->shared[m]);
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
        json_builder_add_int_value(j, stage_count(h->ix, k, s, l, FALSE));
        json_builder_set_member_name(j, "called");
        json_builder_add_int_value(j, stage_count(h->ix, k, s, l, TRUE));
        json_builder_end_object(j);
    }
    json_builder_end_object(j);
    json_values(j, "classes", c, l->exact, 1, 1 + TK_SASS_CLASS_COUNT);
    size_t first, ns = tk_cost_stall_metrics(c, &first);
    json_values(j, "stalls", c, l->exact, first, first + ns);
    json_builder_set_member_name(j, "code");
    cli_json_string(j, code, strlen(code));
    /* Where the PTX and the SASS line table disagree about this line. */
    const tk_cost_disagreement *d;
    size_t nd = tk_cost_line_disagreements(c, l->file, l->line, &d);
    json_builder_set_member_name(j, "stages_disagree");
    json_builder_begin_array(j);
    for (size_t i = 0; i < nd; i++)
        cli_json_string(j, d[i].text, strlen(d[i].text));
    json_builder_end_array(j);
    json_builder_end_object(j);
}

static void hot_json(JsonBuilder *j, const hot_result *h, tk_bundle *b,
                     GHashTable *src, tk_diags *notes)
{
    const tk_kernel *k = h->kernel;
    const tk_cost *c = h->cost;
    size_t m = h->metric;
    json_builder_begin_object(j);
    json_builder_set_member_name(j, "name");
    cli_json_string(j, tk_kernel_name(k), strlen(tk_kernel_name(k)));
    json_builder_set_member_name(j, "hash");
    cli_json_string(j, tk_kernel_hash(k), strlen(tk_kernel_hash(k)));
    json_builder_set_member_name(j, "metric");
    json_builder_add_string_value(j, tk_cost_metric_name(c, m));
    json_builder_set_member_name(j, "label");
    cli_json_string(j, tk_cost_metric_label(c, m),
                       strlen(tk_cost_metric_label(c, m)));
    json_builder_set_member_name(j, "sort");
    json_builder_add_string_value(j, h->inclusive ? "inclusive" : "exact");
    json_builder_set_member_name(j, "profile");
    if (h->profile) {
        json_builder_begin_object(j);
        json_builder_set_member_name(j, "tool");
        cli_json_string(j, tk_profile_tool(h->profile),
                        strlen(tk_profile_tool(h->profile)));
        json_builder_set_member_name(j, "instructions");
        json_builder_add_int_value(j, (gint64)tk_profile_row_count(h->profile));
        json_builder_end_object(j);
    } else {
        json_builder_add_null_value(j);
    }
    json_values(j, "total", c, tk_cost_total(c), 0, tk_cost_metric_count(c));
    json_values(j, "no_location", c, tk_cost_no_location(c), 0,
                tk_cost_metric_count(c));
    json_builder_set_member_name(j, "unsplit_instructions");
    json_builder_add_int_value(j, tk_cost_unsplit_instructions(c));
    json_builder_set_member_name(j, "source_lines");
    json_builder_add_int_value(j, (gint64)h->n_rank);
    json_builder_set_member_name(j, "lines");
    json_builder_begin_array(j);
    tk_loctab *tab = tk_bundle_loctab(b);
    for (size_t i = 0; i < h->shown; i++) {
        const tk_cost_line *l = h->rank[i].line;
        GPtrArray *text = source_lines(b, src, l->file, notes);
        const char *code = l->line - 1 < text->len ? text->pdata[l->line - 1] : "";
        hot_json_line(j, h, l, tk_loctab_file_path(tab, l->file), code);
    }
    json_builder_end_array(j);
    json_builder_end_object(j);
}

/* The columns of the table: as wide as ever when piped; on a terminal
 * narrower, the shared column only when a line has shared code, so the
 * code still fits beside the numbers. */
typedef struct {
    int num;          /* width of a number column */
    gboolean shared;  /* the shared column is printed */
    int where;        /* width of the file:line column */
    int stage;        /* width of a stage's count */
} hot_layout;

static hot_layout hot_layout_of(const hot_result *h)
{
    if (cli_term_columns() <= 0)
        return (hot_layout){10, TRUE, 28, 5};
    hot_layout lay = {7, FALSE, 18, 5};
    for (size_t i = 0; i < h->shown; i++) {
        const tk_cost_line *l = h->rank[i].line;
        lay.shared |= l->shared[h->metric] > 0;
        double big = MAX(l->exact[h->metric], l->inclusive[h->metric]);
        if (big >= 1e7)
            lay.num = 10;
    }
    return lay;
}

/* The text header of one kernel: total, metric, what has no location. */
static void hot_text_header(const hot_result *h)
{
    const tk_kernel *k = h->kernel;
    const tk_cost *c = h->cost;
    size_t m = h->metric;
    const double *noloc = tk_cost_no_location(c);
    cli_put_text(stdout, tk_kernel_name(k), strlen(tk_kernel_name(k)));
    printf(" %.12s: ", tk_kernel_hash(k));
    cli_put_number(stdout, tk_cost_total(c)[m]);
    gboolean measured = tk_cost_metric_kind(c, m) == TK_METRIC_MEASURED;
    printf(" %s (%s%s%s)", tk_cost_metric_name(c, m), tk_cost_metric_label(c, m),
           measured ? ", measured by " : "",
           measured ? tk_profile_tool(h->profile) : "");
    if (noloc[m] > 0) {
        fputs(", no location: ", stdout);
        cli_put_number(stdout, noloc[m]);
    }
    putchar('\n');
    if (tk_cost_unsplit_instructions(c)) {
        char *msg = g_strdup_printf("  %u SASS instructions of helpers inlined at several "
                                    "call sites could not be given to one (counted as shared)",
                                    tk_cost_unsplit_instructions(c));
        cli_term_put(stdout, msg, strlen(msg), cli_term_columns());
        putchar('\n');
        g_free(msg);
    }
    if (h->shown) {
        hot_layout lay = hot_layout_of(h);
        printf("  %*s %6s %*s", lay.num, "exact", "%", lay.num,
               lay.num < 10 ? "incl" : "inclusive");
        if (lay.shared)
            printf(" %*s", lay.num, "shared");
        printf("  %-*s", lay.where, "line");
        for (tk_stage_kind s = 0; s < TK_STAGE_COUNT; s++)
            if (tk_kernel_stage_expected(k, s))
                printf(" %*s", lay.stage, tk_stage_kind_name(s));
        printf("  %s\n", "code");
    }
}

static void hot_text_line(const hot_result *h, const tk_cost_line *l,
                          const char *path, const char *code)
{
    const tk_kernel *k = h->kernel;
    const tk_cost *c = h->cost;
    size_t m = h->metric;
    const double *total = tk_cost_total(c);
    gboolean inclusive = h->inclusive;
    char *stalls = tk_cost_metric_kind(c, m) == TK_METRIC_MEASURED
                       ? stall_text(c, inclusive ? l->inclusive : l->exact, 3)
                       : NULL;
    hot_layout lay = hot_layout_of(h);
    int cols = cli_term_columns();
    printf("  %*.0f %5.1f%% %*.0f", lay.num, l->exact[m],
           total[m] > 0 ? 100.0 * (inclusive ? l->inclusive[m] : l->exact[m]) / total[m]
                        : 0.0,
           lay.num, l->inclusive[m]);
    if (lay.shared && l->shared[m] > 0)
        printf(" %*.0f", lay.num, l->shared[m]);
    else if (lay.shared)
        printf(" %*s", lay.num, "");
    fputs("  ", stdout);
    int used = 2 + lay.num + 7 + 1 + lay.num + (lay.shared ? lay.num + 1 : 0) + 2;
    const char *base = strrchr(path, '/');
    char *where = g_strdup_printf("%s:%u", base ? base + 1 : path, l->line);
    int w = (int)strlen(where);
    cli_put_text(stdout, where, strlen(where));
    printf("%*s", w < lay.where ? lay.where - w : 0, "");
    used += MAX(w, lay.where);
    for (tk_stage_kind s = 0; s < TK_STAGE_COUNT; s++) {
        if (!tk_kernel_stage_expected(k, s))
            continue;
        if (tk_kernel_stage(k, s))
            printf(" %*u", lay.stage, stage_count(h->ix, k, s, l, inclusive));
        else
            printf(" %*s", lay.stage, "-");
        used += lay.stage + 1;
    }
    if (cols <= 0) {
        fputs("  ", stdout);
        cli_put_text(stdout, code, strlen(code) > 60 ? 60 : strlen(code));
    } else if (cols - used - 2 >= 24) {
        fputs("  ", stdout);
        cli_term_put(stdout, code, strlen(code), cols - used - 2);
    } else { /* too narrow beside the numbers: the code under them */
        fputs("\n      ", stdout);
        cli_term_put(stdout, code, strlen(code), cols - 6);
    }
    putchar('\n');
    if (stalls && cols > 0) {
        printf("  %*s stalls: ", lay.num, "");
        cli_term_put(stdout, stalls, strlen(stalls), MAX(cols - lay.num - 11, 20));
        putchar('\n');
    } else if (stalls) {
        printf("  %10s %6s stalls: %s\n", "", "", stalls);
    }
    const tk_cost_disagreement *d;
    size_t nd = tk_cost_line_disagreements(c, l->file, l->line, &d);
    for (size_t i = 0; i < nd; i++) {
        printf("  %10s %6s stages disagree: ", "", "");
        cli_put_text(stdout, d[i].text, strlen(d[i].text));
        putchar('\n');
    }
    g_free(where);
    g_free(stalls);
}

static void hot_text(const hot_result *h, tk_bundle *b, GHashTable *src,
                     tk_diags *notes)
{
    hot_text_header(h);
    tk_loctab *tab = tk_bundle_loctab(b);
    for (size_t i = 0; i < h->shown; i++) {
        const tk_cost_line *l = h->rank[i].line;
        GPtrArray *text = source_lines(b, src, l->file, notes);
        const char *code = l->line - 1 < text->len ? text->pdata[l->line - 1] : "";
        hot_text_line(h, l, tk_loctab_file_path(tab, l->file), code);
    }
    if (h->n_rank > h->shown)
        printf("  (%zu more lines: --top 0 lists all)\n", h->n_rank - h->shown);
}

static void hot_kernel(tk_bundle *b, const tk_kernel *k, const char *metric,
                       int top, gboolean inclusive, JsonBuilder *j,
                       gboolean quiet, GHashTable *src, tk_diags *notes,
                       int *rc)
{
    hot_result h;
    int r = hot_compute(&h, b, k, metric, top, inclusive, quiet);
    if (r != CLI_EXIT_OK)
        *rc = r;
    else if (j)
        hot_json(j, &h, b, src, notes);
    else
        hot_text(&h, b, src, notes);
    hot_clear(&h);
}

int cmd_hot(int argc, char **argv)
{
    cli_common common = {0};
    char *kernel = NULL, *metric = NULL;
    int top = 20;
    gboolean inclusive = FALSE;
    GOptionEntry entries[] = {
        CLI_KERNEL_OPTION(&kernel, "Only this kernel", ""),
        {"metric", 'm', 0, G_OPTION_ARG_STRING, &metric,
         "Rank by this metric (default: samples with a profile, else "
         "instructions)", "M"},
        {"top", 'n', 0, G_OPTION_ARG_INT, &top,
         "Show the first N lines (0: all; default 20)", "N"},
        {"inclusive", 0, 0, G_OPTION_ARG_NONE, &inclusive,
         "Rank by inclusive value (the line and the helpers it called)", NULL},
        G_OPTION_ENTRY_NULL,
    };
    GOptionContext *ctx = cli_options(
        "PATH - the source lines whose code costs most",
        summary, entries, &common);
    GError *err = NULL;
    int rc = CLI_EXIT_OK;
    tk_bundle *b = NULL;
    JsonBuilder *j = NULL;
    GHashTable *src = NULL;
    tk_diags *notes = tk_diags_new();
    if (!g_option_context_parse(ctx, &argc, &argv, &err) || argc != 2 || top < 0) {
        rc = cli_usage(&err, "usage: tkview hot PATH [--kernel K] "
                             "[--metric M] [--top N] [--inclusive] [--json]");
        goto out;
    }
    const tk_kernel *one = NULL;
    /* With --kernel, the others' stages need not be read. */
    if ((rc = cli_open_kernel(argv[1], &common, kernel, &b, &one)) != CLI_EXIT_OK)
        goto out;
    if (metric && !strcmp(metric, "live_registers"))
        cli_life_ranges(b, common.quiet);
    src = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL,
                                (GDestroyNotify)g_ptr_array_unref);
    if (common.json) {
        j = json_builder_new();
        json_builder_begin_object(j);
        json_builder_set_member_name(j, "kernels");
        json_builder_begin_array(j);
    }
    size_t with_sass = 0;
    for (size_t i = 0; i < tk_bundle_kernel_count(b) && rc == CLI_EXIT_OK; i++) {
        const tk_kernel *k = tk_bundle_kernel(b, i);
        if ((one && k != one) || !tk_kernel_stage(k, TK_STAGE_SASS))
            continue;
        if (!j && with_sass)
            putchar('\n');
        with_sass++;
        hot_kernel(b, k, metric, top, inclusive, j, common.quiet, src, notes,
                   &rc);
    }
    cli_print_diags(notes, common.quiet);
    if (j) {
        json_builder_end_array(j);
        json_builder_end_object(j);
        if (rc == CLI_EXIT_OK)
            cli_json_print(j);
    }
    if (rc == CLI_EXIT_OK && with_sass == 0) {
        cli_error("%s: no kernel has SASS: cost is counted on SASS "
                     "instructions (capture where nvdisasm is found)",
                     argv[1]);
        rc = CLI_EXIT_NOTHING;
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
