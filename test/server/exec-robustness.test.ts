import assert from 'node:assert/strict';
import net from 'node:net';
import path from 'node:path';
import { Client as PgClient } from 'pg';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { loadSqlGuard } from '../../src/core/sql/guard';
import { runReadOnlyPostgres } from '../../src/core/sql/pg-exec';
import { SourcePool } from '../../src/core/sql/pg-pool';
import { SourceConnections } from '../../src/server/connections';
import { DEFAULT_LIMITS } from '../../src/server/deps';
import { getTestPostgres, postgresServerAnswers, type TestPostgres } from '../support/pg';
import { indexInto, startHarness, tempDir, type Harness } from '../support/server-harness';

/**
 * Server-level robustness of guarded execution: a huge value cannot end the process, tools/call arguments of the
 * wrong shape get an envelope, and a server asking for a password nobody configured gives missing_credential.
 */

const DB = 'sb_sqlexec_robust';

interface Env {
  status: string;
  error?: { kind: string; message: string; recovery?: { suggested_tool?: string } };
}

describe('guarded execution through the MCP server', function () {
  this.timeout(300_000);

  describe('arguments of the wrong shape', function () {
    let h: Harness;
    before(async () => {
      h = await startHarness();
    });
    after(async () => h?.close());
    for (const [label, args] of [
      ['null', null],
      ['a string', 'SELECT 1'],
      ['an array', [{ sql: 'SELECT 1' }]],
      ['a number', 7],
    ] as const) {
      it(`answers arguments that are ${label} with an invalid_argument envelope`, async () => {
        const r = await h.client.request({ method: 'tools/call', params: { name: 'run_query', arguments: args as never } }, CallToolResultSchema);
        const env = r.structuredContent as unknown as Env;
        assert.equal(env.status, 'error');
        assert.equal(env.error?.kind, 'invalid_argument');
        assert.match(env.error?.message ?? '', /must be an object/);
      });
    }
  });

  describe('a server that asks for a password nobody configured', function () {
    let server: net.Server;
    let port = 0;
    const sockets = new Set<net.Socket>();
    before(async () => {
      // Speaks just enough of the protocol: AuthenticationSASL offering SCRAM-SHA-256, as a scram-sha-256 pg_hba line does.
      const auth = (code: number, body: Buffer): Buffer => {
        const msg = Buffer.alloc(1 + 4 + 4 + body.length);
        msg.write('R', 0);
        msg.writeInt32BE(4 + 4 + body.length, 1);
        msg.writeInt32BE(code, 5);
        body.copy(msg, 9);
        return msg;
      };
      server = net.createServer((socket) => {
        sockets.add(socket);
        let step = 0;
        socket.on('data', () => {
          // 1: startup → AuthenticationSASL; 2: SASLInitialResponse → AuthenticationSASLContinue (server-first)
          if (step === 0) socket.write(auth(10, Buffer.from('SCRAM-SHA-256\0\0')));
          else if (step === 1) socket.write(auth(11, Buffer.from('r=abc,s=c2FsdA==,i=4096')));
          step++;
        });
        socket.on('error', () => undefined);
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      port = (server.address() as net.AddressInfo).port;
    });
    after(() => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((r) => server.close(() => r()));
    });

    it('is a credentials failure (run_query: missing_credential) saying what the person must do, not internal_error', async () => {
      const env = { ...process.env };
      delete env.PGPASSWORD;
      const connections = new SourceConnections(new Map(), { ...env, PGPASSFILE: path.join(tempDir(), 'none') });
      const conn = await connections.get({ name: 'scram', engine: 'postgres', connectTemplate: `postgres://analyst@127.0.0.1:${port}/app` } as never);
      assert.ok('pool' in conn && conn.pool instanceof SourcePool);
      const outcome = await runReadOnlyPostgres(conn.pool, await loadSqlGuard(), 'SELECT 1');
      await connections.close();
      assert.equal(outcome.ok, false);
      if (outcome.ok || outcome.kind === 'refused') return;
      assert.equal(outcome.kind, 'connection');
      assert.match(outcome.message, /password/);
      assert.match(outcome.message, /Set Password|pgpass/);
      assert.doesNotMatch(outcome.message, /SASL|must be a string/);
    });
  });

  describe('huge values', function () {
    let pg: TestPostgres;
    let h: Harness;
    before(async function () {
      if (!(await postgresServerAnswers())) this.skip();
      pg = await getTestPostgres();
      if (pg.kind !== 'server') this.skip();
      await pg.ensureDatabase(DB);
      const c = new PgClient({ connectionString: pg.urlFor(DB) });
      await c.connect();
      await c.query('CREATE TABLE IF NOT EXISTS t (id int PRIMARY KEY); INSERT INTO t VALUES (1) ON CONFLICT DO NOTHING');
      await c.end();
      const dir = tempDir('sb-exec-robust-');
      const catalogPath = path.join(dir, 'catalog.sqlite');
      await indexInto(catalogPath, pg.urlFor(DB), 'robust');
      h = await startHarness({ catalogPath, deps: { connections: new SourceConnections(new Map()), limits: { ...DEFAULT_LIMITS, statementTimeoutMs: 60_000 } } });
    });
    after(async () => {
      await h?.close();
      await pg?.stop();
    });

    const cases: Array<[string, string]> = [
      ['a 40 MB value', "SELECT repeat('x', 40000000) AS big"],
      ['a 40 MB string_agg', "SELECT string_agg(repeat('y', 1000), '') FROM generate_series(1, 40000)"],
    ];
    // The values that used to end the process (over V8's 512 MiB string limit): a minute and ~1 GB on the server.
    if (process.env.SCHEMABRAIN_HEAVY_TESTS === '1') {
      cases.push(["repeat('x', 540000000)", "SELECT repeat('x', 540000000)"], ['a 600 MB string_agg', "SELECT string_agg(repeat('z', 1000), '') FROM generate_series(1, 600000)"]);
    }
    for (const [label, sql] of cases) {
      it(`answers ${label} with cost_cap_exceeded and the next call normally`, async () => {
        const env = (await h.call('run_query', { sql, source: 'robust' })) as unknown as Env;
        assert.equal(env.status, 'error', JSON.stringify(env).slice(0, 300));
        assert.equal(env.error?.kind, 'cost_cap_exceeded');
        assert.match(env.error?.message ?? '', /limit for a single row/);
        const next = (await h.call('run_query', { sql: 'SELECT id FROM t', source: 'robust' })) as unknown as Env & { data: { rows: unknown[][] } };
        assert.equal(next.status, 'success', JSON.stringify(next).slice(0, 300));
        assert.deepEqual(next.data.rows, [[1]]);
      });
    }
  });
});

describe('pools are reachable through SourceConnections', function () {
  it('hands out a SourcePool for PostgreSQL sources', async () => {
    const connections = new SourceConnections(new Map());
    const conn = await connections.get({ name: 'x', engine: 'postgres', connectTemplate: 'postgres://u@127.0.0.1:1/db' } as never);
    assert.ok('pool' in conn && conn.pool instanceof SourcePool && conn.pool.max === 4);
    await connections.close();
  });
});
