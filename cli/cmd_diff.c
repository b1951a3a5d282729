/* cmd_diff.c - `tkview diff`: what passes changed (PATH --kernel K --pass N
 * [--to M]), and a kernel's final stage in two bundles or two configurations
 * (PATH_A [PATH_B] --kernel K [--kernel-b K2] --stage S), as a unified diff
 * of the original text (normalization only decides which lines match). */
#include "cli.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tkdump/tk_passref.h"
#include "tkdump/tk_timeline.h"

typedef struct {
    cli_common common;
    char *kernel, *kernel_b;
    char *pass, *to;
    char *stage;
    char *algorithm;
    char *color;
    int context;
    gboolean stacks;
    gboolean raw_registers;
} diff_args;

/* How the diff is printed. */
typedef struct {
    const tk_ir_diff *d;
    const char *title;   /* after "@@ ... @@" */
    gboolean color, stacks;
    const tk_loctab *tab[2]; /* the tables the two sides' stacks are in */
    /* JSON instead of text, printed a line at a time (a diff that
     * rewrote a 2 GB module is never held whole): J builds one line
     * object at a time, printed where json-glib would have put it. */
    JsonBuilder *j;
    gboolean in_group;
    guint groups_out;    /* groups printed */
    guint lines_out;     /* lines of the group printed */
    GString *group_tail; /* what closes the group's "lines" and itself */
} printer;

/* Generates J's root (pretty, as cli_json_print() does) and resets J. */
static char *take_json(JsonBuilder *j, gsize *len)
{
    JsonGenerator *g = json_generator_new();
    JsonNode *root = json_builder_get_root(j);
    json_generator_set_root(g, root);
    json_generator_set_pretty(g, TRUE);
    char *text = json_generator_to_data(g, len);
    json_node_unref(root);
    g_object_unref(g);
    json_builder_reset(j);
    return text;
}

/* TEXT with each line indented by INDENT spaces, appended to OUT. */
static void indent_into(GString *out, const char *text, size_t len, int indent)
{
    for (const char *l = text, *end = text + len; l < end;) {
        const char *nl = memchr(l, '\n', (size_t)(end - l));
        const char *e = nl ? nl : end;
        for (int i = 0; i < indent; i++)
            g_string_append_c(out, ' ');
        g_string_append_len(out, l, e - l);
        if (nl)
            g_string_append_c(out, '\n');
        l = nl ? nl + 1 : end;
    }
}

#define C_RESET "\033[m"
#define C_BOLD "\033[1m"
#define C_RED "\033[31m"
#define C_GREEN "\033[32m"
#define C_CYAN "\033[36m"

/* ---- unified diff --------------------------------------------------------- */

/* The 1-based line in SIDE's text where a group starting at kept line K
 * with N lines begins: its first line, or for an empty side the line before
 * (0 at the top), as unified diffs number an empty range. */
static uint32_t start_line(const tk_ir_diff *d, int side, uint32_t k, uint32_t n)
{
    size_t len;
    uint32_t line = 0;
    if (n) {
        tk_ir_diff_kept_line(d, side, k, &len, &line);
    } else if (k > 0) {
        tk_ir_diff_kept_line(d, side, k - 1, &len, &line);
    }
    return line;
}

static void put_stack_text(const printer *p, int side, uint32_t line)
{
    const tk_stack_id *ids;
    size_t n = tk_ir_diff_line_stacks(p->d, side, line, &ids);
    if (!n)
        return;
    fputs("#    ", stdout);
    for (size_t i = 0; i < n; i++) {
        char *s = cli_stack_string(p->tab[side], ids[i]);
        fputs(i ? " | " : "", stdout);
        cli_put_text(stdout, s, strlen(s));
        g_free(s);
    }
    putchar('\n');
}

static void json_stacks(const printer *p, int side, uint32_t line)
{
    const tk_stack_id *ids;
    size_t n = tk_ir_diff_line_stacks(p->d, side, line, &ids);
    json_builder_set_member_name(p->j, "stacks");
    json_builder_begin_array(p->j);
    for (size_t i = 0; i < n; i++)
        cli_json_stack(p->j, p->tab[side], ids[i]);
    json_builder_end_array(p->j);
}

/* One line: OP ' ' (context, A's text), '-' (A) or '+' (B). */
static void put_line(printer *p, char op, uint32_t ka, uint32_t kb)
{
    int side = op == '+' ? TK_IR_B : TK_IR_A;
    size_t len_a = 0, len_b = 0;
    uint32_t la = 0, lb = 0;
    const char *ta = NULL, *tb = NULL;
    if (op != '+')
        ta = tk_ir_diff_kept_line(p->d, TK_IR_A, ka, &len_a, &la);
    if (op != '-')
        tb = tk_ir_diff_kept_line(p->d, TK_IR_B, kb, &len_b, &lb);
    const char *text = op == '+' ? tb : ta;
    size_t len = op == '+' ? len_b : len_a;
    if (!text)
        return;
    if (p->j) {
        json_builder_begin_object(p->j);
        json_builder_set_member_name(p->j, "op");
        json_builder_add_string_value(p->j, op == ' ' ? " " : op == '-' ? "-" : "+");
        json_builder_set_member_name(p->j, "a_line");
        if (op == '+')
            json_builder_add_null_value(p->j);
        else
            json_builder_add_int_value(p->j, la);
        json_builder_set_member_name(p->j, "b_line");
        if (op == '-')
            json_builder_add_null_value(p->j);
        else
            json_builder_add_int_value(p->j, lb);
        json_builder_set_member_name(p->j, "text");
        cli_json_string(p->j, text, len);
        if (op != ' ')
            json_stacks(p, side, op == '+' ? lb : la);
        json_builder_end_object(p->j);
        gsize n;
        char *t = take_json(p->j, &n);
        GString *out = g_string_sized_new(n + 64);
        g_string_append(out, p->lines_out++ ? ",\n" : "\n");
        indent_into(out, t, n, 8);
        fwrite(out->str, 1, out->len, stdout);
        g_string_free(out, TRUE);
        g_free(t);
        return;
    }
    const char *c = op == '-' ? C_RED : op == '+' ? C_GREEN : NULL;
    if (p->color && c)
        fputs(c, stdout);
    putchar(op);
    cli_put_text(stdout, text, len);
    if (p->color && c)
        fputs(C_RESET, stdout);
    putchar('\n');
    if (p->stacks && op != ' ')
        put_stack_text(p, side, op == '+' ? lb : la);
}

static void end_group(printer *p)
{
    if (p->j && p->in_group) {
        if (p->lines_out)
            fputs("\n      ", stdout);
        fputs(p->group_tail->str, stdout);
    }
    p->in_group = FALSE;
}

static int put_hunk(const tk_hunk *h, void *user)
{
    printer *p = user;
    if (h->tag == TK_HUNK_GROUP) {
        end_group(p);
        uint32_t na = h->a1 - h->a0, nb = h->b1 - h->b0;
        uint32_t sa = start_line(p->d, TK_IR_A, h->a0, na);
        uint32_t sb = start_line(p->d, TK_IR_B, h->b0, nb);
        if (p->j) {
            json_builder_begin_object(p->j);
            json_builder_set_member_name(p->j, "a_start");
            json_builder_add_int_value(p->j, sa);
            json_builder_set_member_name(p->j, "a_count");
            json_builder_add_int_value(p->j, na);
            json_builder_set_member_name(p->j, "b_start");
            json_builder_add_int_value(p->j, sb);
            json_builder_set_member_name(p->j, "b_count");
            json_builder_add_int_value(p->j, nb);
            json_builder_set_member_name(p->j, "lines");
            json_builder_begin_array(p->j);
            json_builder_end_array(p->j);
            json_builder_end_object(p->j);
            /* The group as an element of the root's "hunks", its lines
             * printed one by one between the head and the tail. */
            gsize n;
            char *t = take_json(p->j, &n);
            GString *g = g_string_new(p->groups_out++ ? ",\n" : "\n");
            indent_into(g, t, n, 4);
            g_free(t);
            const char *cut = g_strrstr(g->str, "\"lines\" : []");
            size_t head = cut ? (size_t)(cut - g->str) + strlen("\"lines\" : [") : g->len;
            fwrite(g->str, 1, head, stdout);
            g_string_assign(p->group_tail, g->str + head);
            g_string_free(g, TRUE);
            p->lines_out = 0;
            p->in_group = TRUE;
        } else {
            if (p->color)
                fputs(C_CYAN, stdout);
            cli_printf("@@ -%u,%u +%u,%u @@", sa, na, sb, nb);
            if (p->color)
                fputs(C_RESET, stdout);
            if (p->title[0]) {
                putchar(' ');
                cli_put_text(stdout, p->title, strlen(p->title));
            }
            putchar('\n');
        }
        return 0;
    }
    switch (h->tag) {
    case TK_HUNK_EQUAL:
        for (uint32_t i = 0; i < h->a1 - h->a0; i++)
            put_line(p, ' ', h->a0 + i, h->b0 + i);
        break;
    default:
        for (uint32_t k = h->a0; k < h->a1; k++)
            put_line(p, '-', k, 0);
        for (uint32_t k = h->b0; k < h->b1; k++)
            put_line(p, '+', 0, k);
        break;
    }
    return 0;
}

static void put_file_line(const printer *p, const char *mark, const char *label)
{
    if (p->color)
        fputs(C_BOLD, stdout);
    fputs(mark, stdout);
    cli_put_text(stdout, label, strlen(label));
    if (p->color)
        fputs(C_RESET, stdout);
    putchar('\n');
}

static void json_side(JsonBuilder *j, const char *member, const char *text,
                      const char *label)
{
    json_builder_set_member_name(j, member);
    json_builder_begin_object(j);
    json_builder_set_member_name(j, "text");
    cli_json_string(j, text, strlen(text));
    json_builder_set_member_name(j, "label");
    cli_json_string(j, label, strlen(label));
    json_builder_end_object(j);
}

static void json_kernel(JsonBuilder *j, const char *member, const tk_kernel *k)
{
    json_builder_set_member_name(j, member);
    json_builder_begin_object(j);
    json_builder_set_member_name(j, "name");
    cli_json_string(j, tk_kernel_name(k), strlen(tk_kernel_name(k)));
    json_builder_set_member_name(j, "hash");
    cli_json_string(j, tk_kernel_hash(k), strlen(tk_kernel_hash(k)));
    json_builder_end_object(j);
}

/* Prints D; returns CLI_EXIT_OK when it has changes, CLI_EXIT_NOTHING when
 * the texts compare equal. */
static int print_diff(const diff_args *a, const tk_ir_diff *d,
                      const tk_loctab *tab_a, const tk_loctab *tab_b,
                      const char *label_a, const char *label_b, const char *title,
                      const tk_kernel *ka, const tk_kernel *kb, gboolean color,
                      void (*json_extra)(JsonBuilder *, void *), void *extra)
{
    size_t n;
    /* the rows every view shows: replaced lines paired by likeness */
    const tk_hunk *hunks = tk_ir_diff_aligned(d, &n);
    tk_diff_stats st = tk_ir_diff_stats(d);
    printer p = {d, title, color, a->stacks, {tab_a, tab_b}, NULL, FALSE, 0, 0, NULL};
    uint32_t context = (uint32_t)a->context;
    if (a->common.json) {
        JsonBuilder *j = json_builder_new();
        json_builder_begin_object(j);
        json_kernel(j, "kernel", ka);
        if (kb)
            json_kernel(j, "kernel_b", kb);
        if (json_extra)
            json_extra(j, extra);
        json_side(j, "a", tk_ir_diff_name(d, TK_IR_A), label_a);
        json_side(j, "b", tk_ir_diff_name(d, TK_IR_B), label_b);
        json_builder_set_member_name(j, "dialect");
        json_builder_add_string_value(j, tk_ir_dialect_name(tk_ir_diff_dialect(d)));
        json_builder_set_member_name(j, "algorithm");
        json_builder_add_string_value(j, a->algorithm ? a->algorithm : "histogram");
        json_builder_set_member_name(j, "context");
        json_builder_add_int_value(j, context);
        json_builder_set_member_name(j, "added");
        json_builder_add_int_value(j, st.added);
        json_builder_set_member_name(j, "removed");
        json_builder_add_int_value(j, st.removed);
        /* The root is printed around its "hunks", which are printed a
         * group at a time. */
        json_builder_set_member_name(j, "hunks");
        json_builder_begin_array(j);
        json_builder_end_array(j);
        json_builder_end_object(j);
        JsonGenerator *g = json_generator_new();
        JsonNode *root = json_builder_get_root(j);
        json_generator_set_root(g, root);
        json_generator_set_pretty(g, TRUE);
        gsize len;
        char *text = json_generator_to_data(g, &len);
        const char *empty = g_strrstr(text, "\"hunks\" : []");
        size_t head = empty ? (size_t)(empty - text) + strlen("\"hunks\" : [") : len;
        fwrite(text, 1, head, stdout);
        p.j = json_builder_new();
        p.group_tail = g_string_new(NULL);
        tk_diff_group(hunks, n, context, put_hunk, &p);
        end_group(&p);
        g_string_free(p.group_tail, TRUE);
        if (p.groups_out)
            fputs("\n  ", stdout);
        if (empty)
            fputs(empty + strlen("\"hunks\" : ["), stdout);
        fputc('\n', stdout);
        g_free(text);
        json_node_unref(root);
        g_object_unref(g);
        g_object_unref(p.j);
        g_object_unref(j);
    } else if (st.added || st.removed) {
        put_file_line(&p, "--- ", label_a);
        put_file_line(&p, "+++ ", label_b);
        tk_diff_group(hunks, n, context, put_hunk, &p);
    } else if (!a->common.quiet) {
        cli_fprintf(stderr, "tkview: no change: ");
        cli_put_text(stderr, label_a, strlen(label_a));
        cli_fprintf(stderr, " and ");
        cli_put_text(stderr, label_b, strlen(label_b));
        cli_fprintf(stderr, " compare equal\n");
    }
    return st.added || st.removed ? CLI_EXIT_OK : CLI_EXIT_NOTHING;
}

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

static int diff_passes(tk_bundle *b, const diff_args *a, gboolean color,
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
    if (r.sub != TK_TL_NONE) {
        r.first = r.last = tk_timeline_substep(tl, r.from, r.sub);
        d = tk_timeline_diff_substep(tl, r.from, r.sub, dopts, diags);
    } else {
        r.first = tk_timeline_get(tl, r.from);
        r.last = tk_timeline_get(tl, r.to);
        d = tk_timeline_diff(tl, r.from, r.to, dopts, diags);
    }
    cli_print_diags(diags, FALSE);
    tk_diags_free(diags);
    if (!d) {
        tk_timeline_free(tl);
        return CLI_EXIT_NOTHING;
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
    rc = print_diff(a, d, tk_bundle_loctab(b), tk_bundle_loctab(b), la, lb, title, k, NULL,
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

static int diff_stages(tk_bundle *ba, tk_bundle *bb, const diff_args *a,
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
    int rc = print_diff(a, d, tk_bundle_loctab(ba), tk_bundle_loctab(bb), la, lb,
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
    diff_args a = {0};
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
