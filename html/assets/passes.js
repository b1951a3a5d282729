/* passes.js - pass mode: what each compiler pass changed.
 *
 * Job: the pass timeline (data/ID/passes.js) grouped by IR level with the
 * unchanged passes folded, a chart of the lines each pass changed, the
 * side-by-side diff of one pass, of a sub-step (N.J, as `tkview passes`
 * numbers SoftwarePipeliner's), of a whole level, or of any two passes of
 * one chain (before the first to after the second), in a virtual diff pane
 * (diffview: only the rows in view are elements);
 * keys to step through changes and changed passes; the passes that touched
 * a source line, and in each diff the rows that come from it.  Which
 * pass, range or level is shown, and the diff on screen, are this
 * module's state.
 *
 * Depends on: dom (el, base), data (load, expand), syntax
 *   (dialectLang), kernel (id, path), chain (compose), diffview (DiffView),
 *   find (attachDiff, diffShown: the find bar over the open diff),
 *   layouts (tipFor, hide: a TTGIR layout explained on hover in a diff),
 *   passchart (chart: the lines each pass changed), passnotes (seeCommand,
 *   tooBig, budgetNote: what a diff says it left out).
 * Interface: open() -> Promise (the timeline loaded and drawn), warm()
 *   (what open() shows first loaded, not drawn: for an idle page), key(ev),
 *   forSource(file, line, first = true) (the passes that touched a source
 *   line marked, and the rows of the diffs from it; FIRST: the first of
 *   them opened), select(i), selectSub(i, j), subs(i) (how many
 *   sub-steps pass i lists), compare(n, m), list() (the passes of the
 *   timeline: their pass and arg name them, links.js passRef),
 *   shown() ({sel, range, sub, src,
 *   count}: the pass, range or sub-step ("N.J") shown, the source line
 *   whose rows are marked ({file, line}), the number of passes; for the
 *   page's URL), inspect() (for the
 *   tests, read only: data, sel, range, diff, group, ...).
 */
'use strict';
TK.define('passes', ['dom', 'data', 'syntax', 'kernel', 'chain', 'diffview', 'find', 'layouts', 'passchart', 'passnotes'], function (dom, data, syntax, kernel, chain, diffview, find, layouts, passchart, notes) {
  const { el, base } = dom;
  const expand = data.expand;
  const P = { data: null, sel: -1, level: -1, diff: null, group: 0, touched: null, shown: new Set(), anchor: -1, range: null, groups: new Map(), view: null, sub: null, src: null };

  /* F run once the page is idle (within 200 ms). */
  const idle = (f) => (window.requestIdleCallback ? requestIdleCallback(f, { timeout: 200 }) : setTimeout(f, 50));

  function passLabel(p) {
    return p.pass + (p.arg && p.arg !== p.pass ? ' (' + p.arg + ')' : '');
  }

  /* The diff from the text before pass N to the text after pass M of chain
   * CI, its sides named as the timeline names them. */
  async function composeDiff(ci, n, m) {
    const d = await chain.compose(ci, n, m, P.data.diffs);
    const ps = P.data.passes;
    return { a: ps[n].before, b: ps[m].after, added: d.added, removed: d.removed, groups: d.groups, cut: d.cut, composed: n !== m, rs: d.rs, st: d.st, ry: d.ry, ly: d.ly };
  }

  /* Pass I (P), with nothing comparable before it (tk_timeline_diff_shown()):
   * its IR after it alone, one pane under the library's sentence, as
   * `tkview diff --pass I` and the viewer show it; the first text of the
   * chain that goes on from it (p.ac), else its own file (pa-I.js). */
  async function afterOnly(i, p) {
    let t, st, cut = 0;
    if (p.ac !== undefined) {
      const ch = await chain.load(p.ac);
      t = chain.text(ch, 0);
      st = ch.st;
    } else {
      const f = await data.load(kernel.id() + '/pa-' + i);
      t = { t: f.t, ln: chain.lines(f.n, f.t.length), s: f.s };
      st = f.st;
      cut = f.cut;
    }
    const rows = [], rs = [];
    for (let k = 0; k < t.t.length; k++) {
      rows.push(['e', 0, null, t.ln[k], t.t[k]]);
      rs.push(0, t.s[k]);
    }
    return { one: 'Its IR after it, ' + p.after + ':', sentence: p.sentence, b: p.after, groups: [rows], rs: [rs], st, cut };
  }

  /* The stored diff of a changed pass outside a chain: in its level's
   * file, or in a file of its own when it is over the budget for one pass
   * (pb-N.js). */
  async function storedDiff(i) {
    if (P.data.passes[i].pb) return data.load(kernel.id() + '/pb-' + i);
    const lv = P.data.levels.find((l) => l.from <= i && i <= l.to);
    if (!lv || !lv.pd) return null;
    let g = P.groups.get(lv.pd);
    if (!g) {
      g = await data.load(kernel.id() + '/' + lv.pd);
      P.groups.set(lv.pd, g);
    }
    return g.p[i] || null;
  }

  async function passesOpen() {
    const view = document.getElementById('pass-view');
    if (!P.data) {
      view.replaceChildren(el('p', 'why', 'Loading the pass timeline\u2026'));
      P.data = await data.load(kernel.id() + '/passes');
      const first = P.data.passes.findIndex((p) => p.effect === 'changed');
      if (first >= 0) prefetch(first, P.data); /* loads while the view is laid out */
      buildPassView(view);
      if (first >= 0) await selectPass(first);
      /* The compare menus (an option per pass of every chain, 500 on the
       * largest kernels): a third of the view's first layout, made once
       * the first pass is drawn. */
      idle(() => renderCompare());
    }
    document.body.dataset.passes = '1';
  }

  function buildPassView(view) {
    view.replaceChildren();
    const chart = el('div', 'pv-chart');
    chart.appendChild(passchart.chart(P.data, passLabel, (i, shift) => (shift ? shiftPick(i) : selectPass(i))));
    const list = el('div', 'pv-list');
    list.id = 'pass-list';
    const diff = el('div', 'pv-diff');
    const bar = el('div', 'bar');
    bar.id = 'pass-bar';
    const cmp = el('div', 'bar cmp');
    cmp.id = 'pass-compare';
    const body = el('div', 'code pv-rows');
    body.id = 'pass-rows';
    diff.append(bar, cmp, body);
    view.append(chart, list, diff);
    P.view = new diffview.DiffView(body);
    /* A TTGIR layout reference (#blocked1, an inline #ttg.slice<...>) in a
     * row: the tip of the code panes, with the layouts of the pass's text
     * (data_layouts.h). */
    let tipOn = null;
    body.addEventListener('mousemove', (ev) => {
      const hit = P.view.layoutAt(ev.target, ev.clientX, ev.clientY);
      const key = hit && hit.use.join(',') + ':' + ev.target.closest('.drow').dataset.k;
      if (key === tipOn) return;
      tipOn = key;
      body.style.cursor = hit ? 'help' : '';
      if (hit) layouts.tipFor(hit.lay, hit.use, ev.clientX, ev.clientY);
      else layouts.hide();
    });
    body.addEventListener('mouseleave', () => {
      if (tipOn) layouts.hide();
      tipOn = null;
      body.style.cursor = '';
    });
    /* The find bar searches the open diff while pass mode shows one. */
    find.attachDiff({ active: () => !document.getElementById('pass-view').hidden && !!P.diff, view: () => P.view });
    renderPassList();
  }

  /* Pass I's diff loaded, not drawn (D: the timeline): its stored diff's
   * file, or its chain's data and the diff composed from it (chain.js
   * keeps it for the selectPass() that shows it). */
  function prefetch(i, d) {
    const p = d.passes[i], lv = d.levels.find((l) => l.from <= i && i <= l.to);
    const file = p.ch !== undefined ? null : p.pb ? 'pb-' + i : lv && lv.pd;
    (file ? data.load(kernel.id() + '/' + file) : chain.compose(p.ch, i, i, d.diffs)).catch(() => null);
  }

  /* Two passes of one chain to compare: the text before the first against
   * the text after the second (shift-click in the list does the same). */
  function renderCompare() {
    const cmp = document.getElementById('pass-compare');
    cmp.replaceChildren();
    const ps = P.data.passes;
    if (!P.data.chains || !P.data.chains.length) {
      cmp.appendChild(el('span', 'file', 'No passes to compose: no two consecutive pass dumps of the same IR could be compared (one pass at a time only).'));
      return;
    }
    const mk = (id) => {
      const s = document.createElement('select');
      s.id = id;
      P.data.chains.forEach(([f, t], ci) => {
        const g = document.createElement('optgroup');
        g.label = ps[f].level + (ps[t].level !== ps[f].level ? '\u2013' + ps[t].level : '') + ': passes ' + f + '\u2013' + t;
        for (let i = f; i <= t; i++) {
          if (ps[i].ch !== ci) continue; /* a loop pass the chain steps over */
          const o = document.createElement('option');
          o.value = String(i);
          o.dataset.ch = String(ci);
          o.textContent = i + ': ' + passLabel(ps[i]) + (ps[i].effect === 'changed' ? ' +' + ps[i].added + ' \u2212' + ps[i].removed : '');
          g.appendChild(o);
        }
        s.appendChild(g);
      });
      return s;
    };
    const a = mk('cmp-from'), b = mk('cmp-to');
    const go = el('button', null, 'compare');
    go.type = 'button';
    go.id = 'cmp-go';
    go.title = 'The IR before the first pass against the IR after the second; shift-click a pass in the list to do the same';
    go.addEventListener('click', () => { if (a.value && b.value) comparePasses(+a.value, +b.value); });
    cmp.append(el('span', null, 'before'), a, el('span', null, 'to after'), b, go);
    syncCompare();
  }

  function syncCompare() {
    const r = P.range || (P.sel >= 0 ? [P.sel, P.sel] : null);
    if (!r) return;
    for (const [id, v] of [['cmp-from', r[0]], ['cmp-to', r[1]]]) {
      const s = document.getElementById(id);
      if (!s) continue;
      /* a pass no chain holds (nothing comparable before it) leaves both
       * empty rather than showing some other pass */
      if (s.querySelector('option[value="' + v + '"]')) s.value = String(v);
      else s.selectedIndex = -1;
    }
  }

  function renderPassList() {
    const list = document.getElementById('pass-list');
    list.replaceChildren();
    const ps = P.data.passes;
    for (const lv of P.data.levels) {
      /* A converting pass (lv.into: the level it leaves) is a step of its
       * own between two levels (tk_timeline_starts_level()). */
      const h = el('div', 'lvl' + (lv.into ? ' into' : ''), lv.into
        ? lv.level + ' \u2192 ' + lv.into + ' \u2014 pass ' + lv.from
        : lv.level + ' \u2014 passes ' + lv.from + '\u2013' + lv.to);
      if ((lv.diff || lv.chain !== undefined) && lv.to > lv.from) {
        const b = el('button', null, 'whole level');
        b.type = 'button';
        b.title = lv.chain !== undefined
          ? 'The IR before pass ' + lv.cfrom + ' against the IR after pass ' + lv.cto + ', composed from the passes\u2019 diffs'
          : 'The diff from the first pass\u2019s input to the last pass\u2019s output of this level';
        b.addEventListener('click', (ev) => {
          ev.stopPropagation();
          selectLevel(lv);
        });
        h.appendChild(document.createTextNode(' '));
        h.appendChild(b);
      }
      list.appendChild(h);
      let i = lv.from;
      while (i <= lv.to) {
        const p = ps[i];
        const quiet = p.effect === 'unchanged' && !p.subs && !(P.touched && P.touched.has(i));
        const inRange = P.range && i >= P.range[0] && i <= P.range[1];
        if (quiet && !inRange && !P.shown.has(lv.from + ':' + i)) {
          let j = i;
          while (j + 1 <= lv.to && ps[j + 1].effect === 'unchanged' && !(P.touched && P.touched.has(j + 1)) && !(P.range && j + 1 >= P.range[0] && j + 1 <= P.range[1])) j++;
          const f = el('div', 'fold', j - i + 1 + ' unchanged pass' + (j > i ? 'es' : '') + ' \u2026');
          f.title = ps.slice(i, j + 1).map((x) => x.pass).join(', ');
          const a = i, b = j;
          f.addEventListener('click', () => {
            for (let k = a; k <= b; k++) P.shown.add(lv.from + ':' + k);
            renderPassList();
          });
          list.appendChild(f);
          i = j + 1;
          continue;
        }
        const row = el('div', 'ps ' + p.effect + (i === P.sel || inRange ? ' on' : '') + (P.touched && P.touched.has(i) ? ' touch' : ''));
        row.dataset.i = i;
        row.appendChild(el('span', 'ix', i));
        row.appendChild(el('span', 'nm', passLabel(p)));
        if (p.effect === 'changed') {
          row.appendChild(el('span', 'cnt plus', '+' + p.added));
          row.appendChild(el('span', 'cnt minus', '\u2212' + p.removed));
        } else if (p.effect === 'unknown') row.appendChild(el('span', 'cnt', '?'));
        row.title = passLabel(p) + (p.scope ? ' on ' + p.scope : '') + '\n' + p.before + ' \u2192 ' + p.after + (p.why ? '\n' + p.why : '') + (p.note ? '\n' + p.note : '') + (p.sub ? '\n' + p.sub + ' sub-steps' : '') +
          (p.ch !== undefined ? '\nshift-click another pass of this chain: the diff across both' : '') +
          (p.cut ? '\n' + p.cut + ' lines of its diff are not in the report (over its budget for one pass)' : '');
        const idx = i;
        row.addEventListener('click', (ev) => (ev.shiftKey ? shiftPick(idx) : selectPass(idx)));
        list.appendChild(row);
        /* Its sub-steps (SoftwarePipeliner's LowerLoops, ExpandLoops),
         * numbered N.J as `tkview passes` numbers them. */
        (p.subs || []).forEach((s, j) => {
          const sr = el('div', 'pss ' + s.effect + (P.sub === i + '.' + j ? ' on' : ''));
          sr.dataset.sub = i + '.' + j;
          sr.appendChild(el('span', 'ix', i + '.' + j));
          sr.appendChild(el('span', 'nm', s.pass + (s.arg ? ' (' + s.arg + ')' : '')));
          if (s.effect === 'changed') {
            sr.appendChild(el('span', 'cnt plus', '+' + s.added));
            sr.appendChild(el('span', 'cnt minus', '\u2212' + s.removed));
          } else if (s.effect === 'unknown') sr.appendChild(el('span', 'cnt', '?'));
          /* How the library compared it (data_passes.c "note"), in its words. */
          sr.title = s.pass + ' (' + s.arg + ')\n' + s.before + ' \u2192 ' + s.after + (s.note ? '\n' + s.note : '');
          sr.addEventListener('click', () => selectSub(idx, j));
          list.appendChild(sr);
        });
        i++;
      }
    }
  }

  function markSelection() {
    for (const r of document.querySelectorAll('#pass-list .pss'))
      r.classList.toggle('on', P.sel < 0 && !P.range && r.dataset.sub === P.sub);
    for (const r of document.querySelectorAll('#pass-list .ps')) {
      const i = +r.dataset.i;
      r.classList.toggle('on', P.range ? i >= P.range[0] && i <= P.range[1] : i === P.sel);
    }
    /* scrolled in the next frame's layout, not in one of its own now
     * (the diff drawn after this would lay the page out again) */
    if (!P.scrollPending) {
      P.scrollPending = true;
      requestAnimationFrame(() => {
        P.scrollPending = false;
        const on = document.querySelector('#pass-list .ps.on, #pass-list .pss.on');
        if (on) on.scrollIntoView({ block: 'nearest' });
      });
    }
    const m = document.getElementById('pass-chart-sel');
    if (m && P.sel >= 0) m.setAttribute('x', String((P.sel * +document.getElementById('pass-chart').viewBox.baseVal.width) / P.data.passes.length));
    syncCompare();
  }

  async function selectPass(i) {
    const p = P.data.passes[i];
    P.sub = null;
    P.sel = i;
    P.anchor = i;
    P.level = -1;
    const hadRange = !!P.range;
    P.range = null;
    if (hadRange) renderPassList();
    markSelection();
    const title = i + ': ' + passLabel(p) + (p.scope ? ' on ' + p.scope : '');
    if (p.ac !== undefined || p.pa) {
      const d = await afterOnly(i, p);
      if (P.sel === i && !P.range) showDiff(title, p, d, '', [i, i]);
      return;
    }
    if (p.effect !== 'changed') {
      showDiff(title, p, null, p.effect === 'unchanged' ? 'This pass changed nothing (once locations and value numbers are set aside).' : p.sentence);
      return;
    }
    const d = p.ch !== undefined ? await composeDiff(p.ch, i, i) : await storedDiff(i);
    if (P.sel === i && !P.range) showDiff(title, p, d, d ? '' : 'This pass\u2019s diff is not in the report.', [i, i]);
  }

  /* Sub-step J of pass I: its stored diff (ps-I-J.js), as `tkview diff
   * --pass I.J` shows it. */
  async function selectSub(i, j) {
    const s = P.data.passes[i].subs[j];
    P.sel = -1;
    P.range = null;
    P.sub = i + '.' + j;
    markSelection();
    const title = i + '.' + j + ': ' + s.pass + ' (' + s.arg + ')';
    if (s.effect !== 'changed' || !s.ps) {
      showDiff(title, s, null, s.effect === 'unchanged' ? 'This sub-step changed nothing (once locations and value numbers are set aside).'
        : s.effect === 'unknown' ? s.sentence : 'This sub-step\u2019s diff is not in the report.');
      return;
    }
    const d = await data.load(kernel.id() + '/ps-' + i + '-' + j);
    d.level = P.data.passes[i].level;
    if (P.sub === i + '.' + j) showDiff(title, s, d, '', [i, i]);
  }

  /* Shift-click: the diff from the pass clicked before to this one. */
  function shiftPick(i) {
    const a = P.anchor >= 0 ? P.anchor : P.sel;
    if (a < 0) return selectPass(i);
    return comparePasses(Math.min(a, i), Math.max(a, i), true);
  }

  /* The IR before pass N against the IR after pass M (same chain). */
  async function comparePasses(n, m, keepAnchor) {
    P.sub = null;
    const ps = P.data.passes;
    if (n > m) [n, m] = [m, n];
    const bar = document.getElementById('pass-bar');
    if (ps[n].ch === undefined || ps[n].ch !== ps[m].ch) {
      const alone = [n, m].filter((i) => ps[i].ch === undefined);
      const why = alone.length
        ? 'Pass ' + alone.map((i) => i + ' (' + passLabel(ps[i]) + ')').join(' and ') +
          ' cannot be an end of a composed diff: ' +
          alone.map((i) => (ps[i].effect === 'unknown' ? 'its effect is unknown (' + (ps[i].why || 'no text') + ')'
            : ps[i].loop ? 'a loop pass prints only its loop; the next pass of its function shows its changes'
            : ps[i].big ? notes.tooBig(P.data.diffs)
            : 'nothing before it could be compared')).join('; ') + '.' + (alone.some((i) => ps[i].big) ? ' All of it: ' + notes.seeCommand(P.data.diffs, n, m) : '')
        : 'Passes ' + n + ' and ' + m + ' are in different chains: different IR (MLIR, LLVM IR, machine code), or a dump between them is missing or not comparable.';
      bar.replaceChildren(el('strong', null, 'passes ' + n + '\u2013' + m));
      P.diff = null;
      P.view.clear([el('p', 'why', why)]);
      return;
    }
    if (!keepAnchor) P.anchor = n;
    P.range = [n, m];
    P.sel = n === m ? n : -1;
    renderPassList();
    markSelection();
    const d = await composeDiff(ps[n].ch, n, m);
    if (!P.range || P.range[0] !== n || P.range[1] !== m) return;
    d.level = ps[n].level;
    const title = n === m ? n + ': ' + passLabel(ps[n]) : 'passes ' + n + '\u2013' + m + ': before ' + passLabel(ps[n]) + ' \u2192 after ' + passLabel(ps[m]);
    showDiff(title, null, d, '', [n, m]);
  }

  async function selectLevel(lv) {
    P.sub = null;
    if (lv.chain !== undefined) {
      await comparePasses(lv.cfrom, lv.cto);
      return;
    }
    P.sel = -1;
    P.range = null;
    const d = await data.load(kernel.id() + '/' + lv.diff);
    d.level = lv.level;
    showDiff('the whole ' + lv.level + ' level: passes ' + lv.from + '\u2013' + lv.to, null, d, '', [lv.from, lv.to]);
  }

  function showDiff(title, p, d, msg, span) {
    const bar = document.getElementById('pass-bar');
    bar.replaceChildren(el('strong', null, title));
    if (d && d.one) bar.appendChild(el('span', 'file', d.b));
    else if (d) {
      bar.appendChild(el('span', 'cnt plus', '+' + d.added));
      bar.appendChild(el('span', 'cnt minus', '\u2212' + d.removed));
      bar.appendChild(el('span', 'file', d.a + ' \u2192 ' + d.b));
    } else if (p) bar.appendChild(el('span', 'file', p.before + ' \u2192 ' + p.after));
    const nav = [
      ['\u2191 change', 'p', () => gotoGroup(-1)], ['change \u2193', 'n', () => gotoGroup(1)],
      ['\u2190 changed pass', 'k', () => nextChanged(-1)], ['changed pass \u2192', 'j', () => nextChanged(1)],
    ];
    for (const [label, key, fn] of nav) {
      const b = el('button', null, label);
      b.type = 'button';
      b.title = 'key ' + key;
      b.addEventListener('click', fn);
      bar.appendChild(b);
    }
    /* Long lines wrapped (every character on screen) or cut at the
     * column's edge (one line a row; the whole line on hover). */
    const wrap = el('input');
    wrap.type = 'checkbox';
    wrap.id = 'pass-wrap';
    wrap.checked = P.view.wrap;
    wrap.addEventListener('change', () => P.view.setWrap(wrap.checked));
    const wl = el('label', 'wrapbox');
    wl.title = 'key w';
    wl.append(wrap, ' wrap');
    bar.appendChild(wl);
    P.diff = d;
    P.group = 0;
    if (!d) {
      P.view.clear([el('p', 'why', msg)]);
      srcCount();
      return;
    }
    const level = p ? p.level : d.level || '';
    const lv = P.data.levels.find((l) => l.level === level);
    P.lang = syntax.dialectLang(lv && lv.dialect);
    const head = d.one ? [el('p', 'why', d.sentence)] : [];
    const cut = notes.budgetNote(P.data.diffs, d, span || [P.sel, P.sel]);
    if (cut) head.push(cut);
    if (d.composed) head.push(el('p', 'why', 'Composed from the diffs of the passes in between: a line that one pass added and a later one removed is not shown; a line one pass removed and another added back shows as removed and added.'));
    const tail = [];
    if (cut) tail.push(cut.cloneNode(true));
    P.view.show(d, P.lang, head, tail);
    srcCount();
    find.diffShown();
  }

  /* n / p: the next or previous change group always becomes the current
   * one (marked, centred): from the one marked, or, when the reader
   * scrolled away from it, from the one in the middle of the view; past
   * the last it comes round to the first. */
  function gotoGroup(d) {
    if (!P.diff) return;
    const n = P.view.groupCount();
    if (!n) return;
    const cur = P.view.cur;
    const seen = P.view.groupInView();
    let from = cur;
    if (cur < 0) from = d > 0 ? -1 : n;
    else if (P.view.scrolledAway() && seen >= 0) from = seen;
    P.group = (((from + d) % n) + n) % n;
    P.view.scrollToGroup(P.group);
  }

  function nextChanged(d) {
    const ps = P.data.passes;
    const from = P.sel >= 0 ? P.sel : P.range ? (d > 0 ? P.range[1] : P.range[0]) : -1;
    for (let i = from + d; i >= 0 && i < ps.length; i += d) {
      if (ps[i].effect === 'changed' && (!P.touched || P.touched.has(i))) {
        selectPass(i);
        return;
      }
    }
  }

  function passesKey(ev) {
    const k = ev.key;
    if (k === 'n') gotoGroup(1);
    else if (k === 'p') gotoGroup(-1);
    else if (k === 'j') nextChanged(1);
    else if (k === 'k') nextChanged(-1);
    else if (k === 'w') {
      P.view.setWrap(!P.view.wrap);
      const box = document.getElementById('pass-wrap');
      if (box) box.checked = P.view.wrap;
    }
    else return;
    ev.preventDefault();
  }

  /* From a source line: the passes whose changed lines carry it in a
   * stack (the caller shows pass mode). */
  /* FIRST: open the first of them (a link names its own pass). */
  async function passesFor(file, line, first = true) {
    await passesOpen();
    const hit = P.data.touch.find((t) => t[0] === file && t[1] === line);
    P.touched = new Set(hit ? expand(hit[2]) : []);
    P.src = { file, line };
    renderPassList();
    const bar = document.getElementById('pass-bar');
    const p = base(kernel.path(file));
    const old = document.querySelector('#pass-view .touchnote');
    if (old) old.remove();
    const note = el('div', 'touchnote', P.touched.size + ' pass' + (P.touched.size === 1 ? '' : 'es') + ' changed IR of ' + p + ':' + line + ' (marked); j / k step through them. ');
    note.appendChild(el('span', 'srcrows'));
    const clear = el('button', null, 'show all');
    clear.type = 'button';
    clear.addEventListener('click', () => {
      P.touched = null;
      P.src = null;
      P.view.markSource(null);
      renderPassList();
      note.remove();
    });
    note.appendChild(clear);
    bar.parentNode.insertBefore(note, bar);
    /* The rows of every diff shown whose IR comes from the line (in any
     * frame of its stacks, as "passes that touched this line" counts):
     * their line numbers marked, both sides. */
    P.view.markSource((stacks) => stacks.some((fr) => {
      for (let i = 0; i + 1 < fr.length; i += 2) if (fr[i] === file && fr[i + 1] === line) return true;
      return false;
    }));
    srcCount();
    const to = [...P.touched].sort((a, b) => a - b)[0];
    if (first && to !== undefined) await selectPass(to);
  }

  /* "N rows of this diff come from it", in the note of the source line. */
  function srcCount() {
    const sp = document.querySelector('#pass-view .touchnote .srcrows');
    if (!sp) return;
    if (!P.diff) {
      sp.textContent = '';
      return;
    }
    const rows = P.view.sourceRows().length;
    sp.textContent = !P.diff.st || P.diff.st.length < 2 ? 'This diff\u2019s IR carries no source locations. '
      : rows + ' row' + (rows === 1 ? '' : 's') + ' of this diff come' + (rows === 1 ? 's' : '') + ' from it (line numbers marked). ';
  }

  /* The timeline and the first changed pass's diff loaded, not drawn,
   * while the kernel page is idle (app.js asks once it is ready). */
  async function warm() {
    if (P.data || !kernel.meta().passes) return;
    const d = await data.load(kernel.id() + '/passes');
    const first = d.passes.findIndex((p) => p.effect === 'changed');
    if (first >= 0) idle(() => P.data || prefetch(first, d));
  }

  const shown = () => ({ sel: P.sel, range: P.range && P.range.slice(), sub: P.sub || null, src: P.src || null, count: P.data ? P.data.passes.length : 0 });

  /* How many sub-steps pass I has listed (0: none). */
  const subs = (i) => (P.data && P.data.passes[i] && P.data.passes[i].subs ? P.data.passes[i].subs.length : 0);

  return { open: passesOpen, warm, key: passesKey, forSource: passesFor, select: selectPass, selectSub, subs, compare: comparePasses, shown,
    list: () => (P.data ? P.data.passes : []), inspect: () => P };
});
