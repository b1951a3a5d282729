/* test_first_stage.c - the stage a front end opens first
 * (tk_kernel_first_stage(), tk_kernel.h), on the shared vector_add capture
 * (kernel_dump/.../add_kernel.{ttir,ttgir,llir,ptx,sass...}) and on copies
 * of some of its stage files in a folder of this test's own. */
#include <glib/gstdio.h>

#include "tk_test.h"
#include "tkdump/tk_bundle_load.h"
#include "tkdump/tk_kernel.h"

/* The first stage of the one kernel found in DIR. */
static tk_stage_kind first_of(const char *dir)
{
    tk_diags *d = tk_diags_new();
    tk_bundle *b = tk_bundle_load(dir, NULL, d);
    g_assert_nonnull(b);
    g_assert_cmpuint(tk_bundle_kernel_count(b), ==, 1);
    tk_stage_kind k = tk_kernel_first_stage(tk_bundle_kernel(b, 0));
    tk_bundle_free(b);
    tk_diags_free(d);
    return k;
}

/* A folder of its own holding copies of vector_add's stage files EXTS. */
static char *folder_with(const char *const *exts)
{
    char *dir = tk_test_make_tmp("first-XXXXXX");
    char *src_dir = tk_test_dump_path("vector_add/kernel_dump");
    GDir *gd = g_dir_open(src_dir, 0, NULL);
    g_assert_nonnull(gd);
    const char *hash = g_dir_read_name(gd);
    g_assert_nonnull(hash);
    for (; *exts; exts++) {
        char *name = g_strdup_printf("add_kernel.%s", *exts);
        char *from = g_build_filename(src_dir, hash, name, NULL);
        char *to = g_build_filename(dir, name, NULL);
        char *data;
        gsize len;
        g_assert_true(g_file_get_contents(from, &data, &len, NULL));
        g_assert_true(g_file_set_contents(to, data, (gssize)len, NULL));
        g_free(data);
        g_free(to);
        g_free(from);
        g_free(name);
    }
    g_dir_close(gd);
    g_free(src_dir);
    return dir;
}

static void test_first_stage(void)
{
    if (!tk_test_have_dumps())
        return;
    char *va = tk_test_dump_path("vector_add");
    /* all five stages: TTGIR, not the earlier TTIR */
    g_assert_cmpint(first_of(va), ==, TK_STAGE_TTGIR);
    g_free(va);
    /* no TTGIR: the first there is, in the library's order */
    const char *const ttir_ptx[] = {"ptx", "ttir", NULL};
    char *dir = folder_with(ttir_ptx);
    g_assert_cmpint(first_of(dir), ==, TK_STAGE_TTIR);
    tk_test_remove_tree(dir);
    g_free(dir);
    const char *const ptx_llir[] = {"ptx", "llir", NULL};
    dir = folder_with(ptx_llir);
    g_assert_cmpint(first_of(dir), ==, TK_STAGE_LLIR);
    tk_test_remove_tree(dir);
    g_free(dir);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/kernel/first-stage", test_first_stage);
    return g_test_run();
}
