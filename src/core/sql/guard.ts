import { pgParser } from './pg-parser';
import { guardPostgres } from './pg-guard';
import { guardSqlite } from './sqlite-guard';
import { guardMysql } from './mysql-guard';
import type { GuardResult, SqlDialect } from './types';

/** Layer 1, both dialects. Obtained from `loadSqlGuard()` so the WASM parser is loaded before the first call. */
export interface SqlGuard {
  guard(sql: string, dialect: SqlDialect): GuardResult;
}

/** Loads the PostgreSQL parser (WASM, once per process; libpg-query caches it) and returns a synchronous guard. */
export async function loadSqlGuard(): Promise<SqlGuard> {
  await pgParser().loadModule();
  return {
    guard: (sql, dialect) => {
      try {
        return dialect === 'postgres' ? guardPostgres(sql) : dialect === 'mysql' ? guardMysql(sql) : guardSqlite(sql);
      } catch (e) {
        // A statement whose tree is deeper than the reader can walk (`1+1+…` twenty thousand times): too deep to check,
        // so refused as input, whichever step ran out of stack.
        if (e instanceof RangeError || (e instanceof Error && /call stack|stack depth|too much recursion/i.test(e.message))) {
          return { ok: false, dialect, reason: 'invalid_input', message: "argument 'sql' is nested too deeply to be checked; split it into simpler expressions", detail: 'depth' };
        }
        throw e;
      }
    },
  };
}

/** One-shot convenience for callers that guard rarely. */
export async function guardSql(sql: string, dialect: SqlDialect): Promise<GuardResult> {
  return (await loadSqlGuard()).guard(sql, dialect);
}
