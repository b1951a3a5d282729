/* test_ir_diff.c - a tk_ir_diff read back line by line and shown within a
 * budget (tk_ir_diff_group_budget()): what is handed out, how a group and
 * a hunk are cut, and what the counts of what was left out say.
 *
 * The texts are small and written here, so that every expected hunk can be
 * worked out by hand (the comments do it):
 *   A: "line 0" .. "line 9"
 *   B: "line 0" "line 1" "changed line 2" "changed line 3" "line 4" ..
 *      "line 7" "line 9"
 * Lines are compared as they are (TK_IR_PLAIN), so the hunks are
 *   equal A[0,2) B[0,2); replace A[2,4) B[2,4); equal A[4,8) B[4,8);
 *   delete A[8,9) at B 8; equal A[9,10) B[8,9)
 * and with one line of context the unified diff has two groups, apart by
 * four equal lines (more than 2 * 1 + 1):
 *   group 1:  " line 1" "-line 2" "-line 3" "+changed line 2"
 *             "+changed line 3" " line 4"            (6 lines)
 *   group 2:  " line 7" "-line 8" " line 9"          (3 lines)
 */
#include <string.h>

#include "tk_test.h"
#include "tkdump/tk_ir_diff.h"

static const char text_a[] = "line 0\nline 1\nline 2\nline 3\nline 4\n"
                             "line 5\nline 6\nline 7\nline 8\nline 9\n";
static const char text_b[] = "line 0\nline 1\nchanged line 2\nchanged line 3\n"
                             "line 4\nline 5\nline 6\nline 7\nline 9\n";

static tk_ir_diff *make_diff(void)
{
    tk_ir_diff *d = tk_ir_diff_texts(TK_IR_PLAIN, TK_STAGE_UNKNOWN, "a", text_a,
                                     strlen(text_a), "b", text_b, strlen(text_b), NULL);
    g_assert_nonnull(d);
    return d;
}

static int collect(const tk_hunk *h, void *user)
{
    g_array_append_val((GArray *)user, *h);
    return 0;
}

static GArray *run(const tk_ir_diff *d, const tk_ir_diff_budget *b, tk_ir_diff_cut *cut)
{
    GArray *out = g_array_new(FALSE, FALSE, sizeof(tk_hunk));
    g_assert_cmpint(tk_ir_diff_group_budget(d, b, collect, out, cut), ==, 0);
    return out;
}

static void assert_hunk(GArray *hs, guint i, tk_hunk_tag tag, uint32_t a0, uint32_t a1,
                        uint32_t b0, uint32_t b1)
{
    g_assert_cmpuint(i, <, hs->len);
    const tk_hunk *h = &g_array_index(hs, tk_hunk, i);
    g_assert_cmpstr(tk_hunk_tag_name(h->tag), ==, tk_hunk_tag_name(tag));
    g_assert_cmpuint(h->a0, ==, a0);
    g_assert_cmpuint(h->a1, ==, a1);
    g_assert_cmpuint(h->b0, ==, b0);
    g_assert_cmpuint(h->b1, ==, b1);
}

static void test_read_back(void)
{
    tk_ir_diff *d = make_diff();
    size_t len;
    uint32_t line;
    /* Both sides' buffers are held at once. */
    const char *a = tk_ir_diff_kept_line(d, TK_IR_A, 2, &len, &line);
    const char *b = tk_ir_diff_kept_line(d, TK_IR_B, 2, &len, NULL);
    g_assert_nonnull(a);
    g_assert_cmpuint(line, ==, 3);
    g_assert_cmpmem(a, 6, "line 2", 6);
    g_assert_cmpmem(b, len, "changed line 2", 14);
    g_assert_cmpuint(tk_ir_diff_kept_len(d, TK_IR_B, 3), ==, 14);
    g_assert_cmpuint(tk_ir_diff_kept_len(d, TK_IR_B, 9), ==, 0); /* out of range */
    g_assert_null(tk_ir_diff_kept_line(d, TK_IR_A, 10, &len, NULL));
    const char *h = tk_ir_diff_kept_head(d, TK_IR_B, 2, 7, &len, &line);
    g_assert_cmpmem(h, len, "changed", 7);
    g_assert_cmpuint(line, ==, 3);
    tk_ir_diff_free(d);
}

static void test_line_number_unread(void)
{
    /* A blank line is no kept line: "y" is kept line 1 of A but its line 3. */
    const char *t = "x\n\ny\n";
    tk_ir_diff *d = tk_ir_diff_texts(TK_IR_PLAIN, TK_STAGE_UNKNOWN, "a", t, strlen(t), "b",
                                     "", 0, NULL);
    g_assert_nonnull(d);
    g_assert_cmpuint(tk_ir_diff_kept_count(d, TK_IR_A), ==, 2);
    g_assert_cmpuint(tk_ir_diff_kept_number(d, TK_IR_A, 0), ==, 1);
    g_assert_cmpuint(tk_ir_diff_kept_number(d, TK_IR_A, 1), ==, 3);
    size_t len;
    uint32_t line;
    tk_ir_diff_kept_line(d, TK_IR_A, 1, &len, &line);
    g_assert_cmpuint(line, ==, 3);
    g_assert_cmpuint(tk_ir_diff_kept_number(d, TK_IR_A, 2), ==, 0); /* out of range */
    g_assert_cmpuint(tk_ir_diff_kept_number(d, TK_IR_B, 0), ==, 0);
    tk_ir_diff_free(d);
}

static void test_head_keeps_utf8_whole(void)
{
    /* "h\xc3\xa9llo" is "héllo": the é is two bytes at 1 and 2. */
    const char *t = "h\xc3\xa9llo\n";
    tk_ir_diff *d = tk_ir_diff_texts(TK_IR_PLAIN, TK_STAGE_UNKNOWN, "a", t, strlen(t), "b",
                                     "", 0, NULL);
    size_t len;
    tk_ir_diff_kept_head(d, TK_IR_A, 0, 2, &len, NULL);
    g_assert_cmpuint(len, ==, 1); /* not half of the é */
    tk_ir_diff_kept_head(d, TK_IR_A, 0, 3, &len, NULL);
    g_assert_cmpuint(len, ==, 3);
    tk_ir_diff_kept_head(d, TK_IR_A, 0, 100, &len, NULL);
    g_assert_cmpuint(len, ==, 6);
    tk_ir_diff_free(d);
}

static void test_no_limit_is_the_grouped_diff(void)
{
    tk_ir_diff *d = make_diff();
    tk_ir_diff_budget b = {.context = 1};
    tk_ir_diff_cut cut;
    GArray *hs = run(d, &b, &cut);
    g_assert_cmpuint(hs->len, ==, 8);
    assert_hunk(hs, 0, TK_HUNK_GROUP, 1, 5, 1, 5);
    assert_hunk(hs, 1, TK_HUNK_EQUAL, 1, 2, 1, 2);
    assert_hunk(hs, 2, TK_HUNK_REPLACE, 2, 4, 2, 4);
    assert_hunk(hs, 3, TK_HUNK_EQUAL, 4, 5, 4, 5);
    assert_hunk(hs, 4, TK_HUNK_GROUP, 7, 10, 7, 9);
    assert_hunk(hs, 5, TK_HUNK_EQUAL, 7, 8, 7, 8);
    assert_hunk(hs, 6, TK_HUNK_DELETE, 8, 9, 8, 8);
    assert_hunk(hs, 7, TK_HUNK_EQUAL, 9, 10, 8, 9);
    g_assert_cmpuint(cut.groups, ==, 2);
    g_assert_cmpuint(cut.groups_shown, ==, 2);
    g_assert_cmpuint(cut.lines_shown, ==, 9);
    g_assert_cmpuint(cut.lines_left + cut.lines_skipped, ==, 0);
    g_assert_cmpint(cut.cut, ==, 0);
    g_array_free(hs, TRUE);
    tk_ir_diff_free(d);
}

static void test_cut_by_lines(void)
{
    tk_ir_diff *d = make_diff();
    /* Four lines: " line 1" "-line 2" "-line 3" "+changed line 2"; the
     * replace keeps both removed lines and one added line. */
    tk_ir_diff_budget b = {.context = 1, .max_lines = 4};
    tk_ir_diff_cut cut;
    GArray *hs = run(d, &b, &cut);
    g_assert_cmpuint(hs->len, ==, 3);
    assert_hunk(hs, 0, TK_HUNK_GROUP, 1, 4, 1, 3);
    assert_hunk(hs, 1, TK_HUNK_EQUAL, 1, 2, 1, 2);
    assert_hunk(hs, 2, TK_HUNK_REPLACE, 2, 4, 2, 3);
    g_assert_cmpuint(cut.lines_shown, ==, 4);
    /* left: "+changed line 3" " line 4" and the 3 lines of group 2 */
    g_assert_cmpuint(cut.lines_left, ==, 5);
    g_assert_cmpuint(cut.added_left, ==, 1);
    g_assert_cmpuint(cut.removed_left, ==, 1);
    g_assert_cmpuint(cut.groups, ==, 2);
    g_assert_cmpuint(cut.groups_shown, ==, 1);
    g_assert_cmpint(cut.cut, ==, 1);
    g_array_free(hs, TRUE);
    tk_ir_diff_free(d);
}

static void test_skip_then_page(void)
{
    tk_ir_diff *d = make_diff();
    /* Skip " line 1" "-line 2" "-line 3"; hand out the two added lines, an
     * insert at A 4; " line 4" and group 2 are left. */
    tk_ir_diff_budget b = {.context = 1, .first_line = 3, .max_lines = 2};
    tk_ir_diff_cut cut;
    GArray *hs = run(d, &b, &cut);
    g_assert_cmpuint(hs->len, ==, 2);
    assert_hunk(hs, 0, TK_HUNK_GROUP, 4, 4, 2, 4);
    assert_hunk(hs, 1, TK_HUNK_INSERT, 4, 4, 2, 4);
    g_assert_cmpuint(cut.lines_skipped, ==, 3);
    g_assert_cmpuint(cut.lines_shown, ==, 2);
    g_assert_cmpuint(cut.lines_left, ==, 4);
    g_assert_cmpuint(cut.removed_left, ==, 3); /* two skipped, "-line 8" */
    g_assert_cmpuint(cut.added_left, ==, 0);
    g_array_free(hs, TRUE);

    /* The next page: from line 5 on, everything that is left. */
    b.first_line = 5;
    b.max_lines = 0;
    hs = run(d, &b, &cut);
    g_assert_cmpuint(hs->len, ==, 6);
    assert_hunk(hs, 0, TK_HUNK_GROUP, 4, 5, 4, 5);
    assert_hunk(hs, 1, TK_HUNK_EQUAL, 4, 5, 4, 5);
    assert_hunk(hs, 2, TK_HUNK_GROUP, 7, 10, 7, 9);
    g_assert_cmpuint(cut.lines_shown, ==, 4);
    g_assert_cmpuint(cut.lines_left, ==, 0);
    g_array_free(hs, TRUE);
    tk_ir_diff_free(d);
}

static void test_cut_by_bytes(void)
{
    tk_ir_diff *d = make_diff();
    /* " line 1" 6 + "-line 2" 6 + "-line 3" 6 = 18; "+changed line 2"
     * (14) would make 32 > 20: the replace is cut among its removed lines
     * and becomes a delete. */
    tk_ir_diff_budget b = {.context = 1, .max_bytes = 20};
    tk_ir_diff_cut cut;
    GArray *hs = run(d, &b, &cut);
    g_assert_cmpuint(hs->len, ==, 3);
    assert_hunk(hs, 0, TK_HUNK_GROUP, 1, 4, 1, 2);
    assert_hunk(hs, 2, TK_HUNK_DELETE, 2, 4, 2, 2);
    g_assert_cmpuint(cut.bytes_shown, ==, 18);
    g_array_free(hs, TRUE);

    /* Lines counted at 4 bytes each at most: five lines make 20. */
    b.max_line_bytes = 4;
    hs = run(d, &b, &cut);
    g_assert_cmpuint(cut.lines_shown, ==, 5);
    g_assert_cmpuint(cut.bytes_shown, ==, 20);
    g_array_free(hs, TRUE);

    /* A budget smaller than one line still shows one. */
    b.max_line_bytes = 0;
    b.max_bytes = 1;
    hs = run(d, &b, &cut);
    g_assert_cmpuint(cut.lines_shown, ==, 1);
    assert_hunk(hs, 1, TK_HUNK_EQUAL, 1, 2, 1, 2);
    g_array_free(hs, TRUE);
    tk_ir_diff_free(d);
}

static void test_equal_texts_have_no_group(void)
{
    tk_ir_diff *d = tk_ir_diff_texts(TK_IR_PLAIN, TK_STAGE_UNKNOWN, "a", text_a,
                                     strlen(text_a), "b", text_a, strlen(text_a), NULL);
    tk_ir_diff_cut cut;
    GArray *hs = run(d, NULL, &cut);
    g_assert_cmpuint(hs->len, ==, 0);
    g_assert_cmpuint(cut.groups, ==, 0);
    g_assert_cmpint(cut.cut, ==, 0);
    g_array_free(hs, TRUE);
    tk_ir_diff_free(d);
}

/* ---- tk_ir_diff_words() ------------------------------------------------ */

static void assert_spans(const tk_ir_span *sp, size_t n, const uint32_t (*want)[2], size_t nw)
{
    g_assert_cmpuint(n, ==, nw);
    for (size_t i = 0; i < nw; i++) {
        g_assert_cmpuint(sp[i].off, ==, want[i][0]);
        g_assert_cmpuint(sp[i].len, ==, want[i][1]);
    }
}

/* TritonGPUCoalesce of the shared vector_add dump: the load of x before
 * the pass (tests/dumps/vector_add/mlir_passes.txt:1201, in the dump
 * "Before TritonGPUCoalesce") and after it (:1277, in "Before
 * TritonGPUF32DotTC"), where the pointer and mask come through
 * convert_layout and the load moves to #blocked1.  Four words changed a
 * side: the result's name, both operands and the layout; "tt.load", the
 * type and the location are the same.  Offsets counted in the lines
 * (four blanks of indent, then "%x_4 = tt.load " is 15 bytes, ...). */
static void test_words_coalesce(void)
{
    static const char a[] =
        "    %x_4 = tt.load %x_3, %mask_2 : tensor<1024x!tt.ptr<f32>, #blocked> loc(#loc29)";
    static const char b[] =
        "    %x_6 = tt.load %x_4, %x_5 : tensor<1024x!tt.ptr<f32>, #blocked1> loc(#loc29)";
    tk_ir_span *sa, *sb;
    size_t na, nb;
    g_assert_cmpint(tk_ir_diff_words(a, strlen(a), b, strlen(b), &sa, &na, &sb, &nb), ==, 0);
    /* "%x_4" at 4, "%x_3" at 19, "%mask_2" at 25, "#blocked" at 61 */
    static const uint32_t wa[][2] = {{4, 4}, {19, 4}, {25, 7}, {61, 8}};
    /* "%x_6" at 4, "%x_4" at 19, "%x_5" at 25, "#blocked1" at 58 */
    static const uint32_t wb[][2] = {{4, 4}, {19, 4}, {25, 4}, {58, 9}};
    assert_spans(sa, na, wa, G_N_ELEMENTS(wa));
    assert_spans(sb, nb, wb, G_N_ELEMENTS(wb));
    g_assert_cmpint(memcmp(a + 61, "#blocked", 8), ==, 0);
    g_assert_cmpint(memcmp(b + 58, "#blocked1", 9), ==, 0);
    g_free(sa);
    g_free(sb);
}

/* The coalesce pair again, then one of the same shape (the same tokens
 * equal and unequal) with other names of other lengths: the second's
 * token diff may come from the first's (timeline/words_memo.c), its spans
 * must be its own.  "    %y_14 = tt.load " puts "%y_14" at 4 and
 * "%y_13" at 20, ", " then "%m_12" at 27; the type (29 bytes from 32, as
 * in the first) puts "#blocked" at 61; likewise on B. */
static void test_words_same_shape(void)
{
    static const char a[] =
        "    %x_4 = tt.load %x_3, %mask_2 : tensor<1024x!tt.ptr<f32>, #blocked> loc(#loc29)";
    static const char b[] =
        "    %x_6 = tt.load %x_4, %x_5 : tensor<1024x!tt.ptr<f32>, #blocked1> loc(#loc29)";
    static const char a2[] =
        "    %y_14 = tt.load %y_13, %m_12 : tensor<1024x!tt.ptr<f32>, #blocked> loc(#loc7)";
    static const char b2[] =
        "    %y_16 = tt.load %y_14, %y_15 : tensor<1024x!tt.ptr<f32>, #blocked1> loc(#loc7)";
    tk_ir_span *sa, *sb;
    size_t na, nb;
    g_assert_cmpint(tk_ir_diff_words(a, strlen(a), b, strlen(b), &sa, &na, &sb, &nb), ==, 0);
    g_free(sa);
    g_free(sb);
    g_assert_cmpint(tk_ir_diff_words(a2, strlen(a2), b2, strlen(b2), &sa, &na, &sb, &nb), ==, 0);
    static const uint32_t wa[][2] = {{4, 5}, {20, 5}, {27, 5}, {61, 8}};
    static const uint32_t wb[][2] = {{4, 5}, {20, 5}, {27, 5}, {61, 9}};
    assert_spans(sa, na, wa, G_N_ELEMENTS(wa));
    assert_spans(sb, nb, wb, G_N_ELEMENTS(wb));
    g_free(sa);
    g_free(sb);
}

/* The same load before the pass (mlir_passes.txt:1201) beside the line
 * the diff pairs it with after it, the first of the replace
 * (mlir_passes.txt:1276).  The added type "-> tensor<...,
 * #blocked1>" is one range that closes its bracket: the diff found "> ->
 * tensor<..., #blocked1" (the ">" after it is the same token), slid down
 * by one. */
static void test_words_slide(void)
{
    static const char a[] =
        "    %x_4 = tt.load %x_3, %mask_2 : tensor<1024x!tt.ptr<f32>, #blocked> loc(#loc29)";
    static const char b[] =
        "    %x_4 = ttg.convert_layout %x_3 : tensor<1024x!tt.ptr<f32>, #blocked> -> "
        "tensor<1024x!tt.ptr<f32>, #blocked1> loc(#loc29)";
    tk_ir_span *sa, *sb;
    size_t na, nb;
    g_assert_cmpint(tk_ir_diff_words(a, strlen(a), b, strlen(b), &sa, &na, &sb, &nb), ==, 0);
    /* "tt.load" at 11, ", %mask_2" at 23 */
    static const uint32_t wa[][2] = {{11, 7}, {23, 9}};
    /* "ttg.convert_layout" at 11, "-> tensor<1024x!tt.ptr<f32>, #blocked1>" at 73 */
    static const uint32_t wb[][2] = {{11, 18}, {73, 39}};
    assert_spans(sa, na, wa, G_N_ELEMENTS(wa));
    assert_spans(sb, nb, wb, G_N_ELEMENTS(wb));
    g_assert_cmpint(memcmp(b + 73, "-> tensor", 9), ==, 0);
    g_assert_cmpint(b[73 + 39 - 1], ==, '>');
    g_free(sa);
    g_free(sb);
}

/* Changed words apart only by blanks are one range; blanks at the ends
 * of a change are not in it; equal lines have none; an empty side has
 * none and the other side is all changed. */
static void test_words_merge_and_edges(void)
{
    tk_ir_span *sa, *sb;
    size_t na, nb;
    const char *a = "x = add i32 %a, %b", *b = "x = mul i64 %a, %b";
    g_assert_cmpint(tk_ir_diff_words(a, strlen(a), b, strlen(b), &sa, &na, &sb, &nb), ==, 0);
    static const uint32_t w[][2] = {{4, 7}}; /* "add i32" / "mul i64" */
    assert_spans(sa, na, w, 1);
    assert_spans(sb, nb, w, 1);
    g_free(sa);
    g_free(sb);

    g_assert_cmpint(tk_ir_diff_words(a, strlen(a), a, strlen(a), &sa, &na, &sb, &nb), ==, 0);
    g_assert_null(sa);
    g_assert_null(sb);
    g_assert_cmpuint(na + nb, ==, 0);

    const char *c = "  ttg.local_dealloc %0  ";
    g_assert_cmpint(tk_ir_diff_words("", 0, c, strlen(c), &sa, &na, &sb, &nb), ==, 0);
    g_assert_cmpuint(na, ==, 0);
    static const uint32_t wc[][2] = {{2, 20}}; /* without the blanks around */
    assert_spans(sb, nb, wc, 1);
    g_free(sb);
}

/* A string is one token: a change inside it marks the whole string. */
static void test_words_string(void)
{
    tk_ir_span *sa, *sb;
    size_t na, nb;
    const char *a = "call @f(\"a b\\\" c\") x", *b = "call @f(\"a d\\\" c\") x";
    g_assert_cmpint(tk_ir_diff_words(a, strlen(a), b, strlen(b), &sa, &na, &sb, &nb), ==, 0);
    static const uint32_t w[][2] = {{8, 9}};
    assert_spans(sa, na, w, 1);
    assert_spans(sb, nb, w, 1);
    g_free(sa);
    g_free(sb);
}

/* Past TK_IR_WORDS_MAX_TOKENS tokens a side is one range, its whole text. */
static void test_words_too_many(void)
{
    GString *a = g_string_new(NULL), *b = g_string_new(NULL);
    for (unsigned i = 0; i < TK_IR_WORDS_MAX_TOKENS; i++) {
        g_string_append(a, "x,");
        g_string_append(b, "x,");
    }
    g_string_append(b, "y");
    tk_ir_span *sa, *sb;
    size_t na, nb;
    g_assert_cmpint(tk_ir_diff_words(a->str, a->len, b->str, b->len, &sa, &na, &sb, &nb), ==, 0);
    const uint32_t wa[][2] = {{0, (uint32_t)a->len}}, wb[][2] = {{0, (uint32_t)b->len}};
    assert_spans(sa, na, wa, 1);
    assert_spans(sb, nb, wb, 1);
    g_free(sa);
    g_free(sb);
    g_string_free(a, TRUE);
    g_string_free(b, TRUE);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/ir_diff/read-back", test_read_back);
    g_test_add_func("/ir_diff/words-coalesce", test_words_coalesce);
    g_test_add_func("/ir_diff/words-slide", test_words_slide);
    g_test_add_func("/ir_diff/words-same-shape", test_words_same_shape);
    g_test_add_func("/ir_diff/words-merge", test_words_merge_and_edges);
    g_test_add_func("/ir_diff/words-string", test_words_string);
    g_test_add_func("/ir_diff/words-too-many", test_words_too_many);
    g_test_add_func("/ir_diff/head-utf8", test_head_keeps_utf8_whole);
    g_test_add_func("/ir_diff/line-number", test_line_number_unread);
    g_test_add_func("/ir_diff/budget-none", test_no_limit_is_the_grouped_diff);
    g_test_add_func("/ir_diff/budget-lines", test_cut_by_lines);
    g_test_add_func("/ir_diff/budget-skip", test_skip_then_page);
    g_test_add_func("/ir_diff/budget-bytes", test_cut_by_bytes);
    g_test_add_func("/ir_diff/budget-equal", test_equal_texts_have_no_group);
    return g_test_run();
}
