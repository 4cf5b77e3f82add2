import { keptSample, SAMPLE_SCAN_CHARS } from '../sample-text';
import { createHash } from 'node:crypto';
import type { Connection, RowDataPacket } from 'mysql2/promise';
import {
  qualifiedName,
  type CheckConstraint,
  type ColumnInfo,
  type ColumnStats,
  type ForeignKeyInfo,
  type IndexInfo,
  type KeyConstraint,
  type SchemaInfo,
  type TableInfo,
} from '../../catalog/model';
import { CODE_LIST_MAX_ROWS, codeListValues, isCodeListSize } from '../../indexing/code-values';
import { isMariaDbVersion, mysqlConnectionOptions, mysqlPromiseDriver, quoteMysqlIdent } from '../../sql/mysql-driver';
import { SourceError, toSourceError } from '../errors';
import { FINGERPRINT_VERSION, tableFingerprint } from '../fingerprint';
import type { IntrospectOptions, IntrospectProgress, IntrospectResult, Introspector, SampleValues } from '../introspector';
import type { MysqlSourceSpec } from '../locator';
import {
  CHECKS_MARIADB_SQL,
  CHECKS_MYSQL_SQL,
  COLUMNS_SQL,
  indexesSql,
  KEYS_SQL,
  PARTITIONS_SQL,
  SCHEMAS_SQL,
  structureDigestSql,
  SYSTEM_SCHEMAS,
  TABLES_SQL,
  VIEWS_SQL,
  type CheckRow,
  type ColumnRow,
  type IndexRow,
  type KeyRow,
  type PartitionRow,
  type SchemaRow,
  type TableRow,
  type ViewRow,
} from './queries';

export interface MysqlIntrospectorOptions {
  readonly password?: string;
  /** Per-statement limit (ms) for catalog reads and samples. Default 30 s. */
  readonly statementTimeoutMs?: number;
  readonly connectTimeoutMs?: number;
}

export const DEFAULT_SAMPLE_ROWS = 50;
/** Up to this many estimated rows, samples are drawn at random over the whole table (a scan and a sort of it). */
const RANDOM_SAMPLE_MAX_ROWS = 20_000;
/** Bumped when what an introspection keeps changes (v2: code-list labels), so the next run reads the source again. */
const DIGEST_VERSION = 'mysql-structure-v2';
/** Types whose values are text the PII classifier and the value index can read. */
const TEXT_TYPES = new Set(['char', 'varchar', 'tinytext', 'text', 'mediumtext', 'longtext', 'enum', 'set', 'json']);

interface ServerFacts {
  readonly version: string;
  readonly database: string | null;
  readonly mariadb: boolean;
}

/**
 * MySQL / MariaDB introspector (mysql2). Databases are the schemas. Everything comes from information_schema in a
 * handful of bulk queries inside one read-only transaction; statistics are the storage engine's own (TABLE_ROWS,
 * index CARDINALITY), so nothing is scanned. Samples for the PII classifier are `LIMIT n` reads of text columns.
 */
export class MysqlIntrospector implements Introspector {
  readonly engine = 'mysql' as const;
  private conn: Connection | null = null;

  constructor(
    private readonly spec: MysqlSourceSpec,
    private readonly options: MysqlIntrospectorOptions = {},
  ) {}

  async introspect(opts: IntrospectOptions = {}): Promise<IntrospectResult> {
    const progress = (p: IntrospectProgress): void => opts.onProgress?.(p);
    const signal = opts.signal;
    const onAbort = (): void => {
      this.conn?.destroy();
    };
    try {
      throwIfAborted(signal);
      signal?.addEventListener('abort', onAbort, { once: true });
      progress({ phase: 'connect', done: 0, total: 1, message: `connecting to ${this.spec.host}:${this.spec.port}/${this.spec.database}` });
      const conn = await this.connect();
      const facts = await this.prepare(conn);
      progress({ phase: 'connect', done: 1, total: 1 });
      const q = async <R>(sql: string, params: unknown[] = []): Promise<R[]> => {
        throwIfAborted(signal);
        const [rows] = await conn.query<RowDataPacket[]>(sql, params);
        return rows as unknown as R[];
      };

      progress({ phase: 'schemas', done: 0, total: 1 });
      const filter = this.schemaFilter(opts.schemas);
      const schemaRows = await q<SchemaRow>(SCHEMAS_SQL, [SYSTEM_SCHEMAS, filter, filter ?? ['']]);
      const names = schemaRows.map((s) => s.name);
      progress({ phase: 'schemas', done: 1, total: 1, message: `${names.length} databases` });
      const inList = names.length > 0 ? names : [''];

      progress({ phase: 'tables', done: 0, total: 1 });
      const tableRows = await q<TableRow>(TABLES_SQL, [inList]);
      progress({ phase: 'tables', done: 1, total: 1, message: `${tableRows.length} relations` });
      progress({ phase: 'columns', done: 0, total: 1 });
      const columnRows = await q<ColumnRow>(COLUMNS_SQL, [inList]);
      progress({ phase: 'columns', done: 1, total: 1, message: `${columnRows.length} columns` });
      progress({ phase: 'constraints', done: 0, total: 3 });
      const keyRows = await q<KeyRow>(KEYS_SQL, [inList]);
      const checkRows = await q<CheckRow>(facts.mariadb ? CHECKS_MARIADB_SQL : CHECKS_MYSQL_SQL, [inList]).catch(() => [] as CheckRow[]);
      progress({ phase: 'constraints', done: 1, total: 3 });
      const indexRows = await q<IndexRow>(indexesSql(!facts.mariadb), [inList]);
      progress({ phase: 'constraints', done: 2, total: 3 });
      const viewRows = await q<ViewRow>(VIEWS_SQL, [inList]);
      const partitionRows = await q<PartitionRow>(PARTITIONS_SQL, [inList]);
      progress({ phase: 'constraints', done: 3, total: 3 });

      progress({ phase: 'stats', done: 0, total: 1 });
      const mapped = mapMysqlCatalog({ schemas: schemaRows, tables: tableRows, columns: columnRows, keys: keyRows, checks: checkRows, indexes: indexRows, views: viewRows, partitions: partitionRows }, facts.mariadb);
      progress({ phase: 'stats', done: 1, total: 1 });

      const sampleRows = Math.max(0, Math.floor(opts.sampleRows ?? DEFAULT_SAMPLE_ROWS));
      const warnings: string[] = [];
      let tables = mapped.tables;
      let samples: SampleValues = new Map();
      let codeValues: SampleValues = new Map();
      if (sampleRows > 0) {
        const s = await this.sample(conn, mapped, sampleRows, signal, progress, warnings);
        samples = s.values;
        codeValues = s.codeValues;
        tables = tables.map((t) => withSampleStats(t, s.stats.get(qualifiedName(t.schema, t.name))));
      }
      await conn.query('ROLLBACK');
      progress({ phase: 'done', done: tables.length, total: tables.length });
      return {
        database: facts.database ?? this.spec.database,
        serverVersion: facts.version,
        snapshot: { schemas: mapped.schemas, tables, enums: [] },
        samples,
        codeValues,
        warnings,
      };
    } catch (err) {
      if (signal?.aborted) throw new SourceError('cancelled', `reading ${this.spec.host}:${this.spec.port}/${this.spec.database} was cancelled`, 'Start indexing again when ready.');
      throw toSourceError(err, this.spec, [this.options.password]);
    } finally {
      signal?.removeEventListener('abort', onAbort);
      await this.close();
    }
  }

  /**
   * MySQL has no per-row version to hash (PostgreSQL's xmin), so the digest is a server-side CRC32 sum over the
   * structural information_schema rows: one round trip, no table is opened for data.
   */
  async structureDigest(opts: Pick<IntrospectOptions, 'schemas' | 'sampleRows' | 'signal'> = {}): Promise<string> {
    try {
      throwIfAborted(opts.signal);
      const conn = await this.connect();
      const facts = await this.prepare(conn);
      const filter = this.schemaFilter(opts.schemas);
      const [schemaRows] = await conn.query<RowDataPacket[]>(SCHEMAS_SQL, [SYSTEM_SCHEMAS, filter, filter ?? ['']]);
      const names = (schemaRows as unknown as SchemaRow[]).map((s) => s.name);
      const inList = names.length > 0 ? names : [''];
      const [rows] = await conn.query<RowDataPacket[]>(structureDigestSql(facts.mariadb ? CHECKS_MARIADB_SQL : CHECKS_MYSQL_SQL), Array(10).fill(inList));
      const r = rows[0] as { n?: unknown; h?: unknown } | undefined;
      await conn.query('ROLLBACK');
      const parts = [DIGEST_VERSION, FINGERPRINT_VERSION, `${String(r?.n ?? '')}:${String(r?.h ?? '')}`, names.join(','), JSON.stringify(opts.schemas ?? null), String(opts.sampleRows ?? DEFAULT_SAMPLE_ROWS)];
      return createHash('sha256').update(parts.join('\n')).digest('hex');
    } catch (err) {
      throw toSourceError(err, this.spec, [this.options.password]);
    } finally {
      await this.close();
    }
  }

  async close(): Promise<void> {
    const c = this.conn;
    this.conn = null;
    if (c) await c.end().catch(() => c.destroy());
  }

  /** The URL's database, unless the caller named schemas; with neither, every non-system database. */
  private schemaFilter(schemas: readonly string[] | undefined): string[] | null {
    if (schemas && schemas.length > 0) return [...schemas];
    return this.spec.database ? [this.spec.database] : null;
  }

  private async connect(): Promise<Connection> {
    if (this.conn) return this.conn;
    const conn = await mysqlPromiseDriver().createConnection(mysqlConnectionOptions(this.spec, this.options));
    // An idle connection whose server goes away emits 'error'; without a listener that would crash the process.
    conn.on('error', () => undefined);
    this.conn = conn;
    return conn;
  }

  /** Flavour, a per-statement time limit and a read-only transaction (https://mariadb.com/kb/en/start-transaction/). */
  private async prepare(conn: Connection): Promise<ServerFacts> {
    const [rows] = await conn.query<RowDataPacket[]>('SELECT VERSION() AS version, DATABASE() AS db');
    const version = String(rows[0]?.version ?? '');
    const mariadb = isMariaDbVersion(version);
    const ms = Math.max(1, Math.floor(this.options.statementTimeoutMs ?? 30_000));
    // MariaDB: max_statement_time in seconds, any statement; MySQL: max_execution_time in ms, SELECTs only.
    await conn.query(mariadb ? `SET SESSION max_statement_time = ${ms / 1000}` : `SET SESSION max_execution_time = ${ms}`);
    // information_schema.TABLES answers from cached statistics unless told otherwise (MySQL 8 caches for a day).
    if (!mariadb) await conn.query('SET SESSION information_schema_stats_expiry = 0').catch(() => undefined);
    await conn.query('START TRANSACTION READ ONLY');
    return { version, database: (rows[0]?.db as string | null) ?? null, mariadb };
  }

  /** `LIMIT n` of each base table's text columns, cut to 200 characters server-side; one table failing is a warning. */
  private async sample(
    conn: Connection,
    mapped: MappedMysql,
    n: number,
    signal: AbortSignal | undefined,
    progress: (p: IntrospectProgress) => void,
    warnings: string[],
  ): Promise<{ values: SampleValues; stats: Map<string, Map<string, ColumnStats>>; codeValues: SampleValues }> {
    const values = new Map<string, Map<string, string[]>>();
    const codeValues = new Map<string, Map<string, string[]>>();
    const stats = new Map<string, Map<string, ColumnStats>>();
    const tables = mapped.tables.filter((t) => t.kind === 'table');
    let done = 0;
    for (const t of tables) {
      throwIfAborted(signal);
      progress({ phase: 'samples', done: done++, total: tables.length });
      const key = qualifiedName(t.schema, t.name);
      const cols = mapped.textColumns.get(key) ?? [];
      if (cols.length === 0 || t.rowEstimate === 0) continue;
      const select = cols.map((c) => `LEFT(${quoteMysqlIdent(c)}, ${SAMPLE_SCAN_CHARS})`).join(', ');
      // A table that may be a code list is read whole (one row past the bound tells it is not), for its labels.
      const whole = t.rowEstimate === null || isCodeListSize(t.rowEstimate);
      const limit = whole ? Math.max(n, CODE_LIST_MAX_ROWS + 1) : n;
      try {
        // Rows from all over a table of up to RANDOM_SAMPLE_MAX_ROWS, not its first ones (a secret pasted into rows
        // past them would go unseen), the same rows on every run of the same data (a seeded RAND).
        const spread = !whole && t.rowEstimate !== null && t.rowEstimate > n && t.rowEstimate <= RANDOM_SAMPLE_MAX_ROWS ? ' ORDER BY RAND(7)' : '';
        const [rows] = await conn.query<RowDataPacket[]>({ sql: `SELECT ${select} FROM ${quoteMysqlIdent(t.schema)}.${quoteMysqlIdent(t.name)}${spread} LIMIT ${limit}`, rowsAsArray: true });
        const all = rows as unknown as unknown[][];
        const arr = all.slice(0, n);
        const perCol = new Map<string, string[]>();
        const perStats = new Map<string, ColumnStats>();
        const labels = new Map<string, string[]>();
        cols.forEach((c, i) => {
          const raw = arr.map((r) => (typeof r[i] === 'string' ? keptSample(r[i]) : r[i]));
          const texts = raw.filter((v): v is string => typeof v === 'string');
          if (texts.length > 0) perCol.set(c, texts);
          if (raw.length > 0) perStats.set(c, sampleStats(raw, texts));
          const codes = whole && isCodeListSize(all.length) ? codeListValues(all.map((r) => (typeof r[i] === 'string' ? keptSample(r[i]) : null))) : null;
          if (codes !== null) labels.set(c, codes);
        });
        if (perCol.size > 0) values.set(key, perCol);
        if (labels.size > 0) codeValues.set(key, labels);
        stats.set(key, perStats);
      } catch (err) {
        warnings.push(`samples skipped for ${key}: ${toSourceError(err, this.spec, [this.options.password]).message}`);
      }
    }
    progress({ phase: 'samples', done: tables.length, total: tables.length });
    return { values, stats, codeValues };
  }
}

export interface MysqlCatalogRows {
  readonly schemas: readonly SchemaRow[];
  readonly tables: readonly TableRow[];
  readonly columns: readonly ColumnRow[];
  readonly keys: readonly KeyRow[];
  readonly checks: readonly CheckRow[];
  readonly indexes: readonly IndexRow[];
  readonly views: readonly ViewRow[];
  readonly partitions: readonly PartitionRow[];
}

export interface MappedMysql {
  readonly schemas: readonly SchemaInfo[];
  readonly tables: readonly TableInfo[];
  /** Text-like column names per `schema.table`, for sampling. */
  readonly textColumns: ReadonlyMap<string, readonly string[]>;
}

/** Raw information_schema rows → domain model. Partitions are folded (MySQL partitions are never separate tables). */
export function mapMysqlCatalog(rows: MysqlCatalogRows, mariadb: boolean): MappedMysql {
  const key = (s: string, t: string): string => qualifiedName(s, t);
  const columnsBy = group(rows.columns, (c) => key(c.schema, c.table));
  const keysBy = group(rows.keys, (k) => key(k.schema, k.table));
  const checksBy = group(rows.checks, (c) => key(c.schema, c.table));
  const indexesBy = group(rows.indexes, (i) => key(i.schema, i.table));
  const partsBy = group(rows.partitions, (p) => key(p.schema, p.table));
  const viewBy = new Map(rows.views.map((v) => [key(v.schema, v.name), v.definition] as const));
  const textColumns = new Map<string, string[]>();
  const tables: TableInfo[] = [];

  for (const t of rows.tables) {
    if (t.type === 'SEQUENCE' || t.type === 'SYSTEM VIEW') continue;
    const k = key(t.schema, t.name);
    const isView = t.type === 'VIEW';
    const checks = checksBy.get(k) ?? [];
    // MariaDB stores JSON as LONGTEXT with an automatic json_valid() check (https://mariadb.com/kb/en/json-data-type/).
    const jsonColumns = new Set(
      mariadb ? checks.map((c) => /^json_valid\(`((?:[^`]|``)+)`\)$/i.exec(c.clause.trim())?.[1]?.replace(/``/g, '`')).filter((c): c is string => !!c) : [],
    );
    const rowEstimate = isView ? null : num(t.rows);
    const indexRows = indexesBy.get(k) ?? [];
    const cardinality = new Map<string, number>();
    for (const ix of indexRows) {
      // The leading column of an index: its cardinality is the engine's distinct estimate for that column.
      if (Number(ix.seq) === 1 && ix.column && ix.sub_part === null) {
        const c = num(ix.cardinality);
        if (c !== null) cardinality.set(ix.column, Math.max(cardinality.get(ix.column) ?? 0, c));
      }
    }

    const columns: ColumnInfo[] = (columnsBy.get(k) ?? []).map((c) => {
      const extra = (c.extra ?? '').toUpperCase();
      const generated = /\b(VIRTUAL|STORED|PERSISTENT)\b/.test(extra) && /GENERATED/.test(extra);
      const isJson = jsonColumns.has(c.name);
      const dataType = isJson ? 'json' : fullType(c, t.collation);
      if (TEXT_TYPES.has(isJson ? 'json' : c.data_type.toLowerCase())) {
        const list = textColumns.get(k) ?? [];
        list.push(c.name);
        textColumns.set(k, list);
      }
      const distinct = cardinality.get(c.name);
      return {
        name: c.name,
        ordinal: Number(c.ordinal),
        dataType,
        isNullable: c.nullable === 'YES',
        // A view column reports its base column's default, which the view itself does not have.
        defaultExpr: generated ? `GENERATED ALWAYS AS (${c.generation ?? ''}) ${/STORED|PERSISTENT/.test(extra) ? 'STORED' : 'VIRTUAL'}` : isView ? null : defaultOf(c, mariadb),
        isGenerated: generated,
        isIdentity: extra.includes('AUTO_INCREMENT'),
        comment: c.comment ? c.comment : null,
        enumLabels: /^(enum|set)$/i.test(c.data_type) ? enumLabels(c.column_type) : null,
        stats:
          distinct !== undefined
            ? { nullFraction: null, distinctEstimate: distinct, mostCommonValues: null, mostCommonFreqs: null, minValue: null, maxValue: null, avgWidth: null, origin: 'sample' }
            : null,
        pii: null,
      };
    });

    let pkName: string | null = null;
    const pkColumns: string[] = [];
    const uniqueConstraints: KeyConstraint[] = [];
    const fks = new Map<string, { cols: string[]; refSchema: string; refTable: string; refCols: string[]; onUpdate: string | null; onDelete: string | null }>();
    for (const r of keysBy.get(k) ?? []) {
      if (r.type === 'PRIMARY KEY') {
        pkName = r.name;
        pkColumns.push(r.column);
      } else if (r.type === 'UNIQUE') {
        const u = uniqueConstraints.find((x) => x.name === r.name);
        if (u) (u.columns as string[]).push(r.column);
        else uniqueConstraints.push({ name: r.name, columns: [r.column] });
      } else if (r.type === 'FOREIGN KEY' && r.ref_table) {
        const f = fks.get(r.name) ?? { cols: [], refSchema: r.ref_schema ?? t.schema, refTable: r.ref_table, refCols: [], onUpdate: r.on_update, onDelete: r.on_delete };
        f.cols.push(r.column);
        f.refCols.push(r.ref_column ?? '');
        fks.set(r.name, f);
      }
    }
    const primaryKey: KeyConstraint | null = pkName ? { name: pkName, columns: pkColumns } : null;
    const foreignKeys: ForeignKeyInfo[] = [...fks.entries()].map(([name, f]) => ({
      name,
      columns: f.cols,
      targetSchema: f.refSchema,
      targetTable: f.refTable,
      targetColumns: f.refCols,
      onDelete: f.onDelete,
      onUpdate: f.onUpdate,
    }));
    const checkConstraints: CheckConstraint[] = checks
      // The json_valid() check MariaDB adds for a JSON column is the type itself, not a business rule.
      .filter((c) => !(jsonColumns.has(c.name) && /^json_valid\(/i.test(c.clause.trim())))
      .map((c) => ({ name: c.name, expression: c.clause }));

    const byIndex = new Map<string, IndexRow[]>();
    for (const ix of indexRows) byIndex.set(ix.name, [...(byIndex.get(ix.name) ?? []), ix]);
    const indexes: IndexInfo[] = [...byIndex.entries()].map(([name, parts]) => ({
      name,
      columns: parts.map((p) => (p.column ? (p.sub_part !== null ? `${p.column}(${String(p.sub_part)})` : p.column) : `(${p.expression ?? '?'})`)),
      isUnique: Number(parts[0]!.non_unique) === 0,
      isPrimary: name === 'PRIMARY',
      method: parts[0]!.method ? parts[0]!.method.toLowerCase() : null,
      predicate: null,
    }));

    const partitions = (partsBy.get(k) ?? []).map((p) => `${k}#${p.name}${p.sub ? `#${p.sub}` : ''}`);
    const body: Omit<TableInfo, 'fingerprint'> = {
      schema: t.schema,
      name: t.name,
      kind: isView ? 'view' : partitions.length > 0 ? 'partitioned_table' : 'table',
      comment: !isView && t.comment ? t.comment : null,
      rowEstimate,
      columns,
      primaryKey,
      uniqueConstraints,
      checkConstraints,
      foreignKeys,
      indexes,
      partitions,
      viewDefinition: isView ? (viewBy.get(k) ?? null) : null,
    };
    tables.push({ ...body, fingerprint: tableFingerprint(body) });
  }
  const schemas: SchemaInfo[] = rows.schemas.map((s) => ({ name: s.name, comment: null }));
  return { schemas, tables, textColumns };
}

/**
 * COLUMN_TYPE is the full declared type (`int(10) unsigned`, `enum('G','PG')`, `decimal(5,2)`); a character set
 * or collation that differs from the table's default is appended, since it changes comparison and sorting.
 */
function fullType(c: ColumnRow, tableCollation: string | null): string {
  let t = c.column_type;
  if (c.collation && tableCollation && c.collation !== tableCollation) t += ` CHARACTER SET ${c.charset ?? '?'} COLLATE ${c.collation}`;
  return t;
}

/** MariaDB quotes literal defaults and writes `NULL` for "no default"; MySQL returns the bare literal. */
function defaultOf(c: ColumnRow, mariadb: boolean): string | null {
  const d = c.default;
  if (d === null) return null;
  if (mariadb) return d === 'NULL' ? null : d;
  const extra = (c.extra ?? '').toUpperCase();
  if (extra.includes('DEFAULT_GENERATED')) return d;
  return /char|text|enum|set|date|time|year/i.test(c.data_type) ? `'${d.replace(/'/g, "''")}'` : d;
}

/** `enum('a','b''c')` → ['a', "b'c"]. */
export function enumLabels(columnType: string): string[] {
  const body = /^(?:enum|set)\((.*)\)$/is.exec(columnType.trim())?.[1] ?? '';
  const out: string[] = [];
  const re = /'((?:[^'\\]|''|\\.)*)'/g;
  for (const m of body.matchAll(re)) out.push((m[1] ?? '').replace(/''/g, "'").replace(/\\(.)/g, '$1'));
  return out;
}

function sampleStats(raw: readonly unknown[], texts: readonly string[]): ColumnStats {
  const nonNull = raw.filter((v) => v !== null && v !== undefined);
  const width = texts.reduce((n, s) => n + Buffer.byteLength(s), 0);
  return {
    nullFraction: raw.length > 0 ? (raw.length - nonNull.length) / raw.length : null,
    distinctEstimate: null,
    mostCommonValues: null,
    mostCommonFreqs: null,
    minValue: null,
    maxValue: null,
    avgWidth: texts.length > 0 ? Math.round(width / texts.length) : null,
    origin: 'sample',
  };
}

/** Index cardinality stays the distinct estimate; the sample adds the null fraction and width. */
function withSampleStats(t: TableInfo, stats: Map<string, ColumnStats> | undefined): TableInfo {
  if (!stats || stats.size === 0) return t;
  return {
    ...t,
    columns: t.columns.map((c) => {
      const s = stats.get(c.name);
      if (!s) return c;
      return { ...c, stats: { ...s, distinctEstimate: c.stats?.distinctEstimate ?? null } };
    }),
  };
}

function num(v: string | number | null | undefined): number | null {
  if (v === null || v === undefined || v === '') return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
}

function group<T>(xs: readonly T[], by: (x: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const x of xs) {
    const k = by(x);
    const list = m.get(k);
    if (list) list.push(x);
    else m.set(k, [x]);
  }
  return m;
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) {
    const e = new Error('aborted');
    e.name = 'AbortError';
    throw e;
  }
}
