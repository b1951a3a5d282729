/* config.c - what a kernel was compiled with (tk_config.h): its
 * metadata, the constants NAME.json records, tile sizes read off its
 * tl.arange calls, and its TTIR signature. */
#include <string.h>

#include "compare/internal.h"
#include "tkdump/tk_input_file.h"

struct tk_config {
    GArray *items;          /* tk_config_item */
    GStringChunk *strings;
};

const char *tk_config_origin_name(tk_config_origin origin)
{
    switch (origin) {
    case TK_CONFIG_CONSTANT:
        return "constant";
    case TK_CONFIG_TILE:
        return "tl.arange";
    case TK_CONFIG_SIGNATURE:
        return "signature";
    case TK_CONFIG_OPTION:
        return "option";
    default:
        return "metadata";
    }
}

static int parse_int(const char *s, int64_t *v)
{
    char *end;
    if (!s[0])
        return 0;
    gint64 x = g_ascii_strtoll(s, &end, 10);
    if (*end || end == s)
        return 0;
    *v = x;
    return 1;
}

static void add(tk_config *c, const char *name, size_t name_len, const char *value,
                size_t value_len, tk_config_origin origin)
{
    tk_config_item it = {0};
    it.name = g_string_chunk_insert_len(c->strings, name, (gssize)name_len);
    it.value = g_string_chunk_insert_len(c->strings, value, (gssize)value_len);
    it.is_number = parse_int(it.value, &it.number);
    it.origin = origin;
    g_array_append_val(c->items, it);
}

static void add_str(tk_config *c, const char *name, const char *value,
                    tk_config_origin origin)
{
    add(c, name, strlen(name), value, strlen(value), origin);
}

static void add_int(tk_config *c, const char *name, int64_t v)
{
    if (v < 0)
        return;
    char buf[32];
    g_snprintf(buf, sizeof buf, "%" G_GINT64_FORMAT, (gint64)v);
    add_str(c, name, buf, TK_CONFIG_META);
}

static void read_meta(tk_config *c, const tk_kernel *k)
{
    const tk_kernel_meta *m = tk_kernel_metadata(k);
    add_int(c, "num_warps", m->num_warps);
    add_int(c, "num_ctas", m->num_ctas);
    add_int(c, "num_stages", m->num_stages);
    add_int(c, "shared_bytes", m->shared_bytes);
    add_int(c, "registers", m->registers);
    add_int(c, "spill_bytes", m->spill_bytes);
    if (m->target)
        add_str(c, "target", m->target, TK_CONFIG_META);
    if (m->triton_version)
        add_str(c, "triton_version", m->triton_version, TK_CONFIG_META);
    for (size_t i = 0; i < tk_kernel_option_count(k); i++) {
        const char *value;
        const char *name = tk_kernel_option(k, i, &value);
        add_str(c, name, value, TK_CONFIG_OPTION);
    }
    for (size_t i = 0; i < tk_kernel_constant_count(k); i++) {
        const char *value;
        const char *name = tk_kernel_constant(k, i, &value);
        add_str(c, name, value, TK_CONFIG_CONSTANT);
    }
}

/* ---- tile sizes from tl.arange ------------------------------------------- */

/* Source files read for the rule, by file id: their lines. */
typedef struct {
    tk_bundle *bundle;
    tk_diags *diags;
    GHashTable *files; /* file id + 1 -> char ** (NULL: unreadable) */
} sources;

static char **source_lines(sources *src, tk_file_id file)
{
    gpointer key = GSIZE_TO_POINTER((gsize)file + 1), v;
    if (g_hash_table_lookup_extended(src->files, key, NULL, &v))
        return v;
    char **lines = NULL;
    const char *path = tk_bundle_resolve_source(src->bundle, file, src->diags);
    /* A regular file of at most 16 MiB, opened without blocking
     * (tk_input_file.h), as the report and the viewer read sources. */
    char *text = path ? tk_input_file_read(path, TK_INPUT_FILE_SOURCE, NULL, NULL)
                      : NULL;
    if (text)
        lines = g_strsplit(text, "\n", -1);
    g_free(text);
    g_hash_table_insert(src->files, key, lines);
    return lines;
}

static int id_start(char c)
{
    return g_ascii_isalpha(c) || c == '_';
}

/* [S, E) trimmed is a plain Python name. */
static int plain_name(const char *s, const char *e, const char **ns, size_t *nl)
{
    while (s < e && g_ascii_isspace(*s))
        s++;
    while (e > s && g_ascii_isspace(e[-1]))
        e--;
    if (s == e || !id_start(*s))
        return 0;
    for (const char *p = s; p < e; p++)
        if (!g_ascii_isalnum(*p) && *p != '_')
            return 0;
    *ns = s;
    *nl = (size_t)(e - s);
    return 1;
}

/* The arguments of the "arange(" call at P: [*A0, *A1) and [*B0, *B1).
 * Returns 0 when it is not two arguments at depth 0. */
static int arange_args(const char *p, const char **a0, const char **a1,
                       const char **b0, const char **b1)
{
    const char *q = p + strlen("arange(");
    int depth = 0;
    *a0 = q;
    *a1 = *b0 = NULL;
    for (; *q; q++) {
        if (*q == '(' || *q == '[' || *q == '{')
            depth++;
        else if ((*q == ')' || *q == ']' || *q == '}') && depth > 0)
            depth--;
        else if (*q == ',' && depth == 0) {
            if (*a1)
                return 0;
            *a1 = q;
            *b0 = q + 1;
        } else if (*q == ')' && depth == 0) {
            if (!*a1)
                return 0;
            *b1 = q;
            return 1;
        }
    }
    return 0;
}

/* The "arange(" call of LINE the column COL (1-based; 0: unknown) is in:
 * the last one starting at or before it, else the only one. */
static const char *arange_at(const char *line, uint32_t col)
{
    const char *best = NULL, *first = NULL;
    int n = 0;
    for (const char *p = strstr(line, "arange("); p; p = strstr(p + 1, "arange(")) {
        if (p > line && (g_ascii_isalnum(p[-1]) || p[-1] == '_'))
            continue;
        n++;
        if (!first)
            first = p;
        if (col && (uint32_t)(p - line) <= col - 1)
            best = p;
    }
    if (best)
        return best;
    return n == 1 ? first : NULL;
}

/* "end = 128 : i32" in the attribute dictionary of a make_range line. */
static int attr_int(const char *line, size_t len, const char *key, int64_t *v)
{
    char *pat = g_strdup_printf("%s = ", key);
    const char *p = g_strstr_len(line, (gssize)len, pat);
    size_t pl = strlen(pat);
    g_free(pat);
    if (!p)
        return 0;
    char *end;
    gint64 x = g_ascii_strtoll(p + pl, &end, 10);
    if (end == p + pl)
        return 0;
    *v = x;
    return 1;
}

typedef struct {
    char *name;
    int64_t value;
    int conflict;
} tile;

static void note_tile(GArray *tiles, const char *name, size_t len, int64_t value)
{
    for (guint i = 0; i < tiles->len; i++) {
        tile *t = &g_array_index(tiles, tile, i);
        if (strlen(t->name) == len && memcmp(t->name, name, len) == 0) {
            if (t->value != value)
                t->conflict = 1;
            return;
        }
    }
    tile t = {g_strndup(name, len), value, 0};
    g_array_append_val(tiles, t);
}

/* The make_range lines of TTIR, each matched with the tl.arange call of
 * its source line, into TILES. */
static void tiles_of(const tk_stage *ttir, const tk_loctab *tab, sources *src,
                     GArray *tiles)
{
    for (uint32_t l = 1; l <= tk_stage_line_count(ttir); l++) {
        size_t len;
        const char *text = tk_stage_line(ttir, l, &len);
        int64_t start, end;
        if (!g_strstr_len(text, (gssize)len, "tt.make_range {") ||
            !attr_int(text, len, "end", &end) || !attr_int(text, len, "start", &start))
            continue;
        const tk_stack_id *ids;
        if (!tk_stage_line_stacks(ttir, l, &ids))
            continue;
        size_t nf;
        const tk_frame *f = tk_loctab_stack_frames(tab, ids[0], &nf);
        if (!nf)
            continue;
        char **lines = source_lines(src, f[0].file);
        if (!lines || f[0].line == 0 || f[0].line > g_strv_length(lines))
            continue;
        const char *line = lines[f[0].line - 1];
        const char *call = arange_at(line, f[0].col);
        const char *a0, *a1, *b0, *b1, *name;
        size_t nl;
        if (!call || !arange_args(call, &a0, &a1, &b0, &b1))
            continue;
        if (plain_name(a0, a1, &name, &nl))
            note_tile(tiles, name, nl, start);
        if (plain_name(b0, b1, &name, &nl))
            note_tile(tiles, name, nl, end);
    }
}

static void read_tiles(tk_config *c, tk_bundle *bundle, const tk_kernel *k,
                       tk_diags *diags)
{
    tk_loctab *tab = tk_bundle_loctab(bundle);
    sources src = {bundle, diags,
                   g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL,
                                         (GDestroyNotify)g_strfreev)};
    GArray *tiles = g_array_new(FALSE, FALSE, sizeof(tile));
    /* The TTIR before any pass first: CSE merges two ranges of one size
     * (BLOCK_M == BLOCK_N) into one in the final TTIR. */
    const char *before = tk_kernel_source_ttir(k);
    tk_stage *first = before ? tk_stage_read(TK_STAGE_TTIR, before, tab, NULL) : NULL;
    if (first)
        tiles_of(first, tab, &src, tiles);
    tk_stage_free(first);
    const tk_stage *ttir = tk_kernel_stage(k, TK_STAGE_TTIR);
    if (ttir)
        tiles_of(ttir, tab, &src, tiles);
    for (guint i = 0; i < tiles->len; i++) {
        tile *t = &g_array_index(tiles, tile, i);
        if (!t->conflict && !tk_config_find(c, t->name)) {
            char buf[32];
            g_snprintf(buf, sizeof buf, "%" G_GINT64_FORMAT, (gint64)t->value);
            add_str(c, t->name, buf, TK_CONFIG_TILE);
        }
        g_free(t->name);
    }
    g_array_free(tiles, TRUE);
    g_hash_table_destroy(src.files);
}

/* ---- the TTIR signature -------------------------------------------------- */

/* The end of the bracketed or quoted run opening at P (one past its close),
 * or END. */
static const char *skip_group(const char *p, const char *end)
{
    if (*p == '"') {
        for (p++; p < end && *p != '"'; p++)
            if (*p == '\\' && p + 1 < end)
                p++;
        return p < end ? p + 1 : end;
    }
    char open = *p, close = open == '(' ? ')' : open == '{' ? '}' : open == '[' ? ']' : '>';
    int depth = 0;
    for (; p < end; p++) {
        if (*p == '"') {
            p = skip_group(p, end) - 1;
            continue;
        }
        if (*p == open)
            depth++;
        else if (*p == close && --depth == 0)
            return p + 1;
    }
    return end;
}

/* One argument "%a_ptr: !tt.ptr<f16> {tt.divisibility = 16 : i32} loc(...)"
 * in [S, E): the name and the rest, without the location. */
static void add_arg(tk_config *c, const char *s, const char *e)
{
    while (s < e && g_ascii_isspace(*s))
        s++;
    const char *colon = memchr(s, ':', (size_t)(e - s));
    if (!colon || *s != '%')
        return;
    GString *v = g_string_new(NULL);
    const char *p = colon + 1;
    while (p < e) {
        if ((size_t)(e - p) >= 4 && memcmp(p, "loc(", 4) == 0 &&
            (p == colon + 1 || g_ascii_isspace(p[-1]))) {
            p = skip_group(p + 3, e);
            continue;
        }
        if (*p == '(' || *p == '{' || *p == '[' || *p == '<' || *p == '"') {
            const char *q = skip_group(p, e);
            g_string_append_len(v, p, q - p);
            p = q;
            continue;
        }
        g_string_append_c(v, *p++);
    }
    char *value = g_strstrip(v->str);
    add(c, s, (size_t)(colon - s), value, strlen(value), TK_CONFIG_SIGNATURE);
    g_string_free(v, TRUE);
}

static void read_signature(tk_config *c, const tk_kernel *k)
{
    const tk_stage *ttir = tk_kernel_stage(k, TK_STAGE_TTIR);
    if (!ttir)
        return;
    char *want = g_strdup_printf("@%s(", tk_kernel_name(k));
    for (uint32_t l = 1; l <= tk_stage_line_count(ttir); l++) {
        size_t len;
        const char *text = tk_stage_line(ttir, l, &len);
        const char *end = text + len, *p = text;
        while (p < end && g_ascii_isspace(*p))
            p++;
        if ((size_t)(end - p) < 8 || memcmp(p, "tt.func ", 8) != 0)
            continue;
        const char *at = g_strstr_len(p, end - p, want);
        if (!at)
            continue;
        const char *open = at + strlen(want) - 1;
        const char *close = skip_group(open, end) - 1;
        const char *s = open + 1;
        for (const char *q = s; q < close;) {
            if (*q == ',') {
                add_arg(c, s, q);
                s = ++q;
            } else if (*q == '(' || *q == '{' || *q == '[' || *q == '<' || *q == '"') {
                q = skip_group(q, close);
            } else {
                q++;
            }
        }
        add_arg(c, s, close);
        break;
    }
    g_free(want);
}

tk_config *tk_config_read(tk_bundle *bundle, const tk_kernel *kernel, tk_diags *diags)
{
    tk_config *c = g_new0(tk_config, 1);
    c->items = g_array_new(FALSE, FALSE, sizeof(tk_config_item));
    c->strings = g_string_chunk_new(1024);
    if (!kernel)
        return c;
    read_meta(c, kernel);
    if (bundle)
        read_tiles(c, bundle, kernel, diags);
    read_signature(c, kernel);
    return c;
}

void tk_config_free(tk_config *c)
{
    if (!c)
        return;
    g_array_free(c->items, TRUE);
    g_string_chunk_free(c->strings);
    g_free(c);
}

size_t tk_config_count(const tk_config *c)
{
    return c->items->len;
}

const tk_config_item *tk_config_get(const tk_config *c, size_t i)
{
    return i < c->items->len ? &g_array_index(c->items, tk_config_item, i) : NULL;
}

const tk_config_item *tk_config_find(const tk_config *c, const char *name)
{
    for (guint i = 0; i < c->items->len; i++) {
        const tk_config_item *it = &g_array_index(c->items, tk_config_item, i);
        if (strcmp(it->name, name) == 0)
            return it;
    }
    return NULL;
}

/* ---- what sets a compile apart from its siblings ------------------------- */

/* Produced by the compile, not asked for. */
static int is_result(const tk_config_item *it)
{
    return it->origin == TK_CONFIG_META &&
           (strcmp(it->name, "shared_bytes") == 0 ||
            strcmp(it->name, "registers") == 0 ||
            strcmp(it->name, "spill_bytes") == 0);
}

tk_config *tk_config_apart(const tk_config *mine,
                           const tk_config *const *siblings, size_t n)
{
    tk_config *out = tk_config_read(NULL, NULL, NULL);
    if (!mine)
        return out;
    for (guint i = 0; i < mine->items->len; i++) {
        const tk_config_item *it = &g_array_index(mine->items, tk_config_item, i);
        if (is_result(it))
            continue;
        int apart = 0;
        for (size_t s = 0; s < n && !apart; s++) {
            const tk_config_item *o =
                siblings[s] ? tk_config_find(siblings[s], it->name) : NULL;
            apart = !o || strcmp(o->value, it->value) != 0;
        }
        if (apart)
            add_str(out, it->name, it->value, it->origin);
    }
    return out;
}

tk_config *tk_config_apart_in(tk_bundle *bundle, const tk_kernel *kernel,
                              tk_diags *diags)
{
    GPtrArray *sib = g_ptr_array_new_with_free_func((GDestroyNotify)tk_config_free);
    for (size_t i = 0; kernel && i < tk_bundle_kernel_count(bundle); i++) {
        const tk_kernel *k = tk_bundle_kernel(bundle, i);
        if (k != kernel && strcmp(tk_kernel_name(k), tk_kernel_name(kernel)) == 0)
            g_ptr_array_add(sib, tk_config_read(bundle, k, diags));
    }
    tk_config *mine = tk_config_read(bundle, kernel, diags);
    tk_config *out = tk_config_apart(mine, (const tk_config *const *)sib->pdata,
                                     sib->len);
    tk_config_free(mine);
    g_ptr_array_free(sib, TRUE);
    return out;
}

/* Whether another kernel of BUNDLE has kernel I's name. */
static int has_namesake(tk_bundle *bundle, size_t i)
{
    const char *name = tk_kernel_name(tk_bundle_kernel(bundle, i));
    for (size_t j = 0; j < tk_bundle_kernel_count(bundle); j++)
        if (j != i && strcmp(tk_kernel_name(tk_bundle_kernel(bundle, j)), name) == 0)
            return 1;
    return 0;
}

tk_config **tk_config_apart_all(tk_bundle *bundle, tk_diags *diags)
{
    size_t n = tk_bundle_kernel_count(bundle);
    tk_config **all = g_new0(tk_config *, n + 1);
    tk_config **out = g_new0(tk_config *, n + 1);
    /* A kernel no other of the bundle shares its name with is set apart by
     * nothing, so its configuration (NAME.json through json-glib, its TTIR)
     * is read only to be told (DIAGS) what reading it says. */
    for (size_t i = 0; i < n; i++)
        if (diags || has_namesake(bundle, i))
            all[i] = tk_config_read(bundle, tk_bundle_kernel(bundle, i), diags);
    const tk_config **sib = g_new0(const tk_config *, n + 1);
    for (size_t i = 0; i < n; i++) {
        const char *name = tk_kernel_name(tk_bundle_kernel(bundle, i));
        size_t m = 0;
        for (size_t j = 0; j < n; j++)
            if (j != i &&
                strcmp(tk_kernel_name(tk_bundle_kernel(bundle, j)), name) == 0)
                sib[m++] = all[j];
        out[i] = tk_config_apart(all[i], sib, m);
    }
    for (size_t i = 0; i < n; i++)
        tk_config_free(all[i]);
    g_free(all);
    g_free(sib);
    return out;
}

char *tk_config_label(const tk_config *c)
{
    GString *s = g_string_new(NULL);
    for (guint i = 0; c && i < c->items->len; i++) {
        const tk_config_item *it = &g_array_index(c->items, tk_config_item, i);
        g_string_append_printf(s, "%s%s=%s", s->len ? ", " : "", it->name,
                               it->value);
    }
    return g_string_free(s, FALSE);
}
