/* tkv_diag_panel.c - the Diagnostics panel: a heading and a list of the
 * kernel's compiler messages (tkv_diag_panel.h). */
#include "panels/tkv_diag_panel.h"

#include "document/tkv_diag_doc.h"

struct _TkvDiagPanel {
    GtkWidget parent_instance;
    GtkWidget *box;
    GtkLabel *heading;
    GtkListBox *list;
    TkvDocument *doc;
    const TkvDiagKernel *diag;
    GPtrArray *rows; /* char *: each row in words, for the tests */
    GPtrArray *says; /* GtkLabel * per row: what its pass step is, said
                        once the window knows (tkv_diag_panel_say());
                        NULL for a row without a pass; not owned */
};

G_DEFINE_FINAL_TYPE(TkvDiagPanel, tkv_diag_panel, GTK_TYPE_WIDGET)

enum { SIG_ENTRY_ACTIVATED, SIG_PASS_ACTIVATED, N_SIGS };
static guint sigs[N_SIGS];

static GtkWidget *label(const char *text, const char *css)
{
    GtkWidget *l = gtk_label_new(text);
    gtk_label_set_xalign(GTK_LABEL(l), 0);
    gtk_label_set_wrap(GTK_LABEL(l), TRUE);
    gtk_label_set_wrap_mode(GTK_LABEL(l), PANGO_WRAP_WORD_CHAR);
    gtk_label_set_selectable(GTK_LABEL(l), FALSE);
    if (css)
        gtk_widget_add_css_class(l, css);
    return l;
}

static void on_open_pass(GtkButton *button, TkvDiagPanel *self)
{
    guint pos = GPOINTER_TO_UINT(g_object_get_data(G_OBJECT(button), "tkv-position"));
    g_signal_emit(self, sigs[SIG_PASS_ACTIVATED], 0, pos);
}

static GtkWidget *row_for(TkvDiagPanel *self, const tk_diag_entry *e, guint pos)
{
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2);
    gtk_widget_set_margin_top(box, 4);
    gtk_widget_set_margin_bottom(box, 4);
    gtk_widget_set_margin_start(box, 6);
    gtk_widget_set_margin_end(box, 6);
    static const char *const sev_css[] = {"tkv-diag-remark", "tkv-diag-warning",
                                          "tkv-diag-error"};
    char *head = g_strdup_printf("%s %s%s%s", tk_diag_level_name(e->level),
                                 tk_diag_origin_name(e->origin), e->code ? " " : "",
                                 e->code ? e->code : "");
    char *where = tkv_diag_entry_where(e);
    GtkWidget *top = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8);
    GtkWidget *sev = label(head, sev_css[e->level <= 2 ? e->level : 2]);
    gtk_widget_add_css_class(sev, "heading");
    gtk_box_append(GTK_BOX(top), sev);
    gtk_box_append(GTK_BOX(top), label(where, "dim-label"));
    gtk_box_append(GTK_BOX(box), top);
    gtk_box_append(GTK_BOX(box), label(e->message, NULL));
    for (size_t i = 0; i < e->n_notes; i++) {
        char *n = g_strdup_printf("note: %s", e->notes[i]);
        gtk_box_append(GTK_BOX(box), label(n, "dim-label"));
        g_free(n);
    }
    if (e->pass) {
        char *p = g_strdup_printf("pass: %s", e->pass);
        GtkWidget *line = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8);
        gtk_box_append(GTK_BOX(line), label(p, "dim-label"));
        g_free(p);
        /* pass mode at that pass's step (the window finds it) */
        GtkWidget *open = gtk_button_new_with_label("Open pass");
        gtk_widget_add_css_class(open, "flat");
        gtk_widget_set_valign(open, GTK_ALIGN_CENTER);
        gtk_widget_set_tooltip_text(open, "Show what this pass changed, in pass mode");
        g_object_set_data(G_OBJECT(open), "tkv-position", GUINT_TO_POINTER(pos));
        g_signal_connect(open, "clicked", G_CALLBACK(on_open_pass), self);
        gtk_box_append(GTK_BOX(line), open);
        gtk_box_append(GTK_BOX(box), line);
        GtkWidget *says = label("", "dim-label");
        gtk_widget_set_visible(says, FALSE);
        gtk_box_append(GTK_BOX(box), says);
        g_ptr_array_add(self->says, says);
    } else {
        g_ptr_array_add(self->says, NULL);
    }
    const tk_diag_known *k = tk_diag_entry_explain(e);
    if (k && k->meaning)
        gtk_box_append(GTK_BOX(box), label(k->meaning, NULL));
    if (k && k->try_this) {
        char *t = g_strdup_printf("Try: %s", k->try_this);
        gtk_box_append(GTK_BOX(box), label(t, NULL));
        g_free(t);
    }
    char *text = tkv_diag_entry_text(e);
    gtk_widget_set_tooltip_text(box, text);
    g_free(text);
    g_ptr_array_add(self->rows, g_strdup_printf("%s | %s | %s", head, where, e->message));
    g_free(head);
    g_free(where);
    return box;
}

void tkv_diag_panel_show(TkvDiagPanel *self, TkvDocument *doc, guint kernel)
{
    GtkWidget *child;
    while ((child = gtk_widget_get_first_child(GTK_WIDGET(self->list))))
        gtk_list_box_remove(self->list, child);
    g_ptr_array_set_size(self->rows, 0);
    g_ptr_array_set_size(self->says, 0);
    self->doc = doc;
    self->diag = doc ? tkv_diag_doc_kernel(doc, kernel) : NULL;
    guint n = tkv_diag_kernel_count(self->diag);
    char *h;
    if (doc && !self->diag && !tkv_diag_doc_is_ready(doc))
        h = g_strdup("Reading the compiler's messages…");
    else if (!self->diag)
        h = g_strdup("The compiler said nothing about this kernel (or its output was "
                     "not kept beside the capture).");
    else
        h = g_strdup_printf("%u compiler message%s%s", n, n == 1 ? "" : "s",
                            tkv_diag_kernel_failed(self->diag) ? ": the compile FAILED" : "");
    gtk_label_set_text(self->heading, h);
    g_free(h);
    gtk_widget_remove_css_class(GTK_WIDGET(self->heading), "error");
    if (tkv_diag_kernel_failed(self->diag))
        gtk_widget_add_css_class(GTK_WIDGET(self->heading), "error");
    for (guint i = 0; i < n; i++)
        gtk_list_box_append(self->list, row_for(self, tkv_diag_kernel_entry(self->diag, i), i));
}

static void activate_position(TkvDiagPanel *self, guint pos)
{
    const tk_diag_entry *e = tkv_diag_kernel_entry(self->diag, pos);
    if (!e)
        return;
    if (e->has_stage && e->ir_line) {
        g_signal_emit(self, sigs[SIG_ENTRY_ACTIVATED], 0, (int)e->stage, 0u, e->ir_line);
        return;
    }
    tk_file_id f = tkv_diag_kernel_entry_file(self->diag, pos);
    if (f != TKV_NO_FILE && e->n_stack)
        g_signal_emit(self, sigs[SIG_ENTRY_ACTIVATED], 0, -1, (guint)f, e->stack[0].line);
}

static void on_row_activated(GtkListBox *list, GtkListBoxRow *row, TkvDiagPanel *self)
{
    activate_position(self, (guint)gtk_list_box_row_get_index(row));
}

static void act_activate(GtkWidget *w, const char *name, GVariant *p)
{
    activate_position(TKV_DIAG_PANEL(w), g_variant_get_uint32(p));
}

static void act_open_pass(GtkWidget *w, const char *name, GVariant *p)
{
    TkvDiagPanel *self = TKV_DIAG_PANEL(w);
    guint pos = g_variant_get_uint32(p);
    const tk_diag_entry *e = tkv_diag_kernel_entry(self->diag, pos);
    if (e && e->pass)
        g_signal_emit(self, sigs[SIG_PASS_ACTIVATED], 0, pos);
}

const tk_diag_entry *tkv_diag_panel_get_entry(TkvDiagPanel *self, guint position)
{
    return tkv_diag_kernel_entry(self->diag, position);
}

void tkv_diag_panel_say(TkvDiagPanel *self, guint position, const char *text)
{
    if (position >= self->says->len || !self->says->pdata[position])
        return;
    GtkLabel *l = self->says->pdata[position];
    gtk_label_set_text(l, text ? text : "");
    gtk_widget_set_visible(GTK_WIDGET(l), text && *text);
}

const char *tkv_diag_panel_get_said(TkvDiagPanel *self, guint position)
{
    if (position >= self->says->len || !self->says->pdata[position] ||
        !gtk_widget_get_visible(self->says->pdata[position]))
        return NULL;
    return gtk_label_get_text(self->says->pdata[position]);
}

const char *tkv_diag_panel_get_heading(TkvDiagPanel *self)
{
    return gtk_label_get_text(self->heading);
}

char **tkv_diag_panel_get_rows(TkvDiagPanel *self)
{
    char **v = g_new0(char *, self->rows->len + 1);
    for (guint i = 0; i < self->rows->len; i++)
        v[i] = g_strdup(self->rows->pdata[i]);
    return v;
}

static void tkv_diag_panel_dispose(GObject *object)
{
    TkvDiagPanel *self = TKV_DIAG_PANEL(object);
    g_clear_pointer(&self->box, gtk_widget_unparent);
    if (self->rows) {
        g_ptr_array_unref(self->rows);
        self->rows = NULL;
    }
    g_clear_pointer(&self->says, g_ptr_array_unref);
    G_OBJECT_CLASS(tkv_diag_panel_parent_class)->dispose(object);
}

static void tkv_diag_panel_class_init(TkvDiagPanelClass *klass)
{
    GObjectClass *oc = G_OBJECT_CLASS(klass);
    GtkWidgetClass *wc = GTK_WIDGET_CLASS(klass);
    oc->dispose = tkv_diag_panel_dispose;
    gtk_widget_class_set_layout_manager_type(wc, GTK_TYPE_BIN_LAYOUT);
    gtk_widget_class_install_action(wc, "diag.activate", "u", act_activate);
    gtk_widget_class_install_action(wc, "diag.open-pass", "u", act_open_pass);
    sigs[SIG_ENTRY_ACTIVATED] =
        g_signal_new("entry-activated", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL,
                     NULL, NULL, G_TYPE_NONE, 3, G_TYPE_INT, G_TYPE_UINT, G_TYPE_UINT);
    sigs[SIG_PASS_ACTIVATED] =
        g_signal_new("pass-activated", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL,
                     NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
}

static void tkv_diag_panel_init(TkvDiagPanel *self)
{
    self->rows = g_ptr_array_new_with_free_func(g_free);
    self->says = g_ptr_array_new();
    self->box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4);
    gtk_widget_set_parent(self->box, GTK_WIDGET(self));
    self->heading = GTK_LABEL(label("", NULL));
    gtk_widget_set_margin_start(GTK_WIDGET(self->heading), 6);
    gtk_widget_set_margin_top(GTK_WIDGET(self->heading), 4);
    gtk_box_append(GTK_BOX(self->box), GTK_WIDGET(self->heading));
    GtkWidget *scroll = gtk_scrolled_window_new();
    gtk_widget_set_vexpand(scroll, TRUE);
    gtk_scrolled_window_set_policy(GTK_SCROLLED_WINDOW(scroll), GTK_POLICY_NEVER,
                                   GTK_POLICY_AUTOMATIC);
    self->list = GTK_LIST_BOX(gtk_list_box_new());
    gtk_list_box_set_selection_mode(self->list, GTK_SELECTION_SINGLE);
    gtk_list_box_set_activate_on_single_click(self->list, TRUE);
    gtk_widget_add_css_class(GTK_WIDGET(self->list), "navigation-sidebar");
    g_signal_connect(self->list, "row-activated", G_CALLBACK(on_row_activated), self);
    gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(scroll), GTK_WIDGET(self->list));
    gtk_box_append(GTK_BOX(self->box), scroll);
}
