// test_compare.mjs - the report's comparison pages (compare.js) and the
// index's autotune group in Debian's Chromium, from file://.  Prints TAP.
//
// Input: sample_dumps/matmul_configs, one matmul in three configurations:
// 01cca3c5 (4 warps, 3 stages), 0cfc4f76 (4, 2), b4f5182e (8, 3).  The
// expectations were read off the kernels' passes/mlir.txt.gz (zcat | sed -n)
// and are checked again independently by tests/e2e/test_compare.py:
//   num_stages pair: the first output to differ is the Before dump of
//     TritonGPUScheduleLoops (line 6979), so pass 30, TritonGPUAssignLatencies;
//     line 7052:  A `%a_53 = tt.load ... {tt.latency = 2 : i32}`,
//                 B `%a_53 = tt.load ... {tt.latency = 1 : i32}`
//   num_warps pair: the Before dump of TritonGPUCoalesce (line 3385), so pass
//     12, ConvertTritonToTritonGPU; line 3386:
//                 A `#blocked = #ttg.blocked<{... warpsPerCTA = [2, 2] ...}>`,
//                 B `#blocked = #ttg.blocked<{... warpsPerCTA = [4, 2] ...}>`
//
// Usage: run_browser.sh TKVIEW BUILD_DIR test_compare.mjs
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { launch, open as openPage } from './browser.mjs';
import { assert, finish, test } from './tap.mjs';

const [, , TKVIEW_ARG, BUILD, PW] = process.argv;
const TKVIEW = path.resolve(TKVIEW_ARG);
const HERE = path.dirname(fileURLToPath(import.meta.url));
const MC = path.resolve(HERE, '..', '..', 'sample_dumps', 'matmul_configs');
const ART = path.join(BUILD, 'artefacts');


const tmp = fs.mkdtempSync(path.join(process.env.TMPDIR || os.tmpdir(), 'tkview-compare-'));
function report(name, args) {
  const out = path.join(tmp, name);
  const p = spawnSync(TKVIEW, ['--html', out, ...args, '--quiet'], { encoding: 'utf8' });
  if (p.status !== 0) throw new Error('tkview --html failed: ' + p.stderr);
  return out;
}

const browser = await launch(PW);
const ready = (page) => page.waitForSelector('body[data-ready="1"]', { timeout: 15000 });
/* The shown diff's rows: [kind, A text, B text]. */
const rowsOf = (page) => page.$$eval('#cv-diff .drow', (rs) => rs.map((r) =>
  [r.className.split(' ')[1], r.children[1].textContent, r.children[3].textContent]));

const out = report('configs', [MC]);
const url = (f) => pathToFileURL(path.join(out, f)).href;

await test('the index: one row per configuration, a compare-with link to each other', async () => {
  const page = await openPage(browser, url('index.html'));
  const rows = await page.$$eval('section#compares table.group tbody tr', (trs) =>
    trs.map((tr) => [tr.children[0].textContent, tr.children[1].textContent, tr.children[2].textContent,
      tr.children[7].textContent, [...tr.querySelectorAll('td.pick a')].map((a) => a.textContent)]));
  assert(rows.length === 3, JSON.stringify(rows));
  // matmul_kernel.json: num_warps / num_stages 4/3, 4/2, 8/3; source line 36-38:
  // tl.arange(0, BLOCK_M) ... with BLOCK_M, BLOCK_N, BLOCK_K = 128, 64, 32
  assert(rows[0][0].startsWith('01cca3c5') && rows[0][1] === '4' && rows[0][2] === '3', JSON.stringify(rows[0]));
  assert(rows[1][0].startsWith('0cfc4f76') && rows[1][2] === '2', JSON.stringify(rows[1]));
  assert(rows[2][0].startsWith('b4f5182e') && rows[2][1] === '8', JSON.stringify(rows[2]));
  assert(rows[0][3] === 'BLOCK_M=128 BLOCK_N=64 BLOCK_K=32', rows[0][3]);
  assert(JSON.stringify(rows[0][4]) === '["0cfc4f76","b4f5182e"]', JSON.stringify(rows[0][4]));
  await page.click('section#compares table.group tbody tr:first-child td.pick a:first-child');
  await ready(page);
  assert(/^c\d+-matmul_kernel-01cca3c5-0cfc4f76\.html$/.test(path.basename(new URL(page.url()).pathname)), page.url());
  assert(page.problems.length === 0, page.problems.join('; '));
  await page.close();
});

await test('num_stages: the first divergence is TritonGPUAssignLatencies, the latencies differ', async () => {
  const f = fs.readdirSync(out).find((x) => /-01cca3c5-0cfc4f76\.html$/.test(x));
  const page = await openPage(browser, url(f));
  await ready(page);
  const first = await page.textContent('#first');
  assert(first.includes('TritonGPUAssignLatencies') && first.includes('pass 30 of A, 30 of B'), first);
  assert(first.includes('The IR before it is the same'), first);
  assert(await page.getAttribute('.cvr.first', 'data-row') === '30', 'first row');
  const st = await page.evaluate(() => TK.use('compare').inspect());
  assert(st.row === 30 && st.which === 'after' && typeof st.diff === 'number', JSON.stringify(st));
  const rows = await rowsOf(page);
  assert(rows.some((r) => r[0] === 'r' && r[1].includes('%a_53 = tt.load') && r[1].includes('{tt.latency = 2 : i32}') &&
    r[2].includes('{tt.latency = 1 : i32}')), JSON.stringify(rows.filter((r) => r[0] !== 'e')));
  // rows 0-29: the same output (marked =), 72 rows in all
  const marks = await page.$$eval('.cvr[data-row] .v.same', (e) => e.length);
  assert(await page.$$eval('.cvr[data-row]', (e) => e.length) === 72, 'rows');
  assert(marks >= 60, 'same marks ' + marks);
  await page.screenshot({ path: path.join(ART, 'compare-num-stages.png') });
  // b: the IR before row 30 is the same text in both
  await page.keyboard.press('b');
  await page.waitForFunction(() => TK.use('compare').inspect().which === 'before');
  assert((await page.textContent('#cv-diff')).includes('The same in both'), 'before');
  // j: the next row; its diff loads
  await page.keyboard.press('a');
  await page.keyboard.press('j');
  await page.waitForFunction(() => TK.use('compare').inspect().row === 31 && TK.use('compare').inspect().rows > 0);
  // a row before the divergence: the same on both sides
  await page.click('.cvr[data-row="12"]');
  await page.waitForFunction(() => TK.use('compare').inspect().row === 12);
  assert((await page.textContent('#cv-diff')).includes('The same in both'), 'row 12');
  // the configuration: num_stages and shared_bytes differ
  const differs = await page.$$eval('#cv-facts table.cfg tr.differs td.nm', (e) => e.map((x) => x.textContent));
  assert(JSON.stringify(differs) === '["num_stages","shared_bytes"]', JSON.stringify(differs));
  assert(page.problems.length === 0, page.problems.join('; '));
  await page.close();
});

await test('num_warps: the first divergence is ConvertTritonToTritonGPU, the layouts differ', async () => {
  const f = fs.readdirSync(out).find((x) => /-01cca3c5-b4f5182e\.html$/.test(x));
  const page = await openPage(browser, url(f));
  await ready(page);
  assert((await page.textContent('#first')).includes('ConvertTritonToTritonGPU'), 'first');
  assert(await page.getAttribute('.cvr.first', 'data-row') === '12', 'first row');
  const rows = await rowsOf(page);
  assert(rows.some((r) => r[1].startsWith('#blocked = ') && r[1].includes('warpsPerCTA = [2, 2]') &&
    r[2].includes('warpsPerCTA = [4, 2]')), JSON.stringify(rows.slice(0, 3)));
  await page.screenshot({ path: path.join(ART, 'compare-num-warps.png') });
  assert(page.problems.length === 0, page.problems.join('; '));
  await page.close();
});

await test('--compare across two inputs: listed on the index, its page works', async () => {
  const o = report('across', [MC, MC, '--compare', '0cfc4f76:b4f5182e']);
  const page = await openPage(browser, pathToFileURL(path.join(o, 'index.html')).href);
  const links = await page.$$eval('section#compares ul.pairs a', (as) => as.map((a) => [a.textContent, a.getAttribute('href')]));
  assert(links.length === 1 && links[0][0].includes('0cfc4f76 vs matmul_kernel b4f5182e'), JSON.stringify(links));
  await page.click('section#compares ul.pairs a');
  await ready(page);
  assert((await page.textContent('#first')).includes('ConvertTritonToTritonGPU'), 'first');
  assert(page.problems.length === 0, page.problems.join('; '));
  await page.close();
  const bad = spawnSync(TKVIEW, ['--html', path.join(tmp, 'bad'), MC, '--compare', 'nothing:here', '--quiet'], { encoding: 'utf8' });
  assert(bad.status !== 0 && bad.stderr.includes('--compare'), bad.stderr);
});

await browser.close();
if (!process.env.TK_KEEP) fs.rmSync(tmp, { recursive: true, force: true });
finish();
