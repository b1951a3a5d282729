/* tkv_stack_panel.c - frames of the selected IR line, each clickable. */
#include "panels/tkv_stack_panel.h"

#include <string.h>

struct _TkvStackPanel {
    GtkWidget parent_instance;
    GtkLabel *heading;
    GtkLabel *note;
    GtkWidget *scroller;
    GtkBox *rows;
    GArray *frames; /* TkvShownFrame */
    gboolean inferred;
    /* What the rows show (tk_stack_id; the document and the stage the
     * callers were taken from): the same stacks again (the next line of a
     * statement) keep their rows, which cost a relayout to make. */
    GArray *ids;
    TkvDocument *ids_doc; /* weak; NULL: no rows of stacks shown */
    tk_stage_kind ids_inferred_from;
};

G_DEFINE_FINAL_TYPE(TkvStackPanel, tkv_stack_panel, GTK_TYPE_WIDGET)

/* Headings wrap in the panel's width (tkv_stack_panel_init() says why), but
 * only those long enough to need it: a wrapped label is laid out again at
 * several widths each time its text changes, and "TTGIR line 32" changes
 * with every line selected. */
#define HEADING_WRAP_CHARS 24

static void set_heading(TkvStackPanel *self, const char *text)
{
    gtk_label_set_wrap(self->heading, g_utf8_strlen(text, -1) > HEADING_WRAP_CHARS);
    gtk_label_set_text(self->heading, text);
}

static void clear_rows(TkvStackPanel *self)
{
    GtkWidget *child;
    while ((child = gtk_widget_get_first_child(GTK_WIDGET(self->rows))))
        gtk_box_remove(self->rows, child);
    g_array_set_size(self->frames, 0);
    self->inferred = FALSE;
    g_array_set_size(self->ids, 0);
    g_clear_weak_pointer(&self->ids_doc);
}

/* Whether the rows shown are those of IDS (N) of DOC. */
static gboolean rows_show(TkvStackPanel *self, TkvDocument *doc, const tk_stack_id *ids,
                          size_t n, tk_stage_kind inferred_from)
{
    return self->ids_doc == doc && doc && self->ids_inferred_from == inferred_from &&
           self->ids->len == n && (!n || memcmp(self->ids->data, ids, n * sizeof *ids) == 0);
}

void tkv_stack_panel_clear(TkvStackPanel *self, const char *hint)
{
    clear_rows(self);
    set_heading(self, "Inline stack");
    gtk_label_set_text(self->note, hint ? hint : "");
    gtk_widget_set_visible(GTK_WIDGET(self->note), hint && *hint);
}

/* A frame's row's tooltip, its file's whole path (fill_frame_row()), given
 * when asked for: a tooltip text set made GTK 4.8 ask the X server where
 * the pointer is (a round trip whenever an IR line's stack named another
 * file). */
static gboolean on_frame_tooltip(GtkWidget *button, int x, int y, gboolean keyboard,
                                 GtkTooltip *tooltip, gpointer data)
{
    const char *path = g_object_get_data(G_OBJECT(button), "tkv-path");
    if (!path || !*path)
        return FALSE;
    gtk_tooltip_set_text(tooltip, path);
    return TRUE;
}

/* A frame's row: a flat button over its title ("file:line:col"), its role
 * ("called from") and its line of code.  Rows are made once and filled again
 * for the next stacks (fill_frame_row()): a label given the text it has
 * costs nothing, a new widget a style lookup and a relayout. */
static GtkWidget *frame_row_new(void)
{
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2);
    GtkWidget *top = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6);
    GtkWidget *t = gtk_label_new(NULL);
    gtk_label_set_xalign(GTK_LABEL(t), 0);
    gtk_label_set_ellipsize(GTK_LABEL(t), PANGO_ELLIPSIZE_MIDDLE);
    gtk_widget_add_css_class(t, "tkv-frame-title");
    gtk_widget_set_hexpand(t, TRUE);
    gtk_box_append(GTK_BOX(top), t);
    GtkWidget *r = gtk_label_new(NULL);
    gtk_widget_add_css_class(r, "dim-label");
    gtk_widget_add_css_class(r, "caption");
    gtk_box_append(GTK_BOX(top), r);
    gtk_box_append(GTK_BOX(box), top);
    GtkWidget *sub = gtk_label_new(NULL);
    gtk_label_set_xalign(GTK_LABEL(sub), 0);
    gtk_label_set_ellipsize(GTK_LABEL(sub), PANGO_ELLIPSIZE_END);
    gtk_box_append(GTK_BOX(box), sub);

    GtkWidget *button = gtk_button_new();
    gtk_button_set_child(GTK_BUTTON(button), box);
    gtk_widget_add_css_class(button, "flat");
    gtk_widget_add_css_class(button, "tkv-frame");
    g_object_set_data(G_OBJECT(button), "tkv-title", t);
    g_object_set_data(G_OBJECT(button), "tkv-role", r);
    g_object_set_data(G_OBJECT(button), "tkv-code", sub);
    gtk_widget_set_has_tooltip(button, TRUE);
    g_signal_connect(button, "query-tooltip", G_CALLBACK(on_frame_tooltip), NULL);
    return button;
}

/* BUTTON (frame_row_new()) showing frame F, DEPTH of N. */
static void fill_frame_row(GtkWidget *button, TkvDocument *doc, const tk_frame *f, size_t depth,
                           size_t n)
{
    GtkLabel *t = g_object_get_data(G_OBJECT(button), "tkv-title");
    GtkLabel *r = g_object_get_data(G_OBJECT(button), "tkv-role");
    GtkLabel *sub = g_object_get_data(G_OBJECT(button), "tkv-code");
    const char *path = tkv_document_get_file_path(doc, f->file);
    char *base = g_path_get_basename(path ? path : "?");
    char *title = f->col ? g_strdup_printf("%s:%u:%u", base, f->line, f->col)
                         : g_strdup_printf("%s:%u", base, f->line);
    char *safe_title = g_utf8_make_valid(title, -1);
    gtk_label_set_text(t, safe_title);
    const char *role = depth == 0 ? (n > 1 ? "innermost" : "") :
                       depth + 1 == n ? "outermost caller" : "called from";
    gtk_label_set_text(r, role);
    gtk_widget_set_visible(GTK_WIDGET(r), *role);
    size_t len;
    const char *text = tkv_document_get_source_line(doc, f->file, f->line, &len);
    if (text) {
        while (len && (*text == ' ' || *text == '\t')) {
            text++;
            len--;
        }
        char *code = g_strndup(text, len);
        gtk_label_set_text(sub, code);
        g_free(code);
    } else {
        gtk_label_set_text(sub, tkv_document_get_source_path(doc, f->file)
                                    ? "(line not in file)"
                                    : "(source file not at hand)");
    }
    gtk_widget_add_css_class(GTK_WIDGET(sub), text ? "tkv-frame-code" : "dim-label");
    gtk_widget_remove_css_class(GTK_WIDGET(sub), text ? "dim-label" : "tkv-frame-code");
    char *safe_path = g_utf8_make_valid(path ? path : "", -1);
    if (g_strcmp0(g_object_get_data(G_OBJECT(button), "tkv-path"), safe_path) != 0)
        g_object_set_data_full(G_OBJECT(button), "tkv-path", g_strdup(safe_path), g_free);
    gtk_actionable_set_action_target_value(GTK_ACTIONABLE(button),
                                           g_variant_new("(su)", path ? path : "", f->line));
    /* named once it has a target: a name alone is an action without one */
    if (!gtk_actionable_get_action_name(GTK_ACTIONABLE(button)))
        gtk_actionable_set_action_name(GTK_ACTIONABLE(button), "win.select-source-location");
    g_free(safe_path);
    g_free(base);
    g_free(title);
    g_free(safe_title);
}

/* The row at *AT of the rows (a frame's button when FRAME, else a "Stack k
 * of n" label), reused when it is one of that kind, made before it if not;
 * *AT moves past it. */
static GtkWidget *row_at(TkvStackPanel *self, GtkWidget **at, gboolean frame)
{
    GtkWidget *w = *at;
    if (w && GTK_IS_BUTTON(w) == frame) {
        *at = gtk_widget_get_next_sibling(w);
        return w;
    }
    if (frame) {
        w = frame_row_new();
    } else {
        w = gtk_label_new(NULL);
        gtk_label_set_xalign(GTK_LABEL(w), 0);
        gtk_widget_add_css_class(w, "heading");
    }
    gtk_box_insert_child_after(self->rows, w, *at ? gtk_widget_get_prev_sibling(*at)
                                                  : gtk_widget_get_last_child(GTK_WIDGET(self->rows)));
    return w;
}

void tkv_stack_panel_show_stacks(TkvStackPanel *self, TkvDocument *doc, const char *heading,
                                 const tk_stack_id *ids, size_t n,
                                 tk_stage_kind inferred_from)
{
    gboolean inferred = inferred_from != TK_STAGE_UNKNOWN;
    char *safe = g_utf8_make_valid(heading, -1);
    set_heading(self, safe);
    g_free(safe);
    if (rows_show(self, doc, ids, n, inferred_from))
        return;
    g_array_set_size(self->frames, 0);
    g_array_set_size(self->ids, 0);
    g_set_weak_pointer(&self->ids_doc, doc);
    self->ids_inferred_from = inferred_from;
    g_array_append_vals(self->ids, ids, (guint)n);
    tk_loctab *tab = tk_bundle_loctab(tkv_document_get_bundle(doc));
    self->inferred = n && inferred;
    GtkWidget *at = gtk_widget_get_first_child(GTK_WIDGET(self->rows));
    for (size_t s = 0; s < n; s++) {
        size_t nf;
        const tk_frame *fr = tk_loctab_stack_frames(tab, ids[s], &nf);
        if (n > 1) {
            char *h = g_strdup_printf("Stack %zu of %zu", s + 1, n);
            gtk_label_set_text(GTK_LABEL(row_at(self, &at, FALSE)), h);
            g_free(h);
        }
        for (size_t i = 0; i < nf; i++) {
            fill_frame_row(row_at(self, &at, TRUE), doc, &fr[i], i, nf);
            TkvShownFrame sf = {(guint)s, fr[i]};
            g_array_append_val(self->frames, sf);
        }
    }
    /* the rows of the stacks shown before that are left over */
    while (at) {
        GtkWidget *next = gtk_widget_get_next_sibling(at);
        gtk_box_remove(self->rows, at);
        at = next;
    }
    const char *from = tk_stage_kind_label(inferred_from);
    char *note = !n ? g_strdup("This line carries no source location.")
                 : self->inferred
                     ? g_strdup_printf("Callers taken from the %s: this stage names only "
                                       "the innermost line, and the %s shows one stack "
                                       "for it.", from, from)
                     : g_strdup("");
    gtk_label_set_text(self->note, note);
    gtk_widget_set_visible(GTK_WIDGET(self->note), *note);
    g_free(note);
}

void tkv_stack_panel_show(TkvStackPanel *self, TkvDocument *doc, guint kernel,
                          tk_stage_kind stage, guint line)
{
    const tk_bind *ix = tkv_document_get_index(doc, kernel);
    char *heading = g_strdup_printf("%s line %u", tk_stage_kind_label(stage), line);
    const tk_stack_id *ids;
    size_t n = ix ? tk_bind_line_stacks(ix, stage, line, &ids) : 0;
    tkv_stack_panel_show_stacks(self, doc, heading, ids, n,
                                n && tk_bind_stack_inferred(ix, stage, line)
                                    ? tk_bind_inferred_from(ix, stage)
                                    : TK_STAGE_UNKNOWN);
    g_free(heading);
}

const GArray *tkv_stack_panel_get_frames(TkvStackPanel *self) { return self->frames; }
const char *tkv_stack_panel_get_heading(TkvStackPanel *self) { return gtk_label_get_text(self->heading); }
gboolean tkv_stack_panel_get_inferred(TkvStackPanel *self) { return self->inferred; }

GPtrArray *tkv_stack_panel_get_row_titles(TkvStackPanel *self)
{
    GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
    for (GtkWidget *w = gtk_widget_get_first_child(GTK_WIDGET(self->rows)); w;
         w = gtk_widget_get_next_sibling(w))
        if (GTK_IS_BUTTON(w))
            g_ptr_array_add(out, g_strdup(gtk_label_get_text(
                                     g_object_get_data(G_OBJECT(w), "tkv-title"))));
    return out;
}

static void tkv_stack_panel_dispose(GObject *object)
{
    TkvStackPanel *self = TKV_STACK_PANEL(object);
    GtkWidget *child;
    g_clear_weak_pointer(&self->ids_doc);
    while ((child = gtk_widget_get_first_child(GTK_WIDGET(self))))
        gtk_widget_unparent(child);
    G_OBJECT_CLASS(tkv_stack_panel_parent_class)->dispose(object);
}

static void tkv_stack_panel_finalize(GObject *object)
{
    g_array_unref(TKV_STACK_PANEL(object)->frames);
    g_array_unref(TKV_STACK_PANEL(object)->ids);
    G_OBJECT_CLASS(tkv_stack_panel_parent_class)->finalize(object);
}

static void tkv_stack_panel_class_init(TkvStackPanelClass *klass)
{
    G_OBJECT_CLASS(klass)->dispose = tkv_stack_panel_dispose;
    G_OBJECT_CLASS(klass)->finalize = tkv_stack_panel_finalize;
    gtk_widget_class_set_layout_manager_type(GTK_WIDGET_CLASS(klass), GTK_TYPE_BOX_LAYOUT);
    gtk_widget_class_set_css_name(GTK_WIDGET_CLASS(klass), "tkvstackpanel");
}

static void tkv_stack_panel_init(TkvStackPanel *self)
{
    self->frames = g_array_new(FALSE, FALSE, sizeof(TkvShownFrame));
    self->ids = g_array_new(FALSE, FALSE, sizeof(tk_stack_id));
    GtkLayoutManager *lm = gtk_widget_get_layout_manager(GTK_WIDGET(self));
    gtk_orientable_set_orientation(GTK_ORIENTABLE(lm), GTK_ORIENTATION_VERTICAL);
    gtk_box_layout_set_spacing(GTK_BOX_LAYOUT(lm), 4);
    self->heading = GTK_LABEL(gtk_label_new("Inline stack"));
    gtk_label_set_xalign(self->heading, 0);
    /* "After the pass: line 24 of mlir_passes.txt:1251" on one line made
     * the side panel 390 px wide and pushed the pass view's buttons off a
     * 1240 px window: it wraps in the panel's width instead (set_heading()) */
    gtk_label_set_wrap_mode(self->heading, PANGO_WRAP_WORD_CHAR);
    gtk_widget_add_css_class(GTK_WIDGET(self->heading), "heading");
    gtk_widget_set_parent(GTK_WIDGET(self->heading), GTK_WIDGET(self));
    self->note = GTK_LABEL(gtk_label_new(""));
    gtk_label_set_xalign(self->note, 0);
    gtk_label_set_wrap(self->note, TRUE);
    gtk_widget_add_css_class(GTK_WIDGET(self->note), "dim-label");
    gtk_widget_set_parent(GTK_WIDGET(self->note), GTK_WIDGET(self));
    self->scroller = gtk_scrolled_window_new();
    gtk_widget_set_vexpand(self->scroller, TRUE);
    gtk_scrolled_window_set_policy(GTK_SCROLLED_WINDOW(self->scroller), GTK_POLICY_NEVER,
                                   GTK_POLICY_AUTOMATIC);
    self->rows = GTK_BOX(gtk_box_new(GTK_ORIENTATION_VERTICAL, 0));
    gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(self->scroller), GTK_WIDGET(self->rows));
    gtk_widget_set_parent(self->scroller, GTK_WIDGET(self));
    tkv_stack_panel_clear(self, "Select an IR line to see where it came from.");
}

GtkWidget *tkv_stack_panel_new(void)
{
    return g_object_new(TKV_TYPE_STACK_PANEL, NULL);
}
