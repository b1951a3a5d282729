/* test_passes.c - the pass dump index: header forms, the real captures'
 * MLIR and LLVM dumps, sequences per compile, matching bundle kernels, and
 * damaged input.
 *
 * Expected values were read from the dumps with grep and sed; each test says
 * which lines they come from.
 */
#include <glib/gstdio.h>
#include <string.h>
#include <sys/resource.h>
#include <zlib.h>

#include "passes/internal.h"
#include "tk_test.h"
#include "tkdump/tk_bundle_load.h"
#include "tkdump/tk_bundle_passes.h"
#include "tkdump/tk_passes.h"

/* ---- helpers ------------------------------------------------------------ */

static tk_passes *index_file(const char *path, tk_diags *d)
{
    tk_passes *p = tk_passes_index(path, d);
    if (!p) {
        tk_test_print_diags(d);
        g_error("cannot index %s", path);
    }
    return p;
}

static tk_passes *index_dump(const char *rel, tk_diags *d)
{
    char *path = tk_test_dump_path(rel);
    tk_passes *p = index_file(path, d);
    g_free(path);
    return p;
}

/* The dump whose header is at LINE, or fails the test. */
static size_t dump_at_line(const tk_passes *p, uint64_t line)
{
    for (size_t i = 0; i < tk_passes_count(p); i++)
        if (tk_passes_get(p, i)->header_line == line)
            return i;
    g_error("no dump header at line %llu", (unsigned long long)line);
    return 0;
}

static size_t count_kind(const tk_passes *p, tk_pass_kind kind)
{
    size_t n = 0;
    for (size_t i = 0; i < tk_passes_count(p); i++)
        n += tk_passes_get(p, i)->kind == kind;
    return n;
}

static size_t count_warnings_with(const tk_diags *d, const char *needle)
{
    size_t n = 0;
    for (size_t i = 0; i < tk_diags_count(d); i++) {
        const tk_diag *g = tk_diags_get(d, i);
        if (g->severity >= TK_DIAG_WARNING && strstr(g->message, needle))
            n++;
    }
    return n;
}

static char *write_temp(const char *name, const char *data, gssize len)
{
    char *path = tk_test_tmp_path(name);
    g_assert_true(g_file_set_contents(path, data, len, NULL));
    return path;
}

static char *read_dump_file(const char *rel, gsize *len)
{
    char *path = tk_test_dump_path(rel);
    char *data;
    g_assert_true(g_file_get_contents(path, &data, len, NULL));
    g_free(path);
    return data;
}

static passes_header parse(const char *line)
{
    passes_header h;
    if (!passes_parse_header(line, strlen(line), &h))
        g_error("not parsed as a header: %s", line);
    return h;
}

#define assert_span(span, lit)                                              \
    do {                                                                    \
        passes_span s_ = (span);                                                \
        char *got_ = g_strndup(s_.p ? s_.p : "", s_.n);                     \
        g_assert_cmpstr(got_, ==, (lit));                                   \
        g_free(got_);                                                       \
    } while (0)

/* ---- header forms -------------------------------------------------------- */

static void test_headers_mlir(void)
{
    /* vector_add/mlir_passes.txt line 1 */
    passes_header h = parse("// -----// IR Dump Before Inliner (inline) "
                            "('builtin.module' operation) //----- //");
    g_assert_cmpint(h.kind, ==, TK_PASS_MLIR);
    g_assert_cmpint(h.when, ==, TK_PASS_BEFORE);
    g_assert_cmpint(h.status, ==, TK_PASS_PRINTED);
    g_assert_cmpint(h.scope_kind, ==, TK_PASS_SCOPE_MODULE);
    g_assert_false(h.bad);
    assert_span(h.pass, "Inliner");
    assert_span(h.arg, "inline");
    assert_span(h.scope, "('builtin.module' operation)");
    assert_span(h.scope_name, "");

    /* vector_add/mlir_passes.txt line 223: a symbol with parentheses */
    h = parse("// -----// IR Dump Before Canonicalizer (canonicalize) "
              "('tt.func' operation: @triton.language.standard.sum__fp32S1024S"
              "__(1,)cNone_(2,)cconstexpr_False__(3,)cNone) //----- //");
    g_assert_cmpint(h.scope_kind, ==, TK_PASS_SCOPE_OPERATION);
    assert_span(h.pass, "Canonicalizer");
    assert_span(h.arg, "canonicalize");
    assert_span(h.scope_name, "triton.language.standard.sum__fp32S1024S__(1,)"
                              "cNone_(2,)cconstexpr_False__(3,)cNone");

    h = parse("// -----// IR Dump After TritonGPUCoalesce (tritongpu-coalesce) "
              "('builtin.module' operation) //----- //");
    g_assert_cmpint(h.when, ==, TK_PASS_AFTER);
    assert_span(h.pass, "TritonGPUCoalesce");

    /* Older MLIR's failure form. */
    h = parse("// -----// IR Dump After TritonGPUPipeline Failed "
              "(tritongpu-pipeline) ('builtin.module' operation) //----- //");
    g_assert_cmpint(h.when, ==, TK_PASS_AFTER_FAILED);
    assert_span(h.pass, "TritonGPUPipeline");
    assert_span(h.arg, "tritongpu-pipeline");

    /* Newer MLIR (IRPrinting.cpp printIRHeader): "Pass: textual pipeline". */
    h = parse("// -----// IR Dump Before CanonicalizerPass: canonicalize{  "
              "max-iterations=10 max-num-rewrites=-1 region-simplify=normal "
              "test-convergence=false top-down=true} ('builtin.module' "
              "operation) //----- //");
    g_assert_cmpint(h.when, ==, TK_PASS_BEFORE);
    assert_span(h.pass, "CanonicalizerPass");
    assert_span(h.arg, "canonicalize{  max-iterations=10 max-num-rewrites=-1 "
                       "region-simplify=normal test-convergence=false "
                       "top-down=true}");
    assert_span(h.scope, "('builtin.module' operation)");

    h = parse("// -----// IR Dump After CSEPass Failed: cse ('tt.func' "
              "operation: @add_kernel) //----- //");
    g_assert_cmpint(h.when, ==, TK_PASS_AFTER_FAILED);
    assert_span(h.pass, "CSEPass");
    assert_span(h.arg, "cse");
    assert_span(h.scope_name, "add_kernel");

    /* An argument holding a nested pipeline with parentheses. */
    h = parse("// -----// IR Dump Before InlinerPass: inline{default-pipeline="
              "canonicalize max-iterations=4 op-pipelines=tt.func(cse)} "
              "('builtin.module' operation) //----- //");
    assert_span(h.pass, "InlinerPass");
    assert_span(h.arg, "inline{default-pipeline=canonicalize max-iterations=4 "
                       "op-pipelines=tt.func(cse)}");
    g_assert_cmpint(h.scope_kind, ==, TK_PASS_SCOPE_MODULE);

    /* Not at module scope: no scope printed. */
    h = parse("// -----// IR Dump Before CSE (cse) //----- //");
    g_assert_cmpint(h.scope_kind, ==, TK_PASS_SCOPE_NONE);
    assert_span(h.pass, "CSE");
    assert_span(h.arg, "cse");

    /* The print-ir pass (mlir/lib/Transforms/PrintIR.cpp). */
    h = parse("// -----// IR Dump my label //----- //");
    g_assert_cmpint(h.when, ==, TK_PASS_LABEL);
    assert_span(h.pass, "my label");

    /* vector_add/stderr.txt line 1 */
    h = parse("// -----// SoftwarePipeliner internal IR Dump After: LowerLoops");
    g_assert_cmpint(h.kind, ==, TK_PASS_MLIR_INTERNAL);
    g_assert_cmpint(h.when, ==, TK_PASS_AFTER);
    assert_span(h.pass, "SoftwarePipeliner");
    assert_span(h.arg, "LowerLoops");

    /* Cut in the middle: still a header, marked bad. */
    h = parse("// -----// IR Dump Before Canonicalizer (canon");
    g_assert_true(h.bad);
    g_assert_true(h.pass.n >= 13 &&
                  memcmp(h.pass.p, "Canonicalizer", 13) == 0);

    passes_header x;
    const char *not_headers[] = {
        "// just a comment about IR", "// -----// nothing to see here",
        "#loc = loc(\"/tmp/x.py\":7:0)", "module attributes {} {"};
    for (size_t i = 0; i < G_N_ELEMENTS(not_headers); i++)
        g_assert_false(passes_parse_header(not_headers[i],
                                           strlen(not_headers[i]), &x));
}

static void test_headers_llvm(void)
{
    /* vector_add/stderr.txt lines 1029, 70, 4197 */
    passes_header h =
        parse("; *** IR Dump After EntryExitInstrumenterPass on add_kernel ***");
    g_assert_cmpint(h.kind, ==, TK_PASS_LLVM_IR);
    g_assert_cmpint(h.when, ==, TK_PASS_AFTER);
    g_assert_cmpint(h.scope_kind, ==, TK_PASS_SCOPE_FUNCTION);
    assert_span(h.pass, "EntryExitInstrumenterPass");
    assert_span(h.scope, "add_kernel");
    assert_span(h.scope_name, "add_kernel");
    assert_span(h.arg, "");

    h = parse("; *** IR Dump After Annotation2MetadataPass on [module] ***");
    g_assert_cmpint(h.scope_kind, ==, TK_PASS_SCOPE_MODULE);
    assert_span(h.scope, "[module]");
    assert_span(h.scope_name, "");

    h = parse("; *** IR Dump After InlinerPass on (add_kernel) ***");
    g_assert_cmpint(h.kind, ==, TK_PASS_LLVM_IR);
    g_assert_cmpint(h.scope_kind, ==, TK_PASS_SCOPE_CGSCC);
    assert_span(h.scope, "(add_kernel)");
    assert_span(h.scope_name, "add_kernel");

    /* autotuned_matmul/stderr.txt: loop passes */
    h = parse("; *** IR Dump After LICMPass on loop %<unnamed loop> in function "
              "mm_kernel ***");
    g_assert_cmpint(h.scope_kind, ==, TK_PASS_SCOPE_LOOP);
    assert_span(h.pass, "LICMPass");
    assert_span(h.scope_name, "mm_kernel");

    /* vector_add/stderr.txt line 3656: a pass name with spaces */
    h = parse("; *** IR Dump After RequireAnalysisPass<llvm::GlobalsAA, "
              "llvm::Module, llvm::AnalysisManager<Module>> on [module] ***");
    assert_span(h.pass, "RequireAnalysisPass<llvm::GlobalsAA, llvm::Module, "
                        "llvm::AnalysisManager<Module>>");
    g_assert_cmpint(h.scope_kind, ==, TK_PASS_SCOPE_MODULE);

    h = parse("; *** IR Dump After SROAPass on f (invalidated) ***");
    g_assert_cmpint(h.status, ==, TK_PASS_PRINTED);
    assert_span(h.scope_name, "f");

    h = parse("; *** IR Dump Before InstCombinePass on f ***");
    g_assert_cmpint(h.when, ==, TK_PASS_BEFORE);

    /* vector_add/stderr.txt lines 19812, 21897, 18174: legacy codegen */
    h = parse("*** IR Dump After Global Value Numbering (gvn) ***");
    g_assert_cmpint(h.kind, ==, TK_PASS_LLVM_LEGACY);
    assert_span(h.pass, "Global Value Numbering");
    assert_span(h.arg, "gvn");
    g_assert_cmpint(h.scope_kind, ==, TK_PASS_SCOPE_NONE);

    h = parse("*** IR Dump After Instrument function entry/exit with calls to "
              "e.g. mcount() (post inlining) (post-inline-ee-instrument) ***");
    assert_span(h.pass, "Instrument function entry/exit with calls to e.g. "
                        "mcount() (post inlining)");
    assert_span(h.arg, "post-inline-ee-instrument");

    h = parse("*** IR Dump After Replace occurrences of __nvvm_reflect() calls "
              "with 0/1 (nvvm-reflect) ***");
    g_assert_cmpint(h.kind, ==, TK_PASS_LLVM_LEGACY);
    assert_span(h.arg, "nvvm-reflect");

    /* vector_add/stderr.txt line 24072: machine code */
    h = parse("# *** IR Dump After NVPTX DAG->DAG Pattern Instruction Selection "
              "(nvptx-isel) ***:");
    g_assert_cmpint(h.kind, ==, TK_PASS_LLVM_MACHINE);
    assert_span(h.pass, "NVPTX DAG->DAG Pattern Instruction Selection");
    assert_span(h.arg, "nvptx-isel");

    /* -print-changed (StandardInstrumentations.cpp TextChangeReporter) */
    h = parse("*** IR Dump At Start ***");
    g_assert_cmpint(h.when, ==, TK_PASS_AT_START);
    g_assert_cmpint(h.status, ==, TK_PASS_PRINTED);

    h = parse("*** IR Dump After InstSimplifyPass on g ***");
    g_assert_cmpint(h.kind, ==, TK_PASS_LLVM_IR);
    assert_span(h.pass, "InstSimplifyPass");
    assert_span(h.scope_name, "g");

    h = parse("*** IR Dump After VerifierPass on [module] omitted because no "
              "change ***");
    g_assert_cmpint(h.status, ==, TK_PASS_NO_CHANGE);
    assert_span(h.pass, "VerifierPass");
    g_assert_cmpint(h.scope_kind, ==, TK_PASS_SCOPE_MODULE);

    h = parse("*** IR Dump After InstSimplifyPass on g filtered out ***");
    g_assert_cmpint(h.status, ==, TK_PASS_FILTERED);
    assert_span(h.scope_name, "g");

    h = parse("*** IR Pass PassManager<llvm::Function> on f ignored ***");
    g_assert_cmpint(h.status, ==, TK_PASS_IGNORED);
    assert_span(h.pass, "PassManager<llvm::Function>");
    assert_span(h.scope_name, "f");

    h = parse("*** IR Pass ModuleToFunctionPassAdaptor invalidated ***");
    g_assert_cmpint(h.status, ==, TK_PASS_INVALIDATED);
    assert_span(h.pass, "ModuleToFunctionPassAdaptor");

    h = parse("*** IR Deleted After GlobalDCEPass on f ***");
    g_assert_cmpint(h.status, ==, TK_PASS_DELETED);
    assert_span(h.pass, "GlobalDCEPass");

    h = parse("*** IR Dump After InlinerPass on (f, g) ***");
    g_assert_cmpint(h.kind, ==, TK_PASS_LLVM_IR);
    g_assert_cmpint(h.scope_kind, ==, TK_PASS_SCOPE_CGSCC);
    assert_span(h.scope_name, "f");

    /* MachineFunctionPass's -print-changed banner */
    h = parse("*** IR Dump After Machine code sinking (machine-sink) on f "
              "omitted because no change ***");
    g_assert_cmpint(h.status, ==, TK_PASS_NO_CHANGE);
    assert_span(h.pass, "Machine code sinking");
    assert_span(h.arg, "machine-sink");
    assert_span(h.scope_name, "f");

    passes_header x;
    const char *not_headers[] = {
        "Running pass: Annotation2MetadataPass on [module]",
        "; ModuleID = 'LLVMDialectModule'",
        "# Machine code for function add_kernel: IsSSA, TracksLiveness",
        "# End machine code for function add_kernel.",
        "*** something else ***", "; *** IR is fun ***"};
    for (size_t i = 0; i < G_N_ELEMENTS(not_headers); i++)
        g_assert_false(passes_parse_header(not_headers[i],
                                           strlen(not_headers[i]), &x));
}

/* ---- vector_add --------------------------------------------------------- */

static void test_vector_add_mlir(void)
{
    if (!tk_test_have_dumps())
        return;
    tk_diags *d = tk_diags_new();
    tk_passes *p = index_dump("vector_add/mlir_passes.txt", d);
    g_assert_cmpuint(tk_diags_count(d), ==, 0);

    /* grep -c 'IR Dump Before' vector_add/mlir_passes.txt: 73 */
    g_assert_cmpuint(tk_passes_count(p), ==, 73);
    g_assert_cmpuint(tk_passes_other_count(p), ==, 0);
    g_assert_cmpuint(tk_passes_line_count(p), ==, 7828); /* wc -l */

    /* The first passes (lines 1, 112, 223 ... 428) */
    const tk_pass_dump *x = tk_passes_get(p, 0);
    g_assert_cmpuint(x->header_line, ==, 1);
    g_assert_cmpuint(x->header_offset, ==, 0);
    g_assert_cmpstr(x->pass, ==, "Inliner");
    g_assert_cmpstr(x->arg, ==, "inline");
    g_assert_cmpint(x->scope_kind, ==, TK_PASS_SCOPE_MODULE);
    g_assert_cmpint(x->kind, ==, TK_PASS_MLIR);
    g_assert_cmpint(x->when, ==, TK_PASS_BEFORE);
    /* Body: lines 2-109, then two blank lines and the next header at 112. */
    g_assert_cmpuint(x->body_lines, ==, 108);
    g_assert_cmpint(x->level, ==, TK_PASS_LEVEL_TTIR);
    /* line 14: "tt.func public @add_kernel"; the Inliner's module also
     * defines the two private helpers of tl.sum */
    g_assert_cmpstr(x->kernel, ==, "add_kernel");
    g_assert_cmpuint(x->n_functions, ==, 3);
    g_assert_cmpstr(x->functions[0], ==, "add_kernel");
    g_assert_cmpstr(x->module_attrs, ==, ""); /* line 13: "module {" */

    x = tk_passes_get(p, 1);
    g_assert_cmpuint(x->header_line, ==, 112);
    g_assert_cmpstr(x->pass, ==, "Canonicalizer");
    g_assert_cmpint(x->scope_kind, ==, TK_PASS_SCOPE_OPERATION);
    g_assert_cmpstr(x->scope_name, ==,
                    "triton.language.standard._sum_combine__fp32_fp32__");
    g_assert_cmpstr(tk_passes_get(p, 4)->scope_name, ==, "add_kernel");
    g_assert_cmpuint(tk_passes_get(p, 4)->header_line, ==, 428);
    g_assert_cmpstr(tk_passes_get(p, 6)->pass, ==, "TritonRewriteTensorPointer");

    /* The last passes (lines 7097, 7341, 7585) */
    g_assert_cmpstr(tk_passes_get(p, 70)->pass, ==, "SymbolDCE");
    g_assert_cmpstr(tk_passes_get(p, 71)->pass, ==, "ConvertNVVMToLLVMPass");
    g_assert_cmpstr(tk_passes_get(p, 71)->arg, ==, "convert-nvvm-to-llvm");
    x = tk_passes_get(p, 72);
    g_assert_cmpuint(x->header_line, ==, 7585);
    g_assert_cmpstr(x->pass, ==, "LLVMDIScope");
    g_assert_cmpstr(x->arg, ==, "enable-line-info");
    g_assert_cmpint(x->level, ==, TK_PASS_LEVEL_LLVM_MLIR);
    /* "llvm.func @add_kernel(... nvvm.kernel = 1 : ui1 ...)" */
    g_assert_cmpstr(x->kernel, ==, "add_kernel");

    /* line 1178: "// -----// IR Dump Before TritonGPUCoalesce
     * (tritongpu-coalesce) ('builtin.module' operation) //----- //" */
    size_t c = dump_at_line(p, 1178);
    g_assert_cmpuint(c, ==, 14);
    x = tk_passes_get(p, c);
    g_assert_cmpstr(x->pass, ==, "TritonGPUCoalesce");
    g_assert_cmpstr(x->arg, ==, "tritongpu-coalesce");
    g_assert_cmpstr(x->scope, ==, "('builtin.module' operation)");
    /* lines 1179-1248, then blank lines 1249-1250 */
    g_assert_cmpuint(x->body_lines, ==, 70);
    g_assert_cmpint(x->level, ==, TK_PASS_LEVEL_TTGIR);
    /* line 1189 */
    g_assert_cmpstr(x->module_attrs, ==,
                    "\"ttg.num-ctas\" = 1 : i32, \"ttg.num-warps\" = 4 : i32, "
                    "ttg.target = \"cuda:90\", \"ttg.threads-per-warp\" = 32 "
                    ": i32");
    /* line 1106 (ConvertTritonToTritonGPU) is still TTIR: "module {" */
    g_assert_cmpint(tk_passes_get(p, 13)->level, ==, TK_PASS_LEVEL_TTIR);

    /* Reading it back: from line 1179 to line 1248. */
    size_t len;
    char *body = tk_passes_read(p, c, &len, d);
    g_assert_nonnull(body);
    g_assert_cmpuint(len, ==, x->body_len);
    g_assert_true(g_str_has_prefix(
        body, "#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = "
              "[32], warpsPerCTA = [4], order = [0]}>\n"));
    g_assert_true(g_str_has_suffix(
        body, "\n#loc37 = loc(callsite(#loc14 at #loc35))\n"));
    g_free(body);

    /* Into a caller's buffer: too small says how much is needed. */
    char small[16];
    g_assert_cmpint(tk_passes_read_into(p, c, small, sizeof small, d), ==,
                    (int64_t)x->body_len);
    char *big = g_malloc(x->body_len);
    g_assert_cmpint(tk_passes_read_into(p, c, big, x->body_len, d), ==,
                    (int64_t)x->body_len);
    g_assert_true(memcmp(big, "#blocked = ", 11) == 0);
    g_free(big);

    /* One compile, one sequence. */
    g_assert_cmpuint(tk_passes_seq_count(p), ==, 1);
    const tk_pass_seq *s = tk_passes_seq(p, 0);
    g_assert_cmpstr(s->kernel, ==, "add_kernel");
    g_assert_cmpuint(s->n_dumps, ==, 73);
    g_assert_cmpint(s->first_level, ==, TK_PASS_LEVEL_TTIR);
    g_assert_cmpint(s->last_level, ==, TK_PASS_LEVEL_LLVM_MLIR);

    /* Content identity.  By diff (blank lines left out): add_kernel.source
     * is the text of dumps 0 and 1, add_kernel.ttir of dumps 6-13
     * (TritonRewriteTensorPointer .. ConvertTritonToTritonGPU: no TTIR pass
     * changed anything after the Canonicalizer at line 526), add_kernel.ttgir
     * of dumps 18-54 (TritonGPUOptimizeThreadLocality at 1500 ..
     * TritonGPUAllocateWarpGroups at 4164). */
    struct {
        const char *dir, *suffix;
        tk_stage_kind kind;
        size_t from, to;
    } same[] = {{"vector_add/cache", ".source", TK_STAGE_TTIR, 0, 1},
                {"vector_add/kernel_dump", ".ttir", TK_STAGE_TTIR, 6, 13},
                {"vector_add/kernel_dump", ".ttgir", TK_STAGE_TTGIR, 18, 54}};
    for (size_t k = 0; k < G_N_ELEMENTS(same); k++) {
        char *path = tk_test_find_dump(same[k].dir, same[k].suffix);
        char *text;
        gsize tlen;
        g_assert_true(g_file_get_contents(path, &text, &tlen, NULL));
        tk_pass_digest dg;
        tk_pass_digest_text(same[k].kind, text, tlen, &dg);
        for (size_t i = 0; i < tk_passes_count(p); i++) {
            gboolean want = i >= same[k].from && i <= same[k].to;
            const tk_pass_digest *got = &tk_passes_get(p, i)->digest;
            if ((got->exact == dg.exact) != want)
                g_error("%s: dump %zu %s", same[k].suffix, i,
                        want ? "should match" : "should not match");
            g_assert_true((got->noloc == dg.noloc) == want);
        }
        if (k == 0)
            g_assert_true(s->first.exact == dg.exact);
        g_free(text);
        g_free(path);
    }
    tk_passes_free(p);
    tk_diags_free(d);
}

static void test_vector_add_stderr(void)
{
    if (!tk_test_have_dumps())
        return;
    tk_diags *d = tk_diags_new();
    tk_passes *p = index_dump("vector_add/stderr.txt", d);
    g_assert_cmpuint(tk_diags_count(d), ==, 0);

    /* grep -c: '^; \*\*\* IR Dump After' 110, '^\*\*\* IR Dump After' 44,
     * '^# \*\*\* IR Dump After' 37, 'SoftwarePipeliner internal' 2 */
    g_assert_cmpuint(tk_passes_count(p), ==, 193);
    g_assert_cmpuint(count_kind(p, TK_PASS_LLVM_IR), ==, 110);
    g_assert_cmpuint(count_kind(p, TK_PASS_LLVM_LEGACY), ==, 44);
    g_assert_cmpuint(count_kind(p, TK_PASS_LLVM_MACHINE), ==, 37);
    g_assert_cmpuint(count_kind(p, TK_PASS_MLIR_INTERNAL), ==, 2);

    /* Scopes of the 110 new pass manager dumps (sed 's/.* on //' | uniq -c):
     * 81 "add_kernel", 22 "[module]", 7 "(add_kernel)" */
    size_t fn = 0, mod = 0, cg = 0;
    for (size_t i = 0; i < tk_passes_count(p); i++) {
        const tk_pass_dump *x = tk_passes_get(p, i);
        g_assert_cmpuint(x->flags, ==, 0);
        if (x->kind != TK_PASS_LLVM_IR)
            continue;
        g_assert_cmpint(x->when, ==, TK_PASS_AFTER);
        g_assert_cmpint(x->level, ==, TK_PASS_LEVEL_LLVM_IR);
        if (x->scope_kind == TK_PASS_SCOPE_FUNCTION) {
            fn++;
            g_assert_cmpstr(x->scope_name, ==, "add_kernel");
        } else if (x->scope_kind == TK_PASS_SCOPE_MODULE) {
            mod++;
        } else if (x->scope_kind == TK_PASS_SCOPE_CGSCC) {
            cg++;
            g_assert_cmpstr(x->scope, ==, "(add_kernel)");
        }
    }
    g_assert_cmpuint(fn, ==, 81);
    g_assert_cmpuint(mod, ==, 22);
    g_assert_cmpuint(cg, ==, 7);

    /* Lines 1 and 35: the SoftwarePipeliner's own dumps; lines 2-32 are
     * the module of the first, "tt.func public @add_kernel" on line 3. */
    const tk_pass_dump *x = tk_passes_get(p, 0);
    g_assert_cmpint(x->kind, ==, TK_PASS_MLIR_INTERNAL);
    g_assert_cmpstr(x->pass, ==, "SoftwarePipeliner");
    g_assert_cmpstr(x->arg, ==, "LowerLoops");
    g_assert_cmpuint(x->body_lines, ==, 31);
    g_assert_cmpstr(x->kernel, ==, "add_kernel");
    g_assert_cmpint(x->level, ==, TK_PASS_LEVEL_TTGIR);
    x = tk_passes_get(p, 1);
    g_assert_cmpuint(x->header_line, ==, 35);
    g_assert_cmpstr(x->arg, ==, "ExpandLoops");

    /* Line 69, "Running pass: Annotation2MetadataPass on [module]", is the
     * first text outside any dump; line 70 the first LLVM header. */
    const tk_pass_range *r = tk_passes_other(p, 0);
    g_assert_cmpuint(r->line, ==, 69);
    g_assert_cmpuint(r->n_lines, ==, 1);
    char *t = tk_passes_read_range(p, r->offset, r->len, d);
    g_assert_cmpstr(t, ==, "Running pass: Annotation2MetadataPass on [module]\n");
    g_free(t);
    x = tk_passes_get(p, 2);
    g_assert_cmpuint(x->header_line, ==, 70);
    g_assert_cmpstr(x->pass, ==, "Annotation2MetadataPass");
    /* "define ptx_kernel void @add_kernel(" */
    g_assert_cmpstr(x->kernel, ==, "add_kernel");
    for (size_t i = 0; i < tk_passes_other_count(p); i++) {
        r = tk_passes_other(p, i);
        t = tk_passes_read_range(p, r->offset, r->len, d);
        g_assert_null(strstr(t, "IR Dump"));
        g_assert_null(strstr(t, "define "));
        g_free(t);
    }

    /* Line 17335: a legacy module pass; 17535: a legacy function pass
     * ("; Function Attrs" then "define ptx_kernel void @add_kernel"). */
    x = tk_passes_get(p, dump_at_line(p, 17335));
    g_assert_cmpint(x->kind, ==, TK_PASS_LLVM_LEGACY);
    g_assert_cmpstr(x->pass, ==, "Inliner for always_inline functions");
    g_assert_cmpstr(x->arg, ==, "always-inline");
    g_assert_cmpint(x->scope_kind, ==, TK_PASS_SCOPE_MODULE);
    x = tk_passes_get(p, dump_at_line(p, 17535));
    g_assert_cmpstr(x->pass, ==, "Module Verifier");
    g_assert_cmpint(x->scope_kind, ==, TK_PASS_SCOPE_FUNCTION);
    g_assert_cmpstr(x->scope_name, ==, "add_kernel");
    g_assert_cmpint(x->level, ==, TK_PASS_LEVEL_CODEGEN);

    /* Line 27394, the last: "# *** IR Dump After NVPTX Assembly Printer
     * (nvptx-asm-printer) ***:", its MIR to "# End machine code for
     * function add_kernel." on line 27482; 27483 is blank. */
    x = tk_passes_get(p, 192);
    g_assert_cmpuint(x->header_line, ==, 27394);
    g_assert_cmpint(x->kind, ==, TK_PASS_LLVM_MACHINE);
    g_assert_cmpstr(x->pass, ==, "NVPTX Assembly Printer");
    g_assert_cmpstr(x->arg, ==, "nvptx-asm-printer");
    g_assert_cmpuint(x->body_lines, ==, 88);
    g_assert_cmpint(x->scope_kind, ==, TK_PASS_SCOPE_FUNCTION);
    g_assert_cmpstr(x->scope_name, ==, "add_kernel");
    g_assert_cmpuint(x->n_functions, ==, 1);
    g_assert_cmpint(x->level, ==, TK_PASS_LEVEL_MACHINE);

    /* add_kernel.llir equals (blank lines left out) the module printed
     * after GlobalDCEPass (line 16381), ConstantMergePass (16583),
     * CGProfilePass (16785) and RelLookupTableConverterPass (16987). */
    char *path = tk_test_find_dump("vector_add/kernel_dump", ".llir");
    char *text;
    gsize tlen;
    g_assert_true(g_file_get_contents(path, &text, &tlen, NULL));
    tk_pass_digest dg;
    tk_pass_digest_text(TK_STAGE_LLIR, text, tlen, &dg);
    GString *lines = g_string_new(NULL);
    for (size_t i = 0; i < tk_passes_count(p); i++)
        if (tk_passes_get(p, i)->digest.exact == dg.exact)
            g_string_append_printf(
                lines, "%llu ",
                (unsigned long long)tk_passes_get(p, i)->header_line);
    g_assert_cmpstr(lines->str, ==, "16381 16583 16785 16987 ");
    g_string_free(lines, TRUE);
    g_free(text);
    g_free(path);

    g_assert_cmpuint(tk_passes_seq_count(p), ==, 1);
    g_assert_cmpuint(tk_passes_seq(p, 0)->n_dumps, ==, 193);
    g_assert_cmpint(tk_passes_seq(p, 0)->first_level, ==, TK_PASS_LEVEL_TTGIR);
    g_assert_cmpint(tk_passes_seq(p, 0)->last_level, ==,
                    TK_PASS_LEVEL_MACHINE);
    tk_passes_free(p);
    tk_diags_free(d);
}

/* ---- several kernels, several compiles ---------------------------------- */

/* Every kernel of the capture at REL finds its own sequence in FILE, with no
 * tie, and no two kernels find the same one. */
static void check_kernels_match(const char *rel, const tk_passes *p,
                                size_t n_kernels)
{
    tk_diags *d = tk_diags_new();
    char *dir = tk_test_dump_path(rel);
    tk_bundle *b = tk_bundle_load(dir, NULL, d);
    g_assert_nonnull(b);
    g_assert_cmpuint(tk_bundle_kernel_count(b), ==, n_kernels);
    gboolean *taken = g_new0(gboolean, tk_passes_seq_count(p));
    for (size_t i = 0; i < tk_bundle_kernel_count(b); i++) {
        const tk_kernel *k = tk_bundle_kernel(b, i);
        tk_pass_key key;
        tk_kernel_pass_key(k, &key);
        size_t n_best = 0;
        ptrdiff_t s = tk_passes_find_seq(p, &key, &n_best);
        if (s < 0 || n_best != 1)
            g_error("%s %s: sequence %td, %zu best", tk_kernel_name(k),
                    tk_kernel_hash(k), s, n_best);
        g_assert_false(taken[s]);
        taken[s] = TRUE;
        g_assert_cmpstr(tk_passes_seq(p, (size_t)s)->kernel, ==,
                        tk_kernel_name(k));
        /* Its final stage text is one of its dumps: more than a name. */
        g_assert_cmpint(tk_passes_seq_score(p, (size_t)s, &key), >, 1);
    }
    g_free(taken);
    tk_bundle_free(b);
    g_free(dir);
    tk_diags_free(d);
}

static void test_compiled_block(void)
{
    if (!tk_test_have_dumps())
        return;
    tk_diags *d = tk_diags_new();
    tk_passes *p = index_dump("compiled_block/mlir_passes.txt", d);
    g_assert_cmpuint(tk_diags_count(d), ==, 0);
    /* grep -c 'IR Dump Before': 1112; 16 "Inliner (inline)" headers, each
     * compile run to its "LLVMDIScope" before the next starts (lines 1,
     * 26901, 34190, ... 123259) */
    g_assert_cmpuint(tk_passes_count(p), ==, 1112);
    g_assert_cmpuint(tk_passes_seq_count(p), ==, 16);
    size_t total = 0;
    for (size_t i = 0; i < 16; i++) {
        const tk_pass_seq *s = tk_passes_seq(p, i);
        total += s->n_dumps;
        g_assert_cmpstr(tk_passes_get(p, s->dumps[0])->pass, ==, "Inliner");
        g_assert_cmpstr(tk_passes_get(p, s->dumps[s->n_dumps - 1])->pass, ==,
                        "LLVMDIScope");
        for (size_t j = 0; j < s->n_dumps; j++)
            g_assert_cmpuint(tk_passes_get(p, s->dumps[j])->seq, ==, i);
    }
    g_assert_cmpuint(total, ==, 1112);
    /* grep -o 'tt.func public @[A-Za-z0-9_]*' | uniq: the first compile is
     * triton_per_fused_clone_native_layer_norm_transpose_0; lines 26901 and
     * 34190 start two compiles of ..._view_1 (XBLOCK 1024, then 512). */
    g_assert_cmpstr(tk_passes_seq(p, 0)->kernel, ==,
                    "triton_per_fused_clone_native_layer_norm_transpose_0");
    size_t a = tk_passes_get(p, dump_at_line(p, 26901))->seq;
    size_t b = tk_passes_get(p, dump_at_line(p, 34190))->seq;
    g_assert_cmpuint(a, !=, b);
    g_assert_cmpstr(tk_passes_seq(p, a)->kernel, ==,
                    tk_passes_seq(p, b)->kernel);
    /* lines 27788 and 35077: num-warps 4, then 8 */
    g_assert_nonnull(strstr(tk_passes_seq(p, a)->module_attrs,
                            "\"ttg.num-warps\" = 4 "));
    g_assert_nonnull(strstr(tk_passes_seq(p, b)->module_attrs,
                            "\"ttg.num-warps\" = 8 "));
    check_kernels_match("compiled_block", p, 16);
    tk_passes_free(p);

    /* stderr: 3124 headers; every compile starts with the
     * SoftwarePipeliner's LowerLoops dump and ends with the assembly
     * printer's MIR (16 times "nvptx-asm-printer"). */
    p = index_dump("compiled_block/stderr.txt", d);
    g_assert_cmpuint(tk_passes_count(p), ==, 3124);
    g_assert_cmpuint(tk_passes_seq_count(p), ==, 16);
    total = 0;
    for (size_t i = 0; i < 16; i++) {
        const tk_pass_seq *s = tk_passes_seq(p, i);
        total += s->n_dumps;
        const tk_pass_dump *first = tk_passes_get(p, s->dumps[0]);
        const tk_pass_dump *last = tk_passes_get(p, s->dumps[s->n_dumps - 1]);
        g_assert_cmpint(first->kind, ==, TK_PASS_MLIR_INTERNAL);
        g_assert_cmpstr(first->arg, ==, "LowerLoops");
        g_assert_cmpstr(last->arg, ==, "nvptx-asm-printer");
    }
    g_assert_cmpuint(total, ==, 3124);
    /* Line 1 is a Python UserWarning, line 2 "  warnings.warn(": outside
     * any dump, and kept. */
    const tk_pass_range *r = tk_passes_other(p, 0);
    g_assert_cmpuint(r->line, ==, 1);
    g_assert_cmpuint(r->n_lines, ==, 2);
    /* The helper functions libdevice brings (define internal float
     * @__nv_erff) are dumped on their own; they belong to the compile that
     * runs, not to a sequence of their own. */
    size_t helpers = 0;
    for (size_t i = 0; i < tk_passes_count(p); i++) {
        const tk_pass_dump *x = tk_passes_get(p, i);
        if (strcmp(x->scope_name, "__nv_erff") == 0) {
            helpers++;
            g_assert_cmpstr(x->kernel, ==, "");
            g_assert_true(g_str_has_prefix(tk_passes_seq(p, x->seq)->kernel,
                                           "triton_"));
        }
    }
    g_assert_cmpuint(helpers, ==, 18); /* grep -c ' on __nv_erff \*\*\*' */
    check_kernels_match("compiled_block", p, 16);
    g_assert_cmpuint(tk_diags_count(d), ==, 0);
    tk_passes_free(p);
    tk_diags_free(d);
}

static void test_autotuned(void)
{
    if (!tk_test_have_dumps())
        return;
    tk_diags *d = tk_diags_new();
    tk_passes *p = index_dump("autotuned_matmul/mlir_passes.txt", d);
    /* 213 headers; "Inliner" at lines 1, 48010 and 95287: three compiles of
     * 71 dumps; src/autotuned_matmul.py's configs have num_warps 8, 4, 4 and
     * the module attributes say the same, in that order. */
    g_assert_cmpuint(tk_passes_count(p), ==, 213);
    g_assert_cmpuint(tk_passes_seq_count(p), ==, 3);
    const char *warps[] = {"8", "4", "4"};
    uint64_t starts[] = {1, 48010, 95287};
    for (size_t i = 0; i < 3; i++) {
        const tk_pass_seq *s = tk_passes_seq(p, i);
        g_assert_cmpstr(s->kernel, ==, "mm_kernel");
        g_assert_cmpuint(s->n_dumps, ==, 71);
        g_assert_cmpuint(tk_passes_get(p, s->dumps[0])->header_line, ==,
                         starts[i]);
        char *want = g_strdup_printf("\"ttg.num-warps\" = %s ", warps[i]);
        g_assert_nonnull(strstr(s->module_attrs, want));
        g_free(want);
    }
    /* The second and third differ only by their block sizes ("%rm =
     * arith.constant 64" vs "128"): telling them apart takes the content. */
    g_assert_true(tk_passes_seq(p, 0)->first.exact !=
                  tk_passes_seq(p, 1)->first.exact);
    g_assert_true(tk_passes_seq(p, 1)->first.exact !=
                  tk_passes_seq(p, 2)->first.exact);
    check_kernels_match("autotuned_matmul", p, 3);
    tk_passes_free(p);

    p = index_dump("autotuned_matmul/stderr.txt", d);
    g_assert_cmpuint(tk_passes_count(p), ==, 627); /* grep -c 'IR Dump' */
    g_assert_cmpuint(tk_passes_seq_count(p), ==, 3);
    for (size_t i = 0; i < 3; i++)
        g_assert_cmpstr(tk_passes_seq(p, i)->kernel, ==, "mm_kernel");
    check_kernels_match("autotuned_matmul", p, 3);
    g_assert_cmpuint(tk_diags_count(d), ==, 0);
    tk_passes_free(p);
    tk_diags_free(d);
}

static void test_gluon(void)
{
    if (!tk_test_have_dumps())
        return;
    tk_diags *d = tk_diags_new();
    tk_passes *p = index_dump("gluon_copy/mlir_passes.txt", d);
    g_assert_cmpuint(tk_diags_count(d), ==, 0);
    /* 29 headers; a Gluon pipeline starts at GluonInline (line 1) and runs
     * it again at line 608 (make_llir): still one compile. */
    g_assert_cmpuint(tk_passes_count(p), ==, 29);
    g_assert_cmpuint(tk_passes_seq_count(p), ==, 1);
    g_assert_cmpstr(tk_passes_seq(p, 0)->kernel, ==, "copy_scale_kernel");
    const tk_pass_dump *x = tk_passes_get(p, 0);
    g_assert_cmpstr(x->pass, ==, "GluonInline");
    g_assert_cmpint(x->level, ==, TK_PASS_LEVEL_TTGIR); /* no TTIR: line 8 */
    x = tk_passes_get(p, 12);
    g_assert_cmpuint(x->header_line, ==, 608);
    g_assert_cmpstr(x->pass, ==, "GluonInline");
    g_assert_cmpstr(tk_passes_get(p, 1)->pass, ==,
                    "GluonInferCoalescedEncodingsPass");
    /* Before ConvertTritonGPUToLLVM (line 902) the module is TTGIR; from
     * the Canonicalizer at line 951 on it holds llvm.func. */
    g_assert_cmpstr(tk_passes_get(p, 18)->pass, ==, "ConvertTritonGPUToLLVM");
    for (size_t i = 0; i < 29; i++)
        g_assert_cmpint(tk_passes_get(p, i)->level, ==,
                        i <= 18 ? TK_PASS_LEVEL_TTGIR
                                : TK_PASS_LEVEL_LLVM_MLIR);
    /* copy_scale_kernel.ttgir is the text of dumps 6-10 (by diff). */
    char *path = tk_test_find_dump("gluon_copy/kernel_dump", ".ttgir");
    char *text;
    gsize tlen;
    g_assert_true(g_file_get_contents(path, &text, &tlen, NULL));
    tk_pass_digest dg;
    tk_pass_digest_text(TK_STAGE_TTGIR, text, tlen, &dg);
    for (size_t i = 0; i < 29; i++)
        g_assert_true((tk_passes_get(p, i)->digest.exact == dg.exact) ==
                      (i >= 6 && i <= 10));
    g_free(text);
    g_free(path);
    check_kernels_match("gluon_copy", p, 1);
    tk_passes_free(p);

    /* stderr: 110 + 37 + 44 LLVM dumps, no software pipelining */
    p = index_dump("gluon_copy/stderr.txt", d);
    g_assert_cmpuint(tk_passes_count(p), ==, 191);
    g_assert_cmpuint(count_kind(p, TK_PASS_MLIR_INTERNAL), ==, 0);
    g_assert_cmpuint(count_kind(p, TK_PASS_LLVM_IR), ==, 110);
    g_assert_cmpuint(count_kind(p, TK_PASS_LLVM_MACHINE), ==, 37);
    g_assert_cmpuint(count_kind(p, TK_PASS_LLVM_LEGACY), ==, 44);
    g_assert_cmpuint(tk_passes_seq_count(p), ==, 1);
    check_kernels_match("gluon_copy", p, 1);
    tk_passes_free(p);
    tk_diags_free(d);
}

/* ---- finding pass dumps by content -------------------------------------- */

static void test_sniff(void)
{
    if (!tk_test_have_dumps())
        return;
    struct {
        const char *rel;
        tk_passes_file_kind want;
    } cases[] = {
        {"vector_add/mlir_passes.txt", TK_PASSES_FILE_MLIR},
        {"gluon_copy/mlir_passes.txt", TK_PASSES_FILE_MLIR},
        /* starts with a Python warning, then SoftwarePipeliner dumps */
        {"compiled_block/stderr.txt", TK_PASSES_FILE_LLVM},
        {"persistent_tma_matmul/stderr.txt", TK_PASSES_FILE_LLVM},
        {"vector_add/stdout.txt", TK_PASSES_FILE_NONE},
        {"vector_add/src/vector_add.py", TK_PASSES_FILE_NONE},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        char *path = tk_test_dump_path(cases[i].rel);
        g_assert_cmpstr(tk_passes_file_kind_name(tk_passes_sniff_file(path)),
                        ==, tk_passes_file_kind_name(cases[i].want));
        g_free(path);
    }
    char *path = tk_test_find_dump("vector_add/kernel_dump", ".ttgir");
    g_assert_cmpint(tk_passes_sniff_file(path), ==, TK_PASSES_FILE_NONE);
    g_free(path);
    path = tk_test_find_dump("vector_add/kernel_dump", ".cubin");
    g_assert_cmpint(tk_passes_sniff_file(path), ==, TK_PASSES_FILE_NONE);
    g_free(path);
    g_assert_cmpint(tk_passes_sniff_file("/nonexistent/tkview"), ==,
                    TK_PASSES_FILE_NONE);

    /* MLIR_ENABLE_DUMP without MLIR_DUMP_PATH: both in one stderr. */
    const char *mixed =
        "// -----// IR Dump Before CSE (cse) ('builtin.module' operation) "
        "//----- //\nmodule {\n}\n\n"
        "; *** IR Dump After InstCombinePass on f ***\ndefine void @f() {\n"
        "  ret void\n}\n";
    g_assert_cmpint(tk_passes_sniff(mixed, strlen(mixed)), ==,
                    TK_PASSES_FILE_MIXED);
    g_assert_cmpint(tk_passes_sniff("abc\0def", 7), ==, TK_PASSES_FILE_NONE);
    g_assert_cmpint(tk_passes_sniff("", 0), ==, TK_PASSES_FILE_NONE);
}

/* The kind of a whole indexed file, which `tkview info` shows and the
 * bundle writer names slices after: the sniffer reads only the head. */
static void test_content_kind(void)
{
    if (!tk_test_have_dumps())
        return;
    tk_diags *d = tk_diags_new();
    /* 73 "// -----// IR Dump Before" headers, nothing else */
    tk_passes *p = index_dump("vector_add/mlir_passes.txt", d);
    g_assert_cmpint(tk_passes_content_kind(p), ==, TK_PASSES_FILE_MLIR);
    tk_passes_free(p);
    /* stderr.txt:1 "// -----// SoftwarePipeliner internal IR Dump After:
     * LowerLoops", then "; *** IR Dump After ..." LLVM dumps */
    p = index_dump("vector_add/stderr.txt", d);
    g_assert_cmpint(tk_passes_get(p, 0)->kind, ==, TK_PASS_MLIR_INTERNAL);
    g_assert_cmpint(tk_passes_content_kind(p), ==, TK_PASSES_FILE_LLVM);
    tk_passes_free(p);
    g_assert_cmpint(tk_passes_content_kind(NULL), ==, TK_PASSES_FILE_NONE);

    /* MLIR dumps past the sniffer's window (mlir_passes.txt is 553 064
     * bytes), then an LLVM dump: the head says MLIR, the file is mixed. */
    gsize len;
    char *mlir = read_dump_file("vector_add/mlir_passes.txt", &len);
    g_assert_cmpuint(len, >, TK_PASSES_SNIFF_BYTES);
    char *text = g_strconcat(mlir,
                             "; *** IR Dump After InstCombinePass on f ***\n"
                             "define void @f() {\n  ret void\n}\n", NULL);
    char *path = write_temp("passes-mixed.txt", text, -1);
    g_assert_cmpint(tk_passes_sniff_file(path), ==, TK_PASSES_FILE_MLIR);
    p = index_file(path, d);
    g_assert_cmpint(tk_passes_content_kind(p), ==, TK_PASSES_FILE_MIXED);
    tk_passes_free(p);
    g_unlink(path);
    g_free(path);
    g_free(text);
    g_free(mlir);
    tk_diags_free(d);
}

/* ---- bad input ------------------------------------------------------------ */

static void test_cut_mid_module(void)
{
    if (!tk_test_have_dumps())
        return;
    gsize len;
    char *data = read_dump_file("vector_add/mlir_passes.txt", &len);
    /* Keep lines 1-1199: the TritonGPUCoalesce dump (line 1178) stops inside
     * its tt.func, which opens on line 1190. */
    const char *p = data;
    for (int l = 0; l < 1199; l++)
        p = strchr(p, '\n') + 1;
    char *path = write_temp("passes-cut.txt", data, p - data);
    tk_diags *d = tk_diags_new();
    tk_passes *ix = index_file(path, d);
    g_assert_cmpuint(tk_passes_count(ix), ==, 15);
    const tk_pass_dump *x = tk_passes_get(ix, 14);
    g_assert_cmpuint(x->header_line, ==, 1178);
    g_assert_true(x->flags & TK_PASS_CUT);
    g_assert_cmpuint(x->body_lines, ==, 1199 - 1178);
    for (size_t i = 0; i < 14; i++)
        g_assert_cmpuint(tk_passes_get(ix, i)->flags, ==, 0);
    g_assert_cmpuint(tk_diags_count(d), ==, 1);
    const tk_diag *g = tk_diags_get(d, 0);
    g_assert_cmpint(g->severity, ==, TK_DIAG_WARNING);
    g_assert_cmpstr(g->file, ==, path);
    g_assert_cmpuint(g->line, ==, 1178);
    g_assert_nonnull(strstr(g->message, "cut"));
    tk_passes_free(ix);
    tk_diags_free(d);
    g_unlink(path);
    g_free(path);
    g_free(data);
}

static void test_header_without_body_and_garbage(void)
{
    if (!tk_test_have_dumps())
        return;
    gsize len;
    char *data = read_dump_file("vector_add/mlir_passes.txt", &len);
    /* Line 1 (the Inliner header) alone, then garbage, then from line 112
     * on: the header has no body, the garbage is kept aside. */
    const char *l2 = strchr(data, '\n') + 1;
    const char *l112 = l2;
    for (int l = 2; l < 112; l++)
        l112 = strchr(l112, '\n') + 1;
    GString *s = g_string_new_len(data, l2 - data);
    g_string_append(s, "hello from the program\nTraceback (most recent call "
                       "last):\n  File \"x.py\", line 3, in <module>\n\n");
    g_string_append_len(s, l112, (gssize)(len - (size_t)(l112 - data)));
    char *path = write_temp("passes-nobody.txt", s->str, (gssize)s->len);
    tk_diags *d = tk_diags_new();
    tk_passes *ix = index_file(path, d);
    g_assert_cmpuint(tk_passes_count(ix), ==, 73);
    const tk_pass_dump *x = tk_passes_get(ix, 0);
    g_assert_true(x->flags & TK_PASS_EMPTY);
    g_assert_cmpuint(x->body_lines, ==, 0);
    g_assert_cmpuint(count_warnings_with(d, "no body"), ==, 1);
    g_assert_cmpuint(tk_diags_get(d, 0)->line, ==, 1);
    /* lines 2-4 are the garbage (5 is blank); the next dump is intact */
    g_assert_cmpuint(tk_passes_other_count(ix), ==, 1);
    g_assert_cmpuint(tk_passes_other(ix, 0)->line, ==, 2);
    g_assert_cmpuint(tk_passes_other(ix, 0)->n_lines, ==, 3);
    g_assert_cmpuint(tk_passes_get(ix, 1)->header_line, ==, 6);
    g_assert_cmpuint(tk_passes_get(ix, 1)->body_lines, ==, 108);
    g_assert_cmpuint(tk_passes_get(ix, 1)->flags, ==, 0);
    /* a note names the garbage's lines */
    gboolean noted = FALSE;
    for (size_t i = 0; i < tk_diags_count(d); i++)
        noted |= tk_diags_get(d, i)->severity == TK_DIAG_NOTE &&
                 tk_diags_get(d, i)->line == 2;
    g_assert_true(noted);
    tk_passes_free(ix);
    tk_diags_free(d);
    g_unlink(path);
    g_free(path);
    g_string_free(s, TRUE);
    g_free(data);
}

static void test_interleaved_processes(void)
{
    if (!tk_test_have_dumps())
        return;
    /* vector_add's and softmax's MLIR dumps, line by line in turn, as two
     * processes writing to one stderr would leave them. */
    gsize la, lb;
    char *a = read_dump_file("vector_add/mlir_passes.txt", &la);
    char *b = read_dump_file("softmax/mlir_passes.txt", &lb);
    char **al = g_strsplit(a, "\n", -1), **bl = g_strsplit(b, "\n", -1);
    GString *s = g_string_new(NULL);
    size_t both = 0;
    for (; al[both] && bl[both]; both++)
        g_string_append_printf(s, "%s\n%s\n", al[both], bl[both]);
    for (size_t j = both; al[j]; j++)
        g_string_append_printf(s, "%s\n", al[j]);
    for (size_t j = both; bl[j]; j++)
        g_string_append_printf(s, "%s\n", bl[j]);
    char *path = write_temp("passes-interleaved.txt", s->str,
                            (gssize)s->len);
    tk_diags *d = tk_diags_new();
    tk_passes *ix = index_file(path, d);
    /* Every header is a whole line and is kept: 73 + 76. */
    g_assert_cmpuint(tk_passes_count(ix), ==, 73 + 76);
    size_t torn = 0;
    for (size_t i = 0; i < tk_passes_count(ix); i++)
        torn += (tk_passes_get(ix, i)->flags &
                 (TK_PASS_INTERLEAVED | TK_PASS_EMPTY | TK_PASS_CUT)) != 0;
    g_assert_cmpuint(torn, >, 0);
    g_assert_cmpuint(count_warnings_with(d, "two processes"), >, 0);
    for (size_t i = 0; i < tk_diags_count(d); i++) {
        g_assert_cmpstr(tk_diags_get(d, i)->file, ==, path);
        g_assert_cmpint(tk_diags_get(d, i)->severity, <, TK_DIAG_ERROR);
    }
    tk_passes_free(ix);
    tk_diags_free(d);
    g_unlink(path);
    g_free(path);
    g_string_free(s, TRUE);
    g_strfreev(al);
    g_strfreev(bl);
    g_free(a);
    g_free(b);
}

static void test_binary_data(void)
{
    if (!tk_test_have_dumps())
        return;
    gsize len;
    char *data = read_dump_file("vector_add/mlir_passes.txt", &len);
    /* 200 bytes of a cubin in place of line 120, inside the second dump
     * (line 112). */
    const char *p = data;
    for (int l = 1; l < 120; l++)
        p = strchr(p, '\n') + 1;
    GString *s = g_string_new_len(data, p - data);
    for (int i = 0; i < 200; i++)
        g_string_append_c(s, (char)(i % 7 == 0 ? 0 : 0x80 + i % 100));
    g_string_append_c(s, '\n');
    g_string_append(s, strchr(p, '\n') + 1);
    char *path = write_temp("passes-binary.txt", s->str, (gssize)s->len);
    tk_diags *d = tk_diags_new();
    tk_passes *ix = index_file(path, d);
    g_assert_cmpuint(tk_passes_count(ix), ==, 73);
    const tk_pass_dump *x = tk_passes_get(ix, 1);
    g_assert_true(x->flags & TK_PASS_BINARY);
    g_assert_cmpuint(x->body_lines, ==, 120 - 112 - 1);
    g_assert_cmpuint(tk_passes_get(ix, 2)->flags, ==, 0);
    g_assert_cmpuint(tk_passes_get(ix, 2)->header_line, ==, 223);
    g_assert_cmpuint(count_warnings_with(d, "binary data at line 120"), ==, 1);
    tk_passes_free(ix);
    tk_diags_free(d);
    g_unlink(path);
    g_free(path);
    g_string_free(s, TRUE);
    g_free(data);
}

/* The same index whatever the window: lines longer than it (the LLVM
 * dialect's llvm.func lines run over 1000 bytes), CRLF line ends. */
static void test_window_and_crlf(void)
{
    if (!tk_test_have_dumps())
        return;
    char *path = tk_test_dump_path("vector_add/mlir_passes.txt");
    tk_diags *d = tk_diags_new();
    tk_passes *ref = index_file(path, d);
    tk_passes *small = passes_index_window(path, 512, d);
    g_assert_nonnull(small);
    g_assert_cmpuint(tk_passes_count(small), ==, tk_passes_count(ref));
    for (size_t i = 0; i < tk_passes_count(ref); i++) {
        const tk_pass_dump *a = tk_passes_get(ref, i),
                           *b = tk_passes_get(small, i);
        g_assert_cmpuint(a->header_offset, ==, b->header_offset);
        g_assert_cmpuint(a->body_offset, ==, b->body_offset);
        g_assert_cmpuint(a->body_len, ==, b->body_len);
        g_assert_cmpuint(a->body_lines, ==, b->body_lines);
        g_assert_true(a->digest.exact == b->digest.exact);
        g_assert_cmpstr(a->kernel, ==, b->kernel);
        g_assert_cmpint(a->level, ==, b->level);
    }
    tk_passes_free(small);

    gsize len;
    char *data;
    g_assert_true(g_file_get_contents(path, &data, &len, NULL));
    GString *s = g_string_sized_new(len + len / 10);
    for (gsize i = 0; i < len; i++) {
        if (data[i] == '\n')
            g_string_append_c(s, '\r');
        g_string_append_c(s, data[i]);
    }
    char *crlf = write_temp("passes-crlf.txt", s->str, (gssize)s->len);
    tk_passes *c = index_file(crlf, d);
    g_assert_cmpuint(tk_passes_count(c), ==, 73);
    for (size_t i = 0; i < 73; i++) {
        g_assert_cmpstr(tk_passes_get(c, i)->pass, ==,
                        tk_passes_get(ref, i)->pass);
        g_assert_cmpstr(tk_passes_get(c, i)->scope, ==,
                        tk_passes_get(ref, i)->scope);
        g_assert_true(tk_passes_get(c, i)->digest.exact ==
                      tk_passes_get(ref, i)->digest.exact);
    }
    g_assert_cmpuint(tk_diags_count(d), ==, 0);
    tk_passes_free(c);
    tk_passes_free(ref);
    g_unlink(crlf);
    g_free(crlf);
    g_string_free(s, TRUE);
    g_free(data);
    g_free(path);
    tk_diags_free(d);
}

static void test_empty_missing_and_banners(void)
{
    tk_diags *d = tk_diags_new();
    g_assert_null(tk_passes_index("/nonexistent/tkview/stderr.txt", d));
    g_assert_cmpuint(tk_diags_count_at_least(d, TK_DIAG_ERROR), ==, 1);
    g_assert_null(tk_passes_index(tk_test_tmp_dir(), d)); /* a folder */

    char *path = write_temp("passes-empty.txt", "", 0);
    tk_diags *e = tk_diags_new();
    tk_passes *p = index_file(path, e);
    g_assert_cmpuint(tk_passes_count(p), ==, 0);
    g_assert_cmpuint(tk_passes_seq_count(p), ==, 0);
    g_assert_cmpint(tk_passes_content_kind(p), ==, TK_PASSES_FILE_NONE);
    g_assert_cmpuint(tk_diags_count_at_least(e, TK_DIAG_WARNING), ==, 0);
    tk_passes_free(p);
    g_unlink(path);
    g_free(path);

    /* -print-changed: banners with no body, bodies for what changed; a
     * file cut inside the header of the last. */
    const char *text =
        "*** IR Dump At Start ***\n"
        "; ModuleID = 'm'\n"
        "define void @f() {\n"
        "  ret void\n"
        "}\n"
        "*** IR Dump After VerifierPass on [module] omitted because no change "
        "***\n"
        "*** IR Dump After InstSimplifyPass on f ***\n"
        "define void @f() {\n"
        "  ret void\n"
        "}\n"
        "*** IR Pass PassManager<llvm::Function> on f ignored ***\n"
        "*** IR Dump After InstSimplifyPass on g filtered out ***\n"
        "*** IR Dump After NoOpFunctionPass on f omitted because no change ***\n"
        "; *** IR Dump After InstCombinePass on f";
    path = write_temp("passes-banners.txt", text, -1);
    tk_diags *b = tk_diags_new();
    p = index_file(path, b);
    /* "ignored" (the pass manager's wrappers) and "filtered out" (another
     * function) are no passes the IR went through: not indexed, as
     * print-after-all prints neither */
    g_assert_cmpuint(tk_passes_count(p), ==, 5);
    tk_pass_status st[] = {TK_PASS_PRINTED, TK_PASS_NO_CHANGE, TK_PASS_PRINTED,
                           TK_PASS_NO_CHANGE, TK_PASS_PRINTED};
    for (size_t i = 0; i < 5; i++)
        g_assert_cmpint(tk_passes_get(p, i)->status, ==, st[i]);
    g_assert_cmpstr(tk_passes_get(p, 3)->pass, ==, "NoOpFunctionPass");
    g_assert_cmpuint(tk_passes_get(p, 0)->body_lines, ==, 4);
    g_assert_cmpstr(tk_passes_get(p, 0)->kernel, ==, "f");
    g_assert_cmpuint(tk_passes_get(p, 2)->body_lines, ==, 3);
    g_assert_cmpuint(tk_passes_get(p, 1)->flags, ==, 0);
    /* the last header is cut and has no body: two warnings, line 14 */
    const tk_pass_dump *x = tk_passes_get(p, 4);
    g_assert_true(x->flags & TK_PASS_BAD_HEADER);
    g_assert_true(x->flags & TK_PASS_EMPTY);
    g_assert_cmpuint(tk_diags_count_at_least(b, TK_DIAG_WARNING), ==, 2);
    for (size_t i = 0; i < tk_diags_count(b); i++)
        g_assert_cmpuint(tk_diags_get(b, i)->line, ==, 14);
    /* everything is one compile of f */
    g_assert_cmpuint(tk_passes_seq_count(p), ==, 1);
    tk_passes_free(p);
    g_unlink(path);
    g_free(path);
    tk_diags_free(b);
    tk_diags_free(e);
    tk_diags_free(d);
}

/* ---- a big file: memory stays bounded -------------------------------------- */

#define BIG_COPIES 5 /* of compiled_block's 40 MB stderr: 200 MB */

/* Indexes the big file in a fresh process, so that no other test's memory
 * counts, and writes what it measured to REPORT for the parent to show. */
static void big_file_child(const char *path, const char *report)
{
    struct rusage before, after;
    getrusage(RUSAGE_SELF, &before);
    gint64 t0 = g_get_monotonic_time();
    tk_diags *d = tk_diags_new();
    tk_passes *p = tk_passes_index(path, d);
    gint64 t1 = g_get_monotonic_time();
    getrusage(RUSAGE_SELF, &after);
    g_assert_nonnull(p);
    g_assert_cmpuint(tk_passes_count(p), ==, BIG_COPIES * 3124);
    /* Each copy restarts every compile: 5 x 16 sequences. */
    g_assert_cmpuint(tk_passes_seq_count(p), ==, BIG_COPIES * 16);
    g_assert_cmpuint(tk_diags_count(d), ==, 0);
    long grown_kb = after.ru_maxrss - before.ru_maxrss;
    char *msg = g_strdup_printf(
        "indexed %llu bytes in %.2f s; peak RSS %ld KB, grown by %ld KB",
        (unsigned long long)tk_passes_file_size(p), (double)(t1 - t0) / 1e6,
        after.ru_maxrss, grown_kb);
    g_assert_true(g_file_set_contents(report, msg, -1, NULL));
    g_free(msg);
    /* The 4 MB window and ~16k entries; never the 200 MB. */
    g_assert_cmpint(grown_kb, <, 48 * 1024);
    /* The time is in the report, not asserted: a hang is meson's timeout
     * and speed is bench/'s (issue 25). */
    tk_passes_free(p);
    tk_diags_free(d);
}

static void test_big_file(void)
{
    char *path = tk_test_tmp_path("passes-big.txt");
    char *report = tk_test_tmp_path("passes-big.report");
    if (g_test_subprocess()) {
        big_file_child(path, report);
        g_free(path);
        g_free(report);
        return;
    }
    if (!tk_test_have_dumps()) {
        g_free(path);
        g_free(report);
        return;
    }
    gsize len;
    char *data = read_dump_file("compiled_block/stderr.txt", &len);
    FILE *f = fopen(path, "wb");
    g_assert_nonnull(f);
    for (int i = 0; i < BIG_COPIES; i++)
        g_assert_cmpuint(fwrite(data, 1, len, f), ==, len);
    g_assert_cmpint(fclose(f), ==, 0);
    g_free(data);
    g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
    g_unlink(path);
    char *msg = NULL;
    if (g_file_get_contents(report, &msg, NULL, NULL))
        g_test_message("%s", msg);
    g_free(msg);
    g_unlink(report);
    g_free(path);
    g_free(report);
    g_test_trap_assert_passed();
}

/* ---- digests: locations ----------------------------------------------- */

static tk_pass_digest digest_of(tk_stage_kind kind, const char *text)
{
    tk_pass_digest dg;
    tk_pass_digest_text(kind, text, strlen(text), &dg);
    return dg;
}

/* Texts that differ only in their locations have one noloc digest and
 * different exact ones, whichever location changed, and wherever a moved
 * one went.  Lines from vector_add: mlir_passes.txt:2 and 15-16, and
 * stderr.txt:78-79. */
static void test_digest_locations(void)
{
    static const char *const mlir[] = {
        /* the text as dumped */
        "#loc = loc(\"/tmp/capture/vector_add/src/vector_add.py\":7:0)\n"
        "    %pid = tt.get_program_id x : i32 loc(#loc29)\n"
        "    %block_start = arith.constant 1024 : i32 loc(#loc30)\n",
        /* another location on a line */
        "#loc = loc(\"/tmp/capture/vector_add/src/vector_add.py\":7:0)\n"
        "    %pid = tt.get_program_id x : i32 loc(#loc29)\n"
        "    %block_start = arith.constant 1024 : i32 loc(#loc31)\n",
        /* the alias line changed */
        "#loc = loc(\"/tmp/capture/vector_add/src/vector_add.py\":8:0)\n"
        "    %pid = tt.get_program_id x : i32 loc(#loc29)\n"
        "    %block_start = arith.constant 1024 : i32 loc(#loc30)\n",
        /* the same locations on the other lines */
        "#loc = loc(\"/tmp/capture/vector_add/src/vector_add.py\":7:0)\n"
        "    %pid = tt.get_program_id x : i32 loc(#loc30)\n"
        "    %block_start = arith.constant 1024 : i32 loc(#loc29)\n",
        /* the alias line after the code */
        "    %pid = tt.get_program_id x : i32 loc(#loc29)\n"
        "    %block_start = arith.constant 1024 : i32 loc(#loc30)\n"
        "#loc = loc(\"/tmp/capture/vector_add/src/vector_add.py\":7:0)\n",
        /* one location earlier on its line (its bytes and the line's
         * other bytes all the same) */
        "#loc = loc(\"/tmp/capture/vector_add/src/vector_add.py\":7:0)\n"
        "    %pid = tt.get_program_id loc(#loc29) x : i32\n"
        "    %block_start = arith.constant 1024 : i32 loc(#loc30)\n",
    };
    tk_pass_digest m0 = digest_of(TK_STAGE_TTGIR, mlir[0]);
    for (size_t i = 1; i < G_N_ELEMENTS(mlir); i++) {
        tk_pass_digest m = digest_of(TK_STAGE_TTGIR, mlir[i]);
        g_assert_true(m.exact != m0.exact);
        if (i < 5)
            g_assert_true(m.noloc == m0.noloc);
        for (size_t j = 1; j < i; j++)
            g_assert_true(m.exact != digest_of(TK_STAGE_TTGIR, mlir[j]).exact);
    }
    /* the same text: the same digests; a blank line changes neither */
    tk_pass_digest again = digest_of(TK_STAGE_TTGIR, mlir[0]);
    g_assert_true(again.exact == m0.exact && again.noloc == m0.noloc);
    char *blank = g_strconcat(mlir[0], "   \n", NULL);
    tk_pass_digest b = digest_of(TK_STAGE_TTGIR, blank);
    g_assert_true(b.exact == m0.exact && b.noloc == m0.noloc);
    g_free(blank);

    static const char *const llvm[] = {
        "  %7 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !7\n"
        "  %8 = mul i32 %7, 1024, !dbg !8\n"
        "!7 = !DILocation(line: 8, column: 24, scope: !4)\n",
        "  %7 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !8\n"
        "  %8 = mul i32 %7, 1024, !dbg !7\n"
        "!7 = !DILocation(line: 8, column: 24, scope: !4)\n",
        "  %7 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !7\n"
        "  %8 = mul i32 %7, 1024, !dbg !8\n"
        "!7 = !DILocation(line: 9, column: 24, scope: !4)\n",
        "  %7 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !7\n"
        "  %8 = mul i32 %7, 1024\n"
        "!7 = !DILocation(line: 8, column: 24, scope: !4)\n",
    };
    tk_pass_digest l0 = digest_of(TK_STAGE_LLIR, llvm[0]);
    for (size_t i = 1; i < G_N_ELEMENTS(llvm); i++) {
        tk_pass_digest l = digest_of(TK_STAGE_LLIR, llvm[i]);
        g_assert_true(l.exact != l0.exact);
        g_assert_true(l.noloc == l0.noloc);
    }
}

/* ---- a big file indexed in two halves ---------------------------------- */

/* Whether the index may split a big file (it does on two processors or
 * more); says why the test is skipped when not. */
static gboolean two_processors(void)
{
    if (g_get_num_processors() > 1)
        return TRUE;
    g_test_skip("one processor: a big file is never indexed in two halves here");
    return FALSE;
}

/* The reference: PATH indexed in one scan, one thread. */
static tk_passes *index_one_scan(const char *path, tk_diags *d)
{
    tk_passes *p = passes_index_one_scan(path, d);
    g_assert_nonnull(p);
    return p;
}

static void assert_same_index(const tk_passes *a, const tk_passes *b)
{
    g_assert_cmpuint(tk_passes_line_count(a), ==, tk_passes_line_count(b));
    g_assert_cmpuint(tk_passes_count(a), ==, tk_passes_count(b));
    for (size_t i = 0; i < tk_passes_count(a); i++) {
        const tk_pass_dump *x = tk_passes_get(a, i), *y = tk_passes_get(b, i);
        g_assert_cmpuint(x->header_line, ==, y->header_line);
        g_assert_cmpuint(x->header_offset, ==, y->header_offset);
        g_assert_cmpuint(x->body_offset, ==, y->body_offset);
        g_assert_cmpuint(x->body_len, ==, y->body_len);
        g_assert_cmpuint(x->body_lines, ==, y->body_lines);
        g_assert_cmpuint(x->digest.exact, ==, y->digest.exact);
        g_assert_cmpuint(x->digest.noloc, ==, y->digest.noloc);
        g_assert_cmpstr(x->pass, ==, y->pass);
    }
    g_assert_cmpuint(tk_passes_other_count(a), ==, tk_passes_other_count(b));
    for (size_t i = 0; i < tk_passes_other_count(a); i++) {
        const tk_pass_range *x = tk_passes_other(a, i), *y = tk_passes_other(b, i);
        g_assert_cmpuint(x->line, ==, y->line);
        g_assert_cmpuint(x->n_lines, ==, y->n_lines);
        g_assert_cmpuint(x->offset, ==, y->offset);
    }
}

/* persistent_tma_matmul's stderr.txt (142 MB, 386764 lines) is indexed in
 * two halves on two CPUs, the second numbering its lines from the cut and
 * moved down once the first is done: the same index as one scan, line
 * numbers included.  The last two dump headers are lines 384787 ("# *** IR
 * Dump After Stack Frame Layout Analysis") and 385776 ("# *** IR Dump
 * After NVPTX Assembly Printer"), grep -n. */
static void test_split_halves(void)
{
    if (!tk_test_have_dumps() || !two_processors())
        return;
    char *path = tk_test_dump_path("persistent_tma_matmul/stderr.txt");
    tk_diags *d = tk_diags_new();
    tk_passes *two = index_file(path, d), *one = index_one_scan(path, d);
    g_assert_cmpuint(tk_diags_count(d), ==, 0);
    assert_same_index(two, one);
    size_t n = tk_passes_count(two);
    g_assert_cmpuint(tk_passes_line_count(two), ==, 386764);
    g_assert_cmpuint(tk_passes_get(two, n - 2)->header_line, ==, 384787);
    g_assert_cmpuint(tk_passes_get(two, n - 1)->header_line, ==, 385776);
    tk_passes_free(two);
    tk_passes_free(one);
    tk_diags_free(d);
    g_free(path);
}

/* The second half has something to say (binary data in the last dump's
 * body): its message names the line counted from the top of the file. */
static void test_split_halves_message(void)
{
    if (!tk_test_have_dumps() || !two_processors())
        return;
    gsize len;
    char *data = read_dump_file("persistent_tma_matmul/stderr.txt", &len);
    /* Line 385778, two lines under the last header (385776): its bytes
     * replaced by binary ones. */
    const char *p = data;
    for (int l = 1; l < 385778; l++)
        p = (const char *)memchr(p, '\n', len - (size_t)(p - data)) + 1;
    GString *s = g_string_new_len(data, p - data);
    for (int i = 0; i < 64; i++)
        g_string_append_c(s, (char)(i % 5 == 0 ? 0 : 0x81 + i));
    g_string_append_c(s, '\n');
    const char *rest = (const char *)memchr(p, '\n', len - (size_t)(p - data)) + 1;
    g_string_append_len(s, rest, (gssize)(len - (size_t)(rest - data)));
    char *path = write_temp("passes-split-binary.txt", s->str, (gssize)s->len);
    g_string_free(s, TRUE);
    g_free(data);
    tk_diags *d = tk_diags_new(), *d1 = tk_diags_new();
    tk_passes *two = index_file(path, d), *one = index_one_scan(path, d1);
    g_assert_cmpuint(count_warnings_with(d, "binary data at line 385778"), ==, 1);
    g_assert_cmpuint(tk_diags_count(d), ==, tk_diags_count(d1));
    assert_same_index(two, one);
    tk_passes_free(two);
    tk_passes_free(one);
    tk_diags_free(d);
    tk_diags_free(d1);
    g_unlink(path);
    g_free(path);
}

/* A gzip file of two members (as a bundle may hold) read as its text:
 * autotuned_matmul's MLIR dumps (21 MB, so the text spans several restart
 * points) indexed from the .gz must give the same dumps as the plain file,
 * and any byte range read at any offset, in any order, must be the plain
 * file's bytes. */
static void test_gzip_random_access(void)
{
    if (!tk_test_have_dumps())
        return;
    gsize len;
    char *data = read_dump_file("autotuned_matmul/mlir_passes.txt", &len);
    char *plain = tk_test_tmp_path("passes-gz.txt");
    char *gz = tk_test_tmp_path("passes-gz.txt.gz");
    g_assert_true(g_file_set_contents(plain, data, (gssize)len, NULL));
    /* Two members, cut at a line start in the middle. */
    const char *mid = memchr(data + len / 2, '\n', len - len / 2);
    g_assert_nonnull(mid);
    size_t cut = (size_t)(mid + 1 - data);
    for (int m = 0; m < 2; m++) {
        gzFile f = gzopen(gz, m ? "ab1" : "wb1");
        g_assert_nonnull(f);
        size_t from = m ? cut : 0, to = m ? len : cut;
        for (size_t at = from; at < to;) {
            unsigned n = (unsigned)MIN((size_t)1 << 20, to - at);
            g_assert_cmpint(gzwrite(f, data + at, n), ==, (int)n);
            at += n;
        }
        g_assert_cmpint(gzclose(f), ==, Z_OK);
    }
    tk_diags *d = tk_diags_new();
    tk_passes *a = tk_passes_index(plain, d), *b = tk_passes_index(gz, d);
    g_assert_nonnull(a);
    g_assert_nonnull(b);
    g_assert_cmpuint(tk_diags_count_at_least(d, TK_DIAG_WARNING), ==, 0);
    g_assert_cmpuint(tk_passes_file_size(b), ==, len);
    g_assert_cmpuint(tk_passes_line_count(b), ==, tk_passes_line_count(a));
    g_assert_cmpuint(tk_passes_count(b), ==, tk_passes_count(a));
    g_assert_cmpuint(tk_passes_seq_count(b), ==, tk_passes_seq_count(a));
    for (size_t i = 0; i < tk_passes_count(a); i++) {
        const tk_pass_dump *x = tk_passes_get(a, i), *y = tk_passes_get(b, i);
        g_assert_cmpuint(x->body_offset, ==, y->body_offset);
        g_assert_cmpuint(x->digest.exact, ==, y->digest.exact);
    }
    /* Every dump, last to first (each read restarts), then random ranges. */
    for (size_t i = tk_passes_count(b); i-- > 0;) {
        size_t n;
        char *t = tk_passes_read(b, i, &n, d);
        g_assert_nonnull(t);
        const tk_pass_dump *x = tk_passes_get(a, i);
        g_assert_cmpuint(n, ==, x->body_len);
        g_assert_true(memcmp(t, data + x->body_offset, n) == 0);
        g_free(t);
    }
    GRand *r = g_rand_new_with_seed(11);
    char *buf = g_malloc(1 << 20);
    for (int k = 0; k < 200; k++) {
        uint64_t off = (uint64_t)g_rand_double_range(r, 0, (double)len);
        size_t want = (size_t)g_rand_int_range(r, 1, 1 << 20);
        int64_t got = tk_passes_read_at(b, off, buf, want, d);
        g_assert_cmpint(got, ==, (int64_t)MIN((uint64_t)want, len - off));
        g_assert_true(memcmp(buf, data + off, (size_t)got) == 0);
    }
    g_free(buf);
    g_rand_free(r);
    tk_passes_free(a);
    tk_passes_free(b);
    tk_diags_free(d);
    g_unlink(plain);
    g_unlink(gz);
    g_free(plain);
    g_free(gz);
    g_free(data);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/passes/headers/mlir", test_headers_mlir);
    g_test_add_func("/passes/headers/llvm", test_headers_llvm);
    g_test_add_func("/passes/vector-add/mlir", test_vector_add_mlir);
    g_test_add_func("/passes/vector-add/stderr", test_vector_add_stderr);
    g_test_add_func("/passes/compiled-block", test_compiled_block);
    g_test_add_func("/passes/autotuned", test_autotuned);
    g_test_add_func("/passes/gluon", test_gluon);
    g_test_add_func("/passes/sniff", test_sniff);
    g_test_add_func("/passes/content-kind", test_content_kind);
    g_test_add_func("/passes/bad/cut", test_cut_mid_module);
    g_test_add_func("/passes/bad/no-body-and-garbage",
                    test_header_without_body_and_garbage);
    g_test_add_func("/passes/bad/interleaved", test_interleaved_processes);
    g_test_add_func("/passes/bad/binary", test_binary_data);
    g_test_add_func("/passes/bad/window-and-crlf", test_window_and_crlf);
    g_test_add_func("/passes/bad/empty-missing-banners",
                    test_empty_missing_and_banners);
    g_test_add_func("/passes/big-file", test_big_file);
    g_test_add_func("/passes/split-halves", test_split_halves);
    g_test_add_func("/passes/digest/locations", test_digest_locations);
    g_test_add_func("/passes/split-halves/message", test_split_halves_message);
    g_test_add_func("/passes/gzip-random-access", test_gzip_random_access);
    return g_test_run();
}
