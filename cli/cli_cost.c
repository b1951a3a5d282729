/* cli_cost.c - a kernel's cost tables for the commands that show them
 * (info, hot): the static counts, and the bundle's profile when it has
 * one. */
#include "cli.h"

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
