/* diffview.js - a virtual diff pane: the rows of a pass diff, drawn only
 * where they are in view (and some around them), so a diff of 20 000 rows
 * opens as fast as one of 20.
 *
 * Job: one DiffView per scrolling element.  It shows a diff in the format
 * the report stores and composes ({groups: [[kind, aLine, aText, bLine,
 * bText?, [aWords, bWords]?], ...], rs, st}, data_passes.c; the words
 * of a replaced row drawn stronger; rs and st: what each side names in the
 * source, data_locs.h), as one list of items: a heading per
 * change group ("change k of n — before: line ..."), then its rows side by
 * side (a diff with "one", its heading: one text alone, the B side of each
 * row in one pane, no count).  Wrapped (the default), a row is as many lines high as its longer
 * side needs at the width of a column, so every character can be read;
 * not wrapped, each side is drawn as far as its column shows it (the whole
 * line on hover).  Heights are known by arithmetic (a side of L characters
 * in a column of C is ceil(L / C) lines), never measured; notes
 * above and below the list (what was composed,
 * what was left out) are the caller's elements.  Only the items in view are
 * elements: painting a pass that rewrote a module used to lay out
 * thousands of rows (seconds in Chromium), now it lays out a screenful.
 * Scrolls to a change group.  Its state (the diff, the items drawn) is the
 * object's own.
 *
 * Depends on: dom (el), syntax (paint).
 * Interface: DiffView (class): show(diff, lang, head, tail), clear(nodes),
 *   groupCount(), scrollToGroup(g) (marked current, centred), groupInView(),
 *   scrolledAway(), find(test) -> item indices of the rows found (marked),
 *   reveal(k) (a row found to the middle), markSource(match) (the rows
 *   whose sides come from a source line marked, in this and the next
 *   diffs shown), sourceRows(), layoutAt(target, x, y) (the TTGIR layout
 *   reference under the mouse: {lay, use}, for the layouts tip),
 *   setWrap(on), wrap, window() (for the
 *   tests); ROW_H.
 */
'use strict';
TK.define('diffview', ['dom', 'syntax'], function (dom, syntax) {
  const el = dom.el;
  const paint = syntax.paint;
  /* The height of every item, in pixels: report.css gives .drow and
   * .dgroup this height (the items are laid out by arithmetic, never
   * measured). */
  const ROW_H = 18;
  /* Items drawn beyond each edge of the view, so that a small scroll shows
   * rows already made. */
  const OVERSCAN = 12;
  /* Width of a character of the code font, in pixels (measured once). */
  let charW = 0;
  /* Characters of a wrapped side drawn at most (the rest: "... N more
   * characters", the whole line on hover), as the code panes draw. */
  const WRAP_MAX = 4000;
  /* Characters a side takes on screen, wrapped: its text up to WRAP_MAX
   * and the note of what is left out; with the locations hidden
   * (body.hideloc), each location drawn as one "…" (syntax.paint). */
  function sideLen(t, lang) {
    if (t === null || t === undefined) return 0;
    let n = t.length;
    if (document.body.classList.contains('hideloc') && (t.includes('loc(') || t.includes('!dbg'))) {
      for (const [s, e, cls] of syntax.tokenize(n > WRAP_MAX ? t.slice(0, WRAP_MAX) : t, lang))
        if (cls === 'loc') n -= e - s - 1;
    }
    return n > WRAP_MAX ? WRAP_MAX + 30 : n;
  }

  /* Characters of a side drawn: as many as half the window's width holds
   * (a side is less than half: its text is cut at the column's edge), not
   * the thousands the longest IR lines have (LLVM struct types: each
   * token an element to lay out).  A longer line shows its whole text on
   * hover; a wider window draws more. */
  function rowChars(root) {
    if (!charW) {
      const probe = el('span', null, 'x'.repeat(100));
      probe.style.cssText = 'position:absolute;visibility:hidden;white-space:pre';
      root.appendChild(probe);
      charW = probe.getBoundingClientRect().width / 100 || 7.5;
      probe.remove();
    }
    return Math.max(80, Math.ceil(window.innerWidth / 2 / charW) + 8);
  }

  /* A replaced row's changed words ([start, end, ...] in characters, as
   * the library's tk_ir_diff_words() found them and data_passes.c wrote
   * them) as syntax.paint's ranges: each one a .wd span. */
  function wordRanges(w) {
    const out = [];
    for (let i = 0; i + 1 < w.length; i += 2) out.push([w[i], w[i + 1], () => el('span', 'wd')]);
    return out;
  }

  /* The offset in TX's line (as syntax.paint drew it: the "…" of a hidden
   * location and the note of characters left out are not its text) of
   * the character at X, Y; -1 when none. */
  function charAt(tx, x, y) {
    let node = null, at = 0;
    if (document.caretPositionFromPoint) {
      const p = document.caretPositionFromPoint(x, y);
      if (p) (node = p.offsetNode), (at = p.offset);
    } else if (document.caretRangeFromPoint) {
      const r = document.caretRangeFromPoint(x, y);
      if (r) (node = r.startContainer), (at = r.startOffset);
    }
    if (!node || node.nodeType !== 3 || !tx.contains(node)) return -1;
    const w = document.createTreeWalker(tx, NodeFilter.SHOW_TEXT);
    let pos = 0, n;
    while ((n = w.nextNode())) {
      const p = n.parentNode;
      if (p.classList && (p.classList.contains('locmark') || p.classList.contains('cut'))) {
        if (n === node) return -1;
        continue;
      }
      if (n === node) return pos + at;
      pos += n.length;
    }
    return -1;
  }

  class DiffView {
    constructor(scroller) {
      this.root = scroller;
      this.head = el('div', 'dhead');
      this.padTop = el('div', 'pad');
      this.body = el('div', 'ditems');
      this.bottom = el('div', 'pad');
      this.tail = el('div', 'dtail');
      this.diff = null;
      this.lang = '';
      this.start = new Int32Array(1); /* item index of group g's heading; [n] = item count */
      this.height = 800; /* of the view, in pixels, when last read */
      this.first = 0;
      this.last = -1;
      this.pending = false;
      this.chars = 0; /* characters of a side drawn (rowChars) */
      this.wrap = true; /* rows wrapped to the width of a column */
      this.hideloc = document.body.classList.contains('hideloc');
      this.cur = -1; /* the change group marked current (n / p), -1: none */
      this.found = null; /* the find bar's rows (item indices), or null */
      this.foundCur = -1; /* the one it shows */
      this.cols = 80; /* characters a column holds, when last measured */
      /* The source line whose rows are marked: MATCH(entry) says whether
       * an entry of the diff's table of stacks ("st", data_locs.h) names
       * it; HIT: per entry 1 when it does (null: no marks). */
      this.srcMatch = null;
      this.srcHit = null;
      this.top = new Float64Array(1); /* lines above item k; [n] = all lines */
      this.root.addEventListener('scroll', () => this.schedule());
      /* Locations shown or hidden: wrapped rows change height. */
      new MutationObserver(() => {
        const hide = document.body.classList.contains('hideloc');
        if (hide === this.hideloc) return;
        this.hideloc = hide;
        if (this.diff && this.wrap) {
          this.layout();
          this.render(true);
        }
      }).observe(document.body, { attributes: true, attributeFilter: ['class'] });
      window.addEventListener('resize', () => {
        const cols = this.diff && this.wrap ? this.columnChars() : this.cols;
        if (cols !== this.cols) {
          this.cols = cols;
          this.layout();
          this.render(true);
        } else if (this.diff && rowChars(this.root) > this.chars) this.render(true);
        else this.schedule();
      });
    }

    /* Shows D (a diff, or null for nothing) coloured as LANG, with the
     * elements HEAD above the rows and TAIL below them. */
    show(d, lang, head, tail) {
      /* Read and scroll before the content changes: once it has, each of
       * these would make Chromium lay the page out again, at once. */
      this.height = this.root.clientHeight || 800;
      this.chars = rowChars(this.root);
      this.one = !!(d && d.one);
      if (this.wrap) this.cols = this.columnChars();
      if (this.root.scrollTop) this.root.scrollTop = 0;
      this.diff = d;
      /* A diff opens on its first change: the current one (n goes on to
       * the second). */
      this.cur = d && d.groups.length ? 0 : -1;
      this.markedAt = 0;
      this.found = null;
      this.foundCur = -1;
      this.lang = lang || '';
      this.srcHit = this.sourceHits();
      const n = d ? d.groups.length : 0;
      this.start = new Int32Array(n + 1);
      for (let g = 0, k = 0; g <= n; g++) {
        this.start[g] = k;
        if (g < n) k += 1 + d.groups[g].length;
      }
      this.layout();
      this.head.replaceChildren(...(head || []));
      this.tail.replaceChildren(...(tail || []));
      this.body.replaceChildren();
      this.root.replaceChildren(this.head, this.padTop, this.body, this.bottom, this.tail);
      this.first = 0;
      this.last = -1;
      this.render(true, 0, true);
    }

    /* Per entry of the diff's table of stacks, whether it names the
     * source line marked (null: none marked, or the diff has no table). */
    sourceHits() {
      const d = this.diff, m = this.srcMatch;
      if (!m || !d || !d.st || !d.rs) return null;
      const hit = new Uint8Array(d.st.length);
      for (let e = 1; e < d.st.length; e++) hit[e] = m(d.st[e]) ? 1 : 0;
      return hit;
    }

    /* Marks the rows whose sides come from a source line: MATCH(stacks)
     * says whether an entry of the diff's table names it (each stack its
     * frames, [file, line, ...] innermost first); null: no marks.  Kept
     * for the diffs shown next. */
    markSource(match) {
      this.srcMatch = match || null;
      this.srcHit = this.sourceHits();
      if (this.diff) this.render(true);
    }

    /* The layout reference under the point X, Y (a mouse event's), on
     * TARGET: {lay, use} (use as a stage's: [0, start, end, def, cover])
     * from the diff's ry / ly (data_layouts.h), or null.  Nothing is
     * painted for them: the character under the mouse is looked up. */
    layoutAt(target, x, y) {
      const d = this.diff;
      if (!d || !d.ry || !d.ly || !target || !target.closest) return null;
      const tx = target.closest('.drow .tx');
      if (!tx) return null;
      const row = tx.parentNode, k = +row.dataset.k;
      const side = tx === row.children[1] ? 0 : tx === row.children[3] ? 1 : -1;
      const g = this.groupOf(k), i = k - this.start[g] - 1;
      if (side < 0 || i < 0 || !d.ry[g]) return null;
      const refs = d.ry[g][2 * i + side];
      if (!refs) return null;
      const off = charAt(tx, x, y);
      if (off < 0) return null;
      for (let j = 0; j + 3 < refs.length; j += 4)
        if (off >= refs[j] && off < refs[j + 1]) return { lay: d.ly, use: [0, refs[j], refs[j + 1], refs[j + 2], refs[j + 3]] };
      return null;
    }

    /* The rows marked by markSource: their item indices, and per row which
     * sides (1: before, 2: after, 3: both). */
    sourceRows() {
      const out = [], d = this.diff, hit = this.srcHit;
      for (let g = 0; hit && g < d.groups.length; g++) {
        const rs = d.rs[g];
        for (let i = 0; i < d.groups[g].length; i++) {
          const m = (hit[rs[2 * i]] ? 1 : 0) | (hit[rs[2 * i + 1]] ? 2 : 0);
          if (m) out.push([this.start[g] + 1 + i, m]);
        }
      }
      return out;
    }

    /* Characters one side's column holds: half the pane less the line
     * numbers, measured on a row made for it (once per show or resize:
     * wrapped heights depend on it). */
    columnChars() {
      const probe = el('div', this.one ? 'drow one' : 'drow');
      probe.style.visibility = 'hidden';
      /* the characters' width from a run of them alone: the column's
       * scrollWidth is at least its own width, which made a character
       * 8.5 px for 7.5, wrapped rows one line too tall (blank gaps) */
      const t = el('span', 'tx'), x = el('span', null, 'x'.repeat(50));
      t.appendChild(x);
      if (this.one) probe.append(el('span', 'no'), t);
      else probe.append(el('span', 'no'), t, el('span', 'no'), el('span', 'tx'));
      this.root.appendChild(probe);
      const w = t.getBoundingClientRect().width, cw = x.getBoundingClientRect().width / 50 || charW || 7.5;
      probe.remove();
      /* A pane not shown has no width: keep what was measured. */
      return w ? Math.max(20, Math.floor(w / cw)) : this.cols;
    }

    /* Where each item starts, in lines (this.top): a heading is one line,
     * a row one, or wrapped, as many as its longer side needs. */
    layout() {
      const n = this.items(), d = this.diff;
      this.top = new Float64Array(n + 1);
      let y = 0, k = 0;
      for (let g = 0; d && g < d.groups.length; g++) {
        this.top[k++] = y;
        y += 1;
        for (const r of d.groups[g]) {
          this.top[k++] = y;
          y += this.wrap ? Math.max(1, Math.ceil(Math.max(sideLen(r[2], this.lang), sideLen(r.length > 4 ? r[4] : r[2], this.lang)) / this.cols)) : 1;
        }
      }
      this.top[n] = y;
    }

    /* The item at line Y (binary search of this.top). */
    itemAt(y) {
      let lo = 0, hi = Math.max(0, this.items() - 1);
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (this.top[mid] <= y) lo = mid;
        else hi = mid - 1;
      }
      return lo;
    }

    /* Wrapped rows (ON) or cut at the column's edge; the diff shown is
     * laid out again, the item at the top of the view kept there. */
    setWrap(on) {
      if (this.wrap === !!on) return;
      const keep = this.diff ? this.itemAt(Math.max(0, this.root.scrollTop - this.head.offsetHeight) / ROW_H) : 0;
      this.wrap = !!on;
      if (!this.diff) return;
      if (this.wrap) this.cols = this.columnChars();
      this.layout();
      this.render(true, this.top[keep] * ROW_H);
      this.root.scrollTop = this.head.offsetHeight + this.top[keep] * ROW_H;
    }

    /* Nothing but NODES (a message in place of a diff). */
    clear(nodes) {
      if (this.root.scrollTop) this.root.scrollTop = 0;
      this.diff = null;
      this.start = new Int32Array(1);
      this.top = new Float64Array(1);
      this.first = 0;
      this.last = -1;
      this.root.replaceChildren(...(nodes || []));
    }

    groupCount() {
      return this.diff ? this.diff.groups.length : 0;
    }

    items() {
      return this.start[this.start.length - 1];
    }

    /* The group whose items hold item K (binary search of the headings). */
    groupOf(k) {
      let lo = 0, hi = this.start.length - 2;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (this.start[mid] <= k) lo = mid;
        else hi = mid - 1;
      }
      return lo;
    }

    schedule() {
      if (this.pending) return;
      this.pending = true;
      requestAnimationFrame(() => {
        this.pending = false;
        if (!this.filling) this.render(false); /* else the fill draws */
      });
    }

    heading(g) {
      const d = this.diff, rows = d.groups[g];
      if (d.one) return el('div', 'dgroup', d.one);
      const fa = rows.find((r) => r[1]), fb = rows.find((r) => r[3]);
      /* a diff cut over its budget counts the changes of the whole diff
       * (ng, the library's), as tkview diff and the viewer do */
      const h = el('div', 'dgroup', 'change ' + (g + 1) + ' of ' + (d.ng || d.groups.length) +
        (d.ng ? ' (' + d.groups.length + ' shown)' : '') +
        (fa ? ' \u2014 before: line ' + fa[1] : '') + (fb ? ', after: line ' + fb[3] : ''));
      h.dataset.g = g;
      if (g === this.cur) h.classList.add('cur');
      return h;
    }

    /* One row: [kind, aLine, aText, bLine, bText]; a context row whose two
     * sides are the same text stores it once (no bText). */
    row(r) {
      const words = r[0] === 'r' && r[5] && (r[5][0].length || r[5][1].length) ? r[5] : null;
      const row = el('div', 'drow ' + r[0] + (words ? ' words' : '') + (this.wrap ? ' wrap' : '') + (this.one ? ' one' : ''));
      const most = this.wrap ? WRAP_MAX : this.chars;
      const side = (no, text, cls, w) => {
        const nn = el('span', 'no', no || '');
        const t = el('span', 'tx ' + cls);
        if (text !== null) {
          paint(t, text, this.lang, w ? wordRanges(w) : null, most);
          if (text.length > most) t.title = text;
        }
        row.append(nn, t);
      };
      if (!this.one) side(r[1], r[2], r[0] === 'e' ? '' : r[0] === 'i' ? 'none' : 'del', words && r[5][0]);
      side(r[3], r.length > 4 ? r[4] : r[2], r[0] === 'e' ? '' : r[0] === 'd' ? 'none' : 'add',
        words && r[5][1]);
      return row;
    }

    item(k) {
      const g = this.groupOf(k), i = k - this.start[g];
      const e = i === 0 ? this.heading(g) : this.row(this.diff.groups[g][i - 1]);
      if (i > 0 && this.srcHit) {
        /* a side that comes from the source line marked: its line number */
        const rs = this.diff.rs[g], a = this.srcHit[rs[2 * i - 2]], b = this.srcHit[rs[2 * i - 1]];
        if (a || b) e.classList.add('src');
        if (a && !this.one) e.children[0].classList.add('src');
        if (b) e.children[this.one ? 0 : 2].classList.add('src');
      }
      if (i > 0 && g === this.cur && this.diff.groups[g][i - 1][0] !== 'e') e.classList.add('cur');
      if (this.found && this.found.has(k)) e.classList.add(k === this.foundCur ? 'found-cur' : 'found');
      e.dataset.k = k;
      const h = this.top[k + 1] - this.top[k];
      if (h > 1) e.style.height = h * ROW_H + 'px';
      return e;
    }

    /* Draws the items in view (FORCE: even when they are the ones drawn);
     * AT: the scroll offset into the items when the caller knows it (no
     * layout is read); LEAN: only the items in view now (a diff opened),
     * those around them once this frame is painted. */
    render(force, at, lean) {
      const n = this.items();
      if (!this.diff || !n) {
        this.padTop.style.height = this.bottom.style.height = '0px';
        this.body.replaceChildren();
        return;
      }
      let h = this.height, y = at;
      if (y === undefined) {
        h = this.height = this.root.clientHeight || 800;
        y = this.root.scrollTop - this.head.offsetHeight;
      }
      const over = lean ? 0 : OVERSCAN;
      const first = Math.max(0, this.itemAt(Math.max(0, y) / ROW_H) - over);
      /* lean: at least 30 items all the same (a short pane; test_smoke reads them) */
      const last = Math.min(n - 1, Math.max(this.itemAt((Math.max(0, y) + h) / ROW_H) + (lean ? 1 : 2 * over), lean ? first + 29 : 0));
      if (lean && !this.filling) {
        this.filling = true;
        const fill = () => {
          this.filling = false;
          this.render(false);
        };
        requestAnimationFrame(() => (window.requestIdleCallback ? requestIdleCallback(fill, { timeout: 100 }) : setTimeout(fill, 0)));
      }
      if (!force && first === this.first && last === this.last) return;
      if (force) this.chars = rowChars(this.root);
      const kept = new Map();
      for (const e of force ? [] : this.body.children) {
        const k = +e.dataset.k;
        if (k >= first && k <= last) kept.set(k, e);
      }
      const frag = document.createDocumentFragment();
      for (let k = first; k <= last; k++) frag.appendChild(kept.get(k) || this.item(k));
      this.padTop.style.height = this.top[first] * ROW_H + 'px';
      this.bottom.style.height = (this.top[n] - this.top[last + 1]) * ROW_H + 'px';
      this.body.replaceChildren(frag);
      this.first = first;
      this.last = last;
    }

    /* Marks group G current (its heading and changed rows: .cur) and
     * scrolls its changed rows to the middle of the view (its heading to
     * the top when they are taller than the view). */
    scrollToGroup(g) {
      if (!this.diff || g < 0 || g >= this.groupCount()) return;
      this.cur = g;
      const rows = this.diff.groups[g];
      let a = rows.findIndex((r) => r[0] !== 'e'), b = rows.length - 1;
      while (b > a && rows[b][0] === 'e') b--;
      if (a < 0) a = b = 0;
      const k0 = this.start[g] + 1 + a, k1 = this.start[g] + 1 + b;
      const h = this.root.clientHeight || this.height;
      const span = (this.top[k1 + 1] - this.top[k0]) * ROW_H;
      const y = span + 2 * ROW_H >= h ? this.top[this.start[g]] * ROW_H
        : (this.top[k0] * ROW_H + span / 2) - h / 2;
      this.root.scrollTop = Math.max(0, this.head.offsetHeight + y);
      this.markedAt = this.root.scrollTop;
      this.render(true);
    }

    /* The find bar's search: the rows where TEST (a function of a line's
     * text) is true of either side, marked, as item indices in order (null
     * TEST: none marked). */
    find(test) {
      const hits = [];
      const d = this.diff;
      for (let g = 0; test && d && g < d.groups.length; g++) {
        const rows = d.groups[g];
        for (let i = 0; i < rows.length; i++) {
          const r = rows[i], b = r.length > 4 ? r[4] : r[2];
          if ((r[2] !== null && test(r[2])) || (b !== null && b !== undefined && test(b))) hits.push(this.start[g] + 1 + i);
        }
      }
      this.found = test ? new Set(hits) : null;
      this.foundCur = -1;
      if (d) this.render(true);
      return hits;
    }

    /* Item K (a row found) to the middle of the view, marked the one
     * shown. */
    reveal(k) {
      if (!this.diff || k < 0 || k >= this.items()) return;
      this.foundCur = k;
      const h = this.root.clientHeight || this.height;
      const y = (this.top[k] + (this.top[k + 1] - this.top[k]) / 2) * ROW_H - h / 2;
      this.root.scrollTop = Math.max(0, this.head.offsetHeight + y);
      this.render(true);
    }

    /* Whether the reader scrolled since the current group was marked. */
    scrolledAway() {
      return this.cur >= 0 && Math.abs(this.root.scrollTop - this.markedAt) > ROW_H;
    }

    /* The group at the middle of the view (where n / p start from when
     * the reader scrolled away from the current one). */
    groupInView() {
      if (!this.diff || !this.groupCount()) return -1;
      const h = this.root.clientHeight || this.height;
      const y = this.root.scrollTop - this.head.offsetHeight + h / 2;
      return this.groupOf(this.itemAt(Math.max(0, y) / ROW_H));
    }

    /* For the tests: the items there are and the ones drawn. */
    window() {
      return { items: this.items(), first: this.first, last: this.last, rowH: ROW_H, wrap: this.wrap, cur: this.cur,
        cols: this.cols, lines: this.top[this.items()] };
    }
  }

  return { DiffView, ROW_H };
});
