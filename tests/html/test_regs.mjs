// test_regs.mjs - the register pressure strip along the SASS and the
// peak's source line, in Chromium, on the raw capture
// sample_dumps/raw/diag_remarks (its kernel_dump, cache and src folders
// unpacked here).  Prints TAP.
//
// Read by hand from spill_rows_kernel.sass_lr (`nvdisasm
// --print-life-ranges --life-range-mode count`, GPR is the first cell):
//   /*0000*/ LDC R1, c[0x0][0x28] ;            // |   1   |
//   /*11d0*/ IMAD R15, R28, UR4, R10.reuse ;   // |  53   |        |   3    |
//   /*6410*/ MUFU.EX2 R59, R54 ;               // |  62   |   6    |   2    |
// 62 is the largest GPR cell of the file (sort -n of the column), first at
// 0x6410; spill_rows_kernel.sass_gi puts 0x6410 under
// `//## File ".../diag_remarks.py", line 39` (e = tl.exp(x - x_max[:, None])).
// ptxas: the cubin's 64 registers (ptxas's "Used 64 registers" in
// stderr.txt).
//
// Usage: node test_regs.mjs TKVIEW BUILD_DIR PLAYWRIGHT_CORE_INDEX
//   TK_TEST_SAMPLES names sample_dumps.
import { execSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { clickLine, launch, openReady } from './browser.mjs';
import { assert, eq, finish, test } from './tap.mjs';

const [, , TKVIEW_ARG, BUILD, PW] = process.argv;
const TKVIEW = path.resolve(TKVIEW_ARG);
const ART = path.join(BUILD, 'artefacts');
const RAW = path.join(process.env.TK_TEST_SAMPLES, 'raw', 'diag_remarks.tar.xz');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tkview-regs-'));
execSync(`tar -xJf '${RAW}' -C '${tmp}' --wildcards '*/kernel_dump/*' '*/cache/*' '*/src/*'`);
const out = path.join(tmp, 'report');
const p = spawnSync(TKVIEW, ['--html', out, path.join(tmp, 'diag_remarks'), '--quiet'], { encoding: 'utf8' });
if (p.status !== 0) throw new Error('tkview --html: ' + p.stderr);
const pageOf = (name) => fs.readdirSync(out).find((f) => f.endsWith('-' + name + '.html'));

const browser = await launch(PW);
const page = await openReady(browser, pathToFileURL(path.join(out, pageOf('spill_rows_kernel'))).href,
  { width: 1500, height: 850 });
const regs = () => page.evaluate(() => {
  const r = TK.use('regs').inspect();
  return { ...r, counts: undefined };
});
/* The SASS line whose instruction is at OFFSET (the text as the page has it). */
const sassLine = (offset) => page.evaluate((off) => {
  const t = TK.use('kernel').text('sass');
  return t.findIndex((l) => l.includes('/*' + off + '*/')) + 1;
}, offset);
const count = (line) => page.evaluate((l) => TK.use('regs').inspect().counts(l), line);

await test('the data carries nvdisasm\'s GPR count of each instruction', async () => {
  const r = await regs();
  eq(r.missing, null, 'life ranges found');
  eq(r.peak, 62, 'the kernel peak, the largest GPR cell');
  eq(r.peakOffset, 0x6410, 'first at 0x6410');
  eq(r.ptxas, 64, 'the cubin\'s count');
  await page.click('#ir-pane .tab[data-stage="sass"]');
  await page.waitForFunction(() => TK.use('regs').inspect().shown);
  for (const [off, gpr] of [['0000', 1], ['11d0', 53], ['6410', 62]]) {
    const l = await sassLine(off);
    assert(l > 0, 'offset ' + off + ' in the SASS');
    eq(await count(l), gpr, 'GPR at ' + off);
  }
  eq(r.peakSass, await sassLine('6410'), 'the peak\'s SASS line');
  // a label line is no instruction: no count
  const label = await page.evaluate(() => TK.use('kernel').text('sass').findIndex((l) => /^\.L_x_\d+:/.test(l.trim())) + 1);
  if (label > 0) eq(await count(label), 0, 'a label has no count');
});

await test('the peak\'s source line is marked', async () => {
  const r = await regs();
  const file = await page.evaluate(() => TK.use('panes').shown().file);
  eq(r.peakSrc, [file, 39], 'diag_remarks.py:39');
  await clickLine(page, 'src-pane', 39);
  await page.waitForSelector('#src-pane .ln[data-n="39"].regpeak');
  const title = await page.$eval('#src-pane .ln[data-n="39"] .no', (e) => e.title);
  assert(title.includes('register peak of the kernel: 62 live registers (GPR)'), title);
  assert(title.includes('offset 0x6410') && title.includes('ptxas allocated 64'), title);
  eq(await page.$$eval('#src-pane .ln.regpeak', (l) => l.length), 1, 'one line marked');
});

await test('the strip: only on SASS, a click shows the column\'s peak instruction', async () => {
  await page.click('#ir-pane .tab[data-stage="sass"]');
  await page.waitForFunction(() => TK.use('regs').inspect().shown);
  const r = await regs();
  assert(r.cols > 100, 'a column per pixel: ' + r.cols);
  const cap = await page.$eval('#regstrip .regcap', (e) => e.textContent);
  assert(cap.startsWith('live registers: peak 62 at SASS line ' + r.peakSass), cap);
  assert(cap.includes('diag_remarks.py:39') && cap.includes('ptxas 64'), cap);
  // the column of the peak: click it, the peak instruction is selected
  const box = await page.$eval('#regstrip canvas', (c) => { const b = c.getBoundingClientRect(); return [b.left, b.top, b.width, b.height]; });
  const n = await page.evaluate(() => TK.use('kernel').text('sass').length);
  // the column of the peak (a column per pixel, lines spread evenly),
  // clicked at the first whole pixel inside it
  const x = Math.floor(((r.peakSass - 1) * r.cols) / n);
  await page.mouse.click(Math.ceil(box[0] + x), box[1] + box[3] - 3);
  await page.waitForFunction((l) => TK.use('regs').inspect().cursor === l, r.peakSass, { timeout: 5000 })
    .catch(async () => { throw new Error('cursor ' + JSON.stringify(await regs()) + ' sel ' + JSON.stringify(await page.evaluate(() => TK.use('panes').shown()))); });
  eq((await page.evaluate(() => TK.use('panes').shown().sel)).line, r.peakSass, 'the peak selected');
  await page.screenshot({ path: path.join(ART, 'regs-strip.png') });
  await page.click('#ir-pane .tab[data-stage="ttgir"]');
  await page.waitForFunction(() => !TK.use('regs').inspect().shown);
  eq(await page.$eval('#regstrip', (e) => e.hidden), true, 'hidden on TTGIR');
  eq(page.problems, [], 'no script error');
});

await browser.close();
fs.rmSync(tmp, { recursive: true, force: true });
finish();
