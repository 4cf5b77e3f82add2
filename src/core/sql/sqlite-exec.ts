import type { BindParams, Database, SqlValue } from 'sql.js';
import type { SqlGuard } from './guard';
import { bigRow, exactValue, RowBudget, toJsonValue } from './caps';
import type { ExecuteMeta } from './pg-exec';
import type { GuardAccepted, QueryCaps, QueryOutcome } from './types';
import { DEFAULT_CAPS } from './types';
import { checkSqliteCalls, SQLITE_SCHEMA_PRAGMAS } from './function-policy';
import { tokenizeSqlite } from './sqlite-guard';

/**
 * Layers 2 and 3 for SQLite (sql.js). SQLite sources are opened as an in-memory copy of the file, so nothing a
 * query does can reach the file; on top of that:
 * - SQLite's own splitter (`iterateStatements`, i.e. sqlite3_prepare_v2's tail) must find exactly one statement;
 * - `PRAGMA query_only = ON` makes the engine refuse any write for the duration of the call
 *   (https://www.sqlite.org/pragma.html#pragma_query_only), and the previous value is restored afterwards;
 * - rows are stepped one at a time against the row/byte caps and a wall-clock budget checked between rows.
 * Known limit: sql.js exposes neither sqlite3_interrupt nor a progress handler, so a statement that computes for a
 * long time before yielding its first row (a runaway recursive CTE under an aggregate) is not interrupted here;
 * callers that take SQL from untrusted agents should run SQLite queries off the main thread.
 */

function classifySqliteError(e: unknown): Extract<QueryOutcome, { ok: false; message: string }> {
  const raw = e instanceof Error ? e.message : String(e);
  const message = raw.length > 500 ? `${raw.slice(0, 500)}…` : raw;
  let kind: Extract<QueryOutcome, { ok: false; message: string }>['kind'] = 'database_error';
  if (/attempt to write a readonly database|query_only/i.test(raw)) kind = 'read_only_violation';
  else if (/no such table/i.test(raw)) kind = 'unknown_relation';
  else if (/no such column/i.test(raw)) kind = 'unknown_column';
  else if (/no such function|wrong number of arguments/i.test(raw)) kind = 'unknown_function';
  else if (/syntax error|incomplete input|unrecognized token/i.test(raw)) kind = 'syntax_error';
  else if (/not authorized/i.test(raw)) kind = 'permission_denied';
  else if (/ambiguous column name|misuse of (aggregate|window)|integer overflow|too many terms|no such collation|sub-select returns|row value misused|parser stack overflow|datatype mismatch|cannot join using column|recursion limit|expression tree is too large|too many columns|malformed JSON|json.*(?:depth|nested)/i.test(raw)) kind = 'query_error';
  else if (/out of memory|string or blob too big/i.test(raw)) {
    return { ok: false, kind: 'too_large', message: `the statement needed more than the ${QUERY_HEAP_LIMIT / 1024 / 1024} MiB of working memory a query may use (${message}); build smaller values, or aggregate`, code: 'SQLITE_NOMEM' };
  }
  return { ok: false, kind, message, code: null };
}

/**
 * The working memory SQLite may hold while one agent statement runs (`PRAGMA hard_heap_limit`, which makes any
 * allocation past it fail): intermediate values (a string doubled in a recursive CTE, a giant zeroblob or
 * group_concat) are bounded, not only the rows answered.
 */
export const QUERY_HEAP_LIMIT = 256 * 1024 * 1024;

function valueClass(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'real';
  if (typeof v === 'bigint') return 'integer';
  if (v instanceof Uint8Array) return 'blob';
  return 'text';
}

function countStatements(db: Database, sql: string): number {
  let n = 0;
  for (const stmt of db.iterateStatements(sql)) {
    n++;
    stmt.free();
    if (n > 1) break;
  }
  return n;
}

/** Layers 2 and 3 only (no parser guard); production callers use `runReadOnlySqlite`. */
export function executeReadOnlySqlite(
  db: Database,
  sql: string,
  params: readonly unknown[] | Readonly<Record<string, unknown>>,
  caps: Partial<QueryCaps>,
  meta: ExecuteMeta,
): QueryOutcome {
  const timeoutMs = caps.timeoutMs ?? DEFAULT_CAPS.timeoutMs;
  const budget = new RowBudget(caps.maxRows ?? DEFAULT_CAPS.maxRows, caps.maxBytes ?? DEFAULT_CAPS.maxBytes);
  const started = performance.now();
  if (caps.signal?.aborted) return { ok: false, kind: 'cancelled', message: 'the query was cancelled before it started', code: null };

  const previous = db.exec('PRAGMA query_only')[0]?.values[0]?.[0];
  const previousHeap = Number(db.exec('PRAGMA hard_heap_limit')[0]?.values[0]?.[0] ?? 0);
  db.run('PRAGMA query_only = ON');
  db.run(`PRAGMA hard_heap_limit = ${previousHeap > 0 ? Math.min(previousHeap, QUERY_HEAP_LIMIT) : QUERY_HEAP_LIMIT}`);
  try {
    let count: number;
    try {
      count = countStatements(db, sql);
    } catch (e) {
      return classifySqliteError(e);
    }
    if (count !== 1) {
      return {
        ok: false,
        kind: 'syntax_error',
        message: count === 0 ? 'the statement is empty' : 'exactly one statement is allowed; SQLite found more than one',
        code: 'SQLITE_MISUSE',
      };
    }
    const stmt = db.prepare(sql);
    try {
      const bind = (Array.isArray(params) ? params.map((p) => p as SqlValue) : params) as BindParams;
      if (Array.isArray(bind) ? bind.length > 0 : Object.keys(bind as object).length > 0) stmt.bind(bind);
      const names = stmt.getColumnNames();
      const classes: Array<string | null> = names.map(() => null);
      for (;;) {
        if (caps.signal?.aborted) return { ok: false, kind: 'cancelled', message: 'the query was cancelled', code: null };
        if (performance.now() - started > timeoutMs) {
          return { ok: false, kind: 'timeout', message: `the query ran longer than ${timeoutMs} ms`, code: 'SQLITE_INTERRUPT' };
        }
        if (!stmt.step()) break;
        const row = bigRow(stmt);
        row.forEach((v, i) => {
          if (classes[i] === null && v !== null) classes[i] = valueClass(v);
        });
        if (!budget.take([row.map((v) => toJsonValue(exactValue(v)))])) break;
      }
      return { ok: true, result: budget.result(names.map((name, i) => ({ name, dataType: classes[i] ?? 'null' })), started, meta) };
    } finally {
      stmt.free();
    }
  } catch (e) {
    return classifySqliteError(e);
  } finally {
    db.run(`PRAGMA query_only = ${previous === 1 ? 'ON' : 'OFF'}`);
    db.run(`PRAGMA hard_heap_limit = ${Number.isFinite(previousHeap) && previousHeap >= 0 ? previousHeap : 0}`);
  }
}

/** Names declared as `name(col, …) AS (` in a WITH clause: column lists, not calls. */
function cteColumnListNames(sql: string): Set<string> {
  const out = new Set<string>();
  let ts;
  try {
    ts = tokenizeSqlite(sql).filter((t) => t.kind !== 'comment');
  } catch {
    return out;
  }
  for (let i = 0; i + 1 < ts.length; i++) {
    if (ts[i + 1]!.text !== '(' || (ts[i]!.kind !== 'identifier' && ts[i]!.kind !== 'keyword')) continue;
    let depth = 0;
    let j = i + 1;
    for (; j < ts.length; j++) {
      if (ts[j]!.text === '(') depth++;
      else if (ts[j]!.text === ')' && --depth === 0) break;
    }
    const after = ts[j + 1]?.text.toLowerCase();
    const next = ts[j + 2]?.text.toLowerCase();
    if (after === 'as' && (next === '(' || next === 'materialized' || next === 'not')) out.add(ts[i]!.text.replace(/^["`[]|["`\]]$/g, '').toLowerCase());
  }
  return out;
}

/**
 * The function side of the SQLite policy, after the guard: every called function on the allow-list, and no
 * `pragma_*` table-valued function however it is written (`pragma_database_list` reveals file paths, and without
 * parentheses it reads like a table). Null when the statement passes.
 */
export function sqliteFunctionRefusal(g: GuardAccepted, sql: string): Extract<QueryOutcome, { kind: 'refused' }> | null {
  const pragma = g.tables.find((t) => {
    const bare = (t.split('.').pop() ?? t).replace(/^["`[]|["`\]]$/g, '').toLowerCase();
    return bare.startsWith('pragma_') && !SQLITE_SCHEMA_PRAGMAS.has(bare);
  });
  const refusal = pragma
    ? { name: pragma, message: `argument 'sql' reads ${pragma}, a pragma table function (database paths, compile options, function lists); use list_indexed_schemas / describe_table for schema questions` }
    : checkSqliteCalls(g.functions, cteColumnListNames(sql));
  if (!refusal) return null;
  return { ok: false, kind: 'refused', guard: { ok: false, dialect: 'sqlite', reason: 'forbidden_function', message: refusal.message, detail: refusal.name } };
}

/** All three layers for a sql.js database (an in-memory copy of the source file). */
export function runReadOnlySqlite(
  db: Database,
  guard: SqlGuard,
  sql: string,
  params: readonly unknown[] | Readonly<Record<string, unknown>> = [],
  caps: Partial<QueryCaps> = {},
): QueryOutcome {
  const g = guard.guard(sql, 'sqlite');
  if (!g.ok) return { ok: false, kind: 'refused', guard: g };
  const refused = sqliteFunctionRefusal(g, sql);
  if (refused) return refused;
  return executeReadOnlySqlite(db, sql, params, caps, { statementKind: g.statementKind, fingerprint: g.fingerprint });
}
