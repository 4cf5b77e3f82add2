/**
 * Worker-thread entry for `SqliteQueryWorker`: owns one sql.js copy of a SQLite source and runs layers 2 and 3 on
 * it, so the parent can terminate the thread when a statement computes past its deadline (sql.js has no
 * sqlite3_interrupt). Messages: `{ id, sql, params, caps, meta }` in, `{ id, outcome }` out.
 */
import { parentPort, workerData } from 'node:worker_threads';
import initSqlJs from 'sql.js';
import { executeReadOnlySqlite } from './sqlite-exec';
import { applySqliteMask, type SqliteMaskPlan } from './sqlite-mask';
import type { ExecuteMeta } from './pg-exec';
import type { QueryCaps } from './types';

interface WorkerInit {
  readonly bytes: Uint8Array;
  readonly wasmPath?: string;
  readonly mask?: SqliteMaskPlan;
}

interface RunMessage {
  readonly id: number;
  readonly sql: string;
  readonly params: readonly unknown[] | Readonly<Record<string, unknown>>;
  readonly caps: Omit<QueryCaps, 'signal'>;
  readonly meta: ExecuteMeta;
}

async function start(): Promise<void> {
  const init = workerData as WorkerInit;
  const SQL = await initSqlJs(init.wasmPath ? { locateFile: () => init.wasmPath as string } : undefined);
  const db = new SQL.Database(init.bytes);
  const { emptied } = init.mask ? applySqliteMask(db, init.mask) : { emptied: [] as string[] };
  parentPort?.on('message', (m: RunMessage) => {
    const outcome = executeReadOnlySqlite(db, m.sql, m.params, m.caps, m.meta);
    parentPort?.postMessage({ id: m.id, outcome });
  });
  parentPort?.postMessage({ ready: true, emptied });
}

void start().catch((e: unknown) => {
  parentPort?.postMessage({ fatal: e instanceof Error ? e.message : String(e) });
});
