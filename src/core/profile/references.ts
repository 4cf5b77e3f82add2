import type { ColumnInfo, Engine, TableInfo } from '../catalog/model';
import { formatName } from '../catalog/names';
import { isCountsOnly } from './columns';
import { PROFILE_MARKER, quoteIdent, relationSql, typeClass } from './sample';
import type { SamplePlan } from './sample';
import type { CheckRecord, ColumnAccess, ProfileQuery, QualityFinding } from './types';

/**
 * Orphaned references: values of a referencing column with no match in the referenced table. Checked for declared
 * single-column foreign keys (SQLite does not enforce them unless `PRAGMA foreign_keys` is on; PostgreSQL ones may be
 * NOT VALID) and for `<thing>_id` / `<Thing>Id` columns whose name points at a table's single-column key. The check is
 * a bounded anti-join: at most `rows` sampled values on the left, an index probe per value on the right.
 */

export interface ReferenceCandidate {
  readonly column: ColumnInfo;
  readonly target: TableInfo;
  readonly targetColumn: string;
  readonly basis: 'declared_fk' | 'name_match';
}

const MAX_CHECKS = 8;

function plurals(stem: string): string[] {
  const s = stem.toLowerCase();
  return [s, `${s}s`, `${s}es`, s.endsWith('y') ? `${s.slice(0, -1)}ies` : `${s}s`];
}

function compatible(a: string, b: string): boolean {
  const ca = typeClass(a);
  const cb = typeClass(b);
  return ca === cb || (ca === 'other' && cb === 'other');
}

export function referenceCandidates(table: TableInfo, related: readonly TableInfo[]): ReferenceCandidate[] {
  const out: ReferenceCandidate[] = [];
  const seen = new Set<string>();
  for (const fk of table.foreignKeys) {
    if (fk.columns.length !== 1) continue;
    const column = table.columns.find((c) => c.name === fk.columns[0]);
    const target = related.find((t) => t.schema === fk.targetSchema && t.name === fk.targetTable);
    if (!column || !target) continue;
    seen.add(column.name);
    out.push({ column, target, targetColumn: fk.targetColumns[0]!, basis: 'declared_fk' });
  }
  const pk = new Set(table.primaryKey?.columns ?? []);
  for (const column of table.columns) {
    if (seen.has(column.name) || pk.has(column.name)) continue;
    const m = /^(.+?)_id$/i.exec(column.name) ?? /^(.*[a-z])Id$/.exec(column.name);
    if (!m) continue;
    const names = new Set(plurals(m[1]!));
    const target = related.find((t) => t !== table && t.schema === table.schema && names.has(t.name.toLowerCase()) && t.primaryKey?.columns.length === 1);
    if (!target) continue;
    const key = target.primaryKey!.columns[0]!;
    if (!['id', column.name.toLowerCase()].includes(key.toLowerCase())) continue;
    const keyCol = target.columns.find((c) => c.name === key);
    if (!keyCol || !compatible(column.dataType, keyCol.dataType)) continue;
    out.push({ column, target, targetColumn: key, basis: 'name_match' });
  }
  return out.slice(0, MAX_CHECKS);
}

function innerSample(plan: SamplePlan, column: string, rows: number): string {
  const c = quoteIdent(column);
  return `SELECT ${c} AS v FROM ${plan.from} WHERE ${c} IS NOT NULL${plan.order} LIMIT ${rows}`;
}

function missing(c: ReferenceCandidate): string {
  return `NOT EXISTS (SELECT 1 FROM ${relationSql(c.target.schema, c.target.name)} r WHERE r.${quoteIdent(c.targetColumn)} = s.v)`;
}

export function orphanCountSql(plan: SamplePlan, c: ReferenceCandidate, rows: number): string {
  return `${PROFILE_MARKER} SELECT count(*) AS checked, coalesce(sum(CASE WHEN ${missing(c)} THEN 1 ELSE 0 END), 0) AS orphans FROM (${innerSample(plan, c.column.name, rows)}) s`;
}

export function orphanExamplesSql(plan: SamplePlan, c: ReferenceCandidate, rows: number, engine: Engine): string {
  const v = engine === 'postgres' ? `left(s.v::text, 100)` : 's.v';
  return `${PROFILE_MARKER} SELECT DISTINCT ${v} FROM (${innerSample(plan, c.column.name, rows)}) s WHERE ${missing(c)} LIMIT 5`;
}

export interface ReferenceResult {
  readonly findings: QualityFinding[];
  readonly checks: CheckRecord[];
}

export async function checkReferences(
  engine: Engine,
  plan: SamplePlan,
  candidates: readonly ReferenceCandidate[],
  access: (c: ColumnInfo) => ColumnAccess,
  query: ProfileQuery,
  rows: number,
  complete: boolean,
): Promise<ReferenceResult> {
  const findings: QualityFinding[] = [];
  const checks: CheckRecord[] = [];
  for (const c of candidates) {
    const a = access(c.column);
    const ref = `${formatName(c.target.schema, c.target.name)}.${formatName(c.targetColumn)}`;
    // Whether a blocked value has its match in another table is a fact about that value: not checked.
    if (a.blocked.length > 0) {
      checks.push({ rule: 'orphaned_reference', column: a.displayName, ok: false, note: 'not checked: the column is PII-blocked' });
      continue;
    }
    const counted = await query(orphanCountSql(plan, c, rows), 1);
    if (!counted.ok) {
      checks.push({ rule: 'orphaned_reference', column: a.displayName, ok: false, note: counted.kind === 'refused' ? counted.guard.message : `${counted.kind}: ${counted.message}` });
      continue;
    }
    const row = counted.result.rows[0] ?? [];
    const checked = Number(row[0] ?? 0);
    const orphans = Number(row[1] ?? 0);
    checks.push({ rule: 'orphaned_reference', column: a.displayName, ok: true, note: `${orphans} of ${checked} value(s) without a match in ${ref} (${c.basis === 'declared_fk' ? 'declared foreign key' : 'name match'})` });
    if (orphans === 0) continue;
    let examples: string[] | undefined;
    if (!isCountsOnly(a)) {
      const ex = await query(orphanExamplesSql(plan, c, rows, engine), 5);
      if (ex.ok) examples = ex.result.rows.map((r) => String(r[0]));
    }
    findings.push({
      kind: 'orphaned_reference',
      severity: c.basis === 'declared_fk' ? 'high' : 'medium',
      column: a.displayName,
      message: `${orphans} of ${checked} ${complete ? '' : 'sampled '}value(s) have no matching row in ${ref}${c.basis === 'name_match' ? ' (no foreign key is declared; matched by name)' : ' despite the declared foreign key'}.`,
      count: orphans,
      checked,
      references: ref,
      basis: c.basis,
      ...(examples ? { examples } : {}),
    });
  }
  return { findings, checks };
}
