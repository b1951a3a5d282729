// test_find.mjs - the kernel page's find bar (find.js) and its links
// (links.js) in Debian's Chromium, pages opened cold from file:// with a
// fragment.  Prints TAP.
//
// Expected lines were read off the dump text by hand (grep -n); the comments
// quote them.  Usage: node test_find.mjs TKVIEW BUILD_DIR PLAYWRIGHT_INDEX
//   TK_TEST_DUMPS names the unpacked shared captures.
import fs from 'node:fs';
import path from 'node:path';
import { clickLine, kernelUrl, launch, openReady } from './browser.mjs';
import { assert, eq, finish, report as tapReport, tempDir, test } from './tap.mjs';

const [, , TKVIEW_ARG, BUILD, PW] = process.argv;
const TKVIEW = path.resolve(TKVIEW_ARG);
const DUMPS = process.env.TK_TEST_DUMPS;
const ART = path.join(BUILD, 'artefacts');
fs.mkdirSync(ART, { recursive: true });

const range = (a, b) => Array.from({ length: b - a + 1 }, (_, i) => a + i);

tempDir('tkview-find-');
const report = (input, name) => tapReport(TKVIEW, input, name);

const browser = await launch(PW);
const F = (page) => page.evaluate(() => {
  const f = window.TK.use('find').inspect();
  return { hits: f.hits, idx: f.idx, pane: f.pane, error: f.error, counts: f.counts, ms: f.ms };
});
/* the rendered rows of the IR pane the find bar marked, and its current one */
const foundRows = (page, pane = 'ir-pane') => page.$$eval(`#${pane} .ln.found`, (e) => e.map((x) => +x.dataset.n));
const curRow = (page) => page.$$eval('#ir-pane .ln.found-cur', (e) => e.map((x) => +x.dataset.n));
/* how far line N's row is from the middle of the IR pane, in rows */
const offCentre = (page, n) => page.evaluate((n) => {
  const code = document.querySelector('#ir-pane .code');
  const row = document.querySelector(`#ir-pane .ln[data-n="${n}"]`);
  const c = code.getBoundingClientRect(), r = row.getBoundingClientRect();
  return Math.abs((r.top + r.height / 2) - (c.top + code.clientHeight / 2)) / r.height;
}, n);

const PTM = report(path.join(DUMPS, 'persistent_tma_matmul'), 'ptm');
const VA = report(path.join(DUMPS, 'vector_add'), 'va');
// matmul_tma_persistent.llir (cache/ED2F...), grep -n wgmma.mma_async:
//   511 "%372 = tail call { float, ... } asm sideeffect "wgmma.mma_async.sync.aligned.m64n128k16..."
//   and 578, 645, 712, 778, 844, 910, 976 (one per k16 step of the 64-deep tile, twice)
const WGMMA = [511, 578, 645, 712, 778, 844, 910, 976];

await test('#stage=llir&find=wgmma.mma_async opened cold finds every such line', async () => {
  const page = await openReady(browser, kernelUrl(PTM, '#stage=llir&find=wgmma.mma_async'));
  eq(await page.evaluate(() => window.TK.use('panes').inspect().stage), 'llir', 'stage shown');
  const f = await F(page);
  eq(f.hits, WGMMA, 'lines found (the data, not the 70 rows drawn)');
  eq(await page.textContent('#find-count'), '1 of 8', 'k of n');
  eq(await page.inputValue('#find-text'), 'wgmma.mma_async', 'the bar holds the text');
  eq(await curRow(page), [511], 'current hit');
  assert((await offCentre(page, 511)) < 1.01, 'first hit in the middle of the pane');
  // The text found is in view sideways: the asm string starts at column ~250.
  const seen = await page.evaluate(() => {
    const code = document.querySelector('#ir-pane .code');
    return code.scrollLeft > 0;
  });
  assert(seen, 'scrolled sideways to the text found');
  // matmul_tma_persistent.ptx: 8 lines "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16"
  // (877, 882, ...); the SASS says HGMMA, the TTGIR ttng.warp_group_dot.
  await page.waitForFunction(() => document.querySelectorAll('#find-where button').length > 0);
  const counts = await page.$$eval('#find-where button', (bs) => bs.map((b) => [b.dataset.scope, b.textContent]));
  eq(counts.find((c) => c[0] === 'ptx'), ['ptx', 'PTX 8'], 'PTX count');
  eq(counts.find((c) => c[0] === 'ttgir'), ['ttgir', 'TTGIR 0'], 'TTGIR count');
  await page.screenshot({ path: path.join(ART, 'find-wgmma-llir.png') });
  eq(page.problems, [], 'problems');
  await page.close();
});

await test('Enter / Shift+Enter step and centre; a count clicked searches its stage', async () => {
  const page = await openReady(browser, kernelUrl(PTM, '#stage=llir&find=wgmma.mma_async'));
  await page.focus('#find-text');
  await page.keyboard.press('Enter');
  eq(await page.textContent('#find-count'), '2 of 8', 'Enter');
  eq(await curRow(page), [578], 'current hit moved');
  assert((await offCentre(page, 578)) < 1.01, 'centred');
  await page.keyboard.press('Shift+Enter');
  await page.keyboard.press('Shift+Enter');
  eq(await page.textContent('#find-count'), '8 of 8', 'Shift+Enter wraps');
  eq(await curRow(page), [976], 'last hit');
  // the fragment follows (a small move: replaceState)
  assert(page.url().endsWith('#stage=llir&find=wgmma.mma_async'), page.url());
  await page.waitForSelector('#find-where button[data-scope="ptx"]');
  await page.click('#find-where button[data-scope="ptx"]');
  await page.waitForSelector('body[data-stage="ptx"]');
  await page.waitForFunction(() => document.getElementById('find-count').textContent === '1 of 8');
  eq((await F(page)).hits[0], 877, 'first PTX hit (matmul_tma_persistent.ptx:877)');
  // the fragment is written after the stage's first frame: wait for it (a
  // loaded machine saw the count before the URL)
  await page.waitForFunction(() => location.hash === '#stage=ptx&find=wgmma.mma_async',
                             null, { timeout: 60000 }).catch(() => {});
  assert(page.url().endsWith('#stage=ptx&find=wgmma.mma_async'), page.url());
  await page.keyboard.press('Escape');
  eq(await foundRows(page), [], 'Escape clears the marks');
  assert(await page.$eval('#findbar', (b) => b.hidden), 'bar hidden');
  eq(page.problems, [], 'problems');
  await page.close();
});

await test('Ctrl+F and / open the bar; regex, case and a bad expression', async () => {
  const page = await openReady(browser, kernelUrl(PTM, '#stage=llir'));
  await page.click('#ir-pane .ln[data-n="3"] .tx', { position: { x: 2, y: 5 } });
  await page.keyboard.press('Control+f');
  assert(await page.$eval('#findbar', (b) => !b.hidden), 'Ctrl+F opens the bar');
  await page.keyboard.press('Escape');
  await page.click('#ir-pane .ln[data-n="3"] .tx', { position: { x: 2, y: 5 } });
  await page.keyboard.press('/');
  assert(await page.$eval('#findbar', (b) => !b.hidden), '/ opens the bar');
  // matmul_tma_persistent.llir: 508 "tail call void @llvm.nvvm.wgmma.fence.sync.aligned()",
  // 1041 "... @llvm.nvvm.wgmma.commit_group.sync.aligned()", their declarations 1931, 1934
  await page.click('#find-regex');
  await page.fill('#find-text', 'wgmma\\.(fence|commit_group)');
  eq((await F(page)).hits, [508, 1041, 1931, 1934], 'regex');
  await page.fill('#find-text', 'WGMMA.FENCE');
  eq((await F(page)).hits, [508, 1931], 'case folded by default');
  await page.click('#find-case');
  eq((await F(page)).hits, [], 'match case');
  eq(await page.textContent('#find-count'), 'no match', 'says so');
  await page.fill('#find-text', 'wgmma(');
  assert((await F(page)).error, 'a bad expression is reported');
  eq(await page.textContent('#find-count'), 'bad expression', 'count');
  eq(page.problems, [], 'problems');
  await page.close();
});

await test('a hit on a location line folded away shows the locations', async () => {
  const page = await openReady(browser, kernelUrl(VA, '#stage=ttgir&find=%23loc35%20%3D'));
  // add_kernel.ttgir:70 "#loc35 = loc(callsite(#loc12 at #loc33))": folded
  // away while the locations are hidden (the page opens so)
  eq((await F(page)).hits, [70], 'found');
  assert(!(await page.evaluate(() => document.body.classList.contains('hideloc'))), 'locations shown');
  eq(await curRow(page), [70], 'the row is drawn and current');
  eq(page.problems, [], 'problems');
  await page.close();
});

// Its speed is bench/report_browser.mjs's (issue 25: no timing in a test);
// the times are printed here, never asserted.
await test('find over a 6000-line stage finds every copy, plain and regex', async () => {
  const page = await openReady(browser, kernelUrl(PTM, '#stage=llir&find=wgmma.mma_async'));
  // The shared captures' largest LLVM IR has 2000 lines: three copies of it
  // make the 6000 lines of the budget (issue 14: a 6004-line LLVM IR).
  const t = await page.evaluate(() => {
    const find = window.TK.use('find');
    const text = window.TK.use('kernel').text('llir');
    const big = [...text, ...text, ...text];
    const times = [];
    let n = 0;
    for (let k = 0; k < 7; k++) {
      const t0 = performance.now();
      n = find.search(big, 'wgmma.mma_async', {}).hits.length;
      const t1 = performance.now();
      find.search(big, 'wgmma\\.(fence|mma_async)', { regex: true });
      times.push([t1 - t0, performance.now() - t1]);
    }
    return { lines: big.length, n, times };
  });
  eq(t.lines, 6000, 'lines');
  eq(t.n, 24, 'three copies of the 8 lines');
  console.log('# find over 6000 lines: ' + t.times.map((x) => x.map((v) => v.toFixed(1)).join('/')).join(' ') + ' ms (plain/regex; machine shared)');
  eq(page.problems, [], 'problems');
  await page.close();
});

// vector_add.py:16 `s = tl.sum(output)`; add_kernel.ttgir 29-34 carry it
// (test_report.mjs reads the lines: 29 tt.reshape ... loc(#loc35) ... 34 }) :
// (tensor<1024xf32, #blocked1>) -> f32 loc(#loc35)); 31 (^bb0) and 34 (`})`)
// are no instructions: "k of n" counts 29, 30, 32, 33.
await test('#source=FILE:LINE opened cold selects the line and shows "1 of N"', async () => {
  const page = await openReady(browser, kernelUrl(VA, '#source=vector_add.py:16'));
  eq(await page.$$eval('#src-pane .ln.sel', (e) => e.map((x) => +x.dataset.n)), [16], 'source line selected');
  eq(await page.$$eval('#ir-pane .ln.hl', (e) => e.map((x) => +x.dataset.n)), range(29, 34), 'its TTGIR');
  eq(await page.textContent('#hit-count'), '1 of 4', 'k of n');
  // n moves the current mark even with every hit on screen, and the hit
  // comes to the middle
  await page.keyboard.press('n');
  eq(await page.$$eval('#ir-pane .ln.cur', (e) => e.map((x) => +x.dataset.n)), [30], 'n moved the mark');
  eq(await page.textContent('#hit-count'), '2 of 4', 'k of n after n');
  // the whole path works too, with a stage and "this line only"
  const abs = await page.evaluate(() => window.TK.use('kernel').path(window.TK.use('panes').inspect().file));
  await page.goto(kernelUrl(VA, '#stage=ttir&source=' + abs + ':16&exact=1'));
  await page.waitForSelector('body[data-ready="1"]');
  await page.waitForFunction(() => window.TK.use('panes').inspect().stage === 'ttir');
  // add_kernel.ttir:29 "^bb0(%s_10: f32 loc(callsite(#loc1 at #loc33)), ..."
  // is the one line whose innermost frame is vector_add.py:16 (#loc1 =
  // loc(unknown) at line 2; #loc33 = loc("s"(#loc13)), #loc13 =
  // vector_add.py:16:15); a block header, no instruction: marked, not counted.
  eq(await page.evaluate(() => window.TK.use('panes').inspect().mode), 'exact', 'this line only');
  eq(await page.$$eval('#ir-pane .ln.hl', (e) => e.map((x) => +x.dataset.n)), [29], 'TTIR 29');
  eq(page.problems, [], 'problems');
  await page.close();
});

await test('#stage=S&line=N, #pass=N, #pass=N&to=M opened cold; bad links say so', async () => {
  // add_kernel.ttgir:30 `%s_7 = "tt.reduce"(%s) <{axis = 0 : i32}> ({`
  let page = await openReady(browser, kernelUrl(VA, '#stage=ttgir&line=30'));
  eq(await page.$$eval('#ir-pane .ln.sel', (e) => e.map((x) => +x.dataset.n)), [30], 'IR line selected');
  eq(await page.textContent('#info-main h2'), 'TTGIR line 30', 'its panel');
  await page.close();
  // tkview passes: 62 ConvertTritonGPUToLLVM (mlir_passes.txt:4756);
  // 14 TritonGPUCoalesce ... 17 TritonGPURemoveLayoutConversions, one MLIR chain
  page = await openReady(browser, kernelUrl(VA, '#pass=62'));
  await page.waitForFunction(() => (document.querySelector('#pass-bar strong') || {}).textContent?.startsWith('62: ConvertTritonGPUToLLVM'));
  assert(!(await page.$eval('#pass-view', (v) => v.hidden)), 'pass mode');
  await page.close();
  page = await openReady(browser, kernelUrl(VA, '#pass=14&to=17'));
  await page.waitForFunction(() => (document.querySelector('#pass-bar strong') || {}).textContent?.startsWith('passes 14\u201317'));
  eq(await page.evaluate(() => window.TK.use('passes').inspect().range), [14, 17], 'range');
  await page.close();
  page = await openReady(browser, kernelUrl(VA, '#stage=nope&line=3'));
  assert((await page.textContent('#link-note')).includes('no stage nope'), 'bad stage');
  await page.close();
  page = await openReady(browser, kernelUrl(VA, '#source=nothere.py:3'));
  assert((await page.textContent('#link-note')).includes('no file nothere.py'), 'bad file');
  eq(page.problems, [], 'problems');
  await page.close();
  // FILE is matched by the library's rule (tk_file_query.h, as `tkview bind
  // --source`): a tail at a '/' names /tmp/capture/vector_add/src/vector_add.py
  // with its '/' too; "add.py" is no tail at a '/' boundary.
  page = await openReady(browser, kernelUrl(VA, '#source=/src/vector_add.py:16'));
  eq(await page.$$eval('#src-pane .ln.sel', (e) => e.map((x) => +x.dataset.n)), [16], 'a tail with its /');
  await page.close();
  page = await openReady(browser, kernelUrl(VA, '#source=add.py:16'));
  assert((await page.textContent('#link-note')).includes('no file add.py'), 'no tail at a /');
  eq(page.problems, [], 'problems');
  await page.close();
});

// The one rule the page decides itself: naming a pass (links.js passRef, the
// library's tk_passref.h grammar), checked against the table the library's
// unit test reads, with the same expected values.
await test('#pass= names a pass by the library\'s grammar: the shared table', async () => {
  const table = JSON.parse(fs.readFileSync(path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'passref_cases.json'), 'utf8'));
  eq(table.dump, 'vector_add', 'the table is of vector_add');
  const page = await openReady(browser, kernelUrl(VA, '#pass=0'));
  await page.waitForFunction(() => window.TK.use('passes').shown().count > 0);
  const got = await page.evaluate((cases) => {
    const links = window.TK.use('links'), passes = window.TK.use('passes');
    const ps = passes.list();
    return cases.map((c) => links.passRef(c.spec, c.to === undefined ? undefined : c.to, ps, (i) => passes.subs(i)));
  }, table.cases);
  assert(table.cases.length >= 30, 'cases');
  table.cases.forEach((c, k) => {
    const what = JSON.stringify(c.spec) + (c.to !== undefined ? ' to ' + JSON.stringify(c.to) : '');
    if (c.error) eq(got[k].error, c.error, what);
    else eq([got[k].from, got[k].sub, got[k].to], [c.want.from, c.want.sub === null ? -1 : c.want.sub, c.want.to], what);
  });
  // each form opens what it names; a range is written back in the grammar's form
  await page.goto(kernelUrl(VA, '#pass=tritongpu-coalesce'));
  await page.waitForSelector('body[data-ready="1"]');
  await page.waitForFunction(() => (document.querySelector('#pass-bar strong') || {}).textContent?.startsWith('14: TritonGPUCoalesce'));
  await page.goto(kernelUrl(VA, '#pass=14-17'));
  await page.waitForSelector('body[data-ready="1"]');
  await page.waitForFunction(() => (document.querySelector('#pass-bar strong') || {}).textContent?.startsWith('passes 14\u201317'));
  await page.waitForFunction(() => location.hash === '#pass=14-17');
  eq(page.problems, [], 'problems');
  await page.close();
});

await test('the fragment follows clicks: replaceState for lines, pushState for stages', async () => {
  const page = await openReady(browser, kernelUrl(VA));
  const len0 = await page.evaluate(() => history.length);
  // the fragment is written once the page is idle after the click (links.js)
  const hashIs = (h) => page.waitForFunction((h) => location.hash === h, h, { timeout: 5000 });
  await clickLine(page, 'src-pane', 16);
  await hashIs('#stage=ttgir&source=vector_add.py:16');
  await clickLine(page, 'src-pane', 17);
  await hashIs('#stage=ttgir&source=vector_add.py:17');
  eq(await page.evaluate(() => history.length), len0, 'a line selected adds no history entry');
  await page.click('#ir-pane button.tab[data-stage="ttir"]');
  await page.waitForSelector('body[data-stage="ttir"]');
  await hashIs('#stage=ttir&source=vector_add.py:17');
  eq(await page.evaluate(() => history.length), len0 + 1, 'another stage is a new history entry');
  // add_kernel.ttir:20 "%x = tt.splat %x_ptr : !tt.ptr<f32> -> ..."
  await clickLine(page, 'ir-pane', 20);
  await hashIs('#stage=ttir&line=20');
  await page.goBack();
  await page.waitForSelector('body[data-stage="ttgir"]');
  eq(await page.$$eval('#src-pane .ln.sel', (e) => e.map((x) => +x.dataset.n)), [17], 'Back: the line before');
  // the copy link button: the address with its fragment
  await page.click('#copy-link');
  const copied = await page.$eval('#copy-link', (b) => b.dataset.url);
  eq(copied, page.url(), 'copy link copies the address shown');
  await page.click('#mode-passes');
  await page.waitForFunction(() => /#pass=\d+$/.test(location.hash));
  eq(page.problems, [], 'problems');
  await page.close();
});

await browser.close();
finish();
