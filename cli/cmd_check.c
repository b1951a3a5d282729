/* cmd_check.c - `tkview check PATH RULES`: rules about what each source
 * line must compile to (docs/check.md), checked on every kernel they
 * select, one line per rule and kernel; `--write-baseline` writes RULES
 * from PATH instead.  Exit 0 when every rule holds, 1 when one fails (or
 * its fact is unknown), 2 on bad arguments or a bad rules file, 3 when
 * PATH cannot be loaded.  The rules and their evaluation are the
 * library's (tk_check.h); this file reads, prints and writes. */
#include "cli.h"

#include <string.h>

#include "tkdump/tk_bundle_load.h"
#include "tkdump/tk_check.h"
#include "tkdump/tk_input_file.h"

static char *short_hash(const tk_kernel *k)
{
    return g_strndup(tk_kernel_hash(k), 8);
}

static char *kernel_label(const tk_check_result *r)
{
    if (!r->kernel)
        return g_strdup_printf("(no kernel '%s')", r->kernel_spec);
    char *h = short_hash(r->kernel);
    char *s = g_strdup_printf("%s:%s", tk_kernel_name(r->kernel), h);
    g_free(h);
    return s;
}

static char *actual_text(const tk_check_result *r)
{
    if (r->status == TK_CHECK_UNKNOWN)
        return g_strdup_printf("unknown: %s", r->why);
    GString *s = g_string_new("actual ");
    if (r->actual == (double)(long long)r->actual)
        g_string_append_printf(s, "%lld", (long long)r->actual);
    else
        g_string_append_printf(s, "%.3g", r->actual);
    if (r->source_file) {
        char *base = g_path_get_basename(r->source_file);
        g_string_append_printf(s, "; at %s:%u", base, r->source_line);
        if (r->source_last > r->source_line)
            g_string_append_printf(s, "-%u", r->source_last);
        g_free(base);
    }
    return g_string_free(s, FALSE);
}

static void put_text(const char *rules_name, const tk_check_report *rep)
{
    size_t n = tk_check_report_count(rep), failed = tk_check_report_failures(rep);
    for (size_t i = 0; i < n; i++) {
        const tk_check_result *r = tk_check_report_get(rep, i);
        char *k = kernel_label(r), *a = actual_text(r);
        cli_printf("%s %s:%u %s  [%s] (%s)\n",
                   r->status == TK_CHECK_PASS ? "PASS"
                   : r->status == TK_CHECK_FAIL ? "FAIL" : "UNKNOWN", rules_name, r->rule_line,
                   r->rule_text, k, a);
        g_free(k);
        g_free(a);
    }
    printf("%zu checks: %zu passed, %zu failed\n", n, n - failed, failed);
}

static void put_json(const char *rules_name, const tk_check_report *rep)
{
    JsonBuilder *j = json_builder_new();
    size_t n = tk_check_report_count(rep), failed = tk_check_report_failures(rep);
    json_builder_begin_object(j);
    json_builder_set_member_name(j, "rules");
    cli_json_string(j, rules_name, strlen(rules_name));
    json_builder_set_member_name(j, "checks");
    json_builder_add_int_value(j, (gint64)n);
    json_builder_set_member_name(j, "failed");
    json_builder_add_int_value(j, (gint64)failed);
    json_builder_set_member_name(j, "results");
    json_builder_begin_array(j);
    for (size_t i = 0; i < n; i++) {
        const tk_check_result *r = tk_check_report_get(rep, i);
        json_builder_begin_object(j);
        json_builder_set_member_name(j, "rule_line");
        json_builder_add_int_value(j, r->rule_line);
        json_builder_set_member_name(j, "rule");
        cli_json_string(j, r->rule_text, strlen(r->rule_text));
        json_builder_set_member_name(j, "kernel");
        if (r->kernel)
            cli_json_string(j, tk_kernel_name(r->kernel), strlen(tk_kernel_name(r->kernel)));
        else
            json_builder_add_null_value(j);
        json_builder_set_member_name(j, "hash");
        if (r->kernel)
            cli_json_string(j, tk_kernel_hash(r->kernel), strlen(tk_kernel_hash(r->kernel)));
        else
            json_builder_add_null_value(j);
        json_builder_set_member_name(j, "status");
        json_builder_add_string_value(j, tk_check_status_name(r->status));
        json_builder_set_member_name(j, "actual");
        if (r->status == TK_CHECK_UNKNOWN)
            json_builder_add_null_value(j);
        else
            cli_json_number(j, r->actual);
        json_builder_set_member_name(j, "why");
        if (r->why)
            cli_json_string(j, r->why, strlen(r->why));
        else
            json_builder_add_null_value(j);
        json_builder_set_member_name(j, "source");
        if (r->source_file) {
            json_builder_begin_object(j);
            json_builder_set_member_name(j, "file");
            cli_json_string(j, r->source_file, strlen(r->source_file));
            json_builder_set_member_name(j, "line");
            json_builder_add_int_value(j, r->source_line);
            json_builder_set_member_name(j, "last");
            json_builder_add_int_value(j, r->source_last);
            json_builder_end_object(j);
        } else
            json_builder_add_null_value(j);
        json_builder_end_object(j);
    }
    json_builder_end_array(j);
    json_builder_end_object(j);
    cli_json_print(j);
    g_object_unref(j);
}

/* XML text: escaped for the terminal rule first (no control characters,
 * which XML 1.0 forbids), then for markup. */
static void xml_put(GString *out, const char *s)
{
    char *e = cli_escape(s, strlen(s));
    char *m = g_markup_escape_text(e, -1);
    g_string_append(out, m);
    g_free(m);
    g_free(e);
}

/* JUnit XML, one testcase per rule and kernel, for CI test reports. */
static gboolean write_junit(const char *file, const char *rules_name,
                            const tk_check_report *rep)
{
    size_t n = tk_check_report_count(rep), failed = tk_check_report_failures(rep);
    GString *x = g_string_new("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    g_string_append_printf(x, "<testsuites tests=\"%zu\" failures=\"%zu\">\n", n, failed);
    g_string_append(x, "  <testsuite name=\"tkview check ");
    xml_put(x, rules_name);
    g_string_append_printf(x, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\">\n", n, failed);
    for (size_t i = 0; i < n; i++) {
        const tk_check_result *r = tk_check_report_get(rep, i);
        char *k = kernel_label(r), *a = actual_text(r);
        char *name = g_strdup_printf("%s:%u %s", rules_name, r->rule_line, r->rule_text);
        g_string_append(x, "    <testcase classname=\"");
        xml_put(x, k);
        g_string_append(x, "\" name=\"");
        xml_put(x, name);
        if (r->status == TK_CHECK_PASS)
            g_string_append(x, "\"/>\n");
        else {
            g_string_append(x, "\">\n      <failure message=\"");
            xml_put(x, a);
            g_string_append(x, "\">");
            xml_put(x, r->rule_text);
            g_string_append(x, " (");
            xml_put(x, a);
            g_string_append(x, ")</failure>\n    </testcase>\n");
        }
        g_free(name);
        g_free(k);
        g_free(a);
    }
    g_string_append(x, "  </testsuite>\n</testsuites>\n");
    GError *err = NULL;
    gboolean ok = g_file_set_contents(file, x->str, (gssize)x->len, &err);
    if (!ok) {
        cli_error("%s", err->message);
        g_error_free(err);
    }
    g_string_free(x, TRUE);
    return ok;
}

static const char usage[] =
    "usage: tkview check PATH RULES [--json] [--junit FILE]\n"
    "       tkview check PATH --write-baseline RULES [--margin PERCENT]";

int cmd_check(int argc, char **argv)
{
    cli_common common = {0};
    char *junit = NULL;
    gboolean baseline = FALSE;
    int margin = 10;
    GOptionEntry entries[] = {
        {"junit", 0, 0, G_OPTION_ARG_FILENAME, &junit,
         "Also write the results as JUnit XML to FILE", "FILE"},
        {"write-baseline", 0, 0, G_OPTION_ARG_NONE, &baseline,
         "Write RULES pinning PATH's facts today instead of checking", NULL},
        {"margin", 0, 0, G_OPTION_ARG_INT, &margin,
         "With --write-baseline: registers may grow by PERCENT (default 10)", "PERCENT"},
        G_OPTION_ENTRY_NULL,
    };
    GOptionContext *ctx = cli_options(
        "PATH RULES",
        "Checks rules about what each source line compiled to (docs/check.md)\n"
        "on every kernel they select: exit 0 when all hold, 1 when one fails,\n"
        "2 on a bad rules file.",
        entries, &common);
    GError *err = NULL;
    int rc;
    if (!g_option_context_parse(ctx, &argc, &argv, &err) || argc != 3 || margin < 0) {
        g_option_context_free(ctx);
        g_free(junit);
        return cli_usage(&err, usage);
    }
    g_option_context_free(ctx);
    const char *path = argv[1], *rules_path = argv[2];
    tk_check_rules *rules = NULL;
    if (!baseline) {
        /* The rules first: a typo is reported before a long load. */
        /* A regular file of bounded size, as every input (tk_input_file.h). */
        size_t len = 0;
        char *why = NULL;
        char *text = tk_input_file_read(rules_path, TK_INPUT_FILE_SOURCE, &len, &why);
        if (!text) {
            cli_error("%s: %s", rules_path, why ? why : "cannot be read");
            g_free(why);
            g_free(junit);
            return CLI_EXIT_USAGE;
        }
        tk_diags *d = tk_diags_new();
        rules = tk_check_rules_parse(rules_path, text, len, d);
        g_free(text);
        if (!rules) {
            cli_print_diags(d, FALSE);
            tk_diags_free(d);
            g_free(junit);
            return CLI_EXIT_USAGE;
        }
        tk_diags_free(d);
    }
    tk_bundle *b = cli_load(path, &common);
    if (!b) {
        tk_check_rules_free(rules);
        g_free(junit);
        return CLI_EXIT_INPUT;
    }
    tk_diag_set *messages = cli_diag_load(path, b);
    if (baseline) {
        char *text = tk_check_baseline(b, messages, (unsigned)margin);
        rc = g_file_set_contents(rules_path, text, -1, &err) ? CLI_EXIT_OK : CLI_EXIT_INPUT;
        if (err) {
            cli_error("%s", err->message);
            g_error_free(err);
        } else if (!common.quiet)
            cli_fprintf(stderr, "tkview: wrote %s\n", rules_path);
        free(text);
    } else {
        tk_check_report *rep = tk_check_run(rules, b, messages);
        if (common.json)
            put_json(rules_path, rep);
        else
            put_text(rules_path, rep);
        rc = tk_check_report_failures(rep) ? 1 : CLI_EXIT_OK;
        if (junit && !write_junit(junit, rules_path, rep))
            rc = CLI_EXIT_INPUT;
        tk_check_report_free(rep);
    }
    tk_diag_set_free(messages);
    tk_check_rules_free(rules);
    tk_bundle_free(b);
    g_free(junit);
    return rc;
}
