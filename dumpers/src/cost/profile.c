/* profile.c - tk_profile: the table of measured values per SASS
 * instruction, matched to a kernel's SASS, and its file in a bundle.
 *
 * The file (docs/bundle.md, "profile"), one instruction a line so that it
 * diffs and greps:
 *
 *   {"format": "tkview-profile", "format_version": 1, "tool": "ncu",
 *    "from": "...", "kernel": "matmul_pipelined",
 *    "metrics": [{"name": "samples", "label": "Warp Stall Sampling ..."}],
 *    "instructions": [
 *     [0, "LDC", 307, ...],
 *     ...]}
 *
 * Each instruction is [offset, opcode, one value per metric].  Reading it
 * back checks it against the kernel's SASS as strictly as an import does:
 * a bundle is mailed around, and a profile edited or copied from another
 * kernel must not put numbers on the wrong lines.
 */
#include "cost/internal.h"
#include "tkdump/tk_bundle_write.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bundle/internal.h"
#include "tkdump/tk_input_file.h"

#define PROFILE_FORMAT "tkview-profile"
#define PROFILE_VERSION 1

struct tk_profile {
    char *tool;
    char *from;
    char *kernel;
    GPtrArray *names;  /* char *, owned */
    GPtrArray *labels; /* char *, owned */
    GArray *offset;    /* uint32_t per row */
    GPtrArray *opcode; /* char * per row, owned */
    GArray *values;    /* double, rows * metrics */
    uint32_t *line;    /* SASS line per row once matched; ascending */
};

tk_profile *cost_profile_new(const char *tool, const char *from,
                             const char *kernel)
{
    /* Every string may come from a file anyone wrote; the profile file is
     * JSON, which wants UTF-8. */
    tk_profile *p = g_new0(tk_profile, 1);
    p->tool = g_utf8_make_valid(tool ? tool : "", -1);
    p->from = g_utf8_make_valid(from ? from : "", -1);
    p->kernel = g_utf8_make_valid(kernel ? kernel : "", -1);
    p->names = g_ptr_array_new_with_free_func(g_free);
    p->labels = g_ptr_array_new_with_free_func(g_free);
    p->offset = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    p->opcode = g_ptr_array_new_with_free_func(g_free);
    p->values = g_array_new(FALSE, FALSE, sizeof(double));
    return p;
}

void tk_profile_free(tk_profile *p)
{
    if (!p)
        return;
    g_free(p->tool);
    g_free(p->from);
    g_free(p->kernel);
    g_ptr_array_free(p->names, TRUE);
    g_ptr_array_free(p->labels, TRUE);
    g_array_free(p->offset, TRUE);
    g_ptr_array_free(p->opcode, TRUE);
    g_array_free(p->values, TRUE);
    g_free(p->line);
    g_free(p);
}

void cost_profile_add_metric(tk_profile *p, const char *name, const char *label)
{
    g_ptr_array_add(p->names, g_utf8_make_valid(name, -1));
    g_ptr_array_add(p->labels, g_utf8_make_valid(label ? label : name, -1));
}

void cost_profile_add_row(tk_profile *p, uint32_t offset, const char *op,
                          size_t op_len, const double *values)
{
    g_array_append_val(p->offset, offset);
    g_ptr_array_add(p->opcode, g_utf8_make_valid(op, (gssize)op_len));
    g_array_append_vals(p->values, values, p->names->len);
}

tk_profile *cost_profile_copy(const tk_profile *p)
{
    tk_profile *c = cost_profile_new(p->tool, p->from, p->kernel);
    for (guint i = 0; i < p->names->len; i++)
        cost_profile_add_metric(c, p->names->pdata[i], p->labels->pdata[i]);
    for (guint r = 0; r < p->offset->len; r++) {
        const char *op = p->opcode->pdata[r];
        cost_profile_add_row(c, g_array_index(p->offset, uint32_t, r), op,
                             strlen(op),
                             &g_array_index(p->values, double,
                                            (size_t)r * p->names->len));
    }
    return c;
}

const char *tk_profile_tool(const tk_profile *p)
{
    return p->tool;
}

const char *tk_profile_kernel_name(const tk_profile *p)
{
    return p->kernel;
}

size_t tk_profile_metric_count(const tk_profile *p)
{
    return p->names->len;
}

const char *tk_profile_metric_name(const tk_profile *p, size_t m)
{
    return m < p->names->len ? p->names->pdata[m] : NULL;
}

const char *tk_profile_metric_label(const tk_profile *p, size_t m)
{
    return m < p->labels->len ? p->labels->pdata[m] : NULL;
}

size_t tk_profile_row_count(const tk_profile *p)
{
    return p->offset->len;
}

const double *tk_profile_line_values(const tk_profile *p, uint32_t line)
{
    if (!p->line)
        return NULL;
    size_t lo = 0, hi = p->offset->len;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (p->line[mid] < line)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < p->offset->len && p->line[lo] == line)
        return &g_array_index(p->values, double, lo * p->names->len);
    return NULL;
}

/* ---- matching ---------------------------------------------------------- */

/* Why P's rows are not the instructions IN of kernel K's SASS ST, or NULL. */
static char *mismatch_with(const tk_profile *p, const tk_kernel *k, const tk_stage *st,
                           const cost_insns *in)
{
    char *why = NULL;
    size_t n = p->offset->len;
    if (n != in->n) {
        why = g_strdup_printf("it has %zu instructions, the SASS of kernel %s "
                              "(%.8s, %s) has %zu",
                              n, tk_kernel_name(k), tk_kernel_hash(k),
                              tk_stage_path(st), in->n);
    }
    for (size_t r = 0; r < n && !why; r++) {
        uint32_t off = g_array_index(p->offset, uint32_t, r);
        const char *op = p->opcode->pdata[r];
        size_t len;
        const char *s = tk_stage_line(st, in->line[r], &len);
        const char *iop = s + in->op[r];
        if (off != in->offset[r] || strlen(op) != in->op_len[r] ||
            memcmp(op, iop, in->op_len[r]) != 0)
            why = g_strdup_printf(
                "its instruction %zu is %s at offset 0x%04x, but the SASS of "
                "kernel %s (%.8s) has %.*s at offset 0x%04x (%s:%u)",
                r + 1, op, off, tk_kernel_name(k), tk_kernel_hash(k),
                (int)in->op_len[r], iop, in->offset[r], tk_stage_path(st),
                in->line[r]);
    }
    return why;
}

static char *no_sass(const tk_kernel *k)
{
    return g_strdup_printf("kernel %s (%.8s) has no SASS to match the "
                           "profile's instructions against",
                           tk_kernel_name(k), tk_kernel_hash(k));
}

char *cost_profile_mismatch(const tk_profile *p, const tk_kernel *k)
{
    const tk_stage *st = tk_kernel_stage(k, TK_STAGE_SASS);
    if (!st)
        return no_sass(k);
    cost_insns in;
    cost_insns_read(st, tk_kernel_name(k), &in);
    char *why = mismatch_with(p, k, st, &in);
    cost_insns_clear(&in);
    return why;
}

/* The SASS is read once for the check and the rows' lines: reading it
 * twice was a third of a profile's load (callgrind, issue 25). */
int cost_profile_match(tk_profile *p, const tk_kernel *k, char **why)
{
    const tk_stage *st = tk_kernel_stage(k, TK_STAGE_SASS);
    if (!st) {
        *why = no_sass(k);
        return -1;
    }
    cost_insns in;
    cost_insns_read(st, tk_kernel_name(k), &in);
    *why = mismatch_with(p, k, st, &in);
    if (!*why) {
        g_free(p->line);
        p->line = in.line; /* ascending: instruction lines in file order */
        in.line = NULL;
    }
    cost_insns_clear(&in);
    return *why ? -1 : 0;
}

/* ---- the file in a bundle ---------------------------------------------- */

static void json_string(GString *g, const char *s)
{
    g_string_append_c(g, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            g_string_append_printf(g, "\\%c", *p);
        else if (*p < 0x20)
            g_string_append_printf(g, "\\u%04x", *p);
        else
            g_string_append_c(g, (char)*p);
    }
    g_string_append_c(g, '"');
}

static void json_number(GString *g, double v)
{
    if (!isfinite(v))
        v = 0;
    if (v == floor(v) && fabs(v) < 9007199254740992.0)
        g_string_append_printf(g, "%.0f", v);
    else
        g_string_append_printf(g, "%.17g", v);
}

char *cost_profile_serialize(const tk_profile *p, size_t *len)
{
    GString *g = g_string_new("{\n  \"format\": \"" PROFILE_FORMAT "\",\n");
    g_string_append_printf(g, "  \"format_version\": %d,\n  \"tool\": ",
                           PROFILE_VERSION);
    json_string(g, p->tool);
    g_string_append(g, ",\n  \"from\": ");
    json_string(g, p->from);
    g_string_append(g, ",\n  \"kernel\": ");
    json_string(g, p->kernel);
    g_string_append(g, ",\n  \"metrics\": [");
    for (guint m = 0; m < p->names->len; m++) {
        g_string_append(g, m ? ",\n    {\"name\": " : "\n    {\"name\": ");
        json_string(g, p->names->pdata[m]);
        g_string_append(g, ", \"label\": ");
        json_string(g, p->labels->pdata[m]);
        g_string_append_c(g, '}');
    }
    g_string_append(g, "\n  ],\n  \"instructions\": [");
    size_t nm = p->names->len;
    for (guint r = 0; r < p->offset->len; r++) {
        g_string_append_printf(g, "%s\n    [%u, ", r ? "," : "",
                               g_array_index(p->offset, uint32_t, r));
        json_string(g, p->opcode->pdata[r]);
        for (size_t m = 0; m < nm; m++) {
            g_string_append(g, ", ");
            json_number(g, g_array_index(p->values, double, r * nm + m));
        }
        g_string_append_c(g, ']');
    }
    g_string_append(g, "\n  ]\n}\n");
    *len = g->len;
    return g_string_free(g, FALSE);
}

/* A number member of an array, or NAN when it is none. */
static double element_number(JsonArray *a, guint i)
{
    JsonNode *n = json_array_get_element(a, i);
    if (!n || JSON_NODE_TYPE(n) != JSON_NODE_VALUE)
        return NAN;
    GType t = json_node_get_value_type(n);
    if (t == G_TYPE_INT64)
        return (double)json_node_get_int(n);
    if (t == G_TYPE_DOUBLE)
        return json_node_get_double(n);
    return NAN;
}

static const char *element_string(JsonArray *a, guint i)
{
    JsonNode *n = json_array_get_element(a, i);
    if (!n || JSON_NODE_TYPE(n) != JSON_NODE_VALUE ||
        json_node_get_value_type(n) != G_TYPE_STRING)
        return NULL;
    return json_node_get_string(n);
}

/* The profile ROOT's members but its rows (format, tool, metrics), or
 * NULL with *WHY set; *ROWS is its "instructions". */
static tk_profile *read_head(JsonNode *root, JsonArray **rows, char **why)
{
    if (!root || !JSON_NODE_HOLDS_OBJECT(root)) {
        *why = g_strdup("not a JSON object");
        return NULL;
    }
    JsonObject *o = json_node_get_object(root);
    const char *format = bundle_json_string(o, "format");
    int64_t version = bundle_json_int(o, "format_version");
    JsonArray *metrics = bundle_json_array(o, "metrics");
    *rows = bundle_json_array(o, "instructions");
    if (!format || strcmp(format, PROFILE_FORMAT) != 0) {
        *why = g_strdup("not a tkview profile (its \"format\" is not \""
                        PROFILE_FORMAT "\")");
        return NULL;
    }
    if (version != PROFILE_VERSION) {
        *why = g_strdup_printf("format_version %lld: this tkview reads "
                               "version %d",
                               (long long)version, PROFILE_VERSION);
        return NULL;
    }
    if (!metrics || !*rows) {
        *why = g_strdup("no \"metrics\" or no \"instructions\"");
        return NULL;
    }
    tk_profile *p = cost_profile_new(bundle_json_string(o, "tool"),
                                     bundle_json_string(o, "from"),
                                     bundle_json_string(o, "kernel"));
    for (guint m = 0; m < json_array_get_length(metrics); m++) {
        JsonNode *n = json_array_get_element(metrics, m);
        const char *name = JSON_NODE_HOLDS_OBJECT(n)
                               ? bundle_json_string(json_node_get_object(n), "name")
                               : NULL;
        if (!name || !*name) {
            *why = g_strdup_printf("metric %u has no name", m + 1);
            tk_profile_free(p);
            return NULL;
        }
        cost_profile_add_metric(p, name,
                                bundle_json_string(json_node_get_object(n),
                                                   "label"));
    }
    return p;
}

/* The rows of P from the JSON array ROWS; -1 with *WHY set when one is
 * not [offset, opcode, a number per metric]. */
static int read_rows(tk_profile *p, JsonArray *rows, char **why)
{
    size_t nm = p->names->len;
    double *vals = g_new0(double, nm ? nm : 1);
    for (guint r = 0; r < json_array_get_length(rows); r++) {
        JsonNode *n = json_array_get_element(rows, r);
        JsonArray *a = JSON_NODE_HOLDS_ARRAY(n) ? json_node_get_array(n) : NULL;
        double off = a ? element_number(a, 0) : NAN;
        const char *op = a ? element_string(a, 1) : NULL;
        gboolean ok = a && json_array_get_length(a) == nm + 2 && op &&
                      off >= 0 && off <= UINT32_MAX && off == floor(off);
        for (size_t m = 0; ok && m < nm; m++) {
            vals[m] = element_number(a, (guint)(m + 2));
            ok = !isnan(vals[m]);
        }
        if (!ok) {
            *why = g_strdup_printf("instruction %u is not [offset, opcode, "
                                   "%zu numbers]",
                                   r + 1, nm);
            g_free(vals);
            return -1;
        }
        cost_profile_add_row(p, (uint32_t)off, op, strlen(op), vals);
    }
    g_free(vals);
    return 0;
}

/* The profile in LEN bytes at DATA, its rows read by profile_rows.c and
 * the rest (up to ROWS_AT, the rows' opening bracket) by JSON-GLib; NULL
 * when the rows are not as profile.c writes them or anything else is
 * wrong, for read_file() to parse it all again and say what. */
static tk_profile *read_fast(const char *data, size_t len, size_t rows_at)
{
    GString *head = g_string_new_len(data, (gssize)rows_at);
    g_string_append(head, "]}");
    char *err = NULL;
    JsonNode *root = bundle_json_parse(head->str, head->len, &err);
    g_string_free(head, TRUE);
    JsonArray *rows = NULL;
    tk_profile *p = root ? read_head(root, &rows, &err) : NULL;
    if (p && (json_array_get_length(rows) != 0 ||
              cost_profile_rows_read(data + rows_at, len - rows_at, p,
                                     p->names->len) != 0)) {
        tk_profile_free(p);
        p = NULL;
    }
    g_free(err);
    if (root)
        json_node_unref(root);
    return p;
}

/* Reads the profile file PATH; NULL with *WHY set when it is not one. */
static tk_profile *read_file(const char *path, char **why)
{
    char *err = NULL;
    size_t len = 0;
    char *data = tk_input_file_read(path, TK_INPUT_FILE_PROFILE, &len, &err);
    if (!data) {
        *why = g_strdup(err ? err : "not a JSON object");
        g_free(err);
        return NULL;
    }
    size_t rows_at = cost_profile_rows_at(data, len);
    tk_profile *p = rows_at ? read_fast(data, len, rows_at) : NULL;
    if (!p) {
        JsonNode *root = bundle_json_parse(data, len, &err);
        JsonArray *rows = NULL;
        if (!root)
            *why = g_strdup(err ? err : "not a JSON object");
        else if ((p = read_head(root, &rows, why)) && read_rows(p, rows, why) != 0) {
            tk_profile_free(p);
            p = NULL;
        }
        g_free(err);
        if (root)
            json_node_unref(root);
    }
    g_free(data);
    return p;
}

tk_profile *tk_profile_load(const tk_kernel *k, tk_diags *diags)
{
    const char *path = tk_kernel_profile_path(k);
    if (!path)
        return NULL;
    char *why = NULL;
    tk_profile *p = read_file(path, &why);
    if (p && cost_profile_match(p, k, &why) != 0) {
        tk_profile_free(p);
        p = NULL;
        char *w = g_strdup_printf("the profile does not match the kernel's "
                                  "SASS: %s", why);
        g_free(why);
        why = w;
    }
    if (!p)
        tk_diags_add(diags, TK_DIAG_ERROR, path, 0, "%s", why);
    g_free(why);
    return p;
}

int tk_profile_save(const tk_profile *p, tk_bundle *b, const tk_kernel *k,
                    int replace, char **rel, tk_diags *diags)
{
    size_t len;
    char *text = cost_profile_serialize(p, &len);
    char *name = g_strdup_printf("%s.profile.json", tk_kernel_name(k));
    int rc = tk_bundle_add_kernel_file(b, k, "profile", name, text, len,
                                       replace, diags);
    if (rel) {
        *rel = NULL;
        if (rc == 0 && tk_kernel_profile_path(k))
            *rel = bundle_path_relative(b->root, tk_kernel_profile_path(k));
    }
    g_free(name);
    g_free(text);
    return rc;
}
