/**
 * Guarded read-only SQL: the shapes shared by the parser guard, the executors and the tools built on them
 * (`run_query`, `get_metric`; UDB `udb.sql` in seed 004).
 */

export type SqlDialect = 'postgres' | 'sqlite' | 'mysql';

/** What the single accepted statement is. `explain` is EXPLAIN without ANALYZE of one of the others. */
export type StatementKind = 'select' | 'values' | 'table' | 'explain';

/** Why a statement was refused before it reached the database. */
export type GuardReason =
  | 'empty_statement'
  | 'parse_error'
  | 'multiple_statements'
  | 'not_read_only'
  | 'forbidden_clause'
  | 'forbidden_function'
  | 'too_long'
  /** NUL bytes, nesting or set-operation arms beyond the limits in input-limits.ts: bad input, not a policy matter. */
  | 'invalid_input'
  /** A relation the statement reads no longer has the columns the catalog classified (renamed, added, dropped). */
  | 'schema_drift';

/** One output column of the top-level SELECT, for the PII layer: which source columns it exposes and how. */
export interface Projection {
  /** The expression as written (source slice), e.g. `lower(c.email)`. */
  readonly expression: string;
  /** The output name when the query gives one (`AS x`), else the bare column name for plain references, else null. */
  readonly alias: string | null;
  /** Column references inside the expression, as written (`c.email`, `email`, `*`, `c.*`). */
  readonly sourceColumns: readonly string[];
  /** True when every column reference sits inside an aggregate call (and not in a window), e.g. `count(email)`. */
  readonly aggregated: boolean;
  /**
   * Aggregates used, lower-case. MIN/MAX/ARRAY_AGG/STRING_AGG and friends still disclose raw values, so the PII
   * layer should treat them as raw even when `aggregated` is true.
   */
  readonly aggregateFunctions: readonly string[];
}

export interface GuardAccepted {
  readonly ok: true;
  readonly dialect: SqlDialect;
  readonly statementKind: StatementKind;
  /** The statement with comments removed, whitespace collapsed and any trailing `;` dropped. */
  readonly normalized: string;
  /** sha256 (hex) of the statement's tokens with comments dropped, keywords lower-cased and constants replaced by `?`. */
  readonly fingerprint: string;
  /** Relations read, schema-qualified where the query qualifies them (`public.film`, `film`); CTE names excluded. */
  readonly tables: readonly string[];
  /** Alias → relation as written, for resolving `c.email` to `public.customer.email`. */
  readonly aliases: Readonly<Record<string, string>>;
  /** Every column reference anywhere in the statement (select list, WHERE, JOIN, GROUP BY, ...). */
  readonly columns: readonly string[];
  /** Best-effort projections of the top-level select list (left-most branch of a set operation). */
  readonly projections: readonly Projection[];
  /** Functions called anywhere, lower-case, schema-qualified when written so. */
  readonly functions: readonly string[];
  /**
   * PostgreSQL: operators written anywhere (`=`, `~~`, a user's `~~~`; the name without its schema), and the type
   * names cast to (`::comp2`, `CAST(x AS d)`, lower-case, without schema): a user-defined operator, cast or domain
   * check runs a function that the statement never names.
   */
  readonly operators?: readonly string[];
  readonly castTypes?: readonly string[];
}

export interface GuardRefused {
  readonly ok: false;
  readonly dialect: SqlDialect;
  readonly reason: GuardReason;
  /** One sentence for the agent, in the seed-003 style; never echoes more than a short fragment of the input. */
  readonly message: string;
  /** The offending element (a statement type, a function or clause name), when there is one. */
  readonly detail: string | null;
}

export type GuardResult = GuardAccepted | GuardRefused;

export interface QueryCaps {
  /** Server-side statement timeout (PostgreSQL) / wall-clock budget between rows (SQLite). */
  readonly timeoutMs: number;
  /** Rows returned at most; one more is fetched to know whether the result was cut. */
  readonly maxRows: number;
  /** Approximate JSON size of the returned rows at most. */
  readonly maxBytes: number;
  readonly signal?: AbortSignal;
}

export const DEFAULT_CAPS: Readonly<Omit<QueryCaps, 'signal'>> = { timeoutMs: 5000, maxRows: 100, maxBytes: 1_000_000 };

export interface ResultColumn {
  readonly name: string;
  /** Type name as the engine reports it (`int4`, `text`, `numeric`; SQLite: the declared type or the value class). */
  readonly dataType: string;
}

export interface QueryResult {
  readonly columns: readonly ResultColumn[];
  readonly rows: readonly (readonly unknown[])[];
  readonly rowCount: number;
  readonly truncated: boolean;
  readonly truncatedBy: 'rows' | 'bytes' | null;
  readonly elapsedMs: number;
  readonly statementKind: StatementKind;
  readonly fingerprint: string;
}

/** Why execution failed after the guard accepted the statement. Driver messages are passed through `safeMessage`. */
export type ExecutionFailureKind =
  | 'refused'
  | 'timeout'
  | 'cancelled'
  | 'read_only_violation'
  | 'unknown_relation'
  | 'unknown_column'
  | 'unknown_function'
  | 'syntax_error'
  | 'permission_denied'
  | 'connection'
  /** The source's queue is full or the wait for a connection ran out: retry later (pg-pool.ts SourcePool). */
  | 'busy'
  /** One row or message was larger than the per-message byte limit; the connection was closed before decoding it. */
  | 'too_large'
  /**
   * The statement itself failed on the database: a value it computed (division by zero, a cast of a bad value, an
   * overflow), a subquery that gave more than one row, or a rule of the language (an ambiguous name, a grouping
   * error). The query must change, not the server (SQLSTATE classes 21, 22 and 42).
   */
  | 'query_error'
  | 'database_error';

export type QueryOutcome =
  | { readonly ok: true; readonly result: QueryResult }
  | { readonly ok: false; readonly kind: 'refused'; readonly guard: GuardRefused }
  | {
      readonly ok: false;
      readonly kind: Exclude<ExecutionFailureKind, 'refused'>;
      readonly message: string;
      /** SQLSTATE for PostgreSQL, SQLite result name where known. */
      readonly code: string | null;
    };
