/* panes.js - the kernel view: the source pane, the IR pane and the second
 * IR pane beside it, and what clicking a line in them highlights.
 *
 * Job: which stage, second stage and source file are shown and how a
 * source line is asked ("and what it called" / "this line only"); the
 * stage tabs and the file bar; a click on a source line highlights its IR
 * lines, a click on an IR line its source lines and the lines of the other
 * stage; "k of n" stepping through the highlighted lines.  All of that
 * state is this module's; the lookups are the kernel module's, the panel
 * on the right the info module's.
 *
 * Lines that are not code (kernel.isCode(): a .loc, a //## comment, a
 * label) are drawn dimmed and never counted or stepped to; lines that only
 * state a location are folded away while locations are hidden (setFold);
 * a stage opens on its first instruction.  A click on a source line asks
 * for its statement (kernel.query()), and the answer says when it is
 * partial (shared helper code) or approximate.
 *
 * Depends on: dom (el, base), codeview (CodeView), syntax (stageLang),
 *   kernel (texts, bindings, lookups), info (help, source, ir, count),
 *   cost (srcHeat, irHeat: the heat column, when the kernel has cost data),
 *   diag (srcMark, irMark, srcTitle, irTitle: the compiler's messages),
 *   regs (srcMark, srcTitle: the kernel's register peak on its line).
 * Interface: start({passesOf}) -> Promise (the first stage and file
 *   shown), setStage(stage), gotoHit(d), setFold(on), refresh() (the heat
 *   column again, after the metric changed), showSource(file, line),
 *   showIR(stage, line) (select and scroll to a line, as a click does),
 *   found(pane, lines, cur, spans) (the find bar's hits: pane 'src' or
 *   'ir', a Set of lines or null, the current hit centred, spans(i) the
 *   character ranges found in line i; false when the hit is folded away), listen(fn) (fn({what:
 *   'stage'|'file'|'select'|'mode'}) after each change, for the find bar
 *   and the page's URL), shown() ({stage, stage2, file, mode, sel}: what
 *   is shown and selected, a copy), inspect() (for the tests, read only:
 *   stage, stage2, file, mode, hits, hitIdx, sel, clicks, fold, stmt,
 *   shared, approx).
 */
'use strict';
TK.define('panes', ['dom', 'codeview', 'syntax', 'kernel', 'info', 'cost', 'diag', 'regs'], function (dom, codeview, syntax, kernel, info, cost, diag, regs) {
  const { el, base } = dom;
  const S = {
    stage: 'ttgir',
    stage2: '',
    file: -1,
    mode: 'called',
    hits: [],
    hitIdx: 0,
    sel: null, /* {pane: 'src'|'ir'|'ir2', line} */
    clicks: [], /* ms each click took to highlight (for the tests) */
    fold: true, /* location lines folded away (locations hidden) */
    stmt: null, /* [first, last] of the source query shown */
    shared: null, /* {lines, sites} the source query leaves out */
    approx: [], /* lines of the other pane matched on the innermost frame */
  };
  const rowsCache = new Map(); /* stage -> the lines shown while folded */
  let srcView, irView, ir2View;
  let passesOf = null; /* (file, line): the passes that touched a source line */
  const listeners = [];
  function tell(what) {
    for (const f of listeners) f({ what });
  }

  function irDoc(stage, view, which) {
    const text = kernel.text(stage);
    const b = kernel.bind(stage);
    return {
      n: text.length,
      lang: syntax.stageLang(stage),
      text: (i) => text[i - 1],
      cls: (i) => (b.line[i - 1] ? 'b' : 'u') + (b.inf.has(i) ? ' inf' : '') + (kernel.isCode(stage, i) ? '' : ' nc') + diag.irMark(stage, i),
      rows: S.fold ? foldedRows(stage, text.length) : null,
      gutter: () => '',
      heat: cost.ready() ? (i) => cost.irHeat(stage, i) : null,
      title: (i) => {
        const ids = kernel.lineStacks(stage, i);
        const msgs = diag.irTitle(stage, i);
        const loc = ids.length ? ids.map((id) => kernel.stackFrames(id).map(kernel.frameText).join(' \u2190 ')).join('\n') : 'no location';
        return msgs ? msgs + '\n\n' + loc : loc;
      },
      ranges: (i) => layoutRanges(stage, i),
      onClick: (line) => clickIR(which, line),
    };
  }

  /* The lines of STAGE shown while locations are hidden: all but those
   * that only state a location (#loc definitions, .loc, //##). */
  function foldedRows(stage, n) {
    let rows = rowsCache.get(stage);
    if (!rows) {
      rows = [];
      for (let i = 1; i <= n; i++) if (!kernel.isLocation(stage, i)) rows.push(i);
      rowsCache.set(stage, rows);
    }
    return rows;
  }

  /* Locations hidden (ON): their lines folded away in both IR panes. */
  function setFold(on) {
    S.fold = !!on;
    if (kernel.stageReady(S.stage)) irView.refresh(irDoc(S.stage, irView, 'ir'));
    if (S.stage2 && kernel.stageReady(S.stage2)) ir2View.refresh(irDoc(S.stage2, ir2View, 'ir2'));
  }

  /* Instructions only: what "k of n" counts and n / p step through. */
  function codeOnly(stage, lines) {
    return lines.filter((l) => kernel.isCode(stage, l));
  }

  /* The layout references of a line, as elements the layouts module's tip
   * finds (span.lay with the use and the stage). */
  function layoutRanges(stage, line) {
    const b = kernel.bind(stage);
    const idx = b.layByLine.get(line);
    if (!idx) return null;
    return idx.map((k) => {
      const u = b.lay.uses[k];
      return [u[1], u[2], () => {
        const sp = el('span', 'lay');
        sp.dataset.u = k;
        sp.dataset.stage = stage;
        return sp;
      }];
    });
  }

  function srcDoc(file, lines) {
    const stage = S.stage;
    return {
      stage, /* what its classes and counts were made for */
      n: lines.length,
      lang: 'py',
      text: (i) => lines[i - 1],
      cls: (i) => {
        const r = kernel.srcRow(stage, file, i);
        return (r ? (r[2].length ? 'b' : 'b called') : 'u') + diag.srcMark(file, i) + regs.srcMark(file, i);
      },
      gutter: (i) => String(kernel.srcCount(stage, file, i, S.mode) || ''),
      heat: cost.ready() ? (i) => cost.srcHeat(file, i, S.mode) : null,
      title: (i) => [diag.ready() ? diag.srcTitle(file, i) : '', regs.srcTitle(file, i)].filter((t) => t).join('\n\n') || null,
      onClick: (line) => clickSource(file, line),
    };
  }

  function renderStageTabs() {
    const meta = kernel.meta();
    const bar = irView.root.querySelector('.bar');
    bar.replaceChildren();
    const tabs = el('span', 'tabs');
    for (const st of kernel.stages()) {
      const about = meta.stages[st];
      const b = el('button', 'tab' + (st === S.stage ? ' on' : '') + (about.missing ? ' missing' : ''), kernel.label(st));
      b.type = 'button';
      b.dataset.stage = st;
      b.title = about.missing ? about.missing : about.file + ' \u2014 ' + about.lines + ' lines, ' + about.bound + ' instructions with a location';
      b.addEventListener('click', () => setStage(st));
      tabs.appendChild(b);
    }
    bar.appendChild(tabs);
    const cmp = el('label', 'cmp', 'beside: ');
    const sel = el('select');
    sel.id = 'stage2';
    sel.appendChild(new Option('none', ''));
    for (const st of kernel.stages()) if (!meta.stages[st].missing && st !== S.stage) sel.appendChild(new Option(kernel.label(st), st));
    sel.value = S.stage2 !== S.stage ? S.stage2 : '';
    sel.addEventListener('change', () => setStage2(sel.value));
    cmp.appendChild(sel);
    bar.appendChild(cmp);
    const about = meta.stages[S.stage];
    bar.appendChild(el('span', 'file', about.missing ? '' : about.file));
  }

  async function setStage(st) {
    S.stage = st;
    if (S.stage2 === st) S.stage2 = '';
    renderStageTabs();
    const about = kernel.meta().stages[st];
    const code = irView.code;
    const old = irView.root.querySelector('.why');
    if (old) old.remove();
    if (about.missing) {
      irView.set(null);
      const w = el('p', 'why', 'No ' + kernel.label(st) + ': ' + about.missing + '.');
      irView.root.insertBefore(w, code);
      document.body.dataset.stage = st;
      tell('stage');
      return;
    }
    await kernel.loadStage(st);
    irView.set(irDoc(st, irView, 'ir'), kernel.firstCode(st)); /* not on 40 rows of #loc */
    await setStage2(S.stage2);
    /* the source's classes and counts are the stage's (drawn for this one
     * already when the page starts) */
    if (srcView.doc && srcView.doc.stage !== st) refreshSource();
    reapply();
    document.body.dataset.stage = st;
    tell('stage');
  }

  async function setStage2(st) {
    S.stage2 = st || '';
    const pane = document.getElementById('ir2-pane');
    if (!S.stage2) {
      pane.hidden = true;
      document.body.classList.remove('two');
      return;
    }
    await kernel.loadStage(S.stage2);
    pane.hidden = false;
    document.body.classList.add('two');
    const bar = pane.querySelector('.bar');
    bar.replaceChildren(el('span', 'title', kernel.label(S.stage2) + ' \u2014 bound to the selected ' + kernel.label(S.stage) + ' line'));
    ir2View.set(irDoc(S.stage2, ir2View, 'ir2'), kernel.firstCode(S.stage2));
    reapply();
  }

  function renderFileBar() {
    const meta = kernel.meta(), files = kernel.files();
    const bar = srcView.root.querySelector('.bar');
    bar.replaceChildren();
    const sel = el('select');
    sel.id = 'srcfile';
    const ids = meta.files.slice().sort((a, b) => (a === meta.main ? -1 : b === meta.main ? 1 : files[a][0] < files[b][0] ? -1 : 1));
    for (const f of ids) {
      const o = new Option(base(files[f][0]) + (files[f][1] ? '' : ' (not found)'), String(f));
      o.title = files[f][0];
      sel.appendChild(o);
    }
    sel.value = String(S.file);
    sel.addEventListener('change', () => setFile(+sel.value));
    bar.appendChild(sel);
    const modes = el('span', 'modes');
    for (const [m, label, tip] of [
      ['called', 'and what it called', 'IR of this line and of the helpers it called (inlined @triton.jit functions, Triton\'s library)'],
      ['exact', 'this line only', 'IR whose innermost frame is this line'],
    ]) {
      const b = el('button', 'mode' + (S.mode === m ? ' on' : ''), label);
      b.type = 'button';
      b.id = 'mode-' + m;
      b.title = tip;
      b.addEventListener('click', () => {
        S.mode = m;
        renderFileBar();
        refreshSource();
        reapply();
        tell('mode');
      });
      modes.appendChild(b);
    }
    bar.appendChild(modes);
    const f = files[S.file];
    if (f) bar.appendChild(el('span', 'file', f[0]));
  }

  async function setFile(file, line) {
    S.file = file;
    renderFileBar();
    const lines = await kernel.loadSource(file);
    const old = srcView.root.querySelector('.why');
    if (old) old.remove();
    if (!lines) {
      srcView.set(null);
      const p = kernel.files()[file] ? kernel.path(file) : '(none)';
      srcView.root.insertBefore(el('p', 'why', 'Source not found: ' + p + '. Its locations still show as path:line.'), srcView.code);
      return;
    }
    srcView.set(srcDoc(file, lines));
    if (line) srcView.scrollTo(line);
    tell('file');
  }

  /* The source pane's classes and counts again, for the stage or the way
   * of asking now chosen. */
  function refreshSource() {
    const lines = S.file >= 0 && kernel.sourceText(S.file);
    if (lines) srcView.refresh(srcDoc(S.file, lines));
  }

  /* ---- selection ------------------------------------------------------------ */

  function marksOf(lines, cls) {
    const m = new Map();
    for (const l of lines) m.set(l, cls);
    return m;
  }

  function clickSource(file, line) {
    const t0 = performance.now();
    S.sel = { pane: 'src', file, line };
    applySource(file, line, true);
    S.clicks.push(performance.now() - t0);
    tell('select');
  }

  /* The lines of the statement FIRST..LAST, LINE the one clicked. */
  function statementMarks(first, last, line) {
    const m = new Map();
    for (let l = first; l <= last; l++) m.set(l, l === line ? 'sel' : 'sel-stmt');
    return m;
  }

  function applySource(file, line, scroll) {
    const q = kernel.query(S.stage, file, line, S.mode);
    S.stmt = q.first !== q.last ? [q.first, q.last] : null;
    S.hits = codeOnly(S.stage, q.lines);
    S.hitIdx = 0;
    S.shared = S.mode === 'called' ? kernel.shared(S.stage, file, q.first, q.last) : null;
    const two = S.stage2 && kernel.stageReady(S.stage2);
    const h2 = two ? kernel.query(S.stage2, file, line, S.mode).lines : null;
    const c2 = two ? codeOnly(S.stage2, h2) : null;
    /* Both panes scrolled before anything on the page changes, then
     * marked and drawn: a scroll set after a change would lay the page
     * out at once, and the frame again (click to frame, LLVM IR beside
     * SASS: test_report_items). */
    if (scroll && S.hits.length) irView.scrollTo(S.hits[0], true);
    if (scroll && two && c2.length) ir2View.scrollTo(c2[0], true);
    srcView.setMarks(statementMarks(q.first, q.last, line), line);
    irView.setMarks(marksOf(q.lines, 'hl'), S.hits[0] || 0);
    irView.render(false);
    if (two) {
      ir2View.setMarks(marksOf(h2, 'hl'), c2[0] || 0);
      ir2View.render(false);
    }
    info.source(file, line, {
      stage: S.stage, mode: S.mode, hits: S.hits.length, go: gotoHit, passesOf,
      first: q.first, last: q.last, shared: S.shared, showShared,
      measured: cost.measured(file, line, S.mode === 'exact' ? 'exact' : 'called'),
    });
  }

  /* The lines the answer leaves out (shared by call sites): marked in the
   * IR pane and stepped through instead of the answer. */
  function showShared() {
    if (!S.shared) return;
    const m = new Map(irView.marks);
    for (const l of S.shared.lines) m.set(l, 'shared');
    S.hits = S.shared.lines.slice();
    S.hitIdx = 0;
    irView.setMarks(m, S.hits[0] || 0);
    if (S.hits.length) irView.scrollTo(S.hits[0]);
    info.count(S.hits.length ? 1 : 0, S.hits.length, 'shared');
  }

  function clickIR(which, line) {
    const t0 = performance.now();
    S.sel = { pane: which, line };
    applyIR(which, line, true);
    S.clicks.push(performance.now() - t0);
    tell('select');
  }

  function applyIR(which, line, scroll) {
    const stage = which === 'ir' ? S.stage : S.stage2;
    const other = which === 'ir' ? S.stage2 : S.stage;
    const view = which === 'ir' ? irView : ir2View;
    const otherView = which === 'ir' ? ir2View : irView;
    if (which === 'ir') {
      S.hits = [];
      S.hitIdx = 0;
    }
    S.approx = [];
    let otherMarks = null, otherFirst = 0;
    if (other && kernel.stageReady(other)) {
      const ls = kernel.toStage(stage, line, other);
      const approx = kernel.toApprox(stage, line, other);
      otherMarks = new Map();
      for (const l of ls) otherMarks.set(l, approx.has(l) ? 'hl-approx' : 'hl');
      const code = codeOnly(other, ls);
      S.approx = code.filter((l) => approx.has(l));
      otherFirst = code[0] || 0;
      if (which === 'ir2') {
        S.hits = code;
        S.hitIdx = 0;
      }
    }
    /* the source lines of its frames: innermost strongest */
    const ids = kernel.lineStacks(stage, line);
    const m = new Map();
    let inner = 0, outer = 0;
    ids.forEach((id) => {
      kernel.stackFrames(id).forEach((f, k) => {
        if (f.file !== S.file) return;
        if (k === 0) {
          m.set(f.line, 'hl-inner');
          if (!inner) inner = f.line;
        } else {
          if (!m.has(f.line)) m.set(f.line, 'hl');
          if (!outer) outer = f.line;
        }
      });
    });
    const first = inner || outer;
    /* every pane scrolled before any is changed (applySource says why) */
    if (scroll && otherFirst) otherView.scrollTo(otherFirst, true);
    if (scroll && first) srcView.scrollTo(first, true);
    view.setMarks(new Map([[line, 'sel']]), line);
    if (otherMarks) {
      otherView.setMarks(otherMarks, otherFirst);
      otherView.render(false);
    }
    srcView.setMarks(m, 0);
    srcView.render(false);
    const bound = S.sel && S.sel.pane === 'ir2' ? S.stage : null;
    info.ir(stage, line, ids, {
      bound, hits: S.hits.length, go: gotoHit, frame: gotoFrame,
      code: kernel.isCode(stage, line), approx: other ? S.approx.length : 0, other,
    });
  }

  function reapply() {
    const s = S.sel;
    if (!s) {
      info.help();
      return;
    }
    if (s.pane === 'src') applySource(s.file, s.line, true);
    else if (s.pane === 'ir' || (s.pane === 'ir2' && S.stage2)) applyIR(s.pane, s.line, true);
  }

  function gotoHit(d) {
    if (!S.hits.length) return;
    S.hitIdx = (S.hitIdx + d + S.hits.length) % S.hits.length;
    /* the current mark moves even when the hit is already in view, and
     * the hit comes to the middle of the pane */
    const hit = S.hits[S.hitIdx];
    irView.setMarks(irView.marks, hit);
    irView.centre(hit);
    info.count(S.hitIdx + 1, S.hits.length);
  }

  /* A frame of a stack clicked: its line in the source pane. */
  async function gotoFrame(f) {
    if (f.file !== S.file) await setFile(f.file);
    if (!kernel.sourceText(f.file)) return;
    const m = new Map(srcView.marks);
    srcView.setMarks(m, f.line);
    srcView.scrollTo(f.line);
  }

  /* The panes drawn again in place (the heat column after the metric
   * changed): scroll positions and marks stay. */
  function refresh() {
    refreshSource();
    if (kernel.stageReady(S.stage)) irView.refresh(irDoc(S.stage, irView, 'ir'));
    if (S.stage2 && kernel.stageReady(S.stage2)) ir2View.refresh(irDoc(S.stage2, ir2View, 'ir2'));
    irView.setMarks(irView.marks, irView.current);
    ir2View.setMarks(ir2View.marks, ir2View.current);
  }

  /* A source line selected as if clicked, its file shown first. */
  async function showSource(file, line) {
    if (file !== S.file) await setFile(file);
    if (!kernel.sourceText(file)) return;
    clickSource(file, line);
    srcView.scrollTo(line);
  }

  /* An IR line of STAGE selected as if clicked, the stage shown first. */
  async function showIR(stage, line) {
    if (stage !== S.stage) await setStage(stage);
    clickIR('ir', line);
    irView.scrollTo(line);
  }

  /* Makes the panes and shows the first stage (the library's, meta.first)
   * and the kernel's main file.  OPTS.passesOf(file, line): what the info
   * panel's "passes that touched this line" does. */
  async function start(opts) {
    passesOf = opts.passesOf;
    const meta = kernel.meta();
    srcView = new codeview.CodeView(document.getElementById('src-pane'));
    irView = new codeview.CodeView(document.getElementById('ir-pane'));
    ir2View = new codeview.CodeView(document.getElementById('ir2-pane'));
    /* The library's choice (tk_kernel_first_stage(), meta.first): TTGIR
     * where there is one, else the first stage there is */
    const first = meta.first || 'ttgir';
    S.stage = first;
    S.file = meta.main >= 0 ? meta.main : meta.files.length ? meta.files[0] : -1;
    info.help();
    /* the source drawn once the stage is in (its classes and counts are
     * the stage's): drawn once, not again when both are in */
    const about = meta.stages[first];
    const stageIn = about && !about.missing ? kernel.loadStage(first).catch(() => null) : Promise.resolve();
    await Promise.all([setStage(first), S.file >= 0 ? stageIn.then(() => setFile(S.file)) : Promise.resolve()]);
  }

  /* The find bar's hits in the source pane or the IR pane. */
  function found(pane, lines, cur, spans) {
    return (pane === 'src' ? srcView : irView).setFound(lines, cur, spans);
  }

  return {
    start, setStage, gotoHit, setFold, refresh, showSource, showIR, found,
    listen: (fn) => listeners.push(fn),
    shown: () => ({ stage: S.stage, stage2: S.stage2, file: S.file, mode: S.mode, sel: S.sel && { ...S.sel } }),
    inspect: () => S,
  };
});
