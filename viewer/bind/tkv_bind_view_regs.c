/* tkv_bind_view_regs.c - register pressure in the binding view: the strip
 * above the primary IR pane while it shows SASS (tkv_regs_strip.h: the
 * live general registers at every SASS line, tk_cost.h's live_registers
 * from NAME.sass_lr) and a mark on the source line of the kernel's peak
 * (tk_cost_register_peak(): the same words `tkview info` and the report
 * use).  A click on the strip selects the instruction that peaks in that
 * column, as a click on the line would.
 */
#include "bind/tkv_bind_view_private.h"

#include "widgets/tkv_regs_strip.h"

#define PEAK_CATEGORY "tkv-reg-peak"

static void on_strip_line(TkvRegsStrip *strip, guint line, TkvBindView *self)
{
    tkv_bind_view_select_ir(self, TK_STAGE_SASS, line);
}

static char *peak_tooltip(GtkSourceMarkAttributes *attrs, GtkSourceMark *mark,
                          TkvBindView *self)
{
    return g_strdup(self->regs_peak_text ? self->regs_peak_text : "");
}

void tkv_bind_view_regs_init(TkvBindView *self)
{
    self->regs_strip = tkv_regs_strip_new();
    gtk_widget_set_visible(self->regs_strip, FALSE);
    g_signal_connect(self->regs_strip, "line-activated", G_CALLBACK(on_strip_line), self);
    tkv_code_pane_set_strip(self->primary_pane, self->regs_strip);
    /* the peak's source line: a tinted line with an icon in the source
     * view's mark column, the peak in words as its tooltip */
    GtkSourceMarkAttributes *attrs = gtk_source_mark_attributes_new();
    GdkRGBA bg = {0.85, 0.28, 0.06, 0.16};
    gtk_source_mark_attributes_set_background(attrs, &bg);
    gtk_source_mark_attributes_set_icon_name(attrs, "go-top-symbolic");
    g_signal_connect(attrs, "query-tooltip-text", G_CALLBACK(peak_tooltip), self);
    gtk_source_view_set_mark_attributes(GTK_SOURCE_VIEW(tkv_bind_view_source_view(self)),
                                        PEAK_CATEGORY, attrs, 10);
    g_object_unref(attrs);
}

/* The kernel's strip data and peak, once per kernel. */
static void load_kernel(TkvBindView *self)
{
    self->regs_peak_file = TKV_NO_FILE;
    self->regs_peak_line = 0;
    g_clear_pointer(&self->regs_peak_text, g_free);
    TkvRegsStrip *strip = TKV_REGS_STRIP(self->regs_strip);
    const tk_cost *c = self->k ? tkv_document_get_cost(self->doc, self->kernel) : NULL;
    const tk_stage *sass = self->k ? tk_kernel_stage(self->k, TK_STAGE_SASS) : NULL;
    tk_cost_reg_peak pk;
    if (!c || !sass ||
        tk_cost_register_peak(c, self->k, self->ix,
                              tk_bundle_loctab(tkv_document_get_bundle(self->doc)), &pk) != 0) {
        const char *why = NULL;
        if (c)
            tk_cost_life_ranges(c, &why);
        char *text = g_strdup_printf("live registers: unknown: %s",
                                     why ? why : "no cost tables for this kernel");
        tkv_regs_strip_clear(strip, text);
        g_free(text);
        return;
    }
    guint n = tk_stage_line_count(sass);
    guint32 *counts = g_new0(guint32, MAX(n, 1));
    for (guint l = 1; l <= n; l++) {
        const double *v = tk_cost_sass_class(c, l) >= 0 ? tk_cost_ir_line(c, TK_STAGE_SASS, l)
                                                        : NULL;
        counts[l - 1] = v ? (guint32)v[pk.metric] : 0;
    }
    gint64 ptxas = tk_kernel_metadata(self->k)->registers;
    GString *where = g_string_new(NULL);
    if (pk.file != TKV_NO_FILE) {
        char *base = g_path_get_basename(tkv_document_get_file_path(self->doc, pk.file));
        g_string_printf(where, "%s:%u", base, pk.line);
        g_free(base);
    }
    char *caption = g_strdup_printf("live registers: peak %.0f at SASS line %u%s%s%s", pk.gpr,
                                    pk.sass_line, where->len ? " (" : "", where->str,
                                    where->len ? ")" : "");
    if (ptxas > 0) {
        char *c2 = g_strdup_printf("%s, ptxas %" G_GINT64_FORMAT, caption, ptxas);
        g_free(caption);
        caption = c2;
    }
    GString *peak = g_string_new(NULL);
    g_string_printf(peak, "register peak of the kernel: %.0f live registers (GPR) at SASS line %u",
                    pk.gpr, pk.sass_line);
    if (pk.has_offset)
        g_string_append_printf(peak, " (offset 0x%04x)", pk.offset);
    if (where->len)
        g_string_append_printf(peak, ", %s", where->str);
    if (ptxas > 0)
        g_string_append_printf(peak, "; ptxas allocated %" G_GINT64_FORMAT, ptxas);
    char *tip = g_strdup_printf("%s\nThe bars: live general registers at every SASS "
                                "instruction, in address order (nvdisasm "
                                "--print-life-ranges, NAME.sass_lr); dashed: ptxas's count.",
                                peak->str);
    tkv_regs_strip_set_counts(strip, counts, n, (guint)pk.gpr, pk.sass_line,
                              ptxas > 0 ? (guint)ptxas : 0, caption, tip);
    self->regs_peak_file = pk.file;
    self->regs_peak_line = pk.line;
    self->regs_peak_text = g_string_free(peak, FALSE);
    g_free(tip);
    g_free(caption);
    g_string_free(where, TRUE);
    g_free(counts);
}

/* The peak's mark in the shown source buffer (once per buffer). */
static void mark_source(TkvBindView *self)
{
    if (self->regs_peak_file == TKV_NO_FILE || self->file != self->regs_peak_file)
        return;
    GtkTextView *tv = GTK_TEXT_VIEW(tkv_bind_view_source_view(self));
    GtkSourceBuffer *b = GTK_SOURCE_BUFFER(gtk_text_view_get_buffer(tv));
    GtkTextIter it;
    if (!gtk_text_buffer_get_iter_at_line(GTK_TEXT_BUFFER(b), &it, (int)self->regs_peak_line - 1))
        return;
    GSList *have = gtk_source_buffer_get_source_marks_at_line(b, (int)self->regs_peak_line - 1,
                                                              PEAK_CATEGORY);
    if (!have)
        gtk_source_buffer_create_source_mark(b, NULL, PEAK_CATEGORY, &it);
    g_slist_free(have);
    gtk_source_view_set_show_line_marks(GTK_SOURCE_VIEW(tv), TRUE);
}

void tkv_bind_view_update_regs(TkvBindView *self)
{
    if (!self->regs_strip)
        return;
    if (!self->regs_loaded) {
        self->regs_loaded = TRUE;
        load_kernel(self);
    }
    TkvRegsStrip *strip = TKV_REGS_STRIP(self->regs_strip);
    gboolean sass = self->k && self->pane_stage[0] == TK_STAGE_SASS;
    gtk_widget_set_visible(self->regs_strip, sass);
    tkv_regs_strip_set_cursor(strip, self->anchor == TKV_ANCHOR_IR &&
                                             self->anchor_stage == TK_STAGE_SASS
                                         ? self->anchor_line
                                         : 0);
    mark_source(self);
}

gboolean tkv_bind_view_get_regs(TkvBindView *self, TkvRegsStrip **strip, tk_file_id *file,
                                guint *line)
{
    *strip = self->regs_strip ? TKV_REGS_STRIP(self->regs_strip) : NULL;
    *file = self->regs_peak_file;
    *line = self->regs_peak_line;
    return self->regs_strip && gtk_widget_get_visible(self->regs_strip);
}
