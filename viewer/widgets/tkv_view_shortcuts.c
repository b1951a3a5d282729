/* tkv_view_shortcuts.c - the keyboard shortcuts of a view's actions. */
#include "widgets/tkv_view_shortcuts.h"

/* A plain key's action: refused (the key goes on to the entry) while the
 * focus is in something one types into. */
static gboolean plain_key(GtkWidget *widget, GVariant *args, gpointer action)
{
    GtkRoot *root = gtk_widget_get_root(widget);
    GtkWidget *focus = root ? gtk_root_get_focus(root) : NULL;
    if (focus && (GTK_IS_EDITABLE(focus) ||
                  (GTK_IS_TEXT_VIEW(focus) && gtk_text_view_get_editable(GTK_TEXT_VIEW(focus)))))
        return FALSE;
    return gtk_widget_activate_action_variant(widget, action, args);
}

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
        GtkShortcutAction *a =
            shortcuts[i].plain
                ? gtk_callback_action_new(plain_key, (gpointer)shortcuts[i].action, NULL)
                : gtk_named_action_new(shortcuts[i].action);
        GtkShortcut *s = gtk_shortcut_new(trigger, a);
        if (shortcuts[i].target) {
            GVariant *args = g_variant_parse(NULL, shortcuts[i].target, NULL, NULL, NULL);
            gtk_shortcut_set_arguments(s, args);
            g_variant_unref(args);
        }
        gtk_shortcut_controller_add_shortcut(GTK_SHORTCUT_CONTROLLER(c), s);
    }
    gtk_widget_add_controller(view, c);
}
