/* llvm.c - LLVM dump headers, IR and MIR bodies, pass manager
 * chatter.
 *
 * Header forms (llvm/lib/Passes/StandardInstrumentations.cpp, the legacy
 * pass manager, MachineFunctionPass):
 *   ; *** IR Dump After InstCombinePass on add_kernel ***       function
 *   ; *** IR Dump After GlobalOptPass on [module] ***           module
 *   ; *** IR Dump After InlinerPass on (add_kernel) ***         CGSCC
 *   ; *** IR Dump After LICMPass on loop %x in function f ***   loop
 *   ; *** IR Dump After P on F (invalidated) ***                module follows
 *   ; *** IR Dump Before P on F ***
 *   *** IR Dump After Global Value Numbering (gvn) ***          legacy
 *   *** IR Dump After DummyCGSCCPass (DummyCGSCCPass) ***; Function Attrs: ...
 *       the legacy CGSCC printer: no newline before a body that starts
 *       with a comment (AMDGPU); the comment belongs to the body
 *   *** IR Dump After DummyCGSCCPass (DummyCGSCCPass) ***
 *   Printing <null> Function                      the same, on the call
 *       graph's external node, which has no function to print
 *   # *** IR Dump After NVPTX DAG->DAG Pattern Instruction Selection (nvptx-isel) ***:
 *   -print-changed: *** IR Dump At Start ***, *** IR Dump After P on F ***,
 *   *** IR Dump After P on F omitted because no change ***,
 *   *** IR Dump After P on F filtered out ***, *** IR Pass P on F ignored ***,
 *   *** IR Pass P invalidated ***, *** IR Deleted After P on F ***
 * A legacy description may hold parentheses of its own ("Instrument function
 * entry/exit with calls to e.g. mcount() (post inlining)
 * (post-inline-ee-instrument)"); the argument is the last group.
 */
#include "passes/internal.h"

#include <string.h>

/* "F" of "P on F": sets the scope fields. */
static void set_scope(passes_span f, passes_header *h)
{
    h->scope = f;
    if (passes_span_eq(f, "[module]")) {
        h->scope_kind = TK_PASS_SCOPE_MODULE;
    } else if (passes_span_starts(f, "(")) {
        /* "(f)" or "(f, g)": the first function names it. */
        h->scope_kind = TK_PASS_SCOPE_CGSCC;
        size_t i = 1;
        while (i < f.n && f.p[i] != ',' && f.p[i] != ')')
            i++;
        h->scope_name = passes_span_of(f.p + 1, i - 1);
    } else if (passes_span_starts(f, "loop ")) {
        h->scope_kind = TK_PASS_SCOPE_LOOP;
        const char *in = passes_span_rfind(f, " in function ");
        if (in)
            h->scope_name =
                passes_span_of(in + 13, (size_t)(f.p + f.n - in - 13));
    } else {
        h->scope_kind = TK_PASS_SCOPE_FUNCTION;
        h->scope_name = f;
    }
}

/* "Description (arg)": the argument is the group closing at the end, when
 * it is one word.  Returns 1 when split. */
static int split_legacy(passes_span s, passes_header *h)
{
    if (!passes_span_ends(s, ")"))
        return 0;
    int depth = 0;
    for (size_t i = s.n; i-- > 0;) {
        char c = s.p[i];
        if (c == ')')
            depth++;
        else if (c == '(' && --depth == 0) {
            if (i == 0 || s.p[i - 1] != ' ')
                return 0;
            passes_span arg = passes_span_of(s.p + i + 1, s.n - i - 2);
            passes_span before = passes_span_trim(passes_span_of(s.p, i));
            /* "InlinerPass on (f)" is a CGSCC scope, not an argument. */
            if (passes_span_ends(before, " on") || arg.n == 0 ||
                memchr(arg.p, ' ', arg.n))
                return 0;
            h->pass = before;
            h->arg = arg;
            return 1;
        }
    }
    return 0;
}

/* Whether pass name S is a legacy description: a space outside <...>. */
static int described(passes_span s)
{
    int depth = 0;
    for (size_t i = 0; i < s.n; i++) {
        if (s.p[i] == '<')
            depth++;
        else if (s.p[i] == '>' && depth > 0)
            depth--;
        else if (s.p[i] == ' ' && depth == 0)
            return 1;
    }
    return 0;
}

int passes_llvm_header(const char *s, size_t len, passes_header *h)
{
    passes_span line = passes_span_trim(passes_span_of(s, len));
    int newpm = 0, machine = 0;
    if (passes_span_starts(line, "; *** IR ")) {
        newpm = 1;
        line = passes_span_of(line.p + 2, line.n - 2);
    } else if (passes_span_starts(line, "# *** IR ")) {
        machine = 1;
        line = passes_span_of(line.p + 2, line.n - 2);
    } else if (!passes_span_starts(line, "*** IR ")) {
        return 0;
    }
    passes_span body = passes_span_of(line.p + 7, line.n - 7);
    if (!passes_span_starts(body, "Dump ") && !passes_span_starts(body, "Pass ") &&
        !passes_span_starts(body, "Deleted "))
        return 0;
    memset(h, 0, sizeof *h);
    h->status = TK_PASS_PRINTED;
    h->kind = machine ? TK_PASS_LLVM_MACHINE : TK_PASS_LLVM_IR;
    if (machine && passes_span_ends(body, ":"))
        body.n--;
    const char *joined = NULL;
    if (passes_span_ends(body, " ***"))
        body.n -= 4;
    else if (passes_span_ends(body, "***"))
        body.n -= 3;
    else if (!newpm && !machine && (joined = passes_span_find(body, " ***;")))
        body.n = (size_t)(joined - body.p); /* the body's first comment
                                               follows on the same line */
    else
        h->bad = 1; /* cut */
    body = passes_span_trim(body);

    passes_span rest;
    if (passes_span_starts(body, "Dump At Start")) {
        h->when = TK_PASS_AT_START;
        h->scope_kind = TK_PASS_SCOPE_MODULE;
        return 1;
    } else if (passes_span_starts(body, "Dump Before ")) {
        h->when = TK_PASS_BEFORE;
        rest = passes_span_of(body.p + 12, body.n - 12);
    } else if (passes_span_starts(body, "Dump After ")) {
        h->when = TK_PASS_AFTER;
        rest = passes_span_of(body.p + 11, body.n - 11);
    } else if (passes_span_starts(body, "Deleted After ")) {
        h->when = TK_PASS_AFTER;
        h->status = TK_PASS_DELETED;
        rest = passes_span_of(body.p + 14, body.n - 14);
    } else if (passes_span_starts(body, "Pass ")) {
        h->when = TK_PASS_AFTER;
        rest = passes_span_of(body.p + 5, body.n - 5);
        if (passes_span_ends(rest, " ignored")) {
            h->status = TK_PASS_IGNORED;
            rest.n -= 8;
        } else if (passes_span_ends(rest, " invalidated")) {
            h->status = TK_PASS_INVALIDATED;
            rest.n -= 12;
        } else {
            return 0;
        }
    } else {
        return 0;
    }

    if (passes_span_ends(rest, " omitted because no change")) {
        h->status = TK_PASS_NO_CHANGE;
        rest.n -= 26;
    } else if (passes_span_ends(rest, " filtered out")) {
        h->status = TK_PASS_FILTERED;
        rest.n -= 13;
    } else if (passes_span_ends(rest, " (invalidated)")) {
        rest.n -= 14; /* the module is printed after it */
    }
    rest = passes_span_trim(rest);

    /* The new pass manager always says "on IRUNIT"; the legacy one prints a
     * description and "(argument)". */
    if (!newpm && split_legacy(rest, h)) {
        if (!machine)
            h->kind = TK_PASS_LLVM_LEGACY;
        return 1;
    }
    const char *on = passes_span_find(rest, " on ");
    if (on) {
        passes_span pass = passes_span_trim(passes_span_of(rest.p, (size_t)(on - rest.p)));
        set_scope(passes_span_trim(passes_span_of(on + 4,
                                                  (size_t)(rest.p + rest.n - on - 4))),
                  h);
        /* Machine -print-changed headers: "Description (arg) on F", or a
         * description without an argument ("NVPTX Replace Image Handles on
         * F").  The legacy pass manager's IR passes print nothing under
         * -print-changed and print-after-all's legacy headers say no "on",
         * so only a machine function pass prints this; the new pass
         * manager's names are class names, spaces only inside <...>. */
        if (split_legacy(pass, h)) {
            if (!newpm)
                h->kind = TK_PASS_LLVM_MACHINE;
        } else {
            h->pass = pass;
            if (!newpm && !machine && described(pass))
                h->kind = TK_PASS_LLVM_MACHINE;
        }
        return 1;
    }
    h->pass = rest;
    if (!newpm && !machine)
        h->kind = TK_PASS_LLVM_LEGACY;
    return 1;
}

int passes_llvm_no_function_line(const char *s, size_t len)
{
    return passes_span_eq(passes_span_trim(passes_span_of(s, len)),
                          "Printing <null> Function");
}

int passes_noise_line(const char *s, size_t len)
{
    passes_span l = passes_span_trim(passes_span_of(s, len));
    if (l.n < 8)
        return 0;
    switch (l.p[0]) {
    case 'R':
        return passes_span_starts(l, "Running pass") ||
               passes_span_starts(l, "Running analysis");
    case 'I':
        return passes_span_starts(l, "Invalidating analysis: ") ||
               passes_span_starts(l, "Invalidating all non-preserved analyses");
    case 'C':
        return passes_span_starts(l, "Clearing all analysis results for: ");
    case 'S':
        return passes_span_starts(l, "Skipping pass");
    default:
        return 0;
    }
}

/* ---- LLVM IR bodies ------------------------------------------------------ */

static int is_label_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_' || c == '$' || c == '.' ||
           c == '-';
}

/* "name:", "42:", "\"quoted\":", then nothing or a "; comment". */
static int is_label(const char *s, const char *end)
{
    const char *p = s;
    if (p < end && *p == '"') {
        p++;
        while (p < end && *p != '"')
            p++;
        if (p >= end)
            return 0;
        p++;
    } else {
        while (p < end && is_label_char(*p))
            p++;
        if (p == s)
            return 0;
    }
    if (p >= end || *p != ':')
        return 0;
    p++;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    return p == end || *p == ';';
}

static int linkage_word(passes_span words)
{
    static const char *const local[] = {" internal ", " private ",
                                        " linkonce", " weak",
                                        " available_externally "};
    for (size_t i = 0; i < G_N_ELEMENTS(local); i++)
        if (passes_span_find(words, local[i]))
            return 1;
    return 0;
}

/* "define [linkage] [cc] type @name(" */
static void define_facts(const char *s, const char *end, passes_body_facts *f)
{
    const char *at = memchr(s, '@', (size_t)(end - s));
    if (!at)
        return;
    const char *p = at + 1, *q;
    if (p < end && *p == '"') {
        q = p + 1;
        while (q < end && *q != '"') {
            if (*q == '\\' && q + 1 < end)
                q++;
            q++;
        }
        if (q >= end)
            return;
        f->function = passes_span_of(p + 1, (size_t)(q - p - 1));
    } else {
        q = p;
        while (q < end && is_label_char(*q))
            q++;
        f->function = passes_span_of(p, (size_t)(q - p));
    }
    /* " ptx_kernel void ": the words between "define" and the name. */
    passes_span words = passes_span_of(s + 6, (size_t)(at - s - 6));
    if (passes_span_find(words, "ptx_kernel ") ||
        passes_span_find(words, "amdgpu_kernel "))
        f->kernel = 1;
    else if (!linkage_word(words))
        f->kernel = 2;
}

int passes_llvm_body_line(passes_body_state *st, const char *s, size_t len,
                          passes_body_facts *facts)
{
    const char *end = s + len;
    passes_span line = passes_span_of(s, len);
    memset(facts, 0, sizeof *facts);
    if (len == 0)
        return 1;
    switch (s[0]) {
    case ';':
        if (passes_span_starts(line, "; Preheader:"))
            st->saw_preheader = 1;
        st->saw_ir = 1;
        return 1;
    case ' ':
    case '\t':
    case '!':
    case '@':
    case '%':
    case '$':
    case '^':
        st->saw_ir = 1;
        return 1;
    case '}':
        if (st->open > 0)
            st->open--;
        else
            st->flags |= TK_PASS_INTERLEAVED;
        return 1;
    case 'd':
        if (passes_span_starts(line, "define ")) {
            /* A second function opened before the first closed. */
            if (st->open > 0)
                st->flags |= TK_PASS_INTERLEAVED;
            if (st->truncated || passes_span_ends(passes_span_trim(line), "{"))
                st->open++;
            st->saw_ir = 1;
            define_facts(s, end, facts);
            return 1;
        }
        if (passes_span_starts(line, "declare "))
            return 1;
        break;
    case 'a':
        if (passes_span_starts(line, "attributes #"))
            return 1;
        break;
    case 't':
        if (passes_span_starts(line, "target "))
            return 1;
        break;
    case 's':
        if (passes_span_starts(line, "source_filename "))
            return 1;
        break;
    case 'm':
        if (passes_span_starts(line, "module asm "))
            return 1;
        break;
    case 'u':
        if (passes_span_starts(line, "uselistorder"))
            return 1;
        break;
    default:
        break;
    }
    return is_label(s, end);
}

/* ---- machine code bodies ---------------------------------------------- */

int passes_mir_body_line(passes_body_state *st, const char *s, size_t len,
                         passes_body_facts *facts)
{
    passes_span line = passes_span_of(s, len);
    memset(facts, 0, sizeof *facts);
    if (passes_span_starts(line, "# Machine code for function ")) {
        if (st->mir == 1)
            st->flags |= TK_PASS_INTERLEAVED;
        st->mir = 1;
        st->open = 1;
        const char *p = s + 28, *end = s + len;
        const char *q = p;
        while (q < end && *q != ':')
            q++;
        facts->function = passes_span_of(p, (size_t)(q - p));
        return 1;
    }
    if (st->mir == 1) {
        if (passes_span_starts(line, "# End machine code for function ")) {
            st->mir = 2;
            st->open = 0;
        }
        return 1;
    }
    return 0; /* before "# Machine code" or after its end */
}

int passes_ir_like(const char *s, size_t len)
{
    passes_span l = passes_span_of(s, len);
    if (passes_span_starts(l, "#loc") || passes_span_starts(l, "define ") ||
        passes_span_starts(l, "# Machine code for function ") ||
        passes_span_starts(l, "module attributes {"))
        return 1;
    /* An indented SSA definition: "  %12 = ..." (MLIR, LLVM IR, MIR). */
    size_t i = 0;
    while (i < len && s[i] == ' ')
        i++;
    if (i < 2 || i >= len || s[i] != '%')
        return 0;
    return passes_span_find(passes_span_of(s + i, len - i), " = ") != NULL;
}

int passes_message_like(const char *s, size_t len)
{
    /* "FILE:LINE:COL: error: ...", as MLIR and LLVM print a diagnostic. */
    static const char *const kinds[] = {": error: ", ": warning: ", ": note: ", ": remark: "};
    passes_span l = passes_span_of(s, len);
    for (size_t i = 0; i < G_N_ELEMENTS(kinds); i++)
        if (passes_span_find(l, kinds[i]))
            return 1;
    return 0;
}

int passes_parse_header(const char *s, size_t len, passes_header *h)
{
    if (len < 10)
        return 0;
    switch (s[0]) {
    case '/':
        return passes_mlir_header(s, len, h);
    case ';':
    case '*':
    case '#':
        return passes_llvm_header(s, len, h);
    default:
        return 0;
    }
}
