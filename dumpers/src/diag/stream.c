/* stream.c - a program's stdout or stderr read a line at a time into
 * compiler messages (tk_diag.h says which forms).  Everything else on the
 * streams (IR dumps, the program's own output) is skipped; nothing is
 * held but the messages and the little state below (reader.h).  ptxas's log
 * is read by stream_ptxas.c. */
#include <stdlib.h>
#include <string.h>

#include "tkdump/tk_lines.h"

#include "diag/reader.h"

void diag_summary_init(tk_diag_ptxas_summary *s)
{
    memset(s, 0, sizeof *s);
    s->registers = s->barriers = -1;
    s->stack_frame = s->spill_stores = s->spill_loads = -1;
    s->cumulative_stack = s->gmem = -1;
    for (int i = 0; i < 4; i++)
        s->cmem[i] = -1;
}

diag_reader *diag_reader_begin(tk_diag_set *set, const char *name)
{
    diag_reader *r = g_new0(diag_reader, 1);
    r->set = set;
    r->name = diag_str(set, name, -1);
    r->tb_files = g_ptr_array_new();
    r->pending_gmem = -1;
    diag_summary_init(&r->summary);
    return r;
}

/* The first occurrence of P in S[0, LEN), or NULL. */
const char *diag_find(const char *s, size_t len, const char *p)
{
    return memmem(s, len, p, strlen(p));
}

uint32_t diag_parse_u32(const char **p, const char *end, int *ok)
{
    uint64_t v = 0;
    const char *s = *p;
    while (s < end && *s >= '0' && *s <= '9' && v < 0xffffffffu)
        v = v * 10 + (uint64_t)(*s++ - '0');
    *ok = s > *p && v <= 0xffffffffu;
    *p = s;
    return (uint32_t)v;
}

diag_item *diag_item_new(diag_reader *r, tk_diag_origin origin,
                         tk_diag_level level, const char *message,
                         size_t mlen)
{
    diag_item *it = g_new0(diag_item, 1);
    it->pub.kernel = SIZE_MAX;
    it->pub.origin = origin;
    it->pub.level = level;
    it->pub.message = diag_str(r->set, message, (gssize)mlen);
    it->pub.count = 1;
    it->pub.stream = r->name;
    it->pub.stream_line = r->lineno;
    it->notes = g_ptr_array_new();
    it->frames = g_array_new(FALSE, FALSE, sizeof(tk_diag_frame));
    it->group = r->group;
    return it;
}

static void item_free(diag_item *it)
{
    g_ptr_array_free(it->notes, TRUE);
    g_array_free(it->frames, TRUE);
    if (it->fe_snippet)
        g_ptr_array_free(it->fe_snippet, TRUE);
    if (it->fe_files)
        g_ptr_array_free(it->fe_files, TRUE);
    g_free(it);
}

/* Adds IT, or counts it on an earlier identical message (same origin,
 * level, code, function, place and text) and frees it.  Returns the item
 * kept, and sets *MERGED. */
diag_item *diag_item_add(diag_reader *r, diag_item *it, int *merged)
{
    const tk_diag_frame *f = it->frames->len
        ? &g_array_index(it->frames, tk_diag_frame, 0) : NULL;
    char *key = g_strdup_printf("%d|%d|%s|%s|%s|%u|%u|%u|%s",
        it->pub.origin, it->pub.level, it->pub.code ? it->pub.code : "",
        it->kernel_name ? it->kernel_name : "", f ? f->file : "",
        f ? f->line : 0, f ? f->column : 0, it->pub.ir_line, it->pub.message);
    diag_item *old = g_hash_table_lookup(r->set->seen, key);
    if (old) {
        /* Counted within one stream: the PTXASError on stderr quotes the
         * fatal ptxas printed on stdout, one message. */
        if (old->pub.stream == r->name)
            old->pub.count++;
        g_free(key);
        item_free(it);
        *merged = 1;
        return old;
    }
    g_hash_table_insert(r->set->seen, key, it);
    g_ptr_array_add(r->set->items, it);
    *merged = 0;
    return it;
}

static void frame_add(diag_reader *r, diag_item *it, const char *file,
                      size_t flen, uint32_t line, uint32_t col)
{
    tk_diag_frame f = {diag_str(r->set, file, (gssize)flen), line, col};
    g_array_append_val(it->frames, f);
}

/* "PATH:L:C: LEVEL: MESSAGE", MLIR's diagnostic printer.  Returns 1 when
 * LINE is one. */
static int mlir_line(diag_reader *r, const char *s, size_t len)
{
    static const struct {
        const char *word;
        int level; /* -1: note */
    } levels[] = {{": remark: ", TK_DIAG_LEVEL_REMARK},
                  {": warning: ", TK_DIAG_LEVEL_WARNING},
                  {": error: ", TK_DIAG_LEVEL_ERROR},
                  {": note: ", -1}};
    const char *end = s + len;
    for (size_t k = 0; k < G_N_ELEMENTS(levels); k++) {
        const char *w = diag_find(s, len, levels[k].word);
        if (!w)
            continue;
        /* Back from W over ":L:C" to the path. */
        const char *p = w;
        const char *c_colon = NULL, *l_colon = NULL;
        for (const char *q = p - 1; q > s; q--) {
            if (*q == ':') {
                if (!c_colon)
                    c_colon = q;
                else {
                    l_colon = q;
                    break;
                }
            } else if (*q < '0' || *q > '9')
                break;
        }
        if (!c_colon || !l_colon || l_colon == s)
            continue;
        int ok1, ok2;
        const char *q = l_colon + 1;
        uint32_t line = diag_parse_u32(&q, c_colon, &ok1);
        q = c_colon + 1;
        uint32_t col = diag_parse_u32(&q, w, &ok2);
        if (!ok1 || !ok2 || line == 0)
            continue;
        const char *msg = w + strlen(levels[k].word);
        size_t mlen = (size_t)(end - msg);
        if (levels[k].level < 0) {
            if (!r->last)
                return 1;
            /* "called from": the caller of an inlined location. */
            if (diag_starts(msg, mlen, "called from"))
                frame_add(r, r->last, s, (size_t)(l_colon - s), line, col);
            else
                g_ptr_array_add(r->last->notes,
                                (char *)diag_str(r->set, msg, (gssize)mlen));
            /* The pass a failed pipeline names. */
            const char *pf = diag_find(msg, mlen, "Pipeline failed while executing [`");
            if (pf) {
                const char *a = pf + strlen("Pipeline failed while executing [`");
                const char *b = memchr(a, '`', (size_t)(end - a));
                if (b && b > a) {
                    const char *pass = diag_str(r->set, a, b - a);
                    for (guint i = 0; i < r->set->items->len; i++) {
                        diag_item *it = r->set->items->pdata[i];
                        if (it->pub.stream == r->name && it->group == r->group &&
                            it->pub.origin == TK_DIAG_ORIGIN_MLIR) {
                            it->pub.pass = pass;
                            it->pub.pass_from = "stream";
                        }
                    }
                }
            }
            return 1;
        }
        diag_item *it = diag_item_new(r, TK_DIAG_ORIGIN_MLIR, levels[k].level, msg,
                                      mlen);
        frame_add(r, it, s, (size_t)(l_colon - s), line, col);
        int merged;
        diag_item *kept = diag_item_add(r, it, &merged);
        r->last = merged ? NULL : kept;
        return 1;
    }
    /* LLVM's own messages carry no location: "warning: ..." / "error: ...". */
    static const struct {
        const char *word;
        tk_diag_level level;
    } bare[] = {{"remark: ", TK_DIAG_LEVEL_REMARK},
                {"warning: ", TK_DIAG_LEVEL_WARNING},
                {"error: ", TK_DIAG_LEVEL_ERROR}};
    for (size_t k = 0; k < G_N_ELEMENTS(bare); k++)
        if (diag_starts(s, len, bare[k].word)) {
            size_t n = strlen(bare[k].word);
            int merged;
            diag_item *kept = diag_item_add(r,
                diag_item_new(r, TK_DIAG_ORIGIN_LLVM, bare[k].level, s + n, len - n),
                &merged);
            r->last = merged ? NULL : kept;
            return 1;
        }
    return 0;
}

/* Triton's make_ttir ... make_cubin frames tell the stage being made. */
static void traceback_frame(diag_reader *r, const char *s, size_t len)
{
    const char *f = diag_find(s, len, "File \"");
    if (f) {
        const char *a = f + 6;
        const char *b = memchr(a, '"', (size_t)(s + len - a));
        /* The user's files, not Python's or Triton's installed ones. */
        if (b && g_strstr_len(a, b - a, "-packages/") == NULL)
            g_ptr_array_add(r->tb_files, (char *)diag_str(r->set, a, b - a));
    }
    static const struct {
        const char *fn;
        tk_stage_kind kind;
    } makes[] = {{", in make_ttir", TK_STAGE_TTIR},
                 {", in make_ttgir", TK_STAGE_TTGIR},
                 {", in make_llir", TK_STAGE_LLIR},
                 {", in make_ptx", TK_STAGE_PTX},
                 {", in make_cubin", TK_STAGE_PTX}};
    for (size_t k = 0; k < G_N_ELEMENTS(makes); k++)
        if (diag_find(s, len, makes[k].fn)) {
            r->tb_has_stage = 1;
            r->tb_stage = makes[k].kind;
        }
}

/* The exception that ends a traceback: gives the stage to this compile's
 * MLIR messages, starts a front-end error, and ends the group. */
static void traceback_end(diag_reader *r, const char *s, size_t len)
{
    if (r->tb_has_stage)
        for (guint i = 0; i < r->set->items->len; i++) {
            diag_item *it = r->set->items->pdata[i];
            if (it->pub.stream == r->name && it->group == r->group &&
                it->pub.origin != TK_DIAG_ORIGIN_PTXAS && !it->pub.has_stage) {
                it->pub.has_stage = 1;
                it->pub.stage = r->tb_stage;
                it->stage_from_stream = 1;
            }
        }
    /* "....CompilationError: at 5:8:" (and its subclasses'). */
    const char *w = diag_find(s, len, "Error: at ");
    if (!w)
        w = diag_find(s, len, "Failure: at ");
    if (!w)
        w = diag_find(s, len, "Construct: at ");
    if (w) {
        const char *q = strstr(w, ": at ") + 5;
        const char *end = s + len;
        int ok1, ok2 = 0;
        uint32_t l = diag_parse_u32(&q, end, &ok1);
        uint32_t c = 0;
        if (ok1 && q < end && *q == ':') {
            q++;
            c = diag_parse_u32(&q, end, &ok2);
        }
        if (ok1 && ok2 && l > 0) {
            diag_item *it = diag_item_new(r, TK_DIAG_ORIGIN_FRONTEND,
                                          TK_DIAG_LEVEL_ERROR, "", 0);
            it->fe_line = l;
            it->fe_col = c;
            it->fe_snippet = g_ptr_array_new_with_free_func(g_free);
            it->fe_files = g_ptr_array_new();
            for (guint i = 0; i < r->tb_files->len; i++)
                g_ptr_array_add(it->fe_files, r->tb_files->pdata[i]);
            r->fe = it;
            r->fe_state = 1;
            r->fe_message = g_string_new(NULL);
        }
    }
    r->in_traceback = 0;
    r->tb_has_stage = 0;
    r->group++;
    r->last = NULL;
}

static void fe_finish(diag_reader *r)
{
    diag_item *it = r->fe;
    if (!it)
        return;
    if (r->fe_state != 2 || r->fe_message->len == 0) {
        /* No caret or no message: not the form Triton prints. */
        g_string_free(r->fe_message, TRUE);
        r->fe_message = NULL;
        r->fe = NULL;
        r->fe_state = 0;
        item_free(it);
        return;
    }
    it->pub.message = diag_str(r->set, r->fe_message->str, -1);
    if (it->fe_snippet->len) {
        /* "def NAME(": the kernel. */
        const char *d = it->fe_snippet->pdata[0];
        while (*d == ' ')
            d++;
        if (g_str_has_prefix(d, "def ")) {
            const char *a = d + 4, *b = a;
            while (g_ascii_isalnum(*b) || *b == '_')
                b++;
            if (b > a)
                it->kernel_name = diag_str(r->set, a, b - a);
        }
    }
    int merged;
    diag_item_add(r, it, &merged);
    g_string_free(r->fe_message, TRUE);
    r->fe_message = NULL;
    r->fe = NULL;
    r->fe_state = 0;
}

static int caret_line(const char *s, size_t len)
{
    int caret = 0;
    for (size_t i = 0; i < len; i++)
        if (s[i] == '^')
            caret = 1;
        else if (s[i] != ' ' && s[i] != '~')
            return 0;
    return caret;
}

/* Cheap filter before mlir_line()'s searches: an MLIR message has ": "
 * then one of its level words ("remark", "warning", "error", "note"); an
 * LLVM one starts with one.  Most lines of a stream are IR, with few ':'. */
static int may_be_mlir(const char *s, size_t len)
{
    if (s[0] == 'r' || s[0] == 'w' || s[0] == 'e')
        return 1;
    const char *end = s + len;
    for (const char *c = memchr(s, ':', len); c && end - c > 2;
         c = memchr(c + 1, ':', (size_t)(end - c - 1)))
        if (c[1] == ' ' &&
            (c[2] == 'r' || c[2] == 'w' || c[2] == 'e' || c[2] == 'n'))
            return 1;
    return 0;
}

void diag_reader_line(diag_reader *r, const char *s, size_t len)
{
    r->lineno++;
    len = tk_lines_trim(s, len);
    if (r->fe_state == 1) {
        if (caret_line(s, len))
            r->fe_state = 2;
        else if (r->fe->fe_snippet->len < 10000)
            g_ptr_array_add(r->fe->fe_snippet, g_strndup(s, len));
        return;
    }
    if (r->fe_state == 2) {
        if (len == 0 || diag_starts(s, len, "Traceback ") ||
            diag_starts(s, len, "The above exception")) {
            fe_finish(r);
        } else {
            if (r->fe_message->len && r->fe_message->len < 65536)
                g_string_append_c(r->fe_message, '\n');
            if (r->fe_message->len < 65536)
                g_string_append_len(r->fe_message, s, (gssize)len);
            return;
        }
    }
    if (diag_starts(s, len, "Traceback (most recent call last):")) {
        r->in_traceback = 1;
        g_ptr_array_set_size(r->tb_files, 0);
        return;
    }
    if (r->in_traceback) {
        if (len && s[0] == ' ') {
            traceback_frame(r, s, len);
            return;
        }
        if (len == 0)
            return;
        traceback_end(r, s, len);
        return;
    }
    if (diag_ptxas_line(r, s, len))
        return;
    if (len > 4 && may_be_mlir(s, len))
        mlir_line(r, s, len);
}

void diag_reader_end(diag_reader *r)
{
    if (r->fe)
        fe_finish(r);
    diag_ptxas_block_end(r);
    g_ptr_array_free(r->tb_files, TRUE);
    g_free(r);
}
