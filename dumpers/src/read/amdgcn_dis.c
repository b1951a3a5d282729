/* amdgcn_dis.c - source locations in llvm-objdump's disassembly of an AMD
 * code object ("llvm-objdump-19 -d --line-numbers --mcpu=gfx942 K.hsaco"),
 * the AMDGCN stage when Triton's NAME.amdgcn text is missing.
 *
 *   K.hsaco:	file format elf64-amdgpu
 *
 *   Disassembly of section .text:
 *
 *   0000000000001700 <matmul_kernel>:
 *   ; matmul_kernel():
 *   ; /work/main/compiler/examples/amd/compile_gfx942.py:42
 *   	s_load_dwordx2 s[2:3], s[0:1], 0x0      // 000000001700: C0060080 00000000
 *
 * A "; PATH:LINE" comment gives the location of the instructions after it,
 * up to the next one or the end of the function (a blank line, a "<symbol>:"
 * header, a "; function():" line).  llvm-objdump prints the innermost frame
 * only, without a column, and prints nothing for line 0, so an instruction
 * the compiler made without a line keeps the line before it: the binding
 * is approximate, as for SASS from "nvdisasm -g" (tk_stage.h).
 *
 * Line kinds (classify(), the one place that decides): the "; PATH:LINE"
 * location comments, other comments ("; matmul_kernel():"), symbol headers
 * ("0000000000001700 <matmul_kernel>:"), the banner lines, blank lines, and
 * instructions (indented).  What binds: the location comment and the
 * instructions it governs, as nvdisasm's "//## File" lines do for SASS.
 */
#include <string.h>

#include "read/amdgcn.h"
#include "util/scan.h"

typedef enum {
    DIS_BLANK,
    DIS_LOCATION,    /* "; /path/file.py:42" */
    DIS_FUNCTION,    /* "; matmul_kernel():" */
    DIS_COMMENT,     /* any other "; ..." */
    DIS_HEADER,      /* "0000000000001700 <matmul_kernel>:", the banners */
    DIS_INSTRUCTION
} dis_line;

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* The kind of line [LINE, END).  For a location, *PATH_END is where the
 * path stops (its ':') and *NUM where the line number starts. */
static dis_line classify(const char *line, const char *end,
                         const char **path_end, const char **num)
{
    const char *p = scan_skip_spaces(line, end);
    if (p >= end)
        return DIS_BLANK;
    if (*p == ';') {
        const char *q = scan_skip_spaces(p + 1, end);
        const char *e = end;
        while (e > q && (e[-1] == ' ' || e[-1] == '\t'))
            e--;
        if (e - q >= 3 && e[-1] == ':' && e[-2] == ')' && e[-3] == '(')
            return DIS_FUNCTION;
        const char *d = e;
        while (d > q && is_digit(d[-1]))
            d--;
        if (d < e && d - q >= 2 && d[-1] == ':') {
            *path_end = d - 1;
            *num = d;
            return DIS_LOCATION;
        }
        return DIS_COMMENT;
    }
    if (p == line) /* not indented: a symbol header or a banner */
        return DIS_HEADER;
    return DIS_INSTRUCTION;
}

/* The public line kind of a classified line (tk_stage.h): only
 * instructions are counted; a location comment states a location. */
static tk_line_kind line_kind(dis_line kind)
{
    switch (kind) {
    case DIS_INSTRUCTION:
        return TK_LINE_INSTRUCTION;
    case DIS_LOCATION:
    case DIS_FUNCTION:
    case DIS_COMMENT:
        return TK_LINE_COMMENT;
    case DIS_HEADER:
        return TK_LINE_LABEL;
    case DIS_BLANK:
        break;
    }
    return TK_LINE_OTHER;
}

int read_amdgcn_is_disassembly(const text_buf *text)
{
    for (uint32_t l = 1; l <= text->n_lines && l <= 8; l++) {
        size_t len;
        const char *s = text_line(text, l, &len);
        if (scan_find_str(s, s + len, "file format elf64-amdgpu") ||
            scan_starts(s, s + len, "Disassembly of section"))
            return 1;
    }
    return 0;
}

void read_amdgcn_dis_locs(const text_buf *text, tk_loctab *tab,
                          read_linemap_builder *out, read_info *info,
                          tk_diags *diags)
{
    /* Innermost frames only: no inline frames to report, only kinds. */
    tk_stack_id cur = TK_NO_STACK;
    for (uint32_t l = 1; l <= text->n_lines; l++) {
        size_t len;
        const char *line = text_line(text, l, &len);
        const char *end = line + len;
        const char *path_end = NULL, *num = NULL;
        dis_line kind = classify(line, end, &path_end, &num);
        read_set_kind(info, l, line_kind(kind), kind == DIS_LOCATION);
        switch (kind) {
        case DIS_LOCATION: {
            const char *path = scan_skip_spaces(scan_find(line, end, ';') + 1,
                                                path_end);
            uint32_t ln;
            const char *q = num;
            cur = TK_NO_STACK;
            if (scan_u32(&q, end, &ln) != SCAN_OK) {
                tk_diags_add(diags, TK_DIAG_WARNING, text->name, l,
                             "line number does not fit in 32 bits; "
                             "location dropped");
                break;
            }
            if (ln == 0 || path == path_end)
                break;
            if (memchr(path, '\0', (size_t)(path_end - path))) {
                tk_diags_add(diags, TK_DIAG_WARNING, text->name, l,
                             "a NUL byte in the file name; location dropped");
                break;
            }
            tk_frame f = {tk_loctab_file(tab, path, (size_t)(path_end - path)),
                          ln, 0};
            cur = tk_loctab_stack(tab, &f, 1);
            read_linemap_add(out, l, cur);
            break;
        }
        case DIS_INSTRUCTION:
            if (cur != TK_NO_STACK)
                read_linemap_add(out, l, cur);
            break;
        case DIS_BLANK:
        case DIS_FUNCTION:
        case DIS_HEADER:
            cur = TK_NO_STACK;
            break;
        case DIS_COMMENT:
            break;
        }
    }
}
