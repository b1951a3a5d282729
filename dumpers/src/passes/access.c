/* access.c - what a built tk_passes index holds (its path, size, dumps and
 * other text): the shared base of passes/, read by the indexer (index.c)
 * and the attribution of dumps to compiles (attrib.c). */
#include "passes/internal.h"

const char *tk_passes_path(const tk_passes *p)
{
    return p->path;
}

void passes_set_path(tk_passes *p, const char *path)
{
    g_free(p->path);
    p->path = g_strdup(path);
}

uint64_t tk_passes_file_size(const tk_passes *p)
{
    return p->size;
}

uint64_t tk_passes_line_count(const tk_passes *p)
{
    return p->n_lines;
}

size_t tk_passes_count(const tk_passes *p)
{
    return p->dumps->len;
}

const tk_pass_dump *tk_passes_get(const tk_passes *p, size_t i)
{
    return i < p->dumps->len ? &g_array_index(p->dumps, tk_pass_dump, i)
                             : NULL;
}

size_t tk_passes_other_count(const tk_passes *p)
{
    return p->others->len;
}

const tk_pass_range *tk_passes_other(const tk_passes *p, size_t i)
{
    return i < p->others->len ? &g_array_index(p->others, tk_pass_range, i)
                              : NULL;
}
