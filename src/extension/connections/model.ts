/** A saved connection as it lives in settings: never a password (that is in SecretStorage). */
export interface ConnectionConfig {
  readonly name: string;
  readonly engine: 'postgres' | 'sqlite';
  readonly host?: string;
  readonly port?: number;
  readonly database?: string;
  readonly user?: string;
  readonly sslmode?: 'disable' | 'prefer' | 'require' | 'verify-ca' | 'verify-full';
  /** SQLite: absolute path of the database file. */
  readonly file?: string;
  readonly hasPassword?: boolean;
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
  const user = c.user ? `${encodeURIComponent(c.user)}@` : '';
  const host = c.host ?? '127.0.0.1';
  const hostPart = host.includes(':') ? `[${host}]` : host;
  const port = c.port ?? 5432;
  const db = encodeURIComponent(c.database ?? 'postgres');
  const ssl = c.sslmode ? `?sslmode=${c.sslmode}` : '';
  return `postgres://${user}${hostPart}:${port}/${db}${ssl}`;
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
export function describeConnection(c: ConnectionConfig): string {
  if (c.engine === 'sqlite') return c.file ?? '(no file)';
  return `${c.user ? c.user + '@' : ''}${c.host ?? '127.0.0.1'}:${c.port ?? 5432}/${c.database ?? 'postgres'}`;
}
