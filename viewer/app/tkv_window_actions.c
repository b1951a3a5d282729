/* tkv_window_actions.c - the window's actions (win.*): those about the
 * window itself.  GtkApplication exports them on D-Bus
 * (/org/tkview/Viewer/window/ID), and the application sets their keys
 * (tkv_application.c).
 *
 * The views' own commands are actions installed on the views
 * (tkv_bind_view_actions.c, tkv_pass_view_actions.c).  What stays here: the
 * kernel shown (the kernel list is the window's), the mode and the side
 * panel shown (and whether it is shown at all: F9, remembered with
 * GSettings), reload and close; the two toggles of the header bar and the
 * main menu (exact-only, show-second-view, show-locations), which are the window's widgets
 * and cannot reach a view's actions (GTK looks an action up from a widget
 * towards the window, never down); and select-source-location, which the
 * stack panel's frames activate and which goes to the view of the mode
 * shown.
 */
#include "app/tkv_window_private.h"

#include <string.h>

#include "app/tkv_application.h"
#include "widgets/tkv_action_error.h"

void tkv_window_set_action_state(TkvWindow *self, const char *name, GVariant *state)
{
    GAction *a = g_action_map_lookup_action(G_ACTION_MAP(self), name);
    g_simple_action_set_state(G_SIMPLE_ACTION(a), state);
}

static void act_select_kernel(GSimpleAction *a, GVariant *p, gpointer data)
{
    TkvWindow *self = data;
    tk_bundle *b = tkv_document_get_bundle(self->doc);
    if (!b)
        return;
    size_t matches = 0;
    const tk_kernel *k = tk_bundle_find_kernel(b, g_variant_get_string(p, NULL), &matches);
    for (size_t i = 0; k && i < tk_bundle_kernel_count(b); i++)
        if (tk_bundle_kernel(b, i) == k) {
            if ((int)i != self->kernel)
                tkv_window_show_kernel(self, (int)i);
            return;
        }
    tkv_action_error(GTK_WIDGET(self), "select-kernel: \"%s\" names %zu kernels",
                     g_variant_get_string(p, NULL), matches);
}

static void act_select_source_location(GSimpleAction *a, GVariant *p, gpointer data)
{
    TkvWindow *self = data;
    if (self->kernel < 0)
        return;
    if (tkv_window_in_pass_mode(self))
        gtk_widget_activate_action_variant(GTK_WIDGET(self->pass_view),
                                           "pass-view.select-source-location", p);
    else
        gtk_widget_activate_action_variant(GTK_WIDGET(self->bind_view),
                                           "bind-view.select-source-location", p);
}

static void act_show_second(GSimpleAction *a, GVariant *v, gpointer data)
{
    TkvWindow *self = data;
    tkv_bind_view_set_second_visible(self->bind_view, g_variant_get_boolean(v));
    g_simple_action_set_state(a, v);
}

static void act_exact(GSimpleAction *a, GVariant *v, gpointer data)
{
    TkvWindow *self = data;
    tkv_bind_view_set_exact(self->bind_view, g_variant_get_boolean(v));
    g_simple_action_set_state(a, v);
}

static void act_show_locations(GSimpleAction *a, GVariant *v, gpointer data)
{
    TkvWindow *self = data;
    tkv_bind_view_set_show_locations(self->bind_view, g_variant_get_boolean(v));
    g_simple_action_set_state(a, v);
}

static void act_focus_filter(GSimpleAction *a, GVariant *p, gpointer data)
{
    TkvWindow *self = data;
    gtk_widget_grab_focus(GTK_WIDGET(self->kernel_filter));
}

static void act_mode(GSimpleAction *a, GVariant *v, gpointer data)
{
    TkvWindow *self = data;
    const char *mode = g_variant_get_string(v, NULL);
    if (strcmp(mode, "bind") != 0 && strcmp(mode, "passes") != 0 &&
        strcmp(mode, "compare") != 0 && strcmp(mode, "configs") != 0) {
        tkv_action_error(GTK_WIDGET(self),
                         "mode: \"%s\" is not bind, passes, compare or configs", mode);
        return;
    }
    gtk_stack_set_visible_child_name(self->mode_stack, mode);
    g_simple_action_set_state(a, v);
    if (strcmp(mode, "passes") == 0)
        tkv_pass_view_activate(self->pass_view);
    if (strcmp(mode, "compare") == 0)
        tkv_compare_view_activate(self->compare_view);
    if (strcmp(mode, "configs") == 0)
        tkv_configs_view_activate(self->configs_view);
    tkv_window_update_stack_panel(self);
}

static void act_sidebar_page(GSimpleAction *a, GVariant *v, gpointer data)
{
    TkvWindow *self = data;
    const char *page = g_variant_get_string(v, NULL);
    if (!gtk_stack_get_child_by_name(self->info_stack, page))
        return;
    gtk_stack_set_visible_child_name(self->info_stack, page);
    g_simple_action_set_state(a, v);
    /* a page asked for is a page to see: the side panel comes back if the
     * window's narrowness had folded it away */
    tkv_window_reveal_sidebar(self);
}

static void act_reload(GSimpleAction *a, GVariant *p, gpointer data)
{
    TkvWindow *self = data;
    if (!self->doc)
        return;
    char *path = g_strdup(tkv_document_get_path(self->doc));
    TkvApplication *app = TKV_APPLICATION(gtk_window_get_application(GTK_WINDOW(self)));
    tkv_window_load(self, path, tkv_application_get_source_dirs(app));
    g_free(path);
}

static void act_close(GSimpleAction *a, GVariant *p, gpointer data)
{
    gtk_window_close(GTK_WINDOW(data));
}

static void act_none(GSimpleAction *a, GVariant *p, gpointer data) {}

static const GActionEntry win_actions[] = {
    {"select-kernel", act_select_kernel, "s", NULL, NULL, {0}},
    {"select-source-location", act_select_source_location, "(su)", NULL, NULL, {0}},
    {"show-second-view", NULL, NULL, "false", act_show_second, {0}},
    {"exact-only", NULL, NULL, "false", act_exact, {0}},
    {"show-locations", NULL, NULL, "false", act_show_locations, {0}},
    {"focus-kernel-filter", act_focus_filter, NULL, NULL, NULL, {0}},
    {"mode", NULL, "s", "'bind'", act_mode, {0}},
    {"sidebar-page", NULL, "s", "'stack'", act_sidebar_page, {0}},
    {"show-sidebar", NULL, NULL, "true", tkv_window_act_show_sidebar, {0}},
    {"reload", act_reload, NULL, NULL, NULL, {0}},
    {"close", act_close, NULL, NULL, NULL, {0}},
    {"none", act_none, NULL, NULL, NULL, {0}},
};

void tkv_window_actions_update(TkvWindow *self, gboolean ready)
{
    static const char *const need_doc[] = {"select-kernel", "select-source-location",
                                           "show-second-view", "exact-only", "show-locations",
                                           "focus-kernel-filter", "mode", "sidebar-page"};
    for (size_t i = 0; i < G_N_ELEMENTS(need_doc); i++) {
        GAction *a = g_action_map_lookup_action(G_ACTION_MAP(self), need_doc[i]);
        g_simple_action_set_enabled(G_SIMPLE_ACTION(a), ready);
    }
}

void tkv_window_actions_init(TkvWindow *self)
{
    g_action_map_add_action_entries(G_ACTION_MAP(self), win_actions, G_N_ELEMENTS(win_actions),
                                    self);
}
