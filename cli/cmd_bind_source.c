/* cmd_bind_source.c - `tkview bind PATH --source FILE:LINE`: the source
 * line resolved once (source_query_make), then per kernel its answer
 * computed (source_answer_compute) and printed as text or JSON from that
 * one result. */
#include "cmd_bind.h"

#include <stdlib.h>
#include <string.h>

#include "tkdump/tk_cost.h"
#include "tkdump/tk_file_query.h"
#include "tkdump/tk_statement.h"

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
    cli_printf("    (and %zu line%s of this helper's code %s shared by its %zu call "
                  "sites, %s: %s cannot tell which call %s from; %s)\n",
                  sh->n_lines, sh->n_lines == 1 ? "" : "s", sh->n_lines == 1 ? "is" : "are",
                  sh->n_sites, sites->str, tk_stage_kind_name(s),
                  sh->n_lines == 1 ? "it comes" : "they come",
                  list ? "listed below" : "--shared lists them");
    g_string_free(sites, TRUE);
    if (!list)
        return;
    for (size_t l = 0; l < sh->n_lines; l++) {
        cmd_bind_put_numbered_line(st, sh->lines[l], "\n            ", 0);
        const tk_stack_id *ids;
        size_t n = tk_bind_line_stacks(ix, s, sh->lines[l], &ids);
        GString *g = g_string_new(NULL);
        for (size_t i = 0; i < n; i++) {
            char *str = cli_stack_string(tab, ids[i]);
            g_string_append_printf(g, "%s%s", i ? " | " : "", str);
            g_free(str);
        }
        int cols = cli_term_columns();
        cli_term_put(stdout, g->str, g->len, cols > 0 ? MAX(cols - 22, 20) : 0);
        g_string_free(g, TRUE);
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
        cli_json_string(j, path, strlen(path));
        json_builder_set_member_name(j, "line");
        json_builder_add_int_value(j, sh->sites[i].line);
        json_builder_end_object(j);
    }
    json_builder_end_array(j);
    json_builder_set_member_name(j, "lines");
    json_builder_begin_array(j);
    for (size_t l = 0; l < sh->n_lines; l++)
        cmd_bind_json_line(j, ix, tab, st, s, sh->lines[l]);
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
    cli_printf("  statement lines %u-%u", stmt->first, stmt->last);
    if (rec->len) {
        cli_printf(": Triton recorded it at line%s ", rec->len == 1 ? "" : "s");
        for (guint i = 0; i < rec->len; i++)
            cli_printf("%s%u", i ? ", " : "", g_array_index(rec, uint32_t, i));
        gboolean on_query = FALSE;
        for (guint i = 0; i < rec->len; i++)
            on_query |= g_array_index(rec, uint32_t, i) == line;
        if (!on_query)
            cli_printf(", so %s:%u binds to its IR", base_name(fpath), line);
    }
    putchar('\n');
}

/* ---- bind --source: the query resolved, then per kernel one answer
 * computed and printed as text or JSON ---- */

/* The source line asked about, resolved against the bundle. */
typedef struct {
    char *file;           /* as typed (owned) */
    uint32_t line;
    tk_file_id fid;
    const char *fpath;    /* the file's path in the location table */
    tk_match match;
    tk_statement stmt;    /* the statement LINE belongs to */
} source_query;

/* What one kernel has for the query: its IR lines per stage, the helper
 * code shared by several call sites, and the statement's lines that have
 * code.  Made by source_answer_compute(), printed by source_answer_text()
 * or source_answer_json(), freed by source_answer_clear(). */
typedef struct {
    const tk_kernel *kernel;
    tk_bind *ix;
    uint32_t *lines[TK_STAGE_COUNT];
    size_t n_lines[TK_STAGE_COUNT];
    tk_bind_shared shared[TK_STAGE_COUNT];
    size_t total;         /* IR lines over all stages */
    GArray *recorded;     /* uint32_t source lines with code */
    GPtrArray *disagree;  /* const char *, owned by COST: where the PTX
                             and the SASS line table disagree */
    tk_cost *cost;        /* static counts, for DISAGREE */
} source_answer;

/* Resolves --source against B into *Q: FILE:LINE split, FILE matched as
 * the library matches it (tk_file_query.h), LINE's statement found.
 * Prints why not and returns the exit status otherwise. */
static int source_query_make(tk_bundle *b, const cmd_bind_args *a, source_query *q)
{
    memset(q, 0, sizeof *q);
    if (!cli_split_line_spec(a->source, &q->file, &q->line)) {
        cli_error("--source wants FILE:LINE (e.g. vector_add.py:16), got \"%s\"",
                     a->source);
        return CLI_EXIT_USAGE;
    }
    tk_loctab *tab = tk_bundle_loctab(b);
    tk_file_query *fq = tk_file_query_new(b, q->file);
    tk_file_id *files = NULL;
    size_t n_files = tk_file_query_find(fq, NULL, 0, &files);
    tk_file_query_free(fq);
    int rc = CLI_EXIT_OK;
    if (n_files == 0) {
        cli_error("no location in %s names a file \"%s\" (tkview info lists "
                     "the files referenced)", tk_bundle_path(b), q->file);
        rc = CLI_EXIT_NOTHING;
    } else if (n_files > 1) {
        cli_error("\"%s\" names %zu files; give more of the path:", q->file, n_files);
        for (size_t i = 0; i < n_files; i++)
            cli_fprintf(stderr, "  %s\n", tk_loctab_file_path(tab, files[i]));
        rc = CLI_EXIT_USAGE;
    } else {
        q->fid = files[0];
        q->fpath = tk_loctab_file_path(tab, q->fid);
        q->match = a->exact ? TK_MATCH_EXACT : TK_MATCH_CALLED;
        /* A click is on a statement: any of its lines binds to its IR. */
        tk_bundle_statement(b, q->fid, q->line, &q->stmt);
        if (q->stmt.status == TK_STATEMENT_PAST_END) {
            cli_error("%s has %u lines: line %u is past its end", q->fpath,
                      q->stmt.n_lines, q->line);
            rc = CLI_EXIT_NO_LINE;
        }
    }
    g_free(files);
    return rc;
}

static void source_answer_clear(source_answer *r)
{
    for (tk_stage_kind s = 0; s < TK_STAGE_COUNT; s++) {
        free(r->lines[s]);
        tk_bind_shared_clear(&r->shared[s]);
    }
    if (r->recorded)
        g_array_free(r->recorded, TRUE);
    if (r->disagree)
        g_ptr_array_free(r->disagree, TRUE);
    tk_cost_free(r->cost);
    tk_bind_free(r->ix);
}

/* Computes K's answer to Q into *R.  Returns FALSE (nothing kept) when K
 * has no IR for it and QUIET_IF_NONE: without --kernel, kernels that never
 * mention the line stay quiet. */
static gboolean source_answer_compute(source_answer *r, const tk_kernel *k,
                                      tk_loctab *tab, const source_query *q,
                                      tk_stage_kind only, gboolean quiet_if_none)
{
    memset(r, 0, sizeof *r);
    r->kernel = k;
    r->ix = tk_bind_new(k, tab);
    for (tk_stage_kind s = 0; s < TK_STAGE_COUNT; s++) {
        if (only != TK_STAGE_UNKNOWN && only != s)
            continue;
        r->n_lines[s] = tk_bind_lines_to_stage(r->ix, q->fid, q->stmt.first,
                                               q->stmt.last, q->match, s,
                                               &r->lines[s]);
        r->total += r->n_lines[s];
        if (q->match == TK_MATCH_CALLED)
            tk_bind_shared_lines(r->ix, q->fid, q->stmt.first, q->stmt.last, s,
                                 &r->shared[s]);
    }
    if (r->total == 0 && quiet_if_none) {
        source_answer_clear(r);
        return FALSE;
    }
    r->recorded = recorded_lines(r->ix, q->fid, &q->stmt, q->match, only);
    /* The stages may disagree about the statement's lines (the library
     * says where: tk_cost_line_disagreements()). */
    r->disagree = g_ptr_array_new();
    if (tk_kernel_stage(k, TK_STAGE_SASS) && tk_kernel_stage(k, TK_STAGE_PTX) &&
        (only == TK_STAGE_UNKNOWN || only == TK_STAGE_SASS || only == TK_STAGE_PTX)) {
        r->cost = tk_cost_new(r->ix, k, tab, NULL);
        for (uint32_t l = q->stmt.first; l <= q->stmt.last && l >= q->stmt.first; l++) {
            const tk_cost_disagreement *d;
            size_t nd = tk_cost_line_disagreements(r->cost, q->fid, l, &d);
            for (size_t i = 0; i < nd; i++)
                g_ptr_array_add(r->disagree, (gpointer)d[i].text);
            if (l == UINT32_MAX)
                break;
        }
    }
    return TRUE;
}

/* One stage's lines on a terminal: each run of lines that share a stack
 * under one "from STACK" line, so a statement's hundreds of SASS lines
 * do not repeat it under every one. */
static void stage_lines_grouped(const source_answer *r, tk_loctab *tab,
                                const tk_stage *st, tk_stage_kind s, size_t shown)
{
    char *last = NULL;
    for (size_t l = 0; l < shown; l++) {
        char *stack = cmd_bind_stacks_string(r->ix, tab, s, r->lines[s][l]);
        if (!last || strcmp(stack, last) != 0) {
            fputs("      from ", stdout);
            int cols = cli_term_columns();
            cli_term_put(stdout, stack[0] ? stack : "(no location)",
                         stack[0] ? strlen(stack) : 13, cols > 0 ? MAX(cols - 11, 20) : 0);
            putchar('\n');
            g_free(last);
            last = stack;
        } else {
            g_free(stack);
        }
        cmd_bind_put_numbered_line(st, r->lines[s][l], "\n", 0);
    }
    g_free(last);
}

static void source_answer_text(const source_answer *r, tk_loctab *tab,
                               const source_query *q, const cmd_bind_args *a,
                               tk_stage_kind only)
{
    const tk_kernel *k = r->kernel;
    gboolean term = cli_term_columns() > 0;
    cli_term_line("%s %.12s: %s:%u (%s)", tk_kernel_name(k), tk_kernel_hash(k),
                  term ? base_name(q->fpath) : q->fpath, q->line,
                  a->exact ? "this line only" : "this line and what it called");
    put_statement_text(q->fpath, q->line, &q->stmt, r->recorded);
    /* On a terminal, the counts of every stage first: the summary one
     * reads before scrolling through lines. */
    for (tk_stage_kind s = 0; term && s < TK_STAGE_COUNT; s++) {
        if (!cli_stage_listed(k, s, only))
            continue;
        const tk_stage *st = tk_kernel_stage(k, s);
        if (!st)
            cli_printf("  %s: (stage not found)\n", tk_stage_kind_name(s));
        else
            cmd_bind_put_stage_count(st, s, r->lines[s], r->n_lines[s]);
    }
    for (tk_stage_kind s = 0; s < TK_STAGE_COUNT; s++) {
        if (!cli_stage_listed(k, s, only))
            continue;
        const tk_stage *st = tk_kernel_stage(k, s);
        if (!st) {
            if (!term)
                cli_printf("  %s: (stage not found)\n", tk_stage_kind_name(s));
            continue;
        }
        size_t shown = cmd_bind_lines_shown(a, r->n_lines[s]);
        if (term) {
            if (r->n_lines[s])
                cli_printf("  %s:\n", tk_stage_kind_name(s));
            stage_lines_grouped(r, tab, st, s, shown);
        } else {
            cmd_bind_put_stage_count(st, s, r->lines[s], r->n_lines[s]);
            for (size_t l = 0; l < shown; l++) {
                cmd_bind_put_numbered_line(st, r->lines[s][l], "\n            ", 0);
                cmd_bind_put_stacks(r->ix, tab, s, r->lines[s][l], 12);
                putchar('\n');
            }
        }
        cmd_bind_put_more(s, r->n_lines[s] - shown);
        if (r->shared[s].n_lines)
            put_shared_text(r->ix, tab, st, s, &r->shared[s], a->shared);
        if ((s == TK_STAGE_SASS || (s == TK_STAGE_PTX && only == TK_STAGE_PTX)) &&
            r->disagree)
            for (guint i = 0; i < r->disagree->len; i++)
                cli_printf("    stages disagree: %s\n", (const char *)r->disagree->pdata[i]);
    }
    if (a->diag)
        cli_diag_on_lines(a->diag, k, q->fpath, q->stmt.first, q->stmt.last,
                          !a->exact, NULL);
}

static void source_answer_json(JsonBuilder *j, const source_answer *r,
                               tk_loctab *tab, const source_query *q,
                               const cmd_bind_args *a, tk_stage_kind only)
{
    const tk_kernel *k = r->kernel;
    json_builder_begin_object(j);
    cmd_bind_json_kernel_id(j, k);
    json_builder_set_member_name(j, "recorded_lines");
    json_builder_begin_array(j);
    for (guint i = 0; i < r->recorded->len; i++)
        json_builder_add_int_value(j, g_array_index(r->recorded, uint32_t, i));
    json_builder_end_array(j);
    json_builder_set_member_name(j, "stages");
    json_builder_begin_object(j);
    for (tk_stage_kind s = 0; s < TK_STAGE_COUNT; s++) {
        if (!cli_stage_listed(k, s, only))
            continue;
        const tk_stage *st = tk_kernel_stage(k, s);
        json_builder_set_member_name(j, tk_stage_kind_name(s));
        if (!st) {
            json_builder_add_null_value(j);
            continue;
        }
        json_builder_begin_array(j);
        for (size_t l = 0; l < r->n_lines[s]; l++)
            cmd_bind_json_line(j, r->ix, tab, st, s, r->lines[s][l]);
        json_builder_end_array(j);
    }
    json_builder_end_object(j);
    /* What the answer leaves out: helper code shared by call sites. */
    json_builder_set_member_name(j, "shared");
    json_builder_begin_object(j);
    for (tk_stage_kind s = 0; s < TK_STAGE_COUNT; s++)
        if (r->shared[s].n_lines) {
            json_builder_set_member_name(j, tk_stage_kind_name(s));
            json_shared(j, r->ix, tab, tk_kernel_stage(k, s), s, &r->shared[s]);
        }
    json_builder_end_object(j);
    json_builder_set_member_name(j, "stages_disagree");
    json_builder_begin_array(j);
    for (guint i = 0; r->disagree && i < r->disagree->len; i++) {
        const char *t = r->disagree->pdata[i];
        cli_json_string(j, t, strlen(t));
    }
    json_builder_end_array(j);
    if (a->diag)
        cli_diag_on_lines(a->diag, k, q->fpath, q->stmt.first, q->stmt.last,
                          !a->exact, j);
    json_builder_end_object(j);
}

/* The JSON answer's opening: the query, then the kernels' array. */
static JsonBuilder *source_json_begin(const source_query *q, const cmd_bind_args *a)
{
    JsonBuilder *j = json_builder_new();
    json_builder_begin_object(j);
    json_builder_set_member_name(j, "query");
    json_builder_begin_object(j);
    json_builder_set_member_name(j, "file");
    cli_json_string(j, q->fpath, strlen(q->fpath));
    json_builder_set_member_name(j, "line");
    json_builder_add_int_value(j, q->line);
    json_builder_set_member_name(j, "match");
    json_builder_add_string_value(j, a->exact ? "exact" : "called");
    json_statement(j, &q->stmt);
    json_builder_end_object(j);
    json_builder_set_member_name(j, "kernels");
    json_builder_begin_array(j);
    return j;
}

/* The text answer when no kernel had IR for the line. */
static void source_none_text(const source_query *q)
{
    if (q->stmt.status == TK_STATEMENT_NO_CODE)
        cli_printf("%s:%u is a blank or comment line: no code, no IR\n", q->fpath,
                   q->line);
    else if (q->stmt.status == TK_STATEMENT_CODE && q->stmt.first != q->stmt.last)
        cli_printf("no IR line is bound to %s:%u (statement lines %u-%u)\n", q->fpath,
                      q->line, q->stmt.first, q->stmt.last);
    else
        cli_printf("no IR line is bound to %s:%u\n", q->fpath, q->line);
}

int cmd_bind_source(tk_bundle *b, const cmd_bind_args *a, tk_stage_kind only)
{
    source_query q;
    int rc = source_query_make(b, a, &q);
    const tk_kernel *one = NULL;
    if (rc == CLI_EXIT_OK && a->kernel && !(one = cli_pick_kernel(b, a->kernel)))
        rc = CLI_EXIT_USAGE;
    if (rc != CLI_EXIT_OK) {
        g_free(q.file);
        return rc;
    }
    tk_loctab *tab = tk_bundle_loctab(b);
    JsonBuilder *j = a->common.json ? source_json_begin(&q, a) : NULL;
    size_t total = 0;
    for (size_t i = 0; i < tk_bundle_kernel_count(b); i++) {
        const tk_kernel *k = tk_bundle_kernel(b, i);
        source_answer r;
        if ((one && k != one) ||
            !source_answer_compute(&r, k, tab, &q, only, one == NULL))
            continue;
        total += r.total;
        if (j)
            source_answer_json(j, &r, tab, &q, a, only);
        else
            source_answer_text(&r, tab, &q, a, only);
        source_answer_clear(&r);
    }
    if (j) {
        json_builder_end_array(j);
        json_builder_end_object(j);
        cli_json_print(j);
        g_object_unref(j);
    } else if (total == 0) {
        source_none_text(&q);
    }
    g_free(q.file);
    return total ? CLI_EXIT_OK : CLI_EXIT_NOTHING;
}
