"""tap.py - what the Python tests that print TAP share.

run(NAME, CALL) runs one case at once and records how it went: ok, skipped
(CALL raised Skip, whose text says why) or not ok (any other exception: its
traceback).  @test is run() for a function taking no argument.  finish()
prints the plan and a line per case, and returns the exit status (1 when a
case failed).  A failure's reason goes to stderr too: for a TAP test, meson
parses stdout and shows only stderr in its error log (--print-errorlogs),
so that is all a CI log would say.

A test imports it with its folder on sys.path:
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'support'))
    from tap import Skip, finish, run, test
"""
import sys
import traceback

_results = []  # (name, traceback or None, skip reason or None)


class Skip(Exception):
    """Raised by a case that cannot run here; its text says why."""


def run(name, call):
    try:
        call()
        _results.append((name, None, None))
    except Skip as e:
        _results.append((name, None, str(e)))
    except Exception:  # report and go on: TAP wants every case's line
        _results.append((name, traceback.format_exc(), None))


def test(fn):
    run(fn.__name__, fn)
    return fn


def finish():
    print('1..%d' % len(_results))
    bad = 0
    for i, (name, err, skip) in enumerate(_results, 1):
        if skip is not None:
            print('ok %d - %s # SKIP %s' % (i, name, skip))
        elif err is None:
            print('ok %d - %s' % (i, name))
        else:
            bad += 1
            print('not ok %d - %s' % (i, name))
            for line in err.splitlines():
                print('# ' + line)
            print('not ok %d - %s\n%s' % (i, name, err), file=sys.stderr)
    sys.stdout.flush()
    return 1 if bad else 0
