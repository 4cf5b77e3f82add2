// Audit panel client. Runs under a nonce-only CSP; everything is rendered with textContent (no innerHTML of data).
(function () {
  const vscode = acquireVsCodeApi();
  const $ = (id) => document.getElementById(id);
  const state = Object.assign({ status: '', tool: '', since: '', pageSize: 50, page: 0 }, vscode.getState() || {});
  let focusSeq;
  let rows = [];

  const SVG_NS = 'http://www.w3.org/2000/svg';
  function statusIcon(status) {
    const svg = document.createElementNS(SVG_NS, 'svg');
    svg.setAttribute('viewBox', '0 0 16 16');
    svg.setAttribute('aria-hidden', 'true');
    const shape = document.createElementNS(SVG_NS, status === 'error' || status === 'refused' ? 'rect' : 'circle');
    if (shape.tagName === 'rect') { shape.setAttribute('x', '3'); shape.setAttribute('y', '3'); shape.setAttribute('width', '10'); shape.setAttribute('height', '10'); }
    else { shape.setAttribute('cx', '8'); shape.setAttribute('cy', '8'); shape.setAttribute('r', '5'); }
    svg.appendChild(shape);
    return svg;
  }

  function sinceIso() {
    if (!state.since) return '';
    return new Date(Date.now() - Number(state.since) * 1000).toISOString();
  }

  function query() {
    vscode.setState(state);
    vscode.postMessage({ type: 'query', query: { status: state.status, tool: state.tool, since: sinceIso(), page: state.page, pageSize: Number(state.pageSize) } });
  }

  function cell(tr, text) { const td = document.createElement('td'); td.textContent = text; tr.appendChild(td); return td; }

  function showDetails(r) {
    const dl = $('detailList');
    dl.replaceChildren();
    const fields = [
      ['seq', r.seq], ['time', r.time], ['tool', r.tool], ['status', r.status], ['error kind', r.errorKind ?? '—'],
      ['duration', r.durationMs.toFixed(1) + ' ms'], ['session', r.sessionId], ['client', (r.clientName ?? '?') + ' ' + (r.clientVersion ?? '')],
      ['PII categories', r.piiCategories.join(', ') || '—'], ['rows', r.rowCount ?? '—'], ['truncated', r.truncated === null ? '—' : String(r.truncated)],
      ['args fingerprint', r.argsFingerprint], ['SQL fingerprint', r.sqlFingerprint ?? '—'], ['catalog generation', r.catalogGeneration ?? '—'],
      ['prev hash', r.prevHash], ['hash', r.hash],
    ];
    for (const [k, v] of fields) {
      const dt = document.createElement('dt'); dt.textContent = k;
      const dd = document.createElement('dd'); dd.textContent = String(v);
      dl.append(dt, dd);
    }
    $('details').hidden = false;
  }

  function render(page) {
    rows = page.rows;
    const tbody = document.querySelector('#rows tbody');
    tbody.replaceChildren();
    for (const r of rows) {
      const tr = document.createElement('tr');
      tr.dataset.seq = String(r.seq);
      tr.tabIndex = 0;
      cell(tr, String(r.seq));
      cell(tr, r.time.replace('T', ' ').replace(/\.\d+Z$/, 'Z'));
      cell(tr, r.tool);
      const st = cell(tr, '');
      const span = document.createElement('span');
      span.className = 'status ' + r.status;
      span.append(statusIcon(r.status), document.createTextNode(r.status + (r.errorKind ? ' · ' + r.errorKind : '')));
      st.appendChild(span);
      cell(tr, r.durationMs.toFixed(1) + ' ms');
      cell(tr, r.piiCategories.join(', '));
      cell(tr, r.rowCount === null ? '' : String(r.rowCount) + (r.truncated ? ' (truncated)' : ''));
      const select = () => { document.querySelectorAll('tbody tr.selected').forEach((x) => x.classList.remove('selected')); tr.classList.add('selected'); showDetails(r); };
      tr.addEventListener('click', select);
      tr.addEventListener('keydown', (e) => { if (e.key === 'Enter') select(); });
      tbody.appendChild(tr);
      if (focusSeq === r.seq) { select(); focusSeq = undefined; }
    }
    $('empty').hidden = rows.length > 0;
    $('prev').disabled = page.page === 0;
    $('next').disabled = !page.hasMore;
    $('pageInfo').textContent = rows.length ? 'rows ' + (page.page * page.pageSize + 1) + '–' + (page.page * page.pageSize + rows.length) : '';
    document.body.dataset.rendered = String(rows.length);
  }

  for (const id of ['status', 'tool', 'since', 'pageSize']) {
    $(id).addEventListener('change', (e) => { state[id] = e.target.value; state.page = 0; query(); });
  }
  $('prev').addEventListener('click', () => { state.page = Math.max(0, state.page - 1); query(); });
  $('next').addEventListener('click', () => { state.page += 1; query(); });
  $('verify').addEventListener('click', () => { $('verify').disabled = true; vscode.postMessage({ type: 'verify' }); });

  window.addEventListener('message', (event) => {
    const m = event.data;
    switch (m.type) {
      case 'init': {
        const sel = $('tool');
        for (const t of m.tools) { const o = document.createElement('option'); o.value = t; o.textContent = t; sel.appendChild(o); }
        for (const id of ['status', 'tool', 'since', 'pageSize']) $(id).value = String(state[id]);
        focusSeq = m.focusSeq;
        if (state.status || state.tool || state.since || state.page) query();
        break;
      }
      case 'rows': render(m.page); $('error').hidden = true; break;
      case 'focus': focusSeq = m.seq; render({ rows, page: state.page, pageSize: state.pageSize, hasMore: !$('next').disabled }); break;
      case 'verification': {
        const el = $('verification');
        el.textContent = m.text;
        el.className = 'verification ' + m.state;
        $('verify').disabled = false;
        break;
      }
      case 'error': $('error').textContent = m.message; $('error').hidden = false; $('verify').disabled = false; break;
    }
  });
  vscode.postMessage({ type: 'ready' });
})();
