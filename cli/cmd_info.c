/* cmd_info.c - `tkview info PATH`: kernels, stages, metadata, counts, and
 * the pass dump files with how many dumps each kernel has in them. */
#include "cli.h"

#include <string.h>

#include "tkdump/tk_config.h"
#include "tkdump/tk_passes.h"

static const char *const input_kind_names[] = {
    [TK_INPUT_BUNDLE] = "tkview bundle",
    [TK_INPUT_CAPTURE] = "capture folder",
    [TK_INPUT_KERNEL_DIRS] = "Triton cache / dump folder",
    [TK_INPUT_KERNEL_DIR] = "one kernel folder",
    [TK_INPUT_FILES] = "loose stage files",
};

static const char *const input_kind_ids[] = {
    [TK_INPUT_BUNDLE] = "bundle",
    [TK_INPUT_CAPTURE] = "capture",
    [TK_INPUT_KERNEL_DIRS] = "kernel-dirs",
    [TK_INPUT_KERNEL_DIR] = "kernel-dir",
    [TK_INPUT_FILES] = "files",
};

/* Distinct source positions a stage refers to, in any frame. */
static size_t source_positions(const tk_bind *ix, tk_stage_kind k)
{
    const tk_source_ref *refs;
    return tk_bind_source_refs(ix, k, &refs);
}

static void meta_text(const tk_kernel_meta *m)
{
    GString *s = g_string_new(NULL);
#define FIELD(name, v, unit)                                                   \
    if ((v) >= 0)                                                             \
        g_string_append_printf(s, "%s%s %lld%s", s->len ? ", " : "", name,    \
                               (long long)(v), unit);
    FIELD("num_warps", m->num_warps, "")
    FIELD("num_ctas", m->num_ctas, "")
    FIELD("num_stages", m->num_stages, "")
    FIELD("shared", m->shared_bytes, " B")
    FIELD("registers", m->registers, "")
    FIELD("spills", m->spill_bytes, " B")
#undef FIELD
    if (m->target)
        g_string_append_printf(s, "%starget %s", s->len ? ", " : "", m->target);
    if (m->triton_version)
        g_string_append_printf(s, "%striton %s", s->len ? ", " : "",
                               m->triton_version);
    /* AMD: a second line, so that NVIDIA's reads as it always did. */
    GString *amd = g_string_new(NULL);
#define FIELD(name, v, unit)                                                   \
    if ((v) >= 0)                                                             \
        g_string_append_printf(amd, "%s%s %lld%s", amd->len ? ", " : "",      \
                               name, (long long)(v), unit);
    FIELD("wavefront", m->warp_size, "")
    FIELD("waves_per_eu", m->waves_per_eu, "")
    FIELD("sgprs", m->sgprs, "")
    FIELD("agprs", m->agprs, "")
    FIELD("vgpr_spills", m->vgpr_spills, "")
    FIELD("sgpr_spills", m->sgpr_spills, "")
    FIELD("static LDS", m->lds_static_bytes, " B")
    FIELD("occupancy", m->occupancy, " waves/SIMD")
#undef FIELD
    cli_printf("  metadata: %s\n", s->len ? s->str : "(none found)");
    g_string_free(s, TRUE);
    if (m->target && g_str_has_prefix(m->target, "hip") && amd->len)
        printf("  amd: %s\n", amd->str);
    g_string_free(amd, TRUE);
}

/* The kernel's SASS by class and its profile's totals (tk_cost.h). */
/* Each kernel's profile, read on a worker thread while this one indexes
 * the pass dumps: json-glib took 77 M instructions to parse the 108 KB
 * profile of sample_dumps/attention_fwd, half as long as that index
 * (callgrind, issue 25).  The worker only reads the kernels (their SASS and
 * profile files); the index only reads them too. */
typedef struct {
    tk_bundle *b;
    size_t n;
    tk_profile **profile; /* per kernel, NULL: none */
    tk_diags **diags;     /* per kernel: what reading it said */
    GThread *thread;
} info_profiles;

static gpointer profiles_read(gpointer data)
{
    info_profiles *pf = data;
    for (size_t i = 0; i < pf->n; i++) {
        const tk_kernel *k = tk_bundle_kernel(pf->b, i);
        if (tk_kernel_stage(k, TK_STAGE_SASS))
            pf->profile[i] = tk_profile_load(k, pf->diags[i]);
    }
    return NULL;
}

static void profiles_start(info_profiles *pf, tk_bundle *b)
{
    pf->b = b;
    pf->n = tk_bundle_kernel_count(b);
    pf->profile = g_new0(tk_profile *, pf->n + 1);
    pf->diags = g_new0(tk_diags *, pf->n + 1);
    gboolean any = FALSE;
    for (size_t i = 0; i < pf->n; i++) {
        pf->diags[i] = tk_diags_new();
        any = any || tk_kernel_profile_path(tk_bundle_kernel(b, i));
    }
    pf->thread = any && g_get_num_processors() > 1
                     ? g_thread_try_new("tkview-profiles", profiles_read, pf, NULL)
                     : NULL;
    if (!pf->thread)
        profiles_read(pf);
}

static void profiles_join(info_profiles *pf)
{
    if (pf->thread)
        g_thread_join(pf->thread);
    pf->thread = NULL;
}

static void profiles_free(info_profiles *pf)
{
    for (size_t i = 0; i < pf->n; i++) {
        tk_profile_free(pf->profile[i]);
        tk_diags_free(pf->diags[i]);
    }
    g_free(pf->profile);
    g_free(pf->diags);
}

static void cost_text(const tk_kernel *k, const tk_bind *ix, const tk_loctab *tab,
                      gboolean quiet, const info_profiles *pf, size_t ki)
{
    if (!tk_kernel_stage(k, TK_STAGE_SASS))
        return;
    const tk_profile *p = pf->profile[ki];
    tk_cost *c = cli_cost_with(k, ix, tab, quiet, p, pf->diags[ki]);
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

static void cost_json(JsonBuilder *j, const tk_kernel *k, const tk_bind *ix,
                      const tk_loctab *tab, gboolean quiet,
                      const info_profiles *pf, size_t ki)
{
    json_builder_set_member_name(j, "cost");
    if (!tk_kernel_stage(k, TK_STAGE_SASS)) {
        json_builder_add_null_value(j);
        return;
    }
    const tk_profile *p = pf->profile[ki];
    tk_cost *c = cli_cost_with(k, ix, tab, quiet, p, pf->diags[ki]);
    const double *t = tk_cost_total(c);
    json_builder_begin_object(j);
    json_builder_set_member_name(j, "instructions");
    json_builder_add_int_value(j, (gint64)t[0]);
    json_builder_set_member_name(j, "classes");
    json_builder_begin_object(j);
    for (int i = 0; i < TK_SASS_CLASS_COUNT; i++) {
        json_builder_set_member_name(j, tk_sass_class_name((tk_sass_class)i));
        json_builder_add_int_value(j, (gint64)t[1 + i]);
    }
    json_builder_end_object(j);
    json_builder_set_member_name(j, "profile");
    if (p) {
        json_builder_begin_object(j);
        json_builder_set_member_name(j, "tool");
        json_builder_add_string_value(j, tk_profile_tool(p));
        json_builder_set_member_name(j, "instructions");
        json_builder_add_int_value(j, (gint64)tk_profile_row_count(p));
        json_builder_set_member_name(j, "totals");
        json_builder_begin_object(j);
        for (size_t m = 0; m < tk_cost_metric_count(c); m++) {
            if (tk_cost_metric_kind(c, m) != TK_METRIC_MEASURED)
                continue;
            json_builder_set_member_name(j, tk_cost_metric_name(c, m));
            cli_json_number(j, t[m]);
        }
        json_builder_end_object(j);
        json_builder_end_object(j);
    } else {
        json_builder_add_null_value(j);
    }
    cli_regs_json(j, k, ix, tab, c);
    json_builder_end_object(j);
    tk_cost_free(c);
}

/* "mlir", "llvm" or "mixed": what the dumps of a pass file are. */
static const char *pass_file_kind(const tk_passes *p)
{
    return tk_passes_file_kind_name(tk_passes_content_kind(p));
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
               pass_file_kind(p), (unsigned long long)tk_passes_file_size(p),
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
        cli_printf("  %-6s %8zu  [%zu] ", pass_file_kind(p), q->n_dumps, i);
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

static void info_text(tk_bundle *b, gboolean quiet, const tk_diag_set *ds,
                      const info_profiles *pf)
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
        tk_bind *ix = tk_bind_new(k, tab);
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
                   source_positions(ix, s));
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

static void json_meta(JsonBuilder *j, const tk_kernel_meta *m)
{
    json_builder_begin_object(j);
#define FIELD(name, v)                                                         \
    json_builder_set_member_name(j, name);                                     \
    if ((v) >= 0)                                                             \
        json_builder_add_int_value(j, (v));                                   \
    else                                                                      \
        json_builder_add_null_value(j);
    FIELD("num_warps", m->num_warps)
    FIELD("num_ctas", m->num_ctas)
    FIELD("num_stages", m->num_stages)
    FIELD("shared_bytes", m->shared_bytes)
    FIELD("registers", m->registers)
    FIELD("spill_bytes", m->spill_bytes)
    FIELD("warp_size", m->warp_size)
    FIELD("waves_per_eu", m->waves_per_eu)
    FIELD("sgprs", m->sgprs)
    FIELD("agprs", m->agprs)
    FIELD("vgpr_spills", m->vgpr_spills)
    FIELD("sgpr_spills", m->sgpr_spills)
    FIELD("lds_static_bytes", m->lds_static_bytes)
    FIELD("occupancy", m->occupancy)
#undef FIELD
    json_builder_set_member_name(j, "target");
    if (m->target)
        json_builder_add_string_value(j, m->target);
    else
        json_builder_add_null_value(j);
    json_builder_set_member_name(j, "triton_version");
    if (m->triton_version)
        json_builder_add_string_value(j, m->triton_version);
    else
        json_builder_add_null_value(j);
    json_builder_end_object(j);
}

static void json_opt_string(JsonBuilder *j, const char *name, const char *v)
{
    json_builder_set_member_name(j, name);
    if (v)
        cli_json_string(j, v, strlen(v));
    else
        json_builder_add_null_value(j);
}

static void json_int(JsonBuilder *j, const char *name, gint64 v)
{
    json_builder_set_member_name(j, name);
    json_builder_add_int_value(j, v);
}

static void pass_files_json(JsonBuilder *j, tk_bundle *b)
{
    json_builder_set_member_name(j, "pass_files");
    json_builder_begin_array(j);
    for (size_t i = 0; i < tk_bundle_pass_file_count(b, NULL); i++) {
        const tk_passes *p = tk_bundle_pass_file(b, i);
        json_builder_begin_object(j);
        json_int(j, "index", (gint64)i);
        json_opt_string(j, "path", tk_passes_path(p));
        json_opt_string(j, "kind", pass_file_kind(p));
        json_int(j, "bytes", (gint64)tk_passes_file_size(p));
        json_int(j, "dumps", (gint64)tk_passes_count(p));
        json_int(j, "sequences", (gint64)tk_passes_seq_count(p));
        json_builder_end_object(j);
    }
    json_builder_end_array(j);
}

static void kernel_passes_json(JsonBuilder *j, tk_bundle *b, const tk_kernel *k)
{
    json_builder_set_member_name(j, "passes");
    json_builder_begin_array(j);
    for (size_t i = 0; i < tk_bundle_pass_file_count(b, NULL); i++) {
        ptrdiff_t s = tk_bundle_kernel_pass_seq(b, k, i);
        if (s < 0)
            continue;
        const tk_passes *p = tk_bundle_pass_file(b, i);
        json_builder_begin_object(j);
        json_int(j, "file", (gint64)i);
        json_opt_string(j, "path", tk_passes_path(p));
        json_opt_string(j, "kind", pass_file_kind(p));
        json_int(j, "sequence", (gint64)s);
        const tk_pass_seq *q = tk_passes_seq(p, (size_t)s);
        json_int(j, "dumps", (gint64)q->n_dumps);
        /* 0: this compile's own dumps; N: dumps N compiles have identical */
        json_int(j, "shared_by", (gint64)q->shared_by);
        if (q->shared_by)
            json_int(j, "compile_dumps", (gint64)q->full_dumps);
        json_builder_end_object(j);
    }
    json_builder_end_array(j);
}

static void info_json(tk_bundle *b, gboolean quiet, const tk_diag_set *ds,
                      const info_profiles *pf)
{
    tk_loctab *tab = tk_bundle_loctab(b);
    JsonBuilder *j = json_builder_new();
    json_builder_begin_object(j);
    json_opt_string(j, "path", tk_bundle_path(b));
    json_opt_string(j, "input", input_kind_ids[tk_bundle_input_kind(b)]);
    json_opt_string(j, "compiler", tk_bundle_compiler(b));
    json_opt_string(j, "tool_version", tk_bundle_tool_version(b));
    json_opt_string(j, "command", tk_bundle_command(b));
    json_builder_set_member_name(j, "complete");
    if (tk_bundle_complete(b) >= 0)
        json_builder_add_boolean_value(j, tk_bundle_complete(b));
    else
        json_builder_add_null_value(j);
    json_builder_set_member_name(j, "kernels");
    json_builder_begin_array(j);
    tk_config **apart = tk_config_apart_all(b, NULL);
    for (size_t i = 0; i < tk_bundle_kernel_count(b); i++) {
        const tk_kernel *k = tk_bundle_kernel(b, i);
        tk_bind *ix = tk_bind_new(k, tab);
        json_builder_begin_object(j);
        json_builder_set_member_name(j, "index");
        json_builder_add_int_value(j, (gint64)i);
        json_opt_string(j, "name", tk_kernel_name(k));
        json_opt_string(j, "hash", tk_kernel_hash(k));
        json_opt_string(j, "origin", tk_kernel_origin(k));
        json_builder_set_member_name(j, "metadata");
        json_meta(j, tk_kernel_metadata(k));
        /* every compile option NAME.json records, as it has it */
        json_builder_set_member_name(j, "options");
        json_builder_begin_object(j);
        for (size_t o = 0; o < tk_kernel_option_count(k); o++) {
            const char *value;
            const char *name = tk_kernel_option(k, o, &value);
            json_builder_set_member_name(j, name);
            JsonNode *node = json_from_string(value, NULL);
            if (node)
                json_builder_add_value(j, node);
            else
                cli_json_string(j, value, strlen(value));
        }
        json_builder_end_object(j);
        /* what sets it apart from the other compiles of its name */
        json_builder_set_member_name(j, "apart");
        json_builder_begin_object(j);
        for (size_t a = 0; a < tk_config_count(apart[i]); a++) {
            const tk_config_item *it = tk_config_get(apart[i], a);
            json_builder_set_member_name(j, it->name);
            cli_json_string(j, it->value, strlen(it->value));
        }
        json_builder_end_object(j);
        cli_diag_kernel_json(j, ds, k);
        json_builder_set_member_name(j, "irloc_stage");
        if (tk_bind_irloc_stage(ix) != TK_STAGE_UNKNOWN)
            json_builder_add_string_value(j, tk_stage_kind_name(tk_bind_irloc_stage(ix)));
        else
            json_builder_add_null_value(j);
        json_builder_set_member_name(j, "missing_stages");
        json_builder_begin_object(j);
        for (tk_stage_kind s = 0; s < TK_STAGE_COUNT; s++) {
            const char *why = tk_kernel_stage_expected(k, s)
                                  ? tk_kernel_stage_missing(k, s)
                                  : NULL;
            if (why) {
                json_builder_set_member_name(j, tk_stage_kind_name(s));
                cli_json_string(j, why, strlen(why));
            }
        }
        json_builder_end_object(j);
        json_builder_set_member_name(j, "stages");
        json_builder_begin_object(j);
        for (tk_stage_kind s = 0; s < TK_STAGE_COUNT; s++) {
            if (!tk_kernel_stage_expected(k, s))
                continue;
            const tk_stage *st = tk_kernel_stage(k, s);
            json_builder_set_member_name(j, tk_stage_kind_name(s));
            if (!st) {
                json_builder_add_null_value(j);
                continue;
            }
            json_builder_begin_object(j);
            json_opt_string(j, "path", tk_stage_path(st));
            json_builder_set_member_name(j, "bytes");
            json_builder_add_int_value(j, (gint64)tk_stage_size(st));
            json_builder_set_member_name(j, "lines");
            json_builder_add_int_value(j, tk_stage_line_count(st));
            json_builder_set_member_name(j, "instructions");
            json_builder_add_int_value(j, tk_stage_instruction_count(st));
            json_builder_set_member_name(j, "bound_lines");
            json_builder_add_int_value(j, tk_bind_bound_line_count(ix, s));
            json_builder_set_member_name(j, "source_positions");
            json_builder_add_int_value(j, (gint64)source_positions(ix, s));
            json_builder_set_member_name(j, "inline_frames");
            json_builder_add_boolean_value(j, tk_stage_has_inline_frames(st));
            json_builder_end_object(j);
        }
        json_builder_end_object(j);
        cost_json(j, k, ix, tab, quiet, pf, i);
        kernel_passes_json(j, b, k);
        json_builder_end_object(j);
        tk_bind_free(ix);
        tk_config_free(apart[i]);
    }
    g_free(apart);
    json_builder_end_array(j);
    json_builder_set_member_name(j, "sources");
    json_builder_begin_array(j);
    for (tk_file_id f = 0; f < tk_loctab_file_count(tab); f++) {
        json_builder_begin_object(j);
        json_opt_string(j, "path", tk_loctab_file_path(tab, f));
        json_opt_string(j, "resolved", tk_bundle_resolve_source(b, f, NULL));
        json_builder_end_object(j);
    }
    json_builder_end_array(j);
    pass_files_json(j, b);
    cli_diag_failed_json(j, ds);
    json_builder_end_object(j);
    cli_json_print(j);
    g_object_unref(j);
}

int cmd_info(int argc, char **argv)
{
    cli_common common = {0};
    GOptionContext *ctx = g_option_context_new("PATH - list kernels, stages, metadata and binding counts");
    cli_add_common(ctx, &common);
    GError *err = NULL;
    int rc = CLI_EXIT_OK;
    if (!g_option_context_parse(ctx, &argc, &argv, &err) || argc != 2) {
        cli_error("%s", err ? err->message : "usage: tkview info PATH [--json]");
        g_clear_error(&err);
        rc = CLI_EXIT_USAGE;
        goto out;
    }
    /* The compiler's messages beside the capture: counts per kernel, and
     * compiles that failed before any IR (shown even when nothing loads).
     * Their streams (a raw folder's stderr may be hundreds of MB) are read
     * on a worker while the bundle loads and its passes are indexed. */
    cli_diag_reading *dr = cli_diag_start(argv[1]);
    tk_bundle *b = cli_load(argv[1], &common);
    if (!b) {
        tk_diag_set *ds = cli_diag_finish(dr, NULL);
        if (ds && !common.json)
            cli_diag_failed_text(ds);
        tk_diag_set_free(ds);
        rc = CLI_EXIT_INPUT;
        goto out;
    }
    /* The profiles are read on a worker meanwhile. */
    info_profiles pf = {0};
    profiles_start(&pf, b);
    /* Indexing the pass dumps reports what it found wrong in them. */
    tk_diags *pd = tk_diags_new();
    tk_bundle_pass_file_count(b, pd);
    profiles_join(&pf);
    tk_diag_set *ds = cli_diag_finish(dr, b);
    cli_print_diags(pd, common.quiet);
    tk_diags_free(pd);
    if (common.json)
        info_json(b, common.quiet, ds, &pf);
    else
        info_text(b, common.quiet, ds, &pf);
    tk_diag_set_free(ds);
    profiles_free(&pf);
    tk_bundle_free(b);
out:
    g_strfreev(common.source_dirs);
    g_option_context_free(ctx);
    return rc;
}
