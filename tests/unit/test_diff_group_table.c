/* test_diff_group_table.c - a diff grouped around its changes and cut to a
 * budget (tk_diff_group(), tk_ir_diff_group_budget()), against the table
 * the report's test checks its copy of the rule with
 * (tests/diff_group_cases.json: its "about" works the values out). */
#include <json-glib/json-glib.h>
#include <string.h>

#include "tk_test.h"
#include "tkdump/tk_ir_diff.h"

typedef struct {
    GArray *groups; /* uint32_t[4] per group shown */
} collected;

static int collect(const tk_hunk *h, void *user)
{
    collected *c = user;
    if (h->tag == TK_HUNK_GROUP) {
        uint32_t g[4] = {h->a0, h->a1, h->b0, h->b1};
        g_array_append_vals(c->groups, g, 4);
    }
    return 0;
}

static char *joined(JsonArray *lines)
{
    GString *s = g_string_new(NULL);
    for (guint i = 0; i < json_array_get_length(lines); i++)
        g_string_append_printf(s, "%s\n", json_array_get_string_element(lines, i));
    return g_string_free(s, FALSE);
}

static void test_table(void)
{
    const char *src = g_getenv("TK_TEST_SRCDIR");
    g_assert_nonnull(src);
    char *path = g_build_filename(src, "diff_group_cases.json", NULL);
    JsonParser *p = json_parser_new();
    GError *err = NULL;
    g_assert_true(json_parser_load_from_file(p, path, &err));
    JsonObject *root = json_node_get_object(json_parser_get_root(p));
    char *a = joined(json_object_get_array_member(root, "a"));
    char *b = joined(json_object_get_array_member(root, "b"));
    tk_ir_diff *d = tk_ir_diff_texts(TK_IR_PLAIN, TK_STAGE_UNKNOWN, "a", a, strlen(a), "b", b,
                                     strlen(b), NULL);
    g_assert_nonnull(d);
    /* the hunks the table's cases start from */
    JsonArray *want_h = json_object_get_array_member(root, "hunks");
    size_t nh;
    const tk_hunk *h = tk_ir_diff_hunks(d, &nh);
    g_assert_cmpuint(nh, ==, json_array_get_length(want_h));
    for (size_t i = 0; i < nh; i++) {
        JsonArray *w = json_array_get_array_element(want_h, (guint)i);
        g_assert_cmpstr(tk_hunk_tag_name(h[i].tag), ==, json_array_get_string_element(w, 0));
        g_assert_cmpuint(h[i].a0, ==, json_array_get_int_element(w, 1));
        g_assert_cmpuint(h[i].a1, ==, json_array_get_int_element(w, 2));
        g_assert_cmpuint(h[i].b0, ==, json_array_get_int_element(w, 3));
        g_assert_cmpuint(h[i].b1, ==, json_array_get_int_element(w, 4));
    }
    JsonArray *cases = json_object_get_array_member(root, "cases");
    for (guint i = 0; i < json_array_get_length(cases); i++) {
        JsonObject *c = json_array_get_object_element(cases, i);
        g_test_message("case: %s", json_object_get_string_member(c, "why"));
        tk_ir_diff_budget bud = {.context = (uint32_t)json_object_get_int_member(c, "context"),
                                 .max_lines = (uint64_t)json_object_get_int_member(c, "maxLines")};
        collected col = {g_array_new(FALSE, FALSE, sizeof(uint32_t))};
        tk_ir_diff_cut cut;
        g_assert_cmpint(tk_ir_diff_group_budget(d, &bud, collect, &col, &cut), ==, 0);
        JsonArray *wg = json_object_get_array_member(c, "groups");
        g_assert_cmpuint(col.groups->len, ==, 4 * json_array_get_length(wg));
        for (guint g = 0; g < json_array_get_length(wg); g++) {
            JsonArray *w = json_array_get_array_element(wg, g);
            for (guint k = 0; k < 4; k++)
                g_assert_cmpuint(g_array_index(col.groups, uint32_t, 4 * g + k), ==,
                                 json_array_get_int_element(w, k));
        }
        g_assert_cmpuint(cut.lines_shown, ==, json_object_get_int_member(c, "shown"));
        g_assert_cmpuint(cut.lines_left, ==, json_object_get_int_member(c, "left"));
        g_array_free(col.groups, TRUE);
    }
    tk_ir_diff_free(d);
    g_free(a);
    g_free(b);
    g_object_unref(p);
    g_free(path);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/diff-group/shared-table", test_table);
    return g_test_run();
}
