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
 *   bind(stage), stageReady(stage), loadStage(stage), loadText(stage)
 *   (the text alone: the find bar counts in every stage), sourceText(file),
 *   loadSource(file), lineStacks(stage, line), toStage(from, line, to),
 *   srcRow(stage, file, line), srcLines(stage, file, line, mode),
 *   inspect() (for the tests, read only).
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
    return b;
  }

  function stageReady(stage) {
    return K.text[stage] && K.bind[stage];
  }

  async function loadStage(stage) {
    if (stageReady(stage)) return;
    const [t, b] = await Promise.all([data.load(K.kid + '/' + stage + '.text'), data.load(K.kid + '/' + stage + '.bind')]);
    K.text[stage] = t;
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

  /* [file, line, exact lines, lines with what it called] of a source line
   * in STAGE, or undefined (the stage not loaded, the line bound to none). */
  function srcRow(stage, file, line) {
    const b = K.bind[stage];
    return b && b.srcMap.get(file + ':' + line);
  }

  function srcLines(stage, file, line, mode) {
    const r = srcRow(stage, file, line);
    if (!r) return [];
    return expand(mode === 'exact' ? r[2] : r[3]);
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
    loadText,
    sourceText: (file) => K.srcText[file],
    loadSource,
    lineStacks,
    toStage,
    srcRow,
    srcLines,
    inspect: () => K,
  };
});
