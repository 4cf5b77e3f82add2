/**
 * Example queries mined from PostgreSQL's query statistics (pg_stat_statements). Stored and served without any
 * literal value: pg_stat_statements already replaces constants by `$n`, and the normaliser replaces whatever
 * constants remain. PII redaction (column names, raw projections) is applied when serving, against the policy of
 * the moment, because the policy can change after mining.
 */

export interface ExampleQuery {
  /** Normalised statement: comments dropped, whitespace collapsed, every constant a `$n` parameter. */
  readonly sql: string;
  readonly calls: number;
  /** Mean execution time in milliseconds (pg_stat_statements mean_exec_time, or mean_time before PostgreSQL 13). */
  readonly meanMs: number | null;
  /** Rows retrieved, summed over all calls. */
  readonly rows: number | null;
  /** Relations the statement reads, as written (`public.film`, `film`, `"Album"`). */
  readonly tables: readonly string[];
  /** sha256 of the statement's shape (the guard's fingerprint). */
  readonly fingerprint: string;
}

export type MineFailureReason = 'not_installed' | 'not_loaded' | 'permission_denied' | 'timeout' | 'error';

export type MineOutcome =
  | {
      readonly ok: true;
      readonly queries: readonly ExampleQuery[];
      /** Statements read from the view, and why some were not kept. */
      readonly scanned: number;
      readonly skipped: { readonly notReadOnly: number; readonly own: number; readonly hidden: number; readonly systemOnly: number; readonly tooLong: number };
    }
  | { readonly ok: false; readonly reason: MineFailureReason; readonly message: string; readonly hint: string };
