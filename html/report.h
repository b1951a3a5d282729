/* report.h - what the parts of the report generator share. */
#ifndef HTML_REPORT_H
#define HTML_REPORT_H

#include <glib.h>

#include <libxml/tree.h>

#include "jsonw.h"
#include "outdir.h"
#include "put_queue.h"
#include "html.h"
#include "tkdump/tk_bind.h"
#include "tkdump/tk_bundle.h"
#include "tkdump/tk_diag.h"
#include "tkdump/tk_diag_pass.h"
#include "tkdump/tk_ir_diff.h"
#include "tkdump/tk_timeline.h"

/* What the index page shows of one kernel, filled by the kernel writer. */
typedef struct {
    char id[16];        /* "k001": names its page and data folder */
    char page[96];      /* "k001-add_kernel.html" */
    const tk_kernel *kernel;
    uint32_t bound[TK_STAGE_COUNT]; /* lines with a location, per stage */
    gboolean has_passes; /* pass dumps were found for it (and are shown) */
    int n_passes;       /* passes in its timeline, -1 none */
    int n_changed;      /* of those, passes that changed the IR */
    gboolean cost;      /* data/ID/cost.js was written (it has SASS) */
    size_t n_diag;      /* compiler messages in data/ID/diag.js (0: none) */
    gboolean failed;    /* the compiler's messages say its compile failed */
    tk_diag_step *diag_steps; /* the pass step of each of its messages,
                           in the set's order (tk_diag_entry_step());
                           NULL: no timeline; freed with the report */
    size_t n_diag_steps;
    char *apart;        /* what sets it apart from the other kernels of its
                           name (tk_config_label(tk_config_apart...)): "" when
                           it is the only one; freed with the report */
    /* A kernel the comparisons read (in a pair): its pass timeline and the
     * comparison digests gathered while it was built, kept by the pass
     * data (data_passes.c) for tk_compare_build_from() instead of being
     * built again; freed with the report. */
    gboolean in_pair;
    struct tk_timeline *tl;
    struct tk_compare_digests *dig;
} html_report_kernel;

/* A comparison page: two kernels and where their page is. */
typedef struct {
    char id[16];          /* "c001": names its page and data folder */
    char page[160];       /* "c001-matmul_kernel-01cca3c5-0cfc4f76.html" */
    tk_bundle *bundle[2];
    const tk_kernel *kernel[2];
    int index[2];         /* the kernels' rows in r->kernels; -1: other bundle */
    int first_row;        /* the first divergence's row, -1 none */
    char first_pass[64];  /* its pass, for the index */
} html_report_compare;

typedef struct {
    tk_bundle *bundle;
    html_outdir *out;
    html_put_queue *queue;  /* compresses and writes on a second thread */
    tk_diags *diags;
    const html_options *opts;
    GHashTable *sources;  /* tk_file_id + 1 -> "" (not found) or "sNNN" */
    GArray *kernels;      /* html_report_kernel */
    GArray *compares;     /* html_report_compare */
    tk_diag_set *diag;    /* the compiler's messages beside the input (read
                             before the threads start; read only after) */
    gint files;           /* written or queued; atomic (threads) */
    gboolean has_configs; /* configs.html was written (page_configs.c) */
    /* While threads run: the bundle (its location table and caches) and
     * DIAGS.  The stage data thread holds it for each kernel's data and
     * page; the pass threads for a lookup in the location table. */
    GMutex lock;
} html_report;

/* Writes LEN bytes of JSON as the data file REL: `TK.put("KEY", JSON);`. */
int html_report_put(html_report *r, const char *rel, const char *key,
                  const GString *json);

/* The same, gzip-compressed and base64-encoded: `TK.putz("KEY", "...");`
 * (for pass data, which is large and repetitive), on the writer thread,
 * which takes JSON (no copy: a pass chain is megabytes): a write error may
 * come from a file queued earlier, or only from html_put_queue_finish(). */
int html_report_put_z(html_report *r, const char *rel, const char *key, GString *json);

/* Kernel I's page and data (page_kernel.c, data_kernel.c). */
int html_report_kernel_write(html_report *r, html_report_kernel *rk);
int html_report_kernel_data(html_report *r, html_report_kernel *rk);

/* data/ID/cost.js: the kernel's cost tables (data_cost.c), when it has
 * SASS; sets rk->cost.  IX is the kernel's binding index. */
int html_report_cost_data(html_report *r, html_report_kernel *rk, const tk_bind *ix);
/* Its "regs" member: the live registers per SASS line and the kernel's
 * peak, from the cost C of kernel K (data_regs.c). */
struct tk_cost;
void html_report_regs_data(jw *w, const struct tk_cost *c, const tk_kernel *k,
                           const tk_bind *ix, const tk_loctab *tab);

/* The compiler's messages about the kernel (data_diag.c).  COUNT sets
 * rk->n_diag and rk->failed (for its page and the index).  STEPS, with the
 * kernel's timeline TL once built (the passes run), places each message's
 * pass on it (tk_diag_pass.h).  DATA writes data/ID/diag.js when there are
 * messages, each with its step: after the passes run, under r->lock or
 * with no thread left (it interns the messages' files into the location
 * table). */
void html_report_diag_count(html_report *r, html_report_kernel *rk);
void html_report_diag_steps(html_report *r, html_report_kernel *rk,
                            const tk_timeline *tl);
int html_report_diag_data(html_report *r, html_report_kernel *rk);

/* ---- statements, line kinds, partial answers (data_statements.c) ---- */

typedef struct {
    tk_file_id file;
    uint32_t first, last;
} html_report_stmt;

/* The statements of more than one line in the files IX's stages name
 * (tk_bundle_statement()).  Caller frees with g_array_free(). */
GArray *html_report_statements(html_report *r, const tk_bind *ix);
/* Every source line IX's stages refer to, as the statement it belongs to
 * (the line alone when it is one, or not known), each once: the queries a
 * click can make.  Caller frees. */
GArray *html_report_query_extents(html_report *r, const tk_bind *ix);
/* [[file, first, last], ...] */
void html_report_write_statements(jw *w, const GArray *stmts);
/* One letter per line of ST: its kind, upper case for location lines. */
void html_report_write_line_kinds(jw *w, const tk_stage *st);
/* Per statement of STMTS, the lines of stage KIND it binds to. */
void html_report_write_statement_lines(jw *w, const tk_bind *ix, const tk_stage *st,
                                     tk_stage_kind kind, const GArray *stmts);
/* Per query of EXTENTS, the lines of stage KIND shared by call sites. */
void html_report_write_shared(jw *w, const tk_bind *ix, tk_stage_kind kind,
                            const GArray *extents);

/* The source file FILE as data/src/sNNN.js (once per report); returns its
 * key or NULL when it cannot be found or read (data_sources.c). */
const char *html_report_source(html_report *r, tk_file_id file);
/* data/files.js: every file the report names, with its source key. */
int html_report_files(html_report *r);

/* The pass timeline of every kernel (data_passes.c), in two steps.  PLAN
 * (one thread): finds each kernel's parts in the pass files, indexing them
 * (tk_timeline_parts_of_kernel()), and sets rk->has_passes.  RUN: builds
 * the timelines two kernels at a time on two threads, the biggest first,
 * writes data/ID/passes.js and the pass diffs, fills rk->n_passes (-1: no
 * pass dumps) and rk->n_changed, and frees the plan.  Of the bundle, RUN
 * uses the location table only under r->lock; the pass indexes it reads
 * (pread) and the kernels' stages are not changed by anything else.  The
 * kernels' data folders must exist.  FREE: a plan never run. */
typedef struct html_report_passes html_report_passes;
html_report_passes *html_report_passes_plan(html_report *r);
int html_report_passes_run(html_report *r, html_report_passes *plan);
void html_report_passes_free(html_report_passes *plan);

/* The comparisons: which pairs (autotune groups, --compare), each pair's
 * data and page (data_compare.c, page_compare.c).  Returns 0, or -1 with an
 * error in DIAGS (a --compare that names no kernel). */
int html_report_compares(html_report *r);
/* The pairs html_report_compares() writes, chosen before the pass data is
 * made (each kernel in one is marked in_pair, so that its timeline is
 * kept); -1 with an error in DIAGS for a --compare that names no kernel. */
int html_report_compare_pairs(html_report *r);
int html_report_compare_write(html_report *r, const html_report_compare *rc);

/* The index's section on autotune groups and comparisons: one row per
 * configuration with its metadata and links to compare it with the
 * others (page_compare.c). */
void html_report_index_compares(html_report *r, xmlNodePtr body);

/* Diff D as a JSON object on W: its names, counts and change groups (3
 * lines of context), each row [kind, aLine, aText, bLine, bText], cut at
 * the budget for one pass (pass_budget.h) with the count of lines left out
 * in "cut".  TOUCHED (may be NULL) collects the source lines of its
 * changed lines, read into TAB (data_passes.c). */
void html_report_diff_json(tk_loctab *tab, tk_ir_diff *d, GHashTable *touched, jw *w);

/* configs.html: every kernel compiled more than once, its compiles side by
 * side (tk_configs.h); none when there is no such kernel.  Sets
 * r->has_configs (page_configs.c). */
int html_report_configs(html_report *r);

/* index.html (page_index.c); NOTES_HTML is the rendered note or NULL. */
int html_report_index(html_report *r, const char *notes_html);

/* The --notes file rendered with cmark in safe mode; caller frees
 * (notes.c).  NULL with an error in DIAGS when it cannot be read. */
char *html_report_notes(const char *path, tk_diags *diags);

/* Copies the assets compiled into the program to assets/ (assets.c). */
int html_report_assets(html_report *r);

/* The report's scripts, the names of their files in assets/, in the order
 * a kernel page runs them; NULL-terminated (assets.c). */
extern const char *const html_report_scripts[];
/* The file in assets/ that holds them all, joined in that order: the one
 * script of the report a kernel page lists (assets.c says why). */
#define HTML_REPORT_BUNDLE "report.js"

/* The same for a comparison page. */
extern const char *const html_report_compare_scripts[];

/* UTF-16 offset of byte OFF of S, counting an invalid byte as one unit
 * (as jw_escape writes it as U+FFFD). */
uint32_t html_report_u16_offset(const char *s, size_t off);

#endif
