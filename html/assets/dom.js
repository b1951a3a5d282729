/* dom.js - small helpers that build the page's elements and texts.
 *
 * Job: elements with a class and a text (textContent, or markup built
 * with esc(): dump text never becomes markup), SVG elements, a path's last part, byte counts.
 *
 * Depends on: nothing.
 * Interface: el(tag, cls, text), esc(text), svgEl(tag, attrs), base(path), fmtBytes(n).
 */
'use strict';
TK.define('dom', [], function () {
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  /* TEXT as HTML text or attribute value: the characters the parser would
   * read as markup or change (a carriage return) written as references,
   * so that markup built from dump text shows it as text. */
  const ESC = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '\r': '&#13;' };
  function esc(text) {
    return String(text).replace(/[&<>"'\r]/g, (c) => ESC[c]);
  }
  function svgEl(tag, attrs) {
    const e = document.createElementNS('http://www.w3.org/2000/svg', tag);
    for (const k in attrs) e.setAttribute(k, String(attrs[k]));
    return e;
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
  return { el, esc, svgEl, base, fmtBytes };
});
