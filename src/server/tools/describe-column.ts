import { z } from 'zod';
import { failure, schemaProvenance, success } from '../../core/envelope';
import { formatName, splitName } from '../../core/catalog/names';
import { defineTool, tokenEstimate } from '../tool';
import { columnVisibility, displayColumns, hiddenNames, redactDefinition, referencedColumns, resolutionFailure, shownSignals, sourceArg } from './common';

const input = z.strictObject({
  qualified_name: z
    .string()
    .min(1)
    .max(768)
    .describe("'schema.table.column' ('main.table.column' for SQLite)."),
  source: sourceArg,
});

export const describeColumn = defineTool({
  name: 'describe_column',
  title: 'Describe a column',
  description:
    "Use this when you need one column in depth: type, nullability, comment, enum values, statistics (null fraction, distinct estimate, common values, min/max) and the foreign keys into and out of it. Use describe_table instead for the whole table. Compositions: describe_table → describe_column to check values before filtering; describe_column → suggest_joins to follow its keys.",
  input,
  latency: 'fast',
  idempotent: true,
  sideEffects: 'read',
  handler(args, ctx) {
    const res = ctx.catalog.resolveColumn(args.qualified_name, args.source);
    if (!res.ok) {
      const parts = splitName(args.qualified_name);
      if (res.reason === 'unknown' && parts.ok && parts.parts.length === 3 && 'table' in res && res.table) {
        // The table exists, the column does not: point at describe_table for the real column list.
        return failure('unknown_name', res.message, {
          recovery: {
            suggested_tool: 'describe_table',
            suggested_args: { qualified_name: res.table, ...(args.source ? { source: args.source } : {}) },
            fuzzy_matches: [...res.candidates],
          },
        });
      }
      const query = parts.ok ? parts.parts[parts.parts.length - 1]! : args.qualified_name;
      return resolutionFailure(res, 'describe_column', 'qualified_name', query, args.source);
    }
    const { entry, column: c } = res.value;
    const vis = columnVisibility(ctx, entry);
    const v = vis.get(c.name)!;
    const redacted = v.blocked.length > 0;
    const t = entry.table;
    const outgoing = t.foreignKeys
      .filter((fk) => fk.columns.includes(c.name))
      .map((fk) => ({ name: fk.name, columns: displayColumns(vis, fk.columns), references: formatName(fk.targetSchema, fk.targetTable), referenced_columns: referencedColumns(ctx, entry.source.name, fk) }));
    const incoming = ctx.catalog
      .incomingForeignKeys(entry)
      .filter(({ fk }) => fk.targetColumns.includes(c.name))
      .map(({ from, fk }) => ({ name: fk.name, table: from.qualifiedName, columns: displayColumns(columnVisibility(ctx, from), fk.columns), referenced_columns: displayColumns(vis, fk.targetColumns) }));
    const data: Record<string, unknown> = {
      qualified_name: `${entry.qualifiedName}.${formatName(v.displayName)}`,
      source: entry.source.name,
      table: entry.qualifiedName,
      name: v.displayName,
      type: c.dataType,
      nullable: c.isNullable,
      primary_key: t.primaryKey?.columns.includes(c.name) ?? false,
      unique: t.uniqueConstraints.some((u) => u.columns.length === 1 && u.columns[0] === c.name),
      outgoing_foreign_keys: outgoing,
      incoming_foreign_keys: incoming,
    };
    if (redacted) {
      data.redacted = true;
      data.pii_categories = v.blocked;
    } else {
      if (c.comment) data.comment = c.comment;
      // Read from the whole source, so only when a default or a tag's signals are shown.
      let hidden: Map<string, string> | undefined;
      const hiddenHere = (): Map<string, string> => (hidden ??= hiddenNames(ctx, entry, vis));
      if (c.defaultExpr !== null) data.default = redactDefinition(c.defaultExpr, hiddenHere());
      if (c.isGenerated) data.generated = true;
      if (c.isIdentity) data.identity = true;
      if (c.enumLabels) data.enum_values = c.enumLabels;
      if (c.pii) data.pii = { categories: c.pii.categories, sensitivity: c.pii.sensitivity, signals: shownSignals(c.pii.signals, hiddenHere()), origin: c.pii.origin };
      if (c.stats) {
        data.stats = {
          null_fraction: c.stats.nullFraction,
          distinct_estimate: c.stats.distinctEstimate,
          common_values: c.stats.mostCommonValues,
          common_frequencies: c.stats.mostCommonFreqs,
          min: c.stats.minValue,
          max: c.stats.maxValue,
          avg_width: c.stats.avgWidth,
          origin: c.stats.origin,
        };
      }
    }
    data.token_estimate = tokenEstimate(data);
    return success(data, {
      confidence: 'HIGH',
      provenance: schemaProvenance(outgoing.length || incoming.length ? 'fk_constraint' : null),
      hints: outgoing.length || incoming.length ? ['suggest_joins', 'describe_table'] : ['describe_table'],
    });
  },
});
