/* cli_common.c - loading, messages and output helpers of the tkview program. */
#include "cli.h"
#include "tkdump/tk_bundle_load.h"
#include "tkdump/tk_input_file.h"

#include <stdarg.h>
#include <string.h>

void cli_add_common(GOptionContext *ctx, cli_common *c)
{
    GOptionEntry entries[] = {
        {"source-dir", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &c->source_dirs,
         "Also look for source files under DIR (repeatable)", "DIR"},
        {"json", 0, 0, G_OPTION_ARG_NONE, &c->json,
         "Write JSON (see docs/cli-json.md)", NULL},
        {"quiet", 'q', 0, G_OPTION_ARG_NONE, &c->quiet,
         "Do not print warnings and notes", NULL},
        {"wide", 0, 0, G_OPTION_ARG_NONE, cli_term_wide_option(),
         "Whole lines on a terminal too (piped output always has them)", NULL},
        G_OPTION_ENTRY_NULL,
    };
    g_option_context_add_main_entries(ctx, entries, NULL);
}

GOptionContext *cli_options(const char *params, const char *summary,
                            const GOptionEntry *entries, cli_common *common)
{
    GOptionContext *ctx = g_option_context_new(params);
    if (summary)
        g_option_context_set_summary(ctx, summary);
    g_option_context_add_main_entries(ctx, entries, NULL);
    cli_add_common(ctx, common);
    return ctx;
}

int cli_usage(GError **err, const char *usage)
{
    cli_error("%s", *err ? (*err)->message : usage);
    g_clear_error(err);
    return CLI_EXIT_USAGE;
}

static int open_with(tk_bundle *b, const char *kernel, gboolean pick,
                     tk_bundle **bundle, const tk_kernel **one)
{
    if (!(*bundle = b))
        return CLI_EXIT_INPUT;
    if ((kernel || pick) && !(*one = cli_pick_kernel(*bundle, kernel))) {
        tk_bundle_free(*bundle);
        *bundle = NULL;
        return CLI_EXIT_USAGE;
    }
    return CLI_EXIT_OK;
}

int cli_open(const char *path, const cli_common *common, const char *kernel,
             gboolean pick, tk_bundle **bundle, const tk_kernel **one)
{
    return open_with(cli_load(path, common), kernel, pick, bundle, one);
}

int cli_open_kernel(const char *path, const cli_common *common,
                    const char *kernel, tk_bundle **bundle,
                    const tk_kernel **one)
{
    tk_bundle *b = kernel ? cli_load_for_kernel(path, common, kernel)
                          : cli_load(path, common);
    return open_with(b, kernel, FALSE, bundle, one);
}

gboolean cli_split_line_spec(const char *spec, char **head, uint32_t *line)
{
    const char *colon = strrchr(spec, ':');
    if (!colon || colon == spec || !g_ascii_isdigit(colon[1]))
        return FALSE;
    char *end;
    unsigned long long v = g_ascii_strtoull(colon + 1, &end, 10);
    if (*end || v == 0 || v > UINT32_MAX)
        return FALSE;
    *head = g_strndup(spec, (gsize)(colon - spec));
    *line = (uint32_t)v;
    return TRUE;
}

void cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    /* Messages quote names and paths from dumps: escaped as a whole. */
    cli_fprintf(stderr, "tkview: %s\n", msg);
    g_free(msg);
}

void cli_print_diags(const tk_diags *diags, gboolean quiet)
{
    size_t n = tk_diags_count(diags);
    for (size_t i = 0; i < n; i++) {
        const tk_diag *d = tk_diags_get(diags, i);
        if (quiet && d->severity < TK_DIAG_ERROR)
            continue;
        GString *where = g_string_new(d->file);
        if (d->line)
            g_string_append_printf(where, ":%llu", (unsigned long long)d->line);
        fputs("tkview: ", stderr);
        cli_put_text(stderr, where->str, where->len);
        cli_fprintf(stderr, ": %s: ", tk_diag_severity_name(d->severity));
        cli_put_text(stderr, d->message, strlen(d->message));
        fputc('\n', stderr);
        g_string_free(where, TRUE);
    }
}

tk_bundle *cli_load(const char *path, const cli_common *c)
{
    tk_load_options opts = {
        (const char *const *)c->source_dirs,
        c->source_dirs ? g_strv_length(c->source_dirs) : 0,
    };
    tk_diags *diags = tk_diags_new();
    tk_bundle *b = tk_bundle_load(path, &opts, diags);
    cli_print_diags(diags, c->quiet);
    tk_diags_free(diags);
    if (!b) {
        cli_error("%s: nothing could be loaded", path);
    } else if (tk_bundle_kernel_count(b) == 0) {
        /* A manifest listing no kernel, or only ones that could not be
         * read (a kernel folder linked out of the bundle): nothing useful
         * can be made, and every command says so with a non-zero exit. */
        cli_error("%s: no kernel could be loaded (its manifest lists none "
                  "that can be read)",
                  path);
        tk_bundle_free(b);
        b = NULL;
    }
    return b;
}

/* The load of cli_load_for_kernel() that reads one kernel's stages, or
 * NULL when anything was said (nothing is printed). */
static tk_bundle *load_one_kernel(const char *path, const cli_common *c,
                                  const char *spec)
{
    tk_load_options opts = {
        (const char *const *)c->source_dirs,
        c->source_dirs ? g_strv_length(c->source_dirs) : 0,
    };
    tk_diags *diags = tk_diags_new();
    /* Charged to a budget of its own: a whole load after it starts afresh. */
    tk_input_budget *budget = tk_input_budget_new();
    tk_input_budget *before = tk_input_budget_use(budget);
    tk_bundle *b = tk_bundle_load_on_demand(path, &opts, diags);
    size_t n = b && tk_diags_count(diags) == 0 ? tk_bundle_kernel_count(b) : 0;
    ptrdiff_t at = !n ? -1 : spec ? tk_bundle_find_kernel_index(b, spec, NULL)
                           : n == 1 ? 0 : -1;
    if (at >= 0)
        tk_bundle_kernel_read(b, (size_t)at, diags);
    tk_input_budget_use(before);
    tk_input_budget_free(budget);
    if (at < 0 || tk_diags_count(diags) != 0) {
        tk_bundle_free(b);
        b = NULL;
    }
    tk_diags_free(diags);
    return b;
}

tk_bundle *cli_load_for_kernel(const char *path, const cli_common *c,
                               const char *spec)
{
    tk_bundle *b = load_one_kernel(path, c, spec);
    return b ? b : cli_load(path, c);
}

void cli_put_text(FILE *out, const char *s, size_t len)
{
    char *x = cli_escape(s, len);
    fputs(x, out);
    g_free(x);
}

char *cli_stack_string(const tk_loctab *tab, tk_stack_id id)
{
    size_t n;
    const tk_frame *f = tk_loctab_stack_frames(tab, id, &n);
    GString *s = g_string_new(NULL);
    for (size_t i = 0; i < n; i++) {
        const char *path = tk_loctab_file_path(tab, f[i].file);
        const char *base = strrchr(path, '/');
        g_string_append_printf(s, "%s%s:%u", i ? " <- " : "",
                               base ? base + 1 : path, f[i].line);
        if (f[i].col)
            g_string_append_printf(s, ":%u", f[i].col);
    }
    return g_string_free(s, FALSE);
}

void cli_json_string(JsonBuilder *b, const char *s, size_t len)
{
    char *valid = g_utf8_make_valid(s, (gssize)len);
    json_builder_add_string_value(b, valid);
    g_free(valid);
}

void cli_json_stack(JsonBuilder *b, const tk_loctab *tab, tk_stack_id id)
{
    size_t n;
    const tk_frame *f = tk_loctab_stack_frames(tab, id, &n);
    json_builder_begin_array(b);
    for (size_t i = 0; i < n; i++) {
        const char *path = tk_loctab_file_path(tab, f[i].file);
        json_builder_begin_object(b);
        json_builder_set_member_name(b, "file");
        cli_json_string(b, path, strlen(path));
        json_builder_set_member_name(b, "line");
        json_builder_add_int_value(b, f[i].line);
        json_builder_set_member_name(b, "col");
        json_builder_add_int_value(b, f[i].col);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
}

void cli_json_print(JsonBuilder *b)
{
    JsonGenerator *g = json_generator_new();
    JsonNode *root = json_builder_get_root(b);
    json_generator_set_root(g, root);
    json_generator_set_pretty(g, TRUE);
    gsize len;
    char *text = json_generator_to_data(g, &len);
    fwrite(text, 1, len, stdout);
    fputc('\n', stdout);
    g_free(text);
    json_node_unref(root);
    g_object_unref(g);
}

/* Lists kernels IDX[0..N) (all when IDX is NULL) on stderr, as `info`
 * numbers them: the candidates a --kernel could name. */
static void list_kernels(const tk_bundle *bundle, const size_t *idx, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        size_t at = idx ? idx[i] : i;
        const tk_kernel *k = tk_bundle_kernel(bundle, at);
        char *name = cli_escape(tk_kernel_name(k), strlen(tk_kernel_name(k)));
        char *hash = cli_escape(tk_kernel_hash(k), strlen(tk_kernel_hash(k)));
        cli_fprintf(stderr, "  %zu  %s  %.12s\n", at, name, hash);
        g_free(name);
        g_free(hash);
    }
}

const tk_kernel *cli_pick_kernel(const tk_bundle *bundle, const char *spec)
{
    size_t n = tk_bundle_kernel_count(bundle);
    if (!spec) {
        if (n == 1)
            return tk_bundle_kernel(bundle, 0);
        cli_error("%zu kernels here; choose one with --kernel "
                     "(a name or a unique prefix of one, a hash prefix, "
                     "name:hash or an index):", n);
        list_kernels(bundle, NULL, n);
        return NULL;
    }
    return cli_find_kernel(bundle, spec, "--kernel");
}

const tk_kernel *cli_find_kernel(const tk_bundle *bundle, const char *spec,
                                    const char *option)
{
    size_t matches = 0;
    ptrdiff_t at = tk_bundle_find_kernel_index(bundle, spec, &matches);
    if (at >= 0)
        return tk_bundle_kernel(bundle, (size_t)at);
    char *esc = cli_escape(spec, strlen(spec));
    if (matches > 1) {
        /* The library's candidates, as `info` numbers them. */
        size_t *idx = NULL;
        size_t n_idx = tk_bundle_find_kernels(bundle, spec, &idx);
        cli_error("%s %s matches %zu kernels; choose one (a longer "
                     "name, name:hash or an index):", option, esc, n_idx);
        list_kernels(bundle, idx, n_idx);
        g_free(idx);
    } else {
        cli_error("%s %s matches no kernel (see tkview info)", option, esc);
    }
    g_free(esc);
    return NULL;
}

const char *cli_stage_names(void)
{
    static char names[128];
    if (!names[0]) {
        GString *s = g_string_new(NULL);
        for (int k = 0; k < TK_STAGE_COUNT; k++)
            g_string_append_printf(s, "%s%s", k ? ", " : "",
                                   tk_stage_kind_name((tk_stage_kind)k));
        g_strlcpy(names, s->str, sizeof names);
        g_string_free(s, TRUE);
    }
    return names;
}

gboolean cli_stage_listed(const tk_kernel *k, tk_stage_kind s,
                             tk_stage_kind only)
{
    if (only != TK_STAGE_UNKNOWN)
        return only == s;
    return tk_kernel_stage_expected(k, s);
}
