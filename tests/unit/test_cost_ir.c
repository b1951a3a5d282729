/* test_cost_ir.c - what an IR line costs (tk_cost.h "IR lines"): its own
 * share, what is bound to it and its source line's total, on the sample
 * bundles, with every expected value read from the dump text by hand.
 *
 * vector_add (sample_dumps/vector_add/add_kernel-faf6139b):
 *   add_kernel.sass_gi has 8 instructions under "vector_add.py, line 12"
 *   (offsets 0020 LDC.64, 0040 CS2R, 0060 CS2R, 00f0 IMAD.WIDE, 0130 CS2R,
 *   0140 LDG.E.128, 0160 CS2R, 0190 LDG.E.128): 2 global loads and 6
 *   others.  SASS has no columns, so they are bound to every line of
 *   line 12 in the other stages:
 *   add_kernel.ttgir lines 22 (tt.splat, 12:24), 23 (tt.addptr, 12:24) and
 *     24 (tt.load, 12:16).  The 2 LDG go to the load (its kind of work),
 *     the 6 others to the two lines that do no memory work: 3 each.
 *   add_kernel.ptx lines 52-54 (mul.wide, add, add: ".loc 1 12 24") and
 *     57-61, 64-68 (".loc 1 12 16": eight mov.u32 and two
 *     ld.global.v4.b32 at 61 and 68): 13 instruction lines.  Each
 *     ld.global gets one LDG; the 11 others share 6: 6/11 each.
 * matmul_profile (sample_dumps/matmul_profile/matmul_pipelined-bc33df85):
 *   matmul_pipelined.ttgir lines 134 (ttng.warp_group_dot) and 135
 *   (ttng.warp_group_dot_wait) are the only lines at matmul_profile.py:54;
 *   the .sass_gi has 6 HGMMA under "line 54" (and 2 under "line 53"):
 *   the dot's own share of tensor instructions is the 6, the wait's none.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tk_test.h"
#include "tkdump/tk_bundle.h"
#include "tkdump/tk_bundle_load.h"
#include "tkdump/tk_cost.h"

typedef struct {
    tk_diags *diags;
    tk_bundle *bundle;
    const tk_kernel *kernel;
    tk_loctab *tab;
    tk_bind *index;
    tk_cost *cost;
} fixture;

static void open_sample(fixture *f, const char *name)
{
    memset(f, 0, sizeof *f);
    f->diags = tk_diags_new();
    char *bp = g_build_filename(g_getenv("TK_TEST_SAMPLES"), name, NULL);
    f->bundle = tk_bundle_load(bp, NULL, f->diags);
    g_free(bp);
    g_assert_nonnull(f->bundle);
    f->kernel = tk_bundle_kernel(f->bundle, 0);
    f->tab = tk_bundle_loctab(f->bundle);
    f->index = tk_bind_new(f->kernel, f->tab);
    f->cost = tk_cost_new(f->index, f->kernel, f->tab, NULL);
}

static void close_sample(fixture *f)
{
    tk_cost_free(f->cost);
    tk_bind_free(f->index);
    tk_bundle_free(f->bundle);
    tk_diags_free(f->diags);
}

static size_t metric(const tk_cost *c, const char *name)
{
    int m = tk_cost_metric_find(c, name);
    g_assert_cmpint(m, >=, 0);
    return (size_t)m;
}

static double own(fixture *f, tk_stage_kind s, uint32_t line, size_t m)
{
    const double *v = tk_cost_ir_line_own(f->cost, s, line);
    return v ? v[m] : 0;
}

static void test_vector_add_shares(void)
{
    fixture f;
    open_sample(&f, "vector_add");
    size_t n = metric(f.cost, "instructions");
    size_t glob = metric(f.cost, "global");
    /* the lines are the ones the comment names */
    const tk_stage *ttgir = tk_kernel_stage(f.kernel, TK_STAGE_TTGIR);
    g_assert_cmpuint(tk_test_line_with(ttgir, "%x_4 = tt.load %x_3", 1), ==, 24);
    const tk_stage *ptx = tk_kernel_stage(f.kernel, TK_STAGE_PTX);
    g_assert_cmpuint(tk_test_line_with(ptx, "ld.global.v4.b32", 1), ==, 61);
    g_assert_cmpuint(tk_test_line_with(ptx, "ld.global.v4.b32", 2), ==, 68);

    /* TTGIR: the load 2, the splat and the addptr 3 each; all three are
     * bound to the same 8 */
    g_assert_cmpfloat(own(&f, TK_STAGE_TTGIR, 22, n), ==, 3);
    g_assert_cmpfloat(own(&f, TK_STAGE_TTGIR, 23, n), ==, 3);
    g_assert_cmpfloat(own(&f, TK_STAGE_TTGIR, 24, n), ==, 2);
    g_assert_cmpfloat(own(&f, TK_STAGE_TTGIR, 24, glob), ==, 2);
    g_assert_cmpfloat(own(&f, TK_STAGE_TTGIR, 22, glob), ==, 0);
    for (uint32_t l = 22; l <= 24; l++)
        g_assert_cmpfloat(tk_cost_ir_line(f.cost, TK_STAGE_TTGIR, l)[n], ==, 8);

    /* PTX: an ld.global 1 (one LDG), the others 6/11 */
    g_assert_cmpfloat(own(&f, TK_STAGE_PTX, 61, n), ==, 1);
    g_assert_cmpfloat(own(&f, TK_STAGE_PTX, 68, glob), ==, 1);
    for (uint32_t l = 52; l <= 54; l++)
        g_assert_cmpfloat(fabs(own(&f, TK_STAGE_PTX, l, n) - 6.0 / 11), <, 1e-9);
    g_assert_cmpfloat(fabs(own(&f, TK_STAGE_PTX, 57, n) - 6.0 / 11), <, 1e-9);
    /* the "// begin inline asm" comment between them costs nothing */
    g_assert_null(tk_cost_ir_line_own(f.cost, TK_STAGE_PTX, 56));

    /* SASS: an instruction's own is itself */
    const tk_stage *sass = tk_kernel_stage(f.kernel, TK_STAGE_SASS);
    uint32_t ldg = tk_test_line_with(sass, "/*0140*/", 1);
    g_assert_cmpfloat(own(&f, TK_STAGE_SASS, ldg, n), ==, 1);

    /* the source line every one of them is code of: vector_add.py:12,
     * whose exact total is the 8 */
    uint32_t lines[][2] = {{TK_STAGE_TTGIR, 24}, {TK_STAGE_PTX, 52},
                           {TK_STAGE_SASS, ldg}};
    for (size_t i = 0; i < G_N_ELEMENTS(lines); i++) {
        const tk_cost_line *src =
            tk_cost_ir_line_source(f.cost, (tk_stage_kind)lines[i][0], lines[i][1]);
        g_assert_nonnull(src);
        g_assert_true(g_str_has_suffix(tk_loctab_file_path(f.tab, src->file),
                                       "/vector_add.py"));
        g_assert_cmpuint(src->line, ==, 12);
        g_assert_cmpfloat(src->exact[n], ==, 8);
    }
    close_sample(&f);
}

static void test_matmul_dot_share(void)
{
    fixture f;
    open_sample(&f, "matmul_profile");
    size_t tensor = metric(f.cost, "tensor");
    const tk_stage *ttgir = tk_kernel_stage(f.kernel, TK_STAGE_TTGIR);
    g_assert_cmpuint(tk_test_line_with(ttgir, "= ttng.warp_group_dot %a_113", 1), ==, 134);
    g_assert_cmpuint(tk_test_line_with(ttgir, "= ttng.warp_group_dot_wait", 1), ==, 135);
    g_assert_cmpfloat(own(&f, TK_STAGE_TTGIR, 134, tensor), ==, 6);
    g_assert_cmpfloat(own(&f, TK_STAGE_TTGIR, 135, tensor), ==, 0);
    g_assert_cmpfloat(tk_cost_ir_line(f.cost, TK_STAGE_TTGIR, 135)[tensor], ==, 6);
    close_sample(&f);
}

/* The own shares of a stage's lines add up to the values of the
 * instructions bound to any of them (counted here from the binding
 * index, without the cost tables), on every sample with SASS. */
static void test_shares_add_up(void)
{
    const char *samples[] = {"vector_add", "matmul", "matmul_profile",
                             "attention_fwd", "fused_softmax", "matmul_helper",
                             "layer_norm_gelu"};
    for (size_t s = 0; s < G_N_ELEMENTS(samples); s++) {
        fixture f;
        open_sample(&f, samples[s]);
        for (size_t ki = 0; ki < tk_bundle_kernel_count(f.bundle); ki++) {
            if (ki) {
                tk_cost_free(f.cost);
                tk_bind_free(f.index);
                f.kernel = tk_bundle_kernel(f.bundle, ki);
                f.index = tk_bind_new(f.kernel, f.tab);
                f.cost = tk_cost_new(f.index, f.kernel, f.tab, NULL);
            }
            const tk_stage *sass = tk_kernel_stage(f.kernel, TK_STAGE_SASS);
            if (!sass)
                continue;
            for (tk_stage_kind k = 0; k < TK_STAGE_COUNT; k++) {
                const tk_stage *st = tk_kernel_stage(f.kernel, k);
                if (!st || k == TK_STAGE_SASS)
                    continue;
                GHashTable *bound = g_hash_table_new(g_direct_hash, g_direct_equal);
                double sum = 0;
                for (uint32_t l = 1; l <= tk_stage_line_count(st); l++) {
                    if (tk_stage_line_kind(st, l) != TK_LINE_INSTRUCTION)
                        continue;
                    sum += own(&f, k, l, 0);
                    uint32_t *to = NULL;
                    size_t n = tk_bind_stage_to_stage(f.index, k, l, TK_STAGE_SASS, &to);
                    for (size_t i = 0; i < n; i++)
                        if (tk_stage_line_kind(sass, to[i]) == TK_LINE_INSTRUCTION &&
                            tk_cost_ir_line(f.cost, TK_STAGE_SASS, to[i]))
                            g_hash_table_add(bound, GUINT_TO_POINTER(to[i]));
                    free(to);
                }
                if (fabs(sum - g_hash_table_size(bound)) > 1e-6)
                    g_error("%s %s: own shares add up to %g, %u instructions bound",
                            samples[s], tk_stage_kind_name(k), sum,
                            g_hash_table_size(bound));
                g_hash_table_destroy(bound);
            }
        }
        close_sample(&f);
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/cost_ir/vector_add_shares", test_vector_add_shares);
    g_test_add_func("/cost_ir/matmul_dot_share", test_matmul_dot_share);
    g_test_add_func("/cost_ir/shares_add_up", test_shares_add_up);
    return g_test_run();
}
