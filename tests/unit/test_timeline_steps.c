/* test_timeline_steps.c - the diffs tk_timeline_build_steps() hands out while
 * it builds (what the HTML report stores for every pass), on the real
 * vector_add capture: each is the diff tk_timeline_diff() makes of the same
 * pass (same names, hunks and kept lines), "continues" holds exactly when
 * the text before a pass is the text after the one before it, and a
 * handed-out diff reads its locations.
 *
 * Expected values were read from mlir_passes.txt with sed and diff; the
 * comments quote the lines.
 */
#include <string.h>

#include "tk_test.h"
#include "tkdump/tk_bundle_load.h"
#include "tkdump/tk_passes.h"
#include "tkdump/tk_timeline.h"

/* The kept lines of one side, copied while the diff is valid. */
typedef struct {
    GPtrArray *text;  /* char * */
    GArray *line;     /* uint32_t */
} kept;

typedef struct {
    size_t pass, substep;
    tk_effect effect;
    int continues;
    gboolean has_diff;
    char *name[2];
    GArray *hunks;    /* tk_hunk */
    kept side[2];
    char *load_stack; /* pass 14: the stack of "%x_6 = tt.load %x_4, %x_5" */
} step;

typedef struct {
    GArray *steps; /* step */
    tk_loctab *tab;
} collector;

static void copy_kept(kept *k, const tk_ir_diff *d, int side)
{
    k->text = g_ptr_array_new_with_free_func(g_free);
    k->line = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    for (uint32_t i = 0; i < tk_ir_diff_kept_count(d, side); i++) {
        size_t len;
        uint32_t line = 0;
        const char *s = tk_ir_diff_kept_line(d, side, i, &len, &line);
        g_assert_nonnull(s);
        g_ptr_array_add(k->text, g_strndup(s, len));
        g_array_append_val(k->line, line);
    }
}

static int on_step(const tk_timeline *tl, const tk_timeline_step *st, void *user)
{
    (void)tl;
    collector *c = user;
    step s = {0};
    s.pass = st->pass;
    s.substep = st->substep;
    s.effect = st->entry->effect;
    s.continues = st->continues;
    if (st->diff) {
        s.has_diff = TRUE;
        for (int i = 0; i < 2; i++) {
            s.name[i] = g_strdup(tk_ir_diff_name(st->diff, i));
            copy_kept(&s.side[i], st->diff, i);
        }
        size_t n;
        const tk_hunk *h = tk_ir_diff_hunks(st->diff, &n);
        s.hunks = g_array_new(FALSE, FALSE, sizeof(tk_hunk));
        g_array_append_vals(s.hunks, h, (guint)n);
        /* Locations of a borrowed diff: pass 14's line 26 (file 1277)
         * "%x_6 = tt.load %x_4, %x_5 : ... loc(#loc29)". */
        if (st->pass == 14 && st->substep == TK_TL_NONE) {
            tk_ir_diff_bind(st->diff, c->tab, NULL);
            const tk_stack_id *ids;
            if (tk_ir_diff_line_stacks(st->diff, TK_IR_B, 26, &ids) == 1)
                s.load_stack = tk_test_stack_string(c->tab, ids[0]);
        }
        tk_ir_diff_free(st->diff); /* borrowed: does nothing */
    }
    g_array_append_val(c->steps, s);
    return 0;
}

static void step_clear(step *s)
{
    for (int i = 0; i < 2; i++) {
        g_free(s->name[i]);
        if (s->side[i].text) {
            g_ptr_array_free(s->side[i].text, TRUE);
            g_array_free(s->side[i].line, TRUE);
        }
    }
    if (s->hunks)
        g_array_free(s->hunks, TRUE);
    g_free(s->load_stack);
}

static gboolean same_kept(const kept *k, const tk_ir_diff *d, int side)
{
    if (k->text->len != tk_ir_diff_kept_count(d, side))
        return FALSE;
    for (uint32_t i = 0; i < k->text->len; i++) {
        size_t len;
        uint32_t line = 0;
        const char *s = tk_ir_diff_kept_line(d, side, i, &len, &line);
        const char *t = g_ptr_array_index(k->text, i);
        if (strlen(t) != len || memcmp(s, t, len) != 0 ||
            line != g_array_index(k->line, uint32_t, i))
            return FALSE;
    }
    return TRUE;
}

static gboolean same_text(const kept *a, const kept *b)
{
    if (a->text->len != b->text->len)
        return FALSE;
    for (guint i = 0; i < a->text->len; i++)
        if (strcmp(g_ptr_array_index(a->text, i), g_ptr_array_index(b->text, i)) != 0)
            return FALSE;
    return TRUE;
}

static void test_vector_add_steps(void)
{
    if (!tk_test_have_dumps())
        return;
    tk_diags *diags = tk_diags_new();
    char *dir = tk_test_dump_path("vector_add");
    tk_bundle *b = tk_bundle_load(dir, NULL, diags);
    g_assert_nonnull(b);
    const tk_kernel *k = tk_bundle_kernel(b, 0);
    tk_timeline_part *parts;
    size_t np = tk_timeline_parts_of_kernel(b, k, &parts, diags);
    g_assert_cmpuint(np, ==, 2); /* mlir_passes.txt and stderr.txt */
    collector c = {g_array_new(FALSE, FALSE, sizeof(step)), tk_bundle_loctab(b)};
    tk_timeline *tl = tk_timeline_build_steps(parts, np, k, NULL, on_step, &c, diags);
    g_assert_nonnull(tl);

    /* Every pass once, in order, then every sub-step. */
    size_t n = tk_timeline_count(tl), subs = 0;
    for (size_t i = 0; i < n; i++)
        subs += tk_timeline_get(tl, i)->n_substeps;
    g_assert_cmpuint(c.steps->len, ==, n + subs);
    for (size_t i = 0; i < n; i++) {
        step *s = &g_array_index(c.steps, step, i);
        g_assert_cmpuint(s->pass, ==, i);
        g_assert_cmpuint(s->substep, ==, TK_TL_NONE);
        g_assert_cmpint(s->effect, ==, tk_timeline_get(tl, i)->effect);
    }

    /* Each handed-out diff is the one tk_timeline_diff() makes anew. */
    size_t with_diff = 0;
    for (guint x = 0; x < c.steps->len; x++) {
        step *s = &g_array_index(c.steps, step, x);
        if (!s->has_diff)
            continue;
        with_diff++;
        tk_ir_diff *d = s->substep == TK_TL_NONE
                            ? tk_timeline_diff(tl, s->pass, s->pass, NULL, diags)
                            : tk_timeline_diff_substep(tl, s->pass, s->substep, NULL, diags);
        g_assert_nonnull(d);
        g_assert_cmpstr(s->name[0], ==, tk_ir_diff_name(d, TK_IR_A));
        g_assert_cmpstr(s->name[1], ==, tk_ir_diff_name(d, TK_IR_B));
        size_t nh;
        const tk_hunk *h = tk_ir_diff_hunks(d, &nh);
        g_assert_cmpuint(nh, ==, s->hunks->len);
        g_assert_true(nh == 0 || memcmp(h, s->hunks->data, nh * sizeof *h) == 0);
        if (!same_kept(&s->side[0], d, TK_IR_A) || !same_kept(&s->side[1], d, TK_IR_B))
            g_error("pass %zu.%zu: kept lines differ from tk_timeline_diff()", s->pass,
                    s->substep);
        tk_ir_diff_free(d);
    }
    /* changed passes at least: vector_add has 41 (tkview passes) */
    g_assert_cmpuint(with_diff, >=, 41);

    /* "continues": the text before equals the last text read before it
     * (unknown here after a step without a diff that does not continue). */
    const kept *last = NULL;
    size_t checked = 0;
    for (size_t i = 0; i < n; i++) {
        step *s = &g_array_index(c.steps, step, i);
        if (!s->has_diff) {
            if (!s->continues)
                last = NULL;
            continue;
        }
        checked += s->continues && last;
        if (s->continues && last && !same_text(last, &s->side[0]))
            g_error("pass %zu continues but its text before is not the last text after", i);
        last = &s->side[1];
    }
    g_assert_cmpuint(checked, >=, 10);

    /* Hand-checked passes (tkview passes vector_add, mlir_passes.txt):
     * 13 ConvertTritonToTritonGPU (1106 -> 1178) changed the text; 14
     * TritonGPUCoalesce compares 1178 with 1251: the text after 13. */
    step *coal = &g_array_index(c.steps, step, 14);
    g_assert_true(coal->has_diff);
    g_assert_cmpint(coal->continues, ==, 1);
    g_assert_cmpstr(coal->name[0], ==, "mlir_passes.txt:1178");
    g_assert_cmpstr(coal->name[1], ==, "mlir_passes.txt:1251");
    /* 1254 (body line 2) "#blocked1 = ..." added: 13 added, 3 removed */
    tk_diff_stats st = tk_diff_stats_sum((const tk_hunk *)coal->hunks->data, coal->hunks->len);
    g_assert_cmpuint(st.added, ==, 13);
    g_assert_cmpuint(st.removed, ==, 3);
    /* #loc29 = loc("x"(#loc8)), #loc8 = vector_add.py:12:16 */
    g_assert_cmpstr(coal->load_stack, ==, "vector_add.py:12:16");
    /* 15 TritonGPUF32DotTC: the bodies 1252-1332 and 1335-1415 are the
     * same bytes (diff of the two sed ranges is empty): no diff to hand
     * out, the chain goes on. */
    step *f32 = &g_array_index(c.steps, step, 15);
    g_assert_false(f32->has_diff);
    g_assert_cmpint(f32->effect, ==, TK_EFFECT_UNCHANGED);
    g_assert_cmpint(f32->continues, ==, 1);
    /* 17 TritonGPURemoveLayoutConversions (1417 -> 1500) continues too. */
    step *rlc = &g_array_index(c.steps, step, 17);
    g_assert_true(rlc->has_diff);
    g_assert_cmpint(rlc->continues, ==, 1);
    g_assert_cmpstr(rlc->name[0], ==, "mlir_passes.txt:1417");
    /* The first pass has nothing before it to continue. */
    g_assert_cmpint(g_array_index(c.steps, step, 0).continues, ==, 0);
    /* 73 Annotation2MetadataPass, the first LLVM IR dump (stderr.txt:1):
     * nothing comparable before it, no text read, no continuation. */
    const tk_timeline_entry *ann = tk_timeline_get(tl, 73);
    g_assert_cmpstr(ann->pass, ==, "Annotation2MetadataPass");
    step *a = &g_array_index(c.steps, step, 73);
    g_assert_false(a->has_diff);
    g_assert_cmpint(a->continues, ==, 0);

    /* The same timeline as tk_timeline_build(). */
    tk_timeline *plain = tk_timeline_build(parts, np, k, NULL, diags);
    g_assert_cmpuint(tk_timeline_count(plain), ==, n);
    for (size_t i = 0; i < n; i++) {
        const tk_timeline_entry *x = tk_timeline_get(tl, i), *y = tk_timeline_get(plain, i);
        g_assert_cmpint(x->effect, ==, y->effect);
        g_assert_cmpuint(x->added, ==, y->added);
        g_assert_cmpuint(x->removed, ==, y->removed);
    }
    tk_timeline_free(plain);

    for (guint x = 0; x < c.steps->len; x++)
        step_clear(&g_array_index(c.steps, step, x));
    g_array_free(c.steps, TRUE);
    tk_timeline_free(tl);
    g_free(parts);
    tk_bundle_free(b);
    g_free(dir);
    tk_diags_free(diags);
}

/* A callback that stops at once is not called again; the build finishes. */
static int stop_at_once(const tk_timeline *tl, const tk_timeline_step *st, void *user)
{
    (void)tl;
    (void)st;
    (*(int *)user)++;
    return 1;
}

static void test_stop(void)
{
    if (!tk_test_have_dumps())
        return;
    tk_diags *diags = tk_diags_new();
    char *dir = tk_test_dump_path("vector_add");
    tk_bundle *b = tk_bundle_load(dir, NULL, diags);
    const tk_kernel *k = tk_bundle_kernel(b, 0);
    int calls = 0;
    tk_timeline_opts o = {{0}, 0};
    tk_timeline *tl = tk_timeline_of_kernel(b, k, &o, diags);
    tk_timeline_part parts[2];
    for (size_t i = 0; i < tk_timeline_part_count(tl); i++)
        parts[i] = *tk_timeline_get_part(tl, i);
    tk_timeline *t2 = tk_timeline_build_steps(parts, tk_timeline_part_count(tl), k, NULL,
                                              stop_at_once, &calls, diags);
    g_assert_cmpint(calls, ==, 1);
    g_assert_cmpuint(tk_timeline_count(t2), ==, tk_timeline_count(tl));
    /* 14 TritonGPUCoalesce is measured all the same: +13 */
    g_assert_cmpuint(tk_timeline_get(t2, 14)->added, ==, 13);
    tk_timeline_free(t2);
    tk_timeline_free(tl);
    tk_bundle_free(b);
    g_free(dir);
    tk_diags_free(diags);
}

/* TK_TIMELINE_WHOLE_UNITS on every shared capture: every pass has the same
 * effect and counts as without it (a function pass changes the same lines
 * of its module as of its function), and each text before a pass that
 * "continues" is the last whole unit after, loop passes stepped over. */
static void whole_units_kernel(tk_bundle *b, const tk_kernel *k, size_t *llvm_continued,
                               size_t *llvm_changed, size_t *loops_crossed,
                               tk_diags *diags)
{
    tk_timeline_part *parts;
    size_t np = tk_timeline_parts_of_kernel(b, k, &parts, diags);
    if (np == 0)
        return;
    tk_timeline_opts whole = {{0}, TK_TIMELINE_WHOLE_UNITS};
    collector c = {g_array_new(FALSE, FALSE, sizeof(step)), tk_bundle_loctab(b)};
    tk_timeline *a = tk_timeline_build(parts, np, k, NULL, diags);
    tk_timeline *t = tk_timeline_build_steps(parts, np, k, &whole, on_step, &c, diags);
    size_t n = tk_timeline_count(a);
    g_assert_cmpuint(tk_timeline_count(t), ==, n);
    for (size_t i = 0; i < n; i++) {
        const tk_timeline_entry *x = tk_timeline_get(a, i), *y = tk_timeline_get(t, i);
        if (x->effect != y->effect || x->added != y->added || x->removed != y->removed)
            g_error("%s pass %zu %s: %s +%u -%u without whole units, %s +%u -%u with",
                    tk_kernel_name(k), i, x->pass, tk_effect_name(x->effect), x->added,
                    x->removed, tk_effect_name(y->effect), y->added, y->removed);
    }
    /* Continuation, read off the texts handed out. */
    const kept *last = NULL;
    gboolean crossed = FALSE;
    for (size_t i = 0; i < n; i++) {
        step *s = &g_array_index(c.steps, step, i);
        const tk_timeline_entry *e = tk_timeline_get(t, i);
        gboolean mlir = tk_pass_level_dialect(e->level) == TK_IR_MLIR;
        if (e->scope_kind == TK_PASS_SCOPE_LOOP && !mlir) {
            g_assert_cmpint(s->continues, ==, 0);
            crossed = TRUE;
            continue; /* stepped over */
        }
        if (!s->has_diff) {
            if (!s->continues)
                last = NULL;
            continue;
        }
        if (!mlir && e->effect == TK_EFFECT_CHANGED) {
            (*llvm_changed)++;
            *llvm_continued += s->continues != 0;
        }
        if (s->continues && last && !same_text(last, &s->side[0]))
            g_error("%s pass %zu continues but its text before is not the last unit after",
                    tk_kernel_name(k), i);
        if (s->continues && last && crossed)
            (*loops_crossed)++;
        crossed = FALSE;
        last = &s->side[1];
    }
    for (guint x = 0; x < c.steps->len; x++)
        step_clear(&g_array_index(c.steps, step, x));
    g_array_free(c.steps, TRUE);
    tk_timeline_free(t);
    tk_timeline_free(a);
    g_free(parts);
}

static void test_whole_units(void)
{
    if (!tk_test_have_dumps())
        return;
    static const char *const captures[] = {
        "vector_add", "matmul", "softmax", "autotuned_matmul", "gluon_copy",
        "matmul_irloc_ttgir", "vector_add_irloc_ttir", "compiled_block",
        "persistent_tma_matmul"};
    size_t continued = 0, changed = 0, loops = 0;
    for (size_t c = 0; c < G_N_ELEMENTS(captures); c++) {
        tk_diags *diags = tk_diags_new();
        char *dir = tk_test_dump_path(captures[c]);
        tk_bundle *b = tk_bundle_load(dir, NULL, diags);
        g_assert_nonnull(b);
        for (size_t i = 0; i < tk_bundle_kernel_count(b); i++)
            whole_units_kernel(b, tk_bundle_kernel(b, i), &continued, &changed, &loops, diags);
        tk_bundle_free(b);
        g_free(dir);
        tk_diags_free(diags);
    }
    g_test_message("whole units: %zu of %zu changed LLVM IR / machine passes continue, "
                   "%zu across loop passes", continued, changed, loops);
    /* All but the first of each level of each kernel continue. */
    g_assert_cmpuint(continued, >=, changed * 8 / 10);
    /* persistent_tma_matmul runs loop passes (LICM, LoopRotate ... on loop) */
    g_assert_cmpuint(loops, >=, 1);
}

/* The kept line of SIDE whose text starts with PREFIX, from FROM on; -1. */
static int kept_index(const kept *k, const char *prefix, guint from)
{
    for (guint i = from; i < k->text->len; i++)
        if (g_str_has_prefix(g_ptr_array_index(k->text, i), prefix))
            return (int)i;
    return -1;
}

/* gelu_erf (sample_dumps/layer_norm_gelu): Triton links libdevice's
 * __nv_erff into the module, and LLVM runs its function passes on the two
 * functions in turn (llvm.txt.gz: 2359 EarlyCSEPass on gelu_erf, 2643 ..
 * 3329 on __nv_erff).  As whole units, a pass on __nv_erff changes only
 * lines of __nv_erff and starts from the text the pass before left, whose
 * gelu_erf is the one printed at 2501. */
static void test_two_functions(void)
{
    const char *samples = g_getenv("TK_TEST_SAMPLES");
    g_assert_nonnull(samples);
    tk_diags *diags = tk_diags_new();
    char *dir = g_build_filename(samples, "layer_norm_gelu", NULL);
    tk_bundle *b = tk_bundle_load(dir, NULL, diags);
    g_assert_nonnull(b);
    const tk_kernel *k = NULL;
    for (size_t i = 0; i < tk_bundle_kernel_count(b); i++)
        if (strcmp(tk_kernel_name(tk_bundle_kernel(b, i)), "gelu_erf") == 0)
            k = tk_bundle_kernel(b, i);
    g_assert_nonnull(k);
    tk_timeline_part *parts;
    size_t np = tk_timeline_parts_of_kernel(b, k, &parts, diags);
    g_assert_cmpuint(np, ==, 2); /* llvm.txt.gz and mlir.txt.gz */
    tk_timeline_opts whole = {{0}, TK_TIMELINE_WHOLE_UNITS};
    collector c = {g_array_new(FALSE, FALSE, sizeof(step)), tk_bundle_loctab(b)};
    tk_timeline *tl = tk_timeline_build_steps(parts, np, k, &whole, on_step, &c, diags);
    g_assert_nonnull(tl);
    size_t at = TK_TL_NONE;
    for (size_t i = 0; i < tk_timeline_count(tl); i++) {
        const tk_timeline_entry *e = tk_timeline_get(tl, i);
        if (strcmp(e->pass, "EarlyCSEPass") == 0 && strcmp(e->scope_name, "__nv_erff") == 0)
            at = i;
    }
    g_assert_cmpuint(at, !=, TK_TL_NONE);
    step *s = &g_array_index(c.steps, step, at);
    g_assert_true(s->has_diff);
    g_assert_cmpint(s->continues, ==, 1);
    /* 1316 CoroEarlyPass, the last module dump; 2501 CallSiteSplittingPass
     * on gelu_erf; 3142 SROAPass and 3243 EarlyCSEPass on __nv_erff */
    g_assert_cmpstr(s->name[0], ==,
                    "llvm.txt.gz:1316 with gelu_erf from llvm.txt.gz:2501, "
                    "__nv_erff from llvm.txt.gz:3142");
    g_assert_cmpstr(s->name[1], ==,
                    "llvm.txt.gz:1316 with gelu_erf from llvm.txt.gz:2501, "
                    "__nv_erff from llvm.txt.gz:3243");
    for (int side = 0; side < 2; side++) {
        int def = kept_index(&s->side[side], "define internal float @__nv_erff(", 0);
        g_assert_cmpint(def, >=, 0);
        int end = kept_index(&s->side[side], "}", (guint)def);
        g_assert_cmpint(end, >, def);
        /* gelu_erf is defined before it, whole, on both sides */
        int gelu = kept_index(&s->side[side], "define ptx_kernel void @gelu_erf(", 0);
        g_assert_cmpint(gelu, >=, 0);
        g_assert_cmpint(gelu, <, def);
        for (guint h = 0; h < s->hunks->len; h++) {
            const tk_hunk *x = &g_array_index(s->hunks, tk_hunk, h);
            if (x->tag == TK_HUNK_EQUAL)
                continue;
            uint32_t lo = side ? x->b0 : x->a0, hi = side ? x->b1 : x->a1;
            if (lo < hi && (lo <= (uint32_t)def || hi > (uint32_t)end))
                g_error("side %d: a change at kept lines %u..%u, outside __nv_erff (%d..%d)",
                        side, lo, hi, def, end);
        }
    }
    /* the same counts as the function alone (diff of the bodies at 3142 and
     * 3243, locations and value numbers aside) */
    tk_timeline *plain = tk_timeline_build(parts, np, k, NULL, diags);
    const tk_timeline_entry *x = tk_timeline_get(plain, at), *y = tk_timeline_get(tl, at);
    g_assert_cmpuint(x->added, ==, y->added);
    g_assert_cmpuint(x->removed, ==, y->removed);
    g_assert_cmpuint(y->added + y->removed, >, 0);
    tk_timeline_free(plain);
    for (guint i = 0; i < c.steps->len; i++)
        step_clear(&g_array_index(c.steps, step, i));
    g_array_free(c.steps, TRUE);
    tk_timeline_free(tl);
    g_free(parts);
    tk_bundle_free(b);
    g_free(dir);
    tk_diags_free(diags);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/timeline-steps/vector-add", test_vector_add_steps);
    g_test_add_func("/timeline-steps/stop", test_stop);
    g_test_add_func("/timeline-steps/whole-units", test_whole_units);
    g_test_add_func("/timeline-steps/two-functions", test_two_functions);
    return g_test_run();
}
