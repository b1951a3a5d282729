/* tkv_bench.c - first-view and selection timings on a real window: the
 * arguments, the window and the steps run one per frame (what is run:
 * tkv_bench_plan.c; the figures: tkv_bench_report.c). */
#include "testing/tkv_bench.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "app/tkv_renderer.h"
#include "testing/tkv_bench_private.h"

/* Pass mode: how many passes are selected by default (the biggest changes
 * first); --passes N. */
#define DEFAULT_PASSES 12

static gint64 thread_cpu_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (gint64)ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

static void step_clear(gpointer p) { g_free(((Step *)p)->arg); }

static void run_next(Bench *b);

static void finish(Bench *b);

/* A frame starts with "before-paint", which every frame emits.  ("layout"
 * is emitted only when a widget asked for a layout, and reached this handler
 * after GTK's own: timed from there, a frame left out its layout, and a
 * frame without one counted as nothing.) */
static void on_before_paint(GdkFrameClock *clock, Bench *b)
{
    if (b->waiting && !b->t_frame)
        b->t_frame = g_get_monotonic_time();
}

/* Connected after GTK's own layout handler (the surface's, connected when
 * it was made): the end of the frame's layout. */
static void on_layout(GdkFrameClock *clock, Bench *b)
{
    if (b->waiting && b->t_frame)
        b->t_layout = g_get_monotonic_time();
}

static gboolean run_next_idle(gpointer data)
{
    run_next(data);
    return G_SOURCE_REMOVE;
}

/* Whether the pass view has done what a pass step asked: the timeline read
 * and the diff of the selection made and shown. */
static gboolean pass_view_done(Bench *b)
{
    TkvPassView *pv = tkv_window_get_pass_view(b->win);
    const char *st = tkv_pass_view_get_load_state(pv);
    if (strcmp(st, "loading") == 0 || strcmp(st, "idle") == 0)
        return FALSE;
    return !tkv_pass_view_get_diff_pending(pv);
}

static void on_after_paint(GdkFrameClock *clock, Bench *b)
{
    if (!b->waiting)
        return;
    if (b->pending && (b->pending->kind == STEP_PASS_MODE || b->pending->kind == STEP_PASS) &&
        !pass_view_done(b)) {
        /* Made on a worker thread: the frames until it is shown. */
        b->t_frame = b->t_layout = 0;
        gtk_widget_queue_draw(GTK_WIDGET(b->win));
        return;
    }
    gint64 now = g_get_monotonic_time();
    b->waiting = FALSE;
    if (b->first_frame) {
        b->first_frame = FALSE;
        b->first_view_ms = ms(now - b->loaded_at);
        b->first_setup_ms = ms(b->setup_done - b->loaded_at);
        /* the first view's span too, series -1 (TKV_BENCH_TRACE below) */
        if (g_getenv("TKV_BENCH_TRACE"))
            fprintf(stderr, "tkv-bench-step -1 %.6f %.6f first view\n", b->loaded_at / 1e6,
                    now / 1e6);
    } else if (b->pending) {
        Step *s = b->pending;
        double handler = ms(b->t1 - b->t0);
        double frame = b->t_frame ? ms(now - b->t_frame) : 0;
        if (s->kind == STEP_KERNEL) {
            b->kernel_view_ms = ms(now - b->t0);
        } else if (s->measured) {
            Series *se = &b->series[s->series];
            double total = handler + frame, wall = ms(now - b->t0);
            gint64 t_layout = b->t_layout ? b->t_layout : b->t_frame;
            double layout = b->t_frame ? ms(t_layout - b->t_frame) : 0;
            double paint = b->t_frame ? ms(now - t_layout) : 0;
            double cpu = ms(thread_cpu_us() - b->cpu0);
            g_array_append_val(se->handler, handler);
            g_array_append_val(se->total, total);
            g_array_append_val(se->wall, wall);
            g_array_append_val(se->layout, layout);
            g_array_append_val(se->paint, paint);
            g_array_append_val(se->cpu, cpu);
            if (s->kind == STEP_PASS_MODE)
                tkv_bench_plan_passes(b);
            /* For a profiler's samples of the measured steps alone (perf
             * record -k mono): the step's CLOCK_MONOTONIC span. */
            if (g_getenv("TKV_BENCH_TRACE"))
                fprintf(stderr, "tkv-bench-step %d %.6f %.6f %s:%u total %.2f layout %.2f "
                        "paint %.2f cpu %.2f\n", s->series, b->t0 / 1e6, now / 1e6,
                        s->arg ? s->arg : "", s->line, total, layout, paint, cpu);
        }
        b->pending = NULL;
    }
    /* The next step when the main loop has nothing else to do (background
     * syntax highlighting done), as a user's next click would find it. */
    g_idle_add_full(G_PRIORITY_LOW, run_next_idle, b, NULL);
}

static void wait_frame(Bench *b)
{
    b->t_frame = b->t_layout = 0;
    b->waiting = TRUE;
    gtk_widget_queue_draw(GTK_WIDGET(b->win));
}

/* A window action (win.*), or one of the binding view's (bind-view.*), as
 * the kernel list, a click in a pane or a stage switcher activates it. */
static void activate(Bench *b, const char *action, GVariant *param)
{
    g_variant_ref_sink(param);
    if (g_str_has_prefix(action, "win."))
        g_action_group_activate_action(G_ACTION_GROUP(b->win), action + 4, param);
    else
        gtk_widget_activate_action_variant(GTK_WIDGET(tkv_window_get_bind_view(b->win)), action,
                                           param);
    g_variant_unref(param);
}

/* The lines the find bar of the view shown searched (its panes'). */
static void count_find_lines(Bench *b, gboolean diff)
{
    guint lines = 0;
    if (diff) {
        TkvPassView *pv = tkv_window_get_pass_view(b->win);
        for (int s = 0; s < 2; s++)
            lines += tkv_code_view_get_line_count(tkv_code_pane_get_view(tkv_pass_view_get_side(pv, s)));
        lines += tkv_code_view_get_line_count(tkv_code_pane_get_view(tkv_pass_view_get_source_pane(pv)));
    } else {
        TkvBindView *bv = tkv_window_get_bind_view(b->win);
        TkvPaneId panes[] = {TKV_PANE_SOURCE, TKV_PANE_PRIMARY, TKV_PANE_SECONDARY};
        for (int i = 0; i < 3; i++)
            if (panes[i] != TKV_PANE_SECONDARY || tkv_bind_view_get_second_visible(bv))
                lines += tkv_code_view_get_line_count(
                    tkv_code_pane_get_view(tkv_bind_view_get_pane(bv, panes[i])));
    }
    if (lines > b->find_lines_max[diff])
        b->find_lines_max[diff] = lines;
}

static void run_next(Bench *b)
{
    if (b->next >= b->steps->len) {
        finish(b);
        return;
    }
    Step *s = &g_array_index(b->steps, Step, b->next++);
    b->pending = s;
    b->cpu0 = thread_cpu_us();
    b->t0 = g_get_monotonic_time();
    switch (s->kind) {
    case STEP_KERNEL: activate(b, "win.select-kernel", g_variant_new_string(s->arg)); break;
    case STEP_STAGE: activate(b, "bind-view.stage", g_variant_new_string(s->arg)); break;
    case STEP_SECOND:
        g_action_group_change_action_state(G_ACTION_GROUP(b->win), "show-second-view",
                                           g_variant_new_boolean(TRUE));
        activate(b, "bind-view.second-stage", g_variant_new_string(s->arg));
        break;
    case STEP_SOURCE:
        activate(b, "bind-view.select-source-location", g_variant_new("(su)", s->arg, s->line));
        break;
    case STEP_IR:
        activate(b, "bind-view.select-ir-line", g_variant_new("(su)", s->arg, s->line));
        break;
    case STEP_PASS_MODE: activate(b, "win.mode", g_variant_new_string("passes")); break;
    case STEP_PASS:
        gtk_widget_activate_action_variant(GTK_WIDGET(tkv_window_get_pass_view(b->win)),
                                           "pass-view.select-pass",
                                           g_variant_new_string(s->arg));
        break;
    case STEP_FIND: {
        gboolean diff = s->series == S_FIND_DIFF;
        GtkWidget *view = diff ? GTK_WIDGET(tkv_window_get_pass_view(b->win))
                               : GTK_WIDGET(tkv_window_get_bind_view(b->win));
        gtk_widget_activate_action_variant(view, diff ? "pass-view.find-text" : "bind-view.find-text",
                                           g_variant_new("(sbb)", s->arg, s->line == 1, FALSE));
        count_find_lines(b, diff);
        break;
    }
    }
    b->t1 = g_get_monotonic_time();
    wait_frame(b);
}

static void on_loaded(TkvWindow *win, gboolean ok, Bench *b)
{
    b->setup_done = g_get_monotonic_time();
    b->loaded_at = tkv_window_get_loaded_time(win);
    if (!ok) {
        fprintf(stderr, "tkview-viewer --bench: nothing could be loaded from %s\n", b->path);
        b->rc = 3;
        finish(b);
        return;
    }
    TkvDocument *doc = tkv_window_get_document(win);
    int kernel;
    if (b->kernel_spec) {
        size_t matches = 0;
        const tk_kernel *k = tk_bundle_find_kernel(tkv_document_get_bundle(doc), b->kernel_spec,
                                                   &matches);
        kernel = -1;
        for (size_t i = 0; k && i < tkv_document_get_kernel_count(doc); i++)
            if (tkv_document_get_kernel(doc, i) == k)
                kernel = (int)i;
        if (kernel < 0) {
            fprintf(stderr, "tkview-viewer --bench: --kernel %s matches %zu kernels\n",
                    b->kernel_spec, matches);
            b->rc = 2;
            finish(b);
            return;
        }
        guint lines = 0;
        for (int s = 0; s < TK_STAGE_COUNT; s++)
            if (tk_kernel_stage(k, (tk_stage_kind)s))
                lines += tk_stage_line_count(tk_kernel_stage(k, (tk_stage_kind)s));
        b->kernel_lines = lines;
    } else {
        kernel = tkv_bench_biggest_kernel(doc, &b->kernel_lines);
    }
    if (kernel < 0) {
        fprintf(stderr, "tkview-viewer --bench: %s has no kernel\n", b->path);
        b->rc = 3;
        finish(b);
        return;
    }
    tkv_bench_plan(b, kernel);
    GdkFrameClock *clock = gtk_widget_get_frame_clock(GTK_WIDGET(win));
    b->frame_id = g_signal_connect(clock, "before-paint", G_CALLBACK(on_before_paint), b);
    b->paint_id = g_signal_connect(clock, "after-paint", G_CALLBACK(on_after_paint), b);
    b->layout_id = g_signal_connect(clock, "layout", G_CALLBACK(on_layout), b);
    b->first_frame = TRUE;
    wait_frame(b);
}

static void finish(Bench *b)
{
    if (b->win) {
        GdkFrameClock *clock = gtk_widget_get_frame_clock(GTK_WIDGET(b->win));
        if (clock && b->frame_id) {
            g_signal_handler_disconnect(clock, b->frame_id);
            g_signal_handler_disconnect(clock, b->paint_id);
            g_signal_handler_disconnect(clock, b->layout_id);
        }
        b->frame_id = b->paint_id = b->layout_id = 0;
        if (b->rc == 0)
            tkv_bench_report(b);
        gtk_window_destroy(GTK_WINDOW(b->win));
        b->win = NULL;
    }
    g_application_release(G_APPLICATION(b->app));
}

static void on_activate(GApplication *app, Bench *b)
{
    if (b->win)
        return;
    g_application_hold(app);
    b->win = TKV_WINDOW(gtk_application_get_active_window(GTK_APPLICATION(app)));
    if (!b->win) {
        b->win = tkv_window_new(GTK_APPLICATION(app));
        gtk_window_present(GTK_WINDOW(b->win));
    }
    g_signal_connect(b->win, "loaded", G_CALLBACK(on_loaded), b);
    b->load_start = g_get_monotonic_time();
    tkv_window_load(b->win, b->path, NULL);
}

int tkv_bench_main(int argc, char **argv)
{
    Bench b = {0};
    char *path = NULL, *kernel = NULL;
    gboolean json = FALSE, bench = FALSE;
    int passes = DEFAULT_PASSES;
    GOptionEntry entries[] = {
        {"bench", 0, 0, G_OPTION_ARG_FILENAME, &path, "Measure the viewer on PATH", "PATH"},
        {"kernel", 0, 0, G_OPTION_ARG_STRING, &kernel, "The kernel to measure (default: the largest)", "K"},
        {"json", 0, 0, G_OPTION_ARG_NONE, &json, "Print JSON", NULL},
        {"passes", 0, 0, G_OPTION_ARG_INT, &passes,
         "Passes selected in pass mode, biggest change first (default 12; 0: no pass mode)", "N"},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    (void)bench;
    GOptionContext *ctx = g_option_context_new("- time the viewer");
    g_option_context_add_main_entries(ctx, entries, NULL);
    GError *error = NULL;
    if (!g_option_context_parse(ctx, &argc, &argv, &error) || !path) {
        fprintf(stderr, "tkview-viewer --bench: %s\n", error ? error->message : "--bench PATH");
        g_clear_error(&error);
        g_option_context_free(ctx);
        g_free(path);
        g_free(kernel);
        return 2;
    }
    g_option_context_free(ctx);
    if (passes < 0) {
        fprintf(stderr, "tkview-viewer --bench: --passes %d: a count of passes, 0 or more\n", passes);
        g_free(path);
        g_free(kernel);
        return 2;
    }
    if (!gtk_init_check()) {
        fprintf(stderr, "tkview-viewer --bench: cannot open a display (the benchmark draws a real "
                        "window: run it in a desktop session or under xvfb-run)\n");
        g_free(path);
        g_free(kernel);
        return 2;
    }
    const char *renderer = tkv_renderer_choose();
    (void)renderer;
    /* Nothing blinks or animates between the measured frames. */
    g_object_set(gtk_settings_get_default(), "gtk-cursor-blink", FALSE,
                 "gtk-enable-animations", FALSE, NULL);
    b.path = path;
    b.kernel_spec = kernel;
    b.json = json;
    b.passes = passes;
    b.steps = g_array_new(FALSE, FALSE, sizeof(Step));
    g_array_set_clear_func(b.steps, step_clear);
    const char *names[N_SERIES] = {"select source line (TTGIR)",
                                   "select source line (LLIR + SASS)", "select IR line",
                                   "switch stage", "find (source, LLIR, SASS)",
                                   "open pass mode (timeline, first diff)",
                                   "select a pass (its diff, biggest first)",
                                   "find in a pass diff"};
    for (int i = 0; i < N_SERIES; i++) {
        b.series[i].name = names[i];
        b.series[i].handler = g_array_new(FALSE, FALSE, sizeof(double));
        b.series[i].total = g_array_new(FALSE, FALSE, sizeof(double));
        b.series[i].wall = g_array_new(FALSE, FALSE, sizeof(double));
        b.series[i].layout = g_array_new(FALSE, FALSE, sizeof(double));
        b.series[i].paint = g_array_new(FALSE, FALSE, sizeof(double));
        b.series[i].cpu = g_array_new(FALSE, FALSE, sizeof(double));
    }
    /* Its own application id: a viewer already running must neither take
     * the benchmark's window nor be measured instead. */
    char *id = g_strdup_printf("%s.Bench%d", TKV_APP_ID, (int)getpid());
    b.app = tkv_application_new_with_id(id, 0);
    g_free(id);
    g_signal_connect_after(b.app, "activate", G_CALLBACK(on_activate), &b);
    char *args[] = {argv[0], NULL};
    g_application_run(G_APPLICATION(b.app), 1, args);
    g_object_unref(b.app);
    for (int i = 0; i < N_SERIES; i++) {
        g_array_unref(b.series[i].handler);
        g_array_unref(b.series[i].total);
        g_array_unref(b.series[i].wall);
        g_array_unref(b.series[i].layout);
        g_array_unref(b.series[i].paint);
        g_array_unref(b.series[i].cpu);
    }
    g_array_unref(b.steps);
    g_free(b.kernel_name);
    g_free(path);
    g_free(kernel);
    return b.rc;
}
