/* tkv_code_prefs.c - the code panes' font size and wrapping
 * (tkv_code_prefs.h). */
#include "widgets/tkv_code_prefs.h"

struct _TkvCodePrefs {
    GObject parent_instance;
    int font_size;
    gboolean wrap;
    GtkCssProvider *css; /* textview.tkv-code's font size, over style.css */
};

G_DEFINE_FINAL_TYPE(TkvCodePrefs, tkv_code_prefs, G_TYPE_OBJECT)

enum { PROP_0, PROP_FONT_SIZE, PROP_WRAP, N_PROPS };
static GParamSpec *props[N_PROPS];

static void load_css(TkvCodePrefs *self)
{
    char *rule = g_strdup_printf("textview.tkv-code { font-size: %dpt; }", self->font_size);
    gtk_css_provider_load_from_data(self->css, rule, -1);
    g_free(rule);
}

void tkv_code_prefs_set_font_size(TkvCodePrefs *self, int points)
{
    points = CLAMP(points, TKV_CODE_FONT_MIN, TKV_CODE_FONT_MAX);
    if (points == self->font_size)
        return;
    self->font_size = points;
    load_css(self);
    g_object_notify_by_pspec(G_OBJECT(self), props[PROP_FONT_SIZE]);
}

int tkv_code_prefs_get_font_size(TkvCodePrefs *self)
{
    return self->font_size;
}

void tkv_code_prefs_set_wrap(TkvCodePrefs *self, gboolean wrap)
{
    wrap = !!wrap;
    if (wrap == self->wrap)
        return;
    self->wrap = wrap;
    g_object_notify_by_pspec(G_OBJECT(self), props[PROP_WRAP]);
}

gboolean tkv_code_prefs_get_wrap(TkvCodePrefs *self)
{
    return self->wrap;
}

static void apply_wrap(GtkTextView *tv)
{
    /* at any character: IR has long runs without a space (types, #loc) */
    gtk_text_view_set_wrap_mode(tv, tkv_code_prefs_get_default()->wrap ? GTK_WRAP_WORD_CHAR
                                                                       : GTK_WRAP_NONE);
}

void tkv_code_prefs_follow(GtkTextView *tv)
{
    gtk_widget_add_css_class(GTK_WIDGET(tv), "tkv-code");
    apply_wrap(tv);
    g_signal_connect_object(tkv_code_prefs_get_default(), "notify::wrap",
                            G_CALLBACK(apply_wrap), tv, G_CONNECT_SWAPPED);
}

static void tkv_code_prefs_get_property(GObject *o, guint id, GValue *v, GParamSpec *ps)
{
    TkvCodePrefs *self = TKV_CODE_PREFS(o);
    if (id == PROP_FONT_SIZE)
        g_value_set_int(v, self->font_size);
    else if (id == PROP_WRAP)
        g_value_set_boolean(v, self->wrap);
    else
        G_OBJECT_WARN_INVALID_PROPERTY_ID(o, id, ps);
}

static void tkv_code_prefs_set_property(GObject *o, guint id, const GValue *v, GParamSpec *ps)
{
    TkvCodePrefs *self = TKV_CODE_PREFS(o);
    if (id == PROP_FONT_SIZE)
        tkv_code_prefs_set_font_size(self, g_value_get_int(v));
    else if (id == PROP_WRAP)
        tkv_code_prefs_set_wrap(self, g_value_get_boolean(v));
    else
        G_OBJECT_WARN_INVALID_PROPERTY_ID(o, id, ps);
}

static void tkv_code_prefs_class_init(TkvCodePrefsClass *klass)
{
    GObjectClass *oc = G_OBJECT_CLASS(klass);
    oc->get_property = tkv_code_prefs_get_property;
    oc->set_property = tkv_code_prefs_set_property;
    props[PROP_FONT_SIZE] =
        g_param_spec_int("font-size", NULL, NULL, TKV_CODE_FONT_MIN, TKV_CODE_FONT_MAX,
                         TKV_CODE_FONT_DEFAULT,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
    props[PROP_WRAP] = g_param_spec_boolean(
        "wrap", NULL, NULL, FALSE,
        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
    g_object_class_install_properties(oc, N_PROPS, props);
}

static void tkv_code_prefs_init(TkvCodePrefs *self)
{
    self->font_size = TKV_CODE_FONT_DEFAULT;
    self->css = gtk_css_provider_new();
    load_css(self);
    /* over style.css (APPLICATION), which sets the default size */
    gtk_style_context_add_provider_for_display(gdk_display_get_default(),
                                               GTK_STYLE_PROVIDER(self->css),
                                               GTK_STYLE_PROVIDER_PRIORITY_APPLICATION + 1);
}

TkvCodePrefs *tkv_code_prefs_get_default(void)
{
    static TkvCodePrefs *the; /* lives as long as the process */
    if (!the)
        the = g_object_new(TKV_TYPE_CODE_PREFS, NULL);
    return the;
}
