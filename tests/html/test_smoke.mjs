// test_smoke.mjs - every capture's report, clicked through in Debian's
// Chromium from file://.  Prints TAP: one test per capture.
//
// This is a broad smoke test, not a test of hand-read expectations (those are
// in test_report.mjs).  What it compares is the page against the CLI: the IR
// lines the page highlights for a source line must be the ones
// `tkview bind --source FILE:LINE --json` lists, the stack it shows for an
// IR line the one `tkview bind --ir STAGE:LINE --json` lists, the IR line
// counts of every source line the ones `tkview refs --json` lists.  The answers
// come from libtkdump, so a mismatch means the report lost or mangled one on
// its way to the page, not that the binding itself is wrong.
//
// Inputs: every folder under $TK_TEST_DUMPS, every bundle in sample_dumps/,
// and every folder in $TK_SMOKE_EXTRA (colon-separated; for fresh captures
// by hand).  At most $TK_SMOKE_MAX kernels per input (default 4; 0: all),
// picked deterministically: the largest, the first, then evenly spaced.
// TK_KEEP=1 keeps the reports (the path is printed).
//
// Usage: run_browser.sh TKVIEW BUILD_DIR test_smoke.mjs
//   (which installs playwright-core into BUILD_DIR/npm and passes its path)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { clickLine, launch, open as openPage } from './browser.mjs';
import { counts, finish, test } from './tap.mjs';

const [, , TKVIEW_ARG, BUILD_ARG, PW] = process.argv;
const TKVIEW = path.resolve(TKVIEW_ARG);
const BUILD = path.resolve(BUILD_ARG);
const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..', '..');
const MAX_KERNELS = process.env.TK_SMOKE_MAX !== undefined ? +process.env.TK_SMOKE_MAX : 4;
/* A kernel's stages as its page lists them: the library's list for its
 * backend (ttir ttgir llir, then ptx sass for NVIDIA or amdgcn for AMD). */
const stagesOf = (meta) => Object.keys(meta.stages);

/* ---- TAP ----------------------------------------------------------------- */

function note(s) {
  console.log('# ' + s);
}
function assert(c, msg) {
  if (!c) throw new Error(msg);
}
function same(got, want, msg, names = ['got', 'want']) {
  const a = JSON.stringify(got), b = JSON.stringify(want);
  const cut = (x) => (x.length > 600 ? x.slice(0, 600) + '...' : x);
  if (a !== b) throw new Error(`${msg}: ${names[0]} ${cut(a)}, ${names[1]} ${cut(b)}`);
}
const PAGE_CLI = ['page', 'CLI'];

/* ---- the inputs ----------------------------------------------------------- */

function dirsIn(d) {
  if (!d || !fs.existsSync(d)) return [];
  return fs.readdirSync(d).map((e) => path.join(d, e)).filter((p) => fs.statSync(p).isDirectory()).sort();
}
const inputs = [];
for (const d of dirsIn(process.env.TK_TEST_DUMPS)) inputs.push(['dumps/' + path.basename(d), d]);
// The bundles: sample_dumps/raw holds captures packed as .tar.xz (its README), no bundle.
for (const d of dirsIn(path.join(ROOT, 'sample_dumps'))) {
  if (fs.existsSync(path.join(d, 'manifest.json'))) inputs.push(['sample_dumps/' + path.basename(d), d]);
}
for (const d of (process.env.TK_SMOKE_EXTRA || '').split(':').filter(Boolean)) inputs.push(['extra/' + path.basename(path.resolve(d)), path.resolve(d)]);
/* A folder of pass dump files alone (no final stages): vector_add's two. */
if (process.env.TK_TEST_DUMPS && fs.existsSync(path.join(process.env.TK_TEST_DUMPS, 'vector_add', 'stderr.txt'))) {
  const po = fs.mkdtempSync(path.join(os.tmpdir(), 'tkview-smoke-passes-only-'));
  for (const f of ['mlir_passes.txt', 'stderr.txt']) fs.copyFileSync(path.join(process.env.TK_TEST_DUMPS, 'vector_add', f), path.join(po, f));
  inputs.push(['passes-only/vector_add', po]);
  process.on('exit', () => fs.rmSync(po, { recursive: true, force: true }));
}
if (!process.env.TK_TEST_DUMPS || !fs.existsSync(process.env.TK_TEST_DUMPS)) note('no shared captures (TK_TEST_DUMPS): sample_dumps/ only');

/* ---- the CLI --------------------------------------------------------------- */

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tkview-smoke-'));

/* Exit 1 is "the query matched nothing" (cli.h): still an answer. */
function cli(args, nothingOk = false) {
  const p = spawnSync(TKVIEW, args, { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (p.status !== 0 && !(nothingOk && p.status === 1 && p.stdout)) throw new Error(`tkview ${args.join(' ')}: exit ${p.status}: ${(p.stderr || '').trim()}`);
  return p.stdout;
}
const cliCache = new Map();
function cliJson(args) {
  const key = args.join('\0');
  if (!cliCache.has(key)) cliCache.set(key, JSON.parse(cli([...args, '--json'], true)));
  return cliCache.get(key);
}
/* IR lines the CLI binds to FILE:LINE in STAGE of kernel IDX (match: called or exact). */
/* The lines `tkview bind --source` gives for STAGE; CODE: only those it
 * marks as instructions (no "directive": true), which "k of n" counts. */
function cliSource(input, idx, file, line, stage, exact, code = false) {
  const j = cliJson(['bind', input, '--source', file + ':' + line, '--kernel', String(idx), ...(exact ? ['--exact'] : [])]);
  assert(j.kernels.length === 1, `bind --source ${file}:${line} --kernel ${idx}: ${j.kernels.length} kernels`);
  return (j.kernels[0].stages[stage] || []).filter((l) => !code || !l.directive).map((l) => l.line);
}
/* Every source line STAGE refers to: [path, line, exact, called], sorted. */
const byPathLine = (a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]);
function cliRefs(input, idx, stage) {
  const j = cliJson(['refs', input, '--kernel', String(idx)]);
  assert(j.length === 1, `refs --kernel ${idx}: ${j.length} kernels`);
  return (j[0].stages[stage] || []).map((r) => [r.file, r.line, r.exact, r.called]).sort(byPathLine);
}
function cliIR(input, idx, stage, line) {
  return cliJson(['bind', input, '--ir', stage + ':' + line, '--kernel', String(idx)]);
}

/* data/kNNN/meta.js is TK.put("kNNN/meta", {...}): run it with a stub TK. */
function readMeta(out, kid) {
  let v = null;
  vm.runInNewContext(fs.readFileSync(path.join(out, 'data', kid, 'meta.js'), 'utf8'), { TK: { put: (k, x) => { v = x; } } });
  return v;
}

/* The kernels to open: the largest (all stages' lines), the first, then
 * evenly spaced, MAX_KERNELS at most (0: all). */
function sample(metas) {
  const n = metas.length;
  if (!MAX_KERNELS || n <= MAX_KERNELS) return metas.map((_, i) => i);
  const size = (m) => stagesOf(m).reduce((s, st) => s + (m.stages[st].missing ? 0 : m.stages[st].lines), 0);
  let big = 0;
  metas.forEach((m, i) => { if (size(m) > size(metas[big])) big = i; });
  const pick = new Set([big]);
  for (let k = 0; pick.size < MAX_KERNELS && k < MAX_KERNELS * 2; k++) pick.add(Math.floor((k * n) / MAX_KERNELS) % n);
  for (let i = 0; pick.size < MAX_KERNELS; i++) pick.add(i);
  return [...pick].sort((a, b) => a - b);
}

/* ---- the browser ----------------------------------------------------------- */

const browser = await launch(PW);
/* The pages time out sooner than playwright's default: one stuck step must
 * not eat the whole test's time. */
async function open(url) {
  const page = await openPage(browser, url);
  page.setDefaultTimeout(10000);
  return page;
}

/* The code views draw only the lines in view: scroll PANE over every line of
 * WANT and return [line, has class CLS] of every row drawn on the way, so
 * that both "every wanted line is marked" and "no other drawn line is" can
 * be checked. */
async function scanMarks(page, pane, want, cls = 'hl') {
  return page.evaluate(async ([pane, want, cls]) => {
    const code = document.querySelector(`#${pane} .code`);
    const S = window.TK.use('panes').inspect(), K = window.TK.use('kernel');
    const stage = pane === 'ir2-pane' ? S.stage2 : S.stage;
    /* lines that only state a location are folded away while locations
     * are hidden: never drawn, so not looked for */
    const folded = (n) => pane !== 'src-pane' && S.fold && K.isLocation(stage, n);
    const seen = new Map();
    const grab = () => {
      /* a line matched on the innermost frame only is marked hl-approx */
      for (const e of code.querySelectorAll('.ln'))
        seen.set(+e.dataset.n, e.classList.contains(cls) || e.classList.contains(cls + '-approx'));
    };
    const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
    grab();
    for (const n of want) {
      if (seen.has(n) || folded(n)) {
        if (folded(n)) seen.set(n, true);
        continue;
      }
      code.scrollTop = Math.max(0, ((code.tkRowOf ? code.tkRowOf(n) : n) - 5) * 18);
      for (let k = 0; k < 20 && !code.querySelector(`.ln[data-n="${n}"]`); k++) await frame();
      grab();
    }
    return [...seen].sort((a, b) => a[0] - b[0]);
  }, [pane, want, cls]);
}
async function checkMarks(page, pane, want, what) {
  const seen = await scanMarks(page, pane, want);
  const drawn = new Map(seen);
  const missing = want.filter((n) => drawn.get(n) !== true);
  const extra = seen.filter(([n, on]) => on && !want.includes(n)).map(([n]) => n);
  if (missing.length || extra.length)
    throw new Error(`${what}: lines not highlighted ${JSON.stringify(missing.slice(0, 20))}, highlighted but not in the CLI's answer ${JSON.stringify(extra.slice(0, 20))} (CLI: ${want.length} lines)`);
}

/* The stacks #info shows, as the CLI writes them: [[path, line, col], ...]. */
async function shownStacks(page) {
  return page.$$eval('#info ol.stack', (ols) => ols.map((ol) => [...ol.querySelectorAll('button.frame')].map((b) => {
    const m = /:(\d+)(?::(\d+))?$/.exec(b.textContent);
    return [b.title.replace(/ \(source not found\)$/, ''), m ? +m[1] : -1, m && m[2] ? +m[2] : 0];
  })));
}
const cliStacks = (ln) => ln.stacks.map((s) => s.map((f) => [f.file, f.line, f.col]));

async function stageTab(page, stage) {
  await page.click(`#ir-pane button.tab[data-stage="${stage}"]`);
  await page.waitForSelector(`body[data-stage="${stage}"]`);
  await page.waitForFunction((st) => {
    const K = window.TK.use('kernel');
    return window.TK.use('panes').inspect().stage === st && (K.meta().stages[st].missing || (K.text(st) && K.bind(st)));
  }, stage);
}

/* The bound source line of STAGE with the most IR lines ("and what it
 * called"), read from the data the gutter markers are drawn from; in the
 * main file when it has one with its source, else in any file shown. */
async function busiestLine(page, stage) {
  return page.evaluate((stage) => {
    const K = window.TK.use('kernel'), expand = window.TK.use('data').expand, files = K.files();
    const bind = K.bind(stage);
    if (!bind || !bind.src) return null;
    const rows = bind.src.filter((r) => files[r[0]] && files[r[0]][1]);
    const best = (rs) => {
      let b = null, n = -1;
      for (const r of rs) {
        const c = expand(r[3]).length;
        if (c > n || (c === n && (r[0] < b[0] || (r[0] === b[0] && r[1] < b[1])))) { n = c; b = r; }
      }
      return b && n > 0 ? { file: b[0], path: files[b[0]][0], line: b[1], n } : null;
    };
    return best(rows.filter((r) => r[0] === K.meta().main)) || best(rows);
  }, stage);
}

async function firstLocated(page, stage) {
  return page.evaluate((st) => {
    /* the first located instruction (a .loc may be folded away) */
    const K = window.TK.use('kernel'), b = K.bind(st);
    return b && b.line ? b.line.findIndex((x, i) => x && K.isCode(st, i + 1)) + 1 : 0;
  }, stage);
}

async function showFile(page, file) {
  if (await page.evaluate((f) => window.TK.use('panes').inspect().file === f, file)) return;
  await page.selectOption('#srcfile', String(file));
  await page.waitForFunction((f) => window.TK.use('panes').inspect().file === f && window.TK.use('kernel').sourceText(f) &&
    document.querySelector('#src-pane .ln'), file);
}

const groupsShown = (page) => page.evaluate(() => window.TK.use('passes').inspect().group);
async function waitBar(page, prefix) {
  await page.waitForFunction((p) => {
    const b = document.querySelector('#pass-bar strong');
    return b && b.textContent.startsWith(p);
  }, prefix);
}
/* A diff on screen: its +added -removed must be the rows of its sides, and
 * the diff pane's items its rows and change headings: the pane draws only
 * the items in view (diffview.js), at the top when a diff is shown, and
 * its scroll height holds them all, unless the report cut the diff. */
async function checkDiff(page, what) {
  const r = await page.evaluate(() => {
    const P = window.TK.use('passes').inspect(), d = P.diff;
    if (!d) return null;
    const kinds = d.groups.flat().map((x) => x[0]);
    const box = document.getElementById('pass-rows');
    const drawn = [...box.querySelectorAll('.drow, .dgroup')].map((e) => +e.dataset.k);
    return { added: d.added, removed: d.removed, cut: d.cut || 0, groups: d.groups.length, rows: kinds.length,
      ins: kinds.filter((k) => k === 'i' || k === 'r').length, del: kinds.filter((k) => k === 'd' || k === 'r').length,
      win: P.view.window(), drawn, heads: box.querySelectorAll('.dgroup').length, scroll: box.scrollHeight };
  });
  assert(r, what + ': no diff shown');
  if (!r.cut) same([r.ins, r.del], [r.added, r.removed], what + ': rows added/removed against the +/- counts', ['rows', 'counts']);
  const w = r.win, seen = Math.min(w.items, 30);
  same([w.items, w.first, r.drawn.length >= seen, r.drawn.every((k, i) => k === w.first + i), r.scroll >= w.items * w.rowH],
    [r.rows + r.groups, 0, true, true, true], what + ': items (rows and headings), the first ones drawn in order, all scrollable');
  assert(r.heads >= 1 || !r.rows, what + ': no change heading');
  return r;
}

/* ---- one kernel page --------------------------------------------------------- */

async function kernel(input, out, idx, pageFile, errs) {
  const meta = readMeta(out, 'k' + String(idx + 1).padStart(3, '0'));
  const who = `k${String(idx + 1).padStart(3, '0')} ${meta.name}`;
  const page = await open(pathToFileURL(path.join(out, pageFile)).href);
  const step = async (what, fn) => {
    const t = Date.now();
    try {
      await fn();
      if (process.env.TK_SMOKE_PROFILE) note(`  ${what}: ${Date.now() - t} ms`);
    } catch (e) {
      errs.push(`${who}: ${what}: ${String(e && e.message ? e.message : e).split('\n')[0]}`);
    }
  };
  const t0 = Date.now();
  await page.waitForSelector('body[data-ready]', { timeout: 20000 });
  const state = await page.getAttribute('body', 'data-ready');
  if (state !== '1') {
    errs.push(`${who}: page not ready (data-ready=${state}): ${await page.textContent('body .why').catch(() => '')}`);
    errs.push(...page.problems.map((p) => `${who}: ${p}`));
    await page.close();
    return;
  }
  const inter = await page.evaluate(() => window.TK.use('app').inspect().interactive);
  note(`${who}: ready in ${Date.now() - t0} ms (interactive ${inter.toFixed(0)} ms after navigation start)`);

  const present = stagesOf(meta).filter((s) => !meta.stages[s].missing);
  // a kernel known from its pass dumps only opens on its passes
  const startMode = await page.evaluate(() => (document.getElementById('pass-view').hidden ? 'kernel' : 'passes'));
  if (startMode !== (present.length ? 'kernel' : 'passes')) errs.push(`${who}: opened in ${startMode} mode with ${present.length} stages`);
  if (startMode === 'passes') await page.click('#mode-kernel');
  let exactDone = false;
  for (const st of stagesOf(meta)) {
    await step(`stage tab ${st}`, async () => {
      await stageTab(page, st);
      if (meta.stages[st].missing) {
        const why = await page.textContent('#ir-pane .why');
        assert(why && why.startsWith('No '), 'a missing stage says why: ' + why);
      }
    });
    if (meta.stages[st].missing) continue;
    // every source line's counts (the gutter numbers), not only the one clicked
    await step(`${st}: IR line counts of every source line`, async () => {
      const rows = await page.evaluate((st) => {
        const K = window.TK.use('kernel'), expand = window.TK.use('data').expand, files = K.files();
        /* the counts the page shows: instructions only (r[4], r[5]) */
        return K.bind(st).src.map((r) => [files[r[0]] ? files[r[0]][0] : '?', r[1], r[4], r[5]]);
      }, st);
      const want = cliRefs(input, idx, st);
      const key = (r) => r.join(':');
      const got = new Set(rows.map(key)), exp = new Set(want.map(key));
      const lost = want.filter((r) => !got.has(key(r))), more = rows.filter((r) => !exp.has(key(r)));
      if (lost.length || more.length)
        throw new Error(`${lost.length} of the CLI's ${want.length} [file, line, exact, called] not on the page (${JSON.stringify(lost.slice(0, 3))}), ${more.length} only on the page (${JSON.stringify(more.slice(0, 3))})`);
    });
    const pick = await busiestLine(page, st);
    let hit = 0;
    if (pick) await step(`${st}: click source line ${pick.path}:${pick.line}`, async () => {
      await showFile(page, pick.file);
      await clickLine(page, 'src-pane', pick.line);
      const want = cliSource(input, idx, pick.path, pick.line, st, false);
      const wantCode = cliSource(input, idx, pick.path, pick.line, st, false, true);
      same(await page.evaluate(() => window.TK.use('panes').inspect().hits), wantCode, 'IR instructions of the source line', PAGE_CLI);
      await checkMarks(page, 'ir-pane', want, 'IR pane');
      hit = wantCode[0] || 0;
    });
    if (hit && !exactDone) {
      exactDone = true;
      await step(`${st}: "this line only" on ${pick.path}:${pick.line}`, async () => {
        await page.click('#mode-exact');
        try {
          const wx = cliSource(input, idx, pick.path, pick.line, st, true);
          const wxCode = cliSource(input, idx, pick.path, pick.line, st, true, true);
          same(await page.evaluate(() => window.TK.use('panes').inspect().hits), wxCode, '"this line only"', PAGE_CLI);
          await checkMarks(page, 'ir-pane', wx, 'IR pane, "this line only"');
        } finally {
          await page.click('#mode-called');
        }
      });
    }
    // no source line to click (no source found, or it failed): the first
    // line with a location
    if (!hit) hit = await firstLocated(page, st);
    if (!hit) continue;
    await step(`${st}: click IR line ${hit}`, async () => {
      await clickLine(page, 'ir-pane', hit);
      await page.waitForSelector('#info ol.stack');
      const j = cliIR(input, idx, st, hit);
      same(await shownStacks(page), cliStacks(j.query), `stacks of ${st}:${hit}`, PAGE_CLI);
      const inferred = (await page.$$eval('#info p.note', (ps) => ps.map((p) => p.textContent))).some((t) => t.startsWith('Callers from PTX'));
      same(inferred, j.query.stacks_inferred, 'callers from PTX', PAGE_CLI);
    });
  }

  // The second pane: the first stage there is beside the next one.
  if (present.length >= 2) {
    await step('beside', async () => {
      const [a, b] = present;
      await stageTab(page, a);
      const pick = await busiestLine(page, a);
      await page.selectOption('#stage2', b);
      await page.waitForSelector('#ir2-pane:not([hidden]) .ln');
      let line = 0;
      if (pick) {
        await showFile(page, pick.file);
        await clickLine(page, 'src-pane', pick.line);
        line = cliSource(input, idx, pick.path, pick.line, a, false, true)[0];
      }
      if (!line) line = await firstLocated(page, a);
      if (line) {
        await clickLine(page, 'ir-pane', line);
        const want = (cliIR(input, idx, a, line).stages[b] || []).map((l) => l.line);
        same(await page.evaluate(() => document.querySelector('#ir-pane .ln.sel') && +document.querySelector('#ir-pane .ln.sel').dataset.n), line, 'the line clicked is selected');
        await checkMarks(page, 'ir2-pane', want, `${b} lines of ${a}:${line} in the second pane`);
      }
      await page.selectOption('#stage2', '');
      await page.waitForSelector('#ir2-pane[hidden]', { state: 'attached' });
    });
  }

  if (meta.passes) {
    await step('passes', async () => {
      await page.click('#mode-passes');
      await page.waitForSelector('body[data-passes="1"]');
      const ps = await page.evaluate(() => window.TK.use('passes').inspect().data.passes.map((p) => p.effect));
      const changed = ps.map((e, i) => (e === 'changed' ? i : -1)).filter((i) => i >= 0);
      const clicks = [...new Set([changed[0], changed[Math.floor(changed.length / 2)], changed[changed.length - 1]])].filter((i) => i !== undefined);
      for (const i of clicks) {
        await page.click(`#pass-list .ps[data-i="${i}"]`);
        await waitBar(page, i + ': ');
        await page.waitForFunction((i) => window.TK.use('passes').inspect().sel === i && window.TK.use('passes').inspect().diff, i);
        const d = await checkDiff(page, `pass ${i}`);
        assert(d.groups > 0, `changed pass ${i} shows no change`);
      }
      if (changed.length) {
        // n / p: next and previous change of the diff shown (the last changed pass)
        const g = await groupsShown(page);
        const ng = await page.evaluate(() => window.TK.use('passes').inspect().diff.groups.length);
        await page.keyboard.press('n');
        same(await groupsShown(page), Math.min(g + 1, ng - 1), 'n: next change');
        await page.keyboard.press('p');
        same(await groupsShown(page), g, 'p: previous change');
        // k / j: the changed pass before the last, then the last again
        const last = changed[changed.length - 1];
        const prev = changed.length > 1 ? changed[changed.length - 2] : last;
        await page.keyboard.press('k');
        await waitBar(page, prev + ': ');
        await page.keyboard.press('j');
        await waitBar(page, last + ': ');
        same(await page.evaluate(() => window.TK.use('passes').inspect().sel), last, 'k then j: back on the last changed pass');
      }
      const chains = await page.evaluate(() => window.TK.use('passes').inspect().data.chains || []);
      if (chains.length) {
        // two passes of the first chain: its first changed pass to the
        // changed pass after it (a whole chain can be thousands of rows)
        const [c0, c1] = chains[0];
        const inChain = changed.filter((i) => i >= c0 && i <= c1);
        const f = inChain.length ? inChain[0] : c0;
        const t = inChain.length > 1 ? inChain[1] : Math.min(c1, f + 1);
        await page.selectOption('#cmp-from', String(f));
        await page.selectOption('#cmp-to', String(t));
        await page.click('#cmp-go');
        await waitBar(page, f === t ? f + ': ' : `passes ${f}\u2013${t}`);
        await page.waitForFunction(([f, t]) => {
          const P = window.TK.use('passes').inspect();
          return P.range && P.range[0] === f && P.range[1] === t && P.diff && P.diff.a !== undefined;
        }, [f, t]);
        await checkDiff(page, `compare ${f}-${t}`);
      }
    });
  }
  errs.push(...page.problems.map((p) => `${who}: ${p}`));
  await page.close();
}

/* ---- one input ------------------------------------------------------------------ */

async function capture(name, input) {
  const errs = [];
  const out = path.join(tmp, name.replace(/[^A-Za-z0-9_.-]/g, '_'));
  const t0 = process.hrtime.bigint();
  const p = spawnSync(TKVIEW, ['--html', out, input, '--quiet'], { encoding: 'utf8' });
  if (p.status !== 0) throw new Error(`tkview --html exit ${p.status}: ${(p.stderr || '').trim()}`);
  const secs = Number(process.hrtime.bigint() - t0) / 1e9;
  const n = JSON.parse(cli(['info', input, '--json'])).kernels.length;
  const idxPage = await open(pathToFileURL(path.join(out, 'index.html')).href);
  const pages = await idxPage.$$eval('#kernels tbody a', (as) => as.map((a) => a.getAttribute('href')));
  assert(pages.length === n, `index lists ${pages.length} kernels, tkview info ${n}`);
  errs.push(...idxPage.problems.map((x) => 'index: ' + x));
  await idxPage.close();
  const metas = pages.map((_, i) => readMeta(out, 'k' + String(i + 1).padStart(3, '0')));
  const picked = sample(metas);
  note(`${name}: report in ${secs.toFixed(2)} s; kernels ${picked.map((i) => `k${String(i + 1).padStart(3, '0')} ${metas[i].name}`).join(', ')}${picked.length < n ? ` (${picked.length} of ${n})` : ''}`);
  for (const i of picked) {
    try {
      await kernel(input, out, i, pages[i], errs);
    } catch (e) {
      errs.push(`k${String(i + 1).padStart(3, '0')} ${metas[i].name}: ${String(e && e.message ? e.message : e).split('\n')[0]}`);
    }
  }
  if (errs.length) throw new Error(errs.join('\n'));
}

const start = Date.now();
for (const [name, input] of inputs) await test(name, () => capture(name, input));
await browser.close();
const { passed, failed } = counts();
note(`${passed} passed, ${failed} failed, ${((Date.now() - start) / 1000).toFixed(1)} s`);
if (process.env.TK_KEEP) note('reports kept in ' + tmp);
else fs.rmSync(tmp, { recursive: true, force: true });
finish();
