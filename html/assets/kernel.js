/* kernel.js - what the report knows about the kernel of this page.
 *
 * Job: the kernel's metadata, stack table and files (meta.js, files.js,
 * put as the page loaded), each stage's text and bindings and each source
 * file's text (loaded on demand, kept once loaded), and the lookups the
 * panes make in them: a line's inline stacks, the IR lines of a source
 * line, the lines of another stage bound to a line.  Every answer was
 * computed by libtkdump (tk_bindex_*) when the report was written: this
 * only looks it up.  The state is this module's; the others ask.
 *
 * Depends on: data (load, get, expand), dom (base).
 * Interface: init(kid) -> false when meta.js is missing; id(), meta(),
 *   files(), stages() (in order), label(stage), path(file), stackFrames(id), frameText(frame), text(stage),
 *   bind(stage), stageReady(stage), loadStage(stage), loadBind(stage) (the
 *   bindings alone: the line panel's counts), loadText(stage)
 *   (the text alone: the find bar counts in every stage), sourceText(file),
 *   loadSource(file), lineStacks(stage, line), toStage(from, line, to),
 *   toApprox(from, line, to), srcRow(stage, file, line),
 *   srcLines(stage, file, line, mode), srcCount(stage, file, line, mode),
 *   isCode(stage, line), isLocation(stage, line), firstCode(stage),
 *   statement(file, line), query(stage, file, line, mode),
 *   count(stage, file, line, mode) (query() without the lines),
 *   shared(stage, file, first, last), inspect() (for the tests, read only).
 */
'use strict';
TK.define('kernel', ['data', 'dom'], function (data, dom) {
  const expand = data.expand;
  const K = {
    kid: '',
    meta: null,
    files: [],
    stacks: [],
    text: {},
    bind: {},
    srcText: {},
  };

  function init(kid) {
    K.kid = kid;
    K.meta = data.get(kid + '/meta');
    K.files = data.get('files') || [];
    if (!K.meta) return false;
    K.stacks = K.meta.stacks;
    return true;
  }

  /* The path of file F of files.js, '?' when there is none. */
  function path(f) {
    return K.files[f] ? K.files[f][0] : '?';
  }

  function stackFrames(id) {
    const a = K.stacks[id];
    const out = [];
    for (let i = 0; i + 2 < a.length; i += 3) out.push({ file: a[i], line: a[i + 1], col: a[i + 2] });
    return out;
  }
  function frameText(f) {
    return dom.base(path(f.file)) + ':' + f.line + (f.col ? ':' + f.col : '');
  }

  /* Per-stage lookups built once from the stage's bind data. */
  function prepareBind(stage, b) {
    if (b.srcMap) return b;
    b.srcMap = new Map();
    for (const r of b.src) b.srcMap.set(r[0] + ':' + r[1], r);
    b.inf = new Set(expand(b.inferred));
    b.layByLine = new Map();
    if (b.lay) {
      b.lay.uses.forEach((u, idx) => {
        let a = b.layByLine.get(u[0]);
        if (!a) b.layByLine.set(u[0], (a = []));
        a.push(idx);
      });
    }
    b.toCache = {};
    b.stmtMap = new Map();
    for (const r of b.stmt || []) b.stmtMap.set(r[0] + ':' + r[1] + ':' + r[2], r);
    b.sharedMap = new Map();
    for (const r of b.shared || []) b.sharedMap.set(r[0] + ':' + r[1] + ':' + r[2], r);
    return b;
  }

  function stageReady(stage) {
    return K.text[stage] && K.bind[stage];
  }

  async function loadStage(stage) {
    if (stageReady(stage)) return;
    const [t] = await Promise.all([data.load(K.kid + '/' + stage + '.text'), loadBind(stage)]);
    K.text[stage] = t;
  }

  /* The bindings of STAGE alone, without its text: what the line panel's
   * counts of a stage not shown need (its text, the larger file to load
   * and inflate, only when the stage is shown). */
  async function loadBind(stage) {
    if (K.bind[stage]) return;
    const b = await data.load(K.kid + '/' + stage + '.bind');
    K.bind[stage] = prepareBind(stage, b);
  }

  async function loadText(stage) {
    if (!K.text[stage]) K.text[stage] = await data.load(K.kid + '/' + stage + '.text');
  }

  async function loadSource(file) {
    const f = K.files[file];
    if (!f || !f[1]) return null;
    if (!K.srcText[file]) K.srcText[file] = await data.load('src/' + f[1]);
    return K.srcText[file];
  }

  function lineStacks(stage, line) {
    const b = K.bind[stage];
    if (!b) return [];
    const set = b.line[line - 1];
    return set ? b.sets[set - 1] : [];
  }

  /* Lines of stage TO bound to LINE of stage FROM (tk_bindex_stage_to_stage). */
  function toStage(from, line, to) {
    const b = K.bind[from];
    const t = b && b.to[to];
    if (!t) return [];
    let li;
    if (t.by === 'line') li = t.idx[line - 1];
    else {
      const set = b.line[line - 1];
      if (!set) return [];
      li = t.idx[2 * set + (b.inf.has(line) ? 1 : 0)];
    }
    if (!li) return [];
    const key = to + ':' + li;
    if (!b.toCache[key]) b.toCache[key] = expand(t.lists[li - 1]);
    return b.toCache[key];
  }

  /* Lines of stage TO bound to LINE of FROM that were matched on the
   * innermost frame only (tk_bind_match_approximate()), as a Set. */
  function toApprox(from, line, to) {
    const b = K.bind[from];
    const t = b && b.to[to];
    if (!t || !t.approx) return new Set();
    let li;
    if (t.by === 'line') li = t.idx[line - 1];
    else {
      const set = b.line[line - 1];
      if (!set) return new Set();
      li = t.idx[2 * set + (b.inf.has(line) ? 1 : 0)];
    }
    return new Set(li ? expand(t.approx[li - 1]) : []);
  }

  /* [file, line, exact lines, lines with what it called, instructions
   * among the exact ones, among the called ones] of a source line in
   * STAGE, or undefined (the stage not loaded, the line bound to none). */
  function srcRow(stage, file, line) {
    const b = K.bind[stage];
    return b && b.srcMap.get(file + ':' + line);
  }

  function srcLines(stage, file, line, mode) {
    const r = srcRow(stage, file, line);
    if (!r) return [];
    return expand(mode === 'exact' ? r[2] : r[3]);
  }

  /* How many instructions a source line became (the gutter's number). */
  function srcCount(stage, file, line, mode) {
    const r = srcRow(stage, file, line);
    return r ? (mode === 'exact' ? r[4] : r[5]) : 0;
  }

  /* What the library says line LINE of STAGE is: 'i' an instruction, 'd'
   * directive, 'c' comment, 'l' label, 'm' metadata, 'o' other; upper case
   * for a line that only states a location (.loc, #loc, //##). */
  function kindOf(stage, line) {
    const b = K.bind[stage];
    return b && b.kinds ? b.kinds[line - 1] || 'o' : 'i';
  }
  function isCode(stage, line) {
    return kindOf(stage, line) === 'i';
  }
  function isLocation(stage, line) {
    const c = kindOf(stage, line);
    return c !== c.toLowerCase();
  }
  /* The stage's first instruction line (1 when it has none). */
  function firstCode(stage) {
    const b = K.bind[stage];
    const i = b && b.kinds ? b.kinds.indexOf('i') : -1;
    return i >= 0 ? i + 1 : 1;
  }

  /* [first, last] of the statement of several lines that LINE of FILE is
   * in (meta.js "stmts", from tk_bundle_statement()), or null. */
  function statement(file, line) {
    if (!K.stmtByFile) {
      K.stmtByFile = new Map();
      for (const [f, a, b] of K.meta.stmts || []) {
        if (!K.stmtByFile.has(f)) K.stmtByFile.set(f, []);
        K.stmtByFile.get(f).push([a, b]);
      }
    }
    for (const ab of K.stmtByFile.get(file) || []) if (line >= ab[0] && line <= ab[1]) return ab;
    return null;
  }

  /* What a click on source line LINE asks: its statement's lines of STAGE
   * (a call wrapped over lines 71-73 binds from any of them).
   * {lines, code (instructions among them), first, last}. */
  function query(stage, file, line, mode) {
    const st = statement(file, line);
    if (st) {
      const b = K.bind[stage];
      const r = b && b.stmtMap.get(file + ':' + st[0] + ':' + st[1]);
      const lines = r ? expand(mode === 'exact' ? r[3] : r[4]) : [];
      return { lines, code: r ? (mode === 'exact' ? r[5] : r[6]) : 0, first: st[0], last: st[1] };
    }
    return { lines: srcLines(stage, file, line, mode), code: srcCount(stage, file, line, mode), first: line, last: line };
  }

  /* query() without its lines (the line panel's counts of every stage, on
   * each click: the lists are not expanded): {any (a line at all), code}. */
  function count(stage, file, line, mode) {
    const st = statement(file, line);
    const b = K.bind[stage];
    const r = !b ? null : st ? b.stmtMap.get(file + ':' + st[0] + ':' + st[1]) : b.srcMap.get(file + ':' + line);
    if (!r) return { any: false, code: 0 };
    const k = st ? 3 : 2; /* [.., exact lines, called lines, exact code, called code] */
    const list = mode === 'exact' ? r[k] : r[k + 1];
    /* a compact list (data.expand) with an entry holds a line */
    return { any: !!(list && list.length), code: mode === 'exact' ? r[k + 2] : r[k + 3] };
  }

  /* The lines of STAGE of helper code shared by several call sites that
   * the query FIRST..LAST leaves out (tk_bind_shared_lines()), with the
   * call sites: {lines, sites: [{file, line}]}, or null. */
  function shared(stage, file, first, last) {
    const b = K.bind[stage];
    const r = b && b.sharedMap.get(file + ':' + first + ':' + last);
    if (!r) return null;
    const sites = [];
    for (let i = 0; i + 1 < r[4].length; i += 2) sites.push({ file: r[4][i], line: r[4][i + 1] });
    return { lines: expand(r[3]), sites };
  }

  return {
    init,
    id: () => K.kid,
    meta: () => K.meta,
    files: () => K.files,
    /* meta.js lists the stages in the library's order, each with the
     * label the index page gives it too */
    stages: () => Object.keys(K.meta.stages),
    label: (stage) => K.meta.stages[stage].label,
    path,
    stackFrames,
    frameText,
    text: (stage) => K.text[stage],
    bind: (stage) => K.bind[stage],
    stageReady,
    loadStage,
    loadBind,
    loadText,
    sourceText: (file) => K.srcText[file],
    loadSource,
    lineStacks,
    toStage,
    toApprox,
    srcRow,
    srcLines,
    srcCount,
    isCode,
    isLocation,
    firstCode,
    statement,
    query,
    count,
    shared,
    inspect: () => K,
  };
});
