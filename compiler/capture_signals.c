/* capture_signals.c - what tkview does with Ctrl-C, kill and hang-ups while
 * it captures.
 *
 * A capture that is stopped must still leave a bundle of what was dumped, so
 * the stop signals never end tkview: the handlers only write a record into a
 * self-pipe, and the main loop (capture_child.c) decides.  The record says
 * whether the kernel sent the signal to the whole foreground process group
 * (si_code SI_KERNEL: Ctrl-C on the terminal, the terminal hanging up), in
 * which case the program received it too and must not get it twice (a
 * second KeyboardInterrupt would break Python's clean-up), or whether it was
 * sent to tkview alone (kill PID), in which case tkview passes it on.
 */
#include "capture.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static const int stop_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
#define N_STOP (sizeof stop_signals / sizeof stop_signals[0])

static int pipe_fds[2] = {-1, -1};
static struct sigaction old_actions[N_STOP];
static struct sigaction old_chld;
static struct sigaction old_pipe;
static volatile sig_atomic_t n_stops;
static int installed;

/* One record per signal: the signal number, and 1 when from the terminal. */
static void on_signal(int signo, siginfo_t *info, void *ctx)
{
    (void)ctx;
    int saved = errno;
    unsigned char rec[2] = {(unsigned char)signo,
                            (unsigned char)(info && info->si_code == SI_KERNEL)};
    if (signo != SIGCHLD)
        n_stops++;
    /* A full pipe loses the record, never blocks: the count above still
     * says a signal came. */
    ssize_t w = write(pipe_fds[1], rec, sizeof rec);
    (void)w;
    errno = saved;
}

void cap_signals_install(void)
{
    if (installed)
        return;
    if (pipe2(pipe_fds, O_CLOEXEC | O_NONBLOCK) != 0) {
        pipe_fds[0] = pipe_fds[1] = -1;
        return;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_signal;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < N_STOP; i++)
        sigaction(stop_signals[i], &sa, &old_actions[i]);
    sa.sa_flags |= SA_NOCLDSTOP;
    sigaction(SIGCHLD, &sa, &old_chld);
    /* A terminal that went away must not end tkview before it has saved the
     * bundle: writes to it fail instead. */
    struct sigaction ign;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ign, &old_pipe);
    n_stops = 0;
    installed = 1;
}

void cap_signals_restore(void)
{
    if (!installed)
        return;
    for (size_t i = 0; i < N_STOP; i++)
        sigaction(stop_signals[i], &old_actions[i], NULL);
    sigaction(SIGCHLD, &old_chld, NULL);
    sigaction(SIGPIPE, &old_pipe, NULL);
    close(pipe_fds[0]);
    close(pipe_fds[1]);
    pipe_fds[0] = pipe_fds[1] = -1;
    installed = 0;
}

int cap_signals_fd(void)
{
    return pipe_fds[0];
}

gboolean cap_signals_take(cap_signal *out)
{
    unsigned char rec[2];
    for (;;) {
        ssize_t r = pipe_fds[0] >= 0 ? read(pipe_fds[0], rec, sizeof rec) : -1;
        if (r < 0 && errno == EINTR)
            continue;
        if (r != (ssize_t)sizeof rec)
            return FALSE;
        if (rec[0] == SIGCHLD)
            continue;
        out->signo = rec[0];
        out->from_tty = rec[1] != 0;
        return TRUE;
    }
}

unsigned cap_signals_count(void)
{
    return (unsigned)n_stops;
}
