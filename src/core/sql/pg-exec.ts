import type { ClientBase, FieldDef, PoolClient } from 'pg';
import type Cursor from 'pg-cursor';
import { pgCursor } from './pg-driver';
import type { SqlGuard } from './guard';
import { RowBudget, toJsonValue } from './caps';
import { sendCancelRequest } from './pg-cancel';
import type { QueryCaps, QueryOutcome, QueryResult, ResultColumn, StatementKind } from './types';
import { DEFAULT_CAPS } from './types';

/**
 * Layers 2 and 3 for PostgreSQL.
 *
 * Layer 2: `BEGIN TRANSACTION READ ONLY` and three `SET LOCAL` timeouts, each sent by this module as its own
 * simple-protocol message with constant text; then the caller's statement alone through the extended protocol
 * (Parse/Bind/Execute via pg-cursor), so the server itself rejects a string holding several commands
 * ("cannot insert multiple commands into a prepared statement"); then ROLLBACK, never COMMIT.
 * https://www.postgresql.org/docs/current/protocol-flow.html#PROTOCOL-FLOW-EXT-QUERY
 * https://www.postgresql.org/docs/current/sql-set-transaction.html
 *
 * Layer 3: the portal is executed with a row limit (Execute's max-rows), in batches, so at most `maxRows + 1`
 * rows and about `maxBytes` leave the server; the extra row only tells us the result was cut.
 * Cancellation through `signal` sends a protocol CancelRequest for the running batch and stops fetching.
 */

/** A connected client, or something that lends one (a `pg.Pool`). */
export type PgConnectable = ClientBase | { connect(): Promise<PoolClient> };

const BATCH_ROWS = 200;

function isPool(c: PgConnectable): c is { connect(): Promise<PoolClient> } {
  // pg.Client also has connect(); a Client is recognised by its query method plus `connection` field
  return !('query' in c && 'connection' in c);
}

function intMs(n: number, name: string): number {
  if (!Number.isFinite(n) || n < 1 || n > 3_600_000) throw new RangeError(`${name} must be between 1 and 3600000 ms`);
  return Math.floor(n);
}

interface PgError {
  code?: string;
  message?: string;
}

/** Classifies a driver error once, by SQLSTATE (https://www.postgresql.org/docs/current/errcodes-appendix.html). */
export function classifyPostgresError(e: unknown): Extract<QueryOutcome, { ok: false; message: string }> {
  const err = (e ?? {}) as PgError;
  const code = typeof err.code === 'string' ? err.code : null;
  const raw = typeof err.message === 'string' ? err.message : String(e);
  const message = raw.length > 500 ? `${raw.slice(0, 500)}…` : raw;
  let kind: Extract<QueryOutcome, { ok: false; message: string }>['kind'] = 'database_error';
  if (code === '57014' || code === '55P03' || code === '25P03') kind = 'timeout';
  else if (code === '25006') kind = 'read_only_violation';
  else if (code === '42P01') kind = 'unknown_relation';
  else if (code === '42703') kind = 'unknown_column';
  else if (code === '42883') kind = 'unknown_function';
  else if (code === '42601') kind = 'syntax_error';
  else if (code === '42501') kind = 'permission_denied';
  else if ((code && code.startsWith('08')) || /ECONNREFUSED|ECONNRESET|EPIPE|Connection terminated/i.test(raw)) kind = 'connection';
  return { ok: false, kind, message, code };
}

async function typeNames(client: ClientBase, fields: readonly FieldDef[]): Promise<Map<number, string>> {
  const oids = [...new Set(fields.map((f) => f.dataTypeID))];
  if (oids.length === 0) return new Map();
  // https://www.postgresql.org/docs/current/functions-info.html#FUNCTIONS-INFO-CATALOG (format_type)
  const r = await client.query<{ oid: number; name: string }>({
    text: 'SELECT oid::int AS oid, format_type(oid, NULL) AS name FROM pg_catalog.pg_type WHERE oid = ANY($1::oid[])',
    values: [oids],
  });
  return new Map(r.rows.map((row) => [Number(row.oid), row.name]));
}

function readBatch(cursor: Cursor<unknown[]>, n: number): Promise<{ rows: unknown[][]; fields: FieldDef[] }> {
  return new Promise((resolve, reject) => {
    cursor.read(n, (err, rows, result) => {
      if (err) reject(err);
      else resolve({ rows: rows as unknown[][], fields: result?.fields ?? [] });
    });
  });
}

export interface ExecuteMeta {
  readonly statementKind: StatementKind;
  readonly fingerprint: string;
}

/**
 * Layers 2 and 3 only: runs `sql` in a READ ONLY transaction with the caps, without the parser guard. Exported so
 * each layer can be tested on its own; production callers use `runReadOnlyPostgres`.
 */
export async function executeReadOnlyPostgres(
  client: ClientBase,
  sql: string,
  params: readonly unknown[],
  caps: Partial<QueryCaps>,
  meta: ExecuteMeta,
): Promise<QueryOutcome> {
  const timeoutMs = intMs(caps.timeoutMs ?? DEFAULT_CAPS.timeoutMs, 'timeoutMs');
  const budget = new RowBudget(caps.maxRows ?? DEFAULT_CAPS.maxRows, caps.maxBytes ?? DEFAULT_CAPS.maxBytes);
  const signal = caps.signal;
  const started = performance.now();
  if (signal?.aborted) return { ok: false, kind: 'cancelled', message: 'the query was cancelled before it started', code: null };

  let inTransaction = false;
  let cancelling: Promise<boolean> | null = null;
  const onAbort = (): void => {
    cancelling = sendCancelRequest(client);
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    await client.query('BEGIN TRANSACTION READ ONLY');
    inTransaction = true;
    await client.query(`SET LOCAL statement_timeout = ${timeoutMs}`);
    await client.query(`SET LOCAL lock_timeout = ${timeoutMs}`);
    await client.query(`SET LOCAL idle_in_transaction_session_timeout = ${Math.max(timeoutMs * 2, 1000)}`);

    const PgCursor = pgCursor();
    const cursor = client.query(new PgCursor<unknown[]>(sql, params as unknown[], { rowMode: 'array' }));
    let fields: FieldDef[] = [];
    let cancelled = false;
    for (;;) {
      if (signal?.aborted) {
        cancelled = true;
        break;
      }
      const wanted = Math.min(BATCH_ROWS, budget.rowsWanted());
      const batch = await readBatch(cursor, wanted);
      if (batch.fields.length > 0) fields = batch.fields;
      const more = budget.take(batch.rows.map((r) => r.map(toJsonValue)));
      if (!more || batch.rows.length < wanted) break;
    }
    await cursor.close();
    if (cancelled) {
      await client.query('ROLLBACK');
      inTransaction = false;
      return { ok: false, kind: 'cancelled', message: 'the query was cancelled', code: null };
    }
    const names = await typeNames(client, fields);
    await client.query('ROLLBACK');
    inTransaction = false;
    const columns: ResultColumn[] = fields.map((f) => ({ name: f.name, dataType: names.get(f.dataTypeID) ?? `oid:${f.dataTypeID}` }));
    const result: QueryResult = {
      columns,
      rows: budget.rows,
      rowCount: budget.rows.length,
      truncated: budget.truncatedBy !== null,
      truncatedBy: budget.truncatedBy,
      elapsedMs: Math.round((performance.now() - started) * 100) / 100,
      statementKind: meta.statementKind,
      fingerprint: meta.fingerprint,
    };
    return { ok: true, result };
  } catch (e) {
    if (inTransaction) {
      try {
        await client.query('ROLLBACK');
      } catch {
        // the connection is gone; the caller destroys it
      }
    }
    if (signal?.aborted) return { ok: false, kind: 'cancelled', message: 'the query was cancelled', code: '57014' };
    return classifyPostgresError(e);
  } finally {
    signal?.removeEventListener('abort', onAbort);
    // a cancel still in flight must land before the connection is used again
    if (cancelling) await cancelling;
  }
}

/**
 * All three layers: guard, then the READ ONLY transaction with caps. `conn` is a connected client (left
 * connected) or a pool (a client is borrowed and returned; destroyed if anything failed, so no session state can
 * leak into the next borrower).
 */
export async function runReadOnlyPostgres(
  conn: PgConnectable,
  guard: SqlGuard,
  sql: string,
  params: readonly unknown[] = [],
  caps: Partial<QueryCaps> = {},
): Promise<QueryOutcome> {
  const g = guard.guard(sql, 'postgres');
  if (!g.ok) return { ok: false, kind: 'refused', guard: g };
  const meta = { statementKind: g.statementKind, fingerprint: g.fingerprint };
  if (!isPool(conn)) return executeReadOnlyPostgres(conn, sql, params, caps, meta);
  let client: PoolClient;
  try {
    client = await conn.connect();
  } catch (e) {
    return classifyPostgresError(e);
  }
  let outcome: QueryOutcome | undefined;
  try {
    outcome = await executeReadOnlyPostgres(client, sql, params, caps, meta);
    return outcome;
  } finally {
    client.release(outcome === undefined || !outcome.ok ? true : undefined);
  }
}
