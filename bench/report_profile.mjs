// report_profile.mjs - where the report's time goes: Chromium's CPU
// profiler (CDP Profiler, sampling every 100 us) and its trace (the
// renderer main thread's tasks by phase) over one step of the report,
// printed as the functions with the most self time and the phases' CPU.
// Asserts nothing; a tool to find what to change, not a benchmark
// (report_cpu.mjs and report_bench.mjs measure).
//
// Usage: node bench/report_profile.mjs PLAYWRIGHT_CORE_INDEX STEP REPORT_DIR [TOP]
//   STEP: load (the kernel page until ready), click (LLVM IR beside SASS,
//   every bound source line, at most 30), passes (entering pass mode).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { clickLine, kernelUrl, launch } from '../tests/html/browser.mjs';

const [PW, step, dir, topArg] = process.argv.slice(2);
const TOP = +(topArg || 25);
const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'tkview-report-prof-'));
const browser = await launch(PW);
const page = await browser.newPage({ viewport: { width: 1500, height: 850 } });
const cdp = await page.context().newCDPSession(page);
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
const cats = ['devtools.timeline', 'disabled-by-default-devtools.timeline'];

async function llirBesideSass() {
  await page.click('#ir-pane button.tab[data-stage="llir"]');
  await page.waitForSelector('body[data-stage="llir"]');
  await page.selectOption('#stage2', 'sass');
  await page.waitForSelector('#ir2-pane:not([hidden]) .ln');
}
const frame = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));

async function measured(fn) {
  await browser.startTracing(page, { path: TMP + '/t.json', categories: cats });
  await cdp.send('Profiler.start');
  await fn();
  const { profile } = await cdp.send('Profiler.stop');
  await browser.stopTracing();
  return profile;
}

let profile;
if (step === 'load') {
  profile = await measured(async () => {
    await page.goto(kernelUrl(dir));
    await page.waitForSelector('body[data-ready="1"]', { timeout: 60000 });
  });
  console.log('interactive', await page.evaluate(() => window.TK.use('app').inspect().interactive));
} else {
  await page.goto(kernelUrl(dir));
  await page.waitForSelector('body[data-ready="1"]', { timeout: 60000 });
  if (step === 'click') {
    await llirBesideSass();
    const lines = await page.evaluate(() => {
      const K = window.TK.use('kernel'), P = window.TK.use('panes').inspect();
      const seen = new Set();
      for (const r of K.bind(P.stage).src) if (r[0] === P.file) seen.add(r[1]);
      return [...seen].sort((a, b) => a - b);
    });
    const stride = Math.max(1, Math.ceil(lines.length / 30));
    profile = await measured(async () => {
      for (let i = 0; i < lines.length; i += stride) {
        await clickLine(page, 'src-pane', lines[i]);
        await frame();
      }
    });
  } else {
    profile = await measured(async () => {
      const t = await page.evaluate(async () => {
        const t0 = performance.now();
        document.getElementById('mode-passes').click();
        for (;;) {
          await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
          if (document.querySelector('body[data-passes="1"] #pass-rows .drow, body[data-passes="1"] #pass-list .ps'))
            return performance.now() - t0;
        }
      });
      console.log('pass mode wall', t.toFixed(1));
    });
  }
}

/* self time per function (the samples' deltas), and per URL */
const self = new Map(), byId = new Map();
for (const n of profile.nodes) byId.set(n.id, n);
const dt = profile.timeDeltas;
let total = 0;
profile.samples.forEach((id, k) => {
  const n = byId.get(id), d = (dt[k + 1] || 0) / 1000;
  const f = n.callFrame;
  const key = (f.functionName || '(anon)') + ' ' + path.basename(f.url || '') + ':' + (f.lineNumber + 1);
  self.set(key, (self.get(key) || 0) + d);
  if (f.functionName !== '(idle)' && f.functionName !== '(program)') total += d;
});
console.log('JS profile, self ms (non-idle total', total.toFixed(1), 'ms)');
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log('  ', v.toFixed(1).padStart(8), k);

const ev = JSON.parse(fs.readFileSync(TMP + '/t.json')).traceEvents;
const tids = new Set(ev.filter((e) => e.name === 'thread_name' && e.args.name === 'CrRendererMain').map((e) => e.pid + ':' + e.tid));
const by = {};
let task = 0;
for (const e of ev) if (tids.has(e.pid + ':' + e.tid) && e.ph === 'X' && e.tdur) {
  if (e.name === 'RunTask') task += e.tdur;
  else by[e.name] = (by[e.name] || 0) + e.tdur;
}
if (process.env.TIMELINE) {
  /* the main thread's tasks over 1 ms of CPU, in order: start (ms after the
   * first), wall, CPU, and what ran in them */
  const main = ev.filter((e) => tids.has(e.pid + ':' + e.tid) && e.ph === 'X');
  const t0 = Math.min(...main.filter((e) => e.name === 'RunTask').map((e) => e.ts));
  for (const e of main) if (e.name === 'RunTask' && e.tdur > 1000) {
    const inner = main.filter((x) => x !== e && x.ts >= e.ts && x.ts < e.ts + e.dur && x.tdur > 500 && x.name !== 'RunTask');
    const what = inner.map((x) => x.name + (x.args && x.args.data && x.args.data.url ? '(' + path.basename(x.args.data.url) + ')' : x.args && x.args.data && x.args.data.functionName ? '(' + x.args.data.functionName + ')' : '') + ' ' + (x.tdur / 1000).toFixed(1)).slice(0, 6).join(', ');
    console.log('  @' + ((e.ts - t0) / 1000).toFixed(1).padStart(7), 'wall', (e.dur / 1000).toFixed(1).padStart(6), 'cpu', (e.tdur / 1000).toFixed(1).padStart(6), what);
  }
}
console.log('main thread CPU in tasks', (task / 1000).toFixed(1), 'ms; by event (nested counted in each):');
for (const [k, v] of Object.entries(by).sort((a, b) => b[1] - a[1]).slice(0, 14)) console.log('  ', (v / 1000).toFixed(1).padStart(8), k);
await browser.close();
fs.rmSync(TMP, { recursive: true, force: true });
