/* test_bundle.c - loading captures, caches, dump folders, loose files and
 * tkview bundles; source resolution; saving a bundle and loading it back.
 *
 * Expected values were read by hand from the shared dumps: folder listings
 * (ls kernel_dump/ cache/), the NAME.json files, and `readelf -x .nv.info`
 * of the cubins for register counts.  The location readers are written by
 * others at the same time, so only the round trip looks at stacks.
 */
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tkdump/tk_bundle_load.h"
#include "tkdump/tk_bundle_passes.h"
#include "tkdump/tk_bundle_write.h"

#include "load/internal.h"
#include "tk_test.h"

/* add_kernel's cache/7L3BHG.../add_kernel.json says:
 *   {"hash": "faf6139b811501f9f751b2258231814f463644ba3904b8d275db11023f360197",
 *    "target": {"backend": "cuda", "arch": 90, ...}, "num_warps": 4,
 *    "num_ctas": 1, "num_stages": 3, ... "triton_version": "3.6.0", ...
 *    "shared": 16, ...} */
#define VA_HASH "faf6139b811501f9f751b2258231814f463644ba3904b8d275db11023f360197"
#define VA_DUMP_DIR "WRORMXRRMQF6XLUW2R5R6S34PIW5KNO7QYNCUTDZLGUO4LDNK7AQ"
#define VA_CACHE_DIR "7L3BHG4BCUA7T52RWISYEMMBJ5DDMRF2HECLRUTV3MIQEPZWAGLQ"

/* ---- helpers ---------------------------------------------------------- */

static tk_bundle *load(const char *rel, const tk_load_options *opts,
                       tk_diags *diags)
{
    char *path = tk_test_dump_path(rel);
    tk_bundle *b = tk_bundle_load(path, opts, diags);
    if (!b) {
        tk_test_print_diags(diags);
        g_error("cannot load %s", path);
    }
    g_free(path);
    return b;
}

static void write_file(const char *dir, const char *rel, const char *text,
                       gssize len)
{
    char *p = g_build_filename(dir, rel, NULL);
    char *parent = g_path_get_dirname(p);
    g_mkdir_with_parents(parent, 0755);
    g_assert_true(g_file_set_contents(p, text, len, NULL));
    g_free(parent);
    g_free(p);
}

/* Copies the dump file REL into DIR as NAME. */
static void copy_dump(const char *rel, const char *dir, const char *name)
{
    char *from = tk_test_dump_path(rel);
    char *text = NULL;
    gsize len = 0;
    g_assert_true(g_file_get_contents(from, &text, &len, NULL));
    write_file(dir, name, text, (gssize)len);
    g_free(text);
    g_free(from);
}

/* Whether some diagnostic of at least SEV mentions NEEDLE (in its file or
 * its message). */
static gboolean diags_mention(const tk_diags *d, tk_diag_severity sev,
                              const char *needle)
{
    for (size_t i = 0; i < tk_diags_count(d); i++) {
        const tk_diag *x = tk_diags_get(d, i);
        if (x->severity >= sev &&
            (strstr(x->message, needle) || strstr(x->file, needle)))
            return TRUE;
    }
    return FALSE;
}

static char *real(const char *path)
{
    char *r = realpath(path, NULL);
    g_assert_nonnull(r);
    char *out = g_strdup(r);
    free(r);
    return out;
}

/* The kernel of NAME:HASHPREFIX, or fails. */
static const tk_kernel *kernel(const tk_bundle *b, const char *spec)
{
    size_t n = 0;
    const tk_kernel *k = tk_bundle_find_kernel(b, spec, &n);
    if (!k)
        g_error("%s: %zu matches", spec, n);
    return k;
}

/* ---- captures --------------------------------------------------------- */

static void test_vector_add(void)
{
    if (!tk_test_have_dumps())
        return;
    tk_diags *d = tk_diags_new();
    tk_bundle *b = load("vector_add", NULL, d);
    g_assert_cmpint(tk_bundle_input_kind(b), ==, TK_INPUT_CAPTURE);
    /* kernel_dump/WRORMX.../add_kernel.* and cache/7L3BHG.../add_kernel.*
     * are one compile (same TTIR, TTGIR, LLIR, PTX, cubin): one kernel. */
    g_assert_cmpuint(tk_bundle_kernel_count(b), ==, 1);
    const tk_kernel *k = tk_bundle_kernel(b, 0);
    g_assert_cmpstr(tk_kernel_name(k), ==, "add_kernel");
    g_assert_cmpstr(tk_kernel_hash(k), ==, VA_HASH);
    const tk_kernel_meta *m = tk_kernel_metadata(k);
    g_assert_cmpint(m->num_warps, ==, 4);
    g_assert_cmpint(m->num_ctas, ==, 1);
    g_assert_cmpint(m->num_stages, ==, 3);
    g_assert_cmpint(m->shared_bytes, ==, 16);
    g_assert_cmpstr(m->target, ==, "cuda:90");
    g_assert_cmpstr(m->triton_version, ==, "3.6.0");
    /* readelf -x .nv.info add_kernel.cubin:
     *   042f0800 0a000000 1a000000   EIATTR_REGCOUNT, symbol 10, 26
     *   04110800 0a000000 00000000   EIATTR_FRAME_SIZE, symbol 10, 0
     * and readelf -s: symbol 10 is the FUNC add_kernel. */
    g_assert_cmpint(m->registers, ==, 26);
    g_assert_cmpint(m->spill_bytes, ==, 0);
    /* A cuda:90 kernel: the NVIDIA stages, all there, and no AMDGCN. */
    for (int s = 0; s < TK_STAGE_COUNT; s++)
        g_assert_true(!tk_kernel_stage(k, (tk_stage_kind)s) ==
                      (s == TK_STAGE_AMDGCN));
    g_assert_false(tk_kernel_stage_expected(k, TK_STAGE_AMDGCN));
    g_assert_true(tk_kernel_stage_expected(k, TK_STAGE_SASS));
    /* wc -l: add_kernel.ttir 69, add_kernel.ptx 370, add_kernel.sass_gi 169
     * (add_kernel.sass, without line info, has 99). */
    g_assert_cmpuint(tk_stage_line_count(tk_kernel_stage(k, TK_STAGE_TTIR)),
                     ==, 69);
    g_assert_cmpuint(tk_stage_line_count(tk_kernel_stage(k, TK_STAGE_PTX)),
                     ==, 370);
    const tk_stage *sass = tk_kernel_stage(k, TK_STAGE_SASS);
    g_assert_true(g_str_has_suffix(tk_stage_path(sass), ".sass_gi"));
    g_assert_cmpuint(tk_stage_line_count(sass), ==, 169);
    g_assert_nonnull(strstr(tk_kernel_origin(k), VA_DUMP_DIR));
    g_assert_nonnull(strstr(tk_kernel_origin(k), VA_CACHE_DIR));
    /* Not a tkview bundle: no manifest values. */
    g_assert_null(tk_bundle_compiler(b));
    g_assert_null(tk_bundle_command(b));
    g_assert_cmpint(tk_bundle_complete(b), ==, -1);
    g_assert_cmpuint(tk_diags_count_at_least(d, TK_DIAG_WARNING), ==, 0);
    tk_bundle_free(b);
    tk_diags_free(d);
}

static void test_compiled_block(void)
{
    if (!tk_test_have_dumps())
        return;
    tk_diags *d = tk_diags_new();
    tk_bundle *b = load("compiled_block", NULL, d);
    /* ls kernel_dump | wc -l: 16; ls cache: 17 folders, one of them
     * (XU5DT2AO...) empty.  Eight names appear twice with different hashes
     * (num_warps 4 and 8 of one TorchInductor kernel): 16 kernels. */
    g_assert_cmpuint(tk_bundle_kernel_count(b), ==, 16);
    for (size_t i = 1; i < 16; i++) {
        const tk_kernel *a = tk_bundle_kernel(b, i - 1);
        const tk_kernel *c = tk_bundle_kernel(b, i);
        int byname = strcmp(tk_kernel_name(a), tk_kernel_name(c));
        g_assert_true(byname < 0 ||
                      (byname == 0 &&
                       strcmp(tk_kernel_hash(a), tk_kernel_hash(c)) < 0));
    }
    /* First by name: triton_per_fused_add_native_layer_norm_transpose_view_6
     * (cache/LX4TPAWT.../...json: "hash": "5df93782d327...", "num_warps": 1,
     * "shared": 16). */
    const tk_kernel *first = tk_bundle_kernel(b, 0);
    g_assert_cmpstr(tk_kernel_name(first), ==,
                    "triton_per_fused_add_native_layer_norm_transpose_view_6");
    g_assert_true(g_str_has_prefix(tk_kernel_hash(first), "5df93782d327"));
    g_assert_cmpint(tk_kernel_metadata(first)->num_warps, ==, 1);
    g_assert_cmpint(tk_kernel_metadata(first)->shared_bytes, ==, 16);
    /* The two triton_poi_fused_gelu_view_7: cache/DDNTYJIT... has
     * "hash": "18db3c25...", "num_warps": 8 and cache/RUO7R7L2... has
     * "hash": "8d1df8fd...", "num_warps": 4; in the cubins the REGCOUNT
     * words are 0x12 = 18 and 0x20 = 32. */
    const tk_kernel *g8 = kernel(b, "triton_poi_fused_gelu_view_7:18db");
    const tk_kernel *g4 = kernel(b, "triton_poi_fused_gelu_view_7:8d1d");
    g_assert_cmpint(tk_kernel_metadata(g8)->num_warps, ==, 8);
    g_assert_cmpint(tk_kernel_metadata(g4)->num_warps, ==, 4);
    g_assert_cmpint(tk_kernel_metadata(g8)->registers, ==, 18);
    g_assert_cmpint(tk_kernel_metadata(g4)->registers, ==, 32);
    for (size_t i = 0; i < 16; i++) {
        const tk_kernel *k = tk_bundle_kernel(b, i);
        for (int s = 0; s < TK_STAGE_COUNT; s++)
            if (tk_kernel_stage_expected(k, (tk_stage_kind)s))
                g_assert_nonnull(tk_kernel_stage(k, (tk_stage_kind)s));
        g_assert_null(tk_kernel_stage(k, TK_STAGE_AMDGCN));
        g_assert_cmpstr(tk_kernel_metadata(k)->target, ==, "cuda:90");
    }
    tk_bundle_free(b);
    tk_diags_free(d);
}

static void test_autotuned(void)
{
    if (!tk_test_have_dumps())
        return;
    tk_diags *d = tk_diags_new();
    tk_bundle *b = load("autotuned_matmul", NULL, d);
    /* Three configs, three cache entries with mm_kernel.json:
     *   "hash": "448532f3...", "num_warps": 8, "num_stages": 3, "shared": 98304
     *   "hash": "a5fca209...", "num_warps": 4, "num_stages": 2, "shared": 24576
     *   "hash": "e6566f05...", "num_warps": 4, "num_stages": 4, "shared": 49152
     * sorted by hash since the names are equal. */
    g_assert_cmpuint(tk_bundle_kernel_count(b), ==, 3);
    static const struct {
        const char *hash;
        int64_t warps, stages, shared;
    } want[] = {{"448532f3", 8, 3, 98304},
                {"a5fca209", 4, 2, 24576},
                {"e6566f05", 4, 4, 49152}};
    for (size_t i = 0; i < 3; i++) {
        const tk_kernel *k = tk_bundle_kernel(b, i);
        const tk_kernel_meta *m = tk_kernel_metadata(k);
        g_assert_cmpstr(tk_kernel_name(k), ==, "mm_kernel");
        g_assert_true(g_str_has_prefix(tk_kernel_hash(k), want[i].hash));
        g_assert_cmpint(m->num_warps, ==, want[i].warps);
        g_assert_cmpint(m->num_stages, ==, want[i].stages);
        g_assert_cmpint(m->shared_bytes, ==, want[i].shared);
    }
    size_t n = 0;
    g_assert_null(tk_bundle_find_kernel(b, "mm_kernel", &n));
    g_assert_cmpuint(n, ==, 3);
    tk_bundle_free(b);
    tk_diags_free(d);
}

/* gluon_copy's kernel_dump has no TTIR (a Gluon kernel starts at TTGIR):
 * the two folders still match on the stages both have. */
static void test_gluon(void)
{
    if (!tk_test_have_dumps())
        return;
    tk_diags *d = tk_diags_new();
    tk_bundle *b = load("gluon_copy", NULL, d);
    g_assert_cmpuint(tk_bundle_kernel_count(b), ==, 1);
    const tk_kernel *k = tk_bundle_kernel(b, 0);
    g_assert_cmpstr(tk_kernel_name(k), ==, "copy_scale_kernel");
    g_assert_null(tk_kernel_stage(k, TK_STAGE_TTIR));
    g_assert_nonnull(tk_kernel_stage(k, TK_STAGE_TTGIR));
    /* cache/QMWLQAOW.../copy_scale_kernel.json: "hash": "832cb801..." */
    g_assert_true(g_str_has_prefix(tk_kernel_hash(k), "832cb801"));
    tk_bundle_free(b);
    tk_diags_free(d);
}

/* ---- other inputs ----------------------------------------------------- */

static void test_cache_alone(void)
{
    if (!tk_test_have_dumps())
        return;
    tk_diags *d = tk_diags_new();
    tk_bundle *b = load("vector_add/cache", NULL, d);
    g_assert_cmpint(tk_bundle_input_kind(b), ==, TK_INPUT_KERNEL_DIRS);
    /* cache/ holds 7L3BHG... and two empty folders (HEUKIG4J..., XU5DT2AO...). */
    g_assert_cmpuint(tk_bundle_kernel_count(b), ==, 1);
    const tk_kernel *k = tk_bundle_kernel(b, 0);
    g_assert_cmpstr(tk_kernel_hash(k), ==, VA_HASH);
    g_assert_cmpint(tk_kernel_metadata(k)->num_warps, ==, 4);
    /* The cache has .sass_gi and .sass_g, no plain .sass. */
    g_assert_true(g_str_has_suffix(
        tk_stage_path(tk_kernel_stage(k, TK_STAGE_SASS)), ".sass_gi"));
    tk_bundle_free(b);
    tk_diags_free(d);
}

static void test_kernel_dump_alone(void)
{
    if (!tk_test_have_dumps())
        return;
    tk_diags *d = tk_diags_new();
    tk_bundle *b = load("vector_add/kernel_dump", NULL, d);
    g_assert_cmpint(tk_bundle_input_kind(b), ==, TK_INPUT_KERNEL_DIRS);
    g_assert_cmpuint(tk_bundle_kernel_count(b), ==, 1);
    const tk_kernel *k = tk_bundle_kernel(b, 0);
    /* No NAME.json in a dump folder: the hash is the folder's name, the
     * launch configuration unknown, the registers still in the cubin. */
    g_assert_cmpstr(tk_kernel_hash(k), ==, VA_DUMP_DIR);
    g_assert_cmpint(tk_kernel_metadata(k)->num_warps, ==, -1);
    g_assert_null(tk_kernel_metadata(k)->target);
    g_assert_cmpint(tk_kernel_metadata(k)->registers, ==, 26);
    g_assert_true(g_str_has_suffix(
        tk_stage_path(tk_kernel_stage(k, TK_STAGE_SASS)), ".sass_gi"));
    tk_bundle_free(b);
    tk_diags_free(d);
}

static void test_one_hash_dir(void)
{
    if (!tk_test_have_dumps())
        return;
    tk_diags *d = tk_diags_new();
    tk_bundle *b = load("vector_add/cache/" VA_CACHE_DIR, NULL, d);
    g_assert_cmpint(tk_bundle_input_kind(b), ==, TK_INPUT_KERNEL_DIR);
    g_assert_cmpuint(tk_bundle_kernel_count(b), ==, 1);
    g_assert_cmpstr(tk_kernel_hash(tk_bundle_kernel(b, 0)), ==, VA_HASH);
    tk_bundle_free(b);
    tk_diags_free(d);
}

static void test_loose_files(void)
{
    if (!tk_test_have_dumps())
        return;
    char *dir = tk_test_make_tmp("bundle-XXXXXX");
    const char *kd = "vector_add/kernel_dump/" VA_DUMP_DIR "/";
    char *rel;
    /* add_kernel: a TTGIR, and SASS as .sass and .sass_g (no .sass_gi):
     * the one with line info wins. */
    rel = g_strconcat(kd, "add_kernel.ttgir", NULL);
    copy_dump(rel, dir, "add_kernel.ttgir");
    g_free(rel);
    rel = g_strconcat(kd, "add_kernel.sass", NULL);
    copy_dump(rel, dir, "add_kernel.sass");
    g_free(rel);
    rel = g_strconcat(kd, "add_kernel.sass_g", NULL);
    copy_dump(rel, dir, "add_kernel.sass_g");
    g_free(rel);
    /* A PTX whose name does not say: found by its content. */
    rel = g_strconcat(kd, "add_kernel.ptx", NULL);
    copy_dump(rel, dir, "renamed.txt");
    g_free(rel);
    /* Neither of these is a stage. */
    copy_dump("vector_add/mlir_passes.txt", dir, "mlir_passes.txt");
    write_file(dir, "notes.txt", "nothing to see here\n", -1);

    tk_diags *d = tk_diags_new();
    tk_bundle *b = tk_bundle_load(dir, NULL, d);
    g_assert_nonnull(b);
    g_assert_cmpint(tk_bundle_input_kind(b), ==, TK_INPUT_FILES);
    g_assert_cmpuint(tk_bundle_kernel_count(b), ==, 2);
    const tk_kernel *a = kernel(b, "add_kernel");
    g_assert_nonnull(tk_kernel_stage(a, TK_STAGE_TTGIR));
    g_assert_null(tk_kernel_stage(a, TK_STAGE_TTIR));
    g_assert_true(g_str_has_suffix(
        tk_stage_path(tk_kernel_stage(a, TK_STAGE_SASS)), ".sass_g"));
    const tk_kernel *r = kernel(b, "renamed");
    g_assert_nonnull(tk_kernel_stage(r, TK_STAGE_PTX));
    /* mlir_passes.txt is a pass dump file of add_kernel (its TTGIR is the
     * text of dumps 18-54): the loose PTX, named "renamed", is no name a
     * dump defines. */
    g_assert_cmpuint(tk_bundle_pass_file_count(b, d), ==, 1);
    g_assert_cmpint(tk_bundle_kernel_pass_seq(b, a, 0), ==, 0);
    g_assert_cmpint(tk_bundle_kernel_pass_seq(b, r, 0), ==, -1);
    /* No metadata: the folder's name stands for the hash. */
    char *base = g_path_get_basename(dir);
    g_assert_cmpstr(tk_kernel_hash(r), ==, base);
    g_free(base);
    tk_bundle_free(b);
    tk_diags_free(d);
    tk_test_remove_tree(dir);
    g_free(dir);
}

static void test_single_file(void)
{
    if (!tk_test_have_dumps())
        return;
    tk_diags *d = tk_diags_new();
    tk_bundle *b = load("vector_add/kernel_dump/" VA_DUMP_DIR "/add_kernel.ptx",
                        NULL, d);
    g_assert_cmpint(tk_bundle_input_kind(b), ==, TK_INPUT_FILES);
    g_assert_cmpuint(tk_bundle_kernel_count(b), ==, 1);
    const tk_kernel *k = tk_bundle_kernel(b, 0);
    g_assert_cmpstr(tk_kernel_name(k), ==, "add_kernel");
    g_assert_cmpstr(tk_kernel_hash(k), ==, VA_DUMP_DIR);
    g_assert_nonnull(tk_kernel_stage(k, TK_STAGE_PTX));
    g_assert_null(tk_kernel_stage(k, TK_STAGE_TTIR));
    tk_bundle_free(b);

    /* A pass dump is not a stage file: its compiles are kernels without
     * stages (test_bundle_passes.c looks closer). */
    char *p = tk_test_dump_path("vector_add/mlir_passes.txt");
    b = tk_bundle_load(p, NULL, d);
    g_assert_nonnull(b);
    g_assert_cmpuint(tk_bundle_kernel_count(b), ==, 1);
    k = tk_bundle_kernel(b, 0);
    g_assert_cmpstr(tk_kernel_name(k), ==, "add_kernel");
    for (int s = 0; s < TK_STAGE_COUNT; s++)
        g_assert_null(tk_kernel_stage(k, (tk_stage_kind)s));
    tk_bundle_free(b);
    g_free(p);
    tk_diags_free(d);
}

/* ---- the kernel's own source file ------------------------------------- */

/* The path in the first loc("PATH":...) of the kernel's first stage: Triton
 * writes the kernel function's own location first ("#loc =
 * loc(\"/tmp/capture/vector_add/src/vector_add.py\":7:0)", add_kernel.ttir
 * line 1; the TorchInductor kernels of compiled_block have their generated
 * file at :18:0).  Caller frees. */
static char *first_loc_path(const tk_kernel *k)
{
    const tk_stage *st = tk_kernel_stage(k, TK_STAGE_TTIR);
    if (!st)
        st = tk_kernel_stage(k, TK_STAGE_TTGIR); /* Gluon: no TTIR */
    g_assert_nonnull(st);
    for (uint32_t l = 1; l <= tk_stage_line_count(st); l++) {
        size_t len;
        const char *s = tk_stage_line(st, l, &len);
        char *line = g_strndup(s, len);
        const char *q = strstr(line, "loc(\"");
        const char *end = q ? strstr(q + 5, "\":") : NULL;
        char *path = end ? g_strndup(q + 5, (gsize)(end - q - 5)) : NULL;
        g_free(line);
        if (path)
            return path;
    }
    g_error("no loc(\"...\") in %s", tk_stage_path(st));
}

static void check_main_sources(const char *path)
{
    tk_diags *d = tk_diags_new();
    tk_bundle *b = tk_bundle_load(path, NULL, d);
    g_assert_nonnull(b);
    g_assert_cmpuint(tk_bundle_kernel_count(b), >, 0);
    for (size_t i = 0; i < tk_bundle_kernel_count(b); i++) {
        const tk_kernel *k = tk_bundle_kernel(b, i);
        tk_file_id f = tk_kernel_main_source(k, tk_bundle_loctab(b));
        g_assert_cmpuint(f, !=, TK_NO_FILE);
        char *want = first_loc_path(k);
        g_test_message("%s %s: %s", path, tk_kernel_name(k), want);
        g_assert_cmpstr(tk_loctab_file_path(tk_bundle_loctab(b), f), ==, want);
        g_free(want);
    }
    tk_bundle_free(b);
    tk_diags_free(d);
}

/* Every kernel of the shared captures and the sample bundles, TorchInductor
 * kernels, a Gluon kernel (TTGIR only) and USE_IR_LOC captures (later
 * stages located in the TTIR or TTGIR file) included. */
static void test_main_source_captures(void)
{
    if (!tk_test_have_dumps())
        return;
    const char *shared[] = {"vector_add", "vector_add_irloc_ttir", "softmax",
                            "matmul", "matmul_irloc_ttgir",
                            "persistent_tma_matmul", "compiled_block",
                            "autotuned_matmul", "gluon_copy"};
    for (size_t i = 0; i < G_N_ELEMENTS(shared); i++) {
        char *p = tk_test_dump_path(shared[i]);
        check_main_sources(p);
        g_free(p);
    }
    const char *samples[] = {"vector_add_sum", "fused_softmax", "matmul_helper",
                             "layer_norm_gelu", "add_sum_mlir"};
    for (size_t i = 0; i < G_N_ELEMENTS(samples); i++) {
        char *p = g_build_filename(g_getenv("TK_TEST_SAMPLES"), samples[i], NULL);
        check_main_sources(p);
        g_free(p);
    }
}

/* A kernel that is mostly library code: eight of its ops come from
 * standard.py, inlined at its line 5.  Counted by innermost frames,
 * standard.py would win (3 positions against k.py's 1, 8 instructions
 * against the one at k.py:5, tt.return: the module and function headers
 * and their closing lines at k.py:3 are not instructions, so refs do not
 * count them); every stack ends in k.py. */
static void test_main_source_library_heavy(void)
{
    char *dir = tk_test_make_tmp("bundle-XXXXXX");
    write_file(dir, "k.ttir",
               "#loc = loc(\"/src/k.py\":3:0)\n"
               "#loc1 = loc(\"/lib/triton/language/standard.py\":290:10)\n"
               "#loc2 = loc(\"/lib/triton/language/standard.py\":291:12)\n"
               "#loc3 = loc(\"/lib/triton/language/standard.py\":292:14)\n"
               "#loc4 = loc(\"/src/k.py\":5:10)\n"
               "#loc5 = loc(callsite(#loc1 at #loc4))\n"
               "#loc6 = loc(callsite(#loc2 at #loc4))\n"
               "#loc7 = loc(callsite(#loc3 at #loc4))\n"
               "module {\n"
               "  tt.func public @k() attributes {noinline = false} {\n"
               "    %c0 = arith.constant 0 : i32 loc(#loc5)\n"
               "    %c1 = arith.constant 1 : i32 loc(#loc6)\n"
               "    %0 = arith.addi %c0, %c1 : i32 loc(#loc7)\n"
               "    %1 = arith.addi %0, %c1 : i32 loc(#loc7)\n"
               "    %2 = arith.addi %1, %c1 : i32 loc(#loc7)\n"
               "    %3 = arith.addi %2, %c1 : i32 loc(#loc7)\n"
               "    %4 = arith.addi %3, %c1 : i32 loc(#loc7)\n"
               "    %5 = arith.addi %4, %c1 : i32 loc(#loc7)\n"
               "    tt.return loc(#loc4)\n"
               "  } loc(#loc)\n"
               "} loc(#loc)\n",
               -1);
    tk_diags *d = tk_diags_new();
    tk_bundle *b = tk_bundle_load(dir, NULL, d);
    g_assert_nonnull(b);
    g_assert_cmpuint(tk_bundle_kernel_count(b), ==, 1);
    tk_loctab *tab = tk_bundle_loctab(b);
    const tk_kernel *k = tk_bundle_kernel(b, 0);
    /* The premise: more innermost positions in standard.py than in k.py. */
    tk_bind *ix = tk_bind_new(k, tab);
    const tk_source_ref *refs;
    size_t n = tk_bind_source_refs(ix, TK_STAGE_TTIR, &refs);
    size_t lib = 0, own = 0;
    for (size_t i = 0; i < n; i++)
        if (refs[i].n_exact &&
            strstr(tk_loctab_file_path(tab, refs[i].file), "standard.py"))
            lib++;
        else if (refs[i].n_exact)
            own++;
    g_assert_cmpuint(lib, ==, 3);
    g_assert_cmpuint(own, ==, 1);
    uint32_t lib_lines = 0, own_lines = 0;
    for (size_t i = 0; i < n; i++)
        if (strstr(tk_loctab_file_path(tab, refs[i].file), "standard.py"))
            lib_lines += refs[i].n_exact;
        else
            own_lines += refs[i].n_exact;
    g_assert_cmpuint(lib_lines, ==, 8);
    g_assert_cmpuint(own_lines, ==, 1);
    tk_bind_free(ix);
    tk_file_id f = tk_kernel_main_source(k, tab);
    g_assert_cmpstr(tk_loctab_file_path(tab, f), ==, "/src/k.py");
    g_assert_cmpuint(tk_kernel_main_source(NULL, tab), ==, TK_NO_FILE);
    tk_bundle_free(b);
    tk_diags_free(d);
    tk_test_remove_tree(dir);
    g_free(dir);
}

/* ---- finding kernels -------------------------------------------------- */

static void test_find_kernel(void)
{
    if (!tk_test_have_dumps())
        return;
    tk_diags *d = tk_diags_new();
    tk_bundle *b = load("compiled_block", NULL, d);
    size_t n = 99;
    /* Indexes count from 0, as tk_bundle_kernel() does. */
    g_assert_true(tk_bundle_find_kernel(b, "0", &n) == tk_bundle_kernel(b, 0));
    g_assert_cmpuint(n, ==, 1);
    g_assert_true(tk_bundle_find_kernel(b, "15", &n) ==
                  tk_bundle_kernel(b, 15));
    /* "16" is past the end, and no hash starts with 16. */
    g_assert_null(tk_bundle_find_kernel(b, "16", &n));
    g_assert_cmpuint(n, ==, 0);
    /* The same rule as an index: 15 for "15", -1 for "16" (none) and for
     * the gelu name found twice (n says 2). */
    g_assert_cmpint(tk_bundle_find_kernel_index(b, "15", &n), ==, 15);
    g_assert_cmpint(tk_bundle_find_kernel_index(b, "16", &n), ==, -1);
    g_assert_cmpint(tk_bundle_find_kernel_index(
                        b, "triton_poi_fused_gelu_view_7", &n), ==, -1);
    g_assert_cmpuint(n, ==, 2);
    /* A name found once. */
    const tk_kernel *k = tk_bundle_find_kernel(
        b, "triton_per_fused_clone_native_layer_norm_transpose_0", &n);
    g_assert_nonnull(k);
    g_assert_cmpuint(n, ==, 1);
    /* A name found twice: the caller is told how many. */
    g_assert_null(tk_bundle_find_kernel(b, "triton_poi_fused_gelu_view_7", &n));
    g_assert_cmpuint(n, ==, 2);
    /* Hash prefixes (from the cache's json files): 8d1df8fd... is the
     * 4-warp gelu; "5d" starts 5df93782... and 5d074107...; case does not
     * matter. */
    k = tk_bundle_find_kernel(b, "8d1d", &n);
    g_assert_nonnull(k);
    g_assert_cmpstr(tk_kernel_name(k), ==, "triton_poi_fused_gelu_view_7");
    g_assert_null(tk_bundle_find_kernel(b, "5d", &n));
    g_assert_cmpuint(n, ==, 2);
    g_assert_nonnull(tk_bundle_find_kernel(b, "CF763DDF", &n));
    /* name:hashprefix. */
    k = tk_bundle_find_kernel(b, "triton_poi_fused_clone_permute_5:d683", &n);
    g_assert_nonnull(k);
    g_assert_cmpint(tk_kernel_metadata(k)->num_warps, ==, 8);
    g_assert_null(tk_bundle_find_kernel(b, "triton_poi_fused_clone_permute_5:5d", &n));
    g_assert_cmpuint(n, ==, 0);
    g_assert_null(tk_bundle_find_kernel(b, "no_such_kernel", &n));
    g_assert_cmpuint(n, ==, 0);
    g_assert_null(tk_bundle_find_kernel(b, "", &n));
    /* A unique prefix of a name (tkview info lists [1] as the only
     * triton_per_fused_clone...), and an ambiguous one with its
     * candidates: triton_per_ starts [0] and [1]. */
    k = tk_bundle_find_kernel(b, "triton_per_fused_clone", &n);
    g_assert_true(k == tk_bundle_kernel(b, 1));
    g_assert_cmpuint(n, ==, 1);
    g_assert_null(tk_bundle_find_kernel(b, "triton_per_", &n));
    g_assert_cmpuint(n, ==, 2);
    size_t *idx;
    g_assert_cmpuint(tk_bundle_find_kernels(b, "triton_per_", &idx), ==, 2);
    g_assert_cmpuint(idx[0], ==, 0);
    g_assert_cmpuint(idx[1], ==, 1);
    g_free(idx);
    /* The prefix of a name compiled twice names both ([14], [15]). */
    g_assert_cmpuint(tk_bundle_find_kernels(b, "triton_poi_fused_gel", &idx), ==, 2);
    g_assert_cmpuint(idx[0], ==, 14);
    g_free(idx);
    /* A full name first: "triton_poi_fused_clone_permute_5" names [12] and
     * [13], not the longer names it is a prefix of (there are none here),
     * and a name never falls back to a prefix once it matches in full. */
    g_assert_cmpuint(tk_bundle_find_kernels(b, "triton_poi_fused_clone_permute_5", &idx), ==, 2);
    g_free(idx);
    g_assert_cmpuint(tk_bundle_find_kernels(b, "zzz", &idx), ==, 0);
    g_assert_null(idx);
    tk_bundle_free(b);

    /* sample_dumps/attention_fwd: "attn" -> attn_fwd. */
    char *p = g_build_filename(g_getenv("TK_TEST_SAMPLES"), "attention_fwd", NULL);
    b = tk_bundle_load(p, NULL, d);
    g_free(p);
    k = tk_bundle_find_kernel(b, "attn", &n);
    g_assert_nonnull(k);
    g_assert_cmpstr(tk_kernel_name(k), ==, "attn_fwd");
    tk_bundle_free(b);
    tk_diags_free(d);
}

/* ---- sources ---------------------------------------------------------- */

static const char *resolve(tk_bundle *b, const char *path, tk_diags *d)
{
    tk_file_id f = tk_loctab_file(tk_bundle_loctab(b), path, strlen(path));
    return tk_bundle_resolve_source(b, f, d);
}

static void test_sources(void)
{
    if (!tk_test_have_dumps())
        return;
    tk_diags *d = tk_diags_new();
    tk_bundle *b = load("vector_add", NULL, d);
    /* The locations name the capture machine's path; the program is in
     * src/ of the dump (README: "its path at capture time was
     * /tmp/capture/NAME/src/NAME.py"). */
    const char *got =
        resolve(b, "/tmp/capture/vector_add/src/vector_add.py", d);
    g_assert_nonnull(got);
    char *want_rel = tk_test_dump_path("vector_add/src/vector_add.py");
    char *want = real(want_rel);
    char *got_real = real(got);
    g_assert_cmpstr(got_real, ==, want);
    g_free(want_rel);
    g_free(want);
    g_free(got_real);

    /* Triton's own library is not in the dumps: not found, one note. */
    const char *std =
        "/opt/torch/.venv/lib/python3.12/site-packages/triton/language/"
        "standard.py";
    size_t before = tk_diags_count(d);
    g_assert_null(resolve(b, std, d));
    g_assert_cmpuint(tk_diags_count(d), ==, before + 1);
    g_assert_cmpint(tk_diags_get(d, before)->severity, ==, TK_DIAG_NOTE);
    g_assert_cmpstr(tk_diags_get(d, before)->file, ==, std);
    g_assert_null(resolve(b, std, d));
    g_assert_cmpuint(tk_diags_count(d), ==, before + 1);
    tk_bundle_free(b);

    /* ... unless a --source-dir has it, under the tail of its path. */
    char *dir = tk_test_make_tmp("bundle-XXXXXX");
    write_file(dir, "triton/language/standard.py", "# standard\n", -1);
    const char *dirs[] = {dir};
    tk_load_options opts = {dirs, 1};
    b = load("vector_add", &opts, d);
    got = resolve(b, std, d);
    g_assert_nonnull(got);
    g_assert_true(g_str_has_suffix(got, "/triton/language/standard.py"));
    g_assert_true(g_str_has_prefix(got, dir));
    tk_bundle_free(b);
    tk_test_remove_tree(dir);
    g_free(dir);

    /* compiled_block: the kernels' locations name
     * /tmp/capture/compiled_block/inductor/ip/cipj2bbj....py (PTX .file
     * lines), the dump has inductor/ip/cipj2bbj....py. */
    b = load("compiled_block", NULL, d);
    const char *ind = "inductor/ip/"
                      "cipj2bbjebcy2xdcneapp7s5yuxf7ca5jcmabgpfd7kgqauh4jao.py";
    char *loc = g_strconcat("/tmp/capture/compiled_block/", ind, NULL);
    got = resolve(b, loc, d);
    g_assert_nonnull(got);
    char *want2_rel = g_strconcat("compiled_block/", ind, NULL);
    char *want2_path = tk_test_dump_path(want2_rel);
    char *want2 = real(want2_path);
    char *got2 = real(got);
    g_assert_cmpstr(got2, ==, want2);
    g_free(loc);
    g_free(want2_rel);
    g_free(want2_path);
    g_free(want2);
    g_free(got2);
    tk_bundle_free(b);
    tk_diags_free(d);
}

/* The longest matching tail wins, and only when one file has it. */
static void test_sources_ambiguous(void)
{
    if (!tk_test_have_dumps())
        return;
    char *dir = tk_test_make_tmp("bundle-XXXXXX");
    copy_dump("vector_add/kernel_dump/" VA_DUMP_DIR "/add_kernel.ttir", dir,
              "add_kernel.ttir");
    write_file(dir, "a/x.py", "# a\n", -1);
    write_file(dir, "b/x.py", "# b\n", -1);
    write_file(dir, "c/d/y.py", "# y\n", -1);
    tk_diags *d = tk_diags_new();
    tk_bundle *b = tk_bundle_load(dir, NULL, d);
    g_assert_nonnull(b);
    size_t before = tk_diags_count(d);
    /* Two files end in x.py, none better: refused, said once. */
    g_assert_null(resolve(b, "/elsewhere/x.py", d));
    g_assert_cmpuint(tk_diags_count(d), ==, before + 1);
    g_assert_true(diags_mention(d, TK_DIAG_NOTE, "several files"));
    /* b/x.py matches two components: it wins. */
    const char *got = resolve(b, "/elsewhere/b/x.py", d);
    g_assert_nonnull(got);
    g_assert_true(g_str_has_suffix(got, "/b/x.py"));
    /* One y.py: the base name is enough. */
    got = resolve(b, "/somewhere/else/y.py", d);
    g_assert_nonnull(got);
    g_assert_true(g_str_has_suffix(got, "/c/d/y.py"));
    tk_bundle_free(b);
    tk_diags_free(d);
    tk_test_remove_tree(dir);
    g_free(dir);
}

/* ---- saving ----------------------------------------------------------- */

/* Whether the stacks of line L of A (tab TA) and B (tab TB) are the same
 * frames: same paths, lines and columns (file ids may differ). */
static void assert_same_stacks(const tk_stage *a, const tk_loctab *ta,
                               const tk_stage *b, const tk_loctab *tb,
                               uint32_t l)
{
    const tk_stack_id *ia, *ib;
    size_t na = tk_stage_line_stacks(a, l, &ia);
    size_t nb = tk_stage_line_stacks(b, l, &ib);
    g_assert_cmpuint(na, ==, nb);
    for (size_t i = 0; i < na; i++) {
        size_t fa, fb;
        const tk_frame *xa = tk_loctab_stack_frames(ta, ia[i], &fa);
        const tk_frame *xb = tk_loctab_stack_frames(tb, ib[i], &fb);
        g_assert_cmpuint(fa, ==, fb);
        for (size_t j = 0; j < fa; j++) {
            g_assert_cmpstr(tk_loctab_file_path(ta, xa[j].file), ==,
                            tk_loctab_file_path(tb, xb[j].file));
            g_assert_cmpuint(xa[j].line, ==, xb[j].line);
            g_assert_cmpuint(xa[j].col, ==, xb[j].col);
        }
    }
}

/* PATH without a trailing ".zst" (caller frees). */
static char *plain_name(const char *path)
{
    size_t n = strlen(path);
    return g_strndup(path, g_str_has_suffix(path, ".zst") ? n - 4 : n);
}

/* Checks that B2 (loaded from a saved bundle) holds what B1 held; returns
 * the number of located lines compared. */
static size_t assert_same_bundle(const tk_bundle *b1, const tk_bundle *b2)
{
    size_t located = 0;
    g_assert_cmpuint(tk_bundle_kernel_count(b2), ==,
                     tk_bundle_kernel_count(b1));
    for (size_t i = 0; i < tk_bundle_kernel_count(b1); i++) {
        const tk_kernel *k1 = tk_bundle_kernel(b1, i);
        const tk_kernel *k2 = tk_bundle_kernel(b2, i);
        g_assert_cmpstr(tk_kernel_name(k1), ==, tk_kernel_name(k2));
        g_assert_cmpstr(tk_kernel_hash(k1), ==, tk_kernel_hash(k2));
        const tk_kernel_meta *m1 = tk_kernel_metadata(k1);
        const tk_kernel_meta *m2 = tk_kernel_metadata(k2);
        g_assert_cmpint(m1->num_warps, ==, m2->num_warps);
        g_assert_cmpint(m1->num_ctas, ==, m2->num_ctas);
        g_assert_cmpint(m1->num_stages, ==, m2->num_stages);
        g_assert_cmpint(m1->shared_bytes, ==, m2->shared_bytes);
        g_assert_cmpint(m1->registers, ==, m2->registers);
        g_assert_cmpint(m1->spill_bytes, ==, m2->spill_bytes);
        g_assert_cmpstr(m1->target, ==, m2->target);
        g_assert_cmpstr(m1->triton_version, ==, m2->triton_version);
        for (int s = 0; s < TK_STAGE_COUNT; s++) {
            const tk_stage *a = tk_kernel_stage(k1, (tk_stage_kind)s);
            const tk_stage *c = tk_kernel_stage(k2, (tk_stage_kind)s);
            g_assert_true(!a == !c);
            if (!a)
                continue;
            g_assert_cmpuint(tk_stage_line_count(a), ==,
                             tk_stage_line_count(c));
            g_assert_cmpuint(tk_stage_size(a), ==, tk_stage_size(c));
            g_assert_cmpint(tk_stage_has_inline_frames(a), ==,
                            tk_stage_has_inline_frames(c));
            /* The stage file keeps its extension (.sass_gi here), with
             * .zst after it when it is stored compressed (format 4). */
            char *pa = plain_name(tk_stage_path(a));
            char *pc = plain_name(tk_stage_path(c));
            g_assert_cmpstr(strrchr(pa, '.'), ==, strrchr(pc, '.'));
            g_free(pa);
            g_free(pc);
            for (uint32_t l = 1; l <= tk_stage_line_count(a); l++) {
                size_t la, lc;
                const char *ta = tk_stage_line(a, l, &la);
                const char *tc = tk_stage_line(c, l, &lc);
                g_assert_cmpuint(la, ==, lc);
                g_assert_true(memcmp(ta, tc, la) == 0);
                assert_same_stacks(a, tk_bundle_loctab(b1), c,
                                   tk_bundle_loctab(b2), l);
                const tk_stack_id *ids;
                if (tk_stage_line_stacks(a, l, &ids))
                    located++;
            }
        }
    }
    return located;
}

static void test_save_roundtrip(void)
{
    if (!tk_test_have_dumps())
        return;
    tk_diags *d = tk_diags_new();
    tk_bundle *b1 = load("vector_add", NULL, d);
    char *tmp = tk_test_make_tmp("bundle-XXXXXX");
    char *out = g_build_filename(tmp, "va.tkb", NULL);
    g_assert_cmpint(tk_bundle_save(b1, out, d), ==, 0);
    g_assert_cmpuint(tk_diags_count_at_least(d, TK_DIAG_WARNING), ==, 0);
    /* Nothing left beside it: the temporary folder was renamed. */
    GDir *dir = g_dir_open(tmp, 0, NULL);
    g_assert_cmpstr(g_dir_read_name(dir), ==, "va.tkb");
    g_assert_null(g_dir_read_name(dir));
    g_dir_close(dir);

    tk_bundle *b2 = tk_bundle_load(out, NULL, d);
    g_assert_nonnull(b2);
    g_assert_cmpint(tk_bundle_input_kind(b2), ==, TK_INPUT_BUNDLE);
    /* From the metadata: triton_version "3.6.0". */
    g_assert_cmpstr(tk_bundle_compiler(b2), ==, "triton 3.6.0");
    g_assert_nonnull(tk_bundle_tool_version(b2));
    g_assert_cmpint(tk_bundle_complete(b2), ==, -1);
    size_t located = assert_same_bundle(b1, b2);
    /* The stages carry locations (the SASS //## lines at least), and the
     * same ones came back. */
    g_assert_cmpuint(located, >, 0);

    /* The source came along, under sources/, with the same bytes. */
    const char *src = "/tmp/capture/vector_add/src/vector_add.py";
    const char *p1 = resolve(b1, src, d);
    const char *p2 = resolve(b2, src, d);
    g_assert_nonnull(p2);
    char *bundle_real = real(out);
    g_assert_true(g_str_has_prefix(p2, bundle_real));
    g_assert_nonnull(strstr(p2, "/sources/"));
    char *t1 = NULL, *t2 = NULL;
    g_assert_true(g_file_get_contents(p1, &t1, NULL, NULL));
    g_assert_true(g_file_get_contents(p2, &t2, NULL, NULL));
    g_assert_cmpstr(t1, ==, t2);
    g_free(t1);
    g_free(t2);
    g_free(bundle_real);

    /* Saving again: the bundle loads as itself. */
    char *out2 = g_build_filename(tmp, "again", NULL);
    g_assert_cmpint(tk_bundle_save(b2, out2, d), ==, 0);
    tk_bundle *b3 = tk_bundle_load(out2, NULL, d);
    g_assert_nonnull(b3);
    assert_same_bundle(b2, b3);
    g_assert_nonnull(resolve(b3, src, d));
    tk_bundle_free(b3);

    /* An existing non-empty folder is refused and left as it was; an empty
     * one is replaced. */
    g_assert_cmpint(tk_bundle_save(b1, out, d), ==, -1);
    g_assert_true(diags_mention(d, TK_DIAG_ERROR, "not an empty folder"));
    char *empty = g_build_filename(tmp, "empty", NULL);
    g_mkdir(empty, 0755);
    g_assert_cmpint(tk_bundle_save(b1, empty, d), ==, 0);
    char *mf = g_build_filename(empty, "manifest.json", NULL);
    g_assert_true(g_file_test(mf, G_FILE_TEST_IS_REGULAR));
    g_free(mf);
    g_free(empty);

    tk_bundle_free(b2);
    tk_bundle_free(b1);
    tk_test_remove_tree(tmp);
    g_free(out);
    g_free(out2);
    g_free(tmp);
    tk_diags_free(d);
}

static void test_save_compiled_block(void)
{
    if (!tk_test_have_dumps())
        return;
    tk_diags *d = tk_diags_new();
    tk_bundle *b1 = load("compiled_block", NULL, d);
    char *tmp = tk_test_make_tmp("bundle-XXXXXX");
    char *out = g_build_filename(tmp, "cb", NULL);
    g_assert_cmpint(tk_bundle_save(b1, out, d), ==, 0);
    tk_bundle *b2 = tk_bundle_load(out, NULL, d);
    g_assert_nonnull(b2);
    g_assert_cmpuint(tk_bundle_kernel_count(b2), ==, 16);
    assert_same_bundle(b1, b2);
    /* The inductor file came along. */
    const char *loc = "/tmp/capture/compiled_block/inductor/ip/"
                      "cipj2bbjebcy2xdcneapp7s5yuxf7ca5jcmabgpfd7kgqauh4jao.py";
    const char *got = resolve(b2, loc, d);
    g_assert_nonnull(got);
    g_assert_nonnull(strstr(got, "/sources/"));
    tk_bundle_free(b2);
    tk_bundle_free(b1);
    tk_test_remove_tree(tmp);
    g_free(out);
    g_free(tmp);
    tk_diags_free(d);
}

/* Hostile names never place a file outside the output folder. */
static void test_save_hostile_names(void)
{
    if (!tk_test_have_dumps())
        return;
    char *tmp = tk_test_make_tmp("bundle-XXXXXX");
    char *in = g_build_filename(tmp, "in", NULL);
    copy_dump("vector_add/kernel_dump/" VA_DUMP_DIR "/add_kernel.ttir", in,
              "k/add_kernel.ttir");
    write_file(in, "manifest.json",
               "{\"format\": \"tkview-bundle\", \"format_version\": 1,"
               " \"kernels\": [{\"name\": \"../../escaped\","
               " \"hash\": \"/../../x\","
               " \"stages\": {\"ttir\": \"k/add_kernel.ttir\"}}]}",
               -1);
    char *srcdir = g_build_filename(tmp, "srcdir", NULL);
    write_file(srcdir, "x.py", "# x\n", -1);
    const char *dirs[] = {srcdir};
    tk_load_options opts = {dirs, 1};
    tk_diags *d = tk_diags_new();
    tk_bundle *b = tk_bundle_load(in, &opts, d);
    g_assert_nonnull(b);
    g_assert_cmpuint(tk_bundle_kernel_count(b), ==, 1);
    /* A source path with bytes that are not UTF-8 and "..": found in the
     * --source-dir by its tail, stored under a safe name. */
    const char odd[] = "/w\xff\xfe/../../x.py";
    tk_file_id f = tk_loctab_file(tk_bundle_loctab(b), odd, strlen(odd));
    g_assert_nonnull(tk_bundle_resolve_source(b, f, d));

    char *out = g_build_filename(tmp, "out", NULL);
    g_assert_cmpint(tk_bundle_save(b, out, d), ==, 0);
    /* tmp holds in/, srcdir/ and out/, nothing else. */
    GDir *dir = g_dir_open(tmp, 0, NULL);
    int n = 0;
    for (const char *e; (e = g_dir_read_name(dir));) {
        g_assert_true(strcmp(e, "in") == 0 || strcmp(e, "out") == 0 ||
                      strcmp(e, "srcdir") == 0);
        n++;
    }
    g_dir_close(dir);
    g_assert_cmpint(n, ==, 3);
    /* "../../escaped" -> "_._.._escaped", and the first 8 bytes of the hash
     * "/../../x" -> "_.._.._x": no '/', no leading '.'. */
    char *folder = g_build_filename(out, "_._.._escaped-_.._.._x", NULL);
    g_assert_true(g_file_test(folder, G_FILE_TEST_IS_DIR));
    g_free(folder);

    /* Loaded back, the names are what they were and the odd source path
     * still finds its copy. */
    tk_bundle *b2 = tk_bundle_load(out, NULL, d);
    g_assert_nonnull(b2);
    g_assert_cmpstr(tk_kernel_name(tk_bundle_kernel(b2, 0)), ==,
                    "../../escaped");
    g_assert_cmpstr(tk_kernel_hash(tk_bundle_kernel(b2, 0)), ==, "/../../x");
    f = tk_loctab_file(tk_bundle_loctab(b2), odd, strlen(odd));
    const char *got = tk_bundle_resolve_source(b2, f, d);
    g_assert_nonnull(got);
    g_assert_nonnull(strstr(got, "/sources/"));
    tk_bundle_free(b2);
    tk_bundle_free(b);
    tk_diags_free(d);
    tk_test_remove_tree(tmp);
    g_free(in);
    g_free(out);
    g_free(srcdir);
    g_free(tmp);
}

/* A file found at the path a location names is copied when saving what was
 * found on disk, but never read from someone else's bundle (the trust rule,
 * docs/bundle.md "What a bundle may read"). */
static void test_save_in_place_sources(void)
{
    if (!tk_test_have_dumps())
        return;
    char *tmp = tk_test_make_tmp("bundle-XXXXXX");
    write_file(tmp, "secret.py", "secret\n", -1);
    char *secret = g_build_filename(tmp, "secret.py", NULL);
    char *loose = g_build_filename(tmp, "loose", NULL);
    copy_dump("vector_add/kernel_dump/" VA_DUMP_DIR "/add_kernel.ttir", loose,
              "add_kernel.ttir");
    tk_diags *d = tk_diags_new();

    tk_bundle *b = tk_bundle_load(loose, NULL, d);
    g_assert_nonnull(b);
    tk_file_id f = tk_loctab_file(tk_bundle_loctab(b), secret, strlen(secret));
    g_assert_cmpstr(tk_bundle_resolve_source(b, f, d), ==, secret);
    char *out1 = g_build_filename(tmp, "out1", NULL);
    g_assert_cmpint(tk_bundle_save(b, out1, d), ==, 0);
    tk_bundle_free(b);

    b = tk_bundle_load(out1, NULL, d);
    g_assert_nonnull(b);
    f = tk_loctab_file(tk_bundle_loctab(b), secret, strlen(secret));
    const char *got = tk_bundle_resolve_source(b, f, d);
    g_assert_nonnull(got);
    g_assert_nonnull(strstr(got, "/sources/")); /* the copy, not the file */
    tk_bundle_free(b);

    /* A bundle whose manifest lists no copy of it: not read, and left out
     * when saving, with the reason in missing_sources. */
    char *hand = g_build_filename(tmp, "hand", NULL);
    copy_dump("vector_add/kernel_dump/" VA_DUMP_DIR "/add_kernel.ttir", hand,
              "k/add_kernel.ttir");
    write_file(hand, "manifest.json",
               "{\"format\": \"tkview-bundle\", \"format_version\": 1,"
               " \"kernels\": [{\"name\": \"k\", \"hash\": \"h\","
               " \"stages\": {\"ttir\": \"k/add_kernel.ttir\"}}]}",
               -1);
    b = tk_bundle_load(hand, NULL, d);
    g_assert_nonnull(b);
    f = tk_loctab_file(tk_bundle_loctab(b), secret, strlen(secret));
    g_assert_null(tk_bundle_resolve_source(b, f, d));
    g_assert_cmpuint(tk_test_count_diags_with(d, TK_DIAG_NOTE,
                                              "outside the bundle"), ==, 1);
    char *out2 = g_build_filename(tmp, "out2", NULL);
    g_assert_cmpint(tk_bundle_save(b, out2, d), ==, 0);
    tk_bundle_free(b);
    char *copies = g_build_filename(out2, "sources", NULL);
    g_assert_false(g_file_test(copies, G_FILE_TEST_EXISTS));
    char *mf = g_build_filename(out2, "manifest.json", NULL);
    char *text = NULL;
    g_assert_true(g_file_get_contents(mf, &text, NULL, NULL));
    g_assert_nonnull(strstr(text, "\"missing_sources\""));
    g_assert_nonnull(strstr(text, "found only outside the bundle"));
    g_free(text);

    g_free(mf);
    g_free(copies);
    g_free(out1);
    g_free(out2);
    g_free(hand);
    g_free(loose);
    g_free(secret);
    tk_diags_free(d);
    tk_test_remove_tree(tmp);
    g_free(tmp);
}

/* ---- paths that escape, bad input ------------------------------------- */

static void test_manifest_escapes(void)
{
    if (!tk_test_have_dumps())
        return;
    char *tmp = tk_test_make_tmp("bundle-XXXXXX");
    char *bundle = g_build_filename(tmp, "b", NULL);
    const char *ttir = "vector_add/kernel_dump/" VA_DUMP_DIR "/add_kernel.ttir";
    copy_dump(ttir, bundle, "good/add_kernel.ttir");
    copy_dump(ttir, tmp, "outside.ttir");
    write_file(tmp, "secret.py", "secret\n", -1);
    char *bad = g_build_filename(bundle, "bad", NULL);
    g_mkdir_with_parents(bad, 0755);
    g_free(bad);
    char *link = g_build_filename(bundle, "bad", "link.ttir", NULL);
    char *target = g_build_filename(tmp, "outside.ttir", NULL);
    g_assert_cmpint(symlink(target, link), ==, 0);
    char *secret = g_build_filename(tmp, "secret.py", NULL);
    char *linked = g_build_filename(bundle, "src", "linked.py", NULL);
    write_file(bundle, "src/inside.py", "# inside\n", -1);
    g_assert_cmpint(symlink(secret, linked), ==, 0);
    g_free(secret);
    g_free(linked);
    write_file(bundle, "manifest.json",
               "{\"format\": \"tkview-bundle\", \"format_version\": 1,"
               " \"future_key\": {\"ignored\": true},"
               " \"kernels\": ["
               "  {\"name\": \"good\", \"hash\": \"aaaa\","
               "   \"stages\": {\"ttir\": \"good/add_kernel.ttir\","
               "                \"amdgcn\": \"good/x.amdgcn\"},"
               "   \"passes\": []},"
               "  {\"name\": \"dotdot\", \"hash\": \"bbbb\","
               "   \"stages\": {\"ttir\": \"good/../../outside.ttir\"}},"
               "  {\"name\": \"absolute\", \"hash\": \"cccc\","
               "   \"stages\": {\"ttir\": \"/etc/passwd\"}},"
               "  {\"name\": \"symlink\", \"hash\": \"dddd\","
               "   \"stages\": {\"ttir\": \"bad/link.ttir\"}},"
               "  {\"hash\": \"no name\"}],"
               " \"sources\": ["
               "  {\"path\": \"/capture/secret.py\", \"file\": \"../secret.py\"}]}",
               -1);
    tk_diags *d = tk_diags_new();
    tk_bundle *b = tk_bundle_load(bundle, NULL, d);
    g_assert_nonnull(b);
    g_assert_cmpint(tk_bundle_input_kind(b), ==, TK_INPUT_BUNDLE);
    g_assert_cmpuint(tk_bundle_kernel_count(b), ==, 1);
    g_assert_cmpstr(tk_kernel_name(tk_bundle_kernel(b, 0)), ==, "good");
    g_assert_true(diags_mention(d, TK_DIAG_WARNING, "good/../../outside.ttir"));
    g_assert_true(diags_mention(d, TK_DIAG_WARNING, "/etc/passwd"));
    g_assert_true(diags_mention(d, TK_DIAG_WARNING, "symbolic link"));
    g_assert_true(diags_mention(d, TK_DIAG_WARNING, "../secret.py"));
    g_assert_true(diags_mention(d, TK_DIAG_WARNING, "kernels[4]"));
    /* Every warning names the manifest. */
    for (size_t i = 0; i < tk_diags_count(d); i++)
        if (tk_diags_get(d, i)->severity >= TK_DIAG_WARNING)
            g_assert_true(
                g_str_has_suffix(tk_diags_get(d, i)->file, "manifest.json"));
    /* The refused source copy is not used, nor a link in the bundle that
     * leads out of it. */
    g_assert_null(resolve(b, "/capture/secret.py", NULL));
    g_assert_null(resolve(b, "/capture/src/linked.py", NULL));
    /* A file of the bundle is found by the tail of its path. */
    const char *got = resolve(b, "/capture/src/inside.py", NULL);
    g_assert_nonnull(got);
    g_assert_true(g_str_has_suffix(got, "/b/src/inside.py"));
    tk_bundle_free(b);
    tk_diags_free(d);
    g_free(link);
    g_free(target);
    g_free(bundle);
    tk_test_remove_tree(tmp);
    g_free(tmp);
}

static void test_bad_input(void)
{
    if (!tk_test_have_dumps())
        return;
    tk_diags *d = tk_diags_new();
    char *tmp = tk_test_make_tmp("bundle-XXXXXX");
    const char *ttir = "vector_add/kernel_dump/" VA_DUMP_DIR "/add_kernel.ttir";

    /* Nothing there. */
    char *missing = g_build_filename(tmp, "missing", NULL);
    g_assert_null(tk_bundle_load(missing, NULL, d));
    g_assert_true(diags_mention(d, TK_DIAG_ERROR, "missing"));
    char *empty = g_build_filename(tmp, "empty", NULL);
    g_mkdir(empty, 0755);
    g_assert_null(tk_bundle_load(empty, NULL, d));
    g_assert_null(tk_bundle_load("", NULL, d));

    /* A manifest that is not JSON: the kernel folders are still found. */
    char *garbage = g_build_filename(tmp, "garbage", NULL);
    copy_dump(ttir, garbage, "HASH1/add_kernel.ttir");
    write_file(garbage, "manifest.json", "{\"format\": tkview", -1);
    tk_bundle *b = tk_bundle_load(garbage, NULL, d);
    g_assert_nonnull(b);
    g_assert_cmpint(tk_bundle_input_kind(b), ==, TK_INPUT_KERNEL_DIRS);
    g_assert_cmpuint(tk_bundle_kernel_count(b), ==, 1);
    g_assert_true(diags_mention(d, TK_DIAG_WARNING, "garbage/manifest.json"));
    tk_bundle_free(b);

    /* Nested a million deep (the JSON parser recurses): refused, no crash. */
    GString *deep = g_string_new("{\"format\": \"tkview-bundle\", \"x\": ");
    for (int i = 0; i < 1000000; i++)
        g_string_append_c(deep, '[');
    write_file(garbage, "manifest.json", deep->str, (gssize)deep->len);
    g_string_free(deep, TRUE);
    size_t before = tk_diags_count(d);
    b = tk_bundle_load(garbage, NULL, d);
    g_assert_nonnull(b);
    g_assert_cmpuint(tk_diags_count(d), >, before);
    g_assert_true(diags_mention(d, TK_DIAG_WARNING, "nested"));
    tk_bundle_free(b);

    /* A newer format_version, wrong types everywhere. */
    write_file(garbage, "manifest.json",
               "{\"format\": \"tkview-bundle\", \"format_version\": 5}", -1);
    b = tk_bundle_load(garbage, NULL, d);
    g_assert_nonnull(b);
    g_assert_true(diags_mention(d, TK_DIAG_WARNING, "format_version 5"));
    tk_bundle_free(b);
    write_file(garbage, "manifest.json",
               "{\"format\": \"tkview-bundle\", \"format_version\": 1,"
               " \"compiler\": 3, \"command\": \"python x.py\","
               " \"complete\": \"yes\", \"sources\": {},"
               " \"kernels\": [1, [], {\"name\": 2, \"hash\": {}},"
               "   {\"name\": \"k\", \"hash\": \"h\", \"stages\": [],"
               "    \"metadata\": {\"num_warps\": \"4\", \"registers\": -3}}]}",
               -1);
    b = tk_bundle_load(garbage, NULL, d);
    g_assert_nonnull(b);
    g_assert_cmpint(tk_bundle_input_kind(b), ==, TK_INPUT_BUNDLE);
    g_assert_cmpuint(tk_bundle_kernel_count(b), ==, 0);
    g_assert_null(tk_bundle_compiler(b));
    g_assert_cmpint(tk_bundle_complete(b), ==, -1);
    tk_bundle_free(b);

    /* A binary "PTX" beside a good TTIR: the TTIR is kept, the PTX named. */
    char *loose = g_build_filename(tmp, "loose", NULL);
    copy_dump(ttir, loose, "add_kernel.ttir");
    write_file(loose, "add_kernel.ptx", "\x7f" "ELF\0\0\0binary", 12);
    /* A cubin that is not an ELF: registers unknown, said so. */
    write_file(loose, "add_kernel.cubin", "not an elf", -1);
    b = tk_bundle_load(loose, NULL, d);
    g_assert_nonnull(b);
    g_assert_cmpuint(tk_bundle_kernel_count(b), ==, 1);
    const tk_kernel *k = tk_bundle_kernel(b, 0);
    g_assert_nonnull(tk_kernel_stage(k, TK_STAGE_TTIR));
    g_assert_null(tk_kernel_stage(k, TK_STAGE_PTX));
    g_assert_true(diags_mention(d, TK_DIAG_ERROR, "add_kernel.ptx"));
    g_assert_true(diags_mention(d, TK_DIAG_WARNING, "add_kernel.cubin"));
    g_assert_cmpint(tk_kernel_metadata(k)->registers, ==, -1);
    tk_bundle_free(b);

    /* A bad NAME.json: the kernel stays, with the folder name as hash. */
    write_file(loose, "add_kernel.json", "[1, 2", -1);
    b = tk_bundle_load(loose, NULL, d);
    g_assert_nonnull(b);
    g_assert_cmpint(tk_kernel_metadata(tk_bundle_kernel(b, 0))->num_warps, ==,
                    -1);
    g_assert_true(diags_mention(d, TK_DIAG_WARNING, "add_kernel.json"));
    tk_bundle_free(b);

    /* Only the binary file: nothing usable. */
    char *binonly = g_build_filename(tmp, "binonly", NULL);
    write_file(binonly, "k.ptx", "\0\0\0", 3);
    g_assert_null(tk_bundle_load(binonly, NULL, d));

    g_free(missing);
    g_free(empty);
    g_free(garbage);
    g_free(loose);
    g_free(binonly);
    tk_test_remove_tree(tmp);
    g_free(tmp);
    tk_diags_free(d);
}

/* The cubin parser on the real cubin, cut short, and with bytes flipped. */
static void test_cubin(void)
{
    if (!tk_test_have_dumps())
        return;
    char *path = tk_test_dump_path("vector_add/kernel_dump/" VA_DUMP_DIR
                                   "/add_kernel.cubin");
    char *data = NULL;
    gsize len = 0;
    g_assert_true(g_file_get_contents(path, &data, &len, NULL));
    int64_t regs, local;
    const char *why = NULL;
    g_assert_cmpint(bundle_cubin_resources((unsigned char *)data, len,
                                           "add_kernel", &regs, &local, &why),
                    ==, 0);
    g_assert_cmpint(regs, ==, 26);
    g_assert_cmpint(local, ==, 0);
    /* Another name: the one function's count still stands. */
    bundle_cubin_resources((unsigned char *)data, len, "renamed", &regs, &local,
                           &why);
    g_assert_cmpint(regs, ==, 26);
    for (gsize cut = 0; cut < len; cut += 97)
        bundle_cubin_resources((unsigned char *)data, cut, "add_kernel", &regs,
                               &local, &why);
    GRand *r = g_rand_new_with_seed(7);
    unsigned char *copy = g_malloc(len);
    for (int i = 0; i < 3000; i++) {
        memcpy(copy, data, len);
        for (int j = 0; j < 8; j++)
            copy[g_rand_int_range(r, 0, (gint32)len)] =
                (unsigned char)g_rand_int(r);
        bundle_cubin_resources(copy, len, "add_kernel", &regs, &local, &why);
    }
    g_free(copy);
    g_rand_free(r);
    g_free(data);
    g_free(path);
}

static void test_safe_names(void)
{
    static const char *const inputs[] = {
        "../../etc/passwd", "/abs/path", "..", ".", "", ".hidden",
        "a/b\\c:d*e", "\xff\xfe", "ok_name-1.2+3"};
    for (size_t i = 0; i < G_N_ELEMENTS(inputs); i++) {
        char *s = bundle_path_safe_name(inputs[i], 8);
        g_assert_cmpuint(strlen(s), >, 0);
        g_assert_cmpuint(strlen(s), <=, 8);
        g_assert_null(strchr(s, '/'));
        g_assert_true(s[0] != '.');
        for (const char *p = s; *p; p++)
            g_assert_true(g_ascii_isalnum(*p) || strchr("._-+", *p));
        g_free(s);
    }
    char *s = bundle_path_safe_name("ok_name-1.2+3", 80);
    g_assert_cmpstr(s, ==, "ok_name-1.2+3");
    g_free(s);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/bundle/vector_add", test_vector_add);
    g_test_add_func("/bundle/compiled_block", test_compiled_block);
    g_test_add_func("/bundle/autotuned", test_autotuned);
    g_test_add_func("/bundle/gluon", test_gluon);
    g_test_add_func("/bundle/cache_alone", test_cache_alone);
    g_test_add_func("/bundle/kernel_dump_alone", test_kernel_dump_alone);
    g_test_add_func("/bundle/one_hash_dir", test_one_hash_dir);
    g_test_add_func("/bundle/loose_files", test_loose_files);
    g_test_add_func("/bundle/single_file", test_single_file);
    g_test_add_func("/bundle/find_kernel", test_find_kernel);
    g_test_add_func("/bundle/main_source/captures", test_main_source_captures);
    g_test_add_func("/bundle/main_source/library_heavy",
                    test_main_source_library_heavy);
    g_test_add_func("/bundle/sources", test_sources);
    g_test_add_func("/bundle/sources_ambiguous", test_sources_ambiguous);
    g_test_add_func("/bundle/save_roundtrip", test_save_roundtrip);
    g_test_add_func("/bundle/save_compiled_block", test_save_compiled_block);
    g_test_add_func("/bundle/save_hostile_names", test_save_hostile_names);
    g_test_add_func("/bundle/save_in_place_sources",
                    test_save_in_place_sources);
    g_test_add_func("/bundle/manifest_escapes", test_manifest_escapes);
    g_test_add_func("/bundle/bad_input", test_bad_input);
    g_test_add_func("/bundle/cubin", test_cubin);
    g_test_add_func("/bundle/safe_names", test_safe_names);
    return g_test_run();
}
