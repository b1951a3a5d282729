/* lines.c - a text_buf's lines as a read_lines. */
#include "read/lines.h"

static int text_each(const read_lines *self, uint32_t first, uint32_t last,
                     read_line_fn fn, void *user)
{
    const text_buf *t = self->impl;
    for (uint32_t l = first; l <= last && l <= t->n_lines; l++) {
        size_t len;
        const char *s = text_line(t, l, &len);
        int rc = fn(user, l, s, len);
        if (rc)
            return rc;
    }
    return 0;
}

void read_lines_of_text(read_lines *out, const text_buf *text)
{
    out->name = text->name;
    out->n_lines = text->n_lines;
    out->n_bytes = text->len;
    out->each = text_each;
    out->impl = text;
}
