/* test_lines.c - where a line ends (tk_lines.h): the one rule the readers,
 * the report's source files and the viewer's text all split by.
 *
 * The CRLF text is a real one: the shared vector_add capture's
 * src/vector_add.py with its "\n" made "\r\n", which must split into the
 * same lines, with the same text, as the file itself (line 7, read by
 * hand: "def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE:
 * tl.constexpr):"). */
#include <string.h>

#include "tk_test.h"
#include "tkdump/tk_lines.h"

/* The lines of LEN bytes at DATA, as tk_lines_next() splits them. */
static GPtrArray *split(const char *data, size_t len)
{
    GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
    const char *p = data, *end = data + len;
    while (p < end) {
        const char *next;
        size_t n = tk_lines_next(p, end, &next);
        g_ptr_array_add(out, g_strndup(p, n));
        p = next;
    }
    return out;
}

static void test_ends(void)
{
    /* "\n" ends a line, and a "\r" before it is not part of it; a last
     * line without "\n" ends at the end, its final "\r" dropped too; a
     * lone "\r" inside a line is text. */
    const char *s = "a\r\nb\r c\n\nlast\r";
    GPtrArray *l = split(s, strlen(s));
    g_assert_cmpuint(l->len, ==, 4);
    g_assert_cmpstr(l->pdata[0], ==, "a");
    g_assert_cmpstr(l->pdata[1], ==, "b\r c");
    g_assert_cmpstr(l->pdata[2], ==, "");
    g_assert_cmpstr(l->pdata[3], ==, "last");
    g_ptr_array_unref(l);
    g_assert_cmpuint(tk_lines_trim("x\r", 2), ==, 1);
    g_assert_cmpuint(tk_lines_trim("x\r\r", 3), ==, 2);
    g_assert_cmpuint(tk_lines_trim("", 0), ==, 0);
}

static void test_crlf_source_reads_like_lf(void)
{
    if (!tk_test_have_dumps())
        return;
    char *path = tk_test_dump_path("vector_add/src/vector_add.py");
    char *lf;
    size_t len;
    g_assert_true(g_file_get_contents(path, &lf, &len, NULL));
    g_assert_null(memchr(lf, '\r', len));
    char **parts = g_strsplit(lf, "\n", -1);
    char *crlf = g_strjoinv("\r\n", parts);
    GPtrArray *a = split(lf, len), *b = split(crlf, strlen(crlf));
    g_assert_cmpuint(a->len, ==, b->len);
    for (guint i = 0; i < a->len; i++)
        g_assert_cmpstr(a->pdata[i], ==, b->pdata[i]);
    g_assert_cmpuint(a->len, >=, 7);
    g_assert_true(g_str_equal(a->pdata[6], "def add_kernel(x_ptr, y_ptr, output_ptr, "
                                         "n_elements, BLOCK_SIZE: tl.constexpr):"));
    g_ptr_array_unref(a);
    g_ptr_array_unref(b);
    g_strfreev(parts);
    g_free(crlf);
    g_free(lf);
    g_free(path);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/lines/ends", test_ends);
    g_test_add_func("/lines/crlf-source", test_crlf_source_reads_like_lf);
    return g_test_run();
}
