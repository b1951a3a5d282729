#!/usr/bin/env python3
"""The hook's LLVM options (compiler/python/sitecustomize.py, _llvm_options()):
Triton 3.6's libtriton.so does not export LLVM's C API
LLVMParseCommandLineOptions but keeps it in its static symbol table; the
hook finds it there, from the exported PyInit_libtriton, and calls it with
$TKVIEW_LLVM_OPTIONS (`tkview capture --kernel NAME` asks for
-filter-print-funcs=NAME).  A stand-in libtriton.so, built here with the
C compiler, has both symbols; its parse function writes the arguments it was
given to a file.  The arguments expected are the ones this test sets.
With $TKVIEW_LLVM_CHANGED (what `tkview capture` asks for by default) the
hook first renames LLVM's print-after-all (cl::Option::setArgStr on the
static PrintAfterAll, both only in .symtab) and asks for -print-changed; the
stand-in's setArgStr writes what it was given, and which object.
Prints TAP.

Usage: test_llvm_options.py [SRCDIR]   (default: this file's ../..)
"""
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'support'))
from tap import Skip, finish, test  # noqa: E402

SRC = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                      os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
HOOK = os.path.join(SRC, 'compiler', 'python', 'sitecustomize.py')
TMP = tempfile.mkdtemp(prefix='tkview-llvm-options-')

STANDIN = r'''
#include <stdio.h>
#include <stdlib.h>
/* Hidden, as in Triton's build: only .symtab names it. */
__attribute__((visibility("hidden")))
void LLVMParseCommandLineOptions(int argc, const char *const *argv, const char *overview)
{
    FILE *f = fopen(getenv("STANDIN_OUT"), "a");
    for (int i = 0; i < argc; i++)
        fprintf(f, "%s\n", argv[i]);
    fprintf(f, "overview=[%s]\n", overview ? overview : "(null)");
    fclose(f);
}
void *PyInit_libtriton(void) { return 0; }
#ifdef RENAME
/* llvm::cl::Option::setArgStr(StringRef) and the static cl::opt
 * PrintAfterAll, by their mangled names. */
static char _ZL13PrintAfterAll[64];
__attribute__((visibility("hidden"), used))
void _ZN4llvm2cl6Option9setArgStrENS_9StringRefE(void *opt, const char *s, size_t n)
{
    FILE *f = fopen(getenv("STANDIN_OUT"), "a");
    fprintf(f, "setArgStr(%s, %.*s)\n",
            opt == (void *)_ZL13PrintAfterAll ? "PrintAfterAll" : "?", (int)n, s);
    fclose(f);
}
#endif
#ifdef TOGGLE
/* llvm::PrintChanged, and cl::opt<bool> and cl::opt<ChangePrinter>'s
 * setDefault() and handleOccurrence(unsigned, StringRef, StringRef). */
char _ZN4llvm12PrintChangedE[64];
static void say(const char *what, void *opt, const char *name, size_t n, const char *arg,
                size_t an)
{
    FILE *f = fopen(getenv("STANDIN_OUT"), "a");
    fprintf(f, "%s(%s", what, opt == (void *)_ZL13PrintAfterAll ? "PrintAfterAll"
                            : opt == (void *)_ZN4llvm12PrintChangedE ? "PrintChanged" : "?");
    if (name)
        fprintf(f, ", %.*s, [%.*s]", (int)n, name, (int)an, arg);
    fprintf(f, ")\n");
    fclose(f);
}
__attribute__((visibility("hidden"), used))
void _ZN4llvm2cl3optIbLb0ENS0_6parserIbEEE10setDefaultEv(void *o) { say("bool.setDefault", o, 0, 0, 0, 0); }
__attribute__((visibility("hidden"), used))
int _ZN4llvm2cl3optIbLb0ENS0_6parserIbEEE16handleOccurrenceEjNS_9StringRefES5_(
    void *o, unsigned pos, const char *n, size_t nn, const char *a, size_t an)
{ (void)pos; say("bool.handleOccurrence", o, n, nn, a, an); return 0; }
__attribute__((visibility("hidden"), used))
void _ZN4llvm2cl3optINS_13ChangePrinterELb0ENS0_6parserIS2_EEE10setDefaultEv(void *o)
{ say("ChangePrinter.setDefault", o, 0, 0, 0, 0); }
__attribute__((visibility("hidden"), used))
int _ZN4llvm2cl3optINS_13ChangePrinterELb0ENS0_6parserIS2_EEE16handleOccurrenceEjNS_9StringRefES6_(
    void *o, unsigned pos, const char *n, size_t nn, const char *a, size_t an)
{ (void)pos; say("ChangePrinter.handleOccurrence", o, n, nn, a, an); return 0; }
#endif
'''

# A process with the hook loaded from its file and the stand-in package
# first on sys.path: what the hook does when triton.knobs is imported.
CHILD = r'''
import importlib.util, os, sys
spec = importlib.util.spec_from_file_location('tkview_hook', sys.argv[1])
hook = importlib.util.module_from_spec(spec)
spec.loader.exec_module(hook)
hook._llvm_options()
for stage in sys.argv[2:]:  # what the compile hook does before each stage
    hook._set_printers(stage)
print(os.environ.get('TKVIEW_LLVM_PARSE_AT', 'unset'))
'''


def standin(name, strip, rename=False, toggle=False):
    """A package folder holding triton/_C/libtriton.so built from STANDIN."""
    cc = shutil.which('cc') or shutil.which('gcc')
    if not cc:
        raise Skip('no C compiler to build the stand-in libtriton.so')
    pkg = os.path.join(TMP, name)
    os.makedirs(os.path.join(pkg, 'triton', '_C'))
    open(os.path.join(pkg, 'triton', '__init__.py'), 'w').close()
    c = os.path.join(TMP, name + '.c')
    with open(c, 'w') as f:
        f.write(STANDIN)
    so = os.path.join(pkg, 'triton', '_C', 'libtriton.so')
    subprocess.run([cc, '-shared', '-fPIC', '-O1'] + (['-DRENAME'] if rename else []) +
                   (['-DTOGGLE'] if toggle else []) +
                   ['-o', so, c], check=True)
    if strip:
        tool = shutil.which('strip')
        if not tool:
            raise Skip('no strip')
        subprocess.run([tool, '--strip-all', so], check=True)
    return pkg


def child(pkg, options, out, parse_at=None, changed=None, stages=()):
    env = dict(os.environ, PYTHONPATH=pkg, STANDIN_OUT=out,
               TKVIEW_LLVM_OPTIONS=options)
    for k in ('TKVIEW_LLVM_PARSE_AT', 'TKVIEW_LLVM_RENAME_AT', 'TKVIEW_LLVM_CHANGED',
              'TKVIEW_LLVM_TOGGLE_AT'):
        env.pop(k, None)
    if changed:
        env['TKVIEW_LLVM_CHANGED'] = changed
    if parse_at is not None:
        env['TKVIEW_LLVM_PARSE_AT'] = parse_at
    env.pop('PYTHONSTARTUP', None)
    p = subprocess.run([sys.executable, '-S', '-c', CHILD, HOOK, *stages], env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    assert p.returncode == 0, p.stderr.decode()
    got = open(out).read() if os.path.exists(out) else None
    return got, p.stdout.decode().strip(), p.stderr.decode()


@test
def options_reach_the_hidden_parse_function():
    pkg = standin('plain', strip=False)
    out = os.path.join(TMP, 'plain.txt')
    got, at, err = child(pkg, '-filter-print-funcs=add_kernel -print-changed', out)
    assert got == ('tkview\n-filter-print-funcs=add_kernel\n-print-changed\n'
                   'overview=[]\n'), (got, err)
    assert at != 'unset' and not at.endswith('=none'), at
    # A compile worker inherits where the function is: no second search.
    out2 = os.path.join(TMP, 'plain2.txt')
    got, at2, err = child(pkg, '-filter-print-funcs=k2', out2, parse_at=at)
    assert got == 'tkview\n-filter-print-funcs=k2\noverview=[]\n', (got, err)
    assert at2 == at


@test
def offsets_of_another_library_are_not_reused():
    # A worker started with the offsets found in another libtriton.so (the
    # plain stand-in's) looks again in its own: here none, so nothing is
    # called at the other's offsets.
    plain = standin('plain-b', strip=False)
    out = os.path.join(TMP, 'plain-b.txt')
    _, at, err = child(plain, '-filter-print-funcs=k', out)
    stripped = standin('stripped-b', strip=True)
    out2 = os.path.join(TMP, 'stripped-b.txt')
    got, at2, err = child(stripped, '-filter-print-funcs=k', out2, parse_at=at)
    assert got is None and at2.endswith('=none') and at2 != at, (got, at, at2, err)


@test
def a_stripped_library_is_left_alone_with_a_note():
    pkg = standin('stripped', strip=True)
    out = os.path.join(TMP, 'stripped.txt')
    got, at, err = child(pkg, '-filter-print-funcs=add_kernel', out)
    assert got is None, got
    assert at.endswith('libtriton.so:%d:%d=none' % (os.stat(os.path.join(
        pkg, 'triton', '_C', 'libtriton.so')).st_size, os.stat(os.path.join(
            pkg, 'triton', '_C', 'libtriton.so')).st_mtime_ns)), at
    assert 'TKVIEW_LLVM_OPTIONS not set' in err, err


@test
def no_options_no_search():
    pkg = standin('none', strip=False)
    out = os.path.join(TMP, 'none.txt')
    got, at, err = child(pkg, '', out)
    assert got is None and at == 'unset' and err == '', (got, at, err)


def mode_said(folder):
    names = os.listdir(folder)
    assert len(names) == 1, names
    return open(os.path.join(folder, names[0])).read()


@test
def print_after_all_renamed_then_print_changed_asked():
    pkg = standin('rename', strip=False, rename=True)
    out, modes = os.path.join(TMP, 'rename.txt'), os.path.join(TMP, 'rename-modes')
    os.mkdir(modes)
    got, at, err = child(pkg, '-filter-print-funcs=add_kernel', out, changed=modes,
                         stages=('llir', 'ptx'))
    # no per-stage symbols here: nothing toggled; renamed first, so that Triton cannot find it; then one parse with both
    assert got == ('setArgStr(PrintAfterAll, tkview-renamed-print-after-all)\n'
                   'tkview\n-filter-print-funcs=add_kernel\n-print-changed\n'
                   'overview=[]\n'), (got, err)
    assert mode_said(modes) == 'print-changed\n'


@test
def the_code_generator_keeps_print_after_all():
    # With the options' own setDefault() and handleOccurrence(): the llir
    # stage (the optimizer) -print-changed with print-after-all off, the ptx
    # stage (the code generator) print-after-all with -print-changed off;
    # MLIR's stages touch neither.
    pkg = standin('toggle', strip=False, rename=True, toggle=True)
    out, modes = os.path.join(TMP, 'toggle.txt'), os.path.join(TMP, 'toggle-modes')
    os.mkdir(modes)
    got, at, err = child(pkg, '', out, changed=modes,
                         stages=('ttir', 'ttgir', 'llir', 'ptx', 'cubin', 'llir', 'amdgcn'))
    llir = ('bool.setDefault(PrintAfterAll)\n'
            'ChangePrinter.handleOccurrence(PrintChanged, print-changed, [])\n')
    codegen = ('ChangePrinter.setDefault(PrintChanged)\n'
               'bool.handleOccurrence(PrintAfterAll, print-after-all, [true])\n')
    assert got == ('setArgStr(PrintAfterAll, tkview-renamed-print-after-all)\n'
                   'tkview\n-print-changed\noverview=[]\n' + llir + codegen + llir +
                   codegen), (got, err)
    assert mode_said(modes) == 'print-changed, code generator print-after-all\n'


@test
def no_set_arg_str_keeps_print_after_all():
    # The parse function alone (the plain stand-in): nothing renamed, no
    # -print-changed, and the process says why.
    pkg = standin('norename', strip=False)
    out, modes = os.path.join(TMP, 'norename.txt'), os.path.join(TMP, 'norename-modes')
    os.mkdir(modes)
    got, at, err = child(pkg, '', out, changed=modes)
    assert got is None, got
    said = mode_said(modes)
    assert said.startswith('print-after-all: symbols not found in '), said


@test
def stripped_library_keeps_print_after_all():
    pkg = standin('stripped2', strip=True, rename=True)
    out, modes = os.path.join(TMP, 'stripped2.txt'), os.path.join(TMP, 'stripped2-modes')
    os.mkdir(modes)
    got, at, err = child(pkg, '', out, changed=modes)
    assert got is None, got
    assert mode_said(modes).startswith('print-after-all'), mode_said(modes)


if __name__ == '__main__':
    rc = finish()
    shutil.rmtree(TMP, ignore_errors=True)
    sys.exit(rc)
