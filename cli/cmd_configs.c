/* cmd_configs.c - `tkview configs PATH`: every compile of a kernel side by
 * side, one table per kernel name with two or more compiles: what sets each
 * apart (tk_config_apart), warps, stages, registers, spills, shared memory,
 * SASS instructions by class, the time the autotuner measured (when the
 * capture kept it: autotune_timings.json beside the input), the winner, and
 * each row's first divergence from the winner (tk_compare). */
#include "cli.h"
#include "tkdump/tk_compare.h"
#include "tkdump/tk_config.h"
#include "tkdump/tk_timeline.h"

#include <math.h>
#include <string.h>

static const char summary[] =
    "One table per kernel compiled more than once (autotune configurations,\n"
    "repeated compiles): a row per compile with what sets it apart from the\n"
    "others, num_warps, num_stages, registers, spills, shared memory, its\n"
    "SASS instructions by class, the time the autotuner measured for it\n"
    "(median ms, from autotune_timings.json in PATH when there is one), the\n"
    "winner (*: the fastest measured), and the first pass where it parts\n"
    "from the winner.  See docs/cli-json.md.";

/* The autotuner's timings: PATH/autotune_timings.json, written by tkview
 * capture's hook (or by the program): {"configs": [{"kwargs": {...},
 * "num_warps": N, "num_stages": N, "ms": [median, p20, p80]}, ...]}, with
 * "kernel" naming the kernel when known. */
static JsonArray *read_timings(const char *path, JsonParser **parser)
{
    char *file = g_build_filename(path, "autotune_timings.json", NULL);
    JsonArray *out = NULL;
    *parser = json_parser_new();
    if (g_file_test(file, G_FILE_TEST_IS_REGULAR) &&
        json_parser_load_from_file(*parser, file, NULL)) {
        JsonNode *root = json_parser_get_root(*parser);
        if (root && JSON_NODE_HOLDS_OBJECT(root)) {
            JsonObject *o = json_node_get_object(root);
            if (json_object_has_member(o, "configs") &&
                JSON_NODE_HOLDS_ARRAY(json_object_get_member(o, "configs")))
                out = json_object_get_array_member(o, "configs");
        }
    }
    g_free(file);
    return out;
}

/* Whether timing entry E is configuration C of kernel NAME: every kwarg and
 * num_warps / num_stages it names equals C's item of that name. */
static gboolean timing_matches(JsonObject *e, const tk_config *c, const char *name)
{
    if (json_object_has_member(e, "kernel") &&
        g_strcmp0(json_object_get_string_member(e, "kernel"), name) != 0)
        return FALSE;
    const char *top[] = {"num_warps", "num_stages", NULL};
    for (int i = 0; top[i]; i++) {
        if (!json_object_has_member(e, top[i]))
            continue;
        const tk_config_item *it = tk_config_find(c, top[i]);
        if (!it || !it->is_number ||
            it->number != json_object_get_int_member(e, top[i]))
            return FALSE;
    }
    if (json_object_has_member(e, "kwargs")) {
        JsonObject *kw = json_object_get_object_member(e, "kwargs");
        GList *m = kw ? json_object_get_members(kw) : NULL;
        gboolean ok = TRUE;
        for (GList *l = m; l && ok; l = l->next) {
            const tk_config_item *it = tk_config_find(c, l->data);
            JsonNode *v = json_object_get_member(kw, l->data);
            char *text = json_to_string(v, FALSE);
            ok = it && strcmp(it->value, text) == 0;
            g_free(text);
        }
        g_list_free(m);
        if (!ok)
            return FALSE;
    }
    return TRUE;
}

/* Median ms of the entry matching C, or NAN. */
static double timing_of(JsonArray *t, const tk_config *c, const char *name)
{
    double found = NAN;
    int hits = 0;
    for (guint i = 0; t && i < json_array_get_length(t); i++) {
        JsonNode *n = json_array_get_element(t, i);
        if (!JSON_NODE_HOLDS_OBJECT(n))
            continue;
        JsonObject *e = json_node_get_object(n);
        if (!timing_matches(e, c, name) || !json_object_has_member(e, "ms"))
            continue;
        JsonNode *ms = json_object_get_member(e, "ms");
        double v = NAN;
        if (JSON_NODE_HOLDS_ARRAY(ms) && json_array_get_length(json_node_get_array(ms)))
            v = json_array_get_double_element(json_node_get_array(ms), 0);
        else if (JSON_NODE_HOLDS_VALUE(ms))
            v = json_node_get_double(ms);
        found = v;
        hits++;
    }
    return hits == 1 ? found : NAN; /* two entries match: not this one's */
}

typedef struct {
    const tk_kernel *k;
    size_t index;
    char *apart;
    double ms;
    double sass[1 + TK_SASS_CLASS_COUNT]; /* -1: no SASS */
    char *diverge; /* first divergence from the winner */
} row;

static void first_divergence(tk_bundle *b, const tk_kernel *w, row *r)
{
    if (r->k == w) {
        r->diverge = g_strdup("(winner)");
        return;
    }
    tk_diags *quiet = tk_diags_new();
    tk_compare *cmp = tk_compare_build(b, w, b, r->k, NULL, quiet);
    size_t f = cmp ? tk_compare_first_divergence(cmp, NULL) : TK_COMPARE_NONE;
    if (!cmp || !tk_compare_timeline(cmp, 0) || !tk_compare_timeline(cmp, 1))
        r->diverge = g_strdup("- (no pass dumps)");
    else if (f == TK_COMPARE_NONE)
        r->diverge = g_strdup("none: every pass the same");
    else {
        const tk_compare_row *cr = tk_compare_row_get(cmp, f);
        r->diverge = g_strdup_printf("%s (%s)%s", cr->name,
                                     tk_pass_level_name(cr->level),
                                     cr->input == TK_COMPARE_DIFFERENT
                                         ? ", the IR before it differs already"
                                         : "");
    }
    tk_compare_free(cmp);
    tk_diags_free(quiet);
}

static void put_num(int64_t v)
{
    if (v < 0)
        printf(" %8s", "-");
    else
        printf(" %8lld", (long long)v);
}

/* The rows of kernel NAME's compiles, from kernel I on: what sets each
 * apart (APART, per kernel), its time in TIMINGS, its SASS by class. */
static GArray *group_rows(tk_bundle *b, size_t i, const char *name, JsonArray *timings,
                          tk_config **apart)
{
    size_t n = tk_bundle_kernel_count(b);
    tk_loctab *tab = tk_bundle_loctab(b);
    GArray *rows = g_array_new(FALSE, TRUE, sizeof(row));
    for (size_t k = i; k < n; k++) {
        const tk_kernel *kk = tk_bundle_kernel(b, k);
        if (strcmp(tk_kernel_name(kk), name) != 0)
            continue;
        row r = {.k = kk, .index = k, .apart = tk_config_label(apart[k])};
        tk_config *c = tk_config_read(b, kk, NULL);
        r.ms = timing_of(timings, c, name);
        tk_config_free(c);
        r.sass[0] = -1;
        if (tk_kernel_stage(kk, TK_STAGE_SASS)) {
            tk_bind *ix = tk_bind_new(kk, tab);
            tk_profile *prof = NULL;
            tk_cost *cost = cli_cost(kk, ix, tab, TRUE, &prof);
            const double *t = tk_cost_total(cost);
            for (int s = 0; s <= TK_SASS_CLASS_COUNT; s++)
                r.sass[s] = t[s];
            tk_cost_free(cost);
            tk_profile_free(prof);
            tk_bind_free(ix);
        }
        g_array_append_val(rows, r);
    }
    return rows;
}

static void rows_free(GArray *rows)
{
    for (guint r = 0; r < rows->len; r++) {
        g_free(g_array_index(rows, row, r).apart);
        g_free(g_array_index(rows, row, r).diverge);
    }
    g_array_free(rows, TRUE);
}

/* The winner: the fastest measured compile (-1: none measured); each row's
 * first divergence from it. */
static ptrdiff_t find_winner(tk_bundle *b, GArray *rows)
{
    ptrdiff_t win = -1;
    for (guint r = 0; r < rows->len; r++) {
        double ms = g_array_index(rows, row, r).ms;
        if (!isnan(ms) && (win < 0 || ms < g_array_index(rows, row, win).ms))
            win = r;
    }
    for (guint r = 0; r < rows->len; r++) {
        row *x = &g_array_index(rows, row, r);
        if (win >= 0)
            first_divergence(b, g_array_index(rows, row, win).k, x);
    }
    return win;
}

static void row_json(JsonBuilder *j, const row *x, gboolean winner)
{
    const tk_kernel_meta *m = tk_kernel_metadata(x->k);
    json_builder_begin_object(j);
    json_builder_set_member_name(j, "index");
    json_builder_add_int_value(j, (gint64)x->index);
    json_builder_set_member_name(j, "hash");
    json_builder_add_string_value(j, tk_kernel_hash(x->k));
    json_builder_set_member_name(j, "apart");
    json_builder_add_string_value(j, x->apart);
    cli_json_int_or_null(j, "num_warps", m->num_warps);
    cli_json_int_or_null(j, "num_stages", m->num_stages);
    cli_json_int_or_null(j, "registers", m->registers);
    cli_json_int_or_null(j, "spill_bytes", m->spill_bytes);
    cli_json_int_or_null(j, "shared_bytes", m->shared_bytes);
    json_builder_set_member_name(j, "sass");
    if (x->sass[0] < 0)
        json_builder_add_null_value(j);
    else {
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
    if (isnan(x->ms))
        json_builder_add_null_value(j);
    else
        json_builder_add_double_value(j, x->ms);
    json_builder_set_member_name(j, "winner");
    json_builder_add_boolean_value(j, winner);
    json_builder_set_member_name(j, "first_divergence");
    if (x->diverge)
        json_builder_add_string_value(j, x->diverge);
    else
        json_builder_add_null_value(j);
    json_builder_end_object(j);
}

static void row_text(const row *x, gboolean winner)
{
    const tk_kernel_meta *m = tk_kernel_metadata(x->k);
    printf("  %s %5zu", winner ? "*" : " ", x->index);
    put_num(m->num_warps);
    put_num(m->num_stages);
    put_num(m->registers);
    put_num(m->spill_bytes);
    put_num(m->shared_bytes);
    put_num(x->sass[0] < 0 ? -1 : (int64_t)x->sass[0]);
    if (isnan(x->ms))
        printf(" %10s", "-");
    else
        printf(" %10.4f", x->ms);
    printf("  ");
    cli_put_text(stdout, x->apart, strlen(x->apart));
    putchar('\n');
    if (x->sass[0] >= 0) {
        printf("%*s", 66, "");
        for (int s = 0; s < TK_SASS_CLASS_COUNT; s++)
            if (x->sass[1 + s] > 0)
                printf(" %s %.0f", tk_sass_class_name((tk_sass_class)s),
                       x->sass[1 + s]);
        putchar('\n');
    }
    if (x->diverge && !winner)
        printf("%*s parts from the winner at: %s\n", 66, "", x->diverge);
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
    JsonParser *parser = NULL;
    JsonBuilder *j = NULL;
    if (!g_option_context_parse(ctx, &argc, &argv, &err) || argc != 2) {
        rc = cli_usage(&err, "usage: tkview configs PATH [--kernel K] [--json]");
        goto out;
    }
    const tk_kernel *one = NULL;
    if ((rc = cli_open(argv[1], &common, kernel, FALSE, &b, &one)) != CLI_EXIT_OK)
        goto out;
    const char *only = one ? tk_kernel_name(one) : NULL;
    JsonArray *timings = read_timings(argv[1], &parser);
    size_t n = tk_bundle_kernel_count(b);
    tk_config **apart = tk_config_apart_all(b, NULL);
    if (common.json) {
        j = json_builder_new();
        json_builder_begin_object(j);
        json_builder_set_member_name(j, "groups");
        json_builder_begin_array(j);
    }
    GHashTable *done = g_hash_table_new(g_str_hash, g_str_equal);
    size_t groups = 0;
    for (size_t i = 0; i < n; i++) {
        const char *name = tk_kernel_name(tk_bundle_kernel(b, i));
        if ((only && strcmp(name, only) != 0) || g_hash_table_contains(done, name))
            continue;
        g_hash_table_add(done, (gpointer)name);
        GArray *rows = group_rows(b, i, name, timings, apart);
        if (rows->len < 2 && !only) {
            rows_free(rows);
            continue;
        }
        ptrdiff_t win = find_winner(b, rows);
        groups++;
        if (j) {
            json_builder_begin_object(j);
            json_builder_set_member_name(j, "kernel");
            json_builder_add_string_value(j, name);
            json_builder_set_member_name(j, "configs");
            json_builder_begin_array(j);
        } else {
            printf("%s%s: %u compiles%s\n", groups > 1 ? "\n" : "", name, rows->len,
                   win < 0 ? " (no timings: autotune_timings.json not found or "
                             "matching none)"
                           : "");
            printf("    %5s %8s %8s %8s %8s %8s %8s %10s  %s\n", "index", "warps",
                   "stages", "regs", "spills", "shared", "sass", "ms", "apart / classes / first divergence from the winner");
        }
        for (guint r = 0; r < rows->len; r++) {
            if (j)
                row_json(j, &g_array_index(rows, row, r), (ptrdiff_t)r == win);
            else
                row_text(&g_array_index(rows, row, r), (ptrdiff_t)r == win);
        }
        if (j) {
            json_builder_end_array(j);
            json_builder_end_object(j);
        }
        rows_free(rows);
    }
    g_hash_table_destroy(done);
    for (size_t i = 0; i < n; i++)
        tk_config_free(apart[i]);
    g_free(apart);
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
    if (parser)
        g_object_unref(parser);
    tk_bundle_free(b);
    g_free(kernel);
    g_option_context_free(ctx);
    return rc;
}
