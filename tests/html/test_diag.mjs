// test_diag.mjs - the compiler's messages in the report, in Chromium, on
// the raw capture sample_dumps/raw/diag_remarks (unpacked here, stdout.txt
// and the first 200 KB of stderr.txt, which hold every message):
// small_dot_kernel's remark "MMA version 3 acceleration not applied" is at
// diag_remarks.py:28:18 and on TTGIR line 46 (the tt.dot; read by hand,
// tests/e2e/test_diagnostics.py); spill_rows_kernel's ptxas spill has no
// line.  And sample_dumps/raw/diag_ws_store whole (small): its error's
// pass, NVGPUWarpSpecialization, is pass 30 (mlir_passes.txt, one kernel:
// 30 "IR Dump Before" headers before line 3330, that pass's; read by
// hand, tests/e2e/test_diagnostics.py): its "open pass 30" link opens
// pass mode there.  Prints TAP.
//
// Usage: node test_diag.mjs TKVIEW BUILD_DIR PLAYWRIGHT_CORE_INDEX
//   TK_TEST_SAMPLES names sample_dumps.
import { execSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { launch, openReady } from './browser.mjs';
import { assert, eq, finish, test } from './tap.mjs';

const [, , TKVIEW_ARG, , PW] = process.argv;
const TKVIEW = path.resolve(TKVIEW_ARG);
const RAW = path.join(process.env.TK_TEST_SAMPLES, 'raw', 'diag_remarks.tar.xz');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tkview-diag-'));
execSync(`tar -xJf '${RAW}' -C '${tmp}' --exclude diag_remarks/mlir_passes.txt --exclude diag_remarks/stderr.txt`);
execSync(`tar -xJOf '${RAW}' diag_remarks/stderr.txt | head -c 200000 > '${path.join(tmp, 'diag_remarks', 'stderr.txt')}'`,
  { shell: '/bin/bash' });
const out = path.join(tmp, 'report');
const p = spawnSync(TKVIEW, ['--html', out, path.join(tmp, 'diag_remarks'), '--quiet'], { encoding: 'utf8' });
if (p.status !== 0) throw new Error('tkview --html: ' + p.stderr);
const pageOf = (name) => fs.readdirSync(out).find((f) => f.endsWith('-' + name + '.html'));

const browser = await launch(PW);

await test('remark: a mark on its source and TTGIR lines, and in the list', async () => {
  const page = await openReady(browser, pathToFileURL(path.join(out, pageOf('small_dot_kernel'))).href);
  const items = await page.$$eval('#diag li', (l) => l.map((e) => [e.className, e.textContent]));
  eq(items.length, 1, 'one message');
  eq(items[0][0], 'dg-remark');
  assert(items[0][1].includes('diag_remarks.py:28:18 [ttgir:46]'), items[0][1]);
  assert(items[0][1].includes('pass: TritonGPUAccelerateMatmul'), items[0][1]);
  assert(items[0][1].includes('Try: Use BLOCK_M >= 64'), items[0][1]);
  await page.click('#diag li');
  await page.waitForSelector('#src-pane .ln[data-n="28"].dg-remark');
  const title = await page.$eval('#src-pane .ln[data-n="28"] .no', (e) => e.title);
  assert(title.startsWith('remark (mlir): MMA version 3 acceleration not applied'), title);
  await page.waitForSelector('#ir-pane .ln[data-n="46"].dg-remark');
  eq(await page.$$eval('#src-pane .ln.dg', (l) => l.length), 1, 'one source line marked');
  eq(page.problems, [], 'no script error');
  await page.close();
});

await test('a message\'s pass: its link opens pass mode at that pass', async () => {
  const WS = path.join(process.env.TK_TEST_SAMPLES, 'raw', 'diag_ws_store.tar.xz');
  execSync(`tar -xJf '${WS}' -C '${tmp}'`);
  const wsOut = path.join(tmp, 'report-ws');
  const r = spawnSync(TKVIEW, ['--html', wsOut, path.join(tmp, 'diag_ws_store'), '--quiet'], { encoding: 'utf8' });
  eq(r.status, 0, 'tkview --html: ' + r.stderr);
  const file = fs.readdirSync(wsOut).find((f) => f.endsWith('-persistent_matmul_kernel.html'));
  const page = await openReady(browser, pathToFileURL(path.join(wsOut, file)).href);
  const links = await page.$$eval('#diag a.dg-pass', (l) => l.map((e) => [e.textContent, e.getAttribute('href')]));
  assert(links.length >= 2, JSON.stringify(links));
  for (const l of links) eq(l, ['open pass 30', '#pass=30']);
  await page.click('#diag a.dg-pass');
  await page.waitForFunction(() => (document.querySelector('#pass-bar strong') || {}).textContent?.startsWith('30: NVGPUWarpSpecialization'));
  assert(!(await page.$eval('#pass-view', (v) => v.hidden)), 'pass mode');
  eq(page.problems, [], 'no script error');
  await page.close();
});

await test('spill: listed, no line marked', async () => {
  const page = await openReady(browser, pathToFileURL(path.join(out, pageOf('spill_rows_kernel'))).href);
  const items = await page.$$eval('#diag li', (l) => l.map((e) => e.textContent));
  eq(items.length, 1);
  assert(items[0].includes('2280 bytes spill stores, 3120 bytes spill loads'), items[0]);
  assert(items[0].includes('no source line'), items[0]);
  eq(await page.$$eval('.ln.dg', (l) => l.length), 0, 'no line marked');
  eq(page.problems, [], 'no script error');
  await page.close();
});

// The first view's data come with the page (page_kernel.c): small_dot_kernel
// has SASS (small_dot_kernel.sass in the capture: cost.js), one message
// (diag.js), opens on TTGIR (the remark above is on its line 46) and is
// written in diag_remarks.py.  The page lists them as scripts of its own,
// so they load beside the report's script, and data.js asks for none of
// them again: each is asked for once, by the page.
await test('the first view\'s data: listed in the page, each asked for once', async () => {
  const name = pageOf('small_dot_kernel');
  const html = fs.readFileSync(path.join(out, name), 'utf8');
  const kid = html.match(/data-kernel="(k\d+)"/)[1];
  const files = fs.readFileSync(path.join(out, 'data', 'files.js'), 'utf8');
  const table = JSON.parse(files.slice(files.indexOf(',') + 1, files.lastIndexOf(')')));
  const src = table.find((f) => f[0].endsWith('/diag_remarks.py'));
  assert(src && src[1], 'diag_remarks.py has a source file: ' + JSON.stringify(table));
  const want = [`data/${kid}/cost.js`, `data/${kid}/diag.js`, `data/${kid}/ttgir.text.js`,
    `data/${kid}/ttgir.bind.js`, `data/src/${src[1]}.js`];
  const listed = [...html.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]);
  for (const w of want) assert(listed.includes(w), w + ' listed in the page: ' + listed.join(' '));
  const page = await browser.newPage({ viewport: { width: 1500, height: 850 } });
  const asked = [];
  page.on('request', (r) => asked.push(r.url()));
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(pathToFileURL(path.join(out, name)).href);
  await page.waitForSelector('body[data-ready="1"]', { timeout: 20000 });
  for (const w of want) {
    eq(asked.filter((u) => u.endsWith('/' + w)).length, 1, w + ' asked for once');
    eq(await page.$$eval(`script[src="${w}"]`, (l) => l.length), 1, w + ': no script added for it');
  }
  /* what they hold is shown: TTGIR and the source in the panes */
  await page.waitForSelector('#ir-pane .ln[data-n="1"]');
  await page.waitForSelector('#src-pane .ln[data-n="1"]');
  eq(errors, [], 'no script error');
  await page.close();
});

await browser.close();
fs.rmSync(tmp, { recursive: true, force: true });
finish();
