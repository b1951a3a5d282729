/* cmd_info_json.c - `tkview info --json` (docs/cli-json.md): the same
 * facts as cmd_info_text.c, as one JSON object. */
#include "cmd_info.h"

#include <string.h>

#include "tkdump/tk_bundle_passes.h"
#include "tkdump/tk_config.h"

static const char *const input_kind_ids[] = {
    [TK_INPUT_BUNDLE] = "bundle",
    [TK_INPUT_CAPTURE] = "capture",
    [TK_INPUT_KERNEL_DIRS] = "kernel-dirs",
    [TK_INPUT_KERNEL_DIR] = "kernel-dir",
    [TK_INPUT_FILES] = "files",
};

static void cost_json(JsonBuilder *j, const tk_kernel *k, const tk_bind *ix,
                      const tk_loctab *tab, gboolean quiet,
                      const cmd_info_profiles *pf, size_t ki)
{
    json_builder_set_member_name(j, "cost");
    if (!tk_kernel_stage(k, TK_STAGE_SASS)) {
        json_builder_add_null_value(j);
        return;
    }
    const tk_profile *p = pf->profile[ki];
    tk_cost *c = cmd_info_cost(pf, ki, k, ix, tab, quiet);
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

static void json_meta(JsonBuilder *j, const tk_kernel_meta *m)
{
    json_builder_begin_object(j);
    cli_json_int_or_null(j, "num_warps", m->num_warps);
    cli_json_int_or_null(j, "num_ctas", m->num_ctas);
    cli_json_int_or_null(j, "num_stages", m->num_stages);
    cli_json_int_or_null(j, "shared_bytes", m->shared_bytes);
    cli_json_int_or_null(j, "registers", m->registers);
    cli_json_int_or_null(j, "spill_bytes", m->spill_bytes);
    cli_json_int_or_null(j, "warp_size", m->warp_size);
    cli_json_int_or_null(j, "waves_per_eu", m->waves_per_eu);
    cli_json_int_or_null(j, "sgprs", m->sgprs);
    cli_json_int_or_null(j, "agprs", m->agprs);
    cli_json_int_or_null(j, "vgpr_spills", m->vgpr_spills);
    cli_json_int_or_null(j, "sgpr_spills", m->sgpr_spills);
    cli_json_int_or_null(j, "lds_static_bytes", m->lds_static_bytes);
    cli_json_int_or_null(j, "occupancy", m->occupancy);
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
        cli_json_str_or_null(j, "path", tk_passes_path(p));
        cli_json_str_or_null(j, "kind", cmd_info_pass_file_kind(p));
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
        cli_json_str_or_null(j, "path", tk_passes_path(p));
        cli_json_str_or_null(j, "kind", cmd_info_pass_file_kind(p));
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

void cmd_info_json(tk_bundle *b, gboolean quiet, const tk_diag_set *ds,
                   const cmd_info_profiles *pf)
{
    tk_loctab *tab = tk_bundle_loctab(b);
    JsonBuilder *j = json_builder_new();
    json_builder_begin_object(j);
    cli_json_str_or_null(j, "path", tk_bundle_path(b));
    cli_json_str_or_null(j, "input", input_kind_ids[tk_bundle_input_kind(b)]);
    cli_json_str_or_null(j, "compiler", tk_bundle_compiler(b));
    cli_json_str_or_null(j, "tool_version", tk_bundle_tool_version(b));
    cli_json_str_or_null(j, "command", tk_bundle_command(b));
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
        tk_bind *ix = cmd_info_bind(pf, i, k, tab);
        json_builder_begin_object(j);
        json_builder_set_member_name(j, "index");
        json_builder_add_int_value(j, (gint64)i);
        cli_json_str_or_null(j, "name", tk_kernel_name(k));
        cli_json_str_or_null(j, "hash", tk_kernel_hash(k));
        cli_json_str_or_null(j, "origin", tk_kernel_origin(k));
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
            cli_json_str_or_null(j, "path", tk_stage_path(st));
            json_builder_set_member_name(j, "bytes");
            json_builder_add_int_value(j, (gint64)tk_stage_size(st));
            json_builder_set_member_name(j, "lines");
            json_builder_add_int_value(j, tk_stage_line_count(st));
            json_builder_set_member_name(j, "instructions");
            json_builder_add_int_value(j, tk_stage_instruction_count(st));
            json_builder_set_member_name(j, "bound_lines");
            json_builder_add_int_value(j, tk_bind_bound_line_count(ix, s));
            json_builder_set_member_name(j, "source_positions");
            json_builder_add_int_value(j, (gint64)cmd_info_source_positions(ix, s));
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
        cli_json_str_or_null(j, "path", tk_loctab_file_path(tab, f));
        cli_json_str_or_null(j, "resolved", tk_bundle_resolve_source(b, f, NULL));
        json_builder_end_object(j);
    }
    json_builder_end_array(j);
    pass_files_json(j, b);
    cli_diag_failed_json(j, ds);
    json_builder_end_object(j);
    cli_json_print(j);
    g_object_unref(j);
}
