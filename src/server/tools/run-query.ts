import { z } from 'zod';
import { degraded, failure, partial, schemaProvenance, success } from '../../core/envelope';
import type { Envelope, PiiCategory } from '../../core/envelope';
import type { SourceInfo, TableInfo } from '../../core/catalog/model';
import type { CatalogView, TableEntry } from '../../core/catalog/view';
import { checkAllowlist, maskPostgres, runReadOnlyPostgres, sqliteDecidingBlockedColumn, toToolError } from '../../core/sql';
import { tokenizeSqlite } from '../../core/sql/sqlite-guard';
import { blankMysqlComments } from '../../core/sql/mysql-guard';
import { maskMysql } from '../../core/sql/mysql-mask';
import { runReadOnlyMysql } from '../../core/sql/mysql-exec';
import type { ExpectedRelation, QueryOutcome, RelationLookup, SqliteMaskPlan } from '../../core/sql';
import { redactDeep } from '../../core/pii';
import { defineTool, tokenEstimate } from '../tool';
import type { ToolContext } from '../tool';
import { sourceArg } from './common';
import { identifiers } from '../../core/pii/lineage';
import { failureKind } from '../connections';

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
  return source.engine === 'sqlite' ? 'main' : source.engine === 'mysql' ? source.database : 'public';
}

const SYSTEM_SCHEMAS = new Set(['pg_catalog', 'information_schema', 'pg_toast']);

/** Names of blocked columns anywhere in the source, cached per catalog (views are checked against them). */
const blockedNameCache = new WeakMap<CatalogView, Map<string, Set<string>>>();
function blockedColumnNames(ctx: ToolContext, source: SourceInfo): Set<string> {
  let bySource = blockedNameCache.get(ctx.catalog);
  if (!bySource) blockedNameCache.set(ctx.catalog, (bySource = new Map()));
  let names = bySource.get(source.name);
  if (!names) {
    names = new Set();
    for (const e of ctx.catalog.tablesOf(source.name)) {
      if (e.table.kind === 'view' || e.table.kind === 'materialized_view') continue;
      for (const c of e.table.columns) if (ctx.deps.pii.blockedCategories(c.pii).length > 0) names.add(c.name.toLowerCase());
    }
    bySource.set(source.name, names);
  }
  return names;
}

/**
 * Why a view (or materialized view) may not be read at all, or null: its definition reads a blocked column that it
 * does not pass through as a blocked column of its own (renamed, computed, or used only to filter, order, group or
 * join its rows), so what it answers may be derived from the value. Every tool that reads a relation's rows asks
 * (run_query, profile_table, get_metric).
 */
export function viewReadsBlocked(ctx: ToolContext, source: SourceInfo, entry: TableEntry): string | null {
  if ((entry.table.kind !== 'view' && entry.table.kind !== 'materialized_view') || !entry.table.viewDefinition) return null;
  const exposed = new Set(entry.table.columns.filter((c) => ctx.deps.pii.blockedCategories(c.pii).length > 0).map((c) => c.name.toLowerCase()));
  const blocked = blockedColumnNames(ctx, source);
  const reads = [...identifiers(entry.table.viewDefinition)].filter((t) => blocked.has(t) && !exposed.has(t));
  return reads.length > 0 ? `the view ${entry.qualifiedName} reads PII-blocked column(s) (${reads.join(', ')}) of its base tables; query the base tables instead, where those columns are masked` : null;
}

/**
 * What a relation reference in agent SQL reads, for `maskPostgres`: tables and views with blocked columns are
 * masked; a view whose definition reads a blocked column under another name is refused (its output could be
 * derived from the value); relations the catalog does not know are refused (fail closed).
 */
function postgresRelation(ctx: ToolContext, source: SourceInfo, schema: string | null, table: string): RelationLookup {
  const sch = schema ?? (table.startsWith('pg_') ? 'pg_catalog' : defaultSchema(source));
  if (SYSTEM_SCHEMAS.has(sch)) return { kind: 'plain' };
  const entry = ctx.catalog.lookup(source.name, sch, table);
  if (!entry) return { kind: 'unknown' };
  if (source.engine === 'mysql') {
    // MySQL reads a view by merging it into the statement, where no index hint of ours reaches its base tables; and
    // InnoDB keeps a table in the order of its primary key, which no hint changes. Either order would be the values'.
    const ordered = blockedOrder(ctx, source, entry, new Set());
    if (ordered) return { kind: 'refused', message: ordered };
  }
  const columns = entry.table.columns.map((c) => ({ name: c.name, type: c.dataType, masked: ctx.deps.pii.blockedCategories(c.pii).length > 0 }));
  const viewRefusal = viewReadsBlocked(ctx, source, entry);
  if (viewRefusal) return { kind: 'refused', message: viewRefusal };
  if (!columns.some((c) => c.masked)) return { kind: 'plain' };
  const over = indexesOverBlocked(ctx, entry.table);
  const ignoreIndexes = over.map((i) => i.name);
  // Rows stored in the order of blocked values: partitioned by a blocked column, or CLUSTERed on an index over one.
  const blockedNames = new Set(columns.filter((c) => c.masked).map((c) => c.name.toLowerCase()));
  const shuffle = over.some((i) => i.isClustered === true) || [...identifiers(entry.table.partitionKey ?? '')].some((w) => blockedNames.has(w));
  return { kind: 'masked', schema: entry.table.schema, table: entry.table.name, columns, ...(ignoreIndexes.length > 0 ? { ignoreIndexes } : {}), ...(shuffle ? { shuffle } : {}) };
}

/**
 * A table's indexes over a blocked column (an expression or a partial index naming one counts): reading the table
 * through one hands its rows out in the order of the blocked values.
 */
function indexesOverBlocked(ctx: ToolContext, table: TableInfo): TableInfo['indexes'] {
  const blocked = new Set(table.columns.filter((c) => ctx.deps.pii.blockedCategories(c.pii).length > 0).map((c) => c.name.toLowerCase()));
  if (blocked.size === 0) return [];
  const over = (text: string): boolean => [...identifiers(text)].some((w) => blocked.has(w));
  return table.indexes.filter((i) => i.columns.some(over) || (i.predicate !== null && over(i.predicate)));
}

/**
 * MySQL: why reading `entry` would hand rows out in the order of blocked values, or null. A table whose primary key
 * holds a blocked column is stored in that order; a view (followed through the views it reads) that reaches a table
 * with an index over a blocked column may be read through that index.
 */
function blockedOrder(ctx: ToolContext, source: SourceInfo, entry: TableEntry, seen: Set<string>): string | null {
  if (seen.has(entry.key) || seen.size > 100) return null;
  seen.add(entry.key);
  const t = entry.table;
  if (t.kind !== 'view' && t.kind !== 'materialized_view') {
    const pk = t.primaryKey?.columns ?? [];
    const blockedKey = pk.find((c) => ctx.deps.pii.blockedCategories(t.columns.find((x) => x.name === c)?.pii ?? null).length > 0);
    return blockedKey !== undefined
      ? `${entry.qualifiedName} is stored in the order of its PII-blocked primary key column, which any read of its rows would reveal; ask for aggregates through a view the operator allows, or leave the table out`
      : null;
  }
  for (const word of identifiers(t.viewDefinition ?? '')) {
    const base = ctx.catalog.lookup(source.name, t.schema, word);
    if (!base || base.key === entry.key) continue;
    const inner = blockedOrder(ctx, source, base, seen);
    if (inner) return inner;
    if ((base.table.kind === 'table' || base.table.kind === 'partitioned_table') && indexesOverBlocked(ctx, base.table).length > 0) {
      return `the view ${entry.qualifiedName} reads ${base.qualifiedName}, whose index over a PII-blocked column would hand its rows out in the order of the blocked values; query ${base.qualifiedName} itself, where that index is not used`;
    }
  }
  return null;
}

/** The SQLite source's blocked columns, overwritten in the query worker's private copy (sqlite-mask.ts). */
function sqliteMaskPlan(ctx: ToolContext, source: SourceInfo): SqliteMaskPlan {
  const tables: { schema: string; table: string; columns: string[] }[] = [];
  const known: { schema: string; table: string; columns: string[] }[] = [];
  for (const e of ctx.catalog.tablesOf(source.name)) {
    known.push({ schema: e.table.schema, table: e.table.name, columns: e.table.columns.map((c) => c.name) });
    // Views too: a view column blocked in its own right (by its name, or by the operator) is masked in the view.
    const cols = e.table.columns.filter((c) => ctx.deps.pii.blockedCategories(c.pii).length > 0).map((c) => c.name);
    if (cols.length > 0) tables.push({ schema: e.table.schema, table: e.table.name, columns: cols });
  }
  return { tables, known };
}

/** The names a statement writes, bare or quoted, lower case: a relation or column it may read. */
function statementNames(sql: string): Set<string> {
  const bare: string[] = sql.toLowerCase().match(/[a-z_][a-z0-9_$]*/g) ?? [];
  const quoted: string[] = (sql.match(/"(?:[^"]|"")+"|\[[^\]]+\]|`[^`]+`/g) ?? []).map((w) => w.slice(1, -1).toLowerCase());
  return new Set([...bare, ...quoted]);
}

/** The blocked columns of the emptied tables a statement names (as sqliteMaskedColumns reads names). */
function sqliteEmptiedRead(plan: SqliteMaskPlan, emptied: readonly string[], sql: string): string[] {
  if (emptied.length === 0) return [];
  const gone = new Set(emptied.map((t) => t.toLowerCase()));
  const words = statementNames(sql);
  return plan.tables.filter((t) => gone.has(t.table.toLowerCase()) && words.has(t.table.toLowerCase())).flatMap((t) => t.columns.map((c) => `${t.schema}.${t.table}.${c}`));
}

/** Blocked columns of the SQLite relations a statement names (any identifier token equal to a table name). */
function sqliteMaskedColumns(plan: SqliteMaskPlan, sql: string): string[] {
  const words = statementNames(sql);
  const star = /(?:select|distinct|all|,|\.)\s*\*/i.test(sql);
  const out: string[] = [];
  for (const t of plan.tables) {
    if (!words.has(t.table.toLowerCase())) continue;
    for (const c of t.columns) if (star || words.has(c.toLowerCase())) out.push(`${t.schema}.${t.table}.${c}`);
  }
  return out;
}

/** The blocked categories of masked `schema.table.column` names, for the audit row. */
function maskedCategories(ctx: ToolContext, source: SourceInfo, masked: readonly string[]): PiiCategory[] {
  const out = new Set<PiiCategory>();
  for (const m of masked) {
    const parts = m.split('.');
    const entry = ctx.catalog.lookup(source.name, parts[0]!, parts[1]!);
    const col = entry?.table.columns.find((c) => c.name === parts.slice(2).join('.'));
    for (const c of ctx.deps.pii.blockedCategories(col?.pii ?? null)) out.add(c);
  }
  return [...out];
}

/**
 * A read of the system catalogs is refused, with the catalog tool that answers the same question for the indexed
 * schemas: columns of a named table → describe_table, anything else → list_indexed_schemas / find_relevant_tables.
 */
function catalogRecovery(ctx: ToolContext, source: SourceInfo, sql: string): { suggested_tool: string; suggested_args: Record<string, unknown> } {
  const literals = [...sql.matchAll(/'((?:[^']|'')*)'/g)].map((m) => m[1]!.replace(/''/g, "'"));
  for (const lit of literals) {
    const hit = ctx.catalog.tablesOf(source.name).find((e) => e.table.name.toLowerCase() === lit.toLowerCase() || e.qualifiedName.toLowerCase() === lit.toLowerCase());
    if (hit) return { suggested_tool: 'describe_table', suggested_args: { qualified_name: hit.qualifiedName, source: source.name } };
  }
  if (/\b(columns|pg_attribute|table_info|pragma_table_info)\b/i.test(sql)) return { suggested_tool: 'find_relevant_tables', suggested_args: { query: '<what the table holds>', source: source.name } };
  return { suggested_tool: 'list_indexed_schemas', suggested_args: {} };
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
    // MySQL/MariaDB: the statement is read, masked and run with its comments written over (blankMysqlComments).
    const text = source.engine === 'mysql' ? blankMysqlComments(args.sql) : args.sql;
    const guard = await ctx.deps.sqlGuard();
    const g = guard.guard(text, source.engine);
    if (!g.ok) {
      if (g.reason === 'invalid_input') {
        return failure('invalid_argument', g.message, { recovery: { suggested_tool: 'run_query', suggested_args: { sql: '<one SELECT statement>', ...(args.source ? { source: args.source } : {}) } } });
      }
      if (g.reason === 'forbidden_function' && g.detail && /^(pragma_|pg_get_|pg_table|pg_relation|pg_indexes|obj_description|col_description)/i.test(g.detail)) {
        // catalog functions: the same answer comes from the index
        return failure('policy_blocked', `${g.message}; the index answers this: ${JSON.stringify(catalogRecovery(ctx, source, args.sql))}`, { recovery: catalogRecovery(ctx, source, args.sql) });
      }
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
      const system = !violation.wideningHint.would_unblock;
      const next = system ? catalogRecovery(ctx, source, args.sql) : { suggested_tool: 'list_indexed_schemas', suggested_args: {} };
      const message = system
        ? `${violation.message}: system catalogs are not queried through run_query; ${next.suggested_tool} ${JSON.stringify(next.suggested_args)} answers this from the index`
        : violation.message;
      return failure('allowlist_violation', message, { recovery: { ...next, widening_hint: violation.wideningHint } });
    }
    // mask at the source: relations with blocked columns are read through derived relations with typed NULLs
    let sql = text;
    let execSql: string | undefined;
    let avoidIndexOrder = false;
    let masked: string[];
    // SQLite: the one plan (blocked columns, every relation and column the catalog holds) the checks and the worker use.
    let sqlitePlan: SqliteMaskPlan | undefined;
    if (source.engine === 'postgres' || source.engine === 'mysql') {
      const m = (source.engine === 'mysql' ? maskMysql : maskPostgres)(text, (schema, table) => postgresRelation(ctx, source, schema, table));
      if (!m.ok) {
        if (m.reason === 'unknown_relation') {
          return failure('unknown_name', `${m.message}; only indexed relations can be queried (re-index the source if it is new).`, {
            recovery: { suggested_tool: 'find_relevant_tables', suggested_args: { query: m.relation, source: source.name } },
          });
        }
        const cats = m.column ? maskedCategories(ctx, source, [m.column]) : [];
        return failure('pii_blocked', m.message, {
          piiCategories: cats.length > 0 ? cats : ['credential'],
          recovery: { suggested_tool: 'describe_table', suggested_args: { qualified_name: m.relation, source: source.name } },
        });
      }
      sql = m.sql;
      execSql = m.execSql;
      avoidIndexOrder = m.avoidIndexOrder === true;
      masked = [...m.maskedColumns];
    } else {
      let tokens: ReturnType<typeof tokenizeSqlite> = [];
      try {
        tokens = tokenizeSqlite(args.sql);
      } catch {
        // the guard accepted it, so it tokenises; nothing to check otherwise
      }
      sqlitePlan = sqliteMaskPlan(ctx, source);
      const hit = sqliteDecidingBlockedColumn(tokens, sqlitePlan);
      if (hit) {
        const cats = maskedCategories(ctx, source, [`main.${hit}`]);
        return failure('pii_blocked', `The statement filters, joins, groups or orders by the PII-blocked column ${hit}; blocked columns read NULL to agent SQL, so leave it out of WHERE/ON/GROUP BY/HAVING/ORDER BY.`, {
          piiCategories: cats.length > 0 ? cats : ['credential'],
          recovery: { suggested_tool: 'describe_table', suggested_args: { qualified_name: hit.split('.')[0], source: source.name } },
        });
      }
      masked = sqliteMaskedColumns(sqlitePlan, args.sql);
    }
    const conn = await ctx.deps.connections.get(source);
    if ('kind' in conn) {
      return failure(failureKind(conn), conn.message, {
        recovery: { suggested_tool: 'get_index_status', suggested_args: { source: source.name } },
      });
    }
    const caps = { timeoutMs: ctx.deps.limits.statementTimeoutMs, maxRows: Math.min(args.max_rows ?? ctx.deps.limits.maxRows, ctx.deps.limits.maxRows), maxBytes: ctx.deps.limits.maxBytes, signal: ctx.signal };
    // What the catalog holds of a relation, for the checks that refuse one changed since the index (schema_drift).
    const indexed = (schema: string, name: string): ExpectedRelation | undefined => {
      const t = ctx.catalog.lookup(source.name, schema, name)?.table;
      return t ? { columns: t.columns.map((c) => c.name), kind: t.kind, definition: t.viewDefinition, ...(source.engine === 'postgres' ? { children: [...t.partitions, ...(t.inheritedBy ?? [])] } : {}) } : undefined;
    };
    const sqliteWorker = conn.engine === 'sqlite' ? conn.worker(guard, sqlitePlan ?? sqliteMaskPlan(ctx, source)) : null;
    const outcome: QueryOutcome =
      conn.engine === 'postgres'
        ? await runReadOnlyPostgres(conn.pool, guard, sql, [], caps, { noIndexScans: avoidIndexOrder, expectedColumns: indexed })
        : conn.engine === 'mysql'
          ? await runReadOnlyMysql(conn.target, guard, sql, [], caps, execSql, (name) => indexed(source.database, name))
          : await sqliteWorker!.run(sql, [], caps);
    // SQLite: a table the mask emptied (its blocked column could not be overwritten) reads as empty; a statement that
    // names one is told so, with the table's blocked columns as masked.
    const emptiedRead = sqliteWorker && sqlitePlan ? sqliteEmptiedRead(sqlitePlan, sqliteWorker.emptied, sql) : [];
    for (const c of emptiedRead) if (!masked.includes(c)) masked.push(c);
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
            : e.kind === 'unreachable'
              ? { suggested_tool: 'run_query', suggested_args: { ...args } } // busy source: the same call, later
              : { suggested_tool: 'describe_table', suggested_args: {} };
      return failure(e.kind, e.message, { recovery });
    }
    const r = outcome.result;
    ctx.trace.rowCount = r.rowCount;
    ctx.trace.truncated = r.truncated;
    // last line of defence: floor secrets (cards, SSNs, keys, tokens, private keys) in any cell or column name
    const scrubbed = redactDeep({ columns: r.columns.map((c) => ({ name: c.name, type: c.dataType })), rows: r.rows });
    const data = {
      source: source.name,
      columns: scrubbed.value.columns,
      rows: scrubbed.value.rows,
      row_count: r.rowCount,
      truncated: r.truncated,
      ...(r.truncatedBy ? { truncated_by: r.truncatedBy } : {}),
      elapsed_ms: Math.round(r.elapsedMs * 10) / 10,
      sql_fingerprint: r.fingerprint,
      ...(masked.length > 0 ? { masked_columns: masked } : {}),
      ...(scrubbed.count > 0 ? { redacted_values: scrubbed.count } : {}),
    };
    const withTokens = { ...data, token_estimate: tokenEstimate(data) };
    const opts = { confidence: 'HIGH' as const, provenance: schemaProvenance(), hints: r.truncated ? ['run_query'] : ['describe_table'] };
    if (masked.length > 0) ctx.trace.piiCategories.push(...maskedCategories(ctx, source, masked));
    if (masked.length > 0 || scrubbed.count > 0) {
      // the rows are real but blocked columns read NULL (masked_columns) and floor secrets were cut from free text
      return degraded(withTokens, 'pii_masked', { ...opts, hints: ['describe_table', ...(r.truncated ? ['run_query'] : [])] });
    }
    return r.truncated ? partial(withTokens, opts) : success(withTokens, opts);
  },
  summarize(env) {
    const d = env.data as { row_count?: number; truncated?: boolean } | null;
    return { rows: d?.row_count ?? 0, truncated: d?.truncated ?? false };
  },
});
