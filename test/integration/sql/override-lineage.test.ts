import assert from 'node:assert/strict';
import path from 'node:path';
import { Client as PgClient } from 'pg';
import { classifyColumn } from '../../../src/core/pii';
import { parsePolicyYaml } from '../../../src/core/pii/policy';
import { runIndex } from '../../../src/core/indexing/run-index';
import { createIntrospector, parseSourceSpec } from '../../../src/core/sources';
import { createPiiGate } from '../../../src/server/pii-gate';
import { getTestPostgres, postgresServerAnswers, type TestPostgres } from '../../support/pg';
import { startHarness, tempDir, type Harness } from '../../support/server-harness';

/**
 * A column the operator blocks by name (`column_overrides: … block: true`), with or without categories of its own:
 * the generated columns, views and materialized views over it are blocked with it on a real PostgreSQL database, in
 * run_query and profile_table (they were tagged with its categories only, or not at all, and read in clear).
 */

const DB = 'sb_override_lineage';
const SECRET = 'ZEBRA-LAGOON';
const POLICY = `version: 1
column_overrides:
  public.users.secret_note: { block: true }
  public.users.plan: { categories: [behavioral], block: true }
  public.pt_vault.codename: { block: true }
`;

describe('what is derived from a column blocked by name is blocked (PostgreSQL)', function () {
  this.timeout(300_000);
  let pg: TestPostgres | undefined;
  let h: Harness | undefined;

  before(async function () {
    if (!(await postgresServerAnswers())) this.skip();
    pg = await getTestPostgres();
    await pg.dropDatabase(DB);
    await pg.ensureDatabase(DB);
    const url = pg.urlFor(DB);
    const c = new PgClient({ connectionString: url });
    await c.connect();
    await c.query(`
      CREATE TABLE users (id int PRIMARY KEY, name text, secret_note text, plan text,
        note_full text GENERATED ALWAYS AS (secret_note || '') STORED,
        plan_tail text GENERATED ALWAYS AS (right(plan, 6)) STORED);
      INSERT INTO users (id, name, secret_note, plan) SELECT g, 'user ' || g, CASE WHEN g % 2 = 0 THEN '${SECRET}' ELSE 'ZEBRA-MEADOW' END, 'PLAN-ORCHID' FROM generate_series(1, 60) g;
      CREATE VIEW v_code AS SELECT id, secret_note AS code FROM users;
      CREATE VIEW v_plan AS SELECT id, plan FROM users;
      CREATE VIEW v_over AS SELECT code AS c2 FROM v_code;
      CREATE MATERIALIZED VIEW mv_notes AS SELECT id, lower(secret_note) AS sn FROM users;
      CREATE TABLE pt (id int, codename text) PARTITION BY LIST (id);
      CREATE TABLE pt_public PARTITION OF pt FOR VALUES IN (1);
      CREATE TABLE pt_vault PARTITION OF pt FOR VALUES IN (7);
      INSERT INTO pt VALUES (1, 'pt-public'), (7, '${SECRET}');
      ANALYZE;
    `);
    await c.end();
    const dir = tempDir('sb-override-');
    const catalogPath = path.join(dir, 'catalog.sqlite');
    const policy = parsePolicyYaml(POLICY);
    await runIndex({ spec: parseSourceSpec(url, { name: 'ov' }), sourceInput: url, catalogPath, policy, deps: { createIntrospector, classifyColumn } });
    h = await startHarness({ catalogPath, deps: { pii: createPiiGate(policy) } });
  });

  after(async () => {
    await h?.close();
    if (pg) {
      await pg.dropDatabase(DB);
      await pg.stop();
    }
  });

  const leaks = (text: string): boolean => /ZEBRA|zebra|LAGOON|ORCHID|MEADOW/.test(text);

  it('run_query reads every derived column as NULL or refuses it', async () => {
    for (const sql of ['SELECT * FROM pt', 'SELECT note_full, plan_tail FROM users', 'SELECT code FROM v_code', 'SELECT plan FROM v_plan', 'SELECT c2 FROM v_over', 'SELECT sn FROM mv_notes', 'SELECT * FROM users']) {
      const res = await h!.call('run_query', { sql });
      const text = JSON.stringify(res);
      assert.ok(!leaks(text), `${sql}: ${text.slice(0, 400)}`);
      assert.ok(['degraded', 'refused'].includes(String(res.status)), `${sql}: ${text.slice(0, 300)}`);
    }
    const count = await h!.call('run_query', { sql: "SELECT count(*) FROM users WHERE note_full = 'ZEBRA-LAGOON'" });
    assert.equal(count.status, 'refused', 'no filter on a derived column either');
  });

  it('profile_table gives the derived columns their NULL counts and nothing else', async () => {
    for (const t of ['public.users', 'public.v_code', 'public.mv_notes']) {
      const res = await h!.call('profile_table', { qualified_name: t, response_format: 'detailed' });
      const text = JSON.stringify(res);
      // A view reading a blocked column under another name is refused outright, as run_query refuses it.
      assert.ok(['success', 'degraded', 'partial', 'refused'].includes(String(res.status)), `${t}: ${text.slice(0, 300)}`);
      assert.ok(!leaks(text), `${t}: ${text.slice(0, 600)}`);
    }
  });

  it('an unrelated column still reads in clear', async () => {
    const res = await h!.call('run_query', { sql: 'SELECT name FROM users WHERE id = 2' });
    assert.equal(res.status, 'success', JSON.stringify(res).slice(0, 300));
    assert.deepEqual((res.data as { rows: unknown[][] }).rows, [['user 2']]);
  });
});
