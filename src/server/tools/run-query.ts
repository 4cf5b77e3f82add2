import { z } from 'zod';
import { failure, partial, schemaProvenance, success } from '../../core/envelope';
import type { Envelope, PiiCategory } from '../../core/envelope';
import type { SourceInfo } from '../../core/catalog/model';
import type { CatalogView, TableEntry } from '../../core/catalog/view';
import { checkAllowlist, rawColumnRefs, runReadOnlyPostgres, toToolError } from '../../core/sql';
import type { GuardAccepted, QueryOutcome } from '../../core/sql';
import { defineTool, tokenEstimate } from '../tool';
import type { ToolContext } from '../tool';
import { sourceArg } from './common';

const input = z.strictObject({
  sql: z.string().min(1).max(100_000).describe('Exactly one read-only statement: SELECT, WITH … SELECT, VALUES, TABLE or EXPLAIN (without ANALYZE).'),
  source: sourceArg,
  max_rows: z.number().int().min(1).max(10_000).optional().describe('Rows returned at most (default: the server cap); more rows set truncated and status partial.'),
});

export function pickSource(catalog: CatalogView, name: string | undefined, tool: string, args: Record<string, unknown>): SourceInfo | Envelope<never> {
  if (name) {
    const s = catalog.sourceByName(name);
    if (s) return s;
    return failure('unknown_name', `Source '${name}' is not indexed.`, {
      recovery: { suggested_tool: 'list_indexed_schemas', suggested_args: {}, fuzzy_matches: catalog.sources.map((x) => x.name) },
    });
  }
  if (catalog.sources.length === 1) return catalog.sources[0]!;
  return failure('malformed_name', `Several sources are indexed (${catalog.sources.map((s) => s.name).join(', ')}); pass 'source' to choose one.`, {
    recovery: { suggested_tool: tool, suggested_args: { ...args, source: catalog.sources[0]!.name }, fuzzy_matches: catalog.sources.map((s) => s.name) },
  });
}

function defaultSchema(source: SourceInfo): string {
  return source.engine === 'sqlite' ? 'main' : 'public';
}

/** Resolves a relation as written in the query (`film`, `public.film`, `"Album"`) to the catalog entry. */
function relationEntry(catalog: CatalogView, source: SourceInfo, written: string): TableEntry | undefined {
  const clean = written.replace(/"/g, '');
  const parts = clean.split('.');
  const table = parts[parts.length - 1]!;
  const schema = parts.length >= 2 ? parts[parts.length - 2]! : defaultSchema(source);
  const exact = catalog.lookup(source.name, schema, table);
  if (exact) return exact;
  const r = catalog.resolveTable(`${schema}.${table}`, source.name);
  return r.ok ? r.value : undefined;
}

interface RawPii {
  readonly column: string;
  readonly categories: PiiCategory[];
  readonly expression: string;
  /** Reached through `*`: the agent never named the column, so neither do we. */
  readonly viaStar: boolean;
  readonly entry: TableEntry;
}

/** Projections that would return raw values of PII-blocked columns (including `*` over a table that has one). */
function rawPiiProjections(ctx: ToolContext, source: SourceInfo, g: GuardAccepted): RawPii[] {
  const tables = g.tables.map((t) => relationEntry(ctx.catalog, source, t)).filter((e): e is TableEntry => !!e);
  const byAlias = new Map<string, TableEntry>();
  for (const [alias, rel] of Object.entries(g.aliases)) {
    const e = relationEntry(ctx.catalog, source, rel);
    if (e) byAlias.set(alias.replace(/"/g, '').toLowerCase(), e);
  }
  for (const e of tables) byAlias.set(e.table.name.toLowerCase(), e);
  const out: RawPii[] = [];
  const blockedIn = (e: TableEntry, col: string): { name: string; cats: PiiCategory[] }[] =>
    e.table.columns
      .filter((c) => col === '*' || c.name.toLowerCase() === col.toLowerCase())
      .map((c) => ({ name: `${e.qualifiedName}.${c.name}`, cats: ctx.deps.pii.blockedCategories(c.pii) }))
      .filter((x) => x.cats.length > 0);
  for (const { expression, qualifier, column: col } of rawColumnRefs(g)) {
    const candidates = qualifier ? [byAlias.get(qualifier)].filter((e): e is TableEntry => !!e) : tables;
    for (const e of candidates) for (const b of blockedIn(e, col)) out.push({ column: b.name, categories: b.cats, expression, viaStar: col === '*', entry: e });
  }
  return out;
}

/**
 * A safe version of the query: named blocked columns become `count(DISTINCT …)`, and a `*` that reached one becomes
 * the explicit list of the table's visible columns.
 */
function aggregateRewrite(ctx: ToolContext, sql: string, hits: readonly RawPii[]): string {
  let rewritten = sql;
  for (const h of hits) {
    if (h.viaStar) {
      const visible = h.entry.table.columns.filter((c) => ctx.deps.pii.blockedCategories(c.pii).length === 0).map((c) => c.name);
      const prefix = h.expression.endsWith('.*') ? h.expression.slice(0, -1) : '';
      rewritten = rewritten.replace(h.expression, visible.map((c) => `${prefix}${c}`).join(', '));
    } else {
      rewritten = rewritten.split(h.expression).join(`count(DISTINCT ${h.expression})`);
    }
  }
  return rewritten;
}

function describeHits(hits: readonly RawPii[]): string {
  const named = [...new Set(hits.filter((h) => !h.viaStar).map((h) => h.column))];
  const starred = new Set(hits.filter((h) => h.viaStar).map((h) => h.column)).size;
  return [named.length ? named.join(', ') : null, starred ? `${starred} column(s) reached through *` : null].filter(Boolean).join('; ');
}

export const runQuery = defineTool({
  name: 'run_query',
  title: 'Run one read-only SQL query',
  description:
    'Use this when you have written one read-only SELECT and need its rows: parsed against an allow-list, run in a READ ONLY transaction with a timeout, rows capped (status partial when cut). Use get_metric instead for defined business metrics. Compositions: find_relevant_tables → describe_table → run_query; suggest_joins → run_query with the join SQL it returns.',
  input,
  latency: 'moderate',
  idempotent: true,
  sideEffects: 'read',
  async handler(args, ctx) {
    const source = pickSource(ctx.catalog, args.source, 'run_query', args);
    if ('status' in source) return source;
    const guard = await ctx.deps.sqlGuard();
    const g = guard.guard(args.sql, source.engine);
    if (!g.ok) {
      return failure('policy_blocked', g.message, {
        recovery: {
          suggested_tool: 'run_query',
          suggested_args: { sql: '<one SELECT statement>', ...(args.source ? { source: args.source } : {}) },
          suggested_rewrite: { rewritten: 'SELECT … (a single read-only SELECT, WITH … SELECT or EXPLAIN without ANALYZE)', reason: g.message },
        },
      });
    }
    ctx.trace.sql = g.normalized;
    const violation = checkAllowlist(g.tables, ctx.deps.allowedSchemas, defaultSchema(source));
    if (violation) {
      return failure('allowlist_violation', violation.message, {
        recovery: { suggested_tool: 'list_indexed_schemas', suggested_args: {}, widening_hint: violation.wideningHint },
      });
    }
    const pii = rawPiiProjections(ctx, source, g);
    if (pii.length) {
      const cats = [...new Set(pii.flatMap((p) => p.categories))];
      ctx.trace.piiCategories.push(...cats);
      const rewritten = aggregateRewrite(ctx, args.sql, pii);
      return failure('pii_blocked', `The query would return raw values of PII-blocked columns (${describeHits(pii)}; categories ${cats.join(', ')}). Aggregate them or leave them out.`, {
        piiCategories: cats,
        recovery: {
          suggested_tool: 'run_query',
          suggested_args: { sql: rewritten, ...(args.source ? { source: args.source } : {}) },
          suggested_rewrite: { rewritten, reason: 'the blocked columns are left out or counted; counts of distinct values reveal no individual value' },
        },
      });
    }
    const conn = await ctx.deps.connections.get(source);
    if ('kind' in conn) {
      return failure(conn.kind === 'missing_credential' ? 'missing_credential' : 'internal_error', conn.message, {
        recovery: { suggested_tool: 'get_index_status', suggested_args: { source: source.name } },
      });
    }
    const caps = { timeoutMs: ctx.deps.limits.statementTimeoutMs, maxRows: Math.min(args.max_rows ?? ctx.deps.limits.maxRows, ctx.deps.limits.maxRows), maxBytes: ctx.deps.limits.maxBytes, signal: ctx.signal };
    const outcome: QueryOutcome = conn.engine === 'postgres' ? await runReadOnlyPostgres(conn.pool, guard, args.sql, [], caps) : await conn.worker(guard).run(args.sql, [], caps);
    if (!outcome.ok) {
      if (outcome.kind !== 'refused' && outcome.kind === 'connection' && /password|authentication/i.test(outcome.message)) {
        await ctx.deps.connections.drop(source.name);
        return failure('missing_credential', `The source '${source.name}' rejected the credentials: ${outcome.message}`, {
          recovery: { suggested_tool: 'get_index_status', suggested_args: { source: source.name } },
        });
      }
      const e = toToolError(outcome);
      const recovery =
        e.kind === 'unknown_name'
          ? { suggested_tool: 'find_relevant_tables', suggested_args: { query: args.sql.slice(0, 200) } }
          : e.kind === 'cost_cap_exceeded'
            ? { suggested_tool: 'run_query', suggested_args: { sql: `${args.sql.replace(/;\s*$/, '')} LIMIT 100`, ...(args.source ? { source: args.source } : {}) } }
            : { suggested_tool: 'describe_table', suggested_args: {} };
      return failure(e.kind, e.message, { recovery });
    }
    const r = outcome.result;
    ctx.trace.rowCount = r.rowCount;
    ctx.trace.truncated = r.truncated;
    const data = {
      source: source.name,
      columns: r.columns.map((c) => ({ name: c.name, type: c.dataType })),
      rows: r.rows,
      row_count: r.rowCount,
      truncated: r.truncated,
      ...(r.truncatedBy ? { truncated_by: r.truncatedBy } : {}),
      elapsed_ms: Math.round(r.elapsedMs * 10) / 10,
      sql_fingerprint: r.fingerprint,
    };
    const withTokens = { ...data, token_estimate: tokenEstimate(data) };
    const opts = { confidence: 'HIGH' as const, provenance: schemaProvenance(), hints: r.truncated ? ['run_query'] : ['describe_table'] };
    return r.truncated ? partial(withTokens, opts) : success(withTokens, opts);
  },
  summarize(env) {
    const d = env.data as { row_count?: number; truncated?: boolean } | null;
    return { rows: d?.row_count ?? 0, truncated: d?.truncated ?? false };
  },
});
