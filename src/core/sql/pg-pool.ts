import type pg from 'pg';
import { pgDriver } from './pg-driver';

/**
 * Connection pool for one PostgreSQL source, used by guarded queries. A fourth belt under the three layers:
 * every session starts with `default_transaction_read_only=on`, so even a statement that escaped the explicit
 * `BEGIN READ ONLY` would run read-only. https://www.postgresql.org/docs/current/runtime-config-client.html
 * The password is supplied by a callback at connect time (SecretStorage, pgpass, an env reference), so it never
 * sits in this config, argv, env or logs. Pools are created by the caller and passed in; nothing here is global.
 */
export interface PostgresSourceConfig {
  readonly host: string;
  readonly port?: number;
  readonly database: string;
  readonly user: string;
  /** Called for each new connection; return undefined for trust/peer auth. */
  readonly password?: () => Promise<string | undefined> | string | undefined;
  readonly ssl?: pg.PoolConfig['ssl'];
  /** Connections at most (default 2: one query at a time per agent is the norm). */
  readonly maxConnections?: number;
  readonly connectTimeoutMs?: number;
  readonly idleTimeoutMs?: number;
  readonly applicationName?: string;
}

export function createReadOnlyPool(cfg: PostgresSourceConfig): pg.Pool {
  const password = cfg.password;
  const pool = new (pgDriver().Pool)({
    host: cfg.host,
    port: cfg.port ?? 5432,
    database: cfg.database,
    user: cfg.user,
    ...(password ? { password: async () => (await password()) ?? '' } : {}),
    ssl: cfg.ssl,
    max: Math.max(1, Math.min(cfg.maxConnections ?? 2, 10)),
    connectionTimeoutMillis: cfg.connectTimeoutMs ?? 10_000,
    idleTimeoutMillis: cfg.idleTimeoutMs ?? 30_000,
    application_name: cfg.applicationName ?? 'schemabrain',
    options: '-c default_transaction_read_only=on',
  });
  // An idle client that dies (server restart) emits on the pool; without a listener Node would crash the process.
  pool.on('error', () => undefined);
  return pool;
}
