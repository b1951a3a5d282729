/* tkv_compare_view_diff.c - compare mode's diff of one row: asked of the
 * document's worker, drawn as two sides grouped like every diff
 * (tk_diff_group), and read back for the tests.  Apart from the widget: it is
 * the one part that draws a diff, and it only reads the comparison. */
#include "compare/tkv_compare_view_private.h"

#include <string.h>

/* Rows of a side-by-side diff drawn at most: a pass that rewrote a whole
 * LLVM module on both sides differs everywhere. */
#define MAX_DIFF_ROWS 20000

/* ---- a row's diff ------------------------------------------------------------------ */

static void ensure_tags(GtkTextBuffer *b)
{
    GtkTextTagTable *t = gtk_text_buffer_get_tag_table(b);
    if (gtk_text_tag_table_lookup(t, "del"))
        return;
    gtk_text_buffer_create_tag(b, "del", "paragraph-background", "rgba(220,60,60,0.22)", NULL);
    gtk_text_buffer_create_tag(b, "add", "paragraph-background", "rgba(60,170,80,0.22)", NULL);
    gtk_text_buffer_create_tag(b, "filler", "paragraph-background", "rgba(128,128,128,0.12)",
                               NULL);
    gtk_text_buffer_create_tag(b, "group", "foreground", "gray", "scale", 0.85, NULL);
}

typedef struct {
    const tk_ir_diff *d;
    GtkTextBuffer *buf[2];
    guint rows;
} diff_fill;

static void side_line(diff_fill *f, int s, int64_t k, const char *tag)
{
    GtkTextBuffer *b = f->buf[s];
    GtkTextIter end;
    gtk_text_buffer_get_end_iter(b, &end);
    if (k < 0) {
        gtk_text_buffer_insert_with_tags_by_name(b, &end, "\n", 1, "filler", NULL);
        return;
    }
    size_t len;
    uint32_t line = 0;
    const char *t = tk_ir_diff_kept_line(f->d, s, (uint32_t)k, &len, &line);
    char *safe = tkv_compare_view_safe_text(t ? t : "", t ? len : 0);
    char *row = g_strdup_printf("%5u  %s\n", line, safe);
    if (tag)
        gtk_text_buffer_insert_with_tags_by_name(b, &end, row, -1, tag, NULL);
    else
        gtk_text_buffer_insert(b, &end, row, -1);
    g_free(safe);
    g_free(row);
}

static int fill_hunk(const tk_hunk *h, void *user)
{
    diff_fill *f = user;
    if (f->rows >= MAX_DIFF_ROWS)
        return 1;
    if (h->tag == TK_HUNK_GROUP) {
        for (int s = 0; s < 2; s++) {
            GtkTextIter end;
            gtk_text_buffer_get_end_iter(f->buf[s], &end);
            gtk_text_buffer_insert_with_tags_by_name(f->buf[s], &end, "\u2026\n", -1, "group",
                                                     NULL);
        }
        f->rows++;
        return 0;
    }
    uint32_t na = h->a1 - h->a0, nb = h->b1 - h->b0;
    for (uint32_t i = 0; i < MAX(na, nb); i++, f->rows++) {
        if (h->tag == TK_HUNK_EQUAL) {
            side_line(f, 0, h->a0 + i, NULL);
            side_line(f, 1, h->b0 + i, NULL);
            continue;
        }
        side_line(f, 0, i < na ? (int64_t)(h->a0 + i) : -1, "del");
        side_line(f, 1, i < nb ? (int64_t)(h->b0 + i) : -1, "add");
    }
    return 0;
}

static void set_title(TkvCompareView *self, const char *text)
{
    g_free(self->title_text);
    self->title_text = tkv_compare_view_safe_text(text, strlen(text));
    gtk_label_set_text(self->diff_title, self->title_text);
}

static void show_diff(TkvCompareView *self)
{
    GtkTextBuffer *ba = gtk_text_view_get_buffer(self->a_view);
    GtkTextBuffer *bb = gtk_text_view_get_buffer(self->b_view);
    gtk_text_buffer_set_text(ba, "", -1);
    gtk_text_buffer_set_text(bb, "", -1);
    if (!self->diff)
        return;
    ensure_tags(ba);
    ensure_tags(bb);
    diff_fill f = {self->diff, {ba, bb}, 0};
    size_t n;
    const tk_hunk *h = tk_ir_diff_aligned(self->diff, &n); /* replaced lines paired by likeness */
    tk_diff_group(h, n, TK_DIFF_CONTEXT, fill_hunk, &f);
    if (f.rows >= MAX_DIFF_ROWS)
        for (int s = 0; s < 2; s++) {
            GtkTextIter end;
            gtk_text_buffer_get_end_iter(f.buf[s], &end);
            gtk_text_buffer_insert_with_tags_by_name(
                f.buf[s], &end, "(cut: more rows than are drawn; tkview compare shows them)\n",
                -1, "group", NULL);
        }
    tk_diff_stats st = tk_ir_diff_stats(self->diff);
    const tk_compare_row *r = tk_compare_row_get(cmp_of(self), (size_t)self->row);
    /* the names say their side already ("A: mlir.txt.gz:6979") */
    char *t = g_strdup_printf("IR %s row %d, %s: +%u \u2212%u   %s   %s",
                              self->after ? "after" : "before", self->row, r->name, st.added,
                              st.removed, tk_ir_diff_name(self->diff, 0),
                              tk_ir_diff_name(self->diff, 1));
    set_title(self, t);
    g_free(t);
}

static void on_diff(GObject *source, GAsyncResult *res, gpointer data)
{
    TkvCompareView *self = data;
    char *why = NULL;
    tk_ir_diff *d = tkv_document_compare_diff_finish(TKV_DOCUMENT(source), res, &why);
    if (why && strcmp(why, "cancelled") == 0) {
        tk_ir_diff_free(d);
        g_free(why);
        g_object_unref(self);
        return;
    }
    self->diff_pending = FALSE;
    g_clear_object(&self->diff_cancel);
    g_clear_pointer(&self->diff, tk_ir_diff_free);
    self->diff = d;
    if (d) {
        show_diff(self);
    } else {
        char *t = g_strdup_printf("No IR to compare here: %s", why ? why : "unknown");
        set_title(self, t);
        g_free(t);
    }
    g_free(why);
    g_object_unref(self);
}

static void load_diff(TkvCompareView *self)
{
    if (self->diff_cancel) {
        g_cancellable_cancel(self->diff_cancel);
        g_clear_object(&self->diff_cancel);
    }
    g_clear_pointer(&self->diff, tk_ir_diff_free);
    gtk_text_buffer_set_text(gtk_text_view_get_buffer(self->a_view), "", -1);
    gtk_text_buffer_set_text(gtk_text_view_get_buffer(self->b_view), "", -1);
    gtk_toggle_button_set_active(self->after_button, self->after);
    gtk_toggle_button_set_active(self->before_button, !self->after);
    tk_compare *cmp = cmp_of(self);
    const tk_compare_row *r = tk_compare_row_get(cmp, (size_t)self->row);
    tk_compare_verdict v = self->after ? r->output : r->input;
    if (v == TK_COMPARE_SAME) {
        char *t = g_strdup_printf("IR %s row %d, %s: the same in both once normalized",
                                  self->after ? "after" : "before", self->row, r->name);
        set_title(self, t);
        g_free(t);
        self->diff_pending = FALSE;
        return;
    }
    set_title(self, "Comparing\u2026");
    self->diff_pending = TRUE;
    self->diff_cancel = g_cancellable_new();
    tkv_document_compare_diff_async(self->doc, self->hold, (size_t)self->row,
                                    self->after ? TK_TL_OUTPUT : TK_TL_INPUT,
                                    self->diff_cancel, on_diff, g_object_ref(self));
}

gboolean tkv_compare_view_select_row(TkvCompareView *self, guint row)
{
    tk_compare *cmp = cmp_of(self);
    if (!cmp || row >= tk_compare_row_count(cmp))
        return FALSE;
    self->row = (int)row;
    self->updating = TRUE;
    GtkListBoxRow *lr = gtk_list_box_get_row_at_index(self->rows_list, (int)row);
    gtk_list_box_select_row(self->rows_list, lr);
    if (lr)
        gtk_widget_grab_focus(GTK_WIDGET(lr));
    self->updating = FALSE;
    load_diff(self);
    return TRUE;
}

gboolean tkv_compare_view_set_which(TkvCompareView *self, const char *which)
{
    if (strcmp(which, "before") != 0 && strcmp(which, "after") != 0)
        return FALSE;
    self->after = strcmp(which, "after") == 0;
    if (cmp_of(self) && self->row >= 0)
        load_diff(self);
    else {
        gtk_toggle_button_set_active(self->after_button, self->after);
        gtk_toggle_button_set_active(self->before_button, !self->after);
    }
    return TRUE;
}

const char *tkv_compare_view_get_diff_title(TkvCompareView *self)
{
    return self->title_text ? self->title_text : "";
}
gboolean tkv_compare_view_get_diff_pending(TkvCompareView *self) { return self->diff_pending; }
const tk_ir_diff *tkv_compare_view_get_diff(TkvCompareView *self) { return self->diff; }

char **tkv_compare_view_get_marked(TkvCompareView *self, int side, const char *kind)
{
    GtkTextBuffer *b = gtk_text_view_get_buffer(side ? self->b_view : self->a_view);
    GtkTextTag *tag = gtk_text_tag_table_lookup(gtk_text_buffer_get_tag_table(b), kind);
    GPtrArray *out = g_ptr_array_new();
    for (int l = 0; tag && l < gtk_text_buffer_get_line_count(b); l++) {
        GtkTextIter s, e;
        gtk_text_buffer_get_iter_at_line(b, &s, l);
        if (!gtk_text_iter_has_tag(&s, tag))
            continue;
        e = s;
        if (!gtk_text_iter_ends_line(&e))
            gtk_text_iter_forward_to_line_end(&e);
        g_ptr_array_add(out, gtk_text_buffer_get_text(b, &s, &e, TRUE));
    }
    g_ptr_array_add(out, NULL);
    return (char **)g_ptr_array_free(out, FALSE);
}
