/* tkv_bind_view_private.h - what the binding view's files share.
 *
 * TkvBindView is one widget written in several files, each with one job:
 *   tkv_bind_view.c          the widget: its panes, the kernel shown, the
 *                            anchor and the stages chosen (the calls of
 *                            tkv_bind_view.h), its properties and signals;
 *   tkv_bind_view_panes.c    what each pane holds: a buffer and a view per
 *                            stage, made ahead in idle time, the source
 *                            files' buffers, the headers and the gutters;
 *   tkv_bind_view_render.c   the anchor drawn as highlights in every pane;
 *   tkv_bind_view_heat.c     the cost columns (what each line cost);
 *   tkv_bind_view_regs.c     register pressure: the strip above a SASS
 *                            pane, the peak's source line marked;
 *   tkv_bind_view_notes.c    the bar above the panes that says what the
 *                            answer is: a statement's lines, helper code
 *                            shared by call sites ("Show them"),
 *                            approximate matches;
 *   tkv_bind_view_actions.c  the view's actions (bind-view.*), their keys,
 *                            and user input turned into them.
 * Nothing outside these files includes this header.
 */
#ifndef TKV_BIND_VIEW_PRIVATE_H
#define TKV_BIND_VIEW_PRIVATE_H

#include "bind/tkv_bind_view.h"
#include "widgets/tkv_find_bar.h"

G_BEGIN_DECLS

#define TKV_BIND_VIEW_IR_PANES 2

/* An IR pane, as the data of its callbacks. */
typedef struct {
    TkvBindView *view;
    int which; /* 0 primary, 1 secondary */
} TkvBindPaneRef;

struct _TkvBindView {
    GtkWidget parent_instance;
    GSettings *settings; /* the remembered layout, or NULL (set_settings) */

    GtkWidget *outer;
    GtkWidget *ir_paned;
    GtkWidget *notes;
    GtkLabel *notes_label;
    GtkWidget *notes_button;
    TkvCodePane *source_pane;
    TkvCodePane *primary_pane;
    TkvCodePane *secondary_pane;

    TkvDocument *doc;
    guint kernel;
    const tk_kernel *k;
    const tk_bind *ix;

    /* Stages the kernel has, in pipeline order: the selectors' entries. */
    tk_stage_kind stages[TK_STAGE_COUNT];
    guint n_stages;
    tk_stage_kind pane_stage[TKV_BIND_VIEW_IR_PANES];
    GtkSourceBuffer *stage_buf[TKV_BIND_VIEW_IR_PANES][TK_STAGE_COUNT];
    /* A view per pane and stage, made when the pane first shows the stage
     * and kept (tkv_code_pane_add_view() says why): a stage switch shows
     * another view instead of giving the view another buffer. */
    TkvCodeView *stage_view[TKV_BIND_VIEW_IR_PANES][TK_STAGE_COUNT];
    TkvBindPaneRef pane_ref[TKV_BIND_VIEW_IR_PANES];
    gboolean second_visible;
    gboolean balanced; /* the panes were given their shares once the view had its width */

    /* Source files of the kernel: the source selector's entries. */
    const tk_file_id *files;
    guint n_files;
    tk_file_id file;              /* shown */
    GHashTable *file_buf;         /* file + 1 -> GtkSourceBuffer */
    GArray *file_counts;          /* guint32 per line of the shown file */

    gboolean exact;
    gboolean show_locations;  /* lines that only state a location shown */
    TkvAnchorKind anchor;
    tk_file_id anchor_file;
    tk_stage_kind anchor_stage;
    guint anchor_line;
    /* A source anchor's statement (its lines), and the primary pane's lines
     * of helper code shared by call sites that the answer leaves out. */
    guint stmt_first, stmt_last;
    tk_bind_shared shared;
    gboolean showing_shared;  /* the primary pane steps through them */
    guint n_approx;           /* an IR anchor's approximate matches */

    /* The cost columns (tkv_bind_view_heat.c): the metric shown, and the
     * largest value per stage and per way of asking a source line (slots
     * TK_STAGE_COUNT and + 1), valid where HEAT_MAX_OK has the bit. */
    guint metric;
    double heat_max[TK_STAGE_COUNT + 2];
    guint heat_max_ok;

    /* Register pressure (tkv_bind_view_regs.c): the strip above the
     * primary pane, whether it has the kernel's data, the peak's source line and
     * its sentence. */
    GtkWidget *regs_strip;
    gboolean regs_loaded;
    tk_file_id regs_peak_file;
    guint regs_peak_line;
    char *regs_peak_text;

    TkvCodePane *focused;
    TkvFindBar *find;  /* over the panes shown (tkv_find_bar.h) */
    gboolean updating; /* the program is setting selectors */
    guint prefetch_id; /* idle source making the shown panes' other stage buffers */
};

static inline TkvCodePane *tkv_bind_view_ir_pane(TkvBindView *self, int which)
{
    return which == 0 ? self->primary_pane : self->secondary_pane;
}

static inline TkvCodeView *tkv_bind_view_ir_view(TkvBindView *self, int which)
{
    return tkv_code_pane_get_view(tkv_bind_view_ir_pane(self, which));
}

static inline TkvCodeView *tkv_bind_view_source_view(TkvBindView *self)
{
    return tkv_code_pane_get_view(self->source_pane);
}

static inline gboolean tkv_bind_view_pane_shown(TkvBindView *self, int which)
{
    return which == 0 || self->second_visible;
}

/* tkv_bind_view.c */
/* Emits "stage-changed" for PANE and notifies its stage property. */
void tkv_bind_view_emit_stage_changed(TkvBindView *self, TkvPaneId pane);
void tkv_bind_view_emit_file_changed(TkvBindView *self);

/* tkv_bind_view_panes.c */
/* Sets up the panes' gutters (at init). */
void tkv_bind_view_panes_init(TkvBindView *self);
/* Shows stage S in IR pane WHICH; FILE in the source pane (nothing when it is
 * shown already). */
void tkv_bind_view_show_stage(TkvBindView *self, int which, tk_stage_kind s);
void tkv_bind_view_show_source_file(TkvBindView *self, tk_file_id file);
/* The source gutter's counts follow the primary stage and "this line only". */
void tkv_bind_view_update_file_counts(TkvBindView *self);
/* Makes the shown panes' other stages in idle time. */
void tkv_bind_view_prefetch_stages(TkvBindView *self);
/* Hides or shows the location lines of every stage buffer made. */
void tkv_bind_view_apply_show_locations(TkvBindView *self);
/* Frees the kernel's buffers (the views let go of them first). */
void tkv_bind_view_drop_buffers(TkvBindView *self);

/* tkv_bind_view_render.c */
/* Draws the anchor in every shown pane, in IR pane WHICH, in the source
 * pane. */
void tkv_bind_view_render(TkvBindView *self);
void tkv_bind_view_render_ir_pane(TkvBindView *self, int which);
void tkv_bind_view_render_source_pane(TkvBindView *self);

/* tkv_bind_view_heat.c */
/* Installs or removes the cost columns of every view for the kernel shown
 * (none without SASS) and redraws them. */
void tkv_bind_view_update_heat(TkvBindView *self);
/* The compiler-message columns (tkv_bind_view_diag.c). */
void tkv_bind_view_update_diag(TkvBindView *self);

/* tkv_bind_view_regs.c: the register strip made and put above the primary
 * pane, the peak mark's look; the strip and the mark brought up to date
 * (the kernel, the stage shown, the line selected). */
void tkv_bind_view_regs_init(TkvBindView *self);
void tkv_bind_view_update_regs(TkvBindView *self);

/* tkv_bind_view_notes.c */
/* Says what the answer shown is (the anchor just rendered). */
void tkv_bind_view_update_notes(TkvBindView *self);
/* Connects the notes' button (init). */
void tkv_bind_view_notes_init(TkvBindView *self);

/* tkv_bind_view_panes.c: lines of STAGE that are instructions, and of the
 * N lines at LINES, those that are (CODE) and those that are not (OTHER);
 * caller frees both with g_array_unref(). */
void tkv_bind_view_split_code(const tk_stage *stage, const guint32 *lines, gsize n,
                              GArray **code, GArray **other);

/* tkv_bind_view_actions.c */
/* Installs the actions (at class_init). */
void tkv_bind_view_class_actions_init(GtkWidgetClass *wc);
/* Connects the panes and selectors to the actions, adds the keys (init). */
void tkv_bind_view_actions_init(TkvBindView *self);
/* The actions act on a kernel: enabled while a document is shown. */
void tkv_bind_view_actions_update(TkvBindView *self);
/* "line-selected" of an IR pane's views (DATA: its TkvBindPaneRef). */
void tkv_bind_view_on_ir_line(TkvCodeView *view, guint line, TkvBindPaneRef *ref);

/* The source pane's share of the view's width with one IR pane: the
 * remembered one (GSettings source-fraction), else 0.36. */
double tkv_bind_view_source_fraction(TkvBindView *self);

G_END_DECLS

#endif
