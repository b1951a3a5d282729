// report_bench.mjs - the HTML report in Debian's Chromium, timed, never
// asserted (issue 25): for each report given, the kernel page's time to
// interactive, the time a click on a source line takes to the end of the
// next frame with LLVM IR beside SASS (its median and 95th percentile over
// every bound source line, at most 60), and the time to enter pass mode
// (click on the mode button to the first pass drawn).  Prints one line per
// figure with the target; `--json` prints them as one JSON object.
//
// Several reports (the same capture written by a baseline build and by this
// one) are measured in turns, so that both see the same moments of a
// shared machine.
//
// A report older than the TK.define modules (1fece7b's single report.js,
// the baseline) is read through what it exposed instead: TK.timing
// ({interactive, clicks}) and TK.state (the stage, the file, each stage's
// bind table).  A report that exposes neither is "not measurable" and says
// why; the other reports are still measured.
//
// Usage: node report_bench.mjs PLAYWRIGHT_CORE_INDEX [--runs N] [--json]
//          LABEL=REPORT_DIR ...
//   run it through bench/report_bench.sh, which installs playwright-core as
//   the browser tests do.
import path from 'node:path';
import { clickLine, kernelUrl, launch, open } from '../tests/html/browser.mjs';

const argv = process.argv.slice(2);
const PW = argv.shift();
let runs = 3, json = false;
const reports = [];
while (argv.length) {
  const a = argv.shift();
  if (a === '--runs') runs = +argv.shift();
  else if (a === '--json') json = true;
  else {
    const eq = a.indexOf('=');
    reports.push({ label: a.slice(0, eq), dir: path.resolve(a.slice(eq + 1)) });
  }
}
const TARGET = { ready_ms: 300, click_p95_ms: 50, passes_ms: 300 };

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] : NaN;
};

/* What the page exposes to be measured: 'modules' (TK.use, this tree's
 * report), 'legacy' (TK.timing and TK.state, 1fece7b's report.js) or null. */
const flavour = (page) => page.evaluate(() => {
  const TK = window.TK || {};
  if (typeof TK.use === 'function') return 'modules';
  if (TK.timing && TK.state && TK.state.bind) return 'legacy';
  return null;
});

/* The readings, the same for both flavours (the click's is in measure()). */
const READ = {
  modules: {
    interactive: () => window.TK.use('app').inspect().interactive,
    boundLines: () => {
      const K = window.TK.use('kernel'), P = window.TK.use('panes').inspect();
      const st = P.stage, f = P.file, seen = new Set();
      for (const r of K.bind(st).src) if (r[0] === f) seen.add(r[1]);
      return [...seen].sort((a, b) => a - b);
    },
  },
  legacy: {
    interactive: () => window.TK.timing.interactive,
    boundLines: () => {
      const S = window.TK.state, b = S.bind[S.stage], seen = new Set();
      for (const r of (b && b.src) || []) if (r[0] === S.file) seen.add(r[1]);
      return [...seen].sort((a, b2) => a - b2);
    },
  },
};

class NotMeasurable extends Error {}

async function measure(browser, dir) {
  const page = await open(browser, kernelUrl(dir));
  await page.waitForSelector('body[data-ready="1"]', { timeout: 60000 });
  const kind = await flavour(page);
  if (!kind) {
    await page.close();
    throw new NotMeasurable('its page exposes neither TK.use (modules) nor TK.timing and TK.state (1fece7b)');
  }
  const R = READ[kind];
  const ready = await page.evaluate(R.interactive);
  // LLVM IR beside SASS, when the kernel has both
  const stages = await page.$$eval('#ir-pane button.tab', (b) => b.map((e) => e.dataset.stage));
  if (stages.includes('llir')) {
    await page.click('#ir-pane button.tab[data-stage="llir"]');
    await page.waitForSelector('body[data-stage="llir"]');
  }
  const second = await page.$$eval('#stage2 option', (o) => o.map((e) => e.value));
  if (second.includes('sass')) {
    await page.selectOption('#stage2', 'sass');
    await page.waitForSelector('#ir2-pane:not([hidden]) .ln');
  }
  // every source line of the kernel's file bound to the stage shown
  const lines = await page.evaluate(R.boundLines);
  const step = Math.max(1, Math.ceil(lines.length / 60));
  const clicks = [];
  for (let i = 0; i < lines.length; i += step) {
    await clickLine(page, 'src-pane', lines[i]);
    // the click's handler ran; wait for the frame that shows it
    clicks.push(await page.evaluate(async (kind) => {
      const T = window.TK, t = (kind === 'modules' ? T.use('panes').inspect() : T.timing).clicks.at(-1);
      const t0 = performance.now();
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      return t + (performance.now() - t0);
    }, kind));
  }
  // pass mode: the click to the first pass drawn
  let passes = NaN;
  if (await page.$('#mode-passes')) {
    passes = await page.evaluate(async () => {
      const t0 = performance.now();
      document.getElementById('mode-passes').click();
      for (;;) {
        await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
        if (document.querySelector('body[data-passes="1"] #pass-rows .drow, body[data-passes="1"] #pass-list .ps'))
          return performance.now() - t0;
        if (performance.now() - t0 > 60000) return NaN;
      }
    });
  }
  await page.close();
  return { ready_ms: ready, click_median_ms: pct(clicks, 50), click_p95_ms: pct(clicks, 95),
    clicks: clicks.length, passes_ms: passes, reading: kind };
}

const browser = await launch(PW);
const best = {}, unmeasurable = {};
for (let r = 0; r < runs; r++)
  for (const rep of reports) {
    if (unmeasurable[rep.label]) continue;
    let m;
    try {
      m = await measure(browser, rep.dir);
    } catch (e) {
      if (!(e instanceof NotMeasurable)) throw e;
      unmeasurable[rep.label] = e.message;
      continue;
    }
    const b = best[rep.label];
    if (!b) best[rep.label] = m;
    else for (const k of Object.keys(m)) if (k !== 'clicks' && k !== 'reading' && !(b[k] <= m[k])) b[k] = m[k];
  }
await browser.close();
if (json) {
  console.log(JSON.stringify({ target: TARGET, runs, reports: best, not_measurable: unmeasurable }));
} else {
  console.log(`report in Chromium: best of ${runs} turns (each turn: every report once)`);
  for (const [label, why] of Object.entries(unmeasurable))
    console.log(`  ${label}: not measurable: ${why}`);
  for (const [label, m] of Object.entries(best)) {
    console.log(`  ${label}: kernel page interactive ${m.ready_ms.toFixed(0)} ms (target ${TARGET.ready_ms}), ` +
      `click to frame median ${m.click_median_ms.toFixed(1)} p95 ${m.click_p95_ms.toFixed(1)} ms over ${m.clicks} ` +
      `source lines (target p95 ${TARGET.click_p95_ms}), pass mode ${m.passes_ms.toFixed(0)} ms (target ${TARGET.passes_ms})`);
  }
}
