/* stderr_batch.c - libtkview-stderr-batch.so: batches a program's writes to
 * its stderr, for tkview capture (LD_PRELOAD).
 *
 * Why: with LLVM_IR_ENABLE_DUMP Triton turns on LLVM's print-after-all,
 * and LLVM prints to errs(), an unbuffered stream: every token of every
 * dump is a write(2) of about 3 bytes.  On the FP8 example (three kernels,
 * 373 MB of LLVM dumps) that is over 100 million system calls, most of
 * the 56 s the knobs add to an 8 s run (docs/capture.md).  Collected here
 * and written in blocks of up to BATCH bytes, the same bytes in the same
 * order cost a few thousand calls.
 *
 * What is batched: write() to file descriptor 2 from any thread of this
 * process.  The batch is written out when it is full, by a thread every
 * FLUSH_MS (so a message is never held back longer than that), before
 * fd 2 is replaced or closed (dup2, dup3, close), before a fork and a
 * posix_spawn, at exit, _exit and abort, and when a fatal signal or
 * SIGTERM arrives (then the signal goes on to what handled it before).
 * Writes through C stdio's stderr (fprintf) do not pass through write()
 * and can overtake a batch by up to FLUSH_MS; neither Python nor LLVM
 * writes that way.  A write made while this thread holds the batch (from
 * a signal handler) goes straight out.
 *
 * Only libc: it is loaded into whatever the captured program runs.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BATCH (256 * 1024)
#define FLUSH_MS 50

static ssize_t (*real_write)(int, const void *, size_t);
static int (*real_dup2)(int, int);
static int (*real_dup3)(int, int, int);
static int (*real_close)(int);
static void (*real_exit_)(int);
static void (*real_abort)(void);
static int (*real_spawn)(pid_t *, const char *, const posix_spawn_file_actions_t *,
                         const posix_spawnattr_t *, char *const[], char *const[]);
static int (*real_spawnp)(pid_t *, const char *, const posix_spawn_file_actions_t *,
                          const posix_spawnattr_t *, char *const[], char *const[]);

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic(pthread_t) owner; /* the thread holding LOCK, or 0 */
static char buf[BATCH];
static size_t used;
static atomic_bool on;       /* batching (off once exit began) */
static atomic_bool flusher;  /* the flushing thread runs */

/* The next definition of NAME (libc's) into *FN: through a void ** as
 * POSIX's dlsym page shows, ISO C having no object-to-function cast. */
static void next(void *fn, const char *name)
{
    *(void **)fn = dlsym(RTLD_NEXT, name);
}

static void resolve(void)
{
    next(&real_write, "write");
    next(&real_dup2, "dup2");
    next(&real_dup3, "dup3");
    next(&real_close, "close");
    next(&real_exit_, "_exit");
    next(&real_abort, "abort");
    next(&real_spawn, "posix_spawn");
    next(&real_spawnp, "posix_spawnp");
}

/* N bytes at P to fd 2, whatever it takes; errno as it was. */
static void write_out(const char *p, size_t n)
{
    int e = errno;
    while (n) {
        ssize_t w = real_write(2, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;
        p += w;
        n -= (size_t)w;
    }
    errno = e;
}

static void take(void)
{
    pthread_mutex_lock(&lock);
    atomic_store(&owner, pthread_self());
}

static void give(void)
{
    atomic_store(&owner, (pthread_t)0);
    pthread_mutex_unlock(&lock);
}

/* this thread holds the batch: we are in a signal handler that
 * interrupted it */
static int mine(void)
{
    pthread_t o = atomic_load(&owner);
    return o && pthread_equal(o, pthread_self());
}

static void flush_locked(void)
{
    if (used)
        write_out(buf, used);
    used = 0;
}

/* The batch written out now (any thread, not from a signal handler that
 * interrupted this thread's write). */
static void flush(void)
{
    if (!real_write || mine())
        return;
    take();
    flush_locked();
    give();
}

static void *flush_loop(void *arg)
{
    (void)arg;
    const struct timespec t = {0, FLUSH_MS * 1000000L};
    for (;;) {
        nanosleep(&t, NULL);
        flush();
    }
    return NULL;
}

static void start_flusher(void)
{
    if (atomic_exchange(&flusher, true))
        return;
    pthread_t t;
    pthread_attr_t a;
    sigset_t all, old;
    pthread_attr_init(&a);
    pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
    /* signals are for the program's threads, not this one */
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    if (pthread_create(&t, &a, flush_loop, NULL) != 0)
        atomic_store(&on, false); /* no thread: write straight out */
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_attr_destroy(&a);
}

ssize_t write(int fd, const void *p, size_t n)
{
    if (!real_write)
        resolve();
    if (fd != 2 || !atomic_load(&on) || mine())
        return real_write(fd, p, n);
    take();
    /* A big write goes straight out, after what is batched before it:
     * LLVM's -print-changed writes a dump's header, then its whole body in
     * one write (before this, a body under BATCH - used bytes came out
     * before its header). */
    if (used + n > BATCH || n > BATCH / 2)
        flush_locked();
    if (n > BATCH / 2)
        write_out(p, n);
    else {
        memcpy(buf + used, p, n);
        used += n;
    }
    give();
    start_flusher();
    return (ssize_t)n;
}

int dup2(int from, int to)
{
    if (!real_dup2)
        resolve();
    if (to == 2)
        flush();
    return real_dup2(from, to);
}

int dup3(int from, int to, int flags)
{
    if (!real_dup3)
        resolve();
    if (to == 2)
        flush();
    return real_dup3(from, to, flags);
}

int close(int fd)
{
    if (!real_close)
        resolve();
    if (fd == 2)
        flush();
    return real_close(fd);
}

int posix_spawn(pid_t *pid, const char *path, const posix_spawn_file_actions_t *fa,
                const posix_spawnattr_t *at, char *const argv[], char *const envp[])
{
    if (!real_spawn)
        resolve();
    flush();
    return real_spawn(pid, path, fa, at, argv, envp);
}

int posix_spawnp(pid_t *pid, const char *file, const posix_spawn_file_actions_t *fa,
                 const posix_spawnattr_t *at, char *const argv[], char *const envp[])
{
    if (!real_spawnp)
        resolve();
    flush();
    return real_spawnp(pid, file, fa, at, argv, envp);
}

void _exit(int status)
{
    if (!real_exit_)
        resolve();
    flush();
    real_exit_(status);
    __builtin_unreachable();
}

void abort(void)
{
    if (!real_abort)
        resolve();
    /* LLVM's "LLVM ERROR: ..." comes right before it */
    if (mine())
        write_out(buf, used);
    else
        flush();
    real_abort();
    __builtin_unreachable();
}

/* A fatal signal or SIGTERM: the batch out (without the lock: the thread
 * it interrupted may hold it), then what handled the signal before. */
static const int fatal[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTERM};
static struct sigaction before[sizeof fatal / sizeof fatal[0]];

static void on_fatal(int sig)
{
    size_t n = used;
    used = 0;
    if (n)
        write_out(buf, n);
    for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++)
        if (fatal[i] == sig)
            sigaction(sig, &before[i], NULL);
    raise(sig);
}

/* fork: the batch written out first, so that neither process writes the
 * other's bytes; the child has no flushing thread (started again on its
 * first write). */
static void before_fork(void)
{
    take();
    flush_locked();
}

static void after_fork_parent(void)
{
    give();
}

static void after_fork_child(void)
{
    atomic_store(&flusher, false);
    atomic_store(&owner, (pthread_t)0);
    pthread_mutex_init(&lock, NULL);
}

__attribute__((constructor)) static void init(void)
{
    resolve();
    if (!real_write || !real_dup2 || !real_close || !real_exit_ || !real_abort)
        return; /* a libc this was not made for: leave everything as it is */
    pthread_atfork(before_fork, after_fork_parent, after_fork_child);
    for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_fatal;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_NODEFER;
        sigaction(fatal[i], &sa, &before[i]);
    }
    atomic_store(&on, true);
}

/* at exit(): every atexit handler (Python's last messages) has run */
__attribute__((destructor)) static void fini(void)
{
    flush();
    atomic_store(&on, false);
}
