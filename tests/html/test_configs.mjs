// test_configs.mjs - every compile side by side in the report, in Chromium,
// on the raw H200 captures of sample_dumps/raw (their kernel_dump, cache
// and src folders unpacked here, with autotune_timings.json):
//   configs.html (page_configs.c, tk_configs.h) on autotune_matmul: a row
//     per config, the winner the autotuner printed, the matrix of SASS
//     instructions per source line against an independent reading of each
//     compile's .sass_gi;
//   the comparison page of fp8_matmul_three's two compiles that differ in
//     enable_fp_fusion only (no pass dumps unpacked): it opens on the final
//     PTX diff, registers renamed by first use, and its left column is not
//     empty.
// Prints TAP.
//
// Usage: node test_configs.mjs TKVIEW BUILD_DIR PLAYWRIGHT_CORE_INDEX
//   TK_TEST_SAMPLES names sample_dumps.
import { execSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { launch, open } from './browser.mjs';
import { assert, eq, finish, test } from './tap.mjs';

const [, , TKVIEW_ARG, BUILD, PW] = process.argv;
const TKVIEW = path.resolve(TKVIEW_ARG);
const ART = path.join(BUILD, 'artefacts');
const RAW = path.join(process.env.TK_TEST_SAMPLES, 'raw');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tkview-configs-'));
function unpack(name, extra = '') {
  execSync(`tar -xJf '${path.join(RAW, name + '.tar.xz')}' -C '${tmp}' --wildcards '*/kernel_dump/*' '*/cache/*' '*/src/*' ${extra}`);
  return path.join(tmp, name);
}
function tkview(...args) {
  const p = spawnSync(TKVIEW, args, { encoding: 'utf8' });
  if (p.status !== 0) throw new Error('tkview ' + args.join(' ') + ': ' + p.stderr);
  return p.stdout;
}
function report(cap) {
  const out = cap + '-report';
  tkview('--html', out, cap, '--quiet');
  return out;
}

/* The independent reading: SASS instructions per line of FILE (a base
 * name) in a .sass_gi, each on the line of the last `//## File "P", line
 * N` comment above it (its innermost frame). */
function giLines(gi, file) {
  const count = new Map();
  let cur = null;
  for (const ln of fs.readFileSync(gi, 'utf8').split('\n')) {
    const m = /\/\/## File "([^"]+)", line (\d+)/.exec(ln);
    if (m) {
      cur = path.basename(m[1]) === file ? +m[2] : null;
      continue;
    }
    if (cur !== null && /\/\*[0-9a-f]{4,}\*\/\s+\S/.test(ln)) count.set(cur, (count.get(cur) || 0) + 1);
  }
  return count;
}

const browser = await launch(PW);

await test('configs.html: a row per config, the autotuner\'s winner, the matrix', async () => {
  const cap = unpack('autotune_matmul', 'autotune_matmul/autotune_timings.json');
  const out = report(cap);
  const index = await open(browser, pathToFileURL(path.join(out, 'index.html')).href);
  eq(await index.$eval('#configs-link', (a) => a.getAttribute('href')), 'configs.html', 'linked from the index');
  await index.close();
  const page = await open(browser, pathToFileURL(path.join(out, 'configs.html')).href, { width: 1400, height: 900 });
  const rows = await page.$$eval('table.configs tbody tr', (l) => l.map((tr) => ({
    winner: tr.classList.contains('winner'),
    hash: tr.querySelector('td.hash').textContent,
    apart: tr.querySelector('td.apart').textContent,
    ms: tr.children[10].textContent,
    diverge: tr.querySelector('td.diverge').textContent,
  })));
  eq(rows.length, 5, 'five configs');
  // autotune_timings.json: the smallest median, 0.029888, is BLOCK_M 128,
  // BLOCK_N 256, BLOCK_K 64, 8 warps, 3 stages; stdout.txt
  // (TRITON_PRINT_AUTOTUNING): "best config selected: BLOCK_M: 128,
  // BLOCK_N: 256, BLOCK_K: 64, num_warps: 8, num_ctas: 1, num_stages: 3"
  const win = rows.filter((r) => r.winner);
  eq(win.length, 1, 'one winner');
  assert(win[0].apart.includes('num_warps=8') && win[0].apart.includes('num_stages=3') &&
    win[0].apart.includes('BLOCK_N=256'), win[0].apart);
  eq(win[0].ms, '0.0299');
  eq(win[0].diverge, '(winner)');
  // the median of 128/128/64, 4 warps, 3 stages: 0.031696
  const r3 = rows.find((r) => r.apart.includes('num_warps=4') && r.apart.includes('num_stages=3'));
  eq(r3.ms, '0.0317');
  // the matrix against each compile's .sass_gi (a raw capture keeps SASS
  // beside the kernel_dump cubins only: the compile without it shows "-")
  const info = JSON.parse(tkview('info', cap, '--json')).kernels;
  const heads = await page.$$eval('table.matrix thead td.hash', (l) => l.map((e) => e.textContent));
  eq(heads, rows.map((r) => r.hash), 'a column per config, in the rows\' order');
  const cells = await page.$$eval('table.matrix tbody tr', (l) => l.map((tr) => [tr.children[0].textContent, [...tr.children].slice(1).map((td) => td.textContent)]));
  let checked = 0;
  heads.forEach((h, c) => {
    const k = info.find((x) => x.hash.startsWith(h));
    const gi = (k.stages.sass || {}).path;
    if (!gi) {
      for (const [, v] of cells) eq(v[c], '-', h + ' has no SASS');
      return;
    }
    const want = giLines(gi, 'autotune_matmul.py');
    for (const [where, v] of cells) {
      const m = /^autotune_matmul\.py:(\d+)$/.exec(where);
      if (!m) continue;
      eq(+v[c], want.get(+m[1]) || 0, h + ' ' + where);
      checked++;
    }
    for (const [line] of want) assert(cells.some(([w]) => w === 'autotune_matmul.py:' + line), 'line ' + line + ' in the matrix');
  });
  assert(checked >= 40, 'cells checked: ' + checked);
  await page.screenshot({ path: path.join(ART, 'configs-page.png'), fullPage: true });
  eq(page.problems, [], 'no script error');
  await page.close();
});

await test('compare page: the final PTX diff shown, not only its counts', async () => {
  const cap = unpack('fp8_matmul_three');
  const out = report(cap);
  // the pair that differs in enable_fp_fusion (compare.js's data)
  let page = null;
  for (const f of fs.readdirSync(out).filter((x) => /^c\d+-.*\.html$/.test(x)).sort()) {
    const p = await open(browser, pathToFileURL(path.join(out, f)).href, { width: 1400, height: 850 });
    await p.waitForSelector('body[data-ready="1"]');
    const fusion = await p.evaluate(() => {
      const c = TK.use('data').get(document.body.dataset.compare + '/compare');
      return c.config.filter((it) => it.a !== it.b).map((it) => it.name);
    });
    if (fusion.length === 1 && fusion[0] === 'enable_fp_fusion') {
      page = p;
      break;
    }
    await p.close();
  }
  assert(page, 'a pair apart in enable_fp_fusion only');
  await page.waitForFunction(() => TK.use('compare').inspect().rows > 0);
  const s = await page.evaluate(() => TK.use('compare').inspect());
  eq(s.stage, 'ptx', 'opens on the first final stage that differs');
  eq(s.diff, 's' + 3, 'data/cNNN/s3.js (TK_STAGE_PTX)');
  // every row of the diff drawn
  while (await page.$('#cv-more')) await page.click('#cv-more');
  const rows = await page.$$eval('#cv-diff .drow', (l) => l.map((r) => [r.className, r.children[1].textContent, r.children[3].textContent]));
  // by hand: the fused PTX has 128 fma.rn.f32 and no mul.rn.f32 or
  // add.rn.f32; the unfused one 128 mul.rn.f32, 128 add.rn.f32, no fma
  // (grep -c of the two .ptx files)
  const fusedIsA = (await page.evaluate(() => {
    const c = TK.use('data').get(document.body.dataset.compare + '/compare');
    return c.config.find((it) => it.name === 'enable_fp_fusion').a;
  })) === 'true';
  const del = rows.filter((r) => r[0].includes(' d') || r[0].includes(' r')).map((r) => r[1]);
  const ins = rows.filter((r) => r[0].includes(' i') || r[0].includes(' r')).map((r) => r[2]);
  const [fusedSide, plainSide] = fusedIsA ? [del, ins] : [ins, del];
  eq(fusedSide.filter((t) => /\bfma\.rn\.f32\b/.test(t)).length, 128, 'fma.rn.f32 on the fused side');
  eq(plainSide.filter((t) => /\bmul\.rn\.f32\b/.test(t)).length, 128, 'mul.rn.f32 on the other');
  eq(plainSide.filter((t) => /\badd\.rn\.f32\b/.test(t)).length, 128, 'add.rn.f32 on the other');
  // registers renamed by first use: the instructions both have are no change
  assert(rows.length < 1000, 'a diff of the change, not of the renumbering: ' + rows.length + ' rows');
  // the stage rows: PTX can be clicked, and so can SASS where it differs
  eq(await page.$eval('#cv-facts tr[data-stage="ptx"]', (e) => e.classList.contains('on')), true);
  // no page two thirds empty: the left column holds the facts
  const h = await page.$eval('#cv-facts', (e) => e.getBoundingClientRect().height);
  assert(h > 500, 'the facts fill the left column: ' + h);
  await page.screenshot({ path: path.join(ART, 'compare-final-ptx.png') });
  eq(page.problems, [], 'no script error');
  await page.close();
});

await browser.close();
fs.rmSync(tmp, { recursive: true, force: true });
finish();
