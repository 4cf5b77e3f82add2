import { z } from 'zod';
import { schemaProvenance, success } from '../../core/envelope';
import { formatName } from '../../core/catalog/names';
import type { ColumnInfo } from '../../core/catalog/model';
import { defineTool, tokenEstimate } from '../tool';
import type { ToolContext } from '../tool';
import { columnVisibility, displayColumns, hiddenNames, isRedacted, lastSegment, redactDefinition, referencedColumns, resolutionFailure, responseFormatArg, sourceArg, tableNameArg } from './common';
import type { ColumnVisibility } from './common';
import { identifiers } from '../../core/pii/lineage';

const input = z.strictObject({
  qualified_name: tableNameArg,
  source: sourceArg,
  response_format: responseFormatArg,
});

function columnOut(c: ColumnInfo, vis: ColumnVisibility, pk: ReadonlySet<string>, fkOut: Map<string, string>, detailed: boolean, shown: (text: string) => string): Record<string, unknown> {
  const redacted = vis.blocked.length > 0;
  const o: Record<string, unknown> = { name: vis.displayName, type: c.dataType };
  if (!c.isNullable) o.nullable = false;
  if (pk.has(c.name)) o.primary_key = true;
  const ref = fkOut.get(c.name);
  if (ref) o.references = ref;
  if (redacted) {
    o.redacted = true;
    o.pii_categories = vis.blocked;
    return o;
  }
  if (c.comment) o.comment = c.comment;
  if (c.enumLabels) o.enum_values = detailed ? c.enumLabels : c.enumLabels.slice(0, 12);
  if (c.pii) o.pii_categories = c.pii.categories;
  if (detailed) {
    if (c.defaultExpr !== null) o.default = shown(c.defaultExpr);
    if (c.isGenerated) o.generated = true;
    if (c.isIdentity) o.identity = true;
    if (c.stats) {
      const s = c.stats;
      o.stats = {
        null_fraction: s.nullFraction,
        distinct_estimate: s.distinctEstimate,
        ...(s.mostCommonValues ? { common_values: s.mostCommonValues.slice(0, 10) } : {}),
        ...(s.minValue !== null ? { min: s.minValue, max: s.maxValue } : {}),
        origin: s.origin,
      };
    }
  }
  return o;
}

export const describeTable = defineTool({
  name: 'describe_table',
  title: 'Describe a table',
  description:
    "Use this when the user names a specific table ('show me public.orders'): columns with types, keys, foreign keys both ways, comments, row estimate, and in detailed mode indexes, constraints and column stats. Use find_relevant_tables instead when the table is described by meaning, not by name. Compositions: find_relevant_tables → describe_table; describe_table → describe_column or suggest_joins.",
  input,
  latency: 'fast',
  idempotent: true,
  sideEffects: 'read',
  handler(args, ctx) {
    const res = ctx.catalog.resolveTable(args.qualified_name, args.source);
    if (!res.ok) return resolutionFailure(res, 'describe_table', 'qualified_name', lastSegment(args.qualified_name), args.source);
    return describe(ctx, res.value, args.response_format === 'detailed');
  },
  summarize(env) {
    const d = env.data as { columns?: unknown[] } | null;
    return { columns: d?.columns?.length ?? 0 };
  },
});

function describe(ctx: ToolContext, entry: ReturnType<ToolContext['catalog']['tablesOf']>[number], detailed: boolean) {
  const t = entry.table;
  const vis = columnVisibility(ctx, entry);
  const pk = new Set(t.primaryKey?.columns ?? []);
  const fkOut = new Map<string, string>();
  for (const fk of t.foreignKeys) {
    if (fk.columns.length === 1) fkOut.set(fk.columns[0]!, `${formatName(fk.targetSchema, fk.targetTable)}.${formatName(referencedColumns(ctx, entry.source.name, fk)[0]!)}`);
  }
  // Definitions name columns too: a blocked one is shown by its placeholder there as well, and the literals of a
  // definition that names one are hidden (redactDefinition).
  // Read from the whole source, so only when a definition is shown (the detailed format).
  let hidden: Map<string, string> | undefined;
  const hiddenHere = (): Map<string, string> => (hidden ??= hiddenNames(ctx, entry, vis));
  const shown = (text: string): string => redactDefinition(text, hiddenHere());
  const redactedCount = t.columns.filter((c) => isRedacted(vis, c)).length;
  const data: Record<string, unknown> = {
    qualified_name: entry.qualifiedName,
    source: entry.source.name,
    kind: t.kind,
    ...(t.comment ? { comment: t.comment } : {}),
    row_estimate: t.rowEstimate,
    columns: t.columns.map((c) => columnOut(c, vis.get(c.name)!, pk, fkOut, detailed, shown)),
    primary_key: t.primaryKey ? displayColumns(vis, t.primaryKey.columns) : null,
    foreign_keys: t.foreignKeys.map((fk) => ({
      ...(detailed ? { name: fk.name } : {}),
      columns: displayColumns(vis, fk.columns),
      references: formatName(fk.targetSchema, fk.targetTable),
      referenced_columns: referencedColumns(ctx, entry.source.name, fk),
      ...(detailed && fk.onDelete ? { on_delete: fk.onDelete } : {}),
    })),
    referenced_by: ctx.catalog.incomingForeignKeys(entry).map(({ from, fk }) => {
      const fromVis = columnVisibility(ctx, from);
      return { table: from.qualifiedName, columns: displayColumns(fromVis, fk.columns), referenced_columns: displayColumns(vis, fk.targetColumns) };
    }),
  };
  if (redactedCount > 0) data.redacted_columns = redactedCount;
  if (detailed) {
    // An index or constraint is often named after its column (`ix_ssn`, `users_password_key`): such a name is hidden too.
    const ownHidden = [...vis].filter(([, v]) => v.blocked.length > 0).map(([n]) => n.toLowerCase());
    let n = 0;
    const objectName = (name: string): string => (ownHidden.some((h) => h.length >= 3 && name.toLowerCase().includes(h)) ? `<redacted_name_${++n}>` : name);
    data.unique_constraints = t.uniqueConstraints.map((u) => ({ name: objectName(u.name), columns: displayColumns(vis, u.columns) }));
    data.check_constraints = t.checkConstraints.map((c) => ({ name: objectName(c.name), expression: shown(c.expression) }));
    data.indexes = t.indexes.map((i) => ({ name: objectName(i.name), columns: displayColumns(vis, i.columns).map(shown), unique: i.isUnique, ...(i.method ? { method: i.method } : {}), ...(i.predicate ? { where: shown(i.predicate) } : {}) }));
    if (t.partitions.length) {
      // Partitions of a table partitioned by a blocked column are often named for its values (`patients_hiv`).
      const byBlocked = t.partitionKey !== undefined && [...identifiers(t.partitionKey)].some((w) => hiddenHere().has(w));
      if (byBlocked) data.partition_count = t.partitions.length;
      else data.partitions = t.partitions;
    }
    if (t.viewDefinition) data.view_definition = shown(t.viewDefinition);
  } else {
    if (t.partitions.length) data.partition_count = t.partitions.length;
  }
  data.token_estimate = tokenEstimate(data);
  return success(data, {
    confidence: 'HIGH',
    provenance: schemaProvenance(t.foreignKeys.length ? 'fk_constraint' : null, t.foreignKeys.length ? 'applied' : null),
    hints: ['describe_column', 'suggest_joins'],
  });
}
