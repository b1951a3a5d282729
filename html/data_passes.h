/* data_passes.h - a kernel's pass timeline written as the report's data
 * (data_passes.c), for the threads that share the kernels out
 * (data_passes_plan.c). */
#ifndef HTML_DATA_PASSES_H
#define HTML_DATA_PASSES_H

#include "report.h"
#include "tkdump/tk_timeline.h"

/* Kernel RK's pass data from its N_PARTS PARTS (taken), its changed lines
 * bound in TAB, problems to DIAGS.  No bundle call but the location
 * table's (under R->lock), so two kernels can be done at the same time. */
int html_kernel_passes(html_report *r, html_report_kernel *rk, tk_timeline_part *parts,
                       size_t n_parts, tk_loctab *tab, tk_diags *diags);

#endif
