/* regs.c - registers and local memory per SASS instruction: nvdisasm's
 * life-range counts (NAME.sass_lr) matched to the kernel's instructions,
 * the bytes an LDL or STL moves, and what a register count means for
 * occupancy.
 *
 * NAME.sass_lr is the text of
 *     nvdisasm --print-life-ranges --life-range-mode count -c NAME.cubin
 * the SASS with a table after each line:
 *     (0x0130)   STL [R1+0x400], R6 ;   // |  11   |        |   3    |
 * whose header names the columns ("// | GPR   | PRED   | UGPR   |") and
 * whose second header row is "|   #   |   #    |   #    |" in count mode
 * (the other modes draw one column per register).  A count is the number of
 * registers of that file live at the instruction; an empty cell is 0.  The
 * files are GPR, PRED, UGPR and, in some kernels' tables only, UPRED (a
 * missing column counts 0).
 * Offsets restart in every function, so only the rows of the kernel's own
 * ".text.NAME" function are read (every row when the file has no such
 * label, as cost_insns_read() does).
 */
#include "cost/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    uint32_t offset;
    uint32_t line; /* in the life-range text, for messages */
    const char *op;
    size_t op_len;
    uint16_t n[COST_LR_FILES];
} lr_row;

static const char *const lr_names[COST_LR_FILES] = {"GPR", "PRED", "UGPR",
                                                    "UPRED"};

static const char *trim(const char *s, const char *e, const char **end)
{
    while (s < e && (*s == ' ' || *s == '\t'))
        s++;
    while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
        e--;
    *end = e;
    return s;
}

/* The table cells after "// |" on LINE: their starts and ends.  Returns
 * the number of cells (at most MAX), 0 when the line has no table. */
static size_t cells(const char *line, const char *end, const char **cs,
                    const char **ce, size_t max)
{
    const char *p = NULL;
    for (const char *q = line; q + 4 <= end; q++)
        if (memcmp(q, "// |", 4) == 0 || memcmp(q, "// +", 4) == 0)
            p = q; /* the last one: an instruction could hold "//" */
    if (!p || p[3] != '|')
        return 0;
    p += 4;
    size_t n = 0;
    while (p < end && n < max) {
        const char *bar = memchr(p, '|', (size_t)(end - p));
        if (!bar)
            break;
        cs[n] = trim(p, bar, &ce[n]);
        n++;
        p = bar + 1;
    }
    return n;
}

/* Reads the rows of TEXT's function NAME (every row when there is no such
 * label).  Fills ROWS; returns 0, or -1 with *WHY. */
static int read_rows(const char *text, size_t len, const char *name,
                     GArray *rows, char **why)
{
    char *label = name ? g_strdup_printf(".text.%s:", name) : NULL;
    gboolean has_label = label && g_strstr_len(text, (gssize)len, label);
    int col[COST_LR_FILES] = {-1, -1, -1, -1};
    gboolean header = FALSE, counts = FALSE, inside = !has_label;
    const char *cs[64], *ce[64];
    const char *p = text, *end = text + len;
    uint32_t lineno = 0;
    int rc = 0;
    while (p < end && rc == 0) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        lineno++;
        size_t n = cells(p, le, cs, ce, G_N_ELEMENTS(cs));
        const char *t, *te;
        t = trim(p, le, &te);
        if (has_label && !inside) {
            const char *tab = memchr(t, '/', (size_t)(te - t));
            const char *lend;
            trim(t, tab ? tab : te, &lend);
            inside = (size_t)(lend - t) == strlen(label) &&
                     memcmp(t, label, strlen(label)) == 0;
        } else if (has_label && (g_str_has_prefix(t, "//----") ||
                                 g_str_has_prefix(t, ".section"))) {
            if (rows->len)
                break;
        }
        if (!header && n >= 3) {
            for (size_t i = 0; i < n; i++)
                for (int f = 0; f < COST_LR_FILES; f++)
                    if ((size_t)(ce[i] - cs[i]) == strlen(lr_names[f]) &&
                        memcmp(cs[i], lr_names[f], strlen(lr_names[f])) == 0)
                        col[f] = (int)i;
            header = col[0] >= 0;
        } else if (header && !counts && n) {
            counts = TRUE;
            for (size_t i = 0; i < n && counts; i++)
                counts = ce[i] - cs[i] == 1 && *cs[i] == '#';
            if (!counts) {
                *why = g_strdup_printf(
                    "line %u: not nvdisasm's --life-range-mode count table "
                    "(one \"#\" column per register file expected)", lineno);
                rc = -1;
            }
        } else if (counts && inside && n) {
            tk_sass_insn in;
            if (tk_sass_insn_parse(p, (size_t)(le - p), &in)) {
                lr_row r = {in.offset, lineno, in.opcode, in.opcode_len,
                            {0}};
                for (int f = 0; f < COST_LR_FILES && rc == 0; f++) {
                    if (col[f] < 0 || (size_t)col[f] >= n)
                        continue;
                    const char *s = cs[col[f]], *e = ce[col[f]];
                    unsigned v = 0;
                    for (; s < e && v <= 65535; s++) {
                        if (*s < '0' || *s > '9') {
                            *why = g_strdup_printf(
                                "line %u: the %s count is not a number",
                                lineno, lr_names[f]);
                            rc = -1;
                            break;
                        }
                        v = v * 10 + (unsigned)(*s - '0');
                    }
                    r.n[f] = (uint16_t)MIN(v, 65535u);
                }
                g_array_append_val(rows, r);
            }
        }
        p = nl ? nl + 1 : end;
    }
    if (rc == 0 && !counts) {
        *why = g_strdup("no life-range table (\"// | GPR | PRED | UGPR |\" "
                        "with a \"#\" row): not the text of nvdisasm "
                        "--print-life-ranges --life-range-mode count");
        rc = -1;
    } else if (rc == 0 && rows->len == 0) {
        *why = g_strdup_printf("no instruction of %s has a life-range row",
                               name ? name : "the kernel");
        rc = -1;
    }
    g_free(label);
    return rc;
}

static int cmp_row(const void *a, const void *b)
{
    const lr_row *x = a, *y = b;
    return (x->offset > y->offset) - (x->offset < y->offset);
}

int cost_lr_match(const char *text, size_t len, const char *name,
                  const tk_stage *sass, const cost_insns *in, uint16_t *out,
                  char **why)
{
    GArray *rows = g_array_new(FALSE, FALSE, sizeof(lr_row));
    int rc = read_rows(text, len, name, rows, why);
    size_t padding = 0;
    if (rc == 0)
        qsort(rows->data, rows->len, sizeof(lr_row), cmp_row);
    for (size_t i = 0; rc == 0 && i < in->n; i++) {
        lr_row key = {in->offset[i], 0, NULL, 0, {0}};
        const lr_row *r = bsearch(&key, rows->data, rows->len, sizeof(lr_row),
                                  cmp_row);
        size_t l;
        const char *s = tk_stage_line(sass, in->line[i], &l);
        const char *op = s + in->op[i];
        /* nvdisasm prints no life ranges for the NOPs that pad the
         * function after its end (after the label .size names). */
        if (!r && in->op_len[i] == 3 && memcmp(op, "NOP", 3) == 0) {
            memset(out + i * COST_LR_FILES, 0, COST_LR_FILES * sizeof *out);
            padding++;
            continue;
        }
        if (!r || r->op_len != in->op_len[i] ||
            memcmp(r->op, op, r->op_len) != 0) {
            *why = g_strdup_printf(
                "offset 0x%04x: the SASS has %.*s, the life ranges %s%.*s: "
                "not made from the same cubin", in->offset[i],
                (int)in->op_len[i], op, r ? "" : "nothing",
                r ? (int)r->op_len : 0, r ? r->op : "");
            rc = -1;
            break;
        }
        memcpy(out + i * COST_LR_FILES, r->n, sizeof r->n);
    }
    if (rc == 0 && rows->len + padding != in->n) {
        *why = g_strdup_printf("%u instructions have life ranges, the "
                               "kernel's SASS has %zu: not made from the same "
                               "cubin", rows->len, in->n - padding);
        rc = -1;
    }
    g_array_free(rows, TRUE);
    return rc;
}

/* ---- local memory ------------------------------------------------------ */

int cost_local_bytes(const char *op, size_t len, int *store)
{
    size_t base = 0;
    while (base < len && op[base] != '.')
        base++;
    int st = base == 3 && memcmp(op, "STL", 3) == 0;
    int ld = base == 3 && memcmp(op, "LDL", 3) == 0;
    if (!st && !ld)
        return 0;
    *store = st;
    int bytes = 4;
    /* The width is a modifier: .U8 .S8 .U16 .S16 .64 .128 (none: 32 bits). */
    for (size_t i = base; i < len;) {
        size_t j = i + 1;
        while (j < len && op[j] != '.')
            j++;
        const char *m = op + i + 1;
        size_t ml = j - i - 1;
#define MOD(lit) (ml == strlen(lit) && memcmp(m, lit, ml) == 0)
        if (MOD("U8") || MOD("S8"))
            bytes = 1;
        else if (MOD("U16") || MOD("S16"))
            bytes = 2;
        else if (MOD("64"))
            bytes = 8;
        else if (MOD("128"))
            bytes = 16;
#undef MOD
        i = j;
    }
    return bytes;
}

/* ---- occupancy ---------------------------------------------------------- */

/* Registers per SM, allocation unit and warps per SM by compute capability,
 * from NVIDIA's CUDA C++ Programming Guide ("Technical Specifications per
 * Compute Capability") and its occupancy calculator: 64K 32-bit registers
 * per SM from 5.0 on, allocated to a warp in units of 256 (8 per thread),
 * at most 255 per thread; warps per SM 64, except 48 on 8.6, 8.7, 8.9 and
 * 12.x and 32 on 7.5. */
static int max_warps(int cc)
{
    switch (cc) {
    case 75:
        return 32;
    case 86: case 87: case 89: case 120: case 121:
        return 48;
    default:
        return cc >= 50 ? 64 : 0;
    }
}

static int warps_at(int regs, int warps_per_block, int maxw)
{
    int per_warp = (regs * 32 + 255) / 256 * 256;
    int by_regs = per_warp ? 65536 / per_warp : maxw;
    /* Whole blocks only: a block's warps all get registers or none does. */
    int blocks = by_regs / warps_per_block;
    int w = blocks * warps_per_block;
    return w > maxw / warps_per_block * warps_per_block
               ? maxw / warps_per_block * warps_per_block
               : w;
}

int tk_cost_occupancy(const tk_kernel *k, tk_occupancy *o)
{
    memset(o, 0, sizeof *o);
    const tk_kernel_meta *m = tk_kernel_metadata(k);
    int cc = 0;
    if (!m->target || sscanf(m->target, "cuda:%d", &cc) != 1 ||
        m->registers <= 0 || m->registers > 255 || !max_warps(cc))
        return -1;
    int wpb = m->num_warps > 0 && m->num_warps <= 32 ? (int)m->num_warps : 4;
    int maxw = max_warps(cc);
    o->registers = (int)m->registers;
    o->warps_per_block = wpb;
    o->max_warps_per_sm = maxw;
    o->warps_per_sm = warps_at(o->registers, wpb, maxw);
    o->registers_per_sm = 65536;
    for (int r = o->registers - 1; r > 0; r--) {
        int w = warps_at(r, wpb, maxw);
        if (w > o->warps_per_sm) {
            o->next_registers = r;
            o->next_warps_per_sm = w;
            break;
        }
    }
    return 0;
}
