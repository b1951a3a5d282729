/* cli_regs.c - a kernel's registers for `tkview info`: ptxas's count from
 * the cubin, the live register peak nvdisasm's life ranges give (where it
 * is, on which source line), and what the count means for occupancy.
 * Every number comes from the library (tk_cost.h, tk_cost_register_peak());
 * this file only words them. */
#include "cli.h"

#include <string.h>

/* What is known of kernel K's registers, from the cost C. */
typedef struct {
    int live;            /* whether C has the live_* metrics */
    double peak[4];      /* GPR, PRED, UGPR, UPRED peaks */
    uint32_t sass_line;  /* where the GPR count peaks; 0 none */
    uint32_t offset;
    gboolean has_offset;
    tk_file_id file;     /* its innermost frame: TK_NO_FILE none */
    uint32_t line;
    const char *why;     /* why there are no life ranges */
    tk_occupancy occ;
    int has_occ;
} regs_info;

static void regs_get(const tk_kernel *k, const tk_bind *ix,
                     const tk_loctab *tab, const tk_cost *c, regs_info *r)
{
    memset(r, 0, sizeof *r);
    tk_cost_life_ranges(c, &r->why);
    r->has_occ = tk_cost_occupancy(k, &r->occ) == 0;
    tk_cost_reg_peak pk;
    if (tk_cost_register_peak(c, k, ix, tab, &pk) != 0)
        return;
    r->live = 1;
    r->peak[0] = pk.gpr;
    r->peak[1] = pk.pred;
    r->peak[2] = pk.ugpr;
    r->peak[3] = pk.upred;
    r->sass_line = pk.sass_line;
    r->offset = pk.offset;
    r->has_offset = pk.has_offset;
    r->file = pk.file;
    r->line = pk.line;
}

void cli_regs_text(const tk_kernel *k, const tk_bind *ix,
                      const tk_loctab *tab, const tk_cost *c)
{
    regs_info r;
    regs_get(k, ix, tab, c, &r);
    const tk_kernel_meta *meta = tk_kernel_metadata(k);
    if (r.live) {
        cli_printf("  live registers: peak %.0f (GPR) at SASS line %u", r.peak[0],
               r.sass_line);
        if (r.has_offset)
            cli_printf(" (offset 0x%04x)", r.offset);
        if (r.file != TK_NO_FILE)
            cli_printf(", %s:%u", tk_loctab_file_path(tab, r.file), r.line);
        cli_printf("; %.0f predicates, %.0f uniform, %.0f uniform predicates",
               r.peak[1], r.peak[2], r.peak[3]);
        if (meta->registers > 0)
            cli_printf("; ptxas used %lld", (long long)meta->registers);
        putchar('\n');
    } else if (r.why) {
        cli_printf("  live registers: unknown: %s\n", r.why);
    }
    if (r.has_occ) {
        cli_printf("  occupancy: %d warps per SM (of %d) at %d registers per "
               "thread, %d warps per block",
               r.occ.warps_per_sm, r.occ.max_warps_per_sm, r.occ.registers,
               r.occ.warps_per_block);
        if (r.occ.next_registers)
            cli_printf("; %d registers (%d fewer) would give %d",
                   r.occ.next_registers, r.occ.registers - r.occ.next_registers,
                   r.occ.next_warps_per_sm);
        cli_printf(" (registers only)\n");
    }
}

void cli_regs_json(JsonBuilder *j, const tk_kernel *k, const tk_bind *ix,
                      const tk_loctab *tab, const tk_cost *c)
{
    regs_info r;
    regs_get(k, ix, tab, c, &r);
    json_builder_set_member_name(j, "registers");
    json_builder_begin_object(j);
    json_builder_set_member_name(j, "cubin");
    json_builder_add_int_value(j, tk_kernel_metadata(k)->registers);
    json_builder_set_member_name(j, "life_ranges");
    const char *path = tk_cost_life_ranges(c, NULL);
    if (path)
        json_builder_add_string_value(j, path);
    else
        json_builder_add_null_value(j);
    if (!r.live) {
        json_builder_set_member_name(j, "life_ranges_missing");
        json_builder_add_string_value(j, r.why ? r.why : "no SASS");
    } else {
        static const char *const keys[] = {"gpr", "pred", "ugpr", "upred"};
        json_builder_set_member_name(j, "peak");
        json_builder_begin_object(j);
        for (int f = 0; f < 4; f++) {
            json_builder_set_member_name(j, keys[f]);
            cli_json_number(j, r.peak[f]);
        }
        json_builder_end_object(j);
        json_builder_set_member_name(j, "peak_sass_line");
        json_builder_add_int_value(j, r.sass_line);
        json_builder_set_member_name(j, "peak_offset");
        if (r.has_offset)
            json_builder_add_int_value(j, r.offset);
        else
            json_builder_add_null_value(j);
        json_builder_set_member_name(j, "peak_source");
        if (r.file != TK_NO_FILE) {
            json_builder_begin_object(j);
            json_builder_set_member_name(j, "file");
            json_builder_add_string_value(j, tk_loctab_file_path(tab, r.file));
            json_builder_set_member_name(j, "line");
            json_builder_add_int_value(j, r.line);
            json_builder_end_object(j);
        } else {
            json_builder_add_null_value(j);
        }
    }
    json_builder_set_member_name(j, "occupancy");
    if (r.has_occ) {
        json_builder_begin_object(j);
        struct {
            const char *key;
            int v;
        } f[] = {{"warps_per_sm", r.occ.warps_per_sm},
                 {"max_warps_per_sm", r.occ.max_warps_per_sm},
                 {"warps_per_block", r.occ.warps_per_block},
                 {"registers_per_sm", r.occ.registers_per_sm},
                 {"next_registers", r.occ.next_registers},
                 {"next_warps_per_sm", r.occ.next_warps_per_sm}};
        for (size_t i = 0; i < G_N_ELEMENTS(f); i++) {
            json_builder_set_member_name(j, f[i].key);
            json_builder_add_int_value(j, f[i].v);
        }
        json_builder_end_object(j);
    } else {
        json_builder_add_null_value(j);
    }
    json_builder_end_object(j);
}

/* ---- bind --ir: one IR line's live register peak ------------------------ */

/* The peak of live_registers over the SASS instructions bound to line
 * LINE of STAGE, and where; returns 0 when the kernel has no life ranges
 * or no instruction is bound (*WHY then says why, when it is the former). */
static int ir_peak(const tk_cost *c, tk_stage_kind stage, uint32_t line,
                   double *peak, uint32_t *sass_line, char **why)
{
    *why = NULL;
    if (!c)
        return 0;
    int m = tk_cost_metric_find(c, "live_registers");
    int ok = 0;
    if (m < 0) {
        const char *w = tk_cost_metric_missing(c, "live_registers");
        *why = w ? g_strdup(w) : NULL;
    } else {
        const double *v = tk_cost_ir_line(c, stage, line);
        *sass_line = tk_cost_ir_peak_sass_line(c, (size_t)m, stage, line);
        if (v && *sass_line) {
            *peak = v[m];
            ok = 1;
        }
    }
    return ok;
}

void cli_regs_ir_text(const tk_cost *c, tk_stage_kind stage, uint32_t line)
{
    double peak = 0;
    uint32_t at = 0;
    char *why;
    if (ir_peak(c, stage, line, &peak, &at, &why))
        cli_printf("  live registers: peak %.0f (GPR) over its SASS, at "
                      "sass:%u\n", peak, at);
    g_free(why);
}

void cli_regs_ir_json(JsonBuilder *j, const tk_cost *c, tk_stage_kind stage,
                      uint32_t line)
{
    double peak = 0;
    uint32_t at = 0;
    char *why;
    json_builder_set_member_name(j, "live_registers");
    if (ir_peak(c, stage, line, &peak, &at, &why)) {
        json_builder_begin_object(j);
        json_builder_set_member_name(j, "peak");
        cli_json_number(j, peak);
        json_builder_set_member_name(j, "sass_line");
        json_builder_add_int_value(j, at);
        json_builder_end_object(j);
    } else {
        json_builder_add_null_value(j);
    }
    g_free(why);
}
