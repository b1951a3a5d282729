/* ptx.c - source locations in PTX (.file / .loc directives).
 *
 * A ".loc F L C" gives the location of the instructions after it, up to the
 * next .loc or the "}" that closes the function body.  LLVM prints the .file
 * table after the code, so a first pass collects it and a second one binds.
 *
 * What binds: the .loc line itself and instruction lines, those of inline asm
 * included.  What does not: blank and comment lines, labels, braces, and
 * directives (.reg, .param, and the .b8 lines of the DWARF sections that
 * follow the functions, which no .loc governs since the body has closed).
 * A label is an identifier and one colon at the start of a statement; the
 * "::" of Hopper opcodes ("fence.proxy.async.shared::cta;",
 * "ld.global.L1::evict_last.L2::cache_hint.v4.b32 ...") never makes one.
 * Every line gets its kind (tk_stage.h): a statement is one instruction
 * line however many lines it spans (LLVM prints each on one; the lines
 * continuing one are "other", and bind like it).
 * Brace depth is counted over whole lines, outside comments and strings, so
 * "{ %r1, %r2 }" operands and the "{ ... }" blocks of inline asm or call
 * sequences do not end the function early.
 */
#include <string.h>

#include "read/ptx_files.h"
#include "read/ptx_loc.h"
#include "read/readers.h"
#include "util/scan.h"

/* Whether [P, END) starts with directive DIR (N bytes) followed by a
 * blank. */
static inline int directive_n(const char *p, const char *end, const char *dir, size_t n)
{
    return (size_t)(end - p) > n && memcmp(p, dir, n) == 0 &&
           (p[n] == ' ' || p[n] == '\t');
}

/* The same for a string literal DIR: its length known where it is asked
 * (every line asks). */
#define is_directive(p, end, dir) directive_n((p), (end), "" dir, sizeof(dir) - 1)

static void read_files(const text_buf *text, read_ptx_files *files,
                       tk_diags *diags)
{
    for (uint32_t l = 1; l <= text->n_lines; l++) {
        size_t len;
        const char *p = text_line(text, l, &len);
        const char *end = p + len;
        p = scan_skip_spaces(p, end);
        if (p < end && *p == '.' && is_directive(p, end, ".file")) {
            const char *why = read_ptx_files_add(files, p + 6, end);
            if (why)
                tk_diags_add(diags, TK_DIAG_WARNING, text->name, l,
                             ".file: %s; directive ignored", why);
        }
    }
}

/* One walk over the line from P (blanks skipped): *CODE_END, the end of its
 * code (before a "//" comment outside strings, and trailing blanks), and
 * the net change of brace depth over that code, strings left out.  An
 * unclosed string ends the walk: the rest is code, with no braces. */
static void scan_code(const char *p, const char *end, const char **code_end,
                      long *delta)
{
    /* the characters the walk stops at; most of a line is none of them */
    static const unsigned char stop[256] = {['{'] = 1, ['}'] = 1, ['/'] = 1, ['"'] = 1};
    long d = 0;
    const char *e = end;
    for (const char *q = p; q < end; q++) {
        while (q < end && !stop[(unsigned char)*q])
            q++;
        if (q == end)
            break;
        char c = *q;
        if (c == '{') {
            d++;
        } else if (c == '}') {
            d--;
        } else if (c == '/' && q + 1 < end && q[1] == '/') {
            e = q;
            break;
        } else if (c == '"') {
            const char *close = scan_find(q + 1, end, '"');
            if (!close)
                break;
            q = close;
        }
    }
    while (e > p && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
        e--;
    *code_end = e;
    *delta = d;
}

static int is_ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_' || c == '$';
}

/* A label at the start of a statement: a PTX identifier ("$L__BB0_2",
 * "waitLoop", "%r" is not one: '%' starts only special names), then one
 * colon.  "fence.proxy.async.shared::cta;" is an instruction: an
 * identifier holds no '.', and "::" is not a colon.  Sets *AFTER to what
 * follows the colon. */
static int is_label(const char *p, const char *end, const char **after)
{
    const char *q = p;
    if (q < end && (*q == '_' || *q == '$' || *q == '%'))
        q++;
    else if (!(q < end && ((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z'))))
        return 0;
    while (q < end && is_ident_char(*q))
        q++;
    if (q == p || q >= end || *q != ':' || (q + 1 < end && q[1] == ':'))
        return 0;
    *after = q + 1;
    return 1;
}

/* Whether [P, E) holds only braces and parentheses (and blanks). */
static int is_punctuation(const char *p, const char *e)
{
    if (p >= e)
        return 0;
    for (; p < e; p++)
        if (*p != '{' && *p != '}' && *p != '(' && *p != ')' && *p != ' ' &&
            *p != '\t')
            return 0;
    return 1;
}

/* The kind of the line whose text starts at P (blanks skipped), its code
 * ending at E (scan_code()).  *OPEN says
 * whether the statement of the last instruction line is still open (no ';'
 * yet): a line that continues it is not an instruction of its own, but
 * binds like one (*CONTINUES). */
static tk_line_kind line_kind(const char *p, const char *end, const char *e,
                              int *open, int *location, int *continues)
{
    *location = 0;
    *continues = 0;
    if (p >= end)
        return TK_LINE_OTHER;
    if (*p == '/' && p + 1 < end && p[1] == '/')
        return TK_LINE_COMMENT;
    if (*p == '.') {
        *open = 0;
        *location = is_directive(p, end, ".loc") || is_directive(p, end, ".file");
        return TK_LINE_DIRECTIVE;
    }
    char last = e > p ? e[-1] : ';';
    if (*open) {
        *continues = 1;
        *open = !(last == ';' || last == '{' || last == '}');
        return TK_LINE_OTHER;
    }
    if (is_punctuation(p, e))
        return TK_LINE_OTHER;
    const char *after;
    if (is_label(p, e, &after)) {
        after = scan_skip_spaces(after, e);
        if (after >= e)
            return TK_LINE_LABEL;
        /* "L: mov.u32 ...": the instruction makes the line */
    }
    *open = !(last == ';' || last == '{' || last == '}');
    return TK_LINE_INSTRUCTION;
}

void read_ptx_locs(const text_buf *text, tk_loctab *tab,
                   read_linemap_builder *out, read_info *info,
                   tk_diags *diags)
{
    read_ptx_files *files = read_ptx_files_new(tab);
    read_files(text, files, diags);
    read_ptx_loc_reader *locs = read_ptx_loc_reader_new(text->name, tab, files,
                                                        diags);
    tk_stack_id cur = TK_NO_STACK;
    long depth = 0;
    int open = 0;
    for (uint32_t l = 1; l <= text->n_lines; l++) {
        size_t len;
        const char *line = text_line(text, l, &len);
        const char *end = line + len;
        const char *p = scan_skip_spaces(line, end);
        int location, continues;
        const char *e;
        long d;
        scan_code(p, end, &e, &d);
        tk_line_kind kind = line_kind(p, end, e, &open, &location, &continues);
        read_set_kind(info, l, kind, location);
        if (kind == TK_LINE_COMMENT || p >= end)
            continue;
        if (*p == '.' && is_directive(p, end, ".loc")) {
            cur = read_ptx_loc_read(locs, l, p + 5, end);
            if (cur != TK_NO_STACK) {
                read_linemap_add(out, l, cur);
                size_t n;
                tk_loctab_stack_frames(tab, cur, &n);
                if (n > 1)
                    info->has_inline_frames = 1;
            }
            continue;
        }
        if (d != 0) {
            depth += d;
            if (depth <= 0) {
                /* The function body closed (or stray braces): whatever
                 * follows is not governed by the last .loc. */
                depth = 0;
                cur = TK_NO_STACK;
            }
        }
        if (*p == '.') {
            if (depth == 0)
                cur = TK_NO_STACK; /* .entry/.func header, .section, ... */
            continue;
        }
        /* An instruction, or the rest of one spread over lines. */
        if ((kind == TK_LINE_INSTRUCTION || continues) && cur != TK_NO_STACK)
            read_linemap_add(out, l, cur);
    }
    read_ptx_loc_reader_free(locs);
    read_ptx_files_free(files);
}
