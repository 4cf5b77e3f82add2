import { keptSample, SAMPLE_VALUE_CHARS } from '../sample-text';
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import initSqlJs, { type Database, type SqlJsStatic, type SqlValue } from 'sql.js';
import {
  qualifiedName,
  type CheckConstraint,
  type ColumnInfo,
  type ColumnStats,
  type ForeignKeyInfo,
  type IndexInfo,
  type KeyConstraint,
  type TableInfo,
} from '../../catalog/model';
import { codeListValues, isCodeListSize } from '../../indexing/code-values';
import { SourceError, toSourceError } from '../errors';
import { FINGERPRINT_VERSION, tableFingerprint } from '../fingerprint';
import type { IntrospectOptions, IntrospectProgress, IntrospectResult, Introspector } from '../introspector';
import type { SqliteSourceSpec } from '../locator';
import { checkInListLabels, parseCreateIndex, parseCreateTable, type ParsedConstraint } from './ddl';
import { exactRow } from '../../sql/caps';
import { sqliteViewBody } from '../../sql/sqlite-tokens';

export interface SqliteIntrospectorOptions {
  /** Loads sql.js; injected so bundles can point at their own wasm. Default: `initSqlJs()`. */
  readonly loadSqlJs?: () => Promise<SqlJsStatic>;
  /** Files above this size are refused (sql.js holds the whole database in memory). Default 1 GiB. */
  readonly maxFileBytes?: number;
  /** Tables are counted exactly up to this many rows; above it the count is estimated. Default 500,000. */
  readonly exactCountCap?: number;
  /** Rows read per table for statistics. Default 2,000. */
  readonly statSampleRows?: number;
}

export const SQLITE_SCHEMA = 'main';
const HEADER = Buffer.from('SQLite format 3\0', 'latin1');
const DEFAULT_SAMPLE_ROWS = 50;
/** Text columns with at most this many distinct values in the sample get most-common values. */
const MCV_MAX_DISTINCT = 50;
const MCV_KEEP = 10;

interface TableListRow {
  readonly name: string;
  readonly type: string;
  readonly wr: number;
  readonly sql: string | null;
}

interface XInfoRow {
  readonly cid: number;
  readonly name: string;
  readonly type: string;
  readonly notnull: number;
  readonly dflt_value: string | null;
  readonly pk: number;
  readonly hidden: number;
}

interface ForeignKeyRow {
  readonly id: number;
  readonly seq: number;
  readonly table: string;
  readonly from: string;
  readonly to: string | null;
  readonly on_update: string;
  readonly on_delete: string;
}

interface IndexListRow {
  readonly name: string;
  readonly unique: number;
  readonly origin: string;
  readonly partial: number;
}

interface IndexXInfoRow {
  readonly seqno: number;
  readonly cid: number;
  readonly name: string | null;
  readonly key: number;
}

/**
 * SQLite introspector over sql.js. The file is read once into memory and opened from that copy, so the source file is
 * never written (no journal, no WAL checkpoint, no lock). Structure comes from sqlite_schema and the PRAGMA table-valued
 * functions (https://www.sqlite.org/pragma.html#pragfunc); statistics come from a bounded sample.
 */
export class SqliteIntrospector implements Introspector {
  readonly engine = 'sqlite' as const;
  private db: Database | null = null;

  constructor(
    private readonly spec: SqliteSourceSpec,
    private readonly options: SqliteIntrospectorOptions = {},
  ) {}

  async introspect(opts: IntrospectOptions = {}): Promise<IntrospectResult> {
    const progress = (p: IntrospectProgress): void => opts.onProgress?.(p);
    try {
      throwIfAborted(opts.signal);
      progress({ phase: 'connect', done: 0, total: 1, message: `opening ${this.spec.path}` });
      const db = await this.open();
      progress({ phase: 'connect', done: 1, total: 1 });
      const wantMain = !opts.schemas || opts.schemas.length === 0 || opts.schemas.includes(SQLITE_SCHEMA);
      const warnings: string[] = [];
      const tables: TableInfo[] = [];
      const samples = new Map<string, Map<string, string[]>>();
      const codeValues = new Map<string, Map<string, string[]>>();
      const sampleRows = Math.max(0, Math.floor(opts.sampleRows ?? DEFAULT_SAMPLE_ROWS));

      const list = wantMain ? this.tableList(db) : [];
      const actualName = new Map(list.map((t) => [t.name.toLowerCase(), t.name] as const));
      progress({ phase: 'tables', done: 0, total: list.length, message: `${list.length} relations` });
      let done = 0;
      for (const t of list) {
        throwIfAborted(opts.signal);
        progress({ phase: 'columns', done: done++, total: list.length, message: t.name });
        try {
          const { table, sample, labels } = this.readTable(db, t, actualName, sampleRows, warnings);
          tables.push(table);
          if (sample.size > 0) samples.set(qualifiedName(SQLITE_SCHEMA, t.name), sample);
          if (labels.size > 0) codeValues.set(qualifiedName(SQLITE_SCHEMA, t.name), labels);
        } catch (err) {
          if (err instanceof SourceError) throw err;
          warnings.push(`${t.type} ${t.name} skipped: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
      progress({ phase: 'done', done: tables.length, total: tables.length });
      return {
        database: this.spec.path,
        serverVersion: this.sqliteVersion(db),
        snapshot: { schemas: wantMain ? [{ name: SQLITE_SCHEMA, comment: null }] : [], tables, enums: [] },
        samples,
        codeValues,
        warnings,
      };
    } catch (err) {
      throw toSourceError(err, this.spec);
    } finally {
      // The in-memory copy is released after each run; a later run reads the file afresh.
      this.closeSync();
    }
  }

  /**
   * The schema text (sqlite_schema) of the file: any CREATE/ALTER/DROP changes it, data changes do not. The file is
   * read either way, so this saves the per-table PRAGMAs, counts and samples.
   */
  async structureDigest(opts: Pick<IntrospectOptions, 'schemas' | 'sampleRows' | 'signal'> = {}): Promise<string> {
    try {
      throwIfAborted(opts.signal);
      const db = await this.open();
      const rows = db.exec(`SELECT type, name, tbl_name, coalesce(sql, '') FROM sqlite_schema ORDER BY type, name`)[0]?.values ?? [];
      // v2: code-list labels are kept, so a catalog indexed before reads the file again once.
      const parts = ['sqlite-structure-v2', FINGERPRINT_VERSION, this.spec.path, JSON.stringify(rows), JSON.stringify(opts.schemas ?? null), String(opts.sampleRows ?? DEFAULT_SAMPLE_ROWS)];
      return createHash('sha256').update(parts.join('\n')).digest('hex');
    } catch (err) {
      throw toSourceError(err, this.spec);
    } finally {
      this.closeSync();
    }
  }

  async close(): Promise<void> {
    this.closeSync();
  }

  private closeSync(): void {
    this.db?.close();
    this.db = null;
  }

  /** Checks the file before sql.js sees it: missing, directory, empty, too big, or not "SQLite format 3\0". */
  private async open(): Promise<Database> {
    if (this.db) return this.db;
    const file = this.spec.path;
    const st = await fs.stat(file);
    if (st.isDirectory()) throw new SourceError('not_sqlite', `${file} is a directory, not a SQLite file`, 'Point the source at the database file inside it.');
    if (!st.isFile()) throw new SourceError('not_sqlite', `${file} is not a regular file`, 'Point the source at a SQLite database file.');
    if (st.size === 0) throw new SourceError('not_sqlite', `${file} is empty (0 bytes), not a SQLite database`, 'Check the path; an empty file usually means the database was never created there.');
    const max = this.options.maxFileBytes ?? 1024 ** 3;
    if (st.size > max) {
      throw new SourceError('other', `${file} is ${(st.size / 1024 ** 2).toFixed(0)} MiB, above the ${(max / 1024 ** 2).toFixed(0)} MiB limit for SQLite sources`, 'Index a smaller copy (VACUUM INTO), or raise the limit.');
    }
    const bytes = await fs.readFile(file);
    if (bytes.length < 100 || !bytes.subarray(0, 16).equals(HEADER)) {
      throw new SourceError('not_sqlite', `${file} is not a SQLite 3 database (header mismatch)`, 'Check that the path names a SQLite database and not a dump, a CSV or an encrypted file.');
    }
    // Header bytes 18/19 = 2 mean WAL mode (https://www.sqlite.org/fileformat.html#file_format_version_numbers);
    // the in-memory copy cannot use WAL, so it is switched to rollback mode. The file on disk is untouched.
    if (bytes[18] === 2) bytes[18] = 1;
    if (bytes[19] === 2) bytes[19] = 1;
    const SQL = await (this.options.loadSqlJs ?? (() => initSqlJs()))();
    const db = new SQL.Database(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    try {
      db.exec('PRAGMA query_only = 1');
      db.exec('SELECT count(*) FROM sqlite_schema');
    } catch (err) {
      db.close();
      throw err;
    }
    this.db = db;
    return db;
  }

  private sqliteVersion(db: Database): string | null {
    const v = all<{ v: string }>(db, 'SELECT sqlite_version() AS v')[0]?.v;
    return v ? `SQLite ${v}` : null;
  }

  /** https://www.sqlite.org/pragma.html#pragma_table_list — 'shadow' tables of virtual tables are left out. */
  private tableList(db: Database): TableListRow[] {
    return all<TableListRow>(
      db,
      `SELECT l.name AS name, l.type AS type, l.wr AS wr, s.sql AS sql
       FROM pragma_table_list AS l
       LEFT JOIN sqlite_schema AS s ON s.name = l.name AND s.type IN ('table', 'view')
       WHERE l.schema = 'main' AND l.type IN ('table', 'view', 'virtual') AND l.name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
       ORDER BY l.name`,
    );
  }

  private readTable(
    db: Database,
    t: TableListRow,
    actualName: ReadonlyMap<string, string>,
    sampleRows: number,
    warnings: string[],
  ): { table: TableInfo; sample: Map<string, string[]>; labels: Map<string, string[]> } {
    const isView = t.type === 'view';
    // https://www.sqlite.org/pragma.html#pragma_table_xinfo — hidden: 1 virtual-table hidden, 2/3 generated.
    let xinfo: XInfoRow[] = [];
    try {
      xinfo = all<XInfoRow>(db, 'SELECT cid, name, type, "notnull", dflt_value, pk, hidden FROM pragma_table_xinfo(?)', [t.name]).filter((c) => c.hidden !== 1);
    } catch (err) {
      // A view over a function or table this SQLite build lacks still exists; it is listed without columns.
      if (!isView) throw err;
      warnings.push(`columns of view ${t.name} could not be resolved: ${err instanceof Error ? err.message : String(err)}`);
    }
    const parsed = t.sql && !isView ? parseCreateTable(t.sql) : { constraints: [], columnComments: new Map<string, string>() };
    const named = (kind: ParsedConstraint['kind'], cols: readonly string[]): string | null =>
      parsed.constraints.find((c) => c.kind === kind && c.name && sameCols(c.columns, cols))?.name ?? null;

    const checkConstraints: CheckConstraint[] = parsed.constraints
      .filter((c) => c.kind === 'check' && c.expression)
      .map((c, i) => ({ name: c.name ?? `${t.name}_check${i + 1}`, expression: c.expression as string }));

    const pkCols = xinfo.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name);
    const primaryKey: KeyConstraint | null = pkCols.length > 0 ? { name: named('primary', pkCols) ?? `${t.name}_pkey`, columns: pkCols } : null;

    // https://www.sqlite.org/pragma.html#pragma_foreign_key_list — one row per column, grouped by id.
    const fkRows = isView ? [] : all<ForeignKeyRow>(db, 'SELECT id, seq, "table", "from", "to", on_update, on_delete FROM pragma_foreign_key_list(?)', [t.name]);
    const foreignKeys: ForeignKeyInfo[] = [];
    for (const [, rows] of groupBy(fkRows, (r) => r.id)) {
      rows.sort((a, b) => a.seq - b.seq);
      const first = rows[0] as ForeignKeyRow;
      const targetTable = actualName.get(first.table.toLowerCase()) ?? first.table;
      let targetColumns = rows.map((r) => r.to);
      if (targetColumns.some((c) => c === null)) {
        // REFERENCES t without columns means t's primary key.
        targetColumns = all<XInfoRow>(db, 'SELECT name, pk FROM pragma_table_xinfo(?)', [targetTable])
          .filter((c) => c.pk > 0)
          .sort((a, b) => a.pk - b.pk)
          .map((c) => c.name);
      }
      const columns = rows.map((r) => r.from);
      foreignKeys.push({
        name: named('foreign', columns) ?? `${t.name}_${columns.join('_')}_fkey`,
        columns,
        targetSchema: SQLITE_SCHEMA,
        targetTable,
        targetColumns: targetColumns.map((c) => c ?? ''),
        onDelete: first.on_delete,
        onUpdate: first.on_update,
      });
    }
    foreignKeys.sort((a, b) => cmp(a.name, b.name));

    // https://www.sqlite.org/pragma.html#pragma_index_list and #pragma_index_xinfo (cid -2: expression).
    const indexes: IndexInfo[] = [];
    const uniqueConstraints: KeyConstraint[] = [];
    const indexList = isView ? [] : all<IndexListRow>(db, 'SELECT name, "unique", origin, partial FROM pragma_index_list(?)', [t.name]);
    for (const ix of indexList) {
      const keys = all<IndexXInfoRow>(db, 'SELECT seqno, cid, name, "key" FROM pragma_index_xinfo(?)', [ix.name])
        .filter((k) => k.key === 1)
        .sort((a, b) => a.seqno - b.seqno);
      const ddl = all<{ sql: string | null }>(db, `SELECT sql FROM sqlite_schema WHERE type = 'index' AND name = ?`, [ix.name])[0]?.sql ?? null;
      const parsedIx = ddl ? parseCreateIndex(ddl) : null;
      const columns = keys.map((k, i) => k.name ?? parsedIx?.terms[i] ?? '<expression>');
      indexes.push({
        name: ix.name,
        columns,
        isUnique: ix.unique === 1,
        isPrimary: ix.origin === 'pk',
        method: 'btree',
        predicate: ix.partial === 1 ? (parsedIx?.predicate ?? null) : null,
      });
      if (ix.origin === 'u') uniqueConstraints.push({ name: named('unique', columns) ?? `${t.name}_${columns.join('_')}_key`, columns });
    }
    indexes.sort((a, b) => cmp(a.name, b.name));

    const rowEstimate = isView ? null : this.countRows(db, t);
    const colNames = xinfo.map((c) => c.name);
    const sampled = colNames.length > 0 && !isView && rowEstimate !== 0 ? this.readSample(db, t, colNames, rowEstimate) : null;
    const sample = new Map<string, string[]>();
    const labels = new Map<string, string[]>();
    const whole = sampled !== null && sampled.complete && isCodeListSize(rowEstimate);

    const columns: ColumnInfo[] = xinfo.map((c, i) => {
      const values = sampled ? sampled.rows.map((r) => r[i] as SqlValue) : [];
      const textLike = isTextLike(c.type, values);
      if (textLike && sampleRows > 0) {
        const vals = values.filter((v): v is string => typeof v === 'string').slice(0, sampleRows).map(keptSample);
        if (vals.length > 0) sample.set(c.name, vals);
      }
      const codes = whole && textLike ? codeListValues(values.filter((v): v is string => typeof v === 'string')) : null;
      if (codes !== null) labels.set(c.name, codes);
      const check = checkConstraints.map((k) => checkInListLabels(k.expression, c.name)).find((l) => l !== null) ?? null;
      return {
        name: c.name,
        ordinal: c.cid + 1,
        dataType: c.type,
        // A PRIMARY KEY column of a rowid table that is INTEGER is the rowid and cannot be NULL.
        isNullable: c.notnull === 0 && !(c.pk > 0 && pkCols.length === 1 && /^INTEGER$/i.test(c.type) && t.wr === 0),
        defaultExpr: c.dflt_value,
        isGenerated: c.hidden === 2 || c.hidden === 3,
        isIdentity: false,
        comment: parsed.columnComments.get(c.name) ?? null,
        enumLabels: check,
        stats: sampled ? columnStats(values, textLike, sampled.complete, rowEstimate) : null,
        pii: null,
      };
    });

    const base: Omit<TableInfo, 'fingerprint'> = {
      schema: SQLITE_SCHEMA,
      name: t.name,
      kind: isView ? 'view' : 'table',
      comment: null,
      rowEstimate,
      columns,
      primaryKey,
      uniqueConstraints,
      checkConstraints,
      foreignKeys,
      indexes,
      partitions: [],
      viewDefinition: isView && t.sql ? (sqliteViewBody(t.sql) ?? t.sql.trim()) : null,
    };
    return { table: { ...base, fingerprint: tableFingerprint(base) }, sample, labels };
  }

  /** Exact COUNT(*) bounded by a LIMIT; past the cap, max(rowid) or sqlite_stat1 stands in as an estimate. */
  private countRows(db: Database, t: TableListRow): number | null {
    if (t.type === 'virtual') return null;
    const cap = this.options.exactCountCap ?? 500_000;
    const q = quoteIdent(t.name);
    const n = Number(all<{ n: number }>(db, `SELECT count(*) AS n FROM (SELECT 1 FROM ${q} LIMIT ${cap + 1})`)[0]?.n ?? 0);
    if (n <= cap) return n;
    if (t.wr === 0) {
      const max = Number(all<{ m: number | null }>(db, `SELECT max(rowid) AS m FROM ${q}`)[0]?.m ?? 0);
      if (max > cap) return max;
    }
    const stat = statRows(db, t.name);
    return stat !== null && stat > cap ? stat : cap;
  }

  private readSample(db: Database, t: TableListRow, cols: readonly string[], rows: number | null): { rows: SqlValue[][]; complete: boolean } {
    const n = this.options.statSampleRows ?? 2_000;
    const cap = this.options.exactCountCap ?? 500_000;
    const select = `SELECT ${cols.map(quoteIdent).join(', ')} FROM ${quoteIdent(t.name)}`;
    if (rows !== null && rows <= n) return { rows: values(db, select), complete: true };
    // Random order over the whole table while that is cheap; past the count cap, the first rows.
    const order = rows !== null && rows <= cap ? ' ORDER BY random()' : '';
    return { rows: values(db, `${select}${order} LIMIT ${n}`), complete: false };
  }
}

/** TEXT affinity (https://www.sqlite.org/datatype3.html#determination_of_column_affinity), or mostly text values. */
function isTextLike(declared: string, values: readonly SqlValue[]): boolean {
  if (/CHAR|CLOB|TEXT/i.test(declared)) return true;
  if (/INT|BLOB|REAL|FLOA|DOUB/i.test(declared)) return false;
  const nonNull = values.filter((v) => v !== null);
  return nonNull.length > 0 && nonNull.filter((v) => typeof v === 'string').length * 2 > nonNull.length;
}

function columnStats(values: readonly SqlValue[], textLike: boolean, complete: boolean, rowCount: number | null): ColumnStats {
  const n = values.length;
  const nonNull = values.filter((v) => v !== null);
  const counts = new Map<string, number>();
  let width = 0;
  let min: SqlValue = null;
  let max: SqlValue = null;
  for (const v of nonNull) {
    const key = v instanceof Uint8Array ? `x'${Buffer.from(v).toString('hex')}'` : String(v);
    counts.set(key, (counts.get(key) ?? 0) + 1);
    width += typeof v === 'string' ? Buffer.byteLength(v) : v instanceof Uint8Array ? v.length : 8;
    if (v instanceof Uint8Array) continue;
    if (min === null || compare(v, min) < 0) min = v;
    if (max === null || compare(v, max) > 0) max = v;
  }
  const d = counts.size;
  let distinct: number | null = d;
  if (!complete && nonNull.length > 0) {
    // Haas & Stokes "Duj1", the estimator PostgreSQL's ANALYZE uses: n·d / (n − f1 + f1·n/N).
    const f1 = [...counts.values()].filter((c) => c === 1).length;
    const N = rowCount !== null && rowCount > 0 ? rowCount * (nonNull.length / n) : nonNull.length;
    const est = (nonNull.length * d) / (nonNull.length - f1 + (f1 * nonNull.length) / N);
    distinct = Math.round(Math.min(Math.max(d, Number.isFinite(est) ? est : d), N));
  }
  let mcv: string[] | null = null;
  let mcf: number[] | null = null;
  if (textLike && d > 0 && d <= MCV_MAX_DISTINCT) {
    const top = [...counts.entries()].sort((a, b) => b[1] - a[1] || cmp(a[0], b[0])).slice(0, MCV_KEEP);
    mcv = top.map(([k]) => k.slice(0, SAMPLE_VALUE_CHARS));
    mcf = top.map(([, c]) => c / n);
  }
  return {
    nullFraction: n > 0 ? (n - nonNull.length) / n : null,
    distinctEstimate: n > 0 ? distinct : null,
    mostCommonValues: mcv,
    mostCommonFreqs: mcf,
    minValue: min === null ? null : String(min).slice(0, SAMPLE_VALUE_CHARS),
    maxValue: max === null ? null : String(max).slice(0, SAMPLE_VALUE_CHARS),
    avgWidth: nonNull.length > 0 ? Math.round(width / nonNull.length) : null,
    origin: 'sample',
  };
}

/** SQLite's cross-type order: numbers before text (https://www.sqlite.org/datatype3.html#sort_order). */
function compare(a: SqlValue, b: SqlValue): number {
  const ta = typeof a === 'string' ? 1 : 0;
  const tb = typeof b === 'string' ? 1 : 0;
  if (ta !== tb) return ta - tb;
  if (typeof a === 'string' && typeof b === 'string') return cmp(a, b);
  return Number(a) - Number(b);
}

/** https://www.sqlite.org/fileformat2.html#stat1tab — the first integer of `stat` is the row count. */
function statRows(db: Database, table: string): number | null {
  try {
    const stat = all<{ stat: string }>(db, 'SELECT stat FROM sqlite_stat1 WHERE tbl = ? LIMIT 1', [table])[0]?.stat;
    const n = stat ? Number(stat.split(' ')[0]) : NaN;
    return Number.isFinite(n) ? n : null;
  } catch {
    return null;
  }
}


function all<T>(db: Database, sql: string, params: SqlValue[] = []): T[] {
  const stmt = db.prepare(sql);
  try {
    stmt.bind(params);
    const out: T[] = [];
    while (stmt.step()) out.push(stmt.getAsObject() as unknown as T);
    return out;
  } finally {
    stmt.free();
  }
}

function values(db: Database, sql: string): SqlValue[][] {
  const stmt = db.prepare(sql);
  try {
    const out: SqlValue[][] = [];
    while (stmt.step()) out.push(exactRow(stmt) as SqlValue[]);
    return out;
  } finally {
    stmt.free();
  }
}

function groupBy<T, K>(xs: readonly T[], key: (x: T) => K): Map<K, T[]> {
  const out = new Map<K, T[]>();
  for (const x of xs) {
    const k = key(x);
    const list = out.get(k);
    if (list) list.push(x);
    else out.set(k, [x]);
  }
  return out;
}

function sameCols(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x.toLowerCase() === (b[i] ?? '').toLowerCase());
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) {
    const e = new Error('aborted');
    e.name = 'AbortError';
    throw e;
  }
}
