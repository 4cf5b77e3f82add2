import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadSqlGuard } from '../../../src/core/sql/guard';
import { SqliteQueryWorker } from '../../../src/core/sql/sqlite-worker';
import { BUNDLED_CHINOOK } from './support/databases';

describe('SQLite queries on a worker thread', function () {
  let worker: SqliteQueryWorker;
  before(async function () {
    const guard = await loadSqlGuard();
    worker = new SqliteQueryWorker(guard, {
      bytes: readFileSync(BUNDLED_CHINOOK),
      workerScript: path.join(__dirname, '../../../src/core/sql/sqlite-worker-main.ts'),
      execArgv: ['--require', 'tsx/cjs'],
    });
  });
  after(async function () {
    await worker?.close();
  });

  it('runs a guarded query with caps and returns the same result shape as the in-thread executor', async function () {
    const o = await worker.run('SELECT Name FROM Genre ORDER BY GenreId', [], { maxRows: 3 });
    assert.ok(o.ok);
    assert.deepEqual(o.result.rows, [['Rock'], ['Jazz'], ['Metal']]);
    assert.equal(o.result.truncatedBy, 'rows');
  });

  it('refuses in the parent before the worker sees the statement', async function () {
    const o = await worker.run('DELETE FROM Genre');
    assert.equal(!o.ok && o.kind, 'refused');
  });

  it('terminates a statement that computes past its deadline without yielding a row, then serves the next query', async function () {
    const started = Date.now();
    const o = await worker.run('SELECT count(*) FROM Track a, Track b, Track c', [], { timeoutMs: 300 });
    assert.equal(!o.ok && o.kind, 'timeout');
    assert.ok(Date.now() - started < 3000, `took ${Date.now() - started} ms`);
    const next = await worker.run('SELECT count(*) FROM Genre');
    assert.ok(next.ok);
    assert.deepEqual(next.result.rows, [[25]]);
  });

  it('bounds the working memory of a statement, not only the rows it answers', async function () {
    // A string doubled 29 times (512 MiB) and a 450 MB zeroblob in hex: each fails at the heap limit, as too large.
    for (const sql of ["WITH RECURSIVE r(i, s) AS (SELECT 1, 'x' UNION ALL SELECT i + 1, s || s FROM r WHERE i < 30) SELECT length(s) FROM r ORDER BY 1 DESC LIMIT 1", 'SELECT length(hex(zeroblob(450000000)))']) {
      const o = await worker.run(sql, [], { timeoutMs: 20_000 });
      assert.equal(!o.ok && o.kind, 'too_large', `${sql}: ${JSON.stringify(o).slice(0, 300)}`);
    }
    const next = await worker.run("SELECT length(hex(zeroblob(1000000))), count(*) FROM Genre");
    assert.ok(next.ok, JSON.stringify(next));
    assert.deepEqual(next.result.rows, [[2000000, 25]]);
  });

  it('cancels through an abort signal', async function () {
    const ac = new AbortController();
    const pending = worker.run('WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT max(n) FROM r', [], { timeoutMs: 10_000, signal: ac.signal });
    setTimeout(() => ac.abort(), 100);
    const o = await pending;
    assert.equal(!o.ok && o.kind, 'cancelled');
  });
});
