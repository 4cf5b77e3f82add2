/**
 * Synthetic PostgreSQL schema for scale measurements: by default 10,000 tables and 200,000 columns over twelve
 * domain schemas, with names built from a domain vocabulary, primary keys, foreign keys (within and across schemas),
 * and COMMENT ON text on most tables and some columns. Deterministic for a given seed.
 *
 * `npx tsx bench/perf/generate.ts [--tables N] [--columns N] [--database NAME] [--force]` creates (or reuses) the
 * database. DDL goes in batches of a few hundred tables per simple-protocol round trip; each batch is one implicit
 * transaction, which keeps the lock table small (max_locks_per_transaction) while the whole schema takes a few
 * dozen round trips. A finished database is marked with COMMENT ON DATABASE and reused while the marker matches.
 */
import { Client } from 'pg';
import { getTestPostgres } from '../../test/support/pg';
import type { TestPostgres } from '../../test/support/pg';
import { COMMON_ATTRIBUTES, DOMAINS, QUALIFIERS, SUFFIXES, typeFor } from './vocabulary';
import type { Domain } from './vocabulary';
import { flagValue as flag } from '../core/measure';

export const SYNTHETIC_DATABASE = 'sb_bench_synthetic';
const GENERATOR_VERSION = 1;

export interface SyntheticOptions {
  readonly tables: number;
  readonly columns: number;
  readonly seed: number;
}

export const DEFAULT_SYNTHETIC: SyntheticOptions = { tables: 10_000, columns: 200_000, seed: 20260101 };

export interface SyntheticColumn {
  readonly name: string;
  readonly type: string;
  readonly references?: { readonly schema: string; readonly table: string };
  readonly comment?: string;
}

export interface SyntheticTable {
  readonly schema: string;
  readonly name: string;
  readonly kind: 'entity' | 'qualified' | 'satellite' | 'junction';
  readonly comment?: string;
  readonly columns: readonly SyntheticColumn[];
}

export interface SyntheticSchema {
  readonly schemas: readonly string[];
  readonly tables: readonly SyntheticTable[];
  readonly columnCount: number;
  readonly foreignKeyCount: number;
  readonly commentCount: number;
}

/** mulberry32: a small, fast, seedable PRNG (deterministic schemas for a given seed). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const human = (snake: string): string => snake.replace(/_/g, ' ');
const capital = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
const plural = (noun: string): string => (/(s|x|ch|sh)$/.test(noun) ? `${noun}es` : /[^aeiou]y$/.test(noun) ? `${noun.slice(0, -1)}ies` : `${noun}s`);

interface Planned {
  readonly schema: string;
  readonly name: string;
  readonly kind: SyntheticTable['kind'];
  readonly domain: Domain;
  readonly entity: string;
  readonly refs: readonly { readonly schema: string; readonly table: string; readonly role?: string }[];
  readonly comment?: string;
}

/** Table names, kinds and references for every domain, entity tables first so references point backwards. */
function planTables(opts: SyntheticOptions, rnd: () => number): Planned[] {
  const perDomain = Math.ceil(opts.tables / DOMAINS.length);
  const planned: Planned[] = [];
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const entityTables: { schema: string; table: string }[] = [];
  // Small schemas use fewer entities per domain, so at least half of each domain's share is left for variants.
  const entityCount = Math.max(1, Math.min(...DOMAINS.map((d) => d.entities.length), Math.floor(perDomain / 2)));
  for (const d of DOMAINS) {
    const entities = d.entities.slice(0, entityCount);
    const names = new Set<string>();
    const mine: Planned[] = [];
    const add = (p: Planned): void => {
      if (names.has(p.name) || p.name.length > 63) return;
      names.add(p.name);
      mine.push(p);
    };
    // Entities: each may reference up to two earlier entities of its domain, and now and then one of an earlier domain.
    entities.forEach((e, i) => {
      const refs: { schema: string; table: string }[] = [];
      const nRefs = i === 0 ? 0 : Math.floor(rnd() * 3);
      for (let k = 0; k < nRefs; k++) {
        const target = entities[Math.floor(rnd() * i)]!;
        if (!refs.some((r) => r.table === target)) refs.push({ schema: d.schema, table: target });
      }
      if (entityTables.length > 0 && rnd() < 0.15) refs.push(pick(entityTables));
      const comment = rnd() < 0.8 ? `${capital(plural(human(e)))} in the ${d.schema} domain (${d.about}). One row per ${human(e)}.` : undefined;
      add({ schema: d.schema, name: e, kind: 'entity', domain: d, entity: e, refs, comment });
    });
    for (const e of entities) entityTables.push({ schema: d.schema, table: e });
    // Satellites, qualified variants and junctions until the domain has its share of tables.
    let guard = 0;
    while (mine.length < perDomain && guard++ < perDomain * 50) {
      const e = pick(entities);
      const r = rnd();
      if (r < 0.38) {
        const s = pick(SUFFIXES);
        const comment = rnd() < 0.6 ? `${capital(human(s))} records of each ${human(e)} (${d.schema}).` : undefined;
        add({ schema: d.schema, name: `${e}_${s}`, kind: 'satellite', domain: d, entity: e, refs: [{ schema: d.schema, table: e }], comment });
      } else if (r < 0.72) {
        const q = pick(QUALIFIERS);
        const comment = rnd() < 0.6 ? `${capital(q)} ${plural(human(e))}, kept apart from the live ${human(e)} table.` : undefined;
        add({ schema: d.schema, name: `${q}_${e}`, kind: 'qualified', domain: d, entity: e, refs: [{ schema: d.schema, table: e }], comment });
      } else {
        const other = pick(entities);
        if (other === e) continue;
        const comment = rnd() < 0.5 ? `Links each ${human(e)} to the ${plural(human(other))} it relates to.` : undefined;
        add({
          schema: d.schema,
          name: `${e}_${other}`,
          kind: 'junction',
          domain: d,
          entity: e,
          refs: [
            { schema: d.schema, table: e },
            { schema: d.schema, table: other },
          ],
          comment,
        });
      }
    }
    planned.push(...mine);
  }
  // Trim to the exact count from the end of each domain's variants (entities stay).
  while (planned.length > opts.tables) {
    const idx = planned.map((p, i) => (p.kind !== 'entity' ? i : -1)).filter((i) => i >= 0);
    // Only entities left: drop from the end, where nothing created earlier depends on them.
    planned.splice(idx.length > 0 ? idx[Math.floor(rnd() * idx.length)]! : planned.length - 1, 1);
  }
  return planned;
}

/** Column counts per table around the mean, adjusted so they add up to exactly `total`. */
function columnCounts(n: number, total: number, minimum: readonly number[], rnd: () => number): number[] {
  const floor = minimum.reduce((a, b) => a + b, 0);
  if (floor > total) throw new Error(`${n} tables need at least ${floor} columns (id, references, two attributes); asked for ${total}`);
  const mean = total / n;
  const counts = minimum.map((m) => Math.max(m, Math.round(mean * (0.4 + 1.2 * rnd()))));
  let sum = counts.reduce((a, b) => a + b, 0);
  const cap = Math.max(60, Math.ceil(mean * 3));
  if (total > n * cap) throw new Error(`${total} columns do not fit ${n} tables of at most ${cap} columns`);
  while (sum !== total) {
    const i = Math.floor(rnd() * n);
    if (sum < total && counts[i]! < cap) {
      counts[i]!++;
      sum++;
    } else if (sum > total && counts[i]! > minimum[i]!) {
      counts[i]!--;
      sum--;
    }
  }
  return counts;
}

export function buildSyntheticSchema(opts: SyntheticOptions = DEFAULT_SYNTHETIC): SyntheticSchema {
  const rnd = prng(opts.seed);
  const planned = planTables(opts, rnd);
  // id + one column per reference + at least two attributes.
  const minimum = planned.map((p) => 3 + p.refs.length);
  const counts = columnCounts(planned.length, opts.columns, minimum, rnd);
  let foreignKeyCount = 0;
  let commentCount = 0;
  const tables = planned.map((p, ti): SyntheticTable => {
    const used = new Set<string>(['id']);
    const columns: SyntheticColumn[] = [{ name: 'id', type: 'bigint' }];
    for (const ref of p.refs) {
      let name = `${ref.table}_id`;
      if (used.has(name)) name = `related_${ref.table}_id`;
      if (used.has(name)) continue;
      used.add(name);
      columns.push({ name, type: 'bigint', references: { schema: ref.schema, table: ref.table } });
      foreignKeyCount++;
    }
    // Attribute pool: the domain's words, the shared ones, and entity-prefixed forms for wide tables.
    const pool = [...p.domain.attributes, ...COMMON_ATTRIBUTES, ...p.domain.attributes.map((a) => `${p.entity}_${a}`), ...COMMON_ATTRIBUTES.map((a) => `${p.entity}_${a}`)];
    let cursor = Math.floor(rnd() * pool.length);
    while (columns.length < counts[ti]!) {
      // Mostly the domain's own words early on, so narrow tables look like their domain.
      const name = rnd() < 0.55 ? p.domain.attributes[Math.floor(rnd() * p.domain.attributes.length)]! : pool[cursor++ % pool.length]!;
      if (used.has(name) || name.length > 63) {
        if (used.size >= pool.length + 8) columns.push({ name: `extra_${columns.length}`, type: 'text' });
        continue;
      }
      used.add(name);
      const comment = rnd() < 0.1 ? `${capital(human(name))} of the ${human(p.entity)}.` : undefined;
      if (comment) commentCount++;
      columns.push({ name, type: typeFor(name), ...(comment ? { comment } : {}) });
    }
    if (p.comment) commentCount++;
    return { schema: p.schema, name: p.name, kind: p.kind, ...(p.comment ? { comment: p.comment } : {}), columns };
  });
  const columnCount = tables.reduce((n, t) => n + t.columns.length, 0);
  // The figures are reported as "N tables, M columns": hold the generator to them.
  if (tables.length !== opts.tables || columnCount !== opts.columns) {
    throw new Error(`synthetic schema came out as ${tables.length} tables / ${columnCount} columns, not ${opts.tables} / ${opts.columns}`);
  }
  return { schemas: DOMAINS.map((d) => d.schema), tables, columnCount, foreignKeyCount, commentCount };
}

// Always quoted: entity words such as "order", "user" or "position" are reserved or non-reserved key words.
const ident = (s: string): string => `"${s.replace(/"/g, '""')}"`;
const literal = (s: string): string => `'${s.replace(/'/g, "''")}'`;

/** The DDL of one table: CREATE TABLE with inline PRIMARY KEY and REFERENCES, then its COMMENT ON statements. */
export function tableDdl(t: SyntheticTable): string {
  const q = `${ident(t.schema)}.${ident(t.name)}`;
  const cols = t.columns.map((c) => {
    const ref = c.references ? ` REFERENCES ${ident(c.references.schema)}.${ident(c.references.table)} (id)` : '';
    return `  ${ident(c.name)} ${c.type}${c.name === 'id' ? ' PRIMARY KEY' : ''}${ref}`;
  });
  const out = [`CREATE TABLE ${q} (\n${cols.join(',\n')}\n);`];
  if (t.comment) out.push(`COMMENT ON TABLE ${q} IS ${literal(t.comment)};`);
  for (const c of t.columns) if (c.comment) out.push(`COMMENT ON COLUMN ${q}.${ident(c.name)} IS ${literal(c.comment)};`);
  return out.join('\n');
}

function marker(opts: SyntheticOptions): string {
  return `schemabrain-bench-synthetic:v${GENERATOR_VERSION}:tables=${opts.tables}:columns=${opts.columns}:seed=${opts.seed}`;
}

export interface SyntheticDatabase {
  readonly url: string;
  readonly database: string;
  readonly schema: SyntheticSchema;
  /** ms its creation took (in this run, or as recorded when a reused one was made); null when not recorded. */
  readonly createdMs: number | null;
  readonly roundTrips: number;
  readonly reused: boolean;
}

/** Creates the synthetic database unless one with the same marker exists (then it is reused as is). */
export async function ensureSyntheticDatabase(pg: TestPostgres, opts: SyntheticOptions = DEFAULT_SYNTHETIC, database = SYNTHETIC_DATABASE, force = false): Promise<SyntheticDatabase> {
  const schema = buildSyntheticSchema(opts);
  await pg.ensureDatabase(database);
  const url = pg.urlFor(database);
  const probe = new Client({ connectionString: url });
  probe.on('error', () => undefined);
  await probe.connect();
  try {
    const r = await probe.query<{ m: string | null }>(`SELECT shobj_description(oid, 'pg_database') AS m FROM pg_database WHERE datname = current_database()`);
    // The marker may carry how long the creation took (`… created_ms=N round_trips=N`), so a reused database still
    // reports it.
    const m = r.rows[0]?.m ?? '';
    if (!force && (m === marker(opts) || m.startsWith(`${marker(opts)} `))) {
      const made = / created_ms=(\d+) round_trips=(\d+)$/.exec(m);
      return { url, database, schema, createdMs: made ? Number(made[1]) : null, roundTrips: made ? Number(made[2]) : 0, reused: true };
    }
  } finally {
    await probe.end().catch(() => undefined);
  }
  await pg.dropDatabase(database);
  await pg.ensureDatabase(database);
  const c = new Client({ connectionString: url });
  c.on('error', () => undefined);
  await c.connect();
  const t0 = performance.now();
  let roundTrips = 0;
  try {
    await c.query(schema.schemas.map((s) => `CREATE SCHEMA ${ident(s)};`).join('\n'));
    roundTrips++;
    const BATCH = 250;
    for (let i = 0; i < schema.tables.length; i += BATCH) {
      await c.query(schema.tables.slice(i, i + BATCH).map(tableDdl).join('\n'));
      roundTrips++;
    }
    // Planner statistics as a maintained database has them (row estimates known, here 0: no data is generated).
    await c.query('ANALYZE');
    roundTrips += 2;
    const createdMs = Math.round(performance.now() - t0);
    await c.query(`COMMENT ON DATABASE ${ident(database)} IS ${literal(`${marker(opts)} created_ms=${createdMs} round_trips=${roundTrips}`)}`);
    return { url, database, schema, createdMs, roundTrips, reused: false };
  } finally {
    await c.end().catch(() => undefined);
  }
}

if (require.main === module) {
  void (async () => {
    const opts: SyntheticOptions = {
      tables: Number(flag('--tables') ?? DEFAULT_SYNTHETIC.tables),
      columns: Number(flag('--columns') ?? DEFAULT_SYNTHETIC.columns),
      seed: Number(flag('--seed') ?? DEFAULT_SYNTHETIC.seed),
    };
    const pg = await getTestPostgres();
    try {
      const db = await ensureSyntheticDatabase(pg, opts, flag('--database') ?? SYNTHETIC_DATABASE, process.argv.includes('--force'));
      const s = db.schema;
      process.stdout.write(
        `${db.database}: ${s.tables.length} tables, ${s.columnCount} columns, ${s.foreignKeyCount} foreign keys, ${s.commentCount} comments in ${s.schemas.length} schemas; ` +
          `${db.reused ? 'reused; it was ' : ''}${db.createdMs === null ? 'created earlier\n' : `created in ${(db.createdMs / 1000).toFixed(1)} s over ${db.roundTrips} round trips\n`}`,
      );
    } finally {
      await pg.stop();
    }
  })().catch((e: unknown) => {
    process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
    process.exit(1);
  });
}
