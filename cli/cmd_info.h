/* cmd_info.h - what `tkview info`'s files share: the profiles read on a
 * worker thread (cmd_info.c) and the two printers of the result, as text
 * (cmd_info_text.c) and as JSON (cmd_info_json.c, docs/cli-json.md). */
#ifndef TKVIEW_CMD_INFO_H
#define TKVIEW_CMD_INFO_H

#include "cli.h"

#include "tkdump/tk_passes.h"

/* Each kernel's profile, read on a worker thread while this one indexes
 * the pass dumps: json-glib took 77 M instructions to parse the 108 KB
 * profile of sample_dumps/attention_fwd, half as long as that index
 * (callgrind, issue 25).  The worker only reads the kernels (their SASS and
 * profile files); the index only reads them too. */
typedef struct {
    tk_bundle *b;
    size_t n;
    tk_profile **profile; /* per kernel, NULL: none */
    tk_diags **diags;     /* per kernel: what reading it said */
    GThread *thread;
    /* Per kernel, made while the pass dumps were still being indexed
     * (tk_bundle_pass_files_start()), else NULL: its binding index and its
     * cost, taken by the printers (cmd_info_bind(), cmd_info_cost()). */
    tk_bind **ix;
    tk_cost **cost;
} cmd_info_profiles;

/* Kernel I's binding index (caller frees with tk_bind_free()), the one
 * made ahead if there is one. */
tk_bind *cmd_info_bind(const cmd_info_profiles *pf, size_t i, const tk_kernel *k,
                       tk_loctab *tab);

/* Kernel I's cost on IX (caller frees with tk_cost_free(), before IX),
 * the one made ahead with IX if there is one, after printing what reading
 * its profile said (cli_cost_with()). */
tk_cost *cmd_info_cost(const cmd_info_profiles *pf, size_t i, const tk_kernel *k,
                       const tk_bind *ix, const tk_loctab *tab, gboolean quiet);

/* Distinct source positions a stage refers to, in any frame. */
static inline size_t cmd_info_source_positions(const tk_bind *ix, tk_stage_kind k)
{
    const tk_source_ref *refs;
    return tk_bind_source_refs(ix, k, &refs);
}

/* "mlir", "llvm" or "mixed": what the dumps of a pass file are. */
static inline const char *cmd_info_pass_file_kind(const tk_passes *p)
{
    return tk_passes_file_kind_name(tk_passes_content_kind(p));
}

/* B's kernels, stages, metadata, counts and pass files, with DS (the
 * compiler's messages, or NULL) and PF (the profiles read); QUIET: without
 * what --quiet leaves out.  As text, and as JSON. */
void cmd_info_text(tk_bundle *b, gboolean quiet, const tk_diag_set *ds,
                   const cmd_info_profiles *pf);
void cmd_info_json(tk_bundle *b, gboolean quiet, const tk_diag_set *ds,
                   const cmd_info_profiles *pf);

#endif
