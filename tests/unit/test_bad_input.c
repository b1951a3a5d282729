/* test_bad_input.c - damaged, hostile and odd input for every reader.
 *
 * The corpus in tests/bad_input/ is made of real dump files (vector_add's
 * add_kernel.ttgir, .llir, .ptx, .sass_gi and .cubin) cut or edited by hand;
 * tests/bad_input/README.md says what was done to each.  Large inputs (50 MB
 * lines) and CRLF copies are made here at run time.
 *
 * For every stage kind the contract is the same (tk_stage.h, readers.h):
 * a stage comes back (NULL with an error only for a file that cannot be read
 * or is binary), each unreadable location is a warning naming the file and
 * the 1-based line at fault, the readable lines keep their stacks, and the
 * time is linear: nothing here may hang.  The time of each read is printed,
 * never asserted (a timing in a test fails on a busy machine, issue 25): a
 * quadratic or exponential reader runs past meson's timeout instead.
 */
#include <glib/gstdio.h>
#include <string.h>

#include "tk_test.h"

#define HUGE_LINE_BYTES ((size_t)50 * 1024 * 1024)

#define VA_PY "vector_add.py"
#define VA_L1 "vect\xf6r_add.py" /* "vector_add.py" with o as Latin-1 0xf6 */

static const tk_stage_kind all_kinds[] = {TK_STAGE_TTGIR, TK_STAGE_LLIR,
                                          TK_STAGE_PTX, TK_STAGE_SASS};

typedef struct {
    tk_loctab *tab;
    tk_diags *diags;
    tk_stage *stage;
    char *name; /* as diagnostics must name it */
} run;

static void run_clear(run *r)
{
    tk_stage_free(r->stage);
    tk_diags_free(r->diags);
    tk_loctab_free(r->tab);
    g_free(r->name);
    memset(r, 0, sizeof *r);
}

/* What every result must satisfy whatever the input: diagnostics name the
 * file and a line that exists (or 0), readers only warn, and no frame holds
 * a number clamped from an overflow. */
static void check_invariants(const run *r)
{
    uint32_t n = tk_stage_line_count(r->stage);
    for (size_t i = 0; i < tk_diags_count(r->diags); i++) {
        const tk_diag *d = tk_diags_get(r->diags, i);
        g_assert_cmpstr(d->file, ==, r->name);
        if (d->line > n)
            g_error("%s: diagnostic names line %llu of %u: %s", r->name,
                    (unsigned long long)d->line, n, d->message);
        if (d->severity == TK_DIAG_ERROR)
            g_error("%s:%llu: a reader gave an error (only warnings): %s",
                    r->name, (unsigned long long)d->line, d->message);
    }
    for (uint32_t l = 1; l <= n; l++) {
        const tk_stack_id *ids;
        size_t k = tk_stage_line_stacks(r->stage, l, &ids);
        for (size_t i = 0; i < k; i++) {
            size_t nf;
            const tk_frame *f = tk_loctab_stack_frames(r->tab, ids[i], &nf);
            g_assert_cmpuint(nf, >=, 1);
            for (size_t j = 0; j < nf; j++)
                if (f[j].line == 0 || f[j].line == UINT32_MAX ||
                    f[j].col == UINT32_MAX)
                    g_error("%s:%u: frame %zu has line %u col %u", r->name, l,
                            j, f[j].line, f[j].col);
        }
    }
}

static void parse_timed(run *r, tk_stage_kind kind, const char *name,
                        const char *data, size_t len)
{
    r->tab = tk_loctab_new();
    r->diags = tk_diags_new();
    r->name = g_strdup(name);
    gint64 t0 = g_get_monotonic_time();
    r->stage = tk_stage_parse(kind, name, data, len, r->tab, r->diags);
    gint64 dt = g_get_monotonic_time() - t0;
    g_assert_nonnull(r->stage);
    g_test_message("%s as %s: %.0f ms", name, tk_stage_kind_name(kind), dt / 1000.0);
    check_invariants(r);
}

static void read_corpus(run *r, tk_stage_kind kind, const char *file)
{
    char *rel = g_build_filename("bad_input", file, NULL);
    r->name = tk_test_src_path(rel);
    g_free(rel);
    r->tab = tk_loctab_new();
    r->diags = tk_diags_new();
    gint64 t0 = g_get_monotonic_time();
    r->stage = tk_stage_read(kind, r->name, r->tab, r->diags);
    gint64 dt = g_get_monotonic_time() - t0;
    if (!r->stage) {
        tk_test_print_diags(r->diags);
        g_error("%s: no stage", r->name);
    }
    g_test_message("%s as %s: %.0f ms", r->name, tk_stage_kind_name(kind), dt / 1000.0);
    check_invariants(r);
}

static gboolean has_diag_at(const run *r, uint64_t line)
{
    for (size_t i = 0; i < tk_diags_count(r->diags); i++)
        if (tk_diags_get(r->diags, i)->line == line)
            return TRUE;
    return FALSE;
}

static void assert_diag_at(const run *r, uint64_t line)
{
    if (!has_diag_at(r, line)) {
        tk_test_print_diags(r->diags);
        g_error("%s: no diagnostic names line %llu", r->name,
                (unsigned long long)line);
    }
}

/* Every diagnostic names one of the N lines in LINES. */
static void assert_diags_within(const run *r, const uint32_t *lines, size_t n)
{
    for (size_t i = 0; i < tk_diags_count(r->diags); i++) {
        const tk_diag *d = tk_diags_get(r->diags, i);
        gboolean ok = FALSE;
        for (size_t j = 0; j < n && !ok; j++)
            ok = d->line == lines[j];
        if (!ok)
            g_error("%s:%llu: diagnostic on a line not at fault: %s", r->name,
                    (unsigned long long)d->line, d->message);
    }
}

static void assert_stacks(const run *r, uint32_t line, const char *expected)
{
    char *got = tk_test_line_stacks_string(r->stage, r->tab, line);
    if (g_strcmp0(got, expected) != 0) {
        tk_test_print_diags(r->diags);
        size_t len;
        const char *text = tk_stage_line(r->stage, line, &len);
        g_error("%s:%u (%.*s): stacks \"%s\", expected \"%s\"", r->name, line,
                (int)MIN(len, 80), text ? text : "", got, expected);
    }
    g_free(got);
}

/* The real vector_add file for KIND, read whole.  Caller frees. */
static char *real_text(tk_stage_kind kind, size_t *len)
{
    static const char *const suffix[] = {
        [TK_STAGE_TTGIR] = ".ttgir", [TK_STAGE_LLIR] = ".llir",
        [TK_STAGE_PTX] = ".ptx", [TK_STAGE_SASS] = ".sass_gi"};
    char *path = tk_test_find_dump("vector_add/kernel_dump", suffix[kind]);
    char *text;
    gsize n;
    g_assert_true(g_file_get_contents(path, &text, &n, NULL));
    g_free(path);
    *len = n;
    return text;
}

/* Whether lines 1..N of A and B carry the same stacks. */
static void assert_same_stacks(const run *a, const run *b, uint32_t n)
{
    for (uint32_t l = 1; l <= n; l++) {
        char *x = tk_test_line_stacks_string(a->stage, a->tab, l);
        char *y = tk_test_line_stacks_string(b->stage, b->tab, l);
        if (g_strcmp0(x, y) != 0)
            g_error("line %u: \"%s\" in %s but \"%s\" in %s", l, x, a->name,
                    y, b->name);
        g_free(x);
        g_free(y);
    }
}

/* ---- binary and empty input ---------------------------------------------- */

/* tk_stage_read refuses binary files (random bytes; the head of the real
 * add_kernel.cubin, an ELF file) with one error naming the path. */
static void test_binary_read_refused(void)
{
    static const char *const files[] = {"random.bin", "elf_head.cubin"};
    for (size_t k = 0; k < G_N_ELEMENTS(all_kinds); k++)
        for (size_t i = 0; i < G_N_ELEMENTS(files); i++) {
            char *rel = g_build_filename("bad_input", files[i], NULL);
            char *path = tk_test_src_path(rel);
            tk_loctab *tab = tk_loctab_new();
            tk_diags *d = tk_diags_new();
            g_assert_null(tk_stage_read(all_kinds[k], path, tab, d));
            g_assert_cmpuint(tk_diags_count(d), ==, 1);
            g_assert_cmpint(tk_diags_get(d, 0)->severity, ==, TK_DIAG_ERROR);
            g_assert_cmpstr(tk_diags_get(d, 0)->file, ==, path);
            g_assert_nonnull(strstr(tk_diags_get(d, 0)->message, "binary"));
            tk_diags_free(d);
            tk_loctab_free(tab);
            g_free(path);
            g_free(rel);
        }
}

/* The same bytes handed over in memory are copied as they are: every reader
 * must cope with NUL bytes and anything else. */
static void test_binary_parsed(void)
{
    static const char *const files[] = {"random.bin", "elf_head.cubin"};
    for (size_t k = 0; k < G_N_ELEMENTS(all_kinds); k++)
        for (size_t i = 0; i < G_N_ELEMENTS(files); i++) {
            char *rel = g_build_filename("bad_input", files[i], NULL);
            char *path = tk_test_src_path(rel);
            char *data;
            gsize len;
            g_assert_true(g_file_get_contents(path, &data, &len, NULL));
            run r = {0};
            parse_timed(&r, all_kinds[k], files[i], data, len);
            run_clear(&r);
            g_free(data);
            g_free(path);
            g_free(rel);
        }
}

/* Random bytes without a NUL are not "binary" to tk_stage_read: a stage. */
static void test_high_bytes_read(void)
{
    GRand *rnd = g_rand_new_with_seed(7);
    size_t len = 256 * 1024;
    char *data = g_malloc(len);
    for (size_t i = 0; i < len; i++) {
        data[i] = (char)g_rand_int_range(rnd, 1, 256);
    }
    g_rand_free(rnd);
    char *path = tk_test_tmp_path("bad-input-high.txt");
    g_assert_true(g_file_set_contents(path, data, (gssize)len, NULL));
    for (size_t k = 0; k < G_N_ELEMENTS(all_kinds); k++) {
        run r = {0};
        r.name = g_strdup(path);
        r.tab = tk_loctab_new();
        r.diags = tk_diags_new();
        r.stage = tk_stage_read(all_kinds[k], path, r.tab, r.diags);
        g_assert_nonnull(r.stage);
        g_assert_cmpuint(tk_stage_size(r.stage), ==, len);
        check_invariants(&r);
        run_clear(&r);
    }
    g_unlink(path);
    g_free(path);
    g_free(data);
}

static void test_empty(void)
{
    for (size_t k = 0; k < G_N_ELEMENTS(all_kinds); k++) {
        run r = {0};
        read_corpus(&r, all_kinds[k], "empty");
        g_assert_cmpuint(tk_stage_line_count(r.stage), ==, 0);
        g_assert_cmpuint(tk_stage_located_line_count(r.stage), ==, 0);
        g_assert_cmpuint(tk_diags_count(r.diags), ==, 0);
        run_clear(&r);
        parse_timed(&r, all_kinds[k], "empty-in-memory", "", 0);
        g_assert_cmpuint(tk_stage_line_count(r.stage), ==, 0);
        g_assert_cmpuint(tk_diags_count(r.diags), ==, 0);
        run_clear(&r);
    }
}

/* ---- files cut in the middle of a line ----------------------------------- */

/* cut_callsite.ttgir: add_kernel.ttgir cut inside line 70,
 * "#loc35 = loc(callsite(".  Lines 1-69 are whole:
 *   15:    %pid = tt.get_program_id x : i32 loc(#loc23)
 *          #loc23 = loc("pid"(#loc2)), #loc2 = loc(".../vector_add.py":8:24)
 *   24:    %x_4 = tt.load %x_3, %mask_2 : ... loc(#loc29)
 *          #loc29 = loc("x"(#loc8)), #loc8 = loc(".../vector_add.py":12:16)
 *   28:    %output = arith.addf %x_4, %y_6 : ... loc(#loc32)
 *          #loc32 = loc("output"(#loc11)), #loc11 = loc("...":14:17)
 *   39:    tt.store %1, %output_9, %mask_2 : ... loc(#loc17)
 *          #loc17 = loc(".../vector_add.py":18:35) */
static void test_cut_mlir(void)
{
    run r = {0};
    read_corpus(&r, TK_STAGE_TTGIR, "cut_callsite.ttgir");
    g_assert_cmpuint(tk_stage_line_count(r.stage), ==, 70);
    assert_diag_at(&r, 70);
    assert_stacks(&r, 15, VA_PY ":8:24");
    assert_stacks(&r, 24, VA_PY ":12:16");
    assert_stacks(&r, 28, VA_PY ":14:17");
    assert_stacks(&r, 39, VA_PY ":18:35");
    run_clear(&r);
}

/* cut_dilocation.llir: add_kernel.llir cut inside line 194,
 * "!20 = !DILocation(line: 29".  Whole lines:
 *   9:   %7 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !7
 *   51:  %49 = fadd float %28, %42, !dbg !16
 *   181: !7 = !DILocation(line: 8, column: 24, scope: !4)
 *   190: !16 = !DILocation(line: 14, column: 17, scope: !4)
 * with !4 a DISubprogram in !1 = !DIFile(filename: "vector_add.py", ...). */
static void test_cut_llvm(void)
{
    run r = {0};
    read_corpus(&r, TK_STAGE_LLIR, "cut_dilocation.llir");
    g_assert_cmpuint(tk_stage_line_count(r.stage), ==, 194);
    assert_diag_at(&r, 194);
    assert_stacks(&r, 9, VA_PY ":8:24");
    assert_stacks(&r, 51, VA_PY ":14:17");
    run_clear(&r);
}

/* cut_loc.ptx: add_kernel.ptx cut inside line 98, "\t.loc\t2 " (the file
 * index and nothing else).  The .file table sat at lines 199-200, so it is
 * gone too: no stacks can be expected, only the warning and no crash. */
static void test_cut_ptx(void)
{
    run r = {0};
    read_corpus(&r, TK_STAGE_PTX, "cut_loc.ptx");
    g_assert_cmpuint(tk_stage_line_count(r.stage), ==, 98);
    assert_diag_at(&r, 98);
    run_clear(&r);
}

/* cut_file.sass_gi: add_kernel.sass_gi cut inside line 64,
 * "\t//## File \"/opt/torch/.venv/lib/py".  Whole lines 50-52:
 *   	//## File "/tmp/capture/vector_add/src/vector_add.py", line 12
 *           /\*0130*\/                   CS2R R4, SRZ ;
 *           /\*0140*\/              @!P2 LDG.E.128 R16, desc[UR6][R20.64] ; */
static void test_cut_sass(void)
{
    run r = {0};
    read_corpus(&r, TK_STAGE_SASS, "cut_file.sass_gi");
    g_assert_cmpuint(tk_stage_line_count(r.stage), ==, 64);
    assert_diag_at(&r, 64);
    assert_stacks(&r, 52, VA_PY ":12:0");
    run_clear(&r);
}

/* ---- CRLF line ends ------------------------------------------------------ */

/* The real files with every "\n" made "\r\n" give the same stacks on every
 * line and the same number of diagnostics. */
static void test_crlf(gconstpointer data)
{
    tk_stage_kind kind = (tk_stage_kind)GPOINTER_TO_INT(data);
    if (!tk_test_have_dumps())
        return;
    size_t len;
    char *lf = real_text(kind, &len);
    GString *crlf = g_string_sized_new(len + len / 16);
    for (size_t i = 0; i < len; i++) {
        if (lf[i] == '\n')
            g_string_append_c(crlf, '\r');
        g_string_append_c(crlf, lf[i]);
    }
    run a = {0}, b = {0};
    parse_timed(&a, kind, "lf", lf, len);
    parse_timed(&b, kind, "crlf", crlf->str, crlf->len);
    g_assert_cmpuint(tk_stage_line_count(a.stage), ==,
                     tk_stage_line_count(b.stage));
    g_assert_cmpuint(tk_stage_located_line_count(a.stage), >, 0);
    g_assert_cmpuint(tk_stage_located_line_count(a.stage), ==,
                     tk_stage_located_line_count(b.stage));
    assert_same_stacks(&a, &b, tk_stage_line_count(a.stage));
    g_assert_cmpuint(tk_diags_count(a.diags), ==, tk_diags_count(b.diags));
    g_assert_cmpint(tk_stage_has_inline_frames(a.stage), ==,
                    tk_stage_has_inline_frames(b.stage));
    run_clear(&a);
    run_clear(&b);
    g_string_free(crlf, TRUE);
    g_free(lf);
}

/* ---- one 50 MB line ------------------------------------------------------ */

/* The real file for KIND with one more line: HEAD, then UNIT repeated up to
 * HUGE_LINE_BYTES, then TAIL.  Every earlier line must keep the stacks it has
 * in the real file, and the whole must read in linear time. */
static void huge_line_case(tk_stage_kind kind, const char *head,
                           const char *unit, const char *tail)
{
    size_t len;
    char *real = real_text(kind, &len);
    g_assert_true(len > 0 && real[len - 1] == '\n');
    GString *s = g_string_sized_new(len + HUGE_LINE_BYTES + 256);
    g_string_append_len(s, real, (gssize)len);
    g_string_append(s, head);
    /* UNIT, then the repeats so far copied after themselves: doubling. */
    size_t start = s->len, ul = strlen(unit);
    g_string_append_len(s, unit, (gssize)ul);
    while (s->len - start < HUGE_LINE_BYTES) {
        size_t have = s->len - start;
        size_t take = MIN(have, HUGE_LINE_BYTES - have);
        take -= take % ul;
        if (take == 0)
            break;
        g_string_append_len(s, s->str + start, (gssize)take);
    }
    g_assert_cmpuint(s->len - start, >, HUGE_LINE_BYTES - ul);
    g_string_append(s, tail);

    run clean = {0}, big = {0};
    parse_timed(&clean, kind, "real", real, len);
    char *name = g_strdup_printf("huge-%s-%.12s", tk_stage_kind_name(kind), unit);
    parse_timed(&big, kind, name, s->str, s->len);
    g_free(name);
    uint32_t n = tk_stage_line_count(clean.stage);
    g_assert_cmpuint(tk_stage_line_count(big.stage), ==, n + 1);
    assert_same_stacks(&clean, &big, n);
    run_clear(&clean);
    run_clear(&big);
    g_string_free(s, TRUE);
    g_free(real);
}

static void test_huge_line_mlir(void)
{
    if (!tk_test_have_dumps())
        return;
    /* 50 MB of "(": a recursive parser overflows its stack. */
    huge_line_case(TK_STAGE_TTGIR, "#loc99 = loc(", "(", "\n");
    /* A real callsite location (add_kernel.ttgir line 71) nested without
     * end. */
    huge_line_case(TK_STAGE_TTGIR, "#loc98 = loc(", "callsite(#loc14 at ", "\n");
    /* A real op line whose loc(...) is repeated: 50 MB of locations. */
    huge_line_case(TK_STAGE_TTGIR, "    %s_12 = arith.addf %s_10, %s_11 : f32 ",
                   "loc(callsite(#loc14 at #loc35)) ", "\n");
}

static void test_huge_line_llvm(void)
{
    if (!tk_test_have_dumps())
        return;
    /* A node id of 50 MB of digits. */
    huge_line_case(TK_STAGE_LLIR,
                   "!99 = !DILocation(line: 8, column: 24, scope: !4, inlinedAt: !",
                   "9", ")\n");
    /* An attachment list without end on an instruction. */
    huge_line_case(TK_STAGE_LLIR, "  %200 = fadd float %28, %42", ", !dbg !17", "\n");
    /* A DILocation with 50 MB of fields. */
    huge_line_case(TK_STAGE_LLIR, "!98 = !DILocation(", "line: 263, ", "\n");
}

static void test_huge_line_ptx(void)
{
    if (!tk_test_have_dumps())
        return;
    /* A .loc whose inline-chain comment never closes. */
    huge_line_case(TK_STAGE_PTX, "\t.loc\t2 263 15 // standard.py:263:15",
                   " @[ standard.py:293:36", "\n");
    /* A line number of 50 MB of digits. */
    huge_line_case(TK_STAGE_PTX, "\t.loc\t1 ", "7", " 24\n");
}

static void test_huge_line_sass(void)
{
    if (!tk_test_have_dumps())
        return;
    /* A file name without its closing quote. */
    huge_line_case(TK_STAGE_SASS, "\t//## File \"/tmp/", "capture/", "\n");
    /* A chain of two million "inlined at" frames. */
    huge_line_case(TK_STAGE_SASS, "\t//## File \"/k/a.py\", line 1",
                   " inlined at \"/k/a.py\", line 1", "\n");
}

/* ---- aliases, cycles and undefined references ---------------------------- */

/* alias_cycle.ttgir: add_kernel.ttgir with
 *   43: #loc2 = loc(#loc23)      and 59: #loc23 = loc("pid"(#loc2))
 *   44: #loc3 = loc(#loc24)      and 60: #loc24 = loc(#loc3)
 *   70: #loc35 = loc(callsite(#loc12 at #loc37))
 *                                and 71: #loc37 = loc(callsite(#loc14 at #loc35))
 * Lines 15 (loc(#loc23)) and 16 (loc(#loc24)) have no location left; the
 * callsite cycle touches 29, 32, 33 and 34 (#loc35, #loc37).  Lines 24, 28
 * and 39 are untouched (see test_cut_mlir). */
static void test_alias_cycle(void)
{
    run r = {0};
    read_corpus(&r, TK_STAGE_TTGIR, "alias_cycle.ttgir");
    g_assert_cmpuint(tk_diags_count(r.diags), >, 0);
    static const uint32_t at_fault[] = {15, 16, 29, 32, 33, 34, 43,
                                        44, 59, 60, 70, 71};
    assert_diags_within(&r, at_fault, G_N_ELEMENTS(at_fault));
    assert_stacks(&r, 15, "");
    assert_stacks(&r, 16, "");
    assert_stacks(&r, 24, VA_PY ":12:16");
    assert_stacks(&r, 28, VA_PY ":14:17");
    assert_stacks(&r, 39, VA_PY ":18:35");
    run_clear(&r);
}

/* undefined_alias.ttgir: add_kernel.ttgir without line 56
 * ("#loc16 = loc(...":18:26)"), used by lines 37 and 38, and with line 40
 * made "    tt.return loc(#loc77)" (#loc77 is defined nowhere). */
static void test_undefined_alias(void)
{
    run r = {0};
    read_corpus(&r, TK_STAGE_TTGIR, "undefined_alias.ttgir");
    assert_diag_at(&r, 40);
    g_assert_true(has_diag_at(&r, 37) || has_diag_at(&r, 38));
    static const uint32_t at_fault[] = {37, 38, 40};
    assert_diags_within(&r, at_fault, G_N_ELEMENTS(at_fault));
    assert_stacks(&r, 37, "");
    assert_stacks(&r, 38, "");
    assert_stacks(&r, 40, "");
    assert_stacks(&r, 39, VA_PY ":18:35");
    assert_stacks(&r, 28, VA_PY ":14:17");
    run_clear(&r);
}

/* inlinedat_cycle.llir: add_kernel.llir with line 194 made
 *   !20 = !DILocation(line: 293, column: 36, scope: !18, inlinedAt: !17)
 * while line 191 still reads
 *   !17 = !DILocation(line: 263, column: 15, scope: !18, inlinedAt: !20)
 * Other lines are untouched:
 *   9:   ..., !dbg !7     (!7 = line 8, column 24 in vector_add.py)
 *   138: %132 = getelementptr ..., !dbg !24   (!24 = line 18, column 26) */
static void test_inlinedat_cycle(void)
{
    run r = {0};
    read_corpus(&r, TK_STAGE_LLIR, "inlinedat_cycle.llir");
    g_assert_cmpuint(tk_diags_count(r.diags), >, 0);
    GArray *at_fault = tk_test_lines_with(r.stage, "!dbg !17");
    GArray *more = tk_test_lines_with(r.stage, "!dbg !20");
    g_array_append_vals(at_fault, more->data, more->len);
    uint32_t defs[] = {191, 194};
    g_array_append_vals(at_fault, defs, 2);
    assert_diags_within(&r, (const uint32_t *)at_fault->data, at_fault->len);
    assert_stacks(&r, 9, VA_PY ":8:24");
    assert_stacks(&r, 138, VA_PY ":18:26");
    g_array_free(at_fault, TRUE);
    g_array_free(more, TRUE);
    run_clear(&r);

    /* A node inlined at itself (line 191 edited here). */
    size_t len;
    if (!tk_test_have_dumps())
        return;
    char *text = real_text(TK_STAGE_LLIR, &len);
    char *self = g_strstr_len(text, (gssize)len, "scope: !18, inlinedAt: !20)");
    g_assert_nonnull(self);
    memcpy(self, "scope: !18, inlinedAt: !17)", 27);
    parse_timed(&r, TK_STAGE_LLIR, "self-inlined.llir", text, len);
    g_assert_cmpuint(tk_diags_count(r.diags), >, 0);
    assert_stacks(&r, 9, VA_PY ":8:24");
    run_clear(&r);
    g_free(text);
}

/* scope_cycle.llir: add_kernel.llir with the scopes of !17/!20 and !21 made
 * two lexical blocks without a file, each the other's parent:
 *   192: !18 = distinct !DILexicalBlock(scope: !22, line: 1, column: 1)
 *   196: !22 = distinct !DILexicalBlock(scope: !18, line: 1, column: 1)
 * A reader walking up the scopes for a file must stop. */
static void test_scope_cycle(void)
{
    run r = {0};
    read_corpus(&r, TK_STAGE_LLIR, "scope_cycle.llir");
    g_assert_cmpuint(tk_diags_count(r.diags), >, 0);
    GArray *at_fault = tk_test_lines_with(r.stage, "!dbg !17");
    GArray *more = tk_test_lines_with(r.stage, "!dbg !20");
    g_array_append_vals(at_fault, more->data, more->len);
    uint32_t defs[] = {191, 192, 194, 195, 196};
    g_array_append_vals(at_fault, defs, G_N_ELEMENTS(defs));
    assert_diags_within(&r, (const uint32_t *)at_fault->data, at_fault->len);
    assert_stacks(&r, 9, VA_PY ":8:24");
    g_array_free(at_fault, TRUE);
    g_array_free(more, TRUE);
    run_clear(&r);
}

/* undefined_node.llir: add_kernel.llir without line 199
 * ("!25 = !DILocation(line: 18, column: 35, scope: !4)"), used by lines
 * 140-149, and with line 150 made "  ret void, !dbg !99". */
static void test_undefined_node(void)
{
    run r = {0};
    read_corpus(&r, TK_STAGE_LLIR, "undefined_node.llir");
    assert_diag_at(&r, 150);
    gboolean any = FALSE;
    for (uint32_t l = 140; l <= 149; l++)
        any |= has_diag_at(&r, l);
    g_assert_true(any);
    uint32_t at_fault[11];
    for (uint32_t i = 0; i < 11; i++)
        at_fault[i] = 140 + i;
    assert_diags_within(&r, at_fault, 11);
    assert_stacks(&r, 140, "");
    assert_stacks(&r, 150, "");
    assert_stacks(&r, 139, VA_PY ":18:26");
    run_clear(&r);
}

/* undefined_file.ptx: add_kernel.ptx without line 200, ".file 2" (standard.py):
 * every ".loc 2 ..." names an undefined file.  ".loc 1" lines still read:
 *   33:	.loc	1 8 24                          // vector_add.py:8:24
 *   34:	mov.u32 	%r30, %ctaid.x; */
static void test_undefined_file(void)
{
    run r = {0};
    read_corpus(&r, TK_STAGE_PTX, "undefined_file.ptx");
    GArray *at_fault = tk_test_lines_with(r.stage, ".loc\t2 ");
    g_assert_cmpuint(at_fault->len, >, 0);
    g_assert_cmpuint(tk_diags_count(r.diags), >, 0);
    assert_diags_within(&r, (const uint32_t *)at_fault->data, at_fault->len);
    assert_stacks(&r, 34, VA_PY ":8:24");
    g_array_free(at_fault, TRUE);
    run_clear(&r);
}

/* ---- numbers past 2^32 --------------------------------------------------- */

/* big_line_number.ttgir: add_kernel.ttgir with
 *   51: #loc10 = loc(".../vector_add.py":13:99999999999)
 *   52: #loc11 = loc(".../vector_add.py":4294967296:17)
 * used through #loc31 by line 27 and through #loc32 by line 28. */
static void test_big_numbers_mlir(void)
{
    run r = {0};
    read_corpus(&r, TK_STAGE_TTGIR, "big_line_number.ttgir");
    assert_diag_at(&r, 51);
    assert_diag_at(&r, 52);
    assert_stacks(&r, 27, "");
    assert_stacks(&r, 28, "");
    assert_stacks(&r, 24, VA_PY ":12:16");
    run_clear(&r);
}

/* big_line_number.llir: add_kernel.llir with
 *   187: !13 = !DILocation(line: 4294967296, column: 16, scope: !4)
 *   190: !16 = !DILocation(line: 14, column: 99999999999, scope: !4)
 * used by lines 26 (!dbg !13) and 51 (!dbg !16). */
static void test_big_numbers_llvm(void)
{
    run r = {0};
    read_corpus(&r, TK_STAGE_LLIR, "big_line_number.llir");
    assert_diag_at(&r, 187);
    assert_diag_at(&r, 190);
    assert_stacks(&r, 26, "");
    assert_stacks(&r, 51, "");
    assert_stacks(&r, 9, VA_PY ":8:24");
    run_clear(&r);
}

/* big_line_number.ptx: add_kernel.ptx with
 *   33:	.loc	1 4294967296 24                  // vector_add.py:4294967296:24
 *   35:	.loc	1 9 99999999999                  // vector_add.py:9:99999999999
 * and untouched
 *   39:	.loc	1 10 41                         // vector_add.py:10:41
 *   40:	mov.u32 	%r33, %tid.x; */
static void test_big_numbers_ptx(void)
{
    run r = {0};
    read_corpus(&r, TK_STAGE_PTX, "big_line_number.ptx");
    assert_diag_at(&r, 33);
    assert_diag_at(&r, 35);
    assert_stacks(&r, 40, VA_PY ":10:41");
    run_clear(&r);
}

/* big_line_number.sass_gi: add_kernel.sass_gi with line 50 made
 *   	//## File "/tmp/capture/vector_add/src/vector_add.py", line 4294967296
 * over lines 51-52 (/\*0130*\/, /\*0140*\/), then untouched 53-54:
 *   	//## File "/tmp/capture/vector_add/src/vector_add.py", line 13
 *           /\*0150*\/              @!P2 LDG.E.128 R12, desc[UR6][R22.64] ; */
static void test_big_numbers_sass(void)
{
    run r = {0};
    read_corpus(&r, TK_STAGE_SASS, "big_line_number.sass_gi");
    assert_diag_at(&r, 50);
    static const uint32_t at_fault[] = {50};
    assert_diags_within(&r, at_fault, 1);
    assert_stacks(&r, 51, "");
    assert_stacks(&r, 52, "");
    assert_stacks(&r, 54, VA_PY ":13:0");
    run_clear(&r);
}

/* ---- non-UTF-8 file names ------------------------------------------------ */

/* latin1_path.*: the real files with every "vector_add.py" made
 * "vect\xf6r_add.py" (a Latin-1 o-umlaut, invalid as UTF-8).  File names are
 * bytes: same stacks as the real files, the bytes kept. */
static void check_latin1_path(const run *r, uint32_t line, const char *expected)
{
    g_assert_cmpuint(tk_diags_count(r->diags), ==, 0);
    assert_stacks(r, line, expected);
    const tk_stack_id *ids;
    g_assert_cmpuint(tk_stage_line_stacks(r->stage, line, &ids), ==, 1);
    size_t n;
    const tk_frame *f = tk_loctab_stack_frames(r->tab, ids[0], &n);
    g_assert_cmpstr(tk_loctab_file_path(r->tab, f[n - 1].file), ==,
                    "/tmp/capture/vector_add/src/" VA_L1);
}

static void test_latin1_mlir(void)
{
    run r = {0};
    /* add_kernel.ttgir line 28: loc(#loc32) -> "output"(#loc11) -> 14:17. */
    read_corpus(&r, TK_STAGE_TTGIR, "latin1_path.ttgir");
    check_latin1_path(&r, 28, VA_L1 ":14:17");
    run_clear(&r);
}

static void test_latin1_llvm(void)
{
    run r = {0};
    /* add_kernel.llir line 9: !dbg !7 -> line 8, column 24; line 74:
     * !dbg !17 -> 263:15 in standard.py, inlined at !20 (293:36), inlined at
     * !21 (16:15 in vector_add.py). */
    read_corpus(&r, TK_STAGE_LLIR, "latin1_path.llir");
    check_latin1_path(&r, 9, VA_L1 ":8:24");
    check_latin1_path(&r, 74, "standard.py:263:15 <- standard.py:293:36 <- " VA_L1 ":16:15");
    run_clear(&r);
}

static void test_latin1_ptx(void)
{
    run r = {0};
    /* add_kernel.ptx line 34 under ".loc 1 8 24"; line 99 under
     * ".loc 2 263 15 // standard.py:263:15 @[ standard.py:293:36 @[
     * vector_add.py:16:15 ] ]" (file names edited in the comment too). */
    read_corpus(&r, TK_STAGE_PTX, "latin1_path.ptx");
    check_latin1_path(&r, 34, VA_L1 ":8:24");
    check_latin1_path(&r, 99, "standard.py:263:15 <- standard.py:293:36 <- " VA_L1 ":16:15");
    run_clear(&r);
}

static void test_latin1_sass(void)
{
    run r = {0};
    /* add_kernel.sass_gi line 52 (/\*0140*\/) under "line 12". */
    read_corpus(&r, TK_STAGE_SASS, "latin1_path.sass_gi");
    check_latin1_path(&r, 52, VA_L1 ":12:0");
    run_clear(&r);
}

/* ---- every corpus file through every reader ------------------------------ */

/* A reader must survive the other formats too (a mislabelled file): only
 * the invariants, for every pair. */
static void test_cross_kinds(void)
{
    char *dir = tk_test_src_path("bad_input");
    GDir *d = g_dir_open(dir, 0, NULL);
    g_assert_nonnull(d);
    int n = 0;
    for (const char *e; (e = g_dir_read_name(d));) {
        if (g_str_has_suffix(e, ".md"))
            continue;
        char *path = g_build_filename(dir, e, NULL);
        char *data;
        gsize len;
        g_assert_true(g_file_get_contents(path, &data, &len, NULL));
        for (size_t k = 0; k < G_N_ELEMENTS(all_kinds); k++) {
            run r = {0};
            parse_timed(&r, all_kinds[k], e, data, len);
            run_clear(&r);
        }
        n++;
        g_free(data);
        g_free(path);
    }
    g_dir_close(d);
    g_free(dir);
    g_assert_cmpint(n, >=, 20);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/bad_input/binary/read-refused", test_binary_read_refused);
    g_test_add_func("/bad_input/binary/parsed", test_binary_parsed);
    g_test_add_func("/bad_input/binary/high-bytes", test_high_bytes_read);
    g_test_add_func("/bad_input/empty", test_empty);
    g_test_add_func("/bad_input/cut/mlir", test_cut_mlir);
    g_test_add_func("/bad_input/cut/llvm", test_cut_llvm);
    g_test_add_func("/bad_input/cut/ptx", test_cut_ptx);
    g_test_add_func("/bad_input/cut/sass", test_cut_sass);
    for (size_t k = 0; k < G_N_ELEMENTS(all_kinds); k++) {
        char *path = g_strdup_printf("/bad_input/crlf/%s",
                                     tk_stage_kind_name(all_kinds[k]));
        g_test_add_data_func(path, GINT_TO_POINTER(all_kinds[k]), test_crlf);
        g_free(path);
    }
    g_test_add_func("/bad_input/huge-line/mlir", test_huge_line_mlir);
    g_test_add_func("/bad_input/huge-line/llvm", test_huge_line_llvm);
    g_test_add_func("/bad_input/huge-line/ptx", test_huge_line_ptx);
    g_test_add_func("/bad_input/huge-line/sass", test_huge_line_sass);
    g_test_add_func("/bad_input/mlir/alias-cycle", test_alias_cycle);
    g_test_add_func("/bad_input/mlir/undefined-alias", test_undefined_alias);
    g_test_add_func("/bad_input/llvm/inlinedat-cycle", test_inlinedat_cycle);
    g_test_add_func("/bad_input/llvm/scope-cycle", test_scope_cycle);
    g_test_add_func("/bad_input/llvm/undefined-node", test_undefined_node);
    g_test_add_func("/bad_input/ptx/undefined-file", test_undefined_file);
    g_test_add_func("/bad_input/big-numbers/mlir", test_big_numbers_mlir);
    g_test_add_func("/bad_input/big-numbers/llvm", test_big_numbers_llvm);
    g_test_add_func("/bad_input/big-numbers/ptx", test_big_numbers_ptx);
    g_test_add_func("/bad_input/big-numbers/sass", test_big_numbers_sass);
    g_test_add_func("/bad_input/latin1-path/mlir", test_latin1_mlir);
    g_test_add_func("/bad_input/latin1-path/llvm", test_latin1_llvm);
    g_test_add_func("/bad_input/latin1-path/ptx", test_latin1_ptx);
    g_test_add_func("/bad_input/latin1-path/sass", test_latin1_sass);
    g_test_add_func("/bad_input/cross-kinds", test_cross_kinds);
    return g_test_run();
}
