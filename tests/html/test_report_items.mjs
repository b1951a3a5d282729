// test_report_items.mjs - the report's small items of issue 14 in Debian's
// Chromium: the index names the compiler and the command and fits a
// 1600 px window; the info panel counts every stage, opened or not; the
// #shared tooltip and the layout picture say something true and labelled.
// Prints TAP.
//
// Expected values were read off the dump text by hand (grep -n); the
// comments quote them.  Usage: node test_report_items.mjs TKVIEW BUILD_DIR
//   PLAYWRIGHT_INDEX; TK_TEST_DUMPS names the unpacked shared captures.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { clickLine, kernelUrl, launch, openReady } from './browser.mjs';
import { assert, eq, finish, report as tapReport, tempDir, test } from './tap.mjs';

const [, , TKVIEW_ARG, BUILD, PW] = process.argv;
const TKVIEW = path.resolve(TKVIEW_ARG);
const DUMPS = process.env.TK_TEST_DUMPS;
const ART = path.join(BUILD, 'artefacts');
fs.mkdirSync(ART, { recursive: true });

tempDir('tkview-items-');
const report = (input, name) => tapReport(TKVIEW, input, name);

const browser = await launch(PW);
const about = (page) => page.$$eval('dl.about dt', (dts) => Object.fromEntries(dts.map((dt) => [dt.textContent, dt.nextElementSibling.textContent])));

const VA = report(path.join(DUMPS, 'vector_add'), 'va');
const CB = report(path.join(DUMPS, 'compiled_block'), 'cb');
const PTM = report(path.join(DUMPS, 'persistent_tma_matmul'), 'ptm');

await test('index names the compiler and the command (a capture folder, not a bundle)', async () => {
  const page = await openReady(browser, pathToFileURL(path.join(VA, 'index.html')).href);
  const a = await about(page);
  // cache/7L3B.../add_kernel.json: "triton_version": ... "3.6.0", "target": {"backend": "cuda", "arch": 90, ...}
  eq(a.compiler, 'Triton 3.6.0 for cuda:90', 'compiler from the kernels\' metadata');
  assert(a.command.startsWith('not recorded'), a.command);
  eq(page.problems, [], 'problems');
  await page.close();
  // a bundle made by tkview capture names its command in its manifest
  const samples = process.env.TK_TEST_SAMPLES;
  if (samples) {
    const man = JSON.parse(fs.readFileSync(path.join(samples, 'attention_fwd', 'manifest.json'), 'utf8'));
    const out = report(path.join(samples, 'attention_fwd'), 'attn');
    const p2 = await openReady(browser, pathToFileURL(path.join(out, 'index.html')).href);
    const b = await about(p2);
    eq(b.compiler.toLowerCase().startsWith(man.compiler.name.toLowerCase()), true, 'manifest compiler: ' + b.compiler);
    if (man.command) assert(b.command.includes(man.command[man.command.length - 1]), b.command);
    await p2.close();
  }
});

await test('the compiled_block index fits a 1600 px window', async () => {
  const page = await openReady(browser, pathToFileURL(path.join(CB, 'index.html')).href, { width: 1600, height: 1000 });
  const [sw, cw] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
  assert(sw <= cw, 'page ' + sw + ' px wide in a ' + cw + ' px window');
  // the longest kernel name (triton_poi_fused__unsafe_view_add_clone_select_squeeze_transpose_unsqueeze_view_2) wraps
  await page.screenshot({ path: path.join(ART, 'index-compiled_block-1600.png'), fullPage: true });
  eq(page.problems, [], 'problems');
  await page.close();
});

await test('the info panel counts stages not opened yet', async () => {
  const page = await openReady(browser, kernelUrl(VA));
  await clickLine(page, 'src-pane', 16);
  // vector_add.py:16 in TTIR: add_kernel.ttir 27 tt.reshape, 28 tt.reduce,
  // 30 arith.addf, 31 tt.reduce.return (loc(#loc35), #loc37: standard.py
  // inlined at vector_add.py:16); 29 (^bb0, its only exact line) and 32
  // (`})`) are no instructions: 0 exact, 4 with callees (as tkview refs).
  // LLVM IR, PTX and SASS carry only inlined frames of it (exact 0).
  await page.waitForFunction(() => ![...document.querySelectorAll('table.counts td')].some((td) => td.textContent === '\u2026'));
  const rows = await page.$$eval('table.counts tr', (trs) => trs.map((tr) => [tr.children[0].textContent, tr.children[1].textContent]));
  assert(rows.length >= 5, JSON.stringify(rows));
  assert(!rows.some((r) => /not loaded/.test(r[1])), JSON.stringify(rows));
  eq(rows.find((r) => r[0] === 'TTIR'), ['TTIR', '0 exact, 4 with callees'], 'TTIR, never opened');
  assert(/^0 exact, \d+ with callees$/.test(rows.find((r) => r[0] === 'LLVM IR')[1]), JSON.stringify(rows));
  // the counts need a stage's bindings, not its text: TTIR, never shown,
  // has its bindings in and its text not loaded
  const k = await page.evaluate(() => { const K = TK.use('kernel').inspect(); return ['ttir' in K.bind, 'ttir' in K.text]; });
  eq(k, [true, false], 'TTIR bindings in, its text not loaded');
  eq(page.problems, [], 'problems');
  await page.close();
});

await test('#shared says what nvmma_shared is, no "order []"', async () => {
  const page = await openReady(browser, kernelUrl(PTM, '#stage=ttgir'));
  // matmul_tma_persistent.ttgir:4 "#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128,
  // transposed = false, elementBitWidth = 16}>"; 35 "... !tt.tensordesc<tensor<128x64xf16, #shared>>"
  await page.evaluate(() => (document.querySelector('#ir-pane .code').scrollTop = 20 * 18));
  await page.waitForSelector('#ir-pane .ln[data-n="35"] .lay');
  await page.hover('#ir-pane .ln[data-n="35"] .lay');
  await page.waitForSelector('#tip:not([hidden])');
  const text = await page.textContent('#tip');
  assert(!text.includes('order []'), text);
  assert(text.includes('nvmma_shared') && text.includes('128-byte swizzle') && text.includes('16-bit elements'), text);
  assert(text.includes('wgmma'), text);
  eq(page.problems, [], 'problems');
  await page.close();
});

await test('the layout picture is labelled: sizes on its axes and a legend', async () => {
  const page = await openReady(browser, kernelUrl(VA));
  // add_kernel.ttgir:28 "%output = arith.addf %x_4, %y_6 : tensor<1024xf32, #blocked> loc(#loc32)"
  // #blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
  await page.waitForSelector('#ir-pane .ln[data-n="28"] .lay');
  await page.hover('#ir-pane .ln[data-n="28"] .lay');
  await page.waitForSelector('#tip:not([hidden])');
  const axes = await page.$$eval('#tip svg.laypic text.axis', (ts) => ts.map((t) => t.textContent));
  assert(axes.includes('1024 elements'), JSON.stringify(axes));
  const legend = await page.textContent('#tip .laylegend');
  assert(legend.includes('tensor 1024') && legend.includes('CTA tile 512 \u00d7 2 repetitions'), legend);
  assert(legend.includes('4 warps of the first tile') && legend.includes('thread 0'), legend);
  const w = await page.$eval('#tip svg.laypic', (s) => s.getBoundingClientRect().width);
  assert(w >= 300, 'picture ' + w + ' px wide');
  await page.screenshot({ path: path.join(ART, 'layout-picture.png') });
  eq(page.problems, [], 'problems');
  await page.close();
});

// Every source line of the largest shared kernel's file clicked in turn,
// LLVM IR beside SASS: each click gets to the next frame without a
// problem.  How long that takes (issue 14's target, p95 <= 50 ms) is
// bench/report_browser.mjs's: a timing asserted in a test fails on a busy
// machine and says nothing on a quiet one (issue 25).  The times are
// printed here, never asserted.
await test('click to next frame with LLVM IR beside SASS: every source line (largest shared kernel)', async () => {
  const page = await openReady(browser, kernelUrl(PTM, '#stage=llir'));
  await page.selectOption('#stage2', 'sass');
  await page.waitForFunction(() => document.body.classList.contains('two'));
  const lines = await page.evaluate(() => {
    const k = window.TK.use('kernel'), f = window.TK.use('panes').inspect().file;
    return k.bind('llir').src.filter((r) => r[0] === f).map((r) => r[1]);
  });
  assert(lines.length >= 20, 'lines ' + lines.length);
  // each click timed in the page from the event to the frame after it (a
  // requestAnimationFrame, then a task: after style, layout and paint),
  // kept per line clicked
  await page.evaluate(() => {
    window.tkFrames = {};
    document.querySelector('#src-pane .code').addEventListener('click', (ev) => {
      const t0 = performance.now(), n = ev.target.closest('.ln').dataset.n;
      requestAnimationFrame(() => {
        const ch = new MessageChannel();
        ch.port1.onmessage = () => (window.tkFrames[n] = window.tkFrames[n] || []).push(performance.now() - t0);
        ch.port2.postMessage(0);
      });
    }, true);
  });
  const ROUNDS = 2;
  for (let round = 0; round < ROUNDS; round++) for (const n of lines) await clickLine(page, 'src-pane', n);
  await page.waitForFunction((n) => Object.values(window.tkFrames).reduce((a, v) => a + v.length, 0) >= n, ROUNDS * lines.length);
  const by = await page.evaluate(() => window.tkFrames);
  const q = (a, p) => a[Math.floor(p * (a.length - 1))];
  const sorted = (a) => a.slice().sort((x, y) => x - y);
  const all = sorted(Object.values(by).flat());
  const med = sorted(Object.values(by).map((v) => sorted(v)[v.length >> 1]));
  const h = sorted(await page.evaluate(() => window.TK.use('panes').inspect().clicks));
  console.log('# of which the click handler: median ' + q(h, 0.5).toFixed(1) + ' ms, p95 ' + q(h, 0.95).toFixed(1) +
    ' ms, worst ' + h.at(-1).toFixed(1) + ' ms');
  console.log('# click -> next frame, LLVM IR beside SASS, ' + all.length + ' clicks (' + lines.length + ' lines x ' + ROUNDS +
    '): every sample: median ' + q(all, 0.5).toFixed(1) + ' ms, p95 ' + q(all, 0.95).toFixed(1) + ' ms, worst ' +
    all.at(-1).toFixed(1) + ' ms; each click\'s median of ' + ROUNDS + ': median ' + q(med, 0.5).toFixed(1) + ' ms, p95 ' +
    q(med, 0.95).toFixed(1) + ' ms, worst ' + med.at(-1).toFixed(1) + ' ms; each click\'s least: worst ' +
    Math.max(...Object.values(by).map((v) => Math.min(...v))).toFixed(1) + ' ms (machine shared)');
  // every click came to a frame: ROUNDS of each line
  eq(Object.keys(by).map(Number).sort((a, b) => a - b), [...new Set(lines)].sort((a, b) => a - b), 'lines clicked');
  eq(all.length, ROUNDS * lines.length, 'frames, one for each click');
  eq(page.problems, [], 'problems');
  await page.close();
});

await browser.close();
finish();
