// test_report.mjs - the HTML report in a real Chromium (Debian's), opened
// from file:// with no server.  Prints TAP.
//
// Expected lines were read off the dump text by hand (see tests/e2e/test_cli.py
// for the same readings); the comments quote the dump lines.
//
// Usage: node test_report.mjs TKVIEW BUILD_DIR PLAYWRIGHT_CORE_INDEX
//   TK_TEST_DUMPS names the unpacked shared captures.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { pathToFileURL } from 'node:url';
import { clickLine, diffRows, launch, open as openPage } from './browser.mjs';
import { assert, counts, eq, finish, test } from './tap.mjs';

const [, , TKVIEW_ARG, BUILD, PW] = process.argv;
const TKVIEW = path.resolve(TKVIEW_ARG);
const DUMPS = process.env.TK_TEST_DUMPS;
const ART = path.join(BUILD, 'artefacts');

const notes = [];
function note(s) {
  notes.push(s);
  console.log('# ' + s);
}
const range = (a, b) => Array.from({ length: b - a + 1 }, (_, i) => a + i);

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tkview-html-'));
function report(input, name, extra = []) {
  const out = path.join(tmp, name);
  const t0 = process.hrtime.bigint();
  const p = spawnSync(TKVIEW, ['--html', out, input, '--quiet', ...extra], { encoding: 'utf8' });
  const secs = Number(process.hrtime.bigint() - t0) / 1e9;
  if (p.status !== 0) throw new Error('tkview --html failed: ' + p.stderr);
  return { out, secs };
}

const browser = await launch(PW);
const open = (url, viewport) => openPage(browser, url, viewport);
async function ready(page) {
  await page.waitForSelector('body[data-ready="1"]', { timeout: 15000 });
}
/* Line numbers of the rendered lines of PANE carrying class CLS. */
async function marked(page, pane, cls = 'hl') {
  return page.$$eval(`#${pane} .ln.${cls}`, (els) => els.map((e) => +e.dataset.n));
}
async function tab(page, stage) {
  await page.click(`#ir-pane button.tab[data-stage="${stage}"]`);
  await page.waitForSelector(`body[data-stage="${stage}"]`);
}

const VA = path.join(DUMPS, 'vector_add');
const va = report(VA, 'vector_add');
const vaUrl = (f) => pathToFileURL(path.join(va.out, f)).href;
const kernelPage = fs.readdirSync(va.out).find((f) => /^k001-.*\.html$/.test(f));

await test('index lists the kernel with its metadata, from file://', async () => {
  const page = await open(vaUrl('index.html'));
  // cache/7L3B.../add_kernel.json: "num_warps": 4, "num_stages": 3, "shared": 16
  const row = await page.$$eval('#kernels tbody tr td', (t) => t.map((x) => x.textContent));
  eq(row.slice(0, 1), ['add_kernel'], 'name');
  eq(row.slice(2, 5), ['4', '3', '16 B'], 'warps, stages, shared');
  // wc -l: add_kernel.ttir 69, add_kernel.ttgir 71
  eq(row.slice(7, 9), ['69', '71'], 'TTIR and TTGIR line counts');
  const csp = await page.$eval('meta[http-equiv="Content-Security-Policy"]', (m) => m.content);
  assert(csp.includes("script-src 'self'") && !csp.includes('unsafe-inline'), csp);
  await page.click('#kernels a');
  await ready(page);
  eq(page.problems, [], 'problems');
  await page.close();
});

await test('vector_add.py:16 highlights TTGIR 29-34, "this line only" 31', async () => {
  const page = await open(vaUrl(kernelPage));
  await ready(page);
  eq(await page.evaluate(() => window.TK.use('panes').inspect().stage), 'ttgir', 'first stage');
  // 16: `s = tl.sum(output)`.  add_kernel.ttgir:
  //   29 %s = tt.reshape ... loc(#loc35)    30 %s_7 = "tt.reduce"(%s) ... ({
  //   31 ^bb0(%s_10: f32 loc(callsite(#loc1 at #loc33)), ...
  //   32 %s_12 = arith.addf ... loc(#loc37)  33 tt.reduce.return ... loc(#loc35)
  //   34 }) : (tensor<1024xf32, #blocked1>) -> f32 loc(#loc35)
  await clickLine(page, 'src-pane', 16);
  eq(await marked(page, 'ir-pane'), range(29, 34), 'TTGIR highlighted');
  // 31 (the block header ^bb0) and 34 (the `})` that closes the reduce)
  // carry locations but are no instructions: marked, dimmed, not counted,
  // and next/previous step over them.
  eq(await page.$$eval('#ir-pane .ln.hl.nc', (e) => e.map((x) => +x.dataset.n)), [31, 34], 'dimmed');
  eq(await page.textContent('#hit-count'), '1 of 4', 'k of n');
  await page.click('#hit-next');
  eq(await page.evaluate(() => window.TK.use('panes').inspect().hitIdx), 1, 'next');
  eq(await page.textContent('#hit-count'), '2 of 4', 'k of n after next');
  await page.click('#hit-next');
  eq(await page.evaluate(() => { const S = window.TK.use('panes').inspect(); return S.hits[S.hitIdx]; }), 32,
    'next steps over 31');
  await page.screenshot({ path: path.join(ART, 'kernel-ttgir.png') });
  // exact: only 31 has vector_add.py:16 as its innermost frame (#loc33 = "s"(#loc13),
  // #loc13 = vector_add.py:16:15); 32 is standard.py:263:15 inside it.
  await page.click('#mode-exact');
  eq(await marked(page, 'ir-pane'), [31], 'exact');
  await page.click('#mode-called');
  eq(await marked(page, 'ir-pane'), range(29, 34), 'called again');
  eq(page.problems, [], 'problems');
  await page.close();
});

await test('PTX: line 16 reaches the tl.sum library code; a PTX line shows its inline stack', async () => {
  const page = await open(vaUrl(kernelPage));
  await ready(page);
  await clickLine(page, 'src-pane', 16);
  await tab(page, 'ptx');
  // add_kernel.ptx: 96 `add.f32 %r47` (under .loc 1 14 17), 97 `$L__tmp1:`,
  // 98 `.loc 2 263 15 // standard.py:263:15 @[ standard.py:293:36 @[ vector_add.py:16:15 ] ]`,
  // 99-105 seven add.f32, 106 `$L__tmp2:`, 107 `.loc 2 293 36`, 108 shfl.
  // The .loc lines (98, 107) only state locations: folded away while the
  // locations are hidden, shown (marked and dimmed) with `l`.
  let hl = await marked(page, 'ir-pane');
  for (const n of [...range(99, 105), 108]) assert(hl.includes(n), 'PTX ' + n + ' highlighted: ' + hl);
  for (const n of [96, 97, 106]) assert(!hl.includes(n), 'PTX ' + n + ' not highlighted');
  eq(await page.$$('#ir-pane .ln[data-n="98"]'), [], '98 folded');
  await page.keyboard.press('l');
  await clickLine(page, 'src-pane', 16);
  hl = await marked(page, 'ir-pane');
  for (const n of [98, 107]) assert(hl.includes(n), 'PTX ' + n + ' highlighted with locations shown: ' + hl);
  assert(await page.$('#ir-pane .ln.nc[data-n="98"]'), '98 dimmed');
  assert(!(await page.$('#ir-pane .ln.nc[data-n="99"]')), '99 not dimmed');
  await page.keyboard.press('l');
  await clickLine(page, 'ir-pane', 99);
  const frames = await page.$$eval('#stack button.frame', (b) => b.map((x) => x.textContent));
  eq(frames, ['standard.py:263:15', 'standard.py:293:36', 'vector_add.py:16:15'], 'inline stack of PTX 99');
  // its source line: vector_add.py:16 is marked in the source pane (an outer frame)
  assert((await marked(page, 'src-pane', 'hl')).includes(16), 'source 16 marked');
  await page.screenshot({ path: path.join(ART, 'kernel-ptx-stack.png') });
  eq(page.problems, [], 'problems');
  await page.close();
});

await test('second pane: TTGIR 32 beside PTX binds to 98-99, not 107-108', async () => {
  const page = await open(vaUrl(kernelPage));
  await ready(page);
  await page.selectOption('#stage2', 'ptx');
  await page.waitForSelector('#ir2-pane:not([hidden]) .ln');
  // TTGIR 32 `%s_12 = arith.addf` (standard.py:263:15 <- 293:36 <- vector_add.py:16:15)
  await clickLine(page, 'ir-pane', 32);
  // 98 is the `.loc` of 99, folded away while locations are hidden
  const hl = await marked(page, 'ir2-pane');
  assert(hl.includes(99), 'PTX 99: ' + hl);
  assert(!hl.includes(107) && !hl.includes(108), 'not PTX 107, 108: ' + hl);
  await page.screenshot({ path: path.join(ART, 'kernel-two-panes.png') });
  eq(page.problems, [], 'problems');
  await page.close();
});

await test('AMD: tabs end at AMDGCN; tl.dot marks its 8 v_mfma; a leaky_relu line keeps its caller', async () => {
  const samples = process.env.TK_TEST_SAMPLES || path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..', 'sample_dumps');
  const amd = report(path.join(samples, 'amd_gfx942'), 'amd_gfx942');
  const url = (f) => pathToFileURL(path.join(amd.out, f)).href;
  let page = await open(url('index.html'));
  const heads = await page.$$eval('#kernels thead th', (t) => t.map((x) => x.textContent));
  eq(heads.filter((h) => ['TTIR', 'TTGIR', 'LLVM IR', 'PTX', 'SASS', 'AMDGCN'].includes(h)),
     ['TTIR', 'TTGIR', 'LLVM IR', 'AMDGCN'], 'stage columns of an AMD bundle');
  await page.close();
  const kpage = fs.readdirSync(amd.out).find((f) => /^k\d+-matmul_kernel\.html$/.test(f));
  page = await open(url(kpage));
  await ready(page);
  eq(await page.$$eval('#ir-pane button.tab', (b) => b.map((x) => x.dataset.stage)),
     ['ttir', 'ttgir', 'llir', 'amdgcn'], 'stage tabs');
  // compile_gfx942.py 58 `acc = tl.dot(a, b, acc)`; matmul_kernel.amdgcn: the 8
  // v_mfma_f32_32x32x8_f16 at 341 355 360 365 589 604 611 612, after
  // `.loc 1 58 27 ; compile_gfx942.py:58:27` (339 353 586 602 607).
  await tab(page, 'amdgcn');
  await clickLine(page, 'src-pane', 58);
  const hits = await page.evaluate(() => window.TK.use('panes').inspect().hits);
  for (const n of [341, 355, 360, 365, 589, 604, 611, 612]) assert(hits.includes(n), 'AMDGCN ' + n + ' bound to line 58: ' + hits);
  // the .loc lines carry the location but are not instructions: never hits
  for (const n of [339, 353, 586, 602, 607]) assert(!hits.includes(n), '.loc ' + n + ' is not a hit');
  assert(!hits.includes(1046), 'AMDGCN 1046 (leaky_relu) is not line 58');
  assert((await marked(page, 'ir-pane')).includes(341), 'AMDGCN 341 highlighted');
  // 1045 `.loc 1 38 39 ; compile_gfx942.py:38:39 @[ compile_gfx942.py:62:30 ]`,
  // 1046 `v_mul_f32_e32 v2, 0x3c23d70a, v4`
  await clickLine(page, 'src-pane', 62);
  await clickLine(page, 'ir-pane', 1046);
  eq(await page.$$eval('#stack button.frame', (b) => b.map((x) => x.textContent)),
     ['compile_gfx942.py:38:39', 'compile_gfx942.py:62:30'], 'inline stack of AMDGCN 1046');
  await page.screenshot({ path: path.join(ART, 'kernel-amdgcn.png') });
  eq(page.problems, [], 'problems');
  await page.close();
});

/* ---- attention_fwd: directives, statements, partial answers ------------- */

const ATTN = path.join(process.env.TK_TEST_SAMPLES, 'attention_fwd');
const attn = report(ATTN, 'attention_fwd');
const attnUrl = pathToFileURL(path.join(attn.out, fs.readdirSync(attn.out).find((f) => /^k001-.*\.html$/.test(f)))).href;
const cliJson = (...args) => JSON.parse(execFileSync(TKVIEW, [...args, '--json', '--quiet'], { encoding: 'utf8' }));
const code = (ls) => ls.filter((l) => l.kind === 'instruction').map((l) => l.line);
/* The lines drawn in PANE, in order. */
async function drawn(page, pane) {
  return page.$$eval(`#${pane} .ln`, (e) => e.map((x) => +x.dataset.n));
}

await test('a stage opens on its first instruction, #loc and //## lines folded behind "locations"', async () => {
  const page = await open(attnUrl);
  await ready(page);
  // attn_fwd.ttgir: 1-2 `#blocked... = #ttg.blocked<...>`, 3-9 `#loc... =
  // loc(...)` definitions, 10-12 more attribute aliases, up to 32 `#loc212
  // = loc(callsite(...))`, 33 `module attributes {...} {`, 34 `tt.func
  // public @attn_fwd(...) {`, 35 `%cst = arith.constant dense<...>` the
  // first op.
  const first = await page.evaluate(() => window.TK.use('kernel').firstCode('ttgir'));
  eq(first, 35, 'first instruction');
  // the rows in view are drawn first and those around them in a later
  // frame (codeview.js fillLater): wait for line 1 above, bounded
  await page.waitForFunction(() => document.querySelector('#ir-pane .ln[data-n="1"]'),
    null, { timeout: 30000 }).catch(() => {});
  let rows = await drawn(page, 'ir-pane');
  const top = await page.evaluate(() => {
    const c = document.querySelector('#ir-pane .code');
    return [...document.querySelectorAll('#ir-pane .ln')].find((r) => r.getBoundingClientRect().top >= c.getBoundingClientRect().top - 1).dataset.n;
  });
  eq(+top, 35, 'the first row in view');
  for (const n of [3, 4, 9, 28, 32]) assert(!rows.includes(n), '#loc line ' + n + ' folded: ' + rows.slice(0, 12));
  assert(rows.includes(1) && rows.includes(10) && rows.includes(33), 'other lines kept: ' + rows.slice(0, 12));
  // SASS: `//## File ...` lines are folded; attn_fwd.sass_gi:123
  // `//## File ".../attention_fwd.py", line 31`, 124 `USHF.L.U32 ...`.
  await tab(page, 'sass');
  await clickLine(page, 'ir-pane', 124);
  rows = await drawn(page, 'ir-pane');
  assert(rows.includes(124) && !rows.includes(123), '123 folded: ' + rows.slice(0, 5));
  await page.keyboard.press('l');
  await clickLine(page, 'ir-pane', 123);
  assert(await page.$('#ir-pane .ln.nc[data-n="123"]'), 'the //## line is shown, dimmed');
  assert(await page.$('#info p.nc-note'), 'it says it is not an instruction');
  await page.keyboard.press('l');
  eq(page.problems, [], 'problems');
  await page.close();
});

await test('attention_fwd.py:71 selects statement 71-73 and binds to the call recorded at 73', async () => {
  const page = await open(attnUrl);
  await ready(page);
  // 0000-attention_fwd.py 71-73: the first _attn_inner(...) call, wrapped;
  // Triton records it at 73 (attn_fwd.ttgir:121 warp_group_dot is
  // attention_fwd.py:31:23 <- attention_fwd.py:73:41).
  await clickLine(page, 'src-pane', 71);
  eq(await marked(page, 'src-pane', 'sel'), [71], 'the line clicked');
  eq(await marked(page, 'src-pane', 'sel-stmt'), [72, 73], 'the rest of its statement');
  assert((await page.textContent('#stmt-lines')).startsWith('statement lines 71-73'), 'says the statement');
  const want = cliJson('bind', ATTN, '--source', 'attention_fwd.py:73', '--stage', 'ttgir').kernels[0].stages.ttgir;
  const S = await page.evaluate(() => window.TK.use('panes').inspect());
  eq(S.hits, code(want), 'the instructions of line 73, as tkview bind says');
  assert(S.hits.includes(121), '121');
  eq(await page.textContent('#hit-count'), '1 of ' + code(want).length, 'k of n counts instructions');
  eq(S.stmt, [71, 73], 'stmt');
  // and from 72 the same
  await clickLine(page, 'src-pane', 72);
  eq(await page.evaluate(() => window.TK.use('panes').inspect().hits), code(want), 'from 72');
  await page.screenshot({ path: path.join(ART, 'kernel-statement.png') });
  eq(page.problems, [], 'problems');
  await page.close();
});

await test('SASS of the helper inlined twice: shared lines are named and shown, navigation skips //##', async () => {
  const page = await open(attnUrl);
  await ready(page);
  await tab(page, 'sass');
  await clickLine(page, 'src-pane', 73);
  // attn_fwd.ptx shows line 31 under both call sites (.loc at 169, 285:
  // `@[ attention_fwd.py:73:41 ]`; 595: `@[ attention_fwd.py:77:41 ]`), so
  // the SASS under `//## ... line 31` (sass_gi:124) is shared.
  const cli = cliJson('bind', ATTN, '--source', 'attention_fwd.py:73', '--stage', 'sass').kernels[0];
  const sharedWant = cli.shared.sass.lines.map((l) => l.line);
  const note = await page.textContent('#shared-note');
  assert(note.startsWith(sharedWant.length + ' SASS lines of this helper\u2019s code are shared by its 2 call sites (attention_fwd.py:73, attention_fwd.py:77)'), note);
  // every hit is an instruction: n never stops on a //## line
  const S = await page.evaluate(() => window.TK.use('panes').inspect());
  eq(S.hits, code(cli.stages.sass), 'hits are the instructions');
  const kinds = await page.evaluate((h) => h.map((l) => window.TK.use('kernel').isCode('sass', l)), S.hits);
  assert(kinds.every((k) => k), 'all code');
  await page.click('#shared-show');
  const sh = await page.evaluate(() => window.TK.use('panes').inspect());
  eq(sh.hits, sharedWant, 'stepping through the shared lines');
  assert(sh.hits.includes(124), '124 shared');
  eq(await page.textContent('#hit-count'), '1 of ' + sharedWant.length + ' shared', 'k of n');
  await page.evaluate(() => { const c = document.querySelector('#ir-pane .code'); c.scrollTop = (c.tkRowOf(124) - 10) * 18; });
  await page.waitForSelector('#ir-pane .ln.shared[data-n="124"]');
  await page.screenshot({ path: path.join(ART, 'kernel-shared.png') });
  eq(page.problems, [], 'problems');
  await page.close();
});

await test('TTGIR beside SASS: matches on the innermost frame only are marked approximate', async () => {
  const page = await open(attnUrl);
  await ready(page);
  await page.selectOption('#stage2', 'sass');
  await page.waitForSelector('#ir2-pane:not([hidden]) .ln');
  // attn_fwd.ttgir:121 %qk_100 = ttng.warp_group_dot ... (31:23 <- 73:41)
  await clickLine(page, 'ir-pane', 121);
  const want = cliJson('bind', ATTN, '--ir', 'ttgir:121', '--stage', 'sass').stages.sass;
  const approx = code(want.filter((l) => l.approximate));
  eq(approx.length, code(want).length, 'all approximate, as tkview says');
  eq(await page.evaluate(() => window.TK.use('panes').inspect().approx), approx, 'approximate lines');
  assert((await page.textContent('#approx-note')).startsWith(approx.length + ' of the SASS instructions marked are approximate'), 'note');
  await page.evaluate(() => { const c = document.querySelector('#ir2-pane .code'); c.scrollTop = (c.tkRowOf(124) - 10) * 18; });
  await page.waitForSelector('#ir2-pane .ln.hl-approx[data-n="124"]');
  eq(page.problems, [], 'problems');
  await page.close();
});

await test('hovering #blocked explains 4 x 32 x 4 = 512 of 1024: 2 repetitions', async () => {
  const page = await open(vaUrl(kernelPage));
  await ready(page);
  // 28: `%output = arith.addf %x_4, %y_6 : tensor<1024xf32, #blocked> loc(#loc32)`
  // #blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
  await page.waitForSelector('#ir-pane .ln[data-n="28"] .lay');
  await page.hover('#ir-pane .ln[data-n="28"] .lay');
  await page.waitForSelector('#tip:not([hidden])');
  const text = await page.textContent('#tip');
  assert(text.includes('4 × 32 × 4 = 512'), text);
  assert(text.includes('1024'), text);
  assert(/2 repetitions/.test(text), text);
  assert(/holds 8 elements/.test(text), text);
  assert((await page.$$('#tip svg.laypic rect.tile')).length === 2, 'two tiles drawn');
  await page.screenshot({ path: path.join(ART, 'layout-hover.png') });
  eq(page.problems, [], 'problems');
  await page.close();
});

await test('pass mode: TritonGPUCoalesce adds #blocked1 and convert_layout ops; source line 12 lists it', async () => {
  const page = await open(vaUrl(kernelPage));
  await ready(page);
  await page.click('#mode-passes');
  await page.waitForSelector('body[data-passes="1"] #pass-list .ps');
  // index: 14 changed passes among the ttir/ttgir ones is not hand-checked;
  // this is: mlir_passes.txt:1178 `IR Dump Before TritonGPUCoalesce`, and the
  // next dump (1251) has the new line 1253
  //   #blocked1 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], ...
  // and `%x_4 = tt.load %x_3, %mask_2` became
  //   `%x_4 = ttg.convert_layout %x_3 : ... -> tensor<1024x!tt.ptr<f32>, #blocked1>`
  const names = await page.$$eval('#pass-list .ps', (r) => r.map((x) => x.querySelector('.nm').textContent));
  assert(names.some((n) => n.startsWith('TritonGPUCoalesce')), 'Coalesce listed');
  const i = await page.evaluate(() => window.TK.use('passes').inspect().data.passes.findIndex((p) => p.pass === 'TritonGPUCoalesce'));
  await page.click(`#pass-list .ps[data-i="${i}"]`);
  // the bar and the rows are drawn together, once the diff is loaded
  await page.waitForFunction((i) => {
    const b = document.querySelector('#pass-bar strong');
    return b && b.textContent.startsWith(i + ': TritonGPUCoalesce') && document.querySelector('#pass-rows .drow');
  }, i);
  const rows = await diffRows(page);
  assert(rows.some((r) => r[0] === 'i' && r[4].startsWith('#blocked1 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32]')), 'added #blocked1');
  assert(rows.some((r) => r[2].includes('%x_4 = tt.load %x_3, %mask_2') && (r[0] === 'd' || r[0] === 'r')), 'removed the old load');
  assert(rows.some((r) => r[4].includes('ttg.convert_layout %x_3') && (r[0] === 'i' || r[0] === 'r')), 'added convert_layout');
  // the chart: one clickable bar per pass
  const bars = await page.$$eval('#pass-chart .bar-hit', (b) => b.length);
  eq(bars, await page.evaluate(() => window.TK.use('passes').inspect().data.passes.length), 'bars');
  await page.screenshot({ path: path.join(ART, 'passes.png') });
  // next changed pass with the key j
  await page.keyboard.press('j');
  await page.waitForFunction((i) => window.TK.use('passes').inspect().sel > i, i);
  // from source line 12 (`x = tl.load(...)`, the load Coalesce rewrote)
  await page.click('#mode-kernel');
  await clickLine(page, 'src-pane', 12);
  await page.click('#info button.passes-of');
  await page.waitForSelector('#pass-list .ps.touch');
  const touched = await page.$$eval('#pass-list .ps.touch', (r) => r.map((x) => +x.dataset.i));
  assert(touched.includes(i), 'Coalesce touched line 12: ' + touched);
  eq(page.problems, [], 'problems');
  await page.close();
});

/* ---- any two passes, composed from the stored steps ---------------------- */

/* The kept lines of the MLIR dump whose header is line HEADER (1-based) of
 * FILE, as the report's diffs count them: the body runs to the next
 * `// -----// IR Dump` header; `#locN = loc(...)` alias lines and blank
 * lines carry no IR (tk_normalize.h).  Lines are numbered from 1 after the
 * header.  Read here with a plain filter, not with tkview. */
function mlirDumpKept(file, header) {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  if (!lines[header - 1].startsWith('// -----// IR Dump Before')) throw new Error('no header at ' + header);
  const t = [], ln = [];
  for (let i = header; i < lines.length && !lines[i].startsWith('// -----// IR Dump'); i++) {
    if (/^#loc[0-9]* = loc\(/.test(lines[i]) || lines[i].trim() === '') continue;
    t.push(lines[i]);
    ln.push(i - header + 1);
  }
  return { t, ln };
}

await test('chain steps rebuild every dump of TritonGPUCoalesce .. RemoveLayoutConversions exactly', async () => {
  const page = await open(vaUrl(kernelPage));
  await ready(page);
  await page.click('#mode-passes');
  await page.waitForSelector('body[data-passes="1"] #pass-list .ps');
  // tkview passes: 14 TritonGPUCoalesce mlir_passes.txt:1178, 15 TritonGPUF32DotTC
  // :1251, 16 TritonGPUPlanCTAPass :1334, 17 TritonGPURemoveLayoutConversions
  // :1417, 18 TritonGPUOptimizeThreadLocality :1500 (the text after 17).
  const names = await page.evaluate(() => window.TK.use('passes').inspect().data.passes.slice(14, 18).map((p) => p.pass));
  eq(names, ['TritonGPUCoalesce', 'TritonGPUF32DotTC', 'TritonGPUPlanCTAPass', 'TritonGPURemoveLayoutConversions'], 'passes 14-17');
  const mp = path.join(VA, 'mlir_passes.txt');
  const want = [1178, 1251, 1334, 1417, 1500].map((h) => mlirDumpKept(mp, h));
  // The text before pass 14 made from the chain's first text, then each
  // step applied to the text before it: the kept lines (and line numbers)
  // of each dump, byte for byte.
  const got = await page.evaluate(async () => {
    const C = window.TK.use('chain'), ps = window.TK.use('passes').inspect().data.passes;
    const ch = await C.load(ps[14].ch);
    const out = [];
    let t = C.text(ch, 14 - ch.from);
    out.push({ t: t.t, ln: Array.from(t.ln) });
    for (let p = 14; p <= 17; p++) {
      t = C.apply(t, ch.steps[p - ch.from]);
      out.push({ t: t.t, ln: Array.from(t.ln) });
    }
    return out;
  });
  for (let k = 0; k < 5; k++) {
    eq(got[k].t.length, want[k].t.length, 'kept lines of dump ' + k);
    for (let i = 0; i < want[k].t.length; i++) {
      if (got[k].t[i] !== want[k].t[i]) throw new Error(`dump ${k} kept line ${i}: got ${JSON.stringify(got[k].t[i])}, want ${JSON.stringify(want[k].t[i])}`);
    }
    eq(got[k].ln, want[k].ln, 'line numbers of dump ' + k);
  }
  // The first and second dump differ (Coalesce changed 1178 -> 1251), and
  // 1251 -> 1334 -> 1417 are the same kept lines (two unchanged passes).
  assert(want[0].t.join('\n') !== want[1].t.join('\n'), 'Coalesce changed the text');
  eq(want[1].t, want[3].t, '1251 and 1417 hold the same kept lines');
  eq(page.problems, [], 'problems');
  await page.close();
});

await test('any two passes: before TritonGPUCoalesce (14) to after RemoveLayoutConversions (17)', async () => {
  const page = await open(vaUrl(kernelPage));
  await ready(page);
  await page.click('#mode-passes');
  await page.waitForSelector('body[data-passes="1"] #pass-compare select');
  await page.selectOption('#cmp-from', '14');
  await page.selectOption('#cmp-to', '17');
  await page.click('#cmp-go');
  await page.waitForFunction(() => {
    const b = document.querySelector('#pass-bar strong');
    return b && b.textContent.startsWith('passes 14\u201317') && document.querySelector('#pass-rows .drow');
  });
  const bar = await page.textContent('#pass-bar');
  assert(bar.includes('mlir_passes.txt:1178') && bar.includes('mlir_passes.txt:1500'), 'sides named: ' + bar);
  const rows = await diffRows(page);
  const has = (f, msg) => assert(rows.some(f), msg + '\n' + rows.map((r) => r.join(' | ')).join('\n'));
  // Coalesce added 1253 `#blocked1 = #ttg.blocked<{sizePerThread = [4], ...`;
  // RemoveLayoutConversions renamed it: 1501 `#blocked = #ttg.blocked<{sizePerThread = [4], ...`
  // (body line 1 after the header at 1500).  It was not in 1178: added.
  has((r) => (r[0] === 'i' || r[0] === 'r') && r[3] === 1 && r[4].startsWith('#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32]'),
    'the layout Coalesce added, as named after pass 17, added at line 1');
  // 1179 `#blocked = #ttg.blocked<{sizePerThread = [1], ...` (line 1) was
  // removed by RemoveLayoutConversions (1418), which added 1502
  // `#blocked1 = #ttg.blocked<{sizePerThread = [1], ...` (line 2).
  has((r) => (r[0] === 'd' || r[0] === 'r') && r[1] === 1 && r[2].startsWith('#blocked = #ttg.blocked<{sizePerThread = [1]'), 'the old #blocked removed');
  has((r) => (r[0] === 'i' || r[0] === 'r') && r[3] === 2 && r[4].startsWith('#blocked1 = #ttg.blocked<{sizePerThread = [1]'), '#blocked1 [1] added by pass 17');
  // 1201 (line 23) `%x_4 = tt.load %x_3, %mask_2` was replaced by Coalesce
  // (1251: convert_layout, load, convert_layout); RemoveLayoutConversions
  // put a plain load back, 1524 (line 24), with the [4] layout now named #blocked.
  has((r) => (r[0] === 'd' || r[0] === 'r') && r[1] === 23 && r[2].includes('%x_4 = tt.load %x_3, %mask_2'), 'the old load removed');
  has((r) => (r[0] === 'i' || r[0] === 'r') && r[3] === 24 && r[4].includes('%x_4 = tt.load %x_3, %mask_2'), 'the new load added');
  // The convert_layout ops Coalesce added (1262 `%x_4 = ttg.convert_layout %x_3`)
  // were all removed by pass 17: no row shows them.
  assert(!rows.some((r) => r[2].includes('ttg.convert_layout') || r[4].includes('ttg.convert_layout')), 'added then removed: not shown');
  // 1211 (line 33) `}) : (tensor<1024xf32, #blocked>) -> f32` survives as
  // 1534 (line 34) `}) : (tensor<1024xf32, #blocked1>) -> f32`: the [1]
  // layout under its new name, context next to the changed tt.splat below it.
  has((r) => r[0] === 'e' && r[1] === 33 && r[3] === 34 && r[2].trim().startsWith('}) : (tensor<1024xf32, #blocked>) -> f32') &&
    r[4].trim().startsWith('}) : (tensor<1024xf32, #blocked1>) -> f32'), 'the reduce result survives, renamed');
  // One group: the changed lines 1-2, 16-28 and 34-38 (after: 1-2, 17-29,
  // 35-39) are at most 5 equal lines apart (11-15, 29-33), which a 3-line
  // context joins.
  eq(await page.$$eval('#pass-rows .dgroup', (g) => g.map((x) => x.textContent.split(' \u2014')[0])), ['change 1 of 1'], 'groups');
  await page.screenshot({ path: path.join(ART, 'passes-compose.png') });
  // the same by shift-click in the list: pass 14, then shift+17
  const before = JSON.stringify(rows);
  await page.click('#pass-list .ps[data-i="14"]');
  await page.waitForFunction(() => document.querySelector('#pass-bar strong').textContent.startsWith('14: TritonGPUCoalesce'));
  // one pass alone, composed of its own step, is that pass's diff: 1253 added
  const one = await diffRows(page);
  assert(one.some((r) => r[0] === 'i' && r[4].startsWith('#blocked1 = #ttg.blocked<{sizePerThread = [4]')), 'pass 14 alone adds #blocked1');
  // next / previous change: 1178 -> 1251 changes line 3 (#blocked1) and
  // lines 15.. (the loads), 11 equal lines apart: two groups at least
  assert((await page.$$('#pass-rows .dgroup')).length >= 2, 'pass 14 has several changes');
  await page.keyboard.press('n');
  eq(await page.evaluate(() => window.TK.use('passes').inspect().group), 1, 'n: next change');
  await page.keyboard.press('p');
  eq(await page.evaluate(() => window.TK.use('passes').inspect().group), 0, 'p: previous change');
  await page.click('#pass-list .ps[data-i="17"]', { modifiers: ['Shift'] });
  await page.waitForFunction(() => document.querySelector('#pass-bar strong').textContent.startsWith('passes 14\u201317'));
  const again = await diffRows(page);
  eq(JSON.stringify(again), before, 'shift-click gives the same diff');
  // a TTGIR pass and an LLVM IR pass are not one chain: said, not drawn
  const llvm = await page.evaluate(() => window.TK.use('passes').inspect().data.passes.findIndex((p) => p.level === 'llvm-ir' && p.effect === 'changed'));
  assert(llvm > 17, 'an LLVM IR pass: ' + llvm);
  await page.evaluate((m) => window.TK.use('passes').compare(14, m), llvm);
  const why = await page.textContent('#pass-rows');
  assert(/different chains: different IR/.test(why), why);
  eq(page.problems, [], 'problems');
  await page.close();
});

await test('any two LLVM IR passes: before EarlyCSEPass (81) to after IPSCCPPass (84)', async () => {
  // tkview passes vector_add: 81 EarlyCSEPass on add_kernel (stderr.txt:1769,
  // a function dump), 82 CallSiteSplittingPass, 83 OpenMPOptPass (module,
  // unchanged), 84 IPSCCPPass on [module] (stderr.txt:2329).  The text
  // before 81 is the module dump at 790 (CoroEarlyPass) with add_kernel as
  // printed at 1584 (SROAPass); after 84 the module dump at 2329.
  const page = await open(vaUrl(kernelPage));
  await ready(page);
  await page.click('#mode-passes');
  await page.waitForSelector('body[data-passes="1"] #pass-compare select');
  await page.selectOption('#cmp-from', '81');
  await page.selectOption('#cmp-to', '84');
  await page.click('#cmp-go');
  await page.waitForFunction(() => {
    const b = document.querySelector('#pass-bar strong');
    return b && b.textContent.startsWith('passes 81\u201384') && document.querySelector('#pass-rows .drow');
  });
  const bar = await page.textContent('#pass-bar');
  assert(bar.includes('stderr.txt:790 with add_kernel from stderr.txt:1584') && bar.includes('stderr.txt:2329'), 'sides named: ' + bar);
  const rows = await diffRows(page);
  const has = (f, msg) => assert(rows.some(f), msg + '\n' + rows.map((r) => r.join(' | ')).join('\n'));
  // 804 (body line 14 of the dump at 790) `%13 = shl i32 %11, 0, !dbg !9`:
  // a shift by zero, gone by 2329 (EarlyCSE folded it).
  has((r) => (r[0] === 'd' || r[0] === 'r') && r[1] === 14 && r[2].includes('%13 = shl i32 %11, 0'), 'the shift by zero removed');
  // 2345 (body line 16 of 2329) `%15 = shl nuw nsw i32 %14, 2, !dbg !9`:
  // IPSCCP proved the shift cannot wrap; nothing like it before 81.
  has((r) => (r[0] === 'i' || r[0] === 'r') && r[3] === 16 && r[4].includes('%15 = shl nuw nsw i32 %14, 2'), 'the nuw nsw shift added');
  await page.screenshot({ path: path.join(ART, 'passes-compose-llvm.png') });
  // One pass of the range alone is that pass's own diff: 84 IPSCCPPass
  // (stderr.txt:2106 -> 2329) replaced 2120 `%13 = shl i32 %12, 5` with
  // 2343 `%13 = shl nuw nsw i32 %12, 5` (body line 14 of 2329).
  await page.click('#pass-list .ps[data-i="84"]');
  await page.waitForFunction(() => document.querySelector('#pass-bar strong').textContent.startsWith('84: IPSCCPPass'));
  const one = await diffRows(page);
  assert(one.some((r) => (r[0] === 'i' || r[0] === 'r') && r[3] === 14 && r[4].includes('%13 = shl nuw nsw i32 %12, 5')), 'pass 84 alone: ' + JSON.stringify(one));
  assert((await page.textContent('#pass-bar')).includes('stderr.txt:2106'), 'pass 84 starts from the module dump at 2106');
  eq(page.problems, [], 'problems');
  await page.close();
});

await test('every pass diff the page composes is grouped as tkview diff groups it (tk_diff_group)', async () => {
  // The page composes a chained pass's diff from the chain's steps and
  // groups it by tk_diff_group()'s rule with the context passes.js gives;
  // `tkview diff --pass N` groups the same pass's diff with tk_diff_group()
  // itself (its default context, 3).  Compared wherever the two name the
  // same texts: every MLIR pass, and the LLVM passes that print the whole
  // module (the CLI shows a function pass on its function alone).
  const page = await open(vaUrl(kernelPage));
  await ready(page);
  await page.click('#mode-passes');
  await page.waitForSelector('body[data-passes="1"] #pass-list .ps');
  const { diffs, passes } = await page.evaluate(() => {
    const d = window.TK.use('passes').inspect().data;
    return { diffs: d.diffs, passes: d.passes.map((p, i) => ({ i, ch: p.ch, effect: p.effect, before: p.before, after: p.after })) };
  });
  eq(diffs.context, 3, 'the context the report groups with: tkview diff\'s default');
  const num = (a, b) => a - b;
  let compared = 0;
  for (const p of passes.filter((x) => x.effect === 'changed' && x.ch !== undefined)) {
    const cli = JSON.parse(execFileSync(TKVIEW, ['diff', VA, '--kernel', '0', '--pass', String(p.i), '--json'], { encoding: 'utf8' }));
    if (cli.a.text !== p.before || cli.b.text !== p.after) continue;
    // per group: the lines of each side it shows (context and changed)
    const want = cli.hunks.map((h) => [h.lines.filter((l) => l.op !== '+').map((l) => l.a_line).sort(num),
      h.lines.filter((l) => l.op !== '-').map((l) => l.b_line).sort(num)]);
    const got = await page.evaluate(async (i) => {
      const P = window.TK.use('passes');
      await P.select(i);
      return P.inspect().diff.groups.map((g) => [g.filter((r) => r[1]).map((r) => r[1]).sort((a, b) => a - b),
        g.filter((r) => r[3]).map((r) => r[3]).sort((a, b) => a - b)]);
    }, p.i);
    eq(got, want, `pass ${p.i} (${p.before} -> ${p.after}): lines of each group`);
    compared++;
  }
  note(`vector_add: ${compared} composed pass diffs grouped as tkview diff groups them`);
  assert(compared >= 10, 'passes compared: ' + compared);
  eq(page.problems, [], 'problems');
  await page.close();
});

/* ---- hostile text ------------------------------------------------------ */

const PAYLOAD = (n) => `</script><script>window.pwned=${n}</script><img src=x onerror="window.pwned=${n}0">'"&lt;`;

const HOSTILE_NAME = `add<img src=x onerror="window.pwned=5">'&..`;

function hostileCapture() {
  const name = HOSTILE_NAME;
  // A copy of vector_add's cache entry with injections into: an IR string,
  // a location's file name, the kernel's name, the source text, the folder
  // name of the capture.
  const dir = path.join(tmp, 'cap ' + PAYLOAD(1).replace(/\//g, '_'));
  const cacheSrc = path.join(VA, 'cache');
  const entry = fs.readdirSync(cacheSrc).find((d) => fs.existsSync(path.join(cacheSrc, d, 'add_kernel.ttgir')));
  const dst = path.join(dir, 'cache', entry);
  fs.mkdirSync(dst, { recursive: true });
  for (const f of fs.readdirSync(path.join(cacheSrc, entry))) fs.copyFileSync(path.join(cacheSrc, entry, f), path.join(dst, f));
  fs.mkdirSync(path.join(dir, 'src'));
  let py = fs.readFileSync(path.join(VA, 'src', 'vector_add.py'), 'utf8');
  py = py.replace('# an extra reduction', '# ' + PAYLOAD(2) + ' an extra reduction');
  fs.writeFileSync(path.join(dir, 'src', 'vector_add.py'), py);
  let ttgir = fs.readFileSync(path.join(dst, 'add_kernel.ttgir'), 'utf8');
  ttgir = ttgir.replace('"tt.reduce"(%s)', '"tt.reduce' + PAYLOAD(3).replace(/"/g, '\\"') + '"(%s)');
  ttgir = ttgir.replace('#loc13 = loc("/tmp/capture/vector_add/src/vector_add.py":16:15)',
    '#loc13 = loc("/tmp/' + PAYLOAD(4).replace(/"/g, '\\"') + '.py":16:15)');
  fs.writeFileSync(path.join(dst, 'add_kernel.ttgir'), ttgir);
  // the kernel's name comes from its files' names (and NAME.json): no '/'
  // can be in it, everything else can
  const jf = path.join(dst, 'add_kernel.json');
  const meta = JSON.parse(fs.readFileSync(jf, 'utf8'));
  meta.name = name;
  fs.writeFileSync(jf, JSON.stringify(meta));
  for (const f of fs.readdirSync(dst))
    if (f.startsWith('add_kernel.')) fs.renameSync(path.join(dst, f), path.join(dst, name + f.slice('add_kernel'.length)));
  return dir;
}

await test('hostile text in IR strings, file names, kernel name and source runs nothing', async () => {
  const cap = hostileCapture();
  const { out } = report(cap, 'hostile ' + 'x');
  // nothing outside OUTDIR: every file lies under it, with generated names
  const all = [];
  const walk = (d) => fs.readdirSync(d, { withFileTypes: true }).forEach((e) => {
    const p = path.join(d, e.name);
    if (e.isDirectory()) walk(p); else all.push(path.relative(out, p));
  });
  walk(out);
  for (const f of all) assert(/^[A-Za-z0-9_./-]+$/.test(f), 'generated file name: ' + f);
  // no data file can end a script element
  for (const f of all.filter((f) => f.endsWith('.js') && f.startsWith('data/')))
    assert(!/<\/script|<img/i.test(fs.readFileSync(path.join(out, f), 'utf8')), 'escaped in ' + f);
  const page = await open(pathToFileURL(path.join(out, 'index.html')).href);
  await page.waitForTimeout(200);
  const title0 = await page.title();
  const idxText = await page.textContent('body');
  assert(idxText.includes('add<img src=x onerror="window.pwned=5">'), 'kernel name shown as text on the index: ' + idxText);
  await page.click('#kernels a');
  await ready(page);
  await clickLine(page, 'src-pane', 16);
  await clickLine(page, 'ir-pane', 30);
  const irText = await page.textContent('#ir-pane');
  assert(irText.includes('<script>window.pwned=3</script>'), 'IR string shown as text');
  const infoText = await page.textContent('#info');
  assert(infoText.includes('16:15'), 'stack shown: ' + infoText);
  await page.evaluate(() => { document.querySelector('#src-pane .code').scrollTop = 0; });
  const srcText = await page.textContent('#src-pane');
  assert(srcText.includes('window.pwned=2'), 'source shown as text');
  const files = await page.$$eval('#srcfile option', (o) => o.map((x) => x.title));
  assert(files.some((f) => f.includes('window.pwned=4')), 'hostile file name listed as text: ' + files);
  await page.waitForTimeout(300);
  eq(await page.evaluate(() => window.pwned), undefined, 'window.pwned');
  eq(await page.$$eval('img', (i) => i.length), 0, 'no <img> element was created');
  eq(await page.$$eval('script:not([src])', (s) => s.length), 0, 'no inline script element');
  eq(title0, 'tkview report', 'index title');
  // the title carries the hash prefix too: vector_add's kernel, folder add_kernel-faf6139b
  eq(await page.title(), HOSTILE_NAME + ' faf6139b - tkview', 'kernel page title, as text');
  await page.screenshot({ path: path.join(ART, 'hostile.png') });
  eq(page.problems.filter((p) => !p.startsWith('console: Failed to load resource')), [], 'problems');
  await page.close();
});

/* ---- size and speed -------------------------------------------------------- */

/* Pass dumps are text from the compiler too: a copy of vector_add with
 * script in one MLIR dump and one LLVM IR dump, shown in pass diffs and in a
 * composed LLVM IR diff. */
function hostilePasses() {
  const dir = path.join(tmp, 'passes ' + PAYLOAD(6).replace(/\//g, '_'));
  fs.cpSync(VA, dir, { recursive: true });
  const edit = (file, lineNo, from, to) => {
    const f = path.join(dir, file);
    const lines = fs.readFileSync(f, 'utf8').split('\n');
    assert(lines[lineNo - 1].includes(from), file + ':' + lineNo + ' is ' + lines[lineNo - 1]);
    lines[lineNo - 1] = lines[lineNo - 1].replace(from, to);
    fs.writeFileSync(f, lines.join('\n'));
  };
  // mlir_passes.txt 1277, in the dump at 1251 (the IR after
  // TritonGPUCoalesce): `%x_6 = tt.load %x_4, %x_5 : ...`
  edit('mlir_passes.txt', 1277, '%x_6 = tt.load %x_4, %x_5 :',
    '%x_6 = tt.load %x_4, %x_5 {note = "' + PAYLOAD(6).replace(/"/g, '\\"') + '"} :');
  // stderr.txt 2343, in the dump at 2329 (after IPSCCPPass):
  // `%13 = shl nuw nsw i32 %12, 5, !dbg !9`
  edit('stderr.txt', 2343, '%13 = shl nuw nsw i32 %12, 5, !dbg !9', '%13 = shl nuw nsw i32 %12, 5, !dbg !9 ; ' + PAYLOAD(7));
  return dir;
}

await test('hostile text in pass dumps, in pass diffs and a composed LLVM IR diff, runs nothing', async () => {
  const { out } = report(hostilePasses(), 'hostile passes');
  for (const f of fs.readdirSync(path.join(out, 'data', 'k001')))
    assert(!/<\/script|<img/i.test(fs.readFileSync(path.join(out, 'data', 'k001', f), 'utf8')), 'escaped in ' + f);
  const kp = fs.readdirSync(out).find((f) => /^k001-.*\.html$/.test(f));
  const page = await open(pathToFileURL(path.join(out, kp)).href);
  await ready(page);
  await page.click('#mode-passes');
  await page.waitForSelector('body[data-passes="1"] #pass-list .ps');
  const rowsText = async (i) => {
    await page.click(`#pass-list .ps[data-i="${i}"]`);
    await page.waitForFunction((i) => document.querySelector('#pass-bar strong').textContent.startsWith(i + ': '), i);
    return (await diffRows(page)).map((r) => r[2] + '\n' + r[4]).join('\n');
  };
  // 14 TritonGPUCoalesce: its IR after is the dump at 1251
  assert((await rowsText(14)).includes('<script>window.pwned=6</script>'), 'MLIR payload shown as text');
  // 84 IPSCCPPass: its IR after is the dump at 2329
  assert((await rowsText(84)).includes('<script>window.pwned=7</script>'), 'LLVM IR payload shown as text');
  await page.evaluate(() => window.TK.use('passes').compare(81, 84));
  await page.waitForFunction(() => document.querySelector('#pass-bar strong').textContent.startsWith('passes 81'));
  assert((await diffRows(page)).some((r) => r[4].includes('<img src=x onerror="window.pwned=70">')), 'composed diff shows it as text');
  await page.waitForTimeout(300);
  eq(await page.evaluate(() => window.pwned), undefined, 'window.pwned');
  eq(await page.$$eval('img', (i) => i.length), 0, 'no <img> element was created');
  eq(await page.$$eval('script:not([src])', (s) => s.length), 0, 'no inline script element');
  eq(page.problems, [], 'problems');
  await page.close();
});

// How fast (interactive, a click, a composed level) is bench/report_browser.mjs's:
// a timing asserted in a test fails on a busy machine and says nothing on a
// quiet one (issue 25).  The times are printed here, never asserted.
await test('largest kernel: interactive, a click highlights its LLVM IR lines, both levels compose', async () => {
  const cap = path.join(DUMPS, 'persistent_tma_matmul');
  const { out, secs } = report(cap, 'persistent');
  note(`persistent_tma_matmul: report written in ${secs.toFixed(2)} s`);
  const pageFile = fs.readdirSync(out).find((f) => /^k001-.*\.html$/.test(f));
  const page = await open(pathToFileURL(path.join(out, pageFile)).href);
  const t0 = Date.now();
  await ready(page);
  const wall = Date.now() - t0;
  const nav = await page.evaluate(() => window.TK.use('app').inspect().interactive);
  note(`persistent_tma_matmul: page interactive ${nav.toFixed(0)} ms after navigation start (${wall} ms seen by the test)`);
  assert(nav > 0, 'interactive after navigation start: ' + nav);
  // The biggest stage: LLVM IR.  Switch to it, then click the kernel's busiest line.
  const t1 = Date.now();
  await tab(page, 'llir');
  note(`persistent_tma_matmul: switch to LLVM IR (${await page.evaluate(() => window.TK.use('kernel').text('llir').length)} lines) ${Date.now() - t1} ms`);
  const busiest = await page.evaluate(() => {
    const b = window.TK.use('kernel').bind('llir'), f = window.TK.use('panes').inspect().file;
    let best = null, n = -1;
    for (const r of b.src) if (r[0] === f) {
      const c = window.TK.use('data').expand(r[3]).length;
      if (c > n) { n = c; best = r[1]; }
    }
    return [best, n];
  });
  const times = [];
  for (let i = 0; i < 5; i++) {
    await clickLine(page, 'src-pane', busiest[0]);
    times.push(await page.evaluate(() => window.TK.use('panes').inspect().clicks.at(-1)));
  }
  const worst = Math.max(...times);
  note(`persistent_tma_matmul: click on source line ${busiest[0]} highlights ${busiest[1]} LLVM IR lines in ${worst.toFixed(1)} ms (worst of 5)`);
  assert(busiest[1] > 0, 'the busiest line binds LLVM IR lines');
  const after = await page.evaluate(() => { const P = window.TK.use('panes').inspect(); return { sel: P.sel, hits: P.hits.length }; });
  eq([after.sel.pane, after.sel.line], ['src', busiest[0]], 'the busiest line selected');
  assert(after.hits > 0, 'LLVM IR lines highlighted: ' + after.hits);
  await page.screenshot({ path: path.join(ART, 'persistent-llir.png') });
  // Pass mode: the whole TTGIR level composed from its passes' steps (the
  // largest chain of MLIR texts; ConvertTritonGPUToLLVM, a step of its own,
  // is not in it).
  await page.click('#mode-passes');
  await page.waitForSelector('body[data-passes="1"] #pass-list .ps');
  const lv = await page.evaluate(() => window.TK.use('passes').inspect().data.levels.find((l) => l.level === 'ttgir'));
  assert(lv && lv.chain !== undefined, 'the TTGIR level is one chain');
  const t2 = await page.evaluate(async ([a, b]) => {
    const t = performance.now();
    await window.TK.use('passes').compare(a, b);
    return performance.now() - t;
  }, [lv.cfrom, lv.cto]);
  const shown = await page.$$eval('#pass-rows .drow', (r) => r.length);
  note(`persistent_tma_matmul: TTGIR passes ${lv.cfrom}-${lv.cto} composed and drawn (${shown} rows) in ${t2.toFixed(0)} ms`);
  assert(shown > 0, 'rows drawn');
  // The whole LLVM IR level: whole modules of some 3 000 lines, loop
  // passes (LICMPass, LoopRotatePass on loop ...) stepped over.
  const lvl = await page.evaluate(() => window.TK.use('passes').inspect().data.levels.find((l) => l.level === 'llvm-ir'));
  assert(lvl && lvl.chain !== undefined, 'the LLVM IR level is a chain');
  const t3 = await page.evaluate(async ([a, b]) => {
    const t = performance.now();
    await window.TK.use('passes').compare(a, b);
    return performance.now() - t;
  }, [lvl.cfrom, lvl.cto]);
  const shown3 = await page.$$eval('#pass-rows .drow', (r) => r.length);
  note(`persistent_tma_matmul: LLVM IR passes ${lvl.cfrom}-${lvl.cto} composed and drawn (${shown3} rows) in ${t3.toFixed(0)} ms`);
  assert(shown3 > 0, 'rows drawn');
  eq(page.problems, [], 'problems');
  await page.close();
});

/* ---- a giant pass ------------------------------------------------------ */

/* vector_add with giant passes, written into the test's folder: 25 000
 * new lines in the dump at mlir_passes.txt:1251 (`IR Dump Before
 * TritonGPUF32DotTC`: the IR after pass 14, TritonGPUCoalesce, which pass
 * 15 removes again), before its line 1300 `    tt.return loc(#loc18)`; and
 * 300 lines of 32 KB in the dump at 1574 (`IR Dump Before
 * TritonGPUAccelerateMatmul`: after pass 18, TritonGPUOptimizeThreadLocality;
 * pass 19 removes them), before its line 1614 `    tt.return loc(#loc18)`.
 * About 11 MB: over the report's budget for one pass in lines (20 000) and
 * in bytes (8 MiB) respectively. */
function giantPasses() {
  const dir = path.join(tmp, 'giant capture');
  fs.cpSync(VA, dir, { recursive: true });
  const f = path.join(dir, 'mlir_passes.txt');
  const lines = fs.readFileSync(f, 'utf8').split('\n');
  for (const n of [1300, 1614]) assert(lines[n - 1] === '    tt.return loc(#loc18)', 'mlir_passes.txt:' + n + ' is ' + lines[n - 1]);
  const wide = Array.from({ length: 300 }, (_, k) => {
    const head = `    %wide_${k} = arith.constant {note = "`, tail = '"} 0 : i32 loc(#loc1)';
    return head + 'w'.repeat(32768 - head.length - tail.length) + tail;
  });
  const many = Array.from({ length: 25000 }, (_, k) => `    %big_${k} = arith.constant ${k} : i32 loc(#loc1)`);
  lines.splice(1613, 0, ...wide);
  lines.splice(1299, 0, ...many);
  fs.writeFileSync(f, lines.join('\n'));
  return dir;
}

/* The lines of `tkview diff` JSON: context, removed and added lines. */
function cliLines(diff) {
  return diff.hunks.reduce((k, h) => k + h.lines.length, 0);
}

/* The lines of the unified diff that stored rows GROUPS hold: a row with
 * a line and its replacement side by side ("r") is two. */
function rowLines(groups) {
  return groups.reduce((k, g) => k + g.reduce((n, r) => n + (r[0] === 'r' ? 2 : 1), 0), 0);
}

/* A data file's value (TK.putz: gzip and base64), read without the page. */
function readPutz(file) {
  const m = /^TK\.putz\("[^"]*","([^"]*)"\);/.exec(fs.readFileSync(file, 'utf8'));
  assert(m, file + ' is a TK.putz file');
  return zlib.gunzipSync(Buffer.from(m[1], 'base64')).toString('utf8');
}

await test('a giant pass: the report keeps its budget, opens it, says what it left out and how to see it', async () => {
  const input = giantPasses();
  const { out, secs } = report(input, 'giant');
  const plain = report(VA, 'giant-plain').out;
  const dataSize = (o) => fs.readdirSync(path.join(o, 'data', 'k001')).reduce((n, f) => n + fs.statSync(path.join(o, 'data', 'k001', f)).size, 0);
  note(`giant passes: report written in ${secs.toFixed(2)} s, pass data ${dataSize(out)} bytes (${dataSize(plain)} without the giant passes)`);
  // What is stored of each giant pass: at most 20 000 lines and 8 MiB of
  // line text (pb-N.js, a file of its own), whatever the dump holds.
  for (const n of [14, 15, 18, 19]) {
    const json = readPutz(path.join(out, 'data', 'k001', `pb-${n}.js`));
    const d = JSON.parse(json);
    const lines = rowLines(d.groups);
    const bytes = d.groups.flat().reduce((k, r) => k + (r[2] || '').length + (r[4] || '').length, 0);
    assert(lines <= 20000 && bytes <= 8 << 20, `pass ${n}: ${lines} lines, ${bytes} bytes stored`);
    assert(d.cut > 0, `pass ${n}: lines left out`);
    assert(json.length <= (8 << 20) + 64 * 20000, `pass ${n}: ${json.length} bytes of JSON`);
  }
  const pageFile = fs.readdirSync(out).find((f) => /^k001-.*\.html$/.test(f));
  const page = await open(pathToFileURL(path.join(out, pageFile)).href);
  await ready(page);
  await page.click('#mode-passes');
  await page.waitForSelector('body[data-passes="1"] #pass-list .ps');
  const ps = await page.evaluate(() => window.TK.use('passes').inspect().data.passes.slice(13, 21));
  eq(ps.map((p) => p.pass), ['ConvertTritonToTritonGPU', 'TritonGPUCoalesce', 'TritonGPUF32DotTC', 'TritonGPUPlanCTAPass',
    'TritonGPURemoveLayoutConversions', 'TritonGPUOptimizeThreadLocality', 'TritonGPUAccelerateMatmul', 'TritonGPURemoveLayoutConversions'], 'passes 13-20');
  // the counts are of all the lines, stored or not
  eq([ps[2].removed, ps[5].added, ps[6].removed], [25000, 300, 300], 'the lines the giant passes added and removed');
  const see = await page.evaluate(() => window.TK.use('passes').inspect().data.diffs.see);
  for (const [n, why] of [[14, 'lines'], [15, 'lines'], [18, 'bytes'], [19, 'bytes']]) {
    const ms = await page.evaluate(async (n) => {
      const t = performance.now();
      await window.TK.use('passes').select(n);
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      return performance.now() - t;
    }, n);
    const shown = await page.evaluate(() => {
      const P = window.TK.use('passes').inspect();
      return { cut: P.diff.cut, groups: P.diff.groups, rows: P.diff.groups.reduce((k, g) => k + g.length, 0), win: P.view.window(),
        drawn: document.querySelectorAll('#pass-rows .drow').length, note: document.querySelector('#pass-rows .cutnote').textContent };
    });
    // all of it, from the command the page gives (run as it is written,
    // with this build's tkview)
    const cmd = see + ' --pass ' + n;
    assert(shown.note.includes(cmd), `pass ${n}: the note names ${cmd}: ${shown.note}`);
    const full = JSON.parse(execFileSync('sh', ['-c', cmd.replace(/^tkview /, `'${TKVIEW}' `) + ' --json'], { encoding: 'utf8', maxBuffer: 1 << 30 }));
    const all = cliLines(full), stored = rowLines(shown.groups);
    eq(stored + shown.cut, all, `pass ${n}: lines stored + lines left out = the lines of tkview diff`);
    assert(shown.note.includes(shown.cut.toLocaleString('en-US') + ' more lines of this diff are not in the report'), shown.note);
    if (why === 'lines') eq(stored, 20000, `pass ${n}: cut at 20 000 lines`);
    else assert(stored < 300 && stored > 200, `pass ${n}: cut at 8 MiB of 32 KB lines: ${stored} lines`);
    assert(shown.win.items === shown.rows + full.hunks.length || shown.win.items > shown.rows, 'items: rows and headings');
    assert(shown.drawn < 200, `pass ${n}: ${shown.drawn} rows drawn, those in view`);
    note(`giant passes: pass ${n} (${stored} lines stored, ${shown.cut} left out) opens in ${ms.toFixed(0)} ms`);
  }
  await page.screenshot({ path: path.join(ART, 'passes-giant.png') });
  // A giant pass is no end of a composed diff: said, with the command
  await page.evaluate(() => window.TK.use('passes').compare(13, 15));
  const why = await page.textContent('#pass-rows');
  assert(why.includes('bigger than the report keeps of one pass') && why.includes(see + ' --pass 13 --to 15'), why);
  // The passes after the giant ones chain again: 16-17 and 20 on
  eq([ps[3].ch !== undefined, ps[4].ch !== undefined, ps[7].ch !== undefined, ps[1].ch, ps[2].ch, ps[5].ch, ps[6].ch],
    [true, true, true, undefined, undefined, undefined, undefined], 'chained again after the giant passes');
  eq(page.problems, [], 'problems');
  await page.close();
});

/* ---- opening a pass diff: every pass of the biggest kernels ------------- */

/* How long each pass of kernel page PAGEFILE of report OUT takes to open,
 * in ms: from selecting it (what a click does) to the frame after its diff
 * is drawn, data files loaded on first use included.  Passes in order, as
 * a person steps through them with j/k. */
async function openEveryPass(out, pageFile) {
  const page = await open(pathToFileURL(path.join(out, pageFile)).href);
  await ready(page);
  await page.click('#mode-passes');
  await page.waitForSelector('body[data-passes="1"] #pass-list .ps');
  const times = await page.evaluate(async () => {
    const P = window.TK.use('passes');
    const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    const out = [];
    for (let i = 0; i < P.inspect().data.passes.length; i++) {
      const t = performance.now();
      await P.select(i);
      await frame();
      out.push([performance.now() - t, i, P.inspect().data.passes[i].pass]);
    }
    return out;
  });
  const problems = page.problems;
  await page.close();
  return { times, problems };
}

function percentiles(times) {
  const ms = times.map((t) => t[0]).sort((a, b) => a - b);
  const at = (q) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))];
  const worst = times.reduce((a, b) => (b[0] > a[0] ? b : a));
  return { n: ms.length, p50: at(0.5), p95: at(0.95), max: worst[0], worst };
}

// How long each takes (the target: p95 <= 200 ms) is bench/report_browser.mjs's;
// the figures are printed here, never asserted (issue 25).
await test('pass diffs open: every pass of the biggest kernels, without a problem', async () => {
  // The largest kernel of each of the biggest captures: persistent_tma_matmul
  // (one kernel, 297 passes, modules of 3 000 to 11 000 lines), the largest
  // of autotuned_matmul's three, and the sample FlashAttention kernel.
  const kernels = [];
  const biggest = (out) => {
    const size = (d) => fs.readdirSync(d).reduce((n, f) => n + fs.statSync(path.join(d, f)).size, 0);
    const ids = fs.readdirSync(path.join(out, 'data')).filter((d) => /^k\d+$/.test(d));
    const id = ids.reduce((a, b) => (size(path.join(out, 'data', b)) > size(path.join(out, 'data', a)) ? b : a));
    return fs.readdirSync(out).find((f) => f.startsWith(id + '-') && f.endsWith('.html'));
  };
  kernels.push(['persistent_tma_matmul', report(path.join(DUMPS, 'persistent_tma_matmul'), 'open-persistent').out]);
  kernels.push(['autotuned_matmul', report(path.join(DUMPS, 'autotuned_matmul'), 'open-autotuned').out]);
  const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
  kernels.push(['sample attention_fwd', report(path.join(ROOT, 'sample_dumps', 'attention_fwd'), 'open-attention').out]);
  const all = [];
  for (const [name, out] of kernels) {
    const pageFile = biggest(out);
    const { times, problems } = await openEveryPass(out, pageFile);
    eq(problems, [], name + ': problems');
    const q = percentiles(times);
    note(`pass diff open, ${name} ${pageFile.replace(/\.html$/, '')}: ${q.n} passes, p50 ${q.p50.toFixed(0)} ms, p95 ${q.p95.toFixed(0)} ms, max ${q.max.toFixed(0)} ms (pass ${q.worst[1]} ${q.worst[2]})`);
    all.push(...times);
  }
  const q = percentiles(all);
  note(`pass diff open, all: ${q.n} passes, p50 ${q.p50.toFixed(0)} ms, p95 ${q.p95.toFixed(0)} ms, max ${q.max.toFixed(0)} ms`);
  // every pass of each kernel was opened (persistent_tma_matmul alone has 297)
  assert(q.n >= 297, q.n + ' passes opened');
});

await browser.close();
const { passed, failed } = counts();
console.log(`# ${passed} passed, ${failed} failed`);
if (!process.env.TK_KEEP) fs.rmSync(tmp, { recursive: true, force: true });
finish();
