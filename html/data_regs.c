/* data_regs.c - the register pressure of a kernel for its page: the live
 * general registers nvdisasm counts at every SASS instruction (tk_cost.h's
 * "live_registers", from NAME.sass_lr), and where the kernel peaks, as the
 * "regs" member of data/ID/cost.js.  assets/regs.js draws the strip along
 * the SASS pane and marks the peak's source line from these numbers only:
 *
 *   "regs": {"metric": M, "sass": [GPR count per SASS line, 0 on a line
 *            that is no instruction], "peak": V, "peak_sass": SASS line,
 *            "peak_offset": its offset or null, "peak_src": [file, line]
 *            or null (the innermost frame of the peak instruction, as
 *            `tkview info` names it), "ptxas": the cubin's register count
 *            (0 unknown)}
 *   or "regs": {"missing": why} when the kernel has no life ranges.
 */
#include "report.h"
#include "tkdump/tk_cost.h"

/* The innermost frame of SASS line LINE's first stack, or NULL. */
static const tk_frame *sass_frame(const tk_bind *ix, const tk_loctab *tab,
                                  uint32_t line)
{
    const tk_stack_id *ids;
    if (!tk_bind_line_stacks(ix, TK_STAGE_SASS, line, &ids))
        return NULL;
    size_t nf;
    const tk_frame *fr = tk_loctab_stack_frames(tab, ids[0], &nf);
    return nf ? &fr[0] : NULL;
}

void html_report_regs_data(jw *w, const tk_cost *c, const tk_kernel *k,
                           const tk_bind *ix, const tk_loctab *tab)
{
    jw_key(w, "regs");
    jw_obj(w);
    int m = tk_cost_metric_find(c, "live_registers");
    if (m < 0) {
        const char *why = NULL;
        tk_cost_life_ranges(c, &why);
        jw_key(w, "missing");
        jw_str(w, why ? why : "no life ranges");
        jw_obj_end(w);
        return;
    }
    const tk_stage *st = tk_kernel_stage(k, TK_STAGE_SASS);
    uint32_t n = tk_stage_line_count(st);
    jw_key(w, "metric");
    jw_int(w, m);
    jw_key(w, "sass");
    jw_arr(w);
    for (uint32_t l = 1; l <= n; l++) {
        const double *v = tk_cost_sass_class(c, l) >= 0 ? tk_cost_ir_line(c, TK_STAGE_SASS, l)
                                                        : NULL;
        jw_int(w, v ? (int64_t)v[m] : 0);
    }
    jw_arr_end(w);
    jw_key(w, "peak");
    jw_int(w, (int64_t)tk_cost_total(c)[m]);
    uint32_t pl = tk_cost_peak_sass_line(c, (size_t)m, TK_NO_FILE, 0, 0);
    jw_key(w, "peak_sass");
    jw_int(w, pl);
    jw_key(w, "peak_offset");
    size_t len;
    const char *s = pl ? tk_stage_line(st, pl, &len) : NULL;
    tk_sass_insn in;
    if (s && tk_sass_insn_parse(s, len, &in))
        jw_int(w, in.offset);
    else
        jw_null(w);
    jw_key(w, "peak_src");
    const tk_frame *fr = pl ? sass_frame(ix, tab, pl) : NULL;
    if (fr) {
        jw_arr(w);
        jw_int(w, fr->file);
        jw_int(w, fr->line);
        jw_arr_end(w);
    } else {
        jw_null(w);
    }
    jw_key(w, "ptxas");
    jw_int(w, tk_kernel_metadata(k)->registers > 0 ? tk_kernel_metadata(k)->registers : 0);
    jw_obj_end(w);
}
