/* tkv_style.c - following the system's light/dark preference. */
#include "widgets/tkv_style.h"

#include <string.h>

struct _TkvStyle {
    GObject parent_instance;
    TkvSchemeChoice choice;
    int portal;          /* portal color-scheme: -1 unknown, 0 none, 1 dark, 2 light */
    gboolean dark;
    gboolean applying;   /* we are writing GtkSettings ourselves */
    gboolean settings_dark; /* what GtkSettings said before we touched it */
    GDBusProxy *portal_proxy;
};

G_DEFINE_FINAL_TYPE(TkvStyle, tkv_style, G_TYPE_OBJECT)

enum { SIG_CHANGED, N_SIGS };
static guint sigs[N_SIGS];

static void tkv_style_dispose(GObject *object)
{
    TkvStyle *self = TKV_STYLE(object);
    g_clear_object(&self->portal_proxy);
    G_OBJECT_CLASS(tkv_style_parent_class)->dispose(object);
}

static void tkv_style_class_init(TkvStyleClass *klass)
{
    G_OBJECT_CLASS(klass)->dispose = tkv_style_dispose;
    sigs[SIG_CHANGED] = g_signal_new("changed", G_TYPE_FROM_CLASS(klass),
                                     G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                     G_TYPE_NONE, 0);
}

static void tkv_style_init(TkvStyle *self)
{
    self->portal = -1;
}

static gboolean settings_say_dark(GtkSettings *settings)
{
    gboolean prefer = FALSE;
    char *theme = NULL;
    g_object_get(settings, "gtk-application-prefer-dark-theme", &prefer,
                 "gtk-theme-name", &theme, NULL);
    gboolean dark = prefer || (theme && g_str_has_suffix(theme, "-dark"));
    g_free(theme);
    return dark;
}

static void update(TkvStyle *self)
{
    gboolean dark;
    switch (self->choice) {
    case TKV_SCHEME_LIGHT: dark = FALSE; break;
    case TKV_SCHEME_DARK: dark = TRUE; break;
    default:
        if (self->portal == 1)
            dark = TRUE;
        else if (self->portal == 0 || self->portal == 2)
            dark = FALSE;
        else
            dark = self->settings_dark;
    }
    GtkSettings *settings = gtk_settings_get_default();
    if (settings) {
        self->applying = TRUE;
        g_object_set(settings, "gtk-application-prefer-dark-theme", dark, NULL);
        self->applying = FALSE;
    }
    if (dark != self->dark) {
        self->dark = dark;
        g_signal_emit(self, sigs[SIG_CHANGED], 0);
    }
}

static void on_settings_changed(GtkSettings *settings, GParamSpec *pspec, TkvStyle *self)
{
    if (self->applying)
        return;
    self->settings_dark = settings_say_dark(settings);
    update(self);
}

/* The portal answers Read() with v(v(u)) on older versions, v(u) on newer. */
static int portal_value(GVariant *v)
{
    while (v && g_variant_is_of_type(v, G_VARIANT_TYPE_VARIANT)) {
        GVariant *inner = g_variant_get_variant(v);
        g_variant_unref(v);
        v = inner;
    }
    int r = -1;
    if (v && g_variant_is_of_type(v, G_VARIANT_TYPE_UINT32))
        r = (int)g_variant_get_uint32(v);
    if (v)
        g_variant_unref(v);
    return r;
}

static void on_portal_signal(GDBusProxy *proxy, const char *sender, const char *signal,
                             GVariant *params, TkvStyle *self)
{
    if (strcmp(signal, "SettingChanged") != 0)
        return;
    const char *ns, *key;
    GVariant *value;
    g_variant_get(params, "(&s&sv)", &ns, &key, &value);
    if (strcmp(ns, "org.freedesktop.appearance") == 0 && strcmp(key, "color-scheme") == 0) {
        self->portal = portal_value(g_variant_ref_sink(value));
        update(self);
    } else {
        g_variant_unref(value);
    }
}

static void on_portal_read(GObject *source, GAsyncResult *res, gpointer data)
{
    TkvStyle *self = data;
    GVariant *ret = g_dbus_proxy_call_finish(G_DBUS_PROXY(source), res, NULL);
    if (ret) {
        GVariant *v;
        g_variant_get(ret, "(v)", &v);
        self->portal = portal_value(v);
        g_variant_unref(ret);
        update(self);
    }
    g_object_unref(self);
}

static void on_portal_proxy(GObject *source, GAsyncResult *res, gpointer data)
{
    TkvStyle *self = data;
    self->portal_proxy = g_dbus_proxy_new_for_bus_finish(res, NULL);
    if (self->portal_proxy) {
        g_signal_connect(self->portal_proxy, "g-signal", G_CALLBACK(on_portal_signal), self);
        g_dbus_proxy_call(self->portal_proxy, "Read",
                          g_variant_new("(ss)", "org.freedesktop.appearance", "color-scheme"),
                          G_DBUS_CALL_FLAGS_NONE, 2000, NULL, on_portal_read,
                          g_object_ref(self));
    }
    g_object_unref(self);
}

TkvStyle *tkv_style_get_default(void)
{
    static TkvStyle *instance;
    if (instance)
        return instance;
    instance = g_object_new(TKV_TYPE_STYLE, NULL);
    const char *env = g_getenv("TKVIEW_COLOR_SCHEME");
    if (env && strcmp(env, "dark") == 0)
        instance->choice = TKV_SCHEME_DARK;
    else if (env && strcmp(env, "light") == 0)
        instance->choice = TKV_SCHEME_LIGHT;
    GtkSettings *settings = gtk_settings_get_default();
    if (settings) {
        instance->settings_dark = settings_say_dark(settings);
        g_signal_connect(settings, "notify::gtk-theme-name", G_CALLBACK(on_settings_changed), instance);
        g_signal_connect(settings, "notify::gtk-application-prefer-dark-theme",
                         G_CALLBACK(on_settings_changed), instance);
    }
    instance->dark = !instance->settings_dark; /* force the first "changed" */
    update(instance);
    /* Asked without starting a portal that is not running (no session bus:
     * no answer, and GtkSettings decides). */
    g_dbus_proxy_new_for_bus(G_BUS_TYPE_SESSION,
                             G_DBUS_PROXY_FLAGS_DO_NOT_LOAD_PROPERTIES |
                                 G_DBUS_PROXY_FLAGS_DO_NOT_AUTO_START_AT_CONSTRUCTION,
                             NULL, "org.freedesktop.portal.Desktop",
                             "/org/freedesktop/portal/desktop",
                             "org.freedesktop.portal.Settings", NULL, on_portal_proxy,
                             g_object_ref(instance));
    return instance;
}

void tkv_style_set_choice(TkvStyle *style, TkvSchemeChoice choice)
{
    style->choice = choice;
    update(style);
}

TkvSchemeChoice tkv_style_get_choice(TkvStyle *style) { return style->choice; }
gboolean tkv_style_is_dark(TkvStyle *style) { return style->dark; }

GtkSourceStyleScheme *tkv_style_get_scheme(TkvStyle *style)
{
    GtkSourceStyleSchemeManager *m = gtk_source_style_scheme_manager_get_default();
    GtkSourceStyleScheme *s = gtk_source_style_scheme_manager_get_scheme(
        m, style->dark ? "tkview-dark" : "tkview-light");
    if (!s)
        s = gtk_source_style_scheme_manager_get_scheme(m, style->dark ? "Adwaita-dark" : "Adwaita");
    return s;
}

GdkRGBA tkv_style_color(TkvStyle *style, const char *name, gboolean foreground,
                        const char *fallback)
{
    GdkRGBA rgba;
    GtkSourceStyleScheme *scheme = tkv_style_get_scheme(style);
    GtkSourceStyle *st = scheme ? gtk_source_style_scheme_get_style(scheme, name) : NULL;
    char *spec = NULL;
    gboolean set = FALSE;
    if (st)
        g_object_get(st, foreground ? "foreground" : "background", &spec,
                     foreground ? "foreground-set" : "background-set", &set, NULL);
    if (!set || !spec || !gdk_rgba_parse(&rgba, spec))
        gdk_rgba_parse(&rgba, fallback);
    g_free(spec);
    return rgba;
}
