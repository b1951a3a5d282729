/* find.js - the kernel page's find bar: text or a regular expression over
 * every line of a stage or of the source file, not only the rows on screen.
 *
 * Job: the code panes draw only the rows in view (codeview.js), so the
 * browser's own find sees a few dozen of a stage's thousands of lines; this
 * searches the stage's text as the data hold it (kernel.text, every line,
 * location suffixes included), marks the lines found in the pane, says
 * "k of n" (lines found), steps with Enter / Shift+Enter and brings the
 * hit to the middle of the pane.  It also counts the lines found in every
 * other stage and in the source file: a count clicked searches there.
 * Opened with Ctrl+F or "/" in kernel mode; in pass mode it searches the
 * open diff's rows (both sides, every row of the diff, drawn or not: the
 * diff pane draws only the rows in view), through the diff target pass
 * mode attaches (attachDiff).  The query, the hits and which pane they
 * are in are this module's state.
 *
 * Depends on: dom (el, base), kernel (stages, label, meta, text, loadText,
 *   sourceText, path), panes (shown, setStage, found, listen).
 * Interface: start(), open(text, opts) -> Promise (opts: {regex,
 *   matchCase, pane: 'src'|'ir'}; the first hit shown), close(), step(d),
 *   search(lines, text, opts) -> {hits, error} (every line of LINES that
 *   matches, 1-based), onChange(fn) (after each search or step, for the
 *   page's URL), attachDiff({active(), view()}) (pass mode's diff pane:
 *   searched while active), diffShown() (a new diff: searched again),
 *   query() ({text, regex, matchCase, pane} while open, else
 *   null), inspect() (for the tests, read only: the state, with ms: how
 *   long each search of the pane's lines took).
 */
'use strict';
TK.define('find', ['dom', 'kernel', 'panes'], function (dom, kernel, panes) {
  const el = dom.el;
  const F = {
    open: false,
    text: '',
    regex: false,
    matchCase: false,
    pane: 'ir', /* 'ir': the stage shown in the IR pane; 'src': the source file */
    hits: [],
    set: null, /* the hits as a Set, for the pane's marks */
    idx: 0,
    error: '',
    counts: {}, /* scope ('src' or a stage) -> lines found there */
    ms: [],
  };
  let bar = null, input = null, countEl = null, whereEl = null;
  let countTimer = 0;
  const listeners = [];
  let diffTarget = null; /* {active(), view()}: pass mode's diff pane */
  const inDiff = () => !!(diffTarget && diffTarget.active());

  /* A test of one line for TEXT: a plain substring (case folded unless
   * matchCase) or a regular expression (no 'g' flag: test() keeps no
   * position between lines).  Throws on a bad expression. */
  function matcher(text, opts) {
    if (opts.regex) {
      const re = new RegExp(text, opts.matchCase ? '' : 'i');
      return (s) => re.test(s);
    }
    if (opts.matchCase) return (s) => s.includes(text);
    const t = text.toLowerCase();
    return (s) => s.toLowerCase().includes(t);
  }

  /* The [start, end) ranges of a line where TEXT is found (for the
   * highlight in the pane; the search itself only tests lines). */
  function spansIn(line, text, opts) {
    const out = [];
    if (opts.regex) {
      let re;
      try {
        re = new RegExp(text, opts.matchCase ? 'g' : 'gi');
      } catch (e) {
        return out;
      }
      let m;
      while ((m = re.exec(line)) && out.length < 64) {
        if (!m[0].length) {
          re.lastIndex++;
          continue;
        }
        out.push([m.index, m.index + m[0].length]);
      }
      return out;
    }
    const hay = opts.matchCase ? line : line.toLowerCase();
    const t = opts.matchCase ? text : text.toLowerCase();
    for (let i = hay.indexOf(t); i >= 0 && out.length < 64; i = hay.indexOf(t, i + t.length)) out.push([i, i + t.length]);
    return out;
  }

  function search(lines, text, opts) {
    const hits = [];
    if (!text || !lines) return { hits, error: '' };
    let test;
    try {
      test = matcher(text, opts || {});
    } catch (e) {
      return { hits, error: e.message };
    }
    for (let i = 0; i < lines.length; i++) if (test(lines[i])) hits.push(i + 1);
    return { hits, error: '' };
  }

  /* The lines of scope SC ('src' or a stage), or null when not loaded. */
  function linesOf(sc) {
    if (sc === 'src') {
      const f = panes.shown().file;
      return f >= 0 ? kernel.sourceText(f) || null : null;
    }
    return kernel.text(sc) || null;
  }

  function scopeNow() {
    return F.pane === 'src' ? 'src' : panes.shown().stage;
  }

  function tell() {
    for (const f of listeners) f();
  }

  /* In pass mode: the open diff's rows (both sides), the first hit shown. */
  function runDiff() {
    const t0 = performance.now();
    let test = null;
    F.error = '';
    if (F.text) {
      try {
        test = matcher(F.text, F);
      } catch (e) {
        F.error = e.message;
      }
    }
    F.hits = diffTarget.view().find(F.open ? test : null);
    F.ms.push(performance.now() - t0);
    F.set = new Set(F.hits);
    F.idx = 0;
    F.pane = 'diff';
    show();
    if (whereEl) whereEl.replaceChildren(el('span', 'scope on', 'rows of the diff shown: ' + F.hits.length));
    tell();
  }

  /* Searches the pane's lines again; the hit shown is the first. */
  function run() {
    if (inDiff()) return runDiff();
    if (F.pane === 'diff') F.pane = 'ir';
    const t0 = performance.now();
    const r = search(linesOf(scopeNow()), F.text, F);
    F.ms.push(performance.now() - t0);
    F.hits = r.hits;
    F.set = new Set(r.hits);
    F.error = r.error;
    F.idx = 0;
    show();
    clearTimeout(countTimer);
    countTimer = setTimeout(countAll, 120);
    tell();
  }

  function show() {
    if (F.pane === 'diff') {
      const has = F.open && F.hits.length;
      if (has) diffTarget.view().reveal(F.hits[F.idx]);
      if (countEl) {
        countEl.textContent = F.error ? 'bad expression' : !F.text ? '' : has ? F.idx + 1 + ' of ' + F.hits.length : 'no match';
        countEl.title = F.error || (F.text ? 'rows of the diff found' : '');
        input.classList.toggle('bad', !!F.error || (!!F.text && !F.hits.length));
      }
      return;
    }
    const other = F.pane === 'src' ? 'ir' : 'src';
    panes.found(other, null, 0);
    const has = F.open && F.hits.length;
    const lines = linesOf(scopeNow());
    const q = { text: F.text, regex: F.regex, matchCase: F.matchCase };
    const spans = (i) => spansIn(lines[i - 1], q.text, q);
    if (!panes.found(F.pane, has ? F.set : null, has ? F.hits[F.idx] : 0, spans)) {
      /* the hit is a location line folded away (#loc, .loc): the
       * locations shown, as the "locations" button (key l) does */
      const b = document.getElementById('toggle-loc');
      if (b) b.click();
      panes.found(F.pane, F.set, F.hits[F.idx], spans);
    }
    if (!countEl) return;
    countEl.textContent = F.error ? 'bad expression' : !F.text ? '' : F.hits.length ? F.idx + 1 + ' of ' + F.hits.length : 'no match';
    countEl.title = F.error || (F.text ? 'lines found in ' + scopeLabel(scopeNow()) : '');
    input.classList.toggle('bad', !!F.error || (!!F.text && !F.hits.length));
  }

  function step(d) {
    if (!F.hits.length) return;
    F.idx = (F.idx + d + F.hits.length) % F.hits.length;
    show();
    tell();
  }

  function scopeLabel(sc) {
    if (sc === 'src') {
      const f = panes.shown().file;
      return f >= 0 ? dom.base(kernel.path(f)) : 'source';
    }
    return kernel.label(sc);
  }

  /* The lines found in every stage and the source file, each a button
   * that searches there; stages not yet loaded are loaded (text only). */
  async function countAll() {
    if (!F.open || !whereEl) return;
    const meta = kernel.meta();
    const scopes = ['src', ...kernel.stages().filter((st) => !meta.stages[st].missing)];
    await Promise.all(scopes.map((sc) => (sc === 'src' ? null : kernel.loadText(sc).catch(() => null))));
    const want = F.text;
    if (!F.open || want !== F.text) return;
    const now = scopeNow();
    /* a count button clicked keeps the focus (Escape closes the bar from
     * there) when the buttons are made again */
    const had = whereEl.contains(document.activeElement) ? document.activeElement.dataset.scope : null;
    whereEl.replaceChildren();
    F.counts = {};
    for (const sc of scopes) {
      const lines = linesOf(sc);
      if (!lines) continue;
      const n = F.error ? 0 : search(lines, F.text, F).hits.length;
      F.counts[sc] = n;
      const b = el('button', 'scope' + (sc === now ? ' on' : '') + (n ? '' : ' none'), scopeLabel(sc) + ' ' + n);
      b.type = 'button';
      b.dataset.scope = sc;
      b.title = n + ' line' + (n === 1 ? '' : 's') + ' found in ' + scopeLabel(sc) + (sc === now ? '' : ': click to search there');
      b.addEventListener('click', () => searchIn(sc));
      whereEl.appendChild(b);
      if (sc === had) b.focus();
    }
  }

  async function searchIn(sc) {
    if (sc === 'src') {
      F.pane = 'src';
      run();
      return;
    }
    F.pane = 'ir';
    if (sc !== panes.shown().stage) await panes.setStage(sc); /* the 'stage' news runs the search */
    else run();
  }

  function buildBar() {
    bar = el('div', 'findbar');
    bar.id = 'findbar';
    bar.hidden = true;
    input = el('input');
    input.id = 'find-text';
    input.type = 'search';
    input.spellcheck = false;
    input.placeholder = 'find in every line';
    input.addEventListener('input', () => {
      F.text = input.value;
      run();
    });
    input.addEventListener('keydown', (ev) => {
      if (ev.key !== 'Enter') return;
      step(ev.shiftKey ? -1 : 1);
      ev.preventDefault();
    });
    const toggle = (id, label, tip, key) => {
      const b = el('button', 'toggle', label);
      b.type = 'button';
      b.id = id;
      b.title = tip;
      b.addEventListener('click', () => {
        F[key] = !F[key];
        b.classList.toggle('on', F[key]);
        run();
        input.focus();
      });
      return b;
    };
    const btn = (id, label, tip, fn) => {
      const b = el('button', null, label);
      b.type = 'button';
      b.id = id;
      b.title = tip;
      b.addEventListener('click', fn);
      return b;
    };
    countEl = el('span', 'count');
    countEl.id = 'find-count';
    whereEl = el('div', 'where');
    whereEl.id = 'find-where';
    bar.append(
      input,
      toggle('find-regex', '.*', 'Regular expression (JavaScript syntax)', 'regex'),
      toggle('find-case', 'Aa', 'Match case', 'matchCase'),
      countEl,
      btn('find-prev', '\u2191', 'Previous (Shift+Enter)', () => step(-1)),
      btn('find-next', '\u2193', 'Next (Enter)', () => step(1)),
      btn('find-close', '\u00d7', 'Close (Escape)', close),
      whereEl,
    );
    /* Escape from anywhere in the bar (a count button clicked has the focus) */
    bar.addEventListener('keydown', (ev) => {
      if (ev.key !== 'Escape') return;
      close();
      ev.preventDefault();
    });
    document.body.appendChild(bar);
  }

  /* Opens the bar on TEXT (or on what it held), searching the pane OPTS
   * names, else the pane that has the focus. */
  async function open(text, opts) {
    opts = opts || {};
    if (!bar) buildBar();
    const inSrc = document.activeElement && document.activeElement.closest && document.activeElement.closest('#src-pane');
    F.pane = opts.pane || (inSrc ? 'src' : 'ir');
    if (opts.regex !== undefined) F.regex = !!opts.regex;
    if (opts.matchCase !== undefined) F.matchCase = !!opts.matchCase;
    document.getElementById('find-regex').classList.toggle('on', F.regex);
    document.getElementById('find-case').classList.toggle('on', F.matchCase);
    if (text !== undefined && text !== null) F.text = String(text);
    input.value = F.text;
    F.open = true;
    bar.hidden = false;
    input.focus();
    input.select();
    const st = panes.shown().stage;
    if (!inDiff() && F.pane === 'ir' && !kernel.text(st)) await kernel.loadText(st).catch(() => null);
    run();
  }

  function close() {
    if (!F.open) return;
    F.open = false;
    bar.hidden = true;
    clearTimeout(countTimer);
    panes.found('src', null, 0);
    panes.found('ir', null, 0);
    if (diffTarget) diffTarget.view().find(null);
    tell();
  }

  /* Ctrl+F (Cmd+F) and "/" open the bar in kernel mode, and in pass mode
   * over its diff. */
  function onKey(ev) {
    const kv = document.getElementById('kernel-view');
    if ((!kv || kv.hidden) && !inDiff()) return;
    const ctrlF = (ev.ctrlKey || ev.metaKey) && !ev.altKey && (ev.key === 'f' || ev.key === 'F');
    const slash = ev.key === '/' && !ev.ctrlKey && !ev.metaKey && !ev.altKey &&
      !(ev.target.closest && ev.target.closest('input, select, textarea'));
    if (!ctrlF && !slash) return;
    ev.preventDefault();
    ev.stopPropagation();
    open();
  }

  function start() {
    document.addEventListener('keydown', onKey, true);
    /* another stage or file shown: the same query there */
    panes.listen((ev) => {
      if (!F.open) return;
      if ((ev.what === 'stage' && F.pane === 'ir') || (ev.what === 'file' && F.pane === 'src')) run();
    });
  }

  return {
    start,
    open,
    close,
    step,
    search,
    onChange: (fn) => listeners.push(fn),
    attachDiff: (t) => {
      diffTarget = t;
    },
    diffShown: () => {
      if (F.open && inDiff()) runDiff();
    },
    query: () => (F.open && F.text ? { text: F.text, regex: F.regex, matchCase: F.matchCase, pane: F.pane } : null),
    inspect: () => F,
  };
});
