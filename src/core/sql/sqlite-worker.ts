import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { SqlGuard } from './guard';
import { sqliteFunctionRefusal } from './sqlite-exec';
import type { SqliteMaskPlan } from './sqlite-mask';
import type { QueryCaps, QueryOutcome } from './types';
import { DEFAULT_CAPS } from './types';

/**
 * Runs guarded SQLite queries on a worker thread that owns an in-memory copy of the source, so a statement that
 * computes past its deadline without yielding a row (sql.js cannot interrupt one) is stopped by terminating the
 * thread; the next call starts a fresh worker from the same bytes. One query at a time per worker; create one per
 * source and `close()` it with the source.
 */
export interface SqliteWorkerOptions {
  /** The database file's bytes (copied into the worker). */
  readonly bytes: Uint8Array;
  /** The worker entry (compiled `sqlite-worker-main.js`); defaults to the file beside this module. */
  readonly workerScript?: string;
  /** Node flags for the worker, e.g. `['--require', 'tsx/cjs']` when running from TypeScript sources. */
  readonly execArgv?: string[];
  /** Where sql.js finds `sql-wasm.wasm` when it is not beside the sql.js module (bundled builds). */
  readonly wasmPath?: string;
  /** Slack over `timeoutMs` before the worker is terminated (the worker's own between-row check fires first). */
  readonly graceMs?: number;
  /** Blocked columns overwritten with NULL in the worker's copy before the first statement (sqlite-mask.ts). */
  readonly mask?: SqliteMaskPlan;
}

type Reply = { id: number; outcome: QueryOutcome } | { ready: true; emptied?: string[] } | { fatal: string };

export class SqliteQueryWorker {
  private worker: Worker | null = null;
  private ready: Promise<void> | null = null;
  private nextId = 1;
  private queue: Promise<unknown> = Promise.resolve();
  /** Tables the mask emptied in this worker's copy (a blocked column it could not overwrite); known once it is ready. */
  emptied: readonly string[] = [];

  constructor(
    private readonly guard: SqlGuard,
    private readonly options: SqliteWorkerOptions,
  ) {}

  run(sql: string, params: readonly unknown[] | Readonly<Record<string, unknown>> = [], caps: Partial<QueryCaps> = {}): Promise<QueryOutcome> {
    const result = this.queue.then(() => this.runNow(sql, params, caps));
    this.queue = result.catch(() => undefined);
    return result;
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    this.ready = null;
    if (w) await w.terminate();
  }

  private start(): Promise<void> {
    if (this.worker && this.ready) return this.ready;
    const script = this.options.workerScript ?? path.join(__dirname, 'sqlite-worker-main.js');
    const w = new Worker(script, {
      workerData: { bytes: this.options.bytes, wasmPath: this.options.wasmPath, mask: this.options.mask },
      execArgv: this.options.execArgv,
    });
    this.worker = w;
    this.ready = new Promise<void>((resolve, reject) => {
      const onMessage = (m: Reply): void => {
        if ('ready' in m) {
          w.off('message', onMessage);
          this.emptied = m.emptied ?? [];
          resolve();
        } else if ('fatal' in m) {
          w.off('message', onMessage);
          reject(new Error(m.fatal));
        }
      };
      w.on('message', onMessage);
      w.once('error', reject);
    });
    return this.ready;
  }

  private async runNow(sql: string, params: readonly unknown[] | Readonly<Record<string, unknown>>, caps: Partial<QueryCaps>): Promise<QueryOutcome> {
    const g = this.guard.guard(sql, 'sqlite');
    if (!g.ok) return { ok: false, kind: 'refused', guard: g };
    const refused = sqliteFunctionRefusal(g, sql);
    if (refused) return refused;
    if (caps.signal?.aborted) return { ok: false, kind: 'cancelled', message: 'the query was cancelled before it started', code: null };
    const timeoutMs = caps.timeoutMs ?? DEFAULT_CAPS.timeoutMs;
    try {
      await this.start();
    } catch (e) {
      await this.close();
      return { ok: false, kind: 'database_error', message: `the SQLite worker did not start: ${e instanceof Error ? e.message : String(e)}`, code: null };
    }
    const w = this.worker as Worker;
    const id = this.nextId++;
    const plainCaps = { timeoutMs, maxRows: caps.maxRows ?? DEFAULT_CAPS.maxRows, maxBytes: caps.maxBytes ?? DEFAULT_CAPS.maxBytes };
    return new Promise<QueryOutcome>((resolve) => {
      let settled = false;
      const finish = (o: QueryOutcome, kill: boolean): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        w.off('message', onMessage);
        w.off('error', onError);
        caps.signal?.removeEventListener('abort', onAbort);
        if (kill) void this.close();
        resolve(o);
      };
      const onMessage = (m: Reply): void => {
        if ('id' in m && m.id === id) finish(m.outcome, false);
      };
      const onError = (e: Error): void => finish({ ok: false, kind: 'database_error', message: e.message, code: null }, true);
      const onAbort = (): void => finish({ ok: false, kind: 'cancelled', message: 'the query was cancelled', code: null }, true);
      const timer = setTimeout(
        () => finish({ ok: false, kind: 'timeout', message: `the query ran longer than ${timeoutMs} ms`, code: 'SQLITE_INTERRUPT' }, true),
        timeoutMs + (this.options.graceMs ?? 250),
      );
      w.on('message', onMessage);
      w.once('error', onError);
      caps.signal?.addEventListener('abort', onAbort, { once: true });
      w.postMessage({ id, sql, params, caps: plainCaps, meta: { statementKind: g.statementKind, fingerprint: g.fingerprint } });
    });
  }
}
