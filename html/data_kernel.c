/* data_kernel.c - a kernel's data files: per stage its text and what the
 * binding index says about each line; the kernel's stack table; metadata.
 *
 * data/ID/meta.js        name, hash, metadata, stages in order (each its
 *                        label, its file or why it is missing), the stack
 *                        table, the stage opened first, the files named
 *                        and every name a link may give them (fileKeys)
 * data/ID/KIND.text.js   the stage's lines, each stored once
 * data/ID/KIND.bind.js   line -> set of stacks, source line -> IR lines
 *                        (exact and called, and how many instructions),
 *                        line -> lines of each other stage (those matched
 *                        on the innermost frame only apart), layouts
 *                        (TTGIR); line kinds, statements and shared
 *                        helper code (data_statements.c)
 * Every answer comes from tk_bindex_*: the browser only looks things up.
 */
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "data_layouts.h"
#include "tkdump/tk_file_query.h"
#include "tkdump/tk_layouts.h"

typedef struct {
    html_report *r;
    html_report_kernel *rk;
    tk_bind *ix;
    tk_loctab *tab;
    GHashTable *stack_local; /* global id + 1 -> local index + 1 */
    GArray *stacks;          /* tk_stack_id, local order */
    GHashTable *files;       /* file id + 1 -> 1: files the kernel names */
    GArray *stmts;           /* html_report_stmt: statements of several lines */
    GArray *extents;         /* html_report_stmt: every query a click can make */
} kctx;

/* "N," appended to a hash key (a stage has tens of thousands of lines:
 * printf would be most of the time spent on its keys). */
static void key_u32(GString *key, uint32_t v)
{
    char buf[12], *p = buf + sizeof buf;
    *--p = ',';
    do {
        *--p = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    g_string_append_len(key, p, buf + sizeof buf - p);
}

static uint32_t local_stack(kctx *k, tk_stack_id id)
{
    gpointer v = g_hash_table_lookup(k->stack_local, GUINT_TO_POINTER(id + 1));
    if (v)
        return GPOINTER_TO_UINT(v) - 1;
    g_array_append_val(k->stacks, id);
    uint32_t idx = k->stacks->len - 1;
    g_hash_table_insert(k->stack_local, GUINT_TO_POINTER(id + 1),
                        GUINT_TO_POINTER(idx + 1));
    size_t n;
    const tk_frame *fr = tk_loctab_stack_frames(k->tab, id, &n);
    for (size_t i = 0; i < n; i++)
        g_hash_table_add(k->files, GUINT_TO_POINTER(fr[i].file + 1));
    return idx;
}

/* Writes JSON (taken) as data/ID/WHAT.js. */
static int put(kctx *k, const char *what, GString *json)
{
    char rel[64], key[64];
    g_snprintf(rel, sizeof rel, "data/%s/%s.js", k->rk->id, what);
    g_snprintf(key, sizeof key, "%s/%s", k->rk->id, what);
    /* meta.js is read as the page loads; the texts and bindings are loaded
     * on demand and are stored compressed (report.c). */
    if (strcmp(what, "meta") == 0) {
        int rc = html_report_put(k->r, rel, key, json);
        g_string_free(json, TRUE);
        return rc;
    }
    return html_report_put_z(k->r, rel, key, json);
}

static int write_text(kctx *k, const tk_stage *st, tk_stage_kind kind)
{
    GString *g = g_string_sized_new(tk_stage_size(st) + tk_stage_line_count(st) * 4 + 16);
    jw w;
    jw_init(&w, g);
    jw_arr(&w);
    uint32_t n = tk_stage_line_count(st);
    GString *line = g_string_new(NULL);
    for (uint32_t ln = 1; ln <= n; ln++) {
        /* what a pane shows (tk_stage_line_display(): SASS without
         * nvdisasm's ~27 blanks, so a pane beside another shows opcodes) */
        tk_display_line d;
        if (tk_stage_line_display(st, ln, &d)) {
            g_string_truncate(line, 0);
            g_string_append_len(line, d.head, (gssize)d.head_len);
            g_string_append(line, "  ");
            g_string_append_len(line, d.body, (gssize)d.body_len);
            jw_strn(&w, line->str, line->len);
        } else {
            jw_strn(&w, d.body ? d.body : "", d.body_len);
        }
    }
    g_string_free(line, TRUE);
    jw_arr_end(&w);
    char what[32];
    g_snprintf(what, sizeof what, "%s.text", tk_stage_kind_name(kind));
    int rc = put(k, what, g);
    return rc;
}

/* Line -> index of its set of stacks (+1, 0: none). */
typedef struct {
    GArray *line_set;     /* uint32_t per line, index 0 = line 1 */
    GPtrArray *sets;      /* GArray of local stack ids */
    GArray *inferred;     /* uint32_t lines */
} line_sets;

static void build_line_sets(kctx *k, const tk_stage *st, tk_stage_kind kind,
                            line_sets *ls)
{
    GHashTable *by_key = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    ls->line_set = g_array_new(FALSE, TRUE, sizeof(uint32_t));
    ls->sets = g_ptr_array_new_with_free_func((GDestroyNotify)g_array_unref);
    ls->inferred = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    uint32_t n = tk_stage_line_count(st);
    g_array_set_size(ls->line_set, n);
    GString *key = g_string_new(NULL);
    for (uint32_t ln = 1; ln <= n; ln++) {
        const tk_stack_id *ids;
        size_t ns = tk_bind_line_stacks(k->ix, kind, ln, &ids);
        if (!ns)
            continue;
        if (tk_bind_stack_inferred(k->ix, kind, ln))
            g_array_append_val(ls->inferred, ln);
        g_string_truncate(key, 0);
        for (size_t i = 0; i < ns; i++)
            key_u32(key, ids[i]);
        gpointer v = g_hash_table_lookup(by_key, key->str);
        uint32_t set;
        if (v) {
            set = GPOINTER_TO_UINT(v);
        } else {
            GArray *a = g_array_sized_new(FALSE, FALSE, sizeof(uint32_t), (guint)ns);
            for (size_t i = 0; i < ns; i++) {
                uint32_t l = local_stack(k, ids[i]);
                g_array_append_val(a, l);
            }
            g_ptr_array_add(ls->sets, a);
            set = ls->sets->len;
            g_hash_table_insert(by_key, g_strdup(key->str), GUINT_TO_POINTER(set));
        }
        g_array_index(ls->line_set, uint32_t, ln - 1) = set;
    }
    g_string_free(key, TRUE);
    g_hash_table_destroy(by_key);
}

static void line_sets_clear(line_sets *ls)
{
    g_array_free(ls->line_set, TRUE);
    g_ptr_array_free(ls->sets, TRUE);
    g_array_free(ls->inferred, TRUE);
}

static gboolean is_inferred(const line_sets *ls, uint32_t ln)
{
    /* inferred is ascending */
    guint lo = 0, hi = ls->inferred->len;
    while (lo < hi) {
        guint mid = (lo + hi) / 2;
        uint32_t v = g_array_index(ls->inferred, uint32_t, mid);
        if (v == ln)
            return TRUE;
        if (v < ln)
            lo = mid + 1;
        else
            hi = mid;
    }
    return FALSE;
}

/* Stage FROM -> stage TO for every line.  Outside a USE_IR_LOC pair the
 * answer depends only on the line's stacks and on whether they were
 * inferred, so it is asked once per (set, inferred) and stored that way:
 * `{"by":"set","idx":[...],"lists":[...]}` where idx[2 * set + inferred]
 * is a list index + 1.  A USE_IR_LOC pair is asked per line ("by":"line"). */
static void write_to(kctx *k, jw *w, tk_stage_kind from, tk_stage_kind to,
                     const line_sets *ls, uint32_t n_lines)
{
    tk_stage_kind irk = tk_bind_irloc_stage(k->ix);
    gboolean by_line = irk != TK_STAGE_UNKNOWN && from >= irk && to >= irk;
    GHashTable *lists = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    GPtrArray *order = g_ptr_array_new(); /* list keys in index order */
    /* Per list, its lines matched on the innermost frame only
     * (tk_bind_match_approximate(): the same for every line of one set and
     * inferred flag, so part of the list's key). */
    GPtrArray *approx = g_ptr_array_new_with_free_func((GDestroyNotify)g_array_unref);
    GArray *idx = g_array_new(FALSE, TRUE, sizeof(uint32_t));
    g_array_set_size(idx, by_line ? n_lines : 2 * (ls->sets->len + 1));
    GString *key = g_string_new(NULL);
    for (uint32_t ln = 1; ln <= n_lines; ln++) {
        uint32_t set = g_array_index(ls->line_set, uint32_t, ln - 1);
        if (!set && !by_line)
            continue;
        guint slot = by_line ? ln - 1 : 2 * set + (is_inferred(ls, ln) ? 1 : 0);
        if (!by_line && g_array_index(idx, uint32_t, slot))
            continue;
        uint32_t *lines = NULL;
        size_t n = tk_bind_stage_to_stage(k->ix, from, ln, to, &lines);
        if (n) {
            g_string_truncate(key, 0);
            for (size_t i = 0; i < n; i++)
                key_u32(key, lines[i]);
            GArray *ap = g_array_new(FALSE, FALSE, sizeof(uint32_t));
            for (size_t i = 0; i < n; i++)
                if (tk_bind_match_approximate(k->ix, from, ln, to, lines[i]))
                    g_array_append_val(ap, lines[i]);
            g_string_append_c(key, '|');
            for (guint i = 0; i < ap->len; i++)
                key_u32(key, g_array_index(ap, uint32_t, i));
            gpointer v = g_hash_table_lookup(lists, key->str);
            if (!v) {
                char *kk = g_strdup(key->str);
                g_ptr_array_add(order, kk);
                g_ptr_array_add(approx, g_array_ref(ap));
                v = GUINT_TO_POINTER(order->len);
                g_hash_table_insert(lists, kk, v);
            }
            g_array_unref(ap);
            g_array_index(idx, uint32_t, slot) = GPOINTER_TO_UINT(v);
        } else if (!by_line) {
            g_array_index(idx, uint32_t, slot) = 0;
        }
        free(lines);
    }
    jw_obj(w);
    jw_key(w, "by");
    jw_str(w, by_line ? "line" : "set");
    jw_key(w, "idx");
    jw_arr(w);
    for (guint i = 0; i < idx->len; i++)
        jw_int(w, g_array_index(idx, uint32_t, i));
    jw_arr_end(w);
    jw_key(w, "lists");
    jw_arr(w);
    GArray *tmp = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    for (guint i = 0; i < order->len; i++) {
        g_array_set_size(tmp, 0);
        for (char *p = order->pdata[i]; *p && *p != '|';) {
            char *end;
            uint32_t v = (uint32_t)strtoul(p, &end, 10);
            g_array_append_val(tmp, v);
            p = *end == ',' ? end + 1 : end;
        }
        jw_lines(w, (const uint32_t *)tmp->data, tmp->len);
    }
    g_array_free(tmp, TRUE);
    jw_arr_end(w);
    jw_key(w, "approx");
    jw_arr(w);
    for (guint i = 0; i < approx->len; i++) {
        GArray *ap = approx->pdata[i];
        jw_lines(w, (const uint32_t *)ap->data, ap->len);
    }
    jw_arr_end(w);
    jw_obj_end(w);
    g_string_free(key, TRUE);
    g_array_free(idx, TRUE);
    g_ptr_array_free(order, TRUE);
    g_ptr_array_free(approx, TRUE);
    g_hash_table_destroy(lists);
}

static int write_bind(kctx *k, const tk_stage *st, tk_stage_kind kind)
{
    line_sets ls;
    build_line_sets(k, st, kind, &ls);
    uint32_t n = tk_stage_line_count(st);
    GString *g = g_string_sized_new(n * 8 + 64);
    jw w;
    jw_init(&w, g);
    jw_obj(&w);
    jw_key(&w, "sets");
    jw_arr(&w);
    for (guint i = 0; i < ls.sets->len; i++) {
        GArray *a = ls.sets->pdata[i];
        jw_u32s(&w, (const uint32_t *)a->data, a->len);
    }
    jw_arr_end(&w);
    jw_key(&w, "line");
    jw_arr(&w);
    for (uint32_t i = 0; i < n; i++)
        jw_int(&w, g_array_index(ls.line_set, uint32_t, i));
    jw_arr_end(&w);
    jw_key(&w, "inferred");
    jw_lines(&w, (const uint32_t *)ls.inferred->data, ls.inferred->len);
    jw_key(&w, "kinds");
    html_report_write_line_kinds(&w, st);
    jw_key(&w, "stmt");
    html_report_write_statement_lines(&w, k->ix, st, kind, k->stmts);
    jw_key(&w, "shared");
    html_report_write_shared(&w, k->ix, kind, k->extents);

    /* source line -> lines of this stage, both ways of asking */
    jw_key(&w, "src");
    jw_arr(&w);
    const tk_source_ref *refs;
    size_t nr = tk_bind_source_refs(k->ix, kind, &refs);
    for (size_t i = 0; i < nr; i++) {
        jw_arr(&w);
        jw_int(&w, refs[i].file);
        jw_int(&w, refs[i].line);
        const uint32_t *lines;
        size_t nl = tk_bind_source_to_stage(k->ix, refs[i].file, refs[i].line,
                                              TK_MATCH_EXACT, kind, &lines);
        jw_lines(&w, lines, nl);
        nl = tk_bind_source_to_stage(k->ix, refs[i].file, refs[i].line,
                                       TK_MATCH_CALLED, kind, &lines);
        jw_lines(&w, lines, nl);
        /* the counts: instructions only (a located .loc is not counted) */
        jw_int(&w, refs[i].n_exact);
        jw_int(&w, refs[i].n_called);
        jw_arr_end(&w);
        g_hash_table_add(k->files, GUINT_TO_POINTER(refs[i].file + 1));
    }
    jw_arr_end(&w);

    jw_key(&w, "to");
    jw_obj(&w);
    for (int t = 0; t < TK_STAGE_COUNT; t++) {
        if (t == (int)kind || !tk_kernel_stage(k->rk->kernel, (tk_stage_kind)t))
            continue;
        jw_key(&w, tk_stage_kind_name((tk_stage_kind)t));
        write_to(k, &w, kind, (tk_stage_kind)t, &ls, n);
    }
    jw_obj_end(&w);
    if (kind == TK_STAGE_TTGIR || kind == TK_STAGE_TTIR) {
        jw_key(&w, "lay");
        jw_obj(&w);
        html_report_write_stage_layouts(&w, st);
        jw_obj_end(&w);
    }
    jw_obj_end(&w);
    char what[32];
    g_snprintf(what, sizeof what, "%s.bind", tk_stage_kind_name(kind));
    int rc = put(k, what, g);
    line_sets_clear(&ls);
    return rc;
}

static const char *missing_reason(tk_stage_kind kind)
{
    switch (kind) {
    case TK_STAGE_TTIR:
        return "no TTIR file (.ttir) was found for this kernel (Gluon kernels "
               "start at TTGIR)";
    case TK_STAGE_SASS:
        return "no SASS was found: the capture has no .sass/.sass_gi file for "
               "this kernel (nvdisasm output of its cubin)";
    case TK_STAGE_AMDGCN:
        return "no AMDGCN was found: the capture has no .amdgcn file for this "
               "kernel (nor an .amdgcn_dis disassembly of its .hsaco)";
    default:
        return "no file of this stage was found for this kernel";
    }
}

static void write_meta_fields(jw *w, const tk_kernel_meta *m)
{
    struct { const char *k; int64_t v; } f[] = {
        {"num_warps", m->num_warps}, {"num_ctas", m->num_ctas},
        {"num_stages", m->num_stages}, {"shared_bytes", m->shared_bytes},
        {"registers", m->registers}, {"spill_bytes", m->spill_bytes},
        {"warp_size", m->warp_size}, {"waves_per_eu", m->waves_per_eu},
        {"sgprs", m->sgprs}, {"agprs", m->agprs},
        {"vgpr_spills", m->vgpr_spills}, {"sgpr_spills", m->sgpr_spills},
        {"lds_static_bytes", m->lds_static_bytes},
        {"occupancy", m->occupancy},
    };
    jw_obj(w);
    for (size_t i = 0; i < G_N_ELEMENTS(f); i++)
        if (f[i].v >= 0) {
            jw_key(w, f[i].k);
            jw_int(w, f[i].v);
        }
    if (m->target) {
        jw_key(w, "target");
        jw_str(w, m->target);
    }
    if (m->triton_version) {
        jw_key(w, "triton");
        jw_str(w, m->triton_version);
    }
    jw_obj_end(w);
}

static gint cmp_u32(gconstpointer a, gconstpointer b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Every FILE a #source=FILE:LINE link may name among the kernel's N files
 * FILES, with the file it names by the library's rule (tk_file_query.h, as
 * `tkview bind --source` and the viewer match it): ["FILE", id, ...] (an
 * array: a path is no safe object key, jsonw.h), -1 when FILE names several (the page refuses it, as they do).  The keys are
 * each path and its tails at a '/', with and without that '/'
 * ("/tmp/capture/va/src/va.py", "/capture/va/src/va.py", ..., "src/va.py",
 * "/va.py", "va.py"): whatever else a user types names no file, so the
 * page looks up and never decides. */
static void write_file_keys(kctx *k, jw *w, const tk_file_id *files, size_t n)
{
    tk_loctab *tab = tk_bundle_loctab(k->r->bundle);
    GHashTable *seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    jw_arr(w);
    for (size_t i = 0; i < n; i++) {
        const char *path = tk_loctab_file_path(tab, files[i]);
        for (const char *p = path; p && *p; p = strchr(p + 1, '/')) {
            for (int slash = 0; slash < 2; slash++) {
                const char *key = slash ? p + (*p == '/') : p;
                if (!*key || g_hash_table_contains(seen, key))
                    continue;
                g_hash_table_add(seen, g_strdup(key));
                tk_file_query *q = tk_file_query_new(k->r->bundle, key);
                tk_file_id *found = NULL;
                size_t got = tk_file_query_find(q, files, n, &found);
                jw_str(w, key);
                jw_int(w, got == 1 ? (int64_t)found[0] : -1);
                g_free(found);
                tk_file_query_free(q);
            }
        }
    }
    jw_arr_end(w);
    g_hash_table_unref(seen);
}

static int write_meta(kctx *k)
{
    const tk_kernel *kern = k->rk->kernel;
    GString *g = g_string_new(NULL);
    jw w;
    jw_init(&w, g);
    jw_obj(&w);
    jw_key(&w, "id");
    jw_str(&w, k->rk->id);
    jw_key(&w, "name");
    jw_str(&w, tk_kernel_name(kern));
    jw_key(&w, "hash");
    jw_str(&w, tk_kernel_hash(kern));
    jw_key(&w, "origin");
    jw_str(&w, tk_kernel_origin(kern));
    jw_key(&w, "meta");
    write_meta_fields(&w, tk_kernel_metadata(kern));
    tk_stage_kind irk = tk_bind_irloc_stage(k->ix);
    jw_key(&w, "irloc");
    jw_str(&w, irk == TK_STAGE_UNKNOWN ? NULL : tk_stage_kind_name(irk));
    jw_key(&w, "stages");
    jw_obj(&w);
    for (int t = 0; t < TK_STAGE_COUNT; t++) {
        /* The stages of the kernel's backend, in the library's order: the
         * page's tabs. */
        if (!tk_kernel_stage_expected(kern, (tk_stage_kind)t))
            continue;
        const tk_stage *st = tk_kernel_stage(kern, (tk_stage_kind)t);
        jw_key(&w, tk_stage_kind_name((tk_stage_kind)t));
        jw_obj(&w);
        jw_key(&w, "label");
        jw_str(&w, tk_stage_kind_label((tk_stage_kind)t));
        if (!st) {
            /* the library's reason (what the capture recorded, or where
             * it looked), else a general one */
            const char *why = tk_kernel_stage_missing(kern, (tk_stage_kind)t);
            jw_key(&w, "missing");
            jw_str(&w, why && *why ? why : missing_reason((tk_stage_kind)t));
        } else {
            char *base = g_path_get_basename(tk_stage_path(st));
            jw_key(&w, "file");
            jw_str(&w, base);
            g_free(base);
            jw_key(&w, "lines");
            jw_int(&w, tk_stage_line_count(st));
            jw_key(&w, "bytes");
            jw_int(&w, (int64_t)tk_stage_size(st));
            jw_key(&w, "bound");
            jw_int(&w, tk_bind_bound_line_count(k->ix, (tk_stage_kind)t));
            jw_key(&w, "inlineFrames");
            jw_bool(&w, tk_stage_has_inline_frames(st));
            tk_stage_kind from = tk_bind_inferred_from(k->ix, (tk_stage_kind)t);
            if (from != TK_STAGE_UNKNOWN) {
                /* whose stacks its inferred lines took (info.js says so) */
                jw_key(&w, "callersFrom");
                jw_str(&w, tk_stage_kind_label(from));
            }
        }
        jw_obj_end(&w);
    }
    jw_obj_end(&w);
    jw_key(&w, "stacks");
    jw_arr(&w);
    for (guint i = 0; i < k->stacks->len; i++) {
        size_t n;
        const tk_frame *fr = tk_loctab_stack_frames(
            k->tab, g_array_index(k->stacks, tk_stack_id, i), &n);
        jw_arr(&w);
        for (size_t j = 0; j < n; j++) {
            jw_int(&w, fr[j].file);
            jw_int(&w, fr[j].line);
            jw_int(&w, fr[j].col);
        }
        jw_arr_end(&w);
    }
    jw_arr_end(&w);
    /* The stage the IR pane opens first (tk_kernel_first_stage(): the
     * viewer opens the same one); null when there is none. */
    tk_stage_kind first = tk_kernel_first_stage(k->rk->kernel);
    jw_key(&w, "first");
    jw_str(&w, first == TK_STAGE_UNKNOWN ? NULL : tk_stage_kind_name(first));
    /* The file the source pane opens first: the kernel's own. */
    tk_file_id own = tk_kernel_main_source(k->rk->kernel, k->tab);
    jw_key(&w, "main");
    jw_int(&w, own == TK_NO_FILE ? -1 : (int64_t)own);
    jw_key(&w, "files");
    GList *files = g_hash_table_get_keys(k->files);
    GArray *fa = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    for (GList *l = files; l; l = l->next) {
        uint32_t f = GPOINTER_TO_UINT(l->data) - 1;
        g_array_append_val(fa, f);
        html_report_source(k->r, f);
    }
    g_list_free(files);
    g_array_sort(fa, cmp_u32);
    jw_u32s(&w, (const uint32_t *)fa->data, fa->len);
    jw_key(&w, "fileKeys");
    write_file_keys(k, &w, (const tk_file_id *)fa->data, fa->len);
    g_array_free(fa, TRUE);
    jw_key(&w, "passes");
    jw_bool(&w, k->rk->has_passes);
    jw_key(&w, "cost");
    jw_bool(&w, k->rk->cost);
    jw_key(&w, "diag");
    jw_int(&w, (int64_t)k->rk->n_diag);
    jw_key(&w, "failed");
    jw_bool(&w, k->rk->failed);
    jw_key(&w, "stmts");
    html_report_write_statements(&w, k->stmts);
    jw_obj_end(&w);
    int rc = put(k, "meta", g);
    return rc;
}

int html_report_kernel_data(html_report *r, html_report_kernel *rk)
{
    kctx k = {
        .r = r,
        .rk = rk,
        .tab = tk_bundle_loctab(r->bundle),
        .stack_local = g_hash_table_new(g_direct_hash, g_direct_equal),
        .stacks = g_array_new(FALSE, FALSE, sizeof(tk_stack_id)),
        .files = g_hash_table_new(g_direct_hash, g_direct_equal),
    };
    k.ix = tk_bind_new(rk->kernel, k.tab);
    k.stmts = html_report_statements(r, k.ix);
    k.extents = html_report_query_extents(r, k.ix);
    int rc = 0;
    for (int t = 0; t < TK_STAGE_COUNT && rc == 0; t++) {
        const tk_stage *st = tk_kernel_stage(rk->kernel, (tk_stage_kind)t);
        if (!st)
            continue;
        rk->bound[t] = tk_bind_bound_line_count(k.ix, (tk_stage_kind)t);
        rc = write_text(&k, st, (tk_stage_kind)t);
        if (rc == 0)
            rc = write_bind(&k, st, (tk_stage_kind)t);
    }
    if (rc == 0)
        rc = html_report_cost_data(r, rk, k.ix);
    if (rc == 0)
        html_report_diag_count(r, rk); /* the data once the steps are known */
    if (rc == 0)
        rc = write_meta(&k);
    tk_bind_free(k.ix);
    g_array_free(k.stmts, TRUE);
    g_array_free(k.extents, TRUE);
    g_hash_table_destroy(k.stack_local);
    g_array_free(k.stacks, TRUE);
    g_hash_table_destroy(k.files);
    return rc;
}
