/* layouts.js - what a TTGIR layout means, in sentences and a picture, and
 * the tip that shows it when the mouse is over a layout reference.
 *
 * Job: a layout's definition and how it covers the tensor of one use
 * (sizes per thread, threads per warp, warps per CTA, the CTA tile against
 * the tensor's shape) put into words, and drawn: the tensor, the tile's
 * repetitions, the first tile's warps, thread 0's elements.  The numbers
 * are tk_layout.h's (data_kernel.c writes them into STAGE.bind.js); this
 * only words and draws them.
 *
 * Depends on: dom (el, svgEl, fmtBytes), kernel (bind).
 * Interface: box(stage, use) -> element, hover(root): the tip over the
 *   layout references (span.lay) under ROOT; tipFor(lay, use, x, y), hide():
 *   the tip for a reference of a pass diff's layouts.
 */
'use strict';
TK.define('layouts', ['dom', 'kernel'], function (dom, kernel) {
  const { el, svgEl, fmtBytes } = dom;

  function layoutName(lay, i) {
    const d = lay.defs[i];
    return d ? (d.alias ? '#' + d.alias : d.text) : '?';
  }

  /* What a layout means, as sentences and a small picture: use USEIDX of
   * STAGE's layouts. */
  function layoutBox(stage, useIdx) {
    const lay = kernel.bind(stage).lay;
    return boxOf(lay, lay.uses[useIdx]);
  }

  /* The same for use U ([line, start, end, def, cover]) of the layouts LAY
   * ({defs, covers}: a stage's, or a pass diff's, data_layouts.h). */
  function boxOf(lay, u) {
    const d = lay.defs[u[3]];
    const c = u[4] >= 0 ? lay.covers[u[4]] : null;
    const box = el('div', 'laybox');
    box.appendChild(el('div', 'layname', layoutName(lay, u[3]) + (d.alias ? ' = ' + d.text : '')));
    const lines = describeLayout(lay, d, c);
    for (const l of lines) box.appendChild(el('p', null, l));
    if (c && c.tile) box.appendChild(picture(d, c, lay));
    return box;
  }

  /* "4 × 32 × 4 = 512" (blocked, per dimension sizePerThread × threadsPerWarp
   * × warpsPerCTA), "(16 × 4 warps) by (128 × 1 warp) = 64 × 128" (MMA). */
  function tileSentence(lay, d, c) {
    let src = d, drop = -1;
    if (d.kind === 'slice' && lay.defs[d.parent]) {
      src = lay.defs[d.parent];
      drop = d.dim;
    }
    const per = [];
    if (src.kind === 'blocked') {
      for (let i = 0; i < src.spt.length; i++) if (i !== drop) per.push(src.spt[i] + ' × ' + src.tpw[i] + ' × ' + src.wpc[i]);
    } else if (src.kind === 'mma' && src.instr) {
      const n = src.wpc.length;
      for (let i = 0; i < n; i++) {
        const ins = i === n - 2 ? src.instr[0] : i === n - 1 ? src.instr[1] : 1;
        per.push(ins + ' × ' + src.wpc[i] + ' warp' + (src.wpc[i] === 1 ? '' : 's'));
      }
    }
    const head = src.kind === 'blocked' ? 'One CTA tile (sizePerThread × threadsPerWarp × warpsPerCTA): ' : 'One CTA tile (instruction × warps): ';
    let expr;
    if (!per.length) expr = dims(c.tile) + ' = ' + c.tileElems;
    else if (per.length === 1) expr = per[0] + ' = ' + c.tileElems;
    else expr = per.map((x) => '(' + x + ')').join(' by ') + ' = ' + dims(c.tile) + ' = ' + c.tileElems;
    return head + expr + ' elements, ' + c.threads + ' threads.';
  }

  function dims(a) {
    return a.join(' \u00d7 ');
  }

  function describeLayout(lay, d, c) {
    const out = [];
    const kind = d.kind;
    if (kind === 'blocked') {
      out.push('Blocked: each thread holds ' + dims(d.spt) + ' contiguous element(s), ' + dims(d.tpw) + ' threads per warp, ' + dims(d.wpc) + ' warps per CTA; order [' + d.order.join(', ') + '] (fastest dimension first).');
    } else if (kind === 'slice') {
      out.push('Slice: the parent layout ' + layoutName(lay, d.parent) + ' without dimension ' + d.dim + ' (the tensor is the parent\u2019s with that dimension reduced away).');
    } else if (kind === 'mma') {
      out.push('MMA accumulator (' + d.name + (d.versionMajor >= 0 ? ' v' + d.versionMajor + '.' + d.versionMinor : '') + '): warps ' + dims(d.wpc || []) + (d.instr ? ', instruction shape ' + dims(d.instr) : '') + '.');
    } else if (kind === 'dot_op') {
      out.push('Dot operand ' + (d.opIdx === 0 ? 'A' : d.opIdx === 1 ? 'B' : d.opIdx) + ' of a dot whose result has layout ' + layoutName(lay, d.parent) + (d.kWidth >= 0 ? ', ' + d.kWidth + ' consecutive K elements per thread' : '') + '.');
    } else if (kind === 'linear') {
      out.push('Linear layout: ' + d.bases[0] + ' register, ' + d.bases[1] + ' lane, ' + d.bases[2] + ' warp and ' + d.bases[3] + ' block bases (each basis doubles what that level holds).');
    } else if (kind === 'shared') {
      const parts = [];
      if (d.swizzle >= 0) parts.push(d.swizzle + '-byte swizzle');
      if (d.elementBits >= 0) parts.push(d.elementBits + '-bit elements');
      if (d.transposed >= 0) parts.push(d.transposed ? 'transposed' : 'not transposed');
      if (d.vec >= 0) parts.push('vec ' + d.vec + ', perPhase ' + d.perPhase + ', maxPhase ' + d.maxPhase);
      if (d.vec >= 0 && d.maxPhase === 1) parts.push('no swizzling');
      /* nvmma_shared names no order (it had printed "order []") */
      if (d.order && d.order.length) parts.push('order [' + d.order.join(', ') + '] (fastest dimension first)');
      const bare = String(d.name).replace(/^ttg\./, '');
      const what = bare === 'nvmma_shared' ? ': the layout the tensor cores (wgmma) and TMA read and write directly'
        : bare === 'swizzled_shared' ? ': rows of shared memory with their vectors permuted (swizzled) to avoid bank conflicts' : '';
      out.push('Shared memory layout (' + d.name + ')' + what + (parts.length ? '; ' + parts.join(', ') : '') + '.');
    } else if (kind === 'memory_space') {
      out.push('A memory space (' + d.name + ').');
    } else {
      out.push(d.name + ': not explained here.');
    }
    if (c) {
      const shape = dims(c.shape) + ' ' + c.elem;
      if (c.memdesc) {
        const bytes = c.shape.reduce((a, b) => a * b, 1) * (c.bits || 0) / 8;
        out.push('Memory descriptor ' + shape + (bytes ? ': ' + fmtBytes(bytes) + ' of shared memory' : '') + '.');
      } else if (c.tile) {
        out.push(tileSentence(lay, d, c));
        const nrep = c.reps.reduce((a, b) => a * b, 1);
        const plural = (n, w) => n + ' ' + w + (n === 1 ? '' : 's');
        if (c.dup > 1)
          out.push('The tile is larger than the tensor ' + dims(c.shape) + ' (' + c.tensorElems + ' elements): each element is held by ' + c.dup + ' threads; each thread holds ' + c.elemsPerThread + ' elements.');
        else
          out.push('The tensor ' + dims(c.shape) + ' (' + c.tensorElems + ' elements) takes ' + plural(nrep, 'repetition') + ' of the tile' + (c.reps.length > 1 ? ' (' + dims(c.reps) + ')' : '') + ': each thread holds ' + c.elemsPerThread + ' elements (' + dims(c.perThread) + ').');
      } else if (c.elemsPerThread) {
        out.push('Each thread holds ' + c.elemsPerThread + ' elements; ' + c.threads + ' threads; tensor ' + dims(c.shape) + ' (' + c.tensorElems + ' elements).');
      } else {
        out.push('Tensor ' + shape + '.');
      }
    }
    return out;
  }

  /* The tensor as a rectangle, the tile's repetitions as a grid, the first
   * tile's warps shaded, thread 0's elements dark; the axes labelled with
   * the tensor's and the tile's sizes, and a legend below. */
  function picture(d, c, lay) {
    const W = 300, H = c.shape.length > 1 ? 150 : 28;
    const ML = c.shape.length > 1 ? 44 : 4, MT = 16, MB = 4; /* room for the labels */
    const rows = c.shape.length > 1 ? c.shape[c.shape.length - 2] : 1;
    const cols = c.shape[c.shape.length - 1];
    const trow = c.tile.length > 1 ? c.tile[c.tile.length - 2] : 1;
    const tcol = c.tile[c.tile.length - 1];
    const sx = W / Math.max(cols, tcol), sy = H / Math.max(rows, trow);
    const wrap = el('figure', 'layfig');
    const svg = svgEl('svg', { width: W + ML + 2, height: H + MT + MB, viewBox: -ML + ' ' + -MT + ' ' + (W + ML + 2) + ' ' + (H + MT + MB), class: 'laypic' });
    wrap.appendChild(svg);
    svg.appendChild(svgEl('rect', { x: 0, y: 0, width: cols * sx, height: rows * sy, class: 'tensor' }));
    /* warps of the first tile */
    let src = d;
    if (d.kind === 'slice' && lay.defs[d.parent]) src = lay.defs[d.parent];
    const wpc = src.wpc || [];
    let wr = 1, wc = 1;
    if (src.kind === 'blocked' || src.kind === 'mma') {
      let w = wpc.slice();
      if (d.kind === 'slice') w.splice(d.dim, 1);
      wc = w[w.length - 1] || 1;
      wr = w.length > 1 ? w[w.length - 2] : 1;
    }
    for (let r = 0; r < wr && r < 64; r++)
      for (let q = 0; q < wc && q < 64; q++)
        svg.appendChild(svgEl('rect', { x: (q * tcol * sx) / wc, y: (r * trow * sy) / wr, width: (tcol * sx) / wc, height: (trow * sy) / wr, class: 'warp w' + ((r * wc + q) % 4) }));
    /* tile repetitions */
    const reps = c.reps;
    const rr = reps.length > 1 ? reps[reps.length - 2] : 1, rc = reps[reps.length - 1];
    for (let r = 0; r < rr && r < 64; r++)
      for (let q = 0; q < rc && q < 64; q++)
        svg.appendChild(svgEl('rect', { x: q * tcol * sx, y: r * trow * sy, width: tcol * sx, height: trow * sy, class: 'tile' }));
    /* thread 0's elements: sizePerThread at the start of each repetition */
    let spt = src.kind === 'blocked' ? src.spt.slice() : null;
    if (spt && d.kind === 'slice') spt.splice(d.dim, 1);
    if (spt) {
      const pr = spt.length > 1 ? spt[spt.length - 2] : 1, pc = spt[spt.length - 1];
      for (let r = 0; r < rr && r < 64; r++)
        for (let q = 0; q < rc && q < 64; q++)
          svg.appendChild(svgEl('rect', { x: q * tcol * sx, y: r * trow * sy, width: Math.max(1.5, pc * sx), height: Math.max(1.5, pr * sy), class: 't0' }));
    }
    /* the axes: the tensor's columns on top, its rows on the left */
    const label = (x, y, text, anchor) => {
      const t = svgEl('text', { x, y, class: 'axis', 'text-anchor': anchor });
      t.textContent = text;
      svg.appendChild(t);
    };
    label(0, -4, cols + (c.shape.length > 1 ? ' columns' : ' elements'), 'start');
    if (tcol !== cols && tcol * sx > 40) label(tcol * sx, -4, 'tile ' + tcol, 'end');
    if (c.shape.length > 1) {
      label(-4, 10, rows + ' rows', 'end');
      if (trow !== rows && trow * sy > 20) label(-4, trow * sy, 'tile ' + trow, 'end');
    }
    const t = svgEl('title', {});
    t.textContent = 'tensor ' + dims(c.shape) + ', tile ' + dims(c.tile) + ', shaded: warps of the first tile, dark: thread 0';
    svg.appendChild(t);
    /* the legend, in words */
    const leg = el('figcaption', 'laylegend');
    const key = (cls, text) => {
      const k = el('span', 'key');
      k.appendChild(el('i', cls));
      k.appendChild(document.createTextNode(text));
      leg.appendChild(k);
    };
    key('k-tensor', 'tensor ' + dims(c.shape));
    key('k-tile', 'CTA tile ' + dims(c.tile) + (rr * rc > 1 ? ' \u00d7 ' + rr * rc + ' repetitions' : ''));
    if (wr * wc > 1) key('k-warp', wr * wc + ' warps of the first tile');
    if (spt) key('k-t0', 'thread 0\u2019s elements');
    wrap.appendChild(leg);
    return wrap;
  }

  function showTip(span, x, y) {
    const stage = span.dataset.stage;
    const b = kernel.bind(stage);
    if (!b || !b.lay) return;
    showBox(layoutBox(stage, +span.dataset.u), x, y);
  }

  /* The tip for use U of the layouts LAY (a pass diff's) at X, Y. */
  function tipFor(lay, u, x, y) {
    showBox(boxOf(lay, u), x, y);
  }

  function showBox(box, x, y) {
    const tip = document.getElementById('tip');
    tip.replaceChildren(box);
    tip.hidden = false;
    const r = tip.getBoundingClientRect();
    const left = Math.min(x + 12, window.innerWidth - r.width - 8);
    const top = y + 16 + r.height > window.innerHeight ? y - r.height - 8 : y + 16;
    tip.style.left = Math.max(4, left) + 'px';
    tip.style.top = Math.max(4, top) + 'px';
  }

  function hideTip() {
    document.getElementById('tip').hidden = true;
  }

  /* The tip follows the mouse over the layout references under ROOT. */
  function hover(root) {
    root.addEventListener('mouseover', (ev) => {
      const sp = ev.target.closest && ev.target.closest('.lay');
      if (sp) showTip(sp, ev.clientX, ev.clientY);
    });
    root.addEventListener('mouseout', (ev) => {
      const sp = ev.target.closest && ev.target.closest('.lay');
      if (sp && !(ev.relatedTarget && sp.contains(ev.relatedTarget))) hideTip();
    });
  }

  return { box: layoutBox, hover, tipFor, hide: hideTip };
});
