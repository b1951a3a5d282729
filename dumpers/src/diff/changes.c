/* changes.c - what "a change" of a diff is (tk_diff_changes(), tk_diff.h):
 * one group of tk_diff_group() with the default context, its changed lines
 * only.  Before this, the viewer counted delete, insert and replace hunks
 * and the report counted groups, and the same pass had 8 changes in one
 * and 3 in the other. */
#include <stdlib.h>

#include "diff/internal.h"

typedef struct {
    tk_hunk *v;
    size_t n, cap;
    int oom;
} changes;

static int collect(const tk_hunk *h, void *user)
{
    changes *c = user;
    if (h->tag == TK_HUNK_GROUP) {
        if (c->n == c->cap) {
            size_t cap = c->cap ? 2 * c->cap : 16;
            tk_hunk *v = realloc(c->v, cap * sizeof *v);
            if (!v) {
                c->oom = 1;
                return 1;
            }
            c->v = v;
            c->cap = cap;
        }
        /* empty until its first changed hunk */
        c->v[c->n++] = (tk_hunk){TK_HUNK_GROUP, h->a1, h->a0, h->b1, h->b0};
        return 0;
    }
    if (h->tag == TK_HUNK_EQUAL)
        return 0;
    tk_hunk *g = &c->v[c->n - 1];
    if (h->a0 < g->a0)
        g->a0 = h->a0;
    if (h->a1 > g->a1)
        g->a1 = h->a1;
    if (h->b0 < g->b0)
        g->b0 = h->b0;
    if (h->b1 > g->b1)
        g->b1 = h->b1;
    return 0;
}

size_t tk_diff_changes(const tk_hunk *hunks, size_t n, tk_hunk **out)
{
    changes c = {0};
    tk_diff_group(hunks, n, TK_DIFF_CONTEXT, collect, &c);
    if (c.oom || c.n == 0) {
        free(c.v);
        *out = NULL;
        return 0;
    }
    *out = c.v;
    return c.n;
}
