/**
 * A deterministic synthetic catalog for scale figures, with a vocabulary shaped like real schemas: table and column
 * words drawn from a Zipf distribution over a few thousand common English nouns (so a handful of words are very
 * frequent and most are rare, as in production catalogs), the generic columns every table has (`id`, `name`,
 * `created_at`, `status`…), FK columns named after their target (`customer_id`), and a comment on some columns.
 */
import { WORDNET_WORDS } from '../../src/core/search/data/wordnet-data';
import type { SearchTableInput } from '../../src/core/search/index';
import { fk, makeTable, type ColumnSpec } from './table-info';

/** Generic columns and the share of tables that carry each. */
const GENERIC: ReadonlyArray<readonly [string, number]> = [
  ['name', 0.5],
  ['created_at', 0.7],
  ['updated_at', 0.6],
  ['status', 0.35],
  ['type', 0.25],
  ['code', 0.2],
  ['description', 0.3],
  ['is_active', 0.2],
  ['amount', 0.1],
  ['date', 0.1],
];

export interface SyntheticOptions {
  readonly tables: number;
  readonly columnsPerTable: number;
  /** Distinct content words to draw from (default 4,000). */
  readonly vocabulary?: number;
  readonly seed?: number;
}

export function syntheticCatalog(opts: SyntheticOptions): SearchTableInput[] {
  let seed = opts.seed ?? 42;
  const rnd = (): number => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  // Every 3rd..10-letter lemma, shuffled deterministically, then the first `vocabulary` of them.
  const pool = WORDNET_WORDS.split(' ').filter((w) => w.length >= 3 && w.length <= 10);
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  const words = pool.slice(0, opts.vocabulary ?? 4000);
  // Zipf(1): cumulative weights 1/r, sampled by binary search.
  const cum = new Float64Array(words.length);
  let acc = 0;
  for (let r = 0; r < words.length; r++) cum[r] = acc += 1 / (r + 1);
  const pick = (): string => {
    const x = rnd() * acc;
    let lo = 0;
    let hi = cum.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cum[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return words[lo]!;
  };
  const out: SearchTableInput[] = [];
  const used = new Set<string>();
  for (let t = 0; t < opts.tables; t++) {
    let name = rnd() < 0.5 ? pick() : `${pick()}_${pick()}`;
    while (used.has(name)) name = `${name}_${pick()}`;
    used.add(name);
    const columns: ColumnSpec[] = [{ name: 'id', dataType: 'integer' }];
    const fks: ReturnType<typeof fk>[] = [];
    const fkCount = t === 0 ? 0 : rnd() < 0.3 ? 0 : rnd() < 0.7 ? 1 : 2;
    for (let k = 0; k < fkCount; k++) {
      const target = out[Math.floor(rnd() * t)]!.table.name;
      const col = `${target}_id`;
      if (columns.some((c) => c.name === col)) continue;
      columns.push({ name: col, dataType: 'integer' });
      fks.push(fk(`${name}_${col}_fkey`, [col], 'main', target, ['id']));
    }
    for (const [g, share] of GENERIC) if (rnd() < share) columns.push({ name: g });
    while (columns.length < opts.columnsPerTable) {
      const col = rnd() < 0.6 ? pick() : `${pick()}_${pick()}`;
      if (columns.some((c) => c.name === col)) continue;
      columns.push({ name: col, comment: rnd() < 0.15 ? `The ${pick()} of the ${pick()} for each ${pick()}` : null });
    }
    out.push({ sourceName: 'synthetic', table: makeTable({ schema: 'main', name, columns, foreignKeys: fks }) });
  }
  return out;
}

/** Queries for the scale runs: a few words from the same distribution plus common question words. */
export function syntheticQueries(tables: readonly SearchTableInput[], count: number, seed = 7): string[] {
  let s = seed;
  const rnd = (): number => (s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const a = tables[Math.floor(rnd() * tables.length)]!.table;
    const b = tables[Math.floor(rnd() * tables.length)]!.table;
    const col = a.columns[Math.floor(rnd() * a.columns.length)]!.name.replace(/_/g, ' ');
    out.push(`total ${col} of each ${a.name.replace(/_/g, ' ')} by ${b.name.replace(/_/g, ' ')} name and date`);
  }
  return out;
}
