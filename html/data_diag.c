/* data_diag.c - a kernel's compiler messages (tk_diag.h) as the report's
 * data: data/ID/diag.js, loaded by assets/diag.js for the marks in the
 * gutter and the Diagnostics list.
 *
 *   {"failed": bool,
 *    "list": [{"origin", "severity", "code", "message", "notes": [...],
 *              "file": file id or -1, "line", "column", "stack": [[file id,
 *              line, column], ...], "stage", "ir_line", "pass",
 *              "pass_step", "pass_says", "meaning", "try"}, ...]}
 *
 * File ids are the location table's (those of files.js), so the page
 * finds a message's source line as it finds any other.  The meaning and
 * what to try come from the library's table (tk_diag_entry_explain()):
 * the page only shows them.  "pass_step" is the step of the kernel's pass
 * list the message's pass is (tk_diag_entry_step(), the rule the viewer
 * and `tkview diagnostics` use too), null when unknown: the list links it
 * as #pass=N; "pass_says" is what the front ends say about it
 * (tk_diag_step_sentence(): which step, or why none), null without a
 * pass or a timeline.  Written only when the compiler said something
 * about the kernel.
 */
#include <string.h>

#include "report.h"
#include "tkdump/tk_diag_pass.h"

static void write_file(jw *w, tk_loctab *tab, const char *path)
{
    if (!path) {
        jw_int(w, -1);
        return;
    }
    jw_int(w, (int64_t)tk_loctab_file(tab, path, strlen(path)));
}

static void write_entry(jw *w, tk_loctab *tab, const tk_diag_entry *e,
                        const tk_diag_step *step)
{
    const tk_diag_frame *f = e->n_stack ? &e->stack[0] : NULL;
    jw_obj(w);
    jw_key(w, "origin");
    jw_str(w, tk_diag_origin_name(e->origin));
    jw_key(w, "severity");
    jw_str(w, tk_diag_level_name(e->level));
    jw_key(w, "code");
    jw_str(w, e->code);
    jw_key(w, "message");
    jw_str(w, e->message);
    jw_key(w, "notes");
    jw_arr(w);
    for (size_t i = 0; i < e->n_notes; i++)
        jw_str(w, e->notes[i]);
    jw_arr_end(w);
    jw_key(w, "file");
    write_file(w, tab, f ? f->file : NULL);
    jw_key(w, "line");
    jw_int(w, f ? f->line : 0);
    jw_key(w, "column");
    jw_int(w, f ? f->column : 0);
    jw_key(w, "stack");
    jw_arr(w);
    for (size_t i = 0; i < e->n_stack; i++) {
        jw_arr(w);
        write_file(w, tab, e->stack[i].file);
        jw_int(w, e->stack[i].line);
        jw_int(w, e->stack[i].column);
        jw_arr_end(w);
    }
    jw_arr_end(w);
    jw_key(w, "stage");
    jw_str(w, e->has_stage ? tk_stage_kind_name(e->stage) : NULL);
    jw_key(w, "ir_line");
    jw_int(w, e->ir_line);
    jw_key(w, "pass");
    jw_str(w, e->pass);
    jw_key(w, "pass_step");
    if (step && step->step != TK_TL_NONE)
        jw_int(w, (int64_t)step->step);
    else
        jw_null(w);
    char *says = step ? tk_diag_step_sentence(step) : NULL;
    jw_key(w, "pass_says");
    jw_str(w, says);
    g_free(says);
    const tk_diag_known *k = tk_diag_entry_explain(e);
    jw_key(w, "meaning");
    jw_str(w, k ? k->meaning : NULL);
    jw_key(w, "try");
    jw_str(w, k ? k->try_this : NULL);
    jw_obj_end(w);
}

void html_report_diag_count(html_report *r, html_report_kernel *rk)
{
    size_t ki = tk_diag_set_find_kernel(r->diag, rk->kernel);
    if (ki == SIZE_MAX)
        return;
    rk->failed = tk_diag_set_kernel(r->diag, ki)->failed;
    size_t n = 0;
    for (size_t i = 0; i < tk_diag_set_count(r->diag); i++)
        n += tk_diag_set_entry(r->diag, i)->kernel == ki;
    rk->n_diag = n;
}

void html_report_diag_steps(html_report *r, html_report_kernel *rk,
                            const tk_timeline *tl)
{
    size_t ki = tk_diag_set_find_kernel(r->diag, rk->kernel);
    if (ki == SIZE_MAX || !tl)
        return;
    GArray *steps = g_array_new(FALSE, FALSE, sizeof(tk_diag_step));
    for (size_t i = 0; i < tk_diag_set_count(r->diag); i++) {
        const tk_diag_entry *e = tk_diag_set_entry(r->diag, i);
        if (e->kernel != ki)
            continue;
        tk_diag_step step = tk_diag_entry_step(e, tl);
        g_array_append_val(steps, step);
    }
    rk->n_diag_steps = steps->len;
    rk->diag_steps = (tk_diag_step *)(void *)g_array_free(steps, FALSE);
}

int html_report_diag_data(html_report *r, html_report_kernel *rk)
{
    size_t ki = tk_diag_set_find_kernel(r->diag, rk->kernel);
    if (ki == SIZE_MAX || !rk->n_diag)
        return 0;
    const tk_diag_kernel *dk = tk_diag_set_kernel(r->diag, ki);
    tk_loctab *tab = tk_bundle_loctab(r->bundle);
    GString *g = g_string_new(NULL);
    jw w;
    jw_init(&w, g);
    jw_obj(&w);
    jw_key(&w, "failed");
    jw_bool(&w, dk->failed);
    jw_key(&w, "list");
    jw_arr(&w);
    size_t n = 0;
    for (size_t i = 0; i < tk_diag_set_count(r->diag); i++) {
        const tk_diag_entry *e = tk_diag_set_entry(r->diag, i);
        if (e->kernel != ki)
            continue;
        write_entry(&w, tab, e,
                    n < rk->n_diag_steps ? &rk->diag_steps[n] : NULL);
        n++;
    }
    jw_arr_end(&w);
    jw_obj_end(&w);
    char rel[64], key[64];
    g_snprintf(rel, sizeof rel, "data/%s/diag.js", rk->id);
    g_snprintf(key, sizeof key, "%s/diag", rk->id);
    int rc = html_report_put(r, rel, key, g);
    g_string_free(g, TRUE);
    return rc;
}
