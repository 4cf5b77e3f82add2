import fs from 'node:fs';
import path from 'node:path';
import type { ColumnInfo, CompositeTypeInfo, PiiTag, RowTypeRef, SourceInfo, TableInfo } from '../catalog/model';
import { privilegesArtifact, qualifiedName } from '../catalog/model';
import { acquireCatalogLock } from '../catalog/lock';
import { notACatalogFile } from '../catalog/errors';
import { existsNotRegular } from '../util/regular-file';
import { CatalogError, CatalogStore, compareText } from '../catalog/store';
import type { SourceSpec } from '../sources/locator';
import type { Introspector, IntrospectProgress, SampleValues } from '../sources/introspector';
import { SourceError } from '../sources/errors';
import { keepsCodeValues, referencedTables } from './code-values';
import { applyOverrides, blockedCategories, DEFAULT_POLICY, findOverride, policyDigest } from '../pii/policy';
import { withLineage, withoutValueStats } from '../pii/lineage';
import { propagate } from '../pii/propagate';
import { INDEX_FORMAT } from '../search/format';
import { SEARCH_INDEX_ARTIFACT, searchInput } from '../search/input';
import { CatalogView, VIEW_FRAME_ARTIFACT } from '../catalog/view';
import type { PiiPolicy } from '../pii/policy';
import { saveExampleQueries } from '../examples/store';
import type { ExampleQuery } from '../examples/types';
import { writeJobStatus } from './job-status';
import { failRun, IndexCancelledError, indexDigest, summarizedSource, UNCHANGED_EVENT, unchangedOutcome } from './unchanged';

export { IndexCancelledError } from './unchanged';

/**
 * One index run: introspect → fingerprint/diff → PII → write → atomic save. The previous catalog stays in place until
 * the new file is renamed over it, so a failure, a cancel or a SIGKILL at any step leaves it intact and loadable.
 */

export interface ClassifyInput {
  readonly schema: string;
  readonly table: string;
  readonly column: string;
  readonly dataType: string;
  readonly comment: string | null;
  readonly tableComment: string | null;
  readonly enumLabels: readonly string[] | null;
  readonly samples?: readonly string[];
}

export interface IndexDeps {
  createIntrospector(spec: SourceSpec, secrets: { password?: string }): Introspector;
  /**
   * Example queries from the source's query log (pg_stat_statements), kept in the catalog so get_example_queries
   * can answer when the log is not readable at call time. Failure never fails the index: it returns a reason.
   */
  mineExamples?(spec: SourceSpec, secrets: { password?: string }, signal?: AbortSignal): Promise<{ ok: true; queries: readonly ExampleQuery[] } | { ok: false; message: string }>;
  /** PII classifier; omitted means no classification (operator overrides still apply). */
  classifyColumn?(input: ClassifyInput): PiiTag | null;
}

export type IndexEvent =
  | { readonly type: 'progress'; readonly phase: IntrospectProgress['phase'] | 'classify' | 'save'; readonly done: number; readonly total: number; readonly percent: number; readonly message?: string }
  | { readonly type: 'log'; readonly message: string };

export interface IndexOptions {
  readonly spec: SourceSpec;
  /** What the user typed for the source; a `${VAR}` password reference in it is kept for reconnecting. */
  readonly sourceInput?: string;
  readonly password?: string;
  readonly catalogPath: string;
  readonly deps: IndexDeps;
  /** Operator policy whose column overrides are applied after classification on every run. */
  readonly policy?: PiiPolicy;
  readonly sampleRows?: number;
  readonly schemas?: readonly string[];
  /** Re-read everything even when the structure digest says nothing changed (refreshes statistics and samples). */
  readonly full?: boolean;
  readonly signal?: AbortSignal;
  readonly onEvent?: (e: IndexEvent) => void;
}

export interface IndexOutcome {
  readonly source: SourceInfo;
  readonly generation: number;
  readonly mode: 'full' | 'incremental' | 'unchanged';
  readonly tablesTotal: number;
  readonly tablesChanged: number;
  readonly tablesRemoved: number;
  /** PII-tagged columns written by this run; null when the run wrote nothing (structure unchanged). */
  readonly piiColumns: number | null;
  readonly durationMs: number;
  /** The name the same database was indexed under before this run, when it was another: the source is renamed. */
  readonly renamedFrom?: string;
}


// Rough share of the run spent in each phase, for a single 0–100 progress figure.
const PHASE_SPAN: Record<string, [number, number]> = {
  connect: [0, 5],
  schemas: [5, 10],
  tables: [10, 30],
  columns: [30, 50],
  constraints: [50, 65],
  stats: [65, 75],
  samples: [75, 85],
  done: [85, 85],
  classify: [85, 95],
  save: [95, 100],
};

function percent(phase: string, done: number, total: number): number {
  const [a, b] = PHASE_SPAN[phase] ?? [0, 100];
  return Math.round(a + (b - a) * (total > 0 ? Math.min(1, done / total) : 1));
}

/**
 * Raw values of PII columns never reach the catalog: common values and min/max are dropped (and a code list's
 * labels are kept only in a table with no PII-tagged column; see keepsCodeValues).
 */
function scrubStats(c: ColumnInfo, pii: PiiTag | null): ColumnInfo {
  return withoutValueStats({ ...c, pii });
}

/**
 * The tags a column of a composite type (or an array of one) holds through its fields: each field classified as a
 * column of its own, nested types followed a few levels down. Null for a column of any other type.
 */
function compositeTags(dataType: string, composites: ReadonlyMap<string, CompositeTypeInfo>, classify: (field: string, type: string, owner: CompositeTypeInfo) => PiiTag | null, depth = 0): PiiTag | null {
  if (depth > 4 || composites.size === 0) return null;
  const bare = dataType.replace(/(\[\])+$/, '').trim();
  const parts = bare.split('.').map((p) => p.replace(/^"|"$/g, ''));
  const type = composites.get(parts.join('.')) ?? (parts.length === 1 ? [...composites.values()].find((c) => c.name === parts[0]) : undefined);
  if (!type) return null;
  const tags: PiiTag[] = [];
  const names: string[] = [];
  for (const f of type.fields) {
    const tag = classify(f.name, f.dataType, type) ?? compositeTags(f.dataType, composites, classify, depth + 1);
    if (tag) {
      tags.push(tag);
      names.push(f.name);
    }
  }
  if (tags.length === 0) return null;
  const merged = propagate(tags);
  return { ...merged, signals: [...merged.signals, `composite_fields:${type.name}(${names.join(',')})`] };
}

/** The override of the first partition (`schema.name`) that names this column, or null. */
function partitionOverride(policy: PiiPolicy, sourceName: string, partitions: readonly string[], column: string): ReturnType<typeof findOverride> {
  for (const p of partitions) {
    const dot = p.indexOf('.');
    const o = findOverride(policy, sourceName, p.slice(0, dot), p.slice(dot + 1), column);
    if (o) return o;
  }
  return null;
}

function classifyTables(
  sourceName: string,
  tables: readonly TableInfo[],
  samples: SampleValues,
  codeValues: SampleValues,
  policy: PiiPolicy,
  deps: IndexDeps,
  compositeTypes: readonly CompositeTypeInfo[] = [],
  rowTypeRefs: readonly RowTypeRef[] = [],
): { tables: TableInfo[]; piiColumns: number } {
  const composites = new Map(compositeTypes.map((c) => [`${c.schema}.${c.name}`, c]));
  // Composite types a column holds through domains, ranges and arrays at any depth (ROW_TYPE_REFS_SQL), by column.
  const heldComposites = new Map<string, string[]>();
  for (const r of rowTypeRefs) {
    const ref = `${r.refSchema}.${r.refTable}`;
    if (!composites.has(ref)) continue;
    const key = `${r.schema}.${r.table}.${r.column}`;
    heldComposites.set(key, [...(heldComposites.get(key) ?? []), ref]);
  }
  const classifyField = (field: string, type: string, owner: CompositeTypeInfo): PiiTag | null =>
    deps.classifyColumn?.({ schema: owner.schema, table: owner.name, column: field, dataType: type, comment: null, tableComment: null, enumLabels: null }) ?? null;
  const classified = tables.map((t) => {
    const tableSamples = samples.get(qualifiedName(t.schema, t.name));
    const columns = t.columns.map((c) => {
      const tag =
        deps.classifyColumn?.({
          schema: t.schema,
          table: t.name,
          column: c.name,
          dataType: c.dataType,
          comment: c.comment,
          tableComment: t.comment,
          enumLabels: c.enumLabels,
          samples: tableSamples?.get(c.name),
        }) ?? null;
      // A composite column holds its fields: a `password` field makes the column a credential.
      const fields = compositeTags(c.dataType, composites, classifyField);
      const held = (heldComposites.get(`${t.schema}.${t.name}.${c.name}`) ?? []).map((ref) => compositeTags(ref, composites, classifyField)).filter((x): x is PiiTag => x !== null);
      const own = fields || held.length > 0 ? propagate([tag, fields, ...held]) : tag;
      // An override may name the column on the table or on any partition folded into it.
      const override = findOverride(policy, sourceName, t.schema, t.name, c.name) ?? partitionOverride(policy, sourceName, t.partitions, c.name);
      return { ...c, pii: applyOverrides(own, override) };
    });
    return { ...t, columns };
  });
  // A generated column holds what the columns it is computed from hold, a view's columns what the relations it reads
  // hold, a column of a relation's row type that relation's rows (pii/lineage.ts); then the values of every tagged
  // column are scrubbed from the catalog alike.
  const referenced = referencedTables(tables);
  let piiColumns = 0;
  const lineage = withLineage(classified, rowTypeRefs);
  const out = lineage.map((t) => {
    const q = qualifiedName(t.schema, t.name);
    const columns = t.columns.map((c) => {
      if (c.pii) piiColumns++;
      return scrubStats(c, c.pii);
    });
    const tableCodes = codeValues.get(q);
    if (tableCodes !== undefined && keepsCodeValues({ columns }, referenced.has(q))) {
      return { ...t, columns: columns.map((c) => (c.pii === null && tableCodes.has(c.name) ? { ...c, codeValues: tableCodes.get(c.name)! } : c)) };
    }
    return { ...t, columns };
  });
  return { tables: out, piiColumns };
}

export async function runIndex(opts: IndexOptions): Promise<IndexOutcome> {
  const started = Date.now();
  const startedAt = new Date(started).toISOString();
  const emit = opts.onEvent ?? (() => undefined);
  const throwIfCancelled = (): void => {
    if (opts.signal?.aborted) throw new IndexCancelledError();
  };
  // Before the lock and the job status, which are files beside it.
  if (existsNotRegular(opts.catalogPath)) throw notACatalogFile(opts.catalogPath);
  if (opts.spec.engine === 'sqlite' && sameFile(opts.catalogPath, opts.spec.path)) {
    throw new CatalogError('io', `the catalog ${opts.catalogPath} is the SQLite file being indexed; give --catalog a file of its own (default: $SCHEMABRAIN_HOME/catalog.sqlite)`);
  }
  const lock = await acquireCatalogLock(opts.catalogPath);
  const job = (state: 'running' | 'succeeded' | 'failed' | 'cancelled', extra: Record<string, unknown> = {}): void =>
    writeJobStatus(opts.catalogPath, { state, source: opts.spec.name, pid: process.pid, startedAt, ...extra });
  let introspector: Introspector | null = null;
  let digestSettled: Promise<unknown> = Promise.resolve();
  let introspectSettled: Promise<unknown> = Promise.resolve();
  try {
    job('running', { phase: 'connect', progress: 0 });
    throwIfCancelled();
    const source = opts.deps.createIntrospector(opts.spec, { password: opts.password });
    introspector = source;
    // The digest query runs while the catalog file is read: one waits on the database, the other on the CPU.
    const policyKey = policyDigest(opts.policy ?? DEFAULT_POLICY);
    const digestRun = source.structureDigest({ schemas: opts.schemas, sampleRows: opts.sampleRows, signal: opts.signal }).then((d) => indexDigest(d, policyKey));
    digestSettled = digestRun.catch(() => undefined); // awaited below; a failed catalog open must not leave it unhandled
    // The summary written with the catalog answers "unchanged" without loading the SQLite engine or the catalog.
    const summarized = opts.full ? null : summarizedSource(opts.catalogPath, opts.spec);
    let lastJobWrite = 0;
    const introspect = (): ReturnType<Introspector['introspect']> =>
      source.introspect({
        schemas: opts.schemas,
        sampleRows: opts.sampleRows,
        signal: opts.signal,
        onProgress: (p) => {
          const pct = percent(p.phase, p.done, p.total);
          emit({ type: 'progress', phase: p.phase, done: p.done, total: p.total, percent: pct, message: p.message });
          if (Date.now() - lastJobWrite > 250) {
            lastJobWrite = Date.now();
            job('running', { phase: p.phase, progress: pct });
          }
        },
      });
    // When the run will read the source whatever the catalog holds (a full run, no catalog file yet, or a summary whose
    // digest differs), the introspection starts as soon as the digest is in, on the digest's connection, and its catalog
    // queries run while the SQLite engine loads and the catalog file is opened. Only a catalog without a usable summary
    // needs the catalog itself to tell whether anything changed, so only then does the introspection wait for it.
    const decidedWithoutCatalog = opts.full || summarized !== null || !fs.existsSync(opts.catalogPath);
    const early = decidedWithoutCatalog ? digestRun.then((digest) => (summarized && summarized.structureDigest === digest ? null : introspect())) : null;
    if (early) introspectSettled = early.catch(() => undefined);
    if (summarized && summarized.structureDigest === (await digestRun)) {
      emit(UNCHANGED_EVENT);
      job('succeeded', { progress: 100, phase: 'unchanged' });
      return unchangedOutcome(summarized, started);
    }
    const store = await CatalogStore.openOrCreate(opts.catalogPath);
    try {
      const prior = store.getSourceByName(opts.spec.name);
      const digest = await digestRun;
      if (!opts.full && prior && prior.info.id === opts.spec.id && prior.structureDigest === digest) {
        // Nothing structural changed since the last run: the catalog is left exactly as it is (no write, same
        // generation, readers keep their loaded view). The check is recorded in the job status.
        const durationMs = Date.now() - started;
        emit(UNCHANGED_EVENT);
        job('succeeded', { progress: 100, phase: 'unchanged' });
        return { source: prior.info, generation: store.generation, mode: 'unchanged', tablesTotal: prior.info.tableCount, tablesChanged: 0, tablesRemoved: 0, piiColumns: null, durationMs };
      }
      const result = (await early) ?? (await introspect());
      throwIfCancelled();
      // A schema asked for by name that the source does not have (a typo) would index nothing and remove every table
      // of the source from the catalog: the run stops before anything is written.
      const missing = (opts.schemas ?? []).filter((s) => !result.snapshot.schemas.some((x) => x.name === s));
      if (missing.length > 0) {
        const have = result.snapshot.schemas.map((x) => x.name).slice(0, 12).join(', ');
        throw new SourceError('schema_missing', `the source has no schema ${missing.map((m) => `'${m}'`).join(', ')}; nothing was indexed and the catalog is unchanged`, have ? `its schemas: ${have}; fix --schemas (names are case-sensitive)` : 'fix --schemas (names are case-sensitive), or leave it out to index every schema');
      }
      const stored = store.fingerprints(opts.spec.id);
      // The same database (same locator, same id) under another name: one source, renamed, said in the outcome.
      const formerName = store.listSources().find((x) => x.info.id === opts.spec.id && x.info.name !== opts.spec.name)?.info.name;
      if (formerName !== undefined) emit({ type: 'log', message: `source '${formerName}' (${opts.spec.locator}) is renamed '${opts.spec.name}': tools now know it by the new name` });
      emit({ type: 'progress', phase: 'classify', done: 0, total: result.snapshot.tables.length, percent: percent('classify', 0, 1) });
      const { tables, piiColumns } = classifyTables(opts.spec.name, result.snapshot.tables, result.samples, result.codeValues ?? new Map(), opts.policy ?? DEFAULT_POLICY, opts.deps, result.snapshot.composites, result.snapshot.rowTypeRefs);
      const fresh = new Set(tables.map((t) => qualifiedName(t.schema, t.name)));
      const changed = tables.filter((t) => stored.get(qualifiedName(t.schema, t.name)) !== t.fingerprint);
      const removed = [...stored.keys()].filter((k) => !fresh.has(k));
      throwIfCancelled();
      emit({ type: 'progress', phase: 'save', done: 0, total: 1, percent: percent('save', 0, 1) });
      const info: SourceInfo = {
        id: opts.spec.id,
        name: opts.spec.name,
        engine: opts.spec.engine,
        locator: opts.spec.locator,
        database: result.database,
        connectTemplate: connectTemplate(opts.spec, opts.sourceInput),
        serverVersion: result.serverVersion,
        indexedAt: new Date().toISOString(),
        tableCount: tables.length,
        columnCount: tables.reduce((n, t) => n + t.columns.length, 0),
      };
      if (prior && prior.info.id !== info.id) {
        throw new CatalogError('name_taken', `source name '${info.name}' already names ${prior.info.locator}; pick another --name or remove that source first`);
      }
      // Bodies of every table are rewritten (row estimates and statistics move without structural change);
      // the fingerprint diff decides what counts as changed and what is removed.
      if (opts.deps.mineExamples && opts.spec.engine === 'postgres') {
        const mined = await opts.deps.mineExamples(opts.spec, { password: opts.password }, opts.signal).catch((e: unknown) => ({ ok: false as const, message: (e as Error).message }));
        if (mined.ok) saveExampleQueries(store, info.id, mined.queries);
        else emit({ type: 'log', message: `example queries not mined: ${mined.message}` });
      }
      // Tables whose values could not be sampled (a lock, a permission, a timeout) were classified by their names
      // only: said in the run record and the progress log, and the digest is marked so the next run reads the source
      // again instead of answering "unchanged".
      const unsampled = (result.warnings ?? []).filter((w) => w.startsWith('samples skipped'));
      for (const w of unsampled) emit({ type: 'log', message: w });
      const recorded = unsampled.length > 0 ? `${digest}:samples-incomplete` : digest;
      store.writeSource({ info, structureDigest: recorded, schemas: result.snapshot.schemas, enums: result.snapshot.enums, changed: tables, removed });
      if (result.privileges) store.setArtifact(privilegesArtifact(info.id), Buffer.from(JSON.stringify(result.privileges), 'utf8'));
      else store.deleteArtifact(privilegesArtifact(info.id));
      // No table changed, but the run was not skipped: the policy or the format differs from the last run's, so
      // every table was classified again and written (incremental, not unchanged).
      const reclassified = !!prior && prior.structureDigest !== digest;
      const mode = stored.size === 0 ? 'full' : changed.length === 0 && removed.length === 0 && !reclassified && formerName === undefined ? 'unchanged' : 'incremental';
      const durationMs = Date.now() - started;
      persistSearchIndex(store, opts.policy ?? DEFAULT_POLICY, { sourceId: info.id, tables });
      store.recordRun({
        sourceId: info.id,
        sourceName: info.name,
        startedAt,
        finishedAt: new Date().toISOString(),
        status: 'succeeded',
        durationMs,
        tablesTotal: tables.length,
        tablesChanged: changed.length,
        tablesRemoved: removed.length,
        mode,
        errorKind: unsampled.length > 0 ? 'samples_incomplete' : null,
        errorMessage: unsampled.length > 0 ? `${unsampled.length} table(s) not sampled, classified by name only; the next run tries again: ${unsampled.join('; ')}`.slice(0, 600) : null,
      });
      throwIfCancelled();
      const generation = store.save(opts.catalogPath, () => {
        // Never replace a catalog written by another indexer that (wrongly) took the lock from us.
        if (!lock.stillHeld()) throw new CatalogError('locked', `the catalog lock ${opts.catalogPath}.lock was taken over during this run; nothing was written, index again`);
      });
      emit({ type: 'progress', phase: 'save', done: 1, total: 1, percent: 100 });
      job('succeeded', { progress: 100, phase: 'done' });
      return { source: info, generation, mode, tablesTotal: tables.length, tablesChanged: changed.length, tablesRemoved: removed.length, piiColumns, durationMs, ...(formerName !== undefined ? { renamedFrom: formerName } : {}) };
    } finally {
      store.close();
    }
  } catch (e) {
    return failRun(job, e, opts.signal);
  } finally {
    // The digest query may still be connecting when the catalog open fails: closing before it settles would miss
    // the connection it is about to open, and that idle connection would keep the process alive for good.
    await digestSettled;
    await introspectSettled;
    await introspector?.close().catch(() => undefined);
    lock.release();
  }
}

/** Moves a damaged catalog aside (never deletes it) so a fresh index can start. Returns the new path. */
export function moveCorruptCatalogAside(catalogPath: string, sourcePath?: string): string {
  if (existsNotRegular(catalogPath)) throw notACatalogFile(catalogPath);
  // The database being indexed is never the catalog: --rebuild would move the user's own file away.
  if (sourcePath !== undefined && sameFile(catalogPath, sourcePath)) {
    throw new CatalogError('io', `the catalog ${catalogPath} is the SQLite file being indexed; nothing was moved. Give --catalog a file of its own (default: $SCHEMABRAIN_HOME/catalog.sqlite)`);
  }
  const aside = `${catalogPath}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  fs.renameSync(catalogPath, aside);
  return aside;
}

function sameFile(a: string, b: string): boolean {
  try {
    const x = fs.statSync(a);
    const y = fs.statSync(b);
    return x.dev === y.dev && x.ino === y.ino;
  } catch {
    return path.resolve(a) === path.resolve(b);
  }
}

/**
 * The credential-free way back to a source for guarded queries: user, host, port, database and parameters, never a
 * password — except a `${VAR}` reference the user wrote, which is expanded from the server's own environment.
 */
export function connectTemplate(spec: SourceSpec, input?: string): string {
  if (spec.engine === 'sqlite') return spec.path;
  const ref = input?.match(/^[a-z]+:\/\/[^:@/]*:(\$\{[A-Za-z_][A-Za-z0-9_]*\})@/)?.[1];
  const user = encodeURIComponent(spec.user);
  const host = spec.host.includes(':') ? `[${spec.host}]` : spec.host;
  const params = new URLSearchParams(spec.params as Record<string, string>).toString();
  if (spec.engine === 'mysql') return `${spec.scheme}://${user}${ref ? `:${ref}` : ''}@${host}:${spec.port}/${encodeURIComponent(spec.database)}${params ? `?${params}` : ''}`;
  return `postgres://${user}${ref ? `:${ref}` : ''}@${host}:${spec.port}/${encodeURIComponent(spec.database)}${params ? `?${params}` : ''}`;
}

/**
 * Below this many relations the server builds the search index faster than an index run can afford to build and
 * store it (tens of milliseconds at a few hundred tables); above it, loading the stored postings wins.
 */
export const PERSIST_SEARCH_MIN_TABLES = 1000;

/**
 * Builds the search index over every source in the catalog with the same input the server builds (PII-blocked
 * columns left out under the operator policy) and stores it, so the server loads it instead of rebuilding.
 */
function persistSearchIndex(store: CatalogStore, policy: PiiPolicy, fresh: { sourceId: string; tables: readonly TableInfo[] }): void {
  const sources = store.listSources();
  for (const old of OLDER_ARTIFACTS) store.deleteArtifact(old);
  if (sources.reduce((n, s) => n + s.info.tableCount, 0) < PERSIST_SEARCH_MIN_TABLES) {
    store.deleteArtifact(SEARCH_INDEX_ARTIFACT);
    store.deleteArtifact(VIEW_FRAME_ARTIFACT);
    return;
  }
  // The search engine is loaded only by the runs that build an index here: setting up its modules (the lexicon, the
  // ranking tables) is a measurable part of a whole index run below PERSIST_SEARCH_MIN_TABLES.
  const { buildSearchIndex, serializeIndex } = require('../search') as typeof import('../search');
  const names = new Map(sources.map((s) => [s.info.id, s.info.name]));
  // The source just written is taken from memory (parsing its bodies back would cost as much as writing them); the
  // others come from the store. Same order as a reader's view (source id, schema, name), so the input matches.
  const rows: Array<{ sourceId: string; table: TableInfo }> = fresh.tables.map((table) => ({ sourceId: fresh.sourceId, table }));
  if (sources.some((s) => s.info.id !== fresh.sourceId)) rows.push(...store.loadAllTables().filter((r) => r.sourceId !== fresh.sourceId));
  rows.sort((a, b) => compareText(a.sourceId, b.sourceId) || compareText(a.table.schema, b.table.schema) || compareText(a.table.name, b.table.name));
  const tables = rows.flatMap(({ sourceId, table }) => {
    const sourceName = names.get(sourceId);
    return sourceName ? [{ sourceName, table }] : [];
  });
  const isBlocked = (tag: PiiTag | null): boolean => blockedCategories([tag], policy).length > 0;
  const input = searchInput(tables, isBlocked);
  // Both frames name the generation save() is about to write: any later write of the file (by any version) bumps
  // it, and a reader then reads every relation and checks the postings against them instead.
  const generation = store.generation + 1;
  const tags = new Map<string, readonly [PiiTag, boolean]>();
  for (const { table } of tables) {
    for (const c of table.columns) {
      if (c.pii === null) continue;
      const key = JSON.stringify(c.pii);
      if (!tags.has(key)) tags.set(key, [c.pii, isBlocked(c.pii)]);
    }
  }
  store.setArtifact(SEARCH_INDEX_ARTIFACT, serializeIndex(buildSearchIndex(input), { generation, tags: [...tags.values()] }));
  const view = new CatalogView(generation, sources.map((s) => s.info), rows);
  store.setArtifact(VIEW_FRAME_ARTIFACT, CatalogView.encodeFrame(view, generation), { text: true });
}

/** Artifacts of earlier catalog formats, dropped by the next index run (readers ignore them). */
const OLDER_ARTIFACTS = Array.from({ length: INDEX_FORMAT - 1 }, (_, i) => `search-index/v${i + 1}`);
