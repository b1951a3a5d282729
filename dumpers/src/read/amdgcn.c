/* amdgcn.c - source locations in AMDGCN assembly, the NAME.amdgcn that
 * Triton's AMD backend writes (LLVM's AMDGPU assembly printer).
 *
 * The locations are DWARF line directives, as in PTX:
 *
 *   .file  2 "/site-packages/triton/language" "standard.py"
 *   .loc   2 43 17      ; standard.py:43:17 @[ compile_gfx942.py:55:33 ]
 *   .loc   1 38 25 is_stmt 0  ; compile_gfx942.py:38:25 @[ compile_gfx942.py:62:30 ]
 *   .loc   1 0 0 is_stmt 0    ; :0:0
 *
 * A .file names its folder and its file apart (two strings); a .loc's
 * options ("prologue_end", "is_stmt 0") are words without commas, and the
 * inline chain is in the comment after ";" (ptx_loc.c reads both forms).
 * Line 0 is the compiler's "no source line": the instructions after it have
 * no location.  A .loc governs the instructions after it up to the next .loc
 * or the end of the function's code: a section switch, ".cfi_endproc",
 * ".size", the ".Lfunc_endN" label or another symbol's label.
 *
 * Each line is one of a few kinds (classify() below, the one place that
 * decides): an instruction ("v_mfma_f32_32x32x8_f16 a[0:15], ..."), a label
 * (".LBB0_2:", "matmul_kernel:"), a directive (".p2align", ".amdhsa_*",
 * ".set", the DWARF ".byte"/".long" data), a comment ("; %bb.1:", "; Kernel
 * info:"), metadata (the YAML between ".amdgpu_metadata" and
 * ".end_amdgpu_metadata", whose "amdhsa.kernels:" lines look like labels),
 * or blank.  What binds: the .loc line itself and the instruction lines it
 * governs, as for PTX.
 */
#include <string.h>

#include "read/amdgcn.h"
#include "read/ptx_files.h"
#include "read/ptx_loc.h"
#include "read/readers.h"
#include "util/scan.h"

typedef enum {
    AMDGCN_BLANK,
    AMDGCN_COMMENT,
    AMDGCN_LABEL,
    AMDGCN_DIRECTIVE,   /* any other ".word ..." line */
    AMDGCN_FILE,        /* ".file N ..." */
    AMDGCN_LOC,         /* ".loc F L C ..." */
    AMDGCN_FUNC_END,    /* a directive or label after which no .loc governs */
    AMDGCN_METADATA,    /* inside .amdgpu_metadata (YAML), its delimiters too */
    AMDGCN_INSTRUCTION
} amdgcn_line;

/* Whether [P, END) starts with the word W followed by a blank or the end. */
static int is_word(const char *p, const char *end, const char *w)
{
    size_t n = strlen(w);
    return (size_t)(end - p) >= n && memcmp(p, w, n) == 0 &&
           ((size_t)(end - p) == n || p[n] == ' ' || p[n] == '\t');
}

static int is_label_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_' || c == '$' || c == '.';
}

/* "name:" at P: a symbol, then a colon.  Instructions never have a colon
 * right after their mnemonic ("s_load_dwordx2 s[2:3], ..."). */
static int is_label(const char *p, const char *end)
{
    const char *q = p;
    while (q < end && is_label_char(*q))
        q++;
    return q > p && q < end && *q == ':';
}

/* The kind of the line [P, END) (P past its indentation).  *IN_METADATA is
 * the state between lines: inside the .amdgpu_metadata block. */
static amdgcn_line classify(const char *p, const char *end, int *in_metadata)
{
    if (*in_metadata) {
        if (is_word(p, end, ".end_amdgpu_metadata"))
            *in_metadata = 0;
        return AMDGCN_METADATA;
    }
    if (p >= end)
        return AMDGCN_BLANK;
    if (*p == ';')
        return AMDGCN_COMMENT;
    if (*p == '.') {
        if (is_word(p, end, ".loc"))
            return AMDGCN_LOC;
        if (is_word(p, end, ".file"))
            return AMDGCN_FILE;
        if (is_word(p, end, ".amdgpu_metadata")) {
            *in_metadata = 1;
            return AMDGCN_METADATA;
        }
        if (is_label(p, end))
            return scan_starts(p, end, ".Lfunc_end") ? AMDGCN_FUNC_END
                                                     : AMDGCN_LABEL;
        if (is_word(p, end, ".section") || is_word(p, end, ".text") ||
            is_word(p, end, ".data") || is_word(p, end, ".cfi_endproc") ||
            is_word(p, end, ".size") || is_word(p, end, ".amdhsa_kernel"))
            return AMDGCN_FUNC_END;
        return AMDGCN_DIRECTIVE;
    }
    if (is_label(p, end))
        return AMDGCN_FUNC_END; /* a symbol's label: another function */
    return AMDGCN_INSTRUCTION;
}

/* The public line kind of a classified line (tk_stage.h): only
 * instructions are counted. */
static tk_line_kind line_kind(amdgcn_line kind)
{
    switch (kind) {
    case AMDGCN_INSTRUCTION:
        return TK_LINE_INSTRUCTION;
    case AMDGCN_COMMENT:
        return TK_LINE_COMMENT;
    case AMDGCN_LABEL:
        return TK_LINE_LABEL;
    case AMDGCN_METADATA:
        return TK_LINE_METADATA;
    case AMDGCN_FUNC_END:
    case AMDGCN_DIRECTIVE:
    case AMDGCN_FILE:
    case AMDGCN_LOC:
        return TK_LINE_DIRECTIVE;
    case AMDGCN_BLANK:
        break;
    }
    return TK_LINE_OTHER;
}

static void read_files(const text_buf *text, read_ptx_files *files,
                       tk_diags *diags)
{
    int in_metadata = 0;
    for (uint32_t l = 1; l <= text->n_lines; l++) {
        size_t len;
        const char *line = text_line(text, l, &len);
        const char *end = line + len;
        const char *p = scan_skip_spaces(line, end);
        if (classify(p, end, &in_metadata) != AMDGCN_FILE)
            continue;
        const char *why = read_ptx_files_add(files, p + 6, end);
        if (why)
            tk_diags_add(diags, TK_DIAG_WARNING, text->name, l,
                         ".file: %s; directive ignored", why);
    }
}

void read_amdgcn_asm_locs(const text_buf *text, tk_loctab *tab,
                          read_linemap_builder *out, read_info *info,
                          tk_diags *diags)
{
    /* LLVM writes each .file before its first use, but a first pass costs
     * little and keeps a .loc before its .file readable. */
    read_ptx_files *files = read_ptx_files_new(tab);
    read_files(text, files, diags);
    read_ptx_loc_reader *locs = read_ptx_loc_reader_new(text->name, tab, files,
                                                        diags);
    read_ptx_loc_reader_set_comment(locs, ";");
    tk_stack_id cur = TK_NO_STACK;
    int in_metadata = 0;
    for (uint32_t l = 1; l <= text->n_lines; l++) {
        size_t len;
        const char *line = text_line(text, l, &len);
        const char *end = line + len;
        const char *p = scan_skip_spaces(line, end);
        amdgcn_line kind = classify(p, end, &in_metadata);
        read_set_kind(info, l, line_kind(kind), kind == AMDGCN_LOC || kind == AMDGCN_FILE);
        switch (kind) {
        case AMDGCN_LOC:
            cur = read_ptx_loc_read(locs, l, p + 5, end);
            if (cur != TK_NO_STACK) {
                read_linemap_add(out, l, cur);
                size_t n;
                tk_loctab_stack_frames(tab, cur, &n);
                if (n > 1)
                    info->has_inline_frames = 1;
            }
            break;
        case AMDGCN_INSTRUCTION:
            if (cur != TK_NO_STACK)
                read_linemap_add(out, l, cur);
            break;
        case AMDGCN_FUNC_END:
        case AMDGCN_METADATA:
            cur = TK_NO_STACK;
            break;
        case AMDGCN_BLANK:
        case AMDGCN_COMMENT:
        case AMDGCN_LABEL:
        case AMDGCN_DIRECTIVE:
        case AMDGCN_FILE:
            break;
        }
    }
    read_ptx_loc_reader_free(locs);
    read_ptx_files_free(files);
}

void read_amdgcn_locs(const text_buf *text, tk_loctab *tab,
                      read_linemap_builder *out, read_info *info,
                      tk_diags *diags)
{
    if (read_amdgcn_is_disassembly(text))
        read_amdgcn_dis_locs(text, tab, out, info, diags);
    else
        read_amdgcn_asm_locs(text, tab, out, info, diags);
}
