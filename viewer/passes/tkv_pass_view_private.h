/* tkv_pass_view_private.h - what the pass view's files share.
 *
 * TkvPassView is one widget written in several files, each with one job:
 *   tkv_pass_view.c          the widget: its parts, the kernel shown, loading
 *                            the timeline, what it shows for the tests;
 *   tkv_pass_view_list.c     the pass list: rows, "changed only", selection;
 *   tkv_pass_view_select.c   what to diff: a pass, a sub-step or a range,
 *                            the diff asked of a worker thread;
 *   tkv_pass_view_diff.c     the diff shown: the sides' text and highlights,
 *                            their gutters, next/previous change;
 *   tkv_pass_rows.c          the sides' rows made from a diff, on the
 *                            worker thread that made it;
 *   tkv_pass_view_fill.c     the sides' buffers filled with those rows by
 *                            parts: the first change's first, the rest in
 *                            idle slices;
 *   tkv_pass_view_source.c   the binding in the diff: the source pane, a
 *                            diff line's source lines, a source line's rows;
 *   tkv_pass_view_actions.c  the view's actions (pass-view.*), their keys,
 *                            and user input turned into them.
 * Linked scrolling is tkv_linked_scroll.c, the chunk map tkv_chunk_map.c.
 * Nothing outside these files includes this header.
 */
#ifndef TKV_PASS_VIEW_PRIVATE_H
#define TKV_PASS_VIEW_PRIVATE_H

#include "passes/tkv_pass_rows.h"
#include "passes/tkv_pass_view.h"
#include "widgets/tkv_find_bar.h"

G_BEGIN_DECLS

struct _TkvPassView {
    GtkWidget parent_instance;

    /* template */
    GtkStack *stack;
    GtkSpinner *spinner;
    GtkLabel *message;
    GtkWidget *outer;
    GtkLabel *count_label;
    GtkListView *pass_list;
    GtkWidget *diff_box; /* the diff's title, the find bar, the sides */
    GtkLabel *diff_title;
    GtkLabel *stats_label;
    GtkLabel *change_label;
    GtkWidget *diff_paned;
    TkvCodePane *side_a;
    TkvCodePane *side_b;
    TkvChunkMap *chunk_map;
    TkvCodePane *source_pane;

    TkvDocument *doc;
    guint kernel;
    gboolean has_kernel;
    const tk_timeline *tl;
    gboolean tl_known;     /* the timeline (or its absence) is known */
    GCancellable *cancel;

    /* the list (tkv_pass_view_list.c) */
    GListStore *items;
    GtkFilterListModel *filtered;
    GtkBoolFilter *changed_filter;
    GtkMultiSelection *selection;
    gboolean changed_only;

    /* the diff (tkv_pass_view_select.c, tkv_pass_view_diff.c) */
    tk_ir_diff *diff;
    char *spec;             /* selected */
    GArray *orig[2];        /* uint32 per row: the side's line number */
    GArray *view_hunks;     /* tk_hunk over rows (0-based) of the sides:
                               the diff's hunks, or for a diff too big to
                               show whole, those of the part shown */
    tk_ir_diff_cut cut;     /* what a diff too big to show whole left out
                               (cut.cut 0: shown whole) */
    GArray *changes;        /* tk_hunk: the changes over the rows shown
                               (tk_diff_changes(): the report's and
                               `tkview diff`'s groups) */
    int cur_change;
    TkvLinkedScroll *linked;    /* the sides scrolled together */
    gboolean diff_pending;      /* a diff is being made on a worker */
    guint generation;           /* of the last selection */
    /* the changed words, tagged as rows come into view (tkv_pass_view_words.c) */
    guint8 *words_done;         /* per row of A: its pair's words tagged */
    guint words_len;
    guint words_idle;
    GtkAdjustment *words_adj[2]; /* the sides' vertical adjustments watched */
    gulong words_value_id[2], words_changed_id[2];
    /* the sides' rows and how far their buffers hold them (tkv_pass_view_fill.c) */
    TkvPassRows *rows;          /* of the diff shown (NULL: none) */
    guint fill_lo[2], fill_hi[2]; /* rows [lo, hi) of each side hold their text */
    guint fill_id;              /* the idle source filling the rest */
    int fill_turn;              /* the side filled next */
    /* the sides kept at their left edge while they open (tkv_pass_view_diff.c) */
    GtkAdjustment *hold_adj[2];
    gulong hold_id[2];
    guint hold_tick;
    int hold_frames;

    /* the binding (tkv_pass_view_source.c) */
    guint src_line;         /* the selected source line (0: none) */
    int sel_side;           /* -1: none */
    guint sel_row;
    char *sel_heading;
    tk_file_id src_file;
    GHashTable *src_bufs;   /* file + 1 -> GtkSourceBuffer */
    TkvCodePane *focused;
    TkvFindBar *find;       /* over both sides and the source (tkv_find_bar.h) */
    gboolean updating;      /* the program is setting the list or a selector */
};

static inline TkvCodePane *tkv_pass_view_side_pane(TkvPassView *self, int side)
{
    return side ? self->side_b : self->side_a;
}

static inline TkvCodeView *tkv_pass_view_side_view(TkvPassView *self, int side)
{
    return tkv_code_pane_get_view(tkv_pass_view_side_pane(self, side));
}

/* tkv_pass_view_words.c */
/* A new diff is shown: its replaced rows in view get their changed words
 * now, the others as they come into view. */
void tkv_pass_view_words_reset(TkvPassView *self);
/* Follows the sides' scrolling (at map); unwatch: one side's no longer. */
void tkv_pass_view_words_watch(TkvPassView *self);
void tkv_pass_view_words_unwatch(TkvPassView *self, int side);
/* Frees what the words keep (at dispose). */
void tkv_pass_view_words_free(TkvPassView *self);
/* Rows were filled: those in view get their changed words before the next
 * frame. */
void tkv_pass_view_words_refresh(TkvPassView *self);

/* tkv_pass_view_fill.c */
/* A buffer for SIDE of self->rows (set by the caller) in LANGUAGE, its rows
 * around AROUND (0-based) holding their text, the others empty until
 * tkv_pass_view_fill_start() fills them; the caller owns it. */
GtkSourceBuffer *tkv_pass_view_fill_buffer(TkvPassView *self, int side, guint around,
                                           const char *language);
/* Fills the rest of both sides (shown in their views) in idle slices. */
void tkv_pass_view_fill_start(TkvPassView *self);
/* Stops filling and frees self->rows (a diff cleared, at dispose). */
void tkv_pass_view_fill_stop(TkvPassView *self);
/* Whether ROW0 (0-based) of SIDE holds its text in the buffer yet. */
gboolean tkv_pass_view_row_filled(TkvPassView *self, int side, guint row0);
/* The text of ROW0 of SIDE (LEN bytes, no line end), owned by the view:
 * "" past the rows. */
const char *tkv_pass_view_row_text(TkvPassView *self, int side, guint row0, gsize *len);

/* tkv_pass_view.c */
void tkv_pass_view_emit_anchor_changed(TkvPassView *self);

/* tkv_pass_view_list.c */
/* Sets up the list's model, filter, selection and rows (at init). */
void tkv_pass_view_list_init(TkvPassView *self);
/* Lists the passes of the timeline shown. */
void tkv_pass_view_fill_list(TkvPassView *self);
/* Selects the rows of pass A's sub-step SUB, or of passes A to B. */
void tkv_pass_view_select_rows(TkvPassView *self, size_t a, size_t sub, size_t b);

/* tkv_pass_view_select.c */
/* Reads SPEC against TL by the library's grammar (tk_passref.h: "I",
 * "I.J", "I-K", a pass name; SUB TK_TL_NONE but for "I.J"); FALSE when it
 * names nothing of TL (or TL is NULL). */
gboolean tkv_pass_view_parse_spec(const tk_timeline *tl, const char *spec, size_t *a,
                                  size_t *sub, size_t *b);

/* tkv_pass_view_diff.c */
/* Shows D (the view takes it) under TITLE, as ROWS (tkv_pass_rows_make(D),
 * which the view takes too; NULL: made here); tkv_pass_view_clear_diff():
 * none. */
void tkv_pass_view_show_diff(TkvPassView *self, tk_ir_diff *d, TkvPassRows *rows,
                             const char *title);
void tkv_pass_view_clear_diff(TkvPassView *self);
/* The diff shown is a pass's IR after it against itself (nothing comparable
 * before it): no change count, no +/- counts (the caller hides side A). */
void tkv_pass_view_show_after_only(TkvPassView *self);
/* The line of the side's dump shown in ROW of SIDE (0: none). */
guint32 tkv_pass_view_orig_line(TkvPassView *self, int side, guint row);
/* Stops keeping the sides at their left edge (a diff cleared, at dispose). */
void tkv_pass_view_stop_holding(TkvPassView *self);
/* The sides' gutter callback (tkv_bind_gutter.h); DATA is the side's view. */
TkvLineState tkv_pass_view_diff_line_state(guint line, guint *count, gpointer data);

/* tkv_pass_view_source.c */
/* Shows FILE in the source pane (nothing when it is shown or TKV_NO_FILE). */
void tkv_pass_view_show_source_file(TkvPassView *self, tk_file_id file);
/* Selects source FILE:LINE and highlights the diff lines bound to it;
 * SCROLL brings the first into view. */
gboolean tkv_pass_view_select_source_line(TkvPassView *self, tk_file_id file, guint line,
                                          gboolean scroll);

/* tkv_pass_view_actions.c */
/* Installs the actions (at class_init, after the properties they act on). */
void tkv_pass_view_class_actions_init(GtkWidgetClass *wc);
/* Connects the sides, the source pane and its file selector to the actions,
 * adds the keys (at init). */
void tkv_pass_view_actions_init(TkvPassView *self);
/* The actions act on a kernel: enabled while a document is shown. */
void tkv_pass_view_actions_update(TkvPassView *self);

G_END_DECLS

#endif
