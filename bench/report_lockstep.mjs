// report_lockstep.mjs - a click's CPU in two (or more) reports compared
// in lockstep: each report open in its own browser context (its own
// renderer), the same source lines clicked in turn in each (A, B, A,
// B, ...), one trace over all of them.  On the shared 2-core VM a turn of
// report_cpu.mjs moves by 2x with the load; here both reports see the same
// load click by click, so a change of a few per cent can be told from the
// noise.  Prints, per report: the main thread's CPU from each click to
// the end of the frame that shows it (as report_cpu.mjs counts it: mean,
// median, p90, p95, max) and its split by phase (nested events counted in
// each).  Asserts nothing.
//
// Usage: node bench/report_lockstep.mjs PLAYWRIGHT_CORE_INDEX ROUNDS REPORT_DIR[@CSS] ...
//   REPORT_DIR: `tkview --html` outputs of one capture (their k001 page, LLVM IR beside
//   SASS; every source line bound in LLVM IR clicked once a round, in an
//   order that jumps); @CSS: a style sheet adopted by the page first (to
//   find what a rule costs).  Each round clicks in another order of the
//   reports.
import fs from 'node:fs';
import os from 'node:os';
import { clickLine, kernelUrl, launch } from '../tests/html/browser.mjs';

const [PW, rounds, ...vs] = process.argv.slice(2);
const TMP = fs.mkdtempSync(os.tmpdir() + '/tkview-lockstep-');
const browser = await launch(PW);
const cats = ['devtools.timeline', 'disabled-by-default-devtools.timeline'];
const PHASES = ['FunctionCall', 'ParseHTML', 'UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'Layerize'];

/* Per renderer process of the trace FILE: a file: URL it loaded (the
 * page or a script of its report, from its events' data) and, per click, the CPU from the task that handled
 * it to the end of the first task after it that painted, with phases. */
function perProcess(file) {
  const ev = JSON.parse(fs.readFileSync(file)).traceEvents;
  const tids = new Set(ev.filter((e) => e.name === 'thread_name' && e.args.name === 'CrRendererMain').map((e) => e.pid + ':' + e.tid));
  const byPid = new Map();
  for (const e of ev) if (tids.has(e.pid + ':' + e.tid) && e.ph === 'X') {
    if (!byPid.has(e.pid)) byPid.set(e.pid, { url: '', main: [] });
    const p = byPid.get(e.pid);
    p.main.push(e);
    const u = (e.args && ((e.args.data && e.args.data.url) || (e.args.beginData && e.args.beginData.url))) || '';
    if (!p.url && u.startsWith('file:')) p.url = u;
  }
  for (const p of byPid.values()) {
    const main = p.main.sort((a, b) => a.ts - b.ts);
    const tasks = main.filter((e) => e.name === 'RunTask');
    let at = 0;
    const inside = tasks.map((t) => {
      while (at < main.length && main[at].ts < t.ts) at++;
      const r = [];
      for (let j = at; j < main.length && main[j].ts < t.ts + t.dur; j++) r.push(main[j]);
      return r;
    });
    p.clicks = [];
    for (let k = 0; k < tasks.length; k++) {
      if (!inside[k].some((x) => x.name === 'EventDispatch' && x.args && x.args.data && x.args.data.type === 'click')) continue;
      let c = 0;
      const ph = {};
      for (let j = k; j < tasks.length; j++) {
        c += tasks[j].tdur || 0;
        for (const x of inside[j]) if (PHASES.includes(x.name)) ph[x.name] = (ph[x.name] || 0) + (x.tdur || 0) / 1000;
        if (inside[j].some((x) => x.name === 'Paint')) break;
      }
      p.clicks.push({ cpu: c / 1000, ph });
    }
  }
  return [...byPid.values()];
}

const pages = [];
for (const v of vs) {
  const [dir, css] = v.split('@');
  const ctx = await browser.newContext({ viewport: { width: 1500, height: 850 } });
  const page = await ctx.newPage();
  const url = kernelUrl(dir);
  await page.goto(url);
  await page.waitForSelector('body[data-ready="1"]', { timeout: 60000 });
  if (css) await page.evaluate((c) => { const s = new CSSStyleSheet(); s.replaceSync(c); document.adoptedStyleSheets = [s]; }, css);
  await page.click('#ir-pane button.tab[data-stage="llir"]');
  await page.waitForSelector('body[data-stage="llir"]');
  await page.selectOption('#stage2', 'sass');
  await page.waitForSelector('#ir2-pane:not([hidden]) .ln');
  /* the lines from the first report (the others may be older reports,
   * without TK.use: report_cpu.mjs reads those too) */
  const lines = pages.length ? null : await page.evaluate(() => {
    const T = window.TK, seen = new Set(), S = T.use('panes').inspect();
    for (const r of T.use('kernel').bind(S.stage).src) if (r[0] === S.file) seen.add(r[1]);
    return [...seen].sort((a, b) => a - b);
  });
  pages.push({ v, page, lines, dir: url.slice(0, url.lastIndexOf('/') + 1), clicks: [] });
}
const lines = pages[0].lines;
/* a stride that shares no factor with the number of lines: each line
 * once a round, in an order that jumps */
const gcd = (a, b) => (b ? gcd(b, a % b) : a);
let stride = 7;
while (lines.length > 1 && gcd(stride, lines.length) !== 1) stride++;
for (let r = 0; r < +rounds; r++) {
  await browser.startTracing(pages[0].page, { path: TMP + '/t.json', categories: cats });
  for (let i = 0; i < lines.length; i++) for (let k = 0; k < pages.length; k++) {
    const pg = pages[(k + r) % pages.length].page;
    await clickLine(pg, 'src-pane', lines[(i * stride + r) % lines.length]);
    await pg.evaluate(() => new Promise((res) => requestAnimationFrame(() => setTimeout(res, 0))));
  }
  await browser.stopTracing();
  for (const p of perProcess(TMP + '/t.json')) {
    const pg = pages.find((x) => p.url.startsWith(x.dir));
    if (pg) pg.clicks.push(...p.clicks);
  }
}
const stats = (a) => {
  a = a.slice().sort((x, y) => x - y);
  const q = (f) => a[Math.ceil(f * a.length) - 1].toFixed(1);
  return `n ${a.length} mean ${(a.reduce((s, x) => s + x, 0) / a.length).toFixed(1)} median ${a[a.length >> 1].toFixed(1)} p90 ${q(0.9)} p95 ${q(0.95)} max ${a.at(-1).toFixed(1)} ms`;
};
for (const p of pages) {
  console.log(p.v.slice(0, 100));
  if (!p.clicks.length) { console.log('   no click found in the traces'); continue; }
  const ph = {};
  for (const c of p.clicks) for (const [k, x] of Object.entries(c.ph)) ph[k] = (ph[k] || 0) + x / p.clicks.length;
  console.log('   click to frame cpu ' + stats(p.clicks.map((c) => c.cpu)));
  console.log('   by phase (mean): ' + Object.entries(ph).map(([k, x]) => k + ' ' + x.toFixed(1)).join(', '));
}
await browser.close();
fs.rmSync(TMP, { recursive: true, force: true });
