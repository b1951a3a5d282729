/* tkv_pass_view_select.c - what the diff is of: pass I's effect ("I", or
 * the pass's name), sub-step J of pass I ("I.J") or the IR before pass I
 * against the IR after pass K ("I-K"): the library's grammar
 * (tk_passref.h), the one `tkview diff --pass` and the report's #pass=
 * take.  The diff is made on a worker thread; the diff shown stays
 * until the new one is there, and a selection made meanwhile wins. */
#include "passes/tkv_pass_view_private.h"

#include <stdlib.h>

#include "tkdump/tk_passref.h"

static char *entry_title(const tk_timeline *tl, size_t pass, size_t sub)
{
    const tk_timeline_entry *e = sub == TK_TL_NONE ? tk_timeline_get(tl, pass)
                                                   : tk_timeline_substep(tl, pass, sub);
    return g_strdup(e ? e->pass : "?");
}

gboolean tkv_pass_view_parse_spec(const tk_timeline *tl, const char *spec, size_t *a,
                                  size_t *sub, size_t *b)
{
    tk_passref ref;
    if (!tl || tk_passref_parse(tl, spec, &ref) != TK_PASSREF_OK)
        return FALSE;
    *a = ref.from;
    *sub = ref.sub;
    *b = ref.to;
    return TRUE;
}

typedef struct {
    TkvPassView *view;
    guint generation;
    size_t a, sub, b;
} DiffRequest;

static char *selection_title(TkvPassView *self, size_t a, size_t sub, size_t b)
{
    char *na = entry_title(self->tl, a, sub), *nb = entry_title(self->tl, b, TK_TL_NONE);
    char *title = sub != TK_TL_NONE ? g_strdup_printf("Pass %zu.%zu: %s", a, sub, na)
                  : a == b          ? g_strdup_printf("Pass %zu: %s", a, na)
                                    : g_strdup_printf("Passes %zu to %zu: %s … %s", a, b, na, nb);
    g_free(na);
    g_free(nb);
    return title;
}

static void on_diff(GObject *source, GAsyncResult *res, gpointer data)
{
    DiffRequest *r = data;
    TkvPassView *self = r->view;
    char *why = NULL;
    TkvPassRows *rows = NULL;
    tk_ir_diff *d = tkv_document_diff_finish(TKV_DOCUMENT(source), res, (gpointer *)&rows, &why);
    if (r->generation != self->generation || TKV_DOCUMENT(source) != self->doc) {
        /* A later selection, or another kernel: this diff is not wanted. */
        tk_ir_diff_free(d);
    } else {
        self->diff_pending = FALSE;
        char *title = selection_title(self, r->a, r->sub, r->b);
        const tk_timeline_entry *one = r->a != r->b ? NULL
                                       : r->sub == TK_TL_NONE
                                           ? tk_timeline_get(self->tl, r->a)
                                           : tk_timeline_substep(self->tl, r->a, r->sub);
        if (d && one && tk_timeline_entry_note(one)) {
            /* How the library compared it, in its words (the CLI's and the
             * report's too). */
            char *t = g_strdup_printf("%s: %s", title, tk_timeline_entry_note(one));
            g_free(title);
            title = t;
        }
        gboolean after_only = d && one && one->effect == TK_EFFECT_UNKNOWN;
        if (after_only) {
            /* Nothing comparable before it: the IR after it, alone, with
             * the library's sentence (the report's and `tkview diff`'s). */
            char *t = g_strdup_printf("%s: %s", title, tk_unknown_why_sentence(one->why));
            g_free(title);
            title = t;
        }
        gtk_widget_set_visible(GTK_WIDGET(tkv_pass_view_side_pane(self, 0)), !after_only);
        if (d) {
            tkv_pass_view_show_diff(self, d, rows, title);
            rows = NULL; /* the view's now */
            if (after_only)
                tkv_pass_view_show_after_only(self);
            /* A source line stays selected from pass to pass: its lines in
             * the new diff are highlighted. */
            if (self->src_line && self->src_file != TKV_NO_FILE)
                tkv_pass_view_select_source_line(self, self->src_file, self->src_line, FALSE);
        } else {
            tkv_pass_view_clear_diff(self);
            const tk_timeline_entry *e = tk_timeline_get(self->tl, r->a);
            GString *text = g_string_new(title);
            if (r->a == r->b && r->sub == TK_TL_NONE && e->effect == TK_EFFECT_UNKNOWN)
                /* the library's sentence, as the report and `tkview diff` say it */
                g_string_append_printf(text, ": %s", tk_unknown_why_sentence(e->why));
            else
                g_string_append_printf(text, ": %s", why ? why : "no diff");
            char *safe = g_utf8_make_valid(text->str, -1);
            gtk_label_set_text(self->diff_title, safe);
            g_free(safe);
            g_string_free(text, TRUE);
        }
        g_free(title);
        tkv_pass_view_emit_anchor_changed(self);
    }
    tkv_pass_rows_free(rows);
    g_free(why);
    g_object_unref(self);
    g_free(r);
}

gboolean tkv_pass_view_select(TkvPassView *self, const char *spec)
{
    size_t a, sub, b;
    if (!tkv_pass_view_parse_spec(self->tl, spec, &a, &sub, &b))
        return FALSE;
    /* Kept in the grammar's own form ("14" for "TritonGPUCoalesce"). */
    tk_passref ref = {a, sub, b};
    char *own = tk_passref_format(&ref);
    g_free(self->spec);
    self->spec = g_strdup(own ? own : spec);
    free(own);
    tkv_pass_view_select_rows(self, a, sub, b);
    /* The diff is made on a worker thread; the old one stays until the new
     * one is there (a selection made meanwhile wins). */
    char *title = selection_title(self, a, sub, b);
    char *pending = g_strdup_printf("%s (reading…)", title);
    char *safe = g_utf8_make_valid(pending, -1);
    gtk_label_set_text(self->diff_title, safe);
    g_free(safe);
    g_free(pending);
    g_free(title);
    g_free(self->sel_heading);
    self->sel_heading = NULL;
    self->diff_pending = TRUE;
    DiffRequest *r = g_new0(DiffRequest, 1);
    r->view = g_object_ref(self);
    r->generation = ++self->generation;
    r->a = a;
    r->sub = sub;
    r->b = b;
    /* the sides' rows made on the worker too: a 40,000-line diff's are a
     * tenth of the click otherwise (tkv_pass_rows.c) */
    tkv_document_diff_async(self->doc, self->tl, a, sub, b, (TkvDiffPrepare)tkv_pass_rows_make,
                            tkv_pass_rows_free, NULL, on_diff, r);
    tkv_pass_view_emit_anchor_changed(self);
    return TRUE;
}
