/* cmd_diff_print.c - `tkview diff`'s output: a diff printed as a unified
 * diff of the original text (colored on a terminal, with the lines' stacks
 * on --stacks) or as JSON a line at a time.  Apart from cmd_diff.c, which
 * picks what to diff: the same printer serves passes and stages. */
#include "cmd_diff.h"

#include <string.h>

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

int cmd_diff_print(const cmd_diff_args *a, const tk_ir_diff *d,
                   const tk_loctab *tab_a, const tk_loctab *tab_b,
                   const char *label_a, const char *label_b, const char *title,
                   const tk_kernel *ka, const tk_kernel *kb, gboolean color,
                   void (*json_extra)(JsonBuilder *, void *), void *extra)
{
    size_t n;
    const tk_hunk *hunks = tk_ir_diff_hunks(d, &n);
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
