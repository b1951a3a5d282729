/* test_capture_tee.c - what of a captured program's stdout is shown
 * (compiler/capture_tee.c): all but the ptxas log TRITON_DUMP_PTXAS_LOG
 * makes Triton print, on the raw captures' stdout.txt (sample_dumps/raw,
 * made under that knob) and on made-up streams; fed whole and a byte at a
 * time, which must show the same. */
#include <string.h>

#include "capture.h"
#include "tk_test.h"

/* STREAM through a filter in pieces of STEP bytes (0: whole). */
static char *shown(const char *stream, size_t len, size_t step,
                   uint64_t *hidden)
{
    cap_stdout_filter *f = cap_stdout_filter_new();
    GString *out = g_string_new(NULL);
    size_t piece = step ? step : MAX(len, (size_t)1);
    for (size_t at = 0; at < len; at += piece)
        cap_stdout_filter_feed(f, stream + at, MIN(piece, len - at), out);
    cap_stdout_filter_end(f, out);
    if (hidden)
        *hidden = cap_stdout_filter_hidden_lines(f);
    cap_stdout_filter_free(f);
    return g_string_free(out, FALSE);
}

/* Both ways of feeding agree; returns the text shown. */
static char *shown_both(const char *stream, size_t len, uint64_t *hidden)
{
    uint64_t h1, h2;
    char *a = shown(stream, len, 0, &h1);
    char *b = shown(stream, len, 1, &h2);
    g_assert_cmpstr(a, ==, b);
    g_assert_cmpuint(h1, ==, h2);
    g_free(b);
    *hidden = h1;
    return a;
}

/* NAME/stdout.txt of sample_dumps/raw/NAME.tar.xz; caller frees. */
static char *raw_stdout(const char *name, size_t *len)
{
    char *tar = g_build_filename(g_getenv("TK_TEST_SAMPLES"), "raw", NULL);
    char *cmd = g_strdup_printf("tar -xJOf %s/%s.tar.xz %s/stdout.txt", tar,
                                name, name);
    char *out = NULL;
    gint status = 0;
    g_assert_true(g_spawn_command_line_sync(cmd, &out, NULL, &status, NULL));
    g_assert_cmpint(status, ==, 0);
    *len = strlen(out);
    g_free(cmd);
    g_free(tar);
    return out;
}

/* diag_remarks' stdout: three ptxas logs (small_dot_kernel 6 lines,
 * spill_rows_kernel 6, serialized_dot_kernel 7 with its C7511, each and
 * print()'s blank line: 22) and the program's "diag_remarks ok". */
static void test_remarks(void)
{
    size_t len;
    char *s = raw_stdout("diag_remarks", &len);
    uint64_t hidden;
    char *got = shown_both(s, len, &hidden);
    g_assert_cmpstr(got, ==, "diag_remarks ok\n");
    g_assert_cmpuint(hidden, ==, 22);
    g_free(got);
    g_free(s);
}

/* autotune_matmul's: five configurations, each an "Autotuning kernel"
 * line and a 7-line log (6 and the blank); then Triton's 4 lines on the
 * best config and "autotune_matmul ok": 45 lines, 10 shown. */
static void test_autotune(void)
{
    size_t len;
    char *s = raw_stdout("autotune_matmul", &len);
    uint64_t hidden;
    char *got = shown_both(s, len, &hidden);
    g_assert_cmpuint(hidden, ==, 35);
    g_assert_null(strstr(got, "ptxas"));
    g_assert_true(g_str_has_prefix(
        got, "Autotuning kernel autotuned_matmul_kernel with config BLOCK_M: "
             "128, BLOCK_N: 128, BLOCK_K: 64, num_warps: 4, num_ctas: 1, "
             "num_stages: 3, maxnreg: None\nAutotuning kernel "));
    g_assert_true(g_str_has_suffix(got, "maxnreg: None;\nautotune_matmul ok\n"));
    size_t lines = 0;
    for (const char *p = got; *p; p++)
        lines += *p == '\n';
    g_assert_cmpuint(lines, ==, 10);
    g_free(got);
    g_free(s);
}

/* diag_ptxas_fatal's: Triton's failure banner (printed with or without the
 * knob) with the two "ptxas fatal" lines and the PTX: all shown. */
static void test_fatal_banner(void)
{
    size_t len;
    char *s = raw_stdout("diag_ptxas_fatal", &len);
    uint64_t hidden;
    char *got = shown_both(s, len, &hidden);
    g_assert_cmpuint(hidden, ==, 0);
    g_assert_cmpuint(strlen(got), ==, len);
    g_assert_true(memcmp(got, s, len) == 0);
    g_free(got);
    g_free(s);
}

static void test_made_up(void)
{
    uint64_t hidden;
    /* A line that starts like ptxas's but is the program's; a log that
     * does not end with a blank line; an indented line outside a log. */
    const char *a = "ptxas is fast\n"
                    "ptxas info    : Used 8 registers\n"
                    "the program's next line\n"
                    "    indented, the program's\n"
                    "progress 10%\rprogress 20%";
    char *got = shown_both(a, strlen(a), &hidden);
    g_assert_cmpstr(got, ==, a);
    g_assert_cmpuint(hidden, ==, 0);
    g_free(got);

    /* A log, CRLF ends (a program's stdout on a translating terminal), then
     * the program's line; an error line keeps its whole run shown. */
    const char *b = "ptxas info    : Used 8 registers\r\n"
                    "    0 bytes stack frame\r\n"
                    "\r\n"
                    "mine\n"
                    "ptxas info    : 0 bytes gmem\n"
                    "ptxas error   : Entry function 'k' uses too much shared data\n"
                    "\n"
                    "end";
    got = shown_both(b, strlen(b), &hidden);
    g_assert_cmpstr(got, ==, "mine\n"
                             "ptxas info    : 0 bytes gmem\n"
                             "ptxas error   : Entry function 'k' uses too much "
                             "shared data\n"
                             "\n"
                             "end");
    g_assert_cmpuint(hidden, ==, 3);
    g_free(got);

    /* A warning with a place is a log line; a held run at the end of the
     * stream is shown (it never ended with its blank line). */
    const char *c = "ptxas /tmp/x.ptx, line 5; warning : a warning\n"
                    "\n"
                    "ptxas info    : Used 8 registers\n";
    got = shown_both(c, strlen(c), &hidden);
    g_assert_cmpstr(got, ==, "ptxas info    : Used 8 registers\n");
    g_assert_cmpuint(hidden, ==, 2);
    g_free(got);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/capture/tee/diag-remarks", test_remarks);
    g_test_add_func("/capture/tee/autotune", test_autotune);
    g_test_add_func("/capture/tee/fatal-banner", test_fatal_banner);
    g_test_add_func("/capture/tee/made-up", test_made_up);
    return g_test_run();
}
