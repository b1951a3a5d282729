/* tkv_pass_view_actions.c - the pass view's actions (pass-view.*), their
 * keys, and user input turned into them.
 *
 * A click in the pass list activates select-pass (s: "14", "33.0", "13-14" or
 * a pass name, the grammar of tk_passref.h;
 * tkv_pass_view_list.c), a click or cursor move in a side of the diff
 * select-diff-line (su: "a" or "b", row), one in the source pane
 * select-source-location (su), the file selector source-file (s); the UI, the
 * keys and the tests (through the test hooks) all go through the same
 * actions, whose handlers call the view's functions (tkv_pass_view.h).
 * changed-only is the view's "changed-only" property (the list's check
 * button shows it).  Find is the view's find bar, over both sides and the
 * source (tkv_find_bar.h); next/previous match and go to line act on the
 * pane that last had the focus.  A request that names nothing rings the bell
 * and is kept as the window's last error (tkv_action_error.h).
 */
#include "passes/tkv_pass_view_private.h"

#include <string.h>

#include "widgets/tkv_action_error.h"
#include "widgets/tkv_view_shortcuts.h"

static const TkvViewShortcut shortcuts[] = {
    {"pass-view.next-change", NULL, "F7|<Alt>Page_Down", FALSE},
    {"pass-view.previous-change", NULL, "<Shift>F7|<Alt>Page_Up", FALSE},
    {"pass-view.next-change", NULL, "n", TRUE},
    {"pass-view.previous-change", NULL, "p", TRUE},
    {"pass-view.changed-only", NULL, "<Control>h", FALSE},
    {"pass-view.next-match", NULL, "F8|<Alt>Down", FALSE},
    {"pass-view.previous-match", NULL, "<Shift>F8|<Alt>Up", FALSE},
    {"pass-view.find", NULL, "<Control>f", FALSE},
    {"pass-view.find-next", NULL, "<Control>g", FALSE},
    {"pass-view.find-previous", NULL, "<Control><Shift>g", FALSE},
    {"pass-view.goto-line", NULL, "<Control>l", FALSE},
};

static const char *const action_names[] = {
    "pass-view.select-pass", "pass-view.select-diff-line", "pass-view.select-source-location",
    "pass-view.source-file", "pass-view.changed-only", "pass-view.next-change",
    "pass-view.previous-change", "pass-view.next-match", "pass-view.previous-match",
    "pass-view.find", "pass-view.find-next", "pass-view.find-previous", "pass-view.find-text",
    "pass-view.goto-line",
};

/* ---- the actions ------------------------------------------------------------ */

/* The kernel's file a user means by PATH (tkv_document_find_file()). */
static tk_file_id find_file(TkvPassView *self, const char *path)
{
    return self->has_kernel ? tkv_document_find_file(self->doc, self->kernel, path)
                            : TKV_NO_FILE;
}

static void act_select_pass(GtkWidget *widget, const char *name, GVariant *p)
{
    const char *spec = g_variant_get_string(p, NULL);
    if (!tkv_pass_view_select(TKV_PASS_VIEW(widget), spec))
        tkv_action_error(widget, "select-pass: \"%s\" names no pass of this kernel's timeline",
                         spec);
}

static void act_select_diff_line(GtkWidget *widget, const char *name, GVariant *p)
{
    const char *side;
    guint32 row;
    g_variant_get(p, "(&su)", &side, &row);
    int s = strcmp(side, "a") == 0 || strcmp(side, "before") == 0 ? 0 :
            strcmp(side, "b") == 0 || strcmp(side, "after") == 0  ? 1 : -1;
    if (!tkv_pass_view_select_diff_line(TKV_PASS_VIEW(widget), s, row))
        tkv_action_error(widget, "select-diff-line: no row %s:%u in the diff shown", side, row);
}

static void act_select_source_location(GtkWidget *widget, const char *name, GVariant *p)
{
    TkvPassView *self = TKV_PASS_VIEW(widget);
    const char *path;
    guint32 line;
    g_variant_get(p, "(&su)", &path, &line);
    tk_file_id f = find_file(self, path);
    if (f == TKV_NO_FILE || !tkv_pass_view_select_source(self, f, line))
        tkv_action_error(widget, "select-source-location: no location of this kernel in %s:%u",
                         path, line);
}

static void act_source_file(GtkWidget *widget, const char *name, GVariant *p)
{
    TkvPassView *self = TKV_PASS_VIEW(widget);
    const char *path = g_variant_get_string(p, NULL);
    tk_file_id f = find_file(self, path);
    if (f == TKV_NO_FILE || !tkv_pass_view_show_file(self, f))
        tkv_action_error(widget, "source-file: %s is not a file of this kernel", path);
}

static void act_step_change(GtkWidget *widget, const char *name, GVariant *p)
{
    tkv_pass_view_step_change(TKV_PASS_VIEW(widget),
                              strcmp(name, "pass-view.next-change") == 0 ? 1 : -1);
}

static void act_step_match(GtkWidget *widget, const char *name, GVariant *p)
{
    tkv_pass_view_step_match(TKV_PASS_VIEW(widget),
                             strcmp(name, "pass-view.next-match") == 0 ? 1 : -1);
}

/* The view's find bar, over both sides and the source (tkv_find_bar.h). */
static void act_find(GtkWidget *widget, const char *name, GVariant *p)
{
    TkvFindBar *find = TKV_PASS_VIEW(widget)->find;
    if (strcmp(name, "pass-view.find") == 0)
        tkv_find_bar_open(find);
    else if (!tkv_find_bar_step(find, strcmp(name, "pass-view.find-next") == 0 ? 1 : -1))
        tkv_find_bar_open(find);
}

/* What typing in the find bar does: (text, regular expression, match case). */
static void act_find_text(GtkWidget *widget, const char *name, GVariant *p)
{
    const char *text;
    gboolean regex, match_case;
    g_variant_get(p, "(&sbb)", &text, &regex, &match_case);
    tkv_find_bar_set_query(TKV_PASS_VIEW(widget)->find, text, regex, match_case);
}

static void act_goto_line(GtkWidget *widget, const char *name, GVariant *p)
{
    tkv_code_pane_goto_line(tkv_pass_view_get_focused_pane(TKV_PASS_VIEW(widget)));
}

void tkv_pass_view_class_actions_init(GtkWidgetClass *wc)
{
    gtk_widget_class_install_action(wc, "pass-view.select-pass", "s", act_select_pass);
    gtk_widget_class_install_action(wc, "pass-view.select-diff-line", "(su)",
                                    act_select_diff_line);
    gtk_widget_class_install_action(wc, "pass-view.select-source-location", "(su)",
                                    act_select_source_location);
    gtk_widget_class_install_action(wc, "pass-view.source-file", "s", act_source_file);
    gtk_widget_class_install_property_action(wc, "pass-view.changed-only", "changed-only");
    gtk_widget_class_install_action(wc, "pass-view.next-change", NULL, act_step_change);
    gtk_widget_class_install_action(wc, "pass-view.previous-change", NULL, act_step_change);
    gtk_widget_class_install_action(wc, "pass-view.next-match", NULL, act_step_match);
    gtk_widget_class_install_action(wc, "pass-view.previous-match", NULL, act_step_match);
    gtk_widget_class_install_action(wc, "pass-view.find", NULL, act_find);
    gtk_widget_class_install_action(wc, "pass-view.find-next", NULL, act_find);
    gtk_widget_class_install_action(wc, "pass-view.find-previous", NULL, act_find);
    gtk_widget_class_install_action(wc, "pass-view.find-text", "(sbb)", act_find_text);
    gtk_widget_class_install_action(wc, "pass-view.goto-line", NULL, act_goto_line);
}

void tkv_pass_view_actions_update(TkvPassView *self)
{
    for (size_t i = 0; i < G_N_ELEMENTS(action_names); i++)
        gtk_widget_action_set_enabled(GTK_WIDGET(self), action_names[i], self->doc != NULL);
}

/* ---- user input -> actions -------------------------------------------------- */

static void on_side_line(TkvCodeView *view, guint line, TkvPassView *self)
{
    int side = view == tkv_pass_view_side_view(self, 1);
    gtk_widget_activate_action(GTK_WIDGET(self), "pass-view.select-diff-line", "(su)",
                               side ? "b" : "a", line);
}

static void on_source_line(TkvCodeView *view, guint line, TkvPassView *self)
{
    const char *path = tkv_document_get_file_path(self->doc, self->src_file);
    if (path)
        gtk_widget_activate_action(GTK_WIDGET(self), "pass-view.select-source-location", "(su)",
                                   path, line);
}

static void on_file_selected(GtkDropDown *dd, GParamSpec *pspec, TkvPassView *self)
{
    const tk_file_id *files;
    size_t nf = self->has_kernel ? tkv_document_get_files(self->doc, self->kernel, &files) : 0;
    guint pos = gtk_drop_down_get_selected(dd);
    if (self->updating || pos >= nf)
        return;
    gtk_widget_activate_action(GTK_WIDGET(self), "pass-view.source-file", "s",
                               tkv_document_get_file_path(self->doc, files[pos]));
}

void tkv_pass_view_actions_init(TkvPassView *self)
{
    for (int s = 0; s < 2; s++)
        g_signal_connect(tkv_pass_view_side_view(self, s), "line-selected",
                         G_CALLBACK(on_side_line), self);
    g_signal_connect(tkv_code_pane_get_view(self->source_pane), "line-selected",
                     G_CALLBACK(on_source_line), self);
    g_signal_connect(tkv_code_pane_get_selector(self->source_pane), "notify::selected",
                     G_CALLBACK(on_file_selected), self);
    tkv_view_shortcuts_add(GTK_WIDGET(self), shortcuts, G_N_ELEMENTS(shortcuts));
    tkv_pass_view_actions_update(self);
}
