/**
 * Private loader for the guarded-SQL tests and bench: builds the sample databases this area needs, idempotently,
 * in PostgreSQL databases prefixed `sb_sql_` (psql loads the plain SQL/COPY dumps) and as sql.js copies of the
 * shipped SQLite files. A database is rebuilt only when its loader version mark is missing.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import pg from 'pg';
import initSqlJs, { type Database } from 'sql.js';
import { dataPath } from '../../../support/datasets';

export const PG = { host: process.env.SB_TEST_PGHOST ?? '127.0.0.1', port: Number(process.env.SB_TEST_PGPORT ?? 5432), user: process.env.SB_TEST_PGUSER ?? 'postgres' };
export const SHARED_DATA = dataPath();
const LOADER_MARK = 'sb_sql loader v1';

function psql(db: string, args: string[], input?: string | Buffer): string {
  return execFileSync('psql', ['-h', PG.host, '-p', String(PG.port), '-U', PG.user, '-d', db, '-X', '-q', '-v', 'ON_ERROR_STOP=1', ...args], {
    input,
    maxBuffer: 256 * 1024 * 1024,
    stdio: ['pipe', 'pipe', 'pipe'],
  }).toString();
}

export function pgClient(database: string): pg.Client {
  return new pg.Client({ ...PG, database, application_name: 'schemabrain-test' });
}

/** Cross-process mutex (an atomic mkdir) so concurrent test runs do not load the same database twice. */
function withLock<T>(name: string, fn: () => T): T {
  const dir = path.join('/tmp', `sb_sql_lock_${name}`);
  const deadline = Date.now() + 180_000;
  for (;;) {
    try {
      mkdirSync(dir);
      break;
    } catch {
      try {
        if (Date.now() - statSync(dir).mtimeMs > 300_000) rmSync(dir, { recursive: true, force: true });
      } catch {
        // released meanwhile
      }
      if (Date.now() > deadline) throw new Error(`timed out waiting for the ${name} loader lock`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function isLoaded(db: string): boolean {
  const out = psql('postgres', ['-Atc', `SELECT shobj_description(oid, 'pg_database') FROM pg_database WHERE datname = '${db}'`]).trim();
  return out === LOADER_MARK;
}

function recreate(db: string): void {
  psql('postgres', ['-c', `DROP DATABASE IF EXISTS ${db} WITH (FORCE)`]);
  psql('postgres', ['-c', `CREATE DATABASE ${db}`]);
}

function mark(db: string): void {
  psql('postgres', ['-c', `COMMENT ON DATABASE ${db} IS '${LOADER_MARK}'`]);
}

/** Pagila (PostgreSQL port of Sakila) into `sb_sql_pagila`. */
export function ensurePagila(): string {
  return withLock('pagila', loadPagila);
}

function loadPagila(): string {
  const db = 'sb_sql_pagila';
  if (isLoaded(db)) return db;
  recreate(db);
  psql(db, ['-f', path.join(SHARED_DATA, 'pagila/pagila-schema.sql')]);
  psql(db, [], gunzipSync(readFileSync(path.join(SHARED_DATA, 'pagila/pagila-data.sql.gz'))));
  mark(db);
  return db;
}

/** Chinook (PostgreSQL script, snake_case names) into `sb_sql_chinook`; the script's own CREATE DATABASE/\c lines are dropped. */
export function ensureChinookPg(): string {
  return withLock('chinook', loadChinookPg);
}

function loadChinookPg(): string {
  const db = 'sb_sql_chinook';
  if (isLoaded(db)) return db;
  recreate(db);
  const script = gunzipSync(readFileSync(path.join(SHARED_DATA, 'chinook/Chinook_PostgreSql.sql.gz')))
    .toString('utf8')
    .split('\n')
    .filter((l) => !/^\s*(DROP DATABASE|CREATE DATABASE|\\c)\b/i.test(l))
    .join('\n');
  psql(db, [], script);
  mark(db);
  return db;
}

let sqlJs: Awaited<ReturnType<typeof initSqlJs>> | undefined;

export async function sqlJsModule(): Promise<Awaited<ReturnType<typeof initSqlJs>>> {
  sqlJs ??= await initSqlJs();
  return sqlJs;
}

/** An in-memory sql.js copy of a shipped SQLite file (how SQLite sources are opened). */
export async function openSqliteCopy(relative: string): Promise<Database> {
  // Chinook ships with the repository (samples/), so the suites that need only it run on any clone.
  const file = relative === CHINOOK_SQLITE ? BUNDLED_CHINOOK : path.join(SHARED_DATA, relative);
  if (!existsSync(file)) throw new Error(`missing sample database ${file}`);
  const SQL = await sqlJsModule();
  return new SQL.Database(readFileSync(file));
}

export const CHINOOK_SQLITE = 'chinook/Chinook_Sqlite.sqlite';
export const BUNDLED_CHINOOK = path.resolve(__dirname, '..', '..', '..', '..', 'samples', 'chinook.sqlite');
export const SAKILA_SQLITE = 'sakila-sqlite/sakila.db';

/** Runs psql with a query and returns unaligned output (for checks in tests). */
export function psqlQuery(db: string, sql: string): string {
  return psql(db, ['-Atc', sql]).trim();
}

export function pgDumpSha(db: string): string {
  const out = execFileSync('pg_dump', ['-h', PG.host, '-p', String(PG.port), '-U', PG.user, '--no-owner', '--no-comments', db], { maxBuffer: 256 * 1024 * 1024 });
  // pg_dump ≥ 17.6 brackets the script with a random `\restrict` key (CVE-2025-8714); it is not database state
  const stable = out.toString('utf8').replace(/^\\(un)?restrict .*$/gm, '');
  return createHash('sha256').update(stable).digest('hex');
}
