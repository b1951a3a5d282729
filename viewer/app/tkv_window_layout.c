/* tkv_window_layout.c - the window's side panel (the kernel list and the
 * panels below it): shown or hidden (F9, the header's toggle), its width,
 * both remembered (tkv_settings.h), and folded away on its own while the
 * window is narrow.
 *
 * Below NARROW_WIDTH the side panel's 300 px are a quarter of the window
 * or more, taken from code panes that then show twenty characters of a
 * line (a compare diff's sides, the pass diff's, TTGIR beside SASS): the
 * panel is hidden when the window becomes narrow and shown again, as
 * remembered, when it becomes wide.  F9 or a side page asked for
 * (Ctrl+Shift+H, ...) shows it in a narrow window too; what the user
 * chooses there holds until the window is wide again, and is not
 * remembered: the setting says what a wide window shows.
 */
#include "app/tkv_window_private.h"

#include "app/tkv_application.h"

/* 1280 (a laptop) is narrow, 1600 is not; 1440, whose 300 px side panel
 * leaves the code two 560 px panes, is the first width that is not. */
#define NARROW_WIDTH 1440

static GSettings *settings_of(TkvWindow *self)
{
    GtkApplication *app = gtk_window_get_application(GTK_WINDOW(self));
    return app ? tkv_application_get_settings(TKV_APPLICATION(app)) : NULL;
}

static void set_sidebar(TkvWindow *self, gboolean on)
{
    gtk_widget_set_visible(gtk_paned_get_start_child(self->main_paned), on);
    tkv_window_set_action_state(self, "show-sidebar", g_variant_new_boolean(on));
}

/* The kernel list and side panel hidden (F9): all the width for the code. */
void tkv_window_act_show_sidebar(GSimpleAction *a, GVariant *v, gpointer data)
{
    TkvWindow *self = data;
    gboolean on = g_variant_get_boolean(v);
    /* asked for: that wins over a change for a new width not yet made */
    g_clear_handle_id(&self->narrow_idle, g_source_remove);
    set_sidebar(self, on);
    GSettings *s = settings_of(self);
    if (s && self->narrow != 1 && g_settings_get_boolean(s, "sidebar-visible") != on)
        g_settings_set_boolean(s, "sidebar-visible", on);
}

void tkv_window_reveal_sidebar(TkvWindow *self)
{
    if (!gtk_widget_get_visible(gtk_paned_get_start_child(self->main_paned)))
        g_action_group_change_action_state(G_ACTION_GROUP(self), "show-sidebar",
                                           g_variant_new_boolean(TRUE));
}

/* Not from size_allocate itself: showing or hiding a child there would
 * queue a resize in the middle of one. */
static gboolean apply_width(gpointer data)
{
    TkvWindow *self = data;
    self->narrow_idle = 0;
    GSettings *s = settings_of(self);
    set_sidebar(self, !self->narrow && (!s || g_settings_get_boolean(s, "sidebar-visible")));
    return G_SOURCE_REMOVE;
}

void tkv_window_layout_width(TkvWindow *self, int width)
{
    int narrow = width < NARROW_WIDTH;
    if (narrow == self->narrow)
        return;
    self->narrow = narrow;
    /* before the next frame is laid out (GDK_PRIORITY_REDRAW is lower):
     * at the default idle priority a busy start (a stage's text measured,
     * highlighted) kept it waiting while frames at the new width came */
    if (!self->narrow_idle)
        self->narrow_idle = g_idle_add_full(G_PRIORITY_HIGH_IDLE, apply_width, self, NULL);
}

/* The side panel's width dragged: remembered (while it is shown). */
static void on_sidebar_moved(GtkPaned *paned, GParamSpec *pspec, TkvWindow *self)
{
    GSettings *s = settings_of(self);
    int pos = gtk_paned_get_position(paned);
    if (s && pos > 0 && gtk_widget_get_visible(gtk_paned_get_start_child(paned)) &&
        gtk_widget_get_mapped(GTK_WIDGET(paned)) && g_settings_get_int(s, "sidebar-width") != pos)
        g_settings_set_int(s, "sidebar-width", pos);
}

void tkv_window_layout_init(TkvWindow *self)
{
    GSettings *s = settings_of(self);
    if (s) {
        gtk_paned_set_position(self->main_paned, g_settings_get_int(s, "sidebar-width"));
        g_action_group_change_action_state(
            G_ACTION_GROUP(self), "show-sidebar",
            g_variant_new_boolean(g_settings_get_boolean(s, "sidebar-visible")));
    }
    g_signal_connect(self->main_paned, "notify::position", G_CALLBACK(on_sidebar_moved), self);
}
