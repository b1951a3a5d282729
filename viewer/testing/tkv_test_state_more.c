/* tkv_test_state_more.c - the register strip, configs mode and the compare
 * view as JSON (tkv_test_state_more.h). */
#include "testing/tkv_test_state_more.h"

#include "bind/tkv_bind_view.h"
#include "compare/tkv_compare_view.h"
#include "configs/tkv_configs_view.h"
#include "widgets/tkv_regs_strip.h"

static void member_int(JsonBuilder *b, const char *name, gint64 v)
{
    json_builder_set_member_name(b, name);
    json_builder_add_int_value(b, v);
}

static void member_str(JsonBuilder *b, const char *name, const char *v)
{
    json_builder_set_member_name(b, name);
    if (!v) {
        json_builder_add_null_value(b);
        return;
    }
    char *s = g_utf8_make_valid(v, -1);
    json_builder_add_string_value(b, s);
    g_free(s);
}

static void member_bool(JsonBuilder *b, const char *name, gboolean v)
{
    json_builder_set_member_name(b, name);
    json_builder_add_boolean_value(b, v);
}

void tkv_test_state_write_regs(TkvWindow *win, JsonBuilder *b)
{
    TkvBindView *bv = tkv_window_get_bind_view(win);
    TkvDocument *doc = tkv_window_get_document(win);
    TkvRegsStrip *strip;
    tk_file_id file;
    guint line;
    gboolean shown = tkv_bind_view_get_regs(bv, &strip, &file, &line);
    json_builder_set_member_name(b, "regs");
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "shown");
    json_builder_add_boolean_value(b, shown);
    if (strip) {
        member_str(b, "caption", tkv_regs_strip_get_caption(strip));
        member_int(b, "peak", tkv_regs_strip_get_peak(strip));
        member_int(b, "peak_line", tkv_regs_strip_get_peak_line(strip));
        member_int(b, "cursor", tkv_regs_strip_get_cursor(strip));
        member_int(b, "columns", tkv_regs_strip_get_columns(strip));
        json_builder_set_member_name(b, "counts");
        json_builder_begin_array(b);
        int k = tkv_window_get_kernel(win);
        const tk_kernel *kk = doc && k >= 0 ? tkv_document_get_kernel(doc, (guint)k) : NULL;
        const tk_stage *sass = kk ? tk_kernel_stage(kk, TK_STAGE_SASS) : NULL;
        for (guint l = 1; sass && l <= tk_stage_line_count(sass); l++)
            json_builder_add_int_value(b, tkv_regs_strip_get_count(strip, l));
        json_builder_end_array(b);
    }
    json_builder_set_member_name(b, "source_peak");
    if (file != TKV_NO_FILE && doc) {
        json_builder_begin_object(b);
        member_str(b, "file", tkv_document_get_file_path(doc, file));
        member_int(b, "line", line);
        json_builder_end_object(b);
    } else {
        json_builder_add_null_value(b);
    }
    /* the marks the shown source buffer carries */
    GtkTextView *tv = GTK_TEXT_VIEW(tkv_code_pane_get_view(tkv_bind_view_get_pane(bv, TKV_PANE_SOURCE)));
    GtkSourceBuffer *sb = GTK_SOURCE_BUFFER(gtk_text_view_get_buffer(tv));
    json_builder_set_member_name(b, "source_marks");
    json_builder_begin_array(b);
    GtkTextIter it;
    gtk_text_buffer_get_start_iter(GTK_TEXT_BUFFER(sb), &it);
    for (int l = 0; l < gtk_text_buffer_get_line_count(GTK_TEXT_BUFFER(sb)); l++) {
        GSList *m = gtk_source_buffer_get_source_marks_at_line(sb, l, "tkv-reg-peak");
        if (m)
            json_builder_add_int_value(b, l + 1);
        g_slist_free(m);
    }
    json_builder_end_array(b);
    json_builder_end_object(b);
}

static void write_group(TkvConfigsView *cv, guint gi, const tk_configs_group *g, JsonBuilder *b)
{
    json_builder_begin_object(b);
    member_str(b, "kernel", g->name);
    member_int(b, "winner", g->winner);
    json_builder_set_member_name(b, "rows");
    json_builder_begin_array(b);
    for (size_t r = 0; r < g->n_rows; r++) {
        const tk_configs_row *x = &g->rows[r];
        json_builder_begin_object(b);
        member_str(b, "hash", tk_kernel_hash(x->kernel));
        member_str(b, "apart", x->apart);
        json_builder_set_member_name(b, "ms");
        if (x->has_ms)
            json_builder_add_double_value(b, x->ms);
        else
            json_builder_add_null_value(b);
        json_builder_set_member_name(b, "winner");
        json_builder_add_boolean_value(b, x->winner);
        member_str(b, "diverge", x->diverge);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_set_member_name(b, "lines");
    json_builder_begin_array(b);
    for (size_t i = 0; i < g->n_lines; i++) {
        json_builder_begin_object(b);
        member_str(b, "file", g->lines[i].path);
        member_int(b, "line", g->lines[i].line);
        json_builder_set_member_name(b, "cells");
        json_builder_begin_array(b);
        GArray *marks = g_array_new(FALSE, FALSE, sizeof(gboolean));
        for (size_t c = 0; c < g->n_rows; c++) {
            gboolean marked = FALSE;
            const char *t = tkv_configs_view_get_cell(cv, gi, (guint)i, (guint)c, &marked);
            json_builder_add_string_value(b, t ? t : "");
            g_array_append_val(marks, marked);
        }
        json_builder_end_array(b);
        json_builder_set_member_name(b, "marked");
        json_builder_begin_array(b);
        for (guint c = 0; c < marks->len; c++)
            json_builder_add_boolean_value(b, g_array_index(marks, gboolean, c));
        json_builder_end_array(b);
        g_array_unref(marks);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_end_object(b);
}

void tkv_test_state_write_configs(TkvWindow *win, JsonBuilder *b)
{
    TkvConfigsView *cv = tkv_window_get_configs_view(win);
    const tk_configs *cf = cv ? tkv_configs_view_get_configs(cv) : NULL;
    json_builder_set_member_name(b, "configs");
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "built");
    json_builder_add_boolean_value(b, cf != NULL || (cv && tkv_configs_view_get_message(cv)));
    if (cv) {
        member_str(b, "message", tkv_configs_view_get_message(cv));
        json_builder_set_member_name(b, "comparing");
        json_builder_add_boolean_value(b, tkv_configs_view_is_comparing(cv));
        json_builder_set_member_name(b, "groups");
        json_builder_begin_array(b);
        for (size_t i = 0; i < tk_configs_group_count(cf); i++)
            write_group(cv, (guint)i, tk_configs_group_get(cf, i), b);
        json_builder_end_array(b);
    }
    json_builder_end_object(b);
}

static void add_strv(JsonBuilder *b, const char *name, char **v)
{
    json_builder_set_member_name(b, name);
    json_builder_begin_array(b);
    for (char **p = v; p && *p; p++)
        json_builder_add_string_value(b, *p);
    json_builder_end_array(b);
    g_strfreev(v);
}

void tkv_test_state_write_compare(TkvCompareView *cv, JsonBuilder *b)
{
    member_str(b, "state", tkv_compare_view_get_load_state(cv));
    member_str(b, "message", tkv_compare_view_get_message(cv));
    member_int(b, "other", tkv_compare_view_get_other(cv));
    tk_compare *cmp = tkv_compare_view_get_compare(cv);
    if (!cmp)
        return;
    member_int(b, "rows", (gint64)tk_compare_row_count(cmp));
    size_t first = tk_compare_first_divergence(cmp, NULL);
    member_int(b, "first", first == TK_COMPARE_NONE ? -1 : (gint64)first);
    member_str(b, "first_text", tkv_compare_view_get_first_text(cv));
    member_int(b, "row", tkv_compare_view_get_row(cv));
    member_str(b, "which", tkv_compare_view_get_which(cv));
    member_bool(b, "diff_pending", tkv_compare_view_get_diff_pending(cv));
    member_str(b, "title", tkv_compare_view_get_diff_title(cv));
    member_bool(b, "has_diff", tkv_compare_view_get_diff(cv) != NULL);
    add_strv(b, "a_del", tkv_compare_view_get_marked(cv, 0, "del"));
    add_strv(b, "b_add", tkv_compare_view_get_marked(cv, 1, "add"));
    char *facts = tkv_compare_view_get_facts_text(cv);
    member_str(b, "facts", facts);
    g_free(facts);
}

void tkv_test_state_write_dump_lines(TkvPassView *pv, JsonBuilder *b, int side, GArray *rows)
{
    json_builder_set_member_name(b, "dump_line");
    json_builder_begin_object(b);
    for (guint i = 0; i < rows->len && i < 4000; i++) {
        guint32 r = g_array_index(rows, guint32, i);
        char key[16];
        g_snprintf(key, sizeof key, "%u", r);
        json_builder_set_member_name(b, key);
        json_builder_add_int_value(b, tkv_pass_view_get_dump_line(pv, side, r));
    }
    json_builder_end_object(b);
}
