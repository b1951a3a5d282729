/* passnotes.js - what pass mode says about the parts of a diff the report
 * left out, and how to see all of it.
 *
 * Job: the notes of the report's budget for pass diffs: the command that
 * shows a whole diff (the report's pass numbers are `tkview passes`'s),
 * why a pass over the budget cannot be an end of a composed diff, and the
 * note above and below a diff that was cut.  B, in each: the timeline's
 * "diffs" (data_passes.c: maxLines, maxBytes, see, view), the budget the
 * library cut by; nothing here decides what is cut.
 *
 * Depends on: dom (el).
 * Interface: seeCommand(B, n, m), tooBig(B), budgetNote(B, d, span) (an
 *   element, or null when diff D was not cut).
 */
'use strict';
TK.define('passnotes', ['dom'], function (dom) {
  const el = dom.el;

  /* The command that shows all of the diff of passes N..M. */
  function seeCommand(B, n, m) {
    const see = B.see;
    return see ? see + ' --pass ' + n + (m !== n ? ' --to ' + m : '') : '';
  }

  /* 20000 -> "20,000" (not toLocaleString: Intl's first use costs 15 ms). */
  function fmtCount(v) {
    return String(v).replace(/\B(?=(\d{3})+$)/g, ',');
  }

  /* Why a pass kept out of chains by the budget cannot be an end of a
   * composed diff. */
  function tooBig(B) {
    return 'its IR is bigger than the report keeps of one pass (' + fmtCount(B.maxLines) + ' lines or ' +
      fmtCount(B.maxBytes / 1048576) + ' MiB of text), so the page cannot compose it';
  }

  /* What the report left out of diff D of passes SPAN ([n, m]) and how to
   * see it: a stored diff is cut at the budget (pass_budget.h), a
   * composed one at as many rows. */
  function budgetNote(B, d, span) {
    if (!d.cut) return null;
    const fmt = fmtCount;
    const p = el('p', 'why cutnote');
    p.appendChild(el('strong', null, fmt(d.cut) + ' more lines of this diff are not ' + (d.composed !== undefined ? 'shown' : 'in the report') + '. '));
    p.appendChild(document.createTextNode(d.composed !== undefined
      ? 'The page composes at most ' + fmt(B.maxLines) + ' lines of a diff. '
      : 'The report keeps at most ' + fmt(B.maxLines) + ' lines or ' + fmt(B.maxBytes / 1048576) + ' MiB of text of each pass\u2019s diff. '));
    const cmd = seeCommand(B, span[0], span[1]);
    if (cmd) {
      p.appendChild(document.createTextNode('All of it: '));
      p.appendChild(el('code', null, cmd));
      if (B.view) {
        p.appendChild(document.createTextNode(', or in the desktop viewer: '));
        p.appendChild(el('code', null, B.view));
        p.appendChild(document.createTextNode(', Passes'));
      }
      p.appendChild(document.createTextNode('.'));
    }
    return p;
  }

  return { seeCommand, tooBig, budgetNote };
});
