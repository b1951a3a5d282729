/* tkv_find_bar.c - one find bar over a view's panes. */
#include "widgets/tkv_find_bar.h"

#include <string.h>

#include "widgets/tkv_buffer_lines.h"

/* Hits counted at most, over all panes ("k of 100000+"): a one-letter
 * search in a 200 MB diff's rows stays bounded. */
#define MAX_HITS 100000u

struct _TkvFindBar {
    GtkWidget parent_instance;

    GtkWidget *search_bar;
    GtkWidget *entry;
    GtkWidget *regex_button;
    GtkWidget *case_button;
    GtkLabel *label;

    TkvFindTargetsFunc func;
    gpointer data;

    TkvFindQuery *query;
    char *error;          /* the regular expression's, NULL: none */
    GArray *targets;      /* TkvFindTarget, views referenced */
    GPtrArray *hits;      /* a GArray of TkvFindHit per target */
    GPtrArray *buffers;   /* the buffer each target's hits are in */
    guint total;
    gboolean capped;      /* MAX_HITS reached */
    int current;          /* index over all targets' hits, -1 */
    double last_ms;
    gboolean setting;     /* the program is setting the entry */
};

G_DEFINE_FINAL_TYPE(TkvFindBar, tkv_find_bar, GTK_TYPE_WIDGET)

/* Drops the hits on lines B hides now (location lines). */
static void drop_hidden(GtkTextBuffer *b, GArray *hits)
{
    GArray *hidden = tkv_buffer_lines_hidden_location_lines(b);
    if (hidden->len) {
        const guint32 *h = (const guint32 *)(void *)hidden->data;
        guint k = 0, out = 0;
        for (guint i = 0; i < hits->len; i++) {
            TkvFindHit *x = &g_array_index(hits, TkvFindHit, i);
            while (k < hidden->len && h[k] < x->line)
                k++;
            if (k < hidden->len && h[k] == x->line)
                continue;
            g_array_index(hits, TkvFindHit, out++) = *x;
        }
        g_array_set_size(hits, out);
    }
    g_array_unref(hidden);
}

/* ---- the hits ------------------------------------------------------------------------ */

static void clear_hits(TkvFindBar *self)
{
    for (guint t = 0; t < self->targets->len; t++) {
        TkvFindTarget *x = &g_array_index(self->targets, TkvFindTarget, t);
        tkv_code_view_set_find_hits(x->view, NULL, 0, -1);
        g_object_unref(x->view);
    }
    g_array_set_size(self->targets, 0);
    g_ptr_array_set_size(self->hits, 0);
    g_ptr_array_set_size(self->buffers, 0);
    self->total = 0;
    self->capped = FALSE;
    self->current = -1;
}

static GArray *hits_of(TkvFindBar *self, guint t)
{
    return g_ptr_array_index(self->hits, t);
}

/* The target and the index in it of hit K (over all). */
static guint locate(TkvFindBar *self, int k, guint *i)
{
    guint t = 0;
    while (t + 1 < self->hits->len && (guint)k >= hits_of(self, t)->len) {
        k -= (int)hits_of(self, t)->len;
        t++;
    }
    *i = (guint)k;
    return t;
}

static int global_index(TkvFindBar *self, guint t, guint i)
{
    int k = 0;
    for (guint u = 0; u < t; u++)
        k += (int)hits_of(self, u)->len;
    return k + (int)i;
}

static void update_label(TkvFindBar *self)
{
    char buf[96];
    if (self->error)
        g_snprintf(buf, sizeof buf, "not a regular expression");
    else if (!self->query)
        buf[0] = 0;
    else if (!self->total)
        g_snprintf(buf, sizeof buf, "no match");
    else if (self->current < 0)
        g_snprintf(buf, sizeof buf, "%u%s match%s", self->total, self->capped ? "+" : "",
                   self->total == 1 ? "" : "es");
    else
        g_snprintf(buf, sizeof buf, "%d of %u%s", self->current + 1, self->total,
                   self->capped ? "+" : "");
    gtk_label_set_text(self->label, buf);
    gtk_widget_set_tooltip_text(GTK_WIDGET(self->label), self->error);
    if (self->error || (self->query && !self->total))
        gtk_widget_add_css_class(self->entry, "error");
    else
        gtk_widget_remove_css_class(self->entry, "error");
}

/* Makes hit K current: painted so, in the middle of its pane. */
static void go_to(TkvFindBar *self, int k)
{
    self->current = k;
    guint i, t = locate(self, k, &i);
    for (guint u = 0; u < self->targets->len; u++)
        tkv_code_view_set_find_current(g_array_index(self->targets, TkvFindTarget, u).view,
                                       u == t ? (int)i : -1);
    TkvCodeView *v = g_array_index(self->targets, TkvFindTarget, t).view;
    const TkvFindHit *h = &g_array_index(hits_of(self, t), TkvFindHit, i);
    GtkTextBuffer *b = gtk_text_view_get_buffer(GTK_TEXT_VIEW(v));
    /* a hit in the hidden tail of a folded line: the line shown whole */
    if (tkv_buffer_lines_hidden(b, h->line - 1) && h->start >= TKV_FOLD_COLUMN)
        tkv_buffer_lines_show(b, (int)h->line - 1, (int)h->line - 1);
    tkv_code_view_center_line(v, h->line, h->start, h->end);
    update_label(self);
}

/* The first hit (over all) at or after line LINE, byte START of target T,
 * else the first of a later target, else the first of all; -1: none. */
static int first_from(TkvFindBar *self, guint t, guint32 line, guint32 start)
{
    if (!self->total)
        return -1;
    GArray *h = hits_of(self, t);
    for (guint i = 0; i < h->len; i++) {
        const TkvFindHit *x = &g_array_index(h, TkvFindHit, i);
        if (x->line > line || (x->line == line && x->start >= start))
            return global_index(self, t, i);
    }
    int k = global_index(self, t, h->len);
    return k < (int)self->total ? k : 0;
}

/* Searches every pane again.  KEEP: the current hit stays where it was (the
 * panes changed); else the search starts from it, or from the cursor of the
 * pane that had the focus (a new query).  SCROLL: the current hit is gone
 * to. */
static void search(TkvFindBar *self, gboolean keep, gboolean scroll)
{
    /* where the search starts from */
    TkvCodeView *from_view = NULL;
    GtkTextBuffer *from_buf = NULL;
    guint32 from_line = 0, from_start = 0;
    if (self->current >= 0) {
        guint i, t = locate(self, self->current, &i);
        const TkvFindHit *h = &g_array_index(hits_of(self, t), TkvFindHit, i);
        from_view = g_object_ref(g_array_index(self->targets, TkvFindTarget, t).view);
        from_buf = g_ptr_array_index(self->buffers, t);
        from_line = h->line;
        from_start = h->start;
    }
    clear_hits(self);
    gint64 t0 = g_get_monotonic_time();
    int focused = -1;
    self->func(self->data, self->targets, &focused);
    for (guint t = 0; t < self->targets->len; t++) {
        TkvFindTarget *x = &g_array_index(self->targets, TkvFindTarget, t);
        g_object_ref(x->view);
        GtkTextBuffer *b = gtk_text_view_get_buffer(GTK_TEXT_VIEW(x->view));
        GArray *h = g_array_new(FALSE, FALSE, sizeof(TkvFindHit));
        if (self->query && self->total < MAX_HITS) {
            gsize len;
            const char *text = tkv_code_view_buffer_text(b, &len);
            gsize n = tkv_find_in_text(self->query, text, len, h, MAX_HITS - self->total);
            if (n == MAX_HITS - self->total)
                self->capped = TRUE;
            drop_hidden(b, h);
        }
        self->total += h->len;
        g_ptr_array_add(self->hits, h);
        g_ptr_array_add(self->buffers, b);
        tkv_code_view_set_find_hits(x->view, (const TkvFindHit *)(void *)h->data, h->len, -1);
    }
    int k = -1;
    for (guint t = 0; from_view && t < self->targets->len; t++)
        if (g_array_index(self->targets, TkvFindTarget, t).view == from_view &&
            g_ptr_array_index(self->buffers, t) == from_buf)
            k = first_from(self, t, from_line, from_start);
    if (k < 0 && !keep && self->total) {
        guint t = focused >= 0 && (guint)focused < self->targets->len ? (guint)focused : 0;
        TkvCodeView *v = g_array_index(self->targets, TkvFindTarget, t).view;
        k = first_from(self, t, tkv_code_view_get_cursor_line(v), 0);
    }
    self->last_ms = (double)(g_get_monotonic_time() - t0) / 1000.0;
    if (from_view)
        g_object_unref(from_view);
    if (k >= 0 && scroll)
        go_to(self, k);
    else if (k >= 0) {
        self->current = k;
        guint i, t = locate(self, k, &i);
        tkv_code_view_set_find_current(g_array_index(self->targets, TkvFindTarget, t).view,
                                       (int)i);
    }
    update_label(self);
}

static void set_query_from_ui(TkvFindBar *self)
{
    tkv_find_query_free(self->query);
    g_clear_pointer(&self->error, g_free);
    GError *error = NULL;
    self->query = tkv_find_query_new(
        gtk_editable_get_text(GTK_EDITABLE(self->entry)),
        gtk_toggle_button_get_active(GTK_TOGGLE_BUTTON(self->regex_button)),
        gtk_toggle_button_get_active(GTK_TOGGLE_BUTTON(self->case_button)), &error);
    if (error) {
        self->error = g_strdup(error->message);
        g_error_free(error);
    }
    search(self, FALSE, TRUE);
}

/* ---- the calls ----------------------------------------------------------------------------- */

gboolean tkv_find_bar_step(TkvFindBar *self, int dir)
{
    if (!self->total)
        return FALSE;
    int n = (int)self->total;
    int k = self->current < 0 ? (dir > 0 ? 0 : n - 1) : ((self->current + dir) % n + n) % n;
    go_to(self, k);
    return TRUE;
}

void tkv_find_bar_open(TkvFindBar *self)
{
    gboolean was_open = tkv_find_bar_is_open(self);
    gtk_search_bar_set_search_mode(GTK_SEARCH_BAR(self->search_bar), TRUE);
    gtk_widget_grab_focus(self->entry);
    gtk_editable_select_region(GTK_EDITABLE(self->entry), 0, -1);
    /* opened again on the text it had: its hits again */
    if (!was_open && *gtk_editable_get_text(GTK_EDITABLE(self->entry)))
        set_query_from_ui(self);
}

void tkv_find_bar_set_query(TkvFindBar *self, const char *text, gboolean regex,
                            gboolean match_case)
{
    self->setting = TRUE;
    gtk_search_bar_set_search_mode(GTK_SEARCH_BAR(self->search_bar), TRUE);
    gtk_toggle_button_set_active(GTK_TOGGLE_BUTTON(self->regex_button), regex);
    gtk_toggle_button_set_active(GTK_TOGGLE_BUTTON(self->case_button), match_case);
    gtk_editable_set_text(GTK_EDITABLE(self->entry), text ? text : "");
    self->setting = FALSE;
    self->current = -1; /* a new query: from the focused pane's cursor */
    set_query_from_ui(self);
}

void tkv_find_bar_refresh(TkvFindBar *self)
{
    if (tkv_find_bar_is_open(self) && self->query)
        search(self, TRUE, FALSE);
}

void tkv_find_bar_close(TkvFindBar *self)
{
    gtk_search_bar_set_search_mode(GTK_SEARCH_BAR(self->search_bar), FALSE);
}

gboolean tkv_find_bar_is_open(TkvFindBar *self)
{
    return gtk_search_bar_get_search_mode(GTK_SEARCH_BAR(self->search_bar));
}

const char *tkv_find_bar_get_text(TkvFindBar *self)
{
    return gtk_editable_get_text(GTK_EDITABLE(self->entry));
}

const char *tkv_find_bar_get_label(TkvFindBar *self) { return gtk_label_get_text(self->label); }
guint tkv_find_bar_get_total(TkvFindBar *self) { return self->total; }
double tkv_find_bar_get_last_ms(TkvFindBar *self) { return self->last_ms; }
guint tkv_find_bar_get_n_panes(TkvFindBar *self) { return self->targets->len; }

const char *tkv_find_bar_get_pane(TkvFindBar *self, guint i, guint *hits)
{
    if (i >= self->targets->len)
        return NULL;
    *hits = hits_of(self, i)->len;
    return g_array_index(self->targets, TkvFindTarget, i).name;
}

int tkv_find_bar_get_current(TkvFindBar *self, const char **pane, TkvFindHit *hit)
{
    if (self->current < 0) {
        *pane = NULL;
        return -1;
    }
    guint i, t = locate(self, self->current, &i);
    *pane = g_array_index(self->targets, TkvFindTarget, t).name;
    *hit = g_array_index(hits_of(self, t), TkvFindHit, i);
    return self->current;
}

/* ---- the widget ---------------------------------------------------------------------------- */

static void on_search_changed(TkvFindBar *self)
{
    if (!self->setting)
        set_query_from_ui(self);
}

static void on_toggled(TkvFindBar *self)
{
    if (!self->setting)
        set_query_from_ui(self);
}

static void on_next(TkvFindBar *self) { tkv_find_bar_step(self, 1); }
static void on_previous(TkvFindBar *self) { tkv_find_bar_step(self, -1); }

/* Enter: next; Shift+Enter: previous. */
static gboolean on_entry_key(GtkEventControllerKey *key, guint keyval, guint keycode,
                             GdkModifierType state, TkvFindBar *self)
{
    if (keyval != GDK_KEY_Return && keyval != GDK_KEY_KP_Enter && keyval != GDK_KEY_ISO_Enter)
        return FALSE;
    tkv_find_bar_step(self, state & GDK_SHIFT_MASK ? -1 : 1);
    return TRUE;
}

/* Closed: no hits painted, the query kept for Ctrl+F again. */
static void on_search_mode(TkvFindBar *self)
{
    if (tkv_find_bar_is_open(self))
        return;
    TkvCodeView *back = NULL;
    if (self->current >= 0) {
        guint i, t = locate(self, self->current, &i);
        back = g_array_index(self->targets, TkvFindTarget, t).view;
        g_object_ref(back);
    }
    clear_hits(self);
    update_label(self);
    if (back) {
        gtk_widget_grab_focus(GTK_WIDGET(back));
        g_object_unref(back);
    }
}

static GtkWidget *icon_button(const char *icon, const char *tip, GCallback cb, gpointer data)
{
    GtkWidget *b = gtk_button_new_from_icon_name(icon);
    gtk_widget_set_tooltip_text(b, tip);
    g_signal_connect_swapped(b, "clicked", cb, data);
    return b;
}

static void tkv_find_bar_dispose(GObject *object)
{
    TkvFindBar *self = TKV_FIND_BAR(object);
    if (self->targets)
        clear_hits(self);
    g_clear_pointer(&self->search_bar, gtk_widget_unparent);
    G_OBJECT_CLASS(tkv_find_bar_parent_class)->dispose(object);
}

static void tkv_find_bar_finalize(GObject *object)
{
    TkvFindBar *self = TKV_FIND_BAR(object);
    tkv_find_query_free(self->query);
    g_free(self->error);
    g_array_unref(self->targets);
    g_ptr_array_unref(self->hits);
    g_ptr_array_unref(self->buffers);
    G_OBJECT_CLASS(tkv_find_bar_parent_class)->finalize(object);
}

static void tkv_find_bar_class_init(TkvFindBarClass *klass)
{
    G_OBJECT_CLASS(klass)->dispose = tkv_find_bar_dispose;
    G_OBJECT_CLASS(klass)->finalize = tkv_find_bar_finalize;
    gtk_widget_class_set_layout_manager_type(GTK_WIDGET_CLASS(klass), GTK_TYPE_BIN_LAYOUT);
    gtk_widget_class_set_css_name(GTK_WIDGET_CLASS(klass), "tkvfindbar");
}

static void tkv_find_bar_init(TkvFindBar *self)
{
    self->targets = g_array_new(FALSE, FALSE, sizeof(TkvFindTarget));
    self->hits = g_ptr_array_new_with_free_func((GDestroyNotify)g_array_unref);
    self->buffers = g_ptr_array_new();
    self->current = -1;

    self->search_bar = gtk_search_bar_new();
    gtk_search_bar_set_show_close_button(GTK_SEARCH_BAR(self->search_bar), TRUE);
    gtk_widget_set_parent(self->search_bar, GTK_WIDGET(self));
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6);
    self->entry = gtk_search_entry_new();
    gtk_widget_set_hexpand(self->entry, TRUE);
    gtk_editable_set_width_chars(GTK_EDITABLE(self->entry), 30);
    g_object_set(self->entry, "placeholder-text", "Find in every pane", NULL);
    gtk_search_entry_set_search_delay(GTK_SEARCH_ENTRY(self->entry), 100);
    g_signal_connect_swapped(self->entry, "search-changed", G_CALLBACK(on_search_changed), self);
    g_signal_connect_swapped(self->entry, "next-match", G_CALLBACK(on_next), self);
    g_signal_connect_swapped(self->entry, "previous-match", G_CALLBACK(on_previous), self);
    GtkEventController *key = gtk_event_controller_key_new();
    gtk_event_controller_set_propagation_phase(key, GTK_PHASE_CAPTURE);
    g_signal_connect(key, "key-pressed", G_CALLBACK(on_entry_key), self);
    gtk_widget_add_controller(self->entry, key);
    gtk_box_append(GTK_BOX(box), self->entry);
    self->regex_button = gtk_toggle_button_new_with_label(".*");
    gtk_widget_set_tooltip_text(self->regex_button, "Regular expression");
    g_signal_connect_swapped(self->regex_button, "toggled", G_CALLBACK(on_toggled), self);
    gtk_box_append(GTK_BOX(box), self->regex_button);
    self->case_button = gtk_toggle_button_new_with_label("Aa");
    gtk_widget_set_tooltip_text(self->case_button, "Match case");
    g_signal_connect_swapped(self->case_button, "toggled", G_CALLBACK(on_toggled), self);
    gtk_box_append(GTK_BOX(box), self->case_button);
    self->label = GTK_LABEL(gtk_label_new(""));
    gtk_label_set_width_chars(self->label, 14);
    gtk_label_set_xalign(self->label, 0);
    gtk_widget_add_css_class(GTK_WIDGET(self->label), "dim-label");
    gtk_box_append(GTK_BOX(box), GTK_WIDGET(self->label));
    GtkWidget *nav = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0);
    gtk_widget_add_css_class(nav, "linked");
    gtk_box_append(GTK_BOX(nav), icon_button("go-up-symbolic", "Previous (Shift+Enter)",
                                             G_CALLBACK(on_previous), self));
    gtk_box_append(GTK_BOX(nav), icon_button("go-down-symbolic", "Next (Enter)",
                                             G_CALLBACK(on_next), self));
    gtk_box_append(GTK_BOX(box), nav);
    gtk_search_bar_set_child(GTK_SEARCH_BAR(self->search_bar), box);
    gtk_search_bar_connect_entry(GTK_SEARCH_BAR(self->search_bar), GTK_EDITABLE(self->entry));
    g_signal_connect_swapped(self->search_bar, "notify::search-mode-enabled",
                             G_CALLBACK(on_search_mode), self);
}

GtkWidget *tkv_find_bar_new(TkvFindTargetsFunc func, gpointer data)
{
    TkvFindBar *self = g_object_new(TKV_TYPE_FIND_BAR, NULL);
    self->func = func;
    self->data = data;
    return GTK_WIDGET(self);
}
