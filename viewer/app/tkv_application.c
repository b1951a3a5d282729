/* tkv_application.c - the GtkApplication: windows, resources, shortcuts. */
#include "app/tkv_application.h"

#include <stdlib.h>
#include <string.h>

#include <gtksourceview/gtksource.h>

#include "app/tkv_app_code_prefs.h"
#include "app/tkv_settings.h"
#include "app/tkv_window.h"
#include "tkview-config.h"
#include "widgets/tkv_code_view.h"
#include "widgets/tkv_style.h"

struct _TkvApplication {
    GtkApplication parent_instance;
    char **source_dirs;
    GSettings *settings; /* NULL when the schema is not installed */
};

G_DEFINE_FINAL_TYPE(TkvApplication, tkv_application, GTK_TYPE_APPLICATION)

/* The keys of the application's and the windows' actions; the views' keys
 * are with their actions (tkv_bind_view_actions.c, tkv_pass_view_actions.c).
 * The shortcuts window (gtk/help-overlay.ui) lists them all. */
static const struct {
    const char *action;
    const char *accels[4]; /* NULL-terminated */
} shortcuts[] = {
    {"app.open", {"<Control>o", NULL}},
    {"app.open-file", {"<Control><Shift>o", NULL}},
    {"app.new-window", {"<Control>n", NULL}},
    {"app.quit", {"<Control>q", NULL}},
    {"app.about", {"F1", NULL}},
    {"win.close", {"<Control>w", NULL}},
    {"win.reload", {"F5", NULL}},
    {"win.exact-only", {"<Control>e", NULL}},
    {"win.show-second-view", {"<Control>backslash", NULL}},
    {"win.show-locations", {"<Control><Shift>l", NULL}},
    {"win.mode::bind", {"<Control>1", NULL}},
    {"win.mode::passes", {"<Control>2", NULL}},
    {"win.mode::compare", {"<Control>3", NULL}},
    {"win.mode::configs", {"<Control>4", NULL}},
    {"win.focus-kernel-filter", {"<Control>k", NULL}},
    {"win.show-sidebar", {"F9", NULL}},
    {"win.sidebar-page::stack", {"<Control><Shift>s", NULL}},
    {"win.sidebar-page::meta", {"<Control><Shift>i", NULL}},
    {"win.sidebar-page::problems", {"<Control><Shift>p", NULL}},
    {"win.sidebar-page::hot", {"<Control><Shift>h", NULL}},
    {"win.sidebar-page::diag", {"<Control><Shift>d", NULL}},
    {"app.color-scheme::system", {"<Control><Alt>0", NULL}},
    {"app.color-scheme::light", {"<Control><Alt>8", NULL}},
    {"app.color-scheme::dark", {"<Control><Alt>9", NULL}},
    {"app.zoom-in", {"<Control>plus", "<Control>equal", "<Control>KP_Add"}},
    {"app.zoom-out", {"<Control>minus", "<Control>KP_Subtract", NULL}},
    {"app.zoom-reset", {"<Control>0", "<Control>KP_0", NULL}},
    {"app.wrap-lines", {"<Alt>z", NULL}},
};

/* ---- windows ------------------------------------------------------------------ */

static TkvWindow *new_window(TkvApplication *self)
{
    TkvWindow *win = tkv_window_new(GTK_APPLICATION(self));
    gtk_window_present(GTK_WINDOW(win));
    return win;
}

GtkWindow *tkv_application_open_path(TkvApplication *self, const char *path)
{
    char *real = realpath(path, NULL);
    const char *canonical = real ? real : path;
    TkvWindow *empty = NULL;
    for (GList *l = gtk_application_get_windows(GTK_APPLICATION(self)); l; l = l->next) {
        if (!TKV_IS_WINDOW(l->data))
            continue;
        TkvWindow *w = l->data;
        const char *p = tkv_window_get_canonical_path(w);
        if (p && strcmp(p, canonical) == 0) {
            gtk_window_present(GTK_WINDOW(w));
            free(real);
            return GTK_WINDOW(w);
        }
        if (!empty && tkv_window_is_empty(w))
            empty = w;
    }
    free(real);
    TkvWindow *w = empty ? empty : new_window(self);
    gtk_window_present(GTK_WINDOW(w));
    tkv_window_load(w, path, tkv_application_get_source_dirs(self));
    return GTK_WINDOW(w);
}

static void tkv_application_activate(GApplication *app)
{
    GtkWindow *w = gtk_application_get_active_window(GTK_APPLICATION(app));
    if (w)
        gtk_window_present(w);
    else
        new_window(TKV_APPLICATION(app));
}

static void tkv_application_open(GApplication *app, GFile **files, int n, const char *hint)
{
    for (int i = 0; i < n; i++) {
        char *path = g_file_get_path(files[i]);
        if (path)
            tkv_application_open_path(TKV_APPLICATION(app), path);
        g_free(path);
    }
}

/* The primary instance parses the command line of every instance: paths are
 * relative to the caller's folder. */
static int tkv_application_command_line(GApplication *app, GApplicationCommandLine *cl)
{
    TkvApplication *self = TKV_APPLICATION(app);
    int argc;
    char **argv = g_application_command_line_get_arguments(cl, &argc);
    char **dirs = NULL;
    GOptionEntry entries[] = {
        {"source-dir", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &dirs,
         "Also look for source files in DIR (repeatable)", "DIR"},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    GOptionContext *ctx = g_option_context_new("[PATH...]");
    g_option_context_add_main_entries(ctx, entries, NULL);
    g_option_context_set_help_enabled(ctx, FALSE);
    GError *error = NULL;
    char **args = argv; /* g_option_context_parse_strv may reorder */
    int rc = 0;
    if (!g_option_context_parse_strv(ctx, &args, &error)) {
        g_application_command_line_printerr(cl, "tkview-viewer: %s\n", error->message);
        g_error_free(error);
        rc = 2;
    } else {
        if (dirs) {
            for (char **d = dirs; *d; d++) {
                GFile *f = g_application_command_line_create_file_for_arg(cl, *d);
                char *p = g_file_get_path(f);
                g_free(*d);
                *d = p ? p : g_strdup("");
                g_object_unref(f);
            }
            g_strfreev(self->source_dirs);
            self->source_dirs = dirs;
            dirs = NULL;
        }
        int opened = 0;
        for (int i = 1; args[i]; i++) {
            GFile *f = g_application_command_line_create_file_for_arg(cl, args[i]);
            char *p = g_file_get_path(f);
            if (p) {
                tkv_application_open_path(self, p);
                opened++;
            }
            g_free(p);
            g_object_unref(f);
        }
        if (!opened)
            g_application_activate(app);
    }
    g_strfreev(dirs);
    g_option_context_free(ctx);
    g_strfreev(args);
    return rc;
}

/* ---- app actions ---------------------------------------------------------------- */

static void on_chooser_response(GtkNativeDialog *dialog, int response, gpointer data)
{
    TkvApplication *self = data;
    if (response == GTK_RESPONSE_ACCEPT) {
        GFile *f = gtk_file_chooser_get_file(GTK_FILE_CHOOSER(dialog));
        char *path = f ? g_file_get_path(f) : NULL;
        if (path)
            tkv_application_open_path(self, path);
        g_free(path);
        g_clear_object(&f);
    }
    g_object_unref(dialog);
}

static void choose(TkvApplication *self, GtkFileChooserAction action, const char *title)
{
    GtkWindow *parent = gtk_application_get_active_window(GTK_APPLICATION(self));
    GtkFileChooserNative *dialog =
        gtk_file_chooser_native_new(title, parent, action, "_Open", "_Cancel");
    gtk_native_dialog_set_modal(GTK_NATIVE_DIALOG(dialog), TRUE);
    g_signal_connect(dialog, "response", G_CALLBACK(on_chooser_response), self);
    gtk_native_dialog_show(GTK_NATIVE_DIALOG(dialog));
}

static void act_open(GSimpleAction *a, GVariant *p, gpointer data)
{
    choose(data, GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
           "Open a bundle, capture, Triton cache or dump folder");
}

static void act_open_file(GSimpleAction *a, GVariant *p, gpointer data)
{
    choose(data, GTK_FILE_CHOOSER_ACTION_OPEN, "Open a stage file or pass dump");
}

static void act_open_path(GSimpleAction *a, GVariant *p, gpointer data)
{
    tkv_application_open_path(data, g_variant_get_string(p, NULL));
}

static void act_new_window(GSimpleAction *a, GVariant *p, gpointer data)
{
    new_window(data);
}

static void act_quit(GSimpleAction *a, GVariant *p, gpointer data)
{
    GList *windows = g_list_copy(gtk_application_get_windows(GTK_APPLICATION(data)));
    for (GList *l = windows; l; l = l->next)
        gtk_window_destroy(GTK_WINDOW(l->data));
    g_list_free(windows);
}

static void act_about(GSimpleAction *a, GVariant *p, gpointer data)
{
    gtk_show_about_dialog(gtk_application_get_active_window(GTK_APPLICATION(data)),
                          "program-name", "tkview", "version", TKVIEW_VERSION,
                          "logo-icon-name", TKV_APP_ID,
                          "comments",
                          "What each line of a Triton kernel became in every compiler stage, "
                          "and what each compiler pass changed.",
                          "license-type", GTK_LICENSE_MIT_X11, NULL);
}

static void act_color_scheme(GSimpleAction *a, GVariant *v, gpointer data)
{
    const char *s = g_variant_get_string(v, NULL);
    TkvSchemeChoice c = strcmp(s, "light") == 0 ? TKV_SCHEME_LIGHT :
                        strcmp(s, "dark") == 0  ? TKV_SCHEME_DARK : TKV_SCHEME_SYSTEM;
    tkv_style_set_choice(tkv_style_get_default(), c);
    g_simple_action_set_state(a, g_variant_new_string(c == TKV_SCHEME_LIGHT ? "light" :
                                                      c == TKV_SCHEME_DARK  ? "dark" : "system"));
}

static const GActionEntry app_actions[] = {
    {"open", act_open, NULL, NULL, NULL, {0}},
    {"open-file", act_open_file, NULL, NULL, NULL, {0}},
    {"open-path", act_open_path, "s", NULL, NULL, {0}},
    {"new-window", act_new_window, NULL, NULL, NULL, {0}},
    {"quit", act_quit, NULL, NULL, NULL, {0}},
    {"about", act_about, NULL, NULL, NULL, {0}},
    {"color-scheme", NULL, "s", "'system'", act_color_scheme, {0}},
};

/* ---- recent ------------------------------------------------------------------------ */

void tkv_application_add_recent(TkvApplication *app, const char *path)
{
    char *uri = g_filename_to_uri(path, NULL, NULL);
    if (!uri) {
        char *abs = g_canonicalize_filename(path, NULL);
        uri = g_filename_to_uri(abs, NULL, NULL);
        g_free(abs);
    }
    if (!uri)
        return;
    const char *groups[] = {"tkview", NULL};
    char *name = g_path_get_basename(path);
    GtkRecentData data = {
        .display_name = name,
        .mime_type = g_file_test(path, G_FILE_TEST_IS_DIR) ? (char *)"inode/directory"
                                                            : (char *)"text/plain",
        .app_name = (char *)"tkview",
        .app_exec = (char *)"tkview-viewer %f",
        .groups = (char **)groups,
    };
    gtk_recent_manager_add_full(gtk_recent_manager_get_default(), uri, &data);
    g_free(name);
    g_free(uri);
}

static gint newest_first(gconstpointer a, gconstpointer b)
{
    GtkRecentInfo *x = *(GtkRecentInfo *const *)a, *y = *(GtkRecentInfo *const *)b;
    GDateTime *tx = gtk_recent_info_get_modified(x), *ty = gtk_recent_info_get_modified(y);
    return g_date_time_compare(ty, tx);
}

GPtrArray *tkv_application_recent_paths(TkvApplication *app, guint max)
{
    GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
    GList *items = gtk_recent_manager_get_items(gtk_recent_manager_get_default());
    GPtrArray *mine = g_ptr_array_new();
    for (GList *l = items; l; l = l->next)
        if (gtk_recent_info_has_group(l->data, "tkview") && gtk_recent_info_exists(l->data))
            g_ptr_array_add(mine, l->data);
    g_ptr_array_sort(mine, newest_first);
    for (guint i = 0; i < mine->len && out->len < max; i++) {
        char *path = g_filename_from_uri(gtk_recent_info_get_uri(g_ptr_array_index(mine, i)),
                                         NULL, NULL);
        if (path)
            g_ptr_array_add(out, path);
    }
    g_ptr_array_unref(mine);
    g_list_free_full(items, (GDestroyNotify)gtk_recent_info_unref);
    return out;
}

const char *const *tkv_application_get_source_dirs(TkvApplication *app)
{
    return (const char *const *)app->source_dirs;
}

GSettings *tkv_application_get_settings(TkvApplication *app)
{
    return app->settings;
}

/* ---- startup ------------------------------------------------------------------------- */

/* GtkSourceView 5.6 lists style schemes found under a resource:// search
 * path but then reads them with g_file_get_contents(), which fails; so the
 * schemes shipped in the GResource are written to a folder of the user's
 * cache (rewritten only when they differ) and that folder is searched. */
static void install_schemes(void)
{
    static const char *const names[] = {"tkview-light.xml", "tkview-dark.xml"};
    char *dir = g_build_filename(g_get_user_cache_dir(), "tkview", "styles-" TKVIEW_VERSION, NULL);
    gboolean ok = g_mkdir_with_parents(dir, 0700) == 0;
    for (size_t i = 0; ok && i < G_N_ELEMENTS(names); i++) {
        char *res = g_strconcat("/org/tkview/Viewer/styles/", names[i], NULL);
        GBytes *data = g_resources_lookup_data(res, G_RESOURCE_LOOKUP_FLAGS_NONE, NULL);
        char *path = g_build_filename(dir, names[i], NULL);
        char *old = NULL;
        gsize old_len = 0;
        gsize len = 0;
        const char *bytes = data ? g_bytes_get_data(data, &len) : NULL;
        if (bytes && (!g_file_get_contents(path, &old, &old_len, NULL) || old_len != len ||
                      memcmp(old, bytes, len) != 0))
            ok = g_file_set_contents(path, bytes, (gssize)len, NULL);
        g_free(old);
        g_free(path);
        g_free(res);
        if (data)
            g_bytes_unref(data);
    }
    if (ok)
        gtk_source_style_scheme_manager_prepend_search_path(
            gtk_source_style_scheme_manager_get_default(), dir);
    g_free(dir);
}

static void tkv_application_startup(GApplication *app)
{
    G_APPLICATION_CLASS(tkv_application_parent_class)->startup(app);
    gtk_source_init();
    GtkSourceLanguageManager *lm = gtk_source_language_manager_get_default();
    gtk_source_language_manager_prepend_search_path(lm,
                                                    "resource:///org/tkview/Viewer/language-specs/");
    install_schemes();
    GtkCssProvider *css = gtk_css_provider_new();
    gtk_css_provider_load_from_resource(css, "/org/tkview/Viewer/style.css");
    gtk_style_context_add_provider_for_display(gdk_display_get_default(), GTK_STYLE_PROVIDER(css),
                                               GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
    g_object_unref(css);
    tkv_style_get_default();

    g_action_map_add_action_entries(G_ACTION_MAP(app), app_actions, G_N_ELEMENTS(app_actions), app);
    TkvSchemeChoice c = tkv_style_get_choice(tkv_style_get_default());
    g_simple_action_set_state(
        G_SIMPLE_ACTION(g_action_map_lookup_action(G_ACTION_MAP(app), "color-scheme")),
        g_variant_new_string(c == TKV_SCHEME_LIGHT ? "light" : c == TKV_SCHEME_DARK ? "dark" : "system"));
    for (size_t i = 0; i < G_N_ELEMENTS(shortcuts); i++)
        gtk_application_set_accels_for_action(GTK_APPLICATION(app), shortcuts[i].action,
                                              shortcuts[i].accels);
    TKV_APPLICATION(app)->settings = tkv_settings_new();
    tkv_app_code_prefs_init(GTK_APPLICATION(app), TKV_APPLICATION(app)->settings);
}

static void tkv_application_shutdown(GApplication *app)
{
    tkv_code_view_stop_highlighting();
    G_APPLICATION_CLASS(tkv_application_parent_class)->shutdown(app);
}

static void tkv_application_finalize(GObject *object)
{
    g_strfreev(TKV_APPLICATION(object)->source_dirs);
    g_clear_object(&TKV_APPLICATION(object)->settings);
    G_OBJECT_CLASS(tkv_application_parent_class)->finalize(object);
}

static void tkv_application_class_init(TkvApplicationClass *klass)
{
    G_OBJECT_CLASS(klass)->finalize = tkv_application_finalize;
    GApplicationClass *ac = G_APPLICATION_CLASS(klass);
    ac->startup = tkv_application_startup;
    ac->shutdown = tkv_application_shutdown;
    ac->activate = tkv_application_activate;
    ac->open = tkv_application_open;
    ac->command_line = tkv_application_command_line;
}

static void tkv_application_init(TkvApplication *self) {}

TkvApplication *tkv_application_new(GApplicationFlags extra_flags)
{
    return tkv_application_new_with_id(TKV_APP_ID, extra_flags);
}

TkvApplication *tkv_application_new_with_id(const char *app_id, GApplicationFlags extra_flags)
{
    return g_object_new(TKV_TYPE_APPLICATION, "application-id", app_id, "flags",
                        G_APPLICATION_HANDLES_COMMAND_LINE | G_APPLICATION_HANDLES_OPEN |
                            extra_flags,
                        "resource-base-path", "/org/tkview/Viewer", NULL);
}
