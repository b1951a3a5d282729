/* cli_cost.c - a kernel's cost tables for the commands that show them
 * (info, hot): the static counts, and the bundle's profile when it has
 * one. */
#include "cli.h"

#include <string.h>

tk_cost *cli_cost(const tk_kernel *k, const tk_bind *ix,
                     const tk_loctab *tab, gboolean quiet,
                     tk_profile **profile)
{
    tk_diags *d = tk_diags_new();
    *profile = tk_profile_load(k, d);
    tk_cost *c = cli_cost_with(k, ix, tab, quiet, *profile, d);
    tk_diags_free(d);
    return c;
}

tk_cost *cli_cost_with(const tk_kernel *k, const tk_bind *ix,
                       const tk_loctab *tab, gboolean quiet,
                       const tk_profile *profile, const tk_diags *diags)
{
    /* A profile that does not match is reported; the static counts are
     * still right. */
    cli_print_diags(diags, quiet);
    return tk_cost_new(ix, k, tab, profile);
}

void cli_put_number(FILE *out, double v)
{
    if (v == (double)(long long)v)
        fprintf(out, "%lld", (long long)v);
    else
        fprintf(out, "%.3g", v);
}

void cli_json_number(JsonBuilder *j, double v)
{
    if (v == (double)(gint64)v && v > -9007199254740992.0 &&
        v < 9007199254740992.0)
        json_builder_add_int_value(j, (gint64)v);
    else
        json_builder_add_double_value(j, v);
}

/* ---- bind --ir: what one IR line costs ------------------------------------ */

typedef struct {
    double own, bound, source;
    const tk_cost_line *src;
    const char *metric;
} ir_cost;

/* V as the report's and the viewer's tooltips write it: whole, or to two
 * decimals (a share: 0.55). */
static void put_share(double v)
{
    char buf[48];
    g_snprintf(buf, sizeof buf, "%.2f", v);
    char *e = buf + strlen(buf);
    while (e > buf && e[-1] == '0')
        *--e = 0;
    if (e > buf && e[-1] == '.')
        *--e = 0;
    fputs(strcmp(buf, "-0") == 0 ? "0" : buf, stdout);
}

/* Line LINE of STAGE's own share, bound and source line values by the
 * default metric (tk_cost.h); 0 when the kernel has no SASS or the line
 * gets nothing. */
static int ir_cost_of(const tk_cost *c, tk_stage_kind stage, uint32_t line,
                      ir_cost *out)
{
    size_t m = tk_cost_default_metric(c);
    const double *own = tk_cost_ir_line_own(c, stage, line);
    const double *bound = tk_cost_ir_line(c, stage, line);
    if (!own && !bound)
        return 0;
    out->metric = tk_cost_metric_name(c, m);
    out->own = own ? own[m] : 0;
    out->bound = bound ? bound[m] : 0;
    out->src = tk_cost_ir_line_source(c, stage, line);
    out->source = out->src ? out->src->exact[m] : 0;
    return 1;
}

void cli_cost_ir_text(const tk_cost *c, const tk_loctab *tab, tk_stage_kind stage,
                      uint32_t line)
{
    ir_cost ic;
    if (c && ir_cost_of(c, stage, line, &ic)) {
        cli_printf("  %s: this %s %s: ", ic.metric, tk_stage_kind_label(stage),
                   stage == TK_STAGE_SASS ? "instruction" : "line");
        put_share(ic.own);
        if (stage != TK_STAGE_SASS) {
            fputs(" (its share of the ", stdout);
            put_share(ic.bound);
            fputs(" bound to it)", stdout);
        }
        if (ic.src) {
            const char *path = tk_loctab_file_path(tab, ic.src->file);
            char *base = g_path_get_basename(path);
            cli_printf("; source line %s:%u total: ", base, ic.src->line);
            put_share(ic.source);
            g_free(base);
        }
        putchar('\n');
    }
}

void cli_cost_ir_json(JsonBuilder *j, const tk_cost *c, const tk_loctab *tab,
                      tk_stage_kind stage, uint32_t line)
{
    json_builder_set_member_name(j, "cost");
    ir_cost ic;
    if (!c || !ir_cost_of(c, stage, line, &ic)) {
        json_builder_add_null_value(j);
    } else {
        json_builder_begin_object(j);
        json_builder_set_member_name(j, "metric");
        json_builder_add_string_value(
            j, tk_cost_metric_name(c, tk_cost_default_metric(c)));
        json_builder_set_member_name(j, "own");
        cli_json_number(j, ic.own);
        json_builder_set_member_name(j, "bound");
        cli_json_number(j, ic.bound);
        json_builder_set_member_name(j, "source");
        if (ic.src) {
            json_builder_begin_object(j);
            json_builder_set_member_name(j, "file");
            json_builder_add_string_value(j, tk_loctab_file_path(tab, ic.src->file));
            json_builder_set_member_name(j, "line");
            json_builder_add_int_value(j, ic.src->line);
            json_builder_set_member_name(j, "total");
            cli_json_number(j, ic.source);
            json_builder_end_object(j);
        } else {
            json_builder_add_null_value(j);
        }
        json_builder_end_object(j);
    }
}
