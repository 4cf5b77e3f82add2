/** A saved connection as it lives in settings: never a password (that is in SecretStorage). */
export interface ConnectionConfig {
  readonly name: string;
  readonly engine: 'postgres' | 'sqlite' | 'mysql';
  readonly host?: string;
  readonly port?: number;
  /** PostgreSQL: the database (default `postgres`). MySQL/MariaDB: the default database, or empty for all of them. */
  readonly database?: string;
  readonly user?: string;
  /** PostgreSQL `sslmode` values, or MySQL `ssl-mode` values in lower case. */
  readonly sslmode?: 'disable' | 'prefer' | 'require' | 'verify-ca' | 'verify-full' | 'preferred' | 'disabled' | 'required' | 'verify_ca' | 'verify_identity';
  /** SQLite: absolute path of the database file. */
  readonly file?: string;
  readonly hasPassword?: boolean;
  /** Where the connection is defined (not stored): the user's settings (default) or the workspace's. */
  readonly origin?: 'workspace';
}

export const CONNECTION_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;

export function validateConnectionName(name: string, taken: readonly string[]): string | undefined {
  if (!CONNECTION_NAME_PATTERN.test(name)) return 'Use 1-64 letters, digits, dot, dash or underscore.';
  if (taken.includes(name)) return `A connection named '${name}' already exists; choose another name or edit it.`;
  return undefined;
}

/**
 * The credential-free source locator handed to the indexer: a postgres URL with user but without password, or
 * the SQLite file path.
 */
export function sourceLocator(c: ConnectionConfig): string {
  if (c.engine === 'sqlite') return c.file ?? '';
  if (c.engine === 'mysql') return mysqlLocator(c);
  const user = c.user ? `${encodeURIComponent(c.user)}@` : '';
  const host = c.host ?? '127.0.0.1';
  const hostPart = host.includes(':') ? `[${host}]` : host;
  const port = c.port ?? 5432;
  const db = encodeURIComponent(c.database ?? 'postgres');
  // `prefer` is what libpq does by default; node-postgres has no "try TLS, fall back" and would read it as require,
  // so it is left out (the connection test treats it the same way).
  const ssl = c.sslmode && c.sslmode !== 'prefer' ? `?sslmode=${c.sslmode}` : '';
  return `postgres://${user}${hostPart}:${port}/${db}${ssl}`;
}

/** `mysql://user@host:3306/db?ssl-mode=REQUIRED`; `preferred` is the driver's default and is left out. */
function mysqlLocator(c: ConnectionConfig): string {
  const user = c.user ? `${encodeURIComponent(c.user)}@` : '';
  const host = c.host ?? '127.0.0.1';
  const hostPart = host.includes(':') ? `[${host}]` : host;
  const db = c.database ? encodeURIComponent(c.database) : '';
  const ssl = c.sslmode && c.sslmode !== 'preferred' ? `?ssl-mode=${c.sslmode.toUpperCase()}` : '';
  return `mysql://${user}${hostPart}:${c.port ?? 3306}/${db}${ssl}`;
}

/** Engines that connect to a server with a user and (usually) a password kept in SecretStorage. */
export function usesPassword(c: Pick<ConnectionConfig, 'engine'>): boolean {
  return c.engine === 'postgres' || c.engine === 'mysql';
}

export interface ParsedPostgresUrl {
  readonly config: Omit<ConnectionConfig, 'name'>;
  /** A password embedded in the pasted URL: moved to SecretStorage, never kept in settings. */
  readonly password?: string;
}

/** Parses a pasted `postgres://` / `postgresql://` URL into fields; returns an error message when malformed. */
export function parsePostgresUrl(text: string): ParsedPostgresUrl | string {
  let u: URL;
  try {
    u = new URL(text.trim());
  } catch {
    return 'Not a URL. Expected postgres://user@host:5432/database';
  }
  if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:') return `Unsupported scheme '${u.protocol}'. Expected postgres:// or postgresql://`;
  const sslmode = u.searchParams.get('sslmode') ?? undefined;
  const allowed = ['disable', 'prefer', 'require', 'verify-ca', 'verify-full'];
  if (sslmode && !allowed.includes(sslmode)) return `sslmode '${sslmode}' is not one of ${allowed.join(', ')}`;
  const port = u.port ? Number(u.port) : 5432;
  const config: Omit<ConnectionConfig, 'name'> = {
    engine: 'postgres',
    host: u.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1',
    port,
    database: decodeURIComponent(u.pathname.replace(/^\//, '')) || 'postgres',
    user: u.username ? decodeURIComponent(u.username) : undefined,
    sslmode: sslmode as ConnectionConfig['sslmode'],
  };
  return u.password ? { config, password: decodeURIComponent(u.password) } : { config };
}

/** Short human label: `user@host:port/db` or the SQLite file name. */
/**
 * Whether a stored password may go with `next` as it went with `prev`: the same engine, server, port, user and TLS
 * mode (another database on that server is fine). An edit that points a connection elsewhere (another host, a
 * weaker sslmode that lets a man in the middle ask for the password in clear) must not send the old password there.
 */
export function sameDestination(prev: ConnectionConfig, next: ConnectionConfig): boolean {
  if (prev.engine !== next.engine) return false;
  if (prev.engine === 'sqlite') return true;
  const norm = (c: ConnectionConfig): string =>
    JSON.stringify([(c.host ?? '127.0.0.1').trim().toLowerCase(), c.port ?? (c.engine === 'mysql' ? 3306 : 5432), c.user ?? '', c.sslmode ?? '']);
  return norm(prev) === norm(next);
}

export function describeConnection(c: ConnectionConfig): string {
  if (c.engine === 'sqlite') return c.file ?? '(no file)';
  if (c.engine === 'mysql') return `${c.user ? c.user + '@' : ''}${c.host ?? '127.0.0.1'}:${c.port ?? 3306}/${c.database || '(all databases)'}`;
  return `${c.user ? c.user + '@' : ''}${c.host ?? '127.0.0.1'}:${c.port ?? 5432}/${c.database ?? 'postgres'}`;
}
