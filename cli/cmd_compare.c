/* cmd_compare.c - `tkview compare`: two compilations of a kernel (two
 * configurations in one bundle, or a kernel in two bundles) compared pass
 * by pass: the first pass whose output differs, the aligned pipelines,
 * their configurations, final stages and SASS per source line side by side.
 * The library (tk_compare.h) makes every answer; this prints it. */
#include "cli.h"

#include <string.h>

#include "tkdump/tk_bundle_load.h"
#include "tkdump/tk_compare.h"

typedef struct {
    cli_common common;
    char *kernel, *kernel_b;
    gboolean all;
} compare_args;

static const char *label(int s)
{
    return s ? "B" : "A";
}

/* ---- JSON ------------------------------------------------------------------ */

static void json_str(JsonBuilder *j, const char *member, const char *s)
{
    json_builder_set_member_name(j, member);
    cli_json_string(j, s, strlen(s));
}

static void json_index(JsonBuilder *j, const char *member, size_t v)
{
    json_builder_set_member_name(j, member);
    if (v == TK_COMPARE_NONE)
        json_builder_add_null_value(j);
    else
        json_builder_add_int_value(j, (gint64)v);
}

static void json_side(JsonBuilder *j, const tk_compare *cmp, int s)
{
    const tk_kernel *k = tk_compare_kernel(cmp, s);
    const tk_timeline *tl = tk_compare_timeline(cmp, s);
    json_builder_set_member_name(j, s ? "b" : "a");
    json_builder_begin_object(j);
    const char *path = tk_bundle_path(tk_compare_bundle(cmp, s));
    json_str(j, "path", path);
    json_str(j, "kernel", tk_kernel_name(k));
    json_str(j, "hash", tk_kernel_hash(k));
    json_builder_set_member_name(j, "passes");
    json_builder_add_int_value(j, tl ? (gint64)tk_timeline_count(tl) : 0);
    json_builder_end_object(j);
}

static void json_config(JsonBuilder *j, const tk_config *c)
{
    json_builder_begin_object(j);
    /* metadata, options, constants, tiles, signature */
    static const tk_config_origin order[] = {TK_CONFIG_META, TK_CONFIG_OPTION,
                                             TK_CONFIG_CONSTANT, TK_CONFIG_TILE,
                                             TK_CONFIG_SIGNATURE};
    for (size_t oi = 0; oi < G_N_ELEMENTS(order); oi++) {
        tk_config_origin o = order[oi];
        if (o == TK_CONFIG_OPTION) {
            json_builder_set_member_name(j, "options");
            json_builder_begin_object(j);
        } else if (o == TK_CONFIG_CONSTANT || o == TK_CONFIG_TILE) {
            json_builder_set_member_name(j, o == TK_CONFIG_CONSTANT ? "constants" : "tiles");
            json_builder_begin_object(j);
        } else if (o == TK_CONFIG_SIGNATURE) {
            json_builder_set_member_name(j, "signature");
            json_builder_begin_array(j);
        }
        for (size_t i = 0; i < tk_config_count(c); i++) {
            const tk_config_item *it = tk_config_get(c, i);
            if (it->origin != o)
                continue;
            if (o == TK_CONFIG_SIGNATURE) {
                json_builder_begin_object(j);
                json_str(j, "name", it->name);
                json_str(j, "type", it->value);
                json_builder_end_object(j);
                continue;
            }
            json_builder_set_member_name(j, it->name);
            if (o == TK_CONFIG_CONSTANT || o == TK_CONFIG_OPTION) {
                /* JSON text as NAME.json has it */
                JsonNode *n = json_from_string(it->value, NULL);
                if (n)
                    json_builder_add_value(j, n);
                else
                    cli_json_string(j, it->value, strlen(it->value));
            } else if (it->is_number) {
                json_builder_add_int_value(j, it->number);
            } else {
                cli_json_string(j, it->value, strlen(it->value));
            }
        }
        if (o == TK_CONFIG_CONSTANT || o == TK_CONFIG_TILE || o == TK_CONFIG_OPTION)
            json_builder_end_object(j);
        else if (o == TK_CONFIG_SIGNATURE)
            json_builder_end_array(j);
    }
    json_builder_end_object(j);
}

/* Names whose values differ, or that one side has and the other not. */
static GPtrArray *config_differences(const tk_config *a, const tk_config *b)
{
    GPtrArray *out = g_ptr_array_new();
    const tk_config *c[2] = {a, b};
    for (int s = 0; s < 2; s++)
        for (size_t i = 0; i < tk_config_count(c[s]); i++) {
            const tk_config_item *it = tk_config_get(c[s], i);
            const tk_config_item *o = tk_config_find(c[!s], it->name);
            if (s == 1 && o)
                continue; /* seen from A */
            if (!o || strcmp(o->value, it->value) != 0)
                g_ptr_array_add(out, (gpointer)it->name);
        }
    return out;
}

static void json_row(JsonBuilder *j, const tk_compare *cmp, size_t i, size_t first)
{
    const tk_compare_row *r = tk_compare_row_get(cmp, i);
    json_builder_begin_object(j);
    json_builder_set_member_name(j, "row");
    json_builder_add_int_value(j, (gint64)i);
    json_str(j, "align", tk_compare_align_name(r->align));
    json_str(j, "pass", r->name);
    json_str(j, "arg", r->arg);
    json_str(j, "level", tk_pass_level_name(r->level));
    json_index(j, "index_a", r->pass[0]);
    json_index(j, "index_b", r->pass[1]);
    json_str(j, "input", tk_compare_verdict_name(r->input));
    json_str(j, "output", tk_compare_verdict_name(r->output));
    json_str(j, "effect", tk_compare_verdict_name(r->effect));
    for (int s = 0; s < 2; s++) {
        const tk_timeline_entry *e =
            r->pass[s] != TK_COMPARE_NONE
                ? tk_timeline_get(tk_compare_timeline(cmp, s), r->pass[s])
                : NULL;
        json_builder_set_member_name(j, s ? "b" : "a");
        if (!e) {
            json_builder_add_null_value(j);
            continue;
        }
        json_builder_begin_object(j);
        json_str(j, "effect", tk_effect_name(e->effect));
        json_builder_set_member_name(j, "added");
        json_builder_add_int_value(j, e->added);
        json_builder_set_member_name(j, "removed");
        json_builder_add_int_value(j, e->removed);
        json_builder_end_object(j);
    }
    json_builder_set_member_name(j, "first_divergence");
    json_builder_add_boolean_value(j, i == first);
    json_builder_end_object(j);
}

static int print_json(tk_compare *cmp)
{
    JsonBuilder *j = json_builder_new();
    json_builder_begin_object(j);
    json_side(j, cmp, 0);
    json_side(j, cmp, 1);

    size_t unknown;
    size_t first = tk_compare_first_divergence(cmp, &unknown);
    json_builder_set_member_name(j, "first_divergence");
    if (first == TK_COMPARE_NONE) {
        json_builder_add_null_value(j);
    } else {
        const tk_compare_row *r = tk_compare_row_get(cmp, first);
        json_builder_begin_object(j);
        json_str(j, "pass", r->name);
        json_str(j, "arg", r->arg);
        json_index(j, "index_a", r->pass[0]);
        json_index(j, "index_b", r->pass[1]);
        json_str(j, "level", tk_pass_level_name(r->level));
        json_builder_set_member_name(j, "row");
        json_builder_add_int_value(j, (gint64)first);
        json_str(j, "align", tk_compare_align_name(r->align));
        json_str(j, "input", tk_compare_verdict_name(r->input));
        json_builder_end_object(j);
    }
    json_builder_set_member_name(j, "unknown_before");
    json_builder_add_int_value(j, (gint64)unknown);

    json_builder_set_member_name(j, "metadata");
    json_builder_begin_object(j);
    json_builder_set_member_name(j, "a");
    json_config(j, tk_compare_config(cmp, 0));
    json_builder_set_member_name(j, "b");
    json_config(j, tk_compare_config(cmp, 1));
    GPtrArray *diff = config_differences(tk_compare_config(cmp, 0), tk_compare_config(cmp, 1));
    json_builder_set_member_name(j, "differs");
    json_builder_begin_array(j);
    for (guint i = 0; i < diff->len; i++)
        cli_json_string(j, diff->pdata[i], strlen(diff->pdata[i]));
    json_builder_end_array(j);
    g_ptr_array_free(diff, TRUE);
    json_builder_end_object(j);

    json_builder_set_member_name(j, "passes");
    json_builder_begin_array(j);
    for (size_t i = 0; i < tk_compare_row_count(cmp); i++)
        json_row(j, cmp, i, first);
    json_builder_end_array(j);

    json_builder_set_member_name(j, "final_stages");
    json_builder_begin_object(j);
    for (int k = 0; k < TK_STAGE_COUNT; k++) {
        const tk_compare_stage *st = tk_compare_final_stage(cmp, (tk_stage_kind)k);
        if (!st->have[0] && !st->have[1])
            continue;
        json_builder_set_member_name(j, tk_stage_kind_name((tk_stage_kind)k));
        json_builder_begin_object(j);
        json_builder_set_member_name(j, "a");
        json_builder_add_boolean_value(j, st->have[0]);
        json_builder_set_member_name(j, "b");
        json_builder_add_boolean_value(j, st->have[1]);
        json_str(j, "verdict", tk_compare_verdict_name(st->verdict));
        json_builder_set_member_name(j, "added");
        json_builder_add_int_value(j, st->stats.added);
        json_builder_set_member_name(j, "removed");
        json_builder_add_int_value(j, st->stats.removed);
        json_builder_end_object(j);
    }
    json_builder_end_object(j);

    size_t nl;
    const tk_compare_line *lines = tk_compare_lines(cmp, &nl);
    json_builder_set_member_name(j, "lines");
    json_builder_begin_array(j);
    for (size_t i = 0; i < nl; i++) {
        json_builder_begin_object(j);
        json_str(j, "file", lines[i].file);
        json_builder_set_member_name(j, "line");
        json_builder_add_int_value(j, lines[i].line);
        json_builder_set_member_name(j, "sass_a");
        json_builder_add_int_value(j, lines[i].sass[0]);
        json_builder_set_member_name(j, "sass_b");
        json_builder_add_int_value(j, lines[i].sass[1]);
        json_builder_set_member_name(j, "sass_called_a");
        json_builder_add_int_value(j, lines[i].sass_called[0]);
        json_builder_set_member_name(j, "sass_called_b");
        json_builder_add_int_value(j, lines[i].sass_called[1]);
        json_builder_end_object(j);
    }
    json_builder_end_array(j);
    json_builder_end_object(j);
    cli_json_print(j);
    g_object_unref(j);
    return first == TK_COMPARE_NONE ? CLI_EXIT_NOTHING : CLI_EXIT_OK;
}

/* ---- text ------------------------------------------------------------------ */

static void put(const char *s)
{
    cli_put_text(stdout, s, strlen(s));
}

static char *pass_words(const tk_compare_row *r)
{
    return r->arg[0] ? g_strdup_printf("%s (%s)", r->name, r->arg) : g_strdup(r->name);
}

static void print_header(const tk_compare *cmp)
{
    for (int s = 0; s < 2; s++) {
        const tk_kernel *k = tk_compare_kernel(cmp, s);
        const tk_timeline *tl = tk_compare_timeline(cmp, s);
        printf("%s: ", label(s));
        put(tk_kernel_name(k));
        printf(" %.12s  ", tk_kernel_hash(k));
        put(tk_bundle_path(tk_compare_bundle(cmp, s)));
        if (tl)
            printf("  (%zu passes)\n", tk_timeline_count(tl));
        else
            printf("  (no pass dumps)\n");
    }
}

static void print_first(const tk_compare *cmp)
{
    size_t unknown;
    size_t first = tk_compare_first_divergence(cmp, &unknown);
    putchar('\n');
    if (!tk_compare_timeline(cmp, 0) || !tk_compare_timeline(cmp, 1)) {
        printf("first divergence: cannot say (a kernel has no pass dumps)\n");
        return;
    }
    if (first == TK_COMPARE_NONE) {
        printf("first divergence: none: every pass's output compares equal once "
               "normalized");
        if (unknown)
            printf(" (%zu could not be compared)", unknown);
        putchar('\n');
        return;
    }
    const tk_compare_row *r = tk_compare_row_get(cmp, first);
    char *w = pass_words(r);
    printf("first divergence: ");
    put(w);
    printf(", %s", tk_pass_level_name(r->level));
    if (r->align == TK_COMPARE_BOTH)
        printf(" (pass %zu of A, %zu of B)\n", r->pass[0], r->pass[1]);
    else
        printf(" (pass %zu of %s only: %s)\n", r->pass[r->align == TK_COMPARE_ONLY_B],
               r->align == TK_COMPARE_ONLY_A ? "A" : "B",
               r->align == TK_COMPARE_ONLY_A ? "B does not run it" : "A does not run it");
    g_free(w);
    if (r->input == TK_COMPARE_DIFFERENT)
        printf("  the IR before it already differs: the two compilations start "
               "from different IR\n");
    else if (r->input == TK_COMPARE_SAME)
        printf("  the IR before it is the same; the IR after it differs\n");
    else
        printf("  the IR before it could not be compared\n");
    if (unknown)
        printf("  %zu earlier pass%s could not be compared: the divergence may lie "
               "there\n", unknown, unknown == 1 ? "" : "es");
}

static void print_config(tk_compare *cmp)
{
    const tk_config *c[2] = {tk_compare_config(cmp, 0), tk_compare_config(cmp, 1)};
    if (!tk_config_count(c[0]) && !tk_config_count(c[1]))
        return;
    GPtrArray *diff = config_differences(c[0], c[1]);
    /* Columns as wide as their longest value (A's at most 48 wide). */
    size_t wn = 10, wa = 1;
    for (int s = 0; s < 2; s++)
        for (size_t i = 0; i < tk_config_count(c[s]); i++) {
            const tk_config_item *it = tk_config_get(c[s], i);
            wn = MAX(wn, strlen(it->name));
            if (s == 0)
                wa = MAX(wa, MIN(strlen(it->value), 48));
        }
    printf("\nconfiguration%*s A%*s B\n", (int)(wn - 10), "", (int)wa, "");
    /* A's items in order, then B's that A lacks. */
    for (int s = 0; s < 2; s++)
        for (size_t i = 0; i < tk_config_count(c[s]); i++) {
            const tk_config_item *it = tk_config_get(c[s], i);
            const tk_config_item *o = tk_config_find(c[!s], it->name);
            if (s == 1 && o)
                continue;
            const tk_config_item *a = s ? o : it, *b = s ? it : o;
            gboolean differs = FALSE;
            for (guint d = 0; d < diff->len; d++)
                differs |= strcmp(diff->pdata[d], it->name) == 0;
            printf("%s ", differs ? "*" : " ");
            put(it->name);
            printf("%*s  ", (int)(wn - strlen(it->name)), "");
            const char *va = a ? a->value : "-", *vb = b ? b->value : "-";
            put(va);
            printf("%*s  ", (int)(wa - MIN(strlen(va), wa)), "");
            put(vb);
            if (it->origin == TK_CONFIG_TILE)
                printf("   (tl.arange)");
            else if (it->origin == TK_CONFIG_CONSTANT)
                printf("   (constant)");
            putchar('\n');
        }
    g_ptr_array_free(diff, TRUE);
}

static char verdict_mark(tk_compare_verdict v)
{
    return v == TK_COMPARE_SAME ? '=' : v == TK_COMPARE_DIFFERENT ? '#' : '?';
}

static void print_row(const tk_compare *cmp, size_t i, size_t first)
{
    const tk_compare_row *r = tk_compare_row_get(cmp, i);
    char a[16] = "-", b[16] = "-";
    if (r->pass[0] != TK_COMPARE_NONE)
        g_snprintf(a, sizeof a, "%zu", r->pass[0]);
    if (r->pass[1] != TK_COMPARE_NONE)
        g_snprintf(b, sizeof b, "%zu", r->pass[1]);
    char *w = pass_words(r);
    printf("%s%5zu %5s %5s  %-12s %c      %c       ", i == first ? ">" : " ", i, a, b,
           tk_pass_level_name(r->level), verdict_mark(r->output),
           r->align != TK_COMPARE_BOTH ? ' ' : verdict_mark(r->effect));
    put(w);
    if (r->align == TK_COMPARE_ONLY_A)
        printf("   [only A]");
    else if (r->align == TK_COMPARE_ONLY_B)
        printf("   [only B]");
    if (i == first)
        printf("   <- first divergence");
    putchar('\n');
    g_free(w);
}

/* Rows a person wants to see one by one: the divergence, passes only one
 * side ran, and after the divergence those that did different things. */
static gboolean notable(const tk_compare_row *r, size_t i, size_t first)
{
    return i == first || r->align != TK_COMPARE_BOTH ||
           (first != TK_COMPARE_NONE && i > first && r->effect == TK_COMPARE_DIFFERENT);
}

static void print_rows(const tk_compare *cmp, gboolean all)
{
    size_t n = tk_compare_row_count(cmp), first = tk_compare_first_divergence(cmp, NULL);
    if (!n)
        return;
    size_t only[2] = {0, 0};
    for (size_t i = 0; i < n; i++) {
        const tk_compare_row *r = tk_compare_row_get(cmp, i);
        if (r->align != TK_COMPARE_BOTH)
            only[r->align == TK_COMPARE_ONLY_B]++;
    }
    printf("\npasses: %zu rows (%zu only A, %zu only B); output / effect: "
           "= same, # different, ? unknown\n", n, only[0], only[1]);
    printf("  row     A     B  level        output effect  pass\n");
    size_t i = 0;
    while (i < n) {
        const tk_compare_row *r = tk_compare_row_get(cmp, i);
        if (all || notable(r, i, first)) {
            print_row(cmp, i, first);
            i++;
            continue;
        }
        /* A run of rows that are not notable, folded into one line. */
        size_t j = i, same = 0, differ = 0, unknown = 0, effect_unknown = 0;
        while (j < n && !notable(tk_compare_row_get(cmp, j), j, first)) {
            const tk_compare_row *x = tk_compare_row_get(cmp, j);
            same += x->output == TK_COMPARE_SAME;
            differ += x->output == TK_COMPARE_DIFFERENT;
            unknown += x->output == TK_COMPARE_UNKNOWN;
            effect_unknown += x->effect == TK_COMPARE_UNKNOWN;
            j++;
        }
        if (j - i == 1) {
            print_row(cmp, i, first);
        } else {
            printf(" %5zu-%-5zu %zu passes, outputs:", i, j - 1, j - i);
            if (same)
                printf(" %zu same", same);
            if (differ)
                printf(" %zu different", differ);
            if (unknown)
                printf(" %zu unknown", unknown);
            if (first != TK_COMPARE_NONE && i > first) {
                if (effect_unknown)
                    printf("; %zu did the same to both, %zu unknown", j - i - effect_unknown,
                           effect_unknown);
                else
                    printf("; each did the same to both");
            }
            putchar('\n');
        }
        i = j;
    }
}

static void print_stages(const tk_compare *cmp)
{
    int any = 0;
    for (int k = 0; k < TK_STAGE_COUNT; k++) {
        const tk_compare_stage *st = tk_compare_final_stage(cmp, (tk_stage_kind)k);
        any |= st->have[0] || st->have[1];
    }
    if (!any)
        return;
    printf("\nfinal stages:");
    for (int k = 0; k < TK_STAGE_COUNT; k++) {
        const tk_compare_stage *st = tk_compare_final_stage(cmp, (tk_stage_kind)k);
        if (!st->have[0] && !st->have[1])
            continue;
        printf("  %s ", tk_stage_kind_name((tk_stage_kind)k));
        if (st->verdict == TK_COMPARE_SAME)
            printf("same");
        else if (st->verdict == TK_COMPARE_DIFFERENT)
            printf("+%u -%u", st->stats.added, st->stats.removed);
        else
            printf("only %s", st->have[0] ? "A" : "B");
    }
    putchar('\n');
}

static void print_lines(tk_compare *cmp, gboolean all)
{
    size_t n, shown = 0, differ = 0;
    const tk_compare_line *l = tk_compare_lines(cmp, &n);
    if (!n)
        return;
    for (size_t i = 0; i < n; i++)
        differ += l[i].sass[0] != l[i].sass[1];
    printf("\nSASS per source line (innermost frame): %zu lines, %zu differ%s\n", n, differ,
           all || !differ ? "" : " (shown; --all for every line)");
    if (!all && !differ)
        return;
    printf("      A      B  line\n");
    for (size_t i = 0; i < n; i++) {
        if (!all && l[i].sass[0] == l[i].sass[1])
            continue;
        const char *base = strrchr(l[i].file, '/');
        printf("  %5u  %5u  ", l[i].sass[0], l[i].sass[1]);
        put(base ? base + 1 : l[i].file);
        printf(":%u\n", l[i].line);
        shown++;
    }
}

static int print_text(tk_compare *cmp, gboolean all)
{
    print_header(cmp);
    print_first(cmp);
    print_config(cmp);
    print_rows(cmp, all);
    print_stages(cmp);
    print_lines(cmp, all);
    return tk_compare_first_divergence(cmp, NULL) == TK_COMPARE_NONE ? CLI_EXIT_NOTHING
                                                                     : CLI_EXIT_OK;
}

/* ---- the command ----------------------------------------------------------- */

static const tk_kernel *kernel_b_of(tk_bundle *bb, const tk_kernel *ka, const char *spec,
                                    gboolean same_bundle)
{
    if (spec)
        return cli_find_kernel(bb, spec, "--kernel-b");
    if (same_bundle) {
        cli_error("one PATH: name the second kernel with --kernel-b");
        return NULL;
    }
    /* The kernel of the same name in the other bundle. */
    return cli_find_kernel(bb, tk_kernel_name(ka), "--kernel-b (by A's name)");
}

int cmd_compare(int argc, char **argv)
{
    compare_args a = {0};
    GOptionEntry entries[] = {
        CLI_KERNEL_OPTION(&a.kernel, "Kernel A", ""),
        {"kernel-b", 0, 0, G_OPTION_ARG_STRING, &a.kernel_b,
         "Kernel B (default with two PATHs: the kernel of A's name in PATH_B)", "K2"},
        {"all", 'a', 0, G_OPTION_ARG_NONE, &a.all,
         "Text: every row and every source line, none folded", NULL},
        G_OPTION_ENTRY_NULL,
    };
    GOptionContext *ctx = cli_options(
        "PATH --kernel K --kernel-b K2 | PATH_A PATH_B --kernel K [--kernel-b K2] - "
        "where two compilations of a kernel part ways, pass by pass",
        NULL, entries, &a.common);
    GError *err = NULL;
    int rc = CLI_EXIT_USAGE;
    tk_bundle *ba = NULL, *bb = NULL;
    if (!g_option_context_parse(ctx, &argc, &argv, &err)) {
        cli_error("%s", err->message);
        g_clear_error(&err);
        goto out;
    }
    if (argc < 2 || argc > 3 || (argc == 2 && !a.kernel_b)) {
        cli_error("usage: tkview compare PATH --kernel K --kernel-b K2 | "
                     "tkview compare PATH_A PATH_B --kernel K [--kernel-b K2]");
        goto out;
    }
    ba = cli_load(argv[1], &a.common);
    bb = ba && argc == 3 ? cli_load(argv[2], &a.common) : ba;
    if (!ba || !bb) {
        rc = CLI_EXIT_INPUT;
        goto out;
    }
    const tk_kernel *ka = cli_pick_kernel(ba, a.kernel);
    const tk_kernel *kb = ka ? kernel_b_of(bb, ka, a.kernel_b, argc == 2) : NULL;
    if (!ka || !kb)
        goto out;
    tk_diags *diags = tk_diags_new();
    tk_compare *cmp = tk_compare_build(ba, ka, bb, kb, NULL, diags);
    cli_print_diags(diags, a.common.quiet);
    tk_diags_free(diags);
    rc = a.common.json ? print_json(cmp) : print_text(cmp, a.all);
    tk_compare_free(cmp);
out:
    if (bb && bb != ba)
        tk_bundle_free(bb);
    tk_bundle_free(ba);
    g_free(a.kernel);
    g_free(a.kernel_b);
    g_strfreev(a.common.source_dirs);
    g_option_context_free(ctx);
    return rc;
}
