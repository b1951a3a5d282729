/* tk_diff.h - line diffs: which lines of A became which lines of B.
 *
 * The engine follows git's xdiff: each line becomes a record, records are
 * hashed into integer classes (two lines are equal when their classes are),
 * the common prefix and suffix are trimmed, and one algorithm runs on the
 * middle.  The result reaches the caller as hunks through a callback.
 *
 * One hunk type feeds every view.  A hunk is a pair of half-open ranges of
 * 0-based line indices, A[a0, a1) and B[b0, b1), with a tag:
 *   TK_HUNK_EQUAL    the lines are equal one to one (a1 - a0 == b1 - b0);
 *   TK_HUNK_DELETE   A[a0, a1) was removed (b0 == b1: where it was, in B);
 *   TK_HUNK_INSERT   B[b0, b1) was added (a0 == a1);
 *   TK_HUNK_REPLACE  A[a0, a1) became B[b0, b1), both non-empty.
 * tk_diff() reports hunks in order; together they cover both inputs exactly
 * (each hunk starts where the previous one ended, the first at 0, the last
 * ends at the input's length), and equal hunks alternate with the others
 * (never two equal or two non-equal hunks in a row).  Two empty inputs give no
 * hunk; identical inputs give one equal hunk.
 *
 * Line index I is line I + 1 of an editor.  The library's other APIs number
 * lines from 1; hunks use 0-based indices because they are ranges over arrays.
 *
 * Algorithms:
 *   TK_DIFF_HISTOGRAM (the default) as in git and JGit: find the rarest
 *     region common to both sides (lines that occur at most 64 times in A),
 *     take it as matched, recurse on each side of it.  It keeps unique lines
 *     (a function's signature, a rare op) as anchors, which reads better than
 *     a minimal diff.  Where a region has common lines but all of them occur
 *     more than 64 times, it falls back to Myers for that region.
 *   TK_DIFF_MYERS: Myers' O(ND) algorithm in linear space (the middle snake,
 *     divide and conquer).  Lines found on one side only are set aside first
 *     (they cannot match).  A minimal diff costs O((N+M)D); to keep a
 *     pathological pair from taking quadratic time, the search for one middle
 *     snake stops after max_cost steps of D (default: the larger of 1024 and
 *     sqrt(N+M)) and splits at the furthest point reached, as xdiff does.  At
 *     that limit the diff is still correct (every equal hunk is truly equal,
 *     every line is covered) but may not be minimal.  (xdiff's 256 made 4 of
 *     the ~300 consecutive pass pairs of persistent_tma_matmul non-minimal,
 *     by up to 181 lines a side; at 1024 none is, for no measurable time.)
 * Both algorithms also share one total work budget (default 64 (N+M) + 2^22
 * steps).  A pair that exhausts it gets its remaining unsolved regions
 * reported as replaced whole: still correct, no longer minimal, and the time
 * stays linear in the size of the inputs.
 *
 * Memory: a few words per line of A and B, freed before tk_diff() returns.
 * No allocation per line.
 */
#ifndef TKDUMP_TK_DIFF_H
#define TKDUMP_TK_DIFF_H

#include <stddef.h>
#include <stdint.h>

#include "tk_export.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    TK_HUNK_EQUAL,
    TK_HUNK_DELETE,
    TK_HUNK_INSERT,
    TK_HUNK_REPLACE,
    /* Only from tk_diff_group(): the extent of one group, context included,
     * announced before the group's hunks. */
    TK_HUNK_GROUP
} tk_hunk_tag;

typedef struct {
    tk_hunk_tag tag;
    uint32_t a0, a1; /* A[a0, a1), 0-based, half-open */
    uint32_t b0, b1; /* B[b0, b1) */
} tk_hunk;

/* "equal", "delete", "insert", "replace", "group". */
TK_API
const char *tk_hunk_tag_name(tk_hunk_tag tag);

/* One line: LEN bytes at TEXT, without its line end.  Not NUL-terminated. */
typedef struct {
    const char *text;
    size_t len;
} tk_diff_line;

/* The lines of one side.  HASHES may be NULL; when not, HASHES[i] must be
 * tk_diff_hash() of LINES[i] (a normalizer that already touched every byte
 * saves the engine a second pass), or, where LINES are given too, any hash
 * of their bytes that both sides take alike (the engine compares the bytes
 * of lines whose hashes match: a word diff hashes its short tokens more
 * cheaply).  LINES may be NULL when HASHES is not:
 * the lines are then known by their hashes alone, and two lines are equal
 * when their hashes are (a normalization of a 2 GB dump keeps no text; the
 * 64-bit hash makes a false match between two different lines about as
 * likely as n * n / 2^65 for n distinct lines). */
typedef struct {
    const tk_diff_line *lines;
    const uint64_t *hashes;
    uint32_t n;
} tk_diff_input;

typedef enum {
    TK_DIFF_HISTOGRAM = 0,
    TK_DIFF_MYERS = 1
} tk_diff_algorithm;

/* "histogram" or "myers". */
TK_API
const char *tk_diff_algorithm_name(tk_diff_algorithm alg);

/* Called once per hunk, in order.  HUNK is valid during the call only.
 * Returning nonzero stops the diff; tk_diff() then returns that value. */
typedef int (*tk_diff_hunk_fn)(const tk_hunk *hunk, void *user);

/* The hash the engine gives LEN bytes at TEXT (64-bit, not cryptographic). */
TK_API
uint64_t tk_diff_hash(const char *text, size_t len);

/* Diffs A against B with ALG and reports the hunks to FN.  Returns 0, or the
 * nonzero value FN returned to stop.  Inputs with 2^32 - 2 lines or more are
 * refused with -1 before any hunk is reported. */
TK_API
int tk_diff(const tk_diff_input *a, const tk_diff_input *b,
            tk_diff_algorithm alg, tk_diff_hunk_fn fn, void *user);

/* Tuning for tests and benchmarks; zero fields mean the defaults above. */
typedef struct {
    tk_diff_algorithm algorithm;
    uint32_t max_cost;   /* Myers: steps of D per middle snake */
    uint64_t max_work;   /* both: total steps before giving up on minimality */
} tk_diff_opts;

/* tk_diff() with OPTS (NULL: the defaults, histogram). */
TK_API
int tk_diff_with(const tk_diff_input *a, const tk_diff_input *b,
                 const tk_diff_opts *opts, tk_diff_hunk_fn fn, void *user);

/* Runs the diff and returns its hunks in an array of *N entries.  Caller frees
 * with g_free().  Returns NULL (and *N = 0) when there is no hunk or the input
 * is refused. */
TK_API
tk_hunk *tk_diff_collect(const tk_diff_input *a, const tk_diff_input *b,
                         const tk_diff_opts *opts, size_t *n);

/* Lines added and removed, summed over hunks (a replace counts its A lines as
 * removed and its B lines as added).  Usable as a tk_diff_hunk_fn with a
 * tk_diff_stats as USER (it never stops the diff). */
typedef struct {
    uint32_t added;
    uint32_t removed;
    uint32_t changes; /* non-equal hunks */
} tk_diff_stats;

TK_API
int tk_diff_stats_add(const tk_hunk *hunk, void *stats);
TK_API
tk_diff_stats tk_diff_stats_sum(const tk_hunk *hunks, size_t n);

/* The equal lines shown around each change when nobody asks for another
 * number: `tkview diff` (its --context), the report's stored and composed
 * pass diffs (written into its data as "context"), the viewer's pass and
 * compare views.  One number, so that every front end groups a diff into
 * the same changes (tk_ir_diff_changes(), tk_ir_diff.h). */
#define TK_DIFF_CONTEXT 3u

/* Groups HUNKS (as tk_diff() reports them) the way a unified diff does: each
 * change with up to CONTEXT equal lines before and after it, changes closer
 * than 2 CONTEXT + 1 equal lines merged into one group.  For each group FN
 * receives first a TK_HUNK_GROUP hunk giving the group's whole extent (what a
 * "@@ -a0+1,a1-a0 +b0+1,b1-b0 @@" line says), then the group's hunks, its
 * leading and trailing equal hunks cut to the context.  Returns 0 or the
 * nonzero value FN returned to stop.  A diff without changes has no group. */
TK_API
int tk_diff_group(const tk_hunk *hunks, size_t n, uint32_t context,
                  tk_diff_hunk_fn fn, void *user);

/* The changes of a diff, as every front end counts them and steps through
 * them ("change k of n"): the groups tk_diff_group() makes of HUNKS with
 * TK_DIFF_CONTEXT lines of context, which are the "@@" hunks `tkview diff`
 * prints (its --json "hunks"), the report's groups and the viewer's
 * next/previous change.  So two edits fewer than 2 TK_DIFF_CONTEXT + 1
 * equal lines apart are one change, however many delete, insert and
 * replace hunks they are made of.  Change I spans its group's changed
 * lines, the context left out: A lines [a0, a1), B lines [b0, b1), tag
 * TK_HUNK_GROUP.  Returns the number of changes; *OUT gets them (NULL
 * when there is none); caller frees with free(). */
TK_API
size_t tk_diff_changes(const tk_hunk *hunks, size_t n, tk_hunk **out);

/* ---- replaced blocks aligned line to line ------------------------------
 *
 * A replace hunk says that k lines of A became m lines of B, not which
 * became which; a view that faces them by position shows unrelated lines
 * side by side.  tk_diff_align() pairs each removed line with the added
 * line most like it, in order: lines are cut into words (runs of letters,
 * digits and _ . $, a run of digits counting as one digit, so that `%45`
 * and `%47` are alike; bare numbers and other characters left out), two
 * lines' likeness is the Dice coefficient of their word multisets (lines
 * without words: alike when their other characters are the same), and
 * the pairs are the in-order matching of largest total likeness among
 * pairs at least half alike.  Only the first 512 bytes of a line count.
 *
 * This is the one pairing rule: the CLI, the report and the viewer show
 * the aligned hunks (tk_ir_diff_aligned(), tk_ir_diff.h), none pairs
 * lines of its own. */

/* Line I (an index of the hunks) of SIDE (0: A, 1: B), for
 * tk_diff_align(): its bytes, *LEN of them, valid until the next call for
 * the same side; NULL when it cannot be read. */
typedef const char *(*tk_diff_text_fn)(int side, uint32_t i, size_t *len, void *user);

/* HUNKS (N, as tk_diff() reports them) with each replace hunk split where
 * its lines pair: a replace hunk of its paired lines (A and B the same
 * number of lines, line a0 + i paired with b0 + i), the lines between two
 * pairs as a delete hunk then an insert hunk.  So two non-equal hunks may
 * follow each other; tk_diff_group() and tk_diff_changes() group them as
 * before (the equal hunks are the same).  TEXT gives the lines of replace
 * hunks only.  A 1:1 replace stays as it is; a block of more than 2^18
 * line pairs, one with a line TEXT cannot read, and the blocks past a
 * whole budget of 2^22 pairs or 2^16 lines read stay as they are (paired
 * by position).  Returns the new hunks, *OUT_N of them (NULL when N is 0);
 * caller frees with g_free(). */
TK_API
tk_hunk *tk_diff_align(const tk_hunk *hunks, size_t n, tk_diff_text_fn text, void *user,
                       size_t *out_n);

#ifdef __cplusplus
}
#endif
#endif
