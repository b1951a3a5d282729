// test_cost.mjs - the report's heat gutter and hot lines panel in Chromium,
// on the profiled sample bundle (sample_dumps/matmul_profile): the numbers
// the page shows are the ones `tkview hot --json` prints (both come from
// libtkdump's tk_cost.h; tests/e2e/test_cost_cli.py checks those against
// the Nsight Compute export by an independent reading).  Prints TAP.
//
// Usage: node test_cost.mjs TKVIEW BUILD_DIR PLAYWRIGHT_CORE_INDEX
//   TK_TEST_SAMPLES names sample_dumps.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { clickLine, launch, open as openPage } from './browser.mjs';
import { assert, eq, finish, test } from './tap.mjs';

const [, , TKVIEW_ARG, BUILD, PW] = process.argv;
const TKVIEW = path.resolve(TKVIEW_ARG);
const SAMPLES = process.env.TK_TEST_SAMPLES;
const ART = path.join(BUILD, 'artefacts');
function tkview(...args) {
  const p = spawnSync(TKVIEW, args, { encoding: 'utf8' });
  if (p.status !== 0) throw new Error('tkview ' + args.join(' ') + ': ' + p.stderr);
  return p.stdout;
}

const MP = path.join(SAMPLES, 'matmul_profile');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tkview-cost-'));
const out = path.join(tmp, 'report');
tkview('--html', out, MP, '--quiet');
const pageFile = fs.readdirSync(out).find((f) => /^k001-.*\.html$/.test(f));
const hot = JSON.parse(tkview('hot', MP, '--json', '--top', '0', '--inclusive')).kernels[0];
const byLine = new Map(hot.lines.filter((l) => l.file.endsWith('/matmul_profile.py')).map((l) => [l.line, l]));

const browser = await launch(PW);
const page = await openPage(browser, pathToFileURL(path.join(out, pageFile)).href);
await page.waitForSelector('body[data-ready="1"]', { timeout: 15000 });

/* The heat cell of line N of PANE as drawn: [text, title].  The pointer
 * is put on it first: a cell's tooltip is made when the pointer comes over
 * it (codeview.js). */
async function heatOf(pane, n) {
  await page.evaluate(([pane, n]) => {
    document.querySelector(`#${pane} .code`).scrollTop = Math.max(0, (n - 10) * 18);
  }, [pane, n]);
  const cell = `#${pane} .ln[data-n="${n}"] .heat`;
  await page.waitForSelector(cell);
  await page.hover(cell);
  return page.$eval(cell, (e) => [e.textContent, e.title]);
}

await test('source heat: every line as tkview hot says', async () => {
  // default metric with a profile: samples; the source pane asks "and what
  // it called": the inclusive value, titled with exact and inclusive
  const [text, title] = await heatOf('src-pane', 54);
  eq(text, '10.9k', 'line 54 (acc = tl.dot(a, b, acc))');
  assert(title.startsWith('samples: exact 10874 (26.9% of 40471)'), title);
  assert(title.includes('inclusive 10874') && title.includes('stalls: mio 4186'), title);
  assert(title.includes('SASS: tensor 6, barrier 2, alu 25'), title);
  // matmul_profile's PTX has its 8 wgmma.mma_async after ".loc 1 54";
  // its .sass_gi has 6 HGMMA under "line 54" and 2 under "line 53"
  assert(title.includes('stages disagree: PTX: 8 wgmma on this line; SASS line info: 6 here, 2 on line 53'), title);
  for (const [line, l] of byLine) {
    const [t, ti] = await heatOf('src-pane', line);
    assert(ti.includes('exact ' + l.exact + ' ') || ti.includes('exact ' + l.exact + '\n') || ti.includes('exact ' + l.exact + ' ('), 'line ' + line + ': ' + ti);
    assert(ti.includes('inclusive ' + l.inclusive + ' '), 'line ' + line + ': ' + ti);
    if (l.shared) assert(ti.includes('shared ' + l.shared + ' by ' + l.shared_sites + ' call sites'), 'line ' + line + ': ' + ti);
    assert(t !== '' || (!l.inclusive && l.shared), 'line ' + line + ' has a value');
  }
  // leaky_relu's line 34 is inlined at line 57: its samples are 57's
  // inclusive ones only
  eq((await heatOf('src-pane', 57))[0], '829');
  await page.click('#mode-exact');
  eq((await heatOf('src-pane', 57))[0], '', 'line 57 has no code of its own');
  eq((await heatOf('src-pane', 34))[0], '829');
  await page.click('#mode-called');
});

await test('IR heat: a TTGIR line shows its own share, named beside what is bound and its source line', async () => {
  const ttgir = fs.readFileSync(path.join(MP, 'matmul_pipelined-bc33df85', 'matmul_pipelined.ttgir'), 'utf8').split('\n');
  const dot = ttgir.findIndex((l) => l.includes('ttng.warp_group_dot ')) + 1;
  assert(dot > 0, 'a warp_group_dot line');
  const [text, title] = await heatOf('ir-pane', dot);
  const m = /^samples: this TTGIR line: ([\d.]+) \(its share of the (\d+) bound to it\); source line matmul_profile\.py:54 total: (\d+)/.exec(title);
  assert(m, title);
  // what is bound to it: the samples of its SASS lines, each as the SASS
  // pane's heat names it ("this SASS instruction: N")
  const bound = JSON.parse(tkview('bind', MP, '--ir', 'ttgir:' + dot, '--json'));
  const sum = await page.evaluate((ls) => {
    const cost = TK.use('cost');
    return ls.reduce((s, l) => {
      const h = cost.irHeat('sass', l);
      return s + (h ? +/^samples: this SASS instruction: (\d+)/.exec(h.title)[1] : 0);
    }, 0);
  }, bound.stages.sass.map((l) => l.line));
  eq(+m[2], sum, 'TTGIR line ' + dot + ' against its ' + bound.stages.sass.length + ' SASS lines');
  // the same three numbers as `tkview bind --ir --json`, and the source
  // line's as `tkview hot` has line 54's exact value (10874)
  eq([+m[1], +m[2], +m[3]], [Math.round(bound.cost.own * 100) / 100, bound.cost.bound, bound.cost.source.total], 'own, bound, source as bind --ir says');
  eq(+m[3], byLine.get(54).exact, 'line 54 exact');
  assert(+m[1] < +m[2], 'its own share is less than what the dot and its wait are bound to');
  assert(text !== '', 'the gutter shows the share');
  assert(title.includes('tensor'), title);
});

await test('metric menu: tensor core instructions', async () => {
  const idx = await page.$eval('#cost-metric', (s) => [...s.options].find((o) => o.textContent === 'tensor').value);
  await page.selectOption('#cost-metric', idx);
  eq((await heatOf('src-pane', 54))[0], '6', 'line 54 became 6 HGMMA');
  eq((await heatOf('src-pane', 52))[0], '', 'the load of a has none');
  await page.selectOption('#cost-metric', String(hot.metric === 'samples' ? await page.$eval('#cost-metric', (s) => [...s.options].find((o) => o.textContent === 'samples').value) : 0));
  eq((await heatOf('src-pane', 54))[0], '10.9k');
});

await test('hot lines panel: sorted, and a row selects its line', async () => {
  await page.click('#toggle-hot');
  await page.waitForSelector('#hot-table tr[data-line]');
  const rows = async () => page.$$eval('#hot-table tr[data-line]', (rs) => rs.map((r) => [...r.children].map((c) => c.textContent)));
  let r = await rows();
  eq(r[0].slice(0, 4), ['matmul_profile.py:54', '10874', '10874', ''], 'first row');
  eq(r[1].slice(0, 2), ['matmul_profile.py:52', '8505']);
  // the stalls column, before the code: line 52's two largest reasons as
  // tkview hot --json has them (barrier 5911 and selected 831 of 8505)
  {
    const st = Object.entries(byLine.get(52).stalls).filter(([, v]) => v > 0).sort((a, b) => b[1] - a[1]);
    const sum = st.reduce((a, [, v]) => a + v, 0);
    eq(r[1][4], st.slice(0, 2).map(([k, v]) => k.replace(/^stall_/, '') + ' ' + Math.round(100 * v / sum) + '%').join(', '), 'stalls of line 52');
  }
  eq(r.length, hot.source_lines, 'every line with a value');
  await page.click('#hot-table th[data-key="shared"]');
  r = await rows();
  eq(r[0][3], '148', 'tl.cdiv is shared by its three call sites');
  await page.click('#hot-table th[data-key="shared"]');
  r = await rows();
  eq(r[0][3], '', 'ascending: no shared first');
  await page.click('#hot-table th[data-key="exact"]');
  await page.click('#hot-table tr[data-line="52"]');
  const sel = await page.evaluate(() => TK.use('panes').inspect().sel);
  eq([sel.pane, sel.line], ['src', 52], 'the row selected source line 52');
  // the line panel shows its samples and stall reasons without hovering:
  // line 52's as `tkview hot --json` has them, largest first, in % of its
  // stall samples (barrier 5911 of 8505: 70%)
  const l52 = byLine.get(52);
  const total = await page.textContent('#info .measured-total');
  assert(total.startsWith('samples ' + l52.inclusive + ' ('), total);
  const stalls = await page.$$eval('#info table.stalls tr', (rs) => rs.map((r) => [r.children[0].textContent, r.children[2].textContent]));
  const want = Object.entries(l52.stalls).filter(([, v]) => v > 0).sort((a, b) => b[1] - a[1]);
  const sum = want.reduce((a, [, v]) => a + v, 0);
  eq(stalls[0], [want[0][0].replace(/^stall_/, ''), Math.round(100 * want[0][1] / sum) + '%'], 'largest stall first');
  eq(stalls.length, Math.min(6, want.length), 'up to six reasons');
  await page.selectOption('#hot-scope', 'sass');
  await page.waitForSelector('#hot-table tr[data-line]');
  r = await rows();
  // matmul_pipelined.sass_gi:1078, /*2bf0*/ @!PT LDS RZ, [RZ] ; with 6252
  // samples (ncu/README.md: the hottest instruction)
  eq(r[0].slice(0, 2), ['1078', '6252']);
  await page.click('#hot-table tr[data-line="1078"]');
  const s2 = await page.evaluate(() => TK.use('panes').inspect());
  eq([s2.stage, s2.sel.pane, s2.sel.line], ['sass', 'ir', 1078]);
  fs.mkdirSync(ART, { recursive: true });
  await page.screenshot({ path: path.join(ART, 'cost-hot.png') });
  eq(page.problems, [], 'no script error, no request out of file://');
});

await test('a kernel without SASS has no cost controls', async () => {
  const o2 = path.join(tmp, 'mlir');
  tkview('--html', o2, path.join(SAMPLES, 'add_sum_mlir'), '--quiet');
  const f = fs.readdirSync(o2).find((x) => /^k001-.*\.html$/.test(x));
  const p2 = await openPage(browser, pathToFileURL(path.join(o2, f)).href);
  await p2.waitForSelector('body[data-ready="1"]', { timeout: 15000 });
  eq(await p2.$$eval('#cost-metric', (e) => e.length), 0);
  eq(await p2.$$eval('.ln .heat', (e) => e.length), 0);
  eq(p2.problems, []);
});

await browser.close();
fs.rmSync(tmp, { recursive: true, force: true });
finish();
