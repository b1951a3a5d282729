/* compare.js - a comparison page: two compilations of a kernel, pass by
 * pass.
 *
 * Job: on a comparison page (body.compare), from data/cNNN/compare.js
 * (data_compare.c): the first divergence on top, the two pipelines aligned
 * row by row (passes only one side ran marked as such, the first
 * divergence highlighted), the two configurations, final stages and SASS
 * per source line side by side, and for the selected row the two sides'
 * IR after it (or before it) as a side-by-side diff, loaded from
 * data/cNNN/dK.js when first shown; a final stage clicked (or, without a
 * divergence in the passes, the first that differs) diffed whole from
 * data/cNNN/sK.js.  Keys: j / k (or arrows) next /
 * previous row, f the first divergence, d the next row whose pass did
 * something different to the two, b / a the IR before / after the row.
 * Every verdict and diff was made by libtkdump (tk_compare.h); this only
 * shows them.
 *
 * Depends on: dom (el), data (get, load), syntax (paint, dialectLang).
 * Interface: start(), inspect() (for the tests, read only: {row, which,
 *   diff: the shown diff's number or its reason ("sK": final stage K),
 *   stage: the final stage shown ('' none), rows: drawn diff rows}).
 */
'use strict';
TK.define('compare', ['dom', 'data', 'syntax'], function (dom, data, syntax) {
  const { el } = dom;
  const S = { id: '', c: null, row: -1, which: 'after', diff: null, drawn: 0, stage: '' };
  const MARK = { same: '=', different: '\u2260', unknown: '?' };
  const LEVEL_DIALECT = { ttir: 'mlir', ttgir: 'mlir', 'llvm-dialect': 'mlir', 'llvm-ir': 'llvm', 'codegen-ir': 'llvm' };
  const DRAW_ROWS = 1500;

  function passWords(r) {
    return r.arg ? r.pass + ' (' + r.arg + ')' : r.pass;
  }

  function renderFirst() {
    const c = S.c, box = document.getElementById('first');
    box.replaceChildren();
    if (!c.passes_compared) {
      box.appendChild(el('span', null, 'A kernel has no pass dumps: only the configurations and final stages are compared.'));
      return;
    }
    if (c.first === null) {
      box.appendChild(el('span', null, 'No divergence: every pass\u2019s output is the same in both, once locations and value numbers are normalized away' + (c.unknown_before ? ' (' + c.unknown_before + ' could not be compared).' : '.')));
      return;
    }
    const r = c.rows[c.first];
    box.appendChild(el('span', null, 'First divergence: '));
    const b = el('button', 'link', passWords(r));
    b.type = 'button';
    b.id = 'goto-first';
    b.title = 'key f';
    b.addEventListener('click', () => select(c.first));
    box.appendChild(b);
    const where = r.align === 'both' ? ' (' + r.level + ', pass ' + r.a.i + ' of A, ' + r.b.i + ' of B)'
      : ' (' + r.level + ', only ' + r.align.toUpperCase() + ' runs it)';
    box.appendChild(el('span', null, where + '. ' + (r.input === 'different'
      ? 'The IR before it already differs: the two start from different IR.'
      : r.input === 'same' ? 'The IR before it is the same; the IR after it differs.'
        : 'The IR before it could not be compared.')));
    if (c.unknown_before) box.appendChild(el('span', 'warn', ' ' + c.unknown_before + ' earlier pass(es) could not be compared: the divergence may lie there.'));
  }

  function renderRows() {
    const c = S.c, box = document.getElementById('cv-rows');
    const head = el('div', 'cvr head');
    for (const t of ['row', 'A', 'B', 'level', 'out', 'did', 'pass']) head.appendChild(el('span', null, t));
    const frag = document.createDocumentFragment();
    frag.appendChild(head);
    c.rows.forEach((r, i) => {
      const row = el('div', 'cvr ' + r.output + (r.align !== 'both' ? ' only only-' + r.align : '') + (i === c.first ? ' first' : ''));
      row.dataset.row = i;
      row.append(el('span', 'no', i), el('span', 'no', r.a ? r.a.i : '\u2013'), el('span', 'no', r.b ? r.b.i : '\u2013'),
        el('span', 'lv', r.level), el('span', 'v ' + r.output, MARK[r.output]),
        el('span', 'v ' + (r.align === 'both' ? r.effect : ''), r.align === 'both' ? MARK[r.effect] : ''));
      const nm = el('span', 'nm', passWords(r) + (r.align !== 'both' ? '  [only ' + r.align.toUpperCase() + ']' : ''));
      nm.title = (r.a ? 'A: ' + r.a.effect + ' +' + r.a.added + ' \u2212' + r.a.removed : 'A does not run it') + '\n' +
        (r.b ? 'B: ' + r.b.effect + ' +' + r.b.added + ' \u2212' + r.b.removed : 'B does not run it') +
        '\nIR after it: ' + r.output + '; what it did: ' + (r.align === 'both' ? r.effect : 'one side only');
      row.appendChild(nm);
      row.addEventListener('click', () => select(i));
      frag.appendChild(row);
    });
    box.replaceChildren(frag);
    if (!c.rows.length) box.appendChild(el('p', 'why', 'No pass rows: a kernel has no pass dumps.'));
  }

  function table(cls, heads, rows) {
    const t = el('table', cls);
    const tr = el('tr');
    for (const h of heads) tr.appendChild(el('th', null, h));
    t.appendChild(el('thead')).appendChild(tr);
    const tb = el('tbody');
    for (const r of rows) tb.appendChild(r);
    t.appendChild(tb);
    return t;
  }

  function renderFacts() {
    const c = S.c, box = document.getElementById('cv-facts');
    box.replaceChildren(el('h3', null, 'Configuration'));
    box.appendChild(table('cfg', ['', 'A', 'B'], c.config.map((it) => {
      const tr = el('tr', it.a !== it.b ? 'differs' : '');
      const nm = el('td', 'nm', it.name);
      nm.title = 'from ' + it.origin;
      tr.append(nm, el('td', null, it.a === null ? '\u2013' : it.a), el('td', null, it.b === null ? '\u2013' : it.b));
      return tr;
    })));
    box.appendChild(el('h3', null, 'Final stages'));
    box.appendChild(table('stages', ['stage', 'A \u2192 B'], c.stages.map((s) => {
      const tr = el('tr', s.verdict + (s.diff !== undefined ? ' has-diff' : ''));
      tr.append(el('td', null, s.stage), el('td', null, s.verdict === 'same' ? 'the same'
        : s.verdict === 'different' ? '+' + s.added + ' \u2212' + s.removed : 'only ' + (s.a ? 'A' : 'B') + ' has it'));
      if (s.diff !== undefined) {
        /* the whole stage diffed, shown in the diff pane */
        tr.dataset.stage = s.kind;
        tr.title = 'show the ' + s.stage + ' diff' + (s.kind === 'ptx' || s.kind === 'sass' ? ' (registers renamed by first use, as tkview diff shows it)' : '');
        tr.addEventListener('click', () => showStage(s));
      }
      return tr;
    })));
    const differ = c.lines.filter((l) => l[2] !== l[3]).length;
    box.appendChild(el('h3', null, 'SASS per source line'));
    box.appendChild(el('p', 'dim', c.lines.length + ' lines, ' + differ + ' with other counts (instructions whose innermost frame is the line; hover for those with it in any frame)'));
    box.appendChild(table('lines', ['line', 'A', 'B'], c.lines.map((l) => {
      const tr = el('tr', l[2] !== l[3] ? 'differs' : '');
      const f = el('td', 'nm', dom.base(l[0]) + ':' + l[1]);
      f.title = l[0];
      const a = el('td', 'num', l[2]), b = el('td', 'num', l[3]);
      a.title = l[4] + ' with what it called';
      b.title = l[5] + ' with what it called';
      tr.append(f, a, b);
      return tr;
    })));
  }

  /* The diff reference of the shown point: a number, "same" or a reason. */
  function refOf(i, which) {
    const rows = S.c.rows;
    if (which === 'after') return rows[i].d;
    if (i === 0) return rows[0].din;
    return rows[i - 1].d;
  }

  /* Final stage S (an entry of c.stages with a diff) diffed whole, from
   * data/cNNN/sK.js, in the diff pane. */
  async function showStage(s) {
    S.row = -1;
    S.stage = s.kind;
    document.querySelectorAll('#cv-rows .cvr.on, #cv-facts tr.on').forEach((x) => x.classList.remove('on'));
    const tr = document.querySelector('#cv-facts tr[data-stage="' + s.kind + '"]');
    if (tr) tr.classList.add('on');
    const bar = document.getElementById('cv-bar'), out = document.getElementById('cv-diff');
    bar.replaceChildren(el('strong', null, 'final ' + s.stage + ', A \u2192 B' + (s.kind === 'ptx' || s.kind === 'sass' ? ' (registers renamed by first use)' : '')));
    out.replaceChildren();
    out.scrollTop = 0;
    S.diff = 's' + s.diff;
    S.drawn = 0;
    let d;
    try {
      d = await data.load(S.id + '/s' + s.diff);
    } catch (e) {
      out.appendChild(el('p', 'why', e.message));
      return;
    }
    if (S.stage !== s.kind) return; /* moved on meanwhile */
    bar.append(el('span', 'cnt plus', '+' + d.added), el('span', 'cnt minus', '\u2212' + d.removed),
      el('span', 'file', d.a + '  |  ' + d.b));
    drawDiff(d, syntax.stageLang(s.kind), DRAW_ROWS);
  }

  async function showDiff() {
    S.stage = '';
    document.querySelectorAll('#cv-facts tr.on').forEach((x) => x.classList.remove('on'));
    const i = S.row, r = S.c.rows[i];
    const ref = refOf(i, S.which);
    const bar = document.getElementById('cv-bar'), out = document.getElementById('cv-diff');
    bar.replaceChildren(el('strong', null, 'IR ' + S.which + ' row ' + i + ': ' + passWords(r)));
    for (const w of ['before', 'after']) {
      const b = el('button', 'toggle' + (S.which === w ? ' on' : ''), 'IR ' + w);
      b.type = 'button';
      b.id = 'cv-' + w;
      b.title = 'key ' + w[0];
      b.addEventListener('click', () => { S.which = w; showDiff(); });
      bar.appendChild(b);
    }
    out.replaceChildren();
    out.scrollTop = 0;
    S.diff = ref;
    S.drawn = 0;
    if (typeof ref !== 'number') {
      out.appendChild(el('p', 'why', ref === 'same' ? 'The same in both, once locations and value numbers are normalized away.' : 'No diff: ' + ref + '.'));
      return;
    }
    let d;
    try {
      d = await data.load(S.id + '/d' + ref);
    } catch (e) {
      out.appendChild(el('p', 'why', e.message));
      return;
    }
    if (S.row !== i || refOf(i, S.which) !== ref) return; /* moved on meanwhile */
    bar.append(el('span', 'cnt plus', '+' + d.added), el('span', 'cnt minus', '\u2212' + d.removed),
      el('span', 'file', d.a + '  |  ' + d.b));
    drawDiff(d, syntax.dialectLang(LEVEL_DIALECT[r.level]), DRAW_ROWS);
  }

  function drawDiff(d, lang, budget) {
    const out = document.getElementById('cv-diff');
    const more = document.getElementById('cv-more');
    if (more) more.remove();
    const frag = document.createDocumentFragment();
    let n = 0, seen = 0;
    for (let gi = 0; gi < d.groups.length && n < budget; gi++) {
      const g = d.groups[gi];
      if (seen + g.length <= S.drawn) {
        seen += g.length;
        continue;
      }
      if (seen >= S.drawn) {
        const fa = g.find((x) => x[1]), fb = g.find((x) => x[3]);
        frag.appendChild(el('div', 'dgroup', 'difference ' + (gi + 1) + ' of ' + d.groups.length + (fa ? ' \u2014 A: line ' + fa[1] : '') + (fb ? ', B: line ' + fb[3] : '')));
      }
      for (let k = Math.max(0, S.drawn - seen); k < g.length && n < budget; k++, n++) {
        const x = g[k];
        const row = el('div', 'drow ' + x[0]);
        const side = (no, text, cls) => {
          const t = el('span', 'tx ' + cls);
          if (text !== null) syntax.paint(t, text, lang, null);
          row.append(el('span', 'no', no || ''), t);
        };
        side(x[1], x[2], x[0] === 'e' ? '' : x[0] === 'i' ? 'none' : 'del');
        side(x[3], x.length > 4 ? x[4] : x[2], x[0] === 'e' ? '' : x[0] === 'd' ? 'none' : 'add');
        frag.appendChild(row);
      }
      seen += g.length;
    }
    S.drawn += n;
    let total = 0;
    for (const g of d.groups) total += g.length;
    if (S.drawn < total) {
      const b = el('button', null, 'show ' + (total - S.drawn) + ' more rows');
      b.type = 'button';
      b.id = 'cv-more';
      b.addEventListener('click', () => drawDiff(d, lang, Infinity));
      frag.appendChild(b);
    } else if (d.cut) frag.appendChild(el('p', 'why', d.cut + ' more rows of this diff are not stored in the report.'));
    if (!d.groups.length) frag.appendChild(el('p', 'why', 'The two texts compare equal.'));
    out.appendChild(frag);
  }

  function select(i) {
    if (i < 0 || i >= S.c.rows.length) return;
    S.row = i;
    const box = document.getElementById('cv-rows');
    box.querySelectorAll('.cvr.on').forEach((x) => x.classList.remove('on'));
    const row = box.querySelector('.cvr[data-row="' + i + '"]');
    if (row) {
      row.classList.add('on');
      const top = row.offsetTop - box.offsetTop;
      if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - row.offsetHeight) box.scrollTop = top - box.clientHeight / 3;
    }
    showDiff();
  }

  function nextEffect() {
    const rows = S.c.rows;
    for (let i = S.row + 1; i < rows.length; i++) {
      if (rows[i].align !== 'both' || rows[i].effect === 'different') {
        select(i);
        return;
      }
    }
  }

  function onKey(ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const k = ev.key;
    if (k === 'j' || k === 'ArrowDown') select(S.row + 1);
    else if (k === 'k' || k === 'ArrowUp') select(S.row - 1);
    else if (k === 'f' && S.c.first !== null) select(S.c.first);
    else if (k === 'd') nextEffect();
    else if ((k === 'b' || k === 'a') && S.row >= 0) {
      S.which = k === 'b' ? 'before' : 'after';
      showDiff();
    } else return;
    ev.preventDefault();
  }

  function start() {
    if (!document.body.classList.contains('compare')) return;
    S.id = document.body.dataset.compare;
    S.c = data.get(S.id + '/compare');
    if (!S.c) {
      document.body.appendChild(el('p', 'why', 'The data of this comparison could not be loaded (data/' + S.id + '/compare.js).'));
      document.body.dataset.ready = 'error';
      return;
    }
    document.body.classList.add('hideloc'); /* report.css: location suffixes hidden */
    renderFirst();
    renderRows();
    renderFacts();
    document.addEventListener('keydown', onKey);
    /* Without pass rows, or with no divergence in them, the page opens on
     * the first final stage that differs: the change is there, and the
     * diff pane is never left empty. */
    const firstStage = S.c.stages.find((s) => s.diff !== undefined);
    if (!S.c.rows.length) document.getElementById('cv-rows').closest('.cv-left').classList.add('norows');
    if (S.c.rows.length && (S.c.first !== null || !firstStage)) select(S.c.first !== null ? S.c.first : 0);
    else if (firstStage) showStage(firstStage);
    else document.getElementById('cv-diff').appendChild(el('p', 'why', 'The final stages are the same in both' + (S.c.rows.length ? '' : ', and there are no pass dumps to compare') + '.'));
    document.body.dataset.ready = '1';
  }

  function inspect() {
    return { row: S.row, which: S.which, diff: S.diff, stage: S.stage, rows: document.querySelectorAll('#cv-diff .drow').length };
  }

  return { start, inspect };
});

/* A comparison page's entry point (a kernel page starts from app.js). */
document.addEventListener('DOMContentLoaded', () => TK.use('compare').start());
