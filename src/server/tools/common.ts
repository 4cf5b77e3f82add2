import { z } from 'zod';
import { failure } from '../../core/envelope';
import type { Envelope, PiiCategory } from '../../core/envelope';
import type { ColumnInfo } from '../../core/catalog/model';
import type { Resolution, TableEntry } from '../../core/catalog/view';
import type { ToolContext } from '../tool';

/** Argument pieces shared by several tools, each described and bounded. */
export const sourceArg = z
  .string()
  .min(1)
  .max(200)
  .optional()
  .describe('Source, when several hold the name.');

export const responseFormatArg = z
  .enum(['concise', 'detailed'])
  .default('concise')
  .describe('detailed adds constraints, indexes, statistics.');

export const tableNameArg = z
  .string()
  .min(1)
  .max(512)
  .describe("'schema.table' ('main.table' for SQLite).");

/** Turns a failed name resolution into the charter error with a recovery the agent can act on. */
export function resolutionFailure(res: Exclude<Resolution<unknown>, { ok: true }>, tool: string, arg: string, query: string, source?: string): Envelope<never> {
  switch (res.reason) {
    case 'malformed':
      return failure('malformed_name', res.message, {
        recovery:
          res.candidates.length === 1
            ? { suggested_tool: tool, suggested_args: { [arg]: res.candidates[0], ...(source ? { source } : {}) }, fuzzy_matches: [...res.candidates] }
            : { suggested_tool: 'find_relevant_tables', suggested_args: { query }, fuzzy_matches: [...res.candidates] },
      });
    case 'unknown':
      return failure('unknown_name', res.message, {
        recovery: { suggested_tool: 'find_relevant_tables', suggested_args: { query }, fuzzy_matches: [...res.candidates] },
      });
    case 'ambiguous':
      return failure('malformed_name', res.message, {
        recovery: { suggested_tool: tool, suggested_args: { [arg]: query, source: res.sources[0] }, fuzzy_matches: [...res.candidates] },
      });
    case 'unknown_source':
      return failure('unknown_name', res.message, {
        recovery: { suggested_tool: 'list_indexed_schemas', suggested_args: {}, fuzzy_matches: [...res.candidates] },
      });
  }
}

/** The last dotted segment, for search queries built from a name. */
export function lastSegment(name: string): string {
  const parts = name.split('.');
  return (parts[parts.length - 1] ?? name).replace(/"/g, '');
}

export interface ColumnVisibility {
  readonly blocked: PiiCategory[];
  readonly displayName: string;
}

/**
 * Redaction of PII-blocked columns: the column keeps its position but loses its name, comment, default, stats and
 * sample values. Placeholders are stable within one table so joins and keys still line up.
 */
export function columnVisibility(ctx: ToolContext, entry: TableEntry): Map<string, ColumnVisibility> {
  const out = new Map<string, ColumnVisibility>();
  let n = 0;
  for (const c of entry.table.columns) {
    const blocked = ctx.deps.pii.blockedCategories(c.pii);
    if (blocked.length > 0) {
      n++;
      out.set(c.name, { blocked, displayName: `<redacted_${blocked[0]}_column_${n}>` });
      ctx.trace.piiCategories.push(...blocked);
    } else {
      out.set(c.name, { blocked: [], displayName: c.name });
    }
  }
  return out;
}

export function displayColumns(vis: Map<string, ColumnVisibility>, cols: readonly string[]): string[] {
  return cols.map((c) => vis.get(c)?.displayName ?? c);
}

export function isRedacted(vis: Map<string, ColumnVisibility>, c: ColumnInfo): boolean {
  return (vis.get(c.name)?.blocked.length ?? 0) > 0;
}
