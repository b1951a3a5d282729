/* test_passref.c - the one grammar that names a pass (tk_passref.h),
 * against the table the report's test reads too (tests/passref_cases.json:
 * its "about" says what each expected value was read from). */
#include <json-glib/json-glib.h>
#include <stdlib.h>

#include "tk_test.h"
#include "tkdump/tk_bundle_load.h"
#include "tkdump/tk_passref.h"
#include "tkdump/tk_timeline.h"

static gboolean is_null(JsonObject *o, const char *m)
{
    return !json_object_has_member(o, m) || json_object_get_null_member(o, m);
}

static void check_case(const tk_timeline *tl, JsonObject *c)
{
    const char *spec = json_object_get_string_member(c, "spec");
    const char *to = is_null(c, "to") ? NULL : json_object_get_string_member(c, "to");
    tk_passref ref;
    tk_passref_error e = tk_passref_parse(tl, spec, &ref);
    if (e == TK_PASSREF_OK && to)
        e = tk_passref_extend(tl, &ref, to);
    g_test_message("spec \"%s\" to \"%s\": %s", spec, to ? to : "", tk_passref_error_name(e));
    if (json_object_has_member(c, "error")) {
        g_assert_cmpstr(tk_passref_error_name(e), ==, json_object_get_string_member(c, "error"));
        return;
    }
    g_assert_cmpstr(tk_passref_error_name(e), ==, "ok");
    JsonObject *w = json_object_get_object_member(c, "want");
    g_assert_cmpuint(ref.from, ==, (size_t)json_object_get_int_member(w, "from"));
    g_assert_cmpuint(ref.to, ==, (size_t)json_object_get_int_member(w, "to"));
    if (is_null(w, "sub"))
        g_assert_true(ref.sub == TK_TL_NONE);
    else
        g_assert_cmpuint(ref.sub, ==, (size_t)json_object_get_int_member(w, "sub"));
    char *f = tk_passref_format(&ref);
    g_assert_cmpstr(f, ==, json_object_get_string_member(c, "format"));
    /* the grammar's own form reads back as the same pass */
    tk_passref back;
    g_assert_cmpint(tk_passref_parse(tl, f, &back), ==, TK_PASSREF_OK);
    g_assert_cmpuint(back.from, ==, ref.from);
    g_assert_cmpuint(back.to, ==, ref.to);
    g_assert_true(back.sub == ref.sub);
    free(f);
}

static void test_shared_table(void)
{
    if (!tk_test_have_dumps())
        return;
    const char *src = g_getenv("TK_TEST_SRCDIR");
    g_assert_nonnull(src);
    char *table = g_build_filename(src, "passref_cases.json", NULL);
    JsonParser *p = json_parser_new();
    GError *err = NULL;
    g_assert_true(json_parser_load_from_file(p, table, &err));
    g_assert_no_error(err);
    JsonObject *root = json_node_get_object(json_parser_get_root(p));
    char *dir = tk_test_dump_path(json_object_get_string_member(root, "dump"));
    tk_diags *d = tk_diags_new();
    tk_bundle *b = tk_bundle_load(dir, NULL, d);
    g_assert_nonnull(b);
    const tk_kernel *k = tk_bundle_kernel(b, (size_t)json_object_get_int_member(root, "kernel"));
    tk_timeline *tl = tk_timeline_of_kernel(b, k, NULL, d);
    g_assert_nonnull(tl);
    JsonArray *cases = json_object_get_array_member(root, "cases");
    g_assert_cmpuint(json_array_get_length(cases), >=, 30);
    for (guint i = 0; i < json_array_get_length(cases); i++)
        check_case(tl, json_array_get_object_element(cases, i));
    tk_timeline_free(tl);
    tk_bundle_free(b);
    tk_diags_free(d);
    g_free(dir);
    g_object_unref(p);
    g_free(table);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/passref/shared-table", test_shared_table);
    return g_test_run();
}
