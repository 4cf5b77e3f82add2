import type { GuardAccepted } from './types';

/**
 * Aggregates whose result is one of the input values (or all of them): MIN/MAX, list builders, MODE, window
 * first/last, PERCENTILE_DISC. A projection through them discloses raw values as surely as the bare column does.
 */
export const VALUE_DISCLOSING_AGGREGATES: ReadonlySet<string> = new Set([
  'min',
  'max',
  'array_agg',
  'string_agg',
  'json_agg',
  'jsonb_agg',
  'json_object_agg',
  'jsonb_object_agg',
  'group_concat',
  'json_group_array',
  'mode',
  'first_value',
  'last_value',
  'percentile_disc',
]);

export interface RawColumnRef {
  /** The projection expression as written (for a rewrite hint). */
  readonly expression: string;
  /** Lower-cased table alias or name before the column, or null when unqualified. */
  readonly qualifier: string | null;
  /** The column name as written, or `*`. */
  readonly column: string;
}

/**
 * Column references of the top-level select list whose raw values would reach the caller: every reference in a
 * projection that is not aggregated, or aggregated only through a value-disclosing aggregate. The PII gates of
 * run_query and get_example_queries resolve the qualifiers against their own view of the relations.
 */
export function rawColumnRefs(g: GuardAccepted): RawColumnRef[] {
  const out: RawColumnRef[] = [];
  for (const p of g.projections) {
    const raw = !p.aggregated || p.aggregateFunctions.some((f) => VALUE_DISCLOSING_AGGREGATES.has(f));
    if (!raw) continue;
    for (const ref of p.sourceColumns) {
      const parts = ref.replace(/"/g, '').split('.');
      out.push({ expression: p.expression, column: parts[parts.length - 1]!, qualifier: parts.length >= 2 ? parts[parts.length - 2]!.toLowerCase() : null });
    }
  }
  return out;
}
