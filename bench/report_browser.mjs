// report_browser.mjs - the HTML report's speed in Debian's Chromium (issue 25).
//
// What the browser tests used to assert, measured here instead (a timing in
// a test fails on a busy machine and says nothing on a quiet one): on the
// largest shared kernel (persistent_tma_matmul), the kernel page ready, a
// click on a source line to the next frame with LLVM IR beside SASS, entering
// pass mode, every pass diff opened in turn, and find over 6000 lines.
// Each figure is printed beside its target and a baseline measured in the
// same run, in turns with it:
//   - the same steps on vector_add's page (a small kernel: what the machine
//     and the browser cost right now), always;
//   - with TK_BENCH_BASELINE=TKVIEW (another build's tkview, e.g. the build
//     of an older commit), the same steps on the report that tkview writes.
// Best of TK_BENCH_RUNS runs (default 3).  The exit status is 0 whenever it
// ran: a busy machine never fails it.
//
// Run through the browser tests' launcher, which installs playwright-core
// into the build folder (needs chromium, nodejs, npm: debian-packages.txt):
//   TK_TEST_DUMPS=BUILD/tests/dumps tests/html/run_browser.sh BUILD/cli/tkview BUILD \
//       ../../bench/report_browser.mjs
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { clickLine, kernelUrl, launch, open } from '../tests/html/browser.mjs';

const [, , TKVIEW_ARG, , PW] = process.argv;
const DUMPS = process.env.TK_TEST_DUMPS;
if (!DUMPS) {
  console.error('report_browser.mjs: TK_TEST_DUMPS must name the unpacked captures');
  process.exit(2);
}
const RUNS = +(process.env.TK_BENCH_RUNS || 3);
const builds = [['this', path.resolve(TKVIEW_ARG)]];
if (process.env.TK_BENCH_BASELINE) builds.push(['baseline', path.resolve(process.env.TK_BENCH_BASELINE)]);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tkview-bench-html-'));

function report(tkview, input, name) {
  const out = path.join(tmp, name);
  const p = spawnSync(tkview, ['--html', out, input, '--quiet'], { encoding: 'utf8' });
  if (p.status !== 0) throw new Error(`${tkview} --html ${input} failed: ${p.stderr}`);
  return out;
}

const q = (a, p) => {
  const s = a.slice().sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
};

/* The steps on the kernel page of report OUT: figures in ms. */
async function measure(browser, out, passes) {
  const r = {};
  // ready: interactive, after navigation start (the page's own clock)
  let page = await open(browser, kernelUrl(out, '#stage=llir'));
  await page.waitForSelector('body[data-ready="1"]', { timeout: 60000 });
  r.ready = await page.evaluate(() => window.TK.use('app').inspect().interactive);
  // a click on each source line with code, LLVM IR beside SASS, to the frame after it
  await page.selectOption('#stage2', 'sass');
  await page.waitForFunction(() => document.body.classList.contains('two'));
  const lines = await page.evaluate(() => {
    const k = window.TK.use('kernel'), f = window.TK.use('panes').inspect().file;
    return [...new Set(k.bind('llir').src.filter((x) => x[0] === f).map((x) => x[1]))];
  });
  await page.evaluate(() => {
    window.tkFrames = [];
    document.querySelector('#src-pane .code').addEventListener('click', () => {
      const t0 = performance.now();
      requestAnimationFrame(() => {
        const ch = new MessageChannel();
        ch.port1.onmessage = () => window.tkFrames.push(performance.now() - t0);
        ch.port2.postMessage(0);
      });
    }, true);
  });
  for (const n of lines) await clickLine(page, 'src-pane', n);
  await page.waitForFunction((n) => window.tkFrames.length >= n, lines.length);
  r.click = q(await page.evaluate(() => window.tkFrames), 0.95);
  // find over 6000 lines: the LLVM IR repeated to that size where it is shorter
  r.find = await page.evaluate(() => {
    const find = window.TK.use('find'), text = window.TK.use('kernel').text('llir');
    let big = text;
    while (big.length < 6000) big = big.concat(text);
    big = big.slice(0, Math.max(6000, text.length));
    const t = [];
    for (let k = 0; k < 7; k++) {
      const t0 = performance.now();
      find.search(big, 'wgmma.mma_async', {});
      find.search(big, 'wgmma\\.(fence|mma_async)', { regex: true });
      t.push((performance.now() - t0) / 2);
    }
    return t.sort((a, b) => a - b)[3];
  });
  // pass mode entered: from the click to the first pass listed and drawn
  if (passes) {
    r.passMode = await page.evaluate(async () => {
      const t0 = performance.now();
      document.querySelector('#mode-passes').click();
      while (!document.querySelector('body[data-passes="1"] #pass-list .ps')) await new Promise((f) => setTimeout(f, 1));
      await new Promise((f) => requestAnimationFrame(() => setTimeout(f, 0)));
      return performance.now() - t0;
    });
    // every pass opened in turn, as j/k steps through them
    const times = await page.evaluate(async () => {
      const P = window.TK.use('passes');
      const out = [];
      for (let i = 0; i < P.inspect().data.passes.length; i++) {
        const t = performance.now();
        await P.select(i);
        await new Promise((f) => requestAnimationFrame(() => setTimeout(f, 0)));
        out.push(performance.now() - t);
      }
      return out;
    });
    r.passOpen = q(times, 0.95);
    r.passes = times.length;
  }
  r.problems = page.problems;
  await page.close();
  return r;
}

const FIGS = [
  ['ready', 'kernel page ready (interactive)', 300],
  ['click', 'click -> next frame, p95 (LLIR + SASS)', 50],
  ['find', 'find over 6000 lines (median)', 50],
  ['passMode', 'pass mode entered', 300],
  ['passOpen', 'pass diff opened, p95 (every pass)', 200],
];

const browser = await launch(PW);
const inputs = { big: path.join(DUMPS, 'persistent_tma_matmul'), small: path.join(DUMPS, 'vector_add') };
const outs = {};
for (const [name, tkview] of builds) {
  for (const [what, input] of Object.entries(inputs)) outs[name + '/' + what] = report(tkview, input, name + '-' + what);
}
const runs = {};
for (let i = 0; i < RUNS; i++) {
  for (const key of Object.keys(outs)) {  // in turns: each sees the same machine
    (runs[key] = runs[key] || []).push(await measure(browser, outs[key], true));
  }
}
await browser.close();
fs.rmSync(tmp, { recursive: true, force: true });

const bestOf = (rs, k) => Math.min(...rs.map((r) => r[k]).filter((v) => v !== undefined));
const f = (v) => (Number.isFinite(v) ? v.toFixed(1) : '-').padStart(9);
console.log(`report in Chromium, persistent_tma_matmul (${runs['this/big'][0].passes} passes); best of ${RUNS} runs, ms`);
let head = 'figure'.padEnd(42) + 'this'.padStart(9) + 'target'.padStart(9) + 'floor'.padStart(9);
if (builds.length > 1) head += 'baseline'.padStart(10) + 'ratio'.padStart(8);
console.log(head + '   (floor: the same on vector_add; baseline: ' + (builds[1] ? builds[1][1] : 'none') + ')');
for (const [k, label, target] of FIGS) {
  const v = bestOf(runs['this/big'], k);
  let line = label.padEnd(42) + f(v) + String(target).padStart(9) + f(bestOf(runs['this/small'], k));
  if (builds.length > 1) {
    const b = bestOf(runs['baseline/big'], k);
    line += f(b).padStart(10) + ((v / b).toFixed(2) + 'x').padStart(8);
  }
  console.log(line + '  ' + (v <= target ? 'ok' : 'over target'));
}
const problems = Object.values(runs).flat().flatMap((r) => r.problems);
if (problems.length) console.log('page problems: ' + problems.slice(0, 5).join('; '));
