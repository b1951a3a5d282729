/* info.js - the panel on the right of the kernel view: what the selected
 * line is.
 *
 * Job: help before anything is selected; for a source line, its IR line
 * counts in every stage and the "k of n" bar over the IR lines
 * highlighted (the counts of a stage not opened yet come when its
 * bindings have loaded); for an IR line, its inline stacks (each frame a button) and
 * the layouts used on it.  What the panes show and do (the stage shown,
 * the highlighted lines, stepping through them, showing a frame) is handed
 * in by the caller: this module keeps no state.
 *
 * Depends on: dom (el, base), data (expand), kernel (files, stages, bind, loadBind,
 *   stacks), layouts (box).
 * Interface: help(), source(file, line, at), ir(stage, line, ids, at),
 *   count(k, n).
 */
'use strict';
TK.define('info', ['dom', 'data', 'kernel', 'layouts'], function (dom, data, kernel, layouts) {
  const { el, base } = dom;
  const expand = data.expand;

  function panel() {
    /* the panel's own part: the hot lines (cost.js) sit above it */
    return document.getElementById('info-main') || document.getElementById('info');
  }

  function help() {
    const box = panel();
    box.replaceChildren(
      el('h2', null, 'How to read this'),
      el('p', null, 'Click a source line: the IR it became is highlighted (\u201cand what it called\u201d includes inlined helpers). Click an IR line: its inline stack is shown and its source lines are marked.'),
      el('p', null, 'Lines with a coloured mark carry a location; grey lines carry none; dimmed lines (.loc, //##, labels) are not instructions and are never counted. A click on any line of a statement wrapped over several lines binds the whole statement. Hover a layout such as #blocked in TTGIR for what it means.'),
      el('p', null, 'The shaded column is what each line cost: SASS instructions, or what was measured when the kernel was profiled (the \u201ccost\u201d menu; hover a number for its breakdown). \u201chot lines\u201d lists the costliest.'),
      el('p', 'keys', 'Keys: n / p next and previous highlighted instruction; 1-5 stage; h hot lines; l show locations (and the #loc, .loc and //## lines folded away); Ctrl+F or / find in every line of the stage.'),
    );
  }

  /* "k of n" over the N lines highlighted; GO(+1 or -1) steps. */
  function hitNav(box, what, n, go) {
    const nav = el('div', 'hitnav');
    const prev = el('button', null, '\u2191 previous');
    prev.type = 'button';
    prev.id = 'hit-prev';
    prev.addEventListener('click', () => go(-1));
    const next = el('button', null, 'next \u2193');
    next.type = 'button';
    next.id = 'hit-next';
    next.addEventListener('click', () => go(1));
    const count = el('span', 'count', n ? '1 of ' + n : 'none');
    count.id = 'hit-count';
    nav.append(prev, count, next, el('span', 'what', what));
    box.appendChild(nav);
  }

  /* "statement lines 71-73": the lines a click on LINE asked for. */
  function statementNote(box, first, last) {
    if (first === last) return;
    const p = el('p', 'stmt', 'statement lines ' + first + '-' + last + ': a click on any of them binds to the IR of the whole statement');
    p.id = 'stmt-lines';
    box.appendChild(p);
  }

  /* "630 lines of this helper's code are shared by its 2 call sites
   * (a.py:73, a.py:77)" and a button that shows them. */
  function sharedNote(box, stage, shared, show) {
    if (!shared || !shared.lines.length) return;
    const sites = shared.sites.map((s) => base(kernel.path(s.file)) + ':' + s.line).join(', ');
    const p = el('p', 'note partial',
      shared.lines.length + ' ' + kernel.label(stage) + ' line' + (shared.lines.length === 1 ? '' : 's') +
      ' of this helper\u2019s code ' + (shared.lines.length === 1 ? 'is' : 'are') + ' shared by its ' +
      shared.sites.length + ' call sites (' + sites + ') and cannot be given to one: not counted above. ');
    p.id = 'shared-note';
    const b = el('button', null, 'show them');
    b.type = 'button';
    b.id = 'shared-show';
    b.addEventListener('click', show);
    p.appendChild(b);
    box.appendChild(p);
  }

  /* What the profile measured on the line, on the panel rather than in a
   * tooltip: "samples 10874 (26.9% of the kernel)" and its stall reasons
   * as bars, largest first (M: cost.measured(), or null). */
  function measuredBlock(box, m) {
    if (!m) return;
    const d = el('div', 'measured');
    d.appendChild(el('p', 'measured-total', m.metric + ' ' + m.value + ' (' + (100 * m.share).toFixed(1) + '% of the kernel)'));
    if (m.stalls.length) {
      const t = el('table', 'stalls');
      t.title = 'Warp stall reasons of the samples on this line (docs/cost.md)';
      for (const [reason, v, share] of m.stalls.slice(0, 6)) {
        const tr = el('tr');
        tr.appendChild(el('th', null, reason));
        const bar = el('td', 'stall-bar');
        const fill = el('span');
        fill.style.width = Math.max(1, Math.round(100 * share)) + '%';
        bar.appendChild(fill);
        tr.appendChild(bar);
        tr.appendChild(el('td', 'stall-pct', Math.round(100 * share) + '%'));
        t.appendChild(tr);
      }
      d.appendChild(t);
    }
    box.appendChild(d);
  }

  /* Source line LINE of FILE.  AT: {stage, mode, hits (how many
   * instructions are highlighted), go(d), passesOf(file, line), first and
   * last (its statement's lines), shared (kernel.shared()), showShared}. */
  function source(file, line, at) {
    const box = panel();
    box.replaceChildren();
    const p = kernel.path(file);
    const h = el('h2', null, base(p) + ':' + line);
    h.title = p;
    box.appendChild(h);
    statementNote(box, at.first || line, at.last || line);
    hitNav(box, kernel.label(at.stage) + (at.mode === 'exact' ? ', this line only' : ', with what it called'), at.hits, at.go);
    sharedNote(box, at.stage, at.shared, at.showShared);
    const meta = kernel.meta();
    const t = el('table', 'counts');
    for (const st of kernel.stages()) {
      if (meta.stages[st].missing) continue;
      const tr = el('tr');
      tr.appendChild(el('th', null, kernel.label(st)));
      /* instructions only: a .loc or //## line is not counted */
      const count = () => {
        const ex = kernel.count(st, file, line, 'exact');
        const ca = kernel.count(st, file, line, 'called');
        return ca.any ? ex.code + ' exact, ' + ca.code + ' with callees' : '0';
      };
      const td = el('td', null, kernel.bind(st) ? count() : '\u2026');
      tr.appendChild(td);
      t.appendChild(tr);
      /* a stage not opened yet: its bindings (not its text) loaded for
       * the counts (the cell filled in when they come, if the panel
       * still shows it) */
      if (!kernel.bind(st)) {
        kernel.loadBind(st).then(() => {
          if (td.isConnected) td.textContent = count();
        }, () => {
          if (td.isConnected) td.textContent = 'could not be loaded';
        });
      }
    }
    box.appendChild(t);
    measuredBlock(box, at.measured);
    if (meta.passes) {
      const b = el('button', 'passes-of', 'passes that touched this line');
      b.type = 'button';
      b.addEventListener('click', () => at.passesOf(file, line));
      box.appendChild(b);
    }
  }

  /* Line LINE of STAGE, which carries the stacks IDS.  AT: {bound (the
   * stage whose lines are highlighted, when the line is in the second
   * pane, else null), hits, go(d), frame(f): show a frame's line}. */
  function ir(stage, line, ids, at) {
    const box = panel();
    box.replaceChildren();
    box.appendChild(el('h2', null, kernel.label(stage) + ' line ' + line));
    if (at.code === false)
      box.appendChild(el('p', 'note nc-note', 'Not an instruction (a directive, comment or label): it carries a location but is never counted.'));
    if (at.bound) hitNav(box, 'bound ' + kernel.label(at.bound) + ' lines', at.hits, at.go);
    if (at.approx) {
      const a = el('p', 'note approx', at.approx + ' of the ' + kernel.label(at.other) + ' instructions marked are approximate: matched on the innermost frame only (' + kernel.label(at.other) + ' has no inline frames there), so they may come from another call site of the same code.');
      a.id = 'approx-note';
      box.appendChild(a);
    }
    if (!ids.length) {
      box.appendChild(el('p', 'none', 'This line carries no location.'));
      return;
    }
    const files = kernel.files();
    const b = kernel.bind(stage);
    const inferred = b.inf.has(line);
    ids.forEach((id, k) => {
      const h = el('h3', null, ids.length > 1 ? 'inline stack ' + (k + 1) + ' of ' + ids.length : 'inline stack');
      box.appendChild(h);
      const ol = el('ol', 'stack');
      ol.id = k === 0 ? 'stack' : 'stack' + k;
      kernel.stackFrames(id).forEach((f, j) => {
        const li = el('li', j === 0 ? 'inner' : '');
        const fb = el('button', 'frame', kernel.frameText(f));
        fb.type = 'button';
        fb.title = kernel.path(f.file) + (files[f.file] && !files[f.file][1] ? ' (source not found)' : '');
        fb.addEventListener('click', () => at.frame(f));
        li.appendChild(fb);
        ol.appendChild(li);
      });
      box.appendChild(ol);
    });
    if (inferred) {
      const from = kernel.meta().stages[stage].callersFrom || 'PTX';
      box.appendChild(el('p', 'note', 'Callers from ' + from + ': the ' + kernel.label(stage) +
        ' line carries only its innermost frame; the ' + from + ' shows one stack for it.'));
    }
    const us = b.layByLine.get(line);
    if (us) {
      box.appendChild(el('h3', null, 'layouts on this line'));
      for (const k of us) box.appendChild(layouts.box(stage, k));
    }
  }

  /* The "k of n" of the bar source() or ir() drew (WHAT: of what, when it
   * is not the answer itself, e.g. 'shared'). */
  function count(k, n, what) {
    const c = document.getElementById('hit-count');
    if (c) c.textContent = (n ? k + ' of ' + n : 'none') + (what ? ' ' + what : '');
  }

  return { help, source, ir, count };
});
