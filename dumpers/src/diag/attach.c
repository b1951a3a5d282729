/* attach.c - messages tied to the bundle's kernels, source lines, IR
 * lines and passes, by the rules tk_diag.h states.  Where the text and the
 * dumps do not decide, the answer stays unknown. */
#include <string.h>

#include "diag/internal.h"
#include "tkdump/tk_input_file.h"
#include "tkdump/tk_loctab.h"

/* The kernel entry for KERNEL, or for NAME alone (KERNEL NULL), made on
 * first use. */
static size_t kernel_entry(tk_diag_set *set, const tk_kernel *kernel,
                           const char *name)
{
    for (size_t i = 0; i < set->kernels->len; i++) {
        tk_diag_kernel *k = &g_array_index(set->kernels, tk_diag_kernel, i);
        if (kernel ? k->kernel == kernel
                   : (!k->kernel && ((!name && !k->name) ||
                                     (name && k->name && !strcmp(name, k->name)))))
            return i;
    }
    tk_diag_kernel k = {0};
    k.kernel = kernel;
    k.name = kernel ? diag_str(set, tk_kernel_name(kernel), -1)
                    : (name ? diag_str(set, name, -1) : NULL);
    k.hash = kernel ? diag_str(set, tk_kernel_hash(kernel), -1) : NULL;
    diag_summary_init(&k.ptxas);
    g_array_append_val(set->kernels, k);
    return set->kernels->len - 1;
}

static int has_cubin(const tk_kernel *k)
{
    const tk_kernel_meta *m = tk_kernel_metadata(k);
    return tk_kernel_stage(k, TK_STAGE_SASS) != NULL ||
           (m && m->registers >= 0);
}

/* The one bundle kernel a ptxas message or summary of function NAME is
 * about (SUMMARY: what ptxas printed of it, or NULL; FATAL: ptxas gave up).
 * NULL when none or several fit. */
static const tk_kernel *ptxas_kernel(tk_bundle *bundle, const char *name,
                                     const tk_diag_ptxas_summary *summary,
                                     int fatal)
{
    if (!bundle || !name)
        return NULL;
    const tk_kernel *only = NULL, *fit = NULL;
    size_t n = 0, n_fit = 0;
    for (size_t i = 0; i < tk_bundle_kernel_count(bundle); i++) {
        const tk_kernel *k = tk_bundle_kernel(bundle, i);
        if (strcmp(tk_kernel_name(k), name) != 0)
            continue;
        n++;
        only = k;
        const tk_kernel_meta *m = tk_kernel_metadata(k);
        int ok;
        if (fatal)
            ok = !has_cubin(k);
        else if (summary && summary->present && m)
            /* The cubin's registers, and its local memory (the stack
             * frame ptxas reports) where both are known. */
            ok = m->registers == summary->registers &&
                 (m->spill_bytes < 0 || summary->stack_frame < 0 ||
                  m->spill_bytes == summary->stack_frame);
        else
            ok = 0;
        if (ok) {
            n_fit++;
            fit = k;
        }
    }
    if (n == 1)
        return only;
    return n_fit == 1 ? fit : NULL;
}

/* The stage file of KERNEL to look for MLIR locations in: TTIR, else the
 * first one found. */
static const tk_stage *locating_stage(const tk_kernel *k)
{
    static const tk_stage_kind order[] = {TK_STAGE_TTIR, TK_STAGE_TTGIR,
                                          TK_STAGE_LLIR, TK_STAGE_PTX};
    for (size_t i = 0; i < G_N_ELEMENTS(order); i++) {
        const tk_stage *s = tk_kernel_stage(k, order[i]);
        if (s)
            return s;
    }
    return NULL;
}

/* The first line of STAGE located at FILE:LINE (and COL when not 0): by
 * the innermost frame (INNERMOST) or by any frame.  0 when none. */
static uint32_t stage_line_at(const tk_stage *stage, const tk_loctab *tab,
                              const char *file, uint32_t line, uint32_t col,
                              int innermost)
{
    uint32_t n = tk_stage_line_count(stage);
    for (uint32_t l = 1; l <= n; l++) {
        const tk_stack_id *ids;
        size_t ns = tk_stage_line_stacks(stage, l, &ids);
        for (size_t s = 0; s < ns; s++) {
            size_t nf;
            const tk_frame *fr = tk_loctab_stack_frames(tab, ids[s], &nf);
            for (size_t f = 0; f < nf && (!innermost || f == 0); f++)
                if (fr[f].line == line &&
                    (col == 0 || fr[f].col == 0 || fr[f].col == col) &&
                    strcmp(tk_loctab_file_path(tab, fr[f].file), file) == 0)
                    return l;
        }
    }
    return 0;
}

/* An MLIR message's kernel: the one kernel whose IR has its source line. */
static const tk_kernel *mlir_kernel(tk_bundle *bundle, const tk_diag_frame *f)
{
    if (!bundle || !f)
        return NULL;
    const tk_loctab *tab = tk_bundle_loctab(bundle);
    const tk_kernel *found = NULL;
    for (size_t i = 0; i < tk_bundle_kernel_count(bundle); i++) {
        const tk_kernel *k = tk_bundle_kernel(bundle, i);
        const tk_stage *s = locating_stage(k);
        if (s && stage_line_at(s, tab, f->file, f->line, 0, 0)) {
            if (found)
                return NULL;
            found = k;
        }
    }
    return found;
}

/* The frames of the stack PTX line LINE of KERNEL carries (its governing
 * .loc), into IT.  Returns 1 when found. */
static int ptx_line_stack(tk_diag_set *set, tk_bundle *bundle,
                          const tk_kernel *kernel, uint32_t line, diag_item *it)
{
    const tk_stage *ptx = tk_kernel_stage(kernel, TK_STAGE_PTX);
    if (!ptx)
        return 0;
    const tk_stack_id *ids;
    if (tk_stage_line_stacks(ptx, line, &ids) == 0)
        return 0;
    const tk_loctab *tab = tk_bundle_loctab(bundle);
    size_t nf;
    const tk_frame *fr = tk_loctab_stack_frames(tab, ids[0], &nf);
    for (size_t f = 0; f < nf; f++) {
        tk_diag_frame df = {diag_str(set, tk_loctab_file_path(tab, fr[f].file), -1),
                            fr[f].line, fr[f].col};
        g_array_append_val(it->frames, df);
    }
    return nf > 0;
}

static char *strip(const char *s)
{
    return g_strstrip(g_strdup(s));
}

/* A front-end error's line: its snippet's `def` line found in one of the
 * traceback's files, every snippet line checked against the file. */
static void frontend_place(tk_diag_set *set, tk_bundle *bundle,
                           const char *source_dir, diag_item *it,
                           tk_diags *diags)
{
    if (!it->fe_snippet || it->fe_snippet->len < it->fe_line)
        return;
    for (guint i = it->fe_files->len; i-- > 0;) {
        const char *orig = it->fe_files->pdata[i];
        const char *path = NULL;
        char *own = NULL;
        int refused = 0;
        if (bundle) {
            tk_loctab *tab = tk_bundle_loctab(bundle);
            tk_file_id fid = tk_loctab_file(tab, orig, strlen(orig));
            path = tk_bundle_resolve_source(bundle, fid, diags);
            /* A file the bundle's trust rule refused is not looked for
             * under another name either. */
            refused = !path && tk_bundle_source_refused(bundle, fid);
        }
        if (!path && !refused && source_dir) {
            char *base = g_path_get_basename(orig);
            own = g_build_filename(source_dir, base, NULL);
            g_free(base);
            path = own;
        }
        size_t len;
        char *why = NULL;
        char *text = path ? tk_input_file_read(path, TK_INPUT_FILE_SOURCE, &len,
                                               &why)
                          : NULL;
        g_free(why);
        g_free(own);
        if (!text)
            continue;
        char **lines = g_strsplit(text, "\n", -1);
        g_free(text);
        guint n = g_strv_length(lines);
        guint hits = 0, at = 0;
        for (guint l = 0; l + it->fe_snippet->len <= n; l++) {
            gboolean same = TRUE;
            for (guint k = 0; same && k < it->fe_snippet->len; k++) {
                char *a = strip(lines[l + k]), *b = strip(it->fe_snippet->pdata[k]);
                same = strcmp(a, b) == 0;
                g_free(a);
                g_free(b);
            }
            if (same) {
                hits++;
                at = l + 1;
            }
        }
        g_strfreev(lines);
        if (hits == 1) {
            tk_diag_frame f = {orig, at + it->fe_line - 1, it->fe_col + 1};
            g_array_append_val(it->frames, f);
            return;
        }
    }
    char *note = g_strdup_printf("at %u:%u of %s (lines counted from its def)",
                                 it->fe_line, it->fe_col,
                                 it->kernel_name ? it->kernel_name : "the kernel");
    g_ptr_array_add(it->notes, (char *)diag_str(set, note, -1));
    g_free(note);
}

void tk_diag_set_attach(tk_diag_set *set, tk_bundle *bundle,
                        const char *source_dir, tk_diags *diags)
{
    if (!set || set->attached)
        return;
    set->attached = 1;
    for (size_t i = 0; bundle && i < tk_bundle_kernel_count(bundle); i++)
        kernel_entry(set, tk_bundle_kernel(bundle, i), NULL);

    for (guint i = 0; i < set->items->len; i++) {
        diag_item *it = set->items->pdata[i];
        const tk_kernel *k = NULL;
        const tk_diag_known *known = tk_diag_entry_explain(&it->pub);
        switch (it->pub.origin) {
        case TK_DIAG_ORIGIN_PTXAS:
            k = ptxas_kernel(bundle, it->kernel_name,
                             it->has_summary ? &it->summary : NULL,
                             it->pub.level == TK_DIAG_LEVEL_ERROR);
            if (k && it->pub.ir_line)
                ptx_line_stack(set, bundle, k, it->pub.ir_line, it);
            break;
        case TK_DIAG_ORIGIN_FRONTEND:
            frontend_place(set, bundle,
                           source_dir ? source_dir : set->source_dir, it,
                           diags);
            break;
        default: {
            const tk_diag_frame *f = it->frames->len
                ? &g_array_index(it->frames, tk_diag_frame, 0) : NULL;
            k = mlir_kernel(bundle, f);
            if (!it->pub.has_stage && known && known->pass) {
                it->pub.has_stage = 1;
                it->pub.stage = known->stage;
            }
            if (k && f && it->pub.has_stage) {
                const tk_stage *s = tk_kernel_stage(k, it->pub.stage);
                if (s)
                    it->pub.ir_line = stage_line_at(s, tk_bundle_loctab(bundle),
                                                    f->file, f->line, f->column, 1);
            }
            break;
        }
        }
        if (!it->pub.pass && known && known->pass) {
            it->pub.pass = known->pass;
            it->pub.pass_from = "table";
        }
        if (k || it->kernel_name)
            it->pub.kernel = kernel_entry(set, k, k ? NULL : it->kernel_name);
        it->pub.notes = (const char *const *)it->notes->pdata;
        it->pub.n_notes = it->notes->len;
        it->pub.stack = (const tk_diag_frame *)(void *)it->frames->data;
        it->pub.n_stack = it->frames->len;
    }
    /* Failed: an error tied to it. */
    for (guint i = 0; i < set->items->len; i++) {
        diag_item *it = set->items->pdata[i];
        if (it->pub.level == TK_DIAG_LEVEL_ERROR && it->pub.kernel != SIZE_MAX)
            g_array_index(set->kernels, tk_diag_kernel, it->pub.kernel).failed = 1;
    }
    /* ptxas's summaries into their kernels. */
    for (guint i = 0; i < set->summaries->len; i++) {
        diag_summary *sm = &g_array_index(set->summaries, diag_summary, i);
        const tk_kernel *k = ptxas_kernel(bundle, sm->name, &sm->s, 0);
        size_t e = kernel_entry(set, k, k ? NULL : sm->name);
        g_array_index(set->kernels, tk_diag_kernel, e).ptxas = sm->s;
    }
}
