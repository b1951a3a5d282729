/* test_reader_ptx.c - PTX locations: .file/.loc, the inline chains of .loc
 * comments and of inlined_at, which lines bind, and bad input.
 *
 * Expectations were read by hand from the dump text (quoted in comments);
 * synthetic cases are real lines of vector_add's PTX with one edit each. */
#include <stdio.h>
#include <string.h>

#include "tk_test.h"

#define STANDARD_PY \
    "/opt/torch/.venv/lib/python3.12/site-packages/triton/language/standard.py"
#define VECTOR_ADD_PY "/tmp/capture/vector_add/src/vector_add.py"

#define CHAIN_263 "standard.py:263:15 <- standard.py:293:36 <- vector_add.py:16:15"
#define CHAIN_293 "standard.py:293:36 <- vector_add.py:16:15"

static uint32_t last_located_line(const tk_stage *s)
{
    const tk_stack_id *ids;
    for (uint32_t l = tk_stage_line_count(s); l > 0; l--)
        if (tk_stage_line_stacks(s, l, &ids))
            return l;
    return 0;
}

/* vector_add's PTX as text.  Caller frees. */
static char *vector_add_ptx(void)
{
    char *path = tk_test_find_dump("vector_add/kernel_dump", "add_kernel.ptx");
    char *data;
    g_assert_true(g_file_get_contents(path, &data, NULL, NULL));
    g_free(path);
    return data;
}

/* SRC with the first FROM replaced by TO (which must be there).  Caller
 * frees. */
static char *edit(const char *src, const char *from, const char *to)
{
    const char *at = strstr(src, from);
    if (!at)
        g_error("edit: \"%s\" not found", from);
    return g_strdup_printf("%.*s%s%s", (int)(at - src), src, to,
                           at + strlen(from));
}

static tk_stage *parse(const char *src, size_t len, tk_loctab *tab,
                       tk_diags *diags)
{
    tk_stage *s = tk_stage_parse(TK_STAGE_PTX, "mem.ptx", src, len, tab, diags);
    g_assert_nonnull(s);
    return s;
}

/* ---- the real dumps ---- */

static void test_vector_add(void)
{
    if (!tk_test_have_dumps())
        return;
    char *path = tk_test_find_dump("vector_add/kernel_dump", "add_kernel.ptx");
    tk_loctab *tab = tk_loctab_new();
    tk_diags *d = tk_diags_new();
    tk_stage *s = tk_test_read_stage(TK_STAGE_PTX, path, tab, d);
    g_assert_cmpuint(tk_test_print_diags(d), ==, 0);

    /* 98:	.loc	2 263 15                        // standard.py:263:15 @[ standard.py:293:36 @[ vector_add.py:16:15 ] ]
     * 99-105: seven "add.f32" instructions
     * 106: $L__tmp2:
     * 107:	.loc	2 293 36                        // standard.py:293:36 @[ vector_add.py:16:15 ]
     * 108:	shfl.sync.bfly.b32 	%r55, %r54, 16, 31, -1;
     * 109: $L__tmp3:
     * with .file 1 "/tmp/capture/vector_add/src/vector_add.py" and
     * .file 2 ".../triton/language/standard.py" at lines 199-200. */
    g_assert_cmpuint(tk_test_line_with(s, "// standard.py:263:15 @[", 1), ==, 98);
    for (uint32_t l = 98; l <= 105; l++)
        TK_ASSERT_LINE_STACKS(s, tab, l, CHAIN_263);
    g_assert_cmpstr(tk_test_frame_path(s, tab, 98, 0), ==, STANDARD_PY);
    g_assert_cmpstr(tk_test_frame_path(s, tab, 98, 1), ==, STANDARD_PY);
    g_assert_cmpstr(tk_test_frame_path(s, tab, 98, 2), ==, VECTOR_ADD_PY);
    TK_ASSERT_LINE_STACKS(s, tab, 106, "");
    TK_ASSERT_LINE_STACKS(s, tab, 107, CHAIN_293);
    TK_ASSERT_LINE_STACKS(s, tab, 108, CHAIN_293);
    TK_ASSERT_LINE_STACKS(s, tab, 109, "");

    /* The function's prologue:
     * 22-24: .reg declarations (before any .loc)
     * 25:	.loc	1 7 0                           // vector_add.py:7:0
     * 26: $L__func_begin0:
     * 27:	.loc	1 7 0
     * 28: (blank)   29: // %bb.0:
     * 30, 31: ld.param.b64 */
    TK_ASSERT_LINE_STACKS(s, tab, 23, "");
    TK_ASSERT_LINE_STACKS(s, tab, 25, "vector_add.py:7:0");
    TK_ASSERT_LINE_STACKS(s, tab, 26, "");
    TK_ASSERT_LINE_STACKS(s, tab, 28, "");
    TK_ASSERT_LINE_STACKS(s, tab, 29, "");
    TK_ASSERT_LINE_STACKS(s, tab, 30, "vector_add.py:7:0");
    g_assert_cmpstr(tk_test_frame_path(s, tab, 30, 0), ==, VECTOR_ADD_PY);

    /* Inline asm: 55: .loc 1 12 16, 56: "// begin inline asm", 57-61 its
     * instructions, 62: "// end inline asm", 63: "// begin inline asm",
     * 64-68, 69: "// end inline asm", 70: .loc 1 13 24. */
    TK_ASSERT_LINE_STACKS(s, tab, 56, "");
    for (uint32_t l = 57; l <= 61; l++)
        TK_ASSERT_LINE_STACKS(s, tab, l, "vector_add.py:12:16");
    TK_ASSERT_LINE_STACKS(s, tab, 62, "");
    TK_ASSERT_LINE_STACKS(s, tab, 63, "");
    TK_ASSERT_LINE_STACKS(s, tab, 64, "vector_add.py:12:16");
    TK_ASSERT_LINE_STACKS(s, tab, 69, "");

    /* 193: .loc 1 18 4, 194: ret;, then labels, "}" (198), the .file lines
     * and the DWARF sections (".b8 1 // Abbreviation Code" ...): nothing
     * after "ret;" binds. */
    TK_ASSERT_LINE_STACKS(s, tab, 194, "vector_add.py:18:4");
    g_assert_cmpuint(last_located_line(s), ==, 194);
    g_assert_true(tk_stage_has_inline_frames(s));

    tk_stage_free(s);
    tk_diags_free(d);
    tk_loctab_free(tab);
    g_free(path);
}

static void test_matmul_helper_under_if(void)
{
    if (!tk_test_have_dumps())
        return;
    char *path = tk_test_find_dump("matmul/kernel_dump", "matmul_kernel.ptx");
    tk_loctab *tab = tk_loctab_new();
    tk_diags *d = tk_diags_new();
    tk_stage *s = tk_test_read_stage(TK_STAGE_PTX, path, tab, d);
    g_assert_cmpuint(tk_test_print_diags(d), ==, 0);
    /* leaky_relu inlined under "if ACTIVATION == ...":
     * 602: $L__tmp6:
     * 603:	.loc	1 8 25                          // matmul.py:8:25 @[ matmul.py:40:33 ]
     * 604, 605: setp.ge.f32
     * 606:	.loc	1 8 38                          // matmul.py:8:38 @[ matmul.py:40:33 ]
     * 612: $L__tmp7:
     * 613:	.loc	1 41 23                         // matmul.py:41:23
     * 614:	cvt.rn.f16x2.f32 	%r201, %r200, %r199; */
    TK_ASSERT_LINE_STACKS(s, tab, 602, "");
    TK_ASSERT_LINE_STACKS(s, tab, 603, "matmul.py:8:25 <- matmul.py:40:33");
    TK_ASSERT_LINE_STACKS(s, tab, 604, "matmul.py:8:25 <- matmul.py:40:33");
    TK_ASSERT_LINE_STACKS(s, tab, 605, "matmul.py:8:25 <- matmul.py:40:33");
    TK_ASSERT_LINE_STACKS(s, tab, 606, "matmul.py:8:38 <- matmul.py:40:33");
    TK_ASSERT_LINE_STACKS(s, tab, 612, "");
    TK_ASSERT_LINE_STACKS(s, tab, 614, "matmul.py:41:23");
    g_assert_cmpstr(tk_test_frame_path(s, tab, 604, 1), ==, "/tmp/capture/matmul/src/matmul.py");
    /* 46:	.loc	2 43 17                         // standard.py:43:17 @[ matmul.py:17:27 ] */
    TK_ASSERT_LINE_STACKS(s, tab, 46, "standard.py:43:17 <- matmul.py:17:27");
    g_assert_cmpstr(tk_test_frame_path(s, tab, 46, 0), ==, STANDARD_PY);
    tk_stage_free(s);
    tk_diags_free(d);
    tk_loctab_free(tab);
    g_free(path);
}

static void test_persistent_tma(void)
{
    if (!tk_test_have_dumps())
        return;
    char *path = tk_test_find_dump("persistent_tma_matmul/kernel_dump",
                                   "matmul_tma_persistent.ptx");
    tk_loctab *tab = tk_loctab_new();
    tk_diags *d = tk_diags_new();
    tk_stage *s = tk_test_read_stage(TK_STAGE_PTX, path, tab, d);
    g_assert_cmpuint(tk_test_print_diags(d), ==, 0);
    /* 279:	.loc	1 8 26                          // persistent_tma_matmul.py:8:26 @[ persistent_tma_matmul.py:30:74 ]
     * 280:	div.s32 	%r239, %r255, %r5; */
    TK_ASSERT_LINE_STACKS(s, tab, 280,
                     "persistent_tma_matmul.py:8:26 <- persistent_tma_matmul.py:30:74");
    /* An inline asm block with braces and a label of its own, mid-function:
     * 855: {   856: .reg .pred complete;   857: waitLoop:
     * 858: mbarrier.try_wait.parity.shared.b64 complete, [%r128], %r260;
     * 859: @!complete bra.uni waitLoop;   860: }   862: // end inline asm
     * 863:	.loc	1 37 28  ...  864: shl.b32 	%r141, %r261, 14;
     * The "}" at 860 closes the asm block, not the function. */
    TK_ASSERT_LINE_STACKS(s, tab, 855, "");
    TK_ASSERT_LINE_STACKS(s, tab, 856, "");
    TK_ASSERT_LINE_STACKS(s, tab, 857, "");
    g_assert_cmpuint(tk_stage_line_stacks(s, 858, &(const tk_stack_id *){0}), ==, 1);
    TK_ASSERT_LINE_STACKS(s, tab, 860, "");
    TK_ASSERT_LINE_STACKS(s, tab, 864, "persistent_tma_matmul.py:37:28");
    /* 1224:	.loc	1 29 4  1225: ret;  ... 1229: } then .file and DWARF. */
    TK_ASSERT_LINE_STACKS(s, tab, 1225, "persistent_tma_matmul.py:29:4");
    g_assert_cmpuint(last_located_line(s), ==, 1225);
    tk_stage_free(s);
    tk_diags_free(d);
    tk_loctab_free(tab);
    g_free(path);
}

static void test_all_shared_ptx(void)
{
    if (!tk_test_have_dumps())
        return;
    int files = tk_test_read_each_shared(TK_STAGE_PTX, ".ptx");
    g_assert_cmpint(files, ==, 26); /* one per kernel, as for .llir */
}

/* ---- real lines, edited ---- */

/* Two files named standard.py: the comment's "standard.py" could be either,
 * so that frame keeps the name as written; the .loc's own frame (by index)
 * and the unique vector_add.py still get full paths. */
static void test_ambiguous_base_name(void)
{
    if (!tk_test_have_dumps())
        return;
    char *src = vector_add_ptx();
    char *ed = edit(src, "\t.section\t.debug_abbrev",
                    "\t.file\t3 \"/elsewhere/standard.py\"\n\t.section\t.debug_abbrev");
    tk_loctab *tab = tk_loctab_new();
    tk_diags *d = tk_diags_new();
    tk_stage *s = parse(ed, strlen(ed), tab, d);
    g_assert_cmpuint(tk_test_print_diags(d), ==, 0);
    TK_ASSERT_LINE_STACKS(s, tab, 99, CHAIN_263);
    g_assert_cmpstr(tk_test_frame_path(s, tab, 99, 0), ==, STANDARD_PY);
    g_assert_cmpstr(tk_test_frame_path(s, tab, 99, 1), ==, "standard.py");
    g_assert_cmpstr(tk_test_frame_path(s, tab, 99, 2), ==, VECTOR_ADD_PY);
    tk_stage_free(s);
    tk_diags_free(d);
    tk_loctab_free(tab);
    g_free(ed);
    g_free(src);
}

static void test_inlined_at_syntax(void)
{
    if (!tk_test_have_dumps())
        return;
    char *src = vector_add_ptx();
    /* 107: ".loc 2 293 36 // standard.py:293:36 @[ vector_add.py:16:15 ]"
     * in the newer form, no comment: the caller comes from inlined_at. */
    char *e1 = edit(src, "\t.loc\t2 293 36                        // standard.py:293:36 @[ vector_add.py:16:15 ]",
                    "\t.loc\t2 293 36, function_name $L__info_string0, inlined_at 1 16 15");
    /* 98: both forms, agreeing: the comment's longer chain wins. */
    char *e2 = edit(e1, "\t.loc\t2 263 15                        // standard.py:263:15",
                    "\t.loc\t2 263 15, function_name $L__info_string1, inlined_at 2 293 36 // standard.py:263:15");
    /* 110: both forms, disagreeing (294 vs 293): warning, inlined_at used. */
    char *e3 = edit(e2, "\t.loc\t2 263 15                        // standard.py:263:15",
                    "\t.loc\t2 263 15, inlined_at 2 294 36 // standard.py:263:15");
    tk_loctab *tab = tk_loctab_new();
    tk_diags *d = tk_diags_new();
    tk_stage *s = parse(e3, strlen(e3), tab, d);
    tk_test_print_diags(d);
    TK_ASSERT_LINE_STACKS(s, tab, 107, CHAIN_293);
    TK_ASSERT_LINE_STACKS(s, tab, 108, CHAIN_293);
    g_assert_cmpstr(tk_test_frame_path(s, tab, 108, 1), ==, VECTOR_ADD_PY);
    TK_ASSERT_LINE_STACKS(s, tab, 98, CHAIN_263);
    TK_ASSERT_LINE_STACKS(s, tab, 110, "standard.py:263:15 <- standard.py:294:36");
    TK_ASSERT_LINE_STACKS(s, tab, 111, "standard.py:263:15 <- standard.py:294:36");
    g_assert_cmpuint(tk_diags_count(d), ==, 1);
    g_assert_cmpuint(tk_diags_get(d, 0)->line, ==, 110);
    g_assert_nonnull(strstr(tk_diags_get(d, 0)->message, "disagree"));
    tk_stage_free(s);
    tk_diags_free(d);
    tk_loctab_free(tab);
    g_free(e3);
    g_free(e2);
    g_free(e1);
    g_free(src);
}

static void test_bad_locs(void)
{
    if (!tk_test_have_dumps())
        return;
    char *src = vector_add_ptx();
    /* 174: ".loc 1 17 14" naming file 7, which no .file declares; 183 too. */
    char *e1 = edit(src, "\t.loc\t1 17 14", "\t.loc\t7 17 14");
    char *e2 = edit(e1, "\t.loc\t1 18 26", "\t.loc\t7 18 26");
    /* 183 -> 186: ".loc 1 18 35" with a line number past 32 bits. */
    char *e3 = edit(e2, "\t.loc\t1 18 35", "\t.loc\t1 99999999999 35");
    /* 33: ".loc 1 8 24 // vector_add.py:8:24" whose comment points elsewhere. */
    char *e4 = edit(e3, "// vector_add.py:8:24", "// vector_add.py:8:25");
    /* 35: a broken chain (a "]" missing). */
    char *e5 = edit(e4, "// vector_add.py:9:24", "// vector_add.py:9:24 @[ vector_add.py:1:1");
    /* 39: a chain naming a file no .file has: kept as written. */
    char *e6 = edit(e5, "// vector_add.py:10:41", "// vector_add.py:10:41 @[ helper.py:3:2 ]");
    /* 45: line 0, the compiler's "no line": unbound, no warning. */
    char *e7 = edit(e6, "\t.loc\t1 10 28", "\t.loc\t1 0 28");
    /* 199: .file 1 with timestamp and size, which say nothing of the path. */
    char *e8 = edit(e7, "\t.file\t1 \"/tmp/capture/vector_add/src/vector_add.py\"",
                    "\t.file\t1 \"/tmp/capture/vector_add/src/vector_add.py\", 1700000000, 1234\n"
                    "\t.file\t99999999999 \"/x.py\"");
    tk_loctab *tab = tk_loctab_new();
    tk_diags *d = tk_diags_new();
    tk_stage *s = parse(e8, strlen(e8), tab, d);
    tk_test_print_diags(d);
    /* The undeclared index: reported once, at its first use; its lines do not
     * inherit the previous .loc. */
    g_assert_cmpuint(tk_test_count_diags_with(d, TK_DIAG_NOTE, "file index 7 is not declared"), ==, 1);
    for (size_t i = 0; i < tk_diags_count(d); i++)
        if (strstr(tk_diags_get(d, i)->message, "file index 7"))
            g_assert_cmpuint(tk_diags_get(d, i)->line, ==, 174);
    TK_ASSERT_LINE_STACKS(s, tab, 174, "");
    TK_ASSERT_LINE_STACKS(s, tab, 175, "");
    TK_ASSERT_LINE_STACKS(s, tab, 184, "");
    TK_ASSERT_LINE_STACKS(s, tab, 186, "");
    TK_ASSERT_LINE_STACKS(s, tab, 187, "");
    TK_ASSERT_LINE_STACKS(s, tab, 188, "");
    g_assert_cmpuint(tk_test_count_diags_with(d, TK_DIAG_NOTE, ".loc number does not fit in 32 bits"), ==, 1);
    /* A comment that disagrees with its .loc: the .loc's frame only. */
    TK_ASSERT_LINE_STACKS(s, tab, 34, "vector_add.py:8:24");
    g_assert_cmpuint(tk_test_count_diags_with(d, TK_DIAG_NOTE, "not where the .loc points"), ==, 1);
    TK_ASSERT_LINE_STACKS(s, tab, 36, "vector_add.py:9:24");
    g_assert_cmpuint(tk_test_count_diags_with(d, TK_DIAG_NOTE, "not a well-formed inline chain"), ==, 1);
    TK_ASSERT_LINE_STACKS(s, tab, 40, "vector_add.py:10:41 <- helper.py:3:2");
    g_assert_cmpstr(tk_test_frame_path(s, tab, 40, 1), ==, "helper.py");
    TK_ASSERT_LINE_STACKS(s, tab, 45, "");
    TK_ASSERT_LINE_STACKS(s, tab, 46, "");
    g_assert_cmpstr(tk_test_frame_path(s, tab, 30, 0), ==, VECTOR_ADD_PY);
    g_assert_cmpuint(tk_test_count_diags_with(d, TK_DIAG_NOTE, ".file: file index does not fit"), ==, 1);
    g_assert_cmpuint(tk_diags_count(d), ==, 5);
    g_assert_cmpuint(tk_diags_count_at_least(d, TK_DIAG_ERROR), ==, 0);
    tk_stage_free(s);
    tk_diags_free(d);
    tk_loctab_free(tab);
    g_free(e8); g_free(e7); g_free(e6); g_free(e5);
    g_free(e4); g_free(e3); g_free(e2); g_free(e1);
    g_free(src);
}

static void test_cut_mid_line(void)
{
    if (!tk_test_have_dumps())
        return;
    char *src = vector_add_ptx();
    tk_loctab *tab = tk_loctab_new();
    tk_diags *d = tk_diags_new();
    /* Cut inside the path of ".file 2 "/opt/torch/.venv/...": file 1 is
     * declared, file 2's quote is never closed. */
    const char *at = strstr(src, "/opt/torch/.venv/lib/python3.12/site-");
    g_assert_nonnull(at);
    tk_stage *s = parse(src, (size_t)(at - src) + 10, tab, d);
    tk_test_print_diags(d);
    TK_ASSERT_LINE_STACKS(s, tab, 34, "vector_add.py:8:24");
    TK_ASSERT_LINE_STACKS(s, tab, 99, "");
    g_assert_cmpuint(tk_test_count_diags_with(d, TK_DIAG_NOTE, "closing quote is missing"), ==, 1);
    g_assert_cmpuint(tk_test_count_diags_with(d, TK_DIAG_NOTE, "file index 2 is not declared"), ==, 1);
    g_assert_cmpuint(tk_diags_count(d), ==, 2);
    tk_stage_free(s);

    /* Cut inside the first chain comment: no .file at all.  Nothing binds,
     * one warning for file 1, nothing worse. */
    at = strstr(src, "// standard.py:263:15 @[ standard.py:293");
    g_assert_nonnull(at);
    tk_diags_free(d);
    d = tk_diags_new();
    s = parse(src, (size_t)(at - src) + 30, tab, d);
    tk_test_print_diags(d);
    g_assert_cmpuint(tk_stage_located_line_count(s), ==, 0);
    g_assert_cmpuint(tk_test_count_diags_with(d, TK_DIAG_NOTE, "file index 1 is not declared"), ==, 1);
    g_assert_cmpuint(tk_diags_count_at_least(d, TK_DIAG_ERROR), ==, 0);
    tk_stage_free(s);
    tk_diags_free(d);
    tk_loctab_free(tab);
    g_free(src);
}

/* ---- hand-written PTX ---- */

static void test_synthetic_forms(void)
{
    const char *src =
        ".visible .entry k(\n"                                       /* 1 */
        "\t.param .u64 k_param_0\n"                                  /* 2 */
        ")\n"                                                        /* 3 */
        "{\n"                                                        /* 4 */
        "\t.loc\t1 3 5 // a.py:3:5 @[ b b.py:7 @[ a.py:9:1 ] ]\n"    /* 5 */
        "\tmov.u32 %r1, 0;\n"                                        /* 6 */
        "\t{ // callseq 0, 0\n"                                      /* 7 */
        "\t.param .b64 param0;\n"                                    /* 8 */
        "\tcall.uni\n"                                               /* 9 */
        "\tvprintf,\n"                                               /* 10 */
        "\t(\n"                                                      /* 11 */
        "\tparam0\n"                                                 /* 12 */
        "\t);\n"                                                     /* 13 */
        "\t} // callseq 0\n"                                         /* 14 */
        "\t@%p1 ld.global.v4.b32 { %r1, %r2, %r3, %r4 }, [ %rd1 + 0 ];\n" /* 15 */
        "\t.pragma \"nounroll\";\n"                                  /* 16 */
        "LBB0_1: // loop\n"                                          /* 17 */
        "\tret; // \"{\n"                                            /* 18 */
        "}\n"                                                        /* 19 */
        "\tmov.u32 %r1, 0;\n"                                        /* 20: after the body */
        ".func f()\n"                                                /* 21 */
        "{\n"                                                        /* 22 */
        "\tmov.u32 %r1, 0;\n"                                        /* 23: before any .loc */
        "\t.loc 2 4 0\n"                                             /* 24 */
        "\tmov.u32 %r2, 0;\n"                                        /* 25 */
        "}\n"                                                        /* 26 */
        "\t.file\t1 \"/src/a.py\"\n"
        "\t.file\t2 \"/src/dir \\\"q\\\"\\\\x\\101.py\", 1, 2\n"
        "\t.file\t3 \"b b.py\"\n";
    tk_loctab *tab = tk_loctab_new();
    tk_diags *d = tk_diags_new();
    tk_stage *s = parse(src, strlen(src), tab, d);
    g_assert_cmpuint(tk_test_print_diags(d), ==, 0);
    /* A name with a blank, a caller without column. */
    const char *chain = "a.py:3:5 <- b b.py:7:0 <- a.py:9:1";
    TK_ASSERT_LINE_STACKS(s, tab, 5, chain);
    TK_ASSERT_LINE_STACKS(s, tab, 6, chain);
    g_assert_cmpstr(tk_test_frame_path(s, tab, 6, 1), ==, "b b.py");
    g_assert_cmpstr(tk_test_frame_path(s, tab, 6, 2), ==, "/src/a.py");
    /* Braces of a call sequence do not bind and do not end the body; the
     * lines of the multi-line call do bind. */
    TK_ASSERT_LINE_STACKS(s, tab, 7, "");
    TK_ASSERT_LINE_STACKS(s, tab, 8, "");
    for (uint32_t l = 9; l <= 13; l++)
        TK_ASSERT_LINE_STACKS(s, tab, l, chain);
    TK_ASSERT_LINE_STACKS(s, tab, 14, "");
    TK_ASSERT_LINE_STACKS(s, tab, 15, chain);
    TK_ASSERT_LINE_STACKS(s, tab, 16, "");
    TK_ASSERT_LINE_STACKS(s, tab, 17, "");
    TK_ASSERT_LINE_STACKS(s, tab, 18, chain);
    TK_ASSERT_LINE_STACKS(s, tab, 19, "");
    TK_ASSERT_LINE_STACKS(s, tab, 20, "");
    TK_ASSERT_LINE_STACKS(s, tab, 23, "");
    TK_ASSERT_LINE_STACKS(s, tab, 25, "dir \"q\"\\xA.py:4:0");
    g_assert_cmpstr(tk_test_frame_path(s, tab, 25, 0), ==, "/src/dir \"q\"\\xA.py");
    g_assert_true(tk_stage_has_inline_frames(s));
    tk_stage_free(s);

    /* No inline frames anywhere: the flag stays down. */
    const char *flat = "{\n.loc 1 2 3\nmov.u32 %r1, 0;\n}\n.file 1 \"/a.py\"\n";
    s = parse(flat, strlen(flat), tab, d);
    TK_ASSERT_LINE_STACKS(s, tab, 3, "a.py:2:3");
    g_assert_false(tk_stage_has_inline_frames(s));
    tk_stage_free(s);
    tk_diags_free(d);
    tk_loctab_free(tab);
}

static void test_deep_chain(void)
{
    GString *g = g_string_new("{\n.loc 1 1 1 // a.py:1:1");
    for (int i = 2; i <= 100; i++)
        g_string_append_printf(g, " @[ a.py:%d:1", i);
    for (int i = 2; i <= 100; i++)
        g_string_append(g, " ]");
    g_string_append(g, "\nret;\n}\n.file 1 \"/a.py\"\n");
    tk_loctab *tab = tk_loctab_new();
    tk_diags *d = tk_diags_new();
    tk_stage *s = parse(g->str, g->len, tab, d);
    tk_test_print_diags(d);
    const tk_stack_id *ids;
    g_assert_cmpuint(tk_stage_line_stacks(s, 3, &ids), ==, 1);
    size_t n;
    const tk_frame *f = tk_loctab_stack_frames(tab, ids[0], &n);
    /* The one frame rule (read/frames.h): the 32 innermost frames (lines
     * 1-32) and the 32 outermost (69-100, the kernel's own line last) are
     * kept, the middle dropped, with one warning naming the line. */
    g_assert_cmpuint(n, ==, 64);
    g_assert_cmpuint(f[0].line, ==, 1);
    g_assert_cmpuint(f[31].line, ==, 32);
    g_assert_cmpuint(f[32].line, ==, 69);
    g_assert_cmpuint(f[63].line, ==, 100);
    g_assert_cmpuint(tk_test_count_diags_with(d, TK_DIAG_NOTE, "36 middle frames are dropped"),
                     ==, 1);
    tk_stage_free(s);
    tk_diags_free(d);
    tk_loctab_free(tab);
    g_string_free(g, TRUE);
}

static void test_huge_line_and_garbage(void)
{
    tk_loctab *tab = tk_loctab_new();
    tk_diags *d = tk_diags_new();
    /* A 50 MB line of "{" then "}" would be the worst for brace counting; a
     * 50 MB .loc comment of "@[" the worst for chains. */
    size_t huge = 50u << 20;
    GString *g = g_string_sized_new(2 * huge + 200);
    g_string_append(g, "{\n.loc 1 1 1 // a.py:1:1");
    while (g->len < huge)
        g_string_append(g, " @[ a");
    g_string_append(g, "\nmov.u32 %r1, 0;\n");
    for (size_t i = 0; i < huge / 2; i++)
        g_string_append_c(g, '{');
    for (size_t i = 0; i < huge / 2; i++)
        g_string_append_c(g, '}');
    g_string_append(g, "\nmov.u32 %r1, 0;\n}\nmov.u32 %r1, 0;\n.file 1 \"/a.py\"\n");
    gint64 t0 = g_get_monotonic_time();
    tk_stage *s = parse(g->str, g->len, tab, d);
    g_test_message("100 MB in two lines: %.0f ms",
                   (g_get_monotonic_time() - t0) / 1000.0);
    tk_test_print_diags(d);
    /* The malformed chain is reported; the .loc's own frame holds. */
    TK_ASSERT_LINE_STACKS(s, tab, 3, "a.py:1:1");
    TK_ASSERT_LINE_STACKS(s, tab, 5, "a.py:1:1");
    TK_ASSERT_LINE_STACKS(s, tab, 7, "");
    g_assert_cmpuint(tk_diags_count(d), ==, 1);
    tk_stage_free(s);
    g_string_free(g, TRUE);

    const char *junk[] = {
        ".loc", ".loc ", ".loc 1", ".loc x y z", ".loc 1 2 3 //", ".loc 1 2 3 // @[",
        ".loc 1 2 3 // :1:2", ".loc 1 2 3 // a:1:2 @[ ]", ".loc 1 2 3 // a:1:2 ] ]",
        ".loc 1 2 3, inlined_at", ".loc 1 2 3, inlined_at 1", ".loc 1 2 3,,,, //",
        ".loc 1 2 3, inlined_at 1 99999999999 1", ".file", ".file 1", ".file 1 \"",
        ".file 1 \"\\", ".file 1 \"\\1", ".file 1 \"\"", ".file x \"a\"", "}}}}{",
        "{\n.loc 1 2 3\n.file 1 \"a\\000b\"\nx;", "\"{", "{ \"}\n.loc 1 1 1\nx;\n.file 1 \"/a\"",
    };
    for (size_t i = 0; i < G_N_ELEMENTS(junk); i++) {
        s = parse(junk[i], strlen(junk[i]), tab, d);
        tk_stage_free(s);
    }
    GRand *r = g_rand_new_with_seed(7);
    const char alphabet[] = ".loc file 0123456789 \"\\{}//@[]:,\n\tinlined_at";
    for (int round = 0; round < 300; round++) {
        char buf[512];
        size_t len = (size_t)g_rand_int_range(r, 0, sizeof buf);
        for (size_t i = 0; i < len; i++)
            buf[i] = alphabet[g_rand_int_range(r, 0, sizeof alphabet - 1)];
        s = parse(buf, len, tab, d);
        tk_stage_free(s);
    }
    g_rand_free(r);
    tk_diags_free(d);
    tk_loctab_free(tab);
}


/* ---- "::" in opcodes, line kinds ---- */

/* Hopper opcodes with "::" are instructions, never labels (issue 12).
 * persistent_tma_matmul.ptx:
 *   300:	.loc	1 40 41   // persistent_tma_matmul.py:40:41
 *   320:	fence.proxy.async.shared::cta;
 * compiled_block ..._unsafe_view_1.ptx (EFEBUXFT...):
 *   76:	.loc	1 28 44   // cjjgk6r2...py:28:44
 *   79:	createpolicy.fractional.L2::evict_last.b64 %rd3, 1.0;
 *   84:	ld.global.L1::evict_last.L2::cache_hint.v2.b32 { %r3, %r4 }, [ %rd2 + 0 ], %rd3; */
static void test_double_colon_opcodes(void)
{
    if (!tk_test_have_dumps())
        return;
    char *path = tk_test_find_dump("persistent_tma_matmul/kernel_dump",
                                   "matmul_tma_persistent.ptx");
    tk_loctab *tab = tk_loctab_new();
    tk_diags *d = tk_diags_new();
    tk_stage *s = tk_test_read_stage(TK_STAGE_PTX, path, tab, d);
    g_assert_cmpint(tk_stage_line_kind(s, 320), ==, TK_LINE_INSTRUCTION);
    TK_ASSERT_LINE_STACKS(s, tab, 320, "persistent_tma_matmul.py:40:41");
    /* 857: waitLoop:  (a label inside inline asm), 300 a .loc */
    g_assert_cmpint(tk_stage_line_kind(s, 857), ==, TK_LINE_LABEL);
    g_assert_cmpint(tk_stage_line_kind(s, 300), ==, TK_LINE_DIRECTIVE);
    g_assert_true(tk_stage_line_is_location(s, 300));
    g_assert_cmpint(tk_stage_line_kind(s, 855), ==, TK_LINE_OTHER); /* "{" */
    tk_stage_free(s);
    g_free(path);

    path = tk_test_find_dump("compiled_block/kernel_dump/EFEBUXFTQTVI7S5YXXRH6ZU2QW4VFCPL5YOYSQOG3JX573JAJHUQ",
                             "_view_1.ptx");
    s = tk_test_read_stage(TK_STAGE_PTX, path, tab, d);
    for (uint32_t l = 79; l <= 84; l += 5) {
        g_assert_cmpint(tk_stage_line_kind(s, l), ==, TK_LINE_INSTRUCTION);
        char *got = tk_test_line_stacks_string(s, tab, l);
        g_assert_true(g_str_has_suffix(got, "py:28:44"));
        g_free(got);
    }
    tk_stage_free(s);
    g_free(path);
    tk_diags_free(d);
    tk_loctab_free(tab);
}

/* Every line of every shared PTX dump holding "::" outside a comment is an
 * instruction, and bound whenever a .loc with a line governs it: the last
 * .loc before it (inside the function body: brace depth counted on the
 * lines made of braces, as the dumps print them) names a line other than 0.
 * Counted here with those few rules, not with the reader's. */
static void test_double_colon_everywhere(void)
{
    if (!tk_test_have_dumps())
        return;
    static const char *const subs[] = {"kernel_dump", "cache", NULL};
    GPtrArray *paths = tk_test_shared_files(subs, ".ptx");
    size_t lines = 0, bound = 0;
    for (guint i = 0; i < paths->len; i++) {
        tk_loctab *tab = tk_loctab_new();
        tk_diags *d = tk_diags_new();
        tk_stage *s = tk_test_read_stage(TK_STAGE_PTX, paths->pdata[i], tab, d);
        int governed = 0, depth = 0;
        for (uint32_t l = 1; l <= tk_stage_line_count(s); l++) {
            size_t len;
            const char *t = tk_stage_line(s, l, &len);
            char *line = g_strstrip(g_strndup(t, len));
            if (g_str_has_prefix(line, ".loc")) {
                unsigned f = 0, ln = 0;
                governed = sscanf(line + 4, "%u %u", &f, &ln) == 2 && ln != 0;
            } else if (strcmp(line, "{") == 0) {
                depth++;
            } else if (strcmp(line, "}") == 0) {
                if (--depth <= 0) {
                    depth = 0;
                    governed = 0;
                }
            } else if (strstr(line, "::") && !g_str_has_prefix(line, "//") &&
                       !g_str_has_prefix(line, ".")) {
                lines++;
                if (tk_stage_line_kind(s, l) != TK_LINE_INSTRUCTION)
                    g_error("%s:%u: \"%s\" is not an instruction",
                            (const char *)paths->pdata[i], l, line);
                const tk_stack_id *ids;
                size_t n = tk_stage_line_stacks(s, l, &ids);
                if (governed && n == 0)
                    g_error("%s:%u: \"%s\" is not bound", (const char *)paths->pdata[i], l, line);
                bound += n > 0;
            }
            g_free(line);
        }
        tk_stage_free(s);
        tk_diags_free(d);
        tk_loctab_free(tab);
    }
    g_test_message("%zu lines with \"::\", %zu bound", lines, bound);
    /* The lines with "::" that are no comment and no directive, counted
     * with grep over the 52 kernel_dump and cache PTX files: 180. */
    g_assert_cmpuint(lines, ==, 180);
    g_assert_cmpuint(bound, ==, lines);
    g_ptr_array_free(paths, TRUE);
}

/* tests/unit/ptx_sm90_opcodes.ptx: one real line of every opcode form
 * Triton 3.6 emitted for sm_90a in the shared dumps and the sample bundles
 * (the file says where each came from), under one .loc.  Each is an
 * instruction bound to corpus.py:1; each label form a label. */
static void test_sm90_opcode_corpus(void)
{
    char *path = tk_test_src_path("unit/ptx_sm90_opcodes.ptx");
    tk_loctab *tab = tk_loctab_new();
    tk_diags *d = tk_diags_new();
    tk_stage *s = tk_test_read_stage(TK_STAGE_PTX, path, tab, d);
    g_assert_cmpuint(tk_test_print_diags(d), ==, 0);
    enum { NONE, INSTR, LABELS } part = NONE;
    size_t n_instr = 0, n_labels = 0;
    for (uint32_t l = 1; l <= tk_stage_line_count(s); l++) {
        size_t len;
        const char *t = tk_stage_line(s, l, &len);
        char *line = g_strstrip(g_strndup(t, len));
        if (strcmp(line, "// instructions") == 0)
            part = INSTR;
        else if (strcmp(line, "// labels") == 0)
            part = LABELS;
        else if (strcmp(line, "// end") == 0)
            part = NONE;
        else if (!g_str_has_prefix(line, "//") && part == INSTR) {
            if (tk_stage_line_kind(s, l) != TK_LINE_INSTRUCTION)
                g_error("line %u \"%s\": not an instruction", l, line);
            char *got = tk_test_line_stacks_string(s, tab, l);
            if (strcmp(got, "corpus.py:1:1") != 0)
                g_error("line %u \"%s\": bound to \"%s\"", l, line, got);
            g_free(got);
            n_instr++;
        } else if (!g_str_has_prefix(line, "//") && part == LABELS) {
            g_assert_cmpint(tk_stage_line_kind(s, l), ==, TK_LINE_LABEL);
            g_assert_cmpuint(tk_stage_line_stacks(s, l, &(const tk_stack_id *){0}), ==, 0);
            n_labels++;
        }
        g_free(line);
    }
    /* 132 forms from the dumps plus 3 the issue quotes; 5 label forms. */
    g_assert_cmpuint(n_instr, ==, 135);
    g_assert_cmpuint(n_labels, ==, 5);
    g_assert_cmpuint(tk_stage_instruction_count(s), ==, 135);
    tk_stage_free(s);
    tk_diags_free(d);
    tk_loctab_free(tab);
    g_free(path);
}

/* Line kinds on hand-written PTX, and a label with "::" lookalikes. */
static void test_line_kinds(void)
{
    const char *src =
        ".visible .entry k(\n"                      /* 1 directive */
        "\t.param .u64 k_param_0\n"                 /* 2 directive */
        ")\n"                                       /* 3 other */
        "{\n"                                       /* 4 other */
        "\t.loc\t1 3 5\n"                           /* 5 directive, location */
        "$L__BB0_1:\n"                              /* 6 label */
        "\tfence.proxy.async.shared::cta;\n"        /* 7 instruction */
        "\t@%p1 bra $L__BB0_1;\n"                   /* 8 instruction */
        "x::y;\n"                                   /* 9 instruction, not a label */
        "L2: ret;\n"                                /* 10 a label and an instruction */
        "\t// a comment\n"                          /* 11 comment */
        "\n"                                        /* 12 other */
        "}\n"                                       /* 13 other */
        "\t.file\t1 \"/a.py\"\n";                   /* 14 directive, location */
    tk_loctab *tab = tk_loctab_new();
    tk_diags *d = tk_diags_new();
    tk_stage *s = parse(src, strlen(src), tab, d);
    static const tk_line_kind want[] = {
        TK_LINE_DIRECTIVE, TK_LINE_DIRECTIVE, TK_LINE_OTHER, TK_LINE_OTHER,
        TK_LINE_DIRECTIVE, TK_LINE_LABEL, TK_LINE_INSTRUCTION, TK_LINE_INSTRUCTION,
        TK_LINE_INSTRUCTION, TK_LINE_INSTRUCTION, TK_LINE_COMMENT, TK_LINE_OTHER,
        TK_LINE_OTHER, TK_LINE_DIRECTIVE};
    for (uint32_t l = 1; l <= G_N_ELEMENTS(want); l++)
        g_assert_cmpstr(tk_line_kind_name(tk_stage_line_kind(s, l)), ==,
                        tk_line_kind_name(want[l - 1]));
    g_assert_true(tk_stage_line_is_location(s, 5) && tk_stage_line_is_location(s, 14));
    g_assert_false(tk_stage_line_is_location(s, 7));
    for (uint32_t l = 7; l <= 10; l++)
        TK_ASSERT_LINE_STACKS(s, tab, l, "a.py:3:5");
    TK_ASSERT_LINE_STACKS(s, tab, 6, "");
    g_assert_cmpuint(tk_stage_instruction_count(s), ==, 4);
    g_assert_cmpint(tk_stage_line_kind(s, 0), ==, TK_LINE_OTHER);
    g_assert_cmpint(tk_stage_line_kind(s, 99), ==, TK_LINE_OTHER);
    tk_stage_free(s);
    tk_diags_free(d);
    tk_loctab_free(tab);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/reader_ptx/vector_add", test_vector_add);
    g_test_add_func("/reader_ptx/matmul-helper-under-if", test_matmul_helper_under_if);
    g_test_add_func("/reader_ptx/persistent-tma", test_persistent_tma);
    g_test_add_func("/reader_ptx/all-shared-ptx", test_all_shared_ptx);
    g_test_add_func("/reader_ptx/ambiguous-base-name", test_ambiguous_base_name);
    g_test_add_func("/reader_ptx/inlined-at", test_inlined_at_syntax);
    g_test_add_func("/reader_ptx/bad-locs", test_bad_locs);
    g_test_add_func("/reader_ptx/cut-mid-line", test_cut_mid_line);
    g_test_add_func("/reader_ptx/synthetic-forms", test_synthetic_forms);
    g_test_add_func("/reader_ptx/deep-chain", test_deep_chain);
    g_test_add_func("/reader_ptx/huge-line-garbage", test_huge_line_and_garbage);
    g_test_add_func("/reader_ptx/double-colon-opcodes", test_double_colon_opcodes);
    g_test_add_func("/reader_ptx/double-colon-everywhere", test_double_colon_everywhere);
    g_test_add_func("/reader_ptx/sm90-opcode-corpus", test_sm90_opcode_corpus);
    g_test_add_func("/reader_ptx/line-kinds", test_line_kinds);
    return g_test_run();
}
