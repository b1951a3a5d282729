#!/usr/bin/env python3
"""tkview check on the sample bundles and the raw FP8 capture: rules that
hold, rules that fail (each message checked), bad rules files, baselines
written and re-checked, --json and --junit.

Expected values were read by hand from the dumps:
  sample_dumps/raw/fp8_matmul_three (one FP8 matmul compiled three ways;
  kernel fp8_matmul_kernel, src/fp8_matmul_three.py):
    cache/*/fp8_matmul_kernel.json: num_warps 4 each; hashes efd017f3
      (num_stages 3, shared 49152), ecb96a3b (num_stages 4, shared 65536),
      ff7b0e8c (num_stages 3, shared 49152, enable_fp_fusion false).
    stdout.txt: ptxas "Used 168 registers", "0 bytes stack frame, 0 bytes
      spill stores" for each of the three.
    each .ptx: 4 `wgmma.mma_async` lines, every one under `.loc 1 41 27`
      (line 41 is `acc = tl.dot(a, b, acc)`).
    each .ttgir: 6 (stages 3) or 8 (stages 4) `ttg.async_copy_global_to_local`,
      half of them `%a_...` (line 39, `a = tl.load(a_ptrs)`): 3, 3 and 4;
      one `scf.for`; 2 `ttg.convert_layout`, both after the loop's `}`.
    only kernel_dump/*/ (ff7b0e8c) has SASS: its .sass_gi has 4
      `QGMMA.64x128x32.F32.E4M3.E4M3`, under `//## File ... line 41` (2)
      and `line 39` (2); the other two configs have no SASS.
    kernel_dump/*/fp8_matmul_kernel.sass_lr (nvdisasm's life ranges): the
      GPR column peaks at 164; the QGMMA at /*1470*/ (line 41 in .sass_gi)
      has 164.
  sample_dumps/matmul (matmul_kernel-239bc64b, sources/0000-matmul.py
  located as matmul.py): matmul_kernel.json num_warps 8, num_stages 3,
    shared 98304; .ttgir: `ttg.async_copy_global_to_local` at lines 95,
    115 (a, before the loop), 150 (a, inside the `scf.for` of line 125 that
    ends at line 161); one `ttng.warp_group_dot` (line 134, in the loop);
    one `ttg.convert_layout` (line 186, after the loop); .sass_gi 4 HGMMA;
    .ptx 4 wgmma.mma_async.
  sample_dumps/matmul_profile: matmul_pipelined.profile.json, the sum of
    the "samples" column (the first metric) over its instructions.
  sample_dumps/raw/diag_remarks stdout.txt: spill_rows_kernel "1920 bytes
    stack frame"; serialized_dot_kernel a "(C7511)" warning.

Usage: test_check.py TKVIEW   (TK_TEST_SAMPLES names sample_dumps)
Prints TAP.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'support'))
from tap import finish, test  # noqa: E402

TKVIEW = os.path.abspath(sys.argv[1])
SAMPLES = os.environ['TK_TEST_SAMPLES']
TMP = tempfile.mkdtemp(prefix='check-')


def unpack(name, members):
    archive = os.path.join(SAMPLES, 'raw', name + '.tar.xz')
    subprocess.run(['tar', '-xJf', archive, '-C', TMP, '--wildcards', *members], check=True)
    return os.path.join(TMP, name)


FP8 = unpack('fp8_matmul_three', ['*/kernel_dump/*', '*/cache/*', '*/src/*', '*/stdout.txt'])
REMARKS = unpack('diag_remarks', ['*/kernel_dump/*', '*/cache/*', '*/src/*', '*/stdout.txt'])
MATMUL = os.path.join(SAMPLES, 'matmul')


def rules(text, name='rules.txt'):
    path = os.path.join(TMP, name)
    with open(path, 'w') as f:
        f.write(text)
    return path


def check(path, rules_path, *extra):
    """Runs in TMP, naming the rules file as the output shows it."""
    if rules_path.startswith(TMP + os.sep):
        rules_path = os.path.relpath(rules_path, TMP)
    p = subprocess.run([TKVIEW, 'check', path, rules_path, *extra], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=300, cwd=TMP)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def results(path, rules_path):
    rc, out, err = check(path, rules_path, '--json')
    assert rc in (0, 1), (rc, err)
    return rc, json.loads(out)


def by_hash(data, prefix):
    return [r for r in data['results'] if r['hash'] and r['hash'].startswith(prefix)]


ISSUE_EXAMPLE = """kernel fp8_matmul_kernel
  spills == 0
  registers <= 168
  line fp8_matmul_three.py:/acc = tl.dot/ ptx op wgmma.mma_async >= 1
  line fp8_matmul_three.py:/acc = tl.dot/ sass class tensor >= 1
  line fp8_matmul_three.py:/tl.load\\(a_ptrs\\)/ ttgir op ttg.async_copy_global_to_local >= 1
"""


@test
def issue_example_holds_where_the_sass_is():
    rc, data = results(FP8, rules(ISSUE_EXAMPLE))
    assert len(data['results']) == 15, data  # 5 rules x 3 configs
    full = by_hash(data, 'ff7b0e8c')
    assert [r['status'] for r in full] == ['pass'] * 5, full
    assert [r['actual'] for r in full] == [0, 168, 4, 2, 3], full
    assert full[2]['source']['line'] == 41 and full[4]['source']['line'] == 39, full
    # The two configs without SASS: the SASS rule is unknown, not 0.
    for h in ('efd017f3', 'ecb96a3b'):
        r = by_hash(data, h)
        assert [x['status'] for x in r] == ['pass', 'pass', 'pass', 'unknown', 'pass'], r
        assert 'no SASS' in r[3]['why'], r[3]
    assert [r['actual'] for r in by_hash(data, 'ecb96a3b')][4] == 4
    assert rc == 1 and data['failed'] == 2


@test
def one_config_selected_by_hash_passes():
    text = ISSUE_EXAMPLE.replace('kernel fp8_matmul_kernel', 'kernel fp8_matmul_kernel:ff7b0e8c')
    rc, out, err = check(FP8, rules(text))
    assert rc == 0, (out, err)
    assert out.count('PASS ') == 5 and '5 checks: 5 passed, 0 failed' in out, out
    assert ('PASS rules.txt:5 line fp8_matmul_three.py:/acc = tl.dot/ sass class tensor >= 1'
            '  [fp8_matmul_kernel:ff7b0e8c] (actual 2; at fp8_matmul_three.py:41)') in out, out


@test
def live_registers_from_the_life_ranges():
    rc, data = results(FP8, rules("""kernel fp8_matmul_kernel
  live_registers == 164
  line fp8_matmul_three.py:/acc = tl.dot/ live_registers == 164
  metric spill_instructions == 0
"""))
    full = by_hash(data, 'ff7b0e8c')
    assert [(r['status'], r['actual']) for r in full] == [('pass', 164)] * 2 + [('pass', 0)], full
    other = by_hash(data, 'efd017f3')
    assert [r['status'] for r in other] == ['unknown'] * 3 and 'no SASS' in other[0]['why'], other
    assert rc == 1


@test
def lines_without_code_count_zero_and_docstrings_are_passed_over():
    # Line 8 of the docstring quotes `acc * scale + bias`, the code is line 45;
    # `def main():` (line 51) is no part of the kernel.
    rc, data = results(FP8, rules("""kernel fp8_matmul_kernel:ff7b
  line fp8_matmul_three.py:/acc \\* scale/ ptx lines >= 1
  line fp8_matmul_three.py:/def main/ ptx lines == 0
  line fp8_matmul_three.py:/def main/ sass class tensor == 0
  line fp8_matmul_three.py:/def main/ ttgir op ttg.convert_layout == 0
"""))
    got = [(r['status'], r['source']['line']) for r in data['results']]
    assert got == [('pass', 45), ('pass', 51), ('pass', 51), ('pass', 51)], data
    assert [r['actual'] for r in data['results']][1:] == [0, 0, 0], data
    assert rc == 0


@test
def kernel_facts_of_every_config():
    rc, data = results(FP8, rules("""kernel fp8_*
  warps == 4
  stages == 3
  shared == 49152
  ttgir op scf.for == 1
  ttgir op ttg.convert_layout == 2
  ttgir op ttg.convert_layout in loop == 0
  line fp8_matmul_three.py:41 ttgir op ttng.warp_group_dot in loop fp8_matmul_three.py:/for k in range/ == 1
  line fp8_matmul_three.py:/tl.store/ ttgir op tt.store in loop == 0
"""))
    stages4 = by_hash(data, 'ecb96a3b')
    assert [r['status'] for r in stages4][:3] == ['pass', 'fail', 'fail'], stages4
    assert (stages4[1]['actual'], stages4[2]['actual']) == (4, 65536)
    for h in ('efd017f3', 'ff7b0e8c'):
        assert all(r['status'] == 'pass' for r in by_hash(data, h)), by_hash(data, h)
    assert rc == 1 and data['failed'] == 2


@test
def failures_say_rule_kernel_value_and_line():
    rc, out, err = check(FP8, rules("""kernel fp8_matmul_kernel:ff7b0e8c
  registers <= 100
  line fp8_matmul_three.py:/acc = tl.dot/ sass opcode QGMMA == 3
  line fp8_matmul_three.py:/no such text/ ptx lines >= 1
  sass class tensor < 4
kernel nosuch_kernel
  spills == 0
""", 'fails.txt'))
    assert rc == 1, (rc, err)
    lines = out.splitlines()
    assert lines[0] == ('FAIL fails.txt:2 registers <= 100  [fp8_matmul_kernel:ff7b0e8c] '
                        '(actual 168)'), lines
    assert lines[1] == ('FAIL fails.txt:3 line fp8_matmul_three.py:/acc = tl.dot/ sass opcode '
                        'QGMMA == 3  [fp8_matmul_kernel:ff7b0e8c] (actual 2; at '
                        'fp8_matmul_three.py:41)'), lines
    assert lines[2].startswith('UNKNOWN fails.txt:4 ') and \
        'no line of fp8_matmul_three.py matches /no such text/' in lines[2], lines
    assert lines[3] == ('FAIL fails.txt:5 sass class tensor < 4  [fp8_matmul_kernel:ff7b0e8c] '
                        '(actual 4)'), lines
    assert lines[4] == ("UNKNOWN fails.txt:7 spills == 0  [(no kernel 'nosuch_kernel')] "
                        "(unknown: no kernel matches 'nosuch_kernel')"), lines
    assert lines[5] == '5 checks: 0 passed, 5 failed', lines


@test
def compiler_messages_and_stack():
    rc, data = results(REMARKS, rules("""kernel spill_rows_kernel
  stack == 1920
  spills > 0
kernel serialized_dot_kernel
  diagnostics code C7511 == 1
  diagnostics warning >= 1
  diagnostics error == 0
"""))
    got = [(r['kernel'], r['status'], r['actual']) for r in data['results']]
    assert got[0] == ('spill_rows_kernel', 'pass', 1920), got
    assert got[1][1] == 'pass', got
    assert [g[1] for g in got[2:]] == ['pass'] * 3, got
    assert rc == 0


@test
def sample_matmul_lines_loops_and_passes():
    rc, out, err = check(MATMUL, rules("""kernel matmul_kernel
  warps == 8
  stages == 3
  shared == 98304
  sass opcode HGMMA == 4
  sass class tensor == 4
  ptx op wgmma.mma_async == 4
  ttgir op ttg.convert_layout == 1
  ttgir op ttg.convert_layout in loop == 0
  line matmul.py:/a = tl.load\\(a_ptrs/ ttgir op ttg.async_copy_global_to_local == 3
  line matmul.py:34 ttgir op ttg.async_copy_global_to_local in loop == 1
  line matmul.py:/tl.dot/ ttgir op ttng.warp_group_dot in loop matmul.py:/for k in/ == 1
  line matmul.py:/tl.store/ ttgir op ttg.convert_layout == 1
  pass tritongpu-pipeline changed == 1
  pass TritonGPUF32DotTC changed == 0
"""))
    assert rc == 0, (out, err)
    assert '14 checks: 14 passed, 0 failed' in out, out
    assert '(actual 3; at matmul.py:34)' in out and '(actual 1; at matmul.py:36)' in out, out


@test
def samples_of_a_profiled_kernel():
    folder = os.path.join(SAMPLES, 'matmul_profile')
    prof = [f for f in os.listdir(folder) if f.startswith('matmul_pipelined-')][0]
    with open(os.path.join(folder, prof, 'matmul_pipelined.profile.json')) as f:
        doc = json.load(f)
    assert doc['metrics'][0]['name'] == 'samples'
    total = sum(row[2] for row in doc['instructions'])
    rc, data = results(folder, rules('samples == %d\nsamples > %d\n' % (total, total)))
    assert [(r['status'], r['actual']) for r in data['results']] == \
        [('pass', total), ('fail', total)], data
    assert rc == 1


@test
def bad_rules_files_name_their_line():
    cases = [
        ('kernel k\n  registers <== 3\n', 2, 'expected a comparison'),
        ('\n# c\n  warps == four\n', 3, 'expected a number'),
        ('bananas == 1\n', 1, "unknown fact 'bananas'"),
        ('line a.py:12 registers <= 1\n', 1, 'fact of a kernel, not of a line'),
        ('line a.py:/(unclosed/ ptx lines >= 1\n', 1, 'bad regex'),
        ('line a.py:/open ptx lines >= 1\n', 1, "no closing '/'"),
        ('sass class bogus >= 1\n', 1, "unknown SASS class 'bogus'"),
        ('ptx op wgmma in loop >= 1\n', 1, "'in loop' needs the ttir or ttgir stage"),
        ('kernel\n', 1, "'kernel' takes one name or glob"),
        ('warps == 4 5\n', 1, "unexpected '5'"),
    ]
    for text, line, why in cases:
        path = rules(text, 'bad.txt')
        rc, out, err = check(MATMUL, path)
        assert rc == 2, (text, rc, out, err)
        assert 'bad.txt:%d: error: ' % line in err and why in err, (text, err)
        assert out == '', out


@test
def rules_file_that_is_no_file():
    for path, why in ((TMP, 'a folder, not a file'), (os.path.join(TMP, 'none.txt'), 'none.txt')):
        rc, out, err = check(MATMUL, path)
        assert rc == 2 and why in err and out == '', (path, rc, err)


@test
def junit_and_json_are_well_formed():
    junit = os.path.join(TMP, 'junit.xml')
    path = rules('kernel matmul_kernel\n  warps == 8\n  warps == 4\n', 'j&u<n>it.txt')
    rc, out, err = check(MATMUL, path, '--junit', junit)
    assert rc == 1, err
    root = ET.parse(junit).getroot()
    assert root.tag == 'testsuites' and root.get('tests') == '2' and root.get('failures') == '1'
    cases = root.findall('./testsuite/testcase')
    assert len(cases) == 2, cases
    assert cases[0].find('failure') is None
    fail = cases[1].find('failure')
    assert fail is not None and fail.get('message') == 'actual 8', ET.tostring(cases[1])
    assert cases[1].get('classname') == 'matmul_kernel:239bc64b'
    assert cases[1].get('name').endswith('j&u<n>it.txt:3 warps == 4'), cases[1].get('name')
    rc, data = results(MATMUL, path)
    assert (data['checks'], data['failed']) == (2, 1)
    assert data['results'][1]['actual'] == 8 and data['results'][1]['status'] == 'fail'


@test
def baseline_written_and_rechecked():
    for folder, name in ((FP8, 'fp8'), (MATMUL, 'mm'), (REMARKS, 'remarks'),
                         (os.path.join(SAMPLES, 'matmul_configs'), 'cfg')):
        base = os.path.join(TMP, name + '.baseline')
        p = subprocess.run([TKVIEW, 'check', folder, '--write-baseline', base],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
        assert p.returncode == 0, p.stderr
        rc, out, err = check(folder, base)
        assert rc == 0, (name, out, err)
        assert re.search(r'\d+ checks: (\d+) passed, 0 failed', out), out
    text = open(os.path.join(TMP, 'fp8.baseline')).read()
    for want in ('kernel fp8_matmul_kernel\n', '  spills == 0\n', '  registers <= 185\n',
                 '  warps == 4\n', '  stages >= 3\n', '  stages <= 4\n',
                 '  ttgir op ttg.convert_layout in loop == 0\n',
                 '  line fp8_matmul_three.py:/a = tl\\.load\\(a_ptrs\\)/ ttgir op '
                 'ttg.async_copy_global_to_local >= 1\n',
                 '  line fp8_matmul_three.py:/acc = tl\\.dot\\(a, b, acc\\)/ ptx op '
                 'wgmma.mma_async >= 1\n',
                 'kernel fp8_matmul_kernel:ff7b0e8c\n',
                 '  line fp8_matmul_three.py:/acc = tl\\.dot\\(a, b, acc\\)/ sass class '
                 'tensor >= 1\n'):
        assert want in text, (want, text)
    # A baseline catches a change: pin a value the kernel does not have.
    broken = text.replace('  warps == 4\n', '  warps == 8\n')
    rc, out, err = check(FP8, rules(broken, 'broken.baseline'))
    assert rc == 1 and out.count('FAIL broken.baseline:') == 3, out
    remarks = open(os.path.join(TMP, 'remarks.baseline')).read()
    block = remarks[remarks.index('kernel spill_rows_kernel\n'):]
    # The cubin's local memory (1920 bytes, ptxas's stack frame in stdout.txt).
    assert '  spills <= 1920\n' in block, remarks
    assert (r'  line diag_remarks.py:/x = tl\.load\(x_ptr \+ offs\)/ metric '
            r'spill_instructions <= ') in block, block
    mm = open(os.path.join(TMP, 'mm.baseline')).read()
    assert '  registers <= 139\n' in mm, mm  # 126 registers + 10 %


sys.exit(finish())
