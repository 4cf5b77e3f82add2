import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Pool, PoolClient } from 'pg';
import { CHANGE_CHANNEL } from './pg-store';
import { makeDirs } from '../util/make-dirs';

/** Advisory lock key that serialises writers of new catalog generations (an index run reads, extends and publishes). */
export const CATALOG_LOCK_KEY = 0x5b_5b_00_02;

export interface GenerationInfo {
  readonly generation: number;
  readonly createdBy: string;
  readonly createdAt: Date;
  readonly sourceName: string | null;
  readonly sha256: string;
}

/**
 * Runs `fn` holding the catalog advisory lock on its own connection: concurrent `index --store` runs (CLI, cron,
 * several machines) take turns, each extending the newest generation.
 */
export async function withCatalogLock<T>(pool: Pool, fn: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [CATALOG_LOCK_KEY]);
    try {
      return await fn(client);
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [CATALOG_LOCK_KEY]).catch(() => undefined);
    }
  } finally {
    client.release();
  }
}

export async function latestGeneration(db: Pool | PoolClient): Promise<GenerationInfo | null> {
  const r = await db.query<{ generation: string; created_by: string; created_at: Date; source_name: string | null; sha256: string }>(
    'SELECT generation, created_by, created_at, source_name, sha256 FROM schemabrain.catalog_generation ORDER BY generation DESC LIMIT 1',
  );
  const x = r.rows[0];
  return x ? { generation: Number(x.generation), createdBy: x.created_by, createdAt: x.created_at, sourceName: x.source_name, sha256: x.sha256 } : null;
}

/** Writes the newest catalog generation to `file` (atomically: temp file, then rename); false when the store has none. */
export async function downloadCatalog(db: Pool | PoolClient, file: string, generation?: number): Promise<GenerationInfo | null> {
  const r = await db.query<{ generation: string; created_by: string; created_at: Date; source_name: string | null; sha256: string; bytes: Buffer }>(
    generation === undefined
      ? 'SELECT generation, created_by, created_at, source_name, sha256, bytes FROM schemabrain.catalog_generation ORDER BY generation DESC LIMIT 1'
      : 'SELECT generation, created_by, created_at, source_name, sha256, bytes FROM schemabrain.catalog_generation WHERE generation = $1',
    generation === undefined ? [] : [generation],
  );
  const x = r.rows[0];
  if (!x) return null;
  if (crypto.createHash('sha256').update(x.bytes).digest('hex') !== x.sha256) throw new Error(`catalog generation ${x.generation} in the store does not match its sha256`);
  writeAtomic(file, x.bytes);
  return { generation: Number(x.generation), createdBy: x.created_by, createdAt: x.created_at, sourceName: x.source_name, sha256: x.sha256 };
}

/** Stores a catalog file as a new generation and notifies the replicas. */
export async function publishCatalog(db: Pool | PoolClient, file: string, by: string, sourceName: string | null): Promise<number> {
  const bytes = fs.readFileSync(file);
  const sha = crypto.createHash('sha256').update(bytes).digest('hex');
  const r = await db.query<{ generation: string }>('INSERT INTO schemabrain.catalog_generation (created_by, source_name, sha256, bytes) VALUES ($1,$2,$3,$4) RETURNING generation', [by, sourceName, sha, bytes]);
  const generation = Number(r.rows[0]!.generation);
  await db.query('SELECT pg_notify($1, $2)', [CHANGE_CHANNEL, `catalog:${generation}`]);
  return generation;
}

export interface DefinitionFile {
  /** Relative path under `.schemabrain/` (e.g. `sales/metrics.yaml`). */
  readonly file: string;
  readonly body: string;
  readonly id: number;
  readonly publishedBy: string;
  readonly publishedAt: Date;
}

const DEF_NAME = /^(?!.*\.\.)[A-Za-z0-9_][A-Za-z0-9_./-]{0,200}\.ya?ml$/;

/**
 * Publishes the `.yaml` files of a `.schemabrain/` folder: each changed file gets a new version (who, when), files
 * no longer present a deletion version; one transaction and one notification. Returns the ids written.
 */
export async function publishDefinitions(pool: Pool, files: ReadonlyArray<{ file: string; body: string }>, by: string): Promise<number[]> {
  for (const f of files) if (!DEF_NAME.test(f.file)) throw new Error(`definition file name '${f.file.slice(0, 100)}' is not a relative .yaml path`);
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const current = new Map((await currentDefinitions(client)).map((d) => [d.file, d.body]));
    const ids: number[] = [];
    const wanted = new Map(files.map((f) => [f.file, f.body]));
    for (const [file, body] of wanted) {
      if (current.get(file) === body) continue;
      ids.push(Number((await client.query<{ id: string }>('INSERT INTO schemabrain.definition (file, body, published_by) VALUES ($1,$2,$3) RETURNING id', [file, body, by])).rows[0]!.id));
    }
    for (const file of current.keys()) {
      if (!wanted.has(file)) ids.push(Number((await client.query<{ id: string }>('INSERT INTO schemabrain.definition (file, body, published_by) VALUES ($1,NULL,$2) RETURNING id', [file, by])).rows[0]!.id));
    }
    if (ids.length) await client.query('SELECT pg_notify($1, $2)', [CHANGE_CHANNEL, `definitions:${Math.max(...ids)}`]);
    await client.query('COMMIT');
    return ids;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    client.release();
  }
}

/** The newest version of each definition file that is not deleted. */
export async function currentDefinitions(db: Pool | PoolClient): Promise<DefinitionFile[]> {
  const r = await db.query<{ id: string; file: string; body: string | null; published_by: string; published_at: Date }>(
    'SELECT DISTINCT ON (file) id, file, body, published_by, published_at FROM schemabrain.definition ORDER BY file, id DESC',
  );
  return r.rows.filter((x) => x.body !== null).map((x) => ({ file: x.file, body: x.body!, id: Number(x.id), publishedBy: x.published_by, publishedAt: x.published_at }));
}

/** Mirrors the store's definitions into `<dir>` (files written atomically, files no longer published removed). */
export function materializeDefinitions(dir: string, defs: readonly DefinitionFile[]): void {
  makeDirs(dir, 0o700);
  const keep = new Set<string>();
  for (const d of defs) {
    const target = path.join(dir, d.file);
    keep.add(path.resolve(target));
    makeDirs(path.dirname(target));
    let same = false;
    try {
      same = fs.readFileSync(target, 'utf8') === d.body;
    } catch {
      same = false;
    }
    if (!same) writeAtomic(target, Buffer.from(d.body, 'utf8'));
  }
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) walk(full);
      else if (/\.ya?ml$/.test(e.name) && !keep.has(path.resolve(full))) fs.rmSync(full, { force: true });
    }
  };
  walk(dir);
}

/** Reads the `.yaml` files under a folder as relative paths (what `definitions publish` sends). */
export function readDefinitionFolder(dir: string): Array<{ file: string; body: string }> {
  const out: Array<{ file: string; body: string }> = [];
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.isFile() && /\.ya?ml$/.test(e.name)) out.push({ file: path.relative(dir, full).split(path.sep).join('/'), body: fs.readFileSync(full, 'utf8') });
    }
  };
  walk(dir);
  return out.sort((a, b) => (a.file < b.file ? -1 : 1));
}

function writeAtomic(file: string, bytes: Buffer): void {
  makeDirs(path.dirname(file));
  const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  fs.writeFileSync(tmp, bytes, { mode: 0o600 });
  fs.renameSync(tmp, file);
}
