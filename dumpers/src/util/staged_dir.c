/* staged_dir.c - a folder built beside its target and renamed into place
 * (tk_staged_dir_new(), _commit(), _place()).
 *
 * The staging folder and the target are names in one parent folder, held
 * open: the renames are renameat()s relative to it, so a chdir or a renamed
 * ancestor cannot send them elsewhere, and the signal handler
 * (staged_signal.c) works from the same descriptor and names.
 */
#include "util/staged_dir.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <fcntl.h>
#include <glib.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

staged_dir_step_fn *staged_dir_test_step;

struct tk_staged_dir {
    char *target;  /* as given, trailing slashes removed */
    char *path;    /* the staging folder */
    char *target_name, *staging_name; /* in the parent folder */
    int parent_fd; /* the folder both are in */
    int fd;        /* the staging folder */
    dev_t dev;
    unsigned flags;
    int record;    /* staged_signal.c's, or -1 */
    gboolean committed;
};

/* TARGET without trailing slashes, split into its folder and its name.
 * FALSE (errno EINVAL) when it names no folder: "", "/", ".", "..". */
static gboolean split_target(const char *target, char **trimmed, char **dir,
                             char **name)
{
    if (!target || !*target) {
        errno = EINVAL;
        return FALSE;
    }
    char *t = g_strdup(target);
    size_t n = strlen(t);
    while (n > 1 && t[n - 1] == '/')
        t[--n] = '\0';
    char *base = g_path_get_basename(t);
    if (!strcmp(base, "/") || !strcmp(base, ".") || !strcmp(base, "..")) {
        g_free(base);
        g_free(t);
        errno = EINVAL;
        return FALSE;
    }
    *trimmed = t;
    *dir = g_path_get_dirname(t);
    *name = base;
    return TRUE;
}

static void test_step(int step)
{
    if (staged_dir_test_step)
        staged_dir_test_step(step);
}

/* Six random letters and digits, as mkdtemp() puts in place of XXXXXX. */
static void random_tail(char rnd[7])
{
    static const char chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    for (int i = 0; i < 6; i++)
        rnd[i] = chars[g_random_int_range(0, (gint32)sizeof chars - 1)];
    rnd[6] = '\0';
}

/* Creates an empty folder ".TO.tkview-old-XXXXXX" in TO_DIR to rename the
 * old TO over (rename(2) replaces an empty folder), so the name cannot be
 * taken between choosing and using it.  Its name goes to ASIDE. */
static int make_aside(int to_dir, const char *to, char aside[NAME_MAX + 1])
{
    for (int tries = 0; tries < 100; tries++) {
        char rnd[7];
        random_tail(rnd);
        int n = g_snprintf(aside, NAME_MAX + 1, ".%s.tkview-old-%s", to, rnd);
        if (n < 0 || n > NAME_MAX) {
            errno = ENAMETOOLONG;
            return -1;
        }
        if (mkdirat(to_dir, aside, 0700) == 0)
            return 0;
        if (errno != EEXIST)
            return -1;
    }
    return -1;
}

/* FROM in FROM_DIR renamed to TO in TO_DIR (see tk_staged_dir_place()),
 * as record REC (or -1) tells the signal handler. */
static int place_at(int from_dir, const char *from, int to_dir, const char *to,
                    unsigned flags, int rec)
{
    char aside[NAME_MAX + 1] = "";
    sigset_t saved;
    int rc = 0, e = 0;
    staged_dir_commit_begin(rec, &saved);
    test_step(STAGED_DIR_STEP_BEGIN);
    if (renameat(from_dir, from, to_dir, to) == 0) {
        staged_dir_record_state(rec, STAGED_DIR_PLACED, NULL);
        test_step(STAGED_DIR_STEP_PLACED);
        goto end;
    }
    e = errno;
    if (!(flags & TK_STAGED_DIR_REPLACE) || (e != ENOTEMPTY && e != EEXIST)) {
        rc = TK_STAGED_DIR_ERR_RENAME;
        goto end;
    }
    /* The old folder goes aside first: if the second rename fails it comes
     * back, and TO is never half old, half new. */
    if (make_aside(to_dir, to, aside) != 0) {
        e = errno;
        rc = TK_STAGED_DIR_ERR_ASIDE;
        goto end;
    }
    staged_dir_record_state(rec, STAGED_DIR_ASIDE, aside);
    if (renameat(to_dir, to, to_dir, aside) != 0) {
        e = errno;
        unlinkat(to_dir, aside, AT_REMOVEDIR);
        staged_dir_record_state(rec, STAGED_DIR_STAGED, NULL);
        aside[0] = '\0';
        rc = TK_STAGED_DIR_ERR_ASIDE;
        goto end;
    }
    test_step(STAGED_DIR_STEP_ASIDE);
    if (renameat(from_dir, from, to_dir, to) != 0) {
        e = errno;
        renameat(to_dir, aside, to_dir, to); /* put it back */
        staged_dir_record_state(rec, STAGED_DIR_STAGED, NULL);
        aside[0] = '\0';
        rc = TK_STAGED_DIR_ERR_RENAME;
        goto end;
    }
    staged_dir_record_state(rec, STAGED_DIR_PLACED, aside);
    test_step(STAGED_DIR_STEP_PLACED);
end:
    staged_dir_commit_end(rec, &saved);
    if (rc == 0 && aside[0]) {
        /* The old folder, after the signals are let through again: a
         * signal meanwhile finds it recorded and removes it. */
        struct stat st;
        if (fstatat(to_dir, aside, &st, AT_SYMLINK_NOFOLLOW) == 0)
            staged_dir_remove_at(to_dir, aside, st.st_dev);
        staged_dir_record_state(rec, STAGED_DIR_PLACED, NULL);
    }
    errno = e;
    return rc;
}

/* The file in a staging folder that says it is tkview's and whose: the pid
 * of the run that made it.  A run killed with SIGKILL (no handler runs)
 * leaves the folder; the next run into the same place removes it when that
 * pid is gone. */
#define STAGING_MARKER ".tkview-staging"

/* Whether NAME is ".TARGET.tkview-tmp-" and six letters or digits. */
static gboolean is_staging_name(const char *name, const char *target)
{
    size_t t = strlen(target);
    static const char tail[] = ".tkview-tmp-";
    if (name[0] != '.' || strncmp(name + 1, target, t) != 0 ||
        strncmp(name + 1 + t, tail, sizeof tail - 1) != 0)
        return FALSE;
    const char *r = name + 1 + t + sizeof tail - 1;
    for (int i = 0; i < 6; i++)
        if (!g_ascii_isalnum(r[i]))
            return FALSE;
    return r[6] == '\0';
}

/* The pid the marker in the folder NAME (in PARENT_FD) names, or 0 when it
 * has none that reads as a pid (then it is not known to be tkview's). */
static long marker_pid(int parent_fd, const char *name)
{
    int dfd = openat(parent_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dfd < 0)
        return 0;
    int fd = openat(dfd, STAGING_MARKER, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    close(dfd);
    if (fd < 0)
        return 0;
    char buf[32];
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return 0;
    buf[n] = '\0';
    char *end = NULL;
    long pid = strtol(buf, &end, 10);
    return pid > 0 && end && (*end == '\n' || *end == '\0') ? pid : 0;
}

/* Removes the staging folders for S's target that runs killed before they
 * could remove them left in S->parent_fd: only folders named like tkview's
 * own, on the same file system, holding tkview's marker, whose run is gone. */
static void remove_leftovers(tk_staged_dir *s, dev_t dev)
{
    int dfd = dup(s->parent_fd);
    DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
    if (!d) {
        if (dfd >= 0)
            close(dfd);
        return;
    }
    GPtrArray *gone = g_ptr_array_new_with_free_func(g_free);
    for (struct dirent *e; (e = readdir(d));) {
        if (!is_staging_name(e->d_name, s->target_name))
            continue;
        long pid = marker_pid(s->parent_fd, e->d_name);
        if (pid > 0 && pid != (long)getpid() && kill((pid_t)pid, 0) != 0 &&
            errno == ESRCH)
            g_ptr_array_add(gone, g_strdup(e->d_name));
    }
    closedir(d);
    for (guint i = 0; i < gone->len; i++)
        staged_dir_remove_at(s->parent_fd, g_ptr_array_index(gone, i), dev);
    g_ptr_array_free(gone, TRUE);
}

/* Writes the marker into the new staging folder NAME. */
static void write_marker(int parent_fd, const char *name)
{
    int dfd = openat(parent_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dfd < 0)
        return;
    int fd = openat(dfd, STAGING_MARKER, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd >= 0) {
        char buf[32];
        int n = g_snprintf(buf, sizeof buf, "%ld\n", (long)getpid());
        if (write(fd, buf, (size_t)n) != n) {
            /* no marker: the folder is only never cleaned by a later run */
        }
        close(fd);
    }
    close(dfd);
}

/* Creates S's staging folder ".NAME.tkview-tmp-XXXXXX" in S->parent_fd
 * (mode 0755) and records it for the signal handler.  The name is recorded
 * before the folder is made: a stop signal between the two would otherwise
 * leave a folder the handler knows nothing of, and the handler removes a
 * recorded name that does not exist yet without harm.  Returns 0, or -1
 * with errno set. */
static int make_staging(tk_staged_dir *s)
{
    struct stat pst;
    if (fstat(s->parent_fd, &pst) != 0)
        return -1;
    remove_leftovers(s, pst.st_dev);
    for (int tries = 0; tries < 100; tries++) {
        char rnd[7], name[NAME_MAX + 1];
        random_tail(rnd);
        int n = g_snprintf(name, sizeof name, ".%s.tkview-tmp-%s",
                           s->target_name, rnd);
        if (n < 0 || n > NAME_MAX) {
            errno = ENAMETOOLONG;
            return -1;
        }
        /* A folder is made on its parent's file system. */
        s->record = staged_dir_record(s->parent_fd, pst.st_dev, name,
                                      s->target_name);
        if (mkdirat(s->parent_fd, name, 0755) == 0) {
            write_marker(s->parent_fd, name);
            s->staging_name = g_strdup(name);
            return 0;
        }
        int e = errno;
        staged_dir_forget(s->record);
        s->record = -1;
        if (e != EEXIST) {
            errno = e;
            return -1;
        }
    }
    errno = EEXIST;
    return -1;
}

tk_staged_dir *tk_staged_dir_new(const char *target, unsigned flags)
{
    char *trimmed, *dir, *name;
    if (!split_target(target, &trimmed, &dir, &name))
        return NULL;
    tk_staged_dir *s = g_new0(tk_staged_dir, 1);
    s->target = trimmed;
    s->target_name = name;
    s->flags = flags;
    s->fd = -1;
    s->record = -1;
    s->parent_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int e = errno;
    if (s->parent_fd >= 0) {
        if (make_staging(s) == 0)
            s->path = g_build_filename(dir, s->staging_name, NULL);
        else
            e = errno;
    }
    g_free(dir);
    if (s->path) {
        s->fd = openat(s->parent_fd, s->staging_name,
                       O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        struct stat st;
        if (s->fd >= 0 && fstat(s->fd, &st) == 0) {
            s->dev = st.st_dev;
            return s;
        }
        e = errno;
        unlinkat(s->parent_fd, s->staging_name, AT_REMOVEDIR);
        staged_dir_forget(s->record);
        s->record = -1;
        s->committed = TRUE; /* nothing left for free to remove */
    }
    tk_staged_dir_free(s);
    errno = e;
    return NULL;
}

const char *tk_staged_dir_path(const tk_staged_dir *s)
{
    return s->path;
}

const char *tk_staged_dir_target(const tk_staged_dir *s)
{
    return s->target;
}

int tk_staged_dir_fd(const tk_staged_dir *s)
{
    return s->fd;
}

int tk_staged_dir_commit(tk_staged_dir *s)
{
    if (s->committed) {
        errno = EINVAL;
        return TK_STAGED_DIR_ERR_RENAME;
    }
    /* The marker is the staging folder's, not the output's. */
    unlinkat(s->fd, STAGING_MARKER, 0);
    int rc = place_at(s->parent_fd, s->staging_name, s->parent_fd,
                      s->target_name, s->flags, s->record);
    if (rc == 0)
        s->committed = TRUE;
    return rc;
}

void tk_staged_dir_free(tk_staged_dir *s)
{
    if (!s)
        return;
    int e = errno;
    if (!s->committed && s->staging_name)
        staged_dir_remove_at(s->parent_fd, s->staging_name, s->dev);
    /* Forgotten only once removed: a signal meanwhile removes it too. */
    staged_dir_forget(s->record);
    if (s->fd >= 0)
        close(s->fd);
    if (s->parent_fd >= 0)
        close(s->parent_fd);
    g_free(s->target);
    g_free(s->path);
    g_free(s->target_name);
    g_free(s->staging_name);
    g_free(s);
    errno = e;
}

int tk_staged_dir_place(const char *from, const char *to, unsigned flags)
{
    char *from_t, *from_dir, *from_name, *to_t, *to_dir, *to_name;
    if (!split_target(from, &from_t, &from_dir, &from_name))
        return TK_STAGED_DIR_ERR_RENAME;
    if (!split_target(to, &to_t, &to_dir, &to_name)) {
        g_free(from_t);
        g_free(from_dir);
        g_free(from_name);
        return TK_STAGED_DIR_ERR_RENAME;
    }
    int fd_from = open(from_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int e = errno;
    int fd_to = fd_from >= 0 ? open(to_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
    int rc = TK_STAGED_DIR_ERR_RENAME;
    if (fd_to >= 0 && strstr(from_name, ".tkview-tmp-")) {
        /* a staging folder placed elsewhere: its marker stays behind */
        int d = openat(fd_from, from_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (d >= 0) {
            unlinkat(d, STAGING_MARKER, 0);
            close(d);
        }
    }
    if (fd_to >= 0)
        rc = place_at(fd_from, from_name, fd_to, to_name, flags, -1);
    e = fd_to >= 0 ? errno : fd_from >= 0 ? errno : e;
    if (fd_from >= 0)
        close(fd_from);
    if (fd_to >= 0)
        close(fd_to);
    g_free(from_t);
    g_free(from_dir);
    g_free(from_name);
    g_free(to_t);
    g_free(to_dir);
    g_free(to_name);
    errno = e;
    return rc;
}
