import type { Connection, ConnectionOptions, FieldPacket, QueryError } from 'mysql2';
import { mysqlDriver } from './mysql-driver';
import type { SqlGuard } from './guard';
import { RowBudget, toJsonValue, wireBudget } from './caps';
import type { GuardRefused, QueryCaps, QueryOutcome, ResultColumn, StatementKind } from './types';
import { DEFAULT_CAPS } from './types';

/**
 * Layers 2 and 3 for MySQL and MariaDB.
 *
 * Every call opens its own connection and closes it afterwards, so no session state (variables, temporary tables,
 * prepared statements, named locks) can outlive one guarded statement. Before the caller's statement, this module
 * sends constant statements of its own: the session's sql_mode without NO_BACKSLASH_ESCAPES and ANSI_QUOTES (so
 * strings and quotes lex the way the guard's tokenizer read them), a server-side time limit (MariaDB
 * `max_statement_time`, https://mariadb.com/kb/en/server-system-variables/#max_statement_time; MySQL
 * `max_execution_time`, https://dev.mysql.com/doc/refman/8.0/en/server-system-variables.html#sysvar_max_execution_time),
 * `sql_select_limit` at the row cap plus one, and `START TRANSACTION READ ONLY`. Then the views the statement reads
 * are followed, through the views they read in turn, and each definition must pass the same guard (a view that calls a stored function — which may read a blocked
 * column or `SET GLOBAL` — is refused, as a direct call is). The statement then runs alone (`multipleStatements` is
 * off, so the server refuses a string holding several); its rows are streamed against the row and byte caps, and
 * the bytes of the result on the wire against twice the byte cap (a row of many wide columns is cut before the driver
 * holds it whole); the transaction is rolled back. A client-side timer and the abort signal destroy the connection
 * and `KILL QUERY` it from a second one.
 */

export interface MysqlExecTarget {
  /** Connection options (with the password) for a fresh connection per call. */
  readonly options: ConnectionOptions;
}

interface MysqlErr {
  code?: string;
  errno?: number;
  /** The SQLSTATE the server sent with the error. */
  sqlState?: string;
  message?: string;
  fatal?: boolean;
}

/** Classifies a mysql2 error by the server's symbolic code. */
export function classifyMysqlError(e: unknown): Extract<QueryOutcome, { ok: false; message: string }> {
  const err = (e ?? {}) as MysqlErr;
  const code = typeof err.code === 'string' ? err.code : null;
  const raw = typeof err.message === 'string' ? err.message : String(e);
  const message = raw.length > 500 ? `${raw.slice(0, 500)}…` : raw;
  let kind: Extract<QueryOutcome, { ok: false; message: string }>['kind'] = 'database_error';
  if (code === 'ER_STATEMENT_TIMEOUT' || code === 'ER_QUERY_TIMEOUT' || code === 'ER_LOCK_WAIT_TIMEOUT' || /max_statement_time|maximum statement execution time/i.test(raw)) kind = 'timeout';
  else if (code === 'ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION' || code === 'ER_OPTION_PREVENTS_STATEMENT') kind = 'read_only_violation';
  else if (code === 'ER_NO_SUCH_TABLE' || code === 'ER_BAD_TABLE_ERROR' || code === 'ER_BAD_DB_ERROR') kind = 'unknown_relation';
  else if (code === 'ER_BAD_FIELD_ERROR') kind = 'unknown_column';
  else if (code === 'ER_SP_DOES_NOT_EXIST' || code === 'ER_FUNC_INEXISTENT_NAME_COLLISION') kind = 'unknown_function';
  else if (code === 'ER_PARSE_ERROR' || code === 'ER_SYNTAX_ERROR') kind = 'syntax_error';
  else if (code && /ACCESS_DENIED|DENIED_ERROR/.test(code)) kind = /ER_ACCESS_DENIED_ERROR/.test(code) ? 'connection' : 'permission_denied';
  else if ((code && /^(ECONN|ETIMEDOUT|ENOTFOUND|EPIPE|PROTOCOL_)/.test(code)) || err.fatal) kind = 'connection';
  else if ((typeof err.sqlState === 'string' && /^(21|22|42)/.test(err.sqlState)) || code === 'ER_STACK_OVERRUN_NEED_MORE' || code === 'ER_TOO_HIGH_LEVEL_OF_NESTING_FOR_SELECT') kind = 'query_error';
  return { ok: false, kind, message, code };
}

/** mysql2 column type number → name (mysql2's own Types table, inverted). */
let typeNames: Map<number, string> | undefined;
function typeName(n: number | undefined): string {
  if (!typeNames) {
    typeNames = new Map();
    const types = (mysqlDriver() as unknown as { Types: Record<string, number> }).Types;
    for (const [name, num] of Object.entries(types)) if (!typeNames.has(num)) typeNames.set(num, name.toLowerCase());
  }
  return n === undefined ? 'unknown' : (typeNames.get(n) ?? `type:${n}`);
}

function call(conn: Connection, sql: string, values?: unknown[]): Promise<unknown[]> {
  return new Promise((resolve, reject) => {
    conn.query({ sql, ...(values ? { values } : {}) }, (err: QueryError | null, rows: unknown) => (err ? reject(err) : resolve(rows as unknown[])));
  });
}

function connect(options: ConnectionOptions): Promise<Connection> {
  return new Promise((resolve, reject) => {
    const conn = mysqlDriver().createConnection(options);
    conn.once('connect', () => resolve(conn));
    conn.once('error', reject);
  });
}

/**
 * Closes a connection both ways at once. mysql2's own destroy() only ends the writing side: the socket goes on being
 * read, and every row the server still sends is parsed, after the caller has stopped listening.
 */
function hardClose(conn: Connection): void {
  conn.pause();
  (conn as unknown as { stream?: { destroy(): void } }).stream?.destroy();
  conn.destroy();
}

function intMs(n: number, name: string): number {
  if (!Number.isFinite(n) || n < 1 || n > 3_600_000) throw new RangeError(`${name} must be between 1 and 3600000 ms`);
  return Math.floor(n);
}

/**
 * The sql_mode flags that change neither how a statement lexes nor how it parses (strictness, dates, options of
 * DDL the guard never lets through). Anything else is dropped: NO_BACKSLASH_ESCAPES and ANSI_QUOTES change what a
 * string is, PIPES_AS_CONCAT, IGNORE_SPACE and HIGH_NOT_PRECEDENCE how operators and function names parse, and the
 * combination modes (ANSI, ORACLE, MSSQL, DB2, POSTGRESQL, MAXDB, …) turn on other grammars, MariaDB's ORACLE a
 * parser of its own. Kept by listing what is safe, so a flag a later server adds is dropped too.
 * https://mariadb.com/kb/en/sql-mode/ https://dev.mysql.com/doc/refman/8.0/en/sql-mode.html
 */
const LEX_NEUTRAL_SQL_MODES: ReadonlySet<string> = new Set([
  'ALLOW_INVALID_DATES',
  'ERROR_FOR_DIVISION_BY_ZERO',
  'NO_AUTO_CREATE_USER',
  'NO_AUTO_VALUE_ON_ZERO',
  'NO_DIR_IN_CREATE',
  'NO_ENGINE_SUBSTITUTION',
  'NO_FIELD_OPTIONS',
  'NO_KEY_OPTIONS',
  'NO_TABLE_OPTIONS',
  'NO_UNSIGNED_SUBTRACTION',
  'NO_ZERO_DATE',
  'NO_ZERO_IN_DATE',
  'ONLY_FULL_GROUP_BY',
  'PAD_CHAR_TO_FULL_LENGTH',
  'REAL_AS_FLOAT',
  'STRICT_ALL_TABLES',
  'STRICT_TRANS_TABLES',
  'TIME_ROUND_FRACTIONAL',
  'TIME_TRUNCATE_FRACTIONAL',
  'TRADITIONAL',
]);

/** The session's sql_mode less every flag that could make the server read the statement otherwise than the guard. */
export function pinnedSqlMode(mode: string): string {
  return mode
    .split(',')
    .map((m) => m.trim().toUpperCase())
    .filter((m) => LEX_NEUTRAL_SQL_MODES.has(m))
    .join(',');
}

export interface ExecuteMeta {
  readonly statementKind: StatementKind;
  readonly fingerprint: string;
}

/** The most views followed from one statement (views over views included): past it the statement is refused. */
const MAX_VIEWS_FOLLOWED = 200;

/**
 * The views among `tables` (as the guard lists them, `db.t` or `t`), and the views their definitions read, each
 * checked with the guard: null when all pass, else the refusal. Runs on the statement's own connection, inside its
 * transaction, so it sees the definitions the statement will run.
 */
/**
 * A name on the built-in allow-list that the server does not have as a built-in (MariaDB has no `regexp_like`,
 * `bin_to_uuid`, `json_table`…) is looked up as a stored function of the current database when it is called without
 * a database before it: any function the statement or the views it reads call that the database holds as a stored
 * function is refused, whatever the allow-list says. Names are what the guard read; `called` gathers them.
 */
async function storedFunctionShadow(conn: Connection, called: ReadonlySet<string>): Promise<GuardRefused | null> {
  if (called.size === 0) return null;
  const rows = (await call(conn, "SELECT ROUTINE_NAME AS name FROM information_schema.ROUTINES WHERE ROUTINE_SCHEMA = DATABASE() AND ROUTINE_TYPE = 'FUNCTION' AND LOWER(ROUTINE_NAME) IN (?)", [[...called]])) as Array<{ name: string }>;
  const hit = rows[0]?.name;
  if (hit === undefined) return null;
  return {
    ok: false,
    dialect: 'mysql',
    reason: 'forbidden_function',
    message: `argument 'sql' calls ${hit}(), which this database holds as a stored function (the server runs it, not a built-in of that name); only built-in functions are allowed`,
    detail: hit,
  };
}

async function checkViews(conn: Connection, guard: SqlGuard, tables: readonly string[], database: string, expected?: MysqlExpected, called?: Set<string>): Promise<GuardRefused | null> {
  const seen = new Set<string>();
  let pending = [...tables];
  while (pending.length > 0) {
    // A relation of another database is one this source does not index: its columns were never classified, so a
    // view reading one (a blocked column renamed there, a stored function called there) is refused outright.
    const foreign = pending.find((t) => {
      const m = /^`?([^`.]+)`?\./.exec(t);
      return m !== null && m[1]!.toLowerCase() !== database.toLowerCase();
    });
    if (foreign !== undefined) return refusedView(foreign, `argument 'sql' reads ${foreign} through a view, a relation of another database that this source does not index (its columns are not classified); query the indexed database's own tables`);
    const names = pending.map((t) => (t.includes('.') ? t.slice(t.indexOf('.') + 1) : t)).filter((t) => !seen.has(t.toLowerCase()));
    pending = [];
    if (names.length === 0) break;
    for (const n of names) seen.add(n.toLowerCase());
    if (seen.size > MAX_VIEWS_FOLLOWED) return refusedView('(many views)', `argument 'sql' reads more than ${MAX_VIEWS_FOLLOWED} views through one another; query their base tables instead`);
    const rows = (await call(conn, 'SELECT TABLE_NAME AS name, VIEW_DEFINITION AS def FROM information_schema.VIEWS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME IN (?)', [names])) as Array<{ name: string; def: string | null }>;
    for (const v of rows) {
      // A relation the catalog classified as a table that is now a view, or a view whose definition is not the one
      // indexed, reads other columns than the ones classified (drift since the index): the statement's own relations
      // and every view they read, at any depth (an outer view's text names an inner view only).
      const known = expected?.(String(v.name));
      if (known && (known.kind !== 'view' || (known.definition !== null && known.definition.replace(/\s+/g, ' ').trim() !== String(v.def ?? '').replace(/\s+/g, ' ').trim()))) {
        return {
          ok: false,
          dialect: 'mysql',
          reason: 'schema_drift',
          message: `${v.name} has changed since it was indexed (${known.kind !== 'view' ? 'it is now a view' : 'its definition is not the one the catalog classified'}); re-index the source, then run the query again`,
          detail: String(v.name),
        };
      }
      const g = guard.guard(String(v.def ?? ''), 'mysql');
      if (!g.ok) {
        return refusedView(
          v.name,
          `argument 'sql' reads the view ${v.name}, whose definition ${g.reason === 'forbidden_function' && g.detail ? `calls ${g.detail}, which is not on the allow-list of side-effect-free functions (a stored function can read any column or change server settings)` : 'the guard does not accept'}; query its base tables instead`,
        );
      }
      pending.push(...g.tables);
      for (const f of g.functions) called?.add(f.toLowerCase());
    }
  }
  return null;
}

/** What the catalog holds of a relation of the source's database, by name (undefined when it holds none). */
export type MysqlExpected = (name: string) => { readonly kind: string; readonly definition: string | null } | undefined;

function refusedView(name: string, message: string): GuardRefused {
  return { ok: false, dialect: 'mysql', reason: 'forbidden_function', message, detail: name };
}

/** Layers 2 and 3 only (no parser guard), exported so each layer can be tested alone. */
export async function executeReadOnlyMysql(
  target: MysqlExecTarget,
  sql: string,
  params: readonly unknown[],
  caps: Partial<QueryCaps>,
  meta: ExecuteMeta,
  views?: { readonly guard: SqlGuard; readonly tables: readonly string[]; readonly functions?: readonly string[]; readonly expected?: MysqlExpected },
): Promise<QueryOutcome> {
  const timeoutMs = intMs(caps.timeoutMs ?? DEFAULT_CAPS.timeoutMs, 'timeoutMs');
  const maxRows = caps.maxRows ?? DEFAULT_CAPS.maxRows;
  const budget = new RowBudget(maxRows, caps.maxBytes ?? DEFAULT_CAPS.maxBytes);
  const signal = caps.signal;
  const started = performance.now();
  if (signal?.aborted) return { ok: false, kind: 'cancelled', message: 'the query was cancelled before it started', code: null };
  let conn: Connection;
  try {
    // utf8mb4 whatever the source URL says, and SET NAMES below whatever init_connect did: with a client character
    // set such as gbk or sjis a backslash can be the second byte of a character, so the server would end a string
    // the guard read as going on.
    conn = await connect({ ...target.options, charset: 'utf8mb4', multipleStatements: false, rowsAsArray: false });
  } catch (e) {
    return classifyMysqlError(e);
  }
  conn.on('error', () => undefined);
  let threadId: number | null = null;
  let stopped: 'timeout' | 'cancelled' | null = null;
  const kill = (why: 'timeout' | 'cancelled'): void => {
    if (stopped) return;
    stopped = why;
    hardClose(conn);
    // The server keeps running a statement whose client went away until it next writes; KILL QUERY stops it now.
    if (threadId !== null) {
      const id = threadId;
      void connect(target.options)
        .then((k) => call(k, `KILL QUERY ${Number(id)}`).finally(() => k.destroy()))
        .catch(() => undefined);
    }
  };
  const onAbort = (): void => kill('cancelled');
  signal?.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => kill('timeout'), timeoutMs + 1000);
  try {
    const [facts] = (await call(conn, 'SELECT VERSION() AS v, @@SESSION.sql_mode AS m, CONNECTION_ID() AS id, DATABASE() AS db')) as Array<{ v: string; m: string; id: number | string; db: string | null }>;
    threadId = Number(facts?.id);
    const mariadb = /mariadb/i.test(facts?.v ?? '');
    // One SET for the session settings: fewer round trips on a connection that lives for one statement.
    const limit = mariadb ? `max_statement_time = ${timeoutMs / 1000}` : `max_execution_time = ${timeoutMs}`;
    await call(conn, `SET NAMES utf8mb4, SESSION sql_mode = ?, SESSION ${limit}, SESSION sql_select_limit = ${Math.floor(maxRows) + 1}`, [pinnedSqlMode(String(facts?.m ?? ''))]);
    await call(conn, 'START TRANSACTION READ ONLY');
    if (views) {
      const called = new Set((views.functions ?? []).map((f) => f.toLowerCase()));
      const refusal = await checkViews(conn, views.guard, views.tables, String(facts?.db ?? target.options.database ?? ''), views.expected, called);
      if (refusal) return { ok: false, kind: 'refused', guard: refusal };
      const shadow = await storedFunctionShadow(conn, called);
      if (shadow) return { ok: false, kind: 'refused', guard: shadow };
    }

    let fields: FieldPacket[] = [];
    // The result's bytes as they arrive, before the driver assembles a row: past the budget the rest is not read.
    const stream = (conn as unknown as { stream?: NodeJS.EventEmitter }).stream;
    let onData: ((chunk: Buffer) => void) | undefined;
    await new Promise<void>((resolve, reject) => {
      let done = false;
      const finish = (err?: unknown): void => {
        if (done) return;
        done = true;
        if (err) reject(err);
        else resolve();
      };
      let wire = 0;
      const budgetBytes = wireBudget(budget.maxBytes);
      onData = (chunk: Buffer): void => {
        wire += chunk.length;
        if (wire <= budgetBytes || done) return;
        budget.truncatedBy = 'bytes';
        hardClose(conn);
        finish();
      };
      stream?.prependListener('data', onData);
      const q = conn.query({ sql, values: params as unknown[], rowsAsArray: true });
      q.on('fields', (f: FieldPacket[]) => {
        fields = f;
      });
      q.on('result', (row: unknown) => {
        if (done) return;
        if (!Array.isArray(row)) return; // an OK packet: not a row
        if (!budget.take([row.map(toJsonValue)])) {
          // Cap reached: stop reading; the connection is discarded below, so the rest is never decoded.
          conn.pause();
          finish();
        }
      });
      q.on('error', (e: unknown) => finish(e));
      q.on('end', () => finish());
    }).finally(() => {
      if (onData) stream?.removeListener('data', onData);
    });
    if (stopped) throw new Error(stopped);
    // No ROLLBACK round trip: the connection is closed below, which rolls the read-only transaction back.
    const columns: ResultColumn[] = fields.map((f) => ({ name: f.name, dataType: typeName(f.columnType ?? (f as { type?: number }).type) }));
    return { ok: true, result: budget.result(columns, started, meta) };
  } catch (e) {
    if (stopped === 'cancelled') return { ok: false, kind: 'cancelled', message: 'the query was cancelled', code: null };
    if (stopped === 'timeout') return { ok: false, kind: 'timeout', message: `the statement ran past ${timeoutMs} ms`, code: null };
    return classifyMysqlError(e);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
    // One connection per statement: closing it ends the transaction (rolled back) and every bit of session state.
    // A clean COM_QUIT lets the server release named locks and temporary tables at once; a connection cut by a cap
    // or a cancel is destroyed instead.
    if (stopped || budget.truncatedBy !== null) hardClose(conn);
    else await new Promise<void>((resolve) => conn.end(() => resolve())).catch(() => conn.destroy());
  }
}

/** ` IGNORE INDEX (`a`, `b`)` as maskMysql writes it into its own derived tables. */
const MASK_INDEX_HINT = / IGNORE INDEX \((?:`(?:[^`]|``)+`(?:, )?)+\)/g;

/**
 * All three layers: guard, then the READ ONLY transaction with caps on a fresh connection. `execSql` is what
 * maskMysql ran the statement as (the guarded `sql` with its index hints); it runs only if it is `sql` with nothing
 * but such hints added.
 */
export async function runReadOnlyMysql(target: MysqlExecTarget, guard: SqlGuard, sql: string, params: readonly unknown[] = [], caps: Partial<QueryCaps> = {}, execSql?: string, expected?: MysqlExpected): Promise<QueryOutcome> {
  const g = guard.guard(sql, 'mysql');
  if (!g.ok) return { ok: false, kind: 'refused', guard: g };
  if (execSql !== undefined && execSql.replace(MASK_INDEX_HINT, '') !== sql) {
    return { ok: false, kind: 'refused', guard: { ok: false, dialect: 'mysql', reason: 'invalid_input', message: 'the masked statement could not be run safely', detail: null } };
  }
  return executeReadOnlyMysql(target, execSql ?? sql, params, caps, { statementKind: g.statementKind, fingerprint: g.fingerprint }, { guard, tables: g.tables, functions: g.functions, ...(expected ? { expected } : {}) });
}
