/* tkv_bind_view_heat.c - the binding view's cost columns: what each line of
 * the source pane and of the IR panes cost, by the metric chosen
 * (tk_cost.h, through tkv_document_get_cost()).
 *
 * A source line shows its value with what it called, or its own under
 * "this line only"; an IR line its own share of the SASS bound to it
 * (tk_cost_ir_line_own(), as the report's heat); a SASS line its own.  Each pane is shaded against its costliest line: the
 * largest value per stage and per way of asking a source line is found
 * once per metric and kept.
 */
#include "bind/tkv_bind_view_private.h"

#include "document/tkv_cost_text.h"

static const tk_cost *cost_of(TkvBindView *self)
{
    return self->k ? tkv_document_get_cost(self->doc, self->kernel) : NULL;
}

static double ir_max(TkvBindView *self, const tk_cost *c, tk_stage_kind s)
{
    if (self->heat_max_ok & (1u << s))
        return self->heat_max[s];
    double mx = 0;
    const tk_stage *st = tk_kernel_stage(self->k, s);
    for (uint32_t l = 1; st && l <= tk_stage_line_count(st); l++) {
        const double *v = tk_cost_ir_line_own(c, s, l);
        if (v && v[self->metric] > mx)
            mx = v[self->metric];
    }
    self->heat_max[s] = mx;
    self->heat_max_ok |= 1u << s;
    return mx;
}

static double source_max(TkvBindView *self, const tk_cost *c)
{
    int slot = TK_STAGE_COUNT + (self->exact ? 1 : 0);
    if (self->heat_max_ok & (1u << slot))
        return self->heat_max[slot];
    const tk_cost_line *lines;
    size_t n = tk_cost_source_lines(c, &lines);
    double mx = 0;
    for (size_t i = 0; i < n; i++) {
        double v = self->exact ? lines[i].exact[self->metric] : lines[i].inclusive[self->metric];
        if (v > mx)
            mx = v;
    }
    self->heat_max[slot] = mx;
    self->heat_max_ok |= 1u << slot;
    return mx;
}

static gboolean ir_heat(guint line, double *value, double *max, gpointer data)
{
    TkvBindPaneRef *ref = data;
    TkvBindView *self = ref->view;
    const tk_cost *c = cost_of(self);
    tk_stage_kind s = self->pane_stage[ref->which];
    const double *v = c ? tk_cost_ir_line_own(c, s, line) : NULL;
    if (!v || v[self->metric] == 0)
        return FALSE;
    *value = v[self->metric];
    *max = ir_max(self, c, s);
    return TRUE;
}

static char *ir_tip(guint line, gpointer data)
{
    TkvBindPaneRef *ref = data;
    TkvBindView *self = ref->view;
    const tk_cost *c = cost_of(self);
    tk_stage_kind s = self->pane_stage[ref->which];
    return c ? tkv_cost_ir_tip(self->doc, c, self->metric, s, line) : NULL;
}

static const tk_cost_line *source_line(TkvBindView *self, guint line)
{
    const tk_cost *c = cost_of(self);
    return c && self->file != TKV_NO_FILE ? tk_cost_source_line(c, self->file, line) : NULL;
}

static gboolean source_heat(guint line, double *value, double *max, gpointer data)
{
    TkvBindView *self = data;
    const tk_cost_line *l = source_line(self, line);
    double v = !l ? 0 : self->exact ? l->exact[self->metric] : l->inclusive[self->metric];
    if (v == 0)
        return FALSE;
    *value = v;
    *max = source_max(self, cost_of(self));
    return TRUE;
}

static char *source_tip(guint line, gpointer data)
{
    TkvBindView *self = data;
    const tk_cost_line *l = source_line(self, line);
    return l ? tkv_cost_source_tip(cost_of(self), self->metric, l, self->exact) : NULL;
}

void tkv_bind_view_update_heat(TkvBindView *self)
{
    const tk_cost *c = cost_of(self);
    if (c && self->metric >= tk_cost_metric_count(c))
        self->metric = (guint)tk_cost_default_metric(c);
    self->heat_max_ok = 0;
    tkv_code_view_set_heat_func(tkv_bind_view_source_view(self), c ? source_heat : NULL,
                                source_tip, self);
    tkv_code_view_refresh_gutter(tkv_bind_view_source_view(self));
    for (int w = 0; w < TKV_BIND_VIEW_IR_PANES; w++)
        for (int s = -1; s < TK_STAGE_COUNT; s++) {
            TkvCodeView *v = s < 0 ? tkv_bind_view_ir_view(self, w) : self->stage_view[w][s];
            if (!v)
                continue;
            tkv_code_view_set_heat_func(v, c ? ir_heat : NULL, ir_tip, &self->pane_ref[w]);
            tkv_code_view_refresh_gutter(v);
        }
    tkv_bind_view_update_diag(self);
}

void tkv_bind_view_set_metric(TkvBindView *self, guint metric)
{
    self->metric = metric;
    tkv_bind_view_update_heat(self);
}

guint tkv_bind_view_get_metric(TkvBindView *self)
{
    return self->metric;
}

char *tkv_bind_view_heat_text(TkvBindView *self, TkvPaneId pane, guint line)
{
    double v, max;
    gboolean has = pane == TKV_PANE_SOURCE
                       ? source_heat(line, &v, &max, self)
                       : ir_heat(line, &v, &max,
                                 &self->pane_ref[pane == TKV_PANE_PRIMARY ? 0 : 1]);
    if (!has || !cost_of(self))
        return NULL;
    char buf[16];
    tkv_cost_short(v, buf);
    return g_strdup(buf);
}

char *tkv_bind_view_heat_tip(TkvBindView *self, TkvPaneId pane, guint line)
{
    if (pane == TKV_PANE_SOURCE)
        return NULL;
    return ir_tip(line, &self->pane_ref[pane == TKV_PANE_PRIMARY ? 0 : 1]);
}
