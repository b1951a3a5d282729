/* cmd_bind.c - `tkview bind PATH --source FILE:LINE | --ir STAGE:LINE`. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

#include "tkdump/tk_file_query.h"

#define TEXT_COLUMNS 160 /* a terminal line; JSON always has the whole text */

typedef struct {
    tk_cli_common common;
    char *source;
    char *ir;
    char *kernel;
    char *stage;
    gboolean exact;
    gboolean shared;
} bind_args;

/* Splits "A:N" at the last colon.  Returns FALSE when N is not a line number. */
static gboolean split_line_spec(const char *spec, char **head, uint32_t *line)
{
    const char *colon = strrchr(spec, ':');
    if (!colon || colon == spec || !colon[1])
        return FALSE;
    char *end;
    unsigned long long v = strtoull(colon + 1, &end, 10);
    if (*end || v == 0 || v > UINT32_MAX || colon[1] == '-' || colon[1] == '+')
        return FALSE;
    *head = g_strndup(spec, (gsize)(colon - spec));
    *line = (uint32_t)v;
    return TRUE;
}

static void put_line_text(const tk_stage *st, uint32_t line)
{
    size_t len;
    const char *s = tk_stage_line(st, line, &len);
    while (len && (*s == ' ' || *s == '\t')) {
        s++;
        len--;
    }
    if (len > TEXT_COLUMNS) {
        tk_cli_put_text(stdout, s, TEXT_COLUMNS);
        fputs("...", stdout);
    } else {
        tk_cli_put_text(stdout, s, len);
    }
}

static void put_stacks_text(const tk_bind *ix, const tk_loctab *tab,
                            tk_stage_kind k, uint32_t line)
{
    const tk_stack_id *ids;
    size_t n = tk_bind_line_stacks(ix, k, line, &ids);
    for (size_t i = 0; i < n; i++) {
        char *s = tk_cli_stack_string(tab, ids[i]);
        fputs(i ? " | " : "", stdout);
        tk_cli_put_text(stdout, s, strlen(s));
        g_free(s);
    }
    if (n && tk_bind_stack_inferred(ix, k, line))
        printf("  (callers from %s)",
               tk_stage_kind_label(tk_bind_inferred_from(ix, k)));
}

/* An IR line as JSON (docs/cli-json.md): its text, stacks, kind, and
 * "directive": true when it is not an instruction (a located .loc, //##,
 * region end...); APPROX adds "approximate": true (a match on the innermost
 * frame only, tk_bind_match_approximate()). */
static void json_line_flags(JsonBuilder *j, const tk_bind *ix, const tk_loctab *tab,
                            const tk_stage *st, tk_stage_kind k, uint32_t line,
                            gboolean approx)
{
    size_t len;
    const char *text = tk_stage_line(st, line, &len);
    json_builder_begin_object(j);
    json_builder_set_member_name(j, "line");
    json_builder_add_int_value(j, line);
    json_builder_set_member_name(j, "text");
    tk_cli_json_string(j, text, len);
    json_builder_set_member_name(j, "stacks");
    json_builder_begin_array(j);
    const tk_stack_id *ids;
    size_t n = tk_bind_line_stacks(ix, k, line, &ids);
    for (size_t i = 0; i < n; i++)
        tk_cli_json_stack(j, tab, ids[i]);
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

static void json_line(JsonBuilder *j, const tk_bind *ix, const tk_loctab *tab,
                      const tk_stage *st, tk_stage_kind k, uint32_t line)
{
    json_line_flags(j, ix, tab, st, k, line, FALSE);
}

/* "    123  TEXT": the number, a mark for what is not an instruction, the
 * text. */
static void put_numbered_line(const tk_stage *st, uint32_t line, const char *extra)
{
    tk_line_kind kind = tk_stage_line_kind(st, line);
    tk_cli_printf("    %6u  ", line);
    if (kind != TK_LINE_INSTRUCTION)
        tk_cli_printf("[%s] ", tk_line_kind_name(kind));
    put_line_text(st, line);
    if (extra)
        fputs(extra, stdout);
}

/* "ptx: 12 instructions (+ 3 other lines: .loc, comments)" */
static void put_stage_count(const tk_stage *st, tk_stage_kind s, const uint32_t *lines,
                            size_t n)
{
    size_t ni = tk_stage_count_instructions(st, lines, n);
    tk_cli_printf("  %s: %zu instruction%s", tk_stage_kind_name(s), ni, ni == 1 ? "" : "s");
    if (n > ni)
        tk_cli_printf(" (+ %zu located line%s that %s not code)", n - ni,
                      n - ni == 1 ? "" : "s", n - ni == 1 ? "is" : "are");
    putchar('\n');
}

static void json_kernel_id(JsonBuilder *j, const tk_kernel *k)
{
    json_builder_set_member_name(j, "name");
    tk_cli_json_string(j, tk_kernel_name(k), strlen(tk_kernel_name(k)));
    json_builder_set_member_name(j, "hash");
    tk_cli_json_string(j, tk_kernel_hash(k), strlen(tk_kernel_hash(k)));
}

/* ---- --source FILE:LINE ---------------------------------------------- */

static const char *statement_status_name(tk_statement_status st)
{
    switch (st) {
    case TK_STATEMENT_CODE:
        return "code";
    case TK_STATEMENT_NO_CODE:
        return "no_code";
    case TK_STATEMENT_PAST_END:
        return "past_end";
    default:
        return "unknown";
    }
}

static const char *base_name(const char *path)
{
    const char *b = strrchr(path, '/');
    return b ? b + 1 : path;
}

/* The lines of the statement that some stage of IX has code for. */
static GArray *recorded_lines(const tk_bind *ix, tk_file_id fid, const tk_statement *stmt,
                              tk_match match, tk_stage_kind only)
{
    GArray *rec = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    for (uint32_t l = stmt->first; l <= stmt->last && l >= stmt->first; l++) {
        size_t n = 0;
        for (tk_stage_kind s = 0; s < TK_STAGE_COUNT; s++) {
            const uint32_t *lines;
            if (only == TK_STAGE_UNKNOWN || only == s)
                n += tk_bind_source_to_stage(ix, fid, l, match, s, &lines);
        }
        if (n)
            g_array_append_val(rec, l);
        if (l == UINT32_MAX)
            break;
    }
    return rec;
}

static void json_statement(JsonBuilder *j, const tk_statement *stmt)
{
    json_builder_set_member_name(j, "line_status");
    json_builder_add_string_value(j, statement_status_name(stmt->status));
    json_builder_set_member_name(j, "statement");
    if (stmt->status == TK_STATEMENT_CODE) {
        json_builder_begin_object(j);
        json_builder_set_member_name(j, "first");
        json_builder_add_int_value(j, stmt->first);
        json_builder_set_member_name(j, "last");
        json_builder_add_int_value(j, stmt->last);
        json_builder_end_object(j);
    } else {
        json_builder_add_null_value(j);
    }
    json_builder_set_member_name(j, "file_lines");
    if (stmt->n_lines)
        json_builder_add_int_value(j, stmt->n_lines);
    else
        json_builder_add_null_value(j);
}

/* SASS (or any stage) lines of helpers shared by several call sites: what
 * the answer for this query leaves out, and why. */
static void put_shared_text(const tk_bind *ix, const tk_loctab *tab, const tk_stage *st,
                            tk_stage_kind s, const tk_bind_shared *sh, gboolean list)
{
    GString *sites = g_string_new(NULL);
    for (size_t i = 0; i < sh->n_sites; i++)
        g_string_append_printf(sites, "%s%s:%u", i ? ", " : "",
                               base_name(tk_loctab_file_path(tab, sh->sites[i].file)),
                               sh->sites[i].line);
    tk_cli_printf("    (and %zu line%s of this helper's code %s shared by its %zu call "
                  "sites, %s: %s cannot tell which call %s from; %s)\n",
                  sh->n_lines, sh->n_lines == 1 ? "" : "s", sh->n_lines == 1 ? "is" : "are",
                  sh->n_sites, sites->str, tk_stage_kind_name(s),
                  sh->n_lines == 1 ? "it comes" : "they come",
                  list ? "listed below" : "--shared lists them");
    g_string_free(sites, TRUE);
    if (!list)
        return;
    for (size_t l = 0; l < sh->n_lines; l++) {
        put_numbered_line(st, sh->lines[l], "\n            ");
        const tk_stack_id *ids;
        size_t n = tk_bind_line_stacks(ix, s, sh->lines[l], &ids);
        for (size_t i = 0; i < n; i++) {
            char *str = tk_cli_stack_string(tab, ids[i]);
            fputs(i ? " | " : "", stdout);
            tk_cli_put_text(stdout, str, strlen(str));
            g_free(str);
        }
        fputs("  (shared)\n", stdout);
    }
}

static void json_shared(JsonBuilder *j, const tk_bind *ix, const tk_loctab *tab,
                        const tk_stage *st, tk_stage_kind s, const tk_bind_shared *sh)
{
    json_builder_begin_object(j);
    json_builder_set_member_name(j, "call_sites");
    json_builder_begin_array(j);
    for (size_t i = 0; i < sh->n_sites; i++) {
        const char *path = tk_loctab_file_path(tab, sh->sites[i].file);
        json_builder_begin_object(j);
        json_builder_set_member_name(j, "file");
        tk_cli_json_string(j, path, strlen(path));
        json_builder_set_member_name(j, "line");
        json_builder_add_int_value(j, sh->sites[i].line);
        json_builder_end_object(j);
    }
    json_builder_end_array(j);
    json_builder_set_member_name(j, "lines");
    json_builder_begin_array(j);
    for (size_t l = 0; l < sh->n_lines; l++)
        json_line(j, ix, tab, st, s, sh->lines[l]);
    json_builder_end_array(j);
    json_builder_end_object(j);
}

/* The text header of a statement: which lines make it and where Triton
 * recorded it. */
static void put_statement_text(const char *fpath, uint32_t line, const tk_statement *stmt,
                               const GArray *rec)
{
    if (stmt->status != TK_STATEMENT_CODE || stmt->first == stmt->last)
        return;
    tk_cli_printf("  statement lines %u-%u", stmt->first, stmt->last);
    if (rec->len) {
        tk_cli_printf(": Triton recorded it at line%s ", rec->len == 1 ? "" : "s");
        for (guint i = 0; i < rec->len; i++)
            tk_cli_printf("%s%u", i ? ", " : "", g_array_index(rec, uint32_t, i));
        gboolean on_query = FALSE;
        for (guint i = 0; i < rec->len; i++)
            on_query |= g_array_index(rec, uint32_t, i) == line;
        if (!on_query)
            tk_cli_printf(", so %s:%u binds to its IR", base_name(fpath), line);
    }
    putchar('\n');
}

static int bind_source(tk_bundle *b, const bind_args *a, tk_stage_kind only)
{
    char *file;
    uint32_t line;
    if (!split_line_spec(a->source, &file, &line)) {
        tk_cli_error("--source wants FILE:LINE (e.g. vector_add.py:16), got \"%s\"",
                     a->source);
        return TK_EXIT_USAGE;
    }
    tk_loctab *tab = tk_bundle_loctab(b);
    /* FILE as the library matches it (tk_file_query.h). */
    tk_file_query *q = tk_file_query_new(b, file);
    tk_file_id *files = NULL;
    size_t n_files = tk_file_query_find(q, NULL, 0, &files);
    tk_file_query_free(q);
    int rc = TK_EXIT_OK;
    if (n_files == 0) {
        tk_cli_error("no location in %s names a file \"%s\" (tkview info lists "
                     "the files referenced)", tk_bundle_path(b), file);
        rc = TK_EXIT_NOTHING;
        goto out;
    }
    if (n_files > 1) {
        tk_cli_error("\"%s\" names %zu files; give more of the path:", file, n_files);
        for (size_t i = 0; i < n_files; i++)
            tk_cli_fprintf(stderr, "  %s\n", tk_loctab_file_path(tab, files[i]));
        rc = TK_EXIT_USAGE;
        goto out;
    }
    tk_file_id fid = files[0];
    const char *fpath = tk_loctab_file_path(tab, fid);
    tk_match match = a->exact ? TK_MATCH_EXACT : TK_MATCH_CALLED;

    /* A click is on a statement: any of its lines binds to its IR. */
    tk_statement stmt;
    tk_bundle_statement(b, fid, line, &stmt);
    if (stmt.status == TK_STATEMENT_PAST_END) {
        tk_cli_error("%s has %u lines: line %u is past its end", fpath, stmt.n_lines, line);
        rc = TK_EXIT_NO_LINE;
        goto out;
    }

    const tk_kernel *one = NULL;
    if (a->kernel && !(one = tk_cli_pick_kernel(b, a->kernel))) {
        rc = TK_EXIT_USAGE;
        goto out;
    }
    JsonBuilder *j = NULL;
    if (a->common.json) {
        j = json_builder_new();
        json_builder_begin_object(j);
        json_builder_set_member_name(j, "query");
        json_builder_begin_object(j);
        json_builder_set_member_name(j, "file");
        tk_cli_json_string(j, fpath, strlen(fpath));
        json_builder_set_member_name(j, "line");
        json_builder_add_int_value(j, line);
        json_builder_set_member_name(j, "match");
        json_builder_add_string_value(j, a->exact ? "exact" : "called");
        json_statement(j, &stmt);
        json_builder_end_object(j);
        json_builder_set_member_name(j, "kernels");
        json_builder_begin_array(j);
    }
    size_t total = 0;
    for (size_t i = 0; i < tk_bundle_kernel_count(b); i++) {
        const tk_kernel *k = tk_bundle_kernel(b, i);
        if (one && k != one)
            continue;
        tk_bind *ix = tk_bind_new(k, tab);
        uint32_t *lines[TK_STAGE_COUNT] = {0};
        size_t n_lines[TK_STAGE_COUNT] = {0};
        tk_bind_shared shared[TK_STAGE_COUNT];
        size_t kernel_total = 0;
        for (tk_stage_kind s = 0; s < TK_STAGE_COUNT; s++) {
            memset(&shared[s], 0, sizeof shared[s]);
            if (only != TK_STAGE_UNKNOWN && only != s)
                continue;
            n_lines[s] = tk_bind_lines_to_stage(ix, fid, stmt.first, stmt.last, match, s,
                                                &lines[s]);
            kernel_total += n_lines[s];
            if (match == TK_MATCH_CALLED)
                tk_bind_shared_lines(ix, fid, stmt.first, stmt.last, s, &shared[s]);
        }
        /* Without --kernel, kernels that never mention the line stay quiet. */
        if (kernel_total == 0 && !one) {
            for (tk_stage_kind s = 0; s < TK_STAGE_COUNT; s++) {
                free(lines[s]);
                tk_bind_shared_clear(&shared[s]);
            }
            tk_bind_free(ix);
            continue;
        }
        total += kernel_total;
        GArray *rec = recorded_lines(ix, fid, &stmt, match, only);
        if (j) {
            json_builder_begin_object(j);
            json_kernel_id(j, k);
            json_builder_set_member_name(j, "recorded_lines");
            json_builder_begin_array(j);
            for (guint r = 0; r < rec->len; r++)
                json_builder_add_int_value(j, g_array_index(rec, uint32_t, r));
            json_builder_end_array(j);
            json_builder_set_member_name(j, "stages");
            json_builder_begin_object(j);
        } else {
            tk_cli_printf("%s %.12s: %s:%u (%s)\n", tk_kernel_name(k), tk_kernel_hash(k),
                          fpath, line,
                          a->exact ? "this line only" : "this line and what it called");
            put_statement_text(fpath, line, &stmt, rec);
        }
        for (tk_stage_kind s = 0; s < TK_STAGE_COUNT; s++) {
            if (!tk_cli_stage_listed(k, s, only))
                continue;
            const tk_stage *st = tk_kernel_stage(k, s);
            if (j) {
                json_builder_set_member_name(j, tk_stage_kind_name(s));
                if (!st) {
                    json_builder_add_null_value(j);
                    continue;
                }
                json_builder_begin_array(j);
                for (size_t l = 0; l < n_lines[s]; l++)
                    json_line(j, ix, tab, st, s, lines[s][l]);
                json_builder_end_array(j);
                continue;
            }
            if (!st) {
                tk_cli_printf("  %s: (stage not found)\n", tk_stage_kind_name(s));
                continue;
            }
            put_stage_count(st, s, lines[s], n_lines[s]);
            for (size_t l = 0; l < n_lines[s]; l++) {
                put_numbered_line(st, lines[s][l], "\n            ");
                put_stacks_text(ix, tab, s, lines[s][l]);
                putchar('\n');
            }
            if (shared[s].n_lines)
                put_shared_text(ix, tab, st, s, &shared[s], a->shared);
        }
        if (j) {
            json_builder_end_object(j);
            /* What the answer leaves out: helper code shared by call sites. */
            json_builder_set_member_name(j, "shared");
            json_builder_begin_object(j);
            for (tk_stage_kind s = 0; s < TK_STAGE_COUNT; s++)
                if (shared[s].n_lines) {
                    json_builder_set_member_name(j, tk_stage_kind_name(s));
                    json_shared(j, ix, tab, tk_kernel_stage(k, s), s, &shared[s]);
                }
            json_builder_end_object(j);
            json_builder_end_object(j);
        }
        g_array_free(rec, TRUE);
        for (tk_stage_kind s = 0; s < TK_STAGE_COUNT; s++) {
            free(lines[s]);
            tk_bind_shared_clear(&shared[s]);
        }
        tk_bind_free(ix);
    }
    if (j) {
        json_builder_end_array(j);
        json_builder_end_object(j);
        tk_cli_json_print(j);
        g_object_unref(j);
    } else if (total == 0) {
        if (stmt.status == TK_STATEMENT_NO_CODE)
            tk_cli_printf("%s:%u is a blank or comment line: no code, no IR\n", fpath, line);
        else if (stmt.status == TK_STATEMENT_CODE && stmt.first != stmt.last)
            tk_cli_printf("no IR line is bound to %s:%u (statement lines %u-%u)\n", fpath,
                          line, stmt.first, stmt.last);
        else
            tk_cli_printf("no IR line is bound to %s:%u\n", fpath, line);
    }
    rc = total ? TK_EXIT_OK : TK_EXIT_NOTHING;
out:
    g_free(files);
    g_free(file);
    return rc;
}

/* ---- --ir STAGE:LINE -------------------------------------------------- */

static int bind_ir(tk_bundle *b, const bind_args *a, tk_stage_kind only)
{
    char *stage_name;
    uint32_t line;
    if (!split_line_spec(a->ir, &stage_name, &line)) {
        tk_cli_error("--ir wants STAGE:LINE (e.g. ttgir:33), got \"%s\"", a->ir);
        return TK_EXIT_USAGE;
    }
    tk_stage_kind from = tk_stage_kind_parse(stage_name);
    g_free(stage_name);
    if (from == TK_STAGE_UNKNOWN) {
        tk_cli_error("--ir: unknown stage in \"%s\" (%s)", a->ir, tk_cli_stage_names());
        return TK_EXIT_USAGE;
    }
    const tk_kernel *k = tk_cli_pick_kernel(b, a->kernel);
    if (!k)
        return TK_EXIT_USAGE;
    const tk_stage *st = tk_kernel_stage(k, from);
    if (!st) {
        tk_cli_error("kernel %s has no %s stage", tk_kernel_name(k), tk_stage_kind_name(from));
        return TK_EXIT_NOTHING;
    }
    if (line > tk_stage_line_count(st)) {
        tk_cli_error("%s has %u lines; line %u is past its end", tk_stage_path(st),
                     tk_stage_line_count(st), line);
        return TK_EXIT_USAGE;
    }
    tk_loctab *tab = tk_bundle_loctab(b);
    tk_bind *ix = tk_bind_new(k, tab);
    const tk_stack_id *ids;
    size_t n_stacks = tk_bind_line_stacks(ix, from, line, &ids);
    size_t total = n_stacks;
    JsonBuilder *j = NULL;
    if (a->common.json) {
        j = json_builder_new();
        json_builder_begin_object(j);
        json_builder_set_member_name(j, "kernel");
        json_builder_begin_object(j);
        json_kernel_id(j, k);
        json_builder_end_object(j);
        json_builder_set_member_name(j, "stage");
        json_builder_add_string_value(j, tk_stage_kind_name(from));
        json_builder_set_member_name(j, "query");
        json_line(j, ix, tab, st, from, line);
        tk_cli_regs_ir_json(j, k, ix, tab, from, line);
        json_builder_set_member_name(j, "stages");
        json_builder_begin_object(j);
    } else {
        tk_cli_printf("%s %.12s  %s:%u  ", tk_kernel_name(k), tk_kernel_hash(k),
               tk_stage_kind_name(from), line);
        put_line_text(st, line);
        tk_cli_printf("\n  stack: ");
        if (n_stacks)
            put_stacks_text(ix, tab, from, line);
        else
            fputs("(no location)", stdout);
        putchar('\n');
        tk_cli_regs_ir_text(k, ix, tab, from, line);
    }
    for (tk_stage_kind to = 0; to < TK_STAGE_COUNT; to++) {
        if (to == from || !tk_cli_stage_listed(k, to, only))
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
                    json_line_flags(j, ix, tab, ts, to, lines[l],
                                    tk_bind_match_approximate(ix, from, line, to, lines[l]));
                json_builder_end_array(j);
            }
        } else if (!ts) {
            tk_cli_printf("  %s: (stage not found)\n", tk_stage_kind_name(to));
        } else {
            size_t n_approx = 0;
            for (size_t l = 0; l < n; l++)
                n_approx += tk_stage_line_kind(ts, lines[l]) == TK_LINE_INSTRUCTION &&
                            tk_bind_match_approximate(ix, from, line, to, lines[l]);
            put_stage_count(ts, to, lines, n);
            if (n_approx)
                tk_cli_printf("    (%zu of the instructions approximate: matched on the "
                              "innermost frame only, "
                              "%s has no inline frames there; they may come from another "
                              "call site of the same code)\n",
                              n_approx, tk_stage_kind_name(to));
            for (size_t l = 0; l < n; l++) {
                put_numbered_line(ts, lines[l], NULL);
                if (tk_bind_match_approximate(ix, from, line, to, lines[l]))
                    fputs("  (approximate)", stdout);
                putchar('\n');
            }
        }
        free(lines);
    }
    if (j) {
        json_builder_end_object(j);
        json_builder_end_object(j);
        tk_cli_json_print(j);
        g_object_unref(j);
    }
    tk_bind_free(ix);
    return total ? TK_EXIT_OK : TK_EXIT_NOTHING;
}

int tk_cmd_bind(int argc, char **argv)
{
    bind_args a = {0};
    GOptionEntry entries[] = {
        {"source", 's', 0, G_OPTION_ARG_STRING, &a.source,
         "Source line to bind: FILE:LINE, FILE matched by path suffix", "FILE:LINE"},
        {"ir", 'i', 0, G_OPTION_ARG_STRING, &a.ir,
         "IR line to bind: STAGE:LINE (STAGE as for --stage)", "STAGE:LINE"},
        {"kernel", 'k', 0, G_OPTION_ARG_STRING, &a.kernel,
         "Kernel: name, hash prefix, name:hash or index", "K"},
        {"stage", 0, 0, G_OPTION_ARG_STRING, &a.stage,
         "Only this stage in the answer", "S"},
        {"exact", 0, 0, G_OPTION_ARG_NONE, &a.exact,
         "Only IR whose innermost frame is the line (default: also what it called)",
         NULL},
        {"shared", 0, 0, G_OPTION_ARG_NONE, &a.shared,
         "Also list the lines of helper code shared by several call sites", NULL},
        G_OPTION_ENTRY_NULL,
    };
    GOptionContext *ctx = g_option_context_new(
        "PATH (--source FILE:LINE | --ir STAGE:LINE) - what a line became, or where IR came from");
    g_option_context_add_main_entries(ctx, entries, NULL);
    tk_cli_add_common(ctx, &a.common);
    GError *err = NULL;
    int rc;
    tk_stage_kind only = TK_STAGE_UNKNOWN;
    if (!g_option_context_parse(ctx, &argc, &argv, &err) || argc != 2 ||
        !a.source == !a.ir) {
        tk_cli_error("%s", err ? err->message
                               : "usage: tkview bind PATH (--source FILE:LINE | "
                                 "--ir STAGE:LINE) [--kernel K] [--stage S] [--json]");
        g_clear_error(&err);
        rc = TK_EXIT_USAGE;
        goto out;
    }
    if (a.stage && (only = tk_stage_kind_parse(a.stage)) == TK_STAGE_UNKNOWN) {
        tk_cli_error("--stage %s: not a stage (%s)", a.stage, tk_cli_stage_names());
        rc = TK_EXIT_USAGE;
        goto out;
    }
    tk_bundle *b = tk_cli_load(argv[1], &a.common);
    if (!b) {
        rc = TK_EXIT_INPUT;
        goto out;
    }
    rc = a.source ? bind_source(b, &a, only) : bind_ir(b, &a, only);
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
