/* tkv_window.c - the window: its pages (start, loading, error, main),
 * loading a bundle, the side panels following the views, recent bundles,
 * drops; the kernel list and the actions are in the files
 * tkv_window_private.h lists. */
#include "app/tkv_window_private.h"

#include <string.h>

#include "app/tkv_application.h"
#include "app/tkv_kernel_item.h"
#include "widgets/tkv_action_error.h"

G_DEFINE_FINAL_TYPE(TkvWindow, tkv_window, GTK_TYPE_APPLICATION_WINDOW)

enum { SIG_LOADED, N_SIGS };
static guint sigs[N_SIGS];

static void set_state(TkvWindow *self, const char *state)
{
    g_free(self->state);
    self->state = g_strdup(state);
    gtk_stack_set_visible_child_name(self->content,
                                     strcmp(state, "ready") == 0 ? "main" : state);
    tkv_window_actions_update(self, strcmp(state, "ready") == 0);
}

void tkv_window_set_titles(TkvWindow *self, const char *title, const char *subtitle)
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
    tkv_window_set_titles(self, "tkview", tkv_document_get_path(self->doc));
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
    tkv_window_update_kernel_count(self);
    tkv_window_watch_diag(self);
    fill_problems(self);
    set_state(self, "ready");
    tkv_window_set_action_state(self, "mode", g_variant_new_string("bind"));
    gtk_stack_set_visible_child_name(self->mode_stack, "bind");
    self->kernel = -1;
    if (n)
        tkv_window_show_kernel(self, 0);
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
    tkv_compare_view_set_kernel(self->compare_view, NULL, 0);
    tkv_configs_view_set_document(self->configs_view, NULL);
    tkv_meta_panel_show(self->meta_panel, NULL, 0);
    tkv_hot_panel_show(self->hot_panel, NULL, 0, 0);
    tkv_diag_panel_show(self->diag_panel, NULL, 0);
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
    tkv_window_set_titles(self, "tkview", path);
    set_state(self, "loading");
    if (!self->progress_timer)
        self->progress_timer = g_timeout_add(50, on_progress_tick, self);
    tkv_document_load_async(self->doc, self->cancel, on_loaded, g_object_ref(self));
    tkv_bind_view_warm_up(); /* while the worker loads */
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
const char *tkv_window_get_last_error(TkvWindow *self)
{
    return tkv_action_error_get_last(GTK_WINDOW(self));
}
TkvPassView *tkv_window_get_pass_view(TkvWindow *self) { return self->pass_view; }
TkvCompareView *tkv_window_get_compare_view(TkvWindow *self) { return self->compare_view; }
TkvConfigsView *tkv_window_get_configs_view(TkvWindow *self) { return self->configs_view; }
TkvStackPanel *tkv_window_get_stack_panel(TkvWindow *self) { return self->stack_panel; }
TkvMetaPanel *tkv_window_get_meta_panel(TkvWindow *self) { return self->meta_panel; }
TkvHotPanel *tkv_window_get_hot_panel(TkvWindow *self) { return self->hot_panel; }
TkvDiagPanel *tkv_window_get_diag_panel(TkvWindow *self) { return self->diag_panel; }

gboolean tkv_window_get_sidebar_visible(TkvWindow *self)
{
    return gtk_widget_get_visible(gtk_paned_get_start_child(self->main_paned));
}

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

/* ---- following the bind view ------------------------------------------------- */

static void on_stage_changed(TkvBindView *bv, guint pane, TkvWindow *self)
{
    if (tkv_bind_view_get_stage(bv, (TkvPaneId)pane) == TK_STAGE_UNKNOWN)
        return;
    tkv_window_set_action_state(self, "show-second-view",
                                g_variant_new_boolean(tkv_bind_view_get_second_visible(bv)));
}

static void on_anchor_changed(TkvBindView *bv, TkvWindow *self);

gboolean tkv_window_in_pass_mode(TkvWindow *self)
{
    return g_strcmp0(gtk_stack_get_visible_child_name(self->mode_stack), "passes") == 0;
}

void tkv_window_update_stack_panel(TkvWindow *self)
{
    if (!tkv_window_in_pass_mode(self)) {
        on_anchor_changed(self->bind_view, self);
        return;
    }
    const tk_stack_id *ids;
    const char *heading;
    size_t n = tkv_pass_view_get_selected_stacks(self->pass_view, &ids, &heading);
    if (heading)
        tkv_stack_panel_show_stacks(self->stack_panel, self->doc, heading, ids, n,
                                    TK_STAGE_UNKNOWN);
    else
        tkv_stack_panel_clear(self->stack_panel, "Select a line of the diff to see where it "
                                                 "came from.");
}

static void on_pass_anchor(TkvPassView *pv, TkvWindow *self)
{
    if (tkv_window_in_pass_mode(self))
        tkv_window_update_stack_panel(self);
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
    if (tkv_window_in_pass_mode(self))
        return;
    tk_stage_kind stage;
    guint line;
    TkvAnchorKind kind = tkv_bind_view_get_anchor(bv, &stage, NULL, &line);
    if (kind == TKV_ANCHOR_IR) {
        tkv_stack_panel_show(self->stack_panel, self->doc, (guint)self->kernel, stage, line);
        /* the lists a line is opened from stay in view */
        const char *page = gtk_stack_get_visible_child_name(self->info_stack);
        if (strcmp(page, "problems") != 0 && strcmp(page, "diag") != 0)
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
    g_clear_handle_id(&self->narrow_idle, g_source_remove);
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
    G_OBJECT_CLASS(tkv_window_parent_class)->finalize(object);
}

/* The hot lines panel's metric is the cost columns' too. */
static void on_hot_metric(TkvHotPanel *hot, guint metric, TkvWindow *self)
{
    tkv_bind_view_set_metric(self->bind_view, metric);
}

/* A hot line activated: the binding view anchors on it. */
static void on_hot_row(TkvHotPanel *hot, int stage, guint file, guint line, TkvWindow *self)
{
    if (tkv_window_in_pass_mode(self))
        gtk_widget_activate_action(GTK_WIDGET(self), "win.mode", "s", "bind");
    if (stage < 0)
        tkv_bind_view_select_source(self->bind_view, (tk_file_id)file, line);
    else
        tkv_bind_view_select_ir(self->bind_view, (tk_stage_kind)stage, line);
}

/* A narrow window folds its side panel away (tkv_window_layout.c). */
static void tkv_window_size_allocate(GtkWidget *w, int width, int height, int baseline)
{
    GTK_WIDGET_CLASS(tkv_window_parent_class)->size_allocate(w, width, height, baseline);
    tkv_window_layout_width(TKV_WINDOW(w), width);
}

static void tkv_window_class_init(TkvWindowClass *klass)
{
    GObjectClass *oc = G_OBJECT_CLASS(klass);
    GtkWidgetClass *wc = GTK_WIDGET_CLASS(klass);
    oc->dispose = tkv_window_dispose;
    oc->finalize = tkv_window_finalize;
    wc->size_allocate = tkv_window_size_allocate;
    sigs[SIG_LOADED] = g_signal_new("loaded", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0,
                                    NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_BOOLEAN);
    g_type_ensure(TKV_TYPE_BIND_VIEW);
    g_type_ensure(TKV_TYPE_STACK_PANEL);
    g_type_ensure(TKV_TYPE_META_PANEL);
    g_type_ensure(TKV_TYPE_DIAG_PANEL);
    g_type_ensure(TKV_TYPE_HOT_PANEL);
    g_type_ensure(TKV_TYPE_PASS_VIEW);
    g_type_ensure(TKV_TYPE_COMPARE_VIEW);
    g_type_ensure(TKV_TYPE_CONFIGS_VIEW);
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
    gtk_widget_class_bind_template_child(wc, TkvWindow, main_paned);
    gtk_widget_class_bind_template_child(wc, TkvWindow, info_stack);
    gtk_widget_class_bind_template_child(wc, TkvWindow, stack_panel);
    gtk_widget_class_bind_template_child(wc, TkvWindow, meta_panel);
    gtk_widget_class_bind_template_child(wc, TkvWindow, hot_panel);
    gtk_widget_class_bind_template_child(wc, TkvWindow, diag_panel);
    gtk_widget_class_bind_template_child(wc, TkvWindow, problems_view);
    gtk_widget_class_bind_template_child(wc, TkvWindow, mode_stack);
    gtk_widget_class_bind_template_child(wc, TkvWindow, pass_view);
    gtk_widget_class_bind_template_child(wc, TkvWindow, bind_view);
    gtk_widget_class_bind_template_child(wc, TkvWindow, compare_view);
    gtk_widget_class_bind_template_child(wc, TkvWindow, configs_view);
    gtk_widget_class_bind_template_callback(wc, on_banner_close);
}

static void tkv_window_init(TkvWindow *self)
{
    gtk_widget_init_template(GTK_WIDGET(self));
    self->state = g_strdup("welcome");
    self->kernel = -1;
    self->narrow = -1;
    tkv_window_actions_init(self);

    tkv_window_kernels_init(self);

    g_signal_connect(self->bind_view, "stage-changed", G_CALLBACK(on_stage_changed), self);
    g_signal_connect(self->bind_view, "anchor-changed", G_CALLBACK(on_anchor_changed), self);
    g_signal_connect(self->pass_view, "anchor-changed", G_CALLBACK(on_pass_anchor), self);
    g_signal_connect(self->pass_view, "loaded", G_CALLBACK(on_passes_loaded), self);
    g_signal_connect(self->hot_panel, "metric-changed", G_CALLBACK(on_hot_metric), self);
    g_signal_connect(self->hot_panel, "row-activated", G_CALLBACK(on_hot_row), self);
    /* a compiler message opens at its line as a hot line does */
    g_signal_connect(self->diag_panel, "entry-activated", G_CALLBACK(on_hot_row), self);
    tkv_window_diag_init(self); /* and its pass, in pass mode */

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
    TkvWindow *self = g_object_new(TKV_TYPE_WINDOW, "application", app, NULL);
    /* The views are handed what they remember; they do not reach up to the
     * application for it. */
    tkv_bind_view_set_settings(self->bind_view, TKV_IS_APPLICATION(app)
                                                    ? tkv_application_get_settings(TKV_APPLICATION(app))
                                                    : NULL);
    tkv_window_layout_init(self);
    return self;
}
