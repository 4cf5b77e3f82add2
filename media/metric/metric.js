// Metric panel client. Runs under a nonce-only CSP; data is set with textContent and SVG attributes (no innerHTML of
// data). Draws a line chart when the result has a time bucket, a horizontal bar chart otherwise.
(function () {
  const vscode = acquireVsCodeApi();
  const $ = (id) => document.getElementById(id);
  const SVG_NS = 'http://www.w3.org/2000/svg';
  const MAX_BARS = 40;
  const MAX_SERIES = 6;
  let sqlShown = false;
  let current = null;

  function el(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  }
  function svg(tag, attrs, text) {
    const e = document.createElementNS(SVG_NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
    if (text !== undefined) e.textContent = String(text);
    return e;
  }
  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
  }
  function fmt(v) {
    if (v === null || v === undefined) return '∅';
    if (typeof v === 'number') return Number.isInteger(v) ? v.toLocaleString() : (Math.round(v * 100) / 100).toLocaleString();
    return String(v);
  }
  function short(s, n) {
    s = String(s);
    return s.length > n ? s.slice(0, n - 1) + '…' : s;
  }

  function showProblem(title, kind, message, recovery) {
    const box = $('problem');
    clear(box);
    box.appendChild(el('h2', title));
    box.appendChild(el('p', message));
    const dl = el('dl');
    const add = (k, v) => { if (v) { dl.appendChild(el('dt', k)); dl.appendChild(el('dd', v)); } };
    add('kind', kind);
    if (recovery) {
      if (recovery.suggested_rewrite) add('try instead', recovery.suggested_rewrite.rewritten + ' — ' + recovery.suggested_rewrite.reason);
      if (recovery.fuzzy_matches && recovery.fuzzy_matches.length) add('did you mean', recovery.fuzzy_matches.join(', '));
      if (recovery.widening_hint) add('to widen', typeof recovery.widening_hint === 'string' ? recovery.widening_hint : JSON.stringify(recovery.widening_hint));
      if (recovery.suggested_tool) add('next step', recovery.suggested_tool + (recovery.suggested_args && Object.keys(recovery.suggested_args).length ? ' ' + JSON.stringify(recovery.suggested_args) : ''));
    }
    box.appendChild(dl);
    box.hidden = false;
    return box.textContent;
  }

  function drawBars(chart, labels, values) {
    const n = Math.min(labels.length, MAX_BARS);
    const width = 720, labelW = 200, valueW = 80, rowH = 22, top = 6;
    const height = top * 2 + n * rowH;
    chart.setAttribute('viewBox', `0 0 ${width} ${height}`);
    const max = Math.max(0, ...values.slice(0, n).map((v) => Math.abs(v) || 0)) || 1;
    const span = width - labelW - valueW;
    let marks = 0;
    for (let i = 0; i < n; i++) {
      const y = top + i * rowH;
      chart.appendChild(svg('text', { x: labelW - 6, y: y + 15, 'text-anchor': 'end' }, short(labels[i], 30)));
      const v = values[i];
      if (typeof v === 'number' && isFinite(v)) {
        const w = Math.max(1, (Math.abs(v) / max) * span);
        const bar = svg('rect', { x: labelW, y: y + 3, width: w.toFixed(1), height: rowH - 6, class: 's0 bar' });
        bar.appendChild(svg('title', {}, `${labels[i]}: ${fmt(v)}`));
        chart.appendChild(bar);
        chart.appendChild(svg('text', { x: labelW + w + 4, y: y + 15, class: 'value' }, fmt(v)));
        marks++;
      }
    }
    chart.appendChild(svg('line', { x1: labelW, y1: 0, x2: labelW, y2: height, class: 'axis' }));
    return marks;
  }

  function drawLines(chart, xs, series) {
    const width = 720, left = 60, right = 20, top = 10, bottom = 40, legendH = 18 * Math.min(series.length, MAX_SERIES);
    const height = 260 + legendH;
    const plotH = height - top - bottom - legendH;
    chart.setAttribute('viewBox', `0 0 ${width} ${height}`);
    const all = series.flatMap((s) => s.points.filter((p) => typeof p === 'number'));
    const min = Math.min(0, ...all), max = Math.max(...all, 0) || 1;
    const sx = (i) => left + (xs.length <= 1 ? (width - left - right) / 2 : (i / (xs.length - 1)) * (width - left - right));
    const sy = (v) => top + plotH - ((v - min) / (max - min || 1)) * plotH;
    chart.appendChild(svg('line', { x1: left, y1: top + plotH, x2: width - right, y2: top + plotH, class: 'axis' }));
    chart.appendChild(svg('line', { x1: left, y1: top, x2: left, y2: top + plotH, class: 'axis' }));
    chart.appendChild(svg('text', { x: left - 6, y: top + 10, 'text-anchor': 'end', class: 'tick' }, fmt(max)));
    chart.appendChild(svg('text', { x: left - 6, y: top + plotH, 'text-anchor': 'end', class: 'tick' }, fmt(min)));
    const every = Math.max(1, Math.ceil(xs.length / 8));
    xs.forEach((x, i) => {
      if (i % every === 0 || i === xs.length - 1) chart.appendChild(svg('text', { x: sx(i), y: top + plotH + 16, 'text-anchor': 'middle', class: 'tick' }, short(String(x).replace(/T00:00:00(\.000)?Z?$/, ''), 12)));
    });
    let marks = 0;
    series.slice(0, MAX_SERIES).forEach((s, k) => {
      const pts = [];
      s.points.forEach((v, i) => {
        if (typeof v !== 'number') return;
        pts.push(`${sx(i).toFixed(1)},${sy(v).toFixed(1)}`);
        const dot = svg('circle', { cx: sx(i).toFixed(1), cy: sy(v).toFixed(1), r: 3, class: `s${k} point` });
        dot.appendChild(svg('title', {}, `${s.name ? s.name + ', ' : ''}${xs[i]}: ${fmt(v)}`));
        chart.appendChild(dot);
        marks++;
      });
      if (pts.length > 1) chart.insertBefore(svg('polyline', { points: pts.join(' '), class: `s${k} line` }), chart.firstChild);
      if (s.name !== null) {
        const ly = top + plotH + bottom - 8 + k * 18;
        chart.appendChild(svg('rect', { x: left, y: ly, width: 10, height: 10, class: `s${k}` }));
        chart.appendChild(svg('text', { x: left + 16, y: ly + 9, class: 'legend' }, short(s.name, 60)));
      }
    });
    return marks;
  }

  /** Picks the chart: time bucket → lines (one per group, the largest first), otherwise bars, largest value first. */
  function drawChart(data) {
    const chart = $('chart');
    clear(chart);
    const cols = data.columns || [];
    const rows = data.rows || [];
    const m = cols.findIndex((c) => c.role === 'measure');
    const t = cols.findIndex((c) => c.role === 'time');
    const groups = cols.map((c, i) => (c.role === 'group_by' ? i : -1)).filter((i) => i >= 0);
    if (m < 0 || rows.length === 0) return { chart: 'none', marks: 0 };
    const num = (v) => (typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' && isFinite(Number(v)) ? Number(v) : null);
    if (t >= 0) {
      const xs = [...new Set(rows.map((r) => String(r[t])))].sort();
      const byKey = new Map();
      for (const r of rows) {
        const key = groups.map((g) => fmt(r[g])).join(' · ');
        if (!byKey.has(key)) byKey.set(key, { name: groups.length ? key : null, points: new Array(xs.length).fill(null), total: 0 });
        const s = byKey.get(key);
        const v = num(r[m]);
        s.points[xs.indexOf(String(r[t]))] = v;
        s.total += Math.abs(v || 0);
      }
      const series = [...byKey.values()].sort((a, b) => b.total - a.total);
      $('caption').textContent = `${cols[m].name} by ${cols[t].name}` + (series.length > MAX_SERIES ? ` (the ${MAX_SERIES} largest of ${series.length} series)` : '');
      return { chart: 'line', marks: drawLines(chart, xs, series.slice(0, MAX_SERIES)) };
    }
    // Bars largest first (the table below keeps the query's order); rows without a number go last.
    const bars = rows
      .map((r) => ({ label: groups.length ? groups.map((g) => fmt(r[g])).join(' · ') : cols[m].name, value: num(r[m]) }))
      .sort((a, b) => { const x = a.value ?? -Infinity, y = b.value ?? -Infinity; return x === y ? 0 : y > x ? 1 : -1; });
    const labels = bars.map((b) => b.label);
    const values = bars.map((b) => b.value);
    $('caption').textContent = `${cols[m].name}${groups.length ? ' by ' + groups.map((g) => cols[g].name).join(', ') : ''}` + (rows.length > MAX_BARS ? ` (the ${MAX_BARS} largest of ${rows.length} rows)` : '');
    return { chart: 'bar', marks: drawBars(chart, labels, values) };
  }

  function drawTable(data) {
    const table = $('rows');
    const thead = table.querySelector('thead');
    const tbody = table.querySelector('tbody');
    clear(thead);
    clear(tbody);
    const cols = data.columns || [];
    const tr = el('tr');
    for (const c of cols) {
      const th = el('th', c.name);
      th.title = `${c.role}${c.type ? ', ' + c.type : ''}`;
      tr.appendChild(th);
    }
    thead.appendChild(tr);
    (data.rows || []).forEach((r, i) => {
      const row = el('tr');
      r.forEach((v, j) => {
        const td = el('td', fmt(v), v === null ? 'null' : typeof v === 'number' ? 'num' : '');
        td.dataset.r = String(i);
        td.dataset.c = String(j);
        row.appendChild(td);
      });
      tbody.appendChild(row);
    });
    anchor = focusCell = null;
    table.hidden = cols.length === 0;
    return tbody.children.length;
  }

  // Cell selection in the rows table: click, Shift+click, Ctrl+A; Ctrl+C or Copy sends it to the extension (TSV).
  let anchor = null;
  let focusCell = null;
  function selRange() {
    return anchor && focusCell ? { r0: anchor.r, c0: anchor.c, r1: focusCell.r, c1: focusCell.c } : null;
  }
  function paintSelection() {
    const r = selRange();
    for (const td of $('rows').querySelectorAll('tbody td')) {
      const i = Number(td.dataset.r), j = Number(td.dataset.c);
      const on = !!r && i >= Math.min(r.r0, r.r1) && i <= Math.max(r.r0, r.r1) && j >= Math.min(r.c0, r.c1) && j <= Math.max(r.c0, r.c1);
      td.classList.toggle('selected', on);
    }
    $('copyRows').textContent = r ? 'Copy Selection' : 'Copy';
  }
  $('rows').setAttribute('tabindex', '0');
  $('rows').addEventListener('mousedown', (ev) => {
    const td = ev.target && ev.target.closest ? ev.target.closest('td') : null;
    if (!td || td.dataset.r === undefined) return;
    const at = { r: Number(td.dataset.r), c: Number(td.dataset.c) };
    if (ev.shiftKey && anchor) focusCell = at;
    else anchor = focusCell = at;
    paintSelection();
    $('rows').focus();
    ev.preventDefault();
  });
  $('rows').addEventListener('keydown', (ev) => {
    const mod = ev.ctrlKey || ev.metaKey;
    const body = $('rows').tBodies[0];
    if (mod && ev.key === 'a' && body.rows.length) {
      anchor = { r: 0, c: 0 };
      focusCell = { r: body.rows.length - 1, c: body.rows[0].cells.length - 1 };
      paintSelection();
      ev.preventDefault();
    } else if (mod && ev.key === 'c') {
      vscode.postMessage({ type: 'copy', range: selRange() });
      ev.preventDefault();
    } else if (ev.key === 'Escape') {
      anchor = focusCell = null;
      paintSelection();
    }
  });
  $('copyRows').addEventListener('click', () => vscode.postMessage({ type: 'copy', range: selRange() }));
  $('exportCsv').addEventListener('click', () => vscode.postMessage({ type: 'exportCsv' }));

  function setSql(show) {
    sqlShown = show;
    $('sqlBox').hidden = !show;
    $('toggleSql').textContent = show ? 'Hide SQL' : 'Show SQL';
    $('toggleSql').setAttribute('aria-expanded', String(show));
  }

  function render(run) {
    current = run;
    const env = run.envelope;
    for (const id of ['degraded', 'problem', 'notes', 'chartBox', 'rows', 'empty', 'toggleSql', 'copyRows', 'exportCsv']) $(id).hidden = true;
    clear($('notes'));
    $('title').textContent = run.metric + (run.groupBy.length ? ' by ' + run.groupBy.join(', ') : '') + (run.grain ? ' per ' + run.grain : '');
    const status = env ? env.status : 'error';
    $('status').textContent = status;
    $('status').className = 'status ' + status;
    let problem = null;
    let rows = 0;
    let chart = { chart: 'none', marks: 0 };
    if (!env) {
      $('meta').textContent = '';
      problem = showProblem('The metric could not be run', run.failure ? run.failure.kind : 'unknown', run.failure ? run.failure.message : 'no answer', null);
    } else if (env.status === 'error' || env.status === 'refused') {
      $('meta').textContent = '';
      const e = env.error || {};
      problem = showProblem(env.status === 'refused' ? 'Refused' : 'Error', e.kind, e.message, e.recovery);
    } else {
      const d = env.data || {};
      $('meta').textContent = [d.source ? 'source ' + d.source : '', env.confidence ? 'confidence ' + env.confidence : '', `${d.row_count ?? 0} rows`, d.truncated ? 'truncated' : '', run.ms ? Math.round(run.ms) + ' ms' : ''].filter(Boolean).join(' · ');
      if (env.degradation_reason) {
        $('degraded').textContent = `Degraded (${env.degradation_reason}): ${(d.notes || []).join(' ') || 'the answer rests on weaker evidence than usual.'}`;
        $('degraded').hidden = false;
      }
      const notes = [...(d.notes || []), d.fan_out && d.fan_out.note ? 'Fan-out: ' + d.fan_out.note : null, d.truncated ? 'Rows were cut at the row cap (status partial).' : null].filter(Boolean);
      for (const n of notes) $('notes').appendChild(el('li', n));
      $('notes').hidden = notes.length === 0;
      chart = drawChart(d);
      $('chartBox').hidden = chart.chart === 'none';
      rows = drawTable(d);
      $('empty').hidden = rows > 0;
      $('copyRows').hidden = $('exportCsv').hidden = rows === 0;
      paintSelection();
      $('sql').textContent = d.sql || '';
      $('params').textContent = d.params && d.params.length ? 'Parameters: ' + JSON.stringify(d.params) : 'No parameters.';
      $('toggleSql').hidden = !d.sql;
    }
    setSql(sqlShown && !$('toggleSql').hidden);
    report({ status, rows, chart: chart.chart, marks: chart.marks, problem });
  }

  // The last drawn summary, re-reported when the SQL toggle changes.
  let last = null;
  function report(extra) {
    last = extra;
    vscode.postMessage(Object.assign({ type: 'rendered', metric: current ? current.metric : '', sqlShown }, extra));
  }

  $('toggleSql').addEventListener('click', () => {
    setSql(!sqlShown);
    if (last) report(last);
  });
  window.addEventListener('message', (ev) => {
    const m = ev.data;
    if (m.type === 'result') {
      render(m.run);
    } else if (m.type === 'select') {
      anchor = m.range ? { r: m.range.r0, c: m.range.c0 } : null;
      focusCell = m.range ? { r: m.range.r1, c: m.range.c1 } : null;
      paintSelection();
    } else if (m.type === 'press' && $(m.button)) {
      $(m.button).click();
    } else if (m.type === 'toggleSql') {
      setSql(!sqlShown);
      if (last) report(last);
    }
  });
  vscode.postMessage({ type: 'ready' });
})();
