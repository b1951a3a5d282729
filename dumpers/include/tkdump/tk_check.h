/* tk_check.h - assertions about what source lines compiled to: a rules
 * file (docs/check.md has the grammar) read, checked against a bundle's
 * kernels, and written from a bundle as a baseline.
 *
 * Every fact a rule tests is one the library already has: kernel metadata
 * (tk_kernel_metadata()), the compiler's messages (tk_diag.h), the pass
 * timeline (tk_timeline.h), the IR lines of each stage bound to a source
 * line (tk_bind.h) and SASS classes (tk_cost.h).  Nothing is recomputed
 * here but the counting.
 *
 * A fact that cannot be known for a kernel (no cubin for "registers", no
 * SASS for "sass class tensor", no pass dumps for "pass X changed") is
 * TK_CHECK_UNKNOWN, never 0: a rule "spills == 0" must not hold on a kernel
 * nobody could measure.
 *
 * Ownership: rules own their text; a report borrows the rules and the
 * bundle (its kernels), which must outlive it.
 */
#ifndef TKDUMP_TK_CHECK_H
#define TKDUMP_TK_CHECK_H
#include <stddef.h>
#include <stdint.h>

#include "tk_bundle.h"
#include "tk_diag.h"
#include "tk_diags.h"
#include "tk_export.h"
#include "tk_kernel.h"
#ifdef __cplusplus
extern "C" {
#endif
typedef struct tk_check_rules tk_check_rules;
/* Parses LEN bytes of TEXT, a rules file named NAME (for messages).
 * Returns NULL after adding an error "NAME:LINE: why" to DIAGS for the first
 * line that is not a rule.  Free with tk_check_rules_free(). */
TK_API
tk_check_rules *tk_check_rules_parse(const char *name, const char *text,
                                     size_t len, tk_diags *diags);
TK_API
void tk_check_rules_free(tk_check_rules *rules);
/* The number of rules (not counting `kernel` lines and comments). */
TK_API
size_t tk_check_rules_count(const tk_check_rules *rules);

typedef enum {
    TK_CHECK_PASS,
    TK_CHECK_FAIL,   /* the fact is known and the comparison is false */
    TK_CHECK_UNKNOWN /* the fact could not be read: WHY says why; a failure */
} tk_check_status;
/* "pass", "fail", "unknown". */
TK_API
const char *tk_check_status_name(tk_check_status status);

/* One rule checked on one kernel (or on none: a `kernel` line that
 * selects no kernel gives one UNKNOWN result per rule, KERNEL NULL). */
typedef struct {
    size_t rule;              /* 0-based, in file order */
    uint32_t rule_line;       /* its line in the rules file */
    const char *rule_text;    /* the rule as written, trimmed */
    const char *kernel_spec;  /* the `kernel` line's selector */
    const tk_kernel *kernel;  /* NULL: no kernel selected */
    tk_check_status status;
    double actual;            /* the fact's value (PASS, FAIL) */
    const char *why;          /* UNKNOWN: why; NULL otherwise */
    const char *source_file;  /* the source line the rule named, as the
                                 locations spell its file; NULL for a
                                 kernel-wide rule */
    uint32_t source_line, source_last; /* its statement's lines */
} tk_check_result;

typedef struct tk_check_report tk_check_report;
/* Checks every rule of RULES on every kernel of BUNDLE it selects.
 * MESSAGES (may be NULL) are the compiler's messages attached to BUNDLE
 * (tk_diag_set_attach()): without them "diagnostics" and "stack" facts are
 * unknown.  Free with tk_check_report_free(). */
TK_API
tk_check_report *tk_check_run(const tk_check_rules *rules, tk_bundle *bundle,
                              const tk_diag_set *messages);
TK_API
void tk_check_report_free(tk_check_report *report);
TK_API
size_t tk_check_report_count(const tk_check_report *report);
TK_API
const tk_check_result *tk_check_report_get(const tk_check_report *report,
                                           size_t i);
/* The number of results that are not TK_CHECK_PASS. */
TK_API
size_t tk_check_report_failures(const tk_check_report *report);

/* A rules file that pins BUNDLE's facts today (docs/check.md, "Baselines"):
 * per kernel name (every config of it), registers within MARGIN_PERCENT,
 * spills, warps, stages, tensor instructions, layout conversions inside
 * loops; per source line, the tensor instructions and async copies it
 * became and the layout conversions inside loops bound to it.  Re-checked
 * on BUNDLE, every rule holds.  Caller frees with free(). */
TK_API
char *tk_check_baseline(tk_bundle *bundle, const tk_diag_set *messages,
                        unsigned margin_percent);
#ifdef __cplusplus
}
#endif
#endif
