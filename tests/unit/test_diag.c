/* test_diag.c - compiler messages read from stream text (tk_diag.h), with
 * no bundle: the forms Triton 3.6 prints (copied from sample_dumps/raw's
 * stderr.txt and stdout.txt), and text that only looks like them. */
#include <string.h>

#include "tkdump/tk_diag.h"
#include "tk_test.h"

static tk_diag_set *read_text(const char *name, const char *text)
{
    tk_diag_set *set = tk_diag_set_new();
    tk_diag_set_read(set, name, text, strlen(text));
    tk_diag_set_attach(set, NULL, NULL, NULL);
    return set;
}

/* diag_ws_store/stderr.txt lines 142-143, 481-483, 531-532 (pass note
 * shortened), then its traceback's make_ttgir frame. */
static void test_mlir_messages_notes_and_failed_pass(void)
{
    const char *text =
        "/w/diag_ws_store.py:20:0: warning: FIXME: capturing tensor values\n"
        "/w/diag_ws_store.py:20:0: warning: FIXME: capturing tensor values\n"
        "/w/diag_ws_store.py:41:41: error: 'tt.descriptor_store' op must match\n"
        "        c_desc.store([offs_am, offs_bn], acc.to(tl.float16))\n"
        "                                        ^\n"
        "module {\n"
        "  tt.func public @k() {\n"
        "}\n"
        "/w/diag_ws_store.py:20:0: error: Failures have been detected\n"
        "/w/diag_ws_store.py:20:0: note: Pipeline failed while executing "
        "[`NVGPUWarpSpecialization` on 'builtin.module' operation]: x\n"
        "Traceback (most recent call last):\n"
        "  File \"/opt/v/site-packages/triton/backends/nvidia/compiler.py\", "
        "line 316, in make_ttgir\n"
        "    pm.run(mod, 'make_ttgir')\n"
        "RuntimeError: PassManager::run failed\n"
        "/w/other.py:3:4: remark: after the traceback\n";
    tk_diag_set *set = read_text("stderr", text);
    g_assert_cmpuint(tk_diag_set_count(set), ==, 4);
    const tk_diag_entry *w = tk_diag_set_entry(set, 0);
    g_assert_cmpint(w->level, ==, TK_DIAG_LEVEL_WARNING);
    g_assert_cmpuint(w->count, ==, 2); /* printed twice, listed once */
    g_assert_cmpstr(w->pass, ==, "NVGPUWarpSpecialization");
    const tk_diag_entry *e = tk_diag_set_entry(set, 1);
    g_assert_cmpint(e->origin, ==, TK_DIAG_ORIGIN_MLIR);
    g_assert_cmpint(e->level, ==, TK_DIAG_LEVEL_ERROR);
    g_assert_cmpstr(e->message, ==, "'tt.descriptor_store' op must match");
    g_assert_cmpuint(e->n_stack, ==, 1);
    g_assert_cmpstr(e->stack[0].file, ==, "/w/diag_ws_store.py");
    g_assert_cmpuint(e->stack[0].line, ==, 41);
    g_assert_cmpuint(e->stack[0].column, ==, 41);
    g_assert_cmpuint(e->n_notes, ==, 0);
    g_assert_cmpstr(e->pass, ==, "NVGPUWarpSpecialization");
    g_assert_cmpstr(e->pass_from, ==, "stream");
    g_assert_true(e->has_stage);
    g_assert_cmpint(e->stage, ==, TK_STAGE_TTGIR);
    g_assert_cmpuint(e->kernel, ==, SIZE_MAX); /* no bundle: unknown */
    const tk_diag_entry *f = tk_diag_set_entry(set, 2);
    g_assert_cmpuint(f->n_notes, ==, 1);
    g_assert_true(g_str_has_prefix(f->notes[0], "Pipeline failed"));
    /* After the traceback: another compile, no pass, no stage. */
    const tk_diag_entry *r = tk_diag_set_entry(set, 3);
    g_assert_cmpint(r->level, ==, TK_DIAG_LEVEL_REMARK);
    g_assert_null(r->pass);
    g_assert_false(r->has_stage);
    tk_diag_set_free(set);
}

/* diag_remarks/stdout.txt's serialized_dot_kernel block; a second
 * kernel's block without spills. */
static void test_ptxas_log(void)
{
    const char *text =
        "ptxas info    : (C7511) Potential Performance Loss: wgmma.mma_async "
        "instructions are serialized due to insufficient register resources "
        "for the wgmma pipeline in the function 'serialized_dot_kernel'\n"
        "ptxas info    : 0 bytes gmem\n"
        "ptxas info    : Compiling entry function 'serialized_dot_kernel' for 'sm_90a'\n"
        "ptxas info    : Function properties for serialized_dot_kernel\n"
        "    512 bytes stack frame, 1192 bytes spill stores, 936 bytes spill loads\n"
        "ptxas info    : Used 128 registers, used 1 barriers, 512 bytes cumulative "
        "stack size, 384 bytes cmem[0]\n"
        "ptxas info    : Compile time = 143.360 ms\n"
        "\n"
        "ptxas info    : Compiling entry function 'small' for 'sm_90a'\n"
        "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
        "ptxas info    : Used 42 registers, used 1 barriers\n"
        "ptxas info    : Compile time = 9.189 ms\n"
        "diag_remarks ok\n";
    tk_diag_set *set = read_text("stdout", text);
    g_assert_cmpuint(tk_diag_set_count(set), ==, 2);
    const tk_diag_entry *c = tk_diag_set_entry(set, 0);
    g_assert_cmpint(c->origin, ==, TK_DIAG_ORIGIN_PTXAS);
    g_assert_cmpstr(c->code, ==, "C7511");
    g_assert_true(g_str_has_prefix(c->message, "Potential Performance Loss"));
    g_assert_nonnull(tk_diag_entry_explain(c));
    g_assert_cmpstr(tk_diag_entry_explain(c)->key, ==, "C7511");
    const tk_diag_entry *s = tk_diag_set_entry(set, 1);
    g_assert_cmpstr(s->message, ==,
                    "512 bytes stack frame, 1192 bytes spill stores, 936 bytes spill loads");
    g_assert_cmpstr(tk_diag_entry_explain(s)->key, ==, "spill");
    /* Both kernels known by name only (no bundle). */
    g_assert_cmpuint(tk_diag_set_kernel_count(set), ==, 2);
    const tk_diag_kernel *k = tk_diag_set_kernel(set, c->kernel);
    g_assert_cmpstr(k->name, ==, "serialized_dot_kernel");
    g_assert_null(k->hash);
    g_assert_true(k->ptxas.present);
    g_assert_cmpint(k->ptxas.registers, ==, 128);
    g_assert_cmpint(k->ptxas.barriers, ==, 1);
    g_assert_cmpint(k->ptxas.spill_loads, ==, 936);
    g_assert_cmpint(k->ptxas.cumulative_stack, ==, 512);
    g_assert_cmpint(k->ptxas.cmem[0], ==, 384);
    g_assert_cmpint(k->ptxas.gmem, ==, 0);
    g_assert_false(k->failed);
    tk_diag_set_free(set);
}

/* diag_type_error/stderr.txt's last exception, the source found under
 * SOURCE_DIR by base name and checked line by line. */
static void test_frontend_error_line(void)
{
    char *dir = tk_test_make_tmp("diag-src-XXXXXX");
    char *src = g_build_filename(dir, "k.py", NULL);
    const char *py = "import triton\n\n@triton.jit\n"
                     "def bad_dot_kernel(x_ptr, BLOCK: tl.constexpr):\n"
                     "    x = tl.load(x_ptr)\n"
                     "    z = tl.dot(x, x)\n";
    g_assert_true(g_file_set_contents(src, py, -1, NULL));
    const char *text =
        "Traceback (most recent call last):\n"
        "  File \"/elsewhere/k.py\", line 29, in <module>\n"
        "    main()\n"
        "  File \"/opt/v/site-packages/triton/compiler/compiler.py\", line 80, in make_ir\n"
        "triton.compiler.errors.CompilationError: at 3:8:\n"
        "def bad_dot_kernel(x_ptr, BLOCK: tl.constexpr):\n"
        "    x = tl.load(x_ptr)\n"
        "    z = tl.dot(x, x)\n"
        "        ^\n"
        "input and other must have equal ranks >= 2\n";
    tk_diag_set *set = tk_diag_set_new();
    tk_diag_set_read(set, "stderr", text, strlen(text));
    tk_diag_set_attach(set, NULL, dir, NULL);
    g_assert_cmpuint(tk_diag_set_count(set), ==, 1);
    const tk_diag_entry *e = tk_diag_set_entry(set, 0);
    g_assert_cmpint(e->origin, ==, TK_DIAG_ORIGIN_FRONTEND);
    g_assert_cmpstr(e->message, ==, "input and other must have equal ranks >= 2");
    g_assert_cmpuint(e->n_stack, ==, 1);
    g_assert_cmpstr(e->stack[0].file, ==, "/elsewhere/k.py");
    g_assert_cmpuint(e->stack[0].line, ==, 6); /* def on line 4, + 3 - 1 */
    g_assert_cmpuint(e->stack[0].column, ==, 9);
    const tk_diag_kernel *k = tk_diag_set_kernel(set, e->kernel);
    g_assert_cmpstr(k->name, ==, "bad_dot_kernel");
    g_assert_true(k->failed);
    tk_diag_set_free(set);

    /* The file says something else at that place: no line, a note. */
    g_assert_true(g_file_set_contents(src, "def bad_dot_kernel(x):\n    pass\n", -1, NULL));
    set = tk_diag_set_new();
    tk_diag_set_read(set, "stderr", text, strlen(text));
    tk_diag_set_attach(set, NULL, dir, NULL);
    e = tk_diag_set_entry(set, 0);
    g_assert_cmpuint(e->n_stack, ==, 0);
    g_assert_cmpuint(e->n_notes, ==, 1);
    tk_diag_set_free(set);
    tk_test_remove_tree(dir);
    g_free(src);
    g_free(dir);
}

/* Text that only looks like messages, cut lines, no final newline: read
 * without a crash, nothing made up. */
static void test_lookalikes_and_long_lines(void)
{
    GString *g = g_string_new(NULL);
    g_string_append(g, "a:b:c: error: not numbers\n"
                       ":1:2: error: no path\n"
                       "x.py:0:1: remark: line 0\n"
                       "ptxas info    : Used registers\n"
                       "ptxas\n"
                       "ptxas fatal   \n"
                       "ptxas /t.ptx, line 9; error   : Arguments mismatch\n"
                       "  12 bytes stack frame\n"
                       "Traceback (most recent call last):\n"
                       "CompilationError: at 2:1:\n");
    for (int i = 0; i < 200000; i++)
        g_string_append_c(g, 'x');
    g_string_append(g, ": error: at the end of a long line");
    tk_diag_set *set = read_text("stderr", g->str);
    /* Only the ptxas error with a PTX line is a message. */
    g_assert_cmpuint(tk_diag_set_count(set), ==, 1);
    const tk_diag_entry *e = tk_diag_set_entry(set, 0);
    g_assert_cmpint(e->origin, ==, TK_DIAG_ORIGIN_PTXAS);
    g_assert_cmpuint(e->ir_line, ==, 9);
    g_assert_cmpstr(e->message, ==, "Arguments mismatch");
    tk_diag_set_free(set);
    g_string_free(g, TRUE);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/diag/mlir", test_mlir_messages_notes_and_failed_pass);
    g_test_add_func("/diag/ptxas", test_ptxas_log);
    g_test_add_func("/diag/frontend", test_frontend_error_line);
    g_test_add_func("/diag/lookalikes", test_lookalikes_and_long_lines);
    return g_test_run();
}
