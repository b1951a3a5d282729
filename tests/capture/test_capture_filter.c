/* test_capture_filter.c - the filter that keeps pass dumps off the terminal
 * while a capture runs (compiler/capture_filter.c), on the real captures'
 * stderr and on made-up interleavings. */
#include <stdio.h>
#include <string.h>

#include "capture.h"
#include "tk_test.h"

typedef struct {
    uint64_t lines, shown;
    GPtrArray *shown_text;
} run_result;

/* Feeds the file at PATH line by line. */
static run_result filter_file(const char *path)
{
    run_result r = {0, 0, g_ptr_array_new_with_free_func(g_free)};
    FILE *f = fopen(path, "rb");
    g_assert_nonnull(f);
    cap_stderr_filter *t = cap_stderr_filter_new();
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, f)) >= 0) {
        if (n > 0 && line[n - 1] == '\n')
            n--;
        r.lines++;
        if (cap_stderr_filter_line(t, line, (size_t)n)) {
            r.shown++;
            g_ptr_array_add(r.shown_text, g_strndup(line, (gsize)n));
        }
    }
    g_assert_cmpuint(cap_stderr_filter_shown_lines(t), ==, r.shown);
    g_assert_cmpuint(cap_stderr_filter_dump_lines(t) + r.shown, ==, r.lines);
    free(line);
    fclose(f);
    cap_stderr_filter_free(t);
    return r;
}

/* Every shared capture's stderr is dump text only, except compiled_block's:
 * torch's TF32 warning (2 lines: "...compile_fx.py:322: UserWarning:
 * TensorFloat32 tensor cores..." and "  warnings.warn(") and 16 lines
 * "nvdisasm warning : Disassembling Std Elf to Old format..." (grep -c says
 * 16), all written between compiles. */
static void test_real_stderr(void)
{
    if (!tk_test_have_dumps())
        return;
    static const struct {
        const char *capture;
        uint64_t shown;
    } cases[] = {
        {"vector_add", 0}, {"vector_add_irloc_ttir", 0}, {"softmax", 0},
        {"matmul", 0}, {"matmul_irloc_ttgir", 0},
        {"persistent_tma_matmul", 0}, {"autotuned_matmul", 0},
        {"gluon_copy", 0}, {"compiled_block", 18},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        char *rel = g_strdup_printf("%s/stderr.txt", cases[i].capture);
        char *path = tk_test_dump_path(rel);
        run_result r = filter_file(path);
        g_test_message("%s: %" G_GUINT64_FORMAT " lines, %" G_GUINT64_FORMAT
                       " shown", cases[i].capture, r.lines, r.shown);
        g_assert_cmpuint(r.shown, ==, cases[i].shown);
        if (!strcmp(cases[i].capture, "compiled_block")) {
            const char *first = g_ptr_array_index(r.shown_text, 0);
            g_assert_nonnull(strstr(first, "compile_fx.py:322: UserWarning: "
                                           "TensorFloat32"));
            g_assert_cmpstr(g_ptr_array_index(r.shown_text, 1), ==,
                            "  warnings.warn(");
            for (guint k = 2; k < r.shown_text->len; k++)
                g_assert_true(g_str_has_prefix(
                    g_ptr_array_index(r.shown_text, k), "nvdisasm warning : "));
        }
        g_ptr_array_free(r.shown_text, TRUE);
        g_free(path);
        g_free(rel);
    }
}

/* Feeds LINES (NULL-terminated) and returns the shown ones joined by "|". */
static char *shown(const char *const *lines)
{
    cap_stderr_filter *t = cap_stderr_filter_new();
    GString *s = g_string_new(NULL);
    for (size_t i = 0; lines[i]; i++)
        if (cap_stderr_filter_line(t, lines[i], strlen(lines[i])))
            g_string_append_printf(s, "%s%s", s->len ? "|" : "", lines[i]);
    cap_stderr_filter_free(t);
    return g_string_free(s, FALSE);
}

static void test_messages_inside_dumps(void)
{
    /* A traceback in the middle of an LLVM dump: a compile that failed. */
    const char *a[] = {
        "before any dump",
        "; *** IR Dump After InstCombinePass on add_kernel ***",
        "define void @add_kernel(ptr %0) {",
        "handleError:                                      ; preds = %5",
        "  ret void",
        "}",
        "Running pass: GVNPass on add_kernel",
        "Traceback (most recent call last):",
        "  File \"k.py\", line 3, in <module>",
        "triton.compiler.errors.CompilationError: at 3:4: bad",
        NULL};
    char *got = shown(a);
    g_assert_cmpstr(got, ==,
                    "before any dump|Traceback (most recent call last):|  File "
                    "\"k.py\", line 3, in <module>|"
                    "triton.compiler.errors.CompilationError: at 3:4: bad");
    g_free(got);

    /* A bare exception name ends a dump too (Python's last line after ^C). */
    const char *e[] = {"; *** IR Dump After X on k ***", "define void @k() {",
                       "KeyboardInterrupt", NULL};
    got = shown(e);
    g_assert_cmpstr(got, ==, "KeyboardInterrupt");
    g_free(got);

    /* An MLIR dump ends with its module; aliases after it are its own. */
    const char *b[] = {
        "// -----// SoftwarePipeliner internal IR Dump After: LowerLoops",
        "#loc = loc(\"k.py\":1:0)",
        "module {",
        "  tt.func public @k() {",
        "  }",
        "}",
        "",
        "#loc1 = loc(\"k.py\":2:0)",
        "k.py:7:3: error: something the compiler says",
        "  more of the message",
        NULL};
    got = shown(b);
    g_assert_cmpstr(got, ==, "k.py:7:3: error: something the compiler says|"
                             "  more of the message");
    g_free(got);

    /* The assembly printer's dump ends a compile: what follows is shown,
     * except the blank lines that close the dump. */
    const char *c[] = {
        "# *** IR Dump After NVPTX Assembly Printer (nvptx-asm-printer) ***:",
        "# Machine code for function k: IsSSA",
        "  Return",
        "",
        "# End machine code for function k.",
        "",
        "",
        "W1121 07:56:12.345000 12 torch/_inductor/x.py:9] a torch log line",
        "plain program output",
        NULL};
    got = shown(c);
    g_assert_cmpstr(got, ==, "W1121 07:56:12.345000 12 torch/_inductor/x.py:9] "
                             "a torch log line|plain program output");
    g_free(got);

    /* A machine dump that is not the last one goes on to the next header. */
    const char *d[] = {
        "# *** IR Dump After Machine Sinking (machine-sink) ***:",
        "# Machine code for function k: IsSSA",
        "# End machine code for function k.",
        "",
        "bb.0 (%ir-block.6):",
        "Running analysis: X",
        NULL};
    got = shown(d);
    g_assert_cmpstr(got, ==, "");
    g_free(got);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/capture/filter/real-stderr", test_real_stderr);
    g_test_add_func("/capture/filter/messages-inside-dumps",
                    test_messages_inside_dumps);
    return g_test_run();
}
