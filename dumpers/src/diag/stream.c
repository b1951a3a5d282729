/* stream.c - a program's stdout or stderr read a line at a time into
 * compiler messages (tk_diag.h says which forms).  Everything else on the
 * streams (IR dumps, the program's own output) is skipped; nothing is
 * held but the messages and the little state below. */
#include <stdlib.h>
#include <string.h>

#include "diag/internal.h"


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

static gboolean starts(const char *s, size_t len, const char *p)
{
    size_t n = strlen(p);
    return len >= n && memcmp(s, p, n) == 0;
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

void diag_item_free(diag_item *it)
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
        diag_item_free(it);
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
            if (starts(msg, mlen, "called from"))
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
        if (starts(s, len, bare[k].word)) {
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

static int64_t number_before(const char *s, size_t len, const char *word)
{
    const char *w = diag_find(s, len, word);
    if (!w)
        return -1;
    const char *q = w;
    while (q > s && q[-1] == ' ')
        q--;
    const char *e = q;
    while (q > s && q[-1] >= '0' && q[-1] <= '9')
        q--;
    if (q == e)
        return -1;
    return g_ascii_strtoll(q, NULL, 10);
}

static int64_t number_after(const char *s, size_t len, const char *word)
{
    const char *w = diag_find(s, len, word);
    if (!w)
        return -1;
    w += strlen(word);
    if (w >= s + len || *w < '0' || *w > '9')
        return -1;
    return g_ascii_strtoll(w, NULL, 10);
}

/* The function a ptxas message names: "in function 'K'", "in the function
 * 'K'", "in function K." */
static const char *ptxas_function(diag_reader *r, const char *s, size_t len)
{
    const char *w = diag_find(s, len, "in the function ");
    size_t n = strlen("in the function ");
    if (!w) {
        w = diag_find(s, len, "in function ");
        n = strlen("in function ");
    }
    if (!w)
        return NULL;
    const char *a = w + n, *end = s + len;
    if (a < end && *a == '\'')
        a++;
    const char *b = a;
    while (b < end && (g_ascii_isalnum(*b) || *b == '_' || *b == '$' || *b == '.'))
        b++;
    while (b > a && b[-1] == '.')
        b--;
    return b > a ? diag_str(r->set, a, b - a) : NULL;
}

static void ptxas_block_end(diag_reader *r)
{
    if (r->ptxas_fn && r->summary.present) {
        diag_summary sm = {r->ptxas_fn, r->summary};
        g_array_append_val(r->set->summaries, sm);
        if (r->summary.spill_stores > 0 || r->summary.spill_loads > 0) {
            char *msg = g_strdup_printf(
                "%" G_GINT64_FORMAT " bytes stack frame, %" G_GINT64_FORMAT
                " bytes spill stores, %" G_GINT64_FORMAT " bytes spill loads",
                r->summary.stack_frame, r->summary.spill_stores,
                r->summary.spill_loads);
            diag_item *it = diag_item_new(r, TK_DIAG_ORIGIN_PTXAS,
                                     TK_DIAG_LEVEL_WARNING, msg, -1);
            g_free(msg);
            it->kernel_name = r->ptxas_fn;
            it->has_summary = 1;
            it->summary = r->summary;
            int merged;
            diag_item_add(r, it, &merged);
        }
    }
    r->ptxas_fn = NULL;
    diag_summary_init(&r->summary);
}

/* A line of ptxas's log ("ptxas info    : ...") or of its error output. */
/* Blanks, then a digit. */
static int stack_line_start(const char *s, size_t len)
{
    size_t i = 0;
    while (i < len && s[i] == ' ')
        i++;
    return i < len && s[i] >= '0' && s[i] <= '9';
}

static int ptxas_line(diag_reader *r, const char *s, size_t len)
{
    const char *end = s + len;
    /* The stack/spill line has no "ptxas" prefix: "    N bytes stack
     * frame, ...".  IR lines start with blanks too, seldom then a digit:
     * that is looked at first (a stream is mostly IR). */
    if (len && s[0] == ' ' && stack_line_start(s, len) &&
        diag_find(s, len, "bytes stack frame,")) {
        r->summary.present = 1;
        r->summary.stack_frame = number_before(s, len, "bytes stack frame");
        r->summary.spill_stores = number_before(s, len, "bytes spill stores");
        r->summary.spill_loads = number_before(s, len, "bytes spill loads");
        return 1;
    }
    if (!starts(s, len, "ptxas "))
        return 0;
    const char *p = s + 6;
    tk_diag_level level;
    int info = 0;
    uint32_t ptx_line = 0;
    if (starts(p, (size_t)(end - p), "info"))
        info = 1, level = TK_DIAG_LEVEL_WARNING;
    else if (starts(p, (size_t)(end - p), "warning"))
        level = TK_DIAG_LEVEL_WARNING;
    else if (starts(p, (size_t)(end - p), "error") ||
             starts(p, (size_t)(end - p), "fatal"))
        level = TK_DIAG_LEVEL_ERROR;
    else {
        /* "ptxas FILE, line N; error   : ..." */
        const char *l = diag_find(p, (size_t)(end - p), ", line ");
        if (!l)
            return 0;
        const char *q = l + 7;
        int ok;
        ptx_line = diag_parse_u32(&q, end, &ok);
        if (!ok || q >= end || *q != ';')
            return 0;
        p = q + 1;
        while (p < end && *p == ' ')
            p++;
        if (starts(p, (size_t)(end - p), "warning"))
            level = TK_DIAG_LEVEL_WARNING;
        else if (starts(p, (size_t)(end - p), "error") ||
                 starts(p, (size_t)(end - p), "fatal"))
            level = TK_DIAG_LEVEL_ERROR;
        else
            return 0;
    }
    const char *colon = memchr(p, ':', (size_t)(end - p));
    if (!colon)
        return 1;
    const char *msg = colon + 1;
    while (msg < end && *msg == ' ')
        msg++;
    size_t mlen = (size_t)(end - msg);
    if (info) {
        int64_t v;
        if ((v = number_before(msg, mlen, "bytes gmem")) >= 0 &&
            !diag_find(msg, mlen, "(C")) {
            r->pending_gmem = v;
            return 1;
        }
        const char *w = diag_find(msg, mlen, "Compiling entry function '");
        if (w || starts(msg, mlen, "Function properties for ")) {
            const char *a = w ? w + strlen("Compiling entry function '")
                              : msg + strlen("Function properties for ");
            const char *b = a;
            while (b < end && *b != '\'' && *b != ' ')
                b++;
            const char *fn = diag_str(r->set, a, b - a);
            if (r->ptxas_fn && strcmp(r->ptxas_fn, fn) != 0)
                ptxas_block_end(r);
            r->ptxas_fn = fn;
            if (r->pending_gmem >= 0) {
                r->summary.gmem = r->pending_gmem;
                r->pending_gmem = -1;
            }
            return 1;
        }
        if (starts(msg, mlen, "Used ")) {
            r->summary.present = 1;
            r->summary.registers = number_before(msg, mlen, "registers");
            r->summary.barriers = number_before(msg, mlen, "barriers");
            r->summary.cumulative_stack =
                number_before(msg, mlen, "bytes cumulative stack size");
            for (int i = 0; i < 4; i++) {
                char word[16];
                g_snprintf(word, sizeof word, "bytes cmem[%d]", i);
                r->summary.cmem[i] = number_before(msg, mlen, word);
            }
            return 1;
        }
        if (starts(msg, mlen, "Compile time")) {
            ptxas_block_end(r);
            return 1;
        }
        if (!starts(msg, mlen, "(C"))
            return 1; /* other info lines: not messages */
    }
    /* "(C7602) text": the code. */
    const char *code = NULL;
    if (starts(msg, mlen, "(C")) {
        const char *c = memchr(msg, ')', mlen);
        if (c && c - msg <= 8) {
            code = diag_str(r->set, msg + 1, c - msg - 1);
            msg = c + 1;
            while (msg < end && *msg == ' ')
                msg++;
            mlen = (size_t)(end - msg);
        }
    }
    if (level == TK_DIAG_LEVEL_ERROR && !code &&
        starts(msg, mlen, "Ptx assembly aborted due to errors")) {
        if (r->last_ptxas_error &&
            r->last_ptxas_error->notes->len == 0)
            g_ptr_array_add(r->last_ptxas_error->notes,
                            (char *)diag_str(r->set, msg, (gssize)mlen));
        return 1;
    }
    diag_item *it = diag_item_new(r, TK_DIAG_ORIGIN_PTXAS, level, msg, mlen);
    it->pub.code = code;
    it->kernel_name = ptxas_function(r, msg, mlen);
    if (!it->kernel_name)
        it->kernel_name = r->ptxas_fn;
    int64_t at = number_after(msg, mlen, "at line ");
    if (at > 0 && at <= 0xffffffff)
        ptx_line = (uint32_t)at;
    if (ptx_line) {
        it->pub.ir_line = ptx_line;
        it->pub.has_stage = 1;
        it->pub.stage = TK_STAGE_PTX;
    }
    int merged;
    diag_item *kept = diag_item_add(r, it, &merged);
    r->last = NULL;
    if (level == TK_DIAG_LEVEL_ERROR)
        r->last_ptxas_error = merged ? NULL : kept;
    return 1;
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
    if (len && s[len - 1] == '\r')
        len--;
    if (r->fe_state == 1) {
        if (diag_caret_line(s, len))
            r->fe_state = 2;
        else if (r->fe->fe_snippet->len < 10000)
            g_ptr_array_add(r->fe->fe_snippet, g_strndup(s, len));
        return;
    }
    if (r->fe_state == 2) {
        if (len == 0 || starts(s, len, "Traceback ") ||
            starts(s, len, "The above exception")) {
            diag_fe_finish(r);
        } else {
            if (r->fe_message->len && r->fe_message->len < 65536)
                g_string_append_c(r->fe_message, '\n');
            if (r->fe_message->len < 65536)
                g_string_append_len(r->fe_message, s, (gssize)len);
            return;
        }
    }
    if (starts(s, len, "Traceback (most recent call last):")) {
        r->in_traceback = 1;
        g_ptr_array_set_size(r->tb_files, 0);
        return;
    }
    if (r->in_traceback) {
        if (len && s[0] == ' ') {
            diag_traceback_frame(r, s, len);
            return;
        }
        if (len == 0)
            return;
        diag_traceback_end(r, s, len);
        return;
    }
    if (ptxas_line(r, s, len))
        return;
    if (len > 4 && may_be_mlir(s, len))
        mlir_line(r, s, len);
}

void diag_reader_end(diag_reader *r)
{
    if (r->fe)
        diag_fe_finish(r);
    ptxas_block_end(r);
    g_ptr_array_free(r->tb_files, TRUE);
    g_free(r);
}
