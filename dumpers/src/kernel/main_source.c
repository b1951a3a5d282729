/* main_source.c - tk_kernel_main_source(): the file of the kernel's own code.
 *
 * Every inline stack ends at the kernel function itself: its outermost frame
 * is a line of the @triton.jit kernel being compiled, whatever helpers
 * (tl.sum in triton/language/standard.py, a @triton.jit function from another
 * module) the inner frames went through.  So the file most outermost frames
 * are in is the kernel author's file, which front ends open first.  Counting
 * innermost frames instead picks standard.py for a short kernel that calls
 * library code on most of its lines.
 *
 * One stage is counted, the first that has located lines (TTIR; TTGIR for a
 * Gluon kernel), one vote per line and file: later stages repeat the same
 * frames, and in a USE_IR_LOC capture they point at the TTIR or TTGIR file
 * instead of the Python source.
 */
#include "kernel/kernel.h"

#include <string.h>

tk_file_id tk_kernel_main_source(const tk_kernel *kernel, const tk_loctab *tab)
{
    if (!kernel || !tab)
        return TK_NO_FILE;
    const tk_stage *st = NULL;
    for (int k = 0; k < TK_STAGE_COUNT && !st; k++) {
        const tk_stage *s = tk_kernel_stage(kernel, (tk_stage_kind)k);
        if (s && tk_stage_located_line_count(s) > 0)
            st = s;
    }
    if (!st)
        return TK_NO_FILE;
    GHashTable *votes = g_hash_table_new(NULL, NULL); /* file + 1 -> count */
    GHashTable *line_files = g_hash_table_new(NULL, NULL);
    uint32_t n_lines = tk_stage_line_count(st);
    for (uint32_t line = 1; line <= n_lines; line++) {
        const tk_stack_id *ids;
        size_t n = tk_stage_line_stacks(st, line, &ids);
        g_hash_table_remove_all(line_files);
        for (size_t i = 0; i < n; i++) {
            size_t nf;
            const tk_frame *fr = tk_loctab_stack_frames(tab, ids[i], &nf);
            if (nf == 0)
                continue;
            gpointer key = GUINT_TO_POINTER(fr[nf - 1].file + 1);
            if (!g_hash_table_add(line_files, key))
                continue; /* one vote per line and file */
            guint c = GPOINTER_TO_UINT(g_hash_table_lookup(votes, key));
            g_hash_table_insert(votes, key, GUINT_TO_POINTER(c + 1));
        }
    }
    tk_file_id best = TK_NO_FILE;
    guint best_n = 0;
    GHashTableIter it;
    gpointer key, value;
    g_hash_table_iter_init(&it, votes);
    while (g_hash_table_iter_next(&it, &key, &value)) {
        tk_file_id f = (tk_file_id)(GPOINTER_TO_UINT(key) - 1);
        guint c = GPOINTER_TO_UINT(value);
        /* A tie goes to the first path in byte order, so every front end
         * that asks gets the same file whatever the table's order. */
        if (c > best_n ||
            (c == best_n && strcmp(tk_loctab_file_path(tab, f),
                                   tk_loctab_file_path(tab, best)) < 0)) {
            best = f;
            best_n = c;
        }
    }
    g_hash_table_unref(line_files);
    g_hash_table_unref(votes);
    return best;
}
