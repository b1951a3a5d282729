/* tkv_bench_private.h - what the benchmark's files share.
 *
 * `--bench` (tkv_bench.h) is written in three files:
 *   tkv_bench.c         the arguments, the window, and the steps run one per
 *                       frame with each frame's parts timed;
 *   tkv_bench_plan.c    which steps to run: the kernel, the lines, stages,
 *                       searches and passes worth timing;
 *   tkv_bench_report.c  the figures: quantiles against the targets, as a
 *                       table or JSON.
 * Nothing outside these files includes this header.
 */
#ifndef TKV_BENCH_PRIVATE_H
#define TKV_BENCH_PRIVATE_H

#include "app/tkv_application.h"
#include "app/tkv_window.h"

typedef enum {
    STEP_KERNEL, STEP_STAGE, STEP_SECOND, STEP_SOURCE, STEP_IR,
    STEP_PASS_MODE, /* to pass mode: the timeline read and the first diff shown */
    STEP_PASS,      /* a pass selected: its diff made (worker) and shown */
    STEP_FIND       /* the find bar of the view shown searching ARG (LINE 1: as a
                       regular expression) */
} StepKind;

typedef struct {
    StepKind kind;
    int series; /* index into Bench.series */
    char *arg;  /* kernel spec, stage name, file path */
    guint line;
    gboolean measured; /* setup steps are not */
} Step;

typedef struct {
    const char *name;
    GArray *handler; /* double ms */
    GArray *total;   /* handler + layout and paint of the next frame */
    GArray *wall;    /* to the end of that frame */
    /* The frame's parts: to the end of GTK's layout (its update and layout
     * phases), then the paint (snapshot and render), and the main thread's
     * CPU time of handler and frame (what other work on the machine does
     * not inflate, though the X server's share is not in it). */
    GArray *layout, *paint, *cpu;
} Series;

enum {
    S_SOURCE_TTGIR, S_SOURCE_LLIR_SASS, S_IR, S_STAGE, S_FIND, S_PASS_MODE, S_PASS, S_FIND_DIFF,
    N_SERIES
};

typedef struct {
    TkvApplication *app;
    TkvWindow *win;
    char *path;
    char *kernel_spec;
    gboolean json;
    int passes; /* passes selected in pass mode; 0: pass mode left out */
    int rc;

    gint64 load_start, loaded_at, setup_done;
    double first_view_ms, first_setup_ms, kernel_view_ms;
    char *kernel_name;
    guint kernel_lines;

    Series series[N_SERIES];
    GArray *steps; /* Step */
    guint next;
    Step *pending;
    gint64 t0, t1, t_frame; /* the step; the start of the frame after it */
    gint64 t_layout;        /* the end of that frame's layout */
    gint64 cpu0;            /* the thread's CPU time at the step */
    gboolean waiting;      /* for the frame after a step */
    gboolean first_frame;  /* waiting for the first view */
    guint find_lines_max[2]; /* the most lines a find searched: binding view, pass diff */
    gulong frame_id, paint_id, layout_id;
} Bench;

static inline double ms(gint64 us) { return (double)us / 1000.0; }

/* tkv_bench_plan.c: the kernel with the most stage lines (its lines in
 * *LINES_OUT), -1 none; the steps over KERNEL; the passes' steps, once pass
 * mode has read its timeline. */
int tkv_bench_biggest_kernel(TkvDocument *doc, guint *lines_out);
void tkv_bench_plan(Bench *b, int kernel);
void tkv_bench_plan_passes(Bench *b);

/* tkv_bench_report.c: prints the figures; sets B->rc 1 when a target is
 * not met. */
void tkv_bench_report(Bench *b);

#endif
