/* test_reader_amdgcn.c - AMDGCN locations: the assembly Triton's AMD backend
 * writes (.file with two strings, .loc with words for options, inline chains
 * in the ";" comment, line 0), which lines bind, llvm-objdump's disassembly
 * of a code object, and bad input.
 *
 * The real file is sample_dumps/amd_gfx942's matmul_kernel.amdgcn (Triton
 * 3.6, gfx942, compile only); expectations were read from it by hand and are
 * quoted with their line numbers (grep -n).  Synthetic cases are its real
 * lines with one edit each. */
#include <string.h>

#include "tk_test.h"

#define STANDARD_PY \
    "/opt/torch/.venv/lib/python3.12/site-packages/triton/language/standard.py"
#define KERNEL_PY "/work/main/compiler/examples/amd/compile_gfx942.py"

/* The sample's matmul_kernel.amdgcn, or NULL (test skipped) when the
 * samples are not where the test environment says. */
static char *matmul_path(void)
{
    const char *samples = g_getenv("TK_TEST_SAMPLES");
    char *p = samples ? g_build_filename(samples, "amd_gfx942",
                                         "matmul_kernel-afb56eb9",
                                         "matmul_kernel.amdgcn", NULL)
                      : NULL;
    if (!p || !g_file_test(p, G_FILE_TEST_EXISTS)) {
        g_test_skip("sample_dumps/amd_gfx942 not found (TK_TEST_SAMPLES)");
        g_free(p);
        return NULL;
    }
    return p;
}

static tk_stage *parse(const char *src, tk_loctab *tab, tk_diags *diags)
{
    tk_stage *s = tk_stage_parse(TK_STAGE_AMDGCN, "mem.amdgcn", src,
                                 strlen(src), tab, diags);
    g_assert_nonnull(s);
    return s;
}

static void test_matmul(void)
{
    char *path = matmul_path();
    if (!path)
        return;
    tk_loctab *tab = tk_loctab_new();
    tk_diags *d = tk_diags_new();
    tk_stage *s = tk_test_read_stage(TK_STAGE_AMDGCN, path, tab, d);
    g_assert_cmpuint(tk_test_print_diags(d), ==, 0);
    g_assert_cmpuint(tk_stage_line_count(s), ==, 1365); /* wc -l */
    g_assert_true(tk_stage_has_inline_frames(s));

    /* 12:	.file	1 "/work/main/compiler/examples/amd" "compile_gfx942.py"
     * 13:	.loc	1 42 0 prologue_end             ; compile_gfx942.py:42:0
     * 14-18: s_load_dwordx2, s_load_dwordx8, s_load_dwordx4, s_waitcnt,
     *        s_branch .LBB0_0
     * 19:	.loc	1 0 0 is_stmt 0                 ; :0:0
     * 20: .Ltmp0:   21: .p2align 8   22: ; %bb.77:   23: .LBB0_0:
     * 24: .Ltmp1:
     * 25:	.loc	1 50 21 is_stmt 1               ; compile_gfx942.py:50:21
     * 26:	s_lshl_b32 s17, s17, 6 */
    for (uint32_t l = 13; l <= 18; l++)
        TK_ASSERT_LINE_STACKS(s, tab, l, "compile_gfx942.py:42:0");
    g_assert_cmpstr(tk_test_frame_path(s, tab, 13, 0), ==, KERNEL_PY);
    for (uint32_t l = 19; l <= 24; l++) /* line 0, label, directive, comment */
        TK_ASSERT_LINE_STACKS(s, tab, l, "");
    TK_ASSERT_LINE_STACKS(s, tab, 12, ""); /* .file */
    TK_ASSERT_LINE_STACKS(s, tab, 25, "compile_gfx942.py:50:21");
    TK_ASSERT_LINE_STACKS(s, tab, 26, "compile_gfx942.py:50:21");

    /* 28:	.file	2 "/opt/torch/.venv/lib/python3.12/site-packages/triton/language" "standard.py"
     * 29:	.loc	2 43 17                         ; standard.py:43:17 @[ compile_gfx942.py:55:33 ]
     * 30:	s_add_i32 s18, s10, 31
     * The caller is named by file name only; the .file table says which. */
    TK_ASSERT_LINE_STACKS(s, tab, 30, "standard.py:43:17 <- compile_gfx942.py:55:33");
    g_assert_cmpstr(tk_test_frame_path(s, tab, 30, 0), ==, STANDARD_PY);
    g_assert_cmpstr(tk_test_frame_path(s, tab, 30, 1), ==, KERNEL_PY);

    /* 66:	.loc	1 57 20 is_stmt 1               ; compile_gfx942.py:57:20
     * 67:	global_load_dwordx4 v[8:11], v[8:9], off
     * 68: .LBB0_2:
     * 69:	.loc	1 0 20 is_stmt 0                ; compile_gfx942.py:0:20
     * 70:	s_or_b64 exec, exec, s[14:15]
     * Line 0 is no line: the instruction after it has no location, though
     * the comment names the file. */
    TK_ASSERT_LINE_STACKS(s, tab, 67, "compile_gfx942.py:57:20");
    TK_ASSERT_LINE_STACKS(s, tab, 69, "");
    TK_ASSERT_LINE_STACKS(s, tab, 70, "");

    /* tl.dot (line 58) became 8 v_mfma_f32_32x32x8_f16, each after
     * ".loc 1 58 27 ; compile_gfx942.py:58:27" (lines 339, 353, 586, 602,
     * 607 for the v_mfma at 341, 355, 360, 365, 589, 604, 611, 612). */
    GArray *mfma = tk_test_lines_with(s, "v_mfma_f32_32x32x8_f16");
    g_assert_cmpuint(mfma->len, ==, 8);
    g_assert_cmpuint(g_array_index(mfma, uint32_t, 0), ==, 341);
    g_assert_cmpuint(g_array_index(mfma, uint32_t, 7), ==, 612);
    for (guint i = 0; i < mfma->len; i++)
        TK_ASSERT_LINE_STACKS(s, tab, g_array_index(mfma, uint32_t, i),
                              "compile_gfx942.py:58:27");
    g_array_free(mfma, TRUE);

    /* leaky_relu (line 38) inlined at line 62, under "if ACTIVATION":
     * 1045:	.loc	1 38 39                         ; compile_gfx942.py:38:39 @[ compile_gfx942.py:62:30 ]
     * 1046:	v_mul_f32_e32 v2, 0x3c23d70a, v4
     * 1047:	.loc	1 38 25 is_stmt 0               ; compile_gfx942.py:38:25 @[ compile_gfx942.py:62:30 ]
     * 1048:	v_cmp_le_f32_e32 vcc, 0, v4 */
    TK_ASSERT_LINE_STACKS(s, tab, 1046, "compile_gfx942.py:38:39 <- compile_gfx942.py:62:30");
    TK_ASSERT_LINE_STACKS(s, tab, 1048, "compile_gfx942.py:38:25 <- compile_gfx942.py:62:30");

    /* 1058:	.loc	1 66 4 is_stmt 0                ; compile_gfx942.py:66:4
     * 1059:	s_endpgm
     * then the kernel descriptor (.amdhsa_*), .Lfunc_end0 (1104), the
     * "; Kernel info:" comments, DWARF data, and the YAML metadata from
     * 1300 (.amdgpu_metadata) to 1363, whose "amdhsa.kernels:" (1302) reads
     * like a label: nothing after s_endpgm binds. */
    TK_ASSERT_LINE_STACKS(s, tab, 1059, "compile_gfx942.py:66:4");
    const tk_stack_id *ids;
    for (uint32_t l = 1060; l <= 1365; l++)
        g_assert_cmpuint(tk_stage_line_stacks(s, l, &ids), ==, 0);

    tk_stage_free(s);
    tk_loctab_free(tab);
    tk_diags_free(d);
    g_free(path);
}

/* ---- synthetic ---- */

static void test_file_forms(void)
{
    tk_loctab *tab = tk_loctab_new();
    tk_diags *d = tk_diags_new();
    /* Folder and name; an absolute name; an empty folder; PTX's one string. */
    tk_stage *s = parse("\t.file\t1 \"/work/k\" \"compile_gfx942.py\"\n"
                        "\t.file\t2 \"/ignored\" \"/abs/standard.py\"\n"
                        "\t.file\t3 \"\" \"rel.py\"\n"
                        "\t.file\t4 \"/one/path.py\"\n"
                        "\t.loc\t1 42 0 prologue_end ; compile_gfx942.py:42:0\n"
                        "\t.loc\t2 43 17 ; standard.py:43:17\n"
                        "\t.loc\t3 1 2\n"
                        "\t.loc\t4 5 6\n",
                        tab, d);
    g_assert_cmpuint(tk_test_print_diags(d), ==, 0);
    g_assert_cmpstr(tk_test_frame_path(s, tab, 5, 0), ==, "/work/k/compile_gfx942.py");
    g_assert_cmpstr(tk_test_frame_path(s, tab, 6, 0), ==, "/abs/standard.py");
    g_assert_cmpstr(tk_test_frame_path(s, tab, 7, 0), ==, "rel.py");
    g_assert_cmpstr(tk_test_frame_path(s, tab, 8, 0), ==, "/one/path.py");
    tk_stage_free(s);
    tk_loctab_free(tab);
    tk_diags_free(d);
}

static void test_lines_that_bind(void)
{
    tk_loctab *tab = tk_loctab_new();
    tk_diags *d = tk_diags_new();
    tk_stage *s = parse(
        "\t.file\t1 \"/w\" \"k.py\"\n"                            /* 1 */
        "\t.loc\t1 50 21 is_stmt 1 ; k.py:50:21\n"                /* 2 */
        "\ts_lshl_b32 s17, s17, 6\n"                              /* 3 */
        ".Ltmp2:\n"                                               /* 4 */
        "; %bb.1:\n"                                              /* 5 */
        "\t.p2align\t8\n"                                         /* 6 */
        "\tglobal_load_dwordx4 v[8:11], v[8:9], off\n"            /* 7 */
        "\ts_endpgm\n"                                            /* 8 */
        "\t.section\t.rodata,\"a\",@progbits\n"                   /* 9 */
        "\ts_nop 0\n"                                             /* 10 */
        "\t.loc\t1 51 1 ; k.py:51:1\n"                            /* 11 */
        ".Lfunc_end0:\n"                                          /* 12 */
        "\ts_nop 1\n"                                             /* 13 */
        "\t.amdgpu_metadata\n"                                    /* 14 */
        "amdhsa.kernels:\n"                                       /* 15 */
        "  - .agpr_count:     16\n"                               /* 16 */
        "\t.end_amdgpu_metadata\n",                               /* 17 */
        tab, d);
    g_assert_cmpuint(tk_test_print_diags(d), ==, 0);
    TK_ASSERT_LINE_STACKS(s, tab, 2, "k.py:50:21");
    TK_ASSERT_LINE_STACKS(s, tab, 3, "k.py:50:21");
    for (uint32_t l = 4; l <= 6; l++) /* label, comment, directive */
        TK_ASSERT_LINE_STACKS(s, tab, l, "");
    TK_ASSERT_LINE_STACKS(s, tab, 7, "k.py:50:21");
    TK_ASSERT_LINE_STACKS(s, tab, 8, "k.py:50:21");
    TK_ASSERT_LINE_STACKS(s, tab, 10, ""); /* after a section switch */
    TK_ASSERT_LINE_STACKS(s, tab, 11, "k.py:51:1");
    TK_ASSERT_LINE_STACKS(s, tab, 13, ""); /* after .Lfunc_end0 */
    for (uint32_t l = 14; l <= 17; l++)
        TK_ASSERT_LINE_STACKS(s, tab, l, "");
    g_assert_cmpuint(tk_stage_located_line_count(s), ==, 5);
    tk_stage_free(s);
    tk_loctab_free(tab);
    tk_diags_free(d);
}

static void test_bad_locs(void)
{
    tk_loctab *tab = tk_loctab_new();
    tk_diags *d = tk_diags_new();
    tk_stage *s = parse(
        "\t.file\t1 \"/w\" \"k.py\"\n"
        "\t.file\t2 \"/w\" \"\n"                                   /* cut */
        "\t.loc\t9 3 4\n"                                          /* no .file 9 */
        "\t.loc\t1 38 25 ; k.py:38:26 @[ k.py:62:30 ]\n"          /* chain elsewhere */
        "\t.loc\t1 99999999999 1\n"                                /* too big */
        "\t.loc\t1 38 25 ; k.py:38:25 @[ k.py:62:30 \n",          /* unclosed */
        tab, d);
    g_assert_cmpuint(tk_test_count_diags_with(d, TK_DIAG_WARNING, "closing quote"), ==, 1);
    g_assert_cmpuint(tk_test_count_diags_with(d, TK_DIAG_WARNING, "file index 9"), ==, 1);
    g_assert_cmpuint(tk_test_count_diags_with(d, TK_DIAG_WARNING, "not where the .loc points"), ==, 1);
    g_assert_cmpuint(tk_test_count_diags_with(d, TK_DIAG_WARNING, "32 bits"), ==, 1);
    g_assert_cmpuint(tk_test_count_diags_with(d, TK_DIAG_WARNING, "not a well-formed"), ==, 1);
    TK_ASSERT_LINE_STACKS(s, tab, 3, "");
    TK_ASSERT_LINE_STACKS(s, tab, 4, "k.py:38:25"); /* its own frame stays */
    TK_ASSERT_LINE_STACKS(s, tab, 5, "");
    TK_ASSERT_LINE_STACKS(s, tab, 6, "k.py:38:25");
    tk_stage_free(s);
    tk_loctab_free(tab);
    tk_diags_free(d);
}

/* Lines of "llvm-objdump-19 -d --line-numbers --mcpu=gfx942
 * add_sum_kernel.hsaco" (the sample's code object): its lines 1-9, 70-71 and
 * 144-145 (the first location in standard.py), then a second symbol made
 * up for the test (Triton's code objects hold one kernel). */
static const char disassembly[] =
    "\n"                                                                        /* 1 */
    "add_sum_kernel.hsaco:\tfile format elf64-amdgpu\n"                         /* 2 */
    "\n"                                                                        /* 3 */
    "Disassembly of section .text:\n"                                           /* 4 */
    "\n"                                                                        /* 5 */
    "0000000000001700 <add_sum_kernel>:\n"                                      /* 6 */
    "; add_sum_kernel():\n"                                                     /* 7 */
    "; /work/main/compiler/examples/amd/compile_gfx942.py:25\n"                 /* 8 */
    "\ts_load_dwordx2 s[2:3], s[0:1], 0x0                         // 000000001700: C0060080 00000000\n" /* 9 */
    "; /work/main/compiler/examples/amd/compile_gfx942.py:27\n"                 /* 10 */
    "\ts_lshl_b32 s0, s14, 10                                     // 000000001800: 8E008A0E\n" /* 11 */
    "; /opt/torch/.venv/lib/python3.12/site-packages/triton/language/standard.py:263\n" /* 12 */
    "\tv_add_f32_e32 v1, v9, v6                                   // 000000001918: 02020D09\n" /* 13 */
    "\n"                                                                        /* 14 */
    "0000000000001a00 <other>:\n"                                               /* 15 */
    "\ts_nop 0                                                    // 000000001A00: BF800000\n"; /* 16 */

static void test_disassembly(void)
{
    tk_loctab *tab = tk_loctab_new();
    tk_diags *d = tk_diags_new();
    tk_stage *s = parse(disassembly, tab, d);
    g_assert_cmpuint(tk_test_print_diags(d), ==, 0);
    g_assert_false(tk_stage_has_inline_frames(s));
    for (uint32_t l = 1; l <= 7; l++)
        TK_ASSERT_LINE_STACKS(s, tab, l, "");
    /* No column in the disassembly: 0. */
    TK_ASSERT_LINE_STACKS(s, tab, 8, "compile_gfx942.py:25:0");
    TK_ASSERT_LINE_STACKS(s, tab, 9, "compile_gfx942.py:25:0");
    g_assert_cmpstr(tk_test_frame_path(s, tab, 9, 0), ==, KERNEL_PY);
    TK_ASSERT_LINE_STACKS(s, tab, 11, "compile_gfx942.py:27:0");
    TK_ASSERT_LINE_STACKS(s, tab, 13, "standard.py:263:0");
    g_assert_cmpstr(tk_test_frame_path(s, tab, 13, 0), ==, STANDARD_PY);
    TK_ASSERT_LINE_STACKS(s, tab, 16, ""); /* another function */
    g_assert_cmpuint(tk_stage_located_line_count(s), ==, 6);
    /* The content says which AMDGCN it is, and that it is AMDGCN at all. */
    g_assert_cmpint(tk_stage_kind_sniff(disassembly, strlen(disassembly)), ==,
                    TK_STAGE_AMDGCN);
    const char *asm_head = "\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx942\"\n"
                           "\t.amdhsa_code_object_version 5\n";
    g_assert_cmpint(tk_stage_kind_sniff(asm_head, strlen(asm_head)), ==,
                    TK_STAGE_AMDGCN);
    tk_stage_free(s);
    tk_loctab_free(tab);
    tk_diags_free(d);
}

static void test_names(void)
{
    g_assert_cmpstr(tk_stage_kind_name(TK_STAGE_AMDGCN), ==, "amdgcn");
    g_assert_cmpstr(tk_stage_kind_label(TK_STAGE_AMDGCN), ==, "AMDGCN");
    g_assert_cmpstr(tk_stage_kind_label(TK_STAGE_LLIR), ==, "LLVM IR");
    g_assert_cmpstr(tk_stage_kind_label(TK_STAGE_UNKNOWN), ==, "?");
    g_assert_cmpint(tk_stage_kind_parse("AMDGCN"), ==, TK_STAGE_AMDGCN);
    g_assert_cmpint(tk_stage_kind_parse("gcn"), ==, TK_STAGE_AMDGCN);
    g_assert_cmpint(tk_stage_kind_parse("hsaco"), ==, TK_STAGE_UNKNOWN);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/reader_amdgcn/matmul", test_matmul);
    g_test_add_func("/reader_amdgcn/file-forms", test_file_forms);
    g_test_add_func("/reader_amdgcn/lines-that-bind", test_lines_that_bind);
    g_test_add_func("/reader_amdgcn/bad-locs", test_bad_locs);
    g_test_add_func("/reader_amdgcn/disassembly", test_disassembly);
    g_test_add_func("/reader_amdgcn/names", test_names);
    return g_test_run();
}
