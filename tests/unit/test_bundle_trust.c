/* test_bundle_trust.c - a bundle reads only inside its folder (the trust
 * rule, docs/bundle.md "What a bundle may read").
 *
 * Each test copies the sample bundle sample_dumps/vector_add into its own
 * folder, plants what an attacker would (a location naming a file of this
 * machine, "../" chains, links in the bundle leading out of it), and checks
 * that nothing outside is resolved, listed or read, while the same files
 * under a folder the user names (--source-dir) and in the user's own
 * folders (no manifest) are. */
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "tkdump/tk_bundle_load.h"

#include "tk_test.h"

/* The folder of one test: BUNDLE (a copy of the sample vector_add),
 * OUTSIDE/secret.py beside it, and SECRET that file's path. */
typedef struct {
    char *tmp, *bundle, *outside, *secret;
} fixture;

static void fixture_make(fixture *f)
{
    f->tmp = tk_test_make_tmp("trust-XXXXXX");
    f->bundle = g_build_filename(f->tmp, "bundle", NULL);
    const char *samples = g_getenv("TK_TEST_SAMPLES");
    g_assert_nonnull(samples);
    char *src = g_build_filename(samples, "vector_add", NULL);
    char *argv[] = {"cp", "-R", src, f->bundle, NULL};
    int status = -1;
    g_assert_true(g_spawn_sync(NULL, argv, NULL, G_SPAWN_SEARCH_PATH, NULL,
                               NULL, NULL, NULL, &status, NULL));
    g_assert_cmpint(status, ==, 0);
    g_free(src);
    f->outside = g_build_filename(f->tmp, "outside", NULL);
    g_assert_cmpint(g_mkdir(f->outside, 0755), ==, 0);
    f->secret = g_build_filename(f->outside, "secret.py", NULL);
    g_assert_true(g_file_set_contents(f->secret, "secret = 1\n", -1, NULL));
}

static void fixture_free(fixture *f)
{
    tk_test_remove_tree(f->tmp);
    g_free(f->secret);
    g_free(f->outside);
    g_free(f->bundle);
    g_free(f->tmp);
}

/* Makes the symbolic link NAME (relative to the bundle) leading to TARGET. */
static void plant_link(const fixture *f, const char *name, const char *target)
{
    char *p = g_build_filename(f->bundle, name, NULL);
    g_unlink(p);
    g_assert_cmpint(symlink(target, p), ==, 0);
    g_free(p);
}

static const char *resolve(tk_bundle *b, const char *path, tk_diags *d)
{
    tk_file_id f = tk_loctab_file(tk_bundle_loctab(b), path, strlen(path));
    return tk_bundle_resolve_source(b, f, d);
}

/* Locations naming files of this machine: absolute paths, "../" chains
 * climbing out of the bundle, and the bundle's own links to such files and
 * folders.  None is resolved; each gets the note once. */
static void test_locations_stay_inside(void)
{
    fixture f;
    fixture_make(&f);
    /* bundle/lib -> a folder outside; bundle/loot.py -> a file outside. */
    plant_link(&f, "lib", f.outside);
    plant_link(&f, "loot.py", f.secret);
    tk_diags *d = tk_diags_new();
    tk_bundle *b = tk_bundle_load(f.bundle, NULL, d);
    g_assert_nonnull(b);
    g_assert_cmpint(tk_bundle_input_kind(b), ==, TK_INPUT_BUNDLE);

    g_assert_null(resolve(b, "/etc/passwd", d));
    g_assert_null(resolve(b, f.secret, d));
    /* Relative to the bundle folder: ../outside/secret.py, and a long
     * chain that ends at /etc/passwd from any depth. */
    g_assert_null(resolve(b, "../outside/secret.py", d));
    g_assert_null(resolve(b, "../../../../../../../../../../../etc/passwd", d));
    /* Through the bundle's links: a folder and a file. */
    g_assert_null(resolve(b, "lib/secret.py", d));
    g_assert_null(resolve(b, "loot.py", d));
    /* Found by its tail under the bundle: the walk meets loot.py, a link
     * out, and skips it. */
    g_assert_null(resolve(b, "/capture/machine/loot.py", d));
    g_assert_cmpuint(tk_test_count_diags_with(d, TK_DIAG_NOTE,
                                              "outside the bundle"), ==, 6);
    /* Said per file: refused, or simply not found. */
    tk_loctab *tab = tk_bundle_loctab(b);
    g_assert_cmpint(tk_bundle_source_refused(
                        b, tk_loctab_file(tab, "/etc/passwd", 11)), ==, 1);
    g_assert_cmpint(tk_bundle_source_refused(
                        b, tk_loctab_file(tab, "/capture/machine/loot.py", 24)),
                    ==, 0);
    g_assert_cmpuint(tk_test_count_diags_with(d, TK_DIAG_NOTE,
                                              "path:line only"), ==, 7);

    /* The bundle's own copy is still found (sources/0000-vector_add.py). */
    const char *own = resolve(b, "/tmp/capture/vector_add/src/vector_add.py", d);
    g_assert_nonnull(own);
    g_assert_nonnull(strstr(own, "/bundle/sources/"));
    tk_bundle_free(b);

    /* A folder the user names is read: the same file, by its tail. */
    const char *dirs[] = {f.outside};
    tk_load_options opts = {dirs, 1};
    b = tk_bundle_load(f.bundle, &opts, d);
    g_assert_cmpstr(resolve(b, "/capture/machine/secret.py", d), ==, f.secret);
    tk_bundle_free(b);

    /* The user's own folder (no manifest.json): today's lookup, the file
     * at the very path a location names is shown. */
    char *m = g_build_filename(f.bundle, "manifest.json", NULL);
    g_assert_cmpint(g_unlink(m), ==, 0);
    b = tk_bundle_load(f.bundle, NULL, d);
    g_assert_nonnull(b);
    g_assert_cmpstr(resolve(b, f.secret, d), ==, f.secret);
    tk_bundle_free(b);
    g_free(m);
    tk_diags_free(d);
    fixture_free(&f);
}

/* A manifest that cannot be used still marks someone else's folder: the
 * folder is scanned as kernel folders, under the same rule. */
static void test_unusable_manifest_still_confines(void)
{
    fixture f;
    fixture_make(&f);
    char *m = g_build_filename(f.bundle, "manifest.json", NULL);
    g_assert_true(g_file_set_contents(m, "{\"format\": \"something else\"}",
                                      -1, NULL));
    tk_diags *d = tk_diags_new();
    tk_bundle *b = tk_bundle_load(f.bundle, NULL, d);
    g_assert_nonnull(b);
    g_assert_cmpint(tk_bundle_input_kind(b), !=, TK_INPUT_BUNDLE);
    g_assert_null(resolve(b, f.secret, d));
    g_assert_cmpuint(tk_test_count_diags_with(d, TK_DIAG_NOTE,
                                              "outside the bundle"), ==, 1);
    tk_bundle_free(b);

    /* One file of the bundle given alone: the bundle above it confines. */
    char *ttgir = g_build_filename(f.bundle, "add_kernel-faf6139b",
                                   "add_kernel.ttgir", NULL);
    b = tk_bundle_load(ttgir, NULL, d);
    g_assert_nonnull(b);
    g_assert_null(resolve(b, f.secret, d));
    tk_bundle_free(b);
    g_free(ttgir);
    g_free(m);
    tk_diags_free(d);
    fixture_free(&f);
}

/* Links in the bundle to stage files and to its sources/ folder or one of
 * its entries, leading out: refused with a warning naming manifest.json,
 * the rest loads. */
static void test_links_out_refused(void)
{
    fixture f;
    fixture_make(&f);
    /* A stage file that is a link to a copy outside. */
    char *ptx = g_build_filename(f.bundle, "add_kernel-faf6139b",
                                 "add_kernel.ptx", NULL);
    char *ptx_out = g_build_filename(f.outside, "add_kernel.ptx", NULL);
    g_assert_cmpint(rename(ptx, ptx_out), ==, 0);
    g_assert_cmpint(symlink(ptx_out, ptx), ==, 0);
    /* sources/ itself a link to a folder outside holding the same name. */
    char *srcdir = g_build_filename(f.bundle, "sources", NULL);
    char *src_out = g_build_filename(f.outside, "sources", NULL);
    g_assert_cmpint(rename(srcdir, src_out), ==, 0);
    g_assert_cmpint(symlink(src_out, srcdir), ==, 0);

    tk_diags *d = tk_diags_new();
    tk_bundle *b = tk_bundle_load(f.bundle, NULL, d);
    g_assert_nonnull(b);
    const tk_kernel *k = tk_bundle_kernel(b, 0);
    g_assert_null(tk_kernel_stage(k, TK_STAGE_PTX));
    g_assert_nonnull(tk_kernel_stage(k, TK_STAGE_TTGIR));
    g_assert_cmpuint(tk_test_count_diags_with(d, TK_DIAG_WARNING,
                                              "leads outside the bundle"),
                     ==, 2);
    g_assert_null(resolve(b, "/tmp/capture/vector_add/src/vector_add.py", d));
    tk_bundle_free(b);

    /* The same with sources/ a real folder and only its entry a link. */
    g_assert_cmpint(g_unlink(srcdir), ==, 0);
    g_assert_cmpint(g_mkdir(srcdir, 0755), ==, 0);
    char *entry = g_build_filename(srcdir, "0000-vector_add.py", NULL);
    char *entry_out = g_build_filename(src_out, "0000-vector_add.py", NULL);
    g_assert_cmpint(symlink(entry_out, entry), ==, 0);
    tk_diags *d2 = tk_diags_new();
    b = tk_bundle_load(f.bundle, NULL, d2);
    g_assert_null(resolve(b, "/tmp/capture/vector_add/src/vector_add.py", d2));
    g_assert_cmpuint(tk_test_count_diags_with(d2, TK_DIAG_WARNING,
                                              "the copy of source"), ==, 1);
    tk_bundle_free(b);
    tk_diags_free(d2);
    tk_diags_free(d);
    g_free(entry);
    g_free(entry_out);
    g_free(src_out);
    g_free(srcdir);
    g_free(ptx_out);
    g_free(ptx);
    fixture_free(&f);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/trust/locations", test_locations_stay_inside);
    g_test_add_func("/trust/unusable_manifest", test_unusable_manifest_still_confines);
    g_test_add_func("/trust/links_out", test_links_out_refused);
    return g_test_run();
}
