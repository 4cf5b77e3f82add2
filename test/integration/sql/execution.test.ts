import assert from 'node:assert/strict';
import type pg from 'pg';
import type { Database } from 'sql.js';
import { loadSqlGuard, type SqlGuard } from '../../../src/core/sql/guard';
import { executeReadOnlyPostgres, runReadOnlyPostgres } from '../../../src/core/sql/pg-exec';
import { executeReadOnlySqlite, runReadOnlySqlite } from '../../../src/core/sql/sqlite-exec';
import { createReadOnlyPool } from '../../../src/core/sql/pg-pool';
import { toToolError } from '../../../src/core/sql/errors';
import type { QueryOutcome, QueryResult } from '../../../src/core/sql/types';
import { postgresServerAnswers } from '../../support/pg';
import { skipWithoutData } from '../../support/datasets';
import { CHINOOK_SQLITE, PG, ensurePagila, openSqliteCopy, pgClient } from './support/databases';

const META = { statementKind: 'select' as const, fingerprint: 'test' };

function ok(o: QueryOutcome): QueryResult {
  assert.ok(o.ok, o.ok ? '' : o.kind === 'refused' ? o.guard.message : `${o.kind}: ${o.message}`);
  return o.result;
}

describe('guarded SQL execution', function () {
  let guard: SqlGuard;
  let db: string;
  let client: pg.Client;

  before(async function () {
    // Needs a real server (psql/pg_dump or server-wide settings); the embedded engine covers the rest of the suite.
    if (!(await postgresServerAnswers())) this.skip();
    skipWithoutData(this, 'pagila/pagila-schema.sql');
    guard = await loadSqlGuard();
    db = ensurePagila();
    client = pgClient(db);
    await client.connect();
  });
  after(async function () {
    await client?.end();
  });

  describe('PostgreSQL', function () {
    it('cuts the result at the row cap and says so', async function () {
      const r = ok(await runReadOnlyPostgres(client, guard, 'SELECT * FROM rental ORDER BY rental_id', [], { maxRows: 10 }));
      assert.equal(r.rowCount, 10);
      assert.equal(r.rows.length, 10);
      assert.equal(r.truncated, true);
      assert.equal(r.truncatedBy, 'rows');
    });

    it('does not flag a result that exactly fills the row cap', async function () {
      const r = ok(await runReadOnlyPostgres(client, guard, 'SELECT * FROM language', [], { maxRows: 6 }));
      assert.equal(r.rowCount, 6);
      assert.equal(r.truncated, false);
      assert.equal(r.truncatedBy, null);
    });

    it('cuts the result at the byte cap and keeps the rows under it', async function () {
      const r = ok(await runReadOnlyPostgres(client, guard, 'SELECT film_id, title, description FROM film ORDER BY film_id', [], { maxRows: 1000, maxBytes: 2000 }));
      assert.equal(r.truncatedBy, 'bytes');
      assert.ok(r.rowCount > 0 && r.rowCount < 1000);
      assert.ok(Buffer.byteLength(JSON.stringify(r.rows)) <= 2000);
    });

    it('applies the row cap in the database: a 257-million-row cross join returns fast because only cap + 1 rows are produced', async function () {
      const started = Date.now();
      const r = ok(await runReadOnlyPostgres(client, guard, 'SELECT r1.rental_id, r2.rental_id FROM rental r1 CROSS JOIN rental r2', [], { maxRows: 5, timeoutMs: 3000 }));
      assert.equal(r.rowCount, 5);
      assert.equal(r.truncatedBy, 'rows');
      assert.ok(Date.now() - started < 2500, `took ${Date.now() - started} ms`);
    });

    it('stops a long statement at the timeout and classifies it as a cost cap', async function () {
      const started = Date.now();
      const o = await runReadOnlyPostgres(client, guard, 'SELECT count(*) FROM generate_series(1, 2000000000)', [], { timeoutMs: 300 });
      assert.equal(o.ok, false);
      assert.equal(!o.ok && o.kind, 'timeout');
      assert.ok(Date.now() - started < 5000);
      assert.equal(!o.ok && toToolError(o).kind, 'cost_cap_exceeded');
    });

    it('reports column names with PostgreSQL type names and JSON-safe values', async function () {
      const r = ok(
        await runReadOnlyPostgres(
          client,
          guard,
          "SELECT 1::int AS a, 9007199254740993::bigint AS b, 'x'::text AS c, '\\x0102'::bytea AS d, timestamptz '2022-01-02 03:04:05+00' AS e, 1.5::numeric AS f, ARRAY[1,2] AS g",
        ),
      );
      assert.deepEqual(
        r.columns.map((col) => [col.name, col.dataType]),
        [['a', 'integer'], ['b', 'bigint'], ['c', 'text'], ['d', 'bytea'], ['e', 'timestamp with time zone'], ['f', 'numeric'], ['g', 'integer[]']],
      );
      assert.deepEqual(r.rows[0], [1, '9007199254740993', 'x', '\\x0102', '2022-01-02T03:04:05.000Z', '1.5', [1, 2]]);
      assert.doesNotThrow(() => JSON.stringify(r));
    });

    it('binds parameters as values, never as SQL', async function () {
      const evil = "x'; DROP TABLE film; --";
      const r = ok(await runReadOnlyPostgres(client, guard, 'SELECT $1::text AS v, count(*) FROM film WHERE title = $1', [evil]));
      assert.deepEqual(r.rows[0], [evil, '0']);
    });

    it('leaves the connection idle, outside any transaction, with its session settings untouched', async function () {
      ok(await runReadOnlyPostgres(client, guard, 'SELECT 1'));
      await runReadOnlyPostgres(client, guard, 'SELECT * FROM nope');
      const r = await client.query("SELECT current_setting('transaction_read_only') AS ro, current_setting('statement_timeout') AS st");
      assert.deepEqual(r.rows[0], { ro: 'off', st: '0' });
      await client.query('CREATE TEMP TABLE sb_sql_probe (x int)'); // a write works: we are not stuck in a read-only transaction
      await client.query('DROP TABLE sb_sql_probe');
    });

    it('classifies a missing relation as an unknown name for the agent', async function () {
      const o = await runReadOnlyPostgres(client, guard, 'SELECT * FROM flim');
      assert.equal(!o.ok && o.kind, 'unknown_relation');
      assert.equal(!o.ok && o.kind !== 'refused' && o.code, '42P01');
      assert.equal(!o.ok && toToolError(o).kind, 'unknown_name');
    });

    it('a statement that fails on its own terms is the query\'s fault: invalid_argument with the reason, never internal_error', async function () {
      for (const [sql, code, words] of [
        ['SELECT 1/0', '22012', /division by zero/],
        ["SELECT 'abc'::int", '22P02', /invalid input syntax/],
        ['SELECT (SELECT film_id FROM film)', '21000', /more than one row/],
        ['SELECT film_id FROM film JOIN film_actor USING (last_update) GROUP BY 1', '42702', /ambiguous/],
      ] as const) {
        const o = await runReadOnlyPostgres(client, guard, sql);
        assert.equal(!o.ok && o.kind, 'query_error', `${sql}: ${JSON.stringify(o)}`);
        assert.equal(!o.ok && o.kind !== 'refused' && o.code, code, sql);
        const e = !o.ok ? toToolError(o) : null;
        assert.equal(e?.kind, 'invalid_argument', sql);
        assert.match(e?.message ?? '', words, sql);
      }
    });

    it('refuses before touching the database when the guard refuses', async function () {
      const o = await runReadOnlyPostgres(client, guard, 'DELETE FROM film');
      assert.equal(!o.ok && o.kind, 'refused');
      assert.deepEqual(!o.ok && toToolError(o), { kind: 'policy_blocked', message: !o.ok && o.kind === 'refused' ? o.guard.message : '' });
    });

    it('returns cancelled for an already-aborted signal without running anything', async function () {
      const ac = new AbortController();
      ac.abort();
      const o = await runReadOnlyPostgres(client, guard, 'SELECT 1', [], { signal: ac.signal });
      assert.equal(!o.ok && o.kind, 'cancelled');
    });

    it('cancels a running statement through the abort signal, and the connection stays usable', async function () {
      const ac = new AbortController();
      const started = Date.now();
      const pending = runReadOnlyPostgres(client, guard, 'SELECT count(*) FROM rental a, rental b', [], { timeoutMs: 30_000, signal: ac.signal });
      setTimeout(() => ac.abort(), 200);
      const o = await pending;
      assert.equal(!o.ok && o.kind, 'cancelled');
      assert.ok(Date.now() - started < 5000, `took ${Date.now() - started} ms`);
      ok(await runReadOnlyPostgres(client, guard, 'SELECT 1'));
    });

    describe('layer 2 on its own', function () {
      it('has the server reject a string holding two statements (extended protocol)', async function () {
        const o = await executeReadOnlyPostgres(client, 'SELECT 1; SELECT 2', [], {}, META);
        assert.equal(!o.ok && o.kind, 'syntax_error');
        assert.match(!o.ok && o.kind !== 'refused' ? o.message : '', /multiple commands/);
      });

      it('has the READ ONLY transaction reject a write', async function () {
        const o = await executeReadOnlyPostgres(client, "UPDATE language SET name = 'x'", [], {}, META);
        assert.equal(!o.ok && o.kind, 'read_only_violation');
        assert.equal(!o.ok && o.kind !== 'refused' && o.code, '25006');
        const r = await client.query("SELECT count(*)::int AS n FROM language WHERE name = 'x'");
        assert.equal(r.rows[0].n, 0);
      });
    });

    describe('read-only pool', function () {
      it('opens sessions that are read-only by default and named schemabrain', async function () {
        const pool = createReadOnlyPool({ host: PG.host, port: PG.port, user: PG.user, database: db, password: () => undefined });
        try {
          const r = await pool.query("SELECT current_setting('default_transaction_read_only') AS ro, current_setting('application_name') AS app");
          assert.deepEqual(r.rows[0], { ro: 'on', app: 'schemabrain' });
          await assert.rejects(pool.query('CREATE TEMP TABLE t (x int)'), /read-only transaction/);
        } finally {
          await pool.end();
        }
      });

      it('borrows a client per query, returns it after success and discards it after a failure', async function () {
        const pool = createReadOnlyPool({ host: PG.host, port: PG.port, user: PG.user, database: db, maxConnections: 1 });
        try {
          ok(await runReadOnlyPostgres(pool, guard, 'SELECT count(*) FROM film'));
          assert.equal(pool.totalCount, 1);
          assert.equal(pool.idleCount, 1);
          const o = await runReadOnlyPostgres(pool, guard, 'SELECT * FROM nope');
          assert.equal(!o.ok && o.kind, 'unknown_relation');
          assert.equal(pool.totalCount, 0);
          ok(await runReadOnlyPostgres(pool, guard, 'SELECT 1'));
        } finally {
          await pool.end();
        }
      });
    });
  });

  describe('SQLite', function () {
    let lite: Database;
    before(async function () {
      lite = await openSqliteCopy(CHINOOK_SQLITE);
    });
    after(function () {
      lite?.close();
    });

    it('cuts at the row and byte caps', function () {
      const rows = ok(runReadOnlySqlite(lite, guard, 'SELECT * FROM Track', [], { maxRows: 7 }));
      assert.equal(rows.rowCount, 7);
      assert.equal(rows.truncatedBy, 'rows');
      const bytes = ok(runReadOnlySqlite(lite, guard, 'SELECT * FROM Track', [], { maxRows: 5000, maxBytes: 1500 }));
      assert.equal(bytes.truncatedBy, 'bytes');
      assert.ok(Buffer.byteLength(JSON.stringify(bytes.rows)) <= 1500);
    });

    it('binds positional parameters and reports value classes as column types', function () {
      const r = ok(runReadOnlySqlite(lite, guard, 'SELECT TrackId, Name, UnitPrice FROM Track WHERE TrackId = ?', [1]));
      assert.deepEqual(r.columns, [
        { name: 'TrackId', dataType: 'integer' },
        { name: 'Name', dataType: 'text' },
        { name: 'UnitPrice', dataType: 'real' },
      ]);
      assert.equal(r.rowCount, 1);
    });

    it('gives integers past 2^53 exactly, as decimal strings, and the others as numbers', function () {
      const r = ok(
        runReadOnlySqlite(
          lite,
          guard,
          "WITH t(id) AS (VALUES (9007199254740993), (9007199254740994), (-9223372036854775808), (9007199254740991), (1)) SELECT id, '9007199254740993' AS label FROM t",
          [],
        ),
      );
      assert.deepEqual(r.rows, [
        ['9007199254740993', '9007199254740993'],
        ['9007199254740994', '9007199254740993'],
        ['-9223372036854775808', '9007199254740993'],
        [9007199254740991, '9007199254740993'],
        [1, '9007199254740993'],
      ]);
      assert.deepEqual(
        r.columns.map((c) => c.dataType),
        ['integer', 'text'],
      );
    });

    it('a statement that fails on its own terms is invalid_argument (an ambiguous name, a misused aggregate)', function () {
      for (const sql of ['SELECT AlbumId FROM Album JOIN Track USING (AlbumId) JOIN Artist ON Artist.ArtistId = ArtistId', 'SELECT * FROM Album WHERE count(*) > 1']) {
        const o = runReadOnlySqlite(lite, guard, sql);
        assert.equal(!o.ok && o.kind, 'query_error', `${sql}: ${JSON.stringify(o)}`);
        assert.equal(!o.ok ? toToolError(o).kind : null, 'invalid_argument');
      }
    });

    it('stops between rows once the time budget is spent', function () {
      const o = runReadOnlySqlite(
        lite,
        guard,
        'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n FROM r',
        [],
        { timeoutMs: 100, maxRows: 1_000_000_000, maxBytes: 2_000_000_000 },
      );
      assert.equal(!o.ok && o.kind, 'timeout');
    });

    it('restores query_only afterwards and rejects writes and second statements without the parser', function () {
      const w = executeReadOnlySqlite(lite, "UPDATE Genre SET Name = 'x'", [], {}, META);
      assert.equal(!w.ok && w.kind, 'read_only_violation');
      const m = executeReadOnlySqlite(lite, 'SELECT 1; DELETE FROM Genre', [], {}, META);
      assert.equal(m.ok, false);
      assert.equal(lite.exec('PRAGMA query_only')[0].values[0][0], 0);
      assert.equal(lite.exec("SELECT count(*) FROM Genre WHERE Name = 'x'")[0].values[0][0], 0);
    });
  });
});
