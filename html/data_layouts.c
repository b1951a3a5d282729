/* data_layouts.c - TTGIR layouts written into the report's data
 * (data_layouts.h). */
#include "data_layouts.h"

#include <string.h>

void html_report_write_layout(jw *w, const tk_layout *l)
{
    jw_obj(w);
    jw_key(w, "kind");
    jw_str(w, tk_layout_kind_name(l->kind));
    jw_key(w, "alias");
    jw_str(w, l->alias);
    jw_key(w, "name");
    jw_str(w, l->name);
    jw_key(w, "text");
    jw_str(w, l->text);
    jw_key(w, "line");
    jw_int(w, l->line);
    if (l->rank) {
        jw_key(w, "rank");
        jw_int(w, l->rank);
    }
    if (l->kind == TK_LAYOUT_BLOCKED) {
        jw_key(w, "spt");
        jw_u32s(w, l->size_per_thread, l->rank);
        jw_key(w, "tpw");
        jw_u32s(w, l->threads_per_warp, l->rank);
    }
    if (l->kind == TK_LAYOUT_BLOCKED || l->kind == TK_LAYOUT_MMA) {
        jw_key(w, "wpc");
        jw_u32s(w, l->warps_per_cta, l->rank);
    }
    if (l->kind == TK_LAYOUT_BLOCKED || l->kind == TK_LAYOUT_SHARED) {
        jw_key(w, "order");
        jw_u32s(w, l->order, l->rank);
    }
    struct { const char *k; int v; } ints[] = {
        {"parent", l->parent}, {"dim", l->dim}, {"opIdx", l->op_idx},
        {"kWidth", l->k_width}, {"versionMajor", l->version_major},
        {"versionMinor", l->version_minor}, {"vec", l->vec},
        {"perPhase", l->per_phase}, {"maxPhase", l->max_phase},
        {"swizzle", l->swizzle_bytes}, {"transposed", l->transposed},
        {"elementBits", l->element_bits},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(ints); i++)
        if (ints[i].v >= 0) {
            jw_key(w, ints[i].k);
            jw_int(w, ints[i].v);
        }
    if (l->n_instr) {
        jw_key(w, "instr");
        jw_u32s(w, l->instr_shape, l->n_instr);
    }
    if (l->kind == TK_LAYOUT_LINEAR) {
        jw_key(w, "bases");
        uint32_t b[4] = {l->n_register, l->n_lane, l->n_warp, l->n_block};
        jw_u32s(w, b, 4);
    }
    jw_obj_end(w);
}

void html_report_write_cover(jw *w, const tk_layouts *lay, const tk_layout_use *u, int layout)
{
    tk_layout_cover c;
    tk_layouts_cover(lay, u->layout, u->shape, u->rank, &c);
    jw_obj(w);
    jw_key(w, "layout");
    jw_int(w, layout);
    jw_key(w, "shape");
    jw_u64s(w, u->shape, u->rank);
    jw_key(w, "elem");
    jw_str(w, u->elem);
    jw_key(w, "bits");
    jw_int(w, u->elem_bits);
    jw_key(w, "memdesc");
    jw_bool(w, u->memdesc);
    if (c.known) {
        jw_key(w, "tile");
        jw_u64s(w, c.tile, c.rank);
        jw_key(w, "reps");
        jw_u64s(w, c.reps, c.rank);
        jw_key(w, "perThread");
        jw_u64s(w, c.per_thread, c.rank);
        jw_key(w, "tileElems");
        jw_int(w, (int64_t)c.tile_elems);
        jw_key(w, "tensorElems");
        jw_int(w, (int64_t)c.tensor_elems);
        jw_key(w, "elemsPerThread");
        jw_int(w, (int64_t)c.elems_per_thread);
        jw_key(w, "threads");
        jw_int(w, (int64_t)c.threads);
        jw_key(w, "dup");
        jw_int(w, (int64_t)c.duplication);
    }
    jw_obj_end(w);
}

struct html_report_lays {
    tk_layouts *text[2]; /* the definitions of each side's text */
    GArray *mapped[2];   /* int per layout of TEXT: its def here, -1 not yet */
    GHashTable *defs;  /* a def as written -> its index + 1 */
    GHashTable *covers; /* a cover as written -> its index + 1 */
    GString *defs_json, *covers_json; /* "[a,b" (closed when written) */
    guint n_defs, n_covers;
    gboolean any;
    GString *scratch;
};

html_report_lays *html_report_lays_new(void)
{
    html_report_lays *l = g_new0(html_report_lays, 1);
    for (int s = 0; s < 2; s++)
        l->mapped[s] = g_array_new(FALSE, FALSE, sizeof(int));
    l->defs = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    l->covers = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    l->defs_json = g_string_new(NULL);
    l->covers_json = g_string_new(NULL);
    l->scratch = g_string_new(NULL);
    html_report_lays_clear(l);
    return l;
}

void html_report_lays_free(html_report_lays *l)
{
    if (!l)
        return;
    for (int s = 0; s < 2; s++) {
        if (l->text[s])
            tk_layouts_free(l->text[s]);
        g_array_free(l->mapped[s], TRUE);
    }
    g_hash_table_destroy(l->defs);
    g_hash_table_destroy(l->covers);
    g_string_free(l->defs_json, TRUE);
    g_string_free(l->covers_json, TRUE);
    g_string_free(l->scratch, TRUE);
    g_free(l);
}

void html_report_lays_clear(html_report_lays *l)
{
    g_hash_table_remove_all(l->defs);
    g_hash_table_remove_all(l->covers);
    g_string_assign(l->defs_json, "[");
    g_string_assign(l->covers_json, "[");
    l->n_defs = l->n_covers = 0;
    l->any = FALSE;
    for (int s = 0; s < 2; s++) {
        if (l->text[s])
            tk_layouts_free(l->text[s]);
        l->text[s] = tk_layouts_new();
        g_array_set_size(l->mapped[s], 0);
    }
}

void html_report_lays_text(html_report_lays *l, const tk_ir_diff *d, int side)
{
    side = side != 0;
    tk_layouts_free(l->text[side]);
    l->text[side] = tk_layouts_new();
    g_array_set_size(l->mapped[side], 0);
    /* The aliases are defined before the module: its first kept lines
     * (the `#loc` ones are not kept) */
    uint32_t n = tk_ir_diff_kept_count(d, side);
    for (uint32_t k = 0; k < n; k++) {
        size_t len;
        uint32_t no;
        const char *s = tk_ir_diff_kept_line(d, side, k, &len, &no);
        if (!s || len == 0 || s[0] != '#')
            break;
        tk_layouts_add_definition(l->text[side], s, len, no);
    }
}

/* Appends the JSON written by one call of WRITE to TABLE (deduplicated by
 * its text) and returns its index. */
static int intern(html_report_lays *l, GHashTable *index, GString *json, guint *n)
{
    gpointer v = g_hash_table_lookup(index, l->scratch->str);
    if (v)
        return (int)GPOINTER_TO_UINT(v) - 1;
    if (json->len > 1)
        g_string_append_c(json, ',');
    g_string_append_len(json, l->scratch->str, (gssize)l->scratch->len);
    g_hash_table_insert(index, g_strdup(l->scratch->str), GUINT_TO_POINTER(++*n));
    return (int)*n - 1;
}

/* Layout I of SIDE's text as a def of the table (its parent first). */
static int def_of(html_report_lays *l, int side, int i)
{
    if (i < 0 || (size_t)i >= tk_layouts_count(l->text[side]))
        return -1;
    GArray *mapped = l->mapped[side];
    while (mapped->len <= (guint)i) {
        int none = -1;
        g_array_append_val(mapped, none);
    }
    int m = g_array_index(mapped, int, i);
    if (m >= 0)
        return m;
    tk_layout c = *tk_layouts_get(l->text[side], (size_t)i);
    if (c.parent >= 0 && c.parent != i)
        c.parent = def_of(l, side, c.parent);
    c.line = 0; /* the same definition in any pass's text */
    g_string_truncate(l->scratch, 0);
    jw w;
    jw_init(&w, l->scratch);
    html_report_write_layout(&w, &c);
    m = intern(l, l->defs, l->defs_json, &l->n_defs);
    g_array_index(l->mapped[side], int, i) = m;
    return m;
}

void html_report_lays_line(html_report_lays *l, jw *w, int side, const char *line, size_t len)
{
    side = side != 0;
    tk_layout_use u[32];
    size_t n = line && memchr(line, '#', len) ? tk_layouts_line_uses(l->text[side], line, len, u, G_N_ELEMENTS(u)) : 0;
    gboolean open = FALSE;
    /* A definition line (`#blocked1 = #ttg.blocked<...>`): its alias
     * explains the layout it defines, as in a code pane (data_kernel.c) */
    if (line && len > 1 && line[0] == '#') {
        size_t e = 1;
        while (e < len && (g_ascii_isalnum(line[e]) || line[e] == '_'))
            e++;
        if (e + 2 < len && line[e] == ' ' && line[e + 1] == '=') {
            char *alias = g_strndup(line + 1, e - 1);
            int def = def_of(l, side, tk_layouts_find(l->text[side], alias));
            g_free(alias);
            if (def >= 0) {
                jw_arr(w);
                open = TRUE;
                jw_int(w, 0);
                jw_int(w, html_report_u16_offset(line, e));
                jw_int(w, def);
                jw_int(w, -1);
            }
        }
    }
    for (size_t i = 0; i < n && i < G_N_ELEMENTS(u); i++) {
        if (u[i].layout < 0)
            continue;
        int def = def_of(l, side, u[i].layout);
        if (def < 0)
            continue;
        g_string_truncate(l->scratch, 0);
        jw cw;
        jw_init(&cw, l->scratch);
        html_report_write_cover(&cw, l->text[side], &u[i], def);
        int cover = intern(l, l->covers, l->covers_json, &l->n_covers);
        if (!open)
            jw_arr(w);
        open = TRUE;
        jw_int(w, html_report_u16_offset(line, u[i].start));
        jw_int(w, html_report_u16_offset(line, u[i].end));
        jw_int(w, def);
        jw_int(w, cover);
    }
    if (open) {
        jw_arr_end(w);
        l->any = TRUE;
    } else
        jw_int(w, 0);
}

gboolean html_report_lays_any(const html_report_lays *l)
{
    return l->any;
}

void html_report_lays_write(html_report_lays *l, jw *w)
{
    GString *s = g_string_new("{\"defs\":");
    g_string_append_len(s, l->defs_json->str, (gssize)l->defs_json->len);
    g_string_append(s, "],\"covers\":");
    g_string_append_len(s, l->covers_json->str, (gssize)l->covers_json->len);
    g_string_append(s, "]}");
    jw_raw(w, s);
    g_string_free(s, TRUE);
}

/* Layouts of a TTGIR stage: definitions, and per use on a line the layout
 * and how it covers that tensor (computed by tk_layouts_cover()). */
void html_report_write_stage_layouts(jw *w, const tk_stage *st)
{
    tk_layouts *lay = tk_layouts_from_stage(st);
    GHashTable *cover_idx = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    GString *covers = g_string_new(NULL);
    jw cw;
    jw_init(&cw, covers);
    jw_arr(&cw);
    guint n_covers = 0;
    jw_key(w, "uses");
    jw_arr(w);
    tk_layout_use u[32];
    uint32_t n = tk_layouts_count(lay) ? tk_stage_line_count(st) : 0;
    GString *key = g_string_new(NULL);
    for (uint32_t ln = 1; ln <= n; ln++) {
        size_t len;
        const char *s = tk_stage_line(st, ln, &len);
        if (len && s[0] == '#') {
            int li = -1;
            for (size_t i = 0; i < tk_layouts_count(lay); i++)
                if (tk_layouts_get(lay, i)->line == ln)
                    li = (int)i;
            if (li >= 0) {
                const tk_layout *l = tk_layouts_get(lay, (size_t)li);
                jw_arr(w);
                jw_int(w, ln);
                jw_int(w, 0);
                jw_int(w, html_report_u16_offset(s, strlen(l->alias) + 1));
                jw_int(w, li);
                jw_int(w, -1);
                jw_arr_end(w);
            }
            continue;
        }
        size_t nu = tk_layouts_line_uses(lay, s, len, u, G_N_ELEMENTS(u));
        for (size_t i = 0; i < nu && i < G_N_ELEMENTS(u); i++) {
            if (u[i].layout < 0)
                continue;
            g_string_printf(key, "%d|%d|%s|", u[i].layout, u[i].memdesc, u[i].elem);
            for (unsigned d = 0; d < u[i].rank && d < TK_LAYOUT_MAX_RANK; d++)
                g_string_append_printf(key, "%" G_GUINT64_FORMAT "x", u[i].shape[d]);
            gpointer v = g_hash_table_lookup(cover_idx, key->str);
            if (!v) {
                html_report_write_cover(&cw, lay, &u[i], u[i].layout);
                v = GUINT_TO_POINTER(++n_covers);
                g_hash_table_insert(cover_idx, g_strdup(key->str), v);
            }
            jw_arr(w);
            jw_int(w, ln);
            jw_int(w, html_report_u16_offset(s, u[i].start));
            jw_int(w, html_report_u16_offset(s, u[i].end));
            jw_int(w, u[i].layout);
            jw_int(w, GPOINTER_TO_UINT(v) - 1);
            jw_arr_end(w);
        }
    }
    jw_arr_end(w);
    jw_arr_end(&cw);
    jw_key(w, "covers");
    jw_raw(w, covers);
    jw_key(w, "defs");
    jw_arr(w);
    for (size_t i = 0; i < tk_layouts_count(lay); i++)
        html_report_write_layout(w, tk_layouts_get(lay, i));
    jw_arr_end(w);
    g_string_free(key, TRUE);
    g_string_free(covers, TRUE);
    g_hash_table_destroy(cover_idx);
    tk_layouts_free(lay);
}
