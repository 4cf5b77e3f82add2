import type { SourceInfo } from '../catalog/model';
import type { IndexEvent } from './run-index';
import { acquireCatalogLock, type CatalogLock } from '../catalog/lock';
import { readCatalogSummary } from '../catalog/summary';
import type { Introspector } from '../sources/introspector';
import { INDEX_FORMAT } from '../search/format';
import type { SourceSpec } from '../sources/locator';
import { writeJobStatus } from './job-status';

/**
 * The unchanged re-index, decided from the catalog's summary file (see catalog/summary.ts) and one digest query:
 * no SQLite engine, no catalog read, no search code. `runIndex` asks it first; the CLI's `index` verb asks it from a
 * small bundle of its own before it loads the rest of the product, so a re-index that finds nothing to do costs a
 * process start, a connection and one query.
 */

export interface SummarizedSource {
  readonly info: SourceInfo;
  readonly generation: number;
  readonly structureDigest: string;
}

/**
 * The digest an index run records and compares: the source's structure digest, the search index format and the PII
 * policy the run classified under (pii/policy.ts, policyDigest: empty for the default policy). A catalog indexed when
 * the format was another one is therefore not "unchanged": its next run re-reads the source and writes the search
 * index again, instead of leaving every server to rebuild it from the relations; nor is one indexed under another
 * policy (a column override added since applies at once, not on the next structural change).
 */
export function indexDigest(sourceDigest: string, policy = ''): string {
  return `${sourceDigest}:search-v${INDEX_FORMAT}${policy ? `:pii-${policy}` : ''}`;
}

/** The source as the summary of the catalog file records it, or null when there is no usable record to compare. */
export function summarizedSource(catalogPath: string, spec: SourceSpec): SummarizedSource | null {
  const summary = readCatalogSummary(catalogPath);
  const s = summary?.sources.find((x) => x.info.name === spec.name);
  if (!summary || !s || s.info.id !== spec.id || s.structureDigest === null) return null;
  return { info: s.info, generation: summary.generation, structureDigest: s.structureDigest };
}

export interface UnchangedOutcome {
  readonly source: SourceInfo;
  readonly generation: number;
  readonly mode: 'unchanged';
  readonly tablesTotal: number;
  readonly tablesChanged: 0;
  readonly tablesRemoved: 0;
  readonly piiColumns: null;
  readonly durationMs: number;
}

/** The last progress event of a run that found the structure unchanged. */
export const UNCHANGED_EVENT: IndexEvent = { type: 'progress', phase: 'done', done: 1, total: 1, percent: 100, message: 'structure unchanged' };

export function unchangedOutcome(s: { info: SourceInfo; generation: number }, started: number): UnchangedOutcome {
  return { source: s.info, generation: s.generation, mode: 'unchanged', tablesTotal: s.info.tableCount, tablesChanged: 0, tablesRemoved: 0, piiColumns: null, durationMs: Date.now() - started };
}

export interface QuickCheckOptions {
  readonly spec: SourceSpec;
  readonly catalogPath: string;
  readonly introspector: () => Introspector;
  readonly schemas?: readonly string[];
  readonly sampleRows?: number;
  readonly signal?: AbortSignal;
  /** Progress, as `runIndex` reports it: here only the 'done' event of an unchanged structure. */
  readonly onEvent?: (e: IndexEvent) => void;
}

/**
 * Answers an unchanged re-index under the catalog lock, with its job status, exactly as `runIndex` would; null
 * (nothing written, lock released) when the summary is missing or the digest differs, and a full run must decide.
 * A failure (the source unreachable, the lock held past its timeout, a cancel) is recorded in the job status and
 * thrown as `runIndex` would throw it, so the caller reports it without trying the source a second time.
 */
export async function quickUnchanged(opts: QuickCheckOptions): Promise<UnchangedOutcome | null> {
  const started = Date.now();
  if (opts.signal?.aborted) throw new IndexCancelledError();
  if (!summarizedSource(opts.catalogPath, opts.spec)) return null;
  const job = (state: 'succeeded' | 'failed' | 'cancelled', extra: Record<string, unknown>): void =>
    writeJobStatus(opts.catalogPath, { state, source: opts.spec.name, pid: process.pid, startedAt: new Date(started).toISOString(), ...extra });
  // The digest query (a read of the source) runs while the catalog lock is taken.
  const introspector: Introspector = opts.introspector();
  const digestRun = introspector.structureDigest({ schemas: opts.schemas, sampleRows: opts.sampleRows, signal: opts.signal }).then((d) => indexDigest(d));
  let lock: CatalogLock;
  try {
    lock = await acquireCatalogLock(opts.catalogPath);
  } catch (e) {
    await digestRun.catch(() => undefined);
    await introspector.close().catch(() => undefined);
    throw e;
  }
  try {
    const digest = await digestRun;
    if (opts.signal?.aborted) throw new IndexCancelledError();
    // Read again under the lock: another indexer may have written the catalog since the look above.
    const now = summarizedSource(opts.catalogPath, opts.spec);
    if (!now || now.structureDigest !== digest) return null;
    opts.onEvent?.(UNCHANGED_EVENT);
    job('succeeded', { progress: 100, phase: 'unchanged' });
    return unchangedOutcome(now, started);
  } catch (e) {
    return failRun(job, e, opts.signal);
  } finally {
    await digestRun.catch(() => undefined);
    await introspector.close().catch(() => undefined);
    lock.release();
  }
}

/** Records a cancelled or failed run in the job status and throws it the way the caller reports it. */
export function failRun(job: (state: 'failed' | 'cancelled', extra: Record<string, unknown>) => void, e: unknown, signal: AbortSignal | undefined): never {
  if (e instanceof IndexCancelledError || signal?.aborted) {
    job('cancelled', { message: 'cancelled; the previous catalog is unchanged' });
    throw e instanceof IndexCancelledError ? e : new IndexCancelledError();
  }
  job('failed', { errorKind: (e as { code?: string }).code ?? 'error', message: (e as Error).message });
  throw e;
}

export class IndexCancelledError extends Error {
  constructor() {
    super('index cancelled; the previous catalog is unchanged');
    this.name = 'IndexCancelledError';
  }
}
