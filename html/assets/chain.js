/* chain.js - the diff of any two passes of a chain, composed from the
 * chain's stored steps (pass_chain.h says what data_chain.c stores).
 *
 * Job: a chain is a run of passes of one IR whose texts follow each other
 * byte for byte; data/ID/pc-C.js holds its first text (kept lines) and,
 * per pass, its equal runs, the text of the lines it added and of the
 * equal lines whose text changed, and the line numbers after it.  From
 * them: the text before or after any pass of the chain, which lines of one
 * text are still there in a later one (or became which line: the
 * library's pairs of replaced lines), the hunks between the two, and the
 * diff's rows grouped around its changes, in the format of the diffs the
 * report stores (data_passes.c).  Nothing here compares text: only the
 * library's equal runs and pairs are composed.  The chains loaded are kept here.
 *
 * Depends on: data (load), kernel (id).
 * Interface: load(ci) -> Promise of a chain, text(chain, k), lines(runs,
 *   n) (a text's line numbers from its runs, "n"), apply(text,
 *   step), map(chain, n, m), group(A, B, hunks, rules, words) (the rule
 *   itself, for the tests), compose(ci, n, m, rules) -> Promise of
 *   {added, removed, groups, cut, rs, st, ry, ly} (rs: per group, what
 *   its rows' sides name in the source, [a, b, a, b, ...] entries of st;
 *   ry: per group, its rows' sides' layout references, of the layouts ly;
 *   data_layouts.h).
 */
'use strict';
TK.define('chain', ['data', 'kernel'], function (data, kernel) {
  const chains = new Map(); /* chain index -> {from, to, steps, texts} */

  /* A text is {t: [line text], ln: Int32Array of line numbers, s:
   * Int32Array of what each line names in the source (an entry of the
   * chain's "st", data_locs.h; 0: nothing)}. */
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
    const t = new Array(nb), src = new Int32Array(nb), sa = s.s || [];
    const y = A.y ? new Array(nb) : null, ya = s.y || [];
    let b = 0, ti = 0;
    for (let i = 0; i < h.length; i += 3) {
      const a0 = h[i], b0 = h[i + 1], n = h[i + 2];
      for (; b < b0; ti++) {
        if (y) y[b] = ya[ti] || 0;
        src[b] = sa[ti] || 0, t[b++] = add[ti];
      }
      for (let j = 0; j < n; j++) {
        if (y) y[b] = A.y[a0 + j];
        src[b] = A.s[a0 + j], t[b++] = A.t[a0 + j];
      }
    }
    for (; b < nb; ti++) {
      if (y) y[b] = ya[ti] || 0;
      src[b] = sa[ti] || 0, t[b++] = add[ti];
    }
    for (let i = 0; i < s.u.length; i += 2) t[s.u[i]] = s.u[i + 1];
    if (s.su) for (let i = 0; i < s.su.length; i += 2) src[s.su[i]] = s.su[i + 1];
    if (y && s.yu) for (let i = 0; i < s.yu.length; i += 2) y[s.yu[i]] = s.yu[i + 1];
    return { t, ln: runsToLines(s.n, nb), s: src, y };
  }

  async function loadChain(ci) {
    let ch = chains.get(ci);
    if (!ch) {
      const d = await data.load(kernel.id() + '/pc-' + ci);
      ch = { from: d.from, to: d.to, steps: d.steps, st: d.st || [[]], ly: d.ly || null,
        texts: [{ t: d.base.t, ln: runsToLines(d.base.n, d.base.t.length), s: Int32Array.from(d.base.s || new Array(d.base.t.length).fill(0)),
          y: d.ly && d.base.y ? d.base.y : null }] };
      chains.set(ci, ch);
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
   * N..M; with LINKS, {pos, mod}: the equal runs and the pairs the library
   * made of replaced lines (a step's "p") composed, MOD[i] set where line
   * i went through a pair (a replaced line, not an equal one). */
  function composeMap(ch, n, m, links) {
    let len = chainText(ch, n - ch.from).t.length;
    const pos = new Int32Array(len);
    const mod = new Uint8Array(len);
    for (let i = 0; i < len; i++) pos[i] = i;
    for (let p = n; p <= m; p++) {
      const s = ch.steps[p - ch.from];
      if (!s) continue;
      const map = new Int32Array(len).fill(-1);
      const h = s.h;
      for (let i = 0; i < h.length; i += 3)
        for (let j = 0; j < h[i + 2]; j++) map[h[i] + j] = h[i + 1] + j;
      const pair = new Int32Array(len).fill(-1);
      if (links && s.p)
        for (let i = 0; i < s.p.length; i += 3)
          for (let j = 0; j < s.p[i + 2]; j++) pair[s.p[i] + j] = s.p[i + 1] + j;
      for (let i = 0; i < pos.length; i++) {
        if (pos[i] < 0) continue;
        const e = map[pos[i]];
        if (e >= 0 || !links) pos[i] = e;
        else if ((pos[i] = pair[pos[i]]) >= 0) mod[i] = 1;
      }
      len = s.t.length;
      for (let i = 2; i < h.length; i += 3) len += h[i];
    }
    return links ? { pos, mod } : pos;
  }

  /* Hunks [tag, a0, a1, b0, b1] over NA and NB lines from a monotonic map
   * POS (A line -> B line or -1) and MOD (set where the line was replaced,
   * not kept), as tk_ir_diff_aligned() gives them: a replace hunk pairs its
   * lines one to one, the lines between two links are removed then added. */
  function mapHunks(pos, nb, mod) {
    const hs = [];
    let a = 0, b = 0;
    const change = (a1, b1) => {
      if (a1 > a) hs.push(['d', a, a1, b, b]);
      if (b1 > b) hs.push(['i', a1, a1, b, b1]);
    };
    for (let i = 0; i < pos.length; i++) {
      const j = pos[i];
      if (j < 0) continue;
      change(i, j);
      const tag = mod && mod[i] ? 'r' : 'e';
      const last = hs[hs.length - 1];
      if (last && last[0] === tag && last[2] === i && last[4] === j) {
        last[2]++;
        last[4]++;
      } else hs.push([tag, i, i + 1, j, j + 1]);
      a = i + 1;
      b = j + 1;
    }
    change(pos.length, nb);
    return hs;
  }

  /* The rows of a diff of texts A and B with hunks HS, grouped by the rule
   * tk_diff_group() documents (tk_diff.h: each change with up to CONTEXT
   * equal lines before and after it, changes closer than 2 CONTEXT + 1
   * equal lines in one group), in the format of the stored diffs: [kind,
   * aLine, aText, bLine, bText, words?] (WORDS: B line -> the changed
   * words of the replaced row ending there, or null), a replace's lines paired as data_passes.c
   * pairs them, cut after MAX_LINES lines of the unified diff as the
   * library cuts (a change's removed lines before its added ones, so a cut
   * may keep a replace's removed lines alone; a group with nothing shown is
   * none), the rows after that counted in lines.  A composed diff is made here, so the rule runs
   * here; CONTEXT and MAX_LINES are RULES.context and RULES.maxLines, the
   * ones data_passes.c grouped and cut the stored diffs with (passes.js
   * "diffs"), and test_report.mjs checks the groups of every pass against
   * `tkview diff`; test_pass_diff.mjs checks this function against the
   * table the library's test_diff_group_table reads
   * (tests/diff_group_cases.json). */
  function groupRows(A, B, hs, rules, words) {
    const CONTEXT = rules.context, MAX_LINES = rules.maxLines;
    const groups = [], rs = [], ry = [];
    let cur = null, curS = null, curY = null, open = false, lines = 0, cut = 0;
    /* How many of N more unified lines the budget holds; the rest, and
     * every line after, are counted as cut (tk_ir_diff_group_budget()). */
    const budget = (n) => {
      if (cut) {
        cut += n;
        return 0;
      }
      const take = Math.min(n, MAX_LINES - lines);
      lines += take;
      cut += n - take;
      return take;
    };
    /* A row of the group being shown; a group none of whose rows fit is
     * no group (the library hands out the groups it shows). */
    const row = (kind, i, j) => {
      if (!cur) {
        cur = [];
        curS = [];
        groups.push(cur);
        rs.push(curS);
        if (A.y && B.y) ry.push((curY = []));
      }
      const r = [kind, i >= 0 ? A.ln[i] : 0, i >= 0 ? A.t[i] : null, j >= 0 ? B.ln[j] : 0, j >= 0 ? B.t[j] : null];
      if (kind === 'r' && words && words.has(j)) r.push(words.get(j));
      cur.push(r);
      curS.push(i >= 0 ? A.s[i] : 0, j >= 0 ? B.s[j] : 0);
      if (curY) curY.push(i >= 0 ? A.y[i] : 0, j >= 0 ? B.y[j] : 0);
    };
    const eq = (h, from, to) => {
      for (let k = from; k < to; k++) if (budget(1)) row('e', h[1] + k, h[3] + k);
    };
    for (let x = 0; x < hs.length; x++) {
      const h = hs[x];
      if (h[0] === 'e') continue;
      const prev = x > 0 ? hs[x - 1] : null;
      if (!open) {
        open = true;
        cur = null;
        if (prev) eq(prev, Math.max(0, prev[2] - prev[1] - CONTEXT), prev[2] - prev[1]);
      }
      /* A change's removed lines come before its added ones (unified
       * order): a cut among them keeps the removed lines that fit. */
      const na = h[2] - h[1], nb = h[4] - h[3];
      const take = budget(na + nb), sa = Math.min(na, take), sb = take - sa;
      for (let k = 0; k < Math.max(sa, sb); k++)
        row(k < sa && k < sb ? 'r' : k < sa ? 'd' : 'i', k < sa ? h[1] + k : -1, k < sb ? h[3] + k : -1);
      const next = x + 1 < hs.length ? hs[x + 1] : null;
      if (!next) break;
      if (next[0] !== 'e') continue; /* a change right after: same group */
      const len = next[2] - next[1];
      if (len <= 2 * CONTEXT && x + 2 < hs.length) eq(next, 0, len);
      else {
        eq(next, 0, Math.min(CONTEXT, len));
        open = false;
      }
    }
    return { groups, rs, ry: A.y && B.y ? ry : null, cut };
  }

  /* The last diff composed, {key, rules, diff}: pass mode's first diff is
   * composed while the kernel page is idle (passes.js warm()) and shown
   * from here when pass mode opens.  One only: a composed diff can hold
   * thousands of rows. */
  let last = null;

  /* The diff from the text before pass N to the text after pass M of chain
   * CI (N <= M), in the format of the stored diffs (the caller names its
   * two sides), grouped and cut by RULES ({context, maxLines}).  The same
   * diff asked again is the one composed before (not to be changed). */
  async function composeDiff(ci, n, m, rules) {
    const key = ci + ':' + n + ':' + m;
    if (!last || last.key !== key || last.rules !== rules) {
      const diff = composeNow(ci, n, m, rules);
      last = { key, rules, diff };
      /* a chain that could not be loaded is asked for again next time */
      diff.catch(() => {
        if (last && last.diff === diff) last = null;
      });
    }
    return last.diff;
  }

  async function composeNow(ci, n, m, rules) {
    const ch = await loadChain(ci);
    const A = chainText(ch, n - ch.from), B = chainText(ch, m - ch.from + 1);
    const { pos, mod } = composeMap(ch, n, m, true);
    let kept = 0;
    for (let i = 0; i < pos.length; i++) if (pos[i] >= 0 && !mod[i]) kept++;
    /* One pass's diff is its step: its replaced lines have their changed
     * words from the library (the step's "w").  A diff of several passes
     * pairs the lines the steps' pairs link, and shows them without
     * words. */
    const s = n === m ? ch.steps[n - ch.from] : null;
    let words = null;
    if (s && s.w) {
      words = new Map();
      for (let i = 0; i + 1 < s.w.length; i += 2) words.set(s.w[i], s.w[i + 1]);
    }
    const { groups, rs, ry, cut } = groupRows(A, B, mapHunks(pos, B.t.length, mod), rules, words);
    return { added: B.t.length - kept, removed: A.t.length - kept, groups, cut, rs, st: ch.st, ry, ly: ry ? ch.ly : null };
  }

  return { load: loadChain, text: chainText, lines: runsToLines, apply: applyStep, map: composeMap, compose: composeDiff, group: groupRows };
});
