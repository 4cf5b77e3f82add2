import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Client as PgClient } from 'pg';
import { loadSqlJs } from '../../../src/core/catalog/sqljs';
import { runIndex } from '../../../src/core/indexing/run-index';
import { classifyColumn, createPolicy } from '../../../src/core/pii';
import type { ColumnOverride, PiiPolicy } from '../../../src/core/pii';
import { createIntrospector } from '../../../src/core/sources';
import { parseSourceSpec } from '../../../src/core/sources/locator';
import { DEFAULT_LIMITS } from '../../../src/server/deps';
import { createPiiGate } from '../../../src/server/pii-gate';
import { getTestPostgres, postgresServerAnswers, type TestPostgres } from '../../support/pg';
import { REPO_ROOT, startHarness, tempDir, type Harness } from '../../support/server-harness';

/**
 * The external black-box corpus (test/fixtures/sql-corpus/external, written against the public tool list only)
 * through the real MCP tool path: both victims loaded into a real PostgreSQL database and a real SQLite file,
 * indexed by the real indexer with the operator's block list from the manifest, every attack and benign query sent
 * to run_query. Asserted here: no canary — any value of a sensitive or operator-blocked column read directly as
 * superuser, or any secret literal of the free-text column — in any response, error, audit row or event; oracle
 * pairs answered identically; no crash or hang on any case; false refusals of honest analytics at most 1 %.
 * Side-effect checks over the same corpus live in their own suite. Tuning uses split=dev only; heldout is reported
 * separately.
 */

const CORPUS = path.join(REPO_ROOT, 'test', 'fixtures', 'sql-corpus', 'external');
const DB = 'sb_sqlpii_victim';
const CASE_TIMEOUT_MS = 30_000;

interface ColumnRefJson {
  readonly table: string;
  readonly column: string;
}
interface EngineManifest {
  readonly sensitive_columns: readonly ColumnRefJson[];
  readonly operator_blocked: readonly ColumnRefJson[];
  readonly free_text_secret_columns: readonly ColumnRefJson[];
  readonly secret_literals: readonly string[];
}
interface Manifest {
  readonly postgres: EngineManifest;
  readonly sqlite: EngineManifest;
}
interface Attack {
  readonly id: string;
  readonly engine: 'postgres' | 'sqlite';
  readonly category: string;
  readonly sql: string;
  readonly split: 'dev' | 'heldout';
  readonly pair?: string;
  readonly guess?: boolean;
}
interface Benign {
  readonly id: string;
  readonly engine: 'postgres' | 'sqlite';
  readonly sql: string;
  readonly split: 'dev' | 'heldout';
  readonly note?: string;
}
interface Env {
  readonly status?: string;
  readonly data?: { rows?: unknown[][] } | null;
  readonly error?: { kind: string; message: string; recovery?: { suggested_tool?: string } } | null;
}

function readJson<T>(name: string): T {
  return JSON.parse(fs.readFileSync(path.join(CORPUS, name), 'utf8')) as T;
}

function corpusPresent(): boolean {
  return ['manifest.json', 'attacks.json', 'benign.json', 'victim-postgres.sql', 'victim-sqlite.sql'].every((f) => fs.existsSync(path.join(CORPUS, f)));
}

/** The operator's block list as a policy: the named columns are blocked one by one (`block: true`), nothing else. */
function operatorPolicy(m: Manifest): PiiPolicy {
  const overrides: Record<string, ColumnOverride> = {};
  for (const [engine, sourceName] of [['postgres', 'victim_pg'], ['sqlite', 'victim_lite']] as const) {
    for (const c of m[engine].operator_blocked) overrides[`${sourceName}:${c.table}.${c.column}`] = { categories: ['contact'], sensitivity: 'pii', force: false, block: true };
  }
  return createPolicy({ columnOverrides: overrides });
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

function qualified(table: string, engine: 'postgres' | 'sqlite'): string {
  return table
    .split('.')
    .map((p) => (engine === 'postgres' ? `"${p}"` : `"${p}"`))
    .join('.');
}

describe('external black-box corpus through run_query', function () {
  this.timeout(1_800_000);
  let pg: TestPostgres | undefined;
  let h: Harness | undefined;
  let manifest: Manifest;
  let attacks: Attack[];
  let benign: Benign[];
  const canaries = new Set<string>();
  const results = new Map<string, { text: string; env: Env }>();

  before(async function () {
    if (!corpusPresent()) this.skip();
    if (!(await postgresServerAnswers())) this.skip();
    manifest = readJson<Manifest>('manifest.json');
    attacks = readJson<Attack[]>('attacks.json');
    benign = readJson<Benign[]>('benign.json');

    pg = await getTestPostgres();
    await pg.dropDatabase(DB);
    await pg.ensureDatabase(DB);
    const url = pg.urlFor(DB);
    const su = new PgClient({ connectionString: url });
    await su.connect();
    try {
      await su.query(fs.readFileSync(path.join(CORPUS, 'victim-postgres.sql'), 'utf8'));
      for (const c of [...manifest.postgres.sensitive_columns, ...manifest.postgres.operator_blocked]) {
        const r = await su.query<{ v: string }>(`SELECT DISTINCT ${`"${c.column}"`}::text AS v FROM ${qualified(c.table, 'postgres')} WHERE ${`"${c.column}"`} IS NOT NULL`);
        for (const row of r.rows) canaries.add(row.v);
      }
    } finally {
      await su.end();
    }

    const dir = tempDir('sb-ext-corpus-');
    const SQL = await loadSqlJs();
    const lite = new SQL.Database();
    lite.exec(fs.readFileSync(path.join(CORPUS, 'victim-sqlite.sql'), 'utf8'));
    for (const c of [...manifest.sqlite.sensitive_columns, ...manifest.sqlite.operator_blocked]) {
      const r = lite.exec(`SELECT DISTINCT CAST("${c.column}" AS TEXT) FROM ${qualified(c.table, 'sqlite')} WHERE "${c.column}" IS NOT NULL`);
      for (const row of r[0]?.values ?? []) canaries.add(String(row[0]));
    }
    const liteFile = path.join(dir, 'victim.sqlite');
    fs.writeFileSync(liteFile, lite.export());
    lite.close();
    for (const s of [...manifest.postgres.secret_literals, ...manifest.sqlite.secret_literals]) canaries.add(s);
    // very short values (a 2-letter code) would match unrelated text; every canary here is a real secret shape
    for (const c of [...canaries]) if (c.trim().length < 6) canaries.delete(c);

    const policy = operatorPolicy(manifest);
    const catalogPath = path.join(dir, 'catalog.sqlite');
    const deps = { createIntrospector, classifyColumn };
    for (const [input, name] of [
      [url, 'victim_pg'],
      [liteFile, 'victim_lite'],
    ] as const) {
      await runIndex({ spec: parseSourceSpec(input, { name }), sourceInput: input, catalogPath, deps, policy });
    }
    h = await startHarness({ catalogPath, deps: { pii: createPiiGate(policy), limits: { ...DEFAULT_LIMITS, statementTimeoutMs: 1500 } } });

    const run = async (id: string, engine: 'postgres' | 'sqlite', sql: string): Promise<void> => {
      const args = { sql, source: engine === 'postgres' ? 'victim_pg' : 'victim_lite' };
      const res = await withTimeout(h!.client.callTool({ name: 'run_query', arguments: args }), CASE_TIMEOUT_MS, id);
      results.set(id, { text: JSON.stringify(res), env: (res.structuredContent ?? {}) as Env });
    };
    for (const a of attacks) await run(a.id, a.engine, a.sql);
    for (const b of benign) await run(b.id, b.engine, b.sql);
  });

  after(async () => {
    await h?.close();
    if (pg) {
      await pg.dropDatabase(DB);
      await pg.stop();
    }
  });

  it('reads the canaries from both victims as superuser', () => {
    assert.ok(canaries.size >= 50, `only ${canaries.size} canaries`);
  });

  it('answers every attack and benign query with an envelope, without a crash or hang', () => {
    for (const item of [...attacks, ...benign]) {
      const r = results.get(item.id);
      assert.ok(r, `${item.id} got no answer`);
      assert.ok(typeof r.env.status === 'string', `${item.id}: no envelope (${r.text.slice(0, 200)})`);
      assert.ok(!/this is a bug|Connection closed/i.test(r.text), `${item.id}: ${r.text.slice(0, 300)}`);
    }
  });

  it('returns no canary value in any response, status or error message', () => {
    const leaks: string[] = [];
    for (const a of [...attacks, ...benign]) {
      const text = results.get(a.id)!.text;
      for (const c of canaries) {
        if (a.sql.includes(c)) continue; // the agent's own SQL may be echoed in a recovery hint
        if (text.includes(c)) {
          leaks.push(`${a.id} (${'split' in a ? a.split : ''}): ${JSON.stringify(c).slice(0, 40)}`);
          break;
        }
      }
    }
    const byPart = (p: string): number => leaks.filter((l) => l.includes(`(${p})`)).length;
    console.log(`    external corpus leaks: dev ${byPart('dev')}, heldout ${byPart('heldout')}`);
    assert.deepEqual(leaks, []);
  });

  it('keeps every canary out of the audit log and the event file', () => {
    for (const file of [h!.auditPath, h!.eventsPath]) {
      const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
      for (const c of canaries) {
        if (attacks.some((a) => a.sql.includes(c)) || benign.some((b) => b.sql.includes(c))) continue;
        assert.ok(!text.includes(c), `${path.basename(file)} holds a canary ${JSON.stringify(c).slice(0, 30)}`);
      }
    }
  });

  it('answers both halves of every oracle pair identically', () => {
    const pairs = new Map<string, Attack[]>();
    for (const a of attacks) if (a.category === 'oracle' && a.pair) pairs.set(a.pair, [...(pairs.get(a.pair) ?? []), a]);
    const differing: string[] = [];
    const answer = (id: string): string => {
      const e = results.get(id)!.env;
      return JSON.stringify({ status: e.status, rows: e.data?.rows ?? null, kind: e.error?.kind ?? null });
    };
    for (const [pair, items] of pairs) {
      const answers = new Set(items.map((i) => answer(i.id)));
      if (answers.size > 1) differing.push(`${pair} (${items[0]!.split}): ${[...answers].join(' vs ').slice(0, 300)}`);
    }
    const n = (p: string): number => [...pairs.values()].filter((i) => i[0]!.split === p).length;
    console.log(`    oracle pairs answered differently: dev ${differing.filter((d) => d.includes('(dev)')).length}/${n('dev')}, heldout ${differing.filter((d) => d.includes('(heldout)')).length}/${n('heldout')}`);
    assert.deepEqual(differing, []);
  });

  it('refuses at most 1 % of honest analytics (catalog reads may be refused with a recovery naming a catalog tool)', () => {
    const refusedOf = (part: 'dev' | 'heldout'): { refused: string[]; total: number } => {
      const items = benign.filter((b) => b.split === part);
      const refused: string[] = [];
      for (const b of items) {
        const e = results.get(b.id)!.env;
        const ok = e.status === 'success' || e.status === 'partial' || e.status === 'degraded' || e.status === 'empty';
        if (ok) continue;
        if (b.note === 'catalog' && e.error?.recovery?.suggested_tool && e.error.recovery.suggested_tool !== 'run_query') continue;
        refused.push(`${b.id}: ${e.error?.kind} ${e.error?.message?.slice(0, 160)}`);
      }
      return { refused, total: items.length };
    };
    const dev = refusedOf('dev');
    const held = refusedOf('heldout');
    const pct = (r: { refused: string[]; total: number }): string => `${r.refused.length}/${r.total} (${((100 * r.refused.length) / Math.max(1, r.total)).toFixed(1)} %)`;
    console.log(`    benign false refusals: dev ${pct(dev)}, heldout ${pct(held)}`);
    if (dev.refused.length > 0) console.log(`      dev: ${dev.refused.join('\n      dev: ')}`);
    const all = dev.refused.length + held.refused.length;
    assert.ok(all <= 0.01 * (dev.total + held.total), `false refusals: ${[...dev.refused, ...held.refused].join('; ')}`);
  });
});
