import type { Engine, TableInfo } from '../catalog/model';
import type { SampleMethod } from './types';

/**
 * The bounded sample a profile reads, never a full-table aggregate (the original profiler's `COUNT(DISTINCT)` over
 * every row is what we avoid). PostgreSQL: tables that fit in the sample are read whole with LIMIT; larger ones
 * with `TABLESAMPLE BERNOULLI` (row-level, up to a million rows) or `SYSTEM` (block-level, no full scan), with
 * `REPEATABLE` so the orphan checks see the same rows (https://www.postgresql.org/docs/current/sql-select.html#SQL-FROM).
 * SQLite: small tables whole, medium ones `ORDER BY random()`, very large ones the first N rows in rowid order.
 */

/** Every statement this module builds carries this marker, so query-log mining can skip our own traffic. */
export const PROFILE_MARKER = '/* schemabrain:profile */';

export const MAX_SAMPLE_ROWS = 10_000;
export const VALUE_CHARS = 256;
const BERNOULLI_MAX_ROWS = 1_000_000;
const SQLITE_RANDOM_MAX_ROWS = 200_000;
const REPEATABLE_SEED = 7;

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

export function relationSql(schema: string, table: string): string {
  return `${quoteIdent(schema)}.${quoteIdent(table)}`;
}

export type TypeClass = 'integer' | 'number' | 'boolean' | 'date' | 'timestamp' | 'time' | 'uuid' | 'text' | 'binary' | 'json' | 'other';

/** Coarse type family from the declared type (PostgreSQL format_type text, or SQLite's declared type). */
export function typeClass(dataType: string): TypeClass {
  const t = dataType.toLowerCase();
  if (/^(smallint|integer|bigint|int|int2|int4|int8|serial|bigserial|smallserial)\b|^(tiny|medium|big|small)?int(eger)?\b|unsigned big int/.test(t)) return 'integer';
  if (/^(numeric|decimal|real|double|float|money)|^float[48]/.test(t)) return 'number';
  if (/^bool/.test(t)) return 'boolean';
  if (/^timestamp|^datetime/.test(t)) return 'timestamp';
  if (/^date\b/.test(t)) return 'date';
  if (/^time\b|^interval/.test(t)) return 'time';
  if (t === 'uuid') return 'uuid';
  if (/^(bytea|blob)/.test(t)) return 'binary';
  if (/^jsonb?$/.test(t)) return 'json';
  if (/char|text|clob|citext|^name$/.test(t) || t === '') return 'text';
  if (/int/.test(t)) return 'integer';
  return 'other';
}

export interface SamplePlan {
  readonly method: SampleMethod;
  /** The FROM item (relation plus any sampling clause). */
  readonly from: string;
  /** Appended after WHERE (ORDER BY random() for SQLite). */
  readonly order: string;
  /** True when, if the query returns fewer than `rows` rows, that is the whole table. */
  readonly wholeIfShort: boolean;
}

export function planSample(engine: Engine, table: TableInfo, rows: number): SamplePlan {
  const rel = relationSql(table.schema, table.name);
  const est = table.rowEstimate;
  const sampleable = table.kind === 'table' || table.kind === 'materialized_view' || table.kind === 'partitioned_table';
  if (engine === 'postgres') {
    if (est === null || est < 0 || est <= rows * 2 || !sampleable) {
      return { method: est !== null && est >= 0 && est <= rows ? 'full_table' : 'limit', from: rel, order: '', wholeIfShort: true };
    }
    const pct = Math.min(100, Math.max(0.0001, (100 * rows * 3) / est));
    const method = est > BERNOULLI_MAX_ROWS ? 'system' : 'bernoulli';
    return { method, from: `${rel} TABLESAMPLE ${method.toUpperCase()} (${pct.toFixed(6)}) REPEATABLE (${REPEATABLE_SEED})`, order: '', wholeIfShort: false };
  }
  if (est !== null && est >= 0 && est <= rows) return { method: 'full_table', from: rel, order: '', wholeIfShort: true };
  if (est !== null && est <= SQLITE_RANDOM_MAX_ROWS) return { method: 'random_order', from: rel, order: engine === 'mysql' ? ' ORDER BY RAND()' : ' ORDER BY random()', wholeIfShort: true };
  return { method: 'first_rows', from: rel, order: '', wholeIfShort: true };
}

/** Text of one column in the sample: PostgreSQL values are cut to VALUE_CHARS on the server. */
export function sampleExpression(engine: Engine, column: string): string {
  const q = quoteIdent(column);
  return engine === 'postgres' ? `left(${q}::text, ${VALUE_CHARS})` : q;
}

export function sampleSql(engine: Engine, table: TableInfo, plan: SamplePlan, rows: number): string {
  const cols = table.columns.map((c) => sampleExpression(engine, c.name)).join(', ');
  return `${PROFILE_MARKER} SELECT ${cols} FROM ${plan.from}${plan.order} LIMIT ${rows}`;
}
