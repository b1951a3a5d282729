/* linemap.c - grouping (line, stack) pairs by line. */
#include "read/linemap.h"

#include <glib.h>
#include <stdlib.h>
#include <string.h>

void read_linemap_builder_init(read_linemap_builder *b)
{
    memset(b, 0, sizeof *b);
}

void read_linemap_add(read_linemap_builder *b, uint32_t line, tk_stack_id stack)
{
    if (stack == TK_NO_STACK || line == 0)
        return;
    /* The same stack on consecutive adds for one line (a line with several
     * located arguments pointing at one alias) is the common repeat. */
    if (b->n && b->pairs[b->n - 1].line == line &&
        b->pairs[b->n - 1].stack == stack)
        return;
    if (b->n == b->cap) {
        b->cap = b->cap ? b->cap * 2 : 1024;
        b->pairs = g_renew(read_line_stack, b->pairs, b->cap);
    }
    b->pairs[b->n++] = (read_line_stack){line, stack};
}

void read_linemap_builder_clear(read_linemap_builder *b)
{
    g_free(b->pairs);
    memset(b, 0, sizeof *b);
}

static int cmp_id(const void *a, const void *b)
{
    tk_stack_id x = *(const tk_stack_id *)a, y = *(const tk_stack_id *)b;
    return (x > y) - (x < y);
}

void read_linemap_finish(read_linemap_builder *b, uint32_t n_lines,
                         read_linemap *m)
{
    memset(m, 0, sizeof *m);
    m->n_lines = n_lines;
    m->row = g_new0(uint32_t, (size_t)n_lines + 2);
    /* Counting sort by line: stable, so a line's stacks keep the order the
     * reader found them in (an op's own location before its arguments'). */
    size_t kept = 0;
    for (size_t i = 0; i < b->n; i++)
        if (b->pairs[i].line <= n_lines) {
            m->row[b->pairs[i].line + 1]++;
            kept++;
        }
    for (uint32_t l = 1; l <= n_lines; l++)
        m->row[l + 1] += m->row[l];
    tk_stack_id *sorted = g_new(tk_stack_id, kept ? kept : 1);
    uint32_t *fill = g_memdup2(m->row, ((size_t)n_lines + 2) * sizeof(uint32_t));
    for (size_t i = 0; i < b->n; i++) {
        uint32_t l = b->pairs[i].line;
        if (l <= n_lines)
            sorted[fill[l]++] = b->pairs[i].stack;
    }
    g_free(fill);
    /* Drop repeats within each line, compacting in place. */
    uint32_t w = 0;
    for (uint32_t l = 1; l <= n_lines; l++) {
        uint32_t from = m->row[l], to = m->row[l + 1];
        m->row[l] = w;
        if (to - from > 32) {
            /* A hostile line with many locations: sort rather than scan, so
             * the cost stays n log n.  Order is lost only for such lines. */
            qsort(sorted + from, to - from, sizeof *sorted, cmp_id);
            for (uint32_t i = from; i < to; i++)
                if (i == from || sorted[i] != sorted[i - 1])
                    sorted[w++] = sorted[i];
            if (w > m->row[l])
                m->n_located++;
            continue;
        }
        for (uint32_t i = from; i < to; i++) {
            gboolean dup = FALSE;
            for (uint32_t j = m->row[l]; j < w && !dup; j++)
                dup = sorted[j] == sorted[i];
            if (!dup)
                sorted[w++] = sorted[i];
        }
        if (w > m->row[l])
            m->n_located++;
    }
    m->row[n_lines + 1] = w;
    m->row[0] = 0;
    m->stacks = sorted;
    read_linemap_builder_clear(b);
}

void read_linemap_clear(read_linemap *m)
{
    g_free(m->row);
    g_free(m->stacks);
    memset(m, 0, sizeof *m);
}
