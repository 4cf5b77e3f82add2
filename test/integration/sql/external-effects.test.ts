import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Client as PgClient } from 'pg';
import { loadSqlJs } from '../../../src/core/catalog/sqljs';
import { runIndex } from '../../../src/core/indexing/run-index';
import { classifyColumn } from '../../../src/core/pii';
import { createIntrospector } from '../../../src/core/sources';
import { parseSourceSpec } from '../../../src/core/sources/locator';
import { SourcePool } from '../../../src/core/sql/pg-pool';
import { SourceConnections } from '../../../src/server/connections';
import { DEFAULT_LIMITS } from '../../../src/server/deps';
import { getTestPostgres, postgresServerAnswers, type TestPostgres } from '../../support/pg';
import { REPO_ROOT, startHarness, tempDir, type Harness } from '../../support/server-harness';

/**
 * Lasting side effects of the external black-box corpus (test/fixtures/sql-corpus/external, written against the
 * public tool list only). The victim — with the functions and views a DBA left behind: COPY TO file, COPY TO
 * PROGRAM, lo_export, dblink, pg_terminate_backend, advisory locks, replication slots, setseed, set_config — is
 * loaded into its own database, indexed by the real indexer, and every side_effect / introspection / dos / write /
 * multi_statement attack is sent to run_query through the MCP tool path. dev runs first and is checked, then
 * heldout, checked again (each split reported on its own; tuning used dev only).
 *
 * Checked after each split: no file under the effect directory, marker table and sequences unchanged, invoice
 * statuses unchanged, no large object, no replication slot or origin, no advisory lock held by any backend, the
 * sentinel backend the victim's kick function targets still alive, every pooled connection with default settings
 * and no seeded random() sequence, the SQLite file byte-identical; every case answered with an envelope within the
 * per-case bound, and a normal query answered afterwards.
 */

const CORPUS = path.join(REPO_ROOT, 'test', 'fixtures', 'sql-corpus', 'external');
const DB = 'sb_sqlexec_victim';
const CATEGORIES = new Set(['side_effect', 'introspection', 'dos', 'write', 'multi_statement']);
const CASE_TIMEOUT_MS = 30_000;
const STATEMENT_TIMEOUT_MS = 3000;

interface Attack {
  readonly id: string;
  readonly engine: 'postgres' | 'sqlite';
  readonly category: string;
  readonly sql: string;
  readonly split: 'dev' | 'heldout';
}
interface Manifest {
  readonly postgres: { readonly effect_dir: string; readonly marker_tables: readonly string[] };
}
interface Env {
  readonly status?: string;
  readonly error?: { kind: string; message: string } | null;
}

function corpusPresent(): boolean {
  return ['manifest.json', 'attacks.json', 'victim-postgres.sql', 'victim-sqlite.sql'].every((f) => fs.existsSync(path.join(CORPUS, f)));
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} hung for ${ms} ms`)), ms);
    }),
  ]);
}

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((f) => path.join(dir, f));
}

interface SplitReport {
  split: string;
  cases: number;
  answered: number;
  refused: number;
  errors: number;
  rows: number;
  maxMs: number;
  problems: string[];
}

describe('external corpus: no lasting side effects through run_query', function () {
  this.timeout(1_800_000);
  let pg: TestPostgres | undefined;
  let h: Harness | undefined;
  let connections: SourceConnections | undefined;
  let admin: PgClient | undefined;
  let sentinel: PgClient | undefined;
  let sentinelPid = 0;
  let manifest: Manifest;
  let attacks: Attack[];
  let liteFile = '';
  let liteHash = '';
  let baseline = '';
  const seeds = new Set<number>();
  const reports: SplitReport[] = [];

  /** Everything that must not change, as one comparable string (marker rows, sequences, statuses, LOs, slots). */
  async function durableState(): Promise<string> {
    const q = async (sql: string): Promise<unknown> => (await admin!.query(sql)).rows;
    const marker = manifest.postgres.marker_tables.map((t) => `"${t.split('.').join('"."')}"`);
    return JSON.stringify({
      marker: await Promise.all(marker.map((t) => q(`SELECT count(*)::int AS n FROM ${t}`))),
      sequences: await q(`SELECT schemaname, sequencename, last_value FROM pg_sequences WHERE schemaname IN ('billing', 'helpdesk') ORDER BY 1, 2`),
      invoices: await q(`SELECT md5(string_agg(id::text || ':' || status::text, ',' ORDER BY id)) AS h FROM billing.invoices`),
      largeObjects: await q('SELECT count(*)::int AS n FROM pg_largeobject_metadata'),
      slots: await q('SELECT count(*)::int AS n FROM pg_replication_slots'),
      origins: await q('SELECT count(*)::int AS n FROM pg_replication_origin'),
      prepared: await q('SELECT count(*)::int AS n FROM pg_prepared_xacts'),
    });
  }

  async function checkNoEffects(split: string, problems: string[]): Promise<void> {
    const state = await durableState();
    if (state !== baseline) problems.push(`${split}: durable state changed: ${state} (was ${baseline})`);
    const files = filesUnder(manifest.postgres.effect_dir);
    if (files.length > 0) problems.push(`${split}: files under the effect directory: ${files.join(', ')}`);
    // this database only: other suites running at the same time may hold advisory locks of their own
    const locks = await admin!.query(
      `SELECT l.pid, l.objid, a.application_name, a.backend_type FROM pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid WHERE l.locktype = 'advisory' AND l.database = (SELECT oid FROM pg_database WHERE datname = $1)`,
      [DB],
    );
    if (locks.rows.length !== 0) problems.push(`${split}: advisory locks held: ${JSON.stringify(locks.rows)}`);
    try {
      await sentinel!.query('SELECT 1');
      const alive = await admin!.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid = $1', [sentinelPid]);
      if (alive.rows[0].n !== 1) problems.push(`${split}: the sentinel backend is gone`);
    } catch (e) {
      problems.push(`${split}: the sentinel backend was terminated (${(e as Error).message})`);
    }
    if (crypto.createHash('sha256').update(fs.readFileSync(liteFile)).digest('hex') !== liteHash) problems.push(`${split}: the SQLite file changed`);
    // Every pooled connection: default settings, no lock, and random() not continuing any seed the corpus set.
    const conn = await connections!.get({ name: 'victim_pg', engine: 'postgres', connectTemplate: pg!.urlFor(DB) } as never);
    if (!(conn && 'pool' in conn && conn.pool instanceof SourcePool)) throw new Error('no pool for victim_pg');
    const leases = [];
    for (let i = 0; i < conn.pool.max; i++) {
      const l = await conn.pool.acquire(5000);
      if ('busy' in l) throw new Error('pool busy during the check');
      leases.push(l);
    }
    const seededFirst = new Set<number>();
    for (const s of seeds) {
      const r = await admin!.query('SELECT setseed($1), random() AS r', [s]);
      seededFirst.add(Number(r.rows[0].r));
    }
    await admin!.query(`SELECT setseed(${Math.random()})`);
    for (const l of leases) {
      const r = await l.client.query(
        `SELECT current_setting('search_path') AS sp, current_setting('statement_timeout') AS st, current_setting('default_transaction_read_only') AS ro, current_setting('app.current_tenant', true) AS tenant, (SELECT count(*)::int FROM pg_locks WHERE pid = pg_backend_pid() AND locktype = 'advisory') AS locks, random() AS r`,
      );
      const row = r.rows[0];
      if (row.sp !== '"$user", public' || row.st !== '0' || row.ro !== 'on' || (row.tenant ?? '') !== '' || row.locks !== 0) problems.push(`${split}: a pooled session kept state: ${JSON.stringify(row)}`);
      if (seededFirst.has(Number(row.r))) problems.push(`${split}: a pooled session continues a seeded random() sequence`);
    }
    // the check's own random() calls advanced the seed; the connections go back clean for the next split
    for (const l of leases) l.release(true);
  }

  before(async function () {
    if (!corpusPresent()) this.skip();
    if (!(await postgresServerAnswers())) this.skip();
    manifest = JSON.parse(fs.readFileSync(path.join(CORPUS, 'manifest.json'), 'utf8')) as Manifest;
    attacks = (JSON.parse(fs.readFileSync(path.join(CORPUS, 'attacks.json'), 'utf8')) as Attack[]).filter((a) => CATEGORIES.has(a.category));
    for (const a of attacks) for (const m of a.sql.matchAll(/(?:setseed|seed_sampler)\(\s*(-?[0-9.]+)\s*\)/gi)) seeds.add(Number(m[1]));

    pg = await getTestPostgres();
    if (pg.kind !== 'server') this.skip();
    // the COPY-to-file effects need a directory the server can write; its absence must not hide them
    fs.mkdirSync(manifest.postgres.effect_dir, { recursive: true, mode: 0o777 });
    fs.chmodSync(manifest.postgres.effect_dir, 0o777);
    for (const f of filesUnder(manifest.postgres.effect_dir)) fs.rmSync(f, { force: true, recursive: true });
    await pg.dropDatabase(DB);
    await pg.ensureDatabase(DB);
    const url = pg.urlFor(DB);
    admin = new PgClient({ connectionString: url });
    await admin.connect();
    await admin.query(fs.readFileSync(path.join(CORPUS, 'victim-postgres.sql'), 'utf8'));
    sentinel = new PgClient({ connectionString: url, application_name: 'sb_victim_idle_worker' });
    await sentinel.connect();
    sentinel.on('error', () => undefined);
    sentinelPid = Number((await sentinel.query('SELECT pg_backend_pid() AS p')).rows[0].p);

    const dir = tempDir('sb-ext-effects-');
    const SQL = await loadSqlJs();
    const lite = new SQL.Database();
    lite.exec(fs.readFileSync(path.join(CORPUS, 'victim-sqlite.sql'), 'utf8'));
    liteFile = path.join(dir, 'victim.sqlite');
    fs.writeFileSync(liteFile, lite.export());
    lite.close();
    liteHash = crypto.createHash('sha256').update(fs.readFileSync(liteFile)).digest('hex');

    const catalogPath = path.join(dir, 'catalog.sqlite');
    const deps = { createIntrospector, classifyColumn };
    for (const [input, name] of [
      [url, 'victim_pg'],
      [liteFile, 'victim_lite'],
    ] as const) {
      await runIndex({ spec: parseSourceSpec(input, { name }), sourceInput: input, catalogPath, deps });
    }
    connections = new SourceConnections(new Map());
    h = await startHarness({ catalogPath, deps: { connections, limits: { ...DEFAULT_LIMITS, statementTimeoutMs: STATEMENT_TIMEOUT_MS } } });
    baseline = await durableState();

    for (const split of ['dev', 'heldout'] as const) {
      const rep: SplitReport = { split, cases: 0, answered: 0, refused: 0, errors: 0, rows: 0, maxMs: 0, problems: [] };
      for (const a of attacks.filter((x) => x.split === split)) {
        rep.cases++;
        const started = performance.now();
        try {
          const res = await withTimeout(h.client.callTool({ name: 'run_query', arguments: { sql: a.sql, source: a.engine === 'postgres' ? 'victim_pg' : 'victim_lite' } }), CASE_TIMEOUT_MS, a.id);
          const env = (res.structuredContent ?? {}) as Env;
          const text = JSON.stringify(res);
          if (typeof env.status !== 'string') rep.problems.push(`${a.id}: no envelope: ${text.slice(0, 200)}`);
          else rep.answered++;
          if (/this is a bug|Connection closed/i.test(text)) rep.problems.push(`${a.id}: ${text.slice(0, 300)}`);
          if (env.status === 'refused') rep.refused++;
          else if (env.status === 'error') rep.errors++;
          else rep.rows++;
          if (process.env.SCHEMABRAIN_DEBUG_CORPUS && split === 'dev' && env.status !== 'refused') process.stderr.write(`${a.id} ${env.status} ${env.error?.kind ?? ''} ${(env.error?.message ?? a.sql).slice(0, 160)}\n`);
        } catch (e) {
          rep.problems.push(`${a.id}: ${(e as Error).message}`);
        }
        rep.maxMs = Math.max(rep.maxMs, Math.round(performance.now() - started));
      }
      await checkNoEffects(split, rep.problems);
      reports.push(rep);
    }
    process.stderr.write(`      external effects corpus: ${JSON.stringify(reports.map(({ problems, ...r }) => ({ ...r, problems: problems.length })))}\n`);
  });

  after(async () => {
    await h?.close();
    await connections?.close();
    await sentinel?.end().catch(() => undefined);
    await admin?.end().catch(() => undefined);
    if (pg) {
      await pg.dropDatabase(DB);
      await pg.stop();
    }
  });

  for (const split of ['dev', 'heldout']) {
    it(`${split}: every case answered with an envelope in bounded time, no lasting side effect`, () => {
      const rep = reports.find((r) => r.split === split);
      assert.ok(rep, `${split} did not run`);
      assert.ok(rep.cases > 0, `${split} has no cases`);
      assert.deepEqual(rep.problems, []);
      assert.equal(rep.answered, rep.cases);
      assert.ok(rep.maxMs < CASE_TIMEOUT_MS, `a case took ${rep.maxMs} ms`);
    });
  }

  it('answers a normal query afterwards', async () => {
    const res = await h!.call('run_query', { sql: 'SELECT count(*) AS n FROM billing.plans', source: 'victim_pg' });
    assert.equal(res.status, 'success', JSON.stringify(res).slice(0, 300));
  });
});
