/* links.js - the kernel page's URL fragment: a link to a source line, an
 * IR line, a pass or a find, opened cold or kept up to date as one clicks.
 *
 * Job: reads the fragment when the page starts and when it changes (back,
 * forward, a link followed), and shows what it names:
 *   #source=FILE:LINE      a source line selected ("k of n" over its IR)
 *   #stage=S&line=N        line N of stage S selected
 *   #stage=S&find=TEXT     the find bar over stage S (&regex=1, &case=1)
 *   #pass=N, #pass=NAME    pass mode on pass N (or the one pass named so)
 *   #pass=N-M, N&to=M      the diff from before pass N to after pass M
 *   #pass=N.J              sub-step J of pass N (SoftwarePipeliner's, as
 *                          `tkview passes` numbers them)
 *   (the library's grammar, tk_passref.h, docs/passes.md "Naming a pass":
 *   tkview diff --pass and the viewer take the same; passRef below)
 *   #pass=...&source=FILE:LINE  the same, the passes that touched the
 *                          source line marked and the rows of the diff
 *                          that come from it
 * (stage=S may come with source= too: the stage shown beside it; FILE is
 * a path or its end, as `tkview bind --source` takes it).  As the page
 * changes it writes the fragment back: history.pushState for a navigation
 * (another stage, file or mode, another pass), history.replaceState for a
 * small move (another line selected, the find text typed, a step), so
 * Back goes to the previous place, not through every click.  The "copy
 * link" button copies the page's address with its fragment.  Which
 * fragment was written last is this module's state.
 *
 * Depends on: dom (el, base), kernel (files, meta, stages, text), panes
 *   (shown, setStage, showSource, showIR, listen), passes (open, select,
 *   selectSub, subs, list, compare, shown, forSource), find (open, close, onChange, query).
 * Interface: start({mode, setMode}) -> Promise (the fragment the page was
 *   opened with shown), parse(hash) -> {key: value}, fileOf(spec) -> file
 *   index or -1, passRef(spec, to, passes, subs) -> {from, sub, to} or
 *   {error, spec}, inspect() (for the tests, read only: written, pushes,
 *   replaces, errors).
 */
'use strict';
TK.define('links', ['dom', 'kernel', 'panes', 'passes', 'find'], function (dom, kernel, panes, passes, find) {
  const el = dom.el;
  const L = { written: '', pushes: 0, replaces: 0, errors: [], applying: false, last: null };
  let app = null; /* {mode(), setMode(m)} */

  function parse(hash) {
    const out = {};
    const h = (hash || '').replace(/^#/, '');
    if (!h) return out;
    for (const part of h.split('&')) {
      const eq = part.indexOf('=');
      const k = eq < 0 ? part : part.slice(0, eq);
      let v = eq < 0 ? '' : part.slice(eq + 1);
      try {
        v = decodeURIComponent(v.replace(/\+/g, ' '));
      } catch (e) {
        /* a malformed escape: the text as it is */
      }
      out[decodeURIComponent(k)] = v;
    }
    return out;
  }

  /* The file of the kernel's that SPEC names, as the library decides it
   * (meta.fileKeys, data_kernel.c: tk_file_query.h's rule, the one
   * `tkview bind --source` and the viewer use).  -1 when none or several. */
  let fileKeys = null; /* Map: name -> file index or -1 */
  function fileOf(spec) {
    if (!fileKeys) {
      const k = kernel.meta().fileKeys || [];
      fileKeys = new Map();
      for (let i = 0; i + 1 < k.length; i += 2) fileKeys.set(k[i], k[i + 1]);
    }
    return fileKeys.has(spec) ? fileKeys.get(spec) : -1;
  }

  /* FILE as short as it can be and still name it: its base name when no
   * other file has that base name, else its whole path. */
  function fileSpec(file) {
    const files = kernel.files();
    const p = files[file][0];
    const b = dom.base(p);
    return files.filter((f) => dom.base(f[0]) === b).length === 1 ? b : p;
  }

  function enc(v) {
    return encodeURIComponent(v).replace(/%2F/g, '/').replace(/%3A/g, ':');
  }

  /* The fragment that names what the page shows now, and whether moving
   * there from LAST is a navigation (push) or a small move (replace). */
  function current() {
    if (app.mode() === 'passes') {
      const P = passes.shown();
      /* the source line whose rows are marked: a small move */
      const src = P.src ? '&source=' + enc(fileSpec(P.src.file)) + ':' + P.src.line : '';
      if (P.sub && !P.range && P.sel < 0) return { hash: 'pass=' + P.sub + src, nav: 'passes:pass=' + P.sub };
      /* the grammar's own form, as tk_passref_format() writes it */
      const parts = ['pass=' + (P.range ? P.range[0] + (P.range[1] !== P.range[0] ? '-' + P.range[1] : '') : P.sel)];
      if (!P.range && P.sel < 0) return { hash: 'passes', nav: 'passes' };
      return { hash: parts.join('&') + src, nav: 'passes:' + parts.join('&') };
    }
    const S = panes.shown();
    const parts = ['stage=' + S.stage];
    const q = find.query();
    if (q && q.pane === 'ir') {
      parts.push('find=' + enc(q.text));
      if (q.regex) parts.push('regex=1');
      if (q.matchCase) parts.push('case=1');
    } else if (S.sel && S.sel.pane === 'src') {
      parts.push('source=' + enc(fileSpec(S.sel.file)) + ':' + S.sel.line);
      if (S.mode === 'exact') parts.push('exact=1');
    } else if (S.sel && S.sel.pane === 'ir') {
      parts.push('line=' + S.sel.line);
    }
    return { hash: parts.join('&'), nav: 'kernel:' + S.stage + ':' + S.file };
  }

  /* Writes the fragment for what is shown (after a click, a key, a step). */
  function write() {
    if (L.applying || !app) return;
    const c = current();
    if (c.hash === L.written) return;
    const url = location.pathname + location.search + '#' + c.hash;
    if (L.last !== null && c.nav !== L.last) {
      history.pushState(null, '', url);
      L.pushes++;
    } else {
      history.replaceState(null, '', url);
      L.replaces++;
    }
    L.written = c.hash;
    L.last = c.nav;
  }

  /* Shows what fragment HASH names. */
  async function apply(hash) {
    const f = parse(hash);
    if (!Object.keys(f).length) return;
    L.applying = true;
    try {
      if (f.pass !== undefined) {
        const count = (await passesReady()) || 0;
        if (f.source !== undefined && count) {
          const src = sourceOf(f.source);
          if (src) await passes.forSource(src.file, src.line, false);
        }
        const ps = count ? passes.list() : [];
        const r = passRef(f.pass, f.to, ps, (i) => passes.subs(i));
        const i = parseInt(f.pass, 10), subs = i < count ? passes.subs(i) : 0;
        const why = {
          'no-substep': () => 'no sub-step ' + r.spec + ' (pass ' + i + ' has ' + (subs ? 'sub-steps ' + i + '.0-' + i + '.' + (subs - 1) : 'none') + ')',
          'no-name': () => 'no pass is named ' + r.spec,
          'ambiguous': () => 'several passes are named ' + r.spec + '; give its number',
          'backwards': () => r.spec + ' comes before ' + f.pass,
          'not-a-pass': () => r.spec + ' is not one pass (&to= extends a pass N to M)',
        };
        if (r.error) L.errors.push('#pass: ' + (why[r.error] ? why[r.error]() : 'no pass ' + r.spec + ' (0-' + (count - 1) + ')'));
        else if (r.sub >= 0) await passes.selectSub(r.from, r.sub);
        else if (r.to !== r.from) await passes.compare(r.from, r.to);
        else await passes.select(r.from);
        return;
      }
      if (app.mode() !== 'kernel') app.setMode('kernel');
      const meta = kernel.meta();
      if (f.stage !== undefined) {
        if (!meta.stages[f.stage]) L.errors.push('#stage: no stage ' + f.stage + ' (' + kernel.stages().join(', ') + ')');
        else if (f.stage !== panes.shown().stage) await panes.setStage(f.stage);
      }
      if (f.find !== undefined) {
        await find.open(f.find, { pane: 'ir', regex: f.regex === '1', matchCase: f.case === '1' });
      } else {
        find.close();
      }
      if (f.source !== undefined) {
        const src = sourceOf(f.source);
        if (src) {
          if (f.exact === '1' && panes.shown().mode !== 'exact') {
            const b = document.getElementById('mode-exact');
            if (b) b.click();
          }
          await panes.showSource(src.file, src.line);
        }
      } else if (f.line !== undefined && !meta.stages[panes.shown().stage].missing) {
        const n = +f.line, max = kernel.text(panes.shown().stage).length;
        if (!(n >= 1 && n <= max)) L.errors.push('#line: ' + f.line + ' is not a line of ' + panes.shown().stage + ' (1-' + max + ')');
        else await panes.showIR(panes.shown().stage, n);
      }
    } finally {
      L.applying = false;
      /* what was shown is what the fragment says: no new history entry */
      const c = current();
      L.written = c.hash;
      L.last = c.nav;
      note();
    }
  }

  /* {file, line} of a source= value FILE:LINE, or null (said in L.errors). */
  function sourceOf(v) {
    const colon = v.lastIndexOf(':');
    const spec = colon > 0 ? v.slice(0, colon) : v;
    const line = colon > 0 ? +v.slice(colon + 1) : 0;
    const file = fileOf(spec);
    if (file < 0 || !(line > 0)) {
      L.errors.push('#source: ' + (file < 0 ? 'no file ' + spec : 'no line in ' + v));
      return null;
    }
    return { file, line };
  }

  /* A pass as the library's grammar names it (tk_passref.h): "N", "N.J",
   * "N-M" or the one pass whose name or argument it is; TO (&to=) extends
   * a pass N to M.  PS: the passes ({pass, arg}), SUBS(i): how many
   * sub-steps pass i has.  Returns {from, sub (-1: none), to} or {error,
   * spec}, ERROR named as tk_passref_error_name() names it, SPEC the part
   * at fault.  The page must read its fragment itself, so this is the one
   * rule the report decides in the browser: test_find.mjs checks it
   * against the table the library's unit test reads
   * (tests/passref_cases.json). */
  function passRef(spec, to, ps, subs) {
    const parse = (s) => {
      const bad = (error) => ({ error, spec: s });
      if (!s) return bad('syntax');
      if (!/^[0-9]/.test(s)) {
        const hits = [];
        for (let i = 0; i < ps.length; i++) if (ps[i].pass === s || ps[i].arg === s) hits.push(i);
        return hits.length === 1 ? { from: hits[0], sub: -1, to: hits[0] } : bad(hits.length ? 'ambiguous' : 'no-name');
      }
      const m = /^([0-9]+)(?:([.-])([0-9]+))?$/.exec(s);
      if (!m) return bad('syntax');
      const a = parseInt(m[1], 10), b = m[3] !== undefined ? parseInt(m[3], 10) : a, n = ps.length;
      if (m[2] === '.') {
        if (a >= n) return bad('no-pass');
        return b < subs(a) ? { from: a, sub: b, to: a } : bad('no-substep');
      }
      if (a >= n || b >= n) return bad('no-pass');
      return b < a ? bad('backwards') : { from: a, sub: -1, to: b };
    };
    const r = parse(spec);
    if (r.error || to === undefined || to === null) return r;
    if (r.sub >= 0 || r.to !== r.from) return { error: 'not-a-pass', spec };
    const t = parse(to);
    if (t.error) return t;
    if (t.sub >= 0 || t.to !== t.from) return { error: 'not-a-pass', spec: to };
    return t.from < r.from ? { error: 'backwards', spec: to } : { from: r.from, sub: -1, to: t.from };
  }

  async function passesReady() {
    if (!kernel.meta().passes) {
      L.errors.push('#pass: this kernel has no pass dumps');
      return null;
    }
    app.setMode('passes');
    await passes.open();
    return passes.shown().count;
  }

  /* A fragment that named nothing says so in the page, once. */
  function note() {
    const old = document.getElementById('link-note');
    if (old) old.remove();
    if (!L.errors.length) return;
    const p = el('p', 'warn', 'This link names nothing here: ' + L.errors[L.errors.length - 1] + '.');
    p.id = 'link-note';
    document.querySelector('header.top').appendChild(p);
  }

  function copyButton() {
    const b = el('button', null, 'copy link');
    b.type = 'button';
    b.id = 'copy-link';
    b.title = 'Copy a link to what this page shows (the stage, the line selected, the pass, the find)';
    b.addEventListener('click', async () => {
      write();
      const url = location.href;
      b.dataset.url = url;
      try {
        await navigator.clipboard.writeText(url);
        b.textContent = 'link copied';
      } catch (e) {
        /* no clipboard (a browser that refuses it on file://): the link
         * to copy by hand */
        window.prompt('Copy this link:', url);
      }
      setTimeout(() => (b.textContent = 'copy link'), 1500);
    });
    document.querySelector('header.top nav.modes').appendChild(b);
  }

  /* Passes shown as their diff arrives: the pass bar is redrawn then. */
  function watchPasses() {
    let queued = false;
    new MutationObserver(() => {
      if (queued) return;
      queued = true;
      requestAnimationFrame(() => {
        queued = false;
        if (app.mode() === 'passes') write();
      });
    }).observe(document.getElementById('pass-view'), { childList: true, subtree: true });
  }

  /* The fragment written once the page is idle after a change, not in
   * the click: history.replaceState costs Chromium a style pass and ~10 ms
   * on the largest kernels, which a click would wait for before its frame
   * (test_report_items' click budget). */
  let queued = false;
  function later() {
    if (queued) return;
    queued = true;
    const go = () => {
      queued = false;
      write();
    };
    if (window.requestIdleCallback) requestIdleCallback(go, { timeout: 300 });
    else setTimeout(go, 50);
  }

  async function start(appIface) {
    app = appIface;
    copyButton();
    panes.listen(() => later());
    find.onChange(() => later());
    watchPasses();
    /* Back, Forward, a link to the page followed, a fragment typed: all
     * fire popstate (hashchange too, for the same change) */
    window.addEventListener('popstate', () => apply(location.hash));
    await apply(location.hash);
  }

  return {
    start,
    parse,
    fileOf,
    passRef,
    /* app.js tells when the mode changed */
    changed: () => write(),
    inspect: () => L,
  };
});
