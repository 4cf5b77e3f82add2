import fs from 'node:fs';
import path from 'node:path';
import type { Database } from 'sql.js';
import type { SourceInfo } from '../core/catalog/model';
import { loadSqlJs } from '../core/catalog/sqljs';
import { parseSourceSpec, SourceSpecError } from '../core/sources/locator';
import { SqliteQueryWorker } from '../core/sql';
import type { MysqlExecTarget } from '../core/sql/mysql-exec';
import { mysqlConnectionOptions } from '../core/sql/mysql-driver';
import type { SqlGuard, SqliteMaskPlan } from '../core/sql';
import { SourcePool, type SourcePoolOptions } from '../core/sql/pg-pool';
import { createFunctionPolicy, type SqlObjectAllowances } from '../core/sql/function-policy';

/**
 * Live connections to indexed sources for guarded queries, opened lazily and kept per server process: a small
 * read-only pool per PostgreSQL source, and an in-memory copy of each SQLite file (reloaded when the file changes;
 * writes can never reach the file). Passwords come from the private channel, a `${VAR}` reference in the stored
 * template, or libpq's own PGPASSWORD / ~/.pgpass — never from the catalog.
 */

export type SourceConnection =
  | { readonly engine: 'postgres'; readonly pool: SourcePool }
  /** MySQL/MariaDB: options for a fresh connection per statement (no session state survives a call). */
  | { readonly engine: 'mysql'; readonly target: MysqlExecTarget }
  | {
      readonly engine: 'sqlite';
      /** The in-memory copy, for statements SchemaBrain compiles itself (metrics, profiles). */
      readonly db: Database;
      /** A worker thread over its own copy, for agent-written SQL: terminated when a statement outruns its cap. */
      worker(guard: SqlGuard, mask?: SqliteMaskPlan): SqliteQueryWorker;
    };

/** The worker entry beside the bundle, or the TypeScript source when running from source (tests). */
function workerEntry(): { workerScript: string; execArgv?: string[] } {
  if (__filename.endsWith('.ts')) return { workerScript: path.join(__dirname, '..', 'core', 'sql', 'sqlite-worker-main.ts'), execArgv: ['--require', 'tsx/cjs'] };
  return { workerScript: path.join(__dirname, 'sqlite-worker-main.js') };
}

export type ConnectionFailure = { readonly kind: 'missing_credential' | 'unreachable' | 'too_large'; readonly message: string };

/** The envelope error kind of a connection failure. */
export function failureKind(f: ConnectionFailure): 'missing_credential' | 'unreachable' | 'cost_cap_exceeded' {
  return f.kind === 'too_large' ? 'cost_cap_exceeded' : f.kind;
}

/** The largest SQLite file loaded for queries, as for indexing (each load is a copy of the whole file in memory). */
export const SQLITE_MAX_QUERY_BYTES = 1024 ** 3;

export interface SourceConnectionOptions {
  /** User functions and views the operator allows agent SQL to reach (function-policy.ts). */
  readonly allow?: SqlObjectAllowances;
  /** Queue settings for every PostgreSQL source (pg-pool.ts SourcePool). */
  readonly queue?: Omit<SourcePoolOptions, 'policy'> & { readonly maxConnections?: number };
}

export class SourceConnections {
  private readonly pools = new Map<string, SourcePool>();
  private readonly sqlite = new Map<string, { stamp: string; db: Database; bytes: Uint8Array; workers: Map<string, SqliteQueryWorker> }>();
  private readonly sqliteLoads = new Map<string, Promise<{ stamp: string; db: Database; bytes: Uint8Array; workers: Map<string, SqliteQueryWorker> } | null>>();

  constructor(
    private readonly secrets: ReadonlyMap<string, string>,
    private readonly env: NodeJS.ProcessEnv = process.env,
    private readonly options: SourceConnectionOptions = {},
  ) {}

  async get(source: SourceInfo): Promise<SourceConnection | ConnectionFailure> {
    if (!source.connectTemplate) {
      return { kind: 'missing_credential', message: `Source '${source.name}' has no connection details in the catalog; re-index it to enable queries.` };
    }
    if (source.engine === 'sqlite') return this.sqliteDb(source);
    if (source.engine === 'mysql') return this.mysqlTarget(source);
    const existing = this.pools.get(source.name);
    if (existing) return { engine: 'postgres', pool: existing };
    let spec;
    try {
      spec = parseSourceSpec(source.connectTemplate, { name: source.name, env: this.env });
    } catch (e) {
      if (e instanceof SourceSpecError) return { kind: 'missing_credential', message: `${e.message} ${e.hint}` };
      throw e;
    }
    if (spec.engine !== 'postgres') return { kind: 'unreachable', message: `Source '${source.name}' has an unexpected connection template.` };
    const password = this.secrets.get(source.name) ?? spec.password;
    const pool = new SourcePool(
      {
        host: spec.host,
        port: spec.port,
        database: spec.database,
        user: spec.user,
        maxConnections: this.options.queue?.maxConnections ?? 4,
        ...(password !== undefined ? { password: () => password } : {}),
        ...(spec.params.sslmode && spec.params.sslmode !== 'disable' ? { ssl: { rejectUnauthorized: spec.params.sslmode === 'verify-full' } } : {}),
      },
      { ...this.options.queue, policy: createFunctionPolicy(this.options.allow) },
    );
    this.pools.set(source.name, pool);
    return { engine: 'postgres', pool };
  }

  private mysqlTarget(source: SourceInfo): SourceConnection | ConnectionFailure {
    let spec;
    try {
      spec = parseSourceSpec(source.connectTemplate!, { name: source.name, env: this.env });
    } catch (e) {
      if (e instanceof SourceSpecError) return { kind: 'missing_credential', message: `${e.message} ${e.hint}` };
      throw e;
    }
    if (spec.engine !== 'mysql') return { kind: 'unreachable', message: `Source '${source.name}' has an unexpected connection template.` };
    return { engine: 'mysql', target: { options: mysqlConnectionOptions(spec, { password: this.secrets.get(source.name) }) } };
  }

  private async sqliteDb(source: SourceInfo): Promise<SourceConnection | ConnectionFailure> {
    const file = source.connectTemplate!;
    let stamp: string;
    try {
      const s = fs.statSync(file);
      stamp = `${s.ino}:${s.size}:${s.mtimeMs}`;
      // A file grown since the index (a sparse one costs no disk) would be copied whole into memory for every worker.
      if (s.size > SQLITE_MAX_QUERY_BYTES) return tooLarge(file, source.name, s.size);
    } catch {
      return { kind: 'unreachable', message: `SQLite file ${file} of source '${source.name}' is missing; restore it or re-index.` };
    }
    let entry = this.sqlite.get(source.name);
    if (!entry || entry.stamp !== stamp) {
      // One load per file version, however many calls arrive while it runs (an agent's first burst of parallel
      // calls): each would otherwise make its own copy of the file and its own worker thread.
      const key = `${source.name}\u0000${stamp}`;
      let loading = this.sqliteLoads.get(key);
      if (!loading) {
        loading = (async () => {
          const SQL = await loadSqlJs();
          const bytes = readBounded(file, SQLITE_MAX_QUERY_BYTES);
          if (bytes === null) return null;
          const fresh = { stamp, db: new SQL.Database(bytes), bytes, workers: new Map<string, SqliteQueryWorker>() };
          const old = this.sqlite.get(source.name);
          if (old) {
            old.db.close();
            for (const w of old.workers.values()) void w.close();
          }
          this.sqlite.set(source.name, fresh);
          return fresh;
        })().finally(() => this.sqliteLoads.delete(key));
        this.sqliteLoads.set(key, loading);
      }
      const loaded = await loading;
      if (loaded === null) return tooLarge(file, source.name, fs.statSync(file).size);
      entry = loaded;
    }
    const e = entry;
    return {
      engine: 'sqlite',
      db: e.db,
      // One worker per mask plan: its private copy is masked once, so callers under different PII policies (team
      // roles with extra blocks) never share a copy masked for someone else.
      worker: (guard, mask) => {
        const key = JSON.stringify(mask ?? null);
        let w = e.workers.get(key);
        if (!w) e.workers.set(key, (w = new SqliteQueryWorker(guard, { bytes: e.bytes, mask, ...workerEntry() })));
        return w;
      },
    };
  }

  /** Forgets a pool whose credentials were rejected, so the next call can try again. */
  async drop(sourceName: string): Promise<void> {
    const pool = this.pools.get(sourceName);
    this.pools.delete(sourceName);
    await pool?.end().catch(() => undefined);
  }

  async close(): Promise<void> {
    for (const p of this.pools.values()) await p.end().catch(() => undefined);
    this.pools.clear();
    for (const { db, workers } of this.sqlite.values()) {
      db.close();
      for (const w of workers.values()) await w.close();
    }
    this.sqlite.clear();
  }
}

function tooLarge(file: string, source: string, size: number): ConnectionFailure {
  const mib = (n: number): string => (n / 1024 ** 2).toFixed(0);
  return {
    kind: 'too_large',
    message: `SQLite file ${file} of source '${source}' is ${mib(size)} MiB, above the ${mib(SQLITE_MAX_QUERY_BYTES)} MiB a query loads; query a smaller copy (VACUUM INTO) indexed as its own source.`,
  };
}

/** The file's bytes, or null when it holds more than `max` (it may have grown since it was looked at). */
function readBounded(file: string, max: number): Buffer | null {
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    if (size > max) return null;
    const buf = Buffer.alloc(size);
    let at = 0;
    while (at < size) {
      const n = fs.readSync(fd, buf, at, size - at, at);
      if (n === 0) break;
      at += n;
    }
    return at === size ? buf : buf.subarray(0, at);
  } finally {
    fs.closeSync(fd);
  }
}
