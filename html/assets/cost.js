/* cost.js - what each line costs, on the kernel page: the heat gutter of
 * the source and IR panes, the metric chosen, and the hot lines panel.
 *
 * Job: loads data/ID/cost.js (html/data_cost.c, from libtkdump's
 * tk_cost.h: per metric the values of every source line, exact,
 * inclusive and shared, and of every IR line of every stage: its own
 * share, what is bound to it, its source line), keeps the
 * metric shown, and answers a line's heat (its value against the largest
 * of its pane, with a tooltip that breaks the value down: exact /
 * inclusive / shared, SASS classes, stall reasons) and draws the hot
 * lines table (source lines or one stage's lines, sorted by any column).
 * Every number was computed by the library; this module looks them up.
 * Its state (the data, the metric, the table's scope and order) is its
 * own; what a click on a row does is handed in.
 *
 * Depends on: data (load), dom (el, base), kernel (id, meta, path, text,
 *   stages, label, loadStage, sourceText, loadSource).
 * Interface: load() -> Promise (false: the kernel has no cost data),
 *   ready(), metric(), metricName(), setMetric(i), onChange(f),
 *   srcHeat(file, line, mode), irHeat(stage, line), controls(box),
 *   renderHot(box, go), hotShown(), regs() (the "regs" member: the
 *   register pressure regs.js draws), inspect() (for the tests, read only).
 */
'use strict';
TK.define('cost', ['data', 'dom', 'kernel'], function (data, dom, kernel) {
  const { el, base } = dom;
  const C = {
    d: null,
    metric: 0,
    srcMap: null,
    max: new Map(), /* "metric|pane" -> largest value */
    scope: 'src',   /* the hot table: 'src' or a stage */
    sort: 'exact',  /* its column */
    desc: true,
    shown: false,
    listeners: [],
    rows: [],       /* the hot table's rows as drawn (for the tests) */
    asked: new Set(), /* source files whose text the table asked for */
  };

  const at = (vec, m) => (vec && m < vec.length ? vec[m] : 0);

  async function load() {
    if (!kernel.meta().cost) return false;
    C.d = await data.load(kernel.id() + '/cost');
    C.metric = C.d.def;
    C.srcMap = new Map();
    for (const r of C.d.src) C.srcMap.set(r[0] + ':' + r[1], r);
    C.disagree = new Map();
    for (const [f, l, text] of C.d.disagree || []) {
      const key = f + ':' + l;
      if (!C.disagree.has(key)) C.disagree.set(key, []);
      C.disagree.get(key).push(text);
    }
    return true;
  }

  function setMetric(m) {
    C.metric = m;
    C.listeners.forEach((f) => f());
  }

  /* The largest value of the pane (source lines of one mode, or a
   * stage's lines), cached per metric. */
  function largest(pane) {
    const key = C.metric + '|' + pane;
    if (C.max.has(key)) return C.max.get(key);
    let mx = 0;
    if (pane === 'exact' || pane === 'called') {
      const k = pane === 'exact' ? 2 : 3;
      for (const r of C.d.src) mx = Math.max(mx, at(r[k], C.metric));
    } else {
      const s = C.d.stages[pane];
      if (s) for (const g of s.owns || s.groups) mx = Math.max(mx, at(g, C.metric));
    }
    C.max.set(key, mx);
    return mx;
  }

  /* 10874 -> "10.9k", 5521408 -> "5.5M" */
  function short(v) {
    const a = Math.abs(v);
    if (a < 1000) return String(Math.round(v * 100) / 100);
    if (a < 1e6) return (v / 1e3).toFixed(a < 1e5 ? 1 : 0).replace(/\.0$/, '') + 'k';
    return (v / 1e6).toFixed(a < 1e8 ? 1 : 0).replace(/\.0$/, '') + 'M';
  }

  /* A number in a tooltip: whole, or to two decimals (a share). */
  const num = (v) => String(Math.round(v * 100) / 100);

  function pct(v) {
    const t = at(C.d.total, C.metric);
    /* a peak metric's total is the kernel's peak, not a sum */
    const of = C.d.peak.includes(C.metric) ? '% of the kernel\'s peak ' : '% of ';
    return t > 0 ? ' (' + (100 * v / t).toFixed(1) + of + t + ')' : '';
  }

  /* The tooltip's breakdown of VEC: its SASS classes, and with a profile
   * its stall reasons, largest first. */
  function breakdown(vec) {
    const out = [];
    const cls = [];
    const [c0, nc] = C.d.classes;
    for (let i = c0; i < c0 + nc; i++)
      if (at(vec, i)) cls.push(C.d.metrics[i][0] + ' ' + at(vec, i));
    if (cls.length) out.push('SASS: ' + cls.join(', '));
    const [first, n] = C.d.stall;
    const st = [];
    let sum = 0;
    for (let i = first; i < first + n; i++) sum += at(vec, i);
    for (let i = first; i < first + n; i++) if (at(vec, i)) st.push([C.d.metrics[i][0].replace(/^stall_/, ''), at(vec, i)]);
    st.sort((a, b) => b[1] - a[1]);
    if (st.length) out.push('stalls: ' + st.slice(0, 8).map(([r, v]) => r + ' ' + v + ' (' + Math.round(100 * v / sum) + '%)').join(', '));
    return out;
  }

  /* What was measured on source line FILE:LINE in MODE, for the line
   * panel (seen without hovering): {metric, value, share (of the kernel's
   * total, 0-1), stalls: [[reason, value, share of the line's stalls]],
   * largest first}, or null without a profile or a value. */
  function measured(file, line, mode) {
    const r = C.d && C.srcMap.get(file + ':' + line);
    const [first, n] = C.d ? C.d.stall : [0, 0];
    if (!r || !n) return null;
    const vec = mode === 'exact' ? r[2] : r[3];
    /* the metric shown when it was measured, else the samples */
    const samples = C.d.metrics.findIndex((x) => x[0] === 'samples');
    const metric = C.d.metrics[C.metric][2] !== 'static' || samples < 0 ? C.metric : samples;
    const v = at(vec, metric);
    if (!v) return null;
    const t = at(C.d.total, metric);
    let sum = 0;
    for (let i = first; i < first + n; i++) sum += at(vec, i);
    const stalls = [];
    for (let i = first; i < first + n; i++)
      if (at(vec, i)) stalls.push([C.d.metrics[i][0].replace(/^stall_/, ''), at(vec, i), sum > 0 ? at(vec, i) / sum : 0]);
    stalls.sort((a, b) => b[1] - a[1]);
    return { metric: C.d.metrics[metric][0], value: v, share: t > 0 ? v / t : 0, stalls };
  }

  /* TITLE: a function making the tooltip, called when it is read: a code
   * pane asks for the heat of every row it draws (eighty new rows on a
   * click), and shows a row's tooltip only when the pointer is on it. */
  function heat(v, mx, title) {
    if (!v) return null;
    return { text: short(v), frac: mx > 0 ? v / mx : 0, get title() { return title(); } };
  }

  function label() {
    return C.d.metrics[C.metric][0];
  }

  /* Source line FILE:LINE in MODE ('exact' or 'called': the source
   * pane's way of asking), or null. */
  function srcHeat(file, line, mode) {
    const r = C.d && C.srcMap.get(file + ':' + line);
    if (!r) return null;
    const m = C.metric;
    const v = at(mode === 'exact' ? r[2] : r[3], m);
    const about = () => {
      const lines = [label() + ': exact ' + at(r[2], m) + pct(at(r[2], m)),
        'inclusive ' + at(r[3], m) + ' (with what it called)'];
      if (at(r[4], m)) lines.push('shared ' + at(r[4], m) + ' by ' + r[5] + ' call sites: code of a helper inlined at each, which the SASS does not tell apart');
      /* The library's sentences (data_cost.c): where the PTX and the SASS
       * line table disagree about this line. */
      for (const t of C.disagree.get(file + ':' + line) || []) lines.push('stages disagree: ' + t);
      return lines;
    };
    const h = heat(v, largest(mode), () => about().concat(breakdown(mode === 'exact' ? r[2] : r[3])).join('\n'));
    if (!h && at(r[4], m)) return { text: '(' + short(at(r[4], m)) + ')', frac: 0, get title() { return about().join('\n'); } };
    return h;
  }

  /* Line LINE of STAGE: the vector of what is bound to it (KEY 'line'),
   * or of its own share ('own'; a SASS line's own is what is bound). */
  function irVec(stage, line, key) {
    const s = C.d && C.d.stages[stage];
    if (!s) return null;
    const own = key === 'own' && s.own;
    const g = (own ? s.own : s.line)[line - 1];
    return g ? (own ? s.owns : s.groups)[g - 1] : null;
  }

  /* The heat of an IR line is its own share (tk_cost.h: "own"); the
   * tooltip names each number: "this PTX line: 0.55 (its share of the 8
   * bound to it); source line vector_add.py:12 total: 8". */
  function irHeat(stage, line) {
    const vec = irVec(stage, line, 'own');
    const bound = irVec(stage, line, 'line');
    if (!vec && !bound) return null;
    const m = C.metric;
    const v = at(vec, m);
    return heat(v, largest(stage), () => {
      const sass = stage === 'sass';
      let first = label() + ': this ' + kernel.label(stage) + (sass ? ' instruction: ' : ' line: ') + num(v);
      if (!sass) first += ' (its share of the ' + num(at(bound, m)) + ' bound to it)';
      const s = C.d.stages[stage];
      const r = s.src && s.src[line - 1] ? C.d.src[s.src[line - 1] - 1] : null;
      if (r) first += '; source line ' + base(kernel.path(r[0])) + ':' + r[1] + ' total: ' + num(at(r[2], m));
      return [first].concat(breakdown(vec)).join('\n');
    });
  }

  /* The metric menu and the "hot lines" switch, in BOX (the meta line).
   * TOGGLE(shown) shows or hides the panel. */
  function controls(box, toggle) {
    const sel = el('select');
    sel.id = 'cost-metric';
    sel.title = 'What the heat gutter and the hot lines show (docs/cost.md)';
    C.d.metrics.forEach((m, i) => {
      const o = new Option(m[0], String(i));
      o.title = m[1];
      sel.appendChild(o);
    });
    sel.value = String(C.metric);
    sel.addEventListener('change', () => setMetric(+sel.value));
    const b = el('button', 'toggle', 'hot lines');
    b.type = 'button';
    b.id = 'toggle-hot';
    b.title = 'The lines that cost most, by the metric chosen';
    b.addEventListener('click', () => {
      C.shown = !C.shown;
      b.classList.toggle('on', C.shown);
      toggle(C.shown);
    });
    const lab = el('label', 'cost', 'cost: ');
    lab.appendChild(sel);
    box.append(lab, b);
  }

  /* The main stall reasons of VEC for a table cell: "mio 39%, barrier
   * 30%" (the two largest, in % of its stall samples); '' without. */
  function stallText(vec) {
    const [first, n] = C.d.stall;
    let sum = 0;
    const st = [];
    for (let i = first; i < first + n; i++) {
      sum += at(vec, i);
      if (at(vec, i)) st.push([C.d.metrics[i][0].replace(/^stall_/, ''), at(vec, i)]);
    }
    st.sort((a, b) => b[1] - a[1]);
    return st.slice(0, 2).map(([r, v]) => r + ' ' + Math.round(100 * v / sum) + '%').join(', ');
  }

  /* The rows of the hot table: [{key, line, file?, stage?, exact, incl,
   * shared, text}] with a value. */
  function hotRows() {
    const m = C.metric;
    const rows = [];
    if (C.scope === 'src') {
      for (const r of C.d.src) {
        const ex = at(r[2], m), inc = at(r[3], m), sh = at(r[4], m);
        if (!ex && !inc && !sh) continue;
        const lines = kernel.sourceText(r[0]);
        rows.push({ file: r[0], line: r[1], exact: ex, incl: inc, shared: sh,
          where: base(kernel.path(r[0])) + ':' + r[1], stalls: stallText(r[3]),
          text: lines ? (lines[r[1] - 1] || '').trim() : '' });
      }
    } else {
      const s = C.d.stages[C.scope];
      const text = kernel.text(C.scope);
      /* an IR line's own share, as its heat shows it */
      if (s) s.line.forEach((g, i) => {
        const vec = irVec(C.scope, i + 1, 'own');
        const v = at(vec, m);
        if (v) rows.push({ stage: C.scope, line: i + 1, exact: v, incl: v, shared: 0,
          where: String(i + 1), stalls: stallText(vec), text: text ? (text[i] || '').trim() : '' });
      });
    }
    const k = C.sort;
    const dir = C.desc ? -1 : 1;
    rows.sort((a, b) => (a[k] < b[k] ? -dir : a[k] > b[k] ? dir : a.line - b.line));
    return rows;
  }

  /* The hot lines panel in BOX.  GO(row) shows a row's line (a source
   * line: {file, line}; an IR line: {stage, line}). */
  function renderHot(box, go) {
    /* the code column needs every file's text: load those missing, once */
    if (C.scope === 'src') {
      const missing = [...new Set(C.d.src.map((r) => r[0]))].filter((f) => !kernel.sourceText(f) && !C.asked.has(f));
      if (missing.length) {
        missing.forEach((f) => C.asked.add(f));
        Promise.all(missing.map((f) => kernel.loadSource(f).catch(() => null))).then(() => {
          if (box.isConnected && C.shown) renderHot(box, go);
        });
      }
    }
    box.replaceChildren();
    const t = at(C.d.total, C.metric);
    box.appendChild(el('h2', null, 'hot lines'));
    const head = el('p', 'note', label() + ': ' + t + ' in all' +
      (at(C.d.noloc, C.metric) ? ', ' + at(C.d.noloc, C.metric) + ' with no location' : '') +
      (C.d.tool ? ' (measured by ' + C.d.tool + ')' : ''));
    head.title = C.d.metrics[C.metric][1];
    box.appendChild(head);
    if (C.d.unsplit) box.appendChild(el('p', 'note', C.d.unsplit + ' SASS instructions of helpers inlined at several call sites could not be given to one call site: their cost is "shared".'));
    const scope = el('select');
    scope.id = 'hot-scope';
    scope.appendChild(new Option('source lines', 'src'));
    for (const st of kernel.stages()) if (C.d.stages[st]) scope.appendChild(new Option(kernel.label(st) + ' lines', st));
    scope.value = C.scope;
    scope.addEventListener('change', async () => {
      C.scope = scope.value;
      if (C.scope !== 'src' && C.sort !== 'exact') C.sort = 'exact';
      if (C.scope !== 'src') await kernel.loadStage(C.scope);
      renderHot(box, go);
    });
    box.appendChild(scope);
    /* src or ir: the columns its rows lay out (report.css) */
    const table = el('table', C.scope === 'src' ? 'hot src' : 'hot ir');
    table.id = 'hot-table';
    const tr = el('tr');
    const cols = C.scope === 'src'
      ? [['where', 'line'], ['exact', 'exact'], ['incl', 'incl.'], ['shared', 'shared'], ['text', 'code']]
      : [['line', 'line'], ['exact', label() + ' (this line\'s own)'], ['text', 'code']];
    /* with a profile, the main stall reasons on the row, before the code */
    if (C.d.stall[1]) cols.splice(cols.length - 1, 0, ['stalls', 'stalls']);
    for (const [k, name] of cols) {
      const th = el('th', C.sort === k ? (C.desc ? 'sorted desc' : 'sorted asc') : null, name);
      th.dataset.key = k;
      th.title = 'sort by ' + name;
      th.addEventListener('click', () => {
        if (C.sort === k) C.desc = !C.desc;
        else {
          C.sort = k;
          C.desc = k !== 'where' && k !== 'line' && k !== 'text';
        }
        renderHot(box, go);
      });
      tr.appendChild(th);
    }
    table.appendChild(tr);
    const rows = hotRows();
    C.rows = rows.slice(0, 300);
    for (const r of C.rows) {
      const row = el('tr');
      row.dataset.line = r.line;
      for (const [k] of cols) {
        const v = r[k];
        const td = el('td', typeof v === 'number' && k !== 'line' ? 'num' : k, typeof v === 'number' && k !== 'line' ? (v ? (Number.isInteger(v) ? String(v) : short(v)) : '') : String(v));
        if (k === 'exact' && t > 0) td.title = (100 * v / t).toFixed(1) + '% of ' + t;
        else if (k === 'where' || k === 'text') td.title = String(v); /* cut to the panel */
        row.appendChild(td);
      }
      row.addEventListener('click', () => go(r));
      table.appendChild(row);
    }
    box.appendChild(table);
    if (rows.length > C.rows.length) box.appendChild(el('p', 'note', (rows.length - C.rows.length) + ' more lines'));
  }

  return {
    load,
    ready: () => !!C.d,
    metric: () => C.metric,
    metricName: () => (C.d ? label() : ''),
    setMetric,
    onChange: (f) => C.listeners.push(f),
    srcHeat,
    irHeat,
    measured,
    controls,
    renderHot,
    hotShown: () => C.shown,
    /* the register pressure (data_regs.c), for regs.js; null without */
    regs: () => (C.d ? C.d.regs || null : null),
    inspect: () => C,
  };
});
