/* stored.c - a pass dump index stored beside a bundle's slice, written
 * with it (passfiles/slice.c) and read back instead of inflating and
 * scanning the slice (issue 25: indexing one 7 MB slice was most of
 * `tkview info`).  docs/bundle.md, "The stored index of a slice".
 *
 * A bundle may come from a stranger, so nothing in the stored index is
 * taken on trust: every number is checked against the slice it is for
 * (its refs file's size, its text's size), offsets must increase and stay
 * inside the text, and each dump's header is read back from the text (a
 * header is a piece of its own in the pool: a small zstd frame, no body
 * inflated) and must say what the stored index says.  A body is checked
 * when it is read (read.c, passes_stored_check_body()).  What fails makes
 * the caller index the text instead, after a warning naming the file. */
#include "passes/index_builder.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Dumps per stored index, at most: as many as one load may index. */
#define STORED_MAX_DUMPS ((uint64_t)256 << 10)
/* Functions per dump, at most. */
#define STORED_MAX_FUNCS 100000
/* A header (its line, and the line that may complete it) longer than this
 * is not checked but refused: real ones are a few hundred bytes. */
#define STORED_MAX_HEAD ((uint64_t)64 << 10)
#define N_NUMS 14

void passes_stored_begin(GString *out)
{
    g_string_truncate(out, 0);
}

static void put_str(GString *out, const char *s)
{
    char *e = g_strescape(s ? s : "", NULL);
    g_string_append_c(out, '\t');
    g_string_append(out, e);
    g_free(e);
}

void passes_stored_dump(GString *out, const tk_pass_dump *d, uint64_t header_offset,
                        uint64_t header_line, uint64_t body_offset)
{
    g_string_append_printf(
        out,
        "%" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT
        " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %d %d %d %d %d %u %016" G_GINT64_MODIFIER
        "x %016" G_GINT64_MODIFIER "x %zu",
        header_offset, header_line, body_offset, d->body_len, d->body_lines, (int)d->kind,
        (int)d->when, (int)d->status, (int)d->scope_kind, (int)d->level, d->flags,
        d->digest.exact, d->digest.noloc, d->n_functions);
    put_str(out, d->pass);
    put_str(out, d->arg);
    put_str(out, d->scope);
    put_str(out, d->scope_name);
    put_str(out, d->kernel);
    put_str(out, d->module_attrs);
    for (size_t i = 0; i < d->n_functions; i++)
        put_str(out, d->functions[i]);
    g_string_append_c(out, '\n');
}

char *passes_stored_finish(const GString *dumps, size_t n_dumps, uint64_t text_size,
                           uint64_t n_lines, uint64_t refs_size)
{
    return g_strdup_printf("%stext %" G_GUINT64_FORMAT " lines %" G_GUINT64_FORMAT
                           " dumps %zu refs %" G_GUINT64_FORMAT "\n%s",
                           PASSES_STORED_MAGIC, text_size, n_lines, n_dumps, refs_size,
                           dumps->str);
}

/* ---- reading ---------------------------------------------------------- */

static int parse_u64(const char *s, int base, uint64_t *v)
{
    size_t n = passes_digits_u64(s, base, v);
    if (n && !s[n])
        return 0;
    if (!*s || *s == '-' || *s == '+' || *s == ' ')
        return -1;
    char *end = NULL;
    errno = 0;
    unsigned long long x = strtoull(s, &end, base);
    if (errno || *end)
        return -1;
    *v = x;
    return 0;
}

/* The string of stored field F, interned in P.  PREV_RAW is the same
 * field of the line before (NULL: none) and PREV its string: a field
 * written as it was is that string again (a slice's dumps mostly share
 * their module attributes, kernel, scope and functions), with no
 * unescaping or hashing of long strings.  Fields are escaped as
 * g_strescape() writes them, so undone by g_strcompress() where they hold
 * a backslash (its copy and free, and the interning's, were half of reading
 * an index: issue 25). */
static const char *stored_string(tk_passes *p, const char *f, const char *prev_raw,
                                 const char *prev)
{
    if (prev_raw && strcmp(prev_raw, f) == 0)
        return prev;
    if (!strchr(f, '\\'))
        return passes_intern_str(p, f);
    char *c = g_strcompress(f);
    const char *s = passes_intern(p, c, strlen(c));
    g_free(c);
    return s;
}

/* Cuts LINE in place at each SEP into NUL-terminated fields, as
 * g_strsplit() would (an empty LINE has none): at most MAX of them into F,
 * and how many there are. */
static size_t cut_fields(char *line, char sep, char **f, size_t max)
{
    if (!*line)
        return 0;
    size_t n = 0;
    for (char *s = line;; n++) {
        char *e = strchr(s, sep);
        if (n < max)
            f[n] = s;
        if (!e)
            return n + 1;
        *e = '\0';
        s = e + 1;
    }
}

/* One dump line into P; NULL, or why it is refused (caller frees).  LINE
 * is cut in place; PREV holds the last line's strings' fields (each string
 * field, the functions after the last), updated to this one's. */
static char *parse_dump(tk_passes *p, char *line, uint64_t text_size, uint64_t n_lines,
                        char *prev[6])
{
    /* Its fields, tab-separated: the numbers, the six strings, then the
     * functions (counted first: a count that does not match refuses the
     * line before any is read). */
    char *fixed[7];
    size_t nf = cut_fields(line, '\t', fixed, 7);
    char *nums[N_NUMS + 1];
    uint64_t v[N_NUMS];
    if (nf == 0 || cut_fields(fixed[0], ' ', nums, N_NUMS + 1) != N_NUMS)
        return g_strdup("not the fields of a dump");
    for (int i = 0; i < N_NUMS; i++)
        if (parse_u64(nums[i], i == 11 || i == 12 ? 16 : 10, &v[i]) != 0)
            return g_strdup_printf("field %d is not a number", i + 1);
    if (v[13] > STORED_MAX_FUNCS || nf != 7 + v[13])
        return g_strdup("its count of functions does not match them");
    if (v[5] > TK_PASS_LLVM_MACHINE || v[6] > TK_PASS_LABEL || v[7] > TK_PASS_NO_FUNCTION ||
        v[8] > TK_PASS_SCOPE_LOOP || v[9] > TK_PASS_LEVEL_MACHINE || v[10] > 0xffff)
        return g_strdup("a kind, status or level out of range");
    tk_pass_dump d;
    memset(&d, 0, sizeof d);
    d.header_offset = v[0];
    d.header_line = v[1];
    d.body_offset = v[2];
    d.body_len = v[3];
    d.body_lines = v[4];
    if (d.body_offset <= d.header_offset || d.body_offset > text_size ||
        d.body_len > text_size - d.body_offset || d.header_line == 0 ||
        d.header_line > n_lines || d.body_lines > n_lines ||
        d.body_offset - d.header_offset > STORED_MAX_HEAD)
        return g_strdup("its offsets or lines lie outside the slice's text");
    const tk_pass_dump *pd =
        p->dumps->len ? &g_array_index(p->dumps, tk_pass_dump, p->dumps->len - 1) : NULL;
    if (pd && (d.header_offset < pd->body_offset + pd->body_len ||
               d.header_line <= pd->header_line + pd->body_lines))
        return g_strdup("it does not come after the dump before it");
    d.kind = (tk_pass_kind)v[5];
    d.when = (tk_pass_when)v[6];
    d.status = (tk_pass_status)v[7];
    d.scope_kind = (tk_pass_scope_kind)v[8];
    d.level = (tk_pass_level)v[9];
    d.flags = (unsigned)v[10];
    d.digest.exact = v[11];
    d.digest.noloc = v[12];
    d.n_functions = (size_t)v[13];
    const char **s[] = {&d.pass, &d.arg, &d.scope, &d.scope_name, &d.kernel, &d.module_attrs};
    const char *ps[] = {pd ? pd->pass : NULL,   pd ? pd->arg : NULL,
                        pd ? pd->scope : NULL,  pd ? pd->scope_name : NULL,
                        pd ? pd->kernel : NULL, pd ? pd->module_attrs : NULL};
    for (int i = 0; i < 6; i++)
        *s[i] = stored_string(p, fixed[1 + i], pd ? prev[i] : NULL, ps[i]);
    guint first = p->funcs->len;
    guint pf = pd ? g_array_index(p->func_first, guint, p->dumps->len - 1) : first;
    g_array_append_val(p->func_first, first);
    /* The functions follow the sixth string's end, one field each; so do
     * the last line's, as many as it had. */
    const char *f = fixed[6], *pr = pd ? prev[5] : NULL;
    for (size_t i = 0; i < d.n_functions; i++) {
        f += strlen(f) + 1;
        int before = pf + i < first;
        if (pr)
            pr = before ? pr + strlen(pr) + 1 : NULL;
        const char *ps_i = before ? g_ptr_array_index(p->funcs, pf + i) : NULL;
        g_ptr_array_add(p->funcs, (gpointer)stored_string(p, f, pr, ps_i));
    }
    for (int i = 0; i < 6; i++)
        prev[i] = fixed[1 + i];
    g_array_append_val(p->dumps, d);
    return NULL;
}

/* Dump I's header read back from the text: what it says must be what the
 * stored index says.  NULL, or why not (caller frees). */
static char *check_header(tk_passes *p, size_t i)
{
    const tk_pass_dump *d = &g_array_index(p->dumps, tk_pass_dump, i);
    size_t n = (size_t)(d->body_offset - d->header_offset);
    char *buf = g_malloc(n + 1);
    int64_t r = passes_gz_pread(p->gz, d->header_offset, buf, n);
    char *why = NULL;
    if (r != (int64_t)n) {
        why = g_strdup_printf("dump %zu's header (byte %" G_GUINT64_FORMAT
                              ") cannot be read from the text",
                              i + 1, d->header_offset);
        g_free(buf);
        return why;
    }
    buf[n] = '\0';
    size_t len = strcspn(buf, "\n");
    passes_header h;
    if (buf[n - 1] != '\n' || !passes_parse_header(buf, len, &h))
        why = g_strdup_printf("the text at byte %" G_GUINT64_FORMAT
                              " (dump %zu) is no dump header",
                              d->header_offset, i + 1);
    else if (h.kind != d->kind || h.when != d->when || !passes_span_eq(h.pass, d->pass) ||
             !passes_span_eq(h.arg, d->arg) || !passes_span_eq(h.scope, d->scope) ||
             /* a legacy or machine header names no IR unit: the body does
              * (checked with the body, stored_check.c) */
             (!(h.scope_kind == TK_PASS_SCOPE_NONE && (h.kind == TK_PASS_LLVM_LEGACY ||
                                                       h.kind == TK_PASS_LLVM_MACHINE)) &&
              (h.scope_kind != d->scope_kind || !passes_span_eq(h.scope_name, d->scope_name))))
        why = g_strdup_printf("dump %zu's header (line %" G_GUINT64_FORMAT
                              ") names pass \"%.*s\", the stored index \"%s\"",
                              i + 1, d->header_line, (int)h.pass.n, h.pass.p, d->pass);
    g_free(buf);
    return why;
}

/* Reads the stored index text TEXT into P (opened on its slice, its text
 * TEXT_SIZE bytes, REFS_SIZE the refs file's).  NULL, or why it is refused. */
static char *parse_all(tk_passes *p, char *text, uint64_t text_size, uint64_t refs_size)
{
    size_t ml = strlen(PASSES_STORED_MAGIC);
    if (strncmp(text, PASSES_STORED_MAGIC, ml) != 0)
        return g_strdup("not a stored pass index of this version");
    char *line = text + ml;
    char *nl = strchr(line, '\n');
    if (!nl)
        return g_strdup("cut short");
    *nl = '\0';
    uint64_t size = 0, lines = 0, dumps = 0, refs = 0;
    char **w = g_strsplit(line, " ", -1);
    int ok = g_strv_length(w) == 8 && !strcmp(w[0], "text") && !strcmp(w[2], "lines") &&
             !strcmp(w[4], "dumps") && !strcmp(w[6], "refs") &&
             !parse_u64(w[1], 10, &size) && !parse_u64(w[3], 10, &lines) &&
             !parse_u64(w[5], 10, &dumps) && !parse_u64(w[7], 10, &refs);
    g_strfreev(w);
    if (!ok)
        return g_strdup("its first line is not what it must be");
    if (refs != refs_size)
        return g_strdup_printf("made for a refs file of %" G_GUINT64_FORMAT
                               " bytes; this one has %" G_GUINT64_FORMAT,
                               refs, refs_size);
    if (size != text_size)
        return g_strdup_printf("made for %" G_GUINT64_FORMAT " bytes of text; the slice "
                               "has %" G_GUINT64_FORMAT,
                               size, text_size);
    if (dumps > STORED_MAX_DUMPS || lines > text_size)
        return g_strdup("its counts are larger than the slice could hold");
    /* Its dumps count against the load's budget as indexed ones do. */
    char *bwhy = NULL;
    if (tk_input_budget_charge(TK_INPUT_BUDGET_DUMPS, dumps, &bwhy) != 0)
        return bwhy;
    p->charged[TK_INPUT_BUDGET_DUMPS] = dumps;
    uint64_t n = 0;
    char *prev[6] = {NULL};
    for (line = nl + 1; *line; line = nl + 1, n++) {
        nl = strchr(line, '\n');
        if (!nl)
            return g_strdup("cut short");
        *nl = '\0';
        if (n >= dumps)
            return g_strdup_printf("it lists more dumps than the %" G_GUINT64_FORMAT
                                   " it says",
                                   dumps);
        char *why = parse_dump(p, line, text_size, lines, prev);
        if (why) {
            char *full = g_strdup_printf("dump %" G_GUINT64_FORMAT ": %s", n + 1, why);
            g_free(why);
            return full;
        }
    }
    if (n != dumps)
        return g_strdup_printf("it lists %" G_GUINT64_FORMAT " dumps, not the %" G_GUINT64_FORMAT
                               " it says",
                               n, dumps);
    p->n_lines = lines;
    for (guint i = 0; i < p->dumps->len; i++) {
        char *why = check_header(p, i);
        if (why)
            return why;
    }
    return NULL;
}

tk_passes *passes_stored_open(const char *path, const char *index_path, tk_diags *diags,
                              char **why)
{
    *why = NULL;
    size_t len = 0;
    char *rwhy = NULL;
    char *text = tk_input_file_read(index_path, TK_INPUT_FILE_MANIFEST, &len, &rwhy);
    if (!text) {
        *why = g_strdup_printf("cannot be read: %s", rwhy);
        g_free(rwhy);
        return NULL;
    }
    if (memchr(text, '\0', len)) {
        g_free(text);
        *why = g_strdup("it holds binary data");
        return NULL;
    }
    int fd = tk_input_file_open(path, TK_INPUT_FILE_PASS_DUMP, NULL, &rwhy);
    struct stat st;
    passes_refs *r = NULL;
    if (fd < 0 || fstat(fd, &st) != 0 || !passes_refs_is(fd) ||
        !(r = passes_refs_open(path, &rwhy))) {
        *why = g_strdup_printf("its slice cannot be read as a refs file%s%s",
                               rwhy ? ": " : "", rwhy ? rwhy : "");
        g_free(rwhy);
        g_free(text);
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    tk_passes *p = passes_new(path);
    p->fd = fd;
    p->gz = passes_gz_new_refs(r);
    p->file_size = (uint64_t)st.st_size;
    p->size = passes_gz_size(p->gz);
    p->mtime = (int64_t)st.st_mtime;
    if (passes_gz_damage(p->gz))
        *why = g_strdup_printf("its slice is damaged (%s)", passes_gz_damage(p->gz));
    else
        *why = parse_all(p, text, p->size, p->file_size);
    g_free(text);
    passes_gz_done(p->gz);
    if (*why) {
        tk_passes_refund_budget(p);
        tk_passes_free(p);
        return NULL;
    }
    passes_index_seal(p);
    p->stored = 1;
    /* What indexing the text would have said of its dumps. */
    for (guint i = 0; i < p->dumps->len; i++) {
        const tk_pass_dump *d = &g_array_index(p->dumps, tk_pass_dump, i);
        unsigned warn = d->flags & (TK_PASS_BAD_HEADER | TK_PASS_INTERLEAVED);
        if (d->status == TK_PASS_PRINTED)
            warn |= d->flags & (TK_PASS_EMPTY | TK_PASS_CUT);
        else
            warn &= ~TK_PASS_INTERLEAVED;
        if (warn)
            passes_warn_dump(diags, path, d, warn);
    }
    if (p->dumps->len == 0)
        tk_diags_add(diags, TK_DIAG_NOTE, path, 0, "no pass dump header in this file");
    passes_attribute(p);
    return p;
}
