/* tkv_app_code_prefs.c - zoom and wrap as application actions
 * (tkv_app_code_prefs.h). */
#include "app/tkv_app_code_prefs.h"

#include "widgets/tkv_code_prefs.h"

static void zoom_by(int delta)
{
    TkvCodePrefs *p = tkv_code_prefs_get_default();
    tkv_code_prefs_set_font_size(p, delta ? tkv_code_prefs_get_font_size(p) + delta
                                          : TKV_CODE_FONT_DEFAULT);
}

static void act_zoom_in(GSimpleAction *a, GVariant *p, gpointer data)
{
    zoom_by(1);
}

static void act_zoom_out(GSimpleAction *a, GVariant *p, gpointer data)
{
    zoom_by(-1);
}

static void act_zoom_reset(GSimpleAction *a, GVariant *p, gpointer data)
{
    zoom_by(0);
}

static const GActionEntry actions[] = {
    {"zoom-in", act_zoom_in, NULL, NULL, NULL, {0}},
    {"zoom-out", act_zoom_out, NULL, NULL, NULL, {0}},
    {"zoom-reset", act_zoom_reset, NULL, NULL, NULL, {0}},
};

void tkv_app_code_prefs_init(GtkApplication *app, GSettings *settings)
{
    TkvCodePrefs *prefs = tkv_code_prefs_get_default();
    if (settings) {
        g_settings_bind(settings, "code-font-size", prefs, "font-size", G_SETTINGS_BIND_DEFAULT);
        g_settings_bind(settings, "wrap-lines", prefs, "wrap", G_SETTINGS_BIND_DEFAULT);
    }
    g_action_map_add_action_entries(G_ACTION_MAP(app), actions, G_N_ELEMENTS(actions), app);
    /* a boolean action whose state is the property: the menu's check mark,
     * D-Bus and the key all read and set the same */
    GPropertyAction *wrap = g_property_action_new("wrap-lines", prefs, "wrap");
    g_action_map_add_action(G_ACTION_MAP(app), G_ACTION(wrap));
    g_object_unref(wrap);
}
