/* internal.h - loading what is on disk into a bundle's kernels: scanning
 * folders and files, reading a bundle's manifest (and building one, for
 * write/), reading Triton's metadata and the cubin. */
#ifndef TKDUMP_LOAD_INTERNAL_H
#define TKDUMP_LOAD_INTERNAL_H

#include "bundle/internal.h"

/* ---- scan.c ---- */

/* Scans ROOT (a folder) for what it holds: a capture, HASH folders, one
 * HASH folder, loose files.  Adds kernels to BUNDLE and sets its kind.
 * SKIP_DIR (may be NULL) names a subfolder not to look into. */
void bundle_scan_folder(tk_bundle *bundle, const char *root,
                        const char *skip_dir, tk_diags *diags);

/* Loads the single stage file PATH. */
void bundle_scan_file(tk_bundle *bundle, const char *path, tk_diags *diags);


/* ---- manifest.c ---- */

/* Reads the manifest at MANIFEST of the bundle folder BUNDLE->root.
 * Returns 0 when it is a tkview manifest this reader understands (kernels
 * added, bad entries reported and skipped), -1 when it is not (a warning says
 * why; the caller scans the folder instead). */
int bundle_manifest_load(tk_bundle *bundle, const char *manifest,
                         tk_diags *diags);

/* ---- manifest_head.c ---- */

/* The manifest O's bundle-wide keys into B: tool and compiler, command,
 * "complete", "capture"."passes". */
void bundle_manifest_read_header(tk_bundle *b, JsonObject *o);
/* Its "sources": each stored copy, inside the bundle, into B's table of
 * stored sources; a bad entry is a warning in DIAGS naming MANIFEST. */
void bundle_manifest_read_sources(tk_bundle *b, JsonObject *o, const char *manifest,
                                  tk_diags *diags);

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

/* Reads only the compile options of NAME.json at PATH into KERNEL (a bundle
 * whose manifest holds the metadata still keeps the file). */
void bundle_meta_read_options(tk_kernel *kernel, const char *path,
                              tk_diags *diags);

/* Reads an AMD kernel's registers, scratch, LDS and occupancy from its
 * AMDGCN stage (the assembly's kernel descriptor and .amdgpu_metadata) into
 * KERNEL's metadata (meta_amdgcn.c).  Nothing when it has no such stage. */
void bundle_meta_read_amdgcn(tk_kernel *kernel);

/* Reads registers and local memory (spills) of function NAME from the cubin
 * at PATH into KERNEL's metadata.  Returns 0, or -1 with a warning. */
int bundle_meta_read_cubin(tk_kernel *kernel, const char *path, tk_diags *diags);

/* KERNEL's register life ranges file (NAME.sass_lr beside its cubin, else
 * beside its SASS file), or NULL when there is none (life_ranges.c).
 * Caller frees. */
char *bundle_meta_life_ranges_path(const tk_kernel *kernel);

/* Reads the cubin image of LEN bytes at DATA: *REGS and *LOCAL_BYTES receive
 * the function NAME's register count and local memory per thread, -1 where
 * the ELF does not say.  Returns 0, or -1 (with *WHY set to a static string)
 * when DATA is not a readable 64-bit ELF. */
int bundle_cubin_resources(const unsigned char *data, size_t len,
                           const char *name, int64_t *regs, int64_t *local_bytes,
                           const char **why);

#endif
