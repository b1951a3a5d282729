/* mlir.c - MLIR dump headers and module bodies.
 *
 * Header forms (mlir/lib/Pass/IRPrinting.cpp, older and newer MLIR; Triton's
 * own pass-internal dumps):
 *   // -----// IR Dump Before Canonicalizer (canonicalize) ('builtin.module' operation) //----- //
 *   // -----// IR Dump Before Canonicalizer (canonicalize) ('tt.func' operation: @k) //----- //
 *   // -----// IR Dump After P Failed (arg) ('op' operation) //----- //
 *   // -----// IR Dump Before CanonicalizerPass: canonicalize{max-iterations=10 ...} ('builtin.module' operation) //----- //
 *   // -----// IR Dump After CanonicalizerPass Failed: canonicalize{...} ('op' operation) //----- //
 *   // -----// IR Dump LABEL //----- //                       (the print-ir pass)
 *   // -----// SoftwarePipeliner internal IR Dump After: LowerLoops
 * The scope is left out when the printer was not set to module scope.  The
 * body is the whole top-level operation (a module even for an op-scoped
 * pass), then the "#loc" aliases printed after it, then blank lines.
 */
#include "passes/internal.h"

#include <string.h>

#define MLIR_PREFIX "// -----// "
#define MLIR_SUFFIX "//----- //"

/* "('op' operation)" or "('op' operation: @sym)" at the end of S: fills the
 * scope fields and returns the text before it, or S when there is none. */
static passes_span take_scope(passes_span s, passes_header *h)
{
    if (!passes_span_ends(s, ")"))
        return s;
    const char *open = passes_span_rfind(s, " ('");
    if (!open)
        return s;
    passes_span scope = passes_span_of(open + 1, (size_t)(s.p + s.n - open - 1));
    /* Inside the parentheses: 'op' operation[: @sym] */
    passes_span in = passes_span_of(scope.p + 2, scope.n - 3);
    const char *q = memchr(in.p, '\'', in.n);
    if (!q)
        return s;
    passes_span op = passes_span_of(in.p, (size_t)(q - in.p));
    passes_span rest = passes_span_of(q + 1, (size_t)(in.p + in.n - q - 1));
    if (!passes_span_starts(rest, " operation"))
        return s;
    rest.p += 10;
    rest.n -= 10;
    h->scope = scope;
    h->scope_kind = passes_span_eq(op, "builtin.module") ? TK_PASS_SCOPE_MODULE
                                                    : TK_PASS_SCOPE_OPERATION;
    if (passes_span_starts(rest, ": @")) {
        h->scope_name = passes_span_of(rest.p + 3, rest.n - 3);
        /* A quoted symbol is printed as it is; drop the quotes. */
        if (h->scope_name.n >= 2 && h->scope_name.p[0] == '"' &&
            h->scope_name.p[h->scope_name.n - 1] == '"') {
            h->scope_name.p++;
            h->scope_name.n -= 2;
        }
    }
    return passes_span_trim(passes_span_of(s.p, (size_t)(open - s.p)));
}

/* "Pass (arg)" with ARG possibly holding parentheses of its own: splits at
 * the group that closes at the end. */
static void split_paren_arg(passes_span head, passes_header *h)
{
    h->pass = head;
    if (!passes_span_ends(head, ")"))
        return;
    int depth = 0;
    for (size_t i = head.n; i-- > 0;) {
        char c = head.p[i];
        if (c == ')')
            depth++;
        else if (c == '(' && --depth == 0) {
            if (i == 0 || head.p[i - 1] != ' ')
                return; /* "f(x)" is a name, not "name (arg)" */
            h->pass = passes_span_trim(passes_span_of(head.p, i));
            h->arg = passes_span_of(head.p + i + 1, head.n - i - 2);
            return;
        }
    }
}

int passes_mlir_header(const char *s, size_t len, passes_header *h)
{
    passes_span line = passes_span_of(s, len);
    if (!passes_span_starts(line, MLIR_PREFIX))
        return 0;
    memset(h, 0, sizeof *h);
    passes_span p = passes_span_of(s + strlen(MLIR_PREFIX), len - strlen(MLIR_PREFIX));
    /* Everything up to the closing marker; a header without it was cut. */
    p = passes_span_trim(p);
    if (passes_span_ends(p, MLIR_SUFFIX))
        p = passes_span_trim(passes_span_of(p.p, p.n - strlen(MLIR_SUFFIX)));

    if (passes_span_starts(p, "IR Dump")) {
        int closed = passes_span_ends(passes_span_trim(line), MLIR_SUFFIX);
        h->kind = TK_PASS_MLIR;
        h->status = TK_PASS_PRINTED;
        h->bad = !closed;
        passes_span rest = passes_span_trim(passes_span_of(p.p + 7, p.n - 7));
        if (passes_span_starts(rest, "Before ")) {
            h->when = TK_PASS_BEFORE;
            rest = passes_span_of(rest.p + 7, rest.n - 7);
        } else if (passes_span_starts(rest, "After ")) {
            h->when = TK_PASS_AFTER;
            rest = passes_span_of(rest.p + 6, rest.n - 6);
        } else {
            h->when = TK_PASS_LABEL;
            h->pass = rest;
            return 1;
        }
        passes_span head = take_scope(passes_span_trim(rest), h);
        const char *colon = passes_span_find(head, ": ");
        if (colon) { /* newer MLIR: "Pass: textual-pipeline" */
            h->pass = passes_span_trim(passes_span_of(head.p, (size_t)(colon - head.p)));
            h->arg = passes_span_trim(
                passes_span_of(colon + 2, (size_t)(head.p + head.n - colon - 2)));
        } else if (passes_span_ends(head, ":")) { /* nothing after the colon */
            h->pass = passes_span_trim(passes_span_of(head.p, head.n - 1));
        } else {
            split_paren_arg(head, h);
        }
        if (passes_span_ends(h->pass, " Failed")) {
            h->pass.n -= 7;
            h->when = TK_PASS_AFTER_FAILED;
        }
        if (h->pass.n == 0)
            h->bad = 1;
        return 1;
    }

    /* A pass's own dump: "Owner internal IR Dump After: Stage". */
    const char *at = passes_span_find(p, "IR Dump ");
    if (!at)
        return 0;
    h->kind = TK_PASS_MLIR_INTERNAL;
    h->status = TK_PASS_PRINTED;
    passes_span owner = passes_span_trim(passes_span_of(p.p, (size_t)(at - p.p)));
    if (passes_span_ends(owner, " internal"))
        owner.n -= 9;
    h->pass = passes_span_trim(owner);
    passes_span rest = passes_span_of(at + 8, (size_t)(p.p + p.n - at - 8));
    if (passes_span_starts(rest, "Before")) {
        h->when = TK_PASS_BEFORE;
        rest = passes_span_of(rest.p + 6, rest.n - 6);
    } else if (passes_span_starts(rest, "After")) {
        h->when = TK_PASS_AFTER;
        rest = passes_span_of(rest.p + 5, rest.n - 5);
    } else {
        h->when = TK_PASS_LABEL;
    }
    if (passes_span_starts(rest, ":"))
        rest = passes_span_of(rest.p + 1, rest.n - 1);
    h->arg = passes_span_trim(rest);
    return 1;
}

/* ---- bodies ------------------------------------------------------------ */

static int is_ident(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_' || c == '$' || c == '.' ||
           c == '-';
}

/* "@name" or "@\"quoted name\"" at P: the name without quotes. */
static passes_span symbol_at(const char *p, const char *end)
{
    passes_span none = {NULL, 0};
    if (p >= end || *p != '@')
        return none;
    p++;
    if (p < end && *p == '"') {
        const char *q = p + 1;
        while (q < end && *q != '"') {
            if (*q == '\\' && q + 1 < end)
                q++;
            q++;
        }
        if (q >= end)
            return none;
        return passes_span_of(p + 1, (size_t)(q - p - 1));
    }
    const char *q = p;
    while (q < end && is_ident(*q))
        q++;
    return passes_span_of(p, (size_t)(q - p));
}

/* A function op at S (indentation already skipped): "tt.func public @k(",
 * "llvm.func @k(...) attributes {nvvm.kernel = 1 : ui1}", "func.func",
 * "gpu.func @k(...) kernel" (MLIR's GPU dialect, the plain MLIR route).
 * Only definitions (the line opens a region) count. */
static void function_facts(const char *s, const char *end,
                           passes_body_facts *facts, passes_body_state *st)
{
    passes_span line = passes_span_of(s, (size_t)(end - s));
    int is_tt = passes_span_starts(line, "tt.func ");
    int is_llvm = passes_span_starts(line, "llvm.func ");
    int is_func = passes_span_starts(line, "func.func ");
    int is_gpu = passes_span_starts(line, "gpu.func ");
    if (!is_tt && !is_llvm && !is_func && !is_gpu)
        return;
    passes_span trimmed = passes_span_trim(line);
    if (!st->truncated && !passes_span_ends(trimmed, "{"))
        return; /* a declaration */
    const char *at = memchr(s, '@', (size_t)(end - s));
    if (!at)
        return;
    passes_span name = symbol_at(at, end);
    if (name.n == 0)
        return;
    passes_span words = passes_span_of(s, (size_t)(at - s));
    facts->function = name;
    if (is_llvm) {
        st->saw_llvm_func = 1;
        if (passes_span_find(line, "nvvm.kernel"))
            facts->kernel = 1;
        else if (!passes_span_find(words, " internal ") &&
                 !passes_span_find(words, " private ") &&
                 !passes_span_find(words, " linkonce"))
            facts->kernel = 2;
    } else if (is_gpu) {
        /* The kernel attribute follows the signature: "gpu.func @k(...)
         * kernel {" or "kernel attributes {...} {". */
        if (passes_span_find(line, ") kernel"))
            facts->kernel = 1;
    } else if (passes_span_find(words, " public ")) {
        facts->kernel = 1;
    } else if (is_func && !passes_span_find(words, " private ") &&
               !passes_span_find(words, " nested ")) {
        facts->kernel = 2; /* func.func is public unless it says otherwise */
    }
}

/* "module attributes {...} {": the text inside the attribute braces. */
static passes_span module_attrs(const char *s, const char *end)
{
    passes_span none = {NULL, 0};
    passes_span line = passes_span_trim(passes_span_of(s, (size_t)(end - s)));
    const char *a = passes_span_find(line, "attributes {");
    if (!a || !passes_span_ends(line, "} {"))
        return none;
    const char *from = a + strlen("attributes {");
    const char *to = line.p + line.n - 3;
    return to >= from ? passes_span_of(from, (size_t)(to - from)) : none;
}

static int is_op_name_start(const char *s, const char *end)
{
    /* dialect.op at column 0: [a-z_][a-z0-9_]*\.[a-z0-9_.]* then a space */
    const char *p = s;
    if (p >= end || !((*p >= 'a' && *p <= 'z') || *p == '_'))
        return 0;
    int dot = 0;
    while (p < end && (is_ident(*p) && *p != '$' && *p != '-')) {
        if (*p == '.')
            dot = 1;
        p++;
    }
    return dot && p < end && (*p == ' ' || *p == '(');
}

int passes_mlir_body_line(passes_body_state *st, const char *s, size_t len,
                          passes_body_facts *facts)
{
    const char *end = s + len;
    passes_span line = passes_span_of(s, len);
    memset(facts, 0, sizeof *facts);
    if (len == 0)
        return 1;
    if (st->in_resource) {
        if (passes_span_starts(line, "#-}"))
            st->in_resource = 0;
        return 1;
    }
    switch (s[0]) {
    case ' ':
    case '\t': {
        if (st->open == 0 && st->closed)
            return 0; /* op text after the module closed is not ours */
        /* Functions are at the module's first level: two spaces; a GPU
         * kernel sits one level down, inside its gpu.module. */
        if (len > 2 && s[1] == ' ' && s[2] != ' ')
            function_facts(s + 2, end, facts, st);
        else if (len > 4 && s[1] == ' ' && s[2] == ' ' && s[3] == ' ' &&
                 passes_span_starts(passes_span_of(s + 4, len - 4), "gpu.func "))
            function_facts(s + 4, end, facts, st);
        return 1;
    }
    case '#':
        return 1; /* attribute aliases, "#loc" lines */
    case '!':
        return 1; /* type aliases */
    case '{':
        if (passes_span_starts(line, "{-#")) {
            st->in_resource = !passes_span_find(line, "#-}");
            return 1;
        }
        return 0;
    case '}':
        if (st->open > 0) {
            if (--st->open == 0)
                st->closed = 1;
        } else {
            st->flags |= TK_PASS_INTERLEAVED;
        }
        return 1;
    case 'm':
        if (passes_span_starts(line, "module") &&
            (len == 6 || s[6] == ' ' || s[6] == '{')) {
            /* A second top-level module before the first was closed: the
             * text of another dump is mixed in. */
            if (st->open > 0)
                st->flags |= TK_PASS_INTERLEAVED;
            if (passes_span_ends(passes_span_trim(line), "{"))
                st->open++;
            st->saw_module = 1;
            facts->module_attrs = module_attrs(s, end);
            return 1;
        }
        break;
    case '"':
        /* Generic form: "builtin.module"() ({ */
        if (st->open > 0)
            st->flags |= TK_PASS_INTERLEAVED;
        if (passes_span_ends(passes_span_trim(line), "{"))
            st->open++;
        if (passes_span_starts(line, "\"builtin.module\""))
            st->saw_module = 1;
        return 1;
    default:
        break;
    }
    /* A top-level op that is not a module (the printer not at module scope):
     * "tt.func public @k(...) {". */
    if (is_op_name_start(s, end)) {
        if (st->open > 0)
            st->flags |= TK_PASS_INTERLEAVED;
        if (st->truncated || passes_span_ends(passes_span_trim(line), "{"))
            st->open++;
        function_facts(s, end, facts, st);
        return 1;
    }
    return 0;
}
