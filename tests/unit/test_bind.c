/* test_bind.c - the binding index on real captures.
 *
 * Every expectation was read off the dump text by hand; the comments quote the
 * lines it comes from.  Lines are found by their text so that the test reads
 * like the dump.
 */
#include <stdlib.h>
#include <string.h>

#include "tkdump/tk_bundle_load.h"
#include "tkdump/tk_statement.h"

#include "tk_test.h"

typedef struct {
    tk_diags *diags;
    tk_bundle *bundle;
    const tk_kernel *kernel;
    tk_bind *index;
    tk_loctab *tab;
} fixture;

static gboolean fixture_open(fixture *f, const char *capture, const char *kernel)
{
    if (!tk_test_have_dumps())
        return FALSE;
    char *path = tk_test_dump_path(capture);
    f->diags = tk_diags_new();
    f->bundle = tk_bundle_load(path, NULL, f->diags);
    g_free(path);
    g_assert_nonnull(f->bundle);
    f->tab = tk_bundle_loctab(f->bundle);
    size_t n;
    f->kernel = tk_bundle_find_kernel(f->bundle, kernel, &n);
    g_assert_nonnull(f->kernel);
    f->index = tk_bind_new(f->kernel, f->tab);
    return TRUE;
}

static void fixture_close(fixture *f)
{
    tk_bind_free(f->index);
    tk_bundle_free(f->bundle);
    tk_diags_free(f->diags);
}

/* The file id of the location path ending in SUFFIX. */
static tk_file_id file_ending(const tk_loctab *tab, const char *suffix)
{
    for (tk_file_id i = 0; i < tk_loctab_file_count(tab); i++)
        if (g_str_has_suffix(tk_loctab_file_path(tab, i), suffix))
            return i;
    g_error("no location file ends with %s", suffix);
}

static GArray *source_lines(fixture *f, const char *file, uint32_t line,
                            tk_match m, tk_stage_kind s)
{
    const uint32_t *lines;
    size_t n = tk_bind_source_to_stage(f->index, file_ending(f->tab, file),
                                       line, m, s, &lines);
    GArray *a = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    g_array_append_vals(a, lines, (guint)n);
    return a;
}

static gboolean contains(GArray *a, uint32_t v)
{
    for (guint i = 0; i < a->len; i++)
        if (g_array_index(a, uint32_t, i) == v)
            return TRUE;
    return FALSE;
}

static void assert_lines(GArray *got, const uint32_t *want, size_t n)
{
    GString *s = g_string_new(NULL);
    for (guint i = 0; i < got->len; i++)
        g_string_append_printf(s, " %u", g_array_index(got, uint32_t, i));
    g_test_message("got:%s", s->str);
    g_string_free(s, TRUE);
    g_assert_cmpuint(got->len, ==, n);
    for (size_t i = 0; i < n; i++)
        g_assert_cmpuint(g_array_index(got, uint32_t, i), ==, want[i]);
}

/* vector_add.py line 16 is `s = tl.sum(output)`.  In the TTGIR:
 *   %s = tt.reshape ... loc(#loc35)          #loc35 = callsite(#loc12 at #loc33)
 *   %s_7 = "tt.reduce"(%s) ... ({           (closed by `}) ... loc(#loc35)`)
 *   ^bb0(%s_10: f32 loc(callsite(#loc1 at #loc33)), ...   #loc1 unknown
 *   %s_12 = arith.addf ... loc(#loc37)       #loc37 = callsite(#loc14 at #loc35)
 *   tt.reduce.return %s_12 : f32 loc(#loc35)
 *   }) : (tensor<1024xf32, #blocked1>) -> f32 loc(#loc35)
 * and #loc33 = loc("s"(#loc13)), #loc13 = vector_add.py:16:15.  Only the
 * ^bb0 line has line 16 as its innermost frame. */
static void test_vector_add_line16_ttgir(void)
{
    fixture f;
    if (!fixture_open(&f, "vector_add", "add_kernel"))
        return;
    const tk_stage *st = tk_kernel_stage(f.kernel, TK_STAGE_TTGIR);
    uint32_t reshape = tk_test_line_with(st, "%s = tt.reshape", 1);
    uint32_t want[] = {reshape, reshape + 1, reshape + 2, reshape + 3, reshape + 4,
                       reshape + 5};
    g_assert_cmpuint(tk_test_line_with(st, "\"tt.reduce\"(%s)", 1), ==, reshape + 1);
    g_assert_cmpuint(tk_test_line_with(st, "^bb0(%s_10", 1), ==, reshape + 2);
    g_assert_cmpuint(tk_test_line_with(st, "}) : (tensor<1024xf32, #blocked1>) -> f32", 1), ==,
                     reshape + 5);
    GArray *called = source_lines(&f, "/vector_add.py", 16, TK_MATCH_CALLED, TK_STAGE_TTGIR);
    assert_lines(called, want, 6);
    GArray *exact = source_lines(&f, "/vector_add.py", 16, TK_MATCH_EXACT, TK_STAGE_TTGIR);
    uint32_t want_exact[] = {reshape + 2};
    assert_lines(exact, want_exact, 1);
    g_array_free(called, TRUE);
    g_array_free(exact, TRUE);
    fixture_close(&f);
}

/* In the LLVM IR, line 16's code is what carries !dbg !17, !20 or !21:
 *   !17 = !DILocation(line: 263, column: 15, scope: !18, inlinedAt: !20)
 *   !20 = !DILocation(line: 293, column: 36, scope: !18, inlinedAt: !21)
 *   !21 = !DILocation(line: 16, column: 15, scope: !22)
 * and no other DILocation has an inlinedAt. */
static void test_vector_add_line16_llir(void)
{
    fixture f;
    if (!fixture_open(&f, "vector_add", "add_kernel"))
        return;
    const tk_stage *st = tk_kernel_stage(f.kernel, TK_STAGE_LLIR);
    GArray *want = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    for (uint32_t l = 1; l <= tk_stage_line_count(st); l++) {
        size_t len;
        const char *s = tk_stage_line(st, l, &len);
        char *line = g_strndup(s, len);
        if (g_str_has_suffix(line, "!dbg !17") || g_str_has_suffix(line, "!dbg !20") ||
            g_str_has_suffix(line, "!dbg !21"))
            g_array_append_val(want, l);
        g_free(line);
    }
    g_assert_cmpuint(want->len, >, 40);
    GArray *called = source_lines(&f, "/vector_add.py", 16, TK_MATCH_CALLED, TK_STAGE_LLIR);
    assert_lines(called, (uint32_t *)want->data, want->len);
    /* Innermost line 263 of standard.py: exactly the !17 lines. */
    GArray *std263 = source_lines(&f, "/standard.py", 263, TK_MATCH_EXACT, TK_STAGE_LLIR);
    for (guint i = 0; i < std263->len; i++) {
        size_t len;
        const char *s = tk_stage_line(st, g_array_index(std263, uint32_t, i), &len);
        g_assert_true(len > 8 && memcmp(s + len - 8, "!dbg !17", 8) == 0);
    }
    g_array_free(want, TRUE);
    g_array_free(called, TRUE);
    g_array_free(std263, TRUE);
    fixture_close(&f);
}

/* PTX:
 *   add.f32 	%r47, %r7, %r15;        (under .loc 1 14 17)
 * $L__tmp1:
 *   .loc	2 263 15   // standard.py:263:15 @[ standard.py:293:36 @[ vector_add.py:16:15 ] ]
 *   add.f32 	%r48, %r40, %r41;   ... seven add.f32 in all
 * $L__tmp2:
 *   .loc	2 293 36   // standard.py:293:36 @[ vector_add.py:16:15 ]
 *   shfl.sync.bfly.b32 	%r55, %r54, 16, 31, -1;
 */
static void test_vector_add_line16_ptx(void)
{
    fixture f;
    if (!fixture_open(&f, "vector_add", "add_kernel"))
        return;
    const tk_stage *st = tk_kernel_stage(f.kernel, TK_STAGE_PTX);
    uint32_t before = tk_test_line_with(st, "add.f32 \t%r47, %r7, %r15;", 1);
    uint32_t loc = tk_test_line_with(st, ".loc\t2 263 15", 1);
    g_assert_cmpuint(loc, ==, before + 2);
    GArray *called = source_lines(&f, "/vector_add.py", 16, TK_MATCH_CALLED, TK_STAGE_PTX);
    g_assert_false(contains(called, before));
    g_assert_false(contains(called, before + 1)); /* the label */
    for (uint32_t l = loc; l <= loc + 7; l++)
        g_assert_true(contains(called, l));
    g_assert_false(contains(called, loc + 8)); /* $L__tmp2: */
    g_assert_true(contains(called, loc + 10)); /* the shfl */
    /* .loc 2 263 15 lines and the adds under them, not the shfl under 293. */
    GArray *std263 = source_lines(&f, "/standard.py", 263, TK_MATCH_EXACT, TK_STAGE_PTX);
    g_assert_true(contains(std263, loc + 1));
    g_assert_false(contains(std263, loc + 10));
    const tk_stack_id *ids;
    g_assert_cmpuint(tk_bind_line_stacks(f.index, TK_STAGE_PTX, loc + 1, &ids), ==, 1);
    char *stack = tk_test_stack_string(f.tab, ids[0]);
    g_assert_cmpstr(stack, ==, "standard.py:263:15 <- standard.py:293:36 <- vector_add.py:16:15");
    g_free(stack);
    g_array_free(called, TRUE);
    g_array_free(std263, TRUE);
    fixture_close(&f);
}

/* SASS (nvdisasm -gi) of this capture has no inline frames:
 *   //## File ".../standard.py", line 293
 *   /x01b0x/   S2UR UR5, SR_CgaCtaId ;
 * The PTX shows standard.py:293 only as `standard.py:293:36 @[ vector_add.py:16:15 ]`
 * and 263 only as `263:15 @[ 293:36 @[ vector_add.py:16:15 ] ]`, so those SASS
 * lines take these callers, and line 16 reaches them. */
static void test_vector_add_sass_completed_from_ptx(void)
{
    fixture f;
    if (!fixture_open(&f, "vector_add", "add_kernel"))
        return;
    const tk_stage *st = tk_kernel_stage(f.kernel, TK_STAGE_SASS);
    g_assert_true(g_str_has_suffix(tk_stage_path(st), ".sass_gi"));
    uint32_t s2ur = tk_test_line_with(st, "S2UR UR5, SR_CgaCtaId ;", 1);
    g_assert_true(tk_bind_stack_inferred(f.index, TK_STAGE_SASS, s2ur));
    const tk_stack_id *ids;
    g_assert_cmpuint(tk_bind_line_stacks(f.index, TK_STAGE_SASS, s2ur, &ids), ==, 1);
    char *stack = tk_test_stack_string(f.tab, ids[0]);
    g_assert_cmpstr(stack, ==, "standard.py:293:0 <- vector_add.py:16:15");
    g_free(stack);
    GArray *called = source_lines(&f, "/vector_add.py", 16, TK_MATCH_CALLED, TK_STAGE_SASS);
    g_assert_true(contains(called, s2ur));
    /* FADD R17, R12, R13 sits under `line 263`. */
    g_assert_true(contains(called, tk_test_line_with(st, "FADD R17, R12, R13 ;", 1)));
    /* FADD R12, R12, R16 sits under `line 14`: not line 16's code. */
    g_assert_false(contains(called, tk_test_line_with(st, "FADD R12, R12, R16 ;", 1)));
    GArray *exact = source_lines(&f, "/vector_add.py", 16, TK_MATCH_EXACT, TK_STAGE_SASS);
    g_assert_cmpuint(exact->len, ==, 0);
    /* A line 14 instruction keeps its single frame, not marked inferred. */
    uint32_t fadd14 = tk_test_line_with(st, "FADD R12, R12, R16 ;", 1);
    g_assert_false(tk_bind_stack_inferred(f.index, TK_STAGE_SASS, fadd14));
    g_array_free(called, TRUE);
    g_array_free(exact, TRUE);
    fixture_close(&f);
}

/* TTGIR `%s_12 = arith.addf` (standard.py:263:15 <- 293:36 <- vector_add.py:16:15)
 * binds to the PTX lines under `.loc 2 263 15` and to the SASS under
 * `standard.py", line 263`, not to those under 293. */
static void test_vector_add_stage_to_stage(void)
{
    fixture f;
    if (!fixture_open(&f, "vector_add", "add_kernel"))
        return;
    const tk_stage *ttgir = tk_kernel_stage(f.kernel, TK_STAGE_TTGIR);
    const tk_stage *ptx = tk_kernel_stage(f.kernel, TK_STAGE_PTX);
    const tk_stage *sass = tk_kernel_stage(f.kernel, TK_STAGE_SASS);
    uint32_t addf = tk_test_line_with(ttgir, "%s_12 = arith.addf", 1);
    uint32_t *lines;
    size_t n = tk_bind_stage_to_stage(f.index, TK_STAGE_TTGIR, addf, TK_STAGE_PTX, &lines);
    GArray *locs263 = tk_test_lines_with(ptx, ".loc\t2 263 15");
    GArray *locs293 = tk_test_lines_with(ptx, ".loc\t2 293 36");
    GArray *got = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    g_array_append_vals(got, lines, (guint)n);
    for (guint i = 0; i < locs263->len; i++)
        g_assert_true(contains(got, g_array_index(locs263, uint32_t, i)));
    for (guint i = 0; i < locs293->len; i++)
        g_assert_false(contains(got, g_array_index(locs293, uint32_t, i)));
    free(lines);
    n = tk_bind_stage_to_stage(f.index, TK_STAGE_TTGIR, addf, TK_STAGE_SASS, &lines);
    g_array_set_size(got, 0);
    g_array_append_vals(got, lines, (guint)n);
    g_assert_true(contains(got, tk_test_line_with(sass, "FADD R17, R12, R13 ;", 1)));
    g_assert_false(contains(got, tk_test_line_with(sass, "S2UR UR5, SR_CgaCtaId ;", 1)));
    free(lines);
    /* A line with no location (the #blocked alias line 1) binds to nothing. */
    g_assert_cmpuint(tk_bind_stage_to_stage(f.index, TK_STAGE_TTGIR, 1, TK_STAGE_PTX, &lines), ==, 0);
    g_assert_null(lines);
    /* And back: a PTX add under 263 reaches the TTGIR addf. */
    n = tk_bind_stage_to_stage(f.index, TK_STAGE_PTX, g_array_index(locs263, uint32_t, 0) + 1,
                               TK_STAGE_TTGIR, &lines);
    g_array_set_size(got, 0);
    g_array_append_vals(got, lines, (guint)n);
    uint32_t want[] = {addf};
    assert_lines(got, want, 1);
    free(lines);
    g_array_free(got, TRUE);
    g_array_free(locs263, TRUE);
    g_array_free(locs293, TRUE);
    fixture_close(&f);
}

/* matmul.py:40 `accumulator = leaky_relu(accumulator)` calls
 * `return tl.where(x >= 0, x, 0.01 * x)` at line 8.  The TTGIR ops of that
 * line carry callsite(matmul.py:8 at matmul.py:40), so line 40 reaches them,
 * and line 8 alone reaches them exactly. */
static void test_matmul_helper(void)
{
    fixture f;
    if (!fixture_open(&f, "matmul", "matmul_kernel"))
        return;
    for (tk_stage_kind s = TK_STAGE_TTIR; s <= TK_STAGE_PTX; s++) {
        GArray *helper = source_lines(&f, "/matmul.py", 8, TK_MATCH_EXACT, s);
        GArray *call = source_lines(&f, "/matmul.py", 40, TK_MATCH_CALLED, s);
        g_test_message("%s: line 8 exact %u, line 40 called %u", tk_stage_kind_name(s),
                       helper->len, call->len);
        g_assert_cmpuint(helper->len, >, 0);
        for (guint i = 0; i < helper->len; i++) {
            uint32_t l = g_array_index(helper, uint32_t, i);
            g_assert_true(contains(call, l));
            const tk_stack_id *ids;
            size_t n = tk_bind_line_stacks(f.index, s, l, &ids);
            gboolean through_40 = FALSE;
            for (size_t k = 0; k < n; k++) {
                char *st = tk_test_stack_string(f.tab, ids[k]);
                through_40 |= g_str_has_prefix(st, "matmul.py:8:") &&
                              strstr(st, " <- matmul.py:40:") != NULL;
                g_free(st);
            }
            g_assert_true(through_40);
        }
        g_array_free(helper, TRUE);
        g_array_free(call, TRUE);
    }
    fixture_close(&f);
}

/* vector_add_irloc_ttir: the TTGIR says `%0 = tt.get_program_id x : i32 loc(#loc4)`
 * with #loc4 = loc(".../add_kernel.ttir":13:4), and line 13 of that TTIR is
 * `%pid = tt.get_program_id x : i32 loc(#loc23)` (vector_add.py:8:24). */
static void test_irloc_ttir(void)
{
    fixture f;
    if (!fixture_open(&f, "vector_add_irloc_ttir", "add_kernel"))
        return;
    g_assert_cmpint(tk_bind_irloc_stage(f.index), ==, TK_STAGE_TTIR);
    const tk_stage *ttir = tk_kernel_stage(f.kernel, TK_STAGE_TTIR);
    const tk_stage *ttgir = tk_kernel_stage(f.kernel, TK_STAGE_TTGIR);
    g_assert_cmpuint(tk_test_line_with(ttir, "%pid = tt.get_program_id x", 1), ==, 13);
    uint32_t pid = tk_test_line_with(ttgir, "%0 = tt.get_program_id x", 1);
    uint32_t *lines;
    size_t n = tk_bind_stage_to_stage(f.index, TK_STAGE_TTIR, 13, TK_STAGE_TTGIR, &lines);
    g_assert_cmpuint(n, ==, 1);
    g_assert_cmpuint(lines[0], ==, pid);
    free(lines);
    n = tk_bind_stage_to_stage(f.index, TK_STAGE_TTGIR, pid, TK_STAGE_TTIR, &lines);
    g_assert_cmpuint(n, ==, 1);
    g_assert_cmpuint(lines[0], ==, 13);
    free(lines);
    /* Through the TTIR line, Python line 8 reaches the TTGIR op. */
    GArray *py8 = source_lines(&f, "/vector_add.py", 8, TK_MATCH_EXACT, TK_STAGE_TTGIR);
    uint32_t want[] = {pid};
    assert_lines(py8, want, 1);
    g_array_free(py8, TRUE);
    fixture_close(&f);
}


/* ---- attention_fwd: statements, shared helper code, approximate -------- */

static void sample_open(fixture *f, const char *name)
{
    char *path = g_build_filename(g_getenv("TK_TEST_SAMPLES"), name, NULL);
    f->diags = tk_diags_new();
    f->bundle = tk_bundle_load(path, NULL, f->diags);
    g_free(path);
    g_assert_nonnull(f->bundle);
    f->tab = tk_bundle_loctab(f->bundle);
    f->kernel = tk_bundle_kernel(f->bundle, 0);
    f->index = tk_bind_new(f->kernel, f->tab);
}

static gboolean has_line(const uint32_t *lines, size_t n, uint32_t l)
{
    for (size_t i = 0; i < n; i++)
        if (lines[i] == l)
            return TRUE;
    return FALSE;
}

/* sources/0000-attention_fwd.py 71-73 is one statement, the first call of
 * _attn_inner; Triton recorded it at 73 only: grep ':7[12]:' attn_fwd.ttgir
 * finds nothing, and attn_fwd.ttgir:121
 *   %qk_100 = ttng.warp_group_dot %q_23, %k_99, %cst_0 ...
 * is attention_fwd.py:31:23 <- attention_fwd.py:73:41.  So line 71 binds,
 * as its statement, to exactly what line 73 binds to. */
static void test_attention_statement(void)
{
    fixture f;
    sample_open(&f, "attention_fwd");
    tk_file_id py = file_ending(f.tab, "/attention_fwd.py");
    tk_statement st;
    g_assert_cmpint(tk_bundle_statement(f.bundle, py, 71, &st), ==, TK_STATEMENT_CODE);
    g_assert_cmpuint(st.first, ==, 71);
    g_assert_cmpuint(st.last, ==, 73);
    g_assert_cmpuint(st.n_lines, ==, 103);
    const uint32_t *l71, *l73;
    g_assert_cmpuint(tk_bind_source_to_stage(f.index, py, 71, TK_MATCH_CALLED, TK_STAGE_TTGIR,
                                             &l71), ==, 0);
    size_t n73 = tk_bind_source_to_stage(f.index, py, 73, TK_MATCH_CALLED, TK_STAGE_TTGIR, &l73);
    g_assert_true(has_line(l73, n73, 121));
    for (tk_stage_kind k = 0; k < TK_STAGE_COUNT; k++) {
        if (!tk_kernel_stage_expected(f.kernel, k))
            continue; /* AMDGCN: an NVIDIA kernel has none */
        uint32_t *stmt;
        size_t ns = tk_bind_lines_to_stage(f.index, py, st.first, st.last, TK_MATCH_CALLED, k,
                                           &stmt);
        const uint32_t *only;
        size_t no = tk_bind_source_to_stage(f.index, py, 73, TK_MATCH_CALLED, k, &only);
        g_assert_cmpuint(ns, ==, no);
        g_assert_true(ns == 0 || memcmp(stmt, only, ns * sizeof *stmt) == 0);
        g_assert_cmpuint(ns, >, 0);
        free(stmt);
    }
    /* 75-77 the second call; 70 and 74 are comments; 104 is past the end
     * (the file has 103 lines). */
    g_assert_cmpint(tk_bundle_statement(f.bundle, py, 76, &st), ==, TK_STATEMENT_CODE);
    g_assert_cmpuint(st.first, ==, 75);
    g_assert_cmpuint(st.last, ==, 77);
    g_assert_cmpint(tk_bundle_statement(f.bundle, py, 70, &st), ==, TK_STATEMENT_NO_CODE);
    g_assert_cmpint(tk_bundle_statement(f.bundle, py, 104, &st), ==, TK_STATEMENT_PAST_END);
    g_assert_cmpuint(st.n_lines, ==, 103);
    /* standard.py is in the bundle too (sources/0001-standard.py). */
    tk_file_id std = file_ending(f.tab, "/standard.py");
    g_assert_cmpint(tk_bundle_statement(f.bundle, std, 293, &st), ==, TK_STATEMENT_CODE);
    fixture_close(&f);
}

/* The SASS has no inline frames (attn_fwd.sass_gi: no "inlined at"), so a
 * SASS line takes its callers from the PTX only where the PTX shows one
 * stack for its source line.
 *   attn_fwd.ptx: ".loc 1 31 23 // attention_fwd.py:31:23 @[ attention_fwd.py:73:41 ]"
 *   (lines 169, 285) and "... @[ attention_fwd.py:77:41 ]" (595, ...): line
 *   31 (tl.dot in _attn_inner) under both call sites;
 *   attn_fwd.sass_gi:123-124: //## File ".../attention_fwd.py", line 31
 *                              USHF.L.U32 UR11, UR10, 0x1, URZ ;
 * so SASS line 124 is bound to neither call, and is shared by both.
 *   attn_fwd.ptx: line 34 (STAGE == 2 only) only "@[ attention_fwd.py:77:41 ]";
 *   attn_fwd.sass_gi:1083-1084: //## ... line 34 / FSEL R73, RZ, -1000000, P3 ;
 * so SASS line 1084 is bound to the second call (callers from the PTX). */
static void test_attention_shared(void)
{
    fixture f;
    sample_open(&f, "attention_fwd");
    tk_file_id py = file_ending(f.tab, "/attention_fwd.py");
    g_assert_false(tk_stage_has_inline_frames(tk_kernel_stage(f.kernel, TK_STAGE_SASS)));
    const uint32_t *l;
    size_t n = tk_bind_source_to_stage(f.index, py, 73, TK_MATCH_CALLED, TK_STAGE_SASS, &l);
    g_assert_false(has_line(l, n, 124));
    g_assert_false(has_line(l, n, 1084));
    n = tk_bind_source_to_stage(f.index, py, 77, TK_MATCH_CALLED, TK_STAGE_SASS, &l);
    g_assert_false(has_line(l, n, 124));
    g_assert_true(has_line(l, n, 1084));
    g_assert_true(tk_bind_stack_inferred(f.index, TK_STAGE_SASS, 1084));
    g_assert_false(tk_bind_stack_inferred(f.index, TK_STAGE_SASS, 124));
    n = tk_bind_source_to_stage(f.index, py, 31, TK_MATCH_EXACT, TK_STAGE_SASS, &l);
    g_assert_true(has_line(l, n, 124));

    for (uint32_t call = 73; call <= 77; call += 4) {
        tk_bind_shared sh;
        size_t ns = tk_bind_shared_lines(f.index, py, call, call, TK_STAGE_SASS, &sh);
        g_assert_cmpuint(ns, ==, sh.n_lines);
        g_assert_true(has_line(sh.lines, sh.n_lines, 124));
        g_assert_false(has_line(sh.lines, sh.n_lines, 1084));
        g_assert_false(has_line(sh.lines, sh.n_lines, 123)); /* a comment: not code */
        g_assert_cmpuint(sh.n_sites, ==, 2);
        g_assert_cmpuint(sh.sites[0].file, ==, py);
        g_assert_cmpuint(sh.sites[0].line, ==, 73);
        g_assert_cmpuint(sh.sites[1].line, ==, 77);
        /* No shared line is bound to the call itself. */
        n = tk_bind_source_to_stage(f.index, py, call, TK_MATCH_CALLED, TK_STAGE_SASS, &l);
        for (size_t i = 0; i < sh.n_lines; i++)
            g_assert_false(has_line(l, n, sh.lines[i]));
        tk_bind_shared_clear(&sh);
    }
    /* The same for the statement's first line (the query 71-73). */
    tk_bind_shared sh;
    g_assert_cmpuint(tk_bind_shared_lines(f.index, py, 71, 73, TK_STAGE_SASS, &sh), >, 0);
    tk_bind_shared_clear(&sh);
    /* A line the helper does not run through, and stages with frames. */
    g_assert_cmpuint(tk_bind_shared_lines(f.index, py, 62, 62, TK_STAGE_SASS, &sh), ==, 0);
    g_assert_null(sh.lines);
    g_assert_cmpuint(tk_bind_shared_lines(f.index, py, 73, 73, TK_STAGE_PTX, &sh), ==, 0);
    /* The helper's own line: its SASS is bound to it exactly, not shared. */
    g_assert_cmpuint(tk_bind_shared_lines(f.index, py, 31, 31, TK_STAGE_SASS, &sh), ==, 0);
    fixture_close(&f);
}

/* A helper's line inlined at two call sites is certain code of every frame
 * both calls pass through; only the call sites are in doubt.
 *   attn_fwd.ptx: ".loc 2 263 15 // standard.py:263:15 @[ standard.py:293:36
 *   @[ attention_fwd.py:42:38 @[ attention_fwd.py:73:41 ] ] ]" 5 times, and
 *   the same "@[ attention_fwd.py:77:41 ]" 5 times;
 *   attn_fwd.sass_gi:369-370: //## File ".../standard.py", line 263
 *                              FADD R67, R72, R73 ;
 * so SASS line 370 binds to standard.py:293 and attention_fwd.py:42 (both
 * stacks have them), never to 73 or 77, where it is shared. */
static void test_attention_certain(void)
{
    fixture f;
    sample_open(&f, "attention_fwd");
    tk_file_id py = file_ending(f.tab, "/attention_fwd.py");
    tk_file_id std = file_ending(f.tab, "/standard.py");
    const tk_frame *cf;
    size_t n = tk_bind_line_certain_frames(f.index, TK_STAGE_SASS, 370, &cf);
    g_assert_cmpuint(n, ==, 2);
    g_assert_cmpuint(cf[0].file, ==, std);
    g_assert_cmpuint(cf[0].line, ==, 293);
    g_assert_cmpuint(cf[1].file, ==, py);
    g_assert_cmpuint(cf[1].line, ==, 42);
    const uint32_t *ls;
    size_t nl = tk_bind_source_to_stage(f.index, py, 42, TK_MATCH_CALLED, TK_STAGE_SASS, &ls);
    gboolean has = FALSE;
    for (size_t i = 0; i < nl; i++)
        has |= ls[i] == 370;
    g_assert_true(has);
    nl = tk_bind_source_to_stage(f.index, std, 293, TK_MATCH_CALLED, TK_STAGE_SASS, &ls);
    has = FALSE;
    for (size_t i = 0; i < nl; i++)
        has |= ls[i] == 370;
    g_assert_true(has);
    nl = tk_bind_source_to_stage(f.index, py, 73, TK_MATCH_CALLED, TK_STAGE_SASS, &ls);
    for (size_t i = 0; i < nl; i++)
        g_assert_cmpuint(ls[i], !=, 370);
    /* Not shared for line 42; shared for the call site 73. */
    tk_bind_shared sh;
    tk_bind_shared_lines(f.index, py, 42, 42, TK_STAGE_SASS, &sh);
    for (size_t i = 0; i < sh.n_lines; i++)
        g_assert_cmpuint(sh.lines[i], !=, 370);
    tk_bind_shared_clear(&sh);
    tk_bind_shared_lines(f.index, py, 73, 73, TK_STAGE_SASS, &sh);
    has = FALSE;
    for (size_t i = 0; i < sh.n_lines; i++)
        has |= sh.lines[i] == 370;
    g_assert_true(has);
    tk_bind_shared_clear(&sh);
    /* A line bound without doubt has no certain frames beyond its stack. */
    g_assert_cmpuint(tk_bind_line_certain_frames(f.index, TK_STAGE_SASS, 1, &cf), ==, 0);
    fixture_close(&f);
}

/* attn_fwd.ttgir:121 %qk_100 = ttng.warp_group_dot ... (31:23 <- 73:41) and
 * attn_fwd.ttgir:200 %qk_102 = ttng.warp_group_dot ... (31:23 <- 77:41), the
 * same tl.dot at the two call sites, reach the same SASS lines (those under
 * "//## ... line 31", SASS line 124 among them), matched on the innermost
 * frame only: approximate.  The PTX keeps the call sites apart: exact. */
static void test_attention_approximate(void)
{
    fixture f;
    sample_open(&f, "attention_fwd");
    uint32_t *a, *b;
    size_t na = tk_bind_stage_to_stage(f.index, TK_STAGE_TTGIR, 121, TK_STAGE_SASS, &a);
    size_t nb = tk_bind_stage_to_stage(f.index, TK_STAGE_TTGIR, 200, TK_STAGE_SASS, &b);
    g_assert_cmpuint(na, ==, nb);
    g_assert_true(memcmp(a, b, na * sizeof *a) == 0);
    g_assert_true(has_line(a, na, 124));
    for (size_t i = 0; i < na; i++) {
        g_assert_true(tk_bind_match_approximate(f.index, TK_STAGE_TTGIR, 121, TK_STAGE_SASS, a[i]));
        g_assert_true(tk_bind_match_approximate(f.index, TK_STAGE_TTGIR, 200, TK_STAGE_SASS, b[i]));
    }
    free(a);
    free(b);
    na = tk_bind_stage_to_stage(f.index, TK_STAGE_TTGIR, 121, TK_STAGE_PTX, &a);
    nb = tk_bind_stage_to_stage(f.index, TK_STAGE_TTGIR, 200, TK_STAGE_PTX, &b);
    g_assert_true(has_line(a, na, 169) && has_line(a, na, 285) && !has_line(a, na, 595));
    g_assert_true(has_line(b, nb, 595) && !has_line(b, nb, 169));
    for (size_t i = 0; i < na; i++)
        g_assert_false(tk_bind_match_approximate(f.index, TK_STAGE_TTGIR, 121, TK_STAGE_PTX, a[i]));
    free(a);
    free(b);
    /* From SASS back to TTGIR: the single frame against full stacks. */
    g_assert_true(tk_bind_match_approximate(f.index, TK_STAGE_SASS, 124, TK_STAGE_TTGIR, 121));
    /* SASS line 1084 (line 34, callers from the PTX) matches exactly. */
    uint32_t *c;
    size_t nc = tk_bind_stage_to_stage(f.index, TK_STAGE_SASS, 1084, TK_STAGE_TTGIR, &c);
    g_assert_cmpuint(nc, >, 0);
    for (size_t i = 0; i < nc; i++)
        g_assert_false(tk_bind_match_approximate(f.index, TK_STAGE_SASS, 1084, TK_STAGE_TTGIR, c[i]));
    free(c);
    fixture_close(&f);
}

/* Counts are about instructions: attn_fwd.sass_gi has 1112 instruction
 * lines (counted with grep: an address comment, then an opcode), each under
 * a //## location, and 507 //## lines (grep -c '//##'), which carry
 * locations but are not counted. */
static void test_attention_counts(void)
{
    fixture f;
    sample_open(&f, "attention_fwd");
    const tk_stage *sass = tk_kernel_stage(f.kernel, TK_STAGE_SASS);
    g_assert_cmpuint(tk_stage_instruction_count(sass), ==, 1112);
    g_assert_cmpuint(tk_bind_bound_line_count(f.index, TK_STAGE_SASS), ==, 1112);
    g_assert_cmpuint(tk_stage_located_line_count(sass), ==, 1112 + 507);
    const tk_source_ref *refs;
    size_t n = tk_bind_source_refs(f.index, TK_STAGE_SASS, &refs);
    uint32_t sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += refs[i].n_exact;
    g_assert_cmpuint(sum, ==, 1112); /* one innermost frame per instruction */
    fixture_close(&f);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/bind/vector_add/line16-ttgir", test_vector_add_line16_ttgir);
    g_test_add_func("/bind/vector_add/line16-llir", test_vector_add_line16_llir);
    g_test_add_func("/bind/vector_add/line16-ptx", test_vector_add_line16_ptx);
    g_test_add_func("/bind/vector_add/sass-from-ptx", test_vector_add_sass_completed_from_ptx);
    g_test_add_func("/bind/vector_add/stage-to-stage", test_vector_add_stage_to_stage);
    g_test_add_func("/bind/matmul/helper", test_matmul_helper);
    g_test_add_func("/bind/irloc/ttir", test_irloc_ttir);
    g_test_add_func("/bind/attention/statement", test_attention_statement);
    g_test_add_func("/bind/attention/shared", test_attention_shared);
    g_test_add_func("/bind/attention/certain", test_attention_certain);
    g_test_add_func("/bind/attention/approximate", test_attention_approximate);
    g_test_add_func("/bind/attention/counts", test_attention_counts);
    return g_test_run();
}
