import fs from 'node:fs';
import type { PoolConfig } from 'pg';

/** A `--store` value that cannot be used; the message never repeats a password. */
export class StoreConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreConfigError';
  }
}

/** `postgres://user@host:port/db` with the password removed (what logs and `path` show). */
export function redactStoreUrl(raw: string): string {
  try {
    const u = new URL(raw);
    u.password = '';
    return u.toString();
  } catch {
    return 'postgres://(unparseable)';
  }
}

/** True for a value that selects the PostgreSQL store (anything else is a file path). */
export function isStoreUrl(value: string | undefined | null): value is string {
  return typeof value === 'string' && /^postgres(ql)?:\/\//i.test(value.trim());
}

/**
 * The pg pool configuration for a `--store` URL. The URL must not carry a password (it would sit in argv, the
 * process list and shell history): the password comes from the server's side only, in this order:
 * `SCHEMABRAIN_STORE_PASSWORD_FILE` (a mounted secret), then what libpq-compatible `pg` reads itself
 * (`PGPASSWORD`, then `~/.pgpass` / `PGPASSFILE`).
 */
export function storePoolConfig(raw: string, env: NodeJS.ProcessEnv = process.env): PoolConfig {
  if (!isStoreUrl(raw)) throw new StoreConfigError(`--store needs a postgres:// URL, got '${String(raw).slice(0, 40)}'`);
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    throw new StoreConfigError('--store is not a valid postgres:// URL');
  }
  if (u.password) {
    throw new StoreConfigError(
      `the --store URL carries a password (${redactStoreUrl(raw)}); remove it and give the password to the server through SCHEMABRAIN_STORE_PASSWORD_FILE, PGPASSWORD or ~/.pgpass`,
    );
  }
  const database = decodeURIComponent(u.pathname.replace(/^\//, '')) || 'postgres';
  const config: PoolConfig = {
    host: u.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1',
    port: u.port ? Number(u.port) : 5432,
    database,
    user: decodeURIComponent(u.username) || env.PGUSER || 'postgres',
    application_name: 'schemabrain-store',
  };
  const ssl = u.searchParams.get('sslmode');
  if (ssl === 'require' || ssl === 'verify-full') config.ssl = ssl === 'require' ? { rejectUnauthorized: false } : true;
  const file = env.SCHEMABRAIN_STORE_PASSWORD_FILE;
  if (file) {
    try {
      config.password = fs.readFileSync(file, 'utf8').replace(/\r?\n$/, '');
    } catch (e) {
      throw new StoreConfigError(`SCHEMABRAIN_STORE_PASSWORD_FILE cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  return config;
}

/**
 * Source locators kept in the store are references, never secrets: a postgres URL with a password is refused (the
 * server reads source passwords from its own environment, a mounted file or ~/.pgpass).
 */
export function assertNoPasswordInLocator(locator: string): void {
  if (!/^postgres(ql)?:\/\//i.test(locator)) return;
  let u: URL;
  try {
    u = new URL(locator);
  } catch {
    return;
  }
  if (u.password && !/^\$\{[A-Z0-9_]+\}$/i.test(decodeURIComponent(u.password))) {
    throw new StoreConfigError(
      'a source URL with a password cannot be written to the team store; drop the password and give it to the servers through their environment, a mounted file or ~/.pgpass',
    );
  }
}
