/* index_builder.c - the pass dump indexer's lines turned into an index:
 * each line classified (a header starts a dump, a body line continues it,
 * blank, or other text that ends it), dumps and other text recorded with
 * their digests, pass level and kernel, and the load's budget charged.
 * Apart from index.c, which reads the file and feeds these lines: the
 * grammar of a dump file, not its reading. */
#include "passes/index_builder.h"
#include "tkdump/tk_lines.h"

#include <string.h>

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

static const char *intern_span(passes_builder *b, passes_span s)
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

void passes_warn_dump(tk_diags *diags, const char *name, const tk_pass_dump *d,
                      unsigned which)
{
    unsigned long long hl = (unsigned long long)d->header_line;
    if (which & TK_PASS_BAD_HEADER)
        tk_diags_add(diags, TK_DIAG_WARNING, name, d->header_line,
                     "the dump header at line %llu is cut or malformed; "
                     "read as pass \"%s\"",
                     hl, d->pass);
    if (which & TK_PASS_EMPTY)
        tk_diags_add(diags, TK_DIAG_WARNING, name, d->header_line,
                     "the %s dump header at line %llu (%s) has no body", kind_word(d->kind),
                     hl, d->pass);
    else if (which & TK_PASS_CUT)
        tk_diags_add(diags, TK_DIAG_WARNING, name, d->header_line,
                     "the %s dump at line %llu (%s) ends inside its %s "
                     "at line %llu: the file was cut or the dump torn",
                     kind_word(d->kind), hl, d->pass,
                     d->kind == TK_PASS_MLIR || d->kind == TK_PASS_MLIR_INTERNAL ? "module"
                                                                                 : "function",
                     (unsigned long long)(d->header_line + d->body_lines));
    if (which & TK_PASS_INTERLEAVED)
        tk_diags_add(diags, TK_DIAG_WARNING, name, d->header_line,
                     "the %s dump at line %llu (%s) has lines of another "
                     "dump mixed in: two processes wrote at once?",
                     kind_word(d->kind), hl, d->pass);
}

static tk_pass_level level_of(const passes_builder *b)
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

void passes_finish_dump(passes_builder *b)
{
    if (!b->in_dump)
        return;
    b->in_dump = 0;
    tk_pass_dump *d = &b->cur;
    if (d->status == TK_PASS_IGNORED || d->status == TK_PASS_FILTERED) {
        /* -print-changed's banners for the pass manager's own wrappers
         * ("IR Pass PassManager<Function> on f ignored") and for what
         * -filter-print-funcs leaves out: print-after-all lists neither,
         * and neither is a pass the IR went through. */
        g_array_set_size(b->ix->func_first, b->ix->func_first->len - 1);
        return;
    }
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
        unsigned warn = d->flags & TK_PASS_INTERLEAVED;
        if (d->body_lines == 0) {
            d->flags |= TK_PASS_EMPTY;
            warn |= TK_PASS_EMPTY;
        } else if (b->body.open > 0 ||
                   (d->kind == TK_PASS_LLVM_MACHINE && b->body.mir != 2)) {
            d->flags |= TK_PASS_CUT;
            warn |= TK_PASS_CUT;
        }
        passes_warn_dump(b->diags, b->name, d, warn);
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

void passes_finish_other(passes_builder *b)
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
int passes_charge(passes_builder *b, tk_input_budget_item item, uint64_t n, char **why)
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

static void start_dump(passes_builder *b, const passes_header *h)
{
    passes_finish_dump(b);
    passes_finish_other(b);
    char *why = NULL;
    if (!b->over_budget && b->again && b->stop_line && b->line >= b->stop_line)
        why = g_strdup("over the load's budget, as on its first reading");
    if (!b->over_budget && (why || (!b->again &&
        passes_charge(b, TK_INPUT_BUDGET_DUMPS, 1, &why) != 0))) {
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
        passes_warn_dump(b->diags, b->name, d, TK_PASS_BAD_HEADER);
}

static void take_facts(passes_builder *b, const passes_body_facts *f)
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

static int body_line(passes_builder *b, const char *s, size_t n, passes_body_facts *f)
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

int passes_is_blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t')
            return 0;
    return 1;
}

/* The first piece of a line: S holds LEN bytes of it (the whole line unless
 * MORE, without its "\n"). */
void passes_line_begin(passes_builder *b, uint64_t off, const char *s, size_t len,
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
            passes_finish_dump(b);
        } else if (!b->in_binary) {
            tk_diags_add(b->diags, TK_DIAG_WARNING, b->name, b->line,
                         "binary data at line %llu, skipped",
                         (unsigned long long)b->line);
        }
        b->in_binary = 1;
        b->role = PASSES_ROLE_OTHER;
        b->line_ir = b->line_message = 0;
        return;
    }
    b->in_binary = 0;

    if (b->in_dump && b->cur.status != TK_PASS_PRINTED)
        passes_finish_dump(b); /* a banner has no body */

    int blank = passes_is_blank(s, len);
    passes_header h;
    if (!more && !blank && passes_parse_header(s, len, &h)) {
        start_dump(b, &h);
        b->role = h.status == TK_PASS_PRINTED ? PASSES_ROLE_HEADER : PASSES_ROLE_BANNER;
        return;
    }
    if (b->in_dump) {
        passes_body_facts f;
        if (blank) {
            b->role = PASSES_ROLE_BODY_BLANK;
            return;
        }
        if (b->cur.kind == TK_PASS_LLVM_LEGACY &&
            b->content_line == b->cur.header_line &&
            passes_llvm_no_function_line(s, len)) {
            /* Part of the header: the pass had no function, so no body. */
            b->cur.status = TK_PASS_NO_FUNCTION;
            b->role = PASSES_ROLE_HEADER_TAIL;
            return;
        }
        b->body.truncated = more;
        if (!passes_noise_line(s, len) && body_line(b, s, len, &f)) {
            take_facts(b, &f);
            passes_digester_begin(&b->dig, s, len);
            b->role = PASSES_ROLE_BODY;
            return;
        }
        passes_finish_dump(b);
    }
    if (blank) {
        b->role = PASSES_ROLE_OTHER_BLANK;
        return;
    }
    b->role = PASSES_ROLE_OTHER;
    b->line_ir = passes_ir_like(s, len);
    b->line_message = !b->line_ir && passes_message_like(s, len);
}

void passes_line_more(passes_builder *b, const char *s, size_t len)
{
    if (b->over_budget)
        return;
    if (b->role == PASSES_ROLE_BODY)
        passes_digester_more(&b->dig, s, len);
}

/* The end of the line: NEXT is the offset after its "\n". */
void passes_line_end(passes_builder *b, uint64_t next)
{
    if (b->over_budget)
        return;
    switch (b->role) {
    case PASSES_ROLE_HEADER:
    case PASSES_ROLE_BANNER:
        b->cur.body_offset = next;
        b->content_end = next;
        b->content_line = b->line;
        break;
    case PASSES_ROLE_HEADER_TAIL: /* the dump's text goes on; its body is empty */
        b->cur.body_offset = next;
        b->content_end = next;
        break;
    case PASSES_ROLE_BODY:
        passes_digester_end(&b->dig);
        b->content_end = next;
        b->content_line = b->line;
        break;
    case PASSES_ROLE_OTHER:
        if (!b->in_other) {
            b->in_other = 1;
            memset(&b->oth, 0, sizeof b->oth);
            b->oth.offset = b->line_off;
            b->oth.line = b->line;
            b->ir_lines = 0;
            b->after_message = 0;
        }
        /* IR after a compiler message is the operation it printed with it
         * (MLIR's default), not a torn dump. */
        if (b->line_message)
            b->after_message = 1;
        if (b->line_ir && !b->after_message && b->ir_lines++ == 0)
            b->ir_first = b->line;
        b->oth_end = next;
        b->oth_last = b->line;
        break;
    case PASSES_ROLE_BODY_BLANK:
    case PASSES_ROLE_OTHER_BLANK:
        break;
    }
}
