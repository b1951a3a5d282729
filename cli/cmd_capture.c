/* cmd_capture.c - `tkview capture`: run a Triton program (or the MLIR tools
 * on an MLIR kernel) with the compiler's dump knobs set and write a bundle.
 * The work is in compiler/ (capture.h); this file parses the arguments. */
#include "cli.h"

#include <string.h>
#include <unistd.h>

#include "capture.h"

static const char summary[] =
    "Runs PROGRAM with Triton's dump knobs set, in a private work folder, and\n"
    "writes what it compiled as a bundle: every kernel (autotune configs and\n"
    "repeated compiles kept apart), its stages, pass dumps, metadata, SASS\n"
    "with line info (when nvdisasm is found) and the sources its locations\n"
    "name.  The program's output passes through; its stderr is shown without\n"
    "the dump text.  An interrupted or failing program still gives a bundle,\n"
    "marked incomplete.  The same on an AMD GPU (ROCm's Triton): AMDGCN and\n"
    "the code object come in place of PTX, SASS and the cubin.  --target\n"
    "hip:gfx942 is for a program that compiles for a GPU it does not have\n"
    "(triton.compile(..., target=...)).  With --mlir, compiles FILE.mlir\n"
    "with Debian's MLIR and LLVM tools instead (no GPU, no Triton needed).\n"
    "With --profile, the program runs under Nsight Compute (ncu) and the\n"
    "bundle keeps each kernel's warp stall samples and executed\n"
    "instructions per SASS instruction (its first launch), for tkview hot\n"
    "and the report.\n"
    "\n"
    "Exit status: 0 complete bundle written, 1 bundle written but incomplete\n"
    "(the program failed or was interrupted, or --profile made no profile),\n"
    "2 bad arguments, 3 no bundle\n"
    "written.  See docs/capture.md.";

/* NAME.tkview in the current folder, NAME from the script (x.py), the module
 * (-m pkg.mod), the MLIR file, or the program. */
static char *default_outdir(char **prog, const char *mlir)
{
    const char *from = mlir;
    for (size_t i = 1; !from && prog && prog[i]; i++) {
        if (g_str_has_suffix(prog[i], ".py"))
            from = prog[i];
        else if (!strcmp(prog[i], "-m") && prog[i + 1])
            from = prog[i + 1];
    }
    if (!from && prog)
        from = prog[0];
    char *base = g_path_get_basename(from ? from : "capture");
    char *dot = strrchr(base, '.');
    if (dot && dot != base && (g_str_has_suffix(base, ".py") ||
                               g_str_has_suffix(base, ".mlir")))
        *dot = '\0';
    char *out = g_strdup_printf("%s.tkview", base);
    g_free(base);
    return out;
}

/* The options of `tkview capture` (cmd_capture()). */
typedef struct {
    char *out, *kernel, *passes, *irloc, *mlir, *pipeline, *arch, *target, *ncu_given;
    char **source_dirs, **ncu_args;
    gboolean profile, force, keep_work, no_progress, quiet;
} capture_opts;

/* Whether O (with PROG, the words after "--") make one capture; says why
 * not. */
static gboolean options_ok(const capture_opts *o, char **prog)
{
    if (!o->mlir && (!prog || !prog[0])) {
        cli_error("no program given: tkview capture [-o BUNDLE] -- PROGRAM "
                     "[ARGS...], or tkview capture --mlir FILE.mlir");
        return FALSE;
    }
    if (o->mlir && prog) {
        cli_error("--mlir compiles FILE.mlir itself: give no program");
        return FALSE;
    }
    if (o->irloc && strcmp(o->irloc, "ttir") && strcmp(o->irloc, "ttgir")) {
        cli_error("--irloc %s: expected ttir or ttgir", o->irloc);
        return FALSE;
    }
    if (o->passes && !cap_passes_valid(o->passes)) {
        cli_error("--passes %s: expected all, mlir or none", o->passes);
        return FALSE;
    }
    if (o->mlir && (o->kernel || o->irloc || o->passes)) {
        cli_error("--kernel, --passes and --irloc are for Triton programs, "
                  "not --mlir");
        return FALSE;
    }
    if (o->target && o->mlir) {
        cli_error("--target is for Triton programs; --mlir takes --arch");
        return FALSE;
    }
    if (o->target && !cap_target_valid(o->target)) {
        cli_error("--target %s: expected BACKEND:ARCH, hip:ARCH or "
                     "cuda:ARCH (hip:gfx942, cuda:90)", o->target);
        return FALSE;
    }
    if (!o->mlir && (o->pipeline || o->arch)) {
        cli_error("--pipeline and --arch go with --mlir");
        return FALSE;
    }
    if (o->mlir && o->profile) {
        cli_error("--profile runs a program on a GPU: not with --mlir");
        return FALSE;
    }
    if (!o->profile && (o->ncu_given || o->ncu_args)) {
        cli_error("--ncu and --ncu-arg go with --profile");
        return FALSE;
    }
    return TRUE;
}

/* Where sources are looked for: --source-dir, the current folder and the
 * .mlir file's folder (NULL-terminated; caller frees with g_strfreev()). */
static char **source_dirs_of(const capture_opts *o)
{
    GPtrArray *dirs = g_ptr_array_new();
    for (size_t i = 0; o->source_dirs && o->source_dirs[i]; i++)
        g_ptr_array_add(dirs, g_strdup(o->source_dirs[i]));
    g_ptr_array_add(dirs, g_get_current_dir());
    if (o->mlir)
        g_ptr_array_add(dirs, g_path_get_dirname(o->mlir));
    g_ptr_array_add(dirs, NULL);
    return (char **)g_ptr_array_free(dirs, FALSE);
}

int cmd_capture(int argc, char **argv)
{
    /* Everything after "--" is the program, never our options. */
    int split = argc;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--")) {
            split = i;
            break;
        }
    char **prog = split < argc ? g_strdupv(argv + split + 1) : NULL;
    char **command = g_new0(char *, (size_t)argc + 2);
    command[0] = g_strdup("tkview");
    for (int i = 0; i < argc; i++)
        command[i + 1] = g_strdup(argv[i]);

    capture_opts o = {0};
    char *ncu = NULL;
    GOptionEntry entries[] = {
        {"output", 'o', 0, G_OPTION_ARG_FILENAME, &o.out,
         "The bundle folder to write (default: NAME.tkview here)", "BUNDLE"},
        {"force", 0, 0, G_OPTION_ARG_NONE, &o.force,
         "Replace an existing bundle at BUNDLE", NULL},
        {"kernel", 0, 0, G_OPTION_ARG_STRING, &o.kernel,
         "Dump and keep only the kernel NAME", "NAME"},
        {"passes", 0, 0, G_OPTION_ARG_STRING, &o.passes,
         "Which pass dumps to capture: all (default), mlir (no LLVM "
         "print-after-all: a cheaper run) or none (stages only, the "
         "cheapest); the manifest says which", "all|mlir|none"},
        {"irloc", 0, 0, G_OPTION_ARG_STRING, &o.irloc,
         "Capture with USE_IR_LOC=ttir|ttgir (later stages point at IR lines)",
         "ttir|ttgir"},
        {"mlir", 0, 0, G_OPTION_ARG_FILENAME, &o.mlir,
         "Compile FILE.mlir with the MLIR/LLVM tools instead of running a "
         "program", "FILE"},
        {"pipeline", 0, 0, G_OPTION_ARG_STRING, &o.pipeline,
         "With --mlir: the mlir-opt --pass-pipeline (default in "
         "docs/capture.md)", "PIPELINE"},
        {"arch", 0, 0, G_OPTION_ARG_STRING, &o.arch,
         "With --mlir: the GPU to compile for (default sm_90)", "SM"},
        {"target", 0, 0, G_OPTION_ARG_STRING, &o.target,
         "The GPU the program compiles for (hip:gfx942, cuda:90): told to "
         "the program as TKVIEW_TARGET, checked against what it compiled",
         "BACKEND:ARCH"},
        {"profile", 0, 0, G_OPTION_ARG_NONE, &o.profile,
         "Run the program under Nsight Compute (ncu) and keep each kernel's "
         "samples per SASS instruction (docs/cost.md)", NULL},
        {"ncu", 0, 0, G_OPTION_ARG_FILENAME, &o.ncu_given,
         "With --profile: the ncu to run (default: from PATH, CUDA_HOME/bin "
         "or /usr/local/cuda/bin)", "PATH"},
        {"ncu-arg", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o.ncu_args,
         "With --profile: one more option for ncu, before the program "
         "(repeatable: --ncu-arg=--warp-sampling-interval --ncu-arg=0)",
         "ARG"},
        {"keep-work", 0, 0, G_OPTION_ARG_NONE, &o.keep_work,
         "Keep the work folder (the raw dumps and the whole stderr)", NULL},
        {"no-progress", 0, 0, G_OPTION_ARG_NONE, &o.no_progress,
         "Do not draw the progress line", NULL},
        {"source-dir", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o.source_dirs,
         "Also look for source files under DIR (repeatable)", "DIR"},
        {"quiet", 'q', 0, G_OPTION_ARG_NONE, &o.quiet,
         "Print only errors and the program's own output", NULL},
        G_OPTION_ENTRY_NULL,
    };
    GOptionContext *ctx = g_option_context_new(
        "[-o BUNDLE] [--profile] -- PROGRAM [ARGS...]  |  --mlir FILE.mlir "
        "[-o BUNDLE]");
    g_option_context_set_summary(ctx, summary);
    g_option_context_add_main_entries(ctx, entries, NULL);
    GError *err = NULL;
    int rc = CLI_EXIT_USAGE;
    int nargs = split;
    char **args = g_new0(char *, (size_t)split + 1);
    for (int i = 0; i < split; i++)
        args[i] = argv[i];
    char **args_owner = args; /* parse() reorders ARGS; free the array */
    cap_capture c = {0};
    if (!g_option_context_parse(ctx, &nargs, &args, &err)) {
        cli_error("%s", err->message);
        g_clear_error(&err);
        goto done;
    }
    if (nargs > 1) {
        cli_error("unexpected argument \"%s\": put -- before the program "
                     "(tkview capture -o BUNDLE -- python3 my_kernels.py)",
                     args[1]);
        goto done;
    }
    if (!options_ok(&o, prog))
        goto done;
    if (o.profile && !(ncu = cap_find_ncu(o.ncu_given))) {
        if (o.ncu_given)
            cli_error("--ncu %s: not an executable", o.ncu_given);
        else
            cli_error("--profile: ncu (Nsight Compute) was not found in "
                         "PATH, CUDA_HOME/bin or /usr/local/cuda/bin; give "
                         "--ncu PATH");
        rc = CAP_EXIT_NONE;
        goto done;
    }

    char *rel = o.out ? g_strdup(o.out) : default_outdir(prog, o.mlir);
    c.outdir = g_canonicalize_filename(rel, NULL);
    g_free(rel);
    c.force = o.force;
    c.keep_work = o.keep_work;
    c.target = g_strdup(o.target);
    c.quiet = o.quiet;
    c.source_dirs = source_dirs_of(&o);
    gboolean progress = !o.no_progress && isatty(STDERR_FILENO);
    /* Set before cap_begin(), which checks that -o holds none of
     * the files the command names. */
    if (o.mlir) {
        c.command = command;
        command = NULL;
    } else {
        c.command = g_strdupv(prog);
    }
    if (cap_begin(&c) != 0) {
        rc = CAP_EXIT_NONE;
        goto done;
    }
    if (o.mlir) {
        cap_mlir_opts mo = {o.mlir, o.pipeline, o.arch, progress};
        rc = cap_mlir(&c, &mo);
    } else {
        cap_triton_opts to = {prog, o.kernel, o.passes, o.irloc, progress,
                              ncu, o.ncu_args};
        rc = cap_triton(&c, &to);
    }
done:
    cap_clear(&c);
    g_strfreev(command);
    g_strfreev(prog);
    g_free(args_owner);
    g_free(o.out);
    g_free(o.kernel);
    g_free(o.passes);
    g_free(o.irloc);
    g_free(o.mlir);
    g_free(o.pipeline);
    g_free(o.arch);
    g_free(o.target);
    g_free(o.ncu_given);
    g_free(ncu);
    g_strfreev(o.ncu_args);
    g_strfreev(o.source_dirs);
    g_option_context_free(ctx);
    return rc;
}
