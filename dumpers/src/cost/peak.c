/* peak.c - where a kernel's live registers peak, in the words every front
 * end shows (tk_cost_register_peak(), tk_cost.h): `tkview info`, the
 * report's register strip and the viewer's.  Built on the cost's own
 * answers (tk_cost_peak_sass_line()) and the binding's stacks. */
#include "cost/internal.h"

#include <string.h>

int tk_cost_register_peak(const tk_cost *c, const tk_kernel *k, const tk_bind *ix,
                          const tk_loctab *tab, tk_cost_reg_peak *out)
{
    static const char *const names[] = {"live_registers", "live_predicates",
                                        "live_uniform_registers",
                                        "live_uniform_predicates"};
    memset(out, 0, sizeof *out);
    out->file = TK_NO_FILE;
    int m = tk_cost_metric_find(c, names[0]);
    if (m < 0)
        return -1;
    double *peaks[] = {&out->gpr, &out->pred, &out->ugpr, &out->upred};
    for (int f = 0; f < 4; f++) {
        int mf = tk_cost_metric_find(c, names[f]);
        *peaks[f] = mf < 0 ? 0 : tk_cost_total(c)[mf];
    }
    out->metric = (size_t)m;
    out->sass_line = tk_cost_peak_sass_line(c, (size_t)m, TK_NO_FILE, 0, 0);
    if (!out->sass_line)
        return 0;
    size_t len;
    const char *s = tk_stage_line(tk_kernel_stage(k, TK_STAGE_SASS), out->sass_line, &len);
    tk_sass_insn in;
    if (s && tk_sass_insn_parse(s, len, &in)) {
        out->offset = in.offset;
        out->has_offset = 1;
    }
    const tk_stack_id *ids;
    if (tk_bind_line_stacks(ix, TK_STAGE_SASS, out->sass_line, &ids)) {
        size_t nf;
        const tk_frame *fr = tk_loctab_stack_frames(tab, ids[0], &nf);
        if (nf) {
            out->file = fr[0].file;
            out->line = fr[0].line;
        }
    }
    return 0;
}
