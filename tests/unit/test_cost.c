/* test_cost.c - SASS classes, profiles and the cost tables (tk_cost.h,
 * tk_profile.h) on the profiled sample bundles.
 *
 * The measured numbers come from the Nsight Compute exports kept beside
 * the bundles (sample_dumps/matmul_profile/ncu/source_sass.csv.gz,
 * sample_dumps/attention_fwd/ncu/source_sass.csv.gz), read by hand: each
 * expectation quotes the CSV row or the dump line it was read from, and
 * tests/e2e/test_cost_cli.py sums the same export again in plain Python.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tkdump/tk_bundle_load.h"
#include "tkdump/tk_bundle_write.h"

#include <sys/stat.h>
#include <zlib.h>

#include "cost/internal.h"
#include "tk_test.h"

/* ---- SASS lines and classes -------------------------------------------- */

static void test_table_sorted(void)
{
    g_assert_true(cost_sass_table_sorted());
}

/* docs/cost.md's table of classes is the code's: every opcode it names in
 * the class it says, and as many. */
static void test_table_documented(void)
{
    char *path = g_build_filename(g_getenv("TK_TEST_SRCDIR"), "..", "docs",
                                  "cost.md", NULL);
    char *text;
    g_assert_true(g_file_get_contents(path, &text, NULL, NULL));
    char **lines = g_strsplit(text, "\n", -1);
    size_t n = 0;
    for (char **l = lines; *l; l++) {
        for (int c = 0; c < TK_SASS_CLASS_COUNT; c++) {
            char *head = g_strdup_printf("| `%s` | ", tk_sass_class_name((tk_sass_class)c));
            gboolean row = g_str_has_prefix(*l, head);
            g_free(head);
            if (!row)
                continue;
            char *ops = strrchr(*l, '|');
            *ops = '\0';
            ops = strrchr(*l, '|') + 1;
            char **each = g_strsplit(ops, ",", -1);
            for (char **o = each; *o; o++) {
                char *op = g_strstrip(*o);
                g_assert_true(op[0] == '`');
                op++;
                op[strlen(op) - 1] = '\0';
                g_test_message("%s %s", op, tk_sass_class_name((tk_sass_class)c));
                g_assert_true(cost_sass_class_known(op, strlen(op)));
                g_assert_cmpint(tk_sass_class_of(op, strlen(op)), ==, c);
                n++;
            }
            g_strfreev(each);
        }
    }
    g_assert_cmpuint(n, ==, cost_sass_table_count());
    g_strfreev(lines);
    g_free(text);
    g_free(path);
}

static void test_insn_parse(void)
{
    tk_sass_insn in;
    /* matmul_pipelined.sass_gi:1078 */
    const char *l = "        /*2bf0*/              @!PT LDS RZ, [RZ] ;";
    g_assert_true(tk_sass_insn_parse(l, strlen(l), &in));
    g_assert_cmpuint(in.offset, ==, 0x2bf0);
    g_assert_cmpuint(in.opcode_len, ==, 3);
    g_assert_cmpint(memcmp(in.opcode, "LDS", 3), ==, 0);
    char *text = g_strndup(in.text, in.text_len);
    g_assert_cmpstr(text, ==, "@!PT LDS RZ, [RZ]");
    g_free(text);
    g_assert_cmpint(tk_sass_class_of(in.opcode, in.opcode_len), ==,
                    TK_SASS_SHARED);
    /* matmul_pipelined.sass_gi:1074 */
    l = "        /*2bc0*/                   HGMMA.64x128x16.F32 R24, "
        "gdesc[UR8].tnspB, R24, gsb0 ;";
    g_assert_true(tk_sass_insn_parse(l, strlen(l), &in));
    g_assert_cmpuint(in.opcode_len, ==, strlen("HGMMA.64x128x16.F32"));
    g_assert_cmpint(tk_sass_class_of(in.opcode, in.opcode_len), ==,
                    TK_SASS_TENSOR);
    /* not instructions: a location comment, a label, an encoding comment */
    const char *no[] = {
        "\t//## File \"/work/main/compiler/examples/triton/matmul_profile.py\", line 38",
        ".L_x_3:",
        "        /* 0x000fe40000000f00 */",
        "        /*0010*/ ",
        "",
    };
    for (size_t i = 0; i < G_N_ELEMENTS(no); i++)
        g_assert_false(tk_sass_insn_parse(no[i], strlen(no[i]), &in));
    struct {
        const char *op;
        tk_sass_class cls;
    } cases[] = {
        {"LDG.E.128", TK_SASS_GLOBAL},   {"STL", TK_SASS_GLOBAL},
        {"LDSM.16.M88.4", TK_SASS_SHARED}, {"UTMALDG.2D", TK_SASS_TMA},
        {"LDGSTS.E.BYPASS.128", TK_SASS_TMA}, {"SYNCS.PHASECHK.TRANS64", TK_SASS_BARRIER},
        {"WARPGROUP.DEPBAR.LE", TK_SASS_BARRIER}, {"LDGDEPBAR", TK_SASS_BARRIER},
        {"F2FP.F16.F32.PACK_AB", TK_SASS_CONVERT}, {"I2F.RP", TK_SASS_CONVERT},
        {"IMAD.WIDE.U32", TK_SASS_ALU}, {"FFMA", TK_SASS_ALU},
        {"BRA", TK_SASS_CONTROL}, {"EXIT", TK_SASS_CONTROL},
        {"LDC.64", TK_SASS_OTHER}, {"NOP", TK_SASS_OTHER},
        {"ZZZNEVER", TK_SASS_OTHER}, {"LD", TK_SASS_GLOBAL},
        {"L", TK_SASS_OTHER},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++)
        g_assert_cmpint(tk_sass_class_of(cases[i].op, strlen(cases[i].op)), ==,
                        cases[i].cls);
}

static void collect_opcodes(const char *path, GHashTable *unknown)
{
    char *text;
    gsize len;
    g_assert_true(g_file_get_contents(path, &text, &len, NULL));
    char **lines = g_strsplit(text, "\n", -1);
    for (char **l = lines; *l; l++) {
        tk_sass_insn in;
        if (tk_sass_insn_parse(*l, strlen(*l), &in) &&
            !cost_sass_class_known(in.opcode, in.opcode_len)) {
            const char *dot = memchr(in.opcode, '.', in.opcode_len);
            size_t n = dot ? (size_t)(dot - in.opcode) : in.opcode_len;
            g_hash_table_add(unknown, g_strndup(in.opcode, n));
        }
    }
    g_strfreev(lines);
    g_free(text);
}

/* Every opcode of every capture the project has falls in a class the
 * table names, "other" only on purpose. */
static void test_every_opcode_known(void)
{
    GHashTable *unknown = g_hash_table_new_full(g_str_hash, g_str_equal,
                                                g_free, NULL);
    const char *samples = g_getenv("TK_TEST_SAMPLES");
    GDir *d = g_dir_open(samples, 0, NULL);
    g_assert_nonnull(d);
    size_t files = 0;
    for (const char *b; (b = g_dir_read_name(d));) {
        char *bd = g_build_filename(samples, b, NULL);
        GDir *d2 = g_dir_open(bd, 0, NULL);
        for (const char *k; d2 && (k = g_dir_read_name(d2));) {
            char *kd = g_build_filename(bd, k, NULL);
            GDir *d3 = g_dir_open(kd, 0, NULL);
            for (const char *f; d3 && (f = g_dir_read_name(d3));)
                if (g_str_has_suffix(f, ".sass_gi")) {
                    char *p = g_build_filename(kd, f, NULL);
                    collect_opcodes(p, unknown);
                    files++;
                    g_free(p);
                }
            if (d3)
                g_dir_close(d3);
            g_free(kd);
        }
        if (d2)
            g_dir_close(d2);
        g_free(bd);
    }
    g_dir_close(d);
    if (g_strcmp0(g_getenv("TK_TEST_HAVE_DUMPS"), "1") == 0) {
        static const char *const subs[] = {"kernel_dump", "cache", NULL};
        const char *ext[] = {".sass", ".sass_g", ".sass_gi"};
        for (size_t e = 0; e < G_N_ELEMENTS(ext); e++) {
            GPtrArray *ps = tk_test_shared_files(subs, ext[e]);
            for (guint i = 0; i < ps->len; i++)
                collect_opcodes(ps->pdata[i], unknown);
            files += ps->len;
            g_ptr_array_free(ps, TRUE);
        }
    }
    g_test_message("%zu SASS files", files);
    g_assert_cmpuint(files, >, 10);
    GList *keys = g_hash_table_get_keys(unknown);
    for (GList *k = keys; k; k = k->next)
        g_test_message("opcode not in the table: %s", (char *)k->data);
    g_list_free(keys);
    g_assert_cmpuint(g_hash_table_size(unknown), ==, 0);
    g_hash_table_destroy(unknown);
}

/* ---- the matmul_profile export ------------------------------------------ */

typedef struct {
    tk_diags *diags;
    tk_bundle *bundle;
    const tk_kernel *kernel;
    tk_bind *index;
    tk_loctab *tab;
    tk_profile *profile;
    tk_cost *cost;
} fixture;

static char *sample(const char *rel)
{
    return g_build_filename(g_getenv("TK_TEST_SAMPLES"), rel, NULL);
}

static void open_profiled(fixture *f, const char *bundle, const char *csv)
{
    memset(f, 0, sizeof *f);
    f->diags = tk_diags_new();
    char *bp = sample(bundle);
    f->bundle = tk_bundle_load(bp, NULL, f->diags);
    g_free(bp);
    g_assert_nonnull(f->bundle);
    g_assert_cmpuint(tk_bundle_kernel_count(f->bundle), ==, 1);
    f->kernel = tk_bundle_kernel(f->bundle, 0);
    f->tab = tk_bundle_loctab(f->bundle);
    f->index = tk_bind_new(f->kernel, f->tab);
    char *cp = sample(csv);
    tk_ncu_export *x = tk_ncu_export_read(cp, f->diags);
    g_free(cp);
    g_assert_nonnull(x);
    g_assert_cmpuint(tk_ncu_export_count(x), ==, 1);
    const tk_kernel *k = NULL;
    f->profile = tk_ncu_export_match(x, 0, f->bundle, NULL, &k, f->diags);
    tk_test_print_diags(f->diags);
    g_assert_nonnull(f->profile);
    g_assert_true(k == f->kernel);
    tk_ncu_export_free(x);
    f->cost = tk_cost_new(f->index, f->kernel, f->tab, f->profile);
}

static void close_profiled(fixture *f)
{
    tk_cost_free(f->cost);
    tk_profile_free(f->profile);
    tk_bind_free(f->index);
    tk_bundle_free(f->bundle);
    tk_diags_free(f->diags);
}

static tk_file_id file_ending(const tk_loctab *tab, const char *suffix)
{
    for (tk_file_id i = 0; i < tk_loctab_file_count(tab); i++)
        if (g_str_has_suffix(tk_loctab_file_path(tab, i), suffix))
            return i;
    g_error("no location file ends with %s", suffix);
}

static size_t metric(const tk_cost *c, const char *name)
{
    int m = tk_cost_metric_find(c, name);
    g_assert_cmpint(m, >=, 0);
    return (size_t)m;
}

static const tk_cost_line *src(fixture *f, const char *file, uint32_t line)
{
    const tk_cost_line *l =
        tk_cost_source_line(f->cost, file_ending(f->tab, file), line);
    g_assert_nonnull(l);
    return l;
}

/* The SASS line of the instruction at OFFSET. */
static uint32_t sass_line_at(fixture *f, const char *offset)
{
    char *needle = g_strdup_printf("/*%s*/", offset);
    uint32_t l = tk_test_line_with(tk_kernel_stage(f->kernel, TK_STAGE_SASS),
                                   needle, 1);
    g_free(needle);
    return l;
}

/* Totals are conserved: instructions add up to the total, exact values of
 * source lines plus "no location" too, for every metric that sums; a peak
 * metric (live registers, from a .sass_lr) is the largest of them. */
static void assert_conserved(fixture *f)
{
    size_t nm = tk_cost_metric_count(f->cost);
    const double *total = tk_cost_total(f->cost);
    const double *noloc = tk_cost_no_location(f->cost);
    const tk_stage *sass = tk_kernel_stage(f->kernel, TK_STAGE_SASS);
    double *by_insn = g_new0(double, nm);
    double *by_line = g_new0(double, nm);
    for (uint32_t l = 1; l <= tk_stage_line_count(sass); l++) {
        const double *v = tk_cost_ir_line(f->cost, TK_STAGE_SASS, l);
        for (size_t m = 0; v && m < nm; m++)
            by_insn[m] = tk_cost_metric_is_peak(f->cost, m) ? MAX(by_insn[m], v[m])
                                                            : by_insn[m] + v[m];
    }
    const tk_cost_line *lines;
    size_t n = tk_cost_source_lines(f->cost, &lines);
    for (size_t i = 0; i < n; i++)
        for (size_t m = 0; m < nm; m++)
            by_line[m] = tk_cost_metric_is_peak(f->cost, m) ? MAX(by_line[m], lines[i].exact[m])
                                                            : by_line[m] + lines[i].exact[m];
    for (size_t m = 0; m < nm; m++) {
        g_assert_cmpfloat(by_insn[m], ==, total[m]);
        if (tk_cost_metric_is_peak(f->cost, m))
            g_assert_cmpfloat(MAX(by_line[m], noloc[m]), ==, total[m]);
        else
            g_assert_cmpfloat(by_line[m] + noloc[m], ==, total[m]);
    }
    g_free(by_insn);
    g_free(by_line);
}

static void test_matmul_profile(void)
{
    fixture f;
    open_profiled(&f, "matmul_profile", "matmul_profile/ncu/source_sass.csv.gz");
    tk_cost *c = f.cost;
    size_t samples = metric(c, "samples"), insns = metric(c, "instructions");
    g_assert_cmpuint(tk_cost_default_metric(c), ==, samples);
    g_assert_cmpuint(tk_profile_row_count(f.profile), ==, 1344);
    const double *total = tk_cost_total(c);
    /* sums of the CSV's columns over its 1344 rows (ncu/README.md; the e2e
     * test sums them again) */
    g_assert_cmpfloat(total[samples], ==, 40471);
    g_assert_cmpfloat(total[metric(c, "samples_not_issued")], ==, 25480);
    g_assert_cmpfloat(total[metric(c, "inst_executed")], ==, 5521408);
    g_assert_cmpfloat(total[insns], ==, 1344);
    g_assert_cmpfloat(tk_cost_no_location(c)[samples], ==, 0);
    /* CSV line 3: "0x7f090b7aea00","      LDC R1, c[0x0][0x28]","307",...
     * is sass_gi line 16 "/ *0000* / LDC R1, c[0x0][0x28] ;" */
    const double *v = tk_cost_ir_line(c, TK_STAGE_SASS, sass_line_at(&f, "0000"));
    g_assert_nonnull(v);
    g_assert_cmpfloat(v[samples], ==, 307);
    g_assert_cmpfloat(v[metric(c, "inst_executed")], ==, 1024);
    g_assert_cmpfloat(v[metric(c, "stall_no_inst")], ==, 307);
    /* CSV line 706: "0x7f090b7b15f0","@!PT  LDS RZ, [RZ]","6252","4587",...
     * (0x7f090b7b15f0 - 0x7f090b7aea00 = 0x2bf0) */
    v = tk_cost_ir_line(c, TK_STAGE_SASS, sass_line_at(&f, "2bf0"));
    g_assert_cmpfloat(v[samples], ==, 6252);
    g_assert_cmpfloat(v[metric(c, "samples_not_issued")], ==, 4587);
    g_assert_cmpfloat(v[metric(c, "shared")], ==, 1);
    g_assert_cmpint(tk_cost_sass_class(c, sass_line_at(&f, "2bc0")), ==,
                    TK_SASS_TENSOR);
    g_assert_cmpint(tk_cost_sass_class(c, 1), ==, -1);

    /* ncu's own per-line fold (source_cuda_sass.csv, ncu/README.md) is by
     * innermost frame: the exact values */
    g_assert_cmpfloat(src(&f, "matmul_profile.py", 54)->exact[samples], ==, 10874);
    g_assert_cmpfloat(src(&f, "matmul_profile.py", 52)->exact[samples], ==, 8505);
    g_assert_cmpfloat(src(&f, "matmul_profile.py", 34)->exact[samples], ==, 829);
    g_assert_cmpfloat(src(&f, "standard.py", 43)->exact[samples], ==, 148);
    /* leaky_relu's line 34 is inlined at line 57 only (PTX:
     * "// matmul_profile.py:34:25 @[ matmul_profile.py:57:26 ]"): its
     * samples are line 57's inclusive ones, and 57 has none of its own */
    const tk_cost_line *l57 = src(&f, "matmul_profile.py", 57);
    g_assert_cmpfloat(l57->exact[samples], ==, 0);
    g_assert_cmpfloat(l57->inclusive[samples], ==, 829);
    /* tl.cdiv (standard.py:43) is inlined at three call sites: lines 22
     * and 23 of _tile_of (itself at 44) and line 51 (PTX: "standard.py:43:17
     * @[ matmul_profile.py:22:23 @[ matmul_profile.py:44:46 ] ]", "@[
     * matmul_profile.py:23:23 ...", "@[ matmul_profile.py:51:33 ]"), and its
     * SASS names none: its 148 samples are shared, not split */
    const tk_cost_line *l51 = src(&f, "matmul_profile.py", 51);
    g_assert_cmpfloat(l51->inclusive[samples], ==, 6168);
    g_assert_cmpfloat(l51->shared[samples], ==, 148);
    g_assert_cmpuint(l51->shared_sites, ==, 3);
    g_assert_cmpfloat(src(&f, "standard.py", 43)->inclusive[samples], ==, 148);
    g_assert_cmpuint(tk_cost_unsplit_instructions(c), >, 0);
    assert_conserved(&f);

    /* IR lines: the TTGIR line of tl.dot is worth its SASS */
    const tk_stage *ttgir = tk_kernel_stage(f.kernel, TK_STAGE_TTGIR);
    uint32_t dot = tk_test_line_with(ttgir, "ttng.warp_group_dot ", 1);
    const double *dv = tk_cost_ir_line(c, TK_STAGE_TTGIR, dot);
    g_assert_nonnull(dv);
    uint32_t *sl = NULL;
    size_t ns = tk_bind_stage_to_stage(f.index, TK_STAGE_TTGIR, dot,
                                       TK_STAGE_SASS, &sl);
    double want = 0;
    for (size_t i = 0; i < ns; i++) {
        const double *sv = tk_cost_ir_line(c, TK_STAGE_SASS, sl[i]);
        if (sv)
            want += sv[samples];
    }
    free(sl);
    g_assert_cmpfloat(dv[samples], ==, want);
    g_assert_cmpfloat(dv[metric(c, "tensor")], >, 0);
    close_profiled(&f);
}

/* A helper inlined at two call sites: what the PTX pins to one call site
 * goes there, the rest is shared by both and said so. */
static void test_attention_two_call_sites(void)
{
    fixture f;
    open_profiled(&f, "attention_fwd", "attention_fwd/ncu/source_sass.csv.gz");
    size_t samples = metric(f.cost, "samples");
    g_assert_cmpfloat(tk_cost_total(f.cost)[samples], ==, 2300);
    const tk_cost_line *a = src(&f, "attention_fwd.py", 73);
    const tk_cost_line *b = src(&f, "attention_fwd.py", 77);
    /* line 30 (k = tl.load(k_ptrs)) runs for both calls (PTX shows
     * "attention_fwd.py:30:20 @[ attention_fwd.py:73:..." and "... 77:...") */
    g_assert_cmpfloat(src(&f, "attention_fwd.py", 30)->exact[samples], >, 0);
    g_assert_cmpfloat(a->shared[samples], >=,
                      src(&f, "attention_fwd.py", 30)->exact[samples]);
    g_assert_cmpfloat(a->shared[samples], ==, b->shared[samples]);
    g_assert_cmpuint(a->shared_sites, ==, 2);
    /* line 33 (the causal mask) is STAGE 2 only: certain for line 77 */
    const tk_cost_line *mask = src(&f, "attention_fwd.py", 33);
    g_assert_cmpfloat(mask->exact[samples], >, 0);
    g_assert_cmpfloat(b->inclusive[samples], >=, mask->exact[samples]);
    g_assert_cmpfloat(a->inclusive[samples] + b->inclusive[samples] +
                          a->shared[samples],
                      <=, tk_cost_total(f.cost)[samples]);
    assert_conserved(&f);
    close_profiled(&f);
}

/* The PTX and the SASS line table disagree about matmul_profile's dot:
 * its PTX has its 8 wgmma.mma_async under ".loc 1 54" (acc = tl.dot), its
 * .sass_gi 6 HGMMA under "line 54" and 2 under "line 53" (b = tl.load);
 * the kernel has 8 of each.  Line 52 (a = tl.load) has no tensor code in
 * either. */
static void test_stages_disagree(void)
{
    fixture f;
    open_profiled(&f, "matmul_profile", "matmul_profile/ncu/source_sass.csv.gz");
    tk_file_id py = file_ending(f.tab, "matmul_profile.py");
    const tk_cost_disagreement *d;
    size_t n = tk_cost_line_disagreements(f.cost, py, 54, &d);
    g_assert_cmpuint(n, ==, 1);
    g_assert_cmpint(d[0].cls, ==, TK_SASS_TENSOR);
    g_assert_cmpuint(d[0].n_ptx, ==, 8);
    g_assert_cmpuint(d[0].n_sass, ==, 6);
    g_assert_cmpstr(d[0].text, ==, "PTX: 8 wgmma on this line; SASS line info: 6 here, 2 on line 53");
    n = tk_cost_line_disagreements(f.cost, py, 53, &d);
    g_assert_cmpuint(n, ==, 1);
    g_assert_cmpuint(d[0].n_ptx, ==, 0);
    g_assert_cmpuint(d[0].n_sass, ==, 2);
    g_assert_cmpstr(d[0].text, ==, "SASS line info: 2 HGMMA on this line; PTX: 0 here, 2 on line 54");
    g_assert_cmpuint(tk_cost_line_disagreements(f.cost, py, 52, &d), ==, 0);
    close_profiled(&f);
}

/* ---- refusals ------------------------------------------------------------- */

static void copy_tree(const char *from, const char *to);

static char *write_tmp(const char *name, const char *text)
{
    char *p = tk_test_tmp_path(name);
    g_assert_true(g_file_set_contents(p, text, -1, NULL));
    return p;
}

static void test_refused(void)
{
    tk_diags *d = tk_diags_new();
    char *bp = sample("matmul_profile");
    tk_bundle *b = tk_bundle_load(bp, NULL, d);
    g_free(bp);
    /* the cuda,sass view (source_cuda_sass.csv's first line) */
    char *p = write_tmp("cuda.csv", "\"File Path\",\"/x/standard.py\"\n"
                                    "\"Function Name\",\"matmul_pipelined\"\n");
    g_assert_null(tk_ncu_export_read(p, d));
    g_assert_cmpuint(tk_test_count_diags_with(d, TK_DIAG_ERROR, "--print-source sass"), ==, 1);
    g_free(p);
    p = write_tmp("other.csv", "a,b,c\n1,2,3\n");
    g_assert_null(tk_ncu_export_read(p, d));
    g_free(p);
    /* the first rows of matmul_profile's export, cut: as many rows as the
     * SASS has instructions are needed */
    p = write_tmp("cut.csv",
                  "\"Kernel Name\",\"matmul_pipelined\",\n"
                  "\"Address\",\"Source\",\"Warp Stall Sampling (All Samples)\"\n"
                  "\"0x7f090b7aea00\",\"      LDC R1, c[0x0][0x28]\",\"307\"\n");
    tk_ncu_export *x = tk_ncu_export_read(p, d);
    g_assert_nonnull(x);
    const tk_kernel *k;
    g_assert_null(tk_ncu_export_match(x, 0, b, NULL, &k, d));
    g_assert_cmpuint(tk_test_count_diags_with(d, TK_DIAG_ERROR, "has 1344"), ==, 1);
    tk_ncu_export_free(x);
    g_free(p);
    /* an export of another kernel */
    char *ap = sample("attention_fwd/ncu/source_sass.csv.gz");
    x = tk_ncu_export_read(ap, d);
    g_free(ap);
    g_assert_null(tk_ncu_export_match(x, 0, b, NULL, &k, d));
    g_assert_cmpuint(tk_test_count_diags_with(d, TK_DIAG_ERROR, "no kernel of that name"), ==, 1);
    tk_ncu_export_free(x);
    tk_bundle_free(b);
    tk_diags_free(d);
}

/* Damaged exports: every one read without a crash, what can be read kept,
 * each problem named with its line. */
static void test_damaged_export(void)
{
    tk_diags *d = tk_diags_new();
    struct {
        const char *text;
        gboolean readable; /* a section comes out */
        const char *diag;  /* a diagnostic containing this */
    } cases[] = {
        /* a quote left open: the line is skipped */
        {"\"Kernel Name\",\"k\",\n\"Address\",\"Source\",\"# Samples\",\"stall_wait\"\n"
         "\"0x10\",\"LDC R1\",\"1\",\"2\n\"0x20\",\"EXIT\",\"3\",\"4\"\n",
         TRUE, "not closed"},
        /* not a number, no address, no instruction */
        {"\"Kernel Name\",\"k\",\n\"Address\",\"Source\",\"stall_wait\"\n"
         "\"0x10\",\"LDC R1\",\"abc\"\n\"zz\",\"EXIT\",\"1\"\n\"0x20\",\"  \",\"1\"\n"
         "\"0x30\",\"EXIT\",\"nan\"\n",
         TRUE, "not a number"},
        /* an address before the first one */
        {"\"Kernel Name\",\"k\",\n\"Address\",\"Source\",\"stall_wait\"\n"
         "\"0x100\",\"LDC R1\",\"1\"\n\"0x10\",\"EXIT\",\"1\"\n",
         TRUE, "before the function's first instruction"},
        /* a header without the sampling columns */
        {"\"Kernel Name\",\"k\",\n\"Address\",\"Source\",\"Address Space\"\n",
         FALSE, "no sampling"},
        /* a header that is not the SASS view's */
        {"\"Kernel Name\",\"k\",\n\"Line No\",\"Source\"\n", FALSE, "print-source"},
        /* empty, and binary */
        {"", FALSE, "no kernel section"},
        {"\x01\x02\x03\xff\xfe", FALSE, "not an Nsight Compute"},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        char name[32];
        g_snprintf(name, sizeof name, "damaged-%zu.csv", i);
        char *p = write_tmp(name, cases[i].text);
        size_t before = tk_test_count_diags_with(d, TK_DIAG_NOTE, cases[i].diag);
        tk_ncu_export *x = tk_ncu_export_read(p, d);
        g_test_message("case %zu", i);
        g_assert_true((x != NULL) == cases[i].readable);
        g_assert_cmpuint(tk_test_count_diags_with(d, TK_DIAG_NOTE, cases[i].diag), >, before);
        if (x)
            g_assert_cmpuint(tk_ncu_export_count(x), ==, 1);
        tk_ncu_export_free(x);
        g_free(p);
    }
    /* a line longer than any export's is refused without reading on */
    GString *big = g_string_new("\"Kernel Name\",\"");
    for (int i = 0; i < (2 << 20); i++)
        g_string_append_c(big, 'k');
    char *p = write_tmp("long.csv", big->str);
    g_string_free(big, TRUE);
    g_assert_null(tk_ncu_export_read(p, d));
    g_assert_cmpuint(tk_test_count_diags_with(d, TK_DIAG_ERROR, "a line longer than"), ==, 1);
    g_free(p);
    /* a FIFO is not waited on */
    char *fifo = tk_test_tmp_path("fifo.csv");
    g_assert_cmpint(mkfifo(fifo, 0600), ==, 0);
    g_assert_null(tk_ncu_export_read(fifo, d));
    g_assert_cmpuint(tk_test_count_diags_with(d, TK_DIAG_ERROR, "not a regular file"), ==, 1);
    g_free(fifo);
    tk_diags_free(d);
}

/* A copy of sample matmul_profile in DIR/b (its path in *COPY, g_free),
 * for tests that edit it: returns its profile file's path in the copy. */
static char *matmul_profile_copy(const char *dir, char **copy)
{
    *copy = g_build_filename(dir, "b", NULL);
    char *bp = sample("matmul_profile");
    copy_tree(bp, *copy);
    g_free(bp);
    return g_build_filename(*copy, "matmul_pipelined-bc33df85",
                            "matmul_pipelined.profile.json", NULL);
}

/* Profile files edited into every wrong shape: refused with why. */
static void test_damaged_profile_file(void)
{
    char *dir = tk_test_make_tmp("prof-XXXXXX");
    char *copy;
    char *pf = matmul_profile_copy(dir, &copy);
    const char *bad[][2] = {
        {"[1, 2]", "not a JSON object"},
        {"{\"format\": \"other\"}", "not a tkview profile"},
        {"{\"format\": \"tkview-profile\", \"format_version\": 2}", "format_version 2"},
        {"{\"format\": \"tkview-profile\", \"format_version\": 1}", "no \"metrics\""},
        {"{\"format\": \"tkview-profile\", \"format_version\": 1, \"metrics\": [{}], "
         "\"instructions\": []}", "metric 1 has no name"},
        {"{\"format\": \"tkview-profile\", \"format_version\": 1, \"metrics\": "
         "[{\"name\": \"samples\"}], \"instructions\": [[-1, \"LDC\", 1]]}",
         "instruction 1 is not"},
        {"{\"format\": \"tkview-profile\", \"format_version\": 1, \"metrics\": "
         "[{\"name\": \"samples\"}], \"instructions\": [[0, \"LDC\", \"x\"]]}",
         "instruction 1 is not"},
        {"{\"format\": \"tkview-profile\", \"format_version\": 1, \"metrics\": "
         "[{\"name\": \"samples\"}], \"instructions\": [[0, \"LDC\", 1]]}",
         "has 1344"},
    };
    tk_diags *d = tk_diags_new();
    for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
        g_assert_true(g_file_set_contents(pf, bad[i][0], -1, NULL));
        tk_bundle *b = tk_bundle_load(copy, NULL, d);
        g_test_message("%s", bad[i][0]);
        size_t before = tk_test_count_diags_with(d, TK_DIAG_ERROR, bad[i][1]);
        g_assert_null(tk_profile_load(tk_bundle_kernel(b, 0), d));
        g_assert_cmpuint(tk_test_count_diags_with(d, TK_DIAG_ERROR, bad[i][1]), ==, before + 1);
        tk_bundle_free(b);
    }
    tk_diags_free(d);
    g_free(pf);
    tk_test_remove_tree(dir);
    g_free(copy);
    g_free(dir);
}

/* The first instruction of matmul_profile's profile file (sample_dumps,
 * "[0, \"LDC\", 307, 307, 1024, ...]") written in the other ways JSON
 * allows: fractions, exponents, a minus zero, a 16-digit integer, an
 * escaped opcode, a member after the rows.  profile_rows.c reads the
 * plain ones and hands the rest to JSON-GLib: every way gives the values
 * written, on the SASS line of the kernel's first instruction. */
static void test_profile_number_forms(void)
{
    char *dir = tk_test_make_tmp("prof-forms-XXXXXX");
    char *copy;
    char *pf = matmul_profile_copy(dir, &copy);
    char *orig;
    g_assert_true(g_file_get_contents(pf, &orig, NULL, NULL));
    const char *row = "[0, \"LDC\", 307, 307, 1024,";
    char *at = strstr(orig, row);
    g_assert_nonnull(at);
    struct {
        const char *row;  /* replaces ROW */
        const char *tail; /* replaces the file's last "\n  ]\n}\n" */
        double v[3];
    } forms[] = {
        {"[0, \"LDC\", 1.5, 2.25e3, -0,", NULL, {1.5, 2250, 0}},
        {"[0, \"LDC\", 1E-2, 7e0, -2.5,", NULL, {0.01, 7, -2.5}},
        {"[0, \"LDC\", 1234567890123456, 12345678901234567, 0.1,", NULL,
         {1234567890123456.0, 12345678901234567.0, 0.1}},
        {"[0, \"L\\u0044C\", 307, 307, 1024,", NULL, {307, 307, 1024}},
        {"[0, \"LDC\", 3, 4, 5,", "\n  ],\n  \"note\": \"x\"\n}\n", {3, 4, 5}},
    };
    tk_diags *d = tk_diags_new();
    for (size_t i = 0; i < G_N_ELEMENTS(forms); i++) {
        GString *t = g_string_new_len(orig, at - orig);
        g_string_append(t, forms[i].row);
        g_string_append(t, at + strlen(row));
        if (forms[i].tail) {
            g_assert_true(g_str_has_suffix(t->str, "\n  ]\n}\n"));
            g_string_truncate(t, t->len - strlen("\n  ]\n}\n"));
            g_string_append(t, forms[i].tail);
        }
        g_assert_true(g_file_set_contents(pf, t->str, (gssize)t->len, NULL));
        g_string_free(t, TRUE);
        g_test_message("%s", forms[i].row);
        tk_bundle *b = tk_bundle_load(copy, NULL, d);
        const tk_kernel *k = tk_bundle_kernel(b, 0);
        tk_profile *p = tk_profile_load(k, d);
        tk_test_print_diags(d);
        g_assert_nonnull(p);
        g_assert_cmpuint(tk_profile_row_count(p), ==, 1344);
        g_assert_cmpstr(tk_profile_metric_name(p, 0), ==, "samples");
        /* the kernel's first instruction: its SASS line */
        const tk_stage *sass = tk_kernel_stage(k, TK_STAGE_SASS);
        uint32_t first = 0;
        for (uint32_t l = 1; l <= tk_stage_line_count(sass) && !first; l++)
            if (tk_profile_line_values(p, l))
                first = l;
        const double *v = tk_profile_line_values(p, first);
        g_assert_nonnull(v);
        for (int m = 0; m < 3; m++)
            g_assert_cmpfloat(v[m], ==, forms[i].v[m]);
        tk_profile_free(p);
        tk_bundle_free(b);
    }
    tk_diags_free(d);
    g_free(orig);
    g_free(pf);
    tk_test_remove_tree(dir);
    g_free(copy);
    g_free(dir);
}

/* One opcode changed in a copy of the export: refused, with where. */
static void test_refused_opcode(void)
{
    char *cp = sample("matmul_profile/ncu/source_sass.csv.gz");
    /* the export is gzip; its text is small */
    gzFile gz = gzopen(cp, "rb");
    g_assert_nonnull(gz);
    GString *t = g_string_new(NULL);
    char buf[65536];
    for (int n; (n = gzread(gz, buf, sizeof buf)) > 0;)
        g_string_append_len(t, buf, n);
    gzclose(gz);
    char *text = g_string_free(t, FALSE);
    g_free(cp);
    /* CSV line 706, "@!PT  LDS RZ, [RZ]", made an STS */
    char *at = strstr(text, "\"0x7f090b7b15f0\",\"@!PT  LDS RZ, [RZ]\"");
    g_assert_nonnull(at);
    memcpy(at + 24, "STS", 3);
    char *p = write_tmp("changed.csv", text);
    g_free(text);
    tk_diags *d = tk_diags_new();
    char *bp = sample("matmul_profile");
    tk_bundle *b = tk_bundle_load(bp, NULL, d);
    g_free(bp);
    tk_ncu_export *x = tk_ncu_export_read(p, d);
    const tk_kernel *k;
    g_assert_null(tk_ncu_export_match(x, 0, b, NULL, &k, d));
    g_assert_cmpuint(tk_test_count_diags_with(
                         d, TK_DIAG_ERROR,
                         "is STS at offset 0x2bf0, but the SASS of kernel "
                         "matmul_pipelined (bc33df85) has LDS at offset 0x2bf0"),
                     ==, 1);
    tk_ncu_export_free(x);
    tk_bundle_free(b);
    tk_diags_free(d);
    g_free(p);
}

/* ---- the profile in a bundle ---------------------------------------------- */

static void copy_tree(const char *from, const char *to)
{
    char *argv[] = {"cp", "-r", (char *)from, (char *)to, NULL};
    int status;
    g_assert_true(g_spawn_sync(NULL, argv, NULL, G_SPAWN_SEARCH_PATH, NULL,
                               NULL, NULL, NULL, &status, NULL));
    g_assert_true(g_spawn_check_wait_status(status, NULL));
}

static void test_saved_and_loaded(void)
{
    fixture f;
    open_profiled(&f, "matmul_profile", "matmul_profile/ncu/source_sass.csv.gz");
    char *dir = tk_test_make_tmp("cost-XXXXXX");
    char *copy = g_build_filename(dir, "b", NULL);
    char *bp = sample("matmul_profile");
    copy_tree(bp, copy);
    g_free(bp);
    tk_diags *d = tk_diags_new();
    tk_bundle *b = tk_bundle_load(copy, NULL, d);
    const tk_kernel *k = tk_bundle_kernel(b, 0);
    /* The sample carries the profile `tkview profile import` made from the
     * same export (sample_dumps/README.md): replaced only when asked. */
    g_assert_nonnull(tk_kernel_profile_path(k));
    g_assert_cmpint(tk_profile_save(f.profile, b, k, 0, NULL, d), ==, -1);
    g_assert_cmpuint(tk_test_count_diags_with(d, TK_DIAG_ERROR, "already has a profile"), ==, 1);
    char *rel = NULL;
    g_assert_cmpint(tk_profile_save(f.profile, b, k, 1, &rel, d), ==, 0);
    g_assert_cmpstr(rel, ==, "matmul_pipelined-bc33df85/matmul_pipelined.profile.json");
    g_free(rel);
    /* what was written is the file the sample carries, byte for byte */
    char *mine, *theirs;
    char *sp = sample("matmul_profile/matmul_pipelined-bc33df85/matmul_pipelined.profile.json");
    g_assert_true(g_file_get_contents(tk_kernel_profile_path(k), &mine, NULL, NULL));
    g_assert_true(g_file_get_contents(sp, &theirs, NULL, NULL));
    g_assert_cmpstr(mine, ==, theirs);
    g_free(mine);
    g_free(theirs);
    g_free(sp);
    tk_bundle_free(b);

    /* loaded again: the same values; the manifest kept its other keys */
    b = tk_bundle_load(copy, NULL, d);
    k = tk_bundle_kernel(b, 0);
    g_assert_nonnull(tk_kernel_profile_path(k));
    g_assert_cmpstr(tk_bundle_command(b), !=, NULL);
    tk_profile *p = tk_profile_load(k, d);
    tk_test_print_diags(d);
    g_assert_nonnull(p);
    g_assert_cmpuint(tk_profile_row_count(p), ==, 1344);
    tk_bind *ix = tk_bind_new(k, tk_bundle_loctab(b));
    tk_cost *c = tk_cost_new(ix, k, tk_bundle_loctab(b), p);
    g_assert_cmpuint(tk_cost_metric_count(c), ==, tk_cost_metric_count(f.cost));
    for (size_t m = 0; m < tk_cost_metric_count(c); m++)
        g_assert_cmpfloat(tk_cost_total(c)[m], ==, tk_cost_total(f.cost)[m]);
    tk_cost_free(c);
    tk_bind_free(ix);
    tk_profile_free(p);

    /* a bundle written from it keeps the profile */
    char *again = g_build_filename(dir, "again", NULL);
    g_assert_cmpint(tk_bundle_save(b, again, d), ==, 0);
    tk_bundle_free(b);
    b = tk_bundle_load(again, NULL, d);
    p = tk_profile_load(tk_bundle_kernel(b, 0), d);
    g_assert_nonnull(p);
    tk_profile_free(p);
    tk_bundle_free(b);

    /* a profile file edited by hand (an opcode changed) is refused */
    char *pf = g_build_filename(copy, "matmul_pipelined-bc33df85",
                                "matmul_pipelined.profile.json", NULL);
    char *text;
    g_assert_true(g_file_get_contents(pf, &text, NULL, NULL));
    char *at = strstr(text, "\"HGMMA.64x128x16.F32\"");
    g_assert_nonnull(at);
    memcpy(at + 1, "HMMA.", 5);
    g_assert_true(g_file_set_contents(pf, text, -1, NULL));
    g_free(text);
    b = tk_bundle_load(copy, NULL, d);
    size_t before = tk_test_count_diags_with(d, TK_DIAG_ERROR, "does not match");
    g_assert_null(tk_profile_load(tk_bundle_kernel(b, 0), d));
    g_assert_cmpuint(tk_test_count_diags_with(d, TK_DIAG_ERROR, "does not match"), ==, before + 1);
    tk_bundle_free(b);
    g_free(pf);

    tk_diags_free(d);
    tk_test_remove_tree(dir);
    g_free(again);
    g_free(copy);
    g_free(dir);
    close_profiled(&f);
}

/* Static counts need no profile: every SASS instruction has one class. */
static void test_static_only(void)
{
    tk_diags *d = tk_diags_new();
    char *bp = sample("matmul_profile");
    tk_bundle *b = tk_bundle_load(bp, NULL, d);
    g_free(bp);
    const tk_kernel *k = tk_bundle_kernel(b, 0);
    tk_bind *ix = tk_bind_new(k, tk_bundle_loctab(b));
    tk_cost *c = tk_cost_new(ix, k, tk_bundle_loctab(b), NULL);
    /* the classes, spill_instructions and spill_bytes, and the four
     * live_* counts of matmul_pipelined.sass_lr (GPR, PRED, UGPR, UPRED) */
    g_assert_cmpuint(tk_cost_metric_count(c), ==, 1 + TK_SASS_CLASS_COUNT + 2 + 4);
    g_assert_cmpuint(tk_cost_default_metric(c), ==, 0);
    const double *t = tk_cost_total(c);
    double classes = 0;
    for (int i = 0; i < TK_SASS_CLASS_COUNT; i++)
        classes += t[1 + i];
    /* 1344 instruction lines: the SASS rows of ncu/source_sass.csv, and
     * the lines of matmul_pipelined.sass_gi with an offset comment */
    g_assert_cmpfloat(t[0], ==, 1344);
    g_assert_cmpfloat(classes, ==, 1344);
    /* HGMMA: grep -c HGMMA matmul_pipelined.sass_gi gives 8 */
    g_assert_cmpfloat(t[1 + TK_SASS_TENSOR], ==, 8);
    tk_cost_free(c);
    tk_bind_free(ix);
    tk_bundle_free(b);
    tk_diags_free(d);
}

/* ---- live registers and occupancy ----------------------------------------- */

/* Occupancy by hand (tk_cost.h's rule: registers per warp in units of 256,
 * 65536 per SM, whole blocks, at most 64 warps on sm_90):
 *   matmul          126 regs x 32 = 4032 -> 4096 a warp; 65536 / 4096 = 16
 *                   warps = 2 blocks of 8.  3 blocks (24 warps) need
 *                   <= 2730 a warp -> 2560 -> 80 registers.
 *   matmul_profile  220 x 32 = 7040 -> 7168; 65536 / 7168 = 9 warps -> 2
 *                   blocks of 4 = 8.  12 warps need <= 5461 -> 5376 -> 168.
 *   vector_add      26 x 32 = 832 -> 1024; 64 warps by registers, the
 *                   sm_90 limit: no step above.
 *   amd_gfx942      no NVIDIA target: unknown. */
static void test_occupancy(void)
{
    struct {
        const char *sample;
        int rc, regs, warps, next, next_warps;
    } cases[] = {{"matmul", 0, 126, 16, 80, 24},
                 {"matmul_profile", 0, 220, 8, 168, 12},
                 {"vector_add", 0, 26, 64, 0, 0},
                 {"amd_gfx942", -1, 0, 0, 0, 0}};
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        tk_diags *d = tk_diags_new();
        char *bp = sample(cases[i].sample);
        tk_bundle *b = tk_bundle_load(bp, NULL, d);
        g_free(bp);
        tk_occupancy o;
        g_assert_cmpint(tk_cost_occupancy(tk_bundle_kernel(b, 0), &o), ==,
                        cases[i].rc);
        g_assert_cmpint(o.registers, ==, cases[i].regs);
        g_assert_cmpint(o.warps_per_sm, ==, cases[i].warps);
        g_assert_cmpint(o.next_registers, ==, cases[i].next);
        g_assert_cmpint(o.next_warps_per_sm, ==, cases[i].next_warps);
        tk_bundle_free(b);
        tk_diags_free(d);
    }
}

/* vector_add's add_kernel.sass_gi with a count table after each
 * instruction line: GPR = (offset / 16) % 37, PRED 1, UGPR 2 (made here,
 * so the expected numbers are known), EDIT applied to the text. */
static char *vector_add_with_lr(const char *dir, int mode)
{
    char *copy = g_build_filename(dir, "b", NULL);
    char *bp = sample("vector_add");
    copy_tree(bp, copy);
    g_free(bp);
    char *gi = g_build_filename(copy, "add_kernel-faf6139b", "add_kernel.sass_gi",
                                NULL);
    char *text;
    g_assert_true(g_file_get_contents(gi, &text, NULL, NULL));
    GString *out = g_string_new(
        mode == 1 ? "// | GPR | PRED | UGPR |\n// | : | : | : |\n"
                  : "    // +-----+-----+------+\n"
                    "    // | GPR | PRED | UGPR |\n"
                    "    // |  #  |  #   |  #   |\n"
                    "    // +-----+-----+------+\n");
    gchar **lines = g_strsplit(text, "\n", -1);
    for (gchar **l = lines; *l; l++) {
        tk_sass_insn in;
        if (!tk_sass_insn_parse(*l, strlen(*l), &in)) {
            g_string_append_printf(out, "%s\n", *l);
            continue;
        }
        /* mode 2: the instruction at 0x20 (LDC.64) is another one */
        int len = (int)in.text_len;
        const char *t = in.text;
        if (mode == 2 && in.offset == 0x20)
            t = "IADD3 R0, R0, R0, RZ", len = (int)strlen(t);
        g_string_append_printf(out, "        /*%04x*/ %.*s ;   // | %u | 1 | 2 |\n",
                               in.offset, len, t, (in.offset / 16) % 37);
    }
    g_strfreev(lines);
    char *lr = g_build_filename(copy, "add_kernel-faf6139b", "add_kernel.sass_lr",
                                NULL);
    g_assert_true(g_file_set_contents(lr, out->str, -1, NULL));
    g_string_free(out, TRUE);
    g_free(lr);
    g_free(text);
    g_free(gi);
    return copy;
}

static void test_life_ranges(void)
{
    char *dir = tk_test_make_tmp("regs-XXXXXX");
    const char *whys[] = {NULL, "--life-range-mode count",
                          "not made from the same cubin"};
    for (int mode = 0; mode < 3; mode++) {
        char *copy = vector_add_with_lr(dir, mode);
        tk_diags *d = tk_diags_new();
        tk_bundle *b = tk_bundle_load(copy, NULL, d);
        const tk_kernel *k = tk_bundle_kernel(b, 0);
        tk_bind *ix = tk_bind_new(k, tk_bundle_loctab(b));
        tk_cost *c = tk_cost_new(ix, k, tk_bundle_loctab(b), NULL);
        const char *why = NULL;
        const char *path = tk_cost_life_ranges(c, &why);
        int m = tk_cost_metric_find(c, "live_registers");
        if (!whys[mode]) {
            g_assert_nonnull(path);
            g_assert_cmpint(m, >, 0);
            g_assert_true(tk_cost_metric_is_peak(c, (size_t)m));
            g_assert_false(tk_cost_metric_is_peak(c, 0));
            /* 96 instructions, offsets 0x0 to 0x5f0: (offset / 16) % 37
             * peaks at 36, first at offset 0x240. */
            g_assert_cmpfloat(tk_cost_total(c)[m], ==, 36);
            g_assert_cmpfloat(tk_cost_total(c)[m + 1], ==, 1);
            g_assert_cmpfloat(tk_cost_total(c)[m + 2], ==, 2);
            uint32_t at = tk_cost_peak_sass_line(c, (size_t)m, TK_NO_FILE, 0, 0);
            g_assert_cmpuint(at, ==,
                             tk_test_line_with(tk_kernel_stage(k, TK_STAGE_SASS),
                                               "/*0240*/", 1));
            /* every source line's exact value is at most the peak, and the
             * value of the instruction where it peaks */
            const tk_cost_line *ls;
            size_t n = tk_cost_source_lines(c, &ls);
            g_assert_cmpuint(n, >, 0);
            for (size_t i = 0; i < n; i++) {
                uint32_t s = tk_cost_peak_sass_line(c, (size_t)m, ls[i].file,
                                                    ls[i].line, 0);
                if (!s) /* only calls through it */
                    continue;
                g_assert_cmpfloat(tk_cost_ir_line(c, TK_STAGE_SASS, s)[m], ==,
                                  ls[i].exact[m]);
                g_assert_cmpfloat(ls[i].inclusive[m], >=, ls[i].exact[m]);
            }
        } else {
            g_assert_null(path);
            g_assert_cmpint(m, ==, -1);
            g_assert_nonnull(why);
            if (!strstr(why, whys[mode]))
                g_error("mode %d: %s", mode, why);
        }
        tk_cost_free(c);
        tk_bind_free(ix);
        tk_bundle_free(b);
        tk_diags_free(d);
        tk_test_remove_tree(copy);
        g_free(copy);
    }
    /* No file at all: the cost says what to run. */
    tk_diags *d = tk_diags_new();
    char *bp = sample("vector_add");
    tk_bundle *b = tk_bundle_load(bp, NULL, d);
    g_free(bp);
    const tk_kernel *k = tk_bundle_kernel(b, 0);
    tk_bind *ix = tk_bind_new(k, tk_bundle_loctab(b));
    tk_cost *c = tk_cost_new(ix, k, tk_bundle_loctab(b), NULL);
    const char *why;
    g_assert_null(tk_cost_life_ranges(c, &why));
    g_assert_nonnull(strstr(why, "nvdisasm --print-life-ranges"));
    tk_cost_free(c);
    tk_bind_free(ix);
    tk_bundle_free(b);
    tk_diags_free(d);
    tk_test_remove_tree(dir);
    g_free(dir);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/cost/table_sorted", test_table_sorted);
    g_test_add_func("/cost/table_documented", test_table_documented);
    g_test_add_func("/cost/insn_parse", test_insn_parse);
    g_test_add_func("/cost/every_opcode_known", test_every_opcode_known);
    g_test_add_func("/cost/static_only", test_static_only);
    g_test_add_func("/cost/matmul_profile", test_matmul_profile);
    g_test_add_func("/cost/stages-disagree", test_stages_disagree);
    g_test_add_func("/cost/attention_two_call_sites", test_attention_two_call_sites);
    g_test_add_func("/cost/refused", test_refused);
    g_test_add_func("/cost/refused_opcode", test_refused_opcode);
    g_test_add_func("/cost/damaged_export", test_damaged_export);
    g_test_add_func("/cost/damaged_profile_file", test_damaged_profile_file);
    g_test_add_func("/cost/profile_number_forms", test_profile_number_forms);
    g_test_add_func("/cost/saved_and_loaded", test_saved_and_loaded);
    g_test_add_func("/cost/occupancy", test_occupancy);
    g_test_add_func("/cost/life_ranges", test_life_ranges);
    return g_test_run();
}
