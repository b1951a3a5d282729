/* functions.c - the functions of an IR text: where each opens and ends,
 * found by name, and a text made of some of them (for text.c). */
#include <string.h>
#include "timeline/internal.h"

static int label_char(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '$' ||
           c == '-';
}

/* The name of the function the line [P, E) opens: LLVM "define ...
 * @name(", MIR "# Machine code for function name:".  0 when it opens
 * none. */
static int function_name(tk_ir_dialect dialect, const char *p, const char *e,
                         const char **name, size_t *name_len)
{
    if (dialect == TK_IR_MIR) {
        static const char lit[] = "# Machine code for function ";
        if ((size_t)(e - p) < sizeof lit - 1 || memcmp(p, lit, sizeof lit - 1) != 0)
            return 0;
        const char *q = p + sizeof lit - 1, *r = q;
        while (r < e && *r != ':')
            r++;
        *name = q;
        *name_len = (size_t)(r - q);
        return 1;
    }
    if ((size_t)(e - p) < 7 || memcmp(p, "define ", 7) != 0)
        return 0;
    const char *at = memchr(p, '@', (size_t)(e - p));
    if (!at)
        return 0;
    const char *q = at + 1, *r;
    if (q < e && *q == '"') {
        r = ++q;
        while (r < e && *r != '"') {
            if (*r == '\\' && r + 1 < e)
                r++;
            r++;
        }
    } else {
        r = q;
        while (r < e && label_char((unsigned char)*r))
            r++;
    }
    *name = q;
    *name_len = (size_t)(r - q);
    return 1;
}

static int opens(tk_ir_dialect d, const tl_line *l)
{
    return (l->flags & (d == TK_IR_MIR ? TL_LF_MIR_OPEN : TL_LF_DEFINE)) != 0;
}

static int closes(tk_ir_dialect d, const tl_line *l)
{
    return (l->flags & (d == TK_IR_MIR ? TL_LF_MIR_CLOSE : TL_LF_BRACE)) != 0;
}

/* How far into a function's first line its name is looked for: first
 * NAME_FIRST bytes, then (no '(' or ':' after the name yet) NAME_BYTES. */
#define NAME_FIRST ((size_t)512)
#define NAME_BYTES ((size_t)64 << 10)

/* The name of the function line L opens, read back (valid until the next
 * read); 0 when it opens none or cannot be read. */
int tl_opened_name(tl_walker *w, const tl_srcs *s, tk_ir_dialect d, const tl_line *l,
                       const char **name, size_t *name_len)
{
    if (!opens(d, l))
        return 0;
    /* The name is near the start: a short read first. */
    size_t n;
    const char *t = tl_reader_peek(&w->reader, s, l, NAME_FIRST, &n, w->diags);
    if (t && n < l->len && !memchr(t, '(', n) && !memchr(t, ':', n))
        t = tl_reader_peek(&w->reader, s, l, NAME_BYTES, &n, w->diags);
    return t && function_name(d, t, t + n, name, name_len);
}

/* After the line that opens a function at I, the line after its last. */
guint tl_function_end(tk_ir_dialect d, const GArray *lines, guint i)
{
    for (guint j = i + 1; j < lines->len; j++)
        if (closes(d, &g_array_index(lines, tl_line, j)))
            return j + 1;
    return lines->len;
}

/* Finds function NAME in LINES: [*START, *END).  0, or -1 when absent. */
static int find_function(tl_walker *w, const tl_srcs *s, tk_ir_dialect d,
                         const GArray *lines, const char *name, guint *start, guint *end)
{
    size_t want = strlen(name);
    for (guint i = 0; i < lines->len; i++) {
        const char *nm;
        size_t nl;
        if (tl_opened_name(w, s, d, &g_array_index(lines, tl_line, i), &nm, &nl) &&
            nl == want && memcmp(nm, name, nl) == 0) {
            *start = i;
            *end = tl_function_end(d, lines, i);
            return 0;
        }
    }
    return -1;
}

/* Appends function NAME of SRC to OUT; a missing one adds nothing. */
void tl_append_function(tl_walker *w, const tl_srcs *s, tk_ir_dialect d,
                            const GArray *src, const char *name, GArray *out)
{
    guint a, b;
    if (find_function(w, s, d, src, name, &a, &b) == 0 && b > a)
        g_array_append_vals(out, &g_array_index(src, tl_line, a), b - a);
}

int tl_text_functions(tl_walker *w, int s, const tk_timeline_side *side,
                          tk_ir_dialect dialect)
{
    tl_text *t = &w->side[s];
    g_array_set_size(t->lines, 0);
    if (side->n_pieces == 1) {
        /* The common case, a function dump: read it where it goes and cut
         * the function in place. */
        const tk_timeline_piece *pc = &side->pieces[0];
        const tl_text *o = &w->side[!s];
        if (o->valid && o->cacheable && o->key.kind == TK_SIDE_DUMP &&
            o->key.part == pc->part && o->key.dump == pc->dump) {
            tl_append_function(w, &w->srcs, dialect, o->lines, pc->function, t->lines);
            return 0;
        }
        if (tl_walker_read_dump(w, pc->part, pc->dump, t->lines, NULL) != 0)
            return -1;
        guint a, b;
        if (find_function(w, &w->srcs, dialect, t->lines, pc->function, &a, &b) != 0) {
            g_array_set_size(t->lines, 0);
            return 0;
        }
        if (a > 0)
            memmove(t->lines->data, &g_array_index(t->lines, tl_line, a),
                    (b - a) * sizeof(tl_line));
        g_array_set_size(t->lines, b - a);
        return 0;
    }
    for (size_t i = 0; i < side->n_pieces; i++) {
        const tk_timeline_piece *pc = &side->pieces[i];
        const GArray *src = tl_walker_raw_lines(w, 0, s, NULL, pc->part, pc->dump);
        if (!src)
            return -1;
        tl_append_function(w, &w->srcs, dialect, src, pc->function, t->lines);
    }
    return 0;
}
