/* internal.h - the diag/ folder's shared declarations: a message as read
 * (before it is tied to a kernel), the set, and the stream reader. */
#ifndef TKDUMP_DIAG_INTERNAL_H
#define TKDUMP_DIAG_INTERNAL_H

#include <glib.h>

#include "tkdump/tk_diag.h"

/* One message as read, with what the text said that attach.c uses. */
typedef struct {
    tk_diag_entry pub;     /* pub.notes/stack point into NOTES/FRAMES once
                              attached */
    GPtrArray *notes;      /* char *, from the set's strings */
    GArray *frames;        /* tk_diag_frame */
    const char *kernel_name; /* the function ptxas names, the front end's
                                `def NAME(`; NULL: none */
    unsigned group;        /* compile group on its stream (ended by a
                              traceback) */
    int stage_from_stream; /* pub.stage came from a traceback's make_X */
    /* A ptxas summary read in the same block (a spill warning's). */
    int has_summary;
    tk_diag_ptxas_summary summary;
    /* Front end: "at L:C:" relative to the `def` line, the snippet lines
     * (first is the def line, line L is the faulty one), and the files of
     * the traceback's frames, innermost last. */
    uint32_t fe_line, fe_col;
    GPtrArray *fe_snippet;
    GPtrArray *fe_files;
} diag_item;

/* A ptxas summary read from a log block, by function name. */
typedef struct {
    const char *name;
    tk_diag_ptxas_summary s;
} diag_summary;

struct tk_diag_set {
    GPtrArray *items;      /* diag_item * */
    GHashTable *seen;      /* key -> diag_item * (repeats merged) */
    GArray *summaries;     /* diag_summary */
    GArray *kernels;       /* tk_diag_kernel */
    GStringChunk *strings;
    int attached;
    size_t streams_read;   /* files tk_diag_set_read_folder() found */
    char *source_dir;      /* FOLDER/src of tk_diag_set_read_folder() */
};

const char *diag_str(tk_diag_set *set, const char *s, gssize len);

/* Reads one stream a line at a time (stream.c): begin, feed each line
 * without its newline, end. */
typedef struct diag_reader diag_reader;
diag_reader *diag_reader_begin(tk_diag_set *set, const char *name);
void diag_reader_line(diag_reader *r, const char *line, size_t len);
void diag_reader_end(diag_reader *r);

/* What a reader holds between lines (stream.c, traceback.c). */
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

/* stream.c's helpers for traceback.c: messages made, added (repeats
 * merged: returns the one kept, *MERGED set) and freed; P in S; a decimal
 * number at *P (advanced), *OK when there was one. */
diag_item *diag_item_new(diag_reader *r, tk_diag_origin origin,
                         tk_diag_level level, const char *message, size_t mlen);
diag_item *diag_item_add(diag_reader *r, diag_item *it, int *merged);
void diag_item_free(diag_item *it);
const char *diag_find(const char *s, size_t len, const char *p);
uint32_t diag_parse_u32(const char **p, const char *end, int *ok);

/* traceback.c: a frame line, the exception line that ends a traceback,
 * the end of a front-end error's text, and a line of carets. */
void diag_traceback_frame(diag_reader *r, const char *s, size_t len);
void diag_traceback_end(diag_reader *r, const char *s, size_t len);
void diag_fe_finish(diag_reader *r);
int diag_caret_line(const char *s, size_t len);

/* A ptxas summary with no value read yet. */
void diag_summary_init(tk_diag_ptxas_summary *s);

#endif
