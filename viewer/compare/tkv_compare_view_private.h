/* tkv_compare_view_private.h - what TkvCompareView's files share.
 *
 * TkvCompareView is one widget written in two files:
 *   tkv_compare_view.c       the widget, its actions and keys, the other
 *                            kernel, the comparison made on the document's
 *                            worker, the rows, facts and first divergence;
 *   tkv_compare_view_diff.c  one row's diff: fetched from the worker,
 *                            drawn side by side, read back for the tests.
 * Nothing outside these files includes this header.
 */
#ifndef TKV_COMPARE_VIEW_PRIVATE_H
#define TKV_COMPARE_VIEW_PRIVATE_H

#include "compare/tkv_compare_view.h"

G_BEGIN_DECLS

struct _TkvCompareView {
    GtkWidget parent_instance;

    /* template */
    GtkDropDown *other_dropdown;
    GtkLabel *first_label;
    GtkStack *stack;
    GtkSpinner *spinner;
    GtkLabel *message;
    GtkListBox *rows_list;
    GtkTextView *facts_view;
    GtkLabel *diff_title;
    GtkToggleButton *before_button, *after_button;
    GtkScrolledWindow *a_scroll, *b_scroll;
    GtkTextView *a_view, *b_view;

    TkvDocument *doc;
    guint kernel;
    gboolean has_kernel;
    int other;                 /* B, -1 none */
    GtkStringList *others;     /* the dropdown's entries */
    GArray *other_index;       /* guint: kernel of each entry */
    gboolean updating;
    const char *state;
    char *message_text;
    char *first_text;
    char *title_text;

    GCancellable *cancel;      /* the comparison being made */
    TkvCompareHold *hold;      /* the comparison shown */
    int row;
    gboolean after;
    GCancellable *diff_cancel;
    gboolean diff_pending;
    tk_ir_diff *diff;
};

static inline tk_compare *cmp_of(TkvCompareView *self)
{
    return self->hold ? self->hold->cmp : NULL;
}

/* LEN bytes of TEXT, lines and all, made safe for a text buffer (each line
 * as tkv_text.h does).  Caller frees. */
char *tkv_compare_view_safe_text(const char *text, size_t len);

G_END_DECLS

#endif
