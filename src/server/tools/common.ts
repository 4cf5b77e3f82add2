import { z } from 'zod';
import { failure, fuzzyMatches } from '../../core/envelope';
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

export type Scoped<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly envelope: Envelope<never> };

/**
 * The `unknown_name` error for a filter that names nothing in the catalog: the closest names, and the same call with
 * the closest one (or without the filter when none is close) as the recovery. A filter that matches nothing is a
 * mistake to correct, not an empty answer.
 */
function unknownFilter(tool: string, args: Readonly<Record<string, unknown>>, arg: string, message: string, known: Iterable<string>): Scoped<never> {
  const value = String(args[arg]);
  const fuzzy = fuzzyMatches(value, [...new Set(known)], 5, 0.3);
  const { [arg]: _dropped, ...rest } = args;
  return {
    ok: false,
    envelope: failure('unknown_name', message, {
      recovery: { suggested_tool: tool, suggested_args: fuzzy.length > 0 ? { ...rest, [arg]: fuzzy[0] } : rest, fuzzy_matches: fuzzy },
    }),
  };
}

/** The indexed source a `source` argument names (exact, then case-insensitive), undefined without one. */
export function scopeSource(ctx: ToolContext, tool: string, args: Readonly<Record<string, unknown>>): Scoped<string | undefined> {
  const name = args.source;
  if (typeof name !== 'string') return { ok: true, value: undefined };
  const found = ctx.catalog.sourceByName(name);
  if (found) return { ok: true, value: found.name };
  return unknownFilter(tool, args, 'source', `Source '${name}' is not indexed.`, ctx.catalog.sources.map((s) => s.name));
}

/** The schema a `schema` argument names among the tables in scope (exact, then case-insensitive when that is one). */
export function scopeSchema(ctx: ToolContext, tool: string, args: Readonly<Record<string, unknown>>, source: string | undefined): Scoped<string | undefined> {
  const name = args.schema;
  if (typeof name !== 'string') return { ok: true, value: undefined };
  const schemas = new Set(ctx.catalog.tablesOf(source).map((e) => e.table.schema));
  if (schemas.has(name)) return { ok: true, value: name };
  const folded = [...schemas].filter((s) => s.toLowerCase() === name.toLowerCase());
  if (folded.length === 1) return { ok: true, value: folded[0] };
  return unknownFilter(tool, args, 'schema', `Schema '${name}' holds no indexed table${source ? ` of source '${source}'` : ''}.`, schemas);
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
/** How the n-th blocked column of a table is shown wherever its name would be (tools, the team API). */
export function redactedColumnName(category: string, n: number): string {
  return `<redacted_${category}_column_${n}>`;
}

export function columnVisibility(ctx: ToolContext, entry: TableEntry): Map<string, ColumnVisibility> {
  const out = new Map<string, ColumnVisibility>();
  let n = 0;
  for (const c of entry.table.columns) {
    const blocked = ctx.deps.pii.blockedCategories(c.pii);
    if (blocked.length > 0) {
      n++;
      out.set(c.name, { blocked, displayName: redactedColumnName(blocked[0]!, n) });
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

/** A foreign key's referenced columns as the referenced table shows them (a blocked one by its placeholder). */
export function referencedColumns(ctx: ToolContext, sourceName: string, fk: { readonly targetSchema: string; readonly targetTable: string; readonly targetColumns: readonly string[] }): string[] {
  const target = ctx.catalog.lookup(sourceName, fk.targetSchema, fk.targetTable);
  return target ? displayColumns(columnVisibility(ctx, target), fk.targetColumns) : [...fk.targetColumns];
}

/**
 * A tag's signals with the names of hidden columns they list (`view_reads:email,password`, `generated_from:ssn`,
 * `references:…`) replaced as definitions replace them.
 */
export function shownSignals(signals: readonly string[], hidden: ReadonlyMap<string, string>): string[] {
  if (hidden.size === 0) return [...signals];
  return signals.map((s) => {
    const m = /^(view_reads|generated_from|references|row_type|composite_fields):(.*)$/.exec(s);
    if (!m) return s;
    return `${m[1]}:${m[2]!.replace(/[^,()]+/g, (name) => hidden.get(name.trim().toLowerCase()) ?? name)}`;
  });
}

export function isRedacted(vis: Map<string, ColumnVisibility>, c: ColumnInfo): boolean {
  return (vis.get(c.name)?.blocked.length ?? 0) > 0;
}

/**
 * The names a definition shown to the agent (a view's SQL, a CHECK expression, an index's columns or predicate) must
 * not carry: this relation's blocked columns by their placeholders, and any other relation's blocked columns in the
 * same source as `<redacted_column>` (lower-case name → what to show instead).
 */
export function hiddenNames(ctx: ToolContext, entry: TableEntry, vis: Map<string, ColumnVisibility>): Map<string, string> {
  const out = new Map<string, string>();
  // Views' columns too (a view column renaming a blocked one is blocked): a definition may name either.
  for (const e of ctx.catalog.tablesOf(entry.source.name)) {
    for (const c of e.table.columns) if (ctx.deps.pii.blockedCategories(c.pii).length > 0) out.set(c.name.toLowerCase(), '<redacted_column>');
  }
  for (const [name, v] of vis) if (v.blocked.length > 0) out.set(name.toLowerCase(), v.displayName);
  return out;
}

const DEFINITION_TOKEN = /"((?:[^"]|"")+)"|`((?:[^`]|``)+)`|\[([^\]]+)\]|'(?:[^']|'')*'|[A-Za-z_\u0080-\uffff][\w$\u0080-\uffff]*/g;

/**
 * A definition with the hidden names replaced; and when it names a hidden column at all, every string literal in it
 * shown as '…': a literal compared with a blocked column (`replace(ssn, '-', '') = '504931791'`) is one of its
 * values, in whatever format it was written.
 */
export function redactDefinition(text: string, hidden: ReadonlyMap<string, string>): string {
  if (hidden.size === 0) return text;
  let named = false;
  const renamed = text.replace(DEFINITION_TOKEN, (tok, dq: string | undefined, bq: string | undefined, br: string | undefined) => {
    if (tok.startsWith("'")) return tok;
    const name = (dq ?? bq ?? br ?? tok).toLowerCase();
    const shown = hidden.get(name);
    if (shown === undefined) return tok;
    named = true;
    return shown;
  });
  return named ? renamed.replace(/'(?:[^']|'')*'/g, "'…'") : renamed;
}
