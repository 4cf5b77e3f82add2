/**
 * The PostgreSQL that tests run against, found the way CI finds it:
 *
 * 1. `SCHEMABRAIN_TEST_PG_URL` (a URL to any database of an admin-capable role; other databases are reached by
 *    swapping the path), else
 * 2. the server at 127.0.0.1:5432 as user `postgres` when it answers, else (or when `SCHEMABRAIN_TEST_FORCE_PGLITE=1`)
 * 3. an embedded real PostgreSQL engine: PGlite (PostgreSQL compiled to WASM) behind `@electric-sql/pglite-socket`
 *    on a loopback port, so drivers connect over the ordinary wire protocol.
 *
 * PGlite hosts exactly one database per instance (the name in the startup packet is ignored and
 * `current_database()` is always `postgres`), so in that mode `ensureDatabase(name)` starts one PGlite instance per
 * name, each on its own port, and `urlFor(name)` points at that port. `dropDatabase(name)` discards the instance.
 * Tests therefore always call `ensureDatabase` before `urlFor` and never depend on `current_database()`.
 *
 * The handle is shared by every test file in the process (starting PGlite costs seconds and ~100s of MB), and
 * reference-counted: `stop()` releases one reference and shuts PGlite down with the last one.
 */
import { Client } from 'pg';

export interface TestPostgres {
  readonly kind: 'server' | 'pglite';
  /** A connection URL for `db` (credentials included: test-only). Call `ensureDatabase(db)` first. */
  urlFor(db: string): string;
  /** Creates the database if it does not exist (idempotent, safe under concurrent callers). */
  ensureDatabase(name: string): Promise<void>;
  /** Drops the database if it exists (server: WITH (FORCE); PGlite: discards the instance). */
  dropDatabase(name: string): Promise<void>;
  /** Releases this handle. */
  stop(): Promise<void>;
}

const DEFAULT_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

interface Shared {
  readonly pg: SharedPostgres;
  refs: number;
}

interface SharedPostgres {
  readonly kind: 'server' | 'pglite';
  urlFor(db: string): string;
  ensureDatabase(name: string): Promise<void>;
  dropDatabase(name: string): Promise<void>;
  shutdown(): Promise<void>;
}

let shared: Promise<Shared> | null = null;

export async function getTestPostgres(env: NodeJS.ProcessEnv = process.env): Promise<TestPostgres> {
  if (!shared) shared = start(env).then((pg) => ({ pg, refs: 0 }));
  const s = await shared;
  s.refs++;
  let released = false;
  return {
    kind: s.pg.kind,
    urlFor: (db) => s.pg.urlFor(db),
    ensureDatabase: (name) => s.pg.ensureDatabase(name),
    dropDatabase: (name) => s.pg.dropDatabase(name),
    stop: async () => {
      if (released) return;
      released = true;
      if (--s.refs === 0) {
        shared = null;
        await s.pg.shutdown();
      }
    },
  };
}

async function start(env: NodeJS.ProcessEnv): Promise<SharedPostgres> {
  const force = env.SCHEMABRAIN_TEST_FORCE_PGLITE === '1';
  if (!force) {
    const url = env.SCHEMABRAIN_TEST_PG_URL?.trim() || DEFAULT_URL;
    if (await answers(url)) return serverPostgres(url);
    if (env.SCHEMABRAIN_TEST_PG_URL?.trim()) throw new Error('SCHEMABRAIN_TEST_PG_URL is set but the server does not answer');
  }
  return pglitePostgres();
}

/**
 * Whether a real PostgreSQL server answers (the one tests use by default, or SCHEMABRAIN_TEST_PG_URL). Suites that
 * need what only a server offers — psql/pg_dump byte comparisons, a second cluster, server-wide settings — skip
 * themselves with this when it is false, while everything else runs on the embedded engine.
 */
export async function postgresServerAnswers(env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  if (env.SCHEMABRAIN_TEST_FORCE_PGLITE === '1') return false;
  return answers(env.SCHEMABRAIN_TEST_PG_URL?.trim() || DEFAULT_URL);
}

async function answers(url: string): Promise<boolean> {
  const c = new Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  c.on('error', () => undefined);
  try {
    await c.connect();
    await c.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => undefined);
  }
}

function withDatabase(url: string, db: string): string {
  const u = new URL(url);
  u.pathname = `/${encodeURIComponent(db)}`;
  return u.toString();
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

function serverPostgres(adminUrl: string): SharedPostgres {
  const admin = <T>(fn: (c: Client) => Promise<T>): Promise<T> => withPgClient(adminUrl, fn);
  return {
    kind: 'server',
    urlFor: (db) => withDatabase(adminUrl, db),
    ensureDatabase: (name) =>
      admin(async (c) => {
        const exists = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
        if (exists.rowCount) return;
        try {
          await c.query(`CREATE DATABASE ${quoteIdent(name)}`);
        } catch (err) {
          // Another test process created it between the check and the CREATE.
          if ((err as { code?: string }).code !== '42P04' && (err as { code?: string }).code !== '23505') throw err;
        }
      }),
    dropDatabase: (name) => admin(async (c) => void (await c.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`))),
    shutdown: async () => undefined,
  };
}

interface PgliteInstance {
  readonly port: number;
  close(): Promise<void>;
}

async function pglitePostgres(): Promise<SharedPostgres> {
  // Loaded lazily: the WASM engine is only paid for when there is no server.
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  const contrib = {
    uuid_ossp: (await import('@electric-sql/pglite/contrib/uuid_ossp')).uuid_ossp,
    tablefunc: (await import('@electric-sql/pglite/contrib/tablefunc')).tablefunc,
    cube: (await import('@electric-sql/pglite/contrib/cube')).cube,
    earthdistance: (await import('@electric-sql/pglite/contrib/earthdistance')).earthdistance,
    unaccent: (await import('@electric-sql/pglite/contrib/unaccent')).unaccent,
  };
  const instances = new Map<string, Promise<PgliteInstance>>();

  const create = async (): Promise<PgliteInstance> => {
    const db = await PGlite.create({ extensions: contrib });
    const server = new PGLiteSocketServer({ db, port: 0, host: '127.0.0.1', maxConnections: 8 });
    await server.start();
    const conn = server.getServerConn();
    const port = Number(conn.slice(conn.lastIndexOf(':') + 1));
    return {
      port,
      close: async () => {
        await server.stop();
        await db.close();
      },
    };
  };

  const known = new Map<string, number>();
  return {
    kind: 'pglite',
    urlFor: (db) => {
      const port = known.get(db);
      if (port === undefined) throw new Error(`PGlite fallback: call ensureDatabase('${db}') before urlFor('${db}')`);
      return `postgres://postgres@127.0.0.1:${port}/${encodeURIComponent(db)}?sslmode=disable`;
    },
    ensureDatabase: async (name) => {
      let p = instances.get(name);
      if (!p) {
        p = create();
        instances.set(name, p);
      }
      known.set(name, (await p).port);
    },
    dropDatabase: async (name) => {
      const p = instances.get(name);
      instances.delete(name);
      known.delete(name);
      if (p) await (await p).close();
    },
    shutdown: async () => {
      const all = [...instances.values()];
      instances.clear();
      known.clear();
      for (const p of all) await (await p).close().catch(() => undefined);
    },
  };
}

/** Runs `fn` on a client of its own connected to `url`, and ends it whatever happens. */
export async function withPgClient<T>(url: string, fn: (c: Client) => Promise<T>): Promise<T> {
  const c = new Client({ connectionString: url });
  c.on('error', () => undefined);
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end().catch(() => undefined);
  }
}
