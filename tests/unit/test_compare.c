/* test_compare.c - two compilations compared pass by pass (tk_compare.h)
 * and a kernel's configuration (tk_config.h), on sample_dumps/matmul_configs
 * (one matmul in three configurations), the shared autotuned_matmul capture
 * and two small hand-written pass dump files.
 *
 * Expected values were read from the dumps (zcat, grep -n, sed) and the
 * sources; each test quotes the lines.  tests/e2e/test_compare.py checks the
 * first divergences again with a comparison of its own, written in Python.
 */
#include <glib/gstdio.h>
#include <string.h>

#include "tk_test.h"
#include "tkdump/tk_bundle_load.h"
#include "tkdump/tk_compare.h"

#define A TK_COMPARE_A
#define B TK_COMPARE_B

static tk_bundle *load_sample(const char *name)
{
    char *p = g_build_filename(g_getenv("TK_TEST_SAMPLES"), name, NULL);
    tk_bundle *b = tk_bundle_load(p, NULL, NULL);
    g_assert_nonnull(b);
    g_free(p);
    return b;
}

static const tk_kernel *kernel(const tk_bundle *b, const char *spec)
{
    const tk_kernel *k = tk_bundle_find_kernel(b, spec, NULL);
    g_assert_nonnull(k);
    return k;
}

static const tk_compare_row *first_row(const tk_compare *cmp, size_t *row)
{
    *row = tk_compare_first_divergence(cmp, NULL);
    g_assert_cmpuint(*row, !=, TK_COMPARE_NONE);
    return tk_compare_row_get(cmp, *row);
}

/* The rows before ROW all compare their outputs equal, and every row is a
 * pass both ran (the configurations run the same pipeline). */
static void same_until(const tk_compare *cmp, size_t row)
{
    for (size_t i = 0; i < tk_compare_row_count(cmp); i++) {
        const tk_compare_row *r = tk_compare_row_get(cmp, i);
        g_assert_cmpint(r->align, ==, TK_COMPARE_BOTH);
        g_assert_cmpuint(r->pass[A], ==, i);
        g_assert_cmpuint(r->pass[B], ==, i);
        if (i < row)
            g_assert_cmpint(r->output, ==, TK_COMPARE_SAME);
    }
}

/* matmul_configs: 01cca3c5 (4 warps, 3 stages) against 0cfc4f76 (4 warps,
 * 2 stages).  Both mlir.txt.gz have 72 Before dumps with the same headers;
 * the first whose text differs once locations go is dump 31, the Before
 * dump of TritonGPUScheduleLoops at line 6979, so the output of pass 30,
 * TritonGPUAssignLatencies: at line 7052 of both,
 *   A: %a_53 = tt.load %a_ptrs_47, %a_52, %cst_0 {tt.latency = 2 : i32} ...
 *   B: %a_53 = tt.load %a_ptrs_47, %a_52, %cst_0 {tt.latency = 1 : i32} ...
 * the latency the pipeliner gives the loads from num_stages. */
static void test_num_stages(void)
{
    tk_bundle *b = load_sample("matmul_configs");
    tk_compare *cmp = tk_compare_build(b, kernel(b, "01cca3c5"), b, kernel(b, "0cfc4f76"),
                                       NULL, NULL);
    g_assert_cmpuint(tk_compare_row_count(cmp), ==, 72);
    size_t row;
    const tk_compare_row *r = first_row(cmp, &row);
    g_assert_cmpuint(row, ==, 30);
    g_assert_cmpstr(r->name, ==, "TritonGPUAssignLatencies");
    g_assert_cmpstr(r->arg, ==, "tritongpu-assign-latencies");
    g_assert_cmpint(r->level, ==, TK_PASS_LEVEL_TTGIR);
    g_assert_cmpint(r->input, ==, TK_COMPARE_SAME);
    g_assert_cmpint(r->effect, ==, TK_COMPARE_DIFFERENT);
    same_until(cmp, row);

    /* The IR after it, side by side: the latency line differs. */
    tk_diags *d = tk_diags_new();
    tk_ir_diff *diff = tk_compare_diff_row(cmp, row, TK_TL_OUTPUT, NULL, d);
    g_assert_nonnull(diff);
    tk_diff_stats st = tk_ir_diff_stats(diff);
    g_assert_cmpuint(st.added, >=, 1);
    size_t n;
    const tk_hunk *h = tk_ir_diff_hunks(diff, &n);
    gboolean saw = FALSE;
    for (size_t i = 0; i < n; i++) {
        if (h[i].tag == TK_HUNK_EQUAL)
            continue;
        size_t len;
        uint32_t line;
        const char *t = tk_ir_diff_kept_line(diff, TK_IR_A, h[i].a0, &len, &line);
        if (t && g_strstr_len(t, (gssize)len, "{tt.latency = 2 : i32}") && line == 7052 - 6979)
            saw = TRUE;
    }
    g_assert_true(saw);
    tk_ir_diff_free(diff);
    /* Before it the two are the same text. */
    diff = tk_compare_diff_row(cmp, row, TK_TL_INPUT, NULL, d);
    g_assert_nonnull(diff);
    st = tk_ir_diff_stats(diff);
    g_assert_cmpuint(st.added + st.removed, ==, 0);
    tk_ir_diff_free(diff);
    tk_diags_free(d);

    /* Configuration: matmul_kernel.json says "num_stages": 3 and 2,
     * "shared": 36864 and 24576; the same tiles, from the source's
     *   36    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
     * and the TTIR's %offs_m_2 = tt.make_range {end = 128 : i32, ...}. */
    const tk_config *ca = tk_compare_config(cmp, A), *cb = tk_compare_config(cmp, B);
    g_assert_cmpint(tk_config_find(ca, "num_stages")->number, ==, 3);
    g_assert_cmpint(tk_config_find(cb, "num_stages")->number, ==, 2);
    g_assert_cmpint(tk_config_find(ca, "shared_bytes")->number, ==, 36864);
    g_assert_cmpint(tk_config_find(cb, "shared_bytes")->number, ==, 24576);
    const tk_config_item *bm = tk_config_find(ca, "BLOCK_M");
    g_assert_nonnull(bm);
    g_assert_cmpint(bm->origin, ==, TK_CONFIG_TILE);
    g_assert_cmpint(bm->number, ==, 128);
    g_assert_cmpint(tk_config_find(ca, "BLOCK_N")->number, ==, 64);
    g_assert_cmpint(tk_config_find(cb, "BLOCK_K")->number, ==, 32);
    /* The TTIR's signature: "%a_ptr: !tt.ptr<f16> {tt.divisibility = 16 :
     * i32} loc("a_ptr"(#loc))", the location left out. */
    const tk_config_item *arg = tk_config_find(ca, "%a_ptr");
    g_assert_nonnull(arg);
    g_assert_cmpstr(arg->value, ==, "!tt.ptr<f16> {tt.divisibility = 16 : i32}");

    /* Final stages: the .ttir files are the same once locations go (both
     * 12156 bytes, made before num_stages matters); the .ttgir differ. */
    g_assert_cmpint(tk_compare_final_stage(cmp, TK_STAGE_TTIR)->verdict, ==, TK_COMPARE_SAME);
    g_assert_cmpint(tk_compare_final_stage(cmp, TK_STAGE_TTGIR)->verdict, ==,
                    TK_COMPARE_DIFFERENT);

    /* SASS of line 43 (a = tl.load(...)): instructions after a
     * `//## File ".../matmul_configs.py", line 43` comment, counted in
     * each .sass_gi: 54 in A, 39 in B (awk over the address-tagged lines of
     * each such block).  The 33 and 27 comment lines themselves are not
     * instructions and are not counted. */
    size_t nl;
    const tk_compare_line *lines = tk_compare_lines(cmp, &nl);
    const tk_compare_line *l43 = NULL;
    for (size_t i = 0; i < nl; i++)
        if (g_str_has_suffix(lines[i].file, "/matmul_configs.py") && lines[i].line == 43)
            l43 = &lines[i];
    g_assert_nonnull(l43);
    g_assert_cmpuint(l43->sass[A], ==, 54);
    g_assert_cmpuint(l43->sass[B], ==, 39);
    tk_compare_free(cmp);
    tk_bundle_free(b);
}

/* 01cca3c5 (4 warps) against b4f5182e (8 warps): dump 13, the Before dump
 * of TritonGPUCoalesce at line 3385, is the first to differ, at line 3386:
 *   A: #blocked = #ttg.blocked<{..., warpsPerCTA = [2, 2], order = [1, 0]}>
 *   B: #blocked = #ttg.blocked<{..., warpsPerCTA = [4, 2], order = [1, 0]}>
 * so the output of pass 12, ConvertTritonToTritonGPU, where TTIR gets its
 * layouts from num_warps. */
static int gather(const tk_timeline *tl, const tk_timeline_step *st, void *user)
{
    (void)tl;
    tk_compare_digests_step(user, st);
    return 0;
}

/* tk_compare_build_from(): the same pair as num-stages, A's timeline built
 * here (as the HTML report builds it) and lent, B's built by the
 * comparison; the same first divergence (pass 30, TritonGPUAssignLatencies,
 * read above), and the lent timeline is still the caller's after
 * tk_compare_free(). */
static void test_lent_timeline(void)
{
    tk_bundle *b = load_sample("matmul_configs");
    const tk_kernel *ka = kernel(b, "01cca3c5");
    tk_timeline_part *parts;
    size_t n = tk_timeline_parts_of_kernel(b, ka, &parts, NULL);
    g_assert_cmpuint(n, >, 0);
    tk_timeline_opts o = {.flags = TK_TIMELINE_WHOLE_UNITS};
    tk_compare_digests *dig = tk_compare_digests_new();
    tk_timeline *tl = tk_timeline_build_steps(parts, n, ka, &o, gather, dig, NULL);
    g_free(parts);
    g_assert_nonnull(tl);
    g_assert_cmpuint(tk_timeline_count(tl), ==, 72);
    tk_compare *cmp = tk_compare_build_from(b, ka, tl, dig, b, kernel(b, "0cfc4f76"), NULL,
                                            NULL, NULL, NULL);
    tk_compare_digests_free(dig); /* copied */
    g_assert_true(tk_compare_timeline(cmp, A) == tl);
    g_assert_nonnull(tk_compare_timeline(cmp, B));
    g_assert_cmpuint(tk_compare_row_count(cmp), ==, 72);
    size_t row;
    const tk_compare_row *r = first_row(cmp, &row);
    g_assert_cmpuint(row, ==, 30);
    g_assert_cmpstr(r->name, ==, "TritonGPUAssignLatencies");
    g_assert_cmpint(r->effect, ==, TK_COMPARE_DIFFERENT);
    same_until(cmp, row);
    tk_ir_diff *diff = tk_compare_diff_row(cmp, row, TK_TL_OUTPUT, NULL, NULL);
    g_assert_nonnull(diff);
    g_assert_cmpuint(tk_ir_diff_stats(diff).added, >=, 1);
    tk_ir_diff_free(diff);
    tk_compare_free(cmp);
    g_assert_cmpuint(tk_timeline_count(tl), ==, 72); /* not freed with it */
    tk_timeline_free(tl);
    tk_bundle_free(b);
}

/* The text of line LINE of SIDE of D, kept line by kept line (caller
 * frees); NULL when no kept line has that number. */
static char *numbered_line(const tk_ir_diff *d, int side, uint32_t line)
{
    for (uint32_t k = 0; k < tk_ir_diff_kept_count(d, side); k++) {
        size_t len;
        uint32_t n;
        const char *t = tk_ir_diff_kept_line(d, side, k, &len, &n);
        if (t && n == line)
            return g_strndup(t, len);
    }
    return NULL;
}

/* D and E have the same hunks. */
static void same_hunks(const tk_ir_diff *d, const tk_ir_diff *e)
{
    size_t nd, ne;
    const tk_hunk *hd = tk_ir_diff_hunks(d, &nd), *he = tk_ir_diff_hunks(e, &ne);
    g_assert_cmpuint(nd, ==, ne);
    g_assert_cmpint(memcmp(hd, he, nd * sizeof *hd), ==, 0);
}

/* tk_timeline_texts: the report's comparisons of one kernel against two
 * others share its texts.  A = 01cca3c5's timeline, lent to two
 * comparisons and kept in TEXTS: against 0cfc4f76 at row 30
 * (TritonGPUAssignLatencies, read above) the diff from kept texts is the
 * one tk_compare_diff_row() makes, and line 73 of each side (dump line
 * 7052, 73 under the Before dump at 6979) reads
 *   A: %a_53 = tt.load ... {tt.latency = 2 : i32} ...
 *   B: %a_53 = tt.load ... {tt.latency = 1 : i32} ...
 * Against b4f5182e (8 warps; its line 7052 also says latency 2) A's text
 * comes from the store.  A diff outlives the store it was made from. */
static void test_kept_texts(void)
{
    tk_bundle *b = load_sample("matmul_configs");
    const tk_kernel *ka = kernel(b, "01cca3c5");
    tk_timeline_part *parts;
    size_t n = tk_timeline_parts_of_kernel(b, ka, &parts, NULL);
    tk_timeline_opts o = {.flags = TK_TIMELINE_WHOLE_UNITS};
    tk_compare_digests *dig = tk_compare_digests_new();
    tk_timeline *tl = tk_timeline_build_steps(parts, n, ka, &o, gather, dig, NULL);
    g_free(parts);
    g_assert_nonnull(tl);
    tk_compare *c1 = tk_compare_build_from(b, ka, tl, dig, b, kernel(b, "0cfc4f76"), NULL, NULL,
                                           NULL, NULL);
    tk_compare *c2 = tk_compare_build_from(b, ka, tl, dig, b, kernel(b, "b4f5182e"), NULL, NULL,
                                           NULL, NULL);
    tk_compare_digests_free(dig);
    tk_timeline_texts *texts = tk_timeline_texts_new((size_t)64 << 20);
    tk_timeline_texts_keep(texts, tl, 1);

    tk_ir_diff *plain = tk_compare_diff_row(c1, 30, TK_TL_OUTPUT, NULL, NULL);
    tk_ir_diff *kept = tk_compare_diff_row_kept(c1, texts, 30, TK_TL_OUTPUT, NULL, NULL);
    g_assert_nonnull(plain);
    g_assert_nonnull(kept);
    same_hunks(plain, kept);
    g_assert_cmpstr(tk_ir_diff_name(kept, TK_IR_A), ==, tk_ir_diff_name(plain, TK_IR_A));
    char *la = numbered_line(kept, TK_IR_A, 73), *lb = numbered_line(kept, TK_IR_B, 73);
    g_assert_nonnull(strstr(la, "%a_53 = tt.load %a_ptrs_47, %a_52, %cst_0 {tt.latency = 2 : i32}"));
    g_assert_nonnull(strstr(lb, "%a_53 = tt.load %a_ptrs_47, %a_52, %cst_0 {tt.latency = 1 : i32}"));
    g_free(la);
    g_free(lb);
    tk_ir_diff_free(plain);
    tk_ir_diff_free(kept);

    /* The other pair: A's text again, from the store. */
    plain = tk_compare_diff_row(c2, 30, TK_TL_OUTPUT, NULL, NULL);
    kept = tk_compare_diff_row_kept(c2, texts, 30, TK_TL_OUTPUT, NULL, NULL);
    g_assert_nonnull(kept);
    same_hunks(plain, kept);
    tk_ir_diff_free(plain);
    /* no longer kept: the store's copy goes, the diff keeps its own */
    tk_timeline_texts_keep(texts, tl, 0);
    tk_timeline_texts_free(texts);
    la = numbered_line(kept, TK_IR_A, 73);
    lb = numbered_line(kept, TK_IR_B, 73);
    g_assert_nonnull(strstr(la, "{tt.latency = 2 : i32}"));
    g_assert_nonnull(strstr(lb, "%a_53 = tt.load %a_ptrs_47, %a_52, %cst_0 {tt.latency = 2 : i32}"));
    g_free(la);
    g_free(lb);
    tk_ir_diff_free(kept);

    /* A store that keeps nothing (no room) still gives the diff. */
    texts = tk_timeline_texts_new(0);
    tk_timeline_texts_keep(texts, tl, 1);
    kept = tk_compare_diff_row_kept(c1, texts, 30, TK_TL_OUTPUT, NULL, NULL);
    plain = tk_compare_diff_row(c1, 30, TK_TL_OUTPUT, NULL, NULL);
    same_hunks(plain, kept);
    tk_ir_diff_free(plain);
    tk_ir_diff_free(kept);
    tk_timeline_texts_free(texts);
    tk_compare_free(c1);
    tk_compare_free(c2);
    tk_timeline_free(tl);
    tk_bundle_free(b);
}

static void test_num_warps(void)
{
    tk_bundle *b = load_sample("matmul_configs");
    tk_compare *cmp = tk_compare_build(b, kernel(b, "01cca3c5"), b, kernel(b, "b4f5182e"),
                                       NULL, NULL);
    size_t row;
    const tk_compare_row *r = first_row(cmp, &row);
    g_assert_cmpuint(row, ==, 12);
    g_assert_cmpstr(r->name, ==, "ConvertTritonToTritonGPU");
    g_assert_cmpint(r->level, ==, TK_PASS_LEVEL_TTIR);
    g_assert_cmpint(r->input, ==, TK_COMPARE_SAME);
    same_until(cmp, row);
    g_assert_cmpint(tk_config_find(tk_compare_config(cmp, B), "num_warps")->number, ==, 8);
    tk_compare_free(cmp);
    tk_bundle_free(b);
}

/* A kernel against itself: no divergence; every row the same, the last
 * LLVM-dialect pass aside (LLVMDIScope: no dump after it).  The first LLVM
 * IR dump (Annotation2MetadataPass, nothing comparable before it) and the
 * first machine code dump (nvptx-isel) still compare: their texts are read
 * for the digest. */
static void test_itself(void)
{
    if (!tk_test_have_dumps())
        return;
    char *dir = tk_test_dump_path("autotuned_matmul");
    tk_bundle *b = tk_bundle_load(dir, NULL, NULL);
    g_free(dir);
    const tk_kernel *k = tk_bundle_kernel(b, 0);
    tk_compare *cmp = tk_compare_build(b, k, b, k, NULL, NULL);
    size_t unknown;
    g_assert_cmpuint(tk_compare_first_divergence(cmp, &unknown), ==, TK_COMPARE_NONE);
    g_assert_cmpuint(unknown, ==, 1);
    gboolean saw_isel = FALSE, saw_annotation = FALSE;
    for (size_t i = 0; i < tk_compare_row_count(cmp); i++) {
        const tk_compare_row *r = tk_compare_row_get(cmp, i);
        if (strcmp(r->name, "LLVMDIScope") == 0) {
            g_assert_cmpint(r->output, ==, TK_COMPARE_UNKNOWN);
            continue;
        }
        g_assert_cmpint(r->output, ==, TK_COMPARE_SAME);
        saw_isel |= strcmp(r->arg, "nvptx-isel") == 0;
        saw_annotation |= strcmp(r->name, "Annotation2MetadataPass") == 0;
    }
    g_assert_true(saw_isel && saw_annotation);
    tk_compare_free(cmp);
    tk_bundle_free(b);
}

/* autotuned_matmul: configurations with other tiles start from different
 * TTIR.  mlir_passes.txt's first dump of the 8-warp compile (448532f3,
 * BLOCK 128x128x64) makes `tt.make_range {end = 64 ...}` for rk, the
 * 4-warp 2-stage one (a5fca209, 128x64x32) `{end = 32 ...}`: the first
 * divergence is the first pass, whose input already differs. */
static void test_autotuned(void)
{
    if (!tk_test_have_dumps())
        return;
    char *dir = tk_test_dump_path("autotuned_matmul");
    tk_bundle *b = tk_bundle_load(dir, NULL, NULL);
    g_free(dir);
    tk_compare *cmp = tk_compare_build(b, kernel(b, "448532f3"), b, kernel(b, "a5fca209"),
                                       NULL, NULL);
    size_t row;
    const tk_compare_row *r = first_row(cmp, &row);
    g_assert_cmpuint(row, ==, 0);
    g_assert_cmpstr(r->name, ==, "Inliner");
    g_assert_cmpint(r->input, ==, TK_COMPARE_DIFFERENT);
    /* Tiles: the source's
     *   21    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
     * gives BLOCK_N = 128 in 448532f3 only through mm_kernel.source (the
     * TTIR before any pass): its final .ttir has one make_range for rm and
     * rn, merged by CSE (`%rn_7 = arith.addi %rn_6, %rm_3`). */
    const tk_config *ca = tk_compare_config(cmp, A), *cb = tk_compare_config(cmp, B);
    g_assert_cmpint(tk_config_find(ca, "BLOCK_N")->number, ==, 128);
    g_assert_cmpint(tk_config_find(ca, "BLOCK_K")->number, ==, 64);
    g_assert_cmpint(tk_config_find(cb, "BLOCK_N")->number, ==, 64);
    g_assert_cmpint(tk_config_find(cb, "BLOCK_K")->number, ==, 32);
    g_assert_cmpint(tk_config_find(ca, "num_warps")->number, ==, 8);
    tk_compare_free(cmp);
    tk_bundle_free(b);
}

/* ---- hand-written dumps: a pass only one pipeline runs ----------------- */

static const char module0[] =
    "module {\n"
    "  tt.func public @k(%arg0: i32 loc(\"k.py\":1:0)) {\n"
    "    %0 = arith.addi %arg0, %arg0 : i32 loc(#loc1)\n"
    "    %1 = arith.muli %0, %0 : i32 loc(#loc1)\n"
    "    tt.return loc(#loc1)\n"
    "  } loc(#loc)\n"
    "} loc(#loc)\n"
    "#loc = loc(\"k.py\":1:0)\n"
    "#loc1 = loc(\"k.py\":2:5)\n";

/* MODULE0 without its muli (what Canonicalizer leaves), or with its addi
 * made a subi too. */
static char *module_text(gboolean sub)
{
    GString *s = g_string_new(module0);
    char *at = strstr(s->str, "    %1 = arith.muli");
    g_string_erase(s, at - s->str, (gssize)strlen("    %1 = arith.muli %0, %0 : i32 loc(#loc1)\n"));
    if (sub) {
        at = strstr(s->str, "arith.addi");
        memcpy(at, "arith.subi", 10);
    }
    return g_string_free(s, FALSE);
}

static void put_dump(GString *f, const char *pass, const char *arg, const char *body)
{
    g_string_append_printf(f, "// -----// IR Dump Before %s (%s) ('builtin.module' "
                              "operation) //----- //\n%s\n", pass, arg, body);
}

/* A: Inliner, Canonicalizer (drops the muli), CSE, SymbolDCE.
 * B: the same with a pass Rewrite after Canonicalizer that makes the addi
 * a subi.  Rewrite is a row of B only, and the first divergence: the IR
 * after it (B's) against A's IR at that point (after Canonicalizer). */
static void test_added_pass(void)
{
    char *m1 = module_text(FALSE), *m2 = module_text(TRUE);
    GString *fa = g_string_new(NULL), *fb = g_string_new(NULL);
    put_dump(fa, "Inliner", "inline", module0);
    put_dump(fa, "Canonicalizer", "canonicalize", module0);
    put_dump(fa, "CSE", "cse", m1);
    put_dump(fa, "SymbolDCE", "symbol-dce", m1);
    put_dump(fb, "Inliner", "inline", module0);
    put_dump(fb, "Canonicalizer", "canonicalize", module0);
    put_dump(fb, "Rewrite", "rewrite", m1);
    put_dump(fb, "CSE", "cse", m2);
    put_dump(fb, "SymbolDCE", "symbol-dce", m2);
    char *pa = tk_test_tmp_path("a.mlir.txt"), *pb = tk_test_tmp_path("b.mlir.txt");
    g_assert_true(g_file_set_contents(pa, fa->str, (gssize)fa->len, NULL));
    g_assert_true(g_file_set_contents(pb, fb->str, (gssize)fb->len, NULL));
    tk_bundle *ba = tk_bundle_load(pa, NULL, NULL), *bb = tk_bundle_load(pb, NULL, NULL);
    g_assert_nonnull(ba);
    g_assert_nonnull(bb);
    tk_compare *cmp = tk_compare_build(ba, kernel(ba, "k"), bb, kernel(bb, "k"), NULL, NULL);
    g_assert_cmpuint(tk_compare_row_count(cmp), ==, 5);
    const tk_compare_row *r = tk_compare_row_get(cmp, 2);
    g_assert_cmpint(r->align, ==, TK_COMPARE_ONLY_B);
    g_assert_cmpstr(r->name, ==, "Rewrite");
    g_assert_cmpuint(r->pass[A], ==, TK_COMPARE_NONE);
    g_assert_cmpuint(r->pass[B], ==, 2);
    g_assert_cmpuint(r->state[A], ==, 1); /* A's IR: after its Canonicalizer */
    g_assert_cmpint(r->effect, ==, TK_COMPARE_UNKNOWN);
    size_t row;
    first_row(cmp, &row);
    g_assert_cmpuint(row, ==, 2);
    g_assert_cmpint(tk_compare_row_get(cmp, 1)->output, ==, TK_COMPARE_SAME);
    /* CSE: both after it differ (subi), but it changed nothing in either. */
    r = tk_compare_row_get(cmp, 3);
    g_assert_cmpint(r->align, ==, TK_COMPARE_BOTH);
    g_assert_cmpuint(r->pass[A], ==, 2);
    g_assert_cmpuint(r->pass[B], ==, 3);
    g_assert_cmpint(r->output, ==, TK_COMPARE_DIFFERENT);
    g_assert_cmpint(r->effect, ==, TK_COMPARE_SAME);
    /* The IR at the added pass, side by side: addi against subi. */
    tk_ir_diff *d = tk_compare_diff_row(cmp, 2, TK_TL_OUTPUT, NULL, NULL);
    g_assert_nonnull(d);
    tk_diff_stats st = tk_ir_diff_stats(d);
    g_assert_cmpuint(st.added, ==, 1);
    g_assert_cmpuint(st.removed, ==, 1);
    tk_ir_diff_free(d);
    /* Swapped: the same pass is a row of A only. */
    tk_compare_free(cmp);
    cmp = tk_compare_build(bb, kernel(bb, "k"), ba, kernel(ba, "k"), NULL, NULL);
    g_assert_cmpint(tk_compare_row_get(cmp, 2)->align, ==, TK_COMPARE_ONLY_A);
    tk_compare_free(cmp);
    tk_bundle_free(ba);
    tk_bundle_free(bb);
    g_free(pa);
    g_free(pb);
    g_free(m1);
    g_free(m2);
    g_string_free(fa, TRUE);
    g_string_free(fb, TRUE);
}

/* NAME.json's "constants" (older Triton): read as written, scalars only. */
static void test_constants(void)
{
    char *dir = tk_test_make_tmp("cache-XXXXXX");
    char *kd = g_build_filename(dir, "ABCDEF", NULL);
    g_assert_cmpint(g_mkdir(kd, 0755), ==, 0);
    char *json = g_build_filename(kd, "k.json", NULL);
    char *ttir = g_build_filename(kd, "k.ttir", NULL);
    const char *meta = "{\"name\": \"k\", \"hash\": \"abcdef\", \"num_warps\": 4, "
                       "\"constants\": {\"BLOCK_SIZE\": 1024, \"ACT\": \"gelu\", "
                       "\"shape\": [1, 2]}}";
    const char *ir = "module {\n  tt.func public @k(%x: i32) {\n    tt.return\n  }\n}\n";
    g_assert_true(g_file_set_contents(json, meta, -1, NULL));
    g_assert_true(g_file_set_contents(ttir, ir, -1, NULL));
    tk_bundle *b = tk_bundle_load(dir, NULL, NULL);
    g_assert_nonnull(b);
    const tk_kernel *k = kernel(b, "k");
    g_assert_cmpuint(tk_kernel_constant_count(k), ==, 2);
    const char *v;
    g_assert_cmpstr(tk_kernel_constant(k, 0, &v), ==, "BLOCK_SIZE");
    g_assert_cmpstr(v, ==, "1024");
    g_assert_cmpstr(tk_kernel_constant(k, 1, &v), ==, "ACT");
    g_assert_cmpstr(v, ==, "\"gelu\"");
    tk_config *c = tk_config_read(b, k, NULL);
    const tk_config_item *it = tk_config_find(c, "BLOCK_SIZE");
    g_assert_nonnull(it);
    g_assert_cmpint(it->origin, ==, TK_CONFIG_CONSTANT);
    g_assert_cmpint(it->number, ==, 1024);
    g_assert_cmpstr(tk_config_find(c, "%x")->value, ==, "i32");
    tk_config_free(c);
    tk_bundle_free(b);
    tk_test_remove_tree(dir);
    g_free(json);
    g_free(ttir);
    g_free(kd);
    g_free(dir);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/compare/num-stages", test_num_stages);
    g_test_add_func("/compare/lent-timeline", test_lent_timeline);
    g_test_add_func("/compare/num-warps", test_num_warps);
    g_test_add_func("/compare/kept-texts", test_kept_texts);
    g_test_add_func("/compare/itself", test_itself);
    g_test_add_func("/compare/autotuned", test_autotuned);
    g_test_add_func("/compare/added-pass", test_added_pass);
    g_test_add_func("/compare/constants", test_constants);
    return g_test_run();
}
