/* test_reader_sass.c - source locations in SASS from nvdisasm -g / -gi.
 *
 * Expectations were read by hand from the shared dumps; each test quotes the
 * dump lines it relies on.  None of the captures has inlined frames (grep -l 'inlined at'
 * over every kernel_dump .sass_g and .sass_gi finds nothing: Triton's cubins carry
 * no inlining info, so -gi prints what -g prints), so the inline tests edit
 * real lines of a real .sass_gi into the form nvdisasm -gi writes, shown in
 * the vLLM blog on CUDA debugging and parsed by tritonparse: one comment per
 * frame, innermost first, each but the last naming its caller.
 */
#include <string.h>

#include "tk_test.h"

#define STD_PY "/opt/torch/.venv/lib/python3.12/site-packages/triton/language/standard.py"
#define VA_PY "/tmp/capture/vector_add/src/vector_add.py"

typedef struct {
    tk_loctab *tab;
    tk_diags *diags;
    tk_stage *stage;
} fixture;

static void fixture_clear(fixture *f)
{
    tk_stage_free(f->stage);
    tk_diags_free(f->diags);
    tk_loctab_free(f->tab);
}

static void read_dump(fixture *f, const char *dir, const char *suffix)
{
    char *path = tk_test_find_dump(dir, suffix);
    f->tab = tk_loctab_new();
    f->diags = tk_diags_new();
    f->stage = tk_test_read_stage(TK_STAGE_SASS, path, f->tab, f->diags);
    g_free(path);
}

static void parse_text(fixture *f, const char *name, const char *text)
{
    f->tab = tk_loctab_new();
    f->diags = tk_diags_new();
    f->stage = tk_stage_parse(TK_STAGE_SASS, name, text, strlen(text), f->tab,
                              f->diags);
    g_assert_nonnull(f->stage);
}

/* The stacks of the NTH line containing NEEDLE.  Caller frees. */
static char *stacks_at(const fixture *f, const char *needle, int nth)
{
    return tk_test_line_stacks_string(
        f->stage, f->tab, tk_test_line_with(f->stage, needle, nth));
}

static void assert_stacks(const fixture *f, const char *needle, int nth,
                          const char *expected)
{
    char *got = stacks_at(f, needle, nth);
    if (g_strcmp0(got, expected) != 0)
        g_error("%s: line %u (\"%s\" #%d): stacks \"%s\", expected \"%s\"",
                tk_stage_path(f->stage), tk_test_line_with(f->stage, needle, nth),
                needle, nth, got, expected);
    g_free(got);
}

/* The real add_kernel.sass_gi with every line equal to FROM replaced by TO
 * (which may hold several lines).  Caller frees. */
static char *vector_add_edited(const char *const *from, const char *const *to,
                               size_t n)
{
    char *path = tk_test_find_dump("vector_add/kernel_dump", ".sass_gi");
    char *text;
    g_assert_true(g_file_get_contents(path, &text, NULL, NULL));
    g_free(path);
    char **lines = g_strsplit(text, "\n", -1);
    GString *out = g_string_new(NULL);
    for (char **l = lines; *l; l++) {
        const char *line = *l;
        for (size_t i = 0; i < n; i++)
            if (strcmp(line, from[i]) == 0)
                line = to[i];
        g_string_append(out, line);
        if (l[1])
            g_string_append_c(out, '\n');
    }
    g_strfreev(lines);
    g_free(text);
    return g_string_free(out, FALSE);
}

/* vector_add/kernel_dump/.../add_kernel.sass_gi, lines 16-18, 50-52, 74-78:
 *   .text.add_kernel:
 *   	//## File "/tmp/capture/vector_add/src/vector_add.py", line 7
 *           /\*0000*\/                   LDC R1, c[0x0][0x28] ;
 *   	//## File "/tmp/capture/vector_add/src/vector_add.py", line 12
 *           /\*0130*\/                   CS2R R4, SRZ ;
 *           /\*0140*\/              @!P2 LDG.E.128 R16, desc[UR6][R20.64] ;
 *   	//## File "/opt/torch/.../triton/language/standard.py", line 263
 *           /\*0230*\/                   FADD R17, R12, R13 ;
 *           /\*0240*\/                   FADD R16, R14, R17 ;
 *   	//## File "/tmp/capture/vector_add/src/vector_add.py", line 14
 *           /\*0250*\/                   FADD R8, R8, R4 ;
 * and at the end of the function (lines 148-166):
 *   	//## File "/tmp/capture/vector_add/src/vector_add.py", line 18
 *           /\*0530*\/              @!P2 STG.E.128 desc[UR6][R16.64], R4 ;
 *           ...
 *   .L_x_0:
 *           /\*0570*\/                   BRA `(.L_x_0);
 *   ...
 *   //--------------------- SYMBOLS --------------------------
 */
static void test_vector_add(void)
{
    if (!tk_test_have_dumps())
        return;
    fixture f;
    read_dump(&f, "vector_add/kernel_dump", ".sass_gi");
    g_assert_cmpuint(tk_test_print_diags(f.diags), ==, 0);

    assert_stacks(&f, "/*0000*/", 1, "vector_add.py:7:0");
    assert_stacks(&f, "/*0130*/", 1, "vector_add.py:12:0");
    assert_stacks(&f, "/*0140*/", 1, "vector_add.py:12:0");
    assert_stacks(&f, "/*0230*/", 1, "standard.py:263:0");
    assert_stacks(&f, "/*0240*/", 1, "standard.py:263:0");
    assert_stacks(&f, "/*0250*/", 1, "vector_add.py:14:0");
    /* The comment lines themselves carry their location. */
    assert_stacks(&f, "//## File \"" STD_PY "\", line 263", 1, "standard.py:263:0");
    assert_stacks(&f, "//## File \"" VA_PY "\", line 7", 1, "vector_add.py:7:0");
    /* The last location holds to the end of the function, past labels. */
    assert_stacks(&f, "/*0570*/", 1, "vector_add.py:18:0");
    assert_stacks(&f, "/*05f0*/", 1, "vector_add.py:18:0");
    /* Labels, directives, banners: nothing. */
    assert_stacks(&f, ".text.add_kernel:", 1, "");
    assert_stacks(&f, ".L_x_0:", 1, "");
    assert_stacks(&f, ".headerflags", 1, "");
    assert_stacks(&f, "SYMBOLS", 1, "");
    assert_stacks(&f, ".nv.reservedSmem.offset0,@object", 1, "");

    /* The full path, not only its base name. */
    const tk_stack_id *ids;
    g_assert_cmpuint(tk_stage_line_stacks(f.stage,
                         tk_test_line_with(f.stage, "/*0230*/", 1), &ids), ==, 1);
    size_t n;
    const tk_frame *fr = tk_loctab_stack_frames(f.tab, ids[0], &n);
    g_assert_cmpuint(n, ==, 1);
    g_assert_cmpstr(tk_loctab_file_path(f.tab, fr[0].file), ==, STD_PY);

    /* grep -c counts 49 "//##" comments and 96 instruction lines (an
     * address in a comment, then the instruction), all after the first
     * comment (line 17). */
    g_assert_cmpuint(tk_stage_located_line_count(f.stage), ==, 49 + 96);
    g_assert_false(tk_stage_has_inline_frames(f.stage));
    fixture_clear(&f);
}

/* The -g dump of vector_add is byte for byte the -gi one (cmp), so it must
 * give the same stacks on every line, with ids from the same table. */
static void test_vector_add_g_same_as_gi(void)
{
    if (!tk_test_have_dumps())
        return;
    fixture g, gi;
    read_dump(&g, "vector_add/kernel_dump", ".sass_g");
    read_dump(&gi, "vector_add/kernel_dump", ".sass_gi");
    g_assert_cmpuint(tk_stage_line_count(g.stage), ==, tk_stage_line_count(gi.stage));
    for (uint32_t l = 1; l <= tk_stage_line_count(g.stage); l++) {
        char *a = tk_test_line_stacks_string(g.stage, g.tab, l);
        char *b = tk_test_line_stacks_string(gi.stage, gi.tab, l);
        g_assert_cmpstr(a, ==, b);
        g_free(a);
        g_free(b);
    }
    fixture_clear(&g);
    fixture_clear(&gi);
}

/* softmax/kernel_dump/.../softmax_kernel.sass_gi, lines 133-140, 163-166 and
 * 369-373:
 *   	//## File "/tmp/capture/softmax/src/softmax.py", line 11
 *           /\*04c0*\/                   LOP3.LUT R16, R16, 0x1c, RZ, 0xc0, !PT ;
 *           /\*04d0*\/                   ULDC.64 UR20, c[0x0][0x220] ;
 *   .L_x_1:
 *   	//## File "/tmp/capture/softmax/src/softmax.py", line 15
 *           /\*04e0*\/                   DEPBAR.LE SB0, 0x0 ;
 *           /\*04f0*\/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;
 *   ...
 *   	//## File ".../triton/language/standard.py", line 191
 *           /\*05d0*\/                   UMOV UR8, 0x400 ;
 *   	//## File "/tmp/capture/softmax/src/softmax.py", line 11
 *           /\*05e0*\/                   UIMAD UR6, UR12, UR20, UR6 ;
 *   ...
 *   	//## File "/tmp/capture/softmax/src/softmax.py", line 11
 *           /\*0e50*\/              @!P5 BRA `(.L_x_1) ;
 *   .L_x_0:
 *           /\*0e60*\/                   DEPBAR.LE SB0, 0x0 ;
 *           /\*0e80*\/                   EXIT ;
 */
static void test_softmax(void)
{
    if (!tk_test_have_dumps())
        return;
    fixture f;
    read_dump(&f, "softmax/kernel_dump", ".sass_gi");
    g_assert_cmpuint(tk_test_print_diags(f.diags), ==, 0);
    assert_stacks(&f, "/*04d0*/", 1, "softmax.py:11:0");
    assert_stacks(&f, ".L_x_1:", 1, "");
    assert_stacks(&f, "/*04e0*/", 1, "softmax.py:15:0");
    assert_stacks(&f, "/*04f0*/", 1, "softmax.py:15:0");
    assert_stacks(&f, "/*05d0*/", 1, "standard.py:191:0");
    assert_stacks(&f, "/*05e0*/", 1, "softmax.py:11:0");
    assert_stacks(&f, "/*0e50*/", 1, "softmax.py:11:0");
    assert_stacks(&f, "/*0e60*/", 1, "softmax.py:11:0");
    assert_stacks(&f, "/*0e80*/", 1, "softmax.py:11:0");
    g_assert_false(tk_stage_has_inline_frames(f.stage));
    fixture_clear(&f);
}

/* compiled_block/kernel_dump/HHJM.../triton_per_fused_clone_native_layer_norm_
 * transpose_0.sass_gi, lines 14-26 (a TorchInductor kernel: the source is a
 * generated file):
 *   	//## File "/tmp/capture/compiled_block/inductor/tr/ctr6bc...2y.py", line 18
 *           /\*0000*\/                   LDC R1, c[0x0][0x28] ;
 *   	//## File ".../ctr6bc...2y.py", line 24
 *           /\*0010*\/                   S2R R4, SR_CTAID.X ;
 *   	//## File ".../ctr6bc...2y.py", line 36
 *           /\*0020*\/                   ULDC.64 UR4, c[0x0][0x218] ;
 *           /\*0030*\/                   CS2R R48, SRZ ;
 *           /\*0040*\/                   CS2R R50, SRZ ;
 *   	//## File ".../ctr6bc...2y.py", line 25
 *           /\*0050*\/                   S2R R0, SR_TID.X ;
 */
static void test_compiled_block(void)
{
    if (!tk_test_have_dumps())
        return;
    fixture f;
    read_dump(&f, "compiled_block/kernel_dump/HHJM2UFAK3VS6JCY7MQTHC37XL5ERYBFDFVR2322BUNBA3Y2WYVQ",
              ".sass_gi");
    g_assert_cmpuint(tk_test_print_diags(f.diags), ==, 0);
    const char *py = "ctr6bcgmyyrcn2jsrtlyknb4uco4z6lnd7m5ec2usyufqqknoy2y.py";
    char *e18 = g_strdup_printf("%s:18:0", py), *e24 = g_strdup_printf("%s:24:0", py),
         *e36 = g_strdup_printf("%s:36:0", py), *e25 = g_strdup_printf("%s:25:0", py);
    assert_stacks(&f, "/*0000*/", 1, e18);
    assert_stacks(&f, "/*0010*/", 1, e24);
    assert_stacks(&f, "/*0020*/", 1, e36);
    assert_stacks(&f, "/*0040*/", 1, e36);
    assert_stacks(&f, "/*0050*/", 1, e25);
    g_free(e18);
    g_free(e24);
    g_free(e36);
    g_free(e25);
    fixture_clear(&f);
}

/* Every .sass_g / .sass_gi of every capture reads without a diagnostic and
 * locates lines; Triton's own .sass and the .cuobjdump_sass have no line
 * info: no stacks, and no complaint either. */
static void test_all_dumps(void)
{
    if (!tk_test_have_dumps())
        return;
    static const char *const subs[] = {"kernel_dump", NULL};
    /* Suffixes do not overlap: ".sass" does not end ".sass_g". */
    static const struct {
        const char *suffix;
        gboolean with_lines;
    } kinds[] = {{".sass_g", TRUE}, {".sass_gi", TRUE}, {".sass", FALSE},
                 {".cuobjdump_sass", FALSE}};
    int n_with = 0, n_without = 0;
    tk_loctab *tab = tk_loctab_new();
    for (size_t k = 0; k < G_N_ELEMENTS(kinds); k++) {
        GPtrArray *paths = tk_test_shared_files(subs, kinds[k].suffix);
        for (guint i = 0; i < paths->len; i++) {
            const char *p = g_ptr_array_index(paths, i);
            tk_diags *diags = tk_diags_new();
            tk_stage *s = tk_test_read_stage(TK_STAGE_SASS, p, tab, diags);
            if (tk_test_print_diags(diags) != 0)
                g_error("%s: diagnostics", p);
            if (kinds[k].with_lines) {
                g_assert_cmpuint(tk_stage_located_line_count(s), >, 0);
                n_with++;
            } else {
                g_assert_cmpuint(tk_stage_located_line_count(s), ==, 0);
                n_without++;
            }
            g_assert_false(tk_stage_has_inline_frames(s));
            tk_stage_free(s);
            tk_diags_free(diags);
        }
        g_ptr_array_free(paths, TRUE);
    }
    /* Listing the kernel_dump folders: 26 .sass_g and 26 .sass_gi; 26 .sass
     * and 26 .cuobjdump_sass. */
    g_assert_cmpint(n_with, ==, 52);
    g_assert_cmpint(n_without, ==, 52);
    tk_loctab_free(tab);
}

/* The line of add_kernel.sass_gi that precedes /\*0230*\/ (FADD R17, R12,
 * R13), and the two comments it is inlined through.  The chain is the one the
 * PTX of the same kernel records (add_kernel.ptx line 98):
 *   .loc 2 263 15 // standard.py:263:15 @[ standard.py:293:36 @[ vector_add.py:16:15 ] ]
 * and line 107:
 *   .loc 2 293 36 // standard.py:293:36 @[ vector_add.py:16:15 ] */
static const char *const real_263 = "\t//## File \"" STD_PY "\", line 263";
static const char *const real_293 = "\t//## File \"" STD_PY "\", line 293";

/* nvdisasm -gi's form: one comment per frame. */
static void test_inline_one_frame_per_comment(void)
{
    if (!tk_test_have_dumps())
        return;
    const char *from[] = {real_263, real_293};
    const char *to[] = {
        "\t//## File \"" STD_PY "\", line 263 inlined at \"" STD_PY "\", line 293\n"
        "\t//## File \"" STD_PY "\", line 293 inlined at \"" VA_PY "\", line 16\n"
        "\t//## File \"" VA_PY "\", line 16",
        "\t//## File \"" STD_PY "\", line 293 inlined at \"" VA_PY "\", line 16\n"
        "\t//## File \"" VA_PY "\", line 16"};
    char *text = vector_add_edited(from, to, 2);
    fixture f;
    parse_text(&f, "add_kernel-inlined.sass_gi", text);
    g_assert_cmpuint(tk_test_print_diags(f.diags), ==, 0);
    const char *s263 = "standard.py:263:0 <- standard.py:293:0 <- vector_add.py:16:0";
    const char *s293 = "standard.py:293:0 <- vector_add.py:16:0";
    assert_stacks(&f, "/*0230*/", 1, s263);
    assert_stacks(&f, "/*0240*/", 1, s263);
    /* Every comment of the block carries the whole stack. */
    uint32_t l263 = tk_test_line_with(f.stage, "line 263 inlined at", 1);
    for (uint32_t l = l263; l < l263 + 3; l++) {
        char *got = tk_test_line_stacks_string(f.stage, f.tab, l);
        g_assert_cmpstr(got, ==, s263);
        g_free(got);
    }
    /* And the -gi block that replaced line 71 (standard.py line 293). */
    assert_stacks(&f, "line 293 inlined at", 1, s293);
    /* Original lines 64-65: standard.py line 293, then /\*01b0*\/ S2UR. */
    assert_stacks(&f, "/*01b0*/", 1, s293);
    assert_stacks(&f, "/*0250*/", 1, "vector_add.py:14:0");
    g_assert_true(tk_stage_has_inline_frames(f.stage));
    fixture_clear(&f);
    g_free(text);
}

/* The whole chain on one comment, and a mix of both forms, give the same
 * stacks. */
static void test_inline_chained_on_one_line(void)
{
    if (!tk_test_have_dumps())
        return;
    const char *from[] = {real_263, real_293};
    const char *to_one[] = {
        "\t//## File \"" STD_PY "\", line 263 inlined at \"" STD_PY
        "\", line 293 inlined at \"" VA_PY "\", line 16",
        "\t//## File \"" STD_PY "\", line 293 inlined at \"" VA_PY "\", line 16"};
    const char *to_mixed[] = {
        "\t//## File \"" STD_PY "\", line 263 inlined at \"" STD_PY
        "\", line 293 inlined at \"" VA_PY "\", line 16\n"
        "\t//## File \"" VA_PY "\", line 16",
        real_293};
    const char *s263 = "standard.py:263:0 <- standard.py:293:0 <- vector_add.py:16:0";
    char *text = vector_add_edited(from, to_one, 2);
    fixture f;
    parse_text(&f, "one.sass_gi", text);
    g_assert_cmpuint(tk_test_print_diags(f.diags), ==, 0);
    assert_stacks(&f, "/*0230*/", 1, s263);
    assert_stacks(&f, "/*01b0*/", 1, "standard.py:293:0 <- vector_add.py:16:0");
    g_assert_true(tk_stage_has_inline_frames(f.stage));
    fixture_clear(&f);
    g_free(text);

    text = vector_add_edited(from, to_mixed, 2);
    parse_text(&f, "mixed.sass_gi", text);
    g_assert_cmpuint(tk_test_print_diags(f.diags), ==, 0);
    assert_stacks(&f, "/*0230*/", 1, s263);
    assert_stacks(&f, "line 263 inlined at", 1, s263);
    /* Left as -g writes it. */
    assert_stacks(&f, "/*01b0*/", 1, "standard.py:293:0");
    fixture_clear(&f);
    g_free(text);
}

/* A comment that does not continue the previous one's "inlined at" starts a
 * new location (the last of several rows at one address holds); the earlier
 * comment keeps its own stack. */
static void test_inline_broken_chain(void)
{
    fixture f;
    parse_text(&f, "broken.sass_gi",
               ".text.add_kernel:\n"
               "\t//## File \"" STD_PY "\", line 263 inlined at \"" STD_PY "\", line 293\n"
               "\t//## File \"" VA_PY "\", line 14\n"
               "        /*0230*/                   FADD R17, R12, R13 ;\n");
    g_assert_cmpuint(tk_test_print_diags(f.diags), ==, 0);
    assert_stacks(&f, "line 263", 1, "standard.py:263:0 <- standard.py:293:0");
    assert_stacks(&f, "line 14", 1, "vector_add.py:14:0");
    assert_stacks(&f, "/*0230*/", 1, "vector_add.py:14:0");
    fixture_clear(&f);
}

/* nvdisasm escapes backslashes and quotes in file names (Windows paths come
 * out as "C:\\dir\\x.cu"). */
static void test_escaped_paths(void)
{
    fixture f;
    parse_text(&f, "win.sass_gi",
               "\t//## File \"C:\\\\capture\\\\vector_add.py\", line 12\n"
               "        /*0140*/              @!P2 LDG.E.128 R16, desc[UR6][R20.64] ;\n"
               "\t//## File \"/k/a \\\"quoted\\\" dir/k.py\", line 3\n"
               "        /*0150*/              @!P2 LDG.E.128 R12, desc[UR6][R22.64] ;\n");
    g_assert_cmpuint(tk_test_print_diags(f.diags), ==, 0);
    const tk_stack_id *ids;
    size_t n;
    g_assert_cmpuint(tk_stage_line_stacks(f.stage, 2, &ids), ==, 1);
    const tk_frame *fr = tk_loctab_stack_frames(f.tab, ids[0], &n);
    g_assert_cmpstr(tk_loctab_file_path(f.tab, fr[0].file), ==,
                    "C:\\capture\\vector_add.py");
    g_assert_cmpuint(fr[0].line, ==, 12);
    g_assert_cmpuint(tk_stage_line_stacks(f.stage, 4, &ids), ==, 1);
    fr = tk_loctab_stack_frames(f.tab, ids[0], &n);
    g_assert_cmpstr(tk_loctab_file_path(f.tab, fr[0].file), ==,
                    "/k/a \"quoted\" dir/k.py");
    fixture_clear(&f);
}

/* Comments naming ".nv_debug_ptx_txt" point into the PTX embedded in the
 * cubin (tritonparse skips them too): not a source file, and they do not
 * change the location of what follows. */
static void test_ptx_txt_skipped(void)
{
    fixture f;
    parse_text(&f, "ptx.sass_gi",
               "\t//## File \"" VA_PY "\", line 12\n"
               "\t//## File \".nv_debug_ptx_txt\", line 19\n"
               "        /*0140*/              @!P2 LDG.E.128 R16, desc[UR6][R20.64] ;\n");
    g_assert_cmpuint(tk_test_print_diags(f.diags), ==, 0);
    assert_stacks(&f, "line 12", 1, "vector_add.py:12:0");
    assert_stacks(&f, "nv_debug_ptx_txt", 1, "");
    assert_stacks(&f, "/*0140*/", 1, "vector_add.py:12:0");
    g_assert_cmpuint(tk_loctab_file_count(f.tab), ==, 1);
    fixture_clear(&f);
}

/* A new function or section ends the location: its instructions before their
 * first comment have none.  Built from vector_add's lines 7-18 repeated. */
static void test_function_boundary(void)
{
    static const char head[] =
        "//--------------------- .text.add_kernel          --------------------------\n"
        "\t.section\t.text.add_kernel,\"ax\",@progbits\n"
        "add_kernel:\n"
        ".text.add_kernel:\n";
    GString *t = g_string_new(head);
    g_string_append(t, "\t//## File \"" VA_PY "\", line 7\n"
                       "        /*0000*/                   LDC R1, c[0x0][0x28] ;\n");
    /* Each kind of boundary on its own. */
    const char *bounds[] = {
        "//--------------------- .text.other          --------------------------\n",
        "\t.section\t.text.other,\"ax\",@progbits\n",
        ".text.other:\n"};
    for (size_t i = 0; i < G_N_ELEMENTS(bounds); i++) {
        g_string_append(t, bounds[i]);
        g_string_append(t, "        /*0010*/                   S2R R3, SR_TID.X ;\n");
        g_string_append(t, "\t//## File \"" VA_PY "\", line 7\n"
                           "        /*0000*/                   LDC R1, c[0x0][0x28] ;\n");
    }
    fixture f;
    parse_text(&f, "two.sass_gi", t->str);
    g_assert_cmpuint(tk_test_print_diags(f.diags), ==, 0);
    for (int i = 1; i <= 3; i++)
        assert_stacks(&f, "/*0010*/", i, "");
    for (int i = 1; i <= 4; i++)
        assert_stacks(&f, "/*0000*/", i, "vector_add.py:7:0");
    /* A local label is no boundary. */
    fixture_clear(&f);
    parse_text(&f, "label.sass_gi",
               "\t//## File \"" VA_PY "\", line 18\n"
               "        /*0560*/                   EXIT ;\n"
               ".L_x_0:\n"
               "        /*0570*/                   BRA `(.L_x_0);\n");
    assert_stacks(&f, "/*0570*/", 1, "vector_add.py:18:0");
    fixture_clear(&f);
    g_string_free(t, TRUE);
}

/* Damaged comments: a warning naming the file and line, no stack for the
 * instructions under them (rather than the previous location's), and the
 * next good comment reads again. */
static void test_bad_comments(void)
{
    static const struct {
        const char *comment;
        const char *message_part;
    } bad[] = {
        {"\t//## File \"/k/vector_add.py, line 12", "closing quote"},
        {"\t//## File \"/k/vector_add.py\"", "line N"},
        {"\t//## File \"/k/vector_add.py\", line ", "line number"},
        {"\t//## File \"/k/vector_add.py\", line 4294967296", "32 bits"},
        {"\t//## File \"/k/vector_add.py\", line 99999999999999999999999", "32 bits"},
        {"\t//## File \"/k/vector_add.py\", line 12 trailing", "unexpected text"},
        {"\t//## File \"/k/a.py\", line 2 inlined at \"/k/b.py\", line x", "line number"},
        {"\t//## File \"/k/a.py\", line 2 inlined at /k/b.py", "quoted"},
        {"\t//## Line 12", "File"},
        {"\t//## File \"\", line 12", "empty"},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
        char *text = g_strdup_printf(
            "\t//## File \"" VA_PY "\", line 12\n"
            "        /*0130*/                   CS2R R4, SRZ ;\n"
            "%s\n"
            "        /*0140*/              @!P2 LDG.E.128 R16, desc[UR6][R20.64] ;\n"
            "\t//## File \"" VA_PY "\", line 13\n"
            "        /*0150*/              @!P2 LDG.E.128 R12, desc[UR6][R22.64] ;\n",
            bad[i].comment);
        fixture f;
        parse_text(&f, "bad.sass_gi", text);
        g_assert_cmpuint(tk_diags_count(f.diags), ==, 1);
        const tk_diag *d = tk_diags_get(f.diags, 0);
        g_assert_cmpint(d->severity, ==, TK_DIAG_WARNING);
        g_assert_cmpstr(d->file, ==, "bad.sass_gi");
        g_assert_cmpuint(d->line, ==, 3);
        if (!strstr(d->message, bad[i].message_part))
            g_error("\"%s\": message \"%s\" lacks \"%s\"", bad[i].comment,
                    d->message, bad[i].message_part);
        assert_stacks(&f, "/*0130*/", 1, "vector_add.py:12:0");
        g_assert_cmpuint(tk_stage_line_stacks(f.stage, 3, &(const tk_stack_id *){0}), ==, 0);
        assert_stacks(&f, "/*0140*/", 1, "");
        assert_stacks(&f, "/*0150*/", 1, "vector_add.py:13:0");
        fixture_clear(&f);
        g_free(text);
    }
}

/* Line 0 is DWARF's "no source line": no stack, no complaint. */
static void test_line_zero(void)
{
    fixture f;
    parse_text(&f, "zero.sass_gi",
               "\t//## File \"" VA_PY "\", line 12\n"
               "        /*0130*/                   CS2R R4, SRZ ;\n"
               "\t//## File \"" VA_PY "\", line 0\n"
               "        /*0140*/              @!P2 LDG.E.128 R16, desc[UR6][R20.64] ;\n");
    g_assert_cmpuint(tk_test_print_diags(f.diags), ==, 0);
    assert_stacks(&f, "/*0140*/", 1, "");
    assert_stacks(&f, "line 0", 1, "");
    fixture_clear(&f);
}


/* Line kinds of vector_add's add_kernel.sass_gi, read from the dump:
 *   1 nvdisasm warning : ...                 other
 *   3 	.headerflags	@"EF_CUDA_..."           directive
 *   7 //--------------------- .text.add_kernel   comment
 *  15 add_kernel:    16 .text.add_kernel:      labels
 *  17 	//## File ".../vector_add.py", line 7   comment, a location
 *  18         LDC R1, c[0x0][0x28] ;  (after its address)  instruction */
static void test_line_kinds(void)
{
    if (!tk_test_have_dumps())
        return;
    fixture f;
    read_dump(&f, "vector_add/kernel_dump", ".sass_gi");
    static const struct {
        uint32_t line;
        tk_line_kind kind;
    } want[] = {{1, TK_LINE_OTHER},    {3, TK_LINE_DIRECTIVE}, {7, TK_LINE_COMMENT},
                {15, TK_LINE_LABEL},   {16, TK_LINE_LABEL},    {17, TK_LINE_COMMENT},
                {18, TK_LINE_INSTRUCTION}};
    for (size_t i = 0; i < G_N_ELEMENTS(want); i++)
        g_assert_cmpstr(tk_line_kind_name(tk_stage_line_kind(f.stage, want[i].line)), ==,
                        tk_line_kind_name(want[i].kind));
    g_assert_true(tk_stage_line_is_location(f.stage, 17));
    g_assert_false(tk_stage_line_is_location(f.stage, 18));
    /* The //## line carries the stack it states; counts skip it. */
    const tk_stack_id *ids;
    g_assert_cmpuint(tk_stage_line_stacks(f.stage, 17, &ids), ==, 1);
    fixture_clear(&f);
}

/* A stack of 100 001 frames written by nvdisasm -gi, one comment per frame:
 * the one frame rule (read/frames.h) keeps the 32 innermost (lines 1-32)
 * and the 32 outermost (99 970-100 001), with a warning naming the block's
 * first line. */
static void test_deep_block(void)
{
    enum { DEPTH = 100001 };
    GString *g = g_string_new(".text.k:\n");
    for (int i = 1; i < DEPTH; i++)
        g_string_append_printf(g, "\t//## File \"/a.py\", line %d inlined at \"/a.py\", line %d\n",
                               i, i + 1);
    g_string_append_printf(g, "\t//## File \"/a.py\", line %d\n", DEPTH);
    g_string_append(g, "        /*0000*/                   EXIT ;\n");
    fixture f;
    parse_text(&f, "deep.sass", g->str);
    uint32_t line = DEPTH + 2;
    g_assert_cmpint(tk_stage_line_kind(f.stage, line), ==, TK_LINE_INSTRUCTION);
    const tk_stack_id *ids;
    g_assert_cmpuint(tk_stage_line_stacks(f.stage, line, &ids), ==, 1);
    size_t n;
    const tk_frame *fr = tk_loctab_stack_frames(f.tab, ids[0], &n);
    g_assert_cmpuint(n, ==, 64);
    g_assert_cmpuint(fr[0].line, ==, 1);
    g_assert_cmpuint(fr[31].line, ==, 32);
    g_assert_cmpuint(fr[32].line, ==, DEPTH - 31);
    g_assert_cmpuint(fr[63].line, ==, DEPTH);
    g_assert_cmpuint(tk_test_count_diags_with(f.diags, TK_DIAG_WARNING,
                                              "inline stack of 100001 frames"), ==, 1);
    fixture_clear(&f);
    g_string_free(g, TRUE);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/reader_sass/vector_add", test_vector_add);
    g_test_add_func("/reader_sass/g-same-as-gi", test_vector_add_g_same_as_gi);
    g_test_add_func("/reader_sass/softmax", test_softmax);
    g_test_add_func("/reader_sass/compiled_block", test_compiled_block);
    g_test_add_func("/reader_sass/all-dumps", test_all_dumps);
    g_test_add_func("/reader_sass/inline/one-frame-per-comment",
                    test_inline_one_frame_per_comment);
    g_test_add_func("/reader_sass/inline/chained-on-one-line",
                    test_inline_chained_on_one_line);
    g_test_add_func("/reader_sass/inline/broken-chain", test_inline_broken_chain);
    g_test_add_func("/reader_sass/escaped-paths", test_escaped_paths);
    g_test_add_func("/reader_sass/ptx-txt-skipped", test_ptx_txt_skipped);
    g_test_add_func("/reader_sass/function-boundary", test_function_boundary);
    g_test_add_func("/reader_sass/bad-comments", test_bad_comments);
    g_test_add_func("/reader_sass/line-zero", test_line_zero);
    g_test_add_func("/reader_sass/line_kinds", test_line_kinds);
    g_test_add_func("/reader_sass/deep_block", test_deep_block);
    return g_test_run();
}
