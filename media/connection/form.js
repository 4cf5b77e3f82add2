// Connection form client. Runs under a nonce-only CSP; builds native labelled controls (keyboard and screen-reader
// friendly), keeps what was typed across Test/Save failures, and shows each error next to its field.
(function () {
  const vscode = acquireVsCodeApi();
  const app = document.getElementById('app');
  let engines = [];
  let editing = false;
  let hasPassword = false;
  const inputs = {};
  const errors = {};

  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) if (v !== undefined && v !== null) e.setAttribute(k, String(v));
    if (text !== undefined) e.textContent = String(text);
    return e;
  }

  function field(form, id, label, control, hint) {
    const l = el('label', { for: id }, label);
    const box = el('div', { class: 'field', id: `field-${id}` });
    box.appendChild(control);
    if (hint) box.appendChild(el('span', { class: 'hint', id: `hint-${id}` }, hint));
    const err = el('span', { class: 'error', id: `error-${id}`, role: 'alert' });
    box.appendChild(err);
    control.setAttribute('aria-describedby', [hint ? `hint-${id}` : '', `error-${id}`].filter(Boolean).join(' '));
    errors[id] = err;
    l.id = `label-${id}`;
    form.appendChild(l);
    form.appendChild(box);
    return box;
  }

  function values() {
    const v = {};
    for (const [k, i] of Object.entries(inputs)) v[k] = i.type === 'checkbox' ? i.checked : i.value;
    return v;
  }

  function showKind() {
    const spec = engines.find((e) => e.id === inputs.engine.value) || engines[0];
    const server = spec.kind === 'server';
    for (const id of ['host', 'port', 'database', 'user', 'password', 'sslmode']) {
      document.getElementById(`field-${id}`).hidden = !server;
      document.getElementById(`label-${id}`).hidden = !server;
    }
    for (const id of ['file']) {
      document.getElementById(`field-${id}`).hidden = server;
      document.getElementById(`label-${id}`).hidden = server;
    }
    const ssl = inputs.sslmode;
    const keep = ssl.value;
    while (ssl.firstChild) ssl.removeChild(ssl.firstChild);
    for (const m of spec.sslModes) ssl.appendChild(el('option', { value: m }, m));
    if (spec.sslModes.includes(keep)) ssl.value = keep;
  }

  function render(init) {
    engines = init.engines;
    editing = init.editing;
    hasPassword = init.hasPassword;
    const v = init.values;
    app.appendChild(el('h1', {}, editing ? `Edit connection '${v.name}'` : 'Add a connection'));
    app.appendChild(el('p', { class: 'intro' }, 'Passwords are kept in the editor\u2019s secret storage, never in settings. Test checks the connection without saving.'));
    const form = el('form', { id: 'form', novalidate: '' });
    const engine = el('select', { id: 'engine', name: 'engine' });
    for (const e of engines) engine.appendChild(el('option', { value: e.id }, e.label));
    inputs.engine = engine;
    field(form, 'engine', 'Engine', engine);
    const text = (id, label, opts, hint) => {
      const i = el('input', Object.assign({ id, name: id, type: 'text', spellcheck: 'false', autocomplete: 'off' }, opts || {}));
      inputs[id] = i;
      field(form, id, label, i, hint);
      return i;
    };
    text('name', 'Name', { required: '', placeholder: 'e.g. orders_prod' }, 'Letters, digits, dot, dash, underscore. The agent names the source by it.');
    text('host', 'Host', { placeholder: '127.0.0.1' });
    text('port', 'Port', { inputmode: 'numeric', placeholder: '5432' });
    text('database', 'Database', {});
    text('user', 'User', {});
    const pw = el('input', { id: 'password', name: 'password', type: 'password', autocomplete: 'new-password', placeholder: editing && hasPassword ? '(stored \u2014 leave empty to keep it)' : '(none)' });
    inputs.password = pw;
    const pwBox = field(form, 'password', 'Password', pw);
    if (editing && hasPassword) {
      const clear = el('input', { id: 'clearPassword', type: 'checkbox' });
      inputs.clearPassword = clear;
      const l = el('label', { for: 'clearPassword', class: 'hint' }, ' Remove the stored password');
      const row = el('div', { class: 'row' });
      row.appendChild(clear);
      row.appendChild(l);
      pwBox.insertBefore(row, pwBox.lastChild);
    }
    const ssl = el('select', { id: 'sslmode', name: 'sslmode' });
    inputs.sslmode = ssl;
    field(form, 'sslmode', 'SSL mode', ssl, 'prefer: TLS when the server offers it; require/verify-*: refuse without it.');
    const file = el('input', { id: 'file', name: 'file', type: 'text', spellcheck: 'false', placeholder: '/path/to/database.sqlite' });
    inputs.file = file;
    const row = el('div', { class: 'row' });
    row.appendChild(file);
    const browse = el('button', { type: 'button', id: 'browse', class: 'secondary' }, 'Browse\u2026');
    row.appendChild(browse);
    field(form, 'file', 'File', row);
    file.setAttribute('aria-describedby', 'error-file');
    errors.form = el('span', { class: 'error', id: 'error-form', role: 'alert' });
    const summary = el('div', { id: 'summary', role: 'status' });
    form.appendChild(summary);
    form.appendChild(errors.form);
    const actions = el('div', { class: 'actions' });
    const save = el('button', { type: 'submit', id: 'save' }, editing ? 'Save' : 'Test and Save');
    const test = el('button', { type: 'button', id: 'test', class: 'secondary' }, 'Test');
    const untested = el('button', { type: 'button', id: 'saveUntested', class: 'secondary' }, 'Save Without Testing');
    const cancel = el('button', { type: 'button', id: 'cancel', class: 'secondary' }, 'Cancel');
    for (const b of [save, test, untested, cancel]) actions.appendChild(b);
    form.appendChild(actions);
    app.appendChild(form);

    for (const [k, val] of Object.entries(v)) if (inputs[k] && val !== undefined && inputs[k].type !== 'checkbox') inputs[k].value = val;
    showKind();
    if (v.sslmode) inputs.sslmode.value = v.sslmode;
    engine.addEventListener('change', () => {
      const spec = engines.find((e) => e.id === engine.value);
      if (spec && spec.defaultPort && !editing) inputs.port.value = String(spec.defaultPort);
      showKind();
    });
    const submit = (action) => {
      for (const b of [save, test, untested]) b.disabled = true;
      summary.className = '';
      summary.textContent = action === 'test' ? 'Testing\u2026' : 'Saving\u2026';
      vscode.postMessage({ type: 'submit', action, values: values() });
    };
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      submit('save');
    });
    test.addEventListener('click', () => submit('test'));
    untested.addEventListener('click', () => submit('saveUntested'));
    cancel.addEventListener('click', () => vscode.postMessage({ type: 'cancel' }));
    browse.addEventListener('click', () => vscode.postMessage({ type: 'browse', values: values() }));
    document.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') vscode.postMessage({ type: 'cancel' });
    });
    (editing ? inputs.host : inputs.name).focus();
  }

  function showReply(r) {
    for (const b of ['save', 'test', 'saveUntested']) document.getElementById(b).disabled = false;
    for (const [id, span] of Object.entries(errors)) {
      span.textContent = r.fieldErrors[id] || '';
      if (inputs[id]) inputs[id].setAttribute('aria-invalid', r.fieldErrors[id] ? 'true' : 'false');
    }
    const summary = document.getElementById('summary');
    summary.textContent = r.message;
    summary.className = r.ok ? 'ok' : 'fail';
    const first = Object.keys(r.fieldErrors).find((id) => inputs[id]);
    if (first) inputs[first].focus();
  }

  window.addEventListener('message', (ev) => {
    const m = ev.data;
    if (m.type === 'init') render(m);
    else if (m.type === 'reply') showReply(m.reply);
    else if (m.type === 'file') inputs.file.value = m.path;
  });
  vscode.postMessage({ type: 'ready' });
})();
