/* cmd_diff.h - what `tkview diff`'s two files share: the arguments
 * (cmd_diff.c reads them and picks what to diff) and the printer of a diff
 * as a unified diff or JSON (cmd_diff_print.c, docs/cli-json.md). */
#ifndef TKVIEW_CMD_DIFF_H
#define TKVIEW_CMD_DIFF_H

#include "cli.h"

#include "tkdump/tk_ir_diff.h"

typedef struct {
    cli_common common;
    char *kernel, *kernel_b;
    char *pass, *to;
    char *stage;
    char *algorithm;
    char *color;
    int context;
    gboolean stacks;
    gboolean raw_registers;
} cmd_diff_args;

/* Prints D, its sides labelled LABEL_A and LABEL_B (from tables TAB_A and
 * TAB_B, kernels KA and KB), each group's "@@ ... @@" followed by TITLE;
 * JSON_EXTRA(j, EXTRA), when non-NULL, adds members to the JSON object.
 * Returns CLI_EXIT_OK when it has changes, CLI_EXIT_NOTHING when the texts
 * compare equal. */
int cmd_diff_print(const cmd_diff_args *a, const tk_ir_diff *d,
                   const tk_loctab *tab_a, const tk_loctab *tab_b,
                   const char *label_a, const char *label_b, const char *title,
                   const tk_kernel *ka, const tk_kernel *kb, gboolean color,
                   void (*json_extra)(JsonBuilder *, void *), void *extra);

#endif
