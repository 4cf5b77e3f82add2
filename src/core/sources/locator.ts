import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';

/**
 * An unencoded `/`, `#`, `?` or `@` in a password cuts the URL in the wrong place: part of the password is then read
 * as the port or a parameter. Such text is never echoed in an error; this says how to write the password instead.
 */
const ENCODE_HINT = "If the password holds '/', '#', '?' or '@', percent-encode them (%2F, %23, %3F, %40), or give it with --password-stdin.";

/** A parameter name as written when it looks like one; otherwise not shown (it may be part of a password). */
function shownKey(key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]{0,39}$/.test(key) ? `'${key}'` : '(a name that may be part of a password; not shown)';
}
import { inspect } from 'node:util';

/**
 * Source specs: what the user typed (a PostgreSQL URL or a SQLite path) turned into a typed, credential-aware value.
 *
 * The password never appears in the canonical `locator`, in `id`, in JSON or in `util.inspect` output: it is a
 * non-enumerable property, and `toJSON` / `inspect` produce a masked view. `${ENV_VAR}` references are expanded
 * from the given environment so a URL can be stored or passed around without the secret in it.
 */

export type SourceSpecErrorCode =
  | 'empty_input'
  | 'malformed_url'
  | 'unsupported_engine'
  | 'unsupported_feature'
  | 'invalid_port'
  | 'invalid_parameter'
  | 'missing_credential';

export class SourceSpecError extends Error {
  override readonly name = 'SourceSpecError';
  constructor(
    readonly code: SourceSpecErrorCode,
    message: string,
    /** What the user can do next. */
    readonly hint: string,
  ) {
    super(message);
  }
}

export interface PostgresSourceSpec {
  readonly engine: 'postgres';
  readonly name: string;
  readonly host: string;
  readonly port: number;
  readonly database: string;
  readonly user: string;
  /** Non-enumerable; never serialised. `undefined` means "ask elsewhere" (SecretStorage, pgpass, PGPASSWORD). */
  readonly password: string | undefined;
  /** Connection parameters other than credentials (`sslmode`, `application_name`, `connect_timeout`, …). */
  readonly params: Readonly<Record<string, string>>;
  /** Credential-free canonical form: `postgres://host:port/db`. */
  readonly locator: string;
  readonly id: string;
  toJSON(): Record<string, unknown>;
}

export interface SqliteSourceSpec {
  readonly engine: 'sqlite';
  readonly name: string;
  /** Absolute path of the database file. */
  readonly path: string;
  /** Same as `path`: SQLite files carry no credentials. */
  readonly locator: string;
  readonly id: string;
  toJSON(): Record<string, unknown>;
}

export interface MysqlSourceSpec {
  readonly engine: 'mysql';
  /** The scheme as written (`mysql` or `mariadb`); the server's own flavour is read at connection time. */
  readonly scheme: 'mysql' | 'mariadb';
  readonly name: string;
  readonly host: string;
  readonly port: number;
  /** Default database; empty means every non-system database on the server. */
  readonly database: string;
  readonly user: string;
  /** Non-enumerable; never serialised. `undefined` means "ask elsewhere" (SecretStorage, a prompt). */
  readonly password: string | undefined;
  /** Connection parameters other than credentials (`ssl-mode`, `connect_timeout`, `charset`). */
  readonly params: Readonly<Record<string, string>>;
  /** Credential-free canonical form: `mysql://host:port/db` (or `mariadb://…`). */
  readonly locator: string;
  readonly id: string;
  toJSON(): Record<string, unknown>;
}

export type SourceSpec = PostgresSourceSpec | SqliteSourceSpec | MysqlSourceSpec;

export interface ParseSourceSpecOptions {
  /** Display name of the source; default: the database name (PostgreSQL) or the file's base name (SQLite). */
  readonly name?: string;
  /** Where `${VAR}` references are looked up; default `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
  /** Base for relative SQLite paths; default `process.cwd()`. */
  readonly cwd?: string;
}

export const DEFAULT_PG_PORT = 5432;
export const DEFAULT_MYSQL_PORT = 3306;
/** MySQL client URL parameters we accept (https://dev.mysql.com/doc/refman/8.0/en/connecting-using-uri-or-key-value-pairs.html). */
const KNOWN_MYSQL_PARAMS = new Set(['ssl-mode', 'sslmode', 'ssl-ca', 'connect_timeout', 'charset']);
const MYSQL_SSL_MODES = new Set(['disabled', 'preferred', 'required', 'verify_ca', 'verify_identity']);
const PASSWORD_MASK = '***';
const SSL_MODES = new Set(['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full']);
/** libpq URL parameters that we accept; anything else is rejected so typos do not pass silently. */
const KNOWN_PG_PARAMS = new Set([
  'sslmode',
  'sslrootcert',
  'sslcert',
  'sslkey',
  'application_name',
  'connect_timeout',
  'options',
  'target_session_attrs',
  'statement_timeout',
]);
const ENV_REF = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** First 16 hex characters of sha256 over the credential-free locator. */
export function sourceId(locator: string): string {
  return createHash('sha256').update(locator, 'utf8').digest('hex').slice(0, 16);
}

export function parseSourceSpec(input: string, opts: ParseSourceSpecOptions = {}): SourceSpec {
  const env = opts.env ?? process.env;
  const text = (input ?? '').trim();
  if (!text) {
    throw new SourceSpecError(
      'empty_input',
      'source is empty',
      'Give a PostgreSQL URL (postgres://user@host:5432/db) or the path of a SQLite file.',
    );
  }
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(text)?.[1]?.toLowerCase();
  // A Windows drive letter (`C:\db.sqlite`) looks like a one-letter scheme.
  if (scheme && scheme.length > 1) {
    const base = scheme.split('+')[0];
    if (base === 'postgres' || base === 'postgresql') return parsePostgresUrl(text, env, opts.name);
    if (base === 'mysql' || base === 'mariadb') return parseMysqlUrl(text, base, env, opts.name);
    if (scheme === 'sqlite' || scheme === 'sqlite3' || scheme === 'file') {
      return makeSqliteSpec(sqliteUrlToPath(text, scheme), env, opts);
    }
    if (text.slice(scheme.length, scheme.length + 3) === '://') {
      throw new SourceSpecError(
        'unsupported_engine',
        `engine '${scheme}' is not supported`,
        'SchemaBrain reads PostgreSQL (postgres://…), MySQL/MariaDB (mysql://… or mariadb://…) and SQLite (a file path or sqlite:path) sources.',
      );
    }
  }
  return makeSqliteSpec(text, env, opts);
}

/** Password-free string for messages and UI: `user@host:port/db` or the SQLite path. */
export function displaySource(spec: SourceSpec): string {
  if (spec.engine === 'sqlite') return spec.path;
  return `${spec.user}@${formatHost(spec.host)}:${spec.port}/${spec.database}`;
}

/**
 * Replaces every occurrence of each secret (and its URL-encoded form) with `***`, and masks passwords in any
 * URL userinfo (`scheme://user:pw@`) or `password=` pair, so text from drivers and users can be logged.
 */
export function redactSecrets(text: string, secrets: readonly (string | undefined | null)[] = []): string {
  let out = text;
  const forms = new Set<string>();
  for (const s of secrets) {
    if (!s) continue;
    forms.add(s);
    forms.add(encodeURIComponent(s));
  }
  for (const s of [...forms].sort((a, b) => b.length - a.length)) out = out.split(s).join(PASSWORD_MASK);
  out = out.replace(/([A-Za-z][A-Za-z0-9+.-]*:\/\/[^:/?#@\s]*):([^@\s/]*)@/g, (_m, head: string) => `${head}:${PASSWORD_MASK}@`);
  out = out.replace(/\b(password|passwd|pwd)(\s*[=:]\s*)('[^']*'|"[^"]*"|[^\s&;,]+)/gi, (_m, k: string, sep: string) => `${k}${sep}${PASSWORD_MASK}`);
  return out;
}

function parsePostgresUrl(text: string, env: NodeJS.ProcessEnv, name: string | undefined): PostgresSourceSpec {
  const shown = redactSecrets(text);
  const m = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/?#]*)(?:\/([^?#]*))?(?:\?([^#]*))?(?:#.*)?$/.exec(text);
  if (!m) {
    throw new SourceSpecError('malformed_url', `'${shown}' is not a valid PostgreSQL URL`, 'Use the form postgres://user@host:5432/database.');
  }
  const authority = m[1] ?? '';
  const at = authority.lastIndexOf('@');
  const userinfo = at >= 0 ? authority.slice(0, at) : '';
  const hostport = at >= 0 ? authority.slice(at + 1) : authority;
  const colon = userinfo.indexOf(':');
  const rawUser = colon >= 0 ? userinfo.slice(0, colon) : userinfo;
  const rawPassword = colon >= 0 ? userinfo.slice(colon + 1) : undefined;

  if (hostport.includes(',')) {
    throw new SourceSpecError(
      'unsupported_feature',
      `'${shown}' lists several hosts`,
      'Give one host; multi-host failover URLs are not supported.',
    );
  }
  let host: string;
  let portText: string | undefined;
  const v6 = /^\[([^\]]+)\](?::(.*))?$/.exec(hostport);
  if (v6) {
    host = expand(v6[1] ?? '', env, 'host', shown);
    portText = v6[2];
  } else {
    const c = hostport.lastIndexOf(':');
    host = expand(c >= 0 ? hostport.slice(0, c) : hostport, env, 'host', shown);
    portText = c >= 0 ? hostport.slice(c + 1) : undefined;
  }

  const params: Record<string, string> = {};
  let paramPassword: string | undefined;
  let paramUser: string | undefined;
  for (const pair of (m[3] ?? '').split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const key = decode(eq >= 0 ? pair.slice(0, eq) : pair, shown);
    const value = expand(eq >= 0 ? pair.slice(eq + 1).replace(/\+/g, ' ') : '', env, `parameter '${key}'`, shown);
    if (key === 'password') paramPassword = value;
    else if (key === 'user') paramUser = value;
    else if (key === 'host' && !host) host = value;
    else if (key === 'port' && !portText) portText = value;
    else if (key === 'dbname') params.dbname = value;
    else if (KNOWN_PG_PARAMS.has(key)) params[key] = value;
    else {
      throw new SourceSpecError(
        'invalid_parameter',
        `URL parameter ${shownKey(key)} is not supported`,
        `Supported parameters: ${[...KNOWN_PG_PARAMS].join(', ')}. ${ENCODE_HINT}`,
      );
    }
  }
  if (params.sslmode !== undefined && !SSL_MODES.has(params.sslmode)) {
    throw new SourceSpecError(
      'invalid_parameter',
      `sslmode '${params.sslmode}' is not valid`,
      `Use one of ${[...SSL_MODES].join(', ')}.`,
    );
  }

  let port = DEFAULT_PG_PORT;
  if (portText !== undefined && portText !== '') {
    const expanded = expand(portText, env, 'port', shown);
    port = /^\d{1,5}$/.test(expanded) ? Number(expanded) : NaN;
    if (!(port >= 1 && port <= 65535)) {
      throw new SourceSpecError('invalid_port', 'the port is not a number between 1 and 65535', `Fix the port in the URL, e.g. :5432. ${ENCODE_HINT}`);
    }
  }

  const user = (rawUser ? expand(rawUser, env, 'user name', shown) : paramUser) || env.PGUSER || safeOsUser();
  const password = rawPassword !== undefined ? expand(rawPassword, env, 'password', shown) : paramPassword;
  const fromPath = m[2] !== undefined ? expand(m[2], env, 'database name', shown) : '';
  const database = fromPath || params.dbname || user;
  delete params.dbname;
  host = host ? host.toLowerCase() : 'localhost';
  const locator = `postgres://${formatHost(host)}:${port}/${encodeURIComponent(database)}`;

  const spec = {
    engine: 'postgres' as const,
    name: name?.trim() || database,
    host,
    port,
    database,
    user,
    params: Object.freeze(params),
    locator,
    id: sourceId(locator),
  };
  return finish(spec, password);
}

/**
 * `mysql://user:pw@host:3306/db?ssl-mode=REQUIRED`, `mariadb://…` (same form). The path names the default database;
 * without one every non-system database is read. Credentials follow the PostgreSQL rules: `${VAR}` references are
 * expanded, and the password is kept off every serialised form.
 */
function parseMysqlUrl(text: string, scheme: 'mysql' | 'mariadb', env: NodeJS.ProcessEnv, name: string | undefined): MysqlSourceSpec {
  const shown = redactSecrets(text);
  const m = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/?#]*)(?:\/([^?#]*))?(?:\?([^#]*))?(?:#.*)?$/.exec(text);
  if (!m) {
    throw new SourceSpecError('malformed_url', `'${shown}' is not a valid MySQL URL`, `Use the form ${scheme}://user@host:3306/database.`);
  }
  const authority = m[1] ?? '';
  const at = authority.lastIndexOf('@');
  const userinfo = at >= 0 ? authority.slice(0, at) : '';
  const hostport = at >= 0 ? authority.slice(at + 1) : authority;
  const colon = userinfo.indexOf(':');
  const rawUser = colon >= 0 ? userinfo.slice(0, colon) : userinfo;
  const rawPassword = colon >= 0 ? userinfo.slice(colon + 1) : undefined;
  if (hostport.includes(',')) {
    throw new SourceSpecError('unsupported_feature', `'${shown}' lists several hosts`, 'Give one host; multi-host URLs are not supported.');
  }
  const v6 = /^\[([^\]]+)\](?::(.*))?$/.exec(hostport);
  const c = hostport.lastIndexOf(':');
  let host = expand(v6 ? (v6[1] ?? '') : c >= 0 ? hostport.slice(0, c) : hostport, env, 'host', shown);
  const portText = v6 ? v6[2] : c >= 0 ? hostport.slice(c + 1) : undefined;
  const params: Record<string, string> = {};
  let paramPassword: string | undefined;
  let paramUser: string | undefined;
  for (const pair of (m[3] ?? '').split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const key = decode(eq >= 0 ? pair.slice(0, eq) : pair, shown).toLowerCase();
    const value = expand(eq >= 0 ? pair.slice(eq + 1).replace(/\+/g, ' ') : '', env, `parameter '${key}'`, shown);
    if (key === 'password') paramPassword = value;
    else if (key === 'user') paramUser = value;
    else if (KNOWN_MYSQL_PARAMS.has(key)) params[key === 'sslmode' ? 'ssl-mode' : key] = value;
    else {
      throw new SourceSpecError('invalid_parameter', `URL parameter ${shownKey(key)} is not supported`, `Supported parameters: ${[...KNOWN_MYSQL_PARAMS].join(', ')}. ${ENCODE_HINT}`);
    }
  }
  if (params['ssl-mode'] !== undefined && !MYSQL_SSL_MODES.has(params['ssl-mode'].toLowerCase())) {
    throw new SourceSpecError('invalid_parameter', `ssl-mode '${params['ssl-mode']}' is not valid`, `Use one of ${[...MYSQL_SSL_MODES].map((x) => x.toUpperCase()).join(', ')}.`);
  }
  let port = DEFAULT_MYSQL_PORT;
  if (portText !== undefined && portText !== '') {
    const expanded = expand(portText, env, 'port', shown);
    port = /^\d{1,5}$/.test(expanded) ? Number(expanded) : NaN;
    if (!(port >= 1 && port <= 65535)) {
      throw new SourceSpecError('invalid_port', 'the port is not a number between 1 and 65535', `Fix the port in the URL, e.g. :3306. ${ENCODE_HINT}`);
    }
  }
  const user = (rawUser ? expand(rawUser, env, 'user name', shown) : paramUser) || safeOsUser();
  const password = rawPassword !== undefined ? expand(rawPassword, env, 'password', shown) : paramPassword;
  const database = m[2] !== undefined ? expand(m[2].replace(/\/+$/, ''), env, 'database name', shown) : '';
  if (database.includes('/')) {
    throw new SourceSpecError('malformed_url', `'${shown}' names a database with a '/'`, 'Give one database after the host, e.g. /sakila.');
  }
  host = host ? host.toLowerCase() : 'localhost';
  const locator = `${scheme}://${formatHost(host)}:${port}/${encodeURIComponent(database)}`;
  const spec = {
    engine: 'mysql' as const,
    scheme,
    name: name?.trim() || database || `${host}:${port}`,
    host,
    port,
    database,
    user,
    params: Object.freeze(params),
    locator,
    id: sourceId(locator),
  };
  return finish(spec, password);
}

function sqliteUrlToPath(text: string, scheme: string): string {
  let rest = text.slice(scheme.length + 1);
  const q = rest.search(/[?#]/);
  if (q >= 0) rest = rest.slice(0, q);
  // sqlite:///abs, file:///abs, file://localhost/abs → /abs; sqlite://rel → rel; sqlite:rel → rel.
  if (rest.startsWith('//')) {
    rest = rest.slice(2);
    if (rest.startsWith('localhost/')) rest = rest.slice('localhost'.length);
  }
  try {
    return decodeURIComponent(rest);
  } catch {
    throw new SourceSpecError('malformed_url', `'${text}' has an invalid percent-encoding`, 'Write the path without % escapes, or escape % as %25.');
  }
}

function makeSqliteSpec(rawPath: string, env: NodeJS.ProcessEnv, opts: ParseSourceSpecOptions): SqliteSourceSpec {
  let p = expand(rawPath, env, 'path', rawPath, false);
  if (!p) {
    throw new SourceSpecError('empty_input', 'SQLite path is empty', 'Give the path of a SQLite database file.');
  }
  if (p === '~' || p.startsWith('~/')) p = path.join(os.homedir(), p.slice(1));
  const abs = path.resolve(opts.cwd ?? process.cwd(), p);
  const spec = {
    engine: 'sqlite' as const,
    name: opts.name?.trim() || path.basename(abs).replace(/\.(sqlite3?|db3?|s3db)$/i, '') || abs,
    path: abs,
    locator: abs,
    id: sourceId(abs),
  };
  return finish(spec, undefined);
}

type Plain<T> = Omit<T, 'toJSON' | 'password'>;

function finish(spec: Plain<PostgresSourceSpec>, password: string | undefined): PostgresSourceSpec;
function finish(spec: Plain<MysqlSourceSpec>, password: string | undefined): MysqlSourceSpec;
function finish(spec: Plain<SqliteSourceSpec>, password: undefined): SqliteSourceSpec;
function finish(spec: Plain<PostgresSourceSpec> | Plain<MysqlSourceSpec> | Plain<SqliteSourceSpec>, password: string | undefined): SourceSpec {
  const masked = (): Record<string, unknown> =>
    spec.engine !== 'sqlite' ? { ...spec, password: password === undefined ? undefined : PASSWORD_MASK } : { ...spec };
  const out = { ...spec } as Record<string | symbol, unknown>;
  if (spec.engine !== 'sqlite') Object.defineProperty(out, 'password', { value: password, enumerable: false });
  Object.defineProperty(out, 'toJSON', { value: masked, enumerable: false });
  Object.defineProperty(out, inspect.custom, {
    value: (_depth: number, options: object) => `SourceSpec ${inspect(masked(), options)}`,
    enumerable: false,
  });
  return Object.freeze(out) as unknown as SourceSpec;
}

/** Percent-decodes the literal parts and substitutes `${VAR}` references (values taken verbatim). */
function expand(raw: string, env: NodeJS.ProcessEnv, what: string, shown: string, percentDecode = true): string {
  let out = '';
  let last = 0;
  for (const m of raw.matchAll(ENV_REF)) {
    const literal = raw.slice(last, m.index);
    out += percentDecode ? decode(literal, shown) : literal;
    const name = m[1] as string;
    const value = env[name];
    if (value === undefined || value === '') {
      throw new SourceSpecError(
        'missing_credential',
        `environment variable ${name} (used for the ${what}) is not set`,
        `Set ${name} in the environment that runs SchemaBrain, or store the credential in VS Code's secret storage.`,
      );
    }
    out += value;
    last = (m.index ?? 0) + m[0].length;
  }
  const tail = raw.slice(last);
  return out + (percentDecode ? decode(tail, shown) : tail);
}

function decode(s: string, shown: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    throw new SourceSpecError('malformed_url', `'${shown}' has an invalid percent-encoding`, 'Escape special characters in the user name or password with %XX.');
  }
}

function formatHost(host: string): string {
  return host.includes(':') && !host.startsWith('/') ? `[${host}]` : host;
}

function safeOsUser(): string {
  try {
    return os.userInfo().username;
  } catch {
    return 'postgres';
  }
}
