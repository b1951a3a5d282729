// test_screens.mjs - every main view of the report at 1280x800 and
// 1600x1000 in Debian's Chromium, on real captures (sample_dumps/), each
// kept as a picture in the test's folder and checked for what a person
// would see as broken:
//   - the page never scrolls sideways (its scrollWidth fits the window),
//     and a kernel or compare page (an application, sized to the window)
//     not downwards either;
//   - each named panel of the view lies inside the window;
//   - nothing inside a panel runs out of it: every element of the panel
//     that no scrolling or clipping box holds lies within the panel's box
//     (text cut with an ellipsis is inside; text pushed out is not);
//   - a wrapped row of a pass diff is as tall as its text: no blank gap
//     under it, no text cut or drawn over the next row.
// The views: the index, a kernel page (source and TTGIR with SASS beside),
// pass mode on TritonGPUPipeline's diff, the hot lines panel of a profiled
// kernel, a comparison page.  The pictures are also what docs/img shows
// (tests/html/screens.sh copies them).
//
// Usage: run_browser.sh TKVIEW BUILD_DIR test_screens.mjs
//   TK_TEST_SAMPLES names sample_dumps; TK_SCREENS_OUT (optional) a folder
//   the pictures are copied to as well.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { launch, open as openPage } from './browser.mjs';
import { assert, finish, test } from './tap.mjs';

const [, , TKVIEW_ARG, BUILD, PW] = process.argv;
const TKVIEW = path.resolve(TKVIEW_ARG);
const SAMPLES = process.env.TK_TEST_SAMPLES;
const KEEP = process.env.TK_SCREENS_OUT || '';
const SIZES = [[1280, 800], [1600, 1000]];

/* the test's own folder: the reports and the pictures */
const tmp = fs.mkdtempSync(path.join(process.env.TMPDIR || os.tmpdir(), 'tkview-screens-'));
console.log('# pictures in ' + tmp);
function report(name, args) {
  const out = path.join(tmp, name);
  const p = spawnSync(TKVIEW, ['--html', out, ...args, '--quiet'], { encoding: 'utf8' });
  if (p.status !== 0) throw new Error('tkview --html ' + args.join(' ') + ': ' + p.stderr);
  return out;
}
const pageOf = (out, re) => pathToFileURL(path.join(out, fs.readdirSync(out).find((f) => re.test(f)))).href;

const profiled = report('profile', [path.join(SAMPLES, 'matmul_profile')]);
const passes = report('matmul', [path.join(SAMPLES, 'matmul')]);
const configs = report('configs', [path.join(SAMPLES, 'matmul_configs'), '--compare', '0:1']);

/* What is wrong with the page as laid out: a list of sentences (empty:
 * nothing).  PANELS: selectors of the panels the view shows; APP: the page
 * is sized to the window (no vertical scroll either). */
async function problems(page, panels, app) {
  return page.evaluate(([panels, app]) => {
    const out = [];
    const W = window.innerWidth, H = window.innerHeight, d = document.documentElement;
    if (d.scrollWidth > W) out.push('the page scrolls sideways: ' + d.scrollWidth + ' px wide in ' + W);
    if (app && d.scrollHeight > H) out.push('the page scrolls down: ' + d.scrollHeight + ' px high in ' + H);
    const name = (e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
      (e.className && typeof e.className === 'string' ? '.' + e.className.trim().split(/\s+/).join('.') : '');
    const clips = (e) => {
      const s = getComputedStyle(e);
      return s.overflowX !== 'visible' || s.overflowY !== 'visible';
    };
    for (const sel of panels) {
      const p = document.querySelector(sel);
      if (!p) {
        out.push(sel + ': not on the page');
        continue;
      }
      const r = p.getBoundingClientRect();
      if (!r.width || !r.height) {
        out.push(sel + ': not shown');
        continue;
      }
      /* a panel in a scrolling box (the hot lines in the info column) may
       * go below the window: that box scrolls */
      let scrolled = false;
      for (let a = p.parentElement; a && a !== document.body; a = a.parentElement) if (clips(a)) scrolled = true;
      if (r.left < -0.5 || r.top < -0.5 || r.right > W + 0.5 || (app && !scrolled && r.bottom > H + 0.5))
        out.push(sel + ': out of the window (' + [r.left, r.top, r.right, r.bottom].map(Math.round) + ' in ' + W + 'x' + H + ')');
      /* its elements that no box between them and the panel clips */
      const walk = (e) => {
        for (const c of e.children) {
          const s = getComputedStyle(c);
          if (s.display === 'none' || s.visibility === 'hidden' || s.position === 'fixed') continue;
          const b = c.getBoundingClientRect();
          if (b.width > 0 && b.height > 0 && (b.left < r.left - 1 || b.right > r.right + 1))
            out.push(sel + ': ' + name(c) + ' "' + (c.textContent || '').trim().slice(0, 40) + '" runs out of it (' +
              Math.round(b.left) + '-' + Math.round(b.right) + ' in ' + Math.round(r.left) + '-' + Math.round(r.right) + ')');
          else if (!clips(c)) walk(c);
        }
      };
      if (!clips(p) || p.scrollWidth <= p.clientWidth + 1) walk(p);
      else out.push(sel + ': its content is ' + p.scrollWidth + ' px wide in ' + p.clientWidth);
    }
    return out;
  }, [panels, app]);
}

/* Rows of the pass diff drawn wrapped whose height is not their text's:
 * a row taller than its longer side by a line or more leaves a blank gap,
 * a shorter one cuts its text (or, unclipped, draws it over the next). */
async function badRows(page) {
  return page.evaluate(() => {
    const out = [];
    for (const r of document.querySelectorAll('#pass-rows .drow.wrap')) {
      const h = r.getBoundingClientRect().height;
      let text = 0;
      for (const tx of r.querySelectorAll('.tx')) {
        const range = document.createRange();
        range.selectNodeContents(tx);
        text = Math.max(text, range.getBoundingClientRect().height);
      }
      if (text > h + 1 || h - text >= 18)
        out.push('row ' + r.dataset.k + ' is ' + Math.round(h) + ' px for ' + Math.round(text) + ' px of text: ' +
          (r.children[1].textContent || r.children[3].textContent).trim().slice(0, 50));
    }
    return out;
  });
}

const browser = await launch(PW);
const shots = [];

/* One view at each size: OPEN(page) brings the page there (after load). */
async function view(name, url, panels, open, app = true) {
  for (const [w, h] of SIZES) {
    await test(`${name} at ${w}x${h}: nothing off the window, no panel overflows`, async () => {
      const page = await openPage(browser, url, { width: w, height: h });
      if (app) await page.waitForSelector('body[data-ready="1"]', { timeout: 20000 });
      if (open) await open(page);
      await page.waitForTimeout(400);
      const file = path.join(tmp, `report-${name}-${w}x${h}.png`);
      await page.screenshot({ path: file });
      shots.push(file);
      const bad = await problems(page, panels, app);
      assert(bad.length === 0, bad.slice(0, 8).join('; '));
      assert(page.problems.length === 0, page.problems.join('; '));
      await page.close();
    });
  }
}

await view('index', pathToFileURL(path.join(configs, 'index.html')).href, ['header.top', 'dl.about', '#kernels', '#compares'], null, false);
await view('kernel', pageOf(profiled, /^k001-/) + '#source=matmul_profile.py:54&stage=ttgir',
  ['header.top', '#meta', '#src-pane .bar', '#ir-pane .bar', '#ir2-pane .bar', '#info'], async (page) => {
    await page.selectOption('#stage2', 'sass');
    await page.waitForSelector('#ir2-pane .ln');
  });
await view('hot', pageOf(profiled, /^k001-/), ['header.top', '#meta', '#hot', '#info'], async (page) => {
  await page.click('#toggle-hot');
  await page.waitForSelector('#hot-table tr[data-line]');
});
await view('passes', pageOf(passes, /^k001-/) + '#pass=TritonGPUPipeline',
  ['header.top', '#pass-view'], async (page) => {
    await page.waitForSelector('#pass-rows .drow');
    const bad = await badRows(page);
    assert(bad.length === 0, bad.slice(0, 5).join('; '));
  });
await view('compare', pageOf(configs, /^c001-/), ['header.top', '#first', '#cv-bar', '#cv-rows', '#cv-facts', '#cv-diff'], async (page) => {
  await page.waitForSelector('#cv-diff .drow');
});

await browser.close();
if (KEEP) {
  fs.mkdirSync(KEEP, { recursive: true });
  for (const f of shots) fs.copyFileSync(f, path.join(KEEP, path.basename(f)));
}
/* the pictures stay in the test's folder (its path is printed above): a
 * person looks at them; TMPDIR is the build's */
finish();
