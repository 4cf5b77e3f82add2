import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { CatalogStore } from '../../src/core/catalog/store';
import type { IndexOutcome } from '../../src/extension/indexing/run-index';
import { COMMAND_IDS } from '../../src/extension/constants';
import { activateApi, addThroughForm, fixtures, waitFor } from './helpers';
import { invokeSchemaBrainTool } from './mcp.test';

/** Every regular file under `dir` (bounded), skipping what cannot be read. */
function* filesUnder(dir: string, depth = 0): Generator<string> {
  if (depth > 8) return;
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* filesUnder(p, depth + 1);
    else if (e.isFile()) yield p;
  }
}

/** Whether the file holds the needle: its bytes, and for a catalog also its relation bodies, which are stored deflated. */
async function contains(file: string, needle: Buffer): Promise<boolean> {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch {
    return false;
  }
  if (bytes.includes(needle)) return true;
  if (!bytes.subarray(0, 16).equals(Buffer.from('SQLite format 3\0', 'latin1'))) return false;
  let store: CatalogStore;
  try {
    store = await CatalogStore.open(file);
  } catch {
    return false; // not a catalog: its bytes were searched above
  }
  try {
    return JSON.stringify(store.loadAllTables()).includes(needle.toString('utf8'));
  } finally {
    store.close();
  }
}

describe('Secrets', () => {
  const fx = fixtures();

  it('a password entered in Add Connection reaches the indexer and the MCP server, and is found nowhere else', async function () {
    if (!fx.secure) this.skip();
    const s = fx.secure!;
    const api = await activateApi();
    const r = await addThroughForm(api, 'save', { engine: 'postgres', name: 'secure', host: s.host, port: String(s.port), database: s.database, user: s.user, password: s.canary, sslmode: 'prefer' });
    assert.equal(r.saved, true, JSON.stringify(r));
    assert.ok(r.test?.ok, 'the connection test used the password');
    assert.equal(await api.connections.getPassword('secure'), s.canary);

    // The indexer gets it over the secret channel (the server requires scram auth).
    const outcome = (await vscode.commands.executeCommand(COMMAND_IDS.indexConnection, 'secure')) as IndexOutcome;
    assert.equal(outcome.status, 'succeeded', JSON.stringify(outcome));

    // The MCP server is restarted with the new connection and answers a tool call about it.
    await vscode.commands.executeCommand(COMMAND_IDS.restartMcpServer);
    // run_query opens a real connection to the scram-protected server: it only succeeds with the password.
    const res = await invokeSchemaBrainTool('run_query', { sql: 'SELECT id, label FROM vault_item', source: 'secure' });
    const text = res.content.map((c) => (c instanceof vscode.LanguageModelTextPart ? c.value : '')).join('');
    assert.match(text, /"status":\s*"success"/, text.slice(0, 400));
    await waitFor('tail shows run_query', () => /run_query/.test(api.tail.text()), 10_000);

    const needle = Buffer.from(s.canary);
    const hits: string[] = [];
    // Extension storage, the catalog home (catalog, audit log, events), user settings.
    const settingsFile = path.join(path.dirname(path.dirname(api.storagePaths[0]!)), 'settings.json');
    const roots = [...api.storagePaths, api.settings().home, path.dirname(api.settings().eventsPath)];
    let scanned = 0;
    for (const root of roots) {
      for (const f of filesUnder(root)) {
        scanned++;
        if (await contains(f, needle)) hits.push(f);
      }
    }
    if (await contains(settingsFile, needle)) hits.push(settingsFile);
    assert.ok(!JSON.stringify(vscode.workspace.getConfiguration('schemabrain').get('connections')).includes(s.canary), 'settings');
    // argv and environment of every process we can see (the MCP server and indexer included).
    let procs = 0;
    for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
      for (const what of ['cmdline', 'environ']) {
        const f = `/proc/${pid}/${what}`;
        if (await contains(f, needle)) hits.push(f);
      }
      procs++;
    }
    // What the tail channel showed, and the audit rows.
    if (api.tail.text().includes(s.canary)) hits.push('tail output channel');
    const rows = await api.audit.list({ page: 0, pageSize: 500 });
    if (JSON.stringify(rows).includes(s.canary)) hits.push('audit rows');
    assert.deepEqual(hits, [], `canary found in: ${hits.join(', ')}`);
    assert.ok(scanned > 3 && procs > 3, `scanned ${scanned} files and ${procs} processes`);
  });
});
