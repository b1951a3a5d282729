// browser.mjs - what the Chromium tests of the report share (test_report.mjs,
// test_smoke.mjs and the others): Debian's Chromium started headless through
// playwright-core (run_browser.sh installs it and passes its path), pages
// that record what must never happen, and clicking a line of a code pane.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/* Chromium, from the playwright-core index at PW (a path). */
export async function launch(pw) {
  const { chromium } = await import(pathToFileURL(pw).href);
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    // launch() gives every run a new, empty profile folder of its own
  });
}

/* A page at URL that records in page.problems what should never happen:
 * script errors, console errors (CSP reports among them), requests that
 * leave file://. */
export async function open(browser, url, viewport = { width: 1500, height: 850 }) {
  const page = await browser.newPage({ viewport });
  page.problems = [];
  page.on('pageerror', (e) => page.problems.push('pageerror: ' + e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') page.problems.push('console: ' + m.text());
  });
  page.on('request', (r) => {
    if (!r.url().startsWith('file://')) page.problems.push('request: ' + r.url());
  });
  await page.goto(url);
  return page;
}

/* The file:// address of the first kernel's page of the report in OUT,
 * with HASH (a fragment, '#...') after it. */
export function kernelUrl(out, hash = '') {
  const page = fs.readdirSync(out).find((x) => /^k001-.*\.html$/.test(x));
  return pathToFileURL(path.join(out, page)).href + hash;
}

/* open(), then, for a kernel page, until its data is in (body[data-ready]);
 * an index page has none to wait for. */
export async function openReady(browser, url, viewport) {
  const page = await open(browser, url, viewport);
  if (!url.includes('index.html')) await page.waitForSelector('body[data-ready="1"]', { timeout: 20000 });
  return page;
}

/* Clicks line N of PANE ('src-pane', 'ir-pane', 'ir2-pane'), scrolling it
 * into the rendered window first (the panes draw only what is in view). */
export async function clickLine(page, pane, n) {
  await page.evaluate(([pane, n]) => {
    const code = document.querySelector(`#${pane} .code`);
    /* the row of line N: lines that only state a location may be folded */
    const row = code.tkRowOf ? code.tkRowOf(n) : n;
    code.scrollTop = Math.max(0, (row - 10) * 18);
  }, [pane, n]);
  await page.waitForSelector(`#${pane} .ln[data-n="${n}"]`);
  await page.click(`#${pane} .ln[data-n="${n}"] .tx`, { position: { x: 2, y: 5 } });
}

/* Every row of the pass diff shown, [kind, aLine, aText, bLine, bText] with
 * kind e (context), d, i or r (a side a row lacks has line 0 and text ''; a
 * side cut for drawing is read whole from its title), read off the page: the diff pane
 * draws only the rows in view (diffview.js), so it is scrolled from top to
 * bottom, a screenful at a time, and back to the top. */
export async function diffRows(page) {
  return page.evaluate(async () => {
    const box = document.getElementById('pass-rows');
    const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const rows = new Map();
    const grab = () => {
      for (const e of box.querySelectorAll('.drow'))
        rows.set(+e.dataset.k, [e.className.split(' ')[1], +e.children[0].textContent || 0,
          e.children[1].title || e.children[1].textContent, +e.children[2].textContent || 0,
          e.children[3].title || e.children[3].textContent]);
    };
    box.scrollTop = 0;
    await frame();
    grab();
    for (let y = box.clientHeight; y < box.scrollHeight; y += box.clientHeight) {
      box.scrollTop = y;
      await frame();
      grab();
    }
    box.scrollTop = 0;
    await frame();
    return [...rows.entries()].sort((a, b) => a[0] - b[0]).map((e) => e[1]);
  });
}
