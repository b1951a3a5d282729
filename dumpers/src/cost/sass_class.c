/* sass_class.c - SASS instruction lines read, and every opcode's class: the
 * one table of what kind of work an instruction is (tk_cost.h,
 * docs/cost.md).
 *
 * The class goes by the mnemonic, the opcode before its first '.'
 * ("HGMMA" of "HGMMA.64x128x16.F32", "LDG" of "LDG.E.128"): modifiers
 * change the width or the rounding, not the unit that runs it.  The table
 * holds the opcodes of NVIDIA's instruction set reference (the CUDA
 * Binary Utilities, "Instruction Set Reference", Volta to Blackwell) that
 * Triton kernels use or could; an opcode it lacks is "other" and the
 * `cost` unit test lists every opcode of the project's captures, so a new
 * one is noticed.  Keep it sorted: lookups are binary searches.
 */
#include "cost/internal.h"

#include <string.h>

#include "util/scan.h"

static const char *const class_names[TK_SASS_CLASS_COUNT] = {
    "global", "shared", "tensor", "tma", "barrier",
    "convert", "alu", "control", "other",
};

static const char *const class_labels[TK_SASS_CLASS_COUNT] = {
    "global memory", "shared memory", "tensor core", "TMA / bulk copy",
    "barrier / wait", "conversion", "ALU", "control", "other",
};

const char *tk_sass_class_name(tk_sass_class c)
{
    return c < TK_SASS_CLASS_COUNT ? class_names[c] : "other";
}

const char *tk_sass_class_label(tk_sass_class c)
{
    return c < TK_SASS_CLASS_COUNT ? class_labels[c] : "other";
}

typedef struct {
    const char *op;
    tk_sass_class cls;
} op_class;

#define G TK_SASS_GLOBAL
#define S TK_SASS_SHARED
#define T TK_SASS_TENSOR
#define M TK_SASS_TMA
#define B TK_SASS_BARRIER
#define C TK_SASS_CONVERT
#define A TK_SASS_ALU
#define F TK_SASS_CONTROL
#define O TK_SASS_OTHER

/* Sorted by opcode (strcmp order). */
static const op_class table[] = {
    {"ACQBULK", B},     /* wait for bulk copies */
    {"ARRIVES", B},     /* arrive on a shared memory barrier */
    {"ATOM", G},        /* generic address: global in practice */
    {"ATOMG", G},
    {"ATOMS", S},
    {"B2R", O},
    {"BAR", B},
    {"BGMMA", T},
    {"BMMA", T},
    {"BMOV", F},        /* convergence barrier state */
    {"BMSK", A},
    {"BPT", F},
    {"BRA", F},
    {"BREAK", F},
    {"BREV", A},
    {"BRX", F},
    {"BRXU", F},
    {"BSSY", F},        /* reconvergence bookkeeping around branches */
    {"BSYNC", F},
    {"CALL", F},
    {"CCTL", G},        /* cache control */
    {"CCTLL", G},
    {"CGAERRBAR", B},
    {"CS2R", A},        /* "CS2R R4, SRZ" clears registers */
    {"CSMTEST", O},
    {"DADD", A},
    {"DEPBAR", B},
    {"DFMA", A},
    {"DMMA", T},
    {"DMNMX", A},
    {"DMUL", A},
    {"DSETP", A},
    {"ELECT", O},
    {"ERRBAR", B},
    {"EXIT", F},
    {"F2F", C},
    {"F2FP", C},
    {"F2I", C},
    {"F2IP", C},
    {"FADD", A},
    {"FADD32I", A},
    {"FCHK", A},
    {"FENCE", B},
    {"FFMA", A},
    {"FFMA32I", A},
    {"FLO", A},
    {"FMNMX", A},
    {"FMNMX3", A},
    {"FMUL", A},
    {"FMUL32I", A},
    {"FRND", C},
    {"FSEL", A},
    {"FSET", A},
    {"FSETP", A},
    {"FSWZADD", A},
    {"GETLMEMBASE", O},
    {"HADD2", A},
    {"HFMA2", A},
    {"HGMMA", T},
    {"HMMA", T},
    {"HMNMX2", A},
    {"HMUL2", A},
    {"HSET2", A},
    {"HSETP2", A},
    {"I2F", C},
    {"I2FP", C},
    {"I2I", C},
    {"I2IP", C},
    {"IABS", A},
    {"IADD", A},
    {"IADD3", A},
    {"IADD32I", A},
    {"ICMP", A},
    {"IDP", A},
    {"IGMMA", T},
    {"IMAD", A},
    {"IMADSP", A},
    {"IMMA", T},
    {"IMNMX", A},
    {"IMUL", A},
    {"IMUL32I", A},
    {"ISCADD", A},
    {"ISCADD32I", A},
    {"ISETP", A},
    {"JMP", F},
    {"JMX", F},
    {"JMXU", F},
    {"KILL", F},
    {"LD", G},          /* generic address: global in practice */
    {"LDC", O},         /* constant bank: kernel arguments */
    {"LDG", G},
    {"LDGDEPBAR", B},   /* waits on LDGSTS copies (DEPBAR) */
    {"LDGMC", G},
    {"LDGSTS", M},      /* async copy global -> shared (cp.async) */
    {"LDL", G},         /* local memory: spills */
    {"LDS", S},
    {"LDSM", S},
    {"LDTM", T},        /* tensor memory (Blackwell) */
    {"LEA", A},
    {"LEPC", O},
    {"LOP", A},
    {"LOP3", A},
    {"LOP32I", A},
    {"MATCH", O},
    {"MEMBAR", B},
    {"MOV", A},
    {"MOV32I", A},
    {"MUFU", A},        /* special functions: ex2, rcp, rsq... */
    {"NANOSLEEP", B},
    {"NOP", O},
    {"OMMA", T},
    {"P2R", A},
    {"PLOP3", A},
    {"PMTRIG", O},
    {"POPC", A},
    {"PRET", F},
    {"PRMT", A},
    {"PSETP", A},
    {"QGMMA", T},
    {"QMMA", T},
    {"R2B", O},
    {"R2P", A},
    {"R2UR", A},
    {"RED", G},
    {"REDAS", G},
    {"REDG", G},
    {"REDUX", O},       /* warp-wide reduction */
    {"RET", F},
    {"RPCMOV", F},
    {"RTT", F},
    {"S2R", O},         /* special registers: thread and block ids */
    {"S2UR", O},
    {"SEL", A},
    {"SETCTAID", O},
    {"SETLMEMBASE", O},
    {"SGXT", A},
    {"SHF", A},
    {"SHFL", O},        /* warp shuffle */
    {"SHL", A},
    {"SHR", A},
    {"ST", G},
    {"STG", G},
    {"STL", G},
    {"STS", S},
    {"STSM", S},
    {"STTM", T},
    {"SUATOM", G},
    {"SULD", G},
    {"SURED", G},
    {"SUST", G},
    {"SYNCS", B},       /* shared memory barriers (mbarrier) */
    {"TEX", G},
    {"TLD", G},
    {"TLD4", G},
    {"TMML", G},
    {"TXD", G},
    {"TXQ", G},
    {"UBLKCP", M},
    {"UBLKPF", M},
    {"UBLKRED", M},
    {"UBMSK", A},
    {"UBREV", A},
    {"UCGABAR_ARV", B},
    {"UCGABAR_WAIT", B},
    {"UFLO", A},
    {"UIADD3", A},
    {"UIMAD", A},
    {"UIMNMX", A},
    {"UISETP", A},
    {"ULDC", O},
    {"ULEA", A},
    {"ULOP", A},
    {"ULOP3", A},
    {"ULOP32I", A},
    {"UMOV", A},
    {"UP2UR", A},
    {"UPLOP3", A},
    {"UPOPC", A},
    {"UPRMT", A},
    {"UPSETP", A},
    {"UR2UP", A},
    {"USEL", A},
    {"USETMAXREG", O},
    {"USGXT", A},
    {"USHF", A},
    {"USHL", A},
    {"USHR", A},
    {"UTCBAR", B},
    {"UTCHMMA", T},
    {"UTCIMMA", T},
    {"UTCOMMA", T},
    {"UTCQMMA", T},
    {"UTMACCTL", M},
    {"UTMACMDFLUSH", M},
    {"UTMALDG", M},
    {"UTMAPF", M},
    {"UTMAREDG", M},
    {"UTMASTG", M},
    {"VABSDIFF", A},
    {"VABSDIFF4", A},
    {"VIADD", A},
    {"VIADDMNMX", A},
    {"VIMNMX", A},
    {"VIMNMX3", A},
    {"VOTE", O},
    {"VOTEU", O},
    {"WARPGROUP", B},   /* WARPGROUP.ARRIVE, .DEPBAR: wgmma fences */
    {"WARPSYNC", B},
    {"YIELD", F},
};

#undef G
#undef S
#undef T
#undef M
#undef B
#undef C
#undef A
#undef F
#undef O

/* Where each first letter's opcodes begin in the table (A..Z, then the
 * end), so that a lookup searches one letter's few. */
static guint16 letter_at[27];
static gsize letters_ready;

static void index_letters(void)
{
    if (!g_once_init_enter(&letters_ready))
        return;
    size_t i = 0;
    for (int c = 0; c < 26; c++) {
        while (i < G_N_ELEMENTS(table) && table[i].op[0] < 'A' + c)
            i++;
        letter_at[c] = (guint16)i;
    }
    letter_at[26] = (guint16)G_N_ELEMENTS(table);
    g_once_init_leave(&letters_ready, 1);
}

tk_sass_class tk_sass_class_of(const char *op, size_t len)
{
    const char *dot = memchr(op, '.', len);
    size_t n = dot ? (size_t)(dot - op) : len;
    index_letters();
    size_t lo = 0, hi = G_N_ELEMENTS(table);
    if (n && op[0] >= 'A' && op[0] <= 'Z') {
        lo = letter_at[op[0] - 'A'];
        hi = letter_at[op[0] - 'A' + 1];
    }
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const char *t = table[mid].op;
        int c = strncmp(t, op, n);
        if (c == 0)
            c = t[n] != '\0'; /* the table's name is longer */
        if (c == 0)
            return table[mid].cls;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return TK_SASS_OTHER;
}

int cost_sass_class_known(const char *op, size_t len)
{
    const char *dot = memchr(op, '.', len);
    size_t n = dot ? (size_t)(dot - op) : len;
    for (size_t i = 0; i < G_N_ELEMENTS(table); i++)
        if (strlen(table[i].op) == n && memcmp(table[i].op, op, n) == 0)
            return 1;
    return 0;
}

size_t cost_sass_table_count(void)
{
    return G_N_ELEMENTS(table);
}

int cost_sass_table_sorted(void)
{
    for (size_t i = 1; i < G_N_ELEMENTS(table); i++)
        if (strcmp(table[i - 1].op, table[i].op) >= 0)
            return 0;
    return 1;
}

static int is_hex(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
           (c >= 'A' && c <= 'F');
}

static int is_op_char(char c)
{
    return c != ' ' && c != '\t' && c != ';' && c != ',';
}

int cost_sass_opcode(const char *p, const char *end, const char **op,
                     size_t *op_len)
{
    p = scan_skip_spaces(p, end);
    if (p < end && *p == '{') /* a dual-issue pair (Kepler to Pascal) */
        p = scan_skip_spaces(p + 1, end);
    if (p < end && *p == '@') { /* a predicate: @P0, @!PT, @!UP1 */
        while (p < end && *p != ' ' && *p != '\t')
            p++;
        p = scan_skip_spaces(p, end);
    }
    const char *s = p;
    while (p < end && is_op_char(*p))
        p++;
    if (p == s || !(*s >= 'A' && *s <= 'Z'))
        return 0;
    *op = s;
    *op_len = (size_t)(p - s);
    return 1;
}

int tk_sass_insn_parse(const char *line, size_t len, tk_sass_insn *insn)
{
    const char *end = line + len;
    const char *p = scan_skip_spaces(line, end);
    if (!scan_starts(p, end, "/*"))
        return 0;
    p += 2;
    uint64_t off = 0;
    const char *digits = p;
    while (p < end && is_hex(*p) && p - digits < 16) {
        char c = *p++;
        off = off * 16 + (uint64_t)(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
    }
    if (p == digits || !scan_starts(p, end, "*/") || off > UINT32_MAX)
        return 0;
    p += 2;
    const char *op;
    size_t op_len;
    if (!cost_sass_opcode(p, end, &op, &op_len))
        return 0;
    const char *text = scan_skip_spaces(p, end);
    if (text < end && *text == '{')
        text = scan_skip_spaces(text + 1, end);
    const char *stop = scan_find(text, end, ';');
    const char *tend = stop ? stop : end;
    while (tend > text && (tend[-1] == ' ' || tend[-1] == '\t'))
        tend--;
    insn->offset = (uint32_t)off;
    insn->opcode = op;
    insn->opcode_len = op_len;
    insn->text = text;
    insn->text_len = (size_t)(tend - text);
    return 1;
}
