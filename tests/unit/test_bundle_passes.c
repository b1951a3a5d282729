/* test_bundle_passes.c - the pass dumps that come with a loaded input: found
 * by content in capture folders (renamed, moved one folder down), a pass
 * dump file given as the input, each kernel's sequence, bundles carrying
 * each kernel's compressed slice, and damaged input.
 *
 * Expected counts were read from the dumps with grep:
 *   grep -c 'IR Dump' vector_add/mlir_passes.txt      73
 *   grep -c 'IR Dump' vector_add/stderr.txt           193
 *   grep -c 'IR Dump' compiled_block/mlir_passes.txt  1112
 *   grep -c 'IR Dump' compiled_block/stderr.txt       3124
 *   grep -c 'IR Dump' autotuned_matmul/mlir_passes.txt 213
 *       ("IR Dump Before Inliner" at lines 1, 48010, 95287: 3 x 71)
 *   grep -c 'IR Dump' autotuned_matmul/stderr.txt     627
 *   grep -c 'IR Dump' gluon_copy/mlir_passes.txt      29
 *   grep -c 'IR Dump' gluon_copy/stderr.txt           191
 * and, for the numbers per kernel, with grep -n of the "IR Dump Before
 * Inliner" lines (one per compile) as docs/passes.md tells.
 */
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "passfiles/internal.h"
#include "tk_test.h"
#include "tkdump/tk_bundle_load.h"
#include "tkdump/tk_bundle_passes.h"
#include "tkdump/tk_bundle_write.h"
#include "tkdump/tk_passes.h"
#include "tkdump/tk_timeline.h"

/* ---- helpers ------------------------------------------------------------ */

static tk_bundle *load_path(const char *path, tk_diags *d)
{
    tk_bundle *b = tk_bundle_load(path, NULL, d);
    if (!b) {
        tk_test_print_diags(d);
        g_error("cannot load %s", path);
    }
    return b;
}

static tk_bundle *load_dump(const char *rel, tk_diags *d)
{
    char *path = tk_test_dump_path(rel);
    tk_bundle *b = load_path(path, d);
    g_free(path);
    return b;
}

static void write_file(const char *path, const char *text, gssize len)
{
    char *parent = g_path_get_dirname(path);
    g_mkdir_with_parents(parent, 0755);
    g_assert_true(g_file_set_contents(path, text, len, NULL));
    g_free(parent);
}

static char *read_file(const char *path, gsize *len)
{
    char *text = NULL;
    g_assert_true(g_file_get_contents(path, &text, len, NULL));
    return text;
}

/* Copies the file or folder FROM to TO (files and folders only). */
static void copy_tree(const char *from, const char *to)
{
    if (g_file_test(from, G_FILE_TEST_IS_DIR)) {
        g_mkdir_with_parents(to, 0755);
        GDir *d = g_dir_open(from, 0, NULL);
        g_assert_nonnull(d);
        for (const char *e; (e = g_dir_read_name(d));) {
            char *a = g_build_filename(from, e, NULL);
            char *b = g_build_filename(to, e, NULL);
            copy_tree(a, b);
            g_free(a);
            g_free(b);
        }
        g_dir_close(d);
        return;
    }
    gsize len = 0;
    char *text = read_file(from, &len);
    write_file(to, text, (gssize)len);
    g_free(text);
}

/* Copies REL of the shared dumps to DIR/NAME; COPIES times one after the
 * other. */
static void copy_dump_n(const char *rel, const char *dir, const char *name,
                        int copies)
{
    char *from = tk_test_dump_path(rel);
    gsize len = 0;
    char *text = read_file(from, &len);
    GString *all = g_string_sized_new(len * (gsize)copies);
    for (int i = 0; i < copies; i++)
        g_string_append_len(all, text, (gssize)len);
    char *to = g_build_filename(dir, name, NULL);
    write_file(to, all->str, (gssize)all->len);
    g_string_free(all, TRUE);
    g_free(to);
    g_free(text);
    g_free(from);
}

/* Whether a diagnostic of at least SEV names FILE_PART in its file and
 * MSG_PART in its message. */
/* Whether PATH is a refs file: a slice stored as pieces of the bundle's
 * dump pool (docs/bundle.md, "Shared dump text"). */
static gboolean is_refs_file(const char *path)
{
    char *text = read_file(path, NULL);
    gboolean yes = text && g_str_has_prefix(text, "tkview-dump-refs 2\npool ");
    g_free(text);
    return yes;
}

static gboolean diag_about(const tk_diags *d, tk_diag_severity sev,
                           const char *file_part, const char *msg_part)
{
    for (size_t i = 0; i < tk_diags_count(d); i++) {
        const tk_diag *x = tk_diags_get(d, i);
        if (x->severity >= sev && strstr(x->file, file_part) &&
            strstr(x->message, msg_part))
            return TRUE;
    }
    return FALSE;
}

/* The index of the pass file whose path ends with SUFFIX, or fails. */
static size_t pass_file(tk_bundle *b, const char *suffix)
{
    for (size_t i = 0; i < tk_bundle_pass_file_count(b, NULL); i++)
        if (g_str_has_suffix(tk_passes_path(tk_bundle_pass_file(b, i)),
                             suffix))
            return i;
    g_error("no pass file ending with %s", suffix);
    return 0;
}

/* KERNEL's sequence in pass file I, which must exist. */
static const tk_pass_seq *seq_of(tk_bundle *b, const tk_kernel *k, size_t i)
{
    ptrdiff_t s = tk_bundle_kernel_pass_seq(b, k, i);
    if (s < 0)
        g_error("kernel %s %s has no sequence in %s", tk_kernel_name(k),
                tk_kernel_hash(k), tk_passes_path(tk_bundle_pass_file(b, i)));
    return tk_passes_seq(tk_bundle_pass_file(b, i), (size_t)s);
}

/* Every kernel of B has one sequence in pass file I, named like it, and no
 * two kernels share one.  Returns the number of dumps they hold in all. */
static size_t check_distinct(tk_bundle *b, size_t i)
{
    const tk_passes *p = tk_bundle_pass_file(b, i);
    gboolean *taken = g_new0(gboolean, tk_passes_seq_count(p));
    size_t total = 0;
    for (size_t k = 0; k < tk_bundle_kernel_count(b); k++) {
        const tk_kernel *kn = tk_bundle_kernel(b, k);
        ptrdiff_t s = tk_bundle_kernel_pass_seq(b, kn, i);
        if (s < 0)
            g_error("kernel %zu (%s) has no sequence in %s", k,
                    tk_kernel_name(kn), tk_passes_path(p));
        g_assert_false(taken[s]);
        taken[s] = TRUE;
        g_assert_cmpstr(tk_passes_seq(p, (size_t)s)->kernel, ==,
                        tk_kernel_name(kn));
        total += tk_passes_seq(p, (size_t)s)->n_dumps;
    }
    g_free(taken);
    return total;
}

/* ---- captures ------------------------------------------------------------ */

static void test_vector_add(void)
{
    if (!tk_test_have_dumps())
        return;
    tk_diags *d = tk_diags_new();
    tk_bundle *b = load_dump("vector_add", d);
    /* Found when loading (mlir_passes.txt and stderr.txt among run.txt,
     * stdout.txt, src/vector_add.py), indexed only when asked. */
    g_assert_nonnull(b->pass_found);
    g_assert_cmpuint(b->pass_found->len, ==, 2);
    g_assert_null(b->pass_files);
    g_assert_cmpuint(tk_bundle_pass_file_count(b, d), ==, 2);
    size_t mlir = pass_file(b, "/vector_add/mlir_passes.txt");
    size_t llvm = pass_file(b, "/vector_add/stderr.txt");
    g_assert_cmpuint(tk_passes_count(tk_bundle_pass_file(b, mlir)), ==, 73);
    g_assert_cmpuint(tk_passes_count(tk_bundle_pass_file(b, llvm)), ==, 193);
    const tk_kernel *k = tk_bundle_kernel(b, 0);
    g_assert_true(tk_kernel_has_stages(k)); /* cache/.../add_kernel.ttir ... */
    /* One compile: every dump of each file is add_kernel's. */
    g_assert_cmpuint(seq_of(b, k, mlir)->n_dumps, ==, 73);
    g_assert_cmpuint(seq_of(b, k, llvm)->n_dumps, ==, 193);
    g_assert_cmpint(tk_bundle_kernel_pass_seq(b, k, 2), ==, -1);
    g_assert_null(tk_bundle_pass_file(b, 2));
    g_assert_cmpuint(tk_diags_count_at_least(d, TK_DIAG_WARNING), ==, 0);
    tk_bundle_free(b);
    tk_diags_free(d);
}

static void test_compiled_block(void)
{
    if (!tk_test_have_dumps())
        return;
    tk_diags *d = tk_diags_new();
    tk_bundle *b = load_dump("compiled_block", d);
    g_assert_cmpuint(tk_bundle_kernel_count(b), ==, 16);
    g_assert_cmpuint(tk_bundle_pass_file_count(b, d), ==, 2);
    /* 16 compiles in each file (16 "IR Dump Before Inliner" headers; 16
     * "nvptx-asm-printer" machine dumps), one per kernel: the dumps of all
     * kernels together are all the dumps. */
    size_t mlir = pass_file(b, "/compiled_block/mlir_passes.txt");
    size_t llvm = pass_file(b, "/compiled_block/stderr.txt");
    g_assert_cmpuint(check_distinct(b, mlir), ==, 1112);
    g_assert_cmpuint(check_distinct(b, llvm), ==, 3124);
    /* triton_poi_fused_gelu_view_7 was compiled for 8 warps (18db3c25...)
     * and for 4 (8d1df8fd...): mlir_passes.txt line 35077 starts the
     * 8-warp compile's TTGIR ("ttg.num-warps" = 8), so each kernel has the
     * compile of its own warps. */
    const tk_kernel *g8 =
        tk_bundle_find_kernel(b, "triton_poi_fused_gelu_view_7:18db", NULL);
    const tk_kernel *g4 =
        tk_bundle_find_kernel(b, "triton_poi_fused_gelu_view_7:8d1d", NULL);
    g_assert_nonnull(g8);
    g_assert_nonnull(g4);
    g_assert_nonnull(strstr(seq_of(b, g8, mlir)->module_attrs,
                            "\"ttg.num-warps\" = 8 "));
    g_assert_nonnull(strstr(seq_of(b, g4, mlir)->module_attrs,
                            "\"ttg.num-warps\" = 4 "));
    g_assert_cmpuint(tk_diags_count_at_least(d, TK_DIAG_WARNING), ==, 0);
    tk_bundle_free(b);
    tk_diags_free(d);
}

static void test_autotuned_and_gluon(void)
{
    if (!tk_test_have_dumps())
        return;
    tk_diags *d = tk_diags_new();
    tk_bundle *b = load_dump("autotuned_matmul", d);
    g_assert_cmpuint(tk_bundle_kernel_count(b), ==, 3);
    g_assert_cmpuint(tk_bundle_pass_file_count(b, d), ==, 2);
    size_t mlir = pass_file(b, "/autotuned_matmul/mlir_passes.txt");
    size_t llvm = pass_file(b, "/autotuned_matmul/stderr.txt");
    g_assert_cmpuint(check_distinct(b, mlir), ==, 213);
    g_assert_cmpuint(check_distinct(b, llvm), ==, 627);
    for (size_t i = 0; i < 3; i++)
        g_assert_cmpuint(seq_of(b, tk_bundle_kernel(b, i), mlir)->n_dumps,
                         ==, 71);
    /* The 8-warp config (mm_kernel.json "hash": "448532f3...", first by
     * hash) is the first compile, at line 1. */
    const tk_kernel *k8 = tk_bundle_kernel(b, 0);
    g_assert_cmpint(tk_kernel_metadata(k8)->num_warps, ==, 8);
    g_assert_cmpint(tk_bundle_kernel_pass_seq(b, k8, mlir), ==, 0);
    g_assert_cmpuint(tk_diags_count_at_least(d, TK_DIAG_WARNING), ==, 0);
    tk_bundle_free(b);

    b = load_dump("gluon_copy", d);
    g_assert_cmpuint(tk_bundle_pass_file_count(b, d), ==, 2);
    const tk_kernel *k = tk_bundle_kernel(b, 0);
    g_assert_cmpstr(tk_kernel_name(k), ==, "copy_scale_kernel");
    g_assert_cmpuint(
        seq_of(b, k, pass_file(b, "/gluon_copy/mlir_passes.txt"))->n_dumps,
        ==, 29);
    g_assert_cmpuint(
        seq_of(b, k, pass_file(b, "/gluon_copy/stderr.txt"))->n_dumps, ==,
        191);
    tk_bundle_free(b);
    tk_diags_free(d);
}

/* Users rename files and move them: found by content, one folder down.  A
 * big text file that holds no dump header in its head is not indexed, and
 * nothing two folders down is looked at. */
static void test_renamed_and_moved(void)
{
    if (!tk_test_have_dumps())
        return;
    char *dir = tk_test_make_tmp("passes-XXXXXX");
    for (int i = 0; i < 2; i++) {
        const char *sub = i ? "cache" : "kernel_dump";
        char *rel = g_strconcat("vector_add/", sub, NULL);
        char *from = tk_test_dump_path(rel);
        char *to = g_build_filename(dir, sub, NULL);
        copy_tree(from, to);
        g_free(rel);
        g_free(from);
        g_free(to);
    }
    copy_dump_n("vector_add/mlir_passes.txt", dir, "logs/a.log", 1);
    copy_dump_n("vector_add/stderr.txt", dir, "logs/b.txt", 1);
    copy_dump_n("gluon_copy/mlir_passes.txt", dir, "logs/deeper/c.txt", 1);
    /* A FIFO beside them is not waited on. */
    char *fifo = g_build_filename(dir, "logs", "pipe", NULL);
    g_assert_cmpint(mkfifo(fifo, 0644), ==, 0);
    g_free(fifo);
    /* 16 MB of program output, then a real dump header past the 256 KiB
     * that are looked at. */
    GString *big = g_string_new(NULL);
    for (int i = 0; big->len < (16u << 20); i++)
        g_string_append_printf(big, "step %d: loss 0.%06d\n", i, i % 999983);
    g_string_append(big, "// -----// IR Dump Before Canonicalizer "
                         "(canonicalize) ('builtin.module' operation) "
                         "//----- //\nmodule {\n}\n");
    char *bigpath = g_build_filename(dir, "train.log", NULL);
    write_file(bigpath, big->str, (gssize)big->len);
    g_string_free(big, TRUE);

    tk_diags *d = tk_diags_new();
    gint64 t0 = g_get_monotonic_time();
    tk_bundle *b = load_path(dir, d);
    gint64 t1 = g_get_monotonic_time();
    g_test_message("loaded the folder in %.3f s", (double)(t1 - t0) / 1e6);
    g_assert_cmpint(tk_bundle_input_kind(b), ==, TK_INPUT_CAPTURE);
    g_assert_cmpuint(tk_bundle_pass_file_count(b, d), ==, 2);
    size_t a = pass_file(b, "/logs/a.log");
    size_t bb = pass_file(b, "/logs/b.txt");
    const tk_kernel *k = tk_bundle_kernel(b, 0);
    g_assert_cmpuint(seq_of(b, k, a)->n_dumps, ==, 73);
    g_assert_cmpuint(seq_of(b, k, bb)->n_dumps, ==, 193);
    tk_bundle_free(b);

    /* The same big file at the top of a folder of loose stage files: still
     * not a pass dump file. */
    tk_diags_free(d);
    d = tk_diags_new();
    char *loose = tk_test_make_tmp("passes-XXXXXX");
    char *kd = tk_test_find_dump("vector_add/kernel_dump", ".ttgir");
    char *ttgir = g_build_filename(loose, "add_kernel.ttgir", NULL);
    copy_tree(kd, ttgir);
    char *big2 = g_build_filename(loose, "train.log", NULL);
    g_assert_cmpint(rename(bigpath, big2), ==, 0);
    b = load_path(loose, d);
    g_assert_cmpint(tk_bundle_input_kind(b), ==, TK_INPUT_FILES);
    g_assert_cmpuint(tk_bundle_pass_file_count(b, d), ==, 0);
    g_assert_cmpint(tk_bundle_kernel_pass_seq(b, tk_bundle_kernel(b, 0), 0),
                    ==, -1);
    tk_bundle_free(b);
    tk_diags_free(d);
    tk_test_remove_tree(loose);
    tk_test_remove_tree(dir);
    g_free(big2);
    g_free(ttgir);
    g_free(kd);
    g_free(loose);
    g_free(bigpath);
    g_free(dir);
}

/* A kernel folder of vector_add with pass files that cannot say which
 * compile is add_kernel's: the same compile twice (a tie), and another
 * program's dumps. */
static void test_tie_and_strangers(void)
{
    if (!tk_test_have_dumps())
        return;
    char *dir = tk_test_make_tmp("passes-XXXXXX");
    char *from = tk_test_dump_path("vector_add/cache");
    char *to = g_build_filename(dir, "cache", NULL);
    copy_tree(from, to);
    copy_dump_n("vector_add/mlir_passes.txt", dir, "twice.txt", 2);
    copy_dump_n("gluon_copy/mlir_passes.txt", dir, "gluon.txt", 1);
    tk_diags *d = tk_diags_new();
    tk_bundle *b = load_path(dir, d);
    g_assert_cmpuint(tk_bundle_kernel_count(b), ==, 1);
    g_assert_cmpuint(tk_bundle_pass_file_count(b, d), ==, 2);
    size_t twice = pass_file(b, "/twice.txt");
    size_t gluon = pass_file(b, "/gluon.txt");
    /* The second copy starts at TTIR again: two compiles of 73 dumps that
     * match add_kernel equally, and are identical.  Never a guess, never
     * nothing: the dumps they share are shown, with a note that says so. */
    const tk_kernel *k = tk_bundle_kernel(b, 0);
    ptrdiff_t s = tk_bundle_kernel_pass_seq(b, k, twice);
    g_assert_cmpint(s, >=, 2); /* a third sequence, after the file's two */
    const tk_passes *tp = tk_bundle_pass_file(b, twice);
    g_assert_cmpuint(tk_passes_seq_count(tp), ==, 3);
    const tk_pass_seq *q = tk_passes_seq(tp, (size_t)s);
    g_assert_cmpuint(q->shared_by, ==, 2);
    g_assert_cmpuint(q->n_dumps, ==, 73);
    g_assert_cmpuint(q->full_dumps, ==, 73);
    g_assert_cmpuint(tk_passes_seq_common(tp, 0, 1), ==, 73);
    g_assert_true(diag_about(d, TK_DIAG_NOTE, "twice.txt",
                             "have identical dumps; they are shown"));
    g_assert_false(diag_about(d, TK_DIAG_WARNING, "twice.txt",
                              "match it equally well"));
    /* copy_scale_kernel is no kernel here: a note names the file. */
    g_assert_cmpint(tk_bundle_kernel_pass_seq(b, k, gluon), ==, -1);
    g_assert_true(diag_about(d, TK_DIAG_NOTE, "gluon.txt",
                             "is one of the kernels loaded here"));
    tk_bundle_free(b);
    tk_diags_free(d);
    tk_test_remove_tree(dir);
    g_free(from);
    g_free(to);
    g_free(dir);
}

/* ---- a pass dump file as the input ------------------------------------------ */

static gboolean is_hex16(const char *s)
{
    if (strlen(s) < 16)
        return FALSE;
    for (int i = 0; i < 16; i++)
        if (!g_ascii_isxdigit(s[i]))
            return FALSE;
    return TRUE;
}

static void test_direct_file(void)
{
    if (!tk_test_have_dumps())
        return;
    tk_diags *d = tk_diags_new();
    tk_bundle *b = load_dump("autotuned_matmul/mlir_passes.txt", d);
    /* Three compiles of mm_kernel, each a kernel with no stage, each with
     * its own sequence of 71 dumps. */
    g_assert_cmpuint(tk_bundle_kernel_count(b), ==, 3);
    g_assert_cmpuint(tk_bundle_pass_file_count(b, d), ==, 1);
    gboolean seen[3] = {FALSE, FALSE, FALSE};
    char *hashes[3];
    for (size_t i = 0; i < 3; i++) {
        const tk_kernel *k = tk_bundle_kernel(b, i);
        g_assert_cmpstr(tk_kernel_name(k), ==, "mm_kernel");
        for (int s = 0; s < TK_STAGE_COUNT; s++)
            g_assert_null(tk_kernel_stage(k, (tk_stage_kind)s));
        g_assert_true(is_hex16(tk_kernel_hash(k)));
        ptrdiff_t s = tk_bundle_kernel_pass_seq(b, k, 0);
        g_assert_cmpint(s, >=, 0);
        g_assert_cmpint(s, <, 3);
        g_assert_false(seen[s]);
        seen[s] = TRUE;
        g_assert_cmpuint(seq_of(b, k, 0)->n_dumps, ==, 71);
        hashes[i] = g_strdup(tk_kernel_hash(k));
        /* The origin says where the compile starts: line 1, 48010 or
         * 95287. */
        const char *o = tk_kernel_origin(k);
        g_assert_true(g_str_has_suffix(o, ", line 1") ||
                      g_str_has_suffix(o, ", line 48010") ||
                      g_str_has_suffix(o, ", line 95287"));
    }
    g_assert_cmpstr(hashes[0], !=, hashes[1]);
    g_assert_cmpstr(hashes[1], !=, hashes[2]);
    tk_bundle_free(b);
    /* The same file gives the same names on every load. */
    b = load_dump("autotuned_matmul/mlir_passes.txt", d);
    for (size_t i = 0; i < 3; i++) {
        g_assert_cmpstr(tk_kernel_hash(tk_bundle_kernel(b, i)), ==,
                        hashes[i]);
        g_free(hashes[i]);
    }
    tk_bundle_free(b);

    /* The same compile twice: two kernels, the later one's name with -2. */
    char *dir = tk_test_make_tmp("passes-XXXXXX");
    copy_dump_n("vector_add/mlir_passes.txt", dir, "twice.txt", 2);
    char *twice = g_build_filename(dir, "twice.txt", NULL);
    b = load_path(twice, d);
    g_assert_cmpuint(tk_bundle_kernel_count(b), ==, 2);
    const char *h0 = tk_kernel_hash(tk_bundle_kernel(b, 0));
    const char *h1 = tk_kernel_hash(tk_bundle_kernel(b, 1));
    g_assert_cmpuint(strlen(h0), ==, 16);
    char *want = g_strconcat(h0, "-2", NULL);
    g_assert_cmpstr(h1, ==, want);
    g_free(want);
    g_assert_cmpint(tk_bundle_kernel_pass_seq(b, tk_bundle_kernel(b, 0), 0),
                    !=,
                    tk_bundle_kernel_pass_seq(b, tk_bundle_kernel(b, 1), 0));
    tk_bundle_free(b);

    /* A file of dumps that name no kernel is a pass dump file without
     * kernels: an error, not a crash. */
    char *noname = g_build_filename(dir, "noname.txt", NULL);
    write_file(noname,
               "// -----// IR Dump Before CSE (cse) ('builtin.module' "
               "operation) //----- //\nmodule {\n}\n",
               -1);
    tk_diags *e = tk_diags_new();
    g_assert_null(tk_bundle_load(noname, NULL, e));
    g_assert_true(diag_about(e, TK_DIAG_ERROR, "noname.txt",
                             "no dump in it defines a kernel"));
    tk_diags_free(e);
    tk_test_remove_tree(dir);
    g_free(noname);
    g_free(twice);
    g_free(dir);
    tk_diags_free(d);
}

/* ---- a folder of pass dump files alone ------------------------------------ */

/* DIR/NAME as a symbolic link to REL of the shared dumps (the stderr files
 * are 137 MB: not copied). */
static void link_dump(const char *rel, const char *dir, const char *name)
{
    char *from = tk_test_dump_path(rel);
    char *to = g_build_filename(dir, name, NULL);
    g_assert_cmpint(symlink(from, to), ==, 0);
    g_free(to);
    g_free(from);
}

/* The timelines of KA in A and KB in B list the same passes with the same
 * effects. Returns their length. */
static size_t assert_same_timeline(tk_bundle *a, const tk_kernel *ka,
                                   tk_bundle *b, const tk_kernel *kb)
{
    tk_diags *d = tk_diags_new();
    tk_timeline *ta = tk_timeline_of_kernel(a, ka, NULL, d);
    tk_timeline *tb = tk_timeline_of_kernel(b, kb, NULL, d);
    g_assert_nonnull(ta);
    g_assert_nonnull(tb);
    size_t n = tk_timeline_count(ta);
    g_assert_cmpuint(n, ==, tk_timeline_count(tb));
    for (size_t i = 0; i < n; i++) {
        const tk_timeline_entry *x = tk_timeline_get(ta, i);
        const tk_timeline_entry *y = tk_timeline_get(tb, i);
        g_assert_cmpstr(x->pass, ==, y->pass);
        g_assert_cmpstr(x->scope, ==, y->scope);
        g_assert_cmpint(x->level, ==, y->level);
        g_assert_cmpint(x->effect, ==, y->effect);
        g_assert_cmpuint(x->added, ==, y->added);
        g_assert_cmpuint(x->removed, ==, y->removed);
        g_assert_cmpuint(x->n_substeps, ==, y->n_substeps);
    }
    tk_timeline_free(ta);
    tk_timeline_free(tb);
    tk_diags_free(d);
    return n;
}

static void test_pass_folder(void)
{
    if (!tk_test_have_dumps())
        return;
    /* What a user copies from another machine: the MLIR_DUMP_PATH file and
     * the stderr, nothing else. */
    char *dir = tk_test_make_tmp("passes-XXXXXX");
    copy_dump_n("vector_add/mlir_passes.txt", dir, "mlir_passes.txt", 1);
    copy_dump_n("vector_add/stderr.txt", dir, "stderr.txt", 1);
    tk_diags *d = tk_diags_new();
    tk_bundle *b = load_path(dir, d);
    tk_test_print_diags(d);
    g_assert_cmpuint(tk_diags_count_at_least(d, TK_DIAG_WARNING), ==, 0);
    g_assert_cmpint(tk_bundle_input_kind(b), ==, TK_INPUT_FILES);
    /* One compile, its two halves one kernel. */
    g_assert_cmpuint(tk_bundle_kernel_count(b), ==, 1);
    const tk_kernel *k = tk_bundle_kernel(b, 0);
    g_assert_cmpstr(tk_kernel_name(k), ==, "add_kernel");
    g_assert_true(is_hex16(tk_kernel_hash(k)));
    g_assert_false(tk_kernel_has_stages(k));
    g_assert_nonnull(strstr(tk_kernel_stage_missing(k, TK_STAGE_PTX),
                            "no final stages were found"));
    g_assert_nonnull(strstr(tk_kernel_origin(k), "mlir_passes.txt, line 1"));
    g_assert_nonnull(strstr(tk_kernel_origin(k), "stderr.txt, line 1"));
    g_assert_cmpuint(tk_bundle_pass_file_count(b, d), ==, 2);
    size_t m = pass_file(b, "/mlir_passes.txt");
    size_t l = pass_file(b, "/stderr.txt");
    /* grep -c 'IR Dump': 73 and 193. */
    g_assert_cmpuint(seq_of(b, k, m)->n_dumps, ==, 73);
    g_assert_cmpuint(seq_of(b, k, l)->n_dumps, ==, 193);
    /* The timeline of the capture's add_kernel: 73 MLIR passes, then the
     * 193 LLVM dumps less the 2 SoftwarePipeliner ones (sub-steps). */
    tk_bundle *c = load_dump("vector_add", d);
    g_assert_cmpuint(assert_same_timeline(b, k, c, tk_bundle_kernel(c, 0)),
                     ==, 73 + 191);

    /* Saved as a bundle and loaded again: the same. */
    char *outdir = tk_test_make_tmp("passes-XXXXXX");
    char *out = g_build_filename(outdir, "b", NULL);
    g_assert_cmpint(tk_bundle_save(b, out, d), ==, 0);
    tk_bundle *s = load_path(out, d);
    g_assert_cmpuint(tk_bundle_kernel_count(s), ==, 1);
    const tk_kernel *ks = tk_bundle_kernel(s, 0);
    g_assert_cmpstr(tk_kernel_hash(ks), ==, tk_kernel_hash(k));
    g_assert_false(tk_kernel_has_stages(ks));
    g_assert_nonnull(strstr(tk_kernel_stage_missing(ks, TK_STAGE_TTIR),
                            "no final stages were found"));
    g_assert_cmpuint(tk_bundle_pass_file_count(s, d), ==, 2);
    g_assert_cmpuint(seq_of(s, ks, pass_file(s, "/mlir.refs"))->n_dumps, ==,
                     73);
    g_assert_cmpuint(seq_of(s, ks, pass_file(s, "/llvm.refs"))->n_dumps, ==,
                     193);
    g_assert_cmpuint(assert_same_timeline(s, ks, c, tk_bundle_kernel(c, 0)),
                     ==, 73 + 191);
    tk_bundle_free(s);
    tk_bundle_free(c);
    tk_bundle_free(b);

    /* A folder with a stage file too is what it was: kernels from stage
     * files, pass files matched to them by digests. */
    char *ttir = NULL;
    {
        char *kd = tk_test_dump_path("vector_add/kernel_dump");
        GDir *g = g_dir_open(kd, 0, NULL);
        const char *h = g_dir_read_name(g);
        ttir = g_build_filename(kd, h, "add_kernel.ttir", NULL);
        g_dir_close(g);
        g_free(kd);
    }
    char *to = g_build_filename(dir, "add_kernel.ttir", NULL);
    copy_tree(ttir, to);
    b = load_path(dir, d);
    g_assert_cmpuint(tk_bundle_kernel_count(b), ==, 1);
    k = tk_bundle_kernel(b, 0);
    g_assert_nonnull(tk_kernel_stage(k, TK_STAGE_TTIR));
    /* No metadata: named after its folder, as loose stage files are. */
    char *folder = g_path_get_basename(dir);
    g_assert_cmpstr(tk_kernel_hash(k), ==, folder);
    g_free(folder);
    g_assert_cmpuint(seq_of(b, k, pass_file(b, "/mlir_passes.txt"))->n_dumps,
                     ==, 73);
    g_assert_cmpuint(seq_of(b, k, pass_file(b, "/stderr.txt"))->n_dumps, ==,
                     193);
    tk_bundle_free(b);
    g_free(to);
    g_free(ttir);
    tk_test_remove_tree(outdir);
    tk_test_remove_tree(dir);
    g_free(out);
    g_free(outdir);
    g_free(dir);
    tk_diags_free(d);
}

/* Loads a folder holding only REL's two pass files and checks that its
 * N_KERNELS kernels join the very MLIR and LLVM sequences that the capture's
 * kernels were given by comparing their stage files with the dumps. */
static void check_pairs(const char *rel, size_t n_kernels)
{
    tk_diags *d = tk_diags_new();
    tk_bundle *c = load_dump(rel, d);
    g_assert_cmpuint(tk_bundle_kernel_count(c), ==, n_kernels);
    size_t cm = pass_file(c, "/mlir_passes.txt");
    size_t cl = pass_file(c, "/stderr.txt");
    ptrdiff_t *truth = g_new(ptrdiff_t, 2 * n_kernels);
    for (size_t i = 0; i < n_kernels; i++) {
        const tk_kernel *k = tk_bundle_kernel(c, i);
        truth[2 * i] = tk_bundle_kernel_pass_seq(c, k, cm);
        truth[2 * i + 1] = tk_bundle_kernel_pass_seq(c, k, cl);
        g_assert_cmpint(truth[2 * i], >=, 0);
        g_assert_cmpint(truth[2 * i + 1], >=, 0);
    }
    char *dir = tk_test_make_tmp("passes-XXXXXX");
    char *m_rel = g_strconcat(rel, "/mlir_passes.txt", NULL);
    char *l_rel = g_strconcat(rel, "/stderr.txt", NULL);
    link_dump(m_rel, dir, "mlir_passes.txt");
    link_dump(l_rel, dir, "stderr.txt");
    tk_bundle *b = load_path(dir, d);
    g_assert_false(diag_about(d, TK_DIAG_NOTE, "", "are not joined"));
    g_assert_cmpuint(tk_bundle_kernel_count(b), ==, n_kernels);
    size_t m = pass_file(b, "/mlir_passes.txt");
    size_t l = pass_file(b, "/stderr.txt");
    gboolean *used = g_new0(gboolean, n_kernels);
    for (size_t i = 0; i < n_kernels; i++) {
        const tk_kernel *k = tk_bundle_kernel(b, i);
        g_assert_false(tk_kernel_has_stages(k));
        ptrdiff_t sm = tk_bundle_kernel_pass_seq(b, k, m);
        ptrdiff_t sl = tk_bundle_kernel_pass_seq(b, k, l);
        size_t j = 0;
        while (j < n_kernels &&
               !(truth[2 * j] == sm && truth[2 * j + 1] == sl))
            j++;
        if (j == n_kernels)
            g_error("%s: kernel %s joins MLIR compile %td and LLVM compile "
                    "%td, which no capture kernel does", rel,
                    tk_kernel_name(k), sm, sl);
        g_assert_false(used[j]);
        used[j] = TRUE;
        g_assert_cmpstr(tk_kernel_name(k), ==,
                        tk_kernel_name(tk_bundle_kernel(c, j)));
    }
    tk_bundle_free(b);
    tk_bundle_free(c);
    tk_test_remove_tree(dir);
    g_free(used);
    g_free(truth);
    g_free(m_rel);
    g_free(l_rel);
    g_free(dir);
    tk_diags_free(d);
}

static void test_pass_folder_pairs(void)
{
    if (!tk_test_have_dumps())
        return;
    /* Three configurations of mm_kernel (num-warps 8, 4, 4: two alike in
     * threads per block, apart in their inline asm) and 16 TorchInductor
     * compiles, 7 names compiled twice (128 and 256 threads). */
    check_pairs("autotuned_matmul", 3);
    check_pairs("compiled_block", 16);
}

static void test_pass_folder_ambiguous(void)
{
    if (!tk_test_have_dumps())
        return;
    /* The same compile twice in both files: the dumps cannot say which
     * LLVM half goes with which MLIR half, so none is joined: four
     * kernels, and a note. */
    char *dir = tk_test_make_tmp("passes-XXXXXX");
    copy_dump_n("vector_add/mlir_passes.txt", dir, "mlir_passes.txt", 2);
    copy_dump_n("vector_add/stderr.txt", dir, "stderr.txt", 2);
    tk_diags *d = tk_diags_new();
    tk_bundle *b = load_path(dir, d);
    g_assert_true(diag_about(d, TK_DIAG_NOTE, "mlir_passes.txt",
                             "are not joined"));
    g_assert_true(diag_about(d, TK_DIAG_NOTE, "", "2 MLIR compile(s)"));
    g_assert_cmpuint(tk_bundle_kernel_count(b), ==, 4);
    size_t m = pass_file(b, "/mlir_passes.txt");
    size_t l = pass_file(b, "/stderr.txt");
    for (size_t i = 0; i < 4; i++) {
        const tk_kernel *k = tk_bundle_kernel(b, i);
        gboolean in_m = tk_bundle_kernel_pass_seq(b, k, m) >= 0;
        gboolean in_l = tk_bundle_kernel_pass_seq(b, k, l) >= 0;
        g_assert_true(in_m != in_l);
    }
    tk_bundle_free(b);
    tk_diags_free(d);
    tk_test_remove_tree(dir);
    g_free(dir);

    /* Two MLIR compiles, one LLVM compile that fits both: three kernels. */
    dir = tk_test_make_tmp("passes-XXXXXX");
    copy_dump_n("vector_add/mlir_passes.txt", dir, "mlir_passes.txt", 2);
    copy_dump_n("vector_add/stderr.txt", dir, "stderr.txt", 1);
    d = tk_diags_new();
    b = load_path(dir, d);
    g_assert_true(diag_about(d, TK_DIAG_NOTE, "", "are not joined"));
    g_assert_cmpuint(tk_bundle_kernel_count(b), ==, 3);
    tk_bundle_free(b);
    tk_diags_free(d);
    tk_test_remove_tree(dir);
    g_free(dir);
}

/* Loading DIR fails with an error naming FILE_PART and MSG_PART. */
static void assert_load_fails(const char *dir, const char *file_part,
                              const char *msg_part)
{
    tk_diags *d = tk_diags_new();
    g_assert_null(tk_bundle_load(dir, NULL, d));
    if (!diag_about(d, TK_DIAG_ERROR, file_part, msg_part)) {
        tk_test_print_diags(d);
        g_error("no error about %s saying %s", file_part, msg_part);
    }
    tk_diags_free(d);
}

static void test_pass_folder_bad(void)
{
    char *dir = tk_test_make_tmp("passes-XXXXXX");
    char *path = g_build_filename(dir, "mlir_passes.txt", NULL);
    write_file(path, "", 0);
    assert_load_fails(dir, "/mlir_passes.txt", "it is empty");
    write_file(path, "Traceback (most recent call last):\n  oops\n", -1);
    assert_load_fails(dir, "/mlir_passes.txt", "no pass dump header");
    /* Headers, but no dump defines a kernel. */
    write_file(path,
               "// -----// IR Dump Before CSE (cse) ('builtin.module' "
               "operation) //----- //\nmodule {\n}\n",
               -1);
    assert_load_fails(dir, "/mlir_passes.txt",
                      "no dump in it defines a kernel");
    tk_test_remove_tree(dir);
    g_free(path);
    g_free(dir);
}

/* ---- bundles --------------------------------------------------------------- */

/* Sequence S of P and T of Q hold the same dumps: as many, the same passes
 * and kinds, the same bodies. */
static void assert_same_seq(const tk_passes *p, const tk_pass_seq *s,
                            const tk_passes *q, const tk_pass_seq *t)
{
    g_assert_cmpuint(s->n_dumps, ==, t->n_dumps);
    g_assert_cmpstr(s->kernel, ==, t->kernel);
    for (size_t j = 0; j < s->n_dumps; j++) {
        const tk_pass_dump *a = tk_passes_get(p, s->dumps[j]);
        const tk_pass_dump *b = tk_passes_get(q, t->dumps[j]);
        g_assert_cmpstr(a->pass, ==, b->pass);
        g_assert_cmpstr(a->arg, ==, b->arg);
        g_assert_cmpint(a->kind, ==, b->kind);
        g_assert_cmpint(a->when, ==, b->when);
        g_assert_cmpuint(a->body_lines, ==, b->body_lines);
        g_assert_true(a->digest.exact == b->digest.exact);
        g_assert_true(a->digest.noloc == b->digest.noloc);
    }
}

/* Saves what REL loads, loads the bundle, and checks that every kernel has
 * the same sequences, each in a slice holding nothing else. */
static void round_trip(const char *rel, size_t n_kernels)
{
    tk_diags *d = tk_diags_new();
    tk_bundle *b = load_dump(rel, d);
    g_assert_cmpuint(tk_bundle_kernel_count(b), ==, n_kernels);
    char *dir = tk_test_make_tmp("passes-XXXXXX");
    char *out = g_build_filename(dir, "bundle", NULL);
    gint64 t0 = g_get_monotonic_time();
    g_assert_cmpint(tk_bundle_save(b, out, d), ==, 0);
    gint64 t1 = g_get_monotonic_time();
    tk_bundle *c = load_path(out, d);
    g_assert_cmpint(tk_bundle_input_kind(c), ==, TK_INPUT_BUNDLE);
    /* Listed, not looked for: nothing indexed before the first question. */
    g_assert_cmpuint(c->pass_found->len, ==, 2 * n_kernels);
    g_assert_null(c->pass_files);
    size_t nb = tk_bundle_pass_file_count(b, d);
    g_assert_cmpuint(tk_bundle_pass_file_count(c, d), ==, 2 * n_kernels);
    g_test_message("%s: saved in %.2f s", rel, (double)(t1 - t0) / 1e6);
    for (size_t i = 0; i < n_kernels; i++) {
        const tk_kernel *k = tk_bundle_kernel(b, i);
        char *spec = g_strconcat(tk_kernel_name(k), ":", tk_kernel_hash(k),
                                 NULL);
        const tk_kernel *kc = tk_bundle_find_kernel(c, spec, NULL);
        g_assert_nonnull(kc);
        g_free(spec);
        /* Its files in the bundle, in the order of the original files. */
        size_t next = 0, found = 0;
        for (size_t f = 0; f < nb; f++) {
            const tk_pass_seq *s = seq_of(b, k, f);
            while (next < tk_bundle_pass_file_count(c, NULL) &&
                   tk_bundle_kernel_pass_seq(c, kc, next) < 0)
                next++;
            g_assert_cmpuint(next, <, tk_bundle_pass_file_count(c, NULL));
            const tk_passes *q = tk_bundle_pass_file(c, next);
            /* The slice holds its dumps and nothing else, compressed. */
            g_assert_cmpuint(tk_passes_count(q), ==, s->n_dumps);
            g_assert_cmpuint(tk_passes_seq_count(q), ==, 1);
            g_assert_cmpuint(tk_passes_other_count(q), ==, 0);
            g_assert_true(is_refs_file(tk_passes_path(q)));
            g_assert_nonnull(strstr(tk_passes_path(q), "/passes/"));
            assert_same_seq(tk_bundle_pass_file(b, f), s, q,
                            seq_of(c, kc, next));
            /* Its bodies read back as they were. */
            size_t la = 0, lb = 0;
            char *x = tk_passes_read(tk_bundle_pass_file(b, f),
                                     s->dumps[s->n_dumps - 1], &la, d);
            char *y = tk_passes_read(q, seq_of(c, kc, next)->dumps[
                                            s->n_dumps - 1], &lb, d);
            g_assert_nonnull(x);
            g_assert_nonnull(y);
            g_assert_cmpuint(la, ==, lb);
            g_assert_true(memcmp(x, y, la) == 0);
            g_free(x);
            g_free(y);
            next++;
            found++;
        }
        g_assert_cmpuint(found, ==, 2);
    }
    g_assert_cmpuint(tk_diags_count_at_least(d, TK_DIAG_WARNING), ==, 0);

    /* The manifest lists them (docs/bundle.md). */
    char *mpath = g_build_filename(out, "manifest.json", NULL);
    char *text = read_file(mpath, NULL);
    g_assert_nonnull(strstr(text, "\"passes\" : ["));
    g_assert_nonnull(strstr(text, "/passes/mlir.refs\""));
    g_assert_nonnull(strstr(text, "/passes/llvm.refs\""));
    g_assert_nonnull(strstr(text, "\"compression\" : \"refs\""));
    g_assert_cmpint(strstr(text, "\"format_version\" : 3,") != NULL, ==, 1);
    g_free(text);
    g_free(mpath);

    /* Saved again from the bundle: the same slices. */
    char *again = g_build_filename(dir, "again", NULL);
    g_assert_cmpint(tk_bundle_save(c, again, d), ==, 0);
    tk_bundle *e = load_path(again, d);
    g_assert_cmpuint(tk_bundle_pass_file_count(e, d), ==, 2 * n_kernels);
    for (size_t i = 0; i < n_kernels; i++) {
        const tk_kernel *kc = tk_bundle_kernel(c, i);
        const tk_kernel *ke = tk_bundle_kernel(e, i);
        g_assert_cmpstr(tk_kernel_hash(kc), ==, tk_kernel_hash(ke));
        for (size_t f = 0; f < 2 * n_kernels; f++)
            if (tk_bundle_kernel_pass_seq(c, kc, f) >= 0)
                assert_same_seq(tk_bundle_pass_file(c, f), seq_of(c, kc, f),
                                tk_bundle_pass_file(e, f), seq_of(e, ke, f));
    }
    tk_bundle_free(e);
    tk_bundle_free(c);
    tk_bundle_free(b);
    tk_test_remove_tree(dir);
    g_free(again);
    g_free(out);
    g_free(dir);
    tk_diags_free(d);
}

static void test_save_vector_add(void)
{
    if (tk_test_have_dumps())
        round_trip("vector_add", 1);
}

static void test_save_compiled_block(void)
{
    if (tk_test_have_dumps())
        round_trip("compiled_block", 16);
}

/* A bundle made from a pass dump file alone: kernels without stages keep
 * their names, hashes and dumps. */
static void test_save_direct(void)
{
    if (!tk_test_have_dumps())
        return;
    tk_diags *d = tk_diags_new();
    tk_bundle *b = load_dump("autotuned_matmul/mlir_passes.txt", d);
    char *dir = tk_test_make_tmp("passes-XXXXXX");
    char *out = g_build_filename(dir, "b", NULL);
    g_assert_cmpint(tk_bundle_save(b, out, d), ==, 0);
    tk_bundle *c = load_path(out, d);
    g_assert_cmpuint(tk_bundle_kernel_count(c), ==, 3);
    g_assert_cmpuint(tk_bundle_pass_file_count(c, d), ==, 3);
    for (size_t i = 0; i < 3; i++) {
        const tk_kernel *k = tk_bundle_kernel(b, i);
        const tk_kernel *kc = tk_bundle_kernel(c, i);
        g_assert_cmpstr(tk_kernel_hash(k), ==, tk_kernel_hash(kc));
        g_assert_null(tk_kernel_stage(kc, TK_STAGE_TTIR));
        size_t f = 0;
        while (tk_bundle_kernel_pass_seq(c, kc, f) < 0)
            f++;
        assert_same_seq(tk_bundle_pass_file(b, 0), seq_of(b, k, 0),
                        tk_bundle_pass_file(c, f), seq_of(c, kc, f));
    }
    /* One slice given as the input reads as the file it came from. */
    const tk_passes *q = tk_bundle_pass_file(c, 0);
    tk_bundle *e = load_path(tk_passes_path(q), d);
    g_assert_cmpuint(tk_bundle_kernel_count(e), ==, 1);
    g_assert_cmpuint(seq_of(e, tk_bundle_kernel(e, 0), 0)->n_dumps, ==, 71);
    g_assert_cmpuint(tk_diags_count_at_least(d, TK_DIAG_WARNING), ==, 0);
    tk_bundle_free(e);
    tk_bundle_free(c);
    tk_bundle_free(b);
    tk_test_remove_tree(dir);
    g_free(out);
    g_free(dir);
    tk_diags_free(d);
}

/* ---- damaged bundles --------------------------------------------------------- */

/* A saved vector_add bundle in a fresh folder; *KDIR receives its kernel
 * folder. */
static char *saved_vector_add(char **kdir)
{
    tk_diags *d = tk_diags_new();
    tk_bundle *b = load_dump("vector_add", d);
    char *dir = tk_test_make_tmp("passes-XXXXXX");
    char *out = g_build_filename(dir, "b", NULL);
    g_assert_cmpint(tk_bundle_save(b, out, d), ==, 0);
    tk_bundle_free(b);
    tk_diags_free(d);
    g_free(dir);
    *kdir = g_build_filename(out, "add_kernel-faf6139b", NULL);
    g_assert_true(g_file_test(*kdir, G_FILE_TEST_IS_DIR));
    return out;
}

/* Replaces the first FROM in the manifest of bundle OUT with TO. */
static void edit_manifest(const char *out, const char *from, const char *to)
{
    char *mpath = g_build_filename(out, "manifest.json", NULL);
    GString *text = g_string_new(NULL);
    char *old = read_file(mpath, NULL);
    g_string_assign(text, old);
    g_free(old);
    const char *at = strstr(text->str, from);
    g_assert_nonnull(at);
    gssize off = at - text->str;
    g_string_erase(text, off, (gssize)strlen(from));
    g_string_insert(text, off, to);
    write_file(mpath, text->str, (gssize)text->len);
    g_string_free(text, TRUE);
    g_free(mpath);
}

static void test_bad_manifest_entries(void)
{
    if (!tk_test_have_dumps())
        return;
    char *kdir = NULL;
    char *out = saved_vector_add(&kdir);
    /* A link in the bundle that leads out of it. */
    char *outside = tk_test_dump_path("vector_add/stderr.txt");
    char *link = g_build_filename(kdir, "passes", "link.txt", NULL);
    g_assert_cmpint(symlink(outside, link), ==, 0);
    edit_manifest(out, "\"passes\" : [",
                  "\"passes\" : [ {\"file\": \"../../etc/passwd\"}, "
                  "{\"file\": \"/etc/passwd\"}, "
                  "{\"file\": \"add_kernel-faf6139b/passes/link.txt\"}, "
                  "{\"file\": \"add_kernel-faf6139b/passes/gone.txt.gz\"}, "
                  "{\"kind\": \"mlir\"}, 42, ");
    tk_diags *d = tk_diags_new();
    tk_bundle *b = load_path(out, d);
    g_assert_true(diag_about(d, TK_DIAG_WARNING, "manifest.json",
                             "refusing path \"../../etc/passwd\""));
    g_assert_true(diag_about(d, TK_DIAG_WARNING, "manifest.json",
                             "refusing absolute path \"/etc/passwd\""));
    g_assert_true(diag_about(d, TK_DIAG_WARNING, "manifest.json",
                             "it leads outside the bundle folder"));
    g_assert_true(diag_about(d, TK_DIAG_WARNING, "manifest.json",
                             "gone.txt.gz\" is missing from the bundle"));
    g_assert_true(diag_about(d, TK_DIAG_WARNING, "manifest.json",
                             "kernels[0].passes[4] needs \"file\""));
    g_assert_true(diag_about(d, TK_DIAG_WARNING, "manifest.json",
                             "kernels[0].passes[5] needs \"file\""));
    /* The rest is loaded: both of its own slices, nothing else. */
    g_assert_cmpuint(tk_bundle_pass_file_count(b, d), ==, 2);
    const tk_kernel *k = tk_bundle_kernel(b, 0);
    g_assert_cmpuint(seq_of(b, k, 0)->n_dumps, ==, 73);
    g_assert_cmpuint(seq_of(b, k, 1)->n_dumps, ==, 193);
    tk_bundle_free(b);
    tk_diags_free(d);
    char *parent = g_path_get_dirname(out);
    tk_test_remove_tree(parent);
    g_free(parent);
    g_free(link);
    g_free(outside);
    g_free(kdir);
    g_free(out);
}

static void test_bad_pass_files(void)
{
    if (!tk_test_have_dumps())
        return;
    char *kdir = NULL;
    char *out = saved_vector_add(&kdir);
    /* The LLVM slice cannot be read (a folder where the file should be);
     * the MLIR slice is cut in half; a plain-text file listed for
     * add_kernel holds another program's dumps. */
    char *llvm = g_build_filename(kdir, "passes", "llvm.refs", NULL);
    g_assert_cmpint(g_unlink(llvm), ==, 0);
    g_assert_cmpint(g_mkdir(llvm, 0755), ==, 0);
    char *mlir = g_build_filename(kdir, "passes", "mlir.refs", NULL);
    gsize len = 0;
    char *gz = read_file(mlir, &len);
    write_file(mlir, gz, (gssize)(len / 2));
    g_free(gz);
    char *stranger = g_build_filename(kdir, "passes", "gluon.txt", NULL);
    char *gluon = tk_test_dump_path("gluon_copy/mlir_passes.txt");
    copy_tree(gluon, stranger);
    /* A FIFO named by the manifest must not block the reader. */
    char *fifo = g_build_filename(kdir, "passes", "fifo.txt", NULL);
    g_assert_cmpint(mkfifo(fifo, 0644), ==, 0);
    edit_manifest(out, "\"passes\" : [",
                  "\"passes\" : [ {\"file\": "
                  "\"add_kernel-faf6139b/passes/gluon.txt\"}, {\"file\": "
                  "\"add_kernel-faf6139b/passes/fifo.txt\"}, ");

    tk_diags *d = tk_diags_new();
    tk_bundle *b = load_path(out, d);
    /* The stage files are all there: loading does not look at passes. */
    g_assert_cmpuint(tk_diags_count_at_least(d, TK_DIAG_WARNING), ==, 0);
    size_t n = tk_bundle_pass_file_count(b, d);
    tk_test_print_diags(d);
    g_assert_cmpuint(n, ==, 2); /* gluon.txt and the cut MLIR slice */
    g_assert_true(diag_about(d, TK_DIAG_ERROR, "passes/llvm.refs",
                             "not a regular file"));
    g_assert_true(diag_about(d, TK_DIAG_ERROR, "passes/fifo.txt",
                             "not a regular file"));
    g_assert_true(diag_about(d, TK_DIAG_WARNING, "passes/mlir.refs",
                             "cut short"));
    g_assert_true(diag_about(d, TK_DIAG_WARNING, "passes/gluon.txt",
                             "holds no dump of kernel add_kernel"));
    const tk_kernel *k = tk_bundle_kernel(b, 0);
    size_t g = pass_file(b, "/gluon.txt");
    size_t m = pass_file(b, "/mlir.refs");
    g_assert_cmpint(tk_bundle_kernel_pass_seq(b, k, g), ==, -1);
    /* What came before the cut is read: some of the 73 dumps. */
    size_t got = seq_of(b, k, m)->n_dumps;
    g_test_message("%zu dumps before the cut", got);
    g_assert_cmpuint(got, >, 0);
    g_assert_cmpuint(got, <, 73);
    tk_bundle_free(b);
    tk_diags_free(d);

    /* Damaged compressed data in the middle of the pool (its LLVM pieces,
     * written after the MLIR ones): the text before it is read. */
    char *gz2 = NULL;
    {
        tk_diags *e = tk_diags_new();
        tk_bundle *v = load_dump("vector_add", e);
        char *dir2 = tk_test_make_tmp("passes-XXXXXX");
        char *out2 = g_build_filename(dir2, "b", NULL);
        g_assert_cmpint(tk_bundle_save(v, out2, e), ==, 0);
        tk_bundle_free(v);
        gz2 = g_build_filename(out2, "dumps", "pool.zst", NULL);
        char *data = read_file(gz2, &len);
        memset(data + len / 2, 0x55, 64);
        write_file(gz2, data, (gssize)len);
        g_free(data);
        v = load_path(out2, e);
        g_assert_cmpuint(tk_bundle_pass_file_count(v, e), ==, 2);
        g_assert_true(diag_about(e, TK_DIAG_WARNING, "passes/llvm.refs",
                                 "damaged"));
        size_t l = pass_file(v, "/llvm.refs");
        size_t dumps = tk_passes_count(tk_bundle_pass_file(v, l));
        g_assert_cmpuint(dumps, >, 0);
        g_assert_cmpuint(dumps, <, 193);
        tk_bundle_free(v);
        tk_diags_free(e);
        tk_test_remove_tree(dir2);
        g_free(out2);
        g_free(dir2);
    }
    char *parent = g_path_get_dirname(out);
    tk_test_remove_tree(parent);
    g_free(parent);
    g_free(gz2);
    g_free(fifo);
    g_free(gluon);
    g_free(stranger);
    g_free(mlir);
    g_free(llvm);
    g_free(kdir);
    g_free(out);
}

/* ---- memory: a big capture is copied a chunk at a time ------------------------ */

/* Saves persistent_tma_matmul (a 142 MB stderr) in a fresh process and loads
 * the bundle back, reporting time and peak memory to REPORT. */
static void big_child(const char *out, const char *report)
{
    struct rusage r0, r1, r2;
    tk_diags *d = tk_diags_new();
    char *path = tk_test_dump_path("persistent_tma_matmul");
    tk_bundle *b = tk_bundle_load(path, NULL, d);
    g_assert_nonnull(b);
    getrusage(RUSAGE_SELF, &r0);
    gint64 t0 = g_get_monotonic_time();
    g_assert_cmpint(tk_bundle_save(b, out, d), ==, 0);
    gint64 t1 = g_get_monotonic_time();
    getrusage(RUSAGE_SELF, &r1);
    tk_bundle *c = tk_bundle_load(out, NULL, d);
    g_assert_nonnull(c);
    g_assert_cmpuint(tk_bundle_pass_file_count(c, d), ==, 2);
    gint64 t2 = g_get_monotonic_time();
    getrusage(RUSAGE_SELF, &r2);
    /* grep -c 'IR Dump': 74 in mlir_passes.txt, 225 in stderr.txt */
    const tk_kernel *k = tk_bundle_kernel(c, 0);
    size_t total = seq_of(c, k, 0)->n_dumps + seq_of(c, k, 1)->n_dumps;
    g_assert_cmpuint(total, ==, 74 + 225);
    char *msg = g_strdup_printf(
        "saved in %.2f s (peak RSS grown by %ld KB), loaded and indexed "
        "the bundle's 2 compressed slices in %.2f s (grown by %ld KB more)",
        (double)(t1 - t0) / 1e6, r1.ru_maxrss - r0.ru_maxrss,
        (double)(t2 - t1) / 1e6, r2.ru_maxrss - r1.ru_maxrss);
    g_assert_true(g_file_set_contents(report, msg, -1, NULL));
    g_free(msg);
    /* The 4 MiB read window, 1 MiB chunks and zlib's buffers; never the
     * 142 MB. */
    g_assert_cmpint(r2.ru_maxrss - r0.ru_maxrss, <, 48 * 1024);
    tk_bundle_free(c);
    tk_bundle_free(b);
    g_free(path);
    tk_diags_free(d);
}

/* The index begun ahead on a worker (tk_bundle_pass_files_start()): the
 * same counts as test_vector_add's (73 and 193, grep), and on a copy of
 * vector_add whose MLIR file is cut in the middle of a dump, the very
 * diagnostics, in the same order, as indexing when first asked. */
static char *ahead_diags(const char *path, int ahead, size_t *n_dumps)
{
    tk_diags *d = tk_diags_new();
    tk_bundle *b = load_path(path, d);
    if (ahead) {
        g_assert_cmpint(tk_bundle_pass_files_start(b), ==, g_get_num_processors() > 1);
        g_assert_cmpint(tk_bundle_pass_files_start(b), ==, 0); /* once */
    }
    GString *said = g_string_new(NULL);
    size_t n = tk_bundle_pass_file_count(b, d);
    g_assert_false(tk_bundle_pass_files_indexing(b));
    *n_dumps = 0;
    for (size_t i = 0; i < n; i++)
        *n_dumps += tk_passes_count(tk_bundle_pass_file(b, i));
    for (size_t i = 0; i < tk_diags_count(d); i++) {
        const tk_diag *g = tk_diags_get(d, i);
        g_string_append_printf(said, "%d %s:%u %s\n", (int)g->severity, g->file,
                               (unsigned)g->line, g->message);
    }
    tk_bundle_free(b);
    tk_diags_free(d);
    return g_string_free(said, FALSE);
}

static void test_ahead(void)
{
    if (!tk_test_have_dumps())
        return;
    char *va = tk_test_dump_path("vector_add");
    size_t n = 0;
    char *said = ahead_diags(va, 1, &n);
    g_assert_cmpuint(n, ==, 73 + 193);
    g_assert_cmpstr(said, ==, "");
    g_free(said);
    /* Freed before anyone asked: freeing waits for the worker. */
    tk_diags *d = tk_diags_new();
    tk_bundle *b = load_path(va, d);
    tk_bundle_pass_files_start(b);
    tk_bundle_free(b);
    tk_diags_free(d);

    char *dir = tk_test_make_tmp("ahead-XXXXXX");
    char *cut = g_build_filename(dir, "vector_add", NULL);
    copy_tree(va, cut);
    char *mlir = g_build_filename(cut, "mlir_passes.txt", NULL);
    gsize len = 0;
    char *text = read_file(mlir, &len);
    write_file(mlir, text, (gssize)(len / 2));
    g_free(text);
    size_t n_late = 0, n_ahead = 0;
    char *late = ahead_diags(cut, 0, &n_late);
    char *early = ahead_diags(cut, 1, &n_ahead);
    g_assert_true(strstr(late, "mlir_passes.txt") != NULL); /* the cut is said */
    g_assert_cmpstr(early, ==, late);
    g_assert_cmpuint(n_ahead, ==, n_late);
    g_assert_cmpuint(n_late, <, 73 + 193);
    g_free(early);
    g_free(late);
    g_free(mlir);
    g_free(cut);
    tk_test_remove_tree(dir);
    g_free(dir);
    g_free(va);
}

static void test_big_capture(void)
{
    /* The same path in the child (a subprocess shares the parent's
     * temporary folder), which the parent makes first. */
    char *dir = tk_test_tmp_path("bundle-passes-big");
    char *out = g_build_filename(dir, "b", NULL);
    char *report = g_build_filename(dir, "report.txt", NULL);
    if (g_test_subprocess()) {
        big_child(out, report);
    } else if (tk_test_have_dumps()) {
        g_assert_cmpint(g_mkdir(dir, 0755), ==, 0);
        g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
        char *msg = NULL;
        if (g_file_get_contents(report, &msg, NULL, NULL))
            g_test_message("%s", msg);
        g_free(msg);
        tk_test_remove_tree(dir);
        g_test_trap_assert_passed();
    }
    g_free(report);
    g_free(out);
    g_free(dir);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/bundle-passes/vector-add", test_vector_add);
    g_test_add_func("/bundle-passes/compiled-block", test_compiled_block);
    g_test_add_func("/bundle-passes/autotuned-and-gluon",
                    test_autotuned_and_gluon);
    g_test_add_func("/bundle-passes/renamed-and-moved",
                    test_renamed_and_moved);
    g_test_add_func("/bundle-passes/tie-and-strangers",
                    test_tie_and_strangers);
    g_test_add_func("/bundle-passes/direct-file", test_direct_file);
    g_test_add_func("/bundle-passes/pass-folder", test_pass_folder);
    g_test_add_func("/bundle-passes/pass-folder/pairs",
                    test_pass_folder_pairs);
    g_test_add_func("/bundle-passes/pass-folder/ambiguous",
                    test_pass_folder_ambiguous);
    g_test_add_func("/bundle-passes/pass-folder/bad", test_pass_folder_bad);
    g_test_add_func("/bundle-passes/save/vector-add", test_save_vector_add);
    g_test_add_func("/bundle-passes/save/compiled-block",
                    test_save_compiled_block);
    g_test_add_func("/bundle-passes/save/direct", test_save_direct);
    g_test_add_func("/bundle-passes/bad/manifest", test_bad_manifest_entries);
    g_test_add_func("/bundle-passes/bad/pass-files", test_bad_pass_files);
    g_test_add_func("/bundle-passes/big-capture", test_big_capture);
    g_test_add_func("/bundle-passes/ahead", test_ahead);
    return g_test_run();
}
