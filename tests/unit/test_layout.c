/* test_layout.c - Triton layout attributes read into numbers (tk_layouts.h).
 *
 * Every expectation is worked out by hand from the layout text quoted next to
 * it, on the real captures' TTGIR; the arithmetic is spelled out in the
 * comments (tile = sizePerThread x threadsPerWarp x warpsPerCTA per dim).
 */
#include <string.h>

#include "tk_test.h"
#include "tkdump/tk_layouts.h"

typedef struct {
    tk_loctab *tab;
    tk_diags *diags;
    tk_stage *stage;
    tk_layouts *lay;
} fixture;

static gboolean open_ttgir(fixture *f, const char *capture)
{
    if (!tk_test_have_dumps())
        return FALSE;
    char *dir = g_strdup_printf("%s/kernel_dump", capture);
    char *path = tk_test_find_dump(dir, ".ttgir");
    f->tab = tk_loctab_new();
    f->diags = tk_diags_new();
    f->stage = tk_test_read_stage(TK_STAGE_TTGIR, path, f->tab, f->diags);
    f->lay = tk_layouts_from_stage(f->stage);
    g_free(dir);
    g_free(path);
    return TRUE;
}

static void close_ttgir(fixture *f)
{
    tk_layouts_free(f->lay);
    tk_stage_free(f->stage);
    tk_diags_free(f->diags);
    tk_loctab_free(f->tab);
}

/* The uses on the line containing NEEDLE; returns their number. */
static size_t uses_on(fixture *f, const char *needle, tk_layout_use *u, size_t cap)
{
    uint32_t ln = tk_test_line_with(f->stage, needle, 1);
    size_t len;
    const char *s = tk_stage_line(f->stage, ln, &len);
    return tk_layouts_line_uses(f->lay, s, len, u, cap);
}

static void check_u32(const uint32_t *got, const uint32_t *want, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        g_assert_cmpuint(got[i], ==, want[i]);
}

static void test_vector_add_blocked(void)
{
    fixture f;
    if (!open_ttgir(&f, "vector_add"))
        return;
    /* 1: #blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32],
     *                warpsPerCTA = [4], order = [0]}>
     * 2: #blocked1 = #ttg.blocked<{sizePerThread = [1], ...[32], ...[4], ...}> */
    g_assert_cmpuint(tk_layouts_count(f.lay), ==, 2);
    int b = tk_layouts_find(f.lay, "blocked"), b1 = tk_layouts_find(f.lay, "blocked1");
    g_assert_cmpint(b, ==, 0);
    g_assert_cmpint(b1, ==, 1);
    const tk_layout *l = tk_layouts_get(f.lay, (size_t)b);
    g_assert_cmpint(l->kind, ==, TK_LAYOUT_BLOCKED);
    g_assert_cmpstr(l->name, ==, "ttg.blocked");
    g_assert_cmpuint(l->line, ==, 1);
    g_assert_cmpuint(l->rank, ==, 1);
    g_assert_cmpuint(l->size_per_thread[0], ==, 4);
    g_assert_cmpuint(l->threads_per_warp[0], ==, 32);
    g_assert_cmpuint(l->warps_per_cta[0], ==, 4);
    g_assert_cmpuint(l->order[0], ==, 0);
    g_assert_true(g_str_has_prefix(l->text, "#ttg.blocked<{sizePerThread = [4]"));
    g_assert_true(g_str_has_suffix(l->text, "order = [0]}>"));

    /* `%output = arith.addf %x_4, %y_6 : tensor<1024xf32, #blocked>`:
     * 4 x 32 x 4 = 512 per tile, 1024 / 512 = 2 repetitions, 2 x 4 = 8
     * elements per thread, 4 warps x 32 = 128 threads. */
    tk_layout_use u[4];
    g_assert_cmpuint(uses_on(&f, "%output = arith.addf", u, 4), ==, 1);
    g_assert_cmpint(u[0].layout, ==, b);
    g_assert_cmpuint(u[0].rank, ==, 1);
    g_assert_cmpuint(u[0].shape[0], ==, 1024);
    g_assert_cmpstr(u[0].elem, ==, "f32");
    g_assert_cmpuint(u[0].elem_bits, ==, 32);
    g_assert_false(u[0].memdesc);
    uint32_t ln = tk_test_line_with(f.stage, "%output = arith.addf", 1);
    size_t len;
    const char *s = tk_stage_line(f.stage, ln, &len);
    g_assert_cmpint(strncmp(s + u[0].start, "#blocked>", 9), ==, 0);
    g_assert_cmpuint(u[0].end - u[0].start, ==, strlen("#blocked"));
    tk_layout_cover c;
    tk_layouts_cover(f.lay, b, u[0].shape, 1, &c);
    g_assert_true(c.known);
    g_assert_cmpuint(c.tile[0], ==, 512);
    g_assert_cmpuint(c.reps[0], ==, 2);
    g_assert_cmpuint(c.per_thread[0], ==, 8);
    g_assert_cmpuint(c.elems_per_thread, ==, 8);
    g_assert_cmpuint(c.tile_elems, ==, 512);
    g_assert_cmpuint(c.tensor_elems, ==, 1024);
    g_assert_cmpuint(c.threads, ==, 128);
    g_assert_cmpuint(c.duplication, ==, 1);

    /* `%s = tt.reshape %output allow_reorder : tensor<1024xf32, #blocked> ->
     * tensor<1024xf32, #blocked1>`: two uses; #blocked1 tiles 1 x 32 x 4 =
     * 128, 1024 / 128 = 8 repetitions, 8 elements per thread. */
    g_assert_cmpuint(uses_on(&f, "%s = tt.reshape", u, 4), ==, 2);
    g_assert_cmpint(u[0].layout, ==, b);
    g_assert_cmpint(u[1].layout, ==, b1);
    tk_layouts_cover(f.lay, b1, u[1].shape, 1, &c);
    g_assert_cmpuint(c.tile[0], ==, 128);
    g_assert_cmpuint(c.reps[0], ==, 8);
    g_assert_cmpuint(c.elems_per_thread, ==, 8);

    /* `%x = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>` */
    g_assert_cmpuint(uses_on(&f, "%x = tt.splat", u, 4), ==, 1);
    g_assert_cmpstr(u[0].elem, ==, "ptr");
    g_assert_cmpuint(u[0].elem_bits, ==, 64);
    g_assert_cmpint(u[0].layout, ==, b);

    /* A tensor smaller than the tile: 128 elements on the 512 tile are held
     * 4 times over; each thread still holds its 4. */
    uint64_t small = 128;
    tk_layouts_cover(f.lay, b, &small, 1, &c);
    g_assert_cmpuint(c.reps[0], ==, 1);
    g_assert_cmpuint(c.elems_per_thread, ==, 4);
    g_assert_cmpuint(c.duplication, ==, 4);
    /* Rank mismatch: not explained rather than wrong. */
    uint64_t two[2] = {32, 32};
    tk_layouts_cover(f.lay, b, two, 2, &c);
    g_assert_false(c.known);
    close_ttgir(&f);
}

static void test_matmul(void)
{
    fixture f;
    if (!open_ttgir(&f, "matmul"))
        return;
    /* 1: #blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16],
     *                warpsPerCTA = [8, 1], order = [1, 0]}>
     * 2: #blocked1 = ...[1, 8], [4, 8], [8, 1], [1, 0]
     * 4: #mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0,
     *            warpsPerCTA = [8, 1], instrShape = [16, 128, 16]}>
     * 5: #shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128,
     *               transposed = false, elementBitWidth = 16}>
     * 6: #smem = #ttg.shared_memory */
    int b = tk_layouts_find(f.lay, "blocked"), b1 = tk_layouts_find(f.lay, "blocked1");
    int mma = tk_layouts_find(f.lay, "mma"), sh = tk_layouts_find(f.lay, "shared");
    int smem = tk_layouts_find(f.lay, "smem");
    g_assert_cmpint(b, >=, 0);
    g_assert_cmpint(b1, >=, 0);
    g_assert_cmpint(mma, >=, 0);
    g_assert_cmpint(sh, >=, 0);
    g_assert_cmpint(smem, >=, 0);
    const tk_layout *l = tk_layouts_get(f.lay, (size_t)b1);
    g_assert_cmpuint(l->rank, ==, 2);
    check_u32(l->size_per_thread, (const uint32_t[]){1, 8}, 2);
    check_u32(l->threads_per_warp, (const uint32_t[]){4, 8}, 2);
    check_u32(l->warps_per_cta, (const uint32_t[]){8, 1}, 2);
    check_u32(l->order, (const uint32_t[]){1, 0}, 2);
    l = tk_layouts_get(f.lay, (size_t)mma);
    g_assert_cmpint(l->kind, ==, TK_LAYOUT_MMA);
    g_assert_cmpint(l->version_major, ==, 3);
    g_assert_cmpint(l->version_minor, ==, 0);
    g_assert_cmpuint(l->rank, ==, 2);
    check_u32(l->warps_per_cta, (const uint32_t[]){8, 1}, 2);
    g_assert_cmpuint(l->n_instr, ==, 3);
    check_u32(l->instr_shape, (const uint32_t[]){16, 128, 16}, 3);
    l = tk_layouts_get(f.lay, (size_t)sh);
    g_assert_cmpint(l->kind, ==, TK_LAYOUT_SHARED);
    g_assert_cmpint(l->swizzle_bytes, ==, 128);
    g_assert_cmpint(l->transposed, ==, 0);
    g_assert_cmpint(l->element_bits, ==, 16);
    g_assert_cmpint(tk_layouts_get(f.lay, (size_t)smem)->kind, ==, TK_LAYOUT_MEMORY_SPACE);

    /* 18: `%cst = arith.constant dense<0.00999999977> : tensor<128x128xf32, #mma>`:
     * tile (16 x 8 warps) x (128 x 1) = 128 x 128, one repetition; 8 warps =
     * 256 threads; 128 x 128 / 256 = 64 accumulators per thread. */
    tk_layout_use u[8];
    g_assert_cmpuint(uses_on(&f, "%cst = arith.constant dense<0.00999999977>", u, 8), ==, 1);
    g_assert_cmpint(u[0].layout, ==, mma);
    tk_layout_cover c;
    tk_layouts_cover(f.lay, mma, u[0].shape, u[0].rank, &c);
    g_assert_true(c.known);
    g_assert_cmpuint(c.tile[0], ==, 128);
    g_assert_cmpuint(c.tile[1], ==, 128);
    g_assert_cmpuint(c.reps[0], ==, 1);
    g_assert_cmpuint(c.reps[1], ==, 1);
    g_assert_cmpuint(c.threads, ==, 256);
    g_assert_cmpuint(c.elems_per_thread, ==, 64);

    /* 49: `%offs_am_10 = tt.make_range ... : tensor<128xi32, #ttg.slice<{dim =
     * 1, parent = #blocked}>>`: #blocked without dim 1 is 1 x 2 x 8 = 16 per
     * tile, 128 / 16 = 8 repetitions, 8 elements per thread. */
    g_assert_cmpuint(uses_on(&f, "%offs_am_10 = tt.make_range", u, 8), ==, 1);
    l = tk_layouts_get(f.lay, (size_t)u[0].layout);
    g_assert_cmpint(l->kind, ==, TK_LAYOUT_SLICE);
    g_assert_cmpint(l->dim, ==, 1);
    g_assert_cmpint(l->parent, ==, b);
    g_assert_cmpuint(l->line, ==, 0);
    g_assert_cmpstr(l->alias, ==, "");
    g_assert_cmpstr(l->text, ==, "#ttg.slice<{dim = 1, parent = #blocked}>");
    tk_layouts_cover(f.lay, u[0].layout, u[0].shape, 1, &c);
    g_assert_cmpuint(c.tile[0], ==, 16);
    g_assert_cmpuint(c.reps[0], ==, 8);
    g_assert_cmpuint(c.elems_per_thread, ==, 8);
    g_assert_cmpuint(c.threads, ==, 256);
    /* the same inline text is one layout */
    int slice = u[0].layout;
    g_assert_cmpuint(uses_on(&f, "%offs_am_15 = arith.addi", u, 8), ==, 1);
    g_assert_cmpint(u[0].layout, ==, slice);

    /* 125: the scf.for result list has tensor<128x128xf32, #mma>,
     * tensor<128x64x!tt.ptr<f16>, #blocked1>, tensor<64x128x!tt.ptr<f16>,
     * #blocked>.  #blocked1 on 128 x 64: tile (1x4x8) x (8x8x1) = 32 x 64, 4
     * x 1 repetitions, 4 x 8 = 32 elements per thread. */
    size_t n = uses_on(&f, "%accumulator_78:9 = scf.for", u, 8);
    g_assert_cmpuint(n, ==, 3);
    g_assert_cmpint(u[1].layout, ==, b1);
    g_assert_cmpuint(u[1].shape[0], ==, 128);
    g_assert_cmpuint(u[1].shape[1], ==, 64);
    tk_layouts_cover(f.lay, b1, u[1].shape, 2, &c);
    g_assert_cmpuint(c.tile[0], ==, 32);
    g_assert_cmpuint(c.tile[1], ==, 64);
    g_assert_cmpuint(c.reps[0], ==, 4);
    g_assert_cmpuint(c.reps[1], ==, 1);
    g_assert_cmpuint(c.per_thread[0], ==, 4);
    g_assert_cmpuint(c.per_thread[1], ==, 8);
    g_assert_cmpuint(c.elems_per_thread, ==, 32);
    /* #blocked on 64 x 128: tile (1x2x8) x (8x16x1) = 16 x 128; 4 x 1 reps. */
    g_assert_cmpint(u[2].layout, ==, b);
    tk_layouts_cover(f.lay, b, u[2].shape, 2, &c);
    g_assert_cmpuint(c.tile[0], ==, 16);
    g_assert_cmpuint(c.tile[1], ==, 128);
    g_assert_cmpuint(c.elems_per_thread, ==, 32);

    /* 86: `%a = ttg.local_alloc : () -> !ttg.memdesc<3x128x64xf16, #shared,
     * #smem, mutable>`: a memory descriptor; shared layouts say nothing about
     * threads. */
    g_assert_cmpuint(uses_on(&f, "%a = ttg.local_alloc", u, 8), ==, 1);
    g_assert_true(u[0].memdesc);
    g_assert_cmpuint(u[0].rank, ==, 3);
    g_assert_cmpuint(u[0].shape[0], ==, 3);
    g_assert_cmpuint(u[0].shape[2], ==, 64);
    g_assert_cmpstr(u[0].elem, ==, "f16");
    g_assert_cmpuint(u[0].elem_bits, ==, 16);
    g_assert_cmpint(u[0].layout, ==, sh);
    tk_layouts_cover(f.lay, sh, u[0].shape, 3, &c);
    g_assert_false(c.known);
    close_ttgir(&f);
}

static void test_softmax_and_persistent_shared(void)
{
    fixture f;
    if (!open_ttgir(&f, "softmax"))
        return;
    /* 6: #shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1,
     *               order = [0]}> */
    const tk_layout *l = tk_layouts_get(f.lay, (size_t)tk_layouts_find(f.lay, "shared"));
    g_assert_nonnull(l);
    g_assert_cmpint(l->kind, ==, TK_LAYOUT_SHARED);
    g_assert_cmpstr(l->name, ==, "ttg.swizzled_shared");
    g_assert_cmpint(l->vec, ==, 1);
    g_assert_cmpint(l->per_phase, ==, 1);
    g_assert_cmpint(l->max_phase, ==, 1);
    g_assert_cmpuint(l->rank, ==, 1);
    g_assert_cmpuint(l->line, ==, 6);
    close_ttgir(&f);

    if (!open_ttgir(&f, "persistent_tma_matmul"))
        return;
    /* 6: #shared2 = #ttg.nvmma_shared<{swizzlingByteWidth = 128,
     *                transposed = true, elementBitWidth = 16}> */
    l = tk_layouts_get(f.lay, (size_t)tk_layouts_find(f.lay, "shared2"));
    g_assert_nonnull(l);
    g_assert_cmpint(l->transposed, ==, 1);
    g_assert_cmpuint(l->line, ==, 6);
    /* 3: #mma warpsPerCTA = [4, 1], instrShape = [16, 128, 16]: tile 64 x 128,
     * 128 threads; on 128 x 128, 2 x 1 repetitions, 128 elements per thread. */
    int mma = tk_layouts_find(f.lay, "mma");
    uint64_t shape[2] = {128, 128};
    tk_layout_cover c;
    tk_layouts_cover(f.lay, mma, shape, 2, &c);
    g_assert_cmpuint(c.tile[0], ==, 64);
    g_assert_cmpuint(c.tile[1], ==, 128);
    g_assert_cmpuint(c.reps[0], ==, 2);
    g_assert_cmpuint(c.threads, ==, 128);
    g_assert_cmpuint(c.elems_per_thread, ==, 128);
    close_ttgir(&f);
}

/* Forms no capture here has, written as Triton prints them. */
static void test_written_forms(void)
{
    tk_layouts *t = tk_layouts_new();
    const char *lin = "#linear = #ttg.linear<{register = [[0, 1], [0, 2], [8, 0]], "
                      "lane = [[0, 4], [0, 8], [0, 16], [1, 0], [2, 0]], warp = "
                      "[[4, 0], [16, 0]], block = []}>";
    int i = tk_layouts_add_definition(t, lin, strlen(lin), 3);
    g_assert_cmpint(i, ==, 0);
    const tk_layout *l = tk_layouts_get(t, 0);
    g_assert_cmpint(l->kind, ==, TK_LAYOUT_LINEAR);
    g_assert_cmpuint(l->n_register, ==, 3);
    g_assert_cmpuint(l->n_lane, ==, 5);
    g_assert_cmpuint(l->n_warp, ==, 2);
    g_assert_cmpuint(l->n_block, ==, 0);
    /* 2^3 = 8 per thread, 2^(5+2) = 128 threads, 1024 per tile; 32 x 32. */
    uint64_t shape[2] = {32, 32};
    tk_layout_cover c;
    tk_layouts_cover(t, 0, shape, 2, &c);
    g_assert_true(c.known);
    g_assert_cmpuint(c.elems_per_thread, ==, 8);
    g_assert_cmpuint(c.threads, ==, 128);
    g_assert_cmpuint(c.tile_elems, ==, 1024);
    g_assert_cmpuint(c.duplication, ==, 1);

    /* dot operand with a kWidth, older dialect name, alias of an alias,
     * location aliases, cut text: kept or refused, never a crash. */
    const char *dot = "#dot = #triton_gpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>";
    const char *mma = "#mma = #triton_gpu.nvidia_mma<{versionMajor = 2, versionMinor = 0, "
                      "warpsPerCTA = [2, 2], instrShape = [16, 8]}>";
    g_assert_cmpint(tk_layouts_add_definition(t, mma, strlen(mma), 1), ==, 1);
    g_assert_cmpint(tk_layouts_add_definition(t, dot, strlen(dot), 2), ==, 2);
    l = tk_layouts_get(t, 2);
    g_assert_cmpint(l->kind, ==, TK_LAYOUT_DOT_OPERAND);
    g_assert_cmpint(l->op_idx, ==, 1);
    g_assert_cmpint(l->k_width, ==, 2);
    g_assert_cmpint(l->parent, ==, 1);
    /* Ampere mma: tile (16 x 2) x (8 x 2) = 32 x 16, 4 warps = 128 threads,
     * 512 / 128 = 4 accumulators each. */
    uint64_t s2[2] = {32, 16};
    tk_layouts_cover(t, 1, s2, 2, &c);
    g_assert_cmpuint(c.tile[0], ==, 32);
    g_assert_cmpuint(c.tile[1], ==, 16);
    g_assert_cmpuint(c.elems_per_thread, ==, 4);
    tk_layouts_cover(t, 2, s2, 2, &c);
    g_assert_false(c.known);

    const char *refuse[] = {"#loc3 = loc(\"a.py\":1:2)", "#a = #b", "# = #ttg.x<>",
                            "#x", "", "#blocked = #ttg.blocked<{sizePerThread = [4"};
    for (size_t k = 0; k < G_N_ELEMENTS(refuse); k++) {
        int r = tk_layouts_add_definition(t, refuse[k], strlen(refuse[k]), 9);
        if (k < 5)
            g_assert_cmpint(r, ==, -1);
        else /* cut: kept with what was read */
            g_assert_cmpint(r, >=, 0);
    }
    const char *cut = "%0 = tt.splat %x : i32 -> tensor<1024xi32, #ttg.slice<{dim = 0";
    tk_layout_use u[2];
    g_assert_cmpuint(tk_layouts_line_uses(t, cut, strlen(cut), u, 2), ==, 0);
    const char *huge = "%0 = x : tensor<99999999999999999999999999x4xf32, #blocked>";
    tk_layouts_line_uses(t, huge, strlen(huge), u, 2);
    tk_layouts_free(t);
}

/* A line is LEN bytes, not a C string: its uses read no byte past it.
 * The element type was copied with g_strlcpy, which measures its source
 * to the NUL: the rest of a stage's text for every use (what made the
 * report's pass layouts slow), and past the end of a line held alone
 * (AddressSanitizer: heap-buffer-overflow).  The line is add_kernel.ttgir:28
 * of vector_add: "%output = arith.addf %x_4, %y_6 : tensor<1024xf32,
 * #blocked> loc(#loc32)". */
static void test_line_not_terminated(void)
{
    tk_layouts *lay = tk_layouts_new();
    const char *def = "#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], "
                      "warpsPerCTA = [4], order = [0]}>";
    g_assert_cmpint(tk_layouts_add_definition(lay, def, strlen(def), 1), ==, 0);
    const char *text = "    %output = arith.addf %x_4, %y_6 : tensor<1024xf32, #blocked> loc(#loc32)";
    size_t len = strlen(text);
    char *line = g_malloc(len); /* exactly the line: no NUL after it */
    memcpy(line, text, len);
    tk_layout_use u[4];
    g_assert_cmpuint(tk_layouts_line_uses(lay, line, len, u, 4), ==, 1);
    g_assert_cmpstr(u[0].elem, ==, "f32");
    g_assert_cmpint(u[0].layout, ==, 0);
    g_assert_cmpuint(u[0].shape[0], ==, 1024);
    /* an element type longer than the field is cut, terminated */
    const char *wide = "    %a = tt.splat %b : i32 -> tensor<4x!tt.tensordesc_of_a_long_name, #blocked>";
    size_t wl = strlen(wide);
    char *w = g_malloc(wl);
    memcpy(w, wide, wl);
    g_assert_cmpuint(tk_layouts_line_uses(lay, w, wl, u, 4), ==, 1);
    g_assert_cmpstr(u[0].elem, ==, "!tt.tensordesc_"); /* 15 bytes and a NUL */
    g_free(w);
    g_free(line);
    tk_layouts_free(lay);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/layout/vector_add/blocked", test_vector_add_blocked);
    g_test_add_func("/layout/matmul", test_matmul);
    g_test_add_func("/layout/shared", test_softmax_and_persistent_shared);
    g_test_add_func("/layout/written-forms", test_written_forms);
    g_test_add_func("/layout/line-not-terminated", test_line_not_terminated);
    return g_test_run();
}
