/* normalize.c - the tk_normalize object: splitting a dump into lines and
 * the dialect sniffer (the builder the dialects write into: builder.c). */
#include <glib.h>
#include <string.h>

#include "diff/internal.h"
#include "normalize/internal.h"
#include "tkdump/tk_lines.h"

const char *tk_ir_dialect_name(tk_ir_dialect dialect)
{
    switch (dialect) {
    case TK_IR_MLIR: return "mlir";
    case TK_IR_LLVM: return "llvm";
    case TK_IR_MIR: return "mir";
    case TK_IR_PTX: return "ptx";
    case TK_IR_SASS: return "sass";
    case TK_IR_PLAIN: break;
    }
    return "plain";
}

static int line_starts(const char *p, const char *end, const char *lit)
{
    size_t n = strlen(lit);
    return (size_t)(end - p) >= n && memcmp(p, lit, n) == 0;
}

tk_ir_dialect tk_ir_dialect_sniff(const char *data, size_t len)
{
    if (!data)
        return TK_IR_PLAIN;
    if (len > 65536)
        len = 65536;
    const char *p = data, *end = data + len;
    int mlir = 0, llvm = 0;
    for (int lines = 0; p < end && lines < 400; lines++) {
        const char *e = memchr(p, '\n', (size_t)(end - p));
        if (!e)
            e = end;
        const char *q = p;
        while (q < e && (*q == ' ' || *q == '\t'))
            q++;
        /* Machine code is told by its banner; LLVM IR by what only a module
         * has at column 0; MLIR by its module op, functions and aliases. */
        if (line_starts(p, e, "# Machine code for function"))
            return TK_IR_MIR;
        if (line_starts(p, e, "define ") || line_starts(p, e, "declare ") ||
            line_starts(p, e, "; ModuleID") ||
            line_starts(p, e, "target datalayout") ||
            line_starts(p, e, "source_filename"))
            llvm++;
        if (line_starts(p, e, "module") || line_starts(p, e, "#loc") ||
            line_starts(q, e, "tt.func") || line_starts(q, e, "llvm.func") ||
            line_starts(q, e, "func.func") || line_starts(p, e, "#blocked") ||
            line_starts(p, e, "#shared") || line_starts(p, e, "#mma"))
            mlir++;
        p = e + 1;
    }
    if (llvm > 0 && llvm >= mlir)
        return TK_IR_LLVM;
    if (mlir > 0)
        return TK_IR_MLIR;
    return TK_IR_PLAIN;
}

/* Plain text: blank lines ignored, trailing spaces dropped, no renaming. */
static void plain_line(nb_builder *b, const char *s, const char *end,
                       uint32_t orig)
{
    const char *q = s;
    while (q < end && (*q == ' ' || *q == '\t'))
        q++;
    if (q == end) {
        nb_ignore_line(b, orig);
        return;
    }
    nb_put(b, s, (size_t)(end - s));
    nb_end_line(b, orig);
}

static tk_normalize *norm_alloc(tk_ir_dialect dialect, uint32_t n_lines,
                                size_t bytes, nb_builder *b)
{
    tk_normalize *n = g_new0(tk_normalize, 1);
    n->dialect = dialect;
    n->n_orig = n_lines;
    n->kept_of_cap = n_lines + 1;
    n->kept_of = g_new(uint32_t, n->kept_of_cap);
    /* Normalizing only removes bytes: one buffer the size of the dump holds
     * every line, so the text buffer never moves while lines are added. */
    n->text_cap = bytes + 1;
    n->text = g_malloc(n->text_cap);
    *b = (nb_builder){.n = n, .names = g_string_chunk_new(4096)};
    return n;
}

static void normalize_line(nb_builder *b, const char *s, const char *end,
                           uint32_t orig)
{
    end = s + tk_lines_trim(s, (size_t)(end - s));
    nb_begin_line(b);
    switch (b->n->dialect) {
    case TK_IR_MLIR: norm_mlir_line(b, s, end, orig); break;
    case TK_IR_LLVM: norm_llvm_line(b, s, end, orig); break;
    case TK_IR_MIR: norm_mir_line(b, s, end, orig); break;
    case TK_IR_PTX: norm_ptx_line(b, s, end, orig); break;
    case TK_IR_SASS: norm_sass_line(b, s, end, orig); break;
    case TK_IR_PLAIN: plain_line(b, s, end, orig); break;
    }
}

static tk_normalize *norm_finish(nb_builder *b)
{
    tk_normalize *n = b->n;
    g_free(b->slots);
    g_free(b->aliases);
    g_free(b->alias_hash);
    g_free(b->alias_text);
    g_free(b->alias_text_len);
    g_string_chunk_free(b->names);
    if (!n->ref_start)
        n->ref_start = g_new(uint32_t, 1);
    n->ref_start[n->n_kept] = (uint32_t)n->n_refs;
    if (n->hashes_only) {
        /* Nothing points into the text: let it go. */
        g_free(n->text);
        n->text = NULL;
        n->text_cap = n->text_len = 0;
        n->input = (tk_diff_input){NULL, n->hashes, n->n_kept};
        return n;
    }
    for (uint32_t k = 0; k < n->n_kept; k++)
        n->lines[k].text = n->text + n->line_off[k];
    g_free(n->line_off);
    n->line_off = NULL;
    n->input = (tk_diff_input){n->lines, n->hashes, n->n_kept};
    return n;
}

tk_normalize *tk_normalize_new(tk_ir_dialect dialect, const char *data, size_t len)
{
    if (!data)
        len = 0;
    if (len > UINT32_MAX)
        return NULL;
    /* Lines are at most one per byte; the index grows as they come, so the
     * dump is read once. */
    nb_builder b;
    tk_normalize *n = norm_alloc(dialect, 0, len, &b);
    uint32_t i = 0;
    for (const char *p = data, *end = data + len; p < end; i++) {
        const char *e = memchr(p, '\n', (size_t)(end - p));
        if (!e)
            e = end;
        if (i == n->kept_of_cap) {
            n->kept_of_cap = n->kept_of_cap ? n->kept_of_cap * 2 : 4096;
            n->kept_of = g_renew(uint32_t, n->kept_of, n->kept_of_cap);
        }
        normalize_line(&b, p, e, i);
        p = e + 1;
    }
    n->n_orig = i;
    return norm_finish(&b);
}

tk_normalize *tk_normalize_new_lines(tk_ir_dialect dialect, const tk_diff_line *lines,
                                     uint32_t n_lines)
{
    if (n_lines >= DIFF_MAX_LINES || (n_lines && !lines))
        return NULL;
    size_t bytes = 0;
    for (uint32_t i = 0; i < n_lines; i++)
        bytes += lines[i].len;
    if (bytes > UINT32_MAX)
        return NULL;
    nb_builder b;
    norm_alloc(dialect, n_lines, bytes, &b);
    for (uint32_t i = 0; i < n_lines; i++)
        normalize_line(&b, lines[i].text, lines[i].text + lines[i].len, i);
    return norm_finish(&b);
}

/* ---- lines one at a time ---------------------------------------------------- */

struct tk_normalize_builder {
    nb_builder b;
    int too_many; /* more lines than a diff takes: finish gives NULL */
};

tk_normalize_builder *tk_normalize_builder_new(tk_ir_dialect dialect, unsigned flags)
{
    tk_normalize_builder *nb = g_new0(tk_normalize_builder, 1);
    tk_normalize *n = norm_alloc(dialect, 0, 4095, &nb->b);
    n->hashes_only = (flags & TK_NORMALIZE_HASHES_ONLY) != 0;
    nb->b.expand_aliases = (flags & TK_NORMALIZE_EXPAND_ALIASES) != 0;
    return nb;
}

void tk_normalize_builder_add(tk_normalize_builder *nb, const char *line, size_t len)
{
    tk_normalize *n = nb->b.n;
    if (nb->too_many || n->n_orig >= DIFF_MAX_LINES - 1) {
        nb->too_many = 1;
        return;
    }
    if (n->n_orig == n->kept_of_cap) {
        n->kept_of_cap = n->kept_of_cap * 2;
        n->kept_of = g_renew(uint32_t, n->kept_of, n->kept_of_cap);
    }
    normalize_line(&nb->b, line ? line : "", line ? line + len : "", n->n_orig);
    n->n_orig++;
}

tk_normalize *tk_normalize_builder_finish(tk_normalize_builder *nb)
{
    if (!nb)
        return NULL;
    tk_normalize *n = norm_finish(&nb->b);
    int too_many = nb->too_many;
    g_free(nb);
    if (too_many) {
        tk_normalize_free(n);
        return NULL;
    }
    return n;
}

void tk_normalize_builder_free(tk_normalize_builder *nb)
{
    tk_normalize_free(tk_normalize_builder_finish(nb));
}

void tk_normalize_free(tk_normalize *n)
{
    if (!n)
        return;
    g_free(n->text);
    g_free(n->lines);
    g_free(n->line_off);
    g_free(n->hashes);
    g_free(n->orig);
    g_free(n->kept_of);
    g_free(n->ref_start);
    g_free(n->refs);
    g_free(n);
}

tk_ir_dialect tk_normalize_dialect(const tk_normalize *n)
{
    return n->dialect;
}

uint32_t tk_normalize_line_count(const tk_normalize *n)
{
    return n->n_orig;
}

const tk_diff_input *tk_normalize_input(const tk_normalize *n)
{
    return &n->input;
}

uint32_t tk_normalize_orig_index(const tk_normalize *n, uint32_t k)
{
    return k < n->n_kept ? n->orig[k] : TK_NORMALIZE_IGNORED;
}

uint32_t tk_normalize_kept_index(const tk_normalize *n, uint32_t index)
{
    return index < n->n_orig ? n->kept_of[index] : TK_NORMALIZE_IGNORED;
}

/* One 64-bit mixing step (splitmix64's finalizer over the running value). */
static inline uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    h ^= h >> 31;
    h *= 0xbf58476d1ce4e5b9ull;
    return h ^ (h >> 29);
}

uint64_t tk_normalize_digest(const tk_normalize *n)
{
    /* Values are numbered by first use, so that the digest sees what
     * tk_normalize_diff()'s pairing sees: the same value in the same
     * places, whatever its number in the dump. */
    uint32_t *canon = g_new(uint32_t, (size_t)n->n_values + 1);
    memset(canon, 0xff, ((size_t)n->n_values + 1) * sizeof *canon);
    uint32_t next = 0;
    uint64_t h = mix(0x6e6f726d616c697aull, n->n_kept);
    for (uint32_t k = 0; k < n->n_kept; k++) {
        uint32_t r0 = n->ref_start[k], r1 = n->ref_start[k + 1];
        h = mix(h, n->hashes[k]);
        h = mix(h, r1 - r0);
        for (uint32_t r = r0; r < r1; r++) {
            uint32_t id = n->refs[r];
            if (canon[id] == UINT32_MAX)
                canon[id] = next++;
            h = mix(h, canon[id]);
        }
    }
    g_free(canon);
    return h ? h : 1;
}
