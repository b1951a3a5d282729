"""tkview capture's hook, put first on the captured program's PYTHONPATH.

It records every configuration Triton's autotuner benchmarked, with the
times it measured, into $TKVIEW_AUTOTUNE_DIR/PID.json, which `tkview
capture` keeps in the bundle as autotune_timings.json (`tkview configs`).

Nothing is imported at start-up: a finder waits for
triton.runtime.autotuner to be imported, then wraps Autotuner.run, which
sets self.configs_timings ({Config: [median, p20, p80] ms}) when it
benchmarks.  Then the user's own sitecustomize (the next one on sys.path),
if any, is run as it would have been without tkview.
"""
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys

_DIR = os.environ.get('TKVIEW_AUTOTUNE_DIR')
_HERE = os.path.dirname(os.path.abspath(__file__))
_records = []


def _plain(v):
    return v if isinstance(v, (int, float, str, bool)) or v is None else repr(v)


def _save(name, timings, best):
    for config, ms in timings.items():
        try:
            ms = [float(x) for x in ms] if isinstance(ms, (list, tuple)) else [float(ms)]
        except (TypeError, ValueError):
            continue
        entry = {'kernel': name,
                 'kwargs': {k: _plain(v) for k, v in getattr(config, 'kwargs', {}).items()},
                 'ms': ms, 'best': config is best}
        for k in ('num_warps', 'num_stages', 'num_ctas', 'maxnreg'):
            v = getattr(config, k, None)
            if v is not None:
                entry[k] = _plain(v)
        _records.append(entry)
    path = os.path.join(_DIR, '%d.json' % os.getpid())
    tmp = path + '.tmp'
    with open(tmp, 'w') as f:
        json.dump({'configs': _records}, f, indent=1)
    os.replace(tmp, path)


def _patch(module):
    cls = getattr(module, 'Autotuner', None)
    if cls is None or getattr(cls.run, '_tkview', False):
        return
    original = cls.run

    def run(self, *args, **kwargs):
        before = getattr(self, 'configs_timings', None)
        out = original(self, *args, **kwargs)
        after = getattr(self, 'configs_timings', None)
        if after and after is not before:
            try:
                fn = getattr(self, 'base_fn', None)
                _save(getattr(fn, '__name__', '?'), after, getattr(self, 'best_config', None))
            except Exception as e:  # never break the program
                print('tkview: could not record the autotuner\'s timings: %s' % e,
                      file=sys.stderr)
        return out

    run._tkview = True
    cls.run = run


class _Loader(importlib.abc.Loader):
    def __init__(self, inner):
        self.inner = inner

    def create_module(self, spec):
        return self.inner.create_module(spec)

    def exec_module(self, module):
        self.inner.exec_module(module)
        _patch(module)


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name != 'triton.runtime.autotuner':
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is not None and spec.loader is not None:
            spec.loader = _Loader(spec.loader)
        return spec


def _chain_user_sitecustomize():
    """Runs the next sitecustomize on sys.path, the one the user had."""
    rest = [p for p in sys.path if os.path.abspath(p or '.') != _HERE]
    spec = importlib.machinery.PathFinder.find_spec('sitecustomize', rest)
    if spec is None or spec.loader is None:
        return
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)


if _DIR and os.path.isdir(_DIR):
    if 'triton.runtime.autotuner' in sys.modules:
        # imported already (a .pth file ran before this): patch it now
        _patch(sys.modules['triton.runtime.autotuner'])
    else:
        sys.meta_path.insert(0, _Finder())
_chain_user_sitecustomize()
