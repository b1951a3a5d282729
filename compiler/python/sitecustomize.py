"""tkview capture's hook, put first on the captured program's PYTHONPATH.

It records every configuration Triton's autotuner benchmarked, with the
times it measured, into $TKVIEW_AUTOTUNE_DIR/PID.json, which `tkview
capture` keeps in the bundle as autotune_timings.json (`tkview configs`).

Nothing is imported at start-up: a finder waits for
triton.runtime.autotuner to be imported, then wraps Autotuner.run, which
sets self.configs_timings ({Config: [median, p20, p80] ms}) when it
benchmarks.  Then the user's own sitecustomize (the next one on sys.path),
if any, is run as it would have been without tkview.

With $TKVIEW_COMPILES_DIR it also keeps each compile's pass dumps apart as
they are made (docs/capture.md, "Each compile's dumps"): Triton's own hook
knobs.runtime.add_stages_inspection_hook wraps every stage of every compile
so that, while the stage runs, file descriptor 2 (where LLVM's
print-after-all and, with MLIR_DUMP_PATH unset, MLIR's pass dumps go, both
unbuffered) is the file COMPILES_DIR/HASH.PID.N.txt of that compile.  The
hook is installed in every process that imports Triton, so torch.compile's
parallel compile workers (which inherit PYTHONPATH) write their compiles'
dumps to files of their own, never into one interleaved stream.  A Triton
without that hook (before knobs.py) gets today's single stream instead:
MLIR_DUMP_PATH set back from $TKVIEW_MLIR_DUMP_PATH and Inductor's compiles
kept in one process (TORCHINDUCTOR_COMPILE_THREADS=1).

With $TKVIEW_LLVM_OPTIONS it sets those LLVM options, when triton.knobs is
imported, through LLVMParseCommandLineOptions inside libtriton.so
(_llvm_options()).  With $TKVIEW_LLVM_CHANGED it asks LLVM for the passes
that changed the IR instead of print-after-all (_print_changed()), and, when
it names a folder, says in FOLDER/PID which it got.
"""
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import threading
import time

_DIR = os.environ.get('TKVIEW_AUTOTUNE_DIR')
_COMPILES = os.environ.get('TKVIEW_COMPILES_DIR')
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
    _write()


def _write():
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


# ---- Inductor's max-autotune: its template choices and their times --------

def _literal(text):
    import ast
    try:
        return _plain(ast.literal_eval(text.strip()))
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return text.strip()


def _choice_kwargs(choice):
    """The template's parameters as Inductor describes the choice
    ("BLOCK_K=32, BLOCK_M=64, ..., num_stages=2, num_warps=4")."""
    import re
    out = {}
    desc = getattr(choice, 'description', '') or ''
    for m in re.finditer(r'(\w+)=((?:\'[^\']*\'|"[^"]*"|[^,])+)', str(desc)):
        if m.group(1) not in ('num_warps', 'num_stages'):
            out[m.group(1)] = _literal(m.group(2))
    return out


def _save_inductor(timings, op):
    """TIMINGS: {ChoiceCaller: ms} of one autotuned operation OP ("mm").  A
    Triton template choice names the kernel it benchmarked
    (choice.bmreq.kernel_name, "triton_mm"); an extern one (aten's mm) is
    kept with its own name, and matches no Triton compile."""
    import math
    timed = []
    for choice, ms in timings.items():
        try:
            ms = float(ms)
        except (TypeError, ValueError):
            continue
        if math.isfinite(ms):
            timed.append((choice, ms))
    best = min(timed, key=lambda t: t[1])[0] if timed else None
    for choice, ms in timed:
        bm = getattr(choice, 'bmreq', None)
        kernel = getattr(bm, 'kernel_name', None)
        entry = {'kernel': kernel if isinstance(kernel, str)
                 else str(getattr(choice, 'name', '?')),
                 'kwargs': _choice_kwargs(choice), 'ms': [ms], 'best': choice is best,
                 'source': 'inductor', 'op': str(op),
                 'choice': str(getattr(choice, 'name', ''))}
        if not isinstance(kernel, str):
            entry['extern'] = True
        for k in ('num_warps', 'num_stages'):
            v = getattr(bm, k, None)
            if isinstance(v, int):
                entry[k] = v
        _records.append(entry)
    _write()


def _patch_inductor(module):
    add = getattr(module, 'add_feedback_saver', None)
    if add is None or getattr(module, '_tkview', False):
        return

    def saver(*args):
        try:
            if len(args) >= 2 and isinstance(args[0], dict):
                _save_inductor(args[0], args[1])
        except Exception as e:  # never break the program
            print('tkview: could not record Inductor\'s autotune timings: %s' % e,
                  file=sys.stderr)

    try:
        add(saver)
        module._tkview = True
    except Exception as e:
        print('tkview: cannot hook Inductor\'s autotuning: %s' % e, file=sys.stderr)


# ---- each compile's dumps in a file of its own ----------------------------

_lock = threading.RLock()  # fd 2 is the process's: one stage at a time
_count = [0]               # compiles seen by this process
_installed = []            # the hook is in


# The program's own process: the first Python process of the run (its
# children inherit the variable).  In the others (torch.compile's compile
# workers), stdout is Inductor's, not the user's terminal: what a stage
# prints there (ptxas's log, TRITON_DUMP_PTXAS_LOG) goes to HASH.PID.N.out,
# which capture adds to the program's stdout it keeps.
_MAIN = not _COMPILES or (os.environ.setdefault('TKVIEW_MAIN_PID', str(os.getpid()))
                           == str(os.getpid()))


def _stage_file(token, metadata, ext):
    h = metadata.get('hash') if isinstance(metadata, dict) else None
    if not isinstance(h, str) or not h.isalnum():
        h = 'unknown'
    return os.path.join(_COMPILES, '%s.%d.%d.%s' % (h, os.getpid(), token, ext))


def _redirect(fd_no, path):
    """Points FD_NO at PATH (appending); returns the saved descriptor."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC, 0o644)
    saved = os.dup(fd_no)
    os.dup2(fd, fd_no)
    os.close(fd)
    return saved


def _flush():
    for f in (sys.stdout, sys.stderr):
        try:
            f.flush()
        except (AttributeError, OSError, ValueError):
            pass  # None (no console), closed: nothing buffered to keep apart


_TIMES = os.environ.get('TKVIEW_STAGE_TIMES')


def _stage_time(token, name, metadata, seconds):
    """$TKVIEW_STAGE_TIMES: "HASH TOKEN STAGE SECONDS" lines in FOLDER/PID.txt."""
    h = metadata.get('hash') if isinstance(metadata, dict) else None
    try:
        with open(os.path.join(_TIMES, '%d.txt' % os.getpid()), 'a') as f:
            f.write('%s %d %s %.6f\n' % (h if isinstance(h, str) else '?', token, name,
                                         seconds))
    except OSError:
        pass  # the folder is gone: timing is never worth breaking the program


def _wrap_stage(fn, token, name):
    def stage(src, metadata):
        t0 = time.monotonic()
        try:
            return _run_stage(fn, token, name, src, metadata)
        finally:
            if _TIMES:
                _stage_time(token, name, metadata, time.monotonic() - t0)
    return stage


# $TKVIEW_TRITON_SASS=skip (capture found nvdisasm): Triton's compile() dumps NAME.sass
# after the cubin stage via get_sass() (cuobjdump, ~0.45 s a compile on the H200: 4.5 s of an
# autotuned program's 9.6); tkview shows nvdisasm -c -gi's.  Only that call gets the note.
_SKIP_SASS = os.environ.get('TKVIEW_TRITON_SASS') == 'skip'
_SASS_NOTE = "// tkview capture: no Triton SASS; nvdisasm -c -gi's is NAME.sass_gi\n"
_after_cubin = threading.local()


def _skip_dump_sass(module):
    original = getattr(module, 'get_sass', None)
    if original is None or getattr(original, '_tkview', False):
        return

    def get_sass(*args, **kwargs):
        cubin = getattr(_after_cubin, 'out', None)
        if cubin is not None and args and args[0] is cubin:  # the stage's own output
            _after_cubin.out = None
            return _SASS_NOTE
        return original(*args, **kwargs)

    get_sass._tkview = True
    module.get_sass = get_sass


def _run_stage(fn, token, name, src, metadata):
    """One stage of a compile, its dumps into the compile's own file."""
    _after_cubin.out = None
    with _lock:
        _set_printers(name)
        fds = (2,) if _MAIN else (1, 2)
        _flush()
        saved = []
        try:
            for n in fds:
                saved.append((n, _redirect(n, _stage_file(
                    token, metadata, 'txt' if n == 2 else 'out'))))
        except OSError:
            pass  # the folder is gone: the dumps go where they would
        try:
            out = fn(src, metadata)
        finally:
            _flush()
            for n, s in saved:
                os.dup2(s, n)
                os.close(s)
    _after_cubin.out = out if _SKIP_SASS and name == 'cubin' else None
    return out


def _symtab_value(path, name):
    """st_value of the symbol NAME in the static symbol table (.symtab) of the
    ELF64 little-endian file PATH, or None (no such table or symbol)."""
    import struct
    with open(path, 'rb') as f:
        eh = f.read(64)
        if eh[:4] != b'\x7fELF' or eh[4:6] != b'\x02\x01':
            return None
        shoff, = struct.unpack_from('<Q', eh, 0x28)
        shentsize, shnum = struct.unpack_from('<HH', eh, 0x3A)
        f.seek(shoff)
        raw = f.read(shentsize * shnum)
        # name, type, flags, addr, offset, size, link, info, addralign, entsize
        secs = [struct.unpack_from('<IIQQQQIIQQ', raw, i * shentsize) for i in range(shnum)]
        for sec in secs:
            if sec[1] != 2 or sec[6] >= shnum:  # SHT_SYMTAB and its strings
                continue
            strs = secs[sec[6]]
            f.seek(strs[4])
            strtab = f.read(strs[5])
            f.seek(sec[4])
            syms = f.read(sec[5])
            key = b'\0' + name.encode() + b'\0'
            at = strtab.find(key)
            while at >= 0:
                want = struct.pack('<I', at + 1)
                j = syms.find(want)
                while j >= 0:
                    if j % 24 == 0:
                        value = struct.unpack_from('<Q', syms, j + 8)[0]
                        if value:
                            return value
                    j = syms.find(want, j + 1)
                at = strtab.find(key, at + 1)
    return None


def _llvm_parse(path):
    """LLVM's C API LLVMParseCommandLineOptions inside libtriton.so at PATH as
    a ctypes function, or None.  Triton 3.6 does not export it (its LLVM is
    linked in with hidden symbols) but keeps its static symbol table: the
    address is found from the one of PyInit_libtriton, which is exported.
    Found once per run ($TKVIEW_LLVM_PARSE_AT, inherited by the compile
    workers)."""
    import ctypes
    lib = ctypes.CDLL(path)
    try:
        init = ctypes.cast(lib.PyInit_libtriton, ctypes.c_void_p).value
    except AttributeError:
        return None
    offs = _symtab_offsets(path, ('LLVMParseCommandLineOptions',), 'TKVIEW_LLVM_PARSE_AT')
    if offs is None:
        return None
    fn = ctypes.CFUNCTYPE(None, ctypes.c_int, ctypes.POINTER(ctypes.c_char_p),
                          ctypes.c_char_p)(init + offs[0])
    return fn


def _symtab_offsets(path, names, env):
    """Offsets of the symbols NAMES from PyInit_libtriton in PATH's .symtab,
    or None.  Found once per run and inherited by the compile workers in $ENV
    ("PATH:SIZE:MTIME=OFFSETS"), reused only for the same file: a program
    that starts another Python with another Triton does not call into it at
    this one's offsets."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    key = '%s:%d:%d' % (path, st.st_size, st.st_mtime_ns)
    have, _, at = os.environ.get(env, '').rpartition('=')
    if have != key:
        vals = [_symtab_value(path, n) for n in ('PyInit_libtriton',) + names]
        at = ','.join(str(v - vals[0]) for v in vals[1:]) if all(vals) else 'none'
        os.environ[env] = key + '=' + at
    return None if at == 'none' else [int(x) for x in at.split(',')]


# LLVM keeps a pointer to the new name: it must live as long as the process.
_RENAMED = b'tkview-renamed-print-after-all'
_RENAMED_DONE = []


def _print_changed(path):
    """Renames LLVM's print-after-all option inside libtriton.so (its
    cl::Option::setArgStr() on the static cl::opt PrintAfterAll, both in the
    .symtab), so that Triton 3.6, which looks the option up by name and sets
    it on every compile under LLVM_IR_ENABLE_DUMP, finds nothing; the caller
    then asks for -print-changed, which prints only the passes that changed
    the IR (docs/capture.md, "LLVM's own options").  True when renamed."""
    import ctypes
    if _RENAMED_DONE:
        return True  # renamed twice, LLVM would stop the process
    offs = _symtab_offsets(path, ('_ZN4llvm2cl6Option9setArgStrENS_9StringRefE',
                                  '_ZL13PrintAfterAll'), 'TKVIEW_LLVM_RENAME_AT')
    if offs is None:
        return False
    lib = ctypes.CDLL(path)
    init = ctypes.cast(lib.PyInit_libtriton, ctypes.c_void_p).value
    set_arg_str = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_char_p,
                                   ctypes.c_size_t)(init + offs[0])
    set_arg_str(init + offs[1], _RENAMED, len(_RENAMED))
    _RENAMED_DONE.append(True)
    _printers_per_stage(path, init, init + offs[1])
    return True


# cl::opt<bool> and cl::opt<ChangePrinter>'s setDefault() and
# handleOccurrence(unsigned, StringRef, StringRef), and llvm::PrintChanged.
_TOGGLE_SYMS = ('_ZN4llvm12PrintChangedE',
                '_ZN4llvm2cl3optIbLb0ENS0_6parserIbEEE10setDefaultEv',
                '_ZN4llvm2cl3optIbLb0ENS0_6parserIbEEE16handleOccurrenceEjNS_9StringRefES5_',
                '_ZN4llvm2cl3optINS_13ChangePrinterELb0ENS0_6parserIS2_EEE10setDefaultEv',
                '_ZN4llvm2cl3optINS_13ChangePrinterELb0ENS0_6parserIS2_EEE16handleOccurrence'
                'EjNS_9StringRefES6_')
_TOGGLE = {}


def _printers_per_stage(path, init, after_all):
    """Where libtriton.so's .symtab has what it takes, the code generator
    keeps print-after-all: the llir stage (the optimizer) runs with
    -print-changed and print-after-all off, the ptx or amdgcn stage (the code
    generator, whose IR passes print nothing under -print-changed) with
    print-after-all on and -print-changed off (_set_printers())."""
    import ctypes
    offs = _symtab_offsets(path, _TOGGLE_SYMS, 'TKVIEW_LLVM_TOGGLE_AT')
    if offs is None:
        return
    default = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
    occur = ctypes.CFUNCTYPE(ctypes.c_bool, ctypes.c_void_p, ctypes.c_uint, ctypes.c_char_p,
                             ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t)
    _TOGGLE.update(changed=init + offs[0], after_all=after_all,
                   bool_default=default(init + offs[1]), bool_set=occur(init + offs[2]),
                   cp_default=default(init + offs[3]), cp_set=occur(init + offs[4]))


def _set_printers(stage_name):
    t = _TOGGLE
    if not t:
        return
    if stage_name == 'llir':
        t['bool_default'](t['after_all'])
        t['cp_set'](t['changed'], 0, b'print-changed', 13, b'', 0)
    elif stage_name in ('ptx', 'amdgcn'):
        t['cp_default'](t['changed'])
        t['bool_set'](t['after_all'], 0, b'print-after-all', 15, b'true', 4)


def _say_llvm_mode(mode):
    """One line in $TKVIEW_LLVM_CHANGED/PID when it is a folder: the LLVM
    dumps this process got (`tkview capture` puts them in the manifest)."""
    folder = os.environ.get('TKVIEW_LLVM_CHANGED', '')
    if not os.path.isdir(folder):
        return
    try:
        with open(os.path.join(folder, str(os.getpid())), 'w') as f:
            f.write(mode + '\n')
    except OSError:
        pass


def _llvm_options():
    """$TKVIEW_LLVM_OPTIONS: LLVM command-line options set in this process
    through LLVM's C API, which Triton itself never calls (it parses no LLVM
    command line).  `tkview capture --kernel NAME` asks for
    -filter-print-funcs=NAME (LLVM's dumps of that kernel only);
    bench/capture_bench.py's knob variants for others (-print-changed).
    Where the function is not found, nothing is set (a note on stderr): the
    capture then has every kernel's LLVM dumps, as without it."""
    opts = os.environ.get('TKVIEW_LLVM_OPTIONS', '').split()
    changed = bool(os.environ.get('TKVIEW_LLVM_CHANGED'))
    if not opts and not changed:
        return
    try:
        spec = importlib.machinery.PathFinder.find_spec('triton')
        path = os.path.join(spec.submodule_search_locations[0], '_C', 'libtriton.so')
        parse = _llvm_parse(path)
        # Renamed only where -print-changed can then be set: else Triton's
        # print-after-all stays, as without tkview.
        if changed and parse is not None and _print_changed(path):
            opts.append('-print-changed')
            _say_llvm_mode('print-changed, code generator print-after-all' if _TOGGLE
                           else 'print-changed')
        elif changed:
            _say_llvm_mode('print-after-all: symbols not found in ' + path)
    except (AttributeError, IndexError, OSError, TypeError, ValueError) as e:
        parse = None
        sys.stderr.write('tkview: %s\n' % e)
        if changed:
            _say_llvm_mode('print-after-all: %s' % e)
    if parse is None:
        sys.stderr.write('tkview: TKVIEW_LLVM_OPTIONS not set: no '
                         'LLVMParseCommandLineOptions in libtriton.so\n')
        return
    if not opts:
        return
    import ctypes
    argv = [b'tkview'] + [o.encode() for o in opts]
    parse(len(argv), (ctypes.c_char_p * len(argv))(*argv), b'')


def _install_compiles_hook(knobs):
    runtime = getattr(knobs, 'runtime', None)
    if runtime is None or _installed:
        return
    _llvm_options()
    previous = getattr(runtime, 'add_stages_inspection_hook', None)

    def hook(*args):
        if not args:
            # Asked for a cache key: tkview adds nothing to the compile's
            # hash (key ""), so kernels keep the hashes they have without it.
            if previous is not None:
                return previous()
            return '', 'tkview'
        if previous is not None:
            previous(*args)
        stages = args[1]
        with _lock:
            _count[0] += 1
            token = _count[0]
        for name in list(stages):
            stages[name] = _wrap_stage(stages[name], token, name)
        return None

    runtime.add_stages_inspection_hook = hook
    _installed.append(True)


def _old_triton_single_stream():
    """A Triton without knobs.py has no stage hook: one stream, one process."""
    mlir = os.environ.get('TKVIEW_MLIR_DUMP_PATH')
    if mlir:
        os.environ['MLIR_DUMP_PATH'] = mlir
    os.environ['TORCHINDUCTOR_COMPILE_THREADS'] = '1'


class _Loader(importlib.abc.Loader):
    def __init__(self, inner):
        self.inner = inner

    def create_module(self, spec):
        return self.inner.create_module(spec)

    def exec_module(self, module):
        self.inner.exec_module(module)
        if module.__name__ == 'triton.knobs':
            _install_compiles_hook(module)
        elif module.__name__ == 'torch._inductor.select_algorithm':
            _patch_inductor(module)
        elif module.__name__ == 'triton.compiler.compiler':
            _skip_dump_sass(module)
        else:
            _patch(module)


class _Finder(importlib.abc.MetaPathFinder):
    def __init__(self, names):
        self.names = names

    def find_spec(self, name, path, target=None):
        if name not in self.names:
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


_wanted = set()
if _DIR and os.path.isdir(_DIR):
    if 'triton.runtime.autotuner' in sys.modules:
        # imported already (a .pth file ran before this): patch it now
        _patch(sys.modules['triton.runtime.autotuner'])
    else:
        _wanted.add('triton.runtime.autotuner')
    if 'torch._inductor.select_algorithm' in sys.modules:
        _patch_inductor(sys.modules['torch._inductor.select_algorithm'])
    else:
        _wanted.add('torch._inductor.select_algorithm')
if _COMPILES and os.path.isdir(_COMPILES):
    if 'triton.knobs' in sys.modules:
        _install_compiles_hook(sys.modules['triton.knobs'])
    else:
        # Looked up without importing triton (find_spec of a submodule
        # would import the package into every Python process).
        try:
            spec = importlib.machinery.PathFinder.find_spec('triton')
        except (ImportError, ValueError):
            spec = None
        places = (spec.submodule_search_locations or []) if spec else []
        has_knobs = any(os.path.isfile(os.path.join(p, 'knobs.py')) for p in places)
        if has_knobs:
            _wanted.add('triton.knobs')
        else:
            _old_triton_single_stream()
if _SKIP_SASS and _COMPILES and os.path.isdir(_COMPILES):
    if 'triton.compiler.compiler' in sys.modules:
        _skip_dump_sass(sys.modules['triton.compiler.compiler'])
    else:
        _wanted.add('triton.compiler.compiler')
if _wanted:
    sys.meta_path.insert(0, _Finder(_wanted))
_chain_user_sitecustomize()
