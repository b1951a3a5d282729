// report_cpu.mjs - the report's click, pass mode and page load measured by
// the CPU time of Chromium's renderer main thread (the `tdur` of its tasks
// in a trace), which a busy machine moves much less than wall times
// (issue 25: the shared 2-core VM runs at load 16-28).  Reports are
// measured in turns; each figure is the best of the turns.  Prints, per
// report: the click handler's own time (median), the main thread's CPU per
// click and its split by phase (nested events counted in each), the click
// to next frame (wall median, p95), pass mode entered (wall, CPU) and the
// page load (ready wall, CPU).  Asserts nothing.
//
// Usage: node bench/report_cpu.mjs PLAYWRIGHT_CORE_INDEX TURNS REPORT_DIR[@CSS] ...
//   REPORT_DIR: a `tkview --html` output of persistent_tma_matmul (or any
//   kernel with LLVM IR and SASS); @CSS: a style sheet adopted by the page
//   before the clicks (to try a rule out).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { clickLine, kernelUrl, launch } from '../tests/html/browser.mjs';

const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'tkview-report-cpu-'));
const [PW, turns, ...variants] = process.argv.slice(2); // variant: DIR or DIR@CSS
const browser = await launch(PW);
const cats = ['devtools.timeline', 'disabled-by-default-devtools.timeline'];
function cpu(file) {
  const ev = JSON.parse(fs.readFileSync(file)).traceEvents;
  const tids = new Set(ev.filter((e) => e.name === 'thread_name' && e.args.name === 'CrRendererMain').map((e) => e.pid + ':' + e.tid));
  let s = 0; const by = {};
  for (const e of ev) if (tids.has(e.pid + ':' + e.tid) && e.ph === 'X' && e.tdur) {
    if (e.name === 'RunTask') s += e.tdur;
    if (['FunctionCall', 'UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'EvaluateScript', 'RunMicrotasks'].includes(e.name)) by[e.name] = (by[e.name] || 0) + e.tdur; }
  return [s / 1000, by];
}
async function run(v) {
  const [dir, css] = v.split('@');
  const page = await browser.newPage({ viewport: { width: 1500, height: 850 } });
  await browser.startTracing(page, { path: TMP + '/ab-load.json', categories: cats });
  await page.goto(kernelUrl(dir));
  await page.waitForSelector('body[data-ready="1"]', { timeout: 60000 });
  const ready = await page.evaluate(() => window.TK.use('app').inspect().interactive);
  await browser.stopTracing();
  const load = cpu(TMP + '/ab-load.json')[0];
  if (css) await page.evaluate((c) => { const s = new CSSStyleSheet(); s.replaceSync(c); document.adoptedStyleSheets = [s]; }, css);
  await page.click('#ir-pane button.tab[data-stage="llir"]'); await page.waitForSelector('body[data-stage="llir"]');
  await page.selectOption('#stage2', 'sass'); await page.waitForSelector('#ir2-pane:not([hidden]) .ln');
  const lines = await page.evaluate(() => { const K = window.TK.use('kernel'), P = window.TK.use('panes').inspect();
    const seen = new Set(); for (const r of K.bind(P.stage).src) if (r[0] === P.file) seen.add(r[1]); return [...seen].sort((a, b) => a - b); });
  const step = Math.max(1, Math.ceil(lines.length / 30)); const cs = [];
  await browser.startTracing(page, { path: TMP + '/ab-click.json', categories: cats });
  for (let i = 0; i < lines.length; i += step) { await clickLine(page, 'src-pane', lines[i]);
    cs.push(await page.evaluate(async () => { const t = window.TK.use('panes').inspect().clicks.at(-1); const t0 = performance.now();
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))); return t + (performance.now() - t0); })); }
  await browser.stopTracing();
  const [clk, by] = cpu(TMP + '/ab-click.json');
  await browser.startTracing(page, { path: TMP + '/ab-pass.json', categories: cats });
  const pw = await page.evaluate(async () => { const t0 = performance.now(); document.getElementById('mode-passes').click();
    for (;;) { await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      if (document.querySelector('body[data-passes="1"] #pass-rows .drow, body[data-passes="1"] #pass-list .ps')) return performance.now() - t0; } });
  await browser.stopTracing();
  const pc = cpu(TMP + '/ab-pass.json')[0];
  const hs = await page.evaluate(() => window.TK.use("panes").inspect().clicks.slice()); hs.sort((a, b) => a - b); await page.close(); cs.sort((a, b) => a - b);
  return { hmed: hs[hs.length >> 1], ready, load, n: cs.length, clickcpu: clk / cs.length, by: Object.fromEntries(Object.entries(by).map(([k, x]) => [k, +(x / 1000 / cs.length).toFixed(1)])), med: cs[cs.length >> 1], p95: cs[Math.ceil(0.95 * cs.length) - 1], pw, pc };
}
const res = variants.map(() => []);
for (let r = 0; r < +turns; r++) for (let v = 0; v < variants.length; v++) res[v].push(await run(variants[v]));
const min = (a) => Math.min(...a).toFixed(1);
variants.forEach((v, i) => { const R = res[i];
  console.log(v.slice(0, 70));
  console.log(`   click handler (JS) median ${min(R.map((x) => x.hmed))} ms; ready wall ${min(R.map((x) => x.ready))} ms, load cpu ${min(R.map((x) => x.load))} ms | click cpu/click ${min(R.map((x) => x.clickcpu))} ms (wall median ${min(R.map((x) => x.med))} p95 ${min(R.map((x) => x.p95))}) | pass mode wall ${min(R.map((x) => x.pw))} cpu ${min(R.map((x) => x.pc))}`);
  console.log('   per click cpu by phase (last turn):', JSON.stringify(R.at(-1).by)); });
await browser.close();
fs.rmSync(TMP, { recursive: true, force: true });
