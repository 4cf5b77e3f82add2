import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { withGeneratedLineage, withoutValueStats } from '../pii/lineage';
import type { Database } from 'sql.js';
import { handOver, loadSqlJs } from './sqljs';
import { CatalogError, notACatalogFile } from './errors';
import { readCatalogSummary, writeCatalogSummary } from './summary';
import { NOT_REGULAR, readRegularFile } from '../util/regular-file';
import { writeAll } from '../util/write-all';
import type { ColumnInfo, EnumInfo, SchemaInfo, SourceInfo, TableInfo } from './model';
import { makeDirs } from '../util/make-dirs';

/**
 * The catalog file: a SQLite database written through sql.js. One writer (the indexer) replaces it with an atomic
 * temp-file + fsync + rename, bumping a generation number; readers load it whole and reload when it changes.
 * Table bodies are stored as JSON, deflated when long (one row per relation), so a re-index rewrites only the
 * relations whose structural fingerprint changed, and a load is one sequential scan.
 */

export const CATALOG_SCHEMA_VERSION = 2;

const MIGRATIONS: ReadonlyArray<readonly string[]> = [
  // v1
  [
    `CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
    `CREATE TABLE sources (
       id TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE, engine TEXT NOT NULL, locator TEXT NOT NULL,
       database TEXT NOT NULL, server_version TEXT, indexed_at TEXT NOT NULL,
       table_count INTEGER NOT NULL, column_count INTEGER NOT NULL, structure_digest TEXT, connect_template TEXT)`,
    `CREATE TABLE schemas (source_id TEXT NOT NULL, name TEXT NOT NULL, comment TEXT, PRIMARY KEY (source_id, name))`,
    `CREATE TABLE relations (
       source_id TEXT NOT NULL, schema TEXT NOT NULL, name TEXT NOT NULL, kind TEXT NOT NULL,
       fingerprint TEXT NOT NULL, body TEXT NOT NULL, PRIMARY KEY (source_id, schema, name))`,
    `CREATE TABLE enums (source_id TEXT NOT NULL, schema TEXT NOT NULL, name TEXT NOT NULL, labels TEXT NOT NULL,
       PRIMARY KEY (source_id, schema, name))`,
    `CREATE TABLE index_runs (
       id INTEGER PRIMARY KEY AUTOINCREMENT, source_id TEXT NOT NULL, source_name TEXT NOT NULL,
       started_at TEXT NOT NULL, finished_at TEXT NOT NULL, status TEXT NOT NULL, duration_ms REAL NOT NULL,
       tables_total INTEGER NOT NULL, tables_changed INTEGER NOT NULL, tables_removed INTEGER NOT NULL,
       mode TEXT NOT NULL, error_kind TEXT, error_message TEXT)`,
    `CREATE TABLE artifacts (key TEXT PRIMARY KEY, value BLOB NOT NULL)`,
  ],
  // v2: no new table; a relation's body may be deflated JSON (a BLOB, see encodeTableBody), which a reader of v1
  // could not parse: it refuses the file as too new instead.
  [],
];

export { CatalogError } from './errors';
export type { CatalogErrorCode } from './errors';
export { catalogSummaryPath, readCatalogSummary } from './summary';
export type { CatalogSummary } from './summary';

export interface IndexRun {
  readonly id: number;
  readonly sourceId: string;
  readonly sourceName: string;
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly status: 'succeeded' | 'failed' | 'cancelled';
  readonly durationMs: number;
  readonly tablesTotal: number;
  readonly tablesChanged: number;
  readonly tablesRemoved: number;
  readonly mode: 'full' | 'incremental' | 'unchanged';
  readonly errorKind: string | null;
  readonly errorMessage: string | null;
}

export interface StoredSource {
  readonly info: SourceInfo;
  readonly structureDigest: string | null;
}

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/**
 * Column fields left out of a stored body when they hold their usual value (most columns have no default, comment,
 * enum, statistics or PII tag): the body of a wide table shrinks by about 40 %, and with it the catalog file, the
 * time to write and parse it, and a reader's memory. Bodies written in full (older catalogs) read the same.
 */
const COLUMN_DEFAULTS = { defaultExpr: null, isGenerated: false, isIdentity: false, comment: null, enumLabels: null, stats: null, pii: null } as const;

/** Optional column fields, present only where they hold something (a code list's labels), kept last. */
const COLUMN_FIELDS = new Set(['name', 'ordinal', 'dataType', 'isNullable', ...Object.keys(COLUMN_DEFAULTS), 'codeValues']);

function compactColumn(c: ColumnInfo): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k in c) {
    const v = (c as unknown as Record<string, unknown>)[k];
    if (v !== (COLUMN_DEFAULTS as Record<string, unknown>)[k] || !(k in COLUMN_DEFAULTS)) out[k] = v;
  }
  return out;
}

/**
 * A body whose JSON has at least this many characters is stored deflated (a BLOB); a shorter one as its text, which
 * deflate would hardly shrink. Deflated, the bodies of a wide catalog take about a quarter of their text: at 10,000
 * tables the file shrinks from 44 to 16 MiB, and with it what a reader reads and holds before its first answer (a
 * reader inflates only the relations it uses). Catalogs whose bodies are all text read the same.
 */
const DEFLATE_FROM = 512;

/** The most a stored body may inflate to: a damaged or crafted file fails as corrupt instead of exhausting memory. */
export const MAX_BODY_BYTES = 64 * 1024 * 1024;

/** The stored body of a relation (column fields at their usual value left out): its JSON, deflated when long. */
export function encodeTableBody(t: TableInfo): string | Uint8Array {
  const text = JSON.stringify({ ...t, columns: t.columns.map(compactColumn) });
  if (text.length < DEFLATE_FROM) return text;
  return zlib.deflateRawSync(Buffer.from(text, 'utf8'));
}

/** A relation from its stored body, every column with all its fields in one fixed order (one object shape). */
export function decodeTableBody(body: string | Uint8Array): TableInfo {
  let text: string;
  if (typeof body === 'string') text = body;
  else {
    try {
      text = zlib.inflateRawSync(body, { maxOutputLength: MAX_BODY_BYTES }).toString('utf8');
    } catch (e) {
      throw new CatalogError('corrupt', `a stored relation cannot be inflated: ${(e as Error).message}`);
    }
  }
  let t: TableInfo;
  try {
    t = JSON.parse(text) as TableInfo;
  } catch (e) {
    throw new CatalogError('corrupt', `a stored relation is not readable JSON: ${(e as Error).message}`);
  }
  const columns = t.columns.map((c): ColumnInfo => {
    const full: ColumnInfo = {
      name: c.name,
      ordinal: c.ordinal,
      dataType: c.dataType,
      isNullable: c.isNullable,
      defaultExpr: c.defaultExpr ?? null,
      isGenerated: c.isGenerated ?? false,
      isIdentity: c.isIdentity ?? false,
      comment: c.comment ?? null,
      enumLabels: c.enumLabels ?? null,
      stats: c.stats ?? null,
      pii: c.pii ?? null,
      ...(c.codeValues !== undefined ? { codeValues: c.codeValues } : {}),
    };
    for (const k in c) if (!COLUMN_FIELDS.has(k)) return { ...full, ...c };
    return full;
  });
  // A catalog written before generated columns took their sources' tags is read as one written after.
  return { ...t, columns: withStoredLineage(columns) };
}

/** withGeneratedLineage, and the values a newly tagged column's statistics hold dropped, as the indexer drops them. */
function withStoredLineage(columns: ColumnInfo[]): ColumnInfo[] {
  const out = withGeneratedLineage(columns);
  if (out === columns) return columns;
  return out.map((c, i) => (c === columns[i] ? c : withoutValueStats(c)));
}

/** SQLite's default (BINARY) order of text: UTF-8 byte order, which is code point order. */
export function compareText(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x - y;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

type SqlValue = number | string | Uint8Array | null;

/** A stored body as decodeTableBody takes it: deflated bytes or JSON text. */
const bodyOf = (v: SqlValue): string | Uint8Array => (v instanceof Uint8Array ? v : String(v));

export class CatalogStore {
  private bodyStmt: ReturnType<Database['prepare']> | null = null;
  private closed = false;

  private constructor(
    private readonly db: Database,
    readonly path: string | null,
  ) {}

  /** An empty catalog in memory (not yet saved). */
  static async create(filePath: string | null = null): Promise<CatalogStore> {
    const SQL = await loadSqlJs();
    const store = new CatalogStore(new SQL.Database(), filePath);
    store.migrate();
    return store;
  }

  /** Opens an existing catalog file; throws CatalogError('not_found' | 'corrupt' | 'too_new'). */
  static async open(filePath: string): Promise<CatalogStore> {
    // A file whose stamp matches the summary written by save() is byte for byte what an indexer wrote: the page
    // check below is skipped for it (on a 40 MB catalog it costs more than reading every relation).
    const written = readCatalogSummary(filePath) !== null;
    let bytes: Buffer;
    try {
      bytes = readRegularFile(filePath);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') throw new CatalogError('not_found', `no catalog at ${filePath}`);
      if (code === NOT_REGULAR) throw notACatalogFile(filePath);
      throw new CatalogError('io', `cannot read catalog ${filePath}: ${code ?? String(e)}`);
    }
    if (bytes.length < 100 || !bytes.subarray(0, 16).equals(SQLITE_HEADER)) {
      throw new CatalogError('corrupt', `catalog ${filePath} is not a SQLite database (damaged or overwritten)`);
    }
    const SQL = await loadSqlJs();
    let db: Database;
    try {
      db = new SQL.Database(handOver(bytes));
      db.exec('SELECT count(*) FROM sqlite_schema');
      // A damaged interior page is invisible to the schema query and surfaces later, in whichever query first
      // touches it; quick_check (every page, no index cross-check) finds it here, so readers and the indexer agree.
      const check = written ? 'ok' : db.exec('PRAGMA quick_check(1)')[0]?.values[0]?.[0];
      if (check !== 'ok') {
        db.close();
        throw new Error(String(check ?? 'quick_check returned nothing').replace(/\s+/g, ' '));
      }
    } catch (e) {
      throw new CatalogError('corrupt', `catalog ${filePath} is damaged: ${(e as Error).message}`);
    }
    const store = new CatalogStore(db, filePath);
    let version: number;
    try {
      version = store.schemaVersion();
    } catch {
      db.close();
      throw new CatalogError('corrupt', `catalog ${filePath} is not a SchemaBrain catalog`);
    }
    if (version > CATALOG_SCHEMA_VERSION) {
      db.close();
      throw new CatalogError('too_new', `catalog ${filePath} has schema v${version}; this SchemaBrain reads up to v${CATALOG_SCHEMA_VERSION}`);
    }
    store.migrate();
    return store;
  }

  /** Opens the file if it exists, else a fresh empty catalog bound to that path. */
  static async openOrCreate(filePath: string): Promise<CatalogStore> {
    try {
      return await CatalogStore.open(filePath);
    } catch (e) {
      if (e instanceof CatalogError && e.code === 'not_found') return CatalogStore.create(filePath);
      throw e;
    }
  }

  close(): void {
    this.closed = true;
    this.bodyStmt?.free();
    this.bodyStmt = null;
    this.db.close();
  }

  private schemaVersion(): number {
    const rows = this.db.exec(`SELECT name FROM sqlite_schema WHERE type = 'table' AND name = 'meta'`);
    if (rows.length === 0) {
      const any = this.db.exec(`SELECT count(*) FROM sqlite_schema`);
      if (Number(any[0]?.values[0]?.[0] ?? 0) > 0) throw new Error('foreign database');
      return 0;
    }
    return Number(this.getMeta('schema_version') ?? 0);
  }

  private migrate(): void {
    const current = this.schemaVersion();
    if (current >= MIGRATIONS.length) return;
    this.db.exec('BEGIN');
    try {
      for (let v = current; v < MIGRATIONS.length; v++) for (const stmt of MIGRATIONS[v]!) this.db.exec(stmt);
      this.setMeta('schema_version', String(MIGRATIONS.length));
      if (this.getMeta('generation') === null) this.setMeta('generation', '0');
      this.db.exec('COMMIT');
    } catch (e) {
      this.db.exec('ROLLBACK');
      throw e;
    }
  }

  private all(sql: string, params: SqlValue[] = []): Array<Record<string, SqlValue>> {
    const stmt = this.db.prepare(sql);
    try {
      stmt.bind(params);
      const out: Array<Record<string, SqlValue>> = [];
      while (stmt.step()) out.push(stmt.getAsObject() as Record<string, SqlValue>);
      return out;
    } finally {
      stmt.free();
    }
  }

  private run(sql: string, params: SqlValue[] = []): void {
    this.db.run(sql, params);
  }

  getMeta(key: string): string | null {
    const r = this.all(`SELECT value FROM meta WHERE key = ?`, [key]);
    return r.length ? String(r[0]!.value) : null;
  }

  setMeta(key: string, value: string): void {
    this.run(`INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`, [key, value]);
  }

  get generation(): number {
    return Number(this.getMeta('generation') ?? 0);
  }

  // ---- sources ----

  listSources(): StoredSource[] {
    return this.all(`SELECT * FROM sources ORDER BY name`).map((r) => ({
      info: {
        id: String(r.id),
        name: String(r.name),
        engine: r.engine as SourceInfo['engine'],
        locator: String(r.locator),
        database: String(r.database),
        connectTemplate: r.connect_template === null ? null : String(r.connect_template),
        serverVersion: r.server_version === null ? null : String(r.server_version),
        indexedAt: String(r.indexed_at),
        tableCount: Number(r.table_count),
        columnCount: Number(r.column_count),
      },
      structureDigest: r.structure_digest === null ? null : String(r.structure_digest),
    }));
  }

  getSourceByName(name: string): StoredSource | null {
    return this.listSources().find((s) => s.info.name === name) ?? null;
  }

  /** Fingerprints of the stored relations of one source: `schema.table` → fingerprint. */
  fingerprints(sourceId: string): Map<string, string> {
    const out = new Map<string, string>();
    for (const r of this.all(`SELECT schema, name, fingerprint FROM relations WHERE source_id = ?`, [sourceId])) {
      out.set(`${String(r.schema)}.${String(r.name)}`, String(r.fingerprint));
    }
    return out;
  }

  loadTables(sourceId?: string): TableInfo[] {
    const rows = sourceId
      ? this.all(`SELECT body FROM relations WHERE source_id = ? ORDER BY schema, name`, [sourceId])
      : this.all(`SELECT body FROM relations ORDER BY source_id, schema, name`);
    return rows.map((r) => decodeTableBody(bodyOf(r.body)));
  }

  /** One stored relation (a primary-key look-up), or null when there is none by that name. */
  loadTable(sourceId: string, schema: string, name: string): TableInfo | null {
    if (this.closed) throw new CatalogError('io', `catalog ${this.path ?? '(in memory)'} is closed`);
    const stmt = (this.bodyStmt ??= this.db.prepare(`SELECT body FROM relations WHERE source_id = ? AND schema = ? AND name = ?`));
    try {
      stmt.bind([sourceId, schema, name]);
      return stmt.step() ? decodeTableBody(bodyOf(stmt.get()[0] as SqlValue)) : null;
    } finally {
      stmt.reset();
    }
  }

  /** Every relation with its source id, in one scan (what readers build their in-memory view from). */
  loadAllTables(): Array<{ sourceId: string; table: TableInfo }> {
    // Read in storage order and sorted here: ORDER BY would walk the primary-key index and fetch every row by rowid.
    const rows: Array<{ sourceId: string; schema: string; name: string; body: string | Uint8Array }> = [];
    const stmt = this.db.prepare(`SELECT source_id, schema, name, body FROM relations`);
    try {
      while (stmt.step()) {
        const [sourceId, schema, name, body] = stmt.get() as [string, string, string, SqlValue];
        rows.push({ sourceId, schema, name, body: bodyOf(body) });
      }
    } finally {
      stmt.free();
    }
    rows.sort((a, b) => compareText(a.sourceId, b.sourceId) || compareText(a.schema, b.schema) || compareText(a.name, b.name));
    return rows.map((r) => ({ sourceId: r.sourceId, table: decodeTableBody(r.body) }));
  }

  loadSchemas(sourceId: string): SchemaInfo[] {
    return this.all(`SELECT name, comment FROM schemas WHERE source_id = ? ORDER BY name`, [sourceId]).map((r) => ({
      name: String(r.name),
      comment: r.comment === null ? null : String(r.comment),
    }));
  }

  loadEnums(sourceId: string): EnumInfo[] {
    return this.all(`SELECT schema, name, labels FROM enums WHERE source_id = ? ORDER BY schema, name`, [sourceId]).map((r) => ({
      schema: String(r.schema),
      name: String(r.name),
      labels: JSON.parse(String(r.labels)) as string[],
    }));
  }

  /**
   * Writes one source's snapshot: upserts changed relations, deletes the ones gone, replaces schemas and enums.
   * Runs in one transaction of the in-memory database; nothing reaches disk until `save()`.
   */
  writeSource(input: {
    readonly info: SourceInfo;
    readonly structureDigest: string | null;
    readonly schemas: readonly SchemaInfo[];
    readonly enums: readonly EnumInfo[];
    readonly changed: readonly TableInfo[];
    readonly removed: readonly string[];
  }): void {
    const { info } = input;
    this.db.exec('BEGIN');
    try {
      const clash = this.all(`SELECT id FROM sources WHERE name = ? AND id <> ?`, [info.name, info.id]);
      if (clash.length) throw new CatalogError('name_taken', `source name '${info.name}' is already used by another connection`);
      this.run(
        `INSERT INTO sources (id, name, engine, locator, database, server_version, indexed_at, table_count, column_count, structure_digest, connect_template)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(id) DO UPDATE SET name = excluded.name, engine = excluded.engine, locator = excluded.locator,
           database = excluded.database, server_version = excluded.server_version, indexed_at = excluded.indexed_at,
           table_count = excluded.table_count, column_count = excluded.column_count, structure_digest = excluded.structure_digest,
           connect_template = excluded.connect_template`,
        [info.id, info.name, info.engine, info.locator, info.database, info.serverVersion, info.indexedAt, info.tableCount, info.columnCount, input.structureDigest, info.connectTemplate],
      );
      this.run(`DELETE FROM schemas WHERE source_id = ?`, [info.id]);
      for (const s of input.schemas) this.run(`INSERT INTO schemas (source_id, name, comment) VALUES (?, ?, ?)`, [info.id, s.name, s.comment]);
      this.run(`DELETE FROM enums WHERE source_id = ?`, [info.id]);
      for (const e of input.enums) {
        this.run(`INSERT INTO enums (source_id, schema, name, labels) VALUES (?, ?, ?, ?)`, [info.id, e.schema, e.name, JSON.stringify(e.labels)]);
      }
      const del = this.db.prepare(`DELETE FROM relations WHERE source_id = ? AND schema || '.' || name = ?`);
      for (const q of input.removed) del.run([info.id, q]);
      del.free();
      const up = this.db.prepare(
        `INSERT INTO relations (source_id, schema, name, kind, fingerprint, body) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT(source_id, schema, name) DO UPDATE SET kind = excluded.kind, fingerprint = excluded.fingerprint, body = excluded.body`,
      );
      for (const t of input.changed) up.run([info.id, t.schema, t.name, t.kind, t.fingerprint, encodeTableBody(t)]);
      up.free();
      this.db.exec('COMMIT');
    } catch (e) {
      this.db.exec('ROLLBACK');
      throw e;
    }
  }

  removeSource(name: string): boolean {
    const s = this.getSourceByName(name);
    if (!s) return false;
    const id = s.info.id;
    for (const t of ['relations', 'schemas', 'enums']) this.run(`DELETE FROM ${t} WHERE source_id = ?`, [id]);
    this.run(`DELETE FROM sources WHERE id = ?`, [id]);
    return true;
  }

  // ---- index runs ----

  recordRun(run: Omit<IndexRun, 'id'>): void {
    this.run(
      `INSERT INTO index_runs (source_id, source_name, started_at, finished_at, status, duration_ms, tables_total, tables_changed,
         tables_removed, mode, error_kind, error_message) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [run.sourceId, run.sourceName, run.startedAt, run.finishedAt, run.status, run.durationMs, run.tablesTotal, run.tablesChanged, run.tablesRemoved, run.mode, run.errorKind, run.errorMessage],
    );
    // Keep the history bounded: the last 50 runs per source.
    this.run(
      `DELETE FROM index_runs WHERE source_id = ? AND id NOT IN (SELECT id FROM index_runs WHERE source_id = ? ORDER BY id DESC LIMIT 50)`,
      [run.sourceId, run.sourceId],
    );
  }

  listRuns(limit = 20): IndexRun[] {
    return this.all(`SELECT * FROM index_runs ORDER BY id DESC LIMIT ?`, [limit]).map((r) => ({
      id: Number(r.id),
      sourceId: String(r.source_id),
      sourceName: String(r.source_name),
      startedAt: String(r.started_at),
      finishedAt: String(r.finished_at),
      status: r.status as IndexRun['status'],
      durationMs: Number(r.duration_ms),
      tablesTotal: Number(r.tables_total),
      tablesChanged: Number(r.tables_changed),
      tablesRemoved: Number(r.tables_removed),
      mode: r.mode as IndexRun['mode'],
      errorKind: r.error_kind === null ? null : String(r.error_kind),
      errorMessage: r.error_message === null ? null : String(r.error_message),
    }));
  }

  // ---- artifacts (derived data such as a serialised search index) ----

  getArtifact(key: string): Uint8Array | null {
    const r = this.all(`SELECT value FROM artifacts WHERE key = ?`, [key]);
    if (!r.length) return null;
    const v = r[0]!.value;
    return typeof v === 'string' ? Buffer.from(v, 'utf8') : (v as Uint8Array);
  }

  /** An artifact stored as text (setArtifact with `text`), decoded natively; null when there is none. */
  getArtifactText(key: string): string | null {
    const r = this.all(`SELECT value FROM artifacts WHERE key = ?`, [key]);
    if (!r.length) return null;
    const v = r[0]!.value;
    return typeof v === 'string' ? v : Buffer.from(v as Uint8Array).toString('utf8');
  }

  deleteArtifact(key: string): void {
    this.run(`DELETE FROM artifacts WHERE key = ?`, [key]);
  }

  /**
   * Stores an artifact. `text` stores UTF-8 bytes as TEXT, which a reader gets out of sql.js natively decoded
   * (getArtifactText). A BLOB comes out as bytes: in the bundles with one copy, from the source tree with sql.js's own
   * copy, one byte at a time in JavaScript (about 60 ms for 6 MB on a cold start; esbuild.mjs, SQLJS_PATCHES).
   */
  setArtifact(key: string, value: Uint8Array, opts: { readonly text?: boolean } = {}): void {
    const stored = opts.text ? Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('utf8') : value;
    this.run(`INSERT INTO artifacts (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`, [key, stored]);
  }

  /**
   * Bumps the generation and writes the whole catalog atomically: temp file in the same directory, fsync, rename,
   * fsync of the directory. A crash at any point leaves either the old or the new file, never a mix.
   * `beforeRename` (the writer's lock check) runs right before the rename and aborts the save by throwing.
   */
  save(filePath: string | null = this.path, beforeRename?: () => void): number {
    if (!filePath) throw new CatalogError('io', 'catalog has no path to save to');
    const generation = this.generation + 1;
    this.setMeta('generation', String(generation));
    this.setMeta('saved_at', new Date().toISOString());
    const bytes = this.db.export();
    const dir = path.dirname(filePath);
    makeDirs(dir, 0o700);
    const tmp = path.join(dir, `.${path.basename(filePath)}.${process.pid}.${Date.now()}.tmp`);
    try {
      const fd = fs.openSync(tmp, 'w', 0o600);
      try {
        writeAll(fd, bytes);
        fs.fsyncSync(fd);
        // What the disk holds is what was exported, or the old catalog stays: a short file never replaces it.
        const size = fs.fstatSync(fd).size;
        if (size !== bytes.length) throw new Error(`catalog file is ${size} bytes after writing ${bytes.length}`);
      } finally {
        fs.closeSync(fd);
      }
    } catch (e) {
      fs.rmSync(tmp, { force: true });
      throw new CatalogError('io', `could not write the catalog (${(e as Error).message}); the previous catalog is kept`);
    }
    try {
      beforeRename?.();
      fs.renameSync(tmp, filePath);
    } catch (e) {
      fs.rmSync(tmp, { force: true });
      throw e;
    }
    try {
      const dfd = fs.openSync(dir, 'r');
      fs.fsyncSync(dfd);
      fs.closeSync(dfd);
    } catch {
      // Directory fsync is not supported everywhere; the rename is still atomic.
    }
    writeCatalogSummary(filePath, generation, this.listSources());
    return generation;
  }
}

/** Reads the generation of a catalog file without keeping it open (cheap change detection for readers). */
export async function readGeneration(filePath: string): Promise<number | null> {
  try {
    const s = await CatalogStore.open(filePath);
    try {
      return s.generation;
    } finally {
      s.close();
    }
  } catch {
    return null;
  }
}
