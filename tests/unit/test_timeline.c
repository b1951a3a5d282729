/* test_timeline.c - pass timelines on the real captures: which texts each
 * pass is compared between, its counts of added and removed lines, unknown
 * effects, sub-steps, diffs between passes and across configurations, and
 * the pass history of a source line.
 *
 * Expected values were read from the dumps with grep, sed and diff; each
 * test quotes the lines they come from.
 */
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "timeline/lines.h"
#include "tk_test.h"
#include "tkdump/tk_bundle_load.h"
#include "tkdump/tk_bundle_passes.h"
#include "tkdump/tk_passes.h"
#include "tkdump/tk_timeline.h"

/* ---- fixture: a capture's bundle, its two pass files, one kernel ------- */

typedef struct {
    tk_diags *diags;
    tk_bundle *bundle;
    tk_passes *mlir, *llvm;
} capture;

static void capture_open(capture *c, const char *name)
{
    c->diags = tk_diags_new();
    char *dir = tk_test_dump_path(name);
    c->bundle = tk_bundle_load(dir, NULL, c->diags);
    g_assert_nonnull(c->bundle);
    char *m = g_build_filename(dir, "mlir_passes.txt", NULL);
    char *l = g_build_filename(dir, "stderr.txt", NULL);
    c->mlir = tk_passes_index(m, c->diags);
    c->llvm = tk_passes_index(l, c->diags);
    g_assert_nonnull(c->mlir);
    g_assert_nonnull(c->llvm);
    g_free(m);
    g_free(l);
    g_free(dir);
}

static void capture_close(capture *c)
{
    tk_passes_free(c->mlir);
    tk_passes_free(c->llvm);
    tk_bundle_free(c->bundle);
    tk_diags_free(c->diags);
}

/* The timeline of bundle kernel K from both files (LLVM part given first:
 * the timeline must put the MLIR part first by itself). */
static tk_timeline *kernel_timeline(capture *c, const tk_kernel *k)
{
    size_t nb;
    tk_pass_key key;
    tk_kernel_pass_key(k, &key);
    ptrdiff_t sm = tk_passes_find_seq(c->mlir, &key, &nb);
    g_assert_cmpint(sm, >=, 0);
    g_assert_cmpuint(nb, ==, 1);
    ptrdiff_t sl = tk_passes_find_seq(c->llvm, &key, &nb);
    g_assert_cmpint(sl, >=, 0);
    g_assert_cmpuint(nb, ==, 1);
    tk_timeline_part parts[2] = {{c->llvm, (size_t)sl}, {c->mlir, (size_t)sm}};
    tk_timeline *tl = tk_timeline_build(parts, 2, k, NULL, c->diags);
    g_assert_nonnull(tl);
    return tl;
}

/* The pass whose dump's header is at LINE of the file of PASSES. */
static size_t pass_at(const tk_timeline *tl, const tk_passes *passes,
                      uint64_t line)
{
    for (size_t i = 0; i < tk_timeline_count(tl); i++) {
        const tk_timeline_entry *e = tk_timeline_get(tl, i);
        if (e->part != TK_TL_NONE && e->header_line == line &&
            tk_timeline_get_part(tl, e->part)->passes == passes)
            return i;
    }
    g_error("no pass at line %llu", (unsigned long long)line);
    return 0;
}

static size_t dumps_of_kind(const tk_passes *p, size_t seq, tk_pass_kind kind)
{
    const tk_pass_seq *s = tk_passes_seq(p, seq);
    size_t n = 0;
    for (size_t i = 0; i < s->n_dumps; i++)
        n += tk_passes_get(p, s->dumps[i])->kind == kind;
    return n;
}

/* ---- vector_add: the timeline ------------------------------------------ */

static void test_vector_add_timeline(void)
{
    if (!tk_test_have_dumps())
        return;
    capture c;
    capture_open(&c, "vector_add");
    const tk_kernel *k = tk_bundle_kernel(c.bundle, 0);
    tk_timeline *tl = kernel_timeline(&c, k);

    /* grep -c 'IR Dump Before' mlir_passes.txt: 73 MLIR passes; stderr.txt
     * holds 193 dumps (docs/passes.md), 2 of them SoftwarePipeliner internal
     * dumps (lines 1 and 35), which are sub-steps: 191 LLVM passes. */
    g_assert_cmpuint(tk_timeline_count(tl), ==, 73 + 191);
    g_assert_cmpuint(tk_timeline_part_count(tl), ==, 2);
    g_assert_true(tk_timeline_get_part(tl, 0)->passes == c.mlir);
    const tk_timeline_entry *e = tk_timeline_get(tl, 0);
    g_assert_cmpstr(e->pass, ==, "Inliner"); /* mlir_passes.txt:1 */
    g_assert_cmpuint(e->header_line, ==, 1);
    e = tk_timeline_get(tl, 73);
    /* stderr.txt:70 "; *** IR Dump After Annotation2MetadataPass on [module]" */
    g_assert_cmpstr(e->pass, ==, "Annotation2MetadataPass");
    g_assert_cmpuint(e->header_line, ==, 70);

    /* TritonGPUCoalesce (mlir_passes.txt:1178), compared with the next dump,
     * TritonGPUF32DotTC (1251).  With locations stripped (diff of lines
     * 1179-1250 and 1252-1333), the pass adds
     *   #blocked1 = #ttg.blocked<{sizePerThread = [4], ...}>           1
     *   x: convert_layout x2, tt.load on #blocked1, convert back       4
     *   y: the same                                                    4
     *   store: convert_layout x3, tt.store on #blocked1                4
     * and removes the two tt.load and the tt.store on #blocked (3).  The
     * renamed values (%y_5 -> %y_8, %s_7 -> %s_13, ...) are not changes. */
    size_t coal = pass_at(tl, c.mlir, 1178);
    e = tk_timeline_get(tl, coal);
    g_assert_cmpstr(e->pass, ==, "TritonGPUCoalesce");
    g_assert_cmpstr(e->arg, ==, "tritongpu-coalesce");
    g_assert_cmpint(e->level, ==, TK_PASS_LEVEL_TTGIR);
    g_assert_cmpint(e->effect, ==, TK_EFFECT_CHANGED);
    g_assert_cmpuint(e->added, ==, 13);
    g_assert_cmpuint(e->removed, ==, 3);
    g_assert_cmpint(e->before.kind, ==, TK_SIDE_DUMP);
    g_assert_cmpint(e->after.kind, ==, TK_SIDE_DUMP);
    g_assert_cmpuint(tk_passes_get(c.mlir, e->after.dump)->header_line, ==, 1251);

    /* Canonicalizers that change nothing: for each, the dump and the next
     * one, #loc lines dropped and " loc(...)" stripped, diff to nothing
     * (674/746, 1796/1870, 2092/2166, 2240/2314, 2684/2758, 2980/3054,
     * 4016/4090, 6609/6853). */
    static const uint64_t same[] = {674, 1796, 2092, 2240, 2684, 2980, 4016, 6609};
    for (size_t i = 0; i < G_N_ELEMENTS(same); i++) {
        e = tk_timeline_get(tl, pass_at(tl, c.mlir, same[i]));
        g_assert_cmpstr(e->pass, ==, "Canonicalizer");
        g_assert_cmpint(e->effect, ==, TK_EFFECT_UNCHANGED);
        g_assert_cmpuint(e->added + e->removed, ==, 0);
    }
    /* The canonicalizer at 4830 (LLVM dialect) shortens the module from 794
     * to 250 body lines (4831-5624 vs 5626-5876): changed. */
    e = tk_timeline_get(tl, pass_at(tl, c.mlir, 4830));
    g_assert_cmpint(e->effect, ==, TK_EFFECT_CHANGED);
    g_assert_cmpint(e->level, ==, TK_PASS_LEVEL_LLVM_MLIR);
    g_assert_cmpuint(e->removed, >, e->added);

    /* The last MLIR pass, LLVMDIScope (7585), is at the LLVM dialect, which
     * has no final stage file: unknown, nothing after it. */
    e = tk_timeline_get(tl, 72);
    g_assert_cmpstr(e->pass, ==, "LLVMDIScope");
    g_assert_cmpuint(e->header_line, ==, 7585);
    g_assert_cmpint(e->effect, ==, TK_EFFECT_UNKNOWN);
    g_assert_cmpint(e->why, ==, TK_UNKNOWN_NO_AFTER);
    g_assert_cmpint(e->after.kind, ==, TK_SIDE_NONE);

    /* The first LLVM IR dump and the first machine dump (24072, nvptx-isel)
     * have nothing comparable before them. */
    e = tk_timeline_get(tl, 73);
    g_assert_cmpint(e->effect, ==, TK_EFFECT_UNKNOWN);
    g_assert_cmpint(e->why, ==, TK_UNKNOWN_NO_BEFORE);
    e = tk_timeline_get(tl, pass_at(tl, c.llvm, 24072));
    g_assert_cmpstr(e->arg, ==, "nvptx-isel");
    g_assert_cmpint(e->level, ==, TK_PASS_LEVEL_MACHINE);
    g_assert_cmpint(e->why, ==, TK_UNKNOWN_NO_BEFORE);
    /* The next machine pass compares with it. */
    e = tk_timeline_get(tl, pass_at(tl, c.llvm, 24167));
    g_assert_cmpint(e->effect, !=, TK_EFFECT_UNKNOWN);

    /* A function pass (1029, EntryExitInstrumenterPass on add_kernel) is
     * compared with add_kernel cut out of the module dump before it (790):
     * awk '/^define/,/^}$/' of both gives the same text. */
    e = tk_timeline_get(tl, pass_at(tl, c.llvm, 1029));
    g_assert_cmpint(e->before.kind, ==, TK_SIDE_FUNCTIONS);
    g_assert_cmpuint(e->before.n_pieces, ==, 1);
    g_assert_cmpstr(e->before.pieces[0].function, ==, "add_kernel");
    g_assert_cmpuint(tk_passes_get(c.llvm, e->before.pieces[0].dump)->header_line, ==, 790);
    g_assert_cmpint(e->effect, ==, TK_EFFECT_UNCHANGED);
    /* A module pass after function passes (2106, OpenMPOptPass) is compared
     * with module 790 whose add_kernel is the one of 1937 (the last function
     * dump): that text, spliced by hand, equals 2106's body. */
    e = tk_timeline_get(tl, pass_at(tl, c.llvm, 2106));
    g_assert_cmpint(e->before.kind, ==, TK_SIDE_STATE);
    g_assert_cmpuint(tk_passes_get(c.llvm, e->before.dump)->header_line, ==, 790);
    g_assert_cmpuint(e->before.n_pieces, ==, 1);
    g_assert_cmpuint(tk_passes_get(c.llvm, e->before.pieces[0].dump)->header_line, ==, 1937);
    g_assert_cmpint(e->effect, ==, TK_EFFECT_UNCHANGED);
    char *desc = tk_timeline_side_describe(tl, &e->before);
    g_assert_cmpstr(desc, ==, "stderr.txt:790 with add_kernel from stderr.txt:1937");
    g_free(desc);

    /* SoftwarePipeliner's internal dumps (stderr.txt:1 LowerLoops, 35
     * ExpandLoops) are sub-steps of TritonGPUPipeline (mlir_passes.txt:2610),
     * not passes.  LowerLoops is printed without aliases and locations; it
     * is compared with the pass's Before dump with that dump's aliases
     * written out, and is the same IR (vector add has no loop to pipeline:
     * the pass itself changes nothing); ExpandLoops (lines 36-68) is the
     * same text as LowerLoops (2-32). */
    size_t pipe = pass_at(tl, c.mlir, 2610);
    e = tk_timeline_get(tl, pipe);
    g_assert_cmpstr(e->pass, ==, "TritonGPUPipeline");
    g_assert_cmpuint(e->n_substeps, ==, 2);
    const tk_timeline_entry *s0 = tk_timeline_substep(tl, pipe, 0);
    const tk_timeline_entry *s1 = tk_timeline_substep(tl, pipe, 1);
    g_assert_cmpstr(s0->arg, ==, "LowerLoops");
    g_assert_cmpuint(s0->parent, ==, pipe);
    g_assert_cmpint(s0->effect, ==, TK_EFFECT_UNCHANGED);
    g_assert_cmpint(s0->why, ==, TK_UNKNOWN_NONE);
    g_assert_true(s0->flags & TK_TL_ALIASES_WRITTEN_OUT);
    g_assert_nonnull(strstr(tk_timeline_entry_note(s0), "without attribute aliases"));
    g_assert_null(tk_timeline_entry_note(e));
    g_assert_cmpstr(s1->arg, ==, "ExpandLoops");
    g_assert_cmpuint(s1->header_line, ==, 35);
    g_assert_cmpint(s1->effect, ==, TK_EFFECT_UNCHANGED);
    g_assert_null(tk_timeline_substep(tl, pipe, 2));
    for (size_t i = 0; i < tk_timeline_count(tl); i++)
        g_assert_true(i == pipe || tk_timeline_get(tl, i)->n_substeps == 0);

    tk_timeline_free(tl);
    capture_close(&c);
}

/* ---- where sub-steps go ------------------------------------------------- */

static char *read_capture_file(const char *rel, gsize *len)
{
    char *path = tk_test_dump_path(rel);
    char *data;
    g_assert_true(g_file_get_contents(path, &data, len, NULL));
    g_free(path);
    return data;
}

/* Lines FIRST..LAST (1-based) of TEXT, appended to OUT. */
static void append_lines(GString *out, const char *text, int first, int last)
{
    const char *p = text;
    for (int l = 1; l < first; l++)
        p = strchr(p, '\n') + 1;
    const char *e = p;
    for (int l = first; l <= last; l++)
        e = strchr(e, '\n') + 1;
    g_string_append_len(out, p, e - p);
}

static void test_substep_hosts(void)
{
    if (!tk_test_have_dumps())
        return;
    tk_diags *d = tk_diags_new();
    gsize len;
    char *mlir = read_capture_file("vector_add/mlir_passes.txt", &len);
    char *err = read_capture_file("vector_add/stderr.txt", &len);

    /* MLIR dumps and the pipeliner's dumps in one file (MLIR_ENABLE_DUMP
     * to stderr): the internal dumps (stderr.txt:1-68) written right after
     * the Before dump of TritonGPUAssignLatencies (mlir_passes.txt:2462-2535)
     * belong to that pass by position, not to TritonGPUPipeline. */
    GString *mixed = g_string_new(NULL);
    append_lines(mixed, mlir, 1, 2535);
    append_lines(mixed, err, 1, 68);
    g_string_append(mixed, "\n\n");
    append_lines(mixed, mlir, 2536, 7828);
    char *path = tk_test_tmp_path("timeline-mixed.txt");
    g_assert_true(g_file_set_contents(path, mixed->str, (gssize)mixed->len, NULL));
    tk_passes *p = tk_passes_index(path, d);
    g_assert_cmpuint(tk_passes_seq_count(p), ==, 1);
    tk_timeline_part part = {p, 0};
    tk_timeline *tl = tk_timeline_build(&part, 1, NULL, NULL, d);
    g_assert_cmpuint(tk_timeline_count(tl), ==, 73);
    size_t with = TK_TL_NONE;
    for (size_t i = 0; i < tk_timeline_count(tl); i++)
        if (tk_timeline_get(tl, i)->n_substeps)
            with = i;
    g_assert_cmpuint(with, !=, TK_TL_NONE);
    g_assert_cmpstr(tk_timeline_get(tl, with)->pass, ==, "TritonGPUAssignLatencies");
    g_assert_cmpuint(tk_timeline_get(tl, with)->n_substeps, ==, 2);
    tk_timeline_free(tl);
    tk_passes_free(p);
    g_unlink(path);

    /* The stderr alone: no MLIR pass to hang them on, so a placeholder
     * "SoftwarePipeliner" entry holds them, ahead of the LLVM passes. */
    char *spath = tk_test_dump_path("vector_add/stderr.txt");
    p = tk_passes_index(spath, d);
    tk_timeline_part sp = {p, 0};
    tl = tk_timeline_build(&sp, 1, NULL, NULL, d);
    g_assert_cmpuint(tk_timeline_count(tl), ==, 191 + 1);
    const tk_timeline_entry *e = tk_timeline_get(tl, 0);
    g_assert_true(e->flags & TK_TL_PLACEHOLDER);
    g_assert_cmpstr(e->pass, ==, "SoftwarePipeliner");
    g_assert_cmpuint(e->n_substeps, ==, 2);
    g_assert_cmpint(e->why, ==, TK_UNKNOWN_NO_BEFORE);
    g_assert_cmpint(tk_timeline_substep(tl, 0, 1)->effect, ==, TK_EFFECT_UNCHANGED);
    g_assert_cmpstr(tk_timeline_get(tl, 1)->pass, ==, "Annotation2MetadataPass");
    tk_timeline_free(tl);
    tk_passes_free(p);

    g_free(spath);
    g_free(path);
    g_string_free(mixed, TRUE);
    g_free(mlir);
    g_free(err);
    tk_diags_free(d);
}

/* ---- the last pass against a final stage ----------------------------------- */

static void test_final_stage(void)
{
    if (!tk_test_have_dumps())
        return;
    capture c;
    capture_open(&c, "vector_add");
    /* Lines 1-1105 of mlir_passes.txt: the make_ttir passes, the last one
     * TritonLoopUnroll (1034), whose text goes on to line 1105. */
    gsize len;
    char *path = tk_test_dump_path("vector_add/mlir_passes.txt");
    char *data;
    g_assert_true(g_file_get_contents(path, &data, &len, NULL));
    const char *cut = data;
    for (int l = 0; l < 1105; l++)
        cut = strchr(cut, '\n') + 1;
    char *tmp = tk_test_tmp_path("timeline-ttir.txt");
    g_assert_true(g_file_set_contents(tmp, data, cut - data, NULL));
    tk_passes *p = tk_passes_index(tmp, c.diags);
    g_assert_nonnull(p);
    g_assert_cmpuint(tk_passes_seq_count(p), ==, 1);

    const tk_kernel *k = tk_bundle_kernel(c.bundle, 0);
    tk_timeline_part part = {p, 0};
    tk_timeline *tl = tk_timeline_build(&part, 1, k, NULL, c.diags);
    g_assert_cmpuint(tk_timeline_count(tl), ==, 13);
    const tk_timeline_entry *e = tk_timeline_get(tl, 12);
    g_assert_cmpstr(e->pass, ==, "TritonLoopUnroll");
    g_assert_cmpint(e->after.kind, ==, TK_SIDE_FINAL);
    g_assert_cmpint(e->after.final, ==, TK_STAGE_TTIR);
    g_assert_true(e->flags & TK_TL_TO_FINAL);
    /* The kernel's add_kernel.ttir is the text of the dumps before
     * ConvertTritonToTritonGPU (docs/passes.md), so TritonLoopUnroll, which
     * changed nothing (1034 vs 1106 diff to nothing once locations go),
     * compares equal with it. */
    g_assert_cmpint(e->effect, ==, TK_EFFECT_UNCHANGED);
    char *desc = tk_timeline_side_describe(tl, &e->after);
    g_assert_true(g_str_has_prefix(desc, "final "));
    g_assert_true(g_str_has_suffix(desc, ".ttir"));
    g_free(desc);
    tk_timeline_free(tl);

    /* Without the kernel there is no final stage: unknown. */
    tl = tk_timeline_build(&part, 1, NULL, NULL, c.diags);
    e = tk_timeline_get(tl, 12);
    g_assert_cmpint(e->why, ==, TK_UNKNOWN_NO_AFTER);
    g_assert_cmpstr(tk_timeline_kernel_name(tl), ==, "add_kernel");
    tk_timeline_free(tl);

    tk_passes_free(p);
    g_unlink(tmp);
    g_free(tmp);
    g_free(data);
    g_free(path);
    capture_close(&c);
}

/* ---- compiled_block and autotuned_matmul: one timeline per compile -------- */

static void test_compiled_block(void)
{
    if (!tk_test_have_dumps())
        return;
    capture c;
    capture_open(&c, "compiled_block");
    /* 16 kernels (9 names, 7 compiled twice); 1112 MLIR dumps, 3124 LLVM
     * dumps of which 32 are SoftwarePipeliner's (docs/passes.md; grep -c
     * SoftwarePipeliner stderr.txt). */
    g_assert_cmpuint(tk_bundle_kernel_count(c.bundle), ==, 16);
    size_t total = 0, n = 0;
    GHashTable *seen = g_hash_table_new(NULL, NULL);
    for (size_t i = 0; i < tk_bundle_kernel_count(c.bundle); i++) {
        const tk_kernel *k = tk_bundle_kernel(c.bundle, i);
        tk_timeline *tl = kernel_timeline(&c, k);
        n++;
        total += tk_timeline_count(tl);
        const tk_timeline_part *m = tk_timeline_get_part(tl, 0);
        const tk_timeline_part *l = tk_timeline_get_part(tl, 1);
        g_assert_true(m->passes == c.mlir && l->passes == c.llvm);
        /* Each compile's sequences are its own. */
        g_assert_false(g_hash_table_contains(seen, GSIZE_TO_POINTER(m->seq + 1)));
        g_hash_table_add(seen, GSIZE_TO_POINTER(m->seq + 1));
        size_t internal = dumps_of_kind(c.llvm, l->seq, TK_PASS_MLIR_INTERNAL);
        g_assert_cmpuint(tk_timeline_count(tl), ==,
                         tk_passes_seq(c.mlir, m->seq)->n_dumps +
                             tk_passes_seq(c.llvm, l->seq)->n_dumps - internal);
        /* Every one is a full pipeline: Inliner first, the pipeliner's two
         * internal dumps under TritonGPUPipeline. */
        g_assert_cmpstr(tk_timeline_get(tl, 0)->pass, ==, "Inliner");
        size_t subs = 0;
        for (size_t j = 0; j < tk_timeline_count(tl); j++) {
            const tk_timeline_entry *e = tk_timeline_get(tl, j);
            if (e->n_substeps)
                g_assert_cmpstr(e->arg, ==, "tritongpu-pipeline");
            subs += e->n_substeps;
            g_assert_true(e->effect != TK_EFFECT_UNKNOWN || e->why != TK_UNKNOWN_NONE);
            g_assert_true(e->why != TK_UNKNOWN_UNREADABLE);
        }
        g_assert_cmpuint(subs, ==, 2);
        g_assert_cmpstr(tk_timeline_kernel_name(tl), ==, tk_kernel_name(k));
        tk_timeline_free(tl);
    }
    g_assert_cmpuint(n, ==, 16);
    g_assert_cmpuint(total, ==, 1112 + 3124 - 32);
    g_hash_table_destroy(seen);
    capture_close(&c);
}

static void test_autotuned(void)
{
    if (!tk_test_have_dumps())
        return;
    capture c;
    capture_open(&c, "autotuned_matmul");
    /* Three compiles of mm_kernel: mlir_passes.txt has 71 Before dumps each
     * (Inliner at lines 1, 48010, 95287); stderr.txt 209 each, 2 of them the
     * pipeliner's (LowerLoops/ExpandLoops before each Annotation2Metadata
     * at 296, 246196, 454041): 71 + 207 = 278 passes per timeline. */
    g_assert_cmpuint(tk_bundle_kernel_count(c.bundle), ==, 3);
    tk_timeline *tl[3];
    for (size_t i = 0; i < 3; i++) {
        tl[i] = kernel_timeline(&c, tk_bundle_kernel(c.bundle, i));
        g_assert_cmpuint(tk_timeline_count(tl[i]), ==, 278);
    }
    /* Same passes in the same order, but the configurations differ (num
     * warps 8 for one, 4 for the others; block sizes), so some effects do. */
    size_t differ = 0;
    for (size_t j = 0; j < 278; j++) {
        const tk_timeline_entry *a = tk_timeline_get(tl[0], j);
        for (size_t i = 1; i < 3; i++) {
            const tk_timeline_entry *b = tk_timeline_get(tl[i], j);
            g_assert_cmpstr(a->pass, ==, b->pass);
            differ += a->added != b->added || a->removed != b->removed;
        }
    }
    g_assert_cmpuint(differ, >, 0);
    /* One of them by hand: TritonGPUAccelerateMatmul (mlir_passes.txt:3966
     * in the 8-warp compile, 52012 in the first 4-warp one; each against the
     * next dump, locations stripped) replaces the two dot-operand
     * convert_layouts and the tt.dot (3 lines) by two local_allocs, a
     * convert of the accumulator, ttng.warp_group_dot and a convert back (5
     * lines) plus the new layout aliases: #mma, #shared, #smem (3) in the
     * 8-warp compile, and a second #shared1 too (4) in the other. */
    size_t checked = 0;
    for (size_t i = 0; i < 3; i++)
        for (size_t j = 0; j < 278; j++) {
            const tk_timeline_entry *e = tk_timeline_get(tl[i], j);
            if (strcmp(e->pass, "TritonGPUAccelerateMatmul") != 0)
                continue;
            if (e->header_line == 3966 || e->header_line == 52012) {
                g_assert_cmpuint(e->added, ==, e->header_line == 3966 ? 8 : 9);
                g_assert_cmpuint(e->removed, ==, 3);
                checked++;
            }
        }
    g_assert_cmpuint(checked, ==, 2);
    /* Loop passes (on loop %<unnamed loop> in function mm_kernel) compare
     * with the previous dump of the same loop; the function pass after them
     * covers their changes too. */
    size_t loops = 0, spans = 0;
    for (size_t j = 0; j < 278; j++) {
        const tk_timeline_entry *e = tk_timeline_get(tl[0], j);
        loops += e->scope_kind == TK_PASS_SCOPE_LOOP;
        spans += (e->flags & TK_TL_SPANS_LOOPS) != 0;
        if (e->scope_kind == TK_PASS_SCOPE_LOOP && e->before.kind != TK_SIDE_NONE)
            g_assert_cmpint(e->before.kind, ==, TK_SIDE_DUMP);
    }
    /* grep 'on loop' per compile: 14; and the legacy loop passes, whose
     * header names no loop and whose body starts "; Preheader:":
     * stderr.txt 186436 canon-freeze and 186951 loop-reduce */
    g_assert_cmpuint(loops, ==, 16);
    g_assert_cmpuint(spans, >, 0);
    for (size_t i = 0; i < 3; i++)
        tk_timeline_free(tl[i]);
    capture_close(&c);
}

/* ---- diffs --------------------------------------------------------------- */

/* Whether the diff's hunks add a line containing NEEDLE; its number in B. */
static uint32_t added_line_with(const tk_ir_diff *d, const char *needle)
{
    size_t n;
    const tk_hunk *h = tk_ir_diff_hunks(d, &n);
    for (size_t i = 0; i < n; i++) {
        if (h[i].tag == TK_HUNK_EQUAL)
            continue;
        for (uint32_t k = h[i].b0; k < h[i].b1; k++) {
            size_t len;
            uint32_t line;
            const char *t = tk_ir_diff_kept_line(d, TK_IR_B, k, &len, &line);
            char *s = g_strndup(t, len);
            int hit = strstr(s, needle) != NULL;
            g_free(s);
            if (hit)
                return line;
        }
    }
    return 0;
}

/* "A change" (tk_diff_changes()) on the Coalesce pass, read by hand from
 * mlir_passes.txt (kept lines: the body without its #loc and blank lines;
 * A's kept line 0 is 1179, kept line j >= 1 is 1188 + j; B's 0 and 1 are
 * 1252 and 1253, kept line j >= 2 is 1261 + j):
 *   1. 1253 `#blocked1 = #ttg.blocked<{sizePerThread = [4], ...` added
 *      after `#blocked = ...`: A [1, 1), B [1, 2);
 *   2. 1201 `%x_4 = tt.load %x_3, %mask_2` became 1275-1278 (three
 *      convert_layouts around the load), then after two equal lines (x's
 *      addptr... y's splat and addptr: 1202-1203 = 1279-1280), 1204 the y
 *      load became 1281-1284: one change, the edits being closer than
 *      2 x 3 + 1 equal lines: A [13, 17), B [14, 24);
 *   3. 1216 `tt.store %1, %output_9, %mask_2` became 1296-1299, eleven
 *      equal lines (1205-1215) after change 2: A [28, 29), B [35, 39).
 * Three changes, as `tkview diff --pass` prints three "@@" groups and the
 * report says "change 1 of 3"; the diff itself has more edit hunks. */
static void test_changes(void)
{
    if (!tk_test_have_dumps())
        return;
    capture c;
    capture_open(&c, "vector_add");
    tk_timeline *tl = kernel_timeline(&c, tk_bundle_kernel(c.bundle, 0));
    size_t coal = pass_at(tl, c.mlir, 1178);
    tk_ir_diff *d = tk_timeline_diff(tl, coal, coal, NULL, c.diags);
    g_assert_nonnull(d);
    size_t nh, edits = 0;
    const tk_hunk *h = tk_ir_diff_hunks(d, &nh);
    for (size_t i = 0; i < nh; i++)
        edits += h[i].tag != TK_HUNK_EQUAL;
    tk_hunk *ch;
    size_t n = tk_diff_changes(h, nh, &ch);
    g_assert_cmpuint(n, ==, 3);
    g_assert_cmpuint(edits, >, n);
    const uint32_t want[3][4] = {{1, 1, 1, 2}, {13, 17, 14, 24}, {28, 29, 35, 39}};
    for (size_t i = 0; i < 3; i++) {
        g_assert_cmpint(ch[i].tag, ==, TK_HUNK_GROUP);
        g_assert_cmpuint(ch[i].a0, ==, want[i][0]);
        g_assert_cmpuint(ch[i].a1, ==, want[i][1]);
        g_assert_cmpuint(ch[i].b0, ==, want[i][2]);
        g_assert_cmpuint(ch[i].b1, ==, want[i][3]);
    }
    free(ch);
    /* no change, no list */
    tk_hunk eq = {TK_HUNK_EQUAL, 0, 5, 0, 5};
    ch = &eq;
    g_assert_cmpuint(tk_diff_changes(&eq, 1, &ch), ==, 0);
    g_assert_null(ch);
    tk_ir_diff_free(d);
    tk_timeline_free(tl);
    capture_close(&c);
}

static void test_diffs(void)
{
    if (!tk_test_have_dumps())
        return;
    capture c;
    capture_open(&c, "vector_add");
    const tk_kernel *k = tk_bundle_kernel(c.bundle, 0);
    tk_timeline *tl = kernel_timeline(&c, k);
    size_t coal = pass_at(tl, c.mlir, 1178);

    tk_ir_diff *d = tk_timeline_diff(tl, coal, coal, NULL, c.diags);
    g_assert_nonnull(d);
    g_assert_cmpuint(tk_ir_diff_stats(d).added, ==, 13);
    g_assert_cmpuint(tk_ir_diff_stats(d).removed, ==, 3);
    /* mlir_passes.txt:1254 (line 2 of the body after it): the new layout. */
    g_assert_cmpuint(added_line_with(d, "#blocked1 = #ttg.blocked<{sizePerThread = [4]"), ==, 2);
    /* 1277 (body line 26): "%x_6 = tt.load %x_4, %x_5 : ... loc(#loc29)",
     * #loc29 = loc("x"(#loc8)), #loc8 = vector_add.py:12:16. */
    uint32_t load = added_line_with(d, "%x_6 = tt.load %x_4, %x_5");
    g_assert_cmpuint(load, ==, 26);
    tk_loctab *tab = tk_bundle_loctab(c.bundle);
    tk_ir_diff_bind(d, tab, c.diags);
    const tk_stack_id *ids;
    g_assert_cmpuint(tk_ir_diff_line_stacks(d, TK_IR_B, load, &ids), ==, 1);
    char *st = tk_test_stack_string(tab, ids[0]);
    g_assert_cmpstr(st, ==, "vector_add.py:12:16");
    g_free(st);
    tk_ir_diff_free(d);

    /* Pass N to pass M: before ConvertTritonToTritonGPU (1106) to after
     * Coalesce: TTIR and TTGIR are both MLIR. */
    d = tk_timeline_diff(tl, coal - 1, coal, NULL, c.diags);
    g_assert_nonnull(d);
    g_assert_cmpstr(tk_ir_diff_name(d, TK_IR_A), ==, "mlir_passes.txt:1106");
    g_assert_cmpstr(tk_ir_diff_name(d, TK_IR_B), ==, "mlir_passes.txt:1251");
    tk_ir_diff_free(d);
    /* MLIR against LLVM IR is refused, and so is a side that is missing. */
    tk_diags *err = tk_diags_new();
    g_assert_null(tk_timeline_diff(tl, 60, 80, NULL, err));
    g_assert_null(tk_timeline_diff(tl, 72, 72, NULL, err));
    g_assert_null(tk_timeline_diff(tl, 5, 4, NULL, err));
    g_assert_cmpuint(tk_diags_count_at_least(err, TK_DIAG_ERROR), ==, 3);
    tk_diags_free(err);
    /* An LLVM function pass: only add_kernel on both sides, the debug
     * metadata of the module dump at 790 read with it.  1029's first
     * instruction "%7 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg
     * !7" and 790's "!7 = !DILocation(line: 8, column: 24, scope: !4)". */
    size_t eei = pass_at(tl, c.llvm, 1029);
    d = tk_timeline_diff(tl, eei, eei, NULL, c.diags);
    g_assert_nonnull(d);
    g_assert_cmpuint(tk_ir_diff_stats(d).added + tk_ir_diff_stats(d).removed, ==, 0);
    tk_ir_diff_bind(d, tab, c.diags);
    g_assert_cmpuint(tk_ir_diff_line_stacks(d, TK_IR_B, 2, &ids), ==, 1);
    st = tk_test_stack_string(tab, ids[0]);
    g_assert_cmpstr(st, ==, "vector_add.py:8:24");
    g_free(st);
    tk_ir_diff_free(d);
    /* A sub-step: ExpandLoops against LowerLoops. */
    size_t pipe = pass_at(tl, c.mlir, 2610);
    d = tk_timeline_diff_substep(tl, pipe, 1, NULL, c.diags);
    g_assert_nonnull(d);
    g_assert_cmpuint(tk_ir_diff_stats(d).added, ==, 0);
    tk_ir_diff_free(d);

    tk_timeline_free(tl);
    capture_close(&c);
}

/* The build's counts (which skip reading texts it knows are equal) are
 * those of a diff of each pass made from scratch; a plan without measuring
 * and the bundle's own pass files give the same timeline. */
static void test_build_paths_agree(void)
{
    if (!tk_test_have_dumps())
        return;
    capture c;
    capture_open(&c, "vector_add");
    const tk_kernel *k = tk_bundle_kernel(c.bundle, 0);
    tk_timeline *tl = kernel_timeline(&c, k);
    size_t compared = 0;
    for (size_t i = 0; i < tk_timeline_count(tl); i++) {
        const tk_timeline_entry *e = tk_timeline_get(tl, i);
        if (e->effect == TK_EFFECT_UNKNOWN)
            continue;
        if (e->before.kind == TK_SIDE_NONE) /* banners: no text */
            continue;
        tk_ir_diff *d = tk_timeline_diff(tl, i, i, NULL, c.diags);
        g_assert_nonnull(d);
        tk_diff_stats st = tk_ir_diff_stats(d);
        if (st.added != e->added || st.removed != e->removed)
            g_error("pass %zu (%s): built +%u -%u, diffed +%u -%u", i, e->pass, e->added,
                    e->removed, st.added, st.removed);
        tk_ir_diff_free(d);
        compared++;
    }
    g_assert_cmpuint(compared, ==, 264 - 3); /* all but the 3 unknown */

    tk_timeline_opts plan = {{0}, TK_TIMELINE_NO_MEASURE};
    tk_timeline *p = tk_timeline_of_kernel(c.bundle, k, &plan, c.diags);
    g_assert_nonnull(p);
    g_assert_cmpuint(tk_timeline_count(p), ==, tk_timeline_count(tl));
    for (size_t i = 0; i < tk_timeline_count(p); i++) {
        const tk_timeline_entry *a = tk_timeline_get(tl, i), *b = tk_timeline_get(p, i);
        g_assert_cmpuint(a->header_line, ==, b->header_line);
        g_assert_cmpint(a->before.kind, ==, b->before.kind);
        if (a->effect != TK_EFFECT_UNKNOWN)
            g_assert_cmpint(b->why, ==, TK_UNKNOWN_NOT_MEASURED);
    }
    tk_ir_diff *d = tk_timeline_diff(p, 14, 14, NULL, c.diags);
    g_assert_cmpuint(tk_ir_diff_stats(d).added, ==, 13);
    tk_ir_diff_free(d);
    tk_timeline_free(p);
    tk_timeline_free(tl);
    capture_close(&c);
}

static void test_stage_diff_configs(void)
{
    if (!tk_test_have_dumps())
        return;
    capture c;
    capture_open(&c, "autotuned_matmul");
    const tk_stage *a = tk_kernel_stage(tk_bundle_kernel(c.bundle, 0), TK_STAGE_TTGIR);
    const tk_stage *b = tk_kernel_stage(tk_bundle_kernel(c.bundle, 1), TK_STAGE_TTGIR);
    tk_ir_diff *d = tk_ir_diff_stages(a, a, NULL);
    g_assert_cmpuint(tk_ir_diff_stats(d).added + tk_ir_diff_stats(d).removed, ==, 0);
    tk_ir_diff_free(d);
    /* Two configurations: at least the module's "ttg.num-warps" or the
     * block-size constants differ. */
    d = tk_ir_diff_stages(a, b, NULL);
    g_assert_nonnull(d);
    g_assert_cmpuint(tk_ir_diff_stats(d).added, >, 0);
    /* Stacks come from the stages themselves. */
    size_t n;
    const tk_hunk *h = tk_ir_diff_hunks(d, &n);
    g_assert_cmpuint(n, >, 1);
    g_assert_null(tk_ir_diff_stages(a, tk_kernel_stage(tk_bundle_kernel(c.bundle, 1),
                                                       TK_STAGE_LLIR), NULL));
    (void)h;
    tk_ir_diff_free(d);
    capture_close(&c);
}

/* ---- history ----------------------------------------------------------- */

static int is_vector_add_py(const tk_loctab *tab, tk_file_id f, void *user)
{
    (void)user;
    return g_str_has_suffix(tk_loctab_file_path(tab, f), "/vector_add.py");
}

static const tk_history_step *step_of(const tk_history *h, size_t pass)
{
    for (size_t i = 0; i < tk_history_count(h); i++)
        if (tk_history_get(h, i)->pass == pass &&
            tk_history_get(h, i)->substep == TK_TL_NONE)
            return tk_history_get(h, i);
    return NULL;
}

static void test_history(void)
{
    if (!tk_test_have_dumps())
        return;
    capture c;
    capture_open(&c, "vector_add");
    const tk_kernel *k = tk_bundle_kernel(c.bundle, 0);
    tk_timeline *tl = kernel_timeline(&c, k);
    tk_loctab *tab = tk_bundle_loctab(c.bundle);

    /* vector_add.py:16 "s = tl.sum(output)".  Before
     * ConvertTritonToTritonGPU (mlir_passes.txt:1106) six lines are bound
     * to it: the tt.reshape (loc(#loc35) = callsite(standard.py:293 at
     * #loc33 "s" vector_add.py:16)), the tt.reduce, its ^bb0, arith.addf
     * (#loc37), tt.reduce.return and the closing "}) : (tensor<1024xf32>)
     * -> f32" (#loc35).  The pass gives the reshape and the closing line a
     * #blocked type (1178+28 and +33): 2 removed, 2 added. */
    tk_history *h = tk_timeline_history(tl, tab, is_vector_add_py, NULL, 16,
                                        TK_MATCH_CALLED, NULL, c.diags);
    const tk_history_step *s = step_of(h, pass_at(tl, c.mlir, 1106));
    g_assert_nonnull(s);
    g_assert_cmpuint(s->removed, ==, 2);
    g_assert_cmpuint(s->added, ==, 2);
    /* ConvertTritonGPUToLLVM (4756 -> 4830) turns the reduce into LLVM
     * dialect code: the six TTGIR lines (4757 + 28 .. 33) go, and lines
     * bound to line 16 come. */
    s = step_of(h, pass_at(tl, c.mlir, 4756));
    g_assert_nonnull(s);
    g_assert_cmpuint(s->removed, ==, 6);
    g_assert_cmpuint(s->added, >, 6);
    /* Coalesce changes loads and stores of lines 12, 13 and 18, nothing of
     * line 16 (see the diff in test_vector_add_timeline). */
    g_assert_null(step_of(h, pass_at(tl, c.mlir, 1178)));
    /* Steps are in timeline order; some come from LLVM IR passes (their
     * !dbg chains go through standard.py to vector_add.py:16). */
    size_t llvm = 0;
    for (size_t i = 0; i < tk_history_count(h); i++) {
        if (i)
            g_assert_cmpuint(tk_history_get(h, i)->pass, >=, tk_history_get(h, i - 1)->pass);
        llvm += tk_timeline_get(tl, tk_history_get(h, i)->pass)->level >= TK_PASS_LEVEL_LLVM_IR;
    }
    g_assert_cmpuint(llvm, >, 0);
    g_assert_cmpuint(tk_history_entries_read(h), >, 0);
    tk_history_free(h);

    /* --exact: the reshape and the closing line's innermost frame is
     * standard.py:293, so ConvertTritonToTritonGPU touches nothing whose
     * innermost frame is line 16. */
    h = tk_timeline_history(tl, tab, is_vector_add_py, NULL, 16, TK_MATCH_EXACT,
                            NULL, c.diags);
    g_assert_null(step_of(h, pass_at(tl, c.mlir, 1106)));
    tk_history_free(h);

    /* A line with no code (vector_add.py:1) has no history. */
    h = tk_timeline_history(tl, tab, is_vector_add_py, NULL, 1, TK_MATCH_CALLED,
                            NULL, c.diags);
    g_assert_cmpuint(tk_history_count(h), ==, 0);
    tk_history_free(h);
    tk_timeline_free(tl);
    capture_close(&c);
}

/* ---- memory does not grow with the number of passes ------------------------ */

/* One kernel, COPIES Before dumps of the same large LLVM dialect module
 * (mlir_passes.txt:4830-5624, 794 lines): one sequence, all unchanged. */
static char *write_many(const char *name, int copies, size_t *dump_bytes)
{
    gsize len;
    char *path = tk_test_dump_path("vector_add/mlir_passes.txt");
    char *data;
    g_assert_true(g_file_get_contents(path, &data, &len, NULL));
    g_free(path);
    const char *a = data, *b;
    for (int l = 1; l < 4830; l++)
        a = strchr(a, '\n') + 1;
    b = a;
    for (int l = 4830; l < 5625; l++)
        b = strchr(b, '\n') + 1;
    *dump_bytes = (size_t)(b - a);
    char *out = tk_test_tmp_path(name);
    FILE *f = fopen(out, "wb");
    g_assert_nonnull(f);
    for (int i = 0; i < copies; i++)
        fwrite(a, 1, (size_t)(b - a), f);
    fclose(f);
    g_free(data);
    return out;
}

static long build_growth_kb(const char *path, size_t *n_passes)
{
    struct rusage r0, r1;
    getrusage(RUSAGE_SELF, &r0);
    tk_diags *d = tk_diags_new();
    tk_passes *p = tk_passes_index(path, d);
    tk_timeline_part part = {p, 0};
    tk_timeline *tl = tk_timeline_build(&part, 1, NULL, NULL, d);
    *n_passes = tk_timeline_count(tl);
    getrusage(RUSAGE_SELF, &r1);
    tk_timeline_free(tl);
    tk_passes_free(p);
    tk_diags_free(d);
    return r1.ru_maxrss - r0.ru_maxrss;
}

static void test_memory(void)
{
    if (g_test_subprocess()) {
        size_t bytes, n;
        char *path = write_many("timeline-many.txt", 600, &bytes);
        long kb = build_growth_kb(path, &n);
        g_unlink(path);
        g_free(path);
        /* 600 dumps of 74 KB: holding them would cost 44 MB; the walk holds
         * two texts, their normalizations and the index. */
        printf("# %zu passes, dump %zu bytes, peak grew by %ld KB\n", n, bytes, kb);
        g_assert_cmpuint(n, ==, 600);
        g_assert_cmpint(kb, <, 16 * 1024);
        return;
    }
    if (!tk_test_have_dumps())
        return;
    g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDOUT);
    g_test_trap_assert_passed();
}

/* ---- bad input ---------------------------------------------------------- */

static void test_bad_input(void)
{
    /* A file cut inside a dump, and a dump whose file shrank after it was
     * indexed: what can be read is used, the rest is unknown. */
    const char *text =
        "// -----// IR Dump Before A (a) ('builtin.module' operation) //----- //\n"
        "module {\n  tt.func public @k() {\n    tt.return\n  }\n}\n\n\n"
        "// -----// IR Dump Before B (b) ('builtin.module' operation) //----- //\n"
        "module {\n  tt.func public @k() {\n    %0 = arith.constant 1 : i32\n    tt.return\n  }\n}\n\n\n"
        "// -----// IR Dump Before C (c) ('builtin.module' operation) //----- //\n"
        "module {\n  tt.func public @k() {\n    %0 = arith.con";
    char *path = tk_test_tmp_path("timeline-bad.txt");
    g_assert_true(g_file_set_contents(path, text, -1, NULL));
    tk_diags *d = tk_diags_new();
    tk_passes *p = tk_passes_index(path, d);
    g_assert_cmpuint(tk_passes_seq_count(p), ==, 1);
    tk_timeline_part part = {p, 0};
    tk_timeline *tl = tk_timeline_build(&part, 1, NULL, NULL, d);
    g_assert_cmpuint(tk_timeline_count(tl), ==, 3);
    /* A: one op added by hand count; B -> the cut C: the constant line is
     * cut, so the diff is marked damaged. */
    g_assert_cmpuint(tk_timeline_get(tl, 0)->added, ==, 1);
    g_assert_cmpuint(tk_timeline_get(tl, 0)->removed, ==, 0);
    g_assert_true(tk_timeline_get(tl, 1)->flags & TK_TL_DAMAGED);
    g_assert_cmpint(tk_timeline_get(tl, 2)->why, ==, TK_UNKNOWN_NO_AFTER);
    tk_timeline_free(tl);
    /* The file shrinks in place: reads fail, entries are unknown, nothing
     * crashes. */
    g_assert_cmpint(truncate(path, 2), ==, 0);
    tl = tk_timeline_build(&part, 1, NULL, NULL, d);
    g_assert_cmpint(tk_timeline_get(tl, 0)->why, ==, TK_UNKNOWN_UNREADABLE);
    g_assert_cmpuint(tk_diags_count_at_least(d, TK_DIAG_ERROR), >, 0);
    g_assert_null(tk_timeline_diff(tl, 0, 0, NULL, d));
    tk_timeline_free(tl);
    /* Bad arguments. */
    g_assert_null(tk_timeline_build(NULL, 0, NULL, NULL, d));
    tk_timeline_part bad = {p, 7};
    g_assert_null(tk_timeline_build(&bad, 1, NULL, NULL, d));
    tk_passes_free(p);
    tk_diags_free(d);
    g_unlink(path);
    g_free(path);
}

/* ---- AMD: sample_dumps/amd_gfx942 ---------------------------------------- */

/* The entry of TL whose dump's header is at LINE of the pass file whose path
 * ends with FILE, or fails the test. */
static const tk_timeline_entry *entry_at(const tk_timeline *tl, const char *file,
                                         uint64_t line)
{
    for (size_t i = 0; i < tk_timeline_count(tl); i++) {
        const tk_timeline_entry *e = tk_timeline_get(tl, i);
        if (e->part != TK_TL_NONE && e->header_line == line &&
            g_str_has_suffix(tk_passes_path(tk_timeline_get_part(tl, e->part)->passes),
                             file))
            return e;
    }
    g_error("no pass at %s:%llu", file, (unsigned long long)line);
    return NULL;
}

static void test_amd(void)
{
    const char *samples = g_getenv("TK_TEST_SAMPLES");
    char *path = samples ? g_build_filename(samples, "amd_gfx942", NULL) : NULL;
    if (!path || !g_file_test(path, G_FILE_TEST_IS_DIR)) {
        g_test_skip("sample_dumps/amd_gfx942 not found (TK_TEST_SAMPLES)");
        g_free(path);
        return;
    }
    tk_diags *d = tk_diags_new();
    tk_bundle *b = tk_bundle_load(path, NULL, d);
    g_assert_nonnull(b);
    const tk_kernel *k = tk_bundle_find_kernel(b, "add_sum_kernel", NULL);
    g_assert_nonnull(k);
    tk_timeline *tl = tk_timeline_of_kernel(b, k, NULL, d);
    g_assert_nonnull(tl);
    /* LLVM's AMD dumps read without a warning: the legacy CGSCC printer's
     * header joined to the body's first comment, and its "Printing <null>
     * Function" banners. */
    g_assert_cmpuint(tk_test_print_diags(d), ==, 0);
    /* The manifest lists 61 MLIR dumps; llvm.txt.gz holds 126 "; *** IR
     * Dump" (new pass manager), 79 "*** IR Dump" (legacy) and 99 "# *** IR
     * Dump" (machine code) headers: 61 + 304 passes. */
    g_assert_cmpuint(tk_timeline_count(tl), ==, 61 + 304);

    /* mlir.txt.gz:1613 "IR Dump Before TritonAMDGPUAccelerateMatmul", a
     * TTGIR pass of the AMD backend; 3814 "... ConvertTritonAMDGPUToLLVM",
     * whose next dump (3885) holds llvm.func. */
    const tk_timeline_entry *e = entry_at(tl, "mlir.txt.gz", 1613);
    g_assert_cmpstr(e->pass, ==, "TritonAMDGPUAccelerateMatmul");
    g_assert_cmpint(e->level, ==, TK_PASS_LEVEL_TTGIR);
    e = entry_at(tl, "mlir.txt.gz", 3814);
    g_assert_cmpstr(e->pass, ==, "ConvertTritonAMDGPUToLLVM");
    g_assert_cmpint(e->level, ==, TK_PASS_LEVEL_TTGIR);
    g_assert_cmpint(e->effect, ==, TK_EFFECT_CHANGED);
    g_assert_cmpint(entry_at(tl, "mlir.txt.gz", 3885)->level, ==,
                    TK_PASS_LEVEL_LLVM_MLIR);

    /* llvm.txt.gz:37597 "*** IR Dump After DummyCGSCCPass (DummyCGSCCPass)
     * ***; Function Attrs: alwaysinline mustprogress ...", then "define
     * amdgpu_kernel void @add_sum_kernel(" on 37598. */
    e = entry_at(tl, "llvm.txt.gz", 37597);
    g_assert_cmpint(e->kind, ==, TK_PASS_LLVM_LEGACY);
    g_assert_cmpstr(e->pass, ==, "DummyCGSCCPass");
    g_assert_cmpstr(e->arg, ==, "DummyCGSCCPass");
    g_assert_cmpstr(e->scope_name, ==, "add_sum_kernel");
    g_assert_cmpint(e->level, ==, TK_PASS_LEVEL_CODEGEN);
    g_assert_false(e->flags & TK_TL_DAMAGED);
    /* 74472 and 74475: the header, then "Printing <null> Function". */
    for (int i = 0; i < 2; i++) {
        e = entry_at(tl, "llvm.txt.gz", i ? 74475 : 74472);
        g_assert_cmpint(e->status, ==, TK_PASS_NO_FUNCTION);
        g_assert_cmpint(e->effect, ==, TK_EFFECT_UNCHANGED);
    }
    /* 42795: "# *** IR Dump After AMDGPU DAG->DAG Pattern Instruction
     * Selection (amdgpu-isel) ***:", the first of the 99 machine passes. */
    e = entry_at(tl, "llvm.txt.gz", 42795);
    g_assert_cmpstr(e->pass, ==, "AMDGPU DAG->DAG Pattern Instruction Selection");
    g_assert_cmpstr(e->arg, ==, "amdgpu-isel");
    g_assert_cmpint(e->level, ==, TK_PASS_LEVEL_MACHINE);
    size_t machine = 0;
    for (size_t i = 0; i < tk_timeline_count(tl); i++)
        machine += tk_timeline_get(tl, i)->kind == TK_PASS_LLVM_MACHINE;
    g_assert_cmpuint(machine, ==, 99);
    tk_timeline_free(tl);
    tk_bundle_free(b);
    tk_diags_free(d);
    g_free(path);
}

/* ---- dump bodies kept in memory (timeline/lines.c) ----------------------- */

typedef struct {
    GArray *recs;   /* tl_line */
    GString *text;  /* each line's bytes, "\n" after each */
} streamed;

static int keep_line(void *user, const tl_line *rec, const char *text)
{
    streamed *s = user;
    g_array_append_val(s->recs, *rec);
    g_string_append_len(s->text, text, rec->len);
    g_string_append_c(s->text, '\n');
    return 0;
}

static void stream_dump(const tl_srcs *srcs, const tk_pass_dump *d, char **buf, size_t *cap,
                        streamed *out)
{
    out->recs = g_array_new(FALSE, FALSE, sizeof(tl_line));
    out->text = g_string_new(NULL);
    g_assert_cmpint(tl_stream_range(srcs, 0, d->body_offset, d->body_len, buf, cap, keep_line,
                                    out, NULL),
                    ==, 0);
}

static void assert_same_stream(const streamed *a, const streamed *b)
{
    g_assert_cmpuint(a->recs->len, ==, b->recs->len);
    g_assert_true(memcmp(a->recs->data, b->recs->data, a->recs->len * sizeof(tl_line)) == 0);
    g_assert_cmpstr(a->text->str, ==, b->text->str);
}

static void streamed_free(streamed *s)
{
    g_array_free(s->recs, TRUE);
    g_string_free(s->text, TRUE);
}

/* A body read whole and kept gives the records and bytes the bounded
 * stream gives, the second time from memory; a line read back from it is
 * its bytes, and stays valid after the body is dropped to make room.  The
 * file: vector_add's stderr.txt with CRLF line ends and no "\n" at its
 * end (a Windows editor's copy), so the kept path strips "\r" and counts
 * a last line without its end as the stream does. */
static void test_kept_bodies(void)
{
    if (!tk_test_have_dumps())
        return;
    char *src = tk_test_dump_path("vector_add/stderr.txt"), *data;
    gsize len;
    g_assert_true(g_file_get_contents(src, &data, &len, NULL));
    GString *crlf = g_string_sized_new(len + len / 16);
    for (gsize i = 0; i < len; i++) {
        if (data[i] == '\n')
            g_string_append_c(crlf, '\r');
        g_string_append_c(crlf, data[i]);
    }
    while (crlf->len && (crlf->str[crlf->len - 1] == '\n' || crlf->str[crlf->len - 1] == '\r'))
        g_string_truncate(crlf, crlf->len - 1);
    char *path = tk_test_tmp_path("kept-bodies.txt");
    g_assert_true(g_file_set_contents(path, crlf->str, (gssize)crlf->len, NULL));
    tk_diags *d = tk_diags_new();
    tk_passes *p = tk_passes_index(path, d);
    g_assert_nonnull(p);
    g_assert_cmpuint(tk_passes_count(p), >, 2);
    tk_timeline_part part = {p, 0};
    tl_srcs plain = {.parts = &part, .n_parts = 1};
    tl_srcs kept = plain;
    kept.res = tl_resident_new();
    char *buf = NULL;
    size_t cap = 0;
    const tk_pass_dump *last = tk_passes_get(p, tk_passes_count(p) - 1);
    g_assert_cmpuint(last->body_offset + last->body_len, ==, crlf->len); /* no "\n" */
    for (size_t i = 0; i < tk_passes_count(p); i++) {
        const tk_pass_dump *x = tk_passes_get(p, i);
        if (x->body_len == 0)
            continue;
        streamed a, b, c;
        stream_dump(&plain, x, &buf, &cap, &a);
        stream_dump(&kept, x, &buf, &cap, &b); /* read whole, kept */
        stream_dump(&kept, x, &buf, &cap, &c); /* from memory */
        assert_same_stream(&a, &b);
        assert_same_stream(&a, &c);
        /* each line read back is its bytes, without the "\r" */
        tl_reader r = {0};
        const char *t = a.text->str;
        for (guint k = 0; k < a.recs->len; k++) {
            const tl_line *rec = &g_array_index(a.recs, tl_line, k);
            size_t n;
            const char *got = tl_reader_line(&r, &kept, rec, 0, &n, NULL);
            g_assert_nonnull(got);
            g_assert_cmpuint(n, ==, rec->len);
            g_assert_true(memcmp(got, t, n) == 0);
            t += n + 1;
        }
        /* the reader holds the body it read from: dropping every body
         * (the cache made anew) leaves the last line readable */
        size_t n;
        const tl_line *lastrec = &g_array_index(a.recs, tl_line, a.recs->len - 1);
        const char *got = tl_reader_line(&r, &kept, lastrec, 0, &n, NULL);
        tl_resident_free(kept.res);
        kept.res = tl_resident_new();
        g_assert_true(memcmp(got, t - lastrec->len - 1, n) == 0);
        tl_reader_clear(&r);
        streamed_free(&a);
        streamed_free(&b);
        streamed_free(&c);
    }
    g_free(buf);
    tl_resident_free(kept.res);
    tk_passes_free(p);
    tk_diags_free(d);
    g_unlink(path);
    g_free(path);
    g_string_free(crlf, TRUE);
    g_free(data);
    g_free(src);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/timeline/vector-add", test_vector_add_timeline);
    g_test_add_func("/timeline/substep-hosts", test_substep_hosts);
    g_test_add_func("/timeline/final-stage", test_final_stage);
    g_test_add_func("/timeline/compiled-block", test_compiled_block);
    g_test_add_func("/timeline/autotuned", test_autotuned);
    g_test_add_func("/timeline/diffs", test_diffs);
    g_test_add_func("/timeline/changes", test_changes);
    g_test_add_func("/timeline/build-paths-agree", test_build_paths_agree);
    g_test_add_func("/timeline/stage-diff-configs", test_stage_diff_configs);
    g_test_add_func("/timeline/history", test_history);
    g_test_add_func("/timeline/memory", test_memory);
    g_test_add_func("/timeline/bad-input", test_bad_input);
    g_test_add_func("/timeline/amd", test_amd);
    g_test_add_func("/timeline/kept-bodies", test_kept_bodies);
    return g_test_run();
}
