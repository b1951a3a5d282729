/* pass_chain.h - the stored texts that let the browser compose pass diffs
 * (data_chain.c).
 *
 * A chain is a run of consecutive passes of one IR (MLIR: TTIR, TTGIR, the
 * LLVM dialect; LLVM IR and codegen IR; machine code) where each pass's text
 * before is the text after the pass before it, byte for byte
 * (tk_timeline_step.continues).  LLVM prints most passes with only the
 * function they ran on, so the report builds its timeline with
 * TK_TIMELINE_WHOLE_UNITS: each LLVM IR or machine code pass is compared as
 * the whole module (all functions) before and after it, and passes chain as
 * MLIR passes do.  It is stored once, as data/ID/pc-C.js:
 *
 *   {"from": F, "to": T,                first and last pass of the chain
 *    "base": {"t": [...], "n": [...],   the kept lines of the text before
 *             "s": [...]},              pass F, their line numbers, and
 *                                       what each names in the source (an
 *                                       entry of "st")
 *    "steps": [S_F, ..., S_T]}          per pass, how its text after is
 *                                       made from its text before:
 *   S = 0                               the same text (no change at all)
 *   S = null                            a loop pass, stepped over: it prints
 *                                       only its loop, so the text stays as
 *                                       it was for the chain and the next
 *                                       pass's step holds its changes; it
 *                                       is no end of a composed diff
 *   S = {"h": [a0, b0, len, ...],       equal runs over kept lines (the
 *                                       diff's equal hunks, in order)
 *        "t": [...],                    the text of every kept line after
 *                                       the pass that no equal run covers
 *        "u": [b, "text", ...],         lines of equal runs whose text
 *                                       differs (value numbers, locations)
 *        "p": [a0, b0, len, ...],       replaced lines the library paired
 *                                       by likeness (tk_ir_diff_aligned():
 *                                       line a0 + i became b0 + i)
 *        "w": [b, [aW, bW], ...],       the changed words of each line b
 *                                       a replace made (paired in order
 *                                       with its line before), as
 *                                       data_words.h writes them
 *        "n": [k0, l0, k1, l1, ...],    line numbers of the kept lines
 *                                       after: from kept line k0 on, line
 *                                       l0, l0 + 1, ... up to the next run
 *        "s": [...],                    what each line of "t" names in the
 *                                       source (an entry of "st")
 *        "su": [b, e, ...]}             lines b of equal runs that name
 *                                       other stacks than their line
 *                                       before: entry e
 *    "st": [...]                        the table of what lines name in the
 *                                       source (data_locs.h)
 *    "ly": {defs, covers}               MLIR: the TTGIR layouts its lines
 *                                       refer to (data_layouts.h), with
 *                                       per line its references: base and
 *                                       step "y" (beside "t"), step "yu"
 *                                       ([b, refs, ...] for "u")
 *
 * Kept lines are tk_ir_diff_kept_line()'s (lines that carry only debug
 * information, and blank lines, are left out).  Applying the steps F..K to
 * the base gives the exact kept lines of the text after pass K; the equal
 * runs of steps N..M, composed, say which lines of the text before N are
 * still there after M, and their pairs composed with them which lines
 * became which (a line paired in any step is a replaced line of the
 * composed diff; lines neither equal nor paired are removed or added), so
 * each pass's own diff is its step.  Only what passes add is stored, never a whole text
 * per pass: a chain costs its first text plus what its passes changed, and
 * each of those is held to the budget of pass_budget.h (a pass over it
 * ends the chain and is stored on its own).
 *
 * The line numbers of a module put together from several dumps (a module
 * dump with a function as a later function dump prints it) count the lines
 * of that text, as the pass's "before"/"after" description names it.
 */
#ifndef HTML_PASS_CHAIN_H
#define HTML_PASS_CHAIN_H

#include "report.h"
#include "tkdump/tk_timeline.h"

typedef struct html_pass_chains html_pass_chains;

/* Chains of RK's passes; their lines' stacks are read from TAB, where the
 * steps' diffs are bound (tk_ir_diff_bind()). */
html_pass_chains *html_pass_chains_new(html_report *r, html_report_kernel *rk, const tk_loctab *tab);
void html_pass_chains_free(html_pass_chains *c);

typedef enum {
    HTML_CHAIN_IN,         /* stored in a chain: its diff needs no file of
                            its own */
    HTML_CHAIN_NOT,        /* not of a chain: a loop pass, an unknown effect,
                            a sub-step, a text no diff compared */
    HTML_CHAIN_OVER_BUDGET /* it would be, but its text before or what it
                            changed is over the budget (pass_budget.h):
                            stored on its own, cut; no end of a composed
                            diff */
} html_pass_chain_verdict;

/* Takes the step of a pass (not of a sub-step) while the timeline is built
 * and says where its diff is stored.  Errors writing a chain are kept for
 * html_pass_chains_finish. */
html_pass_chain_verdict html_pass_chains_step(html_pass_chains *c, const tk_timeline_step *st);

/* Writes the chain still open; returns 0 or the first write error. */
int html_pass_chains_finish(html_pass_chains *c);

/* Number of chains written; chain I's passes are FROM..TO. */
size_t html_pass_chains_count(const html_pass_chains *c);
void html_pass_chains_range(const html_pass_chains *c, size_t i, size_t *from,
                          size_t *to);
/* The chain that holds pass P, or -1. */
ptrdiff_t html_pass_chains_of(const html_pass_chains *c, size_t p);

#endif
