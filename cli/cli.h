/* cli.h - what the tkview subcommands share: loading, messages, output.
 *
 * The program is a thin layer over libtkdump: it parses arguments, loads,
 * asks the library, and prints.  The exit codes below are documented in
 * README.md and in `tkview --help`.
 */
#ifndef TKVIEW_CLI_H
#define TKVIEW_CLI_H

#include <glib.h>
#include <json-glib/json-glib.h>
#include <stdarg.h>
#include <stdio.h>

#include "tkdump/tk_bind.h"
#include "tkdump/tk_bundle.h"
#include "tkdump/tk_cost.h"
#include "tkdump/tk_diag.h"
#include "tkdump/tk_diags.h"
#include "tkdump/tk_profile.h"
#include "tkdump/tk_timeline.h"

enum {
    CLI_EXIT_OK = 0,        /* done, and the query found something */
    CLI_EXIT_NOTHING = 1,   /* done, but the query matched nothing */
    CLI_EXIT_USAGE = 2,     /* bad arguments */
    CLI_EXIT_INPUT = 3,     /* the input could not be loaded at all */
    CLI_EXIT_NO_LINE = 4,   /* the source line named is past the end of its file */
};

/* Options every subcommand that loads takes. */
typedef struct {
    char **source_dirs; /* --source-dir, repeatable */
    gboolean json;
    gboolean quiet;     /* --quiet: no warnings on stderr */
} cli_common;

/* Adds the common options to a GOptionContext's main group. */
void cli_add_common(GOptionContext *ctx, cli_common *common);

/* ---- A command's start-up, the same for every command: its options (its
 * own ENTRIES and the common ones), a usage error, PATH loaded and a kernel
 * picked. ---- */

/* What --kernel accepts (tk_bundle_find_kernel()), said once. */
#define CLI_KERNEL_FORMS "name, hash prefix, name:hash or index"
/* The --kernel option into VAR (char *), its help "WHAT: forms AFTER". */
#define CLI_KERNEL_OPTION(var, what, after)                                  \
    {"kernel", 'k', 0, G_OPTION_ARG_STRING, (var),                          \
     what ": " CLI_KERNEL_FORMS after, "K"}

/* The option context of a command: "PARAMS" as its parameter line, SUMMARY
 * (or NULL), ENTRIES and the common options into COMMON.  Caller frees
 * with g_option_context_free(). */
GOptionContext *cli_options(const char *params, const char *summary,
                            const GOptionEntry *entries, cli_common *common);

/* Prints the parser's *ERR (cleared), or USAGE when there is none; returns
 * CLI_EXIT_USAGE. */
int cli_usage(GError **err, const char *usage);

/* Loads PATH into *BUNDLE and, when KERNEL (a --kernel value) is given or
 * PICK is TRUE, picks the kernel into *ONE (cli_pick_kernel()).  Returns
 * CLI_EXIT_OK, CLI_EXIT_INPUT (nothing loaded) or CLI_EXIT_USAGE (no such
 * kernel; *BUNDLE is then freed and NULL).  cli_open_kernel() is the same
 * with the load of cli_load_for_kernel() when KERNEL is given: for a
 * command that uses no other kernel than that one. */
int cli_open(const char *path, const cli_common *common, const char *kernel,
             gboolean pick, tk_bundle **bundle, const tk_kernel **one);
int cli_open_kernel(const char *path, const cli_common *common,
                    const char *kernel, tk_bundle **bundle,
                    const tk_kernel **one);

/* Splits "A:N" (--source FILE:LINE, --ir STAGE:LINE) at the last colon
 * into *HEAD (caller frees) and *LINE.  Returns FALSE when N is not a line
 * number (digits only, 1 to UINT32_MAX). */
gboolean cli_split_line_spec(const char *spec, char **head, uint32_t *line);

/* Loads PATH; prints diagnostics to stderr (errors always, the rest unless
 * --quiet).  Returns NULL when nothing could be loaded. */
tk_bundle *cli_load(const char *path, const cli_common *common);

/* PATH loaded for a command about one kernel, SPEC (as --kernel takes it;
 * NULL: the only one): the stages of a bundle's other kernels are left
 * unread (tk_bundle_load_on_demand()).  When that load or the
 * reading of SPEC's kernel says anything, or SPEC does not name one
 * kernel, PATH is loaded whole instead, as by cli_load(), so that what is
 * printed is the same.  Free with tk_bundle_free(). */
tk_bundle *cli_load_for_kernel(const char *path, const cli_common *common,
                               const char *spec);
/* Makes with nvdisasm, into tkview's cache, the NAME.sass_lr of B's
 * kernels that lack one (cli_life_ranges.c), and says so on stderr
 * (nothing with QUIET). */
void cli_life_ranges(tk_bundle *b, gboolean quiet);

/* Prints diagnostics as "tkview: FILE:LINE: SEVERITY: MESSAGE". */
void cli_print_diags(const tk_diags *diags, gboolean quiet);

/* "tkview: MESSAGE" on stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Text from dumps (kernel names, paths, IR lines, messages that quote
 * them) reaches a terminal only through this one escaping rule: control
 * characters (escape sequences in a hostile dump) are shown as \xNN, never
 * sent raw; tabs stay.  Returns the escaped copy of LEN bytes at S; caller
 * frees. */
char *cli_escape(const char *s, size_t len);

/* printf for every command's text output (cli_print.c): each "%s" and
 * "%c" argument is escaped by cli_escape(), the format's own text is
 * written as it is.  Use these, never printf, for anything that may hold
 * text from a dump. */
void cli_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_fprintf(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cli_vfprintf(FILE *f, const char *fmt, va_list ap);

/* Writes LEN bytes of dump text to OUT, escaped by cli_escape(). */
void cli_put_text(FILE *out, const char *s, size_t len);

/* ---- Fitting the terminal (cli_term.c) ---- */

/* The --wide option's flag (every command takes it: cli_add_common()). */
gboolean *cli_term_wide_option(void);
/* The width to fit text output to: the terminal's columns when stdout is
 * one, 0 (no limit: whole lines) when it is piped or --wide was given. */
int cli_term_columns(void);
/* Writes LEN bytes of dump text S to OUT, escaped by cli_escape(), in at
 * most COLS columns (0: all of it); text that does not fit is cut and
 * ends with "…".  Tabs are written as one space when COLS > 0.
 * Returns the columns written. */
int cli_term_put(FILE *out, const char *s, size_t len, int cols);
/* cli_printf() of one line (FMT without its "\n"), cut to the terminal's
 * width (cli_term_columns()), then "\n". */
void cli_term_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same keeping the end of S (a path's file name): "\u2026" first. */
int cli_term_put_end(FILE *out, const char *s, size_t len, int cols);

/* A stack as "base.py:16:15 <- caller.py:3:1"; caller frees. */
char *cli_stack_string(const tk_loctab *tab, tk_stack_id id);

/* JSON: a string value made valid UTF-8 (dump text may not be). */
void cli_json_string(JsonBuilder *b, const char *s, size_t len);
/* JSON: {"file":..., "line":..., "col":...} for each frame, in an array. */
void cli_json_stack(JsonBuilder *b, const tk_loctab *tab, tk_stack_id id);
/* Prints the builder's root, pretty, followed by a newline. */
void cli_json_print(JsonBuilder *b);
/* JSON: member NAME, V or null when V is negative (not known: the library's
 * convention for counts and sizes it could not read). */
void cli_json_int_or_null(JsonBuilder *j, const char *name, int64_t v);
/* JSON: member NAME, S (made valid UTF-8) or null when S is NULL. */
void cli_json_str_or_null(JsonBuilder *j, const char *name, const char *s);

/* "ttir, ttgir, llir, ptx, sass, amdgcn": the stage names the library knows,
 * for messages and help.  Static. */
const char *cli_stage_names(void);

/* Whether kernel K's answer lists stage S: the stage ONLY asked for with
 * --stage, else every stage of K's backend (tk_kernel_stage_expected()). */
gboolean cli_stage_listed(const tk_kernel *k, tk_stage_kind s,
                             tk_stage_kind only);

/* Finds the kernel named by SPEC (or the only kernel when SPEC is NULL);
 * prints why not and returns NULL otherwise. */
const tk_kernel *cli_pick_kernel(const tk_bundle *bundle, const char *spec);
/* The kernel SPEC names in BUNDLE (given with OPTION, "--kernel-b"); when
 * none or several do, prints why (listing the candidates) and returns
 * NULL. */
const tk_kernel *cli_find_kernel(const tk_bundle *bundle, const char *spec,
                                    const char *option);

/* The cost tables of kernel K bound by IX (cli_cost.c), with its bundle's
 * profile when it has one: *PROFILE receives it (NULL when none; free it
 * after the cost).  A profile that cannot be used is reported on stderr
 * and the static counts still come.  Caller frees with tk_cost_free(). */
tk_cost *cli_cost(const tk_kernel *k, const tk_bind *ix,
                     const tk_loctab *tab, gboolean quiet,
                     tk_profile **profile);
/* Kernel K's registers for info (cli_regs.c): ptxas's count, the live
 * register peak of the cost C and where it is, and occupancy; as text
 * lines, or as the member "registers" of the object J is in. */
void cli_regs_text(const tk_kernel *k, const tk_bind *ix,
                      const tk_loctab *tab, const tk_cost *c);
void cli_regs_json(JsonBuilder *j, const tk_kernel *k, const tk_bind *ix,
                      const tk_loctab *tab, const tk_cost *c);
/* bind --ir: the live register peak over the SASS bound to LINE of STAGE
 * and the SASS line where it is, from the kernel's cost C (cli_cost();
 * NULL: the kernel has no SASS) (nothing, or null, without life ranges or
 * bound SASS); as a text line, or as the member "live_registers". */
void cli_regs_ir_text(const tk_cost *c, tk_stage_kind stage, uint32_t line);
void cli_regs_ir_json(JsonBuilder *j, const tk_cost *c, tk_stage_kind stage,
                      uint32_t line);
/* bind --ir: what line LINE of STAGE costs by the default metric of C (as
 * above): its own share, the SASS bound to it and its source line's total
 * (tk_cost.h); as a text line, or as the member "cost" (null without SASS
 * or cost). */
void cli_cost_ir_text(const tk_cost *c, const tk_loctab *tab, tk_stage_kind stage,
                      uint32_t line);
void cli_cost_ir_json(JsonBuilder *j, const tk_cost *c, const tk_loctab *tab,
                      tk_stage_kind stage, uint32_t line);
/* cli_cost() with the profile already read by tk_profile_load() (NULL:
 * none) and what reading it said (DIAGS, printed here). */
tk_cost *cli_cost_with(const tk_kernel *k, const tk_bind *ix,
                       const tk_loctab *tab, gboolean quiet,
                       const tk_profile *profile, const tk_diags *diags);
/* A metric value: an integer as one, else 3 significant digits. */
void cli_put_number(FILE *out, double v);
/* The same in JSON: an integer value when it is one. */
void cli_json_number(JsonBuilder *j, double v);

/* Compiler messages (cli_diag.c, tk_diag.h).  cli_diag_load(): the
 * messages of PATH's stdout.txt and stderr.txt tied to B's kernels (B may
 * be NULL), or NULL when PATH has neither; free with tk_diag_set_free(). */
tk_diag_set *cli_diag_load(const char *path, tk_bundle *b);
/* The same in two halves: cli_diag_start() reads PATH's streams on a
 * worker (no bundle needed: the bundle may load meanwhile);
 * cli_diag_finish() waits for it and ties them to B as cli_diag_load()
 * does, returning the same. */
typedef struct cli_diag_reading cli_diag_reading;
cli_diag_reading *cli_diag_start(const char *path);
tk_diag_set *cli_diag_finish(cli_diag_reading *r, tk_bundle *b);
/* One message as `diagnostics` shows it (text: indented lines with the
 * known-message explanation). */
/* TL: the timeline of E's kernel, to name the step of E's pass
 * (tk_diag_pass.h); NULL: the pass by name only. */
void cli_diag_entry_text(const tk_diag_entry *e, const tk_timeline *tl);
void cli_diag_entry_json(JsonBuilder *j, const tk_diag_entry *e,
                         const tk_timeline *tl);
void cli_diag_summary_text(const tk_diag_ptxas_summary *s);
/* info: kernel K's counts, whether it failed, ptxas's summary. */
void cli_diag_kernel_text(const tk_diag_set *set, const tk_kernel *k);
void cli_diag_kernel_json(JsonBuilder *j, const tk_diag_set *set,
                          const tk_kernel *k);
/* info: failed compiles that have no kernel in the bundle. */
void cli_diag_failed_text(const tk_diag_set *set);
void cli_diag_failed_json(JsonBuilder *j, const tk_diag_set *set);
/* bind --source: K's messages on FILE lines [FIRST, LAST] (innermost frame,
 * or any frame with CALLED), as text or (J not NULL) a "diagnostics"
 * member.  Returns their number. */
size_t cli_diag_on_lines(const tk_diag_set *set, const tk_kernel *k,
                         const char *file, uint32_t first, uint32_t last,
                         gboolean called, JsonBuilder *j);

/* Subcommands: each takes argv after the subcommand name (argv[0] is the
 * subcommand) and returns an exit code. */
int cmd_info(int argc, char **argv);
int cmd_bind(int argc, char **argv);
int cmd_refs(int argc, char **argv);
int cmd_bundle(int argc, char **argv);
int cmd_passes(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_history(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_capture(int argc, char **argv);
int cmd_html(int argc, char **argv);
int cmd_hot(int argc, char **argv);
int cmd_configs(int argc, char **argv);
int cmd_profile(int argc, char **argv);
int cmd_diagnostics(int argc, char **argv);
int cmd_check(int argc, char **argv);
/* `tkview [PATH]`: replaces the process with the desktop viewer (argv[1..]
 * are its arguments).  Returns -1 when argv[1] is not for the viewer (no
 * such path) or, without arguments, when the viewer cannot start (the
 * reason is printed; the caller prints the usage); otherwise an exit code
 * after printing why the viewer could not start. */
int cmd_view(int argc, char **argv);

#endif
