/* remove_tree.c - removing a folder tree without leaving it
 * (tk_staged_dir_remove_tree(), staged_dir_remove_at()).
 *
 * The walk goes by descriptors: each folder is opened relative to its
 * parent with O_NOFOLLOW and checked to be the folder that was looked at,
 * so a symbolic link (or a folder swapped for one meanwhile) is removed as
 * a link, never followed out of the tree.  A folder on another file system
 * or at the root of a mount is not entered.  Nothing here allocates or
 * takes a lock, so the signal handler of staged_signal.c can call it: the
 * calls are POSIX's async-signal-safe openat, fstatat, fstat, lseek,
 * unlinkat and close, and Linux's getdents64 and statx, plain system calls
 * with no library state.
 */
#include "util/staged_dir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int is_dot_or_dotdot(const char *n)
{
    return n[0] == '.' && (n[1] == '\0' || (n[1] == '.' && n[2] == '\0'));
}

/* Whether NAME in DIRFD is the root of a mount (where the kernel can say:
 * STATX_ATTR_MOUNT_ROOT, Linux 5.8; a bind mount of a folder of the same
 * file system has the same device number, so comparing devices alone would
 * miss it). */
static int is_mount_root(int dirfd, const char *name)
{
    struct statx sx;
    if (statx(dirfd, name, AT_SYMLINK_NOFOLLOW, STATX_TYPE, &sx) != 0)
        return 0;
    return (sx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT) &&
           (sx.stx_attributes & STATX_ATTR_MOUNT_ROOT);
}

static int remove_in(int dirfd, const char *name, dev_t dev, int depth);

/* Empties the folder open as FD.  Entries are removed as they are read; the
 * folder is read again from the start until a pass finds it empty, since a
 * listing that changes under the reader may skip an entry (and another
 * thread may still be writing into a staging folder). */
static int empty_folder(int fd, dev_t dev, int depth)
{
    /* 1 KiB of entries at a time: enough for several of the longest
     * names, and little stack per level. */
    union {
        struct dirent64 align;
        char bytes[1024];
    } buf;
    for (int pass = 0; pass < 16; pass++) {
        if (lseek(fd, 0, SEEK_SET) < 0)
            return -1;
        int seen = 0, removed = 0, failed = 0;
        for (;;) {
            ssize_t n = getdents64(fd, buf.bytes, sizeof buf.bytes);
            if (n < 0)
                return -1;
            if (n == 0)
                break;
            for (ssize_t off = 0; off < n;) {
                const struct dirent64 *e = (const void *)(buf.bytes + off);
                off += e->d_reclen;
                if (is_dot_or_dotdot(e->d_name))
                    continue;
                seen++;
                if (remove_in(fd, e->d_name, dev, depth) == 0)
                    removed++;
                else
                    failed = errno;
            }
        }
        if (seen == 0)
            return 0;
        if (removed == 0) {
            errno = failed; /* what is left will not go */
            return -1;
        }
    }
    errno = ENOTEMPTY; /* kept being filled */
    return -1;
}

static int remove_in(int dirfd, const char *name, dev_t dev, int depth)
{
    struct stat st;
    if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
        return errno == ENOENT ? 0 : -1;
    if (!S_ISDIR(st.st_mode))
        return unlinkat(dirfd, name, 0) == 0 || errno == ENOENT ? 0 : -1;
    if (st.st_dev != dev || is_mount_root(dirfd, name)) {
        errno = EXDEV;
        return -1;
    }
    if (depth >= STAGED_DIR_MAX_DEPTH) {
        errno = ELOOP;
        return -1;
    }
    int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return errno == ENOENT ? 0 : -1;
    struct stat now;
    int rc;
    if (fstat(fd, &now) != 0) {
        rc = -1;
    } else if (now.st_dev != st.st_dev || now.st_ino != st.st_ino) {
        errno = EAGAIN; /* replaced between the two looks: not entered */
        rc = -1;
    } else {
        rc = empty_folder(fd, dev, depth + 1);
    }
    int saved = errno;
    close(fd);
    if (rc != 0) {
        errno = saved;
        return -1;
    }
    return unlinkat(dirfd, name, AT_REMOVEDIR) == 0 || errno == ENOENT ? 0 : -1;
}

int staged_dir_remove_at(int dirfd, const char *name, dev_t dev)
{
    /* A staging folder another thread still writes into may be refilled
     * between the last pass and its removal: try again a few times. */
    for (int tries = 0;; tries++) {
        int rc = remove_in(dirfd, name, dev, 0);
        if (rc == 0 || errno != ENOTEMPTY || tries == 3)
            return rc;
    }
}

int tk_staged_dir_remove_tree(const char *path)
{
    if (!path || !*path) {
        errno = EINVAL;
        return -1;
    }
    /* PATH split into its folder and its name, on the stack. */
    char buf[PATH_MAX];
    size_t len = strlen(path);
    if (len >= sizeof buf) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(buf, path, len + 1);
    while (len > 1 && buf[len - 1] == '/')
        buf[--len] = '\0';
    char *slash = strrchr(buf, '/');
    const char *name = slash ? slash + 1 : buf;
    if (!*name || is_dot_or_dotdot(name)) {
        errno = EINVAL; /* "/", ".", "..": not a tree to remove */
        return -1;
    }
    int dirfd = AT_FDCWD;
    if (slash) {
        if (slash == buf) {
            dirfd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        } else {
            *slash = '\0';
            dirfd = open(buf, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        }
        if (dirfd < 0)
            return errno == ENOENT ? 0 : -1;
    }
    struct stat st;
    int rc;
    if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
        rc = errno == ENOENT ? 0 : -1;
    else
        rc = staged_dir_remove_at(dirfd, name, st.st_dev);
    int saved = errno;
    if (dirfd != AT_FDCWD)
        close(dirfd);
    errno = saved;
    return rc;
}
