/* app.js - the kernel page put together: starts the modules and wires
 * them to each other and to the page.
 *
 * Job: on a kernel page (body.kernel), once the page and its data scripts
 * are in: the kernel's data (kernel.init), the metadata line and the
 * "locations" switch, the layout tip, the panes (first stage and file),
 * the Kernel / Passes modes, the keys; then body[data-ready="1"].  The
 * index page has nothing dynamic and loads no script.  Holds the page's
 * mode and its start-up timing.
 *
 * Depends on: dom (el, fmtBytes), kernel (init, meta, stages, loadBind), panes
 *   (start, setStage, gotoHit, refresh, showSource, showIR), layouts
 *   (hover), passes (open, key, forSource,
 *   warm: pass mode's data loaded once the page is idle), cost (load, controls,
 *   renderHot, onChange, hotShown), diag (load, panel: the compiler's
 *   messages), regs (start, update: the register pressure strip), find (start: the find bar's keys),
 *   links (start: the URL fragment shown, then kept up to date; changed).
 * Interface: inspect() (for the tests, read only: {interactive, setup}
 *   in ms).
 */
'use strict';
TK.define('app', ['dom', 'kernel', 'panes', 'layouts', 'passes', 'cost', 'diag', 'regs', 'find', 'links'], function (dom, kernel, panes, layouts, passes, cost, diag, regs, find, links) {
  const { el, fmtBytes } = dom;
  const timing = { interactive: -1, setup: -1 };
  let mode = 'kernel';

  function setMode(m) {
    const changed = m !== mode;
    mode = m;
    document.getElementById('kernel-view').hidden = m !== 'kernel';
    document.getElementById('pass-view').hidden = m !== 'passes';
    document.getElementById('mode-kernel').classList.toggle('on', m === 'kernel');
    document.getElementById('mode-passes').classList.toggle('on', m === 'passes');
    if (m === 'passes') passes.open();
    if (changed) links.changed();
  }

  function onKey(ev) {
    if (ev.target.closest && ev.target.closest('input, select, textarea')) return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (!document.getElementById('pass-view').hidden) {
      passes.key(ev);
      return;
    }
    const k = ev.key;
    if (k === 'n') panes.gotoHit(1);
    else if (k === 'p' || k === 'N') panes.gotoHit(-1);
    else if (k >= '1' && k <= '9' && kernel.stages()[+k - 1]) panes.setStage(kernel.stages()[+k - 1]);
    else if (k === 'l') document.getElementById('toggle-loc').click();
    else if (k === 'h' && document.getElementById('toggle-hot')) document.getElementById('toggle-hot').click();
    else return;
    ev.preventDefault();
  }

  function metaLine() {
    const meta = kernel.meta();
    const m = meta.meta;
    const parts = [];
    if (m.num_warps !== undefined) parts.push(m.num_warps + ' warps');
    if (m.num_stages !== undefined) parts.push(m.num_stages + ' pipeline stages');
    if (m.shared_bytes !== undefined) parts.push(fmtBytes(m.shared_bytes) + ' shared');
    if (m.registers !== undefined) parts.push(m.registers + ' registers');
    if (m.spill_bytes !== undefined) parts.push(m.spill_bytes + ' B spilled');
    if (m.target) parts.push(m.target);
    if (m.triton) parts.push('Triton ' + m.triton);
    /* AMD: wavefront, registers and occupancy from the .amdgcn */
    if (m.target && m.target.startsWith('hip')) {
      if (m.warp_size !== undefined) parts.push('wavefront ' + m.warp_size);
      if (m.waves_per_eu !== undefined) parts.push('waves_per_eu ' + m.waves_per_eu);
      if (m.sgprs !== undefined) parts.push(m.sgprs + ' SGPRs');
      if (m.agprs !== undefined) parts.push(m.agprs + ' AGPRs');
      if (m.lds_static_bytes !== undefined) parts.push(fmtBytes(m.lds_static_bytes) + ' static LDS');
      if (m.occupancy !== undefined) parts.push('occupancy ' + m.occupancy + ' waves/SIMD');
    }
    if (meta.irloc) parts.push('USE_IR_LOC=' + meta.irloc);
    const box = document.getElementById('meta');
    box.replaceChildren(el('span', null, parts.join(' \u00b7 ')));
    const lb = el('button', 'toggle', 'locations');
    lb.type = 'button';
    lb.id = 'toggle-loc';
    lb.title = 'Show the locations in the IR text: loc(...) and !dbg suffixes, and the #loc, .loc and //## lines folded away';
    lb.addEventListener('click', () => {
      document.body.classList.toggle('hideloc');
      const hidden = document.body.classList.contains('hideloc');
      lb.classList.toggle('on', !hidden);
      panes.setFold(hidden);
    });
    box.appendChild(lb);
  }

  /* The cost controls in the meta line and the hot lines panel above the
   * info panel; a row clicked there selects its line in the panes. */
  function costControls() {
    const hot = document.getElementById('hot');
    const go = (r) => (r.stage ? panes.showIR(r.stage, r.line) : panes.showSource(r.file, r.line));
    const draw = () => cost.renderHot(hot, go);
    cost.controls(document.getElementById('meta'), (shown) => {
      hot.hidden = !shown;
      if (shown) draw();
    });
    cost.onChange(() => {
      panes.refresh();
      if (cost.hotShown()) draw();
    });
  }

  async function initKernel() {
    const t0 = performance.now();
    const kid = document.body.dataset.kernel;
    if (!kernel.init(kid)) {
      document.body.appendChild(el('p', 'why', 'The data of this kernel could not be loaded (data/' + kid + '/meta.js).'));
      return;
    }
    const meta = kernel.meta();
    /* the heat column needs the cost data before the panes draw, and the
     * compiler's messages mark lines: both read before the panes draw (the
     * page lists their files, page_kernel.c: they are in, or inflating) */
    const costLoaded = cost.load().catch(() => false);
    const diagLoaded = diag.load().catch(() => false);
    /* the first stage's text and bindings and the main source: listed
     * in the page too, so these find them in or under way and ask for
     * nothing; asked here all the same, which costs nothing then, for a
     * page that did not list them (panes.start finds them the same way) */
    const first = meta.first || 'ttgir';
    if (meta.stages[first] && !meta.stages[first].missing) kernel.loadStage(first).catch(() => {});
    if (meta.main >= 0) kernel.loadSource(meta.main).catch(() => {});
    document.body.classList.add('hideloc');
    metaLine();
    document.getElementById('mode-kernel').addEventListener('click', () => setMode('kernel'));
    document.getElementById('mode-passes').addEventListener('click', () => setMode('passes'));
    document.addEventListener('keydown', onKey);
    layouts.hover(document.getElementById('kernel-view'));
    if (await costLoaded) costControls();
    await diagLoaded;
    await panes.start({
      passesOf: (file, line) => {
        setMode('passes');
        return passes.forSource(file, line);
      },
    });
    diag.panel(document.getElementById('diag'), { showSource: panes.showSource, showIR: panes.showIR });
    /* the register pressure strip along the SASS, kept to the stage and
     * the line selected */
    regs.start({ showIR: panes.showIR, shown: panes.shown });
    panes.listen(() => regs.update());
    /* a kernel known from its pass dumps only opens on its passes */
    const none = kernel.stages().every((st) => meta.stages[st].missing);
    setMode(none && meta.passes ? 'passes' : 'kernel');
    find.start();
    /* a link to a line, a pass or a find: shown before the page says it
     * is ready */
    await links.start({ mode: () => mode, setMode });
    timing.interactive = performance.now();
    timing.setup = performance.now() - t0;
    document.body.dataset.ready = '1';
    const idle = window.requestIdleCallback || ((f) => setTimeout(f, 200));
    /* the other stages' bindings (small files, not their texts) loaded
     * while the page is idle: the line panel counts every stage on a
     * click, which then finds them in rather than loading them first */
    idle(() => {
      for (const st of kernel.stages()) if (!meta.stages[st].missing) kernel.loadBind(st).catch(() => null);
    }, { timeout: 2000 });
    /* pass mode's first view loaded while the page is idle */
    if (mode === 'kernel' && meta.passes) idle(() => passes.warm().catch(() => null), { timeout: 2000 });
  }

  function start() {
    if (!document.body.classList.contains('kernel')) return;
    initKernel().catch((e) => {
      document.body.appendChild(el('p', 'why', 'Error: ' + e.message));
      document.body.dataset.ready = 'error';
    });
  }

  return { start, inspect: () => timing };
});

/* The entry point: every script of the page has run by DOMContentLoaded
 * (they are all deferred), so every module is defined and every data
 * script the page lists has put its value. */
document.addEventListener('DOMContentLoaded', () => TK.use('app').start());
