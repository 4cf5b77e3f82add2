import assert from 'node:assert/strict';
import pg from 'pg';
import type { Database } from 'sql.js';
import { BENIGN_POSTGRES, PAGILA_ALLOWED_FUNCTIONS } from '../../fixtures/sql-corpus/benign-postgres';
import { BENIGN_SQLITE } from '../../fixtures/sql-corpus/benign-sqlite';
import { loadSqlGuard, type SqlGuard } from '../../../src/core/sql/guard';
import { runReadOnlyPostgres } from '../../../src/core/sql/pg-exec';
import { createFunctionPolicy } from '../../../src/core/sql/function-policy';
import { runReadOnlySqlite } from '../../../src/core/sql/sqlite-exec';
import { skipWithoutData } from '../../support/datasets';
import { CHINOOK_SQLITE, SAKILA_SQLITE, ensureChinookPg, ensurePagila, openSqliteCopy, pgClient } from './support/databases';
import { postgresServerAnswers } from '../../support/pg';
import { loadSpider, spiderDatabase } from './support/benign-harness';

const CAPS = { timeoutMs: 10_000, maxRows: 1000, maxBytes: 5_000_000 };

/** The operator's allowances for Pagila's own functions (benign-postgres.ts). */
const PAGILA_ALLOWED = createFunctionPolicy({ functions: PAGILA_ALLOWED_FUNCTIONS });

function describeFailure(o: Awaited<ReturnType<typeof runReadOnlyPostgres>>): string {
  if (o.ok) return 'ok';
  return o.kind === 'refused' ? `refused: ${o.guard.reason} ${o.guard.message}` : `${o.kind}: ${o.message}`;
}

describe('guarded SQL accepts and runs benign analytic queries', function () {
  let guard: SqlGuard;
  before(async function () {
    // Needs a real server (psql/pg_dump or server-wide settings); the embedded engine covers the rest of the suite.
    if (!(await postgresServerAnswers())) this.skip();
    guard = await loadSqlGuard();
  });

  describe('PostgreSQL (Pagila and Chinook)', function () {
    const clients = new Map<string, pg.Client>();
    before(async function () {
      skipWithoutData(this, 'pagila/pagila-schema.sql', 'chinook/Chinook_PostgreSql.sql.gz');
      const dbs = { pagila: ensurePagila(), chinook: ensureChinookPg() };
      for (const [name, db] of Object.entries(dbs)) {
        const cl = pgClient(db);
        await cl.connect();
        clients.set(name, cl);
      }
    });
    after(async function () {
      for (const cl of clients.values()) await cl.end();
    });
    for (const [i, b] of BENIGN_POSTGRES.entries()) {
      it(`runs pg-${b.db}-${i + 1}: ${b.sql.replace(/\s+/g, ' ').slice(0, 80)}`, async function () {
        const o = await runReadOnlyPostgres(clients.get(b.db)!, guard, b.sql, b.params ?? [], CAPS, { policy: PAGILA_ALLOWED });
        assert.ok(o.ok, describeFailure(o));
        assert.ok(o.result.columns.length > 0);
        assert.equal(o.result.rowCount, o.result.rows.length);
      });
    }
  });

  describe('SQLite (Chinook and Sakila files)', function () {
    const dbs = new Map<string, Database>();
    before(async function () {
      skipWithoutData(this, SAKILA_SQLITE);
      dbs.set('chinook', await openSqliteCopy(CHINOOK_SQLITE));
      dbs.set('sakila', await openSqliteCopy(SAKILA_SQLITE));
    });
    after(function () {
      for (const d of dbs.values()) d.close();
    });
    for (const [i, b] of BENIGN_SQLITE.entries()) {
      it(`runs sqlite-${b.db}-${i + 1}: ${b.sql.replace(/\s+/g, ' ').slice(0, 80)}`, function () {
        const o = runReadOnlySqlite(dbs.get(b.db)!, guard, b.sql, b.params ?? [], CAPS);
        assert.ok(o.ok, describeFailure(o));
        assert.ok(o.result.columns.length > 0);
      });
    }
  });

  describe('Spider 1.0 dev gold SQL', function () {
    const spider = loadSpider();
    it('accepts and runs every query on SQLite against Spider schemas', async function () {
      const failures: string[] = [];
      const byDb = new Map<string, Database>();
      try {
        for (const qy of spider.queries) {
          let d = byDb.get(qy.db);
          if (!d) {
            d = await spiderDatabase(spider, qy.db);
            byDb.set(qy.db, d);
          }
          const o = runReadOnlySqlite(d, guard, qy.sql, [], CAPS);
          if (!o.ok) failures.push(`${qy.db}: ${qy.sql} → ${describeFailure(o)}`);
        }
      } finally {
        for (const d of byDb.values()) d.close();
      }
      assert.ok(spider.queries.length >= 300);
      assert.deepEqual(failures, []);
    });

    it('never refuses a query PostgreSQL can parse (only SQLite-only syntax is a parse error)', function () {
      const refusals = spider.queries
        .map((qy) => ({ qy, g: guard.guard(qy.sql, 'postgres') }))
        .filter(({ g }) => !g.ok && g.reason !== 'parse_error')
        .map(({ qy, g }) => `${qy.sql} → ${g.ok ? '' : g.reason}`);
      assert.deepEqual(refusals, []);
    });
  });
});
