/* data_passes.h - a kernel's pass timeline written as the report's data
 * (data_passes.c), for the threads that share the kernels out
 * (data_passes_plan.c). */
#ifndef HTML_DATA_PASSES_H
#define HTML_DATA_PASSES_H

#include "jsonw.h"
#include "pass_chain.h"
#include "report.h"
#include "tkdump/tk_timeline.h"

/* Kernel RK's pass data from its N_PARTS PARTS (taken), its changed lines
 * bound in TAB, problems to DIAGS.  No bundle call but the location
 * table's (under R->lock), so two kernels can be done at the same time. */
int html_kernel_passes(html_report *r, html_report_kernel *rk, tk_timeline_part *parts,
                       size_t n_parts, tk_loctab *tab, tk_diags *diags);

/* Where the page finds the IR after each pass with nothing comparable
 * before it (data_passes_after.c): the first text of a chain, or a file of
 * its own. */
typedef struct html_pass_afters html_pass_afters;
html_pass_afters *html_pass_afters_new(void);
void html_pass_afters_free(html_pass_afters *a);
/* Takes each step while the timeline is built (sub-steps are let be). */
void html_pass_afters_step(html_pass_afters *a, const tk_timeline_step *st);
/* Once the timeline is built and CHAINS written: names each pass's chain,
 * or writes its IR after it (its lines bound in TAB).  Returns 0 or a
 * write error. */
int html_pass_afters_place(html_pass_afters *a, html_report *r, html_report_kernel *rk,
                           const tk_timeline *tl, const html_pass_chains *chains,
                           tk_loctab *tab);
/* Pass PASS's key in passes.js, if it is one: "ac": C (chain C's first
 * text) or "pa": 1 (pa-PASS.js). */
void html_pass_afters_json(const html_pass_afters *a, size_t pass, jw *w);

#endif
