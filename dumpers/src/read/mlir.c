/* mlir.c - the stacks of each line of TTIR/TTGIR (MLIR with loc()).
 *
 * Two passes over the lines.  The first records alias definitions
 * (`#loc12 = loc(...)`), because Triton prints most of them after the module
 * that uses them.  The second finds every real `loc(` token of the other lines
 * (not inside a string, not the tail of a longer word) and hands it to the
 * location parser (mlir_loc.c).
 *
 * An op with regions prints its location on the line that closes it
 * (`} loc(#loc)`, `}) : (...) -> f32 loc(#loc35)`), yet a reader of the dump
 * looks at the line that opens it.  So open lines (ending in `{`) are kept on
 * a stack, and a line starting with `}` gives its stacks to the line it
 * closes as well.  `} else {` closes and reopens the same op.
 *
 * Line kinds (tk_stage.h): ops are instructions, `module` and function
 * headers directives, `#loc` definitions directives that state locations,
 * other `#name = ...` aliases metadata, `^bb` headers labels, and the `}`
 * that closes a region "other" (its op is counted where it opens).
 */
#include <glib.h>
#include <string.h>

#include "read/mlir_loc.h"
#include "read/readers.h"
#include "util/scan.h"

typedef enum {
    LINE_IR,     /* anything that may carry locations */
    LINE_ALIAS,  /* #name = loc(...): a definition, no stack of its own */
    LINE_HEADER, /* // -----// IR Dump ...: a new module follows */
    LINE_COMMENT /* another // line */
} line_kind;

/* A line's distinct stacks, in the order found.  A small open-addressing set
 * keeps a line with thousands of repeated locations linear. */
#define LINE_SET_SLOTS 512
#define LINE_SET_MAX 256

typedef struct {
    tk_stack_id slot[LINE_SET_SLOTS];
    uint16_t used[LINE_SET_MAX]; /* slots to clear */
    tk_stack_id ids[LINE_SET_MAX];
    size_t n;
    int full;
} line_set;

static void line_set_clear(line_set *s)
{
    for (size_t i = 0; i < s->n; i++)
        s->slot[s->used[i]] = TK_NO_STACK;
    s->n = 0;
    s->full = 0;
}

static void line_set_emit(void *user, tk_stack_id id)
{
    line_set *s = user;
    size_t j = (id * 2654435761u) & (LINE_SET_SLOTS - 1);
    for (; s->slot[j] != TK_NO_STACK; j = (j + 1) & (LINE_SET_SLOTS - 1))
        if (s->slot[j] == id)
            return;
    if (s->n == LINE_SET_MAX) {
        s->full = 1;
        return;
    }
    s->slot[j] = id;
    s->used[s->n] = (uint16_t)j;
    s->ids[s->n++] = id;
}

static const char *skip_ws(const char *p, const char *e)
{
    while (p < e && (*p == ' ' || *p == '\t'))
        p++;
    return p;
}

static int is_alias_char(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_' || c == '$' || c == '.' ||
           c == '-';
}

/* What a `loc(` must not follow to be a location: the end of a longer
 * identifier (`myloc(`), an SSA value, symbol, block or alias name. */
static int continues_word(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_' || c == '$' || c == '.' ||
           c == '%' || c == '@' || c == '^' || c == '#' || c == '!';
}

/* Classifies the line S..E; for an alias definition sets *NAME, *NAME_LEN
 * and *BODY (its `loc(`). */
static line_kind classify(const char *s, const char *e, const char **name,
                          size_t *name_len, const char **body)
{
    const char *p = skip_ws(s, e);
    if (e - p >= 2 && p[0] == '/' && p[1] == '/')
        return scan_starts(p, e, "// -----") ? LINE_HEADER : LINE_COMMENT;
    if (p >= e || *p != '#')
        return LINE_IR;
    const char *n = ++p;
    while (p < e && is_alias_char((unsigned char)*p))
        p++;
    if (p == n)
        return LINE_IR;
    const char *q = skip_ws(p, e);
    if (q >= e || *q != '=')
        return LINE_IR;
    q = skip_ws(q + 1, e);
    if (!scan_starts(q, e, "loc("))
        return LINE_IR; /* another attribute alias: #blocked = ... */
    *name = n;
    *name_len = (size_t)(p - n);
    *body = q;
    return LINE_ALIAS;
}

/* The first `loc(` in [P, STOP) of the line starting at S; its 'l'.  Looks
 * for '(' and checks the three bytes before it (which may lie before P: a
 * scan can resume in the middle of a word, and "xloc(" must still be seen as
 * one).  memchr rather than memmem: sanitizers check memmem's whole haystack
 * on every call, which made long lines quadratic under ASan. */
static const char *find_loc(const char *s, const char *p, const char *stop)
{
    while (p < stop) {
        const char *q = memchr(p, '(', (size_t)(stop - p));
        if (!q)
            return NULL;
        if (q - s >= 3 && q[-3] == 'l' && q[-2] == 'o' && q[-1] == 'c')
            return q - 3;
        p = q + 1;
    }
    return NULL;
}

/* Feeds every location of the line S..E to the parser. */
static void scan_line(read_mlir_loc *m, const char *s, const char *e,
                      uint32_t line, uint32_t segment, line_set *set)
{
    const char *p = s;
    const char *quote = NULL; /* next '"' at or after p, when known */
    int no_quote = 0;
    while (p < e) {
        /* The next quote is found once and reused until passed, so a long
         * line with many locations and few strings is not rescanned. */
        if (!no_quote && (!quote || quote < p)) {
            quote = memchr(p, '"', (size_t)(e - p));
            no_quote = quote == NULL;
        }
        const char *stop = no_quote ? e : quote;
        const char *l = find_loc(s, p, stop);
        if (l) {
            if (l > s && continues_word((unsigned char)l[-1]))
                p = l + 4;
            else
                p = read_mlir_loc_read(m, l, e, s, line, segment,
                                       line_set_emit, set);
            continue;
        }
        if (no_quote)
            break;
        p = read_mlir_string_end(quote, e);
        if (!p)
            break; /* a string runs to the end of the line: no location */
    }
}

/* Whether the word [P, Q) names a function or module op: "tt.func",
 * "llvm.func", "func.func", "gpu.module", "llvm.mlir.global". */
static int is_header_op(const char *p, const char *q)
{
    size_t n = (size_t)(q - p);
    return (n >= 5 && memcmp(q - 5, ".func", 5) == 0) ||
           (n >= 7 && memcmp(q - 7, ".module", 7) == 0) ||
           (n == 6 && memcmp(p, "module", 6) == 0) ||
           (n == 16 && memcmp(p, "llvm.mlir.global", 16) == 0);
}

/* The tk_line_kind of line S..E, which classify() called LINE_IR. */
static tk_line_kind ir_line_kind(const char *s, const char *e)
{
    const char *p = skip_ws(s, e);
    if (p >= e)
        return TK_LINE_OTHER;
    switch (*p) {
    case '}':
        return TK_LINE_OTHER; /* the end of a region (its op opened it) */
    case '^':
        return TK_LINE_LABEL; /* a block header */
    case '#':
        return TK_LINE_METADATA; /* an attribute alias: #blocked = ... */
    case '{':
        return scan_starts(p, e, "{-#") ? TK_LINE_METADATA : TK_LINE_OTHER;
    default:
        break;
    }
    if (scan_starts(p, e, "#-}"))
        return TK_LINE_METADATA;
    const char *q = p;
    while (q < e && (is_alias_char((unsigned char)*q)))
        q++;
    return is_header_op(p, q) ? TK_LINE_DIRECTIVE : TK_LINE_INSTRUCTION;
}

typedef struct {
    uint32_t *v;
    size_t n, cap;
} line_stack;

static void push_opener(line_stack *o, uint32_t line)
{
    if (o->n == o->cap) {
        o->cap = o->cap ? o->cap * 2 : 64;
        o->v = g_renew(uint32_t, o->v, o->cap);
    }
    o->v[o->n++] = line;
}

static void report_unclosed(const text_buf *text, line_stack *o,
                            tk_diags *diags)
{
    if (o->n == 0)
        return;
    uint32_t l = o->v[o->n - 1];
    if (l)
        tk_diags_add(diags, TK_DIAG_WARNING, text->name, l,
                     "this region is never closed (cut short?); the op "
                     "opened here gets no location");
    o->n = 0;
}

void read_mlir_locs(const text_buf *text, tk_loctab *tab,
                    read_linemap_builder *out, read_info *info,
                    tk_diags *diags)
{
    read_mlir_loc *m = read_mlir_loc_new(text, tab, diags);
    const char *name, *body;
    size_t name_len;

    /* Pass 1: alias definitions, wherever they are. */
    uint32_t segment = 0;
    for (uint32_t l = 1; l <= text->n_lines; l++) {
        size_t len;
        const char *s = text_line(text, l, &len);
        switch (classify(s, s + len, &name, &name_len, &body)) {
        case LINE_HEADER:
            segment++;
            break;
        case LINE_ALIAS:
            read_mlir_loc_define(m, name, name_len, body, s + len, l, segment);
            break;
        default:
            break;
        }
    }

    /* Pass 2: the locations of every other line. */
    line_set *set = g_new(line_set, 1);
    memset(set->slot, 0xff, sizeof set->slot); /* all TK_NO_STACK */
    set->n = 0;
    set->full = 0;
    line_stack openers = {0};
    int warned_unopened = 0;
    segment = 0;
    for (uint32_t l = 1; l <= text->n_lines; l++) {
        size_t len;
        const char *s = text_line(text, l, &len);
        const char *e = s + len;
        line_kind kind = classify(s, e, &name, &name_len, &body);
        read_set_kind(info, l,
                      kind == LINE_ALIAS ? TK_LINE_DIRECTIVE
                      : kind == LINE_IR  ? ir_line_kind(s, e)
                                         : TK_LINE_COMMENT,
                      kind == LINE_ALIAS);
        if (kind == LINE_HEADER) {
            report_unclosed(text, &openers, diags);
            segment++;
            warned_unopened = 0;
        }
        if (kind != LINE_IR)
            continue;

        scan_line(m, s, e, l, segment, set);
        if (set->full)
            tk_diags_add(diags, TK_DIAG_WARNING, text->name, l,
                         "more than %d distinct locations on one line; the "
                         "rest are dropped",
                         LINE_SET_MAX);
        for (size_t i = 0; i < set->n; i++)
            read_linemap_add(out, l, set->ids[i]);

        const char *first = skip_ws(s, e), *last = e;
        while (last > first && (last[-1] == ' ' || last[-1] == '\t'))
            last--;
        int closes = first < e && *first == '}';
        int opens = last > first && last[-1] == '{';
        if (closes) {
            uint32_t opener = 0; /* 0: not opened in this file */
            if (openers.n)
                opener = openers.v[--openers.n];
            else if (!warned_unopened) {
                warned_unopened = 1;
                tk_diags_add(diags, TK_DIAG_WARNING, text->name, l,
                             "'}' closes a region not opened before it "
                             "(dump cut short at the top?)");
            }
            if (opens)
                push_opener(&openers, opener); /* } else { */
            else if (opener)
                for (size_t i = 0; i < set->n; i++)
                    read_linemap_add(out, opener, set->ids[i]);
        } else if (opens) {
            push_opener(&openers, l);
        }
        line_set_clear(set);
    }
    report_unclosed(text, &openers, diags);
    read_mlir_loc_finish(m);

    if (info && read_mlir_loc_has_inline(m))
        info->has_inline_frames = 1;
    g_free(openers.v);
    g_free(set);
    read_mlir_loc_free(m);
}
