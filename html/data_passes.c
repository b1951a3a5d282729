/* data_passes.c - a kernel's pass timeline for pass mode.  Until the
 * timeline module (tk_timeline.h) is part of the library, a kernel has no
 * pass data and pass mode is disabled on its page. */
#include "report.h"

int tk_report_passes(tk_report *r, tk_report_kernel *rk)
{
    (void)r;
    rk->n_passes = rk->n_changed = -1;
    return 0;
}
