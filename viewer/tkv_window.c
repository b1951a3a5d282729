/* tkv_window.c - the window: pages, kernel list, side panels, actions. */
#include "tkv_window.h"

#include <string.h>

#include "tkv_application.h"
#include "tkv_kernel_item.h"

struct _TkvWindow {
    GtkApplicationWindow parent_instance;

    /* template */
    GtkLabel *title_label;
    GtkLabel *subtitle_label;
    GtkMenuButton *recent_button;
    GtkStack *content;
    GtkListBox *recent_list;
    GtkWidget *recent_heading;
    GtkSpinner *spinner;
    GtkLabel *loading_label;
    GtkProgressBar *progress;
    GtkLabel *error_title;
    GtkTextView *error_view;
    GtkRevealer *banner_revealer;
    GtkLabel *banner_label;
    GtkSearchEntry *kernel_filter;
    GtkLabel *kernel_count;
    GtkListView *kernel_list;
    GtkStack *info_stack;
    TkvStackPanel *stack_panel;
    TkvMetaPanel *meta_panel;
    GtkTextView *problems_view;
    GtkStack *mode_stack;
    TkvPassView *pass_view;
    TkvBindView *bind_view;

    TkvDocument *doc;     /* loading or loaded */
    GCancellable *cancel;
    guint progress_timer;
    char *state;          /* "welcome", "loading", "ready", "error" */
    char *last_error;     /* of the last action that failed, for tests */

    GListStore *kernels;
    GtkFilterListModel *filtered;
    GtkStringFilter *filter;
    GtkSingleSelection *selection;
    int kernel;
    gboolean updating;
    gint64 loaded_at; /* monotonic time the loaded data reached the main thread */
};

G_DEFINE_FINAL_TYPE(TkvWindow, tkv_window, GTK_TYPE_APPLICATION_WINDOW)

enum { SIG_LOADED, N_SIGS };
static guint sigs[N_SIGS];

static void set_state(TkvWindow *self, const char *state)
{
    g_free(self->state);
    self->state = g_strdup(state);
    gtk_stack_set_visible_child_name(self->content,
                                     strcmp(state, "ready") == 0 ? "main" : state);
    gboolean ready = strcmp(state, "ready") == 0;
    const char *need_doc[] = {"select-kernel", "select-source-location", "select-ir-line",
                              "source-file", "stage", "second-stage", "next-match",
                              "previous-match", "find", "find-next", "find-previous",
                              "goto-line", "focus-kernel-filter", "mode", "reload",
                              "show-second-view", "exact-only", "sidebar-page",
                              "select-pass", "changed-only", "next-change",
                              "previous-change", "select-diff-line"};
    for (size_t i = 0; i < G_N_ELEMENTS(need_doc); i++) {
        GAction *a = g_action_map_lookup_action(G_ACTION_MAP(self), need_doc[i]);
        if (a)
            g_simple_action_set_enabled(G_SIMPLE_ACTION(a),
                                        ready || strcmp(need_doc[i], "reload") == 0);
    }
}

static void set_last_error(TkvWindow *self, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static void set_last_error(TkvWindow *self, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_free(self->last_error);
    self->last_error = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    gtk_widget_error_bell(GTK_WIDGET(self));
}

static void set_titles(TkvWindow *self, const char *title, const char *subtitle)
{
    char *t = g_utf8_make_valid(title, -1);
    gtk_label_set_text(self->title_label, t);
    gtk_window_set_title(GTK_WINDOW(self), t);
    g_free(t);
    if (subtitle) {
        char *s = g_utf8_make_valid(subtitle, -1);
        gtk_label_set_text(self->subtitle_label, s);
        g_free(s);
    }
    gtk_widget_set_visible(GTK_WIDGET(self->subtitle_label), subtitle != NULL);
}

static void set_action_state(TkvWindow *self, const char *name, GVariant *state)
{
    GAction *a = g_action_map_lookup_action(G_ACTION_MAP(self), name);
    g_simple_action_set_state(G_SIMPLE_ACTION(a), state);
}

/* ---- kernels ---------------------------------------------------------------- */

static void update_kernel_count(TkvWindow *self)
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

static void show_kernel(TkvWindow *self, int index)
{
    self->kernel = index;
    tkv_bind_view_set_kernel(self->bind_view, self->doc, (guint)index);
    tkv_pass_view_set_kernel(self->pass_view, self->doc, (guint)index);
    tkv_meta_panel_show(self->meta_panel, self->doc, (guint)index);
    tkv_stack_panel_clear(self->stack_panel, "Select an IR line to see where it came from.");
    const tk_kernel *k = tkv_document_get_kernel(self->doc, (guint)index);
    char *sub = g_strdup_printf("%.12s · %s", tk_kernel_hash(k), tkv_document_get_path(self->doc));
    set_titles(self, tk_kernel_name(k), sub);
    g_free(sub);
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
    update_kernel_count(self);
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

/* ---- loading ------------------------------------------------------------------ */

static gboolean on_progress_tick(gpointer data)
{
    TkvWindow *self = data;
    if (!self->doc)
        return G_SOURCE_CONTINUE;
    char *phase;
    double f = tkv_document_get_progress(self->doc, &phase);
    if (f < 0)
        gtk_progress_bar_pulse(self->progress);
    else
        gtk_progress_bar_set_fraction(self->progress, f);
    gtk_progress_bar_set_text(self->progress, phase);
    g_free(phase);
    return G_SOURCE_CONTINUE;
}

static void stop_progress(TkvWindow *self)
{
    if (self->progress_timer) {
        g_source_remove(self->progress_timer);
        self->progress_timer = 0;
    }
    gtk_spinner_stop(self->spinner);
}

static void fill_problems(TkvWindow *self)
{
    char *all = tkv_document_format_diags(self->doc, TK_DIAG_NOTE);
    gtk_text_buffer_set_text(gtk_text_view_get_buffer(self->problems_view),
                             *all ? all : "No problems: everything in the input could be read.",
                             -1);
    g_free(all);
    const tk_diags *d = tkv_document_get_diags(self->doc);
    size_t warnings = d ? tk_diags_count_at_least(d, TK_DIAG_WARNING) : 0;
    if (warnings) {
        char *t = g_strdup_printf("%zu problem%s while reading: some parts of the input were "
                                  "skipped; everything readable is shown.",
                                  warnings, warnings == 1 ? "" : "s");
        gtk_label_set_text(self->banner_label, t);
        g_free(t);
    }
    gtk_revealer_set_reveal_child(self->banner_revealer, warnings > 0);
}

static void show_error(TkvWindow *self, const char *message)
{
    char *title = g_strdup_printf("Could not open %s", tkv_document_get_path(self->doc));
    char *safe = g_utf8_make_valid(title, -1);
    gtk_label_set_text(self->error_title, safe);
    char *diags = tkv_document_format_diags(self->doc, TK_DIAG_NOTE);
    char *text = g_strdup_printf("%s\n\n%s", message, diags);
    gtk_text_buffer_set_text(gtk_text_view_get_buffer(self->error_view), text, -1);
    set_titles(self, "tkview", tkv_document_get_path(self->doc));
    set_state(self, "error");
    g_free(title);
    g_free(safe);
    g_free(diags);
    g_free(text);
}

static void on_loaded(GObject *source, GAsyncResult *res, gpointer data)
{
    TkvWindow *self = data;
    TkvDocument *doc = TKV_DOCUMENT(source);
    GError *error = NULL;
    gboolean ok = tkv_document_load_finish(doc, res, &error);
    if (self->doc != doc || g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED)) {
        g_clear_error(&error);
        g_object_unref(self);
        return;
    }
    self->loaded_at = g_get_monotonic_time();
    stop_progress(self);
    if (!ok) {
        show_error(self, error->message);
        g_error_free(error);
        g_signal_emit(self, sigs[SIG_LOADED], 0, FALSE);
        g_object_unref(self);
        return;
    }
    tkv_application_add_recent(TKV_APPLICATION(gtk_window_get_application(GTK_WINDOW(self))),
                               tkv_document_get_path(doc));
    self->updating = TRUE;
    g_list_store_remove_all(self->kernels);
    size_t n = tkv_document_get_kernel_count(doc);
    for (size_t i = 0; i < n; i++) {
        TkvKernelItem *it = tkv_kernel_item_new((guint)i, tkv_document_get_kernel(doc, i));
        g_list_store_append(self->kernels, it);
        g_object_unref(it);
    }
    self->updating = FALSE;
    update_kernel_count(self);
    fill_problems(self);
    set_state(self, "ready");
    set_action_state(self, "mode", g_variant_new_string("bind"));
    gtk_stack_set_visible_child_name(self->mode_stack, "bind");
    self->kernel = -1;
    if (n)
        show_kernel(self, 0);
    /* A kernel known from its pass dumps alone has no IR to bind: open on
     * its passes, as the HTML report does. */
    if (n && !tk_kernel_has_stages(tkv_document_get_kernel(doc, 0)))
        g_action_group_activate_action(G_ACTION_GROUP(self), "mode",
                                       g_variant_new_string("passes"));
    g_signal_emit(self, sigs[SIG_LOADED], 0, TRUE);
    g_object_unref(self);
}

void tkv_window_load(TkvWindow *self, const char *path, const char *const *source_dirs)
{
    if (self->cancel) {
        g_cancellable_cancel(self->cancel);
        g_clear_object(&self->cancel);
    }
    tkv_bind_view_set_kernel(self->bind_view, NULL, 0);
    tkv_pass_view_set_kernel(self->pass_view, NULL, 0);
    tkv_meta_panel_show(self->meta_panel, NULL, 0);
    g_list_store_remove_all(self->kernels);
    g_clear_object(&self->doc);
    self->kernel = -1;
    self->doc = tkv_document_new(path, source_dirs);
    self->cancel = g_cancellable_new();
    char *t = g_strdup_printf("Loading %s", path);
    char *safe = g_utf8_make_valid(t, -1);
    gtk_label_set_text(self->loading_label, safe);
    g_free(t);
    g_free(safe);
    gtk_progress_bar_set_fraction(self->progress, 0);
    gtk_spinner_start(self->spinner);
    set_titles(self, "tkview", path);
    set_state(self, "loading");
    if (!self->progress_timer)
        self->progress_timer = g_timeout_add(50, on_progress_tick, self);
    tkv_document_load_async(self->doc, self->cancel, on_loaded, g_object_ref(self));
}

gboolean tkv_window_is_empty(TkvWindow *self)
{
    return strcmp(self->state, "welcome") == 0 || strcmp(self->state, "error") == 0;
}

const char *tkv_window_get_canonical_path(TkvWindow *self)
{
    if (!self->doc || strcmp(self->state, "error") == 0)
        return NULL;
    return tkv_document_get_canonical_path(self->doc);
}

TkvDocument *tkv_window_get_document(TkvWindow *self) { return self->doc; }
TkvBindView *tkv_window_get_bind_view(TkvWindow *self) { return self->bind_view; }
int tkv_window_get_kernel(TkvWindow *self) { return self->kernel; }
gint64 tkv_window_get_loaded_time(TkvWindow *self) { return self->loaded_at; }
const char *tkv_window_get_state(TkvWindow *self) { return self->state; }
const char *tkv_window_get_last_error(TkvWindow *self) { return self->last_error; }
TkvPassView *tkv_window_get_pass_view(TkvWindow *self) { return self->pass_view; }
TkvStackPanel *tkv_window_get_stack_panel(TkvWindow *self) { return self->stack_panel; }
TkvMetaPanel *tkv_window_get_meta_panel(TkvWindow *self) { return self->meta_panel; }

const char *tkv_window_get_mode(TkvWindow *self)
{
    return gtk_stack_get_visible_child_name(self->mode_stack);
}

guint tkv_window_get_kernel_count(TkvWindow *self, guint *listed)
{
    if (listed)
        *listed = g_list_model_get_n_items(G_LIST_MODEL(self->filtered));
    return g_list_model_get_n_items(G_LIST_MODEL(self->kernels));
}

const char *tkv_window_get_error_title(TkvWindow *self)
{
    return gtk_label_get_text(self->error_title);
}

char *tkv_window_get_error_text(TkvWindow *self)
{
    GtkTextBuffer *tb = gtk_text_view_get_buffer(self->error_view);
    GtkTextIter s, e;
    gtk_text_buffer_get_bounds(tb, &s, &e);
    return gtk_text_buffer_get_text(tb, &s, &e, FALSE);
}

gboolean tkv_window_get_error_visible(TkvWindow *self)
{
    return gtk_widget_is_drawable(GTK_WIDGET(self->error_view));
}

/* ---- recent ---------------------------------------------------------------- */

static void update_recent(TkvWindow *self)
{
    TkvApplication *app = TKV_APPLICATION(gtk_window_get_application(GTK_WINDOW(self)));
    if (!app)
        return;
    GPtrArray *paths = tkv_application_recent_paths(app, 10);
    GMenu *menu = g_menu_new();
    GtkWidget *child;
    while ((child = gtk_widget_get_first_child(GTK_WIDGET(self->recent_list))))
        gtk_list_box_remove(self->recent_list, child);
    for (guint i = 0; i < paths->len; i++) {
        const char *p = g_ptr_array_index(paths, i);
        char *label = g_utf8_make_valid(p, -1);
        GMenuItem *item = g_menu_item_new(label, NULL);
        g_menu_item_set_action_and_target_value(item, "app.open-path", g_variant_new_string(p));
        g_menu_append_item(menu, item);
        g_object_unref(item);
        GtkWidget *button = gtk_button_new_with_label(label);
        gtk_widget_add_css_class(button, "flat");
        GtkWidget *l = gtk_button_get_child(GTK_BUTTON(button));
        gtk_label_set_xalign(GTK_LABEL(l), 0);
        gtk_label_set_ellipsize(GTK_LABEL(l), PANGO_ELLIPSIZE_START);
        gtk_actionable_set_action_name(GTK_ACTIONABLE(button), "app.open-path");
        gtk_actionable_set_action_target_value(GTK_ACTIONABLE(button), g_variant_new_string(p));
        gtk_list_box_append(self->recent_list, button);
        g_free(label);
    }
    if (!paths->len)
        g_menu_append(menu, "No recent bundles", "win.none");
    gtk_menu_button_set_menu_model(self->recent_button, G_MENU_MODEL(menu));
    gtk_widget_set_visible(GTK_WIDGET(self->recent_list), paths->len > 0);
    gtk_widget_set_visible(self->recent_heading, paths->len > 0);
    g_object_unref(menu);
    g_ptr_array_unref(paths);
}

/* ---- drag and drop -------------------------------------------------------------- */

static gboolean on_drop(GtkDropTarget *target, const GValue *value, double x, double y,
                        TkvWindow *self)
{
    GFile *file = NULL;
    if (G_VALUE_HOLDS(value, GDK_TYPE_FILE_LIST)) {
        GSList *list = g_value_get_boxed(value);
        file = list ? list->data : NULL;
    } else if (G_VALUE_HOLDS(value, G_TYPE_FILE)) {
        file = g_value_get_object(value);
    }
    char *path = file ? g_file_get_path(file) : NULL;
    if (!path)
        return FALSE;
    TkvApplication *app = TKV_APPLICATION(gtk_window_get_application(GTK_WINDOW(self)));
    if (tkv_window_is_empty(self))
        tkv_window_load(self, path, tkv_application_get_source_dirs(app));
    else
        tkv_application_open_path(app, path);
    g_free(path);
    return TRUE;
}

/* ---- actions ------------------------------------------------------------------ */

static void update_stack_panel(TkvWindow *self);

static gboolean in_pass_mode(TkvWindow *self)
{
    return g_strcmp0(gtk_stack_get_visible_child_name(self->mode_stack), "passes") == 0;
}

static TkvCodePane *focused_pane(TkvWindow *self)
{
    return in_pass_mode(self) ? tkv_pass_view_get_focused_pane(self->pass_view)
                              : tkv_bind_view_get_focused_pane(self->bind_view);
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
                show_kernel(self, (int)i);
            return;
        }
    set_last_error(self, "select-kernel: \"%s\" names %zu kernels", g_variant_get_string(p, NULL),
                   matches);
}

static void act_select_source_location(GSimpleAction *a, GVariant *p, gpointer data)
{
    TkvWindow *self = data;
    const char *path;
    guint32 line;
    g_variant_get(p, "(&su)", &path, &line);
    if (self->kernel < 0)
        return;
    tk_file_id f = tkv_document_find_file(self->doc, (guint)self->kernel, path);
    gboolean ok = f != TKV_NO_FILE &&
                  (in_pass_mode(self) ? tkv_pass_view_select_source(self->pass_view, f, line)
                                      : tkv_bind_view_select_source(self->bind_view, f, line));
    if (!ok)
        set_last_error(self, "select-source-location: no location of this kernel in %s:%u",
                       path, line);
}

static void act_select_ir_line(GSimpleAction *a, GVariant *p, gpointer data)
{
    TkvWindow *self = data;
    const char *stage;
    guint32 line;
    g_variant_get(p, "(&su)", &stage, &line);
    if (!tkv_bind_view_select_ir(self->bind_view, tk_stage_kind_parse(stage), line))
        set_last_error(self, "select-ir-line: no line %s:%u in this kernel", stage, line);
}

static void act_source_file(GSimpleAction *a, GVariant *p, gpointer data)
{
    TkvWindow *self = data;
    const char *path = g_variant_get_string(p, NULL);
    if (self->kernel < 0)
        return;
    tk_file_id f = tkv_document_find_file(self->doc, (guint)self->kernel, path);
    gboolean ok = f != TKV_NO_FILE && (in_pass_mode(self)
                                           ? tkv_pass_view_show_file(self->pass_view, f)
                                           : tkv_bind_view_show_file(self->bind_view, f));
    if (!ok)
        set_last_error(self, "source-file: %s is not a file of this kernel", path);
}

static void change_stage(TkvWindow *self, TkvPaneId pane, GSimpleAction *a, GVariant *v)
{
    tk_stage_kind k = tk_stage_kind_parse(g_variant_get_string(v, NULL));
    if (!tkv_bind_view_set_stage(self->bind_view, pane, k))
        set_last_error(self, "stage: this kernel has no stage \"%s\"",
                       g_variant_get_string(v, NULL));
}

static void act_stage(GSimpleAction *a, GVariant *v, gpointer data)
{
    change_stage(data, TKV_PANE_PRIMARY, a, v);
}

static void act_second_stage(GSimpleAction *a, GVariant *v, gpointer data)
{
    change_stage(data, TKV_PANE_SECONDARY, a, v);
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

static void act_next_match(GSimpleAction *a, GVariant *p, gpointer data)
{
    TkvWindow *self = data;
    if (in_pass_mode(self))
        tkv_pass_view_step_match(self->pass_view, 1);
    else
        tkv_bind_view_step_match(self->bind_view, 1);
}

static void act_previous_match(GSimpleAction *a, GVariant *p, gpointer data)
{
    TkvWindow *self = data;
    if (in_pass_mode(self))
        tkv_pass_view_step_match(self->pass_view, -1);
    else
        tkv_bind_view_step_match(self->bind_view, -1);
}

static void act_find(GSimpleAction *a, GVariant *p, gpointer data)
{
    TkvWindow *self = data;
    tkv_code_pane_find(focused_pane(self));
}

static void act_find_next(GSimpleAction *a, GVariant *p, gpointer data)
{
    TkvWindow *self = data;
    tkv_code_pane_find_next(focused_pane(self), 1);
}

static void act_find_previous(GSimpleAction *a, GVariant *p, gpointer data)
{
    TkvWindow *self = data;
    tkv_code_pane_find_next(focused_pane(self), -1);
}

static void act_goto_line(GSimpleAction *a, GVariant *p, gpointer data)
{
    TkvWindow *self = data;
    tkv_code_pane_goto_line(focused_pane(self));
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
    if (strcmp(mode, "bind") != 0 && strcmp(mode, "passes") != 0) {
        set_last_error(self, "mode: \"%s\" is neither bind nor passes", mode);
        return;
    }
    gtk_stack_set_visible_child_name(self->mode_stack, mode);
    g_simple_action_set_state(a, v);
    if (strcmp(mode, "passes") == 0)
        tkv_pass_view_activate(self->pass_view);
    update_stack_panel(self);
}

static void act_select_pass(GSimpleAction *a, GVariant *p, gpointer data)
{
    TkvWindow *self = data;
    const char *spec = g_variant_get_string(p, NULL);
    if (!tkv_pass_view_select(self->pass_view, spec))
        set_last_error(self, "select-pass: \"%s\" names no pass of this kernel's timeline", spec);
}

static void act_changed_only(GSimpleAction *a, GVariant *v, gpointer data)
{
    TkvWindow *self = data;
    tkv_pass_view_set_changed_only(self->pass_view, g_variant_get_boolean(v));
    g_simple_action_set_state(a, v);
}

static void act_next_change(GSimpleAction *a, GVariant *p, gpointer data)
{
    TkvWindow *self = data;
    tkv_pass_view_step_change(self->pass_view, 1);
}

static void act_previous_change(GSimpleAction *a, GVariant *p, gpointer data)
{
    TkvWindow *self = data;
    tkv_pass_view_step_change(self->pass_view, -1);
}

static void act_select_diff_line(GSimpleAction *a, GVariant *p, gpointer data)
{
    TkvWindow *self = data;
    const char *side;
    guint32 row;
    g_variant_get(p, "(&su)", &side, &row);
    int s = strcmp(side, "a") == 0 || strcmp(side, "before") == 0 ? 0 :
            strcmp(side, "b") == 0 || strcmp(side, "after") == 0  ? 1 : -1;
    if (!tkv_pass_view_select_diff_line(self->pass_view, s, row))
        set_last_error(self, "select-diff-line: no row %s:%u in the diff shown", side, row);
}

static void act_sidebar_page(GSimpleAction *a, GVariant *v, gpointer data)
{
    TkvWindow *self = data;
    const char *page = g_variant_get_string(v, NULL);
    if (!gtk_stack_get_child_by_name(self->info_stack, page))
        return;
    gtk_stack_set_visible_child_name(self->info_stack, page);
    g_simple_action_set_state(a, v);
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
    {"select-ir-line", act_select_ir_line, "(su)", NULL, NULL, {0}},
    {"source-file", act_source_file, "s", NULL, NULL, {0}},
    {"stage", NULL, "s", "'ttgir'", act_stage, {0}},
    {"second-stage", NULL, "s", "'ptx'", act_second_stage, {0}},
    {"show-second-view", NULL, NULL, "false", act_show_second, {0}},
    {"exact-only", NULL, NULL, "false", act_exact, {0}},
    {"next-match", act_next_match, NULL, NULL, NULL, {0}},
    {"previous-match", act_previous_match, NULL, NULL, NULL, {0}},
    {"find", act_find, NULL, NULL, NULL, {0}},
    {"find-next", act_find_next, NULL, NULL, NULL, {0}},
    {"find-previous", act_find_previous, NULL, NULL, NULL, {0}},
    {"goto-line", act_goto_line, NULL, NULL, NULL, {0}},
    {"focus-kernel-filter", act_focus_filter, NULL, NULL, NULL, {0}},
    {"mode", NULL, "s", "'bind'", act_mode, {0}},
    {"sidebar-page", NULL, "s", "'stack'", act_sidebar_page, {0}},
    {"reload", act_reload, NULL, NULL, NULL, {0}},
    {"select-pass", act_select_pass, "s", NULL, NULL, {0}},
    {"changed-only", NULL, NULL, "false", act_changed_only, {0}},
    {"next-change", act_next_change, NULL, NULL, NULL, {0}},
    {"previous-change", act_previous_change, NULL, NULL, NULL, {0}},
    {"select-diff-line", act_select_diff_line, "(su)", NULL, NULL, {0}},
    {"close", act_close, NULL, NULL, NULL, {0}},
    {"none", act_none, NULL, NULL, NULL, {0}},
};

/* ---- following the bind view ------------------------------------------------- */

static void on_stage_changed(TkvBindView *bv, guint pane, TkvWindow *self)
{
    tk_stage_kind k = tkv_bind_view_get_stage(bv, (TkvPaneId)pane);
    if (k == TK_STAGE_UNKNOWN)
        return;
    set_action_state(self, pane == TKV_PANE_SECONDARY ? "second-stage" : "stage",
                     g_variant_new_string(tk_stage_kind_name(k)));
    set_action_state(self, "show-second-view",
                     g_variant_new_boolean(tkv_bind_view_get_second_visible(bv)));
}

static void on_anchor_changed(TkvBindView *bv, TkvWindow *self);

static void update_stack_panel(TkvWindow *self)
{
    if (!in_pass_mode(self)) {
        on_anchor_changed(self->bind_view, self);
        return;
    }
    const tk_stack_id *ids;
    const char *heading;
    size_t n = tkv_pass_view_get_selected_stacks(self->pass_view, &ids, &heading);
    if (heading)
        tkv_stack_panel_show_stacks(self->stack_panel, self->doc, heading, ids, n, FALSE);
    else
        tkv_stack_panel_clear(self->stack_panel, "Select a line of the diff to see where it "
                                                 "came from.");
}

static void on_pass_anchor(TkvPassView *pv, TkvWindow *self)
{
    if (in_pass_mode(self))
        update_stack_panel(self);
}

static void on_passes_loaded(TkvPassView *pv, TkvWindow *self)
{
    char *pass = tkv_document_format_pass_diags(self->doc);
    if (*pass) {
        GtkTextBuffer *b = gtk_text_view_get_buffer(self->problems_view);
        GtkTextIter end;
        gtk_text_buffer_get_end_iter(b, &end);
        gtk_text_buffer_insert(b, &end, "\nPass dumps:\n", -1);
        gtk_text_buffer_get_end_iter(b, &end);
        gtk_text_buffer_insert(b, &end, pass, -1);
    }
    g_free(pass);
}

static void on_anchor_changed(TkvBindView *bv, TkvWindow *self)
{
    if (in_pass_mode(self))
        return;
    tk_stage_kind stage;
    guint line;
    TkvAnchorKind kind = tkv_bind_view_get_anchor(bv, &stage, NULL, &line);
    if (kind == TKV_ANCHOR_IR) {
        tkv_stack_panel_show(self->stack_panel, self->doc, (guint)self->kernel, stage, line);
        if (strcmp(gtk_stack_get_visible_child_name(self->info_stack), "problems") != 0)
            gtk_stack_set_visible_child_name(self->info_stack, "stack");
    } else {
        tkv_stack_panel_clear(self->stack_panel,
                              kind == TKV_ANCHOR_SOURCE
                                  ? "A source line is selected: its IR is highlighted. "
                                    "Select an IR line to see its inline stack."
                                  : "Select an IR line to see where it came from.");
    }
}

static void on_banner_close(TkvWindow *self)
{
    gtk_revealer_set_reveal_child(self->banner_revealer, FALSE);
}

/* ---- GObject --------------------------------------------------------------------- */

static void tkv_window_dispose(GObject *object)
{
    TkvWindow *self = TKV_WINDOW(object);
    if (self->cancel) {
        g_cancellable_cancel(self->cancel);
        g_clear_object(&self->cancel);
    }
    stop_progress(self);
    g_signal_handlers_disconnect_by_data(gtk_recent_manager_get_default(), self);
    /* No gtk_widget_dispose_template(): GtkWindow unparents its own child
     * and titlebar, and would find the titlebar gone. */
    g_clear_object(&self->doc);
    g_clear_object(&self->selection);
    g_clear_object(&self->kernels);
    G_OBJECT_CLASS(tkv_window_parent_class)->dispose(object);
}

static void tkv_window_finalize(GObject *object)
{
    TkvWindow *self = TKV_WINDOW(object);
    g_free(self->state);
    g_free(self->last_error);
    G_OBJECT_CLASS(tkv_window_parent_class)->finalize(object);
}

static void tkv_window_class_init(TkvWindowClass *klass)
{
    GObjectClass *oc = G_OBJECT_CLASS(klass);
    GtkWidgetClass *wc = GTK_WIDGET_CLASS(klass);
    oc->dispose = tkv_window_dispose;
    oc->finalize = tkv_window_finalize;
    sigs[SIG_LOADED] = g_signal_new("loaded", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0,
                                    NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_BOOLEAN);
    g_type_ensure(TKV_TYPE_BIND_VIEW);
    g_type_ensure(TKV_TYPE_STACK_PANEL);
    g_type_ensure(TKV_TYPE_META_PANEL);
    g_type_ensure(TKV_TYPE_PASS_VIEW);
    gtk_widget_class_set_template_from_resource(wc, "/org/tkview/Viewer/ui/tkv_window.ui");
    gtk_widget_class_bind_template_child(wc, TkvWindow, title_label);
    gtk_widget_class_bind_template_child(wc, TkvWindow, subtitle_label);
    gtk_widget_class_bind_template_child(wc, TkvWindow, recent_button);
    gtk_widget_class_bind_template_child(wc, TkvWindow, content);
    gtk_widget_class_bind_template_child(wc, TkvWindow, recent_list);
    gtk_widget_class_bind_template_child(wc, TkvWindow, recent_heading);
    gtk_widget_class_bind_template_child(wc, TkvWindow, spinner);
    gtk_widget_class_bind_template_child(wc, TkvWindow, loading_label);
    gtk_widget_class_bind_template_child(wc, TkvWindow, progress);
    gtk_widget_class_bind_template_child(wc, TkvWindow, error_title);
    gtk_widget_class_bind_template_child(wc, TkvWindow, error_view);
    gtk_widget_class_bind_template_child(wc, TkvWindow, banner_revealer);
    gtk_widget_class_bind_template_child(wc, TkvWindow, banner_label);
    gtk_widget_class_bind_template_child(wc, TkvWindow, kernel_filter);
    gtk_widget_class_bind_template_child(wc, TkvWindow, kernel_count);
    gtk_widget_class_bind_template_child(wc, TkvWindow, kernel_list);
    gtk_widget_class_bind_template_child(wc, TkvWindow, info_stack);
    gtk_widget_class_bind_template_child(wc, TkvWindow, stack_panel);
    gtk_widget_class_bind_template_child(wc, TkvWindow, meta_panel);
    gtk_widget_class_bind_template_child(wc, TkvWindow, problems_view);
    gtk_widget_class_bind_template_child(wc, TkvWindow, mode_stack);
    gtk_widget_class_bind_template_child(wc, TkvWindow, pass_view);
    gtk_widget_class_bind_template_child(wc, TkvWindow, bind_view);
    gtk_widget_class_bind_template_callback(wc, on_banner_close);
}

static void tkv_window_init(TkvWindow *self)
{
    gtk_widget_init_template(GTK_WIDGET(self));
    self->state = g_strdup("welcome");
    self->kernel = -1;
    g_action_map_add_action_entries(G_ACTION_MAP(self), win_actions, G_N_ELEMENTS(win_actions),
                                    self);

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

    g_signal_connect(self->bind_view, "stage-changed", G_CALLBACK(on_stage_changed), self);
    g_signal_connect(self->bind_view, "anchor-changed", G_CALLBACK(on_anchor_changed), self);
    g_signal_connect(self->pass_view, "anchor-changed", G_CALLBACK(on_pass_anchor), self);
    g_signal_connect(self->pass_view, "loaded", G_CALLBACK(on_passes_loaded), self);

    GtkDropTarget *drop = gtk_drop_target_new(G_TYPE_INVALID, GDK_ACTION_COPY);
    GType types[] = {GDK_TYPE_FILE_LIST, G_TYPE_FILE};
    gtk_drop_target_set_gtypes(drop, types, G_N_ELEMENTS(types));
    g_signal_connect(drop, "drop", G_CALLBACK(on_drop), self);
    gtk_widget_add_controller(GTK_WIDGET(self), GTK_EVENT_CONTROLLER(drop));

    g_signal_connect_swapped(gtk_recent_manager_get_default(), "changed",
                             G_CALLBACK(update_recent), self);
    g_signal_connect_swapped(self, "notify::application", G_CALLBACK(update_recent), self);
    set_state(self, "welcome");
}

TkvWindow *tkv_window_new(GtkApplication *app)
{
    return g_object_new(TKV_TYPE_WINDOW, "application", app, NULL);
}
