/* tkv_code_pane.c - code view + header + go to line. */
#include "widgets/tkv_code_pane.h"

#include <stdlib.h>

struct _TkvCodePane {
    GtkWidget parent_instance;

    GtkWidget *header;
    GtkDropDown *selector;
    GtkInscription *title;
    char *title_tip; /* the title's tooltip, NULL: none */
    GtkInscription *match_label;
    GtkWidget *prev_button;
    GtkWidget *next_button;
    GtkRevealer *goto_revealer;
    GtkEntry *goto_entry;
    GtkLabel *goto_label;
    GtkStack *views;     /* a scroller per view; one shown */
    GtkWidget *scroller; /* the template's view's */
    TkvCodeView *view;   /* shown */

    char *empty_text;
    GtkWidget *strip; /* tkv_code_pane_set_strip(), or NULL */
};

G_DEFINE_FINAL_TYPE(TkvCodePane, tkv_code_pane, GTK_TYPE_WIDGET)

enum { SIG_FOCUSED, N_SIGS };
static guint sigs[N_SIGS];

static void update_match_label(TkvCodePane *self)
{
    const guint32 *lines;
    gsize n = tkv_code_view_get_matches(self->view, &lines);
    int cur = tkv_code_view_get_match_index(self->view);
    char buf[64];
    if (n)
        g_snprintf(buf, sizeof buf, "%d of %zu", cur + 1, (size_t)n);
    gtk_inscription_set_text(self->match_label,
                             n ? buf : (self->empty_text ? self->empty_text : ""));
    gtk_widget_set_sensitive(self->prev_button, n > 1);
    gtk_widget_set_sensitive(self->next_button, n > 1);
}

static void on_prev_clicked(TkvCodePane *self) { tkv_code_view_step_match(self->view, -1); }
static void on_next_clicked(TkvCodePane *self) { tkv_code_view_step_match(self->view, 1); }

/* ---- go to line ------------------------------------------------------------ */

void tkv_code_pane_goto_line(TkvCodePane *self)
{
    char buf[64];
    g_snprintf(buf, sizeof buf, "1 to %u", tkv_code_view_get_line_count(self->view));
    gtk_label_set_text(self->goto_label, buf);
    gtk_revealer_set_reveal_child(self->goto_revealer, TRUE);
    gtk_editable_set_text(GTK_EDITABLE(self->goto_entry), "");
    gtk_widget_grab_focus(GTK_WIDGET(self->goto_entry));
}

static void on_goto_close(TkvCodePane *self)
{
    gtk_revealer_set_reveal_child(self->goto_revealer, FALSE);
    gtk_widget_grab_focus(GTK_WIDGET(self->view));
}

static void on_goto_activate(TkvCodePane *self)
{
    const char *text = gtk_editable_get_text(GTK_EDITABLE(self->goto_entry));
    char *end;
    long v = strtol(text, &end, 10);
    if (end == text || v < 1) {
        gtk_widget_error_bell(GTK_WIDGET(self->goto_entry));
        return;
    }
    on_goto_close(self);
    tkv_code_view_goto_line(self->view, (guint)v);
}

static gboolean on_goto_key(GtkEventControllerKey *key, guint keyval, guint keycode,
                            GdkModifierType state, TkvCodePane *self)
{
    if (keyval == GDK_KEY_Escape) {
        on_goto_close(self);
        return TRUE;
    }
    return FALSE;
}

/* ---- the rest --------------------------------------------------------------- */

static gboolean on_title_tooltip(TkvCodePane *self, int x, int y, gboolean keyboard,
                                 GtkTooltip *tooltip)
{
    if (!self->title_tip)
        return FALSE;
    gtk_tooltip_set_text(tooltip, self->title_tip);
    return TRUE;
}

static void on_view_focus(TkvCodePane *self)
{
    g_signal_emit(self, sigs[SIG_FOCUSED], 0);
}

/* A hidden view's signals say nothing about what the pane shows. */
static void on_any_view_matches(TkvCodeView *view, TkvCodePane *self)
{
    if (view == self->view)
        update_match_label(self);
}

static void watch_view(TkvCodePane *self, TkvCodeView *view)
{
    g_signal_connect(view, "matches-changed", G_CALLBACK(on_any_view_matches), self);
    GtkEventController *focus = gtk_event_controller_focus_new();
    g_signal_connect_swapped(focus, "enter", G_CALLBACK(on_view_focus), self);
    gtk_widget_add_controller(GTK_WIDGET(view), focus);
}

static void tkv_code_pane_dispose(GObject *object)
{
    TkvCodePane *self = TKV_CODE_PANE(object);
    g_clear_pointer(&self->strip, gtk_widget_unparent);
    gtk_widget_dispose_template(GTK_WIDGET(self), TKV_TYPE_CODE_PANE);
    G_OBJECT_CLASS(tkv_code_pane_parent_class)->dispose(object);
}

static void tkv_code_pane_finalize(GObject *object)
{
    g_free(TKV_CODE_PANE(object)->empty_text);
    g_free(TKV_CODE_PANE(object)->title_tip);
    G_OBJECT_CLASS(tkv_code_pane_parent_class)->finalize(object);
}

static void tkv_code_pane_class_init(TkvCodePaneClass *klass)
{
    GObjectClass *oc = G_OBJECT_CLASS(klass);
    GtkWidgetClass *wc = GTK_WIDGET_CLASS(klass);
    oc->dispose = tkv_code_pane_dispose;
    oc->finalize = tkv_code_pane_finalize;
    sigs[SIG_FOCUSED] = g_signal_new("focused", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST,
                                     0, NULL, NULL, NULL, G_TYPE_NONE, 0);
    g_type_ensure(TKV_TYPE_CODE_VIEW);
    gtk_widget_class_set_template_from_resource(wc, "/org/tkview/Viewer/ui/tkv_code_pane.ui");
    gtk_widget_class_bind_template_child(wc, TkvCodePane, header);
    gtk_widget_class_bind_template_child(wc, TkvCodePane, selector);
    gtk_widget_class_bind_template_child(wc, TkvCodePane, title);
    gtk_widget_class_bind_template_child(wc, TkvCodePane, match_label);
    gtk_widget_class_bind_template_child(wc, TkvCodePane, prev_button);
    gtk_widget_class_bind_template_child(wc, TkvCodePane, next_button);
    gtk_widget_class_bind_template_child(wc, TkvCodePane, goto_revealer);
    gtk_widget_class_bind_template_child(wc, TkvCodePane, goto_entry);
    gtk_widget_class_bind_template_child(wc, TkvCodePane, goto_label);
    gtk_widget_class_bind_template_child(wc, TkvCodePane, views);
    gtk_widget_class_bind_template_child(wc, TkvCodePane, scroller);
    gtk_widget_class_bind_template_child(wc, TkvCodePane, view);
    gtk_widget_class_bind_template_callback(wc, on_prev_clicked);
    gtk_widget_class_bind_template_callback(wc, on_next_clicked);
    gtk_widget_class_bind_template_callback(wc, on_goto_activate);
    gtk_widget_class_bind_template_callback(wc, on_goto_close);
    gtk_widget_class_bind_template_callback(wc, on_title_tooltip);
    gtk_widget_class_set_css_name(wc, "tkvcodepane");
}

/* The selector's items (GtkStringObject): its button shows the one chosen
 * ellipsized in the middle, its list shows them whole.  A plain label made
 * the pane as wide as the longest name: an Inductor kernel's generated
 * file name kept the source pane at ~690 px, leaving the IR ~320. */
static void setup_item(GtkSignalListItemFactory *f, GtkListItem *item, gpointer shorten)
{
    GtkWidget *l = gtk_label_new(NULL);
    gtk_label_set_xalign(GTK_LABEL(l), 0);
    if (shorten) {
        gtk_label_set_ellipsize(GTK_LABEL(l), PANGO_ELLIPSIZE_MIDDLE);
        gtk_label_set_width_chars(GTK_LABEL(l), 8);
        gtk_label_set_max_width_chars(GTK_LABEL(l), 28);
    }
    gtk_list_item_set_child(item, l);
}

static void bind_item(GtkSignalListItemFactory *f, GtkListItem *item, gpointer data)
{
    GObject *o = gtk_list_item_get_item(item);
    gtk_label_set_text(GTK_LABEL(gtk_list_item_get_child(item)),
                       GTK_IS_STRING_OBJECT(o) ? gtk_string_object_get_string(GTK_STRING_OBJECT(o))
                                               : "");
}

static GtkListItemFactory *item_factory(gboolean shorten)
{
    GtkListItemFactory *f = gtk_signal_list_item_factory_new();
    g_signal_connect(f, "setup", G_CALLBACK(setup_item), GINT_TO_POINTER(shorten));
    g_signal_connect(f, "bind", G_CALLBACK(bind_item), NULL);
    return f;
}

static void tkv_code_pane_init(TkvCodePane *self)
{
    gtk_widget_init_template(GTK_WIDGET(self));
    watch_view(self, self->view);
    GtkListItemFactory *shortf = item_factory(TRUE), *wholef = item_factory(FALSE);
    gtk_drop_down_set_factory(self->selector, shortf);
    gtk_drop_down_set_list_factory(self->selector, wholef);
    g_object_unref(shortf);
    g_object_unref(wholef);
    GtkEventController *key = gtk_event_controller_key_new();
    g_signal_connect(key, "key-pressed", G_CALLBACK(on_goto_key), self);
    gtk_widget_add_controller(GTK_WIDGET(self->goto_entry), key);
    update_match_label(self);
}

TkvCodeView *tkv_code_pane_get_view(TkvCodePane *self) { return self->view; }

TkvCodeView *tkv_code_pane_add_view(TkvCodePane *self)
{
    GtkWidget *scroller = gtk_scrolled_window_new();
    gtk_widget_set_vexpand(scroller, TRUE);
    gtk_widget_set_hexpand(scroller, TRUE);
    TkvCodeView *view = TKV_CODE_VIEW(tkv_code_view_new());
    gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(scroller), GTK_WIDGET(view));
    gtk_stack_add_child(self->views, scroller);
    watch_view(self, view);
    return view;
}

void tkv_code_pane_show_view(TkvCodePane *self, TkvCodeView *view)
{
    if (view == self->view)
        return;
    gboolean had_focus = gtk_widget_has_focus(GTK_WIDGET(self->view));
    self->view = view;
    gtk_stack_set_visible_child(self->views, gtk_widget_get_parent(GTK_WIDGET(view)));
    if (had_focus)
        gtk_widget_grab_focus(GTK_WIDGET(view));
    update_match_label(self);
}
GtkDropDown *tkv_code_pane_get_selector(TkvCodePane *self) { return self->selector; }

void tkv_code_pane_set_strip(TkvCodePane *self, GtkWidget *strip)
{
    g_clear_pointer(&self->strip, gtk_widget_unparent);
    self->strip = strip;
    if (strip)
        gtk_widget_insert_before(strip, GTK_WIDGET(self), GTK_WIDGET(self->views));
}

void tkv_code_pane_set_title(TkvCodePane *self, const char *title, const char *tooltip)
{
    gtk_inscription_set_text(self->title, title ? title : "");
    g_free(self->title_tip);
    self->title_tip = g_strdup(tooltip);
}

void tkv_code_pane_set_empty_text(TkvCodePane *self, const char *text)
{
    g_free(self->empty_text);
    self->empty_text = g_strdup(text);
    update_match_label(self);
}

const char *tkv_code_pane_get_match_text(TkvCodePane *self)
{
    const char *t = gtk_inscription_get_text(self->match_label);
    return t ? t : "";
}
