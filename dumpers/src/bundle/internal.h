/* internal.h - the bundle structure and what the folders of its jobs
 * share (internal).  The kernel structure is kernel/kernel.h.
 *
 * bundle.c (accessors, finding a kernel), json.c (safe JSON parsing and
 * typed member access), path.c (paths that must stay inside a folder, safe
 * file names), sources.c (source resolution).  The jobs live above:
 * load/ (dispatch, scanning, the manifest, metadata), passfiles/ (pass dump
 * files and each kernel's sequence in them, gzip), statement/, write/
 * (tk_bundle_save, tk_bundle_check_output) and query/.
 */
#ifndef TKDUMP_BUNDLE_INTERNAL_H
#define TKDUMP_BUNDLE_INTERNAL_H

#include <glib.h>
#include <json-glib/json-glib.h>

#include "kernel/kernel.h"
#include "tkdump/tk_bundle.h"
#include "tkdump/tk_input_file.h"

/* A pass dump file found with the input (passfiles/). */
typedef struct bundle_pass_file bundle_pass_file;

struct tk_bundle {
    char *path; /* as the caller gave it */
    char *root; /* absolute: the folder loaded (a single file's folder) */
    /* The trust rule (docs/bundle.md, "What a bundle may read"): when the
     * input is a bundle, someone else's folder, the real path of that
     * folder; only files whose real path is under it (and files of the
     * --source-dir folders) are read.  NULL for the user's own folders (a
     * capture, a Triton cache, loose files), read as they are. */
    char *confine;
    tk_input_kind kind;
    tk_loctab *tab;
    GPtrArray *kernels; /* tk_kernel *, owned */
    /* loaded by tk_bundle_load_on_demand() */
    gboolean stages_on_demand;
    /* While the manifest is read: its folders found symlink-free
     * (bundle_path_inside_of()); NULL otherwise. */
    GHashTable *real_dirs;

    /* From a manifest; NULL / -1 otherwise. */
    char *tool_version;
    char *compiler; /* "triton 3.6.0" */
    char *compiler_name;
    char *compiler_version;
    char *compiler_target;
    char **argv; /* NULL-terminated */
    char *command;
    char *created;
    int complete;
    char *passes_asked; /* the manifest's "capture"."passes", or NULL */

    /* Source resolution. */
    GHashTable *stored_sources; /* original path -> local copy (absolute) */
    char **source_dirs;         /* NULL-terminated copy of the options */
    GHashTable *resolved;       /* file id + 1 -> path, or "" for not found */
    GHashTable *misses;         /* file id + 1 -> why it was not found
                                   (sources.c: SOURCE_MISS_*), and whether a
                                   caller has been told */
    GHashTable *suffix_index;   /* base name -> GPtrArray of paths relative to
                                   root; built on first use */
    GHashTable *statements;     /* file id + 1 -> tk_pysource * (or a
                                   placeholder: none); statement.c */

    /* Pass dumps (passfiles.c). */
    GPtrArray *pass_found;    /* bundle_pass_file *, owned, in the order found;
                                 NULL when none */
    GPtrArray *pass_files;    /* those that could be indexed (borrowed);
                                 NULL until the first use */
    tk_diags *pass_rejected;  /* why the first files looked at are no pass
                                 dumps (errors); NULL when none */
    size_t n_rejected;        /* how many were, in all */
    struct bundle_pass_ahead *pass_ahead; /* indexing begun ahead (index_jobs.c),
                                             NULL when none runs */
};

/* ---- the manifest's shape: read by load/, written by write/ (the slices
 * of pass dump files by passfiles/) ---- */

#define BUNDLE_FORMAT "tkview-bundle"
/* 2: pass dump slices may be refs files into the bundle's dump pool
 * (docs/bundle.md, "Shared dump text"), which a reader of 1 cannot read;
 * 3: refs files name zstd frames of dumps/pool.zst, some made against a
 * base, which a reader of 2 cannot read. */
#define BUNDLE_FORMAT_VERSION 4

/* Reads the manifest at MANIFEST of the bundle folder BUNDLE->root.
 * Returns 0 when it is a tkview manifest this reader understands (kernels
 * added, bad entries reported and skipped), -1 when it is not (a warning says
 * why; the caller scans the folder instead). */
int bundle_manifest_load(tk_bundle *bundle, const char *manifest,
                         tk_diags *diags);

/* One slice of a pass dump file written for a kernel. */
typedef struct {
    char *file;       /* relative to the bundle */
    const char *kind; /* static: "mlir", "llvm", "mixed" */
    size_t dumps;
    const char *compression; /* static: "refs" (a refs file, pieces of the
                                bundle's dump pool), "gzip" */
    char *index;      /* its stored index, relative to the bundle; NULL:
                         none (passes/stored.c) */
} bundle_manifest_pass;

/* What the writer decided for one kernel: paths relative to the bundle,
 * NULL for what is not there. */
typedef struct {
    const tk_kernel *kernel;
    char *folder;
    char *stage[TK_STAGE_COUNT];
    char *metadata, *cubin, *hsaco, *source_ttir, *profile;
    char *sass_lr; /* register life ranges (format 4: named, as the file
                      may be another kernel's) */
    GArray *passes; /* bundle_manifest_pass; NULL when none */
} bundle_manifest_kernel;

/* One source file: its original path and the copy (NULL when it could not
 * be copied, REASON saying why). */
typedef struct {
    const char *path;
    char *file;
    const char *reason;
} bundle_manifest_source;

/* ---- json.c ---- */

/* Parses the JSON file at PATH, read as a file of KIND (tk_input_file.h: a
 * regular file of at most KIND's limit), nesting at most 64 deep so that the
 * recursive parser cannot overflow the stack.  Returns the root node (caller
 * frees with json_node_unref), or NULL with *ERROR set (caller frees). */
JsonNode *bundle_json_read_file(const char *path, tk_input_file_kind kind,
                                char **error);
/* The same for LEN bytes at DATA already read (no NUL, nesting checked). */
JsonNode *bundle_json_parse(const char *data, size_t len, char **error);

/* Typed members of OBJ; NULL / -1 / default when absent or of another
 * type (no GLib criticals, unlike json_object_get_*_member). */
const char *bundle_json_string(JsonObject *obj, const char *key);
int64_t bundle_json_int(JsonObject *obj, const char *key); /* -1 if not >= 0 */
JsonObject *bundle_json_object(JsonObject *obj, const char *key);
JsonArray *bundle_json_array(JsonObject *obj, const char *key);
/* 1, 0, or -1 when absent, null or not a boolean. */
int bundle_json_bool(JsonObject *obj, const char *key);

/* ---- path.c ---- */

/* The absolute, symlink-free path of REL inside the folder ROOT_REAL (itself
 * absolute and symlink-free), or NULL with a warning naming MANIFEST when REL
 * is absolute, climbs with "..", points outside through a symlink, or does
 * not exist.  WHAT says what the path is for, in the warning.  Caller
 * frees. */
char *bundle_path_inside(const char *root_real, const char *rel,
                         const char *manifest, const char *what,
                         tk_diags *diags);

/* bundle_path_inside() of B's root, quicker for many paths while
 * B->real_dirs is set (the folders found symlink-free so far: one lstat()
 * per path instead of a realpath()).  Caller frees. */
char *bundle_path_inside_of(tk_bundle *b, const char *rel,
                            const char *manifest, const char *what,
                            tk_diags *diags);

/* Whether PATH, its symbolic links resolved, is a file or folder strictly
 * under ROOT_REAL (absolute and symlink-free).  FALSE when PATH does not
 * exist. */
gboolean bundle_path_within(const char *root_real, const char *path);

/* The one trust check for every file a bundle names, its manifest.json
 * first: whether PATH may be read when the input's bundle folder is
 * CONFINE (a real path; NULL for the user's own folders, where anything
 * may).  A link out of the bundle is not followed (docs/bundle.md, "What a
 * bundle may read"). */
gboolean bundle_may_read(const char *confine, const char *path);

/* A file name made of S that is safe in any folder: only [A-Za-z0-9._+-],
 * not starting with '.', not empty, at most MAX bytes.  Caller frees. */
char *bundle_path_safe_name(const char *s, size_t max);

/* PATH relative to ROOT when under it, else PATH.  Caller frees. */
char *bundle_path_relative(const char *root, const char *path);

/* ---- sources.c ---- */

/* tk_bundle_resolve_source() for internal callers. */
const char *bundle_sources_resolve(tk_bundle *bundle, tk_file_id file,
                                   tk_diags *diags);
void bundle_sources_clear(tk_bundle *bundle);

/* Whether FILE was refused by the trust rule: its file exists but outside
 * the bundle (only meaningful after bundle_sources_resolve()). */
gboolean bundle_sources_outside(const tk_bundle *bundle, tk_file_id file);

#endif
