import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Pool } from 'pg';
import { ensureBuilt } from '../../support/build';
import { CHINOOK_SQLITE } from '../../support/server-harness';
import { call, cli, connectClient, freshTeamDb, issueToken, startReplica, tempDir, type Replica, type TeamDb } from './support';

async function post(url: string, headers: Record<string, string>, body: unknown = { jsonrpc: '2.0', id: 1, method: 'tools/list' }): Promise<{ status: number; headers: Headers; text: string }> {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(body) });
  return { status: r.status, headers: r.headers, text: await r.text() };
}

describe('team server: authentication, roles, sources, rate limits, operations', function () {
  this.timeout(180_000);
  let db: TeamDb | null = null;
  let pool: Pool;
  let replica: Replica;
  const tok: Record<string, { id: string; token: string }> = {};

  before(async function () {
    db = await freshTeamDb(this, 'sb_team_auth');
    if (!db) return;
    ensureBuilt();
    pool = db.pool();
    const env = { ...db.env, SCHEMABRAIN_HOME: tempDir() };
    const other = path.join(tempDir(), 'other.sqlite');
    fs.copyFileSync(CHINOOK_SQLITE, other);
    for (const [src, name] of [
      [CHINOOK_SQLITE, 'chinook'],
      [other, 'other'],
    ] as const) {
      const r = await cli(['index', '--source', src, '--name', name, '--store', db.url, '--json'], env);
      assert.equal(r.code, 0, r.stderr);
    }
    tok.catalog = await issueToken(db, 'bob', 'catalog');
    tok.analyst = await issueToken(db, 'alice', 'analyst');
    tok.admin = await issueToken(db, 'root', 'admin', ['--sources', 'chinook']);
    tok.scoped = await issueToken(db, 'carol', 'analyst', ['--sources', 'chinook']);
    tok.rapid = await issueToken(db, 'rapid', 'catalog');
    tok.expired = await issueToken(db, 'old', 'analyst', ['--expires', '1m']);
    await pool.query("UPDATE schemabrain.token SET expires_at = now() - interval '1 second' WHERE id = $1", [tok.expired.id]);
    tok.revoked = await issueToken(db, 'gone', 'analyst');
    assert.equal((await cli(['token', 'revoke', tok.revoked.id, '--store', db.url], db.env)).code, 0);
    replica = await startReplica(db, { args: ['--rate-limit', '4'] });
  });
  after(async () => {
    replica?.child.kill('SIGKILL');
    await db?.drop();
  });

  it('answers 401 with a Bearer challenge naming the protected resource metadata, which it serves', async () => {
    const r = await post(replica.mcpUrl, {});
    assert.equal(r.status, 401);
    const challenge = r.headers.get('www-authenticate') ?? '';
    assert.match(challenge, /^Bearer realm="schemabrain", resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource"$/);
    // Behind a load balancer the Host is its public name: with bearer authentication that is no reason to refuse.
    const viaBalancer = await new Promise<number>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: replica.port, path: '/mcp', method: 'POST', headers: { host: 'schemabrain.example.com', authorization: `Bearer ${tok.analyst!.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'lb', version: '1' } } }));
    });
    assert.equal(viaBalancer, 200);
    const meta = (await (await fetch(`${replica.base}/.well-known/oauth-protected-resource`)).json()) as { resource: string; bearer_methods_supported: string[] };
    assert.equal(meta.resource, replica.mcpUrl);
    assert.deepEqual(meta.bearer_methods_supported, ['header']);
  });

  for (const [which, header, description] of [
    ['malformed', () => 'Bearer not-a-token', 'malformed'],
    ['not a bearer scheme', () => `Basic ${Buffer.from('a:b').toString('base64')}`, 'malformed'],
    ['unknown', () => `Bearer ${tok.analyst!.token.slice(0, -2)}xx`, 'not known'],
    ['expired', () => `Bearer ${tok.expired!.token}`, 'expired'],
    ['revoked', () => `Bearer ${tok.revoked!.token}`, 'revoked'],
  ] as const) {
    it(`refuses a ${which} token with 401 invalid_token`, async () => {
      const r = await post(replica.mcpUrl, { authorization: header() });
      assert.equal(r.status, 401);
      const challenge = r.headers.get('www-authenticate') ?? '';
      assert.match(challenge, /^Bearer realm="schemabrain", error="invalid_token", error_description="[^"]+", resource_metadata="/);
      assert.match(challenge, new RegExp(description));
      assert.ok(!r.text.includes(tok.analyst!.token), 'the token is never echoed');
    });
  }

  it('role boundaries: catalog reads the catalog only; analyst and admin may read data; refusals are audited with the principal', async () => {
    const sql = { sql: 'SELECT count(*) AS n FROM Artist', source: 'chinook' };
    const bob = await connectClient(replica.mcpUrl, tok.catalog!.token);
    try {
      assert.equal((await call(bob, 'find_relevant_tables', { query: 'artist albums' })).status, 'success');
      for (const [tool, args] of [
        ['run_query', sql],
        ['get_metric', { name: 'revenue' }],
        ['profile_table', { qualified_name: 'main.Artist', source: 'chinook' }],
      ] as const) {
        const env = await call(bob, tool, args);
        assert.equal(env.status, 'refused', tool);
        assert.equal(env.error?.kind, 'policy_blocked', tool);
        assert.match(env.error!.message, /role 'catalog'/);
      }
    } finally {
      await bob.close();
    }
    for (const who of ['analyst', 'admin'] as const) {
      const c = await connectClient(replica.mcpUrl, tok[who]!.token);
      try {
        const env = await call(c, 'run_query', sql);
        assert.equal(env.status, 'success', `${who}: ${JSON.stringify(env.error)}`);
        const metric = await call(c, 'get_metric', { name: 'revenue' });
        assert.notEqual(metric.error?.kind, 'policy_blocked', who);
      } finally {
        await c.close();
      }
    }
    const rows = (await pool.query<{ principal: string; tool: string; status: string }>("SELECT principal, tool, status FROM schemabrain.audit WHERE tool IN ('run_query', 'get_metric', 'profile_table') ORDER BY seq")).rows;
    assert.deepEqual(
      rows.filter((r) => r.principal.startsWith('bob/')).map((r) => [r.tool, r.status]),
      [
        ['run_query', 'refused'],
        ['get_metric', 'refused'],
        ['profile_table', 'refused'],
      ],
    );
    assert.ok(rows.some((r) => r.principal === `alice/${tok.analyst!.id}` && r.tool === 'run_query' && r.status === 'success'));
    assert.ok(rows.some((r) => r.principal === `root/${tok.admin!.id}` && r.tool === 'run_query' && r.status === 'success'));
  });

  it('a token for one source neither sees nor reaches another; an admin sees every source', async () => {
    const carol = await connectClient(replica.mcpUrl, tok.scoped!.token);
    try {
      const listed = await call(carol, 'list_indexed_schemas', {});
      assert.equal(listed.status, 'success');
      const text = JSON.stringify(listed.data);
      assert.match(text, /"chinook"/);
      assert.doesNotMatch(text, /"other"/);
      const found = await call(carol, 'find_relevant_tables', { query: 'artist' });
      assert.doesNotMatch(JSON.stringify(found.data), /"other"/);
      for (const [tool, args] of [
        ['describe_table', { qualified_name: 'main.Artist', source: 'other' }],
        ['run_query', { sql: 'SELECT 1', source: 'other' }],
      ] as const) {
        const env = await call(carol, tool, args);
        assert.equal(env.status, 'refused', tool);
        assert.equal(env.error?.kind, 'policy_blocked');
        assert.match(env.error!.message, /does not cover source 'other'/);
      }
      const own = await call(carol, 'describe_table', { qualified_name: 'main.Artist', source: 'chinook' });
      assert.equal(own.status, 'success', JSON.stringify(own.error));
    } finally {
      await carol.close();
    }
    const root = await connectClient(replica.mcpUrl, tok.admin!.token);
    try {
      assert.match(JSON.stringify((await call(root, 'list_indexed_schemas', {})).data), /"other"/);
    } finally {
      await root.close();
    }
  });

  it('rate-limits per principal with a typed, retryable error', async () => {
    const c = await connectClient(replica.mcpUrl, tok.rapid!.token);
    try {
      const envs = await Promise.all(Array.from({ length: 20 }, () => call(c, 'find_relevant_tables', { query: 'invoice' })));
      const limited = envs.filter((e) => e.error?.kind === 'rate_limited');
      assert.ok(limited.length >= 8, `expected most of 20 calls over a 4/s budget (burst 8) refused, got ${limited.length}`);
      assert.ok(envs.filter((e) => e.status === 'success').length >= 8);
      assert.equal(limited[0]!.status, 'error');
      assert.match(limited[0]!.error!.message, /retry after \d+ ms/);
      // Another principal is not affected.
      const a = await connectClient(replica.mcpUrl, tok.analyst!.token);
      assert.equal((await call(a, 'find_relevant_tables', { query: 'invoice' })).status, 'success');
      await a.close();
    } finally {
      await c.close();
    }
  });

  it("answers 403 insufficient_scope when a token uses another token's session", async () => {
    const c = await connectClient(replica.mcpUrl, tok.analyst!.token);
    try {
      await call(c, 'list_indexed_schemas', {});
      const sessionId = (c as unknown as { _transport: { sessionId: string } })._transport.sessionId;
      const r = await post(replica.mcpUrl, { authorization: `Bearer ${tok.catalog!.token}`, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' });
      assert.equal(r.status, 403);
      assert.match(r.headers.get('www-authenticate') ?? '', /error="insufficient_scope"/);
    } finally {
      await c.close();
    }
  });

  it('a token revoked while the server runs stops working at once on every request', async () => {
    const t = await issueToken(db!, 'temp', 'analyst');
    const c = await connectClient(replica.mcpUrl, t.token);
    assert.equal((await call(c, 'list_indexed_schemas', {})).status, 'success');
    assert.equal((await cli(['token', 'revoke', t.id, '--store', db!.url], db!.env)).code, 0);
    const deadline = Date.now() + 2000;
    let status = 0;
    while (Date.now() < deadline) {
      status = (await post(replica.mcpUrl, { authorization: `Bearer ${t.token}` })).status;
      if (status === 401) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(status, 401);
    await c.close().catch(() => undefined);
  });

  it('a stream a session holds open ends when its token is revoked', async () => {
    const t = await issueToken(db!, 'streamer', 'catalog');
    const headers = { authorization: `Bearer ${t.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const init = await fetch(replica.mcpUrl, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 's', version: '1' } } }) });
    const sid = init.headers.get('mcp-session-id')!;
    await init.text();
    await (await fetch(replica.mcpUrl, { method: 'POST', headers: { ...headers, 'mcp-session-id': sid }, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).text();
    const stream = await fetch(replica.mcpUrl, { method: 'GET', headers: { authorization: headers.authorization, accept: 'text/event-stream', 'mcp-session-id': sid } });
    assert.equal(stream.status, 200);
    const reader = stream.body!.getReader();
    const ended = (async () => {
      for (;;) if ((await reader.read()).done) return Date.now();
    })().catch(() => Date.now());
    const early = await Promise.race([ended, new Promise<null>((r) => setTimeout(() => r(null), 1000))]);
    assert.equal(early, null, 'the stream stays open while the token holds');
    assert.equal((await cli(['token', 'revoke', t.id, '--store', db!.url], db!.env)).code, 0);
    const revokedAt = Date.now();
    const end = await Promise.race([ended, new Promise<null>((r) => setTimeout(() => r(null), 15_000))]);
    assert.ok(end !== null, 'the stream ended after the revocation');
    assert.ok(end - revokedAt < 12_000, `it ended ${end - revokedAt} ms after`);
  });

  it('serves /healthz, /readyz and Prometheus /metrics with calls, latency, refusals and audit commits', async () => {
    assert.equal((await fetch(`${replica.base}/healthz`)).status, 200);
    assert.equal((await fetch(`${replica.base}/readyz`)).status, 200);
    const m = await (await fetch(`${replica.base}/metrics`)).text();
    assert.match(m, /schemabrain_tool_calls_total\{tool="run_query",status="success"\} [1-9]/);
    assert.match(m, /schemabrain_tool_calls_total\{tool="run_query",status="refused"\} [1-9]/);
    assert.match(m, /schemabrain_refusals_total\{reason="role"\} 3/);
    assert.match(m, /schemabrain_refusals_total\{reason="rate"\} [1-9]/);
    assert.match(m, /schemabrain_refusals_total\{reason="invalid_token"\} [1-9]/);
    assert.match(m, /schemabrain_tool_call_duration_seconds_count [1-9]/);
    assert.match(m, /schemabrain_audit_rows_total [1-9]/);
    assert.match(m, /schemabrain_catalog_generation 2/);
  });

  it('drains on SIGTERM: calls in flight are answered and audited, then it exits 0', async () => {
    const r2 = await startReplica(db!, { args: ['--rate-limit', '0'] });
    const c = await connectClient(r2.mcpUrl, tok.analyst!.token);
    const before = Number((await pool.query('SELECT count(*)::int AS n FROM schemabrain.audit')).rows[0].n);
    const slow = (i: number) => `WITH RECURSIVE c(x) AS (SELECT ${i} UNION ALL SELECT x + 1 FROM c WHERE x < 300000) SELECT count(*) AS n FROM c`;
    const calls = Array.from({ length: 6 }, (_, i) => call(c, 'run_query', { sql: slow(i), source: 'chinook' }));
    // SIGTERM once the calls are running on the server.
    for (let i = 0; i < 200; i++) {
      const m = await (await fetch(`${r2.base}/metrics`)).text();
      if (/schemabrain_inflight_calls ([1-9]\d*)/.test(m)) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    r2.child.kill('SIGTERM');
    const settled = await Promise.allSettled(calls);
    assert.equal(await r2.exited, 0, r2.stderr());
    const answered = settled.filter((s) => s.status === 'fulfilled');
    // Calls that reached the server before SIGTERM are answered; later ones get a 503 that names another replica.
    const turnedAway = settled.filter((s) => s.status === 'rejected' && /shutting down; retry on another/.test(String(s.reason)));
    assert.ok(answered.length >= 1);
    for (const a of answered) assert.equal((a as PromiseFulfilledResult<{ status: string }>).value.status, 'success');
    assert.equal(answered.length + turnedAway.length, 6, JSON.stringify(settled.filter((s) => s.status === 'rejected').map((s) => String((s as PromiseRejectedResult).reason))));
    const after = Number((await pool.query('SELECT count(*)::int AS n FROM schemabrain.audit')).rows[0].n);
    assert.equal(after - before, answered.length, 'exactly one audit row per answered call');
    await c.close().catch(() => undefined);
  });
});
