/* tk_test.h - helpers shared by the unit tests.
 *
 * Tests name dump files relative to the unpacked shared captures
 * ("vector_add/kernel_dump/WROR.../add_kernel.ttgir") and find lines by their
 * text, so an expectation reads like the dump a person checked it against.
 */
#ifndef TK_TEST_H
#define TK_TEST_H

#include <glib.h>

#include "tkdump/tk_bind.h"
#include "tkdump/tk_bundle.h"
#include "tkdump/tk_diags.h"
#include "tkdump/tk_loctab.h"
#include "tkdump/tk_stage.h"

/* Absolute path of REL under the unpacked shared dumps.  Caller frees. */
char *tk_test_dump_path(const char *rel);

/* The folder this test program writes in: a fresh one under $TMPDIR, which
 * `meson test` points at the build's tests/tmp (tests/meson.build), made on
 * first use and removed with what is in it when the program exits normally
 * (a failed test leaves it for a look).  Names inside it are the program's
 * own: two runs at once never share a file.  A subprocess of the test
 * (g_test_trap_subprocess()) gets its parent's folder when the parent made
 * it first.  Owned by the helper. */
const char *tk_test_tmp_dir(void);

/* The path NAME inside tk_test_tmp_dir().  Caller frees. */
char *tk_test_tmp_path(const char *name);

/* A new empty folder inside tk_test_tmp_dir(), named from TEMPLATE (which
 * ends in "XXXXXX", as for g_mkdtemp()).  Caller frees the path, and may
 * remove the folder with tk_test_remove_tree(). */
char *tk_test_make_tmp(const char *tmpl);

/* Removes the folder PATH a test made and everything in it
 * (tk_staged_dir_remove_tree()), failing the test when something is left. */
void tk_test_remove_tree(const char *path);

/* Absolute path of REL under tests/ in the source tree.  Caller frees. */
char *tk_test_src_path(const char *rel);

/* Whether the shared dumps are there; when not, marks the current test
 * skipped with a message saying so and returns FALSE. */
gboolean tk_test_have_dumps(void);

/* Path of the single file in the folder REL_DIR (relative to the dumps) whose
 * name ends with SUFFIX, e.g. ("vector_add/kernel_dump", ".ttgir") when the
 * hash folder name is not worth spelling out.  Fails the test when there is
 * not exactly one.  Caller frees. */
char *tk_test_find_dump(const char *rel_dir, const char *suffix);

/* Every file of the unpacked shared captures at CAPTURE/SUB/HASH/NAME whose
 * NAME ends with SUFFIX, for each SUB in SUBS (NULL-terminated, e.g.
 * {"kernel_dump", "cache", NULL}), sorted.  Caller frees the array (its
 * strings go with it). */
GPtrArray *tk_test_shared_files(const char *const *subs, const char *suffix);

/* Reads every kernel_dump/HASH/NAME file ending with SUFFIX of the shared
 * captures as a stage of KIND, failing the test on any diagnostic or on a
 * file with no located line.  Returns how many files were read. */
int tk_test_read_each_shared(tk_stage_kind kind, const char *suffix);

/* Reads a stage, failing the test if it cannot be read. */
tk_stage *tk_test_read_stage(tk_stage_kind kind, const char *path,
                             tk_loctab *tab, tk_diags *diags);

/* The 1-based number of the NTH (from 1) line of STAGE containing NEEDLE, or
 * fails the test. */
uint32_t tk_test_line_with(const tk_stage *stage, const char *needle, int nth);

/* Every line number of STAGE containing NEEDLE.  Caller frees (g_array). */
GArray *tk_test_lines_with(const tk_stage *stage, const char *needle);

/* A stack as "file:line:col <- file:line:col <- ...", innermost first, each
 * file reduced to its base name.  Caller frees. */
char *tk_test_stack_string(const tk_loctab *tab, tk_stack_id id);

/* All stacks of LINE joined with " | ".  Caller frees. */
char *tk_test_line_stacks_string(const tk_stage *stage, const tk_loctab *tab,
                                 uint32_t line);

/* Asserts that the stacks of LINE of STAGE read EXPECTED (as
 * tk_test_line_stacks_string() writes them; "" for none). */
#define TK_ASSERT_LINE_STACKS(stage, tab, line, expected)                    \
    do {                                                                      \
        char *got_ = tk_test_line_stacks_string((stage), (tab), (line));     \
        g_assert_cmpstr(got_, ==, (expected));                                \
        g_free(got_);                                                         \
    } while (0)

/* Full path of frame I of the only stack of LINE (fails the test when the
 * line has not exactly one stack of more than I frames).  Owned by TAB. */
const char *tk_test_frame_path(const tk_stage *stage, const tk_loctab *tab,
                               uint32_t line, size_t i);

/* Number of diagnostics of SEVERITY or worse whose message contains NEEDLE. */
size_t tk_test_count_diags_with(const tk_diags *diags, tk_diag_severity severity,
                                const char *needle);

/* Prints the diagnostics (as TAP comments) and returns their count. */
size_t tk_test_print_diags(const tk_diags *diags);

#endif
