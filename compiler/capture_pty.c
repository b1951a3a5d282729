/* capture_pty.c - the channel a captured program's stdout goes through.
 *
 * tkview copies the program's stdout (capture_child.c), so the program
 * writes into something tkview reads.  Through a pipe its stdout is no
 * terminal: Python then buffers print() by blocks rather than lines, and a
 * program may drop its colours or progress bars.  So when tkview's own
 * stdout is a terminal the program gets a pseudo-terminal instead, with the
 * terminal's window size; its output processing is off (no "\n" turned
 * into "\r\n"), so tkview reads the bytes the program wrote, passes them
 * on to the real terminal (which does its own processing) and keeps them
 * unchanged.  When tkview's stdout is not a terminal, a pipe, as the
 * program would have had.  The pty is not made the program's controlling
 * terminal: it stays in the session and process group of the user's
 * terminal (Ctrl-C reaches it there) and its stdin is the terminal's.
 * After the program and whatever it started closed the pty, reading its
 * master end fails with EIO: cap_out_channel_eof() says that is the end.
 *
 * Window size: a resized terminal sends SIGWINCH to its foreground process
 * group, tkview and the program alike, and the program then asks its
 * stdout (the pty) for the new size.  The pty is no one's controlling
 * terminal, so nothing changes its size unless tkview does: while the
 * program runs, tkview's SIGWINCH handler copies the terminal's size onto
 * the pty (TIOCGWINSZ on tkview's stdout, TIOCSWINSZ on the master) and
 * then sends the program a SIGWINCH of its own.  That second signal is
 * not redundant: the terminal's own may reach the program before tkview
 * has copied the size, and a SIGWINCH sent to tkview alone (kill -WINCH)
 * would otherwise never reach the program.  A program asks again on every
 * SIGWINCH, so one more is harmless.
 */
#include "capture.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

static int open_pty(int fds[2])
{
    int m = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (m < 0)
        return -1;
    char name[128];
    if (grantpt(m) != 0 || unlockpt(m) != 0 ||
        ptsname_r(m, name, sizeof name) != 0) {
        close(m);
        return -1;
    }
    int s = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (s < 0) {
        close(m);
        return -1;
    }
    struct termios t;
    if (tcgetattr(s, &t) == 0) {
        t.c_oflag &= ~(tcflag_t)OPOST; /* the bytes as written */
        tcsetattr(s, TCSANOW, &t);
    }
    struct winsize ws;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0)
        ioctl(s, TIOCSWINSZ, &ws);
    fds[0] = m;
    fds[1] = s;
    return 0;
}

int cap_out_channel_open(int fds[2], gboolean *is_pty)
{
    *is_pty = FALSE;
    if (isatty(STDOUT_FILENO) && open_pty(fds) == 0) {
        *is_pty = TRUE;
        return 0;
    }
    return pipe2(fds, O_CLOEXEC);
}

gboolean cap_out_channel_eof(gssize got, int err)
{
    return got == 0 || (got < 0 && err == EIO);
}

/* The pty and program the SIGWINCH handler serves; -1 / 0: none.  The
 * master is a dup of tkview's end, so that it stays valid (never some
 * other file reusing its number) until cap_out_channel_unfollow(). */
static volatile sig_atomic_t winch_master = -1;
static volatile sig_atomic_t winch_pid = 0;
static struct sigaction old_winch;
static int winch_installed;

static void on_winch(int signo)
{
    (void)signo;
    int saved = errno;
    int m = winch_master;
    struct winsize ws;
    if (m >= 0 && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0)
        ioctl(m, TIOCSWINSZ, &ws);
    if (winch_pid > 0)
        kill((pid_t)winch_pid, SIGWINCH);
    errno = saved;
}

void cap_out_channel_follow(int master, pid_t pid)
{
    if (winch_installed || master < 0 || pid <= 0)
        return;
    int m = fcntl(master, F_DUPFD_CLOEXEC, 3);
    if (m < 0)
        return;
    winch_master = m;
    winch_pid = pid;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_winch;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGWINCH, &sa, &old_winch) != 0) {
        winch_master = -1;
        winch_pid = 0;
        close(m);
        return;
    }
    winch_installed = 1;
    /* A resize between the pty's making and now was missed: copy once. */
    on_winch(SIGWINCH);
}

void cap_out_channel_unfollow(void)
{
    if (!winch_installed)
        return;
    sigaction(SIGWINCH, &old_winch, NULL);
    int m = winch_master;
    winch_master = -1;
    winch_pid = 0;
    close(m);
    winch_installed = 0;
}
