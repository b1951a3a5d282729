/* test_staged_dir.c - folders built beside their target and renamed into
 * place, trees removed (tk_staged_dir.h), and the clean-up on a stop signal,
 * tested with real signals sent to child processes.
 */
#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tk_test.h"
#include "tkdump/tk_staged_dir.h"
#include "util/staged_dir.h"

/* ---- helpers ---------------------------------------------------------- */

static void put(const char *dir, const char *rel, const char *text)
{
    char *p = g_build_filename(dir, rel, NULL);
    char *parent = g_path_get_dirname(p);
    g_assert_cmpint(g_mkdir_with_parents(parent, 0755), ==, 0);
    g_assert_true(g_file_set_contents(p, text, -1, NULL));
    g_free(parent);
    g_free(p);
}

/* The text of DIR/REL, or NULL when it cannot be read.  Caller frees. */
static char *text_of(const char *dir, const char *rel)
{
    char *p = g_build_filename(dir, rel, NULL);
    char *t = NULL;
    if (!g_file_get_contents(p, &t, NULL, NULL))
        t = NULL;
    g_free(p);
    return t;
}

static void assert_text(const char *dir, const char *rel, const char *want)
{
    char *t = text_of(dir, rel);
    g_assert_cmpstr(t, ==, want);
    g_free(t);
}

static gint compare_names(gconstpointer a, gconstpointer b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in DIR, sorted and joined with ' '.  Caller frees. */
static char *listing(const char *dir)
{
    GDir *d = g_dir_open(dir, 0, NULL);
    g_assert_nonnull(d);
    GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
    for (const char *e; (e = g_dir_read_name(d));)
        g_ptr_array_add(names, g_strdup(e));
    g_dir_close(d);
    g_ptr_array_sort(names, compare_names);
    g_ptr_array_add(names, NULL);
    char *s = g_strjoinv(" ", (char **)names->pdata);
    g_ptr_array_free(names, TRUE);
    return s;
}

static void assert_listing(const char *dir, const char *want)
{
    char *got = listing(dir);
    g_assert_cmpstr(got, ==, want);
    g_free(got);
}

static void remove_tmp(char *dir)
{
    g_assert_cmpint(tk_staged_dir_remove_tree(dir), ==, 0);
    g_assert_false(g_file_test(dir, G_FILE_TEST_EXISTS));
    g_free(dir);
}

/* ---- staging and committing ------------------------------------------- */

static void test_commit_new(void)
{
    char *dir = tk_test_make_tmp("staged-XXXXXX");
    char *target = g_build_filename(dir, "out", NULL);
    tk_staged_dir *s = tk_staged_dir_new(target, 0);
    g_assert_nonnull(s);
    g_assert_cmpstr(tk_staged_dir_target(s), ==, target);
    char *base = g_path_get_basename(tk_staged_dir_path(s));
    g_assert_true(g_str_has_prefix(base, ".out.tkview-tmp-"));
    /* Files made relative to the descriptor land in the staging folder. */
    int fd = openat(tk_staged_dir_fd(s), "a.txt", O_WRONLY | O_CREAT | O_EXCL, 0644);
    g_assert_cmpint(fd, >=, 0);
    g_assert_cmpint(write(fd, "new\n", 4), ==, 4);
    close(fd);
    put(tk_staged_dir_path(s), "sub/b.txt", "b\n");
    g_assert_false(g_file_test(target, G_FILE_TEST_EXISTS));
    g_assert_cmpint(tk_staged_dir_commit(s), ==, 0);
    tk_staged_dir_free(s);
    assert_text(target, "a.txt", "new\n");
    assert_text(target, "sub/b.txt", "b\n");
    assert_listing(dir, "out");
    g_free(base);
    g_free(target);
    remove_tmp(dir);
}

static void test_commit_over(void)
{
    char *dir = tk_test_make_tmp("staged-XXXXXX");
    char *target = g_build_filename(dir, "out", NULL);

    /* Without REPLACE: a folder with something in it stays. */
    put(target, "old.txt", "old\n");
    tk_staged_dir *s = tk_staged_dir_new(target, 0);
    put(tk_staged_dir_path(s), "a.txt", "new\n");
    g_assert_cmpint(tk_staged_dir_commit(s), ==, TK_STAGED_DIR_ERR_RENAME);
    g_assert_true(errno == ENOTEMPTY || errno == EEXIST);
    tk_staged_dir_free(s);
    assert_text(target, "old.txt", "old\n");
    assert_listing(dir, "out");

    /* With it: the old folder goes, and nothing is left beside. */
    s = tk_staged_dir_new(target, TK_STAGED_DIR_REPLACE);
    put(tk_staged_dir_path(s), "a.txt", "new\n");
    g_assert_cmpint(tk_staged_dir_commit(s), ==, 0);
    tk_staged_dir_free(s);
    assert_listing(target, "a.txt");
    assert_listing(dir, "out");

    /* An empty folder is replaced without REPLACE, as rename(2) does; a
     * file at TARGET is not a folder to replace. */
    g_assert_cmpint(tk_staged_dir_remove_tree(target), ==, 0);
    g_assert_cmpint(g_mkdir(target, 0755), ==, 0);
    s = tk_staged_dir_new(target, 0);
    put(tk_staged_dir_path(s), "a.txt", "new\n");
    g_assert_cmpint(tk_staged_dir_commit(s), ==, 0);
    tk_staged_dir_free(s);
    assert_listing(target, "a.txt");
    g_assert_cmpint(tk_staged_dir_remove_tree(target), ==, 0);
    put(dir, "out", "a file\n");
    s = tk_staged_dir_new(target, TK_STAGED_DIR_REPLACE);
    g_assert_cmpint(tk_staged_dir_commit(s), ==, TK_STAGED_DIR_ERR_RENAME);
    g_assert_cmpint(errno, ==, ENOTDIR);
    tk_staged_dir_free(s);
    assert_text(dir, "out", "a file\n");
    assert_listing(dir, "out");

    g_free(target);
    remove_tmp(dir);
}

static void test_abandon_and_bad_targets(void)
{
    char *dir = tk_test_make_tmp("staged-XXXXXX");
    char *target = g_build_filename(dir, "out/", NULL);
    tk_staged_dir *s = tk_staged_dir_new(target, 0);
    g_assert_nonnull(s);
    g_assert_true(g_str_has_suffix(tk_staged_dir_target(s), "/out"));
    put(tk_staged_dir_path(s), "deep/er/a.txt", "x\n");
    tk_staged_dir_free(s); /* not committed: removed */
    assert_listing(dir, "");
    tk_staged_dir_free(NULL);

    const char *bad[] = {"", "/", ".", "..", "a/..", "//"};
    for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
        errno = 0;
        g_assert_null(tk_staged_dir_new(bad[i], 0));
        g_assert_cmpint(errno, ==, EINVAL);
    }
    char *lost = g_build_filename(dir, "no/such/out", NULL);
    g_assert_null(tk_staged_dir_new(lost, 0));
    g_assert_cmpint(errno, ==, ENOENT);
    g_free(lost);
    g_free(target);
    remove_tmp(dir);
}

/* A folder staged by other means (the capture's, in its work folder). */
static void test_place(void)
{
    char *dir = tk_test_make_tmp("staged-XXXXXX");
    char *from = g_build_filename(dir, "work/bundle", NULL);
    char *to = g_build_filename(dir, "out", NULL);
    put(from, "new.txt", "new\n");
    put(to, "old.txt", "old\n");
    g_assert_cmpint(tk_staged_dir_place(from, to, 0), ==, TK_STAGED_DIR_ERR_RENAME);
    assert_text(from, "new.txt", "new\n"); /* FROM stays */
    g_assert_cmpint(tk_staged_dir_place(from, to, TK_STAGED_DIR_REPLACE), ==, 0);
    assert_listing(to, "new.txt");
    assert_listing(dir, "out work");
    char *work = g_build_filename(dir, "work", NULL);
    assert_listing(work, "");
    g_assert_cmpint(tk_staged_dir_place(from, to, 0), ==, TK_STAGED_DIR_ERR_RENAME);
    g_assert_cmpint(errno, ==, ENOENT);
    g_free(work);
    g_free(from);
    g_free(to);
    remove_tmp(dir);
}

/* ---- removing a tree -------------------------------------------------- */

static void test_remove_tree_links(void)
{
    char *dir = tk_test_make_tmp("staged-XXXXXX");
    char *outside = g_build_filename(dir, "outside", NULL);
    char *tree = g_build_filename(dir, "tree", NULL);
    put(outside, "keep.txt", "keep\n");
    put(outside, "sub/keep2.txt", "keep\n");
    put(tree, "a.txt", "a\n");
    put(tree, "b/c/d.txt", "d\n");
    char *l1 = g_build_filename(tree, "to-folder", NULL);
    char *l2 = g_build_filename(tree, "b/to-file", NULL);
    char *l3 = g_build_filename(tree, "b/c/dangling", NULL);
    char *keep = g_build_filename(outside, "keep.txt", NULL);
    g_assert_cmpint(symlink(outside, l1), ==, 0);
    g_assert_cmpint(symlink(keep, l2), ==, 0);
    g_assert_cmpint(symlink("/no/such/thing", l3), ==, 0);
    /* A trailing slash names the same folder. */
    char *slashed = g_strconcat(tree, "/", NULL);
    g_assert_cmpint(tk_staged_dir_remove_tree(slashed), ==, 0);
    g_assert_false(g_file_test(tree, G_FILE_TEST_EXISTS));
    assert_text(outside, "keep.txt", "keep\n");
    assert_text(outside, "sub/keep2.txt", "keep\n");
    /* A link given as the tree is removed as a link. */
    g_assert_cmpint(symlink(outside, tree), ==, 0);
    g_assert_cmpint(tk_staged_dir_remove_tree(tree), ==, 0);
    assert_listing(dir, "outside");
    assert_text(outside, "keep.txt", "keep\n");
    /* A file; something that is not there. */
    g_assert_cmpint(tk_staged_dir_remove_tree(keep), ==, 0);
    g_assert_cmpint(tk_staged_dir_remove_tree(keep), ==, 0);
    g_assert_cmpint(tk_staged_dir_remove_tree("/"), ==, -1);
    g_assert_cmpint(errno, ==, EINVAL);
    g_assert_cmpint(tk_staged_dir_remove_tree(""), ==, -1);
    g_free(slashed);
    g_free(keep);
    g_free(l1);
    g_free(l2);
    g_free(l3);
    g_free(tree);
    g_free(outside);
    remove_tmp(dir);
}

static void test_remove_tree_depth(void)
{
    char *dir = tk_test_make_tmp("staged-XXXXXX");
    GString *p = g_string_new(dir);
    g_string_append(p, "/tree");
    for (int i = 0; i < STAGED_DIR_MAX_DEPTH + 5; i++)
        g_string_append(p, "/d");
    g_assert_cmpint(g_mkdir_with_parents(p->str, 0755), ==, 0);
    char *tree = g_build_filename(dir, "tree", NULL);
    g_assert_cmpint(tk_staged_dir_remove_tree(tree), ==, -1);
    g_assert_cmpint(errno, ==, ELOOP);
    g_assert_true(g_file_test(tree, G_FILE_TEST_IS_DIR));
    /* What is left is the part too deep: remove it from below. */
    g_string_truncate(p, strlen(dir) + strlen("/tree") + 2 * 40);
    g_assert_cmpint(tk_staged_dir_remove_tree(p->str), ==, 0);
    g_assert_cmpint(tk_staged_dir_remove_tree(tree), ==, 0);
    g_string_free(p, TRUE);
    g_free(tree);
    remove_tmp(dir);
}

/* In a child: a child stuck for any reason (a lock held by another thread
 * at fork time, a handler that never returns) dies of SIGALRM, which the
 * parent reports, instead of hanging the test until the suite's timeout. */
#define CHILD_WATCHDOG_S 60

/* In a child: the signals these tests send or rely on get their default
 * action and are not blocked, whatever the test run inherited (a run
 * started under nohup ignores SIGHUP, and an ignored disposition survives
 * fork and exec: the child would never die of it).  Then the watchdog. */
static void child_start(void)
{
    const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGALRM};
    sigset_t set;
    sigemptyset(&set);
    for (size_t i = 0; i < G_N_ELEMENTS(sigs); i++) {
        signal(sigs[i], SIG_DFL);
        sigaddset(&set, sigs[i]);
    }
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    alarm(CHILD_WATCHDOG_S);
}

/* In a child with its own mount namespace (as root, or as root of a new
 * user namespace): a tmpfs and a bind mount of a folder of the same file
 * system inside the tree are left alone, with what is in them. */
static int mount_child(const char *dir)
{
    uid_t uid = geteuid();
    gid_t gid = getegid();
    if (unshare(CLONE_NEWNS) != 0) {
        if (unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0)
            return 77;
        char map[64];
        int fd = open("/proc/self/setgroups", O_WRONLY);
        if (fd >= 0) {
            (void)!write(fd, "deny", 4);
            close(fd);
        }
        snprintf(map, sizeof map, "0 %u 1", (unsigned)uid);
        fd = open("/proc/self/uid_map", O_WRONLY);
        if (fd < 0 || write(fd, map, strlen(map)) < 0)
            return 77;
        close(fd);
        snprintf(map, sizeof map, "0 %u 1", (unsigned)gid);
        fd = open("/proc/self/gid_map", O_WRONLY);
        if (fd < 0 || write(fd, map, strlen(map)) < 0)
            return 77;
        close(fd);
    }
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
        return 77;
    char *tree = g_build_filename(dir, "tree", NULL);
    char *tmpfs = g_build_filename(tree, "a/mnt", NULL);
    char *bind = g_build_filename(tree, "b/bound", NULL);
    char *outside = g_build_filename(dir, "outside", NULL);
    if (mount("tkview-test", tmpfs, "tmpfs", 0, "size=1m") != 0 ||
        mount(outside, bind, NULL, MS_BIND, NULL) != 0)
        return 77;
    put(tmpfs, "in-tmpfs.txt", "t\n");
    errno = 0;
    if (tk_staged_dir_remove_tree(tree) != -1 || errno != EXDEV)
        return 1;
    /* Everything else went: the tree is the mount points' parents. */
    char *a = g_build_filename(tree, "a", NULL);
    char *b = g_build_filename(tree, "b", NULL);
    if (strcmp(listing(tree), "a b") || strcmp(listing(a), "mnt") ||
        strcmp(listing(b), "bound") || strcmp(listing(tmpfs), "in-tmpfs.txt") ||
        strcmp(listing(outside), "keep.txt"))
        return 2;
    umount(tmpfs);
    umount(bind);
    return tk_staged_dir_remove_tree(tree) == 0 ? 0 : 3;
}

static void test_remove_tree_mounts(void)
{
    char *dir = tk_test_make_tmp("staged-XXXXXX");
    put(dir, "outside/keep.txt", "keep\n");
    put(dir, "tree/a/mnt/.keep", "");
    put(dir, "tree/a/x.txt", "x\n");
    put(dir, "tree/b/bound/.keep", "");
    put(dir, "tree/c.txt", "c\n");
    char *f = g_build_filename(dir, "tree/a/mnt/.keep", NULL);
    g_unlink(f);
    g_free(f);
    f = g_build_filename(dir, "tree/b/bound/.keep", NULL);
    g_unlink(f);
    g_free(f);
    pid_t pid = fork();
    g_assert_cmpint(pid, >=, 0);
    if (pid == 0) {
        child_start();
        _exit(mount_child(dir));
    }
    int status;
    g_assert_cmpint(waitpid(pid, &status, 0), ==, pid);
    g_assert_true(WIFEXITED(status));
    if (WEXITSTATUS(status) == 77) {
        g_test_skip("no mount namespace here (unshare or mount refused)");
    } else {
        g_assert_cmpint(WEXITSTATUS(status), ==, 0);
        assert_text(dir, "outside/keep.txt", "keep\n");
    }
    remove_tmp(dir);
}

/* ---- outputs against inputs ------------------------------------------ */

static int overlap_in(const char *dir, const char *target, const char *input)
{
    char *t = g_build_filename(dir, target, NULL);
    char *i = g_build_filename(dir, input, NULL);
    int rel = tk_staged_dir_overlap(t, i);
    g_free(t);
    g_free(i);
    return rel;
}

/* In a child with its own mount namespace: a bind mount of the input is
 * the input, by device and inode (its real path differs). */
static int overlap_bind_child(const char *dir)
{
    if (unshare(CLONE_NEWNS) != 0 ||
        mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
        return 77;
    char *in = g_build_filename(dir, "in", NULL);
    char *bound = g_build_filename(dir, "bound", NULL);
    if (mount(in, bound, NULL, MS_BIND, NULL) != 0)
        return 77;
    int rc = overlap_in(dir, "bound", "in") != TK_STAGED_DIR_SAME       ? 1
             : overlap_in(dir, "bound/sub", "in") != TK_STAGED_DIR_INSIDE ? 2
             : overlap_in(dir, "in/new", "bound") != TK_STAGED_DIR_INSIDE ? 3
                                                                          : 0;
    umount(bound);
    return rc;
}

static void test_overlap(void)
{
    char *dir = tk_test_make_tmp("staged-XXXXXX");
    put(dir, "in/k.ttgir", "k\n");
    put(dir, "in2/k.ttgir", "k\n");
    put(dir, "bound/.keep", "");
    char *in = g_build_filename(dir, "in", NULL);
    char *link = g_build_filename(dir, "link", NULL);
    g_assert_cmpint(symlink(in, link), ==, 0);

    /* The same folder, however it is spelled. */
    g_assert_cmpint(overlap_in(dir, "in", "in"), ==, TK_STAGED_DIR_SAME);
    g_assert_cmpint(overlap_in(dir, "in/", "./in"), ==, TK_STAGED_DIR_SAME);
    g_assert_cmpint(overlap_in(dir, "link", "in"), ==, TK_STAGED_DIR_SAME);
    g_assert_cmpint(overlap_in(dir, "in", "link/"), ==, TK_STAGED_DIR_SAME);
    /* Inside it, existing or not, through a link and "..". */
    g_assert_cmpint(overlap_in(dir, "in/sub", "in"), ==, TK_STAGED_DIR_INSIDE);
    g_assert_cmpint(overlap_in(dir, "in/a/b/../c", "in"), ==,
                    TK_STAGED_DIR_INSIDE);
    g_assert_cmpint(overlap_in(dir, "link/../in/x", "in"), ==,
                    TK_STAGED_DIR_INSIDE);
    /* Holding it: its parent, or a folder above a file read. */
    g_assert_cmpint(overlap_in(dir, ".", "in"), ==, TK_STAGED_DIR_CONTAINS);
    g_assert_cmpint(overlap_in(dir, "in", "in/k.ttgir"), ==,
                    TK_STAGED_DIR_CONTAINS);
    g_assert_cmpint(overlap_in(dir, "link", "in/k.ttgir"), ==,
                    TK_STAGED_DIR_CONTAINS);
    /* Apart: a sibling whose name starts the same, a missing input. */
    g_assert_cmpint(overlap_in(dir, "in2", "in"), ==, TK_STAGED_DIR_APART);
    g_assert_cmpint(overlap_in(dir, "in", "in2"), ==, TK_STAGED_DIR_APART);
    g_assert_cmpint(overlap_in(dir, "out", "in"), ==, TK_STAGED_DIR_APART);
    g_assert_cmpint(overlap_in(dir, "in", "missing"), ==, TK_STAGED_DIR_APART);

    pid_t pid = fork();
    g_assert_cmpint(pid, >=, 0);
    if (pid == 0) {
        child_start();
        _exit(overlap_bind_child(dir));
    }
    int status;
    g_assert_cmpint(waitpid(pid, &status, 0), ==, pid);
    g_assert_true(WIFEXITED(status));
    if (WEXITSTATUS(status) == 77)
        g_test_message("no mount namespace here: bind mounts not tried");
    else
        g_assert_cmpint(WEXITSTATUS(status), ==, 0);
    g_free(link);
    g_free(in);
    remove_tmp(dir);
}

/* ---- stop signals, sent to a child ------------------------------------ */

typedef struct {
    int ready[2]; /* child -> parent: one byte when staged */
    int go[2];    /* parent -> child: one byte to go on */
} channel;

static void channel_open(channel *c)
{
    g_assert_cmpint(pipe(c->ready), ==, 0);
    g_assert_cmpint(pipe(c->go), ==, 0);
}

static void child_ready(channel *c)
{
    (void)!write(c->ready[1], "r", 1);
}

static void child_wait(channel *c)
{
    char b;
    (void)!read(c->go[0], &b, 1);
}

/* Waits for the child's byte (FALSE when it died first: the parent's copy
 * of the write end is closed first, so a dead child means end of file, not
 * a read that never returns). */
static gboolean parent_wait_ready(channel *c)
{
    char b;
    if (c->ready[1] >= 0) {
        close(c->ready[1]);
        c->ready[1] = -1;
    }
    return read(c->ready[0], &b, 1) == 1;
}

static void channel_close(channel *c)
{
    for (int i = 0; i < 2; i++) {
        if (c->ready[i] >= 0)
            close(c->ready[i]);
        if (c->go[i] >= 0)
            close(c->go[i]);
    }
}

/* The child: stages a folder beside DIR/out with a few files in it, says
 * so, and waits to be told to go on (then commits and exits 0). */
static int staging_child(const char *dir, channel *c, gboolean ask)
{
    if (ask)
        tk_staged_dir_clean_on_signal();
    char *target = g_build_filename(dir, "out", NULL);
    tk_staged_dir *s = tk_staged_dir_new(target, 0);
    if (!s)
        return 10;
    put(tk_staged_dir_path(s), "a.txt", "a\n");
    put(tk_staged_dir_path(s), "k/b/c.txt", "c\n");
    child_ready(c);
    child_wait(c);
    int rc = tk_staged_dir_commit(s);
    tk_staged_dir_free(s);
    return rc == 0 ? 0 : 11;
}

static void test_signal_removes_staging(void)
{
    const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < G_N_ELEMENTS(sigs); i++) {
        char *dir = tk_test_make_tmp("staged-XXXXXX");
        channel c;
        channel_open(&c);
        pid_t pid = fork();
        g_assert_cmpint(pid, >=, 0);
        if (pid == 0) {
            child_start();
            _exit(staging_child(dir, &c, TRUE));
        }
        g_assert_true(parent_wait_ready(&c));
        char *staged = listing(dir);
        g_assert_true(g_str_has_prefix(staged, ".out.tkview-tmp-"));
        g_free(staged);
        g_assert_cmpint(kill(pid, sigs[i]), ==, 0);
        int status;
        g_assert_cmpint(waitpid(pid, &status, 0), ==, pid);
        /* It died of the signal (a shell sees 128 + N), leaving nothing. */
        g_assert_true(WIFSIGNALED(status));
        g_assert_cmpint(WTERMSIG(status), ==, sigs[i]);
        assert_listing(dir, "");
        channel_close(&c);
        remove_tmp(dir);
    }
}

/* Without tk_staged_dir_clean_on_signal() the library installs nothing:
 * the default action kills the child and the staging folder stays.  With
 * it, a signal the program ignores stays ignored. */
static void test_signal_only_when_asked(void)
{
    char *dir = tk_test_make_tmp("staged-XXXXXX");
    channel c;
    channel_open(&c);
    pid_t pid = fork();
    if (pid == 0) {
        child_start();
        _exit(staging_child(dir, &c, FALSE));
    }
    g_assert_true(parent_wait_ready(&c));
    kill(pid, SIGTERM);
    int status;
    g_assert_cmpint(waitpid(pid, &status, 0), ==, pid);
    g_assert_true(WIFSIGNALED(status));
    char *left = listing(dir);
    g_assert_true(g_str_has_prefix(left, ".out.tkview-tmp-"));
    g_free(left);
    channel_close(&c);
    remove_tmp(dir);

    dir = tk_test_make_tmp("staged-XXXXXX");
    channel_open(&c);
    pid = fork();
    if (pid == 0) {
        child_start();
        signal(SIGTERM, SIG_IGN);
        _exit(staging_child(dir, &c, TRUE));
    }
    g_assert_true(parent_wait_ready(&c));
    kill(pid, SIGTERM);
    (void)!write(c.go[1], "g", 1);
    g_assert_cmpint(waitpid(pid, &status, 0), ==, pid);
    g_assert_true(WIFEXITED(status));
    g_assert_cmpint(WEXITSTATUS(status), ==, 0);
    assert_listing(dir, "out");
    channel_close(&c);
    remove_tmp(dir);
}

/* A replacing commit with a signal at each of its steps: the renames are
 * not cut apart, the old folder aside is removed, TARGET is the new one. */
static int raise_at;
static pthread_t other_thread;

static void raise_here(int step)
{
    if (step == raise_at)
        raise(SIGTERM);
}

static void signal_other_thread(int step)
{
    if (step != raise_at)
        return;
    pthread_kill(other_thread, SIGTERM);
    /* Long enough for its handler to start, and to wait for this commit. */
    g_usleep(200 * 1000);
}

static void *idle_thread(void *unused)
{
    for (;;)
        pause();
    return NULL;
}

static int commit_child(const char *dir, gboolean from_other_thread)
{
    tk_staged_dir_clean_on_signal();
    char *target = g_build_filename(dir, "out", NULL);
    tk_staged_dir *s = tk_staged_dir_new(target, TK_STAGED_DIR_REPLACE);
    if (!s)
        return 10;
    put(tk_staged_dir_path(s), "new.txt", "new\n");
    if (from_other_thread) {
        /* The thread that takes the signal; this one holds it back while
         * committing. */
        if (pthread_create(&other_thread, NULL, idle_thread, NULL) != 0)
            return 12;
        staged_dir_test_step = signal_other_thread;
    } else {
        staged_dir_test_step = raise_here;
    }
    int rc = tk_staged_dir_commit(s);
    if (from_other_thread)
        for (;;)
            pause(); /* the handler on the other thread ends the process */
    return rc == 0 ? 13 : 14; /* not reached: the signal came */
}

static void run_commit_signal(int step, gboolean from_other_thread)
{
    char *dir = tk_test_make_tmp("staged-XXXXXX");
    put(dir, "out/old.txt", "old\n");
    raise_at = step;
    pid_t pid = fork();
    g_assert_cmpint(pid, >=, 0);
    if (pid == 0) {
        child_start();
        _exit(commit_child(dir, from_other_thread));
    }
    int status;
    g_assert_cmpint(waitpid(pid, &status, 0), ==, pid);
    if (!WIFSIGNALED(status))
        g_error("step %d: the child exited with %d", step, WEXITSTATUS(status));
    g_assert_cmpint(WTERMSIG(status), ==, SIGTERM);
    /* No staging folder, no old folder aside: the new one in place. */
    assert_listing(dir, "out");
    char *out = g_build_filename(dir, "out", NULL);
    assert_listing(out, "new.txt");
    g_free(out);
    remove_tmp(dir);
}

static void test_signal_during_commit(void)
{
    run_commit_signal(STAGED_DIR_STEP_BEGIN, FALSE);
    run_commit_signal(STAGED_DIR_STEP_ASIDE, FALSE);
    run_commit_signal(STAGED_DIR_STEP_PLACED, FALSE);
    /* Taken by another thread while the old folder is aside and the new
     * one not yet in place: its handler waits for the commit. */
    run_commit_signal(STAGED_DIR_STEP_ASIDE, TRUE);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/staged-dir/commit-new", test_commit_new);
    g_test_add_func("/staged-dir/commit-over", test_commit_over);
    g_test_add_func("/staged-dir/abandon-and-bad-targets",
                    test_abandon_and_bad_targets);
    g_test_add_func("/staged-dir/place", test_place);
    g_test_add_func("/staged-dir/remove-tree/links", test_remove_tree_links);
    g_test_add_func("/staged-dir/remove-tree/depth", test_remove_tree_depth);
    g_test_add_func("/staged-dir/remove-tree/mounts", test_remove_tree_mounts);
    g_test_add_func("/staged-dir/overlap", test_overlap);
    g_test_add_func("/staged-dir/signal/removes-staging",
                    test_signal_removes_staging);
    g_test_add_func("/staged-dir/signal/only-when-asked",
                    test_signal_only_when_asked);
    g_test_add_func("/staged-dir/signal/during-commit",
                    test_signal_during_commit);
    return g_test_run();
}
