/* layout.c - reading Triton layout attributes into numbers (tk_layouts.h).
 *
 * The attribute syntax is MLIR's: `#dialect.name<{key = value, ...}>` where a
 * value is a number, true/false, a list `[1, 2]` (nested for linear bases),
 * an alias reference `#blocked` or another attribute.  One small scanner that
 * tracks bracket depth reads every kind; the keys decide what is kept.  An
 * entry that cannot be read is skipped: a layout keeps what was readable.
 */
#include "tkdump/tk_layouts.h"

#include <glib.h>
#include <string.h>

#include "layout/internal.h"

struct tk_layouts {
    GPtrArray *items;   /* tk_layout *, owned */
    GHashTable *by_alias; /* alias -> index + 1 */
    GHashTable *inline_by_text; /* inline text -> index + 1 */
};

static const char *const kind_names[] = {
    "other", "blocked", "slice", "dot_op", "mma", "linear", "shared",
    "memory_space",
};

const char *tk_layout_kind_name(tk_layout_kind kind)
{
    return (unsigned)kind < G_N_ELEMENTS(kind_names) ? kind_names[kind] : "other";
}

static void layout_free(gpointer p)
{
    tk_layout *l = p;
    if (!l)
        return;
    g_free((char *)l->alias);
    g_free((char *)l->name);
    g_free((char *)l->text);
    g_free(l);
}

tk_layouts *tk_layouts_new(void)
{
    tk_layouts *t = g_new0(tk_layouts, 1);
    t->items = g_ptr_array_new_with_free_func(layout_free);
    t->by_alias = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    t->inline_by_text = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    return t;
}

void tk_layouts_free(tk_layouts *t)
{
    if (!t)
        return;
    g_ptr_array_free(t->items, TRUE);
    g_hash_table_destroy(t->by_alias);
    g_hash_table_destroy(t->inline_by_text);
    g_free(t);
}

size_t tk_layouts_count(const tk_layouts *t)
{
    return t ? t->items->len : 0;
}

const tk_layout *tk_layouts_get(const tk_layouts *t, size_t i)
{
    return t && i < t->items->len ? g_ptr_array_index(t->items, i) : NULL;
}

int tk_layouts_find(const tk_layouts *t, const char *alias)
{
    if (!t || !alias)
        return -1;
    gpointer v = g_hash_table_lookup(t->by_alias, alias);
    return v ? GPOINTER_TO_INT(v) - 1 : -1;
}

/* ---- scanning ------------------------------------------------------------ */

static int is_ident(char c)
{
    return g_ascii_isalnum(c) || c == '_' || c == '.' || c == '$' || c == '-';
}

size_t layout_skip_balanced(const char *s, size_t i, size_t len)
{
    /* S[i] is an opening bracket; returns the index just past its match, or
     * LEN when the line ends first.  Strings are skipped whole.  `->` is an
     * arrow, not a closing angle bracket. */
    int depth = 0;
    for (; i < len; i++) {
        char c = s[i];
        if (c == '"') {
            for (i++; i < len && s[i] != '"'; i++)
                if (s[i] == '\\')
                    i++;
            continue;
        }
        if (c == '-' && i + 1 < len && s[i + 1] == '>') {
            i++;
            continue;
        }
        if (c == '<' || c == '[' || c == '{' || c == '(')
            depth++;
        else if (c == '>' || c == ']' || c == '}' || c == ')') {
            if (--depth == 0)
                return i + 1;
        }
    }
    return len;
}

static size_t skip_space(const char *s, size_t i, size_t len)
{
    while (i < len && (s[i] == ' ' || s[i] == '\t'))
        i++;
    return i;
}

/* Reads `[a, b, ...]` of unsigned numbers at S[i] into OUT (up to MAX);
 * returns how many were read, 0 on anything else. */
static unsigned read_u32_list(const char *s, size_t len, uint32_t *out,
                              unsigned max)
{
    size_t i = skip_space(s, 0, len);
    if (i >= len || s[i] != '[')
        return 0;
    unsigned n = 0;
    i++;
    while (i < len) {
        i = skip_space(s, i, len);
        if (i < len && s[i] == ']')
            break;
        if (i >= len || !g_ascii_isdigit(s[i]))
            return 0;
        uint64_t v = 0;
        while (i < len && g_ascii_isdigit(s[i])) {
            v = v * 10 + (uint64_t)(s[i] - '0');
            if (v > UINT32_MAX)
                return 0;
            i++;
        }
        if (n < max)
            out[n] = (uint32_t)v;
        n++;
        i = skip_space(s, i, len);
        if (i < len && s[i] == ',')
            i++;
    }
    return n <= max ? n : 0;
}

/* Number of top-level elements of the list `[...]` at S (a linear layout's
 * bases: `[[0, 1], [0, 2]]` has 2). */
static unsigned count_list_elems(const char *s, size_t len)
{
    size_t i = skip_space(s, 0, len);
    if (i >= len || s[i] != '[')
        return 0;
    size_t end = layout_skip_balanced(s, i, len);
    unsigned n = 0;
    int any = 0;
    for (size_t j = i + 1; j + 1 < end; j++) {
        char c = s[j];
        if (c == '[' || c == '{' || c == '<' || c == '(') {
            any = 1;
            j = layout_skip_balanced(s, j, end) - 1;
        } else if (c == ',') {
            n++;
        } else if (c != ' ') {
            any = 1;
        }
    }
    return any ? n + 1 : 0;
}

static int read_int(const char *s, size_t len, int *out)
{
    size_t i = skip_space(s, 0, len);
    int neg = 0;
    if (i < len && s[i] == '-') {
        neg = 1;
        i++;
    }
    if (i >= len || !g_ascii_isdigit(s[i]))
        return 0;
    int64_t v = 0;
    while (i < len && g_ascii_isdigit(s[i]) && v < INT32_MAX)
        v = v * 10 + (s[i++] - '0');
    if (v > INT32_MAX)
        return 0;
    *out = neg ? -(int)v : (int)v;
    return 1;
}

static int read_bool(const char *s, size_t len, int *out)
{
    size_t i = skip_space(s, 0, len);
    if (len - i >= 4 && memcmp(s + i, "true", 4) == 0)
        return (*out = 1), 1;
    if (len - i >= 5 && memcmp(s + i, "false", 5) == 0)
        return (*out = 0), 1;
    return 0;
}

static int key_is(const char *k, size_t klen, const char *want)
{
    return strlen(want) == klen && memcmp(k, want, klen) == 0;
}

static int add_layout(tk_layouts *t, tk_layout *l);
static int layout_ref(tk_layouts *t, const char *s, size_t len);

/* One `key = value` entry of an attribute's dictionary. */
static void read_entry(tk_layouts *t, tk_layout *l, const char *k, size_t klen,
                       const char *v, size_t vlen)
{
    unsigned n;
    if (key_is(k, klen, "sizePerThread")) {
        if ((n = read_u32_list(v, vlen, l->size_per_thread, TK_LAYOUT_MAX_RANK)))
            l->rank = n;
    } else if (key_is(k, klen, "threadsPerWarp")) {
        read_u32_list(v, vlen, l->threads_per_warp, TK_LAYOUT_MAX_RANK);
    } else if (key_is(k, klen, "warpsPerCTA")) {
        if ((n = read_u32_list(v, vlen, l->warps_per_cta, TK_LAYOUT_MAX_RANK)) &&
            l->kind != TK_LAYOUT_BLOCKED)
            l->rank = n;
    } else if (key_is(k, klen, "order")) {
        if ((n = read_u32_list(v, vlen, l->order, TK_LAYOUT_MAX_RANK)) &&
            l->kind == TK_LAYOUT_SHARED)
            l->rank = n;
    } else if (key_is(k, klen, "instrShape")) {
        l->n_instr = read_u32_list(v, vlen, l->instr_shape, 4);
    } else if (key_is(k, klen, "versionMajor")) {
        read_int(v, vlen, &l->version_major);
    } else if (key_is(k, klen, "versionMinor")) {
        read_int(v, vlen, &l->version_minor);
    } else if (key_is(k, klen, "dim")) {
        read_int(v, vlen, &l->dim);
    } else if (key_is(k, klen, "opIdx")) {
        read_int(v, vlen, &l->op_idx);
    } else if (key_is(k, klen, "kWidth")) {
        read_int(v, vlen, &l->k_width);
    } else if (key_is(k, klen, "parent")) {
        l->parent = layout_ref(t, v, vlen);
    } else if (key_is(k, klen, "vec")) {
        read_int(v, vlen, &l->vec);
    } else if (key_is(k, klen, "perPhase")) {
        read_int(v, vlen, &l->per_phase);
    } else if (key_is(k, klen, "maxPhase")) {
        read_int(v, vlen, &l->max_phase);
    } else if (key_is(k, klen, "swizzlingByteWidth")) {
        read_int(v, vlen, &l->swizzle_bytes);
    } else if (key_is(k, klen, "elementBitWidth")) {
        read_int(v, vlen, &l->element_bits);
    } else if (key_is(k, klen, "transposed")) {
        read_bool(v, vlen, &l->transposed);
    } else if (key_is(k, klen, "register")) {
        l->n_register = count_list_elems(v, vlen);
    } else if (key_is(k, klen, "lane")) {
        l->n_lane = count_list_elems(v, vlen);
    } else if (key_is(k, klen, "warp")) {
        l->n_warp = count_list_elems(v, vlen);
    } else if (key_is(k, klen, "block")) {
        l->n_block = count_list_elems(v, vlen);
    }
}

static tk_layout_kind kind_of(const char *name, size_t len)
{
    const char *dot = memchr(name, '.', len);
    const char *k = dot ? dot + 1 : name;
    size_t kl = len - (size_t)(k - name);
#define IS(s) (kl == strlen(s) && memcmp(k, s, kl) == 0)
    if (IS("blocked"))
        return TK_LAYOUT_BLOCKED;
    if (IS("slice"))
        return TK_LAYOUT_SLICE;
    if (IS("dot_op"))
        return TK_LAYOUT_DOT_OPERAND;
    if (IS("nvidia_mma") || IS("mma") || IS("amd_mfma") || IS("amd_wmma"))
        return TK_LAYOUT_MMA;
    if (IS("linear"))
        return TK_LAYOUT_LINEAR;
    if (IS("shared_memory") || IS("tensor_memory"))
        return TK_LAYOUT_MEMORY_SPACE;
    if (kl >= 6 && memcmp(k + kl - 6, "shared", 6) == 0)
        return TK_LAYOUT_SHARED;
#undef IS
    return TK_LAYOUT_OTHER;
}

/* Parses the attribute `#name<...>` or `#name` of LEN bytes at S (S[0] is
 * '#') into a new layout.  *USED receives the bytes it spans. */
static tk_layout *parse_attr(tk_layouts *t, const char *s, size_t len,
                             size_t *used)
{
    size_t i = 1;
    while (i < len && is_ident(s[i]))
        i++;
    tk_layout *l = g_new0(tk_layout, 1);
    l->parent = l->dim = l->op_idx = l->k_width = -1;
    l->version_major = l->version_minor = -1;
    l->vec = l->per_phase = l->max_phase = -1;
    l->swizzle_bytes = l->transposed = l->element_bits = -1;
    l->alias = g_strdup("");
    l->name = g_strndup(s + 1, i - 1);
    l->kind = kind_of(s + 1, i - 1);
    size_t end = i;
    if (i < len && s[i] == '<') {
        end = layout_skip_balanced(s, i, len);
        size_t b = skip_space(s, i + 1, end);
        if (b < end && s[b] == '{') {
            size_t bend = layout_skip_balanced(s, b, end);
            size_t p = b + 1, stop = bend > b + 1 ? bend - 1 : b + 1;
            while (p < stop) {
                /* one entry: up to the next ',' at depth 0 */
                size_t q = p;
                while (q < stop && s[q] != ',') {
                    if (strchr("<[{(\"", s[q]))
                        q = layout_skip_balanced(s, q, stop);
                    else
                        q++;
                }
                const char *eq = memchr(s + p, '=', q - p);
                if (eq) {
                    size_t k0 = skip_space(s, p, q), k1 = (size_t)(eq - s);
                    while (k1 > k0 && s[k1 - 1] == ' ')
                        k1--;
                    read_entry(t, l, s + k0, k1 - k0, eq + 1,
                               (size_t)(s + q - eq - 1));
                }
                p = q + 1;
            }
        }
    }
    l->text = g_strndup(s, end);
    *used = end;
    return l;
}

static int add_layout(tk_layouts *t, tk_layout *l)
{
    g_ptr_array_add(t->items, l);
    return (int)t->items->len - 1;
}

/* A layout named by a value: `#blocked` (an alias) or an inline attribute,
 * added once per distinct text. */
static int layout_ref(tk_layouts *t, const char *s, size_t len)
{
    size_t i = skip_space(s, 0, len);
    if (i >= len || s[i] != '#')
        return -1;
    size_t j = i + 1;
    while (j < len && is_ident(s[j]))
        j++;
    if (j < len && s[j] == '<') {
        size_t end = layout_skip_balanced(s, j, len);
        char *key = g_strndup(s + i, end - i);
        gpointer v = g_hash_table_lookup(t->inline_by_text, key);
        if (v) {
            g_free(key);
            return GPOINTER_TO_INT(v) - 1;
        }
        size_t used;
        int idx = add_layout(t, parse_attr(t, s + i, end - i, &used));
        g_hash_table_insert(t->inline_by_text, key, GINT_TO_POINTER(idx + 1));
        return idx;
    }
    char *alias = g_strndup(s + i + 1, j - i - 1);
    int idx = tk_layouts_find(t, alias);
    g_free(alias);
    return idx;
}

int tk_layouts_add_definition(tk_layouts *t, const char *s, size_t len,
                              uint32_t line_no)
{
    /* `#alias = #dialect.kind<...>`; `#loc...` aliases are locations. */
    if (!t || len < 4 || s[0] != '#')
        return -1;
    size_t i = 1;
    while (i < len && is_ident(s[i]))
        i++;
    if (i == 1 || (i >= 4 && memcmp(s + 1, "loc", 3) == 0 &&
                   (i == 4 || g_ascii_isdigit(s[4]))))
        return -1;
    size_t a1 = i;
    i = skip_space(s, i, len);
    if (i >= len || s[i] != '=')
        return -1;
    i = skip_space(s, i + 1, len);
    if (i >= len || s[i] != '#' || i + 1 >= len || !is_ident(s[i + 1]))
        return -1;
    size_t j = i + 1;
    while (j < len && is_ident(s[j]))
        j++;
    if (!memchr(s + i, '.', j - i))
        return -1; /* `#a = #b`: an alias of an alias, not an attribute */
    size_t used;
    tk_layout *l = parse_attr(t, s + i, len - i, &used);
    g_free((char *)l->alias);
    l->alias = g_strndup(s + 1, a1 - 1);
    l->line = line_no;
    int idx = add_layout(t, l);
    g_hash_table_replace(t->by_alias, g_strdup(l->alias), GINT_TO_POINTER(idx + 1));
    return idx;
}

tk_layouts *tk_layouts_from_stage(const tk_stage *stage)
{
    tk_layouts *t = tk_layouts_new();
    if (!stage)
        return t;
    tk_stage_kind k = tk_stage_kind_of(stage);
    if (k != TK_STAGE_TTIR && k != TK_STAGE_TTGIR)
        return t;
    uint32_t n = tk_stage_line_count(stage);
    for (uint32_t ln = 1; ln <= n; ln++) {
        size_t len;
        const char *s = tk_stage_line(stage, ln, &len);
        if (len && s[0] == '#')
            tk_layouts_add_definition(t, s, len, ln);
    }
    return t;
}

/* ---- types on a line ---------------------------------------------------- */

static unsigned elem_bits_of(const char *e, size_t n)
{
    if (n >= 2 && (e[0] == 'i' || e[0] == 'f') && g_ascii_isdigit(e[1])) {
        unsigned v = 0;
        for (size_t i = 1; i < n && g_ascii_isdigit(e[i]); i++)
            v = v * 10 + (unsigned)(e[i] - '0');
        return v <= 1024 ? v : 0;
    }
    if (n == 4 && memcmp(e, "bf16", 4) == 0)
        return 16;
    if (n == 4 && memcmp(e, "tf32", 4) == 0)
        return 32;
    if (n >= 7 && memcmp(e, "!tt.ptr", 7) == 0)
        return 64;
    return 0;
}

/* Reads `DxDx...xTYPE, #layout...` after `tensor<` or `memdesc<`: S[i] is
 * just past the '<', END the index of the matching '>'. */
static int read_type(tk_layouts *t, const char *s, size_t i, size_t end,
                     tk_layout_use *u)
{
    memset(u, 0, sizeof *u);
    u->layout = -1;
    for (;;) {
        size_t j = i;
        uint64_t v = 0;
        while (j < end && g_ascii_isdigit(s[j]) && v < (UINT64_C(1) << 48))
            v = v * 10 + (uint64_t)(s[j++] - '0');
        if (j == i || j >= end || s[j] != 'x')
            break;
        if (u->rank < TK_LAYOUT_MAX_RANK)
            u->shape[u->rank] = v;
        u->rank++;
        i = j + 1;
    }
    if (u->rank > TK_LAYOUT_MAX_RANK)
        return 0;
    /* element type: up to ',' at depth 0 */
    size_t e = i;
    while (e < end && s[e] != ',') {
        if (s[e] == '<')
            e = layout_skip_balanced(s, e, end);
        else
            e++;
    }
    size_t elen = e - i;
    u->elem_bits = elem_bits_of(s + i, elen);
    if (elen >= 7 && memcmp(s + i, "!tt.ptr", 7) == 0)
        g_strlcpy(u->elem, "ptr", sizeof u->elem);
    else {
        /* not g_strlcpy: it measures all of S from there (a line is not
         * NUL-terminated: the rest of a stage's text, per use) */
        size_t n = MIN(elen, sizeof u->elem - 1);
        memcpy(u->elem, s + i, n);
        u->elem[n] = 0;
    }
    if (e >= end)
        return 1; /* no layout (TTIR) */
    size_t l0 = skip_space(s, e + 1, end);
    if (l0 >= end || s[l0] != '#')
        return 1;
    size_t l1 = l0 + 1;
    while (l1 < end && is_ident(s[l1]))
        l1++;
    if (l1 < end && s[l1] == '<')
        l1 = layout_skip_balanced(s, l1, end);
    u->start = (uint32_t)l0;
    u->end = (uint32_t)l1;
    u->layout = layout_ref(t, s + l0, l1 - l0);
    return 1;
}

size_t tk_layouts_line_uses(tk_layouts *t, const char *s, size_t len,
                            tk_layout_use *out, size_t cap)
{
    size_t n = 0;
    if (!t || !s || len > UINT32_MAX)
        return 0;
    /* From each '<' (memchr: a line has a few, and hundreds of bytes),
     * back to the type it opens: the same uses, in the same order, as a
     * walk over every byte finds. */
    size_t from = 0; /* no use starts before (the end of the last one) */
    for (const char *lt; from < len && (lt = memchr(s + from, '<', len - from));) {
        size_t p = (size_t)(lt - s), i;
        int memdesc;
        size_t open = p;
        if (p + 1 >= len) /* "tensor<" ends the line: nothing after it */
            break;
        if (p >= 6 && (i = p - 6) >= from && memcmp(s + i, "tensor", 6) == 0 &&
            (i == 0 || !is_ident(s[i - 1]))) {
            memdesc = 0;
        } else if (p >= 8 && (i = p - 7) >= from && memcmp(s + i, "memdesc", 7) == 0 &&
                   s[i - 1] == '.') {
            memdesc = 1;
        } else {
            from = p + 1;
            continue;
        }
        size_t close = layout_skip_balanced(s, open, len);
        if (close > len || close <= open + 1 || s[close - 1] != '>')
            break; /* cut line */
        tk_layout_use u;
        if (read_type(t, s, open + 1, close - 1, &u)) {
            u.memdesc = memdesc;
            if (n < cap)
                out[n] = u;
            n++;
        }
        from = close;
    }
    return n;
}
