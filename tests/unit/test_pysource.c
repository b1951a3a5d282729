/* test_pysource.c - a Python file's statements (tk_pysource.h): which lines
 * make the statement a line belongs to.  Expectations are read off the
 * source text; the real file is sample_dumps/attention_fwd's kernel. */
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "tk_test.h"
#include "tkdump/tk_pysource.h"

/* "F-L" for the statement of LINE, "-" for no code, "past" past the end. */
static char *extent(const tk_pysource *src, uint32_t line)
{
    uint32_t a, b;
    switch (tk_pysource_statement(src, line, &a, &b)) {
    case TK_PYLINE_CODE:
        return g_strdup_printf("%u-%u", a, b);
    case TK_PYLINE_NO_CODE:
        g_assert_cmpuint(a, ==, line);
        return g_strdup("-");
    default:
        g_assert_cmpuint(a, ==, line);
        return g_strdup("past");
    }
}

/* Checks every line of SRC_TEXT against WANT, one extent per line. */
static void check(const char *src_text, const char *const *want, size_t n)
{
    tk_pysource *src = tk_pysource_parse(src_text, strlen(src_text));
    g_assert_cmpuint(tk_pysource_line_count(src), ==, n);
    for (uint32_t l = 1; l <= n; l++) {
        char *got = extent(src, l);
        if (strcmp(got, want[l - 1]) != 0)
            g_error("line %u: got %s, want %s\n%s", l, got, want[l - 1], src_text);
        g_free(got);
    }
    char *past = extent(src, (uint32_t)n + 1);
    g_assert_cmpstr(past, ==, "past");
    g_free(past);
    past = extent(src, 0);
    g_assert_cmpstr(past, ==, "past");
    g_free(past);
    tk_pysource_free(src);
}

static void test_brackets_and_continuations(void)
{
    const char *text =
        "import triton\n"                          /* 1 */
        "\n"                                       /* 2 */
        "# a comment\n"                            /* 3 */
        "x = f(a,\n"                               /* 4 */
        "      # inside the call\n"                /* 5 */
        "\n"                                       /* 6 */
        "      b)  # ends here\n"                  /* 7 */
        "y = 1 + \\\n"                             /* 8 */
        "    2\n"                                  /* 9 */
        "z = [1, 2,\n"                             /* 10 */
        "     {3: (4,\n"                           /* 11 */
        "          5)}]; w = 0\n"                  /* 12 */
        "@decorator\n"                             /* 13 */
        "def g(p,\n"                               /* 14 */
        "      q):\n"                              /* 15 */
        "    return p)\n"                          /* 16: a stray ')' */
        "    pass\n";                              /* 17 */
    static const char *const want[] = {"1-1", "-", "-", "4-7", "4-7", "4-7", "4-7", "8-9",
                                       "8-9", "10-12", "10-12", "10-12", "13-13", "14-15",
                                       "14-15", "16-16", "17-17"};
    check(text, want, G_N_ELEMENTS(want));
}

static void test_strings(void)
{
    const char *text =
        "s = '(# not a comment'\n"                 /* 1 */
        "t = \"\"\"a docstring (\n"                /* 2 */
        "with ' and \" and # inside\n"             /* 3 */
        "\"\"\"\n"                                 /* 4 */
        "u = r'\\' + ('\n"                         /* 5: raw: \' does not end it */
        "v = (b'x',\n"                             /* 6 */
        "     f'{w[\"a\"]} {{(}}' +\n"             /* 7: f-string, nested quotes */
        "     f\"\"\"{(1,\n"                       /* 8: a field over lines */
        "     2)}\"\"\")\n"                        /* 9 */
        "elif_ = 'elif' 'x'\n"                     /* 10 */
        "bad = 'no end\n"                          /* 11: unterminated */
        "ok = 1\n";                                /* 12 */
    static const char *const want[] = {"1-1", "2-4", "2-4", "2-4", "5-5", "6-9",
                                       "6-9", "6-9", "6-9", "10-10", "11-11", "12-12"};
    check(text, want, G_N_ELEMENTS(want));
}

static void test_ends(void)
{
    /* No final newline; an unclosed bracket runs to the end; CRLF. */
    static const char *const want1[] = {"1-1", "2-3", "2-3"};
    check("a = 1\r\nb = (1,\r\n 2", want1, 3);
    static const char *const want2[] = {"1-3", "1-3", "1-3"};
    check("a = (\n\n1", want2, 3);
    tk_pysource *src = tk_pysource_parse("", 0);
    g_assert_cmpuint(tk_pysource_line_count(src), ==, 0);
    uint32_t a, b;
    g_assert_cmpint(tk_pysource_statement(src, 1, &a, &b), ==, TK_PYLINE_PAST_END);
    tk_pysource_free(src);
    /* Hostile: a million open brackets, then garbage: linear, one statement. */
    GString *g = g_string_new(NULL);
    for (int i = 0; i < 1000000; i++)
        g_string_append(g, i % 1000 ? "(" : "(\n");
    src = tk_pysource_parse(g->str, g->len);
    g_assert_cmpint(tk_pysource_statement(src, 500, &a, &b), ==, TK_PYLINE_CODE);
    g_assert_cmpuint(a, ==, 1);
    g_assert_cmpuint(b, ==, tk_pysource_line_count(src));
    tk_pysource_free(src);
    g_string_free(g, TRUE);
}

/* sample_dumps/attention_fwd/sources/0000-attention_fwd.py:
 *  17 def _attn_inner(acc, l_i, m_i, q, k_ptrs, v_ptrs, stride_n,
 *  18                 start_m, qk_scale, offs_m, offs_n,
 *  19                 BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
 *  20                 STAGE: tl.constexpr):
 *  21     # STAGE 1: the key blocks left of the diagonal; STAGE 2: ...
 *  33             causal = offs_m[:, None] >= (start_n + offs_n[None, :])
 *  70     # Off-band: every key block strictly left of the diagonal.
 *  71     acc, l_i, m_i = _attn_inner(acc, l_i, m_i, q, k_ptrs, v_ptrs, stride_n,
 *  72                                 start_m, qk_scale, offs_m, offs_n,
 *  73                                 BLOCK_M, BLOCK_N, STAGE=1)
 *  74     # On-band: the diagonal block, with the causal mask.
 *  75-77  the second call, wrapped the same way
 *  96     want = torch.nn.functional.scaled_dot_product_attention(
 *  97         q.float(), k.float(), v.float(), is_causal=True, scale=sm_scale)
 * 103     main()     (the last line) */
static void test_attention_fwd(void)
{
    char *path = g_build_filename(g_getenv("TK_TEST_SAMPLES"), "attention_fwd", "sources",
                                  "0000-attention_fwd.py", NULL);
    tk_diags *d = tk_diags_new();
    tk_pysource *src = tk_pysource_read(path, d);
    g_assert_nonnull(src);
    g_assert_cmpuint(tk_pysource_line_count(src), ==, 103);
    static const struct {
        uint32_t line;
        const char *want;
    } cases[] = {{1, "1-10"},   {10, "1-10"},  {17, "17-20"}, {20, "17-20"}, {21, "-"},
                 {33, "33-33"}, {70, "-"},     {71, "71-73"}, {72, "71-73"}, {73, "71-73"},
                 {74, "-"},     {75, "75-77"}, {77, "75-77"}, {96, "96-97"}, {103, "103-103"},
                 {104, "past"}};
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        char *got = extent(src, cases[i].line);
        g_assert_cmpstr(got, ==, cases[i].want);
        g_free(got);
    }
    tk_pysource_free(src);
    g_assert_null(tk_pysource_read("/nonexistent/x.py", d));
    g_assert_cmpuint(tk_diags_count(d), ==, 1);
    tk_diags_free(d);
    g_free(path);
}

/* A source is read as sources are (tk_input_file.h): a FIFO refused
 * without waiting for a writer, and a file over the 16 MiB a source may
 * have refused from its size (a sparse file: nothing is written). */
static void test_refused_files(void)
{
    char *dir = g_dir_make_tmp("pysource-XXXXXX", NULL);
    g_assert_nonnull(dir);
    char *fifo = g_build_filename(dir, "fifo.py", NULL);
    char *big = g_build_filename(dir, "big.py", NULL);
    g_assert_cmpint(mkfifo(fifo, 0600), ==, 0);
    FILE *f = fopen(big, "w");
    g_assert_nonnull(f);
    g_assert_cmpint(ftruncate(fileno(f), (off_t)17 << 20), ==, 0);
    fclose(f);
    tk_diags *d = tk_diags_new();
    g_assert_null(tk_pysource_read(fifo, d));
    g_assert_cmpuint(tk_diags_count(d), ==, 1);
    g_assert_nonnull(strstr(tk_diags_get(d, 0)->message, "a FIFO (named pipe)"));
    g_assert_null(tk_pysource_read(big, d));
    g_assert_cmpuint(tk_diags_count(d), ==, 2);
    g_assert_nonnull(strstr(tk_diags_get(d, 1)->message, "17825792 bytes, over the 16 MiB"));
    tk_diags_free(d);
    g_unlink(fifo);
    g_unlink(big);
    g_rmdir(dir);
    g_free(fifo);
    g_free(big);
    g_free(dir);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/pysource/brackets-continuations", test_brackets_and_continuations);
    g_test_add_func("/pysource/strings", test_strings);
    g_test_add_func("/pysource/ends", test_ends);
    g_test_add_func("/pysource/attention_fwd", test_attention_fwd);
    g_test_add_func("/pysource/refused-files", test_refused_files);
    return g_test_run();
}
