/* tkv_pass_view_source.c - the binding in the diff: the library reads the
 * locations of both sides (tk_ir_diff_bind()).  A selected diff line shows
 * its source lines in the source pane below the sides (and its stacks in the
 * window's stack panel); a selected source line highlights the rows of both
 * sides whose stacks pass through it, and stays selected from pass to pass. */
#include "passes/tkv_pass_view_private.h"

#include "document/tkv_stack_lines.h"

static GtkSourceBuffer *source_buffer(TkvPassView *self, tk_file_id file)
{
    GtkSourceBuffer *b = g_hash_table_lookup(self->src_bufs, GUINT_TO_POINTER(file + 1));
    if (b)
        return b;
    size_t len;
    const char *text = tkv_document_get_source_text(self->doc, file, &len);
    const char *path = tkv_document_get_file_path(self->doc, file);
    b = tkv_code_view_new_buffer(text ? text : "", text ? (gssize)len : 0,
                                 g_str_has_suffix(path, ".py") ? "python3" : NULL);
    g_hash_table_insert(self->src_bufs, GUINT_TO_POINTER(file + 1), b);
    return b;
}

void tkv_pass_view_show_source_file(TkvPassView *self, tk_file_id file)
{
    if (file == self->src_file || file == TKV_NO_FILE)
        return;
    self->src_file = file;
    TkvCodeView *v = tkv_code_pane_get_view(self->source_pane);
    tkv_code_view_set_matches(v, NULL, 0, FALSE);
    tkv_code_view_set_selected(v, 0, FALSE, FALSE);
    tkv_code_view_set_buffer(v, GTK_TEXT_BUFFER(source_buffer(self, file)));
    const char *local = tkv_document_get_source_path(self->doc, file);
    const char *path = tkv_document_get_file_path(self->doc, file);
    char *t = local ? g_strdup(local) : g_strdup_printf("not at hand: %s", path);
    char *safe = g_utf8_make_valid(t, -1);
    tkv_code_pane_set_title(self->source_pane, safe, path);
    g_free(safe);
    g_free(t);
    const tk_file_id *files;
    size_t nf = tkv_document_get_files(self->doc, self->kernel, &files);
    for (size_t i = 0; i < nf; i++)
        if (files[i] == file) {
            self->updating = TRUE;
            gtk_drop_down_set_selected(tkv_code_pane_get_selector(self->source_pane), (guint)i);
            self->updating = FALSE;
        }
    tkv_find_bar_refresh(self->find);
}

gboolean tkv_pass_view_show_file(TkvPassView *self, tk_file_id file)
{
    if (!self->has_kernel)
        return FALSE;
    tkv_pass_view_show_source_file(self, file);
    return TRUE;
}

gboolean tkv_pass_view_select_diff_line(TkvPassView *self, int side, guint row)
{
    if (!self->diff || side < 0 || side > 1 || row < 1 || row > self->orig[side]->len)
        return FALSE;
    self->sel_side = side;
    self->sel_row = row;
    self->src_line = 0;
    TkvCodeView *v = tkv_pass_view_side_view(self, side), *o = tkv_pass_view_side_view(self, !side);
    tkv_code_view_set_matches(v, NULL, 0, FALSE);
    tkv_code_view_set_selected(v, row, TRUE, TRUE);
    tkv_code_view_set_selected(o, 0, FALSE, FALSE);
    tkv_code_view_set_matches(o, NULL, 0, FALSE);
    guint32 line = tkv_pass_view_orig_line(self, side, row);
    g_free(self->sel_heading);
    self->sel_heading = g_strdup_printf("%s the pass: line %u of %s", side ? "After" : "Before",
                                        line, tk_ir_diff_name(self->diff, side));
    /* The source lines of its frames in the file shown, or in the file of
     * its outermost frame that is at hand. */
    const tk_stack_id *ids;
    size_t n = tk_ir_diff_line_stacks(self->diff, side, line, &ids);
    tk_file_id file;
    GArray *lines = tkv_stack_lines_to_show(self->doc, ids, n, self->src_file, &file);
    tkv_pass_view_show_source_file(self, file);
    TkvCodeView *sv = tkv_code_pane_get_view(self->source_pane);
    tkv_code_view_set_selected(sv, 0, FALSE, FALSE);
    tkv_code_view_set_matches(sv, (const guint32 *)(void *)lines->data, lines->len, TRUE);
    tkv_code_pane_set_empty_text(self->source_pane, n ? "no line of this file" : "no location");
    g_array_unref(lines);
    tkv_pass_view_emit_anchor_changed(self);
    return TRUE;
}

gboolean tkv_pass_view_select_source(TkvPassView *self, tk_file_id file, guint line)
{
    return tkv_pass_view_select_source_line(self, file, line, TRUE);
}

gboolean tkv_pass_view_select_source_line(TkvPassView *self, tk_file_id file, guint line,
                                          gboolean scroll)
{
    if (!self->has_kernel || line == 0)
        return FALSE;
    tkv_pass_view_show_source_file(self, file);
    self->src_line = line;
    TkvCodeView *sv = tkv_code_pane_get_view(self->source_pane);
    tkv_code_view_set_matches(sv, NULL, 0, FALSE);
    tkv_code_view_set_selected(sv, line, TRUE, TRUE);
    tkv_code_pane_set_empty_text(self->source_pane, "");
    self->sel_side = -1;
    if (self->diff) {
        /* The rows of each side whose inline stacks pass through the line
         * ("this line and what it called"), from the stacks the library read. */
        for (int s = 0; s < 2; s++) {
            GArray *rows = g_array_new(FALSE, FALSE, sizeof(guint32));
            for (guint r = 1; r <= self->orig[s]->len; r++) {
                const tk_stack_id *ids;
                guint32 l = tkv_pass_view_orig_line(self, s, r);
                size_t n = tk_ir_diff_line_stacks(self->diff, s, l, &ids);
                if (n && tkv_stack_lines_name(self->doc, ids, n, file, line))
                    g_array_append_val(rows, r);
            }
            TkvCodeView *v = tkv_pass_view_side_view(self, s);
            tkv_code_view_set_selected(v, 0, FALSE, FALSE);
            tkv_code_view_set_matches(v, (const guint32 *)(void *)rows->data, rows->len,
                                      scroll && s == 0);
            tkv_code_pane_set_empty_text(tkv_pass_view_side_pane(self, s), "no line bound");
            g_array_unref(rows);
        }
        const guint32 *m;
        if (scroll && !tkv_code_view_get_matches(tkv_pass_view_side_view(self, 0), &m) &&
            tkv_code_view_get_matches(tkv_pass_view_side_view(self, 1), &m))
            tkv_linked_scroll_to_row(self->linked, 1, m[0]);
    }
    g_free(self->sel_heading);
    self->sel_heading = NULL;
    tkv_pass_view_emit_anchor_changed(self);
    return TRUE;
}

size_t tkv_pass_view_get_selected_stacks(TkvPassView *self, const tk_stack_id **ids,
                                         const char **heading)
{
    *heading = self->sel_heading;
    if (!self->diff || self->sel_side < 0) {
        *ids = NULL;
        return 0;
    }
    guint32 line = tkv_pass_view_orig_line(self, self->sel_side, self->sel_row);
    return tk_ir_diff_line_stacks(self->diff, self->sel_side, line, ids);
}

TkvCodePane *tkv_pass_view_get_focused_pane(TkvPassView *self)
{
    return self->focused ? self->focused : self->side_a;
}

gboolean tkv_pass_view_step_match(TkvPassView *self, int delta)
{
    TkvCodePane *order[4] = {tkv_pass_view_get_focused_pane(self), self->side_a, self->side_b,
                             self->source_pane};
    for (int i = 0; i < 4; i++)
        if (tkv_code_view_step_match(tkv_code_pane_get_view(order[i]), delta))
            return TRUE;
    return FALSE;
}
