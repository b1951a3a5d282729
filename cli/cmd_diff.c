/* cmd_diff.c - `tkview diff`: what passes changed (PATH --kernel K --pass N
 * [--to M]), and a kernel's final stage in two bundles or two configurations
 * (PATH_A [PATH_B] --kernel K [--kernel-b K2] --stage S), as a unified diff
 * of the original text (normalization only decides which lines match;
 * printed by cmd_diff_print.c). */
#include "cmd_diff.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tkdump/tk_bundle_load.h"
#include "tkdump/tk_passref.h"
#include "tkdump/tk_timeline.h"

/* ---- --pass N [--to M] ------------------------------------------------------ */

/* Reads SPEC, what --pass or --to gave, by the library's grammar
 * (tk_passref.h: "14", "33.1", "14-17", a pass name or argument) into
 * *REF, and says what is wrong with it.  Returns an exit code. */
static int find_pass(const tk_timeline *tl, const char *spec, tk_passref *ref)
{
    size_t n = tk_timeline_count(tl);
    switch (tk_passref_parse(tl, spec, ref)) {
    case TK_PASSREF_OK:
        return CLI_EXIT_OK;
    case TK_PASSREF_SYNTAX:
    case TK_PASSREF_NOT_A_PASS:
        cli_error("--pass %s: a pass number (tkview passes lists them), "
                     "NUMBER.SUB for a sub-step, N-M for passes N to M, or a pass name",
                     spec);
        return CLI_EXIT_USAGE;
    case TK_PASSREF_NO_PASS:
        cli_error("--pass %s: %s has %zu passes (0 to %zu)", spec,
                     tk_timeline_kernel_name(tl), n, n ? n - 1 : 0);
        return CLI_EXIT_USAGE;
    case TK_PASSREF_NO_SUBSTEP:
        cli_error("--pass %s: pass %zu has %zu sub-steps", spec, ref->from,
                     tk_timeline_get(tl, ref->from)->n_substeps);
        return CLI_EXIT_USAGE;
    case TK_PASSREF_BACKWARDS:
        cli_error("--pass %s: pass %zu comes before pass %zu", spec, ref->to, ref->from);
        return CLI_EXIT_USAGE;
    case TK_PASSREF_NO_NAME:
        cli_error("--pass %s: no pass of %s has that name (tkview passes lists them)",
                     spec, tk_timeline_kernel_name(tl));
        return CLI_EXIT_NOTHING;
    case TK_PASSREF_AMBIGUOUS:
        break;
    }
    size_t found = 0;
    for (size_t i = 0; i < n; i++) {
        const tk_timeline_entry *e = tk_timeline_get(tl, i);
        found += strcmp(e->pass, spec) == 0 || strcmp(e->arg, spec) == 0;
    }
    cli_error("--pass %s: %zu passes have that name; give its number:", spec, found);
    for (size_t i = 0; i < n; i++) {
        const tk_timeline_entry *e = tk_timeline_get(tl, i);
        if (strcmp(e->pass, spec) == 0 || strcmp(e->arg, spec) == 0)
            cli_fprintf(stderr, "  %zu  %s  line %llu\n", i,
                    tk_pass_level_name(e->level), (unsigned long long)e->header_line);
    }
    return CLI_EXIT_USAGE;
}

/* MLIR, LLVM IR or machine code: what can be compared with what. */
static int family(const tk_timeline_entry *e)
{
    switch (e->kind) {
    case TK_PASS_MLIR:
    case TK_PASS_MLIR_INTERNAL:
        return 0;
    case TK_PASS_LLVM_MACHINE:
        return 2;
    default:
        return 1;
    }
}

typedef struct {
    size_t from, to, sub;
    const tk_timeline_entry *first, *last;
} pass_range;

static void json_range(JsonBuilder *j, void *user)
{
    const pass_range *r = user;
    json_builder_set_member_name(j, "from");
    json_builder_begin_object(j);
    json_builder_set_member_name(j, "index");
    json_builder_add_int_value(j, (gint64)r->from);
    if (r->sub != TK_TL_NONE) {
        json_builder_set_member_name(j, "substep");
        json_builder_add_int_value(j, (gint64)r->sub);
    }
    json_builder_set_member_name(j, "pass");
    cli_json_string(j, r->first->pass, strlen(r->first->pass));
    json_builder_set_member_name(j, "arg");
    cli_json_string(j, r->first->arg, strlen(r->first->arg));
    json_builder_end_object(j);
    json_builder_set_member_name(j, "to");
    json_builder_begin_object(j);
    json_builder_set_member_name(j, "index");
    json_builder_add_int_value(j, (gint64)r->to);
    json_builder_set_member_name(j, "pass");
    cli_json_string(j, r->last->pass, strlen(r->last->pass));
    json_builder_set_member_name(j, "arg");
    cli_json_string(j, r->last->arg, strlen(r->last->arg));
    json_builder_end_object(j);
}

/* A pass with nothing comparable before it (tk_timeline_diff_shown()):
 * the sentence every front end shows, then its IR after it, numbered. */
static void print_after_only(const tk_kernel *k, const tk_timeline_entry *e, size_t i,
                             const tk_ir_diff *d)
{
    cli_printf("%s: %s (pass %zu): %s\n", tk_kernel_name(k), e->pass, i,
               tk_unknown_why_sentence(e->why));
    cli_printf("Its IR after it, %s:\n", tk_ir_diff_name(d, TK_IR_B));
    int cols = cli_term_columns();
    for (uint32_t n = tk_ir_diff_kept_count(d, TK_IR_B), j = 0; j < n; j++) {
        size_t len;
        uint32_t line;
        const char *t = tk_ir_diff_kept_line(d, TK_IR_B, j, &len, &line);
        if (!t)
            break;
        printf("%6u  ", line);
        cli_term_put(stdout, t, len, cols > 8 ? cols - 8 : cols);
        putchar('\n');
    }
}

static int diff_passes(tk_bundle *b, const cmd_diff_args *a, gboolean color,
                       const tk_diff_opts *dopts)
{
    const tk_kernel *k = cli_pick_kernel(b, a->kernel);
    if (!k)
        return CLI_EXIT_USAGE;
    tk_diags *diags = tk_diags_new();
    /* Only the passes asked for are diffed: plan the timeline, measure
     * nothing. */
    tk_timeline_opts topts = {*dopts, TK_TIMELINE_NO_MEASURE};
    tk_timeline *tl = tk_timeline_of_kernel(b, k, &topts, diags);
    cli_print_diags(diags, a->common.quiet);
    tk_diags_free(diags);
    if (!tl) {
        cli_error("no pass dumps of %s %.12s were found with %s", tk_kernel_name(k),
                     tk_kernel_hash(k), tk_bundle_path(b));
        return CLI_EXIT_NOTHING;
    }
    pass_range r = {0, 0, TK_TL_NONE, NULL, NULL};
    tk_passref ref;
    int rc = find_pass(tl, a->pass, &ref);
    if (rc == CLI_EXIT_OK && a->to) {
        /* --to M is N-M (tk_passref_extend()) */
        tk_passref to;
        if (ref.sub != TK_TL_NONE) {
            cli_error("--to: diff a sub-step alone (--pass N.S)");
            rc = CLI_EXIT_USAGE;
        } else if (ref.to != ref.from) {
            cli_error("--to: --pass %s is passes %zu to %zu already", a->pass, ref.from,
                         ref.to);
            rc = CLI_EXIT_USAGE;
        } else if ((rc = find_pass(tl, a->to, &to)) == CLI_EXIT_OK) {
            if (tk_passref_extend(tl, &ref, a->to) == TK_PASSREF_NOT_A_PASS) {
                cli_error("--to %s: a pass, not a sub-step", a->to);
                rc = CLI_EXIT_USAGE;
            } else if (ref.to < ref.from) {
                cli_error("--to %zu comes before --pass %zu", ref.to, ref.from);
                rc = CLI_EXIT_USAGE;
            }
        }
    }
    r.from = ref.from;
    r.sub = ref.sub;
    r.to = ref.to;
    if (rc == CLI_EXIT_OK && r.sub == TK_TL_NONE &&
        family(tk_timeline_get(tl, r.from)) != family(tk_timeline_get(tl, r.to))) {
        cli_error("pass %zu (%s) and pass %zu (%s) are not the same kind of IR "
                     "(MLIR, LLVM IR, machine code)", r.from,
                     tk_pass_level_name(tk_timeline_get(tl, r.from)->level), r.to,
                     tk_pass_level_name(tk_timeline_get(tl, r.to)->level));
        rc = CLI_EXIT_USAGE;
    }
    if (rc != CLI_EXIT_OK) {
        tk_timeline_free(tl);
        return rc;
    }
    diags = tk_diags_new();
    tk_ir_diff *d;
    int after_only = 0;
    if (r.sub != TK_TL_NONE) {
        r.first = r.last = tk_timeline_substep(tl, r.from, r.sub);
        d = tk_timeline_diff_substep(tl, r.from, r.sub, dopts, diags);
    } else {
        r.first = tk_timeline_get(tl, r.from);
        r.last = tk_timeline_get(tl, r.to);
        d = tk_timeline_diff_shown(tl, r.from, r.to, dopts, &after_only, diags);
    }
    cli_print_diags(diags, FALSE);
    tk_diags_free(diags);
    if (!d) {
        tk_timeline_free(tl);
        return CLI_EXIT_NOTHING;
    }
    if (after_only) {
        /* JSON has no form for "one side, effect unknown": its reader gets
         * the sentence and exit status 1, as before */
        if (a->common.json)
            cli_error("%s: %s: %s", tk_kernel_name(k), r.first->pass,
                      tk_unknown_why_sentence(r.first->why));
        else
            print_after_only(k, r.first, r.from, d);
        tk_ir_diff_free(d);
        tk_timeline_free(tl);
        return a->common.json ? CLI_EXIT_NOTHING : CLI_EXIT_OK;
    }
    tk_diags *bd = tk_diags_new();
    if (a->common.json || a->stacks)
        tk_ir_diff_bind(d, tk_bundle_loctab(b), bd);
    tk_diags_free(bd);
    char *which = r.sub != TK_TL_NONE
                      ? g_strdup_printf("%s %s (pass %zu.%zu)", r.first->pass, r.first->arg,
                                        r.from, r.sub)
                      : g_strdup_printf("%s (pass %zu)", r.first->pass, r.from);
    char *which_to = r.to != r.from ? g_strdup_printf("%s (pass %zu)", r.last->pass, r.to)
                                    : g_strdup(which);
    char *la = g_strdup_printf("%s: %s, IR before %s", tk_kernel_name(k),
                               tk_ir_diff_name(d, TK_IR_A), which);
    char *lb = g_strdup_printf("%s: %s, IR after %s", tk_kernel_name(k),
                               tk_ir_diff_name(d, TK_IR_B), which_to);
    char *title = r.to != r.from ? g_strdup_printf("%s .. %s", r.first->pass, r.last->pass)
                  : r.sub != TK_TL_NONE ? g_strdup_printf("%s %s", r.first->pass, r.first->arg)
                                        : g_strdup(r.first->pass);
    rc = cmd_diff_print(a, d, tk_bundle_loctab(b), tk_bundle_loctab(b), la, lb, title, k, NULL,
                        color, json_range, &r);
    g_free(which);
    g_free(which_to);
    g_free(la);
    g_free(lb);
    g_free(title);
    tk_ir_diff_free(d);
    tk_timeline_free(tl);
    return rc;
}

/* ---- --stage S across bundles or configurations ------------------------------ */

static void json_stage(JsonBuilder *j, void *user)
{
    json_builder_set_member_name(j, "stage");
    json_builder_add_string_value(j, tk_stage_kind_name(*(tk_stage_kind *)user));
}

static int diff_stages(tk_bundle *ba, tk_bundle *bb, const cmd_diff_args *a,
                       gboolean color, const tk_diff_opts *dopts)
{
    tk_stage_kind kind = tk_stage_kind_parse(a->stage);
    if (kind == TK_STAGE_UNKNOWN) {
        cli_error("--stage %s: not a stage (%s)", a->stage, cli_stage_names());
        return CLI_EXIT_USAGE;
    }
    const tk_kernel *ka = cli_pick_kernel(ba, a->kernel);
    if (!ka)
        return CLI_EXIT_USAGE;
    const tk_kernel *kb;
    if (a->kernel_b) {
        kb = cli_pick_kernel(bb, a->kernel_b);
    } else {
        /* The kernel of the same name in the other bundle. */
        size_t matches = 0;
        /* "name:" names that name exactly, never a prefix of another. */
        char *exact = g_strdup_printf("%s:", tk_kernel_name(ka));
        kb = tk_bundle_find_kernel(bb, exact, &matches);
        g_free(exact);
        if (!kb && matches > 1)
            cli_error("%s has %zu kernels named %s; choose one with --kernel-b",
                         tk_bundle_path(bb), matches, tk_kernel_name(ka));
        else if (!kb)
            cli_error("%s has no kernel named %s; name it with --kernel-b",
                         tk_bundle_path(bb), tk_kernel_name(ka));
    }
    if (!kb)
        return CLI_EXIT_USAGE;
    const tk_stage *sa = tk_kernel_stage(ka, kind), *sb = tk_kernel_stage(kb, kind);
    if (!sa || !sb) {
        const tk_kernel *missing = sa ? kb : ka;
        cli_error("%s %.12s has no %s stage", tk_kernel_name(missing),
                     tk_kernel_hash(missing), tk_stage_kind_name(kind));
        return CLI_EXIT_NOTHING;
    }
    tk_ir_dialect dialect = tk_stage_kind_dialect(kind);
    if (a->raw_registers && (kind == TK_STAGE_PTX || kind == TK_STAGE_SASS))
        dialect = TK_IR_PLAIN;
    tk_ir_diff *d = tk_ir_diff_stages_as(sa, sb, dialect, dopts);
    if (!d) {
        cli_error("%s and %s cannot be compared", tk_stage_path(sa), tk_stage_path(sb));
        return CLI_EXIT_INPUT;
    }
    char *la = g_strdup_printf("%s %.12s: %s", tk_kernel_name(ka), tk_kernel_hash(ka),
                               tk_stage_path(sa));
    char *lb = g_strdup_printf("%s %.12s: %s", tk_kernel_name(kb), tk_kernel_hash(kb),
                               tk_stage_path(sb));
    /* Each stage's stacks live in its own bundle's table. */
    int rc = cmd_diff_print(a, d, tk_bundle_loctab(ba), tk_bundle_loctab(bb), la, lb,
                            tk_stage_kind_name(kind), ka, kb, color, json_stage, &kind);
    g_free(la);
    g_free(lb);
    tk_ir_diff_free(d);
    return rc;
}

/* ---- the command --------------------------------------------------------- */

static int want_color(const char *when, gboolean *color)
{
    if (!when || strcmp(when, "auto") == 0) {
        const char *no = getenv("NO_COLOR");
        *color = isatty(fileno(stdout)) && !(no && no[0]);
    } else if (strcmp(when, "always") == 0) {
        *color = TRUE;
    } else if (strcmp(when, "never") == 0) {
        *color = FALSE;
    } else {
        return -1;
    }
    return 0;
}

int cmd_diff(int argc, char **argv)
{
    cmd_diff_args a = {0};
    a.context = (int)TK_DIFF_CONTEXT;
    char *stage_help = g_strdup_printf("Compare final stage S (%s) of two kernels",
                                       cli_stage_names());
    char *context_help =
        g_strdup_printf("Lines of context around each change (default %u)", TK_DIFF_CONTEXT);
    GOptionEntry entries[] = {
        CLI_KERNEL_OPTION(&a.kernel, "Kernel", ""),
        {"pass", 'p', 0, G_OPTION_ARG_STRING, &a.pass,
         "The pass whose effect to show: its number in tkview passes, N.S for "
         "a sub-step, N-M for passes N to M, or its name (docs/passes.md)", "N"},
        {"to", 0, 0, G_OPTION_ARG_STRING, &a.to,
         "Show the IR before --pass against the IR after this pass", "M"},
        {"stage", 0, 0, G_OPTION_ARG_STRING, &a.stage,
         stage_help, "S"},
        {"kernel-b", 0, 0, G_OPTION_ARG_STRING, &a.kernel_b,
         "The other kernel (default: the kernel of the same name in PATH_B)", "K2"},
        {"context", 'U', 0, G_OPTION_ARG_INT, &a.context,
         context_help, "C"},
        {"algorithm", 0, 0, G_OPTION_ARG_STRING, &a.algorithm,
         "histogram (default) or myers", "A"},
        {"color", 0, 0, G_OPTION_ARG_STRING, &a.color,
         "always, never or auto (default: on a terminal, unless NO_COLOR is set)",
         "WHEN"},
        {"stacks", 0, 0, G_OPTION_ARG_NONE, &a.stacks,
         "Follow each changed line with its inline stack (a line starting with #)",
         NULL},
        {"raw-registers", 0, 0, G_OPTION_ARG_NONE, &a.raw_registers,
         "With --stage ptx or sass: compare registers as they are numbered "
         "(default: renamed by first use, so renumbering is no change)",
         NULL},
        G_OPTION_ENTRY_NULL,
    };
    GOptionContext *ctx = cli_options(
        "PATH --pass N [--to M] | PATH_A [PATH_B] --stage S - what passes changed, "
        "or a stage of two kernels",
        NULL, entries, &a.common);
    GError *err = NULL;
    int rc = CLI_EXIT_USAGE;
    gboolean color = FALSE;
    tk_diff_opts dopts = {0};
    if (!g_option_context_parse(ctx, &argc, &argv, &err)) {
        cli_error("%s", err->message);
        g_clear_error(&err);
        goto out;
    }
    if ((a.pass && (a.stage || a.kernel_b || argc != 2)) ||
        (!a.pass && (!a.stage || argc < 2 || argc > 3 || (argc == 2 && !a.kernel_b))) ||
        (a.to && !a.pass)) {
        cli_error("usage: tkview diff PATH --kernel K --pass N [--to M] | "
                     "tkview diff PATH_A [PATH_B] --kernel K [--kernel-b K2] --stage S "
                     "(one PATH needs --kernel-b)");
        goto out;
    }
    if (a.context < 0) {
        cli_error("--context %d: not a number of lines", a.context);
        goto out;
    }
    if (a.algorithm && strcmp(a.algorithm, "histogram") != 0 &&
        strcmp(a.algorithm, "myers") != 0) {
        cli_error("--algorithm %s: histogram or myers", a.algorithm);
        goto out;
    }
    dopts.algorithm = a.algorithm && strcmp(a.algorithm, "myers") == 0 ? TK_DIFF_MYERS
                                                                       : TK_DIFF_HISTOGRAM;
    if (want_color(a.color, &color) != 0) {
        cli_error("--color %s: always, never or auto", a.color);
        goto out;
    }
    tk_bundle *ba = cli_load(argv[1], &a.common);
    if (!ba) {
        rc = CLI_EXIT_INPUT;
        goto out;
    }
    if (a.pass) {
        rc = diff_passes(ba, &a, color, &dopts);
    } else {
        tk_bundle *bb = argc == 3 ? cli_load(argv[2], &a.common) : ba;
        if (!bb)
            rc = CLI_EXIT_INPUT;
        else
            rc = diff_stages(ba, bb, &a, color, &dopts);
        if (bb && bb != ba)
            tk_bundle_free(bb);
    }
    tk_bundle_free(ba);
out:
    g_free(stage_help);
    g_free(context_help);
    g_free(a.kernel);
    g_free(a.kernel_b);
    g_free(a.pass);
    g_free(a.to);
    g_free(a.stage);
    g_free(a.algorithm);
    g_free(a.color);
    g_strfreev(a.common.source_dirs);
    g_option_context_free(ctx);
    return rc;
}
