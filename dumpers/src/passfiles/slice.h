/* slice.h - what slice.c (each slice cut into pieces, each distinct piece
 * compressed alone) hands pool.c (the pieces stored once each in the
 * bundle's dumps/pool.zst, like ones as differences from a base, and each
 * slice's refs file written): docs/bundle.md, "Shared dump text".  Private
 * to those two files. */
#ifndef TKDUMP_PASSFILES_SLICE_H
#define TKDUMP_PASSFILES_SLICE_H

#include "passfiles/internal.h"

/* zstd levels: a piece alone, a piece against its base, and a base tried. */
#define BUNDLE_PASS_LEVEL 6
#define BUNDLE_PASS_DELTA_LEVEL 6
#define BUNDLE_PASS_TRY_LEVEL 1

/* Writes N bytes at DATA to FD whole (short writes and EINTR retried):
 * 0, or -1 with errno set. */
int bundle_pass_write_all(int fd, const void *data, size_t n);

/* A piece of a slice's text (passes/refs.c reads them back). */
typedef struct {
    guint8 digest[32]; /* SHA-256 of its text */
    uint64_t len;      /* bytes of text */
    gboolean body;     /* of a dump's body (else its header) */
} bundle_pass_piece;

/* Who compressed a distinct piece alone: the first slice job to meet it,
 * as one zstd frame into its piece file; the others only name it.  A frame
 * is the same whichever job made it. */
typedef struct {
    const char *piece_path; /* the file its frame is in */
    uint64_t at, in_len;    /* where, how long */
    gboolean written;
} bundle_pass_claim;

typedef struct {
    GMutex lock;
    GHashTable *of; /* GBytes digest -> bundle_pass_claim */
} bundle_pass_claims;

/* One slice to write: sequence SEQ of pass file F, as TO.  Filled on the
 * calling thread (names, folders), run on a worker (read and compress), and
 * its outcome merged on the calling thread in the order the slices were
 * planned, so the manifest and the diagnostics are as if written one by
 * one. */
struct bundle_pass_slice {
    const bundle_pass_file *f;
    const tk_pass_seq *seq;
    const tk_kernel *k;
    bundle_manifest_kernel *mk;
    const char *kind;
    char *rel, *to;
    char *root;        /* the bundle being built, where dumps/ goes */
    char *piece_path;  /* TO's pieces, until they are pooled */
    GArray *pieces;    /* bundle_pass_piece */
    GString *stored;   /* its stored index's dump lines (passes/stored.c) */
    uint64_t text_size, n_lines; /* of its text */
    char *index_rel;   /* its stored index, once written */
    bundle_pass_claims *claims; /* shared by the jobs of one bundle */
    guint workers;     /* threads its pieces may use (run_tasks()) */
    /* outcome */
    tk_diags *reads;   /* what could not be read of F */
    char *write_err;   /* why the slice could not be written */
    gboolean done;     /* written and kept */
    gboolean left_out; /* F could not be read: no slice */
};

/* Compresses the LEN bytes of TEXT as one zstd frame (content size and
 * checksum in it), against PREFIX (PLEN bytes; NULL: alone), with CC.
 * Returns the frame (caller frees), or NULL. */
GBytes *bundle_pass_compress(void *cc, const void *text, size_t len,
                             const void *prefix, size_t plen, int level);

/* Stores the pieces of the slices written (J->done) once each in
 * ROOT/dumps/pool.zst, in the order planned (a bundle written twice is the
 * same), a dump's body as its difference from an earlier body of its
 * slice (pool.c says which) when that is much smaller, and writes each
 * slice's refs file.  Returns 0, or -1 with *ERR (caller frees). */
int bundle_pass_pool_write(GPtrArray *jobs, bundle_pass_claims *claims, char **err);

#endif
