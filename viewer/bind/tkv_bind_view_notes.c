/* tkv_bind_view_notes.c - the bar above the binding view's panes that says
 * what the answer shown is, when there is more to it than highlights:
 *   a source line of a statement of several lines: "statement lines 71-73"
 *      (the answer is what any of them became);
 *   helper code the answer leaves out: "630 SASS lines of this helper's code
 *      are shared by its 2 call sites (attention_fwd.py:73,
 *      attention_fwd.py:77)" with "Show them", which makes the primary pane
 *      step through those lines (tk_bind_shared_lines());
 *   an IR line whose other-stage lines were matched on the innermost frame
 *      only: "66 of the SASS lines are approximate ..."
 *      (tk_bind_match_approximate()).
 * Every fact comes from the library; this only words it. */
#include "bind/tkv_bind_view_private.h"

static const char *const stage_titles[] = {"TTIR", "TTGIR", "LLVM IR", "PTX", "SASS"};

static const char *base_name(const char *path)
{
    const char *b = path ? strrchr(path, '/') : NULL;
    return b ? b + 1 : path ? path : "?";
}

/* "630 SASS lines of this helper's code are shared by its 2 call sites
 * (a.py:73, a.py:77) and cannot be given to one: not highlighted." */
static void append_shared(TkvBindView *self, GString *g)
{
    const tk_bind_shared *sh = &self->shared;
    if (!sh->n_lines)
        return;
    tk_stage_kind s = self->pane_stage[0];
    g_string_append_printf(g, "%s%zu %s line%s of this helper\u2019s code %s shared by its %zu "
                           "call sites (",
                           g->len ? "\n" : "", sh->n_lines, stage_titles[s],
                           sh->n_lines == 1 ? "" : "s", sh->n_lines == 1 ? "is" : "are",
                           sh->n_sites);
    for (size_t i = 0; i < sh->n_sites; i++)
        g_string_append_printf(g, "%s%s:%u", i ? ", " : "",
                               base_name(tkv_document_get_file_path(self->doc, sh->sites[i].file)),
                               sh->sites[i].line);
    g_string_append(g, self->showing_shared
                           ? ") and cannot be given to one: the primary pane steps through "
                             "them now."
                           : ") and cannot be given to one: not highlighted.");
}

void tkv_bind_view_update_notes(TkvBindView *self)
{
    GString *g = g_string_new(NULL);
    gboolean button = FALSE;
    if (self->k && self->anchor == TKV_ANCHOR_SOURCE) {
        if (self->stmt_last > self->stmt_first)
            g_string_append_printf(g, "Statement lines %u-%u: a click on any of them binds to "
                                      "the IR of the whole statement.",
                                   self->stmt_first, self->stmt_last);
        append_shared(self, g);
        button = self->shared.n_lines && !self->showing_shared;
    } else if (self->k && self->anchor == TKV_ANCHOR_IR && self->n_approx) {
        int other = self->pane_stage[0] == self->anchor_stage ? 1 : 0;
        tk_stage_kind s = self->pane_stage[other];
        g_string_append_printf(g, "%u of the %s instructions highlighted are approximate: "
                                  "matched on the innermost frame only (%s has no inline "
                                  "frames there), so they may come from another call site "
                                  "of the same code.",
                               self->n_approx, stage_titles[s], stage_titles[s]);
    }
    char *safe = g_utf8_make_valid(g->str, -1);
    gtk_label_set_text(self->notes_label, safe);
    g_free(safe);
    gtk_widget_set_visible(self->notes, g->len > 0);
    gtk_widget_set_visible(self->notes_button, button);
    g_string_free(g, TRUE);
}

gboolean tkv_bind_view_show_shared(TkvBindView *self)
{
    if (!self->k || self->anchor != TKV_ANCHOR_SOURCE || !self->shared.n_lines)
        return FALSE;
    self->showing_shared = TRUE;
    TkvCodeView *v = tkv_bind_view_ir_view(self, 0);
    tkv_code_view_set_matches(v, self->shared.lines, self->shared.n_lines, TRUE);
    tkv_bind_view_update_notes(self);
    return TRUE;
}

const char *tkv_bind_view_get_notes_text(TkvBindView *self)
{
    return gtk_widget_get_visible(self->notes) ? gtk_label_get_text(self->notes_label) : "";
}

static void on_show_clicked(GtkButton *button, TkvBindView *self)
{
    gtk_widget_activate_action(GTK_WIDGET(self), "bind-view.show-shared", NULL);
}

void tkv_bind_view_notes_init(TkvBindView *self)
{
    g_signal_connect(self->notes_button, "clicked", G_CALLBACK(on_show_clicked), self);
}
