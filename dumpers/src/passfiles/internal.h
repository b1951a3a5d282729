/* internal.h - pass dump files of a bundle: one file found with the input
 * (internal to passfiles/), and what load/, write/ and the tests call. */
#ifndef TKDUMP_PASSFILES_INTERNAL_H
#define TKDUMP_PASSFILES_INTERNAL_H

#include "bundle/internal.h"
#include "tkdump/tk_passes.h"

struct bundle_pass_file {
    char *path;             /* as found: shown, named in diagnostics */
    char *index_path;       /* its stored index (a bundle's slice), or NULL */
    const tk_kernel *owner; /* listed for this kernel by a manifest; NULL:
                               found by content, for any kernel */
    const char *confine;    /* the bundle's (tk_bundle's confine), or NULL */
    gboolean direct;        /* the input itself: its sequences are kernels */
    gboolean one_compile;   /* a capture's per-compile file (compiles.c) */
    gboolean tried;         /* indexing was attempted */
    tk_passes *ix;          /* NULL until indexed, or when that failed */
    GHashTable *seq_of;     /* const tk_kernel * -> 1 + its sequence */
};

/* The 1-based line of sequence S's first dump, for messages. */
unsigned long long bundle_passfiles_seq_line(const tk_passes *p, size_t s);

/* Makes a kernel without stages of every compile in B's pass files, which
 * have been indexed and are all "direct" (passfiles_only.c). */
void bundle_passfiles_make_kernels(tk_bundle *b, tk_diags *diags);

/* Indexes F (tk_passes_index()) into F->ix, a file listed for one kernel
 * as one compile; what it reports goes to DIAGS (passfiles.c). */
void bundle_passfiles_index_one(bundle_pass_file *f, tk_diags *diags);

/* ---- index_jobs.c ---- */

/* A file to index (on one of a few threads), its diagnostics kept aside. */
typedef struct {
    bundle_pass_file *f;
    tk_diags *diags;
    tk_input_budget *budget; /* the load's, charged from any thread */
} bundle_passfiles_index_job;

/* The files of B not tried yet, indexed: those tk_bundle_pass_files_start()
 * began are waited for, the others indexed now.  JOBS[i] is file i's (g_free
 * the array; each job's diags are the caller's), with its diagnostics, to
 * be put after the ones before it in file order; f NULL where it was tried
 * already. */
bundle_passfiles_index_job *bundle_passfiles_index_jobs(tk_bundle *b);

/* Waits for indexing begun ahead and drops what it found (a bundle freed
 * before anyone asked for its passes). */
void bundle_passfiles_ahead_clear(tk_bundle *b);

/* ---- compiles.c ---- */

/* Adds ROOT/compiles/HASH.PID.N.txt, the dump files a capture kept apart
 * per compile, each for the kernel of its hash (none: found by content).
 * Returns TRUE when ROOT has that folder (bundle_passfiles_find then leaves
 * it out of the look by content). */
gboolean bundle_passfiles_add_compiles(tk_bundle *bundle, const char *root,
                                       tk_diags *diags);

/* Whether a file of BUNDLE is listed for K (a manifest's slice, a capture's
 * per-compile file): then K is not matched by content in the others. */
gboolean bundle_passfiles_owns(const tk_bundle *bundle, const tk_kernel *k);

/* Whether the pass file PATH may be indexed: TRUE unless it is a refs file
 * (a bundle's slice made of pieces of its dump pool, passes/refs.c) whose
 * pool bundle_may_read() refuses under CONFINE, or that names no pool
 * (an error in DIAGS). */
gboolean bundle_passfiles_refs_allowed(const char *path, const char *confine,
                                       tk_diags *diags);
/* Whether PATH is a refs file. */
gboolean bundle_passfiles_is_refs(const char *path);
/* Up to CAP bytes of the text of the refs file PATH into BUF, when its pool
 * may be read under CONFINE; their count, or -1. */
int64_t bundle_passfiles_refs_head(const char *path, const char *confine,
                                   char *buf, size_t cap);

/* ---- passfiles.c ---- */

/* Adds the pass dump file PATH (a bundle's manifest lists it for OWNER; NULL
 * when found by content, for any kernel).  It is indexed on first use. */
void bundle_passfiles_add(tk_bundle *bundle, const char *path,
                          const tk_kernel *owner);
/* The same, with the stored index a manifest lists for it (INDEX_PATH,
 * checked like its other paths; NULL: none): read instead of indexing the
 * text when it matches the file (passes/stored.c). */
void bundle_passfiles_add_indexed(tk_bundle *bundle, const char *path,
                                  const char *index_path, const tk_kernel *owner);

/* Looks for pass dump files by content in ROOT and in its subfolders (one
 * level down), skipping files whose name says they are something else
 * (stage files, metadata, cubins, Python); ROOT/compiles, a capture's
 * dumps kept apart per compile, is read by name (compiles.c). */
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

/* Plans KERNEL's slice of every pass file that has its sequence as
 * FOLDER/passes/KIND.txt.gz under the bundle being built in TMP (the folder
 * made, the name chosen): one job each, appended to JOBS (a GPtrArray made
 * by the caller, freed with bundle_passfiles_slices_free()).  Returns 0, or
 * -1 when the bundle cannot be written (an error naming OUTDIR). */
typedef struct bundle_pass_slice bundle_pass_slice;
int bundle_passfiles_write_kernel(tk_bundle *bundle, const tk_kernel *kernel,
                                  const char *tmp, bundle_manifest_kernel *mk,
                                  const char *outdir, GPtrArray *jobs,
                                  tk_diags *diags);

/* Writes every slice of JOBS, on several threads, and lists each in its
 * kernel's MK->passes in the order planned.  Returns 0, or -1 when the
 * bundle cannot be written (an error naming OUTDIR); a pass file that cannot
 * be read is a warning and its slice is left out. */
int bundle_passfiles_write_slices(GPtrArray *jobs, const char *outdir,
                                  tk_diags *diags);

/* Frees JOBS and its jobs (NULL: nothing). */
void bundle_passfiles_slices_free(GPtrArray *jobs);

void bundle_passfiles_clear(tk_bundle *bundle);


/* ---- key.c ---- */

/* KERNEL's pass key (tk_kernel_pass_key()) without its stages' digests:
 * its name and warps alone, for where the digests cannot change the
 * answer (they only add to a score that the name and warps make
 * nonzero). */
void bundle_pass_key_without_stages(const tk_kernel *kernel, tk_pass_key *key);

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
