/* test_diff_align.c - replaced lines paired by likeness (tk_diff_align(),
 * tk_ir_diff_aligned()).
 *
 * 1. Small texts written here, where each pairing is worked out by hand.
 * 2. A real pass: TritonGPUPipeline of the matmul capture
 *    (matmul/mlir_passes.txt: the IR before it at line 10871, after it at
 *    11121, up to the next dump at 11435).  The pass moves the loop's loads
 *    into a prologue and turns them into async copies; the diff has one
 *    long replaced block where the loop body's old lines face the new
 *    prologue.  Read by hand in the dump:
 *      before 10959  %a_62 = arith.subi %K, %a {loop.cluster = 3 ...}
 *      after  11222  %a_62 = arith.subi %K, %c64_i32 : i32
 *    are the same op (its operand folded to the constant), and so are
 *    the splat, cmpi and broadcast after each (same names, same types).
 *    Paired by position, `tt.load %a_ptrs_60` faced a `ttg.memdesc_index`
 *    and `ttg.local_alloc %a_66` an `arith.andi`: no such pair may be made.
 */
#include <stdlib.h>
#include <string.h>

#include "tk_test.h"
#include "tkdump/tk_ir_diff.h"

/* ---- 1. by hand ---------------------------------------------------------- */

static const tk_hunk *aligned(const char *a, const char *b, tk_ir_diff **d, size_t *n)
{
    *d = tk_ir_diff_texts(TK_IR_PLAIN, TK_STAGE_UNKNOWN, "a", a, strlen(a), "b", b, strlen(b),
                          NULL);
    g_assert_nonnull(*d);
    return tk_ir_diff_aligned(*d, n);
}

static void assert_hunk(const tk_hunk *h, tk_hunk_tag tag, uint32_t a0, uint32_t a1, uint32_t b0,
                        uint32_t b1)
{
    g_assert_cmpstr(tk_hunk_tag_name(h->tag), ==, tk_hunk_tag_name(tag));
    g_assert_cmpuint(h->a0, ==, a0);
    g_assert_cmpuint(h->a1, ==, a1);
    g_assert_cmpuint(h->b0, ==, b0);
    g_assert_cmpuint(h->b1, ==, b1);
}

/* keep / [x = load p; y = alloc x] / end  ->  keep / [z = alloc2 x; x = load q;
 * w = new thing] / end.  Lines 1-2 of A and 1-3 of B are one replace hunk;
 * by position "x = load p" would face "z = alloc2 x".  By likeness:
 *   A1 "x = load p"   words {x, load, p}      B2 "x = load q" {x, load, q}:
 *                     Dice 2*2/6 = 0.67 -> paired;
 *   A2 "y = alloc x"  {y, alloc, x}           B1 "z = alloc2 x" {z, alloc0, x}
 *                     comes before B2: in order it cannot pair after A1-B2;
 *                     B3 "w = new thing" {w, new, thing}: nothing common.
 * So: insert B1, replace A1-B2, delete A2, insert B3. */
static void test_by_hand(void)
{
    tk_ir_diff *d;
    size_t n;
    const tk_hunk *h = aligned("keep\nx = load p\ny = alloc x\nend\n",
                               "keep\nz = alloc2 x\nx = load q\nw = new thing\nend\n", &d, &n);
    g_assert_cmpuint(n, ==, 6);
    assert_hunk(&h[0], TK_HUNK_EQUAL, 0, 1, 0, 1);
    assert_hunk(&h[1], TK_HUNK_INSERT, 1, 1, 1, 2);
    assert_hunk(&h[2], TK_HUNK_REPLACE, 1, 2, 2, 3);
    assert_hunk(&h[3], TK_HUNK_DELETE, 2, 3, 3, 3);
    assert_hunk(&h[4], TK_HUNK_INSERT, 3, 3, 3, 4);
    assert_hunk(&h[5], TK_HUNK_EQUAL, 3, 4, 4, 5);
    /* the raw hunks are the diff's, unchanged: one replace */
    size_t nr;
    const tk_hunk *r = tk_ir_diff_hunks(d, &nr);
    g_assert_cmpuint(nr, ==, 3);
    assert_hunk(&r[1], TK_HUNK_REPLACE, 1, 3, 1, 4);
    /* the same changes either way */
    tk_hunk *c1, *c2;
    g_assert_cmpuint(tk_diff_changes(r, nr, &c1), ==, 1);
    g_assert_cmpuint(tk_diff_changes(h, n, &c2), ==, 1);
    g_assert_cmpmem(c1, sizeof *c1, c2, sizeof *c2);
    free(c1);
    free(c2);
    tk_ir_diff_free(d);
}

/* Lines that differ only in their numbers pair in order; a 1:1 replace
 * stays one replace; lines with no word pair only when the same. */
static void test_numbers_and_punctuation(void)
{
    tk_ir_diff *d;
    size_t n;
    const tk_hunk *h = aligned("%1 = add %0\n%2 = mul %1\n}\n", "%5 = add %4\n%6 = mul %5\n)\n",
                               &d, &n);
    /* "%1 = add %0" ~ "%5 = add %4" (words {add} both: 1.0), "mul" alike;
     * "}" and ")" have no word and differ: not paired */
    g_assert_cmpuint(n, ==, 3);
    assert_hunk(&h[0], TK_HUNK_REPLACE, 0, 2, 0, 2);
    assert_hunk(&h[1], TK_HUNK_DELETE, 2, 3, 2, 2);
    assert_hunk(&h[2], TK_HUNK_INSERT, 3, 3, 2, 3);
    tk_ir_diff_free(d);
    h = aligned("a\nb b\nc\n", "a\nzzz\nc\n", &d, &n);
    g_assert_cmpuint(n, ==, 3);
    assert_hunk(&h[1], TK_HUNK_REPLACE, 1, 2, 1, 2);
    tk_ir_diff_free(d);
}

/* ---- 2. a real pass -------------------------------------------------------- */

/* Lines FIRST..LAST (1-based) of the text T, joined. */
static char *line_range(char **lines, guint first, guint last)
{
    GString *s = g_string_new(NULL);
    for (guint i = first; i <= last; i++) {
        g_string_append(s, lines[i - 1]);
        g_string_append_c(s, '\n');
    }
    return g_string_free(s, FALSE);
}

/* The B text paired with the A line containing A_HAS, or NULL. */
static char *pair_of(const tk_ir_diff *d, const char *a_has)
{
    size_t n;
    const tk_hunk *h = tk_ir_diff_aligned(d, &n);
    for (size_t i = 0; i < n; i++) {
        if (h[i].tag != TK_HUNK_REPLACE)
            continue;
        g_assert_cmpuint(h[i].a1 - h[i].a0, ==, h[i].b1 - h[i].b0);
        for (uint32_t k = 0; k < h[i].a1 - h[i].a0; k++) {
            size_t la, lb;
            const char *a = tk_ir_diff_kept_line(d, TK_IR_A, h[i].a0 + k, &la, NULL);
            if (!g_strstr_len(a, (gssize)la, a_has))
                continue;
            const char *b = tk_ir_diff_kept_line(d, TK_IR_B, h[i].b0 + k, &lb, NULL);
            return g_strndup(b, lb);
        }
    }
    return NULL;
}

static void expect_pair(const tk_ir_diff *d, const char *a_has, const char *b_has)
{
    char *b = pair_of(d, a_has);
    if (!b || !strstr(b, b_has))
        g_error("%s: paired with %s, not a line with %s", a_has, b ? b : "(nothing)", b_has);
    g_free(b);
}

static void expect_not_paired_with(const tk_ir_diff *d, const char *a_has, const char *b_not)
{
    char *b = pair_of(d, a_has);
    if (b && strstr(b, b_not))
        g_error("%s: paired with %s", a_has, b);
    g_free(b);
}

static void test_pipeline_pass(void)
{
    if (!tk_test_have_dumps()) {
        g_test_skip("no real dumps");
        return;
    }
    char *path = tk_test_dump_path("matmul/mlir_passes.txt");
    char *text;
    g_assert_true(g_file_get_contents(path, &text, NULL, NULL));
    char **lines = g_strsplit(text, "\n", -1);
    g_assert_cmpuint(g_strv_length(lines), >=, 11435);
    g_assert_nonnull(strstr(lines[10871 - 1], "IR Dump Before TritonGPUPipeline"));
    g_assert_nonnull(strstr(lines[11121 - 1], "IR Dump Before Canonicalizer"));
    g_assert_nonnull(strstr(lines[11435 - 1], "IR Dump"));
    char *a = line_range(lines, 10872, 11120), *b = line_range(lines, 11122, 11434);
    tk_ir_diff *d = tk_ir_diff_texts(TK_IR_MLIR, TK_STAGE_TTGIR, "before", a, strlen(a), "after",
                                     b, strlen(b), NULL);
    g_assert_nonnull(d);
    expect_pair(d, "%a_62 = arith.subi %K, %a {", "%a_62 = arith.subi %K, %c64_i32");
    expect_pair(d, "%a_63 = tt.splat %a_62 {", "= tt.splat %a_62 : i32 -> tensor<1x64xi32, #blocked>");
    expect_pair(d, "%a_64 = arith.cmpi slt, %a_ptrs_24, %a_63 {", "= arith.cmpi slt, %a_ptrs_25, %a_63 :");
    expect_pair(d, "%a_65 = tt.broadcast %a_64 {", "= tt.broadcast %a_64 : tensor<1x64xi1, #blocked>");
    /* the faces a position made */
    expect_not_paired_with(d, "%a_66 = tt.load %a_ptrs_60", "ttg.memdesc_index");
    expect_not_paired_with(d, "%a_66 = tt.load %a_ptrs_60", "ttg.local_alloc");
    expect_not_paired_with(d, "%a_67 = ttg.local_alloc %a_66", "arith.andi");
    expect_not_paired_with(d, "%a_67 = ttg.local_alloc %a_66", "tt.load");
    /* every pair is of two lines at least half alike: no pair of a load
     * with anything but a load or a copy */
    size_t n;
    const tk_hunk *h = tk_ir_diff_aligned(d, &n);
    uint32_t pairs = 0;
    for (size_t i = 0; i < n; i++)
        if (h[i].tag == TK_HUNK_REPLACE)
            pairs += h[i].a1 - h[i].a0;
    g_assert_cmpuint(pairs, >=, 4);
    tk_ir_diff_free(d);
    g_free(a);
    g_free(b);
    g_strfreev(lines);
    g_free(text);
    g_free(path);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/diff_align/by_hand", test_by_hand);
    g_test_add_func("/diff_align/numbers_and_punctuation", test_numbers_and_punctuation);
    g_test_add_func("/diff_align/pipeline_pass", test_pipeline_pass);
    return g_test_run();
}
