/* llvm_meta.c - one LLVM module's metadata nodes, resolved on demand. */
#include "read/llvm_meta.h"

#include <glib.h>
#include <string.h>

#include "read/frames.h"
#include "read/llvm_fields.h"
#include "util/scan.h"

#define NONE UINT32_MAX

/* A scope chain (lexical block -> block -> subprogram -> file) longer than
 * this is malformed or hostile; real ones are a few links. */
#define MAX_SCOPE_DEPTH 64

typedef enum {
    K_UNPARSED,
    K_LOCATION,   /* !DILocation */
    K_FILE,       /* !DIFile */
    K_SUBPROGRAM, /* !DISubprogram: a scope with a line of its own */
    K_SCOPE,      /* any other !DI...(...): may carry file: and scope: */
    K_OTHER,      /* tuples, strings, expressions: never a location */
    K_BAD         /* malformed, reported once */
} md_kind;

typedef struct {
    const char *body, *end; /* the text after "!N = ", copied */
    uint32_t num, line_no;
    uint8_t kind;
    uint8_t stack_done;  /* STACK is the memoized answer */
    uint8_t file_done;   /* FILE_ID is the memoized answer */
    uint32_t visit;       /* inlinedAt walk stamp, for cycle checks */
    uint32_t scope_visit; /* scope walk stamp */
    uint32_t line, col;
    uint32_t scope, inlined, file; /* node numbers, NONE when absent */
    tk_stack_id stack;
    tk_file_id file_id;  /* NONE when it has none */
    /* As a frame of inlinedAt chains (md_chain()): its own frame's file, the
     * number of frames from it to the chain's outer end (itself included),
     * and the stack of the outermost of those, at most READ_FRAMES_OUTER. */
    uint8_t chain_state;
    tk_file_id frame_file;
    uint64_t depth;
    tk_stack_id outer;
} md_node;

enum { CHAIN_UNKNOWN, CHAIN_OK, CHAIN_END, CHAIN_BAD };

struct read_llvm_meta {
    char *name;           /* the text's, for diagnostics */
    GStringChunk *copies; /* the nodes' text, this module's */
    tk_loctab *tab;
    tk_diags *diags;

    md_node *nodes;
    size_t n, cap;

    /* number -> index into NODES: a flat array when the numbers are dense
     * (always, for LLVM's own output), a hash table otherwise. */
    uint32_t *dense;
    size_t dense_len, dense_cap;
    GHashTable *sparse;   /* number + 1 -> index + 1 */
    GHashTable *missing;  /* numbers already reported undefined */

    uint32_t stamp, scope_stamp;
    GString *scratch;
    GPtrArray *path; /* md_chain()'s walk */
    read_frames acc;
};

read_llvm_meta *read_llvm_meta_new(const char *name, tk_loctab *tab,
                                   tk_diags *diags)
{
    read_llvm_meta *m = g_new0(read_llvm_meta, 1);
    m->name = g_strdup(name);
    m->copies = g_string_chunk_new(64 * 1024);
    m->tab = tab;
    m->diags = diags;
    m->missing = g_hash_table_new(g_direct_hash, g_direct_equal);
    m->scratch = g_string_new(NULL);
    m->path = g_ptr_array_new();
    return m;
}

void read_llvm_meta_free(read_llvm_meta *m)
{
    if (!m)
        return;
    g_free(m->name);
    g_string_chunk_free(m->copies);
    g_free(m->nodes);
    g_free(m->dense);
    if (m->sparse)
        g_hash_table_destroy(m->sparse);
    g_hash_table_destroy(m->missing);
    g_string_free(m->scratch, TRUE);
    g_ptr_array_free(m->path, TRUE);
    g_free(m);
}

void read_llvm_meta_reset(read_llvm_meta *m)
{
    /* Clear only the slots this module used: resetting must cost what the
     * module cost, not the largest module seen so far. */
    if (m->dense)
        for (size_t i = 0; i < m->n; i++)
            if (m->nodes[i].num < m->dense_len)
                m->dense[m->nodes[i].num] = NONE;
    m->dense_len = 0;
    if (m->sparse) {
        g_hash_table_destroy(m->sparse);
        m->sparse = NULL;
    }
    if (g_hash_table_size(m->missing))
        g_hash_table_remove_all(m->missing);
    m->n = 0;
    g_string_chunk_clear(m->copies);
}

size_t read_llvm_meta_count(const read_llvm_meta *m)
{
    return m->n;
}

#define WARN(m, line, ...)                                                    \
    tk_diags_add((m)->diags, TK_DIAG_WARNING, (m)->name, (line),        \
                 __VA_ARGS__)

void read_llvm_meta_add_def(read_llvm_meta *m, uint32_t line, const char *p,
                            const char *end)
{
    const char *q = p + 1;
    uint32_t num;
    scan_status st = scan_u32(&q, end, &num);
    if (st == SCAN_NONE)
        return;
    q = scan_skip_spaces(q, end);
    if (q >= end || *q != '=')
        return; /* "!12" alone, or a named node: not a definition */
    if (st == SCAN_OVERFLOW || num == NONE) {
        WARN(m, line, "metadata node number does not fit in 32 bits; "
                      "node ignored");
        return;
    }
    if (m->n == m->cap) {
        m->cap = m->cap ? m->cap * 2 : 256;
        m->nodes = g_renew(md_node, m->nodes, m->cap);
    }
    md_node *n = &m->nodes[m->n++];
    memset(n, 0, sizeof *n);
    const char *body = scan_skip_spaces(q + 1, end);
    n->body = g_string_chunk_insert_len(m->copies, body, (gssize)(end - body));
    n->end = n->body + (end - body);
    n->num = num;
    n->line_no = line;
    n->kind = K_UNPARSED;
    n->stack = TK_NO_STACK;
    n->file_id = NONE;
}

void read_llvm_meta_index(read_llvm_meta *m)
{
    uint32_t max = 0;
    for (size_t i = 0; i < m->n; i++)
        if (m->nodes[i].num > max)
            max = m->nodes[i].num;
    /* LLVM numbers nodes 0, 1, 2, ...: a flat array.  Numbers far above the
     * node count (hand-made or hostile input) go to a hash table instead, so
     * memory stays proportional to the text. */
    if (m->n > 0 && (size_t)max < 4 * m->n + 4096) {
        if ((size_t)max + 1 > m->dense_cap) {
            size_t old = m->dense_cap;
            m->dense_cap = (size_t)max + 1 > 2 * old ? (size_t)max + 1 : 2 * old;
            m->dense = g_renew(uint32_t, m->dense, m->dense_cap);
            memset(m->dense + old, 0xff, (m->dense_cap - old) * sizeof *m->dense);
        }
        m->dense_len = (size_t)max + 1;
    } else if (m->n > 0) {
        m->sparse = g_hash_table_new(g_direct_hash, g_direct_equal);
    }
    for (size_t i = 0; i < m->n; i++) {
        md_node *n = &m->nodes[i];
        int dup;
        if (m->dense_len) {
            dup = m->dense[n->num] != NONE;
            if (!dup)
                m->dense[n->num] = (uint32_t)i;
        } else {
            gpointer key = GUINT_TO_POINTER(n->num + 1);
            dup = g_hash_table_contains(m->sparse, key);
            if (!dup)
                g_hash_table_insert(m->sparse, key,
                                    GUINT_TO_POINTER((guint)i + 1));
        }
        if (dup) {
            WARN(m, n->line_no, "!%u is defined twice in this module; "
                                "the first definition is used", n->num);
            n->kind = K_BAD;
        }
    }
}

static md_node *md_lookup(read_llvm_meta *m, uint32_t num)
{
    if (num == NONE)
        return NULL;
    if (m->dense_len)
        return num < m->dense_len && m->dense[num] != NONE
                   ? &m->nodes[m->dense[num]]
                   : NULL;
    if (m->sparse) {
        gpointer v = g_hash_table_lookup(m->sparse, GUINT_TO_POINTER(num + 1));
        return v ? &m->nodes[GPOINTER_TO_UINT(v) - 1] : NULL;
    }
    return NULL;
}

/* ---- nodes ---- */

#define MD_NAME_MAX 24

/* "!N" for messages; a node written in place has no number. */
static const char *md_name(const md_node *n, char buf[MD_NAME_MAX])
{
    if (n->num == NONE)
        return "DILocation";
    g_snprintf(buf, MD_NAME_MAX, "!%u", n->num);
    return buf;
}

static const struct {
    const char *prefix;
    md_kind kind;
} node_kinds[] = {
    {"!DILocation(", K_LOCATION},
    {"!DIFile(", K_FILE},
    {"!DISubprogram(", K_SUBPROGRAM},
};

static void md_bad(read_llvm_meta *m, md_node *n, const char *why)
{
    char nb[MD_NAME_MAX];
    WARN(m, n->line_no, "%s: %s; locations using it are dropped", md_name(n, nb), why);
    n->kind = K_BAD;
}

/* The DIFile's "directory/filename" as a file id (just the file name when
 * it is absolute or there is no directory). */
static void md_parse_file(read_llvm_meta *m, md_node *n, const char *p)
{
    read_md_field f, name = {0}, dir = {0};
    int have_name = 0, have_dir = 0;
    while ((p = read_md_next_field(p, n->end, &f))) {
        if (read_md_key_is(&f, "filename")) {
            name = f;
            have_name = 1;
        } else if (read_md_key_is(&f, "directory")) {
            dir = f;
            have_dir = 1;
        }
    }
    GString *s = m->scratch;
    g_string_truncate(s, 0);
    if (have_dir && read_md_val_string(&dir, s) != 0) {
        md_bad(m, n, "DIFile directory is not a string");
        return;
    }
    size_t dir_len = s->len;
    if (!have_name || read_md_val_string(&name, s) != 0 || s->len == dir_len) {
        md_bad(m, n, "DIFile without a file name");
        return;
    }
    if (s->str[dir_len] == '/' || dir_len == 0) {
        g_string_erase(s, 0, (gssize)dir_len);
    } else if (s->str[dir_len - 1] != '/') {
        g_string_insert_c(s, (gssize)dir_len, '/');
    }
    n->file_id = tk_loctab_file(m->tab, s->str, s->len);
    n->file_done = 1;
}

static void md_parse(read_llvm_meta *m, md_node *n)
{
    if (n->kind != K_UNPARSED)
        return;
    const char *p = n->body, *end = n->end;
    if (scan_starts(p, end, "distinct "))
        p = scan_skip_spaces(p + 9, end);
    n->kind = K_OTHER;
    n->scope = n->inlined = n->file = NONE;
    if (!scan_starts(p, end, "!DI"))
        return;
    n->kind = K_SCOPE;
    for (size_t i = 0; i < G_N_ELEMENTS(node_kinds); i++)
        if (scan_starts(p, end, node_kinds[i].prefix)) {
            n->kind = node_kinds[i].kind;
            break;
        }
    p = scan_find(p, end, '(');
    if (!p) {
        md_bad(m, n, "no field list");
        return;
    }
    p++;
    if (n->kind == K_FILE) {
        md_parse_file(m, n, p);
        return;
    }
    read_md_field f;
    int have_line = 0, bad = 0;
    const char *why;
    while ((p = read_md_next_field(p, end, &f))) {
        if (read_md_key_is(&f, "line")) {
            int r = read_md_val_u32(&f, &n->line);
            if (r == -2) {
                why = "line number does not fit in 32 bits";
                goto bad;
            }
            if (r != 0) {
                why = "line is not a number";
                goto bad;
            }
            have_line = 1;
        } else if (read_md_key_is(&f, "column") && n->kind == K_LOCATION) {
            int r = read_md_val_u32(&f, &n->col);
            if (r == -2) {
                why = "column number does not fit in 32 bits";
                goto bad;
            }
            if (r != 0) {
                why = "column is not a number";
                goto bad;
            }
        } else if (read_md_key_is(&f, "scope")) {
            n->scope = read_md_val_ref(&f, &bad);
            if (bad) {
                why = "scope is not a node reference";
                goto bad;
            }
        } else if (read_md_key_is(&f, "inlinedAt") && n->kind == K_LOCATION) {
            n->inlined = read_md_val_ref(&f, &bad);
            if (bad) {
                why = "inlinedAt is not a node reference";
                goto bad;
            }
        } else if (read_md_key_is(&f, "file")) {
            n->file = read_md_val_ref(&f, &bad);
            if (bad) {
                why = "file is not a node reference";
                goto bad;
            }
        }
    }
    if (n->kind == K_LOCATION && (!have_line || n->scope == NONE)) {
        why = "DILocation without line or scope";
        goto bad;
    }
    return;
bad:
    md_bad(m, n, why);
}

/* The file of scope number NUM: its own when it is a DIFile, its file: when
 * it names one, else its parent scope's.  NONE (reported against USER, the
 * node whose location needed it) when the chain ends without a file. */
static tk_file_id md_scope_file(read_llvm_meta *m, uint32_t num, md_node *user)
{
    char nb[MD_NAME_MAX];
    md_node *start = md_lookup(m, num);
    if (start && start->file_done)
        return start->file_id;
    uint32_t stamp = ++m->scope_stamp;
    tk_file_id id = NONE;
    md_node *cur = start;
    uint32_t cur_num = num;
    for (int steps = 0;; steps++) {
        if (!cur) {
            WARN(m, user->line_no, "%s: scope !%u is not defined in this "
                 "module; locations using it are dropped", md_name(user, nb), cur_num);
            break;
        }
        if (cur->scope_visit == stamp || steps == MAX_SCOPE_DEPTH) {
            WARN(m, user->line_no, "%s: the scope chain from !%u loops or is "
                 "too deep; locations using it are dropped", md_name(user, nb), num);
            break;
        }
        cur->scope_visit = stamp;
        md_parse(m, cur);
        if (cur->file_done) {
            id = cur->file_id;
            break;
        }
        if (cur->kind == K_FILE || cur->kind == K_BAD)
            break; /* a broken DIFile was reported when parsed */
        if (cur->kind != K_SCOPE && cur->kind != K_SUBPROGRAM) {
            WARN(m, user->line_no, "%s: scope !%u is not a debug-info scope; "
                 "locations using it are dropped", md_name(user, nb), cur->num);
            break;
        }
        if (cur->file != NONE) {
            md_node *f = md_lookup(m, cur->file);
            if (f)
                md_parse(m, f);
            if (!f || f->kind != K_FILE) {
                WARN(m, user->line_no, "%s: file !%u is not a defined DIFile; "
                     "locations using it are dropped", md_name(user, nb), cur->file);
                break;
            }
            id = f->file_id; /* NONE if the DIFile was broken */
            break;
        }
        if (cur->scope == NONE) {
            WARN(m, user->line_no, "%s: scope !%u names no file; locations "
                 "using it are dropped", md_name(user, nb), cur->num);
            break;
        }
        cur_num = cur->scope;
        cur = md_lookup(m, cur_num);
    }
    if (start) {
        start->file_done = 1;
        start->file_id = id;
    }
    return id;
}

/* Walks the inlinedAt chain from location node N once, giving every node on
 * it its chain facts (md_node: frame_file, depth, outer), so that no node is
 * walked twice whatever the number of instructions using the chain: a
 * million-long chain costs a million steps, not a million per instruction.
 * Problems are reported against N's line; the nodes after them are marked
 * CHAIN_BAD and the locations using them dropped. */
static void md_chain(read_llvm_meta *m, md_node *n)
{
    char nb[MD_NAME_MAX];
    uint32_t stamp = ++m->stamp;
    GPtrArray *path = m->path;
    g_ptr_array_set_size(path, 0);
    md_node *cur = n;
    uint8_t end_state = CHAIN_END; /* what the walk ended on */
    md_node *base = NULL;          /* a node walked before, or NULL */
    for (;;) {
        if (cur->chain_state != CHAIN_UNKNOWN) {
            base = cur;
            end_state = cur->chain_state == CHAIN_BAD ? CHAIN_BAD : CHAIN_OK;
            break;
        }
        if (cur->visit == stamp) {
            WARN(m, n->line_no, "%s: inlinedAt chain loops back to !%u; "
                 "location dropped", md_name(n, nb), cur->num);
            end_state = CHAIN_BAD;
            break;
        }
        cur->visit = stamp;
        md_parse(m, cur);
        if (cur->kind == K_BAD) {
            end_state = CHAIN_BAD;
            break;
        }
        if (cur->kind != K_LOCATION) {
            WARN(m, n->line_no, "%s: inlinedAt !%u is not a DILocation; "
                 "location dropped", md_name(n, nb), cur->num);
            end_state = CHAIN_BAD;
            break;
        }
        if (cur->line == 0) {
            /* Line 0 is LLVM's "no source line": as a caller it ends the
             * stack (the instruction's own line 0 is seen by the caller). */
            cur->chain_state = CHAIN_END;
            base = cur;
            break;
        }
        cur->frame_file = md_scope_file(m, cur->scope, n);
        if (cur->frame_file == NONE) {
            end_state = CHAIN_BAD;
            break;
        }
        g_ptr_array_add(path, cur);
        if (cur->inlined == NONE)
            break;
        md_node *next = md_lookup(m, cur->inlined);
        if (!next) {
            WARN(m, n->line_no, "%s: inlinedAt !%u is not defined in this "
                 "module; location dropped", md_name(n, nb), cur->inlined);
            end_state = CHAIN_BAD;
            break;
        }
        cur = next;
    }
    /* From the outer end inward: each node's facts from its caller's. */
    uint64_t depth = base && base->chain_state == CHAIN_OK ? base->depth : 0;
    tk_stack_id outer = base && base->chain_state == CHAIN_OK ? base->outer
                                                              : TK_NO_STACK;
    for (guint i = path->len; i-- > 0;) {
        md_node *y = path->pdata[i];
        if (end_state == CHAIN_BAD) {
            y->chain_state = CHAIN_BAD;
            continue;
        }
        y->chain_state = CHAIN_OK;
        y->depth = ++depth;
        if (depth <= READ_FRAMES_OUTER) {
            tk_frame fr[READ_FRAMES_OUTER];
            size_t k = 0;
            if (outer != TK_NO_STACK) {
                const tk_frame *of = tk_loctab_stack_frames(m->tab, outer, &k);
                memcpy(fr + 1, of, k * sizeof *of);
            }
            fr[0] = (tk_frame){y->frame_file, y->line, y->col};
            outer = tk_loctab_stack(m->tab, fr, k + 1);
        }
        y->outer = outer;
    }
}

/* Frames of location node N and of its inlinedAt chain, innermost first,
 * cut by read/frames.h's rule when the chain is deeper than it keeps. */
static tk_stack_id md_location_stack(read_llvm_meta *m, md_node *n)
{
    md_parse(m, n);
    if (n->kind == K_BAD)
        return TK_NO_STACK;
    if (n->line == 0)
        return TK_NO_STACK; /* "no source line": nothing to show */
    md_chain(m, n);
    if (n->chain_state != CHAIN_OK)
        return TK_NO_STACK;
    read_frames *acc = &m->acc;
    read_frames_reset(acc);
    /* Inner frames by walking (at most READ_FRAMES_INNER steps when the
     * chain is too deep), then the stored outer ones. */
    uint64_t walk = n->depth <= READ_MAX_FRAMES ? n->depth : READ_FRAMES_INNER;
    md_node *cur = n;
    for (uint64_t i = 0; i < walk; i++) {
        read_frames_push(acc, (tk_frame){cur->frame_file, cur->line, cur->col});
        if (i + 1 < walk)
            cur = md_lookup(m, cur->inlined);
    }
    if (n->depth > READ_MAX_FRAMES) {
        size_t k;
        const tk_frame *of = tk_loctab_stack_frames(m->tab, n->outer, &k);
        read_frames_skip(acc, n->depth - walk - k);
        read_frames_push_n(acc, of, k);
        read_frames_warn(acc, m->diags, m->name, n->line_no);
    }
    return read_frames_intern(acc, m->tab);
}

static tk_stack_id md_node_stack(read_llvm_meta *m, md_node *n)
{
    if (n->stack_done)
        return n->stack;
    n->stack_done = 1;
    md_parse(m, n);
    if (n->kind == K_LOCATION) {
        n->stack = md_location_stack(m, n);
    } else if (n->kind == K_SUBPROGRAM && n->line > 0) {
        /* A function's own location ("define ... !dbg !4"). */
        tk_file_id file = n->file != NONE ? md_scope_file(m, n->file, n)
                          : n->scope != NONE ? md_scope_file(m, n->scope, n)
                                             : NONE;
        if (file != NONE) {
            tk_frame f = {file, n->line, 0};
            n->stack = tk_loctab_stack(m->tab, &f, 1);
        }
    }
    return n->stack;
}

tk_stack_id read_llvm_meta_stack(read_llvm_meta *m, uint32_t num, uint32_t line)
{
    md_node *n = md_lookup(m, num);
    if (!n) {
        gpointer key = GUINT_TO_POINTER(num);
        if (!g_hash_table_contains(m->missing, key)) {
            g_hash_table_add(m->missing, key);
            WARN(m, line, "!dbg !%u: no such metadata node in this module; "
                 "lines using it are left without location", num);
        }
        return TK_NO_STACK;
    }
    return md_node_stack(m, n);
}

tk_stack_id read_llvm_meta_inline_stack(read_llvm_meta *m, const char *p,
                                        const char *end, uint32_t line)
{
    md_node tmp;
    memset(&tmp, 0, sizeof tmp);
    tmp.body = p;
    tmp.end = end;
    tmp.num = NONE;
    tmp.line_no = line;
    tmp.kind = K_UNPARSED;
    tmp.stack = TK_NO_STACK;
    tmp.file_id = NONE;
    return md_node_stack(m, &tmp);
}
