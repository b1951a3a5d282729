/* tk.js - the registry the report's scripts meet in: TK, the one global.
 *
 * Job: the pages load classic scripts, in the order the page lists them
 * (Chromium refuses ES modules, <script type="module">, on a file:// page,
 * and the report must open from file:// with no server).  Each file of
 * assets/ registers one module here, TK.define(NAME, [DEPENDENCIES],
 * FACTORY); TK.use(NAME) makes it once, calling FACTORY with the
 * interfaces of its dependencies, and returns its interface, frozen.  A
 * module keeps its state in its factory's closure: another module gets at
 * it only through the interface (asks, or is handed it as an argument).
 * The data files (data/*.js) call TK.put and TK.putz, which hand their
 * value to the 'data' module.  TK itself is frozen: nothing can be hung on
 * it, or on window through it.
 *
 * Depends on: nothing (every page lists it first).
 */
'use strict';
(function () {
  const defs = Object.create(null); /* name -> {deps, factory} */
  const made = Object.create(null); /* name -> its interface */
  const making = new Set();

  function define(name, deps, factory) {
    if (defs[name]) throw new Error('TK: module ' + name + ' is defined twice');
    defs[name] = { deps, factory };
  }

  function use(name) {
    if (made[name]) return made[name];
    const d = defs[name];
    if (!d) throw new Error('TK: no module ' + name + ' (is its script listed in the page?)');
    if (making.has(name)) throw new Error('TK: modules depend on each other in a circle, through ' + name);
    making.add(name);
    try {
      made[name] = Object.freeze(d.factory(...d.deps.map(use)));
    } finally {
      making.delete(name);
    }
    return made[name];
  }

  window.TK = Object.freeze({
    define,
    use,
    put: (key, value) => use('data').put(key, value),
    putz: (key, b64) => use('data').putz(key, b64),
  });
})();
