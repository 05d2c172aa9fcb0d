// Owns: the web page's behaviour: opening a .pte or a linked firmware image (.elf: `etmem
// firmware`) by file picker or drag and drop, the options,
// calling etmem's WebAssembly binding (etmem_wasm.cpp, embind) and drawing the values it returns
// (objects built from the library's values: no text the library rendered is parsed here) as
// tables, the per-operator table, the RAM total, the planned-memory map and the downloads.
// Not: any figure (every number shown comes from the binding, which is etmem's public API), nor
// any network access (there is none).
'use strict';

(function () {
  const $ = (id) => document.getElementById(id);
  const state = { module: null, program: null, firmware: null, report: null, plan: null, fit: null,
                  sort: { key: null, dir: 1 }, perOpSort: { key: null, dir: 1 } };
  const timing = {};  // the last open-to-rendered times (ms), for the benchmark and the test

  // --- the binding --------------------------------------------------------------------------
  // Calls the binding's NAME (etmem_wasm.cpp): its value (an object, a string or bytes), or
  // throws Error(the one line the command line prints after "etmem: ").
  function call(name, ...args) {
    const r = state.module[name](...args);
    if (r.error !== undefined) throw new Error(r.error);
    return r.ok;
  }
  const openBytes = (bytes, name) => call('open', bytes, name);

  // --- options --------------------------------------------------------------------------------
  function options() {
    const o = { runtime: $('runtime').value, target: $('target').value, temp: $('temp').value,
                runner: $('runner').value, method: $('method').value };
    if ($('pool_align').value) o.pool_align = Number($('pool_align').value);
    if ($('pool').value !== '') o.pool = Number($('pool').value);
    if ($('temp_pool').value !== '') o.temp_pool = Number($('temp_pool').value);
    const kernels = $('kernels').value.split(',').map((k) => k.trim()).filter((k) => k);
    if (kernels.length) o.kernels = kernels;
    return o;
  }
  function addOption(select, value, text) {
    const o = document.createElement('option');
    o.value = value;
    o.textContent = text;
    select.appendChild(o);
  }
  function fillOptions(lists) {
    state.runners = lists.runners;
    $('version').textContent = lists.version;
    for (const r of lists.releases) addOption($('runtime'), r.version, r.version);
    // The command line's defaults: the newest published release (never the snapshot of main),
    // cortex-m; the other fields start on their "the runner's / the target's" entries.
    $('runtime').value = lists.default_runtime;
    for (const t of lists.targets) addOption($('target'), t.name, `${t.name}: ${t.description}`);
    $('target').value = 'cortex-m';
    for (const r of lists.runners)
      addOption($('runner'), r.name, `${r.name} (ExecuTorch ${r.first_release} to ${r.last_release})`);
    for (let a = 1; a <= 4096; a *= 2) addOption($('pool_align'), String(a), `${a} B (and not ${2 * a})`);
    for (const b of lists.boards) addOption($('board'), b.name, b.name);
    // Each option's meaning and default from the one options schema (the command line's help).
    for (const spec of lists.options) {
      const field = $(spec.field);
      if (field) field.title = `${spec.flag}: ${spec.help}${spec.default_help ? ' ' + spec.default_help : ''}`;
    }
    const kernels = lists.options.find((spec) => spec.field === 'kernels');
    if (kernels) $('kernels').placeholder = kernels.choices.join(', ');
  }

  // --- drawing --------------------------------------------------------------------------------
  const fmt = (n) => (n === null || n === undefined ? '' : Number(n).toLocaleString('en-US'));
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === 'class') e.className = v; else e.setAttribute(k, v);
    }
    for (const c of children) if (c !== null && c !== undefined) e.append(c instanceof Node ? c : String(c));
    return e;
  }
  function table(headers, rows) {
    const t = el('table');
    t.append(el('tr', {}, ...headers.map((h) => el('th', {}, h))));
    for (const r of rows) t.append(el('tr', {}, ...r.map((c) => el('td', {}, c))));
    return t;
  }
  function drawPools(r) {
    const box = $('pools');
    box.replaceChildren();
    // The assumption sentence is the library's (each method's "assuming", the text report's
    // words): shown, never rebuilt here. One line when every method states the same.
    const sentences = [...new Set(r.methods.map((m) => m.assuming))];
    if (sentences.length === 1) box.append(el('p', { class: 'assumptions' }, 'assuming ' + sentences[0]));
    for (const m of r.methods) {
      const d = el('div', { class: 'method' });
      d.append(el('h3', {}, `method '${m.name}'`));
      if (sentences.length > 1) d.append(el('p', { class: 'assumptions' }, 'assuming ' + m.assuming));
      if (m.load_refused) {
        d.append(el('p', { class: 'fail', id: 'refusal' },
                    `ExecuTorch ${r.runtime} refuses this method (${m.load_refused.error}): ${m.load_refused.reason}`));
        box.append(d);
        continue;
      }
      const ma = m.method_allocator;
      d.append(el('p', { class: 'big' }, 'Method allocator pool: ',
                  el('strong', { class: 'pool-bytes' }, `${ma.bytes} B`),
                  ma.lower_bound ? ' at least (a part etmem does not model allocates more)' : ' minimum'));
      const rows = [['method allocator (load_method)', `${ma.bytes} B`, ma.lower_bound ? 'lower bound' : 'exact'],
                    ['temp allocator, peak during load', `${m.temp_allocator.load_peak_bytes} B`, 'exact']];
      const run = m.temp_allocator.run;
      if (run)
        rows.push(['temp allocator, peak while running', `${run.peak_bytes} B`,
                   (run.exact ? 'exact' : 'lower bound') + ': ' + run.summary]);
      m.planned_buffers.forEach((bytes, i) =>
        rows.push([`planned buffer ${i + 1} (memory id ${i + 1})`, `${bytes} B`, 'as the program plans it']));
      d.append(table(['pool', 'bytes', ''], rows));
      if (run && run.assumptions)
        d.append(el('p', { class: 'note run-assumed' }, 'Assumed while running: ' + run.assumptions.join('; ')));
      if (run && run.run_failures)
        d.append(el('p', { class: 'fail run-fails' }, 'Fails while running: ' + run.run_failures.join('; ')));
      if (m.runner) d.append(runnerPools(m.runner));
      const c = m.pool_check;
      if (c && !m.runner) d.append(poolCheck(c));
      if (m.unknown && m.unknown.length)
        d.append(el('p', { class: 'note' }, 'Not modelled: ' + m.unknown.map((u) => (u.backend ? `${u.backend} (${u.why})` : u.why)).join('; ')));
      box.append(d);
    }
    if (r.notes && r.notes.length) box.append(el('ul', { class: 'note' }, ...r.notes.map((n) => el('li', {}, n))));
  }
  function poolCheck(c) {
    const d = el('div', { class: c.fits ? 'check ok' : 'check fail', id: 'pool-check' });
    if (c.fits) {
      d.append(el('p', {}, `Pool check: a ${c.pool_bytes} B method allocator pool loads.`));
      return d;
    }
    d.append(el('p', {}, `Pool check: a ${c.pool_bytes} B method allocator pool DOES NOT LOAD`));
    const f = c.failing_allocation;
    if (f) d.append(el('p', {}, `fails: ${f.what} (${f.size} B, align ${f.align}, at offset ${f.offset})`));
    d.append(el('p', {}, 'the runtime logs: ', el('code', { class: 'failure-line' }, c.log)));
    if (c.consequence) d.append(el('p', {}, 'then: ' + c.consequence));
    return d;
  }
  function runnerPools(run) {
    const d = el('div', { class: 'runner' });
    d.append(el('p', {}, `Runner ${run.name}: ${run.description} (${run.source.path})`));
    d.append(table(['pool', 'macro', 'role', 'base align', 'default', 'minimum', 'gets through'],
      run.pools.map((p) => [p.variable, p.macro, p.role, p.base_align, `${p.default_bytes} B`,
                            `${p.minimum_bytes} B`, `${p.gets_through_bytes} B`])));
    const c = run.pool_check;
    if (c) {
      const ok = c.fits;
      const box = el('div', { class: ok ? 'check ok' : 'check fail', id: 'pool-check' });
      box.append(el('p', {}, `Pool check: ${c.pool} of ${c.pool_bytes} B ${ok ? 'loads' : 'DOES NOT LOAD'}`));
      if (c.failure) {
        box.append(el('p', {}, `fails (${c.failure.by}): ${c.failure.what}, ${c.failure.requested} B requested, ${c.failure.available} B available`));
        box.append(el('p', {}, 'the runtime logs: ', el('code', { class: 'failure-line' }, c.failure.log)));
        if (c.failure.consequence) box.append(el('p', {}, 'then: ' + c.failure.consequence));
      }
      d.append(box);
    }
    return d;
  }

  // The fit on the chosen board (`etmem fit`): the verdict, the free bytes per region, the
  // placement, and the command line's text. Nothing when no board is chosen.
  const fitResult = (request) => call('fit', request);
  function drawFit() {
    const box = $('fit'), board = $('board').value;
    box.replaceChildren();
    state.fit = null;
    $('fit-section').hidden = !board;
    if (!board || !state.report) return;
    let f;
    try {
      f = fitResult({ board, method: $('method').value });
      state.fit = f;
    } catch (e) {
      box.append(el('p', { class: 'fail', id: 'fit-verdict' }, `etmem: ${e.message}`));
      return;
    }
    box.append(el('p', { class: 'big ' + (f.fits ? 'ok' : 'fail'), id: 'fit-verdict' },
                  `method '${f.method}' on ${f.board}: `,
                  el('strong', {}, f.fits ? 'fits' : `does not fit: ${f.short_bytes} bytes short`)));
    if (!f.fits)
      box.append(el('p', { class: 'note' }, f.lower_bound.short_bytes > 0
        ? `No placement can exist: at least ${f.lower_bound.short_bytes} bytes short (${f.lower_bound.reason}).`
        : 'The lower bound does not rule a placement out (the search splits greedily and may have missed one).'));
    const regions = table(['region', 'free before', 'used', 'free after'], f.regions.map((r) =>
      [r.name, `${r.free_bytes} B`, `${r.used_bytes} B`,
       r.used_bytes <= r.free_bytes ? `${r.free_bytes - r.used_bytes} B` : `${r.used_bytes - r.free_bytes} B OVER`]));
    regions.id = 'fit-regions';
    const placement = table(['piece', 'bytes', 'align', 'region', 'offset', 'padding'], f.placement.map((p) =>
      [p.piece, `${p.bytes} B`, p.align, p.region, `+${p.offset}`, p.padding ? `${p.padding} B` : '']));
    placement.id = 'fit-placement';
    box.append(regions, placement);
    if (f.notes.length) box.append(el('ul', { class: 'note' }, ...f.notes.map((n) => el('li', {}, n))));
    box.append(el('pre', { id: 'fit-text' }, f.text));
  }

  function drawCategories(r) {
    const box = $('categories');
    box.replaceChildren();
    for (const m of r.methods) {
      if (m.load_refused) continue;
      const cats = m.method_allocator.by_category;
      const entries = Array.isArray(cats) ? cats : Object.entries(cats).map(([category, v]) => ({ category, ...v }));
      const total = m.method_allocator.bytes || 1;
      box.append(el('h3', {}, `method '${m.name}'`));
      box.append(table(['category', 'bytes', 'of which padding', 'allocations', ''],
        entries.map((c) => [c.category, c.bytes, c.padding, c.allocations,
                            el('span', { class: 'bar', style: `width:${Math.round(300 * c.bytes / total)}px` })])));
    }
  }

  const columns = [['#', 'index'], ['offset', 'offset'], ['size', 'size'], ['align', 'align'],
                   ['consumed', 'consumed'], ['category', 'category'], ['site', 'site'], ['what', 'what']];
  const kShownRows = 500;
  // The first rows come with the report; the rest of the kShownRows after it has painted (the
  // table scrolls within about 20 rows, and 500 rows of layout cost more than the report).
  const kFirstRows = 30;
  // The allocations as rows, the first `limit` of them (every one when filtered or sorted).
  function allocationRows(limit) {
    const rows = [];
    for (const m of state.report.methods) {
      const list = (m.method_allocator && m.method_allocator.allocations) || [];
      for (let i = 0; i < list.length && rows.length < limit; i++) rows.push({ method: m.name, index: i + 1, ...list[i] });
    }
    return rows;
  }
  function allocationCount() {
    let n = 0;
    for (const m of state.report.methods) n += ((m.method_allocator && m.method_allocator.allocations) || []).length;
    return n;
  }
  // Draws the table's first `limit` rows (default kShownRows).
  function drawAllocations(limit) {
    const t = $('allocations');
    const shown = typeof limit === 'number' ? Math.min(limit, kShownRows) : kShownRows;
    const total = allocationCount();
    const f = $('filter').value.trim().toLowerCase();
    const { key, dir } = state.sort;
    let rows = allocationRows(f || key ? Infinity : shown);
    let matching = f || key ? rows.length : total;
    if (f) rows = rows.filter((a) => `${a.what} ${a.site} ${a.category} ${a.method}`.toLowerCase().includes(f));
    if (f) matching = rows.length;
    if (key) rows.sort((a, b) => (a[key] < b[key] ? -dir : a[key] > b[key] ? dir : a.index - b.index));
    const head = el('tr', {}, ...columns.map(([label, k]) => {
      const th = el('th', { 'data-key': k, class: 'sortable' }, label + (key === k ? (dir > 0 ? ' \u25b2' : ' \u25bc') : ''));
      th.addEventListener('click', () => {
        state.sort = { key: k, dir: state.sort.key === k ? -state.sort.dir : 1 };
        drawAllocations();
      });
      return th;
    }));
    const body = document.createDocumentFragment();
    for (const a of rows.slice(0, shown))
      body.append(el('tr', {}, ...columns.map(([, k]) => el('td', {}, a[k]))));
    t.replaceChildren(head, body);
    state.allocationsShown = Math.min(shown, matching);
    $('allocation-count').textContent = `${matching} of ${total} allocations` +
      (matching > kShownRows ? ` (the first ${kShownRows} shown: filter or sort to see others)` : '');
  }
  // The rest of the table's rows, once the report has painted.
  function finishAllocations() {
    if (state.report && state.allocationsShown < Math.min(kShownRows, allocationCount())) drawAllocations();
  }

  function drawAdvisories() {
    const box = $('advisories');
    box.replaceChildren();
    if (!state.plan) return;
    const rows = [];
    for (const m of state.plan.methods)
      for (const a of m.advisories)
        rows.push([m.name, a.kind, a.op, a.value, a.memory_id, `${a.bound_saving} B`, `${a.planned_saving} B`, a.change]);
    for (const d of state.plan.duplicate_constants || [])
      rows.push(['(program)', d.kind, d.dtype, d.data_indices.join(', '), '', `${d.flash_saving} B flash`, '', d.change]);
    box.append(rows.length ? table(['method', 'kind', 'op', 'value', 'buffer', 'bound saving', 'planned saving', 'change'], rows)
                           : el('p', {}, 'No advisory: nothing found to save.'));
    const buffers = [];
    for (const m of state.plan.methods)
      for (const b of m.buffers)
        buffers.push([m.name, b.memory_id, `${b.planned} B`, `${b.lower_bound} B`, `${b.excess} B (${b.excess_percent}%)`]);
    if (buffers.length)
      box.append(el('p', {}, `Planned buffers against the lower bound (tensors aligned to ${state.plan.alignment} B):`),
                 table(['method', 'buffer', 'planned', 'lower bound', 'excess'], buffers));
  }

  function drawFlash(r) {
    const f = r.flash, l = f.buffer_data_loader;
    const box = $('flash');
    box.replaceChildren(
      table(['part of the file', 'bytes'], [
        ['program (flatbuffer)', f.program_bytes], ['metadata', f.metadata_bytes],
        ['constants inline', f.inline_constant_bytes], ['constants in segments', f.segment_constant_bytes],
        ['delegate data inline', f.inline_delegate_bytes], ['delegate data in segments', f.segment_delegate_bytes],
        ['other segments', f.other_segment_bytes], ['the file', f.file_bytes]]),
      el('p', {}, l.assumption),
      table(['what', 'bytes', 'use', 'RAM bytes', 'why'], l.parts.map((p) => [p.what, p.bytes, p.use, p.ram_bytes, p.why])),
      el('p', {}, `read in place: ${l.read_in_place_bytes} B; copied to RAM: ${l.copied_to_ram_bytes} B; ` +
                  `backend dependent: ${l.backend_dependent_bytes} B; not read: ${l.not_read_bytes} B`));
    if (l.notes && l.notes.length) box.append(el('ul', { class: 'note' }, ...l.notes.map((n) => el('li', {}, n))));
  }

  // --- the per-operator table (`etmem analyze --per-op`) --------------------------------------
  const dash = '\u2014';  // an empty cell, as the command line's table prints it
  // Columns: heading, the row's member it sorts by, the cell. A temp request the library does
  // not know is "unknown" (">=N (unknown)" when part of it is known), its reason in the title.
  const perOpColumns = [
    ['#', 'index', (r) => r.index],
    ['chain:instr', 'index', (r) => `${r.chain}:${r.chain_instruction}`],
    ['kind', 'kind', (r) => r.kind],
    ['operator', 'operator', (r) => r.operator ?? dash],
    ['library', 'library', (r) => r.library ?? dash],
    ['live planned B', 'live_planned_bytes', (r) => r.live_planned_bytes +
      (r.live_planned_by_memory_id ? ` (${r.live_planned_by_memory_id.map((b) => `${b.memory_id}:${b.bytes}`).join(' ')})` : '')],
    ['temp B', 'temp_bytes', (r) => (r.temp_unknown === null ? r.temp_bytes
      : r.temp_bytes ? `>=${r.temp_bytes} (unknown)` : 'unknown')],
    ['constant B', 'constant_bytes', (r) => r.constant_bytes],
    ['stack B', 'stack_bytes', (r) => r.stack_bytes ?? dash],
  ];
  // The order of two rows by `key` (ties in execution order). An unknown temp request sorts
  // above every known one, as the command line's --sort temp puts it first.
  function perOpCompare(key, dir) {
    const value = (r) => (key === 'temp_bytes' ? [r.temp_unknown === null ? 0 : 1, r.temp_bytes] : [r[key] ?? -1]);
    return (a, b) => {
      const x = value(a), y = value(b);
      for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return (x[i] < y[i] ? -1 : 1) * dir;
      return a.index - b.index;
    };
  }
  function drawPerOp() {
    const box = $('per-op');
    box.replaceChildren();
    state.perOp = null;
    try {
      state.perOp = call('perOp', 'index');
    } catch (e) {
      box.append(el('p', { class: 'fail' }, `etmem: ${e.message}`));
      return;
    }
    drawPerOpTables();
  }
  function drawPerOpTables() {
    const box = $('per-op');
    box.replaceChildren();
    const { key, dir } = state.perOpSort;
    for (const t of state.perOp.per_op) {
      box.append(el('h3', {}, `method '${t.method}'`));
      if (t.refusal !== null) {
        box.append(el('p', { class: 'fail' }, `refused: ${t.refusal}`));
        continue;
      }
      // The first kShownRows rows (of the order chosen): a large method has thousands, whose
      // layout would cost more than the report.
      const rows = (key ? [...t.rows].sort(perOpCompare(key, dir)) : t.rows).slice(0, kShownRows);
      const tb = el('table', { class: 'per-op' });
      tb.append(el('tr', {}, ...perOpColumns.map(([label, k], i) => {
        const th = el('th', { 'data-key': k, 'data-column': String(i), class: 'sortable' },
                      label + (key === k && i !== 1 ? (dir > 0 ? ' \u25b2' : ' \u25bc') : ''));
        th.addEventListener('click', () => {
          // Numbers sort largest first on the first click, words alphabetically.
          const first = ['kind', 'operator', 'library', 'index'].includes(k) ? 1 : -1;
          state.perOpSort = { key: k, dir: state.perOpSort.key === k ? -state.perOpSort.dir : first };
          drawPerOpTables();
        });
        return th;
      })));
      for (const r of rows) {
        const tr = el('tr', {}, ...perOpColumns.map(([, , cell]) => el('td', {}, cell(r))));
        if (r.temp_unknown !== null) tr.children[6].title = r.temp_unknown;
        tb.append(tr);
      }
      // The totals row: the largest live sum (the instruction at which), the temp peak (the rows'
      // sum where the release releases nothing between instructions; "at least" with unknown
      // rows), the constants read (each once), the largest stack.
      const s = t.totals;
      const totals = el('tr', { class: 'totals' },
        el('td', {}, 'total'), el('td', {}), el('td', {}), el('td', {}), el('td', {}),
        el('td', {}, `${s.peak_live_planned_bytes} peak` + (s.peak_live_instruction !== null ? ` (at #${s.peak_live_instruction})` : '')),
        el('td', {}, `${s.temp_unknown_rows ? '>=' : ''}${s.temp_peak_bytes} ${s.temp_summed ? 'sum' : 'peak'}` +
                     (s.temp_unknown_rows ? ` (${s.temp_unknown_rows} unknown)` : '')),
        el('td', {}, `${s.constant_bytes} read`),
        el('td', {}, s.stack_bytes ?? dash));
      tb.append(totals);
      box.append(el('div', { class: 'scroll' }, tb));
      if (t.rows.length > kShownRows)
        box.append(el('p', { class: 'note per-op-count' },
                      `the first ${kShownRows} of ${t.rows.length} instructions shown: click a column to see the largest`));
      const facts = [
        ['planned buffers (the plan\'s size, what the report gives)', s.planned_bytes],
        ['peak live planned', s.peak_live_planned_bytes],
        ['temp while running', `${s.temp_unknown_rows ? 'at least ' : ''}${s.temp_peak_bytes}`],
        ['constants read, each once', `${s.constant_bytes} in ${s.constants}`],
        ['constants read, the column summed', s.constant_column_bytes],
        ['the method\'s constant tensors', `${s.method_constant_bytes} in ${s.method_constants}`],
        ['stack', s.stack_bytes ?? `not computed${s.stack_source ? ` (${s.stack_source})` : ''}`],
      ];
      const ft = table(['total', 'bytes'], facts);
      ft.className = 'per-op-totals';
      box.append(ft);
      if (t.notes.length) box.append(el('ul', { class: 'note' }, ...t.notes.map((n) => el('li', {}, n))));
    }
  }

  // --- the RAM total (`etmem summary`'s RAM line, from its values) -------------------------------
  // Per method: each part the library adds into its RAM figure, with where it comes from, and
  // the total ("at least" where the library's figure is a lower bound: a part it does not model,
  // or a kernel's temp request it does not know). With a board chosen: the placement `etmem fit`
  // gives in the board's regions.
  function drawRam() {
    const box = $('ram');
    box.replaceChildren();
    if (!state.report) return;
    try {
      if (!state.ram) state.ram = call('summary');  // once per analysis (a board redraws it)
    } catch (e) {
      box.append(el('p', { class: 'fail' }, `etmem: ${e.message}`));
      return;
    }
    for (const m of state.ram.methods) {
      // The library's lines (summary's `ram`: analysis/ram_text.h), drawn as they come.
      const least = (lb) => (lb ? 'lower bound' : 'exact');
      const rows = m.ram.lines.map((l) => [l.part + (l.when ? ` (${l.when})` : ''),
                                           `${l.at_least ? 'at least ' : ''}${l.bytes} B`, l.source, least(l.at_least)]);
      const t = table(['part', 'bytes', 'source', ''], rows);
      t.className = 'ram-lines';
      t.append(el('tr', { class: 'totals' }, el('td', {}, 'RAM total'),
                  el('td', { class: 'ram-total' }, `${m.ram.lower_bound ? 'at least ' : ''}${m.ram.total_bytes} B`),
                  el('td', {}, m.runner ? `runner ${m.runner.name}` : ''), el('td', {}, least(m.ram.lower_bound))));
      box.append(el('h3', {}, `method '${m.name}'`), t);
      if (m.malloc_heap) box.append(el('p', { class: 'note' }, `beside these, the C heap: ${m.malloc_heap.text}`));
      for (const u of m.unknown)
        box.append(el('p', { class: 'note' }, `unknown: delegate ${u.delegate} (${u.backend}): ${u.why}`));
    }
    const f = state.fit;
    if (f) {
      box.append(el('p', {}, `Placed on ${f.board} (method '${f.method}', as etmem fit places it): `,
                    el('strong', { class: f.fits ? 'ok' : 'fail' }, f.fits ? 'fits' : `does not fit: ${f.short_bytes} bytes short`)));
      const used = table(['region', 'placed', 'free before'], f.regions.map((r) => [r.name, `${r.used_bytes} B`, `${r.free_bytes} B`]));
      used.id = 'ram-regions';
      box.append(used, table(['piece', 'bytes', 'region'], f.placement.map((p) => [p.piece, `${p.bytes} B`, p.region])));
    }
  }

  // --- firmware (a linked ELF image) -----------------------------------------------------------
  const isElf = (b) => b.length >= 4 && b[0] === 0x7f && b[1] === 0x45 && b[2] === 0x4c && b[3] === 0x46;
  // `etmem firmware IMAGE --runtime R [--runner N] [--method M]`: {report, text} (report: what
  // `--format json` prints, as a value), for the opened image and the options (the image gives
  // the target).
  function firmwareResult(o) {
    const f = state.firmware;
    return call('firmware', f.bytes, f.name, o || { runtime: $('runtime').value, runner: $('runner').value, method: $('method').value });
  }
  const hex = (v) => '0x' + v.toString(16).padStart(8, '0');
  function poolVerdict(p) {
    if (!p.fits) return el('strong', { class: 'fail' }, `TOO SMALL by ${p.short} B`);
    if (p.run_unknown) return el('strong', {}, `unknown: ${p.spare} B to spare where known`);
    return el('strong', { class: 'ok' }, `fits, ${p.spare} B to spare`);
  }
  // The RAM total of the image's ExecuTorch part, per judged method: each line with its source
  // ("unknown" and why where the library has no figure; a line counted inside another shown, not
  // added), the total ("at least" unless every line is known), by board region when placed; then
  // the worst-case stack against the stack the image declares, where the library judges it.
  function drawFirmwareRam(r) {
    const box = $('fw-ram');
    box.replaceChildren();
    for (const ram of r.ram) {
      box.append(el('h3', {}, `method '${ram.method}' of ${ram.program}`));
      const placed = ram.lines.some((l) => l.region !== null);
      const rows = ram.lines.map((l) => [l.what, l.bytes === null ? 'unknown' : `${l.bytes} B${l.inside ? ' (inside another line: not added)' : ''}`,
                                         l.bytes === null ? `${l.source}${l.source && l.unknown ? '; ' : ''}${l.unknown || ''}` : l.source,
                                         ...(placed ? [l.region ?? ''] : [])]);
      rows.push(['RAM total', `${ram.complete ? '' : 'at least '}${ram.known_bytes} B`,
                 ram.complete ? 'every line known' : 'lower bound: a line is unknown', ...(placed ? [''] : [])]);
      const t = table(['part', 'bytes', 'source', ...(placed ? ['region'] : [])], rows);
      t.className = 'fw-ram-lines';
      t.lastChild.className = 'totals';
      box.append(t);
      if (ram.regions.length)
        box.append(table(['region', 'bytes', 'free'], ram.regions.map((g) => [g.name, `${g.bytes} B`, g.free_bytes === null ? '' : `${g.free_bytes} B`])));
    }
    const st = r.stack;
    if (!st) return;
    if (st.declared)
      box.append(el('p', { id: 'fw-declared-stack' }, `Declared stack: ${st.declared.bytes} B (${st.declared.symbols}; ${st.declared.meaning})`));
    for (const v of st.verdicts)
      box.append(el('p', { class: v.verdict === 'fits' ? 'ok' : v.verdict === 'unknown' ? 'note' : 'fail' },
                    `method '${v.method}' of ${v.program}: stack ${v.verdict.replace(/_/g, ' ')}${v.step ? `: ${v.step}` : ''}`));
  }
  function drawFirmware() {
    let result;
    try {
      result = firmwareResult();
    } catch (e) {
      $('firmware').hidden = true;
      status(`etmem: ${e.message}`, true);
      return false;
    }
    const r = result.report;
    state.firmwareReport = r;
    $('fw-verdict').replaceChildren(
      el('strong', { class: r.fits ? 'ok' : 'fail' }, r.fits ? 'fits' : 'DOES NOT FIT'),
      ` (target ${r.assumptions.target} from ${r.assumptions.target_source}; runner ${r.assumptions.runner} from ` +
      `${r.assumptions.runner_source}; ExecuTorch ${r.assumptions.runtime})`);
    $('fw-programs').replaceChildren(table(['program', 'bytes', 'section', 'address', 'placement'],
      r.programs.map((p) => [p.name, p.bytes, p.section || '', p.from_file ? '' : hex(p.address), p.placement || 'from a file'])));
    const pools = $('fw-pools');
    pools.replaceChildren();
    for (const m of r.methods) {
      pools.append(el('h3', {}, `method '${m.name}' of ${m.program}`));
      if (m.refusal) { pools.append(el('p', { class: 'fail' }, `REFUSED by ExecuTorch ${r.assumptions.runtime}: ${m.refusal}`)); continue; }
      pools.append(table(['pool', 'symbol', 'bytes', 'address', 'aligned to', 'section', 'needed', 'verdict'],
        m.pools.map((p) => [p.id, p.symbol, p.bytes, hex(p.address), `${p.align_capped ? 'at least ' : ''}${p.align} B`,
                            p.section, p.needed, poolVerdict(p)])));
      for (const p of m.pools) {
        if (p.failing) pools.append(el('p', {}, `${p.symbol} fails at: ${p.failing}`));
        for (const line of p.log) pools.append(el('p', { class: 'failure-line' }, line));
        if (p.run_unknown) pools.append(el('p', { class: 'note' }, `${p.symbol}: not known: the run-time requests of ${p.run_unknown}`));
      }
    }
    const c = r.components;
    $('fw-components').replaceChildren(...(c ? [
      table(['component', 'flash B', 'RAM B'], [...c.rows.map((row) => [row.name, row.flash_bytes, row.ram_bytes]),
                                                ['total', c.flash_total, c.ram_total]]),
      el('p', { class: 'note' }, c.method)] : []));
    drawFirmwareRam(r);
    $('fw-text').textContent = result.text;
    $('report').hidden = true;
    $('firmware').hidden = false;
    status(`${state.firmware.name} (${state.firmware.bytes.length} B): ${r.programs.length} program(s), runner ${r.assumptions.runner}, ` +
           `ExecuTorch ${r.assumptions.runtime}: ${r.fits ? 'fits' : 'DOES NOT FIT'}`, !r.fits);
    return true;
  }

  // --- analysis -------------------------------------------------------------------------------
  function status(text, error) {
    $('status').textContent = text;
    $('status').className = error ? 'fail' : '';
  }
  // The report for the options: `etmem analyze --format json`'s content, as a value.
  const analyzeResult = (o) => call('analyze', o || options());

  const paint = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  let generation = 0;  // a newer analysis makes an older one's pending map stale

  // The report for the options: pools, categories, allocations, flash, text. True when drawn.
  function analyze() {
    if (!state.program) return false;
    ++generation;
    const t0 = performance.now();
    try {
      state.report = analyzeResult(options());
    } catch (e) {
      state.report = null;
      $('report').hidden = true;
      status(`etmem: ${e.message}`, true);
      return false;
    }
    state.text = call('render', 'text');
    const t1 = performance.now();
    drawPools(state.report);
    drawCategories(state.report);
    drawAllocations(kFirstRows);
    drawFlash(state.report);
    $('text').textContent = state.text;
    drawFit();
    state.plan = null;
    state.planHtml = null;
    state.perOp = null;
    state.ram = null;
    $('per-op').replaceChildren(el('p', { class: 'note' }, 'computing the per-operator table...'));
    $('ram').replaceChildren(el('p', { class: 'note' }, 'computing the RAM total...'));
    $('advisories').replaceChildren(el('p', { class: 'note' }, 'computing the planned memory...'));
    // Clearing the old map loads a new (empty) document into its frame: only when there is one.
    if ($('map').srcdoc !== '') $('map').srcdoc = '';
    $('report').hidden = false;
    // The verdict is the library's (docs/json.md): the same the command line's exit status says.
    status(`${state.program.name} (${state.program.size_bytes} B): ${state.report.methods.length} method(s), ExecuTorch ${state.report.runtime}, ${state.report.target}` +
           (state.report.verdict_detail && state.report.verdict_detail.judged.length ? `; verdict: ${state.report.verdict.replace(/_/g, ' ')}` : ''));
    timing.analyze_ms = t1 - t0;
    timing.draw_ms = performance.now() - t1;
    return true;
  }

  // The planned memory (`etmem plan`): the map and the advisories, drawn after the report.
  function drawPlan() {
    const t0 = performance.now();
    let planError = null;
    try {
      state.plan = call('plan', options(), 16);
      state.planHtml = call('planHtml', options(), 16);
    } catch (e) {
      state.planHtml = `<p>etmem: ${e.message.replace(/[<&]/g, (c) => (c === '<' ? '&lt;' : '&amp;'))}</p>`;
      state.plan = null;
      planError = e.message;
    }
    drawAdvisories();
    if (planError) $('advisories').append(el('p', { class: 'fail' }, `etmem: ${planError}`));
    $('map').srcdoc = state.planHtml;
    timing.plan_ms = performance.now() - t0;
  }

  // Report first (painted), then the planned memory.
  async function analyzeAndPlan() {
    if (state.firmware) { drawFirmware(); return; }
    if (!analyze()) return;
    const mine = generation;
    await paint();
    if (mine !== generation) return;
    drawLater();
  }
  // After the report has painted: the rest of the allocation rows, the per-operator table, the
  // RAM total, then (unless the benchmark turned it off) the planned memory.
  function drawLater() {
    finishAllocations();
    drawPerOp();
    drawRam();
    if (settings.plan) drawPlan();
  }

  // Opens and analyses `file`; body[data-rendered] counts the files done (drawn or refused),
  // body[data-report] the reports painted (before the map). Performance marks (the benchmark
  // reads them, bench/web_bench.mjs): `start` (etmem:drop or etmem:choose) at the event's time
  // stamp, etmem:report when the report is painted, and the measure etmem:drop-to-report (or
  // etmem:choose-to-report) between them.
  async function openFile(file, start, startTime) {
    performance.clearMarks();
    performance.clearMeasures();
    performance.mark(start || 'etmem:open', startTime === undefined ? {} : { startTime });
    try {
      await openAndDraw(file, start || 'etmem:open');
    } finally {
      document.body.dataset.rendered = String(++rendered);
    }
  }
  let rendered = 0, reports = 0;
  const settings = { plan: true };  // the benchmark turns the map off to time the report alone
  async function openAndDraw(file, start) {
    const t0 = performance.now();
    for (const k of Object.keys(timing)) delete timing[k];
    state.program = null;
    state.firmware = null;
    $('firmware').hidden = true;
    status(`Reading ${file.name}...`);
    const bytes = new Uint8Array(await file.arrayBuffer());
    const t1 = performance.now();
    if (isElf(bytes)) {
      state.firmware = { bytes, name: file.name };
      $('report').hidden = true;
      $('method').replaceChildren();
      addOption($('method'), '', 'every method');
      if (drawFirmware()) {
        await paint();
        document.body.dataset.report = String(++reports);
      }
      return;
    }
    try {
      state.program = openBytes(bytes, file.name);
    } catch (e) {
      $('report').hidden = true;
      status(`etmem: ${e.message}`, true);
      return;
    }
    state.programName = file.name;
    timing.read_ms = t1 - t0;
    timing.open_ms = performance.now() - t1;
    const methods = $('method');
    methods.replaceChildren();
    addOption(methods, '', 'every method');
    for (const name of state.program.methods) addOption(methods, name, name);
    if (!analyze()) return;
    // Rendered: after the browser has laid out and painted the report.
    await paint();
    timing.report_ms = performance.now() - t0;
    performance.mark('etmem:report');
    try {
      timing.mark_ms = performance.measure(`${start}-to-report`, start, 'etmem:report').duration;
    } catch (e) {
      // A file given meanwhile cleared this one's start mark: its own marks are measured.
    }
    document.body.dataset.report = String(++reports);
    drawLater();
    if (!settings.plan) return;
    await paint();
    timing.total_ms = performance.now() - t0;
    timing.rendered = true;
  }

  // --- downloads ------------------------------------------------------------------------------
  function save(data, name, type) {
    const url = URL.createObjectURL(new Blob([data], { type }));
    const a = el('a', { href: url, download: name });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }
  const stem = () => (state.programName || 'program').replace(/\.pte$/i, '');
  function download(kind) {
    try {
      if (kind === 'json') save(call('render', 'json'), `${stem()}.etmem.json`, 'application/json');
      if (kind === 'header') save(call('header', {}), 'etmem_pools.h', 'text/x-c');
      if (kind === 'replan') save(call('replan', 16), `${stem()}.replanned.pte`, 'application/octet-stream');
      if (kind === 'plan') save(state.planHtml, `${stem()}.plan.html`, 'text/html');
    } catch (e) {
      status(`etmem: ${e.message}`, true);
    }
  }

  // --- start ----------------------------------------------------------------------------------
  const ready = EtmemModule().then((module) => {
    state.module = module;
    fillOptions(call('lists'));
    status('Open a .pte or a linked firmware (.elf): drop it above or click to choose one.');
    $('file').addEventListener('change', (e) => {
      const file = $('file').files[0];
      $('file').value = '';  // choosing the same file again opens it again
      if (file) openFile(file, 'etmem:choose', e.timeStamp);
    });
    const drop = $('drop');
    drop.addEventListener('dragover', (e) => { e.preventDefault(); drop.classList.add('over'); });
    drop.addEventListener('dragleave', () => drop.classList.remove('over'));
    drop.addEventListener('drop', (e) => {
      e.preventDefault();
      drop.classList.remove('over');
      if (e.dataTransfer.files[0]) openFile(e.dataTransfer.files[0], 'etmem:drop', e.timeStamp);
    });
    for (const id of ['runtime', 'target', 'runner', 'pool_align', 'temp', 'temp_pool', 'pool', 'method', 'kernels'])
      $(id).addEventListener('change', analyzeAndPlan);
    $('board').addEventListener('change', () => { drawFit(); drawRam(); });
    $('options').addEventListener('submit', (e) => e.preventDefault());
    $('filter').addEventListener('input', drawAllocations);
    for (const kind of ['json', 'header', 'replan', 'plan'])
      $(`download-${kind}`).addEventListener('click', () => download(kind));
    document.body.dataset.ready = 'true';
  });

  // For the browser test and the benchmark (web/test/): the same functions the page uses.
  window.etmemPage = { ready, timing, settings, analyze: analyzeResult, fit: fitResult, get runners() { return state.runners; }, openFile,
                       header: () => call('header', {}), render: (format) => call('render', format), perOp: (sort) => call('perOp', sort || 'index'),
                       summary: () => call('summary'), firmwareResult };
})();
