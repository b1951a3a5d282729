/* baseline.c - a rules file that pins what a bundle's kernels compiled to
 * today.  The candidate facts are written as rules, checked on the bundle
 * by tk_check_run() itself (so a baseline reads every value the way a check
 * will), and each becomes a comparison that holds on every config of the
 * kernel: equal where all configs agree, else the range they span;
 * registers get a margin above the largest. */
#include <stdlib.h>
#include <string.h>
#include "check/internal.h"
#include "tkdump/tk_bind.h"
#include "tkdump/tk_cost.h"
#include "tkdump/tk_input_file.h"

typedef enum {
    PIN_EXACT,   /* == when configs agree, else the range */
    PIN_MARGIN,  /* <= largest + margin */
    PIN_AT_MOST, /* == 0 when none has any, else <= the largest */
    PIN_PRESENT  /* >= 1 when every config has some, == 0 when none has */
} pin_kind;

typedef struct {
    char *kernel;  /* the name (every config) */
    char *lhs;     /* "registers", "line f.py:/x/ sass class tensor" */
    pin_kind pin;
    int only_if_some; /* drop the rule when no config has any */
} candidate;

/* The source text of FILE's lines (NULL when not at hand). */
static char **source_lines(tk_bundle *b, tk_file_id file)
{
    const char *path = tk_bundle_resolve_source(b, file, NULL);
    char *text = path ? tk_input_file_read(path, TK_INPUT_FILE_SOURCE, NULL, NULL) : NULL;
    if (!text)
        return NULL;
    char **lines = g_strsplit(text, "\n", -1);
    g_free(text);
    return lines;
}

/* How a rule names line LINE: its text as a regex when the text is unique
 * enough that the first line matching it is this one (so edits above it
 * keep the rule), else base:LINE. */
static char *line_name(const char *base, char **lines, uint32_t line)
{
    if (lines && line <= g_strv_length(lines)) {
        char *t = g_strstrip(g_strdup(lines[line - 1]));
        char *esc = g_regex_escape_string(t, -1);
        GString *re = g_string_new(NULL);
        for (const char *p = esc; *p; p++) {
            if (*p == '/')
                g_string_append_c(re, '\\');
            g_string_append_c(re, *p);
        }
        GRegex *rx = *t ? g_regex_new(esc, 0, 0, NULL) : NULL;
        uint32_t first = 0;
        for (uint32_t i = 0; rx && lines[i] && !first; i++)
            if (g_regex_match(rx, lines[i], 0, NULL))
                first = i + 1;
        if (rx)
            g_regex_unref(rx);
        g_free(esc);
        g_free(t);
        char *r = g_string_free(re, FALSE);
        char *named = first == line ? g_strdup_printf("%s:/%s/", base, r) : NULL;
        g_free(r);
        if (named)
            return named;
    }
    return g_strdup_printf("%s:%u", base, line);
}

static void add(GPtrArray *cands, const char *kernel, char *lhs, pin_kind pin, int only_if_some)
{
    candidate *c = g_new0(candidate, 1);
    c->kernel = g_strdup(kernel);
    c->lhs = lhs;
    c->pin = pin;
    c->only_if_some = only_if_some;
    g_ptr_array_add(cands, c);
}

static void cand_free(void *p)
{
    candidate *c = p;
    g_free(c->kernel);
    g_free(c->lhs);
    g_free(c);
}

/* The source lines of K's main file that its TTGIR (else TTIR) has code
 * for: the innermost frames of its instruction lines. */
static void line_candidates(tk_bundle *b, const tk_kernel *k, GPtrArray *cands)
{
    tk_loctab *tab = tk_bundle_loctab(b);
    tk_file_id main = tk_kernel_main_source(k, tab);
    const tk_stage *st = tk_kernel_stage(k, TK_STAGE_TTGIR);
    if (!st)
        st = tk_kernel_stage(k, TK_STAGE_TTIR);
    if (main == TK_NO_FILE || !st)
        return;
    GArray *seen = g_array_new(FALSE, TRUE, 1);
    for (uint32_t l = 1; l <= tk_stage_line_count(st); l++) {
        if (tk_stage_line_kind(st, l) != TK_LINE_INSTRUCTION)
            continue;
        const tk_stack_id *ids;
        size_t n = tk_stage_line_stacks(st, l, &ids);
        for (size_t i = 0; i < n; i++) {
            size_t nf;
            const tk_frame *f = tk_loctab_stack_frames(tab, ids[i], &nf);
            if (!nf || f[0].file != main)
                continue;
            if (seen->len <= f[0].line)
                g_array_set_size(seen, f[0].line + 1);
            seen->data[f[0].line] = 1;
        }
    }
    char *base = g_path_get_basename(tk_loctab_file_path(tab, main));
    char **text = source_lines(b, main);
    const char *name = tk_kernel_name(k);
    for (uint32_t line = 1; line < seen->len; line++) {
        if (!seen->data[line])
            continue;
        char *ln = line_name(base, text, line);
        add(cands, name, g_strdup_printf("line %s sass class tensor", ln), PIN_PRESENT, 1);
        add(cands, name, g_strdup_printf("line %s ptx op wgmma.mma_async", ln), PIN_PRESENT, 1);
        add(cands, name, g_strdup_printf("line %s ptx op mma", ln), PIN_PRESENT, 1);
        add(cands, name, g_strdup_printf("line %s ttgir op ttg.async_copy_global_to_local", ln),
            PIN_PRESENT, 1);
        add(cands, name, g_strdup_printf("line %s ttgir op ttg.convert_layout in loop", ln),
            PIN_AT_MOST, 1);
        add(cands, name, g_strdup_printf("line %s metric spill_instructions", ln), PIN_AT_MOST, 1);
        g_free(ln);
    }
    g_strfreev(text);
    g_free(base);
    g_array_free(seen, TRUE);
}

/* Candidates sorted by kernel name (stable: kernel facts first), each
 * (kernel, rule) once. */
static gint cand_cmp(gconstpointer a, gconstpointer b)
{
    const candidate *x = *(candidate *const *)a, *y = *(candidate *const *)b;
    return strcmp(x->kernel, y->kernel);
}

static void dedupe(GPtrArray *cands)
{
    g_ptr_array_sort(cands, cand_cmp); /* GLib's sort is stable */
    GHashTable *seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    for (guint i = 0; i < cands->len;) {
        candidate *c = g_ptr_array_index(cands, i);
        char *key = g_strdup_printf("%s\n%s", c->kernel, c->lhs);
        if (g_hash_table_contains(seen, key)) {
            g_free(key);
            g_ptr_array_remove_index(cands, i);
            continue;
        }
        g_hash_table_add(seen, key);
        i++;
    }
    g_hash_table_destroy(seen);
}

static void put(GString *out, const candidate *c, double lo, double hi, unsigned margin)
{
    switch (c->pin) {
    case PIN_MARGIN:
        g_string_append_printf(out, "  %s <= %.0f\n", c->lhs, (double)(((uint64_t)hi * (100u + margin) + 99u) / 100u));
        return;
    case PIN_AT_MOST: /* none stays none; fewer than today is no regression */
        if (hi == 0)
            g_string_append_printf(out, "  %s == 0\n", c->lhs);
        else
            g_string_append_printf(out, "  %s <= %.0f\n", c->lhs, hi);
        return;
    case PIN_PRESENT:
        if (lo >= 1)
            g_string_append_printf(out, "  %s >= 1\n", c->lhs);
        else if (hi == 0)
            g_string_append_printf(out, "  %s == 0\n", c->lhs);
        return;
    case PIN_EXACT:
        if (lo == hi)
            g_string_append_printf(out, "  %s == %.0f\n", c->lhs, hi);
        else
            g_string_append_printf(out, "  %s >= %.0f\n  %s <= %.0f\n", c->lhs, lo, c->lhs, hi);
        return;
    }
}

char *tk_check_baseline(tk_bundle *b, const tk_diag_set *messages, unsigned margin)
{
    GPtrArray *cands = g_ptr_array_new_with_free_func(cand_free);
    GPtrArray *names = g_ptr_array_new();
    for (size_t i = 0; i < tk_bundle_kernel_count(b); i++) {
        const tk_kernel *k = tk_bundle_kernel(b, i);
        const char *name = tk_kernel_name(k);
        if (names->len && strcmp(g_ptr_array_index(names, names->len - 1), name) == 0)
            continue; /* kernels are ordered by name: the next config */
        g_ptr_array_add(names, (char *)name);
        add(cands, name, g_strdup("spills"), PIN_AT_MOST, 0);
        add(cands, name, g_strdup("registers"), PIN_MARGIN, 0);
        add(cands, name, g_strdup("warps"), PIN_EXACT, 0);
        add(cands, name, g_strdup("stages"), PIN_EXACT, 0);
        add(cands, name, g_strdup("shared"), PIN_AT_MOST, 0);
        add(cands, name, g_strdup("sass class tensor"), PIN_PRESENT, 0);
        add(cands, name, g_strdup("ttgir op ttg.async_copy_global_to_local"), PIN_PRESENT, 0);
        add(cands, name, g_strdup("ttgir op ttg.convert_layout in loop"), PIN_AT_MOST, 0);
        if (messages)
            add(cands, name, g_strdup("diagnostics error"), PIN_AT_MOST, 0);
    }
    /* Source lines of every config, once per kernel name. */
    for (size_t i = 0; i < tk_bundle_kernel_count(b); i++)
        line_candidates(b, tk_bundle_kernel(b, i), cands);
    dedupe(cands);
    /* Every candidate checked once on every config of its kernel. */
    GString *rules = g_string_new(NULL);
    const char *cur = NULL;
    for (guint i = 0; i < cands->len; i++) {
        candidate *c = g_ptr_array_index(cands, i);
        if (!cur || strcmp(cur, c->kernel) != 0)
            g_string_append_printf(rules, "kernel %s\n", c->kernel);
        cur = c->kernel;
        g_string_append_printf(rules, "%s >= 0\n", c->lhs);
    }
    tk_diags *d = tk_diags_new();
    tk_check_rules *parsed = tk_check_rules_parse("baseline", rules->str, rules->len, d);
    tk_diags_free(d);
    g_string_free(rules, TRUE);
    GStringChunk *strings = g_string_chunk_new(256);
    GString *out = g_string_new("# tkview check baseline: what these kernels compiled to when it was\n"
                                "# written.  Edit, commit, and run `tkview check PATH THIS_FILE` in CI.\n");
    if (parsed) {
        tk_check_report *rep = tk_check_run(parsed, b, messages);
        size_t nr = tk_check_report_count(rep), nc = cands->len;
        double *lo = g_new0(double, nc), *hi = g_new0(double, nc);
        size_t *known = g_new0(size_t, nc), *unknown = g_new0(size_t, nc);
        for (size_t at = 0; at < nr; at++) {
            const tk_check_result *r = tk_check_report_get(rep, at);
            size_t i = r->rule;
            if (r->status == TK_CHECK_UNKNOWN) {
                unknown[i]++;
                continue;
            }
            if (!known[i] || r->actual < lo[i])
                lo[i] = r->actual;
            if (!known[i] || r->actual > hi[i])
                hi[i] = r->actual;
            known[i]++;
        }
        /* Facts every config has, under the kernel's name; facts only some
         * configs have (SASS dumped for one of them), under each of those
         * configs (name:hash), so that the baseline holds on this input. */
        cur = NULL;
        for (guint i = 0; i < nc; i++) {
            candidate *c = g_ptr_array_index(cands, i);
            if (!known[i] || unknown[i] || (c->only_if_some && hi[i] <= 0))
                continue;
            if (!cur || strcmp(cur, c->kernel) != 0)
                g_string_append_printf(out, "\nkernel %s\n", c->kernel);
            cur = c->kernel;
            put(out, c, lo[i], hi[i], margin);
        }
        for (size_t at = 0; at < nr; at++) {
            const tk_check_result *r = tk_check_report_get(rep, at);
            candidate *c = g_ptr_array_index(cands, r->rule);
            if (!known[r->rule] || !unknown[r->rule] || r->status == TK_CHECK_UNKNOWN ||
                (c->only_if_some && r->actual <= 0))
                continue;
            char *k = g_strdup_printf("%s:%.8s", tk_kernel_name(r->kernel),
                                      tk_kernel_hash(r->kernel));
            if (!cur || strcmp(cur, k) != 0)
                g_string_append_printf(out, "\n# only this config has what the rules below read\n"
                                            "kernel %s\n", k);
            put(out, c, r->actual, r->actual, margin);
            cur = g_string_chunk_insert_const(strings, k);
            g_free(k);
        }
        g_free(lo);
        g_free(hi);
        g_free(known);
        g_free(unknown);
        tk_check_report_free(rep);
        tk_check_rules_free(parsed);
    }
    g_string_chunk_free(strings);
    g_ptr_array_free(names, TRUE);
    g_ptr_array_free(cands, TRUE);
    char *s = g_string_free(out, FALSE);
    char *ret = strdup(s);
    g_free(s);
    return ret;
}
