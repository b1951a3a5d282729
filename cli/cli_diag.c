/* cli_diag.c - compiler messages (tk_diag.h) as the commands show them:
 * `diagnostics` lists them, `info` counts them per kernel and shows failed
 * compiles, `bind --source` shows those on the line asked about. */
#include "cli.h"

#include <string.h>

#include "tkdump/tk_diag.h"
#include "tkdump/tk_diag_pass.h"

static void json_uint_or_null(JsonBuilder *j, const char *name, uint64_t v)
{
    json_builder_set_member_name(j, name);
    if (v)
        json_builder_add_int_value(j, (gint64)v);
    else
        json_builder_add_null_value(j);
}

void cli_diag_entry_json(JsonBuilder *j, const tk_diag_entry *e,
                         const tk_timeline *tl)
{
    const tk_diag_frame *f = e->n_stack ? &e->stack[0] : NULL;
    json_builder_begin_object(j);
    cli_json_str_or_null(j, "origin", tk_diag_origin_name(e->origin));
    cli_json_str_or_null(j, "severity", tk_diag_level_name(e->level));
    cli_json_str_or_null(j, "code", e->code);
    cli_json_str_or_null(j, "message", e->message);
    json_builder_set_member_name(j, "notes");
    json_builder_begin_array(j);
    for (size_t i = 0; i < e->n_notes; i++)
        cli_json_string(j, e->notes[i], strlen(e->notes[i]));
    json_builder_end_array(j);
    cli_json_str_or_null(j, "file", f ? f->file : NULL);
    json_uint_or_null(j, "line", f ? f->line : 0);
    json_uint_or_null(j, "column", f ? f->column : 0);
    json_builder_set_member_name(j, "stack");
    json_builder_begin_array(j);
    for (size_t i = 0; i < e->n_stack; i++) {
        json_builder_begin_object(j);
        cli_json_str_or_null(j, "file", e->stack[i].file);
        json_uint_or_null(j, "line", e->stack[i].line);
        json_uint_or_null(j, "column", e->stack[i].column);
        json_builder_end_object(j);
    }
    json_builder_end_array(j);
    cli_json_str_or_null(j, "stage", e->has_stage ? tk_stage_kind_name(e->stage) : NULL);
    json_uint_or_null(j, "ir_line", e->ir_line);
    cli_json_str_or_null(j, "pass", e->pass);
    /* Where that pass is in `tkview passes` (tk_diag_pass.h's rule); null
     * when no timeline was looked at (bind) or the rule cannot say. */
    tk_diag_step st = tk_diag_entry_step(e, tl);
    json_builder_set_member_name(j, "pass_step");
    if (st.step != TK_TL_NONE)
        json_builder_add_int_value(j, (gint64)st.step);
    else
        json_builder_add_null_value(j);
    cli_json_str_or_null(j, "pass_step_how",
                         tl || !e->pass ? tk_diag_step_how_name(st.how) : NULL);
    json_builder_end_object(j);
}

/* "base.py:28:27" of a frame (path cut to its base name). */
static void put_frame(const tk_diag_frame *f)
{
    char *base = g_path_get_basename(f->file);
    if (f->column)
        cli_printf("%s:%u:%u", base, f->line, f->column);
    else
        cli_printf("%s:%u", base, f->line);
    g_free(base);
}

/* ", step 12 of `tkview passes` (its only run)" and the like, after
 * "pass: NAME": the library's sentence (tk_diag_step_sentence()). */
static void put_step(const tk_diag_entry *e, const tk_timeline *tl)
{
    if (!tl)
        return;
    tk_diag_step st = tk_diag_entry_step(e, tl);
    char *say = tk_diag_step_sentence(&st);
    if (say)
        cli_printf(st.step != TK_TL_NONE ? ", %s" : " (%s)", say);
    g_free(say);
}

void cli_diag_entry_text(const tk_diag_entry *e, const tk_timeline *tl)
{
    cli_printf("  %s %s%s%s ", tk_diag_level_name(e->level),
                  tk_diag_origin_name(e->origin), e->code ? " " : "",
                  e->code ? e->code : "");
    if (e->n_stack)
        put_frame(&e->stack[0]);
    else
        cli_printf("(no source line)");
    if (e->has_stage && e->ir_line)
        cli_printf(" [%s:%u]", tk_stage_kind_name(e->stage), e->ir_line);
    if (e->count > 1)
        cli_printf(" (printed %u times)", e->count);
    cli_printf("\n    %s\n", e->message);
    for (size_t i = 1; i < e->n_stack; i++) {
        cli_printf("    called from ");
        put_frame(&e->stack[i]);
        cli_printf("\n");
    }
    for (size_t i = 0; i < e->n_notes; i++)
        cli_printf("    note: %s\n", e->notes[i]);
    if (e->pass) {
        cli_printf("    pass: %s%s", e->pass,
                      e->pass_from && !strcmp(e->pass_from, "table")
                          ? " (the pass that emits this message)" : "");
        put_step(e, tl);
        cli_printf("\n");
    }
    const tk_diag_known *k = tk_diag_entry_explain(e);
    if (k)
        cli_printf("    what it means: %s\n    what to try: %s\n", k->meaning,
                      k->try_this);
}

void cli_diag_summary_text(const tk_diag_ptxas_summary *s)
{
    if (!s->present)
        return;
    cli_printf("  ptxas: %" G_GINT64_FORMAT " registers, %" G_GINT64_FORMAT
                  " barriers, %" G_GINT64_FORMAT " bytes stack frame, %"
                  G_GINT64_FORMAT " bytes spill stores, %" G_GINT64_FORMAT
                  " bytes spill loads",
                  s->registers, s->barriers, s->stack_frame, s->spill_stores,
                  s->spill_loads);
    for (int i = 0; i < 4; i++)
        if (s->cmem[i] >= 0)
            cli_printf(", %" G_GINT64_FORMAT " bytes cmem[%d]", s->cmem[i], i);
    cli_printf("\n");
}

tk_diag_set *cli_diag_load(const char *path, tk_bundle *b)
{
    if (!g_file_test(path, G_FILE_TEST_IS_DIR))
        return NULL;
    /* Problems reading the streams are the `diagnostics` command's to
     * report; here they only mean fewer messages. */
    tk_diags *d = tk_diags_new();
    tk_diag_set *set = tk_diag_set_load(path, b, d);
    tk_diags_free(d);
    if (!tk_diag_set_stream_count(set)) {
        tk_diag_set_free(set);
        return NULL;
    }
    return set;
}

struct cli_diag_reading {
    GThread *thread;  /* NULL: PATH is no folder, nothing to read */
    tk_diag_set *set;
    char *path;
};

static gpointer read_streams(gpointer data)
{
    cli_diag_reading *r = data;
    /* Problems reading are the `diagnostics` command's to report. */
    tk_diags *d = tk_diags_new();
    tk_diag_set_read_folder(r->set, r->path, d);
    tk_diags_free(d);
    return NULL;
}

cli_diag_reading *cli_diag_start(const char *path)
{
    cli_diag_reading *r = g_new0(cli_diag_reading, 1);
    if (!g_file_test(path, G_FILE_TEST_IS_DIR))
        return r;
    r->set = tk_diag_set_new();
    r->path = g_strdup(path);
    r->thread = g_thread_try_new("tkview-diag", read_streams, r, NULL);
    if (!r->thread)
        read_streams(r);
    return r;
}

tk_diag_set *cli_diag_finish(cli_diag_reading *r, tk_bundle *b)
{
    if (r->thread)
        g_thread_join(r->thread);
    tk_diag_set *set = r->set;
    g_free(r->path);
    g_free(r);
    if (!set || !tk_diag_set_stream_count(set)) {
        tk_diag_set_free(set);
        return NULL;
    }
    tk_diags *d = tk_diags_new();
    tk_diag_set_attach(set, b, NULL, d);
    tk_diags_free(d);
    return set;
}

/* Counts of K's messages by level. */
static void count_levels(const tk_diag_set *set, size_t ki, size_t n[3])
{
    n[0] = n[1] = n[2] = 0;
    for (size_t i = 0; i < tk_diag_set_count(set); i++) {
        const tk_diag_entry *e = tk_diag_set_entry(set, i);
        if (e->kernel == ki)
            n[e->level]++;
    }
}

void cli_diag_kernel_text(const tk_diag_set *set, const tk_kernel *k)
{
    size_t ki = tk_diag_set_find_kernel(set, k);
    if (ki == SIZE_MAX)
        return;
    const tk_diag_kernel *dk = tk_diag_set_kernel(set, ki);
    size_t n[3];
    count_levels(set, ki, n);
    cli_printf("  compiler: %s%zu error%s, %zu warning%s, %zu remark%s "
                  "(tkview diagnostics)\n",
                  dk->failed ? "FAILED to compile; " : "", n[TK_DIAG_LEVEL_ERROR],
                  n[TK_DIAG_LEVEL_ERROR] == 1 ? "" : "s", n[TK_DIAG_LEVEL_WARNING],
                  n[TK_DIAG_LEVEL_WARNING] == 1 ? "" : "s", n[TK_DIAG_LEVEL_REMARK],
                  n[TK_DIAG_LEVEL_REMARK] == 1 ? "" : "s");
    cli_diag_summary_text(&dk->ptxas);
}

static void summary_json(JsonBuilder *j, const tk_diag_ptxas_summary *s)
{
    json_builder_set_member_name(j, "ptxas");
    if (!s->present) {
        json_builder_add_null_value(j);
        return;
    }
    json_builder_begin_object(j);
    cli_json_int_or_null(j, "registers", s->registers);
    cli_json_int_or_null(j, "barriers", s->barriers);
    cli_json_int_or_null(j, "stack_frame", s->stack_frame);
    cli_json_int_or_null(j, "spill_stores", s->spill_stores);
    cli_json_int_or_null(j, "spill_loads", s->spill_loads);
    cli_json_int_or_null(j, "cumulative_stack", s->cumulative_stack);
    cli_json_int_or_null(j, "gmem", s->gmem);
    cli_json_int_or_null(j, "cmem0", s->cmem[0]);
    json_builder_end_object(j);
}

void cli_diag_kernel_json(JsonBuilder *j, const tk_diag_set *set,
                             const tk_kernel *k)
{
    json_builder_set_member_name(j, "diagnostics");
    size_t ki = tk_diag_set_find_kernel(set, k);
    if (ki == SIZE_MAX) {
        json_builder_add_null_value(j);
        return;
    }
    const tk_diag_kernel *dk = tk_diag_set_kernel(set, ki);
    size_t n[3];
    count_levels(set, ki, n);
    json_builder_begin_object(j);
    json_builder_set_member_name(j, "failed");
    json_builder_add_boolean_value(j, dk->failed);
    json_builder_set_member_name(j, "errors");
    json_builder_add_int_value(j, (gint64)n[TK_DIAG_LEVEL_ERROR]);
    json_builder_set_member_name(j, "warnings");
    json_builder_add_int_value(j, (gint64)n[TK_DIAG_LEVEL_WARNING]);
    json_builder_set_member_name(j, "remarks");
    json_builder_add_int_value(j, (gint64)n[TK_DIAG_LEVEL_REMARK]);
    summary_json(j, &dk->ptxas);
    json_builder_end_object(j);
}

/* The failed compiles the bundle has no kernel for (a front-end error:
 * no IR; a ptxas message whose kernel is unknown among several). */
static size_t failed_elsewhere(const tk_diag_set *set, size_t **out)
{
    GArray *a = g_array_new(FALSE, FALSE, sizeof(size_t));
    for (size_t i = 0; i < tk_diag_set_kernel_count(set); i++) {
        const tk_diag_kernel *k = tk_diag_set_kernel(set, i);
        if (!k->kernel && k->failed)
            g_array_append_val(a, i);
    }
    size_t n = a->len;
    *out = (size_t *)(void *)g_array_free(a, FALSE);
    return n;
}

void cli_diag_failed_text(const tk_diag_set *set)
{
    size_t *idx;
    size_t n = failed_elsewhere(set, &idx);
    if (n)
        cli_printf("\nfailed compiles with no kernel folder (tkview diagnostics):\n");
    for (size_t i = 0; i < n; i++) {
        const tk_diag_kernel *k = tk_diag_set_kernel(set, idx[i]);
        cli_printf("  %s  FAILED to compile", k->name ? k->name : "(unknown kernel)");
        for (size_t e = 0; e < tk_diag_set_count(set); e++) {
            const tk_diag_entry *d = tk_diag_set_entry(set, e);
            if (d->kernel != idx[i] || d->level != TK_DIAG_LEVEL_ERROR)
                continue;
            char *base = d->n_stack ? g_path_get_basename(d->stack[0].file) : NULL;
            if (base)
                cli_printf(": %s:%u: %s", base, d->stack[0].line, d->message);
            else
                cli_printf(": %s", d->message);
            g_free(base);
            break;
        }
        cli_printf("\n");
    }
    g_free(idx);
}

void cli_diag_failed_json(JsonBuilder *j, const tk_diag_set *set)
{
    size_t *idx;
    size_t n = failed_elsewhere(set, &idx);
    json_builder_set_member_name(j, "failed_compiles");
    json_builder_begin_array(j);
    for (size_t i = 0; i < n; i++) {
        const tk_diag_kernel *k = tk_diag_set_kernel(set, idx[i]);
        json_builder_begin_object(j);
        cli_json_str_or_null(j, "name", k->name);
        cli_json_str_or_null(j, "hash", k->hash);
        json_builder_end_object(j);
    }
    json_builder_end_array(j);
    g_free(idx);
}

/* Whether E is on FILE lines [FIRST, LAST]: its innermost frame, or with
 * CALLED any frame of its stack. */
static gboolean on_lines(const tk_diag_entry *e, const char *file,
                         uint32_t first, uint32_t last, gboolean called)
{
    for (size_t f = 0; f < e->n_stack && (called || f == 0); f++)
        if (e->stack[f].line >= first && e->stack[f].line <= last &&
            !strcmp(e->stack[f].file, file))
            return TRUE;
    return FALSE;
}

size_t cli_diag_on_lines(const tk_diag_set *set, const tk_kernel *k,
                            const char *file, uint32_t first, uint32_t last,
                            gboolean called, JsonBuilder *j)
{
    size_t ki = tk_diag_set_find_kernel(set, k), n = 0;
    if (j) {
        json_builder_set_member_name(j, "diagnostics");
        json_builder_begin_array(j);
    }
    for (size_t i = 0; ki != SIZE_MAX && i < tk_diag_set_count(set); i++) {
        const tk_diag_entry *e = tk_diag_set_entry(set, i);
        if (e->kernel != ki || !on_lines(e, file, first, last, called))
            continue;
        if (!n++ && !j)
            cli_printf("  compiler messages on this line:\n");
        if (j)
            cli_diag_entry_json(j, e, NULL);
        else
            cli_diag_entry_text(e, NULL);
    }
    if (j)
        json_builder_end_array(j);
    return n;
}
