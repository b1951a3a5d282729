/* tkv_bind_view_render.c - the anchor drawn as highlights.  A source line:
 * each IR pane highlights the lines of its stage bound to it and scrolls to
 * the first ("k of n" in its header).  An IR line: its pane selects it, the
 * other IR pane highlights its lines with the same stacks, and the source
 * pane the lines its stacks name (tkv_stack_lines.h).  Every line number
 * comes from the library's binding index (tk_bind.h). */
#include "tkv_bind_view_private.h"

#include <stdlib.h>

#include "tkv_stack_lines.h"

void tkv_bind_view_render_ir_pane(TkvBindView *self, int which)
{
    TkvCodeView *v = tkv_bind_view_ir_view(self, which);
    TkvCodePane *p = tkv_bind_view_ir_pane(self, which);
    tk_stage_kind s = self->pane_stage[which];
    switch (self->anchor) {
    case TKV_ANCHOR_SOURCE: {
        const uint32_t *lines;
        size_t n = tk_bind_source_to_stage(self->ix, self->anchor_file, self->anchor_line,
                                             self->exact ? TK_MATCH_EXACT : TK_MATCH_CALLED, s,
                                             &lines);
        tkv_code_view_set_selected(v, 0, FALSE, FALSE);
        tkv_code_view_set_matches(v, lines, n, TRUE);
        tkv_code_pane_set_empty_text(p, "no line bound");
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
            tkv_code_view_set_selected(v, 0, FALSE, FALSE);
            tkv_code_view_set_matches(v, lines, n, TRUE);
            free(lines);
            tkv_code_pane_set_empty_text(p, "no line bound");
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
    case TKV_ANCHOR_SOURCE:
        tkv_bind_view_show_source_file(self, self->anchor_file);
        tkv_code_view_set_matches(v, NULL, 0, FALSE);
        tkv_code_view_set_selected(v, self->anchor_line, TRUE, TRUE);
        tkv_code_pane_set_empty_text(self->source_pane, "");
        break;
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

void tkv_bind_view_render(TkvBindView *self)
{
    if (!self->k)
        return;
    tkv_bind_view_render_source_pane(self);
    for (int w = 0; w < TKV_BIND_VIEW_IR_PANES; w++)
        if (tkv_bind_view_pane_shown(self, w))
            tkv_bind_view_render_ir_pane(self, w);
}
