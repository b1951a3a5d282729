"""Runs the real tkview-viewer under a private Xvfb and D-Bus session bus, and
talks to it the way the desktop does: GApplication actions over D-Bus
(org.gtk.Actions on /org/tkview/Viewer and /org/tkview/Viewer/window/N).
The views' own actions (bind-view.*, pass-view.*) are installed on the view
widgets, which GTK does not export: they are reached through the test hooks
app.test-activate and app.test-set-state, which activate them on the view as
its own widgets do.

The viewer's state is read back with its test hook app.test-state (enabled by
TKVIEW_TEST_HOOKS=1), which reports the highlighted lines as the text
buffers' tags hold them; screenshots come from app.test-screenshot.

Needs Xvfb, dbus-daemon and gdbus (debian-packages.txt: xvfb, dbus-daemon,
libglib2.0-bin).  Prints TAP like tests/e2e/test_cli.py.
"""
import atexit
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import zlib

APP = 'org.tkview.Viewer'
OBJ = '/org/tkview/Viewer'
results = []

# How long a D-Bus call may wait for the viewer's answer.  gdbus's own
# default, 25 s, is a wall-clock bound, and the viewer answers only once its
# main thread is free: the first call waits for start-up (GTK, the first
# window, the load, the first frame), which under AddressSanitizer with
# fast_unwind_on_malloc=0 (every allocation unwinds its whole stack with the
# DWARF unwinder) on a 2-core machine at a load average of 10 to 18 took
# over 25 s on a fresh Debian 12, so 7 of the 11 viewer tests failed there
# with 'Timeout was reached' although the viewer was fine.  A hang is still
# caught: by this bound and by meson's timeout of the test (600 s).
CALL_TIMEOUT_S = 300


def test(fn):
    try:
        fn()
        results.append((fn.__name__, None))
    except Exception as e:  # report and go on: TAP wants every test's line
        import traceback
        results.append((fn.__name__, traceback.format_exc()))
    return fn


def tap():
    print('1..%d' % len(results))
    bad = 0
    for i, (name, err) in enumerate(results, 1):
        if err is None:
            print('ok %d - %s' % (i, name))
        else:
            bad += 1
            print('not ok %d - %s' % (i, name))
            for line in err.splitlines():
                print('# ' + line)
            # meson shows a TAP test's stderr, not its stdout, in the log
            # (--print-errorlogs): the reason has to be there too
            print('not ok %d - %s\n%s' % (i, name, err), file=sys.stderr)
    return 1 if bad else 0


def skip_all(reason):
    print('1..0 # SKIP ' + reason)
    sys.exit(0)


def missing_tools():
    return [t for t in ('Xvfb', 'dbus-daemon', 'gdbus') if not shutil.which(t)]


class Session:
    """A private X server and session bus, torn down on exit."""

    def __init__(self):
        self.tmp = tempfile.mkdtemp(prefix='tkview-viewer-test-')
        r, w = os.pipe()
        self.xvfb = subprocess.Popen(
            ['Xvfb', '-displayfd', str(w), '-screen', '0', '1600x1000x24', '-nolisten', 'tcp',
             '-noreset'], pass_fds=(w,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(w)
        num = b''
        deadline = time.time() + 30
        while not num.endswith(b'\n') and time.time() < deadline:
            chunk = os.read(r, 16)
            if not chunk:
                break
            num += chunk
        os.close(r)
        if not num.strip():
            raise RuntimeError('Xvfb did not start')
        self.display = ':' + num.decode().strip()
        # The bus's socket in our folder: the session configuration's own
        # address puts it in /tmp.
        bus = subprocess.run(['dbus-daemon', '--session', '--fork', '--print-address=1',
                              '--print-pid=1', '--address=unix:tmpdir=' + self.tmp],
                             stdout=subprocess.PIPE, check=True)
        addr, pid = bus.stdout.decode().split()
        self.bus_pid = int(pid)
        self.env = dict(os.environ)
        self.env.update({
            'DISPLAY': self.display,
            'DBUS_SESSION_BUS_ADDRESS': addr,
            'TKVIEW_TEST_HOOKS': '1',
            'TKVIEW_COLOR_SCHEME': 'light',
            'XDG_DATA_HOME': os.path.join(self.tmp, 'data'),
            'XDG_CACHE_HOME': os.path.join(self.tmp, 'cache'),
            'XDG_CONFIG_HOME': os.path.join(self.tmp, 'config'),
            # no nvdisasm of the machine's is run for a kernel without
            # NAME.sass_lr (a test that wants one names a fake)
            'TKVIEW_NVDISASM': 'none',
            'GTK_A11Y': 'none',
            'NO_AT_BRIDGE': '1',
            'GSK_RENDERER': 'cairo',
            # No GL at all, not even probed: with Mesa's drivers installed
            # (libgl1-mesa-dri, as on any desktop) gtk_init_check() opens an
            # EGL display whose own leak LSan reports, and the tests must
            # pass the same with or without them.  The cairo renderer above
            # needs none.
            'GDK_DEBUG': 'gl-disable',
            'GDK_BACKEND': 'x11',
        })
        self.env.pop('WAYLAND_DISPLAY', None)
        self.procs = []
        self.started = {}  # process -> when it was started (for the reports)
        self.answered = False
        self.closed = False
        # A test that dies half way must not leave its X server and bus behind.
        atexit.register(self.close)

    def close(self):
        if self.closed:
            return
        self.closed = True
        for p in self.procs:
            if p.poll() is None:
                p.terminate()
                try:
                    p.wait(10)
                except subprocess.TimeoutExpired:
                    p.kill()
        try:
            os.kill(self.bus_pid, signal.SIGTERM)
        except OSError:
            pass
        self.xvfb.terminate()
        self.xvfb.wait(10)
        shutil.rmtree(self.tmp, ignore_errors=True)

    def start(self, argv):
        log = open(os.path.join(self.tmp, 'viewer-%d.log' % len(self.procs)), 'w+')
        p = subprocess.Popen(argv, env=self.env, stdout=log, stderr=subprocess.STDOUT)
        p.log = log
        self.procs.append(p)
        self.started[p] = time.time()
        return p

    def run(self, argv, timeout=60):
        return subprocess.run(argv, env=self.env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=timeout)

    def gdbus(self, path, method, *args):
        t0 = time.time()
        p = self.run(['gdbus', 'call', '--session', '--dest', APP, '--object-path', path,
                      '--timeout', str(CALL_TIMEOUT_S), '--method', method, *args],
                     timeout=CALL_TIMEOUT_S + 30)
        if p.returncode != 0:
            raise RuntimeError('gdbus %s %s: %s after %.1f s%s' % (
                method, args, p.stderr.decode(), time.time() - t0, self.viewer_logs()))
        if not self.answered and self.procs:
            # How long start-up took to the first answer: a figure, in the
            # test's log, never a limit.
            self.answered = True
            sys.stderr.write('# the viewer answered its first call %.1f s after its start\n'
                             % (time.time() - self.started[self.procs[-1]]))
        return p.stdout.decode()

    def viewer_logs(self):
        """The viewers' output so far, for a failure's message."""
        out = ''
        for i, p in enumerate(self.procs):
            p.log.seek(0)
            text = p.log.read()[-4000:]
            out += '\n--- viewer %d (%s, started %.1f s ago):\n%s' % (
                i, 'running' if p.poll() is None else 'exit %s' % p.returncode,
                time.time() - self.started[p], text)
        return out

    def activate(self, action, param=None, window=None):
        """org.gtk.Actions.Activate: PARAM is a GVariant text ('<uint32 3>').
        ACTION is an application action ('quit'), window WINDOW's ('mode'),
        or one installed on a view of window WINDOW ('pass-view.select-pass')."""
        if '.' in action:
            args = '[%s]' % param if param else '@av []'
            return self.activate('test-activate',
                                 "<(uint32 %d, '%s', %s)>" % (window, action, args))
        path = OBJ if window is None else '%s/window/%d' % (OBJ, window)
        return self.gdbus(path, 'org.gtk.Actions.Activate', action,
                          '[%s]' % (param or ''), '{}')

    def quit(self, proc):
        """app.quit; the application may leave the bus before it answers."""
        try:
            self.activate('quit')
        except RuntimeError:
            pass
        # Under AddressSanitizer with whole stacks (the leak-checked tests)
        # the exit of a viewer that walked a bundle's passes took over 100 s
        # on a loaded 2-core machine: a bound on hangs, not a speed check.
        try:
            proc.wait(300)
        except subprocess.TimeoutExpired:
            proc.kill()
            raise RuntimeError('the viewer did not quit')
        return proc.returncode

    def log(self, proc):
        proc.log.seek(0)
        return proc.log.read()

    def set_state(self, action, value, window=1):
        """org.gtk.Actions.SetState of a window action ('exact-only'), or the
        state of one installed on a view ('pass-view.changed-only')."""
        if '.' in action:
            return self.activate('test-set-state',
                                 "<(uint32 %d, '%s', %s)>" % (window, action, value))
        return self.gdbus('%s/window/%d' % (OBJ, window), 'org.gtk.Actions.SetState', action,
                          value, '{}')

    def key(self, keys, window=1):
        """A key press in window WINDOW as GTK handles it (app.test-key):
        KEYS as gtk_shortcut_trigger_parse_string() reads it ("n",
        "<Control>f")."""
        return self.activate('test-key', "<(uint32 %d, '%s')>" % (window, keys))

    def state(self):
        path = os.path.join(self.tmp, 'state-%f.json' % time.time())
        self.activate('test-state', "<'%s'>" % path)
        deadline = time.time() + 60
        while not os.path.exists(path):
            if time.time() > deadline:
                raise RuntimeError('no state written')
            time.sleep(0.05)
        with open(path) as f:
            s = json.load(f)
        os.unlink(path)
        return s

    def passes(self, index=0):
        """The pass mode state of window INDEX (0-based, oldest first)."""
        return self.state()['windows'][index]['passes']

    def wait_passes(self, index=0, timeout=300):
        """Until window INDEX has its timeline and the diff of the selected
        pass is made (diffs are made on a worker thread); its pass state."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            p = self.passes(index)
            if p['state'] not in ('loading', 'idle') and not p.get('diff_pending'):
                return p
            time.sleep(0.05)
        raise RuntimeError('the timeline or the diff never came')

    def wait_registered(self, proc, timeout=300):
        """Until the application answers on the bus."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            if proc.poll() is not None:
                proc.log.seek(0)
                raise RuntimeError('viewer exited %s: %s' % (proc.returncode, proc.log.read()))
            p = self.run(['gdbus', 'call', '--session', '--dest', 'org.freedesktop.DBus',
                          '--object-path', '/org/freedesktop/DBus', '--method',
                          'org.freedesktop.DBus.NameHasOwner', APP])
            if b'true' in p.stdout:
                return
            time.sleep(0.1)
        raise RuntimeError('viewer did not register on the bus')

    def wait_window(self, index, states=('ready', 'error'), timeout=300):
        """Until window INDEX (0-based, oldest first) is in one of STATES."""
        deadline = time.time() + timeout
        last = None
        while time.time() < deadline:
            last = self.state()
            wins = last['windows']
            if len(wins) > index and wins[index]['state'] in states:
                return wins[index]
            time.sleep(0.1)
        raise RuntimeError('window %d never reached %s: %s' % (index, states, last))

    def screenshot(self, path, window=0):
        if os.path.exists(path):
            os.unlink(path)
        self.activate('test-screenshot', "<(uint32 %d, '%s')>" % (window, path))
        deadline = time.time() + 120
        while not os.path.exists(path):
            if time.time() > deadline:
                raise RuntimeError('no screenshot written')
            time.sleep(0.05)
        with open(path, 'rb') as f:
            head = f.read(24)
        assert head[:8] == b'\x89PNG\r\n\x1a\n', head
        width = int.from_bytes(head[16:20], 'big')
        height = int.from_bytes(head[20:24], 'big')
        return width, height


def png_pixels(path):
    """(width, height, rows) of an 8-bit RGB or RGBA PNG (what the screenshot hook
    writes); rows: a list of bytes, one per row, 3 or 4 bytes a pixel."""
    with open(path, 'rb') as f:
        data = f.read()
    assert data[:8] == b'\x89PNG\r\n\x1a\n'
    pos, idat, head = 8, b'', None
    while pos < len(data):
        n = int.from_bytes(data[pos:pos + 4], 'big')
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        if kind == b'IHDR':
            head = body
        elif kind == b'IDAT':
            idat += body
        pos += 12 + n
    w, h = int.from_bytes(head[0:4], 'big'), int.from_bytes(head[4:8], 'big')
    depth, ctype, interlace = head[8], head[9], head[12]
    assert depth == 8 and ctype in (2, 6) and interlace == 0, head
    bpp = 4 if ctype == 6 else 3
    raw, stride, rows, prev = zlib.decompress(idat), w * bpp, [], bytearray(w * bpp)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, rows


def count_color(path, rgb):
    """How many pixels of the PNG at PATH are exactly RGB (r, g, b)."""
    w, h, rows = png_pixels(path)
    bpp = len(rows[0]) // w
    return sum(1 for row in rows for x in range(w)
               if row[x * bpp] == rgb[0] and row[x * bpp + 1] == rgb[1] and row[x * bpp + 2] == rgb[2])


def artefact_dir():
    d = os.environ.get('TKV_TEST_ARTEFACTS') or os.path.join(os.getcwd(), 'viewer-artefacts')
    os.makedirs(d, exist_ok=True)
    return d
