/* diag.js - what the compiler said about the kernel, on the kernel page.
 *
 * Job: loads data/ID/diag.js (written by html/data_diag.c from libtkdump's
 * tk_diag.h), answers the mark of every source and IR line a message is
 * about (severity as colour, the messages as its title) and fills the list
 * of messages in the panel on the right, each opening its source line or
 * its IR line, and its pass in pass mode (a #pass=N link, N the step the
 * library placed the message's pass at: "pass_step").  Every answer (the kernel, the line, the IR line, the
 * pass, the meaning and what to try) was computed by the library; this
 * module only looks them up.
 *
 * Depends on: dom (el, base), data (load), kernel (id, meta, path).
 * Interface: load() -> Promise (false: no messages), ready(),
 *   srcMark(file, line), irMark(stage, line) ('' or ' dg dg-SEVERITY'),
 *   srcTitle(file, line), irTitle(stage, line) (the messages, or ''),
 *   panel(section, {showSource, showIR}) (fills the list), list().
 */
'use strict';
TK.define('diag', ['dom', 'data', 'kernel'], function (dom, data, kernel) {
  const { el, base } = dom;
  const RANK = { remark: 1, warning: 2, error: 3 };
  let D = null;
  const bySrc = new Map(); /* "file:line" -> messages (any frame of the stack) */
  const byIR = new Map(); /* "stage:line" -> messages */

  function add(map, key, d) {
    const l = map.get(key);
    if (!l) map.set(key, [d]);
    else if (!l.includes(d)) l.push(d);
  }

  async function load() {
    const m = kernel.meta();
    if (!m || !m.diag) return false;
    D = await data.load(kernel.id() + '/diag');
    for (const d of D.list) {
      for (const [f, l] of d.stack) if (f >= 0 && l > 0) add(bySrc, f + ':' + l, d);
      if (d.stage && d.ir_line) add(byIR, d.stage + ':' + d.ir_line, d);
    }
    return true;
  }

  function mark(list) {
    if (!list) return '';
    let worst = 'remark';
    for (const d of list) if (RANK[d.severity] > RANK[worst]) worst = d.severity;
    return ' dg dg-' + worst;
  }

  function where(d) {
    if (d.file < 0) return 'no source line';
    return base(kernel.path(d.file)) + ':' + d.line + (d.column ? ':' + d.column : '');
  }

  function text(d) {
    const head = d.severity + ' (' + d.origin + (d.code ? ' ' + d.code : '') + ')';
    const out = [head + ': ' + d.message];
    for (const n of d.notes) out.push('note: ' + n);
    if (d.pass) out.push('pass: ' + d.pass + (d.pass_says ? ': ' + d.pass_says : ''));
    if (d.meaning) out.push('what it means: ' + d.meaning);
    if (d.try) out.push('what to try: ' + d.try);
    return out.join('\n');
  }

  function titleOf(list) {
    return list ? list.map(text).join('\n\n') : '';
  }

  /* The list: one item per message, the worst first. */
  function panel(section, go) {
    if (!D || !D.list.length) return;
    section.hidden = false;
    section.appendChild(el('h3', null, 'Compiler messages (' + D.list.length + ')' +
                                       (D.failed ? ': the compile FAILED' : '')));
    const ul = el('ul', 'dg-list');
    const sorted = D.list.slice().sort((a, b) => RANK[b.severity] - RANK[a.severity]);
    for (const d of sorted) {
      const li = el('li', 'dg-' + d.severity);
      li.appendChild(el('span', 'dg-sev', d.severity + (d.code ? ' ' + d.code : '')));
      li.appendChild(el('span', 'dg-where', where(d) +
                        (d.stage && d.ir_line ? ' [' + d.stage + ':' + d.ir_line + ']' : '')));
      li.appendChild(el('div', 'dg-msg', d.message));
      for (const n of d.notes) li.appendChild(el('div', 'dg-note', 'note: ' + n));
      if (d.pass) {
        const p = el('div', 'dg-note', 'pass: ' + d.pass);
        if (d.pass_step != null) {
          /* followed, the fragment opens pass mode there (links.js) */
          const a = el('a', 'dg-pass', 'open pass ' + d.pass_step);
          a.href = '#pass=' + d.pass_step;
          a.addEventListener('click', (ev) => ev.stopPropagation());
          p.appendChild(document.createTextNode(' '));
          p.appendChild(a);
        } else if (d.pass_says) {
          /* no step to open: the library's words say why */
          p.appendChild(document.createTextNode(' (' + d.pass_says + ')'));
        }
        li.appendChild(p);
      }
      if (d.meaning) li.appendChild(el('div', 'dg-why', d.meaning));
      if (d.try) li.appendChild(el('div', 'dg-try', 'Try: ' + d.try));
      li.title = 'Open ' + (d.file >= 0 ? 'its source line' : d.ir_line ? 'its IR line' : '');
      li.addEventListener('click', () => {
        if (d.file >= 0) go.showSource(d.file, d.line);
        if (d.stage && d.ir_line) go.showIR(d.stage, d.ir_line);
      });
      ul.appendChild(li);
    }
    section.appendChild(ul);
  }

  return {
    load,
    ready: () => !!D,
    srcMark: (file, line) => mark(bySrc.get(file + ':' + line)),
    irMark: (stage, line) => mark(byIR.get(stage + ':' + line)),
    srcTitle: (file, line) => titleOf(bySrc.get(file + ':' + line)),
    irTitle: (stage, line) => titleOf(byIR.get(stage + ':' + line)),
    panel,
    list: () => (D ? D.list : []),
  };
});
