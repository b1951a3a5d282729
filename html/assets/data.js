/* data.js - the report's data files: loads them and keeps what they put.
 *
 * Job: data arrive as data/*.js files that call TK.put(key, value), or
 * TK.putz(key, base64) for gzip-compressed ones (report.c): Chromium
 * forbids fetch() of file:// URLs, but loads scripts from the report's own
 * folder, which the page's Content-Security-Policy allows ('self').  Every
 * answer in them was computed by libtkdump when the report was written;
 * the other modules only look them up.  Also reads jsonw.h's line lists.
 *
 * Depends on: nothing (tk.js registers it; TK.put and TK.putz call it).
 * Interface: put, putz, load(key) -> Promise, get(key), expand(list).
 */
'use strict';
TK.define('data', [], function () {
  const store = Object.create(null);
  const waiting = Object.create(null);

  function put(key, value) {
    store[key] = value;
    const w = waiting[key];
    if (w) {
      delete waiting[key];
      w.forEach((f) => f[0](value));
    }
  }

  /* Pass data and stage texts come gzip-compressed in base64 (report.c:
   * tk_report_put_z): inflated with the browser's own DecompressionStream,
   * which answers later.  Until then the key counts as under way, so that
   * load() waits for it rather than asking for its file again: the page
   * lists the first view's files (page_kernel.c), which have all run, but
   * may not all be inflated, when the page starts. */
  function putz(key, b64) {
    if (!waiting[key]) waiting[key] = [];
    let bytes;
    if (Uint8Array.fromBase64) bytes = Uint8Array.fromBase64(b64); /* native, no string of bytes in between */
    else {
      const bin = atob(b64);
      bytes = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    }
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
    new Response(stream).text().then((t) => put(key, JSON.parse(t))).catch((e) => {
      const w = waiting[key] || [];
      delete waiting[key];
      w.forEach((f) => f[1](new Error('cannot read data/' + key + '.js: ' + e.message)));
    });
  }

  /* Loads data/KEY.js once; resolves with what it put.  A file the page
   * itself listed is in (or being inflated) and is not asked for again. */
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

  /* What the page's own data scripts (files.js, meta.js) put as it loaded. */
  function get(key) {
    return store[key];
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

  return { put, putz, load, get, expand };
});
