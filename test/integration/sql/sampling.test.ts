import assert from 'node:assert/strict';
import path from 'node:path';
import { Client as PgClient } from 'pg';
import { classifyColumn } from '../../../src/core/pii';
import { runIndex } from '../../../src/core/indexing/run-index';
import { createIntrospector, parseSourceSpec } from '../../../src/core/sources';
import { getTestPostgres, postgresServerAnswers, type TestPostgres } from '../../support/pg';
import { startHarness, tempDir, type Harness } from '../../support/server-harness';

/**
 * What the indexer samples to find secrets in free text, on a real PostgreSQL database: rows from all over a table
 * (secrets pasted only into its last quarter were unseen when the first rows were read), a card past the first 200
 * characters of a long note, and a table it could not sample said in the run record and read again by the next run.
 */

const DB = 'sb_sampling';
const CARD = '4539578763621486';

describe('sampling free text for secrets (PostgreSQL)', function () {
  this.timeout(300_000);
  let pg: TestPostgres | undefined;
  let h: Harness | undefined;
  let url = '';
  let catalogPath = '';

  before(async function () {
    if (!(await postgresServerAnswers())) this.skip();
    pg = await getTestPostgres();
    await pg.dropDatabase(DB);
    await pg.ensureDatabase(DB);
    url = pg.urlFor(DB);
    const c = new PgClient({ connectionString: url });
    await c.connect();
    await c.query(`
      CREATE TABLE tickets (id int PRIMARY KEY, body text);
      INSERT INTO tickets SELECT g, CASE WHEN g <= 1500 THEN 'customer asked about delivery window number ' || g
        ELSE 'customer pasted card ${CARD} for order ' || g END FROM generate_series(1, 2000) g;
      CREATE TABLE tickets_long (id int PRIMARY KEY, body text);
      INSERT INTO tickets_long SELECT g, repeat('The customer called about the delayed parcel and asked us to check again. ', 4) || 'card ${CARD}'
        FROM generate_series(1, 300) g;
      CREATE TABLE notes (id int PRIMARY KEY, body text);
      INSERT INTO notes SELECT g, 'plain note ' || g FROM generate_series(1, 50) g;
      ANALYZE;
    `);
    await c.end();
    catalogPath = path.join(tempDir('sb-sampling-'), 'catalog.sqlite');
    await runIndex({ spec: parseSourceSpec(url, { name: 'smp' }), sourceInput: url, catalogPath, deps: { createIntrospector, classifyColumn } });
    h = await startHarness({ catalogPath });
  });

  after(async () => {
    await h?.close();
    if (pg) {
      await pg.dropDatabase(DB);
      await pg.stop();
    }
  });

  it('tags a column whose secrets sit only in rows past the first ones, or past the first 200 characters', async () => {
    for (const [table, id] of [['tickets', 1999], ['tickets_long', 1]] as const) {
      const d = await h!.call('describe_column', { qualified_name: `public.${table}.body` });
      assert.match(JSON.stringify(d), /payment_card/, `${table}: ${JSON.stringify(d).slice(0, 400)}`);
      const r = await h!.call('run_query', { sql: `SELECT encode(convert_to(body, 'UTF8'), 'base64') AS b, translate(body, '0123456789', 'ABCDEFGHIJ') AS t FROM ${table} WHERE id = ${id}` });
      const text = JSON.stringify(r);
      assert.ok(!text.includes(Buffer.from(`card ${CARD}`).toString('base64').slice(0, 12)) && !/EFDJFHIHGDGCBEIG/.test(text), `${table}: ${text.slice(0, 400)}`);
      assert.equal(r.status, 'degraded', `${table}: ${text.slice(0, 300)}`);
    }
    const plain = await h!.call('describe_column', { qualified_name: 'public.notes.body' });
    assert.doesNotMatch(JSON.stringify(plain), /payment_card/);
  });

  it('says which tables it could not sample, and reads the source again on the next run', async () => {
    const role = 'sb_sampling_reader';
    const admin = new PgClient({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(`DROP ROLE IF EXISTS ${role}`).catch(() => undefined);
      await admin.query(`CREATE ROLE ${role} LOGIN; GRANT USAGE ON SCHEMA public TO ${role}; GRANT SELECT ON tickets, tickets_long TO ${role}`);
      const u = new URL(url);
      u.username = role;
      u.password = '';
      const catalog = path.join(tempDir('sb-sampling-role-'), 'catalog.sqlite');
      const index = () => runIndex({ spec: parseSourceSpec(u.toString(), { name: 'role' }), sourceInput: u.toString(), catalogPath: catalog, deps: { createIntrospector, classifyColumn } });
      const first = await index();
      assert.equal(first.mode, 'full');
      const status = await startHarness({ catalogPath: catalog });
      try {
        const s = JSON.stringify(await status.call('get_index_status', {}));
        assert.match(s, /samples_incomplete/, s.slice(0, 600));
        assert.match(s, /public\.notes/);
      } finally {
        await status.close();
      }
      assert.notEqual((await index()).mode, 'unchanged', 'a run with tables left unsampled is not the last word');
    } finally {
      await admin.query(`REVOKE ALL ON ALL TABLES IN SCHEMA public FROM ${role}; REVOKE USAGE ON SCHEMA public FROM ${role}; DROP ROLE IF EXISTS ${role}`).catch(() => undefined);
      await admin.end();
    }
  });
});
