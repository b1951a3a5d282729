/* data_regs.c - the register pressure of a kernel for its page: the live
 * general registers nvdisasm counts at every SASS instruction (tk_cost.h's
 * "live_registers", from NAME.sass_lr), and where the kernel peaks, as the
 * "regs" member of data/ID/cost.js.  assets/regs.js draws the strip along
 * the SASS pane and marks the peak's source line from these numbers only:
 *
 *   "regs": {"metric": M, "sass": [GPR count per SASS line, 0 on a line
 *            that is no instruction], "peak": V, "peak_sass": SASS line,
 *            "peak_offset": its offset or null, "peak_src": [file, line]
 *            or null (tk_cost_register_peak(): the innermost frame of the
 *            peak instruction, as `tkview info` names it), "ptxas": the cubin's register count
 *            (0 unknown)}
 *   or "regs": {"missing": why} when the kernel has no life ranges.
 */
#include "report.h"
#include "tkdump/tk_cost.h"

void html_report_regs_data(jw *w, const tk_cost *c, const tk_kernel *k,
                           const tk_bind *ix, const tk_loctab *tab)
{
    jw_key(w, "regs");
    jw_obj(w);
    tk_cost_reg_peak pk;
    if (tk_cost_register_peak(c, k, ix, tab, &pk) != 0) {
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
    jw_int(w, (int64_t)pk.metric);
    jw_key(w, "sass");
    jw_arr(w);
    for (uint32_t l = 1; l <= n; l++) {
        const double *v = tk_cost_sass_class(c, l) >= 0 ? tk_cost_ir_line(c, TK_STAGE_SASS, l)
                                                        : NULL;
        jw_int(w, v ? (int64_t)v[pk.metric] : 0);
    }
    jw_arr_end(w);
    jw_key(w, "peak");
    jw_int(w, (int64_t)pk.gpr);
    jw_key(w, "peak_sass");
    jw_int(w, pk.sass_line);
    jw_key(w, "peak_offset");
    if (pk.has_offset)
        jw_int(w, pk.offset);
    else
        jw_null(w);
    jw_key(w, "peak_src");
    if (pk.file != TK_NO_FILE) {
        jw_arr(w);
        jw_int(w, pk.file);
        jw_int(w, pk.line);
        jw_arr_end(w);
    } else {
        jw_null(w);
    }
    jw_key(w, "ptxas");
    jw_int(w, tk_kernel_metadata(k)->registers > 0 ? tk_kernel_metadata(k)->registers : 0);
    jw_obj_end(w);
}
