/* syntax.js - colours IR and Python lines, lexically (classes for display
 * only: nothing here reads what the IR means).
 *
 * Job: each language's rules as sticky regular expressions; a line cut
 * into tokens; a line painted into an element as text nodes and spans
 * (textContent only), location suffixes marked so that CSS can hide them,
 * parts of the line (layout references) wrapped in elements the caller
 * makes.
 *
 * Depends on: dom (el, esc).
 * Interface: tokenize(text, lang), paint(element, text, lang, ranges, max, plain),
 *   html(text, lang, max, plain): paint()'s elements as escaped markup,
 *   stageLang(stage), dialectLang(dialect): the rules a final stage, or
 *   the texts of an IR dialect (passes.js's levels), are coloured with.
 */
'use strict';
TK.define('syntax', ['dom'], function (dom) {
  const el = dom.el;
  const esc = dom.esc;
  const STAGE_LANG = { ttir: 'mlir', ttgir: 'mlir', llir: 'llvm', ptx: 'ptx', sass: 'sass', amdgcn: 'amdgcn' };
  /* tk_ir_dialect_name()s: machine code and plain text are not coloured */
  const DIALECT_LANG = { mlir: 'mlir', llvm: 'llvm' };

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
    /* AMDGPU assembly (NAME.amdgcn) and llvm-objdump's disassembly */
    amdgcn: [
      [/^\s*\.loc\b.*/y, 'loc'],
      [/^; \/.*:\d+$/y, 'loc'],
      [/;.*|\/\/.*/y, 'c'],
      [/"(?:[^"\\]|\\.)*"/y, 's'],
      [/^\s*[a-z][a-z0-9_]*(?=\s|$)/y, 'op'],
      [/\b(?:[vsa]\d+|[vsa]\[\d+:\d+\]|vcc(?:_lo|_hi)?|exec(?:_lo|_hi)?|scc|m0|off)\b/y, 'v'],
      [/^\s*\.[a-z_][\w]*/y, 'kw'],
      [/^[\w.$]+:/y, 'sym'],
      [/\.L[\w$]+/y, 'sym'],
      [/-?\b0x[0-9a-fA-F]+\b|-?\b\d+(?:\.\d+)?\b/y, 'n'],
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

  /* TEXT cut to MAX characters (default MAX_SHOWN) and its tokens, plain
   * from PLAIN on (paint() says why): {text, cut (characters left out, or
   * ''), toks}. */
  function prepare(text, lang, max, plain) {
    let cut = '';
    const most = max || MAX_SHOWN;
    if (text.length > most) {
      cut = text.length - most;
      text = text.slice(0, most);
    }
    let toks = tokenize(text, lang);
    if (plain !== undefined && text.length > plain) toks = toks.filter((t) => t[0] < plain || t[2] === 'loc');
    return { text, cut, toks };
  }

  /* Fills TX with TEXT coloured as LANG, RANGES ([start, end, node maker])
   * wrapping parts of it (layout references); at most MAX characters
   * (default MAX_SHOWN), the rest counted.  PLAIN (optional): from this
   * character on, tokens are plain text (location suffixes and RANGES
   * still marked): a code pane draws coloured only what its width shows
   * (an LLVM IR line of 4000 characters is hundreds of elements to lay
   * out), and all of it once scrolled sideways. */
  function paint(tx, text, lang, ranges, max, plain) {
    const pre = prepare(text, lang, max, plain);
    const toks = pre.toks, cut = pre.cut;
    text = pre.text;
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

  /* What paint() puts in an element for TEXT without ranges, as markup:
   * every character of the text escaped (dom.esc), so the dump's text is
   * never markup.  A code pane builds its rows from one string: the
   * browser's parser makes the elements several times faster than one
   * createElement per token (a click redraws three panes). */
  function html(text, lang, max, plain) {
    const { text: t, cut, toks } = prepare(text, lang, max, plain);
    let out = '';
    let pos = 0;
    for (const [s, e, cls] of toks) {
      if (s > pos) out += esc(t.slice(pos, s));
      const part = esc(t.slice(s, e));
      if (cls === 'loc') out += '<span class="loc">' + part + '</span><span class="locmark" title="' + esc(t.slice(s, e).trim()) + '">\u2026</span>';
      else out += '<span class="t-' + cls + '">' + part + '</span>';
      pos = e;
    }
    if (t.length > pos) out += esc(t.slice(pos));
    if (cut) out += '<span class="cut"> \u2026 ' + cut + ' more characters</span>';
    return out;
  }

  function stageLang(stage) {
    return STAGE_LANG[stage];
  }

  function dialectLang(dialect) {
    return DIALECT_LANG[dialect] || '';
  }

  return { tokenize, paint, html, stageLang, dialectLang };
});
