/* ncu_csv.c - Nsight Compute's source page, exported by its own command
 * line as CSV ("ncu --import R --page source --csv --print-source sass"),
 * read into one profile per kernel section.
 *
 * The file (Nsight Compute 2025.3; docs/profile.md has an example):
 *
 *   "Kernel Name","matmul_pipelined",
 *   "Address","Source","Warp Stall Sampling (All Samples)",...,"stall_wait",...
 *   "0x7f090b7aea00","      LDC R1, c[0x0][0x28]","307","307",...
 *   ... one row per instruction, in address order
 *
 * and again from "Kernel Name" for each other profiled launch.  Addresses
 * are absolute: the first row is the function's first instruction, so an
 * offset is the address minus the first row's.  Values are plain numbers
 * ("-" where a column does not apply).  The columns kept, by header:
 *
 *   Warp Stall Sampling (All Samples)          samples
 *   Warp Stall Sampling (Not-issued Samples)   samples_not_issued
 *   Instructions Executed                      inst_executed
 *   Thread Instructions Executed               thread_inst_executed
 *   Divergent Branches                         divergent_branches
 *   stall_REASON (the all-samples breakdown)   stall_REASON
 *
 * (older Nsight Compute named the first two "Sampling Data (All)" and
 * "Sampling Data (Not Issued)": read the same).  The "(Not Issued)" twins
 * of the stall columns, averages and memory columns are left out.
 *
 * The "cuda,sass" view folds each instruction onto its innermost source
 * line only, which is the question tkview answers better: it is refused,
 * with the command that exports the right view.
 *
 * Bounded: the file is read through zlib (plain files pass through
 * unchanged) a line at a time; at most MAX_BYTES of text, lines of at most
 * MAX_LINE bytes.
 */
#include "cost/internal.h"
#include "tkdump/tk_input_file.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#define MAX_BYTES ((uint64_t)1 << 30)
#define MAX_LINE ((size_t)1 << 20)

#define EXPORT_HINT \
    "export the profile with: ncu --import REPORT.ncu-rep --page source " \
    "--csv --print-source sass > FILE.csv"

typedef struct {
    char *kernel;
    uint64_t line;   /* of its "Kernel Name" record, for messages */
    tk_profile *prof;
} section;

struct tk_ncu_export {
    char *path;
    GPtrArray *sections; /* section *, owned */
};

static void section_free(gpointer p)
{
    section *s = p;
    g_free(s->kernel);
    tk_profile_free(s->prof);
    g_free(s);
}

void tk_ncu_export_free(tk_ncu_export *x)
{
    if (!x)
        return;
    g_free(x->path);
    g_ptr_array_free(x->sections, TRUE);
    g_free(x);
}

size_t tk_ncu_export_count(const tk_ncu_export *x)
{
    return x->sections->len;
}

const char *tk_ncu_export_kernel(const tk_ncu_export *x, size_t i)
{
    return i < x->sections->len
               ? ((section *)x->sections->pdata[i])->kernel
               : NULL;
}

size_t tk_ncu_export_rows(const tk_ncu_export *x, size_t i)
{
    return i < x->sections->len
               ? tk_profile_row_count(((section *)x->sections->pdata[i])->prof)
               : 0;
}

/* ---- records ------------------------------------------------------------ */

/* Splits one CSV record (LEN bytes at S, no newline) into FIELDS (char *,
 * owned): fields in double quotes may hold commas and "" for a quote.
 * Returns FALSE when a quote is left open. */
static gboolean split_record(const char *s, size_t len, GPtrArray *fields)
{
    g_ptr_array_set_size(fields, 0);
    const char *end = s + len, *p = s;
    GString *f = g_string_new(NULL);
    gboolean ok = TRUE;
    for (;;) {
        g_string_truncate(f, 0);
        if (p < end && *p == '"') {
            p++;
            for (;;) {
                if (p >= end) {
                    ok = FALSE;
                    break;
                }
                if (*p == '"') {
                    if (p + 1 < end && p[1] == '"') {
                        g_string_append_c(f, '"');
                        p += 2;
                        continue;
                    }
                    p++;
                    break;
                }
                g_string_append_c(f, *p++);
            }
            while (p < end && *p != ',') /* text after the closing quote */
                g_string_append_c(f, *p++);
        } else {
            while (p < end && *p != ',')
                g_string_append_c(f, *p++);
        }
        g_ptr_array_add(fields, g_strndup(f->str, f->len));
        if (!ok || p >= end)
            break;
        p++; /* the comma */
        if (p >= end) {
            /* "Kernel Name","x", ends with a comma: an empty last field */
            g_ptr_array_add(fields, g_strdup(""));
            break;
        }
    }
    g_string_free(f, TRUE);
    return ok;
}

/* ---- columns -------------------------------------------------------------- */

static const struct {
    const char *header;
    const char *name;
} named_columns[] = {
    {"Warp Stall Sampling (All Samples)", "samples"},
    {"Sampling Data (All)", "samples"},
    {"Warp Stall Sampling (Not-issued Samples)", "samples_not_issued"},
    {"Sampling Data (Not Issued)", "samples_not_issued"},
    {"Instructions Executed", "inst_executed"},
    {"Thread Instructions Executed", "thread_inst_executed"},
    {"Divergent Branches", "divergent_branches"},
};

/* The metric name of header H, or NULL for a column not kept. */
static const char *column_metric(const char *h)
{
    for (size_t i = 0; i < G_N_ELEMENTS(named_columns); i++)
        if (strcmp(h, named_columns[i].header) == 0)
            return named_columns[i].name;
    if (g_str_has_prefix(h, "stall_") && !strchr(h, ' ') && !strchr(h, '('))
        return h;
    return NULL;
}

/* A value: a number, or "-" / "" (does not apply) as 0.  Returns FALSE for
 * anything else. */
static gboolean parse_value(const char *s, double *v)
{
    if (!*s || strcmp(s, "-") == 0) {
        *v = 0;
        return TRUE;
    }
    char *end;
    errno = 0;
    double d = g_ascii_strtod(s, &end);
    if (end == s || *end || errno || !isfinite(d))
        return FALSE;
    *v = d;
    return TRUE;
}

/* ---- reading ------------------------------------------------------------ */

typedef struct {
    tk_ncu_export *x;
    tk_diags *diags;
    const char *path;
    section *cur;
    int state;           /* 0: before a section, 1: header next, 2: rows */
    GArray *col_of;      /* int: per kept metric, its column */
    guint n_cols;        /* the header's columns: every row has as many */
    uint64_t base;       /* the first row's address */
    gboolean have_base;
    double *vals;
    gboolean refused;
} reader;

static gboolean starts_view(const char *f0)
{
    return strcmp(f0, "File Path") == 0 || strcmp(f0, "Line No") == 0 ||
           strcmp(f0, "Function Name") == 0;
}

static void header(reader *r, GPtrArray *f, uint64_t ln)
{
    if (f->len < 2 || strcmp(f->pdata[0], "Address") != 0 ||
        strcmp(f->pdata[1], "Source") != 0) {
        tk_diags_add(r->diags, TK_DIAG_ERROR, r->path, ln,
                     "the header of kernel %s's section is not \"Address\","
                     "\"Source\",...: not the SASS view of the source page "
                     "(" EXPORT_HINT ")",
                     r->cur->kernel);
        r->refused = TRUE;
        return;
    }
    g_array_set_size(r->col_of, 0);
    GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);
    for (guint c = 2; c < f->len; c++) {
        const char *h = f->pdata[c];
        const char *name = column_metric(h);
        if (!name || g_hash_table_contains(seen, name))
            continue;
        g_hash_table_add(seen, (gpointer)name);
        cost_profile_add_metric(r->cur->prof, name, h);
        int col = (int)c;
        g_array_append_val(r->col_of, col);
    }
    g_hash_table_destroy(seen);
    if (r->col_of->len == 0) {
        tk_diags_add(r->diags, TK_DIAG_ERROR, r->path, ln,
                     "kernel %s's section has no sampling or instruction "
                     "count column: profile with --section SourceCounters",
                     r->cur->kernel);
        r->refused = TRUE;
        return;
    }
    g_free(r->vals);
    r->vals = g_new0(double, r->col_of->len);
    r->n_cols = f->len;
    r->state = 2;
}

static void row(reader *r, GPtrArray *f, uint64_t ln)
{
    if (f->len != r->n_cols) {
        /* A row of another shape is not a row of this section (a cut or
         * edited export): its numbers would land in the wrong columns. */
        tk_diags_add(r->diags, TK_DIAG_ERROR, r->path, ln,
                     "a row of %u columns in kernel %s's section, whose "
                     "header has %u: refused",
                     f->len, r->cur->kernel, r->n_cols);
        return;
    }
    const char *a = f->pdata[0];
    char *end;
    errno = 0;
    uint64_t addr = g_ascii_strtoull(a, &end, 16);
    if (!g_str_has_prefix(a, "0x") || *end || errno || f->len < 2) {
        tk_diags_add(r->diags, TK_DIAG_WARNING, r->path, ln,
                     "not an instruction row (no address): skipped");
        return;
    }
    if (!r->have_base) {
        r->base = addr;
        r->have_base = TRUE;
    }
    if (addr < r->base || addr - r->base > UINT32_MAX) {
        tk_diags_add(r->diags, TK_DIAG_WARNING, r->path, ln,
                     "address %s is before the function's first instruction "
                     "or too far after it: skipped",
                     a);
        return;
    }
    const char *src = f->pdata[1], *op;
    size_t op_len;
    if (!cost_sass_opcode(src, src + strlen(src), &op, &op_len)) {
        tk_diags_add(r->diags, TK_DIAG_WARNING, r->path, ln,
                     "no SASS instruction in \"%s\": skipped", src);
        return;
    }
    for (guint m = 0; m < r->col_of->len; m++) {
        int c = g_array_index(r->col_of, int, m);
        const char *v = (guint)c < f->len ? f->pdata[c] : "";
        if (!parse_value(v, &r->vals[m])) {
            tk_diags_add(r->diags, TK_DIAG_WARNING, r->path, ln,
                         "column %d (%s) is \"%s\", not a number: taken as 0",
                         c + 1, tk_profile_metric_name(r->cur->prof, m), v);
            r->vals[m] = 0;
        }
    }
    cost_profile_add_row(r->cur->prof, (uint32_t)(addr - r->base), op, op_len,
                         r->vals);
}

static void record(reader *r, GPtrArray *f, uint64_t ln)
{
    const char *f0 = f->len ? f->pdata[0] : "";
    if (strcmp(f0, "Kernel Name") == 0) {
        section *s = g_new0(section, 1);
        s->kernel = g_strdup(f->len > 1 ? f->pdata[1] : "");
        s->line = ln;
        s->prof = cost_profile_new("ncu",
                                   "Nsight Compute source page (ncu --import "
                                   "REPORT --page source --csv --print-source "
                                   "sass)",
                                   s->kernel);
        g_ptr_array_add(r->x->sections, s);
        r->cur = s;
        r->state = 1;
        r->have_base = FALSE;
        return;
    }
    if (starts_view(f0)) {
        tk_diags_add(r->diags, TK_DIAG_ERROR, r->path, ln,
                     "this is the source page's CUDA (or \"cuda,sass\") "
                     "view, which folds each instruction onto its innermost "
                     "source line; tkview needs the instructions: " EXPORT_HINT);
        r->refused = TRUE;
        return;
    }
    if (r->state == 0) {
        tk_diags_add(r->diags, TK_DIAG_ERROR, r->path, ln,
                     "not an Nsight Compute source page export (it does not "
                     "start with \"Kernel Name\"): " EXPORT_HINT);
        r->refused = TRUE;
        return;
    }
    if (r->state == 1)
        header(r, f, ln);
    else
        row(r, f, ln);
}

tk_ncu_export *tk_ncu_export_read(const char *path, tk_diags *diags)
{
    /* A regular file within an export's limit, opened without blocking
     * (tk_input_file.h); read a line at a time below. */
    char *why = NULL;
    int fd = tk_input_file_open(path, TK_INPUT_FILE_NCU_EXPORT, NULL, &why);
    if (fd < 0) {
        tk_diags_add(diags, TK_DIAG_ERROR, path, 0, "cannot read: %s", why);
        g_free(why);
        return NULL;
    }
    gzFile gz = gzdopen(fd, "rb");
    if (!gz) {
        close(fd);
        tk_diags_add(diags, TK_DIAG_ERROR, path, 0, "cannot read");
        return NULL;
    }
    gzbuffer(gz, 1 << 17);
    tk_ncu_export *x = g_new0(tk_ncu_export, 1);
    x->path = g_strdup(path);
    x->sections = g_ptr_array_new_with_free_func(section_free);
    reader r = {.x = x, .diags = diags, .path = path,
                .col_of = g_array_new(FALSE, FALSE, sizeof(int))};
    GString *line = g_string_new(NULL);
    GPtrArray *fields = g_ptr_array_new_with_free_func(g_free);
    char buf[8192];
    uint64_t ln = 0, total = 0;
    gboolean eof = FALSE, too_long = FALSE;
    while (!eof && !r.refused) {
        g_string_truncate(line, 0);
        gboolean got = FALSE;
        for (;;) {
            if (!gzgets(gz, buf, sizeof buf)) {
                eof = TRUE;
                break;
            }
            got = TRUE;
            size_t n = strlen(buf);
            total += n;
            if (line->len + n > MAX_LINE) {
                too_long = TRUE;
                break;
            }
            g_string_append_len(line, buf, (gssize)n);
            if (n && buf[n - 1] == '\n')
                break;
        }
        if (too_long) {
            tk_diags_add(diags, TK_DIAG_ERROR, path, ln + 1,
                         "a line longer than %zu bytes: not an Nsight "
                         "Compute export", MAX_LINE);
            r.refused = TRUE;
            break;
        }
        if (total > MAX_BYTES) {
            tk_diags_add(diags, TK_DIAG_ERROR, path, ln + 1,
                         "more than %llu bytes of text: not read further",
                         (unsigned long long)MAX_BYTES);
            r.refused = TRUE;
            break;
        }
        if (!got)
            break;
        ln++;
        while (line->len && (line->str[line->len - 1] == '\n' ||
                             line->str[line->len - 1] == '\r'))
            g_string_truncate(line, line->len - 1);
        if (line->len == 0)
            continue;
        if (!split_record(line->str, line->len, fields)) {
            tk_diags_add(diags, TK_DIAG_WARNING, path, ln,
                         "a quoted field is not closed: line skipped");
            continue;
        }
        record(&r, fields, ln);
    }
    int gzerr = 0;
    const char *gzmsg = gzerror(gz, &gzerr);
    if (!r.refused && gzerr != Z_OK && gzerr != Z_STREAM_END) {
        tk_diags_add(diags, TK_DIAG_ERROR, path, ln, "cannot read: %s",
                     gzmsg);
        r.refused = TRUE;
    }
    gzclose(gz);
    g_ptr_array_free(fields, TRUE);
    g_string_free(line, TRUE);
    g_array_free(r.col_of, TRUE);
    g_free(r.vals);
    if (!r.refused && x->sections->len == 0) {
        tk_diags_add(diags, TK_DIAG_ERROR, path, 0,
                     "no kernel section: " EXPORT_HINT);
        r.refused = TRUE;
    }
    if (r.refused) {
        tk_ncu_export_free(x);
        return NULL;
    }
    return x;
}

/* ---- matching ------------------------------------------------------------- */

size_t tk_ncu_export_candidates(const tk_ncu_export *x, size_t i,
                                const tk_bundle *b)
{
    if (i >= x->sections->len)
        return 0;
    const section *s = x->sections->pdata[i];
    size_t n = 0;
    for (size_t k = 0; k < tk_bundle_kernel_count(b); k++)
        n += strcmp(tk_kernel_name(tk_bundle_kernel(b, k)), s->kernel) == 0;
    return n;
}

tk_profile *tk_ncu_export_match(const tk_ncu_export *x, size_t i,
                                const tk_bundle *b, const tk_kernel *only,
                                const tk_kernel **kernel, tk_diags *diags)
{
    *kernel = NULL;
    if (i >= x->sections->len)
        return NULL;
    const section *s = x->sections->pdata[i];
    GString *tried = g_string_new(NULL);
    size_t n_named = 0;
    tk_profile *p = NULL;
    for (size_t k = 0; k < tk_bundle_kernel_count(b) && !p; k++) {
        const tk_kernel *kern = tk_bundle_kernel(b, k);
        if (only && kern != only)
            continue;
        if (strcmp(tk_kernel_name(kern), s->kernel) != 0)
            continue;
        n_named++;
        tk_profile *c = cost_profile_copy(s->prof);
        char *why = NULL;
        if (cost_profile_match(c, kern, &why) == 0) {
            p = c;
            *kernel = kern;
        } else {
            g_string_append_printf(tried, "%s%s", tried->len ? "; " : "", why);
            tk_profile_free(c);
        }
        g_free(why);
    }
    if (!p && n_named == 0)
        tk_diags_add(diags, TK_DIAG_ERROR, x->path, s->line,
                     "kernel %s: %s", s->kernel,
                     only ? "not the kernel asked for"
                          : "no kernel of that name in the bundle");
    else if (!p)
        tk_diags_add(diags, TK_DIAG_ERROR, x->path, s->line,
                     "kernel %s: the export's instructions are not the "
                     "bundle's SASS (%s): it was profiled from another "
                     "compile",
                     s->kernel, tried->str);
    g_string_free(tried, TRUE);
    return p;
}
