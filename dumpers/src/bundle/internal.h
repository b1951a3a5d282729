/* internal.h - the bundle structure and the loader's functions, shared by
 * the files of bundle/ (internal).  The kernel structure is kernel/kernel.h.
 *
 * Loading is split by purpose: bundle.c (dispatch, accessors, lookup),
 * scan.c (finding kernels in folders), manifest.c (manifest.json of a
 * tkview bundle), meta.c (Triton's NAME.json, the cubin's register count),
 * meta_amdgcn.c (an AMD kernel's registers from its assembly),
 * json.c (safe JSON parsing and typed member access), path.c (paths that
 * must stay inside a folder, safe file names), sources.c (source
 * resolution), write.c (tk_bundle_save), output.c (tk_bundle_check_output),
 * passfiles.c and passfiles_only.c (pass dump files and each kernel's
 * sequence in them), gzip.c (compressed pass dump files).
 */
#ifndef TKDUMP_BUNDLE_INTERNAL_H
#define TKDUMP_BUNDLE_INTERNAL_H

#include <glib.h>
#include <json-glib/json-glib.h>

#include "kernel/kernel.h"
#include "tkdump/tk_bundle.h"
#include "tkdump/tk_input_file.h"

/* A pass dump file found with the input (passfiles.c). */
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
};

/* ---- statement.c ---- */

void bundle_statements_clear(tk_bundle *b);

/* ---- scan.c ---- */

/* Scans ROOT (a folder) for what it holds: a capture, HASH folders, one
 * HASH folder, loose files.  Adds kernels to BUNDLE and sets its kind.
 * SKIP_DIR (may be NULL) names a subfolder not to look into. */
void bundle_scan_folder(tk_bundle *bundle, const char *root,
                        const char *skip_dir, tk_diags *diags);

/* Loads the single stage file PATH. */
void bundle_scan_file(tk_bundle *bundle, const char *path, tk_diags *diags);

/* ---- manifest.c ---- */

#define BUNDLE_FORMAT "tkview-bundle"
#define BUNDLE_FORMAT_VERSION 1

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
} bundle_manifest_pass;

/* What the writer decided for one kernel: paths relative to the bundle,
 * NULL for what is not there. */
typedef struct {
    const tk_kernel *kernel;
    char *folder;
    char *stage[TK_STAGE_COUNT];
    char *metadata, *cubin, *hsaco, *source_ttir, *profile;
    GArray *passes; /* bundle_manifest_pass; NULL when none */
} bundle_manifest_kernel;

/* One source file: its original path and the copy (NULL when it could not
 * be copied, REASON saying why). */
typedef struct {
    const char *path;
    char *file;
    const char *reason;
} bundle_manifest_source;

/* The text of a manifest.json for B (caller frees); *LEN its length. */
char *bundle_manifest_build(const tk_bundle *b, const bundle_manifest_kernel *ks,
                            size_t n_kernels, const bundle_manifest_source *srcs,
                            size_t n_sources, size_t *len);

/* ---- meta.c ---- */

/* Reads Triton's NAME.json at PATH into KERNEL's metadata; a missing field
 * stays unknown.  *HASH (if not NULL) receives its "hash" (caller frees;
 * NULL when absent).  Returns 0, or -1 with a warning when unreadable. */
int bundle_meta_read_json(tk_kernel *kernel, const char *path, char **hash,
                          tk_diags *diags);

/* Reads an AMD kernel's registers, scratch, LDS and occupancy from its
 * AMDGCN stage (the assembly's kernel descriptor and .amdgpu_metadata) into
 * KERNEL's metadata (meta_amdgcn.c).  Nothing when it has no such stage. */
void bundle_meta_read_amdgcn(tk_kernel *kernel);

/* ---- life_ranges.c ---- */

/* KERNEL's register life ranges file (NAME.sass_lr beside its cubin, else
 * beside its SASS file), or NULL when there is none.  Caller frees. */
char *bundle_life_ranges_path(const tk_kernel *kernel);

/* Reads registers and local memory (spills) of function NAME from the cubin
 * at PATH into KERNEL's metadata.  Returns 0, or -1 with a warning. */
int bundle_meta_read_cubin(tk_kernel *kernel, const char *path, tk_diags *diags);

/* Reads the cubin image of LEN bytes at DATA: *REGS and *LOCAL_BYTES receive
 * the function NAME's register count and local memory per thread, -1 where
 * the ELF does not say.  Returns 0, or -1 (with *WHY set to a static string)
 * when DATA is not a readable 64-bit ELF. */
int bundle_cubin_resources(const unsigned char *data, size_t len,
                           const char *name, int64_t *regs, int64_t *local_bytes,
                           const char **why);

/* ---- json.c ---- */

/* Parses the JSON file at PATH, read as a file of KIND (tk_input_file.h: a
 * regular file of at most KIND's limit), nesting at most 64 deep so that the
 * recursive parser cannot overflow the stack.  Returns the root node (caller
 * frees with json_node_unref), or NULL with *ERROR set (caller frees). */
JsonNode *bundle_json_read_file(const char *path, tk_input_file_kind kind,
                                char **error);

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

/* Whether PATH, its symbolic links resolved, is a file or folder strictly
 * under ROOT_REAL (absolute and symlink-free).  FALSE when PATH does not
 * exist. */
gboolean bundle_path_within(const char *root_real, const char *path);

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

/* ---- passfiles.c ---- */

/* Adds the pass dump file PATH (a bundle's manifest lists it for OWNER; NULL
 * when found by content, for any kernel).  It is indexed on first use. */
void bundle_passfiles_add(tk_bundle *bundle, const char *path,
                          const tk_kernel *owner);

/* Looks for pass dump files by content in ROOT and in its subfolders (one
 * level down), skipping files whose name says they are something else
 * (stage files, metadata, cubins, Python). */
void bundle_passfiles_find(tk_bundle *bundle, const char *root, tk_diags *diags);

/* When the file PATH (given as the input) holds pass dumps: indexes it and
 * adds one kernel without stages per sequence; returns TRUE.  FALSE when it
 * is not a pass dump file (nothing done). */
gboolean bundle_passfiles_load_direct(tk_bundle *bundle, const char *path,
                                      tk_diags *diags);

/* When a folder gave no kernel from stage files but pass dump files were
 * found in it (bundle_passfiles_find): indexes them and adds one kernel without
 * stages per compile, a compile's MLIR sequence (an MLIR_DUMP_PATH file)
 * and LLVM sequence (a stderr) joined into one kernel when the dumps tell
 * that they belong together; returns TRUE.  FALSE when no pass dump file
 * was found (nothing done). */
gboolean bundle_passfiles_load_found(tk_bundle *bundle, tk_diags *diags);

/* Adds to DIAGS why the first files bundle_passfiles_find() looked at are not
 * pass dumps (empty, no header), for a load that found nothing. */
void bundle_passfiles_report_rejected(const tk_bundle *bundle, tk_diags *diags);

/* Writes KERNEL's slice of every pass file that has its sequence as
 * FOLDER/passes/KIND.txt.gz under the bundle being built in TMP, and lists
 * them in MK->passes.  Returns 0, or -1 when the bundle cannot be written
 * (an error naming OUTDIR); a pass file that cannot be read is a warning and
 * its slice is left out. */
int bundle_passfiles_write_kernel(tk_bundle *bundle, const tk_kernel *kernel,
                                  const char *tmp, bundle_manifest_kernel *mk,
                                  const char *outdir, tk_diags *diags);

void bundle_passfiles_clear(tk_bundle *bundle);

/* ---- gzip.c ---- */

/* Whether the file at PATH starts with gzip's magic bytes. */
gboolean bundle_gzip_is(const char *path);

/* Up to CAP bytes of the text of PATH (decompressed when it is gzip) into
 * BUF.  Returns how many, or -1 when it cannot be opened.  A damaged stream
 * gives what came before the damage. */
int64_t bundle_gzip_read_head(const char *path, char *buf, size_t cap);

/* A gzip file being written, a bounded buffer at a time. */
typedef struct bundle_gzip_writer bundle_gzip_writer;

/* Creates PATH, which must not exist.  NULL with *ERR set (caller frees). */
bundle_gzip_writer *bundle_gzip_create(const char *path, char **err);
/* Returns 0, or -1 once a write has failed (reported by bundle_gzip_finish). */
int bundle_gzip_write(bundle_gzip_writer *w, const char *data, size_t len);
/* Closes and frees W.  KEEP: the file is wanted; returns -1 with *ERR set
 * (caller frees) when it could not be written whole, and removes it.  Not
 * KEEP: removes it, returns 0.  W may be NULL. */
int bundle_gzip_finish(bundle_gzip_writer *w, gboolean keep, char **err);

#endif
