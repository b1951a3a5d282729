/* capture_child.c - running the captured program, and the tools after it.
 *
 * The program is started with fork/exec in tkview's own process group, so
 * that a Ctrl-C on the terminal reaches it as it would without tkview (a
 * Python program gets its KeyboardInterrupt and unwinds).  Its stdin is
 * the terminal's; its stderr comes through a pipe: every byte is copied to
 * a file, and the lines the filter calls the program's own are shown.  Its
 * stdout is the terminal's too, or (tee_stdout) comes through a second pipe
 * (a pty when tkview's stdout is a terminal, capture_pty.c) whose every
 * byte is copied to a file and written to tkview's stdout unchanged, in the
 * order read, except what the stdout filter holds back (capture_tee.c:
 * ptxas's log, which TRITON_DUMP_PTXAS_LOG prints there).  One poll loop
 * waits on the pipes and on the signal pipe (capture_signals.c), with a
 * quarter-second tick for the progress line.
 *
 * Stopping: the first stop signal sent to tkview alone is passed on to the
 * program; one from the terminal already reached it.  A second stop signal,
 * or the grace period running out, kills the program (SIGKILL).  Either way
 * the loop goes on until the program has ended, so that what it dumped is
 * captured.  After it ended, the pipe is read until no writer is left (a
 * process it started may still hold it) or for at most 10 seconds.
 */
#include "capture.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define READ_CHUNK (256 * 1024)
#define LINE_CAP (64 * 1024)     /* bytes of one line the filter looks at */
#define TEXT_CAP (64 * 1024)     /* bytes of stderr kept in stderr_text */
#define DRAIN_LIMIT_S 10.0
#define BESIDE_NICE 5            /* a tool run beside the program yields */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int write_all(int fd, const char *buf, size_t len)
{
    while (len > 0) {
        ssize_t w = write(fd, buf, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        buf += w;
        len -= (size_t)w;
    }
    return 0;
}

/* ---- lines of stderr ------------------------------------------------- */

typedef struct {
    const cap_child_spec *spec;
    GString *line;      /* the current line, its first LINE_CAP bytes */
    gboolean cut;       /* the current line was longer */
    GString *shown;     /* scratch for what the diagnostics filter shows */
} line_state;

/* Shows a line (S NULL: the stream's end) on SPEC->show, through the
 * filter of the remarks capture's knob added (capture_diag_hide.c). */
static void show_line(line_state *ls, const char *s, size_t len)
{
    const cap_child_spec *spec = ls->spec;
    if (spec->diag_hide) {
        if (!ls->shown)
            ls->shown = g_string_new(NULL);
        g_string_truncate(ls->shown, 0);
        if (s)
            cap_diag_hide_line(spec->diag_hide, s, len, ls->shown);
        else
            cap_diag_hide_end(spec->diag_hide, ls->shown);
        s = ls->shown->str;
        len = ls->shown->len;
    }
    if (!s || !len)
        return;
    cap_progress_clear(spec->progress);
    fwrite(s, 1, len, spec->show);
    fflush(spec->show);
}

static void line_done(line_state *ls)
{
    const cap_child_spec *spec = ls->spec;
    if (spec->filter &&
        cap_stderr_filter_line(spec->filter, ls->line->str, ls->line->len)) {
        if (ls->cut)
            g_string_append(ls->line, " [...]");
        g_string_append_c(ls->line, '\n');
        if (spec->show)
            show_line(ls, ls->line->str, ls->line->len);
        if (spec->messages_fd >= 0)
            write_all(spec->messages_fd, ls->line->str, ls->line->len);
    }
    g_string_truncate(ls->line, 0);
    ls->cut = FALSE;
}

static void feed(line_state *ls, const char *buf, size_t len)
{
    while (len > 0) {
        const char *nl = memchr(buf, '\n', len);
        size_t n = nl ? (size_t)(nl - buf) : len;
        size_t room = LINE_CAP - ls->line->len;
        if (n > room) {
            ls->cut = TRUE;
            g_string_append_len(ls->line, buf, (gssize)room);
        } else {
            g_string_append_len(ls->line, buf, (gssize)n);
        }
        if (!nl)
            return;
        line_done(ls);
        buf = nl + 1;
        len -= n + 1;
    }
}

/* ---- stdout ---------------------------------------------------------- */

/* Passes LEN bytes of the program's stdout on to tkview's, through
 * SPEC's filter (capture_tee.c) when it has one; SHOWN is scratch.
 * FALSE once tkview's stdout is gone. */
static gboolean forward(const cap_child_spec *spec, GString *shown,
                        const char *buf, size_t len)
{
    if (spec->stdout_filter) {
        g_string_truncate(shown, 0);
        if (buf)
            cap_stdout_filter_feed(spec->stdout_filter, buf, len, shown);
        else
            cap_stdout_filter_end(spec->stdout_filter, shown);
        buf = shown->str;
        len = shown->len;
    }
    if (len == 0 || !buf)
        return TRUE;
    cap_progress_clear(spec->progress);
    return write_all(1, buf, len) == 0;
}

/* ---- the child ------------------------------------------------------- */

static void child_exec(const cap_child_spec *spec, int out_w, int err_w,
                       int report_w)
{
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    signal(SIGPIPE, SIG_DFL);
    /* Beside: out of the terminal's group (its Ctrl-C is the program's),
     * below the program in the CPU's queue (a failed nice() is harmless). */
    if (spec->beside && (setpgid(0, 0) != 0 || nice(BESIDE_NICE) == -1))
        errno = 0;
    if (spec->stdin_fd >= 0)
        dup2(spec->stdin_fd, 0);
    if (spec->stdout_fd >= 0)
        dup2(spec->stdout_fd, 1);
    else if (out_w >= 0)
        dup2(out_w, 1);
    dup2(err_w, 2);
    if (spec->envp)
        execvpe(spec->argv[0], spec->argv, spec->envp);
    else
        execvp(spec->argv[0], spec->argv);
    int e = errno;
    ssize_t w = write(report_w, &e, sizeof e);
    (void)w;
    _exit(127);
}

gboolean cap_child_ok(const cap_child_result *res)
{
    return res->started && res->exit_status == 0 && !res->interrupted &&
           !res->killed;
}

char *cap_child_describe(const cap_child_result *res)
{
    if (!res->started)
        return g_strdup_printf("could not be started: %s",
                               res->error ? res->error : "unknown error");
    GString *s = g_string_new(NULL);
    if (res->term_signal)
        g_string_printf(s, "was killed by signal %d (%s)", res->term_signal,
                        g_strsignal(res->term_signal));
    else
        g_string_printf(s, "exited with status %d", res->exit_status);
    if (res->timed_out)
        g_string_append(s, " after running out of time");
    else if (res->killed)
        g_string_append(s, ", killed by tkview after an interrupt");
    else if (res->interrupted)
        g_string_append(s, " after an interrupt");
    return g_string_free(s, FALSE);
}

/* Reads what the program wrote on *ERR_FD so far (non-blocking) into BUF:
 * kept in SPEC->stderr_fd and ->stderr_text, fed line by line to LS;
 * closes *ERR_FD (-1) at its end.  *WRITE_FAILED once keeping it failed. */
static void drain(const cap_child_spec *spec, cap_child_result *res,
                  line_state *ls, char *buf, int *err_fd,
                  gboolean *write_failed)
{
    for (;;) {
        ssize_t got = read(*err_fd, buf, READ_CHUNK);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            break; /* EAGAIN: drained for now */
        if (got == 0) {
            close(*err_fd);
            *err_fd = -1;
            break;
        }
        res->stderr_bytes += (uint64_t)got;
        cap_progress_add_bytes(spec->progress, (uint64_t)got);
        if (spec->stderr_fd >= 0 && !*write_failed &&
            write_all(spec->stderr_fd, buf, (size_t)got) != 0) {
            *write_failed = TRUE;
            res->error = g_strdup_printf(
                "cannot keep the program's stderr: %s",
                g_strerror(errno));
        }
        if (spec->stderr_text && spec->stderr_text->len < TEXT_CAP)
            g_string_append_len(
                spec->stderr_text, buf,
                MIN((gssize)got,
                    (gssize)(TEXT_CAP - spec->stderr_text->len)));
        feed(ls, buf, (size_t)got);
        if (got < READ_CHUNK)
            break;
    }
}

/* Reads what the program wrote on *OUT_FD so far (non-blocking) into BUF:
 * passed on to our stdout through forward() (SHOWN its scratch) while
 * *OUT_FORWARD, copied to SPEC->stdout_copy_fd while *OUT_COPY (each FALSE
 * once it failed); closes *OUT_FD (-1) at its end (a pty's EIO included,
 * capture_pty.c). */
static void forward_stdout(const cap_child_spec *spec, cap_child_result *res, char *buf,
                           GString *shown, int *out_fd, gboolean *out_forward,
                           gboolean *out_copy)
{
    for (;;) {
        ssize_t got = read(*out_fd, buf, READ_CHUNK);
        if (got < 0 && errno == EINTR)
            continue;
        if (cap_out_channel_eof(got, errno)) {
            close(*out_fd);
            *out_fd = -1;
            break;
        }
        if (got < 0)
            break; /* EAGAIN: drained for now */
        res->stdout_bytes += (uint64_t)got;
        /* The terminal first: what the user sees does not wait
         * for the disk.  A reader that went away (tkview | head)
         * stops the passing on, not the capture. */
        if (*out_forward)
            *out_forward = forward(spec, shown, buf, (size_t)got);
        if (*out_copy &&
            write_all(spec->stdout_copy_fd, buf, (size_t)got) != 0) {
            *out_copy = FALSE;
            if (!res->error)
                res->error = g_strdup_printf(
                    "cannot keep the program's stdout: %s",
                    g_strerror(errno));
        }
        if (got < READ_CHUNK)
            break;
    }
}

/* The interrupts received since the last call (*STOPS counts them all):
 * the first is passed on to the program (unless the terminal sent it to
 * the program too) and starts *FIRST_STOP's grace, the second kills it.
 * Nothing is done to a program already REAPED. */
static void take_signals(const cap_child_spec *spec, cap_child_result *res, pid_t pid,
                         gboolean reaped, unsigned *stops, double *first_stop)
{
    cap_signal sig;
    while (cap_signals_take(&sig)) {
        res->interrupted = TRUE;
        (*stops)++;
        if (reaped)
            continue;
        if (*stops == 1) {
            *first_stop = now_s();
            if (!sig.from_tty)
                kill(pid, sig.signo);
            if (spec->show) {
                cap_progress_clear(spec->progress);
                fprintf(spec->show,
                        "tkview: %s: waiting for the program to end "
                        "(interrupt again to kill it)\n",
                        g_strsignal(sig.signo));
            }
        } else if (!res->killed) {
            kill(pid, SIGKILL);
            res->killed = TRUE;
            if (spec->show) {
                cap_progress_clear(spec->progress);
                fprintf(spec->show, "tkview: killing the program\n");
            }
        }
    }
}

/* Kills PID (not reaped) when the grace period after a stop signal
 * (SINCE_STOP seconds ago; < 0: none came) or the timeout (RAN seconds
 * since it started) is over. */
static void enforce_limits(const cap_child_spec *spec, cap_child_result *res,
                           pid_t pid, double ran, double since_stop)
{
    if (!res->killed && since_stop >= 0 && spec->grace_s > 0 &&
        since_stop > spec->grace_s) {
        kill(pid, SIGKILL);
        res->killed = TRUE;
        if (spec->show) {
            cap_progress_clear(spec->progress);
            fprintf(spec->show, "tkview: the program did not end within "
                                "%.0f seconds of the interrupt; killed it\n",
                    spec->grace_s);
        }
    }
    if (!res->killed && spec->timeout_s > 0 && ran > spec->timeout_s) {
        kill(pid, SIGKILL);
        res->killed = TRUE;
        res->timed_out = TRUE;
    }
}

/* Stops passing SIGWINCH on to PID before its pid is freed (it could name
 * another process once reaped): when it has exited but is not reaped. */
static void unfollow_if_exited(pid_t pid)
{
    siginfo_t si;
    si.si_pid = 0;
    if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 &&
        si.si_pid == pid)
        cap_out_channel_unfollow();
}

/* The streams' ends: ERR_FD and OUT_FD closed (those >= 0), what the
 * filters still held shown (stdout's when FLUSH_STDOUT: it was passed on),
 * stderr's last line without its newline taken, LS's and SHOWN's strings
 * freed. */
static void end_streams(const cap_child_spec *spec, line_state *ls, GString *shown,
                        int err_fd, int out_fd, gboolean flush_stdout)
{
    if (err_fd >= 0)
        close(err_fd);
    if (out_fd >= 0)
        close(out_fd);
    if (flush_stdout)
        forward(spec, shown, NULL, 0); /* what the filter still held */
    g_string_free(shown, TRUE);
    if (ls->line->len > 0 || ls->cut)
        line_done(ls);
    if (spec->show)
        show_line(ls, NULL, 0); /* what the diagnostics filter held */
    g_string_free(ls->line, TRUE);
    if (ls->shown)
        g_string_free(ls->shown, TRUE);
}

int cap_child_run(const cap_child_spec *spec, cap_child_result *res)
{
    memset(res, 0, sizeof *res);
    res->exit_status = -1;
    int errp[2], report[2];
    if (pipe2(errp, O_CLOEXEC) != 0) {
        res->error = g_strdup_printf("cannot make a pipe: %s",
                                     g_strerror(errno));
        return -1;
    }
    if (pipe2(report, O_CLOEXEC) != 0) {
        res->error = g_strdup_printf("cannot make a pipe: %s",
                                     g_strerror(errno));
        close(errp[0]);
        close(errp[1]);
        return -1;
    }
    int outp[2] = {-1, -1};
    if (spec->tee_stdout && spec->stdout_fd < 0 &&
        cap_out_channel_open(outp, &res->stdout_pty) != 0) {
        res->error = g_strdup_printf("cannot make a pipe: %s",
                                     g_strerror(errno));
        close(errp[0]);
        close(errp[1]);
        close(report[0]);
        close(report[1]);
        return -1;
    }
    fflush(NULL);
    double t0 = now_s();
    pid_t pid = fork();
    if (pid < 0) {
        res->error = g_strdup_printf("cannot fork: %s", g_strerror(errno));
        close(errp[0]);
        close(errp[1]);
        close(report[0]);
        close(report[1]);
        if (outp[0] >= 0) {
            close(outp[0]);
            close(outp[1]);
        }
        return -1;
    }
    if (pid == 0)
        child_exec(spec, outp[1], errp[1], report[1]);
    close(errp[1]);
    close(report[1]);
    if (outp[1] >= 0)
        close(outp[1]);

    /* exec closed the report pipe (success) or wrote errno into it. */
    int exec_errno = 0;
    ssize_t r;
    do
        r = read(report[0], &exec_errno, sizeof exec_errno);
    while (r < 0 && errno == EINTR);
    close(report[0]);
    if (r == (ssize_t)sizeof exec_errno) {
        res->error = g_strdup_printf("cannot run %s: %s", spec->argv[0],
                                     g_strerror(exec_errno));
        close(errp[0]);
        if (outp[0] >= 0)
            close(outp[0]);
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
            ;
        return -1;
    }
    res->started = TRUE;
    fcntl(errp[0], F_SETFL, fcntl(errp[0], F_GETFL) | O_NONBLOCK);
    int out_fd = outp[0];
    gboolean out_forward = TRUE, out_copy = spec->stdout_copy_fd >= 0;
    if (out_fd >= 0)
        fcntl(out_fd, F_SETFL, fcntl(out_fd, F_GETFL) | O_NONBLOCK);
    if (res->stdout_pty)
        cap_out_channel_follow(out_fd, pid);

    line_state ls = {spec, g_string_sized_new(256), FALSE, NULL};
    GString *shown = g_string_new(NULL);
    char *buf = g_malloc(READ_CHUNK);
    int err_fd = errp[0];
    gboolean reaped = FALSE, write_failed = FALSE;
    unsigned stops = 0;
    double first_stop = 0, reaped_at = 0;
    int status = 0;
    while (!reaped || err_fd >= 0 || out_fd >= 0) {
        /* Beside, the signal pipe is the program loop's: not watched,
         * so the tool's end is looked for often once its pipes closed. */
        struct pollfd fds[3] = {{err_fd, POLLIN, 0},
                                {spec->beside ? -1 : cap_signals_fd(), POLLIN, 0},
                                {out_fd, POLLIN, 0}};
        int wait_ms = reaped ? 100 : 250;
        if (spec->beside && err_fd < 0 && out_fd < 0)
            wait_ms = 2;
        int n = poll(fds, 3, wait_ms);
        if (n < 0 && errno != EINTR)
            break;
        if (out_fd >= 0 && (fds[2].revents & (POLLIN | POLLHUP | POLLERR)))
            forward_stdout(spec, res, buf, shown, &out_fd, &out_forward, &out_copy);
        if (err_fd >= 0 && (fds[0].revents & (POLLIN | POLLHUP | POLLERR)))
            drain(spec, res, &ls, buf, &err_fd, &write_failed);
        if (!spec->beside)
            take_signals(spec, res, pid, reaped, &stops, &first_stop);
        double t = now_s();
        if (!reaped)
            enforce_limits(spec, res, pid, t - t0, first_stop > 0 ? t - first_stop : -1);
        if (!reaped) {
            if (res->stdout_pty) /* only the run that followed: a tool run
                                    beside the program must not unfollow it */
                unfollow_if_exited(pid);
            pid_t w = waitpid(pid, &status, WNOHANG);
            if (w == pid) {
                reaped = TRUE;
                reaped_at = t;
                res->seconds = t - t0;
            }
        } else if (t - reaped_at > DRAIN_LIMIT_S) {
            /* a process it left behind holds the pipes */
            if (err_fd >= 0)
                close(err_fd);
            if (out_fd >= 0)
                close(out_fd);
            err_fd = out_fd = -1;
        }
        cap_progress_tick(spec->progress);
    }
    if (res->stdout_pty)
        cap_out_channel_unfollow();
    if (!reaped) { /* poll failed: do not leave it running unattended */
        kill(pid, SIGKILL);
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
            ;
        res->killed = TRUE;
        res->seconds = now_s() - t0;
    }
    end_streams(spec, &ls, shown, err_fd, out_fd, outp[0] >= 0 && out_forward);
    g_free(buf);
    if (WIFEXITED(status)) {
        res->exit_status = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        res->term_signal = WTERMSIG(status);
        res->exit_status = -1;
    }
    return write_failed ? -1 : 0;
}
