"""Bench only (capture_bench.py's knobs_hook_changed_only): LLVM's
`print-after-all` option renamed inside libtriton.so, so that Triton 3.6,
which looks it up by name and sets it true on every compile under
LLVM_IR_ENABLE_DUMP, finds nothing, and `-print-changed` (set by tkview's
hook, TKVIEW_LLVM_OPTIONS) prints alone: what a capture of only the passes
that changed the IR would cost (docs/capture.md, "LLVM's own options").

Run as the user's sitecustomize by tkview's hook (which chains the next
sitecustomize on sys.path), with $TKVIEW_BENCH_LLVM_RENAME set.  It calls
llvm::cl::Option::setArgStr() on the static cl::opt PrintAfterAll, both
found in libtriton.so's .symtab through the hook's _symtab_value(); their
offsets from PyInit_libtriton are found once and inherited by the compile
workers ($TKVIEW_BENCH_RENAME_AT).  Untested against a real libtriton.so
when written: a failure is said on stderr and changes nothing.
"""
import ctypes
import importlib.machinery
import os
import sys

_NEW = b'tkview-renamed-print-after-all'  # kept alive: LLVM keeps a pointer
_SYMS = ('PyInit_libtriton', '_ZN4llvm2cl6Option9setArgStrENS_9StringRefE',
         '_ZL13PrintAfterAll')


def _rename():
    hook = sys.modules.get('sitecustomize')
    spec = importlib.machinery.PathFinder.find_spec('triton')
    path = os.path.join(spec.submodule_search_locations[0], '_C', 'libtriton.so')
    lib = ctypes.CDLL(path)
    init = ctypes.cast(lib.PyInit_libtriton, ctypes.c_void_p).value
    at = os.environ.get('TKVIEW_BENCH_RENAME_AT', '')
    if not at:
        base, set_arg, opt = (hook._symtab_value(path, n) for n in _SYMS)
        if not (base and set_arg and opt):
            raise LookupError('symbols not found: %s' % (_SYMS,))
        at = '%d,%d' % (set_arg - base, opt - base)
        os.environ['TKVIEW_BENCH_RENAME_AT'] = at
    set_off, opt_off = (int(x) for x in at.split(','))
    set_arg_str = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_char_p,
                                   ctypes.c_size_t)(init + set_off)
    set_arg_str(init + opt_off, _NEW, len(_NEW))


if os.environ.get('TKVIEW_BENCH_LLVM_RENAME'):
    try:
        _rename()
    except Exception as e:  # a bench variant: say it, change nothing
        sys.stderr.write('tkview bench: print-after-all not renamed: %r\n' % (e,))
