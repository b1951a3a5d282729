/* tk_normalize.h - IR dumps made comparable line by line, and their diffs.
 *
 * Two consecutive pass dumps differ in much that no pass changed: debug
 * locations (`loc(#loc12)`, `!dbg !7`, `debug-location !7`) whose numbers
 * shift, `#loc` alias lines, and SSA names that are only counters (`%12`,
 * `%offsets_3`, `%arg4`, `^bb2`, LLVM `%5` and `5:`, MIR `%12:b32` and
 * `%bb.3`).  A pass that inserts one op renumbers every value after it; a diff
 * of the raw text would show the whole function as changed.
 *
 * Normalization turns each line of one dump into a comparable line:
 *   - location suffixes are removed: MLIR ` loc(...)` wherever it appears
 *     (ops, function and block arguments), LLVM `!dbg !N` attachments, MIR
 *     `debug-location !N` and the `; file:line` comment after it;
 *   - lines that only carry debug information are ignored: MLIR `#locN = ...`
 *     alias definitions, LLVM `!N = !DI...` / `distinct !DI...` nodes; so are
 *     blank lines and lines left empty (a MIR line that was only a comment);
 *   - names that are pure numbering lose their number: MLIR `%12` -> `%`,
 *     `%offsets_3` -> `%offsets`, `%c0_i32_1` -> `%c0_i32`, `%arg4` ->
 *     `%arg`, `^bb2` -> `^bb`; LLVM `%12` -> `%`, `%.critedge1` ->
 *     `%.critedge`, label `12:` -> `:`, other metadata `!5` -> `!`, attribute
 *     groups `#0` -> `#`; MIR `%12:b32` -> `%:b32`, `%bb.3` -> `%bb.`,
 *     `%ir-block.6` -> `%ir-block.`, and MIR slot indexes (`16B`) go.
 *     Names that carry meaning stay: `%c1024_i32` (a constant's value),
 *     `%x_ptr`, `@add_kernel`, `$r1`.  The padding after an LLVM label (the
 *     column of `; preds = ...`) becomes one space;
 *   - indentation is dropped: an op a pass moved out of a region (an
 *     `scf.if %true` folded away) is the same op one level up;
 *   - a reference to an MLIR attribute alias defined earlier in the dump
 *     (`#blocked1` in `tensor<1024xf32, #blocked1>`) compares by the alias's
 *     definition: it becomes the family name and a hash of the definition
 *     (`#blocked~5d2c...`).  The printer numbers aliases by use, so when a
 *     pass adds a layout, yesterday's `#blocked` may be today's `#blocked1`
 *     and the other way round (TritonGPURemoveLayoutConversions does this in
 *     every capture): a line naming `#blocked` in both dumps changed if the
 *     layout behind the name did, and a line whose alias was only renamed
 *     did not.  The definition lines themselves keep the family name
 *     (`#blocked = #ttg.blocked<...>`).
 * Erasing the numbers, rather than renumbering in order of definition, is
 * what keeps one inserted op from renaming every value defined after it.
 * The names are not forgotten: each normalized line remembers the values it
 * names, per function, and tk_normalize_diff() checks that lines it
 * matched name matching values (see there).
 *
 * Dialects are told apart by tk_ir_dialect_sniff(); TK_IR_PLAIN compares
 * lines as they are (trailing spaces and blank lines aside).
 *
 * Lines: a dump of LEN bytes is split at "\n" (a "\r" before it is dropped; a
 * last line without "\n" counts), as a stage's text is (tk_stage.h).
 * Indices are 0-based: the line at index I is line I + 1 of the dump.
 *
 * Ownership: a tk_normalize owns its normalized text and tables; it does
 * not keep the dump it was made from (free that whenever you like).  Time
 * and memory are linear in the dump's size; nothing is allocated per line.
 * A normalization made with TK_NORMALIZE_HASHES_ONLY (below) keeps no text:
 * its memory grows with the number of lines, not their bytes.
 */
#ifndef TKDUMP_TK_NORMALIZE_H
#define TKDUMP_TK_NORMALIZE_H

#include <stddef.h>
#include <stdint.h>

#include "tk_diff.h"
#include "tk_export.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    TK_IR_PLAIN,  /* unknown text: compared as is */
    TK_IR_MLIR,   /* MLIR as Triton prints it (TTIR, TTGIR, LLVM dialect) */
    TK_IR_LLVM,   /* LLVM IR */
    TK_IR_MIR,    /* LLVM machine code as -print-after-all prints it */
    TK_IR_PTX,    /* PTX: virtual registers and labels renamed (ptx.c) */
    TK_IR_SASS    /* SASS as nvdisasm prints it: registers renamed */
} tk_ir_dialect;

/* "plain", "mlir", "llvm", "mir", "ptx", "sass". */
TK_API
const char *tk_ir_dialect_name(tk_ir_dialect dialect);

/* Guesses the dialect of a dump from its first lines (at most the first 64
 * KiB of DATA are looked at).  TK_IR_PLAIN when nothing fits. */
TK_API
tk_ir_dialect tk_ir_dialect_sniff(const char *data, size_t len);

typedef struct tk_normalize tk_normalize;

/* Normalizes the LEN bytes of DATA as DIALECT.  Never fails on content: any
 * bytes give some lines (a broken location or string ends at its line's
 * end).  Returns NULL only for a dump of 4 GiB or more.  Free with
 * tk_normalize_free(). */
TK_API
tk_normalize *tk_normalize_new(tk_ir_dialect dialect, const char *data,
                               size_t len);

/* The same over N lines given one by one (each without its line end).
 * Returns NULL for N of 2^32 - 2 or more, or LINES NULL with N > 0. */
TK_API
tk_normalize *tk_normalize_new_lines(tk_ir_dialect dialect,
                                     const tk_diff_line *lines, uint32_t n);

/* ---- lines given one at a time ------------------------------------------
 *
 * For a dump read a piece at a time (a 2 GB pass dump is never in memory
 * whole): each line is given once, normalized and forgotten, and the
 * builder's tables keep copies of the few names they need. */

typedef struct tk_normalize_builder tk_normalize_builder;

/* Flags of tk_normalize_builder_new(). */
enum {
    /* Keep each kept line's hash only, not its normalized text:
     * tk_normalize_input() then has LINES NULL, and tk_diff() compares the
     * lines by their hashes (tk_diff.h).  Memory is then a few words per
     * line, whatever the lines' lengths. */
    TK_NORMALIZE_HASHES_ONLY = 1u << 0,
    /* MLIR: write attribute aliases out.  A reference ("#blocked1") becomes
     * the normalized text of its definition and the definition lines are
     * ignored, so that a text printed with aliases compares with the same IR
     * printed without them (inline "#ttg.blocked<{...}>"), as Triton's
     * pipeliner prints its sub-steps.  Such a text is printed without
     * locations too, and MLIR takes value names from name locations
     * ("%pid" there, "%0" here): value names are dropped whole, a value
     * compared by where it is defined and used only. */
    TK_NORMALIZE_EXPAND_ALIASES = 1u << 1,
};

/* A builder normalizing as DIALECT; free with tk_normalize_builder_finish()
 * (or tk_normalize_builder_free() to drop it). */
TK_API
tk_normalize_builder *tk_normalize_builder_new(tk_ir_dialect dialect,
                                               unsigned flags);
/* Adds the next line of the dump: LEN bytes at LINE without its line end (a
 * "\r" at its end is dropped).  The bytes are not kept. */
TK_API
void tk_normalize_builder_add(tk_normalize_builder *b, const char *line,
                              size_t len);
/* The normalization of the lines added; frees B.  NULL when 2^32 - 2 lines
 * or more were added. */
TK_API
tk_normalize *tk_normalize_builder_finish(tk_normalize_builder *b);
TK_API
void tk_normalize_builder_free(tk_normalize_builder *b);

TK_API
void tk_normalize_free(tk_normalize *norm);

TK_API
tk_ir_dialect tk_normalize_dialect(const tk_normalize *norm);

/* Lines of the dump, ignored ones included. */
TK_API
uint32_t tk_normalize_line_count(const tk_normalize *norm);

/* The kept (not ignored) lines, normalized, with their hashes: what to give
 * tk_diff() to compare two dumps without the SSA name check.  Owned by NORM.
 * Made with TK_NORMALIZE_HASHES_ONLY, LINES is NULL (hashes only). */
TK_API
const tk_diff_input *tk_normalize_input(const tk_normalize *norm);

/* Index in the dump of kept line K (K < tk_normalize_input(norm)->n). */
TK_API
uint32_t tk_normalize_orig_index(const tk_normalize *norm, uint32_t k);

#define TK_NORMALIZE_IGNORED UINT32_MAX

/* Index among the kept lines of the dump's line at INDEX, or
 * TK_NORMALIZE_IGNORED for an ignored line (and for INDEX out of range). */
TK_API
uint32_t tk_normalize_kept_index(const tk_normalize *norm, uint32_t index);

/* A digest of the dump as tk_normalize_diff() compares it: the kept lines'
 * normalized text in order, and which of the values they name are the same
 * value (each value numbered in the order it is first named).  Two dumps
 * of one dialect with equal digests compare equal: one equal hunk, no line
 * added or removed (up to a 64-bit hash collision); dumps that compare
 * equal have equal digests.  So a front end can tell whether two texts of
 * two compilations are the same once normalized while holding neither
 * (tk_compare.h).  Never 0.  Linear in the dump's lines; allocates one
 * word per value, freed before it returns. */
TK_API
uint64_t tk_normalize_digest(const tk_normalize *norm);

/* Flags of tk_normalize_diff(). */
enum {
    /* Report hunks over kept lines (indices into tk_normalize_input())
     * instead of over the dumps' lines. */
    TK_NORMALIZE_DIFF_KEPT_LINES = 1u << 0,
};

/* Diffs two normalized dumps and reports the hunks to FN (see tk_diff.h for
 * hunks and OPTS; NULL OPTS: histogram).  Returns 0, or what FN returned to
 * stop it.
 *
 * Lines are matched by their normalized text, then each pair of matched lines
 * is checked for the values it names: walking the equal lines in order, the
 * first time a value of A meets a value of B they are paired, and a line
 * pair that names a value paired with another one is reported as replaced
 * (`%5 = add %3, %4` does not equal `%7 = add %6, %4` when %3 was paired with
 * something other than %6).  Values defined by changed lines pair at their
 * first use in an equal line, so the users of a replaced op stay equal.
 *
 * Hunks are over the dumps' lines (or, with TK_NORMALIZE_DIFF_KEPT_LINES,
 * over the kept lines, where every equal hunk pairs its lines one to one).
 * Over the dumps' lines, ignored lines ride along with a neighbouring hunk:
 * with the equal hunk next to them where there is one (so an alias line or a
 * blank line never shows as a change), otherwise inside the change they sit
 * in.  An equal hunk may therefore have different lengths on its two sides,
 * and counts of changed lines should be taken over kept lines
 * (tk_normalize_diff_stats()).  A dump pair without any change gives one
 * equal hunk (none if both dumps are empty). */
TK_API
int tk_normalize_diff(const tk_normalize *a, const tk_normalize *b,
                      const tk_diff_opts *opts, unsigned flags,
                      tk_diff_hunk_fn fn, void *user);

/* Kept lines added and removed between A and B, as tk_normalize_diff() sees
 * them.  A pass that changed nothing gives added == removed == 0. */
TK_API
tk_diff_stats tk_normalize_diff_stats(const tk_normalize *a,
                                      const tk_normalize *b,
                                      const tk_diff_opts *opts);

#ifdef __cplusplus
}
#endif
#endif
