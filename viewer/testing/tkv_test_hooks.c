/* tkv_test_hooks.c - the test actions: state, screenshots, widget actions. */
#include "testing/tkv_test_hooks.h"

#include <glib/gstdio.h>
#include <string.h>
#include <json-glib/json-glib.h>

#include "testing/tkv_snapshot.h"
#include "testing/tkv_test_state.h"

static gboolean write_atomically(const char *path, const char *data, gsize len, GError **error)
{
    char *tmp = g_strdup_printf("%s.tmp", path);
    gboolean ok = g_file_set_contents(tmp, data, (gssize)len, error) &&
                  g_rename(tmp, path) == 0;
    g_free(tmp);
    return ok;
}

static gint by_id(gconstpointer a, gconstpointer b)
{
    guint x = gtk_application_window_get_id(GTK_APPLICATION_WINDOW(a));
    guint y = gtk_application_window_get_id(GTK_APPLICATION_WINDOW(b));
    return x < y ? -1 : x > y;
}

gboolean tkv_test_hooks_write_state(GtkApplication *app, const char *path, GError **error)
{
    JsonBuilder *b = json_builder_new();
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "windows");
    json_builder_begin_array(b);
    GList *windows = g_list_copy(gtk_application_get_windows(app));
    windows = g_list_sort(windows, by_id); /* oldest first */
    for (GList *l = windows; l; l = l->next) {
        if (!TKV_IS_WINDOW(l->data))
            continue;
        json_builder_begin_object(b);
        tkv_test_state_write_window(TKV_WINDOW(l->data), b);
        json_builder_end_object(b);
    }
    g_list_free(windows);
    json_builder_end_array(b);
    json_builder_end_object(b);
    JsonGenerator *gen = json_generator_new();
    JsonNode *root = json_builder_get_root(b);
    json_generator_set_root(gen, root);
    json_generator_set_pretty(gen, TRUE);
    gsize len;
    char *text = json_generator_to_data(gen, &len);
    gboolean ok = write_atomically(path, text, len, error);
    g_free(text);
    json_node_unref(root);
    g_object_unref(gen);
    g_object_unref(b);
    return ok;
}

static void act_state(GSimpleAction *a, GVariant *p, gpointer app)
{
    GError *error = NULL;
    if (!tkv_test_hooks_write_state(app, g_variant_get_string(p, NULL), &error)) {
        g_printerr("tkview-viewer: test-state: %s\n", error->message);
        g_error_free(error);
    }
}

typedef struct {
    GtkWidget *window;
    GdkFrameClock *clock;
    gulong handler;
    char *path;
    int frames;
} Shot;

static void shot_free(Shot *s)
{
    g_signal_handler_disconnect(s->clock, s->handler);
    g_object_unref(s->clock);
    g_object_unref(s->window);
    g_free(s->path);
    g_free(s);
}

/* Right after a frame was painted, layout is valid and every widget has
 * fresh render nodes: the moment to snapshot.  Two frames are waited for, so
 * that what the last actions changed (a scroll to a mark, say) has settled. */
static gboolean shot_take(gpointer data)
{
    Shot *s = data;
    char *tmp = g_strdup_printf("%s.tmp.png", s->path);
    GError *error = NULL;
    if (tkv_snapshot_to_png(s->window, tmp, &error)) {
        if (g_rename(tmp, s->path) != 0)
            g_printerr("tkview-viewer: test-screenshot: cannot rename %s\n", tmp);
    } else {
        g_printerr("tkview-viewer: test-screenshot: %s\n", error->message);
        g_error_free(error);
    }
    g_free(tmp);
    shot_free(s);
    return G_SOURCE_REMOVE;
}

static void shot_after_paint(GdkFrameClock *clock, Shot *s)
{
    if (++s->frames == 2)
        g_idle_add_full(G_PRIORITY_HIGH, shot_take, s, NULL);
    else if (s->frames < 2)
        gtk_widget_queue_draw(s->window);
}

static void act_screenshot(GSimpleAction *a, GVariant *p, gpointer app)
{
    guint32 id;
    const char *path;
    g_variant_get(p, "(u&s)", &id, &path);
    GtkWindow *win = id ? gtk_application_get_window_by_id(app, id)
                        : gtk_application_get_active_window(app);
    GdkFrameClock *clock = win ? gtk_widget_get_frame_clock(GTK_WIDGET(win)) : NULL;
    if (!clock) {
        g_printerr("tkview-viewer: test-screenshot: no window %u on screen\n", id);
        return;
    }
    Shot *s = g_new0(Shot, 1);
    s->window = g_object_ref(GTK_WIDGET(win));
    s->clock = g_object_ref(clock);
    s->path = g_strdup(path);
    s->handler = g_signal_connect(clock, "after-paint", G_CALLBACK(shot_after_paint), s);
    gtk_widget_queue_draw(GTK_WIDGET(win));
}

/* test-resize (window, width, height): the window's size, as a person
 * dragging its corner would set it (the screenshot tests' 1280x800 and
 * 1600x1000).  A window with no window manager takes its default size. */
static void act_resize(GSimpleAction *a, GVariant *p, gpointer app)
{
    guint32 id;
    gint32 w, h;
    g_variant_get(p, "(uii)", &id, &w, &h);
    GtkWindow *win = id ? gtk_application_get_window_by_id(app, id)
                        : gtk_application_get_active_window(app);
    if (!win || w <= 0 || h <= 0) {
        g_printerr("tkview-viewer: test-resize: no window %u, or no size %dx%d\n", id, w, h);
        return;
    }
    gtk_window_unmaximize(win);
    gtk_window_set_default_size(win, w, h);
    gtk_widget_queue_resize(GTK_WIDGET(win));
}

/* ---- widget actions ---------------------------------------------------------- */

/* The widget under W (W included) whose class installed ACTION, and in
 * *PROPERTY the property a stateful one acts on (NULL: none). */
static GtkWidget *action_owner(GtkWidget *w, const char *action, const char **property)
{
    GType owner;
    const char *name, *prop;
    const GVariantType *type;
    for (guint i = 0;
         gtk_widget_class_query_action(GTK_WIDGET_GET_CLASS(w), i, &owner, &name, &type, &prop);
         i++)
        if (strcmp(name, action) == 0) {
            *property = prop;
            return w;
        }
    for (GtkWidget *c = gtk_widget_get_first_child(w); c; c = gtk_widget_get_next_sibling(c)) {
        GtkWidget *found = action_owner(c, action, property);
        if (found)
            return found;
    }
    return NULL;
}

static GtkWidget *find_owner(GtkApplication *app, guint32 id, const char *action,
                             const char **property)
{
    GtkWindow *win = gtk_application_get_window_by_id(app, id);
    GtkWidget *owner = win ? action_owner(GTK_WIDGET(win), action, property) : NULL;
    if (!owner)
        g_printerr("tkview-viewer: test hooks: no action %s in window %u\n", action, id);
    return owner;
}

static void act_activate(GSimpleAction *a, GVariant *p, gpointer app)
{
    guint32 id;
    const char *action, *property;
    GVariant *args;
    g_variant_get(p, "(u&s@av)", &id, &action, &args);
    GVariant *param = NULL;
    if (g_variant_n_children(args)) {
        GVariant *boxed = g_variant_get_child_value(args, 0);
        param = g_variant_get_variant(boxed);
        g_variant_unref(boxed);
    }
    GtkWidget *owner = find_owner(app, id, action, &property);
    if (owner && !gtk_widget_activate_action_variant(owner, action, param))
        g_printerr("tkview-viewer: test-activate: %s refused\n", action);
    if (param)
        g_variant_unref(param);
    g_variant_unref(args);
}

/* A stateful widget action's state is its property: a boolean one toggles
 * when activated, another takes the value as parameter. */
static void act_set_state(GSimpleAction *a, GVariant *p, gpointer app)
{
    guint32 id;
    const char *action, *property = NULL;
    GVariant *value;
    g_variant_get(p, "(u&sv)", &id, &action, &value);
    GtkWidget *owner = find_owner(app, id, action, &property);
    if (owner && !property) {
        g_printerr("tkview-viewer: test-set-state: %s has no state\n", action);
    } else if (owner && g_variant_is_of_type(value, G_VARIANT_TYPE_BOOLEAN)) {
        gboolean now;
        g_object_get(owner, property, &now, NULL);
        if (!now != !g_variant_get_boolean(value))
            gtk_widget_activate_action_variant(owner, action, NULL);
    } else if (owner) {
        gtk_widget_activate_action_variant(owner, action, value);
    }
    g_variant_unref(value);
}

/* ---- keys ---------------------------------------------------------------------- */

/* Whether TRIGGER is WANT or an alternative holding it ("F8|<Alt>Down"). */
static gboolean trigger_has(GtkShortcutTrigger *trigger, GtkShortcutTrigger *want)
{
    if (GTK_IS_ALTERNATIVE_TRIGGER(trigger))
        return trigger_has(gtk_alternative_trigger_get_first(GTK_ALTERNATIVE_TRIGGER(trigger)),
                           want) ||
               trigger_has(gtk_alternative_trigger_get_second(GTK_ALTERNATIVE_TRIGGER(trigger)),
                           want);
    return gtk_shortcut_trigger_equal(trigger, want);
}

/* What GTK does with a key press, short of the X event: the shortcuts whose
 * trigger is WANT, of global scope on the mapped widgets under W, or of
 * local scope on the widgets the focus is in (FOCUS and its ancestors, as
 * the event would pass through them), activated until one takes it (a
 * plain key's shortcut refuses while an entry has the focus). */
static gboolean press_key(GtkWidget *w, GtkWidget *focus, GtkShortcutTrigger *want)
{
    if (!gtk_widget_get_mapped(w))
        return FALSE;
    gboolean on_focus_chain = focus && (w == focus || gtk_widget_is_ancestor(focus, w));
    GListModel *controllers = gtk_widget_observe_controllers(w);
    gboolean done = FALSE;
    for (guint i = 0; !done && i < g_list_model_get_n_items(controllers); i++) {
        GObject *c = g_list_model_get_item(controllers, i);
        if (GTK_IS_SHORTCUT_CONTROLLER(c) &&
            (gtk_shortcut_controller_get_scope(GTK_SHORTCUT_CONTROLLER(c)) ==
                 GTK_SHORTCUT_SCOPE_GLOBAL || on_focus_chain)) {
            GListModel *m = G_LIST_MODEL(c);
            for (guint j = 0; !done && j < g_list_model_get_n_items(m); j++) {
                GtkShortcut *sc = g_list_model_get_item(m, j);
                if (trigger_has(gtk_shortcut_get_trigger(sc), want))
                    done = gtk_shortcut_action_activate(gtk_shortcut_get_action(sc),
                                                        GTK_SHORTCUT_ACTION_EXCLUSIVE, w,
                                                        gtk_shortcut_get_arguments(sc));
                g_object_unref(sc);
            }
        }
        g_object_unref(c);
    }
    g_object_unref(controllers);
    for (GtkWidget *c = gtk_widget_get_first_child(w); !done && c; c = gtk_widget_get_next_sibling(c))
        done = press_key(c, focus, want);
    return done;
}

static void act_key(GSimpleAction *a, GVariant *p, gpointer app)
{
    guint32 id;
    const char *keys;
    g_variant_get(p, "(u&s)", &id, &keys);
    GtkWindow *win = gtk_application_get_window_by_id(app, id);
    GtkShortcutTrigger *want = gtk_shortcut_trigger_parse_string(keys);
    if (!win || !want ||
        !press_key(GTK_WIDGET(win), gtk_root_get_focus(GTK_ROOT(win)), want))
        g_printerr("tkview-viewer: test-key: nothing in window %u took \"%s\"\n", id, keys);
    if (want)
        g_object_unref(want);
}

void tkv_test_hooks_install(GtkApplication *app)
{
    static const GActionEntry entries[] = {
        {"test-state", act_state, "s", NULL, NULL, {0}},
        {"test-screenshot", act_screenshot, "(us)", NULL, NULL, {0}},
        {"test-resize", act_resize, "(uii)", NULL, NULL, {0}},
        {"test-activate", act_activate, "(usav)", NULL, NULL, {0}},
        {"test-set-state", act_set_state, "(usv)", NULL, NULL, {0}},
        {"test-key", act_key, "(us)", NULL, NULL, {0}},
    };
    g_action_map_add_action_entries(G_ACTION_MAP(app), entries, G_N_ELEMENTS(entries), app);
}
