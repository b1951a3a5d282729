/* tk_timeline.h - the pass timeline of one kernel: every pass in the order
 * it ran, with its IR level and what it changed; diffs between any two points
 * of it; and the passes that touched the IR of one source line.
 *
 * A kernel's pass dumps come in parts, each a sequence of one pass dump file
 * (tk_passes.h): usually the MLIR dumps of an MLIR_DUMP_PATH file (Before
 * dumps: TTIR, TTGIR, LLVM dialect) and the LLVM dumps of a captured stderr
 * (After dumps: LLVM IR, codegen IR, machine code).  The timeline puts the
 * parts in pipeline order and makes one entry per pass.
 *
 * What a pass changed is the diff of two texts of the same IR unit (both
 * normalized, tk_normalize.h; counts are of kept lines):
 *   - a Before dump k: dump k -> the next dump of the same dialect (MLIR,
 *     LLVM IR, machine code); the last one -> the kernel's final stage of its
 *     level when there is one (TTIR: the .ttir, TTGIR: the .ttgir, LLVM IR:
 *     the .llir; the LLVM dialect has none), else the effect is unknown
 *     (TK_UNKNOWN_NO_AFTER);
 *   - an After dump: the previous text of the same unit -> this dump.  LLVM
 *     prints function passes with only their function, so the text before is
 *     that function cut out of the latest dump that holds it, and a module
 *     pass after function passes is compared with the latest module dump
 *     whose functions are replaced by their later versions (TK_SIDE_STATE).
 *     The first dump of a dialect has nothing comparable before it
 *     (TK_UNKNOWN_NO_BEFORE): the first LLVM IR dump (the translation from
 *     the LLVM dialect is not dumped) and the first machine code dump
 *     (instruction selection).  LLVM IR is never compared with MIR or MLIR.
 *     A loop pass prints only its loop; it is compared with the previous
 *     dump when that is a dump of the same loop, else its effect is unknown;
 *     the next dump of the function then covers the loop passes too
 *     (TK_TL_SPANS_LOOPS).
 *   - an After dump right after a Before dump of the same pass and scope
 *     (print-before-all and print-after-all both on) is that pass's after
 *     side, not a second entry;
 *   - a -print-changed banner "omitted because no change" is unchanged;
 *     other banners without a body (filtered out, ignored, invalidated,
 *     deleted) are unknown (TK_UNKNOWN_NO_BODY).  "IR Dump At Start" and
 *     MLIR "IR Dump LABEL" (print-ir) dumps are texts, not passes.
 *   - Triton's own dumps inside a pass ("SoftwarePipeliner internal IR Dump
 *     After: LowerLoops") are sub-steps of that pass: of the MLIR pass whose
 *     Before dump precedes them in the same file, else of the pass
 *     "tritongpu-pipeline" (the n-th run of internal dumps to its n-th run),
 *     else of a placeholder entry (TK_TL_PLACEHOLDER) at the end of the
 *     TTGIR passes.  Each sub-step is compared with the sub-step before it;
 *     the first with its pass's Before dump when both print attribute aliases
 *     the same way (Triton 3.6 prints internal dumps without aliases or
 *     locations: then it is unknown, TK_UNKNOWN_NO_BEFORE).
 *
 * Streaming: building reads each dump from its file when it is needed, a
 * bounded buffer at a time, and holds the two texts being compared as line
 * records (where each line lies, its length, hashes of its bytes and of its
 * normalized text: a few dozen bytes a line, whatever its length), never
 * their bytes; the text after a pass, normalized once, is the text before
 * the next one.  A 2 GB dump of 32 KB lines costs a few MB.  A pass whose
 * dumps have the same digests (tk_passes.h) as the text before it changed
 * nothing and is not read at all.  Memory does not grow with the number of
 * passes beyond the entries themselves (about 250 bytes each).
 *
 * Ownership: a timeline borrows the tk_passes indexes of its parts and the
 * kernel it was built for (for its final stages): they must outlive it.  The
 * strings of its entries (pass, arg, scope, function names) are the indexes'.
 * Everything else it returns is owned by the timeline unless the comment says
 * "caller frees".  The diffs it hands out are tk_ir_diff.h's, the history of
 * a source line tk_history.h's.
 */
#ifndef TKDUMP_TK_TIMELINE_H
#define TKDUMP_TK_TIMELINE_H

#include <stddef.h>
#include <stdint.h>

#include "tk_bind.h"
#include "tk_bundle.h"
#include "tk_diags.h"
#include "tk_diff.h"
#include "tk_export.h"
#include "tk_history.h"
#include "tk_ir_diff.h"
#include "tk_loctab.h"
#include "tk_normalize.h"
#include "tk_passes.h"
#include "tk_stage.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TK_TL_NONE ((size_t)-1)

/* The dialect a dump of LEVEL is normalized as (TTIR, TTGIR and the LLVM
 * dialect: MLIR; LLVM IR and codegen IR: LLVM; machine code: MIR).  Here,
 * not in tk_passes.h, because it joins the pass index and normalization. */
TK_API
tk_ir_dialect tk_pass_level_dialect(tk_pass_level level);

/* ---- the texts an effect is measured between --------------------------- */

typedef enum {
    TK_SIDE_NONE,      /* no text: the effect is unknown */
    TK_SIDE_DUMP,      /* the body of dump DUMP of part PART */
    TK_SIDE_FUNCTIONS, /* functions cut out of dumps, one PIECE each, in
                          order */
    TK_SIDE_STATE,     /* module dump DUMP of part PART with each function of
                          PIECES replaced by its text in that piece's dump */
    TK_SIDE_FINAL      /* the kernel's final stage FINAL */
} tk_side_kind;

typedef struct {
    const char *function; /* as tk_pass_dump.functions names it */
    size_t part, dump;
} tk_timeline_piece;

typedef struct {
    tk_side_kind kind;
    size_t part, dump;               /* DUMP, STATE */
    const tk_timeline_piece *pieces; /* FUNCTIONS, STATE */
    size_t n_pieces;
    tk_stage_kind final;             /* FINAL */
    /* FUNCTIONS of LLVM IR: the module dump whose debug metadata their
     * "!dbg !N" refer to (function dumps print none); TK_TL_NONE if none.
     * LLVM numbers metadata over the whole module, so the numbers agree
     * unless a pass in between added or dropped metadata nodes. */
    size_t meta_part, meta_dump;
} tk_timeline_side;

/* ---- entries ------------------------------------------------------------ */

typedef enum {
    TK_EFFECT_CHANGED,   /* kept lines were added or removed */
    TK_EFFECT_UNCHANGED, /* the two texts are equal once normalized */
    TK_EFFECT_UNKNOWN    /* no text to compare with: see WHY */
} tk_effect;

typedef enum {
    TK_UNKNOWN_NONE = 0,
    TK_UNKNOWN_NO_AFTER,   /* a Before dump with no dump after it and no
                              final stage of its level */
    TK_UNKNOWN_NO_BEFORE,  /* an After dump with nothing comparable before */
    TK_UNKNOWN_NO_BODY,    /* a banner without IR */
    TK_UNKNOWN_UNREADABLE, /* a text could not be read (the file changed
                              since it was indexed) or the diff was refused;
                              a diagnostic says which */
    TK_UNKNOWN_NOT_MEASURED /* built with TK_TIMELINE_NO_MEASURE */
} tk_unknown_why;

/* "changed", "unchanged", "unknown". */
TK_API
const char *tk_effect_name(tk_effect effect);
/* "", "no dump after it", "nothing comparable before it", "no IR printed",
 * "unreadable", "not measured". */
TK_API
const char *tk_unknown_why_name(tk_unknown_why why);
/* The same as sentences a front end shows: why the effect is unknown and
 * what to do ("" for TK_UNKNOWN_NONE).  Static. */
TK_API
const char *tk_unknown_why_advice(tk_unknown_why why);
/* The one sentence every front end shows for a step whose effect is
 * unknown (the report's pass pane, the viewer's, `tkview diff`'s error):
 * "Effect unknown: " name ". " advice ("" for TK_UNKNOWN_NONE).  Static. */
TK_API
const char *tk_unknown_why_sentence(tk_unknown_why why);

/* Bits of tk_timeline_entry.flags. */
#define TK_TL_TO_FINAL    (1u << 0) /* the after side is a final stage */
#define TK_TL_SPANS_LOOPS (1u << 1) /* loop passes ran on the function since
                                       the text before: their changes are in
                                       this entry's diff too */
#define TK_TL_PLACEHOLDER (1u << 2) /* no dump of this pass: an entry made to
                                       hold sub-steps */
#define TK_TL_DAMAGED     (1u << 3) /* a dump compared is flagged cut,
                                       interleaved or binary by the index */
#define TK_TL_MERGED      (1u << 4) /* a Before and an After dump of the same
                                       pass: AFTER is the After dump */
#define TK_TL_ALIASES_WRITTEN_OUT (1u << 5) /* a sub-step printed without
                                       attribute aliases (Triton's pipeliner
                                       prints its steps so), compared with
                                       the last IR before it, the dump
                                       before its pass, with that dump's
                                       aliases written out:
                                       tk_timeline_entry_note() says so */

typedef struct {
    /* The dump that stands for the pass (for a merged pair, its Before
     * dump); for a placeholder, TK_TL_NONE and the fields of the header are
     * "SoftwarePipeliner" and "". */
    size_t part, dump;
    uint64_t header_line;     /* 1-based line of the header in its file */
    tk_pass_kind kind;
    tk_pass_when when;
    tk_pass_status status;
    tk_pass_scope_kind scope_kind;
    tk_pass_level level;      /* the IR the dump shows */
    const char *pass, *arg, *scope, *scope_name; /* never NULL */

    tk_effect effect;
    tk_unknown_why why;
    uint32_t added, removed;  /* kept lines; 0 when unknown */
    unsigned flags;           /* TK_TL_... */
    tk_timeline_side before, after;

    /* Passes: their sub-steps are tk_timeline_substep(tl, i, 0 ..
     * n_substeps - 1).  Sub-steps: PARENT is the pass's index, and PASS /
     * ARG come from their header ("SoftwarePipeliner", "LowerLoops"). */
    size_t n_substeps;
    size_t parent;            /* TK_TL_NONE for a pass */
} tk_timeline_entry;

/* What a front end says about how ENTRY was compared, beyond its effect, or
 * NULL when nothing needs saying: for TK_TL_ALIASES_WRITTEN_OUT, "printed
 * without attribute aliases: compared with the IR before its pass, whose
 * aliases are written out".  The same words in every front end. */
TK_API
const char *tk_timeline_entry_note(const tk_timeline_entry *entry);

/* ---- building ----------------------------------------------------------- */

/* One part: sequence SEQ of PASSES (tk_passes_seq()). */
typedef struct {
    const tk_passes *passes;
    size_t seq;
} tk_timeline_part;

/* Bits of tk_timeline_opts.flags. */
#define TK_TIMELINE_NO_MEASURE (1u << 0) /* plan only: read no dump; effects
                                            the index alone cannot tell are
                                            left unknown, TK_UNKNOWN_NOT_MEASURED
                                            (for a diff of a few passes) */
/* Whole units: an LLVM IR, codegen IR or machine code pass that printed
 * some functions is compared as the whole module before and after it (the
 * latest module dump with every function at its latest text; machine code,
 * which has no module dump: every function seen so far, in the order first
 * seen) instead of only as those functions.  The same lines change, so the
 * counts are the same; what it buys is that every such pass's text before is
 * the text after the one before it (tk_timeline_step.continues), which lets a
 * front end compose any two passes of a level, as it can for MLIR.  A loop
 * pass keeps its own texts (a loop cannot be put back into its function) and
 * is stepped over: the pass after it continues from the last whole unit, and
 * its diff holds the loop passes' changes (TK_TL_SPANS_LOOPS).  A function
 * the latest module dump does not define keeps the function-only texts. */
#define TK_TIMELINE_WHOLE_UNITS (1u << 1)

typedef struct tk_timeline tk_timeline;

/* What tk_timeline_build_steps() hands to its ON_STEP for each entry once
 * its effect is known: passes in order, then sub-steps in order. */
typedef struct {
    size_t pass;    /* index of the pass (for a sub-step: its pass) */
    size_t substep; /* TK_TL_NONE for a pass, else the sub-step */
    const tk_timeline_entry *entry; /* effect and counts set */
    /* The diff of the entry's two texts, as tk_timeline_diff() would make
     * it (names, hunks over kept lines, kept lines' text), made from the
     * build's own normalizations and hunks: nothing is normalized or
     * diffed a second time (the lines you ask for are read back from the
     * dump files).  Borrowed: its line records are the build's working
     * ones, valid during the call only; tk_ir_diff_free() does nothing on
     * it.  tk_ir_diff_bind() works (a text's locations are read once
     * and serve both diffs it is a side of; give every call the same TAB).
     * NULL when no text was compared (an unknown effect, a -print-changed
     * banner) and when the two texts are the same: byte for byte, or by
     * the index's digests and lengths (the same lines, blank lines aside,
     * which the build then does not read at all). */
    tk_ir_diff *diff;
    /* 1 when the text before this entry is, byte for byte, the text after
     * the last entry handed out before it whose texts were read (the same
     * buffer: a Before dump after the Before dump of the previous pass,
     * consecutive function passes on the same function), so that a front
     * end can compose consecutive diffs into the diff of any two points of
     * the chain; also 1 for a -print-changed "no change" banner (it leaves
     * the text as it is).  With TK_TIMELINE_WHOLE_UNITS, loop passes are
     * stepped over: the pass after them continues when its text before is
     * the text after the last other pass (the same dumps put together the
     * same way), and a loop pass itself is 0.  0 otherwise: the first text,
     * a text cut to other functions or to a loop, an unknown effect. */
    int continues;
    /* tk_normalize_digest() of the two texts as compared (after any cut
     * to the same functions): BEFORE_DIGEST of the text before the entry,
     * AFTER_DIGEST of the text after it, its output.  Equal digests of two
     * timelines' texts mean texts that compare equal (tk_compare.h holds
     * only these, never two compilations' texts).  When the two texts are
     * the same (DIFF NULL, unchanged) both are that text's digest.  An
     * After dump with nothing comparable before it (TK_UNKNOWN_NO_BEFORE:
     * the first LLVM IR or machine code dump) still has its text read, for
     * AFTER_DIGEST.  0 for a text that was not read: an unknown side, a
     * -print-changed banner (with CONTINUES set, its text is the last one
     * read), a text that could not be read. */
    uint64_t before_digest, after_digest;
} tk_timeline_step;

/* Returning nonzero stops the calls (the build itself goes on). */
typedef int (*tk_timeline_step_fn)(const tk_timeline *tl,
                                   const tk_timeline_step *step, void *user);

typedef struct {
    tk_diff_opts diff; /* algorithm and limits; zeros: histogram */
    unsigned flags;    /* TK_TIMELINE_... */
} tk_timeline_opts;

/* Builds the timeline of the kernel whose dumps are PARTS (N_PARTS of them,
 * put in pipeline order: by the first level of each sequence, then as
 * given).  KERNEL (may be NULL) gives the name and the final stages.  OPTS
 * may be NULL.  Reads every dump once (a text that both ends one diff and
 * starts the next is read and normalized once).  Never fails on content:
 * what cannot be read is an unknown entry with a diagnostic in DIAGS naming
 * the file and line.  Returns NULL only for bad arguments (no part, a
 * sequence out of range).  Free with tk_timeline_free(). */
TK_API
tk_timeline *tk_timeline_build(const tk_timeline_part *parts, size_t n_parts,
                               const tk_kernel *kernel,
                               const tk_timeline_opts *opts,
                               tk_diags *diags);

/* tk_timeline_build(), handing each entry with its diff to ON_STEP (may be
 * NULL) as it is measured (tk_timeline_step), with USER: a front end that
 * stores every pass's diff needs no second walk.  ON_STEP is not called
 * with TK_TIMELINE_NO_MEASURE. */
TK_API
tk_timeline *tk_timeline_build_steps(const tk_timeline_part *parts,
                                     size_t n_parts, const tk_kernel *kernel,
                                     const tk_timeline_opts *opts,
                                     tk_timeline_step_fn on_step, void *user,
                                     tk_diags *diags);
TK_API
void tk_timeline_free(tk_timeline *tl);

/* The timeline of KERNEL from the pass dumps that came with BUNDLE: its
 * sequence in each pass file (tk_bundle_kernel_pass_seq()); indexing the
 * pass files, on the first call, reports to DIAGS.  Returns NULL when no
 * pass file has dumps of the kernel.  The timeline borrows the bundle (its
 * pass indexes and the kernel), which must outlive it. */
TK_API
tk_timeline *tk_timeline_of_kernel(tk_bundle *bundle, const tk_kernel *kernel,
                                   const tk_timeline_opts *opts,
                                   tk_diags *diags);

/* The parts of KERNEL's timeline in the pass dumps that came with BUNDLE:
 * its sequence in each pass file that has one, in file order (indexing the
 * pass files, on the first call, reports to DIAGS).  Returns their number
 * and sets *PARTS (caller frees with g_free(); NULL when there is none). */
TK_API
size_t tk_timeline_parts_of_kernel(tk_bundle *bundle, const tk_kernel *kernel,
                                   tk_timeline_part **parts, tk_diags *diags);

/* The kernel's name: KERNEL's, else the sequences' ("" when unnamed). */
TK_API
const char *tk_timeline_kernel_name(const tk_timeline *tl);
TK_API
const tk_kernel *tk_timeline_kernel(const tk_timeline *tl);

/* The parts in pipeline order; tk_timeline_entry.part indexes them. */
TK_API
size_t tk_timeline_part_count(const tk_timeline *tl);
TK_API
const tk_timeline_part *tk_timeline_get_part(const tk_timeline *tl, size_t i);

TK_API
size_t tk_timeline_count(const tk_timeline *tl);
/* Pass I in pipeline order; NULL when out of range. */
TK_API
const tk_timeline_entry *tk_timeline_get(const tk_timeline *tl, size_t i);
/* Sub-step J of pass I; NULL when out of range. */
TK_API
const tk_timeline_entry *tk_timeline_substep(const tk_timeline *tl, size_t i,
                                             size_t j);

/* ---- levels ------------------------------------------------------------
 *
 * The level of a pass is the IR it reads (tk_timeline_entry.level).  The
 * pass that converts one IR into the next (ConvertTritonToTritonGPU: TTIR
 * to TTGIR; ConvertTritonGPUToLLVM: TTGIR to the LLVM dialect) reads one
 * level and leaves another.  A level's "whole level" diff runs from the
 * input of its first pass to the output of its last, both that level: so
 * a level is a run of passes that read and leave it, and a converting pass
 * is a step of its own between two levels.  This is the one rule: the
 * report's level list, the viewer's and the CLI's group passes with it. */

/* The level of the text pass I leaves: its dump after's level (the next
 * pass's), or its own when the text after is its level's final stage or
 * not known.  TK_PASS_LEVEL_UNKNOWN when I is out of range. */
TK_API
tk_pass_level tk_timeline_level_after(const tk_timeline *tl, size_t i);

/* Whether pass I starts a level's run of passes: the first pass, a pass
 * at another level than the one before it, a converting pass (it leaves
 * another level than it reads) and the pass after one.  A run ends before
 * the next pass that starts one.  0 when I is out of range.  Needs only
 * the passes' plan (usable from a tk_timeline_build_steps() callback). */
TK_API
int tk_timeline_starts_level(const tk_timeline *tl, size_t i);

/* A side as a person reads it: "mlir_passes.txt:1178",
 * "stderr.txt:1029 (add_kernel)", "stderr.txt:790 with add_kernel from
 * stderr.txt:1213", "final .ttgir", "none".  Caller frees with g_free(). */
TK_API
char *tk_timeline_side_describe(const tk_timeline *tl,
                                const tk_timeline_side *side);

/* ---- diffs between two points (tk_ir_diff.h) -------------------------- */

/* The IR before pass FROM against the IR after pass TO (FROM <= TO; equal
 * for one pass's effect).  The diff reads its lines back from the pass
 * dump files of TL's parts: their indexes (and the kernel, for a final
 * stage) must outlive it; TL itself need not.  Both must be of the same dialect (TTIR and TTGIR
 * are both MLIR; LLVM IR and codegen IR both LLVM IR).  When either side
 * holds only some functions (LLVM function passes, machine code), the same
 * functions are cut out of the other.  Returns NULL with an error in DIAGS
 * when a side is missing (an unknown effect), the dialects differ, or a text
 * cannot be read. */
TK_API
tk_ir_diff *tk_timeline_diff(const tk_timeline *tl, size_t from, size_t to,
                             const tk_diff_opts *opts, tk_diags *diags);

/* What a front end shows for passes FROM..TO: tk_timeline_diff(), except
 * that one pass (FROM == TO) whose effect is unknown for want of anything
 * comparable before it (TK_UNKNOWN_NO_BEFORE: the first dump of its IR
 * level, or a function dumped on its own) is its IR after it on both sides,
 * a diff without a change, and *AFTER_ONLY (may be NULL) is set: show that
 * side, under tk_unknown_why_sentence(), never an empty pane.  `tkview
 * diff` and the viewer's pass view show what this gives. */
TK_API
tk_ir_diff *tk_timeline_diff_shown(const tk_timeline *tl, size_t from, size_t to,
                                   const tk_diff_opts *opts, int *after_only,
                                   tk_diags *diags);

/* Which text of a pass tk_timeline_diff_across() takes. */
typedef enum {
    TK_TL_INPUT,  /* the text before the pass (tk_timeline_entry.before) */
    TK_TL_OUTPUT  /* the text after it (tk_timeline_entry.after) */
} tk_timeline_point;

/* Two timelines (a kernel compiled twice: two configurations, two Triton
 * versions): text WHICH_A of pass I of A against text WHICH_B of pass J of
 * B, each as its own timeline assembles it.  Reads one text of each, one at
 * a time.  The names of the sides are prefixed with PREFIX_A and PREFIX_B
 * (may be NULL).  Returns NULL with an error in DIAGS when a pass is out of
 * range, a text is unknown (no dump after a pass, nothing before an After
 * dump) or cannot be read, or the dialects differ.  Caller frees with
 * tk_ir_diff_free(). */
TK_API
tk_ir_diff *tk_timeline_diff_across(const tk_timeline *a, size_t i,
                                    tk_timeline_point which_a,
                                    const char *prefix_a,
                                    const tk_timeline *b, size_t j,
                                    tk_timeline_point which_b,
                                    const char *prefix_b,
                                    const tk_diff_opts *opts, tk_diags *diags);

/* Texts of passes kept once read, for diffs across timelines that come
 * back to the same texts (a report compares three compiles of a kernel two
 * by two: each text is a side of two comparisons).  Only the texts of the
 * timelines named by tk_timeline_texts_keep() are kept, at most MAX_BYTES
 * of them (about: line records and their normalization); once full, the
 * texts read next are not kept (they come back in the order they were
 * first read: dropping the oldest would drop each before it is asked).  Safe to share between threads; the timelines
 * must outlive it.  Free with tk_timeline_texts_free(). */
typedef struct tk_timeline_texts tk_timeline_texts;

TK_API
tk_timeline_texts *tk_timeline_texts_new(size_t max_bytes);

TK_API
void tk_timeline_texts_free(tk_timeline_texts *t);

/* KEEP 1: the texts of TL read from now on are kept; 0: TL's kept texts
 * go (the diffs made from them keep theirs) and later ones are not kept. */
TK_API
void tk_timeline_texts_keep(tk_timeline_texts *t, const tk_timeline *tl, int keep);

/* tk_timeline_diff_across(), each text read once into T and taken from
 * there again (the same diff: the same texts, normalization and engine);
 * T NULL: tk_timeline_diff_across() itself.  The diff shares the kept
 * texts and may outlive T.  Caller frees with tk_ir_diff_free(). */
TK_API
tk_ir_diff *tk_timeline_texts_diff(tk_timeline_texts *t, const tk_timeline *a, size_t i,
                                   tk_timeline_point which_a, const char *prefix_a,
                                   const tk_timeline *b, size_t j,
                                   tk_timeline_point which_b, const char *prefix_b,
                                   const tk_diff_opts *opts, tk_diags *diags);

/* The effect of sub-step J of pass I. */
TK_API
tk_ir_diff *tk_timeline_diff_substep(const tk_timeline *tl, size_t i,
                                     size_t j, const tk_diff_opts *opts,
                                     tk_diags *diags);

/* ---- pass history of a source line ----------------------------------------- */

/* Whether a location's file is the one asked for (the caller decides;
 * tk_file_query_accepts() of tk_file_query.h is the rule for a FILE a user
 * typed).  Asked once per file id. */
typedef int (*tk_file_pred)(const tk_loctab *tab, tk_file_id file,
                            void *user);

/* The passes and sub-steps of TL whose effect added or removed IR bound to
 * source line LINE of the files FILE_OK accepts, in timeline order.  One
 * pass over the timeline: each changed entry's two texts are read, diffed
 * and their locations read (into TAB); unchanged and unknown entries are
 * skipped.  Returns a history (maybe with no step); free with
 * tk_history_free(). */
TK_API
tk_history *tk_timeline_history(const tk_timeline *tl, tk_loctab *tab,
                                tk_file_pred file_ok, void *user,
                                uint32_t line, tk_match match,
                                const tk_diff_opts *opts, tk_diags *diags);
#ifdef __cplusplus
}
#endif
#endif
