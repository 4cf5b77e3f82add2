import type { Envelope } from '../../core/envelope';

/**
 * Markdown an agent reads in one pass: the describe_table envelope's data (already PII-redacted by that tool)
 * flattened to one line per column and join. No statistics or sample values: a resource is the structure.
 */

interface ColumnOut {
  readonly name: string;
  readonly type: string;
  readonly nullable?: boolean;
  readonly primary_key?: boolean;
  readonly references?: string;
  readonly redacted?: boolean;
  readonly pii_categories?: readonly string[];
  readonly comment?: string;
  readonly enum_values?: readonly string[];
}

interface TableOut {
  readonly qualified_name: string;
  readonly source: string;
  readonly kind: string;
  readonly comment?: string;
  readonly row_estimate: number | null;
  readonly columns: readonly ColumnOut[];
  readonly primary_key: readonly string[] | null;
  readonly foreign_keys: ReadonlyArray<{ columns: readonly string[]; references: string; referenced_columns: readonly string[] }>;
  readonly referenced_by: ReadonlyArray<{ table: string; columns: readonly string[]; referenced_columns: readonly string[] }>;
  readonly redacted_columns?: number;
  readonly partition_count?: number;
}

function oneLine(s: string, max = 300): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

export function renderTable(env: Envelope<unknown>, engine: string): string {
  const d = env.data as TableOut;
  const lines: string[] = [];
  const rows = d.row_estimate === null ? '' : ` · ~${d.row_estimate} rows`;
  lines.push(`# ${d.qualified_name}`, `${d.kind} in source ${d.source} (${engine})${rows}${d.partition_count ? ` · ${d.partition_count} partitions` : ''}`);
  if (d.comment) lines.push('', oneLine(d.comment, 1000));
  lines.push('', '## Columns');
  for (const c of d.columns) {
    const bits = [c.type];
    if (c.primary_key) bits.push('PK');
    if (c.nullable === false) bits.push('not null');
    if (c.references) bits.push(`FK → ${c.references}`);
    if (c.redacted) bits.push(`redacted by PII policy (${(c.pii_categories ?? []).join(', ')})`);
    else if (c.pii_categories?.length) bits.push(`PII: ${c.pii_categories.join(', ')}`);
    if (c.enum_values?.length) bits.push(`values: ${c.enum_values.join(' | ')}`);
    lines.push(`- ${c.name}: ${bits.join(' · ')}${c.comment ? ` — ${oneLine(c.comment)}` : ''}`);
  }
  if (d.primary_key?.length && d.primary_key.length > 1) lines.push('', `Primary key: (${d.primary_key.join(', ')})`);
  const joins = [
    ...d.foreign_keys.map((fk) => `- ${d.qualified_name}(${fk.columns.join(', ')}) → ${fk.references}(${fk.referenced_columns.join(', ')})`),
    ...d.referenced_by.map((r) => `- ${r.table}(${r.columns.join(', ')}) → ${d.qualified_name}(${r.referenced_columns.join(', ')})`),
  ];
  if (joins.length) lines.push('', '## Joins (foreign keys)', ...joins);
  if (d.redacted_columns) lines.push('', `${d.redacted_columns} column(s) are redacted by the PII policy: their names, comments and values are not shown.`);
  return `${lines.join('\n')}\n`;
}

/** Data of an envelope as pretty JSON without the token estimate (a resource is not a tool response). */
export function renderJson(env: Envelope<unknown>): string {
  const { token_estimate: _drop, ...rest } = (env.data ?? {}) as Record<string, unknown>;
  return `${JSON.stringify(rest, null, 1)}\n`;
}
