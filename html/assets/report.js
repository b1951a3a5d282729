/* report.js - the tkview report's script (no library, no network).
 *
 * Data arrive as data/*.js files that call TK.put(key, value): Chromium
 * forbids fetch() of file:// URLs, but loads scripts from the report's own
 * folder, which the page's Content-Security-Policy allows ('self').  Every
 * answer (which IR lines a source line became, a line's inline stacks, the
 * lines of another stage, how a layout covers a tensor) was computed by
 * libtkdump when the report was written; this script only looks them up and
 * draws.  Dump text reaches the page through textContent only.
 */
'use strict';
(function () {
  const TK = (window.TK = window.TK || {});
  const store = Object.create(null);
  const waiting = Object.create(null);

  TK.put = function (key, value) {
    store[key] = value;
    const w = waiting[key];
    if (w) {
      delete waiting[key];
      w.forEach((f) => f[0](value));
    }
  };

  /* Pass data come gzip-compressed in base64 (report.c: tk_report_put_z):
   * inflated with the browser's own DecompressionStream. */
  TK.putz = function (key, b64) {
    const bin = atob(b64);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
    new Response(stream).text().then((t) => TK.put(key, JSON.parse(t)));
  };

  /* Loads data/KEY.js once; resolves with what it put. */
  function load(key) {
    if (key in store) return Promise.resolve(store[key]);
    return new Promise((resolve, reject) => {
      if (waiting[key]) {
        waiting[key].push([resolve, reject]);
        return;
      }
      waiting[key] = [[resolve, reject]];
      const s = document.createElement('script');
      s.src = 'data/' + key + '.js';
      s.addEventListener('error', () => {
        const w = waiting[key] || [];
        delete waiting[key];
        w.forEach((f) => f[1](new Error('cannot load data/' + key + '.js')));
      });
      document.head.appendChild(s);
    });
  }
  TK.load = load;

  /* ---- small helpers ---------------------------------------------------- */

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function svgEl(tag, attrs) {
    const e = document.createElementNS('http://www.w3.org/2000/svg', tag);
    for (const k in attrs) e.setAttribute(k, String(attrs[k]));
    return e;
  }
  /* [29, -34, 40] -> [29, 30, ..., 34, 40] (jsonw.h's line lists). */
  function expand(list) {
    const out = [];
    if (!list) return out;
    for (let i = 0; i < list.length; i++) {
      const v = list[i];
      if (v < 0) {
        for (let x = out[out.length - 1] + 1; x <= -v; x++) out.push(x);
      } else out.push(v);
    }
    return out;
  }
  function base(path) {
    const i = path.lastIndexOf('/');
    return i >= 0 ? path.slice(i + 1) : path;
  }
  function fmtBytes(n) {
    if (n >= 1 << 20) return (n / (1 << 20)).toFixed(1) + ' MiB';
    if (n >= 1 << 10) return (n / (1 << 10)).toFixed(1) + ' KiB';
    return n + ' B';
  }
  const STAGES = ['ttir', 'ttgir', 'llir', 'ptx', 'sass'];
  const STAGE_LABEL = { ttir: 'TTIR', ttgir: 'TTGIR', llir: 'LLVM IR', ptx: 'PTX', sass: 'SASS' };
  const LANG = { ttir: 'mlir', ttgir: 'mlir', llir: 'llvm', ptx: 'ptx', sass: 'sass' };

  /* ---- syntax colouring (lexical only: classes for display) ------------- */

  const RULES = {
    mlir: [
      [/\/\/.*/y, 'c'],
      [/ ?loc\((?:[^()"]|"(?:[^"\\]|\\.)*"|\((?:[^()"]|"(?:[^"\\]|\\.)*"|\([^()]*\))*\))*\)/y, 'loc'],
      [/"(?:[^"\\]|\\.)*"/y, 's'],
      [/[%^][\w$.#-]+(?::\d+)?/y, 'v'],
      [/@[\w$.-]+/y, 'sym'],
      [/#[\w$.-]+/y, 'at'],
      [/![\w.]+/y, 'ty'],
      [/\b(?:tensor|memref|vector|i1|i8|i16|i32|i64|f16|bf16|f32|f64|index|none)\b/y, 'ty'],
      [/\b[a-z_]\w*\.[\w.]+\b/y, 'op'],
      [/\b(?:module|attributes|func|return|to|step|iter_args|dense|true|false)\b/y, 'kw'],
      [/-?\b\d+(?:\.\d+)?(?:e[+-]?\d+)?\b/y, 'n'],
    ],
    llvm: [
      [/;.*/y, 'c'],
      [/, !dbg !\d+/y, 'loc'],
      [/c?"(?:[^"\\]|\\.)*"/y, 's'],
      [/[%@][\w$.-]+|[%@]"(?:[^"\\]|\\.)*"/y, 'v'],
      [/!\w+/y, 'md'],
      [/#\d+/y, 'at'],
      [/\b(?:i\d+|half|bfloat|float|double|ptr|void|label|metadata|x86_fp80)\b/y, 'ty'],
      [/\b(?:define|declare|call|ret|br|phi|load|store|getelementptr|icmp|fcmp|select|add|sub|mul|fadd|fsub|fmul|fdiv|and|or|xor|shl|lshr|ashr|zext|sext|trunc|bitcast|addrspacecast|inttoptr|ptrtoint|extractvalue|insertvalue|extractelement|insertelement|shufflevector|tail|inbounds|nuw|nsw|align|to|addrspace|asm|sideeffect|switch|unreachable|alloca|atomicrmw|cmpxchg|fence|private|internal|external|global|constant|unnamed_addr|local_unnamed_addr|attributes|target|source_filename|datalayout|triple|distinct|nnan|ninf|fast|exact|disjoint|nneg)\b/y, 'kw'],
      [/-?\b\d+(?:\.\d+)?(?:e[+-]?\d+)?\b|\b0x[0-9A-Fa-f]+\b/y, 'n'],
    ],
    ptx: [
      [/^\s*\.loc\b.*/y, 'loc'],
      [/\/\/.*/y, 'c'],
      [/"(?:[^"\\]|\\.)*"/y, 's'],
      [/%[\w$]+/y, 'v'],
      [/\.[a-z_][\w]*/y, 'kw'],
      [/\$[\w$]+/y, 'sym'],
      [/^\s*@?!?%?\w*\s*[a-z][\w]*(?=[.\s;])/y, 'op'],
      [/-?\b\d+(?:\.\d+)?\b|\b0[xXfF][0-9A-Fa-f]+\b/y, 'n'],
    ],
    sass: [
      [/\/\/##.*/y, 'loc'],
      [/\/\*[0-9a-f]{4,}\*\//y, 'addr'],
      [/\/\*.*?\*\/|\/\/.*/y, 'c'],
      [/\b(?:U?R\d+|U?RZ|U?P\d|U?PT|SR_\w+|c\[0x[0-9a-f]+\]|desc\[\w+\])/y, 'v'],
      [/\b[A-Z][A-Z0-9_]*(?:\.[A-Z0-9_]+)*\b/y, 'op'],
      [/-?\b0x[0-9a-f]+\b|-?\b\d+(?:\.\d+)?\b/y, 'n'],
    ],
    py: [
      [/#.*/y, 'c'],
      [/[rbuf]*("""|''')/y, 's'],
      [/[rbuf]*"(?:[^"\\]|\\.)*"|[rbuf]*'(?:[^'\\]|\\.)*'/y, 's'],
      [/@[\w.]+/y, 'at'],
      [/\b(?:def|return|if|elif|else|for|while|in|not|and|or|is|import|from|as|with|class|pass|break|continue|lambda|yield|try|except|finally|raise|assert|global|nonlocal|del|None|True|False)\b/y, 'kw'],
      [/\b(?:tl|triton|torch|gl|ttgl)\b/y, 'ty'],
      [/\b\d+(?:\.\d+)?\b/y, 'n'],
    ],
  };

  /* Tokens of TEXT as [start, end, class]; unclassified text is left out. */
  function tokenize(text, lang) {
    const rules = RULES[lang];
    const out = [];
    if (!rules) return out;
    let i = 0;
    const n = text.length;
    outer: while (i < n) {
      for (const [re, cls] of rules) {
        re.lastIndex = i;
        const m = re.exec(text);
        if (m && m.index === i && m[0].length) {
          out.push([i, i + m[0].length, cls]);
          i += m[0].length;
          continue outer;
        }
      }
      /* skip one word or one other character */
      const c = text.charCodeAt(i);
      if ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95) {
        while (i < n && /\w/.test(text[i])) i++;
      } else i++;
    }
    return out;
  }

  const MAX_SHOWN = 4000; /* characters of one line drawn; the rest on demand */

  /* Fills TX with TEXT coloured as LANG, RANGES ([start, end, node maker])
   * wrapping parts of it (layout references). */
  function paint(tx, text, lang, ranges) {
    let cut = '';
    if (text.length > MAX_SHOWN) {
      cut = text.length - MAX_SHOWN;
      text = text.slice(0, MAX_SHOWN);
    }
    const toks = tokenize(text, lang);
    let r = 0;
    let host = tx;
    let pos = 0;
    const put = (s, e, cls) => {
      if (e <= s) return;
      const t = text.slice(s, e);
      if (!cls) {
        host.appendChild(document.createTextNode(t));
      } else if (cls === 'loc') {
        const sp = el('span', 'loc', t);
        host.appendChild(sp);
        const mk = el('span', 'locmark', '\u2026');
        mk.title = t.trim();
        host.appendChild(mk);
      } else host.appendChild(el('span', 't-' + cls, t));
    };
    /* emit [s, e) with the token class CLS, switching hosts at range edges */
    const emit = (s, e, cls) => {
      while (s < e) {
        if (ranges && r < ranges.length) {
          const [rs, re, make] = ranges[r];
          if (host === tx && s >= rs) {
            host = make();
            tx.appendChild(host);
          }
          if (host === tx && e > rs && s < rs) {
            put(s, rs, cls);
            s = rs;
            continue;
          }
          if (host !== tx) {
            const stop = Math.min(e, re);
            put(s, stop, cls);
            s = stop;
            if (s >= re) {
              host = tx;
              r++;
            }
            continue;
          }
        }
        put(s, e, cls);
        s = e;
      }
    };
    for (const [s, e, cls] of toks) {
      emit(pos, s, null);
      emit(s, e, cls);
      pos = e;
    }
    emit(pos, text.length, null);
    if (cut) tx.appendChild(el('span', 'cut', ' \u2026 ' + cut + ' more characters'));
  }

  /* ---- a virtual code view ---------------------------------------------- */

  /* Draws only the lines in view (and some around them), so a 50 000 line
   * stage opens as fast as a small one. */
  class CodeView {
    constructor(root) {
      this.root = root;
      this.code = root.querySelector('.code');
      this.top = el('div', 'pad');
      this.body = el('div', 'lines');
      this.bottom = el('div', 'pad');
      this.code.append(this.top, this.body, this.bottom);
      this.n = 0;
      this.lh = 18;
      this.marks = new Map(); /* line -> class */
      this.current = 0;
      this.doc = null;
      this.pending = false;
      this.first = 1;
      this.last = 0;
      this.rows = new Map();
      this.code.addEventListener('scroll', () => this.schedule());
      this.code.addEventListener('click', (ev) => {
        const ln = ev.target.closest('.ln');
        if (ln && this.doc && this.doc.onClick && !window.getSelection().toString())
          this.doc.onClick(+ln.dataset.n, ev);
      });
    }
    /* DOC: {n, text(i), lang, cls(i), gutter(i), title(i), ranges(i), onClick} */
    set(doc) {
      this.doc = doc;
      this.n = doc ? doc.n : 0;
      this.marks = new Map();
      this.current = 0;
      this.code.scrollTop = 0;
      this.render(true);
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
    /* the classes a mark or the current line gives a drawn row */
    decorate(row, i) {
      const want = this.marks.get(i) || '';
      if (row.dataset.mark !== want) {
        if (row.dataset.mark) row.classList.remove(row.dataset.mark);
        if (want) row.classList.add(want);
        row.dataset.mark = want;
      }
      row.classList.toggle('cur', i === this.current);
    }
    paintRow(i) {
      const d = this.doc;
      const row = el('div', 'ln ' + (d.cls ? d.cls(i) : ''));
      row.dataset.n = i;
      row.dataset.mark = '';
      const no = el('span', 'no', i);
      const g = el('span', 'gut', d.gutter ? d.gutter(i) : '');
      const tx = el('span', 'tx');
      paint(tx, d.text(i), d.lang, d.ranges ? d.ranges(i) : null);
      if (d.title) {
        const t = d.title(i);
        if (t) no.title = t;
      }
      row.append(no, g, tx);
      return row;
    }
    /* Draws lines first..last, reusing rows already drawn (FORCE: redraw
     * them all, after the document or its classes changed). */
    render(force) {
      const h = this.code.clientHeight || 600;
      const first = Math.max(1, Math.floor(this.code.scrollTop / this.lh) - 10);
      const last = Math.min(this.n, first + Math.ceil(h / this.lh) + 20);
      if (force) this.rows = new Map();
      else if (first === this.first && last === this.last) return;
      this.first = first;
      this.last = last;
      this.top.style.height = (first - 1) * this.lh + 'px';
      this.bottom.style.height = Math.max(0, this.n - last) * this.lh + 'px';
      const rows = new Map();
      const frag = document.createDocumentFragment();
      for (let i = first; i <= last && this.doc; i++) {
        const row = this.rows.get(i) || this.paintRow(i);
        this.decorate(row, i);
        rows.set(i, row);
        frag.appendChild(row);
      }
      this.rows = rows;
      this.body.replaceChildren(frag);
    }
    scrollTo(line) {
      const h = this.code.clientHeight || 600;
      const y = (line - 1) * this.lh;
      if (y < this.code.scrollTop || y > this.code.scrollTop + h - this.lh * 2)
        this.code.scrollTop = Math.max(0, y - h / 3);
      this.render(false);
    }
  }

  /* ---- index page --------------------------------------------------------- */

  function initIndex() {
    /* nothing dynamic: the table is static HTML */
  }

  /* ---- kernel page -------------------------------------------------------- */

  const S = {
    kid: '',
    meta: null,
    files: [],
    stacks: [],
    stage: 'ttgir',
    stage2: '',
    file: -1,
    mode: 'called',
    bind: {},
    text: {},
    srcText: {},
    hits: [],
    hitIdx: 0,
    sel: null, /* {pane: 'src'|'ir'|'ir2', line} */
  };
  let srcView, irView, ir2View;
  const timing = (TK.timing = { interactive: -1, clicks: [] });

  function stackFrames(id) {
    const a = S.stacks[id];
    const out = [];
    for (let i = 0; i + 2 < a.length; i += 3) out.push({ file: a[i], line: a[i + 1], col: a[i + 2] });
    return out;
  }
  function frameText(f) {
    const p = S.files[f.file] ? S.files[f.file][0] : '?';
    return base(p) + ':' + f.line + (f.col ? ':' + f.col : '');
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
    return S.text[stage] && S.bind[stage];
  }

  async function loadStage(stage) {
    if (stageReady(stage)) return;
    const [t, b] = await Promise.all([load(S.kid + '/' + stage + '.text'), load(S.kid + '/' + stage + '.bind')]);
    S.text[stage] = t;
    S.bind[stage] = prepareBind(stage, b);
  }

  async function loadSource(file) {
    const f = S.files[file];
    if (!f || !f[1]) return null;
    if (!S.srcText[file]) S.srcText[file] = await load('src/' + f[1]);
    return S.srcText[file];
  }

  function lineStacks(stage, line) {
    const b = S.bind[stage];
    if (!b) return [];
    const set = b.line[line - 1];
    return set ? b.sets[set - 1] : [];
  }

  /* Lines of stage TO bound to LINE of stage FROM (tk_bindex_stage_to_stage). */
  function toStage(from, line, to) {
    const b = S.bind[from];
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

  function srcLines(stage, file, line, mode) {
    const b = S.bind[stage];
    const r = b && b.srcMap.get(file + ':' + line);
    if (!r) return [];
    return expand(mode === 'exact' ? r[2] : r[3]);
  }

  /* ---- panes -------------------------------------------------------------- */

  function irDoc(stage, view, which) {
    const text = S.text[stage];
    const b = S.bind[stage];
    return {
      n: text.length,
      lang: LANG[stage],
      text: (i) => text[i - 1],
      cls: (i) => (b.line[i - 1] ? 'b' : 'u') + (b.inf.has(i) ? ' inf' : ''),
      gutter: () => '',
      title: (i) => {
        const ids = lineStacks(stage, i);
        if (!ids.length) return 'no location';
        return ids.map((id) => stackFrames(id).map(frameText).join(' \u2190 ')).join('\n');
      },
      ranges: (i) => layoutRanges(stage, i),
      onClick: (line) => clickIR(which, line),
    };
  }

  function layoutRanges(stage, line) {
    const b = S.bind[stage];
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
      n: lines.length,
      lang: 'py',
      text: (i) => lines[i - 1],
      cls: (i) => {
        const b = S.bind[stage];
        const r = b && b.srcMap.get(file + ':' + i);
        return r ? (r[2].length ? 'b' : 'b called') : 'u';
      },
      gutter: (i) => {
        const b = S.bind[stage];
        const r = b && b.srcMap.get(file + ':' + i);
        return r ? String(expand(r[S.mode === 'exact' ? 2 : 3]).length || '') : '';
      },
      title: null,
      onClick: (line) => clickSource(file, line),
    };
  }

  function renderStageTabs() {
    const bar = irView.root.querySelector('.bar');
    bar.replaceChildren();
    const tabs = el('span', 'tabs');
    for (const st of STAGES) {
      const info = S.meta.stages[st];
      const b = el('button', 'tab' + (st === S.stage ? ' on' : '') + (info.missing ? ' missing' : ''), STAGE_LABEL[st]);
      b.type = 'button';
      b.dataset.stage = st;
      b.title = info.missing ? info.missing : info.file + ' \u2014 ' + info.lines + ' lines, ' + info.bound + ' with a location';
      b.addEventListener('click', () => setStage(st));
      tabs.appendChild(b);
    }
    bar.appendChild(tabs);
    const cmp = el('label', 'cmp', 'beside: ');
    const sel = el('select');
    sel.id = 'stage2';
    sel.appendChild(new Option('none', ''));
    for (const st of STAGES) if (!S.meta.stages[st].missing && st !== S.stage) sel.appendChild(new Option(STAGE_LABEL[st], st));
    sel.value = S.stage2 !== S.stage ? S.stage2 : '';
    sel.addEventListener('change', () => setStage2(sel.value));
    cmp.appendChild(sel);
    bar.appendChild(cmp);
    const info = S.meta.stages[S.stage];
    bar.appendChild(el('span', 'file', info.missing ? '' : info.file));
  }

  async function setStage(st) {
    S.stage = st;
    if (S.stage2 === st) S.stage2 = '';
    renderStageTabs();
    const info = S.meta.stages[st];
    const code = irView.code;
    const old = irView.root.querySelector('.why');
    if (old) old.remove();
    if (info.missing) {
      irView.set(null);
      const w = el('p', 'why', 'No ' + STAGE_LABEL[st] + ': ' + info.missing + '.');
      irView.root.insertBefore(w, code);
      document.body.dataset.stage = st;
      return;
    }
    await loadStage(st);
    irView.set(irDoc(st, irView, 'ir'));
    await setStage2(S.stage2);
    refreshSource();
    reapply();
    document.body.dataset.stage = st;
  }

  async function setStage2(st) {
    S.stage2 = st || '';
    const pane = document.getElementById('ir2-pane');
    if (!S.stage2) {
      pane.hidden = true;
      document.body.classList.remove('two');
      return;
    }
    await loadStage(S.stage2);
    pane.hidden = false;
    document.body.classList.add('two');
    const bar = pane.querySelector('.bar');
    bar.replaceChildren(el('span', 'title', STAGE_LABEL[S.stage2] + ' \u2014 bound to the selected ' + STAGE_LABEL[S.stage] + ' line'));
    ir2View.set(irDoc(S.stage2, ir2View, 'ir2'));
    reapply();
  }

  function renderFileBar() {
    const bar = srcView.root.querySelector('.bar');
    bar.replaceChildren();
    const sel = el('select');
    sel.id = 'srcfile';
    const ids = S.meta.files.slice().sort((a, b) => (a === S.meta.main ? -1 : b === S.meta.main ? 1 : S.files[a][0] < S.files[b][0] ? -1 : 1));
    for (const f of ids) {
      const o = new Option(base(S.files[f][0]) + (S.files[f][1] ? '' : ' (not found)'), String(f));
      o.title = S.files[f][0];
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
      });
      modes.appendChild(b);
    }
    bar.appendChild(modes);
    const f = S.files[S.file];
    if (f) bar.appendChild(el('span', 'file', f[0]));
  }

  async function setFile(file, line) {
    S.file = file;
    renderFileBar();
    const lines = await loadSource(file);
    const old = srcView.root.querySelector('.why');
    if (old) old.remove();
    if (!lines) {
      srcView.set(null);
      const p = S.files[file] ? S.files[file][0] : '(none)';
      srcView.root.insertBefore(el('p', 'why', 'Source not found: ' + p + '. Its locations still show as path:line.'), srcView.code);
      return;
    }
    srcView.set(srcDoc(file, lines));
    if (line) srcView.scrollTo(line);
  }

  function refreshSource() {
    if (S.file >= 0 && S.srcText[S.file]) {
      const keepMarks = srcView.marks, keepCur = srcView.current, top = srcView.code.scrollTop;
      srcView.doc = srcDoc(S.file, S.srcText[S.file]);
      srcView.n = srcView.doc.n;
      srcView.code.scrollTop = top;
      srcView.marks = keepMarks;
      srcView.current = keepCur;
      srcView.render(true);
    }
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
    timing.clicks.push(performance.now() - t0);
  }

  function applySource(file, line, scroll) {
    srcView.setMarks(new Map([[line, 'sel']]), line);
    S.hits = srcLines(S.stage, file, line, S.mode);
    S.hitIdx = 0;
    irView.setMarks(marksOf(S.hits, 'hl'), S.hits[0] || 0);
    if (scroll && S.hits.length) irView.scrollTo(S.hits[0]);
    if (S.stage2 && stageReady(S.stage2)) {
      const h2 = srcLines(S.stage2, file, line, S.mode);
      ir2View.setMarks(marksOf(h2, 'hl'), h2[0] || 0);
      if (scroll && h2.length) ir2View.scrollTo(h2[0]);
    }
    showSourceInfo(file, line);
  }

  function clickIR(which, line) {
    const t0 = performance.now();
    S.sel = { pane: which, line };
    applyIR(which, line, true);
    timing.clicks.push(performance.now() - t0);
  }

  function applyIR(which, line, scroll) {
    const stage = which === 'ir' ? S.stage : S.stage2;
    const other = which === 'ir' ? S.stage2 : S.stage;
    const view = which === 'ir' ? irView : ir2View;
    const otherView = which === 'ir' ? ir2View : irView;
    view.setMarks(new Map([[line, 'sel']]), line);
    if (which === 'ir') {
      S.hits = [];
      S.hitIdx = 0;
    }
    if (other && stageReady(other)) {
      const ls = toStage(stage, line, other);
      otherView.setMarks(marksOf(ls, 'hl'), ls[0] || 0);
      if (scroll && ls.length) otherView.scrollTo(ls[0]);
      if (which === 'ir2') {
        S.hits = ls;
        S.hitIdx = 0;
      }
    }
    /* the source lines of its frames: innermost strongest */
    const ids = lineStacks(stage, line);
    const m = new Map();
    let inner = 0, outer = 0;
    ids.forEach((id) => {
      stackFrames(id).forEach((f, k) => {
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
    srcView.setMarks(m, 0);
    if (scroll && first) srcView.scrollTo(first);
    showIRInfo(stage, line, ids);
  }

  function reapply() {
    const s = S.sel;
    if (!s) {
      showHelp();
      return;
    }
    if (s.pane === 'src') applySource(s.file, s.line, true);
    else if (s.pane === 'ir' || (s.pane === 'ir2' && S.stage2)) applyIR(s.pane, s.line, true);
  }

  function gotoHit(d) {
    if (!S.hits.length) return;
    S.hitIdx = (S.hitIdx + d + S.hits.length) % S.hits.length;
    const view = S.sel && S.sel.pane === 'ir2' ? irView : irView;
    view.current = S.hits[S.hitIdx];
    view.scrollTo(S.hits[S.hitIdx]);
    const c = document.getElementById('hit-count');
    if (c) c.textContent = S.hitIdx + 1 + ' of ' + S.hits.length;
  }

  /* ---- the info panel --------------------------------------------------------- */

  function info() {
    return document.getElementById('info');
  }

  function showHelp() {
    const box = info();
    box.replaceChildren(
      el('h2', null, 'How to read this'),
      el('p', null, 'Click a source line: the IR it became is highlighted (\u201cand what it called\u201d includes inlined helpers). Click an IR line: its inline stack is shown and its source lines are marked.'),
      el('p', null, 'Lines with a coloured mark carry a location; grey lines carry none. Hover a layout such as #blocked in TTGIR for what it means.'),
      el('p', 'keys', 'Keys: n / p next and previous highlighted line; 1-5 stage; l show locations.'),
    );
  }

  function hitNav(box, what) {
    const nav = el('div', 'hitnav');
    const prev = el('button', null, '\u2191 previous');
    prev.type = 'button';
    prev.id = 'hit-prev';
    prev.addEventListener('click', () => gotoHit(-1));
    const next = el('button', null, 'next \u2193');
    next.type = 'button';
    next.id = 'hit-next';
    next.addEventListener('click', () => gotoHit(1));
    const count = el('span', 'count', S.hits.length ? '1 of ' + S.hits.length : 'none');
    count.id = 'hit-count';
    nav.append(prev, count, next, el('span', 'what', what));
    box.appendChild(nav);
  }

  function showSourceInfo(file, line) {
    const box = info();
    box.replaceChildren();
    const p = S.files[file] ? S.files[file][0] : '?';
    const h = el('h2', null, base(p) + ':' + line);
    h.title = p;
    box.appendChild(h);
    hitNav(box, STAGE_LABEL[S.stage] + (S.mode === 'exact' ? ', this line only' : ', with what it called'));
    const t = el('table', 'counts');
    for (const st of STAGES) {
      if (S.meta.stages[st].missing) continue;
      const tr = el('tr');
      tr.appendChild(el('th', null, STAGE_LABEL[st]));
      const b = S.bind[st];
      const r = b && b.srcMap.get(file + ':' + line);
      tr.appendChild(el('td', null, b ? (r ? expand(r[2]).length + ' exact, ' + expand(r[3]).length + ' with callees' : '0') : '(not loaded)'));
      t.appendChild(tr);
    }
    box.appendChild(t);
    if (S.meta.passes) {
      const b = el('button', 'passes-of', 'passes that touched this line');
      b.type = 'button';
      b.addEventListener('click', () => TK.passes && TK.passes.forSource(file, line));
      box.appendChild(b);
    }
  }

  function showIRInfo(stage, line, ids) {
    const box = info();
    box.replaceChildren();
    box.appendChild(el('h2', null, STAGE_LABEL[stage] + ' line ' + line));
    if (S.sel && S.sel.pane === 'ir2') hitNav(box, 'bound ' + STAGE_LABEL[S.stage] + ' lines');
    if (!ids.length) {
      box.appendChild(el('p', 'none', 'This line carries no location.'));
      return;
    }
    const inferred = S.bind[stage].inf.has(line);
    ids.forEach((id, k) => {
      const h = el('h3', null, ids.length > 1 ? 'inline stack ' + (k + 1) + ' of ' + ids.length : 'inline stack');
      box.appendChild(h);
      const ol = el('ol', 'stack');
      ol.id = k === 0 ? 'stack' : 'stack' + k;
      stackFrames(id).forEach((f, j) => {
        const li = el('li', j === 0 ? 'inner' : '');
        const b = el('button', 'frame', frameText(f));
        b.type = 'button';
        b.title = (S.files[f.file] ? S.files[f.file][0] : '?') + (S.files[f.file] && !S.files[f.file][1] ? ' (source not found)' : '');
        b.addEventListener('click', () => gotoFrame(f));
        li.appendChild(b);
        ol.appendChild(li);
      });
      box.appendChild(ol);
    });
    if (inferred) box.appendChild(el('p', 'note', 'Callers from PTX: the SASS line carries only its innermost frame; the PTX shows one stack for it.'));
    const b = S.bind[stage];
    const us = b.layByLine.get(line);
    if (us) {
      box.appendChild(el('h3', null, 'layouts on this line'));
      for (const k of us) box.appendChild(layoutBox(stage, k));
    }
  }

  async function gotoFrame(f) {
    if (f.file !== S.file) await setFile(f.file);
    if (!S.srcText[f.file]) return;
    const m = new Map(srcView.marks);
    srcView.setMarks(m, f.line);
    srcView.scrollTo(f.line);
  }

  /* ---- layouts ------------------------------------------------------------------ */

  function layoutName(lay, i) {
    const d = lay.defs[i];
    return d ? (d.alias ? '#' + d.alias : d.text) : '?';
  }

  /* What a layout means, as sentences and a small picture. */
  function layoutBox(stage, useIdx) {
    const lay = S.bind[stage].lay;
    const u = lay.uses[useIdx];
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
      if (d.order) parts.push('order [' + d.order.join(', ') + ']');
      out.push('Shared memory layout (' + d.name + '): ' + parts.join(', ') + '.');
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
   * tile's warps shaded, thread 0's elements dark. */
  function picture(d, c, lay) {
    const W = 240, H = c.shape.length > 1 ? 120 : 28;
    const rows = c.shape.length > 1 ? c.shape[c.shape.length - 2] : 1;
    const cols = c.shape[c.shape.length - 1];
    const trow = c.tile.length > 1 ? c.tile[c.tile.length - 2] : 1;
    const tcol = c.tile[c.tile.length - 1];
    const sx = W / Math.max(cols, tcol), sy = H / Math.max(rows, trow);
    const svg = svgEl('svg', { width: W + 2, height: H + 2, viewBox: '-1 -1 ' + (W + 2) + ' ' + (H + 2), class: 'laypic' });
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
    const t = svgEl('title', {});
    t.textContent = 'tensor ' + dims(c.shape) + ', tile ' + dims(c.tile) + ', shaded: warps of the first tile, dark: thread 0';
    svg.appendChild(t);
    return svg;
  }

  function showTip(span, x, y) {
    const tip = document.getElementById('tip');
    const stage = span.dataset.stage;
    if (!S.bind[stage] || !S.bind[stage].lay) return;
    tip.replaceChildren(layoutBox(stage, +span.dataset.u));
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

  /* ---- modes, keys ------------------------------------------------------------- */

  function setMode(m) {
    document.getElementById('kernel-view').hidden = m !== 'kernel';
    document.getElementById('pass-view').hidden = m !== 'passes';
    document.getElementById('mode-kernel').classList.toggle('on', m === 'kernel');
    document.getElementById('mode-passes').classList.toggle('on', m === 'passes');
    if (m === 'passes' && TK.passes) TK.passes.open();
  }

  function onKey(ev) {
    if (ev.target.closest && ev.target.closest('input, select, textarea')) return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (!document.getElementById('pass-view').hidden) {
      if (TK.passes) TK.passes.key(ev);
      return;
    }
    const k = ev.key;
    if (k === 'n') gotoHit(1);
    else if (k === 'p' || k === 'N') gotoHit(-1);
    else if (k >= '1' && k <= '5') setStage(STAGES[+k - 1]);
    else if (k === 'l') document.getElementById('toggle-loc').click();
    else return;
    ev.preventDefault();
  }

  function metaLine() {
    const m = S.meta.meta;
    const parts = [];
    if (m.num_warps !== undefined) parts.push(m.num_warps + ' warps');
    if (m.num_stages !== undefined) parts.push(m.num_stages + ' pipeline stages');
    if (m.shared_bytes !== undefined) parts.push(fmtBytes(m.shared_bytes) + ' shared');
    if (m.registers !== undefined) parts.push(m.registers + ' registers');
    if (m.spill_bytes !== undefined) parts.push(m.spill_bytes + ' B spilled');
    if (m.target) parts.push(m.target);
    if (m.triton) parts.push('Triton ' + m.triton);
    if (S.meta.irloc) parts.push('USE_IR_LOC=' + S.meta.irloc);
    const box = document.getElementById('meta');
    box.replaceChildren(el('span', null, parts.join(' \u00b7 ')));
    const lb = el('button', 'toggle', 'locations');
    lb.type = 'button';
    lb.id = 'toggle-loc';
    lb.title = 'Show the location suffixes (loc(...), !dbg, .loc) in the IR text';
    lb.addEventListener('click', () => {
      document.body.classList.toggle('hideloc');
      lb.classList.toggle('on', !document.body.classList.contains('hideloc'));
    });
    box.appendChild(lb);
  }

  async function initKernel() {
    const t0 = performance.now();
    S.kid = document.body.dataset.kernel;
    S.meta = store[S.kid + '/meta'];
    S.files = store.files || [];
    if (!S.meta) {
      document.body.appendChild(el('p', 'why', 'The data of this kernel could not be loaded (data/' + S.kid + '/meta.js).'));
      return;
    }
    S.stacks = S.meta.stacks;
    document.body.classList.add('hideloc');
    srcView = new CodeView(document.getElementById('src-pane'));
    irView = new CodeView(document.getElementById('ir-pane'));
    ir2View = new CodeView(document.getElementById('ir2-pane'));
    metaLine();
    document.getElementById('mode-kernel').addEventListener('click', () => setMode('kernel'));
    document.getElementById('mode-passes').addEventListener('click', () => setMode('passes'));
    document.addEventListener('keydown', onKey);
    const kv = document.getElementById('kernel-view');
    kv.addEventListener('mouseover', (ev) => {
      const sp = ev.target.closest && ev.target.closest('.lay');
      if (sp) showTip(sp, ev.clientX, ev.clientY);
    });
    kv.addEventListener('mouseout', (ev) => {
      const sp = ev.target.closest && ev.target.closest('.lay');
      if (sp && !(ev.relatedTarget && sp.contains(ev.relatedTarget))) hideTip();
    });
    /* the first stage: TTGIR where there is one */
    const first = ['ttgir', 'ttir', 'llir', 'ptx', 'sass'].find((s) => !S.meta.stages[s].missing) || 'ttgir';
    S.stage = first;
    S.file = S.meta.main >= 0 ? S.meta.main : S.meta.files.length ? S.meta.files[0] : -1;
    showHelp();
    await Promise.all([setStage(first), S.file >= 0 ? setFile(S.file) : Promise.resolve()]);
    refreshSource();
    /* a kernel known from its pass dumps only opens on its passes */
    const none = STAGES.every((st) => S.meta.stages[st].missing);
    setMode(none && S.meta.passes ? 'passes' : 'kernel');
    timing.interactive = performance.now();
    timing.setup = performance.now() - t0;
    document.body.dataset.ready = '1';
  }


  /* ---- pass mode ---------------------------------------------------------- */

  const P = { data: null, sel: -1, level: -1, diff: null, group: 0, touched: null, shown: new Set(), anchor: -1, range: null, chains: new Map(), groups: new Map() };
  const CONTEXT = 3;
  const MAX_ROWS = 6000;

  function passLabel(p) {
    return p.pass + (p.arg && p.arg !== p.pass ? ' (' + p.arg + ')' : '');
  }

  /* ---- chains: diffs of any two passes, composed from the stored steps ----
   * data_chain.c stores a chain of MLIR passes as its first text (kept
   * lines) and, per pass, its equal runs, the text of the lines it added
   * and of the equal lines whose text changed, and the line numbers after
   * it.  A text is {t: [line text], ln: Int32Array of line numbers}. */

  function runsToLines(runs, n) {
    const ln = new Int32Array(n);
    for (let r = 0; r < runs.length; r += 2) {
      const k0 = runs[r], l0 = runs[r + 1], k1 = r + 2 < runs.length ? runs[r + 2] : n;
      for (let k = k0; k < k1; k++) ln[k] = l0 + (k - k0);
    }
    return ln;
  }

  /* The text after step S from the text A before it. */
  function applyStep(A, s) {
    if (!s) return A;
    const h = s.h, add = s.t;
    let nb = add.length;
    for (let i = 2; i < h.length; i += 3) nb += h[i];
    const t = new Array(nb);
    let b = 0, ti = 0;
    for (let i = 0; i < h.length; i += 3) {
      const a0 = h[i], b0 = h[i + 1], n = h[i + 2];
      while (b < b0) t[b++] = add[ti++];
      for (let j = 0; j < n; j++) t[b++] = A.t[a0 + j];
    }
    while (b < nb) t[b++] = add[ti++];
    for (let i = 0; i < s.u.length; i += 2) t[s.u[i]] = s.u[i + 1];
    return { t, ln: runsToLines(s.n, nb) };
  }

  async function loadChain(ci) {
    let ch = P.chains.get(ci);
    if (!ch) {
      const d = await load(S.kid + '/pc-' + ci);
      ch = { from: d.from, to: d.to, steps: d.steps, texts: [{ t: d.base.t, ln: runsToLines(d.base.n, d.base.t.length) }] };
      P.chains.set(ci, ch);
    }
    return ch;
  }

  /* The text before pass FROM + K of chain CH (K = steps.length: after the
   * last pass), made from the nearest text already made. */
  function chainText(ch, k) {
    let j = k;
    while (!ch.texts[j]) j--;
    for (; j < k; j++) ch.texts[j + 1] = applyStep(ch.texts[j], ch.steps[j]);
    return ch.texts[k];
  }

  /* Which kept line of the text before pass N each line of it is after
   * pass M (-1: removed on the way), composing the equal runs of the steps
   * N..M. */
  function composeMap(ch, n, m) {
    let len = chainText(ch, n - ch.from).t.length;
    const pos = new Int32Array(len);
    for (let i = 0; i < len; i++) pos[i] = i;
    for (let p = n; p <= m; p++) {
      const s = ch.steps[p - ch.from];
      if (!s) continue;
      const map = new Int32Array(len).fill(-1);
      const h = s.h;
      for (let i = 0; i < h.length; i += 3)
        for (let j = 0; j < h[i + 2]; j++) map[h[i] + j] = h[i + 1] + j;
      for (let i = 0; i < pos.length; i++) if (pos[i] >= 0) pos[i] = map[pos[i]];
      len = s.t.length;
      for (let i = 2; i < h.length; i += 3) len += h[i];
    }
    return pos;
  }

  /* Hunks [tag, a0, a1, b0, b1] over NA and NB lines from a monotonic map
   * POS (A line -> B line or -1), as tk_diff reports them: equal hunks
   * alternate with one delete, insert or replace. */
  function mapHunks(pos, nb) {
    const hs = [];
    let a = 0, b = 0;
    const change = (a1, b1) => {
      if (a1 > a || b1 > b) hs.push([a1 > a && b1 > b ? 'r' : a1 > a ? 'd' : 'i', a, a1, b, b1]);
    };
    for (let i = 0; i < pos.length; i++) {
      const j = pos[i];
      if (j < 0) continue;
      change(i, j);
      const last = hs[hs.length - 1];
      if (last && last[0] === 'e' && last[2] === i && last[4] === j) {
        last[2]++;
        last[4]++;
      } else hs.push(['e', i, i + 1, j, j + 1]);
      a = i + 1;
      b = j + 1;
    }
    change(pos.length, nb);
    return hs;
  }

  /* The rows of a diff of texts A and B with hunks HS, grouped as
   * tk_diff_group() does (CONTEXT equal lines around each change, changes
   * closer than 2 CONTEXT + 1 lines in one group), in the format of the
   * stored diffs: [kind, aLine, aText, bLine, bText]. */
  function groupRows(A, B, hs) {
    const groups = [];
    let cur = null, rows = 0, cut = 0;
    const push = (kind, i, j) => {
      if (rows >= MAX_ROWS) {
        cut++;
        return;
      }
      rows++;
      cur.push([kind, i >= 0 ? A.ln[i] : 0, i >= 0 ? A.t[i] : null, j >= 0 ? B.ln[j] : 0, j >= 0 ? B.t[j] : null]);
    };
    const eq = (h, from, to) => {
      for (let k = from; k < to; k++) push('e', h[1] + k, h[3] + k);
    };
    for (let x = 0; x < hs.length; x++) {
      const h = hs[x];
      if (h[0] === 'e') continue;
      const prev = x > 0 ? hs[x - 1] : null;
      if (!cur) {
        cur = [];
        groups.push(cur);
        if (prev) eq(prev, Math.max(0, prev[2] - prev[1] - CONTEXT), prev[2] - prev[1]);
      }
      const na = h[2] - h[1], nb = h[4] - h[3];
      for (let k = 0; k < Math.max(na, nb); k++)
        push(k < na && k < nb ? 'r' : k < na ? 'd' : 'i', k < na ? h[1] + k : -1, k < nb ? h[3] + k : -1);
      const next = x + 1 < hs.length ? hs[x + 1] : null;
      if (!next) break;
      const len = next[2] - next[1];
      if (len <= 2 * CONTEXT && x + 2 < hs.length) eq(next, 0, len);
      else {
        eq(next, 0, Math.min(CONTEXT, len));
        cur = null;
      }
    }
    return { groups, cut };
  }

  /* The diff from the text before pass N to the text after pass M of chain
   * CI (N <= M), in the format of the stored diffs. */
  async function composeDiff(ci, n, m) {
    const ch = await loadChain(ci);
    const A = chainText(ch, n - ch.from), B = chainText(ch, m - ch.from + 1);
    const pos = composeMap(ch, n, m);
    let kept = 0;
    for (let i = 0; i < pos.length; i++) if (pos[i] >= 0) kept++;
    const { groups, cut } = groupRows(A, B, mapHunks(pos, B.t.length));
    const ps = P.data.passes;
    return { a: ps[n].before, b: ps[m].after, added: B.t.length - kept, removed: A.t.length - kept, groups, cut, composed: n !== m };
  }

  /* The stored diff of a changed pass outside a chain: in its level's file. */
  async function storedDiff(i) {
    const lv = P.data.levels.find((l) => l.from <= i && i <= l.to);
    if (!lv || !lv.pd) return null;
    let g = P.groups.get(lv.pd);
    if (!g) {
      g = await load(S.kid + '/' + lv.pd);
      P.groups.set(lv.pd, g);
    }
    return g.p[i] || null;
  }

  async function passesOpen() {
    const view = document.getElementById('pass-view');
    if (!P.data) {
      view.replaceChildren(el('p', 'why', 'Loading the pass timeline\u2026'));
      P.data = await load(S.kid + '/passes');
      buildPassView(view);
      const first = P.data.passes.findIndex((p) => p.effect === 'changed');
      if (first >= 0) await selectPass(first);
    }
    document.body.dataset.passes = '1';
  }

  function buildPassView(view) {
    view.replaceChildren();
    const chart = el('div', 'pv-chart');
    chart.appendChild(passChart());
    const list = el('div', 'pv-list');
    list.id = 'pass-list';
    const diff = el('div', 'pv-diff');
    const bar = el('div', 'bar');
    bar.id = 'pass-bar';
    const cmp = el('div', 'bar cmp');
    cmp.id = 'pass-compare';
    const body = el('div', 'code pv-rows');
    body.id = 'pass-rows';
    diff.append(bar, cmp, body);
    view.append(chart, list, diff);
    renderPassList();
    renderCompare();
  }

  /* Two passes of one chain to compare: the text before the first against
   * the text after the second (shift-click in the list does the same). */
  function renderCompare() {
    const cmp = document.getElementById('pass-compare');
    cmp.replaceChildren();
    const ps = P.data.passes;
    if (!P.data.chains || !P.data.chains.length) {
      cmp.appendChild(el('span', 'file', 'No passes to compose: no two consecutive pass dumps of the same IR could be compared (one pass at a time only).'));
      return;
    }
    const mk = (id) => {
      const s = document.createElement('select');
      s.id = id;
      P.data.chains.forEach(([f, t], ci) => {
        const g = document.createElement('optgroup');
        g.label = ps[f].level + (ps[t].level !== ps[f].level ? '\u2013' + ps[t].level : '') + ': passes ' + f + '\u2013' + t;
        for (let i = f; i <= t; i++) {
          if (ps[i].ch !== ci) continue; /* a loop pass the chain steps over */
          const o = document.createElement('option');
          o.value = String(i);
          o.dataset.ch = String(ci);
          o.textContent = i + ': ' + passLabel(ps[i]) + (ps[i].effect === 'changed' ? ' +' + ps[i].added + ' \u2212' + ps[i].removed : '');
          g.appendChild(o);
        }
        s.appendChild(g);
      });
      return s;
    };
    const a = mk('cmp-from'), b = mk('cmp-to');
    const go = el('button', null, 'compare');
    go.type = 'button';
    go.id = 'cmp-go';
    go.title = 'The IR before the first pass against the IR after the second; shift-click a pass in the list to do the same';
    go.addEventListener('click', () => comparePasses(+a.value, +b.value));
    cmp.append(el('span', null, 'before'), a, el('span', null, 'to after'), b, go);
    syncCompare();
  }

  function syncCompare() {
    const r = P.range || (P.sel >= 0 ? [P.sel, P.sel] : null);
    if (!r) return;
    for (const [id, v] of [['cmp-from', r[0]], ['cmp-to', r[1]]]) {
      const s = document.getElementById(id);
      if (s && s.querySelector('option[value="' + v + '"]')) s.value = String(v);
    }
  }

  /* Lines changed per pass: green up (added), red down (removed); click a
   * bar to open that pass. */
  function passChart() {
    const ps = P.data.passes;
    const n = ps.length;
    const W = Math.max(300, n * 4), H = 70, mid = 40;
    const svg = svgEl('svg', { viewBox: '0 0 ' + W + ' ' + H, preserveAspectRatio: 'none', id: 'pass-chart' });
    const max = Math.max(1, ...ps.map((p) => Math.max(p.added, p.removed)));
    const sc = (v) => (v ? Math.max(1.5, (Math.log(1 + v) / Math.log(1 + max)) * (mid - 4)) : 0);
    const bw = W / n;
    P.data.levels.forEach((lv, k) => {
      if (k % 2) svg.appendChild(svgEl('rect', { x: lv.from * bw, y: 0, width: (lv.to - lv.from + 1) * bw, height: H, class: 'lvlband', fill: 'rgba(128,128,128,0.08)' }));
    });
    ps.forEach((p, i) => {
      if (p.added) svg.appendChild(svgEl('rect', { x: i * bw, y: mid - sc(p.added), width: Math.max(1, bw - 0.5), height: sc(p.added), class: 'bar-add' }));
      if (p.removed) svg.appendChild(svgEl('rect', { x: i * bw, y: mid, width: Math.max(1, bw - 0.5), height: sc(p.removed) * 0.7, class: 'bar-del' }));
      const hit = svgEl('rect', { x: i * bw, y: 0, width: bw, height: H, class: 'bar-hit' });
      hit.dataset.i = i;
      const t = svgEl('title', {});
      t.textContent = i + ': ' + passLabel(p) + ' +' + p.added + ' \u2212' + p.removed;
      hit.appendChild(t);
      hit.addEventListener('click', (ev) => (ev.shiftKey ? shiftPick(i) : selectPass(i)));
      svg.appendChild(hit);
    });
    const selm = svgEl('rect', { x: 0, y: 0, width: Math.max(1, bw), height: H, class: 'bar-sel', opacity: 0.35, id: 'pass-chart-sel' });
    svg.appendChild(selm);
    return svg;
  }

  function renderPassList() {
    const list = document.getElementById('pass-list');
    list.replaceChildren();
    const ps = P.data.passes;
    for (const lv of P.data.levels) {
      const h = el('div', 'lvl', lv.level + ' \u2014 passes ' + lv.from + '\u2013' + lv.to);
      if (lv.diff || lv.chain !== undefined) {
        const b = el('button', null, 'whole level');
        b.type = 'button';
        b.title = lv.chain !== undefined
          ? 'The IR before pass ' + lv.cfrom + ' against the IR after pass ' + lv.cto + ', composed from the passes\u2019 diffs'
          : 'The diff from the first pass\u2019s input to the last pass\u2019s output of this level';
        b.addEventListener('click', (ev) => {
          ev.stopPropagation();
          selectLevel(lv);
        });
        h.appendChild(document.createTextNode(' '));
        h.appendChild(b);
      }
      list.appendChild(h);
      let i = lv.from;
      while (i <= lv.to) {
        const p = ps[i];
        const quiet = p.effect === 'unchanged' && !(P.touched && P.touched.has(i));
        const inRange = P.range && i >= P.range[0] && i <= P.range[1];
        if (quiet && !inRange && !P.shown.has(lv.from + ':' + i)) {
          let j = i;
          while (j + 1 <= lv.to && ps[j + 1].effect === 'unchanged' && !(P.touched && P.touched.has(j + 1)) && !(P.range && j + 1 >= P.range[0] && j + 1 <= P.range[1])) j++;
          const f = el('div', 'fold', j - i + 1 + ' unchanged pass' + (j > i ? 'es' : '') + ' \u2026');
          f.title = ps.slice(i, j + 1).map((x) => x.pass).join(', ');
          const a = i, b = j;
          f.addEventListener('click', () => {
            for (let k = a; k <= b; k++) P.shown.add(lv.from + ':' + k);
            renderPassList();
          });
          list.appendChild(f);
          i = j + 1;
          continue;
        }
        const row = el('div', 'ps ' + p.effect + (i === P.sel || inRange ? ' on' : '') + (P.touched && P.touched.has(i) ? ' touch' : ''));
        row.dataset.i = i;
        row.appendChild(el('span', 'ix', i));
        row.appendChild(el('span', 'nm', passLabel(p)));
        if (p.effect === 'changed') {
          row.appendChild(el('span', 'cnt plus', '+' + p.added));
          row.appendChild(el('span', 'cnt minus', '\u2212' + p.removed));
        } else if (p.effect === 'unknown') row.appendChild(el('span', 'cnt', '?'));
        row.title = passLabel(p) + (p.scope ? ' on ' + p.scope : '') + '\n' + p.before + ' \u2192 ' + p.after + (p.why ? '\n' + p.why : '') + (p.sub ? '\n' + p.sub + ' sub-steps' : '') +
          (p.ch !== undefined ? '\nshift-click another pass of this chain: the diff across both' : '');
        const idx = i;
        row.addEventListener('click', (ev) => (ev.shiftKey ? shiftPick(idx) : selectPass(idx)));
        list.appendChild(row);
        i++;
      }
    }
  }

  function markSelection() {
    for (const r of document.querySelectorAll('#pass-list .ps')) {
      const i = +r.dataset.i;
      r.classList.toggle('on', P.range ? i >= P.range[0] && i <= P.range[1] : i === P.sel);
    }
    const on = document.querySelector('#pass-list .ps.on');
    if (on) on.scrollIntoView({ block: 'nearest' });
    const m = document.getElementById('pass-chart-sel');
    if (m && P.sel >= 0) m.setAttribute('x', String((P.sel * +document.getElementById('pass-chart').viewBox.baseVal.width) / P.data.passes.length));
    syncCompare();
  }

  async function selectPass(i) {
    const p = P.data.passes[i];
    P.sel = i;
    P.anchor = i;
    P.level = -1;
    const hadRange = !!P.range;
    P.range = null;
    if (hadRange) renderPassList();
    markSelection();
    const title = i + ': ' + passLabel(p) + (p.scope ? ' on ' + p.scope : '');
    if (p.effect !== 'changed') {
      showDiff(title, p, null, p.effect === 'unchanged' ? 'This pass changed nothing (once locations and value numbers are set aside).' : 'Effect unknown: ' + (p.why || '') + '.');
      return;
    }
    const d = p.ch !== undefined ? await composeDiff(p.ch, i, i) : await storedDiff(i);
    if (P.sel === i && !P.range) showDiff(title, p, d, d ? '' : 'This pass\u2019s diff is not in the report.');
  }

  /* Shift-click: the diff from the pass clicked before to this one. */
  function shiftPick(i) {
    const a = P.anchor >= 0 ? P.anchor : P.sel;
    if (a < 0) return selectPass(i);
    return comparePasses(Math.min(a, i), Math.max(a, i), true);
  }

  /* The IR before pass N against the IR after pass M (same chain). */
  async function comparePasses(n, m, keepAnchor) {
    const ps = P.data.passes;
    if (n > m) [n, m] = [m, n];
    const bar = document.getElementById('pass-bar');
    if (ps[n].ch === undefined || ps[n].ch !== ps[m].ch) {
      const alone = [n, m].filter((i) => ps[i].ch === undefined);
      const why = alone.length
        ? 'Pass ' + alone.map((i) => i + ' (' + passLabel(ps[i]) + ')').join(' and ') +
          ' cannot be an end of a composed diff: ' +
          alone.map((i) => (ps[i].effect === 'unknown' ? 'its effect is unknown (' + (ps[i].why || 'no text') + ')'
            : ps[i].loop ? 'a loop pass prints only its loop; the next pass of its function shows its changes'
            : 'nothing before it could be compared')).join('; ') + '.'
        : 'Passes ' + n + ' and ' + m + ' are in different chains: different IR (MLIR, LLVM IR, machine code), or a dump between them is missing or not comparable.';
      bar.replaceChildren(el('strong', null, 'passes ' + n + '\u2013' + m));
      const rows = document.getElementById('pass-rows');
      rows.replaceChildren(el('p', 'why', why));
      return;
    }
    if (!keepAnchor) P.anchor = n;
    P.range = [n, m];
    P.sel = n === m ? n : -1;
    renderPassList();
    markSelection();
    const d = await composeDiff(ps[n].ch, n, m);
    if (!P.range || P.range[0] !== n || P.range[1] !== m) return;
    d.level = ps[n].level;
    const title = n === m ? n + ': ' + passLabel(ps[n]) : 'passes ' + n + '\u2013' + m + ': before ' + passLabel(ps[n]) + ' \u2192 after ' + passLabel(ps[m]);
    showDiff(title, null, d, '');
  }

  async function selectLevel(lv) {
    if (lv.chain !== undefined) {
      await comparePasses(lv.cfrom, lv.cto);
      return;
    }
    P.sel = -1;
    P.range = null;
    const d = await load(S.kid + '/' + lv.diff);
    d.level = lv.level;
    showDiff('the whole ' + lv.level + ' level: passes ' + lv.from + '\u2013' + lv.to, null, d, '');
  }

  function showDiff(title, p, d, msg) {
    const bar = document.getElementById('pass-bar');
    bar.replaceChildren(el('strong', null, title));
    if (d) {
      bar.appendChild(el('span', 'cnt plus', '+' + d.added));
      bar.appendChild(el('span', 'cnt minus', '\u2212' + d.removed));
      bar.appendChild(el('span', 'file', d.a + ' \u2192 ' + d.b));
    } else if (p) bar.appendChild(el('span', 'file', p.before + ' \u2192 ' + p.after));
    const nav = [
      ['\u2191 change', 'p', () => gotoGroup(-1)], ['change \u2193', 'n', () => gotoGroup(1)],
      ['\u2190 changed pass', 'k', () => nextChanged(-1)], ['changed pass \u2192', 'j', () => nextChanged(1)],
    ];
    for (const [label, key, fn] of nav) {
      const b = el('button', null, label);
      b.type = 'button';
      b.title = 'key ' + key;
      b.addEventListener('click', fn);
      bar.appendChild(b);
    }
    const rows = document.getElementById('pass-rows');
    rows.replaceChildren();
    rows.scrollTop = 0;
    P.diff = d;
    P.group = 0;
    if (!d) {
      rows.appendChild(el('p', 'why', msg));
      return;
    }
    const level = p ? p.level : d.level || '';
    P.lang = level === 'llvm-ir' || level === 'codegen-ir' ? 'llvm' : level === 'machine' ? '' : 'mlir';
    if (d.composed) rows.appendChild(el('p', 'why', 'Composed from the diffs of the passes in between: a line that one pass added and a later one removed is not shown; a line one pass removed and another added back shows as removed and added.'));
    P.drawn = 0;
    P.drawnRow = 0;
    drawGroups(DRAW_ROWS);
  }

  /* Rows are painted in batches: a pass that rewrote everything has
   * thousands, and painting them all takes a second. */
  const DRAW_ROWS = 1500;

  function drawGroups(budget) {
    const d = P.diff, rows = document.getElementById('pass-rows');
    const more = document.getElementById('pass-more');
    if (more) more.remove();
    const frag = document.createDocumentFragment();
    let n = 0;
    while (P.drawn < d.groups.length && n < budget) {
      const gi = P.drawn, g = d.groups[gi];
      if (P.drawnRow === 0) {
        const fa = g.find((r) => r[1]), fb = g.find((r) => r[3]);
        const h = el('div', 'dgroup', 'change ' + (gi + 1) + ' of ' + d.groups.length + (fa ? ' \u2014 before: line ' + fa[1] : '') + (fb ? ', after: line ' + fb[3] : ''));
        h.dataset.g = gi;
        frag.appendChild(h);
      }
      for (; P.drawnRow < g.length && n < budget; P.drawnRow++, n++) {
        const r = g[P.drawnRow];
        const row = el('div', 'drow ' + r[0]);
        const side = (no, text, cls) => {
          const nn = el('span', 'no', no || '');
          const t = el('span', 'tx ' + cls);
          if (text !== null) paint(t, text, P.lang, null);
          row.append(nn, t);
        };
        side(r[1], r[2], r[0] === 'e' ? '' : r[0] === 'i' ? 'none' : 'del');
        // a context row whose two sides are the same text stores it once
        side(r[3], r.length > 4 ? r[4] : r[2], r[0] === 'e' ? '' : r[0] === 'd' ? 'none' : 'add');
        frag.appendChild(row);
      }
      if (P.drawnRow >= g.length) {
        P.drawn++;
        P.drawnRow = 0;
      }
    }
    if (P.drawn < d.groups.length) {
      let left = -P.drawnRow;
      for (let gi = P.drawn; gi < d.groups.length; gi++) left += d.groups[gi].length;
      const b = el('button', null, 'show ' + left + ' more rows');
      b.type = 'button';
      b.id = 'pass-more';
      b.addEventListener('click', () => drawGroups(Infinity));
      frag.appendChild(b);
    } else if (d.cut) frag.appendChild(el('p', 'why', d.cut + ' more rows of this diff are not ' + (d.composed !== undefined ? 'shown' : 'stored in the report') + ' (a pass that rewrote everything).'));
    rows.appendChild(frag);
  }

  function gotoGroup(d) {
    if (!P.diff) return;
    const want = Math.max(0, Math.min(P.diff.groups.length - 1, P.group + d));
    if (want >= P.drawn && !(want === P.drawn && P.drawnRow > 0)) drawGroups(Infinity);
    const hs = document.querySelectorAll('#pass-rows .dgroup');
    if (!hs.length) return;
    P.group = Math.max(0, Math.min(hs.length - 1, want));
    const rows = document.getElementById('pass-rows');
    rows.scrollTop = hs[P.group].offsetTop - rows.offsetTop - 4;
  }

  function nextChanged(d) {
    const ps = P.data.passes;
    const from = P.sel >= 0 ? P.sel : P.range ? (d > 0 ? P.range[1] : P.range[0]) : -1;
    for (let i = from + d; i >= 0 && i < ps.length; i += d) {
      if (ps[i].effect === 'changed' && (!P.touched || P.touched.has(i))) {
        selectPass(i);
        return;
      }
    }
  }

  function passesKey(ev) {
    const k = ev.key;
    if (k === 'n') gotoGroup(1);
    else if (k === 'p') gotoGroup(-1);
    else if (k === 'j') nextChanged(1);
    else if (k === 'k') nextChanged(-1);
    else return;
    ev.preventDefault();
  }

  /* From a source line: the passes whose changed lines carry it in a stack. */
  async function passesFor(file, line) {
    document.getElementById('mode-passes').click();
    await passesOpen();
    const hit = P.data.touch.find((t) => t[0] === file && t[1] === line);
    P.touched = new Set(hit ? expand(hit[2]) : []);
    renderPassList();
    const bar = document.getElementById('pass-bar');
    const p = S.files[file] ? base(S.files[file][0]) : '?';
    const note = el('div', 'touchnote', P.touched.size + ' pass' + (P.touched.size === 1 ? '' : 'es') + ' changed IR of ' + p + ':' + line + ' (marked); j / k step through them.');
    const clear = el('button', null, 'show all');
    clear.type = 'button';
    clear.addEventListener('click', () => {
      P.touched = null;
      renderPassList();
      note.remove();
    });
    note.appendChild(clear);
    bar.parentNode.insertBefore(note, bar);
    const first = [...P.touched].sort((a, b) => a - b)[0];
    if (first !== undefined) await selectPass(first);
  }

  TK.passes = { open: passesOpen, key: passesKey, forSource: passesFor, state: P, select: selectPass, compare: comparePasses,
    chain: { load: loadChain, text: chainText, apply: applyStep, compose: composeDiff, map: composeMap } };

  TK.state = S;
  TK.internal = { load, expand, tokenize, paint, CodeView, el, svgEl, base, setStage, setFile, clickSource, clickIR, STAGE_LABEL, STAGES, info, fmtBytes };

  document.addEventListener('DOMContentLoaded', () => {
    if (document.body.classList.contains('kernel')) {
      initKernel().catch((e) => {
        document.body.appendChild(el('p', 'why', 'Error: ' + e.message));
        document.body.dataset.ready = 'error';
      });
    } else initIndex();
  });
})();
