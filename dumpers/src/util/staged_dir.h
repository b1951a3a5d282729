/* staged_dir.h - the pieces of tk_staged_dir.h shared by its files
 * (internal): the signal-safe tree removal (remove_tree.c) and the record
 * of pending staging folders the signal handler works from
 * (staged_signal.c), used by staged_dir.c.
 */
#ifndef TKDUMP_UTIL_STAGED_DIR_H
#define TKDUMP_UTIL_STAGED_DIR_H

#include <signal.h>
#include <sys/types.h>

#include "tkdump/tk_staged_dir.h"

/* Folders deeper than this under the removed one are left (ELOOP): the walk
 * recurses with a small buffer per level, on whatever stack a signal
 * handler runs on. */
#define STAGED_DIR_MAX_DEPTH 64

/* Removes NAME in the folder open as DIRFD, and everything under it, staying
 * on the file system DEV (a folder on another, or a mount root, is left:
 * EXDEV).  0 when NAME is gone, -1 with errno set.  Async-signal-safe. */
int staged_dir_remove_at(int dirfd, const char *name, dev_t dev);

/* ---- pending staging folders (staged_signal.c) ---- */

/* Records a staging folder for the signal handler: STAGING and TARGET are
 * names in the folder open as PARENT_FD (which must stay open until the
 * record is released), DEV the staging folder's file system.  Returns the
 * record's number, or -1 when none is free (or a name is too long): the
 * folder then goes without clean-up on a signal. */
int staged_dir_record(int parent_fd, dev_t dev, const char *staging,
                      const char *target);
/* Forgets record R (-1 is fine). */
void staged_dir_forget(int r);

/* A commit's renames, as seen by the handler.  Between begin and end the
 * calling thread holds the stop signals back, and a handler running on
 * another thread waits for end: TARGET is never left half renamed. */
void staged_dir_commit_begin(int r, sigset_t *saved);
void staged_dir_commit_end(int r, const sigset_t *saved);

/* What record R stands for now (the handler acts on it):
 *   STAGED_DIR_STAGED  the staging folder is pending (remove it);
 *   STAGED_DIR_ASIDE   the old TARGET is being renamed to ASIDE, a name in
 *                      the same folder, mid-commit;
 *   STAGED_DIR_PLACED  the new folder is at TARGET; ASIDE (if not "") is
 *                      still to remove. */
enum { STAGED_DIR_STAGED = 2, STAGED_DIR_ASIDE = 3, STAGED_DIR_PLACED = 4 };
void staged_dir_record_state(int r, int state, const char *aside);

/* For tests: when set, called with each step of a commit (while the stop
 * signals are held back), so a test can send a signal at that point. */
enum {
    STAGED_DIR_STEP_BEGIN = 1,   /* nothing renamed yet */
    STAGED_DIR_STEP_ASIDE = 2,   /* the old TARGET renamed aside */
    STAGED_DIR_STEP_PLACED = 3   /* the new folder at TARGET */
};
typedef void staged_dir_step_fn(int step);
extern staged_dir_step_fn *staged_dir_test_step;

#endif
