/* cmd_info_text.c - `tkview info` as text: the kernels, their stages,
 * metadata, binding counts, cost and pass dumps, then the pass files. */
#include "cmd_info.h"

#include "tkdump/tk_bundle_passes.h"
#include "tkdump/tk_config.h"

static const char *const input_kind_names[] = {
    [TK_INPUT_BUNDLE] = "tkview bundle",
    [TK_INPUT_CAPTURE] = "capture folder",
    [TK_INPUT_KERNEL_DIRS] = "Triton cache / dump folder",
    [TK_INPUT_KERNEL_DIR] = "one kernel folder",
    [TK_INPUT_FILES] = "loose stage files",
};

/* The metadata line, and AMD's facts on a second line so that NVIDIA's
 * reads as it always did (tk_kernel_meta_fields(): the viewer's Kernel
 * panel lists the same facts). */
static void meta_text(const tk_kernel_meta *m)
{
    tk_meta_field f[TK_META_FIELD_MAX];
    size_t n = tk_kernel_meta_fields(m, f, TK_META_FIELD_MAX);
    GString *line[2] = {g_string_new(NULL), g_string_new(NULL)};
    for (size_t i = 0; i < n; i++) {
        GString *s = line[f[i].amd];
        g_string_append_printf(s, "%s%s ", s->len ? ", " : "", f[i].key);
        if (f[i].text)
            g_string_append(s, f[i].text);
        else
            g_string_append_printf(s, "%lld%s", (long long)f[i].value, f[i].unit);
    }
    cli_printf("  metadata: %s\n", line[0]->len ? line[0]->str : "(none found)");
    if (line[1]->len)
        printf("  amd: %s\n", line[1]->str);
    g_string_free(line[0], TRUE);
    g_string_free(line[1], TRUE);
}

/* The kernel's SASS by class and its profile's totals (tk_cost.h). */
static void cost_text(const tk_kernel *k, const tk_bind *ix, const tk_loctab *tab,
                      gboolean quiet, const cmd_info_profiles *pf, size_t ki)
{
    if (!tk_kernel_stage(k, TK_STAGE_SASS))
        return;
    const tk_profile *p = pf->profile[ki];
    tk_cost *c = cmd_info_cost(pf, ki, k, ix, tab, quiet);
    const double *t = tk_cost_total(c);
    printf("  cost: %.0f SASS instructions:", t[0]);
    for (int i = 0; i < TK_SASS_CLASS_COUNT; i++)
        printf("%s %s %.0f", i ? "," : "", tk_sass_class_name((tk_sass_class)i),
               t[1 + i]);
    putchar('\n');
    if (p) {
        size_t m = tk_cost_default_metric(c);
        printf("  profile: %s, %zu instructions, ", tk_profile_tool(p),
               tk_profile_row_count(p));
        cli_put_number(stdout, t[m]);
        printf(" %s (tkview hot: by source line)\n", tk_cost_metric_name(c, m));
    }
    cli_regs_text(k, ix, tab, c);
    tk_cost_free(c);
}

static void pass_files_text(tk_bundle *b)
{
    size_t n = tk_bundle_pass_file_count(b, NULL);
    if (n == 0)
        return;
    cli_printf("pass dump files:\n  %-4s %-5s %12s %7s %5s  %s\n", "#", "kind", "bytes",
           "dumps", "seqs", "file");
    for (size_t i = 0; i < n; i++) {
        const tk_passes *p = tk_bundle_pass_file(b, i);
        cli_printf("  [%zu]%*s %-5s %12llu %7zu %5zu  ", i, i < 10 ? 1 : 0, "",
               cmd_info_pass_file_kind(p), (unsigned long long)tk_passes_file_size(p),
               tk_passes_count(p), tk_passes_seq_count(p));
        cli_put_text(stdout, tk_passes_path(p), strlen(tk_passes_path(p)));
        putchar('\n');
    }
}

static void kernel_passes_text(tk_bundle *b, const tk_kernel *k)
{
    size_t n = tk_bundle_pass_file_count(b, NULL);
    gboolean any = FALSE;
    for (size_t i = 0; i < n; i++) {
        ptrdiff_t s = tk_bundle_kernel_pass_seq(b, k, i);
        if (s < 0)
            continue;
        const tk_passes *p = tk_bundle_pass_file(b, i);
        if (!any)
            cli_printf("  %-6s %8s  %s\n", "passes", "dumps", "file");
        any = TRUE;
        const tk_pass_seq *q = tk_passes_seq(p, (size_t)s);
        cli_printf("  %-6s %8zu  [%zu] ", cmd_info_pass_file_kind(p), q->n_dumps, i);
        cli_put_text(stdout, tk_passes_path(p), strlen(tk_passes_path(p)));
        if (q->shared_by && q->n_dumps < q->full_dumps)
            cli_printf("  (shared by %zu compiles; they part after dump "
                          "%zu of %zu)", q->shared_by, q->n_dumps,
                          q->full_dumps);
        else if (q->shared_by)
            cli_printf("  (shared by %zu compiles: identical dumps)",
                          q->shared_by);
        putchar('\n');
    }
    if (!any && n > 0)
        cli_printf("  passes: no dumps of this kernel in the pass dump files\n");
}

void cmd_info_text(tk_bundle *b, gboolean quiet, const tk_diag_set *ds,
                   const cmd_info_profiles *pf)
{
    size_t n = tk_bundle_kernel_count(b);
    tk_loctab *tab = tk_bundle_loctab(b);
    gboolean any_stage = FALSE;
    for (size_t i = 0; i < n && !any_stage; i++)
        any_stage = tk_kernel_has_stages(tk_bundle_kernel(b, i));
    /* Loose files that are all pass dumps (an MLIR_DUMP_PATH file, a
     * stderr) hold no stage file: say what they are. */
    const char *kind = tk_bundle_input_kind(b) == TK_INPUT_FILES && !any_stage
                           ? "pass dump files"
                           : input_kind_names[tk_bundle_input_kind(b)];
    cli_printf("%s: %s, %zu kernel%s\n", tk_bundle_path(b), kind, n,
           n == 1 ? "" : "s");
    if (tk_bundle_input_kind(b) == TK_INPUT_BUNDLE) {
        const char *v;
        if ((v = tk_bundle_compiler(b)))
            cli_printf("compiler: %s\n", v);
        if ((v = tk_bundle_command(b)))
            cli_printf("command: %s\n", v);
        int c = tk_bundle_complete(b);
        cli_printf("capture: %s\n", c == 1 ? "complete" : c == 0 ? "INCOMPLETE" : "unknown");
    }
    pass_files_text(b);
    tk_config **apart = tk_config_apart_all(b, NULL);
    for (size_t i = 0; i < n; i++) {
        const tk_kernel *k = tk_bundle_kernel(b, i);
        cli_printf("\n[%zu] %s  %s\n", i, tk_kernel_name(k), tk_kernel_hash(k));
        meta_text(tk_kernel_metadata(k));
        if (tk_config_count(apart[i])) {
            /* what sets it apart from the other compiles of its name */
            char *label = tk_config_label(apart[i]);
            cli_printf("  apart: ");
            cli_put_text(stdout, label, strlen(label));
            putchar('\n');
            g_free(label);
        }
        if (ds)
            cli_diag_kernel_text(ds, k);
        tk_bind *ix = cmd_info_bind(pf, i, k, tab);
        if (!tk_kernel_has_stages(k)) {
            /* Pass dumps alone: one reason, not five times the same. */
            const char *why = tk_kernel_stage_missing(k, TK_STAGE_TTGIR);
            fputs("  stages: none (", stdout);
            cli_put_text(stdout, why, strlen(why));
            puts(")");
            kernel_passes_text(b, k);
            tk_bind_free(ix);
            continue;
        }
        /* instr: instruction lines; bound: those with a location (counts are
         * about code: .loc and //## lines are not counted). */
        cli_printf("  %-6s %8s %8s %8s %8s  %s\n", "stage", "lines", "instr", "bound",
                      "sources", "file");
        for (tk_stage_kind s = 0; s < TK_STAGE_COUNT; s++) {
            if (!tk_kernel_stage_expected(k, s))
                continue;
            const tk_stage *st = tk_kernel_stage(k, s);
            if (!st) {
                const char *why = tk_kernel_stage_missing(k, s);
                cli_printf("  %-6s %8s %8s %8s %8s  (missing: ", tk_stage_kind_name(s),
                       "-", "-", "-", "-");
                cli_put_text(stdout, why, strlen(why));
                puts(")");
                continue;
            }
            cli_printf("  %-6s %8u %8u %8u %8zu  ", tk_stage_kind_name(s),
                   tk_stage_line_count(st), tk_stage_instruction_count(st),
                   tk_bind_bound_line_count(ix, s),
                   cmd_info_source_positions(ix, s));
            cli_put_text(stdout, tk_stage_path(st), strlen(tk_stage_path(st)));
            putchar('\n');
        }
        if (tk_bind_irloc_stage(ix) != TK_STAGE_UNKNOWN)
            cli_printf("  USE_IR_LOC capture: later stages are located at %s lines\n",
                   tk_stage_kind_name(tk_bind_irloc_stage(ix)));
        cost_text(k, ix, tab, quiet, pf, i);
        kernel_passes_text(b, k);
        tk_bind_free(ix);
    }
    for (size_t i = 0; i < n; i++)
        tk_config_free(apart[i]);
    g_free(apart);
    if (ds)
        cli_diag_failed_text(ds);
    size_t nf = tk_loctab_file_count(tab);
    if (nf)
        cli_printf("\nsource files referenced:\n");
    for (tk_file_id f = 0; f < nf; f++) {
        const char *p = tk_loctab_file_path(tab, f);
        const char *local = tk_bundle_resolve_source(b, f, NULL);
        fputs("  ", stdout);
        cli_put_text(stdout, p, strlen(p));
        if (local && strcmp(local, p) != 0) {
            fputs("  ->  ", stdout);
            cli_put_text(stdout, local, strlen(local));
        } else if (!local && tk_bundle_source_refused(b, f)) {
            fputs("  (outside the bundle, not read: shown as path:line)", stdout);
        } else if (!local) {
            fputs("  (not found: shown as path:line)", stdout);
        }
        putchar('\n');
    }
}
