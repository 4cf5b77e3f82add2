import { runReadOnlyPostgres } from '../sql';
import type { PgConnectable, SqlGuard } from '../sql';
import { stripLiterals } from './normalize';
import type { ExampleQuery, MineOutcome } from './types';

/**
 * Reads pg_stat_statements (https://www.postgresql.org/docs/current/pgstatstatements.html) for the current
 * database through the guarded read-only path (READ ONLY transaction, statement timeout, row and byte caps), and
 * keeps the read-only statements that name at least one user relation. SchemaBrain's own statements carry a
 * `/* schemabrain…` comment and are skipped. The view is missing until `CREATE EXTENSION pg_stat_statements`, and
 * unreadable until the library is in `shared_preload_libraries`; both are reported as reasons, not thrown.
 */

// to_jsonb(s) reads mean_exec_time (PostgreSQL ≥ 13) or mean_time (older) without failing on the missing one.
const MINE_SQL = `/* schemabrain:mine */ SELECT left(s.query, 20001) AS query, s.calls, coalesce((to_jsonb(s)->>'mean_exec_time')::float8, (to_jsonb(s)->>'mean_time')::float8) AS mean_ms, s.rows FROM pg_stat_statements s WHERE s.dbid = (SELECT d.oid FROM pg_database d WHERE d.datname = current_database()) ORDER BY s.calls DESC LIMIT 5000`;

const MAX_QUERY_CHARS = 20_000;
export const MAX_MINED = 500;
const OWN_MARKER = /\/\*\s*schemabrain\b|--\s*schemabrain\b/i;
/**
 * The indexer's value sampling (src/core/sources/postgres/introspector.ts) carries no marker yet; its shape —
 * nothing but `left("col"::text, n)` projections — is recognised instead.
 */
const INTROSPECTOR_SAMPLE = /^SELECT left\("(?:[^"]|"")+"::text, \$\d+\)(?:, left\("(?:[^"]|"")+"::text, \$\d+\))* FROM /;
const SYSTEM_RELATION = /^(pg_catalog\.|information_schema\.|pg_toast\.)|^"?pg_[a-z_]+"?$/i;

export const ENABLE_HINT =
  "Add pg_stat_statements to shared_preload_libraries in postgresql.conf (or ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'), restart PostgreSQL, run CREATE EXTENSION pg_stat_statements in this database, and grant pg_read_all_stats to the role SchemaBrain uses so it can see other roles' statements.";

export interface MineOptions {
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
  readonly maxQueries?: number;
}

export async function mineExampleQueries(conn: PgConnectable, guard: SqlGuard, opts: MineOptions = {}): Promise<MineOutcome> {
  // SchemaBrain's own constant statement: it reads the pg_stat_statements extension view on purpose
  const outcome = await runReadOnlyPostgres(conn, guard, MINE_SQL, [], { timeoutMs: opts.timeoutMs ?? 5000, maxRows: 5000, maxBytes: 32_000_000, signal: opts.signal }, { checkObjects: false });
  if (!outcome.ok) {
    if (outcome.kind === 'refused') return { ok: false, reason: 'error', message: outcome.guard.message, hint: ENABLE_HINT };
    if (outcome.kind === 'unknown_relation') {
      return { ok: false, reason: 'not_installed', message: 'The pg_stat_statements extension is not installed in this database.', hint: ENABLE_HINT };
    }
    if (outcome.code === '55000' || /shared_preload_libraries/i.test(outcome.message)) {
      return { ok: false, reason: 'not_loaded', message: 'pg_stat_statements is installed but not loaded: it must be listed in shared_preload_libraries.', hint: ENABLE_HINT };
    }
    if (outcome.kind === 'permission_denied') return { ok: false, reason: 'permission_denied', message: `Reading pg_stat_statements was refused: ${outcome.message}`, hint: ENABLE_HINT };
    if (outcome.kind === 'timeout' || outcome.kind === 'cancelled') return { ok: false, reason: 'timeout', message: `Reading pg_stat_statements took too long (${outcome.message}).`, hint: 'Try again; pg_stat_statements.max bounds the view size.' };
    return { ok: false, reason: 'error', message: `${outcome.kind}: ${outcome.message}`, hint: ENABLE_HINT };
  }
  const skipped = { notReadOnly: 0, own: 0, hidden: 0, systemOnly: 0, tooLong: 0 };
  const merged = new Map<string, { q: ExampleQuery; totalMs: number }>();
  for (const row of outcome.result.rows) {
    const text = typeof row[0] === 'string' ? row[0] : null;
    const calls = Number(row[1] ?? 0);
    const meanMs = row[2] === null || row[2] === undefined ? null : Number(row[2]);
    const rows = row[3] === null || row[3] === undefined ? null : Number(row[3]);
    if (text === null || text === '<insufficient privilege>') {
      skipped.hidden++;
      continue;
    }
    if (text.length > MAX_QUERY_CHARS) {
      skipped.tooLong++;
      continue;
    }
    if (OWN_MARKER.test(text) || INTROSPECTOR_SAMPLE.test(text)) {
      skipped.own++;
      continue;
    }
    const g = guard.guard(text, 'postgres');
    if (!g.ok) {
      skipped.notReadOnly++;
      continue;
    }
    const tables = g.tables.filter((t) => !SYSTEM_RELATION.test(t));
    if (tables.length === 0) {
      skipped.systemOnly++;
      continue;
    }
    let sql: string;
    try {
      sql = stripLiterals(g.normalized);
    } catch {
      skipped.notReadOnly++;
      continue;
    }
    // pg_stat_statements keeps one entry per (user, database, query id, top level): merge them.
    const prev = merged.get(g.fingerprint);
    const ms = meanMs !== null ? meanMs * calls : 0;
    if (prev) {
      const totalCalls = prev.q.calls + calls;
      const totalMs = prev.totalMs + ms;
      merged.set(g.fingerprint, {
        q: { ...prev.q, calls: totalCalls, meanMs: totalCalls > 0 ? totalMs / totalCalls : prev.q.meanMs, rows: (prev.q.rows ?? 0) + (rows ?? 0) },
        totalMs,
      });
    } else {
      merged.set(g.fingerprint, { q: { sql, calls, meanMs, rows, tables, fingerprint: g.fingerprint }, totalMs: ms });
    }
  }
  const queries = [...merged.values()]
    .map((m) => ({ ...m.q, meanMs: m.q.meanMs === null ? null : Math.round(m.q.meanMs * 1000) / 1000 }))
    .sort((a, b) => b.calls - a.calls || a.sql.localeCompare(b.sql))
    .slice(0, opts.maxQueries ?? MAX_MINED);
  return { ok: true, queries, scanned: outcome.result.rowCount, skipped };
}
