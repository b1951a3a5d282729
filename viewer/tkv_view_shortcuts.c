/* tkv_view_shortcuts.c - the keyboard shortcuts of a view's actions. */
#include "tkv_view_shortcuts.h"

void tkv_view_shortcuts_add(GtkWidget *view, const TkvViewShortcut *shortcuts, size_t n)
{
    GtkEventController *c = gtk_shortcut_controller_new();
    gtk_shortcut_controller_set_scope(GTK_SHORTCUT_CONTROLLER(c), GTK_SHORTCUT_SCOPE_GLOBAL);
    gtk_event_controller_set_propagation_phase(c, GTK_PHASE_CAPTURE);
    for (size_t i = 0; i < n; i++) {
        GtkShortcutTrigger *trigger = gtk_shortcut_trigger_parse_string(shortcuts[i].keys);
        if (!trigger) {
            g_critical("tkv_view_shortcuts_add: bad keys \"%s\"", shortcuts[i].keys);
            continue;
        }
        GtkShortcut *s = gtk_shortcut_new(trigger, gtk_named_action_new(shortcuts[i].action));
        if (shortcuts[i].target) {
            GVariant *args = g_variant_parse(NULL, shortcuts[i].target, NULL, NULL, NULL);
            gtk_shortcut_set_arguments(s, args);
            g_variant_unref(args);
        }
        gtk_shortcut_controller_add_shortcut(GTK_SHORTCUT_CONTROLLER(c), s);
    }
    gtk_widget_add_controller(view, c);
}
