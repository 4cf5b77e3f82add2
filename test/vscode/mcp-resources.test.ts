// The MCP surface beyond tools, as the editor itself uses it: catalog resources read through the editor's own MCP
// client (the `mcp-resource:` file system the workbench registers over the server it started), a slow profile_table
// that reports progress and is cancelled through a CancellationToken, and a re-index that refreshes an open resource.
//
// What the extension API of VS Code 1.139 (code-server 4.139.1) reaches, and what it does not:
//  - resources: there is no `vscode.lm` call that lists MCP resources; the workbench exposes each server's resources
//    as `mcp-resource://<hex of the server definition id>/<scheme>/<authority>/<path>` through its file service,
//    which `vscode.workspace.fs` and `openTextDocument` reach. Reads go to the server the editor started
//    (resources/read); a visible document is watched, which the workbench turns into resources/subscribe and
//    reloads on notifications/resources/updated.
//  - the resource list (resources/list) is only shown in the UI: MCP: Browse Resources and the chat's
//    Add Context… → MCP Resources picker. Prompts are only offered as `/mcp.SchemaBrain.<prompt>` completions in the
//    chat input. Both are driven through the UI in the browser suite (test/e2e/mcp-ui.ts). The workbench of this
//    version receives notifications/resources/list_changed but nothing consumes it: both pickers call
//    resources/list each time they open, so "the list refreshes" is checked there by re-opening after a re-index.
//  - progress: vscode.lm.invokeTool gives the extension no progress callback. The workbench does send a
//    progressToken with the call and turns notifications/progress into the chat's tool-invocation progress, which
//    needs a chat model (Copilot sign-in) to run a tool from chat. What is checked here is that the server, called
//    by the editor, sent its progress notifications until the Stop: the call's event records how many.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { Client as PgClient } from 'pg';
import * as vscode from 'vscode';
import { COMMAND_IDS } from '../../src/extension/constants';
import type { ConnectionCommandResult } from '../../src/extension/commands/connection-commands';
import type { IndexOutcome } from '../../src/extension/indexing/run-index';
import { MCP_SERVER_DEFINITION_ID } from '../../src/extension/mcp/provider';
import { activateApi, fixtures, sleep, waitFor } from './helpers';

const SOURCE = 'mcpslow';
const TABLE = 'slow_orders';

/** The workbench's URI for a server's resource: `mcp-resource://<hex(definition id)>/<scheme>/<authority><path>`. */
function editorResourceUri(resource: string): vscode.Uri {
  const u = new URL(resource);
  const hex = Buffer.from(MCP_SERVER_DEFINITION_ID, 'utf8').toString('hex');
  return vscode.Uri.parse(`mcp-resource://${hex}/${u.protocol.replace(/:$/, '')}/${u.host}${u.pathname}`);
}

async function schemaBrainTool(suffix: string): Promise<vscode.LanguageModelToolInformation> {
  return waitFor(`the ${suffix} tool of the editor's SchemaBrain server`, async () => {
    const found = vscode.lm.tools.find((t) => /schemabrain/i.test(t.name) && t.name.endsWith(suffix));
    if (found) return found;
    await vscode.commands.executeCommand('workbench.mcp.startServer', '*', { waitForLiveTools: true, autoTrustChanges: true }).then(undefined, () => undefined);
    return undefined;
  }, 60_000, 1000);
}

describe('MCP resources, progress and cancellation in the editor', function () {
  const fx = fixtures();
  // Per run, like the fixture database it is named after: runs that overlap on one server leave each other alone.
  const DB = fx.pg.database.replace(/^sb_ext_fixture/, 'sb_ext_mcp');
  const pgConfig = { host: fx.pg.host, port: fx.pg.port, user: fx.pg.user };
  let admin: PgClient | undefined;

  async function db(): Promise<PgClient> {
    const c = new PgClient({ ...pgConfig, database: DB });
    c.on('error', () => undefined); // a session the final FORCE drop ends is not an uncaught error
    await c.connect();
    return c;
  }

  async function activeProfileQueries(): Promise<number> {
    const c = await db();
    try {
      const r = await c.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND state = 'active' AND query ILIKE $2 AND query NOT ILIKE '%LOCK TABLE%' AND pid <> pg_backend_pid()", [DB, `%${TABLE}%`]);
      return (r.rows[0] as { n: number }).n;
    } finally {
      await c.end();
    }
  }

  before(async function () {
    this.timeout(180_000);
    admin = new PgClient({ ...pgConfig, database: 'postgres' });
    admin.on('error', () => undefined);
    try {
      await admin.connect();
    } catch {
      this.skip(); // needs the shared PostgreSQL server (pg_stat_activity is the proof of cancellation)
    }
    await admin.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${DB}`);
    const c = await db();
    await c.query(`CREATE TABLE ${TABLE} AS SELECT g AS id, md5(g::text) AS code, (g % 97)::numeric(10,2) AS amount FROM generate_series(1, 5000) g;
      ALTER TABLE ${TABLE} ADD PRIMARY KEY (id); COMMENT ON TABLE ${TABLE} IS 'Orders that take a while to profile'; ANALYZE`);
    await c.end();
    const api = await activateApi();
    const added = (await vscode.commands.executeCommand(COMMAND_IDS.addConnection, { name: SOURCE, engine: 'postgres', ...pgConfig, database: DB })) as ConnectionCommandResult;
    assert.equal(added.saved, true, JSON.stringify(added));
    const outcome = (await vscode.commands.executeCommand(COMMAND_IDS.indexConnection, SOURCE)) as IndexOutcome;
    assert.equal(outcome.status, 'succeeded', JSON.stringify(outcome));
    await api.catalog.check(true);
    // A server an earlier suite started was launched for the connections before this one was added, and the editor
    // holds it as outdated: restart it now, so the reads and the subscription below live on the server that stays.
    assert.equal(await vscode.commands.executeCommand(COMMAND_IDS.restartMcpServer), true);
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await admin?.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`).catch(() => undefined);
    await admin?.end().catch(() => undefined);
  });

  it('reads a schemabrain:// table resource through the editor’s own MCP client', async () => {
    await schemaBrainTool('list_indexed_schemas');
    const uri = editorResourceUri(`schemabrain://${SOURCE}/public/${TABLE}`);
    // The server notices the new catalog generation within a second; until then the table is not found.
    const text = await waitFor('the table resource', async () => {
      try {
        return Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8');
      } catch {
        return undefined;
      }
    }, 30_000, 500);
    assert.match(text, /public\.slow_orders/);
    assert.match(text, /Orders that take a while to profile/);
    for (const col of ['id', 'code', 'amount']) assert.match(text, new RegExp(`\\b${col}\\b`));
    await assert.rejects(Promise.resolve(vscode.workspace.fs.readFile(editorResourceUri(`schemabrain://${SOURCE}/public/no_such_table`))));
  });

  it('profile_table reports progress and stops on the CancellationToken: the PostgreSQL query is gone and the call is recorded as cancelled', async function () {
    this.timeout(90_000);
    const api = await activateApi();
    const tool = await schemaBrainTool('profile_table');
    // Another session holds the table's lock, so the profile's sampling query waits in the backend as a long scan would.
    const locker = await db();
    await locker.query(`BEGIN; LOCK TABLE ${TABLE} IN ACCESS EXCLUSIVE MODE`);
    const cts = new vscode.CancellationTokenSource();
    const started = Date.now();
    try {
      const call = Promise.resolve(vscode.lm.invokeTool(tool.name, { input: { qualified_name: `public.${TABLE}`, source: SOURCE, sample_rows: 1000 }, toolInvocationToken: undefined }, cts.token));
      const settled = call.then((r) => ({ ok: true as const, r }), (e: unknown) => ({ ok: false as const, e }));
      await waitFor('the profile query running in PostgreSQL', async () => ((await activeProfileQueries()) > 0 ? true : undefined), 30_000, 100);
      // Two heartbeats (one a second) before the Stop; the statement timeout (5 s) is well after.
      await sleep(2300);
      cts.cancel();
      const outcome = await settled;
      assert.equal(outcome.ok, false, `the call should end with the cancellation, not ${outcome.ok ? JSON.stringify(outcome.r.content).slice(0, 300) : ''}`);
      assert.match(String((outcome as { e: unknown }).e), /cancel/i);
      await waitFor('the backend query gone from pg_stat_activity', async () => ((await activeProfileQueries()) === 0 ? true : undefined), 5000, 100);
      assert.ok(Date.now() - started < 5000 + 10_000, 'stopped by the cancellation, not by the statement timeout');
    } finally {
      await locker.query('ROLLBACK').catch(() => undefined);
      await locker.end().catch(() => undefined);
      cts.dispose();
    }
    const settings = api.settings();
    const row = await waitFor('the audit row of the cancelled call', () => {
      const lines = fs.existsSync(settings.auditPath) ? fs.readFileSync(settings.auditPath, 'utf8').trim().split('\n').filter(Boolean) : [];
      // Earlier suites called profile_table too: only a row written after this call started is this call's.
      return lines.map((l) => JSON.parse(l) as { tool: string; status: string; error_kind: string | null; client_name: string | null; time: string }).filter((r) => r.tool === 'profile_table' && Date.parse(r.time) >= started - 1000).at(-1);
    }, 10_000);
    assert.equal(row.status, 'error');
    assert.equal(row.error_kind, 'cancelled');
    assert.ok(row.client_name, 'the audit row names the editor as the client');
    const event = await waitFor('the tool_call event of the cancelled call', () => {
      const lines = fs.existsSync(settings.eventsPath) ? fs.readFileSync(settings.eventsPath, 'utf8').trim().split('\n').filter(Boolean) : [];
      return lines
        .map((l) => JSON.parse(l) as { kind: string; timestamp: string; tool_name?: string; error_kind?: string | null; result_summary?: Record<string, unknown> })
        .filter((e) => e.kind === 'tool_call' && e.tool_name === 'profile_table' && Date.parse(e.timestamp) >= started - 1000)
        .at(-1);
    }, 10_000);
    assert.equal(event.error_kind, 'cancelled');
    // The editor sent a progressToken, and the start plus at least two heartbeats reached it before the Stop.
    assert.ok(Number(event.result_summary?.progress_notifications) >= 3, `progress notifications: ${JSON.stringify(event.result_summary)}`);
  });

  // The workbench reloads an open mcp-resource document when the server says it was updated and a new read differs
  // in size (its stat has no mtime). It answers reads from a 3-second cache that an update does not clear, so an
  // update soon after the document was read is repeated by the server once that cache is gone
  // (CLIENT_READ_CACHE_MS in src/server/create-server.ts): without the repeat this check failed whenever the re-index
  // finished within 3 s of opening the document.
  it('a re-index refreshes an open table resource (resources/subscribe → notifications/resources/updated)', async function () {
    this.timeout(120_000);
    const uri = editorResourceUri(`schemabrain://${SOURCE}/public/${TABLE}`);
    const doc = await vscode.workspace.openTextDocument(uri);
    // A visible editor is what the workbench watches, and watching an mcp-resource is a resources/subscribe.
    await vscode.window.showTextDocument(doc, { preview: false });
    assert.ok(!doc.getText().includes('refund_note'));
    const changed = new Promise<string>((resolve) => {
      const sub = vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document.uri.toString() === doc.uri.toString() && e.document.getText().includes('refund_note')) {
          sub.dispose();
          resolve(e.document.getText());
        }
      });
    });
    const c = await db();
    await c.query(`ALTER TABLE ${TABLE} ADD COLUMN refund_note text; COMMENT ON COLUMN ${TABLE}.refund_note IS 'Why the order was refunded'`);
    await c.end();
    const outcome = (await vscode.commands.executeCommand(COMMAND_IDS.indexConnection, SOURCE)) as IndexOutcome;
    assert.equal(outcome.status, 'succeeded', JSON.stringify(outcome));
    const text = await Promise.race([changed, sleep(30_000).then(() => doc.getText())]);
    if (!/refund_note/.test(text)) {
      // What the server answers now, read afresh, tells a lost notification from a server that never saw the index.
      const fresh = await Promise.resolve(vscode.workspace.fs.readFile(uri)).then((b) => Buffer.from(b).toString('utf8'), (e: Error) => `read failed: ${e.message}`);
      assert.fail(`the open resource did not reload with the new column within 30 s; a fresh read ${/refund_note/.test(fresh) ? 'has' : 'lacks'} it (${fresh.slice(0, 200).replace(/\n/g, ' ')}); visible: ${vscode.window.visibleTextEditors.map((e) => e.document.uri.toString()).join(', ')}`);
    }
    assert.match(text, /Why the order was refunded/);
  });
});
