// Owns: the web page's benchmark: the compressed size of what a browser downloads (index.html,
// style.css, app.js, etmem.js with the WebAssembly inside; gzip -9 and brotli -11, as a static
// host serves them), and the time from dropping a program on the page to the rendered report
// (the page's performance measure etmem:drop-to-report: from the drop event to the frame after
// the pools, pool check, categories, allocations, flash split and text are drawn) on a freshly
// loaded page (the first drop, what a user sees) and again on the same page, and to the
// planned-memory map and advisories drawn after it ("report+map"), in headless Chromium, for
// each program given. Prints tables; with CHECK=1 exits 1 unless every program of 64 KB or less
// (the motivating CNN) renders its report in under 100 ms and every program of 2 MB or less in
// under a second (medians). Not: building the page or the programs (web_bench.sh does).
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
let slow = false, fast = true;
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1200, height: 900 });
  const cdp = await page.createCDPSession();
  await cdp.send('Performance.enable');
  const threadTime = async () => 1000 * (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'ThreadTime').value;
  const load = async () => {
    const t0 = Date.now();
    await page.goto(pathToFileURL(path.resolve(site, 'index.html')).href);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 60000 });
    return Date.now() - t0;
  };
  const loadMs = [];
  loadMs.push(await load());
  // The file is made in the page first (not timed), then dropped: the clock starts at the drop
  // event (the page's mark etmem:drop, at the event's time stamp) and stops at etmem:report
  // (the report painted); the page measures etmem:drop-to-report between them.
  const makeFile = (bytes, name) => page.evaluate((b64, n) => {
    const bin = atob(b64), a = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) a[i] = bin.charCodeAt(i);
    window.benchFile = new File([a], n);
  }, bytes.toString('base64'), name);
  const drop = () => page.evaluate(async () => {
    const n = Number(document.body.dataset.rendered || 0);
    const dt = new DataTransfer();
    dt.items.add(window.benchFile);
    const start = performance.now();
    document.getElementById('drop').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    while (Number(document.body.dataset.rendered || 0) === n) await new Promise((r) => setTimeout(r, 1));
    const marked = performance.getEntriesByName('etmem:drop-to-report', 'measure')[0];
    return { wall: performance.now() - start, mark_ms: marked ? marked.duration : null, ...window.etmemPage.timing };
  });
  // 2a. The first drop on a freshly loaded page (what a user sees), the page reloaded each run.
  console.log('\nthe first drop after the page is ready (the page reloaded before each run; report only, the map follows):');
  console.log('program                         bytes  runs  drop-to-report ms median (min-max)  main-thread CPU ms   of which (ms): read open analyze draw paint');
  for (const program of programs) {
    const bytes = fs.readFileSync(program);
    const marks = [], cpu = [], parts = { read_ms: [], open_ms: [], analyze_ms: [], draw_ms: [], paint_ms: [] };
    for (let i = 0; i < runs; i++) {
      if (i > 0) loadMs.push(await load());
      await makeFile(bytes, path.basename(program));
      await page.evaluate(() => { window.etmemPage.settings.plan = false; });
      const before = await threadTime();
      const t = await drop();
      cpu.push((await threadTime()) - before);
      if (!t.report_ms || t.mark_ms === null) throw new Error(`${program}: the page did not render a report: ${await page.$eval('#status', (e) => e.textContent)}`);
      marks.push(t.mark_ms);
      // paint: from the report drawn in the DOM to the frame after it (layout, paint, and any
      // wait for the frame).
      t.paint_ms = t.report_ms - t.read_ms - t.open_ms - t.analyze_ms - t.draw_ms;
      for (const k of Object.keys(parts)) parts[k].push(t[k] || 0);
    }
    const m = median(marks);
    console.log(`${path.basename(program).padEnd(28)} ${String(bytes.length).padStart(8)} ${String(runs).padStart(5)}   ${m.toFixed(0).padStart(6)} (${Math.min(...marks).toFixed(0)}-${Math.max(...marks).toFixed(0)})` +
                `              ${median(cpu).toFixed(0).padStart(6)}   ` + Object.values(parts).map((xs) => median(xs).toFixed(0).padStart(7)).join(''));
    if (bytes.length <= 65536 && m >= 100) fast = false;
    if (bytes.length <= 2 * 1024 * 1024 + 65536 && m >= 1000) slow = true;
  }
  console.log(`\npage load to ready (wasm compiled, lists drawn): ${median(loadMs)} ms median of ${loadMs.length}`);
  // 2b. Dropped again on the same page, after a warm-up drop.
  console.log(`\nprogram                         bytes what       runs  drop-to-report ms median (min-max)  main-thread CPU ms   of which (ms): read open analyze draw plan`);
  for (const program of programs) {
    const bytes = fs.readFileSync(program);
    await makeFile(bytes, path.basename(program));
    // Two passes: the report alone (the map turned off), then report and map. Time from the
    // drop (the page's marks; with the map: to the map drawn), and the CPU time of the page's
    // main thread (Chromium's ThreadTime), which other work on the machine does not inflate.
    for (const plan of [false, true]) {
      await page.evaluate((p) => { window.etmemPage.settings.plan = p; }, plan);
      const wall = [], cpu = [], parts = { read_ms: [], open_ms: [], analyze_ms: [], draw_ms: [], plan_ms: [] };
      for (let i = 0; i < runs + 1; i++) {
        const before = await threadTime();
        const t = await drop();
        const used = (await threadTime()) - before;
        if (!t.report_ms) throw new Error(`${program}: the page did not render a report: ${await page.$eval('#status', (e) => e.textContent)}`);
        if (i === 0) continue;  // the first drop warms the page up
        wall.push(plan ? t.total_ms + (t.mark_ms - t.report_ms) : t.mark_ms);
        cpu.push(used);
        for (const k of Object.keys(parts)) parts[k].push(t[k] || 0);
      }
      const m = median(wall);
      console.log(`${path.basename(program).padEnd(28)} ${String(bytes.length).padStart(8)} ${(plan ? 'report+map' : 'report').padEnd(10)} ${String(runs).padStart(4)}` +
                  `   ${m.toFixed(0).padStart(6)} (${Math.min(...wall).toFixed(0)}-${Math.max(...wall).toFixed(0)})` +
                  `              ${median(cpu).toFixed(0).padStart(6)}` +
                  '   ' + Object.values(parts).map((xs) => median(xs).toFixed(0).padStart(7)).join(''));
      if (!plan && bytes.length <= 65536 && m >= 100) fast = false;
      if (!plan && bytes.length <= 2 * 1024 * 1024 + 65536 && m >= 1000) slow = true;
    }
  }
} finally {
  await browser.close();
}
if (process.env.CHECK === '1' && (slow || !fast)) {
  if (slow) console.error('web_bench: a program of about 2 MB took a second or more from drop to rendered report');
  if (!fast) console.error('web_bench: a program of 64 KB or less took 100 ms or more from drop to rendered report');
  process.exit(1);
}
