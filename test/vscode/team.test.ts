import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import * as vscode from 'vscode';
import type { TeamCommandResult } from '../../src/extension/team/team-commands';
import { TEAM_COMMANDS } from '../../src/extension/team/team-connection';
import type { ConnectionNode } from '../../src/extension/views/connections-tree';
import { activateApi, fixtures, ScriptedPrompter, waitFor } from './helpers';
import { invokeSchemaBrainTool, startMcpTools } from './mcp.test';

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

/** Runs the extension's own CLI (dist/cli.js) with the editor's Node. */
function cli(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  const ext = vscode.extensions.getExtension('schemabrain.schemabrain')!;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ext.extensionPath, 'dist', 'cli.js'), ...args], { env: { ...env, ELECTRON_RUN_AS_NODE: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

describe('team server: the editor connects with a token kept in SecretStorage', function () {
  this.timeout(180_000);
  const fx = fixtures();
  // Per run, like the fixture database it is named after: runs that overlap on one server leave each other alone.
  const STORE_DB = fx.pg.database.replace(/^sb_ext_fixture/, 'sb_team_vscode');
  const storeUrl = `postgres://${fx.pg.user}@${fx.pg.host}:${fx.pg.port}/${STORE_DB}`;
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-team-ext-'));
  const env: NodeJS.ProcessEnv = { ...process.env, SCHEMABRAIN_HOME: home };
  let server: ChildProcess | undefined;
  let serverLog = '';
  let mcpUrl = '';
  let admin = { id: '', token: '' };
  let alice = { id: '', token: '' };
  let pg: Client;

  const admin$ = async (sql: string): Promise<void> => {
    const c = new Client({ host: fx.pg.host, port: fx.pg.port, user: fx.pg.user, database: 'postgres' });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };

  before(async function () {
    await admin$(`DROP DATABASE IF EXISTS ${STORE_DB} WITH (FORCE)`);
    await admin$(`CREATE DATABASE ${STORE_DB}`);
    const idx = await cli(['index', '--source', fx.chinook, '--name', 'team_chinook', '--store', storeUrl], env);
    assert.equal(idx.code, 0, idx.stderr);
    const sample = path.resolve(vscode.extensions.getExtension('schemabrain.schemabrain')!.extensionPath, 'samples', 'chinook-workspace', '.schemabrain');
    const defs = await cli(['definitions', 'publish', '--dir', sample, '--store', storeUrl], env);
    assert.equal(defs.code, 0, defs.stderr);
    const issue = async (principal: string, role: string): Promise<{ id: string; token: string }> => {
      const r = await cli(['token', 'create', '--principal', principal, '--role', role, '--store', storeUrl, '--json'], env);
      assert.equal(r.code, 0, r.stderr);
      return JSON.parse(r.stdout) as { id: string; token: string };
    };
    admin = await issue('root', 'admin');
    alice = await issue('alice', 'analyst');
    const ext = vscode.extensions.getExtension('schemabrain.schemabrain')!;
    server = spawn(process.execPath, [path.join(ext.extensionPath, 'dist', 'cli.js'), 'serve', '--http', '0', '--store', storeUrl, '--cache-dir', path.join(home, 'replica'), '--rate-limit', '0'], {
      env: { ...env, ELECTRON_RUN_AS_NODE: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    server.stderr!.on('data', (d: Buffer) => (serverLog += d.toString()));
    mcpUrl = await waitFor('the team server to listen', () => /team server listening on (http:\/\/\S+?\/mcp)/.exec(serverLog)?.[1], 60_000);
    pg = new Client({ host: fx.pg.host, port: fx.pg.port, user: fx.pg.user, database: STORE_DB });
    await pg.connect();
  });

  after(async () => {
    const api = await activateApi();
    api.testing.setPrompter(undefined);
    if (api.team.active) await vscode.commands.executeCommand(TEAM_COMMANDS.disconnect);
    server?.kill('SIGTERM');
    await pg?.end().catch(() => undefined);
    await new Promise((r) => setTimeout(r, 500));
    await admin$(`DROP DATABASE IF EXISTS ${STORE_DB} WITH (FORCE)`).catch(() => undefined);
  });

  const connect = async (token: string): Promise<TeamCommandResult> => {
    const api = await activateApi();
    api.testing.setPrompter(new ScriptedPrompter([
      { match: /Team server URL/, answer: mcpUrl },
      { match: /Team server token/, answer: token },
    ]));
    return (await vscode.commands.executeCommand<TeamCommandResult>(TEAM_COMMANDS.connect))!;
  };

  const roots = async (): Promise<ConnectionNode[]> => (await activateApi()).connectionsTree.getChildren();

  it('a wrong token is refused with a clear message and nothing is stored', async () => {
    const api = await activateApi();
    const r = await connect(`sbt_000000000000_${'A'.repeat(43)}`);
    assert.equal(r.ok, false);
    assert.match(r.ok ? '' : r.message, /refused the token: the bearer token is not known to this server\. Ask a SchemaBrain admin for a new token/);
    assert.ok(api.notifier.notices.some((n) => n.severity === 'error' && /refused the token/.test(n.message)));
    assert.equal(api.team.active, false);
    assert.equal(vscode.workspace.getConfiguration('schemabrain').get('team.url'), '');
  });

  it('connected, the views show the team catalog, definitions and audit, and agent tool calls land in the team audit with the principal', async () => {
    const api = await activateApi();
    // The local server runs, as it does for a person who used the agent before connecting.
    const localTools = (await startMcpTools()).map((t) => t.name);
    assert.ok(localTools.some((n) => n.endsWith('list_indexed_schemas')), localTools.join(', '));
    const r = await connect(alice.token);
    assert.equal(r.ok, true, r.ok ? '' : r.message);
    assert.equal(api.team.active, true);
    // Connect returns once agents no longer see the local server's tools, so the next call reaches the team server.
    const stale = vscode.lm.tools.filter((t) => localTools.includes(t.name)).map((t) => t.name);
    assert.deepEqual(stale, [], 'the local server\'s tools are gone when Connect returns');
    assert.equal(vscode.workspace.getConfiguration('schemabrain').get('team.url'), mcpUrl);
    // Connections: the team's source, not the local connections.
    const sources = await waitFor('the team catalog in the Connections view', async () => {
      const names = (await roots()).filter((n) => n.kind === 'source').map((n) => (n as { name: string }).name);
      return names.includes('team_chinook') ? names : undefined;
    });
    assert.deepEqual(sources, ['team_chinook']);
    const src = (await roots()).find((n) => n.kind === 'source')!;
    assert.match(String(api.connectionsTree.getTreeItem(src).description), /11 tables/);
    // Metrics: the definitions published to the store.
    await waitFor('published definitions in the Metrics view', () => api.metricsTree.count() > 0);

    // The provider offers the team server over HTTP; the token is added at resolve time, from SecretStorage.
    const reg = api.mcp();
    assert.ok(reg.registered);
    const defs = reg.provider.provideMcpServerDefinitions();
    assert.equal(defs.length, 1);
    const def = defs[0]!;
    assert.ok(def instanceof vscode.McpHttpServerDefinition);
    assert.equal(def.uri.toString(), vscode.Uri.parse(mcpUrl).toString());
    assert.equal(JSON.stringify(def.headers).includes(alice.token), false, 'no token in the provided definition');

    const result = await invokeSchemaBrainTool('list_indexed_schemas', {});
    const text = result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
    assert.match(text, /team_chinook/);
    const rows = await waitFor('the call in the team audit', async () => {
      const q = await pg.query<{ principal: string }>("SELECT principal FROM schemabrain.audit WHERE tool = 'list_indexed_schemas'");
      return q.rows.length ? q.rows : undefined;
    });
    assert.ok(rows.some((x) => x.principal === `alice/${alice.id}`), JSON.stringify(rows));

    // Audit view: the principal's rows from the store.
    await api.teamData.loadAudit();
    api.auditTree.refresh();
    const nodes = await api.auditTree.getChildren();
    const auditRows = nodes.filter((n) => n.kind === 'row');
    assert.ok(auditRows.length > 0);
    assert.ok(auditRows.some((n) => /alice/.test(String(api.auditTree.getTreeItem(n).description))));
  });

  it('the token is in no settings file, log, event or audit row', async () => {
    const api = await activateApi();
    assert.equal(await (await activateApi()).team.token(), alice.token, 'kept in SecretStorage');
    const needle = Buffer.from(alice.token);
    const settingsFile = path.join(path.dirname(path.dirname(api.storagePaths[0]!)), 'settings.json');
    const roots = [...api.storagePaths, api.settings().home, path.dirname(api.settings().eventsPath)];
    const hits: string[] = [];
    let scanned = 0;
    for (const root of roots) {
      for (const f of filesUnder(root)) {
        // The editor's own secret store (state.vscdb) holds SecretStorage, encrypted where the platform offers it.
        if (/state\.vscdb/.test(f)) continue;
        scanned++;
        if (fs.readFileSync(f).includes(needle)) hits.push(f);
      }
    }
    if (fs.existsSync(settingsFile) && fs.readFileSync(settingsFile).includes(needle)) hits.push(settingsFile);
    assert.deepEqual(hits, [], `token found in ${hits.join(', ')}`);
    assert.ok(scanned > 0);
    assert.ok(!JSON.stringify(vscode.workspace.getConfiguration('schemabrain')).includes(alice.token));
    assert.ok(!serverLog.includes(alice.token), 'not in the server log');
    const stored = await pg.query<{ n: number }>('SELECT (SELECT count(*) FROM schemabrain.event WHERE body LIKE $1) + (SELECT count(*) FROM schemabrain.audit WHERE body LIKE $1) AS n', [`%${alice.token.slice(17)}%`]);
    assert.equal(Number(stored.rows[0]!.n), 0, 'not in events or audit');
  });

  it('a token revoked while connected gives a clear message in the views', async () => {
    const api = await activateApi();
    const r = await cli(['token', 'revoke', alice.id, '--store', storeUrl], env);
    assert.equal(r.code, 0, r.stderr);
    await waitFor('the revocation to be seen', async () => {
      await api.teamData.load();
      return api.teamData.catalogState?.state === 'unreadable';
    }, 20_000, 500);
    const st = api.teamData.catalogState;
    assert.ok(st?.state === 'unreadable');
    assert.match(st.reason, /refused the token: the bearer token was revoked/);
    api.connectionsTree.refresh();
    const msg = (await roots()).find((n) => n.kind === 'message');
    assert.ok(msg, 'the Connections view says why');
    assert.match(String(api.connectionsTree.getTreeItem(msg).tooltip), /revoked/);
  });

  it('an admin token sees every principal\'s rows; disconnect returns to the local server and forgets the token', async () => {
    const api = await activateApi();
    const r = await connect(admin.token);
    assert.equal(r.ok, true);
    await api.teamData.loadAudit();
    const page = await api.teamData.audit.list({ page: 0, pageSize: 200 });
    assert.ok(page.rows.some((x) => (x as { principal?: string }).principal === `alice/${alice.id}`));

    await vscode.commands.executeCommand(TEAM_COMMANDS.disconnect);
    assert.equal(api.team.active, false);
    assert.equal(await (await activateApi()).team.token(), undefined);
    assert.equal(vscode.workspace.getConfiguration('schemabrain').get('team.url'), '');
    const reg = api.mcp();
    assert.ok(reg.registered);
    const defs = reg.provider.provideMcpServerDefinitions();
    assert.ok(defs[0] instanceof vscode.McpStdioServerDefinition, 'the local stdio server again');
    await waitFor('the local connections again', async () => (await roots()).some((n) => n.kind === 'source' && (n as { name: string }).name !== 'team_chinook'));
    assert.ok(!(await roots()).some((n) => n.kind === 'source' && (n as { name: string }).name === 'team_chinook'));
  });
});
