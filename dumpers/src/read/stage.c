/* stage.c - a stage: text, line index, and the stacks of each line. */
#include "tkdump/tk_stage.h"

#include <glib.h>
#include <string.h>

#include "read/linemap.h"
#include "read/readers.h"
#include "util/scan.h"
#include "util/text.h"

struct tk_stage {
    tk_stage_kind kind;
    text_buf text;
    read_linemap map;
    int has_inline_frames;
    uint8_t *kinds;          /* per line (1-based): readers.h's kind byte */
    uint32_t n_instructions;
};

static const char *const kind_names[TK_STAGE_COUNT] = {
    "ttir", "ttgir", "llir", "ptx", "sass", "amdgcn"};
static const char *const kind_labels[TK_STAGE_COUNT] = {
    "TTIR", "TTGIR", "LLVM IR", "PTX", "SASS", "AMDGCN"};

const char *tk_stage_kind_name(tk_stage_kind kind)
{
    return kind < TK_STAGE_COUNT ? kind_names[kind] : "unknown";
}

const char *tk_stage_kind_label(tk_stage_kind kind)
{
    return kind < TK_STAGE_COUNT ? kind_labels[kind] : "?";
}

tk_stage_kind tk_stage_kind_parse(const char *name)
{
    static const struct {
        const char *name;
        tk_stage_kind kind;
    } aliases[] = {
        {"ttir", TK_STAGE_TTIR},   {"ttgir", TK_STAGE_TTGIR},
        {"llir", TK_STAGE_LLIR},   {"llvm", TK_STAGE_LLIR},
        {"ll", TK_STAGE_LLIR},     {"llvmir", TK_STAGE_LLIR},
        {"llvm-ir", TK_STAGE_LLIR}, {"ptx", TK_STAGE_PTX},
        {"sass", TK_STAGE_SASS},   {"sass_gi", TK_STAGE_SASS},
        {"sass_g", TK_STAGE_SASS}, {"amdgcn", TK_STAGE_AMDGCN},
        {"gcn", TK_STAGE_AMDGCN},  {"amdgcn_dis", TK_STAGE_AMDGCN},
    };
    if (!name)
        return TK_STAGE_UNKNOWN;
    for (size_t i = 0; i < G_N_ELEMENTS(aliases); i++)
        if (g_ascii_strcasecmp(name, aliases[i].name) == 0)
            return aliases[i].kind;
    return TK_STAGE_UNKNOWN;
}

/* What one line of a file's head says about its format. */
typedef struct {
    gboolean sass, ptx_version, ptx_target, llvm, mlir, ttg, amdgcn;
} sniff_signs;

static void sniff_line(const char *p, const char *end, sniff_signs *g)
{
    const char *t = scan_skip_spaces(p, end);
    /* Signs are what a format's own printer puts at a line's start, so a
     * config file or a README that mentions "#loc" in a comment is not IR. */
    if (scan_starts(t, end, "//## File \"") ||
        scan_starts(p, end, "\t.headerflags") ||
        (t > p && scan_starts(t, end, "/*0000*/")))
        g->sass = TRUE;
    /* The AMDGPU assembly printer's first directive, and llvm-objdump's
     * banner for an AMD code object. */
    if (scan_starts(t, end, ".amdgcn_target \"") ||
        scan_find_str(p, end, "file format elf64-amdgpu"))
        g->amdgcn = TRUE;
    if (scan_starts(p, end, ".version "))
        g->ptx_version = TRUE;
    if (scan_starts(p, end, ".target sm_") || scan_starts(p, end, ".target compute_"))
        g->ptx_target = TRUE;
    if (scan_starts(p, end, "; ModuleID = ") ||
        scan_starts(p, end, "target datalayout = ") ||
        scan_starts(p, end, "target triple = "))
        g->llvm = TRUE;
    if (scan_starts(p, end, "#loc")) {
        const char *q = p + 4;
        while (q < end && *q >= '0' && *q <= '9')
            q++;
        if (scan_starts(q, end, " = loc("))
            g->mlir = TRUE;
    }
    if (scan_starts(p, end, "module attributes {") || scan_starts(p, end, "module {") ||
        scan_starts(t, end, "tt.func ") || scan_starts(t, end, "tt.func public "))
        g->mlir = TRUE;
    if (scan_find_str(p, end, "\"ttg.num-warps\"") || scan_starts(p, end, "#ttg.") ||
        (scan_starts(p, end, "#") && scan_find_str(p, end, " = #ttg.")))
        g->ttg = TRUE;
}

tk_stage_kind tk_stage_kind_sniff(const char *data, size_t len)
{
    if (!data || text_looks_binary(data, len))
        return TK_STAGE_UNKNOWN;
    /* Look at the head only: every format declares itself early. */
    const char *end = data + (len < 256 * 1024 ? len : 256 * 1024);
    sniff_signs g = {0};
    for (const char *p = data; p < end;) {
        const char *nl = scan_find(p, end, '\n');
        const char *le = nl ? nl : end;
        sniff_line(p, le, &g);
        p = nl ? nl + 1 : end;
    }
    if (g.sass)
        return TK_STAGE_SASS;
    if (g.amdgcn)
        return TK_STAGE_AMDGCN;
    if (g.ptx_version && g.ptx_target)
        return TK_STAGE_PTX;
    if (g.llvm)
        return TK_STAGE_LLIR;
    if (g.mlir)
        return g.ttg ? TK_STAGE_TTGIR : TK_STAGE_TTIR;
    return TK_STAGE_UNKNOWN;
}

static tk_stage *stage_from_text(tk_stage_kind kind, text_buf *text,
                                 tk_loctab *tab, tk_diags *diags)
{
    tk_stage *s = g_new0(tk_stage, 1);
    s->kind = kind;
    s->text = *text;
    read_linemap_builder b;
    read_linemap_builder_init(&b);
    read_info info = {0};
    /* TK_LINE_OTHER is not 0: fill explicitly. */
    info.kinds = g_malloc((size_t)s->text.n_lines + 1);
    memset(info.kinds, TK_LINE_OTHER, (size_t)s->text.n_lines + 1);
    switch (kind) {
    case TK_STAGE_TTIR:
    case TK_STAGE_TTGIR:
        read_mlir_locs(&s->text, tab, &b, &info, diags);
        break;
    case TK_STAGE_LLIR:
        read_llvm_locs(&s->text, tab, &b, &info, diags);
        break;
    case TK_STAGE_PTX:
        read_ptx_locs(&s->text, tab, &b, &info, diags);
        break;
    case TK_STAGE_SASS:
        read_sass_locs(&s->text, tab, &b, &info, diags);
        break;
    case TK_STAGE_AMDGCN:
        read_amdgcn_locs(&s->text, tab, &b, &info, diags);
        break;
    default:
        break;
    }
    read_linemap_finish(&b, s->text.n_lines, &s->map);
    s->has_inline_frames = info.has_inline_frames;
    s->kinds = info.kinds;
    for (uint32_t l = 1; l <= s->text.n_lines; l++)
        s->n_instructions += (s->kinds[l] & READ_KIND_MASK) == TK_LINE_INSTRUCTION;
    return s;
}

tk_stage *tk_stage_read(tk_stage_kind kind, const char *path, tk_loctab *tab,
                        tk_diags *diags)
{
    text_buf text;
    if (text_read(&text, path, diags) != 0)
        return NULL;
    return stage_from_text(kind, &text, tab, diags);
}

tk_stage *tk_stage_parse(tk_stage_kind kind, const char *name,
                         const char *data, size_t len, tk_loctab *tab,
                         tk_diags *diags)
{
    text_buf text;
    if (text_from_memory(&text, name, data, len, diags) != 0)
        return NULL;
    return stage_from_text(kind, &text, tab, diags);
}

void tk_stage_free(tk_stage *s)
{
    if (!s)
        return;
    text_clear(&s->text);
    read_linemap_clear(&s->map);
    g_free(s->kinds);
    g_free(s);
}

tk_stage_kind tk_stage_kind_of(const tk_stage *s)
{
    return s->kind;
}

const char *tk_stage_path(const tk_stage *s)
{
    return s->text.name;
}

size_t tk_stage_size(const tk_stage *s)
{
    return s->text.len;
}

uint32_t tk_stage_line_count(const tk_stage *s)
{
    return s->text.n_lines;
}

const char *tk_stage_line(const tk_stage *s, uint32_t line, size_t *len)
{
    if (line == 0 || line > s->text.n_lines) {
        *len = 0;
        return NULL;
    }
    return text_line(&s->text, line, len);
}

size_t tk_stage_line_stacks(const tk_stage *s, uint32_t line,
                            const tk_stack_id **ids)
{
    return read_linemap_get(&s->map, line, ids);
}

uint32_t tk_stage_located_line_count(const tk_stage *s)
{
    return s->map.n_located;
}

int tk_stage_has_inline_frames(const tk_stage *s)
{
    return s->has_inline_frames;
}

static const char *const line_kind_names[] = {"instruction", "directive", "comment",
                                              "label", "metadata", "other"};

const char *tk_line_kind_name(tk_line_kind kind)
{
    return kind < TK_LINE_KIND_COUNT ? line_kind_names[kind] : "other";
}

tk_line_kind tk_stage_line_kind(const tk_stage *s, uint32_t line)
{
    if (line == 0 || line > s->text.n_lines)
        return TK_LINE_OTHER;
    return (tk_line_kind)(s->kinds[line] & READ_KIND_MASK);
}

int tk_stage_line_is_location(const tk_stage *s, uint32_t line)
{
    if (line == 0 || line > s->text.n_lines)
        return 0;
    return (s->kinds[line] & READ_KIND_LOCATION) != 0;
}

uint32_t tk_stage_instruction_count(const tk_stage *s)
{
    return s->n_instructions;
}

size_t tk_stage_count_instructions(const tk_stage *s, const uint32_t *lines,
                                   size_t n)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        c += tk_stage_line_kind(s, lines[i]) == TK_LINE_INSTRUCTION;
    return c;
}
