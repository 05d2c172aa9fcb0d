// Owns: the web page's browser test (ctest web_page_in_chromium): Debian's headless Chromium,
// driven by puppeteer-core, loads the built page from file://, opens the motivating CNN through
// the file picker, chooses 0.3 / cortex-m / pool 4096 and checks the page shows 4266 B and the
// exact failure line; checks the downloads (JSON, C header, re-planned program) against the
// command line's output; drops a linked Arm image (.elf) and checks the page shows `etmem
// firmware`'s report (skipped without arm-none-eabi-g++); compares the page's fit (board selector) with `etmem fit` for the CNN on
// every board and a few real programs on two, and --temp-pool at main with the CLI; compares the
// page's JSON with the command line's for every real program in ../shared/models/real at every
// release on cortex-m and x86_64 (skipped, saying so, when ../shared is absent); checks no
// network request was made, from file:// and from a static host (node's http on 127.0.0.1: its
// own files only); saves screenshots (the board's fit too) in the output folder (and into
// docs/images/ with --update-docs). Not: the page (web/), etmem.
//
//   node web/test/browser_test.mjs --site BUILD/web-wasm/site --etmem BUILD/tools/etmem/etmem
//        --cnn BUILD/examples/cnn.pte --shared ../shared --out BUILD/web-test [--update-docs DIR]
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { pathToFileURL } from 'node:url';
import puppeteer from 'puppeteer-core';

const args = {};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
for (const k of ['site', 'etmem', 'cnn', 'out'])
  if (!args[k]) { console.error(`browser_test: --${k} is required`); process.exit(2); }
args.etmem = path.resolve(args.etmem);
fs.mkdirSync(args.out, { recursive: true });

let passed = 0, failed = 0;
function check(ok, what, detail) {
  if (ok) { passed++; return true; }
  failed++;
  console.error(`FAIL: ${what}${detail ? `\n  ${detail}` : ''}`);
  return false;
}
// The command line's stdout (its exit code says whether the pool fits: 1 and 2 are answers here).
function cli(argv, cwd) {
  try {
    return execFileSync(args.etmem, argv, { cwd, maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    if (e.status === 1 || e.status === 2) return e.stdout;
    throw e;
  }
}

const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
         '--disable-component-update', '--disable-sync', '--disable-quic', '--disable-dev-shm-usage'],
});
const requests = [];
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1200, height: 900 });
  page.on('request', (r) => requests.push(r.url()));
  page.on('pageerror', (e) => check(false, 'the page throws no error', e.message));
  const cdp = await page.createCDPSession();
  const downloads = path.join(args.out, 'downloads');
  fs.rmSync(downloads, { recursive: true, force: true });
  fs.mkdirSync(downloads, { recursive: true });
  await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: path.resolve(downloads) });

  await page.goto(pathToFileURL(path.resolve(args.site, 'index.html')).href);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 60000 });
  const releases = await page.$$eval('#runtime option', (os) => os.map((o) => o.value));

  // 0. The page starts on the command line's defaults: `etmem analyze` without --runtime,
  // --target, --pool-align or --temp (its JSON says which release and target that is).
  {
    const defaults = JSON.parse(cli(['analyze', path.resolve(args.cnn), '--format', 'json']).toString());
    const shownDefaults = await page.evaluate(() => Object.fromEntries(
      ['runtime', 'target', 'pool_align', 'temp', 'runner', 'pool', 'temp_pool'].map((id) => [id, document.getElementById(id).value])));
    check(shownDefaults.runtime === defaults.runtime && !defaults.runtime.startsWith('main'),
          "the page starts on the command line's default release (not main)", `page: ${shownDefaults.runtime}, cli: ${defaults.runtime}`);
    check(shownDefaults.target === defaults.target, "the page starts on the command line's default target",
          `page: ${shownDefaults.target}, cli: ${defaults.target}`);
    check(shownDefaults.pool_align === '' && shownDefaults.temp === 'runner' && shownDefaults.runner === '' &&
          shownDefaults.pool === '' && shownDefaults.temp_pool === '',
          "the page's other options start on the command line's defaults (the target's alignment, the runner's temp allocator)",
          JSON.stringify(shownDefaults));
  }

  // Opens a program through the file picker, as a user does; waits until it is drawn.
  let opened = 0;
  async function open(file) {
    const input = await page.$('#file');
    await input.uploadFile(file);
    opened++;
    await page.waitForSelector(`body[data-rendered="${opened}"]`, { timeout: 60000 });
  }
  async function choose(id, value) {
    await page.$eval(`#${id}`, (e, v) => { e.value = v; e.dispatchEvent(new Event('change')); }, value);
  }

  // 1. The motivating CNN at 0.3 / cortex-m / pool 4096.
  await open(args.cnn);
  await choose('runtime', '0.3.0');
  await choose('target', 'cortex-m');
  await choose('pool', '4096');
  await page.waitForFunction(() => document.querySelector('#map').srcdoc !== '', { timeout: 60000 });
  const shown = await page.evaluate(() => ({
    pool: document.querySelector('.pool-bytes')?.textContent,
    failure: document.querySelector('.failure-line')?.textContent,
    check: document.querySelector('#pool-check')?.innerText,
    text: document.querySelector('#text').textContent,
    status: document.querySelector('#status').textContent,
    map: document.querySelector('#map').srcdoc,
  }));
  check(shown.pool === '4266 B', 'the page shows 4266 B for the motivating CNN at 0.3 / cortex-m', `shown: ${shown.pool}`);
  const kFailure = 'Memory allocation failed: 48B requested (adjusted for alignment), 44B available';
  check(shown.failure === kFailure, 'the page shows the exact failure line of a 4096 B pool', `shown: ${shown.failure}`);
  check(/DOES NOT LOAD/.test(shown.check || ''), 'the pool check says the 4096 B pool does not load', shown.check);
  const cnnDir = path.dirname(path.resolve(args.cnn)), cnnName = path.basename(args.cnn);
  const model = ['--runtime', '0.3', '--target', 'cortex-m'];
  const cliText = cli(['analyze', cnnName, ...model, '--pool', '4096'], cnnDir).toString();
  check(shown.text === cliText, "the page's text report equals `etmem analyze`'s",
        `page:\n${shown.text}\ncli:\n${cliText}`);
  check(/<svg class="timeline"/.test(shown.map), 'the page draws the planned-memory map (SVG timelines)');
  check(shown.map === cli(['plan', cnnName, ...model, '--format', 'html'], cnnDir).toString(),
        "the page's planned-memory map is `etmem plan --format html`'s");

  // The allocation table: every allocation, sortable and filterable.
  const rowsOf = () => page.$$eval('#allocations tr', (trs) => trs.slice(1).map((tr) => [...tr.children].map((td) => td.textContent)));
  const cliJson = JSON.parse(cli(['analyze', cnnName, ...model, '--pool', '4096', '--format', 'json'], cnnDir).toString());
  const allocations = cliJson.methods[0].method_allocator.allocations;
  check((await rowsOf()).length === allocations.length, 'the table lists every allocation', `${(await rowsOf()).length} rows`);
  await page.click('#allocations th[data-key="size"]');
  await page.click('#allocations th[data-key="size"]');
  const bySize = await rowsOf();
  check(Number(bySize[0][2]) === Math.max(...allocations.map((a) => a.size)), 'sorting by size (twice: descending) puts the largest first');
  await page.type('#filter', 'permute');
  const filtered = await rowsOf();
  check(filtered.length > 0 && filtered.length < allocations.length && filtered.every((r) => r.join(' ').includes('permute')),
        'the filter keeps only the matching allocations', `${filtered.length} rows`);
  await page.$eval('#filter', (e) => { e.value = ''; e.dispatchEvent(new Event('input')); });

  // The per-operator table: the rows and totals `etmem analyze --per-op --format json` gives for the
  // same options (the CLI's output, read here), in execution order; the rows add up to the totals;
  // clicking a column sorts by it.
  {
    const perOpCli = JSON.parse(cli(['analyze', cnnName, ...model, '--pool', '4096', '--per-op', '--format', 'json'], cnnDir).toString());
    const perOpPage = await page.evaluate(() => window.etmemPage.perOp());
    check(isDeepStrictEqual(perOpPage, perOpCli), "the page's per-operator value is `etmem analyze --per-op --format json`'s");
    const perOpRows = () => page.$$eval('#per-op table.per-op', (ts) => ts.map((t) =>
      [...t.querySelectorAll('tr')].slice(1).map((tr) => [...tr.children].map((td) => td.textContent))));
    const tables = await perOpRows();
    const dash = '\u2014';
    const cells = (r) => [String(r.index), `${r.chain}:${r.chain_instruction}`, r.kind, r.operator ?? dash, r.library ?? dash,
      String(r.live_planned_bytes), r.temp_unknown === null ? String(r.temp_bytes) : r.temp_bytes ? `>=${r.temp_bytes} (unknown)` : 'unknown',
      String(r.constant_bytes), r.stack_bytes === null ? dash : String(r.stack_bytes)];
    check(tables.length === perOpCli.per_op.length && tables.length > 0, 'the page draws a per-operator table per method',
          `${tables.length} / ${perOpCli.per_op.length}`);
    perOpCli.per_op.forEach((t, i) => {
      const shownRows = (tables[i] || []).slice(0, -1), totalRow = (tables[i] || []).slice(-1)[0] || [];
      check(shownRows.length === t.rows.length && t.rows.length > 0, `per-op '${t.method}': one row per instruction`,
            `${shownRows.length} / ${t.rows.length}`);
      check(isDeepStrictEqual(shownRows, t.rows.map(cells)), `per-op '${t.method}': every row's cells are the CLI's values, in execution order`,
            `${JSON.stringify(shownRows.slice(0, 3))} / ${JSON.stringify(t.rows.slice(0, 3).map(cells))}`);
      const s = t.totals;
      check(totalRow[0] === 'total' && totalRow[5].startsWith(`${s.peak_live_planned_bytes} peak`) &&
            totalRow[6].startsWith(`${s.temp_unknown_rows ? '>=' : ''}${s.temp_peak_bytes} ${s.temp_summed ? 'sum' : 'peak'}`) &&
            totalRow[7] === `${s.constant_bytes} read`,
            `per-op '${t.method}': the totals row is the CLI's totals`, `${JSON.stringify(totalRow)} / ${JSON.stringify(s)}`);
      // The rows add up to the totals (the library's own consistency, seen through the page).
      const sum = (k) => t.rows.reduce((a, r) => a + r[k], 0), max = (k) => Math.max(...t.rows.map((r) => r[k]));
      check(sum('constant_bytes') === s.constant_column_bytes && max('live_planned_bytes') === s.peak_live_planned_bytes &&
            (s.temp_summed ? sum('temp_bytes') : max('temp_bytes')) === s.temp_peak_bytes &&
            s.planned_bytes === cliJson.methods.find((m) => m.name === t.method).planned_buffers.reduce((a, b) => a + b, 0),
            `per-op '${t.method}': the rows add up to the totals, and the planned bytes are the report's`);
    });
    // Sorting: by live planned bytes (largest first), then again (smallest first), then by index.
    await page.click('#per-op th[data-key="live_planned_bytes"]');
    const byLive = (await perOpRows())[0].slice(0, -1);
    const live = byLive.map((r) => Number(r[5].split(' ')[0]));
    check(live.every((v, k) => k === 0 || live[k - 1] >= v) && Number(byLive[0][5].split(' ')[0]) === perOpCli.per_op[0].totals.peak_live_planned_bytes,
          'clicking "live planned B" sorts the per-op rows largest first', JSON.stringify(live));
    check(!isDeepStrictEqual(byLive.map((r) => r[0]), tables[0].slice(0, -1).map((r) => r[0])), 'sorting changes the per-op rows\' order');
    await page.click('#per-op th[data-key="live_planned_bytes"]');
    const ascending = (await perOpRows())[0].slice(0, -1).map((r) => Number(r[5].split(' ')[0]));
    check(ascending.every((v, k) => k === 0 || ascending[k - 1] <= v), 'clicking it again sorts smallest first', JSON.stringify(ascending));
    await page.click('#per-op th[data-key="operator"]');
    const ops = (await perOpRows())[0].slice(0, -1).map((r) => r[3]);
    check(ops.every((v, k) => k === 0 || ops[k - 1] <= v), 'clicking "operator" sorts by the operator\'s name', JSON.stringify(ops));
    await page.click('#per-op th[data-key="index"]');
    check(isDeepStrictEqual((await perOpRows())[0], tables[0]), 'clicking "#" brings back execution order');
  }

  // The RAM total: every part with its source, and the total, as `etmem summary --format json` gives them.
  {
    const summary = JSON.parse(cli(['summary', cnnName, ...model, '--format', 'json'], cnnDir).toString());
    const ram = await page.$$eval('#ram table.ram-lines', (ts) => ts.map((t) =>
      [...t.querySelectorAll('tr')].slice(1).map((tr) => [...tr.children].map((td) => td.textContent))));
    check(ram.length === summary.methods.length, 'the page shows a RAM total per method', `${ram.length}`);
    summary.methods.forEach((m, i) => {
      const rows = ram[i] || [];
      const byPart = Object.fromEntries(rows.map((r) => [r[0], r]));
      const temp = m.temp_pool_is_run_peak ? 'temp run-time peak' : 'temp load peak';
      check(byPart['method pool']?.[1].endsWith(`${m.method_pool_bytes} B`) && byPart['planned buffers']?.[1] === `${m.planned_bytes} B` &&
            byPart[temp]?.[1].endsWith(`${m.temp_pool_bytes} B`),
            `RAM of '${m.name}': the method pool, planned buffers and temp pool lines are summary's`, JSON.stringify(rows));
      check(rows.slice(0, -1).every((r) => r[2].length > 0), `RAM of '${m.name}': every line names its source`);
      check(isDeepStrictEqual(rows.slice(0, -1).map((r) => r[2]), m.ram.lines.map((l) => l.source)),
            `RAM of '${m.name}': the sources are the library's (summary's ram.lines), not the page's own`, JSON.stringify(rows));
      const total = rows[rows.length - 1] || [];
      check(total[0] === 'RAM total' && total[1].endsWith(`${m.ram_bytes} B`) && /exact|lower bound/.test(total[3]),
            `RAM of '${m.name}': the total is summary's ram_bytes`, JSON.stringify(total));
      check(m.method_pool_bytes + m.planned_bytes + m.temp_pool_bytes === m.ram_bytes, `RAM of '${m.name}': the lines add up to the total`);
    });
  }

  // No text the library rendered is parsed by the page (issue 40; tests/house/architecture_test.cpp holds it too).
  {
    const appCode = fs.readFileSync(path.join(args.site, 'app.js'), 'utf8').split('\n').map((l) => l.replace(/\/\/.*$/, '')).join('\n');
    check(!/JSON\s*\.\s*parse|\beval\s*\(/.test(appCode), "the page's app.js parses no JSON text");
  }

  // Screenshots: the report, the map, the failing pool (the map once its frame has drawn the SVG).
  const mapFrame = await (await page.$('#map')).contentFrame();
  check(mapFrame && await mapFrame.waitForSelector('svg.timeline', { timeout: 60000 }).then(() => true, () => false),
        'the map frame draws its SVG timelines');
  // (the sandboxed frame runs no script: let the page paint twice, and give the frame time)
  const painted = async () => {
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    await new Promise((resolve) => setTimeout(resolve, 300));
  };
  const shots = {};
  // The map first: the frame's pixels come only with a plain capture of the viewport (an element
  // or clipped capture leaves it blank), the page scrolled to the map's section.
  await page.$eval('#map', (e) => e.parentElement.scrollIntoView());
  await painted();
  shots.map = path.join(args.out, 'web-map.png');
  await page.screenshot({ path: shots.map });
  await page.evaluate(() => window.scrollTo(0, 0));
  await painted();
  shots.report = path.join(args.out, 'web-report.png');
  await page.screenshot({ path: shots.report });
  shots.failing_pool = path.join(args.out, 'web-failing-pool.png');
  await (await page.$('#pools')).screenshot({ path: shots.failing_pool });
  if (args['update-docs']) {
    fs.mkdirSync(args['update-docs'], { recursive: true });
    for (const f of Object.values(shots)) fs.copyFileSync(f, path.join(args['update-docs'], path.basename(f)));
  }

  // 2. The downloads equal the command line's output.
  async function download(id, name) {
    const file = path.join(downloads, name);
    fs.rmSync(file, { force: true });
    await page.click(`#${id}`);
    for (let i = 0; i < 200 && !fs.existsSync(file); i++) await new Promise((r) => setTimeout(r, 50));
    return fs.existsSync(file) ? fs.readFileSync(file) : null;
  }
  const stem = cnnName.replace(/\.pte$/, '');
  const json = await download('download-json', `${stem}.etmem.json`);
  check(json && json.equals(cli(['analyze', cnnName, ...model, '--pool', '4096', '--format', 'json'], cnnDir)),
        "the JSON download is `etmem analyze --format json`'s, byte for byte");
  const header = await download('download-header', 'etmem_pools.h');
  const cliHeader = path.resolve(args.out, 'etmem_pools.h');
  cli(['header', cnnName, ...model, '-o', cliHeader], cnnDir);
  check(header && header.equals(fs.readFileSync(cliHeader)),
        "the C header download is `etmem header`'s, byte for byte");
  const replanned = path.join(args.out, 'cnn.replanned.pte');
  cli(['replan', cnnName, '-o', path.resolve(replanned)], cnnDir);
  const replan = await download('download-replan', `${stem}.replanned.pte`);
  check(replan && replan.equals(fs.readFileSync(replanned)), 'the re-planned program download is `etmem replan`\'s, byte for byte');

  // Every built-in runner at its newest release: the page's JSON is the CLI's, and the page
  // draws the runner's pools.
  await open(args.cnn);
  const runners = await page.$$eval('#runner option', (os) => os.map((o) => o.value).filter((v) => v));
  const runnerInfo = await page.evaluate(() => window.etmemPage.runners);
  for (const runner of runners) {
    const info = runnerInfo.find((r) => r.name === runner);
    const o = { runtime: info.last_release, target: 'cortex-m', runner, pool: 4096 };
    const expected = cli(['analyze', cnnName, '--runtime', o.runtime, '--target', 'cortex-m', '--runner', runner,
                          '--pool', '4096', '--format', 'json'], cnnDir).toString();
    const got = await page.evaluate((opts) => window.etmemPage.analyze(opts), o);
    check(isDeepStrictEqual(got, JSON.parse(expected)), `runner ${runner} at ${o.runtime}: the page's report is the CLI's JSON`);
  }
  await choose('runtime', runnerInfo[0].last_release);
  // --kernels (the page reads every option through the one options schema): the JSON is the CLI's,
  // as a call and typed in the page.
  {
    const kernels = ['portable', 'optimized'];
    const expected = cli(['analyze', cnnName, '--runtime', runnerInfo[0].last_release, '--kernels', kernels.join(','),
                          '--format', 'json'], cnnDir).toString();
    const got = await page.evaluate((opts) => window.etmemPage.analyze(opts),
                                    { runtime: runnerInfo[0].last_release, kernels });
    check(isDeepStrictEqual(got, JSON.parse(expected)), 'kernels portable,optimized: the page\'s report is the CLI\'s JSON');
    await choose('kernels', kernels.join(', '));  // typed in the page (its pool field stays as it is)
    const pool = await page.$eval('#pool', (e) => e.value);
    const pageText = await page.$eval('#text', (e) => e.textContent);
    check(pageText === cli(['analyze', cnnName, '--runtime', runnerInfo[0].last_release, '--kernels', kernels.join(','),
                            ...(pool ? ['--pool', pool] : [])], cnnDir).toString(),
          'kernels typed in the page: its text report is the CLI\'s');
    await choose('kernels', '');
  }
  await choose('runner', runners[0]);
  const runnerRows = await page.$$eval('.runner table tr', (trs) => trs.length - 1);
  check(runners.length > 0 && runnerRows > 0, `with runner ${runners[0]} the page lists its pools`, `${runnerRows} rows`);
  await choose('runner', '');

  // Boards: the page's fit is `etmem fit`'s (its text byte for byte, its verdict and free bytes
  // per region as the text gives them) for a few programs x boards, through the selector once.
  const boards = await page.$$eval('#board option', (os) => os.map((o) => o.value).filter((v) => v));
  check(boards.length > 0, 'the page lists the built-in boards', boards.join(', '));
  const cliBoards = JSON.parse(cli(['list', 'boards', '--format', 'json']).toString()).boards.map((b) => b.name);
  check(isDeepStrictEqual(boards, cliBoards), "the page's boards are `etmem list boards`'", `${boards} / ${cliBoards}`);
  // What the text says of each region after placement and the verdict, to hold the drawn table to.
  function fitFigures(text) {
    const after = text.split('Free after placement:\n')[1] || '';
    const regions = [];
    for (const line of after.split('\n')) {
      const m = line.match(/^  (\S+)\s+(\d+) B (free of|OVER its) (\d+) B$/);
      if (m) regions.push([m[1], m[3] === 'free of' ? `${m[2]} B` : `${m[2]} B OVER`]);
    }
    const short = text.match(/^does not fit: (\d+) bytes short/m);
    return { regions, verdict: /^fits$/m.test(text) ? 'fits' : short ? `does not fit: ${short[1]} bytes short` : '?' };
  }
  // The page analyses with `opts` (what the CLI's `model` flags say), then fits on `board`.
  let fits = 0;
  async function compareFit(dir, name, model, opts, board, label) {
    fits++;
    const want = spawnSync(args.etmem, ['fit', name, '--board', board, ...model], { cwd: dir, encoding: 'utf8' });
    const got = await page.evaluate((o, b) => {
      try {
        window.etmemPage.analyze(o);
        return window.etmemPage.fit({ board: b });
      } catch (e) { return { error: e.message }; }
    }, opts, board);
    if (want.status !== 0 && want.stdout === '') {  // refused: one line (the page: the first)
      const first = want.stderr.split('\n')[0];
      check(got.error && `etmem: ${got.error}` === first, `${label} on ${board}: the page refuses the fit with the CLI's line`,
            `page: ${got.error}\ncli:  ${first}`);
      return;
    }
    check(got.text === want.stdout, `${label} on ${board}: the page's fit is \`etmem fit\`'s, byte for byte`,
          `page:\n${got.text}\ncli:\n${want.stdout}`);
    check(got.fits === (want.status === 0), `${label} on ${board}: fits as the CLI's exit code says`);
    const figures = fitFigures(want.stdout);
    const shown = got.regions.map((r) => [r.name, r.used_bytes <= r.free_bytes ? `${r.free_bytes - r.used_bytes} B` : `${r.used_bytes - r.free_bytes} B OVER`]);
    check(isDeepStrictEqual(shown, figures.regions), `${label} on ${board}: free bytes per region as the CLI prints them`,
          `${JSON.stringify(shown)} / ${JSON.stringify(figures.regions)}`);
    check((got.fits ? 'fits' : `does not fit: ${got.short_bytes} bytes short`) === figures.verdict,
          `${label} on ${board}: the verdict is the CLI's`, figures.verdict);
  }
  // The CNN on every board at the newest published release (no pool check, no runner); with the
  // Arm runner on the Corstone boards.
  const newest = releases.filter((r) => !r.startsWith('main-')).pop();
  await open(args.cnn);
  await choose('pool', '');
  for (const board of boards)
    await compareFit(cnnDir, cnnName, ['--runtime', newest], { runtime: newest }, board, 'the CNN');
  const armRelease = runnerInfo.find((r) => r.name === 'arm-baremetal')?.last_release;
  if (check(armRelease, 'the page offers the arm-baremetal runner')) {
    for (const board of boards.filter((b) => b.startsWith('corstone')))
      await compareFit(cnnDir, cnnName, ['--runtime', armRelease, '--runner', 'arm-baremetal'],
                       { runtime: armRelease, runner: 'arm-baremetal' }, board, `the CNN with arm-baremetal at ${armRelease}`);
  }
  // Through the selector: the drawn verdict and free bytes are the CLI's.
  await choose('runtime', '0.3.0');
  await choose('board', boards[0]);
  const drawnFit = await page.evaluate(() => ({
    verdict: document.querySelector('#fit-verdict strong')?.textContent,
    regions: [...document.querySelectorAll('#fit-regions tr')].slice(1).map((tr) => [tr.children[0].textContent, tr.children[3].textContent]),
    text: document.querySelector('#fit-text')?.textContent,
    hidden: document.querySelector('#fit-section').hidden,
  }));
  const cliFit = spawnSync(args.etmem, ['fit', cnnName, '--board', boards[0], '--runtime', '0.3'], { cwd: cnnDir, encoding: 'utf8' }).stdout;
  const cliFigures = fitFigures(cliFit);
  check(!drawnFit.hidden && drawnFit.text === cliFit, `choosing board ${boards[0]} draws \`etmem fit\`'s text`);
  check(drawnFit.verdict === cliFigures.verdict && isDeepStrictEqual(drawnFit.regions, cliFigures.regions),
        `board ${boards[0]}: the drawn verdict and free bytes per region are the CLI's`,
        `${JSON.stringify(drawnFit)} / ${JSON.stringify(cliFigures)}`);
  // With the board chosen, the RAM total shows the placement in the board's regions (fit's figures).
  const ramRegions = await page.$$eval('#ram-regions tr', (trs) => trs.slice(1).map((tr) => [tr.children[0].textContent, tr.children[1].textContent]));
  const fitNow = await page.evaluate((b) => window.etmemPage.fit({ board: b }), boards[0]);
  check(ramRegions.length > 0 && isDeepStrictEqual(ramRegions, fitNow.regions.map((r) => [r.name, `${r.used_bytes} B`])),
        `board ${boards[0]}: the RAM total is placed in the board's regions as fit places it`, JSON.stringify(ramRegions));
  const boardShot = path.join(args.out, 'web-board.png');
  await page.$eval('#fit-section', (e) => e.scrollIntoView());
  await painted();
  await (await page.$('#fit-section')).screenshot({ path: boardShot });
  if (args['update-docs']) fs.copyFileSync(boardShot, path.join(args['update-docs'], path.basename(boardShot)));
  await page.evaluate(() => window.scrollTo(0, 0));
  await choose('board', '');
  // A few real programs x a few boards (when ../shared is present): the largest boards and the smallest.
  const realDir = args.shared ? path.join(args.shared, 'models', 'real') : null;
  if (realDir && fs.existsSync(realDir)) {
    const some = fs.readdirSync(realDir).filter((f) => f.endsWith('.pte')).sort()
      .map((f) => [f, fs.statSync(path.join(realDir, f)).size]).sort((a, b) => a[1] - b[1]).slice(0, 3).map(([f]) => f);
    for (const name of some) {
      await open(path.join(realDir, name));
      if (await page.$eval('#report', (e) => e.hidden)) continue;  // refused as a whole (compared below)
      for (const board of [boards[0], boards[boards.length - 1]])
        await compareFit(realDir, name, ['--runtime', newest], { runtime: newest }, board, name);
    }
    await open(args.cnn);
  }

  console.log(`compared ${fits} (program, options, board) fits with \`etmem fit\``);

  // main's temp fallback: --temp-pool at the snapshot of main, the page's JSON and text the CLI's.
  const mainRelease = releases.find((r) => r.startsWith('main-'));
  if (check(mainRelease, 'the page offers a snapshot of main')) {
    for (const tempPool of ['64', '512']) {
      await choose('runtime', mainRelease);
      await choose('temp_pool', tempPool);
      const pageText = await page.$eval('#text', (e) => e.textContent);
      const flags = ['--runtime', 'main', '--temp-pool', tempPool];
      check(pageText === cli(['analyze', cnnName, ...flags], cnnDir).toString(),
            `temp pool ${tempPool} at main: the page's text report is the CLI's`);
      const got = await page.evaluate((o) => window.etmemPage.analyze(o), { runtime: mainRelease, temp_pool: Number(tempPool) });
      check(isDeepStrictEqual(got, JSON.parse(cli(['analyze', cnnName, ...flags, '--format', 'json'], cnnDir).toString())),
            `temp pool ${tempPool} at main: the page's JSON is the CLI's`);
    }
    await choose('temp_pool', '');
  }

  // 2b. A linked firmware image (.elf) dropped on the page: `etmem firmware`'s report. The image
  // is linked here from tests/firmware/ (the Arm runner's pool declarations, the CNN embedded as
  // its model_pte.h, a 32 KiB method pool: 3312 B short at 1.4.1); skipped, saying so, without
  // arm-none-eabi-g++.
  {
    const sources = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../tests/firmware');
    const gxx = spawnSync('arm-none-eabi-g++', ['--version']);
    if (gxx.status !== 0) {
      console.log('SKIP: arm-none-eabi-g++ is absent: no firmware image to drop on the page');
    } else {
      const dir = path.resolve(args.out, 'firmware');
      fs.mkdirSync(dir, { recursive: true });
      const cnnBytes = fs.readFileSync(args.cnn);
      fs.writeFileSync(path.join(dir, 'model_pte.h'),
        `__attribute__((section("network_model_sec"), aligned(16))) unsigned char model_pte[] = {${[...cnnBytes].join(',')}};\n`);
      const elf = path.join(dir, 'app.elf');
      execFileSync('arm-none-eabi-g++', ['-mcpu=cortex-m4', '-mthumb', '-O2', '-ffreestanding', '-fno-exceptions', '-fno-rtti',
        '-nostdlib', '-DRUNNER_ARM_BAREMETAL', '-DMETHOD_POOL_BYTES=32768', '-DTEMP_POOL_BYTES=2048', `-I${dir}`,
        path.join(sources, 'runner_pools.cpp'), '-T', path.join(sources, 'firmware.ld'), '-Wl,--defsym=POOL_SKIP=0x100',
        '-o', elf], { stdio: 'pipe' });
      await choose('runtime', '1.4.1');
      await choose('runner', '');
      // Dropped, as a user does: a drop event carrying the file on the drop zone.
      const b64 = fs.readFileSync(elf).toString('base64');
      opened++;
      await page.evaluate((data, name) => {
        const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
        const dt = new DataTransfer();
        dt.items.add(new File([bytes], name));
        document.getElementById('drop').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
      }, b64, 'app.elf');
      await page.waitForSelector(`body[data-rendered="${opened}"]`, { timeout: 60000 });
      const fw = await page.evaluate(() => ({
        hidden: document.querySelector('#firmware').hidden,
        reportHidden: document.querySelector('#report').hidden,
        text: document.querySelector('#fw-text').textContent,
        verdict: document.querySelector('#fw-verdict strong')?.textContent,
        pools: [...document.querySelectorAll('#fw-pools tr')].slice(1).map((tr) => [...tr.children].map((td) => td.textContent)),
        failure: document.querySelector('#fw-pools .failure-line')?.textContent,
      }));
      // The page has no disassembler: its report is `etmem firmware --no-stack`'s.
      const cliFw = cli(['firmware', 'app.elf', '--runtime', '1.4.1', '--no-stack'], dir).toString();
      check(!fw.hidden && fw.reportHidden, 'a dropped .elf shows the firmware report (not the program report)');
      check(fw.text === cliFw, "the dropped .elf's text is `etmem firmware`'s, byte for byte", `page:
${fw.text}
cli:
${cliFw}`);
      check(fw.verdict === 'DOES NOT FIT', 'the dropped .elf is drawn as not fitting', fw.verdict);
      const method = fw.pools.find((r) => r[1] === 'method_allocation_pool');
      check(method && method[2] === '32768' && method[3] === '0x60000100' && method[4] === '256 B' && method[6] === '36080' &&
            method[7] === 'TOO SMALL by 3312 B', "the method pool's row: 32768 B at 0x60000100, 256-aligned, 36080 B needed, 3312 B short",
            JSON.stringify(method));
      check(fw.failure === 'Memory allocation failed: 33168B requested (adjusted for alignment), 32768B available',
            "the dropped .elf shows the runtime's line", fw.failure);
      const got = await page.evaluate(() => window.etmemPage.firmwareResult({ runtime: '1.4.1' }).report);
      const cliFwJson = JSON.parse(cli(['firmware', 'app.elf', '--runtime', '1.4.1', '--no-stack', '--format', 'json'], dir).toString());
      check(isDeepStrictEqual(got, cliFwJson), "the dropped .elf's report is `etmem firmware --format json`'s");
      // Its RAM total: every line of the library's with its source ("unknown" and why where it
      // has no figure: the stack, which the page leaves out), the total a lower bound then.
      const fwRam = await page.evaluate(() => [...document.querySelectorAll('#fw-ram table.fw-ram-lines')].map((t) =>
        [...t.querySelectorAll('tr')].slice(1).map((tr) => [...tr.children].map((td) => td.textContent))));
      check(fwRam.length === cliFwJson.ram.length && cliFwJson.ram.length > 0, 'the dropped .elf shows a RAM total per judged method',
            `${fwRam.length} / ${cliFwJson.ram.length}`);
      cliFwJson.ram.forEach((ram, i) => {
        const rows = fwRam[i] || [];
        check(rows.length === ram.lines.length + 1, `RAM total of ${ram.method}: one row per line and the total`, JSON.stringify(rows));
        ram.lines.forEach((l, k) => {
          const r = rows[k] || [];
          check(r[0] === l.what && (l.bytes === null ? r[1] === 'unknown' : r[1].startsWith(`${l.bytes} B`)) &&
                (l.source !== '' || l.unknown !== null) && r[2].includes(l.source) && (l.unknown === null || r[2].includes(l.unknown)),
                `RAM total of ${ram.method}: the line '${l.what}' with its figure and source`, JSON.stringify(r));
        });
        const total = rows[rows.length - 1] || [];
        check(total[1] === `${ram.complete ? '' : 'at least '}${ram.known_bytes} B`, `RAM total of ${ram.method}: the total`, JSON.stringify(total));
        check(ram.lines.some((l) => /stack/.test(l.what)) && rows.some((r) => /stack/.test(r[0])), `RAM total of ${ram.method}: the stack line is shown`);
      });
      const fwShot = path.join(args.out, 'web-firmware.png');
      await (await page.$('#firmware')).screenshot({ path: fwShot });
      // An ELF etmem cannot use: the command line's one line.
      const broken = path.join(dir, 'broken.elf');
      fs.writeFileSync(broken, fs.readFileSync(elf).subarray(0, 200));
      await open(broken);
      const brokenStatus = await page.$eval('#status', (e) => e.textContent);
      const brokenCli = spawnSync(args.etmem, ['firmware', 'broken.elf', '--runtime', '1.4.1'], { cwd: dir, encoding: 'utf8' }).stderr.trim();
      check(brokenStatus === brokenCli && brokenCli.startsWith('etmem: broken.elf'), 'a damaged .elf gets the command line\'s line',
            `page: ${brokenStatus}\ncli:  ${brokenCli}`);
      await open(args.cnn);
    }
  }

  // 3. A bad file gets the command line's one-line error.
  const bad = path.join(args.out, 'not_a_program.pte');
  fs.writeFileSync(bad, 'this is not an ExecuTorch program, just text long enough to be read');
  await open(bad);
  const badStatus = await page.$eval('#status', (e) => e.textContent);
  const cliError = (() => {
    try { execFileSync(args.etmem, ['analyze', path.basename(bad)], { cwd: path.dirname(path.resolve(bad)), stdio: 'pipe' }); return ''; }
    catch (e) { return e.stderr.toString().trim(); }
  })();
  check(badStatus === cliError && cliError.startsWith('etmem: '), 'a bad file gets the command line\'s error line',
        `page: ${badStatus}\ncli:  ${cliError}`);

  // 4. Every real program x every release x cortex-m and x86_64: the page's JSON is the CLI's.
  const real = args.shared ? path.join(args.shared, 'models', 'real') : null;
  if (!real || !fs.existsSync(real)) {
    console.log(`SKIP: the real programs are absent (${real || 'no --shared'}): the page is not compared with the CLI on them`);
  } else {
    const programs = fs.readdirSync(real).filter((f) => f.endsWith('.pte')).sort();
    let pairs = 0;
    let refused = 0;
    for (const name of programs) {
      await open(path.join(real, name));
      // A file the command line refuses as a whole: the page shows the same one line.
      const whole = spawnSync(args.etmem, ['analyze', name], { cwd: real, encoding: 'utf8' });
      if (whole.status === 2 && whole.stdout === '') {
        refused++;
        const status = await page.$eval('#status', (e) => e.textContent);
        check(status === whole.stderr.trim(), `${name}: the page refuses it with the command line's line`,
              `page: ${status}\ncli:  ${whole.stderr.trim()}`);
        continue;
      }
      for (const target of ['cortex-m', 'x86_64']) {
        // One object (docs/json.md): the single-release objects are its results.
        const expected = JSON.parse(cli(['analyze', name, '--runtime', 'all', '--target', target, '--pool', '4096',
                                         '--format', 'json'], real).toString()).results;
        // `--runtime all` is every published release; a snapshot of main is asked for by name.
        const published = releases.filter((r) => !r.startsWith('main-'));
        check(expected.length === published.length, `${name} ${target}: the CLI reports every release`);
        for (const release of releases) {
          const i = published.indexOf(release);
          const want = i >= 0 ? expected[i]
            : JSON.parse(cli(['analyze', name, '--runtime', release, '--target', target, '--pool', '4096',
                              '--format', 'json'], real).toString());
          const got = await page.evaluate((o) => window.etmemPage.analyze(o),
                                          { runtime: release, target, pool: 4096 });
          pairs++;
          check(isDeepStrictEqual(got, want),
                `${name} at ${release} on ${target}: the page's JSON is the CLI's`);
        }
      }
    }
    if (refused) console.log(`${refused} real programs are refused as a whole, by the page with the command line's line`);
    console.log(`compared ${pairs} (program, release, target) reports of ${programs.length} real programs with the CLI's`);
  }

  // 5. From a static host (here node's http on 127.0.0.1): the same page, its own files only.
  const server = http.createServer((req, res) => {
    const file = path.join(path.resolve(args.site), path.normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)));
    if (!file.startsWith(path.resolve(args.site)) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404).end();
      return;
    }
    const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
    res.writeHead(200, { 'content-type': types[path.extname(file)] || 'application/octet-stream' }).end(fs.readFileSync(file));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;
  try {
    const hosted = await browser.newPage();
    const hostedRequests = [];
    hosted.on('request', (r) => hostedRequests.push(r.url()));
    await hosted.goto(`${origin}/index.html`);
    await hosted.waitForSelector('body[data-ready="true"]', { timeout: 60000 });
    await (await hosted.$('#file')).uploadFile(args.cnn);
    await hosted.waitForSelector('body[data-rendered="1"]', { timeout: 60000 });
    await hosted.$eval('#runtime', (e) => { e.value = '0.3.0'; e.dispatchEvent(new Event('change')); });
    await hosted.$eval('#pool', (e) => { e.value = '4096'; e.dispatchEvent(new Event('change')); });
    const pool = await hosted.$eval('.pool-bytes', (e) => e.textContent);
    const failure = await hosted.$eval('.failure-line', (e) => e.textContent);
    check(pool === '4266 B' && failure === kFailure, 'served by a static host, the page shows the same figures', `${pool}; ${failure}`);
    const foreign = hostedRequests.filter((u) => !u.startsWith(origin + '/') && !/^(data|blob|about):/.test(u));
    check(foreign.length === 0, 'served by a static host, the page requests nothing but its own files', foreign.join('\n  '));
    await hosted.close();
  } finally {
    server.close();
  }
} finally {
  await browser.close();
}

// 6. Nothing but the page's own files (file:) and what it makes itself (data:, blob:, about:).
const network = requests.filter((u) => !/^(file|data|blob|about):/.test(u));
check(network.length === 0, 'the page makes no network request', network.join('\n  '));
console.log(`${requests.length} requests, all local (file:, data:, blob:)`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
