/* staged_signal.c - staging folders removed on SIGINT, SIGTERM and SIGHUP
 * (tk_staged_dir_clean_on_signal()).
 *
 * A signal handler may only do async-signal-safe work: no malloc, no
 * locks, no stdio.  So everything it needs is recorded beforehand, in a
 * fixed table of records written by the main flow: the descriptor of the
 * folder that holds the staging folder, the names in it (staging, target,
 * and during a replacing commit the name the old target went to) and the
 * state.  The state is an atomic int (lock-free, so reading it in a handler
 * is safe); a record is filled before its state says so.
 *
 * A commit is two renames that must not be cut apart.  The committing
 * thread holds the stop signals back for their duration, so the handler
 * never runs in it mid-commit; a handler running on another thread waits
 * (polling, which is async-signal-safe) until the commit ends.  It then
 * finds either a pending staging folder (removed), or the new folder in
 * place with the old one aside (the old one removed).
 */
#include "util/staged_dir.h"

#include <errno.h>
#include <glib.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

_Static_assert(ATOMIC_INT_LOCK_FREE == 2,
               "the signal handler reads records' states without locks");

#define N_RECORDS 8

enum {
    REC_FREE = 0,    /* unused */
    REC_FILLING = 1, /* taken, being written: the handler skips it */
    REC_STAGED = STAGED_DIR_STAGED,
    REC_ASIDE = STAGED_DIR_ASIDE, /* a handler only sees it when a commit
                                     outlasted its wait */
    REC_PLACED = STAGED_DIR_PLACED
};

typedef struct {
    atomic_int state;
    atomic_int committing; /* 1 between commit_begin and commit_end */
    int parent_fd;
    dev_t dev;
    char staging[NAME_MAX + 1];
    char target[NAME_MAX + 1];
    char aside[NAME_MAX + 1]; /* "" when nothing was moved aside */
} record;

static record records[N_RECORDS];

static const int stop_signals[] = {SIGINT, SIGTERM, SIGHUP};


static int copy_name(char *dst, const char *src)
{
    size_t n = strlen(src);
    if (n > NAME_MAX)
        return -1;
    memcpy(dst, src, n + 1);
    return 0;
}

int staged_dir_record(int parent_fd, dev_t dev, const char *staging,
                      const char *target)
{
    for (int r = 0; r < N_RECORDS; r++) {
        int expected = REC_FREE;
        if (!atomic_compare_exchange_strong(&records[r].state, &expected,
                                            REC_FILLING))
            continue;
        record *rec = &records[r];
        if (copy_name(rec->staging, staging) != 0 ||
            copy_name(rec->target, target) != 0) {
            atomic_store(&rec->state, REC_FREE);
            return -1;
        }
        rec->aside[0] = '\0';
        rec->parent_fd = parent_fd;
        rec->dev = dev;
        atomic_store(&rec->committing, 0);
        atomic_store(&rec->state, REC_STAGED);
        return r;
    }
    return -1;
}

void staged_dir_forget(int r)
{
    if (r >= 0 && r < N_RECORDS)
        atomic_store(&records[r].state, REC_FREE);
}

void staged_dir_commit_begin(int r, sigset_t *saved)
{
    sigset_t block;
    sigemptyset(&block);
    for (size_t i = 0; i < G_N_ELEMENTS(stop_signals); i++)
        sigaddset(&block, stop_signals[i]);
    pthread_sigmask(SIG_BLOCK, &block, saved);
    if (r >= 0 && r < N_RECORDS)
        atomic_store(&records[r].committing, 1);
}

void staged_dir_commit_end(int r, const sigset_t *saved)
{
    if (r >= 0 && r < N_RECORDS)
        atomic_store(&records[r].committing, 0);
    pthread_sigmask(SIG_SETMASK, saved, NULL);
}

void staged_dir_record_state(int r, int state, const char *aside)
{
    if (r < 0 || r >= N_RECORDS)
        return;
    record *rec = &records[r];
    /* The name first, then the state that makes the handler read it; the
     * handler never runs on this thread meanwhile (commit_begin holds the
     * signals back) and waits for other threads' commits to end. */
    if (!aside || copy_name(rec->aside, aside) != 0)
        rec->aside[0] = '\0';
    atomic_store(&rec->state, state);
}

/* What the handler does for one record. */
static void clean(record *rec)
{
    /* Another thread is between two renames of this record: let it end
     * (it holds the signals back, so it is not this thread).  Bounded, in
     * case it is stuck on a slow file system. */
    for (int ms = 0; ms < 5000 && atomic_load(&rec->committing); ms++)
        poll(NULL, 0, 1);
    int fd = rec->parent_fd;
    switch (atomic_load(&rec->state)) {
    case REC_STAGED:
        staged_dir_remove_at(fd, rec->staging, rec->dev);
        break;
    case REC_ASIDE:
        /* The commit did not end: TARGET is either still the old folder
         * (the aside name an empty placeholder), or already the new one. */
        staged_dir_remove_at(fd, rec->staging, rec->dev);
        if (renameat(fd, rec->aside, fd, rec->target) != 0 &&
            (errno == ENOTEMPTY || errno == EEXIST))
            staged_dir_remove_at(fd, rec->aside, rec->dev);
        break;
    case REC_PLACED:
        if (rec->aside[0])
            staged_dir_remove_at(fd, rec->aside, rec->dev);
        break;
    default:
        break;
    }
}

static void on_signal(int sig)
{
    int saved = errno;
    for (int r = 0; r < N_RECORDS; r++)
        clean(&records[r]);
    /* Die of SIG as if it had not been caught: the default action comes
     * back, and the signal, held back while this handler runs, is
     * delivered as soon as it returns. */
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    raise(sig);
    errno = saved;
}

static void install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    /* One clean-up at a time: the other stop signals wait for it. */
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < G_N_ELEMENTS(stop_signals); i++)
        sigaddset(&sa.sa_mask, stop_signals[i]);
    for (size_t i = 0; i < G_N_ELEMENTS(stop_signals); i++) {
        struct sigaction old;
        if (sigaction(stop_signals[i], NULL, &old) != 0)
            continue;
        if (!(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_DFL)
            sigaction(stop_signals[i], &sa, NULL);
    }
}

void tk_staged_dir_clean_on_signal(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, install);
}
