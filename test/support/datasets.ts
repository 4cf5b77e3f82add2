/**
 * Idempotent loaders for the shared sample databases (`../shared/data`, or `SCHEMABRAIN_SHARED_DIR`) into a named
 * PostgreSQL database, without psql: scripts are split into statements here, `COPY … FROM stdin` blocks are parsed
 * (text format) and sent as batched parameterised INSERTs, and psql meta-commands (`\restrict`, `\c`, `\pset`) are
 * dropped. Statements that name roles or need privileges a test server may not have (OWNER TO, GRANT/REVOKE,
 * COMMENT ON EXTENSION) are skipped; the extensions a dump relies on are created first.
 *
 * A loaded database is marked with `COMMENT ON DATABASE` (dataset name + sha256 of the source files), so it is not
 * reloaded while the sources are unchanged; a marker table would have shown up in every introspection. Loading holds
 * a PostgreSQL advisory lock per database name, so concurrent test processes do not load the same database twice.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Client } from 'pg';
import type { TestPostgres } from './pg';

export type DatasetName = 'pagila' | 'adventureworks' | 'musicbrainz' | 'chinook' | 'northwind';

const REPO_ROOT = path.resolve(__dirname, '..', '..');

export function sharedDir(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.SCHEMABRAIN_SHARED_DIR?.trim();
  return fromEnv ? path.resolve(fromEnv) : path.resolve(REPO_ROOT, '../shared');
}

/** The sample data folder: `SCHEMABRAIN_SHARED_DATA`, else `data/` of the shared folder beside the repository. */
export function dataPath(...parts: string[]): string {
  const fromEnv = process.env.SCHEMABRAIN_SHARED_DATA?.trim();
  return path.join(fromEnv ? path.resolve(fromEnv) : path.join(sharedDir(), 'data'), ...parts);
}

/**
 * Skips the calling suite or test, with the reason in the report, when a shared sample file is absent (a clone
 * without `../shared/data`); the suites that need only the bundled Chinook sample never call this.
 */
export function skipWithoutData(ctx: Mocha.Context, ...relatives: string[]): void {
  const missing = relatives.map((r) => dataPath(r)).filter((f) => !existsSync(f));
  if (missing.length === 0) return;
  const where = ctx.test?.parent?.fullTitle() ?? ctx.test?.fullTitle() ?? 'suite';
  process.stderr.write(`skipped "${where}": sample data not found (${missing.join(', ')}); set SCHEMABRAIN_SHARED_DATA to the data folder\n`);
  ctx.skip();
}

/** Ready-made SQLite sample files (read-only; open them, never write them). */
export const sqliteDatasets = {
  chinook: (): string => path.join(REPO_ROOT, 'samples', 'chinook.sqlite'),
  sakila: (): string => dataPath('sakila-sqlite', 'sakila.db'),
};

interface DatasetDef {
  /** SQL run before the files (extensions, schemas the dump assumes). */
  readonly prelude: readonly string[];
  readonly files: readonly string[];
  /** Statement rewrites for engines that lack a feature (e.g. ICU collations under PGlite). */
  readonly fallback?: (statement: string, err: unknown) => string | null;
}

const DATASETS: Readonly<Record<DatasetName, () => DatasetDef>> = {
  pagila: () => ({ prelude: [], files: [dataPath('pagila', 'pagila-schema.sql'), dataPath('pagila', 'pagila-data.sql.gz')] }),
  adventureworks: () => ({
    prelude: [],
    files: [dataPath('adventureworks-pg', 'adventureworks-schema.pg_dump.sql.gz')],
  }),
  musicbrainz: () => ({
    // The dump is `pg_dump -n musicbrainz`: the extensions it uses live in public and are not in it.
    prelude: [
      'CREATE EXTENSION IF NOT EXISTS cube WITH SCHEMA public',
      'CREATE EXTENSION IF NOT EXISTS earthdistance WITH SCHEMA public',
      'CREATE EXTENSION IF NOT EXISTS unaccent WITH SCHEMA public',
      // From the original Extensions.sql (its portable fallback form): indexes call it through musicbrainz_unaccent.
      `CREATE OR REPLACE FUNCTION public.immutable_unaccent(regdictionary, text) RETURNS text
         LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $f$ SELECT public.unaccent($1, $2) $f$`,
    ],
    files: [dataPath('musicbrainz', 'musicbrainz-schema.pg_dump.sql.gz')],
    fallback: (stmt) =>
      // Engines built without ICU (PGlite) get a plain collation of the same name.
      /^CREATE COLLATION\s+musicbrainz\.musicbrainz/i.test(stmt) ? 'CREATE COLLATION musicbrainz.musicbrainz FROM "C"' : null,
  }),
  chinook: () => ({ prelude: [], files: [dataPath('chinook', 'Chinook_PostgreSql.sql.gz')] }),
  northwind: () => ({ prelude: [], files: [dataPath('northwind-psql', 'northwind.sql.gz')] }),
};

/** Default database name for a dataset; share it unless a test needs its own copy. */
export function defaultDatabaseFor(dataset: DatasetName): string {
  return `sb_ds_${dataset}`;
}

export interface LoadResult {
  readonly url: string;
  readonly database: string;
  /** False when the marker showed the database was already loaded from the same files. */
  readonly loaded: boolean;
}

const inflight = new Map<string, Promise<LoadResult>>();

/** Loads `dataset` into `database` unless it is already there; returns a URL for it. */
export function loadDataset(pg: TestPostgres, dataset: DatasetName, database = defaultDatabaseFor(dataset)): Promise<LoadResult> {
  const key = `${pg.kind}:${database}`;
  let p = inflight.get(key);
  if (!p) {
    p = withLoadLock(pg, database, () => load(pg, dataset, database)).finally(() => inflight.delete(key));
    inflight.set(key, p);
  }
  return p;
}

async function load(pg: TestPostgres, dataset: DatasetName, database: string): Promise<LoadResult> {
  const def = DATASETS[dataset]();
  const texts = def.files.map(readSql);
  const marker = `schemabrain-test-dataset:${dataset}:${sha(texts.join('\n'))}`;
  await pg.ensureDatabase(database);
  const probe = await connect(pg.urlFor(database));
  try {
    if ((await currentMarker(probe)) === marker) return { url: pg.urlFor(database), database, loaded: false };
  } finally {
    await probe.end().catch(() => undefined);
  }
  // Reload from scratch: a half-loaded or stale database is replaced, not patched.
  await pg.dropDatabase(database);
  await pg.ensureDatabase(database);
  const url = pg.urlFor(database);
  const c = await connect(url);
  try {
    for (const stmt of def.prelude) await c.query(stmt);
    for (const text of texts) await runSqlScript(c, text, { fallback: def.fallback });
    await c.query('ANALYZE');
    await c.query(`COMMENT ON DATABASE ${quoteIdent(await dbName(c))} IS ${quoteLiteral(marker)}`);
    return { url, database, loaded: true };
  } finally {
    await c.end().catch(() => undefined);
  }
}

/**
 * Server: a session advisory lock taken in the `postgres` database (which is never dropped), so two test processes
 * never load the same database at once. PGlite instances live in this process, where `inflight` already serialises.
 */
async function withLoadLock<T>(pg: TestPostgres, database: string, fn: () => Promise<T>): Promise<T> {
  if (pg.kind !== 'server') return fn();
  const admin = await connect(pg.urlFor('postgres'));
  try {
    await admin.query('SELECT pg_advisory_lock(hashtext($1))', [`schemabrain-dataset:${database}`]);
    return await fn();
  } finally {
    await admin.end().catch(() => undefined);
  }
}

/** Runs a SQL file's text (plain SQL or .sql.gz already gunzipped) in a fresh database created for it. */
export async function loadScriptInto(pg: TestPostgres, database: string, sql: string): Promise<string> {
  await pg.dropDatabase(database);
  await pg.ensureDatabase(database);
  const url = pg.urlFor(database);
  const c = await connect(url);
  try {
    await runSqlScript(c, sql);
    await c.query('ANALYZE');
  } finally {
    await c.end().catch(() => undefined);
  }
  return url;
}

export function readSql(file: string): string {
  const buf = readFileSync(file);
  return (file.endsWith('.gz') ? gunzipSync(buf) : buf).toString('utf8');
}

async function connect(url: string): Promise<Client> {
  const c = new Client({ connectionString: url });
  c.on('error', () => undefined);
  await c.connect();
  return c;
}

async function dbName(c: Client): Promise<string> {
  return ((await c.query<{ d: string }>('SELECT current_database() AS d')).rows[0] as { d: string }).d;
}

async function currentMarker(c: Client): Promise<string | null> {
  const r = await c.query<{ m: string | null }>(
    `SELECT shobj_description(oid, 'pg_database') AS m FROM pg_database WHERE datname = current_database()`,
  );
  return r.rows[0]?.m ?? null;
}

function sha(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

function quoteLiteral(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

// ---------------------------------------------------------------------------------------------------------------
// Script splitting and COPY

export type ScriptItem =
  | { readonly kind: 'statement'; readonly sql: string }
  | { readonly kind: 'copy'; readonly table: string; readonly columns: readonly string[] | null; readonly data: string };

/**
 * Splits a psql script into statements, honouring quotes, E'' strings, quoted identifiers, dollar quotes and
 * comments. Lines starting with a backslash between statements are psql meta-commands and are dropped. A statement
 * `COPY t (cols) FROM stdin;` takes the following lines up to `\.` as its data.
 */
export function splitSqlScript(sql: string): ScriptItem[] {
  const items: ScriptItem[] = [];
  const n = sql.length;
  let i = 0;
  let start = 0;
  const atStatementStart = (): boolean => sql.slice(start, i).replace(/--[^\n]*|\/\*[\s\S]*?\*\//g, '').trim() === '';
  while (i < n) {
    const ch = sql[i];
    if (ch === '\\' && atStatementStart()) {
      const nl = sql.indexOf('\n', i);
      i = nl < 0 ? n : nl + 1;
      start = i;
      continue;
    }
    if (ch === '-' && sql[i + 1] === '-') {
      const nl = sql.indexOf('\n', i);
      i = nl < 0 ? n : nl + 1;
      continue;
    }
    if (ch === '/' && sql[i + 1] === '*') {
      let depth = 1;
      i += 2;
      while (i < n && depth > 0) {
        if (sql[i] === '/' && sql[i + 1] === '*') {
          depth++;
          i += 2;
        } else if (sql[i] === '*' && sql[i + 1] === '/') {
          depth--;
          i += 2;
        } else i++;
      }
      continue;
    }
    if (ch === "'") {
      const escapes = /[eE]/.test(sql[i - 1] ?? '') && !/[A-Za-z0-9_]/.test(sql[i - 2] ?? '');
      i++;
      while (i < n) {
        if (escapes && sql[i] === '\\') i += 2;
        else if (sql[i] === "'" && sql[i + 1] === "'") i += 2;
        else if (sql[i] === "'") break;
        else i++;
      }
      i++;
      continue;
    }
    if (ch === '"') {
      i++;
      while (i < n && !(sql[i] === '"' && sql[i + 1] !== '"')) i += sql[i] === '"' ? 2 : 1;
      i++;
      continue;
    }
    if (ch === '$') {
      const m = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(sql.slice(i, i + 64));
      if (m && !/[A-Za-z0-9_]/.test(sql[i - 1] ?? '')) {
        const close = sql.indexOf(m[0], i + m[0].length);
        i = close < 0 ? n : close + m[0].length;
        continue;
      }
    }
    if (ch === ';') {
      const stmt = sql.slice(start, i).trim();
      i++;
      start = i;
      const copy = /^COPY\s+((?:"(?:[^"]|"")+"|[^\s(]+)(?:\.(?:"(?:[^"]|"")+"|[^\s(]+))?)\s*(?:\(([^)]*)\))?\s+FROM\s+stdin\b/i.exec(stripLeadingComments(stmt));
      if (copy) {
        const dataStart = sql.indexOf('\n', i) + 1;
        const endMatch = /^\\\.\r?$/m.exec(sql.slice(dataStart));
        const dataEnd = endMatch ? dataStart + endMatch.index : n;
        items.push({
          kind: 'copy',
          table: copy[1] as string,
          columns: copy[2] ? copy[2].split(',').map((c) => c.trim()) : null,
          data: sql.slice(dataStart, dataEnd),
        });
        const after = endMatch ? dataEnd + endMatch[0].length : n;
        i = after;
        start = after;
        continue;
      }
      if (stripLeadingComments(stmt)) items.push({ kind: 'statement', sql: stmt });
      continue;
    }
    i++;
  }
  const tail = stripLeadingComments(sql.slice(start).trim());
  if (tail) items.push({ kind: 'statement', sql: tail });
  return items;
}

function stripLeadingComments(s: string): string {
  let t = s.trim();
  for (;;) {
    if (t.startsWith('--')) {
      const nl = t.indexOf('\n');
      t = nl < 0 ? '' : t.slice(nl + 1).trim();
    } else if (t.startsWith('/*')) {
      const close = t.indexOf('*/');
      t = close < 0 ? '' : t.slice(close + 2).trim();
    } else return t;
  }
}

/** Rows of a COPY text-format block (https://www.postgresql.org/docs/current/sql-copy.html#id-1.9.3.55.9.2). */
export function parseCopyText(data: string): (string | null)[][] {
  const rows: (string | null)[][] = [];
  for (const line of data.split('\n')) {
    if (line === '' || line === '\r') continue;
    rows.push(line.replace(/\r$/, '').split('\t').map(unescapeCopyField));
  }
  return rows;
}

function unescapeCopyField(f: string): string | null {
  if (f === '\\N') return null;
  if (!f.includes('\\')) return f;
  return f.replace(/\\(x[0-9A-Fa-f]{1,2}|[0-7]{1,3}|.)/g, (_m, e: string) => {
    if (e[0] === 'x') return String.fromCharCode(parseInt(e.slice(1), 16));
    if (/^[0-7]/.test(e)) return String.fromCharCode(parseInt(e, 8));
    switch (e) {
      case 'b':
        return '\b';
      case 'f':
        return '\f';
      case 'n':
        return '\n';
      case 'r':
        return '\r';
      case 't':
        return '\t';
      case 'v':
        return '\v';
      default:
        return e;
    }
  });
}

/** Statements a test server may refuse (roles, privileges) and that change nothing a catalog reads. */
const SKIP = [/^ALTER\s+.*\s+OWNER\s+TO\s/is, /^(GRANT|REVOKE)\s/i, /^COMMENT\s+ON\s+EXTENSION\s/i, /^(DROP|CREATE)\s+DATABASE\s/i];

export interface RunScriptOptions {
  readonly fallback?: (statement: string, err: unknown) => string | null;
}

export interface ScriptStats {
  readonly statements: number;
  readonly skipped: number;
  readonly copiedRows: number;
}

/**
 * Runs a script: consecutive statements go in batches (one simple-protocol round trip each); a failing batch is
 * replayed one statement at a time so the error names the statement. Throws on the first real error.
 */
export async function runSqlScript(c: Client, sql: string, opts: RunScriptOptions = {}): Promise<ScriptStats> {
  let statements = 0;
  let skipped = 0;
  let copiedRows = 0;
  let batch: string[] = [];
  let batchBytes = 0;
  const runOne = async (stmt: string): Promise<void> => {
    try {
      await c.query(stmt);
    } catch (err) {
      const alt = opts.fallback?.(stmt, err);
      if (alt) {
        await c.query(alt);
        return;
      }
      const msg = err instanceof Error ? err.message : String(err);
      throw new Error(`statement failed: ${msg}\n  ${stmt.slice(0, 300)}`);
    }
  };
  const flush = async (): Promise<void> => {
    if (batch.length === 0) return;
    const stmts = batch;
    batch = [];
    batchBytes = 0;
    // search_path and other session settings survive either way; a failed batch rolled back as a whole.
    const joined = stmts.map((s) => `${s};`).join('\n');
    const transactional = !stmts.some((s) => /^(CREATE|DROP)\s+(DATABASE|TABLESPACE)|^VACUUM|CONCURRENTLY/i.test(s));
    if (transactional && stmts.length > 1) {
      try {
        await c.query(joined);
        return;
      } catch {
        /* replayed below */
      }
    }
    for (const s of stmts) await runOne(s);
  };
  for (const item of splitSqlScript(sql)) {
    if (item.kind === 'copy') {
      await flush();
      copiedRows += await copyAsInserts(c, item);
      continue;
    }
    const stmt = item.sql;
    if (SKIP.some((re) => re.test(stmt))) {
      skipped++;
      continue;
    }
    statements++;
    const fixed = /^CREATE\s+EXTENSION\s+(?!IF\s+NOT\s+EXISTS)/i.test(stmt) ? stmt.replace(/^CREATE\s+EXTENSION\s+/i, 'CREATE EXTENSION IF NOT EXISTS ') : stmt;
    batch.push(fixed);
    batchBytes += fixed.length;
    if (batch.length >= 200 || batchBytes > 512 * 1024) await flush();
  }
  await flush();
  return { statements, skipped, copiedRows };
}

async function copyAsInserts(c: Client, item: Extract<ScriptItem, { kind: 'copy' }>): Promise<number> {
  const rows = parseCopyText(item.data);
  if (rows.length === 0) return 0;
  const width = (rows[0] as unknown[]).length;
  const cols = item.columns ? ` (${item.columns.join(', ')})` : '';
  const perBatch = Math.max(1, Math.min(1000, Math.floor(60000 / width)));
  for (let off = 0; off < rows.length; off += perBatch) {
    const chunk = rows.slice(off, off + perBatch);
    const params: (string | null)[] = [];
    const tuples = chunk.map((r) => {
      const ph = r.map((v) => {
        params.push(v);
        return `$${params.length}`;
      });
      return `(${ph.join(', ')})`;
    });
    try {
      await c.query(`INSERT INTO ${item.table}${cols} VALUES ${tuples.join(', ')}`, params);
    } catch (err) {
      throw new Error(`COPY ${item.table} (rows ${off + 1}..${off + chunk.length}) failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return rows.length;
}
