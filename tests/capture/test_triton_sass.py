#!/usr/bin/env python3
"""The hook's TKVIEW_TRITON_SASS=skip (compiler/python/sitecustomize.py,
_skip_dump_sass()): Triton 3.6's compile() writes NAME.sass into the kernel
dump right after the cubin stage, through triton.compiler.compiler's
get_sass() (cuobjdump -sass); `tkview capture` shows nvdisasm's SASS
instead, so where it found nvdisasm that one call is answered with a note.
A stand-in Triton package (triton.knobs with the stage hook, and
triton.compiler.compiler with a get_sass() that says it ran) is compiled
through the way Triton 3.6's compile() calls them.  Prints TAP.

Usage: test_triton_sass.py [SRCDIR]   (default: this file's ../..)
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'support'))
from tap import finish, test  # noqa: E402

SRC = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                      os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
HOOK_DIR = os.path.join(SRC, 'compiler', 'python')
TMP = tempfile.mkdtemp(prefix='tkview-triton-sass-')

# triton.compiler.compiler as Triton 3.6 has it: compile() runs the stages,
# then, with the kernel dump on, get_sass() of the cubin for NAME.sass.
COMPILER = r'''
from triton import knobs

def get_sass(cubin):
    return 'TRITON SASS of %s' % cubin

def compile(name):
    stages = {'ptx': lambda src, md: 'ptx of ' + name,
              'cubin': lambda src, md: 'cubin of ' + name}
    knobs.runtime.add_stages_inspection_hook(None, stages, None, None, None)
    module, dumped = None, []
    for ext, stage in stages.items():
        module = stage(module, {'hash': 'abc'})
        if ext == 'cubin':
            dumped.append(get_sass(module))
    return dumped
'''

# The program: two compiles (each dumps its SASS), then what a program
# reading kernel.asm['sass'] gets.
CHILD = r'''
import json
import triton.knobs
import triton.compiler.compiler as cc
out = {'dumped': cc.compile('k1') + cc.compile('k2'), 'asked': cc.get_sass('cubin of k2')}
print(json.dumps(out))
'''


def package():
    pkg = os.path.join(TMP, 'pkg')
    os.makedirs(os.path.join(pkg, 'triton', 'compiler'))
    shutil.copy(os.path.join(SRC, 'tests', 'capture', 'fake_pkg', 'triton', 'knobs.py'),
                os.path.join(pkg, 'triton', 'knobs.py'))
    for init in ('triton/__init__.py', 'triton/compiler/__init__.py'):
        open(os.path.join(pkg, init), 'w').close()
    with open(os.path.join(pkg, 'triton', 'compiler', 'compiler.py'), 'w') as f:
        f.write(COMPILER)
    return pkg


def run(skip):
    comp = tempfile.mkdtemp(dir=TMP)
    env = dict(os.environ, PYTHONPATH=HOOK_DIR + os.pathsep + package_dir,
               TKVIEW_COMPILES_DIR=comp)
    for k in ('TKVIEW_TRITON_SASS', 'TKVIEW_LLVM_CHANGED', 'TKVIEW_LLVM_OPTIONS',
              'TKVIEW_AUTOTUNE_DIR', 'TKVIEW_MAIN_PID', 'TKVIEW_STAGE_TIMES'):
        env.pop(k, None)
    if skip:
        env['TKVIEW_TRITON_SASS'] = skip
    p = subprocess.run([sys.executable, '-c', CHILD], env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=120)
    assert p.returncode == 0, p.stderr.decode()
    return json.loads(p.stdout.decode().strip().splitlines()[-1])


package_dir = package()


@test
def the_dump_s_sass_is_left_to_nvdisasm():
    got = run('skip')
    note = "// tkview capture: no Triton SASS; nvdisasm -c -gi's is NAME.sass_gi\n"
    assert got['dumped'] == [note, note], got
    # what the program itself asks for is Triton's, as without tkview
    assert got['asked'] == 'TRITON SASS of cubin of k2', got


@test
def without_it_triton_makes_its_sass():
    got = run(None)
    assert got == {'dumped': ['TRITON SASS of cubin of k1', 'TRITON SASS of cubin of k2'],
                   'asked': 'TRITON SASS of cubin of k2'}, got


if __name__ == '__main__':
    rc = finish()
    shutil.rmtree(TMP, ignore_errors=True)
    sys.exit(rc)
