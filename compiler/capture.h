/* capture.h - `tkview capture`: run a compiler with its dump knobs set, in a
 * private work folder, and write what it produced as a tkview bundle.
 *
 * Two front ends share everything but the compiling:
 *  - capture_triton.c runs a user's program (python3 my_kernels.py) with
 *    Triton's dump knobs pointing into the work folder;
 *  - capture_mlir.c runs Debian's MLIR and LLVM tools on an MLIR GPU kernel,
 *    so that capture is tested end to end without a GPU or Triton.
 * Both leave a capture folder (kernel_dump/, pass dump files) that libtkdump
 * loads like any other; capture_finish.c saves it with tk_bundle_save() and
 * adds what only capture knows (the command, whether it finished, how SASS
 * was made) to the manifest.  docs/capture.md describes the whole thing.
 *
 * This is part of the program, not of libtkdump: it runs processes, handles
 * signals and writes to the terminal.
 *
 * Ownership: every function that returns a pointer says who frees it.
 */
#ifndef TKVIEW_CAPTURE_H
#define TKVIEW_CAPTURE_H

#include <glib.h>
#include <json-glib/json-glib.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* Exit codes of `tkview capture` (README.md, docs/capture.md). */
enum {
    CAP_EXIT_COMPLETE = 0,   /* the bundle is written and complete */
    CAP_EXIT_INCOMPLETE = 1, /* written, marked incomplete: the
                                       program failed or was interrupted */
    CAP_EXIT_USAGE = 2,      /* bad arguments */
    CAP_EXIT_NONE = 3        /* no bundle written (nothing compiled,
                                       the program could not be started, the
                                       output exists, a write failed) */
};

/* ---- signals (capture_signals.c) -------------------------------------- */

/* While a capture runs, SIGINT, SIGTERM, SIGHUP and SIGQUIT do not stop
 * tkview: they are recorded, passed on to the program when they were sent to
 * tkview alone (a Ctrl-C on the terminal reaches the program by itself), and
 * the capture is finished with what was dumped.  Install once; restore puts
 * the old handlers back. */
void cap_signals_install(void);
void cap_signals_restore(void);

/* A file descriptor that becomes readable when a signal (SIGCHLD included)
 * arrives; cap_signals_take() empties it. */
int cap_signals_fd(void);

typedef struct {
    int signo;          /* 0: none pending */
    gboolean from_tty;  /* sent by the kernel to the whole foreground group
                           (Ctrl-C, hang-up): the program got it too */
} cap_signal;

/* The next pending stop signal (SIGCHLD is only a wake-up and is not
 * returned).  Returns FALSE when none is pending. */
gboolean cap_signals_take(cap_signal *out);

/* How many stop signals arrived since install. */
unsigned cap_signals_count(void);

/* ---- the stderr filter (capture_filter.c) ----------------------------- */

/* With LLVM_IR_ENABLE_DUMP the program's stderr is mostly pass dumps
 * (hundreds of MB).  The filter reads it line by line and tells the dump text
 * (headers, IR, machine code, LLVM's "Running pass:" chatter) from what the
 * program says (warnings, tracebacks, compiler errors), which is shown. */
typedef struct cap_stderr_filter cap_stderr_filter;

cap_stderr_filter *cap_stderr_filter_new(void);
void cap_stderr_filter_free(cap_stderr_filter *f);

/* Feeds one line (LEN bytes, without its newline).  Returns TRUE when the
 * line is the program's own text, to be shown; FALSE for dump text. */
gboolean cap_stderr_filter_line(cap_stderr_filter *f, const char *line,
                               size_t len);

/* Lines and bytes seen in dumps and shown, so far. */
uint64_t cap_stderr_filter_dump_lines(const cap_stderr_filter *f);
uint64_t cap_stderr_filter_shown_lines(const cap_stderr_filter *f);

/* ---- stderr batching (capture_batch.c, stderr_batch.c) ---------------- */
/* The LD_PRELOAD value that batches a Triton program's writes to stderr
 * (libtkview-stderr-batch.so, then the user's own LD_PRELOAD), or NULL
 * when that library is not found.  Caller frees. */
char *cap_stderr_batch_preload(void);

/* ---- each compile's dump file (capture_compiles.c) -------------------- */

/* The messages among the dumps of each compile's file in DIR (tkview's
 * Python hook writes one per compile, docs/capture.md): every file, oldest
 * first, read through a filter of its own; the lines it shows are appended
 * to MESSAGES_FD (-1: not) and written to SHOW (NULL: not) through HIDE
 * (NULL: none kept off; capture_diag_hide.c, below, each file a stream of
 * its own), as a stderr's would have been.  Returns how many lines the
 * filters showed (HIDE's hidden ones included, as for the live stderr). */
typedef struct cap_diag_hide cap_diag_hide;
uint64_t cap_compiles_messages(const char *dir, FILE *show, cap_diag_hide *hide,
                               int messages_fd);

/* How many compiles' dump files (.txt) DIR holds. */
unsigned cap_compiles_count(const char *dir);

/* Appends to STDOUT_FD what compile workers printed while a stage of a
 * compile ran (DIR's HASH.PID.N.out files, oldest first).  Returns the
 * bytes added. */
uint64_t cap_compiles_stdout(const char *dir, int stdout_fd);

/* ---- progress on a terminal (capture_progress.c) ---------------------- */

/* One status line on stderr, redrawn at most four times a second: kernels
 * compiled (entries of Triton's cache holding a __grp__NAME.json, written
 * last), bytes of dumps written (DUMP_FILES: files, or folders whose files
 * are counted). */
typedef struct cap_progress cap_progress;

/* TTY may be NULL: then nothing is drawn but counting still works.
 * CACHE_DIR is TRITON_CACHE_DIR (NULL: no kernel count), DUMP_FILES the
 * files whose size counts as dump bytes besides the stderr
 * (NULL-terminated; may be NULL). */
cap_progress *cap_progress_new(FILE *tty, const char *cache_dir,
                                             const char *const *dump_files);
/* Also counts the Triton caches of Inductor's own in DIR
 * (TORCHINDUCTOR_CACHE_DIR/X/triton/KEY/: where Inductor compiles when a
 * program sets its force_disable_caches, as max-autotune's choices do). */
void cap_progress_watch_inductor(cap_progress *p, const char *dir);
void cap_progress_free(cap_progress *p); /* clears the line */
void cap_progress_add_bytes(cap_progress *p, uint64_t n);
/* A label shown before the counts ("llc-19"); NULL for none. */
void cap_progress_set_step(cap_progress *p, const char *step);
/* Recounts and redraws if a quarter second has passed. */
void cap_progress_tick(cap_progress *p);
/* Erases the line, so that a message can be written; the next tick
 * redraws it. */
void cap_progress_clear(cap_progress *p);
unsigned cap_progress_kernels(cap_progress *p);
uint64_t cap_progress_bytes(cap_progress *p);

/* ---- the program's stdout (capture_tee.c, capture_pty.c) -------------- */

/* What of the program's stdout is shown: all but the ptxas log that
 * TRITON_DUMP_PTXAS_LOG prints (capture_tee.c says how it is told). */
typedef struct cap_stdout_filter cap_stdout_filter;
cap_stdout_filter *cap_stdout_filter_new(void);
void cap_stdout_filter_free(cap_stdout_filter *f);
/* Feeds LEN bytes of the stream; appends to OUT the bytes to show now, in
 * order (some may be held until a later call). */
void cap_stdout_filter_feed(cap_stdout_filter *f, const char *buf, size_t len,
                            GString *out);
/* The stream ended: appends what is still held. */
void cap_stdout_filter_end(cap_stdout_filter *f, GString *out);
uint64_t cap_stdout_filter_hidden_lines(const cap_stdout_filter *f);
/* Whether tkview's own environment turns TRITON_DUMP_PTXAS_LOG on (as
 * Triton reads it): then the user asked for the log and sees it. */
gboolean cap_user_set_ptxas_log(void);

/* The channel for the program's stdout: a pty when tkview's stdout is a
 * terminal (*IS_PTY), else a pipe.  FDS[0] is tkview's end, FDS[1] the
 * program's, both close-on-exec.  Returns 0, or -1 with errno. */
int cap_out_channel_open(int fds[2], gboolean *is_pty);
/* While PID runs with the pty whose master is MASTER: a SIGWINCH tkview
 * gets copies the terminal's window size onto the pty and passes the
 * signal on to PID (capture_pty.c says why).  Until
 * cap_out_channel_unfollow(), which restores the old handler. */
void cap_out_channel_follow(int master, pid_t pid);
void cap_out_channel_unfollow(void);
/* Whether a read of GOT bytes (errno ERR) on tkview's end is its end (a
 * pty's master says EIO once no one has the pty open). */
gboolean cap_out_channel_eof(gssize got, int err);

/* ---- MLIR remarks off the terminal (capture_diag_hide.c) --------------- */

/* Which MLIR diagnostics shown on stderr the user would see without
 * capture: SHOW_LEVEL 0 errors only (Triton's default), 1 warnings too, 2
 * remarks too; the others are held back with their notes and snippets. */
typedef struct cap_diag_hide cap_diag_hide;
cap_diag_hide *cap_diag_hide_new(int show_level);
void cap_diag_hide_free(cap_diag_hide *h);
/* Feeds one line (with its newline); appends to OUT what to show now (a
 * line may be held until the next). */
void cap_diag_hide_line(cap_diag_hide *h, const char *s, size_t len, GString *out);
/* The stream ended: appends what is still held. */
void cap_diag_hide_end(cap_diag_hide *h, GString *out);
uint64_t cap_diag_hide_hidden_lines(const cap_diag_hide *h);
/* The level tkview's own MLIR_ENABLE_DIAGNOSTICS asks for (as above). */
int cap_diag_hide_user_level(void);

/* ---- child processes (capture_child.c) -------------------------------- */

typedef struct {
    char **argv;          /* program and arguments; argv[0] searched in PATH */
    char **envp;          /* the whole environment; NULL: tkview's own */
    int stdin_fd;         /* -1: inherited; else dup'ed onto 0 */
    int stdout_fd;        /* -1: inherited (the program's output goes to the
                             terminal unchanged); else dup'ed onto 1 */
    gboolean tee_stdout;  /* with stdout_fd -1: the program's stdout comes
                             through a pipe, every byte passed on to
                             tkview's own stdout unchanged and copied to
                             STDOUT_COPY_FD (a file) */
    int stdout_copy_fd;
    cap_stdout_filter *stdout_filter; /* with tee_stdout: which bytes reach
                             tkview's stdout (all are copied); NULL: all */
    int stderr_fd;        /* the raw stderr is copied here (a file); -1:
                             not */
    GString *stderr_text; /* the first 64 KiB of stderr are appended here;
                             NULL: not */
    cap_stderr_filter *filter; /* decides which lines are shown; NULL: none */
    FILE *show;           /* where shown lines go (stderr); NULL: nowhere */
    cap_diag_hide *diag_hide; /* keeps the remarks and warnings capture's
                             knob added off SHOW (not off MESSAGES_FD);
                             NULL: none kept off */
    int messages_fd;      /* shown lines are also appended here; -1: not */
    cap_progress *progress; /* may be NULL */
    double timeout_s;     /* 0: none; else the child is killed after it */
    double grace_s;       /* after a stop signal, SIGKILL after this long */
    gboolean beside;      /* a tool run while the program runs, from any
                             thread: in a process group of its own (the
                             terminal's Ctrl-C is the program's), niced,
                             and the signal pipe left to the program's
                             loop (neither watched nor emptied) */
} cap_child_spec;

typedef struct {
    gboolean started;     /* FALSE: it could not be run (see error) */
    int exit_status;      /* its exit status; -1 when a signal ended it */
    int term_signal;      /* the signal that ended it; 0 when it exited */
    gboolean interrupted; /* a stop signal arrived while it ran */
    gboolean killed;      /* tkview killed it (second interrupt, grace
                             period or timeout over) */
    gboolean timed_out;
    double seconds;
    uint64_t stderr_bytes;
    uint64_t stdout_bytes; /* with tee_stdout */
    gboolean stdout_pty;  /* with tee_stdout: it went through a pty */
    char *error;          /* why it could not be run; caller frees */
} cap_child_result;

/* Runs SPEC's program to its end and fills RES.  Signals must be installed
 * (cap_signals_install).  Returns 0 when the program ran (whatever
 * its exit status), -1 when it could not be started or its stderr could not
 * be copied (RES->error says why). */
int cap_child_run(const cap_child_spec *spec, cap_child_result *res);

/* Whether RES says the program ran to a successful end. */
gboolean cap_child_ok(const cap_child_result *res);

/* "exited with status 1", "killed by SIGKILL"...; caller frees. */
char *cap_child_describe(const cap_child_result *res);

/* Runs a tool (nvdisasm, ptxas, mlir-translate) with stdin from /dev/null,
 * its stdout to the file STDOUT_PATH (NULL: discarded) and its stderr
 * collected (the first 64 KiB) into *ERR_TEXT (caller frees; may be NULL).
 * Returns 0 when it exited with status 0; -1 otherwise, with *ERR_TEXT
 * saying why when it could not be run.  The file is removed on failure. */
int cap_tool_run(char **argv, const char *stdout_path, double timeout_s,
                char **err_text);
/* The same; BESIDE: while the program runs (cap_child_spec's beside). */
int cap_tool_run_beside(char **argv, const char *stdout_path, double timeout_s,
                        gboolean beside, char **err_text);

/* The first of NAMES (NULL-terminated) found as an executable in PATH or in
 * the folders of EXTRA_DIRS (NULL-terminated; may be NULL), searched after
 * PATH.  Caller frees; NULL when none. */
char *cap_tool_find(const char *const *names, const char *const *extra_dirs);

/* ---- the work folder, and finishing (capture_work.c, capture_finish.c) */

typedef struct {
    /* Given by the front end. */
    char *outdir;      /* absolute path of the bundle to write */
    gboolean force;    /* replace an existing bundle at OUTDIR */
    gboolean keep_work;/* keep the work folder (its path is printed) */
    gboolean quiet;    /* no summary, no warnings */
    char **source_dirs;/* searched for sources too (NULL-terminated) */

    /* Made by cap_begin(). */
    char *work;        /* .NAME.capture-XXXXXX beside OUTDIR */
    char *run;         /* WORK/run: the capture folder the front end fills */
    char *messages;    /* WORK/messages.txt: the stderr lines shown */

    /* Filled by the front end for the manifest. */
    char **command;    /* the argument vector that was captured */
    gboolean complete; /* FALSE when anything failed or was interrupted */
    JsonObject *info;  /* becomes the manifest's "capture" object */
    /* The manifest's "compiler" when the front end knows better than the
     * kernels' metadata (the MLIR route); NULL: as tk_bundle_save wrote it. */
    char *compiler_name, *compiler_version, *compiler_target;
    /* Why a kernel has no SASS: kernel name -> reason; and the reason for
     * all of them (no nvdisasm), NULL when SASS could be made. */
    GHashTable *sass_missing;
    char *sass_missing_all;
    /* The same for an AMD kernel's AMDGCN, when Triton left no .amdgcn and
     * its .hsaco could not be disassembled. */
    GHashTable *amdgcn_missing;
    char *amdgcn_missing_all;
    /* --target BACKEND:ARCH ("hip:gfx942"): what the kernels must have been
     * compiled for; NULL: any. */
    char *target;

    /* --profile (capture_profile.c): ncu, its report in WORK/run, the
     * report's source page exported as CSV; set when no profile could be
     * made (the bundle is still written, the exit status is 1). */
    char *ncu;
    char *profile_report;
    char *profile_csv;
    gboolean profile_failed;

    /* When the step being timed began (capture_phase.c); 0: not yet. */
    gint64 phase_t0;
} cap_capture;

/* Checks that OUTDIR can be written (absent, an empty folder, or with
 * FORCE a tkview bundle; never one that is or holds a source folder, the
 * folder the program runs in or a file COMMAND names), makes the work
 * folder beside it and WORK/run.  Returns 0, or -1 after printing why. */
int cap_begin(cap_capture *c);

/* Loads C->run, saves it as the bundle, completes the manifest and puts the
 * bundle at OUTDIR.  Returns a TK_CAPTURE_EXIT_* code after printing what
 * happened; removes the work folder unless keep_work. */
int cap_finish(cap_capture *c);

/* Frees what cap_capture holds (not C itself). */
void cap_clear(cap_capture *c);

/* Whether PATH may be replaced with --force: an empty folder, or a folder
 * whose manifest.json says it is a tkview bundle. */
gboolean cap_replaceable(const char *path);

/* Adds "capture"-object members to C->info. */
void cap_info_set_string(cap_capture *c, const char *key,
                                const char *value);
void cap_info_set_int(cap_capture *c, const char *key, int64_t value);

/* capture_llvm_mode.c: with WANTED (the hook and LLVM's dumps), the folder
 * RUN/llvm_mode made for the hook to say what each process got when it asks
 * LLVM for -print-changed instead of print-after-all; NULL when not asked
 * (TKVIEW_LLVM_DUMPS=all) or not made.  Caller frees.  Then the manifest's
 * capture.llvm_dump_mode from what the processes wrote in DIR (NULL: not
 * asked); LLVM_DUMPS: LLVM's dumps were on at all.  When a process fell
 * back to -print-changed for the code generator too (which leaves out its IR
 * passes), says so once on stderr. */
char *cap_llvm_mode_dir(const char *run, gboolean wanted);
void cap_llvm_mode_record(cap_capture *c, const char *dir, gboolean llvm_dumps);

/* Starts timing capture's steps (capture_phase.c). */
void cap_phase_start(cap_capture *c);
/* The step NAME ended now: its seconds since the last one ended go into
 * the manifest's capture.phase_seconds, and on stderr when
 * TKVIEW_CAPTURE_TIMES is set. */
void cap_phase_done(cap_capture *c, const char *name);

/* "12.3 MB"; caller frees. */
char *cap_format_bytes(uint64_t n);

/* ---- the front ends --------------------------------------------------- */

typedef struct {
    char **argv;          /* the program to capture */
    const char *kernel;   /* --kernel: dump only this kernel; NULL: all */
    const char *passes;   /* --passes: which pass dumps, "all" (NULL),
                             "mlir" (no LLVM print-after-all) or "none" */
    const char *irloc;    /* --irloc ttir|ttgir; NULL: none */
    gboolean progress;    /* draw progress (stderr is a terminal) */
    const char *ncu;      /* --profile: the ncu to run the program under
                             (found); NULL: no profile */
    char **ncu_args;      /* --ncu-arg: more options for ncu; may be NULL */
} cap_triton_opts;

/* Whether TARGET reads as --target takes it: "hip:ARCH" or "cuda:ARCH",
 * ARCH of [A-Za-z0-9_] ("hip:gfx942", "cuda:90"). */
gboolean cap_target_valid(const char *target);

/* Whether PASSES is a value --passes takes (all, mlir, none). */
gboolean cap_passes_valid(const char *passes);

/* Captures a Triton program into C (begun).  Returns a TK_CAPTURE_EXIT_*
 * code; prints what happened. */
int cap_triton(cap_capture *c, const cap_triton_opts *o);

typedef struct {
    const char *input;    /* FILE.mlir */
    const char *pipeline; /* mlir-opt --pass-pipeline; NULL: the default */
    const char *arch;     /* sm_90 when NULL */
    gboolean progress;
} cap_mlir_opts;

/* ---- --profile (capture_profile.c) ------------------------------------ */

/* The ncu to run: GIVEN (--ncu) when it is executable, else the first
 * found in PATH, CUDA_HOME/bin and /usr/local/cuda/bin.  Caller frees;
 * NULL when none. */
char *cap_find_ncu(const char *given);

/* The command that runs PROGRAM under NCU with the source counters, the
 * report going to C->run (C->profile_report), for KERNEL only when not
 * NULL, with EXTRA options (may be NULL) before the program.  Records it
 * in the manifest's capture.profile.  Caller frees with g_strfreev(). */
char **cap_profile_argv(cap_capture *c, const char *ncu,
                               const char *kernel, char **extra,
                               char **program);

/* After the program: exports the report's source page with ncu's own
 * command line into C->profile_csv, or says why there is no profile. */
void cap_profile_export(cap_capture *c);

/* Puts each kernel section of C->profile_csv into the bundle being built
 * at BUILT as the profile of the kernel whose SASS it is; records the
 * result in the manifest's capture.profile. */
void cap_profile_import(cap_capture *c, const char *built);

/* The pipeline used when none is given. */
extern const char cap_mlir_default_pipeline[];

int cap_mlir(cap_capture *c, const cap_mlir_opts *o);

/* ---- tools run on every cubin (capture_jobs.c) ------------------------- */

/* One run of a tool on one cubin, writing OUT.  A kind's job embeds this
 * first.  RUN does the work and sets RC (0: OUT made); ADOPT takes the
 * outcome of LEADER, an earlier job of the same kind on the same bytes,
 * whose file is already linked to OUT when RC is 0 (its texts through
 * cap_job_retell()); DESTROY frees the job. */
typedef struct cap_job {
    const char *kind;            /* "sass", "lr": jobs are shared per kind */
    char *cubin, *out;
    void (*run)(struct cap_job *j);
    void (*adopt)(struct cap_job *j, const struct cap_job *leader);
    void (*destroy)(struct cap_job *j);
    int rc;
    char *key;                   /* kind:SHA-256 of the cubin */
    const struct cap_job *leader;/* NULL: run itself */
    gboolean beside;             /* run while the program runs, on a copy
                                    of the cubin (capture_early.c) */
} cap_job;

void cap_job_init(cap_job *j, const char *kind, const char *cubin,
                  const char *out, void (*run)(cap_job *),
                  void (*adopt)(cap_job *, const cap_job *));
void cap_job_clear(cap_job *j);
/* TEXT (a tool's output or complaint about LEADER's cubin) as it would
 * read about J's: LEADER's cubin path replaced by J's when LEADER ran
 * beside the program on a copy.  Caller frees; NULL for NULL. */
char *cap_job_retell(const cap_job *j, const cap_job *leader, const char *text);
/* Runs JOBS (cap_job *) on the machine's cores, each distinct cubin of a
 * kind once (the others adopt its outcome); a cubin whose key is in DONE
 * (key -> finished cap_job, capture_early.c; may be NULL) is not run
 * again, it adopts that job's outcome.  Returns when all are done. */
void cap_jobs_run(GPtrArray *jobs, GHashTable *done);

/* One job of each kind, on CUBIN, writing OUT (DESTROY frees it). */
cap_job *cap_sass_job_new(const char *nvdisasm, const char *cubin, const char *out);
cap_job *cap_lr_job_new(const char *const *tools, const char *cubin,
                        const char *out);

/* ---- nvdisasm while the program runs (capture_early.c) ---------------- */

/* capture_early.c: the nvdisasm for SASS (TRITON_NVDISASM_PATH, PATH,
 * CUDA_HOME/bin, /usr/local/cuda/bin, then Triton's bin folder TDIR, which
 * may be NULL), or NULL.  Caller frees. */
char *cap_nvdisasm_find(const char *tdir);

/* Where the nvdisasm tools are: Triton's bin folder (asked of ARGV's
 * Python), the nvdisasm for SASS (TRITON_NVDISASM_PATH, PATH, CUDA_HOME,
 * /usr/local/cuda, Triton's), the life ranges' in order (Triton's first). */
typedef struct {
    char *tdir, *nvdisasm, *tnv;
    const char *tools[3];        /* NULL-terminated, into the above */
} cap_nv_tools;
void cap_nv_tools_find(cap_nv_tools *t, char **argv, gboolean beside);
void cap_nv_tools_clear(cap_nv_tools *t);

/* Watches CACHE (Triton's cache folder) while the program runs: each cubin
 * whose NAME.json has appeared (Triton writes it after the cubin) is
 * copied into WORK/early and disassembled there for SASS and life ranges
 * on a pool beside the program, so that after it only the cubins of its
 * last moments are left.  ARGV is the program (for cap_nv_tools_find, on
 * the first cubin). */
typedef struct cap_early cap_early;
cap_early *cap_early_start(const char *work, const char *cache, char **argv);
/* Stops watching and waits for the jobs begun.  Returns the finished jobs
 * by key (for cap_jobs_run()), owned by E; *TOOLS is set when they were
 * looked for (then owned by E too), else left as it is. */
GHashTable *cap_early_finish(cap_early *e, const cap_nv_tools **tools);
/* How many distinct cubins were disassembled beside the program. */
unsigned cap_early_cubins(const cap_early *e);
void cap_early_free(cap_early *e);

/* Makes NAME.sass_gi beside every NAME.cubin under the folders DIRS
 * (NULL-terminated; each holds one folder per kernel) with NVDISASM -c -gi,
 * and records in C why a kernel has none.  NVDISASM NULL: records
 * WHY_MISSING (where it was looked for) for every kernel. */
void cap_make_sass(cap_capture *c, const char *nvdisasm,
                          const char *const *dirs, const char *why_missing);

/* Makes NAME.sass_lr (nvdisasm --print-life-ranges --life-range-mode count
 * -c) beside every NAME.cubin under DIRS (as cap_make_sass), each
 * with the first of TOOLS (NULL-terminated nvdisasm paths, the preferred
 * first) that succeeds, and records in C's manifest info the tool that made
 * them, its version, the counts and every distinct refusal.  TOOLS NULL or
 * empty: records WHY_MISSING (capture_lr.c). */
void cap_make_life_ranges(cap_capture *c, const char *const *tools,
                                 const char *const *dirs,
                                 const char *why_missing);

/* The same in steps, so that both kinds of job share one pool
 * (cap_jobs_run()): the jobs for every cubin under DIRS (none when the
 * tool is NULL), then their outcomes recorded in C, the jobs freed. */
GPtrArray *cap_sass_plan(const char *nvdisasm, const char *const *dirs);
void cap_sass_record(cap_capture *c, const char *nvdisasm, GPtrArray *jobs,
                     const char *why_missing);
GPtrArray *cap_lr_plan(const char *const *tools, const char *const *dirs);
void cap_lr_record(cap_capture *c, const char *const *tools, GPtrArray *jobs,
                   const char *why_missing);

/* Calls FN(folder, USER) for each kernel folder under DIRS (NULL-terminated;
 * each holds one folder per kernel): each real folder, links not followed,
 * in directory order. */
void cap_each_kernel_folder(const char *const *dirs,
                            void (*fn)(const char *folder, void *user), void *user);

/* Whether a kernel folder under one of DIRS (NULL-terminated; each holds
 * one folder per kernel) holds a file whose name ends with SUFFIX. */
gboolean cap_any_kernel_file(const char *const *dirs, const char *suffix);

/* Makes NAME.amdgcn_dis beside every NAME.hsaco under the folders DIRS
 * (NULL-terminated; each holds one folder per kernel) that has no
 * NAME.amdgcn, with llvm-objdump -d --line-numbers (--mcpu from a NAME.json
 * beside it, else the code object's own ELF flags), and records in C why a
 * kernel has none.  Does nothing, not even look for the tool, when every
 * code object has its .amdgcn (capture_amdgcn.c). */
void cap_make_amdgcn(cap_capture *c, const char *const *dirs);

#endif
