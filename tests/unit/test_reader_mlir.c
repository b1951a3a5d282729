/* test_reader_mlir.c - TTIR/TTGIR locations to inline stacks.
 *
 * Expectations were read by hand from the dump text; each test quotes the
 * dump lines it relies on.  Synthetic cases are made by editing real dump
 * lines (edit() fails the test when the text to edit is not there), so they
 * stay close to what Triton prints.
 */
#include <string.h>

#include "tk_test.h"

/* ---- helpers ------------------------------------------------------------ */

typedef struct {
    tk_loctab *tab;
    tk_diags *diags;
    tk_stage *stage;
} fixture;

static void fixture_read(fixture *f, tk_stage_kind kind, const char *path)
{
    f->tab = tk_loctab_new();
    f->diags = tk_diags_new();
    f->stage = tk_test_read_stage(kind, path, f->tab, f->diags);
}

static void fixture_parse(fixture *f, const char *name, const char *text,
                          size_t len)
{
    f->tab = tk_loctab_new();
    f->diags = tk_diags_new();
    f->stage = tk_stage_parse(TK_STAGE_TTGIR, name, text, len, f->tab,
                              f->diags);
    g_assert_nonnull(f->stage);
}

static void fixture_clear(fixture *f)
{
    tk_stage_free(f->stage);
    tk_loctab_free(f->tab);
    tk_diags_free(f->diags);
}

/* The stacks of the NTH line containing NEEDLE, as "f:l:c <- ... | ...". */
static char *stacks_of(const fixture *f, const char *needle, int nth)
{
    return tk_test_line_stacks_string(f->stage, f->tab,
                                      tk_test_line_with(f->stage, needle, nth));
}

#define assert_stacks(f, needle, nth, expected)                                \
    do {                                                                       \
        char *got_ = stacks_of((f), (needle), (nth));                          \
        g_assert_cmpstr(got_, ==, (expected));                                 \
        g_free(got_);                                                          \
    } while (0)

static void assert_no_diags(const fixture *f)
{
    g_assert_cmpuint(tk_test_print_diags(f->diags), ==, 0);
}

/* Whether a warning about FILE whose message contains WORDS was given on
 * LINE (any line when 0). */
static gboolean has_warning(const fixture *f, const char *file, uint64_t line,
                            const char *words)
{
    for (size_t i = 0; i < tk_diags_count(f->diags); i++) {
        const tk_diag *d = tk_diags_get(f->diags, i);
        if (d->severity == TK_DIAG_WARNING && g_strcmp0(d->file, file) == 0 &&
            (line == 0 || d->line == line) && strstr(d->message, words))
            return TRUE;
    }
    return FALSE;
}

/* Replaces the first FROM in S by TO; FROM must be there. */
static void edit(GString *s, const char *from, const char *to)
{
    const char *at = strstr(s->str, from);
    if (!at)
        g_error("text to edit not found: %s", from);
    gssize pos = at - s->str;
    g_string_erase(s, pos, (gssize)strlen(from));
    g_string_insert(s, pos, to);
}

static GString *load(const char *path)
{
    char *data;
    size_t len;
    g_assert_true(g_file_get_contents(path, &data, &len, NULL));
    GString *s = g_string_new_len(data, (gssize)len);
    g_free(data);
    return s;
}

static char *vector_add_ttgir(void)
{
    return tk_test_find_dump("vector_add/kernel_dump", ".ttgir");
}

/* ---- real dumps --------------------------------------------------------- */

static void test_vector_add_ttgir(void)
{
    if (!tk_test_have_dumps())
        return;
    char *path = vector_add_ttgir();
    fixture f;
    fixture_read(&f, TK_STAGE_TTGIR, path);
    assert_no_diags(&f);

    /* %s_12 = arith.addf %s_10, %s_11 : f32 loc(#loc37)
     * #loc37 = loc(callsite(#loc14 at #loc35))
     * #loc35 = loc(callsite(#loc12 at #loc33))
     * #loc33 = loc("s"(#loc13))
     * #loc14 = loc(".../triton/language/standard.py":263:15)
     * #loc12 = loc(".../triton/language/standard.py":293:36)
     * #loc13 = loc("/tmp/capture/vector_add/src/vector_add.py":16:15) */
    assert_stacks(&f, "%s_12 = arith.addf %s_10, %s_11", 1,
                  "standard.py:263:15 <- standard.py:293:36 <- "
                  "vector_add.py:16:15");
    /* ^bb0(%s_10: f32 loc(callsite(#loc1 at #loc33)), %s_11: ... same)
     * #loc1 = loc(unknown): the callee adds no frame. */
    assert_stacks(&f, "^bb0(%s_10: f32", 1, "vector_add.py:16:15");
    /* %s_7 = "tt.reduce"(%s) <{axis = 0 : i32}> ({  ...
     * }) : (tensor<1024xf32, #blocked1>) -> f32 loc(#loc35) */
    assert_stacks(&f, "\"tt.reduce\"(%s)", 1,
                  "standard.py:293:36 <- vector_add.py:16:15");
    assert_stacks(&f, "}) : (tensor<1024xf32, #blocked1>) -> f32", 1,
                  "standard.py:293:36 <- vector_add.py:16:15");
    /* tt.func public @add_kernel(%x_ptr: ... loc("x_ptr"(#loc)), ...
     * } loc(#loc)   with #loc = loc(".../vector_add.py":7:0): column 0. */
    assert_stacks(&f, "tt.func public @add_kernel", 1, "vector_add.py:7:0");
    /* %pid = tt.get_program_id x : i32 loc(#loc23)
     * #loc23 = loc("pid"(#loc2)), #loc2 = loc(".../vector_add.py":8:24) */
    assert_stacks(&f, "%pid = tt.get_program_id", 1, "vector_add.py:8:24");
    /* tt.store %1, %output_9, %mask_2 : ... loc(#loc17), defined at the end:
     * #loc17 = loc(".../vector_add.py":18:35) */
    assert_stacks(&f, "tt.store %1, %output_9", 1, "vector_add.py:18:35");
    /* Alias definitions are not IR; loc(unknown) has no position. */
    assert_stacks(&f, "#loc37 = loc(callsite", 1, "");
    assert_stacks(&f, "#loc = loc(", 1, "");
    assert_stacks(&f, "%c1024_i32 = arith.constant 1024 : i32 loc(#loc1)", 1,
                  "");
    assert_stacks(&f, "#blocked1 = #ttg.blocked", 1, "");
    g_assert_true(tk_stage_has_inline_frames(f.stage));

    /* The frame keeps the full path. */
    uint32_t l = tk_test_line_with(f.stage, "%pid = tt.get_program_id", 1);
    const tk_stack_id *ids;
    g_assert_cmpuint(tk_stage_line_stacks(f.stage, l, &ids), ==, 1);
    size_t n;
    const tk_frame *fr = tk_loctab_stack_frames(f.tab, ids[0], &n);
    g_assert_cmpstr(tk_loctab_file_path(f.tab, fr[0].file), ==,
                    "/tmp/capture/vector_add/src/vector_add.py");
    fixture_clear(&f);
    g_free(path);
}

static void test_matmul_inlined_helper(void)
{
    if (!tk_test_have_dumps())
        return;
    char *path = tk_test_find_dump("matmul/kernel_dump", ".ttgir");
    fixture f;
    fixture_read(&f, TK_STAGE_TTGIR, path);
    assert_no_diags(&f);
    /* matmul.py:  8:     return tl.where(x >= 0, x, 0.01 * x)   (leaky_relu)
     *            40:         accumulator = leaky_relu(accumulator)
     * %accumulator_81 = arith.cmpf oge, ... loc(#loc126)
     * #loc126 = loc(callsite(#loc45 at #loc111))
     * #loc45 = loc(".../matmul.py":8:25)
     * #loc111 = loc("accumulator"(#loc46)), #loc46 = loc(".../matmul.py":40:33)
     * %accumulator_82 = arith.mulf ... loc(#loc127): #loc47 = 8:38
     * %accumulator_83 = arith.select ... loc(#loc128): #loc48 = 8:31 */
    assert_stacks(&f, "%accumulator_81 = arith.cmpf oge", 1,
                  "matmul.py:8:25 <- matmul.py:40:33");
    assert_stacks(&f, "%accumulator_82 = arith.mulf", 1,
                  "matmul.py:8:38 <- matmul.py:40:33");
    assert_stacks(&f, "%accumulator_83 = arith.select", 1,
                  "matmul.py:8:31 <- matmul.py:40:33");
    fixture_clear(&f);
    g_free(path);
}

static void test_softmax_regions(void)
{
    if (!tk_test_have_dumps())
        return;
    char *path = tk_test_find_dump("softmax/kernel_dump", ".ttgir");
    fixture f;
    fixture_read(&f, TK_STAGE_TTGIR, path);
    assert_no_diags(&f);
    /* %3:2 = scf.for %arg6 = %row_start to %n_rows step ... : i32 {
     *   ... (two tt.reduce regions inside) ...
     * } {tt.num_stages = 2 : i32} loc(#loc7)
     * #loc7 = loc(".../softmax.py":11:57): the tl.range loop.  The opener
     * gets the loop's stack only, not those of the ops inside it. */
    assert_stacks(&f, "scf.for %arg6 = %row_start", 1, "softmax.py:11:57");
    assert_stacks(&f, "} {tt.num_stages = 2 : i32} loc(#loc7)", 1,
                  "softmax.py:11:57");
    /* %row_minus_max = "tt.reduce"(%row_11) <{axis = 0 : i32}> ({
     * }) : (tensor<1024xf32, #blocked>) -> f32 loc(#loc44)   (1st such line)
     * #loc44 = loc(callsite(#loc11 at #loc39)), #loc11 = standard.py:191:40,
     * #loc39 = loc("row_minus_max"(#loc12)), #loc12 = softmax.py:16:37 */
    assert_stacks(&f, "%row_minus_max = \"tt.reduce\"(%row_11)", 1,
                  "standard.py:191:40 <- softmax.py:16:37");
    /* The body of that reduce:  ... loc(#loc48)
     * #loc48 = loc(callsite(#loc13 at #loc44)), #loc13 = standard.py:170:27 */
    assert_stacks(&f, "%row_minus_max_23 = arith.maxnumf", 1,
                  "standard.py:170:27 <- standard.py:191:40 <- "
                  "softmax.py:16:37");
    fixture_clear(&f);
    g_free(path);
}

static void test_else_continues_region(void)
{
    if (!tk_test_have_dumps())
        return;
    char *path =
        tk_test_find_dump("persistent_tma_matmul/kernel_dump", ".ttgir");
    fixture f;
    fixture_read(&f, TK_STAGE_TTGIR, path);
    assert_no_diags(&f);
    /*     scf.if %accumulator {
     *       ... scf.for %tile_id ... {  ...  } {tt.flatten} loc(#loc15)
     *     } else {
     *       ... scf.for ... {  ...  } {tt.warp_specialize} loc(#loc15)
     *     } loc(#loc49)
     * #loc49 = loc("accumulator"(#loc13)),
     * #loc13 = loc(".../persistent_tma_matmul.py":34:24)
     * #loc15 = loc(".../persistent_tma_matmul.py":29:73) */
    assert_stacks(&f, "    scf.if %accumulator {", 1,
                  "persistent_tma_matmul.py:34:24");
    assert_stacks(&f, "scf.for %tile_id = %start_pid", 1,
                  "persistent_tma_matmul.py:29:73");
    assert_stacks(&f, "    } else {", 1, "");
    assert_stacks(&f, "    } loc(#loc49)", 1, "persistent_tma_matmul.py:34:24");
    fixture_clear(&f);
    g_free(path);
}

static void test_gluon_and_inductor(void)
{
    if (!tk_test_have_dumps())
        return;
    char *path = tk_test_find_dump("gluon_copy/kernel_dump", ".ttgir");
    fixture f;
    fixture_read(&f, TK_STAGE_TTGIR, path);
    assert_no_diags(&f);
    /* Gluon puts the function at #loc1 and makes #loc unknown:
     * #loc1 = loc(".../gluon_copy.py":7:0) ... } loc(#loc1)
     * } loc(#loc)     #loc = loc(unknown)    (the module: no stack)
     * %x_5 = tt.load %x_4, %mask_3 : ... loc(#loc23)
     * #loc23 = loc("x"(#loc8)), #loc8 = loc(".../gluon_copy.py":13:16) */
    assert_stacks(&f, "tt.func public @copy_scale_kernel", 1,
                  "gluon_copy.py:7:0");
    assert_stacks(&f, "module attributes", 1, "");
    assert_stacks(&f, "%x_5 = tt.load", 1, "gluon_copy.py:13:16");
    fixture_clear(&f);
    g_free(path);

    /* TorchInductor's generated file; a line with empty strings before its
     * location:
     * %tmp5 = tt.extern_elementwise %tmp4 {libname = "", libpath = "", ...
     *   symbol = "__nv_erff"} : (...) -> tensor<1024xf32, #blocked> loc(#loc27)
     * #loc27 = loc("tmp5"(#loc10))
     * #loc10 = loc(".../inductor/kq/ckql22fc...57.py":29:25) */
    path = tk_test_dump_path(
        "compiled_block/kernel_dump/"
        "KEKVS6XPFRYXFSGVZIXBNFDLJ2B3WCNTBQSGKLHLP4MP6M6CUQIA/"
        "triton_poi_fused_gelu_view_7.ttgir");
    fixture_read(&f, TK_STAGE_TTGIR, path);
    assert_no_diags(&f);
    assert_stacks(&f, "%tmp5 = tt.extern_elementwise", 1,
                  "ckql22fc3g4d2fp3iixagiokv6qi3pn57ziccryoijbacmqyop57.py:29:25");
    /* tt.func ... loc("in_ptr0"(#loc)), #loc = loc(".../ckql22...py":18:0) */
    assert_stacks(&f, "tt.func public @triton_poi_fused_gelu_view_7", 1,
                  "ckql22fc3g4d2fp3iixagiokv6qi3pn57ziccryoijbacmqyop57.py:18:0");
    fixture_clear(&f);
    g_free(path);
}

/* Every final TTIR/TTGIR of every shared capture reads without a word. */
static void test_all_stage_files_clean(void)
{
    if (!tk_test_have_dumps())
        return;
    static const char *const subs[] = {"kernel_dump", "cache", NULL};
    static const struct {
        const char *suffix;
        tk_stage_kind kind;
    } stages[] = {{".ttir", TK_STAGE_TTIR}, {".ttgir", TK_STAGE_TTGIR}};
    int files = 0;
    for (size_t k = 0; k < G_N_ELEMENTS(stages); k++) {
        GPtrArray *paths = tk_test_shared_files(subs, stages[k].suffix);
        for (guint i = 0; i < paths->len; i++) {
            fixture f;
            fixture_read(&f, stages[k].kind, g_ptr_array_index(paths, i));
            assert_no_diags(&f);
            /* Every kernel has located lines. */
            g_assert_cmpuint(tk_stage_located_line_count(f.stage), >, 5);
            fixture_clear(&f);
            files++;
        }
        g_ptr_array_free(paths, TRUE);
    }
    g_assert_cmpint(files, >=, 80);
}

/* The pass dump file: many modules, each after a "// -----// IR Dump"
 * header, reusing alias names. */
static void test_pass_dumps(void)
{
    if (!tk_test_have_dumps())
        return;
    char *path = tk_test_dump_path("vector_add/mlir_passes.txt");
    GString *all = load(path);

    /* Complete dumps cut out of it, one at a time. */
    GPtrArray *starts = g_ptr_array_new();
    for (const char *p = all->str; (p = strstr(p, "// -----// IR Dump"));
         p++)
        g_ptr_array_add(starts, (gpointer)p);
    g_assert_cmpuint(starts->len, ==, 73); /* grep -c '^// -----//' */
    guint picks[] = {0, 36, 72};
    for (size_t i = 0; i < G_N_ELEMENTS(picks); i++) {
        const char *b = g_ptr_array_index(starts, picks[i]);
        const char *e = picks[i] + 1 < starts->len
                            ? g_ptr_array_index(starts, picks[i] + 1)
                            : all->str + all->len;
        fixture f;
        fixture_parse(&f, "dump", b, (size_t)(e - b));
        assert_no_diags(&f);
        g_assert_cmpuint(tk_stage_located_line_count(f.stage), >, 10);
        if (picks[i] == 0) {
            /* The first dump, before inlining: the helper is still a
             * function.
             * tt.func private @triton.language.standard._sum_combine__fp32_
             *   fp32__(%a: f32 loc("a"(#loc21)), %b: f32 loc("b"(#loc21)))
             * #loc21 = loc(".../triton/language/standard.py":262:0)
             * %0 = arith.addf %a, %b : f32 loc(#loc22)
             * #loc22 = loc(".../triton/language/standard.py":263:15) */
            assert_stacks(&f, "@triton.language.standard._sum_combine__fp32_"
                              "fp32__(%a: f32",
                          1, "standard.py:262:0");
            assert_stacks(&f, "%0 = arith.addf %a, %b : f32", 1,
                          "standard.py:263:15");
        }
        fixture_clear(&f);
    }
    g_ptr_array_free(starts, TRUE);

    /* The whole file: each module sees its own aliases. */
    fixture f;
    fixture_read(&f, TK_STAGE_TTIR, path);
    assert_no_diags(&f);
    /* Same two lines in the first module as above. */
    assert_stacks(&f, "%0 = arith.addf %a, %b : f32", 1, "standard.py:263:15");
    fixture_clear(&f);
    g_string_free(all, TRUE);
    g_free(path);

    /* The largest pass dumps: no diagnostics, and a rough speed. */
    static const char *const big[] = {"persistent_tma_matmul/mlir_passes.txt",
                                      "autotuned_matmul/mlir_passes.txt",
                                      "compiled_block/mlir_passes.txt"};
    for (size_t i = 0; i < G_N_ELEMENTS(big); i++) {
        path = tk_test_dump_path(big[i]);
        gint64 t0 = g_get_monotonic_time();
        fixture_read(&f, TK_STAGE_TTGIR, path);
        gint64 t1 = g_get_monotonic_time();
        g_test_message("%s: %.1f MB in %.1f ms (%.0f MB/s, read included)",
                       big[i], tk_stage_size(f.stage) / 1e6, (t1 - t0) / 1e3,
                       tk_stage_size(f.stage) / ((t1 - t0) + 1.0));
        assert_no_diags(&f);
        g_assert_cmpuint(tk_stage_located_line_count(f.stage), >, 10000);
        fixture_clear(&f);
        g_free(path);
    }
}

/* ---- edited real lines -------------------------------------------------- */

static GString *vector_add_text(void)
{
    char *path = vector_add_ttgir();
    GString *s = load(path);
    g_free(path);
    return s;
}

static void test_alias_defined_later(void)
{
    if (!tk_test_have_dumps())
        return;
    GString *s = vector_add_text();
    /* Move #loc13 (used by #loc33, line 10) from the top to the very end. */
    const char *def =
        "#loc13 = loc(\"/tmp/capture/vector_add/src/vector_add.py\":16:15)\n";
    edit(s, def, "");
    g_string_append(s, def);
    fixture f;
    fixture_parse(&f, "later.ttgir", s->str, s->len);
    assert_no_diags(&f);
    assert_stacks(&f, "^bb0(%s_10: f32", 1, "vector_add.py:16:15");
    assert_stacks(&f, "%s_12 = arith.addf %s_10, %s_11", 1,
                  "standard.py:263:15 <- standard.py:293:36 <- "
                  "vector_add.py:16:15");
    fixture_clear(&f);
    g_string_free(s, TRUE);
}

static void test_alias_cycle(void)
{
    if (!tk_test_have_dumps())
        return;
    GString *s = vector_add_text();
    /* #loc1 = loc(unknown)   (line 4)  ->  #loc1 = loc(#loc2)
     * #loc2 = loc(".../vector_add.py":8:24)  (line 43)  ->  loc(#loc1) */
    edit(s, "#loc1 = loc(unknown)", "#loc1 = loc(#loc2)");
    edit(s, "#loc2 = loc(\"/tmp/capture/vector_add/src/vector_add.py\":8:24)",
         "#loc2 = loc(#loc1)");
    fixture f;
    fixture_parse(&f, "cycle.ttgir", s->str, s->len);
    /* One of the two definitions is named. */
    g_assert_true(has_warning(&f, "cycle.ttgir", 4, "cycle") ||
                  has_warning(&f, "cycle.ttgir", 43, "cycle"));
    /* %pid ... loc(#loc23), #loc23 = loc("pid"(#loc2)): no stack left. */
    assert_stacks(&f, "%pid = tt.get_program_id", 1, "");
    /* callsite(#loc1 at #loc33): #loc1 has no stack, the caller stays. */
    assert_stacks(&f, "^bb0(%s_10: f32", 1, "vector_add.py:16:15");
    /* The rest is untouched. */
    assert_stacks(&f, "%block_start = arith.muli", 1, "vector_add.py:9:24");
    fixture_clear(&f);
    g_string_free(s, TRUE);
}

static void test_undefined_alias(void)
{
    if (!tk_test_have_dumps())
        return;
    GString *s = vector_add_text();
    /* tt.return loc(#loc18), and #loc18's definition removed. */
    edit(s, "#loc18 = loc(\"/tmp/capture/vector_add/src/vector_add.py\":18:4)\n",
         "");
    fixture f;
    fixture_parse(&f, "undef.ttgir", s->str, s->len);
    uint32_t l = tk_test_line_with(f.stage, "tt.return loc(#loc18)", 1);
    g_assert_true(has_warning(&f, "undef.ttgir", l, "#loc18"));
    g_assert_true(has_warning(&f, "undef.ttgir", l, "not defined"));
    g_assert_cmpuint(tk_diags_count(f.diags), ==, 1);
    assert_stacks(&f, "tt.return loc(#loc18)", 1, "");
    assert_stacks(&f, "tt.store %1, %output_9", 1, "vector_add.py:18:35");
    fixture_clear(&f);
    g_string_free(s, TRUE);
}

static void test_fused(void)
{
    if (!tk_test_have_dumps())
        return;
    GString *s = vector_add_text();
    /* %output = arith.addf %x_4, %y_6 : ... loc(#loc32)
     *   #loc32 = "output"(#loc11) = 14:17, #loc34 = "output"(#loc15) = 17:14 */
    edit(s, "tensor<1024xf32, #blocked> loc(#loc32)",
         "tensor<1024xf32, #blocked> loc(fused[#loc32, #loc34])");
    /* With metadata, and unknown parts:
     * %output_9 = arith.subf ... loc(#loc34) */
    edit(s, "%output_9 = arith.subf %output, %output_8 : "
            "tensor<1024xf32, #blocked> loc(#loc34)",
         "%output_9 = arith.subf %output, %output_8 : "
         "tensor<1024xf32, #blocked> loc(fused<#blocked>[unknown, #loc34, "
         "#loc1])");
    /* Inside a callsite: every combination.
     * #loc37 = loc(callsite(#loc14 at #loc35)) */
    edit(s, "#loc37 = loc(callsite(#loc14 at #loc35))",
         "#loc37 = loc(callsite(fused[#loc14, #loc12] at #loc35))");
    fixture f;
    fixture_parse(&f, "fused.ttgir", s->str, s->len);
    assert_no_diags(&f);
    assert_stacks(&f, "%output = arith.addf", 1,
                  "vector_add.py:14:17 | vector_add.py:17:14");
    assert_stacks(&f, "%output_9 = arith.subf", 1, "vector_add.py:17:14");
    assert_stacks(&f, "%s_12 = arith.addf %s_10, %s_11", 1,
                  "standard.py:263:15 <- standard.py:293:36 <- "
                  "vector_add.py:16:15 | standard.py:293:36 <- "
                  "standard.py:293:36 <- vector_add.py:16:15");
    fixture_clear(&f);
    g_string_free(s, TRUE);
}

static void test_range_and_escapes(void)
{
    if (!tk_test_have_dumps())
        return;
    GString *s = vector_add_text();
    /* Range locations (newer MLIR): only the start is a frame. */
    edit(s, "vector_add.py\":8:24)", "vector_add.py\":8:24 to 8:40)");
    edit(s, "vector_add.py\":9:24)", "vector_add.py\":9:24 to :31)");
    /* A path with escapes: \" \\ and a two-hex-digit escape (\63 = 'c'). */
    edit(s, "#loc17 = loc(\"/tmp/capture/vector_add/src/vector_add.py\":18:35)",
         "#loc17 = loc(\"/tmp/cap\\\"ture/dir\\\\x/ve\\63tor_add.py\":18:35)");
    /* A line only: "file":L. */
    edit(s, "vector_add.py\":18:4)", "vector_add.py\":18)");
    fixture f;
    fixture_parse(&f, "range.ttgir", s->str, s->len);
    assert_no_diags(&f);
    assert_stacks(&f, "%pid = tt.get_program_id", 1, "vector_add.py:8:24");
    assert_stacks(&f, "%block_start = arith.muli", 1, "vector_add.py:9:24");
    assert_stacks(&f, "tt.return loc(#loc18)", 1, "vector_add.py:18:0");
    uint32_t l = tk_test_line_with(f.stage, "tt.store %1, %output_9", 1);
    const tk_stack_id *ids;
    g_assert_cmpuint(tk_stage_line_stacks(f.stage, l, &ids), ==, 1);
    size_t n;
    const tk_frame *fr = tk_loctab_stack_frames(f.tab, ids[0], &n);
    g_assert_cmpuint(n, ==, 1);
    g_assert_cmpstr(tk_loctab_file_path(f.tab, fr[0].file), ==,
                    "/tmp/cap\"ture/dir\\x/vector_add.py");
    g_assert_cmpuint(fr[0].line, ==, 18);
    g_assert_cmpuint(fr[0].col, ==, 35);
    fixture_clear(&f);
    g_string_free(s, TRUE);
}

static void test_overflow(void)
{
    if (!tk_test_have_dumps())
        return;
    GString *s = vector_add_text();
    /* #loc2 (line 43) line number past 2^32; #loc3 (line 44) column. */
    edit(s, "vector_add.py\":8:24)", "vector_add.py\":99999999999:24)");
    edit(s, "vector_add.py\":9:24)", "vector_add.py\":9:4294967296)");
    /* The largest that fits stays. */
    edit(s, "vector_add.py\":10:41)", "vector_add.py\":4294967295:41)");
    fixture f;
    fixture_parse(&f, "overflow.ttgir", s->str, s->len);
    g_assert_true(has_warning(&f, "overflow.ttgir", 43, "32 bits"));
    g_assert_true(has_warning(&f, "overflow.ttgir", 44, "32 bits"));
    g_assert_cmpuint(tk_diags_count(f.diags), ==, 2);
    assert_stacks(&f, "%pid = tt.get_program_id", 1, "");
    assert_stacks(&f, "%block_start = arith.muli", 1, "");
    assert_stacks(&f, "%offsets = tt.make_range", 1,
                  "vector_add.py:4294967295:41");
    fixture_clear(&f);
    g_string_free(s, TRUE);
}

static void test_cut_lines(void)
{
    if (!tk_test_have_dumps())
        return;
    GString *s = vector_add_text();
    /* ^bb0(%s_10: f32 loc(callsite(#loc1 at #loc33)), %s_11: f32 loc(callsite(
     * with the rest of the line gone. */
    edit(s, "%s_11: f32 loc(callsite(#loc1 at #loc33))):",
         "%s_11: f32 loc(callsite(");
    /* An unbalanced one in the middle of a line. */
    edit(s, "%pid = tt.get_program_id x : i32 loc(#loc23)",
         "%pid = tt.get_program_id x : i32 loc(callsite(#loc2 at #loc23");
    fixture f;
    fixture_parse(&f, "cut.ttgir", s->str, s->len);
    uint32_t bb = tk_test_line_with(f.stage, "^bb0(%s_10: f32", 1);
    uint32_t pid = tk_test_line_with(f.stage, "%pid = tt.get_program_id", 1);
    g_assert_true(has_warning(&f, "cut.ttgir", bb, "cut short"));
    g_assert_true(has_warning(&f, "cut.ttgir", pid, "location"));
    g_assert_cmpuint(tk_diags_count(f.diags), ==, 2);
    /* What was readable on the line stays. */
    assert_stacks(&f, "^bb0(%s_10: f32", 1, "vector_add.py:16:15");
    assert_stacks(&f, "%pid = tt.get_program_id", 1, "");
    assert_stacks(&f, "%block_start = arith.muli", 1, "vector_add.py:9:24");
    fixture_clear(&f);

    /* The whole file cut in the middle of a location. */
    const char *cut = strstr(s->str, "^bb0(%s_10: f32 loc(callsite(#lo");
    g_assert_nonnull(cut);
    size_t len = (size_t)(cut - s->str) + strlen("^bb0(%s_10: f32 loc(callsite(#lo");
    fixture_parse(&f, "cutfile.ttgir", s->str, len);
    g_assert_cmpuint(tk_diags_count(f.diags), >, 0);
    /* The top aliases were read: tt.func ... loc("x_ptr"(#loc)). */
    assert_stacks(&f, "tt.func public @add_kernel", 1, "vector_add.py:7:0");
    fixture_clear(&f);
    g_string_free(s, TRUE);
}

static void test_only_real_loc_tokens(void)
{
    if (!tk_test_have_dumps())
        return;
    GString *s = vector_add_text();
    /* loc( inside attribute strings and at the end of a longer word. */
    edit(s, "attributes {noinline = false} {",
         "attributes {noinline = false, note = \"a \\\" loc(#loc2)\"} {");
    edit(s, "tt.return loc(#loc18)", "tt.return {x = myloc(#loc3)} loc(#loc18)");
    fixture f;
    fixture_parse(&f, "tokens.ttgir", s->str, s->len);
    assert_no_diags(&f);
    assert_stacks(&f, "tt.func public @add_kernel", 1, "vector_add.py:7:0");
    assert_stacks(&f, "tt.return {x = myloc(#loc3)}", 1, "vector_add.py:18:4");
    fixture_clear(&f);
    g_string_free(s, TRUE);
}

/* ---- hostile input ------------------------------------------------------ */

static void test_hostile(void)
{
    /* Deep nesting on one line, a long alias chain, huge lines: warnings,
     * no crash, no hang (the test's timeout is the bound). */
    GString *s = g_string_new("%0 = op loc(");
    for (int i = 0; i < 100000; i++)
        g_string_append(s, "callsite(");
    g_string_append(s, "\n%1 = op loc(");
    for (int i = 0; i < 100000; i++)
        g_string_append(s, "\"n\"(");
    g_string_append(s, "\"f.py\":1:1");
    for (int i = 0; i < 100000; i++)
        g_string_append_c(s, ')');
    g_string_append(s, ")\n%2 = op loc(#c0)\n");
    for (int i = 0; i < 100000; i++)
        g_string_append_printf(s, "#c%d = loc(#c%d)\n", i, i + 1);
    g_string_append(s, "#c100000 = loc(\"f.py\":2:2)\n%3 = op ");
    for (int i = 0; i < 200000; i++)
        g_string_append(s, "loc(#c99990) ");
    g_string_append(s, "\n%4 = op ");
    for (int i = 0; i < 200000; i++)
        g_string_append(s, "loc(#c99990 ");
    g_string_append(s, "\n");
    fixture f;
    fixture_parse(&f, "hostile.ttgir", s->str, s->len);
    g_assert_true(has_warning(&f, "hostile.ttgir", 1, "256"));
    g_assert_true(has_warning(&f, "hostile.ttgir", 2, "256"));
    /* The end of the chain is near enough from #c99990. */
    assert_stacks(&f, "%3 = op", 1, "f.py:2:2");
    g_assert_true(has_warning(&f, "hostile.ttgir", 100006, "not shown"));
    fixture_clear(&f);

    /* Callsites of fused locations multiply: capped. */
    g_string_assign(s, "#a0 = loc(fused[\"a.py\":1:1, \"b.py\":2:2])\n");
    for (int i = 1; i < 400; i++)
        g_string_append_printf(s, "#a%d = loc(callsite(#a%d at #a%d))\n", i,
                               i - 1, i - 1);
    for (int i = 0; i < 400; i++)
        g_string_append_printf(s, "%%%d = op loc(#a%d)\n", i, i);
    fixture_parse(&f, "multiply.ttgir", s->str, s->len);
    g_assert_true(has_warning(&f, "multiply.ttgir", 0, "stacks"));
    g_assert_true(has_warning(&f, "multiply.ttgir", 0, "frames"));
    const tk_stack_id *ids;
    uint32_t last = tk_test_line_with(f.stage, "%399 = op loc(#a399)", 1);
    size_t n = tk_stage_line_stacks(f.stage, last, &ids);
    g_assert_cmpuint(n, >=, 1);
    g_assert_cmpuint(n, <=, 16);
    size_t nf;
    tk_loctab_stack_frames(f.tab, ids[0], &nf);
    g_assert_cmpuint(nf, <=, 256);
    fixture_clear(&f);

    /* Garbage: braces, quotes, partial tokens. */
    g_string_assign(s, "}\n} else {\n\"\nloc(\"\nloc(#\nloc(fused<\n"
                       "loc(fused[\"a\":1:2,\nloc(callsite(\"a\":1:1 at\n"
                       "loc(\"a\"::)\nloc(\"a\":1:)\nloc(\"a\":1:2 to )\n"
                       "loc(\"a\"(\"b\"(unknown))\nx { loc(\"a\":1:2)\n"
                       "#x = loc(\n#y = loc(#y)\n loc(#y) loc(#x)\n"
                       "loc(\"\\\n{\n");
    fixture_parse(&f, "garbage.ttgir", s->str, s->len);
    g_assert_cmpuint(tk_diags_count(f.diags), >, 5);
    fixture_clear(&f);
    g_string_free(s, TRUE);
}


/* Line kinds of add_kernel.ttgir (vector_add), read from the dump:
 *   1 #blocked = #ttg.blocked<...>        metadata
 *   3 #loc = loc("/tmp/.../vector_add.py":7:0)   directive, a location
 *  12 module attributes {...} {            directive
 *  13 tt.func public @add_kernel(...) {    directive (a function header)
 *  14 %c1024_i32 = arith.constant ...      instruction
 *  30 %s_7 = "tt.reduce"(%s) <{...}> ({    instruction (opens a region)
 *  31 ^bb0(%s_10: f32 loc(...), ...):      label
 *  34 }) : (...) -> f32 loc(#loc35)        other (closes the reduce)
 *  40 tt.return loc(#loc18)                instruction
 *  41 } loc(#loc)                          other
 *  43 #loc2 = loc(".../vector_add.py":8:24) directive, a location */
static void test_line_kinds(void)
{
    if (!tk_test_have_dumps())
        return;
    char *path = vector_add_ttgir();
    fixture f;
    fixture_read(&f, TK_STAGE_TTGIR, path);
    static const struct {
        uint32_t line;
        tk_line_kind kind;
        int location;
    } want[] = {
        {1, TK_LINE_METADATA, 0},     {3, TK_LINE_DIRECTIVE, 1},
        {12, TK_LINE_DIRECTIVE, 0},   {13, TK_LINE_DIRECTIVE, 0},
        {14, TK_LINE_INSTRUCTION, 0}, {30, TK_LINE_INSTRUCTION, 0},
        {31, TK_LINE_LABEL, 0},       {34, TK_LINE_OTHER, 0},
        {40, TK_LINE_INSTRUCTION, 0}, {41, TK_LINE_OTHER, 0},
        {43, TK_LINE_DIRECTIVE, 1},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(want); i++) {
        g_assert_cmpstr(tk_line_kind_name(tk_stage_line_kind(f.stage, want[i].line)), ==,
                        tk_line_kind_name(want[i].kind));
        g_assert_cmpint(tk_stage_line_is_location(f.stage, want[i].line), ==, want[i].location);
    }
    /* Lines 14-40 are the body: 27 lines, of which 31 and 34 are no ops. */
    uint32_t ops = 0;
    for (uint32_t l = 14; l <= 40; l++)
        ops += tk_stage_line_kind(f.stage, l) == TK_LINE_INSTRUCTION;
    g_assert_cmpuint(ops, ==, 25);
    g_assert_cmpuint(tk_stage_instruction_count(f.stage), ==, 25);
    fixture_clear(&f);
    g_free(path);
}

/* A callsite chain 100 deep (each alias the callee of the next; deeper
 * chains meet the parser's nesting bound of 256 first): the one frame rule
 * (read/frames.h) keeps the 32 innermost frames (lines 1-32) and the 32
 * outermost (69-100), with a warning naming the line. */
static void test_deep_callsite_chain(void)
{
    GString *g = g_string_new("#l1 = loc(\"/a.py\":1:1)\n");
    for (int i = 2; i <= 100; i++)
        g_string_append_printf(g, "#f%d = loc(\"/a.py\":%d:1)\n#l%d = loc(callsite(#l%d at #f%d))\n",
                               i, i, i, i - 1, i);
    g_string_append(g, "module {\n  %0 = arith.constant 0 : i32 loc(#l100)\n} loc(#l1)\n");
    fixture f;
    fixture_parse(&f, "deep.ttir", g->str, g->len);
    uint32_t line = tk_test_line_with(f.stage, "arith.constant", 1);
    const tk_stack_id *ids;
    g_assert_cmpuint(tk_stage_line_stacks(f.stage, line, &ids), ==, 1);
    size_t n;
    const tk_frame *fr = tk_loctab_stack_frames(f.tab, ids[0], &n);
    g_assert_cmpuint(n, ==, 64);
    g_assert_cmpuint(fr[0].line, ==, 1);
    g_assert_cmpuint(fr[31].line, ==, 32);
    g_assert_cmpuint(fr[32].line, ==, 69);
    g_assert_cmpuint(fr[63].line, ==, 100);
    g_assert_cmpuint(tk_test_count_diags_with(f.diags, TK_DIAG_WARNING, "middle frames are dropped"),
                     >=, 1);
    fixture_clear(&f);
    g_string_free(g, TRUE);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/reader_mlir/vector_add_ttgir", test_vector_add_ttgir);
    g_test_add_func("/reader_mlir/matmul_inlined_helper",
                    test_matmul_inlined_helper);
    g_test_add_func("/reader_mlir/softmax_regions", test_softmax_regions);
    g_test_add_func("/reader_mlir/else_continues_region",
                    test_else_continues_region);
    g_test_add_func("/reader_mlir/gluon_and_inductor", test_gluon_and_inductor);
    g_test_add_func("/reader_mlir/all_stage_files_clean",
                    test_all_stage_files_clean);
    g_test_add_func("/reader_mlir/pass_dumps", test_pass_dumps);
    g_test_add_func("/reader_mlir/alias_defined_later",
                    test_alias_defined_later);
    g_test_add_func("/reader_mlir/alias_cycle", test_alias_cycle);
    g_test_add_func("/reader_mlir/undefined_alias", test_undefined_alias);
    g_test_add_func("/reader_mlir/fused", test_fused);
    g_test_add_func("/reader_mlir/range_and_escapes", test_range_and_escapes);
    g_test_add_func("/reader_mlir/overflow", test_overflow);
    g_test_add_func("/reader_mlir/cut_lines", test_cut_lines);
    g_test_add_func("/reader_mlir/only_real_loc_tokens",
                    test_only_real_loc_tokens);
    g_test_add_func("/reader_mlir/hostile", test_hostile);
    g_test_add_func("/reader_mlir/line_kinds", test_line_kinds);
    g_test_add_func("/reader_mlir/deep_callsite_chain", test_deep_callsite_chain);
    return g_test_run();
}
