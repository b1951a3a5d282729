/* tkv_bench_plan.c - what the benchmark runs: the kernel, then the source
 * lines, IR lines, stages, searches and passes worth timing, as steps.
 * Apart from the running: what is measured can be read without the frame
 * clock's machinery. */
#include "testing/tkv_bench_private.h"

#include <string.h>

#define MAX_IR_LINES 400

/* What the find steps search for: what a kernel author looks for in LLVM IR
 * beside SASS (an intrinsic, an opcode, a register, a value, a regular
 * expression over loads and stores); in a pass diff, a value name and an op. */
static const char *const bind_queries[] = {"mma", "ld.shared", "R1", "%1", "cvt", "bar.sync",
                                           "nvvm", "st\\.global|ld\\.global"};
static const char *const diff_queries[] = {"%1", "llvm.", "convert_layout"};

static void add_step(Bench *b, StepKind kind, int series, const char *arg, guint line,
                     gboolean measured)
{
    Step s = {kind, series, g_strdup(arg), line, measured};
    g_array_append_val(b->steps, s);
}

/* The kernel with the most stage lines: the heaviest view. */
int tkv_bench_biggest_kernel(TkvDocument *doc, guint *lines_out)
{
    int best = -1;
    guint best_lines = 0;
    for (size_t i = 0; i < tkv_document_get_kernel_count(doc); i++) {
        const tk_kernel *k = tkv_document_get_kernel(doc, i);
        guint lines = 0;
        for (int s = 0; s < TK_STAGE_COUNT; s++)
            if (tk_kernel_stage(k, (tk_stage_kind)s))
                lines += tk_stage_line_count(tk_kernel_stage(k, (tk_stage_kind)s));
        if (best < 0 || lines > best_lines) {
            best = (int)i;
            best_lines = lines;
        }
    }
    *lines_out = best_lines;
    return best;
}

void tkv_bench_plan(Bench *b, int kernel)
{
    TkvDocument *doc = tkv_window_get_document(b->win);
    const tk_kernel *k = tkv_document_get_kernel(doc, (size_t)kernel);
    const tk_bind *ix = tkv_document_get_index(doc, (size_t)kernel);
    b->kernel_name = g_strdup_printf("%s (%.12s)", tk_kernel_name(k), tk_kernel_hash(k));
    char spec[32];
    g_snprintf(spec, sizeof spec, "%d", kernel);
    add_step(b, STEP_KERNEL, 0, spec, 0, FALSE);

    const tk_file_id *files;
    size_t nf = tkv_document_get_files(doc, (size_t)kernel, &files);
    const char *own = nf ? tkv_document_get_file_path(doc, files[0]) : NULL;
    tk_stage_kind first = tk_kernel_first_stage(k);
    for (int pass = 0; pass < 2 && own; pass++) {
        tk_stage_kind primary = pass == 0 ? first : TK_STAGE_LLIR;
        if (!tk_kernel_stage(k, primary))
            continue;
        add_step(b, STEP_STAGE, 0, tk_stage_kind_name(primary), 0, FALSE);
        if (pass == 1 && tk_kernel_stage(k, TK_STAGE_SASS))
            add_step(b, STEP_SECOND, 0, "sass", 0, FALSE);
        const tk_source_ref *refs;
        size_t n = tk_bind_source_refs(ix, primary, &refs);
        for (size_t i = 0; i < n; i++)
            if (refs[i].file == files[0] && refs[i].n_called)
                add_step(b, STEP_SOURCE, pass == 0 ? S_SOURCE_TTGIR : S_SOURCE_LLIR_SASS, own,
                         refs[i].line, TRUE);
        /* With LLVM IR beside SASS: the find bar over the three panes. */
        for (size_t i = 0; pass == 1 && i < G_N_ELEMENTS(bind_queries); i++)
            add_step(b, STEP_FIND, S_FIND, bind_queries[i], strchr(bind_queries[i], '|') != NULL,
                     TRUE);
    }
    /* IR lines: the bound lines of the first stage, spread evenly. */
    add_step(b, STEP_STAGE, 0, tk_stage_kind_name(first), 0, FALSE);
    const tk_stage *st = tk_kernel_stage(k, first);
    GArray *bound = g_array_new(FALSE, FALSE, sizeof(guint));
    for (guint l = 1; st && l <= tk_stage_line_count(st); l++) {
        const tk_stack_id *ids;
        if (tk_bind_line_stacks(ix, first, l, &ids))
            g_array_append_val(bound, l);
    }
    guint every = bound->len > MAX_IR_LINES ? (bound->len + MAX_IR_LINES - 1) / MAX_IR_LINES : 1;
    for (guint i = 0; i < bound->len; i += every)
        add_step(b, STEP_IR, S_IR, tk_stage_kind_name(first), g_array_index(bound, guint, i), TRUE);
    g_array_unref(bound);
    for (int s = 0; s < TK_STAGE_COUNT; s++)
        if (tk_kernel_stage(k, (tk_stage_kind)s))
            add_step(b, STEP_STAGE, S_STAGE, tk_stage_kind_name((tk_stage_kind)s), 0, TRUE);
    /* Pass mode last: its passes are planned once its timeline is read. */
    if (b->passes > 0)
        add_step(b, STEP_PASS_MODE, S_PASS_MODE, "passes", 0, TRUE);
}

typedef struct {
    size_t pass;
    guint64 size;
} PassSize;

static int by_size(gconstpointer x, gconstpointer y)
{
    const PassSize *a = x, *b = y;
    return a->size < b->size ? 1 : a->size > b->size ? -1 : (a->pass > b->pass) - (a->pass < b->pass);
}

/* The changed passes with the most lines added and removed, biggest first
 * (the pass that rewrites a module is the one worth timing). */
void tkv_bench_plan_passes(Bench *b)
{
    const tk_timeline *tl = tkv_pass_view_get_timeline(tkv_window_get_pass_view(b->win));
    if (!tl)
        return;
    GArray *sizes = g_array_new(FALSE, FALSE, sizeof(PassSize));
    for (size_t i = 0; i < tk_timeline_count(tl); i++) {
        const tk_timeline_entry *e = tk_timeline_get(tl, i);
        if (e->effect == TK_EFFECT_CHANGED) {
            PassSize ps = {i, (guint64)e->added + e->removed};
            g_array_append_val(sizes, ps);
        }
    }
    g_array_sort(sizes, by_size);
    for (guint i = 0; i < sizes->len && i < (guint)b->passes; i++) {
        char spec[32];
        g_snprintf(spec, sizeof spec, "%zu", g_array_index(sizes, PassSize, i).pass);
        add_step(b, STEP_PASS, S_PASS, spec, 0, TRUE);
        /* the find bar over both sides of the diff and the source */
        for (size_t q = 0; q < G_N_ELEMENTS(diff_queries); q++)
            add_step(b, STEP_FIND, S_FIND_DIFF, diff_queries[q], 0, TRUE);
    }
    g_array_unref(sizes);
}
