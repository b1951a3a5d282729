/* cmd_profile.c - `tkview profile import BUNDLE FILE`: a profile made on a
 * GPU machine (Nsight Compute's source page exported as CSV) put into a
 * bundle, each kernel section matched to the kernel whose SASS it is. */
#include "cli.h"
#include "tkdump/tk_bundle_load.h"

#include <string.h>

static const char summary[] =
    "FILE is what Nsight Compute's own command line exports from a report:\n"
    "\n"
    "  ncu --import REPORT.ncu-rep --page source --csv --print-source sass > FILE\n"
    "\n"
    "(plain or gzip-compressed).  Each kernel section of FILE goes to the\n"
    "kernel of BUNDLE with its name whose SASS it is: the same instructions\n"
    "at the same offsets with the same opcodes.  A section of a kernel the\n"
    "bundle does not hold (PyTorch's own) is skipped; one that matches no\n"
    "kernel of its name is refused with the first difference (a profile of\n"
    "another compile would put numbers on the wrong lines).  The profile is written\n"
    "into the kernel's folder and named in manifest.json (docs/bundle.md).\n"
    "\n"
    "Exit status: 0 every section of a bundle's kernel imported, 1 one of\n"
    "them did not match or none was there, 2 bad arguments, 3 BUNDLE or\n"
    "FILE could not be read.";

/* The samples P measured over K's SASS lines into *SAMPLES; returns
 * whether P has a "samples" metric at all. */
static int profile_samples(const tk_profile *p, const tk_kernel *k,
                           double *samples)
{
    int has_samples = 0;
    for (size_t m = 0; m < tk_profile_metric_count(p); m++)
        if (strcmp(tk_profile_metric_name(p, m), "samples") == 0) {
            has_samples = 1;
            const tk_stage *sass = tk_kernel_stage(k, TK_STAGE_SASS);
            for (uint32_t l = 1; l <= tk_stage_line_count(sass); l++) {
                const double *v = tk_profile_line_values(p, l);
                if (v)
                    *samples += v[m];
            }
        }
    return has_samples;
}

/* One imported section (SECTION of the export, kernel K, saved as REL). */
static void imported_json(JsonBuilder *j, size_t section, const tk_kernel *k,
                          const tk_profile *p, const char *rel,
                          int has_samples, double samples)
{
    json_builder_begin_object(j);
    json_builder_set_member_name(j, "section");
    json_builder_add_int_value(j, (gint64)section);
    json_builder_set_member_name(j, "name");
    cli_json_string(j, tk_kernel_name(k), strlen(tk_kernel_name(k)));
    json_builder_set_member_name(j, "hash");
    cli_json_string(j, tk_kernel_hash(k), strlen(tk_kernel_hash(k)));
    json_builder_set_member_name(j, "instructions");
    json_builder_add_int_value(j, (gint64)tk_profile_row_count(p));
    json_builder_set_member_name(j, "samples");
    if (has_samples)
        cli_json_number(j, samples);
    else
        json_builder_add_null_value(j);
    json_builder_set_member_name(j, "file");
    cli_json_string(j, rel ? rel : "", rel ? strlen(rel) : 0);
    json_builder_end_object(j);
}

static void imported_text(const tk_kernel *k, const tk_profile *p,
                          const char *rel, int has_samples, double samples)
{
    cli_put_text(stdout, tk_kernel_name(k), strlen(tk_kernel_name(k)));
    printf(" (%.8s): %zu instructions", tk_kernel_hash(k),
           tk_profile_row_count(p));
    if (has_samples) {
        fputs(", ", stdout);
        cli_put_number(stdout, samples);
        fputs(" samples", stdout);
    }
    fputs(" -> ", stdout);
    if (rel)
        cli_put_text(stdout, rel, strlen(rel));
    putchar('\n');
}

static int import(int argc, char **argv)
{
    cli_common common = {0};
    char *kernel = NULL;
    gboolean force = FALSE;
    GOptionEntry entries[] = {
        CLI_KERNEL_OPTION(&kernel, "Only the sections of this kernel", ""),
        {"force", 0, 0, G_OPTION_ARG_NONE, &force,
         "Replace a profile the kernel already has", NULL},
        G_OPTION_ENTRY_NULL,
    };
    GOptionContext *ctx = cli_options(
        "BUNDLE FILE - put a profile made with Nsight Compute into a bundle",
        summary, entries, &common);
    GError *err = NULL;
    int rc = CLI_EXIT_OK;
    tk_bundle *b = NULL;
    tk_ncu_export *x = NULL;
    tk_diags *d = tk_diags_new();
    JsonBuilder *j = NULL;
    if (!g_option_context_parse(ctx, &argc, &argv, &err) || argc != 3) {
        rc = cli_usage(&err, "usage: tkview profile import BUNDLE FILE "
                             "[--kernel K] [--force]");
        goto out;
    }
    if (!(b = cli_load(argv[1], &common))) {
        rc = CLI_EXIT_INPUT;
        goto out;
    }
    if (tk_bundle_input_kind(b) != TK_INPUT_BUNDLE) {
        cli_error("%s is not a tkview bundle: make one with `tkview "
                     "bundle %s -o BUNDLE` and import into that",
                     argv[1], argv[1]);
        rc = CLI_EXIT_INPUT;
        goto out;
    }
    const tk_kernel *only = NULL;
    if (kernel && !(only = cli_pick_kernel(b, kernel))) {
        rc = CLI_EXIT_USAGE;
        goto out;
    }
    x = tk_ncu_export_read(argv[2], d);
    cli_print_diags(d, common.quiet);
    if (!x) {
        rc = CLI_EXIT_INPUT;
        goto out;
    }
    if (common.json) {
        j = json_builder_new();
        json_builder_begin_array(j);
    }
    size_t imported = 0, failed = 0, others = 0;
    for (size_t i = 0; i < tk_ncu_export_count(x); i++) {
        const char *name = tk_ncu_export_kernel(x, i);
        if (only && strcmp(name, tk_kernel_name(only)) != 0)
            continue;
        if (tk_ncu_export_candidates(x, i, b) == 0) {
            /* PyTorch's own kernels, profiled with the program's */
            if (!common.quiet) {
                fprintf(stderr, "tkview: %s: section %zu, kernel ", argv[2], i);
                cli_put_text(stderr, name, strlen(name));
                fputs(": not a kernel of the bundle, skipped\n", stderr);
            }
            others++;
            continue;
        }
        tk_diags *md = tk_diags_new();
        const tk_kernel *k = NULL;
        tk_profile *p = tk_ncu_export_match(x, i, b, only, &k, md);
        char *rel = NULL;
        if (p && tk_profile_save(p, b, k, force, &rel, md) != 0) {
            tk_profile_free(p);
            p = NULL;
        }
        cli_print_diags(md, FALSE);
        tk_diags_free(md);
        if (!p) {
            failed++;
            continue;
        }
        imported++;
        double samples = 0;
        int has_samples = profile_samples(p, k, &samples);
        if (j)
            imported_json(j, i, k, p, rel, has_samples, samples);
        else
            imported_text(k, p, rel, has_samples, samples);
        g_free(rel);
        tk_profile_free(p);
    }
    if (j) {
        json_builder_end_array(j);
        cli_json_print(j);
    }
    if (imported == 0 && failed == 0) {
        if (only)
            cli_error("%s: no section of kernel %s", argv[2], tk_kernel_name(only));
        else
            cli_error("%s: none of its %zu kernel section%s is of a kernel of "
                         "the bundle", argv[2], others, others == 1 ? "" : "s");
        rc = CLI_EXIT_NOTHING;
    } else if (failed) {
        rc = CLI_EXIT_NOTHING;
    }
out:
    if (j)
        g_object_unref(j);
    tk_ncu_export_free(x);
    tk_bundle_free(b);
    tk_diags_free(d);
    g_free(kernel);
    g_strfreev(common.source_dirs);
    g_option_context_free(ctx);
    return rc;
}

int cmd_profile(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "import") == 0)
        return import(argc - 1, argv + 1);
    if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        puts("Usage: tkview profile import BUNDLE FILE [--kernel K] [--force] "
             "[--json]\n\n"
             "Puts a profile made with Nsight Compute (its source page "
             "exported as CSV)\ninto BUNDLE; see `tkview profile import "
             "--help`.");
        return CLI_EXIT_OK;
    }
    cli_error("usage: tkview profile import BUNDLE FILE [--kernel K] "
                 "[--force] [--json]");
    return CLI_EXIT_USAGE;
}
