/* regs.js - register pressure on the kernel page: a strip along the SASS
 * pane (the live general registers at every instruction, in address order,
 * so one sees where the kernel peaks) and a mark on the source line of the
 * kernel's peak.
 *
 * Job: reads the "regs" member of the cost data (html/data_regs.c, from
 * libtkdump's tk_cost.h and NAME.sass_lr: the count of every SASS line,
 * the peak, its SASS line, offset and source line); draws the strip in the
 * IR pane while it shows SASS (a column per pixel: the largest count of
 * the instructions it covers; the selected SASS line as a cursor); a click
 * on the strip shows the instruction of that column that peaks.  Every
 * number comes from the data; this module decides nothing but pixels.
 *
 * Depends on: dom (el, base), kernel (path), cost (regs: the data).
 * Interface: start({showIR, shown}) (after the panes: makes the strip),
 *   update() (the stage or the selection changed), srcMark(file, line)
 *   ('' or ' regpeak'), srcTitle(file, line) (the peak's sentence, or ''),
 *   inspect() (for the tests, read only: {shown, peak, peakSass,
 *   peakOffset, peakSrc, ptxas, missing, cols, cursor, counts(line)}).
 */
'use strict';
TK.define('regs', ['dom', 'kernel', 'cost'], function (dom, kernel, cost) {
  const { el, base } = dom;
  const R = { d: null, box: null, canvas: null, cap: null, cols: [], cursor: 0, shown: false, opts: null };

  function data() {
    if (R.d === null) R.d = cost.regs() || false;
    return R.d && !R.d.missing ? R.d : null;
  }

  function peakSentence() {
    const d = data();
    if (!d) return '';
    let s = 'register peak of the kernel: ' + d.peak + ' live registers (GPR) at SASS line ' + d.peak_sass;
    if (d.peak_offset !== null) s += ' (offset 0x' + d.peak_offset.toString(16).padStart(4, '0') + ')';
    if (d.peak_src) s += ', ' + base(kernel.path(d.peak_src[0])) + ':' + d.peak_src[1];
    if (d.ptxas) s += '; ptxas allocated ' + d.ptxas;
    return s;
  }

  function srcMark(file, line) {
    const d = data();
    return d && d.peak_src && d.peak_src[0] === file && d.peak_src[1] === line ? ' regpeak' : '';
  }

  function srcTitle(file, line) {
    return srcMark(file, line) ? peakSentence() : '';
  }

  /* The columns of a strip WIDTH pixels wide: per column [first, last]
   * SASS lines and the line of its largest count (0: no instruction). */
  function columns(width) {
    const d = data();
    const n = d.sass.length;
    const cols = [];
    for (let x = 0; x < width; x++) {
      const a = Math.floor((x * n) / width) + 1;
      const b = Math.max(a, Math.floor(((x + 1) * n) / width));
      let best = 0;
      for (let l = a; l <= b && l <= n; l++) if (d.sass[l - 1] > (best ? d.sass[best - 1] : 0)) best = l;
      cols.push({ a, b, line: best, v: best ? d.sass[best - 1] : 0 });
    }
    return cols;
  }

  function draw() {
    const d = data();
    if (!d || !R.shown) return;
    const cv = R.canvas;
    const dpr = window.devicePixelRatio || 1;
    const w = Math.max(1, cv.clientWidth), h = Math.max(1, cv.clientHeight);
    cv.width = Math.round(w * dpr);
    cv.height = Math.round(h * dpr);
    const g = cv.getContext('2d');
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, w, h);
    R.cols = columns(w);
    const top = Math.max(1, d.peak, d.ptxas);
    const css = getComputedStyle(cv);
    const bar = css.getPropertyValue('--reg-bar').trim() || '#5b8def';
    const hi = css.getPropertyValue('--reg-hi').trim() || '#d9480f';
    R.cols.forEach((c, x) => {
      if (!c.v) return;
      const bh = Math.max(1, Math.round((c.v / top) * (h - 2)));
      g.fillStyle = c.v >= 0.9 * d.peak ? hi : bar;
      g.fillRect(x, h - bh, 1, bh);
    });
    if (d.ptxas) {
      /* ptxas's allocation: the ceiling the live count stays under */
      const y = h - Math.round((d.ptxas / top) * (h - 2)) - 0.5;
      g.strokeStyle = css.getPropertyValue('--dim').trim() || '#888';
      g.setLineDash([3, 3]);
      g.beginPath();
      g.moveTo(0, y);
      g.lineTo(w, y);
      g.stroke();
      g.setLineDash([]);
    }
    const xOf = (line) => R.cols.findIndex((c) => line >= c.a && line <= c.b);
    const px = xOf(d.peak_sass);
    if (px >= 0) {
      g.fillStyle = hi;
      g.beginPath();
      g.moveTo(px - 4, 0);
      g.lineTo(px + 4, 0);
      g.lineTo(px, 6);
      g.fill();
    }
    if (R.cursor) {
      const cx = xOf(R.cursor);
      if (cx >= 0) {
        g.fillStyle = css.getPropertyValue('--fg').trim() || '#000';
        g.fillRect(cx, 0, 1, h);
      }
    }
  }

  function caption() {
    const d = data();
    let s = 'live registers: peak ' + d.peak + ' at SASS line ' + d.peak_sass;
    if (d.peak_src) s += ' (' + base(kernel.path(d.peak_src[0])) + ':' + d.peak_src[1] + ')';
    if (d.ptxas) s += ', ptxas ' + d.ptxas;
    return s;
  }

  function onClick(ev) {
    const x = Math.floor(ev.clientX - R.canvas.getBoundingClientRect().left);
    const c = R.cols[Math.max(0, Math.min(R.cols.length - 1, x))];
    if (c && c.line) R.opts.showIR('sass', c.line);
  }

  function onMove(ev) {
    const x = Math.floor(ev.clientX - R.canvas.getBoundingClientRect().left);
    const c = R.cols[Math.max(0, Math.min(R.cols.length - 1, x))];
    R.canvas.title = c && c.line
      ? c.v + ' live registers at SASS line ' + c.line + ' (the most of lines ' + c.a + '-' + c.b + '); click to show it'
      : '';
  }

  /* OPTS: {showIR(stage, line), shown() (the panes' state)}. */
  function start(opts) {
    R.opts = opts;
    const d = data();
    const pane = document.getElementById('ir-pane');
    if (!pane) return;
    R.box = el('div', 'regstrip');
    R.box.id = 'regstrip';
    R.box.hidden = true;
    if (d) {
      R.cap = el('div', 'regcap', caption());
      R.cap.title = peakSentence() + '\nThe bars: live general registers at every SASS instruction, in address order (nvdisasm --print-life-ranges, NAME.sass_lr); dashed: ptxas\'s count.';
      R.canvas = el('canvas');
      R.canvas.addEventListener('click', onClick);
      R.canvas.addEventListener('mousemove', onMove);
      R.box.append(R.cap, R.canvas);
      new ResizeObserver(() => draw()).observe(R.canvas);
    } else if (R.d && R.d.missing) {
      R.box.append(el('div', 'regcap', 'live registers: unknown: ' + R.d.missing));
    }
    pane.insertBefore(R.box, pane.querySelector('.code'));
    update();
  }

  function update() {
    if (!R.box) return;
    const s = R.opts.shown();
    const on = s.stage === 'sass' && (data() || (R.d && R.d.missing));
    R.shown = !!on;
    R.box.hidden = !on;
    R.cursor = s.sel && s.sel.pane === 'ir' && s.stage === 'sass' ? s.sel.line : 0;
    draw();
  }

  return {
    start,
    update,
    srcMark,
    srcTitle,
    inspect: () => {
      const d = data();
      return {
        shown: R.shown,
        missing: R.d && R.d.missing ? R.d.missing : null,
        peak: d ? d.peak : null,
        peakSass: d ? d.peak_sass : null,
        peakOffset: d ? d.peak_offset : null,
        peakSrc: d ? d.peak_src : null,
        ptxas: d ? d.ptxas : null,
        cols: R.cols.length,
        cursor: R.cursor,
        counts: (line) => (d ? d.sass[line - 1] : null),
      };
    },
  };
});
