import fs from 'node:fs';
import path from 'node:path';
import { createFileLock, LockTimeoutError } from '../audit/lock';
import { processAlive } from '../util/process';
import { CatalogError } from './errors';
import { makeDirs } from '../util/make-dirs';

/**
 * Single-writer lock for the catalog: `<catalog>.lock`, the same lock file as the audit writer's (see
 * audit/lock.ts). It appears atomically with its complete owner record (pid, host, token, process start time: a
 * hard link of a fully written private file), so a second indexer can never read an empty or half-written lock
 * and take it for a dead owner's. A lock whose owner is gone (an indexer killed with SIGKILL, or a pid since
 * reused) is taken over, so a crash never wedges indexing; a live owner is waited for, however long it runs.
 * The writer checks `stillHeld()` right before it renames its new catalog into place.
 */

export interface CatalogLock {
  /** True while the lock file still carries this indexer's token. */
  stillHeld(): boolean;
  release(): void;
}

export async function acquireCatalogLock(catalogPath: string, timeoutMs = 30_000): Promise<CatalogLock> {
  const lockPath = `${catalogPath}.lock`;
  try {
    makeDirs(path.dirname(catalogPath), 0o700);
  } catch (e) {
    throw new CatalogError('io', `cannot create the catalog directory ${path.dirname(catalogPath)}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
  const lock = createFileLock(lockPath, { timeoutMs });
  let held;
  try {
    held = await lock.acquire();
  } catch (e) {
    lock.dispose();
    if (e instanceof LockTimeoutError) {
      throw new CatalogError('locked', `catalog is being written by ${e.ownerPid ? `process ${e.ownerPid}` : 'another process'} (lock ${lockPath}); try again when it finishes`);
    }
    throw new CatalogError('io', `cannot create lock ${lockPath}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
  removeDeadTempCatalogs(catalogPath);
  let released = false;
  return {
    stillHeld: () => !released && held.stillHeld(),
    release() {
      if (released) return;
      released = true;
      held.release();
      lock.dispose();
    },
  };
}

/**
 * `.catalog.sqlite.<pid>.<ms>.tmp` files are an indexer's catalog being written (store.save); one whose pid no
 * longer runs was left by an indexer killed before its rename. Called under the lock, so no live writer of this
 * catalog is between its write and its rename (a live pid's file is kept regardless).
 */
export function removeDeadTempCatalogs(catalogPath: string): string[] {
  const dir = path.dirname(catalogPath);
  const prefix = `.${path.basename(catalogPath)}.`;
  const removed: string[] = [];
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return removed;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const m = /^(\d+)\.\d+\.tmp$/.exec(name.slice(prefix.length));
    const pid = m ? Number(m[1]) : 0;
    if (!m || pid === process.pid || processAlive(pid)) continue;
    try {
      fs.unlinkSync(path.join(dir, name));
      removed.push(name);
    } catch {
      // removed by someone else
    }
  }
  return removed;
}
