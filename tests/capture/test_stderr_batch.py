#!/usr/bin/env python3
"""libtkview-stderr-batch.so (compiler/stderr_batch.c) preloaded into a
Python program that writes its stderr two bytes at a time, as LLVM's
print-after-all does: every byte arrives, in order, whatever way the
program ends (exit, _exit, an exception, abort, SIGTERM, SIGSEGV, a fork
whose child writes too), and a message written just before a pause is
not held back (the flushing thread).  The bytes expected are built by
this test, not read back from the library.  Prints TAP.

Usage: test_stderr_batch.py LIBRARY   (default: $TKVIEW_STDERR_BATCH)
"""
import os
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'support'))
from tap import finish, test  # noqa: E402

LIB = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.environ['TKVIEW_STDERR_BATCH'])
TMP = tempfile.mkdtemp(prefix='tkview-stderr-batch-')

# 20 000 writes: two bytes each, a numbered line every hundredth
BODY = b''.join((b'ab' if i % 100 else b'line %d\n' % i) for i in range(20000))
PROGRAM = r'''
import os, signal, sys, time
for i in range(20000):
    os.write(2, b'ab' if i % 100 else b'line %d\n' % i)
how = sys.argv[1]
if how == 'fork':
    os.write(2, b'A')
    pid = os.fork()
    if pid == 0:
        os.write(2, b'B')
        os._exit(0)
    os.waitpid(pid, 0)
    os.write(2, b'C')
elif how == '_exit':
    os.write(2, b'END')
    os._exit(3)
elif how == 'abort':
    os.write(2, b'END')
    os.abort()
elif how == 'term':
    os.write(2, b'END')
    os.kill(os.getpid(), signal.SIGTERM)
elif how == 'segv':
    os.write(2, b'END')
    import ctypes
    ctypes.string_at(0)
elif how == 'big':
    # LLVM's -print-changed: a header, then a whole body in one write
    os.write(2, b'HEADER\n')
    os.write(2, b'x' * 200000)
elif how == 'raise':
    raise SystemExit('bye')
elif how == 'pause':
    os.write(2, b'WAITING\n')
    time.sleep(30)
'''


def run(how, rc_want, tail_want):
    err_path = os.path.join(TMP, how + '.err')
    with open(err_path, 'wb') as err:
        p = subprocess.run([sys.executable, '-c', PROGRAM, how],
                           env=dict(os.environ, LD_PRELOAD=LIB), stderr=err, timeout=120)
    got = open(err_path, 'rb').read()
    assert p.returncode == rc_want, (how, p.returncode, rc_want)
    assert got[:len(BODY)] == BODY, (how, 'the writes before the end differ')
    assert got[len(BODY):] == tail_want, (how, got[len(BODY):][:200])


@test
def normal_exit():
    run('plain', 0, b'')


@test
def fork_child_writes_in_between():
    run('fork', 0, b'ABC')


@test
def os_exit():
    run('_exit', 3, b'END')


@test
def uncaught_exit_message():
    run('raise', 1, b'bye\n')


@test
def abort():
    run('abort', -signal.SIGABRT, b'END')


@test
def sigterm():
    run('term', -signal.SIGTERM, b'END')


@test
def sigsegv():
    run('segv', -signal.SIGSEGV, b'END')


@test
def a_big_write_comes_after_what_was_batched_before_it():
    run('big', 0, b'HEADER\n' + b'x' * 200000)


@test
def a_message_before_a_pause_is_not_held_back():
    err_path = os.path.join(TMP, 'pause.err')
    with open(err_path, 'wb') as err:
        p = subprocess.Popen([sys.executable, '-c', PROGRAM, 'pause'],
                             env=dict(os.environ, LD_PRELOAD=LIB), stderr=err)
        try:
            deadline = time.monotonic() + 25
            while time.monotonic() < deadline:
                if open(err_path, 'rb').read().endswith(b'WAITING\n'):
                    break
                time.sleep(0.1)
            got = open(err_path, 'rb').read()
        finally:
            p.kill()
            p.wait()
    assert got == BODY + b'WAITING\n', got[-100:]


sys.exit(finish())
