/* tkv_bind_view_render.c - the anchor drawn as highlights.  A source line:
 * each IR pane highlights the lines of its stage bound to it and scrolls to
 * the first ("k of n" in its header).  An IR line: its pane selects it, the
 * other IR pane highlights its lines with the same stacks, and the source
 * pane the lines its stacks name (tkv_stack_lines.h).  Every line number
 * comes from the library's binding index (tk_bind.h).  A source line asks
 * for its statement; instructions are matches (k of n), the other lines
 * bound (a .loc, a //## comment) context; matches made on the innermost
 * frame only are marked approximate. */
#include "bind/tkv_bind_view_private.h"
#include "tkdump/tk_statement.h"

#include <stdlib.h>

#include "document/tkv_stack_lines.h"

/* Highlights LINES (N) in view V: instructions as matches (k of n, stepped
 * through), the other lines bound (a located .loc, //##) as context;
 * APPROX (may be NULL): lines matched on the innermost frame only. */
static void show_lines(TkvBindView *self, TkvCodeView *v, tk_stage_kind s, const guint32 *lines,
                       gsize n, const GArray *approx)
{
    GArray *code, *other;
    tkv_bind_view_split_code(tk_kernel_stage(self->k, s), lines, n, &code, &other);
    tkv_code_view_set_matches(v, (const guint32 *)(void *)code->data, code->len, TRUE);
    tkv_code_view_set_context(v, (const guint32 *)(void *)other->data, other->len);
    if (approx)
        tkv_code_view_set_approx(v, (const guint32 *)(void *)approx->data, approx->len);
    TkvCodePane *p = v == tkv_bind_view_ir_view(self, 0) ? self->primary_pane
                                                         : self->secondary_pane;
    /* bound lines, none of them code (a block header, a .loc): say so */
    tkv_code_pane_set_empty_text(p, other->len ? "no instruction bound" : "no line bound");
    g_array_unref(code);
    g_array_unref(other);
}

void tkv_bind_view_render_ir_pane(TkvBindView *self, int which)
{
    TkvCodeView *v = tkv_bind_view_ir_view(self, which);
    TkvCodePane *p = tkv_bind_view_ir_pane(self, which);
    tk_stage_kind s = self->pane_stage[which];
    switch (self->anchor) {
    case TKV_ANCHOR_SOURCE: {
        /* the statement's lines: any line of a wrapped call binds */
        uint32_t *lines = NULL;
        size_t n = tk_bind_lines_to_stage(self->ix, self->anchor_file, self->stmt_first,
                                          self->stmt_last,
                                          self->exact ? TK_MATCH_EXACT : TK_MATCH_CALLED, s,
                                          &lines);
        tkv_code_view_set_selected(v, 0, FALSE, FALSE);
        show_lines(self, v, s, lines, n, NULL);
        free(lines);
        if (which == 0 && self->showing_shared && self->shared.n_lines)
            tkv_code_view_set_matches(v, self->shared.lines, self->shared.n_lines, TRUE);
        break;
    }
    case TKV_ANCHOR_IR:
        if (s == self->anchor_stage) {
            tkv_code_view_set_matches(v, NULL, 0, FALSE);
            tkv_code_view_set_selected(v, self->anchor_line, TRUE, TRUE);
            tkv_code_pane_set_empty_text(p, "");
        } else {
            uint32_t *lines = NULL;
            size_t n = tk_bind_stage_to_stage(self->ix, self->anchor_stage, self->anchor_line,
                                                s, &lines);
            GArray *approx = g_array_new(FALSE, FALSE, sizeof(guint32));
            const tk_stage *st = tk_kernel_stage(self->k, s);
            for (size_t i = 0; i < n; i++)
                if (tk_stage_line_kind(st, lines[i]) == TK_LINE_INSTRUCTION &&
                    tk_bind_match_approximate(self->ix, self->anchor_stage, self->anchor_line,
                                              s, lines[i]))
                    g_array_append_val(approx, lines[i]);
            self->n_approx = approx->len;
            tkv_code_view_set_selected(v, 0, FALSE, FALSE);
            show_lines(self, v, s, lines, n, approx);
            g_array_unref(approx);
            free(lines);
        }
        break;
    default:
        tkv_code_view_set_selected(v, 0, FALSE, FALSE);
        tkv_code_view_set_matches(v, NULL, 0, FALSE);
        tkv_code_pane_set_empty_text(p, "");
    }
}

void tkv_bind_view_render_source_pane(TkvBindView *self)
{
    TkvCodeView *v = tkv_bind_view_source_view(self);
    switch (self->anchor) {
    case TKV_ANCHOR_SOURCE: {
        tkv_bind_view_show_source_file(self, self->anchor_file);
        tkv_code_view_set_matches(v, NULL, 0, FALSE);
        /* the statement's other lines go with the one clicked */
        GArray *rest = g_array_new(FALSE, FALSE, sizeof(guint32));
        for (guint32 l = self->stmt_first; l <= self->stmt_last; l++)
            if (l != self->anchor_line)
                g_array_append_val(rest, l);
        tkv_code_view_set_context(v, (const guint32 *)(void *)rest->data, rest->len);
        g_array_unref(rest);
        tkv_code_view_set_selected(v, self->anchor_line, TRUE, TRUE);
        tkv_code_pane_set_empty_text(self->source_pane, "");
        break;
    }
    case TKV_ANCHOR_IR: {
        const tk_stack_id *ids;
        size_t n = tk_bind_line_stacks(self->ix, self->anchor_stage, self->anchor_line, &ids);
        tk_file_id file;
        GArray *lines = tkv_stack_lines_to_show(self->doc, ids, n, self->file, &file);
        tkv_bind_view_show_source_file(self, file);
        tkv_code_view_set_selected(v, 0, FALSE, FALSE);
        tkv_code_view_set_matches(v, (const guint32 *)(void *)lines->data, lines->len, TRUE);
        tkv_code_pane_set_empty_text(self->source_pane, "no line of this file");
        g_array_unref(lines);
        break;
    }
    default:
        tkv_code_view_set_selected(v, 0, FALSE, FALSE);
        tkv_code_view_set_matches(v, NULL, 0, FALSE);
        tkv_code_pane_set_empty_text(self->source_pane, "");
    }
}

/* What the source anchor asks: its statement, and the primary pane's
 * helper code that the answer leaves out. */
static void prepare_source_anchor(TkvBindView *self)
{
    tk_bind_shared_clear(&self->shared);
    self->showing_shared = FALSE;
    self->n_approx = 0;
    self->stmt_first = self->stmt_last = self->anchor_line;
    if (self->anchor != TKV_ANCHOR_SOURCE)
        return;
    tk_statement st;
    if (tkv_document_get_statement(self->doc, self->anchor_file, self->anchor_line, &st) ==
        TK_STATEMENT_CODE) {
        self->stmt_first = st.first;
        self->stmt_last = st.last;
    }
    if (!self->exact)
        tk_bind_shared_lines(self->ix, self->anchor_file, self->stmt_first, self->stmt_last,
                             self->pane_stage[0], &self->shared);
}

void tkv_bind_view_render(TkvBindView *self)
{
    if (!self->k)
        return;
    gboolean showing = self->showing_shared;
    prepare_source_anchor(self);
    /* "Show them" stays on while the same anchor is drawn again */
    self->showing_shared = showing && self->shared.n_lines;
    tkv_bind_view_render_source_pane(self);
    for (int w = 0; w < TKV_BIND_VIEW_IR_PANES; w++)
        if (tkv_bind_view_pane_shown(self, w))
            tkv_bind_view_render_ir_pane(self, w);
    tkv_bind_view_update_notes(self);
    tkv_bind_view_update_regs(self); /* the strip's cursor */
}
