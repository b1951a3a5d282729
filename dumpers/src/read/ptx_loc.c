/* ptx_loc.c - one PTX ".loc" directive to an inline stack. */
#include "read/ptx_loc.h"

#include <glib.h>
#include <string.h>

#include "read/frames.h"
#include "util/scan.h"

/* One frame of a comment chain, its file still a name. */
typedef struct {
    const char *name;
    size_t len;
    uint32_t line, col;
} chain_frame;

struct read_ptx_loc_reader {
    const char *name;
    tk_loctab *tab;
    read_ptx_files *files;
    tk_diags *diags;
    const char *comment;    /* what starts the trailing comment: "//", ";" */
    size_t comment_len;
    GHashTable *undeclared; /* file indices + 1 already reported */
    chain_frame chain[2]; /* the comment's first two frames */
    read_frames acc;
};

#define WARN(r, line, ...)                                                    \
    tk_diags_add((r)->diags, TK_DIAG_WARNING, (r)->name, (line), __VA_ARGS__)

read_ptx_loc_reader *read_ptx_loc_reader_new(const char *name, tk_loctab *tab,
                                             read_ptx_files *files, tk_diags *diags)
{
    read_ptx_loc_reader *r = g_new0(read_ptx_loc_reader, 1);
    r->name = name;
    r->tab = tab;
    r->files = files;
    r->diags = diags;
    r->comment = "//";
    r->comment_len = 2;
    r->undeclared = g_hash_table_new(g_direct_hash, g_direct_equal);
    return r;
}

void read_ptx_loc_reader_set_comment(read_ptx_loc_reader *r,
                                     const char *comment)
{
    r->comment = comment;
    r->comment_len = strlen(comment);
}

static int at_comment(const read_ptx_loc_reader *r, const char *p,
                      const char *end)
{
    return (size_t)(end - p) >= r->comment_len &&
           memcmp(p, r->comment, r->comment_len) == 0;
}

void read_ptx_loc_reader_free(read_ptx_loc_reader *r)
{
    if (!r)
        return;
    g_hash_table_destroy(r->undeclared);
    g_free(r);
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* The file of INDEX, or READ_PTX_NO_FILE after reporting (once per index). */
static tk_file_id file_of_index(read_ptx_loc_reader *r, uint32_t line,
                                uint32_t index)
{
    tk_file_id id = read_ptx_files_get(r->files, index);
    if (id == READ_PTX_NO_FILE) {
        gpointer key = GUINT_TO_POINTER((guint)index + 1);
        if (!g_hash_table_contains(r->undeclared, key)) {
            g_hash_table_add(r->undeclared, key);
            WARN(r, line, "file index %u is not declared by any .file "
                 "directive; locations naming it are dropped", index);
        }
    }
    return id;
}

/* Reads "F L [C]" at *P: blanks between, the column optional.  0, or -1 when
 * the numbers are not there, -2 when one does not fit in 32 bits. */
static int read_triple(const char **p, const char *end, uint32_t v[3])
{
    int overflow = 0;
    const char *q = *p;
    v[2] = 0;
    for (int i = 0; i < 3; i++) {
        const char *s = scan_skip_spaces(q, end);
        if (i > 0 && s == q)
            break; /* no blank: no further number */
        scan_status st = scan_u32(&s, end, &v[i]);
        if (st == SCAN_NONE) {
            if (i < 2)
                return -1;
            break;
        }
        if (st == SCAN_OVERFLOW)
            overflow = 1;
        q = s;
    }
    *p = q;
    return overflow ? -2 : 0;
}

/* "NAME:LINE" or "NAME:LINE:COL" in [P, E), as LLVM's DebugLoc::print
 * writes a frame (the column left out when 0).  0, -1 malformed, -2 when a
 * number does not fit. */
static int parse_frame(const char *p, const char *e, chain_frame *f)
{
    while (e > p && e[-1] == ' ')
        e--;
    const char *num2 = e;
    while (num2 > p && is_digit(num2[-1]))
        num2--;
    if (num2 == e || num2 == p || num2[-1] != ':')
        return -1;
    const char *colon = num2 - 1;
    const char *num1 = colon;
    while (num1 > p && is_digit(num1[-1]))
        num1--;
    const char *line_at = num2;
    const char *col_at = NULL;
    if (num1 < colon && num1 > p && num1[-1] == ':') {
        line_at = num1;
        col_at = num2;
        colon = num1 - 1;
    }
    if (colon == p)
        return -1; /* no name */
    f->name = p;
    f->len = (size_t)(colon - p);
    f->col = 0;
    const char *q = line_at;
    if (scan_u32(&q, e, &f->line) != SCAN_OK)
        return -2;
    if (col_at) {
        q = col_at;
        if (scan_u32(&q, e, &f->col) != SCAN_OK)
            return -2;
    }
    return 0;
}

/* Walks the comment text "F @[ F @[ F ] ]" in [P, END), frame by frame,
 * innermost first: frames 0 and 1 go to R->chain, and with PUSH every
 * frame from the second on is resolved and pushed to R->acc (up to a caller
 * without a line, which ends what can be shown).  Returns the number of
 * frames, 0 when it is not such a chain, -2 on overflow.  The walk is
 * linear and keeps nothing else, so the chain's depth costs no memory: the
 * stack is cut by read_frames' rule. */
static long walk_chain(read_ptx_loc_reader *r, const char *p, const char *end,
                       int push)
{
    size_t n = 0, open = 0;
    int ended = 0;
    const char *q;
    for (;;) {
        p = scan_skip_spaces(p, end);
        /* A frame ends at " @[" (a caller follows) or " ]" (the end of a
         * caller); names may hold blanks, so look for those pairs only. */
        for (q = p; q < end; q++) {
            if (q > p && q[-1] == ' ' &&
                ((*q == '@' && q + 1 < end && q[1] == '[') || *q == ']'))
                break;
        }
        chain_frame f;
        int st = parse_frame(p, q, &f);
        if (st != 0)
            return st == -2 ? -2 : 0;
        if (n < 2)
            r->chain[n] = f;
        if (push && n >= 1 && !ended) {
            if (f.line == 0) {
                ended = 1; /* a caller without a line ends what can be shown */
            } else {
                tk_file_id id = read_ptx_files_by_name(r->files, f.name, f.len);
                if (id == READ_PTX_NO_FILE) /* unknown or ambiguous: as written */
                    id = tk_loctab_file(r->tab, f.name, f.len);
                read_frames_push(&r->acc, (tk_frame){id, f.line, f.col});
            }
        }
        n++;
        if (q < end && *q == '@') {
            open++;
            p = q + 2;
            continue;
        }
        break;
    }
    for (p = q; open > 0; open--) {
        p = scan_skip_spaces(p, end);
        if (p >= end || *p != ']')
            return 0;
        p++;
    }
    if (scan_skip_spaces(p, end) != end)
        return 0;
    return (long)n;
}

static int same_place(const read_ptx_loc_reader *r, tk_file_id file,
                      const chain_frame *c, uint32_t line, uint32_t col)
{
    return c->line == line && c->col == col &&
           read_ptx_path_has_name(tk_loctab_file_path(r->tab, file), c->name,
                                  c->len);
}

tk_stack_id read_ptx_loc_read(read_ptx_loc_reader *r, uint32_t line,
                              const char *p, const char *end)
{
    uint32_t loc[3];
    int st = read_triple(&p, end, loc);
    if (st == -2) {
        WARN(r, line, ".loc number does not fit in 32 bits; location dropped");
        return TK_NO_STACK;
    }
    if (st != 0) {
        WARN(r, line, ".loc without file index and line; location dropped");
        return TK_NO_STACK;
    }

    /* Options (", function_name $L__info_string0, inlined_at 2 293 36")
     * up to the comment. */
    const char *comment = NULL;
    int have_ia = 0;
    uint32_t ia[3];
    while (p < end) {
        p = scan_skip_spaces(p, end);
        if (p >= end)
            break;
        if (at_comment(r, p, end)) {
            comment = p + r->comment_len;
            break;
        }
        if (*p == ',') {
            p = scan_skip_spaces(p + 1, end);
            if (scan_starts(p, end, "inlined_at") &&
                (end - p == 10 || p[10] == ' ' || p[10] == '\t')) {
                p += 10;
                st = read_triple(&p, end, ia);
                if (st == -2) {
                    WARN(r, line, ".loc inlined_at number does not fit in 32 "
                                  "bits; location dropped");
                    return TK_NO_STACK;
                }
                if (st != 0) {
                    WARN(r, line, ".loc inlined_at without file index and "
                                  "line; the caller is ignored");
                } else {
                    have_ia = 1;
                }
                continue;
            }
        }
        /* Something else ("function_name $L__info_string0", AMDGCN's
         * "prologue_end", "is_stmt 0"): skip it. */
        while (p < end && *p != ',' && !at_comment(r, p, end))
            p++;
    }

    if (loc[1] == 0)
        return TK_NO_STACK; /* "no source line": nothing to point at */
    tk_file_id file = file_of_index(r, line, loc[0]);
    if (file == READ_PTX_NO_FILE)
        return TK_NO_STACK;
    read_frames_reset(&r->acc);
    read_frames_push(&r->acc, (tk_frame){file, loc[1], loc[2]});

    tk_file_id ia_file = READ_PTX_NO_FILE;
    if (have_ia && ia[1] != 0)
        ia_file = file_of_index(r, line, ia[0]);

    long chain_n = 0;
    if (comment) {
        chain_n = walk_chain(r, comment, end, 0);
        if (chain_n == -2) {
            WARN(r, line, ".loc comment: a number does not fit in 32 bits; "
                          "its inline chain is ignored");
            chain_n = 0;
        } else if (chain_n == 0 && scan_find_str(comment, end, "@[")) {
            WARN(r, line, ".loc comment is not a well-formed inline chain "
                          "(\"f:line:col @[ f:line:col ]\"); it is ignored");
        } else if (chain_n > 0 &&
                   !same_place(r, file, &r->chain[0], loc[1], loc[2])) {
            WARN(r, line, ".loc comment starts at %.*s:%u:%u, not where the "
                 ".loc points; its inline chain is ignored",
                 (int)(r->chain[0].len > 200 ? 200 : r->chain[0].len),
                 r->chain[0].name, r->chain[0].line, r->chain[0].col);
            chain_n = 0;
        }
    }

    if (ia_file != READ_PTX_NO_FILE && chain_n >= 2 &&
        !same_place(r, ia_file, &r->chain[1], ia[1], ia[2])) {
        WARN(r, line, ".loc inlined_at and the comment's inline chain "
                      "disagree; inlined_at is used");
        chain_n = 0;
    }
    if (chain_n >= 2) {
        /* The comment has the whole chain; inlined_at, when given, agreed
         * with its first caller. */
        walk_chain(r, comment, end, 1);
        read_frames_warn(&r->acc, r->diags, r->name, line);
    } else if (ia_file != READ_PTX_NO_FILE) {
        read_frames_push(&r->acc, (tk_frame){ia_file, ia[1], ia[2]});
    }
    return read_frames_intern(&r->acc, r->tab);
}
