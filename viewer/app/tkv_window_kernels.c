/* tkv_window_kernels.c - the window's kernel list: every kernel of the
 * bundle (autotune configurations and repeated compiles are separate
 * kernels) in a GtkListView over a filtered model (the filter matches names
 * and hashes), and the kernel shown in the views and panels.  Selecting a row
 * activates win.select-kernel. */
#include "app/tkv_window_private.h"

#include "app/tkv_kernel_item.h"
#include "tkdump/tk_config.h"

void tkv_window_update_kernel_count(TkvWindow *self)
{
    guint all = g_list_model_get_n_items(G_LIST_MODEL(self->kernels));
    guint shown = g_list_model_get_n_items(G_LIST_MODEL(self->filtered));
    char *t = shown == all ? g_strdup_printf("%u kernel%s", all, all == 1 ? "" : "s")
                           : g_strdup_printf("%u of %u kernels", shown, all);
    gtk_label_set_text(self->kernel_count, t);
    g_free(t);
}

/* Selects the row of kernel INDEX in the list, if the filter shows it. */
static void select_row(TkvWindow *self, int index)
{
    guint n = g_list_model_get_n_items(G_LIST_MODEL(self->filtered));
    guint pos = GTK_INVALID_LIST_POSITION;
    for (guint i = 0; i < n && pos == GTK_INVALID_LIST_POSITION; i++) {
        TkvKernelItem *it = g_list_model_get_item(G_LIST_MODEL(self->filtered), i);
        if ((int)tkv_kernel_item_get_index(it) == index)
            pos = i;
        g_object_unref(it);
    }
    self->updating = TRUE;
    gtk_single_selection_set_selected(self->selection, pos);
    self->updating = FALSE;
}

void tkv_window_show_kernel(TkvWindow *self, int index)
{
    self->kernel = index;
    tkv_bind_view_set_kernel(self->bind_view, self->doc, (guint)index);
    tkv_pass_view_set_kernel(self->pass_view, self->doc, (guint)index);
    tkv_compare_view_set_kernel(self->compare_view, self->doc, (guint)index);
    tkv_meta_panel_show(self->meta_panel, self->doc, (guint)index);
    tkv_hot_panel_show(self->hot_panel, self->doc, (guint)index,
                       tkv_bind_view_get_metric(self->bind_view));
    tkv_stack_panel_clear(self->stack_panel, "Select an IR line to see where it came from.");
    tkv_diag_panel_show(self->diag_panel, self->doc, (guint)index);
    tkv_configs_view_set_document(self->configs_view, self->doc);
    const tk_kernel *k = tkv_document_get_kernel(self->doc, (guint)index);
    /* the hash prefix and the options that set this compile apart from the
     * other compiles of its name (the library's, as the report's titles) */
    tk_config *apart = tk_config_apart_in(tkv_document_get_bundle(self->doc), k, NULL);
    char *label = tk_config_label(apart);
    tk_config_free(apart);
    char *title = *label ? g_strdup_printf("%s %.8s (%s)", tk_kernel_name(k), tk_kernel_hash(k),
                                           label)
                         : g_strdup_printf("%s %.8s", tk_kernel_name(k), tk_kernel_hash(k));
    char *sub = g_strdup_printf("%.12s · %s", tk_kernel_hash(k), tkv_document_get_path(self->doc));
    tkv_window_set_titles(self, title, sub);
    g_free(sub);
    g_free(title);
    g_free(label);
    select_row(self, index);
}

static void on_selected_item(GtkSingleSelection *sel, GParamSpec *pspec, TkvWindow *self)
{
    if (self->updating)
        return;
    TkvKernelItem *it = gtk_single_selection_get_selected_item(sel);
    if (!it || (int)tkv_kernel_item_get_index(it) == self->kernel)
        return;
    char spec[32];
    g_snprintf(spec, sizeof spec, "%u", tkv_kernel_item_get_index(it));
    gtk_widget_activate_action(GTK_WIDGET(self), "win.select-kernel", "s", spec);
}

static void on_filter_changed(GtkSearchEntry *entry, TkvWindow *self)
{
    gtk_string_filter_set_search(self->filter, gtk_editable_get_text(GTK_EDITABLE(entry)));
    tkv_window_update_kernel_count(self);
    select_row(self, self->kernel);
}

static void setup_row(GtkSignalListItemFactory *f, GtkListItem *li, gpointer data)
{
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2);
    GtkWidget *name = gtk_label_new(NULL);
    gtk_label_set_xalign(GTK_LABEL(name), 0);
    gtk_label_set_ellipsize(GTK_LABEL(name), PANGO_ELLIPSIZE_END);
    gtk_widget_add_css_class(name, "tkv-kernel-name");
    GtkWidget *sub = gtk_label_new(NULL);
    gtk_label_set_xalign(GTK_LABEL(sub), 0);
    gtk_label_set_ellipsize(GTK_LABEL(sub), PANGO_ELLIPSIZE_END);
    gtk_widget_add_css_class(sub, "dim-label");
    gtk_widget_add_css_class(sub, "caption");
    gtk_box_append(GTK_BOX(box), name);
    gtk_box_append(GTK_BOX(box), sub);
    gtk_list_item_set_child(li, box);
}

static void bind_row(GtkSignalListItemFactory *f, GtkListItem *li, gpointer data)
{
    TkvKernelItem *it = gtk_list_item_get_item(li);
    GtkWidget *box = gtk_list_item_get_child(li);
    GtkWidget *name = gtk_widget_get_first_child(box);
    GtkWidget *sub = gtk_widget_get_next_sibling(name);
    gtk_label_set_text(GTK_LABEL(name), tkv_kernel_item_get_name(it));
    char *s = g_strdup_printf("%.10s · %s", tkv_kernel_item_get_hash(it),
                              tkv_kernel_item_get_subtitle(it));
    gtk_label_set_text(GTK_LABEL(sub), s);
    gtk_widget_set_tooltip_text(box, tkv_kernel_item_get_hash(it));
    g_free(s);
}

void tkv_window_kernels_init(TkvWindow *self)
{
    self->kernels = g_list_store_new(TKV_TYPE_KERNEL_ITEM);
    self->filter = gtk_string_filter_new(
        gtk_property_expression_new(TKV_TYPE_KERNEL_ITEM, NULL, "search-text"));
    gtk_string_filter_set_match_mode(self->filter, GTK_STRING_FILTER_MATCH_MODE_SUBSTRING);
    gtk_string_filter_set_ignore_case(self->filter, TRUE);
    self->filtered = gtk_filter_list_model_new(G_LIST_MODEL(g_object_ref(self->kernels)),
                                               GTK_FILTER(self->filter));
    self->selection = gtk_single_selection_new(G_LIST_MODEL(self->filtered));
    gtk_single_selection_set_autoselect(self->selection, FALSE);
    gtk_single_selection_set_can_unselect(self->selection, TRUE);
    g_signal_connect(self->selection, "notify::selected-item", G_CALLBACK(on_selected_item), self);
    GtkListItemFactory *factory = gtk_signal_list_item_factory_new();
    g_signal_connect(factory, "setup", G_CALLBACK(setup_row), NULL);
    g_signal_connect(factory, "bind", G_CALLBACK(bind_row), NULL);
    gtk_list_view_set_factory(self->kernel_list, factory);
    g_object_unref(factory);
    gtk_list_view_set_model(self->kernel_list, GTK_SELECTION_MODEL(self->selection));
    g_signal_connect(self->kernel_filter, "search-changed", G_CALLBACK(on_filter_changed), self);
}

void tkv_window_mark_failed_kernels(TkvWindow *self, gboolean (*failed)(TkvDocument *, guint))
{
    guint n = g_list_model_get_n_items(G_LIST_MODEL(self->kernels));
    gboolean any = FALSE;
    self->updating = TRUE;
    for (guint i = 0; i < n; i++) {
        TkvKernelItem *it = g_list_model_get_item(G_LIST_MODEL(self->kernels), i);
        if (failed(self->doc, tkv_kernel_item_get_index(it))) {
            tkv_kernel_item_set_failed(it);
            /* the row is bound once: the item put back binds it again */
            g_list_store_splice(self->kernels, i, 1, (gpointer *)&it, 1);
            any = TRUE;
        }
        g_object_unref(it);
    }
    if (any && self->kernel >= 0)
        select_row(self, self->kernel);
    self->updating = FALSE;
}

GListModel *tkv_window_get_kernel_items(TkvWindow *self)
{
    return G_LIST_MODEL(self->kernels);
}
