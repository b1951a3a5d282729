/* first_stage.c - the stage a front end opens first (tk_kernel.h), one
 * choice for the viewer, the report and the bench. */
#include "kernel/kernel.h"

tk_stage_kind tk_kernel_first_stage(const tk_kernel *k)
{
    if (tk_kernel_stage(k, TK_STAGE_TTGIR))
        return TK_STAGE_TTGIR;
    for (int s = 0; s < TK_STAGE_COUNT; s++)
        if (tk_kernel_stage(k, (tk_stage_kind)s))
            return (tk_stage_kind)s;
    return TK_STAGE_UNKNOWN;
}
