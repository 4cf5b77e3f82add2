// Results grid client (Preview Rows). Nonce-only CSP; values set with textContent. Cells are selected with a click,
// extended with Shift+click or Shift+arrows, all with Ctrl+A; Ctrl+C and Copy send the selection to the extension,
// which writes the clipboard (TSV) and the CSV file.
(function () {
  const vscode = acquireVsCodeApi();
  const $ = (id) => document.getElementById(id);
  let anchor = null; // {r, c}
  let focus = null; // {r, c}
  let rowCount = 0;
  let colCount = 0;

  function el(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  }
  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
  }
  function cellText(v) {
    if (typeof v === 'object') return JSON.stringify(v);
    return String(v);
  }

  function range() {
    if (!anchor || !focus) return null;
    return { r0: anchor.r, c0: anchor.c, r1: focus.r, c1: focus.c };
  }
  function paintSelection() {
    const r = range();
    const rows = $('grid').tBodies[0].rows;
    for (let i = 0; i < rows.length; i++) {
      const cells = rows[i].cells;
      for (let j = 1; j < cells.length; j++) {
        const on = !!r && i >= Math.min(r.r0, r.r1) && i <= Math.max(r.r0, r.r1) && j - 1 >= Math.min(r.c0, r.c1) && j - 1 <= Math.max(r.c0, r.c1);
        cells[j].classList.toggle('selected', on);
        cells[j].setAttribute('aria-selected', String(on));
      }
    }
    if (r) {
      const n = (Math.abs(r.r1 - r.r0) + 1) * (Math.abs(r.c1 - r.c0) + 1);
      $('selection').textContent = `${n} cell${n === 1 ? '' : 's'} selected`;
      $('copy').textContent = 'Copy Selection';
    } else {
      $('selection').textContent = '';
      $('copy').textContent = 'Copy';
    }
  }
  function setSelection(r) {
    if (!r || rowCount === 0) {
      anchor = focus = null;
    } else {
      const clampR = (x) => Math.max(0, Math.min(rowCount - 1, x));
      const clampC = (x) => Math.max(0, Math.min(colCount - 1, x));
      anchor = { r: clampR(r.r0), c: clampC(r.c0) };
      focus = { r: clampR(r.r1), c: clampC(r.c1) };
    }
    paintSelection();
  }

  function showProblem(title, kind, message, recovery) {
    const box = $('problem');
    clear(box);
    box.appendChild(el('h2', title));
    box.appendChild(el('p', message));
    const dl = el('dl');
    const add = (k, v) => { if (v) { dl.appendChild(el('dt', k)); dl.appendChild(el('dd', v)); } };
    add('kind', kind);
    if (recovery && recovery.suggested_tool) add('next step', recovery.suggested_tool);
    box.appendChild(dl);
    box.hidden = false;
    return box.textContent;
  }

  function render(run) {
    anchor = focus = null;
    const env = run.envelope;
    for (const id of ['masked', 'cap', 'problem', 'empty']) $(id).hidden = true;
    $('title').textContent = run.title;
    const status = env ? env.status : 'error';
    $('status').textContent = status;
    $('status').className = 'status ' + status;
    const thead = $('grid').tHead;
    const tbody = $('grid').tBodies[0];
    clear(thead);
    clear(tbody);
    let problem = null;
    let nullCells = 0;
    let capNote = null;
    const headers = [];
    const maskedNames = [];
    rowCount = 0;
    colCount = 0;
    if (!env || env.status === 'error' || env.status === 'refused') {
      $('meta').textContent = run.source ? 'source ' + run.source : '';
      problem = env
        ? showProblem(env.status === 'refused' ? 'Refused' : 'Error', (env.error || {}).kind, (env.error || {}).message, (env.error || {}).recovery)
        : showProblem('The rows could not be read', run.failure ? run.failure.kind : 'unknown', run.failure ? run.failure.message : 'no answer', null);
    } else {
      const d = env.data || {};
      const cols = d.columns || [];
      const rows = d.rows || [];
      const maskedRefs = (d.masked_columns || []).map((m) => String(m).toLowerCase());
      const isMasked = (name) => maskedRefs.some((m) => m === name.toLowerCase() || m.endsWith('.' + name.toLowerCase()));
      $('meta').textContent = [`source ${d.source || run.source}`, `first ${run.limit} rows asked`, `${d.row_count ?? rows.length} shown`, run.ms ? Math.round(run.ms) + ' ms' : ''].filter(Boolean).join(' · ');
      const tr = el('tr');
      tr.appendChild(el('th', '#', 'rownum'));
      cols.forEach((c) => {
        const th = el('th');
        th.appendChild(el('span', c.name, 'name'));
        th.appendChild(el('span', c.type || '', 'type'));
        let label = `${c.name} ${c.type || ''}`.trim();
        if (isMasked(c.name)) {
          th.classList.add('masked');
          th.appendChild(el('span', 'masked', 'badge'));
          th.title = `${c.name} is PII blocked by your settings: it reads NULL (or empty) here, as it does for the agent`;
          maskedNames.push(c.name);
          label += ' masked';
        } else th.title = `${c.name}: ${c.type || 'unknown type'}`;
        th.scope = 'col';
        headers.push(label);
        tr.appendChild(th);
      });
      thead.appendChild(tr);
      const maskedIdx = new Set(cols.map((c, i) => (isMasked(c.name) ? i : -1)).filter((i) => i >= 0));
      rows.forEach((r, i) => {
        const row = el('tr');
        row.appendChild(el('th', i + 1, 'rownum'));
        cols.forEach((_, j) => {
          const v = r[j];
          let td;
          if (v === null || v === undefined) {
            td = el('td');
            td.appendChild(el('span', 'NULL', 'null'));
            nullCells++;
          } else td = el('td', cellText(v), typeof v === 'number' ? 'num' : '');
          if (maskedIdx.has(j)) td.classList.add('masked');
          td.dataset.r = String(i);
          td.dataset.c = String(j);
          row.appendChild(td);
        });
        tbody.appendChild(row);
      });
      rowCount = rows.length;
      colCount = cols.length;
      $('empty').hidden = rows.length > 0;
      if (maskedNames.length) {
        $('masked').textContent = `PII masked at the source: ${maskedNames.join(', ')} read NULL (or empty), as they do for the agent. Change schemabrain.pii.block to adjust.`;
        $('masked').hidden = false;
      }
      if (d.truncated) {
        capNote = `Cut at your row cap of ${run.rowCap} rows (schemabrain.query.personRowCap).`;
        $('cap').textContent = capNote;
        $('cap').hidden = false;
      }
    }
    paintSelection();
    vscode.postMessage({ type: 'rendered', title: run.title, status, rows: rowCount, headers, masked: maskedNames, nullCells, problem, capNote });
  }

  function cellAt(target) {
    const td = target && target.closest ? target.closest('td') : null;
    return td && td.dataset.r !== undefined ? { r: Number(td.dataset.r), c: Number(td.dataset.c) } : null;
  }
  $('grid').addEventListener('mousedown', (ev) => {
    const at = cellAt(ev.target);
    if (!at) return;
    if (ev.shiftKey && anchor) focus = at;
    else anchor = focus = at;
    paintSelection();
    $('grid').focus();
    ev.preventDefault();
  });
  $('grid').addEventListener('keydown', (ev) => {
    const mod = ev.ctrlKey || ev.metaKey;
    if (mod && ev.key === 'a') {
      setSelection({ r0: 0, c0: 0, r1: rowCount - 1, c1: colCount - 1 });
      ev.preventDefault();
    } else if (mod && ev.key === 'c') {
      copy();
      ev.preventDefault();
    } else if (ev.key === 'Escape') {
      setSelection(null);
    } else if (/^Arrow/.test(ev.key) && rowCount) {
      const d = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[ev.key];
      const from = focus || { r: 0, c: 0 };
      const to = { r: Math.max(0, Math.min(rowCount - 1, from.r + d[0])), c: Math.max(0, Math.min(colCount - 1, from.c + d[1])) };
      if (ev.shiftKey && anchor) focus = to;
      else anchor = focus = to;
      paintSelection();
      ev.preventDefault();
    }
  });
  function copy() {
    vscode.postMessage({ type: 'copy', range: range() });
  }
  $('copy').addEventListener('click', copy);
  $('copyAll').addEventListener('click', () => vscode.postMessage({ type: 'copy', range: null }));
  $('exportCsv').addEventListener('click', () => vscode.postMessage({ type: 'exportCsv' }));

  window.addEventListener('message', (ev) => {
    const m = ev.data;
    if (m.type === 'result') render(m.run);
    else if (m.type === 'select') setSelection(m.range);
    else if (m.type === 'press' && $(m.button)) $(m.button).click();
  });
  vscode.postMessage({ type: 'ready' });
})();
