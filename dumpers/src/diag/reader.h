/* reader.h - the stream reader's state, shared by stream.c (the streams
 * read a line at a time: MLIR diagnostics, tracebacks, front-end errors)
 * and stream_ptxas.c (ptxas's log).  Internal to diag/. */
#ifndef TKDUMP_DIAG_READER_H
#define TKDUMP_DIAG_READER_H

#include "diag/internal.h"

#include <string.h>

struct diag_reader {
    tk_diag_set *set;
    const char *name;        /* "stdout"/"stderr", from the set's strings */
    uint64_t lineno;
    unsigned group;
    diag_item *last;         /* the message notes attach to; NULL after a
                                merged repeat (its notes were read once) */
    diag_item *last_ptxas_error;
    /* ptxas's log: the block being read. */
    const char *ptxas_fn;
    tk_diag_ptxas_summary summary;
    int64_t pending_gmem;
    /* A traceback being read. */
    int in_traceback;
    int tb_has_stage;
    tk_stage_kind tb_stage;
    GPtrArray *tb_files;     /* strings of the set */
    /* A front-end error's text being read: 1 snippet, 2 message. */
    int fe_state;
    diag_item *fe;
    GString *fe_message;
};

/* Whether S (LEN bytes) starts with P; stream.c: the first occurrence of
 * P in S[0, LEN), or NULL; a decimal number at *P (moved past it), *OK 0
 * when there is none or it overflows. */
static inline gboolean diag_starts(const char *s, size_t len, const char *p)
{
    /* inline: P is a literal, so its length and the compare fold (a
     * stream's every line is asked several of these: issue 25) */
    size_t n = strlen(p);
    return len >= n && memcmp(s, p, n) == 0;
}
const char *diag_find(const char *s, size_t len, const char *p);
uint32_t diag_parse_u32(const char **p, const char *end, int *ok);

/* stream.c: a new message of R's stream; IT added, or counted on an
 * earlier identical message (same origin, level, code, function, place and
 * text) and freed, the item kept returned and *MERGED set. */
diag_item *diag_item_new(diag_reader *r, tk_diag_origin origin, tk_diag_level level,
                         const char *message, size_t mlen);
diag_item *diag_item_add(diag_reader *r, diag_item *it, int *merged);

/* stream_ptxas.c: a line of ptxas's log ("ptxas info    : ...") or of its
 * error output (1), or not ptxas's (0); the end of a function's block of
 * figures. */
int diag_ptxas_line(diag_reader *r, const char *s, size_t len);
void diag_ptxas_block_end(diag_reader *r);

#endif
