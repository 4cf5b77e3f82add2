import type { ColumnInfo, Engine, TableInfo } from '../catalog/model';
import { ingestValue, isCountsOnly, profileColumn } from './columns';
import type { SampleColumn, SampleValue } from './columns';
import { dateFindings, DATE_NAME, duplicateKeyFindings, nullFindings, parseDate, sortFindings } from './quality';
import { checkReferences, referenceCandidates } from './references';
import { MAX_SAMPLE_ROWS, planSample, quoteIdent, sampleSql, typeClass } from './sample';
import type { SampleInfo, ColumnAccess, ProfileQuery, TableProfile, CheckRecord, QualityFinding } from './types';

export interface ProfileInput {
  readonly engine: Engine;
  readonly source: string;
  readonly qualifiedName: string;
  readonly table: TableInfo;
  /** Other tables of the same source, for foreign keys and name-matched references. */
  readonly related: readonly TableInfo[];
  readonly access: (c: ColumnInfo) => ColumnAccess;
  /** Null when the source cannot be reached: the profile then rests on catalog statistics alone. */
  readonly query: ProfileQuery | null;
  /** Rows to sample (0: catalog statistics only). */
  readonly sampleRows: number;
  readonly now?: Date;
  /** Why `query` is null, for the notes. */
  readonly unavailableReason?: string;
}

function isDateLike(c: ColumnInfo): boolean {
  const cls = typeClass(c.dataType);
  return cls === 'date' || cls === 'timestamp' || (cls === 'text' && DATE_NAME.test(c.name));
}

function displaySql(sql: string, columns: readonly ColumnInfo[], access: (c: ColumnInfo) => ColumnAccess): string {
  let out = sql;
  for (const c of columns) {
    const a = access(c);
    if (a.blocked.length > 0) out = out.split(quoteIdent(c.name)).join(quoteIdent(a.displayName));
  }
  return out;
}

/**
 * Profiles one table: a bounded sample (see `sample.ts`), per-column figures merged with catalog statistics,
 * quality findings, and orphan checks for references. Never reads the whole of a table larger than the sample.
 */
export async function profileTable(input: ProfileInput): Promise<TableProfile> {
  const now = input.now ?? new Date();
  const rows = Math.max(0, Math.min(MAX_SAMPLE_ROWS, Math.floor(input.sampleRows)));
  const t = input.table;
  const notes: string[] = [];
  const checks: CheckRecord[] = [];
  const plan = planSample(input.engine, t, rows);
  let sample: SampleInfo = { method: 'none', requestedRows: rows, rows: 0, complete: false, sql: null };
  let sampleColumns: SampleColumn[] = [];

  if (rows > 0 && input.query && t.columns.length > 0) {
    // One row past the cap, so the row cap (not the LIMIT) cuts a larger table and `truncated` tells them apart.
    const sql = sampleSql(input.engine, t, plan, rows + 1);
    const outcome = await input.query(sql, rows);
    // What is shown (response, artifacts, audit) names blocked columns by their placeholders only.
    const shown = displaySql(sql, t.columns, input.access);
    if (outcome.ok) {
      const r = outcome.result;
      const complete = plan.wholeIfShort && !r.truncated;
      sample = { method: complete ? 'full_table' : plan.method, requestedRows: rows, rows: r.rowCount, complete, sql: shown };
      if (r.truncatedBy === 'bytes') notes.push(`The sample stopped at ${r.rowCount} rows because of the byte cap.`);
      sampleColumns = t.columns.map((column, i) => {
        const access = input.access(column);
        const countsOnly = isCountsOnly(access);
        const raw = r.rows.map((row) => row[i]);
        const dates = isDateLike(column) ? raw.map((v) => (typeof v === 'string' ? parseDate(v) : null)) : null;
        const values: SampleValue[] = raw.map((v) => ingestValue(v, countsOnly));
        return { column, access, hashed: countsOnly, values, dates };
      });
    } else {
      const why = outcome.kind === 'refused' ? outcome.guard.message : `${outcome.kind}: ${outcome.message}`;
      sample = { ...sample, sql: shown, error: why };
      notes.push(`The sample could not be read (${why}); figures come from catalog statistics where there are any.`);
    }
  } else if (rows === 0) {
    notes.push('sample_rows is 0: figures come from catalog statistics only and no quality rule that needs values ran.');
  } else if (!input.query) {
    notes.push(`The source could not be reached${input.unavailableReason ? ` (${input.unavailableReason})` : ''}; figures come from catalog statistics only.`);
  }

  const byName = new Map(sampleColumns.map((s) => [s.column.name, s]));
  const columns = t.columns.map((c) => profileColumn(c, input.access(c), byName.get(c.name) ?? null, { totalRows: t.rowEstimate, complete: sample.complete }));

  const findings: QualityFinding[] = [];
  if (sample.rows > 0) {
    const candidates = referenceCandidates(t, input.related);
    const ruleInput = { table: t, columns: sampleColumns, rows: sample.rows, complete: sample.complete, now, referenceColumns: new Set(candidates.map((c) => c.column.name)) };
    findings.push(...nullFindings(ruleInput), ...duplicateKeyFindings(ruleInput), ...dateFindings(ruleInput));
    if (input.query && candidates.length > 0) {
      const refs = await checkReferences(input.engine, plan, candidates, input.access, input.query, rows, sample.complete);
      findings.push(...refs.findings);
      checks.push(...refs.checks);
    }
  }
  if (!sample.complete && sample.rows > 0) notes.push(`Findings rest on a ${sample.method} sample of ${sample.rows} rows out of about ${t.rowEstimate ?? 'an unknown number of'} rows; counts are for the sample.`);

  return {
    qualifiedName: input.qualifiedName,
    source: input.source,
    engine: input.engine,
    rowEstimate: t.rowEstimate,
    profiledAt: now.toISOString(),
    sample,
    columns,
    findings: sortFindings(findings),
    checks,
    notes,
  };
}
