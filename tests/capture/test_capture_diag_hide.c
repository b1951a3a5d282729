/* test_capture_diag_hide.c - the MLIR remarks and warnings capture's
 * MLIR_ENABLE_DIAGNOSTICS adds, kept off the terminal
 * (compiler/capture_diag_hide.c) unless the user's own knob asks for them,
 * on the raw captures' stderr (sample_dumps/raw, through the dump filter as
 * capture runs it) and on made-up streams. */
#include <string.h>

#include "capture.h"
#include "tk_test.h"

/* The lines of STREAM the dump filter shows, then those the diagnostics
 * filter at LEVEL shows, joined; *HIDDEN its count. */
static char *terminal(const char *stream, int level, uint64_t *hidden)
{
    cap_stderr_filter *f = cap_stderr_filter_new();
    cap_diag_hide *h = cap_diag_hide_new(level);
    GString *out = g_string_new(NULL);
    char **lines = g_strsplit(stream, "\n", -1);
    for (char **l = lines; *l; l++) {
        if (!l[1] && !**l)
            break; /* after the last newline */
        if (!cap_stderr_filter_line(f, *l, strlen(*l)))
            continue;
        char *line = g_strconcat(*l, "\n", NULL);
        cap_diag_hide_line(h, line, strlen(line), out);
        g_free(line);
    }
    cap_diag_hide_end(h, out);
    *hidden = cap_diag_hide_hidden_lines(h);
    g_strfreev(lines);
    cap_diag_hide_free(h);
    cap_stderr_filter_free(f);
    return g_string_free(out, FALSE);
}

/* The first BYTES of NAME/stderr.txt of sample_dumps/raw/NAME.tar.xz. */
static char *raw_stderr(const char *name, int bytes)
{
    char *cmd = g_strdup_printf("sh -c 'tar -xJOf %s/raw/%s.tar.xz %s/stderr.txt | head -c %d'",
                                g_getenv("TK_TEST_SAMPLES"), name, name, bytes);
    char *out = NULL;
    gint status = 0;
    g_assert_true(g_spawn_command_line_sync(cmd, &out, NULL, &status, NULL));
    g_assert_cmpint(status, ==, 0);
    g_free(cmd);
    return out;
}

/* diag_remarks' stderr (its first 200 KB hold every message): lines 1-8 are
 * the remark twice, each "PATH:28:18: remark: MMA version 3 ...", the
 * source line "    c = tl.dot(a, b)", the caret line and the note; the
 * rest is dump text.  Triton without the knob shows none of it. */
static void test_remarks(void)
{
    char *s = raw_stderr("diag_remarks", 200000);
    uint64_t hidden;
    char *got = terminal(s, 0, &hidden);
    g_assert_cmpstr(got, ==, "");
    g_assert_cmpuint(hidden, ==, 8);
    g_free(got);
    /* MLIR_ENABLE_DIAGNOSTICS=remarks of the user's own: all 8 shown */
    got = terminal(s, 2, &hidden);
    g_assert_cmpuint(hidden, ==, 0);
    g_assert_true(g_str_has_prefix(got, "/work/main/compiler/examples/triton/"
                                        "diag_remarks.py:28:18: remark: MMA version 3"));
    g_assert_nonnull(strstr(got, "\n    c = tl.dot(a, b)\n                 ^\n"));
    g_free(got);
    g_free(s);
}

/* diag_ws_store's (grep -n): lines 142-145 four "PATH:20:0: warning: FIXME:
 * capturing tensor values ..." without a snippet; line 481 the error
 * "PATH:41:41: error: 'tt.descriptor_store' op ..." with its source line and
 * caret (482-483); lines 531-532 the pipeline's error and its note; then
 * the RuntimeError traceback.  The warnings go, the errors stay. */
static void test_ws_store(void)
{
    char *s = raw_stderr("diag_ws_store", 1 << 20);
    uint64_t hidden;
    char *got = terminal(s, 0, &hidden);
    g_assert_cmpuint(hidden, ==, 4);
    g_assert_null(strstr(got, ": warning: "));
    g_assert_nonnull(strstr(got, "diag_ws_store.py:41:41: error: 'tt.descriptor_store' op"));
    g_assert_nonnull(strstr(got, "\n        c_desc.store([offs_am, offs_bn], acc.to(tl.float16))\n"));
    g_assert_nonnull(strstr(got, "diag_ws_store.py:20:0: note: Pipeline failed while executing"));
    g_assert_nonnull(strstr(got, "Traceback (most recent call last):\n"));
    g_free(got);
    got = terminal(s, 1, &hidden); /* warnings asked for */
    g_assert_cmpuint(hidden, ==, 0);
    g_free(got);
    g_free(s);
}

static void test_made_up(void)
{
    uint64_t hidden;
    /* A remark without a snippet, then the program's lines: an indented
     * one is held a line to see that no caret follows, then shown. */
    const char *a = "k.py:3:4: remark: r\n"
                    "k.py:3:4: note: n\n"
                    "    mine, indented\n"
                    "mine\n"
                    "k.py:5:1: error: e\n"
                    "k.py:5:1: note: its note\n";
    char *got = terminal(a, 0, &hidden);
    g_assert_cmpstr(got, ==, "    mine, indented\nmine\nk.py:5:1: error: e\nk.py:5:1: note: its note\n");
    g_assert_cmpuint(hidden, ==, 2);
    g_free(got);
    /* A held line at the end of the stream is shown. */
    got = terminal("k.py:3:4: warning: w\n    last\n", 0, &hidden);
    g_assert_cmpstr(got, ==, "    last\n");
    g_assert_cmpuint(hidden, ==, 1);
    g_free(got);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/capture/diag-hide/remarks", test_remarks);
    g_test_add_func("/capture/diag-hide/ws-store", test_ws_store);
    g_test_add_func("/capture/diag-hide/made-up", test_made_up);
    return g_test_run();
}
