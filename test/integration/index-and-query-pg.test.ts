import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { CatalogStore } from '../../src/core/catalog/store';
import { readJobStatus } from '../../src/core/indexing/job-status';
import { EnvelopeSchema } from '../../src/core/envelope';
import { DIST_CLI, ensureBuilt } from '../support/build';
import { getTestPostgres, postgresServerAnswers } from '../support/pg';
import type { TestPostgres } from '../support/pg';
import { loadDataset, skipWithoutData } from '../support/datasets';
import { startHarness, tempDir } from '../support/server-harness';
import type { Harness } from '../support/server-harness';

function index(args: string[], env: Record<string, string> = {}): { code: number | null; last: Record<string, unknown>; stderr: string } {
  const r = spawnSync(process.execPath, [DIST_CLI, 'index', ...args, '--json'], { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 300_000 });
  const lines = r.stdout.split('\n').filter((l) => l.startsWith('{'));
  return { code: r.status, last: lines.length ? (JSON.parse(lines[lines.length - 1]!) as Record<string, unknown>) : {}, stderr: r.stderr };
}

type Env = { status: string; data: Record<string, unknown>; error: { kind: string; message: string; recovery: Record<string, unknown> } | null };

describe('PostgreSQL end to end: index with the CLI, query through the server', function () {
  let pg: TestPostgres;
  let dir: string;
  let catalog: string;
  let pagilaUrl: string;
  let mbUrl: string;
  let h: Harness;

  const call = async (name: string, args: Record<string, unknown>): Promise<Env> => {
    const env = await h.call(name, args);
    assert.ok(EnvelopeSchema.safeParse(env).success, JSON.stringify(env).slice(0, 300));
    return env as unknown as Env;
  };

  before(async function () {
    skipWithoutData(this, 'pagila/pagila-schema.sql', 'musicbrainz');
    this.timeout(600_000);
    // The CLI, the server and the test each hold their own connection; the embedded engine serves one at a time.
    if (!(await postgresServerAnswers())) this.skip();
    ensureBuilt();
    pg = await getTestPostgres();
    pagilaUrl = (await loadDataset(pg, 'pagila', 'sb_e2e_pagila')).url;
    mbUrl = (await loadDataset(pg, 'musicbrainz')).url;
    dir = tempDir();
    catalog = path.join(dir, 'catalog.sqlite');
  });
  after(async () => {
    await h?.close();
    await pg?.stop();
  });

  it('indexes Pagila and MusicBrainz into one catalog under their own names', () => {
    const a = index(['--source', pagilaUrl, '--name', 'pagila', '--catalog', catalog]);
    assert.equal(a.code, 0, a.stderr + JSON.stringify(a.last));
    assert.equal(a.last.mode, 'full');
    const b = index(['--source', mbUrl, '--name', 'musicbrainz', '--catalog', catalog]);
    assert.equal(b.code, 0, b.stderr + JSON.stringify(b.last));
    assert.ok(Number(b.last.tables) >= 370, JSON.stringify(b.last));
    assert.equal(b.last.generation, 2);
  });

  it('a killed index leaves the previous catalog intact and loadable', async () => {
    const before = fs.readFileSync(catalog);
    // --full: the structure is unchanged, so without it the run would finish at the digest check before any phase.
    const child = spawn(process.execPath, [DIST_CLI, 'index', '--source', mbUrl, '--name', 'musicbrainz', '--catalog', catalog, '--full', '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
    await new Promise<void>((resolve) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (/"phase":"(tables|columns|constraints)"/.test(out)) {
          child.kill('SIGKILL');
          resolve();
        }
      });
      child.on('exit', () => resolve());
    });
    await new Promise((r) => child.once('exit', r));
    assert.equal(child.signalCode, 'SIGKILL', 'the indexer was killed mid-run');
    assert.ok(fs.readFileSync(catalog).equals(before), 'the catalog file is byte-for-byte the previous one');
    const store = await CatalogStore.open(catalog);
    assert.equal(store.generation, 2);
    assert.deepEqual(store.listSources().map((s) => s.info.name), ['musicbrainz', 'pagila']);
    store.close();
    const job = readJobStatus(catalog);
    assert.equal(job.state, 'failed');
    assert.equal(job.errorKind, 'interrupted');
    // The next run takes over the dead indexer's lock and succeeds.
    const again = index(['--source', mbUrl, '--name', 'musicbrainz', '--catalog', catalog]);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.last.mode, 'unchanged');
  });

  it('re-indexing after a schema change rewrites only the changed table', async () => {
    const c = new Client({ connectionString: pagilaUrl });
    await c.connect();
    try {
      await c.query('ALTER TABLE public.language ADD COLUMN IF NOT EXISTS native_name text');
      const r = index(['--source', pagilaUrl, '--name', 'pagila', '--catalog', catalog]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.last.mode, 'incremental');
      assert.equal(r.last.changed, 1);
    } finally {
      await c.query('ALTER TABLE public.language DROP COLUMN IF EXISTS native_name');
      await c.end();
    }
  });

  it('answers catalog tools over both sources, asking for a source only when a name is ambiguous', async () => {
    h = await startHarness({ catalogPath: catalog, deps: { limits: { maxRows: 50, maxBytes: 1_000_000, statementTimeoutMs: 1_000 } } });
    const film = await call('describe_table', { qualified_name: 'public.film' });
    assert.equal(film.status, 'success');
    assert.equal(film.data.source, 'pagila');
    const payment = await call('describe_table', { qualified_name: 'public.payment', response_format: 'detailed' });
    assert.equal(payment.data.kind, 'partitioned_table');
    assert.ok(Array.isArray(payment.data.partitions) && (payment.data.partitions as unknown[]).length >= 6);
    const artist = await call('describe_table', { qualified_name: 'musicbrainz.artist' });
    assert.equal(artist.data.source, 'musicbrainz');
    const wrongSource = await call('describe_table', { qualified_name: 'public.film', source: 'musicbrainz' });
    assert.equal(wrongSource.error!.kind, 'unknown_name');
    const joins = await call('suggest_joins', { tables: ['public.actor', 'public.category'], source: 'pagila' });
    assert.equal(joins.status, 'success');
    assert.deepEqual([...(joins.data.bridge_tables as string[])].sort(), ['public.film', 'public.film_actor', 'public.film_category']);
  });

  it('run_query reads Pagila through a read-only transaction, with caps and a timeout', async () => {
    const n = await call('run_query', { sql: 'SELECT count(*)::int AS n FROM film', source: 'pagila' });
    assert.equal(n.status, 'success');
    assert.deepEqual(n.data.rows, [[1000]]);
    const cut = await call('run_query', { sql: 'SELECT film_id FROM film ORDER BY film_id', source: 'pagila' });
    assert.equal(cut.status, 'partial');
    assert.equal(cut.data.row_count, 50);
    const slow = await call('run_query', { sql: 'SELECT count(*) FROM generate_series(1, 200000000)', source: 'pagila' });
    assert.equal(slow.error!.kind, 'cost_cap_exceeded');
    const write = await call('run_query', { sql: 'WITH d AS (DELETE FROM film RETURNING *) SELECT count(*) FROM d', source: 'pagila' });
    assert.equal(write.status, 'refused');
    const missingTable = await call('run_query', { sql: 'SELECT * FROM films', source: 'pagila' });
    assert.equal(missingTable.error!.kind, 'unknown_name');
    const ambiguous = await call('run_query', { sql: 'SELECT 1' });
    assert.equal(ambiguous.error!.kind, 'malformed_name');
    assert.deepEqual(ambiguous.error!.recovery.fuzzy_matches, ['musicbrainz', 'pagila']);
  });

  it('names a missing credential instead of failing obscurely', () => {
    const r = index(['--source', 'postgres://reader:${SB_TEST_UNSET_PASSWORD}@127.0.0.1:5432/sb_e2e_pagila', '--catalog', path.join(dir, 'other.sqlite')]);
    assert.equal(r.code, 2);
    assert.equal(r.last.kind, 'missing_credential');
  });

  it('reports a role the server rejects as auth_failed', function () {
    // The embedded engine accepts any role; only a real server can reject one.
    if (pg.kind !== 'server') this.skip();
    const role = index(['--source', 'postgres://sb_no_such_role@127.0.0.1:5432/sb_e2e_pagila', '--catalog', path.join(dir, 'other.sqlite')]);
    assert.equal(role.code, 2);
    assert.equal(role.last.kind, 'auth_failed');
  });
});
