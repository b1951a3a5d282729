/* eval.c - rules checked on a bundle's kernels.
 *
 * Every fact is read from what the library has already built: metadata,
 * the binding index (IR lines per source line and stage), the cost tables
 * (SASS class per line, samples), the compiler's messages and the pass
 * timeline.  What is not at hand is UNKNOWN with the reason, never 0. */
#include <stdlib.h>
#include <string.h>
#include "check/internal.h"
#include "tkdump/tk_bind.h"
#include "tkdump/tk_cost.h"
#include "tkdump/tk_file_query.h"
#include "tkdump/tk_input_file.h"
#include "tkdump/tk_profile.h"
#include "tkdump/tk_statement.h"
#include "tkdump/tk_timeline.h"

struct tk_check_report {
    GArray *results;       /* tk_check_result */
    GStringChunk *strings; /* every string the results point at */
};

const char *tk_check_status_name(tk_check_status status)
{
    switch (status) {
    case TK_CHECK_PASS: return "pass";
    case TK_CHECK_FAIL: return "fail";
    case TK_CHECK_UNKNOWN: return "unknown";
    }
    return "?";
}

/* What one kernel's rules need, built once for all its rules. */
typedef struct {
    tk_bundle *bundle;
    const tk_kernel *k;
    const tk_diag_set *messages;
    tk_bind *ix;
    tk_cost *cost;
    tk_profile *profile;
    tk_timeline *tl;
    int tl_built;
} kctx;

static void kctx_clear(kctx *c)
{
    tk_timeline_free(c->tl);
    tk_cost_free(c->cost);
    tk_profile_free(c->profile);
    tk_bind_free(c->ix);
    memset(c, 0, sizeof *c);
}

static tk_bind *kctx_bind(kctx *c)
{
    if (!c->ix)
        c->ix = tk_bind_new(c->k, tk_bundle_loctab(c->bundle));
    return c->ix;
}

static tk_cost *kctx_cost(kctx *c)
{
    if (!c->cost) {
        tk_diags *d = tk_diags_new(); /* a profile that does not match:
                                         static counts still hold */
        c->profile = tk_profile_load(c->k, d);
        tk_diags_free(d);
        c->cost = tk_cost_new(kctx_bind(c), c->k, tk_bundle_loctab(c->bundle), c->profile);
    }
    return c->cost;
}

static tk_timeline *kctx_timeline(kctx *c)
{
    if (!c->tl_built) {
        c->tl_built = 1;
        tk_timeline_opts opts;
        memset(&opts, 0, sizeof opts);
        tk_diags *d = tk_diags_new();
        c->tl = tk_timeline_of_kernel(c->bundle, c->k, &opts, d);
        tk_diags_free(d);
    }
    return c->tl;
}

/* One evaluation: the value, or why it is unknown. */
typedef struct {
    double value;
    char *why;  /* g_strdup'd; NULL when known */
    char *file; /* the located path of the source line named */
    uint32_t line, last;
} fact_value;

static int unknown(fact_value *v, char *why)
{
    if (!v->why)
        v->why = why;
    else
        g_free(why);
    return 0;
}

static int meta_fact(fact_value *v, int64_t n, const char *what)
{
    if (n < 0)
        return unknown(v, g_strdup_printf("the kernel's metadata has no %s", what));
    v->value = (double)n;
    return 1;
}

/* Whether the kernel's first stage has IR for the statement of FILE:LINE
 * (or what it called). */
static int has_code(kctx *c, tk_file_id file, uint32_t line)
{
    tk_statement st;
    tk_bundle_statement(c->bundle, file, line, &st);
    uint32_t a = st.status == TK_STATEMENT_CODE ? st.first : line;
    uint32_t b = st.status == TK_STATEMENT_CODE ? st.last : line;
    uint32_t *out = NULL;
    size_t n = tk_bind_lines_to_stage(kctx_bind(c), file, a, b, TK_MATCH_CALLED,
                                      tk_kernel_first_stage(c->k), &out);
    free(out);
    return n > 0;
}

/* FILE:LINE or FILE:/RE/ resolved to a file of the bundle and a line (the
 * first whose text matches), then to its statement's lines. */
static int resolve_line(kctx *c, const check_line_spec *s, tk_file_id *file,
                        uint32_t *first, uint32_t *last, fact_value *v)
{
    tk_file_query *q = tk_file_query_new(c->bundle, s->file);
    tk_file_id *found = NULL;
    size_t n = tk_file_query_find(q, NULL, 0, &found);
    tk_file_query_free(q);
    if (n != 1) {
        g_free(found);
        return unknown(v, n ? g_strdup_printf("%zu files match %s", n, s->file)
                            : g_strdup_printf("no located file matches %s", s->file));
    }
    *file = found[0];
    g_free(found);
    uint32_t line = s->line;
    if (s->re) {
        const char *path = tk_bundle_resolve_source(c->bundle, *file, NULL);
        /* Read as every front end reads sources (regular files, bounded). */
        char *text = path ? tk_input_file_read(path, TK_INPUT_FILE_SOURCE, NULL, NULL) : NULL;
        if (!text)
            return unknown(v, g_strdup_printf("the source of %s is not at hand "
                                              "(give --source-dir)", s->file));
        /* The first matching line the kernel has code for, so that a
         * docstring or comment quoting the code above it is passed over;
         * else the first matching line. */
        char **lines = g_strsplit(text, "\n", -1);
        g_free(text);
        uint32_t any = 0;
        for (uint32_t i = 0; lines[i] && !line; i++)
            if (g_regex_match(s->re, lines[i], 0, NULL)) {
                if (!any)
                    any = i + 1;
                if (has_code(c, *file, i + 1))
                    line = i + 1;
            }
        g_strfreev(lines);
        if (!line)
            line = any;
        if (!line)
            return unknown(v, g_strdup_printf("no line of %s matches /%s/", s->file,
                                              s->re_text));
    }
    tk_statement st;
    tk_bundle_statement(c->bundle, *file, line, &st);
    if (st.status == TK_STATEMENT_PAST_END)
        return unknown(v, g_strdup_printf("%s has %u lines", s->file, st.n_lines));
    *first = st.status == TK_STATEMENT_CODE ? st.first : line;
    *last = st.status == TK_STATEMENT_CODE ? st.last : line;
    /* The line the rule named (the regex's match), its statement in LAST. */
    v->line = line;
    v->last = *last;
    g_free(v->file);
    v->file = g_strdup(tk_loctab_file_path(tk_bundle_loctab(c->bundle), *file));
    return 1;
}

static int indent_of(const char *t, size_t len, int *blank)
{
    size_t i = 0;
    while (i < len && t[i] == ' ')
        i++;
    *blank = i == len;
    return (int)i;
}

/* The lines of STAGE inside an scf.for (those FORS lists when FORS is not
 * NULL): MLIR prints a region's ops indented deeper than the op that holds
 * it, up to its closing '}' at the op's own depth.  Caller frees. */
static unsigned char *loop_mask(const tk_stage *stage, const uint32_t *fors, size_t n_fors)
{
    uint32_t n = tk_stage_line_count(stage);
    unsigned char *mask = g_malloc0((gsize)n + 2);
    for (uint32_t i = 1; i <= n; i++) {
        size_t len, oplen;
        const char *t = tk_stage_line(stage, i, &len);
        const char *op = check_op_of(TK_STAGE_TTGIR, t, len, &oplen);
        if (!op || !check_op_matches(op, oplen, "scf.for"))
            continue;
        int want = !fors;
        for (size_t f = 0; fors && f < n_fors && !want; f++)
            want = fors[f] == i;
        if (!want)
            continue;
        int blank, depth = indent_of(t, len, &blank);
        for (uint32_t j = i + 1; j <= n; j++) {
            size_t l2;
            const char *t2 = tk_stage_line(stage, j, &l2);
            int d = indent_of(t2, l2, &blank);
            if (!blank && d <= depth)
                break;
            mask[j] = 1;
        }
    }
    return mask;
}

static int sass_class_index(const tk_cost *cost, int cls)
{
    return tk_cost_metric_find(cost, cls < 0 ? "instructions"
                                             : tk_sass_class_name((tk_sass_class)cls));
}

/* Counts the instruction lines among the N at LINES (every line of the
 * stage with ALL) that the rule's fact counts. */
static int count_lines(kctx *c, const check_rule *r, const tk_stage *stage, int all,
                       const uint32_t *lines, size_t n, const unsigned char *mask,
                       fact_value *v)
{
    uint32_t total = all ? tk_stage_line_count(stage) : (uint32_t)n;
    tk_cost *cost = r->fact == CHECK_SASS_CLASS ? kctx_cost(c) : NULL;
    double count = 0;
    for (uint32_t i = 0; i < total; i++) {
        uint32_t l = all ? i + 1 : lines[i];
        if (tk_stage_line_kind(stage, l) != TK_LINE_INSTRUCTION)
            continue;
        if (mask && !mask[l])
            continue;
        if (r->fact == CHECK_SASS_CLASS) {
            int cls = tk_cost_sass_class(cost, l);
            if (cls < 0 || (r->cls >= 0 && cls != r->cls))
                continue;
        } else if (r->fact == CHECK_STAGE_OP) {
            size_t len, oplen;
            const char *t = tk_stage_line(stage, l, &len);
            const char *op = check_op_of(r->stage, t, len, &oplen);
            if (!op || !check_op_matches(op, oplen, r->arg))
                continue;
        }
        count++;
    }
    v->value = count;
    return 1;
}

static int stage_fact(kctx *c, const check_rule *r, fact_value *v)
{
    tk_stage_kind sk = r->fact == CHECK_SASS_CLASS ? TK_STAGE_SASS : r->stage;
    const tk_stage *stage = tk_kernel_stage(c->k, sk);
    if (!stage) {
        const char *why = tk_kernel_stage_missing(c->k, sk);
        return unknown(v, g_strdup_printf("the kernel has no %s%s%s", tk_stage_kind_label(sk),
                                          why ? ": " : "", why ? why : ""));
    }
    unsigned char *mask = NULL;
    if (r->in_loop) {
        uint32_t *fors = NULL;
        size_t n_fors = 0;
        if (r->has_loop_line) {
            tk_file_id f;
            uint32_t a, b;
            fact_value lv = {0};
            if (!resolve_line(c, &r->loop_line, &f, &a, &b, &lv)) {
                unknown(v, lv.why);
                g_free(lv.file);
                return 0;
            }
            g_free(lv.file);
            uint32_t *bound = NULL;
            size_t nb = tk_bind_lines_to_stage(kctx_bind(c), f, a, b, TK_MATCH_EXACT, sk, &bound);
            fors = g_new(uint32_t, nb + 1);
            for (size_t i = 0; i < nb; i++) {
                size_t len, oplen;
                const char *t = tk_stage_line(stage, bound[i], &len);
                const char *op = check_op_of(sk, t, len, &oplen);
                if (op && check_op_matches(op, oplen, "scf.for"))
                    fors[n_fors++] = bound[i];
            }
            free(bound);
            if (!n_fors) {
                g_free(fors);
                return unknown(v, g_strdup_printf("no scf.for of the %s is at %s:%u",
                                                  tk_stage_kind_label(sk), r->loop_line.file, a));
            }
        }
        mask = loop_mask(stage, r->has_loop_line ? fors : NULL, n_fors);
        g_free(fors);
    }
    int ok;
    if (r->has_line) {
        tk_file_id f;
        uint32_t a, b;
        if (!resolve_line(c, &r->line, &f, &a, &b, v)) {
            g_free(mask);
            return 0;
        }
        uint32_t *lines = NULL;
        size_t n = tk_bind_lines_to_stage(kctx_bind(c), f, a, b, TK_MATCH_CALLED, sk, &lines);
        ok = count_lines(c, r, stage, 0, lines, n, mask, v);
        free(lines);
    } else if (r->fact == CHECK_SASS_CLASS && !mask) {
        /* The cost tables already summed every class. */
        tk_cost *cost = kctx_cost(c);
        int m = sass_class_index(cost, r->cls);
        v->value = m >= 0 ? tk_cost_total(cost)[m] : 0;
        ok = 1;
    } else
        ok = count_lines(c, r, stage, 1, NULL, 0, mask, v);
    g_free(mask);
    return ok;
}

/* A cost metric: the kernel's total (its peak for the live register
 * counts), or over the statement's source lines the sum (the maximum) of
 * their inclusive values. */
static int metric_fact(kctx *c, const check_rule *r, fact_value *v)
{
    if (!tk_kernel_stage(c->k, TK_STAGE_SASS) && strcmp(r->arg, "samples") != 0) {
        const char *why = tk_kernel_stage_missing(c->k, TK_STAGE_SASS);
        return unknown(v, g_strdup_printf("the kernel has no SASS%s%s", why ? ": " : "",
                                          why ? why : ""));
    }
    tk_cost *cost = kctx_cost(c);
    int m = tk_cost_metric_find(cost, r->arg);
    if (m < 0) {
        const char *why = tk_cost_metric_missing(cost, r->arg);
        if (!why && strcmp(r->arg, "samples") == 0)
            why = "the kernel has no profile with samples";
        return unknown(v, why ? g_strdup(why)
                              : g_strdup_printf("no metric '%s' (docs/cost.md lists them)",
                                                r->arg));
    }
    int peak = tk_cost_metric_is_peak(cost, (size_t)m);
    if (!r->has_line) {
        v->value = tk_cost_total(cost)[m];
        return 1;
    }
    tk_file_id f;
    uint32_t a, b;
    if (!resolve_line(c, &r->line, &f, &a, &b, v))
        return 0;
    double acc = 0;
    for (uint32_t l = a; l <= b; l++) {
        const tk_cost_line *cl = tk_cost_source_line(cost, f, l);
        if (!cl)
            continue;
        double x = cl->inclusive[m];
        acc = peak ? (x > acc ? x : acc) : acc + x;
    }
    v->value = acc;
    return 1;
}

static int diag_fact(kctx *c, const check_rule *r, fact_value *v)
{
    if (!c->messages)
        return unknown(v, g_strdup("no compiler messages (stdout.txt, stderr.txt) "
                                   "come with the input"));
    size_t ki = tk_diag_set_find_kernel(c->messages, c->k);
    if (r->fact == CHECK_STACK) {
        const tk_diag_kernel *dk = ki == SIZE_MAX ? NULL : tk_diag_set_kernel(c->messages, ki);
        if (!dk || !dk->ptxas.present)
            return unknown(v, g_strdup("no ptxas summary is tied to this kernel (none "
                                       "printed: TRITON_DUMP_PTXAS_LOG=1; or several "
                                       "compiles of its name with equal counts)"));
        v->value = (double)dk->ptxas.stack_frame;
        return 1;
    }
    double n = 0;
    for (size_t i = 0; ki != SIZE_MAX && i < tk_diag_set_count(c->messages); i++) {
        const tk_diag_entry *e = tk_diag_set_entry(c->messages, i);
        if (e->kernel != ki)
            continue;
        if (r->level >= 0 && (int)e->level != r->level)
            continue;
        if (r->arg) {
            const tk_diag_known *known = tk_diag_entry_explain(e);
            if (!(e->code && strcmp(e->code, r->arg) == 0) &&
                !(known && strcmp(known->key, r->arg) == 0))
                continue;
        }
        n++;
    }
    v->value = n;
    return 1;
}

static int pass_fact(kctx *c, const check_rule *r, fact_value *v)
{
    tk_timeline *tl = kctx_timeline(c);
    if (!tl || tk_timeline_count(tl) == 0)
        return unknown(v, g_strdup("no pass dumps come with the kernel (MLIR_ENABLE_DUMP=1)"));
    size_t ran = 0, changed = 0, known = 0;
    for (size_t i = 0; i < tk_timeline_count(tl); i++) {
        const tk_timeline_entry *e = tk_timeline_get(tl, i);
        if (strcmp(e->pass, r->arg) != 0 && strcmp(e->arg, r->arg) != 0)
            continue;
        ran++;
        known += e->effect != TK_EFFECT_UNKNOWN;
        changed += e->effect == TK_EFFECT_CHANGED;
    }
    if (ran && !known)
        return unknown(v, g_strdup_printf("what %s changed is not measured", r->arg));
    v->value = (double)changed;
    return 1;
}

static int evaluate(kctx *c, const check_rule *r, fact_value *v)
{
    const tk_kernel_meta *m = tk_kernel_metadata(c->k);
    switch (r->fact) {
    case CHECK_REGISTERS: return meta_fact(v, m ? m->registers : -1, "register count");
    case CHECK_SPILLS: return meta_fact(v, m ? m->spill_bytes : -1, "spill size");
    case CHECK_SHARED: return meta_fact(v, m ? m->shared_bytes : -1, "shared memory size");
    case CHECK_WARPS: return meta_fact(v, m ? m->num_warps : -1, "num_warps");
    case CHECK_STAGES: return meta_fact(v, m ? m->num_stages : -1, "num_stages");
    case CHECK_CTAS: return meta_fact(v, m ? m->num_ctas : -1, "num_ctas");
    case CHECK_STACK:
    case CHECK_DIAGNOSTICS: return diag_fact(c, r, v);
    case CHECK_PASS_CHANGED: return pass_fact(c, r, v);
    case CHECK_METRIC: return metric_fact(c, r, v);
    case CHECK_STAGE_LINES:
    case CHECK_STAGE_OP:
    case CHECK_SASS_CLASS: return stage_fact(c, r, v);
    }
    return 0;
}

static int glob_chars(const char *s)
{
    return strpbrk(s, "*?[") != NULL;
}

/* The kernels SPEC selects: a glob over names (and name:hash), else every
 * kernel of that name (all its configs), else what --kernel accepts. */
static GArray *select_kernels(const tk_bundle *b, const char *spec)
{
    GArray *out = g_array_new(FALSE, FALSE, sizeof(size_t));
    size_t n = tk_bundle_kernel_count(b);
    for (size_t i = 0; i < n; i++) {
        const tk_kernel *k = tk_bundle_kernel(b, i);
        const char *name = tk_kernel_name(k);
        int hit;
        if (glob_chars(spec)) {
            char *full = g_strdup_printf("%s:%s", name, tk_kernel_hash(k));
            hit = g_pattern_match_simple(spec, name) || g_pattern_match_simple(spec, full);
            g_free(full);
        } else
            hit = strcmp(spec, name) == 0;
        if (hit)
            g_array_append_val(out, i);
    }
    if (out->len == 0 && !glob_chars(spec)) {
        size_t *ids = NULL;
        size_t m = tk_bundle_find_kernels(b, spec, &ids);
        g_array_append_vals(out, ids, (guint)m);
        g_free(ids);
    }
    return out;
}

static void add_result(tk_check_report *rep, size_t i, const check_rule *r,
                       const tk_kernel *k, const fact_value *v)
{
    tk_check_result res;
    memset(&res, 0, sizeof res);
    res.rule = i;
    res.rule_line = r->rule_line;
    res.rule_text = g_string_chunk_insert_const(rep->strings, r->text);
    res.kernel_spec = g_string_chunk_insert_const(rep->strings, r->kernel_spec);
    res.kernel = k;
    res.actual = v->value;
    if (v->why) {
        res.status = TK_CHECK_UNKNOWN;
        res.why = g_string_chunk_insert(rep->strings, v->why);
    } else
        res.status = check_op_holds(r->op, v->value, r->value) ? TK_CHECK_PASS : TK_CHECK_FAIL;
    if (v->file) {
        res.source_file = g_string_chunk_insert_const(rep->strings, v->file);
        res.source_line = v->line;
        res.source_last = v->last;
    }
    g_array_append_val(rep->results, res);
}

tk_check_report *tk_check_run(const tk_check_rules *rules, tk_bundle *bundle,
                              const tk_diag_set *messages)
{
    tk_check_report *rep = g_new0(tk_check_report, 1);
    rep->results = g_array_new(FALSE, FALSE, sizeof(tk_check_result));
    rep->strings = g_string_chunk_new(1024);
    /* Rules in file order; consecutive rules of one `kernel` block share
     * each kernel's tables. */
    size_t i = 0, n = rules->rules->len;
    while (i < n) {
        const check_rule *first = g_ptr_array_index(rules->rules, i);
        size_t j = i;
        while (j < n && ((check_rule *)g_ptr_array_index(rules->rules, j))->kernel_spec ==
                            first->kernel_spec)
            j++;
        GArray *ks = select_kernels(bundle, first->kernel_spec);
        if (ks->len == 0)
            for (size_t r = i; r < j; r++) {
                fact_value v = {0};
                v.why = g_strdup_printf("no kernel matches '%s'", first->kernel_spec);
                add_result(rep, r, g_ptr_array_index(rules->rules, r), NULL, &v);
                g_free(v.why);
            }
        for (guint x = 0; x < ks->len; x++) {
            kctx c = {0};
            c.bundle = bundle;
            c.k = tk_bundle_kernel(bundle, g_array_index(ks, size_t, x));
            c.messages = messages;
            for (size_t r = i; r < j; r++) {
                const check_rule *rule = g_ptr_array_index(rules->rules, r);
                fact_value v = {0};
                evaluate(&c, rule, &v);
                add_result(rep, r, rule, c.k, &v);
                g_free(v.why);
                g_free(v.file);
            }
            kctx_clear(&c);
        }
        g_array_free(ks, TRUE);
        i = j;
    }
    return rep;
}

void tk_check_report_free(tk_check_report *report)
{
    if (!report)
        return;
    g_array_free(report->results, TRUE);
    g_string_chunk_free(report->strings);
    g_free(report);
}

size_t tk_check_report_count(const tk_check_report *report)
{
    return report->results->len;
}

const tk_check_result *tk_check_report_get(const tk_check_report *report, size_t i)
{
    return i < report->results->len ? &g_array_index(report->results, tk_check_result, i)
                                    : NULL;
}

size_t tk_check_report_failures(const tk_check_report *report)
{
    size_t n = 0;
    for (guint i = 0; i < report->results->len; i++)
        n += g_array_index(report->results, tk_check_result, i).status != TK_CHECK_PASS;
    return n;
}
