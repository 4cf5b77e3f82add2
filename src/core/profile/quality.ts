import type { TableInfo } from '../catalog/model';
import { isCountsOnly, valueCounts } from './columns';
import type { SampleColumn, SampleValue } from './columns';
import { typeClass } from './sample';
import type { QualityFinding, Severity } from './types';

/**
 * Quality rules over the sample (engine-neutral). Each rule says how many rows it looked at; a finding on a
 * partial sample is evidence, not proof, and the message says so. Orphaned references need the source and live in
 * `references.ts`.
 */

const STRONG_REQUIRED = /^(id|uuid|guid|code|name)$|_code$/i;
const WEAK_REQUIRED = /_id$|[a-z]Id$|_name$|^created_at$|^created$/;
const KEY_NAME = /^(id|uuid|guid|sku|slug|isbn|ean|upc|username|login|handle|serial|code)$|(_|^)(code|sku|slug|uuid|guid|key|number|no|isbn|serial|username|handle)$|[a-z](Code|Number|Key|Uuid|Guid|Sku)$/;
const FK_LIKE = /_id$|[a-z]Id$/;
/** Measures and free text repeat by nature even when almost unique (durations, sizes, titles). */
const NOT_A_KEY = /name|title|desc|comment|note|text|label|milli|second|minute|duration|bytes|size|amount|price|total|cost|qty|quantity|count|weight|length|height|width|lat|lon|score|rate/i;
/** Past events: a value in the future is impossible. */
const EVENT_TIME = /(^|_)(created|inserted|registered|signup|signed_up|birth|born|hired?|ordered|paid|shipped|deleted|modified|updated|last_login|login|occurred|recorded)(_|$)|(created|updated|modified|birth|hire|order|invoice|payment|rental|return)(date|time|at|on)$/i;
export const DATE_NAME = /(_|^)(date|at|on|time|timestamp)$|[a-z](Date|At|On|Time)$/;
/** Names that legitimately hold future dates. */
const FUTURE_OK = /due|expir|valid|until|end|scheduled|planned|next|renew|deadline|start|effective|future|reminder|eta/i;
const LONG_AGO = Date.UTC(1900, 0, 1);
const DAY_MS = 86_400_000;

function pct(n: number, d: number): string {
  return `${d === 0 ? 0 : Math.round((1000 * n) / d) / 10}%`;
}

function scope(checked: number, complete: boolean): string {
  return complete ? `all ${checked} rows` : `a sample of ${checked} rows`;
}

export interface RuleInput {
  readonly table: TableInfo;
  readonly columns: readonly SampleColumn[];
  readonly rows: number;
  readonly complete: boolean;
  readonly now: Date;
  /** Columns (real names) that are checked as references elsewhere; not candidate keys. */
  readonly referenceColumns: ReadonlySet<string>;
}

function uniqueSingleColumns(t: TableInfo): Set<string> {
  const out = new Set<string>();
  if (t.primaryKey?.columns.length === 1) out.add(t.primaryKey.columns[0]!);
  for (const u of t.uniqueConstraints) if (u.columns.length === 1) out.add(u.columns[0]!);
  for (const i of t.indexes) if (i.isUnique && !i.predicate && i.columns.length === 1) out.add(i.columns[0]!);
  return out;
}

export function nullFindings(input: RuleInput): QualityFinding[] {
  const out: QualityFinding[] = [];
  for (const sc of input.columns) {
    const n = sc.values.length;
    if (n === 0 || !sc.column.isNullable) continue;
    const nulls = sc.values.filter((v) => v === null).length;
    if (nulls === 0) continue;
    const name = sc.column.name;
    const strong = STRONG_REQUIRED.test(name);
    if (strong || WEAK_REQUIRED.test(name)) {
      out.push({
        kind: 'unexpected_nulls',
        severity: strong ? 'high' : 'medium',
        column: sc.access.displayName,
        message: `${nulls} NULL value(s) (${pct(nulls, n)}) in ${scope(n, input.complete)}, in a column whose name suggests it is always set${FK_LIKE.test(name) ? ' (an optional relation, or missing data)' : ''}.`,
        count: nulls,
        checked: n,
      });
    } else if (nulls / n >= 0.5) {
      const all = nulls === n;
      out.push({
        kind: 'high_null_fraction',
        severity: all ? 'medium' : 'low',
        column: sc.access.displayName,
        message: all ? `Every value is NULL in ${scope(n, input.complete)}; the column may be unused.` : `${pct(nulls, n)} of ${scope(n, input.complete)} are NULL.`,
        count: nulls,
        checked: n,
      });
    }
  }
  return out;
}

export function duplicateKeyFindings(input: RuleInput): QualityFinding[] {
  const out: QualityFinding[] = [];
  const declaredUnique = uniqueSingleColumns(input.table);
  for (const sc of input.columns) {
    const name = sc.column.name;
    // Which rows of a blocked column repeat a value is a fact about values the agent may not read.
    if (sc.access.blocked.length > 0 || declaredUnique.has(name) || input.referenceColumns.has(name)) continue;
    const cls = typeClass(sc.column.dataType);
    if (cls === 'boolean' || cls === 'binary' || cls === 'json') continue;
    const nonNull = sc.values.filter((v): v is string | number => v !== null);
    if (nonNull.length < 2) continue;
    const counts = valueCounts(nonNull);
    const named = KEY_NAME.test(name) && !FK_LIKE.test(name);
    const ratio = counts.size / nonNull.length;
    const uniqueLooking = nonNull.length >= 20 && ratio >= 0.995 && !NOT_A_KEY.test(name) && (cls === 'integer' || cls === 'text' || cls === 'uuid');
    if (!named && !uniqueLooking) continue;
    const dups = [...counts.entries()].filter(([, c]) => c > 1);
    if (dups.length === 0) continue;
    const extraRows = dups.reduce((s, [, c]) => s + c - 1, 0);
    const severity: Severity = named ? 'high' : 'low';
    out.push({
      kind: 'duplicate_candidate_key',
      severity,
      column: sc.access.displayName,
      message: `${dups.length} value(s) repeat (${extraRows} extra row(s)) in ${scope(nonNull.length, input.complete)} of a column that ${named ? 'is named like a key' : 'is otherwise almost unique'} but has no unique constraint.`,
      count: dups.length,
      checked: nonNull.length,
      ...(isCountsOnly(sc.access) ? {} : { examples: dups.sort((a, b) => b[1] - a[1]).slice(0, 5).map(([k]) => k.slice(2)) }),
    });
  }
  return out;
}

/** Milliseconds since the epoch for a date-like sample value, or null. */
export function parseDate(v: SampleValue): number | null {
  if (v === null) return null;
  if (typeof v === 'number') return null; // Julian days and epoch numbers are ambiguous; skip them
  const s = v.trim();
  const m = /^(-?\d{1,6})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?(?:\s*(Z|[+-]\d{2}(?::?\d{2})?))?(\s*BC)?$/i.exec(s);
  if (!m) return null;
  let year = Number(m[1]);
  if (m[8]) year = 1 - year;
  const t = Date.UTC(year, Number(m[2]) - 1, Number(m[3]), Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0));
  return Number.isFinite(t) ? t : null;
}

export function dateFindings(input: RuleInput): QualityFinding[] {
  const out: QualityFinding[] = [];
  const horizon = input.now.getTime() + DAY_MS;
  for (const sc of input.columns) {
    const cls = typeClass(sc.column.dataType);
    const name = sc.column.name;
    const dateTyped = cls === 'date' || cls === 'timestamp';
    if (sc.access.blocked.length > 0) continue; // how many values lie in the future tells of values the agent may not read
    if (!dateTyped && !(cls === 'text' && DATE_NAME.test(name))) continue;
    const parsed = (sc.dates ?? sc.values.map(parseDate)).filter((t): t is number => t !== null);
    if (parsed.length === 0) continue;
    const countsOnly = isCountsOnly(sc.access);
    const future = parsed.filter((t) => t > horizon);
    if (future.length > 0 && !FUTURE_OK.test(name) && (EVENT_TIME.test(name) || DATE_NAME.test(name))) {
      out.push({
        kind: 'future_date',
        severity: EVENT_TIME.test(name) ? 'high' : 'medium',
        column: sc.access.displayName,
        message: `${future.length} value(s) lie in the future (after ${input.now.toISOString().slice(0, 10)}) in ${scope(parsed.length, input.complete)} of a column that records past events.`,
        count: future.length,
        checked: parsed.length,
        ...(countsOnly ? {} : { examples: [...new Set(future.sort((a, b) => b - a).map((t) => new Date(t).toISOString().slice(0, 10)))].slice(0, 5) }),
      });
    }
    const ancient = parsed.filter((t) => t < LONG_AGO);
    if (ancient.length > 0) {
      out.push({
        kind: 'ancient_date',
        severity: 'medium',
        column: sc.access.displayName,
        message: `${ancient.length} value(s) lie before 1900 in ${scope(parsed.length, input.complete)}; often a placeholder or a typo.`,
        count: ancient.length,
        checked: parsed.length,
        ...(countsOnly ? {} : { examples: [...new Set(ancient.sort((a, b) => a - b).map((t) => new Date(t).toISOString().slice(0, 10)))].slice(0, 5) }),
      });
    }
  }
  return out;
}

const SEVERITY_ORDER: Record<Severity, number> = { high: 0, medium: 1, low: 2 };

export function sortFindings(f: readonly QualityFinding[]): QualityFinding[] {
  return [...f].sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || a.kind.localeCompare(b.kind) || a.column.localeCompare(b.column));
}
