/* frames.h - the one rule for inline stacks too deep to keep (internal).
 *
 * Every reader (MLIR, LLVM IR, PTX, SASS) builds its stacks through a
 * read_frames: frames are pushed innermost first, and past READ_MAX_FRAMES
 * the stack keeps its READ_FRAMES_INNER innermost frames (the code that ran
 * and the helpers around it) and its READ_FRAMES_OUTER outermost frames (the
 * kernel's own line and the calls near it), dropping the middle ones.  A
 * user who clicks the kernel's line still finds the code, and the stack
 * still says which code it is.  Memory is fixed whatever the depth: a
 * million-frame inlinedAt chain is walked once and costs READ_MAX_FRAMES
 * frames.  read_frames_warn() is the one message for a cut stack.
 */
#ifndef TKDUMP_READ_FRAMES_H
#define TKDUMP_READ_FRAMES_H

#include <stddef.h>
#include <stdint.h>

#include "tkdump/tk_diags.h"
#include "tkdump/tk_loctab.h"

#define READ_MAX_FRAMES 64
#define READ_FRAMES_INNER (READ_MAX_FRAMES / 2)
#define READ_FRAMES_OUTER (READ_MAX_FRAMES - READ_FRAMES_INNER)

typedef struct {
    /* v[0, INNER): the innermost frames; v[INNER, MAX): a ring holding the
     * latest OUTER frames pushed once more than MAX were. */
    tk_frame v[READ_MAX_FRAMES];
    uint64_t n; /* frames pushed since the last reset */
} read_frames;

static inline void read_frames_reset(read_frames *f)
{
    f->n = 0;
}

/* Adds frame FR as the caller of the frames pushed so far. */
void read_frames_push(read_frames *f, tk_frame fr);
void read_frames_push_n(read_frames *f, const tk_frame *fr, size_t n);

/* Counts K frames as pushed and dropped without giving them: the caller
 * knows the chain's middle is too long to keep and pushes its outer frames
 * (READ_FRAMES_OUTER of them at least) next.  Only after READ_FRAMES_INNER
 * frames were pushed. */
static inline void read_frames_skip(read_frames *f, uint64_t k)
{
    f->n += k;
}

/* The frame pushed last (at least one must have been). */
static inline tk_frame read_frames_last(const read_frames *f)
{
    uint64_t i = f->n - 1;
    return i < READ_MAX_FRAMES
               ? f->v[i]
               : f->v[READ_FRAMES_INNER + (i - READ_FRAMES_INNER) % READ_FRAMES_OUTER];
}

/* Frames pushed, and how many of them the stack does not keep. */
static inline uint64_t read_frames_pushed(const read_frames *f)
{
    return f->n;
}
static inline uint64_t read_frames_dropped(const read_frames *f)
{
    return f->n > READ_MAX_FRAMES ? f->n - READ_MAX_FRAMES : 0;
}

/* Copies the kept frames, innermost first, to OUT (room for
 * READ_MAX_FRAMES) and returns their number. */
size_t read_frames_take(const read_frames *f, tk_frame *out);

/* Interns the kept frames (at least one must have been pushed). */
tk_stack_id read_frames_intern(const read_frames *f, tk_loctab *tab);

/* The warning for a cut stack, naming NAME:LINE (the line whose location
 * was cut).  Does nothing when nothing was dropped. */
void read_frames_warn(const read_frames *f, tk_diags *diags, const char *name,
                      uint32_t line);

#endif
