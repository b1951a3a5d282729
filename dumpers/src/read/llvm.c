/* llvm.c - source locations in LLVM IR text (!dbg attachments).
 *
 * The text is read as a sequence of modules: a Triton .llir is one, an LLVM
 * print-after-all stderr holds hundreds, each numbering its metadata from !0
 * again.  A module starts at a "; ModuleID" line or a pass-dump header
 * ("; *** IR Dump ...", "*** IR Dump ...", "# *** IR Dump ..."; MLIR's
 * "// -----// ... IR Dump" too, so a stray !N in an MLIR dump never resolves
 * against LLVM metadata).  Metadata is printed after the code that uses it,
 * so each module is read twice: once to index its "!N = ..." lines (a look at
 * each line's first bytes), once to resolve the "!dbg !N" of each line.
 *
 * Function-only pass dumps ("; *** IR Dump After X on kernel ***" followed by
 * a bare "define") print no metadata at all.  Their numbers refer to the
 * module as it was at that moment, which no printed module need match, so
 * their lines are left without location: a wrong binding is worse than none.
 * One note per text says how many lines that concerned.
 *
 * Line kinds (tk_stage.h): indented lines of a function are instructions,
 * except "#dbg_" records and llvm.dbg calls (directives); "define",
 * "declare", globals and "target" lines are directives, "!N = ..." and
 * "attributes" metadata, block labels labels.
 */
#include <string.h>

#include "read/llvm_meta.h"
#include "read/readers.h"
#include "util/scan.h"

typedef struct {
    const text_buf *text;
    tk_loctab *tab;
    read_linemap_builder *out;
    read_info *info;
    tk_diags *diags;
    read_llvm_meta *meta;
    uint64_t orphan_lines;    /* !dbg lines in modules without metadata */
    uint64_t orphan_sections; /* such modules */
    uint32_t first_orphan;    /* line of the first such !dbg */
} llvm_reader;

static int is_module_header(const char *p, const char *end)
{
    switch (*p) {
    case ';':
        return scan_starts(p, end, "; ModuleID") ||
               scan_starts(p, end, "; *** IR Dump");
    case '*':
        return scan_starts(p, end, "*** IR Dump");
    case '#':
        return scan_starts(p, end, "# *** IR Dump");
    case '/':
        return scan_starts(p, end, "// -----//"); /* MLIR dumps */
    default:
        return 0;
    }
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* The '!' of the location a line refers to, or NULL: the last "!dbg" of an
 * instruction or "define" line (attachments come last, !dbg first among
 * them), or the last !N argument of a debug record "#dbg_value(..., !N)". */
static const char *find_location_ref(const char *p, const char *end)
{
    const char *s = scan_skip_spaces(p, end);
    if (scan_starts(s, end, "#dbg_")) {
        const char *close = memrchr(s, ')', (size_t)(end - s));
        if (!close)
            return NULL;
        const char *q = close;
        while (q > s && (q[-1] == ' ' || q[-1] == '\t'))
            q--;
        const char *digits_end = q;
        while (q > s && is_digit(q[-1]))
            q--;
        if (q == digits_end || q == s || q[-1] != '!')
            return NULL;
        return q - 1;
    }
    /* A plain backward loop, not memrchr per '!': a line dense with '!'
     * would call it once per byte, and sanitizers check the whole range on
     * each call.  The attachment is usually within 20 bytes of the end. */
    size_t len = (size_t)(end - p);
    if (len < 6)
        return NULL; /* "!dbg !" at least */
    for (size_t i = len - 5; i-- > 0;) {
        const char *q = p + i;
        if (q[3] == 'g' && q[0] == '!' && q[1] == 'd' && q[2] == 'b' &&
            (q[4] == ' ' || q[4] == '\t')) {
            const char *r = scan_skip_spaces(q + 5, end);
            return r < end && *r == '!' ? r : NULL;
        }
    }
    return NULL;
}

static int is_label_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) ||
           c == '_' || c == '$' || c == '.' || c == '-';
}

/* The kind of line [P, END) (tk_stage.h). */
static tk_line_kind line_kind(const char *p, const char *end)
{
    const char *s = scan_skip_spaces(p, end);
    if (s >= end)
        return TK_LINE_OTHER;
    switch (*s) {
    case '!':
        return TK_LINE_METADATA;
    case ';':
        return TK_LINE_COMMENT;
    case '*':
        return scan_starts(s, end, "*** IR Dump") ? TK_LINE_COMMENT
                                                  : TK_LINE_INSTRUCTION;
    case '#':
        /* "#dbg_value(...)": a debug record, not code; "# ..." a comment
         * of a machine code dump. */
        return scan_starts(s, end, "#dbg_") ? TK_LINE_DIRECTIVE : TK_LINE_COMMENT;
    case '}':
    case '{':
        return TK_LINE_OTHER;
    default:
        break;
    }
    if (s == p) {
        /* At the start of the line: what is not inside a function. */
        if (scan_starts(s, end, "attributes #"))
            return TK_LINE_METADATA;
        if (scan_starts(s, end, "define ") || scan_starts(s, end, "declare ") ||
            scan_starts(s, end, "target ") || scan_starts(s, end, "source_filename") ||
            scan_starts(s, end, "module asm") || *s == '@' || *s == '%' || *s == '$')
            return TK_LINE_DIRECTIVE;
    }
    /* A block label ("5:", ".lr.ph:  ; preds = %4", "bb.0.entry:"). */
    const char *q = s;
    if (*q == '"') {
        const char *c = scan_find(q + 1, end, '"');
        q = c ? c + 1 : end;
    } else {
        while (q < end && is_label_char(*q))
            q++;
    }
    if (q > s && q < end && *q == ':' &&
        (q + 1 == end || q[1] == ' ' || q[1] == '\t' || q[1] == ';'))
        return TK_LINE_LABEL;
    if (s == p)
        return TK_LINE_OTHER; /* some other top-level line */
    if (scan_starts(s, end, "call void @llvm.dbg.") ||
        scan_starts(s, end, "tail call void @llvm.dbg."))
        return TK_LINE_DIRECTIVE; /* a debug intrinsic, not code */
    return TK_LINE_INSTRUCTION;
}

static void bind_line(llvm_reader *r, uint32_t line, const char *ref,
                      const char *end)
{
    tk_stack_id id = TK_NO_STACK;
    const char *p = ref + 1;
    uint32_t num;
    scan_status st = scan_u32(&p, end, &num);
    if (st == SCAN_OK) {
        id = read_llvm_meta_stack(r->meta, num, line);
    } else if (st == SCAN_OVERFLOW) {
        tk_diags_add(r->diags, TK_DIAG_WARNING, r->text->name, line,
                     "!dbg node number does not fit in 32 bits; line left "
                     "without location");
    } else if (scan_starts(ref, end, "!DILocation(")) {
        id = read_llvm_meta_inline_stack(r->meta, ref, end, line);
    }
    if (id == TK_NO_STACK)
        return;
    read_linemap_add(r->out, line, id);
    size_t n;
    tk_loctab_stack_frames(r->tab, id, &n);
    if (n > 1)
        r->info->has_inline_frames = 1;
}

/* Second pass over lines [FIRST, LAST] of one module. */
static void bind_module(llvm_reader *r, uint32_t first, uint32_t last)
{
    int have_meta = read_llvm_meta_count(r->meta) > 0;
    int orphan_counted = 0;
    if (have_meta)
        read_llvm_meta_index(r->meta);
    for (uint32_t l = first; l <= last; l++) {
        size_t len;
        const char *p = text_line(r->text, l, &len);
        if (len == 0 || *p == '!')
            continue; /* blank, or metadata: not code */
        const char *end = p + len;
        const char *ref = find_location_ref(p, end);
        if (!ref)
            continue;
        if (!have_meta) {
            if (!r->orphan_lines)
                r->first_orphan = l;
            r->orphan_lines++;
            if (!orphan_counted)
                r->orphan_sections++;
            orphan_counted = 1;
            continue;
        }
        bind_line(r, l, ref, end);
    }
    read_llvm_meta_reset(r->meta);
}

void read_llvm_locs(const text_buf *text, tk_loctab *tab,
                    read_linemap_builder *out, read_info *info,
                    tk_diags *diags)
{
    llvm_reader r = {text, tab, out, info, diags, NULL, 0, 0, 0};
    r.meta = read_llvm_meta_new(text, tab, diags);
    uint32_t first = 1;
    for (uint32_t l = 1; l <= text->n_lines; l++) {
        size_t len;
        const char *p = text_line(text, l, &len);
        const char *end = p + len;
        read_set_kind(info, l, line_kind(p, end), 0);
        if (len < 2)
            continue;
        if (*p == '!') {
            if (is_digit(p[1]))
                read_llvm_meta_add_def(r.meta, l, p, end);
        } else if (is_module_header(p, end)) {
            if (l > first)
                bind_module(&r, first, l - 1);
            first = l;
        }
    }
    if (first <= text->n_lines)
        bind_module(&r, first, text->n_lines);
    if (r.orphan_lines)
        tk_diags_add(diags, TK_DIAG_NOTE, text->name, r.first_orphan,
                     "%llu lines in %llu function-only pass dumps refer to "
                     "metadata that these dumps do not print; they are left "
                     "without location",
                     (unsigned long long)r.orphan_lines,
                     (unsigned long long)r.orphan_sections);
    read_llvm_meta_free(r.meta);
}
