/* test_text.c - text loading, line index, line maps, interning, diagnostics. */
#include <glib/gstdio.h>
#include <string.h>

#include "read/linemap.h"
#include "util/text.h"
#include "tk_test.h"

static void test_lines_lf_crlf_and_last_line(void)
{
    text_buf t;
    const char *src = "a\r\nbb\n\nccc";
    g_assert_cmpint(text_from_memory(&t, "mem", src, strlen(src), NULL), ==, 0);
    g_assert_cmpuint(t.n_lines, ==, 4);
    size_t len;
    const char *l = text_line(&t, 1, &len);
    g_assert_cmpuint(len, ==, 1);
    g_assert_cmpint(l[0], ==, 'a');
    text_line(&t, 2, &len);
    g_assert_cmpuint(len, ==, 2);
    text_line(&t, 3, &len);
    g_assert_cmpuint(len, ==, 0);
    l = text_line(&t, 4, &len);
    g_assert_cmpuint(len, ==, 3);
    g_assert_true(memcmp(l, "ccc", 3) == 0);
    text_clear(&t);

    g_assert_cmpint(text_from_memory(&t, "mem", "", 0, NULL), ==, 0);
    g_assert_cmpuint(t.n_lines, ==, 0);
    text_clear(&t);
    g_assert_cmpint(text_from_memory(&t, "mem", "x\n", 2, NULL), ==, 0);
    g_assert_cmpuint(t.n_lines, ==, 1);
    text_clear(&t);
}

static void test_read_refuses_binary_and_missing(void)
{
    tk_diags *d = tk_diags_new();
    text_buf t;
    g_assert_cmpint(text_read(&t, "/nonexistent/tkview/file.ttgir", d), ==, -1);
    g_assert_cmpuint(tk_diags_count_at_least(d, TK_DIAG_ERROR), ==, 1);
    g_assert_cmpstr(tk_diags_get(d, 0)->file, ==, "/nonexistent/tkview/file.ttgir");

    char *path = tk_test_tmp_path("test-binary.bin");
    g_assert_true(g_file_set_contents(path, "abc\0def", 7, NULL));
    g_assert_cmpint(text_read(&t, path, d), ==, -1);
    g_assert_nonnull(strstr(tk_diags_get(d, 1)->message, "binary"));
    g_unlink(path);
    g_free(path);
    tk_diags_free(d);
}

static void test_linemap_groups_by_line(void)
{
    read_linemap_builder b;
    read_linemap_builder_init(&b);
    read_linemap_add(&b, 3, 7);
    read_linemap_add(&b, 1, 5);
    read_linemap_add(&b, 3, 2);
    read_linemap_add(&b, 3, 7); /* repeat, dropped */
    read_linemap_add(&b, 9, 1); /* past the end, dropped */
    read_linemap m;
    read_linemap_finish(&b, 4, &m);
    const tk_stack_id *ids;
    g_assert_cmpuint(read_linemap_get(&m, 1, &ids), ==, 1);
    g_assert_cmpuint(ids[0], ==, 5);
    g_assert_cmpuint(read_linemap_get(&m, 2, &ids), ==, 0);
    g_assert_cmpuint(read_linemap_get(&m, 3, &ids), ==, 2);
    g_assert_cmpuint(ids[0], ==, 7); /* order of discovery kept */
    g_assert_cmpuint(ids[1], ==, 2);
    g_assert_cmpuint(read_linemap_get(&m, 5, &ids), ==, 0);
    g_assert_cmpuint(m.n_located, ==, 2);
    read_linemap_clear(&m);
}

static void test_loctab_interns(void)
{
    tk_loctab *tab = tk_loctab_new();
    tk_file_id a = tk_loctab_file(tab, "/x/a.py", 7);
    tk_file_id b = tk_loctab_file(tab, "/x/b.py", 7);
    g_assert_cmpuint(a, !=, b);
    g_assert_cmpuint(tk_loctab_file(tab, "/x/a.pyZZ", 7), ==, a);
    tk_frame f[2] = {{a, 3, 4}, {b, 10, 0}};
    tk_stack_id s1 = tk_loctab_stack(tab, f, 2);
    tk_stack_id s2 = tk_loctab_stack(tab, f, 1);
    g_assert_cmpuint(s1, !=, s2);
    /* Many more stacks: earlier frame pointers must stay valid. */
    size_t n;
    const tk_frame *kept = tk_loctab_stack_frames(tab, s1, &n);
    for (uint32_t i = 0; i < 100000; i++) {
        tk_frame g = {a, i + 100, 1};
        tk_loctab_stack(tab, &g, 1);
    }
    g_assert_cmpuint(tk_loctab_stack(tab, f, 2), ==, s1);
    g_assert_true(kept == tk_loctab_stack_frames(tab, s1, &n));
    g_assert_cmpuint(n, ==, 2);
    g_assert_cmpuint(kept[1].line, ==, 10);
    tk_loctab_free(tab);
}

static void test_diags_cap_floods(void)
{
    tk_diags *d = tk_diags_new();
    for (int i = 0; i < TK_DIAGS_PER_FILE + 50; i++)
        tk_diags_add(d, TK_DIAG_WARNING, "f.ttgir", (uint64_t)i + 1, "bad %d", i);
    tk_diags_add(d, TK_DIAG_ERROR, "g.ptx", 0, "other");
    g_assert_cmpuint(tk_diags_count(d), ==, TK_DIAGS_PER_FILE + 2);
    const tk_diag *last = tk_diags_get(d, tk_diags_count(d) - 1);
    g_assert_cmpstr(last->file, ==, "f.ttgir");
    g_assert_nonnull(strstr(last->message, "50 more"));
    tk_diags_free(d);
    tk_diags_free(NULL);
}

static void test_sniff(void)
{
    g_assert_cmpint(tk_stage_kind_sniff("; ModuleID = 'x'\n", 17), ==, TK_STAGE_LLIR);
    const char *ttg = "#blocked = #ttg.blocked<{}>\nmodule attributes {\"ttg.num-warps\" = 4 : i32} {\n";
    g_assert_cmpint(tk_stage_kind_sniff(ttg, strlen(ttg)), ==, TK_STAGE_TTGIR);
    const char *tt = "#loc = loc(\"a.py\":1:0)\nmodule {\n  tt.func public @k() {\n";
    g_assert_cmpint(tk_stage_kind_sniff(tt, strlen(tt)), ==, TK_STAGE_TTIR);
    const char *ptx = "//\n.version 8.7\n.target sm_90a\n";
    g_assert_cmpint(tk_stage_kind_sniff(ptx, strlen(ptx)), ==, TK_STAGE_PTX);
    g_assert_cmpint(tk_stage_kind_sniff("\x7f" "ELF\0\0", 6), ==, TK_STAGE_UNKNOWN);
    g_assert_cmpint(tk_stage_kind_parse("LLVM"), ==, TK_STAGE_LLIR);
    g_assert_cmpint(tk_stage_kind_parse("nope"), ==, TK_STAGE_UNKNOWN);
}

/* Every final stage of every shared capture is recognized by its content
 * alone; text that merely mentions IR words is not. */
static void test_sniff_real_files(void)
{
    if (!tk_test_have_dumps())
        return;
    static const char *const subs[] = {"kernel_dump", "cache", NULL};
    static const struct {
        const char *suffix;
        tk_stage_kind kind;
    } cases[] = {{".ttir", TK_STAGE_TTIR}, {".ttgir", TK_STAGE_TTGIR},
                 {".llir", TK_STAGE_LLIR}, {".ptx", TK_STAGE_PTX},
                 {".sass_gi", TK_STAGE_SASS}};
    for (size_t c = 0; c < G_N_ELEMENTS(cases); c++) {
        GPtrArray *paths = tk_test_shared_files(subs, cases[c].suffix);
        g_assert_cmpuint(paths->len, >=, 26);
        for (guint i = 0; i < paths->len; i++) {
            char *data;
            gsize len;
            g_assert_true(g_file_get_contents(g_ptr_array_index(paths, i), &data, &len, NULL));
            if (tk_stage_kind_sniff(data, len) != cases[c].kind)
                g_error("%s: sniffed as %s", (char *)g_ptr_array_index(paths, i),
                        tk_stage_kind_name(tk_stage_kind_sniff(data, len)));
            g_free(data);
        }
        g_ptr_array_free(paths, TRUE);
    }
    /* A config file whose comments say "#local" and "module": not IR. */
    const char *conf = "# wgetrc\n#local_encoding = UTF-8\n# module attributes are...\n";
    g_assert_cmpint(tk_stage_kind_sniff(conf, strlen(conf)), ==, TK_STAGE_UNKNOWN);
    const char *readme = "Read the .version notes.\nThe define keyword\n";
    g_assert_cmpint(tk_stage_kind_sniff(readme, strlen(readme)), ==, TK_STAGE_UNKNOWN);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/text/lines", test_lines_lf_crlf_and_last_line);
    g_test_add_func("/text/read-errors", test_read_refuses_binary_and_missing);
    g_test_add_func("/linemap/groups", test_linemap_groups_by_line);
    g_test_add_func("/loctab/interns", test_loctab_interns);
    g_test_add_func("/diags/cap", test_diags_cap_floods);
    g_test_add_func("/stage/sniff", test_sniff);
    g_test_add_func("/stage/sniff-real", test_sniff_real_files);
    return g_test_run();
}
