/* capture_triton.c - capturing a Triton program: the dump knobs, the run,
 * SASS, and --kernel.
 *
 * The program runs with Triton's dump knobs pointing into WORK/run:
 *
 *   TRITON_ALWAYS_COMPILE=1      compile even what a cache would have
 *   TRITON_KERNEL_DUMP=1         final stages per kernel ...
 *   TRITON_DUMP_DIR=run/kernel_dump      ... here
 *   TRITON_CACHE_DIR=run/cache   a private cache: metadata (NAME.json)
 *   MLIR_ENABLE_DUMP=1 (or NAME) every MLIR pass dump ...
 *   MLIR_DUMP_PATH=run/mlir_passes.txt   ... into this file
 *   LLVM_IR_ENABLE_DUMP=1        LLVM print-after-all, on stderr
 *   MLIR_ENABLE_DIAGNOSTICS=warnings,remarks   MLIR's remarks and
 *                                warnings (why a dot got no wgmma, ...),
 *                                on stderr
 *   TRITON_DUMP_PTXAS_LOG=1      ptxas's log per kernel (registers,
 *                                spills, C75xx warnings), on stdout
 *   TORCHINDUCTOR_CACHE_DIR=run/inductor   torch.compile's generated code
 *   TKVIEW_LLVM_OPTIONS=-filter-print-funcs=NAME   with --kernel NAME:
 *                                for the hook, LLVM's dumps of NAME only
 *   TKVIEW_LLVM_CHANGED=run/llvm_mode   for the hook: -print-changed
 *                                instead of print-after-all, and what each
 *                                process got (capture_llvm_mode.c)
 *   TKVIEW_TRITON_SASS=skip      for the hook, where nvdisasm is found:
 *                                no Triton NAME.sass (cuobjdump) in the
 *                                kernel dump; nvdisasm's NAME.sass_gi is
 *                                the SASS shown
 *   USE_IR_LOC=ttir|ttgir        with --irloc
 *   TKVIEW_TARGET=hip:gfx942     with --target: for the program to read
 *   LD_PRELOAD=libtkview-stderr-batch.so   its writes to stderr batched
 *                                (LLVM's dumps: capture_batch.c)
 *   PYTHONPATH=HOOK:$PYTHONPATH  tkview's sitecustomize (compiler/python),
 *   TKVIEW_AUTOTUNE_DIR=run/autotune   which writes the timings of every
 *                                configuration Triton's autotuner benchmarked
 *                                here (the user's own sitecustomize still
 *                                runs; TKVIEW_PYTHON_DIR overrides where the
 *                                hook is, for tests)
 *   TKVIEW_COMPILES_DIR=run/compiles   and, through Triton's stage hook,
 *                                keeps each compile's dumps in a file of its
 *                                own there (HASH.PID.N.txt): stderr is that
 *                                file while a stage of the compile runs.
 *                                MLIR_DUMP_PATH is then left unset, so that
 *                                MLIR's dumps go to stderr too (Triton opens
 *                                MLIR_DUMP_PATH once per process, truncating
 *                                it: parallel compile workers would write
 *                                over each other), and Inductor compiles in
 *                                its parallel workers as it does without
 *                                tkview.  TKVIEW_MLIR_DUMP_PATH=run/
 *                                mlir_passes.txt is what the hook sets
 *                                MLIR_DUMP_PATH to, with
 *                                TORCHINDUCTOR_COMPILE_THREADS=1, for a
 *                                Triton without that hook (no knobs.py).
 *
 * Without the hook installed: MLIR_DUMP_PATH=run/mlir_passes.txt and
 * TORCHINDUCTOR_COMPILE_THREADS=1 (one stream, compiles in this process),
 * and dumps are told apart by content when the capture is loaded.
 *
 * which is the set the project's reference captures were made with
 * (../shared/dumps/README.md).  Values the user had for these are replaced.
 * The knobs are the same for every backend: on an AMD machine (ROCm's
 * Triton) the program's kernels are compiled for the AMD GPU and the same
 * files come out, with NAME.amdgcn and NAME.hsaco in place of the PTX and
 * the cubin.  Triton cannot be told from outside to compile for another
 * GPU than the one it runs on, so --target only tells the program (through
 * TKVIEW_TARGET) and checks what it compiled: a program that compiles for a
 * GPU it does not have calls triton.compile(..., target=GPUTarget(...))
 * itself (compiler/examples/amd/compile_gfx942.py, docs/capture.md).
 */
#include "capture.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tkdump/tk_life_ranges.h"
#include "tkdump/tk_staged_dir.h"
#include "tkview-config.h"

/* Where nvdisasm is looked for, in order; the last is asked of Python. */
static const char nvdisasm_places[] =
    "nvdisasm was not found (looked at TRITON_NVDISASM_PATH, in PATH, "
    "CUDA_HOME/bin, /usr/local/cuda/bin and Triton's backends/nvidia/bin)";

/* Whether the kernel folder DIR holds files of kernel NAME ("NAME.ttir"). */
static gboolean folder_has_kernel(const char *dir, const char *name)
{
    GDir *d = g_dir_open(dir, 0, NULL);
    size_t n = strlen(name);
    gboolean found = FALSE;
    for (const char *e; d && !found && (e = g_dir_read_name(d));)
        found = strncmp(e, name, n) == 0 && e[n] == '.';
    if (d)
        g_dir_close(d);
    return found;
}

/* --kernel NAME: the other kernels' folders are left out of the bundle. */
typedef struct {
    const char *name;
    unsigned dropped;
} keep_only;

static void drop_other(const char *folder, void *user)
{
    keep_only *k = user;
    if (!folder_has_kernel(folder, k->name)) {
        tk_staged_dir_remove_tree(folder);
        k->dropped++;
    }
}

static unsigned keep_only_kernel(const char *const *dirs, const char *name)
{
    keep_only k = {name, 0};
    cap_each_kernel_folder(dirs, drop_other, &k);
    return k.dropped;
}

static int open_new(const char *path)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0)
        fprintf(stderr, "tkview: cannot create %s: %s\n", path,
                g_strerror(errno));
    return fd;
}

gboolean cap_passes_valid(const char *passes)
{
    return !strcmp(passes, "all") || !strcmp(passes, "mlir") ||
           !strcmp(passes, "none");
}

gboolean cap_target_valid(const char *target)
{
    const char *arch = NULL;
    if (g_str_has_prefix(target, "hip:"))
        arch = target + 4;
    else if (g_str_has_prefix(target, "cuda:"))
        arch = target + 5;
    if (!arch || !*arch)
        return FALSE;
    for (const char *p = arch; *p; p++)
        if (!g_ascii_isalnum(*p) && *p != '_')
            return FALSE;
    return TRUE;
}

/* What the program wrote while a compile ran, kept in that compile's files
 * by tkview's hook: its messages shown (through DIAG_HIDE, as the live
 * stderr's) and kept, compile workers' stdout (ptxas's log) added to the
 * kept stdout at OUTPATH.  Returns the lines shown. */
static uint64_t keep_compile_output(cap_capture *c, const char *compiles,
                                    const char *outpath, cap_diag_hide *diag_hide)
{
    int fd = open(c->messages, O_WRONLY | O_APPEND | O_CLOEXEC);
    uint64_t shown = cap_compiles_messages(compiles, c->quiet ? NULL : stderr,
                                           diag_hide, fd);
    if (fd >= 0)
        close(fd);
    fd = open(outpath, O_WRONLY | O_APPEND | O_CLOEXEC);
    cap_compiles_stdout(compiles, fd);
    if (fd >= 0)
        close(fd);
    cap_info_set_int(c, "compiles_kept_apart", cap_compiles_count(compiles));
    return shown;
}

/* SASS beside every cubin, and its life ranges: what EARLY did not do
 * while the program ran (capture_early.c).  Where Triton is is asked once
 * (there when EARLY saw a cubin): it is the last place for SASS's nvdisasm
 * and the first for the life ranges'. */
static void make_sass(cap_capture *c, const cap_triton_opts *o,
                      const char *const *kdirs, cap_early *early)
{
    const cap_nv_tools *found = NULL;
    GHashTable *done = cap_early_finish(early, &found);
    cap_phase_done(c, "early_wait");
    cap_nv_tools mine = {0};
    if (!found) {
        cap_nv_tools_find(&mine, o->argv, FALSE);
        found = &mine;
    }
    cap_phase_done(c, "find_nvdisasm");
    /* One pool for both, the life ranges (the longer) first. */
    GPtrArray *lr = cap_lr_plan(found->tools, kdirs);
    GPtrArray *sass = cap_sass_plan(found->nvdisasm, kdirs);
    GPtrArray *all = g_ptr_array_new();
    for (guint i = 0; i < lr->len; i++)
        g_ptr_array_add(all, lr->pdata[i]);
    for (guint i = 0; i < sass->len; i++)
        g_ptr_array_add(all, sass->pdata[i]);
    cap_jobs_run(all, done);
    g_ptr_array_free(all, TRUE);
    cap_sass_record(c, found->nvdisasm, sass, nvdisasm_places);
    cap_lr_record(c, found->tools, lr, nvdisasm_places);
    cap_info_set_int(c, "cubins_disassembled_while_running",
                     cap_early_cubins(early));
    cap_phase_done(c, "sass_and_lr");
    cap_nv_tools_clear(&mine);
}

/* What is left after the program: ncu's export, SASS and life ranges
 * (what EARLY did not do), AMDGCN, --kernel's pruning, then the bundle.
 * Returns cap_finish()'s exit code. */
static int after_program(cap_capture *c, const cap_triton_opts *o,
                         const char *kdump, const char *cache, cap_early *early)
{
    if (o->ncu)
        cap_profile_export(c);
    const char *kdirs[] = {kdump, cache, NULL};
    if (cap_any_kernel_file(kdirs, ".cubin"))
        make_sass(c, o, kdirs, early); /* NVIDIA; AMD's have .hsaco only */
    cap_make_amdgcn(c, kdirs);
    if (o->kernel)
        keep_only_kernel(kdirs, o->kernel);
    cap_phase_done(c, "amdgcn_kernel");
    const cap_nv_tools *unused = NULL;
    cap_early_finish(early, &unused); /* its jobs end before cap_finish() */
    return cap_finish(c);
}

/* The run's outcome in the manifest's "capture", and said on stderr. */
static void record_run(cap_capture *c, const cap_child_result *res, int run_rc,
                       unsigned kernels, uint64_t dump_bytes,
                       uint64_t dump_lines, uint64_t shown_lines)
{
    c->complete = run_rc == 0 && cap_child_ok(res);
    char *how = cap_child_describe(res);
    cap_info_set_string(c, "result", how);
    if (res->term_signal)
        json_object_set_null_member(c->info, "exit_status");
    else
        cap_info_set_int(c, "exit_status", res->exit_status);
    cap_info_set_int(c, "signal", res->term_signal);
    json_object_set_boolean_member(c->info, "interrupted", res->interrupted);
    json_object_set_double_member(c->info, "seconds", res->seconds);
    cap_info_set_int(c, "kernels_compiled", kernels);
    cap_info_set_int(c, "stderr_bytes", (int64_t)res->stderr_bytes);
    cap_info_set_int(c, "dump_bytes", (int64_t)dump_bytes);
    cap_info_set_int(c, "stderr_dump_lines", (int64_t)dump_lines);
    cap_info_set_int(c, "stderr_shown_lines", (int64_t)shown_lines);
    if (run_rc != 0 && res->error) {
        fprintf(stderr, "tkview: %s\n", res->error);
        cap_info_set_string(c, "error", res->error);
    }
    if (!c->quiet) {
        char *bytes = cap_format_bytes(dump_bytes);
        fprintf(stderr, "tkview: the program %s: %u kernel%s compiled, %s of "
                        "dumps\n",
                how, kernels, kernels == 1 ? "" : "s", bytes);
        g_free(bytes);
    }
    g_free(how);
}

/* What the terminal went without, in the manifest's "capture": ptxas's log
 * on stdout (OUT_FILTER NULL: the user asked for it) and the remarks and
 * warnings capture's knob added on stderr, the compiles' files included. */
static void record_hidden(cap_capture *c, const cap_child_result *res,
                          const cap_stdout_filter *out_filter,
                          const cap_diag_hide *diag_hide)
{
    cap_info_set_int(c, "stdout_hidden_lines",
                     (int64_t)cap_stdout_filter_hidden_lines(out_filter));
    json_object_set_boolean_member(c->info, "stdout_pty", res->stdout_pty);
    cap_info_set_int(c, "stderr_diag_hidden_lines",
                     (int64_t)cap_diag_hide_hidden_lines(diag_hide));
}

/* The program's environment: tkview's with the N KNOBS set (a NULL value:
 * left as it is), recorded in the manifest's "env".  Caller frees with
 * g_strfreev(). */
static char **run_environ(cap_capture *c, const char *knobs[][2], size_t n,
                          gboolean have_hook)
{
    char **env = g_get_environ();
    /* With the hook, each compile's dumps go to its own file through
     * stderr; a user's MLIR_DUMP_PATH would take MLIR's away from it. */
    if (have_hook)
        env = g_environ_unsetenv(env, "MLIR_DUMP_PATH");
    JsonObject *envo = json_object_new();
    for (size_t i = 0; i < n; i++) {
        if (!knobs[i][1])
            continue;
        env = g_environ_setenv(env, knobs[i][0], knobs[i][1], TRUE);
        json_object_set_string_member(envo, knobs[i][0], knobs[i][1]);
    }
    json_object_set_object_member(c->info, "env", envo);
    return env;
}

/* --passes PASSES: the dumps not asked for are off whatever the user had
 * (MLIR_DUMPS, LLVM_DUMPS: asked for); the manifest says what was asked.
 * Returns ENV changed. */
static char **passes_environ(cap_capture *c, char **env, const char *passes,
                             gboolean mlir_dumps, gboolean llvm_dumps)
{
    if (!mlir_dumps)
        env = g_environ_unsetenv(env, "MLIR_ENABLE_DUMP");
    if (!llvm_dumps)
        env = g_environ_unsetenv(env, "LLVM_IR_ENABLE_DUMP");
    cap_info_set_string(c, "passes", passes);
    return env;
}

/* The status line, counting the kernels compiled into Triton's cache
 * CACHE and Inductor's own caches under INDUCTOR. */
static cap_progress *new_progress(cap_capture *c, const cap_triton_opts *o,
                                  const char *cache, const char *inductor,
                                  const char *const *dump_files)
{
    cap_progress *p = cap_progress_new(o->progress && !c->quiet ? stderr : NULL,
                                       cache, dump_files);
    cap_progress_watch_inductor(p, inductor);
    return p;
}

/* The program's PYTHONPATH with the hook's folder HOOK first, or NULL when
 * HOOK has no sitecustomize.py (*HAVE_HOOK says which).  Caller frees. */
static char *hook_pythonpath(const char *hook, gboolean *have_hook)
{
    char *hook_file = g_build_filename(hook, "sitecustomize.py", NULL);
    *have_hook = g_file_test(hook_file, G_FILE_TEST_IS_REGULAR);
    g_free(hook_file);
    const char *old_pp = g_getenv("PYTHONPATH");
    return !*have_hook ? NULL
           : old_pp && *old_pp ? g_strconcat(hook, ":", old_pp, NULL)
                               : g_strdup(hook);
}

/* --kernel NAME: LLVM's dumps of that kernel only, as MLIR's
 * (MLIR_ENABLE_DUMP=NAME): TKVIEW_LLVM_OPTIONS, which the hook sets through
 * LLVM's C API inside libtriton.so where it finds it (sitecustomize.py,
 * _llvm_options()); elsewhere every kernel's LLVM dumps are made and the
 * others' dropped with their folders, as before.  NULL when there is
 * nothing to ask (no hook, no --kernel, no LLVM dumps).  Caller frees. */
static char *kernel_llvm_options(const cap_triton_opts *o, gboolean have_hook,
                                 gboolean llvm_dumps)
{
    return have_hook && o->kernel && llvm_dumps
               ? g_strconcat("-filter-print-funcs=", o->kernel, NULL)
               : NULL;
}

/* Triton's own NAME.sass (cuobjdump, ~0.45 s a compile) is not what tkview
 * shows where nvdisasm makes NAME.sass_gi: with nvdisasm found, the hook
 * skips it (compiler/python/sitecustomize.py, _skip_dump_sass()). */
static gboolean nvdisasm_found(void)
{
    char *p = cap_nvdisasm_find(NULL);
    gboolean found = p != NULL;
    g_free(p);
    return found;
}

int cap_triton(cap_capture *c, const cap_triton_opts *o)
{
    char *kdump = g_build_filename(c->run, "kernel_dump", NULL),
         *cache = g_build_filename(c->run, "cache", NULL);
    char *inductor = g_build_filename(c->run, "inductor", NULL);
    char *mlir = g_build_filename(c->run, "mlir_passes.txt", NULL);
    char *errpath = g_build_filename(c->run, "stderr.txt", NULL),
         *outpath = g_build_filename(c->run, "stdout.txt", NULL);
    int rc = CAP_EXIT_NONE, err_fd = -1, msg_fd = -1, out_fd = -1;
    cap_stderr_filter *filter = NULL;
    cap_stdout_filter *out_filter = NULL;
    cap_diag_hide *diag_hide = NULL;
    cap_progress *progress = NULL;
    cap_early *early = NULL;
    char **env = NULL;
    cap_child_result res = {0};
    char *autotune = g_build_filename(c->run, "autotune", NULL);
    char *compiles = g_build_filename(c->run, "compiles", NULL);
    const char *hook = g_getenv("TKVIEW_PYTHON_DIR") ? g_getenv("TKVIEW_PYTHON_DIR")
                                                     : TKVIEW_PYTHON_DIR;
    gboolean have_hook = FALSE;
    char *pythonpath = hook_pythonpath(hook, &have_hook);
    char *preload = cap_stderr_batch_preload();
    /* --passes (docs/capture.md, "Cheaper captures"): LLVM's dumps cost most. */
    const char *passes = o->passes ? o->passes : "all";
    gboolean mlir_dumps = strcmp(passes, "none") != 0, llvm_dumps = !strcmp(passes, "all");
    char *llvm_opts = kernel_llvm_options(o, have_hook, llvm_dumps);
    char *llvm_mode = cap_llvm_mode_dir(c->run, have_hook && llvm_dumps); /* or NULL */
    if (g_mkdir(kdump, 0755) != 0 || g_mkdir(cache, 0755) != 0 ||
        g_mkdir(inductor, 0755) != 0 || g_mkdir(autotune, 0755) != 0 ||
        (have_hook && g_mkdir(compiles, 0755) != 0)) {
        fprintf(stderr, "tkview: cannot make folders in %s: %s\n", c->run,
                g_strerror(errno));
        tk_staged_dir_remove_tree(c->work);
        goto out;
    }
    const char *knobs[][2] = {
        {"TRITON_ALWAYS_COMPILE", "1"},
        {"TRITON_KERNEL_DUMP", "1"},
        {"TRITON_DUMP_DIR", kdump},
        {"TRITON_CACHE_DIR", cache},
        {"MLIR_ENABLE_DUMP", mlir_dumps ? (o->kernel ? o->kernel : "1") : NULL},
        {"MLIR_DUMP_PATH", have_hook ? NULL : mlir},
        {"LLVM_IR_ENABLE_DUMP", llvm_dumps ? "1" : NULL},
        {"MLIR_ENABLE_DIAGNOSTICS", "warnings,remarks"},
        {"TRITON_DUMP_PTXAS_LOG", "1"},
        {"TORCHINDUCTOR_CACHE_DIR", inductor},
        {"TORCHINDUCTOR_COMPILE_THREADS", have_hook ? NULL : "1"},
        {"USE_IR_LOC", o->irloc},
        {"TKVIEW_TARGET", c->target},
        {"PYTHONPATH", pythonpath},
        {"LD_PRELOAD", preload},
        {"TKVIEW_AUTOTUNE_DIR", have_hook ? autotune : NULL},
        {"TKVIEW_COMPILES_DIR", have_hook ? compiles : NULL},
        {"TKVIEW_MLIR_DUMP_PATH", have_hook ? mlir : NULL},
        {"TKVIEW_LLVM_OPTIONS", llvm_opts},
        {"TKVIEW_LLVM_CHANGED", llvm_mode},
        {"TKVIEW_TRITON_SASS", have_hook && nvdisasm_found() ? "skip" : NULL},
    };
    env = run_environ(c, knobs, G_N_ELEMENTS(knobs), have_hook);
    env = passes_environ(c, env, passes, mlir_dumps, llvm_dumps);
    cap_info_set_string(c, "route", "triton");
    if (o->kernel)
        cap_info_set_string(c, "kernel", o->kernel);
    if (c->target)
        cap_info_set_string(c, "target", c->target);

    if ((err_fd = open_new(errpath)) < 0 || (msg_fd = open_new(c->messages)) < 0 ||
        (out_fd = open_new(outpath)) < 0) {
        tk_staged_dir_remove_tree(c->work);
        goto out;
    }
    filter = cap_stderr_filter_new();
    const char *dump_files[] = {mlir, compiles, NULL};
    progress = new_progress(c, o, cache, inductor, dump_files);
    char **run_argv = o->ncu ? cap_profile_argv(c, o->ncu, o->kernel,
                                                      o->ncu_args, o->argv)
                             : g_strdupv(o->argv);
    /* A copy of stdout for ptxas's log; the terminal gets every byte but
     * that log, unless the user asked for it (capture_tee.c). */
    out_filter = cap_user_set_ptxas_log() ? NULL : cap_stdout_filter_new();
    /* Likewise the MLIR remarks and warnings the knob adds on stderr. */
    diag_hide = cap_diag_hide_new(cap_diag_hide_user_level());
    cap_child_spec spec = {
        .argv = run_argv, .envp = env, .stdin_fd = -1, .stdout_fd = -1,
        .tee_stdout = TRUE, .stdout_copy_fd = out_fd,
        .stdout_filter = out_filter,
        .stderr_fd = err_fd, .filter = filter, .show = stderr, .diag_hide = diag_hide,
        .messages_fd = msg_fd, .progress = progress, .grace_s = 30};
    cap_signals_install();
    cap_phase_start(c);
    early = cap_early_start(c->work, cache, o->argv);
    int run_rc = cap_child_run(&spec, &res);
    cap_phase_done(c, "program");
    g_strfreev(run_argv);
    unsigned kernels = cap_progress_kernels(progress);
    uint64_t dump_bytes = cap_progress_bytes(progress);
    cap_progress_free(progress);
    progress = NULL;
    close(err_fd);
    err_fd = -1;
    close(msg_fd);
    msg_fd = -1;
    close(out_fd);
    out_fd = -1;
    if (!res.started) {
        fprintf(stderr, "tkview: %s\n", res.error);
        cap_early_free(early);
        early = NULL;
        tk_staged_dir_remove_tree(c->work);
        goto out;
    }
    uint64_t compile_shown =
        have_hook ? keep_compile_output(c, compiles, outpath, diag_hide) : 0;
    record_run(c, &res, run_rc, kernels, dump_bytes,
               cap_stderr_filter_dump_lines(filter),
               cap_stderr_filter_shown_lines(filter) + compile_shown);
    record_hidden(c, &res, out_filter, diag_hide);
    cap_llvm_mode_record(c, llvm_mode, llvm_dumps);
    cap_phase_done(c, "compile_files");

    rc = after_program(c, o, kdump, cache, early);
out:
    cap_early_free(early); /* waits for its jobs: before the work folder goes */
    cap_signals_restore();
    cap_progress_free(progress);
    cap_stderr_filter_free(filter);
    cap_stdout_filter_free(out_filter);
    cap_diag_hide_free(diag_hide);
    if (err_fd >= 0)
        close(err_fd);
    if (msg_fd >= 0)
        close(msg_fd);
    if (out_fd >= 0)
        close(out_fd);
    g_free(res.error);
    g_strfreev(env);
    g_free(kdump);
    g_free(cache);
    g_free(inductor);
    g_free(autotune);
    g_free(compiles);
    g_free(pythonpath);
    g_free(preload);
    g_free(llvm_opts);
    g_free(llvm_mode);
    g_free(mlir);
    g_free(errpath);
    g_free(outpath);
    return rc;
}
