import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ConnectionOptions } from 'mysql2';
import type { MysqlSourceSpec } from '../sources/locator';

/**
 * mysql2, required on first use (like node-postgres): a server that answers tools/list or indexes only PostgreSQL
 * and SQLite never loads it.
 */
type Mysql2 = typeof import('mysql2');
type Mysql2Promise = typeof import('mysql2/promise');

type Vendor = typeof import('./mysql-vendor');

let vendorModule: Vendor | undefined;
let callbackApi: Mysql2 | undefined;
let promiseApi: Mysql2Promise | undefined;

/**
 * mysql-vendor beside this file: dist/mysql-vendor.js in the bundle, the TypeScript module from source. The require
 * is indirect on purpose, so esbuild leaves the vendor code out of the main bundles.
 */
export function mysqlVendor(): Vendor {
  if (!vendorModule) {
    const load = require as (id: string) => unknown;
    vendorModule = load(path.join(__dirname, 'mysql-vendor')) as Vendor;
  }
  return vendorModule;
}

export function mysqlDriver(): Mysql2 {
  callbackApi ??= mysqlVendor().mysql2();
  return callbackApi;
}

export function mysqlPromiseDriver(): Mysql2Promise {
  promiseApi ??= mysqlVendor().mysql2Promise();
  return promiseApi;
}

export interface MysqlConnectOptions {
  /** From the private channel; a password written in the spec wins. */
  readonly password?: string;
  readonly connectTimeoutMs?: number;
}

/**
 * Connection options shared by the introspector and the guarded executor. Dates come back as the server's text
 * (no time-zone shift through JS Date), big integers and decimals as strings (no precision loss), and
 * `multipleStatements` stays off so the server itself refuses a string holding several statements.
 */
export function mysqlConnectionOptions(spec: MysqlSourceSpec, opts: MysqlConnectOptions = {}): ConnectionOptions {
  const p = spec.params;
  const fromUrl = p.connect_timeout ? Number(p.connect_timeout) * 1000 : NaN;
  const connectTimeout = opts.connectTimeoutMs ?? (Number.isFinite(fromUrl) && fromUrl > 0 ? fromUrl : 10_000);
  const password = spec.password ?? opts.password;
  return {
    host: spec.host,
    port: spec.port,
    user: spec.user,
    ...(password !== undefined ? { password } : {}),
    ...(spec.database ? { database: spec.database } : {}),
    charset: p.charset ?? 'utf8mb4',
    connectTimeout,
    dateStrings: true,
    supportBigNumbers: true,
    bigNumberStrings: true,
    multipleStatements: false,
    // LOAD DATA LOCAL INFILE lets a server ask the client for any local file: the capability is not offered, and
    // without a stream factory mysql2 answers such a request with an error.
    flags: ['-LOCAL_FILES'],
    infileStreamFactory: undefined,
    ...sslOptions(p),
  };
}

/** ssl-mode → mysql2 `ssl` (https://dev.mysql.com/doc/refman/8.0/en/connection-options.html#option_general_ssl-mode). */
function sslOptions(p: Readonly<Record<string, string>>): Pick<ConnectionOptions, 'ssl'> {
  const mode = (p['ssl-mode'] ?? 'preferred').toLowerCase();
  if (mode === 'disabled' || mode === 'preferred') return {};
  const ca = p['ssl-ca'] ? readFileSync(p['ssl-ca'], 'utf8') : undefined;
  if (mode === 'required') return { ssl: { rejectUnauthorized: false } };
  return { ssl: { rejectUnauthorized: true, ...(ca ? { ca } : {}) } };
}

/** `MariaDB` in VERSION() tells the flavour; the two differ in timeouts, CHECK metadata and JSON. */
export function isMariaDbVersion(version: string | null | undefined): boolean {
  return /mariadb/i.test(version ?? '');
}

/** Back-quoted identifier (https://dev.mysql.com/doc/refman/8.0/en/identifiers.html). */
export function quoteMysqlIdent(id: string): string {
  return `\`${id.replace(/`/g, '``')}\``;
}
