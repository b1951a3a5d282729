/* test_check.c - the rules grammar (tk_check.h): rules read, bad lines
 * refused with their line number; the op of an IR line as a rule names
 * it; `in loop` counted from a TTGIR's scf.for nesting. */
#include <string.h>

#include "check/internal.h"
#include "tk_test.h"
#include "tkdump/tk_bundle_load.h"
#include "tkdump/tk_check.h"

static tk_check_rules *parse(const char *text, tk_diags *d)
{
    return tk_check_rules_parse("r.txt", text, strlen(text), d);
}

static void test_rules_read(void)
{
    tk_diags *d = tk_diags_new();
    tk_check_rules *r = parse("# a comment\n"
                              "warps == 4   # before any kernel: every kernel\n"
                              "kernel fp8_*\n"
                              "  spills == 0\n"
                              "  line a.py:/x = y # not a comment/ ptx op wgmma.mma_async >= 1\n"
                              "  line a.py:/a\\/b/ ttgir op ttg.convert_layout in loop a.py:7 == 0\n"
                              "  diagnostics code C7511 == 0\n"
                              "  pass tritongpu-pipeline changed >= 1\n"
                              "  sass class tensor >= 1.5\n"
                              "  metric stall_long_sb < 10\n",
                              d);
    g_assert_nonnull(r);
    g_assert_cmpuint(tk_diags_count(d), ==, 0);
    g_assert_cmpuint(tk_check_rules_count(r), ==, 8);
    const check_rule *w = g_ptr_array_index(r->rules, 0);
    g_assert_cmpstr(w->kernel_spec, ==, "*");
    g_assert_cmpstr(w->text, ==, "warps == 4");
    const check_rule *l = g_ptr_array_index(r->rules, 2);
    g_assert_cmpstr(l->kernel_spec, ==, "fp8_*");
    g_assert_cmpuint(l->rule_line, ==, 5);
    g_assert_cmpstr(l->line.file, ==, "a.py");
    g_assert_cmpstr(l->line.re_text, ==, "x = y # not a comment");
    g_assert_cmpint(l->stage, ==, TK_STAGE_PTX);
    g_assert_cmpstr(l->arg, ==, "wgmma.mma_async");
    const check_rule *lp = g_ptr_array_index(r->rules, 3);
    g_assert_cmpstr(lp->line.re_text, ==, "a/b");
    g_assert_true(lp->in_loop && lp->has_loop_line);
    g_assert_cmpuint(lp->loop_line.line, ==, 7);
    const check_rule *s = g_ptr_array_index(r->rules, 6);
    g_assert_cmpint(s->fact, ==, CHECK_SASS_CLASS);
    g_assert_cmpint(s->op, ==, CHECK_GE);
    g_assert_cmpfloat(s->value, ==, 1.5);
    tk_check_rules_free(r);
    tk_diags_free(d);
}

static void test_bad_lines(void)
{
    static const struct { const char *text; unsigned line; const char *why; } cases[] = {
        {"warps == 4\n\nwarps = 4\n", 3, "expected a comparison"},
        {"warps ==\n", 1, "expected a number, not 'the end of the line'"},
        {"line a.py registers == 1\n", 1, "expected FILE:LINE or FILE:/regex/"},
        {"line a.py:0 ptx lines == 1\n", 1, "expected FILE:LINE"},
        {"line a.py:/x/ stages == 1\n", 1, "fact of a kernel, not of a line"},
        {"ttgir op\n", 1, "'ttgir op' needs an op name"},
        {"ttgir bogus == 1\n", 1, "not 'bogus'"},
        {"ttgir lines in the loop == 1\n", 1, "expected 'in loop'"},
        {"pass x == 1\n", 1, "expected 'pass NAME changed'"},
        {"kernel a b\n", 1, "one name or glob"},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        tk_diags *d = tk_diags_new();
        g_assert_null(parse(cases[i].text, d));
        g_assert_cmpuint(tk_diags_count(d), ==, 1);
        const tk_diag *e = tk_diags_get(d, 0);
        g_assert_cmpint(e->severity, ==, TK_DIAG_ERROR);
        g_assert_cmpstr(e->file, ==, "r.txt");
        g_assert_cmpuint(e->line, ==, cases[i].line);
        if (!strstr(e->message, cases[i].why))
            g_error("%s: '%s' lacks '%s'", cases[i].text, e->message, cases[i].why);
        tk_diags_free(d);
    }
}

static void op_is(tk_stage_kind st, const char *line, const char *want)
{
    size_t n = 0;
    const char *op = check_op_of(st, line, strlen(line), &n);
    if (!want) {
        g_assert_null(op);
        return;
    }
    g_assert_nonnull(op);
    char *got = g_strndup(op, n);
    g_assert_cmpstr(got, ==, want);
    g_free(got);
}

/* Lines as Triton 3.6 prints them (sample_dumps/matmul). */
static void test_ops(void)
{
    op_is(TK_STAGE_TTGIR, "    %2 = ttg.convert_layout %c : tensor<128x128xf16, #mma> loc(#loc58)",
          "ttg.convert_layout");
    op_is(TK_STAGE_TTGIR, "    %acc_78:9 = scf.for %acc_98 = %c0_i32 to %1 step %c1_i32", "scf.for");
    op_is(TK_STAGE_TTGIR, "      scf.yield %a, %b : i32 loc(#loc1)", "scf.yield");
    op_is(TK_STAGE_TTGIR, "    %0 = \"tt.load\"(%p) : (!tt.ptr<f32>) -> f32", "tt.load");
    op_is(TK_STAGE_TTGIR, "    %cst = arith.constant dense<0.0> : tensor<128xf32>", "arith.constant");
    op_is(TK_STAGE_PTX, "\twgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {%f1}, %rd1;",
          "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16");
    op_is(TK_STAGE_PTX, "\t@%p1 ld.global.v4.b32 { %r1, %r2 }, [ %rd1 + 0 ];", "ld.global.v4.b32");
    op_is(TK_STAGE_LLIR, "  %5 = call float @llvm.fma.f32(float %a)", "call");
    op_is(TK_STAGE_SASS, "        /*1470*/                   QGMMA.64x128x32.F32.E4M3.E4M3 R24, "
                         "gdesc[UR8], R24, gsb0 ;", "QGMMA.64x128x32.F32.E4M3.E4M3");
    op_is(TK_STAGE_SASS, "\t//## File \"/w/a.py\", line 41", NULL);
    g_assert_true(check_op_matches("wgmma.mma_async.sync", 20, "wgmma.mma_async"));
    g_assert_true(check_op_matches("HGMMA", 5, "HGMMA"));
    g_assert_false(check_op_matches("HGMMAX.1", 8, "HGMMA"));
    g_assert_false(check_op_matches("tt.load", 7, "tt.loa"));
}

/* `in loop`: the lines MLIR prints deeper than an scf.for, up to its `}`,
 * nested loops included; rules checked on a loose TTGIR file. */
static void test_in_loop(void)
{
    const char *ttgir =
        "module attributes {\"ttg.num-warps\" = 4 : i32} {\n"
        "  tt.func public @k(%arg0: i32) {\n"
        "    %0 = ttg.convert_layout %arg0 : i32 -> i32\n"
        "    %1 = scf.for %i = %c0 to %arg0 step %c1 iter_args(%a = %0) -> (i32) {\n"
        "      %2 = ttg.convert_layout %a : i32 -> i32\n"
        "      %3 = scf.for %j = %c0 to %arg0 step %c1 iter_args(%b = %2) -> (i32) {\n"
        "        %4 = ttg.convert_layout %b : i32 -> i32\n"
        "        scf.yield %4 : i32\n"
        "      }\n"
        "      scf.yield %3 : i32\n"
        "    }\n"
        "    %5 = ttg.convert_layout %1 : i32 -> i32\n"
        "    tt.return\n"
        "  }\n"
        "}\n";
    char *path = g_build_filename(tk_test_tmp_dir(), "k.ttgir", NULL);
    g_assert_true(g_file_set_contents(path, ttgir, -1, NULL));
    tk_diags *d = tk_diags_new();
    tk_bundle *b = tk_bundle_load(path, NULL, d);
    g_assert_nonnull(b);
    const char *text = "ttgir op ttg.convert_layout == 4\n"
                       "ttgir op ttg.convert_layout in loop == 2\n"
                       "ttgir op scf.for in loop == 1\n"
                       "ttgir op ttg.convert_layout in loop >= 3\n"
                       "registers <= 10\n";
    tk_check_rules *r = parse(text, d);
    g_assert_nonnull(r);
    tk_check_report *rep = tk_check_run(r, b, NULL);
    g_assert_cmpuint(tk_check_report_count(rep), ==, 5);
    static const tk_check_status want[] = {TK_CHECK_PASS, TK_CHECK_PASS, TK_CHECK_PASS,
                                           TK_CHECK_FAIL, TK_CHECK_UNKNOWN};
    static const double actual[] = {4, 2, 1, 2};
    for (size_t i = 0; i < 5; i++) {
        const tk_check_result *x = tk_check_report_get(rep, i);
        g_assert_cmpint(x->status, ==, want[i]);
        if (i < 4)
            g_assert_cmpfloat(x->actual, ==, actual[i]);
        g_assert_cmpuint(x->rule_line, ==, i + 1);
    }
    g_assert_cmpuint(tk_check_report_failures(rep), ==, 2);
    g_assert_nonnull(strstr(tk_check_report_get(rep, 4)->why, "register count"));
    tk_check_report_free(rep);
    tk_check_rules_free(r);
    tk_bundle_free(b);
    tk_diags_free(d);
    g_free(path);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/check/rules", test_rules_read);
    g_test_add_func("/check/bad-lines", test_bad_lines);
    g_test_add_func("/check/ops", test_ops);
    g_test_add_func("/check/in-loop", test_in_loop);
    return g_test_run();
}
