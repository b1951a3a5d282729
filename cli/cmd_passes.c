/* cmd_passes.c - `tkview passes PATH`: each kernel's pass timeline, one line
 * per pass with its IR level and what it changed. */
#include "cli.h"

#include <string.h>

#include "tkdump/tk_bundle_load.h"
#include "tkdump/tk_timeline.h"

typedef struct {
    cli_common common;
    char *kernel;
    char *algorithm;
    gboolean changed_only;
    gboolean changes;
} passes_args;

/* --changes: each changed pass's and sub-step's diff is made, as `tkview
 * diff --pass N[.J]` makes it, and its changes counted by the library
 * (tk_ir_diff_change_count(): the "N" of "change k of N" in the report and
 * the viewer).  One process for a kernel's every count, where a script
 * comparing them ran one `tkview diff` a pass, loading the bundle each
 * time. */
typedef struct {
    const tk_diff_opts *opts; /* NULL: not counted */
    gboolean quiet;
} counting;

/* The changes of entry E (pass INDEX, or sub-step INDEX of its pass); -1
 * when not counted (no --changes, an unknown effect, no diff made). */
static long change_count(const counting *c, const tk_timeline *tl, const tk_timeline_entry *e,
                         size_t index)
{
    if (!c->opts || e->effect == TK_EFFECT_UNKNOWN)
        return -1;
    if (e->effect == TK_EFFECT_UNCHANGED)
        return 0;
    tk_diags *diags = tk_diags_new();
    tk_ir_diff *d = e->parent == TK_TL_NONE
                        ? tk_timeline_diff(tl, index, index, c->opts, diags)
                        : tk_timeline_diff_substep(tl, e->parent, index, c->opts, diags);
    cli_print_diags(diags, c->quiet);
    tk_diags_free(diags);
    long n = d ? (long)tk_ir_diff_change_count(d) : -1;
    tk_ir_diff_free(d);
    return n;
}

static const char *kind_name(tk_pass_kind k)
{
    static const char *const names[] = {"mlir", "mlir-internal", "llvm-ir",
                                        "llvm-legacy", "machine"};
    return (size_t)k < G_N_ELEMENTS(names) ? names[k] : "unknown";
}

static const char *when_name(tk_pass_when w)
{
    static const char *const names[] = {"before", "after", "after-failed",
                                        "at-start", "label"};
    return (size_t)w < G_N_ELEMENTS(names) ? names[w] : "unknown";
}

static const char *scope_kind_name(tk_pass_scope_kind k)
{
    static const char *const names[] = {"none", "module", "operation",
                                        "function", "cgscc", "loop"};
    return (size_t)k < G_N_ELEMENTS(names) ? names[k] : "unknown";
}

static const char *side_kind_name(tk_side_kind k)
{
    static const char *const names[] = {"none", "dump", "functions", "state",
                                        "final"};
    return (size_t)k < G_N_ELEMENTS(names) ? names[k] : "unknown";
}

/* The scope as a few words: "module", "@add_kernel", "add_kernel". */
static char *short_scope(const tk_timeline_entry *e)
{
    switch (e->scope_kind) {
    case TK_PASS_SCOPE_MODULE:
        return g_strdup("module");
    case TK_PASS_SCOPE_OPERATION:
        return g_strdup_printf("@%s", e->scope_name);
    case TK_PASS_SCOPE_FUNCTION:
        return g_strdup(e->scope_name);
    case TK_PASS_SCOPE_CGSCC:
        return g_strdup_printf("(%s)", e->scope_name);
    case TK_PASS_SCOPE_LOOP:
        /* a legacy loop pass does not say which function */
        return e->scope_name[0] ? g_strdup_printf("loop in %s", e->scope_name)
                                : g_strdup("a loop");
    default:
        return g_strdup(e->scope);
    }
}

static const char *part_path(const tk_timeline *tl, size_t part)
{
    const tk_timeline_part *p = tk_timeline_get_part(tl, part);
    return p ? tk_passes_path(p->passes) : "";
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* ---- text ------------------------------------------------------------- */

static void put_entry(const counting *c, const tk_timeline *tl, const tk_timeline_entry *e,
                      size_t at, const char *index)
{
    char effect[48];
    if (e->effect == TK_EFFECT_CHANGED)
        g_snprintf(effect, sizeof effect, "+%u -%u", e->added, e->removed);
    else
        g_snprintf(effect, sizeof effect, "%s", tk_effect_name(e->effect));
    char *head = g_strdup_printf("%7s  %-12s  %-13s  ", index,
                                 tk_pass_level_name(e->level), effect);
    GString *what = g_string_new(e->pass);
    if (e->arg[0] && strcmp(e->arg, e->pass) != 0)
        g_string_append_printf(what, " (%s)", e->arg);
    char *scope = short_scope(e);
    if (scope[0] && e->parent == TK_TL_NONE && e->scope_kind != TK_PASS_SCOPE_MODULE)
        g_string_append_printf(what, " on %s", scope);
    g_free(scope);
    GString *tail = g_string_new(NULL);
    if (e->part != TK_TL_NONE)
        g_string_append_printf(tail, "  %s:%llu", base_name(part_path(tl, e->part)),
                               (unsigned long long)e->header_line);
    if (e->effect == TK_EFFECT_UNKNOWN && e->why)
        g_string_append_printf(tail, "  [%s]", tk_unknown_why_name(e->why));
    /* The library's words for how it was compared (a sub-step printed
     * without attribute aliases): the report and the viewer say the same. */
    if (tk_timeline_entry_note(e))
        g_string_append_printf(tail, "  [%s]", tk_timeline_entry_note(e));
    long changes = e->effect == TK_EFFECT_CHANGED ? change_count(c, tl, e, at) : -1;
    if (changes >= 0)
        g_string_append_printf(tail, "  [%ld change%s]", changes, changes == 1 ? "" : "s");
    if (e->flags & TK_TL_TO_FINAL)
        g_string_append(tail, "  [against the final stage]");
    if (e->flags & TK_TL_SPANS_LOOPS)
        g_string_append(tail, "  [includes the loop passes before it]");
    if (e->flags & TK_TL_DAMAGED)
        g_string_append(tail, "  [a dump compared is damaged]");
    /* On a terminal the pass's name keeps what room the line has; the
     * file:line and notes after it are cut first. */
    int cols = cli_term_columns();
    int used = (int)strlen(head);
    fputs(head, stdout);
    if (cols > 0) {
        int tail_w = (int)g_utf8_strlen(tail->str, -1);
        int room = cols - used - tail_w;
        used += cli_term_put(stdout, what->str, what->len, room > 24 ? room : 24);
        cli_term_put(stdout, tail->str, tail->len, cols - used > 2 ? cols - used : 2);
    } else {
        cli_put_text(stdout, what->str, what->len);
        cli_put_text(stdout, tail->str, tail->len);
    }
    g_free(head);
    g_string_free(what, TRUE);
    g_string_free(tail, TRUE);
    putchar('\n');
}

/* Whether pass I has a sub-step that is not unchanged: --changed-only keeps
 * an unchanged pass for it. */
static gboolean sub_not_unchanged(const tk_timeline *tl, size_t i)
{
    const tk_timeline_entry *e = tk_timeline_get(tl, i);
    for (size_t j = 0; j < e->n_substeps; j++)
        if (tk_timeline_substep(tl, i, j)->effect != TK_EFFECT_UNCHANGED)
            return TRUE;
    return FALSE;
}

static void put_text(const counting *c, const tk_timeline *tl, const tk_kernel *k,
                     gboolean changed_only)
{
    size_t n = tk_timeline_count(tl), counts[3] = {0};
    for (size_t i = 0; i < n; i++)
        counts[tk_timeline_get(tl, i)->effect]++;
    cli_printf("%s %.12s: %zu passes (%zu changed, %zu unchanged, %zu unknown) from",
           tk_kernel_name(k), tk_kernel_hash(k), n, counts[TK_EFFECT_CHANGED],
           counts[TK_EFFECT_UNCHANGED], counts[TK_EFFECT_UNKNOWN]);
    int cols = cli_term_columns();
    for (size_t p = 0; p < tk_timeline_part_count(tl); p++) {
        const char *path = part_path(tl, p);
        /* on a terminal, one file a line, its name kept when cut */
        if (cols > 0) {
            fputs(p ? ",\n    " : "\n    ", stdout);
            cli_term_put_end(stdout, path, strlen(path), cols - 6);
        } else {
            fputs(p ? ", " : " ", stdout);
            cli_put_text(stdout, path, strlen(path));
        }
    }
    cli_printf("\n%7s  %-12s  %-13s  %s\n", "#", "level", "effect", "pass");
    for (size_t i = 0; i < n; i++) {
        const tk_timeline_entry *e = tk_timeline_get(tl, i);
        char index[32];
        if (!(changed_only && e->effect == TK_EFFECT_UNCHANGED)) {
            g_snprintf(index, sizeof index, "%zu", i);
            put_entry(c, tl, e, i, index);
        }
        for (size_t j = 0; j < e->n_substeps; j++) {
            const tk_timeline_entry *s = tk_timeline_substep(tl, i, j);
            if (changed_only && s->effect == TK_EFFECT_UNCHANGED)
                continue;
            g_snprintf(index, sizeof index, "%zu.%zu", i, j);
            put_entry(c, tl, s, j, index);
        }
    }
}

/* ---- JSON --------------------------------------------------------------- */

/* Written straight to stdout, one pass per line, kernel after kernel: a
 * 2 GB dump file has hundreds of thousands of passes, and a JSON tree of
 * them all would cost far more memory than the timelines themselves. */

static void jstr(const char *s)
{
    char *valid = g_utf8_make_valid(s, -1);
    putchar('"');
    for (const unsigned char *p = (const unsigned char *)valid; *p; p++) {
        if (*p == '"' || *p == '\\')
            cli_printf("\\%c", *p);
        else if (*p < 0x20)
            cli_printf("\\u%04x", *p);
        else
            putchar(*p);
    }
    putchar('"');
    g_free(valid);
}

static void jkey(const char *name, gboolean first)
{
    cli_printf("%s\"%s\": ", first ? "" : ", ", name);
}

static void jmember(const char *name, const char *value, gboolean first)
{
    jkey(name, first);
    jstr(value);
}

static void json_side(const tk_timeline *tl, const char *name, const tk_timeline_side *s)
{
    jkey(name, FALSE);
    putchar('{');
    jmember("kind", side_kind_name(s->kind), TRUE);
    char *d = tk_timeline_side_describe(tl, s);
    jmember("text", d, FALSE);
    g_free(d);
    putchar('}');
}

static void json_entry(const counting *c, const tk_timeline *tl, const tk_timeline_entry *e,
                       size_t index, gboolean changed_only)
{
    cli_printf("{\"index\": %zu", index);
    jmember("level", tk_pass_level_name(e->level), FALSE);
    /* The level it leaves, and whether it starts a level's run of passes
     * (tk_timeline_starts_level(): a converting pass is a step of its
     * own); a sub-step has the values of its pass. */
    size_t self = e->parent == TK_TL_NONE ? index : e->parent;
    jmember("level_after", tk_pass_level_name(tk_timeline_level_after(tl, self)), FALSE);
    cli_printf(", \"starts_level\": %s",
                  e->parent == TK_TL_NONE && tk_timeline_starts_level(tl, self) ? "true" : "false");
    jmember("pass", e->pass, FALSE);
    jmember("arg", e->arg, FALSE);
    jmember("scope", e->scope, FALSE);
    jmember("scope_kind", scope_kind_name(e->scope_kind), FALSE);
    jmember("scope_name", e->scope_name, FALSE);
    jmember("kind", kind_name(e->kind), FALSE);
    jmember("when", when_name(e->when), FALSE);
    jkey("file", FALSE);
    if (e->part == TK_TL_NONE)
        fputs("null", stdout);
    else
        jstr(part_path(tl, e->part));
    cli_printf(", \"line\": %llu", e->part == TK_TL_NONE ? 0ULL : (unsigned long long)e->header_line);
    jmember("effect", tk_effect_name(e->effect), FALSE);
    jkey("reason", FALSE);
    if (e->effect == TK_EFFECT_UNKNOWN)
        jstr(tk_unknown_why_name(e->why));
    else
        fputs("null", stdout);
    cli_printf(", \"added\": %u, \"removed\": %u", e->added, e->removed);
    long changes = change_count(c, tl, e, index);
    if (changes >= 0)
        cli_printf(", \"changes\": %ld", changes);
    else
        fputs(", \"changes\": null", stdout);
    fputs(", \"flags\": [", stdout);
    static const struct {
        unsigned bit;
        const char *name;
    } flags[] = {{TK_TL_TO_FINAL, "to-final"},     {TK_TL_SPANS_LOOPS, "spans-loops"},
                 {TK_TL_PLACEHOLDER, "placeholder"}, {TK_TL_DAMAGED, "damaged"},
                 {TK_TL_MERGED, "merged"}, {TK_TL_ALIASES_WRITTEN_OUT, "aliases-written-out"}};
    gboolean first = TRUE;
    for (size_t f = 0; f < G_N_ELEMENTS(flags); f++)
        if (e->flags & flags[f].bit) {
            cli_printf("%s\"%s\"", first ? "" : ", ", flags[f].name);
            first = FALSE;
        }
    putchar(']');
    jkey("note", FALSE);
    if (tk_timeline_entry_note(e))
        jstr(tk_timeline_entry_note(e));
    else
        fputs("null", stdout);
    json_side(tl, "before", &e->before);
    json_side(tl, "after", &e->after);
    if (e->parent == TK_TL_NONE) {
        fputs(", \"substeps\": [", stdout);
        first = TRUE;
        for (size_t s = 0; s < e->n_substeps; s++) {
            const tk_timeline_entry *sub = tk_timeline_substep(tl, index, s);
            if (changed_only && sub->effect == TK_EFFECT_UNCHANGED)
                continue;
            fputs(first ? "\n     " : ",\n     ", stdout);
            json_entry(c, tl, sub, s, changed_only);
            first = FALSE;
        }
        putchar(']');
    }
    putchar('}');
}

static void json_timeline(const counting *c, const tk_timeline *tl, const tk_kernel *k,
                          gboolean changed_only, gboolean first_kernel)
{
    fputs(first_kernel ? "\n " : ",\n ", stdout);
    putchar('{');
    jmember("name", tk_kernel_name(k), TRUE);
    jmember("hash", tk_kernel_hash(k), FALSE);
    jkey("files", FALSE);
    putchar('[');
    for (size_t p = 0; p < tk_timeline_part_count(tl); p++) {
        fputs(p ? ", " : "", stdout);
        jstr(part_path(tl, p));
    }
    putchar(']');
    size_t n = tk_timeline_count(tl), counts[3] = {0};
    for (size_t i = 0; i < n; i++)
        counts[tk_timeline_get(tl, i)->effect]++;
    cli_printf(", \"summary\": {\"passes\": %zu, \"changed\": %zu, \"unchanged\": %zu, "
           "\"unknown\": %zu}, \"passes\": [",
           n, counts[TK_EFFECT_CHANGED], counts[TK_EFFECT_UNCHANGED],
           counts[TK_EFFECT_UNKNOWN]);
    gboolean first = TRUE;
    for (size_t i = 0; i < n; i++) {
        const tk_timeline_entry *e = tk_timeline_get(tl, i);
        if (changed_only && e->effect == TK_EFFECT_UNCHANGED && !sub_not_unchanged(tl, i))
            continue;
        fputs(first ? "\n  " : ",\n  ", stdout);
        json_entry(c, tl, e, i, changed_only);
        first = FALSE;
    }
    fputs("]}", stdout);
}

/* ---- the command --------------------------------------------------------- */

static int parse_algorithm(const char *name, tk_diff_algorithm *alg)
{
    if (!name || strcmp(name, "histogram") == 0)
        *alg = TK_DIFF_HISTOGRAM;
    else if (strcmp(name, "myers") == 0)
        *alg = TK_DIFF_MYERS;
    else
        return -1;
    return 0;
}

int cmd_passes(int argc, char **argv)
{
    passes_args a = {0};
    GOptionEntry entries[] = {
        CLI_KERNEL_OPTION(&a.kernel, "Kernel", " (default: every kernel)"),
        {"changed-only", 0, 0, G_OPTION_ARG_NONE, &a.changed_only,
         "Leave out the passes that changed nothing", NULL},
        {"changes", 0, 0, G_OPTION_ARG_NONE, &a.changes,
         "Count each changed pass's changes, as `tkview diff --pass` groups them", NULL},
        {"algorithm", 0, 0, G_OPTION_ARG_STRING, &a.algorithm,
         "Diff algorithm: histogram (default) or myers", "A"},
        G_OPTION_ENTRY_NULL,
    };
    GOptionContext *ctx = cli_options(
        "PATH - each kernel's compiler passes, in order, and what each changed",
        NULL, entries, &a.common);
    GError *err = NULL;
    int rc;
    tk_timeline_opts opts = {{0}, 0};
    if (!g_option_context_parse(ctx, &argc, &argv, &err) || argc != 2) {
        rc = cli_usage(&err, "usage: tkview passes PATH [--kernel K] "
                             "[--changed-only] [--changes] [--json]");
        goto out;
    }
    if (parse_algorithm(a.algorithm, &opts.diff.algorithm) != 0) {
        cli_error("--algorithm %s: histogram or myers", a.algorithm);
        rc = CLI_EXIT_USAGE;
        goto out;
    }
    tk_bundle *b = NULL;
    const tk_kernel *one = NULL;
    if ((rc = cli_open(argv[1], &a.common, a.kernel, FALSE, &b, &one)) != CLI_EXIT_OK)
        goto out;
    counting count = {a.changes ? &opts.diff : NULL, a.common.quiet};
    tk_diags *diags = tk_diags_new();
    if (a.common.json)
        fputs("{\"kernels\": [", stdout);
    size_t shown = 0;
    for (size_t i = 0; i < tk_bundle_kernel_count(b); i++) {
        const tk_kernel *k = tk_bundle_kernel(b, i);
        if (one && k != one)
            continue;
        tk_timeline *tl = tk_timeline_of_kernel(b, k, &opts, diags);
        cli_print_diags(diags, a.common.quiet);
        tk_diags_free(diags);
        diags = tk_diags_new();
        if (!tl) {
            if (one)
                cli_error("no pass dumps of %s %.12s were found with %s",
                             tk_kernel_name(k), tk_kernel_hash(k), argv[1]);
            continue;
        }
        if (a.common.json) {
            json_timeline(&count, tl, k, a.changed_only, shown == 0);
        } else {
            if (shown)
                putchar('\n');
            put_text(&count, tl, k, a.changed_only);
        }
        shown++;
        tk_timeline_free(tl);
    }
    tk_diags_free(diags);
    if (a.common.json) {
        fputs(shown ? "\n]}\n" : "]}\n", stdout);
    } else if (!shown && !one && tk_bundle_passes_not_asked(b)) {
        cli_error("no pass dumps were found with %s: %s", argv[1],
                  tk_bundle_passes_not_asked(b));
    } else if (!shown && !one) {
        cli_error("no pass dumps were found with %s (MLIR_ENABLE_DUMP / "
                     "LLVM_IR_ENABLE_DUMP output: see docs/passes.md)", argv[1]);
    }
    rc = shown ? CLI_EXIT_OK : CLI_EXIT_NOTHING;
    tk_bundle_free(b);
out:
    g_free(a.kernel);
    g_free(a.algorithm);
    g_strfreev(a.common.source_dirs);
    g_option_context_free(ctx);
    return rc;
}
