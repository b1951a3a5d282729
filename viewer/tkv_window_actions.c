/* tkv_window_actions.c - the window's actions (win.*).  GtkApplication
 * exports them on D-Bus (/org/tkview/Viewer/window/ID); their keys are set
 * by the application (tkv_application.c). */
#include "tkv_window_private.h"

#include <string.h>

#include "tkv_application.h"

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

void tkv_window_set_action_state(TkvWindow *self, const char *name, GVariant *state)
{
    GAction *a = g_action_map_lookup_action(G_ACTION_MAP(self), name);
    g_simple_action_set_state(G_SIMPLE_ACTION(a), state);
}

static TkvCodePane *focused_pane(TkvWindow *self)
{
    return tkv_window_in_pass_mode(self) ? tkv_pass_view_get_focused_pane(self->pass_view)
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
                tkv_window_show_kernel(self, (int)i);
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
    gboolean pass = tkv_window_in_pass_mode(self);
    gboolean ok = f != TKV_NO_FILE && (pass ? tkv_pass_view_select_source(self->pass_view, f, line)
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
    gboolean ok = f != TKV_NO_FILE && (tkv_window_in_pass_mode(self)
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
    if (tkv_window_in_pass_mode(self))
        tkv_pass_view_step_match(self->pass_view, 1);
    else
        tkv_bind_view_step_match(self->bind_view, 1);
}

static void act_previous_match(GSimpleAction *a, GVariant *p, gpointer data)
{
    TkvWindow *self = data;
    if (tkv_window_in_pass_mode(self))
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
    tkv_window_update_stack_panel(self);
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

void tkv_window_actions_update(TkvWindow *self, gboolean ready)
{
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

void tkv_window_actions_init(TkvWindow *self)
{
    g_action_map_add_action_entries(G_ACTION_MAP(self), win_actions, G_N_ELEMENTS(win_actions),
                                    self);
}
