// test_pass_diff.mjs - reading a pass diff in the report (issue 14, item 3
// onwards) in Debian's Chromium: the changed words of a replaced line are
// the library's (tk_ir_diff_words()), drawn stronger than the line.
// Prints TAP.
//
// Expected values were read off the dump text by hand (grep -n); the
// comments quote them.  Usage: node test_pass_diff.mjs TKVIEW BUILD_DIR
//   PLAYWRIGHT_INDEX; TK_TEST_DUMPS names the unpacked shared captures.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { diffRows, kernelUrl, launch, openReady } from './browser.mjs';
import { assert, eq, finish, report as tapReport, tempDir, test } from './tap.mjs';

const [, , TKVIEW_ARG, BUILD, PW] = process.argv;
const TKVIEW = path.resolve(TKVIEW_ARG);
const DUMPS = process.env.TK_TEST_DUMPS;
const ART = path.join(BUILD, 'artefacts');
fs.mkdirSync(ART, { recursive: true });

tempDir('tkview-passdiff-');
const report = (input, name) => tapReport(TKVIEW, input, name);

const browser = await launch(PW);

/* The drawn rows whose after side includes TEXT: per side, the text of its
 * .wd spans (the changed words) and the row's classes. */
async function wordsOf(page, text) {
  return page.evaluate((text) => {
    const out = [];
    for (const r of document.querySelectorAll('#pass-rows .drow')) {
      const b = r.children[3];
      if (!(b.title || b.textContent).includes(text)) continue;
      out.push({
        cls: r.className,
        a: [...r.children[1].querySelectorAll('.wd')].map((s) => s.textContent),
        b: [...b.querySelectorAll('.wd')].map((s) => s.textContent),
      });
    }
    return out;
  }, text);
}

const VA = report(path.join(DUMPS, 'vector_add'), 'va');

// The diffs the browser composes are grouped and cut in chain.js, a copy of
// the library's rule the page cannot do without: checked against the table
// the library's test_diff_group_table reads, with the same expected values.
await test('composed diffs are grouped and cut by the library\'s rule: the shared table', async () => {
  const T = JSON.parse(fs.readFileSync(path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'diff_group_cases.json'), 'utf8'));
  const page = await openReady(browser, kernelUrl(VA));
  const got = await page.evaluate((T) => {
    const chain = window.TK.use('chain');
    const side = (t) => ({ t, ln: Int32Array.from(t, (_, i) => i + 1), s: new Int32Array(t.length) });
    const tag = { equal: 'e', replace: 'r', delete: 'd', insert: 'i' };
    const hs = T.hunks.map((h) => [tag[h[0]], h[1], h[2], h[3], h[4]]);
    return T.cases.map((c) => {
      const d = chain.group(side(T.a), side(T.b), hs, { context: c.context, maxLines: c.maxLines }, null);
      /* each group's extent over the lines it shows, as [a0, a1, b0, b1]
       * (a side with no line in it: null, null; rows do not say where) */
      const ext = d.groups.map((g) => {
        const a = g.filter((r) => r[1] > 0).map((r) => r[1]), b = g.filter((r) => r[3] > 0).map((r) => r[3]);
        const span = (v) => (v.length ? [Math.min(...v) - 1, Math.max(...v)] : [null, null]);
        return [...span(a), ...span(b)];
      });
      const shown = d.groups.reduce((n, g) => n + g.reduce((m, r) => m + (r[0] === 'r' ? 2 : 1), 0), 0);
      return { groups: ext, shown, left: d.cut };
    });
  }, T);
  const sides = (g) => [...(g[0] === g[1] ? [null, null] : [g[0], g[1]]), ...(g[2] === g[3] ? [null, null] : [g[2], g[3]])];
  T.cases.forEach((c, k) => eq(got[k], { groups: c.groups.map(sides), shown: c.shown, left: c.left }, c.why));
  eq(page.problems, [], 'problems');
  await page.close();
});

await test('pass 14 (TritonGPUCoalesce): a replaced line faces its likeness and shows its changed words', async () => {
  // `tkview passes`: "14  ttgir  +13 -3  TritonGPUCoalesce ... mlir_passes.txt:1178".
  // mlir_passes.txt:1201 (before the pass)
  //   %x_4 = tt.load %x_3, %mask_2 : tensor<1024x!tt.ptr<f32>, #blocked> loc(#loc29)
  // faces, its replaced block aligned by likeness (tk_diff_align), the
  // load after it (mlir_passes.txt:1276), not the convert_layout first in
  // the block:
  //   %x_6 = tt.load %x_4, %x_5 : tensor<1024x!tt.ptr<f32>, #blocked1> loc(#loc29)
  // By tokens: the op, its shape and its location stayed; the result, both
  // operands and the layout alias changed.  (A window wide enough for the
  // whole line.)
  const page = await openReady(browser, kernelUrl(VA, '#pass=14'), { width: 2200, height: 900 });
  await page.waitForFunction(() => {
    const b = document.querySelector('#pass-bar strong');
    return b && b.textContent.startsWith('14: TritonGPUCoalesce') && document.querySelector('#pass-rows .drow');
  });
  const rows = await wordsOf(page, '%x_6 = tt.load %x_4, %x_5');
  eq(rows.length, 1, 'one row');
  assert(/\br\b/.test(rows[0].cls) && /\bwords\b/.test(rows[0].cls), 'a replaced row with words: ' + rows[0].cls);
  eq(rows[0].a, ['%x_4', '%x_3', '%mask_2', '#blocked'], 'words before');
  eq(rows[0].b, ['%x_6', '%x_4', '%x_5', '#blocked1'], 'words after');
  // the convert_layout before it is an added row, facing nothing
  const conv = await wordsOf(page, '%x_4 = ttg.convert_layout %x_3');
  eq(conv.length, 1, 'the convert row');
  assert(/\bi\b/.test(conv[0].cls), 'an added row: ' + conv[0].cls);
  // an added line (#blocked1 = ..., mlir_passes.txt:1253) has no words: it is all new
  const added = await wordsOf(page, '#blocked1 = #ttg.blocked');
  eq(added.length, 1, 'the added #blocked1 row');
  eq(added[0].b, [], 'no words on an added line');
  // the word is drawn stronger than its line
  const bg = await page.evaluate(() => {
    const w = document.querySelector('#pass-rows .drow.r.words .tx.add .wd');
    return [getComputedStyle(w).backgroundColor, getComputedStyle(w.closest('.tx')).backgroundColor];
  });
  assert(bg[0] !== bg[1], 'word and line backgrounds differ: ' + bg);
  await page.screenshot({ path: path.join(ART, 'pass-words.png') });
  eq(page.problems, [], 'problems');
  await page.close();
});

await test('a diff of several passes pairs the lines the steps paired (chain.js composes the library\'s pairs)', async () => {
  // passes 14-15: TritonGPUCoalesce, then TritonGPUF32DotTC, which changed
  // nothing (`tkview passes`): the composed diff faces the old load
  // (mlir_passes.txt:1201) with the new one (1276) as pass 14's own diff
  // does, as a replaced row, without words (no step made them).
  const page = await openReady(browser, kernelUrl(VA, '#pass=14-15'), { width: 2200, height: 900 });
  await page.waitForFunction(() => {
    const b = document.querySelector('#pass-bar strong');
    return b && /14\u201315/.test(b.textContent) && document.querySelector('#pass-rows .drow');
  });
  const rows = await diffRows(page);
  const load = rows.filter((r) => r[4].includes('%x_6 = tt.load %x_4, %x_5'));
  eq(load.length, 1, 'one row of the new load');
  eq(load[0][0], 'r', 'a replaced row');
  assert(load[0][2].includes('%x_4 = tt.load %x_3, %mask_2'), 'faces the old load: ' + load[0][2]);
  const conv = rows.filter((r) => r[4].includes('%x_4 = ttg.convert_layout %x_3'));
  eq(conv.map((r) => r[0]), ['i'], 'the convert before it is added');
  eq(page.problems, [], 'problems');
  await page.close();
});

await test('wrap (the default) shows every character of a long line; w cuts rows at the column again', async () => {
  // mlir_passes.txt:1276, 122 characters, after TritonGPUCoalesce:
  //   %x_4 = ttg.convert_layout %x_3 : tensor<1024x!tt.ptr<f32>, #blocked> -> tensor<1024x!tt.ptr<f32>, #blocked1> loc(#loc29)
  // In a 1000 px window a side's column holds under 60 characters: the
  // row is several lines high and the text is all there.
  const page = await openReady(browser, kernelUrl(VA, '#pass=14'), { width: 1000, height: 800 });
  await page.waitForFunction(() => document.querySelector('#pass-rows .drow'));
  const LINE = '    %x_4 = ttg.convert_layout %x_3 : tensor<1024x!tt.ptr<f32>, #blocked> -> tensor<1024x!tt.ptr<f32>, #blocked1> loc(#loc29)';
  const look = () => page.evaluate((line) => {
    const v = window.TK.use('passes').inspect().view.window();
    const rows = [...document.querySelectorAll('#pass-rows .drow')];
    const r = rows.find((e) => (e.children[3].title || e.children[3].textContent).includes('ttg.convert_layout %x_3'));
    // every drawn side fits its row: the heights the pane computed hold the text
    const clipped = rows.filter((e) => [1, 3].some((i) => e.children[i].scrollHeight > e.clientHeight + 1)).length;
    // the rows follow each other without a gap or an overlap
    let gaps = 0;
    for (let i = 1; i < rows.length; i++) if (Math.abs(rows[i].getBoundingClientRect().top - rows[i - 1].getBoundingClientRect().bottom) > 1 && !rows[i].previousElementSibling.classList.contains('dgroup')) gaps++;
    return { wrap: v.wrap, cols: v.cols, h: r.clientHeight, text: r.children[3].textContent.replace('\u2026', ''), title: r.children[3].title,
      box: document.getElementById('pass-wrap').checked, clipped, gaps, lines: v.lines, items: v.items };
  }, LINE);
  let w = await look();
  eq([w.wrap, w.box], [true, true], 'wrapped by default, and the box says so');
  assert(w.cols >= 30 && w.cols < LINE.length, 'a column of ' + w.cols + ' characters');
  eq(w.text, LINE, 'the whole line drawn');
  // locations hidden (the page's default): "loc(#loc29)" is drawn as one
  // "…", and the row is as high as what is drawn
  const hidden = await page.evaluate(() => document.body.classList.contains('hideloc'));
  const shown = LINE.length - (hidden ? ' loc(#loc29)'.length - 1 : 0);
  eq(w.h, 18 * Math.ceil(shown / w.cols), 'the row as high as its lines, locations ' + (hidden ? 'hidden' : 'shown'));
  eq([w.clipped, w.gaps], [0, 0], 'no side clipped, no gap between rows');
  assert(w.lines > w.items, 'some rows take more than one line');
  await page.screenshot({ path: path.join(ART, 'pass-wrap.png') });
  await page.keyboard.press('w');
  w = await look();
  eq([w.wrap, w.box, w.h, w.lines, w.clipped], [false, false, 18, w.items, 0], 'w: one line a row');
  eq(w.title, LINE, 'cut, the whole line on hover');
  await page.keyboard.press('w');
  w = await look();
  eq([w.wrap, w.h], [true, 18 * Math.ceil(shown / w.cols)], 'w again: wrapped');
  // the "locations" button: the row follows
  await page.click('#toggle-loc');
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  w = await look();
  const now = await page.evaluate(() => document.body.classList.contains('hideloc'));
  eq(w.h, 18 * Math.ceil((LINE.length - (now ? ' loc(#loc29)'.length - 1 : 0)) / w.cols), 'locations toggled: height follows');
  eq([w.clipped, w.gaps], [0, 0], 'no side clipped, no gap between rows, locations toggled');
  eq(page.problems, [], 'problems');
  await page.close();
});

await test('a converting pass is a step of its own: "whole level" starts and ends at its level', async () => {
  // mlir_passes.txt:4756 `IR Dump Before ConvertTritonGPUToLLVM` (pass 62) reads TTGIR
  // (`#blocked = #ttg.blocked<...>` at 4757); the dump after it (4830, Canonicalizer)
  // is the LLVM dialect.  :1106 ConvertTritonToTritonGPU (13) reads TTIR, leaves TTGIR
  // (Coalesce's dump at 1178 has `#blocked`).  `tkview passes --json` says the same
  // (level_after, starts_level: test_passes_cli.py).
  const page = await openReady(browser, kernelUrl(VA, '#pass=14'));
  await page.waitForSelector('#pass-list .lvl');
  const heads = await page.$$eval('#pass-list .lvl', (hs) => hs.map((h) => [h.firstChild.textContent.trim(), !!h.querySelector('button')]));
  const at = (t) => heads.find((h) => h[0].startsWith(t));
  eq(at('ttir \u2192'), ['ttir \u2192 ttgir \u2014 pass 13', false], 'ConvertTritonToTritonGPU on its own, no whole level');
  eq(at('ttgir \u2014'), ['ttgir \u2014 passes 14\u201361', true], 'TTGIR ends before the conversion');
  eq(at('ttgir \u2192'), ['ttgir \u2192 llvm-dialect \u2014 pass 62', false], 'ConvertTritonGPUToLLVM on its own');
  eq(at('llvm-dialect'), ['llvm-dialect \u2014 passes 63\u201372', true], 'the LLVM dialect from 63');
  // "whole level" of TTGIR: TTGIR on both sides (no llvm.func after it)
  await page.evaluate(() => document.querySelectorAll('#pass-list .lvl')[2].querySelector('button').click());
  await page.waitForFunction(() => /passes 14\u201361/.test(document.querySelector('#pass-bar strong').textContent));
  const bar = await page.$eval('#pass-bar strong', (b) => b.textContent);
  assert(bar.includes('14') && bar.includes('61'), bar);
  const d = await page.evaluate(() => window.TK.use('passes').inspect().diff);
  const after = d.groups.flat().map((r) => (r.length > 4 ? r[4] : r[2]) || '');
  assert(!after.some((t) => t.includes('llvm.func')), 'no LLVM dialect after the TTGIR level');
  eq(page.problems, [], 'problems');
  await page.close();
});

await test('SoftwarePipeliner sub-steps are listed as N.J and diffable, as in the CLI', async () => {
  // softmax's `tkview passes`: "36.1  ttgir  +31 -16  SoftwarePipeliner (ExpandLoops)
  // stderr.txt:63" under pass 36 (TritonGPUPipeline); 36.0 (LowerLoops, stderr.txt:1)
  // is printed without attribute aliases and compared with the pass's Before dump,
  // its aliases written out ("36.0 ... +23 -2 ... [printed without attribute aliases:
  // ...]").  The diffs are `tkview diff --pass 36.J`'s.
  const SM = report(path.join(DUMPS, 'softmax'), 'sm');
  const page = await openReady(browser, kernelUrl(SM, '#pass=36'));
  await page.waitForSelector('#pass-list .pss');
  const subs = await page.$$eval('#pass-list .pss', (r) => r.map((x) => x.textContent));
  eq(subs, ['36.0SoftwarePipeliner (LowerLoops)+23\u22122', '36.1SoftwarePipeliner (ExpandLoops)+31\u221216'], 'sub-steps listed');
  await page.click('#pass-list .pss[data-sub="36.0"]');
  await page.waitForFunction(() => /^36\.0: SoftwarePipeliner/.test(document.querySelector('#pass-bar strong').textContent) && document.querySelector('#pass-rows .drow'));
  const d0 = await page.evaluate(() => { const x = window.TK.use('passes').inspect().diff; return [x.added, x.removed]; });
  const cli0 = JSON.parse(spawnSync(TKVIEW, ['diff', path.join(DUMPS, 'softmax'), '--pass', '36.0', '--json'], { encoding: 'utf8' }).stdout);
  eq(d0, [cli0.added, cli0.removed], 'tkview diff --pass 36.0 says the same');
  const cliNote = JSON.parse(spawnSync(TKVIEW, ['passes', path.join(DUMPS, 'softmax'), '--json'], { encoding: 'utf8' }).stdout)
    .kernels[0].passes[36].substeps[0].note;
  const rowTitle = await page.$eval('#pass-list .pss[data-sub="36.0"]', (r) => r.title);
  assert(rowTitle.endsWith('\n' + cliNote), 'the library\u2019s words, as tkview passes prints them: ' + rowTitle);
  assert(cliNote.includes('without attribute aliases'), cliNote);
  await page.click('#pass-list .pss[data-sub="36.1"]');
  await page.waitForFunction(() => /^36\.1: SoftwarePipeliner/.test(document.querySelector('#pass-bar strong').textContent) && document.querySelector('#pass-rows .drow'));
  const d = await page.evaluate(() => { const x = window.TK.use('passes').inspect().diff; return [x.added, x.removed]; });
  const cli = JSON.parse(spawnSync(TKVIEW, ['diff', path.join(DUMPS, 'softmax'), '--pass', '36.1', '--json'], { encoding: 'utf8' }).stdout);
  eq(d, [31, 16], '+31 -16');
  const rowsCli = cli.hunks.flatMap((h) => h.lines || []).filter((l) => l.op === '+' || l.op === '-').length;
  eq([cli.added, cli.removed, rowsCli], [31, 16, 47], 'tkview diff --pass 36.1 says the same');
  const rowsPage = await page.evaluate(() => window.TK.use('passes').inspect().diff.groups.flat()
    .reduce((n, r) => n + (r[0] === 'r' ? 2 : r[0] === 'e' ? 0 : 1), 0));
  eq(rowsPage, 47, 'the page shows the 47 changed lines');
  const on = await page.$$eval('#pass-list .ps.on, #pass-list .pss.on', (r) => r.map((x) => x.dataset.sub || x.dataset.i));
  eq(on, ['36.1'], 'the sub-step marked');
  await page.screenshot({ path: path.join(ART, 'pass-substep.png') });
  eq(page.problems, [], 'problems');
  await page.close();
});

await test('#pass=N.J opens a sub-step cold, and the fragment follows clicks on sub-steps', async () => {
  // The same sub-step as above: softmax's "36.1  ttgir  +31 -16  SoftwarePipeliner
  // (ExpandLoops)" (`tkview passes`, `tkview diff --pass 36.1`).
  const SM = report(path.join(DUMPS, 'softmax'), 'sm-link');
  const page = await openReady(browser, kernelUrl(SM, '#pass=36.1'));
  await page.waitForFunction(() => /^36\.1: SoftwarePipeliner \(ExpandLoops\)/.test(document.querySelector('#pass-bar strong').textContent) &&
    document.querySelector('#pass-rows .drow'));
  const d = await page.evaluate(() => { const x = window.TK.use('passes').inspect().diff; return [x.added, x.removed]; });
  eq(d, [31, 16], 'cold: the diff of 36.1');
  eq(await page.$$eval('#pass-list .ps.on, #pass-list .pss.on', (r) => r.map((x) => x.dataset.sub || x.dataset.i)), ['36.1'], 'cold: 36.1 marked');
  eq(await page.evaluate(() => location.hash), '#pass=36.1', 'the fragment kept');
  await page.screenshot({ path: path.join(ART, 'pass-substep-link.png') });
  // a click on 36.0 (LowerLoops) and on pass 36 itself
  await page.click('#pass-list .pss[data-sub="36.0"]');
  await page.waitForFunction(() => location.hash === '#pass=36.0');
  await page.click('#pass-list .ps[data-i="36"]');
  await page.waitForFunction(() => location.hash === '#pass=36');
  // Back returns to the sub-step
  await page.goBack();
  await page.waitForFunction(() => /^36\.0: /.test(document.querySelector('#pass-bar strong').textContent));
  eq(page.problems, [], 'problems');
  await page.close();
  // a sub-step that is not there says so
  const bad = await openReady(browser, kernelUrl(SM, '#pass=36.7'));
  const note = await bad.textContent('#link-note');
  assert(note.includes('no sub-step 36.7') && note.includes('36.0-36.1'), note);
  const none = await openReady(browser, kernelUrl(SM, '#pass=35.0'));
  assert((await none.textContent('#link-note')).includes('no sub-step 35.0'), 'pass 35 has none');
  eq(bad.problems.concat(none.problems), [], 'problems');
  await bad.close();
  await none.close();
});

/* The rows of the pass diff shown whose sides come from the source line
 * marked, as the page marks them: [item, sides] from the diff view (1:
 * before, 2: after, 3: both), checked against the line numbers drawn
 * marked (.no.src) in every row drawn while scrolling top to bottom. */
async function sourceMarks(page) {
  return page.evaluate(async () => {
    const box = document.getElementById('pass-rows');
    const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const drawn = new Map();
    const grab = () => {
      for (const e of box.querySelectorAll('.drow'))
        drawn.set(+e.dataset.k, (e.children[0].classList.contains('src') ? 1 : 0) | (e.children[2].classList.contains('src') ? 2 : 0));
    };
    for (let y = 0; ; y += box.clientHeight) {
      box.scrollTop = y;
      await frame();
      grab();
      if (y >= box.scrollHeight - box.clientHeight) break;
    }
    box.scrollTop = 0;
    await frame();
    const v = window.TK.use('passes').inspect().view;
    return { rows: v.sourceRows(), drawn: [...drawn.entries()].filter((e) => e[1]).sort((a, b) => a[0] - b[0]) };
  });
}

/* Which sides of each row of ROWS (diffRows) name one of the MLIR location
 * aliases LOCS in their text: [item, sides] as sourceMarks gives them. */
function byText(page, locs) {
  return page.evaluate((locs) => {
    const v = window.TK.use('passes').inspect().view, d = v.diff, out = [];
    const has = (t) => t !== null && t !== undefined && locs.some((l) => t.includes('loc(' + l + ')'));
    d.groups.forEach((g, gi) => g.forEach((r, i) => {
      const m = (has(r[2]) ? 1 : 0) | (has(r.length > 4 && r[0] !== 'e' ? r[4] : r.length > 4 && r[4] !== undefined ? r[4] : r[2]) ? 2 : 0);
      if (m) out.push([v.start[gi] + 1 + i, m]);
    }));
    return out;
  }, locs);
}

await test('the rows of a pass diff that come from the selected source line are marked, both sides', async () => {
  // vector_add.py:12 "x = tl.load(x_ptr + offsets, mask=mask)".  Pass 14
  // (TritonGPUCoalesce) before it, mlir_passes.txt:1225-1226, 1241-1242:
  //   #loc7 = loc(".../vector_add.py":12:24)   #loc28 = loc("x"(#loc7))
  //   #loc8 = loc(".../vector_add.py":12:16)   #loc29 = loc("x"(#loc8))
  // and after it the same (1308-1309, 1324-1325).  Its diff (`tkview diff
  // --pass 14`, group 2) has 1199/1273 "%x = tt.splat ... loc(#loc28)" and
  // 1200/1274 "%x_3 = tt.addptr ... loc(#loc28)" as context, 1201 "%x_4 =
  // tt.load ... loc(#loc29)" replaced by 1275 "%x_4 = ttg.convert_layout
  // ... loc(#loc29)", then 1276-1278 (%x_5, %x_6, %x_7, loc(#loc29))
  // added: 6 rows, 3 before sides, 6 after sides; no other row names line 12.
  const page = await openReady(browser, kernelUrl(VA, '#pass=14&source=vector_add.py:12'));
  await page.waitForFunction(() => /^14: TritonGPUCoalesce/.test(document.querySelector('#pass-bar strong').textContent) &&
    document.querySelector('#pass-rows .drow'));
  const m = await sourceMarks(page);
  const want = await byText(page, ['#loc28', '#loc29']);
  eq(m.rows, want, 'the rows whose sides say loc(#loc28) or loc(#loc29)');
  eq([m.rows.length, m.rows.filter((r) => r[1] & 1).length, m.rows.filter((r) => r[1] & 2).length], [6, 3, 6], '6 rows: 3 before, 6 after');
  eq(m.drawn, m.rows, 'the line numbers drawn marked');
  const texts = await page.evaluate(() => [...document.querySelectorAll('#pass-rows .drow.src')].map((r) => r.children[3].textContent));
  assert(texts.some((t) => t.includes('%x_5 = ttg.convert_layout %mask_2')), JSON.stringify(texts));
  const note = await page.textContent('#pass-view .touchnote');
  assert(note.includes('vector_add.py:12') && note.includes('6 rows of this diff come from it'), note);
  eq(await page.evaluate(() => location.hash), '#pass=14&source=vector_add.py:12', 'the fragment kept');
  await page.evaluate(() => {
    const v = window.TK.use('passes').inspect().view;
    v.scrollToGroup(1);
  });
  await page.screenshot({ path: path.join(ART, 'pass-source-rows.png') });

  // vector_add.py:16 "s = tl.sum(output)" only as a caller: #loc13 =
  // loc(".../vector_add.py":16:15), #loc33 = loc("s"(#loc13)), #loc35 =
  // loc(callsite(#loc12 at #loc33)) (standard.py:293 inlined there), #loc36
  // = loc(callsite(#loc1 at #loc33)), #loc37 = loc(callsite(#loc14 at
  // #loc35)) (mlir_passes.txt:1182, 1187-1188, 1247-1248 before; 1256,
  // 1261-1262, 1330-1331 after): "and what it called", so lines of any of
  // those are marked, and the op that opens a region, 1207/1287 `%s_7 =
  // "tt.reduce"(%s) <{axis = 0 : i32}> ({`, whose location is on the line
  // that closes it, 1211/1291 `}) : (...) -> f32 loc(#loc35)`.
  await page.evaluate(() => window.TK.use('passes').forSource(0, 16, false));
  await page.evaluate(() => window.TK.use('passes').select(14));
  await page.waitForFunction(() => document.querySelector('#pass-view .touchnote').textContent.includes(':16'));
  const m16 = await sourceMarks(page);
  const want16 = await byText(page, ['#loc33', '#loc35', '#loc36', '#loc37']);
  const reduce = await page.evaluate(() => {
    const v = window.TK.use('passes').inspect().view, d = v.diff;
    for (let g = 0; g < d.groups.length; g++)
      for (let i = 0; i < d.groups[g].length; i++)
        if (/= "tt\.reduce"\(%s\) <\{axis = 0 : i32\}> \(\{$/.test(d.groups[g][i][2])) return v.start[g] + 1 + i;
    return -1;
  });
  assert(reduce >= 0, 'the tt.reduce row is in the diff');
  want16.push([reduce, 3]);
  want16.sort((a, b) => a[0] - b[0]);
  eq(m16.rows, want16, 'line 16: the rows whose sides name it in a caller frame');
  assert(m16.rows.length >= 1, 'some rows: ' + JSON.stringify(m16.rows));
  // "show all" takes the marks away
  await page.click('#pass-view .touchnote button');
  eq((await sourceMarks(page)).drawn, [], 'no marks after "show all"');
  eq(page.problems, [], 'problems');
  await page.close();
});

await test('from the kernel view: "passes that touched this line" marks the rows inside each diff', async () => {
  const page = await openReady(browser, kernelUrl(VA, '#source=vector_add.py:12'));
  await page.click('#info button.passes-of');
  await page.waitForFunction(() => document.querySelector('#pass-view .touchnote') && document.querySelector('#pass-rows .drow'));
  const sel = await page.evaluate(() => window.TK.use('passes').inspect().sel);
  const m = await sourceMarks(page);
  assert(m.rows.length > 0, 'pass ' + sel + ': rows marked');
  eq(m.drawn, m.rows, 'drawn as marked');
  // the next touched pass (j) marks its own rows
  await page.keyboard.press('j');
  await page.waitForFunction((s) => window.TK.use('passes').inspect().sel !== s && document.querySelector('#pass-rows .drow'), sel);
  const m2 = await sourceMarks(page);
  assert(m2.rows.length > 0, 'the next touched pass: rows marked');
  assert(/&source=vector_add\.py:12$/.test(await page.evaluate(() => location.hash)), 'fragment names the source line');
  eq(page.problems, [], 'problems');
  await page.close();
});

await test('a diff whose IR carries no locations says so (an LLVM loop pass)', async () => {
  // matmul pass 117 LoopRotatePass prints only its loop (stderr.txt:75026):
  // its `!dbg !N` name metadata the loop's dump does not hold.
  const MM = report(path.join(DUMPS, 'matmul'), 'mm');
  const page = await openReady(browser, kernelUrl(MM, '#pass=117&source=matmul.py:1'));
  await page.waitForFunction(() => /^117: /.test(document.querySelector('#pass-bar strong').textContent) && document.querySelector('#pass-rows .drow'));
  const note = await page.textContent('#pass-view .touchnote');
  assert(note.includes('carries no source locations'), note);
  eq(page.problems, [], 'problems');
  await page.close();
});

/* Moves the mouse over the Nth TEXT (N from 0) on SIDE (1 before, 3
 * after) of the first drawn row whose that side includes LINE_TEXT, and
 * returns the layout tip's text ('' when none shows). */
async function hoverIn(page, lineText, side, text, nth = 0) {
  const box = await page.evaluate(([lineText, side, text, nth]) => {
    for (const r of document.querySelectorAll('#pass-rows .drow')) {
      const tx = r.children[side];
      if (!tx.textContent.includes(lineText)) continue;
      r.scrollIntoView({ block: 'center' });
      const w = document.createTreeWalker(tx, NodeFilter.SHOW_TEXT);
      let n, seen = 0;
      while ((n = w.nextNode())) {
        let at = -1;
        while ((at = n.data.indexOf(text, at + 1)) >= 0) {
          // the whole reference, not a longer name (#blocked in #blocked1)
          if (/\w/.test(n.data[at + text.length] || '')) continue;
          if (seen++ < nth) continue;
          const rg = document.createRange();
          rg.setStart(n, at + 1);
          rg.setEnd(n, at + 2);
          const b = rg.getBoundingClientRect();
          return { x: b.left + b.width / 2, y: b.top + b.height / 2 };
        }
      }
    }
    return null;
  }, [lineText, side, text, nth]);
  if (!box) return null;
  /* the pointer out of the rows first (the last tip hidden), then on the
   * text, and the tip waited for. The tip answers mouse moves, and the
   * pass's layouts may still be loading at the first one on a loaded
   * machine (a user's next move shows it): the pointer is moved again
   * within the reference every half second, up to 10 s; where none should
   * show, none after those moves. */
  await page.mouse.move(0, 0);
  await page.waitForFunction(() => document.getElementById('tip').hidden, null, { timeout: 2000 }).catch(() => null);
  for (let i = 0; i < 20; i++) {
    await page.mouse.move(box.x + (i % 2 ? 1 : 0), box.y);
    const shown = await page.waitForFunction(() => !document.getElementById('tip').hidden, null, { timeout: 500 })
      .then(() => true, () => false);
    if (shown) break;
  }
  return page.evaluate(() => (document.getElementById('tip').hidden ? '' : document.getElementById('tip').textContent));
}

await test('layout hover inside a diff: each side explained by its own pass text', async () => {
  // Pass 14 (TritonGPUCoalesce), mlir_passes.txt:1179 (before) and 1252-1253 (after):
  //   before  #blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
  //   after   #blocked = (the same), #blocked1 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
  // The final TTGIR (add_kernel.ttgir:1) has "#blocked = ... sizePerThread = [4]": a
  // diff's #blocked is its own text's.  Row of `tkview diff --pass 14`:
  //   - %x_4 = tt.load %x_3, %mask_2 : tensor<1024x!tt.ptr<f32>, #blocked> loc(#loc29)
  //   + %x_4 = ttg.convert_layout %x_3 : tensor<1024x!tt.ptr<f32>, #blocked> -> tensor<1024x!tt.ptr<f32>, #blocked1> loc(#loc29)
  const page = await openReady(browser, kernelUrl(VA, '#pass=14'));
  await page.waitForFunction(() => /^14: TritonGPUCoalesce/.test(document.querySelector('#pass-bar strong').textContent) &&
    document.querySelector('#pass-rows .drow'));
  const after1 = await hoverIn(page, '%x_4 = ttg.convert_layout %x_3', 3, '#blocked1');
  // 4 x 32 x 4 = 512 elements a tile: a 1024 tensor takes 2, 8 elements a thread
  assert(after1 && after1.includes('#blocked1') && after1.includes('sizePerThread = [4]'), 'after #blocked1: ' + after1);
  assert(after1.includes('4 × 32 × 4 = 512') && after1.includes('2 repetitions') && after1.includes('8 elements'), after1);
  await page.screenshot({ path: path.join(ART, 'pass-layout-hover.png') });
  const before = await hoverIn(page, '%x_4 = tt.load %x_3', 1, '#blocked');
  // 1 x 32 x 4 = 128: 8 repetitions, 8 elements a thread
  assert(before && before.includes('sizePerThread = [1]') && before.includes('1 × 32 × 4 = 128') && before.includes('8 repetitions'), 'before #blocked: ' + before);
  // the definition line added by the pass, and a word that is no layout
  const def = await hoverIn(page, '#blocked1 = #ttg.blocked', 3, '#blocked1');
  assert(def && def.includes('sizePerThread = [4]'), 'definition: ' + def);
  eq(await hoverIn(page, '%x_4 = ttg.convert_layout %x_3', 3, 'convert_layout'), '', 'no tip on an op name');
  eq(page.problems, [], 'problems');
  await page.close();
});

await test('layout hover in a stored diff (a sub-step: inline layouts)', async () => {
  // softmax 36.1 (SoftwarePipeliner ExpandLoops, stderr.txt:63): Triton's own dump
  // prints layouts inline, e.g. "+    %14 = tt.splat %6 : i1 -> tensor<1024xi1,
  // #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>>"
  // (1 x 32 x 8 = 256: a 1024 tensor takes 4, 4 elements a thread).
  const SM = report(path.join(DUMPS, 'softmax'), 'sm-lay');
  const page = await openReady(browser, kernelUrl(SM, '#pass=36.1'));
  await page.waitForFunction(() => /^36\.1: /.test(document.querySelector('#pass-bar strong').textContent) && document.querySelector('#pass-rows .drow'));
  const tip = await hoverIn(page, '= tt.splat %6 : i1 -> tensor<1024xi1,', 3, '#ttg.blocked');
  assert(tip && tip.includes('1 × 32 × 8 = 256') && tip.includes('4 repetitions'), 'inline: ' + tip);
  eq(page.problems, [], 'problems');
  await page.close();
});

await test('n / p always move the current change, centred, and come round', async () => {
  // pass 14 (TritonGPUCoalesce) has three change groups (`tkview diff --pass 14`:
  // @@ -1,4 +1,5 @@, @@ -20,10 +21,16 @@, @@ -35,7 +42,10 @@).  The middle group
  // can be centred; a group taller than the view shows from its heading.
  const page = await openReady(browser, kernelUrl(VA, '#pass=14'), { width: 1400, height: 950 });
  await page.waitForFunction(() => document.querySelector('#pass-rows .drow'));
  const state = () => page.evaluate(() => {
    const box = document.getElementById('pass-rows');
    const v = window.TK.use('passes').inspect().view;
    const cur = [...box.querySelectorAll('.drow.cur')];
    const head = box.querySelector('.dgroup.cur');
    const r = box.getBoundingClientRect();
    const mid = cur.length ? (cur[0].getBoundingClientRect().top + cur.at(-1).getBoundingClientRect().bottom) / 2 : null;
    const tall = cur.length && cur.at(-1).getBoundingClientRect().bottom - cur[0].getBoundingClientRect().top > box.clientHeight - 36;
    return { tall, headAt: head ? Math.round(head.getBoundingClientRect().top - r.top) : null, cur: v.cur, head: head ? head.textContent.slice(0, 12) : null, rows: cur.length,
      off: mid === null ? null : Math.round(mid - (r.top + r.bottom) / 2),
      top: box.scrollTop, max: box.scrollHeight - box.clientHeight };
  });
  const seq = [];
  for (const k of ['n', 'n', 'n', 'n', 'p']) {
    await page.keyboard.press(k);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const s = await state();
    seq.push(s.cur);
    assert(s.head === 'change ' + (s.cur + 1) + ' of ', 'the heading marked: ' + s.head);
    assert(s.rows > 0, 'changed rows marked');
    // centred, unless the pane is scrolled to an end or the group is taller than the view
    assert(Math.abs(s.off) <= 18 || s.top === 0 || s.top >= s.max - 1 || (s.tall && Math.abs(s.headAt) <= 1),
      'centred: ' + JSON.stringify(s));
    if (s.cur === 1) assert(Math.abs(s.off) <= 18, 'the middle group centred: ' + JSON.stringify(s));
  }
  eq(seq, [1, 2, 0, 1, 0], 'opened on change 1; n n n n p: 2, 3, round to 1, 2, back to 1');
  // scrolled away to the top: n goes on from the change in view
  await page.evaluate(() => { document.getElementById('pass-rows').scrollTop = 0; });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.keyboard.press('n');
  const s = await state();
  assert(s.cur === 1 || s.cur === 2, 'from the change in view, onwards: ' + s.cur);
  eq(page.problems, [], 'problems');
  await page.close();
});

await test('Ctrl+F in pass mode finds in every row of the open diff, drawn or not', async () => {
  // pass 14's diff (`tkview diff --pass 14`): ttg.convert_layout is on 9 added lines
  // (mlir_passes.txt:1276-1279, 1281-1284, 1288-1290 after the pass: x, y, the store),
  // of which the first is the replaced row of `%x_4 = tt.load`.  A short window: not
  // all rows are drawn.
  const page = await openReady(browser, kernelUrl(VA, '#pass=14'), { width: 1400, height: 420 });
  await page.waitForFunction(() => document.querySelector('#pass-rows .drow'));
  await page.click('#pass-rows');
  await page.keyboard.press('Control+f');
  await page.waitForSelector('#findbar:not([hidden])');
  await page.keyboard.type('convert_layout');
  await page.waitForFunction(() => /of 9$/.test(document.getElementById('find-count').textContent));
  const look = () => page.evaluate(() => {
    const box = document.getElementById('pass-rows'), r = box.getBoundingClientRect();
    const cur = box.querySelector('.drow.found-cur');
    const c = cur ? cur.getBoundingClientRect() : null;
    return { count: document.getElementById('find-count').textContent, text: cur ? cur.children[3].textContent : null,
      off: c ? Math.round((c.top + c.bottom) / 2 - (r.top + r.bottom) / 2) : null, top: box.scrollTop, max: box.scrollHeight - box.clientHeight,
      drawn: box.querySelectorAll('.drow').length, found: window.TK.use('find').inspect().hits.length };
  });
  let w = await look();
  eq(w.count, '1 of 9', 'k of n');
  assert(w.text.includes('%x_4 = ttg.convert_layout %x_3'), 'the first: ' + w.text);
  const seen = [w.text];
  for (let i = 0; i < 8; i++) {
    await page.keyboard.press('Enter');
    w = await look();
    seen.push(w.text);
    assert(Math.abs(w.off) <= 20 || w.top === 0 || w.top >= w.max - 1, 'centred: ' + JSON.stringify(w));
  }
  eq(w.count, '9 of 9', 'stepped to the last');
  assert(seen.at(-1).includes('%4 = ttg.convert_layout %mask_2'), 'the last: ' + seen.at(-1));
  eq(new Set(seen).size, 9, 'nine rows');
  await page.keyboard.press('Escape');
  eq(await page.$$eval('#pass-rows .drow.found, #pass-rows .drow.found-cur', (r) => r.length), 0, 'marks cleared');
  eq(page.problems, [], 'problems');
  await page.close();
});

await test('a pass with nothing comparable before it: the sentence, then its IR after it in one pane, as tkview diff says it', async () => {
  // sample_dumps/amd_gfx942, add_sum_kernel: pass 61 is LLVM's first dump
  // ("; *** IR Dump After Annotation2MetadataPass on [module] ***", line 1
  // of passes/llvm.txt.gz).  Its text runs to the next header (line 297):
  // 295 lines, of which 42 are blank and 25 debug-info metadata (`!N =
  // !DI...`, `distinct !DI...`), left out as in every diff: 228 lines,
  // the first "; ModuleID = 'LLVMDialectModule'" (line 1 of its text).
  const AMD = report(path.join(process.env.TK_TEST_SAMPLES, 'amd_gfx942'), 'amd');
  const page = await openReady(browser, kernelUrl(AMD, '#pass=61'), { width: 1400, height: 900 });
  await page.waitForFunction(() => {
    const b = document.querySelector('#pass-bar strong');
    return b && b.textContent.startsWith('61: Annotation2MetadataPass') && document.querySelector('#pass-rows .drow');
  });
  const got = await page.evaluate(() => {
    const P = window.TK.use('passes').inspect();
    const d = P.diff;
    return {
      sentence: document.querySelector('#pass-rows .dhead .why').textContent,
      heads: [...document.querySelectorAll('#pass-rows .dgroup')].map((h) => h.textContent),
      counts: document.querySelectorAll('#pass-bar .cnt').length,
      rows: d.groups[0].length,
      first: d.groups[0][0].slice(3, 5),
      cols: [...document.querySelectorAll('#pass-rows .drow')].map((r) => r.children.length),
    };
  });
  // the words of `tkview diff --pass 61`, byte for byte: its first line
  // after "KERNEL: PASS (pass 61): ", and its second
  const cli = spawnSync(TKVIEW, ['diff', path.join(process.env.TK_TEST_SAMPLES, 'amd_gfx942'), '--kernel', '0',
    '--pass', '61', '--wide'], { encoding: 'utf8' });
  eq(cli.status, 0, 'tkview diff: ' + cli.stderr);
  const lines = cli.stdout.split('\n');
  const lead = 'add_sum_kernel: Annotation2MetadataPass (pass 61): ';
  assert(lines[0].startsWith(lead), lines[0]);
  eq(got.sentence, lines[0].slice(lead.length), 'the sentence, as tkview diff prints it');
  assert(got.sentence.startsWith('Effect unknown: nothing comparable before it. '), got.sentence);
  eq(got.heads, [lines[1]], 'one heading, the CLI\'s "Its IR after it, ...:"');
  eq(lines[1], 'Its IR after it, llvm.txt.gz:1:', 'the CLI names the text');
  eq([got.rows, got.first], [228, [1, "; ModuleID = 'LLVMDialectModule'"]], 'its 228 lines, numbered');
  eq(got.counts, 0, 'no +/- counts');
  assert(got.cols.length > 0 && got.cols.every((n) => n === 2), 'one pane: a line number and a text per row, ' + got.cols.slice(0, 3));
  await page.screenshot({ path: path.join(ART, 'pass-after-only.png') });
  // pass 60, ConvertBuiltinFuncToLLVM (mlir.txt.gz: its Before dump, the
  // last MLIR one, and no dump after it): the page says what `tkview diff
  // --pass 60` says on stderr after "ConvertBuiltinFuncToLLVM: "
  const no = spawnSync(TKVIEW, ['diff', path.join(process.env.TK_TEST_SAMPLES, 'amd_gfx942'), '--kernel', '0',
    '--pass', '60'], { encoding: 'utf8' });
  const said = no.stderr.trim().split('ConvertBuiltinFuncToLLVM: ')[1];
  assert(no.status === 1 && said && said.startsWith('Effect unknown: no dump after it. '), no.stderr);
  const shown = await page.evaluate(async () => {
    await window.TK.use('passes').select(60);
    return [document.querySelector('#pass-rows .why').textContent, document.querySelectorAll('#pass-rows .drow').length];
  });
  eq(shown, [said, 0], 'pass 60: the sentence of tkview diff, no rows');
  eq(page.problems, [], 'problems');
  await page.close();
});

await browser.close();
finish();
