import { createHash } from 'node:crypto';
import type { ColumnInfo } from '../catalog/model';
import { typeClass, VALUE_CHARS } from './sample';
import type { ColumnAccess, ColumnProfile, TopValue } from './types';

/**
 * Per-column figures from the sample, and the merge with catalog statistics. Values of PII-tagged columns are
 * replaced by a hash the moment they are read (`SampleColumn.hashed`), so duplicate and distinct counts still work
 * while no raw value is kept past ingestion.
 */

export type SampleValue = string | number | null;

export interface SampleColumn {
  readonly column: ColumnInfo;
  readonly access: ColumnAccess;
  readonly hashed: boolean;
  readonly values: readonly SampleValue[];
  /**
   * Parsed timestamps (ms) for date-like columns, taken before hashing so PII-tagged date columns can still be
   * counted by the date rules; never emitted as values for such columns.
   */
  readonly dates: readonly (number | null)[] | null;
}

const TOP_KEEP = 10;

export function isCountsOnly(access: ColumnAccess): boolean {
  return access.blocked.length > 0 || access.categories.length > 0;
}

function hashValue(v: string): string {
  return `h:${createHash('sha256').update(v).digest('hex').slice(0, 24)}`;
}

/** Converts one driver value to the sample form; PII-tagged values become hashes at once. */
export function ingestValue(v: unknown, countsOnly: boolean): SampleValue {
  if (v === null || v === undefined) return null;
  let out: SampleValue;
  if (typeof v === 'number') out = v;
  else if (typeof v === 'string') out = v.length > VALUE_CHARS ? v.slice(0, VALUE_CHARS) : v;
  else out = JSON.stringify(v).slice(0, VALUE_CHARS);
  return countsOnly ? hashValue(String(out)) : out;
}

export function valueKey(v: SampleValue): string {
  return typeof v === 'number' ? `n:${v}` : `s:${v}`;
}

function numeric(v: SampleValue): number | null {
  if (typeof v === 'number') return v;
  if (v === null) return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
}

/** An integer sample value as a bigint (a 64-bit one past 2^53 comes as a decimal string); null for anything else. */
function integerOf(v: SampleValue): bigint | null {
  if (typeof v === 'number') return Number.isSafeInteger(v) ? BigInt(v) : null;
  if (typeof v === 'string' && /^-?\d{1,20}$/.test(v)) return BigInt(v);
  return null;
}

/**
 * Orders two numeric sample values: integers exactly, as bigints (as doubles, 9007199254740993 and …992 are one
 * value), the rest as doubles. Both must be numeric (`numeric` not null).
 */
function compareNumeric(a: SampleValue, b: SampleValue): number {
  const ia = integerOf(a);
  const ib = ia === null ? null : integerOf(b);
  if (ia !== null && ib !== null) return ia < ib ? -1 : ia > ib ? 1 : 0;
  return numeric(a)! - numeric(b)!;
}

/** Haas & Stokes "Duj1" (what PostgreSQL's ANALYZE uses): n·d / (n − f1 + f1·n/N), bounded by [d, N]. */
export function estimateDistinct(counts: ReadonlyMap<string, number>, sampled: number, totalRows: number | null, complete: boolean): number {
  const d = counts.size;
  if (complete || sampled === 0) return d;
  const f1 = [...counts.values()].filter((c) => c === 1).length;
  const N = totalRows !== null && totalRows > sampled ? totalRows : sampled;
  const est = (sampled * d) / (sampled - f1 + (f1 * sampled) / N);
  return Math.round(Math.min(Math.max(d, Number.isFinite(est) ? est : N), N));
}

export function valueCounts(values: readonly SampleValue[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const v of values) if (v !== null) m.set(valueKey(v), (m.get(valueKey(v)) ?? 0) + 1);
  return m;
}

function display(key: string): string {
  return key.slice(2);
}

export interface ProfileContext {
  readonly totalRows: number | null;
  readonly complete: boolean;
}

/**
 * Figures for one column: a complete sample is exact and wins; otherwise catalog statistics, then the sample. A
 * PII-blocked column keeps its NULL count only (agent SQL sees which of its values are NULL as well): how many
 * distinct values it holds, or how wide they are, would tell rows apart by a value the agent may not read.
 */
export function profileColumn(col: ColumnInfo, access: ColumnAccess, sample: SampleColumn | null, ctx: ProfileContext): ColumnProfile {
  const figures = measureColumn(col, access, sample, ctx);
  return access.blocked.length > 0 ? { ...figures, distinctEstimate: null, avgWidth: null, min: null, max: null, topValues: [] } : figures;
}

function measureColumn(col: ColumnInfo, access: ColumnAccess, sample: SampleColumn | null, ctx: ProfileContext): ColumnProfile {
  const countsOnly = isCountsOnly(access);
  const base = {
    name: access.displayName,
    type: col.dataType,
    nullable: col.isNullable,
    piiCategories: [...new Set([...access.blocked, ...access.categories])],
    redacted: access.blocked.length > 0,
  };
  const stats = col.stats;
  const useSample = sample !== null && sample.values.length > 0 && (ctx.complete || !stats);
  if (useSample) {
    const values = sample.values;
    const nonNull = values.filter((v): v is string | number => v !== null);
    const counts = valueCounts(values);
    let min: SampleValue = null;
    let max: SampleValue = null;
    const cls = typeClass(col.dataType);
    const byNumber = cls === 'integer' || cls === 'number';
    let width = 0;
    for (const v of nonNull) {
      width += typeof v === 'string' ? Buffer.byteLength(v) : 8;
      if (countsOnly) continue;
      if (byNumber) {
        if (numeric(v) === null) continue;
        if (min === null || compareNumeric(v, min) < 0) min = v;
        if (max === null || compareNumeric(v, max) > 0) max = v;
      } else {
        const s = String(v);
        if (min === null || s < String(min)) min = v;
        if (max === null || s > String(max)) max = v;
      }
    }
    let top: TopValue[] = [];
    if (!countsOnly && counts.size > 0 && counts.size < nonNull.length) {
      top = [...counts.entries()]
        .filter(([, c]) => c > 1)
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
        .slice(0, TOP_KEEP)
        .map(([k, c]) => ({ value: display(k), frequency: round(c / values.length) }));
    }
    return {
      ...base,
      nullFraction: round((values.length - nonNull.length) / values.length),
      distinctEstimate: estimateDistinct(counts, nonNull.length, ctx.totalRows === null ? null : Math.round(ctx.totalRows * (nonNull.length / values.length)), ctx.complete),
      min: min === null ? null : String(min),
      max: max === null ? null : String(max),
      topValues: top,
      avgWidth: nonNull.length > 0 ? Math.round(width / nonNull.length) : null,
      origin: 'sample',
    };
  }
  if (stats) {
    const top: TopValue[] =
      !countsOnly && stats.mostCommonValues
        ? stats.mostCommonValues.slice(0, TOP_KEEP).map((v, i) => ({ value: v, frequency: round(stats.mostCommonFreqs?.[i] ?? 0) }))
        : [];
    return {
      ...base,
      nullFraction: stats.nullFraction === null ? null : round(stats.nullFraction),
      distinctEstimate: stats.distinctEstimate === null ? null : Math.round(stats.distinctEstimate),
      min: countsOnly ? null : stats.minValue,
      max: countsOnly ? null : stats.maxValue,
      topValues: top,
      avgWidth: stats.avgWidth,
      origin: 'catalog_stats',
    };
  }
  return { ...base, nullFraction: null, distinctEstimate: null, min: null, max: null, topValues: [], avgWidth: null, origin: 'none' };
}

export function round(n: number): number {
  return Math.round(n * 10_000) / 10_000;
}
