import assert from 'node:assert/strict';
import path from 'node:path';
import type { Connection } from 'mysql2/promise';
import { connectAdmin, MARIADB_URL, mariadbUnavailable, urlFor } from './support/mariadb';
import { indexInto, startHarness, tempDir, type Harness } from '../../support/server-harness';

/**
 * What a MySQL/MariaDB statement can reach besides the rows it names: a view whose definition calls a stored
 * function (which can read a blocked column, or change a global setting, out of the agent's sight); the order of an
 * index over a blocked column (a covering index scan hands `SELECT id` out in SSN order); and a row of many wide
 * columns, which the driver would assemble whole before any cap applied.
 */

const DB = 'sb_mysql_effects';

type Env = { status: string; data?: { rows?: unknown[][]; truncated_by?: string } | null; error?: { kind: string; message: string } | null };

describe('MySQL/MariaDB: stored functions behind views, index order of blocked columns, wide rows', function () {
  this.timeout(300_000);
  let admin: Connection | undefined;
  let h: Harness | undefined;

  before(async function () {
    const why = await mariadbUnavailable();
    if (why) {
      console.warn(`  skipped: ${why}`);
      this.skip();
    }
    admin = await connectAdmin();
    await admin.query(`DROP DATABASE IF EXISTS ${DB}; CREATE DATABASE ${DB}; USE ${DB};
      CREATE TABLE customers (id INT PRIMARY KEY, name VARCHAR(40), ssn VARCHAR(11), KEY ssn_key (ssn));
      INSERT INTO customers VALUES (1, 'Ann', '904-93-1791'), (2, 'Bob', '711-22-3333'), (3, 'Cy', '522-33-4444'), (4, 'Dee', '133-44-5555');
      CREATE FUNCTION ssn_of(cid INT) RETURNS VARCHAR(11) READS SQL DATA RETURN (SELECT ssn FROM customers WHERE id = cid);
      CREATE VIEW v_ref AS SELECT c.id, ssn_of(c.id) AS ref FROM customers c;
      CREATE VIEW v_outer AS SELECT id, ref FROM v_ref;
      CREATE VIEW v_names AS SELECT id, name FROM customers;
      CREATE TABLE gov_ids (ssn VARCHAR(11) PRIMARY KEY, note VARCHAR(20));
      INSERT INTO gov_ids VALUES ('904-93-1791', 'first'), ('133-44-5555', 'second'), ('522-33-4444', 'third');
      CREATE TABLE cities (id INT PRIMARY KEY, name VARCHAR(40));
      INSERT INTO cities VALUES (1, 'Lyon'), (2, 'Porto');
      CREATE VIEW v_cities AS SELECT id, name FROM cities;
      CREATE VIEW v_city_ref AS SELECT id, name, ssn_of(id) AS r FROM cities;
      DROP DATABASE IF EXISTS ${DB}_other; CREATE DATABASE ${DB}_other;
      CREATE VIEW ${DB}_other.renamed AS SELECT id, ssn AS ident FROM ${DB}.customers;
      CREATE VIEW ${DB}.v_cross AS SELECT id, ident FROM ${DB}_other.renamed;`);
    const catalogPath = path.join(tempDir('sb-myfx-'), 'catalog.sqlite');
    await indexInto(catalogPath, urlFor(MARIADB_URL, DB), 'fx');
    h = await startHarness({ catalogPath });
  });

  after(async () => {
    await h?.close();
    if (admin) {
      await admin.query(`DROP DATABASE IF EXISTS ${DB}; DROP DATABASE IF EXISTS ${DB}_other`);
      await admin.end();
    }
  });

  const q = async (sql: string): Promise<Env> => (await h!.client.callTool({ name: 'run_query', arguments: { sql } })).structuredContent as Env;

  it('refuses a view whose definition calls a stored function, and a view over it', async () => {
    for (const sql of ['SELECT id, LEFT(ref, 3) FROM v_ref', 'SELECT COUNT(*) FROM v_ref WHERE ref LIKE "9%"', 'SELECT * FROM v_outer']) {
      const env = await q(sql);
      assert.equal(env.status, 'refused', `${sql}: ${JSON.stringify(env).slice(0, 300)}`);
    }
    // Over a table with nothing blocked, the stored function alone is what refuses it.
    for (const sql of ['SELECT id, LEFT(r, 3) FROM v_city_ref', 'SELECT name FROM v_city_ref']) {
      const env = await q(sql);
      assert.equal(env.status, 'refused', `${sql}: ${JSON.stringify(env).slice(0, 300)}`);
      assert.match(env.error!.message, /v_city_ref.*ssn_of/, sql);
    }
    // A view reading a relation of another database, which this source never classified: refused whatever it reads.
    for (const sql of ["SELECT id, REPLACE(ident, '-', '/') FROM v_cross", 'SELECT COUNT(*) FROM v_cross WHERE ident LIKE "9%"']) {
      const env = await q(sql);
      assert.equal(env.status, 'refused', `${sql}: ${JSON.stringify(env).slice(0, 300)}`);
      assert.match(env.error!.message, /another database/, sql);
    }
    const cities = await q('SELECT id, name FROM v_cities ORDER BY id');
    assert.equal(cities.status, 'success', JSON.stringify(cities).slice(0, 300));
    assert.deepEqual(cities.data?.rows?.map((r) => r[0]), [1, 2]);
  });

  it('hands rows out in key order, never in the order of an index over a blocked column', async () => {
    // The SSNs sort 4, 3, 2, 1; without the hint MariaDB answers `SELECT id` from the covering index on ssn.
    const [direct] = (await admin!.query({ sql: `SELECT id FROM ${DB}.customers`, rowsAsArray: true })) as unknown as [unknown[][]];
    assert.deepEqual(direct.map((r) => r[0]), [4, 3, 2, 1], 'the server itself reads the covering index (what the test guards against)');
    for (const sql of ['SELECT id FROM customers', 'SELECT c.id FROM customers c', 'SELECT id FROM customers ORDER BY ssn']) {
      const env = await q(sql);
      assert.deepEqual(env.data?.rows?.map((r) => r[0]), [1, 2, 3, 4], `${sql}: ${JSON.stringify(env).slice(0, 300)}`);
    }
  });

  it('refuses reads whose row order would be a blocked column\'s: a view over an index on it, a table keyed by it', async () => {
    // MySQL merges a view into the statement, out of reach of the hints on its base table; InnoDB stores a table in
    // primary-key order.
    for (const [sql, why] of [
      ['SELECT id FROM v_names', /v_names reads .*customers.*index over a PII-blocked column/],
      ['SELECT note FROM gov_ids', /gov_ids is stored in the order of its PII-blocked primary key/],
      ['SELECT GROUP_CONCAT(note) FROM gov_ids', /primary key/],
    ] as const) {
      const env = await q(sql);
      assert.equal(env.status, 'refused', `${sql}: ${JSON.stringify(env).slice(0, 300)}`);
      assert.match(env.error!.message, why, sql);
    }
  });

  it('cuts a row of many wide columns on the wire before it is assembled', async () => {
    const cols = Array.from({ length: 24 }, (_, i) => `REPEAT('x', 8000000) AS c${i}`).join(', ');
    const rss0 = process.memoryUsage().rss;
    const env = await q(`SELECT ${cols}`);
    assert.equal(env.status, 'partial', JSON.stringify(env).slice(0, 300));
    assert.equal(env.data?.truncated_by, 'bytes');
    assert.ok(process.memoryUsage().rss - rss0 < 150 * 1024 * 1024, `RSS grew by ${Math.round((process.memoryUsage().rss - rss0) / 1048576)} MiB for a 192 MB row`);
    const after = await q('SELECT id FROM v_cities ORDER BY id LIMIT 1');
    assert.equal(after.status, 'success');
  });
});
