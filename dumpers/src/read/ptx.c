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
 * Brace depth is counted over whole lines, outside comments and strings, so
 * "{ %r1, %r2 }" operands and the "{ ... }" blocks of inline asm or call
 * sequences do not end the function early.
 */
#include <string.h>

#include "read/ptx_files.h"
#include "read/ptx_loc.h"
#include "read/readers.h"
#include "util/scan.h"

/* Whether [P, END) starts with directive DIR followed by a blank. */
static int is_directive(const char *p, const char *end, const char *dir)
{
    size_t n = strlen(dir);
    return (size_t)(end - p) > n && memcmp(p, dir, n) == 0 &&
           (p[n] == ' ' || p[n] == '\t');
}

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

/* Net change of brace depth over the line, ignoring "//" comments and
 * quoted strings. */
static long brace_delta(const char *p, const char *end)
{
    long d = 0;
    for (; p < end; p++) {
        switch (*p) {
        case '{':
            d++;
            break;
        case '}':
            d--;
            break;
        case '/':
            if (p + 1 < end && p[1] == '/')
                return d;
            break;
        case '"': {
            const char *q = scan_find(p + 1, end, '"');
            if (!q)
                return d;
            p = q;
            break;
        }
        default:
            break;
        }
    }
    return d;
}

static int is_label_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_' || c == '$' || c == '.' ||
           c == '%';
}

/* "$L__tmp0:" or "$L__BB0_2:   // %bb.1": a name, then a colon. */
static int is_label(const char *p, const char *end)
{
    const char *q = p;
    while (q < end && is_label_char(*q))
        q++;
    return q > p && q < end && *q == ':';
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
    for (uint32_t l = 1; l <= text->n_lines; l++) {
        size_t len;
        const char *line = text_line(text, l, &len);
        const char *end = line + len;
        const char *p = scan_skip_spaces(line, end);
        if (p >= end || (*p == '/' && p + 1 < end && p[1] == '/'))
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
        long d = brace_delta(p, end);
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
        if (*p == '{' || *p == '}' || is_label(p, end))
            continue;
        if (cur != TK_NO_STACK)
            read_linemap_add(out, l, cur);
    }
    read_ptx_loc_reader_free(locs);
    read_ptx_files_free(files);
}
