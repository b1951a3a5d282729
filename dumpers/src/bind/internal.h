/* internal.h - the binding index's structure (bind.c builds it, query.c
 * answers from it) and the helpers both use (internal to bind/). */
#ifndef TKDUMP_BIND_INTERNAL_H
#define TKDUMP_BIND_INTERNAL_H

#include <glib.h>

#include "read/linemap.h"
#include "tkdump/tk_bind.h"

typedef struct {
    uint64_t key; /* file << 32 | line */
    uint32_t irline;
} bind_ref;

typedef struct {
    uint64_t *keys;  /* the distinct source positions, ascending */
    uint32_t *off;   /* n_keys + 1: keys[i]'s lines are lines[off[i]..off[i+1]) */
    uint32_t *lines; /* ascending within each position */
    size_t n_keys;
} bind_ref_index;

typedef struct {
    const tk_stage *stage;    /* NULL when the kernel lacks this stage */
    read_linemap eff;           /* effective stacks, when they differ */
    gboolean has_eff;
    guint8 *inferred;         /* per line (1-based), completion only */
    tk_stage_kind inferred_from; /* the stage completion took callers from */
    bind_ref_index exact, called;
    tk_source_ref *refs;      /* built when first asked: bind_source_refs_build() */
    size_t n_refs;
    gsize refs_ready;
    uint32_t n_bound;
    gboolean inline_frames;   /* the stage records inline frames */
    /* SASS completed from the PTX: the innermost positions the PTX shows
     * under several stacks (ascending), and those stacks, per position
     * conflict_stacks[conflict_off[i] .. conflict_off[i + 1]). */
    uint64_t *conflict_keys;
    uint32_t *conflict_off;
    tk_stack_id *conflict_stacks;
    size_t n_conflicts;
    /* Per conflict, the frames beyond the innermost that every one of its
     * stacks has (column 0, innermost first): code of those lines without
     * doubt, whichever call site it came through.  certain[certain_off[i]
     * .. certain_off[i + 1]). */
    tk_frame *certain;
    uint32_t *certain_off;
    /* USE_IR_LOC: (irloc stage line << 32 | this stage's line), sorted. */
    uint64_t *irloc_pairs;
    size_t n_irloc_pairs;
} bind_stage_index;

struct tk_bind {
    const tk_kernel *kernel;
    tk_loctab *tab;
    bind_stage_index st[TK_STAGE_COUNT];
    tk_stage_kind irloc_stage;
    GHashTable *irloc_files; /* tk_file_id set: paths naming the irloc stage */
};

/* A source position as one sorted key. */
/* The first index of the N ascending KEYS not below KEY (N if none). */
static inline size_t bind_lower_bound(const uint64_t *keys, size_t n, uint64_t key)
{
    size_t a = 0, b = n;
    while (a < b) {
        size_t m = a + (b - a) / 2;
        if (keys[m] < key)
            a = m + 1;
        else
            b = m;
    }
    return a;
}

static inline uint64_t bind_pos_key(tk_file_id file, uint32_t line)
{
    return (uint64_t)file << 32 | line;
}

/* OUT made from the N pairs REFS (ascending IR lines) (ref_index.c);
 * cleared with bind_ref_index_clear(). */
void bind_ref_index_from(const bind_ref *refs, size_t n, bind_ref_index *out);
void bind_ref_index_clear(bind_ref_index *r);

/* The lines of KEY in R are R->lines[*LO .. *HI). */
void bind_ref_range(const bind_ref_index *r, uint64_t key, size_t *lo, size_t *hi);

/* Whether F is a path naming the USE_IR_LOC stage. */
gboolean bind_is_irloc_file(const tk_bind *ix, tk_file_id f);

/* qsort order of uint64_t. */
int bind_cmp_u64(const void *a, const void *b);

/* The conflict (an index into conflict_keys) of line LINE of STAGE, whose
 * stacks are IDS (N of them), or -1 for a line bound without doubt; STAGE
 * has conflicts (query.c). */
long bind_line_conflict_of(const tk_bind *ix, tk_stage_kind stage, uint32_t line,
                           const tk_stack_id *ids, size_t n);
/* Conflict C's certain frames (tk_bind_line_certain_frames()); 0 for C -1. */
size_t bind_certain_frames_at(const bind_stage_index *s, long c, const tk_frame **frames);

/* Builds KIND's source positions (refs, n_refs) once, on first use. */
void bind_source_refs_build(const tk_bind *ix, tk_stage_kind kind);

#endif
