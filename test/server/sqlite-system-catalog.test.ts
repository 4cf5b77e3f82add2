import assert from 'node:assert/strict';
import path from 'node:path';
import { CHINOOK_SQLITE, indexInto, startHarness, tempDir, type Harness } from '../support/server-harness';

/**
 * SQLite's own catalog is one object under many spellings: every spelling is refused alike, with a recovery that
 * names the catalog tool to use instead, while ordinary `main.`-qualified tables stay readable.
 */
describe('run_query on SQLite refuses the system catalog under every spelling', function () {
  let h: Harness;

  before(async () => {
    const catalog = path.join(tempDir('sb-sqlite-sys-'), 'catalog.sqlite');
    await indexInto(catalog, CHINOOK_SQLITE, 'chinook');
    h = await startHarness({ catalogPath: catalog });
  });
  after(async () => h?.close());

  const spellings = [
    'SELECT * FROM sqlite_master',
    'SELECT * FROM main.sqlite_master',
    'SELECT * FROM "main"."sqlite_master"',
    'SELECT * FROM temp.sqlite_master',
    'SELECT name FROM temp.sqlite_schema',
    'SELECT * FROM "SQLITE_MASTER"',
    'SELECT * FROM SQLITE_SCHEMA',
    'SELECT * FROM sqlite_temp_master',
    'SELECT sql FROM main.sqlite_schema WHERE name = \'Artist\'',
    'SELECT a.Name FROM Artist a JOIN main.sqlite_master m ON m.name = a.Name',
  ];
  for (const sql of spellings) {
    it(`refuses ${sql}`, async () => {
      const env = (await h.call('run_query', { sql })) as { status: string; error?: { kind: string; recovery?: { suggested_tool?: string } } };
      assert.equal(env.status, 'refused', JSON.stringify(env));
      assert.equal(env.error?.kind, 'allowlist_violation');
      assert.ok(env.error?.recovery?.suggested_tool, 'a recovery names the tool to use instead');
    });
  }

  it('answers main.-qualified user tables', async () => {
    const env = (await h.call('run_query', { sql: 'SELECT count(*) AS n FROM main.Artist' })) as { status: string; data?: { rows: unknown[] } };
    assert.equal(env.status, 'success');
    assert.equal(env.data?.rows.length, 1);
  });
});
