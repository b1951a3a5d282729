/* capture_finish.c - from the filled capture folder to the bundle in place.
 *
 * The library does the real work: tk_bundle_load() reads WORK/run like any
 * capture folder (kernels from kernel_dump/ and cache/, pass dumps found by
 * content) and tk_bundle_save() writes the bundle into WORK/bundle.  Then
 * the manifest gets what only capture knows (docs/capture.md): "command",
 * "complete", the "capture" object, a kernel's "sass_missing" reason and,
 * for the MLIR route, the "compiler".  The manifest is read back and
 * rewritten whole with json-glib, so keys the library wrote and this file
 * does not know are kept.  Last, the bundle is renamed to OUTDIR.
 */
#include "capture.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tkdump/tk_bundle.h"
#include "tkdump/tk_bundle_load.h"
#include "tkdump/tk_bundle_write.h"
#include "tkdump/tk_input_file.h"
#include "tkdump/tk_staged_dir.h"

/* The program's messages kept in the bundle: at most this many bytes, the
 * last ones (a traceback is at the end). */
#define MESSAGES_CAP ((goffset)4 << 20)

static void print_diags(const tk_diags *diags, gboolean quiet)
{
    size_t n = tk_diags_count(diags);
    for (size_t i = 0; i < n; i++) {
        const tk_diag *d = tk_diags_get(diags, i);
        if (d->severity < TK_DIAG_WARNING || (quiet && d->severity < TK_DIAG_ERROR))
            continue;
        if (d->line)
            fprintf(stderr, "tkview: %s:%llu: %s: %s\n", d->file,
                    (unsigned long long)d->line,
                    tk_diag_severity_name(d->severity), d->message);
        else
            fprintf(stderr, "tkview: %s: %s: %s\n", d->file,
                    tk_diag_severity_name(d->severity), d->message);
    }
}

/* Copies FROM into BUNDLE/capture/NAME, the last MESSAGES_CAP bytes of it.
 * Returns the relative path REL, or NULL when there was nothing to copy or
 * it failed (the bundle is whole without it).  Used for the shown stderr
 * lines (capture/stderr.txt) and the program's stdout (capture/stdout.txt:
 * ptxas's log), which tkview diagnostics reads. */
static const char *copy_capped(const char *from, const char *bundle,
                               const char *name, const char *rel_name)
{
    struct stat st;
    if (!from || stat(from, &st) != 0 || st.st_size == 0)
        return NULL;
    char *dir = g_build_filename(bundle, "capture", NULL);
    char *to = g_build_filename(dir, name, NULL);
    const char *rel = NULL;
    int in = -1, out = -1;
    if (g_mkdir(dir, 0755) != 0 && errno != EEXIST)
        goto done;
    in = tk_input_file_open(from, TK_INPUT_FILE_PASS_DUMP, NULL, NULL);
    out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (in < 0 || out < 0)
        goto done;
    goffset skip = st.st_size > MESSAGES_CAP ? st.st_size - MESSAGES_CAP : 0;
    if (skip) {
        char *note = g_strdup_printf("[tkview: the first %lld bytes are left "
                                     "out]\n", (long long)skip);
        ssize_t w = write(out, note, strlen(note));
        g_free(note);
        if (w < 0 || lseek(in, skip, SEEK_SET) < 0)
            goto done;
    }
    char buf[65536];
    for (;;) {
        ssize_t r = read(in, buf, sizeof buf);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            goto done;
        if (r == 0)
            break;
        for (ssize_t off = 0; off < r;) {
            ssize_t w = write(out, buf + off, (size_t)(r - off));
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0)
                goto done;
            off += w;
        }
    }
    rel = rel_name;
done:
    if (in >= 0)
        close(in);
    if (out >= 0 && close(out) != 0)
        rel = NULL;
    if (!rel)
        unlink(to);
    g_free(to);
    g_free(dir);
    return rel;
}

static JsonNode *string_array(char **strv)
{
    JsonArray *a = json_array_new();
    for (size_t i = 0; strv && strv[i]; i++) {
        char *valid = g_utf8_make_valid(strv[i], -1);
        json_array_add_string_element(a, valid);
        g_free(valid);
    }
    JsonNode *n = json_node_new(JSON_NODE_ARRAY);
    json_node_take_array(n, a);
    return n;
}

/* Whether the manifest's kernel entry K is an AMD kernel: an AMDGCN stage,
 * a code object, or a "hip" target. */
static gboolean entry_is_amd(JsonObject *k)
{
    JsonNode *sn = json_object_get_member(k, "stages");
    JsonNode *fn = json_object_get_member(k, "files");
    JsonNode *mn = json_object_get_member(k, "metadata");
    if (sn && JSON_NODE_HOLDS_OBJECT(sn) &&
        json_object_has_member(json_node_get_object(sn), "amdgcn"))
        return TRUE;
    if (fn && JSON_NODE_HOLDS_OBJECT(fn) &&
        json_object_has_member(json_node_get_object(fn), "hsaco"))
        return TRUE;
    if (mn && JSON_NODE_HOLDS_OBJECT(mn)) {
        const char *t = json_object_get_string_member_with_default(
            json_node_get_object(mn), "target", "");
        return g_str_has_prefix(t, "hip");
    }
    return FALSE;
}

static gboolean entry_has(JsonObject *k, const char *member, const char *key)
{
    JsonNode *n = json_object_get_member(k, member);
    return n && JSON_NODE_HOLDS_OBJECT(n) &&
           json_object_has_member(json_node_get_object(n), key);
}

/* Adds "sass_missing" to each NVIDIA kernel entry without a SASS stage (no
 * cubin: the compile stopped before ptxas; nvdisasm failing on it; no
 * nvdisasm), and "amdgcn_missing" to each AMD one without an AMDGCN stage
 * (no code object; no llvm-objdump, or it failed).  Returns how many
 * kernels lack their last stage. */
static size_t note_missing_last_stage(const cap_capture *c, JsonObject *root)
{
    JsonNode *kn = json_object_get_member(root, "kernels");
    if (!kn || !JSON_NODE_HOLDS_ARRAY(kn))
        return 0;
    JsonArray *ks = json_node_get_array(kn);
    size_t n = 0;
    for (guint i = 0; i < json_array_get_length(ks); i++) {
        JsonNode *en = json_array_get_element(ks, i);
        if (!JSON_NODE_HOLDS_OBJECT(en))
            continue;
        JsonObject *k = json_node_get_object(en);
        const char *name = json_object_get_string_member_with_default(
            k, "name", "");
        gboolean amd = entry_is_amd(k);
        if (entry_has(k, "stages", amd ? "amdgcn" : "sass"))
            continue;
        n++;
        const char *why;
        if (amd) {
            why = g_hash_table_lookup(c->amdgcn_missing, name);
            if (!entry_has(k, "files", "hsaco"))
                why = "no .amdgcn and no code object (.hsaco): the compile "
                      "did not get as far as the AMDGPU backend";
            else if (!why)
                why = c->amdgcn_missing_all;
            if (!why)
                why = "llvm-objdump printed nothing for this kernel";
        } else {
            why = g_hash_table_lookup(c->sass_missing, name);
            if (!entry_has(k, "files", "cubin"))
                why = "no cubin: the compile did not get as far as ptxas";
            else if (!why)
                why = c->sass_missing_all;
            if (!why)
                why = "nvdisasm printed nothing for this kernel";
        }
        json_object_set_string_member(k, amd ? "amdgcn_missing" : "sass_missing",
                                      why);
    }
    return n;
}

static int complete_manifest(const cap_capture *c, const char *bundle,
                             const char *messages_rel, const char *stdout_rel,
                             size_t *no_sass)
{
    char *path = g_build_filename(bundle, "manifest.json", NULL);
    JsonParser *p = json_parser_new();
    GError *err = NULL;
    int rc = -1;
    size_t in_len = 0;
    char *why = NULL;
    char *in_text = tk_input_file_read(path, TK_INPUT_FILE_MANIFEST, &in_len,
                                       &why);
    if (!in_text) {
        fprintf(stderr, "tkview: cannot complete %s: %s\n", path, why);
        g_free(why);
        goto done;
    }
    gboolean parsed =
        json_parser_load_from_data(p, in_text, (gssize)in_len, &err);
    g_free(in_text);
    if (!parsed) {
        fprintf(stderr, "tkview: cannot complete %s: %s\n", path,
                err->message);
        g_error_free(err);
        goto done;
    }
    JsonNode *rootn = json_parser_get_root(p);
    if (!rootn || !JSON_NODE_HOLDS_OBJECT(rootn)) {
        fprintf(stderr, "tkview: cannot complete %s: not a JSON object\n",
                path);
        goto done;
    }
    JsonObject *root = json_node_get_object(rootn);
    json_object_set_member(root, "command", string_array(c->command));
    json_object_set_boolean_member(root, "complete", c->complete);
    if (c->compiler_name) {
        JsonObject *comp = json_object_new();
        json_object_set_string_member(comp, "name", c->compiler_name);
        if (c->compiler_version)
            json_object_set_string_member(comp, "version", c->compiler_version);
        else
            json_object_set_null_member(comp, "version");
        if (c->compiler_target)
            json_object_set_string_member(comp, "target", c->compiler_target);
        else
            json_object_set_null_member(comp, "target");
        json_object_set_object_member(root, "compiler", comp);
    }
    if (messages_rel)
        json_object_set_string_member(c->info, "stderr", messages_rel);
    if (stdout_rel)
        json_object_set_string_member(c->info, "stdout", stdout_rel);
    json_object_set_object_member(root, "capture", json_object_ref(c->info));
    *no_sass = note_missing_last_stage(c, root);

    JsonGenerator *g = json_generator_new();
    json_generator_set_root(g, rootn);
    json_generator_set_pretty(g, TRUE);
    gsize len;
    char *text = json_generator_to_data(g, &len);
    g_object_unref(g);
    if (!g_file_set_contents(path, text, (gssize)len, &err)) {
        fprintf(stderr, "tkview: cannot write %s: %s\n", path, err->message);
        g_error_free(err);
    } else {
        rc = 0;
    }
    g_free(text);
done:
    g_object_unref(p);
    g_free(path);
    return rc;
}

/* --target: every kernel must have been compiled for C->target (NAME.json's
 * target, "hip:gfx942").  Kernels compiled for something else are named
 * (warnings, and "target_mismatch" in the manifest's "capture"); a capture
 * with no kernel for the target is incomplete: the program did not compile
 * for it. */
static void check_target(cap_capture *c, const tk_bundle *b)
{
    if (!c->target)
        return;
    JsonArray *mismatch = json_array_new();
    size_t matched = 0, n = tk_bundle_kernel_count(b);
    char *other = NULL;
    for (size_t i = 0; i < n; i++) {
        const tk_kernel *k = tk_bundle_kernel(b, i);
        const char *t = tk_kernel_metadata(k)->target;
        if (t && strcmp(t, c->target) == 0) {
            matched++;
            continue;
        }
        char *what = g_strdup_printf("%s %.8s: %s", tk_kernel_name(k),
                                     tk_kernel_hash(k), t ? t : "unknown target");
        char *valid = g_utf8_make_valid(what, -1);
        json_array_add_string_element(mismatch, valid);
        if (!c->quiet)
            fprintf(stderr, "tkview: warning: kernel %s was compiled for %s, "
                            "not %s\n", valid, t ? t : "an unknown target",
                    c->target);
        if (!other && t)
            other = g_strdup(t);
        g_free(valid);
        g_free(what);
    }
    json_object_set_array_member(c->info, "target_mismatch", mismatch);
    if (matched == 0) {
        c->complete = FALSE;
        fprintf(stderr, "tkview: --target %s: no kernel was compiled for it%s%s%s; "
                        "a program compiles for a GPU it does not have with "
                        "triton.compile(..., target=GPUTarget(...)), which may "
                        "read TKVIEW_TARGET (docs/capture.md)\n",
                c->target, other ? " (the program compiled for " : "",
                other ? other : "", other ? ")" : "");
    }
    g_free(other);
}

/* Renames the finished bundle BUILT to OUTDIR (tk_staged_dir_place()),
 * replacing a bundle there only with --force.  When OUTDIR was taken
 * meanwhile, the bundle goes to OUTDIR-2, -3...: a finished capture is
 * never thrown away.  Returns the final path (caller frees), or NULL after
 * printing why. */
static char *place(const cap_capture *c, const char *built)
{
    unsigned flags = c->force && cap_replaceable(c->outdir)
                         ? TK_STAGED_DIR_REPLACE
                         : 0;
    if (tk_staged_dir_place(built, c->outdir, flags) == 0)
        return g_strdup(c->outdir);
    int e = errno;
    if (e == ENOTEMPTY || e == EEXIST || e == ENOTDIR || e == EISDIR) {
        for (int i = 2; i < 1000; i++) {
            char *alt = g_strdup_printf("%s-%d", c->outdir, i);
            struct stat st;
            if (lstat(alt, &st) != 0 && tk_staged_dir_place(built, alt, 0) == 0) {
                fprintf(stderr, "tkview: %s appeared while capturing; the "
                                "bundle is at %s instead\n",
                        c->outdir, alt);
                return alt;
            }
            g_free(alt);
        }
    }
    fprintf(stderr, "tkview: cannot put the bundle at %s: %s\n", c->outdir,
            g_strerror(e));
    return NULL;
}

/* The autotuner's timings the hook wrote (run/autotune/PID.json, one per
 * process: compile workers and the program), merged into the bundle's
 * autotune_timings.json: {"configs": [...]} (`tkview configs` reads it).
 * A file that is not such JSON is left out with a warning. */
static void merge_autotune(const cap_capture *c, const char *bundle)
{
    char *dir = g_build_filename(c->run, "autotune", NULL);
    GDir *d = g_dir_open(dir, 0, NULL);
    JsonArray *all = json_array_new();
    const char *name;
    while (d && (name = g_dir_read_name(d))) {
        if (!g_str_has_suffix(name, ".json"))
            continue;
        char *path = g_build_filename(dir, name, NULL);
        JsonParser *p = json_parser_new();
        JsonNode *root = json_parser_load_from_file(p, path, NULL)
                             ? json_parser_get_root(p) : NULL;
        JsonObject *o = root && JSON_NODE_HOLDS_OBJECT(root) ? json_node_get_object(root) : NULL;
        JsonNode *configs = o ? json_object_get_member(o, "configs") : NULL;
        if (configs && JSON_NODE_HOLDS_ARRAY(configs)) {
            JsonArray *a = json_node_get_array(configs);
            for (guint i = 0; i < json_array_get_length(a); i++)
                json_array_add_element(all, json_node_copy(json_array_get_element(a, i)));
        } else {
            fprintf(stderr, "tkview: %s: not the autotuner's timings; left out\n", path);
        }
        g_object_unref(p);
        g_free(path);
    }
    if (d)
        g_dir_close(d);
    if (json_array_get_length(all) > 0) {
        JsonObject *o = json_object_new();
        json_object_set_array_member(o, "configs", all);
        JsonNode *root = json_node_new(JSON_NODE_OBJECT);
        json_node_take_object(root, o);
        JsonGenerator *g = json_generator_new();
        json_generator_set_pretty(g, TRUE);
        json_generator_set_root(g, root);
        char *to = g_build_filename(bundle, "autotune_timings.json", NULL);
        if (!json_generator_to_file(g, to, NULL))
            fprintf(stderr, "tkview: cannot write %s\n", to);
        g_free(to);
        g_object_unref(g);
        json_node_unref(root);
    } else {
        json_array_unref(all);
    }
    g_free(dir);
}

int cap_finish(cap_capture *c)
{
    char **dirs = c->source_dirs;
    tk_load_options opts = {(const char *const *)dirs,
                            dirs ? g_strv_length(dirs) : 0};
    tk_diags *diags = tk_diags_new();
    tk_bundle *b = tk_bundle_load(c->run, &opts, diags);
    cap_phase_done(c, "load");
    int rc = CAP_EXIT_NONE;
    char *built = g_build_filename(c->work, "bundle", NULL);
    char *final = NULL;
    gboolean keep = c->keep_work;
    if (!b || tk_bundle_kernel_count(b) == 0) {
        fprintf(stderr, "tkview: no kernel was compiled before the program "
                        "ended: no bundle written\n");
        goto done;
    }
    print_diags(diags, c->quiet);
    tk_diags_free(diags);
    diags = tk_diags_new();
    check_target(c, b);
    if (!c->quiet)
        fprintf(stderr, "tkview: writing the bundle...\n");
    if (tk_bundle_save(b, built, diags) != 0) {
        print_diags(diags, FALSE);
        keep = TRUE;
        goto done;
    }
    print_diags(diags, c->quiet);
    cap_phase_done(c, "save");
    /* The profile goes in before the manifest is completed, which then
     * says how it went (capture.profile). */
    if (c->profile_report)
        cap_profile_import(c, built);
    const char *messages_rel = copy_capped(c->messages, built, "stderr.txt",
                                           "capture/stderr.txt");
    char *outpath = c->run ? g_build_filename(c->run, "stdout.txt", NULL) : NULL;
    const char *stdout_rel = copy_capped(outpath, built, "stdout.txt",
                                         "capture/stdout.txt");
    g_free(outpath);
    merge_autotune(c, built);
    size_t no_sass = 0;
    if (complete_manifest(c, built, messages_rel, stdout_rel, &no_sass) != 0) {
        keep = TRUE;
        goto done;
    }
    cap_phase_done(c, "manifest");
    if (!(final = place(c, built))) {
        keep = TRUE;
        goto done;
    }
    rc = c->complete && !c->profile_failed ? CAP_EXIT_COMPLETE
                                           : CAP_EXIT_INCOMPLETE;
    if (!c->quiet) {
        size_t n = tk_bundle_kernel_count(b);
        fprintf(stderr, "tkview: wrote %s: %zu kernel%s, %s%s\n", final, n,
                n == 1 ? "" : "s",
                c->complete ? "complete" : "INCOMPLETE (see its manifest)",
                c->profile_failed ? ", without a profile (see capture.profile "
                                    "in its manifest)"
                                  : "");
        if (no_sass)
            fprintf(stderr, "tkview: %zu kernel%s without SASS or AMDGCN (why: "
                            "sass_missing or amdgcn_missing in its manifest)%s%s\n",
                    no_sass, no_sass == 1 ? "" : "s",
                    c->sass_missing_all || c->amdgcn_missing_all ? ": " : "",
                    c->sass_missing_all ? c->sass_missing_all
                    : c->amdgcn_missing_all ? c->amdgcn_missing_all : "");
    }
done:
    if (keep)
        fprintf(stderr, "tkview: the capture folder is kept at %s\n", c->work);
    else
        tk_staged_dir_remove_tree(c->work);
    cap_phase_done(c, "place_cleanup");
    tk_diags_free(diags);
    tk_bundle_free(b);
    g_free(built);
    g_free(final);
    return rc;
}
