/* capture_mlir.c - the MLIR route: a capture made with Debian's MLIR and
 * LLVM tools, no GPU and no Triton needed.
 *
 * `tkview capture --mlir FILE.mlir` compiles an MLIR GPU kernel the way
 * Triton compiles one, with the same kind of dumps, and fills the capture
 * folder the same way (WORK/run/kernel_dump/HASH/NAME.*, mlir_passes.txt,
 * stderr.txt), so the rest of capture is the Triton route's:
 *
 *   step          tool (Debian 12)                         stage slot
 *   parse         mlir-opt-19 --mlir-print-debuginfo        ttir  (the input
 *                                                           with its locations)
 *   lower         mlir-opt-19 --pass-pipeline=P             ttgir (the LLVM-
 *                 --mlir-print-ir-before-all -> mlir_passes.txt   dialect result)
 *   translate     mlir-translate-19 --mlir-to-llvmir        (opt's input)
 *   optimize      opt-19 -O3 -print-after-all -> stderr.txt llir
 *   codegen       llc-19 -mtriple=nvptx64-nvidia-cuda       ptx
 *                 -print-after-all -> stderr.txt
 *   assemble      ptxas -lineinfo (when present)            cubin
 *   disassemble   nvdisasm -c -gi (when present)            sass
 *
 * The slots keep Triton's names because the library and the viewers know
 * them: "ttir" is the first MLIR level, "ttgir" the last, as in Triton.
 * Locations are the input's: MLIR gives every op of FILE.mlir a
 * loc("FILE.mlir":line:col) when it parses it, and explicit loc(...) in the
 * file point wherever they say.  The LLVM dialect's debug info needs a
 * DISubprogram on each function; the default pipeline ends with
 * ensure-debug-info-scope-on-llvm-func for that.
 *
 * mlir-translate translates a module of LLVM-dialect functions, but the GPU
 * lowering leaves them inside a gpu.module; the first gpu.module of the
 * lowered text (with the file's #alias lines) is therefore cut out and given
 * to mlir-translate as the top-level op (--no-implicit-module).  A pipeline
 * that leaves no gpu.module is translated whole.
 */
#include "capture.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tkdump/tk_staged_dir.h"
#include "tkdump/tk_input_file.h"

/* Lower to the LLVM dialect, give every function a DISubprogram, then
 * inline: inlining after the subprograms exist is what keeps a helper's
 * lines as inline frames (DILocation inlinedAt) in the LLVM IR; inlined
 * before, MLIR's translation keeps only the call site's line. */
const char cap_mlir_default_pipeline[] =
    "builtin.module(gpu.module(canonicalize,cse,convert-scf-to-cf,"
    "convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=1},"
    "reconcile-unrealized-casts),ensure-debug-info-scope-on-llvm-func,"
    "gpu.module(inline,canonicalize,cse))";

#define STEP_TIMEOUT_S 600.0

typedef struct {
    cap_capture *c;
    const cap_mlir_opts *o;
    gboolean progress;
    JsonArray *steps;   /* the manifest's capture.steps */
    int n_steps, step_no;
    gboolean failed;    /* a step failed or was interrupted: stop */
} route;

/* The kernel's name: the first "gpu.func @NAME(...) kernel" of the input
 * (the "kernel" keyword comes after the signature, before the body's "{"),
 * else the first gpu.func, llvm.func or func.func.  Caller frees; NULL when
 * there is none. */
static char *kernel_name_of(const char *text)
{
    static const char *const patterns[] = {
        "gpu\\.func\\s+@\"?([A-Za-z_][A-Za-z0-9_$.]*)",
        "llvm\\.func\\s+(?:[a-z_]+\\s+)*@\"?([A-Za-z_][A-Za-z0-9_$.]*)",
        "func\\.func\\s+(?:[a-z_]+\\s+)*@\"?([A-Za-z_][A-Za-z0-9_$.]*)"};
    char *first = NULL;
    for (size_t i = 0; i < G_N_ELEMENTS(patterns) && !first; i++) {
        GRegex *re = g_regex_new(patterns[i], G_REGEX_MULTILINE, 0, NULL);
        GMatchInfo *m = NULL;
        g_regex_match(re, text, 0, &m);
        while (g_match_info_matches(m)) {
            char *name = g_match_info_fetch(m, 1);
            int end = 0;
            g_match_info_fetch_pos(m, 0, NULL, &end);
            const char *body = strchr(text + end, '{');
            char *head = body ? g_strndup(text + end, (gsize)(body - (text + end)))
                              : NULL;
            gboolean kernel = i == 0 && head && strstr(head, " kernel");
            g_free(head);
            if (kernel) {
                g_free(first);
                g_match_info_free(m);
                g_regex_unref(re);
                return name;
            }
            if (!first)
                first = name;
            else
                g_free(name);
            g_match_info_next(m, NULL);
        }
        g_match_info_free(m);
        g_regex_unref(re);
    }
    return first;
}

/* "90" from "sm_90" or "sm_90a"; NULL when ARCH is not sm_N. */
static char *arch_number(const char *arch)
{
    if (!g_str_has_prefix(arch, "sm_") || !g_ascii_isdigit(arch[3]))
        return NULL;
    const char *e = arch + 3;
    while (g_ascii_isdigit(*e))
        e++;
    if (*e && strcmp(e, "a") != 0 && strcmp(e, "f") != 0)
        return NULL;
    return g_strndup(arch + 3, (gsize)(e - (arch + 3)));
}

/* The "X.Y.Z" of `TOOL --version`; caller frees; NULL when not found. */
static char *tool_version(const cap_capture *c, const char *tool)
{
    char *out = g_build_filename(c->work, "version.txt", NULL);
    char *argv[] = {(char *)tool, "--version", NULL};
    char *text = NULL, *version = NULL;
    if (cap_tool_run(argv, out, 60, NULL) == 0 &&
        (text = tk_input_file_read(out, TK_INPUT_FILE_STAGE, NULL, NULL))) {
        GRegex *re = g_regex_new("version\\s+([0-9]+\\.[0-9]+(\\.[0-9]+)?)",
                                 0, 0, NULL);
        GMatchInfo *m = NULL;
        if (g_regex_match(re, text, 0, &m))
            version = g_match_info_fetch(m, 1);
        g_match_info_free(m);
        g_regex_unref(re);
    }
    g_free(text);
    unlink(out);
    g_free(out);
    return version;
}

static JsonNode *argv_node(char **argv)
{
    JsonArray *a = json_array_new();
    for (size_t i = 0; argv[i]; i++)
        json_array_add_string_element(a, argv[i]);
    JsonNode *n = json_node_new(JSON_NODE_ARRAY);
    json_node_take_array(n, a);
    return n;
}

/* Runs one step: ARGV with stdout to OUT_PATH (NULL: the terminal) and
 * stderr appended to ERR_PATH (dumps), its messages shown.  Records it in
 * the manifest's steps.  Returns TRUE when it succeeded. */
static gboolean run_step(route *r, const char *label, char **argv,
                         const char *err_path, const char *out_path)
{
    if (r->failed)
        return FALSE;
    r->step_no++;
    cap_capture *c = r->c;
    if (cap_signals_count() > 0) {
        r->failed = TRUE;
        return FALSE;
    }
    int err_fd = open(err_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
                      0644);
    int msg_fd = open(c->messages, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
                      0644);
    int out_fd = out_path ? open(out_path, O_WRONLY | O_CREAT | O_TRUNC |
                                               O_CLOEXEC, 0644)
                          : -1;
    int in_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    cap_child_result res = {0};
    char *how = NULL;
    if (err_fd < 0 || msg_fd < 0 || in_fd < 0 || (out_path && out_fd < 0)) {
        how = g_strdup_printf("could not be started: cannot open its files: "
                              "%s",
                              g_strerror(errno));
        fprintf(stderr, "tkview: %s %s\n", label, how);
    } else {
        const char *files[] = {err_path, NULL};
        char *step = g_strdup_printf("[%d/%d] %s", r->step_no, r->n_steps,
                                     label);
        cap_progress *p = cap_progress_new(
            r->progress && !c->quiet ? stderr : NULL, NULL, files);
        cap_progress_set_step(p, step);
        cap_progress_tick(p);
        cap_stderr_filter *f = cap_stderr_filter_new();
        cap_child_spec spec = {
            .argv = argv, .stdin_fd = in_fd, .stdout_fd = out_fd,
            .stderr_fd = err_fd, .filter = f, .show = stderr,
            .messages_fd = msg_fd, .progress = p, .timeout_s = STEP_TIMEOUT_S,
            .grace_s = 10};
        cap_child_run(&spec, &res);
        cap_progress_free(p);
        cap_stderr_filter_free(f);
        g_free(step);
        how = cap_child_describe(&res);
        if (!cap_child_ok(&res))
            fprintf(stderr, "tkview: %s %s\n", label, how);
    }
    gboolean ok = cap_child_ok(&res);
    JsonObject *s = json_object_new();
    json_object_set_string_member(s, "step", label);
    json_object_set_member(s, "argv", argv_node(argv));
    json_object_set_string_member(s, "result", how);
    json_object_set_double_member(s, "seconds", res.seconds);
    json_object_set_int_member(s, "stderr_bytes", (int64_t)res.stderr_bytes);
    json_array_add_object_element(r->steps, s);
    g_free(how);
    g_free(res.error);
    if (err_fd >= 0)
        close(err_fd);
    if (msg_fd >= 0)
        close(msg_fd);
    if (out_fd >= 0)
        close(out_fd);
    if (in_fd >= 0)
        close(in_fd);
    if (!ok) {
        r->failed = TRUE;
        if (out_path)
            unlink(out_path); /* a half-written stage would mislead */
    }
    return ok;
}

/* Cuts the first gpu.module out of the MLIR text at FROM (with every
 * "#alias = ..." line of the file) into TO.  Returns 1 when one was found and
 * written, 0 when the text has none, -1 on a read or write error. */
static int cut_gpu_module(const char *from, const char *to)
{
    /* A dump file: a regular file, opened without blocking, within a stage
     * file's limit (tk_input_file.h). */
    char *text = tk_input_file_read(from, TK_INPUT_FILE_STAGE, NULL, NULL);
    if (!text)
        return -1;
    char **lines = g_strsplit(text, "\n", -1);
    g_free(text);
    GString *aliases = g_string_new(NULL), *body = g_string_new(NULL);
    int state = 0; /* 0 before, 1 inside, 2 after the gpu.module */
    size_t indent = 0;
    for (size_t i = 0; lines[i]; i++) {
        const char *l = lines[i];
        size_t sp = strspn(l, " ");
        if (l[0] == '#') {
            g_string_append(aliases, l);
            g_string_append_c(aliases, '\n');
            continue;
        }
        if (state == 0 && g_str_has_prefix(l + sp, "gpu.module @")) {
            state = 1;
            indent = sp;
        }
        if (state == 1) {
            g_string_append(body, l + MIN(sp, indent));
            g_string_append_c(body, '\n');
            if (sp == indent && l[sp] == '}' && body->len > 0 &&
                !g_str_has_prefix(l + sp, "gpu.module"))
                state = 2;
        }
    }
    g_strfreev(lines);
    int rc = 0;
    if (state == 2) {
        g_string_append(aliases, body->str);
        rc = g_file_set_contents(to, aliases->str, (gssize)aliases->len, NULL)
                 ? 1
                 : -1;
    }
    g_string_free(aliases, TRUE);
    g_string_free(body, TRUE);
    return rc;
}

static char *find(const char *a, const char *b, const char *const *dirs)
{
    const char *names[] = {a, b, NULL};
    return cap_tool_find(names, dirs);
}

/* The kernel's name from its file's name when the text names none. */
static char *name_of_file(const char *input)
{
    char *base = g_path_get_basename(input);
    char *dot = strrchr(base, '.');
    if (dot && dot != base)
        *dot = '\0';
    return base;
}

/* The kernel's hash: the input's text and what compiles it (caller frees). */
static char *input_hash(const char *text, size_t text_len, const char *pipeline,
                        const char *arch, const char *version)
{
    GChecksum *sum = g_checksum_new(G_CHECKSUM_SHA256);
    g_checksum_update(sum, (const guchar *)text, (gssize)text_len);
    const char *parts[] = {pipeline, arch, version ? version : ""};
    for (size_t i = 0; i < G_N_ELEMENTS(parts); i++) {
        g_checksum_update(sum, (const guchar *)"\n", 1);
        g_checksum_update(sum, (const guchar *)parts[i], (gssize)strlen(parts[i]));
    }
    char *hash = g_strdup(g_checksum_get_string(sum));
    g_checksum_free(sum);
    return hash;
}

/* Writes Triton's metadata file (name, hash, target) for kernel NAME into
 * KDIR.  Returns the name the kernel's files take ('/' made '_'; caller
 * frees), or NULL (said on stderr) when it cannot be written. */
static char *write_meta(const char *kdir, const char *name, const char *hash,
                        const char *archno)
{
    JsonBuilder *jb = json_builder_new();
    json_builder_begin_object(jb);
    json_builder_set_member_name(jb, "name");
    json_builder_add_string_value(jb, name);
    json_builder_set_member_name(jb, "hash");
    json_builder_add_string_value(jb, hash);
    json_builder_set_member_name(jb, "target");
    json_builder_begin_object(jb);
    json_builder_set_member_name(jb, "backend");
    json_builder_add_string_value(jb, "cuda");
    json_builder_set_member_name(jb, "arch");
    json_builder_add_int_value(jb, g_ascii_strtoll(archno, NULL, 10));
    json_builder_end_object(jb);
    json_builder_end_object(jb);
    JsonNode *metan = json_builder_get_root(jb);
    char *meta = json_to_string(metan, TRUE);
    json_node_unref(metan);
    g_object_unref(jb);
    char *safe = g_strdelimit(g_strdup(name), "/", '_');
    char *meta_path = g_strdup_printf("%s/%s.json", kdir, safe);
    gboolean meta_ok = g_file_set_contents(meta_path, meta, -1, NULL);
    g_free(meta);
    g_free(meta_path);
    if (!meta_ok) {
        fprintf(stderr, "tkview: cannot write the kernel's metadata in %s\n",
                kdir);
        g_free(safe);
        return NULL;
    }
    return safe;
}

/* The tools of the MLIR route (found in PATH or CUDA's folders; OPT and
 * PTXAS may be NULL). */
typedef struct {
    char *mlir_opt, *translate, *opt, *llc, *ptxas;
} mlir_tools;

/* Runs the compile, one step after another into R: mlir-opt (parse, then
 * lower with the pass dumps), the gpu.module cut out, mlir-translate, opt,
 * llc and ptxas, writing kernel NAME's stage files into KDIR. */
static void run_steps(route *r, const mlir_tools *t, const char *kdir,
                      const char *name, char *input, const char *pipeline,
                      const char *arch, const char *mlir_dump,
                      const char *llvm_dump)
{
    cap_capture *c = r->c;
    char *ttir = g_strdup_printf("%s/%s.ttir", kdir, name);
    char *ttgir = g_strdup_printf("%s/%s.ttgir", kdir, name);
    char *cut = g_build_filename(c->work, "gpu_module.mlir", NULL);
    char *translated = g_build_filename(c->work, "translated.ll", NULL);
    char *llir = g_strdup_printf("%s/%s.llir", kdir, name);
    char *ptx = g_strdup_printf("%s/%s.ptx", kdir, name);
    char *cubin = g_strdup_printf("%s/%s.cubin", kdir, name);
    char *pipe_arg = g_strdup_printf("--pass-pipeline=%s", pipeline);
    char *mcpu = g_strdup_printf("-mcpu=%s", arch);
    char *ptx_arch = g_strdup_printf("-arch=%s", arch);
    r->n_steps = 5 + (t->opt ? 1 : 0) + (t->ptxas ? 1 : 0);

    char *parse_argv[] = {t->mlir_opt, "--mlir-print-debuginfo", input, "-o",
                          ttir, NULL};
    run_step(r, "mlir-opt (parse)", parse_argv, mlir_dump, NULL);
    char *lower_argv[] = {t->mlir_opt, "--mlir-print-debuginfo",
                          "--mlir-print-ir-before-all",
                          "--mlir-print-ir-module-scope",
                          "--mlir-disable-threading", pipe_arg, input, "-o",
                          ttgir, NULL};
    run_step(r, "mlir-opt (lower)", lower_argv, mlir_dump, NULL);
    const char *to_translate = ttgir;
    gboolean whole = TRUE;
    if (!r->failed) {
        r->step_no++;
        int cutrc = cut_gpu_module(ttgir, cut);
        if (cutrc < 0) {
            fprintf(stderr, "tkview: cannot cut the gpu.module out of %s\n",
                    ttgir);
            r->failed = TRUE;
        } else if (cutrc == 1) {
            to_translate = cut;
            whole = FALSE;
        }
    }
    char *translate_argv[] = {t->translate, "--mlir-to-llvmir", (char *)to_translate,
                              "-o", translated, whole ? NULL : "--no-implicit-module",
                              NULL};
    run_step(r, "mlir-translate", translate_argv, llvm_dump, NULL);
    if (t->opt) {
        char *opt_argv[] = {t->opt, "-O3", "-mtriple=nvptx64-nvidia-cuda", mcpu,
                            "-print-after-all", translated, "-S", "-o", llir,
                            NULL};
        run_step(r, "opt", opt_argv, llvm_dump, NULL);
    } else if (!r->failed) {
        size_t cplen = 0;
        char *cp = tk_input_file_read(translated, TK_INPUT_FILE_STAGE, &cplen,
                                      NULL);
        if (!cp ||
            !g_file_set_contents(llir, cp, (gssize)cplen, NULL))
            r->failed = TRUE;
        g_free(cp);
    }
    char *llc_argv[] = {t->llc, "-O3", "-mtriple=nvptx64-nvidia-cuda", mcpu,
                        "-mattr=+ptx80", "-print-after-all", llir, "-o", ptx,
                        NULL};
    run_step(r, "llc", llc_argv, llvm_dump, NULL);
    if (t->ptxas) {
        char *ptxas_argv[] = {t->ptxas, ptx_arch, "-lineinfo", ptx, "-o", cubin,
                              NULL};
        run_step(r, "ptxas", ptxas_argv, llvm_dump, NULL);
    }
    g_free(ttir);
    g_free(ttgir);
    g_free(cut);
    g_free(translated);
    g_free(llir);
    g_free(ptx);
    g_free(cubin);
    g_free(pipe_arg);
    g_free(mcpu);
    g_free(ptx_arch);
}

int cap_mlir(cap_capture *c, const cap_mlir_opts *o)
{
    const char *arch = o->arch ? o->arch : "sm_90";
    const char *pipeline = o->pipeline ? o->pipeline
                                       : cap_mlir_default_pipeline;
    char *archno = arch_number(arch);
    char *input = g_canonicalize_filename(o->input, NULL);
    char *text = NULL;
    size_t text_len = 0;
    const char *cuda_home = g_getenv("CUDA_HOME");
    char *cuda_bin = cuda_home ? g_build_filename(cuda_home, "bin", NULL)
                               : g_strdup("");
    const char *cuda_dirs[] = {cuda_bin, "/usr/local/cuda/bin", NULL};
    char *mlir_opt = find("mlir-opt-19", "mlir-opt", NULL);
    char *translate = find("mlir-translate-19", "mlir-translate", NULL);
    char *opt = find("opt-19", "opt", NULL);
    char *llc = find("llc-19", "llc", NULL);
    char *ptxas = find("ptxas", NULL, cuda_dirs);
    char *nvdisasm = find("nvdisasm", NULL, cuda_dirs);
    char *name = NULL, *hash = NULL, *kdir = NULL, *version = NULL;
    char *mlir_dump = NULL, *llvm_dump = NULL;
    int rc = CAP_EXIT_NONE;
    gboolean finished = FALSE;
    route r = {c, o, o->progress, json_array_new(), 0, 0, FALSE};

    if (!archno) {
        fprintf(stderr, "tkview: --arch %s: expected sm_N (sm_90, sm_80...)\n",
                arch);
        rc = CAP_EXIT_USAGE;
        goto out;
    }
    char *why = NULL;
    if (!(text = tk_input_file_read(input, TK_INPUT_FILE_STAGE, &text_len,
                                    &why))) {
        fprintf(stderr, "tkview: cannot read %s: %s\n", o->input, why);
        g_free(why);
        goto out;
    }
    if (!mlir_opt || !translate || !llc) {
        fprintf(stderr, "tkview: the MLIR route needs mlir-opt-19, "
                        "mlir-translate-19 and llc-19 (Debian 12: apt-get "
                        "install mlir-19-tools llvm-19); not found: %s%s%s\n",
                mlir_opt ? "" : "mlir-opt ", translate ? "" : "mlir-translate ",
                llc ? "" : "llc");
        goto out;
    }
    name = kernel_name_of(text);
    if (!name)
        name = name_of_file(input);
    version = tool_version(c, mlir_opt);
    hash = input_hash(text, text_len, pipeline, arch, version);

    char *kd = g_build_filename(c->run, "kernel_dump", NULL);
    kdir = g_build_filename(kd, hash, NULL);
    g_free(kd);
    if (g_mkdir_with_parents(kdir, 0755) != 0) {
        fprintf(stderr, "tkview: cannot make %s: %s\n", kdir,
                g_strerror(errno));
        goto out;
    }
    mlir_dump = g_build_filename(c->run, "mlir_passes.txt", NULL);
    llvm_dump = g_build_filename(c->run, "stderr.txt", NULL);

    /* Triton's metadata file, so the kernel has its hash and target. */
    char *safe = write_meta(kdir, name, hash, archno);
    if (!safe)
        goto out;
    g_free(name);
    name = safe;

    c->compiler_name = g_strdup("mlir");
    c->compiler_version = g_strdup(version);
    c->compiler_target = g_strdup_printf("cuda:%s", archno);
    cap_info_set_string(c, "route", "mlir");
    cap_info_set_string(c, "input", input);
    cap_info_set_string(c, "pipeline", pipeline);
    cap_info_set_string(c, "arch", arch);

    cap_signals_install();
    mlir_tools tools = {mlir_opt, translate, opt, llc, ptxas};
    run_steps(&r, &tools, kdir, name, input, pipeline, arch, mlir_dump,
              llvm_dump);
    c->complete = !r.failed && cap_signals_count() == 0;
    json_object_set_array_member(c->info, "steps", r.steps);
    r.steps = NULL;
    cap_info_set_string(c, "ptxas", ptxas);

    const char *dirs[] = {kdir, NULL};
    /* make_sass walks folders of kernel folders: give it kernel_dump/. */
    char *kparent = g_path_get_dirname(kdir);
    dirs[0] = kparent;
    if (!ptxas)
        cap_make_sass(c, NULL, dirs,
                             "ptxas was not found (looked in PATH, CUDA_HOME/bin "
                             "and /usr/local/cuda/bin): no cubin, so no SASS");
    else
        cap_make_sass(c, nvdisasm, dirs,
                             "nvdisasm was not found (looked in PATH, "
                             "CUDA_HOME/bin and /usr/local/cuda/bin)");
    if (ptxas) {
        const char *lr_tools[] = {nvdisasm, NULL};
        cap_make_life_ranges(c, lr_tools, dirs,
                             "nvdisasm was not found (looked in PATH, "
                             "CUDA_HOME/bin and /usr/local/cuda/bin)");
    }
    g_free(kparent);
    rc = cap_finish(c);
    finished = TRUE;
    cap_signals_restore();

out:
    /* cap_finish() removes the work folder or says where it kept it;
     * before it, the folder holds nothing worth keeping. */
    if (!finished && !c->keep_work)
        tk_staged_dir_remove_tree(c->work);
    if (r.steps)
        json_array_unref(r.steps);
    g_free(archno);
    g_free(input);
    g_free(text);
    g_free(cuda_bin);
    g_free(mlir_opt);
    g_free(translate);
    g_free(opt);
    g_free(llc);
    g_free(ptxas);
    g_free(nvdisasm);
    g_free(name);
    g_free(hash);
    g_free(kdir);
    g_free(version);
    g_free(mlir_dump);
    g_free(llvm_dump);
    return rc;
}
