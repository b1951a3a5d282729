/* index.c - one streaming pass over a pass dump file (reads of single
 * dumps on demand: read.c).
 *
 * The file is read front to back through a window of PASSES_WINDOW bytes;
 * lines are found with memchr and classified by their first bytes, so the
 * cost is linear and memory is the window plus the entries.  A line longer
 * than the window is classified by its first window's worth and hashed in
 * pieces.  Each line is one of: a header (starts a dump), a body line (the
 * body's grammar accepts it), blank, or other text (ends the dump; kept as an
 * "other" range).
 */
#include "passes/internal.h"
#include "tkdump/tk_input_file.h"
#include "tkdump/tk_lines.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PASSES_WINDOW ((size_t)4 << 20)
#define READ_STEP ((size_t)256 << 10)

typedef enum {
    ROLE_HEADER,
    ROLE_BANNER,     /* a header with no body by design */
    ROLE_HEADER_TAIL,/* a line that completes the header ("Printing <null>
                        Function"): kept with it, no body */
    ROLE_BODY,
    ROLE_BODY_BLANK,
    ROLE_OTHER,
    ROLE_OTHER_BLANK
} line_role;

typedef struct {
    tk_passes *ix;
    tk_diags *diags;
    const char *name;
    uint64_t line;     /* number of the current line */
    uint64_t charged;  /* lines charged to the load's budget so far */
    int over_budget;   /* the load's budget ran out: the scan stops */
    int again;         /* the same text indexed again: not charged twice, */
    uint64_t stop_line; /* but stopped where the budget stopped it (0: no) */
    uint64_t line_off; /* its offset */
    line_role role;
    uint64_t nul_until; /* lines starting before this offset may hold NULs */

    int in_dump;
    tk_pass_dump cur;
    passes_body_state body;
    passes_digester dig;
    const char *candidate; /* a function that could be the kernel */
    uint64_t content_end;  /* after the last non-blank body line */
    uint64_t content_line;

    int in_other;
    tk_pass_range oth;
    uint64_t oth_end, oth_last;
    uint64_t ir_lines, ir_first;
    int line_ir; /* the current other line looks like IR */

    int in_binary;
    int one_scan; /* never in two halves (passes_index_one_scan()) */
} builder;

const char *passes_intern(tk_passes *p, const char *s, size_t n)
{
    if (n == 0)
        return "";
    g_string_truncate(p->scratch, 0);
    g_string_append_len(p->scratch, s, (gssize)n);
    const char *have = g_hash_table_lookup(p->interned, p->scratch->str);
    if (have)
        return have;
    char *copy = g_string_chunk_insert_len(p->strings, s, (gssize)n);
    g_hash_table_insert(p->interned, copy, copy);
    return copy;
}

static const char *intern_span(builder *b, passes_span s)
{
    return passes_intern(b->ix, s.p, s.n);
}

static const char *kind_word(tk_pass_kind k)
{
    switch (k) {
    case TK_PASS_MLIR:
    case TK_PASS_MLIR_INTERNAL:
        return "MLIR";
    case TK_PASS_LLVM_IR:
    case TK_PASS_LLVM_LEGACY:
        return "LLVM IR";
    case TK_PASS_LLVM_MACHINE:
        return "machine code";
    }
    return "";
}

static tk_pass_level level_of(const builder *b)
{
    const tk_pass_dump *d = &b->cur;
    if (d->body_lines == 0)
        return TK_PASS_LEVEL_UNKNOWN;
    switch (d->kind) {
    case TK_PASS_MLIR:
    case TK_PASS_MLIR_INTERNAL:
        if (b->body.saw_llvm_func)
            return TK_PASS_LEVEL_LLVM_MLIR;
        if (strstr(d->module_attrs, "ttg."))
            return TK_PASS_LEVEL_TTGIR;
        if (b->body.saw_module || d->n_functions > 0)
            return TK_PASS_LEVEL_TTIR;
        return TK_PASS_LEVEL_UNKNOWN;
    case TK_PASS_LLVM_IR:
        return TK_PASS_LEVEL_LLVM_IR;
    case TK_PASS_LLVM_LEGACY:
        return TK_PASS_LEVEL_CODEGEN;
    case TK_PASS_LLVM_MACHINE:
        return TK_PASS_LEVEL_MACHINE;
    }
    return TK_PASS_LEVEL_UNKNOWN;
}

static void finish_dump(builder *b)
{
    if (!b->in_dump)
        return;
    b->in_dump = 0;
    tk_pass_dump *d = &b->cur;
    d->body_len = b->content_end - d->body_offset;
    d->body_lines = b->content_line - d->header_line;
    d->n_functions = b->ix->funcs->len -
                     g_array_index(b->ix->func_first, guint,
                                   b->ix->func_first->len - 1);
    if (!d->kernel[0] && b->candidate)
        d->kernel = b->candidate;
    passes_digester_finish(&b->dig, &d->digest);
    d->flags |= b->body.flags;

    if (d->status == TK_PASS_PRINTED) {
        unsigned long long hl = (unsigned long long)d->header_line;
        if (d->body_lines == 0) {
            d->flags |= TK_PASS_EMPTY;
            tk_diags_add(b->diags, TK_DIAG_WARNING, b->name, d->header_line,
                         "the %s dump header at line %llu (%s) has no body",
                         kind_word(d->kind), hl, d->pass);
        } else if (b->body.open > 0 ||
                   (d->kind == TK_PASS_LLVM_MACHINE && b->body.mir != 2)) {
            d->flags |= TK_PASS_CUT;
            tk_diags_add(b->diags, TK_DIAG_WARNING, b->name, d->header_line,
                         "the %s dump at line %llu (%s) ends inside its %s "
                         "at line %llu: the file was cut or the dump torn",
                         kind_word(d->kind), hl, d->pass,
                         d->kind == TK_PASS_LLVM_MACHINE ? "function"
                         : d->kind == TK_PASS_MLIR ||
                                 d->kind == TK_PASS_MLIR_INTERNAL
                             ? "module"
                             : "function",
                         (unsigned long long)b->content_line);
        }
        if (d->flags & TK_PASS_INTERLEAVED)
            tk_diags_add(b->diags, TK_DIAG_WARNING, b->name, d->header_line,
                         "the %s dump at line %llu (%s) has lines of another "
                         "dump mixed in: two processes wrote at once?",
                         kind_word(d->kind), hl, d->pass);
    }
    d->level = level_of(b);
    /* Legacy and machine headers do not name the IR unit: the body does. */
    if (d->scope_kind == TK_PASS_SCOPE_NONE && d->body_lines > 0 &&
        (d->kind == TK_PASS_LLVM_LEGACY || d->kind == TK_PASS_LLVM_MACHINE)) {
        const char *first =
            d->n_functions ? g_ptr_array_index(b->ix->funcs,
                                               b->ix->funcs->len -
                                                   d->n_functions)
                           : "";
        if (d->kind == TK_PASS_LLVM_LEGACY && b->body.saw_module) {
            d->scope_kind = TK_PASS_SCOPE_MODULE;
        } else if (first[0]) {
            d->scope_kind = TK_PASS_SCOPE_FUNCTION;
            d->scope_name = first;
        } else if (d->kind == TK_PASS_LLVM_LEGACY && b->body.saw_preheader) {
            /* A legacy loop pass (canon-freeze, loop-reduce): its loop,
             * without the function's name. */
            d->scope_kind = TK_PASS_SCOPE_LOOP;
        }
    }
    g_array_append_val(b->ix->dumps, *d);
}

static void finish_other(builder *b)
{
    if (!b->in_other)
        return;
    b->in_other = 0;
    b->oth.len = b->oth_end - b->oth.offset;
    b->oth.n_lines = b->oth_last - b->oth.line + 1;
    g_array_append_val(b->ix->others, b->oth);
    if (b->ir_lines > 0)
        tk_diags_add(b->diags, TK_DIAG_WARNING, b->name, b->ir_first,
                     "%llu line(s) of IR outside any dump, from line %llu: "
                     "a dump was torn apart (two processes writing at "
                     "once?)",
                     (unsigned long long)b->ir_lines,
                     (unsigned long long)b->ir_first);
}

/* Charges N of ITEM to the load's budget, kept on the index for
 * tk_passes_refund_budget(). */
static int charge(builder *b, tk_input_budget_item item, uint64_t n, char **why)
{
    if (tk_input_budget_charge(item, n, why) != 0)
        return -1;
    b->ix->charged[item] += n;
    return 0;
}

void tk_passes_refund_budget(tk_passes *p)
{
    for (int i = 0; p && i < TK_INPUT_BUDGET_COUNT; i++) {
        tk_input_budget_refund((tk_input_budget_item)i, p->charged[i]);
        p->charged[i] = 0;
    }
}

static void start_dump(builder *b, const passes_header *h)
{
    finish_dump(b);
    finish_other(b);
    char *why = NULL;
    if (!b->over_budget && b->again && b->stop_line && b->line >= b->stop_line)
        why = g_strdup("over the load's budget, as on its first reading");
    if (!b->over_budget && (why || (!b->again &&
        charge(b, TK_INPUT_BUDGET_DUMPS, 1, &why) != 0))) {
        tk_diags_add(b->diags, TK_DIAG_WARNING, b->name, b->line,
                     "not indexed from this line on: %s; the dumps before "
                     "it stay usable",
                     why);
        g_free(why);
        b->over_budget = 1;
        b->stop_line = b->line;
    }
    if (b->over_budget)
        return;
    tk_pass_dump *d = &b->cur;
    memset(d, 0, sizeof *d);
    d->header_offset = b->line_off;
    d->header_line = b->line;
    d->kind = h->kind;
    d->when = h->when;
    d->status = h->status;
    d->scope_kind = h->scope_kind;
    d->flags = h->bad ? TK_PASS_BAD_HEADER : 0;
    d->pass = intern_span(b, h->pass);
    d->arg = intern_span(b, h->arg);
    d->scope = intern_span(b, h->scope);
    d->scope_name = intern_span(b, h->scope_name);
    d->kernel = "";
    d->module_attrs = "";
    guint first = b->ix->funcs->len;
    g_array_append_val(b->ix->func_first, first);
    memset(&b->body, 0, sizeof b->body);
    b->body.kind = h->kind;
    passes_digester_init(&b->dig, h->kind == TK_PASS_MLIR ||
                                      h->kind == TK_PASS_MLIR_INTERNAL
                                  ? PASSES_DIGEST_MLIR
                              : h->kind == TK_PASS_LLVM_MACHINE
                                  ? PASSES_DIGEST_RAW
                                  : PASSES_DIGEST_LLVM);
    b->candidate = NULL;
    b->in_dump = 1;
    if (h->bad)
        tk_diags_add(b->diags, TK_DIAG_WARNING, b->name, b->line,
                     "the dump header at line %llu is cut or malformed; "
                     "read as pass \"%s\"",
                     (unsigned long long)b->line, d->pass);
}

static void take_facts(builder *b, const passes_body_facts *f)
{
    if (f->function.n > 0) {
        const char *name = intern_span(b, f->function);
        g_ptr_array_add(b->ix->funcs, (gpointer)name);
        if (f->kernel == 1 && !b->cur.kernel[0])
            b->cur.kernel = name;
        else if (f->kernel == 2 && !b->candidate)
            b->candidate = name;
    }
    if (f->module_attrs.n > 0 && !b->cur.module_attrs[0])
        b->cur.module_attrs = intern_span(b, f->module_attrs);
}

static int body_line(builder *b, const char *s, size_t n, passes_body_facts *f)
{
    switch (b->cur.kind) {
    case TK_PASS_MLIR:
    case TK_PASS_MLIR_INTERNAL:
        return passes_mlir_body_line(&b->body, s, n, f);
    case TK_PASS_LLVM_IR:
    case TK_PASS_LLVM_LEGACY:
        if ((n >= 16 && memcmp(s, "source_filename ", 16) == 0) ||
            (n >= 12 && memcmp(s, "; ModuleID =", 12) == 0))
            b->body.saw_module = 1;
        return passes_llvm_body_line(&b->body, s, n, f);
    case TK_PASS_LLVM_MACHINE:
        return passes_mir_body_line(&b->body, s, n, f);
    }
    return 0;
}

static int is_blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t')
            return 0;
    return 1;
}

/* The first piece of a line: S holds LEN bytes of it (the whole line unless
 * MORE, without its "\n"). */
static void line_begin(builder *b, uint64_t off, const char *s, size_t len,
                       int more)
{
    if (b->over_budget)
        return; /* the scan stops at the end of this read */
    b->line++;
    b->line_off = off;
    if (!more)
        len = tk_lines_trim(s, len);

    if (off < b->nul_until && memchr(s, '\0', len)) {
        if (b->in_dump) {
            b->cur.flags |= TK_PASS_BINARY;
            tk_diags_add(b->diags, TK_DIAG_WARNING, b->name, b->line,
                         "binary data at line %llu ends the dump that "
                         "starts at line %llu",
                         (unsigned long long)b->line,
                         (unsigned long long)b->cur.header_line);
            finish_dump(b);
        } else if (!b->in_binary) {
            tk_diags_add(b->diags, TK_DIAG_WARNING, b->name, b->line,
                         "binary data at line %llu, skipped",
                         (unsigned long long)b->line);
        }
        b->in_binary = 1;
        b->role = ROLE_OTHER;
        b->line_ir = 0;
        return;
    }
    b->in_binary = 0;

    if (b->in_dump && b->cur.status != TK_PASS_PRINTED)
        finish_dump(b); /* a banner has no body */

    int blank = is_blank(s, len);
    passes_header h;
    if (!more && !blank && passes_parse_header(s, len, &h)) {
        start_dump(b, &h);
        b->role = h.status == TK_PASS_PRINTED ? ROLE_HEADER : ROLE_BANNER;
        return;
    }
    if (b->in_dump) {
        passes_body_facts f;
        if (blank) {
            b->role = ROLE_BODY_BLANK;
            return;
        }
        if (b->cur.kind == TK_PASS_LLVM_LEGACY &&
            b->content_line == b->cur.header_line &&
            passes_llvm_no_function_line(s, len)) {
            /* Part of the header: the pass had no function, so no body. */
            b->cur.status = TK_PASS_NO_FUNCTION;
            b->role = ROLE_HEADER_TAIL;
            return;
        }
        b->body.truncated = more;
        if (!passes_noise_line(s, len) && body_line(b, s, len, &f)) {
            take_facts(b, &f);
            passes_digester_begin(&b->dig, s, len);
            b->role = ROLE_BODY;
            return;
        }
        finish_dump(b);
    }
    if (blank) {
        b->role = ROLE_OTHER_BLANK;
        return;
    }
    b->role = ROLE_OTHER;
    b->line_ir = passes_ir_like(s, len);
}

static void line_more(builder *b, const char *s, size_t len)
{
    if (b->over_budget)
        return;
    if (b->role == ROLE_BODY)
        passes_digester_more(&b->dig, s, len);
}

/* The end of the line: NEXT is the offset after its "\n". */
static void line_end(builder *b, uint64_t next)
{
    if (b->over_budget)
        return;
    switch (b->role) {
    case ROLE_HEADER:
    case ROLE_BANNER:
        b->cur.body_offset = next;
        b->content_end = next;
        b->content_line = b->line;
        break;
    case ROLE_HEADER_TAIL: /* the dump's text goes on; its body is empty */
        b->cur.body_offset = next;
        b->content_end = next;
        break;
    case ROLE_BODY:
        passes_digester_end(&b->dig);
        b->content_end = next;
        b->content_line = b->line;
        break;
    case ROLE_OTHER:
        if (!b->in_other) {
            b->in_other = 1;
            memset(&b->oth, 0, sizeof b->oth);
            b->oth.offset = b->line_off;
            b->oth.line = b->line;
            b->ir_lines = 0;
        }
        if (b->line_ir && b->ir_lines++ == 0)
            b->ir_first = b->line;
        b->oth_end = next;
        b->oth_last = b->line;
        break;
    case ROLE_BODY_BLANK:
    case ROLE_OTHER_BLANK:
        break;
    }
}

/* Reads up to N bytes at file offset OFF (or, for a file that cannot seek,
 * at the current position: SEQ), stopping at LIMIT. */
typedef struct {
    int fd;
    int seq;        /* read(), not pread(): the whole file from the start */
    uint64_t limit; /* offset where the scan stops (UINT64_MAX: at EOF) */
    passes_gz *gz;  /* a gzip file: its text, in order */
    passes_gz_pipe *pipe; /* or GZ's text inflated on a worker (gz_pipe.c) */
} source;

static ssize_t read_some(const source *src, char *buf, size_t n, uint64_t off)
{
    if (off >= src->limit)
        return 0;
    if (n > src->limit - off)
        n = (size_t)(src->limit - off);
    if (src->pipe)
        return passes_gz_pipe_read(src->pipe, buf, n);
    if (src->gz)
        return src->seq ? passes_gz_next(src->gz, buf, n)
                        : (ssize_t)passes_gz_pread(src->gz, off, buf, n);
    for (;;) {
        ssize_t r = src->seq ? read(src->fd, buf, n)
                             : pread(src->fd, buf, n, (off_t)off);
        if (r >= 0 || errno != EINTR)
            return r;
    }
}

/* Charges the lines scanned since the last call and BYTES of text to the
 * load's budget; once it runs out, says where the index stops and returns
 * -1 (what was indexed before stays usable: a dump cut there ends there). */
static int charge_budget(builder *b, uint64_t bytes)
{
    if (b->over_budget)
        return -1;
    char *why = NULL;
    uint64_t lines = b->line - b->charged;
    if (b->again && !(b->stop_line && b->line >= b->stop_line))
        return 0;
    if (b->again)
        why = g_strdup("over the load's budget, as on its first reading");
    else if (charge(b, TK_INPUT_BUDGET_LINES, lines, &why) == 0 &&
             charge(b, TK_INPUT_BUDGET_STREAM_BYTES, bytes, &why) == 0) {
        b->charged = b->line;
        return 0;
    }
    tk_diags_add(b->diags, TK_DIAG_WARNING, b->name, b->line,
                 "not indexed past this line: %s; the dumps before it stay "
                 "usable",
                 why);
    if (b->in_dump)
        b->cur.flags |= TK_PASS_CUT; /* not whole: said so where shown */
    g_free(why);
    b->over_budget = 1;
    b->stop_line = b->line;
    return -1;
}

/* Feeds every line of SRC from offset START (a line start) to the builder.
 * Returns 0, or -1 on a read error (reported). */
static int scan(builder *b, const source *src, uint64_t start, size_t window,
                char *buf)
{
    size_t have = 0, pos = 0;
    uint64_t base = start; /* file offset of buf[0] */
    int eof = 0, rc = 0;
    for (;;) {
        while (pos < have) {
            char *s = buf + pos;
            char *nl = memchr(s, '\n', have - pos);
            if (!nl)
                break;
            size_t n = (size_t)(nl - s);
            line_begin(b, base + pos, s, n, 0);
            line_end(b, base + pos + n + 1);
            pos += n + 1;
        }
        if (charge_budget(b, (uint64_t)pos) != 0)
            break;
        if (eof) {
            if (pos < have) {
                line_begin(b, base + pos, buf + pos, have - pos, 0);
                line_end(b, base + have);
            }
            break;
        }
        if (pos > 0) {
            memmove(buf, buf + pos, have - pos);
            base += pos;
            have -= pos;
            pos = 0;
        }
        if (have == window) {
            /* A line longer than the window: classify it by its first
             * window, then hash the rest as it streams by. */
            line_begin(b, base, buf, have, 1);
            for (;;) {
                base += have;
                have = 0;
                ssize_t r = read_some(src, buf, window, base);
                if (r < 0) {
                    rc = -1;
                    break;
                }
                if (r == 0) {
                    eof = 1;
                    line_end(b, base);
                    break;
                }
                have = (size_t)r;
                if (memchr(buf, '\0', have))
                    b->nul_until = base + have;
                char *nl = memchr(buf, '\n', have);
                if (nl) {
                    line_more(b, buf, (size_t)(nl - buf));
                    pos = (size_t)(nl - buf) + 1;
                    line_end(b, base + pos);
                    break;
                }
                line_more(b, buf, have);
            }
            if (rc < 0)
                break;
            continue;
        }
        /* Read in steps, so that only as much of the window is touched
         * (made resident) as the longest line needs. */
        size_t step = window - have < READ_STEP ? window - have : READ_STEP;
        ssize_t r = read_some(src, buf + have, step, base + have);
        if (r < 0) {
            rc = -1;
            break;
        }
        if (r == 0) {
            eof = 1;
            continue;
        }
        if (memchr(buf + have, '\0', (size_t)r))
            b->nul_until = base + have + (size_t)r;
        have += (size_t)r;
    }
    if (rc < 0)
        tk_diags_add(b->diags, TK_DIAG_ERROR, b->name, b->line + 1,
                     "cannot read past line %llu: %s",
                     (unsigned long long)b->line, g_strerror(errno));
    return rc;
}

static tk_passes *passes_new(const char *path)
{
    tk_passes *p = g_new0(tk_passes, 1);
    p->path = g_strdup(path);
    p->fd = -1;
    p->dumps = g_array_new(FALSE, FALSE, sizeof(tk_pass_dump));
    p->func_first = g_array_new(FALSE, FALSE, sizeof(guint));
    p->funcs = g_ptr_array_new();
    p->others = g_array_new(FALSE, FALSE, sizeof(tk_pass_range));
    p->strings = g_string_chunk_new(64 * 1024);
    p->interned = g_hash_table_new(g_str_hash, g_str_equal);
    p->scratch = g_string_new(NULL);
    p->seqs = g_array_new(FALSE, FALSE, sizeof(tk_pass_seq));
    return p;
}

/* ---- two halves at once ----------------------------------------------------
 *
 * A big file is indexed as two halves on two threads, cut at a dump header
 * line: a header starts a new dump whatever came before it (the dump or
 * other text before it is finished first, in the same order), so the second
 * half indexes from there exactly as the whole file would, given the number
 * of lines before the cut.  The halves are then joined, the second's strings
 * interned again in the first's table, and its diagnostics put after the
 * first's, so the index and the diagnostics are those of one pass. */

/* Files smaller than this are indexed in one go: a thread is not worth it. */
#define SPLIT_MIN ((uint64_t)16 << 20)
/* How far past the middle a header is looked for, and in what pieces. */
#define SPLIT_SEARCH ((uint64_t)16 << 20)
#define SPLIT_CHUNK ((size_t)1 << 20)

/* Whether the whole line S (N bytes, no "\n") is a header line_begin()
 * would start a dump at, whatever the state. */
static int is_cut_line(const char *s, size_t n)
{
    if (memchr(s, '\0', n))
        return 0;
    n = tk_lines_trim(s, n);
    passes_header h;
    return !is_blank(s, n) && passes_parse_header(s, n, &h);
}

/* The offset of a header line in the second half of the SIZE bytes of FD,
 * near the middle; 0 for none.  A line scan() would take in pieces (no
 * shorter than WINDOW) is never a cut. */
static uint64_t find_cut(int fd, uint64_t size, size_t window)
{
    char *buf = g_malloc(SPLIT_CHUNK);
    uint64_t off = size / 2, cut = 0;
    int at_start = 0; /* OFF is known to be a line start */
    while (!cut && off < size && off < size / 2 + SPLIT_SEARCH) {
        ssize_t r = pread(fd, buf, SPLIT_CHUNK, (off_t)off);
        if (r <= 0)
            break;
        const char *p = buf, *end = buf + r;
        if (!at_start) {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            if (!nl)
                break; /* a line of a megabyte: give up */
            p = nl + 1;
            at_start = 1;
        }
        for (;;) {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            if (!nl)
                break;
            size_t n = (size_t)(nl - p);
            if (n + 1 <= window && is_cut_line(p, n)) {
                cut = off + (uint64_t)(p - buf);
                break;
            }
            p = nl + 1;
        }
        if (p == buf)
            break; /* no whole line in a chunk */
        off += (uint64_t)(p - buf);
    }
    g_free(buf);
    return cut;
}

typedef struct {
    builder b;
    source src;
    uint64_t cut;
    size_t window;
    char *buf;       /* WINDOW bytes, allocated and freed by the caller's
                        thread, like the first half's */
    int rc;
    tk_input_budget *budget; /* the starting thread's: the load's */
} second_half;

/* Indexes from the cut on, numbering lines from 1 there: the lines before
 * it are known once the first half is done (shift_lines()).  Counting them
 * first meant reading the first half twice. */
static gpointer index_second_half(gpointer data)
{
    second_half *h = data;
    tk_input_budget *before = tk_input_budget_use(h->budget);
    h->rc = scan(&h->b, &h->src, h->cut, h->window, h->buf);
    finish_dump(&h->b);
    finish_other(&h->b);
    tk_input_budget_use(before);
    return NULL;
}

/* Moves the line numbers of Q (indexed from a cut) down by BEFORE, the
 * lines before the cut. */
static void shift_lines(tk_passes *q, uint64_t before)
{
    for (guint i = 0; i < q->dumps->len; i++)
        g_array_index(q->dumps, tk_pass_dump, i).header_line += before;
    for (guint i = 0; i < q->others->len; i++)
        g_array_index(q->others, tk_pass_range, i).line += before;
}

static const char *reintern(tk_passes *p, const char *s)
{
    return passes_intern(p, s, strlen(s));
}

/* Appends the dumps and other text of Q (the second half) to P. */
static void join(tk_passes *p, const tk_passes *q)
{
    for (int i = 0; i < TK_INPUT_BUDGET_COUNT; i++)
        p->charged[i] += q->charged[i];
    guint f0 = p->funcs->len;
    for (guint i = 0; i < q->funcs->len; i++)
        g_ptr_array_add(p->funcs, (gpointer)reintern(p, g_ptr_array_index(q->funcs, i)));
    for (guint i = 0; i < q->func_first->len; i++) {
        guint first = f0 + g_array_index(q->func_first, guint, i);
        g_array_append_val(p->func_first, first);
    }
    for (guint i = 0; i < q->dumps->len; i++) {
        tk_pass_dump d = g_array_index(q->dumps, tk_pass_dump, i);
        d.pass = reintern(p, d.pass);
        d.arg = reintern(p, d.arg);
        d.scope = reintern(p, d.scope);
        d.scope_name = reintern(p, d.scope_name);
        d.kernel = reintern(p, d.kernel);
        d.module_attrs = reintern(p, d.module_attrs);
        g_array_append_val(p->dumps, d);
    }
    g_array_append_vals(p->others, q->others->data, q->others->len);
}

static int scan_whole(builder *b, int fd, const struct stat *st, size_t window)
{
    /* A gzip file is read in order the first time (restart points are
     * recorded as it goes), by offset after that. */
    passes_gz *gz = b->ix->gz;
    source src = {fd, !S_ISREG(st->st_mode) || (gz && passes_gz_in_order(gz)), UINT64_MAX,
                  gz, NULL};
    if (gz && src.seq && S_ISREG(st->st_mode))
        src.pipe = passes_gz_pipe_start(gz); /* NULL: read here */
    char *buf = g_malloc(window);
    int rc = scan(b, &src, 0, window, buf);
    passes_gz_pipe_end(src.pipe);
    g_free(buf);
    finish_dump(b);
    finish_other(b);
    return rc;
}

/* Indexes FD into B (whose index is replaced when it is done again): in
 * two halves when it is big and there are two processors.  Returns scan()'s
 * result; B->line is then the number of lines. */
static int scan_file(builder *b, int fd, const struct stat *st, size_t window)
{
    uint64_t size = (uint64_t)st->st_size;
    uint64_t cut = 0;
    if (S_ISREG(st->st_mode) && !b->ix->gz && size >= SPLIT_MIN && !b->one_scan &&
        g_get_num_processors() > 1)
        cut = find_cut(fd, size, window);
    if (cut == 0)
        return scan_whole(b, fd, st, window);

    /* Each half's diagnostics wait in a list of their own. */
    tk_diags *diags = b->diags;
    b->diags = tk_diags_new();
    second_half h;
    memset(&h, 0, sizeof h);
    h.b.ix = passes_new(b->ix->path);
    h.b.diags = tk_diags_new();
    h.b.name = b->name;
    h.src = (source){fd, 0, UINT64_MAX, NULL, NULL};
    h.cut = cut;
    h.window = window;
    h.buf = g_malloc(window);
    h.budget = tk_input_budget_use(NULL);
    tk_input_budget_use(h.budget);
    GThread *t = g_thread_try_new("tkdump-index", index_second_half, &h, NULL);
    if (!t)
        index_second_half(&h);
    source src = {fd, 0, cut, NULL, NULL};
    char *buf = g_malloc(window);
    int rc = scan(b, &src, 0, window, buf);
    g_free(buf);
    finish_dump(b);
    finish_other(b);
    if (t)
        g_thread_join(t);
    g_free(h.buf);
    tk_diags *first = b->diags;
    b->diags = diags;
    /* A capped list cannot be joined to another as if it were one (what it
     * dropped is only counted): a file torn all over, like one that could
     * not be read, is indexed again in one go.  So is one whose second
     * half has anything to say: its messages number lines from the cut
     * (rare: a damaged dump). */
    int ok = rc == 0 && h.rc == 0 && tk_diags_count(first) < TK_DIAGS_PER_FILE &&
             tk_diags_count(h.b.diags) == 0;
    if (ok) {
        shift_lines(h.b.ix, b->line);
        join(b->ix, h.b.ix);
        b->line += h.b.line;
        for (int k = 0; k < 2; k++) {
            const tk_diags *from = k == 0 ? first : h.b.diags;
            for (size_t i = 0; i < tk_diags_count(from); i++) {
                const tk_diag *d = tk_diags_get(from, i);
                tk_diags_add(diags, d->severity, d->file, d->line, "%s",
                             d->message);
            }
        }
    }
    uint64_t half_charged[TK_INPUT_BUDGET_COUNT];
    memcpy(half_charged, h.b.ix->charged, sizeof half_charged);
    tk_passes_free(h.b.ix);
    tk_diags_free(h.b.diags);
    tk_diags_free(first);
    if (ok)
        return 0;
    const char *name = b->name;
    tk_passes *p = passes_new(b->ix->path);
    memcpy(p->charged, b->ix->charged, sizeof p->charged);
    for (int i = 0; i < TK_INPUT_BUDGET_COUNT; i++)
        p->charged[i] += half_charged[i]; /* the second half's too */
    tk_passes_free(b->ix);
    uint64_t stop = b->stop_line;
    memset(b, 0, sizeof *b);
    b->again = 1;
    b->stop_line = stop;
    b->ix = p;
    b->diags = diags;
    b->name = name;
    b->one_scan = 1;
    return scan_whole(b, fd, st, window);
}

static tk_passes *index_file(const char *path, size_t window, int one_scan,
                             tk_diags *diags)
{
    if (window < 64)
        window = 64;
    /* A regular file only, opened without blocking: a FIFO named like a
     * dump must not hang the index (tk_input_file.h). */
    char *why = NULL;
    int fd = tk_input_file_open(path, TK_INPUT_FILE_PASS_DUMP, NULL, &why);
    if (fd < 0) {
        tk_diags_add(diags, TK_DIAG_ERROR, path, 0,
                     "cannot read this pass dump file: %s", why);
        g_free(why);
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        tk_diags_add(diags, TK_DIAG_ERROR, path, 0, "cannot read: %s",
                     g_strerror(errno));
        close(fd);
        return NULL;
    }
    /* No window larger than the file: a bundle's pass dump slices are
     * often a few KB, and a 4 MiB buffer each is memory for nothing.  Every
     * line still fits in it. */
    size_t asked_window = window;
    if ((uint64_t)st.st_size + 1 < window)
        window = MAX((size_t)st.st_size + 1, 64);
#ifdef POSIX_FADV_SEQUENTIAL
    posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
    tk_passes *p = passes_new(path);
    /* A gzip file (a bundle's slices) is read as its text. */
    unsigned char magic[2];
    if (S_ISREG(st.st_mode) && pread(fd, magic, 2, 0) == 2 && magic[0] == 0x1f &&
        magic[1] == 0x8b) {
        p->gz = passes_gz_new(fd);
        if (!p->gz) {
            tk_diags_add(diags, TK_DIAG_ERROR, path, 0, "cannot decompress");
            close(fd);
            tk_passes_free(p);
            return NULL;
        }
    } else if (S_ISREG(st.st_mode) && passes_refs_is(fd)) {
        /* A bundle's slice stored as pieces of its shared pool (refs.c). */
        passes_refs *r = passes_refs_open(path, &why);
        if (r) /* the window is sized by the text, not by the small file */
            window = (size_t)MIN((uint64_t)asked_window,
                                 MAX(passes_refs_size(r) + 1, 64));
        if (!r || !(p->gz = passes_gz_new_refs(r))) {
            tk_diags_add(diags, TK_DIAG_ERROR, path, 0,
                         "cannot read this dump refs file: %s", why ? why : "");
            g_free(why);
            close(fd);
            tk_passes_free(p);
            return NULL;
        }
    }
    builder b;
    memset(&b, 0, sizeof b);
    b.ix = p;
    b.one_scan = one_scan;
    /* Damage in a gzip file is found at its end (a wrong check sum): its
     * warning goes before what the text read says. */
    tk_diags *scan_diags = p->gz ? tk_diags_new() : diags;
    b.diags = scan_diags;
    b.name = path;
    int rc = scan_file(&b, fd, &st, window);
    p = b.ix;
    if (p->gz) {
        passes_gz_done(p->gz);
        const char *damage = passes_gz_damage(p->gz);
        if (damage && rc == 0)
            tk_diags_add(diags, TK_DIAG_WARNING, path, 0,
                         "%s after %llu bytes of text; the text before that is "
                         "read",
                         damage, (unsigned long long)passes_gz_size(p->gz));
        if (tk_diags_count(scan_diags) < TK_DIAGS_PER_FILE) {
            for (size_t i = 0; i < tk_diags_count(scan_diags); i++) {
                const tk_diag *d = tk_diags_get(scan_diags, i);
                tk_diags_add(diags, d->severity, d->file, d->line, "%s", d->message);
            }
        } else if (rc == 0) {
            /* A capped list cannot be joined to another (what it dropped
             * is only counted): the text is indexed again, by offset. */
            tk_passes *q = passes_new(path);
            q->gz = p->gz;
            p->gz = NULL;
            memcpy(q->charged, p->charged, sizeof q->charged);
            tk_passes_free(p);
            uint64_t stop = b.stop_line;
            memset(&b, 0, sizeof b);
            b.again = 1;
            b.stop_line = stop;
            b.ix = q;
            b.diags = diags;
            b.name = path;
            b.one_scan = one_scan;
            rc = scan_file(&b, fd, &st, window);
            p = b.ix;
        }
        tk_diags_free(scan_diags);
    }
    if (rc < 0) {
        close(fd);
        tk_passes_free(p);
        return NULL;
    }
    p->fd = fd;
    p->file_size = (uint64_t)st.st_size;
    p->size = (uint64_t)st.st_size;
    if (p->gz)
        p->size = passes_gz_size(p->gz);
    p->mtime = (int64_t)st.st_mtime;
    p->n_lines = b.line;
    g_string_free(p->scratch, TRUE);
    p->scratch = NULL;
    g_hash_table_destroy(p->interned);
    p->interned = NULL;

    /* The arrays have stopped growing: point each dump at its functions. */
    for (guint i = 0; i < p->dumps->len; i++) {
        tk_pass_dump *d = &g_array_index(p->dumps, tk_pass_dump, i);
        guint first = g_array_index(p->func_first, guint, i);
        d->functions = d->n_functions
                           ? (const char *const *)&p->funcs->pdata[first]
                           : NULL;
    }
    if (p->dumps->len == 0)
        tk_diags_add(diags, TK_DIAG_NOTE, path, 0,
                     "no pass dump header in this file");
    /* A stderr is full of other text; an MLIR_DUMP_PATH file holds none,
     * so there it is worth a word. */
    int only_mlir = p->dumps->len > 0;
    for (guint i = 0; i < p->dumps->len && only_mlir; i++)
        only_mlir = g_array_index(p->dumps, tk_pass_dump, i).kind ==
                    TK_PASS_MLIR;
    for (guint i = 0; only_mlir && i < p->others->len; i++) {
        const tk_pass_range *r = &g_array_index(p->others, tk_pass_range, i);
        tk_diags_add(diags, TK_DIAG_NOTE, path, r->line,
                     "lines %llu-%llu are not part of any dump; kept aside",
                     (unsigned long long)r->line,
                     (unsigned long long)(r->line + r->n_lines - 1));
    }
    passes_attribute(p);
    return p;
}

tk_passes *passes_index_window(const char *path, size_t window, tk_diags *diags)
{
    return index_file(path, window, 0, diags);
}

tk_passes *passes_index_one_scan(const char *path, tk_diags *diags)
{
    return index_file(path, PASSES_WINDOW, 1, diags);
}

tk_passes *tk_passes_index(const char *path, tk_diags *diags)
{
    return passes_index_window(path, PASSES_WINDOW, diags);
}
