import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import initSqlJs from 'sql.js';
import { indexInto, startHarness, tempDir } from '../../support/server-harness';
import type { Harness } from '../../support/server-harness';

/**
 * SQLite keeps 64-bit integers; read as doubles, those past 2^53 round, so distinct keys look equal. Through the tools
 * they must come back exact: run_query gives them as decimal strings (as PostgreSQL's bigint), profile_table counts
 * them apart and orders them exactly.
 */
describe('SQLite integers past 2^53 through run_query and profile_table', function () {
  let h: Harness;
  const previousHome = process.env.SCHEMABRAIN_HOME;
  const keys = [0, 1, 2, 3, 4].map((i) => (9007199254740993n + BigInt(i)).toString());

  before(async () => {
    const dir = tempDir('sb-big-int-');
    process.env.SCHEMABRAIN_HOME = path.join(dir, 'home');
    const SQL = await initSqlJs();
    const db = new SQL.Database();
    db.run('CREATE TABLE ledger (id INTEGER PRIMARY KEY, amount INTEGER NOT NULL)');
    for (const k of keys) db.run(`INSERT INTO ledger VALUES (${k}, ${k})`);
    const file = path.join(dir, 'ledger.sqlite');
    fs.writeFileSync(file, db.export());
    db.close();
    const catalog = path.join(dir, 'catalog.sqlite');
    await indexInto(catalog, file, 'ledger');
    h = await startHarness({ catalogPath: catalog });
  });
  after(async () => {
    await h?.close();
    if (previousHome === undefined) delete process.env.SCHEMABRAIN_HOME;
    else process.env.SCHEMABRAIN_HOME = previousHome;
  });

  it('run_query returns each key exactly, and a filter on one finds that one', async () => {
    const all = (await h.call('run_query', { sql: 'SELECT id FROM ledger ORDER BY id' })) as { status: string; data: { rows: unknown[][] } };
    assert.equal(all.status, 'success', JSON.stringify(all));
    assert.deepEqual(
      all.data.rows.map((r) => r[0]),
      keys,
    );
    const one = (await h.call('run_query', { sql: `SELECT id FROM ledger WHERE id = ${keys[0]}` })) as { data: { rows: unknown[][] } };
    assert.deepEqual(one.data.rows, [[keys[0]]]);
  });

  it('profile_table counts the keys apart and gives their exact least and greatest', async () => {
    const env = (await h.call('profile_table', { qualified_name: 'main.ledger', response_format: 'detailed' })) as {
      status: string;
      data: { columns: Array<{ name: string; distinct_estimate?: number; min?: string; max?: string; top_values?: unknown[] }> };
    };
    assert.equal(env.status, 'success', JSON.stringify(env));
    for (const name of ['id', 'amount']) {
      const col = env.data.columns.find((c) => c.name === name)!;
      assert.ok(col, JSON.stringify(env.data.columns));
      assert.equal(col.distinct_estimate, keys.length, JSON.stringify(col));
      assert.equal(col.min, keys[0]);
      assert.equal(col.max, keys.at(-1));
      assert.deepEqual(col.top_values ?? [], [], 'no key repeats');
    }
  });
});
