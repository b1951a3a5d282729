/* tk_staged_dir.h - a folder written so that it appears whole or not at all,
 * and a folder tree removed without leaving it.
 *
 * A bundle, a report and a capture are folders of many files.  Each is built
 * in a hidden staging folder beside its target (".NAME.tkview-tmp-XXXXXX",
 * on the same file system) and renamed into place at the end: whoever looks
 * at TARGET sees nothing, the old folder or the whole new one, never half of
 * one.  A failure removes the staging folder; so does SIGINT, SIGTERM or
 * SIGHUP once the program asked for it (tk_staged_dir_clean_on_signal()).
 *
 *     tk_staged_dir *s = tk_staged_dir_new("out/report", TK_STAGED_DIR_REPLACE);
 *     ... write files under tk_staged_dir_path(s), or openat(tk_staged_dir_fd(s)) ...
 *     int rc = ok ? tk_staged_dir_commit(s) : -1;
 *     tk_staged_dir_free(s); (removes the staging folder unless committed)
 *
 * The two halves are there alone too, named after the staged folder they
 * serve: tk_staged_dir_place() renames a folder staged by other means (the
 * capture's, built inside its work folder) into place, and
 * tk_staged_dir_remove_tree() removes any folder tree.  And what a program
 * checks before it stages anything: tk_staged_dir_overlap() says whether
 * the output would lie in its input, or its input in it.
 *
 * Errors are returned as -1 (or a TK_STAGED_DIR_ERR_ step) with errno set,
 * so that each program words its own message; nothing here prints.
 *
 * Ownership: a tk_staged_dir owns its paths and descriptors;
 * tk_staged_dir_free() releases them.
 */
#ifndef TKDUMP_TK_STAGED_DIR_H
#define TKDUMP_TK_STAGED_DIR_H

#include "tk_export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Flags of tk_staged_dir_new() and tk_staged_dir_place(). */
enum {
    /* A folder already at TARGET is replaced: it is renamed aside
     * (".NAME.tkview-old-XXXXXX"), the new folder renamed to TARGET, and
     * the old one removed; if the second rename fails the old folder is put
     * back.  Without it, placing fails (ENOTEMPTY or EEXIST) when TARGET is
     * a folder with something in it; an empty folder is replaced, as
     * rename(2) does.  The caller decides beforehand whether what is at
     * TARGET may go (an earlier report, --force). */
    TK_STAGED_DIR_REPLACE = 1 << 0
};

/* What failed in tk_staged_dir_commit() or tk_staged_dir_place(). */
enum {
    TK_STAGED_DIR_ERR_ASIDE = -1, /* the folder at TARGET could not be renamed
                                     aside (TK_STAGED_DIR_REPLACE) */
    TK_STAGED_DIR_ERR_RENAME = -2 /* the new folder could not be renamed to
                                     TARGET; an old one is back in place */
};

typedef struct tk_staged_dir tk_staged_dir;

/* Creates the staging folder (mode 0755) beside TARGET, which need not
 * exist; TARGET's parent must.  FLAGS: TK_STAGED_DIR_*.  Returns NULL with
 * errno set when it cannot be made (EINVAL: TARGET names no folder, as "",
 * "/", "." or ".." do). */
TK_API
tk_staged_dir *tk_staged_dir_new(const char *target, unsigned flags);

/* The staging folder's path, and TARGET without trailing slashes; owned by
 * S. */
TK_API
const char *tk_staged_dir_path(const tk_staged_dir *s);
TK_API
const char *tk_staged_dir_target(const tk_staged_dir *s);

/* A descriptor of the staging folder, for openat()/mkdirat() of files in
 * it.  Owned by S. */
TK_API
int tk_staged_dir_fd(const tk_staged_dir *s);

/* Renames the staging folder to TARGET as S's flags say.  Returns 0, or a
 * TK_STAGED_DIR_ERR_ value with errno set.  Call it once, and free S either
 * way. */
TK_API
int tk_staged_dir_commit(tk_staged_dir *s);

/* Removes the staging folder unless it was committed, and frees S.  NULL is
 * fine. */
TK_API
void tk_staged_dir_free(tk_staged_dir *s);

/* From now on, SIGINT, SIGTERM and SIGHUP remove every staging folder of
 * the process that is not committed yet (those of tk_staged_dir_new(), and
 * so the library's own: tk_bundle_save()), then kill the process with the
 * same signal, as if nothing had caught it.  A signal that comes in the
 * middle of a commit waits for the commit's renames, so TARGET is left
 * whole: the old folder or the new one.  For a program's main(), once: the
 * library never installs a handler by itself.  Only signals whose action is
 * still the default get one (a program that handles or ignores a signal
 * keeps its own way); handlers stay installed and only re-raise when no
 * staging folder is pending.  The handler does only async-signal-safe work
 * (tk_staged_dir_remove_tree() on names recorded beforehand, renameat,
 * sigaction, raise).  At most 8 staging folders of a process are covered at
 * a time; more still work, without this. */
TK_API
void tk_staged_dir_clean_on_signal(void);

/* Renames the folder FROM to TO (same file system) as a commit does, for a
 * folder that tk_staged_dir_new() did not make.  FLAGS: TK_STAGED_DIR_REPLACE
 * or 0.  Returns 0, or a TK_STAGED_DIR_ERR_ value with errno set; FROM stays
 * where it was on failure. */
TK_API
int tk_staged_dir_place(const char *from, const char *to, unsigned flags);

/* Removes PATH and, when it is a folder, everything under it.  Symbolic
 * links are removed, never followed (a link to a folder elsewhere leaves
 * that folder alone), and the walk never enters another file system: a
 * mount point inside the tree stays, with the folders that lead to it.
 * Returns 0 when PATH is gone (or was not there), -1 with errno set when
 * something was left (EXDEV: a mount point; ELOOP: deeper than 64 folders;
 * or why a removal failed).  Usable in a signal handler: it allocates
 * nothing and calls only openat, fstatat, fstat, getdents64, lseek,
 * unlinkat and close. */
TK_API
int tk_staged_dir_remove_tree(const char *path);

/* How an output folder TARGET lies against an input (tk_staged_dir_overlap). */
enum {
    TK_STAGED_DIR_APART = 0,    /* neither is in the other */
    TK_STAGED_DIR_SAME = 1,     /* TARGET is INPUT */
    TK_STAGED_DIR_INSIDE = 2,   /* TARGET is inside the folder INPUT */
    TK_STAGED_DIR_CONTAINS = 3  /* INPUT is inside TARGET */
};

/* Whether writing the folder TARGET (which need not exist) would touch
 * INPUT, a file or folder that is read: TK_STAGED_DIR_SAME, _INSIDE or
 * _CONTAINS, else TK_STAGED_DIR_APART (also when INPUT does not exist).
 * Both are compared as real paths (links resolved, TARGET's missing tail
 * resolved from its nearest existing folder), and existing folders also by
 * device and inode, so that a link or a bind mount of INPUT is INPUT.  A
 * program refuses an output that is, is inside or contains its input, so
 * that writing the output never deletes or changes what it reads
 * (`tkview --html IN IN --force`, `tkview bundle X -o X/sub`). */
TK_API
int tk_staged_dir_overlap(const char *target, const char *input);

#ifdef __cplusplus
}
#endif
#endif
