/* tk_test.c - helpers shared by the unit tests. */
#include "tk_test.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tkdump/tk_staged_dir.h"

char *tk_test_dump_path(const char *rel)
{
    const char *root = g_getenv("TK_TEST_DUMPS");
    g_assert_nonnull(root);
    return g_build_filename(root, rel, NULL);
}

char *tk_test_src_path(const char *rel)
{
    const char *root = g_getenv("TK_TEST_SRCDIR");
    g_assert_nonnull(root);
    return g_build_filename(root, rel, NULL);
}

static char *tmp_dir;

static void remove_tmp_dir(void)
{
    if (tmp_dir)
        tk_staged_dir_remove_tree(tmp_dir);
}

const char *tk_test_tmp_dir(void)
{
    /* A test's subprocess (g_test_trap_subprocess()) shares its parent's
     * folder, which the parent made before starting it and removes. */
    const char *parents = g_getenv("TK_TEST_TMP_DIR");
    if (!tmp_dir && parents && g_test_subprocess())
        tmp_dir = g_strdup(parents);
    if (!tmp_dir) {
        /* TMPDIR may have been removed since configure made it. */
        g_mkdir_with_parents(g_get_tmp_dir(), 0755);
        char *prg = g_path_get_basename(g_get_prgname() ? g_get_prgname()
                                                         : "test");
        char *tmpl = g_strdup_printf("tk-%s-XXXXXX", prg);
        g_free(prg);
        GError *err = NULL;
        tmp_dir = g_dir_make_tmp(tmpl, &err);
        if (!tmp_dir)
            g_error("cannot make a folder in %s: %s", g_get_tmp_dir(),
                    err->message);
        g_free(tmpl);
        g_setenv("TK_TEST_TMP_DIR", tmp_dir, TRUE);
        atexit(remove_tmp_dir);
    }
    return tmp_dir;
}

char *tk_test_tmp_path(const char *name)
{
    return g_build_filename(tk_test_tmp_dir(), name, NULL);
}

char *tk_test_make_tmp(const char *tmpl)
{
    char *dir = g_build_filename(tk_test_tmp_dir(), tmpl, NULL);
    if (!g_mkdtemp(dir))
        g_error("cannot make %s: %s", dir, g_strerror(errno));
    return dir;
}

void tk_test_remove_tree(const char *path)
{
    if (tk_staged_dir_remove_tree(path) != 0)
        g_error("cannot remove %s: %s", path, g_strerror(errno));
}

gboolean tk_test_have_dumps(void)
{
    if (g_strcmp0(g_getenv("TK_TEST_HAVE_DUMPS"), "1") == 0)
        return TRUE;
    g_test_skip("the shared dumps (../shared/dumps) are not there");
    return FALSE;
}

char *tk_test_find_dump(const char *rel_dir, const char *suffix)
{
    char *dir = tk_test_dump_path(rel_dir);
    char *found = NULL;
    int n = 0;
    GDir *d = g_dir_open(dir, 0, NULL);
    g_assert_nonnull(d);
    /* Look one level down too: kernel_dump/HASH/name.ttgir. */
    for (const char *e; (e = g_dir_read_name(d));) {
        char *p = g_build_filename(dir, e, NULL);
        if (g_file_test(p, G_FILE_TEST_IS_DIR)) {
            GDir *d2 = g_dir_open(p, 0, NULL);
            for (const char *e2; d2 && (e2 = g_dir_read_name(d2));)
                if (g_str_has_suffix(e2, suffix)) {
                    n++;
                    g_free(found);
                    found = g_build_filename(p, e2, NULL);
                }
            if (d2)
                g_dir_close(d2);
        } else if (g_str_has_suffix(e, suffix)) {
            n++;
            g_free(found);
            found = g_strdup(p);
        }
        g_free(p);
    }
    g_dir_close(d);
    if (n != 1)
        g_error("expected one *%s under %s, found %d", suffix, dir, n);
    g_free(dir);
    return found;
}

static gint cmp_str(gconstpointer a, gconstpointer b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

GPtrArray *tk_test_shared_files(const char *const *subs, const char *suffix)
{
    GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
    char *root = tk_test_dump_path("");
    GDir *top = g_dir_open(root, 0, NULL);
    g_assert_nonnull(top);
    for (const char *cap; (cap = g_dir_read_name(top));) {
        for (const char *const *sub = subs; *sub; sub++) {
            char *dir = g_build_filename(root, cap, *sub, NULL);
            GDir *d = g_dir_open(dir, 0, NULL);
            for (const char *h; d && (h = g_dir_read_name(d));) {
                char *hd = g_build_filename(dir, h, NULL);
                GDir *d2 = g_dir_open(hd, 0, NULL);
                for (const char *e; d2 && (e = g_dir_read_name(d2));)
                    if (g_str_has_suffix(e, suffix))
                        g_ptr_array_add(out, g_build_filename(hd, e, NULL));
                if (d2)
                    g_dir_close(d2);
                g_free(hd);
            }
            if (d)
                g_dir_close(d);
            g_free(dir);
        }
    }
    g_dir_close(top);
    g_free(root);
    g_ptr_array_sort(out, cmp_str);
    return out;
}

int tk_test_read_each_shared(tk_stage_kind kind, const char *suffix)
{
    static const char *const subs[] = {"kernel_dump", NULL};
    GPtrArray *paths = tk_test_shared_files(subs, suffix);
    for (guint i = 0; i < paths->len; i++) {
        const char *p = g_ptr_array_index(paths, i);
        tk_loctab *tab = tk_loctab_new();
        tk_diags *d = tk_diags_new();
        tk_stage *s = tk_test_read_stage(kind, p, tab, d);
        if (tk_test_print_diags(d) != 0)
            g_error("%s: diagnostics", p);
        g_assert_cmpuint(tk_stage_located_line_count(s), >, 0);
        tk_stage_free(s);
        tk_diags_free(d);
        tk_loctab_free(tab);
    }
    int n = (int)paths->len;
    g_ptr_array_free(paths, TRUE);
    return n;
}

tk_stage *tk_test_read_stage(tk_stage_kind kind, const char *path,
                             tk_loctab *tab, tk_diags *diags)
{
    tk_stage *s = tk_stage_read(kind, path, tab, diags);
    if (!s) {
        tk_test_print_diags(diags);
        g_error("cannot read %s", path);
    }
    return s;
}

GArray *tk_test_lines_with(const tk_stage *stage, const char *needle)
{
    GArray *a = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    size_t nl = strlen(needle);
    for (uint32_t l = 1; l <= tk_stage_line_count(stage); l++) {
        size_t len;
        const char *s = tk_stage_line(stage, l, &len);
        if (len >= nl && memmem(s, len, needle, nl))
            g_array_append_val(a, l);
    }
    return a;
}

uint32_t tk_test_line_with(const tk_stage *stage, const char *needle, int nth)
{
    GArray *a = tk_test_lines_with(stage, needle);
    if ((guint)nth > a->len || nth < 1)
        g_error("%s: line %d containing \"%s\" not found (%u lines have it)",
                tk_stage_path(stage), nth, needle, a->len);
    uint32_t l = g_array_index(a, uint32_t, nth - 1);
    g_array_free(a, TRUE);
    return l;
}

char *tk_test_stack_string(const tk_loctab *tab, tk_stack_id id)
{
    size_t n;
    const tk_frame *f = tk_loctab_stack_frames(tab, id, &n);
    GString *s = g_string_new(NULL);
    for (size_t i = 0; i < n; i++) {
        const char *path = tk_loctab_file_path(tab, f[i].file);
        const char *base = strrchr(path, '/');
        g_string_append_printf(s, "%s%s:%u:%u", i ? " <- " : "",
                               base ? base + 1 : path, f[i].line, f[i].col);
    }
    return g_string_free(s, FALSE);
}

char *tk_test_line_stacks_string(const tk_stage *stage, const tk_loctab *tab,
                                 uint32_t line)
{
    const tk_stack_id *ids;
    size_t n = tk_stage_line_stacks(stage, line, &ids);
    GString *s = g_string_new(NULL);
    for (size_t i = 0; i < n; i++) {
        char *one = tk_test_stack_string(tab, ids[i]);
        g_string_append_printf(s, "%s%s", i ? " | " : "", one);
        g_free(one);
    }
    return g_string_free(s, FALSE);
}

const char *tk_test_frame_path(const tk_stage *stage, const tk_loctab *tab,
                               uint32_t line, size_t i)
{
    const tk_stack_id *ids;
    g_assert_cmpuint(tk_stage_line_stacks(stage, line, &ids), ==, 1);
    size_t n;
    const tk_frame *f = tk_loctab_stack_frames(tab, ids[0], &n);
    g_assert_cmpuint(i, <, n);
    return tk_loctab_file_path(tab, f[i].file);
}

size_t tk_test_count_diags_with(const tk_diags *diags, tk_diag_severity severity,
                                const char *needle)
{
    size_t n = 0;
    for (size_t i = 0; i < tk_diags_count(diags); i++) {
        const tk_diag *d = tk_diags_get(diags, i);
        if (d->severity >= severity && strstr(d->message, needle))
            n++;
    }
    return n;
}

size_t tk_test_print_diags(const tk_diags *diags)
{
    size_t n = tk_diags_count(diags);
    for (size_t i = 0; i < n; i++) {
        const tk_diag *d = tk_diags_get(diags, i);
        g_test_message("%s:%llu: %s: %s", d->file,
                       (unsigned long long)d->line,
                       tk_diag_severity_name(d->severity), d->message);
    }
    return n;
}
