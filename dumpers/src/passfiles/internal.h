/* passfile.h - one pass dump file of a bundle (internal to
 * passfiles.c and passfiles_only.c). */
#ifndef TKDUMP_BUNDLE_PASSFILE_H
#define TKDUMP_BUNDLE_PASSFILE_H

#include "bundle/internal.h"
#include "tkdump/tk_passes.h"

struct bundle_pass_file {
    char *path;             /* as found: shown, named in diagnostics */
    const tk_kernel *owner; /* listed for this kernel by a manifest; NULL:
                               found by content, for any kernel */
    gboolean direct;        /* the input itself: its sequences are kernels */
    gboolean tried;         /* indexing was attempted */
    tk_passes *ix;          /* NULL until indexed, or when that failed */
    GHashTable *seq_of;     /* const tk_kernel * -> 1 + its sequence */
};

/* The 1-based line of sequence S's first dump, for messages. */
unsigned long long bundle_passfiles_seq_line(const tk_passes *p, size_t s);

/* Makes a kernel without stages of every compile in B's pass files, which
 * have been indexed and are all "direct" (passfiles_only.c). */
void bundle_passfiles_make_kernels(tk_bundle *b, tk_diags *diags);

#endif
