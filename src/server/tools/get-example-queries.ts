import { z } from 'zod';
import { empty, failure, success } from '../../core/envelope';
import type { Envelope, PiiCategory, Provenance } from '../../core/envelope';
import { CatalogStore } from '../../core/catalog/store';
import type { SourceInfo } from '../../core/catalog/model';
import { ENABLE_HINT, examplesForTable, loadExampleQueries, mineExampleQueries } from '../../core/examples';
import type { ColumnGate, ExampleQuery, RelationRef } from '../../core/examples';
import { defineTool, tokenEstimate } from '../tool';
import type { ToolContext } from '../tool';
import { mineMysqlExamples } from '../../core/sql/mysql-examples';
import { columnVisibility, lastSegment, resolutionFailure, responseFormatArg, sourceArg, tableNameArg } from './common';

const input = z.strictObject({
  qualified_name: tableNameArg,
  source: sourceArg,
  limit: z.number().int().min(1).max(20).default(10).describe('Queries returned at most (default 10).'),
  response_format: responseFormatArg,
});

/** Mining runs inside the call, so it gets a short budget of its own. */
const MINE_TIMEOUT_MS = 5000;

type Mined = { origin: 'pg_stat_statements' | 'performance_schema' | 'catalog'; queries: readonly ExampleQuery[]; minedAt?: string; scanned?: number; skipped?: Record<string, number> };

function resolver(ctx: ToolContext, source: SourceInfo): (written: string) => RelationRef | undefined {
  return (written) => {
    const parts = written.split('.').map((p) => (p.startsWith('"') && p.endsWith('"') ? p.slice(1, -1).replace(/""/g, '"') : p));
    const name = parts[parts.length - 1]!;
    const quotedName = written.endsWith('"');
    const tables = ctx.catalog.tablesOf(source.name);
    const match = (schema: string | null) =>
      tables.find((e) => (schema === null || e.table.schema === schema) && e.table.name === name) ??
      (quotedName ? undefined : tables.find((e) => (schema === null || e.table.schema.toLowerCase() === schema.toLowerCase()) && e.table.name.toLowerCase() === name.toLowerCase()));
    const e = parts.length >= 2 ? match(parts[parts.length - 2]!) : (match('public') ?? match(null));
    return e ? { schema: e.table.schema, name: e.table.name } : undefined;
  };
}

function gateFor(ctx: ToolContext, source: SourceInfo): (rel: RelationRef) => ColumnGate {
  const cache = new Map<string, ColumnGate>();
  return (rel) => {
    const k = `${rel.schema}\u0000${rel.name}`;
    const hit = cache.get(k);
    if (hit) return hit;
    const entry = ctx.catalog.lookup(source.name, rel.schema, rel.name);
    const placeholders = new Map<string, string>();
    const categories = new Map<string, readonly string[]>();
    if (entry) {
      for (const [name, v] of columnVisibility(ctx, entry)) {
        if (v.blocked.length === 0) continue;
        placeholders.set(name, v.displayName);
        categories.set(name, v.blocked);
      }
    }
    const gate = { placeholders, categories };
    cache.set(k, gate);
    return gate;
  };
}

async function fromCatalog(ctx: ToolContext, source: SourceInfo): Promise<Mined | null> {
  let store: CatalogStore | null = null;
  try {
    store = await CatalogStore.open(ctx.deps.catalog.path);
    const stored = loadExampleQueries(store, source.id);
    return stored ? { origin: 'catalog', queries: stored.queries, minedAt: stored.minedAt } : null;
  } catch {
    return null;
  } finally {
    store?.close();
  }
}

const PROVENANCE: Provenance = { source: 'inferred', inference_method: 'observed_in_query_log', validation_state: 'draft' };

/** Every table and column name of the source, lower-cased: a quoted identifier outside this set is an alias. */
function knownNames(ctx: ToolContext, sourceName: string): Set<string> {
  const out = new Set<string>();
  for (const e of ctx.catalog.tablesOf(sourceName)) {
    out.add(e.table.name.toLowerCase());
    out.add(e.table.schema.toLowerCase());
    for (const c of e.table.columns) out.add(c.name.toLowerCase());
  }
  return out;
}

/**
 * A quoted alias that names nothing in the catalog and does not read like words (`"XfFADh!9…"`: a password or
 * token someone used as a column label) is replaced by `"<alias>"`: constants are already `$n`, and an alias is
 * just as able to carry a secret.
 */
export function scrubQuotedAliases(sql: string, known: ReadonlySet<string>): string {
  return sql.replace(/"((?:[^"]|"")+)"/g, (m, body: string) => {
    const name = body.replace(/""/g, '"');
    if (known.has(name.toLowerCase())) return m;
    if (/^[A-Za-z_ ]+$/.test(name) || /^[a-z0-9_ ]+$/.test(name)) return m; // words, or a lower-case identifier
    return '"<alias>"';
  });
}

export const getExampleQueries = defineTool({
  name: 'get_example_queries',
  title: 'Example queries that read a table',
  description:
    "Use this when you want to see how a table is really queried before writing SQL: statements from PostgreSQL's pg_stat_statements, most-run first, constants as $n, PII redacted. Use suggest_joins instead for join paths from foreign keys. Compositions: describe_table → get_example_queries → run_query.",
  input,
  latency: 'moderate',
  idempotent: true,
  sideEffects: 'read',
  async handler(args, ctx) {
    const res = ctx.catalog.resolveTable(args.qualified_name, args.source);
    if (!res.ok) return resolutionFailure(res, 'get_example_queries', 'qualified_name', lastSegment(args.qualified_name), args.source);
    const entry = res.value;
    const source = entry.source;
    const base = { qualified_name: entry.qualifiedName, source: source.name };
    const hints = ['describe_table', 'run_query'];
    if (source.engine === 'sqlite') {
      const data = { ...base, queries: [], note: 'SQLite keeps no query log, so there are no observed queries to mine for this source.' };
      return empty({ ...data, token_estimate: tokenEstimate(data) }, { hints: ['describe_table', 'suggest_joins'] });
    }

    let mined: Mined | null = null;
    let liveProblem: { reason: string; message: string; hint?: string } | null = null;
    const conn = await ctx.deps.connections.get(source);
    if ('kind' in conn) {
      liveProblem = { reason: conn.kind, message: conn.message };
    } else if (conn.engine === 'postgres') {
      const guard = await ctx.deps.sqlGuard();
      const m = await mineExampleQueries(conn.pool, guard, { timeoutMs: Math.min(MINE_TIMEOUT_MS, ctx.deps.limits.statementTimeoutMs), signal: ctx.signal });
      if (m.ok) mined = { origin: 'pg_stat_statements', queries: m.queries, scanned: m.scanned, skipped: { ...m.skipped } };
      else liveProblem = { reason: m.reason, message: m.message, hint: m.hint };
    } else if (conn.engine === 'mysql') {
      const m = await mineMysqlExamples(conn.target, await ctx.deps.sqlGuard(), { timeoutMs: Math.min(MINE_TIMEOUT_MS, ctx.deps.limits.statementTimeoutMs) });
      if (m.ok) mined = { origin: 'performance_schema', queries: m.queries, scanned: m.scanned, skipped: { ...m.skipped } };
      else liveProblem = { reason: m.reason, message: m.message, hint: m.hint };
    }
    if (!mined) mined = await fromCatalog(ctx, source);
    if (!mined) {
      const problem = liveProblem!;
      if (problem.reason === 'missing_credential' || problem.reason === 'unreachable') {
        return failure(problem.reason === 'missing_credential' ? 'missing_credential' : 'unreachable', `Cannot read the query log of '${source.name}': ${problem.message}`, {
          recovery: { suggested_tool: 'get_index_status', suggested_args: { source: source.name } },
        });
      }
      const data = { ...base, queries: [], reason: problem.reason, note: problem.message, hint: problem.hint ?? ENABLE_HINT };
      return empty({ ...data, token_estimate: tokenEstimate(data) }, { hints });
    }

    const guard = await ctx.deps.sqlGuard();
    const served = examplesForTable({
      queries: mined.queries,
      target: { schema: entry.table.schema, name: entry.table.name },
      resolve: resolver(ctx, source),
      gate: gateFor(ctx, source),
      guard,
      limit: args.limit,
    });
    const detailed = args.response_format === 'detailed';
    if (served.queries.length === 0 && served.withheld > 0) {
      const cats = served.withheldCategories as PiiCategory[];
      ctx.trace.piiCategories.push(...cats);
      return failure('pii_blocked', `Every observed query of '${entry.qualifiedName}' (${served.withheld}) returns raw values of PII-blocked columns (${cats.join(', ')}); none can be shown.`, {
        piiCategories: cats,
        recovery: { suggested_tool: 'describe_table', suggested_args: { qualified_name: entry.qualifiedName, source: source.name } },
      });
    }
    const data: Record<string, unknown> = {
      ...base,
      origin: mined.origin,
      ...(mined.minedAt ? { mined_at: mined.minedAt } : {}),
      queries: served.queries.map((q) => ({
        sql: scrubQuotedAliases(q.sql, knownNames(ctx, source.name)),
        calls: q.calls,
        mean_ms: q.meanMs,
        rows: q.rows,
        ...(q.redacted ? { redacted: true } : {}),
        ...(detailed ? { tables: q.tables } : {}),
      })),
      matched: served.matched,
      ...(served.withheld ? { withheld_pii: served.withheld } : {}),
      ...(detailed && mined.scanned !== undefined ? { scanned: mined.scanned, skipped: mined.skipped } : {}),
      ...(liveProblem ? { note: `Served from the catalog (mined at index time) because the live query log is unavailable: ${liveProblem.message}` } : {}),
    };
    if (served.queries.length === 0) {
      data.note = `No read-only statement in ${mined.origin === 'catalog' ? 'the mined query log' : 'pg_stat_statements'} reads ${entry.qualifiedName} yet.`;
      data.token_estimate = tokenEstimate(data);
      return empty(data, { hints: ['describe_table', 'suggest_joins'] });
    }
    data.token_estimate = tokenEstimate(data);
    return success(data, { confidence: 'MEDIUM', provenance: PROVENANCE, hints }) as Envelope<unknown>;
  },
  summarize(env) {
    const d = env.data as { queries?: unknown[]; withheld_pii?: number } | null;
    return { queries: d?.queries?.length ?? 0, withheld_pii: d?.withheld_pii ?? 0 };
  },
});
