/* tkv_pass_view_list.c - the pass list: every pass of the timeline in
 * pipeline order (SoftwarePipeliner's sub-steps indented), its IR level, its
 * dump's place and its effect; "changed only" hides the passes that changed
 * nothing.  Selecting rows (a click, Shift+click for a range) activates the
 * view's pass-view.select-pass action; a selection made otherwise is shown
 * here. */
#include "passes/tkv_pass_view_private.h"

#include "passes/tkv_pass_item.h"

static void update_count(TkvPassView *self)
{
    if (!self->tl)
        return;
    size_t n = tk_timeline_count(self->tl), changed = 0;
    for (size_t i = 0; i < n; i++)
        changed += tk_timeline_get(self->tl, i)->effect == TK_EFFECT_CHANGED;
    char *t = g_strdup_printf("%zu of %zu changed", changed, n);
    char *tip = g_strdup_printf("%zu passes ran, %zu of them changed the IR", n, changed);
    gtk_label_set_text(self->count_label, t);
    gtk_widget_set_tooltip_text(GTK_WIDGET(self->count_label), tip);
    g_free(t);
    g_free(tip);
}

static void on_selection_changed(GtkSelectionModel *model, guint pos, guint n, TkvPassView *self)
{
    if (self->updating)
        return;
    GtkBitset *set = gtk_selection_model_get_selection(model);
    guint count = (guint)gtk_bitset_get_size(set);
    if (count) {
        TkvPassItem *first = g_list_model_get_item(G_LIST_MODEL(self->filtered),
                                                   gtk_bitset_get_minimum(set));
        TkvPassItem *last = g_list_model_get_item(G_LIST_MODEL(self->filtered),
                                                  gtk_bitset_get_maximum(set));
        char *spec;
        if (count == 1 || first == last)
            spec = g_strdup(tkv_pass_item_get_spec(first));
        else
            spec = g_strdup_printf("%zu-%zu", tkv_pass_item_get_pass(first),
                                   tkv_pass_item_get_pass(last));
        if (g_strcmp0(spec, self->spec) != 0)
            gtk_widget_activate_action(GTK_WIDGET(self), "pass-view.select-pass", "s", spec);
        g_free(spec);
        g_object_unref(first);
        g_object_unref(last);
    }
    gtk_bitset_unref(set);
}

/* The title's tooltip (its whole text, cut in the row), made when asked
 * for: a tooltip text set at every bind made GTK 4.8 ask the X server where
 * the pointer is, for each row bound when a selection scrolls the list
 * (11% of a pass selection's main thread; tkv_hot_panel.c met the same). */
static gboolean on_title_tooltip(GtkWidget *title, int x, int y, gboolean keyboard,
                                 GtkTooltip *tip, gpointer data)
{
    const char *t = gtk_label_get_text(GTK_LABEL(title));
    if (!t || !*t)
        return FALSE;
    gtk_tooltip_set_text(tip, t);
    return TRUE;
}

static void setup_row(GtkSignalListItemFactory *f, GtkListItem *li, gpointer data)
{
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6);
    GtkWidget *index = gtk_label_new(NULL);
    gtk_widget_add_css_class(index, "dim-label");
    gtk_widget_add_css_class(index, "tkv-pass-count");
    gtk_label_set_width_chars(GTK_LABEL(index), 4);
    gtk_label_set_xalign(GTK_LABEL(index), 1);
    gtk_label_set_yalign(GTK_LABEL(index), 0);
    GtkWidget *col = gtk_box_new(GTK_ORIENTATION_VERTICAL, 1);
    gtk_widget_set_hexpand(col, TRUE);
    GtkWidget *title = gtk_label_new(NULL);
    gtk_label_set_xalign(GTK_LABEL(title), 0);
    gtk_label_set_ellipsize(GTK_LABEL(title), PANGO_ELLIPSIZE_END);
    gtk_widget_set_has_tooltip(title, TRUE);
    g_signal_connect(title, "query-tooltip", G_CALLBACK(on_title_tooltip), NULL);
    GtkWidget *sub = gtk_label_new(NULL);
    gtk_label_set_xalign(GTK_LABEL(sub), 0);
    gtk_label_set_ellipsize(GTK_LABEL(sub), PANGO_ELLIPSIZE_END);
    gtk_widget_add_css_class(sub, "dim-label");
    gtk_widget_add_css_class(sub, "caption");
    gtk_box_append(GTK_BOX(col), title);
    gtk_box_append(GTK_BOX(col), sub);
    GtkWidget *effect = gtk_label_new(NULL);
    gtk_widget_add_css_class(effect, "tkv-pass-count");
    gtk_label_set_yalign(GTK_LABEL(effect), 0);
    gtk_box_append(GTK_BOX(box), index);
    gtk_box_append(GTK_BOX(box), col);
    gtk_box_append(GTK_BOX(box), effect);
    gtk_list_item_set_child(li, box);
}

static void bind_row(GtkSignalListItemFactory *f, GtkListItem *li, gpointer data)
{
    TkvPassItem *it = gtk_list_item_get_item(li);
    GtkWidget *box = gtk_list_item_get_child(li);
    GtkWidget *index = gtk_widget_get_first_child(box);
    GtkWidget *col = gtk_widget_get_next_sibling(index);
    GtkWidget *effect = gtk_widget_get_next_sibling(col);
    GtkWidget *title = gtk_widget_get_first_child(col);
    GtkWidget *sub = gtk_widget_get_next_sibling(title);
    gtk_label_set_text(GTK_LABEL(index), tkv_pass_item_get_spec(it));
    gtk_label_set_text(GTK_LABEL(title), tkv_pass_item_get_title(it));
    gtk_label_set_text(GTK_LABEL(sub), tkv_pass_item_get_subtitle(it));
    gtk_label_set_text(GTK_LABEL(effect), tkv_pass_item_get_effect_text(it));
    gtk_widget_set_margin_start(box, tkv_pass_item_get_substep(it) == TK_TL_NONE ? 0 : 16);
    tk_effect e = tkv_pass_item_get_effect(it);
    gtk_widget_remove_css_class(effect, "dim-label");
    gtk_widget_remove_css_class(effect, "tkv-pass-added");
    gtk_widget_add_css_class(effect, e == TK_EFFECT_CHANGED ? "tkv-pass-added" : "dim-label");
}

void tkv_pass_view_fill_list(TkvPassView *self)
{
    g_list_store_remove_all(self->items);
    size_t n = tk_timeline_count(self->tl);
    for (size_t i = 0; i < n; i++) {
        TkvPassItem *it = tkv_pass_item_new(self->tl, i, TK_TL_NONE);
        g_list_store_append(self->items, it);
        g_object_unref(it);
        for (size_t j = 0; j < tk_timeline_get(self->tl, i)->n_substeps; j++) {
            it = tkv_pass_item_new(self->tl, i, j);
            g_list_store_append(self->items, it);
            g_object_unref(it);
        }
    }
    update_count(self);
}

void tkv_pass_view_select_rows(TkvPassView *self, size_t a, size_t sub, size_t b)
{
    guint n = g_list_model_get_n_items(G_LIST_MODEL(self->filtered));
    GtkBitset *set = gtk_bitset_new_empty();
    GtkBitset *mask = gtk_bitset_new_range(0, n);
    guint first = GTK_INVALID_LIST_POSITION;
    for (guint i = 0; i < n; i++) {
        TkvPassItem *it = g_list_model_get_item(G_LIST_MODEL(self->filtered), i);
        size_t p = tkv_pass_item_get_pass(it), s = tkv_pass_item_get_substep(it);
        gboolean hit = sub != TK_TL_NONE ? (p == a && s == sub)
                                         : (s == TK_TL_NONE && p >= a && p <= b);
        if (hit) {
            gtk_bitset_add(set, i);
            if (first == GTK_INVALID_LIST_POSITION)
                first = i;
        }
        g_object_unref(it);
    }
    self->updating = TRUE;
    gtk_selection_model_set_selection(GTK_SELECTION_MODEL(self->selection), set, mask);
    self->updating = FALSE;
    if (first != GTK_INVALID_LIST_POSITION)
        gtk_widget_activate_action(GTK_WIDGET(self->pass_list), "list.scroll-to-item", "u", first);
    gtk_bitset_unref(set);
    gtk_bitset_unref(mask);
}

void tkv_pass_view_set_changed_only(TkvPassView *self, gboolean changed_only)
{
    gboolean changed = self->changed_only != changed_only;
    self->changed_only = changed_only;
    gtk_filter_list_model_set_filter(self->filtered,
                                     changed_only ? GTK_FILTER(self->changed_filter) : NULL);
    size_t a, sub, b;
    if (self->spec && tkv_pass_view_parse_spec(self->tl, self->spec, &a, &sub, &b))
        tkv_pass_view_select_rows(self, a, sub, b);
    if (changed)
        g_object_notify(G_OBJECT(self), "changed-only");
}

void tkv_pass_view_list_init(TkvPassView *self)
{
    self->items = g_list_store_new(TKV_TYPE_PASS_ITEM);
    self->changed_filter = gtk_bool_filter_new(
        gtk_property_expression_new(TKV_TYPE_PASS_ITEM, NULL, "changed"));
    self->filtered = gtk_filter_list_model_new(G_LIST_MODEL(g_object_ref(self->items)), NULL);
    g_object_set_data_full(G_OBJECT(self->filtered), "tkv-filter", self->changed_filter,
                           g_object_unref);
    self->selection = gtk_multi_selection_new(G_LIST_MODEL(self->filtered));
    g_signal_connect(self->selection, "selection-changed", G_CALLBACK(on_selection_changed), self);
    GtkListItemFactory *factory = gtk_signal_list_item_factory_new();
    g_signal_connect(factory, "setup", G_CALLBACK(setup_row), NULL);
    g_signal_connect(factory, "bind", G_CALLBACK(bind_row), NULL);
    gtk_list_view_set_factory(self->pass_list, factory);
    g_object_unref(factory);
    gtk_list_view_set_model(self->pass_list, GTK_SELECTION_MODEL(self->selection));
}
