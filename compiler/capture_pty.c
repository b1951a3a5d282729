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
 */
#include "capture.h"

#include <errno.h>
#include <fcntl.h>
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
