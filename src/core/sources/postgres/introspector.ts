import { keptSample, SAMPLE_SCAN_CHARS } from '../sample-text';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Client, ClientConfig, QueryResult, QueryResultRow } from 'pg';
import { CODE_LIST_MAX_ROWS, codeListValues, isCodeListSize } from '../../indexing/code-values';
import { pgDriver } from '../../sql/pg-driver';
import { qualifiedName } from '../../catalog/model';
import type { CompositeTypeInfo } from '../../catalog/model';
import { SourceError, toSourceError } from '../errors';
import { FINGERPRINT_VERSION } from '../fingerprint';
import type { IntrospectOptions, IntrospectProgress, IntrospectResult, Introspector, SampleValues } from '../introspector';
import type { PostgresSourceSpec } from '../locator';
import { mapCatalog, type CatalogRows } from './map';
import {
  COLUMNS_SQL,
  CONSTRAINTS_SQL,
  PARTITION_COLUMN_COMMENTS_SQL,
  type PartitionCommentRow,
  COMPOSITES_SQL,
  ROW_TYPE_REFS_SQL,
  ENUMS_SQL,
  INDEXES_SQL,
  quoteIdent,
  RELATIONS_SQL,
  SCHEMAS_SQL,
  SERVER_SQL,
  STATS_SQL,
  type ColumnRow,
  type ConstraintRow,
  type EnumRow,
  type IndexRow,
  type RelationRow,
  type SchemaRow,
  type ServerRow,
  type StatsRow,
} from './queries';

export interface PostgresIntrospectorOptions {
  /** Password from SecretStorage / a private channel; the spec's own password wins when both are set. */
  readonly password?: string;
  /** Per-statement limit inside the read-only transaction (ms). Default 30 s. */
  readonly statementTimeoutMs?: number;
  /** Connection timeout (ms). Default 10 s, or the URL's connect_timeout. */
  readonly connectTimeoutMs?: number;
  /** From this many relations on, keys and indexes are read on a second connection (default PARALLEL_MIN_RELATIONS). */
  readonly parallelMinRelations?: number;
}

export const DEFAULT_SAMPLE_ROWS = 50;

/**
 * The statements that open an introspection's transaction, sent as one: read-only and repeatable read (on `snapshot`,
 * when given, an exported one); limits that end with it (https://www.postgresql.org/docs/current/sql-set.html); a
 * fixed search_path, so type names, defaults and view text do not change with who indexes; and no JIT: catalog queries
 * are small, but set-returning functions inflate the planner's cost estimates enough to trigger JIT compilation,
 * which alone took ~0.7 s on MusicBrainz (https://www.postgresql.org/docs/current/jit-decision.html).
 */
function beginSql(timeout: number, snapshot?: string): string {
  return [
    'BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY',
    ...(snapshot === undefined ? [] : [`SET TRANSACTION SNAPSHOT '${snapshot}'`]),
    `SET LOCAL statement_timeout = ${timeout}`,
    `SET LOCAL lock_timeout = ${timeout}`,
    'SET LOCAL search_path = pg_catalog, public',
    'SET LOCAL jit = off',
  ].join('; ');
}

function compositesOf(rows: ReadonlyArray<{ schema: string; name: string; field: string; data_type: string }>): CompositeTypeInfo[] {
  const out = new Map<string, { schema: string; name: string; fields: Array<{ name: string; dataType: string }> }>();
  for (const r of rows) {
    const key = `${r.schema}.${r.name}`;
    let c = out.get(key);
    if (!c) out.set(key, (c = { schema: r.schema, name: r.name, fields: [] }));
    c.fields.push({ name: r.field, dataType: r.data_type });
  }
  return [...out.values()];
}

/** Relations with a foreign table among their partitions or inheritance children, at any depth. */
const FOREIGN_BACKED_SQL = `WITH RECURSIVE d(parent, child) AS (
  SELECT inhparent, inhrelid FROM pg_catalog.pg_inherits
  UNION
  SELECT d.parent, i.inhrelid FROM d JOIN pg_catalog.pg_inherits i ON i.inhparent = d.child
)
SELECT DISTINCT d.parent::int4 AS oid FROM d JOIN pg_catalog.pg_class c ON c.oid = d.child WHERE c.relkind = 'f'`;

/** From this many relations on, keys and indexes are read on a second connection beside the columns. */
const PARALLEL_MIN_RELATIONS = 50;
/**
 * From this many catalog rows counted by the structure digest (relations, columns, keys, indexes, comments, types of
 * the user's schemas) on, the second connection is opened as soon as the snapshot is exported, while the server,
 * schema and relation rows are read, instead of after them: well above what PARALLEL_MIN_RELATIONS relations bring.
 */
const EARLY_PEER_MIN_DIGEST_ROWS = 1500;

/** Bumped when what an introspection keeps or the digest query changes (v3: code-list labels; v4: integer row hashes). */
const DIGEST_VERSION = 'pg-structure-v4';
const USER_NAMESPACES = `SELECT oid FROM pg_namespace WHERE nspname NOT IN ('pg_catalog', 'information_schema') AND nspname !~ '^pg_(toast|temp)'`;
// Each row hashes its identity and xmin as integers (hashint8 of oid XOR xmin shifted), offset per catalog, and the
// rows are combined by count and sum: no text is built per row, which halves the query on MusicBrainz. Comments and
// enum labels of user objects are the rows with a user oid (FirstNormalObjectId, 16384).
const STRUCTURE_DIGEST_SQL = `
WITH ns AS MATERIALIZED (${USER_NAMESPACES})
SELECT count(*)::text || ':' || sum(h)::text AS digest FROM (
  SELECT hashint8(oid::bigint # (xmin::text::bigint << 32)) FROM pg_namespace WHERE oid IN (SELECT oid FROM ns)
  UNION ALL SELECT hashint8(oid::bigint # (xmin::text::bigint << 32)) + 1 FROM pg_class WHERE relnamespace IN (SELECT oid FROM ns)
  UNION ALL SELECT hashint8((a.attrelid::bigint * 4096 + a.attnum) # (a.xmin::text::bigint << 32)) + 2 FROM pg_attribute a
    JOIN pg_class c ON c.oid = a.attrelid WHERE c.relnamespace IN (SELECT oid FROM ns) AND a.attnum > 0
  UNION ALL SELECT hashint8(oid::bigint # (xmin::text::bigint << 32)) + 3 FROM pg_constraint WHERE connamespace IN (SELECT oid FROM ns)
  UNION ALL SELECT hashint8(i.indexrelid::bigint # (i.xmin::text::bigint << 32)) + 4 FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
    WHERE c.relnamespace IN (SELECT oid FROM ns)
  UNION ALL SELECT hashint8((objoid::bigint * 4096 + objsubid) # (classoid::bigint << 20) # (xmin::text::bigint << 32)) + 5
    FROM pg_description WHERE objoid >= 16384
  UNION ALL SELECT hashint8(oid::bigint # (xmin::text::bigint << 32)) + 6 FROM pg_enum WHERE oid >= 16384
  UNION ALL SELECT hashint8(oid::bigint # (xmin::text::bigint << 32)) + 7 FROM pg_type WHERE typnamespace IN (SELECT oid FROM ns)
) s(h)`;
/** Up to this many estimated rows BERNOULLI (row-level, reads every page) is cheap enough; above, SYSTEM (block-level). */
const BERNOULLI_MAX_ROWS = 200_000;

/**
 * PostgreSQL introspector (node-postgres). Everything is read inside one `REPEATABLE READ, READ ONLY` transaction
 * with a `statement_timeout`, through a handful of bulk catalog queries (one per object class), so the snapshot is
 * consistent and the cost does not grow with one round trip per table.
 */
export class PostgresIntrospector implements Introspector {
  readonly engine = 'postgres' as const;
  private client: Client | null = null;
  /** How many catalog rows the last structure digest counted (its size hint for the introspection that follows). */
  private digestRows = 0;

  constructor(
    private readonly spec: PostgresSourceSpec,
    private readonly options: PostgresIntrospectorOptions = {},
  ) {}

  async introspect(opts: IntrospectOptions = {}): Promise<IntrospectResult> {
    const progress = (p: IntrospectProgress): void => opts.onProgress?.(p);
    const signal = opts.signal;
    const secrets = [this.options.password];
    // The second connection (see snapshotPeer), when one is opened, and its opening while it is under way.
    const secondary: { client: Client | null; opening: Promise<unknown> } = { client: null, opening: Promise.resolve() };
    const onAbort = (): void => {
      void this.client?.end().catch(() => undefined);
      void secondary.client?.end().catch(() => undefined);
    };
    try {
      throwIfAborted(signal);
      signal?.addEventListener('abort', onAbort, { once: true });
      progress({ phase: 'connect', done: 0, total: 1, message: `connecting to ${this.spec.host}:${this.spec.port}/${this.spec.database}` });
      const client = await this.connect();
      throwIfAborted(signal);
      const q = async <R extends QueryResultRow>(sql: string, params: unknown[] = []): Promise<R[]> => {
        throwIfAborted(signal);
        const res = await client.query<R>(sql, params);
        return res.rows;
      };

      const timeout = Math.max(1, Math.floor(this.options.statementTimeoutMs ?? 30_000));
      await q(beginSql(timeout));
      // The snapshot a second connection can share (see snapshotPeer). A server that cannot export one aborts the
      // transaction, which then starts again, nothing read yet, to be read on this connection alone.
      let snapshot: string | null = null;
      try {
        const [row] = await q<{ snapshot: string }>('SELECT pg_catalog.pg_export_snapshot() AS snapshot');
        snapshot = row && /^[0-9A-F-]+$/i.test(row.snapshot) ? row.snapshot : null;
      } catch (e) {
        if (signal?.aborted) throw e;
        await q('ROLLBACK');
        await q(beginSql(timeout));
      }
      progress({ phase: 'connect', done: 1, total: 1 });
      // The second connection (see snapshotPeer), opened once: early when the digest has shown a large catalog.
      let peer: Promise<Client | null> | null = null;
      const openPeer = (shared: string): Promise<Client | null> => {
        if (peer === null) {
          peer = this.snapshotPeer(shared, timeout, secondary);
          secondary.opening = peer;
        }
        return peer;
      };
      if (snapshot !== null && this.digestRows >= EARLY_PEER_MIN_DIGEST_ROWS) void openPeer(snapshot);

      const [server] = await q<ServerRow>(SERVER_SQL);
      const filter = opts.schemas && opts.schemas.length > 0 ? [...opts.schemas] : null;
      progress({ phase: 'schemas', done: 0, total: 1 });
      const schemas = await q<SchemaRow>(SCHEMAS_SQL, [filter]);
      progress({ phase: 'schemas', done: 1, total: 1 });

      progress({ phase: 'tables', done: 0, total: 1 });
      const relations = await q<RelationRow>(RELATIONS_SQL, [filter]);
      const keepSchemas = new Set(schemas.map((s) => s.name));
      const wanted = relations.filter((r) => keepSchemas.has(r.schema) || r.is_partition).map((r) => r.oid);
      const keptOids = relations.filter((r) => keepSchemas.has(r.schema) && !r.is_partition).map((r) => r.oid);
      progress({ phase: 'tables', done: 1, total: 1, message: `${keptOids.length} relations` });

      // Keys and indexes are read on a second connection that shares this transaction's snapshot, while this one
      // reads the columns: the two biggest catalog queries run side by side. Where no second connection can be had
      // (a connection limit, a server that cannot share snapshots), they are read here after the columns.
      const parallel = snapshot !== null && keptOids.length >= (this.options.parallelMinRelations ?? PARALLEL_MIN_RELATIONS);
      const keys =
        parallel && snapshot !== null
          ? openPeer(snapshot).then(async (side): Promise<[ConstraintRow[], IndexRow[]] | null> => {
              if (!side) return null;
              const cs = (await side.query<ConstraintRow>(CONSTRAINTS_SQL, [wanted])).rows;
              const ix = (await side.query<IndexRow>(INDEXES_SQL, [keptOids])).rows;
              await side.query('COMMIT');
              return [cs, ix];
            })
          : Promise.resolve(null);
      // Settled either way, so a failure on one side never goes unhandled while the other is awaited.
      keys.catch(() => undefined);

      progress({ phase: 'columns', done: 0, total: 1 });
      const columns = await q<ColumnRow>(COLUMNS_SQL, [keptOids]);
      const enums = await q<EnumRow>(ENUMS_SQL);
      const compositeRows = await q<{ schema: string; name: string; field: string; data_type: string }>(COMPOSITES_SQL);
      const rowTypeRows = await q<{ schema: string; name: string; column: string; ref_schema: string; ref_name: string }>(ROW_TYPE_REFS_SQL);
      progress({ phase: 'columns', done: 1, total: 1, message: `${columns.length} columns` });

      // While the second connection reads keys and indexes, this one reads the statistics (reported in the usual order below).
      const kept = relations.filter((r) => keepSchemas.has(r.schema) && !r.is_partition && r.relkind !== 'v');
      const readStats = (): Promise<StatsRow[]> => q<StatsRow>(STATS_SQL, [kept.map((r) => r.schema), kept.map((r) => r.name)]);
      const statsBeside = parallel ? await readStats() : null;

      progress({ phase: 'constraints', done: 0, total: 2 });
      const read = await keys;
      throwIfAborted(signal);
      const constraints = read ? read[0] : await q<ConstraintRow>(CONSTRAINTS_SQL, [wanted]);
      progress({ phase: 'constraints', done: 1, total: 2 });
      const indexes = read ? read[1] : await q<IndexRow>(INDEXES_SQL, [keptOids]);
      progress({ phase: 'constraints', done: 2, total: 2 });

      progress({ phase: 'stats', done: 0, total: 1 });
      const stats = statsBeside ?? (await readStats());
      progress({ phase: 'stats', done: 1, total: 1 });

      const partitionComments = relations.some((r) => r.is_partition) ? await q<PartitionCommentRow>(PARTITION_COLUMN_COMMENTS_SQL) : [];
      const rows: CatalogRows = { schemas, relations, columns, constraints, indexes, enums, stats, partitionComments };
      const mapped = mapCatalog(rows, keepSchemas);

      const sampleRows = Math.max(0, Math.floor(opts.sampleRows ?? DEFAULT_SAMPLE_ROWS));
      const warnings: string[] = [];
      const codeValues = new Map<string, Map<string, string[]>>();
      const samples = sampleRows > 0 ? await this.sample(client, mapped, sampleRows, signal, progress, warnings, codeValues) : new Map();
      await q('COMMIT');
      progress({ phase: 'done', done: mapped.tables.length, total: mapped.tables.length });
      return {
        database: server?.database ?? this.spec.database,
        serverVersion: server?.server_version ?? null,
        ...(server ? { privileges: { role: server.role, superuser: server.is_superuser, bypassRls: server.bypass_rls, canWrite: server.can_write, unreadable: server.unreadable ?? [] } } : {}),
        snapshot: {
          schemas: mapped.schemas,
          tables: mapped.tables,
          enums: mapped.enums,
          composites: compositesOf(compositeRows),
          rowTypeRefs: rowTypeRows.map((r) => ({ schema: r.schema, table: r.name, column: r.column, refSchema: r.ref_schema, refTable: r.ref_name })),
        },
        samples,
        codeValues,
        warnings,
      };
    } catch (err) {
      await this.close();
      if (signal?.aborted) throw new SourceError('cancelled', `reading ${this.spec.host}:${this.spec.port}/${this.spec.database} was cancelled`, 'Start indexing again when ready.');
      throw toSourceError(err, this.spec, secrets);
    } finally {
      signal?.removeEventListener('abort', onAbort);
      // One connection per introspection (and its peer): nothing is held open between runs, not even a peer that
      // was still connecting when the run ended early.
      await secondary.opening.catch(() => undefined);
      const peer = secondary.client;
      secondary.client = null;
      if (peer) await endPromptly(peer);
      await this.close();
    }
  }

  /**
   * A second connection, inside a read-only transaction on the first one's exported snapshot
   * (https://www.postgresql.org/docs/current/functions-admin.html#FUNCTIONS-SNAPSHOT-SYNCHRONIZATION), so both read
   * one consistent catalog; null (nothing left open) when none can be had, and the first connection reads alone.
   */
  private async snapshotPeer(snapshot: string, timeout: number, secondary: { client: Client | null }): Promise<Client | null> {
    let peer: Client;
    try {
      peer = await this.openClient();
    } catch {
      return null;
    }
    secondary.client = peer;
    try {
      await peer.query(beginSql(timeout, snapshot));
      return peer;
    } catch {
      return null; // closed with the run
    }
  }

  /**
   * Every catalog row that shapes the snapshot carries an `xmin` that changes when DDL or COMMENT rewrites it, while
   * ANALYZE and VACUUM update pg_class in place and leave it alone
   * (https://www.postgresql.org/docs/current/ddl-system-columns.html). Hashing (oid, xmin) pairs server-side is one
   * small query instead of the full introspection. The rows are combined by count and a sum of hashes, which
   * needs no sort (half the time of an ordered md5 on MusicBrainz) and still changes when any single row does.
   */
  async structureDigest(opts: Pick<IntrospectOptions, 'schemas' | 'sampleRows' | 'signal'> = {}): Promise<string> {
    try {
      throwIfAborted(opts.signal);
      const client = await this.connect();
      // JIT compilation would cost more than the query saves (the plan's estimate grows with the catalog: 42,839 at
      // 10,000 tables and 200,000 columns, against a default jit_above_cost of 100,000): turned off for this
      // connection in the same round trip, as the introspection does for its own queries.
      const results = (await client.query(`SET jit = off; ${STRUCTURE_DIGEST_SQL}`)) as unknown as ReadonlyArray<QueryResult<{ digest: string }>>;
      const res = results[results.length - 1]!;
      this.digestRows = Number.parseInt(res.rows[0]?.digest ?? '', 10) || 0;
      const parts = [DIGEST_VERSION, FINGERPRINT_VERSION, res.rows[0]?.digest ?? '', JSON.stringify(opts.schemas ?? null), String(opts.sampleRows ?? DEFAULT_SAMPLE_ROWS)];
      return createHash('sha256').update(parts.join('\n')).digest('hex');
    } catch (err) {
      await this.close();
      throw toSourceError(err, this.spec, [this.options.password]);
    }
  }

  async close(): Promise<void> {
    const c = this.client;
    this.client = null;
    if (c) await endPromptly(c);
  }

  private async connect(): Promise<Client> {
    if (this.client) return this.client;
    const client = await this.openClient();
    this.client = client;
    return client;
  }

  /** A new connection to the source, or the driver's error with nothing left open. */
  private async openClient(): Promise<Client> {
    const client = new (pgDriver().Client)(clientConfig(this.spec, this.options));
    // An idle client whose server goes away emits 'error'; without a listener that would crash the process.
    client.on('error', () => undefined);
    try {
      await client.connect();
    } catch (e) {
      // A connect that failed mid-authentication (e.g. the server wants a password and none was given) leaves the
      // socket open until the server's authentication_timeout (60 s by default), which keeps the process alive:
      // close it now.
      socketOf(client)?.destroy();
      throw e;
    }
    return client;
  }

  /**
   * Bounded samples of text-like columns: LIMIT on small tables, TABLESAMPLE BERNOULLI on medium ones and SYSTEM
   * (block sampling, no full scan) on large ones (https://www.postgresql.org/docs/current/sql-select.html#SQL-FROM).
   * Each table runs under a savepoint so one unreadable table does not abort the snapshot.
   */
  private async sample(
    client: Client,
    mapped: ReturnType<typeof mapCatalog>,
    n: number,
    signal: AbortSignal | undefined,
    progress: (p: IntrospectProgress) => void,
    warnings: string[],
    codeValues: Map<string, Map<string, string[]>>,
  ): Promise<SampleValues> {
    const out = new Map<string, Map<string, string[]>>();
    const tables = mapped.tables.filter((t) => t.kind === 'table' || t.kind === 'partitioned_table' || t.kind === 'materialized_view');
    const relByName = new Map([...mapped.kept.values()].map((r) => [qualifiedName(r.schema, r.name), r] as const));
    // Reading a parent reads its partitions and inheritance children: one that is a foreign table hands the read to
    // its wrapper (a file, a program, another server), so such parents are not sampled.
    const foreignBacked = new Set((await client.query<{ oid: number }>(FOREIGN_BACKED_SQL)).rows.map((r) => r.oid));
    let done = 0;
    for (const t of tables) {
      throwIfAborted(signal);
      progress({ phase: 'samples', done: done++, total: tables.length });
      const rel = relByName.get(qualifiedName(t.schema, t.name));
      const cols = rel ? mapped.textColumns.get(rel.oid) : undefined;
      const docs = rel ? mapped.documentColumns.get(rel.oid) : undefined;
      if (!cols || cols.length === 0 || t.rowEstimate === 0) continue;
      if (rel && foreignBacked.has(rel.oid)) {
        warnings.push(`samples skipped for ${qualifiedName(t.schema, t.name)}: a partition or inheritance child of it is a foreign table, whose rows a foreign-data wrapper reads`);
        continue;
      }
      const est = t.rowEstimate;
      let from = `${quoteIdent(t.schema)}.${quoteIdent(t.name)}`;
      // A table that may be a code list is read whole (one row past the bound tells it is not), for its labels.
      const whole = est === null || isCodeListSize(est);
      // Any other table with more rows than the sample: rows from all over it, not its first ones (a secret pasted
      // into rows past them would go unseen), the same rows on every run of the same data (REPEATABLE).
      const spread = est !== null && !whole && est > n;
      if (spread) {
        const pct = Math.min(100, Math.max(0.0001, (100 * n * 1.5) / est));
        from += ` TABLESAMPLE ${est > BERNOULLI_MAX_ROWS ? 'SYSTEM' : 'BERNOULLI'} (${pct.toFixed(6)}) REPEATABLE (7)`;
      }
      const select = cols.map((c) => `left(${quoteIdent(c)}::text, ${SAMPLE_SCAN_CHARS})`).join(', ');
      // A spread sample is read whole (about 1.5 n rows, at most 4 n) and n rows are taken evenly from it: a LIMIT
      // would keep the first rows the sampling scan met, the table's first pages again.
      const limit = whole ? Math.max(n, CODE_LIST_MAX_ROWS + 1) : spread ? n * 4 : n;
      try {
        await client.query('SAVEPOINT sb_sample');
        const res = await client.query({ text: `SELECT ${select} FROM ${from} LIMIT ${limit}`, rowMode: 'array' });
        await client.query('RELEASE SAVEPOINT sb_sample');
        const rows = spread ? evenly(res.rows as unknown[][], n) : (res.rows as unknown[][]);
        const perCol = new Map<string, string[]>();
        const labels = new Map<string, string[]>();
        cols.forEach((c, i) => {
          const values = rows.map((r) => r[i]).filter((v): v is string => typeof v === 'string');
          if (values.length > 0) perCol.set(c, values.slice(0, n).map(keptSample));
          const codes = whole && isCodeListSize(rows.length) && !docs?.has(c) ? codeListValues(values) : null;
          if (codes !== null) labels.set(c, codes);
        });
        if (perCol.size > 0) out.set(qualifiedName(t.schema, t.name), perCol);
        if (labels.size > 0) codeValues.set(qualifiedName(t.schema, t.name), labels);
      } catch (err) {
        await client.query('ROLLBACK TO SAVEPOINT sb_sample');
        warnings.push(`samples skipped for ${qualifiedName(t.schema, t.name)}: ${toSourceError(err, this.spec, [this.options.password]).message}`);
      }
    }
    progress({ phase: 'samples', done: tables.length, total: tables.length });
    return out;
  }
}

function clientConfig(spec: PostgresSourceSpec, options: PostgresIntrospectorOptions): ClientConfig {
  const p = spec.params;
  const connectTimeout = options.connectTimeoutMs ?? (p.connect_timeout ? Number(p.connect_timeout) * 1000 : 10_000);
  return {
    host: spec.host,
    port: spec.port,
    database: spec.database,
    user: spec.user,
    // undefined lets node-postgres fall back to PGPASSWORD or ~/.pgpass, as libpq does.
    password: spec.password ?? options.password,
    application_name: p.application_name ?? 'schemabrain',
    connectionTimeoutMillis: Number.isFinite(connectTimeout) && connectTimeout > 0 ? connectTimeout : 10_000,
    ssl: sslConfig(p),
    ...(p.options ? { options: p.options } : {}),
  };
}

/**
 * sslmode → node-postgres `ssl`. node-postgres cannot fall back from TLS to plain text, so `allow`/`prefer` connect
 * without TLS (a server that requires TLS then says so, and the hint suggests sslmode=require).
 */
function sslConfig(p: Readonly<Record<string, string>>): ClientConfig['ssl'] {
  const mode = p.sslmode ?? 'prefer';
  if (mode === 'disable' || mode === 'allow' || mode === 'prefer') return false;
  const ca = p.sslrootcert ? readFileSync(p.sslrootcert, 'utf8') : undefined;
  const cert = p.sslcert ? readFileSync(p.sslcert, 'utf8') : undefined;
  const key = p.sslkey ? readFileSync(p.sslkey, 'utf8') : undefined;
  if (mode === 'require') return { rejectUnauthorized: false, ...(cert ? { cert } : {}), ...(key ? { key } : {}) };
  return {
    rejectUnauthorized: true,
    ...(ca ? { ca } : {}),
    ...(cert ? { cert } : {}),
    ...(key ? { key } : {}),
    ...(mode === 'verify-ca' ? { checkServerIdentity: () => undefined } : {}),
  };
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) {
    const e = new Error('aborted');
    e.name = 'AbortError';
    throw e;
  }
}

/**
 * Ends a session without waiting for the server to close its side: the Terminate message is written and our side of
 * the socket closed, and the socket is released as soon as that is flushed. Waiting for the server's close (its
 * backend exiting) cost about 4 ms at the end of every run, a tenth of an unchanged re-index. The session only ever
 * read, inside a transaction that ends with it, so there is nothing for the server to confirm.
 */
async function endPromptly(client: Client): Promise<void> {
  const socket = socketOf(client);
  socket?.once('finish', () => socket.destroy());
  await client.end().catch(() => undefined);
}

/** The client's socket (node-postgres keeps it as `connection.stream`; not part of its typed API). */
function socketOf(client: Client): { once(event: 'finish', cb: () => void): void; destroy(): void } | undefined {
  return (client as unknown as { connection?: { stream?: { once(event: 'finish', cb: () => void): void; destroy(): void } } }).connection?.stream;
}

/** `n` of `rows`, evenly spaced from first to last (all of them when there are no more than `n`). */
function evenly<T>(rows: readonly T[], n: number): T[] {
  if (rows.length <= n) return [...rows];
  return Array.from({ length: n }, (_, i) => rows[Math.floor((i * rows.length) / n)]!);
}
