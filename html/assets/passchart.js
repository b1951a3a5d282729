/* passchart.js - pass mode's chart: the lines each pass changed.
 *
 * Job: one SVG over the pass timeline, green bars up (lines added), red
 * down (removed), on a log scale, every other IR level banded; a
 * transparent bar per pass (.bar-hit, titled) to click, and the mark of
 * the pass shown (#pass-chart-sel, moved by passes.js).  The bars of a
 * colour are one path: an element per bar was a thousand elements to
 * style and lay out on entering pass mode.
 *
 * Depends on: dom (svgEl).
 * Interface: chart(data, passLabel, pick) -> the svg element.
 */
'use strict';
TK.define('passchart', ['dom'], function (dom) {
  const svgEl = dom.svgEl;

  /* The chart of pass timeline DATA (passes.js), each bar titled with
   * its pass's PASSLABEL(p); a click on a bar calls PICK(i, shift). */
  function chart(data, passLabel, pick) {
    const ps = data.passes;
    const n = ps.length;
    const W = Math.max(300, n * 4), H = 70, mid = 40;
    const svg = svgEl('svg', { viewBox: '0 0 ' + W + ' ' + H, preserveAspectRatio: 'none', id: 'pass-chart' });
    const max = Math.max(1, ...ps.map((p) => Math.max(p.added, p.removed)));
    const sc = (v) => (v ? Math.max(1.5, (Math.log(1 + v) / Math.log(1 + max)) * (mid - 4)) : 0);
    const bw = W / n;
    data.levels.forEach((lv, k) => {
      if (k % 2) svg.appendChild(svgEl('rect', { x: lv.from * bw, y: 0, width: (lv.to - lv.from + 1) * bw, height: H, class: 'lvlband', fill: 'rgba(128,128,128,0.08)' }));
    });
    /* the bars of a colour as one path (not a thousand elements to lay out) */
    const f = (v) => +v.toFixed(2), bwd = f(Math.max(1, bw - 0.5));
    const bar = (x, y, h) => 'M' + f(x) + ' ' + f(y) + 'h' + bwd + 'v' + f(h) + 'h' + -bwd + 'z';
    const add = ps.map((p, i) => (p.added ? bar(i * bw, mid - sc(p.added), sc(p.added)) : '')).join('');
    const del = ps.map((p, i) => (p.removed ? bar(i * bw, mid, sc(p.removed) * 0.7) : '')).join('');
    svg.append(svgEl('path', { d: add || 'M0 0', class: 'bar-add' }), svgEl('path', { d: del || 'M0 0', class: 'bar-del' }));
    ps.forEach((p, i) => {
      const hit = svgEl('rect', { x: i * bw, y: 0, width: bw, height: H, class: 'bar-hit' });
      hit.dataset.i = i;
      const t = svgEl('title', {});
      t.textContent = i + ': ' + passLabel(p) + ' +' + p.added + ' \u2212' + p.removed;
      hit.appendChild(t);
      svg.appendChild(hit);
    });
    svg.addEventListener('click', (ev) => {
      const hit = ev.target.closest && ev.target.closest('.bar-hit');
      if (hit) pick(+hit.dataset.i, ev.shiftKey);
    });
    const selm = svgEl('rect', { x: 0, y: 0, width: Math.max(1, bw), height: H, class: 'bar-sel', opacity: 0.35, id: 'pass-chart-sel' });
    svg.appendChild(selm);
    return svg;
  }

  return { chart };
});
