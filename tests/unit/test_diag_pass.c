/* test_diag_pass.c - a message's pass placed on a timeline
 * (tk_diag_pass.h), on the real MLIR pass dumps of the raw capture
 * sample_dumps/raw/diag_ws_store (its mlir_passes.txt: one kernel,
 * persistent_matmul_kernel, 31 "IR Dump Before" headers then an "IR Dump
 * After NVGPUWarpSpecialization Failed").  Read by hand from that file:
 *   line 3330 "IR Dump Before NVGPUWarpSpecialization" is the 31st header:
 *     pass 30, its only run (3431 is its After ... Failed, the same pass);
 *   Canonicalizer: 9 headers (on the module or one function) at lines 183,
 *     365, 535, 691, ... the last at 3128, the 29th header: pass 28;
 *   line 2215 "IR Dump Before TritonGPUAccelerateMatmul", the 20th
 *     header and the only one of that name: pass 19.
 * The messages are the capture's own stderr lines (531-532: the failed
 * pipeline's note), and made-up names for the other rules. */
#include <stdlib.h>
#include <string.h>

#include "tkdump/tk_diag.h"
#include "tkdump/tk_diag_pass.h"
#include "tkdump/tk_passes.h"
#include "tkdump/tk_timeline.h"
#include "tk_test.h"

static tk_passes *passes;
static tk_timeline *tl;

static void open_timeline(void)
{
    char *dir = tk_test_make_tmp("diag-pass-XXXXXX");
    char *path = g_build_filename(dir, "mlir_passes.txt", NULL);
    char *cmd = g_strdup_printf("tar -xJOf '%s/raw/diag_ws_store.tar.xz' "
                                "diag_ws_store/mlir_passes.txt > '%s'",
                                g_getenv("TK_TEST_SAMPLES"), path);
    g_assert_cmpint(system(cmd), ==, 0);
    passes = tk_passes_index(path, NULL);
    g_assert_nonnull(passes);
    g_assert_cmpuint(tk_passes_seq_count(passes), ==, 1);
    tk_timeline_part part = {passes, 0};
    tk_timeline_opts o = {.flags = TK_TIMELINE_NO_MEASURE};
    tl = tk_timeline_build(&part, 1, NULL, &o, NULL);
    g_assert_nonnull(tl);
    g_free(cmd);
    g_free(path);
    g_free(dir);
}

/* The first message of TEXT read as stderr, in a set the caller frees. */
static const tk_diag_entry *one(const char *text, tk_diag_set **set)
{
    *set = tk_diag_set_new();
    tk_diag_set_read(*set, "stderr", text, strlen(text));
    tk_diag_set_attach(*set, NULL, NULL, NULL);
    g_assert_cmpuint(tk_diag_set_count(*set), >=, 1);
    return tk_diag_set_entry(*set, 0);
}

static void test_failed_pipeline_is_its_last_run(void)
{
    tk_diag_set *set;
    const tk_diag_entry *e = one(
        "/w/diag_ws_store.py:41:41: error: 'tt.descriptor_store' op must match\n"
        "/w/diag_ws_store.py:20:0: error: Failures have been detected\n"
        "/w/diag_ws_store.py:20:0: note: Pipeline failed while executing "
        "[`NVGPUWarpSpecialization` on 'builtin.module' operation]: x\n", &set);
    tk_diag_step s = tk_diag_entry_step(e, tl);
    g_assert_cmpint(s.how, ==, TK_DIAG_STEP_FAILED_RUN);
    g_assert_cmpuint(s.step, ==, 30);
    g_assert_cmpuint(s.n_runs, ==, 1);
    g_assert_cmpuint(s.run, ==, 0);
    g_assert_cmpstr(tk_diag_step_how_name(s.how), ==, "failed-run");
    tk_diag_set_free(set);

    /* A pipeline failing in a pass that ran many times: its last run. */
    e = one("/w/k.py:20:0: error: Failures have been detected\n"
            "/w/k.py:20:0: note: Pipeline failed while executing "
            "[`Canonicalizer` on 'builtin.module' operation]: x\n", &set);
    s = tk_diag_entry_step(e, tl);
    g_assert_cmpint(s.how, ==, TK_DIAG_STEP_FAILED_RUN);
    g_assert_cmpuint(s.step, ==, 28);
    g_assert_cmpuint(s.n_runs, ==, 9);
    g_assert_cmpuint(s.run, ==, 8);
    char *say = tk_diag_step_sentence(&s);
    g_assert_cmpstr(say, ==, "step 28 of `tkview passes` (run 9 of 9: the pipeline "
                             "failed in it)");
    g_free(say);
    tk_diag_set_free(set);
}

/* A pass that ran several times, named by no failed pipeline: no step,
 * and the words say why. */
static void test_several_runs_no_step(void)
{
    tk_diag_entry e = {0};
    e.pass = "Canonicalizer"; /* as the known-message table would name it */
    tk_diag_step s = tk_diag_entry_step(&e, tl);
    g_assert_cmpint(s.how, ==, TK_DIAG_STEP_SEVERAL);
    g_assert_cmpuint(s.step, ==, TK_TL_NONE);
    g_assert_cmpuint(s.n_runs, ==, 9);
    char *say = tk_diag_step_sentence(&s);
    g_assert_cmpstr(say, ==, "it ran 9 times; which run printed this is unknown");
    g_free(say);
}

static void test_table_pass_only_run_no_pass_not_run(void)
{
    /* The MMA-v3 remark: its pass is the known-message table's. */
    tk_diag_set *set;
    const tk_diag_entry *e = one(
        "/w/k.py:28:18: remark: MMA version 3 acceleration not applied due "
        "to unsupported shapes or data types.\n", &set);
    g_assert_cmpstr(e->pass, ==, "TritonGPUAccelerateMatmul");
    tk_diag_step s = tk_diag_entry_step(e, tl);
    g_assert_cmpint(s.how, ==, TK_DIAG_STEP_ONLY_RUN);
    g_assert_cmpuint(s.step, ==, 19);
    g_assert_cmpuint(s.n_runs, ==, 1);
    char *say = tk_diag_step_sentence(&s);
    g_assert_cmpstr(say, ==, "step 19 of `tkview passes` (its only run)");
    g_free(say);
    tk_diag_set_free(set);

    /* NULL pass, a name no step has, no timeline */
    e = one("/w/k.py:3:4: remark: something else\n", &set);
    g_assert_null(e->pass);
    s = tk_diag_entry_step(e, tl);
    g_assert_cmpint(s.how, ==, TK_DIAG_STEP_NO_PASS);
    g_assert_cmpuint(s.step, ==, TK_TL_NONE);
    g_assert_null(tk_diag_step_sentence(&s));
    tk_diag_set_free(set);
    e = one("/w/k.py:20:0: error: Failures have been detected\n"
            "/w/k.py:20:0: note: Pipeline failed while executing "
            "[`NoSuchPass` on 'builtin.module' operation]: x\n", &set);
    s = tk_diag_entry_step(e, tl);
    g_assert_cmpint(s.how, ==, TK_DIAG_STEP_NOT_RUN);
    g_assert_cmpuint(s.step, ==, TK_TL_NONE);
    s = tk_diag_entry_step(e, NULL);
    g_assert_cmpint(s.how, ==, TK_DIAG_STEP_NOT_RUN);
    say = tk_diag_step_sentence(&s);
    g_assert_cmpstr(say, ==, "no such step in the kernel's pass dumps");
    g_free(say);
    tk_diag_set_free(set);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    open_timeline();
    g_test_add_func("/diag_pass/failed_pipeline", test_failed_pipeline_is_its_last_run);
    g_test_add_func("/diag_pass/table_only_no_pass_not_run", test_table_pass_only_run_no_pass_not_run);
    g_test_add_func("/diag_pass/several_runs", test_several_runs_no_step);
    int rc = g_test_run();
    tk_timeline_free(tl);
    tk_passes_free(passes);
    return rc;
}
