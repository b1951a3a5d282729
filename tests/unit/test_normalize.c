/* test_normalize.c - normalization of MLIR, LLVM IR and machine code dumps,
 * and diffs of consecutive real pass dumps.
 *
 * The pass dumps are cut out of the shared captures here with the simplest
 * rule that works on them (a header line starts a dump, the next header or
 * the pass manager's chatter ends it); the expected counts were read by hand
 * from the dump text, as the comments quote. */
#include <string.h>

#include "tk_test.h"
#include "tkdump/tk_diff.h"
#include "tkdump/tk_ir_diff.h"
#include "tkdump/tk_normalize.h"

/* ---- normalization of single lines ---------------------------------- */

/* The normalized text of TEXT's lines, one per kept line, joined by "\n";
 * ignored lines show as "<ignored>". */
static char *normalized(tk_ir_dialect d, const char *text)
{
    tk_normalize *n = tk_normalize_new(d, text, strlen(text));
    g_assert_nonnull(n);
    GString *s = g_string_new(NULL);
    const tk_diff_input *in = tk_normalize_input(n);
    for (uint32_t i = 0; i < tk_normalize_line_count(n); i++) {
        uint32_t k = tk_normalize_kept_index(n, i);
        if (i)
            g_string_append_c(s, '\n');
        if (k == TK_NORMALIZE_IGNORED)
            g_string_append(s, "<ignored>");
        else {
            g_assert_cmpuint(tk_normalize_orig_index(n, k), ==, i);
            g_string_append_len(s, in->lines[k].text, (gssize)in->lines[k].len);
        }
    }
    tk_normalize_free(n);
    return g_string_free(s, FALSE);
}

static void expect_norm(tk_ir_dialect d, const char *text, const char *want)
{
    char *got = normalized(d, text);
    g_assert_cmpstr(got, ==, want);
    g_free(got);
}

/* Lines from vector_add/mlir_passes.txt (dump "Before TritonGPUCoalesce"). */
static void test_mlir_lines(void)
{
    /* Location aliases and blank lines are ignored; other aliases kept. */
    expect_norm(TK_IR_MLIR,
                "#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>\n"
                "#loc = loc(\"/tmp/capture/vector_add/src/vector_add.py\":7:0)\n"
                "#loc36 = loc(callsite(#loc1 at #loc33))\n"
                "\n"
                "   \n",
                "#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>\n"
                "<ignored>\n<ignored>\n<ignored>\n<ignored>");
    /* Arguments keep their names; their inline locations go. */
    expect_norm(TK_IR_MLIR,
                "  tt.func public @add_kernel(%x_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32} loc(\"x_ptr\"(#loc)), %n_elements: i32 {tt.divisibility = 16 : i32} loc(\"n_elements\"(#loc))) attributes {noinline = false} {",
                "tt.func public @add_kernel(%x_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n_elements: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {");
    /* Counters go: %x_4 -> %x, %mask_2 -> %mask; the constant's name,
     * which says its value, stays. */
    expect_norm(TK_IR_MLIR,
                "    %c1024_i32 = arith.constant 1024 : i32 loc(#loc1)\n"
                "    %x_4 = tt.load %x_3, %mask_2 : tensor<1024x!tt.ptr<f32>, #blocked> loc(#loc29)\n"
                "    %1 = tt.addptr %0, %offsets_1 : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked> loc(#loc16)",
                "%c1024_i32 = arith.constant 1024 : i32\n"
                "%x = tt.load %x, %mask : tensor<1024x!tt.ptr<f32>, #blocked>\n"
                "% = tt.addptr %, %offsets : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>");
    /* Block labels and block arguments with callsite locations. */
    expect_norm(TK_IR_MLIR,
                "    ^bb0(%s_10: f32 loc(callsite(#loc1 at #loc33)), %s_11: f32 loc(callsite(#loc1 at #loc33))):\n"
                "  } loc(#loc)",
                "^bb(%s: f32, %s: f32):\n}");
    /* Duplicated constants, numbered block arguments, result groups; a
     * location whose string holds parentheses; a string with "%1" and
     * "loc(" in it is text, not a name. */
    expect_norm(TK_IR_MLIR,
                "    %c0_i32_1 = arith.constant 0 : i32\n"
                "    %cst_0 = arith.constant dense<0.0> : tensor<128xf32>\n"
                "    %5:2 = scf.for %arg4 = %c0_i32 to %arg3 step %c1_i32 iter_args(%arg5 = %cst_0) -> (i32) {\n"
                "    tt.print \"%1 loc(x)\" %15#1 : i32 loc(\"a(b\"(#loc2))",
                "%c0_i32 = arith.constant 0 : i32\n"
                "%cst = arith.constant dense<0.0> : tensor<128xf32>\n"
                "%:2 = scf.for %arg = %c0_i32 to %arg step %c1_i32 iter_args(%arg = %cst) -> (i32) {\n"
                "tt.print \"%1 loc(x)\" %#1 : i32");
}

/* An alias reference compares by what the alias stands for, so a line that
 * names "#blocked" changes when #blocked's definition does, and does not
 * when the printer only renames the alias. */
static void test_mlir_alias_refs(void)
{
    const char *a = "#blocked = #ttg.blocked<{sizePerThread = [1]}>\n"
                    "#blocked1 = #ttg.blocked<{sizePerThread = [4]}>\n"
                    "  %0 = tt.splat %x : i32 -> tensor<4xi32, #blocked1>\n"
                    "  %1 = tt.splat %x : i32 -> tensor<4xi32, #blocked>\n";
    const char *b = "#blocked = #ttg.blocked<{sizePerThread = [4]}>\n"
                    "#blocked1 = #ttg.blocked<{sizePerThread = [1]}>\n"
                    "  %0 = tt.splat %x : i32 -> tensor<4xi32, #blocked>\n"
                    "  %1 = tt.splat %x : i32 -> tensor<4xi32, #blocked>\n";
    tk_normalize *na = tk_normalize_new(TK_IR_MLIR, a, strlen(a));
    tk_normalize *nb = tk_normalize_new(TK_IR_MLIR, b, strlen(b));
    const tk_diff_input *ia = tk_normalize_input(na), *ib = tk_normalize_input(nb);
    /* Line 3 uses [4] on both sides (#blocked1 in A, #blocked in B): equal.
     * Line 4 uses [1] in A and [4] in B: different, same text or not. */
    g_assert_cmpuint(ia->lines[2].len, ==, ib->lines[2].len);
    g_assert_true(memcmp(ia->lines[2].text, ib->lines[2].text, ia->lines[2].len) == 0);
    g_assert_false(ia->lines[3].len == ib->lines[3].len &&
                   memcmp(ia->lines[3].text, ib->lines[3].text, ia->lines[3].len) == 0);
    /* The definitions keep the family name. */
    g_assert_true(g_str_has_prefix(ia->lines[1].text, "#blocked = #ttg.blocked<{sizePerThread = [4]}>"));
    tk_normalize_free(na);
    tk_normalize_free(nb);
}

/* TK_NORMALIZE_EXPAND_ALIASES: the same IR printed with aliases and names
 * from locations, and without either (as Triton's pipeliner prints its
 * sub-steps), normalizes to the same lines; a changed layout still shows. */
static tk_normalize *expanded(const char *text)
{
    tk_normalize_builder *nb = tk_normalize_builder_new(TK_IR_MLIR, TK_NORMALIZE_EXPAND_ALIASES);
    const char *p = text;
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        tk_normalize_builder_add(nb, p, len);
        p += len + (e ? 1 : 0);
    }
    return tk_normalize_builder_finish(nb);
}

static void test_mlir_expand_aliases(void)
{
    const char *a = "#blocked = #ttg.blocked<{sizePerThread = [4]}>\n"
                    "#mma = #ttg.nvidia_mma<{versionMajor = 3}>\n"
                    "#loc = loc(\"x.py\":3:0)\n"
                    "  %pid = tt.get_program_id x : i32 loc(#loc)\n"
                    "  %x = tt.splat %pid : i32 -> tensor<4xi32, #blocked> loc(#loc)\n"
                    "  %y = ttg.convert_layout %x : tensor<4xi32, #ttg.dot_op<{parent = #mma}>>\n";
    const char *b = "  %0 = tt.get_program_id x : i32\n"
                    "  %1 = tt.splat %0 : i32 -> tensor<4xi32, #ttg.blocked<{sizePerThread = [4]}>>\n"
                    "  %2 = ttg.convert_layout %1 : tensor<4xi32, #ttg.dot_op<{parent = #ttg.nvidia_mma<{versionMajor = 3}>}>>\n";
    const char *c = "  %0 = tt.get_program_id x : i32\n"
                    "  %1 = tt.splat %0 : i32 -> tensor<4xi32, #ttg.blocked<{sizePerThread = [1]}>>\n"
                    "  %2 = ttg.convert_layout %1 : tensor<4xi32, #ttg.dot_op<{parent = #ttg.nvidia_mma<{versionMajor = 3}>}>>\n";
    tk_normalize *na = expanded(a), *nb = expanded(b), *nc = expanded(c);
    const tk_diff_input *ia = tk_normalize_input(na), *ib = tk_normalize_input(nb);
    const tk_diff_input *ic = tk_normalize_input(nc);
    /* The alias and #loc lines are ignored: three op lines each. */
    g_assert_cmpuint(ia->n, ==, 3);
    g_assert_cmpuint(ib->n, ==, 3);
    for (size_t i = 0; i < 3; i++) {
        g_assert_cmpuint(ia->lines[i].len, ==, ib->lines[i].len);
        g_assert_true(memcmp(ia->lines[i].text, ib->lines[i].text, ia->lines[i].len) == 0);
    }
    /* sizePerThread [4] against [1]: line 2 differs, the others do not. */
    g_assert_false(ia->lines[1].len == ic->lines[1].len &&
                   memcmp(ia->lines[1].text, ic->lines[1].text, ia->lines[1].len) == 0);
    g_assert_true(ia->lines[2].len == ic->lines[2].len &&
                  memcmp(ia->lines[2].text, ic->lines[2].text, ia->lines[2].len) == 0);
    tk_normalize_free(na);
    tk_normalize_free(nb);
    tk_normalize_free(nc);
}

/* Lines from vector_add/stderr.txt and softmax/stderr.txt. */
static void test_llvm_lines(void)
{
    expect_norm(TK_IR_LLVM,
                "define ptx_kernel void @add_kernel(ptr addrspace(1) %0, ptr addrspace(1) %1, i32 %3) #0 !dbg !4 {\n"
                "  %8 = mul i32 %7, 1024, !dbg !8\n"
                "  br i1 %45, label %46, label %138, !dbg !24\n"
                "\n"
                "47:                                               ; preds = %51, %8\n"
                "  %48 = phi i32 [ %191, %51 ], [ %9, %8 ], !dbg !11\n"
                "  %.critedge1 = icmp eq i32 %.pre12, 0\n"
                "}\n"
                "declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1\n"
                "attributes #0 = { \"nvvm.maxntid\"=\"128\" }\n"
                "!llvm.module.flags = !{!0, !1}\n"
                "!0 = !{i32 2, !\"Debug Info Version\", i32 3}\n"
                "!4 = distinct !DISubprogram(name: \"add_kernel\", linkageName: \"add_kernel\", scope: !3, file: !3, line: 7, type: !5, scopeLine: 7, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !2)\n"
                "!7 = !DILocation(line: 8, column: 24, scope: !4)",
                "define ptx_kernel void @add_kernel(ptr addrspace(1) %, ptr addrspace(1) %, i32 %) # {\n"
                "% = mul i32 %, 1024\n"
                "br i1 %, label %, label %\n"
                "<ignored>\n"
                ": ; preds = %, %\n"
                "% = phi i32 [ %, % ], [ %, % ]\n"
                "%.critedge = icmp eq i32 %.pre, 0\n"
                "}\n"
                "declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #\n"
                "attributes # = { \"nvvm.maxntid\"=\"128\" }\n"
                "!llvm.module.flags = !{!, !}\n"
                "! = !{i32 2, !\"Debug Info Version\", i32 3}\n"
                "<ignored>\n<ignored>");
    /* Inline assembly keeps its text, "%" and "$" included. */
    expect_norm(TK_IR_LLVM,
                "  %32 = call { i32, i32 } asm sideeffect \"mov.u32 $0, 0x0; // %r1\", \"=r,=r,l,b\"(ptr addrspace(1) %30, i1 %28), !dbg !13",
                "% = call { i32, i32 } asm sideeffect \"mov.u32 $0, 0x0; // %r1\", \"=r,=r,l,b\"(ptr addrspace(1) %, i1 %)");
}

/* Lines from vector_add/stderr.txt's machine code dumps. */
static void test_mir_lines(void)
{
    expect_norm(TK_IR_MIR,
                "# Machine code for function add_kernel: IsSSA, TracksLiveness\n"
                "\n"
                "bb.0 (%ir-block.6):\n"
                "  %47:b32 = INT_PTX_SREG_CTAID_x debug-location !7; vector_add.py:8:24\n"
                "  %48:b32 = SHL32_ri killed %47:b32, 10, debug-location !8; vector_add.py:9:24\n"
                "  %92:b32 = LD_i32 0, 0, 3, 3, 32, @global_smem, 0, debug-location !20 :: (load (s32) from @global_smem, align 16, addrspace 3); standard.py:293:36 @[ vector_add.py:16:15 ]\n"
                "  INLINEASM &\"@$2 st.shared.b32 [ $0 + 0 ], $1;\" [sideeffect] [attdialect], $0:[reguse:B32], %24:b32, debug-location !20; standard.py:293:36\n"
                "# End machine code for function add_kernel.",
                "# Machine code for function add_kernel: IsSSA, TracksLiveness\n"
                "<ignored>\n"
                "bb. (%ir-block.):\n"
                "%:b32 = INT_PTX_SREG_CTAID_x\n"
                "%:b32 = SHL32_ri killed %:b32, 10\n"
                "%:b32 = LD_i32 0, 0, 3, 3, 32, @global_smem, 0 :: (load (s32) from @global_smem, align 16, addrspace 3)\n"
                "INLINEASM &\"@$2 st.shared.b32 [ $0 + 0 ], $1;\" [sideeffect] [attdialect], $0:[reguse:B32], %:b32\n"
                "# End machine code for function add_kernel.");
    /* Slot indexes (and the tab lines without one get) go; from
     * persistent_tma_matmul/stderr.txt. */
    expect_norm(TK_IR_MIR,
                "0B\tbb.0 (%ir-block.8):\n"
                "\t  successors: %bb.1(0x40000000), %bb.5(0x40000000); %bb.1(50.00%), %bb.5(50.00%)\n"
                "16B\t  %582:b32 = LD_i32 0, 0, 101, 3, 32, &matmul_tma_persistent_param_5, 0 :: (dereferenceable invariant load (s32), addrspace 101)\n"
                "2112B\tbb.2..lr.ph5:",
                "bb. (%ir-block.):\n"
                "successors: %bb.(0x40000000), %bb.(0x40000000)\n"
                "%:b32 = LD_i32 0, 0, 101, 3, 32, &matmul_tma_persistent_param_5, 0 :: (dereferenceable invariant load (s32), addrspace 101)\n"
                "bb...lr.ph:");
}

/* PTX and SASS, from sample_dumps/raw/fp8_matmul_three (the stages-3
 * compile's .ptx lines 49-53, 342, 523, 696; its fusion-off twin's
 * .sass_gi lines 16-17, 154): registers and labels lose their numbers, the
 * special %ctaid.x, RZ and PT stay; indentation, locations and address
 * comments go. */
/* Hunks that are changes (not TK_HUNK_EQUAL). */
static size_t hunk_count(const tk_ir_diff *d)
{
    size_t n = 0, changes = 0;
    g_assert_nonnull(d);
    const tk_hunk *h = tk_ir_diff_hunks(d, &n);
    for (size_t i = 0; i < n; i++)
        changes += h[i].tag != TK_HUNK_EQUAL;
    return changes;
}

static void test_ptx_sass_lines(void)
{
    expect_norm(TK_IR_PTX,
                "\tmov.u32 \t%r36, %ctaid.x;\n"
                "\t.loc\t1 31 26                         // fp8_matmul_three.py:31:26\n"
                "\tshl.b32 \t%r1, %r36, 7;\n"
                "\t@%p1 bra \t$L__BB0_3;\n"
                "$L__BB0_2:                              // =>This Inner Loop Header: Depth=1\n"
                "\tfma.rn.f32 \t%r228, %r12, %r458, %r196;\n"
                "\tld.param.b64 \t%rd23, [fp8_matmul_kernel_param_0];",
                "mov.u32 \t%r, %ctaid.x;\n"
                "<ignored>\n"
                "shl.b32 \t%r, %r, 7;\n"
                "@%p bra \t$L__BB0_;\n"
                "$L__BB0_:\n"
                "fma.rn.f32 \t%r, %r, %r, %r;\n"
                "ld.param.b64 \t%rd, [fp8_matmul_kernel_param_0];");
    expect_norm(TK_IR_SASS,
                "        /*0000*/                   LDC R1, c[0x0][0x28] ;\n"
                "\t//## File \"/work/main/compiler/examples/triton/fp8_matmul_three.py\", line 32\n"
                "        /*0530*/                   ISETP.GT.AND P0, PT, R7, 0x3f, PT ;\n"
                "        /*0540*/                   UMOV UR4, URZ ;\n"
                "        .size           fp8_matmul_kernel,(.L_x_3 - fp8_matmul_kernel)",
                "LDC R, c[0x0][0x28] ;\n"
                "<ignored>\n"
                "ISETP.GT.AND P, PT, R, 0x3f, PT ;\n"
                "UMOV UR, URZ ;\n"
                ".size           fp8_matmul_kernel,(.L_x_ - fp8_matmul_kernel)");
    /* Renumbered registers are no change; a new instruction is. */
    const char *a = "\tmul.rn.f32 \t%r7, %r2, %r3;\n\tst.b32 [%rd1], %r7;\n";
    const char *b = "\tmul.rn.f32 \t%r9, %r4, %r5;\n\tst.b32 [%rd6], %r9;\n";
    const char *c = "\tmul.rn.f32 \t%r9, %r4, %r5;\n\tadd.rn.f32 \t%r8, %r9, %r4;\n\tst.b32 [%rd6], %r8;\n";
    tk_ir_diff *d = tk_ir_diff_texts(TK_IR_PTX, TK_STAGE_PTX, "a", a, strlen(a), "b", b, strlen(b), NULL);
    g_assert_cmpuint(hunk_count(d), ==, 0);
    tk_ir_diff_free(d);
    d = tk_ir_diff_texts(TK_IR_PLAIN, TK_STAGE_PTX, "a", a, strlen(a), "b", b, strlen(b), NULL);
    g_assert_cmpuint(hunk_count(d), ==, 1); /* raw: all of it */
    tk_ir_diff_free(d);
    d = tk_ir_diff_texts(TK_IR_PTX, TK_STAGE_PTX, "b", b, strlen(b), "c", c, strlen(c), NULL);
    g_assert_cmpuint(hunk_count(d), ==, 1);
    tk_ir_diff_free(d);
}

/* AMDGPU machine code, from sample_dumps/amd_gfx942's add_sum_kernel
 * passes/llvm.txt.gz (lines 42821 and 54310-54311, the latter after
 * "Register Coalescer"): subregister indices are names, not numbering;
 * a virtual register's subregister is the register's. */
static void test_mir_amdgpu_lines(void)
{
    expect_norm(TK_IR_MIR,
                "  %74:vreg_64_align2 = REG_SEQUENCE %1:vgpr_32, %subreg.sub0, killed %73:vgpr_32, %subreg.sub1, debug-location !12; compile_gfx942.py:29:24\n"
                "  undef %74.sub0:vreg_64_align2 = COPY %1:vgpr_32, debug-location !12; compile_gfx942.py:29:24\n"
                "176B\t  %74.sub1:vreg_64_align2 = COPY killed %72:vgpr_32, debug-location !12; compile_gfx942.py:29:24\n"
                "  renamable $vgpr2 = nofpexcept V_SUB_F32_e32 killed $vgpr4, killed $vgpr7, implicit $mode, implicit $exec, debug-location !26; compile_gfx942.py:33:40",
                "%:vreg_64_align2 = REG_SEQUENCE %:vgpr_32, %subreg.sub0, killed %:vgpr_32, %subreg.sub1\n"
                "undef %.sub0:vreg_64_align2 = COPY %:vgpr_32\n"
                "%.sub1:vreg_64_align2 = COPY killed %:vgpr_32\n"
                "renamable $vgpr2 = nofpexcept V_SUB_F32_e32 killed $vgpr4, killed $vgpr7, implicit $mode, implicit $exec");

    /* Renumbered registers are equal; swapped subregisters are not, and
     * "%74.sub0" is register 74: the second line uses what the first
     * defined. */
    const char *a = "# Machine code for function k: IsSSA\n"
                    "  %74:vreg_64 = REG_SEQUENCE %1:vgpr_32, %subreg.sub0, %73:vgpr_32, %subreg.sub1\n"
                    "  %80:vgpr_32 = COPY %74.sub1:vreg_64\n";
    const char *b = "# Machine code for function k: IsSSA\n"
                    "  %90:vreg_64 = REG_SEQUENCE %1:vgpr_32, %subreg.sub0, %73:vgpr_32, %subreg.sub1\n"
                    "  %91:vgpr_32 = COPY %90.sub1:vreg_64\n";
    const char *c = "# Machine code for function k: IsSSA\n"
                    "  %74:vreg_64 = REG_SEQUENCE %1:vgpr_32, %subreg.sub1, %73:vgpr_32, %subreg.sub0\n"
                    "  %80:vgpr_32 = COPY %74.sub0:vreg_64\n";
    const char *d = "# Machine code for function k: IsSSA\n"
                    "  %74:vreg_64 = REG_SEQUENCE %1:vgpr_32, %subreg.sub0, %73:vgpr_32, %subreg.sub1\n"
                    "  %80:vgpr_32 = COPY %75.sub1:vreg_64\n";
    tk_normalize *na = tk_normalize_new(TK_IR_MIR, a, strlen(a));
    const char *others[] = {b, c, d};
    const uint32_t changed[] = {0, 2, 1};
    for (size_t i = 0; i < G_N_ELEMENTS(others); i++) {
        tk_normalize *nb = tk_normalize_new(TK_IR_MIR, others[i], strlen(others[i]));
        tk_diff_stats st = tk_normalize_diff_stats(na, nb, NULL);
        g_assert_cmpuint(st.added, ==, changed[i]);
        g_assert_cmpuint(st.removed, ==, changed[i]);
        tk_normalize_free(nb);
    }
    tk_normalize_free(na);
}

static void test_sniff_and_plain(void)
{
    const char *mlir = "#loc = loc(\"a.py\":1:0)\nmodule {\n";
    const char *llvm = "; ModuleID = 'LLVMDialectModule'\nsource_filename = \"x\"\n";
    const char *mir = "# Machine code for function k: IsSSA\n\nbb.0:\n";
    g_assert_cmpint(tk_ir_dialect_sniff(mlir, strlen(mlir)), ==, TK_IR_MLIR);
    g_assert_cmpint(tk_ir_dialect_sniff(llvm, strlen(llvm)), ==, TK_IR_LLVM);
    g_assert_cmpint(tk_ir_dialect_sniff(mir, strlen(mir)), ==, TK_IR_MIR);
    g_assert_cmpint(tk_ir_dialect_sniff("hello\n", 6), ==, TK_IR_PLAIN);
    g_assert_cmpint(tk_ir_dialect_sniff(NULL, 0), ==, TK_IR_PLAIN);
    g_assert_cmpstr(tk_ir_dialect_name(TK_IR_MIR), ==, "mir");
    /* Plain: as is, but blank lines and trailing spaces. */
    expect_norm(TK_IR_PLAIN, "a %1  \n\n b\r\n", "a %1\n<ignored>\n b");
}

/* Damaged input: cut locations and strings end at the line's end, binary
 * bytes pass through, a long line is no slower than a short one per byte. */
static void test_bad_input(void)
{
    expect_norm(TK_IR_MLIR, "  %1 = x loc(\"a(b\n  %2 = y\n",
                "% = x\n% = y");
    expect_norm(TK_IR_MLIR, "  %1 = \"unterminated\n%\n^\n#", "% = \"unterminated\n%\n^\n#");
    expect_norm(TK_IR_LLVM, "!dbg !\n!12 = !DI\n%\n\"", "!dbg !\n<ignored>\n%\n\"");
    expect_norm(TK_IR_MIR, "debug-location !\n12B\n\t\n", "debug-location !\n12B\n<ignored>");
    char bin[] = "a\0b %1\xff\n\x01";
    for (int d = TK_IR_PLAIN; d <= TK_IR_MIR; d++) {
        tk_normalize *n = tk_normalize_new(d, bin, sizeof bin - 1);
        g_assert_cmpuint(tk_normalize_line_count(n), ==, 2);
        tk_normalize_free(n);
    }
    /* 8 MB on one line of values and locations. */
    GString *s = g_string_new(NULL);
    while (s->len < 8u << 20)
        g_string_append(s, "%123 = op %4, %x_5 loc(callsite(#loc1 at #loc2)) ");
    for (int d = TK_IR_PLAIN; d <= TK_IR_MIR; d++) {
        gint64 t0 = g_get_monotonic_time();
        tk_normalize *n = tk_normalize_new(d, s->str, s->len);
        g_assert_cmpuint(tk_normalize_input(n)->n, ==, 1);
        tk_diff_stats st = tk_normalize_diff_stats(n, n, NULL);
        g_assert_cmpuint(st.added + st.removed, ==, 0);
        tk_normalize_free(n);
        /* A figure, not a limit: a quadratic pass would show here, and a
         * hang is meson's timeout (speed is bench/'s, issue 25). */
        g_test_message("dialect %d: 8 MB line in %.0f ms", d,
                       (g_get_monotonic_time() - t0) / 1000.0);
    }
    g_string_free(s, TRUE);
    g_assert_null(tk_normalize_new_lines(TK_IR_MLIR, NULL, 3));
    tk_normalize *empty = tk_normalize_new(TK_IR_MLIR, NULL, 0);
    g_assert_cmpuint(tk_normalize_line_count(empty), ==, 0);
    g_assert_cmpuint(tk_normalize_kept_index(empty, 0), ==, TK_NORMALIZE_IGNORED);
    tk_normalize_free(empty);
}

/* ---- diffs of normalized dumps ---------------------------------------- */

static int collect(const tk_hunk *h, void *user)
{
    g_array_append_val((GArray *)user, *h);
    return 0;
}

static GArray *norm_hunks(const tk_normalize *a, const tk_normalize *b,
                          tk_diff_algorithm alg, unsigned flags)
{
    GArray *out = g_array_new(FALSE, FALSE, sizeof(tk_hunk));
    tk_diff_opts o = {.algorithm = alg};
    g_assert_cmpint(tk_normalize_diff(a, b, &o, flags, collect, out), ==, 0);
    return out;
}

static int kept_equal(const tk_normalize *a, uint32_t i, const tk_normalize *b, uint32_t j)
{
    const tk_diff_line *x = &tk_normalize_input(a)->lines[i];
    const tk_diff_line *y = &tk_normalize_input(b)->lines[j];
    return x->len == y->len && memcmp(x->text, y->text, x->len) == 0;
}

/* The hunk properties of tk_diff.h, over kept lines and over the dumps'
 * lines, for both algorithms; returns the kept-line stats (histogram) after
 * checking that both views count the same changed kept lines. */
static tk_diff_stats check_norm_diff(const tk_normalize *a, const tk_normalize *b,
                                     tk_diff_algorithm alg)
{
    const tk_diff_input *ia = tk_normalize_input(a), *ib = tk_normalize_input(b);
    GArray *kh = norm_hunks(a, b, alg, TK_NORMALIZE_DIFF_KEPT_LINES);
    const tk_hunk *h = (const tk_hunk *)kh->data;
    uint32_t ea = 0, eb = 0;
    for (guint k = 0; k < kh->len; k++) {
        g_assert_cmpuint(h[k].a0, ==, ea);
        g_assert_cmpuint(h[k].b0, ==, eb);
        if (k)
            g_assert_true((h[k].tag == TK_HUNK_EQUAL) != (h[k - 1].tag == TK_HUNK_EQUAL));
        uint32_t la = h[k].a1 - h[k].a0, lb = h[k].b1 - h[k].b0;
        switch (h[k].tag) {
        case TK_HUNK_EQUAL:
            g_assert_cmpuint(la, ==, lb);
            g_assert_cmpuint(la, >, 0);
            for (uint32_t i = 0; i < la; i++)
                g_assert_true(kept_equal(a, h[k].a0 + i, b, h[k].b0 + i));
            break;
        case TK_HUNK_INSERT: g_assert_true(la == 0 && lb > 0); break;
        case TK_HUNK_DELETE: g_assert_true(la > 0 && lb == 0); break;
        case TK_HUNK_REPLACE: g_assert_true(la > 0 && lb > 0); break;
        default: g_assert_not_reached();
        }
        ea = h[k].a1;
        eb = h[k].b1;
    }
    g_assert_cmpuint(ea, ==, ia->n);
    g_assert_cmpuint(eb, ==, ib->n);
    tk_diff_stats kept = tk_diff_stats_sum(h, kh->len);
    g_array_free(kh, TRUE);

    /* Over the dumps' lines: the same coverage rules, and the kept lines in
     * each hunk are the ones the kept view has there. */
    GArray *oh = norm_hunks(a, b, alg, 0);
    h = (const tk_hunk *)oh->data;
    ea = eb = 0;
    tk_diff_stats orig = {0};
    for (guint k = 0; k < oh->len; k++) {
        g_assert_cmpuint(h[k].a0, ==, ea);
        g_assert_cmpuint(h[k].b0, ==, eb);
        g_assert_cmpuint(h[k].a1, >=, h[k].a0);
        g_assert_cmpuint(h[k].b1, >=, h[k].b0);
        if (k)
            g_assert_true((h[k].tag == TK_HUNK_EQUAL) != (h[k - 1].tag == TK_HUNK_EQUAL));
        uint32_t ka = 0, kb = 0;
        uint32_t fa = UINT32_MAX, fb = UINT32_MAX;
        for (uint32_t i = h[k].a0; i < h[k].a1; i++)
            if (tk_normalize_kept_index(a, i) != TK_NORMALIZE_IGNORED) {
                if (fa == UINT32_MAX)
                    fa = tk_normalize_kept_index(a, i);
                ka++;
            }
        for (uint32_t j = h[k].b0; j < h[k].b1; j++)
            if (tk_normalize_kept_index(b, j) != TK_NORMALIZE_IGNORED) {
                if (fb == UINT32_MAX)
                    fb = tk_normalize_kept_index(b, j);
                kb++;
            }
        if (h[k].tag == TK_HUNK_EQUAL) {
            g_assert_cmpuint(ka, ==, kb);
            for (uint32_t i = 0; i < ka; i++)
                g_assert_true(kept_equal(a, fa + i, b, fb + i));
        } else {
            g_assert_true(ka + kb > 0);
            if (h[k].tag == TK_HUNK_INSERT)
                g_assert_cmpuint(h[k].a1, ==, h[k].a0);
            if (h[k].tag == TK_HUNK_DELETE)
                g_assert_cmpuint(h[k].b1, ==, h[k].b0);
            orig.removed += ka;
            orig.added += kb;
        }
        ea = h[k].a1;
        eb = h[k].b1;
    }
    g_assert_cmpuint(ea, ==, tk_normalize_line_count(a));
    g_assert_cmpuint(eb, ==, tk_normalize_line_count(b));
    g_assert_cmpuint(orig.added, ==, kept.added);
    g_assert_cmpuint(orig.removed, ==, kept.removed);
    g_array_free(oh, TRUE);
    return kept;
}

/* ---- the real dumps ----------------------------------------------------- */

typedef struct {
    char *header; /* the header line, owned */
    const char *text;
    size_t len;
} dump;

typedef struct {
    gchar *data;
    gsize len;
    GArray *dumps; /* of dump */
} dump_file;

static int starts(const char *p, const char *e, const char *lit)
{
    size_t n = strlen(lit);
    return (size_t)(e - p) >= n && memcmp(p, lit, n) == 0;
}

/* Splits FILE at lines containing HEADER; a dump also ends at the pass
 * manager's chatter and at an MLIR header inside an LLVM stderr. */
static dump_file *load_dumps(const char *rel, const char *header)
{
    char *path = tk_test_dump_path(rel);
    dump_file *f = g_new0(dump_file, 1);
    g_assert_true(g_file_get_contents(path, &f->data, &f->len, NULL));
    g_free(path);
    f->dumps = g_array_new(FALSE, FALSE, sizeof(dump));
    const char *p = f->data, *end = f->data + f->len, *cur = NULL;
    char *cur_header = NULL;
    while (p < end) {
        const char *e = memchr(p, '\n', (size_t)(end - p));
        if (!e)
            e = end;
        int is_header = g_strstr_len(p, e - p, header) != NULL;
        int stop = is_header || starts(p, e, "Running ") ||
                   starts(p, e, "Invalidating ") || starts(p, e, "Clearing ") ||
                   starts(p, e, "Skipping ") || starts(p, e, "// -----//");
        if (cur && stop) {
            dump d = {cur_header, cur, (size_t)(p - cur)};
            g_array_append_val(f->dumps, d);
            cur = NULL;
        }
        if (is_header) {
            cur = e < end ? e + 1 : end;
            cur_header = g_strndup(p, (gsize)(e - p));
        }
        p = e < end ? e + 1 : end;
    }
    if (cur) {
        dump d = {cur_header, cur, (size_t)(end - cur)};
        g_array_append_val(f->dumps, d);
    }
    return f;
}

static void free_dumps(dump_file *f)
{
    for (guint i = 0; i < f->dumps->len; i++)
        g_free(g_array_index(f->dumps, dump, i).header);
    g_array_free(f->dumps, TRUE);
    g_free(f->data);
    g_free(f);
}

static const dump *nth_dump(const dump_file *f, guint i)
{
    g_assert_cmpuint(i, <, f->dumps->len);
    return &g_array_index(f->dumps, dump, i);
}

/* Index of the NTH (from 1) dump whose header contains NEEDLE. */
static guint find_dump(const dump_file *f, const char *needle, int nth)
{
    for (guint i = 0; i < f->dumps->len; i++)
        if (strstr(nth_dump(f, i)->header, needle) && --nth == 0)
            return i;
    g_error("no dump with \"%s\"", needle);
}

static tk_normalize *norm_of(const dump *d)
{
    tk_normalize *n = tk_normalize_new(tk_ir_dialect_sniff(d->text, d->len), d->text, d->len);
    g_assert_nonnull(n);
    return n;
}

/* Line INDEX of dump D, without its line end.  Caller frees. */
static char *dump_line(const dump *d, uint32_t index)
{
    const char *p = d->text, *end = d->text + d->len;
    for (uint32_t i = 0; i < index; i++) {
        p = memchr(p, '\n', (size_t)(end - p));
        g_assert_nonnull(p);
        p++;
    }
    const char *e = memchr(p, '\n', (size_t)(end - p));
    return g_strndup(p, (gsize)((e ? e : end) - p));
}

static tk_diff_stats both_algorithms(const tk_normalize *a, const tk_normalize *b)
{
    tk_diff_stats h = check_norm_diff(a, b, TK_DIFF_HISTOGRAM);
    tk_diff_stats m = check_norm_diff(a, b, TK_DIFF_MYERS);
    g_assert_cmpuint(h.added, ==, m.added);
    g_assert_cmpuint(h.removed, ==, m.removed);
    return h;
}

/* TritonGPUCoalesce in vector_add: the dump before it (file lines 1179-1250)
 * against the dump before the next pass (1252-1333).  By hand:
 *  - a new layout line "#blocked1 = #ttg.blocked<{sizePerThread = [4], ...}>"
 *    (1 added);
 *  - "%x_4 = tt.load %x_3, %mask_2 : tensor<1024x!tt.ptr<f32>, #blocked>"
 *    became four lines: two ttg.convert_layout to #blocked1, the load
 *    "%x_6 = tt.load %x_4, %x_5 : ..., #blocked1>", and a convert_layout
 *    back to #blocked (1 removed, 4 added);
 *  - the same for the y load "%y_6 = tt.load %y_5, %mask_2" (1 removed, 4
 *    added);
 *  - "tt.store %1, %output_9, %mask_2 : ..., #blocked>" became three
 *    convert_layout lines and "tt.store %2, %3, %4 : ..., #blocked1>" (1
 *    removed, 4 added).
 * Everything else is the same once renumbered: "%y_5 = tt.addptr" is now
 * "%y_8 = tt.addptr", "%output = arith.addf %x_4, %y_6" is now
 * "%output = arith.addf %x_7, %y_12" (x_7 and y_12 take the place of the
 * loads), the reduce region's "%s_10, %s_11" are "%s_16, %s_17".  So 13
 * lines added, 3 removed, in 4 changes; the #loc lines do not count. */
static void test_coalesce_pass(void)
{
    if (!tk_test_have_dumps())
        return;
    dump_file *f = load_dumps("vector_add/mlir_passes.txt", "IR Dump Before ");
    guint i = find_dump(f, "Before TritonGPUCoalesce", 1);
    g_assert_nonnull(strstr(nth_dump(f, i + 1)->header, "Before TritonGPUF32DotTC"));
    tk_normalize *a = norm_of(nth_dump(f, i)), *b = norm_of(nth_dump(f, i + 1));
    g_assert_cmpint(tk_normalize_dialect(a), ==, TK_IR_MLIR);
    /* 72 and 82 lines between the headers, of which 40 (#loc aliases and
     * the two blank lines at the end) are ignored on each side. */
    g_assert_cmpuint(tk_normalize_line_count(a), ==, 72);
    g_assert_cmpuint(tk_normalize_line_count(b), ==, 82);
    g_assert_cmpuint(tk_normalize_input(a)->n, ==, 32);
    g_assert_cmpuint(tk_normalize_input(b)->n, ==, 42);
    tk_diff_stats s = both_algorithms(a, b);
    g_assert_cmpuint(s.added, ==, 13);
    g_assert_cmpuint(s.removed, ==, 3);
    g_assert_cmpuint(s.changes, ==, 4);

    /* The changes, over the dumps' lines, in order. */
    GArray *hs = norm_hunks(a, b, TK_DIFF_HISTOGRAM, 0);
    const char *want_a[] = {NULL, "%x_4 = tt.load %x_3, %mask_2", "%y_6 = tt.load %y_5, %mask_2",
                            "tt.store %1, %output_9, %mask_2"};
    const char *want_b[] = {"#blocked1 = #ttg.blocked<{sizePerThread = [4]",
                            "%x_4 = ttg.convert_layout %x_3", "%y_9 = ttg.convert_layout %y_8",
                            "%2 = ttg.convert_layout %1"};
    int c = 0;
    for (guint k = 0; k < hs->len; k++) {
        const tk_hunk *h = &g_array_index(hs, tk_hunk, k);
        if (h->tag == TK_HUNK_EQUAL)
            continue;
        g_assert_cmpint(c, <, 4);
        g_assert_cmpint(h->tag, ==, c == 0 ? TK_HUNK_INSERT : TK_HUNK_REPLACE);
        if (want_a[c]) {
            g_assert_cmpuint(h->a1 - h->a0, ==, 1);
            char *l = dump_line(nth_dump(f, i), h->a0);
            g_assert_nonnull(strstr(l, want_a[c]));
            g_free(l);
        }
        g_assert_cmpuint(h->b1 - h->b0, ==, c == 0 ? 1 : 4);
        char *l = dump_line(nth_dump(f, i + 1), h->b0);
        g_assert_nonnull(strstr(l, want_b[c]));
        g_free(l);
        c++;
    }
    g_assert_cmpint(c, ==, 4);
    g_array_free(hs, TRUE);
    tk_normalize_free(a);
    tk_normalize_free(b);
    free_dumps(f);
}

/* The first TritonGPURemoveLayoutConversions in vector_add (file lines
 * 1418-1499 against 1501-1573) is where "#blocked" goes from
 * sizePerThread = [1] to [4]: the printer swaps the two alias names
 *   before: #blocked = ...[1]..., #blocked1 = ...[4]...
 *   after:  #blocked = ...[4]..., #blocked1 = ...[1]...
 * and the pass removes the convert_layouts Coalesce added.  Counted by hand
 * over the 42 and 33 kept lines:
 *  - alias lines: one of the two definitions matches (the [4] one, or the
 *    [1] one), so 1 removed, 1 added;
 *  - "%offsets = tt.make_range ..." through "%s = tt.reshape ..." (19 lines
 *    before, 13 after): every line names a layout, and each one's layout
 *    changed ([1] -> [4]: make_range, splat, addi, the mask, x and y
 *    splat/addptr, addf; the reshape "#blocked -> #blocked" is now
 *    "#blocked -> #blocked1", i.e. [4] -> [1]) or the line went (the eight
 *    convert_layouts) or its operands did (the loads now take %mask_2):
 *    19 removed, 13 added;
 *  - the reduce "%s_13 = "tt.reduce"(%s)", its region, and
 *    "}) : (tensor<1024xf32, #blocked>) -> f32", now "#blocked1>": both [1],
 *    equal;
 *  - "%output_14 = tt.splat" through "tt.store %2, %3, %4" (8 lines before,
 *    5 after: two splats and the subf on [1] -> [4], the store pointers'
 *    splat/addptr, the three convert_layouts gone, the store on %1): 8
 *    removed, 5 added.
 * Total 28 removed, 19 added, 4 changes. */
static void test_layout_swap_pass(void)
{
    if (!tk_test_have_dumps())
        return;
    dump_file *f = load_dumps("vector_add/mlir_passes.txt", "IR Dump Before ");
    guint i = find_dump(f, "Before TritonGPURemoveLayoutConversions", 1);
    tk_normalize *a = norm_of(nth_dump(f, i)), *b = norm_of(nth_dump(f, i + 1));
    g_assert_cmpuint(tk_normalize_input(a)->n, ==, 42);
    g_assert_cmpuint(tk_normalize_input(b)->n, ==, 33);
    tk_diff_stats s = both_algorithms(a, b);
    g_assert_cmpuint(s.removed, ==, 28);
    g_assert_cmpuint(s.added, ==, 19);
    g_assert_cmpuint(s.changes, ==, 4);
    /* "    %offsets = tt.make_range {end = 1024 : i32, start = 0 : i32} :
     * tensor<1024xi32, #blocked> loc(#loc25)" is the same text in both
     * dumps, and changed. */
    char *la = dump_line(nth_dump(f, i), 16), *lb = dump_line(nth_dump(f, i + 1), 16);
    g_assert_nonnull(strstr(la, "%offsets = tt.make_range"));
    g_assert_cmpstr(la, ==, lb);
    uint32_t ka = tk_normalize_kept_index(a, 16), kb = tk_normalize_kept_index(b, 16);
    g_assert_false(kept_equal(a, ka, b, kb));
    g_free(la);
    g_free(lb);
    tk_normalize_free(a);
    tk_normalize_free(b);
    free_dumps(f);
}

/* Passes that change nothing: the module-level Canonicalizer after
 * TritonRewriteTensorPointer (file lines 675-745 against 747-817, the same
 * text) gives one equal hunk over both dumps. */
static void test_unchanged_pass(void)
{
    if (!tk_test_have_dumps())
        return;
    dump_file *f = load_dumps("vector_add/mlir_passes.txt", "IR Dump Before ");
    guint i = find_dump(f, "Before Canonicalizer (canonicalize) ('builtin.module'", 1);
    g_assert_nonnull(strstr(nth_dump(f, i - 1)->header, "TritonRewriteTensorPointer"));
    tk_normalize *a = norm_of(nth_dump(f, i)), *b = norm_of(nth_dump(f, i + 1));
    GArray *hs = norm_hunks(a, b, TK_DIFF_HISTOGRAM, 0);
    g_assert_cmpuint(hs->len, ==, 1);
    tk_hunk h = g_array_index(hs, tk_hunk, 0);
    g_assert_cmpint(h.tag, ==, TK_HUNK_EQUAL);
    g_assert_cmpuint(h.a1, ==, tk_normalize_line_count(a));
    g_assert_cmpuint(h.b1, ==, tk_normalize_line_count(b));
    g_array_free(hs, TRUE);
    tk_diff_stats s = both_algorithms(a, b);
    g_assert_cmpuint(s.added + s.removed + s.changes, ==, 0);
    tk_normalize_free(a);
    tk_normalize_free(b);
    free_dumps(f);
}

/* What the printer would print had a pass inserted one op: TEXT with LINE
 * inserted before the first line starting with BEFORE, and every value
 * number N >= FROM renumbered N + 1 (for SUFFIX: the "_N" of named values,
 * Triton's counter; otherwise "%N" and LLVM labels "N:").  Caller frees. */
typedef struct {
    int from;
    gboolean suffix;
} renumber;

static gboolean renumber_cb(const GMatchInfo *m, GString *out, gpointer user)
{
    const renumber *r = user;
    char *all = g_match_info_fetch(m, 0);
    char *pre = g_match_info_fetch(m, 1), *num = g_match_info_fetch(m, 2);
    int n = atoi(num);
    if (n >= r->from)
        g_string_append_printf(out, "%s%d", pre, n + 1);
    else
        g_string_append(out, all);
    g_free(all);
    g_free(pre);
    g_free(num);
    return FALSE;
}

static char *insert_op(const char *text, size_t len, const char *before,
                       const char *line, renumber r)
{
    char *t = g_strndup(text, len);
    char *at = strstr(t, before);
    g_assert_nonnull(at);
    GRegex *re = g_regex_new(r.suffix ? "(%[A-Za-z_][A-Za-z0-9_]*_)([0-9]+)\\b"
                                      : "(%|^)([0-9]+)\\b",
                             G_REGEX_MULTILINE, 0, NULL);
    /* The lines before and after the new one are renumbered; it is not. */
    char *head = g_regex_replace_eval(re, t, at - t, 0, 0, renumber_cb, &r, NULL);
    char *tail = g_regex_replace_eval(re, at, -1, 0, 0, renumber_cb, &r, NULL);
    g_regex_unref(re);
    char *out = g_strconcat(head, line, tail, NULL);
    g_free(head);
    g_free(tail);
    g_free(t);
    return out;
}

static void expect_one_inserted(const dump *d, const char *before,
                                const char *line, renumber r)
{
    char *text = insert_op(d->text, d->len, before, line, r);
    tk_ir_dialect dia = tk_ir_dialect_sniff(d->text, d->len);
    tk_normalize *a = tk_normalize_new(dia, d->text, d->len);
    tk_normalize *b = tk_normalize_new(dia, text, strlen(text));
    g_assert_cmpuint(tk_normalize_line_count(b), ==, tk_normalize_line_count(a) + 1);
    tk_diff_stats s = both_algorithms(a, b);
    g_assert_cmpuint(s.added, ==, 1);
    g_assert_cmpuint(s.removed, ==, 0);
    g_assert_cmpuint(s.changes, ==, 1);
    tk_normalize_free(a);
    tk_normalize_free(b);
    g_free(text);
}

/* One op inserted: every value after it renumbered, one line inserted. */
static void test_insert_one_op(void)
{
    if (!tk_test_have_dumps())
        return;
    dump_file *f = load_dumps("vector_add/mlir_passes.txt", "IR Dump Before ");
    /* The LLVM-dialect module before CSE numbers its values %0 to %41 and
     * names the rest "%s_108"...: a constant inserted before
     * "    %5 = llvm.mlir.constant(-1 : i32) : i32 loc(#loc1)" shifts %5 to
     * %41 by one. */
    const dump *d = nth_dump(f, find_dump(f, "Before CSE (cse)", 3));
    g_assert_nonnull(strstr(d->text, "    %5 = llvm.mlir.constant(-1 : i32) : i32 loc(#loc1)\n"));
    expect_one_inserted(d, "    %5 = llvm.mlir.constant(-1 : i32)",
                        "    %5 = llvm.mlir.constant(7 : i32) : i32 loc(#loc1)\n",
                        (renumber){5, FALSE});
    /* A named op: "%offsets_2 = ..." inserted before "%offsets_2 = llvm.urem
     * %offsets_1, %12" moves Triton's counter for every later name
     * (%offsets_2 -> _3, ..., %mask_19 -> _20, %x_20 -> _21, ...). */
    expect_one_inserted(d, "    %offsets_2 = llvm.urem",
                        "    %offsets_2 = llvm.add %offsets_1, %14 : i32 loc(#loc26)\n",
                        (renumber){2, TRUE});
    /* TTGIR: a duplicate of "%c1024_i32 = arith.constant 1024 : i32" under a
     * new name; nothing else moves. */
    d = nth_dump(f, find_dump(f, "Before TritonGPUCoalesce", 1));
    expect_one_inserted(d, "    %pid = tt.get_program_id",
                        "    %c1024_i32_0 = arith.constant 1024 : i32 loc(#loc1)\n",
                        (renumber){1000000, FALSE});
    free_dumps(f);

    /* LLVM IR with labels and phis: softmax's 30th LLVM dump has blocks
     * "47:", "51:" and "207:"; an instruction inserted before
     * "  %20 = " renumbers every value and label from 20 up. */
    f = load_dumps("softmax/stderr.txt", "*** IR Dump After");
    guint k = 0;
    for (guint i = 0, n = 0; i < f->dumps->len; i++)
        if (strstr(nth_dump(f, i)->header, "; *** IR Dump After") && ++n == 30)
            k = i;
    d = nth_dump(f, k);
    g_assert_nonnull(strstr(d->text, "\n47:  "));
    g_assert_nonnull(strstr(d->text, "phi i32"));
    g_assert_nonnull(strstr(d->text, "\n  %20 = "));
    expect_one_inserted(d, "  %20 = ", "  %20 = add i32 0, 0\n", (renumber){20, FALSE});
    free_dumps(f);
}

/* A use rewired from one of two identical values to the other is a change,
 * though the normalized lines are the same text. */
/* tk_normalize_digest(): equal exactly when tk_normalize_diff() sees no
 * change.  The same program with other locations and other value numbers
 * (two captures) has one digest; the rewired use of test_rewired_use
 * below, whose lines are the same text once numbers go, has another. */
static void test_digest(void)
{
    const char *a = "  tt.func @f() {\n"
                    "    %0 = arith.addi %x, %y : i32 loc(#loc3)\n"
                    "    %1 = arith.addi %x, %y : i32 loc(#loc3)\n"
                    "    %2 = arith.muli %0, %z : i32 loc(#loc4)\n"
                    "    tt.return %1 : i32\n  }\n"
                    "#loc3 = loc(\"/tmp/capture/a/k.py\":3:5)\n";
    const char *renumbered = "  tt.func @f() {\n"
                             "    %7 = arith.addi %x, %y : i32 loc(#loc9)\n"
                             "\n"
                             "    %8 = arith.addi %x, %y : i32 loc(#loc9)\n"
                             "    %9 = arith.muli %7, %z : i32 loc(#loc2)\n"
                             "    tt.return %8 : i32\n  }\n"
                             "#loc9 = loc(\"/home/other/k.py\":3:5)\n";
    const char *rewired = "  tt.func @f() {\n"
                          "    %0 = arith.addi %x, %y : i32\n"
                          "    %1 = arith.addi %x, %y : i32\n"
                          "    %2 = arith.muli %1, %z : i32\n"
                          "    tt.return %1 : i32\n  }\n";
    tk_normalize *na = tk_normalize_new(TK_IR_MLIR, a, strlen(a));
    tk_normalize *nr = tk_normalize_new(TK_IR_MLIR, renumbered, strlen(renumbered));
    tk_normalize *nw = tk_normalize_new(TK_IR_MLIR, rewired, strlen(rewired));
    tk_diff_stats s = tk_normalize_diff_stats(na, nr, NULL);
    g_assert_cmpuint(s.added + s.removed, ==, 0);
    g_assert_cmpuint(tk_normalize_digest(na), ==, tk_normalize_digest(nr));
    s = tk_normalize_diff_stats(na, nw, NULL);
    g_assert_cmpuint(s.added + s.removed, ==, 2);
    g_assert_cmpuint(tk_normalize_digest(na), !=, tk_normalize_digest(nw));
    g_assert_cmpuint(tk_normalize_digest(na), !=, 0);
    tk_normalize_free(na);
    tk_normalize_free(nr);
    tk_normalize_free(nw);
}

static void test_rewired_use(void)
{
    const char *a = "  tt.func @f() {\n"
                    "    %0 = arith.addi %x, %y : i32\n"
                    "    %1 = arith.addi %x, %y : i32\n"
                    "    %2 = arith.muli %0, %z : i32\n"
                    "    tt.return %1 : i32\n  }\n";
    const char *b = "  tt.func @f() {\n"
                    "    %0 = arith.addi %x, %y : i32\n"
                    "    %1 = arith.addi %x, %y : i32\n"
                    "    %2 = arith.muli %1, %z : i32\n"
                    "    tt.return %1 : i32\n  }\n";
    tk_normalize *na = tk_normalize_new(TK_IR_MLIR, a, strlen(a));
    tk_normalize *nb = tk_normalize_new(TK_IR_MLIR, b, strlen(b));
    /* The lines match as text; the muli names %0 in A where B's paired
     * value is %1 (and %1 is already paired with %1): replaced.  And the
     * return, naming %1 = %1, stays equal. */
    GArray *hs = norm_hunks(na, nb, TK_DIFF_HISTOGRAM, 0);
    g_assert_cmpuint(hs->len, ==, 3);
    tk_hunk h = g_array_index(hs, tk_hunk, 1);
    g_assert_cmpint(h.tag, ==, TK_HUNK_REPLACE);
    g_assert_cmpuint(h.a0, ==, 3);
    g_assert_cmpuint(h.a1, ==, 4);
    g_array_free(hs, TRUE);
    tk_diff_stats s = both_algorithms(na, nb);
    g_assert_cmpuint(s.added, ==, 1);
    g_assert_cmpuint(s.removed, ==, 1);
    tk_normalize_free(na);
    tk_normalize_free(nb);

    /* Values are per function: %0 of @f and %0 of @g are not one value, so
     * pairing one does not constrain the other. */
    const char *c = "  tt.func @f() {\n    %0 = arith.addi %x, %y : i32\n  }\n"
                    "  tt.func @g() {\n    %0 = arith.addi %x, %y : i32\n    tt.return %0 : i32\n  }\n";
    const char *d = "  tt.func @f() {\n    %1 = arith.addi %x, %y : i32\n  }\n"
                    "  tt.func @g() {\n    %0 = arith.addi %x, %y : i32\n    tt.return %0 : i32\n  }\n";
    na = tk_normalize_new(TK_IR_MLIR, c, strlen(c));
    nb = tk_normalize_new(TK_IR_MLIR, d, strlen(d));
    s = both_algorithms(na, nb);
    g_assert_cmpuint(s.added + s.removed, ==, 0);
    tk_normalize_free(na);
    tk_normalize_free(nb);
}

/* MLIR reuses a name in sibling regions: each definition is its own value,
 * used until the next definition of the name. */
static void test_sibling_regions(void)
{
    const char *a = "  tt.func @f() {\n"
                    "    %0 = scf.if %c -> (i32) {\n"
                    "      %x = arith.addi %a, %b : i32\n"
                    "      scf.yield %x : i32\n"
                    "    } else {\n"
                    "      %x = arith.subi %a, %b : i32\n"
                    "      scf.yield %x : i32\n"
                    "    }\n  }\n";
    const char *b = "  tt.func @f() {\n"
                    "    %0 = scf.if %c -> (i32) {\n"
                    "      %x_1 = arith.addi %a, %b : i32\n"
                    "      scf.yield %x_1 : i32\n"
                    "    } else {\n"
                    "      %x = arith.subi %a, %b : i32\n"
                    "      scf.yield %x : i32\n"
                    "    }\n  }\n";
    tk_normalize *na = tk_normalize_new(TK_IR_MLIR, a, strlen(a));
    tk_normalize *nb = tk_normalize_new(TK_IR_MLIR, b, strlen(b));
    /* A's first %x is B's %x_1; A's second %x is B's %x: no change. */
    tk_diff_stats s = both_algorithms(na, nb);
    g_assert_cmpuint(s.added + s.removed, ==, 0);
    tk_normalize_free(na);
    tk_normalize_free(nb);
}

/* The line of dump D at INDEX contains NEEDLE. */
static void assert_line(const dump *d, uint32_t index, const char *needle)
{
    char *l = dump_line(d, index);
    if (!strstr(l, needle))
        g_error("line %u is \"%s\", not \"%s\"", index, l, needle);
    g_free(l);
}

/* Index of the NTH (from 1) line of dump D containing NEEDLE. */
static uint32_t line_with(const dump *d, const char *needle, int nth)
{
    const char *p = d->text, *end = d->text + d->len;
    for (uint32_t i = 0; p < end; i++) {
        const char *e = memchr(p, '\n', (size_t)(end - p));
        if (!e)
            e = end;
        if (g_strstr_len(p, e - p, needle) && --nth == 0)
            return i;
        p = e + 1;
    }
    g_error("no line with \"%s\"", needle);
}

/* The Canonicalizer after TritonGPUPipeline in persistent_tma_matmul folds
 * "%12:3 = scf.if %true -> (i32, i32, i32) {" away: its then-branch
 *   "%group_id = arith.divsi %start_pid, %num_pid_in_group" ...
 *   "%offs_bn = arith.muli %pid_n_13, %c128_i32"
 * moves up one level (and is renumbered: "%group_size_m_11" becomes
 * "%group_size_m_7", a name B also uses in an earlier, closed region), and
 * the yields and the else-branch go:
 *   "scf.yield %offs_am, %offs_bn, %start_pid", "} else {",
 *   "scf.yield %c0_i32, %c0_i32, %4", "} loc(#loc2)".
 * So: the scf.if line deleted alone, the ten lines equal, then those four
 * deleted. */
static void test_region_folded(void)
{
    if (!tk_test_have_dumps())
        return;
    dump_file *f = load_dumps("persistent_tma_matmul/mlir_passes.txt", "IR Dump Before ");
    guint i = find_dump(f, "Before TritonGPUPipeline", 1) + 1;
    const dump *da = nth_dump(f, i), *db = nth_dump(f, i + 1);
    g_assert_nonnull(strstr(da->header, "Before Canonicalizer"));
    tk_normalize *a = norm_of(da), *b = norm_of(db);
    uint32_t if_line = line_with(da, "%12:3 = scf.if %true", 1);
    uint32_t min_a = line_with(da, "%group_size_m_11 = arith.minsi", 1);
    uint32_t min_b = line_with(db, "%group_size_m_7 = arith.minsi", 2);
    GArray *hs = norm_hunks(a, b, TK_DIFF_HISTOGRAM, TK_NORMALIZE_DIFF_KEPT_LINES);
    uint32_t kif = tk_normalize_kept_index(a, if_line);
    uint32_t ka = tk_normalize_kept_index(a, min_a), kb = tk_normalize_kept_index(b, min_b);
    guint k = 0;
    while (g_array_index(hs, tk_hunk, k).a1 <= kif)
        k++;
    tk_hunk h = g_array_index(hs, tk_hunk, k);
    g_assert_cmpint(h.tag, ==, TK_HUNK_DELETE);
    g_assert_cmpuint(h.a0, ==, kif);
    g_assert_cmpuint(h.a1, ==, kif + 1);
    h = g_array_index(hs, tk_hunk, k + 1);
    g_assert_cmpint(h.tag, ==, TK_HUNK_EQUAL);
    g_assert_cmpuint(h.a1 - h.a0, ==, 10);
    g_assert_true(h.a0 <= ka && ka < h.a1);
    g_assert_cmpuint(kb - h.b0, ==, ka - h.a0);
    assert_line(da, tk_normalize_orig_index(a, h.a1 - 1), "%offs_bn = arith.muli %pid_n_13");
    h = g_array_index(hs, tk_hunk, k + 2);
    g_assert_cmpint(h.tag, ==, TK_HUNK_DELETE);
    g_assert_cmpuint(h.a1 - h.a0, ==, 4);
    assert_line(da, tk_normalize_orig_index(a, h.a0), "scf.yield %offs_am, %offs_bn, %start_pid");
    assert_line(da, tk_normalize_orig_index(a, h.a0 + 3), "} loc(#loc2)");
    g_array_free(hs, TRUE);
    tk_normalize_free(a);
    tk_normalize_free(b);
    free_dumps(f);
}

/* Every consecutive pair of vector_add's MLIR pass dumps, and 20 of its LLVM
 * dumps: hunks well-formed in both views, both algorithms. */
static void test_all_pairs_well_formed(void)
{
    if (!tk_test_have_dumps())
        return;
    dump_file *f = load_dumps("vector_add/mlir_passes.txt", "IR Dump Before ");
    /* 73 "// -----// IR Dump Before" headers in the file. */
    g_assert_cmpuint(f->dumps->len, ==, 73);
    guint changed = 0;
    for (guint i = 0; i + 1 < f->dumps->len; i++) {
        tk_normalize *a = norm_of(nth_dump(f, i)), *b = norm_of(nth_dump(f, i + 1));
        tk_diff_stats h = check_norm_diff(a, b, TK_DIFF_HISTOGRAM);
        check_norm_diff(a, b, TK_DIFF_MYERS);
        changed += h.changes > 0;
        tk_normalize_free(a);
        tk_normalize_free(b);
    }
    /* By `diff` of the raw text, 15 consecutive pairs differ at all (pairs
     * 1 2 4 5 13 14 17 54 57 58 59 60 62 63 64 counting from 0); none of
     * them differs only by numbering, so all 15 show changes. */
    g_assert_cmpuint(changed, ==, 15);
    free_dumps(f);

    f = load_dumps("vector_add/stderr.txt", "*** IR Dump After");
    guint first = find_dump(f, "; *** IR Dump After Annotation2MetadataPass", 1);
    for (guint i = first; i < first + 20; i++) {
        tk_normalize *a = norm_of(nth_dump(f, i)), *b = norm_of(nth_dump(f, i + 1));
        g_assert_cmpint(tk_normalize_dialect(a), ==, TK_IR_LLVM);
        check_norm_diff(a, b, TK_DIFF_HISTOGRAM);
        check_norm_diff(a, b, TK_DIFF_MYERS);
        tk_normalize_free(a);
        tk_normalize_free(b);
    }
    /* And the machine code dumps at the end. */
    guint mir = find_dump(f, "# *** IR Dump After NVPTX DAG->DAG Pattern Instruction Selection", 1);
    for (guint i = mir; i + 1 < f->dumps->len; i++) {
        tk_normalize *a = norm_of(nth_dump(f, i)), *b = norm_of(nth_dump(f, i + 1));
        g_assert_cmpint(tk_normalize_dialect(a), ==, TK_IR_MIR);
        check_norm_diff(a, b, TK_DIFF_HISTOGRAM);
        tk_normalize_free(a);
        tk_normalize_free(b);
    }
    free_dumps(f);
}

/* EarlyCSE on vector_add (stderr.txt lines 1585-1768, "After SROAPass on
 * add_kernel", against 1770-1936, "After EarlyCSEPass on add_kernel"): the
 * first change is the two identity ops
 *   "%13 = shl i32 %11, 0, !dbg !9" and "%14 = or i32 0, %13, !dbg !9"
 * going (2 removed, nothing added); the line after them,
 * "%15 = shl i32 %12, 5", is now "%13 = shl i32 %12, 5": the same op,
 * renumbered, equal.  (The next one, "%16 = or i32 %14, %15", is now
 * "%14 = or i32 %11, %13": it took %11 in place of the removed %14, a
 * change.) */
static void test_llvm_pass(void)
{
    if (!tk_test_have_dumps())
        return;
    dump_file *f = load_dumps("vector_add/stderr.txt", "*** IR Dump After");
    guint i = find_dump(f, "; *** IR Dump After SROAPass on add_kernel", 1);
    g_assert_nonnull(strstr(nth_dump(f, i + 1)->header, "EarlyCSEPass on add_kernel"));
    tk_normalize *a = norm_of(nth_dump(f, i)), *b = norm_of(nth_dump(f, i + 1));
    GArray *hs = norm_hunks(a, b, TK_DIFF_HISTOGRAM, 0);
    tk_hunk h0 = g_array_index(hs, tk_hunk, 0), h1 = g_array_index(hs, tk_hunk, 1);
    g_assert_cmpint(h0.tag, ==, TK_HUNK_EQUAL);
    g_assert_cmpint(h1.tag, ==, TK_HUNK_DELETE);
    g_assert_cmpuint(h1.a1 - h1.a0, ==, 2);
    char *l = dump_line(nth_dump(f, i), h1.a0);
    g_assert_cmpstr(l, ==, "  %13 = shl i32 %11, 0, !dbg !9");
    g_free(l);
    tk_hunk h2 = g_array_index(hs, tk_hunk, 2), h3 = g_array_index(hs, tk_hunk, 3);
    g_assert_cmpint(h2.tag, ==, TK_HUNK_EQUAL);
    g_assert_cmpuint(h2.a1 - h2.a0, ==, 1);
    l = dump_line(nth_dump(f, i), h2.a0);
    g_assert_cmpstr(l, ==, "  %15 = shl i32 %12, 5, !dbg !9");
    g_free(l);
    l = dump_line(nth_dump(f, i + 1), h2.b0);
    g_assert_cmpstr(l, ==, "  %13 = shl i32 %12, 5, !dbg !9");
    g_free(l);
    g_assert_cmpint(h3.tag, ==, TK_HUNK_REPLACE);
    l = dump_line(nth_dump(f, i), h3.a0);
    g_assert_cmpstr(l, ==, "  %16 = or i32 %14, %15, !dbg !9");
    g_free(l);
    g_array_free(hs, TRUE);
    tk_normalize_free(a);
    tk_normalize_free(b);
    free_dumps(f);
}

/* A dump given line by line to a builder that keeps hashes only: each line
 * is copied into one scratch buffer that the next line overwrites (so a
 * table that kept a pointer into a line would read garbage), and must give
 * what tk_normalize_new() gives on the whole text: the same lines kept,
 * with the same hashes, and the same hunks against the next dump. */
static tk_normalize *norm_by_lines(const dump *d)
{
    tk_normalize_builder *nb = tk_normalize_builder_new(tk_ir_dialect_sniff(d->text, d->len),
                                                        TK_NORMALIZE_HASHES_ONLY);
    char *scratch = NULL;
    size_t cap = 0;
    const char *p = d->text, *end = d->text + d->len;
    while (p < end) {
        const char *e = memchr(p, '\n', (size_t)(end - p));
        if (!e)
            e = end;
        size_t n = (size_t)(e - p);
        if (n + 1 > cap) {
            cap = n + 1;
            scratch = g_realloc(scratch, cap);
        }
        memcpy(scratch, p, n);
        tk_normalize_builder_add(nb, scratch, n);
        memset(scratch, 'X', n);
        p = e + 1;
    }
    g_free(scratch);
    tk_normalize *norm = tk_normalize_builder_finish(nb);
    g_assert_nonnull(norm);
    return norm;
}

static void assert_same_norm(const tk_normalize *x, const tk_normalize *y)
{
    const tk_diff_input *a = tk_normalize_input(x), *b = tk_normalize_input(y);
    g_assert_null(b->lines);
    g_assert_cmpuint(tk_normalize_line_count(x), ==, tk_normalize_line_count(y));
    g_assert_cmpuint(a->n, ==, b->n);
    for (uint32_t k = 0; k < a->n; k++) {
        g_assert_cmpuint(a->hashes[k], ==, b->hashes[k]);
        g_assert_cmpuint(tk_normalize_orig_index(x, k), ==, tk_normalize_orig_index(y, k));
    }
}

static void assert_same_hunks(const tk_normalize *a, const tk_normalize *b,
                              const tk_normalize *a2, const tk_normalize *b2)
{
    GArray *x = norm_hunks(a, b, TK_DIFF_HISTOGRAM, TK_NORMALIZE_DIFF_KEPT_LINES);
    GArray *y = norm_hunks(a2, b2, TK_DIFF_HISTOGRAM, TK_NORMALIZE_DIFF_KEPT_LINES);
    g_assert_cmpuint(x->len, ==, y->len);
    g_assert_cmpmem(x->data, x->len * sizeof(tk_hunk), y->data, y->len * sizeof(tk_hunk));
    g_array_free(x, TRUE);
    g_array_free(y, TRUE);
}

static void test_builder_hashes_only(void)
{
    if (!tk_test_have_dumps())
        return;
    const char *files[][2] = {{"vector_add/mlir_passes.txt", "IR Dump Before "},
                              {"vector_add/stderr.txt", "*** IR Dump After"}};
    for (guint f_i = 0; f_i < G_N_ELEMENTS(files); f_i++) {
        dump_file *f = load_dumps(files[f_i][0], files[f_i][1]);
        tk_normalize *prev = NULL, *prev2 = NULL;
        for (guint i = 0; i < f->dumps->len; i++) {
            tk_normalize *a = norm_of(nth_dump(f, i)), *a2 = norm_by_lines(nth_dump(f, i));
            assert_same_norm(a, a2);
            if (prev && tk_normalize_dialect(prev) == tk_normalize_dialect(a))
                assert_same_hunks(prev, a, prev2, a2);
            tk_normalize_free(prev);
            tk_normalize_free(prev2);
            prev = a;
            prev2 = a2;
        }
        tk_normalize_free(prev);
        tk_normalize_free(prev2);
        free_dumps(f);
    }
}

/* sample_dumps/add_sum_mlir, llvm.txt.gz: the module dump at line 1459
 * defines `@add_sum(...) local_unnamed_addr #0 !dbg !9`; InlinerPass's dump
 * of add_sum alone (line 1819) prints the same function with `#1 !dbg !4`,
 * LLVM numbering a function printed alone afresh.  Put back into the module
 * (TK_TIMELINE_WHOLE_UNITS) it compares equal, as the function alone does:
 * attribute groups and metadata inside a function are numbered in it.
 * Within the function they still name values: two uses of one group made
 * two groups is a change. */
static char *with_groups(const char *t, char x, char y)
{
    char *s = g_strdup(t);
    for (char *p = s; *p; p++)
        if (p[0] == '#' && (p[1] == 'X' || p[1] == 'Y'))
            p[1] = p[1] == 'X' ? x : y;
    return s;
}

static void test_llvm_function_numbering(void)
{
    const char *mod = "define internal fastcc float @add(float %0, float %1) unnamed_addr #0 !dbg !4 {\n"
                      "  %3 = fadd float %0, %1, !dbg !7\n"
                      "  ret float %3, !dbg !8\n"
                      "}\n"
                      "\n"
                      "define void @add_sum(ptr %0, ptr %1, ptr %2, ptr %3) local_unnamed_addr #X !dbg !9 {\n"
                      "  %5 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x() #Y, !dbg !10\n"
                      "  ret void, !dbg !23\n"
                      "}\n"
                      "\n"
                      "attributes #0 = { \"target-cpu\"=\"sm_90\" }\n"
                      "attributes #1 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) \"target-cpu\"=\"sm_90\" }\n";
    char *a = with_groups(mod, '0', '0'), *b = with_groups(mod, '1', '1');
    char *c = with_groups(mod, '0', '1');
    tk_normalize *na = tk_normalize_new(TK_IR_LLVM, a, strlen(a));
    tk_normalize *nb = tk_normalize_new(TK_IR_LLVM, b, strlen(b));
    tk_normalize *nc = tk_normalize_new(TK_IR_LLVM, c, strlen(c));
    tk_diff_stats s = tk_normalize_diff_stats(na, nb, NULL);
    g_assert_cmpuint(s.added + s.removed, ==, 0);
    g_assert_cmpuint(tk_normalize_digest(na), ==, tk_normalize_digest(nb));
    s = tk_normalize_diff_stats(na, nc, NULL);
    g_assert_cmpuint(s.added + s.removed, >, 0);
    g_assert_cmpuint(tk_normalize_digest(na), !=, tk_normalize_digest(nc));
    tk_normalize_free(na);
    tk_normalize_free(nb);
    tk_normalize_free(nc);
    g_free(a);
    g_free(b);
    g_free(c);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/normalize/mlir-lines", test_mlir_lines);
    g_test_add_func("/normalize/mlir-alias-refs", test_mlir_alias_refs);
    g_test_add_func("/normalize/mlir-expand-aliases", test_mlir_expand_aliases);
    g_test_add_func("/normalize/llvm-lines", test_llvm_lines);
    g_test_add_func("/normalize/llvm-function-numbering", test_llvm_function_numbering);
    g_test_add_func("/normalize/mir-lines", test_mir_lines);
    g_test_add_func("/normalize/ptx-sass-lines", test_ptx_sass_lines);
    g_test_add_func("/normalize/mir-amdgpu-lines", test_mir_amdgpu_lines);
    g_test_add_func("/normalize/sniff-plain", test_sniff_and_plain);
    g_test_add_func("/normalize/bad-input", test_bad_input);
    g_test_add_func("/normalize/rewired-use", test_rewired_use);
    g_test_add_func("/normalize/digest", test_digest);
    g_test_add_func("/normalize/sibling-regions", test_sibling_regions);
    g_test_add_func("/normalize/region-folded", test_region_folded);
    g_test_add_func("/normalize/coalesce", test_coalesce_pass);
    g_test_add_func("/normalize/layout-swap", test_layout_swap_pass);
    g_test_add_func("/normalize/unchanged", test_unchanged_pass);
    g_test_add_func("/normalize/insert-one-op", test_insert_one_op);
    g_test_add_func("/normalize/llvm-pass", test_llvm_pass);
    g_test_add_func("/normalize/all-pairs", test_all_pairs_well_formed);
    g_test_add_func("/normalize/builder-hashes-only", test_builder_hashes_only);
    return g_test_run();
}
