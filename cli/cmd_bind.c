/* cmd_bind.c - `tkview bind PATH --source FILE:LINE | --ir STAGE:LINE`. */
#include "cmd_bind.h"
#include "tkdump/tk_bundle_load.h"

#include <stdlib.h>
#include <string.h>


int cmd_bind_put_line(const tk_stage *st, uint32_t line, int cols)
{
    tk_display_line d;
    if (cols > 0 && tk_stage_line_display(st, line, &d)) {
        /* on a terminal, SASS as the panes show it: address, instruction */
        GString *g = g_string_new_len(d.head, (gssize)d.head_len);
        g_string_append(g, "  ");
        g_string_append_len(g, d.body, (gssize)d.body_len);
        int w = cli_term_put(stdout, g->str, g->len, cols);
        g_string_free(g, TRUE);
        return w;
    }
    size_t len;
    const char *s = tk_stage_line(st, line, &len);
    while (len && (*s == ' ' || *s == '\t')) {
        s++;
        len--;
    }
    return cli_term_put(stdout, s, len, cols);
}

/* Columns left of the terminal's after USED (0: no limit); never fewer
 * than 20, so a cut line still shows what the instruction is. */
static int cols_left(int used)
{
    int cols = cli_term_columns();
    if (cols <= 0)
        return 0;
    return cols - used > 20 ? cols - used : 20;
}

char *cmd_bind_stacks_string(const tk_bind *ix, const tk_loctab *tab,
                             tk_stage_kind k, uint32_t line)
{
    const tk_stack_id *ids;
    size_t n = tk_bind_line_stacks(ix, k, line, &ids);
    GString *g = g_string_new(NULL);
    for (size_t i = 0; i < n; i++) {
        char *s = cli_stack_string(tab, ids[i]);
        g_string_append_printf(g, "%s%s", i ? " | " : "", s);
        g_free(s);
    }
    if (n && tk_bind_stack_inferred(ix, k, line))
        g_string_append_printf(g, "  (callers from %s)",
                               tk_stage_kind_label(tk_bind_inferred_from(ix, k)));
    return g_string_free(g, FALSE);
}

void cmd_bind_put_stacks(const tk_bind *ix, const tk_loctab *tab,
                            tk_stage_kind k, uint32_t line, int used)
{
    char *s = cmd_bind_stacks_string(ix, tab, k, line);
    cli_term_put(stdout, s, strlen(s), cols_left(used));
    g_free(s);
}

/* An IR line as JSON (docs/cli-json.md): its text, stacks, kind, and
 * "directive": true when it is not an instruction (a located .loc, //##,
 * region end...); APPROX adds "approximate": true (a match on the innermost
 * frame only, tk_bind_match_approximate()). */
void cmd_bind_json_line_flags(JsonBuilder *j, const tk_bind *ix, const tk_loctab *tab,
                            const tk_stage *st, tk_stage_kind k, uint32_t line,
                            gboolean approx)
{
    size_t len;
    const char *text = tk_stage_line(st, line, &len);
    json_builder_begin_object(j);
    json_builder_set_member_name(j, "line");
    json_builder_add_int_value(j, line);
    json_builder_set_member_name(j, "text");
    cli_json_string(j, text, len);
    json_builder_set_member_name(j, "stacks");
    json_builder_begin_array(j);
    const tk_stack_id *ids;
    size_t n = tk_bind_line_stacks(ix, k, line, &ids);
    for (size_t i = 0; i < n; i++)
        cli_json_stack(j, tab, ids[i]);
    json_builder_end_array(j);
    json_builder_set_member_name(j, "stacks_inferred");
    json_builder_add_boolean_value(j, tk_bind_stack_inferred(ix, k, line));
    tk_line_kind kind = tk_stage_line_kind(st, line);
    json_builder_set_member_name(j, "kind");
    json_builder_add_string_value(j, tk_line_kind_name(kind));
    if (kind != TK_LINE_INSTRUCTION) {
        json_builder_set_member_name(j, "directive");
        json_builder_add_boolean_value(j, TRUE);
    }
    if (approx) {
        json_builder_set_member_name(j, "approximate");
        json_builder_add_boolean_value(j, TRUE);
    }
    json_builder_end_object(j);
}

void cmd_bind_json_line(JsonBuilder *j, const tk_bind *ix, const tk_loctab *tab,
                      const tk_stage *st, tk_stage_kind k, uint32_t line)
{
    cmd_bind_json_line_flags(j, ix, tab, st, k, line, FALSE);
}

/* "    123  TEXT": the number, a mark for what is not an instruction, the
 * text. */
void cmd_bind_put_numbered_line(const tk_stage *st, uint32_t line, const char *extra,
                                int reserve)
{
    tk_line_kind kind = tk_stage_line_kind(st, line);
    cli_printf("    %6u  ", line);
    int used = 12 + reserve;
    if (kind != TK_LINE_INSTRUCTION) {
        cli_printf("[%s] ", tk_line_kind_name(kind));
        used += (int)strlen(tk_line_kind_name(kind)) + 3;
    }
    cmd_bind_put_line(st, line, cols_left(used));
    if (extra)
        fputs(extra, stdout);
}

/* "ptx: 12 instructions (+ 3 other lines: .loc, comments)" */
void cmd_bind_put_stage_count(const tk_stage *st, tk_stage_kind s, const uint32_t *lines,
                            size_t n)
{
    size_t ni = tk_stage_count_instructions(st, lines, n);
    char *other = n > ni ? g_strdup_printf(" (+ %zu located line%s that %s not code)", n - ni,
                                           n - ni == 1 ? "" : "s", n - ni == 1 ? "is" : "are")
                         : g_strdup("");
    cli_term_line("  %s: %zu instruction%s%s", tk_stage_kind_name(s), ni, ni == 1 ? "" : "s",
                  other);
    g_free(other);
}

size_t cmd_bind_lines_shown(const cmd_bind_args *a, size_t n)
{
    int limit = a->lines >= 0 ? a->lines : (cli_term_columns() > 0 ? CMD_BIND_TERM_LINES : 0);
    return limit > 0 && (size_t)limit < n ? (size_t)limit : n;
}

void cmd_bind_put_more(tk_stage_kind s, size_t more)
{
    if (more)
        cli_term_line("    (%zu more %s line%s: --lines 0 shows all)",
                      more, tk_stage_kind_name(s), more == 1 ? "" : "s");
}

void cmd_bind_json_kernel_id(JsonBuilder *j, const tk_kernel *k)
{
    json_builder_set_member_name(j, "name");
    cli_json_string(j, tk_kernel_name(k), strlen(tk_kernel_name(k)));
    json_builder_set_member_name(j, "hash");
    cli_json_string(j, tk_kernel_hash(k), strlen(tk_kernel_hash(k)));
}

/* ---- --ir STAGE:LINE -------------------------------------------------- */

/* Whether line LINE of FROM can cost anything (tk_cost.h): only a line
 * bound to a SASS instruction of the kernel does, by the rule cost/'s IR
 * tables follow (ir_lines.c: an instruction line, with a stack unless the
 * capture is USE_IR_LOC, whose SASS lines hold an instruction).  FALSE
 * means no cost and no live registers to show, so none is made. */
static gboolean line_may_cost(const tk_bind *ix, const tk_kernel *k, tk_stage_kind from,
                              uint32_t line)
{
    const tk_stage *sass = tk_kernel_stage(k, TK_STAGE_SASS);
    if (!sass)
        return FALSE;
    tk_sass_insn in;
    size_t len;
    const char *s;
    if (from == TK_STAGE_SASS) {
        s = tk_stage_line(sass, line, &len);
        return s && tk_sass_insn_parse(s, len, &in);
    }
    if (tk_stage_line_kind(tk_kernel_stage(k, from), line) != TK_LINE_INSTRUCTION)
        return FALSE;
    const tk_stack_id *ids;
    if (!tk_bind_line_stacks(ix, from, line, &ids) &&
        tk_bind_irloc_stage(ix) == TK_STAGE_UNKNOWN)
        return FALSE;
    uint32_t *lines = NULL;
    size_t n = tk_bind_stage_to_stage(ix, from, line, TK_STAGE_SASS, &lines);
    gboolean any = FALSE;
    for (size_t i = 0; i < n && !any; i++) {
        s = tk_stage_line(sass, lines[i], &len);
        any = s && tk_sass_insn_parse(s, len, &in);
    }
    free(lines);
    return any;
}

static int bind_ir(tk_bundle *b, const cmd_bind_args *a, tk_stage_kind only)
{
    char *stage_name;
    uint32_t line;
    if (!cli_split_line_spec(a->ir, &stage_name, &line)) {
        cli_error("--ir wants STAGE:LINE (e.g. ttgir:33), got \"%s\"", a->ir);
        return CLI_EXIT_USAGE;
    }
    tk_stage_kind from = tk_stage_kind_parse(stage_name);
    g_free(stage_name);
    if (from == TK_STAGE_UNKNOWN) {
        cli_error("--ir: unknown stage in \"%s\" (%s)", a->ir, cli_stage_names());
        return CLI_EXIT_USAGE;
    }
    const tk_kernel *k = cli_pick_kernel(b, a->kernel);
    if (!k)
        return CLI_EXIT_USAGE;
    const tk_stage *st = tk_kernel_stage(k, from);
    if (!st) {
        cli_error("kernel %s has no %s stage", tk_kernel_name(k), tk_stage_kind_name(from));
        return CLI_EXIT_NOTHING;
    }
    if (line > tk_stage_line_count(st)) {
        cli_error("%s has %u lines; line %u is past its end", tk_stage_path(st),
                     tk_stage_line_count(st), line);
        return CLI_EXIT_USAGE;
    }
    tk_loctab *tab = tk_bundle_loctab(b);
    tk_bind *ix = tk_bind_new(k, tab);
    /* One cost for the line's registers and its cost (the profile's
     * metrics do not move live_registers' values), made only for a line
     * that can have either: the kernel's cost tables, its profile and its
     * register life ranges were most of bind's time. */
    tk_profile *prof = NULL;
    tk_cost *cost = NULL;
    if (line_may_cost(ix, k, from, line)) {
        cli_life_ranges(b, a->common.quiet);
        cost = cli_cost(k, ix, tab, TRUE, &prof);
    }
    const tk_stack_id *ids;
    size_t n_stacks = tk_bind_line_stacks(ix, from, line, &ids);
    size_t total = n_stacks;
    JsonBuilder *j = NULL;
    if (a->common.json) {
        j = json_builder_new();
        json_builder_begin_object(j);
        json_builder_set_member_name(j, "kernel");
        json_builder_begin_object(j);
        cmd_bind_json_kernel_id(j, k);
        json_builder_end_object(j);
        json_builder_set_member_name(j, "stage");
        json_builder_add_string_value(j, tk_stage_kind_name(from));
        json_builder_set_member_name(j, "query");
        cmd_bind_json_line(j, ix, tab, st, from, line);
        cli_regs_ir_json(j, cost, from, line);
        cli_cost_ir_json(j, cost, tab, from, line);
        json_builder_set_member_name(j, "stages");
        json_builder_begin_object(j);
    } else {
        cli_printf("%s %.12s  %s:%u  ", tk_kernel_name(k), tk_kernel_hash(k),
               tk_stage_kind_name(from), line);
        cmd_bind_put_line(st, line, cols_left(40));
        cli_printf("\n  stack: ");
        if (n_stacks)
            cmd_bind_put_stacks(ix, tab, from, line, 9);
        else
            fputs("(no location)", stdout);
        putchar('\n');
        cli_regs_ir_text(cost, from, line);
        cli_cost_ir_text(cost, tab, from, line);
    }
    for (tk_stage_kind to = 0; to < TK_STAGE_COUNT; to++) {
        if (to == from || !cli_stage_listed(k, to, only))
            continue;
        const tk_stage *ts = tk_kernel_stage(k, to);
        uint32_t *lines = NULL;
        size_t n = tk_bind_stage_to_stage(ix, from, line, to, &lines);
        total += n;
        if (j) {
            json_builder_set_member_name(j, tk_stage_kind_name(to));
            if (!ts) {
                json_builder_add_null_value(j);
            } else {
                json_builder_begin_array(j);
                for (size_t l = 0; l < n; l++)
                    cmd_bind_json_line_flags(j, ix, tab, ts, to, lines[l],
                                    tk_bind_match_approximate(ix, from, line, to, lines[l]));
                json_builder_end_array(j);
            }
        } else if (!ts) {
            cli_printf("  %s: (stage not found)\n", tk_stage_kind_name(to));
        } else {
            size_t n_approx = 0;
            for (size_t l = 0; l < n; l++)
                n_approx += tk_stage_line_kind(ts, lines[l]) == TK_LINE_INSTRUCTION &&
                            tk_bind_match_approximate(ix, from, line, to, lines[l]);
            cmd_bind_put_stage_count(ts, to, lines, n);
            if (n_approx)
                cli_printf("    (%zu of the instructions approximate: matched on the "
                              "innermost frame only, "
                              "%s has no inline frames there; they may come from another "
                              "call site of the same code)\n",
                              n_approx, tk_stage_kind_name(to));
            size_t shown = cmd_bind_lines_shown(a, n);
            for (size_t l = 0; l < shown; l++) {
                gboolean approx = tk_bind_match_approximate(ix, from, line, to, lines[l]);
                cmd_bind_put_numbered_line(ts, lines[l], NULL, approx ? 15 : 0);
                if (approx)
                    fputs("  (approximate)", stdout);
                putchar('\n');
            }
            cmd_bind_put_more(to, n - shown);
        }
        free(lines);
    }
    if (j) {
        json_builder_end_object(j);
        json_builder_end_object(j);
        cli_json_print(j);
        g_object_unref(j);
    }
    tk_cost_free(cost);
    tk_profile_free(prof);
    tk_bind_free(ix);
    return total ? CLI_EXIT_OK : CLI_EXIT_NOTHING;
}

int cmd_bind(int argc, char **argv)
{
    cmd_bind_args a = {.lines = -1};
    GOptionEntry entries[] = {
        {"source", 's', 0, G_OPTION_ARG_STRING, &a.source,
         "Source line to bind: FILE:LINE, FILE matched by path suffix", "FILE:LINE"},
        {"ir", 'i', 0, G_OPTION_ARG_STRING, &a.ir,
         "IR line to bind: STAGE:LINE (STAGE as for --stage)", "STAGE:LINE"},
        CLI_KERNEL_OPTION(&a.kernel, "Kernel", ""),
        {"stage", 0, 0, G_OPTION_ARG_STRING, &a.stage,
         "Only this stage in the answer", "S"},
        {"exact", 0, 0, G_OPTION_ARG_NONE, &a.exact,
         "Only IR whose innermost frame is the line (default: also what it called)",
         NULL},
        {"lines", 'n', 0, G_OPTION_ARG_INT, &a.lines,
         "IR lines shown per stage (0: all; default: all when piped, "
         G_STRINGIFY(CMD_BIND_TERM_LINES) " on a terminal)", "N"},
        {"shared", 0, 0, G_OPTION_ARG_NONE, &a.shared,
         "Also list the lines of helper code shared by several call sites", NULL},
        G_OPTION_ENTRY_NULL,
    };
    GOptionContext *ctx = cli_options(
        "PATH (--source FILE:LINE | --ir STAGE:LINE) - what a line became, or where IR came from",
        NULL, entries, &a.common);
    GError *err = NULL;
    int rc;
    tk_stage_kind only = TK_STAGE_UNKNOWN;
    if (!g_option_context_parse(ctx, &argc, &argv, &err) || argc != 2 ||
        !a.source == !a.ir) {
        rc = cli_usage(&err, "usage: tkview bind PATH (--source FILE:LINE | "
                             "--ir STAGE:LINE) [--kernel K] [--stage S] [--lines N] [--json]");
        goto out;
    }
    if (a.stage && (only = tk_stage_kind_parse(a.stage)) == TK_STAGE_UNKNOWN) {
        cli_error("--stage %s: not a stage (%s)", a.stage, cli_stage_names());
        rc = CLI_EXIT_USAGE;
        goto out;
    }
    /* --ir is about one kernel: the others' stages need not be read. */
    tk_bundle *b = a.ir ? cli_load_for_kernel(argv[1], &a.common, a.kernel)
                        : cli_load(argv[1], &a.common);
    if (!b) {
        rc = CLI_EXIT_INPUT;
        goto out;
    }
    /* --source: the compiler's messages on the line too, from the
     * streams beside the capture. */
    if (a.source)
        a.diag = cli_diag_load(argv[1], b);
    rc = a.source ? cmd_bind_source(b, &a, only) : bind_ir(b, &a, only);
    tk_diag_set_free(a.diag);
    tk_bundle_free(b);
out:
    g_free(a.source);
    g_free(a.ir);
    g_free(a.kernel);
    g_free(a.stage);
    g_strfreev(a.common.source_dirs);
    g_option_context_free(ctx);
    return rc;
}
