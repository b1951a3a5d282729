/* frames.c - inline stacks cut in the middle when too deep (see frames.h). */
#include "read/frames.h"

#include <string.h>

void read_frames_push(read_frames *f, tk_frame fr)
{
    uint64_t i = f->n++;
    if (i < READ_MAX_FRAMES)
        f->v[i] = fr;
    else
        f->v[READ_FRAMES_INNER + (i - READ_FRAMES_INNER) % READ_FRAMES_OUTER] = fr;
}

void read_frames_push_n(read_frames *f, const tk_frame *fr, size_t n)
{
    for (size_t i = 0; i < n; i++)
        read_frames_push(f, fr[i]);
}

size_t read_frames_take(const read_frames *f, tk_frame *out)
{
    if (f->n <= READ_MAX_FRAMES) {
        memcpy(out, f->v, (size_t)f->n * sizeof *out);
        return (size_t)f->n;
    }
    memcpy(out, f->v, READ_FRAMES_INNER * sizeof *out);
    /* The kept outer frames are those pushed last, N - OUTER .. N - 1. */
    for (size_t k = 0; k < READ_FRAMES_OUTER; k++) {
        uint64_t i = f->n - READ_FRAMES_OUTER + k;
        out[READ_FRAMES_INNER + k] =
            f->v[READ_FRAMES_INNER + (i - READ_FRAMES_INNER) % READ_FRAMES_OUTER];
    }
    return READ_MAX_FRAMES;
}

tk_stack_id read_frames_intern(const read_frames *f, tk_loctab *tab)
{
    tk_frame kept[READ_MAX_FRAMES];
    size_t n = read_frames_take(f, kept);
    return n ? tk_loctab_stack(tab, kept, n) : TK_NO_STACK;
}

void read_frames_warn(const read_frames *f, tk_diags *diags, const char *name,
                      uint32_t line)
{
    uint64_t dropped = read_frames_dropped(f);
    if (!dropped)
        return;
    tk_diags_add(diags, TK_DIAG_WARNING, name, line,
                 "inline stack of %llu frames is deeper than %d: its %llu "
                 "middle frames are dropped (the %d innermost and the %d "
                 "outermost are kept)",
                 (unsigned long long)f->n, READ_MAX_FRAMES,
                 (unsigned long long)dropped, READ_FRAMES_INNER,
                 READ_FRAMES_OUTER);
}
