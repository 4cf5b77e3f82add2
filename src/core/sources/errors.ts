import { displaySource, redactSecrets, type SourceSpec } from './locator';

/**
 * Driver errors are classified once, here, into a small closed set that the indexer and the tools map onto charter
 * error kinds. Messages name the host or file and say what to do next; they never carry a password, even when a
 * driver echoes the connection string back.
 */

export type SourceErrorCode =
  | 'unreachable'
  | 'auth_failed'
  | 'database_missing'
  | 'file_missing'
  | 'not_sqlite'
  | 'schema_missing'
  | 'permission_denied'
  | 'timeout'
  | 'cancelled'
  | 'other';

export interface ClassifiedError {
  readonly code: SourceErrorCode;
  readonly message: string;
  readonly hint: string;
}

/** An expected failure to read a source; `message` and `hint` are safe to show and log. */
export class SourceError extends Error implements ClassifiedError {
  override readonly name = 'SourceError';
  constructor(
    readonly code: SourceErrorCode,
    message: string,
    readonly hint: string,
  ) {
    super(message);
  }
}

interface ErrorLike {
  readonly code?: unknown;
  readonly errno?: unknown;
  readonly name?: unknown;
  readonly message?: unknown;
  readonly syscall?: unknown;
}

/** PostgreSQL SQLSTATE codes: https://www.postgresql.org/docs/current/errcodes-appendix.html */
const PG_AUTH = new Set(['28P01', '28000']);
const PG_UNAVAILABLE = new Set(['57P01', '57P02', '57P03', '53300', '08000', '08001', '08003', '08004', '08006']);
const NET_UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ECONNRESET', 'EPIPE']);

export function classifyDriverError(err: unknown, spec: SourceSpec, secrets: readonly (string | undefined)[] = []): ClassifiedError {
  if (err instanceof SourceError) return { code: err.code, message: safe(err.message, spec, secrets), hint: safe(err.hint, spec, secrets) };
  const e = (typeof err === 'object' && err !== null ? err : { message: String(err) }) as ErrorLike;
  const code = typeof e.code === 'string' ? e.code : '';
  const raw = typeof e.message === 'string' ? e.message : String(err);
  const detail = safe(raw, spec, secrets);
  const where = displaySource(spec);
  const out = (c: SourceErrorCode, message: string, hint: string): ClassifiedError => ({
    code: c,
    message: safe(message, spec, secrets),
    hint: safe(hint, spec, secrets),
  });

  if (e.name === 'AbortError' || code === 'ABORT_ERR') {
    return out('cancelled', `reading ${where} was cancelled`, 'Start indexing again when ready.');
  }

  if (spec.engine === 'sqlite') {
    const file = spec.path;
    if (code === 'ENOENT') return out('file_missing', `SQLite file ${file} does not exist`, 'Check the path, or create the database first.');
    if (code === 'EISDIR') return out('not_sqlite', `${file} is a directory, not a SQLite file`, 'Point the source at the database file inside it.');
    if (code === 'EACCES' || code === 'EPERM') {
      return out('permission_denied', `no permission to read SQLite file ${file}`, 'Grant read access to the file for the user running SchemaBrain.');
    }
    if (/file is not a database|file is encrypted|malformed|not a sqlite/i.test(raw)) {
      return out('not_sqlite', `${file} is not a readable SQLite database (${detail})`, 'Check that the file is a SQLite 3 database and is not encrypted or truncated.');
    }
    return out('other', `reading SQLite file ${file} failed: ${detail}`, 'Open the file with the sqlite3 shell to check it, then retry.');
  }

  if (spec.engine === 'mysql') return classifyMysql(code, raw, detail, spec, out);

  const host = `${spec.host}:${spec.port}`;
  if (PG_AUTH.has(code)) {
    const noHba = /pg_hba\.conf/i.test(raw);
    return out(
      'auth_failed',
      noHba
        ? `PostgreSQL at ${host} refused user '${spec.user}' for database '${spec.database}' (no pg_hba.conf entry): ${detail}`
        : `PostgreSQL at ${host} rejected the credentials of user '${spec.user}': ${detail}`,
      noHba
        ? 'Ask the administrator to allow this client in pg_hba.conf, or try sslmode=require.'
        : 'Check the user name and password (SchemaBrain: Set Source Password, a ${ENV} reference in the URL, or ~/.pgpass).',
    );
  }
  // node-postgres, asked for a password it does not have (SCRAM or MD5 authentication without one).
  if (/client password must be a string|password must be a string|password authentication/i.test(raw) && !code) {
    return out('auth_failed', `PostgreSQL at ${host} asks for a password for user '${spec.user}' and none was given`, 'Give the password (the editor asks for it; on the command line use --password-stdin, a ${ENV} reference in the URL, PGPASSWORD or ~/.pgpass).');
  }
  if (code === '3D000') {
    return out('database_missing', `database '${spec.database}' does not exist on ${host}`, 'Check the database name in the URL; list databases with \\l in psql.');
  }
  if (code === '42501') {
    return out('permission_denied', `user '${spec.user}' lacks a privilege on ${host}/${spec.database}: ${detail}`, 'Grant the user CONNECT and USAGE on the schemas to index (pg_read_all_data covers everything).');
  }
  if (code === '57014') {
    return /statement timeout/i.test(raw)
      ? out('timeout', `a catalog query on ${host}/${spec.database} hit the statement timeout`, 'Raise the statement timeout, or index fewer schemas at a time.')
      : out('cancelled', `a query on ${host}/${spec.database} was cancelled`, 'Start indexing again when ready.');
  }
  if (code === 'ETIMEDOUT' || /timeout expired|connection timeout|timed out/i.test(raw)) {
    return out('timeout', `connecting to PostgreSQL at ${host} timed out`, 'Check that the host is reachable from this machine (VPN, firewall) and the port is right.');
  }
  if (NET_UNREACHABLE.has(code) || PG_UNAVAILABLE.has(code) || /terminated unexpectedly|connect ECONNREFUSED|getaddrinfo/i.test(raw)) {
    return out(
      'unreachable',
      `cannot reach PostgreSQL at ${host}: ${detail}`,
      code === 'ENOTFOUND' || code === 'EAI_AGAIN'
        ? `Check the host name '${spec.host}'.`
        : 'Check that the server is running and listening on that host and port.',
    );
  }
  if (/does not support SSL|SSL/i.test(raw)) {
    return out('other', `SSL negotiation with ${host} failed: ${detail}`, 'Adjust sslmode in the URL (disable, require, verify-full).');
  }
  return out('other', `PostgreSQL error on ${host}/${spec.database}: ${detail}`, 'Retry; if it persists, run the failing catalog query in psql to see the full error.');
}

/** mysql2 error codes are the server's symbolic names (https://dev.mysql.com/doc/mysql-errors/8.0/en/server-error-reference.html). */
function classifyMysql(
  code: string,
  raw: string,
  detail: string,
  spec: Extract<SourceSpec, { engine: 'mysql' }>,
  out: (c: SourceErrorCode, message: string, hint: string) => ClassifiedError,
): ClassifiedError {
  const host = `${spec.host}:${spec.port}`;
  if (code === 'ER_ACCESS_DENIED_ERROR' || code === 'ER_ACCESS_DENIED_NO_PASSWORD_ERROR' || code === 'ER_NOT_SUPPORTED_AUTH_MODE') {
    return out('auth_failed', `MySQL at ${host} rejected the credentials of user '${spec.user}': ${detail}`, 'Check the user name and password (SchemaBrain: Set Source Password, a ${ENV} reference in the URL, or --password-stdin).');
  }
  if (code === 'ER_BAD_DB_ERROR') return out('database_missing', `database '${spec.database}' does not exist on ${host}`, 'Check the database name in the URL; list databases with SHOW DATABASES.');
  if (code === 'ER_DBACCESS_DENIED_ERROR' || code === 'ER_TABLEACCESS_DENIED_ERROR' || code === 'ER_SPECIFIC_ACCESS_DENIED_ERROR') {
    return out('permission_denied', `user '${spec.user}' lacks a privilege on ${host}/${spec.database}: ${detail}`, 'Grant the user SELECT (and SHOW VIEW for views) on the databases to index.');
  }
  if (code === 'ER_STATEMENT_TIMEOUT' || code === 'ER_QUERY_TIMEOUT' || /max_statement_time|maximum statement execution time/i.test(raw)) {
    return out('timeout', `a catalog query on ${host} hit the statement time limit`, 'Raise the statement timeout, or index fewer databases at a time.');
  }
  if (code === 'ETIMEDOUT' || /connect ETIMEDOUT|timed out/i.test(raw)) {
    return out('timeout', `connecting to MySQL at ${host} timed out`, 'Check that the host is reachable from this machine (VPN, firewall) and the port is right.');
  }
  if (NET_UNREACHABLE.has(code) || code === 'PROTOCOL_CONNECTION_LOST' || /connect ECONNREFUSED|getaddrinfo/i.test(raw)) {
    return out('unreachable', `cannot reach MySQL at ${host}: ${detail}`, code === 'ENOTFOUND' || code === 'EAI_AGAIN' ? `Check the host name '${spec.host}'.` : 'Check that the server is running and listening on that host and port.');
  }
  return out('other', `MySQL error on ${host}/${spec.database}: ${detail}`, 'Retry; if it persists, run the failing catalog query in the mysql client to see the full error.');
}

/** Wraps anything thrown while reading a source into a `SourceError` with a safe message. */
export function toSourceError(err: unknown, spec: SourceSpec, secrets: readonly (string | undefined)[] = []): SourceError {
  if (err instanceof SourceError) return err;
  const c = classifyDriverError(err, spec, secrets);
  return new SourceError(c.code, c.message, c.hint);
}

function safe(text: string, spec: SourceSpec, secrets: readonly (string | undefined)[]): string {
  return redactSecrets(text, [spec.engine !== 'sqlite' ? spec.password : undefined, ...secrets]);
}
