/* tkv_bind_view_actions.c - the binding view's actions (bind-view.*), their
 * keys, and user input turned into them.
 *
 * A click or cursor move in a pane activates select-source-location (su) or
 * select-ir-line (su); the panes' selectors activate stage, second-stage (s)
 * and source-file (s): the UI, the keys and the tests (through the test
 * hooks) all go through the same actions, whose handlers call the view's
 * functions (tkv_bind_view.h).  Find is the view's find bar, over all its panes
 * (tkv_find_bar.h); next/previous match and go to line act
 * on the pane that last had the focus.  A request that names nothing rings
 * the bell and is kept as the window's last error (tkv_action_error.h).
 */
#include "bind/tkv_bind_view_private.h"

#include <string.h>

#include "widgets/tkv_action_error.h"
#include "widgets/tkv_view_shortcuts.h"

static const TkvViewShortcut shortcuts[] = {
    {"bind-view.next-match", NULL, "F8|<Alt>Down", FALSE},
    {"bind-view.previous-match", NULL, "<Shift>F8|<Alt>Up", FALSE},
    {"bind-view.next-match", NULL, "n", TRUE},
    {"bind-view.previous-match", NULL, "p", TRUE},
    {"bind-view.find", NULL, "<Control>f", FALSE},
    {"bind-view.find-next", NULL, "<Control>g", FALSE},
    {"bind-view.find-previous", NULL, "<Control><Shift>g", FALSE},
    {"bind-view.goto-line", NULL, "<Control>l", FALSE},
    /* Alt+N: the Nth tab of the stage menu as this kernel shows it (an AMD
     * kernel's AMDGCN is its fourth); the plain digit too, the report's key. */
    {"bind-view.stage-at", "uint32 1", "1", TRUE},
    {"bind-view.stage-at", "uint32 2", "2", TRUE},
    {"bind-view.stage-at", "uint32 3", "3", TRUE},
    {"bind-view.stage-at", "uint32 4", "4", TRUE},
    {"bind-view.stage-at", "uint32 5", "5", TRUE},
    {"bind-view.stage-at", "uint32 6", "6", TRUE},
    {"bind-view.stage-at", "uint32 1", "<Alt>1", FALSE},
    {"bind-view.stage-at", "uint32 2", "<Alt>2", FALSE},
    {"bind-view.stage-at", "uint32 3", "<Alt>3", FALSE},
    {"bind-view.stage-at", "uint32 4", "<Alt>4", FALSE},
    {"bind-view.stage-at", "uint32 5", "<Alt>5", FALSE},
    {"bind-view.stage-at", "uint32 6", "<Alt>6", FALSE},
    {"bind-view.second-stage-at", "uint32 1", "<Control><Alt>1", FALSE},
    {"bind-view.second-stage-at", "uint32 2", "<Control><Alt>2", FALSE},
    {"bind-view.second-stage-at", "uint32 3", "<Control><Alt>3", FALSE},
    {"bind-view.second-stage-at", "uint32 4", "<Control><Alt>4", FALSE},
    {"bind-view.second-stage-at", "uint32 5", "<Control><Alt>5", FALSE},
    {"bind-view.second-stage-at", "uint32 6", "<Control><Alt>6", FALSE},
};

static const char *const action_names[] = {
    "bind-view.select-source-location", "bind-view.select-ir-line", "bind-view.source-file",
    "bind-view.stage", "bind-view.second-stage", "bind-view.next-match",
    "bind-view.previous-match", "bind-view.find", "bind-view.find-next",
    "bind-view.find-previous", "bind-view.find-text", "bind-view.goto-line",
    "bind-view.show-shared", "bind-view.stage-at", "bind-view.second-stage-at",
};

/* ---- the actions ------------------------------------------------------------ */

/* The kernel's file a user means by PATH (tkv_document_find_file()). */
static tk_file_id find_file(TkvBindView *self, const char *path)
{
    return self->doc ? tkv_document_find_file(self->doc, self->kernel, path) : TKV_NO_FILE;
}

static void act_select_source_location(GtkWidget *widget, const char *name, GVariant *p)
{
    TkvBindView *self = TKV_BIND_VIEW(widget);
    const char *path;
    guint32 line;
    g_variant_get(p, "(&su)", &path, &line);
    tk_file_id f = find_file(self, path);
    if (f == TKV_NO_FILE || !tkv_bind_view_select_source(self, f, line))
        tkv_action_error(widget, "select-source-location: no location of this kernel in %s:%u",
                         path, line);
}

static void act_select_ir_line(GtkWidget *widget, const char *name, GVariant *p)
{
    const char *stage;
    guint32 line;
    g_variant_get(p, "(&su)", &stage, &line);
    if (!tkv_bind_view_select_ir(TKV_BIND_VIEW(widget), tk_stage_kind_parse(stage), line))
        tkv_action_error(widget, "select-ir-line: no line %s:%u in this kernel", stage, line);
}

static void act_source_file(GtkWidget *widget, const char *name, GVariant *p)
{
    TkvBindView *self = TKV_BIND_VIEW(widget);
    const char *path = g_variant_get_string(p, NULL);
    tk_file_id f = find_file(self, path);
    if (f == TKV_NO_FILE || !tkv_bind_view_show_file(self, f))
        tkv_action_error(widget, "source-file: %s is not a file of this kernel", path);
}

static void act_stage(GtkWidget *widget, const char *name, GVariant *p)
{
    TkvPaneId pane = strcmp(name, "bind-view.second-stage") == 0 ? TKV_PANE_SECONDARY
                                                                  : TKV_PANE_PRIMARY;
    const char *stage = g_variant_get_string(p, NULL);
    if (!tkv_bind_view_set_stage(TKV_BIND_VIEW(widget), pane, tk_stage_kind_parse(stage)))
        tkv_action_error(widget, "stage: this kernel has no stage \"%s\"", stage);
}

/* The Nth stage (1-based) of the stage menus, in the order they list it. */
static void act_stage_at(GtkWidget *widget, const char *name, GVariant *p)
{
    TkvBindView *self = TKV_BIND_VIEW(widget);
    guint32 n = g_variant_get_uint32(p);
    TkvPaneId pane = strcmp(name, "bind-view.second-stage-at") == 0 ? TKV_PANE_SECONDARY
                                                                     : TKV_PANE_PRIMARY;
    if (n < 1 || n > self->n_stages || !tkv_bind_view_set_stage(self, pane, self->stages[n - 1]))
        tkv_action_error(widget, "stage-at: this kernel has %u stages, not %u (its stage "
                         "menu lists them in order; Alt+1 is the first)",
                         (unsigned)self->n_stages, (unsigned)n);
}

static void act_step_match(GtkWidget *widget, const char *name, GVariant *p)
{
    tkv_bind_view_step_match(TKV_BIND_VIEW(widget),
                             strcmp(name, "bind-view.next-match") == 0 ? 1 : -1);
}

/* The notes' "Show them": the helper code the answer leaves out. */
static void act_show_shared(GtkWidget *widget, const char *name, GVariant *p)
{
    if (!tkv_bind_view_show_shared(TKV_BIND_VIEW(widget)))
        tkv_action_error(widget, "show-shared: the answer shown leaves no shared code out");
}

/* The view's find bar, over all its panes (tkv_find_bar.h). */
static void act_find(GtkWidget *widget, const char *name, GVariant *p)
{
    TkvFindBar *find = TKV_BIND_VIEW(widget)->find;
    if (strcmp(name, "bind-view.find") == 0)
        tkv_find_bar_open(find);
    else if (!tkv_find_bar_step(find, strcmp(name, "bind-view.find-next") == 0 ? 1 : -1))
        tkv_find_bar_open(find);
}

/* What typing in the find bar does: (text, regular expression, match case). */
static void act_find_text(GtkWidget *widget, const char *name, GVariant *p)
{
    const char *text;
    gboolean regex, match_case;
    g_variant_get(p, "(&sbb)", &text, &regex, &match_case);
    tkv_find_bar_set_query(TKV_BIND_VIEW(widget)->find, text, regex, match_case);
}

static void act_goto_line(GtkWidget *widget, const char *name, GVariant *p)
{
    tkv_code_pane_goto_line(tkv_bind_view_get_focused_pane(TKV_BIND_VIEW(widget)));
}

void tkv_bind_view_class_actions_init(GtkWidgetClass *wc)
{
    gtk_widget_class_install_action(wc, "bind-view.select-source-location", "(su)",
                                    act_select_source_location);
    gtk_widget_class_install_action(wc, "bind-view.select-ir-line", "(su)", act_select_ir_line);
    gtk_widget_class_install_action(wc, "bind-view.source-file", "s", act_source_file);
    gtk_widget_class_install_action(wc, "bind-view.stage", "s", act_stage);
    gtk_widget_class_install_action(wc, "bind-view.second-stage", "s", act_stage);
    gtk_widget_class_install_action(wc, "bind-view.stage-at", "u", act_stage_at);
    gtk_widget_class_install_action(wc, "bind-view.second-stage-at", "u", act_stage_at);
    gtk_widget_class_install_action(wc, "bind-view.next-match", NULL, act_step_match);
    gtk_widget_class_install_action(wc, "bind-view.previous-match", NULL, act_step_match);
    gtk_widget_class_install_action(wc, "bind-view.find", NULL, act_find);
    gtk_widget_class_install_action(wc, "bind-view.find-next", NULL, act_find);
    gtk_widget_class_install_action(wc, "bind-view.find-previous", NULL, act_find);
    gtk_widget_class_install_action(wc, "bind-view.find-text", "(sbb)", act_find_text);
    gtk_widget_class_install_action(wc, "bind-view.goto-line", NULL, act_goto_line);
    gtk_widget_class_install_action(wc, "bind-view.show-shared", NULL, act_show_shared);
}

void tkv_bind_view_actions_update(TkvBindView *self)
{
    for (size_t i = 0; i < G_N_ELEMENTS(action_names); i++)
        gtk_widget_action_set_enabled(GTK_WIDGET(self), action_names[i], self->doc != NULL);
}

/* ---- user input -> actions -------------------------------------------------- */

static void on_source_line(TkvCodeView *view, guint line, TkvBindView *self)
{
    const char *path = tkv_document_get_file_path(self->doc, self->file);
    if (path)
        gtk_widget_activate_action(GTK_WIDGET(self), "bind-view.select-source-location", "(su)",
                                   path, line);
}

void tkv_bind_view_on_ir_line(TkvCodeView *view, guint line, TkvBindPaneRef *ref)
{
    gtk_widget_activate_action(GTK_WIDGET(ref->view), "bind-view.select-ir-line", "(su)",
                               tk_stage_kind_name(ref->view->pane_stage[ref->which]), line);
}

static void on_stage_selected(GtkDropDown *dd, GParamSpec *pspec, TkvBindPaneRef *ref)
{
    TkvBindView *self = ref->view;
    guint pos = gtk_drop_down_get_selected(dd);
    if (self->updating || pos >= self->n_stages)
        return;
    gtk_widget_activate_action(GTK_WIDGET(self),
                               ref->which == 0 ? "bind-view.stage" : "bind-view.second-stage",
                               "s", tk_stage_kind_name(self->stages[pos]));
}

static void on_file_selected(GtkDropDown *dd, GParamSpec *pspec, TkvBindView *self)
{
    guint pos = gtk_drop_down_get_selected(dd);
    if (self->updating || pos >= self->n_files)
        return;
    gtk_widget_activate_action(GTK_WIDGET(self), "bind-view.source-file", "s",
                               tkv_document_get_file_path(self->doc, self->files[pos]));
}

void tkv_bind_view_actions_init(TkvBindView *self)
{
    for (int w = 0; w < TKV_BIND_VIEW_IR_PANES; w++) {
        g_signal_connect(tkv_bind_view_ir_view(self, w), "line-selected",
                         G_CALLBACK(tkv_bind_view_on_ir_line), &self->pane_ref[w]);
        g_signal_connect(tkv_code_pane_get_selector(tkv_bind_view_ir_pane(self, w)),
                         "notify::selected", G_CALLBACK(on_stage_selected), &self->pane_ref[w]);
    }
    g_signal_connect(tkv_bind_view_source_view(self), "line-selected",
                     G_CALLBACK(on_source_line), self);
    g_signal_connect(tkv_code_pane_get_selector(self->source_pane), "notify::selected",
                     G_CALLBACK(on_file_selected), self);
    tkv_view_shortcuts_add(GTK_WIDGET(self), shortcuts, G_N_ELEMENTS(shortcuts));
    tkv_bind_view_actions_update(self);
}
