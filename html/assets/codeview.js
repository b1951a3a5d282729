/* codeview.js - a virtual code view: a pane that draws only the lines in
 * view (and some around them), so a 50 000 line stage opens as fast as a
 * small one.
 *
 * Job: one CodeView per pane (.code inside the pane's element); it draws
 * the lines of a document it is given ({n, text(i), lang, cls(i),
 * gutter(i), heat(i), title(i), ranges(i), onClick, rows}), marks lines (a class per
 * line, the current line), marks the find module's hits apart from those
 * (a set of lines and the current hit: a find does not undo a selection),
 * scrolls to a line or centres it, reports clicks on a line.
 * ROWS, when given, are the lines shown, ascending: the others are folded
 * away (rowOf() / lineAt() map between the two).  Its state (what is
 * drawn, the marks) is the object's own.
 *
 * Depends on: dom (el, esc), syntax (paint, html).
 * Interface: CodeView (class).
 */
'use strict';
TK.define('codeview', ['dom', 'syntax'], function (dom, syntax) {
  const el = dom.el;
  const paint = syntax.paint;
  const esc = dom.esc;

  /* The two highlights the find bar paints: every text found, the one it
   * is on (CSS: ::highlight(tk-found), ::highlight(tk-found-cur)). */
  let highlights = null;
  function foundHighlights() {
    if (!highlights) {
      highlights = { all: new Highlight(), cur: new Highlight() };
      CSS.highlights.set('tk-found', highlights.all);
      CSS.highlights.set('tk-found-cur', highlights.cur);
    }
    return highlights;
  }

  /* A DOM Range over characters [S, E) of a line's text as painted in TX
   * (syntax.paint: text nodes in token spans; the "…" marks after hidden
   * location suffixes and the "more characters" note are not the text). */
  function textRange(tx, s, e) {
    const w = document.createTreeWalker(tx, NodeFilter.SHOW_TEXT);
    let pos = 0, r = null, node;
    while ((node = w.nextNode())) {
      const p = node.parentNode;
      if (p.classList && (p.classList.contains('locmark') || p.classList.contains('cut'))) continue;
      const len = node.length;
      if (!r && s < pos + len) {
        r = document.createRange();
        r.setStart(node, s - pos);
      }
      if (r && e <= pos + len) {
        r.setEnd(node, e - pos);
        return r;
      }
      pos += len;
    }
    return null;
  }

  class CodeView {
    constructor(root) {
      this.root = root;
      this.code = root.querySelector('.code');
      this.top = el('div', 'pad');
      this.body = el('div', 'lines');
      this.bottom = el('div', 'pad');
      this.n = 0;
      this.lh = 18;
      this.marks = new Map(); /* line -> class */
      this.current = 0;
      this.found = null; /* Set of the lines the find bar found, or null */
      this.foundCur = 0; /* the hit the find bar is on */
      this.doc = null;
      this.pending = false;
      this.first = 1;
      this.last = 0;
      this.rows = new Map();
      /* The pane's size read before anything is added to it (at the
       * page's first layout): read later, after other panes changed, it
       * would lay the page out there and then (height(), plainFrom()). */
      this.h = this.code.clientHeight;
      this.w = this.code.clientWidth;
      /* for the tests, which scroll a line into view: its row, folds
       * counted */
      this.code.tkRowOf = (line) => this.rowOf(line);
      /* The pane's height and scroll offset, kept rather than read: a read
       * after a change to the rows (a click's marks) makes Chromium lay
       * the page out there and then, and once more for the frame.  The
       * scroll offset is read in the scroll event (the layout is clean
       * there) and set by this view; the height by a ResizeObserver. */
      this.st = 0;
      /* a scroll offset set by this view, written in the next frame
       * (setScroll), and the last one written */
      this.scrollDue = false;
      this.wrote = 0;
      this.code.append(this.top, this.body, this.bottom);
      /* Scrolled sideways once: every row coloured to its end from then on
       * (before, only as far as the pane's width shows: plainFrom()). */
      this.sideways = false;
      this.code.addEventListener('scroll', () => {
        const y = this.code.scrollTop;
        /* scrolled by hand (or by a test): that wins over an offset set
         * and not written yet; the event of this view's own last write
         * does not */
        if (!this.scrollDue || y !== this.wrote) {
          this.scrollDue = false;
          this.st = y;
        }
        if (!this.sideways && this.code.scrollLeft > 0) {
          this.goSideways();
          this.render(true);
          return;
        }
        this.schedule();
      });
      /* the size from the observer's entry: read from the pane, after
       * another pane's observer drew rows, it would lay the page out */
      let seenW = 0;
      new ResizeObserver((es) => {
        const box = es[es.length - 1].contentRect;
        this.h = box.height;
        const w = box.width;
        if (w > seenW && seenW) {
          this.w = Math.max(this.w, w);
          this.render(true); /* wider: colour what it now shows */
        } else if (!this.w) this.w = w;
        seenW = w;
      }).observe(this.code);
      /* a heat cell's tooltip, made when the pointer comes over it */
      this.code.addEventListener('mouseover', (ev) => {
        const c = ev.target.closest && ev.target.closest('.heat.on');
        if (!c || c.title || !this.doc || !this.doc.heat) return;
        const h = this.doc.heat(+c.parentNode.dataset.n);
        if (h) c.title = h.title;
      });
      this.code.addEventListener('click', (ev) => {
        const ln = ev.target.closest('.ln');
        if (ln && this.doc && this.doc.onClick && !window.getSelection().toString())
          this.doc.onClick(+ln.dataset.n, ev);
      });
    }
    /* DOC: {n, text(i), lang, cls(i), gutter(i), heat(i), title(i), ranges(i),
     * onClick, rows}; heat(i): null or {text, frac (0..1), title}: the cost
     * column, shaded by FRAC.  TOP: the line at the top of the pane (a
     * stage opens on its first instruction), else the first. */
    set(doc, top) {
      this.doc = doc;
      this.setRows(doc);
      this.marks = new Map();
      this.current = 0;
      this.found = null;
      this.foundCur = 0;
      this.setScroll(doc && top ? (this.rowOf(top) - 1) * this.lh : 0, true);
      this.render(true);
    }
    /* Scrolled sideways (or about to be): every row coloured to its end,
     * and the line numbers kept on the left (report.css, .code.sideways:
     * sticky only from then on: a sticky element is a layer of its own
     * to place and paint, and a click draws some eighty new rows). */
    goSideways() {
      this.sideways = true;
      this.code.classList.add('sideways');
    }
    /* The character from which a row is drawn plain (syntax.paint): past
     * what the pane's width shows, with room to spare; none once the pane
     * was scrolled sideways.  A row is drawn to half as much again
     * (drawnTo(); the rest: "… N more characters": LLVM IR lines of 300 to
     * 4000 characters are text to lay out and paint that no one sees
     * before scrolling sideways), all of it once scrolled sideways or a
     * find hit lies past it. */
    plainFrom() {
      if (this.sideways) return undefined;
      if (!this.w) this.w = this.code.clientWidth;
      return Math.max(200, Math.ceil((this.w || 1200) / 5) + 40);
    }
    drawnTo(plain) {
      return plain === undefined ? undefined : Math.ceil(1.5 * plain);
    }
    /* The pane's height in pixels (read once, then kept up to date by the
     * ResizeObserver). */
    height() {
      if (!this.h) this.h = this.code.clientHeight;
      return this.h || 600;
    }
    /* Scrolls to Y pixels (within the rows), kept as this.st and drawn
     * from there at once; the pane's own offset is written in the next
     * frame, before it is laid out (scrollLater).  ALWAYS: written even
     * when this.st is Y already (a new document). */
    setScroll(y, always) {
      y = Math.max(0, Math.min(y, this.n * this.lh - this.height()));
      if (always || y !== this.st) this.scrollLater();
      this.st = y;
    }
    /* this.st written to the pane in the next animation frame: written
     * now, after a change to any pane's rows (a page being put together,
     * a click that marks three panes), it would lay the page out there
     * and then, and again for the frame; in the frame's callbacks it is
     * that frame's one layout. */
    scrollLater() {
      if (this.scrollDue) return;
      this.scrollDue = true;
      requestAnimationFrame(() => {
        if (!this.scrollDue) return; /* scrolled by hand since */
        this.scrollDue = false;
        this.wrote = this.st;
        this.code.scrollTop = this.st;
      });
    }
    schedule() {
      if (this.pending) return;
      this.pending = true;
      requestAnimationFrame(() => {
        this.pending = false;
        this.render(false);
      });
    }
    setMarks(marks, current) {
      this.marks = marks;
      this.current = current || 0;
      for (const [i, row] of this.rows) this.decorate(row, i);
    }
    /* The rows shown: every line, or DOC.rows (the others folded). */
    setRows(doc) {
      this.map = doc && doc.rows ? doc.rows : null;
      this.n = !doc ? 0 : this.map ? this.map.length : doc.n;
    }
    /* The line drawn in row R, and the row of LINE (a folded line: the
     * next row shown). */
    lineAt(r) {
      return this.map ? this.map[r - 1] : r;
    }
    rowOf(line) {
      if (!this.map) return line;
      let a = 0, b = this.map.length;
      while (a < b) {
        const m = (a + b) >> 1;
        if (this.map[m] < line) a = m + 1;
        else b = m;
      }
      return Math.min(a + 1, Math.max(1, this.map.length));
    }
    /* DOC in place of the document shown, the same lines with other
     * classes, gutter numbers or folds: the line at the top and the marks
     * stay. */
    refresh(doc) {
      const topLine = this.lineAt(Math.max(1, Math.floor(this.st / this.lh) + 1));
      const folds = !!this.map !== !!(doc && doc.rows) || (doc && doc.rows && doc.rows !== this.map);
      this.doc = doc;
      this.setRows(doc);
      if (folds && topLine) this.setScroll((this.rowOf(topLine) - 1) * this.lh);
      this.render(true);
    }
    /* the classes a mark or the current line gives a drawn row */
    decorate(row, i) {
      const want = this.marks.get(i) || '';
      if (row.dataset.mark !== want) {
        if (row.dataset.mark) row.classList.remove(row.dataset.mark);
        if (want) row.classList.add(want);
        row.dataset.mark = want;
      }
      row.classList.toggle('cur', i === this.current);
      row.classList.toggle('found', !!this.found && this.found.has(i));
      row.classList.toggle('found-cur', !!this.found && i === this.foundCur);
    }
    /* The find bar's hits (a Set, or null to clear them) and the one it is
     * on, which is scrolled to the middle of the pane (and sideways to
     * the text found).  SPANS(i): the [start, end) character ranges found
     * in line i, painted with the CSS Custom Highlight API (no change to
     * the rows' own elements). */
    setFound(found, cur, spans) {
      const plain = this.plainFrom();
      if (found && cur && spans && plain !== undefined && spans(cur).some((sp) => sp[1] > this.drawnTo(plain))) {
        this.goSideways(); /* the text found is past what a row draws */
        this.render(true);
      }
      this.found = found;
      this.foundCur = cur || 0;
      this.foundSpans = found ? spans || null : null;
      for (const [i, row] of this.rows) this.decorate(row, i);
      if (cur) this.centre(cur);
      else this.paintFound();
      if (cur) this.showFoundText();
      /* false: the current hit is on a line folded away */
      return !cur || !this.map || this.lineAt(this.rowOf(cur)) === cur;
    }
    /* The highlight ranges of the rows drawn (called after each render). */
    paintFound() {
      if (!window.Highlight || !window.CSS || !CSS.highlights) return;
      const hl = foundHighlights();
      for (const r of this.hlRanges || []) {
        hl.all.delete(r);
        hl.cur.delete(r);
      }
      this.hlRanges = [];
      if (!this.found || !this.foundSpans) return;
      for (const [i, row] of this.rows) {
        if (!this.found.has(i)) continue;
        const tx = row.querySelector('.tx');
        for (const [a, b] of this.foundSpans(i)) {
          const r = textRange(tx, a, b);
          if (!r) continue;
          (i === this.foundCur ? hl.cur : hl.all).add(r);
          this.hlRanges.push(r);
        }
      }
    }
    /* The current hit's first text found brought into view sideways. */
    showFoundText() {
      const row = this.rows.get(this.foundCur);
      if (!row || !this.foundSpans) return;
      const sp = this.foundSpans(this.foundCur)[0];
      const r = sp && textRange(row.querySelector('.tx'), sp[0], sp[1]);
      if (!r) return;
      /* in the pane's content (scrollable) coordinates */
      const box = r.getBoundingClientRect(), pane = this.code.getBoundingClientRect();
      if (!box.width && !box.height) return; /* in a hidden location suffix */
      const x = box.left - pane.left + this.code.scrollLeft;
      const sticky = row.querySelector('.no').offsetWidth; /* the line numbers stay on the left */
      const w = this.code.clientWidth;
      const sl = this.code.scrollLeft;
      if (x >= sl + sticky && x + box.width <= sl + w - 16) return;
      this.code.scrollLeft = x + box.width <= w - 16 ? 0 : Math.max(0, x - w / 3);
    }
    /* LINE in the middle of the pane, wherever it was (scrollTo moves only
     * when the line is out of view). */
    centre(line) {
      const h = this.height();
      this.setScroll(Math.max(0, (this.rowOf(line) - 1) * this.lh - (h - this.lh) / 2));
      this.render(false);
    }
    /* Row I as markup (its text escaped: syntax.html): a pane's new rows
     * are parsed from one string, several times faster than building
     * them element by element.  What markup cannot carry (the heat's
     * shade: the page's CSP forbids style attributes; layout references,
     * which are elements with handlers) is set by finish(). */
    rowHTML(i, plain, heats) {
      const d = this.doc;
      const t = d.title ? d.title(i) : null;
      let s = '<div class="ln ' + esc(d.cls ? d.cls(i) : '') + '" data-n="' + i + '" data-mark=""><span class="no"' +
        (t ? ' title="' + esc(t) + '"' : '') + '>' + i + '</span><span class="gut">' + esc(d.gutter ? d.gutter(i) : '') + '</span>';
      if (d.heat) {
        /* its tooltip is put when the pointer comes over it (the
         * constructor's mouseover): made for every row drawn, the
         * tooltips were a tenth of a click's time */
        const h = d.heat(i);
        heats.push(h);
        s += h ? '<span class="heat on">' + esc(h.text) + '</span>' : '<span class="heat"></span>';
      }
      const rg = d.ranges ? d.ranges(i) : null;
      const tx = rg && rg.length ? '' : syntax.html(d.text(i), d.lang, this.drawnTo(plain), plain);
      return s + '<span class="tx">' + tx + '</span></div>';
    }
    /* Lines LINES as rows (elements, in order): parsed from rowHTML(),
     * then what markup left out. */
    paintRows(lines) {
      const d = this.doc;
      const plain = this.plainFrom();
      let s = '';
      const heats = [];
      for (const i of lines) s += this.rowHTML(i, plain, heats);
      /* parsed in this document, in a div's context (no adoption later) */
      const range = document.createRange();
      range.selectNodeContents(this.body);
      const rows = [...range.createContextualFragment(s).children];
      rows.forEach((row, k) => {
        const i = lines[k];
        if (d.heat) {
          const h = heats[k];
          if (h) row.querySelector('.heat').style.setProperty('--heat', h.frac.toFixed(3));
        }
        const rg = d.ranges ? d.ranges(i) : null;
        if (rg && rg.length)
          paint(row.querySelector('.tx'), d.text(i), d.lang, rg, this.drawnTo(plain), plain);
      });
      return rows;
    }
    /* Draws lines first..last, keeping the rows already drawn where they
     * are (moving one costs its style and layout again) and adding the
     * new ones above and below them (FORCE: redraw them all, after the
     * document or its classes changed).  After a jump (FORCE, or none of
     * the rows in view drawn: a click that scrolls a pane to its lines),
     * only the rows in view are drawn in this frame and the others around
     * them once the page is idle after it (fillLater): a click's frame styles, lays
     * out and paints the rows it shows, half of what it drew before. */
    render(force) {
      const h = this.height();
      const past = Math.floor(this.st / this.lh); /* rows scrolled past */
      let first = Math.max(1, past - 10);
      let last = Math.min(this.n, first + Math.ceil(h / this.lh) + 20);
      const vf = Math.max(1, past), vl = Math.min(this.n, past + Math.ceil(h / this.lh) + 2);
      const seen = !force && this.rows.size && this.first <= vl && this.last >= vf;
      /* the rows in view are drawn and those around them wait for their
       * frame (the scroll event of the jump comes before it) */
      const drawn = !force && this.rows.size && vf >= this.first && vl <= this.last;
      if (this.filling && drawn) return;
      /* A scroll this view set (scrollDue: a click's, a step's) draws
       * only the rows in view as well, even when some of them are drawn:
       * a click that moves a pane by half its height drew the twenty
       * rows around the view too, a third of the rows it drew, before its
       * frame.  A scroll by hand keeps the rows around the view drawn
       * in its frame (they may be scrolled into view before the next). */
      if ((!seen || this.scrollDue) && (vf > first || vl < last)) {
        if (drawn) {
          this.fillLater(); /* every row in view is drawn already */
          return;
        }
        first = vf;
        last = vl;
        this.fillLater();
      }
      if (!force && first === this.first && last === this.last) return;
      this.first = first;
      this.last = last;
      this.top.style.height = (first - 1) * this.lh + 'px';
      this.bottom.style.height = Math.max(0, this.n - last) * this.lh + 'px';
      const want = [];
      for (let r = first; r <= last && this.doc; r++) want.push(this.lineAt(r));
      const old = force ? new Map() : this.rows;
      /* the rows kept: one run of WANT (both are runs of rows, ascending) */
      let a = want.findIndex((i) => old.has(i));
      let b = a;
      if (a < 0) a = b = want.length;
      else while (b < want.length && old.has(want[b])) b++;
      const keep = new Set(want.slice(a, b));
      if (keep.size) for (const [i, row] of old) if (!keep.has(i)) row.remove();
      const rows = new Map();
      const above = a > 0 ? this.paintRows(want.slice(0, a)) : [];
      const below = b < want.length ? this.paintRows(want.slice(b)) : [];
      if (!keep.size) this.body.replaceChildren(...above, ...below);
      else {
        this.body.prepend(...above);
        this.body.append(...below);
      }
      want.forEach((i, k) => {
        const row = k < a ? above[k] : k >= b ? below[k - b] : old.get(i);
        this.decorate(row, i);
        rows.set(i, row);
      });
      this.rows = rows;
      if (this.found || (this.hlRanges && this.hlRanges.length)) this.paintFound();
    }
    /* The rows around those in view drawn once the frame that shows
     * them is painted (render() drew only those in view). */
    fillLater() {
      if (this.filling) return;
      this.filling = true;
      /* once the page is idle after that frame: not in the time a click
       * takes to show (nor in what report_bench.mjs counts as that) */
      const fill = () => {
        this.filling = false;
        this.render(false);
      };
      requestAnimationFrame(() => (window.requestIdleCallback ? requestIdleCallback(fill, { timeout: 100 }) : setTimeout(fill, 0)));
    }
    /* LINE into view when it is not (LATER: drawn by the caller's
     * render(), so that the caller scrolls every pane before it changes
     * any: a scroll set after a change costs a layout of its own). */
    scrollTo(line, later) {
      const h = this.height();
      const y = (this.rowOf(line) - 1) * this.lh;
      if (y < this.st || y > this.st + h - this.lh * 2) this.setScroll(Math.max(0, y - h / 3));
      if (!later) this.render(false);
    }
  }

  return { CodeView };
});
