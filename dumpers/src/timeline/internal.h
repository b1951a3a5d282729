/* internal.h - the pass timeline's insides (internal): the
 * timeline object, the planner that decides which texts each entry compares
 * (from the index alone, nothing read), and the text walker that assembles
 * those texts from the dump files, two at a time, and normalizes them.
 */
#ifndef TKDUMP_TIMELINE_INTERNAL_H
#define TKDUMP_TIMELINE_INTERNAL_H

#include <glib.h>

#include "tkdump/tk_timeline.h"
#include "timeline/lines.h"

struct tk_timeline {
    char *kernel_name;
    const tk_kernel *kernel;
    tk_timeline_part *parts; /* pipeline order */
    size_t n_parts;
    GArray *entries;         /* tk_timeline_entry: the passes */
    GArray *subs;            /* tk_timeline_entry: sub-steps, by parent */
    size_t *sub_first;       /* per pass: its first sub-step in SUBS */
    GPtrArray *piece_blocks; /* tk_timeline_piece blocks that never move */
    size_t block_used, block_cap;
    tk_diff_opts diff;
    unsigned flags;          /* tk_timeline_opts.flags */
};

/* Allocates N pieces in TL's arena (stable addresses). */
tk_timeline_piece *tl_pieces_alloc(tk_timeline *tl, size_t n);

/* Fills TL->entries and TL->subs from the parts' sequences: which texts each
 * entry compares, and the effects the index alone decides (banners, missing
 * sides).  Effects still to be measured are left TK_EFFECT_UNKNOWN with WHY
 * TK_UNKNOWN_NONE. */
void tl_plan(tk_timeline *tl);

/* The dump behind PART/DUMP; NULL when out of range. */
const tk_pass_dump *tl_dump(const tk_timeline *tl, size_t part,
                            size_t dump);

/* Whether two sides name the same texts put together the same way. */
int tl_same_side(const tk_timeline_side *x, const tk_timeline_side *y);

/* The dialect ENTRY's dumps are written in. */
tk_ir_dialect tl_entry_dialect(const tk_timeline_entry *e);

/* FALSE, with an error in DIAGS, when entry I of A and entry J of B are
 * written in different dialects (a diff across them would mean nothing);
 * TRUE when they are alike or either is missing (the caller says so). */
gboolean tl_same_dialect(const tk_timeline *a, size_t i, const tk_timeline *b, size_t j,
                         tk_diags *diags);

/* The dialect SIDE of ENTRY is normalized as. */
tk_ir_dialect tl_side_dialect(const tk_timeline *tl,
                              const tk_timeline_entry *entry,
                              const tk_timeline_side *side);

/* The stage kind an entry's texts are read as for their locations
 * (TK_STAGE_UNKNOWN for machine code). */
tk_stage_kind tl_bind_kind(const tk_timeline_entry *entry);

/* ---- the walker ------------------------------------------------------------ */

/* One assembled text: its line records (timeline/lines.h), their
 * normalization and (for the history and the front ends) their stacks. */
typedef struct {
    int valid;                /* KEY describes what LINES hold */
    int cacheable;            /* LINES are exactly KEY (not cut further) */
    tk_timeline_side key;
    GArray *lines;            /* tl_line */
    const tk_stage *stage;    /* what its TL_SRC_STAGE lines are lines of */
    tk_ir_dialect dialect;
    tk_normalize *norm;
    read_linemap map;         /* the stacks of its lines, once read */
    int map_done;
    /* Which text this is: a new number each time the lines are another
     * text (read, cut), kept when the text moves between sides. */
    uint64_t serial;
    /* tk_normalize_digest() of NORM, made on demand; 0 until then. */
    uint64_t digest;
} tl_text;

/* The line records of a dump body, kept for cutting functions out. */
typedef struct {
    int valid;
    size_t part, dump;
    GArray *lines;            /* tl_line */
} tl_raw;

typedef struct {
    const tk_timeline *tl;
    tk_diags *diags;
    tl_srcs srcs;             /* the timeline's parts; STAGE set per text */
    tl_text side[2];          /* TK_IR_A: before, TK_IR_B: after */
    tl_raw raw[2];            /* slot 0: a base module; slot 1: pieces */
    tl_raw meta;              /* debug metadata lines of a module dump */
    tl_reader reader;         /* reads lines back */
    char *stream_buf;         /* streams dump bodies */
    size_t stream_cap;
    int reuse_equal;          /* tl_walker_load() may answer 1 (see there) */
    uint64_t next_serial;     /* tl_text.serial */
} tl_walker;

void tl_walker_init(tl_walker *w, const tk_timeline *tl, tk_diags *diags);
void tl_walker_clear(tl_walker *w);

/* Makes W->side[A] hold BEFORE and W->side[B] hold AFTER, normalized as
 * DIALECT, reusing what the sides already hold (the previous entry's after
 * text is usually this one's before).  When one side holds only some
 * functions and the other does not, those functions are cut out of the
 * other.  Returns 0, or -1 with a diagnostic when a text cannot be read.
 * With W->reuse_equal set, returns 1 when the two texts are the same bytes
 * (whole dumps with the same digests, or texts whose lines are the same
 * bytes): then side B holds the text and normalization and side A is
 * empty. */
int tl_walker_load(tl_walker *w, const tk_timeline_side *before,
                   const tk_timeline_side *after, tk_ir_dialect dialect);

/* The sources side S's lines are read from (valid while W holds the
 * text). */
tl_srcs tl_walker_srcs(const tl_walker *w, int s);

/* Makes W->side[B] hold SIDE alone, normalized as DIALECT (reusing what
 * a side already holds), so that a following tl_walker_load() whose text
 * before is SIDE finds it there.  Returns 0, or -1 with a diagnostic. */
int tl_walker_load_one(tl_walker *w, const tk_timeline_side *side,
                       tk_ir_dialect dialect);

/* tk_normalize_digest() of side S's text (made once per text); 0 when the
 * side holds no normalized text. */
uint64_t tl_walker_digest(tl_walker *w, int s);

/* Reads the locations of side S (once per text), as KIND; LLVM function
 * texts get the debug metadata of their module dump after them.  Returns
 * the stacks of its lines, or NULL for machine code and on failure. */
const read_linemap *tl_walker_bind(tl_walker *w, int s, tk_stage_kind kind,
                                   tk_loctab *tab);

/* Whether the sides print MLIR attribute aliases differently (one defines
 * "#name = ..." lines, the other none): Triton's internal dumps print none,
 * so they cannot be compared with the pass manager's dumps. */
int tl_walker_alias_styles_differ(const tl_walker *w);
/* Normalizes both sides again with their attribute aliases written out
 * (TK_NORMALIZE_EXPAND_ALIASES), for two texts that print them
 * differently; the sides are then read again by the next load.  Returns 0,
 * or -1 with a diagnostic. */
int tl_walker_expand_aliases(tl_walker *w);

/* The debug metadata lines (tl_line) that side S's text is bound with (LLVM
 * function texts), or NULL; caller frees with g_array_unref(). */
GArray *tl_walker_meta_for(tl_walker *w, int s);

/* Takes side S's text out of the walker: its lines and normalization
 * (caller frees with g_array_unref() and tk_normalize_free()). */
void tl_walker_steal(tl_walker *w, int s, GArray **lines, tk_normalize **norm);

/* ---- tk_ir_diff from assembled texts --------------------------------------- */

/* A diff over the walker's two current texts that borrows them, their
 * normalizations and HUNKS (N of them, over kept lines), for
 * tk_timeline_opts.on_step.  Valid until the walker loads other texts;
 * release with tl_walker_diff_release() (tk_ir_diff_free() ignores it). */
tk_ir_diff *tl_walker_diff(tl_walker *w, const tk_timeline_entry *entry,
                           const tk_hunk *hunks, size_t n, tk_diff_stats stats);
void tl_walker_diff_release(tk_ir_diff *d);

/* A diff that takes the texts of W's two sides (tl_walker_steal()), with
 * their debug metadata, reading their lines from the timeline's parts
 * (copied: the timeline need not outlive it).  Takes NAME_A and NAME_B
 * (g_malloc'd).  NULL when the diff is refused. */
tk_ir_diff *tl_walker_take_diff(tl_walker *w, tk_stage_kind bind_as,
                                char *name_a, char *name_b,
                                const tk_diff_opts *opts);

/* The same from side SA of WA and side SB of WB (two timelines, for
 * tk_timeline_diff_across()), each side reading from its own timeline's
 * parts (copied). */
tk_ir_diff *tl_walkers_take_diff(tl_walker *wa, int sa, tl_walker *wb, int sb,
                                 tk_stage_kind bind_as, char *name_a, char *name_b,
                                 const tk_diff_opts *opts);

/* ---- kept.c: texts kept for diffs across timelines ---------------------- */

/* One text read and normalized (tk_timeline_texts), shared by counted
 * references: the store's and each diff's (tl_kept_take_diff()). */
typedef struct {
    gint ref;
    const tk_timeline_side *side; /* which text: the store's key */
    const tk_timeline *tl;        /* whose */
    size_t bytes;                 /* what the store counts for it */
    tk_ir_dialect dialect;
    GArray *lines;      /* tl_line */
    GArray *meta;       /* its debug metadata lines; NULL */
    tk_normalize *norm;
    tl_srcs srcs;       /* where its lines are read from (RES NULL, PARTS the
                           timeline's: a diff copies them) */
} tl_kept;

void tl_kept_unref(tl_kept *k);

/* A diff of kept texts KA (of timeline A) and KB (of B); takes both
 * references and NAME_A, NAME_B (g_malloc'd), as tl_walkers_take_diff(). */
tk_ir_diff *tl_kept_take_diff(const tk_timeline *a, tl_kept *ka, const tk_timeline *b,
                              tl_kept *kb, tk_stage_kind bind_as, char *name_a,
                              char *name_b, const tk_diff_opts *opts);

/* ---- dumps.c: dump bodies read for the walker; functions.c: the
 * functions of a text ---- */

/* The records of the body of dump DUMP of PART into OUT (replacing what it
 * held), each line also given to NB when not NULL. */
int tl_walker_read_dump(tl_walker *w, size_t part, size_t dump, GArray *out,
                           tk_normalize_builder *nb);

/* The records of a dump's body, from whichever text or slot already holds
 * them, else read into raw slot SLOT (the other slot when SLOT holds
 * KEEP).  Never the lines of side AVOID. */
const GArray *tl_walker_raw_lines(tl_walker *w, int slot, int avoid, const GArray *keep,
                               size_t part, size_t dump);

/* The name of the function line L opens, read back (valid until the next
 * read); 0 when it opens none or cannot be read. */
int tl_opened_name(tl_walker *w, const tl_srcs *s, tk_ir_dialect d, const tl_line *l,
                       const char **name, size_t *name_len);

/* After the line that opens a function at I, the line after its last. */
guint tl_function_end(tk_ir_dialect d, const GArray *lines, guint i);

/* Appends function NAME of SRC to OUT; a missing one adds nothing. */
void tl_append_function(tl_walker *w, const tl_srcs *s, tk_ir_dialect d,
                        const GArray *src, const char *name, GArray *out);

/* Side S's text made of the functions SIDE's pieces name, each cut out of
 * its dump (read, or taken from the other side when it holds that dump).
 * Returns 0, or -1 when a dump cannot be read. */
int tl_text_functions(tl_walker *w, int s, const tk_timeline_side *side,
                      tk_ir_dialect dialect);

/* ---- base.c: sides and entries as the plan makes them ---- */

/* A side that names no text. */
tk_timeline_side tl_side_none(void);
/* The side that is dump DUMP of PART. */
tk_timeline_side tl_side_dump(size_t part, size_t dump);
/* An entry for dump DUMP of PART, its texts not decided yet. */
tk_timeline_entry tl_entry_from_dump(const tk_timeline *tl, size_t part, size_t dump);

/* ---- substeps.c: after the plan (plan.c) ---- */

/* One of Triton's internal dumps: where it is, and its position in its
 * part's sequence. */
typedef struct {
    size_t part, dump, pos;
} tl_internal_dump;

/* Hangs Triton's internal dumps (INTERNAL: tl_internal_dump, in sequence
 * order) under their pass as sub-steps of TL. */
void tl_attach_internal(tk_timeline *tl, GArray *internal);
/* Sorts TL's sub-steps by parent (keeping their order) and indexes them. */
void tl_index_subs(tk_timeline *tl);
/* Marks the entries of ES whose texts come from damaged dumps. */
void tl_mark_damaged(tk_timeline *tl, GArray *es);

/* The hunks diff_classes() reports for the token classes CA (NA) and CB
 * (NB) under OPTS (N_CLASSES classes, numbered in order of first
 * appearance, A first, as diff_classify() gives them; OPTS made from TOTAL,
 * the line's tokens), kept for the next pair of lines of the same shape
 * (words_memo.c).  *N hunks; caller g_free()s (NULL when none). */
tk_hunk *tl_words_hunks(const uint32_t *ca, uint32_t na, const uint32_t *cb, uint32_t nb,
                        uint32_t n_classes, const tk_diff_opts *opts, uint64_t total,
                        size_t *n);

#endif
