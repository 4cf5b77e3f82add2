import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { Pool } from 'pg';
import { ensureBuilt } from '../../support/build';
import { CHINOOK_SQLITE } from '../../support/server-harness';
import { call, cli, connectClient, freshTeamDb, issueToken, startReplica, tempDir, type Replica, type TeamDb } from './support';

const EMAIL_VALUE = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+\.[A-Za-z]{2,}/;

async function api(replica: Replica, token: string, p: string, headers: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  const r = await fetch(`${replica.base}/team/v1/${p}`, { headers: { authorization: `Bearer ${token}`, ...headers } });
  return { status: r.status, body: (await r.json()) as Record<string, unknown>, headers: r.headers };
}

async function waitFor(what: string, check: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 150));
  }
  assert.fail(`timed out waiting for ${what}`);
}

function columnNames(env: { data: unknown }): string[] {
  const d = env.data as { columns?: Array<{ name: string }>; table?: { columns?: Array<{ name: string }> } };
  return (d.columns ?? d.table?.columns ?? []).map((c) => c.name);
}

describe('team store: events, PII policy with role blocks, index runs, structured logs', function () {
  this.timeout(120_000);
  let db: TeamDb | null = null;
  let pool: Pool;
  let replica: Replica;
  const tok: Record<string, { id: string; token: string }> = {};

  before(async function () {
    db = await freshTeamDb(this, 'sb_team_state');
    if (!db) return;
    ensureBuilt();
    pool = db.pool();
    const r = await cli(['index', '--source', CHINOOK_SQLITE, '--name', 'chinook', '--store', db.url, '--json'], { ...db.env, SCHEMABRAIN_HOME: tempDir() });
    assert.equal(r.code, 0, r.stderr);
    tok.catalog = await issueToken(db, 'bob', 'catalog');
    tok.analyst = await issueToken(db, 'alice', 'analyst');
    tok.admin = await issueToken(db, 'root', 'admin');
    replica = await startReplica(db, { args: ['--rate-limit', '0'] });
  });

  after(async () => {
    replica?.child.kill('SIGKILL');
    await db?.drop();
  });

  it('records index runs in the store: who, when, status and the generation published', async () => {
    const runs = (await pool.query<{ source_name: string; status: string; exit_code: number; generation: string; run_by: string; finished_at: Date | null }>('SELECT * FROM schemabrain.index_run ORDER BY id')).rows;
    assert.equal(runs.length, 1);
    assert.equal(runs[0]!.source_name, 'chinook');
    assert.equal(runs[0]!.status, 'ok');
    assert.equal(runs[0]!.exit_code, 0);
    assert.equal(Number(runs[0]!.generation), 1);
    assert.ok(runs[0]!.run_by.length > 0 && runs[0]!.finished_at);
    // A failed run is recorded as failed, with no generation.
    const bad = await cli(['index', '--source', path.join(tempDir(), 'missing.sqlite'), '--name', 'gone', '--store', db!.url], { ...db!.env, SCHEMABRAIN_HOME: tempDir() });
    assert.notEqual(bad.code, 0);
    const last = (await pool.query<{ source_name: string; status: string; generation: string | null }>('SELECT * FROM schemabrain.index_run ORDER BY id DESC LIMIT 1')).rows[0]!;
    assert.deepEqual([last.source_name, last.status, last.generation], ['gone', 'failed', null]);
    const listed = await api(replica, tok.analyst!.token, 'index-runs');
    assert.equal((listed.body.runs as unknown[]).length, 2);
  });

  it('a role with extra PII blocks loses those columns in describe, run_query, profile_table and resources; other roles keep them', async () => {
    const alice = await connectClient(replica.mcpUrl, tok.analyst!.token);
    const root = await connectClient(replica.mcpUrl, tok.admin!.token);
    const bob = await connectClient(replica.mcpUrl, tok.catalog!.token);
    try {
      const describe = { qualified_name: 'main.Customer', source: 'chinook' };
      assert.ok(columnNames(await call(alice, 'describe_table', describe)).includes('Email'), 'before the policy the analyst sees Email');
      const bad = await cli(['pii-policy', 'publish', '--role-block', 'analyst=contacts', '--store', db!.url], db!.env);
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /unknown PII category 'contacts'; valid categories are: .*contact/);
      const pub = await cli(['pii-policy', 'publish', '--role-block', 'analyst=contact', '--role-block', 'catalog=contact', '--store', db!.url], db!.env);
      assert.equal(pub.code, 0, pub.stderr);
      await waitFor('the replica to load the policy', async () => ((await api(replica, tok.analyst!.token, 'whoami')).body.pii_policy_version as number) > 0);
      const who = await api(replica, tok.analyst!.token, 'whoami');
      assert.deepEqual(who.body.pii_blocked_for_role, ['contact']);

      for (const [who, client] of [
        ['analyst', alice],
        ['catalog', bob],
      ] as const) {
        const d = await call(client, 'describe_table', describe);
        assert.equal(d.status, 'success', who);
        const names = columnNames(d);
        assert.ok(!names.includes('Email') && !names.includes('Phone'), `${who}: ${names.join(',')}`);
        assert.ok(names.some((n) => /redacted_contact/.test(n)), `${who}: ${names.join(',')}`);
      }
      assert.ok(columnNames(await call(root, 'describe_table', describe)).includes('Email'), 'admin has no extra block');

      // Customer 1's address (contact): the admin reads it, the analyst whose role blocks contact does not.
      const sql = { sql: 'SELECT Address FROM Customer WHERE CustomerId = 1', source: 'chinook' };
      const admin = await call(root, 'run_query', sql);
      assert.equal(admin.status, 'success');
      assert.match(JSON.stringify(admin.data), /Brigadeiro/);
      const mine = await call(alice, 'run_query', sql);
      assert.doesNotMatch(JSON.stringify(mine), /Brigadeiro/);
      assert.ok(mine.status !== 'success', JSON.stringify(mine).slice(0, 300));

      const prof = await call(alice, 'profile_table', describe);
      assert.doesNotMatch(JSON.stringify(prof), EMAIL_VALUE);
      assert.doesNotMatch(JSON.stringify(prof), /Brigadeiro/);
      assert.doesNotMatch(JSON.stringify(prof.data ?? null), /"Email"/);

      const uri = 'schemabrain://chinook/main/Customer';
      const text = (r: Awaited<ReturnType<typeof alice.readResource>>): string => r.contents.map((c) => ('text' in c ? String(c.text) : '')).join('\n');
      assert.doesNotMatch(text(await alice.readResource({ uri })), /\bEmail\b/);
      assert.match(text(await root.readResource({ uri })), /\bEmail\b/);
    } finally {
      await Promise.all([alice.close(), root.close(), bob.close()]);
    }
  });

  it("get_metric: a filter on a column the role's extra block covers is refused for that role; admin gets the figure", async () => {
    const dir = tempDir();
    fs.cpSync(path.join(path.dirname(CHINOOK_SQLITE), 'chinook-workspace', '.schemabrain'), dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'probe.yaml'), 'version: 1\nmetrics:\n  - name: customer_count\n    entity: customer\n    measure: { agg: count }\n');
    const pub = await cli(['definitions', 'publish', '--dir', dir, '--store', db!.url], db!.env);
    assert.equal(pub.code, 0, pub.stderr);
    const alice = await connectClient(replica.mcpUrl, tok.analyst!.token);
    const root = await connectClient(replica.mcpUrl, tok.admin!.token);
    try {
      await waitFor('the published metric', async () => JSON.stringify((await call(root, 'list_metrics', {})).data).includes('customer_count'));
      // Filtering on a contact column probes individual values: allowed where contact is visible, refused where blocked.
      const args = { name: 'customer_count', filters: [{ column: 'customer.Address', op: 'eq', value: 'Av. Brigadeiro Faria Lima, 2170' }] };
      const admin = await call(root, 'get_metric', args);
      assert.equal(admin.status, 'success', JSON.stringify(admin.error));
      assert.match(JSON.stringify(admin.data), /\b1\b/);
      const mine = await call(alice, 'get_metric', args);
      assert.equal(mine.status, 'refused', JSON.stringify(mine).slice(0, 300));
      assert.equal(mine.error?.kind, 'pii_blocked');
      assert.match(mine.error!.message, /contact/);
    } finally {
      await Promise.all([alice.close(), root.close()]);
    }
  });

  it('column overrides published to the store apply on the replicas at serve time, without a re-index', async () => {
    const root = await connectClient(replica.mcpUrl, tok.admin!.token);
    try {
      const describe = { qualified_name: 'main.Genre', source: 'chinook' };
      assert.ok(columnNames(await call(root, 'describe_table', describe)).includes('Name'));
      const file = path.join(tempDir(), 'policy.yaml');
      fs.writeFileSync(file, 'version: 1\ncolumn_overrides:\n  main.Genre.Name: { categories: [contact], block: true }\n');
      const before = (await api(replica, tok.admin!.token, 'whoami')).body.pii_policy_version as number;
      const pub = await cli(['pii-policy', 'publish', '--file', file, '--store', db!.url], db!.env);
      assert.equal(pub.code, 0, pub.stderr);
      await waitFor('the new policy version', async () => ((await api(replica, tok.admin!.token, 'whoami')).body.pii_policy_version as number) > before);
      const names = columnNames(await call(root, 'describe_table', describe));
      assert.ok(!names.includes('Name') && names.some((n) => /redacted/.test(n)), names.join(','));
      // The stored version names who published it; the file is kept as written.
      const row = (await pool.query<{ body: string; published_by: string }>('SELECT body, published_by FROM schemabrain.pii_policy ORDER BY id DESC LIMIT 1')).rows[0]!;
      assert.match(row.body, /main\.Genre\.Name/);
      assert.ok(row.published_by.length > 0);
    } finally {
      await root.close();
    }
  });

  it('keeps events in the store with the principal, redacted like the events file; admins list them', async () => {
    await waitFor('tool_call events', async () => ((await pool.query("SELECT count(*)::int AS n FROM schemabrain.event WHERE kind = 'tool_call' AND principal LIKE 'alice/%'")).rows[0].n as number) > 0);
    const rows = (await pool.query<{ principal: string | null; body: string }>('SELECT principal, body FROM schemabrain.event ORDER BY id')).rows;
    const all = rows.map((r) => r.body).join('\n');
    for (const t of Object.values(tok)) assert.ok(!all.includes(t.token));
    assert.doesNotMatch(all, EMAIL_VALUE);
    const ev = JSON.parse(rows.find((r) => r.principal?.startsWith('alice/'))!.body) as { kind: string; tool_name: string; status: string };
    assert.equal(ev.kind, 'tool_call');
    assert.ok(rows.some((r) => (JSON.parse(r.body) as { event_subtype?: string }).event_subtype === 'server_start'));
    const listed = await api(replica, tok.admin!.token, 'events?limit=5');
    assert.equal(listed.status, 200);
    assert.equal((listed.body.events as unknown[]).length, 5);
    const denied = await api(replica, tok.analyst!.token, 'events');
    assert.equal(denied.status, 403);
    assert.match(String(denied.body.message), /admins/);
  });

  it('team API: the catalog scoped to the principal without sampled values; audit rows of all (admin) or of the caller', async () => {
    const cat = await api(replica, tok.analyst!.token, 'catalog');
    assert.equal(cat.status, 200);
    const tables = cat.body.tables as Array<{ table: { name: string; columns: Array<{ stats: { minValue: unknown; mostCommonValues: unknown } | null }> } }>;
    assert.ok(tables.some((t) => t.table.name === 'Customer'));
    for (const t of tables) for (const c of t.table.columns) assert.ok(!c.stats || (c.stats.minValue === null && c.stats.mostCommonValues === null));
    // A column the policy blocks (Genre.Name, published above) goes by its placeholder, as describe_table shows it.
    const genre = (cat.body.tables as Array<{ table: { name: string; columns: Array<{ name: string; comment: string | null }> } }>).find((t) => t.table.name === 'Genre')!;
    const names = genre.table.columns.map((c) => c.name);
    assert.ok(!names.includes('Name') && names.some((n) => /^<redacted_contact_column_\d+>$/.test(n)), names.join(','));
    const own = await api(replica, tok.analyst!.token, 'audit?limit=200');
    assert.equal(own.body.scope, 'own');
    const ownRows = own.body.rows as Array<{ principal: string }>;
    assert.ok(ownRows.length > 0 && ownRows.every((r) => r.principal === `alice/${tok.analyst!.id}`));
    const all = await api(replica, tok.admin!.token, 'audit?limit=200&verify=1');
    assert.equal(all.body.scope, 'all');
    assert.ok((all.body.rows as Array<{ principal: string }>).some((r) => r.principal?.startsWith('bob/')));
    assert.equal((all.body.verification as { ok: boolean }).ok, true);
    const refused = await fetch(`${replica.base}/team/v1/whoami`, { headers: { authorization: 'Bearer sbt_000000000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' } });
    assert.equal(refused.status, 401);
    assert.match(refused.headers.get('www-authenticate') ?? '', /invalid_token/);
  });

  it('logs JSON lines on stderr (level, ts, msg, request id, principal, tool, status, duration) and never a token', async () => {
    const alice = await connectClient(replica.mcpUrl, tok.analyst!.token);
    await call(alice, 'list_indexed_schemas', {});
    await alice.close();
    await api(replica, tok.analyst!.token, 'whoami', { 'x-request-id': 'trace-42' });
    await fetch(`${replica.base}/team/v1/whoami`, { headers: { authorization: `Bearer ${tok.analyst!.token.slice(0, -2)}xx` } });
    await new Promise((r) => setTimeout(r, 300));
    const lines = replica.stderr().split('\n').filter((l) => l.trim());
    assert.ok(lines.length > 5);
    const parsed = lines.map((l) => {
      try {
        return JSON.parse(l) as Record<string, unknown>;
      } catch {
        assert.fail(`not a JSON line: ${l.slice(0, 200)}`);
      }
    });
    for (const p of parsed) {
      assert.ok(['debug', 'info', 'warn', 'error'].includes(p.level as string), JSON.stringify(p));
      assert.ok(!Number.isNaN(Date.parse(p.ts as string)), JSON.stringify(p));
      assert.equal(typeof p.msg, 'string');
    }
    const callLine = parsed.find((p) => p.msg === 'tool call' && p.tool === 'list_indexed_schemas');
    assert.ok(callLine, 'a tool call line');
    assert.equal(callLine.principal, `alice/${tok.analyst!.id}`);
    assert.equal(callLine.status, 'success');
    assert.equal(typeof callLine.duration_ms, 'number');
    assert.match(String(callLine.request_id), /^[0-9a-f-]{36}$/);
    assert.ok(parsed.some((p) => p.request_id === 'trace-42'), 'the caller\'s x-request-id is kept');
    const refused = parsed.find((p) => p.msg === 'request refused');
    assert.ok(refused && refused.status === 401 && typeof refused.request_id === 'string');
    const text = replica.stderr();
    for (const t of Object.values(tok)) {
      assert.ok(!text.includes(t.token), 'no token in the log');
      assert.ok(!text.includes(t.token.slice(17)), 'no token secret in the log');
    }
    assert.doesNotMatch(text, EMAIL_VALUE);
  });
});
