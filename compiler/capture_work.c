/* capture_work.c - the work folder a capture happens in, and the rules for
 * the bundle's place.
 *
 * Everything is written in a fresh folder ".NAME.capture-XXXXXX" beside the
 * bundle (same file system, so the finished bundle is put in place with one
 * rename): WORK/run is the capture folder the program's dump knobs point
 * at, WORK/bundle the bundle being written.  Nothing is written at OUTDIR
 * until the end, and an existing OUTDIR is replaced only with --force and
 * only when it is a tkview bundle (or an empty folder): --force with a
 * mistyped -o must not delete someone's source tree.
 */
#include "capture.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tkdump/tk_staged_dir.h"
#include "tkdump/tk_input_file.h"

gboolean cap_replaceable(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0 || !S_ISDIR(st.st_mode))
        return FALSE;
    GDir *d = g_dir_open(path, 0, NULL);
    if (!d)
        return FALSE;
    gboolean empty = g_dir_read_name(d) == NULL;
    g_dir_close(d);
    if (empty)
        return TRUE;
    char *manifest = g_build_filename(path, "manifest.json", NULL);
    JsonParser *p = json_parser_new();
    gboolean ours = FALSE;
    size_t len = 0;
    /* Not a link (the bundle's own file), then read as any manifest is
     * (tk_input_file.h): a regular file of at most 64 MiB. */
    char *text = lstat(manifest, &st) == 0 && S_ISREG(st.st_mode)
                     ? tk_input_file_read(manifest, TK_INPUT_FILE_MANIFEST,
                                          &len, NULL)
                     : NULL;
    if (text && json_parser_load_from_data(p, text, (gssize)len, NULL)) {
        JsonNode *root = json_parser_get_root(p);
        if (root && JSON_NODE_HOLDS_OBJECT(root)) {
            JsonObject *o = json_node_get_object(root);
            JsonNode *f = json_object_get_member(o, "format");
            ours = f && JSON_NODE_HOLDS_VALUE(f) &&
                   json_node_get_value_type(f) == G_TYPE_STRING &&
                   strcmp(json_node_get_string(f), "tkview-bundle") == 0;
        }
    }
    g_object_unref(p);
    g_free(text);
    g_free(manifest);
    return ours;
}

/* Why OUTDIR cannot be written now; NULL when it can. */
static char *outdir_problem(const char *outdir, gboolean force)
{
    struct stat st;
    if (lstat(outdir, &st) != 0)
        return NULL;
    if (S_ISDIR(st.st_mode)) {
        GDir *d = g_dir_open(outdir, 0, NULL);
        gboolean empty = d && g_dir_read_name(d) == NULL;
        if (d)
            g_dir_close(d);
        if (empty)
            return NULL;
    }
    if (!force)
        return g_strdup_printf("%s exists; choose another -o, or add --force "
                               "to replace the bundle there",
                               outdir);
    if (!cap_replaceable(outdir))
        return g_strdup_printf("%s exists and is not a tkview bundle; not "
                               "replacing it, even with --force",
                               outdir);
    return NULL;
}

/* Why OUTDIR would touch what the capture reads (never write where you
 * read): it is, or holds, the folder the program runs in, a --source-dir
 * folder, the folder of the --mlir file, or a file or folder the command
 * names (the program, its script).  --force replaces OUTDIR whole, so any
 * of them inside it would be deleted.  NULL when it would not. */
static char *overlap_problem(const cap_capture *c)
{
    const char *const *lists[] = {(const char *const *)c->source_dirs,
                                  (const char *const *)c->command};
    for (size_t l = 0; l < G_N_ELEMENTS(lists); l++)
        for (const char *const *p = lists[l]; p && *p; p++) {
            struct stat st;
            if (!**p || stat(*p, &st) != 0)
                continue; /* an option, not a path */
            int rel = tk_staged_dir_overlap(c->outdir, *p);
            if (rel == TK_STAGED_DIR_SAME || rel == TK_STAGED_DIR_CONTAINS)
                return g_strdup_printf(
                    "%s %s %s, which the capture reads; choose another -o",
                    c->outdir, rel == TK_STAGED_DIR_SAME ? "is" : "contains",
                    *p);
        }
    return NULL;
}

int cap_begin(cap_capture *c)
{
    char *why = overlap_problem(c);
    if (!why)
        why = outdir_problem(c->outdir, c->force);
    if (why) {
        fprintf(stderr, "tkview: %s\n", why);
        g_free(why);
        return -1;
    }
    char *parent = g_path_get_dirname(c->outdir);
    char *name = g_path_get_basename(c->outdir);
    struct stat st;
    if (stat(parent, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "tkview: cannot write %s: the folder %s does not "
                        "exist\n",
                c->outdir, parent);
        g_free(parent);
        g_free(name);
        return -1;
    }
    c->work = g_strdup_printf("%s/.%s.capture-XXXXXX", parent, name);
    g_free(parent);
    g_free(name);
    if (!g_mkdtemp_full(c->work, 0700)) {
        fprintf(stderr, "tkview: cannot make a work folder beside %s: %s\n",
                c->outdir, g_strerror(errno));
        g_free(c->work);
        c->work = NULL;
        return -1;
    }
    c->run = g_build_filename(c->work, "run", NULL);
    c->messages = g_build_filename(c->work, "messages.txt", NULL);
    if (g_mkdir(c->run, 0755) != 0) {
        fprintf(stderr, "tkview: cannot make %s: %s\n", c->run,
                g_strerror(errno));
        tk_staged_dir_remove_tree(c->work);
        return -1;
    }
    if (!c->info)
        c->info = json_object_new();
    cap_phase_start(c);
    if (!c->sass_missing)
        c->sass_missing = g_hash_table_new_full(g_str_hash, g_str_equal,
                                                g_free, g_free);
    if (!c->amdgcn_missing)
        c->amdgcn_missing = g_hash_table_new_full(g_str_hash, g_str_equal,
                                                  g_free, g_free);
    return 0;
}

void cap_clear(cap_capture *c)
{
    g_free(c->outdir);
    g_strfreev(c->source_dirs);
    g_free(c->work);
    g_free(c->run);
    g_free(c->messages);
    g_strfreev(c->command);
    if (c->info)
        json_object_unref(c->info);
    g_free(c->compiler_name);
    g_free(c->compiler_version);
    g_free(c->compiler_target);
    if (c->sass_missing)
        g_hash_table_destroy(c->sass_missing);
    g_free(c->sass_missing_all);
    if (c->amdgcn_missing)
        g_hash_table_destroy(c->amdgcn_missing);
    g_free(c->amdgcn_missing_all);
    g_free(c->target);
    g_free(c->ncu);
    g_free(c->profile_report);
    g_free(c->profile_csv);
    memset(c, 0, sizeof *c);
}

void cap_info_set_string(cap_capture *c, const char *key,
                                const char *value)
{
    if (value)
        json_object_set_string_member(c->info, key, value);
    else
        json_object_set_null_member(c->info, key);
}

void cap_info_set_int(cap_capture *c, const char *key, int64_t value)
{
    json_object_set_int_member(c->info, key, value);
}

void cap_each_kernel_folder(const char *const *dirs,
                            void (*fn)(const char *folder, void *user), void *user)
{
    for (size_t i = 0; dirs && dirs[i]; i++) {
        GDir *d = g_dir_open(dirs[i], 0, NULL);
        for (const char *e; d && (e = g_dir_read_name(d));) {
            char *sub = g_build_filename(dirs[i], e, NULL);
            struct stat st;
            if (lstat(sub, &st) == 0 && S_ISDIR(st.st_mode))
                fn(sub, user);
            g_free(sub);
        }
        if (d)
            g_dir_close(d);
    }
}

gboolean cap_any_kernel_file(const char *const *dirs, const char *suffix)
{
    gboolean found = FALSE;
    for (size_t i = 0; dirs && dirs[i] && !found; i++) {
        GDir *d = g_dir_open(dirs[i], 0, NULL);
        for (const char *e; d && !found && (e = g_dir_read_name(d));) {
            char *sub = g_build_filename(dirs[i], e, NULL);
            GDir *k = g_dir_open(sub, 0, NULL);
            for (const char *f; k && !found && (f = g_dir_read_name(k));)
                found = f[0] != '.' && g_str_has_suffix(f, suffix);
            if (k)
                g_dir_close(k);
            g_free(sub);
        }
        if (d)
            g_dir_close(d);
    }
    return found;
}
