// tap.mjs - what the Chromium tests that print TAP share: test() runs a case
// and prints its line, assert() and eq() fail it, counts() says how many
// passed and failed, finish() prints the plan and exits non-zero when a case
// failed; report() writes `tkview --html` of
// an input into the test's own temporary folder.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const results = [];

export async function test(name, fn) {
  try {
    await fn();
    results.push([name, null]);
    console.log('ok ' + results.length + ' - ' + name);
  } catch (e) {
    results.push([name, e]);
    console.log('not ok ' + results.length + ' - ' + name);
    for (const l of String(e && e.stack ? e.stack : e).split('\n')) console.log('#   ' + l);
    // meson's error log shows a TAP test's stderr, not its stdout
    console.error('not ok ' + results.length + ' - ' + name + '\n' + (e && e.stack ? e.stack : e));
  }
}

export function assert(c, msg) {
  if (!c) throw new Error('assertion failed: ' + msg);
}

export function eq(a, b, msg) {
  const ja = JSON.stringify(a), jb = JSON.stringify(b);
  if (ja !== jb) throw new Error((msg || 'not equal') + ': got ' + ja + ', want ' + jb);
}

/* A temporary folder of the test's own (under TMPDIR) and a writer of
 * reports into it; finish() removes it. */
let tmp = null;
export function tempDir(prefix) {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return tmp;
}

export function report(tkview, input, name) {
  const out = path.join(tmp, name);
  const p = spawnSync(tkview, ['--html', out, input, '--quiet'], { encoding: 'utf8' });
  if (p.status !== 0) throw new Error('tkview --html failed: ' + p.stderr);
  return out;
}

/* How many cases passed and failed so far. */
export function counts() {
  const failed = results.filter((r) => r[1]).length;
  return { passed: results.length - failed, failed };
}

export function finish() {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  console.log('1..' + results.length);
  process.exit(results.some((r) => r[1]) ? 1 : 0);
}
