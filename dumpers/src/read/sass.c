// sass.c - source locations in SASS from "nvdisasm -g" / "-gi".
//
// nvdisasm writes a location as a comment above the instructions it covers:
//
//         //## File "/k/vector_add.py", line 12
//         /*0130*/                   CS2R R4, SRZ ;
//         /*0140*/              @!P2 LDG.E.128 R16, desc[UR6][R20.64] ;
//
// and it holds for every instruction up to the next such comment or the end of
// the function.  With -gi an inlined location takes one comment per frame,
// innermost first, each naming its caller, the last one (the outermost) none:
//
//         //## File "/t/standard.py", line 263 inlined at "/t/standard.py", line 293
//         //## File "/t/standard.py", line 293 inlined at "/k/vector_add.py", line 16
//         //## File "/k/vector_add.py", line 16
//
// (the form shown in the vLLM blog on CUDA debugging and parsed by Meta's
// tritonparse).  One comment may also chain several "inlined at" parts; both
// forms, and a mix, give the same stack: consecutive comments are one block,
// and a comment continues the block when its first frame is the caller the
// previous comment named.  A comment that does not continue it starts a new
// location (two line-table rows at one address: the last one holds).
//
// nvdisasm escapes "\" and '"' in file names with a backslash (Windows paths
// come out as "C:\\dir\\x.cu"); they are unescaped before interning so that
// the path matches the other stages'.  Comments naming ".nv_debug_ptx_txt"
// point into the PTX embedded in the cubin, not into a source file: they are
// skipped.  SASS has no columns: every frame has column 0.
//
// Every line of a block, and every instruction line under it, gets the
// block's stack.  Labels, directives and blank lines get none.  Line kinds
// (tk_stage.h): "/*ADDR*/ OPCODE" lines are instructions, "//##" comments
// comments that state locations, "NAME:" labels, ".section" and the like
// directives.  A function or
// section boundary ends the location: the "//-----" banner, a ".section"
// directive, a ".text.NAME:" label.
#include <glib.h>
#include <string.h>

#include "read/frames.h"
#include "read/readers.h"
#include "util/scan.h"

typedef struct {
    const text_buf *text;
    tk_loctab *tab;
    read_linemap_builder *out;
    read_info *info;
    tk_diags *diags;
    read_frames block;   /* the open block's stack so far (cut when deep) */
    GArray *block_lines; /* uint32_t: the comment lines of the open block */
    GArray *chain;       /* tk_frame: the frames of the comment being read */
    GString *unescaped;  /* scratch for file names with backslashes */
    int pending;         /* the block's last frame came from "inlined at" */
    tk_stack_id cur;     /* the stack of the instructions that follow */
    const char *last_path; /* the last file name interned, in the text */
    size_t last_len;
    tk_file_id last_file;
} sass_reader;

typedef enum {
    LOC_OK,
    LOC_SKIP, /* points into the embedded PTX, not at a source file */
    LOC_NONE, /* line 0: DWARF's "no source line" */
    LOC_BAD   /* warned; the location is unknown */
} loc_status;

static int frame_eq(tk_frame a, tk_frame b)
{
    return a.file == b.file && a.line == b.line;
}

/* Interns the open block's stack, gives it to the block's comment lines and
 * makes it the current location. */
static void close_block(sass_reader *r)
{
    if (read_frames_pushed(&r->block) > 0) {
        read_frames_warn(&r->block, r->diags, r->text->name,
                         g_array_index(r->block_lines, uint32_t, 0));
        r->cur = read_frames_intern(&r->block, r->tab);
        for (guint i = 0; i < r->block_lines->len; i++)
            read_linemap_add(r->out, g_array_index(r->block_lines, uint32_t, i),
                             r->cur);
    }
    read_frames_reset(&r->block);
    g_array_set_size(r->block_lines, 0);
    r->pending = 0;
}

/* Reads a quoted file name at *P (on its opening quote) and interns it in
 * *FILE.  Sets *SKIP for the PTX pseudo-file.  Returns 0, or -1 after a
 * warning. */
static int read_path(sass_reader *r, uint32_t lineno, const char **p,
                     const char *end, tk_file_id *file, int *skip)
{
    const char *s = *p + 1, *q = s;
    int escaped = 0;
    /* Most names hold no backslash: the closing quote is the first. */
    const char *quote = scan_find(s, end, '"');
    if (quote && !memchr(s, '\\', (size_t)(quote - s))) {
        q = quote;
    } else {
        while (q < end && *q != '"') {
            if (*q == '\\' && q + 1 < end) {
                escaped = 1;
                q++;
            }
            q++;
        }
    }
    if (q >= end) {
        tk_diags_add(r->diags, TK_DIAG_WARNING, r->text->name, lineno,
                     "//## comment: file name without a closing quote");
        return -1;
    }
    const char *path = s;
    size_t len = (size_t)(q - s);
    if (escaped) {
        g_string_truncate(r->unescaped, 0);
        for (const char *c = s; c < q; c++) {
            if (*c == '\\' && c + 1 < q && (c[1] == '\\' || c[1] == '"'))
                c++;
            g_string_append_c(r->unescaped, *c);
        }
        path = r->unescaped->str;
        len = r->unescaped->len;
    }
    if (len == 0 || memchr(path, '\0', len)) {
        tk_diags_add(r->diags, TK_DIAG_WARNING, r->text->name, lineno,
                     "//## comment: %s file name",
                     len == 0 ? "empty" : "NUL byte in the");
        return -1;
    }
    static const char ptx_txt[] = ".nv_debug_ptx_txt";
    if (len == sizeof ptx_txt - 1 && memcmp(path, ptx_txt, len) == 0) {
        *skip = 1;
    } else if (!escaped && r->last_path && len == r->last_len &&
               memcmp(path, r->last_path, len) == 0) {
        *file = r->last_file; /* the comments name a few files, over and over */
    } else {
        *file = tk_loctab_file(r->tab, path, len);
        if (!escaped) {
            r->last_path = path; /* in the text, which outlives the reader */
            r->last_len = len;
            r->last_file = *file;
        }
    }
    *p = q + 1;
    return 0;
}

/* Reads `"PATH", line N` at *P into *F.  Returns 0, or -1 after a warning. */
static int read_frame(sass_reader *r, uint32_t lineno, const char **p,
                      const char *end, tk_frame *f, int *skip)
{
    const char *s = *p;
    if (s >= end || *s != '"') {
        tk_diags_add(r->diags, TK_DIAG_WARNING, r->text->name, lineno,
                     "//## comment: expected a quoted file name");
        return -1;
    }
    if (read_path(r, lineno, &s, end, &f->file, skip) != 0)
        return -1;
    s = scan_skip_spaces(s, end);
    if (s < end && *s == ',')
        s = scan_skip_spaces(s + 1, end);
    if (!scan_starts(s, end, "line")) {
        tk_diags_add(r->diags, TK_DIAG_WARNING, r->text->name, lineno,
                     "//## comment: expected \"line N\" after the file name");
        return -1;
    }
    s = scan_skip_spaces(s + 4, end);
    const char *digits = s;
    switch (scan_u32(&s, end, &f->line)) {
    case SCAN_OK:
        break;
    case SCAN_OVERFLOW:
        tk_diags_add(r->diags, TK_DIAG_WARNING, r->text->name, lineno,
                     "//## comment: line number %.*s does not fit in 32 bits",
                     (int)MIN(s - digits, 40), digits);
        return -1;
    case SCAN_NONE:
        tk_diags_add(r->diags, TK_DIAG_WARNING, r->text->name, lineno,
                     "//## comment: expected a line number");
        return -1;
    }
    f->col = 0;
    *p = s;
    return 0;
}

/* Reads the comment in [P, END) (P just past "//##") into r->chain. */
static loc_status read_comment(sass_reader *r, uint32_t lineno, const char *p,
                               const char *end)
{
    g_array_set_size(r->chain, 0);
    p = scan_skip_spaces(p, end);
    if (!scan_starts(p, end, "File")) {
        tk_diags_add(r->diags, TK_DIAG_WARNING, r->text->name, lineno,
                     "//## comment without \"File\": not a location nvdisasm "
                     "writes");
        return LOC_BAD;
    }
    p = scan_skip_spaces(p + 4, end);
    int skip = 0, none = 0;
    for (;;) {
        tk_frame f = {0, 0, 0};
        if (read_frame(r, lineno, &p, end, &f, &skip) != 0)
            return LOC_BAD;
        g_array_append_val(r->chain, f);
        none |= f.line == 0;
        p = scan_skip_spaces(p, end);
        if (p == end)
            break;
        if (!scan_starts(p, end, "inlined at")) {
            tk_diags_add(r->diags, TK_DIAG_WARNING, r->text->name, lineno,
                         "//## comment: unexpected text after the line number");
            return LOC_BAD;
        }
        p = scan_skip_spaces(p + 10, end);
    }
    return skip ? LOC_SKIP : none ? LOC_NONE : LOC_OK;
}

/* A "//##" comment on line LINENO. */
static void on_comment(sass_reader *r, uint32_t lineno, const char *p,
                       const char *end)
{
    switch (read_comment(r, lineno, p, end)) {
    case LOC_SKIP:
        return; /* neither ends nor joins the block */
    case LOC_NONE:
    case LOC_BAD:
        close_block(r);
        r->cur = TK_NO_STACK;
        return;
    case LOC_OK:
        break;
    }
    const tk_frame *c = (const tk_frame *)r->chain->data;
    guint n = r->chain->len;
    if (read_frames_pushed(&r->block) > 0 && r->pending &&
        frame_eq(read_frames_last(&r->block), c[0])) {
        read_frames_push_n(&r->block, c + 1, n - 1);
    } else {
        close_block(r);
        read_frames_push_n(&r->block, c, n);
    }
    r->pending = n > 1;
    if (n > 1)
        r->info->has_inline_frames = 1;
    g_array_append_val(r->block_lines, lineno);
}

// "/*0140*/": an instruction's address (hex digits, nothing else).
static int is_instruction(const char *p, const char *end)
{
    if (!scan_starts(p, end, "/*"))
        return 0;
    const char *s = p + 2;
    while (s < end && g_ascii_isxdigit(*s))
        s++;
    return s > p + 2 && scan_starts(s, end, "*/");
}

/* Where one function's code ends and another section begins. */
static int is_boundary(const char *line, const char *p, const char *end)
{
    if (scan_starts(p, end, "//-----") ||
        scan_starts(p, end, ".section"))
        return 1;
    /* ".text.add_kernel:" (a label: at the start of the line). */
    if (p == line && scan_starts(p, end, ".text.")) {
        const char *e = end;
        while (e > p && (e[-1] == ' ' || e[-1] == '\t'))
            e--;
        return e[-1] == ':';
    }
    return 0;
}

/* The kind of a line other than a "//##" comment (tk_stage.h). */
static tk_line_kind line_kind(const char *p, const char *end)
{
    if (p >= end)
        return TK_LINE_OTHER;
    if (is_instruction(p, end))
        return TK_LINE_INSTRUCTION;
    if (scan_starts(p, end, "//") || scan_starts(p, end, "/*"))
        return TK_LINE_COMMENT; /* banners, an encoding's comment */
    const char *e = end;
    while (e > p && (e[-1] == ' ' || e[-1] == '\t'))
        e--;
    if (e[-1] == ':')
        return TK_LINE_LABEL; /* "attn_fwd:", ".text.attn_fwd:", ".L_x_3:" */
    if (*p == '.')
        return TK_LINE_DIRECTIVE;
    return TK_LINE_OTHER;
}

void read_sass_locs(const text_buf *text, tk_loctab *tab,
                    read_linemap_builder *out, read_info *info,
                    tk_diags *diags)
{
    sass_reader r = {
        .text = text,
        .tab = tab,
        .out = out,
        .info = info,
        .diags = diags,
        .block_lines = g_array_new(FALSE, FALSE, sizeof(uint32_t)),
        .chain = g_array_new(FALSE, FALSE, sizeof(tk_frame)),
        .unescaped = g_string_new(NULL),
        .cur = TK_NO_STACK,
    };
    for (uint32_t l = 1; l <= text->n_lines; l++) {
        size_t len;
        const char *line = text_line(text, l, &len);
        const char *end = line + len;
        const char *p = scan_skip_spaces(line, end);
        if (scan_starts(p, end, "//##")) {
            read_set_kind(info, l, TK_LINE_COMMENT, 1);
            on_comment(&r, l, p + 4, end);
            continue;
        }
        close_block(&r);
        tk_line_kind kind = line_kind(p, end);
        read_set_kind(info, l, kind, 0);
        if (kind == TK_LINE_INSTRUCTION)
            read_linemap_add(out, l, r.cur);
        else if (is_boundary(line, p, end))
            r.cur = TK_NO_STACK;
    }
    close_block(&r);
    g_array_free(r.block_lines, TRUE);
    g_array_free(r.chain, TRUE);
    g_string_free(r.unescaped, TRUE);
}
