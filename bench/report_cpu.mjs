// report_cpu.mjs - the report's click, pass mode and page load measured by
// the CPU time of Chromium's renderer main thread (the `tdur` of its tasks
// in a trace), which a busy machine moves much less than wall times
// (issue 25: the shared 2-core VM runs at load 16-28).  Reports are
// measured in turns; each figure is the best of the turns.  Prints, per
// report: the click handler's own time (median), the main thread's CPU
// from a click to the end of the frame that shows it (median, p95: the
// task that handled it to the first task after it that painted), the
// main thread's CPU per click with what the test driver and the page do
// between clicks, and its split by phase (nested events counted in each,
// so Paint counts twice), the click to next frame (wall median, p95), pass
// mode entered (wall, CPU) and the page load (ready wall, and the CPU of
// the tasks begun before ready).  Asserts nothing.  KEEP=1 keeps the traces.
//
// Usage: node bench/report_cpu.mjs PLAYWRIGHT_CORE_INDEX TURNS REPORT_DIR[+PAGE][@CSS] ...
//   REPORT_DIR: a `tkview --html` output of persistent_tma_matmul (or any
//   kernel with LLVM IR and SASS); +PAGE: the kernel page whose name starts
//   with PAGE (k011: the 11th kernel; default the first); @CSS: a style
//   sheet adopted by the page before the clicks (to try a rule out).
//   A report older than the TK.define modules (1fece7b's report.js, the
//   issue's baseline) is read through TK.timing and TK.state, as
//   report_bench.mjs does.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { clickLine, kernelUrl, launch } from '../tests/html/browser.mjs';

/* The page of DIR whose name starts with PAGE (k001-...html). */
function pageUrl(dir, page) {
  if (!page) return kernelUrl(dir);
  const f = fs.readdirSync(dir).find((x) => x.startsWith(page + '-') && x.endsWith('.html'));
  return pathToFileURL(path.join(dir, f)).href;
}

const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'tkview-report-cpu-'));
const [PW, turns, ...variants] = process.argv.slice(2); // variant: DIR or DIR@CSS
const browser = await launch(PW);
const cats = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing'];
/* The renderer main thread's CPU in the trace FILE (its tasks' tdur) and
 * by phase; UNTIL (ms after the navigation's start): only the tasks that
 * began before then (what a page does once ready is not its load). */
function cpu(file, until) {
  const ev = JSON.parse(fs.readFileSync(file)).traceEvents;
  const nav = until !== undefined && ev.find((e) => e.name === 'navigationStart');
  const end = nav ? nav.ts + until * 1000 : Infinity;
  const tids = new Set(ev.filter((e) => e.name === 'thread_name' && e.args.name === 'CrRendererMain').map((e) => e.pid + ':' + e.tid));
  let s = 0; const by = {};
  for (const e of ev) if (tids.has(e.pid + ':' + e.tid) && e.ph === 'X' && e.tdur && e.ts < end) {
    if (e.name === 'RunTask') s += e.tdur;
    if (['FunctionCall', 'UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'EvaluateScript', 'RunMicrotasks'].includes(e.name)) by[e.name] = (by[e.name] || 0) + e.tdur; }
  return [s / 1000, by, frames(ev, tids)];
}

/* Per click on the page: the main thread's CPU from the task that handled
 * it to the end of the first task after it that painted (the frame that
 * shows it), in ms: what a click costs until it is seen, without what the
 * page does later or the test driver between clicks. */
function frames(ev, tids) {
  const main = ev.filter((e) => tids.has(e.pid + ':' + e.tid) && e.ph === 'X').sort((a, b) => a.ts - b.ts);
  const tasks = main.filter((e) => e.name === 'RunTask');
  const within = (t, f) => main.some((x) => x.ts >= t.ts && x.ts < t.ts + t.dur && f(x));
  const out = [];
  for (let k = 0; k < tasks.length; k++) {
    if (!within(tasks[k], (x) => x.name === 'EventDispatch' && x.args && x.args.data && x.args.data.type === 'click')) continue;
    let c = 0;
    for (let j = k; j < tasks.length; j++) {
      c += tasks[j].tdur || 0;
      if (within(tasks[j], (x) => x.name === 'Paint')) break;
    }
    out.push(c / 1000);
  }
  return out;
}
async function run(v) {
  const [where, css] = v.split('@');
  const [dir, pg] = where.split('+');
  const page = await browser.newPage({ viewport: { width: 1500, height: 850 } });
  await browser.startTracing(page, { path: TMP + '/ab-load.json', categories: cats });
  await page.goto(pageUrl(dir, pg));
  await page.waitForSelector('body[data-ready="1"]', { timeout: 60000 });
  const legacy = await page.evaluate(() => typeof window.TK.use !== 'function');
  const ready = await page.evaluate(() => (window.TK.use ? window.TK.use('app').inspect() : window.TK.timing).interactive);
  await browser.stopTracing();
  const load = cpu(TMP + '/ab-load.json', ready)[0];
  if (css) await page.evaluate((c) => { const s = new CSSStyleSheet(); s.replaceSync(c); document.adoptedStyleSheets = [s]; }, css);
  /* LLVM IR beside SASS, where the kernel has both (and a source to click) */
  const src = !!(await page.$('#src-pane .ln'));
  if (src && await page.$('#ir-pane button.tab[data-stage="llir"]:not(.missing)')) {
    await page.click('#ir-pane button.tab[data-stage="llir"]'); await page.waitForSelector('body[data-stage="llir"]'); }
  if (src && await page.$('#stage2 option[value="sass"]')) {
    await page.selectOption('#stage2', 'sass'); await page.waitForSelector('#ir2-pane:not([hidden]) .ln'); }
  const lines = !src ? [] : await page.evaluate(() => {
    const T = window.TK, seen = new Set();
    const [rows, file] = T.use ? [T.use('kernel').bind(T.use('panes').inspect().stage).src, T.use('panes').inspect().file]
      : [(T.state.bind[T.state.stage] || {}).src || [], T.state.file];
    for (const r of rows) if (r[0] === file) seen.add(r[1]); return [...seen].sort((a, b) => a - b); });
  const step = Math.max(1, Math.ceil(lines.length / 30)); const cs = [];
  await browser.startTracing(page, { path: TMP + '/ab-click.json', categories: cats });
  for (let i = 0; i < lines.length; i += step) { await clickLine(page, 'src-pane', lines[i]);
    cs.push(await page.evaluate(async () => { const T = window.TK, t = (T.use ? T.use('panes').inspect() : T.timing).clicks.at(-1);
      const t0 = performance.now();
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))); return t + (performance.now() - t0); })); }
  await browser.stopTracing();
  const [clk, by, cf] = cpu(TMP + '/ab-click.json');
  cf.sort((a, b) => a - b);
  if (!cs.length) cs.push(NaN);
  await browser.startTracing(page, { path: TMP + '/ab-pass.json', categories: cats });
  const pw = await page.evaluate(async () => { const t0 = performance.now(); document.getElementById('mode-passes').click();
    for (;;) { await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      if (document.querySelector('body[data-passes="1"] #pass-rows .drow, body[data-passes="1"] #pass-list .ps')) return performance.now() - t0; } });
  await browser.stopTracing();
  const pc = cpu(TMP + '/ab-pass.json')[0];
  const hs = await page.evaluate(() => (window.TK.use ? window.TK.use('panes').inspect() : window.TK.timing).clicks.slice()); hs.sort((a, b) => a - b); await page.close(); cs.sort((a, b) => a - b);
  return { legacy, hmed: hs[hs.length >> 1], ready, load, n: cs.length, clickcpu: clk / cs.length, by: Object.fromEntries(Object.entries(by).map(([k, x]) => [k, +(x / 1000 / cs.length).toFixed(1)])), med: cs[cs.length >> 1], p95: cs[Math.ceil(0.95 * cs.length) - 1], pw, pc,
    cfmed: cf[cf.length >> 1], cfp95: cf[Math.ceil(0.95 * cf.length) - 1] };
}
const res = variants.map(() => []);
/* a turn that fails (a wait run out on a loaded machine) is said and left out */
for (let r = 0; r < +turns; r++) for (let v = 0; v < variants.length; v++) {
  try {
    res[v].push(await run(variants[v]));
  } catch (e) {
    console.log(`turn ${r + 1} of ${variants[v]} failed: ${e.message.split("\n").slice(0, 4).join(" ")}`);
    await browser.stopTracing().catch(() => null);
    for (const p of browser.contexts().flatMap((c) => c.pages())) await p.close().catch(() => null);
  }
}
const min = (a) => Math.min(...a).toFixed(1);
variants.forEach((v, i) => { const R = res[i];
  if (!R.length) return;
  console.log(v.slice(0, 70));
  console.log(`   click handler (JS) median ${min(R.map((x) => x.hmed))} ms; ready wall ${min(R.map((x) => x.ready))} ms, load cpu ${min(R.map((x) => x.load))} ms | click to frame cpu median ${min(R.map((x) => x.cfmed))} p95 ${min(R.map((x) => x.cfp95))} ms, cpu/click ${min(R.map((x) => x.clickcpu))} ms (wall median ${min(R.map((x) => x.med))} p95 ${min(R.map((x) => x.p95))}) | pass mode wall ${min(R.map((x) => x.pw))} cpu ${min(R.map((x) => x.pc))}`);
  console.log('   per click cpu by phase (last turn):', JSON.stringify(R.at(-1).by)); });
await browser.close();
if (!process.env.KEEP) fs.rmSync(TMP, { recursive: true, force: true });
else console.log("traces kept in", TMP);
