/* test_file_query.c - which located file a user means by the FILE of
 * --source FILE:LINE (tk_file_query, tk_bundle.h): the one rule `tkview
 * bind`, `tkview history` and the viewer share.
 *
 * The located paths are those of the shared vector_add capture, read from
 * kernel_dump/.../add_kernel.ttir:
 *   line 1:  #loc = loc("/tmp/capture/vector_add/src/vector_add.py":7:0)
 *   line 51: #loc12 = loc("/opt/torch/.venv/lib/python3.12/site-packages/
 *                          triton/language/standard.py":293:36)
 * and the capture's src/vector_add.py is the copy they resolve to.
 */
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "tk_test.h"
#include "tkdump/tk_bundle_load.h"
#include "tkdump/tk_file_query.h"

#define VA_PY "/tmp/capture/vector_add/src/vector_add.py"
#define STD_PY "/opt/torch/.venv/lib/python3.12/site-packages/triton/language/standard.py"

static tk_bundle *load_vector_add(void)
{
    char *path = tk_test_dump_path("vector_add");
    tk_diags *d = tk_diags_new();
    tk_bundle *b = tk_bundle_load(path, NULL, d);
    g_assert_nonnull(b);
    tk_diags_free(d);
    g_free(path);
    return b;
}

/* The id of the located PATH, which must be in the table. */
static tk_file_id file_id(tk_bundle *b, const char *path)
{
    tk_loctab *tab = tk_bundle_loctab(b);
    for (tk_file_id f = 0; f < tk_loctab_file_count(tab); f++)
        if (strcmp(tk_loctab_file_path(tab, f), path) == 0)
            return f;
    g_error("no located file %s", path);
}

/* What TYPED finds among every file: the one path WANT, or nothing (NULL). */
static void assert_finds(tk_bundle *b, const char *typed, const char *want,
                         tk_file_match how)
{
    tk_file_query *q = tk_file_query_new(b, typed);
    g_assert_cmpstr(tk_file_query_typed(q), ==, typed);
    tk_file_id *found = NULL;
    size_t n = tk_file_query_find(q, NULL, 0, &found);
    if (!want) {
        g_assert_cmpuint(n, ==, 0);
        g_assert_null(found);
    } else {
        g_assert_cmpuint(n, ==, 1);
        g_assert_cmpstr(tk_loctab_file_path(tk_bundle_loctab(b), found[0]), ==,
                        want);
        g_assert_cmpint(tk_file_query_match(q, found[0]), ==, how);
    }
    g_free(found);
    tk_file_query_free(q);
}

static void test_text_rules(void)
{
    if (!tk_test_have_dumps())
        return;
    tk_bundle *b = load_vector_add();
    assert_finds(b, VA_PY, VA_PY, TK_FILE_EXACT);
    assert_finds(b, "vector_add.py", VA_PY, TK_FILE_SUFFIX);
    assert_finds(b, "src/vector_add.py", VA_PY, TK_FILE_SUFFIX);
    /* A typed path that starts with '/' may end a longer one. */
    assert_finds(b, "/src/vector_add.py", VA_PY, TK_FILE_SUFFIX);
    assert_finds(b, "standard.py", STD_PY, TK_FILE_SUFFIX);
    assert_finds(b, "triton/language/standard.py", STD_PY, TK_FILE_SUFFIX);
    /* Not at a '/' boundary, not a whole name, another folder. */
    assert_finds(b, "add.py", NULL, TK_FILE_NO_MATCH);
    assert_finds(b, "vector_add", NULL, TK_FILE_NO_MATCH);
    assert_finds(b, "lib/vector_add.py", NULL, TK_FILE_NO_MATCH);
    assert_finds(b, "", NULL, TK_FILE_NO_MATCH);

    tk_file_query *q = tk_file_query_new(b, "vector_add.py");
    g_assert_cmpint(tk_file_query_match(q, file_id(b, STD_PY)), ==,
                    TK_FILE_NO_MATCH);
    g_assert_cmpint(tk_file_query_match(q, 1000000), ==, TK_FILE_NO_MATCH);
    /* Among a kernel's files only: standard.py alone does not have it. */
    tk_file_id only_std = file_id(b, STD_PY);
    g_assert_cmpuint(tk_file_query_find(q, &only_std, 1, NULL), ==, 0);
    tk_file_query_free(q);
    tk_file_query_free(NULL);
    tk_bundle_free(b);
}

/* The path of the user's own copy: the file the location resolves to
 * (found under the loaded folder, src/vector_add.py), typed absolute,
 * relative to the working folder, or through a symbolic link. */
static void test_resolved_file(void)
{
    if (!tk_test_have_dumps())
        return;
    tk_bundle *b = load_vector_add();
    char *copy = tk_test_dump_path("vector_add/src/vector_add.py");
    g_assert_true(g_file_test(copy, G_FILE_TEST_IS_REGULAR));
    g_assert_false(g_str_has_suffix(VA_PY, copy));
    assert_finds(b, copy, VA_PY, TK_FILE_RESOLVED);

    char *cwd = g_get_current_dir();
    char *dumps = tk_test_dump_path("");
    g_assert_cmpint(g_chdir(dumps), ==, 0);
    assert_finds(b, "./vector_add/src/vector_add.py", VA_PY, TK_FILE_RESOLVED);
    assert_finds(b, "vector_add/../vector_add/src/vector_add.py", VA_PY,
                 TK_FILE_RESOLVED);
    g_assert_cmpint(g_chdir(cwd), ==, 0);

    char *dir = tk_test_make_tmp("file-query-XXXXXX");
    char *link = g_build_filename(dir, "mine.py", NULL);
    g_assert_cmpint(symlink(copy, link), ==, 0);
    assert_finds(b, link, VA_PY, TK_FILE_RESOLVED);
    /* Another file with the same name is not the file. */
    char *other = g_build_filename(dir, "vector_add.py", NULL);
    g_assert_true(g_file_set_contents(other, "x = 1\n", -1, NULL));
    assert_finds(b, other, NULL, TK_FILE_NO_MATCH);
    tk_test_remove_tree(dir);
    g_free(other);
    g_free(link);
    g_free(dir);
    g_free(dumps);
    g_free(cwd);
    g_free(copy);
    tk_bundle_free(b);
}

/* Two located files, one path the tail of the other: the exact path wins,
 * the common tail names both, and the history's predicate follows the rule
 * the last find decided on. */
static void test_precedence(void)
{
    char *dir = tk_test_make_tmp("file-query-XXXXXX");
    char *ttir = g_build_filename(dir, "k.ttir", NULL);
    g_assert_true(g_file_set_contents(
        ttir,
        "#loc = loc(\"/src/k.py\":3:0)\n"
        "#loc1 = loc(\"/other/src/k.py\":9:4)\n"
        "#loc2 = loc(\"/src/k.py\":5:10)\n"
        "#loc3 = loc(callsite(#loc1 at #loc2))\n"
        "module {\n"
        "  tt.func public @k() attributes {noinline = false} {\n"
        "    %c0 = arith.constant 0 : i32 loc(#loc3)\n"
        "    tt.return loc(#loc2)\n"
        "  } loc(#loc)\n"
        "} loc(#loc)\n",
        -1, NULL));
    tk_diags *d = tk_diags_new();
    tk_bundle *b = tk_bundle_load(dir, NULL, d);
    g_assert_nonnull(b);
    tk_loctab *tab = tk_bundle_loctab(b);
    tk_file_id own = file_id(b, "/src/k.py");
    tk_file_id other = file_id(b, "/other/src/k.py");

    assert_finds(b, "/src/k.py", "/src/k.py", TK_FILE_EXACT);
    assert_finds(b, "other/src/k.py", "/other/src/k.py", TK_FILE_SUFFIX);
    tk_file_query *q = tk_file_query_new(b, "k.py");
    tk_file_id *found = NULL;
    g_assert_cmpuint(tk_file_query_find(q, NULL, 0, &found), ==, 2);
    g_assert_true((found[0] == own && found[1] == other) ||
                  (found[0] == other && found[1] == own));
    g_free(found);
    tk_file_query_free(q);

    q = tk_file_query_new(b, "/src/k.py");
    /* Before a find, any rule: the tail of /other/src/k.py too. */
    g_assert_true(tk_file_query_accepts(tab, own, q));
    g_assert_true(tk_file_query_accepts(tab, other, q));
    g_assert_cmpuint(tk_file_query_find(q, NULL, 0, NULL), ==, 1);
    /* After it, the exact path only. */
    g_assert_true(tk_file_query_accepts(tab, own, q));
    g_assert_false(tk_file_query_accepts(tab, other, q));
    tk_file_query_free(q);

    tk_bundle_free(b);
    tk_diags_free(d);
    tk_test_remove_tree(dir);
    g_free(ttir);
    g_free(dir);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/file-query/text", test_text_rules);
    g_test_add_func("/file-query/resolved", test_resolved_file);
    g_test_add_func("/file-query/precedence", test_precedence);
    return g_test_run();
}
