// Owns: the web page's benchmark: the compressed size of what a browser downloads (index.html,
// style.css, app.js, etmem.js with the WebAssembly inside; gzip -9 and brotli -11, as a static
// host serves them), and the time from dropping a program on the page to the rendered report
// (drop event to the frame after the pools, pool check, categories, allocations, flash split and
// text are drawn: "report") and to the planned-memory map and advisories drawn after it ("to
// map"), in headless Chromium, for each program given. Prints a table; with CHECK=1 exits 1
// unless every program of 2 MB or less renders its report in under a second (median). Not: building the page or the programs (web_bench.sh does).
//
//   node bench/web_bench.mjs SITE_DIR RUNS PROGRAM.pte...
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const require = createRequire(new URL('../web/package.json', import.meta.url));
const puppeteer = require('puppeteer-core');

const [site, runsArg, ...programs] = process.argv.slice(2);
if (!site || !programs.length) {
  console.error('usage: node bench/web_bench.mjs SITE_DIR RUNS PROGRAM.pte...');
  process.exit(2);
}
const runs = Number(runsArg) || 10;

// 1. Download size.
let raw = 0, gz = 0, br = 0;
console.log('file               bytes     gzip -9  brotli -11');
for (const f of ['index.html', 'style.css', 'app.js', 'etmem.js']) {
  const b = fs.readFileSync(path.join(site, f));
  const g = zlib.gzipSync(b, { level: 9 }).length;
  const r = zlib.brotliCompressSync(b, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  raw += b.length; gz += g; br += r;
  console.log(`${f.padEnd(14)} ${String(b.length).padStart(9)} ${String(g).padStart(11)} ${String(r).padStart(11)}`);
}
console.log(`${'total'.padEnd(14)} ${String(raw).padStart(9)} ${String(gz).padStart(11)} ${String(br).padStart(11)}`);

// 2. Drop to rendered report.
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
         '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
});
let slow = false;
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1200, height: 900 });
  const cdp = await page.createCDPSession();
  await cdp.send('Performance.enable');
  const threadTime = async () => 1000 * (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'ThreadTime').value;
  const t0 = Date.now();
  await page.goto(pathToFileURL(path.resolve(site, 'index.html')).href);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 60000 });
  console.log(`\npage load to ready (wasm compiled, lists drawn): ${Date.now() - t0} ms`);
  console.log(`\nprogram                         bytes what       runs  wall ms median (min-max)  main-thread CPU ms   of which (wall ms): read open analyze draw plan`);
  for (const program of programs) {
    const bytes = fs.readFileSync(program);
    // The file is made in the page first (not timed), then dropped: the clock starts at the drop.
    await page.evaluate((b64, name) => {
      const bin = atob(b64), a = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) a[i] = bin.charCodeAt(i);
      window.benchFile = new File([a], name);
    }, bytes.toString('base64'), path.basename(program));
    // Two passes: the report alone (the map turned off), then report and map. Wall time from the
    // drop, and the CPU time of the page's main thread (Chromium's ThreadTime), which other
    // work on the machine does not inflate.
    for (const plan of [false, true]) {
      await page.evaluate((p) => { window.etmemPage.settings.plan = p; }, plan);
      const wall = [], cpu = [], parts = { read_ms: [], open_ms: [], analyze_ms: [], draw_ms: [], plan_ms: [] };
      for (let i = 0; i < runs + 1; i++) {
        const before = await threadTime();
        const t = await page.evaluate(async () => {
          const n = Number(document.body.dataset.rendered || 0);
          const dt = new DataTransfer();
          dt.items.add(window.benchFile);
          const start = performance.now();
          document.getElementById('drop').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
          while (Number(document.body.dataset.rendered || 0) === n) await new Promise((r) => setTimeout(r, 1));
          return { wall: performance.now() - start, ...window.etmemPage.timing };
        });
        const used = (await threadTime()) - before;
        if (!t.report_ms) throw new Error(`${program}: the page did not render a report: ${await page.$eval('#status', (e) => e.textContent)}`);
        if (i === 0) continue;  // the first drop warms the page up
        wall.push(plan ? t.total_ms : t.report_ms);
        cpu.push(used);
        for (const k of Object.keys(parts)) parts[k].push(t[k] || 0);
      }
      const m = median(wall);
      console.log(`${path.basename(program).padEnd(28)} ${String(bytes.length).padStart(8)} ${(plan ? 'report+map' : 'report').padEnd(10)} ${String(runs).padStart(4)}` +
                  `   ${m.toFixed(0).padStart(6)} (${Math.min(...wall).toFixed(0)}-${Math.max(...wall).toFixed(0)})` +
                  `  ${median(cpu).toFixed(0).padStart(6)}` +
                  '   ' + Object.values(parts).map((xs) => median(xs).toFixed(0).padStart(7)).join(''));
      if (!plan && bytes.length <= 2 * 1024 * 1024 + 65536 && m >= 1000) slow = true;
    }
  }
} finally {
  await browser.close();
}
if (process.env.CHECK === '1' && slow) {
  console.error('web_bench: a program of about 2 MB took a second or more from drop to rendered report');
  process.exit(1);
}
