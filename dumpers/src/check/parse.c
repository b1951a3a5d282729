/* parse.c - a rules file read into rules (grammar: docs/check.md).
 *
 * One rule a line; `kernel SELECTOR` lines open the block the rules below
 * them apply to; `#` starts a comment.  The first line that is not a rule
 * stops the reading with its line number, so CI fails on a typo instead of
 * silently checking less. */
#include <stdlib.h>
#include <string.h>
#include "check/internal.h"
#include "tkdump/tk_cost.h"
#include "tkdump/tk_diag.h"

const char *check_op_name(check_op op)
{
    static const char *const names[] = {"==", "!=", "<", "<=", ">", ">="};
    return names[op];
}

int check_op_holds(check_op op, double a, double v)
{
    switch (op) {
    case CHECK_EQ: return a == v;
    case CHECK_NE: return a != v;
    case CHECK_LT: return a < v;
    case CHECK_LE: return a <= v;
    case CHECK_GT: return a > v;
    case CHECK_GE: return a >= v;
    }
    return 0;
}

static void line_spec_clear(check_line_spec *s)
{
    g_free(s->file);
    g_free(s->re_text);
    if (s->re)
        g_regex_unref(s->re);
    memset(s, 0, sizeof *s);
}

static void rule_free(void *p)
{
    check_rule *r = p;
    g_free(r->text);
    g_free(r->arg);
    line_spec_clear(&r->line);
    line_spec_clear(&r->loop_line);
    g_free(r);
}

void tk_check_rules_free(tk_check_rules *rules)
{
    if (!rules)
        return;
    g_ptr_array_free(rules->rules, TRUE);
    g_ptr_array_free(rules->kernels, TRUE);
    g_free(rules);
}

size_t tk_check_rules_count(const tk_check_rules *rules)
{
    return rules ? rules->rules->len : 0;
}

/* A cursor over one line of the rules file. */
typedef struct {
    const char *p, *end;
    char *error; /* the first problem, g_strdup_printf'd */
} cursor;

static void skip_space(cursor *c)
{
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t'))
        c->p++;
}

/* The next whitespace-delimited word (caller frees), or NULL at the end. */
static char *word(cursor *c)
{
    skip_space(c);
    const char *s = c->p;
    while (c->p < c->end && *c->p != ' ' && *c->p != '\t')
        c->p++;
    return c->p > s ? g_strndup(s, (gsize)(c->p - s)) : NULL;
}

static int at_end(cursor *c)
{
    skip_space(c);
    return c->p >= c->end;
}

static int fail(cursor *c, const char *fmt, const char *arg)
{
    if (!c->error)
        c->error = g_strdup_printf(fmt, arg ? arg : "");
    return 0;
}

/* FILE:LINE or FILE:/REGEX/ (the regex may hold spaces; "\/" is a slash). */
static int line_spec(cursor *c, check_line_spec *out)
{
    skip_space(c);
    const char *s = c->p, *colon = NULL;
    while (c->p < c->end && *c->p != ' ' && *c->p != '\t') {
        if (*c->p == ':' && c->p + 1 < c->end && c->p[1] == '/') {
            colon = c->p;
            break;
        }
        c->p++;
    }
    if (colon) {
        out->file = g_strndup(s, (gsize)(colon - s));
        const char *r = colon + 2;
        GString *re = g_string_new(NULL);
        while (r < c->end && *r != '/') {
            if (*r == '\\' && r + 1 < c->end && r[1] == '/') {
                g_string_append_c(re, '/');
                r += 2;
                continue;
            }
            g_string_append_c(re, *r++);
        }
        if (r >= c->end) {
            g_string_free(re, TRUE);
            return fail(c, "the regex of line %s has no closing '/'", out->file);
        }
        c->p = r + 1;
        GError *err = NULL;
        out->re = g_regex_new(re->str, G_REGEX_OPTIMIZE, 0, &err);
        out->re_text = g_string_free(re, FALSE);
        if (!out->re) {
            fail(c, "bad regex: %s", err->message);
            g_error_free(err);
            return 0;
        }
        if (!*out->file)
            return fail(c, "no file before ':/regex/'%s", NULL);
        return 1;
    }
    char *w = g_strndup(s, (gsize)(c->p - s));
    char *last = strrchr(w, ':');
    char *endp = NULL;
    unsigned long n = last && last[1] ? strtoul(last + 1, &endp, 10) : 0;
    if (!last || last == w || !endp || *endp || n == 0 || n > UINT32_MAX) {
        fail(c, "expected FILE:LINE or FILE:/regex/, not '%s'", w);
        g_free(w);
        return 0;
    }
    *last = '\0';
    out->file = w;
    out->line = (uint32_t)n;
    return 1;
}

static int parse_op(const char *w, check_op *op)
{
    static const char *const names[] = {"==", "!=", "<", "<=", ">", ">="};
    for (int i = 0; i < 6; i++)
        if (w && strcmp(w, names[i]) == 0) {
            *op = (check_op)i;
            return 1;
        }
    return 0;
}

static int is_kernel_fact(check_fact f)
{
    return f <= CHECK_PASS_CHANGED;
}

/* The fact words of a rule, up to the comparison. */
static int fact(cursor *c, check_rule *r, char *w)
{
    static const struct { const char *name; check_fact fact; } simple[] = {
        {"registers", CHECK_REGISTERS}, {"spills", CHECK_SPILLS},
        {"shared", CHECK_SHARED},       {"stack", CHECK_STACK},
        {"warps", CHECK_WARPS},         {"stages", CHECK_STAGES},
        {"ctas", CHECK_CTAS},
    };
    /* Cost metrics: two by their own name, any by "metric NAME". */
    if (strcmp(w, "samples") == 0 || strcmp(w, "live_registers") == 0) {
        r->fact = CHECK_METRIC;
        r->arg = g_strdup(w);
        return 1;
    }
    if (strcmp(w, "metric") == 0) {
        r->fact = CHECK_METRIC;
        r->arg = word(c);
        return r->arg ? 1 : fail(c, "'metric' needs a metric name (docs/cost.md)%s", NULL);
    }
    for (size_t i = 0; i < G_N_ELEMENTS(simple); i++)
        if (strcmp(w, simple[i].name) == 0) {
            r->fact = simple[i].fact;
            return 1;
        }
    if (strcmp(w, "diagnostics") == 0) {
        r->fact = CHECK_DIAGNOSTICS;
        r->level = -1;
        const char *save = c->p;
        char *k = word(c);
        if (k && strcmp(k, "code") == 0) {
            r->arg = word(c);
            if (!r->arg)
                return fail(c, "'diagnostics code' needs a code (C7602, spill...)%s", NULL);
        } else if (k && (strcmp(k, "error") == 0 || strcmp(k, "errors") == 0))
            r->level = TK_DIAG_LEVEL_ERROR;
        else if (k && (strcmp(k, "warning") == 0 || strcmp(k, "warnings") == 0))
            r->level = TK_DIAG_LEVEL_WARNING;
        else if (k && (strcmp(k, "remark") == 0 || strcmp(k, "remarks") == 0))
            r->level = TK_DIAG_LEVEL_REMARK;
        else
            c->p = save;
        g_free(k);
        return 1;
    }
    if (strcmp(w, "pass") == 0) {
        r->fact = CHECK_PASS_CHANGED;
        r->arg = word(c);
        char *k = word(c);
        int ok = r->arg && k && strcmp(k, "changed") == 0;
        g_free(k);
        return ok ? 1 : fail(c, "expected 'pass NAME changed'%s", NULL);
    }
    tk_stage_kind st = tk_stage_kind_parse(w);
    if (st == TK_STAGE_UNKNOWN)
        return fail(c, "unknown fact '%s' (docs/check.md lists them)", w);
    r->stage = st;
    char *k = word(c);
    int ok = 1;
    if (!k)
        ok = fail(c, "expected 'lines', 'op NAME', 'class CLASS' or 'opcode OP' after '%s'", w);
    else if (strcmp(k, "lines") == 0 || strcmp(k, "instructions") == 0)
        r->fact = CHECK_STAGE_LINES;
    else if (strcmp(k, "op") == 0 || strcmp(k, "opcode") == 0) {
        r->fact = CHECK_STAGE_OP;
        r->arg = word(c);
        if (!r->arg)
            ok = fail(c, "'%s op' needs an op name", w);
    } else if (strcmp(k, "class") == 0 && st == TK_STAGE_SASS) {
        r->fact = CHECK_SASS_CLASS;
        char *cl = word(c);
        r->cls = -2;
        for (int i = 0; cl && i < TK_SASS_CLASS_COUNT; i++)
            if (strcmp(cl, tk_sass_class_name((tk_sass_class)i)) == 0)
                r->cls = i;
        if (r->cls == -2)
            ok = fail(c, "unknown SASS class '%s' (global, shared, tensor, tma, barrier, "
                         "convert, alu, control, other)", cl);
        g_free(cl);
    } else
        ok = fail(c, "expected 'lines', 'op NAME', 'class CLASS' or 'opcode OP', not '%s'", k);
    g_free(k);
    if (!ok)
        return 0;
    /* "in loop" and "in loop FILE:LINE": TTIR and TTGIR say where loops are. */
    const char *save = c->p;
    char *in = word(c);
    if (in && strcmp(in, "in") == 0) {
        char *lp = word(c);
        if (!lp || strcmp(lp, "loop") != 0)
            ok = fail(c, "expected 'in loop', not 'in %s'", lp);
        else if (st != TK_STAGE_TTIR && st != TK_STAGE_TTGIR)
            ok = fail(c, "'in loop' needs the ttir or ttgir stage (the stages with scf.for)%s", NULL);
        else {
            r->in_loop = 1;
            skip_space(c);
            if (c->p < c->end && !strchr("=!<>", *c->p)) {
                r->has_loop_line = 1;
                ok = line_spec(c, &r->loop_line);
            }
        }
        g_free(lp);
    } else
        c->p = save;
    g_free(in);
    return ok;
}

static int rule(cursor *c, check_rule *r, char *first)
{
    char *w = first;
    if (strcmp(w, "line") == 0) {
        r->has_line = 1;
        if (!line_spec(c, &r->line))
            return 0;
        w = word(c);
        if (!w)
            return fail(c, "a line rule needs a fact%s", NULL);
    } else
        w = g_strdup(w);
    int ok = fact(c, r, w);
    if (ok && r->has_line && is_kernel_fact(r->fact))
        ok = fail(c, "'%s' is a fact of a kernel, not of a line", w);
    g_free(w);
    if (!ok)
        return 0;
    char *o = word(c);
    if (!parse_op(o, &r->op)) {
        fail(c, "expected a comparison (== != < <= > >=), not '%s'", o ? o : "the end of the line");
        g_free(o);
        return 0;
    }
    g_free(o);
    char *v = word(c);
    char *endp = NULL;
    r->value = v ? g_ascii_strtod(v, &endp) : 0;
    if (!v || !endp || *endp) {
        fail(c, "expected a number, not '%s'", v ? v : "the end of the line");
        g_free(v);
        return 0;
    }
    g_free(v);
    if (!at_end(c)) {
        char *rest = g_strndup(c->p, (gsize)(c->end - c->p));
        fail(c, "unexpected '%s' after the number", rest);
        g_free(rest);
        return 0;
    }
    return 1;
}

tk_check_rules *tk_check_rules_parse(const char *name, const char *text,
                                     size_t len, tk_diags *diags)
{
    tk_check_rules *rules = g_new0(tk_check_rules, 1);
    rules->rules = g_ptr_array_new_with_free_func(rule_free);
    rules->kernels = g_ptr_array_new_with_free_func(g_free);
    const char *kernel = "*"; /* rules before any `kernel` line: every kernel */
    g_ptr_array_add(rules->kernels, g_strdup(kernel));
    const char *p = text, *end = text + len;
    uint32_t lineno = 0;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        lineno++;
        /* A '#' outside a regex starts a comment: only at a word's start. */
        const char *ce = p;
        int in_re = 0;
        for (; ce < le; ce++) {
            if (!in_re && ce + 1 < le && ce[0] == ':' && ce[1] == '/')
                in_re = 1, ce++;
            else if (in_re && *ce == '\\')
                ce++;
            else if (in_re && *ce == '/')
                in_re = 0;
            else if (!in_re && *ce == '#' && (ce == p || ce[-1] == ' ' || ce[-1] == '\t'))
                break;
        }
        while (ce > p && (ce[-1] == ' ' || ce[-1] == '\t' || ce[-1] == '\r'))
            ce--;
        cursor c = {p, ce, NULL};
        char *w = word(&c);
        p = nl ? nl + 1 : end;
        if (!w)
            continue;
        if (strcmp(w, "kernel") == 0) {
            char *sel = word(&c);
            if (!sel || !at_end(&c)) {
                tk_diags_add(diags, TK_DIAG_ERROR, name, lineno,
                             "'kernel' takes one name or glob");
                g_free(sel);
                g_free(w);
                tk_check_rules_free(rules);
                return NULL;
            }
            g_ptr_array_add(rules->kernels, sel);
            kernel = sel;
            g_free(w);
            continue;
        }
        check_rule *r = g_new0(check_rule, 1);
        r->rule_line = lineno;
        r->kernel_spec = (char *)kernel;
        r->cls = -1;
        r->level = -1;
        const char *t = c.p - strlen(w);
        r->text = g_strndup(t, (gsize)(ce - t));
        int ok = rule(&c, r, w);
        g_free(w);
        if (!ok) {
            tk_diags_add(diags, TK_DIAG_ERROR, name, lineno, "%s", c.error ? c.error : "not a rule");
            g_free(c.error);
            rule_free(r);
            tk_check_rules_free(rules);
            return NULL;
        }
        g_ptr_array_add(rules->rules, r);
    }
    return rules;
}
