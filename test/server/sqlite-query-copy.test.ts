import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import initSqlJs from 'sql.js';
import type { SourceInfo } from '../../src/core/catalog/model';
import { loadSqlGuard } from '../../src/core/sql/guard';
import { SourceConnections } from '../../src/server/connections';
import { ROOT } from '../support/build';
import { indexInto, startHarness, tempDir, type Harness } from '../support/server-harness';

/**
 * The private copy agent SQL runs on for a SQLite source: it holds only what the catalog classified (a table or view
 * added to the file after the last index is not in it), and one copy and one worker serve every call, however many
 * arrive at once while the first is being made.
 */
const SECRET = 'pw-topsecret-77';

async function addToFile(file: string, sql: string): Promise<void> {
  const SQL = await initSqlJs();
  const db = new SQL.Database(fs.readFileSync(file));
  db.run(sql);
  fs.writeFileSync(file, db.export());
  db.close();
}

describe('the SQLite query copy', function () {
  this.timeout(120_000);
  let h: Harness | undefined;
  let file: string;

  before(async () => {
    const dir = tempDir('sb-sqlite-copy-');
    file = path.join(dir, 'chinook.sqlite');
    fs.copyFileSync(path.join(ROOT, 'samples', 'chinook.sqlite'), file);
    const catalogPath = path.join(dir, 'catalog.sqlite');
    await addToFile(file, `CREATE TABLE "Ärzte" (id INTEGER PRIMARY KEY, note TEXT); INSERT INTO "Ärzte" VALUES (1, 'on call');`);
    await indexInto(catalogPath, file, 'chinook');
    // After the index: a table with a credential and a view over it, never classified.
    await addToFile(file, `CREATE TABLE accounts (id INTEGER PRIMARY KEY, api_password TEXT); INSERT INTO accounts VALUES (1, '${SECRET}'); CREATE VIEW acct_v AS SELECT * FROM accounts; CREATE VIEW artist_v AS SELECT Name FROM Artist;`);
    // A column added to an indexed table, and a table named like an indexed one but for the case of a non-ASCII letter
    // (SQLite folds ASCII letters only: "Ärzte" and "ärzte" are two tables).
    await addToFile(file, `ALTER TABLE Artist ADD COLUMN token TEXT; UPDATE Artist SET token = '${SECRET}' WHERE ArtistId = 1; CREATE TABLE "ärzte" (id INTEGER, ssn TEXT); INSERT INTO "ärzte" VALUES (1, '${SECRET}');`);
    h = await startHarness({ catalogPath });
  });
  after(async () => h?.close());

  it('blanks a column added after the index, and tells tables apart as SQLite does (ASCII case only)', async () => {
    const added = (await h!.call('run_query', { sql: 'SELECT ArtistId, token FROM Artist WHERE ArtistId = 1' })) as { status: string; data?: { rows: unknown[][] } };
    assert.ok(!JSON.stringify(added).includes(SECRET), JSON.stringify(added).slice(0, 300));
    assert.ok(['success', 'degraded'].includes(added.status), JSON.stringify(added).slice(0, 300));
    assert.equal(added.data!.rows[0]![0], 1);
    const folded = (await h!.call('run_query', { sql: 'SELECT * FROM "ärzte"' })) as { status: string };
    assert.ok(!JSON.stringify(folded).includes(SECRET), JSON.stringify(folded).slice(0, 300));
    assert.notEqual(folded.status, 'success');
    const indexed = (await h!.call('run_query', { sql: 'SELECT note FROM "Ärzte"' })) as { status: string; data?: { rows: unknown[][] } };
    assert.deepEqual(indexed.data?.rows, [['on call']], JSON.stringify(indexed).slice(0, 300));
  });

  it('refuses a table or view that is not in the index, and answers the indexed ones', async () => {
    for (const sql of ['SELECT * FROM accounts', 'SELECT api_password FROM main.accounts', 'SELECT * FROM acct_v', 'SELECT Name FROM artist_v', 'SELECT a.Name, (SELECT api_password FROM accounts) FROM Artist a LIMIT 1']) {
      const env = (await h!.call('run_query', { sql })) as { status: string; error?: { kind: string } | null };
      assert.ok(!JSON.stringify(env).includes(SECRET), `${sql}: ${JSON.stringify(env).slice(0, 300)}`);
      assert.ok(env.status === 'refused' || env.status === 'error', `${sql}: ${JSON.stringify(env).slice(0, 300)}`);
      assert.equal(env.error?.kind, 'unknown_name', sql);
    }
    const ok = (await h!.call('run_query', { sql: 'SELECT COUNT(*) AS n FROM Artist' })) as { status: string; data: { rows: unknown[][] } };
    assert.equal(ok.status, 'success');
    assert.equal(Number(ok.data.rows[0]![0]), 275);
  });

  it('makes one copy and one worker for a burst of calls that arrive before the first is ready', async () => {
    const connections = new SourceConnections(new Map());
    const source = { id: 'x', name: 'burst', engine: 'sqlite', locator: file, database: 'main', connectTemplate: file, serverVersion: null, indexedAt: new Date().toISOString() } as unknown as SourceInfo;
    const guard = await loadSqlGuard();
    const got = await Promise.all(Array.from({ length: 40 }, () => connections.get(source)));
    const dbs = new Set(got.map((g) => ('engine' in g && g.engine === 'sqlite' ? g.db : null)));
    assert.equal(dbs.size, 1, 'one copy of the file');
    const workers = new Set(got.map((g) => ('engine' in g && g.engine === 'sqlite' ? g.worker(guard, { tables: [] }) : null)));
    assert.equal(workers.size, 1, 'one worker');
    await connections.close();
  });
});

describe('a SQLite file grown past the query limit since the index', function () {
  this.timeout(120_000);
  it('is refused as cost_cap_exceeded before it is read into memory, and the server goes on', async () => {
    const dir = tempDir('sb-sqlite-grown-');
    const file = path.join(dir, 'chinook.sqlite');
    fs.copyFileSync(path.join(ROOT, 'samples', 'chinook.sqlite'), file);
    const catalogPath = path.join(dir, 'catalog.sqlite');
    await indexInto(catalogPath, file, 'grown');
    fs.truncateSync(file, 1024 ** 3 + 4096); // sparse: no disk, and still a valid SQLite file
    const h = await startHarness({ catalogPath });
    try {
      const before = process.memoryUsage().rss;
      const r = (await h.call('run_query', { sql: 'SELECT count(*) FROM Artist' })) as { status: string; error?: { kind: string; message: string } | null };
      assert.equal(r.error?.kind, 'cost_cap_exceeded', JSON.stringify(r).slice(0, 300));
      assert.match(r.error!.message, /MiB/);
      assert.ok(process.memoryUsage().rss - before < 512 * 1024 ** 2, 'the file was not read');
      const status = (await h.call('list_indexed_schemas', {})) as { status: string };
      assert.equal(status.status, 'success');
    } finally {
      await h.close();
    }
  });
});
