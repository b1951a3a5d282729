/* fuzz_one.h - the body every libFuzzer target shares.
 *
 * Feeds the input to tk_stage_parse() as one stage kind, into a fresh
 * location table, walks everything the stage hands out (so a stack or line
 * index that points nowhere is caught by ASan), checks the promises of
 * tk_stage.h that hold for any input, and frees it all (so a leak is
 * caught).  A broken promise aborts: libFuzzer saves the input as a crash.
 */
#ifndef TK_FUZZ_ONE_H
#define TK_FUZZ_ONE_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tkdump/tk_stage.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static inline void tk_fuzz_check(int ok)
{
    if (!ok)
        abort();
}

/* Reads every byte of S, so that ASan sees a path that is not a valid
 * NUL-terminated string. */
static volatile size_t tk_fuzz_sink;

static inline void tk_fuzz_touch(const char *s)
{
    tk_fuzz_sink = strlen(s);
}

static inline int tk_fuzz_one(tk_stage_kind kind, const char *name,
                              const uint8_t *data, size_t size)
{
    tk_loctab *tab = tk_loctab_new();
    tk_diags *diags = tk_diags_new();
    tk_stage *s = tk_stage_parse(kind, name, (const char *)data, size, tab,
                                 diags);
    tk_fuzz_check(s != NULL); /* in memory, any bytes make a stage */
    tk_fuzz_check(tk_stage_size(s) == size);
    uint32_t n_lines = tk_stage_line_count(s), located = 0, instructions = 0;
    size_t n_files = tk_loctab_file_count(tab);
    for (uint32_t l = 1; l <= n_lines; l++) {
        size_t len;
        const char *text = tk_stage_line(s, l, &len);
        tk_fuzz_check(text != NULL && len <= size);
        /* every line has a kind; the count of instructions agrees */
        tk_line_kind line_kind = tk_stage_line_kind(s, l);
        tk_fuzz_check(line_kind < TK_LINE_KIND_COUNT);
        instructions += line_kind == TK_LINE_INSTRUCTION;
        const tk_stack_id *ids;
        size_t k = tk_stage_line_stacks(s, l, &ids);
        located += k > 0;
        for (size_t i = 0; i < k; i++) {
            size_t nf;
            const tk_frame *f = tk_loctab_stack_frames(tab, ids[i], &nf);
            /* the one frame rule of every reader (read/frames.h) */
            tk_fuzz_check(nf >= 1 && nf <= 64);
            for (size_t j = 0; j < nf; j++) {
                tk_fuzz_check(f[j].file < n_files);
                tk_fuzz_touch(tk_loctab_file_path(tab, f[j].file));
            }
        }
    }
    tk_fuzz_check(located == tk_stage_located_line_count(s));
    tk_fuzz_check(instructions == tk_stage_instruction_count(s));
    /* Readers only warn, about this input, on a line it has. */
    for (size_t i = 0; i < tk_diags_count(diags); i++) {
        const tk_diag *d = tk_diags_get(diags, i);
        tk_fuzz_check(strcmp(d->file, name) == 0);
        tk_fuzz_check(d->line <= n_lines);
        tk_fuzz_check(d->severity != TK_DIAG_ERROR);
    }
    tk_stage_free(s);
    tk_diags_free(diags);
    tk_loctab_free(tab);
    return 0;
}

#endif
