/* tkv_window_private.h - what the window's files share.
 *
 * TkvWindow is written in these files:
 *   tkv_window.c          the window: its pages (start, loading, error, main),
 *                         loading a bundle, the side panels following the
 *                         views, recent bundles, drops, what it shows for
 *                         the tests;
 *   tkv_window_kernels.c  the kernel list and its filter, the kernel shown;
 *   tkv_window_actions.c  the window's actions (win.*);
 *   tkv_window_layout.c   the side panel shown or hidden, its width, and
 *                         its folding away in a narrow window.
 * Nothing outside these files includes this header.
 */
#ifndef TKV_WINDOW_PRIVATE_H
#define TKV_WINDOW_PRIVATE_H

#include "app/tkv_window.h"

G_BEGIN_DECLS

struct _TkvWindow {
    GtkApplicationWindow parent_instance;

    /* template */
    GtkLabel *title_label;
    GtkLabel *subtitle_label;
    GtkMenuButton *recent_button;
    GtkStack *content;
    GtkListBox *recent_list;
    GtkWidget *recent_heading;
    GtkSpinner *spinner;
    GtkLabel *loading_label;
    GtkProgressBar *progress;
    GtkLabel *error_title;
    GtkTextView *error_view;
    GtkRevealer *banner_revealer;
    GtkLabel *banner_label;
    GtkSearchEntry *kernel_filter;
    GtkLabel *kernel_count;
    GtkListView *kernel_list;
    GtkStack *info_stack;
    TkvStackPanel *stack_panel;
    TkvMetaPanel *meta_panel;
    TkvHotPanel *hot_panel;
    TkvDiagPanel *diag_panel;
    GtkTextView *problems_view;
    GtkStack *mode_stack;
    TkvPassView *pass_view;
    TkvBindView *bind_view;
    TkvCompareView *compare_view;
    TkvConfigsView *configs_view;
    GtkPaned *main_paned; /* the side panel (kernel list, stack, ...) | the mode shown */
    int narrow;           /* -1 not known yet, else whether the window is narrow */
    guint narrow_idle;    /* the side panel's change for a new width, pending */

    TkvDocument *doc;     /* loading or loaded */
    GCancellable *cancel;
    guint progress_timer;
    char *state;          /* "welcome", "loading", "ready", "error" */

    GListStore *kernels;
    GtkFilterListModel *filtered;
    GtkStringFilter *filter;
    GtkSingleSelection *selection;
    int kernel;
    /* A compiler message whose pass is to be opened once the pass view
     * has its timeline (tkv_window_diag.c): its position in the
     * Diagnostics panel of kernel DIAG_PASS_KERNEL; -1 none. */
    int diag_pass_pos, diag_pass_kernel;
    gboolean updating;
    gint64 loaded_at; /* monotonic time the loaded data reached the main thread */
};

/* tkv_window.c */
void tkv_window_set_titles(TkvWindow *self, const char *title, const char *subtitle);
gboolean tkv_window_in_pass_mode(TkvWindow *self);
/* The stack panel follows the view of the mode shown. */
void tkv_window_update_stack_panel(TkvWindow *self);

/* tkv_window_kernels.c */
/* Sets up the list, its filter and selection (at init). */
void tkv_window_kernels_init(TkvWindow *self);
void tkv_window_update_kernel_count(TkvWindow *self);
/* Shows kernel INDEX of the document in the views and the panels. */
void tkv_window_show_kernel(TkvWindow *self, int index);
/* Marks in the list the kernels for which FAILED says their compile failed. */
void tkv_window_mark_failed_kernels(TkvWindow *self, gboolean (*failed)(TkvDocument *, guint));

/* tkv_window_diag.c */
/* Reads the document's compiler messages on a worker; when they are in,
 * the list, the Diagnostics panel and the gutters show them. */
void tkv_window_watch_diag(TkvWindow *self);
/* Connects the Diagnostics panel's "Open pass" to pass mode (at init). */
void tkv_window_diag_init(TkvWindow *self);

/* tkv_window_actions.c */
/* Adds the window's actions (at init). */
void tkv_window_actions_init(TkvWindow *self);

/* tkv_window_layout.c */
/* The side panel shown or hidden and its width, as remembered
 * (tkv_settings.h), and remembered again as the user changes them. */
void tkv_window_layout_init(TkvWindow *self);
/* win.show-sidebar's change-state handler. */
void tkv_window_act_show_sidebar(GSimpleAction *a, GVariant *v, gpointer self);
/* The window is WIDTH pixels wide now (its size_allocate): a narrow one
 * folds the side panel away, a wide one shows it again as remembered. */
void tkv_window_layout_width(TkvWindow *self, int width);
/* Shows the side panel if it is hidden. */
void tkv_window_reveal_sidebar(TkvWindow *self);
/* Most actions need a loaded bundle: enabled when READY. */
void tkv_window_actions_update(TkvWindow *self, gboolean ready);
void tkv_window_set_action_state(TkvWindow *self, const char *name, GVariant *state);

G_END_DECLS

#endif
