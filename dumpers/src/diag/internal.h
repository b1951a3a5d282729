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

/* A ptxas summary with no value read yet. */
void diag_summary_init(tk_diag_ptxas_summary *s);

#endif
