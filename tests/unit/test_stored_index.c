/* test_stored_index.c - the index a bundle stores beside each pass dump
 * slice (docs/bundle.md, "The stored index of a slice"): read instead of
 * the text, the same as the index of the text, and refused (with a
 * warning naming it, the text indexed instead) when it lies.
 *
 * Expected values were read from the dump text:
 *   zcat sample_dumps/attention_fwd/attn_fwd-e75ec6eb/passes/mlir.txt.gz |
 *     grep -c 'IR Dump'                                      82
 *   ... | grep -n 'IR Dump' | sed -n 5p: line 2624, "IR Dump Before
 *     Canonicalizer (canonicalize)"
 * A slice keeps its dumps (headers and bodies) in file order, so the
 * bundle made from it holds the same 82.
 */
#include <glib/gstdio.h>
#include <string.h>

#include "passes/internal.h"
#include "tk_test.h"
#include "tkdump/tk_bundle_load.h"
#include "tkdump/tk_bundle_passes.h"
#include "tkdump/tk_bundle_write.h"
#include "tkdump/tk_input_file.h"
#include "tkdump/tk_passes.h"

#define ATTN_DUMPS 82

static gboolean diag_has(const tk_diags *d, tk_diag_severity sev, const char *file_part,
                         const char *msg_part)
{
    for (size_t i = 0; i < tk_diags_count(d); i++) {
        const tk_diag *x = tk_diags_get(d, i);
        if (x->severity == sev && x->file && strstr(x->file, file_part) &&
            strstr(x->message, msg_part))
            return TRUE;
    }
    return FALSE;
}

/* sample_dumps/attention_fwd (a format-1 bundle: a gzip slice, no stored
 * index) saved again into DIR/b: a refs slice with its stored index. */
static char *save_attention(const char *dir)
{
    const char *samples = g_getenv("TK_TEST_SAMPLES");
    char *in = g_build_filename(samples, "attention_fwd", NULL);
    char *out = g_build_filename(dir, "b", NULL);
    tk_diags *d = tk_diags_new();
    tk_bundle *b = tk_bundle_load(in, NULL, d);
    g_assert_nonnull(b);
    g_assert_cmpint(tk_bundle_save(b, out, d), ==, 0);
    tk_bundle_free(b);
    tk_diags_free(d);
    g_free(in);
    return out;
}

/* Replaces the first FROM in the file PATH by TO. */
static void edit_file(const char *path, const char *from, const char *to)
{
    char *text = NULL;
    g_assert_true(g_file_get_contents(path, &text, NULL, NULL));
    char *at = strstr(text, from);
    g_assert_nonnull(at);
    GString *s = g_string_new_len(text, at - text);
    g_string_append(s, to);
    g_string_append(s, at + strlen(from));
    g_assert_true(g_file_set_contents(path, s->str, (gssize)s->len, NULL));
    g_string_free(s, TRUE);
    g_free(text);
}

/* The bundle's stored index (one zstd frame, mlir.index.zst) written out
 * plain as mlir.index, which the manifest then names, for a test to edit:
 * its path. */
static char *plain_index(const char *bundle)
{
    char *zst = g_build_filename(bundle, "attn_fwd-e75ec6eb", "passes", "mlir.index.zst", NULL);
    g_assert_true(g_file_test(zst, G_FILE_TEST_IS_REGULAR));
    size_t len = 0;
    char *why = NULL;
    char *text = tk_input_file_read(zst, TK_INPUT_FILE_MANIFEST, &len, &why);
    g_assert_nonnull(text);
    g_assert_true(g_str_has_prefix(text, "tkview-pass-index 1\n"));
    char *plain = g_strndup(zst, strlen(zst) - 4);
    g_assert_true(g_file_set_contents(plain, text, (gssize)len, NULL));
    char *man = g_build_filename(bundle, "manifest.json", NULL);
    edit_file(man, "passes/mlir.index.zst\"", "passes/mlir.index\"");
    g_free(man);
    g_free(text);
    g_free(zst);
    return plain;
}

static void assert_same_dump(const tk_pass_dump *a, const tk_pass_dump *b)
{
    g_assert_cmpuint(a->header_offset, ==, b->header_offset);
    g_assert_cmpuint(a->header_line, ==, b->header_line);
    g_assert_cmpuint(a->body_offset, ==, b->body_offset);
    g_assert_cmpuint(a->body_len, ==, b->body_len);
    g_assert_cmpuint(a->body_lines, ==, b->body_lines);
    g_assert_cmpint(a->kind, ==, b->kind);
    g_assert_cmpint(a->when, ==, b->when);
    g_assert_cmpint(a->status, ==, b->status);
    g_assert_cmpint(a->scope_kind, ==, b->scope_kind);
    g_assert_cmpint(a->level, ==, b->level);
    g_assert_cmpuint(a->flags, ==, b->flags);
    g_assert_cmpstr(a->pass, ==, b->pass);
    g_assert_cmpstr(a->arg, ==, b->arg);
    g_assert_cmpstr(a->scope, ==, b->scope);
    g_assert_cmpstr(a->scope_name, ==, b->scope_name);
    g_assert_cmpstr(a->kernel, ==, b->kernel);
    g_assert_cmpstr(a->module_attrs, ==, b->module_attrs);
    g_assert_cmpuint(a->n_functions, ==, b->n_functions);
    for (size_t i = 0; i < a->n_functions; i++)
        g_assert_cmpstr(a->functions[i], ==, b->functions[i]);
    g_assert_cmpuint(a->digest.exact, ==, b->digest.exact);
    g_assert_cmpuint(a->digest.noloc, ==, b->digest.noloc);
    g_assert_cmpuint(a->seq, ==, b->seq);
}

/* Every pass file of BUNDLE: read from its stored index (no text read), and
 * the same, field by field, as the index of its text. */
static void assert_stored_is_text(const char *bundle, size_t want_files)
{
    tk_diags *d = tk_diags_new();
    tk_bundle *c = tk_bundle_load(bundle, NULL, d);
    g_assert_nonnull(c);
    g_assert_cmpuint(tk_bundle_pass_file_count(c, d), ==, want_files);
    if (tk_diags_count_at_least(d, TK_DIAG_WARNING) > 0)
        tk_test_print_diags(d);
    g_assert_cmpuint(tk_diags_count_at_least(d, TK_DIAG_WARNING), ==, 0);
    for (size_t f = 0; f < want_files; f++) {
        const tk_passes *q = tk_bundle_pass_file(c, f);
        g_assert_true(tk_passes_is_stored(q));
        tk_passes *r = tk_passes_index(tk_passes_path(q), d);
        g_assert_nonnull(r);
        passes_attribute_one_compile(r);
        g_assert_cmpuint(tk_passes_count(q), ==, tk_passes_count(r));
        g_assert_cmpuint(tk_passes_file_size(q), ==, tk_passes_file_size(r));
        g_assert_cmpuint(tk_passes_line_count(q), ==, tk_passes_line_count(r));
        g_assert_cmpuint(tk_passes_other_count(r), ==, 0);
        g_assert_cmpuint(tk_passes_seq_count(q), ==, tk_passes_seq_count(r));
        for (size_t i = 0; i < tk_passes_count(q); i++)
            assert_same_dump(tk_passes_get(q, i), tk_passes_get(r, i));
        for (size_t s = 0; s < tk_passes_seq_count(q); s++)
            g_assert_cmpuint(tk_passes_seq(q, s)->n_dumps, ==, tk_passes_seq(r, s)->n_dumps);
        /* Every body reads back and passes its check. */
        for (size_t i = 0; i < tk_passes_count(q); i++) {
            size_t len = 0;
            char *body = tk_passes_read(q, i, &len, d);
            g_assert_nonnull(body);
            g_free(body);
        }
        g_assert_true(tk_passes_is_stored(q));
        tk_passes_free(r);
    }
    g_assert_cmpuint(tk_diags_count_at_least(d, TK_DIAG_WARNING), ==, 0);
    tk_bundle_free(c);
    tk_diags_free(d);
}

static void test_same_as_text(void)
{
    char *dir = tk_test_make_tmp("stored-XXXXXX");
    char *b = save_attention(dir);
    assert_stored_is_text(b, 1);
    tk_diags *d = tk_diags_new();
    tk_bundle *c = tk_bundle_load(b, NULL, d);
    g_assert_cmpuint(tk_passes_count(tk_bundle_pass_file(c, 0)), ==, ATTN_DUMPS);
    const tk_pass_dump *fifth = tk_passes_get(tk_bundle_pass_file(c, 0), 4);
    g_assert_cmpuint(fifth->header_line, ==, 2624);
    g_assert_cmpstr(fifth->pass, ==, "Canonicalizer");
    tk_bundle_free(c);
    tk_diags_free(d);
    g_free(b);
    tk_test_remove_tree(dir);
    g_free(dir);
}

/* Two slices per kernel, 16 kernels: compiled_block's MLIR and LLVM
 * dumps. */
static void test_same_as_text_many(void)
{
    if (!tk_test_have_dumps())
        return;
    char *dir = tk_test_make_tmp("stored-XXXXXX");
    char *out = g_build_filename(dir, "b", NULL);
    tk_diags *d = tk_diags_new();
    char *in = tk_test_dump_path("compiled_block");
    tk_bundle *b = tk_bundle_load(in, NULL, d);
    g_assert_nonnull(b);
    g_assert_cmpint(tk_bundle_save(b, out, d), ==, 0);
    tk_bundle_free(b);
    assert_stored_is_text(out, 32);
    tk_diags_free(d);
    g_free(in);
    g_free(out);
    tk_test_remove_tree(dir);
    g_free(dir);
}

/* The numbers of dump line N (1-based) of the index text, and where its
 * line starts. */
static char *dump_line(const char *text, int n)
{
    const char *p = strchr(text, '\n') + 1; /* the magic */
    p = strchr(p, '\n') + 1;                /* the counts */
    for (int i = 1; i < n; i++)
        p = strchr(p, '\n') + 1;
    return g_strndup(p, strchr(p, '\n') - p);
}

/* A stored index edited by EDIT is refused when the bundle is loaded (a
 * warning naming the index file, saying WHY), and the text indexed
 * instead: the same 82 dumps. */
typedef void (*edit_fn)(const char *index);

static void refused(edit_fn edit, const char *why)
{
    char *dir = tk_test_make_tmp("stored-XXXXXX");
    char *b = save_attention(dir);
    char *index = plain_index(b);
    edit(index);
    tk_diags *d = tk_diags_new();
    tk_bundle *c = tk_bundle_load(b, NULL, d);
    g_assert_cmpuint(tk_bundle_pass_file_count(c, d), ==, 1);
    if (!diag_has(d, TK_DIAG_WARNING, "mlir.index", why))
        tk_test_print_diags(d);
    g_assert_true(diag_has(d, TK_DIAG_WARNING, "mlir.index", "not used"));
    g_assert_true(diag_has(d, TK_DIAG_WARNING, "mlir.index", why));
    const tk_passes *q = tk_bundle_pass_file(c, 0);
    g_assert_false(tk_passes_is_stored(q));
    g_assert_cmpuint(tk_passes_count(q), ==, ATTN_DUMPS);
    g_assert_cmpstr(tk_passes_get(q, 4)->pass, ==, "Canonicalizer");
    tk_bundle_free(c);
    tk_diags_free(d);
    g_free(index);
    g_free(b);
    tk_test_remove_tree(dir);
    g_free(dir);
}

static void more_dumps(const char *index)
{
    edit_file(index, " dumps 82 ", " dumps 83 ");
}

static void fewer_dumps(const char *index)
{
    edit_file(index, " dumps 82 ", " dumps 81 ");
}

/* The last dump's body runs 1 GB past the end of the text. */
static void past_the_end(const char *index)
{
    char *text = NULL;
    g_assert_true(g_file_get_contents(index, &text, NULL, NULL));
    char *line = dump_line(text, ATTN_DUMPS);
    char **f = g_strsplit(line, " ", 5);
    char *from = g_strdup_printf("%s %s %s %s ", f[0], f[1], f[2], f[3]);
    char *to = g_strdup_printf("%s %s %s 1000000000 ", f[0], f[1], f[2]);
    edit_file(index, from, to);
    g_free(from);
    g_free(to);
    g_strfreev(f);
    g_free(line);
    g_free(text);
}

/* Dump 3 claimed to start on line 1, before dump 2. */
static void out_of_order(const char *index)
{
    char *text = NULL;
    g_assert_true(g_file_get_contents(index, &text, NULL, NULL));
    char *line = dump_line(text, 3);
    char **f = g_strsplit(line, " ", 3);
    char *from = g_strdup_printf("\n%s %s ", f[0], f[1]);
    char *to = g_strdup_printf("\n%s 1 ", f[0]);
    edit_file(index, from, to);
    g_free(from);
    g_free(to);
    g_strfreev(f);
    g_free(line);
    g_free(text);
}

/* Dump 5 claimed to be another pass than its header says. */
static void wrong_pass(const char *index)
{
    edit_file(index, "\tCanonicalizer\t", "\tCSE\t");
}

/* Made for another text size. */
static void wrong_size(const char *index)
{
    edit_file(index, "text ", "text 1");
}

static void test_lies(void)
{
    refused(more_dumps, "lists 82 dumps, not the 83");
    refused(fewer_dumps, "more dumps than the 81");
    refused(past_the_end, "outside the slice's text");
    refused(out_of_order, "does not come after the dump before it");
    refused(wrong_pass, "names pass \"Canonicalizer\", the stored index \"CSE\"");
    refused(wrong_size, "bytes of text; the slice has");
}

/* A stored index edited by EDIT, which changes how numbers are written
 * but not what they are, is used as it was: the same 82 dumps, read from
 * it (its numbers are read as strtoull() reads them, issue 25's quicker
 * reader too). */
static void accepted(edit_fn edit)
{
    char *dir = tk_test_make_tmp("stored-XXXXXX");
    char *b = save_attention(dir);
    char *index = plain_index(b);
    edit(index);
    tk_diags *d = tk_diags_new();
    tk_bundle *c = tk_bundle_load(b, NULL, d);
    g_assert_cmpuint(tk_bundle_pass_file_count(c, d), ==, 1);
    if (diag_has(d, TK_DIAG_WARNING, "mlir.index", "not used"))
        tk_test_print_diags(d);
    g_assert_false(diag_has(d, TK_DIAG_WARNING, "mlir.index", "not used"));
    const tk_passes *q = tk_bundle_pass_file(c, 0);
    g_assert_true(tk_passes_is_stored(q));
    g_assert_cmpuint(tk_passes_count(q), ==, ATTN_DUMPS);
    g_assert_cmpstr(tk_passes_get(q, 4)->pass, ==, "Canonicalizer");
    tk_bundle_free(c);
    tk_diags_free(d);
    g_free(index);
    g_free(b);
    tk_test_remove_tree(dir);
    g_free(dir);
}

/* Field NUM (0-based) of the first dump's line rewritten by HOW. */
static void edit_first_number(const char *index, int num, char *(*how)(const char *))
{
    char *text = NULL;
    g_assert_true(g_file_get_contents(index, &text, NULL, NULL));
    char *line = dump_line(text, 1);
    char *tab = strchr(line, '\t');
    *tab = '\0';
    char **f = g_strsplit(line, " ", -1);
    char *from = g_strjoinv(" ", f);
    char *was = f[num];
    f[num] = how(was);
    char *to = g_strjoinv(" ", f);
    g_free(f[num]);
    f[num] = was;
    char *from_nl = g_strconcat("\n", from, "\t", NULL);
    char *to_nl = g_strconcat("\n", to, "\t", NULL);
    edit_file(index, from_nl, to_nl);
    g_free(from_nl);
    g_free(to_nl);
    g_free(from);
    g_free(to);
    g_strfreev(f);
    g_free(line);
    g_free(text);
}

static char *zero_padded(const char *n)
{
    return g_strconcat("000000000000000000000", n, NULL); /* 21 zeros */
}

static char *upper_case(const char *n)
{
    return g_ascii_strup(n, -1);
}

static char *overflowing(const char *n)
{
    (void)n;
    return g_strdup("18446744073709551616"); /* 2^64 */
}

static char *signed_number(const char *n)
{
    return g_strconcat("+", n, NULL);
}

static void header_line_padded(const char *index)
{
    edit_first_number(index, 1, zero_padded);
}

static void digest_upper_case(const char *index)
{
    edit_first_number(index, 11, upper_case);
}

static void offset_overflows(const char *index)
{
    edit_first_number(index, 0, overflowing);
}

static void body_length_signed(const char *index)
{
    edit_first_number(index, 3, signed_number);
}

static void test_numbers(void)
{
    accepted(header_line_padded);
    accepted(digest_upper_case);
    refused(offset_overflows, "field 1 is not a number");
    refused(body_length_signed, "field 4 is not a number");
}

static gboolean diag_says(const tk_diags *d, const char *msg_part)
{
    for (size_t i = 0; i < tk_diags_count(d); i++)
        if (strstr(tk_diags_get(d, i)->message, msg_part))
            return TRUE;
    return FALSE;
}

/* The text of a pool's small frames is decoded once per process and kept
 * (passes/frame_cache.c): a refs file read after that claiming a frame
 * holds another length than it does is still refused, as it would be on
 * a first read (the frame is decoded again, and says otherwise). */
static void test_frame_cache_checks_length(void)
{
    char *dir = tk_test_make_tmp("stored-XXXXXX");
    char *b = save_attention(dir);
    tk_diags *d = tk_diags_new();
    tk_bundle *c = tk_bundle_load(b, NULL, d); /* every header read back: kept */
    g_assert_cmpuint(tk_bundle_pass_file_count(c, d), ==, 1);
    g_assert_true(tk_passes_is_stored(tk_bundle_pass_file(c, 0)));
    g_assert_false(diag_says(d, "does not declare"));
    tk_bundle_free(c);
    tk_diags_free(d);
    /* The first piece (the first dump's header, a frame of its own):
     * "IN IN_LEN LEN" -> "IN IN_LEN LEN-1". */
    char *refs = g_build_filename(b, "attn_fwd-e75ec6eb", "passes", "mlir.refs", NULL);
    char *text = NULL;
    g_assert_true(g_file_get_contents(refs, &text, NULL, NULL));
    char **lines = g_strsplit(text, "\n", 4);
    char **f = g_strsplit(lines[2], " ", -1);
    g_assert_cmpuint(g_strv_length(f), ==, 3);
    guint64 len = g_ascii_strtoull(f[2], NULL, 10);
    g_assert_cmpuint(len, >, 1);
    g_assert_cmpuint(len, <=, 4096);
    char *from = g_strdup_printf("\n%s\n", lines[2]);
    char *to = g_strdup_printf("\n%s %s %" G_GUINT64_FORMAT "\n", f[0], f[1], len - 1);
    edit_file(refs, from, to);
    d = tk_diags_new();
    c = tk_bundle_load(b, NULL, d);
    tk_bundle_pass_file_count(c, d);
    if (!diag_says(d, "does not declare the size of text the refs file gives"))
        tk_test_print_diags(d);
    g_assert_true(diag_says(d, "does not declare the size of text the refs file gives"));
    tk_bundle_free(c);
    tk_diags_free(d);
    g_free(from);
    g_free(to);
    g_strfreev(f);
    g_strfreev(lines);
    g_free(text);
    g_free(refs);
    g_free(b);
    tk_test_remove_tree(dir);
    g_free(dir);
}

/* A lie only the body shows (a digest): accepted when loaded, found when
 * that body is read, said so naming the slice, and the text indexed. */
static void test_body_lie(void)
{
    char *dir = tk_test_make_tmp("stored-XXXXXX");
    char *b = save_attention(dir);
    char *index = plain_index(b);
    char *text = NULL;
    g_assert_true(g_file_get_contents(index, &text, NULL, NULL));
    char *line = dump_line(text, 7);
    char **f = g_strsplit(line, " ", -1);
    /* field 13: the digest without locations (the line is unique: it
     * starts with the dump's offset) */
    g_free(f[12]);
    f[12] = g_strdup("0123456789abcdef");
    char *to = g_strjoinv(" ", f);
    char *from = g_strdup(line);
    edit_file(index, from, to);
    tk_diags *d = tk_diags_new();
    tk_bundle *c = tk_bundle_load(b, NULL, d);
    g_assert_cmpuint(tk_bundle_pass_file_count(c, d), ==, 1);
    const tk_passes *q = tk_bundle_pass_file(c, 0);
    g_assert_true(tk_passes_is_stored(q));
    g_assert_cmpuint(tk_diags_count_at_least(d, TK_DIAG_WARNING), ==, 0);
    size_t len = 0;
    char *body = tk_passes_read(q, 6, &len, d);
    g_assert_nonnull(body);
    g_assert_true(diag_has(d, TK_DIAG_WARNING, "mlir.refs", "does not match its text"));
    g_assert_true(diag_has(d, TK_DIAG_WARNING, "mlir.refs", "dump 7"));
    g_assert_false(tk_passes_is_stored(q));
    g_assert_cmpuint(tk_passes_count(q), ==, ATTN_DUMPS);
    g_assert_cmpuint(len, ==, tk_passes_get(q, 6)->body_len);
    g_free(body);
    tk_bundle_free(c);
    tk_diags_free(d);
    g_free(from);
    g_free(to);
    g_strfreev(f);
    g_free(line);
    g_free(text);
    g_free(index);
    g_free(b);
    tk_test_remove_tree(dir);
    g_free(dir);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/stored-index/same-as-text", test_same_as_text);
    g_test_add_func("/stored-index/same-as-text/compiled-block", test_same_as_text_many);
    g_test_add_func("/stored-index/lies", test_lies);
    g_test_add_func("/stored-index/body-lie", test_body_lie);
    g_test_add_func("/stored-index/numbers", test_numbers);
    g_test_add_func("/stored-index/frame-cache", test_frame_cache_checks_length);
    return g_test_run();
}
